"""Shared fixtures: scratch copies of the project for pipeline tests.

Pipeline tests never touch the working tree's build/ or site/: they copy
the sources to a temporary folder and build there.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from pipeline.bench import copy_project

ROOT = Path(__file__).resolve().parent.parent


def run_build(project: Path, *args: str, check: bool = True) -> subprocess.CompletedProcess:
    env = {**os.environ, "NO_MKDOCS_2_WARNING": "1"}
    proc = subprocess.run([sys.executable, "-m", "pipeline", *args], cwd=project, env=env,
                          capture_output=True, text=True, timeout=1800)
    if check and proc.returncode != 0:
        raise AssertionError(f"pipeline {' '.join(args)} failed ({proc.returncode}):\n"
                             f"{proc.stdout[-4000:]}\n{proc.stderr[-4000:]}")
    return proc


@pytest.fixture
def project(tmp_path) -> Path:
    """A fresh copy of the project sources with no build."""
    dest = tmp_path / "project"
    copy_project(dest)
    return dest
