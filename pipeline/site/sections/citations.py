"""Citation marks, constants with their tags and source, and a page's reference list.

A page cites by key (models/constants/sources.py); the marks are numbered in order of first
citation on the page, which on a scene page starts with the catalogue's sources (scene_header).
"""

from __future__ import annotations

import html
import re
from collections.abc import Callable

from models import units
from models.constants import CONSTANTS, SOURCES
from pipeline.site.context import Citations, Page


def cite(cites: Citations, key: str, where: str) -> str:
    """A citation mark linking to the reference list; `where` names the page in an error."""
    if key not in SOURCES:
        raise KeyError(f"{where}: cite({key!r}): no such source in models/constants/")
    n = cites.number(key)
    return f'<sup class="w06-cite"><a href="#ref-{n}">[{n}]</a></sup>'


def const_tag(cites: Citations, name: str, where: str, noun: str = "", unit: str = "",
              scope: str | None = None) -> str:
    """A constant's value in its unit, tagged with its direction, scope and estimate range, and cited.

    It reads as part of the sentence around it: `noun` (the thing counted, "DDR5 channels") goes
    between the value and its scope ("8 DDR5 channels per CPU [15]", never "8 per CPU [15] DDR5
    channels"), and a scope that qualifies nothing is left out (`shown_scope`). `unit`: the unit a
    model declares for a constant the registry holds as a plain number ("1"), so a tariff reads
    "$0.0790/kWh" in the parameters table, not "0.0790". `scope`: the scope to show in place of the
    constant's own, where the sentence already says it ("" drops a "per job" that reads as garbled
    units after a time or a count: "10 min per job")."""
    if name not in CONSTANTS:
        raise KeyError(f"{where}: const_tag({name!r}): no such constant")
    c = CONSTANTS[name]
    shown_unit = unit if unit and c.unit == "1" else c.unit
    est = (f"estimate, {units.fmt(c.estimate[0], shown_unit)} to {units.fmt(c.estimate[1], shown_unit)}"
           if c.estimate else "")
    scope_tag = shown_scope(c.scope, c.unit, c.direction) if scope is None else scope
    tag = ", ".join(t for t in (c.direction, scope_tag, est) if t)
    tag_html = f' <span class="w06-tag">{html.escape(tag)}</span>' if tag else ""
    value = units.fmt(c.value, shown_unit) + (f" {html.escape(noun)}" if noun else "")
    return f"{value}{tag_html}{cite(cites, c.source, where)}"


# the units whose values add up across GPUs, ports or racks: only for them is "aggregate" (the sum
# over the system) something the tag must say; a PUE or a grid's g/kWh is no sum ("1.10 aggregate")
ADDITIVE = {"B/s", "b/s", "FLOP/s", "W", "B", "FLOP"}


def shown_scope(scope: str, unit: str, direction: str) -> str:
    """The scope the tag shows: "aggregate" only on a quantity that adds up, any other as declared."""
    if scope == "aggregate" and unit not in ADDITIVE and not direction:
        return ""
    return scope


def sources(keys: list[str]) -> str:
    """The reference list, numbered as the citation marks are."""
    items = []
    for n, key in enumerate(keys, 1):
        s = SOURCES[key]
        # the excerpt stays on the page but out of the search index: it quotes the source, and the same
        # source's excerpt on every page that cites it grew the site-wide index past its budget
        where = f'<span data-search-exclude>, {html.escape(s.where)}</span>' if s.where else ""
        items.append(f'<li id="ref-{n}">{html.escape(s.publisher)}. <a href="{html.escape(s.url)}">'
                     f"<cite>{html.escape(s.title)}</cite></a> ({s.year}){where}.</li>")
    return '<ol class="w06-sources">\n' + "\n".join(items) + "\n</ol>"


def tagger(page: Page) -> Callable[..., str]:
    """const_tag for this page: a constant's name (and a noun) -> its value, tag and citation mark."""
    return lambda name, noun="", unit="": const_tag(page.cites, name, page.src, noun, unit)


# A page's prose and its const_tag macros cite independently, so one sentence can carry the same
# mark twice ("1.80 TB/s [3] [3]", "a median of 20.0 min [1], a 90th percentile of 6.67 h [1]").
# The second of two marks in a row (no other source between them, the same sentence) adds nothing;
# it is dropped. A mark after another source's is kept: dropping it would credit that source.
_CITE_MARK = re.compile(r'\s?<sup class="w06-cite"><a href="#ref-(\d+)">\[\d+\]</a></sup>')
_PIECES = re.compile(r'(\s?<sup class="w06-cite">.*?</sup>|<math\b.*?</math>|<[^>]+>|[.!?](?=\s+[A-Z(“"]))',
                     re.S)
_NEW_BLOCK = re.compile(r"</?(p|li|td|th|h\d|figcaption|div|ul|ol|table|tr)\b")


def drop_repeated_marks(content: str) -> str:
    """`content` with each citation mark that repeats the sentence's previous mark removed."""
    out, last = [], None
    for piece in _PIECES.split(content):
        if not piece:
            continue
        mark = _CITE_MARK.fullmatch(piece)
        if mark:
            if mark.group(1) == last:
                continue
            last = mark.group(1)
        elif piece in ".!?" or _NEW_BLOCK.match(piece):
            last = None
        out.append(piece)
    return "".join(out)
