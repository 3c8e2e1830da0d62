"""Subset the bundled STIX Math font to the characters the site's equations use (a dev tool).

    .venv/bin/pip install brotli==1.1.0   # only to read the WOFF2 source; the subset is WOFF (zlib)
    .venv/bin/python tools/subset_math_font.py [--site site]

Why: the full font is 262 KB, the largest file a page with an equation fetched (Lighthouse, slow
4G). The subset keeps every character the built site's <math> elements use (all scenarios), plus
ASCII, Greek and the common operators so a new equation rarely needs a new subset, with the MATH
table and the glyph variants and assemblies stretchy delimiters and radicals need.
tests/test_math_font.py fails, naming the characters, when a page uses one the subset lacks: then
run this again and commit docs/assets/fonts/STIXMath-W06-subset.woff.
"""

from __future__ import annotations

import argparse
import html
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SOURCE = ROOT / "tools/fonts/STIXMath-Regular.woff2"  # the whole font, not published
SUBSET = ROOT / "docs/assets/fonts/STIXMath-W06-subset.woff"
# ASCII, Greek, super/subscript digits, arrows, the math operators block, a few more
BASE = ([*range(0x20, 0x7F), *range(0x391, 0x3CA), 0x3D1, 0x3D5, 0x3F5, *range(0x2070, 0x20A0),
         *range(0x2190, 0x21A0), *range(0x2200, 0x2300), 0xB1, 0xB7, 0xD7, 0xF7, 0x2032, 0x2033, 0x2026,
         0x2013, 0x2014, 0x2016, 0x2212, 0x221A, 0x27E8, 0x27E9, 0x2308, 0x2309, 0x230A, 0x230B])
_MATH = re.compile(r"<math\b.*?</math>", re.S)


def used_in(site: Path) -> set[str]:
    """Every character inside a <math> element of the built site (every scenario's pages too)."""
    chars: set[str] = set()
    for page in site.rglob("*.html"):
        for m in _MATH.finditer(page.read_text(encoding="utf-8")):
            chars |= set(html.unescape(re.sub(r"<[^>]+>", "", m.group())))
    return {c for c in chars if not c.isspace()}


def main() -> None:
    from fontTools import subset

    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--site", default=str(ROOT / "site"))
    args = ap.parse_args()
    chars = used_in(Path(args.site))
    options = subset.Options()
    options.flavor = "woff"  # zlib: the tests read it without brotli
    options.layout_features = ["*"]
    options.notdef_outline = True
    options.name_IDs = ["*"]  # keep the licence and copyright names (OFL)
    font = subset.load_font(str(SOURCE), options)
    sub = subset.Subsetter(options)
    sub.populate(unicodes=sorted({ord(c) for c in chars} | set(BASE)))
    sub.subset(font)
    tmp = SUBSET.with_suffix(".tmp")
    subset.save_font(font, str(tmp), options)
    tmp.replace(SUBSET)
    print(f"{SUBSET.relative_to(ROOT)}: {SUBSET.stat().st_size:,} bytes; {len(chars)} characters from the site, "
          f"{len(BASE)} kept besides")


if __name__ == "__main__":
    main()
