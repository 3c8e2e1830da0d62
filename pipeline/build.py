"""The build: plan every task from its content hash, run the misses in a
process pool, record successes, verify, prune, then assemble the site.

Two cache stages (DESIGN.md): compute (model -> data) and draw (data ->
figures, media). A draw task's key contains the *bytes* of its data, so a
model edit that does not change the numbers re-draws nothing, and a colour
tweak re-draws without re-running models.

Reliability rules (issue 10):

- One build at a time: the build holds `fcntl.flock` on build/.lock from
  before it sweeps temporaries until it ends; a second build says another is
  running and exits 3 without touching anything.
- The site moves only after a clean build: if any task failed or was
  skipped, if any recorded output's bytes differ from the manifest, or if a
  scene's recorded outputs are not one consistent set for its current inputs
  (Manifest.mixed, stale compute keys), site/ is kept as it was, the summary
  names the scenes whose pages were kept, and the exit status is non-zero.
- The pool survives a dead worker: each worker runs one task at a time, so a
  worker killed by a signal (an out-of-memory kill is SIGKILL) is reported as
  "worker died (signal 9, maybe out of memory)" against the task it was
  running, a fresh worker replaces it, and the other tasks run as planned.
- TIMEOUT RULE: every task gets max(600 s, 10 x its recorded cost); a task
  with no recorded cost yet gets max(1800 s, 10 x its first-build guess in
  DEFAULT_COST). Wall-clock, from the moment the task is handed to a worker. `--timeout
  SECONDS` or the environment variable W06_TASK_TIMEOUT replaces the rule
  with a fixed limit for every task. A task past its limit has its worker's
  whole process tree killed (SIGKILL) and is reported with its scene and
  stage; a fresh worker takes the next task. mkdocs gets max(600 s, --timeout).
- Disk full (ENOSPC) anywhere is one line naming the file; the previous site
  is kept and the summary is still printed.
"""

from __future__ import annotations

import errno
import fcntl
import json
import multiprocessing
import os
import shutil
import signal
import subprocess
import sys
import time
import traceback
from dataclasses import dataclass, field
from pathlib import Path

from pipeline import atomic, paths, presets
from pipeline.catalogue import Catalogue, Scene
from pipeline.hashing import digest, file_hash, files_hashes, source_hashes, versions
from pipeline.jsonio import load_ref, to_json
from pipeline.manifest import Manifest

# libraries whose output bytes we cache, per stage
COMPUTE_LIBS = ("numpy",)
FIGURE_LIBS = ("numpy", "matplotlib")
MEDIA_LIBS = ("numpy", "manim", "ManimPango", "pycairo", "av", "pillow")
KIT_LIBS = (*MEDIA_LIBS, "manim-slides", "python-pptx")  # the presenter kit (pipeline/presenter.py)
# first-build guesses (seconds) until a real cost is recorded; media, deck and overlay at preview
# size, scaled by pixels x frame rate (judge). Deck and overlay: measured on ring-vs-tree (issue 16)
DEFAULT_COST = {"compute": 1.0, "figures": 2.0, "media": 20.0, "explore": 20.0, "scenario-data": 1.0,
                "scenario-figures": 2.0, "deck": 8.0, "overlay": 45.0}
# the timeout rule: max(TIMEOUT_FLOOR, TIMEOUT_FACTOR x recorded cost), unless overridden
TIMEOUT_FLOOR = 600.0
TIMEOUT_FACTOR = 10.0
TIMEOUT_UNRECORDED = 1800.0  # floor for a task with no recorded cost yet (first build, new preset)
TIMEOUT_ENV = "W06_TASK_TIMEOUT"
TIMEOUT_RULE = (f"every task may run max({TIMEOUT_FLOOR:.0f} s, {TIMEOUT_FACTOR:.0f} x its recorded cost), "
                f"max({TIMEOUT_UNRECORDED:.0f} s, {TIMEOUT_FACTOR:.0f} x the first-build guess) before a cost "
                "is recorded; "
                f"--timeout SECONDS or {TIMEOUT_ENV}=SECONDS sets one limit for all tasks; "
                "a task past its limit is killed with its process tree and reported")
SITE_TIMEOUT = 600.0  # mkdocs build: this, or a larger --timeout
LOCK = ".lock"  # build/.lock: held (flock) for the whole build


@dataclass
class Task:
    id: str
    kind: str  # compute | figures | media | explore | scenario-data | scenario-figures | deck | overlay
    scene: Scene
    parts: dict
    key: str = ""
    reason: str | None = None  # None: cache hit
    cost: float = 0.0
    cost_recorded: bool = False  # cost measured by an earlier build, not a guess
    args: tuple = ()

    def __post_init__(self):
        self.key = digest(self.parts)


@dataclass
class Outcome:
    task: str
    status: str  # hit | built | failed | skipped
    reason: str = ""
    seconds: float = 0.0
    error: str = ""  # traceback, for unexpected failures only
    message: str = ""  # the one line that says what went wrong


@dataclass
class Report:
    preset: str
    outcomes: list[Outcome] = field(default_factory=list)
    wall: float = 0.0
    site_seconds: float = 0.0
    site_ok: bool | None = None
    site_note: str = ""  # why the site was not published, and what it kept
    stale_note: str = ""  # scenes whose pages show an older build (their inputs changed since)
    errors: list[str] = field(default_factory=list)  # one-line build-level errors (disk full)

    @property
    def failures(self) -> list[Outcome]:
        return [o for o in self.outcomes if o.status in ("failed", "skipped")]

    @property
    def failed_scenes(self) -> list[str]:
        return sorted({o.task.rsplit("/", 1)[1] for o in self.failures})

    @property
    def ok(self) -> bool:
        return not self.failures and not self.errors and self.site_ok is not False

    @property
    def built(self) -> list[str]:
        return [o.task for o in self.outcomes if o.status == "built"]

    def as_dict(self) -> dict:
        return {
            "preset": self.preset,
            "wall_seconds": round(self.wall, 3),
            "site_seconds": round(self.site_seconds, 3),
            "tasks": [{"id": o.task, "status": o.status, "reason": o.reason,
                       "seconds": round(o.seconds, 3), **({"error": o.message} if o.message else {})}
                      for o in self.outcomes],
            **({"errors": self.errors} if self.errors else {}),
            **({"site": self.site_note} if self.site_note else {}),
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
        "params": json.loads(to_json(scene.params)),  # entities ($gpu.h100) as their fields
        "versions": versions(*COMPUTE_LIBS),
    }
    return Task(f"data/{scene.id}", "compute", scene, parts,
                args=(scene.id, scene.model, scene.params))


def figures_task(scene: Scene, data: str | None = None) -> Task:
    """`data`: the hash standing for the scene's data (default: its file's; pipeline/keys.py passes
    the compute key that makes it, to name a build's inputs before any data exists)."""
    specs = [[f.name, f.function] for f in scene.figures]
    parts = {
        "sources": _sources(*{_module(ref) for _, ref in specs}, "pipeline.draw_figures"),
        "figures": specs,
        "data": data or file_hash(paths.data_json(scene.id)),
        "fonts": _fonts(),
        "versions": versions(*FIGURE_LIBS),
    }
    return Task(f"figures/{scene.id}", "figures", scene, parts, args=(scene.id, specs))


def media_task(scene: Scene, preset: str, data: str | None = None) -> Task:
    settings = presets.check(preset)
    parts = {
        "sources": _sources(_module(scene.scene), "pipeline.draw_media"),
        "scene": scene.scene,
        "data": data or file_hash(paths.data_json(scene.id)),
        "fonts": _fonts(),
        "preset": {"name": preset, **settings},
        "versions": versions(*MEDIA_LIBS),
    }
    return Task(f"media/{preset}/{scene.id}", "media", scene, parts,
                args=(scene.id, scene.scene, preset, settings))


def explore_task(scene: Scene) -> Task | None:
    """The scene's Explore panel (pipeline/explore.py), if it has one: its model over the panel's
    grid and its figure once per stop. Keyed on the model's, the panel's and the figures' sources,
    the parameters, the fonts and the library versions; runs after the scene's model succeeds."""
    ref = scene.explore
    if ref is None:
        return None
    specs = [[f.name, f.function] for f in scene.figures]
    parts = {
        "sources": _sources(_module(scene.model), _module(ref), *{_module(f) for _, f in specs}, "pipeline.explore"),
        "params": json.loads(to_json(scene.params)),
        "panel": ref,
        "figures": specs,
        "fonts": _fonts(),
        "versions": versions(*FIGURE_LIBS),
    }
    return Task(f"explore/{scene.id}", "explore", scene, parts, args=(scene.id, scene.model, scene.params, ref, specs))


# --- scenarios (issue 19, pipeline/scenarios.py): data and figures per scenario, own ids and paths ---
def scenario_data_task(scene: Scene, sid: str) -> Task:
    parts = {**compute_task(scene).parts, "scenario": sid,
             "sources": _sources(_module(scene.model), "pipeline.compute", "pipeline.scenario_stage")}
    return Task(f"scenario/{sid}/data/{scene.id}", "scenario-data", scene, parts,
                args=(sid, scene.id, scene.model, scene.params))


def scenario_figures_task(scene: Scene, sid: str) -> Task:
    from pipeline import scenario_stage as scenarios

    specs = [[f.name, f.function] for f in scene.figures]
    parts = {**figures_task(scene).parts, "scenario": sid,
             "sources": _sources(*{_module(ref) for _, ref in specs}, "pipeline.draw_figures",
                                 "pipeline.scenario_stage"),
             "data": file_hash(scenarios.data_dir(sid) / f"{scene.id}.json")}
    return Task(f"scenario/{sid}/figures/{scene.id}", "scenario-figures", scene, parts, args=(sid, scene.id, specs))


def deck_task(scene: Scene) -> Task:
    """The presenter kit's hd render with manim-slides: MP4, poster, captions, PPTX and HTML deck."""
    from pipeline import presenter

    settings = presets.check(presenter.DECK_PRESET)
    parts = {
        "sources": _sources(_module(scene.scene), "pipeline.presenter"),
        "scene": scene.scene,
        "title": scene.title,  # the HTML deck's title
        "data": file_hash(paths.data_json(scene.id)),
        "fonts": _fonts(),
        "vendor": files_hashes(p for p in paths.ROOT.joinpath("pipeline", "vendor").rglob("*") if p.is_file()),
        "preset": {"name": presenter.DECK_PRESET, **settings},
        "versions": versions(*KIT_LIBS),
    }
    return Task(f"kit/deck/{scene.id}", "deck", scene, parts, args=(scene.id, scene.scene, settings, scene.title))


def overlay_task(scene: Scene) -> Task:
    """The presenter kit's transparent overlay (WebM, VP9 with alpha)."""
    from pipeline import presenter

    settings = presets.check(presenter.OVERLAY_PRESET)
    parts = {
        "sources": _sources(_module(scene.scene), "pipeline.presenter"),
        "scene": scene.scene,
        "data": file_hash(paths.data_json(scene.id)),
        "fonts": _fonts(),
        "preset": {"name": presenter.OVERLAY_PRESET, **settings, "transparent": True},
        "versions": versions(*KIT_LIBS),
    }
    return Task(f"kit/overlay/{scene.id}", "overlay", scene, parts, args=(scene.id, scene.scene, settings))


def kit_tasks(scene: Scene) -> list[Task]:
    """A scene's presenter kit: the deck render, the 4k master (the site's media task) and the overlay."""
    from pipeline import presenter

    return [deck_task(scene), media_task(scene, presenter.MASTER_PRESET), overlay_task(scene)]


def judge(task: Task, manifest: Manifest, force: bool) -> Task:
    """Set task.reason (None for a hit) and task.cost from the manifest."""
    prev = manifest.get(task.id)
    task.cost = prev["seconds"] if prev else DEFAULT_COST[task.kind]
    task.cost_recorded = prev is not None
    if task.kind in ("media", "deck", "overlay") and not prev:
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
           "media": "pipeline.draw_media:media", "explore": "pipeline.explore:explore",
           "scenario-data": "pipeline.scenario_stage:compute",
           "scenario-figures": "pipeline.scenario_stage:figures",
           "deck": "pipeline.presenter:deck", "overlay": "pipeline.presenter:overlay"}


def _run(kind: str, args: tuple) -> tuple[dict, float]:
    """Run one task in this process: the outputs and the seconds they took."""
    t0 = time.perf_counter()
    out = load_ref(WORKERS[kind])(*args)
    return out, time.perf_counter() - t0


def _limit_threads() -> None:
    # one BLAS thread per worker: the pool already uses every core
    for var in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS"):
        os.environ.setdefault(var, "1")


def one_line(e: BaseException) -> str:
    """An exception as the one line the summary prints."""
    if isinstance(e, OSError) and e.errno == errno.ENOSPC:
        name = e.filename or "a file"
        try:
            name = paths.rel(Path(name))
        except ValueError:
            pass
        return f"no space left on device writing {name}"
    text = str(e).strip().splitlines()
    if _expected(e):
        return text[0] if text else type(e).__name__
    return f"{type(e).__name__}: {text[0] if text else ''}".rstrip(": ")


def _expected(e: BaseException) -> bool:
    """Failures whose one line says it all (no traceback in the summary)."""
    from pipeline.compute import ModelError

    return isinstance(e, ModelError) or (isinstance(e, OSError) and e.errno == errno.ENOSPC)


def _die_with_parent() -> None:
    """Linux: the kernel SIGKILLs this worker when the build process dies (no orphan renders)."""
    try:
        import ctypes

        ctypes.CDLL(None).prctl(1, signal.SIGKILL)  # PR_SET_PDEATHSIG
    except (OSError, AttributeError):
        pass


PROJECT_PACKAGES = ("models", "scenes", "figures", "design", "pipeline")


def forget_project_modules() -> None:
    """Drop the project's modules from sys.modules, so the next import reads the files as they are now.

    A long-lived process (`python -m pipeline serve` and its warm workers) calls this before each
    task or rebuild: an edited model, figure or scene is then the code that runs, never a stale copy.
    Libraries (numpy, matplotlib, Manim) stay imported: that is what makes a warm worker fast.
    """
    for name in [n for n in sys.modules if n.split(".")[0] in PROJECT_PACKAGES]:
        del sys.modules[name]


def _warm_up() -> None:
    """A serve worker imports the libraries every task needs once, before its first task."""
    for lib in ("numpy", "matplotlib.pyplot", "manim", "PIL.Image"):
        try:
            __import__(lib)
        except Exception:  # noqa: BLE001 - a task importing it will report the failure
            pass


def _worker(conn, fresh: bool = False) -> None:
    """Worker loop: receive (kind, args), send ("ok", outputs, seconds) or ("err", line, traceback).

    `fresh` (serve's warm pool): the libraries are imported at start, the project's modules are
    re-read before every task."""
    _die_with_parent()
    if fresh:
        _warm_up()
    while True:
        if fresh:  # before the next task's arguments are unpickled: they import project classes too
            forget_project_modules()
        try:
            msg = conn.recv()
        except (EOFError, OSError):
            return
        if msg is None:
            return
        kind, args = msg
        try:
            out, seconds = _run(kind, args)
            conn.send(("ok", out, seconds))
        except BaseException as e:  # noqa: BLE001 - every failure goes back to the parent
            tb = "" if _expected(e) else "".join(traceback.format_exception(e))
            conn.send(("err", one_line(e), tb))


def _descendants(pid: int) -> list[int]:
    """Every process below `pid` (from /proc; empty where there is none)."""
    children: dict[int, list[int]] = {}
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rsplit(")", 1)[1].split()
            children.setdefault(int(fields[1]), []).append(int(stat.parent.name))
        except (OSError, IndexError, ValueError):
            continue
    out, unvisited = [], [pid]
    while unvisited:
        for c in children.get(unvisited.pop(), []):
            out.append(c)
            unvisited.append(c)
    return out


def kill_tree(pid: int) -> None:
    for p in [*_descendants(pid), pid]:
        try:
            os.kill(p, signal.SIGKILL)
        except ProcessLookupError:
            pass


def death(exitcode: int | None) -> str:
    if exitcode is not None and exitcode < 0:
        sig = -exitcode
        hint = ", maybe out of memory" if sig == signal.SIGKILL else ""
        return f"worker died (signal {sig}{hint})"
    return f"worker died (exit status {exitcode})"


class Worker:
    """One process, one task at a time: the parent always knows what a worker runs."""

    def __init__(self, ctx, fresh: bool = False):
        self.conn, child = ctx.Pipe()
        self.proc = ctx.Process(target=_worker, args=(child, fresh))  # not daemonic: a task may start processes
        self.proc.start()
        child.close()
        self.task: Task | None = None
        self.started = 0.0
        self.deadline = float("inf")

    def give(self, task: Task, limit: float) -> None:
        self.task, self.started = task, time.monotonic()
        self.deadline = self.started + limit
        self.conn.send((task.kind, task.args))

    def stop(self, kill: bool = False) -> None:
        if kill and self.proc.is_alive():
            kill_tree(self.proc.pid)
        else:
            try:
                self.conn.send(None)
            except (OSError, ValueError):
                pass
        self.proc.join(5)
        if self.proc.is_alive():
            kill_tree(self.proc.pid)
            self.proc.join()
        self.conn.close()


class Pool:
    """A process pool that survives a dead or timed-out worker.

    `results()` yields (task, ok, outputs_or_line, seconds, traceback) as tasks
    end. A worker that dies mid-task fails that task alone ("worker died
    (signal 9, maybe out of memory)"), one past its time limit is killed with
    its process tree; either way a fresh worker takes its place.
    """

    def __init__(self, jobs: int, timeout, fresh: bool = False):
        self.ctx = multiprocessing.get_context("spawn")
        self.jobs = jobs
        self.fresh = fresh  # warm workers kept between builds (serve): project modules re-read per task
        self.timeout = timeout  # Task -> seconds
        self.queue: list[Task] = []
        self.workers: list[Worker] = []

    def submit(self, task: Task) -> None:
        self.queue.append(task)

    @property
    def busy(self) -> bool:
        return bool(self.queue) or any(w.task for w in self.workers)

    def _replace(self, w: Worker) -> None:
        w.stop(kill=True)
        self.workers.remove(w)

    def results(self):
        from multiprocessing.connection import wait

        while self.busy:
            self._start_queued()
            active = [w for w in self.workers if w.task is not None]
            now = time.monotonic()
            wait_for = max(0.0, min(w.deadline for w in active) - now)
            handles = {w.conn: w for w in active} | {w.proc.sentinel: w for w in active}
            ready = wait(list(handles), timeout=min(wait_for, 3600.0))
            done: set[int] = set()
            for h in ready:
                w = handles[h]
                if id(w) in done:
                    continue
                done.add(id(w))
                task, seconds = w.task, time.monotonic() - w.started
                msg = None
                if w.conn.poll():
                    try:
                        msg = w.conn.recv()
                    except (EOFError, OSError):
                        msg = None
                if msg is None:  # the worker is gone without an answer
                    w.proc.join(5)
                    line = death(w.proc.exitcode)
                    self._replace(w)
                    yield task, False, line, seconds, ""
                    continue
                w.task = None
                if msg[0] == "ok":
                    yield task, True, msg[1], msg[2], ""
                else:
                    yield task, False, msg[1], seconds, msg[2]
            now = time.monotonic()
            for w in [w for w in self.workers if w.task is not None and now > w.deadline]:
                task, limit = w.task, w.deadline - w.started
                self._replace(w)
                yield (task, False, f"timed out after {limit:.0f}s: killed with its process tree "
                       "(limit: max(600 s, 10 x recorded cost), or --timeout / W06_TASK_TIMEOUT)",
                       now - w.started, "")

    def _start_queued(self) -> None:
        for w in [w for w in self.workers if w.task is None and not w.proc.is_alive()]:
            self._replace(w)  # died while idle: nothing was lost, start a fresh one
        idle = [w for w in self.workers if w.task is None]
        while self.queue and (idle or len(self.workers) < self.jobs):
            if idle:
                w = idle.pop()
            else:
                _limit_threads()
                w = Worker(self.ctx, self.fresh)
                self.workers.append(w)
            task = self.queue.pop(0)
            try:
                w.give(task, self.timeout(task))
            except OSError:  # the worker was gone before the task reached it: one fresh try
                w.task = None
                self._replace(w)
                if getattr(task, "_handoff_failed", False):
                    raise RuntimeError(f"{task.id}: workers die before they can take a task") from None
                task._handoff_failed = True
                self.queue.insert(0, task)

    def start(self) -> None:
        """Start every worker now (serve: they warm up while the maintainer edits)."""
        while len(self.workers) < self.jobs:
            _limit_threads()
            self.workers.append(Worker(self.ctx, self.fresh))

    def close(self, kill: bool = False) -> None:
        for w in self.workers:
            w.stop(kill=kill or w.task is not None)
        self.workers = []


def task_timeout(task: Task, override: float | None) -> float:
    """The timeout rule (module docstring): the override, else max(floor, factor x cost)."""
    if override:
        return override
    floor = TIMEOUT_FLOOR if task.cost_recorded else TIMEOUT_UNRECORDED
    return max(floor, TIMEOUT_FACTOR * task.cost)


def timeout_override(flag: float | None) -> float | None:
    if flag:
        return flag
    env = os.environ.get(TIMEOUT_ENV, "").strip()
    if not env:
        return None
    try:
        value = float(env)
    except ValueError:
        raise SystemExit(f"error: {TIMEOUT_ENV}={env!r}: expected a number of seconds") from None
    if not value > 0:
        raise SystemExit(f"error: {TIMEOUT_ENV}={env!r}: expected a positive number of seconds")
    return value


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

    def finish(self, task: Task, ok: bool, seconds: float, why: str = "") -> None:
        self.remaining.pop(task.id, None)
        self.done += 1
        self.line(f"{'done' if ok else 'FAILED':7} {task.id}  {seconds:.1f}s" + (f"  {why}" if why else ""))


def run(catalogue: Catalogue, only: list[str] | None = None, preset: str = presets.DEFAULT,
        jobs: int | None = None, force: bool = False, site: bool = True,
        timeout: float | None = None, pool: Pool | None = None, draw: bool = True, shard=None,
        scenarios: dict[str, Catalogue] | None = None, kit: bool = False) -> Report:
    """The build. Raises BuildLocked or ManifestError before touching anything.

    `scenarios`: {scenario id: its catalogue} for the non-default scenarios to build as well
    (pipeline/scenarios.py; the default's are always built).

    `pool`: a Pool kept by the caller between builds (serve); it is left running after a clean
    build. `draw=False`: data only, no figures or media (make frame). `shard` (pipeline/shard.py):
    draw only its share, leave its partial manifest, no site. `kit=True`: the presenter kit's tasks
    (kit_tasks) instead of the site's figures and media (make presenter).
    """
    presets.check(preset)
    jobs = jobs or os.cpu_count() or 1
    report = Report(preset)
    t0 = time.perf_counter()
    with Lock(paths.BUILD):
        manifest = Manifest()  # ManifestError: nothing built, nothing pruned
        try:
            _build(catalogue, only, preset, jobs, force, site, timeout, manifest, report, pool, draw, shard,
                   scenarios or {}, kit)
        except OSError as e:
            if e.errno != errno.ENOSPC:
                raise
            report.errors.append(one_line(e))
            report.site_note = report.site_note or "site/ kept as it was: the disk is full"
        report.wall = time.perf_counter() - t0
        try:
            atomic.write_text(paths.REPORT, to_json(report.as_dict()).decode())
        except OSError as e:
            if e.errno != errno.ENOSPC:
                raise
            report.errors.append(one_line(e))
    return report


def _build(catalogue, only, preset, jobs, force, site, timeout, manifest, report, pool=None,
           draw=True, shard=None, scenarios=None, kit=False) -> None:
    from pipeline import scenarios as scen

    scenes = [s for s in catalogue.built if (not only or s.id in only) and (shard is None or shard.needs(s.id))]
    atomic.sweep_temporaries(paths.BUILD)  # safe: we hold the lock
    for task_id in scen.absent(manifest, scenarios or {}):
        manifest.forget(task_id)  # recorded, but its files are gone (a copy of build/ without scenario/)
    progress = Progress(jobs)
    kept = pool is not None
    if pool is None:
        pool = Pool(jobs, lambda t: task_timeout(t, timeout))
    else:
        pool.timeout = lambda t: task_timeout(t, timeout)

    def schedule(batch: list[Task]) -> None:
        misses = []
        for task in batch:
            judge(task, manifest, force)
            if task.reason is None:
                progress.hit(task)
                report.outcomes.append(Outcome(task.id, "hit"))
                schedule(draw_tasks(task))
            else:
                misses.append(task)
        for task in sorted(misses, key=lambda t: -t.cost):  # longest first
            progress.start(task)
            pool.submit(task)

    def draw_tasks(task: Task) -> list[Task]:
        if not draw:
            return []
        if task.kind == "compute":
            if kit:
                return kit_tasks(task.scene)
            panel = explore_task(task.scene)
            tasks = [figures_task(task.scene), media_task(task.scene, preset), *([panel] if panel else [])]
            return [t for t in tasks if shard is None or shard.owns(t.id)]
        if task.kind == "scenario-data":
            return [scenario_figures_task(task.scene, task.args[0])]
        return []

    clean = False
    try:
        schedule([compute_task(s) for s in scenes] +
                 [scenario_data_task(s, sid) for sid, c in (scenarios or {}).items() for s in scen.plan(sid, c, only)])
        for task, ok, result, seconds, tb in pool.results():
            if not ok:
                # ModelError already starts with the scene id
                result = result.removeprefix(f"{task.scene.id}: ")
                line = f"{task.scene.id}: {task.kind}: {result}"
                progress.finish(task, False, seconds, line)
                report.outcomes.append(Outcome(task.id, "failed", task.reason, seconds, tb, line))
                if task.kind == "scenario-data":
                    report.outcomes.append(Outcome(task.id.replace("/data/", "/figures/"), "skipped",
                                                   f"{task.id} failed"))
                if task.kind == "compute":
                    for t in (("kit/deck", "media/4k", "kit/overlay") if kit
                              else ("figures", f"media/{preset}", *(["explore"] if explore_task(task.scene) else []))):
                        report.outcomes.append(Outcome(f"{t}/{task.scene.id}", "skipped",
                                                       f"{task.id} failed"))
                continue
            manifest.record(task.id, task.key, task.parts, result, seconds)
            progress.finish(task, True, seconds)
            report.outcomes.append(Outcome(task.id, "built", task.reason, seconds))
            schedule(draw_tasks(task))
        clean = True
    finally:
        if not (kept and clean):
            pool.close(kill=not clean)

    if shard is not None:  # build/ keeps this shard's share only: the partial manifest the merge reads
        for r in shard.finish(manifest):
            progress.line(f"pruned  {r}")
        return
    live = ({f"{kind}/{s.id}" for s in catalogue.built for kind in ("data", "figures")}
            | {f"explore/{s.id}" for s in catalogue.built if s.explore})  # a panel taken out is pruned
    live_ids = {s.id for s in catalogue.built}
    live |= scen.live_tasks(catalogue)
    removed = manifest.prune(lambda t: t in live or (t.startswith(("media/", "kit/"))
                                                      and t.rsplit("/", 1)[1] in live_ids))
    for r in removed:
        progress.line(f"pruned  {r}")

    if not site:
        return
    blockers, behind = unpublishable(catalogue, manifest, preset, report)
    if behind:
        report.stale_note = ("not rebuilt in this build, so their pages show their last build, numbers and "
                             "parameters together: " + "; ".join(behind))
    if blockers:
        report.site_ok = None
        report.site_note = ("site/ kept as it was; every page keeps its last published version. "
                            "Not published because: " + "; ".join(blockers))
        return
    ts = time.perf_counter()
    report.site_ok = build_site(preset, timeout=timeout, scenarios=scen.built(manifest.entries))
    report.site_seconds = time.perf_counter() - ts
    if not report.site_ok:
        report.site_note = "site/ kept as it was: mkdocs build failed"


def unpublishable(catalogue: Catalogue, manifest: Manifest, preset: str,
                  report: Report) -> tuple[list[str], list[str]]:
    """Why site/ must not move now (empty when every page can be built from consistent outputs),
    and which scenes are behind their inputs.

    A scene whose inputs changed but that this build did not run (`--only` another scene) still
    has one consistent set of outputs, and its page reads its parameters from that data
    (pipeline/macros.py), so its page shows its last build whole: it is named, not blocking.
    """
    why_not, behind = [], []
    if report.failures:
        why_not.append(f"{len(report.failures)} task(s) failed or skipped "
                       f"(scenes {', '.join(report.failed_scenes)})")
    for s in catalogue.built:
        mixed = manifest.mixed(s.id, preset)
        if mixed:
            why_not.append(f"scene {s.id!r}: {mixed} (build it: python -m pipeline build --only {s.id})")
            continue
        entry = manifest.get(f"data/{s.id}")
        if entry is not None and entry["key"] != compute_task(s).key:
            behind.append(f"scene {s.id!r}: its inputs changed since it was built "
                          f"({why(entry['parts'], compute_task(s).parts)}; "
                          f"build it: python -m pipeline build --only {s.id})")
    why_not += [f"{b} (rebuild to restore it)" for b in manifest.verify()]
    return why_not, behind


def build_site(preset: str, strict: bool = True, timeout: float | None = None,
               scenarios: list[str] = ()) -> bool:
    """mkdocs build into a scratch folder, then swap it for site/.

    A failed page build leaves the previous site/ untouched. The swap is one
    renameat2(RENAME_EXCHANGE) on Linux, so site/ never disappears; on other
    platforms it is two renames back to back and site/ is absent only between
    them (atomic.swap_dirs). `scenarios`: the non-default scenarios whose pages are built too,
    each by its own mkdocs run into <site>/scenario/<id>/ (pipeline/scenarios.py).
    """
    tmp = paths.BUILD / f"{atomic.TMP_PREFIX}site"
    shutil.rmtree(tmp, ignore_errors=True)
    for sid in ["", *scenarios]:  # the default site first: mkdocs empties the folder it builds into
        dest = tmp / "scenario" / sid if sid else tmp
        if not _mkdocs(dest, preset, strict, timeout, sid):
            shutil.rmtree(tmp, ignore_errors=True)
            return False
    old = paths.BUILD / f"{atomic.TMP_PREFIX}site-old"
    shutil.rmtree(old, ignore_errors=True)
    atomic.swap_dirs(tmp, paths.SITE, old)
    shutil.rmtree(old, ignore_errors=True)
    return True


def _mkdocs(dest: Path, preset: str, strict: bool, timeout: float | None, scenario: str = "") -> bool:
    cmd = [sys.executable, "-m", "mkdocs", "build", "--site-dir", str(dest)]
    if strict:
        cmd.append("--strict")
    env = {**os.environ, "W06_PRESET": preset, "NO_MKDOCS_2_WARNING": "1", "W06_SCENARIO": scenario}
    limit = max(SITE_TIMEOUT, timeout or 0.0)
    what = f" (scenario {scenario})" if scenario else ""
    try:
        proc = subprocess.run(cmd, cwd=paths.ROOT, env=env, capture_output=True, text=True, timeout=limit)
    except subprocess.TimeoutExpired:
        print(f"mkdocs build{what} timed out after {limit:.0f}s (killed): site/ left as it was", file=sys.stderr)
        return False
    if proc.returncode != 0:
        # mkdocs' own INFO chatter is noise on success; on failure it is the diagnosis
        print(proc.stdout + proc.stderr, file=sys.stderr)
        print(f"mkdocs build{what} failed: site/ left as it was", file=sys.stderr)
        return False
    return True


def summarize(report: Report) -> str:
    rows = [f"{'task':40} {'status':8} {'seconds':>8}  why"]
    for o in report.outcomes:
        rows.append(f"{o.task:40} {o.status:8} {o.seconds:8.1f}  {o.reason}")
    n_built = len(report.built)
    n_hit = sum(o.status == "hit" for o in report.outcomes)
    site = {True: "built", None: "not built", False: "FAILED"}[report.site_ok]
    rows.append(f"{len(report.outcomes)} tasks: {n_built} built, {n_hit} cache hits, "
                f"{len(report.failures)} failed or skipped; site {site}"
                f" in {report.site_seconds:.1f}s; wall {report.wall:.1f}s")
    for o in report.failures:
        if o.error:
            rows.append(f"\n--- {o.task}: {o.status} ({o.reason})\n{o.error}".rstrip())
    # the one-liners last, where the eye lands
    for o in report.failures:
        rows.append(f"error: {o.message}" if o.message else f"skipped: {o.task} ({o.reason})")
    rows += [f"error: {e}" for e in report.errors]
    if report.stale_note:
        rows.append(report.stale_note)
    if report.site_note:
        rows.append(report.site_note)
    return "\n".join(rows)
