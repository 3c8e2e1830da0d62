"""Atomic writes: a reader sees the old file or the new one, never half of one.

Everything the build produces goes through here: write to a temporary file
beside the target, fsync, then os.replace. A killed build leaves at most a
stray `.tmp-*` file, which no later build or page reads (and the next build
sweeps). Files are rewritten only when their bytes change, so an unchanged
output keeps its mtime and downstream tools see no change.
"""

from __future__ import annotations

import hashlib
import os
import shutil
import tempfile
from pathlib import Path

TMP_PREFIX = ".tmp-"


def sha256(data: bytes) -> str:
    """The content hash recorded for every output (and used in every cache key)."""
    return hashlib.sha256(data).hexdigest()


def write_bytes(path: Path, data: bytes) -> bool:
    """Write `data` to `path` atomically; False (and no write) if unchanged."""
    path = Path(path)
    try:
        if path.stat().st_size == len(data) and path.read_bytes() == data:
            return False
    except FileNotFoundError:
        pass
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=TMP_PREFIX, dir=path.parent)
    try:
        with os.fdopen(fd, "wb") as f:
            f.write(data)
            f.flush()
            os.fsync(f.fileno())
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise
    return True


def write_text(path: Path, text: str) -> bool:
    return write_bytes(path, text.encode("utf-8"))


def move_into_place(src: Path, dst: Path) -> bool:
    """Move a finished file (e.g. a rendered video) to `dst` atomically.

    `src` may be on another directory of the same filesystem; it is first
    copied next to `dst` when a rename across devices is impossible.
    """
    src, dst = Path(src), Path(dst)
    if dst.exists() and _same(src, dst):
        src.unlink()
        return False
    dst.parent.mkdir(parents=True, exist_ok=True)
    try:
        os.replace(src, dst)
    except OSError:
        fd, tmp = tempfile.mkstemp(prefix=TMP_PREFIX, dir=dst.parent)
        os.close(fd)
        shutil.copyfile(src, tmp)
        os.replace(tmp, dst)
        src.unlink()
    return True


def _same(a: Path, b: Path) -> bool:
    if a.stat().st_size != b.stat().st_size:
        return False
    return hashlib.sha256(a.read_bytes()).digest() == hashlib.sha256(b.read_bytes()).digest()


def sweep_temporaries(root: Path) -> int:
    """Remove `.tmp-*` leftovers of interrupted writes under `root`."""
    n = 0
    for p in Path(root).rglob(f"{TMP_PREFIX}*"):
        if p.is_file():
            p.unlink(missing_ok=True)
            n += 1
        elif p.is_dir():
            shutil.rmtree(p, ignore_errors=True)
            n += 1
    return n
