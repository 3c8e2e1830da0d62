"""Scenario data: a scene's model under another scenario -> build/scenario/<sid>/data/<id>.json
(pipeline/workers/scenario.py; pipeline/scenarios.py says what a scenario is).

Keyed as the compute task is, plus the scenario's id; the parameters are those resolved for the
scenario. Also the scenario switch's build-side hooks: which recorded scenario tasks a build keeps
or forgets, and one more site per scenario built."""

from __future__ import annotations

import json

from pipeline import scenarios
from pipeline.engine.registry import Planned, module_of
from pipeline.jsonio import to_json
from pipeline.workers.scenario import ENV, task_prefix

KIND = "scenario-data"
LIBS = ("numpy",)
COST = 1.0
FOLLOWS = None
BUILDS = ("site",)
WORKER = "pipeline.workers.scenario:compute"
SITE_ENV = {ENV: ""}  # the default site is the default scenario's, whatever the caller's environment


def planned(scene, sid: str) -> Planned:
    return Planned(f"{task_prefix(sid)}data/{scene.id}", scene, (sid, scene.id, scene.model, scene.params),
                   [module_of(scene.model)], lambda: {"params": json.loads(to_json(scene.params)), "scenario": sid})


def roots(ctx) -> list[Planned]:
    return [planned(s, sid) for sid, cat in ctx.scenarios.items() for s in scenarios.plan(sid, cat, ctx.only)]


def live(ctx):
    return scenarios.live_tasks(ctx.catalogue).__contains__


def forget(manifest, ctx) -> list[str]:
    """Recorded, but their files are gone (a copy of build/ without scenario/)."""
    return scenarios.absent(manifest, ctx.scenarios)


def sites(manifest) -> list[tuple[str, dict]]:
    """Each scenario with recorded outputs gets its pages, in its own folder of the site."""
    return [(f"{scenarios.ROOT_DIR}/{sid}", {ENV: sid}) for sid in scenarios.built(manifest.entries)]
