"""Compute: a scene's model -> build/data/<id>.json and .csv (pipeline/workers/compute.py).

Keyed on the model's and the worker's sources, the parameters (entities such as $gpu.h100 as their
fields) and numpy's version. A draw task's key holds the data's bytes, so a model edit that leaves
the numbers as they were re-draws nothing."""

from __future__ import annotations

import json

from pipeline.engine.registry import Planned, module_of
from pipeline.jsonio import to_json

KIND = "compute"
LIBS = ("numpy",)
COST = 1.0
FOLLOWS = None
BUILDS = ("site", "kit")
WORKER = "pipeline.workers.compute:compute"


def planned(scene) -> Planned:
    return Planned(f"data/{scene.id}", scene, (scene.id, scene.model, scene.params), [module_of(scene.model)],
                   lambda: {"params": json.loads(to_json(scene.params))})


def roots(ctx) -> list[Planned]:
    return [planned(s) for s in ctx.scenes]


def live(ctx):
    ids = {f"data/{s.id}" for s in ctx.catalogue.built}
    return ids.__contains__
