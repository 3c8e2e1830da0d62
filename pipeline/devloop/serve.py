"""`make serve`: build, serve the site on 127.0.0.1 with live reload, and rebuild on every source edit.

    python -m pipeline serve [--preset preview] [-j N] [--only ID ...] [-a 127.0.0.1:8000]

The edit loop:

1. A build through the same plan, cache and pool as `make` (pipeline.engine.build.run), printing the
   same per-task `hit` / `render (why)` lines and the progress line.
2. `mkdocs serve` (a child process) serves the pages with live reload. It watches docs/ and
   mkdocs.yml itself, and build/serve/ (STAMP), which this process touches after every clean
   rebuild: that is what rebuilds the pages and reloads the browser.
3. watchdog watches the sources the pipeline reads (WATCHED: catalogue.yml, models/, figures/,
   scenes/, design/, pipeline/). A change, once the files are quiet for QUIET seconds, runs
   the build again: the cache keys decide which tasks run, exactly as for `make`.
4. A failed task prints its error here; the stamp is not touched, so the browser keeps the last
   good pages (the reliability rule: nothing is published from an unclean build). The next
   edit that makes the build clean publishes it.

The pool is kept between rebuilds and its workers stay warm (numpy, matplotlib and Manim
imported once); they re-read the project's modules before every task, so an edit is never
served from a stale import. The pages never render anything: MkDocs only reads build/.
"""

from __future__ import annotations

import importlib
import os
import queue
import signal
import subprocess
import sys
import time
from pathlib import Path

from pipeline import paths

WATCHED = ("catalogue.yml", "models", "figures", "scenes", "design", "pipeline")
SUFFIXES = (".py", ".yml", ".yaml", ".otf", ".ttf", ".json")
STAMP_DIR = paths.BUILD / "serve"
STAMP = STAMP_DIR / "reload"
QUIET = 0.2  # seconds without a new event before a rebuild starts (an editor saves in bursts)


def log(text: str) -> None:
    print(f"[serve] {text}", flush=True)


def relevant(path: str) -> str | None:
    """The source path an event is about (relative), or None when the pipeline does not read it."""
    try:
        rel = Path(path).resolve().relative_to(paths.ROOT)
    except ValueError:
        return None
    parts = rel.parts
    if not parts or parts[0] not in WATCHED:
        return None
    if any(p.startswith(".") or p == "__pycache__" for p in parts):
        return None  # editor swap files, temporaries, bytecode
    if len(parts) == 1 and parts[0] != "catalogue.yml":
        return None
    if rel.suffix not in SUFFIXES:
        return None
    return str(rel)


def watch(events: queue.Queue):
    """A watchdog observer putting every relevant changed path on `events`."""
    from watchdog.events import FileSystemEventHandler
    from watchdog.observers import Observer

    class Handler(FileSystemEventHandler):
        def on_any_event(self, event):
            if event.is_directory or event.event_type not in ("modified", "created", "moved", "deleted"):
                return
            for p in (event.src_path, getattr(event, "dest_path", "") or ""):
                rel = relevant(p) if p else None
                if rel:
                    events.put(rel)

    observer = Observer()
    handler = Handler()
    observer.schedule(handler, str(paths.ROOT), recursive=False)  # catalogue.yml
    for d in WATCHED:
        if (paths.ROOT / d).is_dir():
            observer.schedule(handler, str(paths.ROOT / d), recursive=True)
    observer.start()
    return observer


def drain(events: queue.Queue, first: str) -> list[str]:
    """`first` and every change that follows it until the files are quiet for QUIET seconds."""
    changed = {first}
    while True:
        try:
            changed.add(events.get(timeout=QUIET))
        except queue.Empty:
            return sorted(changed)


class Loop:
    """One serve session: a kept pool, the mkdocs child and the rebuild step."""

    def __init__(self, preset: str, jobs: int | None, only: list[str] | None, addr: str):
        from pipeline.engine import build

        self.preset, self.only, self.addr = preset, only, addr
        self.jobs = jobs or os.cpu_count() or 1
        self.pool = build.Pool(self.jobs, lambda t: 0.0, fresh=True)
        self.mkdocs: subprocess.Popen | None = None
        self.rebuilds = 0

    def rebuild(self) -> bool:
        """Run the pipeline; on a clean result touch the stamp (mkdocs rebuilds and reloads)."""
        build, catalogue_mod, manifest_mod = _fresh("pipeline.engine.build", "pipeline.catalogue",
                                                    "pipeline.engine.manifest")
        t0 = time.perf_counter()
        try:
            catalogue = catalogue_mod.load()
        except catalogue_mod.CatalogueError as e:
            log(f"error: {e}")
            log("nothing rebuilt; the browser keeps the last good pages")
            return False
        try:
            report = build.run(catalogue, only=self.only, preset=self.preset, jobs=self.jobs,
                               site=False, timeout=build.timeout_override(None), pool=self.pool)
            blockers, _ = build.unpublishable(catalogue, manifest_mod.Manifest(), self.preset, report)
        except (build.BuildLocked, manifest_mod.ManifestError) as e:
            log(f"error: {e}")
            log("nothing rebuilt; the next change tries again")
            return False
        except Exception as e:  # noqa: BLE001 - a broken pipeline edit must not end the session
            log(f"error: the build itself failed: {type(e).__name__}: {e}")
            self.pool.close(kill=True)
            return False
        n_built, n_hit = len(report.built), sum(o.status == "hit" for o in report.outcomes)
        log(f"{len(report.outcomes)} tasks: {n_built} built, {n_hit} cache hits, "
            f"{len(report.failures)} failed or skipped; {time.perf_counter() - t0:.1f}s")
        for o in report.failures:
            if o.error:
                print(f"--- {o.task}: {o.status} ({o.reason})\n{o.error}".rstrip(), flush=True)
            log(f"error: {o.message}" if o.message else f"skipped: {o.task} ({o.reason})")
        for e in report.errors:
            log(f"error: {e}")
        if blockers or not report.ok:
            log("pages not reloaded: the browser keeps the last good build of every page"
                + (" (" + "; ".join(blockers) + ")" if blockers else ""))
            return False
        self.rebuilds += 1
        STAMP_DIR.mkdir(parents=True, exist_ok=True)
        STAMP.write_text(f"{self.rebuilds} {time.time():.3f}\n")  # mkdocs serve watches this folder
        log("pages rebuilding (mkdocs serve), then the browser reloads")
        return True

    def ensure_mkdocs(self) -> None:
        if self.mkdocs is not None and self.mkdocs.poll() is None:
            return
        STAMP_DIR.mkdir(parents=True, exist_ok=True)
        STAMP.touch()
        env = {**os.environ, "W06_PRESET": self.preset, "NO_MKDOCS_2_WARNING": "1"}
        cmd = [sys.executable, "-m", "mkdocs", "serve", "-a", self.addr, "-w", str(STAMP_DIR)]
        log(f"serving on http://{self.addr}/ (mkdocs serve, live reload); Ctrl-C stops")
        self.mkdocs = subprocess.Popen(cmd, cwd=paths.ROOT, env=env)

    def close(self) -> None:
        if self.mkdocs is not None and self.mkdocs.poll() is None:
            self.mkdocs.terminate()
            try:
                self.mkdocs.wait(10)
            except subprocess.TimeoutExpired:
                self.mkdocs.kill()
                self.mkdocs.wait()
        self.pool.close(kill=True)


def _fresh(*names: str):
    """Pipeline modules as their files are now (serve runs for hours while pipeline/ is edited):
    the project's modules forgotten once, then imported together, so they share one another."""
    importlib.import_module("pipeline.engine.pool").forget_project_modules()
    return [importlib.import_module(n) for n in names]


def _stop(signum, frame):
    raise KeyboardInterrupt


def main(preset: str, jobs: int | None, only: list[str] | None, addr: str) -> int:
    signal.signal(signal.SIGTERM, _stop)
    events: queue.Queue = queue.Queue()
    loop = Loop(preset, jobs, only, addr)
    observer = None
    try:
        observer = watch(events)  # before the first build: an edit made during it is not lost
        loop.pool.start()
        log(f"watching {', '.join(WATCHED)} (docs/ and mkdocs.yml: mkdocs serve)")
        loop.rebuild()
        loop.ensure_mkdocs()
        while True:
            try:
                first = events.get(timeout=1.0)
            except queue.Empty:
                if loop.mkdocs is not None and loop.mkdocs.poll() is not None:
                    log(f"mkdocs serve exited ({loop.mkdocs.returncode}); it restarts after the next clean build")
                    loop.mkdocs = None
                continue
            changed = drain(events, first)
            log("changed: " + ", ".join(changed[:6]) + (" …" if len(changed) > 6 else ""))
            if loop.rebuild():
                loop.ensure_mkdocs()
    except KeyboardInterrupt:
        log("stopping")
    finally:
        if observer is not None:
            observer.stop()
            observer.join(5)
        loop.close()
    return 0
