"""Explore panels, run in a worker: model over a grid -> build/explore/<id>.json.

One scene per module has a panel (its catalogue entry's `explore:`, Scene.explore). Its declaration
(figures/explore.py: Panel, Slider, Probe, Readout) sits next to the figure it drives. At build time this stage

1. runs the scene's model once per stop of its `Slider`s (the catalogue's parameters with the
   slider's value swapped in), collecting instead of raising the page's worded claims that do not
   hold at a stop (models/exhibit.py: claims_collected): the panel shows numbers, not the page's
   sentences, and names the sentences that fail at that setting, so no stop is left out;
2. draws the figure once per stop, inside the frame of the page's own figure (same size, same
   axes limits, same tight bounding box), with only the tagged artists visible (fast), and takes
   from that SVG the tagged elements' path data, marker positions and glyph runs;
3. formats every readout in Python (models/units.py), for every cell of the grid;
4. writes one JSON atomically. The browser (docs/assets/explore.js) only looks values up.

The JSON (version 1):
  sliders   [{id, label, unit, stops: [text], keys: [url key], default: index}]
  readouts  [label]
  cells     nested lists, one level per slider: {v: [readout text], f: frame index,
            m: {mark tag: [x, y]}, c: [claim index]}
  frames    [{tag: {d: [...], xy: [[x, y]], text: [[transform, [[glyph id, transform]]]],
              hidden: true}}]
  glyphs    {glyph id: [d, transform]}: every glyph a swapped text may use
  claims    [the page's sentences that fail somewhere on the grid]
"""

from __future__ import annotations

import io
import itertools
import json
import math
import re
import xml.etree.ElementTree as ET
from pathlib import Path

from pipeline import paths
from pipeline.engine import atomic
from pipeline.jsonio import load_ref, to_json
from pipeline.workers.compute import ModelError

VERSION = 1
# build/explore/: the panels' folder, beside the one worker that writes it (the page macros read it
# from here); pipeline/paths.py names what every stage shares
EXPLORE = paths.BUILD / "explore"
SVG = "{http://www.w3.org/2000/svg}"
XLINK = "{http://www.w3.org/1999/xlink}href"
MARKS = "all-"  # tag prefix of the build's own artists holding every probe position of a mark
DECIMALS = 2  # SVG user units are points: 0.01 pt is far below a pixel
_NUMBER = re.compile(r"-?\d+\.\d+")


class ExploreError(ModelError):
    """A panel that cannot be built: scene, panel and what is wrong, in one line."""


def explore_json(scene_id: str) -> Path:
    return EXPLORE / f"{scene_id}.json"


def _short(text: str) -> str:
    """Coordinates rounded to DECIMALS, whitespace collapsed: the JSON stays small."""
    def rnd(m):
        v = f"{round(float(m.group()), DECIMALS):.{DECIMALS}f}".rstrip("0").rstrip(".")
        return "0" if v == "-0" else v
    return re.sub(r"\s+", " ", _NUMBER.sub(rnd, text)).strip()


def _key(x: float) -> str:
    return f"{x:.4g}"


# --- the grid -----------------------------------------------------------------------
def check_panel(scene_id: str, panel, figure_names: list[str]) -> None:
    from figures.explore import MAX_SLIDERS, MAX_STOPS, Probe, Slider

    where = f"{scene_id}: explore panel"
    if panel.figure not in figure_names:
        raise ExploreError(f"{where}: figure {panel.figure!r} is not one of the scene's figures {figure_names}")
    if not 1 <= len(panel.sliders) <= MAX_SLIDERS:
        raise ExploreError(f"{where}: {len(panel.sliders)} sliders, expected 1 to {MAX_SLIDERS}")
    if sum(isinstance(s, Probe) for s in panel.sliders) > 1:
        raise ExploreError(f"{where}: at most one Probe slider")
    for s in panel.sliders:
        if isinstance(s, Slider) and not 2 <= len(s.stops) <= MAX_STOPS:
            raise ExploreError(f"{where}: slider {s.param!r} has {len(s.stops)} stops, expected 2 to {MAX_STOPS}")


def _default_index(scene_id: str, slider, params: dict) -> int:
    value = params[slider.param]
    for i, x in enumerate(slider.stops):
        if math.isclose(x, value, rel_tol=1e-9):
            return i
    raise ExploreError(f"{scene_id}: explore slider {slider.param!r}: the catalogue's value {value!r} "
                       f"is not one of its stops {list(slider.stops)}: the panel must open at the page's setting")


def _run(scene_id: str, model_ref: str, params: dict, changed: dict) -> tuple[dict, list[str]]:
    from models.exhibit import claims_collected
    from pipeline.workers.compute import run_model

    p = dict(params)
    for name, value in changed.items():
        p[name] = int(value) if isinstance(params[name], int) and not isinstance(params[name], bool) else value
    with claims_collected() as broken:
        try:
            out = run_model(scene_id, model_ref, p)
        except ModelError as e:
            raise ExploreError(f"{e} (explore stop {changed})") from None
    return json.loads(to_json(out)), list(dict.fromkeys(broken))


# --- the figure ---------------------------------------------------------------------
class _Frame:
    """The page figure's frame: its axes limits and tight bounding box, taken from one full drawing."""

    def __init__(self, draw, out: dict):
        from figures.theme import svg_bytes, themed

        with themed("light"):
            fig = draw(out, "light")
            self.limits = [(ax.get_xlim(), ax.get_ylim()) for ax in fig.axes]
            boxes = []
            original = fig.get_tightbbox

            def capture(*a, **k):
                boxes.append(original(*a, **k))
                return boxes[-1]

            fig.get_tightbbox = capture
            self.page_svg = svg_bytes(fig)  # what the page shows (workers/figures.py does the same)
        self.bbox = boxes[-1]
        # where the drawing put the titles: matplotlib places them above the tick labels, which the
        # stripped drawings leave out
        self.title_y = [[t.get_position()[1] for t in _titles(ax)] for ax in fig.axes]


def _titles(ax) -> list:
    return [ax.title, ax._left_title, ax._right_title]


def _stripped_svg(fig, frame: _Frame) -> bytes:
    """The figure in the page figure's frame with only tagged artists drawn: fast, same coordinates."""
    import matplotlib.pyplot as plt
    from matplotlib.text import Text

    from figures.explore import PREFIX

    for ax, (xl, yl), title_y in zip(fig.axes, frame.limits, frame.title_y, strict=True):
        ax.set_xlim(xl)
        ax.set_ylim(yl)
        ax._autotitlepos = False  # as set_title(y=...) does: keep the page figure's title height
        for t, y in zip(_titles(ax), title_y, strict=True):
            t.set_y(y)
        ax.xaxis.set_visible(False)
        ax.yaxis.set_visible(False)
    # text is what costs (glyphs as paths): only tagged text is drawn. Legends never change.
    # (fig.findobj would build every minor tick: slower than the drawing itself.)
    texts = list(fig.texts)
    for ax in fig.axes:
        texts += [*ax.texts, *_titles(ax)]
    for legend in [*fig.legends, *[ax.get_legend() for ax in fig.axes if ax.get_legend()]]:
        legend.set_visible(False)
    for t in texts:
        if isinstance(t, Text) and not (t.get_gid() or "").startswith(PREFIX):
            t.set_visible(False)
    fig.get_tightbbox = lambda *a, **k: frame.bbox
    buf = io.BytesIO()
    fig.savefig(buf, format="svg", bbox_inches="tight", metadata={"Date": None, "Creator": None})
    plt.close(fig)
    return buf.getvalue()


def tagged(svg: bytes) -> tuple[dict[str, dict], dict[str, list[str]]]:
    """{tag: geometry} of every tagged element of an SVG, and the glyphs their texts use."""
    from figures.explore import PREFIX

    root = ET.fromstring(svg)
    glyphs = {}
    for path in root.iter(f"{SVG}path"):
        if path.get("id", "").startswith(("Inter-", "DejaVu", "STIX")):
            glyphs[path.get("id")] = [_short(path.get("d", "")), path.get("transform", "")]
    out: dict[str, dict] = {}
    for g in root.iter(f"{SVG}g"):
        gid = g.get("id", "")
        if not gid.startswith(PREFIX):
            continue
        defs = {id(e) for d in g.iter(f"{SVG}defs") for e in d.iter()}
        geo: dict[str, list] = {"d": [], "xy": [], "text": []}
        for e in g.iter():
            if id(e) in defs:
                continue
            if e.tag == f"{SVG}path":
                geo["d"].append(_short(e.get("d", "")))
            elif e.tag == f"{SVG}use" and e.get("x") is not None:
                geo["xy"].append([_short(e.get("x")), _short(e.get("y"))])
            elif e.tag == f"{SVG}g" and e.get("transform") and e.find(f"{SVG}use") is not None:
                run = [[u.get(XLINK, "").lstrip("#"), _short(u.get("transform", ""))]
                       for u in e.findall(f"{SVG}use")]
                geo["text"].append([_short(e.get("transform")), run])
        out[gid.removeprefix(PREFIX)] = {k: v for k, v in geo.items() if v}
    return out, glyphs


def _draw_stop(draw, out: dict, frame: _Frame, marks: dict[str, list[tuple[int, float, float]]]) -> bytes:
    """One stop's stripped SVG; `marks`: every probe position of each mark, one artist per mark
    (its SVG has one <use> per point, in order)."""
    from figures.explore import PREFIX
    from figures.theme import themed

    with themed("light"):
        fig = draw(out, "light")
        for name, points in marks.items():
            fig.axes[points[0][0]].plot([x for _, x, _ in points], [y for _, _, y in points],
                                        ls="", marker="o", gid=PREFIX + MARKS + name)
        return _stripped_svg(fig, frame)


# --- the stage ----------------------------------------------------------------------
def build_panel(scene_id: str, model_ref: str, params: dict, panel_ref: str,
                figure_specs: list[list[str]]) -> dict:
    """The panel's JSON-ready dict (no file written). figure_specs: the scene's [name, function]."""
    from figures.explore import Probe, Slider

    panel = load_ref(panel_ref)
    functions = dict(figure_specs)
    check_panel(scene_id, panel, list(functions))
    draw = load_ref(functions[panel.figure])
    sliders = [s for s in panel.sliders if isinstance(s, Slider)]
    probe = next((s for s in panel.sliders if isinstance(s, Probe)), None)
    defaults = {s.param: _default_index(scene_id, s, params) for s in sliders}
    runs = _model_grid(scene_id, model_ref, params, sliders)
    default_out = runs[tuple(defaults[s.param] for s in sliders)][0]
    pstops = _probe_stops(scene_id, probe, runs, default_out)
    frames, glyphs, mark_xy, mark_names = _figure_frames(scene_id, panel, draw, runs, defaults, sliders, pstops)
    cells, claims = _cells(panel, runs, mark_xy, mark_names, pstops)
    return {"version": VERSION, "scene": scene_id, "figure": panel.figure, "title": panel.title,
            "sliders": [_describe(s, default_out, pstops, defaults) for s in panel.sliders],
            "readouts": [r.label(default_out) if callable(r.label) else r.label for r in panel.readouts],
            "cells": cells, "frames": frames, "glyphs": dict(sorted(glyphs.items())), "claims": claims,
            "notes": list(panel.notes)}


def _model_grid(scene_id: str, model_ref: str, params: dict, sliders: list) -> dict[tuple, tuple[dict, list[str]]]:
    """Step 1: the model at every combination of the sliders' stops -> (output, claims that fail there)."""
    runs: dict[tuple, tuple[dict, list[str]]] = {}
    for combo in itertools.product(*[range(len(s.stops)) for s in sliders]):
        runs[combo] = _run(scene_id, model_ref, params, {s.param: s.stops[i] for s, i in zip(sliders, combo)})
    return runs


def _probe_stops(scene_id: str, probe, runs: dict, default_out: dict) -> list[int] | None:
    """The probe's indices along its series (None without a probe): the same at every slider stop."""
    from figures.explore import ProbeError, probe_stops

    if probe is None:
        return None
    try:
        pstops = probe_stops(probe, default_out)
        for out, _ in runs.values():
            if probe_stops(probe, out) != pstops or out["series"][probe.series] != default_out["series"][probe.series]:
                raise ExploreError(f"{scene_id}: explore probe {probe.series!r}: the series changes with the "
                                   "sliders; a probe needs the same x values at every stop")
    except ProbeError as e:
        raise ExploreError(f"{scene_id}: explore {e}") from None
    return pstops


def _figure_frames(scene_id: str, panel, draw, runs: dict, defaults: dict, sliders: list, pstops):
    """Step 2: the figure once per model stop, in the page figure's frame: each stop's tagged elements,
    the glyphs they use, the marks' positions per probe stop, and the marks' names."""
    default_combo = tuple(defaults[s.param] for s in sliders)
    default_out = runs[default_combo][0]
    frame = _Frame(draw, default_out)
    frames, glyphs, mark_xy = [], {}, {}
    mark_names = set(panel.marks(default_out, pstops[0])) if (panel.marks and pstops is not None) else set()
    for combo, (out, _) in runs.items():
        points: dict[str, list] = {name: [] for name in mark_names}
        for j in pstops if mark_names else ():
            for name, v in panel.marks(out, j).items():
                points[name].append(v)
        geo, used = tagged(_draw_stop(draw, out, frame, points))
        glyphs.update(used)
        frames.append({t: g for t, g in geo.items() if t not in mark_names and not t.startswith(MARKS)})
        mark_xy[combo] = {name: dict(zip(pstops, geo[MARKS + name]["xy"], strict=True)) for name in mark_names}
    tags = set().union(*frames)
    missing = tags - set(frames[list(runs).index(default_combo)])
    if missing:
        raise ExploreError(f"{scene_id}: explore: tagged elements {sorted(missing)} are drawn at some stops but not "
                           "in the page's figure, so the panel could never show them")
    for f in frames:
        for t in tags - set(f):
            f[t] = {"hidden": True}  # not drawn at this stop (a crossover that does not exist)
    return frames, glyphs, mark_xy, mark_names


def _cells(panel, runs: dict, mark_xy: dict, mark_names: set, pstops) -> tuple[list, list[str]]:
    """Step 3: every cell of the grid, nested slider by slider, its readouts formatted in Python;
    and the page's claims that fail at some cell, in the order first met (cells point into it)."""
    from figures.explore import Probe
    from models import units

    claims: list[str] = []
    frame_of = {combo: k for k, combo in enumerate(runs)}

    def cell(combo: tuple, j: int | None) -> dict:
        out, broken = runs[combo]
        for c in broken:
            if c not in claims:
                claims.append(c)
        values = [units.fmt(r.value(out, j), r.unit) for r in panel.readouts]
        marks = {name: mark_xy[combo][name][j] for name in sorted(mark_names)}
        return {"v": values, "f": frame_of[combo], "m": marks, "c": [claims.index(c) for c in broken]}

    def nest(level: int, combo: tuple, j: int | None):
        if level == len(panel.sliders):
            return cell(combo, j)
        s = panel.sliders[level]
        if isinstance(s, Probe):
            return [nest(level + 1, combo, i) for i in pstops]
        return [nest(level + 1, (*combo, i), j) for i in range(len(s.stops))]

    return nest(0, (), None), claims


def _describe(s, default_out: dict, pstops, defaults: dict) -> dict:
    """One slider or probe as the widget shows it: label, unit, formatted stops, keys, where it opens."""
    from figures.explore import Probe, probe_default
    from models import units

    if isinstance(s, Probe):
        xs = [default_out["series"][s.series][i] for i in pstops]
        return {"id": s.series, "label": s.label, "unit": s.unit, "stops": [units.fmt(x, s.unit) for x in xs],
                "keys": [_key(x) for x in xs], "default": pstops.index(probe_default(s, default_out))}
    return {"id": s.param, "label": s.label, "unit": s.unit, "stops": [units.fmt(x, s.unit) for x in s.stops],
            "keys": [_key(x) for x in s.stops], "default": defaults[s.param]}


def explore(scene_id: str, model_ref: str, params: dict, panel_ref: str,
            figure_specs: list[list[str]]) -> dict[str, str]:
    """The worker's entry point: build the panel and write build/explore/<id>.json atomically."""
    data = build_panel(scene_id, model_ref, params, panel_ref, figure_specs)
    blob = (json.dumps(data, sort_keys=True, separators=(",", ":"), ensure_ascii=False) + "\n").encode()
    hashes = atomic.commit({explore_json(scene_id): blob})
    return {paths.rel(p): h for p, h in hashes.items()}
