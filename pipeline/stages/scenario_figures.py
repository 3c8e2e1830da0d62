"""Scenario figures: a scene's figures from a scenario's data -> build/scenario/<sid>/figures/
(pipeline/workers/scenario.py); none when the scene's model refused the scenario."""

from __future__ import annotations

from pipeline.engine.registry import Planned, module_of
from pipeline.workers.scenario import data_dir, task_prefix

KIND = "scenario-figures"
LIBS = ("numpy", "matplotlib")
COST = 2.0
FOLLOWS = "scenario-data"
BUILDS = ("site",)
WORKER = "pipeline.workers.scenario:figures"


def after(parent, ctx) -> list[Planned]:
    sid, scene = parent.args[0], parent.scene
    figs = [[f.name, f.function] for f in scene.figures]
    return [Planned(f"{task_prefix(sid)}figures/{scene.id}", scene, (sid, scene.id, figs),
                    sorted({module_of(ref) for _, ref in figs}),
                    lambda: {"figures": figs, "data": ctx.data(parent, data_dir(sid) / f"{scene.id}.json"),
                             "fonts": ctx.fonts(), "scenario": sid})]
