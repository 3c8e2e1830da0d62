"""The exhibit block of a scene page: the animation with its transcript, then each figure in both
schemes, each followed by its Explore panel (pipeline/workers/explore.py) when it has one."""

from __future__ import annotations

import html
import json

from pipeline import paths
from pipeline.catalogue import Figure, Scene
from pipeline.site.context import Page
from pipeline.site.sections.player import player, transcript
from pipeline.workers import explore as explore_panels


def exhibit(page: Page) -> str:
    """The scene's animation and figures, or a line saying what is not rendered yet."""
    s = page.scene()
    out = animation(page, s)
    for f in s.figures:
        light = page.asset(paths.figure_svg(s.id, f.name, "light"))
        dark = page.asset(paths.figure_svg(s.id, f.name, "dark"))
        if not (light and dark):
            out.append(f'<p class="w06-pending">Figure “{html.escape(f.alt)}” is not drawn yet.</p>')
            continue
        out.append(figure(f.alt, light, dark))
        out.append(explore_for(page, s, f, light, dark))
    return "\n\n".join(o for o in out if o)


def animation(page: Page, s: Scene) -> list[str]:
    """The animation's figure and transcript, or a line saying it is not rendered at this preset."""
    preset = page.build.preset
    vid = page.asset(paths.video(s.id, preset))
    if not vid:
        return [f'<p class="w06-pending">The animation is not rendered at the '
                f"<code>{preset}</code> preset yet: <code>make scene S={s.id}</code>.</p>"]
    b = page.beats(s.id)
    other = page.build.other_scenario
    shown = player(s.title, vid, page.asset(paths.poster_web(s.id, preset)), page.asset(paths.captions(s.id, preset)))
    out = [video_figure(shown, b["duration"], page.build.default_short() if other else None,
                        other.short if other else None)]
    if b:
        out.append(transcript(b))
    return out


def video_figure(player_html: str, duration: float, default_short: str | None = None,
                 scenario_short: str | None = None) -> str:
    """The player in a figure with its caption; under another scenario (`scenario_short`), the
    caption says the animation is the default run's (`default_short`) and shows its numbers."""
    note = (f", rendered for the default scenario ({html.escape(default_short)}): its numbers are "
            f"that run's, not {html.escape(scenario_short)}'s" if scenario_short else "")
    return (f'<figure class="w06-video">\n{player_html}\n'
            f"<figcaption>Animation, {duration:.0f} s, with captions{note}.</figcaption>\n</figure>")


def figure(alt: str, light: str, dark: str) -> str:
    """A figure in both schemes, each shown only in its own (the theme's #only-light, #only-dark)."""
    alt = html.escape(alt)
    # lazy: the variant of the other scheme is never fetched, this one only when near view
    return (f'<figure class="w06-figure">\n'
            f'<img src="{light}#only-light" alt="{alt}" width="800" height="450" loading="lazy">\n'
            f'<img src="{dark}#only-dark" alt="{alt}" width="800" height="450" loading="lazy">\n'
            f"<figcaption>{alt}.</figcaption>\n</figure>")


def explore_for(page: Page, s: Scene, f: Figure, light: str, dark: str) -> str:
    """The figure's Explore panel if this build publishes one for it, else ""."""
    data_url = page.asset(explore_panels.explore_json(s.id))
    if not data_url:
        return ""
    panel = json.loads(explore_panels.explore_json(s.id).read_text(encoding="utf-8"))
    if panel["figure"] != f.name:
        return ""
    return explore_panel(panel, f"explore-{s.id}-{f.name}", f.alt,
                         {"panel": data_url, "light": light, "dark": dark,
                          "script": page.link("assets/explore.js")})


def explore_panel(panel: dict, panel_id: str, alt: str, links: dict[str, str]) -> str:
    """A <details> whose opening loads docs/assets/explore.js and the panel's JSON (nothing on first
    load), holding a Python-made table of key values for readers without JavaScript.

    `panel`: the panel's JSON (build/explore/<id>.json); `links`: page-relative links to that JSON
    ("panel"), the figure's two SVGs ("light", "dark") and the widget's script ("script")."""
    # data-search-exclude: the table repeats the panel's numbers at every stop, which no one searches for
    return (f'<details class="w06-explore" id="{panel_id}" data-search-exclude data-panel="{links["panel"]}" '
            f'data-light="{links["light"]}" data-dark="{links["dark"]}" data-script="{links["script"]}" '
            f'data-alt="{html.escape(alt)}">'
            f"<summary>{html.escape(panel['title'])}</summary>\n"
            f'<div class="w06-explore-fallback">{explore_table(panel)}</div>\n{explore_notes(panel)}</details>')


def explore_notes(panel: dict) -> str:
    """The panel's fixed sentences (what does not move, and why), under the table or the live widget alike:
    outside the fallback block, which the widget hides when it takes over."""
    return "".join(f'<p class="w06-explore-note">{html.escape(n)}</p>\n' for n in panel.get("notes", ()))


def in_sentence(label: str) -> str:
    """A slider's label inside a sentence: its first letter lower-cased, unless the first word is an
    acronym or a symbol ("GPUs in the cluster", "HBM share" keep theirs; lower() made them "gpus", "hbm")."""
    first = label.split(" ", 1)[0]
    if len(first) > 1 and first[1:].lower() != first[1:]:
        return label
    return label[:1].lower() + label[1:]


def explore_table(panel: dict) -> str:
    """The readouts at every stop of the first slider, the other sliders at the page's setting."""
    first, *rest = panel["sliders"]
    at = [x["default"] for x in rest]
    fixed = "".join(f", {html.escape(in_sentence(x['label']))} {html.escape(x['stops'][x['default']])}" for x in rest)
    head = "".join(f'<th scope="col">{html.escape(h)}</th>' for h in [first["label"], *panel["readouts"]])
    rows = []
    for i, stop in enumerate(first["stops"]):
        cell = panel["cells"][i]
        for j in at:
            cell = cell[j]
        mark = " (this page)" if i == first["default"] else ""
        rows.append(f'<tr><th scope="row">{html.escape(stop)}{mark}</th>'
                    + "".join(f"<td>{html.escape(v)}</td>" for v in cell["v"]) + "</tr>")
    caption = f"Key values by {html.escape(in_sentence(first['label']))}{fixed}, computed when the site was built"
    return f"<table><caption>{caption}</caption><thead><tr>{head}</tr></thead><tbody>{''.join(rows)}</tbody></table>"
