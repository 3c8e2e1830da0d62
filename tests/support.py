"""Helpers the tests share, as a plain module (fixtures stay in conftest.py)."""

from __future__ import annotations

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
