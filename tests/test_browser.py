"""The site in a real browser: every page loads clean, private, accessible, light.

Builds the preview site (a no-op when build/ is warm), serves site/ on
127.0.0.1 and opens every page in Debian's chromium. Then proves on a small
fixture site that each check fails when it should, naming page and element.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from browser import READY, PageResult, audit, check_accessibility, pages, ready, serve

from pipeline.catalogue import load

pytestmark = pytest.mark.browser

ROOT = Path(__file__).resolve().parent.parent
SITE = ROOT / "site"
SHOTS = ROOT / "build" / "screenshots"
PAGE_BUDGET = 500_000  # bytes a scene page may transfer before any video plays (the search index aside)
INDEX_BUDGET = 300_000  # bytes of the site-wide search index, fetched once per visit and cached
CATALOGUE = load()


@pytest.fixture(scope="module")
def audits(site_url, chromium):
    results = {}
    for rel in pages(SITE):
        page = chromium.new_page()
        results[rel] = audit(page, site_url + rel)
        page.close()
    return results


def test_site_has_every_page(audits):
    assert "" in audits and "glossary/" in audits
    assert sum(r.startswith("scenes/") for r in audits) == len(CATALOGUE.scenes)
    assert sum(r.startswith("modules/") for r in audits) == 6


def test_every_page_loads_clean(audits):
    problems = [p for r in audits.values() for p in r.problems]
    assert not problems, f"{len(problems)} problems:\n" + "\n".join(problems)


def test_scene_pages_stay_under_the_weight_budget(audits):
    print(f"\n{'page':40} {'transferred':>12} {'uncompressed':>13}  (before any video plays)")
    for rel, r in sorted(audits.items(), key=lambda kv: -kv[1].bytes):
        print(f"{rel or '(home)':40} {r.bytes:12,} {r.raw_bytes:13,}")
    heavy = {rel: r.bytes for rel, r in audits.items() if rel.startswith("scenes/") and r.bytes > PAGE_BUDGET}
    assert not heavy, f"over the {PAGE_BUDGET:,}-byte budget: {heavy}"
    early = {rel: r.index_bytes for rel, r in audits.items() if r.index_bytes}
    assert not early, (f"the search index loaded with the page; it waits for the reader to reach for search "
                       f"(docs/overrides/partials/search_gate.html): {early}")
    assert all(r.bytes > 0 for r in audits.values())  # the measurement itself works


@pytest.mark.parametrize("width", [390, 1280])
def test_search_index_loads_when_the_reader_reaches_for_search(site_url, chromium, width):
    """Held at load (a phone's first load is lighter for it), fetched on the reader's first reach for
    search: the search key on a wide screen, a tap on the header's search button on a phone."""
    ctx = chromium.new_context(viewport={"width": width, "height": 800})
    page = ctx.new_page()
    fetched = []
    page.on("requestfinished", lambda r: r.url.endswith("/search/search_index.json") and fetched.append(r))
    page.goto(site_url + "scenes/ring-vs-tree/", wait_until="networkidle")
    ready(page)
    assert not fetched and page.evaluate("w06SearchIndexHeld()")
    with page.expect_request_finished(lambda r: r.url.endswith("/search/search_index.json")):
        if width >= 1280:
            page.keyboard.press("/")
        else:
            page.click("label.md-header__button[for=__search]")
    page.keyboard.type("checkpoint")
    page.wait_for_selector(".md-search-result__item", timeout=15_000)
    sizes = fetched[0].sizes()
    index = sizes["responseBodySize"] + sizes["responseHeadersSize"]
    print(f"search index: {index:,} bytes transferred (budget {INDEX_BUDGET:,})")
    assert 0 < index <= INDEX_BUDGET, f"the search index transfers {index:,} bytes, over {INDEX_BUDGET:,}"
    assert page.locator(".md-search-result__item").count() > 0
    ctx.close()


FIGURE_TEXT_PT = 9  # figures set text at 9 pt or more (figures/theme.py) ...
FIGURE_MIN_PX = 11  # ... which must render at 11 px or more on a 1280 px screen
FIGURE_PROBE = """async (img) => {
  img.scrollIntoView();
  if (!img.complete || !img.naturalWidth) await new Promise(r => { img.onload = r; img.onerror = r;
                                                                     setTimeout(r, 5000); });
  return {src: img.getAttribute('src'), shown: img.getBoundingClientRect().width, natural: img.naturalWidth};
}"""
SHOT_PAGES = [("home", ""), ("module", "modules/interconnects/"), ("glossary", "glossary/"),
              ("ring-vs-tree", "scenes/ring-vs-tree/"), ("daly-checkpoint", "scenes/daly-checkpoint/")]


@pytest.mark.parametrize("scheme", ["light", "dark"])
@pytest.mark.parametrize("width", [390, 1280])
def test_both_schemes_render_without_overflow(site_url, chromium, scheme, width):
    SHOTS.mkdir(parents=True, exist_ok=True)
    scene = CATALOGUE.built[0].id
    ctx = chromium.new_context(viewport={"width": width, "height": 900}, color_scheme=scheme)
    page = ctx.new_page()
    small = []
    for name, rel in [*SHOT_PAGES, (scene, f"scenes/{scene}/")]:
        page.goto(site_url + rel, wait_until="networkidle")
        ready(page)
        overflow = page.evaluate("document.documentElement.scrollWidth - document.documentElement.clientWidth")
        assert overflow <= 0, f"{rel or 'home'} at {width}px {scheme}: {overflow}px horizontal overflow"
        page.screenshot(path=str(SHOTS / f"{name}-{width}-{scheme}.png"), full_page=False)
        if width == 1280 and rel.startswith("scenes/"):
            for img in page.query_selector_all(f".w06-figure img[src$='#only-{scheme}']"):
                f = img.evaluate(FIGURE_PROBE)
                px = FIGURE_TEXT_PT * 96 / 72 * f["shown"] / f["natural"] if f["natural"] else 0
                if px < FIGURE_MIN_PX:
                    small.append(f"{rel} {f['src']}: text renders at {px:.1f}px "
                                 f"({f['shown']:.0f}px shown of {f['natural']}px)")
    assert not small, f"figure text under {FIGURE_MIN_PX}px at 1280px:\n" + "\n".join(small)
    # the scene page: the figure variant of this scheme shows, the other hides
    page.goto(site_url + f"scenes/{scene}/", wait_until="networkidle")
    shown = page.eval_on_selector_all(
        ".w06-figure img", "els => els.map(e => [e.getAttribute('src'), e.offsetWidth > 0])")
    assert shown, "no figures on the scene page"
    for src, visible in shown:
        assert visible == src.endswith(f"#only-{scheme}"), (src, scheme, visible)
    # the root's colour scheme follows the palette (site.css), both ways, with no color-scheme meta
    # in the head (partials/theme_start.html keeps the theme's out) and the theme's theme-color meta
    ready(page)
    root = "getComputedStyle(document.documentElement).colorScheme"
    assert page.evaluate("document.querySelectorAll('meta[name=color-scheme]').length") == 0
    assert page.evaluate("document.querySelector('meta[name=theme-color]').content").startswith("#")
    assert page.evaluate(root) == ("dark" if scheme == "dark" else "normal"), scheme
    page.locator("form[data-md-component=palette] label:not([hidden])").first.click()
    page.wait_for_function(f"{root} === {'normal' if scheme == 'dark' else 'dark'!r}")
    assert page.evaluate("document.head.appendChild === Node.prototype.appendChild"), \
        "the head's appendChild is still wrapped after the theme started"
    ctx.close()


def test_the_theme_script_waits_for_the_reader(site_url, chromium):
    """Until the first interaction the page is its no-JS self (partials/theme_start.html): the theme's
    bundle is not even requested, and the page passes axe so (tables carry their own tab stop). A
    scheme picked before the theme listens is applied once it does. A query starts it at once."""
    scene = CATALOGUE.built[0].id
    ctx = chromium.new_context(viewport={"width": 390, "height": 900}, color_scheme="light")
    page = ctx.new_page()
    asked = []
    page.on("request", lambda r: asked.append(r.url))
    page.goto(site_url + f"scenes/{scene}/", wait_until="networkidle")
    page.wait_for_timeout(500)
    assert not [u for u in asked if "/javascripts/bundle." in u or u.endswith("/site.js")], asked
    assert page.query_selector(READY) is None
    result = PageResult(page.url)
    check_accessibility(result, page)
    assert not result.problems, result.problems
    assert page.eval_on_selector_all("table:not([class])", "ts => ts.every(t => t.tabIndex === 0)")
    # the palette is set as the theme would set it (partials/palette_start.html), its toggle shown
    assert page.evaluate("document.body.getAttribute('data-md-color-scheme')") == "default"
    assert page.locator("form[data-md-component=palette] label:not([hidden])").count() == 1
    page.locator("form[data-md-component=palette] label:not([hidden])").first.click()
    page.wait_for_selector(READY, state="attached", timeout=15_000)
    page.wait_for_function("document.body.getAttribute('data-md-color-scheme') === 'slate'")
    assert page.evaluate("""() => [...document.querySelectorAll('.md-typeset__scrollwrap')].every(
        w => w.tabIndex === 0 && !w.querySelector('table[tabindex]'))""")
    page.goto(site_url + f"scenes/{scene}/?from=a-link", wait_until="networkidle")
    page.wait_for_selector(READY, state="attached", timeout=15_000)
    ctx.close()
    ctx = chromium.new_context(viewport={"width": 390, "height": 900}, color_scheme="dark")
    page = ctx.new_page()
    page.goto(site_url + f"scenes/{scene}/", wait_until="networkidle")
    assert page.query_selector(READY) is None
    assert page.evaluate("document.body.getAttribute('data-md-color-scheme')") == "slate"
    page.keyboard.press("/")  # the first interaction is the theme's search key: it still opens search
    page.wait_for_selector(READY, state="attached", timeout=15_000)
    page.wait_for_function("document.activeElement && document.activeElement.matches('input.md-search__input')")
    ctx.close()


def test_the_animation_plays_from_its_poster_button(site_url, chromium):
    """The video has no controls until asked (pipeline/site/sections/player.py); the keyboard asks: the
    controls appear in place, it plays with captions on, focus moves to it. JavaScript off: the
    plain player from <noscript> shows and the poster button does not."""
    scene = CATALOGUE.built[0].id
    ctx = chromium.new_context(viewport={"width": 390, "height": 900})
    page = ctx.new_page()
    page.goto(site_url + f"scenes/{scene}/", wait_until="load")
    video = "document.querySelector('figure.w06-video video')"
    assert page.evaluate(f"{video}.controls") is False
    page.focus("a.w06-play")
    page.keyboard.press("Enter")
    page.wait_for_function(f"!{video}.paused && {video}.currentTime > 0", timeout=15_000)
    state = page.evaluate(f"""() => {{ const v = {video};
        return {{controls: v.controls, focused: document.activeElement === v, url: location.pathname,
                 button: document.querySelectorAll('a.w06-play').length,
                 captions: [...v.textTracks].map(t => t.mode)}}; }}""")
    assert state == {"controls": True, "focused": True, "url": f"/scenes/{scene}/", "button": 0,
                     "captions": ["showing"]}, state
    ctx.close()
    ctx = chromium.new_context(viewport={"width": 390, "height": 900}, java_script_enabled=False)
    page = ctx.new_page()
    page.goto(site_url + f"scenes/{scene}/", wait_until="load")
    shown = page.eval_on_selector_all(
        "figure.w06-video video", "vs => vs.map(v => [v.hasAttribute('controls'), v.offsetHeight > 100])")
    assert shown == [[False, False], [True, True]], shown
    assert not page.locator("a.w06-play").is_visible()
    ctx.close()


# --- the checks can fail: a small fixture site with one fault per page ---------
FIXTURE = {
    "index.html": '<a href="broken/">b</a> <a href="font/">f</a> <a href="poster/">p</a> <a href="alt/">a</a>',
    "broken/index.html": '<p><a href="../nowhere/">a link to nowhere</a></p>',
    "font/index.html": ("<style>@font-face{font-family:X;src:url(https://fonts.gstatic.com/s/x.woff2)}"
                        "body{font-family:X}</style><p>text in a web font</p>"),
    "poster/index.html": ('<video controls preload="none" poster="missing.png">'
                          '<source src="../clip.mp4" type="video/mp4"></video>'),
    "alt/index.html": '<img src="../figure.svg">',
    "mathclip/index.html": ('<p>inline <span style="display:inline-block;height:4px;overflow:hidden">'
                            '<math><mfrac><mi>n</mi><mrow><mi>p</mi><mi>B</mi></mrow></mfrac></math></span></p>'),
    "figure.svg": '<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"></svg>',
}


@pytest.fixture(scope="module")
def fixture_site(tmp_path_factory):
    root = tmp_path_factory.mktemp("fixture-site")
    # marked started, as the site's own pages are once the theme's script runs: audit() waits for it
    head = ('<!doctype html><html lang="en" data-w06-ready><head><meta charset="utf-8"><title>t</title>'
            '</head><body>')
    for rel, body in FIXTURE.items():
        p = root / rel
        p.parent.mkdir(parents=True, exist_ok=True)
        p.write_text(head + body + "</body></html>" if rel.endswith(".html") else body)
    with serve(root) as url:
        yield url


def _fixture_problems(chromium, url) -> list[str]:
    page = chromium.new_page()
    try:
        return audit(page, url, axe=False).problems
    finally:
        page.close()


@pytest.mark.parametrize("rel, expected", [
    ("broken/", ['<a href="', 'nowhere/">: broken link (HTTP 404)']),
    ("font/", ["request to another host: https://fonts.gstatic.com/s/x.woff2"]),
    ("poster/", ["<video> #1: poster", "does not load", "no captions <track>"]),
    ("alt/", ['<img src="../figure.svg">: missing or meaningless alt text']),
    ("mathclip/", ["<math> #1 (npB): clipped by <span>"]),
])
def test_each_fault_is_caught_and_named(fixture_site, chromium, rel, expected):
    problems = "\n".join(_fixture_problems(chromium, fixture_site + rel))
    for part in expected:
        assert part in problems, f"{part!r} not in:\n{problems}"
    assert f"{fixture_site}{rel}:" in problems  # the message names the page
