"""Rendering sharded over machines: the plan, the partial manifest, the merge.

    python -m pipeline build --preset P --shard I/N [-j J]     shard I of N (1-based) renders its share
    python -m pipeline merge --preset P DIR [DIR ...] [--no-site]
                                                              N shards' build/ folders -> build/ and site/

The plan. The draw tasks (figures/<id>, media/<preset>/<id>, and explore/<id> for a scene with an
Explore panel; with `--kit` also the presenter kit's media/hd/<id>, media/4k/<id> and kit/overlay/<id>,
and kit/deck/<id>, which goes with its hd render: it cuts that file) of the scenes selected (every built
scene, or `--only`) are shared out over N shards by longest-processing-time greedy: tasks in order of falling
cost (ties by task id), each to the shard with the least work so far (ties to the lowest index). A
task's cost is the seconds it took when it last ran: from build/report.json if the last build ran it,
else from its build/manifest.json entry (the build that made its current output), else the same
first-build guess the build's progress line uses (its stage's COST: figures 2 s, media 20 s at
preview, scaled by pixels x frame rate for hd and 4k). So the same catalogue and the same build/ (CI
restores one cache on every runner) give the same plan on every runner; the plan is printed, and its
digest is written into every shard's manifest so the merge can tell shards of different plans apart.
Every shard also runs the compute tasks (models -> data, cheap) of the scenes it draws.

The partial manifest. When a shard's build ends, its build/manifest.json keeps only its share (the
tasks assigned to it and the data they were drawn from), every other output is pruned from build/,
and a "shard" block records its index, N, the preset and the whole plan: build/ is then exactly the
artifact a CI runner uploads. (Locally, run a shard in a scratch copy: it leaves build/ holding its
share only.)

The merge reads N such folders and checks, before it writes anything: every shard of one plan is
there once (a missing one is named); each holds an entry for every task the plan gave it; no two
shards claim one output with different hashes or one task with different cache keys (the output or
task and both shards are named); every recorded output exists in its folder with its recorded hash;
every planned scene's data, figures and media are one consistent set (Manifest.mixed). Only then it
stages every output beside its place in build/ and renames them, the merged manifest and the merged
report together (atomic.commit's rule), and builds the site through the build's own site step. A
failed check exits 2 and changes nothing in build/ or site/.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

from pipeline import paths
from pipeline.engine import atomic, presets, registry
from pipeline.engine.hashing import digest
from pipeline.engine.manifest import VERSION, Manifest


class ShardError(Exception):
    """A bad --shard spec or a merge that must not happen; the message names what and where."""


def parse_spec(text: str) -> tuple[int, int]:
    """'2/3' -> (2, 3); 1 <= I <= N."""
    m = re.fullmatch(r"\s*(\d+)\s*/\s*(\d+)\s*", text or "")
    if not m:
        raise ShardError(f"--shard {text!r}: expected I/N, like 2/3 (shard I of N, I from 1)")
    i, n = int(m.group(1)), int(m.group(2))
    if n < 1 or not 1 <= i <= n:
        raise ShardError(f"--shard {text!r}: I must be between 1 and N, and N at least 1")
    return i, n


# --- the plan -------------------------------------------------------------------------------------
def lpt(costs: dict[str, float], n: int) -> list[list[str]]:
    """Longest-processing-time greedy: `n` bins of task ids. Deterministic: ties by task id, then by bin.

    Graham (1969): the largest bin is at most (4/3 - 1/(3n)) x the best possible largest bin.
    """
    bins: list[list[str]] = [[] for _ in range(n)]
    loads = [0.0] * n
    for tid in sorted(costs, key=lambda t: (-costs[t], t)):
        k = min(range(n), key=lambda b: (loads[b], b))
        bins[k].append(tid)
        loads[k] += costs[tid]
    return bins


def default_cost(task_id: str) -> float:
    """The first-build guess for a draw task never run (the build's own: its stage's COST, scaled for media)."""
    kind = task_id.split("/", 1)[0]
    if kind == "kit":  # kit/<kind>/<id>: the kit's tasks are named by their own kind
        kind = task_id.split("/")[1]
    name = task_id.split("/")[1] if kind == "media" else None
    if kind == "overlay":
        from pipeline.presenter import kit as presenter

        name = presenter.OVERLAY_PRESET
    preset = {"name": name, **presets.check(name)} if name else None
    return round(registry.first_cost(kind, preset, registry.video_seconds(scene_of(task_id))), 3)


def recorded_costs(report_path: Path = paths.REPORT, manifest_path: Path = paths.MANIFEST) -> dict[str, float]:
    """Task id -> seconds it took when it last ran (build/report.json first, then the manifest)."""
    costs: dict[str, float] = {}
    if manifest_path.is_file():
        for tid, e in Manifest(manifest_path).entries.items():  # ManifestError if damaged
            costs[tid] = float(e["seconds"])
    if report_path.is_file():
        try:
            tasks = json.loads(report_path.read_text(encoding="utf-8"))["tasks"]
            ran = {t["id"]: float(t["seconds"]) for t in tasks if t["status"] in ("built", "failed")}
        except (ValueError, KeyError, TypeError) as e:
            raise ShardError(f"{paths.rel(report_path) if report_path.is_relative_to(paths.ROOT) else report_path}: "
                             f"cannot read the recorded costs ({type(e).__name__}: {e}); delete it to plan "
                             "from the manifest's costs and the defaults") from None
        costs.update(ran)
    return costs


@dataclass
class Plan:
    preset: str
    count: int
    tasks: dict[str, int]  # draw task id -> shard (1-based)
    costs: dict[str, float]  # the cost each task was planned with

    @property
    def digest(self) -> str:
        return digest({"preset": self.preset, "count": self.count, "tasks": self.tasks, "costs": self.costs})

    def share(self, index: int) -> list[str]:
        return sorted(t for t, k in self.tasks.items() if k == index)

    def loads(self) -> list[float]:
        return [round(sum(self.costs[t] for t in self.share(k)), 3) for k in range(1, self.count + 1)]

    def as_dict(self) -> dict:
        return {"preset": self.preset, "count": self.count, "tasks": self.tasks, "costs": self.costs,
                "digest": self.digest}

    @classmethod
    def from_dict(cls, d: dict) -> Plan:
        return cls(d["preset"], int(d["count"]), {t: int(k) for t, k in d["tasks"].items()},
                   {t: float(c) for t, c in d["costs"].items()})

    def describe(self) -> str:
        rows = [f"shard plan: {len(self.tasks)} draw tasks over {self.count} shards "
                f"(longest first to the least-loaded shard; costs from build/report.json and "
                f"build/manifest.json, else first-build guesses), digest {self.digest[:12]}"]
        for k, load in enumerate(self.loads(), 1):
            share = self.share(k)
            rows.append(f"  shard {k}/{self.count}: ~{load:.0f}s, {len(share)} tasks: " + ", ".join(share))
        return "\n".join(rows)


def make_plan(catalogue, only: list[str] | None, preset: str, count: int,
              costs: dict[str, float] | None = None, kit: bool = False, kit_only: list[str] | None = None) -> Plan:
    """The plan for the selected scenes' draw tasks (deterministic: see the module docstring). `kit`:
    the presenter kit's tasks too (build --kit; `kit_only`: only these scenes' kits). A task that
    follows a draw task (the kit's deck follows the hd render and reads its file) goes to its
    parent's shard, its cost added to the parent's when the tasks are shared out."""
    presets.check(preset)
    recorded = recorded_costs() if costs is None else costs
    ctx = registry.Context(catalogue, preset, "site+kit" if kit else "site", only=only, kit_only=kit_only)
    parent_of: dict[str, str] = {}
    heads: list[str] = []
    for root in registry.roots(ctx):
        for t in registry.followers(root, ctx):
            heads.append(t.id)
            unseen = registry.followers(t, ctx)
            while unseen:
                u = unseen.pop(0)
                parent_of[u.id] = t.id
                unseen += registry.followers(u, ctx)
    planned = {t: round(recorded.get(t, default_cost(t)), 3) for t in [*heads, *parent_of]}
    weight = {t: planned[t] + sum(planned[u] for u, p in parent_of.items() if p == t) for t in heads}
    tasks = {t: k for k, bin_ in enumerate(lpt(weight, count), 1) for t in bin_}
    tasks.update({u: tasks[p] for u, p in parent_of.items()})
    return Plan(preset, count, dict(sorted(tasks.items())), dict(sorted(planned.items())))


def scene_of(task_id: str) -> str:
    return task_id.rsplit("/", 1)[1]


@dataclass
class Shard:
    """One shard's view of the plan: what build.run draws, and the partial manifest it leaves."""

    plan: Plan
    index: int

    def owns(self, task_id: str) -> bool:
        return self.plan.tasks.get(task_id) == self.index

    def needs(self, scene_id: str) -> bool:
        """Its compute task runs here: the shard draws something from the scene's data."""
        return any(scene_of(t) == scene_id for t in self.plan.share(self.index))

    def keeps(self, task_id: str) -> bool:
        return self.owns(task_id) or (task_id.startswith("data/") and self.needs(scene_of(task_id)))

    def finish(self, manifest: Manifest) -> list[str]:
        """Cut build/ down to this shard's share and mark the manifest as partial; the files pruned."""
        removed = manifest.prune(self.keeps)
        blob = {"version": VERSION, "entries": manifest.entries,
                "shard": {"index": self.index, "count": self.plan.count, "preset": self.plan.preset,
                          "plan": self.plan.as_dict()}}
        atomic.write_text(manifest.path, json.dumps(blob, sort_keys=True, indent=1) + "\n")
        return removed


# --- the merge ------------------------------------------------------------------------------------
@dataclass
class Part:
    """One shard's build/ folder, as read by the merge."""

    folder: Path
    index: int
    count: int
    plan: Plan
    entries: dict[str, dict]
    report: dict

    @property
    def name(self) -> str:
        return f"shard {self.index}/{self.count} ({self.folder})"

    def source(self, rel: str) -> Path:
        """Where a recorded output ('build/media/…') sits in this folder."""
        return self.folder / Path(rel).relative_to("build")


def read_part(folder: Path) -> Part:
    path = folder / "manifest.json"
    if not path.is_file():
        raise ShardError(f"{folder}: no manifest.json: not a shard's build/ folder")
    try:
        raw = json.loads(path.read_text(encoding="utf-8"))
        Manifest(path)  # the entries' shape, checked as every build checks it
    except Exception as e:  # noqa: BLE001 - ValueError, ManifestError: either way it cannot be merged
        raise ShardError(f"{path}: cannot read it ({e})") from None
    if not isinstance(raw.get("shard"), dict):
        raise ShardError(f"{path}: not a partial manifest (no 'shard' block): "
                         "was it built with python -m pipeline build --shard I/N?")
    s = raw["shard"]
    try:
        plan = Plan.from_dict(s["plan"])
        part = Part(folder, int(s["index"]), int(s["count"]), plan, raw["entries"], {})
    except (KeyError, TypeError, ValueError, AttributeError) as e:
        raise ShardError(f"{path}: the 'shard' block is damaged ({type(e).__name__}: {e})") from None
    if plan.digest != s["plan"].get("digest"):
        raise ShardError(f"{path}: the plan does not match its recorded digest (edited by hand?)")
    report = folder / "report.json"
    if report.is_file():
        try:
            part.report = json.loads(report.read_text(encoding="utf-8"))
        except ValueError:
            part.report = {}  # costs only: the next plan falls back to the manifest's seconds
    return part


def check_parts(parts: list[Part], preset: str, catalogue) -> dict[str, tuple[dict, Part]]:
    """Every check the merge makes before writing; the merged shard entries (task -> entry, its shard)."""
    first = parts[0]
    for p in parts:
        if p.plan.preset != preset:
            raise ShardError(f"{p.name}: built at preset {p.plan.preset!r}, merging {preset!r}")
        if p.plan.digest != first.plan.digest:
            raise ShardError(f"{p.name} and {first.name} are shards of different plans "
                             f"(digests {p.plan.digest[:12]} and {first.plan.digest[:12]}): "
                             "their runners planned from different catalogues or build/report.json")
    by_index: dict[int, Part] = {}
    for p in parts:
        if p.index in by_index:
            raise ShardError(f"shard {p.index}/{p.count} given twice: {by_index[p.index].folder} and {p.folder}")
        by_index[p.index] = p
    missing = [k for k in range(1, first.count + 1) if k not in by_index]
    if missing:
        given = ", ".join(f"{p.index}/{p.count} from {p.folder}" for p in sorted(parts, key=lambda p: p.index))
        raise ShardError("shard " + ", ".join(f"{k}/{first.count}" for k in missing)
                         + f" missing: no folder given holds it (given: {given}); nothing was merged")
    known = {s.id for s in catalogue.built}
    for t in first.plan.tasks:
        if scene_of(t) not in known:
            raise ShardError(f"the plan names {t}, but catalogue.yml has no built scene {scene_of(t)!r}")

    merged: dict[str, tuple[dict, Part]] = {}
    claims: dict[str, tuple[str, Part]] = {}  # output -> (hash, shard)
    for p in sorted(parts, key=lambda p: p.index):
        for t in p.plan.share(p.index):
            if t not in p.entries:
                raise ShardError(f"{p.name}: no entry for {t}, which the plan gives it (did that task fail?)")
        for tid, entry in sorted(p.entries.items()):
            if tid in merged and merged[tid][0]["key"] != entry["key"]:
                raise ShardError(f"{tid}: {merged[tid][1].name} and {p.name} recorded different cache keys "
                                 "(built from different sources?)")
            for rel, h in sorted(entry["outputs"].items()):
                if rel in claims and claims[rel][0] != h:
                    other = claims[rel][1]
                    raise ShardError(f"{rel}: {other.name} has sha256 {claims[rel][0][:12]}…, "
                                     f"{p.name} has {h[:12]}…: two shards claim one output with different bytes")
                claims[rel] = (h, p)
                src = p.source(rel)
                if not src.is_file():
                    raise ShardError(f"{src}: missing, but {p.name} records it")
                if atomic.file_sha256(src) != h:
                    raise ShardError(f"{src}: its bytes differ from the hash {p.name} records")
            merged.setdefault(tid, (entry, p))
    check = Manifest.__new__(Manifest)  # the merged entries in memory, checked as the site checks a manifest
    check.path, check.entries = None, {t: e for t, (e, _) in merged.items()}
    for sid in sorted({scene_of(t) for t in first.plan.tasks}):
        mixed = check.mixed(sid, preset)
        if mixed:
            raise ShardError(f"scene {sid!r}: the shards' outputs are not one consistent set: {mixed}")
    return merged


def _stage_copy(src: Path, dst: Path) -> Path:
    """A fsynced copy of `src` in a temporary beside `dst` (renamed into place by the caller)."""
    dst.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=atomic.TMP_PREFIX, dir=dst.parent)
    os.close(fd)
    try:
        shutil.copyfile(src, tmp)
        with open(tmp, "rb+") as f:
            os.fsync(f.fileno())
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise
    return Path(tmp)


def _stat(p: Path) -> list[int]:
    st = p.stat()
    return [st.st_size, st.st_mtime_ns]


def place(merged: dict[str, tuple[dict, Part]], base: Manifest, report: dict, live_ids: set[str]) -> list[str]:
    """Stage every output, the merged manifest and report beside their places, then rename them all.

    A failure while staging (disk full, a bug) unlinks the temporaries and changes nothing. Returns
    the outputs whose bytes changed in build/.
    """
    staged: list[tuple[Path, Path]] = []
    changed: list[str] = []
    # build/'s entries for tasks the plan does not cover stay, as a `build --only` keeps them (and the same
    # rule drops scenes no longer in the catalogue)
    entries = {t: e for t, e in base.entries.items() if scene_of(t) in live_ids}
    try:
        for tid, (entry, part) in sorted(merged.items()):
            entry = {**entry, "stat": {}}
            for rel, h in sorted(entry["outputs"].items()):
                src, dst = part.source(rel), paths.ROOT / rel
                if dst.is_file() and dst.stat().st_size == src.stat().st_size and atomic.file_sha256(dst) == h:
                    entry["stat"][rel] = _stat(dst)  # the same bytes are there already: keep them
                    continue
                tmp = _stage_copy(src, dst)
                staged.append((tmp, dst))
                changed.append(rel)
                entry["stat"][rel] = _stat(tmp)  # a rename keeps size and mtime
            entries[tid] = entry
        blob = json.dumps({"version": VERSION, "entries": entries}, sort_keys=True, indent=1) + "\n"
        staged.append((atomic._stage(base.path, blob.encode()), base.path))
        staged.append((atomic._stage(paths.REPORT, (json.dumps(report, sort_keys=True, indent=1) + "\n").encode()),
                       paths.REPORT))
    except BaseException:
        for tmp, _ in staged:
            tmp.unlink(missing_ok=True)
        raise
    for tmp, dst in staged:
        os.replace(tmp, dst)
    for folder in {d.parent for _, d in staged}:
        atomic.fsync_dir(folder)
    return changed


def merge(catalogue, folders: list[Path], preset: str, site: bool = True, timeout: float | None = None) -> int:
    """The merge step (module docstring). Exit status: 0 merged (and the site built), 1 the site was not
    built, 2 a check failed (nothing changed), 3 another build holds build/."""
    from pipeline.engine import build

    t0 = time.perf_counter()
    presets.check(preset)
    try:
        parts = [read_part(Path(f).resolve()) for f in folders]
        merged = check_parts(parts, preset, catalogue)
    except ShardError as e:
        print(f"error: merge: {e}", flush=True)
        print("nothing was merged; build/ and site/ are unchanged", flush=True)
        return 2
    plan = parts[0].plan
    for p in sorted(parts, key=lambda p: p.index):
        wall = p.report.get("wall_seconds")
        print(f"merge: {p.name}: {len(p.plan.share(p.index))} draw tasks, {len(p.entries)} entries"
              + (f", built in {wall:.1f}s" if isinstance(wall, (int, float)) else ""), flush=True)
    live_ids = {s.id for s in catalogue.built}
    paths.BUILD.mkdir(parents=True, exist_ok=True)
    report = {"preset": preset, "merged_from": [{"shard": f"{p.index}/{p.count}", "folder": str(p.folder),
                                                  "wall_seconds": p.report.get("wall_seconds")}
                                                 for p in sorted(parts, key=lambda p: p.index)],
              "plan_digest": plan.digest,
              "tasks": [t for p in sorted(parts, key=lambda p: p.index) for t in p.report.get("tasks", [])]}
    try:
        with build.Lock(paths.BUILD):
            base = Manifest()  # ManifestError: the build/ we would merge into cannot be trusted
            atomic.sweep_temporaries(paths.BUILD)
            try:
                changed = place(merged, base, report, live_ids)
            except OSError as e:  # disk full while staging: the temporaries are gone, nothing moved
                print(f"error: merge: {build.one_line(e)}; nothing was merged, build/ and site/ are unchanged",
                      flush=True)
                return 1
            merge_seconds = time.perf_counter() - t0
            print(f"merge: {len(merged)} entries from {len(parts)} shards into build/ "
                  f"({len(changed)} files changed) in {merge_seconds:.1f}s", flush=True)
            if not site:
                return 0
            manifest = Manifest()
            blockers, behind = build.unpublishable(catalogue, manifest, preset, build.Report(preset))
            if blockers:
                print("site/ kept as it was. Not published because: " + "; ".join(blockers), flush=True)
                return 1
            ts = time.perf_counter()
            ok = build.build_site(preset, timeout=timeout)
            print(f"merge: site {'built' if ok else 'FAILED (site/ kept as it was)'} in "
                  f"{time.perf_counter() - ts:.1f}s; merge wall {time.perf_counter() - t0:.1f}s", flush=True)
            return 0 if ok else 1
    except build.BuildLocked as e:
        print(f"error: {e}", flush=True)
        return 3
