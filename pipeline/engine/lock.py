"""One build at a time: the build holds `fcntl.flock` on build/.lock from before it sweeps
temporaries until it ends; a second build says another is running and exits 3 without touching
anything."""

from __future__ import annotations

import fcntl
import os
from pathlib import Path

from pipeline import paths

LOCK = ".lock"  # build/.lock: held (flock) for the whole build


class BuildLocked(Exception):
    """Another build holds build/.lock."""


class Lock:
    """fcntl.flock on build/.lock for the whole build: two builds never share build/."""

    def __init__(self, build_dir: Path):
        self.path = build_dir / LOCK
        self.fd: int | None = None

    def __enter__(self) -> Lock:
        self.path.parent.mkdir(parents=True, exist_ok=True)
        fd = os.open(self.path, os.O_RDWR | os.O_CREAT, 0o644)
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            holder = os.read(fd, 64).decode(errors="replace").strip() or "?"
            os.close(fd)
            raise BuildLocked(f"another build is running (pid {holder}, holding {paths.rel(self.path)}); "
                              "wait for it to finish, nothing was changed") from None
        os.ftruncate(fd, 0)
        os.write(fd, str(os.getpid()).encode())
        self.fd = fd
        return self

    def __exit__(self, *exc) -> None:
        if self.fd is not None:
            fcntl.flock(self.fd, fcntl.LOCK_UN)
            os.close(self.fd)
            self.fd = None


