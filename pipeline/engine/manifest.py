"""The cache manifest: what was built, from what, and what it produced.

One entry per task ("data/<id>", "figures/<id>", "media/<preset>/<id>", and the presenter
kit's "kit/deck/<id>" and "kit/overlay/<id>"):
its key, the parts the key was made from (so the build can say *why* a task
re-runs), its outputs with their hashes, and how long it took. An entry is
written only after the task succeeded and its outputs are in place.

A manifest that exists but cannot be read (truncated, not JSON, another
format version, entries of the wrong shape) is an error, `ManifestError`,
naming the file and the way out. It is never taken for an empty one: an
empty manifest owns nothing, and pruning on its strength would delete every
output of every scene the build did not touch.
"""

from __future__ import annotations

import json
from pathlib import Path

from pipeline import paths
from pipeline.engine import atomic

VERSION = 1


def _stat(rel: str) -> list[int]:
    st = (paths.ROOT / rel).stat()
    return [st.st_size, st.st_mtime_ns]


class ManifestError(Exception):
    """build/manifest.json exists but cannot be trusted; the message says what to do."""


def _way_out(path: Path) -> str:
    where = paths.rel(path) if path.is_relative_to(paths.ROOT) else str(path)
    return (f"{where}: cannot read the build record ({{}}); nothing was built or pruned. "
            f"Restore it, or delete it to rebuild every output from scratch: rm {where}")


class Manifest:
    def __init__(self, path: Path = paths.MANIFEST):
        self.path = path
        self.entries: dict[str, dict] = {}
        try:
            text = path.read_text(encoding="utf-8")
        except FileNotFoundError:
            return  # no manifest yet: everything is a miss, nothing is wrong
        except (OSError, UnicodeDecodeError) as e:
            raise ManifestError(_way_out(path).format(e)) from None
        try:
            raw = json.loads(text)
        except ValueError as e:
            raise ManifestError(_way_out(path).format(f"not valid JSON: {e}")) from None
        if not isinstance(raw, dict) or raw.get("version") != VERSION:
            version = raw.get("version") if isinstance(raw, dict) else None
            raise ManifestError(_way_out(path).format(f"format version {version!r}, expected {VERSION}"))
        entries = raw.get("entries")
        if not isinstance(entries, dict):
            raise ManifestError(_way_out(path).format("no 'entries' mapping"))
        for task_id, e in entries.items():
            if not (isinstance(e, dict) and isinstance(e.get("key"), str)
                    and isinstance(e.get("outputs"), dict) and isinstance(e.get("parts"), dict)
                    and isinstance(e.get("seconds"), (int, float))):
                raise ManifestError(_way_out(path).format(f"entry {task_id!r} is damaged"))
        self.entries = entries

    def get(self, task_id: str) -> dict | None:
        return self.entries.get(task_id)

    def record(self, task_id: str, key: str, parts: dict, outputs: dict, seconds: float,
               cpu: float | None = None) -> None:
        """`seconds` is wall time (the next build's cost and ETA); `cpu`, the worker's CPU seconds, when known."""
        self.entries[task_id] = {"key": key, "parts": parts, "outputs": outputs,
                                 "stat": {rel: _stat(rel) for rel in outputs},
                                 "seconds": round(seconds, 3),
                                 **({"cpu_seconds": round(cpu, 3)} if cpu is not None else {})}
        self.save()

    def forget(self, task_id: str) -> None:
        if self.entries.pop(task_id, None) is not None:
            self.save()

    def save(self) -> None:
        blob = json.dumps({"version": VERSION, "entries": self.entries}, sort_keys=True, indent=1)
        atomic.write_text(self.path, blob + "\n")

    def broken_output(self, task_id: str) -> str | None:
        """The first recorded output that is missing or changed, else None.

        The planning fast path: an output with its recorded size and mtime is trusted (as make does), so a
        damage that keeps both (bit rot, a bad copy) passes here and is caught by the byte check before
        publishing (`damaged`), which drops the output's recorded stat (`distrust`) so this compares bytes."""
        entry = self.entries[task_id]
        for rel, digest in entry["outputs"].items():
            p = paths.ROOT / rel
            if not p.is_file():
                return f"output missing: {rel}"
            if entry.get("stat", {}).get(rel) != _stat(rel) and atomic.file_sha256(p) != digest:
                return f"output changed on disk: {rel}"
        return None

    def damaged_outputs(self, task_id: str) -> dict[str, str]:
        """{file: what is wrong} for each of a task's recorded outputs that is missing or whose bytes differ
        from its hash (bytes read, whatever the size and mtime say)."""
        bad = {}
        for rel, digest in sorted(self.entries[task_id]["outputs"].items()):
            p = paths.ROOT / rel
            if not p.is_file():
                bad[rel] = "missing"
            elif atomic.file_sha256(p) != digest:
                bad[rel] = "bytes differ from the recorded hash"
        return bad

    def damaged(self) -> dict[str, dict[str, str]]:
        """{task id: its damaged outputs} over every entry (the byte check before publishing)."""
        return {task_id: bad for task_id in sorted(self.entries) if (bad := self.damaged_outputs(task_id))}

    def verify(self) -> list[str]:
        """Every recorded output whose file is missing or whose bytes differ from its hash."""
        return sorted(f"{rel}: {why}" for bad in self.damaged().values() for rel, why in bad.items())

    def distrust(self, task_id: str, outputs) -> None:
        """Forget the recorded size and mtime of each of `outputs` (a task's) that planning would still trust,
        and save: from then on every build compares their bytes when planning, so the task is a miss until
        re-run, even if this build stops first. (An output whose size or mtime already differs is compared
        anyway: the manifest is left as it is.)"""
        stats = self.entries[task_id].get("stat", {})
        trusted = [rel for rel in outputs if (paths.ROOT / rel).is_file() and stats.get(rel) == _stat(rel)]
        for rel in trusted:
            del stats[rel]
        if trusted:
            self.save()

    def outputs(self) -> set[str]:
        return {rel for e in self.entries.values() for rel in e["outputs"]}

    def prune(self, keep_task) -> list[str]:
        """Drop entries `keep_task(id)` rejects, then delete files no entry owns."""
        for task_id in [t for t in self.entries if not keep_task(t)]:
            del self.entries[task_id]
        self.save()
        owned = self.outputs()
        removed = []
        for folder in (paths.DATA, paths.FIGURES, paths.MEDIA, paths.BUILD / "explore", paths.BUILD / "presenter"):
            if not folder.is_dir():
                continue
            for p in sorted(folder.rglob("*")):
                if p.is_file() and paths.rel(p) not in owned:
                    p.unlink()
                    removed.append(paths.rel(p))
        return removed

    def mixed(self, scene_id: str, preset: str) -> str | None:
        """Why a scene's recorded outputs are not one consistent set, else None.

        Consistent: no entry at all (the page says "not built"), or data,
        figures and media all recorded, the figures and media drawn from the
        data now recorded. Anything else (a draw that failed after its model
        succeeded, a kill between stages) would put new numbers next to an
        old figure or video.
        """
        data = self.entries.get(f"data/{scene_id}")
        draws = {t: self.entries.get(t) for t in (f"figures/{scene_id}", f"media/{preset}/{scene_id}")}
        if data is None:
            present = [t for t, e in draws.items() if e is not None]
            return f"{present[0]} is recorded without data/{scene_id}" if present else None
        data_hash = data["outputs"].get(paths.rel(paths.data_json(scene_id)))
        for task_id, entry in draws.items():
            if entry is None:
                return f"data/{scene_id} is recorded but {task_id} is not"
            if entry["parts"].get("data") != data_hash:
                return f"{task_id} was drawn from other data than data/{scene_id} now holds"
        return None
