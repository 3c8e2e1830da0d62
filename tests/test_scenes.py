"""Every implemented scene's construct runs (Manim dry run) and marks its beats.

A dry run plays every animation without writing frames: seconds per scene.
It catches a scene that reads a field the model no longer writes, and checks
the length budget (20-60 s: long enough for a beat per idea, short enough to watch) and that
captions are real sentences.
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


@pytest.mark.parametrize("scene_id", [s.id for s in CATALOGUE.built])
def test_every_beat_ends_on_a_presentable_frame(scene_id, dry_run):
    """At the end of every beat (where a presenter pauses): nothing in the caption band,
    no text outside the safe frame, none too small to project, no two texts overlapping
    (scenes/style.py check_frame, limits in design/sizes.py)."""
    dry_run(scene_id)
    problems = dry_run.problems[scene_id]
    assert not problems, f"{scene_id}: {len(problems)} frame problems:\n" + "\n".join(problems)


def test_frame_check_catches_each_defect_class():
    """The checker itself: a clean frame passes; each defect is named."""
    from manim import Rectangle, Text

    from design import sizes
    from scenes.style import check_frame

    assert check_frame([Text("fine", font_size=24).move_to([0, 1, 0])]) == []
    low = Rectangle(width=1, height=0.4).move_to([0, sizes.CAPTION_BAND_TOP - 0.3, 0])
    assert "caption band" in check_frame([low])[0]
    edge = Text("off the edge", font_size=24).move_to([sizes.FRAME_WIDTH / 2, 0, 0])
    assert "safe frame" in check_frame([edge])[0]
    assert "too small" in check_frame([Text("tiny", font_size=12)])[0]
    a, b = Text("alpha", font_size=24), Text("beta", font_size=24).shift([0.2, 0, 0])
    assert any("overlap" in p for p in check_frame([a, b]))


def test_bundled_font_covers_every_character_the_scenes_draw():
    """A glyph missing from the bundled font would be drawn from whatever fonts the
    machine has installed, and renders would differ between machines."""
    from pathlib import Path

    from matplotlib.ft2font import FT2Font

    root = Path(__file__).resolve().parent.parent
    covered = set()
    for font in (root / "design" / "fonts").glob("*.otf"):
        covered |= set(FT2Font(str(font)).get_charmap())
    sources = [*(root / "scenes").glob("*.py"), root / "models" / "units.py"]
    missing = {f"{ch} (U+{ord(ch):04X}) in {p.name}" for p in sources
               for ch in p.read_text(encoding="utf-8") if ord(ch) > 127 and ord(ch) not in covered}
    assert not missing, sorted(missing)
