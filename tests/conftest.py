"""Shared fixtures, and what every run prints and checks at its end.

`preview_site` is `make` itself (`python -m pipeline build --preset preview --scenario all`, the
Makefile's `site` target) run in the working tree, once per test run, and every test that reads the
built site shares it: after `make` it renders nothing, and it leaves build/manifest.json and site/
byte for byte as `make` left them; on a fresh clone (CI) it is the one cold build, and leaves what
`make` would have. tests/test_working_tree.py checks that, last in the run. Every other pipeline
test (the `project` fixture, tests/support.py's run_build on a copy, test_build's hard-linked
copies of this build) works in a scratch copy under pytest's tmp folder, so what it breaks or
changes never reaches the working tree's build/ or site/.

A test that asks for the built site (SITE_FIXTURES) is marked `slow`, whatever its file says: it
needs every scene built, so `make test-fast` leaves it to `make test`.

At the end of every run the time per test file (set-up, call and tear-down; a shared fixture's
set-up counts for the first file that asks for it) is printed, slowest first.

In parallel (`make test` runs `pytest -n 2 --dist loadfile`, pytest-xdist): each test file runs
whole on one worker, so a module's fixtures are set up once; the files start slowest first
(FILE_ORDER), so no long file is left alone at the end; `preview_site` is built by the first worker
that asks for it while the others wait on a lock (RUN_DIR: the folder this run's workers share),
and `tests/test_working_tree.py` waits until every other worker has finished.
"""

from __future__ import annotations

import fcntl
import json
import os
import subprocess
import sys
import time
from collections import defaultdict
from pathlib import Path

import pytest
from support import ROOT, current_outputs, sources_newer_than, working_tree_state

from pipeline.engine.project_copy import copy_project

SITE_FIXTURES = {"preview_site", "scenario_site", "site_url"}
TREE_BEFORE = pytest.StashKey[dict]()  # the working tree's manifest and site/ before the first test
TREE_UP_TO_DATE = pytest.StashKey[bool]()  # no source newer than site/ before the first test
SHARED_BUILD_RECORD = "preview_site.json"  # in RUN_DIR: what preview_site found (every task a hit?, the tree after it)
FILE_SECONDS: dict[str, float] = defaultdict(float)  # test file -> seconds (set-up + call + tear-down)
SHOWN_FILES = 25  # the slowest files the summary names; the rest are one line
RUN_STARTED = time.monotonic()
# The order the long files start in (seconds: stop 55's idle `make test` after `make`, 848 s wall; on a
# fresh clone the cold build counts in test_browser's): the browser file first (on a fresh clone it makes the cold
# build, which every file that reads the site waits for), then the files that need no built site, the
# longest first, so the second worker has work while the first makes the cold build; then the longest of
# the rest, so that under -n 2 no long file starts last and runs alone. A file not listed starts after
# these, in pytest's order. Only the order depends on this list.
FILE_ORDER = (
    "tests/test_browser.py",  # 121 s (after make; about 500 s more on a fresh clone: the cold build), site
    "tests/test_model_ranges.py",  # 209 s, no site
    "tests/test_figures.py",  # 24 s, no site
    "tests/test_incast_spraying.py",  # 8 s, no site
    "tests/test_scenes.py",  # 9 s, no site
    "tests/test_data_prefetch.py",  # 12 s, no site
    "tests/test_frame.py",  # 15 s, no site
    "tests/test_determinism.py",  # 476 s, site
    "tests/test_build.py",  # 145 s, site
    "tests/test_reliability.py",  # 133 s, site
    "tests/test_commands.py",  # 67 s, site
    "tests/test_heal.py",  # 49 s, site
    "tests/test_shard_merge.py",  # 71 s, site
    "tests/test_serve.py",  # 61 s, site
    "tests/test_explore_browser.py",  # 84 s, site
    "tests/test_css_purge_browser.py",  # 68 s, site
)


def worker_id() -> str | None:
    """This process's pytest-xdist worker ("gw0", ...), None when the run is not parallel."""
    return os.environ.get("PYTEST_XDIST_WORKER")


def run_dir(config: pytest.Config) -> Path:
    """A folder every worker of this run shares and no other run does: pytest's base temporary folder
    (under xdist each worker's is a child of the run's, `popen-gw0`, ...)."""
    base = config._tmp_path_factory.getbasetemp()  # noqa: SLF001 - pytest's own factory, made before any test
    return base.parent if worker_id() else base


def wait_for_other_workers(config: pytest.Config, timeout: float = 3600.0) -> None:
    """Under xdist, return once every other worker has run all its tests (each says so in
    pytest_sessionfinish): the run's last test must see what every other test left."""
    count = int(os.environ.get("PYTEST_XDIST_WORKER_COUNT", "1"))
    if worker_id() and count > 1:
        wait_for_files(run_dir(config), [f"finished-gw{k}" for k in range(count) if f"gw{k}" != worker_id()],
                       timeout)


def wait_for_files(folder: Path, names: list[str], timeout: float, poll: float = 1.0) -> None:
    """Return once every one of `names` exists in `folder`; TimeoutError naming the missing after `timeout` s."""
    deadline = time.monotonic() + timeout
    while missing := [n for n in names if not (folder / n).exists()]:
        if time.monotonic() > deadline:
            raise TimeoutError(f"{folder}: still waiting after {timeout:.0f} s for {missing}")
        time.sleep(poll)


def pytest_sessionfinish(session):
    if worker_id():  # this worker has run every test it was given
        (run_dir(session.config) / f"finished-{worker_id()}").touch()


@pytest.hookimpl(tryfirst=True)  # before -m deselects by marker
def pytest_collection_modifyitems(config, items):
    for item in items:
        if SITE_FIXTURES & set(getattr(item, "fixturenames", ())):
            item.add_marker(pytest.mark.slow)
    # FILE_ORDER first (a stable sort: each file's tests stay together and in order)
    rank = {path: k for k, path in enumerate(FILE_ORDER)}
    items.sort(key=lambda i: rank.get(i.nodeid.split("::", 1)[0], len(FILE_ORDER)))
    # the working-tree check runs after every test that could have touched the tree; the state it
    # compares with is taken now, before any test runs (only when the check is in the run: ~2 s)
    last = [i for i in items if i.get_closest_marker("last")]
    items[:] = [i for i in items if not i.get_closest_marker("last")] + last
    if last:
        config.stash[TREE_BEFORE] = working_tree_state(ROOT)
        config.stash[TREE_UP_TO_DATE] = not sources_newer_than(ROOT, ROOT / "site" / "index.html")


def pytest_runtest_logreport(report):
    FILE_SECONDS[report.nodeid.split("::", 1)[0]] += report.duration


@pytest.hookimpl(trylast=True)  # after pytest's own --durations list: the run's last lines
def pytest_terminal_summary(terminalreporter):
    """Seconds per test file, slowest first: where the next slowdown shows."""
    if not FILE_SECONDS:
        return
    ranked = sorted(FILE_SECONDS.items(), key=lambda kv: -kv[1])
    total = sum(FILE_SECONDS.values())
    tr = terminalreporter
    workers = getattr(tr.config.option, "numprocesses", None) or 1
    tr.write_sep("=", f"time per test file ({total:.0f} s in all on {workers} worker(s), "
                      f"{time.monotonic() - RUN_STARTED:.0f} s wall; slowest first)")
    for path, seconds in ranked[:SHOWN_FILES]:
        tr.write_line(f"{seconds:8.1f} s  {100 * seconds / total:4.1f} %  {path}")
    rest = ranked[SHOWN_FILES:]
    if rest:
        tr.write_line(f"{sum(s for _, s in rest):8.1f} s  in the other {len(rest)} files")


@pytest.fixture(scope="session")
def preview_site(pytestconfig) -> Path:
    """The working tree's preview build (every scenario) by `make`'s own command, once per test run and
    shared: the browser gate, the page checks and the cache tests (on hard-linked copies) all read it.

    A no-op when build/ is warm (after `make`); cold on a fresh clone (CI). W06_GATE_PREBUILT=1 uses
    site/ as it is (say, built by bare mkdocs) and builds nothing.
    """
    site = ROOT / "site"
    if not os.environ.get("W06_GATE_PREBUILT"):
        shared = run_dir(pytestconfig)
        with open(shared / "preview_site.lock", "w") as lock:
            fcntl.flock(lock, fcntl.LOCK_EX)  # one worker builds; the others wait here, then use its build
            record = shared / SHARED_BUILD_RECORD
            if not record.exists():
                env = {**os.environ, "NO_MKDOCS_2_WARNING": "1"}
                proc = subprocess.run(
                    [sys.executable, "-m", "pipeline", "build", "--preset", "preview", "--scenario", "all"],
                    cwd=ROOT, env=env, capture_output=True, text=True)
                assert proc.returncode == 0, proc.stdout[-3000:] + proc.stderr[-3000:]
                tasks = json.loads((ROOT / "build" / "report.json").read_text())["tasks"]
                record.write_text(json.dumps({"all_hits": all(t["status"] == "hit" for t in tasks),
                                              "tree": working_tree_state(ROOT)}))
    assert (site / "index.html").is_file(), f"{site}: no site built"
    return site


def shared_build(config: pytest.Config) -> dict | None:
    """What this run's preview_site found ({"all_hits", "tree"}), None when no test asked for it."""
    record = run_dir(config) / SHARED_BUILD_RECORD
    return json.loads(record.read_text()) if record.exists() else None


@pytest.fixture(scope="session")
def scenario_site(preview_site) -> Path:
    """The same build, checked to hold every other scenario's pages (tests/test_scenarios*.py)."""
    from pipeline.catalogue import load

    cat = load()
    others = [s.id for s in cat.scenarios if s.id != cat.default_scenario]
    assert others, "the catalogue has no other scenario"
    for sid in others:
        assert (preview_site / "scenario" / sid / "index.html").is_file(), f"{sid}: no pages built"
    return preview_site


@pytest.fixture(scope="session")
def site_url(preview_site):
    """The shared preview site served on 127.0.0.1 (tests/browser.py: serve)."""
    from browser import serve

    with serve(preview_site) as url:
        yield url


@pytest.fixture(scope="session")
def chromium():
    """Debian's chromium, started once per run (tests/browser.py: browser)."""
    from browser import browser

    with browser() as b:
        yield b


@pytest.fixture
def project(tmp_path) -> Path:
    """A fresh copy of the project sources with no build."""
    dest = tmp_path / "project"
    copy_project(dest)
    return dest


@pytest.fixture(scope="session")
def catalogue():
    """The validated catalogue: model tests take the scenario's values from here."""
    from pipeline.catalogue import load

    return load()


@pytest.fixture(scope="session")
def scene_params(catalogue):
    """scene_params(scene_id) -> the resolved parameters the catalogue gives that scene's model."""
    return lambda scene_id: dict(catalogue.scene(scene_id).params)


@pytest.fixture(scope="session")
def model_output(tmp_path_factory):
    """model_output(scene_id) -> (data, path): the catalogue entry's model output as the build writes it,
    once per session: `make`'s own data file when it is current (support.current_outputs: the key
    planned now is the recorded one and the bytes are the recorded bytes), else the model run fresh."""
    from pipeline import paths
    from pipeline.catalogue import load
    from pipeline.jsonio import to_json
    from pipeline.workers.compute import run_model

    catalogue = load()
    root = tmp_path_factory.mktemp("data")
    cache: dict[str, tuple] = {}

    def run(scene_id: str):
        if scene_id not in cache:
            s = catalogue.scene(scene_id)
            built = current_outputs(s.id, "compute")
            rel = paths.rel(paths.data_json(s.id))
            blob = built[rel] if built else to_json(run_model(s.id, s.model, s.params))
            (root / f"{s.id}.json").write_bytes(blob)
            cache[scene_id] = (json.loads(blob), root)
        return cache[scene_id]

    return run


@pytest.fixture(scope="session")
def dry_run(model_output, tmp_path_factory):
    """dry_run(scene_id) -> (data, beats, seconds): what a scene's construct did, once per session, with
    what the frame and text-card checks found at each beat's end (run.problems, run.cards).

    A render records all of it (build/media/preview/<id>.beats.json), so a scene whose preview render is
    current (support.current_outputs: `make` would not re-render it) is read from that record; any
    other is dry-run here: Manim plays every animation without writing a file. Either way the same
    construct at the same preset with the same data, so the scene tests see what a render would.
    """
    import importlib

    from manim import tempconfig

    from pipeline import paths
    from pipeline.catalogue import load
    from pipeline.engine.presets import PRESETS

    catalogue = load()
    media = tmp_path_factory.mktemp("dry-run")
    cache: dict[str, tuple] = {}

    def run(scene_id: str):
        if scene_id not in cache:
            s = catalogue.scene(scene_id)
            data, data_dir = model_output(scene_id)
            module, _, name = s.scene.partition(":")
            cls = getattr(importlib.import_module(module), name)
            assert cls.scene_id == s.id, f"{s.scene}.scene_id is {cls.scene_id!r}, catalogue says {s.id!r}"
            rendered = current_outputs(s.id, "media")
            if rendered:
                record = json.loads(rendered[paths.rel(paths.beats(s.id, "preview"))])
                cache[scene_id] = (data, record["beats"], record["duration"])
                run.problems[scene_id] = record["frame_problems"]
                run.cards[scene_id] = record["card_problems"]
                return cache[scene_id]
            cls.data_dir = data_dir
            config = {**PRESETS["preview"], "dry_run": True, "disable_caching": True,
                      "media_dir": str(media), "progress_bar": "none", "verbosity": "WARNING"}
            with tempconfig(config):
                scene = cls()
                scene.render()
                cache[scene_id] = (data, scene.timed_beats(), scene.renderer.time)
                run.problems[scene_id] = list(scene.frame_problems)
                run.cards[scene_id] = list(scene.card_problems)
        return cache[scene_id]

    run.problems = {}  # scene id -> what check_frame found at the end of each beat
    run.cards = {}  # scene id -> the beats where only text appeared or changed
    return run
