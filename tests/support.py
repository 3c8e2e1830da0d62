"""Helpers the tests share, as a plain module (fixtures stay in conftest.py)."""

from __future__ import annotations

import hashlib
import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def run_build(project: Path, *args: str, check: bool = True) -> subprocess.CompletedProcess:
    """`python -m pipeline ARGS` in `project` (a scratch copy), failing with its output unless `check` is off."""
    env = {**os.environ, "NO_MKDOCS_2_WARNING": "1"}
    proc = subprocess.run([sys.executable, "-m", "pipeline", *args], cwd=project, env=env,
                          capture_output=True, text=True, timeout=1800)
    if check and proc.returncode != 0:
        raise AssertionError(f"pipeline {' '.join(args)} failed ({proc.returncode}):\n"
                             f"{proc.stdout[-4000:]}\n{proc.stderr[-4000:]}")
    return proc


def working_tree_state(root: Path) -> dict[str, str]:
    """sha256 of `root`'s build/manifest.json and of every file under its site/, by path (what `make` leaves)."""
    files = [root / "build" / "manifest.json", *sorted((root / "site").rglob("*"))]
    return {str(p.relative_to(root)): hashlib.sha256(p.read_bytes()).hexdigest() for p in files if p.is_file()}


def changed_files(before: dict[str, str], after: dict[str, str]) -> list[str]:
    """The paths added, removed or changed between two working_tree_state()s, each saying which."""
    added = [f"{p}: added" for p in sorted(set(after) - set(before))]
    removed = [f"{p}: removed" for p in sorted(set(before) - set(after))]
    changed = [f"{p}: changed" for p in sorted(set(before) & set(after)) if before[p] != after[p]]
    return added + removed + changed


def sources_newer_than(root: Path, built: Path) -> list[str]:
    """The sources a build reads (project_copy.COPY) last modified after `built` (all when it is missing):
    when there are none, `make` would leave site/ as it is."""
    from pipeline.engine.project_copy import COPY

    if not built.is_file():
        return ["(no site built)"]
    since = built.stat().st_mtime_ns
    paths = [p for name in COPY for p in ([root / name] if (root / name).is_file() else (root / name).rglob("*"))]
    return sorted(str(p.relative_to(root)) for p in paths
                  if p.is_file() and "__pycache__" not in p.parts and p.stat().st_mtime_ns > since)


def current_outputs(scene_id: str, kind: str) -> dict[str, bytes] | None:
    """The working tree's build outputs of one scene's `kind` task ("compute" or "media", at the preview
    preset), by path relative to the root, when `make` would not redo that task: its key, planned now
    from the sources as the build plans it, is the one recorded in build/manifest.json, and every output's
    bytes hash to what the manifest recorded. None otherwise (never built, sources edited since, damaged).

    The cache's own rule (the determinism test proves a key gives the same bytes in any process), so a
    test may read a current output instead of recomputing it: the model tests read `make`'s data, and
    the scene tests the record the render kept of its beats and frame checks, rather than dry-running
    the scene again. Every assertion still runs on those bytes."""
    from pipeline.catalogue import load
    from pipeline.engine import registry
    from pipeline.engine.manifest import Manifest, ManifestError

    try:
        manifest = Manifest()
    except (ManifestError, OSError, ValueError):
        return None
    ctx = registry.Context(load(), "preview", only=[scene_id])
    task = next((t for t in registry.roots(ctx) if t.kind == "compute" and t.scene.id == scene_id), None)
    if task is None or _stale(task, manifest):
        return None
    if kind == "media":
        task = next((t for t in registry.followers(task, ctx) if t.kind == "media"), None)
        if task is None or _stale(task.keyed(), manifest):
            return None
    elif kind != "compute":
        raise ValueError(f"current_outputs: kind {kind!r}: compute or media")
    outputs = {}
    for rel, digest in manifest.get(task.id)["outputs"].items():
        blob = (ROOT / rel).read_bytes() if (ROOT / rel).is_file() else b""
        if hashlib.sha256(blob).hexdigest() != digest:
            return None
        outputs[rel] = blob
    return outputs


def _stale(task, manifest) -> bool:
    recorded = manifest.get(task.id)
    return recorded is None or recorded["key"] != task.key
