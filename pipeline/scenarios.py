"""The scenario switch: every scenario in catalogue.yml is a build dimension.

The default scenario keeps today's paths and task ids (build/data/<id>.json, "data/<id>"), so
nothing else changes and its tasks stay cache hits. Every other scenario gets its own:

    build/scenario/<sid>/data/<id>.json, .csv      task "scenario/<sid>/data/<id>"
    build/scenario/<sid>/figures/<id>-<name>-<theme>.svg   task "scenario/<sid>/figures/<id>"

Their keys hold the scene's parameters resolved for that scenario (its values and its constant
swaps) and the scenario's id, so a scenario task re-runs exactly when its own inputs change.
Animations are not rendered per scenario: the scenario's pages show the default's and say so.

A scenario runs the models with check() collecting (models/exhibit.py): the data records every
claim that does not hold there (`scenario.claims_failed`) instead of failing the build, and the
page for that scenario states what differs instead of printing the sentence. A model that
refuses the scenario's values (a ParamError, a crash) writes data holding only that one line
(`scenario.model_error`), and its page says so. A scene in `dense_only` is not built for a
mixture-of-experts scenario at all: its model cannot represent one (`not_modelled`).
"""

from __future__ import annotations

import re

from pipeline import paths
from pipeline.catalogue import Catalogue, Scene, load
from pipeline.workers.scenario import (  # noqa: F401 - the paths are part of this module's interface
    ENV,
    ROOT_DIR,
    build_dir,
    data_dir,
    figures_dir,
    task_prefix,
    writing_to,
)


def not_modelled(cat: Catalogue, scene: Scene) -> str | None:
    """Why this scene is not built for the catalogue's scenario (None: it is)."""
    scen = cat.get_scenario()
    if scen.moe and scene.id in cat.dense_only:
        return cat.dense_only[scene.id]
    return None


def held_constants(cat: Catalogue, scene: Scene) -> list[str]:
    """The default run's own constants this scene still uses under a non-default scenario."""
    from models.constants import CONSTANTS

    if cat.is_default:
        return []
    out = []
    for raw in scene.raw_params.values():
        for v in raw if isinstance(raw, list) else [raw]:
            if isinstance(v, str) and v.startswith("$const."):
                name = v.split(".", 1)[1]
                if CONSTANTS[name].source in cat.run_sources and name not in out:
                    out.append(name)
    return out


# --- the build side ----------------------------------------------------------------------------
def ids(cat: Catalogue, which: str | None) -> list[str]:
    """The non-default scenarios a build covers: `--scenario all`, one id, or none (the default)."""
    others = [s.id for s in cat.scenarios if not s.default]
    if which in (None, "", cat.default_scenario):
        return []
    if which == "all":
        return others
    if which not in others:
        raise KeyError(f"--scenario: no scenario {which!r} in catalogue.yml (known: all, "
                       f"{', '.join(s.id for s in cat.scenarios)})")
    return [which]


def catalogues(cat: Catalogue, sids: list[str]) -> dict[str, Catalogue]:
    return {sid: load(cat.path, sid) for sid in sids}


def plan(sid: str, cat: Catalogue, only: list[str] | None) -> list[Scene]:
    """The scenes a scenario builds: every built one its models can represent."""
    return [s for s in cat.built if (not only or s.id in only) and not_modelled(cat, s) is None]


def live_tasks(cat: Catalogue) -> set[str]:
    """Every scenario task id the catalogue still has, so pruning keeps them between builds."""
    out = set()
    for scen in cat.scenarios:
        if scen.default:
            continue
        sc = load(cat.path, scen.id)
        for s in plan(scen.id, sc, None):
            out |= {f"{task_prefix(scen.id)}data/{s.id}", f"{task_prefix(scen.id)}figures/{s.id}"}
    return out


def built(manifest_entries) -> list[str]:
    """The scenarios with any recorded output: their sites are built."""
    found = set()
    for task_id in manifest_entries:
        if task_id.startswith(ROOT_DIR + "/"):
            found.add(task_id.split("/")[1])
    return sorted(found)


# --- the site side (a mkdocs run per scenario, W06_SCENARIO set by pipeline/build.py) ------------
def current() -> str:
    """The scenario this process builds pages for ("" : the default)."""
    import os

    return os.environ.get(ENV, "")


def use_for_site() -> None:
    """Point paths.DATA and paths.FIGURES at the current scenario's folders for this whole process."""
    sid = current()
    if sid:
        paths.DATA, paths.FIGURES = data_dir(sid), figures_dir(sid)


def site_root(sid: str, default: str) -> str:
    """Where a scenario's pages live in the site, relative to its root ("" for the default)."""
    return "" if not sid or sid == default else f"{ROOT_DIR}/{sid}/"


def switch_links(page_url: str, here: str, targets: list[str], default: str) -> list[tuple[str, str]]:
    """(scenario id, relative href) to the same page under each scenario in `targets`.

    `page_url` is MkDocs' page URL inside one scenario's site ("scenes/ring-vs-tree/", "" for home);
    plain relative links, so the switch works offline and under any subpath, with no script."""
    import posixpath

    def full(sid: str) -> str:
        return site_root(sid, default) + page_url

    src = full(here)
    src_dir = src.rstrip("/") if src.endswith("/") else posixpath.dirname(src)
    out = []
    for sid in targets:
        dest = full(sid)
        rel = posixpath.relpath(dest or ".", src_dir or ".")
        if (dest == "" or dest.endswith("/")) and not rel.endswith("/"):
            rel += "/"
        out.append((sid, rel))
    return out


# the words with which a page's hand-written prose names the default run: under another scenario a
# page whose prose names it is shown without that prose (it may describe the default as "the scenario")
DEFAULT_RUN_WORDS = re.compile(r"Llama 3|405B|16,384|H100")


def prose_names_default_run(markdown: str) -> bool:
    return bool(DEFAULT_RUN_WORDS.search(markdown))


def mixed(manifest, sid: str, scene_id: str) -> str | None:
    """Why a scene's outputs under scenario `sid` are not one consistent set (Manifest.mixed's rule)."""
    pre = task_prefix(sid)
    data, figs = manifest.entries.get(f"{pre}data/{scene_id}"), manifest.entries.get(f"{pre}figures/{scene_id}")
    if data is None:
        return f"{pre}figures/{scene_id} is recorded without its data" if figs else None
    if figs is None:
        return f"{pre}data/{scene_id} is recorded but its figures are not"
    if figs["parts"].get("data") != data["outputs"].get(paths.rel(data_dir(sid) / f"{scene_id}.json")):
        return f"{pre}figures/{scene_id} was drawn from other data than {pre}data/{scene_id} now holds"
    return None


def absent(manifest, building) -> list[str]:
    """Scenario task ids, of scenarios this build does not build, none of whose outputs is on disk.

    A copy of build/ that left out build/scenario/ (the build tests copy data, figures, media and the
    manifest) must not keep records that block the site for want of files no page of it needs;
    an output that exists but changed is still an error (Manifest.verify). Judged per scenario, not
    per task: a task that rightly wrote nothing (figures of a scene whose model refuses the scenario)
    goes with its scenario, never alone, which would leave its data recorded without its figures."""
    by_scenario: dict[str, list[str]] = {}
    for task_id in manifest.entries:
        if task_id.startswith(ROOT_DIR + "/") and task_id.split("/")[1] not in building:
            by_scenario.setdefault(task_id.split("/")[1], []).append(task_id)
    out = []
    for ids in by_scenario.values():
        if not any((paths.ROOT / rel).is_file() for t in ids for rel in manifest.entries[t]["outputs"]):
            out += ids
    return out
