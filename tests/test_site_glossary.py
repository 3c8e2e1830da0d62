"""The glossary: one file, every entry sourced, every listed term linked at its first use.

The linker is pipeline/site/site_hooks.py; the site check reads the built site/ (run the
build first: `make`), so it is marked `browser` and runs with the browser gate.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from models.constants import SOURCES
from pipeline.site import site_hooks as hooks

ROOT = Path(__file__).resolve().parent.parent
SITE = ROOT / "site"
REQUIRED = {"NDR", "TLP", "DLLP", "XOFF", "CNP", "PXN", "UFM", "SU", "busbw",
            "PFC", "ECN", "DCQCN", "RoCE", "HBM", "MFU"}


def test_the_issue_s_terms_are_all_defined():
    assert REQUIRED <= {e["term"] for e in hooks.glossary()}


def test_every_entry_is_complete_and_its_source_known():
    ids = set()
    for e in hooks.glossary():
        assert e["expansion"].strip() and len(e["text"]) > 20, e["term"]
        assert e["id"] not in ids, f"duplicate glossary id {e['id']}"
        ids.add(e["id"])
        src = e.get("source")
        if isinstance(src, str):
            assert src in SOURCES, f"{e['term']}: source {src!r} is not in models/constants/sources.py"
        elif src is not None:
            assert {"publisher", "title", "url", "year"} <= set(src), e["term"]
        # a definition that quotes a number states a fact: it needs a source
        if re.search(r"\d", e["text"]):
            assert src, f"{e['term']}: states a figure with no source"


def test_first_use_is_linked_and_never_inside_code_headings_links_or_math():
    html = ('<h2>NDR ports</h2><p>Use <code>PFC</code> and <a href="x">RoCE</a> and '
            '<math><mi>SU</mi></math>; then PFC here, PFC again, and TLPs.</p>')
    out = hooks.link_terms(html, "../glossary/")
    assert "<h2>NDR ports</h2>" in out and "<code>PFC</code>" in out
    assert '<a href="x">RoCE</a>' in out and "<mi>SU</mi>" in out
    assert out.count('class="w06-gloss"') == 2  # PFC once (its first linkable use) and TLP
    assert 'href="../glossary/#term-tlp"' in out and ">TLPs</a>" in out
    assert hooks.unlinked_terms(out) == []
    assert hooks.unlinked_terms(html) == ["PFC", "TLP"]


def test_words_that_merely_contain_a_term_are_not_uses():
    assert hooks.unlinked_terms("<p>SuperPOD, SUM, NDR-like, x/SU, PCIe5x</p>") == []


@pytest.mark.browser
@pytest.mark.usefixtures("preview_site")
def test_every_built_page_links_every_term_it_uses():
    pages = sorted(SITE.rglob("index.html"))
    assert pages, "no site/: run `make` first"
    missing = []
    for p in pages:
        if p.parent.name == "glossary":
            continue
        text = p.read_text(encoding="utf-8")
        m = re.search(r"<article[^>]*>(.*)</article>", text, re.S)
        if m:
            missing += [f"{p.relative_to(SITE)}: {t}" for t in hooks.unlinked_terms(m.group(1))]
    assert not missing, "terms used but not linked to the glossary:\n" + "\n".join(missing)
