"""The page macros: everything a page needs from the build, in one module.

Pages are plain Markdown plus these calls, so moving off MkDocs later means
porting this file, not the pages. A scene page sees `d`, its model output;
every number in its prose goes through `d` or `const_tag`, never typed in.
"""

from __future__ import annotations

import html
import json
import posixpath
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import latex2mathml.converter  # noqa: E402

from models import units  # noqa: E402
from models.constants import CONSTANTS, SOURCES  # noqa: E402
from pipeline import paths, scenarios  # noqa: E402
from pipeline.catalogue import CATALOGUE, load, load_cached, model_function  # noqa: E402
from pipeline.engine.manifest import Manifest  # noqa: E402
from pipeline.site_hooks import preset, site_path  # noqa: E402
from pipeline.workers import explore as explore_panels  # noqa: E402
from pipeline.workers.captions import timestamp  # noqa: E402

# the poster's play button (player() below): the video's own controls, in place, and playing
PLAY_HANDLER = ("var v=this.parentNode.querySelector('video');v.controls=true;v.play();v.focus();"
                "this.remove();return false")

LICENSE = ('Media, figures, data and text: <a href="https://creativecommons.org/licenses/by/4.0/">'
           "CC BY 4.0</a>. Code: MIT.")

def fmt(value, unit: str) -> str:
    """A value in its unit: the one convention lives in models/units.py."""
    return units.fmt(value, unit)


def load_raw() -> dict:
    """catalogue.yml as written: for the optional fields the page reads and no model needs (intro)."""
    import yaml
    return yaml.safe_load(Path(CATALOGUE).read_text(encoding="utf-8"))


def define_env(env):
    cat = load_cached(scenario=scenarios.current() or None)
    # issue 19: under a non-default scenario `scen` is that run; `base` is the default catalogue
    scen = cat.get_scenario() if cat.scenarios else None
    base = cat if (scen is None or scen.default) else load(CATALOGUE)
    published = {rel: site_path(rel) for rel in Manifest().outputs()}
    published = {k: v for k, v in published.items() if v}
    owned = set(Manifest().outputs())
    state = {"cites": []}

    # --- page context ---------------------------------------------------------
    def page_scene():
        src = env.page.file.src_uri
        if not src.startswith("scenes/"):
            raise ValueError(f"{src}: this macro belongs on a scene page")
        return cat.scene(Path(src).stem)

    def url(site_rel: str) -> str:
        """A link from the current page to a site path, relative (works offline)."""
        page_url = env.page.url  # "scenes/ring-vs-tree/", or "" for the home page
        page_dir = page_url.rstrip("/") if page_url.endswith("/") else posixpath.dirname(page_url)
        rel = posixpath.relpath(site_rel, page_dir or ".")
        return rel + "/" if site_rel.endswith("/") and not rel.endswith("/") else rel

    def asset(build_path: Path) -> str | None:
        """The page-relative URL of a recorded build output, or None if not built."""
        dest = published.get(paths.rel(build_path))
        return url(dest) if dest else None

    def beats(scene_id: str) -> dict | None:
        p = paths.beats(scene_id, preset())
        return json.loads(p.read_text()) if paths.rel(p) in published else None

    # --- formatting filters ---------------------------------------------------
    env.filter(units.fmt_bytes, "bytes")
    env.filter(units.fmt_seconds, "seconds")
    env.filter(units.fmt_rate, "rate")
    env.filter(units.fmt_count, "count")
    env.filter(units.fmt_percent, "percent")
    env.filter(units.sig, "sig")
    env.filter(units.fmt_words, "words")
    env.filter(units.fmt_usd, "usd")

    @env.macro
    def math(tex: str) -> str:
        # the span keeps Markdown from taking a line that starts with <math> for a block
        return '<span class="w06-m">' + latex2mathml.converter.convert(tex) + "</span>"

    @env.macro
    def math_block(tex: str) -> str:
        # focusable, so a keyboard can scroll an equation wider than a phone
        return '<div class="w06-math" tabindex="0">' + latex2mathml.converter.convert(tex, display="block") + "</div>"

    # --- citations --------------------------------------------------------------
    @env.macro
    def cite(key: str) -> str:
        if key not in SOURCES:
            raise KeyError(f"{env.page.file.src_uri}: cite({key!r}): no such source in models/constants.py")
        if key not in state["cites"]:
            state["cites"].append(key)
        n = state["cites"].index(key) + 1
        return f'<sup class="w06-cite"><a href="#ref-{n}">[{n}]</a></sup>'

    @env.macro
    def const_tag(name: str, digits: int = 3) -> str:
        if name not in CONSTANTS:
            raise KeyError(f"{env.page.file.src_uri}: const_tag({name!r}): no such constant")
        c = CONSTANTS[name]
        est = f"estimate, {fmt(c.estimate[0], c.unit)} to {fmt(c.estimate[1], c.unit)}" if c.estimate else ""
        tag = ", ".join(t for t in (c.direction, c.scope, est) if t)
        value = fmt(c.value, c.unit)
        tag_html = f' <span class="w06-tag">{html.escape(tag)}</span>' if tag else ""
        return f"{value}{tag_html}{cite(c.source)}"

    @env.macro
    def sources() -> str:
        items = []
        for n, key in enumerate(state["cites"], 1):
            s = SOURCES[key]
            where = f", {html.escape(s.where)}" if s.where else ""
            items.append(f'<li id="ref-{n}">{html.escape(s.publisher)}. <a href="{html.escape(s.url)}">'
                         f"<cite>{html.escape(s.title)}</cite></a> ({s.year}){where}.</li>")
        return '<ol class="w06-sources">\n' + "\n".join(items) + "\n</ol>"

    # --- the scene page -----------------------------------------------------------
    @env.macro
    def scene_header() -> str:
        s = page_scene()
        state["cites"] = list(s.sources)  # the catalogue's order first, in-page cites after
        head = f"# {s.label} · {s.title}\n\n<p class=\"w06-question\">{html.escape(s.question)}</p>\n"
        return head + (scenario_banner(s) if scen is not None and not scen.default else "")

    # --- the scenario switch (issue 19): what a non-default scenario's page says about itself -------
    def default_short() -> str:
        return base.get_scenario().short

    def default_page(s) -> str:
        """A link to this scene's page under the default scenario (its site is two folders up)."""
        return url(f"../../scenes/{s.id}/")

    def scenario_banner(s) -> str:
        values = "".join(f"<li><code>{html.escape(k)}</code>: {scenario_value(k)}</li>" for k in scen.raw_values)
        ran = (scenarios.not_modelled(cat, s) is None
               and "model_error" not in env.variables["d"].get("scenario", {"model_error": "no data"}))
        if not ran:  # the note below says why; nothing on the page is computed for this run
            return (f'<div class="w06-scenario-banner"><p><strong>Scenario: {html.escape(scen.title)}.</strong>'
                    f"</p><details><summary>This scenario's values</summary><ul>{values}</ul></details></div>\n")
        held = scenarios.held_constants(cat, s)
        held_html = ""
        if held:
            items = "".join(f"<li>{html.escape(CONSTANTS[n].label or n)}: {const_tag(n)}</li>" for n in held)
            held_html = (f"<p>These inputs stay at {html.escape(default_short())}'s published values "
                         f"({html.escape(scen.short)} publishes none this model can take):</p><ul>{items}</ul>")
        return (f'<div class="w06-scenario-banner"><p><strong>Scenario: {html.escape(scen.title)}.</strong> '
                f"The model, figures and tables on this page are computed for this run. The animation is "
                f"rendered for the default scenario, {html.escape(default_short())}, and shows its numbers."
                f"</p>{held_html}<details><summary>This scenario's values</summary><ul>{values}</ul>"
                f"</details></div>\n")

    def scenario_value(key: str) -> str:
        raw = scen.raw_values.get(key)
        if isinstance(raw, str) and raw.startswith("$const."):
            return const_tag(raw.split(".", 1)[1])
        value = scen.values[key]
        return html.escape(str(getattr(value, "name", value)))

    def differences(s) -> str:
        """The inputs of this scene that the scenario changes: default value, then this run's."""
        d0 = base.scene(s.id)
        spec = model_function(s).params
        rows = []
        for name, raw in s.raw_params.items():
            old_raw = d0.raw_params.get(name)
            if raw == old_raw and not (isinstance(raw, str) and raw.startswith("$scenario.")):
                continue
            old, new = d0.params[name], s.params[name]
            if json.dumps(old, default=str) == json.dumps(new, default=str):
                continue
            p = spec[name]
            show = (lambda v: html.escape(str(getattr(v, "name", v)))) if p.kind == "entity" \
                else (lambda v, u=p.unit: fmt(v, u))
            rows.append(f"<tr><td>{html.escape(p.label)}</td><td>{show(old)}</td><td>{show(new)}</td></tr>")
        if not rows:
            return ""
        return (f'<table><thead><tr><th>Input</th><th>{html.escape(default_short())}</th>'
                f"<th>{html.escape(scen.short)}</th></tr></thead><tbody>{''.join(rows)}</tbody></table>")

    @env.macro
    def scenario_page() -> str:
        """The page of a scene under a non-default scenario when its written explanation cannot be
        shown: not modelled (a dense model, a MoE run), refused, claims that fail, or prose that
        names the default run. It says which, plainly, and shows what the model computed."""
        s = page_scene()
        d = env.variables["d"]
        info = d.get("scenario", {})
        link = f'<a href="{default_page(s)}">the {html.escape(default_short())} page</a>'
        why = scenarios.not_modelled(cat, s)
        if why is not None:
            return (f'<div class="w06-scenario-note"><p><strong>Not modelled for {html.escape(scen.short)}.'
                    f"</strong> This scene's model assumes a dense transformer: {html.escape(why)}. "
                    f"{html.escape(scen.short)} is a mixture of experts, so the model's numbers would be "
                    f"wrong for it and this page shows none. The scene, for {html.escape(default_short())}, "
                    f"is on {link}.</p></div>\n\n## Sources\n\n" + sources())
        if "model_error" in info:
            return (f'<div class="w06-scenario-note"><p><strong>The model does not run with '
                    f"{html.escape(scen.short)}'s values:</strong> {html.escape(info['model_error'])}.</p>"
                    f"<p>What differs:</p>{differences(s)}<p>The scene, for {html.escape(default_short())}, "
                    f"is on {link}.</p></div>\n\n## Sources\n\n" + sources())
        failed = info.get("claims_failed", [])
        if failed:
            items = "".join(f"<li>“{html.escape(c)}” does not hold with these values.</li>" for c in failed)
            note = (f"<p><strong>{len(failed)} of the statements the explanation makes for "
                    f"{html.escape(default_short())} {'does' if len(failed) == 1 else 'do'} not hold for "
                    f"{html.escape(scen.short)}</strong> (the model checks each one):</p><ul>{items}</ul>")
        else:
            note = (f"<p>Every worded claim the model checks holds with {html.escape(scen.short)}'s values, "
                    f"but the explanation is written for {html.escape(default_short())} and names it, so "
                    "it is not repeated here.</p>")
        return (f'<div class="w06-scenario-note">{note}<p>What differs:</p>{differences(s)}'
                f"<p>This page shows what the model computed for {html.escape(scen.short)}; the explanation "
                f"is on {link}.</p></div>\n\n" + exhibit() + "\n\n## Parameters\n\n" + params_table()
                + "\n\n## Key numbers\n\n" + numbers_table() + "\n\n## Reuse\n\n" + reuse()
                + "\n\n## Sources\n\n" + sources())

    @env.macro
    def pending() -> str:
        return ('<p class="w06-pending"><strong>Not built yet.</strong> This scene has no model, '
                "figure or animation yet; this page says so plainly.</p>")

    @env.macro
    def not_computed() -> str:
        s = page_scene()
        return ('<p class="w06-pending"><strong>Not built in this build.</strong> The model for this '
                f"scene has not run here yet: <code>make scene S={s.id}</code> or <code>make</code>.</p>")

    def player(s, vid: str) -> str:
        """A scene's animation as a poster with a play button, until the reader asks for it.

        Chromium builds a <video>'s own controls (a shadow tree, its style sheet, four icon
        images) as soon as `controls` is set, and on a phone that was the costliest block of the
        first load, a quarter of a second of blocked main thread in Lighthouse (issue 17). So the
        attribute comes with the first click: the button's inline handler needs no script file,
        works from the first paint, sets `controls`, plays with the captions track on and hands
        focus to the video. The button is a link to the MP4, so a click that no script handles
        still opens the animation in the browser's player; with JavaScript off the page shows
        the plain <video controls> from <noscript> instead (site.css hides the poster button)."""
        track = (f'<track kind="captions" src="{asset(paths.captions(s.id, preset()))}" '
                 f'srclang="en" label="English" default>')
        attrs = (f'playsinline preload="none" width="854" height="480" '
                 f'poster="{asset(paths.poster_web(s.id, preset()))}" '
                 f'aria-label="Animation: {html.escape(s.title)}"')
        return (f'<div class="w06-player">\n<video {attrs}>\n<source src="{vid}" type="video/mp4">\n'
                f'{track}\n</video>\n'
                f'<a class="w06-play" href="{vid}" onclick="{PLAY_HANDLER}">'
                f'<svg viewBox="0 0 24 24" aria-hidden="true" focusable="false"><path d="M8 5v14l11-7z"/></svg>'
                f'<span class="w06-play-label">Play the animation</span></a>\n</div>\n'
                f'<noscript><video controls {attrs}>\n<source src="{vid}" type="video/mp4">\n'
                f'{track}\n</video></noscript>')

    @env.macro
    def exhibit() -> str:
        s = page_scene()
        out = []
        vid = asset(paths.video(s.id, preset()))
        if vid:
            b = beats(s.id)
            out.append(
                f'<figure class="w06-video">\n{player(s, vid)}\n'
                f"<figcaption>Animation, {b['duration']:.0f} s, with captions"
                + (f", rendered for the default scenario ({html.escape(default_short())}): its numbers are "
                   f"that run's, not {html.escape(scen.short)}'s" if scen is not None and not scen.default else "")
                + ".</figcaption>\n</figure>")
            if b:
                out.append(transcript(b))
        else:
            out.append(f'<p class="w06-pending">The animation is not rendered at the '
                       f"<code>{preset()}</code> preset yet: <code>make scene S={s.id}</code>.</p>")
        for f in s.figures:
            light = asset(paths.figure_svg(s.id, f.name, "light"))
            dark = asset(paths.figure_svg(s.id, f.name, "dark"))
            if not (light and dark):
                out.append(f'<p class="w06-pending">Figure “{html.escape(f.alt)}” is not drawn yet.</p>')
                continue
            alt = html.escape(f.alt)
            # lazy: the variant of the other scheme is never fetched, this one only when near view
            out.append(f'<figure class="w06-figure">\n'
                       f'<img src="{light}#only-light" alt="{alt}" width="800" height="450" loading="lazy">\n'
                       f'<img src="{dark}#only-dark" alt="{alt}" width="800" height="450" loading="lazy">\n'
                       f"<figcaption>{alt}.</figcaption>\n</figure>")
            out.append(explore_panel(s, f, light, dark))
        return "\n\n".join(o for o in out if o)

    def explore_panel(s, f, light: str, dark: str) -> str:
        """The figure's Explore panel (pipeline/explore.py), if it has one: a <details> whose
        opening loads docs/assets/explore.js and the panel's JSON (nothing on first load), holding
        a Python-made table of key values for readers without JavaScript."""
        data_url = asset(explore_panels.explore_json(s.id))
        if not data_url:
            return ""
        panel = json.loads(explore_panels.explore_json(s.id).read_text(encoding="utf-8"))
        if panel["figure"] != f.name:
            return ""
        first, *rest = panel["sliders"]
        at = [x["default"] for x in rest]
        fixed = "".join(f", {html.escape(x['label'].lower())} {html.escape(x['stops'][x['default']])}" for x in rest)
        head = "".join(f'<th scope="col">{html.escape(h)}</th>' for h in [first["label"], *panel["readouts"]])
        rows = []
        for i, stop in enumerate(first["stops"]):
            cell = panel["cells"][i]
            for j in at:
                cell = cell[j]
            mark = " (this page)" if i == first["default"] else ""
            rows.append(f'<tr><th scope="row">{html.escape(stop)}{mark}</th>'
                        + "".join(f"<td>{html.escape(v)}</td>" for v in cell["v"]) + "</tr>")
        caption = f"Key values by {html.escape(first['label'].lower())}{fixed}, computed when the site was built"
        pid = f"explore-{s.id}-{f.name}"
        return (f'<details class="w06-explore" id="{pid}" data-panel="{data_url}" data-light="{light}" '
                f'data-dark="{dark}" data-script="{url("assets/explore.js")}" data-alt="{html.escape(f.alt)}">'
                f"<summary>{html.escape(panel['title'])}</summary>\n"
                f'<div class="w06-explore-fallback"><table><caption>{caption}</caption>'
                f"<thead><tr>{head}</tr></thead><tbody>{''.join(rows)}</tbody></table></div>\n</details>")

    @env.macro
    def params_table() -> str:
        """The model's parameters as readers name them, with units and where each comes from.

        Names, units and what is shown come from the model's declaration
        (models/exhibit.py); values that only pace or seed the animation are left out.
        """
        s = page_scene()
        fn = model_function(s)
        spec = fn.params
        rows = ["| Parameter | Value | From |", "| --- | --- | --- |"]
        for name, raw in s.raw_params.items():
            p = spec[name]
            if p.animation:
                continue
            unit, reader_name = p.unit, html.escape(p.label)
            # the value the data was computed with: a page whose scene is behind its inputs
            # shows its last build whole, never a new parameter beside old numbers
            value = env.variables["d"]["params"].get(name, s.params[name])
            if isinstance(raw, str) and raw.startswith("$const."):
                cname = raw.split(".", 1)[1]
                shown, origin = const_tag(cname), html.escape(CONSTANTS[cname].label or cname)
            elif isinstance(raw, str) and raw.startswith("$scenario."):
                name = value.get("name") if isinstance(value, dict) else getattr(value, "name", value)
                shown = html.escape(str(name)) if p.kind == "entity" else fmt(value, unit)
                origin = f"the scenario: <code>{raw.split('.', 1)[1]}</code>"
            elif isinstance(raw, str) and raw.startswith("$"):
                # an entity ($gpu.h100) reads back from the JSON as a dict: show its name
                name = value.get("name") if isinstance(value, dict) else getattr(value, "name", None)
                shown = html.escape(name or str(value))
                origin = f"datasheet figures, <code>{html.escape(raw)}</code> (sources below)"
            else:
                shown, origin = fmt(value, unit), "chosen for this page"
            rows.append(f"| {reader_name} | {shown} | {origin} |")
        return "\n".join(rows)

    @env.macro
    def numbers_table() -> str:
        t = env.variables["d"]["table"]
        cols = t["columns"]
        head = "| " + " | ".join(html.escape(c["name"]) for c in cols) + " |"
        sep = "| " + " | ".join("---" for _ in cols) + " |"
        body = ["| " + " | ".join(fmt(v, c["unit"]) for v, c in zip(row, cols, strict=True)) + " |"
                for row in t["rows"]]
        return "\n".join([f"*{html.escape(t['caption'])}*", "", head, sep, *body])

    @env.macro
    def reuse() -> str:
        s = page_scene()
        links = []
        for label, p in (
            (f"Animation (MP4, {preset()})", paths.video(s.id, preset())),
            ("Poster frame (PNG)", paths.poster(s.id, preset())),
            ("Captions (WebVTT)", paths.captions(s.id, preset())),
            *[(f"Figure “{f.name}” (SVG, light)", paths.figure_svg(s.id, f.name, "light")) for f in s.figures],
            *[(f"Figure “{f.name}” (SVG, dark)", paths.figure_svg(s.id, f.name, "dark")) for f in s.figures],
            ("Model output (JSON)", paths.data_json(s.id)),
            ("Numbers table (CSV)", paths.data_csv(s.id)),
        ):
            href = asset(p)
            if href:
                links.append(f'<li><a href="{href}" download>{html.escape(label)}</a></li>')
        out = ['<ul class="w06-downloads">', *links, "</ul>", f"<p>{LICENSE}</p>"]
        return "\n".join(out) + "\n" + talk_kit(s)

    def kit_href(rel: str) -> str | None:
        dest = published.get(rel)
        return url(dest) if dest else None

    def talk_kit(s) -> str:
        """The presenter kit's files this build made (pipeline/kit_site.py), and the attribution."""
        from pipeline import kit_site

        page_url = (env.conf.get("site_url") or "") + env.page.url
        return kit_site.reuse_block(s, kit_site.kit_files(owned, s.id), kit_href, page_url)

    @env.macro
    def presenters_table() -> str:
        """The "For presenters" page: every built scene's kit in one table."""
        from pipeline import kit_site

        return kit_site.presenters_table(cat.built, owned, kit_href, lambda s: url(f"scenes/{s.id}/"))

    def transcript(b: dict) -> str:
        """The beats' captions, folded right under the video where a reader looks for them."""
        items = "".join(f"<li><span class=\"w06-time\">{timestamp(x['start'])[3:8]}</span> "
                        f"{html.escape(x['caption'])}</li>" for x in b["beats"])
        return (f'<details class="w06-transcript" id="transcript"><summary>Transcript '
                f'({len(b["beats"])} beats)</summary>\n<ol>{items}</ol>\n</details>')

    # --- home and module pages ----------------------------------------------
    def card(s) -> str:
        href = url(f"scenes/{s.id}/")
        img = asset(paths.card(s.id, preset())) if s.built else None
        thumb = (f'<img src="{img}" alt="Poster frame of the {html.escape(s.title)} animation" '
                 f'loading="lazy" width="427" height="240">' if img
                 else '<span class="w06-card-empty">poster not rendered in this build</span>')
        return (f'<a class="w06-card" href="{href}">{thumb}'
                f'<span class="w06-card-num">{s.label}</span>'
                f'<span class="w06-card-title">{html.escape(s.title)}</span>'
                f'<span class="w06-card-q">{html.escape(s.question)}</span></a>')

    def planned(scenes) -> str:
        """Scenes not built yet: one compact, folded line each, never a full-size empty card."""
        if not scenes:
            return ""
        items = "".join(f'<li><a href="{url(f"scenes/{s.id}/")}">{s.label} · {html.escape(s.title)}</a>'
                        f' <span class="w06-planned-q">{html.escape(s.question)}</span></li>' for s in scenes)
        return (f'<details class="w06-planned"><summary>{len(scenes)} more '
                f'{"scene" if len(scenes) == 1 else "scenes"} planned, not built yet</summary>'
                f"<ul>{items}</ul></details>")

    @env.macro
    def module_cards(module_id: str) -> str:
        scenes = cat.in_module(module_id)
        built = [s for s in scenes if s.built]
        cards = '<div class="w06-cards">' + "".join(card(s) for s in built) + "</div>" if built else ""
        return cards + planned([s for s in scenes if not s.built])

    def intro(module_id: str) -> str:
        for m in load_raw()["modules"]:
            if m["id"] == module_id:
                return m.get("intro", "")
        return ""

    @env.macro
    def module_page(module_id: str) -> str:
        m = cat.module(module_id)
        scenes = cat.in_module(module_id)
        built = sum(s.built for s in scenes)
        path = " → ".join(f"{html.escape(s.question)}" for s in scenes)
        return (f"# Module {m.number} · {m.title}\n\n{intro(module_id)}\n\n"
                f'<p class="w06-path"><strong>The questions, in order:</strong> {path}</p>\n\n'
                f"{built} of {len(scenes)} scenes built.\n\n" + module_cards(module_id))

    @env.macro
    def journey() -> str:
        parts = []
        for m in cat.modules:
            heading = m.title if m.id == "case-study" else f"Module {m.number} · {m.title}"
            link = "" if m.id == "case-study" else f' <a href="{url(f"modules/{m.id}/")}">(module page)</a>'
            parts.append(f'<h2 id="{m.id}">{html.escape(heading)}{link}</h2>\n{module_cards(m.id)}')
        return "\n".join(parts)

    @env.macro
    def journey_at_a_glance() -> str:
        """The six modules in one ordered list: the path a newcomer takes."""
        items = []
        for m in cat.modules:
            if m.id == "case-study":
                continue
            scenes = cat.in_module(m.id)
            built = sum(s.built for s in scenes)
            items.append(f'<li><a href="{url(f"modules/{m.id}/")}"><strong>{html.escape(m.title)}</strong></a>'
                         f" — {html.escape(scenes[0].question)} "
                         f'<span class="w06-count">({built} of {len(scenes)} scenes built)</span></li>')
        return '<ol class="w06-glance">' + "".join(items) + "</ol>"

    @env.macro
    def signature() -> str:
        """One signature animation for the home page: the first built scene with a video."""
        for s in cat.built:
            vid = asset(paths.video(s.id, preset()))
            if vid:
                return (f'<figure class="w06-video w06-signature">\n{player(s, vid)}\n'
                        f'<figcaption>From scene {s.label}, <a href="{url(f"scenes/{s.id}/")}">'
                        f"{html.escape(s.title)}</a>: {html.escape(s.question)}</figcaption>\n</figure>")
        return ""

    @env.macro
    def scene_count() -> int:
        return len(cat.scenes)

    @env.macro
    def built_count() -> int:
        return len(cat.built)

    @env.macro
    def glossary_page() -> str:
        from pipeline.site_hooks import glossary
        out = ["# Glossary", "",
               "The terms and acronyms the scenes use. On every page, the first use of each links here.", "",
               '<dl class="w06-glossary">']
        for e in glossary():
            src = e.get("source")
            if isinstance(src, str):
                s = SOURCES[src]
                src = {"publisher": s.publisher, "title": s.title, "url": s.url, "year": s.year}
            cite_html = (f' <span class="w06-gloss-src">Source: {html.escape(src["publisher"])}, '
                         f'<a href="{html.escape(src["url"])}"><cite>{html.escape(src["title"])}</cite></a> '
                         f'({src["year"]}).</span>') if src else ""
            out.append(f'<dt id="{e["id"]}">{html.escape(e["term"])} '
                       f'<span class="w06-expansion">{html.escape(e["expansion"])}</span></dt>'
                       f'<dd>{html.escape(e["text"])}{cite_html}</dd>')
        out.append("</dl>")
        return "\n".join(out)

    @env.macro
    def scenario() -> dict:
        return cat.scenario

    env.variables["scenario_values"] = cat.scenario
    env.variables["catalogue"] = cat


def on_pre_page_macros(env):
    """Give each scene page its own model output as `d`.

    A scene whose model has not run in this build/ (say `make scene S=x` on a
    fresh checkout) gets a page that says so instead of failing the site.
    """
    src = env.page.file.src_uri
    env.variables["d"] = {}
    if src.startswith("scenes/"):
        p = paths.data_json(Path(src).stem)
        if scenarios.current() and "{{ pending() }}" not in env.markdown:
            _scenario_page(env, Path(src).stem, p)
        elif p.is_file():
            env.variables["d"] = json.loads(p.read_text(encoding="utf-8"))
        elif "{{ pending() }}" not in env.markdown:
            env.markdown = "{{ scene_header() }}\n\n{{ not_computed() }}\n"


SCENARIO_PAGE = "{{ scene_header() }}\n\n{{ scenario_page() }}\n"


def _scenario_page(env, scene_id: str, data_path: Path) -> None:
    """Under a non-default scenario, a page keeps its written explanation only when its model ran
    with this run's values, every claim it checks holds, and its prose does not name the default
    run; otherwise it is replaced by scenario_page(), which says why (issue 19)."""
    cat = load_cached(scenario=scenarios.current())
    if scenarios.not_modelled(cat, cat.scene(scene_id)) is not None:
        env.markdown = SCENARIO_PAGE
        return
    if not data_path.is_file():
        env.markdown = "{{ scene_header() }}\n\n{{ not_computed() }}\n"
        return
    d = json.loads(data_path.read_text(encoding="utf-8"))
    env.variables["d"] = d
    info = d.get("scenario", {})
    if "model_error" in info or info.get("claims_failed") or scenarios.prose_names_default_run(env.markdown):
        env.markdown = SCENARIO_PAGE
