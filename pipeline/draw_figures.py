"""The figures stage, run in a worker: data -> build/figures/<id>-<name>-{light,dark}.svg."""

from __future__ import annotations

import json

from figures.theme import THEMES, svg_bytes, themed
from pipeline import atomic, paths
from pipeline.jsonio import load_ref


def figures(scene_id: str, figure_specs: list[tuple[str, str]]) -> dict[str, str]:
    data = json.loads(paths.data_json(scene_id).read_text(encoding="utf-8"))
    out = {}
    for name, ref in figure_specs:
        draw = load_ref(ref)
        for theme in THEMES:
            with themed(theme):
                blob = svg_bytes(draw(data, theme))
            path = paths.figure_svg(scene_id, name, theme)
            atomic.write_bytes(path, blob)
            out[paths.rel(path)] = atomic.sha256(blob)
    return out
