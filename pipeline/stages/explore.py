"""Explore: a scene's panel, its model over the panel's grid and its figure once per stop ->
build/explore/<id>.json (pipeline/workers/explore.py). Only scenes with a panel have the task.

Keyed on the model's, the panel's, the figures' and the worker's sources, the parameters, the fonts
and the libraries' versions; planned once the scene's model is up to date."""

from __future__ import annotations

import json

from pipeline.engine.registry import Planned, module_of
from pipeline.jsonio import to_json

KIND = "explore"
LIBS = ("numpy", "matplotlib")
COST = 20.0
FOLLOWS = "compute"
BUILDS = ("site",)
WORKER = "pipeline.workers.explore:explore"
ORDER = 30


def after(parent, ctx) -> list[Planned]:
    scene = parent.scene
    ref = scene.explore  # its catalogue entry's `explore:`, a full reference
    if ref is None:
        return []
    figs = [[f.name, f.function] for f in scene.figures]
    modules = sorted({module_of(scene.model), module_of(ref), *{module_of(f) for _, f in figs}})
    return [Planned(f"explore/{scene.id}", scene, (scene.id, scene.model, scene.params, ref, figs), modules,
                    lambda: {"params": json.loads(to_json(scene.params)), "panel": ref, "figures": figs,
                             "fonts": ctx.fonts()})]


def live(ctx):
    ids = {f"explore/{s.id}" for s in ctx.catalogue.built if s.explore}  # a panel taken out is pruned
    return ids.__contains__
