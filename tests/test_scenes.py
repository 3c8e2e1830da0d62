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
