"""A scratch copy of the project: what a build reads, without build/, site/ or .venv.

The benchmark, the deploy check and the tests build in such a copy, so the working tree's own
build/ and site/ are never touched by them. `link_build` gives a copy the cache of an existing
build by hard links: seconds for the whole preview build, and safe because the build never writes
a file in place (every output, the manifest and the report are written aside and renamed over,
pipeline/engine/atomic.py), so a rebuild in the copy replaces its links and leaves the original's
files as they were."""

from __future__ import annotations

import os
import shutil
from pathlib import Path

from pipeline import paths

COPY = ("catalogue.yml", "mkdocs.yml", "models", "scenes", "design", "figures", "pipeline", "docs")
# what a build reads back from build/ (the cache): the outputs, their manifest and the recorded costs
BUILD_CACHE = ("data", "figures", "media", "explore", "scenario", "presenter", "manifest.json", "report.json")


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


def link_build(src: Path, dest: Path, names: tuple[str, ...] = BUILD_CACHE) -> None:
    """Give `dest` (a project copy without build/) the cache in `src` (a build/ folder), hard-linked:
    the `names` under it that exist.

    Whoever writes into the copy outside the build must replace a file, never write through it
    (unlink first): a write through a link would change `src` too."""
    if (dest / "build").exists():
        raise FileExistsError(f"{dest / 'build'}: already exists; link_build fills an empty copy")
    (dest / "build").mkdir(parents=True)
    for name in names:
        if (src / name).is_dir():
            shutil.copytree(src / name, dest / "build" / name, copy_function=os.link)
        elif (src / name).is_file():
            os.link(src / name, dest / "build" / name)
