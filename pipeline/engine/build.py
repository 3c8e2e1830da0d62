"""The build: plan every task from the stage registry, judge each against the cache, run the misses in
a process pool, record successes, verify, prune, then assemble the site.

Root tasks (a scene's model: compute; its runs under other scenarios) are planned from the catalogue;
each task, once up to date, plans the tasks that follow it (figures, media and Explore panels after
a scene's data; the presenter kit's deck, 4k master and overlay instead in the kit's build). A
follower's key contains the *bytes* of its parent's data, so a model edit that does not change the
numbers re-draws nothing, and a colour tweak re-draws without re-running models.

Reliability rules:

- One build at a time (engine/lock.py): a second build says another is running and exits 3 without
  touching anything.
- The site moves only after a clean build: if any task failed or was skipped, if any recorded
  output's bytes differ from the manifest, or if a scene's recorded outputs are not one consistent set
  for its current inputs (Manifest.mixed), site/ is kept as it was, the summary names the scenes
  whose pages were kept, and the exit status is non-zero.
- The pool survives a dead or hung worker (engine/pool.py), and every task has a time limit
  (engine/limits.py: the timeout rule).
- Disk full (ENOSPC) anywhere is one line naming the file; the previous site is kept and the summary
  is still printed.
"""

from __future__ import annotations

import errno
import os
import time

from pipeline import paths
from pipeline.engine import atomic, presets, registry
from pipeline.engine.limits import TIMEOUT_RULE, task_timeout, timeout_override  # noqa: F401 - the CLI's
from pipeline.engine.lock import BuildLocked, Lock  # noqa: F401 - raised by run()
from pipeline.engine.manifest import Manifest
from pipeline.engine.pool import Pool
from pipeline.engine.registry import Context, Task, why
from pipeline.engine.report import Outcome, Progress, Report, one_line, summarize  # noqa: F401 - the CLI's
from pipeline.engine.site import build_site
from pipeline.jsonio import to_json


def run(catalogue, only: list[str] | None = None, preset: str = presets.DEFAULT,
        jobs: int | None = None, force: bool = False, site: bool = True,
        timeout: float | None = None, pool: Pool | None = None, draw: bool = True, shard=None,
        scenarios: dict | None = None, kit: bool = False) -> Report:
    """The build. Raises BuildLocked or ManifestError before touching anything.

    `scenarios`: {scenario id: its catalogue} for the non-default scenarios to build as well
    (pipeline/scenarios.py; the default's are always built).

    `pool`: a Pool kept by the caller between builds (serve); it is left running after a clean
    build. `draw=False`: data only, no figures or media (make frame). `shard` (engine/shard.py):
    draw only its share, leave its partial manifest, no site. `kit=True`: the presenter kit's build
    (stages whose BUILDS has "kit") instead of the site's figures and media (make presenter).
    """
    presets.check(preset)
    jobs = jobs or os.cpu_count() or 1
    report = Report(preset)
    ctx = Context(catalogue, preset, "kit" if kit else "site", only, shard, scenarios or {})
    t0 = time.perf_counter()
    with Lock(paths.BUILD):
        manifest = Manifest()  # ManifestError: nothing built, nothing pruned
        try:
            Build(ctx, manifest, report, jobs, force, timeout, draw).run(pool, site)
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


class Build:
    """One build's state while it runs: what it plans for, the manifest, the report and the progress."""

    def __init__(self, ctx: Context, manifest: Manifest, report: Report, jobs: int, force: bool,
                 timeout: float | None, draw: bool):
        self.ctx, self.manifest, self.report = ctx, manifest, report
        self.jobs, self.force, self.timeout, self.draw = jobs, force, timeout, draw
        self.progress = Progress(jobs)

    def run(self, pool: Pool | None, site: bool) -> None:
        atomic.sweep_temporaries(paths.BUILD)  # safe: we hold the lock
        for task_id in registry.forgotten(self.manifest, self.ctx):
            self.manifest.forget(task_id)
        self.execute(pool)
        if self.ctx.shard is not None:  # build/ keeps this shard's share only: the partial manifest the merge reads
            for r in self.ctx.shard.finish(self.manifest):
                self.progress.line(f"pruned  {r}")
            return
        for r in self.manifest.prune(registry.live(self.ctx)):
            self.progress.line(f"pruned  {r}")
        if site:
            self.publish()

    def execute(self, pool: Pool | None) -> None:
        """Run every planned task; a pool the caller keeps (serve) stays up after a clean run."""
        kept = pool is not None
        if pool is None:
            pool = Pool(self.jobs, lambda t: task_timeout(t, self.timeout))
        else:
            pool.timeout = lambda t: task_timeout(t, self.timeout)
        clean = False
        try:
            self.schedule(registry.roots(self.ctx), pool)
            for task, ok, result, seconds, tb in pool.results():
                if ok:
                    self.succeeded(task, result, seconds, pool)
                else:
                    self.failed(task, result, seconds, tb)
            clean = True
        finally:
            if not (kept and clean):
                pool.close(kill=not clean)

    def schedule(self, batch: list[Task], pool: Pool) -> None:
        """Judge each task: a hit plans its followers at once, the misses go to the pool longest first."""
        misses = []
        for task in batch:
            registry.judge(task, self.manifest, self.force)
            if task.reason is None:
                self.progress.hit(task)
                self.report.outcomes.append(Outcome(task.id, "hit"))
                self.schedule(self.followers(task), pool)
            else:
                misses.append(task)
        for task in sorted(misses, key=lambda t: -t.cost):
            self.progress.start(task)
            pool.submit(task)

    def followers(self, task: Task) -> list[Task]:
        if not self.draw:
            return []
        shard = self.ctx.shard
        return [t for t in registry.followers(task, self.ctx) if shard is None or shard.owns(t.id)]

    def succeeded(self, task: Task, outputs: dict, seconds: float, pool: Pool) -> None:
        self.manifest.record(task.id, task.key, task.parts, outputs, seconds)
        self.progress.finish(task, True, seconds)
        self.report.outcomes.append(Outcome(task.id, "built", task.reason, seconds))
        self.schedule(self.followers(task), pool)

    def failed(self, task: Task, line: str, seconds: float, tb: str) -> None:
        """Report the failure in one line naming the scene and stage; the tasks it would have planned
        are reported skipped."""
        line = f"{task.scene.id}: {task.kind}: {line.removeprefix(f'{task.scene.id}: ')}"  # a model's names it
        self.progress.finish(task, False, seconds, line)
        self.report.outcomes.append(Outcome(task.id, "failed", task.reason, seconds, tb, line))
        for t in registry.followers(task, self.ctx):
            self.report.outcomes.append(Outcome(t.id, "skipped", f"{task.id} failed"))

    def publish(self) -> None:
        """Build the site, unless something makes it unpublishable (the report says what)."""
        report = self.report
        blockers, behind = unpublishable(self.ctx.catalogue, self.manifest, self.ctx.preset, report)
        if behind:
            report.stale_note = ("not rebuilt in this build, so their pages show their last build, numbers and "
                                 "parameters together: " + "; ".join(behind))
        if blockers:
            report.site_ok = None
            report.site_note = ("site/ kept as it was; every page keeps its last published version. "
                                "Not published because: " + "; ".join(blockers))
            return
        ts = time.perf_counter()
        extra, env = registry.extra_sites(self.manifest)
        report.site_ok = build_site(self.ctx.preset, timeout=self.timeout, extra=extra, env=env)
        report.site_seconds = time.perf_counter() - ts
        if not report.site_ok:
            report.site_note = "site/ kept as it was: mkdocs build failed"


def unpublishable(catalogue, manifest: Manifest, preset: str, report: Report) -> tuple[list[str], list[str]]:
    """Why site/ must not move now (empty when every page can be built from consistent outputs),
    and which scenes are behind their inputs.

    A scene whose inputs changed but that this build did not run (`--only` another scene) still
    has one consistent set of outputs, and its page reads its parameters from that data
    (the page macros), so its page shows its last build whole: it is named, not blocking.
    """
    why_not, behind = [], []
    if report.failures:
        why_not.append(f"{len(report.failures)} task(s) failed or skipped "
                       f"(scenes {', '.join(report.failed_scenes)})")
    mixed = {s.id: m for s in catalogue.built if (m := manifest.mixed(s.id, preset))}
    why_not += [f"scene {sid!r}: {m} (build it: python -m pipeline build --only {sid})" for sid, m in mixed.items()]
    for t in registry.roots(Context(catalogue, preset)):  # the default scenario's, every built scene
        entry = manifest.get(t.id)
        if entry is not None and entry["key"] != t.key and t.scene.id not in mixed:
            behind.append(f"scene {t.scene.id!r}: its inputs changed since it was built "
                          f"({why(entry['parts'], t.parts)}; "
                          f"build it: python -m pipeline build --only {t.scene.id})")
    why_not += [f"{b} (rebuild to restore it)" for b in manifest.verify()]
    return why_not, behind
