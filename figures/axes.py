"""Axis and annotation helpers every figure module shares.

- `log_axis`: a log-scale axis with ticks at chosen decades and values printed
  in the project's units (bytes, seconds, rates), never 10^x;
- `label_clear`: a text label placed near a point but clear of the plotted
  lines, so no label is struck through by data;
- `MIN_FONT`: the smallest text a figure may set (the page shows figures at
  up to 800 px, so 9 pt stays >= 11 px on screen; tests/test_figures.py checks).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

import numpy as np
from matplotlib.ticker import FixedLocator, FuncFormatter, NullFormatter, NullLocator

MIN_FONT = 9.0  # points


def decades(lo: float, hi: float, base: float = 10.0) -> list[float]:
    """The powers of `base` within [lo, hi]."""
    e0, e1 = int(np.ceil(np.log(lo) / np.log(base) - 1e-9)), int(np.floor(np.log(hi) / np.log(base) + 1e-9))
    return [base**e for e in range(e0, e1 + 1)]


def log_axis(ax, which: str, lo: float, hi: float, fmt: Callable[[float], str] = lambda v: f"{v:g}",
             every: int = 1, base: float = 10.0, ticks: Sequence[float] | None = None,
             label: str | None = None) -> None:
    """A log axis from lo to hi, ticks at every `every`-th power of `base` (or at `ticks`), labelled by fmt."""
    axis = ax.xaxis if which == "x" else ax.yaxis
    (ax.set_xscale if which == "x" else ax.set_yscale)("log", base=base)
    (ax.set_xlim if which == "x" else ax.set_ylim)(lo, hi)
    marks = list(ticks) if ticks is not None else decades(lo, hi, base)
    axis.set_major_locator(FixedLocator(marks[::every]))
    axis.set_minor_locator(FixedLocator([m for m in marks if m not in marks[::every]]) if every > 1
                           else NullLocator())
    axis.set_major_formatter(FuncFormatter(lambda v, _: fmt(v)))
    axis.set_minor_formatter(NullFormatter())
    if label is not None:
        (ax.set_xlabel if which == "x" else ax.set_ylabel)(label)


# candidate offsets in points, tried in order: above, below, right, left, then diagonals
_OFFSETS = [(0, 8), (0, -8), (8, 0), (-8, 0), (8, 8), (-8, 8), (8, -8), (-8, -8),
            (0, 18), (0, -18), (18, 0), (-18, 0), (0, 30), (0, -30)]
_ALIGN = {(0, 1): ("center", "bottom"), (0, -1): ("center", "top"), (1, 0): ("left", "center"),
          (-1, 0): ("right", "center"), (1, 1): ("left", "bottom"), (-1, 1): ("right", "bottom"),
          (1, -1): ("left", "top"), (-1, -1): ("right", "top")}


def label_clear(ax, x: float, y: float, text: str, **kw):
    """Place `text` next to (x, y) at the first offset where it crosses no line and no other text.

    Falls back to the first candidate if nothing is clear (tests then flag it).
    """
    fig = ax.figure
    renderer = fig.canvas.get_renderer()
    first = None
    for dx, dy in _OFFSETS:
        ha, va = _ALIGN[(int(np.sign(dx)), int(np.sign(dy)))]
        t = ax.annotate(text, (x, y), xytext=(dx, dy), textcoords="offset points", ha=ha, va=va, **kw)
        box = t.get_window_extent(renderer)
        inside = ax.get_window_extent(renderer).contains(box.x0, box.y0) and \
            ax.get_window_extent(renderer).contains(box.x1, box.y1)
        if inside and not _hits_lines(ax, box) and not _hits_texts(ax, t, box, renderer):
            return t
        if first is None:
            first = (dx, dy, ha, va)
        t.remove()
    dx, dy, ha, va = first
    return ax.annotate(text, (x, y), xytext=(dx, dy), textcoords="offset points", ha=ha, va=va, **kw)


def _hits_lines(ax, box) -> bool:
    from figures.checks import line_crosses_box

    return any(line_crosses_box(line, box) for line in ax.get_lines() if line.get_visible())


def _hits_texts(ax, me, box, renderer) -> bool:
    for t in ax.texts:
        if t is not me and t.get_visible() and t.get_text().strip() and t.get_window_extent(renderer).overlaps(box):
            return True
    return False
