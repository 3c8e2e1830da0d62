"""The stage registry and the tasks it plans.

Every module in pipeline/stages/ that sets KIND is a stage, declared the way an mkdocs plugin declares
its config and its `on_*` events:

    KIND     the task kind ("figures"); the manifest, the summary and the pool know tasks by it
    LIBS     the libraries whose versions its key covers (their output bytes are cached)
    COST     first-build guess in seconds, until a real cost is recorded
    PIXEL_SCALED  the guess is at preview size, scaled by pixels x frame rate (renders)
    RATE     optional, for a render: {preset: wall seconds per second of video}, measured (make bench
             RELEASE=1); with a scene's recorded video length it is the first-build guess instead
    FOLLOWS  None: a root task, planned from the catalogue (`roots(ctx)`); else the kind whose task,
             once up to date (built or a hit), plans this one (`after(parent, ctx)`)
    BUILDS   which builds plan it: "site" (python -m pipeline build) and/or "kit" (presenter); a
             "site+kit" build (build --kit: the release with every scene's kit) plans both
    WORKER   "module:function" run in a worker with the task's args; the task's key covers this
             module's import closure, so a stage's declaration can change without re-rendering
    roots(ctx) / after(parent, ctx) -> [Planned]: the key inputs, built from a scene
    live(ctx) -> (task id -> bool), optional: which recorded tasks of this kind a build keeps
    forget(manifest, ctx) -> [task id], optional: records to drop before planning (files gone)
    sites(manifest) -> [(folder, env)], optional, with SITE_ENV: further mkdocs runs after the site

The engine loops over `stages()`; it never names a stage.
"""

from __future__ import annotations

import importlib
import pkgutil
from dataclasses import dataclass, field
from functools import lru_cache
from types import ModuleType
from typing import Any, Callable

from pipeline import paths
from pipeline.engine import presets
from pipeline.engine.hashing import digest, file_hash, files_hashes, source_hashes, versions

PREVIEW_PIXELS = 854 * 480 * 15  # a PIXEL_SCALED guess is for this many pixels x frames per second


@lru_cache(maxsize=None)
def stages() -> tuple[ModuleType, ...]:
    """Every stage module, roots first, then by module name (the order tasks are planned in)."""
    import pipeline.stages as package

    found = [importlib.import_module(f"{package.__name__}.{m.name}") for m in pkgutil.iter_modules(package.__path__)]
    found = [m for m in found if hasattr(m, "KIND")]
    return tuple(sorted(found, key=lambda m: (m.FOLLOWS is not None, getattr(m, "ORDER", 50), m.__name__)))


def stage(kind: str) -> ModuleType:
    for s in stages():
        if s.KIND == kind:
            return s
    raise KeyError(f"no stage of kind {kind!r} in pipeline/stages/")


@dataclass
class Context:
    """What a stage plans for: the catalogue, the selected scenes and the build's settings.

    `keys_only` (pipeline/engine/keys.py): a follower's data part is its parent's key rather than the
    hash of a data file, which may not exist yet."""

    catalogue: Any
    preset: str = presets.DEFAULT
    build: str = "site"  # site | kit | site+kit
    only: list[str] | None = None
    shard: Any = None
    scenarios: dict = field(default_factory=dict)  # {scenario id: its catalogue}, besides the default
    keys_only: bool = False
    kit_only: list[str] | None = None  # a site+kit build: the scenes whose kits it makes (None: every one)

    def kit_for(self, scene_id: str) -> bool:
        """Whether this build makes `scene_id`'s presenter kit."""
        return "kit" in self.build.split("+") and (self.kit_only is None or scene_id in self.kit_only)

    @property
    def scenes(self) -> list:
        """The catalogue's built scenes this build selects (--only, and a shard's scenes)."""
        return [s for s in self.catalogue.built
                if (not self.only or s.id in self.only) and (self.shard is None or self.shard.needs(s.id))]

    def data(self, parent: Task, path) -> str:
        """The hash standing for a parent's data in a follower's key: the file's, or the parent's key."""
        return parent.key if self.keys_only else file_hash(path)

    @staticmethod
    def fonts() -> dict[str, str]:
        return files_hashes(paths.FONTS.glob("*.otf"))


@dataclass
class Planned:
    """A stage's task before the engine keys it: `modules` are the project modules the worker loads by
    name (the scene's model, figure or scene class), `inputs` the rest of the key, built when judged."""

    id: str
    scene: Any
    args: tuple
    modules: list[str]
    inputs: Callable[[], dict]


@dataclass
class Task:
    id: str
    kind: str
    scene: Any
    make_parts: Callable[[], dict] | None = None
    args: tuple = ()
    worker: str = ""  # "module:function" run with args in a worker
    parts: dict | None = None
    key: str = ""
    reason: str | None = None  # None: cache hit
    cost: float = 0.0
    cost_recorded: bool = False  # cost measured by an earlier build, not a guess

    def keyed(self) -> Task:
        """Build the key parts and the key (once)."""
        if self.parts is None:
            self.parts = self.make_parts()
            self.key = digest(self.parts)
        return self


def module_of(ref: str) -> str:
    return ref.partition(":")[0]


def task(st: ModuleType, p: Planned) -> Task:
    """A stage's planned task with its key's common parts: the worker's and the named modules' import
    closures, and the stage's library versions."""
    def parts() -> dict:
        sources: dict[str, str] = {}
        for m in (module_of(st.WORKER), *p.modules):
            sources.update(source_hashes(m))
        return {"sources": sources, **p.inputs(), "versions": versions(*st.LIBS)}

    return Task(p.id, st.KIND, p.scene, parts, p.args, st.WORKER)


def in_build(st: ModuleType, ctx: Context) -> bool:
    return any(b in st.BUILDS for b in ctx.build.split("+"))


def roots(ctx: Context) -> list[Task]:
    """Every root task of the build (compute, scenario data), keyed."""
    return [task(st, p).keyed() for st in stages() if st.FOLLOWS is None and in_build(st, ctx) for p in st.roots(ctx)]


def followers(parent: Task, ctx: Context) -> list[Task]:
    """The tasks an up-to-date parent plans, not yet keyed (a failed parent's are only named)."""
    return [task(st, p) for st in stages() if st.FOLLOWS == parent.kind and in_build(st, ctx)
            for p in st.after(parent, ctx)]


def video_seconds(scene_id: str) -> float | None:
    """The scene's video length from any render's beats (every preset's is the same), else None."""
    import json

    for name in presets.PRESETS:
        try:
            return float(json.loads(paths.beats(scene_id, name).read_text(encoding="utf-8"))["duration"])
        except (OSError, ValueError, KeyError, TypeError):
            continue
    return None


def first_cost(kind: str, preset: dict | None = None, video: float | None = None) -> float:
    """The first-build guess for a task of `kind`: the stage's measured RATE x the scene's `video` seconds
    when both are known, else its COST, a render's scaled to its preset's pixels and frames."""
    st = stage(kind)
    rate = getattr(st, "RATE", {}).get((preset or {}).get("name"))
    if rate and video:
        return rate * video
    cost = st.COST
    if getattr(st, "PIXEL_SCALED", False) and preset:
        cost *= preset["pixel_width"] * preset["pixel_height"] * preset["frame_rate"] / PREVIEW_PIXELS
    return cost


def judge(task: Task, manifest, force: bool) -> Task:
    """Set task.reason (None for a hit) and task.cost from the manifest."""
    task.keyed()
    prev = manifest.get(task.id)
    task.cost = prev["seconds"] if prev else first_cost(task.kind, task.parts.get("preset"),
                                                         video_seconds(task.scene.id) if task.scene else None)
    task.cost_recorded = prev is not None
    if force:
        task.reason = "forced"
    elif prev is None:
        task.reason = "never built"
    elif prev["key"] != task.key:
        task.reason = why(prev["parts"], task.parts)
    else:
        task.reason = manifest.broken_output(task.id)
    return task


def why(old: dict, new: dict) -> str:
    """Name what changed between two sets of key parts."""
    changes = []
    for part in sorted(set(old) | set(new)):
        a, b = old.get(part), new.get(part)
        if a == b:
            continue
        if part == "sources" and isinstance(a, dict) and isinstance(b, dict):
            files = sorted(f for f in set(a) | set(b) if a.get(f) != b.get(f))
            changes.append("changed: " + ", ".join(files[:4]) + (" …" if len(files) > 4 else ""))
        elif part == "versions" and isinstance(a, dict) and isinstance(b, dict):
            libs = [f"{k} {a.get(k)}→{b.get(k)}" for k in sorted(b) if a.get(k) != b.get(k)]
            changes.append("library versions: " + ", ".join(libs))
        else:
            changes.append(f"{part} changed")
    return "; ".join(changes) or "key format changed"


def live(ctx: Context) -> Callable[[str], bool]:
    """Whether a recorded task id is still one the catalogue has: any stage that knows it says so."""
    tests = [st.live(ctx) for st in stages() if hasattr(st, "live")]
    return lambda task_id: any(t(task_id) for t in tests)


def forgotten(manifest, ctx: Context) -> list[str]:
    return [t for st in stages() if hasattr(st, "forget") for t in st.forget(manifest, ctx)]


def extra_sites(manifest) -> tuple[list[tuple[str, dict]], dict]:
    """Further mkdocs runs the stages' outputs call for, and the environment the default site runs with."""
    sites = [site for st in stages() if hasattr(st, "sites") for site in st.sites(manifest)]
    env = {k: v for st in stages() for k, v in getattr(st, "SITE_ENV", {}).items()}
    return sites, env
