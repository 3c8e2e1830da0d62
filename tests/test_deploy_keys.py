"""`python -m pipeline keys`: the deploy workflow's cache key is the pipeline's own content hashes.

The digest must be stable (same tree, any folder: CI checks out elsewhere), ignore what no task
reads (pages, README), and change exactly when a task's key changes, naming that task.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from pipeline.engine import keys

ROOT = Path(__file__).resolve().parent.parent


def cli_keys(project: Path, *args: str) -> tuple[str, dict[str, str]]:
    """(digest, {task id: key}) printed by `python -m pipeline keys --tasks` in `project`."""
    proc = subprocess.run([sys.executable, "-m", "pipeline", "keys", "--tasks", *args], cwd=project,
                          capture_output=True, text=True, timeout=300,
                          env={**os.environ, "PYTHONDONTWRITEBYTECODE": "1"})
    assert proc.returncode == 0, proc.stderr
    *rows, digest = proc.stdout.strip().splitlines()
    tasks = dict(reversed(row.split("  ")) for row in rows)
    return digest, tasks


def changed(a: dict, b: dict) -> set[str]:
    return {t for t in set(a) | set(b) if a.get(t) != b.get(t)}


def test_digest_covers_every_task_and_is_stable(catalogue):
    tasks = keys.task_keys(catalogue, "hd")
    n, panels = len(catalogue.built), sum(1 for s in catalogue.built if s.explore)
    assert n and panels and len(tasks) == 3 * n + panels
    assert {t.split("/")[0] for t in tasks} == {"data", "figures", "media", "explore"}
    assert all(t.startswith("media/hd/") for t in tasks if t.startswith("media/"))
    assert keys.run_digest(catalogue, "hd") == keys.run_digest(catalogue, "hd")
    # the preset changes the media keys and nothing else
    other = keys.task_keys(catalogue, "preview")
    assert {t for t in tasks if not t.startswith("media/")} == {t for t in tasks if other.get(t) == tasks[t]}
    assert keys.run_digest(catalogue, "hd") != keys.run_digest(catalogue, "preview")


def test_digest_changes_exactly_when_a_task_key_changes(project, catalogue):
    """One run in a copy elsewhere, with pages and the README edited (no task reads them) and one
    scene's animation edited: every other task keeps its key, that scene's media task alone moves."""
    here = keys.task_keys(catalogue, "preview")
    (project / "docs" / "index.md").write_text((project / "docs" / "index.md").read_text() + "\nMore words.\n")
    (project / "README.md").write_text("changed\n")
    scene = next(s for s in catalogue.built
                 if sum(x.scene.split(":")[0] == s.scene.split(":")[0] for x in catalogue.built) == 1)
    module = project / (scene.scene.split(":")[0].replace(".", "/") + ".py")
    module.write_text(module.read_text() + "\n# an edit\n")
    digest, tasks = cli_keys(project)
    assert changed(here, tasks) == {f"media/preview/{scene.id}"}
    assert len(digest) == 64 and digest != keys.run_digest(catalogue, "preview")
    # the digest is the one over these keys: put the old key back and it is the old digest
    assert keys.digest(sorted({**tasks, f"media/preview/{scene.id}": here[f"media/preview/{scene.id}"]}.items())) \
        == keys.run_digest(catalogue, "preview")
