"""Shared fixtures: the working tree's preview build, and scratch copies of the project.

`preview_site` builds in the working tree itself (its build/ and site/), once per run, and every
test that reads the built site shares it. The other pipeline tests (the `project` fixture, and
tests/support.py's run_build on a copy) copy the sources to a temporary folder and build there, so
what they break or change never reaches the working tree's build/ or site/.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from support import ROOT

from pipeline.engine.project_copy import copy_project


@pytest.fixture(scope="session")
def preview_site() -> Path:
    """The working tree's preview build (every scenario), built once per test run and shared: the browser gate,
    the page checks and the cache tests (on a copy) all read this one build.

    A no-op when build/ is warm; cold on a fresh clone (CI). W06_GATE_PREBUILT=1 uses site/ as it
    is (say, built by bare mkdocs) and builds nothing.
    """
    site = ROOT / "site"
    if not os.environ.get("W06_GATE_PREBUILT"):
        env = {**os.environ, "NO_MKDOCS_2_WARNING": "1"}
        proc = subprocess.run([sys.executable, "-m", "pipeline", "build", "--preset", "preview", "--scenario", "all"],
                              cwd=ROOT, env=env, capture_output=True, text=True)
        assert proc.returncode == 0, proc.stdout[-3000:] + proc.stderr[-3000:]
    assert (site / "index.html").is_file(), f"{site}: no site built"
    return site


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
    """model_output(scene_id) -> (data, path): the catalogue entry's model run fresh,
    written as the build writes it, once per session."""
    from pipeline.catalogue import load
    from pipeline.jsonio import to_json
    from pipeline.workers.compute import run_model

    catalogue = load()
    root = tmp_path_factory.mktemp("data")
    cache: dict[str, tuple] = {}

    def run(scene_id: str):
        if scene_id not in cache:
            s = catalogue.scene(scene_id)
            blob = to_json(run_model(s.id, s.model, s.params))
            (root / f"{s.id}.json").write_bytes(blob)
            cache[scene_id] = (json.loads(blob), root)
        return cache[scene_id]

    return run


@pytest.fixture(scope="session")
def dry_run(model_output, tmp_path_factory):
    """dry_run(scene_id) -> (data, beats, seconds): a scene's Manim dry run, once per session.

    The scene plays every animation without writing frames, so scene tests
    see what a render would.
    """
    import importlib

    from manim import tempconfig

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
