"""Load and validate catalogue.yml: the scenario, the modules and every scene.

Validation happens before anything is built, so a typo stops the build with
a message naming the file, the scene and the field, and nothing in build/ or
site/ changes. What each entry may hold is declared in
pipeline/catalogue_schema.py; a scene's names (model, scene, figure functions,
Explore panel) are looked up in its own modules, named by its id (module_name),
and kept on the loaded Scene as full "package.module:name" references. Scene
classes and figure functions are checked by reading their source (ast), not
importing it: the check is fast and cannot run a half-written scene. Models are
imported (pure numpy, quick) to check every resolved parameter against the
model's declaration (models/exhibit.py: kind, unit, range) before any model
runs; every bad value in the file is reported, one line each. A check that
passed is remembered in build/params-checked.json under a key over the model,
the values and the model's sources with their imports, so a later run with
the same key skips the import (failures are never remembered).
"""

from __future__ import annotations

import ast
import json
import re
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

import yaml

from models.constants import CONSTANTS, ENTITIES
from models.exhibit import validate_params
from pipeline.catalogue_schema import (
    NAME,
    REQUIRED,
    SLUG,
    CatalogueFile,
    FigureEntry,
    ModuleEntry,
    RunEntry,
    ScenariosEntry,
    SceneEntry,
    names,
    problem,
)

ROOT = Path(__file__).resolve().parent.parent
CATALOGUE = ROOT / "catalogue.yml"

CALLABLE_REF = re.compile(r"^(?P<module>[a-z_][a-z0-9_]*(\.[a-z_][a-z0-9_]*)+):(?P<name>[A-Za-z_]\w*)$")


class CatalogueError(Exception):
    """A problem in catalogue.yml, already phrased for the maintainer."""


@dataclass(frozen=True)
class Figure:
    name: str
    function: str  # "figures.ring_vs_tree:time_vs_size" (the catalogue gives "time_vs_size")
    alt: str


@dataclass(frozen=True)
class Scene:
    id: str
    number: int
    module: str
    title: str
    question: str
    # full references, "<package>.<mod>:<name>", from the names the catalogue gives (module_name)
    model: str | None = None  # "models.ring_vs_tree:ring_vs_tree"
    params: dict[str, Any] = field(default_factory=dict)  # resolved values
    raw_params: dict[str, Any] = field(default_factory=dict)  # as written ($refs kept)
    scene: str | None = None  # "scenes.ring_vs_tree:RingVsTreeAllReduce"
    figures: tuple[Figure, ...] = ()
    sources: tuple[str, ...] = ()
    explore: str | None = None  # its Explore panel, "figures.ring_vs_tree:EXPLORE" (pipeline/explore.py)
    missing: tuple[str, ...] = ()  # parts still the scaffold's placeholders (pipeline/scaffold.py)

    @property
    def built(self) -> bool:
        """Has an exhibit: a model, an animation and at least one figure, none of them a scaffold."""
        return self.model is not None and not self.missing

    @property
    def label(self) -> str:
        return "Case study" if self.module == "case-study" else f"{self.number:02d}"


@dataclass(frozen=True)
class Module:
    id: str
    number: int
    title: str


@dataclass(frozen=True)
class Scenario:
    """One published run the whole site can be built for (catalogue.yml `scenarios:`)."""

    id: str
    title: str
    short: str
    sources: tuple[str, ...]
    values: dict[str, Any]  # resolved, the same keys as the default's
    raw_values: dict[str, Any]  # as written
    default: bool = False
    moe: bool = False  # a mixture of experts: the `dense_only` scenes do not model it
    constants: dict[str, str] = field(default_factory=dict)  # default run's constant -> this run's


@dataclass(frozen=True)
class Catalogue:
    scenario: dict[str, Any]
    modules: tuple[Module, ...]
    scenes: tuple[Scene, ...]
    path: Path = CATALOGUE
    scenario_id: str = ""  # the scenario these scenes' parameters are resolved for
    scenarios: tuple[Scenario, ...] = ()  # every scenario, the default first
    dense_only: dict[str, str] = field(default_factory=dict)  # scene id -> why a MoE is not modelled
    run_sources: tuple[str, ...] = ()  # the default run's own sources (its constants are "held")

    def get_scenario(self, scenario_id: str | None = None) -> Scenario:
        sid = scenario_id or self.scenario_id
        for s in self.scenarios:
            if s.id == sid:
                return s
        raise KeyError(f"{self.path.name}: no scenario {sid!r} (scenarios: "
                       f"{', '.join(s.id for s in self.scenarios)})")

    @property
    def default_scenario(self) -> str:
        return self.scenarios[0].id if self.scenarios else ""

    @property
    def is_default(self) -> bool:
        return not self.scenarios or self.scenario_id == self.default_scenario

    def scene(self, scene_id: str) -> Scene:
        for s in self.scenes:
            if s.id == scene_id:
                return s
        raise KeyError(f"{self.path.name}: no scene with id {scene_id!r}")

    def module(self, module_id: str) -> Module:
        return next(m for m in self.modules if m.id == module_id)

    def in_module(self, module_id: str) -> list[Scene]:
        return [s for s in self.scenes if s.module == module_id]

    @property
    def built(self) -> list[Scene]:
        return [s for s in self.scenes if s.built]


# --- YAML that refuses duplicate keys ----------------------------------------
class _StrictLoader(getattr(yaml, "CSafeLoader", yaml.SafeLoader)):  # libyaml when present
    pass


def _no_duplicates(loader: _StrictLoader, node: yaml.MappingNode, deep: bool = False) -> dict:
    seen = set()
    for key_node, _ in node.value:
        key = loader.construct_object(key_node, deep=deep)
        if key in seen:
            raise CatalogueError(f"line {key_node.start_mark.line + 1}: key {key!r} appears twice")
        seen.add(key)
    return loader.construct_mapping(node, deep)


_StrictLoader.add_constructor(yaml.resolver.BaseResolver.DEFAULT_MAPPING_TAG, _no_duplicates)


# --- the file ------------------------------------------------------------------
# (the schema, every field and its rule: pipeline/catalogue_schema.py)
def load(path: Path = CATALOGUE, scenario: str | None = None) -> Catalogue:
    """The validated catalogue, or CatalogueError naming file, entry and field.

    `scenario`: resolve every `$scenario.<name>` (and the scenario's constant swaps) for that
    scenario instead of the default one (catalogue.yml `scenarios:`)."""
    where = _rel(path)
    raw = _read(path, where)
    default_values = _scenario(where, raw["scenario"])
    scenarios, dense_only, run_sources = _scenarios(where, raw.get("scenarios"), default_values)
    chosen = _chosen(where, scenarios, scenario)
    modules = _modules(where, raw["modules"])
    checked: list[str] = []  # parameter checks that passed here, remembered once the whole file is valid
    scenes = _scenes(where, raw["scenes"], {m.id for m in modules}, default_values, chosen, dense_only, checked)
    unknown = sorted(set(dense_only) - {s.id for s in scenes})
    if unknown:
        raise CatalogueError(f"{where}: field 'scenarios.dense_only': {unknown[0]!r} is not a scene id")
    _record_passes(checked)
    return Catalogue(chosen.values if chosen else default_values, tuple(modules), tuple(scenes), path,
                     chosen.id if chosen else "", tuple(scenarios), dense_only, run_sources)


def _read(path: Path, where: str) -> dict:
    """The file's top level, every top-level field checked against CatalogueFile."""
    try:
        raw = yaml.load(path.read_text(encoding="utf-8"), Loader=_StrictLoader)
    except CatalogueError as e:
        raise CatalogueError(f"{where}: {e}") from None
    except UnicodeDecodeError as e:
        raise CatalogueError(f"{where}: cannot read: not UTF-8 text (byte {e.start}: {e.reason})") from None
    except (OSError, yaml.YAMLError) as e:
        raise CatalogueError(f"{where}: cannot read: {e}") from None
    if not isinstance(raw, dict):
        raise CatalogueError(f"{where}: expected a mapping with {sorted(names(CatalogueFile, REQUIRED))}")
    _check_fields(where, "top level", raw, CatalogueFile)
    return raw


def _chosen(where: str, scenarios: list[Scenario], scenario: str | None) -> Scenario | None:
    """The scenario the scenes are resolved for: `scenario`, else the default (None: no `scenarios:`)."""
    if not scenario:
        return scenarios[0] if scenarios else None
    if not scenarios:
        raise CatalogueError(f"{where}: no field 'scenarios', so no scenario {scenario!r}")
    chosen = next((s for s in scenarios if s.id == scenario), None)
    if chosen is None:
        raise CatalogueError(f"{where}: field 'scenarios.runs': no scenario {scenario!r} (known: "
                             f"{', '.join(s.id for s in scenarios)})")
    return chosen


def _scenes(where: str, raw: Any, module_ids: set[str], default_values: dict, chosen: Scenario | None,
            dense_only: dict[str, str], checked: list[str]) -> list[Scene]:
    """Every scene, in number order; every bad parameter value in the file reported at once."""
    if not isinstance(raw, list):
        raise CatalogueError(f"{where}: field 'scenes': expected a list of scenes")
    values, swaps = (chosen.values, chosen.constants) if chosen else (default_values, {})
    scenes, ids, numbers, bad_params = [], set(), set(), []
    test_marks = _marks_in(sorted((ROOT / "tests").glob("test_*.py")))
    passed = _passed()
    for i, entry in enumerate(raw):
        sid = entry.get("id") if isinstance(entry, dict) else None
        if sid in ids:  # before its modules are looked for: they are named by the id
            raise CatalogueError(f"{where}: scene {sid!r}: field 'id': duplicate id (scene ids must be unique)")
        signature: list[tuple[str, str]] = []  # (field, message): unknown and missing parameters
        # a scene whose model cannot represent this scenario (a dense model under a MoE run) is not
        # built for it: resolved for the default, so its entry still validates; its page says why
        skip = chosen is not None and chosen.moe and sid in dense_only
        s = _scene(where, i, entry, default_values if skip else values, module_ids, signature,
                   None if skip else swaps)
        if s.model:
            s = replace(s, missing=unfinished(s, entry, test_marks.get(s.id, [])))
            reported = {f for f, _ in signature}
            bad_params += [msg for _, msg in signature]
            bad_params += [f"{where}: scene {s.id!r}: {e}" for e in _param_errors(where, s, passed, checked)
                           if getattr(e, "name", None) not in reported]
        if s.number in numbers:
            raise CatalogueError(f"{where}: scene {s.id!r}: field 'number': {s.number} is used by another scene")
        ids.add(s.id)
        numbers.add(s.number)
        scenes.append(s)
    if bad_params:
        raise CatalogueError("\n".join(bad_params))
    return sorted(scenes, key=lambda s: s.number)


_LOADED: dict[tuple, Catalogue] = {}


def load_cached(path: Path = CATALOGUE, scenario: str | None = None) -> Catalogue:
    """load(), once per process until the catalogue or a module it names changes.

    MkDocs asks three times per build (nav, files, macros) and `mkdocs serve`
    rebuilds in one process, so the key is the files' mtimes, not a flag.
    """
    watched = [path, *sorted(p for d in ("models", "scenes", "figures") for p in (ROOT / d).glob("*.py")),
               *sorted((ROOT / "tests").glob("test_*.py")), *sorted((ROOT / "docs" / "scenes").glob("*.md"))]
    key = (scenario, *((str(p), p.stat().st_mtime_ns) for p in watched))
    if key not in _LOADED:
        _LOADED.clear()
        _LOADED[key] = load(path, scenario)
    return _LOADED[key]


# --- scaffolds: a scene is not built while any part is still a placeholder -----
SCAFFOLD = "w06-scaffold"
_MARK = re.compile(r"w06-scaffold\(([a-z0-9-]+)\)")


def scaffold_mark(scene_id: str) -> str:
    """The mark every placeholder of a scaffolded scene carries (pipeline/scaffold.py)."""
    return f"{SCAFFOLD}({scene_id})"


def _marks_in(files) -> dict[str, list[str]]:
    """{scene id: [files holding its scaffold mark]}."""
    found: dict[str, list[str]] = {}
    for p in files:
        try:
            text = p.read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError):
            continue
        for sid in sorted(set(_MARK.findall(text))):
            found.setdefault(sid, []).append(_rel(p))
    return found


def unfinished(s: Scene, entry: dict, test_files: list[str]) -> tuple[str, ...]:
    """What of a scene is still the scaffold's placeholder, one line each (empty: nothing)."""
    mark = scaffold_mark(s.id)
    out = []
    for f in ("title", "question"):
        if mark in str(entry.get(f, "")):
            out.append(f"{CATALOGUE.name}: field {f!r} is the scaffold's placeholder")
    for j, fig in enumerate(entry.get("figures") or []):
        if isinstance(fig, dict) and mark in str(fig.get("alt", "")):
            out.append(f"{CATALOGUE.name}: figures[{j}].alt is the scaffold's placeholder: describe the figure")

    def holds_mark(ref: str) -> str | None:
        path = ROOT / (ref.partition(":")[0].replace(".", "/") + ".py")
        try:
            return _rel(path) if mark in path.read_text(encoding="utf-8") else None
        except OSError:
            return None

    if f := holds_mark(s.model):
        out.append(f"model {s.model} ({f}) is the scaffold's stub: compute the Exhibit")
    for fig in s.figures:
        if f := holds_mark(fig.function):
            out.append(f"figure {fig.name!r} {fig.function} ({f}) is the scaffold's stub: draw it")
    if f := holds_mark(s.scene):
        out.append(f"animation {s.scene} ({f}) is the scaffold's stub: write its beats")
    page = ROOT / "docs" / "scenes" / f"{s.id}.md"
    if page.is_file() and mark in page.read_text(encoding="utf-8"):
        out.append(f"page {_rel(page)} has the scaffold's placeholders: write its prose")
    out += [f"tests {f} are the scaffold's: test the model" for f in test_files]
    return tuple(dict.fromkeys(out))


def _rel(path: Path) -> str:
    try:
        return str(path.resolve().relative_to(ROOT))
    except ValueError:
        return str(path)


def _check_fields(where: str, ctx: str, entry: Any, cls: type) -> None:
    """The entry is a mapping that follows its schema class (pipeline/catalogue_schema.py)."""
    if not isinstance(entry, dict):
        raise CatalogueError(f"{where}: {ctx}: expected a mapping, got {type(entry).__name__}")
    if found := problem(cls, entry):
        raise CatalogueError(f"{where}: {ctx}: field {found[0]!r}: {found[1]}")


def _scenario(where: str, raw: Any) -> dict[str, Any]:
    if not isinstance(raw, dict):
        raise CatalogueError(f"{where}: field 'scenario': expected a mapping of values")
    out = {}
    for key, value in raw.items():
        # the scenario may cite constants, not other scenario values (no cycles)
        out[key] = _resolve(where, "scenario", key, value, {}, allow_scenario=False)
    return out


def _swapped(value, swaps: dict[str, str]):
    if isinstance(value, list):
        return [_swapped(v, swaps) for v in value]
    if isinstance(value, str) and value.startswith("$const.") and value[7:] in swaps:
        return "$const." + swaps[value[7:]]
    return value


def _scenarios(where: str, raw: Any, default_values: dict) -> tuple[list[Scenario], dict[str, str], tuple]:
    """The `scenarios:` block: every run, the default (whose values are `scenario:`) first."""
    if raw is None:
        return [], {}, ()
    _check_fields(where, "field 'scenarios'", raw, ScenariosEntry)
    runs, default = raw["runs"], raw["default"]
    if not isinstance(runs, dict) or default not in runs:
        raise CatalogueError(f"{where}: field 'scenarios.default': {default!r} is not one of 'scenarios.runs'")
    run_sources = tuple(raw.get("run_sources") or ())
    out = []
    for sid, run in runs.items():
        ctx = f"scenario {sid!r}"
        if not isinstance(sid, str) or not SLUG.match(sid):
            raise CatalogueError(f"{where}: {ctx}: must be a lowercase slug like 'deepseek-v3'")
        _check_fields(where, ctx, run, RunEntry)
        if sid == default:
            if "values" in run or "constants" in run:
                raise CatalogueError(f"{where}: {ctx}: field 'values': the default's values are `scenario:`")
            values, raw_values = default_values, {}
        else:
            raw_values = run.get("values")
            if not isinstance(raw_values, dict):
                raise CatalogueError(f"{where}: {ctx}: field 'values': expected a mapping of every scenario value")
            missing = sorted(set(default_values) - set(raw_values))
            extra = sorted(set(raw_values) - set(default_values))
            if missing or extra:
                f, what = (missing[0], "missing (every scenario gives every value of `scenario:`)") if missing \
                    else (extra[0], "not a value of `scenario:`")
                raise CatalogueError(f"{where}: {ctx}: field 'values.{f}': {what}")
            values = {k: _resolve(where, ctx, f"values.{k}", v, {}, allow_scenario=False)
                      for k, v in raw_values.items()}
        swaps = run.get("constants") or {}
        for a, b in swaps.items():
            for name in (a, b):
                if name not in CONSTANTS:
                    raise CatalogueError(f"{where}: {ctx}: field 'constants.{a}': {name!r} names no constant"
                                         " in models/constants")
        scen = Scenario(sid, str(run["title"]), str(run["short"]), tuple(run["sources"]), values,
                        dict(raw_values), sid == default, bool(run.get("moe", False)), dict(swaps))
        out.insert(0, scen) if scen.default else out.append(scen)
    dense_only = raw.get("dense_only") or {}
    return out, {str(k): str(v) for k, v in dense_only.items()}, run_sources


def _modules(where: str, raw: Any) -> list[Module]:
    if not isinstance(raw, list) or not raw:
        raise CatalogueError(f"{where}: field 'modules': expected a non-empty list")
    mods, seen = [], set()
    for i, m in enumerate(raw):
        ctx = f"module {m['id']!r}" if isinstance(m, dict) and "id" in m else f"module #{i + 1}"
        _check_fields(where, ctx, m, ModuleEntry)
        if m["id"] in seen:
            raise CatalogueError(f"{where}: module {m['id']!r}: field 'id': duplicate id")
        seen.add(m["id"])
        mods.append(Module(str(m["id"]), int(m["number"]), str(m["title"])))
    return mods


def module_name(scene_id: str) -> str:
    """<mod>, the one name of a scene's modules: models/<mod>.py, figures/<mod>.py, scenes/<mod>.py and
    tests/test_<mod>.py. The id with `-` as `_` ("ring-vs-tree" -> "ring_vs_tree")."""
    return scene_id.replace("-", "_")


def _full_ref(where: str, ctx: str, fieldname: str, name: Any, package: str, scene_id: str) -> str:
    """"<package>.<mod>:<name>" for a name the catalogue gives alone; a module spelled out is refused,
    saying what to write instead (the module follows from the scene's id)."""
    mod = module_name(scene_id)
    if isinstance(name, str) and NAME.match(name):
        return f"{package}.{mod}:{name}"
    alone = str(name).rpartition(":")[2]
    hint = (f": write {alone!r} alone; the module, {package}/{mod}.py, follows from the scene's id"
            if CALLABLE_REF.match(str(name)) else f": expected a name in {package}/{mod}.py")
    raise CatalogueError(f"{where}: {ctx}: field {fieldname!r}: {name!r} is not a name{hint}")


def _scene(where, i, entry, scenario, module_ids, signature=None, swaps=None) -> Scene:
    """One `scenes:` entry, checked against SceneEntry and resolved; its names made full references.

    `signature` collects unknown and missing parameters, so every one is reported; `swaps` are the
    scenario's constant swaps."""
    sid = entry.get("id") if isinstance(entry, dict) else None
    ctx = f"scene {sid!r}" if sid else f"scene #{i + 1}"
    _check_fields(where, ctx, entry, SceneEntry)
    if entry["module"] not in module_ids:
        raise CatalogueError(
            f"{where}: {ctx}: field 'module': {entry['module']!r} is not one of {sorted(module_ids)}"
        )
    planned = Scene(sid, entry["number"], entry["module"], entry["title"], entry["question"])
    if "model" not in entry:
        return planned

    raw_params = entry.get("params") or {}
    if swaps:  # the scenario's own figure where the default run's constant is named
        raw_params = {k: _swapped(v, swaps) for k, v in raw_params.items()}
    params = {k: _resolve(where, ctx, f"params.{k}", v, scenario) for k, v in raw_params.items()}
    model = _full_ref(where, ctx, "model", entry["model"], "models", sid)
    _check_function(where, ctx, "model", model, params, signature)
    scene = _full_ref(where, ctx, "scene", entry["scene"], "scenes", sid)
    _definition(where, ctx, "scene", scene, ast.ClassDef)
    explore = None
    if entry.get("explore") is not None:
        explore = _full_ref(where, ctx, "explore", entry["explore"], "figures", sid)
        _definition(where, ctx, "explore", explore, ast.Assign)
    return replace(planned, model=model, params=params, raw_params=dict(raw_params), scene=scene,
                   figures=_figures(where, ctx, sid, entry["figures"]),
                   sources=tuple(entry.get("sources") or ()), explore=explore)


def _figures(where: str, ctx: str, sid: str, raw: list) -> tuple[Figure, ...]:
    figures, seen = [], set()
    for j, fig in enumerate(raw):
        fctx = f"{ctx}: figures[{j}]"
        _check_fields(where, fctx, fig, FigureEntry)
        if not SLUG.match(str(fig["name"])) or fig["name"] in seen:
            raise CatalogueError(f"{where}: {fctx}: field 'name': must be a unique slug")
        function = _full_ref(where, fctx, "function", fig["function"], "figures", sid)
        _check_function(where, fctx, "function", function, None)
        seen.add(fig["name"])
        figures.append(Figure(fig["name"], function, str(fig["alt"]).strip()))
    return tuple(figures)


def _resolve(where, ctx, key, value, scenario, allow_scenario=True):
    """Replace "$scenario.x" and "$const.x" references by their values."""
    if isinstance(value, list):
        return [_resolve(where, ctx, key, v, scenario, allow_scenario) for v in value]
    if not (isinstance(value, str) and value.startswith("$")):
        return value
    kind, _, name = value[1:].partition(".")
    if kind in ENTITIES:
        if name not in ENTITIES[kind]:
            raise CatalogueError(f"{where}: {ctx}: field {key!r}: {value!r}: no {kind} {name!r} in models/constants"
                                 f" (known: {', '.join(sorted(ENTITIES[kind]))})")
        return ENTITIES[kind][name]
    if kind == "const":
        if name not in CONSTANTS:
            raise CatalogueError(
                f"{where}: {ctx}: field {key!r}: {value!r} names no constant in models/constants"
            )
        return CONSTANTS[name].value
    if kind == "scenario" and allow_scenario:
        if name not in scenario:
            raise CatalogueError(
                f"{where}: {ctx}: field {key!r}: {value!r}: the scenario has no value {name!r}"
            )
        return scenario[name]
    raise CatalogueError(
        f"{where}: {ctx}: field {key!r}: {value!r}: references are $scenario.<name>, $const.<name>"
        f" or ${'/$'.join(sorted(ENTITIES))}.<name>"
    )


# --- reading models, scenes and figures without importing them ---------------
def _definition(where, ctx, fieldname, ref, kind):
    m = CALLABLE_REF.match(str(ref))
    if not m:
        raise CatalogueError(f"{where}: {ctx}: field {fieldname!r}: {ref!r} is not 'package.module:name'")
    path = ROOT / (m["module"].replace(".", "/") + ".py")
    if not path.is_file():
        raise CatalogueError(
            f"{where}: {ctx}: field {fieldname!r}: module {m['module']!r} does not exist ({_rel(path)})"
        )
    tree = _parse(path)
    for node in tree.body:
        if isinstance(node, kind) and _defined_name(node) == m["name"]:
            return node, path
    what = {ast.ClassDef: "class", ast.FunctionDef: "function", ast.Assign: "top-level assignment"}[kind]
    raise CatalogueError(
        f"{where}: {ctx}: field {fieldname!r}: {_rel(path)} has no {what} {m['name']!r}"
    )


def _defined_name(node: ast.stmt) -> str | None:
    """The name a def, class or `NAME = ...` statement defines."""
    if isinstance(node, ast.Assign):
        return node.targets[0].id if len(node.targets) == 1 and isinstance(node.targets[0], ast.Name) else None
    return getattr(node, "name", None)


_PARSED: dict[Path, tuple[float, ast.Module]] = {}


def _parse(path: Path) -> ast.Module:
    mtime = path.stat().st_mtime
    hit = _PARSED.get(path)
    if hit and hit[0] == mtime:
        return hit[1]
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    _PARSED[path] = (mtime, tree)
    return tree


def _check_function(where, ctx, fieldname, ref, params, problems=None):
    """The function exists; with `params`, it takes exactly those (unknown and missing ones
    go to `problems` as (field, one-line message) so every one is reported, else raise)."""
    node, path = _definition(where, ctx, fieldname, ref, ast.FunctionDef)
    if params is None:
        return
    found: list[tuple[str, str]] = []
    a = node.args
    names = [x.arg for x in a.posonlyargs + a.args + a.kwonlyargs]
    if a.kwarg is None:
        for k in params:
            if k not in names:
                found.append((k, f"{where}: {ctx}: field 'params.{k}': {ref} takes no parameter {k!r}"
                                 f" (it takes {', '.join(names)})"))
    positional = a.posonlyargs + a.args
    required = [x.arg for x in positional[: len(positional) - len(a.defaults)]]
    required += [x.arg for x, d in zip(a.kwonlyargs, a.kw_defaults, strict=True) if d is None]
    for r in required:
        if r not in params:
            found.append((r, f"{where}: {ctx}: field 'params.{r}': missing; {ref} requires it"))
    if problems is None and found:
        raise CatalogueError(found[0][1])
    if problems is not None:
        problems += found


PARAMS_CHECKED = "params-checked.json"  # in build/: the keys of (model, values) pairs that passed


def _params_key(s: Scene) -> str | None:
    """What a parameter check's result depends on: the model's name, the resolved values and the
    sources of the model's module with every project module it imports (its declaration among them)."""
    from pipeline.engine import hashing
    from pipeline.jsonio import to_json

    try:
        sources = hashing.source_hashes(s.model.partition(":")[0])
    except (ModuleNotFoundError, OSError):
        return None
    try:
        params = to_json(s.params).decode()
    except ValueError:  # NaN or infinity: not JSON, so never remembered; the check itself rejects it
        return None
    return hashing.digest({"model": s.model, "params": params, "sources": sources})


def _passed() -> set[str]:
    from pipeline import paths

    try:
        return set(json.loads((paths.BUILD / PARAMS_CHECKED).read_text()))
    except (OSError, ValueError, TypeError):
        return set()


def _record_passes(keys: list[str]) -> None:
    """Remember checks that passed, so the next process need not import the models to repeat them
    (importing every model, scipy's among them, was most of a no-op build). Called only once the
    whole catalogue is valid: a rejected file changes nothing in build/. Failures are never kept."""
    from pipeline import paths
    from pipeline.engine import atomic

    known = _passed()
    if set(keys) <= known:
        return
    try:
        atomic.write_text(paths.BUILD / PARAMS_CHECKED, json.dumps(sorted(known | set(keys)), indent=0))
    except OSError:  # a read-only or full disk costs the next run an import, nothing else
        pass


def _param_errors(where: str, s: Scene, passed: set[str], checked: list[str]) -> list[Exception]:
    """The model's own parameter declaration applied to the resolved values; a pair that passed
    before (`passed`), with the same sources, is not checked again; one that passes now goes to `checked`."""
    key = _params_key(s)
    if key is not None and key in passed:
        return []
    errors = _check_params(where, s)
    if key is not None and not errors:
        checked.append(key)
    return errors


def _check_params(where: str, s: Scene) -> list[Exception]:
    import importlib

    module, _, name = s.model.partition(":")
    try:
        fn = getattr(importlib.import_module(module), name)
    except Exception as e:  # a model that does not import cannot be validated or run
        raise CatalogueError(f"{where}: scene {s.id!r}: field 'model': {s.model} does not import: "
                             f"{type(e).__name__}: {e}") from None
    if not getattr(fn, "is_model", False):
        raise CatalogueError(f"{where}: scene {s.id!r}: field 'model': {s.model} is not declared with "
                             "@model(...) (models/exhibit.py)")
    return validate_params(fn, s.params)


def model_function(s: Scene):
    """The model a scene names (imported), with its parameter declaration in `.params`."""
    import importlib

    module, _, name = s.model.partition(":")
    return getattr(importlib.import_module(module), name)

