"""The scene page's two tables: the model's parameters and its key numbers, both in Markdown."""

from __future__ import annotations

import html
from collections.abc import Callable

from models import units
from models.constants import CONSTANTS
from pipeline.catalogue import model_function
from pipeline.site.context import Page
from pipeline.site.sections.citations import tagger


def page_params_table(page: Page) -> str:
    """The scene page's parameters table (params_table), cited on the page."""
    s = page.scene()
    return params_table(s, model_function(s).params, page.d["params"], tagger(page))


def params_table(scene, spec: dict, computed: dict, tag_constant: Callable[[str], str]) -> str:
    """The model's parameters as readers name them, with units and where each comes from.

    Names, units and what is shown come from the model's declaration `spec` (models/exhibit.py);
    values that only pace or seed the animation are left out. `computed`: the parameters the data
    was computed with (the model output's "params"), so a page whose scene is behind its inputs
    shows its last build whole, never a new parameter beside old numbers. `tag_constant(name, unit=)`:
    a constant's value (in the parameter's unit when the registry holds a plain number), tag and
    citation (citations.const_tag).
    """
    rows = ["| Parameter | Value | From |", "| --- | --- | --- |"]
    for name, raw in scene.raw_params.items():
        p = spec[name]
        if p.animation:
            continue
        shown, origin = param_cells(raw, computed.get(name, scene.params[name]), p, tag_constant)
        rows.append(f"| {html.escape(p.label)} | {shown} | {origin} |")
    return "\n".join(rows)


def param_cells(raw, value, p, tag_constant: Callable[[str], str]) -> tuple[str, str]:
    """A parameter's Value and From cells, by what the catalogue wrote (`raw`)."""
    if isinstance(raw, str) and raw.startswith("$const."):
        cname = raw.split(".", 1)[1]
        return tag_constant(cname, unit=p.unit), html.escape(CONSTANTS[cname].label or cname)
    if isinstance(raw, str) and raw.startswith("$scenario."):
        name = value.get("name") if isinstance(value, dict) else getattr(value, "name", value)
        shown = html.escape(str(name)) if p.kind == "entity" else units.fmt(value, p.unit)
        return shown, f"the scenario: <code>{raw.split('.', 1)[1]}</code>"
    if isinstance(raw, str) and raw.startswith("$"):
        # an entity ($gpu.h100) reads back from the JSON as a dict: show its name
        name = value.get("name") if isinstance(value, dict) else getattr(value, "name", None)
        return html.escape(name or str(value)), f"datasheet figures, <code>{html.escape(raw)}</code> (sources below)"
    return units.fmt(value, p.unit), "chosen for this page"


def numbers_table(table: dict) -> str:
    """The model's table (the model output's "table"): caption, then every value in its column's unit."""
    cols = table["columns"]
    head = "| " + " | ".join(html.escape(c["name"]) for c in cols) + " |"
    sep = "| " + " | ".join("---" for _ in cols) + " |"
    body = ["| " + " | ".join(units.fmt(v, c["unit"], c.get("digits", 3))
                              for v, c in zip(row, cols, strict=True)) + " |"
            for row in table["rows"]]
    return "\n".join([f"*{html.escape(table['caption'])}*", "", head, sep, *body])
