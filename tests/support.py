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
