"""The presenter kit: per scene, what a speaker drops into a talk.

Per scene, tasks of the same build (pipeline/engine/: content-hash keys, the pool, the hit/render-and-why
lines, progress and ETA, the manifest, atomic commits):

- `media/hd/<id>`: the site's own hd render (`make release`), one render for three uses: the site's
  video, the kit's 1080p60 MP4 with its poster and WebVTT captions, and the deck's slides.
- `kit/deck/<id>`: no render (pipeline/presenter/deck.py, its own module so that an edit there never
  re-keys an overlay). It cuts that hd MP4 at the beats' ends into one video per slide by stream copy
  (each beat ends on a keyframe: Manim encodes every play as its own partial movie, starting with a
  keyframe, and joins them by stream copy), then manim-slides' converters make the PPTX (one video per
  slide, notes = caption) and the zipped offline HTML deck (pipeline/presenter/decks.py); and the SRT.
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
from pipeline.jsonio import load_ref

DECK_PRESET = "hd"  # the deck is cut from the site's hd render: 1080p60, what a projector shows
MASTER_PRESET = "4k"
OVERLAY_PRESET = "hd"  # the transparent overlay: 1080p60 too
# libvpx-vp9's settings for the overlay (README "Presenter kit": CPU against size, measured by
# tools/encoder_sweep.py). Manim's own leave FFmpeg's defaults: libvpx's slowest mode
# (deadline good, cpu-used 0) at its default bitrate. Every render encodes on one codec thread
# (scenes/style.py: reproducible), so row-based multithreading would change nothing.
OVERLAY_VP9 = {"deadline": "realtime", "cpu-used": "6", "crf": "32", "b": "0"}
# build/presenter/<id>/: the kit's folder, beside the renders that write it
PRESENTER = paths.BUILD / "presenter"


# --- where the kit's files go (the site hooks and macros read the same names) ------------
def folder(scene_id: str, root: Path | None = None) -> Path:
    return (root or PRESENTER) / scene_id


def deck_outputs(scene_id: str, root: Path | None = None) -> dict[str, Path]:
    """What the deck task writes. The 1080p60 MP4, its poster and WebVTT are the hd render's own files
    (`hd_outputs`); the HTML deck is only the ZIP (its folder, `<id>-deck/`, is what it unzips to)."""
    d = folder(scene_id, root)
    return {
        "srt": d / f"{scene_id}.srt",
        "pptx": d / f"{scene_id}-deck.pptx",
        "zip": d / f"{scene_id}-deck-html.zip",
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
    """Render `cls` with our config into `work` (`writer`: a SceneFileWriter class): the scene."""
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
    if not scene.beats:
        raise RuntimeError(f"{scene_id}: the scene marked no beats (call self.beat(caption))")
    return scene


def _one(work: Path, pattern: str, what: str) -> Path:
    found = [p for p in work.rglob(pattern) if "partial_movie_files" not in p.parts]
    if len(found) != 1:
        raise RuntimeError(f"expected one {what} ({pattern}) from Manim, found {found}")
    return found[0]


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


def overlay(scene_id: str, scene_ref: str, settings: dict) -> dict[str, str]:
    """Worker entry (pipeline/stages/overlay.py)."""
    out = make_overlay(_scene_class(scene_ref, None), scene_id, settings, PRESENTER)
    return {paths.rel(p): h for p, h in out.items()}
