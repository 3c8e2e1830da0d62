"""The three kinds of work, each run in a worker process.

compute: model -> build/data/<id>.json (+ .csv of its table)
figures: data -> build/figures/<id>-<name>-{light,dark}.svg
media:   data -> build/media/<preset>/<id>.{mp4,png,vtt,beats.json}

Each function returns {relative output path: sha256}; every file goes
through pipeline.atomic, so an interrupted task leaves nothing a later build
or the site would use. Exceptions propagate to the pool and are reported by
the build with their traceback.
"""

from __future__ import annotations

import csv
import importlib
import io
import json
import shutil
import tempfile
from pathlib import Path

from pipeline import atomic, captions, paths
from pipeline.hashing import sha256


def _load(ref: str):
    module, _, name = ref.partition(":")
    return getattr(importlib.import_module(module), name)


def to_json(obj) -> bytes:
    """Stable JSON: sorted keys, numpy converted, a trailing newline."""

    def default(o):
        if hasattr(o, "tolist"):  # numpy arrays and scalars
            return o.tolist()
        raise TypeError(f"not JSON-serialisable: {type(o).__name__}")

    return (json.dumps(obj, sort_keys=True, indent=1, default=default, allow_nan=False) + "\n").encode()


def table_csv(table: dict) -> bytes:
    buf = io.StringIO()
    w = csv.writer(buf, lineterminator="\n")
    w.writerow([f"{c['name']} ({c['unit']})" if c["unit"] not in ("text", "count", "1") else c["name"]
                for c in table["columns"]])
    w.writerows(table["rows"])
    return buf.getvalue().encode()


def check_table(scene_id: str, data: dict) -> None:
    """The page and the CSV download both need the model's table contract."""
    where = f"{scene_id}: model output"
    table = data.get("table")
    if not isinstance(table, dict) or not {"caption", "columns", "rows"} <= set(table):
        raise ValueError(f"{where}: 'table' must be a dict with caption, columns and rows")
    units = {"B", "s", "B/s", "1", "%", "count", "text"}
    for c in table["columns"]:
        if c.get("unit") not in units:
            raise ValueError(f"{where}: table column {c.get('name')!r}: unit must be one of {sorted(units)}")
    for r in table["rows"]:
        if len(r) != len(table["columns"]):
            raise ValueError(f"{where}: table row {r!r} has {len(r)} cells, expected {len(table['columns'])}")


def compute(scene_id: str, model_ref: str, params: dict) -> dict[str, str]:
    result = _load(model_ref)(**params)
    if not isinstance(result, dict):
        raise TypeError(f"{model_ref} returned {type(result).__name__}, expected a dict")
    data = {"scene": scene_id, "params": params, **result}
    blob = to_json(data)  # also proves it is serialisable before anything is written
    data = json.loads(blob)
    check_table(scene_id, data)
    out = {}
    for path, content in ((paths.data_json(scene_id), blob),
                          (paths.data_csv(scene_id), table_csv(data["table"]))):
        atomic.write_bytes(path, content)
        out[paths.rel(path)] = sha256(content)
    return out


def figures(scene_id: str, figure_specs: list[tuple[str, str]]) -> dict[str, str]:
    from figures.theme import THEMES, svg_bytes, themed

    data = json.loads(paths.data_json(scene_id).read_text(encoding="utf-8"))
    out = {}
    for name, ref in figure_specs:
        draw = _load(ref)
        for theme in THEMES:
            with themed(theme):
                blob = svg_bytes(draw(data, theme))
            path = paths.figure_svg(scene_id, name, theme)
            atomic.write_bytes(path, blob)
            out[paths.rel(path)] = sha256(blob)
    return out


def resized(img, width: int):
    from PIL import Image

    if img.width <= width:
        return img
    return img.resize((width, round(img.height * width / img.width)), Image.Resampling.LANCZOS)


def image_bytes(img, fmt: str, **options) -> bytes:
    buf = io.BytesIO()
    img.save(buf, format=fmt, **options)
    return buf.getvalue()


def media(scene_id: str, scene_ref: str, preset: str, settings: dict) -> dict[str, str]:
    """Render the animation, its poster (last frame), caption track and beats."""
    from manim import tempconfig
    from PIL import Image

    cls = _load(scene_ref)
    cls.data_dir = paths.DATA
    paths.WORK.mkdir(parents=True, exist_ok=True)
    work = Path(tempfile.mkdtemp(prefix=f"{atomic.TMP_PREFIX}{scene_id}-{preset}-", dir=paths.WORK))
    try:
        config = {
            **settings,
            "media_dir": str(work),
            "output_file": scene_id,
            "format": "mp4",
            "write_to_movie": True,
            "save_last_frame": False,
            "disable_caching": True,  # our cache sits above Manim's (DESIGN.md)
            "progress_bar": "none",
            "verbosity": "WARNING",
        }
        with tempconfig(config):
            scene = cls()
            scene.render()
            frame = scene.renderer.get_frame()
            beats = scene.timed_beats()
            duration = round(scene.renderer.time, 3)
        videos = list(work.rglob(f"{scene_id}.mp4"))
        if len(videos) != 1:
            raise RuntimeError(f"{scene_ref}: expected one {scene_id}.mp4 from Manim, found {videos}")
        if not beats:
            raise RuntimeError(f"{scene_ref}: the scene marked no beats (call self.beat(caption))")

        last = Image.fromarray(frame).convert("RGB")
        outputs = {
            paths.poster(scene_id, preset): image_bytes(last, "PNG", optimize=True),
            paths.poster_web(scene_id, preset): image_bytes(resized(last, 1280), "WEBP", quality=82),
            paths.card(scene_id, preset): image_bytes(resized(last, 427), "WEBP", quality=80),
            paths.captions(scene_id, preset): captions.webvtt(beats).encode(),
            paths.beats(scene_id, preset): to_json({"duration": duration, "beats": beats}),
        }
        out = {}
        # the video last: a poster or captions never point at an older video
        for path, blob in outputs.items():
            atomic.write_bytes(path, blob)
            out[paths.rel(path)] = sha256(blob)
        vid = paths.video(scene_id, preset)
        atomic.move_into_place(videos[0], vid)
        out[paths.rel(vid)] = sha256(vid.read_bytes())
        return out
    finally:
        shutil.rmtree(work, ignore_errors=True)
