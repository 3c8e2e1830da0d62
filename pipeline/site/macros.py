"""The page macros: what a page can call, registered with the MkDocs macros plugin.

Pages are plain Markdown plus these calls, so moving off MkDocs later means porting this file
and pipeline/site/context.py, not the pages. Each macro is a plain function of a page section
(pipeline/site/sections/); this module only builds the page's context and registers them. A
scene page sees `d`, its model output; every number in its prose goes through `d` or
`const_tag`, never typed in.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from models import units  # noqa: E402
from pipeline import paths, scenarios  # noqa: E402
from pipeline.catalogue import load_cached  # noqa: E402
from pipeline.site.context import Build, Page  # noqa: E402
from pipeline.site.sections import (  # noqa: E402
    citations,
    exhibit,
    glossary,
    header,
    home,
    maths,
    reuse,
    scenario_notes,
    tables,
)
from pipeline.site.shared import glossary as glossary_entries  # noqa: E402

PENDING = "{{ pending() }}"
NOT_COMPUTED_PAGE = "{{ scene_header() }}\n\n{{ not_computed() }}\n"
SCENARIO_PAGE = "{{ scene_header() }}\n\n{{ scenario_page() }}\n"

# the formatting filters a page applies to a number from `d`: {{ d.summary.x | bytes }}
FILTERS = {"bytes": units.fmt_bytes, "seconds": units.fmt_seconds, "rate": units.fmt_rate,
           "count": units.fmt_count, "percent": units.fmt_percent, "sig": units.sig, "words": units.fmt_words,
           "usd": units.fmt_usd}


def fmt(value, unit: str) -> str:
    """A value in its unit: the one convention lives in models/units.py."""
    return units.fmt(value, unit)


def page_macros(page: Callable[[], Page]) -> dict[str, Callable]:
    """Every macro that reads the page, by the name a page calls it; `page()` gives the page being
    rendered."""
    return {
        # the scene page, top to bottom
        "scene_header": lambda: header.scene_header(page()),
        "pending": header.pending,
        "not_computed": lambda: header.not_computed(page().scene().id),
        "exhibit": lambda: exhibit.exhibit(page()),
        "params_table": lambda: tables.page_params_table(page()),
        "numbers_table": lambda: tables.numbers_table(page().d["table"]),
        "reuse": lambda: reuse.reuse(page()),
        "cite": lambda key: citations.cite(page().cites, key, page().src),
        "const_tag": lambda name, digits=3, noun="", unit="", scope=None: citations.const_tag(
            page().cites, name, page().src, noun, unit, scope),
        "sources": lambda: citations.sources(page().cites.keys),
        "scenario_page": lambda: scenario_notes.scenario_page(page()),
        # the home, module, presenters' and glossary pages
        "module_cards": lambda module_id: home.module_cards(page(), module_id),
        "module_page": lambda module_id: home.module_page(page(), module_id),
        "journey": lambda: home.journey(page()),
        "journey_at_a_glance": lambda: home.journey_at_a_glance(page()),
        "signature": lambda: home.signature(page()),
        "presenters_table": lambda: reuse.presenters_table(page()),
        "glossary_page": lambda: glossary.glossary_page(glossary_entries()),
    }


def define_env(env):
    """The macros plugin's entry point: read this run's build once, register the filters and macros."""
    build = Build.load()

    def page() -> Page:
        # read at each call: mkdocs moves env.page along, and a scenario's site_url is set after this runs
        return build.page(env.page.url, env.page.file.src_uri, env.variables.get("d", {}),
                          env.conf.get("site_url") or "")

    for name, f in FILTERS.items():
        env.filter(f, name)
    for name, f in page_macros(page).items():
        env.macro(f, name)
    env.macro(maths.math, "math")
    env.macro(maths.math_block, "math_block")
    env.macro(lambda: len(build.cat.scenes), "scene_count")
    env.macro(lambda: len(build.cat.built), "built_count")
    env.macro(lambda: build.cat.scenario, "scenario")
    env.variables["scenario_values"] = build.cat.scenario
    env.variables["catalogue"] = build.cat


def on_pre_page_macros(env):
    """Give each scene page its own model output as `d`.

    A scene whose model has not run in this build/ (say `make scene S=x` on a
    fresh checkout) gets a page that says so instead of failing the site.
    """
    src = env.page.file.src_uri
    env.variables["d"] = {}
    if src.startswith("scenes/"):
        p = paths.data_json(Path(src).stem)
        if scenarios.current() and PENDING not in env.markdown:
            _scenario_page(env, Path(src).stem, p)
        elif p.is_file():
            env.variables["d"] = json.loads(p.read_text(encoding="utf-8"))
        elif PENDING not in env.markdown:
            env.markdown = NOT_COMPUTED_PAGE


def _scenario_page(env, scene_id: str, data_path: Path) -> None:
    """Under a non-default scenario, a page keeps its written explanation only when its model ran
    with this run's values, every claim it checks holds, and its prose does not name the default
    run; otherwise it is replaced by scenario_page(), which says why."""
    cat = load_cached(scenario=scenarios.current())
    if scenarios.not_modelled(cat, cat.scene(scene_id)) is not None:
        env.markdown = SCENARIO_PAGE
        return
    if not data_path.is_file():
        env.markdown = NOT_COMPUTED_PAGE
        return
    d = json.loads(data_path.read_text(encoding="utf-8"))
    env.variables["d"] = d
    info = d.get("scenario", {})
    if "model_error" in info or info.get("claims_failed") or scenarios.prose_names_default_run(env.markdown):
        env.markdown = SCENARIO_PAGE
