"""Figures: a scene's data -> build/figures/<id>-<name>-{light,dark}.svg (pipeline/workers/figures.py).

Keyed on the figure modules' and the worker's sources, the figure list, the data's bytes, the fonts
and the libraries' versions: a colour tweak re-draws without re-running the model."""

from __future__ import annotations

from pipeline import paths
from pipeline.engine.registry import Planned, module_of

KIND = "figures"
LIBS = ("numpy", "matplotlib")
COST = 2.0
FOLLOWS = "compute"
BUILDS = ("site",)
WORKER = "pipeline.workers.figures:figures"
ORDER = 10


def specs(scene) -> list[list[str]]:
    return [[f.name, f.function] for f in scene.figures]


def after(parent, ctx) -> list[Planned]:
    scene = parent.scene
    figs = specs(scene)
    return [Planned(f"figures/{scene.id}", scene, (scene.id, figs), sorted({module_of(ref) for _, ref in figs}),
                    lambda: {"figures": figs, "data": ctx.data(parent, paths.data_json(scene.id)),
                             "fonts": ctx.fonts()})]


def live(ctx):
    ids = {f"figures/{s.id}" for s in ctx.catalogue.built}
    return ids.__contains__
