"""The scenario stages, run in a worker (what a scenario is: pipeline/scenarios.py).

Kept apart from pipeline/scenarios.py, and importing no more than the stages need, because a
scenario task's cache key covers this module's import closure: an edit to the site or build side of
the scenario switch must not re-run every scenario's models and figures.
"""

from __future__ import annotations

import json
from contextlib import contextmanager
from pathlib import Path

from pipeline import paths
from pipeline.engine import atomic

ROOT_DIR = "scenario"  # build/scenario/<sid>/ and site/scenario/<sid>/
ENV = "W06_SCENARIO"  # the scenario a site build (mkdocs, pipeline/site_hooks.py) is for


def build_dir(sid: str) -> Path:
    return paths.BUILD / ROOT_DIR / sid


def data_dir(sid: str) -> Path:
    return build_dir(sid) / "data"


def figures_dir(sid: str) -> Path:
    return build_dir(sid) / "figures"


def task_prefix(sid: str) -> str:
    return f"{ROOT_DIR}/{sid}/"


@contextmanager
def writing_to(sid: str):
    """paths.DATA and paths.FIGURES pointed at the scenario's folders for one task or one site build.

    The workers (pipeline/workers/compute.py, figures.py) and the page macros name their files through
    paths.data_json() and paths.figure_svg(), which read these two at call time; a worker runs one
    task at a time and a site build is one process per scenario, so nothing else sees the change.
    """
    old = paths.DATA, paths.FIGURES
    paths.DATA, paths.FIGURES = data_dir(sid), figures_dir(sid)
    try:
        yield
    finally:
        paths.DATA, paths.FIGURES = old


# --- the worker side -------------------------------------------------------------------------
def compute(sid: str, scene_id: str, model_ref: str, params: dict) -> dict[str, str]:
    """Run the model for scenario `sid`, claims collected; write its data (pipeline/workers/compute.py's
    files) under build/scenario/<sid>/data/."""
    from models.exhibit import claims_collected
    from pipeline.jsonio import to_json
    from pipeline.workers.compute import ModelError, run_model, table_csv

    with writing_to(sid):
        try:
            with claims_collected() as failed:
                data = run_model(scene_id, model_ref, params)
            data["scenario"] = {"id": sid, "claims_failed": list(failed)}
            blob, table = to_json(data), table_csv(data["table"])
        except ModelError as e:
            # the model refuses this run's values: the page says so, the other scenes still build
            line = str(e).removeprefix(f"{scene_id}: ")
            data = {"scene": scene_id, "params": params, "scenario": {"id": sid, "model_error": line}}
            blob, table = to_json(data), b""
        out = {paths.data_json(scene_id): blob}
        if table:
            out[paths.data_csv(scene_id)] = table
        hashes = atomic.commit(out)
    return {paths.rel(p): h for p, h in hashes.items()}


def figures(sid: str, scene_id: str, figure_specs: list) -> dict[str, str]:
    """The scene's figures from the scenario's data; none when its model refused the scenario."""
    from pipeline.workers.figures import figures as draw

    with writing_to(sid):
        data = json.loads(paths.data_json(scene_id).read_text(encoding="utf-8"))
        if "model_error" in data.get("scenario", {}):
            return {}
        return draw(scene_id, figure_specs)
