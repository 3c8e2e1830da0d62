"""The presenter kit: per scene, what a speaker drops into a talk.

Per scene, tasks of the same build (pipeline/engine/: content-hash keys, the pool, the hit/render-and-why
lines, progress and ETA, the manifest, atomic commits):

- `media/hd/<id>`: the site's own hd render (`make release`), one render for three uses: the site's
  video, the kit's 1080p60 MP4 with its poster and WebVTT captions, and the deck's slides.
- `kit/deck/<id>`: no render. It cuts that hd MP4 at the beats' ends into one video per slide by stream
  copy (each beat ends on a keyframe: Manim encodes every play as its own partial movie, starting with
  a keyframe, and joins them by stream copy), then manim-slides' converters make the PPTX (one video per
  slide, notes = caption) and the offline HTML deck (pipeline/presenter/decks.py); and the SRT captions.
- `media/4k/<id>`: the site's media task at the `4k` preset (3840x2160, 60 fps), shared with a
  `build --preset 4k`.
- `kit/overlay/<id>`: a transparent render, VP9 with alpha in WebM, for a speaker's own slide
  background, encoded with the settings `OVERLAY_VP9` names (chosen by measurement: README).

Everything lands in build/presenter/<id>/ (the hd and 4k renders stay in build/media/<preset>/), recorded
in the manifest; pipeline/site/kit_site.py lists a scene's kit on its page and on the "For presenters"
page, and pipeline/presenter/release.py names the heavy files a GitHub Release attaches.
"""

from __future__ import annotations

import shutil
import tempfile
from pathlib import Path

from pipeline import paths
from pipeline.engine import atomic
from pipeline.jsonio import load_ref, to_json
from pipeline.presenter import decks, subrip

DECK_PRESET = "hd"  # the deck is cut from the site's hd render: 1080p60, what a projector shows
MASTER_PRESET = "4k"
OVERLAY_PRESET = "hd"  # the transparent overlay: 1080p60 too
# libvpx-vp9's settings for the overlay (README "Presenter kit": CPU against size, measured by
# tools/encoder_sweep.py). Manim's own leave FFmpeg's defaults: libvpx's slowest mode
# (deadline good, cpu-used 0) at its default bitrate. Every render encodes on one codec thread
# (scenes/style.py: reproducible), so row-based multithreading would change nothing.
OVERLAY_VP9 = {"deadline": "good", "cpu-used": "5", "crf": "32", "b": "0"}
# build/presenter/<id>/: the kit's folder, beside the renders that write it
PRESENTER = paths.BUILD / "presenter"


# --- where the kit's files go (the site hooks and macros read the same names) ------------
def folder(scene_id: str, root: Path | None = None) -> Path:
    return (root or PRESENTER) / scene_id


def deck_outputs(scene_id: str, root: Path | None = None) -> dict[str, Path]:
    """What the deck task writes. The 1080p60 MP4, its poster and WebVTT are the hd render's own files
    (`hd_outputs`)."""
    d = folder(scene_id, root)
    return {
        "srt": d / f"{scene_id}.srt",
        "pptx": d / f"{scene_id}-deck.pptx",
        "zip": d / f"{scene_id}-deck-html.zip",
        "html": d / f"{scene_id}-deck" / "index.html",
        "slides": d / f"{scene_id}.slides.json",
    }


def hd_outputs(scene_id: str, media: Path | None = None) -> dict[str, Path]:
    """The hd render's files the kit shares: the movie the deck is cut from, its poster, captions, beats."""
    d = (media or paths.MEDIA) / DECK_PRESET
    return {"mp4": d / f"{scene_id}.mp4", "poster": d / f"{scene_id}.png", "vtt": d / f"{scene_id}.vtt",
            "beats": d / f"{scene_id}.beats.json"}


def overlay_output(scene_id: str, root: Path | None = None) -> Path:
    return folder(scene_id, root) / f"{scene_id}-overlay.webm"


# --- rendering (in a worker) -------------------------------------------------------------
def _render(cls: type, scene_id: str, settings: dict, work: Path, writer: type | None = None, **extra):
    """Render `cls` with our config into `work` (`writer`: a SceneFileWriter class): (scene, its last frame)."""
    from manim import tempconfig

    config = {
        "verbosity": extra.pop("verbosity", "WARNING"),  # first: it must be in force as the others are set
        **settings,
        "media_dir": str(work),
        "output_file": scene_id,
        "format": "mp4",
        "write_to_movie": True,
        "save_last_frame": False,
        "disable_caching": True,  # our own content-hash cache sits above Manim's
        "progress_bar": "none",
        **extra,
    }
    with tempconfig(config):
        if writer is not None:
            from manim.renderer.cairo_renderer import CairoRenderer

            scene = cls(renderer=CairoRenderer(file_writer_class=writer))
        else:
            scene = cls()
        scene.render()
        frame = scene.renderer.get_frame()
    if not scene.beats:
        raise RuntimeError(f"{scene_id}: the scene marked no beats (call self.beat(caption))")
    return scene, frame


def _one(work: Path, pattern: str, what: str) -> Path:
    found = [p for p in work.rglob(pattern) if "partial_movie_files" not in p.parts]
    if len(found) != 1:
        raise RuntimeError(f"expected one {what} ({pattern}) from Manim, found {found}")
    return found[0]


def make_deck(scene_id: str, movie: Path, beats_json: Path, fps: int, out: Path, title: str) -> dict[Path, str]:
    """The hd render's movie cut at its beats' ends -> PPTX, HTML deck (folder and ZIP), SRT, slide record
    in `out`/<id>/. Hashes by path."""
    record = read_beats(beats_json)
    beats = record["beats"]
    targets = deck_outputs(scene_id, out)
    work_root = out.parent / "work"  # build/work for the build: swept by the next build if we die
    work_root.mkdir(parents=True, exist_ok=True)
    work = Path(tempfile.mkdtemp(prefix=f"{atomic.TMP_PREFIX}{scene_id}-deck-", dir=work_root))
    try:
        ends = [decks.frame_at(b["end"], fps, f"{shown(beats_json)}: beat {i} end")
                for i, b in enumerate(beats, 1)]
        videos = decks.cut(movie, ends, work / "slides", f"{scene_id}-slide")
        with av_open(movie) as c:
            width, height = c.streams.video[0].width, c.streams.video[0].height
        config = decks.config(videos, [b["caption"] for b in beats], decks.background(), (width, height))
        built = work / "deck"
        html_dir = built / f"{scene_id}-deck"
        decks.html(config, html_dir, title)
        decks.pptx(config, built / targets["pptx"].name, width, height)
        blobs = {
            targets["srt"]: subrip.srt(beats).encode(),
            targets["slides"]: to_json({"duration": record["duration"], "slides": len(videos),
                                        "frames": [0, *ends]}),
            targets["zip"]: decks.zip_folder(html_dir, f"{scene_id}-deck"),
        }
        moves = {targets["pptx"]: built / targets["pptx"].name}
        for p in sorted(q for q in html_dir.rglob("*") if q.is_file()):
            moves[targets["html"].parent / p.relative_to(html_dir)] = p
        for target in [*blobs, *moves]:
            target.parent.mkdir(parents=True, exist_ok=True)
        return atomic.commit(blobs, moves=moves)
    finally:
        shutil.rmtree(work, ignore_errors=True)


def shown(path: Path) -> str:
    """A path as an error names it: relative to the project when inside it."""
    try:
        return paths.rel(path)
    except ValueError:
        return str(path)


def read_beats(path: Path) -> dict:
    """The hd render's beats.json, checked: a clear error naming the file and the field, not a KeyError."""
    import json

    try:
        record = json.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise FileNotFoundError(f"{shown(path)}: missing: the deck is cut from the hd render "
                                "(make release S=<id>, or make slides S=<id>, renders it)") from None
    except ValueError as e:
        raise ValueError(f"{shown(path)}: not valid JSON ({e})") from None
    beats = record.get("beats") if isinstance(record, dict) else None
    if not isinstance(beats, list) or not beats or not all(
            isinstance(b, dict) and isinstance(b.get("end"), (int, float)) and isinstance(b.get("caption"), str)
            for b in beats):
        raise ValueError(f"{shown(path)}: 'beats': expected a non-empty list of {{start, end, caption}}")
    if not isinstance(record.get("duration"), (int, float)):
        raise ValueError(f"{shown(path)}: 'duration': expected seconds, found {record.get('duration')!r}")
    return record


def av_open(path: Path):
    import av

    return av.open(str(path))


def overlay_writer():
    """Manim's file writer with the overlay's VP9 settings (OVERLAY_VP9) on every partial movie."""
    from manim.scene.scene_file_writer import SceneFileWriter

    class OverlayWriter(SceneFileWriter):
        def open_partial_movie_stream(self, file_path=None) -> None:
            super().open_partial_movie_stream(file_path)
            # the codec opens at the first frame, so the options set here are the ones it opens with
            ctx = self._current_encode_job.stream.codec_context
            ctx.options = {**ctx.options, **OVERLAY_VP9}

    return OverlayWriter


def make_overlay(cls: type, scene_id: str, settings: dict, out: Path) -> dict[Path, str]:
    """A transparent render: VP9 with alpha (yuva420p) in WebM; the background is alpha 0."""
    target = overlay_output(scene_id, out)
    work_root = out.parent / "work"
    work_root.mkdir(parents=True, exist_ok=True)
    work = Path(tempfile.mkdtemp(prefix=f"{atomic.TMP_PREFIX}{scene_id}-overlay-", dir=work_root))
    try:
        # ERROR: Manim warns that WebM is slow and that it switched the format, both known here
        _render(cls, scene_id, settings, work, format="webm", transparent=True, verbosity="ERROR",
                writer=overlay_writer())
        movie = _one(work, f"{scene_id}.webm", "overlay")
        target.parent.mkdir(parents=True, exist_ok=True)
        return atomic.commit({}, moves={target: movie})
    finally:
        shutil.rmtree(work, ignore_errors=True)


def _scene_class(scene_ref: str, data_dir: Path | None):
    cls = load_ref(scene_ref)
    cls.data_dir = data_dir or paths.DATA
    return cls


def deck(scene_id: str, fps: int, title: str) -> dict[str, str]:
    """Worker entry (pipeline/stages/deck.py): the deck cut from build/media/hd/<id>.mp4."""
    hd = hd_outputs(scene_id)
    out = make_deck(scene_id, hd["mp4"], hd["beats"], fps, PRESENTER, title)
    return {paths.rel(p): h for p, h in out.items()}


def overlay(scene_id: str, scene_ref: str, settings: dict) -> dict[str, str]:
    """Worker entry (pipeline/stages/overlay.py)."""
    out = make_overlay(_scene_class(scene_ref, None), scene_id, settings, PRESENTER)
    return {paths.rel(p): h for p, h in out.items()}
