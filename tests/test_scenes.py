"""Every implemented scene's construct runs (Manim dry run) and marks its beats.

A dry run plays every animation without writing frames: seconds per scene.
It catches a scene that reads a field the model no longer writes, and checks
the DESIGN.md length budget (20-60 s) and that captions are real sentences.
Scene-specific checks (captions quoting the model) live with each model's tests.
"""

from __future__ import annotations

import pytest

from pipeline.catalogue import load

CATALOGUE = load()


@pytest.mark.parametrize("scene_id", [s.id for s in CATALOGUE.built])
def test_construct_runs_and_marks_beats(scene_id, dry_run):
    _, beats, duration = dry_run(scene_id)
    assert 20 <= duration <= 60, f"{scene_id}: {duration:.1f} s, outside the 20-60 s budget"
    assert 4 <= len(beats) <= 12
    assert beats[0]["start"] == 0, "the first beat must start the scene, or its opening has no caption"
    for b in beats:
        assert b["end"] > b["start"]
        assert len(b["caption"]) > 10 and "{" not in b["caption"], b["caption"]
