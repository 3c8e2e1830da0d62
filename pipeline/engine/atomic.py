"""Atomic writes: a reader sees the old file or the new one, never half of one.

Everything the build produces goes through here: write to a temporary file
beside the target, fsync it, os.replace, then fsync the directory so the
rename itself survives a power cut. Videos get the same treatment
(`move_into_place` fsyncs the rendered file before renaming it). A killed
build leaves at most a stray `.tmp-*` file, which no later build or page
reads (and the next build, once it holds the build lock, sweeps). Files are
rewritten only when their bytes change, so an unchanged output keeps its
mtime and downstream tools see no change.

A stage with several outputs uses `commit()`: every new file is first staged
as a fsynced temporary beside its target, and only when all of them are
staged are they renamed into place, back to back. A failure while staging
(disk full, a bug, a kill) changes nothing; only a kill in the few
microseconds of the rename run can leave a mix, and the site refuses to
publish any output whose bytes differ from the manifest (site_hooks.py).

`swap_dirs()` exchanges the new site/ with the old one: one renameat2
(RENAME_EXCHANGE) on Linux, so there is no moment without a site/; elsewhere
two renames, with site/ absent only between them.
"""

from __future__ import annotations

import ctypes
import ctypes.util
import hashlib
import os
import shutil
import tempfile
from pathlib import Path

TMP_PREFIX = ".tmp-"


def sha256(data: bytes) -> str:
    """The content hash recorded for every output (and used in every cache key)."""
    return hashlib.sha256(data).hexdigest()


def fsync_dir(path: Path) -> None:
    """Make the renames in directory `path` durable (no-op where directories cannot be opened)."""
    try:
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_DIRECTORY", 0))
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError:
        pass  # some filesystems refuse fsync on a directory
    finally:
        os.close(fd)


def _fsync_file(path: Path) -> None:
    fd = os.open(path, os.O_RDONLY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


def _unchanged(path: Path, data: bytes) -> bool:
    try:
        return path.stat().st_size == len(data) and path.read_bytes() == data
    except FileNotFoundError:
        return False


def _stage(path: Path, data: bytes) -> Path:
    """`data` in a fsynced temporary beside `path`."""
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=TMP_PREFIX, dir=path.parent)
    try:
        with os.fdopen(fd, "wb") as f:
            f.write(data)
            f.flush()
            os.fsync(f.fileno())
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise
    return Path(tmp)


def write_bytes(path: Path, data: bytes) -> bool:
    """Write `data` to `path` atomically; False (and no write) if unchanged."""
    path = Path(path)
    if _unchanged(path, data):
        return False
    tmp = _stage(path, data)
    try:
        os.replace(tmp, path)
    except BaseException:
        tmp.unlink(missing_ok=True)
        raise
    fsync_dir(path.parent)
    return True


def write_text(path: Path, text: str) -> bool:
    return write_bytes(path, text.encode("utf-8"))


def _stage_move(src: Path, dst: Path) -> Path:
    """`src` as a fsynced temporary beside `dst` (renamed if it can be, else copied)."""
    dst.parent.mkdir(parents=True, exist_ok=True)
    _fsync_file(src)
    fd, tmp = tempfile.mkstemp(prefix=TMP_PREFIX, dir=dst.parent)
    os.close(fd)
    tmp = Path(tmp)
    try:
        try:
            os.replace(src, tmp)
        except OSError:  # another device: copy, then fsync the copy
            shutil.copyfile(src, tmp)
            _fsync_file(tmp)
            src.unlink()
    except BaseException:
        tmp.unlink(missing_ok=True)
        raise
    return tmp


def move_into_place(src: Path, dst: Path) -> bool:
    """Move a finished file (e.g. a rendered video) to `dst` atomically and durably.

    `src` may be on another filesystem; it is then copied to a temporary next
    to `dst` first, and that temporary never outlives a failure.
    """
    src, dst = Path(src), Path(dst)
    if dst.exists() and _same(src, dst):
        src.unlink()
        return False
    tmp = _stage_move(src, dst)
    try:
        os.replace(tmp, dst)
    except BaseException:
        tmp.unlink(missing_ok=True)
        raise
    fsync_dir(dst.parent)
    return True


def commit(blobs: dict[Path, bytes], moves: dict[Path, Path] | None = None) -> dict[Path, str]:
    """Write several outputs together: stage all, then rename all. Their sha256 by path.

    `blobs` maps target -> bytes; `moves` maps target -> a finished file to move
    there (a video). Nothing at a target changes unless every one was staged.
    """
    staged: list[tuple[Path, Path]] = []
    hashes: dict[Path, str] = {}
    try:
        for path, data in blobs.items():
            path = Path(path)
            hashes[path] = sha256(data)
            if not _unchanged(path, data):
                staged.append((_stage(path, data), path))
        for path, src in (moves or {}).items():
            path, src = Path(path), Path(src)
            hashes[path] = file_sha256(src)
            if path.exists() and _same(src, path):
                src.unlink()
            else:
                staged.append((_stage_move(src, path), path))
    except BaseException:
        for tmp, _ in staged:
            tmp.unlink(missing_ok=True)
        raise
    for tmp, path in staged:
        os.replace(tmp, path)
    for folder in {p.parent for _, p in staged}:
        fsync_dir(folder)
    return hashes


def file_sha256(path: Path) -> str:
    h = hashlib.sha256()
    with open(path, "rb") as f:
        for chunk in iter(lambda: f.read(1 << 20), b""):
            h.update(chunk)
    return h.hexdigest()


def _same(a: Path, b: Path) -> bool:
    if a.stat().st_size != b.stat().st_size:
        return False
    return file_sha256(a) == file_sha256(b)


_RENAME_EXCHANGE = 2
_AT_FDCWD = -100


def _exchange(a: Path, b: Path) -> bool:
    """Swap two paths in one atomic step (Linux renameat2); False where unsupported."""
    try:
        libc = ctypes.CDLL(ctypes.util.find_library("c") or None, use_errno=True)
        fn = libc.renameat2
    except (OSError, AttributeError):
        return False
    fn.argtypes = [ctypes.c_int, ctypes.c_char_p, ctypes.c_int, ctypes.c_char_p, ctypes.c_uint]
    rc = fn(_AT_FDCWD, os.fsencode(a), _AT_FDCWD, os.fsencode(b), _RENAME_EXCHANGE)
    return rc == 0


def swap_dirs(new: Path, live: Path, old: Path) -> str:
    """Put directory `new` at `live`; the previous `live` ends at `old` (for the caller to delete).

    Linux: one atomic exchange, so `live` always exists. Elsewhere (or on a
    filesystem without RENAME_EXCHANGE): two renames back to back; `live` is
    missing only between them. Returns "exchange" or "rename".
    """
    new, live, old = Path(new), Path(live), Path(old)
    if live.exists() and _exchange(new, live):
        os.replace(new, old)  # `new` now holds the previous site
        fsync_dir(live.parent)
        return "exchange"
    if live.exists():
        os.replace(live, old)
    os.replace(new, live)
    fsync_dir(live.parent)
    return "rename"


def sweep_temporaries(root: Path) -> int:
    """Remove `.tmp-*` leftovers of interrupted writes under `root` (hold the build lock)."""
    n = 0
    for p in Path(root).rglob(f"{TMP_PREFIX}*"):
        if p.is_file():
            p.unlink(missing_ok=True)
            n += 1
        elif p.is_dir():
            shutil.rmtree(p, ignore_errors=True)
            n += 1
    return n
