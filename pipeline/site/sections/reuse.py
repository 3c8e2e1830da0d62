"""The "Reuse" block of a scene page (its published files to download, the licence, the presenter
kit) and the "For presenters" page (every built scene's kit)."""

from __future__ import annotations

import html

from pipeline import paths
from pipeline.site import kit_site
from pipeline.site.context import Page

LICENSE = ('Media, figures, data and text: <a href="https://creativecommons.org/licenses/by/4.0/">'
           "CC BY 4.0</a>. Code: MIT.")


def reuse(page: Page) -> str:
    """The scene's downloads this build publishes, the licence, then "Reuse in a talk"."""
    s = page.scene()
    preset = page.build.preset
    files = [
        (f"Animation (MP4, {preset})", paths.video(s.id, preset)),
        ("Poster frame (PNG)", paths.poster(s.id, preset)),
        ("Captions (WebVTT)", paths.captions(s.id, preset)),
        *[(f"Figure “{f.name}” (SVG, light)", paths.figure_svg(s.id, f.name, "light")) for f in s.figures],
        *[(f"Figure “{f.name}” (SVG, dark)", paths.figure_svg(s.id, f.name, "dark")) for f in s.figures],
        ("Model output (JSON)", paths.data_json(s.id)),
        ("Numbers table (CSV)", paths.data_csv(s.id)),
    ]
    links = [(label, href) for label, p in files if (href := page.asset(p))]
    kit = kit_site.reuse_block(s, kit_site.kit_files(page.build.owned, s.id), page.href, page.site_url + page.url)
    # the same download labels and licence on every page: nothing a reader searches for, so out of the index
    return f"<div data-search-exclude>\n{downloads(links)}\n{kit}\n</div>"


def downloads(links: list[tuple[str, str]]) -> str:
    """(label, page-relative link) as a list of downloads, then the licence."""
    items = [f'<li><a href="{href}" download>{html.escape(label)}</a></li>' for label, href in links]
    return "\n".join(['<ul class="w06-downloads">', *items, "</ul>", f"<p>{LICENSE}</p>"])


def presenters_table(page: Page) -> str:
    """The "For presenters" page: every built scene's kit in one table (pipeline/site/kit_site.py)."""
    return kit_site.presenters_table(page.build.cat.built, page.build.owned, page.href,
                                     lambda s: page.link(f"scenes/{s.id}/"))
