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


_DRAWN: dict[tuple[str, str, str], tuple[bytes, list[str]]] = {}


def drawn(scene, figure, theme: str, model_output) -> tuple[bytes, list[str]]:
    """(SVG bytes, what figures/checks.py finds) of one figure in one scheme, drawn once per run: both
    tests below read the same drawing (the checker looks at the figure before it is saved)."""
    from figures.checks import problems

    key = (scene.id, figure.name, theme)
    if key not in _DRAWN:
        data, _ = model_output(scene.id)  # the same model output the build writes
        with themed(theme):
            fig = load_ref(figure.function)(data, theme)
            found = problems(fig)
            _DRAWN[key] = (svg_bytes(fig), found)  # svg_bytes closes the figure
    return _DRAWN[key]


@pytest.mark.parametrize("scene, figure", FIGURES, ids=[f"{s.id}-{f.name}" for s, f in FIGURES])
def test_figure_draws_both_schemes_within_budget(scene, figure, model_output):
    blobs = {}
    for theme in THEMES:
        blobs[theme], _ = drawn(scene, figure, theme, model_output)
        assert blobs[theme].startswith(b"<?xml"), theme
        assert len(blobs[theme]) < SVG_BUDGET, f"{figure.name} ({theme}): {len(blobs[theme]):,} B"
    assert blobs["light"] != blobs["dark"], "the figure ignores the scheme"
    assert b"<text" not in blobs["light"], "text must be paths: no font needed by the reader"


@pytest.mark.parametrize("scene, figure", FIGURES, ids=[f"{s.id}-{f.name}" for s, f in FIGURES])
def test_figure_text_is_clear_and_readable(scene, figure, model_output):
    """No label struck through by a data line, no two labels overlapping, nothing below
    the smallest readable size (figures/checks.py), in either scheme."""
    for theme in THEMES:
        _, found = drawn(scene, figure, theme, model_output)
        assert not found, f"{figure.name} ({theme}):\n" + "\n".join(found)


def test_figure_checker_catches_each_defect_class():
    import matplotlib.pyplot as plt

    from figures.checks import problems

    fig, ax = plt.subplots()
    ax.plot([0, 1], [0, 1], label="data")
    ax.text(0.5, 0.5, "struck", ha="center", va="center")
    ax.text(0.1, 0.9, "first label", fontsize=10)
    ax.text(0.12, 0.9, "second label", fontsize=10)
    ax.text(0.8, 0.1, "tiny", fontsize=6)
    found = "\n".join(problems(fig))
    plt.close(fig)
    assert "'struck' is struck through" in found
    assert "overlaps" in found
    assert "below the" in found
