"""The built site as a newcomer meets it: home, module pages, navigation, 404.

Reads site/ as built (`make`); marked `browser` so it runs with the browser gate.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from pipeline.catalogue import load

pytestmark = [pytest.mark.browser, pytest.mark.usefixtures("preview_site")]
SITE = Path(__file__).resolve().parent.parent / "site"
CAT = load()


def read(rel: str) -> str:
    p = SITE / rel
    assert p.is_file(), f"{p}: not built (run `make`)"
    return p.read_text(encoding="utf-8")


def test_404_page_has_no_absolute_paths():
    page = read("404.html")
    assert not re.findall(r'(?:href|src)="/(?!/)', page), "404.html links by absolute path"
    assert "<base href=" in page  # set from the address, so a subpath works


def test_home_page_is_a_landing_not_a_maintainer_note():
    home = read("index.html")
    assert "catalogue.yml" not in home
    assert f"{len(CAT.scenes)} scenes" in home
    assert home.count('class="w06-card"') == len(CAT.built)  # unbuilt scenes are folded, not cards
    assert "<video" in home  # the signature animation
    assert f'content="{len(CAT.scenes)} ' in home or f"{len(CAT.scenes)} explainer scenes" in home


def test_module_pages_open_with_an_introduction():
    for m in CAT.modules:
        if m.id == "case-study":
            continue
        page = read(f"modules/{m.id}/index.html")
        body = page.split("</h1>", 1)[1]
        first = re.search(r"<p>(.*?)</p>", body, re.S).group(1)
        assert len(first) > 120, f"modules/{m.id}: no introduction"


def test_navigation_marks_unbuilt_scenes_and_never_leads_to_them():
    unbuilt = [s for s in CAT.scenes if not s.built]
    home = read("index.html")
    for s in unbuilt:
        assert f"{s.title} (not built yet)" in home.replace("&amp;", "&"), s.id
    for p in SITE.rglob("index.html"):
        footer = p.read_text(encoding="utf-8").split('class="md-footer"', 1)[-1].split("md-footer-meta")[0]
        for s in unbuilt:
            assert f"scenes/{s.id}/" not in footer, f"{p.relative_to(SITE)}: previous/next leads to a stub"
    # the journey: within a module, each built scene's "next" is the module's next built scene
    built = [s for s in CAT.scenes if s.built]
    for here, there in ((a, b) for a, b in zip(built, built[1:]) if a.module == b.module):
        footer = read(f"scenes/{here.id}/index.html").split('class="md-footer"', 1)[-1].split("md-footer-meta")[0]
        assert f"{there.id}/" in footer, f"scenes/{here.id}: next should be {there.id}"
