"""Matplotlib styling for the site's figures, in a light and a dark variant.

A figure function has the signature `f(data: dict, theme: str) -> Figure`:
it reads the model output and draws; `pipeline/workers/figures.py` calls it
once per theme inside `themed(theme)` and writes a deterministic SVG. Colours
come from design/palette.py, text from the bundled font (design/fonts), so a
figure looks the same on every machine.
"""

from __future__ import annotations

import contextlib
import io

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
from matplotlib import font_manager  # noqa: E402

from design import fonts, palette  # noqa: E402
from figures.svg_glyphs import merge_glyph_runs  # noqa: E402

THEMES = ("light", "dark")

for _path in fonts.files():
    font_manager.fontManager.addfont(str(_path))


def rc(theme: str) -> dict:
    t = palette.THEMES[theme]
    return {
        "font.family": fonts.FAMILY,
        "font.size": 11,
        "svg.fonttype": "path",  # glyphs as paths: no font needed by the reader
        "svg.hashsalt": "world06",  # stable ids: same data, same bytes
        "figure.facecolor": "none",
        "axes.facecolor": "none",
        "savefig.facecolor": "none",
        "axes.edgecolor": t["muted"],
        "axes.labelcolor": t["ink"],
        "axes.titlecolor": t["ink"],
        "axes.grid": True,
        "grid.color": t["grid"],
        "grid.linewidth": 0.6,
        "xtick.color": t["muted"],
        "ytick.color": t["muted"],
        "xtick.labelcolor": t["ink"],
        "ytick.labelcolor": t["ink"],
        "text.color": t["ink"],
        "legend.frameon": False,
        "axes.spines.top": False,
        "axes.spines.right": False,
        "lines.linewidth": 2.2,
        "axes.prop_cycle": matplotlib.cycler(color=[palette.role(r, theme) for r in palette.SERIES]),
    }


@contextlib.contextmanager
def themed(theme: str):
    if theme not in THEMES:
        raise ValueError(f"theme must be one of {THEMES}, not {theme!r}")
    with matplotlib.rc_context(rc(theme)):
        yield palette.THEMES[theme]


def svg_bytes(fig) -> bytes:
    """The figure as SVG with no date or tool stamp, so bytes depend on data only."""
    buf = io.BytesIO()
    fig.savefig(buf, format="svg", bbox_inches="tight",
                metadata={"Date": None, "Creator": None})
    plt.close(fig)
    return merge_glyph_runs(buf.getvalue())  # far fewer elements for the browser to style
