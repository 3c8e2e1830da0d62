"""The cache manifest: what was built, from what, and what it produced.

One entry per task ("data/<id>", "figures/<id>", "media/<preset>/<id>"):
its key, the parts the key was made from (so the build can say *why* a task
re-runs), its outputs with their hashes, and how long it took. An entry is
written only after the task succeeded and its outputs are in place.
"""

from __future__ import annotations

import json
from pathlib import Path

from pipeline import atomic, paths
from pipeline.hashing import file_hash

VERSION = 1


def _stat(rel: str) -> list[int]:
    st = (paths.ROOT / rel).stat()
    return [st.st_size, st.st_mtime_ns]


class Manifest:
    def __init__(self, path: Path = paths.MANIFEST):
        self.path = path
        self.entries: dict[str, dict] = {}
        try:
            raw = json.loads(path.read_text(encoding="utf-8"))
            if raw.get("version") == VERSION:
                self.entries = raw["entries"]
        except (FileNotFoundError, ValueError, KeyError, AttributeError):
            pass  # no or unreadable manifest: everything is a miss, nothing is wrong

    def get(self, task_id: str) -> dict | None:
        return self.entries.get(task_id)

    def record(self, task_id: str, key: str, parts: dict, outputs: dict, seconds: float) -> None:
        self.entries[task_id] = {"key": key, "parts": parts, "outputs": outputs,
                                 "stat": {rel: _stat(rel) for rel in outputs},
                                 "seconds": round(seconds, 3)}
        self.save()

    def forget(self, task_id: str) -> None:
        if self.entries.pop(task_id, None) is not None:
            self.save()

    def save(self) -> None:
        blob = json.dumps({"version": VERSION, "entries": self.entries}, sort_keys=True, indent=1)
        atomic.write_text(self.path, blob + "\n")

    def broken_output(self, task_id: str) -> str | None:
        """The first recorded output that is missing or changed, else None."""
        entry = self.entries[task_id]
        for rel, digest in entry["outputs"].items():
            p = paths.ROOT / rel
            if not p.is_file():
                return f"output missing: {rel}"
            # same size and mtime as recorded: trust it (as make does); else compare bytes
            if entry.get("stat", {}).get(rel) != _stat(rel) and file_hash(p) != digest:
                return f"output changed on disk: {rel}"
        return None

    def outputs(self) -> set[str]:
        return {rel for e in self.entries.values() for rel in e["outputs"]}

    def prune(self, keep_task) -> list[str]:
        """Drop entries `keep_task(id)` rejects, then delete files no entry owns."""
        for task_id in [t for t in self.entries if not keep_task(t)]:
            del self.entries[task_id]
        self.save()
        owned = self.outputs()
        removed = []
        for folder in (paths.DATA, paths.FIGURES, paths.MEDIA):
            if not folder.is_dir():
                continue
            for p in sorted(folder.rglob("*")):
                if p.is_file() and paths.rel(p) not in owned:
                    p.unlink()
                    removed.append(paths.rel(p))
        return removed
