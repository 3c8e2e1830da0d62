"""The bundled math font is a subset: every character an equation on the built site uses is in it.

Reads site/ as built (the preview_site fixture, every scenario); marked `browser` with the other
built-site checks. When a new equation needs a character the subset lacks, this names it: run
tools/subset_math_font.py and commit the new subset.
"""

from __future__ import annotations

from pathlib import Path

import pytest

pytestmark = pytest.mark.browser
ROOT = Path(__file__).resolve().parent.parent
SUBSET = ROOT / "docs/assets/fonts/STIXMath-W06-subset.woff"


def cmap() -> set[str]:
    from fontTools.ttLib import TTFont

    return {chr(c) for c in TTFont(str(SUBSET)).getBestCmap()}


def test_every_character_of_every_equation_is_in_the_subset(preview_site):
    import sys

    sys.path.insert(0, str(ROOT / "tools"))
    from subset_math_font import used_in

    used = used_in(preview_site)
    assert len(used) > 50, "no equations found on the built site"
    missing = sorted(used - cmap())
    assert not missing, ("characters used in equations but missing from the math font subset: "
                         + " ".join(f"{c} (U+{ord(c):04X})" for c in missing)
                         + "; run tools/subset_math_font.py and commit the subset")


def test_the_subset_keeps_the_math_table_and_the_licence_and_is_what_the_page_loads():
    from fontTools.ttLib import TTFont

    font = TTFont(str(SUBSET))
    assert "MATH" in font  # stretchy delimiters and radicals need it
    assert "STI Pub" in font["name"].getDebugName(0)  # the copyright travels with it (OFL)
    assert SUBSET.stat().st_size < 80_000
    css = (ROOT / "docs/assets/site.css").read_text()
    assert 'url("fonts/STIXMath-W06-subset.woff")' in css and "STIXMath-Regular" not in css
    assert not (ROOT / "docs/assets/fonts/STIXMath-Regular.woff2").exists()  # the whole font is not published


def test_the_check_can_fail(tmp_path):
    import sys

    sys.path.insert(0, str(ROOT / "tools"))
    from subset_math_font import used_in

    (tmp_path / "p.html").write_text("<p>x</p><math><mi>\u2135</mi><mo>&#x2A0C;</mo></math>")
    assert used_in(tmp_path) == {"\u2135", "\u2a0c"}
    assert "\u2a0c" not in cmap()  # a quadruple integral: not in any equation here
