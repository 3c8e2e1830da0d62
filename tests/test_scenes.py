"""Every implemented scene's construct runs (Manim dry run) and marks its beats.

A dry run plays every animation without writing frames: seconds per scene.
It catches a scene that reads a field the model no longer writes, and checks
the DESIGN.md length budget (20-60 s) and that captions are real sentences.
"""

from __future__ import annotations

import importlib

import pytest
from manim import tempconfig

from pipeline import tasks
from pipeline.catalogue import load
from pipeline.presets import PRESETS

CATALOGUE = load()


@pytest.fixture(scope="module")
def data_dir(tmp_path_factory):
    """Model output for every built scene, computed fresh into a scratch folder."""
    d = tmp_path_factory.mktemp("data")
    for s in CATALOGUE.built:
        module, _, fn = s.model.partition(":")
        result = getattr(importlib.import_module(module), fn)(**s.params)
        (d / f"{s.id}.json").write_bytes(tasks.to_json({"scene": s.id, "params": s.params, **result}))
    return d


@pytest.mark.parametrize("scene", CATALOGUE.built, ids=lambda s: s.id)
def test_construct_runs_and_marks_beats(scene, data_dir, tmp_path):
    module, _, name = scene.scene.partition(":")
    cls = getattr(importlib.import_module(module), name)
    assert cls.scene_id == scene.id
    cls.data_dir = data_dir
    config = {**PRESETS["preview"], "dry_run": True, "disable_caching": True,
              "media_dir": str(tmp_path), "progress_bar": "none", "verbosity": "WARNING"}
    with tempconfig(config):
        s = cls()
        s.render()
        beats = s.timed_beats()
        duration = s.renderer.time
    assert 20 <= duration <= 60, f"{scene.id}: {duration:.1f} s, outside the 20-60 s budget"
    assert 4 <= len(beats) <= 12
    for b in beats:
        assert b["end"] > b["start"]
        assert len(b["caption"]) > 10 and "{" not in b["caption"], b["caption"]
