"""The figures stage, run in a worker: data -> build/figures/<id>-<name>-{light,dark}.svg."""

from __future__ import annotations

import json

from figures.theme import THEMES, svg_bytes, themed
from pipeline import paths
from pipeline.engine import atomic
from pipeline.jsonio import load_ref


def figures(scene_id: str, figure_specs: list[tuple[str, str]]) -> dict[str, str]:
    data = json.loads(paths.data_json(scene_id).read_text(encoding="utf-8"))
    blobs = {}
    for name, ref in figure_specs:
        draw = load_ref(ref)
        for theme in THEMES:
            with themed(theme):
                blob = svg_bytes(draw(data, theme))
            blobs[paths.figure_svg(scene_id, name, theme)] = blob
    # every figure drawn before any is written: staged together, renamed together
    return {paths.rel(p): h for p, h in atomic.commit(blobs).items()}
