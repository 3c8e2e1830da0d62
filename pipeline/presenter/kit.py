"""The presenter kit: per scene, what a speaker drops into a talk.

Three tasks per scene, tasks of the same build (pipeline/engine/: content-hash keys, the pool,
the hit/render-and-why lines, progress and ETA, the manifest, atomic commits):

- `kit/deck/<id>`: ONE render at the hd preset with manim-slides' Slide mixed in
  (pipeline/presenter/decks.py) gives the 1080p60 MP4, the full-resolution poster PNG, the WebVTT and SRT
  captions, and the slide videos (stream copies of the same frames) from which manim-slides
  makes the PPTX (one video per slide, notes = caption) and the offline HTML deck.
  It is a separate render from the site's `media/hd/<id>` (make release): folding the deck into
  that task would change the key of every media task and re-render every published video.
- `media/4k/<id>`: the site's own media task at the `4k` preset (3840x2160, 60 fps), unchanged,
  so a `build --preset 4k` and the kit share it.
- `kit/overlay/<id>`: a transparent render, VP9 with alpha in WebM, for a speaker's own slide
  background.

Everything lands in build/presenter/<id>/ (the 4k master stays in build/media/4k/), recorded in the
manifest; pipeline/kit_site.py lists a scene's kit on its page and on the "For presenters" page.
"""

from __future__ import annotations

import shutil
import tempfile
from pathlib import Path

from pipeline import paths
from pipeline.engine import atomic
from pipeline.jsonio import load_ref, to_json
from pipeline.presenter import decks, subrip
from pipeline.workers import captions

DECK_PRESET = "hd"  # the deck, its MP4 and poster: 1080p60, what a projector shows
MASTER_PRESET = "4k"
OVERLAY_PRESET = "hd"  # the transparent overlay: 1080p60 too
# build/presenter/<id>/: the kit's folder, beside the renders that write it
PRESENTER = paths.BUILD / "presenter"


# --- where the kit's files go (the site hooks and macros read the same names) ------------
def folder(scene_id: str, root: Path | None = None) -> Path:
    return (root or PRESENTER) / scene_id


def deck_outputs(scene_id: str, root: Path | None = None) -> dict[str, Path]:
    d = folder(scene_id, root)
    return {
        "mp4": d / f"{scene_id}-1080p60.mp4",
        "poster": d / f"{scene_id}-poster.png",
        "vtt": d / f"{scene_id}.vtt",
        "srt": d / f"{scene_id}.srt",
        "pptx": d / f"{scene_id}-deck.pptx",
        "zip": d / f"{scene_id}-deck-html.zip",
        "html": d / f"{scene_id}-deck" / "index.html",
        "beats": d / f"{scene_id}.beats.json",
    }


def overlay_output(scene_id: str, root: Path | None = None) -> Path:
    return folder(scene_id, root) / f"{scene_id}-overlay.webm"


# --- rendering (in a worker) -------------------------------------------------------------
def _render(cls: type, scene_id: str, settings: dict, work: Path, **extra):
    """Render `cls` with our config into `work`: (scene, its last frame)."""
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
        scene = cls(**({"output_folder": work / "slides"} if hasattr(cls, "next_slide") else {}))
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


def make_deck(cls: type, scene_id: str, settings: dict, out: Path, title: str) -> dict[Path, str]:
    """One hd render -> MP4, poster, captions, PPTX and HTML deck in `out`/<id>/. Hashes by path."""
    from PIL import Image

    from pipeline.workers.media import image_bytes

    targets = deck_outputs(scene_id, out)
    work_root = out.parent / "work"  # build/work for the build: swept by the next build if we die
    work_root.mkdir(parents=True, exist_ok=True)
    work = Path(tempfile.mkdtemp(prefix=f"{atomic.TMP_PREFIX}{scene_id}-deck-", dir=work_root))
    try:
        scene, frame = _render(decks.deck_class(cls), scene_id, settings, work)
        beats = scene.timed_beats()
        duration = round(scene.renderer.time, 3)
        movie = _one(work, f"{scene_id}.mp4", "movie")
        config = decks.presentation(_one(work / "slides", "*.json", "slide config"))
        if len(config.slides) != len(beats):
            raise RuntimeError(f"{scene_id}: the deck has {len(config.slides)} slides for {len(beats)} beats")

        built = work / "deck"
        html_dir = built / f"{scene_id}-deck"
        decks.html(config, html_dir, title)
        decks.pptx(config, built / targets["pptx"].name, settings["pixel_width"], settings["pixel_height"])
        last = Image.fromarray(frame).convert("RGB")
        blobs = {
            targets["poster"]: image_bytes(last, "PNG", optimize=True),
            targets["vtt"]: captions.webvtt(beats).encode(),
            targets["srt"]: subrip.srt(beats).encode(),
            targets["beats"]: to_json({"duration": duration, "beats": beats, "slides": len(config.slides)}),
            targets["zip"]: decks.zip_folder(html_dir, f"{scene_id}-deck"),
        }
        moves = {targets["mp4"]: movie, targets["pptx"]: built / targets["pptx"].name}
        for p in sorted(q for q in html_dir.rglob("*") if q.is_file()):
            moves[targets["html"].parent / p.relative_to(html_dir)] = p
        for target in [*blobs, *moves]:
            target.parent.mkdir(parents=True, exist_ok=True)
        return atomic.commit(blobs, moves=moves)
    finally:
        shutil.rmtree(work, ignore_errors=True)


def make_overlay(cls: type, scene_id: str, settings: dict, out: Path) -> dict[Path, str]:
    """A transparent render: VP9 with alpha (yuva420p) in WebM; the background is alpha 0."""
    target = overlay_output(scene_id, out)
    work_root = out.parent / "work"
    work_root.mkdir(parents=True, exist_ok=True)
    work = Path(tempfile.mkdtemp(prefix=f"{atomic.TMP_PREFIX}{scene_id}-overlay-", dir=work_root))
    try:
        # ERROR: Manim warns that WebM is slow and that it switched the format, both known here
        _render(cls, scene_id, settings, work, format="webm", transparent=True, verbosity="ERROR")
        movie = _one(work, f"{scene_id}.webm", "overlay")
        target.parent.mkdir(parents=True, exist_ok=True)
        return atomic.commit({}, moves={target: movie})
    finally:
        shutil.rmtree(work, ignore_errors=True)


def _scene_class(scene_ref: str, data_dir: Path | None):
    cls = load_ref(scene_ref)
    cls.data_dir = data_dir or paths.DATA
    return cls


def deck(scene_id: str, scene_ref: str, settings: dict, title: str) -> dict[str, str]:
    """Worker entry (pipeline/stages/deck.py)."""
    out = make_deck(_scene_class(scene_ref, None), scene_id, settings, PRESENTER, title)
    return {paths.rel(p): h for p, h in out.items()}


def overlay(scene_id: str, scene_ref: str, settings: dict) -> dict[str, str]:
    """Worker entry (pipeline/stages/overlay.py)."""
    out = make_overlay(_scene_class(scene_ref, None), scene_id, settings, PRESENTER)
    return {paths.rel(p): h for p, h in out.items()}
