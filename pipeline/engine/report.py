"""What a build reports: each task's outcome, the progress lines as it runs, and the summary.

A failure's one line names the scene and what went wrong; a failure a worker expects (an exception
with `expected = True`, such as a model refusing its inputs, or a full disk) has no traceback."""

from __future__ import annotations

import errno
import time
from dataclasses import dataclass, field
from pathlib import Path

from pipeline import paths


@dataclass
class Outcome:
    task: str
    status: str  # hit | built | failed | skipped
    reason: str = ""
    seconds: float = 0.0
    error: str = ""  # traceback, for unexpected failures only
    message: str = ""  # the one line that says what went wrong
    cpu: float = 0.0  # the worker's CPU seconds (every thread), for a task built in the pool


@dataclass
class Report:
    preset: str
    outcomes: list[Outcome] = field(default_factory=list)
    wall: float = 0.0
    site_seconds: float = 0.0
    site_ok: bool | None = None
    site_note: str = ""  # why the site was not published, and what it kept
    site_deferred: bool = False  # not built on purpose: a one-scene build at a preset the other scenes lack
    stale_note: str = ""  # scenes whose pages show an older build (their inputs changed since)
    errors: list[str] = field(default_factory=list)  # one-line build-level errors (disk full)
    damage: list[str] = field(default_factory=list)  # "damaged: ..." / "healed: ...": file, task, what was done

    def add(self, outcome: Outcome) -> None:
        """A task's outcome; a task run again in the same build (a damaged output re-run) keeps its last."""
        self.outcomes = [o for o in self.outcomes if o.task != outcome.task]
        self.outcomes.append(outcome)

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
                       "seconds": round(o.seconds, 3), **({"cpu_seconds": round(o.cpu, 3)} if o.cpu else {}),
                       **({"error": o.message} if o.message else {})}
                      for o in self.outcomes],
            **({"errors": self.errors} if self.errors else {}),
            **({"damaged": self.damage} if self.damage else {}),
            **({"site": self.site_note} if self.site_note else {}),
        }


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
    if expected(e):
        return text[0] if text else type(e).__name__
    return f"{type(e).__name__}: {text[0] if text else ''}".rstrip(": ")


def expected(e: BaseException) -> bool:
    """Failures whose one line says it all (no traceback in the summary)."""
    return getattr(e, "expected", False) or (isinstance(e, OSError) and e.errno == errno.ENOSPC)


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

    def hit(self, task) -> None:
        self.line(f"hit     {task.id}")

    def start(self, task) -> None:
        self.remaining[task.id] = task.cost
        self.line(f"render  {task.id}  ({task.reason}; ~{task.cost:.0f}s)")

    def finish(self, task, ok: bool, seconds: float, why: str = "") -> None:
        self.remaining.pop(task.id, None)
        self.done += 1
        self.line(f"{'done' if ok else 'FAILED':7} {task.id}  {seconds:.1f}s" + (f"  {why}" if why else ""))


def summarize(report: Report) -> str:
    rows = [f"{'task':40} {'status':8} {'seconds':>8}  why"]
    for o in report.outcomes:
        rows.append(f"{o.task:40} {o.status:8} {o.seconds:8.1f}  {o.reason}")
    n_built = len(report.built)
    n_hit = sum(o.status == "hit" for o in report.outcomes)
    site = {True: "built", None: "not built", False: "FAILED"}[report.site_ok]
    if report.site_deferred:
        site = "not built (one scene at a preset the others lack)"
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
    rows += report.damage
    if report.stale_note:
        rows.append(report.stale_note)
    if report.site_note:
        rows.append(report.site_note)
    return "\n".join(rows)
