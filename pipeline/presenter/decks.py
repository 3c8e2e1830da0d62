"""manim-slides decks from a scene's hd render: one slide per beat, the caption as its notes.

The deck is not rendered again: `cut` splits the hd render's MP4 (build/media/hd/<id>.mp4, the site's
own video) at each beat's end by stream copy, one video per slide. That is exact and costs no encode:
every beat ends at the end of a Manim play, Manim encodes each play as its own partial movie that
starts on a keyframe and joins them by stream copy, so each beat's end is a keyframe of the whole
movie, at frame round(end x fps) (the renderer's clock counts whole frames). `cut` checks both.
`config` makes manim-slides' `PresentationConfig` from the slide videos and captions, and its own
converters make the PPTX and the reveal.js HTML deck from it.

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


def frame_at(seconds: float, fps: int, what: str) -> int:
    """A beat boundary as a frame number. beats.json keeps times to the millisecond: at up to 500 fps
    that is within a quarter frame of a whole frame; anything else is not a boundary Manim wrote."""
    frame = round(seconds * fps)
    if abs(seconds * fps - frame) > 0.25 + 1e-9:
        raise ValueError(f"{what}: {seconds} s is not a whole frame at {fps} fps")
    return frame


def cut(movie: Path, ends: list[int], folder: Path, stem: str) -> list[Path]:
    """`movie` cut into one video per slide, slide k holding frames [ends[k-1], ends[k]) (from 0), by
    stream copy. Each cut must fall on a keyframe and the last end on the movie's last frame; a
    movie that does not is refused with the frame and the file named (it was not Manim's, or not the
    render these beats came from)."""
    import av

    folder.mkdir(parents=True, exist_ok=True)
    with av.open(str(movie)) as src:
        stream = src.streams.video[0]
        packets = [p for p in src.demux(stream) if p.size]
        if len(packets) != ends[-1]:
            raise ValueError(f"{movie}: {len(packets)} frames, but its beats end at frame {ends[-1]}: "
                             "the movie and its beats.json are not one render")
        # decode order: each partial movie's packets come together, so the first `end` packets are
        # exactly its first `end` frames; the packet that starts a slide must be a keyframe at that frame
        by_time = sorted(range(len(packets)), key=lambda i: packets[i].pts)
        out, start = [], 0
        for k, end in enumerate(ends, 1):
            if end <= start:
                raise ValueError(f"{movie}: slide {k} would be empty (frames {start} to {end})")
            first = packets[start]
            # closed: the frames shown before this one are exactly the packets before it
            if not first.is_keyframe or set(by_time[:start]) != set(range(start)):
                raise ValueError(f"{movie}: frame {start} (slide {k}'s first) is not a keyframe starting a "
                                 "closed group of frames; the slide cannot be cut by stream copy")
            path = folder / f"{stem}-{k:02d}.mp4"
            _remux(packets[start:end], stream, path)
            out.append(path)
            start = end
    return out


def _remux(packets: list, template, path: Path) -> None:
    """`packets` into their own MP4, timestamps shifted to start at zero."""
    import av

    offset = packets[0].pts
    with av.open(str(path), mode="w") as dst:
        dst.flags |= av.container.Flags.bitexact.value  # no muxer version or random id: same cut, same bytes
        stream = dst.add_stream_from_template(template)
        stream.time_base = template.time_base
        for p in packets:
            p.pts -= offset
            if p.dts is not None:
                p.dts -= offset
            p.stream = stream
            dst.mux(p)


def background() -> str:
    """The scenes' background colour (scenes/style.py draws on it): the deck's, around each video."""
    from design import palette

    return palette.VIDEO["bg"]


def config(videos: list[Path], notes: list[str], background_color: str, resolution: tuple[int, int]):
    """manim-slides' PresentationConfig: one slide per video, its notes the beat's caption; played
    forwards only (no reversed copy: the PPTX and HTML decks never play one)."""
    from manim_slides.config import PresentationConfig, SlideConfig

    if len(videos) != len(notes):
        raise ValueError(f"{len(videos)} slide videos for {len(notes)} captions")
    return PresentationConfig(slides=[SlideConfig(file=v, rev_file=v, notes=n) for v, n in zip(videos, notes)],
                              resolution=resolution, background_color=background_color)


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
