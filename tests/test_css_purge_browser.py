"""Trimming the theme's stylesheets changes no element's style (pipeline/site/css_purge.py).

Each page is loaded twice in Chromium: as built, and with the browser handed the theme's own
sheets (from the installed package) in place of the trimmed ones. Every element's computed style
must match, property by property: on pages of each kind, at phone and desktop widths, in both
colour schemes, and with the search open on results the theme's script drew.
"""

from __future__ import annotations

import re
from pathlib import Path

import material
import pytest
from browser import ready

THEME_SHEETS = Path(material.__file__).parent / "templates" / "assets" / "stylesheets"
PAGES = ["", "scenes/daly-checkpoint/", "modules/interconnects/", "glossary/", "presenters/", "404.html"]

# every element's computed style, hashed in the page (FNV-1a over sorted "prop:value" pairs): the styles
# themselves are megabytes a page, fetched only for an element whose hashes differ
STYLE = """el => { const cs = getComputedStyle(el), props = {};
  for (let i = 0; i < cs.length; i++) props[cs[i]] = cs.getPropertyValue(cs[i]);
  return props; }"""
HASHES = """() => [...document.querySelectorAll('*')].map(el => {
  const cs = getComputedStyle(el), pairs = [];
  for (let i = 0; i < cs.length; i++) pairs.push(cs[i] + ':' + cs.getPropertyValue(cs[i]));
  const s = pairs.sort().join(';');  // sorted: custom properties list in the order the sheets declare them
  let h = 0x811c9dc5;
  for (let k = 0; k < s.length; k++) h = Math.imul(h ^ s.charCodeAt(k), 16777619) >>> 0;
  return h;
})"""
PATH = """el => { const path = [];
  for (let e = el; e && e.nodeType === 1; e = e.parentElement)
    path.unshift(e.tagName.toLowerCase() + (e.id ? '#' + e.id : '')
                 + (e.classList.length ? '.' + [...e.classList].join('.') : ''));
  return path.join(' > '); }"""


def _original(url: str) -> Path:
    stem = re.search(r"/(main|palette)\.[0-9a-f]{8}\.min\.css$", url).group(1)
    (sheet,) = THEME_SHEETS.glob(f"{stem}.*.min.css")
    return sheet


def _open(ctx, url: str, theme: bool, search: str | None = None):
    page = ctx.new_page()
    if theme:  # the theme's own sheets, under the trimmed sheets' names
        page.route(re.compile(r".*/assets/stylesheets/(main|palette)\.[0-9a-f]{8}\.min\.css$"),
                   lambda route: route.fulfill(path=str(_original(route.request.url)),
                                               content_type="text/css"))
    page.goto(url, wait_until="networkidle")
    ready(page)
    if search:
        page.keyboard.press("/")
        page.keyboard.type(search)
        page.wait_for_selector(".md-search-result__item")
    page.wait_for_timeout(300)  # the theme's transitions settle
    return page


def _compare(ctx, url: str, where: str, search: str | None = None) -> None:
    built, theme = _open(ctx, url, False, search), _open(ctx, url, True, search)
    a, b = built.evaluate(HASHES), theme.evaluate(HASHES)
    assert len(a) == len(b), f"{where}: {len(a)} elements against {len(b)}"
    for i, (ha, hb) in enumerate(zip(a, b)):
        if ha != hb:
            el_a, el_b = built.locator("*").nth(i), theme.locator("*").nth(i)
            sa, sb = el_a.evaluate(STYLE), el_b.evaluate(STYLE)
            diff = {k: (sa.get(k), sb.get(k)) for k in sorted(set(sa) | set(sb)) if sa.get(k) != sb.get(k)}
            pytest.fail(f"{where}: {el_a.evaluate(PATH)} computes differently, trimmed vs the theme's own: {diff}")
    built.close()
    theme.close()


@pytest.mark.parametrize("width,scheme", [(390, "light"), (1280, "dark")])
def test_trimmed_sheets_style_every_element_as_the_themes_own(site_url, chromium, width, scheme):
    ctx = chromium.new_context(viewport={"width": width, "height": 900}, color_scheme=scheme,
                               reduced_motion="reduce")
    for rel in PAGES:
        _compare(ctx, site_url + rel, f"{rel or 'home'} at {width}px {scheme}")
    ctx.close()


def test_search_results_drawn_by_the_script_style_alike(site_url, chromium):
    ctx = chromium.new_context(viewport={"width": 1280, "height": 900}, reduced_motion="reduce")
    _compare(ctx, site_url + "scenes/ring-vs-tree/", "search results", search="bandwidth")
    ctx.close()


def test_the_built_pages_link_only_trimmed_sheets(preview_site):
    theme = {p.name for p in THEME_SHEETS.glob("*.min.css")}
    built = {p.name for p in (preview_site / "assets" / "stylesheets").glob("*.css")}
    assert built and not built & theme, f"the theme's untrimmed sheets are in the build: {built & theme}"
    assert not list((preview_site / "assets" / "stylesheets").glob("*.map")), "maps of untrimmed sheets"
    for page in [preview_site / "index.html", preview_site / "scenes" / "daly-checkpoint" / "index.html"]:
        linked = set(re.findall(r"stylesheets/([\w.]+\.css)", page.read_text(encoding="utf-8")))
        assert linked == built, f"{page}: links {linked}, built {built}"
