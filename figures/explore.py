"""What an Explore panel declares, next to the figure it drives.

A panel lets the reader move one of a page's figures with at most two sliders. Everything the
browser shows is computed here at build time (pipeline/workers/explore.py runs the model over the grid and
draws the figure once per stop); the page's widget only looks values up.

A figure function marks the artists that change with `tag(artist, name)`: the tag becomes the SVG
element's id (`w06-x-<name>`) in both schemes, and the widget swaps that element's path data,
marker positions or text. Artists that are not tagged must not change with the sliders.

Two kinds of slider:

- `Slider`: sets a model parameter. The model runs once per stop and the figure is drawn for it.
- `Probe`: walks along a series of the model output (say, message size on the x axis) without
  re-running anything; readouts read that series at the chosen point, and `marks` put points on
  the figure there.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

PREFIX = "w06-x-"
MAX_STOPS = 40  # per slider
MAX_SLIDERS = 2


def tag(artist, name: str):
    """Mark an artist the Explore panel moves; returns the artist."""
    artist.set_gid(PREFIX + name)
    return artist


@dataclass(frozen=True)
class Slider:
    """A model parameter the reader sets: one model run and one drawing per stop."""

    param: str  # the model parameter
    label: str  # the reader's name for it, the slider's <label>
    unit: str  # models/units.py unit: stops are shown (and announced) in it
    stops: tuple[float, ...]  # must contain the catalogue's value: the panel opens there


@dataclass(frozen=True)
class Probe:
    """A point along one series of the model output: nothing re-runs, readouts read series[i]."""

    series: str  # the series holding the x values (say "message_bytes")
    label: str
    unit: str
    every: int = 1  # take every n-th point of the series
    default: Callable[[dict], float] | None = None  # output -> the page's x: a point of the series


@dataclass(frozen=True)
class Readout:
    """One number the panel shows: `value(output, i)` with `i` the probe's index (or None)."""

    label: str | Callable[[dict], str]  # or output -> label, for a label that names a model value
    unit: str
    value: Callable[[dict, int | None], Any]


@dataclass(frozen=True)
class Panel:
    figure: str  # the catalogue's name of the figure it drives
    title: str  # the <summary>: "Explore: ..."
    sliders: tuple[Slider | Probe, ...]
    readouts: tuple[Readout, ...]
    # output, probe index -> {tag: (axes index, x, y)}: the points a probe moves (drawn by the
    # figure function at its own default through the same function, so both agree)
    marks: Callable[[dict, int | None], dict[str, tuple[int, float, float]]] | None = None
    notes: tuple[str, ...] = field(default_factory=tuple)  # fixed sentences shown under the panel


def summary(key: str) -> Callable[[dict, int | None], Any]:
    """A readout of one summary value."""
    return lambda out, i: out["summary"][key]


def series(key: str) -> Callable[[dict, int | None], Any]:
    """A readout of one series at the probe's point."""
    return lambda out, i: out["series"][key][i]


class ProbeError(ValueError):
    """A probe that cannot open at the page: its page value is not a point of its series."""


def page_point(probe: Probe, out: dict) -> int | None:
    """The series index of the page's own value, probe.default(out) (None for a probe without one).

    Exact, not nearest: the panel opens at the page, so its numbers are the page's numbers. The
    model's sweep must hold the value the page quotes (a sweep built without it is refused here)."""
    if probe.default is None:
        return None
    x, xs = float(probe.default(out)), out["series"][probe.series]
    for i, xi in enumerate(xs):
        if math.isclose(xi, x, rel_tol=1e-9):
            return i
    raise ProbeError(f"probe {probe.series!r}: the page's value {x:g} is not a point of the series "
                     f"({len(xs)} points, {xs[0]:g} to {xs[-1]:g}): the model's sweep must include it, "
                     "so the panel opens at the page's numbers")


def probe_stops(probe: Probe, out: dict) -> list[int]:
    """The series indices a probe stops at: every n-th point, the last one always included, and the
    page's own point in place of the interior stop nearest it."""
    n = len(out["series"][probe.series])
    stops = list(range(0, n, probe.every))
    if stops[-1] != n - 1:
        stops.append(n - 1)
    page = page_point(probe, out)
    if page is None or page in stops:
        return stops
    interior = stops[1:-1]
    if interior:  # keeps the count and both ends: no two stops a point apart
        stops.remove(min(interior, key=lambda i: abs(i - page)))
    return sorted([*stops, page])


def probe_default(probe: Probe, out: dict) -> int:
    """The stop the panel opens at: the page's own point (page_point), else the middle stop."""
    page = page_point(probe, out)
    if page is not None:
        return page
    stops = probe_stops(probe, out)
    return stops[len(stops) // 2]
