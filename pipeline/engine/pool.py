"""The process pool: each worker runs one task at a time, so the parent always knows what a worker
runs; a worker that dies (an out-of-memory kill is SIGKILL) fails that task alone, one past its time
limit is killed with its whole process tree, and a fresh worker takes its place.

A worker runs a task's WORKER ("module:function", from its stage) with the task's arguments; only the
worker imports it, so the parent never loads matplotlib or Manim.
"""

from __future__ import annotations

import multiprocessing
import os
import signal
import sys
import time
import traceback
from pathlib import Path

from pipeline.engine.report import expected, one_line
from pipeline.jsonio import load_ref


def _cpu() -> float:
    """CPU seconds this process has used so far, every thread of it (an encoder's threads included)."""
    import resource

    use = resource.getrusage(resource.RUSAGE_SELF)
    return use.ru_utime + use.ru_stime


def _run(worker: str, args: tuple) -> tuple[dict, float, float]:
    """Run one task's worker in this process: the outputs, the wall seconds and the CPU seconds they took
    (the CPU figure is what the kit and release benchmarks compare: wall time depends on the neighbours)."""
    t0, c0 = time.perf_counter(), _cpu()
    out = load_ref(worker)(*args)
    return out, time.perf_counter() - t0, _cpu() - c0


def _limit_threads() -> None:
    # one BLAS thread per worker: the pool already uses every core
    for var in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS"):
        os.environ.setdefault(var, "1")


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
    """Worker loop: receive (worker, args), send ("ok", outputs, seconds, cpu seconds) or ("err", line, traceback).

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
        worker, args = msg
        try:
            out, seconds, cpu = _run(worker, args)
            conn.send(("ok", out, seconds, cpu))
        except BaseException as e:  # noqa: BLE001 - every failure goes back to the parent
            tb = "" if expected(e) else "".join(traceback.format_exception(e))
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
        self.task = None
        self.started = 0.0
        self.deadline = float("inf")

    def give(self, task, limit: float) -> None:
        self.task, self.started = task, time.monotonic()
        self.deadline = self.started + limit
        self.conn.send((task.worker, task.args))

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

    `results()` yields (task, ok, outputs_or_line, seconds, cpu_seconds, traceback) as tasks
    end. A worker that dies mid-task fails that task alone ("worker died
    (signal 9, maybe out of memory)"), one past its time limit is killed with
    its process tree; either way a fresh worker takes its place.
    """

    def __init__(self, jobs: int, timeout, fresh: bool = False):
        self.ctx = multiprocessing.get_context("spawn")
        self.jobs = jobs
        self.fresh = fresh  # warm workers kept between builds (serve): project modules re-read per task
        self.timeout = timeout  # Task -> seconds
        self.queue: list = []
        self.workers: list[Worker] = []

    def submit(self, task) -> None:
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
                    yield task, False, line, seconds, 0.0, ""
                    continue
                w.task = None
                if msg[0] == "ok":
                    yield task, True, msg[1], msg[2], msg[3], ""
                else:
                    yield task, False, msg[1], seconds, 0.0, msg[2]
            now = time.monotonic()
            for w in [w for w in self.workers if w.task is not None and now > w.deadline]:
                task, limit = w.task, w.deadline - w.started
                self._replace(w)
                yield (task, False, f"timed out after {limit:.0f}s: killed with its process tree "
                       "(limit: max(600 s, 10 x recorded cost), or --timeout / W06_TASK_TIMEOUT)",
                       now - w.started, 0.0, "")

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


