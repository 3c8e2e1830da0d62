"""Every catalogue figure draws from its model output, in both schemes, within budget.

Scene pages must transfer under 500 KB before a video plays (tests/test_browser.py);
one SVG variant is fetched per page, so each stays well under that.
"""

from __future__ import annotations

import pytest

from figures.theme import THEMES, svg_bytes, themed
from pipeline.catalogue import load
from pipeline.jsonio import load_ref

CATALOGUE = load()
FIGURES = [(s, f) for s in CATALOGUE.built for f in s.figures]
SVG_BUDGET = 250_000  # bytes per variant, uncompressed


@pytest.mark.parametrize("scene, figure", FIGURES, ids=[f"{s.id}-{f.name}" for s, f in FIGURES])
def test_figure_draws_both_schemes_within_budget(scene, figure, model_output):
    data, _ = model_output(scene.id)  # the same model output the build writes
    blobs = {}
    for theme in THEMES:
        with themed(theme):
            blobs[theme] = svg_bytes(load_ref(figure.function)(data, theme))
        assert blobs[theme].startswith(b"<?xml"), theme
        assert len(blobs[theme]) < SVG_BUDGET, f"{figure.name} ({theme}): {len(blobs[theme]):,} B"
    assert blobs["light"] != blobs["dark"], "the figure ignores the scheme"
    assert b"<text" not in blobs["light"], "text must be paths: no font needed by the reader"
