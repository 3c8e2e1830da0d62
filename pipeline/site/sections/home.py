"""The home page and the module pages: the journey through the modules, each module's path of
questions, a card per built scene and one folded line per planned one, the signature animation."""

from __future__ import annotations

import html
from pathlib import Path

import yaml

from pipeline import paths
from pipeline.catalogue import CATALOGUE
from pipeline.site.context import Page
from pipeline.site.sections.player import player

CASE_STUDY = "case-study"  # the closing case study: a module of the catalogue with no module page


def card(page: Page, s) -> str:
    """A scene's card: its poster frame (when built), number, title and question, linking to its page."""
    href = page.link(f"scenes/{s.id}/")
    img = page.asset(paths.card(s.id, page.build.preset)) if s.built else None
    thumb = (f'<img src="{img}" alt="Poster frame of the {html.escape(s.title)} animation" '
             f'loading="lazy" width="427" height="240">' if img
             else '<span class="w06-card-empty">poster not rendered in this build</span>')
    return (f'<a class="w06-card" href="{href}">{thumb}'
            f'<span class="w06-card-num">{s.label}</span>'
            f'<span class="w06-card-title">{html.escape(s.title)}</span>'
            f'<span class="w06-card-q">{html.escape(s.question)}</span></a>')


def planned(page: Page, scenes) -> str:
    """Scenes not built yet: one compact, folded line each, never a full-size empty card."""
    if not scenes:
        return ""
    items = "".join(f'<li><a href="{page.link(f"scenes/{s.id}/")}">{s.label} · {html.escape(s.title)}</a>'
                    f' <span class="w06-planned-q">{html.escape(s.question)}</span></li>' for s in scenes)
    return (f'<details class="w06-planned"><summary>{len(scenes)} more '
            f'{"scene" if len(scenes) == 1 else "scenes"} planned, not built yet</summary>'
            f"<ul>{items}</ul></details>")


def module_cards(page: Page, module_id: str) -> str:
    """A module's built scenes as cards, then its planned ones folded."""
    scenes = page.build.cat.in_module(module_id)
    built = [s for s in scenes if s.built]
    cards = '<div class="w06-cards">' + "".join(card(page, s) for s in built) + "</div>" if built else ""
    return cards + planned(page, [s for s in scenes if not s.built])


def intro(module_id: str, catalogue: Path = CATALOGUE) -> str:
    """A module's opening prose, the catalogue's optional `intro:` (no model needs it, so it is read
    from catalogue.yml as written)."""
    for m in yaml.safe_load(Path(catalogue).read_text(encoding="utf-8"))["modules"]:
        if m["id"] == module_id:
            return m.get("intro", "")
    return ""


def module_page(page: Page, module_id: str) -> str:
    """A module's page: its title, introduction, its scenes' questions in order, then its cards."""
    m = page.build.cat.module(module_id)
    scenes = page.build.cat.in_module(module_id)
    built = sum(s.built for s in scenes)
    path = " → ".join(f"{html.escape(s.question)}" for s in scenes)
    return (f"# Module {m.number} · {m.title}\n\n{intro(module_id)}\n\n"
            f'<p class="w06-path"><strong>The questions, in order:</strong> {path}</p>\n\n'
            f"{built} of {len(scenes)} scenes built.\n\n" + module_cards(page, module_id))


def journey(page: Page) -> str:
    """Every module in order, a heading and its cards each."""
    parts = []
    for m in page.build.cat.modules:
        heading = m.title if m.id == CASE_STUDY else f"Module {m.number} · {m.title}"
        link = "" if m.id == CASE_STUDY else f' <a href="{page.link(f"modules/{m.id}/")}">(module page)</a>'
        parts.append(f'<h2 id="{m.id}">{html.escape(heading)}{link}</h2>\n{module_cards(page, m.id)}')
    return "\n".join(parts)


def journey_at_a_glance(page: Page) -> str:
    """The six modules in one ordered list: the path a newcomer takes."""
    items = []
    for m in page.build.cat.modules:
        if m.id == CASE_STUDY:
            continue
        scenes = page.build.cat.in_module(m.id)
        built = sum(s.built for s in scenes)
        items.append(f'<li><a href="{page.link(f"modules/{m.id}/")}"><strong>{html.escape(m.title)}</strong></a>'
                     f" — {html.escape(scenes[0].question)} "
                     f'<span class="w06-count">({built} of {len(scenes)} scenes built)</span></li>')
    return '<ol class="w06-glance">' + "".join(items) + "</ol>"


def signature(page: Page) -> str:
    """One signature animation for the home page: the first built scene with a video."""
    preset = page.build.preset
    for s in page.build.cat.built:
        vid = page.asset(paths.video(s.id, preset))
        if vid:
            shown = player(s.title, vid, page.asset(paths.poster_web(s.id, preset)),
                           page.asset(paths.captions(s.id, preset)))
            return (f'<figure class="w06-video w06-signature">\n{shown}\n'
                    f'<figcaption>From scene {s.label}, <a href="{page.link(f"scenes/{s.id}/")}">'
                    f"{html.escape(s.title)}</a>: {html.escape(s.question)}</figcaption>\n</figure>")
    return ""
