"""The glossary page, from docs/glossary.yml (pipeline/site/shared.py: glossary)."""

from __future__ import annotations

import html

from models.constants import SOURCES


def glossary_page(entries: list[dict]) -> str:
    """Every term with its expansion, definition and source; a source is a key of the bibliography
    (models/constants/sources.py) or written out in the entry."""
    out = ["# Glossary", "",
           "The terms and acronyms the scenes use. On every page, the first use of each links here.", "",
           '<dl class="w06-glossary">']
    for e in entries:
        out.append(f'<dt id="{e["id"]}">{html.escape(e["term"])} '
                   f'<span class="w06-expansion">{html.escape(e["expansion"])}</span></dt>'
                   f'<dd>{html.escape(e["text"])}{source_note(e.get("source"))}</dd>')
    out.append("</dl>")
    return "\n".join(out)


def source_note(src: str | dict | None) -> str:
    """An entry's source line: a bibliography key, or {publisher, title, url, year}; "" if none."""
    if isinstance(src, str):
        s = SOURCES[src]
        src = {"publisher": s.publisher, "title": s.title, "url": s.url, "year": s.year}
    if not src:
        return ""
    return (f' <span class="w06-gloss-src">Source: {html.escape(src["publisher"])}, '
            f'<a href="{html.escape(src["url"])}"><cite>{html.escape(src["title"])}</cite></a> '
            f'({src["year"]}).</span>')
