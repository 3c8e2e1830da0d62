"""Every implemented scene's construct runs (Manim dry run) and marks its beats.

A dry run plays every animation without writing frames: seconds per scene.
It catches a scene that reads a field the model no longer writes, and checks
the length budget (20-60 s: long enough for a beat per idea, short enough to watch), that
captions are real sentences a viewer has time to read, and that every beat shows something move.
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


def test_a_renders_record_is_what_a_dry_run_finds(project):
    """The scene tests read a current render's record (build/media/<preset>/<id>.beats.json) instead of
    dry-running the scene (conftest.py: dry_run). That record must be what a dry run finds: the same
    beats and duration, the same frame and text-card problems. One scene rendered at the probe preset
    in a scratch copy, then dry-run at the same preset on the same data."""
    import importlib
    import json

    from manim import tempconfig
    from support import run_build

    from pipeline.engine.presets import PRESETS

    scene_id = "capex-opex-tco"  # the cheapest scene to build whole
    run_build(project, "build", "--preset", "probe", "--only", scene_id, "--no-site")
    record = json.loads((project / "build" / "media" / "probe" / f"{scene_id}.beats.json").read_text())
    module, _, name = CATALOGUE.scene(scene_id).scene.partition(":")
    cls = getattr(importlib.import_module(module), name)
    cls.data_dir = project / "build" / "data"
    config = {**PRESETS["probe"], "dry_run": True, "disable_caching": True, "media_dir": str(project / "dry"),
              "progress_bar": "none", "verbosity": "WARNING"}
    with tempconfig(config):
        scene = cls()
        scene.render()
    assert record["beats"] == scene.timed_beats()
    assert record["duration"] == round(scene.renderer.time, 3)
    assert record["frame_problems"] == scene.frame_problems
    assert record["card_problems"] == scene.card_problems


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


@pytest.mark.parametrize("scene_id", [s.id for s in CATALOGUE.built])
def test_every_caption_can_be_read_in_its_beat(scene_id, dry_run):
    """Each beat lasts at least its caption's reading time at the subtitling pace plus a hold
    (scenes/style.py reading_time: 17 characters/s, Netflix's timed-text guide, and 0.5 s)."""
    from scenes.style import pace_problems

    _, beats, _ = dry_run(scene_id)
    problems = pace_problems(beats)
    assert not problems, f"{scene_id}: {len(problems)} captions too fast to read:\n" + "\n".join(problems)


# Beats still shown as text only, each waived by name with what it lacks; a waiver that no
# longer matches a text-only beat fails the test, so the list only shrinks.
TEXT_CARD_WAIVERS: dict[tuple[str, int], str] = {}


@pytest.mark.parametrize("scene_id", [s.id for s in CATALOGUE.built])
def test_every_beat_shows_something_move(scene_id, dry_run):
    """No beat is a text card: in each, a shape that is not text appears, moves or changes
    (the first beat too: not only a header). TEXT_CARD_WAIVERS names the exceptions."""
    dry_run(scene_id)
    cards = dry_run.cards[scene_id]
    waived = {n for (sid, n) in TEXT_CARD_WAIVERS if sid == scene_id}
    flagged = {int(c.split(" ")[1]) for c in cards}
    unwaived = [c for c in cards if int(c.split(" ")[1]) not in waived]
    assert not unwaived, f"{scene_id}: {len(unwaived)} beats show only text:\n" + "\n".join(unwaived)
    stale = sorted(waived - flagged)
    assert not stale, f"{scene_id}: beats {stale} are waived as text cards but now move: drop their waivers"


def test_pace_check_catches_a_caption_too_fast_to_read():
    from scenes.style import READING_CPS, READING_HOLD, pace_problems

    caption = "x" * 34  # 2 s of reading at 17/s
    needed = len(caption) / READING_CPS + READING_HOLD
    assert pace_problems([{"start": 0.0, "end": needed, "caption": caption}]) == []
    (problem,) = pace_problems([{"start": 0.0, "end": needed - 0.1, "caption": caption},
                                {"start": needed, "end": 2 * needed, "caption": caption}])
    assert problem.startswith("beat 1 ") and "34 characters" in problem


def _dry_run_of(construct, tmp_path):
    """A throwaway ExhibitScene with `construct` as its script, dry-run; returns the scene."""
    import json

    from manim import tempconfig

    from pipeline.engine.presets import PRESETS
    from scenes.style import ExhibitScene

    (tmp_path / "planted.json").write_text(json.dumps({}))
    cls = type("Planted", (ExhibitScene,), {"scene_id": "planted", "data_dir": tmp_path, "construct": construct})
    config = {**PRESETS["preview"], "dry_run": True, "disable_caching": True, "media_dir": str(tmp_path),
              "progress_bar": "none", "verbosity": "WARNING"}
    with tempconfig(config):
        scene = cls()
        scene.render()
    return scene


def test_a_fast_beat_is_held_until_its_caption_is_read(tmp_path):
    """A 0.5 s block under a 68-character caption is held to 68 / 17 + 0.5 = 4.5 s; a block
    already long enough is not stretched."""
    from manim import FadeIn, Square

    from scenes.style import pace_problems, reading_time

    long_caption = "A square fades in while this caption runs to sixty-eight characters."

    def construct(self):
        with self.beat(long_caption):
            self.play(FadeIn(Square()), run_time=0.5)
        with self.beat("Short"):
            self.wait(2)

    scene = _dry_run_of(construct, tmp_path)
    first, second = scene.timed_beats()
    assert first["end"] - first["start"] == pytest.approx(reading_time(long_caption), abs=0.07)
    assert second["end"] - second["start"] == pytest.approx(2.0, abs=1e-3)
    assert pace_problems(scene.timed_beats()) == []


def test_card_check_catches_text_cards_and_a_header_only_opening(tmp_path):
    """Planted: a first beat with only a title, a beat that only writes text, a beat that only
    removes the shape; each is named. A beat that moves a shape, or counts a bar up, is not."""
    from manim import DOWN, FadeIn, FadeOut, Rectangle, Square, ValueTracker, Write

    from scenes.style import counter, label, title

    def construct(self):
        with self.beat("Only a header opens the scene"):
            self.play(Write(title("A header")))
        with self.beat("A square moves"):
            sq = Square().shift(DOWN)
            self.play(FadeIn(sq))
        with self.beat("Only text: a card"):
            self.play(Write(label("Conclusion in words").shift(2 * DOWN)))
        with self.beat("A bar grows by its updater"):
            level = ValueTracker(0.5)
            bar = Rectangle(width=0.5, height=0.5).shift(3 * DOWN)
            bar.add_updater(lambda m: m.stretch_to_fit_height(level.get_value()))
            number = counter("level", 0.5, decimals=1)
            self.add(bar, number)
            self.play(level.animate.set_value(1.5))
        with self.beat("Shapes only leave"):
            self.play(FadeOut(sq))

    scene = _dry_run_of(construct, tmp_path)
    cards = scene.card_problems
    assert [c.split(" (")[0] for c in cards] == ["beat 1", "beat 3", "beat 5"], cards
    assert "first beat shows only text" in cards[0] and "text card" in cards[1]


def test_value_bars_draw_values_on_one_scale():
    """Bars in proportion to their values, from one edge, each value printed after its bar."""
    from scenes.style import value_bars

    rows = value_bars([("a", 2.0, "2", "#ffffff"), ("bb", 0.5, "0.5", "#ffffff")], top=4.0, width=6.0)
    assert [round(r[1].width, 6) for r in rows] == [3.0, 0.75]
    assert rows[0][1].get_left()[0] == pytest.approx(rows[1][1].get_left()[0])
    assert all(r[2].get_left()[0] > r[1].get_right()[0] for r in rows)
    with pytest.raises(ValueError, match="top must be positive"):
        value_bars([("a", 1.0, "1", "#ffffff")], top=0.0)


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
