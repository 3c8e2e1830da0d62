"""manim-slides decks from ExhibitScene beats: one slide per beat, the caption as its notes.

The 25 scenes are plain `ExhibitScene`s. At render time `deck_class(cls)` mixes manim-slides'
`Slide` in and ends a slide at every beat boundary (the `end_of_beat` hook), so one render gives
both Manim's whole movie and manim-slides' per-slide videos: a slide's video is its beat's partial
movie files concatenated by stream copy (no second encode). manim-slides writes its JSON
(`PresentationConfig`), and its own converters make the PPTX and the reveal.js HTML deck from it.

Determinism: the PPTX and the zipped HTML deck are rewritten with fixed zip timestamps and fixed
document dates, so the same render gives the same bytes.
"""

from __future__ import annotations

import contextlib
import io
import shutil
import zipfile
from pathlib import Path

VENDOR = Path(__file__).resolve().parent / "vendor" / "reveal.js"
REVEAL_DIR = "reveal.js"  # the deck's local copy; the template loads {cdn_url}/dist/...
SLIDES_DIR = "slides"  # the deck's slide videos, beside index.html
FIXED_DATE = (1980, 1, 1, 0, 0, 0)  # the earliest date a zip can hold: no build time in a file


def deck_class(cls: type) -> type:
    """`cls` with manim-slides' Slide mixed in: a slide ends where each beat ends."""
    import logging

    from manim import ManimColor
    from manim_slides import Slide

    logging.getLogger("manim-slides").setLevel(logging.WARNING)  # its per-render INFO lines are noise here

    def end_of_beat(self) -> None:
        # the caption of the beat just ended becomes the notes of the slide it closes (below)
        self.next_slide()

    def _save_slides(self, *args, **kwargs):
        self._add_last_slide()
        if len(self._slides) != len(self.beats):
            raise RuntimeError(f"{self.scene_id}: {len(self._slides)} slides for {len(self.beats)} beats")
        for slide, beat in zip(self._slides, self.beats):
            slide.notes = beat["caption"]
        return Slide._save_slides(self, *args, **kwargs)

    @property
    def _background_color(self) -> str:
        # ExhibitScene sets the camera's background as a hex string; manim-slides expects a ManimColor
        return ManimColor(self.renderer.camera.background_color).to_hex()

    return type(f"{cls.__name__}Deck", (cls, Slide), {
        "end_of_beat": end_of_beat,
        "_save_slides": _save_slides,
        "_background_color": _background_color,
        # the HTML and PPTX decks play forwards only: no reversed copies (they cost a decode and encode)
        "skip_reversing": True,
        "__module__": cls.__module__,
    })


def presentation(json_path: Path):
    from manim_slides.config import PresentationConfig

    return PresentationConfig.from_file(json_path)


def pptx(config, dest: Path, width: int, height: int) -> None:
    """One slide per beat, its video auto-playing full-frame, the caption in the notes."""
    from manim_slides.convert import PowerPoint

    # its tqdm bar would garble the build's progress lines
    with contextlib.redirect_stderr(io.StringIO()):
        PowerPoint(presentation_configs=[config], width=width, height=height).convert_to(dest)
    _fix_pptx_dates(dest)
    normalise_zip(dest)


def _fix_pptx_dates(path: Path) -> None:
    import datetime

    import pptx as python_pptx

    prs = python_pptx.Presentation(str(path))
    fixed = datetime.datetime(*FIXED_DATE)
    prs.core_properties.created = fixed
    prs.core_properties.modified = fixed
    prs.core_properties.last_printed = fixed
    prs.save(str(path))


def normalise_zip(path: Path) -> None:
    """Rewrite a zip with entries in name order and fixed dates: same content, same bytes."""
    with zipfile.ZipFile(path) as z:
        entries = [(i.filename, z.read(i), i.compress_type) for i in z.infolist()]
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w") as out:
        for name, data, compress in sorted(entries):
            info = zipfile.ZipInfo(name, FIXED_DATE)
            info.compress_type = compress
            info.external_attr = 0o644 << 16
            out.writestr(info, data)
    path.write_bytes(buf.getvalue())


def html(config, folder: Path, title: str) -> None:
    """An offline reveal.js deck in `folder`: index.html, slides/, reveal.js/ (vendored, MIT).

    manim-slides' template loads reveal.js from a CDN by default; `cdn_url` points it at the deck's
    own copy instead, so the folder works from a USB stick with no network.
    """
    from manim_slides.convert import RevealJS

    folder.mkdir(parents=True, exist_ok=True)
    RevealJS(presentation_configs=[config], cdn_url=REVEAL_DIR, assets_dir=SLIDES_DIR, title=title,
             background_color=config.background_color).convert_to(folder / "index.html")
    index = folder / "index.html"
    # no favicon request: served over http a browser asks the host for /favicon.ico and logs a 404
    index.write_text(index.read_text(encoding="utf-8").replace(
        '<meta charset="utf-8">', '<meta charset="utf-8">\n    <link rel="icon" href="data:,">', 1), encoding="utf-8")
    shutil.copytree(VENDOR, folder / REVEAL_DIR, ignore=shutil.ignore_patterns("README.md"),
                    dirs_exist_ok=True)


def zip_folder(folder: Path, top: str) -> bytes:
    """The folder as a zip with one top-level folder `top`; videos stored, text deflated."""
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w") as z:
        for p in sorted(q for q in folder.rglob("*") if q.is_file()):
            info = zipfile.ZipInfo(f"{top}/{p.relative_to(folder).as_posix()}", FIXED_DATE)
            info.compress_type = zipfile.ZIP_STORED if p.suffix == ".mp4" else zipfile.ZIP_DEFLATED
            info.external_attr = 0o644 << 16
            z.writestr(info, p.read_bytes())
    return buf.getvalue()
