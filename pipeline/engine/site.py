"""The site step: mkdocs builds the pages into a scratch folder, which then replaces site/ in one swap.

A failed page build leaves the previous site/ untouched."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

from pipeline import paths
from pipeline.engine import atomic
from pipeline.engine.limits import SITE_TIMEOUT


def build_site(preset: str, strict: bool = True, timeout: float | None = None,
               extra: list[tuple[str, dict]] = (), env: dict | None = None) -> bool:
    """mkdocs build into a scratch folder, then swap it for site/.

    A failed page build leaves the previous site/ untouched. The swap is one
    renameat2(RENAME_EXCHANGE) on Linux, so site/ never disappears; on other
    platforms it is two renames back to back and site/ is absent only between
    them (atomic.swap_dirs). `extra`: (folder in the site, environment) of further mkdocs runs, one
    per other scenario built (pipeline/stages/scenario_data.py: sites); `env`: the default site's.
    """
    tmp = paths.BUILD / f"{atomic.TMP_PREFIX}site"
    shutil.rmtree(tmp, ignore_errors=True)
    for folder, run_env in [("", env or {}), *extra]:  # the default first: mkdocs empties the folder it builds into
        if not _mkdocs(tmp / folder if folder else tmp, preset, strict, timeout, run_env, folder):
            shutil.rmtree(tmp, ignore_errors=True)
            return False
    old = paths.BUILD / f"{atomic.TMP_PREFIX}site-old"
    shutil.rmtree(old, ignore_errors=True)
    atomic.swap_dirs(tmp, paths.SITE, old)
    shutil.rmtree(old, ignore_errors=True)
    return True


def _mkdocs(dest: Path, preset: str, strict: bool, timeout: float | None, run_env: dict, folder: str) -> bool:
    cmd = [sys.executable, "-m", "mkdocs", "build", "--site-dir", str(dest)]
    if strict:
        cmd.append("--strict")
    env = {**os.environ, "W06_PRESET": preset, "NO_MKDOCS_2_WARNING": "1", **run_env}
    limit = max(SITE_TIMEOUT, timeout or 0.0)
    what = f" ({folder})" if folder else ""
    try:
        proc = subprocess.run(cmd, cwd=paths.ROOT, env=env, capture_output=True, text=True, timeout=limit)
    except subprocess.TimeoutExpired:
        print(f"mkdocs build{what} timed out after {limit:.0f}s (killed): site/ left as it was", file=sys.stderr)
        return False
    if proc.returncode != 0:
        # mkdocs' own INFO chatter is noise on success; on failure it is the diagnosis
        print(proc.stdout + proc.stderr, file=sys.stderr)
        print(f"mkdocs build{what} failed: site/ left as it was", file=sys.stderr)
        return False
    return True


