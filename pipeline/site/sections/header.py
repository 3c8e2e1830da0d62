"""The top of a scene page: its title and question, and what a page without an exhibit says."""

from __future__ import annotations

import html

from pipeline.site.context import Page
from pipeline.site.sections import scenario_notes


def scene_header(page: Page) -> str:
    """The scene's title and question; under another scenario, the banner that says so.

    It also starts the page's reference list with the catalogue's sources, in their order; the
    page's own citations follow."""
    s = page.scene()
    page.cites.keys = list(s.sources)
    head = f"# {s.label} · {s.title}\n\n<p class=\"w06-question\">{html.escape(s.question)}</p>\n"
    return head + (scenario_notes.banner(page, s) if page.build.other_scenario else "")


def pending() -> str:
    """A planned scene's page: it has no exhibit yet."""
    return ('<p class="w06-pending"><strong>Not built yet.</strong> This scene has no model, '
            "figure or animation yet; this page says so plainly.</p>")


def not_computed(scene_id: str) -> str:
    """A built scene whose model has not run in this build/."""
    return ('<p class="w06-pending"><strong>Not built in this build.</strong> The model for this '
            f"scene has not run here yet: <code>make scene S={scene_id}</code> or <code>make</code>.</p>")
