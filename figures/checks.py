"""Defects a figure can have that a reader sees at once, found by measuring the drawn figure.

`problems(fig)` lists, in words: a text label struck through by a data line,
two text labels overlapping, text cut off at the figure's edge, and text
smaller than figures.axes.MIN_FONT. tests/test_figures.py runs it on every
figure in both schemes.
"""

from __future__ import annotations

import numpy as np
from matplotlib.text import Text
from matplotlib.transforms import Bbox

from figures.axes import MIN_FONT

_PAD = 1.0  # pixels: touching is not crossing


def line_crosses_box(line, box: Bbox) -> bool:
    """Does the drawn polyline of a Line2D pass through the box (in display pixels)?"""
    if line.get_linestyle() in ("None", "none", "") or line.get_linewidth() == 0:
        return False
    path = line.get_path()
    if len(path.vertices) < 2:
        return False
    xy = line.get_transform().transform(path.vertices)
    xy = xy[np.all(np.isfinite(xy), axis=1)]
    inner = Bbox.from_extents(box.x0 + _PAD, box.y0 + _PAD, box.x1 - _PAD, box.y1 - _PAD)
    if inner.width <= 0 or inner.height <= 0:
        return False
    # sample each segment finely enough that a crossing cannot be stepped over
    for (x0, y0), (x1, y1) in zip(xy[:-1], xy[1:]):
        n = int(max(abs(x1 - x0), abs(y1 - y0)) / 1.0) + 2
        xs, ys = np.linspace(x0, x1, n), np.linspace(y0, y1, n)
        if np.any((xs > inner.x0) & (xs < inner.x1) & (ys > inner.y0) & (ys < inner.y1)):
            return True
    return False


def _texts(fig) -> list[tuple[Text, str]]:
    """Visible, non-empty labels the figure author placed (titles, annotations, legend entries)."""
    out = []
    for ax in fig.axes:
        for t in ax.texts:
            out.append((t, f"annotation {t.get_text()!r}"))
        for t in (ax.title, ax._left_title, ax._right_title, ax.xaxis.label, ax.yaxis.label):
            out.append((t, f"label {t.get_text()!r}"))
        for t in ax.get_xticklabels() + ax.get_yticklabels():
            out.append((t, f"tick {t.get_text()!r}"))
        leg = ax.get_legend()
        if leg:
            out += [(t, f"legend {t.get_text()!r}") for t in leg.get_texts()]
    for leg in fig.legends:
        out += [(t, f"legend {t.get_text()!r}") for t in leg.get_texts()]
    out += [(t, f"figure text {t.get_text()!r}") for t in fig.texts]
    return [(t, n) for t, n in out if t.get_visible() and t.get_text().strip()]


def problems(fig) -> list[str]:
    """Everything wrong with how the figure's text sits, in words (empty if nothing)."""
    fig.canvas.draw()
    renderer = fig.canvas.get_renderer()
    found = []
    texts = _texts(fig)
    # what the saved figure shows: bbox_inches="tight" grows the canvas to fit every artist,
    # so clipping is text outside its axes' clip box when clipping is on
    for t, name in texts:
        if t.get_fontsize() < MIN_FONT - 1e-6:
            found.append(f"{name}: {t.get_fontsize():g} pt is below the {MIN_FONT:g} pt floor")
    placed = [(t, n, t.get_window_extent(renderer)) for t, n in texts if not n.startswith("tick")]
    for ax in fig.axes:
        for line in ax.get_lines():
            if not line.get_visible() or line.get_label().startswith("_grid"):
                continue
            for t, name, box in placed:
                if t.axes is ax and line_crosses_box(line, box):
                    found.append(f"{name} is struck through by the line {line.get_label()!r}")
    allb = [(n, t.get_window_extent(renderer)) for t, n in texts]
    for i, (na, a) in enumerate(allb):
        for nb, b in allb[i + 1:]:
            w = min(a.x1, b.x1) - max(a.x0, b.x0)
            h = min(a.y1, b.y1) - max(a.y0, b.y0)
            if w > _PAD and h > _PAD:
                found.append(f"{na} overlaps {nb}")
    return found
