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


def test_every_scenarios_404_page_links_from_its_own_root():
    """A scenario's 404 page (site/scenario/<id>/404.html) is built with that scenario's site_url:
    its links are relative to the <base> its script sets, the scenario's root, never doubled."""
    pages = sorted(SITE.glob("scenario/*/404.html"))
    assert pages, "no scenario 404 pages built"
    for p in pages:
        text = p.read_text(encoding="utf-8")
        sid = p.parent.name
        doubled = re.findall(rf'(?:href|src)="(scenario/{sid}/[^"]*)"', text)
        assert not doubled, f"{p.relative_to(SITE)}: links under a doubled path: {doubled[:3]}"
        assert not re.findall(r'(?:href|src)="/(?!/)', text), f"{p.relative_to(SITE)}: links by absolute path"
        assert f"'/scenario/{sid}/'" in text  # the base the script falls back to: the scenario's root


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


def test_every_page_starts_the_theme_script_after_its_first_frame():
    """docs/overrides/partials/theme_start.html: the theme's bundle and site.js are inert tags the
    loader starts after a frame; nothing runs them before the page is drawn, on any page."""
    for page in sorted(SITE.rglob("*.html")):
        text = page.read_text(encoding="utf-8")
        if "assets/javascripts/bundle." not in text:
            continue  # not a theme page (a presenter deck)
        tags = re.findall(r"<script\b[^>]*\bsrc=\"([^\"]+)\"[^>]*>", text)
        live = [t for t in re.findall(r"<script\b[^>]*>", text) if "src=" in t and "text/x-w06-later" not in t]
        assert not live, f"{page}: scripts that run before the first frame: {live}"
        assert any("bundle." in t for t in tags) and any(t.endswith("site.js") for t in tags), page
        assert "data-w06-ready" in text and "js-focus-visible" in text, f"{page}: no loader or marks"
