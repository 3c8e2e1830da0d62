"""What a scene page says about itself under a non-default scenario (pipeline/scenarios.py): the
banner under its title, and, when its written explanation cannot be shown, the note that replaces
it with what the model computed for this run."""

from __future__ import annotations

import html
import json

from models import units
from models.constants import CONSTANTS
from pipeline import scenarios
from pipeline.catalogue import Scene, model_function
from pipeline.site.context import Page
from pipeline.site.sections import citations, exhibit, reuse, tables


def banner(page: Page, s: Scene) -> str:
    """The scenario's name, whether this page is computed for it, and its values (folded)."""
    scen, tag = page.build.scen, citations.tagger(page)
    values = "".join(f"<li><code>{html.escape(k)}</code>: {scenario_value(scen, k, tag)}</li>"
                     for k in scen.raw_values)
    ran = (scenarios.not_modelled(page.build.cat, s) is None
           and "model_error" not in page.d.get("scenario", {"model_error": "no data"}))
    if not ran:  # the note below says why; nothing on the page is computed for this run
        return (f'<div class="w06-scenario-banner"><p><strong>Scenario: {html.escape(scen.title)}.</strong>'
                f"</p><details><summary>This scenario's values</summary><ul>{values}</ul></details></div>\n")
    default_short = page.build.default_short()
    held = held_inputs(scenarios.held_constants(page.build.cat, s), tag, default_short, scen.short)
    return (f'<div class="w06-scenario-banner"><p><strong>Scenario: {html.escape(scen.title)}.</strong> '
            f"The model, figures and tables on this page are computed for this run. The animation is "
            f"rendered for the default scenario, {html.escape(default_short)}, and shows its numbers."
            f"</p>{held}<details><summary>This scenario's values</summary><ul>{values}</ul>"
            f"</details></div>\n")


def scenario_value(scen, key: str, tag_constant) -> str:
    """One of the scenario's values as the page shows it: a constant tagged and cited, else its name."""
    raw = scen.raw_values.get(key)
    if isinstance(raw, str) and raw.startswith("$const."):
        return tag_constant(raw.split(".", 1)[1])
    value = scen.values[key]
    return html.escape(str(getattr(value, "name", value)))


def held_inputs(held: list[str], tag_constant, default_short: str, scenario_short: str) -> str:
    """The default run's constants this scene still uses (scenarios.held_constants), or ""."""
    if not held:
        return ""
    items = "".join(f"<li>{html.escape(CONSTANTS[n].label or n)}: {tag_constant(n)}</li>" for n in held)
    return (f"<p>These inputs stay at {html.escape(default_short)}'s published values "
            f"({html.escape(scenario_short)} publishes none this model can take):</p><ul>{items}</ul>")


def differences(default_scene: Scene, s: Scene, spec: dict, default_short: str, scenario_short: str) -> str:
    """The inputs of this scene that the scenario changes: default value, then this run's ("" if none).

    `default_scene`: the scene as the default scenario declares it; `spec`: the model's parameters."""
    rows = []
    for name, raw in s.raw_params.items():
        old_raw = default_scene.raw_params.get(name)
        if raw == old_raw and not (isinstance(raw, str) and raw.startswith("$scenario.")):
            continue
        old, new = default_scene.params[name], s.params[name]
        if json.dumps(old, default=str) == json.dumps(new, default=str):
            continue
        p = spec[name]
        show = (lambda v: html.escape(str(getattr(v, "name", v)))) if p.kind == "entity" \
            else (lambda v, u=p.unit: units.fmt(v, u))
        rows.append(f"<tr><td>{html.escape(p.label)}</td><td>{show(old)}</td><td>{show(new)}</td></tr>")
    if not rows:
        return ""
    return (f'<table><thead><tr><th>Input</th><th>{html.escape(default_short)}</th>'
            f"<th>{html.escape(scenario_short)}</th></tr></thead><tbody>{''.join(rows)}</tbody></table>")


def scenario_page(page: Page) -> str:
    """The page of a scene under a non-default scenario when its written explanation cannot be
    shown: not modelled (a dense model, a MoE run), refused, claims that fail, or prose that
    names the default run. It says which, plainly, and shows what the model computed."""
    s, build = page.scene(), page.build
    short, default_short = html.escape(build.scen.short), html.escape(build.default_short())
    info = page.d.get("scenario", {})
    # the scene's page under the default scenario, whose site is two folders up
    link = f'<a href="{page.link(f"../../scenes/{s.id}/")}">the {default_short} page</a>'
    why = scenarios.not_modelled(build.cat, s)
    if why is not None:
        return (f'<div class="w06-scenario-note"><p><strong>Not modelled for {short}.'
                f"</strong> This scene's model assumes a dense transformer: {html.escape(why)}. "
                f"{short} is a mixture of experts, so the model's numbers would be "
                f"wrong for it and this page shows none. The scene, for {default_short}, "
                f"is on {link}.</p></div>\n\n## Sources\n\n" + citations.sources(page.cites.keys))
    changed = differences(build.base.scene(s.id), s, model_function(s).params, build.default_short(),
                          build.scen.short)
    if "model_error" in info:
        return (f'<div class="w06-scenario-note"><p><strong>The model does not run with '
                f"{short}'s values:</strong> {html.escape(info['model_error'])}.</p>"
                f"<p>What differs:</p>{changed}<p>The scene, for {default_short}, "
                f"is on {link}.</p></div>\n\n## Sources\n\n" + citations.sources(page.cites.keys))
    note = claims_note(info.get("claims_failed", []), default_short, short)
    return (f'<div class="w06-scenario-note">{note}<p>What differs:</p>{changed}'
            f"<p>This page shows what the model computed for {short}; the explanation "
            f"is on {link}.</p></div>\n\n" + exhibit.exhibit(page) + "\n\n## Parameters\n\n"
            + tables.page_params_table(page) + "\n\n## Key numbers\n\n" + tables.numbers_table(page.d["table"])
            + "\n\n## Reuse\n\n" + reuse.reuse(page) + "\n\n## Sources\n\n" + citations.sources(page.cites.keys))


def claims_note(failed: list[str], default_short: str, scenario_short: str) -> str:
    """Which of the explanation's claims fail for this run, or why it is not repeated when none
    does. Both names come escaped for HTML."""
    if not failed:
        return (f"<p>Every worded claim the model checks holds with {scenario_short}'s values, "
                f"but the explanation is written for {default_short} and names it, so "
                "it is not repeated here.</p>")
    items = "".join(f"<li>“{html.escape(c)}” does not hold with these values.</li>" for c in failed)
    return (f"<p><strong>{len(failed)} of the statements the explanation makes for "
            f"{default_short} {'does' if len(failed) == 1 else 'do'} not hold for "
            f"{scenario_short}</strong> (the model checks each one):</p><ul>{items}</ul>")
