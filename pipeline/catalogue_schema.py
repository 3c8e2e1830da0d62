"""What catalogue.yml may hold: every entry's fields, each with its type, whether it is required, and
what it means. pipeline/catalogue.py checks each entry against these classes and names the field
in every error; the rules that need more than the entry itself (references that must resolve,
names that must exist in the scene's modules, a module that must be listed) stay in catalogue.py.

A scene has one name, its `id`: its model is models/<mod>.py, its figures figures/<mod>.py, its
animation scenes/<mod>.py and its tests tests/test_<mod>.py, with <mod> the id with `-` as `_`.
So `model`, `scene`, `figures[].function` and `explore` give a name inside the scene's own module,
never the module.

`need` says when a field may or must appear:
  required       in every entry
  exhibit        all of them or none: a scene with them has an exhibit, one without is planned
  with exhibit   optional, and only in an entry that has an exhibit
  optional       optional
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field, fields
from typing import Any

from models.constants import SOURCES

REQUIRED, EXHIBIT, WITH_EXHIBIT, OPTIONAL = "required", "exhibit", "with exhibit", "optional"

SLUG = re.compile(r"^[a-z0-9]+(-[a-z0-9]+)*$")
NAME = re.compile(r"^[A-Za-z_]\w*$")


# --- one rule per kind of value: None, or what is wrong (after "field 'x': ") -----------------------
def slug(value) -> str | None:
    return None if isinstance(value, str) and SLUG.match(value) else "must be a lowercase slug like 'ring-vs-tree'"


def positive_int(value) -> str | None:
    ok = isinstance(value, int) and not isinstance(value, bool) and value >= 1
    return None if ok else "must be a positive integer"


def text(value) -> str | None:
    return None if isinstance(value, str) and value.strip() else "must be non-empty text"


# markup in a catalogue string: a tag (`<img`, `</b`, `<!--`) or a character reference (`&lt;`, `&#60;`).
# The catalogue's titles, questions, labels and alt texts are plain text: the theme writes some of them
# into every page unescaped (the navigation), so markup there would be live HTML on every page.
MARKUP = re.compile(r"<[A-Za-z/!?]|&(#\d+|#x[0-9A-Fa-f]+|[A-Za-z][A-Za-z0-9]*);")


def plain_text(value) -> str | None:
    if (wrong := text(value)) is not None:
        return wrong
    if m := MARKUP.search(value):
        return f"must be plain text, not markup: {m.group(0)!r} at character {m.start() + 1}"
    return None


def mapping(value) -> str | None:
    return None if value is None or isinstance(value, dict) else "expected a mapping"


def plain_text_values(value) -> str | None:
    if (wrong := mapping(value)) is not None:
        return wrong
    for key, reason in (value or {}).items():
        if (wrong := plain_text(reason)) is not None:
            return f"{key!r}: {wrong}"
    return None


def entries(value) -> str | None:
    return None if isinstance(value, list) and value else "expected a non-empty list"


def known_sources(value) -> str | None:
    for key in value or []:
        if key not in SOURCES:
            return f"{key!r} is not a source in models/constants (SOURCES)"
    return None


def alt_text(value) -> str | None:
    if (wrong := plain_text(value)) is not None:
        return wrong
    alt = str(value).strip()
    if len(alt) < 20 or alt.lower().endswith((".svg", ".png")):
        return "describe what the figure shows (20+ characters)"
    return None


def spec(need: str, meaning: str, check=None) -> Any:
    """One field of an entry: when it may appear (`need`), what it means, and the rule its value follows."""
    return field(default=None, metadata={"need": need, "meaning": meaning, "check": check})


# --- the entries ----------------------------------------------------------------------------------
@dataclass(frozen=True)
class FigureEntry:
    """One item of a scene's `figures:`."""

    name: str = spec(REQUIRED, "a slug unique in the scene: build/figures/<id>-<name>-<theme>.svg")
    function: str = spec(REQUIRED, "the function f(data, theme) -> Figure in figures/<mod>.py that draws it")
    alt: str = spec(REQUIRED, "what the figure shows, in words, for a reader who cannot see it", alt_text)


@dataclass(frozen=True)
class SceneEntry:
    """One item of `scenes:`: a planned scene (the first five fields) or one with an exhibit."""

    id: str = spec(REQUIRED, "the scene's one name: its page, task ids and module names (<mod>)", slug)
    number: int = spec(REQUIRED, "its place in the site, unique", positive_int)
    module: str = spec(REQUIRED, "the id of the module (`modules:`) it belongs to")
    title: str = spec(REQUIRED, "the page's title", plain_text)
    question: str = spec(REQUIRED, "the reader's question the scene answers, one sentence", plain_text)
    model: str = spec(EXHIBIT, "the @model function's name in models/<mod>.py")
    scene: str = spec(EXHIBIT, "the ExhibitScene class's name in scenes/<mod>.py")
    figures: list[FigureEntry] = spec(EXHIBIT, "the page's figures, the first under the animation", entries)
    params: dict[str, Any] = spec(WITH_EXHIBIT, "the model's arguments; $scenario.x, $const.x or $gpu.x "
                                                "references allowed", mapping)
    sources: list[str] = spec(WITH_EXHIBIT, "keys of models/constants SOURCES the page cites", known_sources)
    explore: str = spec(WITH_EXHIBIT, "the Explore Panel's name in figures/<mod>.py, if the scene has one")


@dataclass(frozen=True)
class ModuleEntry:
    """One item of `modules:`."""

    id: str = spec(REQUIRED, "a slug the scenes' `module:` names")
    number: int = spec(REQUIRED, "its place in the site")
    title: str = spec(REQUIRED, "the module page's title", plain_text)
    intro: str = spec(OPTIONAL, "the module page's opening prose (no numbers)", plain_text)


@dataclass(frozen=True)
class RunEntry:
    """One item of `scenarios.runs:`: a published run the site is also built for."""

    title: str = spec(REQUIRED, "the run, as the scenario switch names it", plain_text)
    short: str = spec(REQUIRED, "a short name for tight places", plain_text)
    sources: list[str] = spec(REQUIRED, "keys of models/constants SOURCES for the run", known_sources)
    values: dict[str, Any] = spec(OPTIONAL, "every value of `scenario:` again, for this run (not the default)")
    moe: bool = spec(OPTIONAL, "a mixture of experts: the `dense_only` scenes are not built for it")
    constants: dict[str, str] = spec(OPTIONAL, "a default run's constant -> this run's, wherever a scene names it",
                                     mapping)


@dataclass(frozen=True)
class ScenariosEntry:
    """The `scenarios:` block."""

    default: str = spec(REQUIRED, "the run whose values are `scenario:`")
    runs: dict[str, RunEntry] = spec(REQUIRED, "run id (a slug) -> the run")
    run_sources: list[str] = spec(OPTIONAL, "the default run's own sources: their constants are \"held\"",
                                  known_sources)
    dense_only: dict[str, str] = spec(OPTIONAL, "scene id -> why its model cannot represent a mixture of experts",
                                      plain_text_values)


@dataclass(frozen=True)
class CatalogueFile:
    """The whole of catalogue.yml."""

    scenario: dict[str, Any] = spec(REQUIRED, "the default run's values, which scene params name as $scenario.x")
    modules: list[ModuleEntry] = spec(REQUIRED, "the site's modules, in order")
    scenes: list[SceneEntry] = spec(REQUIRED, "every scene once")
    scenarios: ScenariosEntry = spec(OPTIONAL, "the published runs the site is built for")


# --- reading the classes ----------------------------------------------------------------------------
def names(cls, *needs: str) -> set[str]:
    """The fields of an entry class, or only those with one of `needs`."""
    return {f.name for f in fields(cls) if not needs or f.metadata["need"] in needs}


def problem(cls, entry: dict) -> tuple[str, str] | None:
    """The first thing wrong with `entry` as a `cls`, as (field, message): an unknown field, a
    missing required one, an exhibit field without the others, a `with exhibit` field without an
    exhibit, then each present field's rule in declaration order. None: the entry is well formed."""
    allowed = names(cls)
    unknown = sorted(set(entry) - allowed)
    if unknown:
        return unknown[0], f"unknown field (allowed: {', '.join(sorted(allowed))})"
    missing = sorted(names(cls, REQUIRED) - set(entry))
    if missing:
        return missing[0], "missing"
    exhibit = [f.name for f in fields(cls) if f.metadata["need"] == EXHIBIT]
    present = set(exhibit) & set(entry)
    if present and present != set(exhibit):
        needed = f"{', '.join(exhibit[:-1])} and {exhibit[-1]}"
        return sorted(set(exhibit) - present)[0], f"missing (an exhibit needs {needed})"
    if not present:
        for name in sorted(names(cls, WITH_EXHIBIT) & set(entry)):
            return name, "only allowed with a model"
    for f in fields(cls):
        if f.name in entry and f.metadata["check"] and (message := f.metadata["check"](entry[f.name])):
            return f.name, message
    return None

