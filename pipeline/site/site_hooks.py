"""MkDocs hooks: derive nav and missing pages from the catalogue, add build/ artifacts.

MkDocs only *reads* build/ (rendering inside MkDocs events would make
`mkdocs serve` loop). Only outputs recorded in the manifest are published,
and only when every recorded output's bytes match its recorded hash and
every scene's outputs are one consistent set (Manifest.mixed): otherwise the
site build stops with the file or scene named, and the previous site/ stays.
So a half-written or out-of-order file from an interrupted build can never
reach the site.
"""

from __future__ import annotations

import html
import posixpath
import re
import sys
from functools import lru_cache
from pathlib import Path

from mkdocs.structure.files import File

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from design import css  # noqa: E402
from pipeline import paths, scenarios  # noqa: E402
from pipeline.catalogue import load_cached  # noqa: E402
from pipeline.engine.manifest import Manifest  # noqa: E402
from pipeline.site.sections.citations import drop_repeated_marks  # noqa: E402
from pipeline.site.shared import glossary, preset, site_path  # noqa: E402

PENDING_PAGE = "{{ scene_header() }}\n\n{{ pending() }}\n"
MODULE_PAGE = "{{{{ module_page('{id}') }}}}\n"
GLOSSARY_PAGE = "{{ glossary_page() }}\n"
UNBUILT_MARK = " (not built yet)"


# --- the glossary (pipeline/site/shared.py): linked at first use on every page ---------
# text inside these is never linked: code, headings, links, math, and what is not prose
NO_LINK = {"code", "pre", "kbd", "samp", "a", "h1", "h2", "h3", "h4", "h5", "h6", "math", "script",
           "style", "svg", "abbr", "button", "label", "title", "textarea", "select", "video", "summary"}
VOID = {"area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "source", "track", "wbr"}
_TAG = re.compile(r"(<!--.*?-->|<[^>]+>)", re.S)
_TAG_NAME = re.compile(r"<\s*(/)?\s*([a-zA-Z][a-zA-Z0-9]*)")


def term_pattern(term: str) -> re.Pattern:
    # whole words only, a plural "s" allowed: "TLPs" is a use of TLP, "SuperPOD" is not of SU
    return re.compile(r"(?<![\w/.\-])" + re.escape(term) + r"s?(?![\w\-])")


@lru_cache(maxsize=1)
def _patterns() -> list[tuple[dict, re.Pattern]]:
    return [(e, term_pattern(e["term"])) for e in glossary()]


def _segments(content: str):
    """(is_linkable_text, piece) for each piece of an HTML fragment, in order."""
    depth = 0
    for piece in _TAG.split(content):
        if not piece:
            continue
        if piece.startswith("<"):
            m = _TAG_NAME.match(piece)
            if m and m.group(2).lower() in NO_LINK and not piece.rstrip().endswith("/>"):
                depth += -1 if m.group(1) else 1
                depth = max(depth, 0)
            yield False, piece
        else:
            yield depth == 0, piece


def link_terms(content: str, glossary_url: str) -> str:
    """Link the first use of each glossary term in `content` to its entry."""
    unlinked = dict(_patterns_by_id())
    out = []
    for linkable, piece in _segments(content):
        if not linkable or not unlinked:
            out.append(piece)
            continue
        hits = sorted((m.start(), m.end(), eid) for eid, (e, pat) in unlinked.items() for m in [pat.search(piece)] if m)
        pos, text = 0, []
        for start, end, eid in hits:
            if start < pos:
                continue  # overlaps a term linked just now: its first use comes later
            entry = unlinked.pop(eid)[0]
            text += [piece[pos:start], f'<a class="w06-gloss" href="{glossary_url}#{eid}" '
                     f'title="{html.escape(entry["expansion"])}">{piece[start:end]}</a>']
            pos = end
        out.append("".join(text) + piece[pos:])
    return "".join(out)


@lru_cache(maxsize=1)
def _patterns_by_id() -> tuple:
    return tuple((e["id"], (e, pat)) for e, pat in _patterns())


def unlinked_terms(content: str) -> list[str]:
    """Glossary terms used in linkable text with no glossary link anywhere in `content`."""
    linked = set(re.findall(r'class="w06-gloss" href="[^"#]*#([^"]+)"', content))
    text = " ".join(piece for ok, piece in _segments(content) if ok)
    return [e["term"] for e, pat in _patterns() if e["id"] not in linked and pat.search(text)]


def on_page_content(content, page, config, files, **kwargs):
    # the switch goes in the header bar (docs/overrides/partials/alternate.html prints it)
    page.meta["w06_switch"] = scenario_switch(page.url)
    if page.file.src_uri == "glossary.md":
        return content
    page_dir = page.url.rstrip("/") if page.url.endswith("/") else posixpath.dirname(page.url)
    content = drop_repeated_marks(content)
    return focusable_tables(link_terms(content, posixpath.relpath("glossary", page_dir or ".") + "/"))


def on_page_markdown(markdown, page, config, files, **kwargs):
    """A page's Markdown, its macros filled in (the macros plugin runs first), passes the Markdown check
    (pipeline/site/page_checks.py: number_opens_a_line), or the site is not built."""
    from mkdocs.exceptions import PluginError

    from pipeline.site.page_checks import number_opens_a_line
    found = number_opens_a_line(markdown)
    if found:
        where = (scenarios.current() + ": " if scenarios.current() else "") + page.file.src_uri
        raise PluginError(f"{where}: " + "; ".join(found))
    return markdown


def on_post_page(output, page, config, **kwargs):
    """Every built page passes the page checks (pipeline/site/page_checks.py), or the site is not built."""
    from mkdocs.exceptions import PluginError

    from pipeline.site.page_checks import page_defects
    found = page_defects(output)
    if found:
        where = (scenarios.current() + ": " if scenarios.current() else "") + page.file.src_uri
        raise PluginError(f"{where}: " + "; ".join(found))
    return output


def focusable_tables(content: str) -> str:
    """A tab stop on every table the theme styles (`table:not([class])`) and every code block: until
    the theme's script starts (partials/theme_start.html), each is its own scrolling box on a phone,
    and a box that scrolls must be reachable by keyboard (axe: scrollable-region-focusable). The
    theme gives code blocks the same tab stop when it starts; it wraps a table in its scrolling box,
    and site.js moves the tab stop to the box."""
    return re.sub(r"<pre>(<span></span>)?<code>", r'<pre>\1<code tabindex="0">',
                  content.replace("<table>", '<table tabindex="0">'))


def scenario_switch(page_url: str) -> str:
    """Plain links to this same page under every scenario whose pages this build has:
    a menu in the header bar, in the theme's slot for a language selector and with its CSS-only
    `md-select` (it opens on hover and on keyboard focus), so no script is needed."""
    cat = load_cached(scenario=scenarios.current() or None)
    if not cat.scenarios:
        return ""
    built = set(scenarios.built(Manifest().entries))
    shown = [s for s in cat.scenarios if s.default or s.id in built]
    if len(shown) < 2:
        return ""
    here = scenarios.current() or cat.default_scenario
    hrefs = dict(scenarios.switch_links(page_url, here, [s.id for s in shown], cat.default_scenario))
    items = []
    for s in shown:
        current = ' aria-current="page"' if s.id == here else ""
        items.append(f'<li class="md-select__item"><a class="md-select__link" href="{hrefs[s.id]}"{current} '
                     f'title="{html.escape(s.title)}">{html.escape(s.short)}</a></li>')
    now = next(s for s in shown if s.id == here)
    return ('<nav class="md-header__option w06-scenario-switch" aria-label="Scenario"><div class="md-select">'
            f'<button class="md-header__button w06-scenario-button" title="{html.escape(now.title)}">'
            f'{SWITCH_ICON}<span class="w06-scenario-name"><span class="w06-scenario-word">Scenario: </span>'
            f'{html.escape(now.short)}</span></button>'
            '<div class="md-select__inner"><ul class="md-select__list">' + "".join(items)
            + "</ul></div></div></nav>")


SWITCH_ICON = ('<svg aria-hidden="true" xmlns="http://www.w3.org/2000/svg" viewBox="0 0 24 24">'
               '<path d="m21 9-4-4v3h-7v2h7v3M7 11l-4 4 4 4v-3h7v-2H7z"/></svg>')  # mdi swap-horizontal (Apache 2.0)


# --- nav: from the catalogue, unbuilt scenes marked and skipped by previous/next ----
def on_config(config, **kwargs):
    cat = load_cached(scenario=scenarios.current() or None)
    nav: list = [{"Home": "index.md"}]
    for m in cat.modules:
        scenes = cat.in_module(m.id)
        if m.id == "case-study":
            nav += [{f"Case study · {s.title}" + ("" if s.built else UNBUILT_MARK): f"scenes/{s.id}.md"}
                    for s in scenes]
            continue
        nav.append({f"{m.number} · {m.title}": [f"modules/{m.id}.md"] +
                    [{f"{s.number:02d} · {s.title}" + ("" if s.built else UNBUILT_MARK): f"scenes/{s.id}.md"}
                     for s in scenes]})
    nav.append({"For presenters": "presenters.md"})
    nav.append({"Glossary": "glossary.md"})
    config["nav"] = nav
    if cat.scenarios:  # the header's language-selector slot shows the scenario switch (a bool, not a list:
        config["extra"]["alternate"] = True  # a list would also print hreflang links)
    # the count is the catalogue's, never typed
    config["site_description"] = (
        "How demand for AI compute flows through NVLink, the host bus, HBM, fabrics, storage, schedulers, "
        f"power and money: {len(cat.scenes)} explainer scenes with real numbers.")
    return config


def on_nav(nav, config, files, **kwargs):
    """Previous/next walk the journey through built pages only: never into a stub."""
    cat = load_cached(scenario=scenarios.current() or None)
    unbuilt = {f"scenes/{s.id}.md" for s in cat.scenes if not s.built}
    pages = nav.pages
    real = [p for p in pages if p.file.src_uri not in unbuilt]
    for p in pages:
        i = pages.index(p)
        before = [q for q in real if pages.index(q) < i]
        after = [q for q in real if pages.index(q) > i]
        p.previous_page = before[-1] if before else None
        p.next_page = after[0] if after else None
    return nav


def on_files(files, config, **kwargs):
    cat = load_cached(scenario=scenarios.current() or None)
    docs = Path(config["docs_dir"])
    for m in cat.modules:
        uri = f"modules/{m.id}.md"
        if m.id != "case-study" and not (docs / uri).exists():
            files.append(File.generated(config, uri, content=MODULE_PAGE.format(id=m.id)))
    for s in cat.scenes:
        uri = f"scenes/{s.id}.md"
        if not (docs / uri).exists():
            if s.built:
                raise SystemExit(f"catalogue.yml: scene {s.id!r} has an exhibit but no page docs/{uri}")
            files.append(File.generated(config, uri, content=PENDING_PAGE))
        elif not s.built:
            # an unfinished (scaffolded) scene's own page waits in docs/ until `make check` finds
            # nothing missing; until then readers get the "Not built yet" page
            files.remove(files.get_file_from_path(uri))
            files.append(File.generated(config, uri, content=PENDING_PAGE))
    files.append(File.generated(config, "glossary.md", content=GLOSSARY_PAGE))
    files.append(File.generated(config, "assets/palette.css", content=css.stylesheet()))
    manifest = Manifest()
    refused = manifest.verify()
    if scenarios.current():  # a scenario's pages read its own outputs (their figures drawn from its data)
        refused += [f"scene {s.id!r}: {why}" for s in cat.built
                    if (why := scenarios.mixed(manifest, scenarios.current(), s.id))]
    else:
        refused += [f"scene {s.id!r}: {why}" for s in cat.built if (why := manifest.mixed(s.id, preset()))]
    if refused:
        raise SystemExit("site not built: outputs do not match build/manifest.json, "
                         "run `python -m pipeline build` to rebuild them: " + "; ".join(refused))
    owned = manifest.outputs()
    for rel in sorted(owned):
        dest = site_path(rel, owned)
        src = paths.ROOT / rel
        if dest and not dest.startswith("../") and src.is_file():
            files.append(File.generated(config, dest, abs_src_path=str(src)))
    return files


# --- the 404 page: no absolute paths, so it works when the site is served under a subpath ---
_SITE_DIRS = ("scenes", "modules", "glossary", "assets", "search")
BASE_SCRIPT = (
    "<script>(function(){var p=location.pathname.split('/'),k=%s,i=-1;"
    "for(var j=1;j<p.length;j++){if(k.indexOf(p[j])>=0){i=j;break}}"
    "var root=i>0?p.slice(0,i).join('/')+'/':%s;"
    "document.write('<base href=\"'+root+'\">')})()</script>")


def on_post_build(config, **kwargs):
    _fix_404(config)
    _trim_theme_css(Path(config["site_dir"]))


def _trim_theme_css(site_dir: Path) -> None:
    """The theme's stylesheets, trimmed to the rules this build's pages can use (pipeline/site/css_purge.py)."""
    from mkdocs.exceptions import PluginError

    from pipeline.site.css_purge import CssError, purge_site
    try:
        purge_site(site_dir)
    except CssError as exc:
        raise PluginError(f"trimming the theme's CSS: {exc}") from None


def _fix_404(config) -> None:
    """A static host serves 404.html at any missing address, at any depth, so its links can be
    neither absolute (they miss a subpath) nor page-relative. They become relative to a <base>
    that a one-line script finds from the address: the path before the first of the site's
    own folders, else the path of `site_url` (or "/")."""
    page = Path(config["site_dir"]) / "404.html"
    if not page.is_file():
        return
    root = posixpath.join(urlparse_path(config.get("site_url") or "/"), "")
    page.write_text(relative_404(page.read_text(encoding="utf-8"), root), encoding="utf-8")


def relative_404(text: str, root: str) -> str:
    """The 404 page with every absolute link made relative to the site's root `root` (the path of
    `site_url`: "/" or, for a scenario's pages, "/scenario/<id>/"), and the <base> script that finds
    that root from the address. Stripping only the leading "/" would leave "scenario/<id>/assets/…"
    under a base that already ends in "/scenario/<id>/": every style and link doubled."""
    text = re.sub(r'((?:href|src)=")' + re.escape(root), r"\1", text)
    text = re.sub(r'((?:href|src)=")/(?!/)', r"\1", text)
    text = re.sub(r'((?:href|src)=")(\.?)"', r'\1./"', text)
    script = BASE_SCRIPT % ("[" + ",".join(f"'{d}'" for d in _SITE_DIRS) + "]", f"'{root}'")
    anchor = '<meta charset="utf-8">' if '<meta charset="utf-8">' in text else "<head>"
    return text.replace(anchor, anchor + "\n" + script, 1)


def urlparse_path(url: str) -> str:
    from urllib.parse import urlparse
    return urlparse(url).path or "/"
