"""The build: plan every task from its content hash, run the misses in a
process pool, record successes, verify, prune, then assemble the site.

Two cache stages (DESIGN.md): compute (model -> data) and draw (data ->
figures, media). A draw task's key contains the *bytes* of its data, so a
model edit that does not change the numbers re-draws nothing, and a colour
tweak re-draws without re-running models.
"""

from __future__ import annotations

import concurrent.futures as cf
import multiprocessing
import os
import shutil
import subprocess
import sys
import time
import traceback
from dataclasses import dataclass, field

from pipeline import atomic, paths, presets
from pipeline.catalogue import Catalogue, Scene
from pipeline.hashing import digest, file_hash, files_hashes, source_hashes, versions
from pipeline.jsonio import load_ref, to_json
from pipeline.manifest import Manifest

# libraries whose output bytes we cache, per stage
COMPUTE_LIBS = ("numpy",)
FIGURE_LIBS = ("numpy", "matplotlib")
MEDIA_LIBS = ("numpy", "manim", "ManimPango", "pycairo", "av", "pillow")
# first-build guesses (seconds) until a real cost is recorded
DEFAULT_COST = {"compute": 1.0, "figures": 2.0, "media": 20.0}


@dataclass
class Task:
    id: str
    kind: str  # compute | figures | media
    scene: Scene
    parts: dict
    key: str = ""
    reason: str | None = None  # None: cache hit
    cost: float = 0.0
    args: tuple = ()

    def __post_init__(self):
        self.key = digest(self.parts)


@dataclass
class Outcome:
    task: str
    status: str  # hit | built | failed | skipped
    reason: str = ""
    seconds: float = 0.0
    error: str = ""


@dataclass
class Report:
    preset: str
    outcomes: list[Outcome] = field(default_factory=list)
    wall: float = 0.0
    site_seconds: float = 0.0
    site_ok: bool | None = None

    @property
    def failures(self) -> list[Outcome]:
        return [o for o in self.outcomes if o.status in ("failed", "skipped")]

    @property
    def built(self) -> list[str]:
        return [o.task for o in self.outcomes if o.status == "built"]

    def as_dict(self) -> dict:
        return {
            "preset": self.preset,
            "wall_seconds": round(self.wall, 3),
            "site_seconds": round(self.site_seconds, 3),
            "tasks": [{"id": o.task, "status": o.status, "reason": o.reason,
                       "seconds": round(o.seconds, 3)} for o in self.outcomes],
        }


# --- planning -----------------------------------------------------------------
def _module(ref: str) -> str:
    return ref.partition(":")[0]


def _sources(*modules: str) -> dict[str, str]:
    out: dict[str, str] = {}
    for m in modules:
        out.update(source_hashes(m))
    return out


def _fonts() -> dict[str, str]:
    return files_hashes(paths.FONTS.glob("*.otf"))


def compute_task(scene: Scene) -> Task:
    parts = {
        "sources": _sources(_module(scene.model), "pipeline.compute"),
        "params": scene.params,
        "versions": versions(*COMPUTE_LIBS),
    }
    return Task(f"data/{scene.id}", "compute", scene, parts,
                args=(scene.id, scene.model, scene.params))


def figures_task(scene: Scene) -> Task:
    specs = [[f.name, f.function] for f in scene.figures]
    parts = {
        "sources": _sources(*{_module(ref) for _, ref in specs}, "pipeline.draw_figures"),
        "figures": specs,
        "data": file_hash(paths.data_json(scene.id)),
        "fonts": _fonts(),
        "versions": versions(*FIGURE_LIBS),
    }
    return Task(f"figures/{scene.id}", "figures", scene, parts, args=(scene.id, specs))


def media_task(scene: Scene, preset: str) -> Task:
    settings = presets.check(preset)
    parts = {
        "sources": _sources(_module(scene.scene), "pipeline.draw_media"),
        "scene": scene.scene,
        "data": file_hash(paths.data_json(scene.id)),
        "fonts": _fonts(),
        "preset": {"name": preset, **settings},
        "versions": versions(*MEDIA_LIBS),
    }
    return Task(f"media/{preset}/{scene.id}", "media", scene, parts,
                args=(scene.id, scene.scene, preset, settings))


def judge(task: Task, manifest: Manifest, force: bool) -> Task:
    """Set task.reason (None for a hit) and task.cost from the manifest."""
    prev = manifest.get(task.id)
    task.cost = prev["seconds"] if prev else DEFAULT_COST[task.kind]
    if task.kind == "media" and not prev:
        px = task.parts["preset"]
        task.cost *= px["pixel_width"] * px["pixel_height"] * px["frame_rate"] / (854 * 480 * 15)
    if force:
        task.reason = "forced"
    elif prev is None:
        task.reason = "never built"
    elif prev["key"] != task.key:
        task.reason = why(prev["parts"], task.parts)
    else:
        task.reason = manifest.broken_output(task.id)
    return task


def why(old: dict, new: dict) -> str:
    """Name what changed between two sets of key parts."""
    changes = []
    for part in sorted(set(old) | set(new)):
        a, b = old.get(part), new.get(part)
        if a == b:
            continue
        if part == "sources" and isinstance(a, dict) and isinstance(b, dict):
            files = sorted(f for f in set(a) | set(b) if a.get(f) != b.get(f))
            changes.append("changed: " + ", ".join(files[:4]) + (" …" if len(files) > 4 else ""))
        elif part == "versions" and isinstance(a, dict) and isinstance(b, dict):
            libs = [f"{k} {a.get(k)}→{b.get(k)}" for k in sorted(b) if a.get(k) != b.get(k)]
            changes.append("library versions: " + ", ".join(libs))
        else:
            changes.append(f"{part} changed")
    return "; ".join(changes) or "key format changed"


# --- running ------------------------------------------------------------------
# imported in the worker only: the parent never loads matplotlib or Manim
WORKERS = {"compute": "pipeline.compute:compute", "figures": "pipeline.draw_figures:figures",
           "media": "pipeline.draw_media:media"}


def _run(kind: str, args: tuple) -> tuple[dict, float]:
    """Worker entry point: the outputs and the seconds they took."""
    t0 = time.perf_counter()
    out = load_ref(WORKERS[kind])(*args)
    return out, time.perf_counter() - t0


def _limit_threads() -> None:
    # one BLAS thread per worker: the pool already uses every core
    for var in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS"):
        os.environ.setdefault(var, "1")


class Progress:
    """One line per event: what, hit or render and why, elapsed and ETA."""

    def __init__(self, jobs: int):
        self.t0 = time.perf_counter()
        self.jobs = jobs
        self.remaining: dict[str, float] = {}
        self.done = 0

    def _clock(self) -> str:
        el = time.perf_counter() - self.t0
        eta = sum(self.remaining.values()) / self.jobs
        return f"{el:5.1f}s" + (f"  eta ~{eta:4.0f}s" if self.remaining else "")

    def line(self, text: str) -> None:
        print(f"[{self._clock()}] {text}", flush=True)

    def hit(self, task: Task) -> None:
        self.line(f"hit     {task.id}")

    def start(self, task: Task) -> None:
        self.remaining[task.id] = task.cost
        self.line(f"render  {task.id}  ({task.reason}; ~{task.cost:.0f}s)")

    def finish(self, task: Task, ok: bool, seconds: float) -> None:
        self.remaining.pop(task.id, None)
        self.done += 1
        self.line(f"{'done' if ok else 'FAILED':7} {task.id}  {seconds:.1f}s")


def run(catalogue: Catalogue, only: list[str] | None = None, preset: str = presets.DEFAULT,
        jobs: int | None = None, force: bool = False, site: bool = True) -> Report:
    presets.check(preset)
    jobs = jobs or os.cpu_count() or 1
    report = Report(preset)
    t0 = time.perf_counter()
    scenes = [s for s in catalogue.built if not only or s.id in only]
    manifest = Manifest()
    atomic.sweep_temporaries(paths.BUILD) if paths.BUILD.exists() else None
    progress = Progress(jobs)

    pool: cf.ProcessPoolExecutor | None = None
    running: dict[cf.Future, Task] = {}

    def submit(task: Task) -> None:
        nonlocal pool
        if pool is None:
            _limit_threads()
            pool = cf.ProcessPoolExecutor(jobs, mp_context=multiprocessing.get_context("spawn"))
        progress.start(task)
        running[pool.submit(_run, task.kind, task.args)] = task

    def schedule(batch: list[Task]) -> None:
        misses = []
        for task in batch:
            judge(task, manifest, force)
            if task.reason is None:
                progress.hit(task)
                report.outcomes.append(Outcome(task.id, "hit"))
                if task.kind == "compute":
                    schedule(draw_tasks(task.scene))
            else:
                misses.append(task)
        for task in sorted(misses, key=lambda t: -t.cost):  # longest first
            submit(task)

    def draw_tasks(scene: Scene) -> list[Task]:
        return [figures_task(scene), media_task(scene, preset)]

    try:
        schedule([compute_task(s) for s in scenes])
        while running:
            finished, _ = cf.wait(running, return_when=cf.FIRST_COMPLETED)
            for fut in finished:
                task = running.pop(fut)
                try:
                    outputs, seconds = fut.result()
                except Exception as e:  # noqa: BLE001 - isolate: report, go on
                    tb = "".join(traceback.format_exception(e))
                    progress.finish(task, False, 0.0)
                    report.outcomes.append(Outcome(task.id, "failed", task.reason, 0.0, tb))
                    if task.kind == "compute":
                        for t in ("figures", f"media/{preset}"):
                            report.outcomes.append(Outcome(f"{t}/{task.scene.id}", "skipped",
                                                           f"{task.id} failed"))
                    continue
                manifest.record(task.id, task.key, task.parts, outputs, seconds)
                progress.finish(task, True, seconds)
                report.outcomes.append(Outcome(task.id, "built", task.reason, seconds))
                if task.kind == "compute":
                    schedule(draw_tasks(task.scene))
    finally:
        if pool is not None:
            pool.shutdown(cancel_futures=True)

    live = {f"data/{s.id}" for s in catalogue.built} | {f"figures/{s.id}" for s in catalogue.built}
    live_ids = {s.id for s in catalogue.built}
    removed = manifest.prune(lambda t: t in live or (t.startswith("media/") and t.rsplit("/", 1)[1] in live_ids))
    for r in removed:
        progress.line(f"pruned  {r}")

    if site:
        ts = time.perf_counter()
        report.site_ok = build_site(preset)
        report.site_seconds = time.perf_counter() - ts
    report.wall = time.perf_counter() - t0
    atomic.write_text(paths.REPORT, to_json(report.as_dict()).decode())
    return report


def build_site(preset: str, strict: bool = True) -> bool:
    """mkdocs build into a scratch folder, then swap it for site/ in one rename.

    A failed page build leaves the previous site/ untouched.
    """
    tmp = paths.BUILD / f"{atomic.TMP_PREFIX}site"
    shutil.rmtree(tmp, ignore_errors=True)
    cmd = [sys.executable, "-m", "mkdocs", "build", "--site-dir", str(tmp)]
    if strict:
        cmd.append("--strict")
    env = {**os.environ, "W06_PRESET": preset, "NO_MKDOCS_2_WARNING": "1"}
    proc = subprocess.run(cmd, cwd=paths.ROOT, env=env, capture_output=True, text=True)
    if proc.returncode != 0:
        shutil.rmtree(tmp, ignore_errors=True)
        # mkdocs' own INFO chatter is noise on success; on failure it is the diagnosis
        print(proc.stdout + proc.stderr, file=sys.stderr)
        print("mkdocs build failed: site/ left as it was", file=sys.stderr)
        return False
    old = paths.BUILD / f"{atomic.TMP_PREFIX}site-old"
    shutil.rmtree(old, ignore_errors=True)
    if paths.SITE.exists():
        os.replace(paths.SITE, old)
    os.replace(tmp, paths.SITE)
    shutil.rmtree(old, ignore_errors=True)
    return True


def summarize(report: Report) -> str:
    rows = [f"{'task':40} {'status':8} {'seconds':>8}  why"]
    for o in report.outcomes:
        rows.append(f"{o.task:40} {o.status:8} {o.seconds:8.1f}  {o.reason}")
    n_built = len(report.built)
    n_hit = sum(o.status == "hit" for o in report.outcomes)
    rows.append(f"{len(report.outcomes)} tasks: {n_built} built, {n_hit} cache hits, "
                f"{len(report.failures)} failed or skipped; site "
                f"{'built' if report.site_ok else 'not built' if report.site_ok is None else 'FAILED'}"
                f" in {report.site_seconds:.1f}s; wall {report.wall:.1f}s")
    for o in report.failures:
        rows.append(f"\n--- {o.task}: {o.status} ({o.reason})\n{o.error}".rstrip())
    return "\n".join(rows)
