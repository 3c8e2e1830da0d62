"""The shared Manim style: fonts, the exhibit base class and reusable mobjects.

Every scene subclasses ExhibitScene, reads its numbers from self.data (the
model output in build/data/<id>.json) and writes each beat as a block,
`with self.beat("caption"):`. The beats become the WebVTT caption track and the
transcript on the page, so what is said and what is shown cannot drift.

The font is bundled (design/fonts, Inter, SIL OFL) and registered at import,
so renders do not depend on the fonts installed on the machine. Text is Pango
(Text, MarkupText): no LaTeX anywhere.
"""

from __future__ import annotations

import contextlib
import json
import math
import os
from pathlib import Path
from typing import ClassVar

import manimpango
from manim import (
    DOWN,
    LEFT,
    RIGHT,
    UP,
    DecimalNumber,
    FadeIn,
    GrowFromEdge,
    MarkupText,
    NumberLine,
    Rectangle,
    Scene,
    Square,
    Text,
    VGroup,
    VMobject,
)

from design import fonts, palette, sizes

ROOT = Path(__file__).resolve().parent.parent
FONT = fonts.FAMILY
BG = palette.VIDEO["bg"]
INK = palette.VIDEO["ink"]
MUTED = palette.VIDEO["muted"]
PANEL = palette.VIDEO["panel"]

# sizes in Manim units on the 16:9 frame (14.2 × 8 units)
TITLE_SIZE = sizes.TITLE
BODY_SIZE = sizes.BODY
SMALL_SIZE = sizes.SMALL


def register_fonts() -> None:
    """Register the bundled font with Pango; fail loudly if it is not found."""
    for path in fonts.files():
        manimpango.register_font(str(path))
    if FONT not in manimpango.list_fonts():
        raise RuntimeError(f"bundled font {FONT!r} did not register from {fonts.FONT_DIR}")


register_fonts()
Text.set_default(font=FONT, color=INK)
MarkupText.set_default(font=FONT, color=INK)
# Manim draws numbers with MathTex (LaTeX) by default; there is no LaTeX here.
# Pango text for every DecimalNumber/Integer and every axis label instead.
DecimalNumber.set_default(mob_class=Text)
NumberLine.set_default(label_constructor=Text)


# x264's own options for every partial movie: `cpu-independent` makes x264 use its
# portable C arithmetic where its SIMD versions may give other results (the macroblock-tree
# rate control's propagate step: with the CPU's SIMD the same frames encoded to different
# bytes in processes whose heaps differed, MALLOC_PERTURB_ alone was enough). Measured on a
# preview-sized clip: 3 of 3 processes with different heaps gave 3 different files before,
# one file after; the picture is the same algorithm, only the arithmetic is canonical.
X264_PARAMS = "cpu-independent=1"
# x264's preset for every movie (site, kit, 4k master): a render's CPU is mostly its encode, not its
# drawing (at 4k, Cairo draws a 27 s scene in 14 CPU-s and the encode takes the other 190). Measured
# with tools/encoder_sweep.py and a whole 4k render of capex-opex-tco (README "Presenter kit"):
# veryfast against x264's default, medium: 15 % less encode CPU at hd and 16 % less for the whole 4k
# render, files 16 % smaller, luma PSNR 41.8 against 42.6 dB, both at Manim's crf 23.
X264_PRESET = "veryfast"


def encode_reproducibly(writer) -> None:
    """Make Manim's file writer give the same bytes for the same frames, in any process.

    Three things made the same frames encode to different bytes:

    - threads: Manim opens every partial movie with the codec's default threading, one
      slice thread per core, and x264's slice threads read memory they have not written;
      the bytes also depended on the machine's core count. The codec runs on one thread
      (and PyAV's RGBA-to-YUV conversion with it: it takes the codec's thread count).
    - x264's SIMD: even on one thread, the macroblock-tree rate control's SIMD code gave
      heap-dependent results; `X264_PARAMS` switches it to x264's canonical C arithmetic,
      which is also the same on every CPU.
    - the container: the WebM (Matroska) muxer writes a random segment UID into every
      file unless it is told to be bit-exact; every container is opened bit-exact, and
      the combined WebM, which Manim muxes itself, is re-muxed bit-exact in place.

    The RGBA-to-YUV conversion (swscale, inside PyAV) is not one of them: the picture it
    gives does not depend on where the frame's buffer sits in memory (the same frame at 16
    byte offsets gives one picture; only the rows' alignment padding, which no encoder
    reads, holds leftover bytes), so frames go to the encoder as Manim hands them over.

    The settings go on after the stream is created and before its first frame opens the
    codec (PyAV refuses the change once the codec is open, so a Manim that opened it
    earlier fails loudly here rather than going back to varying bytes).
    """
    open_stream = writer.open_partial_movie_stream
    combine = writer.combine_files

    def open_reproducibly(*args, **kwargs) -> None:
        open_stream(*args, **kwargs)
        job = writer._current_encode_job
        reproducible(job.container, job.stream)

    def combine_reproducibly(input_files, output_file, *args, **kwargs) -> None:
        combine(input_files, output_file, *args, **kwargs)
        if Path(output_file).suffix == ".webm":
            remux_bitexact(Path(output_file))

    writer.open_partial_movie_stream = open_reproducibly
    writer.combine_files = combine_reproducibly


def reproducible(container, stream) -> None:
    """Set a new output stream and its container to give the same bytes for the same frames
    (before the first frame opens the codec): one thread, x264's canonical arithmetic, bit-exact; and
    x264's preset (X264_PRESET)."""
    import av

    codec = stream.codec_context
    codec.thread_count = 1
    if codec.name == "libx264":
        codec.options = {**codec.options, "preset": X264_PRESET, "x264-params": X264_PARAMS}
    container.flags |= av.container.Flags.bitexact.value


def remux_bitexact(path: Path) -> None:
    """Copy a movie's streams into a bit-exact container of the same format, in place."""
    import av

    tmp = path.with_name(path.stem + ".bitexact" + path.suffix)
    with av.open(str(path)) as src, av.open(str(tmp), mode="w") as dst:
        dst.flags |= av.container.Flags.bitexact.value
        dst.metadata.update(src.metadata)
        streams = {}
        for s in src.streams:
            streams[s.index] = dst.add_stream_from_template(s)
            if s.type == "video" and s.metadata.get("alpha_mode") == "1":
                # VP9 with alpha: the muxer marks the track (AlphaMode), as Manim's own mux does,
                # or players ignore the alpha
                streams[s.index].pix_fmt = "yuva420p"
        for packet in src.demux():
            if packet.dts is None:
                continue
            packet.stream = streams[packet.stream.index]
            dst.mux(packet)
    tmp.replace(path)


class ExhibitScene(Scene):
    """A scene driven by one catalogue entry's model output.

    Subclasses set `scene_id` (the catalogue id) and write `construct` as a
    script of beats, each a block:

        with self.beat("Reduce-scatter: 7 steps, one chunk each"):
            self.play(...)

    A beat's caption is shown for exactly its block. The beats become the
    WebVTT caption track, the page's transcript and (presenter kit) one slide
    each, so the frame at the end of a block must show what its caption says:
    `check_frame` looks at that frame (caption band, safe frame, text size,
    overlapping text) and records what it finds in `frame_problems`; tests
    require none. Clear a beat's highlight at the start of the next beat,
    not at the end of its own. The build sets `data_dir` before rendering.

    A caption must be readable in its beat: a block shorter than its caption's
    reading time (`reading_time`) is held on its last frame until it is, so a
    scene speeds up its captions only by cutting words. Each beat must also
    show something move: `card_problems` records a beat whose only new or
    changed drawing is text (a text card, or a first beat that is only a header).
    """

    scene_id: ClassVar[str]
    data_dir: ClassVar[Path] = Path(os.environ.get("W06_DATA_DIR", ROOT / "build" / "data"))

    def setup(self) -> None:
        self.camera.background_color = BG
        encode_reproducibly(self.renderer.file_writer)
        path = Path(self.data_dir) / f"{self.scene_id}.json"
        try:
            self.data = json.loads(path.read_text(encoding="utf-8"))
        except FileNotFoundError:
            raise FileNotFoundError(
                f"{path}: no model output for {self.scene_id!r}; run the compute stage first"
            ) from None
        self.beats: list[dict] = []
        self.frame_problems: list[str] = []
        self.card_problems: list[str] = []
        self._in_beat = False
        self._beat_start_shot: dict[int, tuple] = {}
        self._beat_moves_shapes = False

    @contextlib.contextmanager
    def beat(self, caption: str):
        """One beat: its caption, and the animations of the block."""
        if self._in_beat:
            raise RuntimeError(f"{self.scene_id}: beat {caption!r} starts inside another beat")
        if not caption.strip():
            raise ValueError(f"{self.scene_id}: a beat needs a caption")
        start = round(self.renderer.time, 3)
        self._in_beat = True
        self._beat_start_shot = drawing(self.mobjects)
        self._beat_moves_shapes = False
        try:
            yield
            if self.renderer.time > start:
                self.hold_to_read(caption, start)
        finally:
            self._in_beat = False
        end = round(self.renderer.time, 3)
        if end <= start:
            raise RuntimeError(f"{self.scene_id}: beat {caption!r} plays nothing (add a play or wait)")
        self.beats.append({"start": start, "end": end, "caption": caption})
        where = f"beat {len(self.beats)} ({caption[:40]}…)"
        self.frame_problems += [f"{where}: {p}" for p in check_frame(self.mobjects)]
        if not self._beat_moves_shapes:
            self.card_problems.append(f"{where}: {card_problem(len(self.beats) == 1)}")
        self.end_of_beat()

    def hold_to_read(self, caption: str, start: float) -> None:
        """Hold the beat's last frame until its caption has had its reading time."""
        short = reading_time(caption) - (self.renderer.time - start)
        if short > 0:
            # whole frames, rounded up: a hold a frame short would leave the beat a frame short
            frame = 1 / self.camera.frame_rate
            # half a frame more: the renderer counts int(seconds x fps) frames, and n/fps x fps can
            # come out a hair under n (31/15 s gave 30 frames), which would drop the last frame
            super().wait((math.ceil(short / frame - 1e-9) + 0.5) * frame)

    def end_of_beat(self) -> None:
        """Hook at each beat's end (`make frame` stops the render here). The presenter kit's slides need
        none: they are cut from the hd render at the beats' recorded ends (pipeline/presenter/decks.py)."""

    def play(self, *args, **kwargs):
        self._require_beat()
        if not self._beat_moves_shapes:
            self._beat_moves_shapes = any(animates_shapes(a) for a in args)
        result = super().play(*args, **kwargs)
        if not self._beat_moves_shapes:
            self._beat_moves_shapes = shapes_changed(self._beat_start_shot, drawing(self.mobjects))
        return result

    def wait(self, *args, **kwargs):
        self._require_beat()
        return super().wait(*args, **kwargs)

    def _require_beat(self) -> None:
        if not self._in_beat:
            raise RuntimeError(f"{self.scene_id}: every animation belongs to a beat "
                               "(wrap it in `with self.beat(caption):`)")

    def timed_beats(self) -> list[dict]:
        """The beats with start and end times, in order."""
        return [dict(b) for b in self.beats]


# --- frame discipline ------------------------------------------------------------
_TEXT_TYPES = (Text, MarkupText, DecimalNumber)
_EPS = 0.02  # Manim units: touching is not overlapping


def _visible(m) -> bool:
    """Drawn with some ink: any point with non-zero fill or stroke opacity."""
    for sub in m.family_members_with_points():
        if not isinstance(sub, VMobject):  # trackers and other non-drawn helpers
            continue
        if sub.get_fill_opacity() > 0.01 or (sub.get_stroke_width() > 0 and sub.get_stroke_opacity() > 0.01):
            return True
    return False


def _texts(mobjects) -> list:
    """Text-like mobjects on screen, each as one unit (a counter's digits are one)."""
    out, stack = [], list(mobjects)
    while stack:
        m = stack.pop()
        if isinstance(m, _TEXT_TYPES):
            if m.has_points() or m.family_members_with_points():
                if _visible(m):
                    out.append(m)
            continue
        stack.extend(m.submobjects)
    return out


def _box(m) -> tuple[float, float, float, float]:
    (x0, y0, _), (x1, y1, _) = m.get_corner(DOWN + LEFT), m.get_corner(UP + RIGHT)
    return x0, y0, x1, y1


def _name(m) -> str:
    t = getattr(m, "text", None) or getattr(m, "original_text", None)
    if t is None and isinstance(m, DecimalNumber):
        t = f"{m.get_value():g}"
    return repr(str(t)[:30]) if t is not None else type(m).__name__


def check_frame(mobjects) -> list[str]:
    """What is wrong with a frame a presenter might pause on, in words (empty if nothing).

    - nothing drawn in the caption band at the bottom (design/sizes.py);
    - no text outside the safe frame;
    - no text smaller than the projector floor;
    - no two texts overlapping.
    """
    problems = []
    half_w, half_h = sizes.FRAME_WIDTH / 2, sizes.FRAME_HEIGHT / 2
    margin = sizes.SAFE_MARGIN * sizes.FRAME_HEIGHT
    band = sizes.CAPTION_BAND_TOP
    for m in mobjects:
        for sub in m.family_members_with_points():
            in_band = sub.get_bottom()[1] < band - _EPS and sub.get_top()[1] > -half_h
            if isinstance(sub, VMobject) and in_band and _visible(sub):
                owner = next((t for t in _texts([m]) if sub in t.get_family()), None)
                problems.append(f"{_name(owner) if owner else type(sub).__name__} is drawn in the caption "
                                f"band (bottom at y = {sub.get_bottom()[1]:.2f}, band top {band:.2f})")
                break
    texts = _texts(mobjects)
    for t in texts:
        x0, y0, x1, y1 = _box(t)
        if x0 < -half_w + margin - _EPS or x1 > half_w - margin + _EPS or y1 > half_h - margin + _EPS:
            problems.append(f"text {_name(t)} leaves the safe frame (box {x0:.2f}, {y0:.2f}, {x1:.2f}, {y1:.2f})")
        cap = t.font_size * sizes.CAP_PER_POINT / sizes.FRAME_HEIGHT
        if cap < sizes.MIN_CAP_HEIGHT - 1e-9:
            problems.append(f"text {_name(t)} is too small to project (font size {t.font_size:.1f}: capitals "
                            f"{cap:.1%} of the frame height, floor {sizes.MIN_CAP_HEIGHT:.0%})")
    boxes = [(t, _box(t)) for t in texts]
    for i, (a, ba) in enumerate(boxes):
        for b, bb in boxes[i + 1:]:
            if a in b.get_family() or b in a.get_family():
                continue
            if (min(ba[2], bb[2]) - max(ba[0], bb[0]) > _EPS and min(ba[3], bb[3]) - max(ba[1], bb[1]) > _EPS):
                problems.append(f"texts {_name(a)} and {_name(b)} overlap")
    return problems


# --- reading pace ---------------------------------------------------------------
# Netflix's English timed-text style guide: adult programmes at most 17 characters per second
# (200 words per minute); "English Template Timed Text Style Guide", section 2, Reading Speed,
# https://backlothelp.netflix.com/hc/en-us/articles/219375728. Ofcom's 160-180 words per minute
# (BBC R&D, "How fast should subtitles be?", 2015) is the same pace: about 3 words a second.
READING_CPS = 17.0
# The hold after the last character: the same guide lets a subtitle stay up to 12 frames (0.5 s
# at 24 fps) past its speech for reading; here the picture holds that long after the reading time.
READING_HOLD = 0.5  # s
_FRAME_SLACK = 1e-3  # s: beat times are rounded to the millisecond


def reading_time(caption: str) -> float:
    """Seconds a viewer needs to read a caption at the subtitling pace, plus the hold."""
    return len(caption) / READING_CPS + READING_HOLD


def pace_problems(beats: list[dict]) -> list[str]:
    """Beats shorter than their caption's reading time, in words (empty if none)."""
    problems = []
    for i, b in enumerate(beats, 1):
        shown, needed = b["end"] - b["start"], reading_time(b["caption"])
        if shown < needed - _FRAME_SLACK:
            problems.append(f"beat {i} ({b['caption'][:40]}…): {len(b['caption'])} characters shown for "
                            f"{shown:.2f} s, {len(b['caption']) / shown:.1f} characters/s; reading them at "
                            f"{READING_CPS:g}/s plus a {READING_HOLD:g} s hold needs {needed:.2f} s")
    return problems


# --- beats that move ------------------------------------------------------------------
def _text_members(mobjects) -> set[int]:
    """ids of every mobject that is, or is inside, a text (a counter's digits included)."""
    ids, stack = set(), list(mobjects)
    while stack:
        m = stack.pop()
        if isinstance(m, _TEXT_TYPES):
            ids |= {id(f) for f in m.get_family()}
            continue
        stack.extend(m.submobjects)
    return ids


def _look(sub) -> tuple:
    """What a drawn piece looks like: its points and its colours."""
    return (hash(sub.points.round(3).tobytes()), hash(sub.get_fill_rgbas().round(3).tobytes()),
            hash(sub.get_stroke_rgbas().round(3).tobytes()), round(float(sub.get_stroke_width()), 3))


def drawing(mobjects) -> dict[int, tuple]:
    """The drawn pieces on screen that are not text: id -> how each looks."""
    text = _text_members(mobjects)
    out = {}
    for m in mobjects:
        for sub in m.family_members_with_points():
            if id(sub) not in text and isinstance(sub, VMobject) and _visible(sub):
                out[id(sub)] = _look(sub)
    return out


def shapes_changed(before: dict[int, tuple], after: dict[int, tuple]) -> bool:
    """A shape (not text) appeared or changed between two drawings (one only removed does not count)."""
    return any(before.get(k) != look for k, look in after.items())


def animates_shapes(animation) -> bool:
    """An animation that brings in or moves a drawn shape that is not text (removals do not count)."""
    parts = getattr(animation, "animations", None)
    if parts is not None:  # AnimationGroup, Succession, LaggedStart
        return any(animates_shapes(a) for a in parts)
    if getattr(animation, "remover", False):
        return False
    mob = getattr(animation, "mobject", None)  # `m.animate` builders carry theirs too
    return mob is not None and bool(drawing([mob]))


def card_problem(first: bool) -> str:
    if first:
        return "the first beat shows only text (a header): show the thing the scene is about"
    return "only text appears or changes (a text card): show the thing move, with its number on screen"


# --- text -------------------------------------------------------------------
def title(text: str, size: int = TITLE_SIZE) -> Text:
    return Text(text, font_size=size, weight="BOLD").to_edge(UP, buff=0.35)


def label(text: str, size: int = BODY_SIZE, color: str = INK) -> Text:
    return Text(text, font_size=size, color=color)


def markup(text: str, size: int = BODY_SIZE, color: str = INK) -> MarkupText:
    """Pango markup: <sub>, <sup>, <b>, <span foreground=…>; for equations too."""
    return MarkupText(text, font_size=size, color=color)


def counter(name: str, value: float = 0, decimals: int = 0, unit: str = "",
            color: str = INK, size: int = BODY_SIZE) -> VGroup:
    """A labelled number that can change every frame without re-running Pango.

    The DecimalNumber is element [1]: animate it with .animate.set_value()
    or an updater (far cheaper than rebuilding Text, which re-runs Pango, every frame).
    Name, number and unit share one font and one size from the scale
    (design/sizes.py); the number stands out by its ink colour, not its size.
    """
    name_t = Text(name, font_size=size, color=MUTED)
    num = DecimalNumber(value, num_decimal_places=decimals, font_size=size,
                        color=color, group_with_commas=True)
    parts = [name_t, num]
    if unit:
        parts.append(Text(unit, font_size=size, color=MUTED))
    group = VGroup(*parts).arrange(RIGHT, buff=0.15)
    num.add_updater(lambda m: m.next_to(name_t, RIGHT, buff=0.15))
    if unit:
        group[2].add_updater(lambda m: m.next_to(num, RIGHT, buff=0.12))
    return group















def value_bars(rows: list[tuple[str, float, str, str]], top: float, width: float = 6.0,
               size: int = SMALL_SIZE + 2, height: float = 0.38, buff: float = 0.28) -> VGroup:
    """A bar per (name, value, value as printed, colour) on one linear scale, `top` the full width:
    names in a right-aligned column, bars from one edge, each value printed after its bar.
    Each row is VGroup(name, bar, value); grow them with `grow_value_bars`."""
    if top <= 0:
        raise ValueError(f"value_bars: the scale's top must be positive, got {top!r}")
    out = VGroup()
    for name, value, shown, colour in rows:
        bar = Rectangle(width=max(width * value / top, 0.03), height=height, stroke_width=0,
                        fill_color=colour, fill_opacity=1)
        out.add(VGroup(Text(name, font_size=size, color=MUTED), bar, Text(shown, font_size=size, color=INK)))
    out.arrange(DOWN, buff=buff)
    edge = max(r[0].width for r in out) + 0.25
    for r in out:
        y = r.get_y()
        r[0].move_to([edge - 0.25 - r[0].width / 2, y, 0])
        r[1].move_to([edge + r[1].width / 2, y, 0])
        r[2].next_to(r[1], RIGHT, buff=0.15)
    return out


def grow_value_bars(rows: VGroup) -> list:
    """The animations that bring `value_bars` rows in: each bar grows from its edge to its value."""
    return [a for r in rows for a in (FadeIn(r[0]), GrowFromEdge(r[1], LEFT), FadeIn(r[2]))]


def legend(items: list[tuple[str, str]], size: int = SMALL_SIZE) -> VGroup:
    """Colour swatches with names, one row."""
    rows = [VGroup(Square(0.18, stroke_width=0, fill_color=c, fill_opacity=1),
                   Text(t, font_size=size, color=MUTED)).arrange(RIGHT, buff=0.12)
            for t, c in items]
    return VGroup(*rows).arrange(RIGHT, buff=0.4)


__all__ = [
    "ExhibitScene", "check_frame", "pace_problems", "reading_time", "READING_CPS", "READING_HOLD",
    "value_bars", "grow_value_bars", "title", "label", "markup", "counter", "legend",
    "BG", "INK", "MUTED", "PANEL", "FONT", "TITLE_SIZE", "BODY_SIZE", "SMALL_SIZE", "palette",
]
