"""A scratch copy of the project: what a build reads, without build/, site/ or .venv.

The benchmark, the deploy check and the tests build in such a copy, so the working tree's own
build/ and site/ are never touched by them."""

from __future__ import annotations

import shutil
from pathlib import Path

from pipeline import paths

COPY = ("catalogue.yml", "mkdocs.yml", "models", "scenes", "design", "figures", "pipeline", "docs")


def copy_project(dest: Path) -> None:
    """Replace `dest` with a fresh copy of the sources a build reads (COPY)."""
    shutil.rmtree(dest, ignore_errors=True)
    dest.mkdir(parents=True)
    for name in COPY:
        src = paths.ROOT / name
        if src.is_dir():
            shutil.copytree(src, dest / name, ignore=shutil.ignore_patterns("__pycache__"))
        else:
            shutil.copy2(src, dest / name)
