"""What search engines and shared links read, on every page of the built site.

Every page: one meta description of its own (a scene's from its question and takeaway), a canonical
link at the site's address, Open Graph and Twitter card tags; a scene page's og:image is its poster
frame and resolves to a file in this build. The sitemap lists every page, robots.txt names it, and
the 404 page wears the site's theme. Reads site/ as built (the preview_site fixture); marked
`browser` so the deploy workflow's gate runs it on the release site too (W06_GATE_PREBUILT=1).
"""

from __future__ import annotations

import html
import os
import re
from pathlib import Path

import pytest

from pipeline.catalogue import load
from pipeline.site.seo_hooks import DESCRIPTION_MAX, clip, text_of

pytestmark = [pytest.mark.browser]
ROOT = Path(__file__).resolve().parent.parent
CAT = load()


def meta(page: str, attr: str, name: str) -> list[str]:
    return [html.unescape(m) for m in re.findall(rf'<meta {attr}="{re.escape(name)}" content="([^"]*)"', page)]


def site_url_of(site: Path) -> str:
    m = re.search(r"^Sitemap: (\S+)sitemap\.xml$", (site / "robots.txt").read_text(), re.M)
    assert m, "robots.txt names no sitemap"
    return m.group(1)


def pages_of(site: Path) -> dict[str, str]:
    """{address relative to the site: html} for one site (the default's, or one scenario's)."""
    pages = {}
    for p in site.rglob("index.html"):
        rel = p.parent.relative_to(site).as_posix()
        if rel.split("/")[0] not in ("assets", "search", "scenario"):
            pages["" if rel == "." else rel + "/"] = p.read_text(encoding="utf-8")
    return pages


@pytest.fixture(scope="module")
def built(preview_site):
    return preview_site, site_url_of(preview_site), pages_of(preview_site)


def test_each_scenario_is_a_site_of_its_own_at_its_own_address(built):
    site, url, default_pages = built
    scenario_sites = sorted((site / "scenario").iterdir()) if (site / "scenario").is_dir() else []
    assert scenario_sites, "no scenario pages in this build (make builds every scenario)"
    robots = (site / "robots.txt").read_text()
    problems = []
    for root in scenario_sites:
        here = f"{url}scenario/{root.name}/"
        pages = pages_of(root)
        assert set(pages) == set(default_pages), root.name  # the same pages, with that run's numbers
        locs = re.findall(r"<loc>([^<]+)</loc>", (root / "sitemap.xml").read_text())
        assert sorted(locs) == sorted(here + rel for rel in pages), root.name
        assert f"Sitemap: {here}sitemap.xml" in robots
        assert not (root / "robots.txt").exists()  # crawlers read it at the root only
        for rel, page in pages.items():
            canon = re.findall(r'<link rel="canonical" href="([^"]+)"', page)
            if canon != [here + rel] or meta(page, "property", "og:url") != [here + rel]:
                problems.append(f"scenario/{root.name}/{rel}: canonical {canon}, expected {here + rel}")
            for img in meta(page, "property", "og:image"):  # the default's poster: a file of the whole site
                if not img.startswith(url) or not (site / img[len(url):]).is_file():
                    problems.append(f"scenario/{root.name}/{rel}: og:image {img} is not a file of this site")
    assert not problems, "\n".join(problems)


def test_site_url_comes_from_one_place(built):
    _, url, _ = built
    configured = re.search(r'^site_url: !ENV \[W06_SITE_URL, "([^"]+)"\]$', (ROOT / "mkdocs.yml").read_text(), re.M)
    assert configured, "mkdocs.yml: site_url must be `!ENV [W06_SITE_URL, <fallback>]`"
    if not os.environ.get("W06_GATE_PREBUILT"):  # the fixture built it here, with this environment
        assert url == (os.environ.get("W06_SITE_URL") or configured.group(1))
    assert re.fullmatch(r"https?://[^/]+(/.*)?/", url), url


def test_a_fork_sets_the_address_in_one_place(monkeypatch):
    """What the deploy workflow does: W06_SITE_URL (GitHub Pages' address, no trailing slash) is the site_url."""
    from mkdocs.config import load_config

    monkeypatch.setenv("W06_SITE_URL", "https://someone.github.io/their-fork")
    assert load_config(str(ROOT / "mkdocs.yml")).site_url == "https://someone.github.io/their-fork/"


def test_every_page_has_its_description_canonical_and_card(built):
    site, url, pages = built
    assert len(pages) == 1 + len(CAT.scenes) + 6 + 2  # home, scenes, module pages, glossary, for presenters
    problems, descriptions = [], {}
    for rel, page in sorted(pages.items()):
        where = rel or "(home)"
        desc = meta(page, "name", "description")
        if len(desc) != 1 or not 40 <= len(desc[0]) <= DESCRIPTION_MAX:
            problems.append(f"{where}: meta description {desc!r}")
            continue
        descriptions[rel] = desc[0]
        canon = re.findall(r'<link rel="canonical" href="([^"]+)"', page)
        if canon != [url + rel]:
            problems.append(f"{where}: canonical {canon}, expected {url + rel}")
        for prop in ("og:title", "og:description", "og:url", "og:type"):
            if len(meta(page, "property", prop)) != 1 or not meta(page, "property", prop)[0]:
                problems.append(f"{where}: no {prop}")
        if meta(page, "property", "og:description") != desc:
            problems.append(f"{where}: og:description differs from the meta description")
        if len(meta(page, "name", "twitter:card")) != 1:
            problems.append(f"{where}: no twitter:card")
    assert not problems, "\n".join(problems)
    # a page of its own: no two pages share a description
    assert len(set(descriptions.values())) == len(descriptions)
    assert descriptions[""] == meta(pages[""], "name", "description")[0]


def test_scene_descriptions_are_question_and_takeaway_and_images_resolve(built):
    site, url, pages = built
    problems = []
    for s in CAT.scenes:
        page = pages[f"scenes/{s.id}/"]
        desc = meta(page, "name", "description")[0]
        if not desc.startswith(s.question):
            problems.append(f"scenes/{s.id}: description does not open with the question: {desc!r}")
        takeaway = re.search(r'<p class="admonition-title">Takeaway</p>(.*?)</div>', page, re.S)
        if s.built and takeaway:
            words = " ".join(text_of(takeaway.group(1)).split()[:6])
            if words not in desc:
                problems.append(f"scenes/{s.id}: description lacks the takeaway's opening {words!r}")
        images = meta(page, "property", "og:image")
        poster = site / "assets" / "media" / f"{s.id}.png"
        if poster.is_file() and images != [f"{url}assets/media/{s.id}.png"]:
            problems.append(f"scenes/{s.id}: og:image {images}, expected the poster frame")
        for img in images:  # never a dead one
            if not img.startswith(url) or not (site / img[len(url):]).is_file():
                problems.append(f"scenes/{s.id}: og:image {img} is not a file of this site")
        card = meta(page, "name", "twitter:card")
        if card != ["summary_large_image" if images else "summary"]:
            problems.append(f"scenes/{s.id}: twitter:card {card}")
    assert not problems, "\n".join(problems)
    assert any(meta(p, "property", "og:image") for p in pages.values()), "no scene page has an og:image"


def test_sitemap_lists_every_page_and_robots_names_it(built):
    site, url, pages = built
    locs = re.findall(r"<loc>([^<]+)</loc>", (site / "sitemap.xml").read_text())
    assert sorted(locs) == sorted(url + rel for rel in pages)
    assert "<lastmod>" not in (site / "sitemap.xml").read_text()  # no build date: the same site every build
    robots = (site / "robots.txt").read_text()
    assert re.search(r"^User-agent: \*$", robots, re.M) and re.search(r"^Allow: /$", robots, re.M)
    assert f"Sitemap: {url}sitemap.xml" in robots


def test_404_page_wears_the_site_theme(built):
    site, _, _ = built
    page = (site / "404.html").read_text(encoding="utf-8")
    assert "404" in page.split("<h1", 1)[1][:200]
    for part in ('class="md-header', 'class="md-footer', "assets/site.css", "assets/palette.css",
                 "assets/stylesheets/main."):
        assert part in page, f"404.html: {part} missing"
    assert meta(page, "name", "description")


def test_clip_keeps_whole_sentences_or_words():
    first = "A first sentence " + "that goes on " * 14 + "to its end."
    assert clip(first + " Then another " + "word " * 60) == first  # whole sentences when they fill half
    long_sentence = "A " + "b" * 10 + " " + "c " * 200
    out = clip(long_sentence)
    assert len(out) <= DESCRIPTION_MAX and out.endswith("…") and not out.endswith(" …")
    assert clip("short") == "short"
    assert text_of('x <sup class="w06-cite"><a href="#r">[1]</a></sup>: y &amp; <b>z</b>') == "x: y & z"


def test_gzipped_sitemap_is_the_sitemap_with_no_build_time(preview_site):
    import gzip

    blob = (preview_site / "sitemap.xml.gz").read_bytes()
    assert blob[4:8] == b"\0\0\0\0", "the gzip header carries a build time: the site differs build to build"
    assert gzip.decompress(blob) == (preview_site / "sitemap.xml").read_bytes()
