"""The presenter kit's deck task: the site's hd render cut into one video per slide, then the PPTX, the
zipped offline HTML deck, the SRT and a record of the cut, in build/presenter/<id>/ (README "Presenter
kit"). No render: pipeline/stages/deck.py plans it after `media/hd/<id>`.

Its own module, not kit.py's: the overlay's worker is kit.py, and a task's key covers its worker's
imports, so the deck's code (decks.py, subrip.py, python-pptx) stays out of the overlay's key.
"""

from __future__ import annotations

import json
import shutil
import tempfile
from pathlib import Path

from pipeline import paths
from pipeline.engine import atomic
from pipeline.jsonio import to_json
from pipeline.presenter import decks, kit, subrip


def make_deck(scene_id: str, movie: Path, beats_json: Path, out: Path, title: str) -> dict[Path, str]:
    """The hd render's movie cut at its beats' ends -> PPTX, zipped HTML deck, SRT, slide record in
    `out`/<id>/. Hashes by path."""
    record = read_beats(beats_json)
    beats = record["beats"]
    targets = kit.deck_outputs(scene_id, out)
    work_root = out.parent / "work"  # build/work for the build: swept by the next build if we die
    work_root.mkdir(parents=True, exist_ok=True)
    work = Path(tempfile.mkdtemp(prefix=f"{atomic.TMP_PREFIX}{scene_id}-deck-", dir=work_root))
    try:
        with av_open(movie) as c:
            video = c.streams.video[0]
            # the stream's own rate (base_rate), not frames over duration (average_rate, a fraction)
            width, height, fps = video.width, video.height, video.base_rate
        if fps is None or fps.denominator != 1:
            raise ValueError(f"{shown(movie)}: frame rate {fps}: expected a whole number of frames per second")
        fps = int(fps)  # the movie's own: the beats were timed by the render that wrote it
        ends = [decks.frame_at(b["end"], fps, f"{shown(beats_json)}: beat {i} end")
                for i, b in enumerate(beats, 1)]
        videos = decks.cut(movie, ends, work / "slides", f"{scene_id}-slide")
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


def deck(scene_id: str, title: str) -> dict[str, str]:
    """Worker entry (pipeline/stages/deck.py): the deck cut from build/media/hd/<id>.mp4."""
    hd = kit.hd_outputs(scene_id)
    out = make_deck(scene_id, hd["mp4"], hd["beats"], kit.PRESENTER, title)
    return {paths.rel(p): h for p, h in out.items()}
