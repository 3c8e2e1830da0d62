"""The build: plan every task from the stage registry, judge each against the cache, run the misses in
a process pool, record successes, verify, prune, then assemble the site.

Root tasks (a scene's model: compute; its runs under other scenarios) are planned from the catalogue;
each task, once up to date, plans the tasks that follow it (figures, media and Explore panels after
a scene's data; the presenter kit's hd and 4k renders, overlay and deck (after the hd render) in the
kit's build, and both in a site+kit build). A
follower's key contains the *bytes* of its parent's data, so a model edit that does not change the
numbers re-draws nothing, and a colour tweak re-draws without re-running models.

Reliability rules:

- One build at a time (engine/lock.py): a second build says another is running and exits 3 without
  touching anything.
- A damaged output heals: planning trusts an output's recorded size and mtime (the fast path), but a
  parent's data is read byte for byte before its followers are planned (their keys hash it anyway),
  and before publishing every recorded output's bytes are checked. A task whose output is missing or
  differs from its hash loses its recorded sizes and mtimes in the manifest at once (so every later
  build compares its bytes, and a build that stops here leaves the next one to re-run it), is re-run in
  this build if the build selects its scene, and the summary names the file, the task and what was done.
- The site moves only after a clean build: if any task failed or was skipped, if any recorded
  output's bytes still differ from the manifest, or if a scene's recorded outputs are not one consistent set
  for its current inputs (Manifest.mixed), site/ is kept as it was, the summary names the scenes
  whose pages were kept, and the exit status is non-zero.
- The pool survives a dead or hung worker (engine/pool.py), and every task has a time limit
  (engine/limits.py: the timeout rule).
- Disk full (ENOSPC) anywhere is one line naming the file; the previous site is kept and the summary
  is still printed.
"""

from __future__ import annotations

import dataclasses
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
        scenarios: dict | None = None, builds: str = "site", kit_only: list[str] | None = None) -> Report:
    """The build. Raises BuildLocked or ManifestError before touching anything.

    `scenarios`: {scenario id: its catalogue} for the non-default scenarios to build as well
    (pipeline/scenarios.py; the default's are always built).

    `pool`: a Pool kept by the caller between builds (serve); it is left running after a clean
    build. `draw=False`: data only, no figures or media (make frame). `shard` (engine/shard.py):
    draw only its share, leave its partial manifest, no site. `builds`: "site" plans the site's tasks,
    "kit" the presenter kit's instead (stages whose BUILDS has "kit": make presenter), "site+kit" both
    (build --kit: the release with every scene's kit, as the deploy workflow builds it; `kit_only`: the
    scenes whose kits it makes, None for every selected scene).
    """
    presets.check(preset)
    jobs = jobs or os.cpu_count() or 1
    report = Report(preset)
    ctx = Context(catalogue, preset, builds, only, shard, scenarios or {}, kit_only=kit_only)
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
        self.planned: dict[str, Task] = {}  # every task this build judged, by id: what a damaged output re-runs

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
            self.publish(self.heal(pool))

    def execute(self, pool: Pool | None, batch: list[Task] | None = None) -> None:
        """Run every planned task (from the roots, or from `batch`); a pool the caller keeps (serve) stays
        up after a clean run."""
        kept = pool is not None
        if pool is None:
            pool = Pool(self.jobs, lambda t: task_timeout(t, self.timeout))
        else:
            pool.timeout = lambda t: task_timeout(t, self.timeout)
        clean = False
        try:
            self.schedule(registry.roots(self.ctx) if batch is None else batch, pool)
            for task, ok, result, seconds, cpu, tb in pool.results():
                if ok:
                    self.succeeded(task, result, seconds, pool, cpu)
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
            self.planned[task.id] = task
            followers = self.followers(task)
            if task.reason is None and followers:
                task.reason = self.damaged_parent(task)
            if task.reason is None:
                self.progress.hit(task)
                self.report.add(Outcome(task.id, "hit"))
                self.schedule(followers, pool)
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

    def succeeded(self, task: Task, outputs: dict, seconds: float, pool: Pool, cpu: float = 0.0) -> None:
        self.manifest.record(task.id, task.key, task.parts, outputs, seconds, cpu)
        self.progress.finish(task, True, seconds)
        self.report.add(Outcome(task.id, "built", task.reason, seconds, cpu=cpu))
        self.schedule(self.followers(task), pool)

    def failed(self, task: Task, line: str, seconds: float, tb: str) -> None:
        """Report the failure in one line naming the scene and stage; the tasks it would have planned
        are reported skipped."""
        line = f"{task.scene.id}: {task.kind}: {line.removeprefix(f'{task.scene.id}: ')}"  # a model's names it
        self.progress.finish(task, False, seconds, line)
        self.report.add(Outcome(task.id, "failed", task.reason, seconds, tb, line))
        for t in registry.followers(task, self.ctx):
            self.report.add(Outcome(t.id, "skipped", f"{task.id} failed"))

    # --- damaged outputs: found by their bytes, re-run ------------------------------------------------
    def damaged_parent(self, task: Task) -> str | None:
        """Why a hit whose followers read its outputs must re-run after all, else None.

        Its followers' keys hash its data file, and their workers draw from it: a damage that kept the
        file's size and mtime would have them re-drawn from damaged data. Reading the bytes here costs one
        read of small files (the data JSON and CSV)."""
        bad = self.manifest.damaged_outputs(task.id)
        if not bad:
            return None
        self.manifest.distrust(task.id, bad)
        for line in lines(bad):
            self.found_damaged(line, task.id, "re-run before the tasks that read it")
        return f"output damaged on disk: {lines(bad)[0]}"

    def found_damaged(self, what: str, task_id: str, action: str) -> None:
        line = f"{what}; it is an output of {task_id}: {action}"
        self.progress.line(f"damaged {line}")
        self.report.damage.append(f"damaged: {line}")

    def heal(self, pool: Pool | None) -> list[str]:
        """Check every recorded output's bytes before publishing; re-run in this build each task that owns a
        damaged one, where the build selects its scene. Returns the damage left: what still blocks the site.

        Each such task's recorded sizes and mtimes are dropped first (Manifest.distrust), so if this build
        stops, or the scene is not selected, the next build that plans the task compares bytes and re-runs it."""
        damaged = self.manifest.damaged()
        failed = {o.task for o in self.report.failures}
        batch, left = [], []
        for task_id, by_file in damaged.items():
            self.manifest.distrust(task_id, by_file)
            bad = lines(by_file)
            if task_id in failed:  # run once already: its failure blocks the site, the next build retries it
                left += [f"{b} (an output of {task_id}, which failed in this build)" for b in bad]
                continue
            task = self.planned.get(task_id) or self.owner(task_id)
            if task is None:
                how = f"python -m pipeline build --only {task_id.rsplit('/', 1)[-1]}, or make, re-runs it"
                for b in bad:
                    self.found_damaged(b, task_id, f"not re-run: this build does not plan it ({how})")
                left += [f"{b} (an output of {task_id}, not planned by this build: {how})" for b in bad]
                continue
            for b in bad:
                self.found_damaged(b, task_id, "re-run in this build")
            batch.append(task)
        rerun = [t.id for t in batch]
        # followers in any build: a kit's deck follows the hd render, though a site build never plans the deck
        below = {d for t in batch for d in self.descendants(t, every_build=True)}
        if batch:
            self.execute(pool, [t for t in batch if t.id not in below])  # a re-run parent plans the others again
            # what its re-run parent did not plan again (this build's followers leave it out: the deck in a
            # site build) runs now, after that parent, so it reads the healed file
            after = [t for t in batch if t.id in below and self.manifest.damaged_outputs(t.id)]
            if after:
                self.execute(pool, after)
        for task_id in rerun:
            still = lines(self.manifest.damaged_outputs(task_id))
            left += [f"{b} (an output of {task_id}; re-run in this build, see above)" for b in still]
            if not still:
                line = f"{task_id} re-run: its outputs match the manifest again"
                self.progress.line(f"healed  {line}")
                self.report.damage.append(f"healed: {line}")
        return left

    def owner(self, task_id: str) -> Task | None:
        """The task `task_id` names, planned afresh, when this build did not plan it (a presenter kit's task
        in a site build, another preset's media); None for a scene outside this build's selection."""
        scene = task_id.rsplit("/", 1)[-1]
        if self.ctx.shard is not None or (self.ctx.only and scene not in self.ctx.only):
            return None
        for build in ("site", "kit"):
            for preset in dict.fromkeys([self.ctx.preset, *presets.PRESETS]):
                ctx = Context(self.ctx.catalogue, preset, build, [scene], None, self.ctx.scenarios)
                unseen = list(registry.roots(ctx))
                while unseen:
                    t = unseen.pop()
                    if t.id == task_id:
                        return t
                    unseen += registry.followers(t, ctx)
        return None

    def descendants(self, task: Task, every_build: bool = False) -> set[str]:
        """The ids of every task planned, directly or not, after `task` (`every_build`: in a site+kit build,
        every kit included, whatever this build plans)."""
        ctx = dataclasses.replace(self.ctx, build="site+kit", kit_only=None) if every_build else self.ctx
        out, unseen = set(), registry.followers(task, ctx)
        while unseen:
            t = unseen.pop()
            out.add(t.id)
            unseen += registry.followers(t, ctx)
        return out

    def unrendered_elsewhere(self) -> list[str]:
        """The built scenes outside --only with data but no media at this preset: a one-scene build at a release
        preset (hd, 4k) the others were never rendered at. Empty without --only, and at the default preset,
        where every scene is rendered by `make` and a missing render is a fault to report."""
        if not self.ctx.only or self.ctx.preset == presets.DEFAULT:
            return []
        recorded = self.manifest.get
        return [s.id for s in self.ctx.catalogue.built if s.id not in self.ctx.only
                and recorded(f"data/{s.id}") is not None and recorded(f"media/{self.ctx.preset}/{s.id}") is None]

    def publish(self, damage: list[str]) -> None:
        """Build the site, unless something makes it unpublishable (the report says what). `damage`: the
        outputs whose bytes still differ from the manifest after `heal`."""
        report = self.report
        unrendered = self.unrendered_elsewhere()
        if unrendered and not report.failures and not damage:
            # `make release S=<id>`: the scene's hd outputs are what was asked for; an hd site needs every
            # scene's hd render, which this build was not asked to make. Not a failure: nothing is missing
            # that the request covered, and site/ keeps what it was.
            report.site_deferred = True
            report.site_note = (f"site/ kept as it was: a {self.ctx.preset} site needs every scene's "
                                f"{self.ctx.preset} render, and {len(unrendered)} scene(s) outside --only have "
                                f"none yet ({', '.join(unrendered[:3])}{', ...' if len(unrendered) > 3 else ''}); "
                                f"build them all (make release at hd) to publish it")
            return
        blockers, behind = unpublishable(self.ctx.catalogue, self.manifest, self.ctx.preset, report, damage)
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


def lines(damaged: dict[str, str]) -> list[str]:
    """{file: what is wrong} as "<file>: <what is wrong>" lines."""
    return [f"{rel}: {why}" for rel, why in damaged.items()]


def unpublishable(catalogue, manifest: Manifest, preset: str, report: Report,
                  damage: list[str] | None = None) -> tuple[list[str], list[str]]:
    """Why site/ must not move now (empty when every page can be built from consistent outputs),
    and which scenes are behind their inputs. `damage`: the recorded outputs whose bytes differ from
    the manifest, as the build's heal step left them; None checks every output's bytes here.

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
    why_not += [f"{b} (rebuild to restore it)" for b in manifest.verify()] if damage is None else damage
    return why_not, behind
