"""`make new S=<id> M=<module>`: scaffold a scene.

    python -m pipeline new ID --module MODULE [--title TITLE]

Adds the scene's catalogue entry (or, for a planned scene already listed, its exhibit fields) and
the five files of a scene, each with the parts the contract requires and nothing that pretends to
be content. Every layer's file is named by the id (<mod>: the id with `-` as `_`), so the entry
names the model function, the animation class and the figure function alone:

    models/<mod>.py           the model: @model(...) declaration, returns an Exhibit
    tests/test_<mod>.py       its tests
    figures/<mod>.py          the figure function f(data, theme)
    scenes/<mod>.py           the ExhibitScene subclass, its beats
    docs/scenes/<id>.md       the page: every section and macro of DESIGN.md's scene page

Every placeholder carries the mark `w06-scaffold(<id>)` (pipeline.catalogue.scaffold_mark). The
catalogue validation finds the marks and lists each part still missing; until none is left the
scene is not built (Scene.built is False): the build skips it, `make check` fails naming what is
missing, and its page is the generated "Not built yet" page.
"""

from __future__ import annotations

import re
import sys
from pathlib import Path

import yaml

from pipeline import paths
from pipeline.catalogue import CATALOGUE, SLUG, module_name, scaffold_mark


def names(scene_id: str) -> dict[str, str]:
    """The scene's module name (<mod>, every layer's file) and its animation class's name."""
    py = module_name(scene_id)
    cls = "".join(w.capitalize() for w in scene_id.split("-")) + "Scene"
    return {"py": py, "cls": cls}


def files(scene_id: str, root: Path = paths.ROOT) -> dict[str, Path]:
    py = names(scene_id)["py"]
    return {
        "model": root / "models" / f"{py}.py",
        "test": root / "tests" / f"test_{py}.py",
        "figure": root / "figures" / f"{py}.py",
        "scene": root / "scenes" / f"{py}.py",
        "page": root / "docs" / "scenes" / f"{scene_id}.md",
    }


MODEL = '''"""Model for scene {id}:
{title}.

Say what this model computes, from which published values, under which assumptions
({mark}). Read models/exhibit.py (the contract) first.
"""

from __future__ import annotations

from models.exhibit import Exhibit, model

# the mark `make check` looks for: remove it with the last placeholder
SCAFFOLD = "{mark}"


# Declare every parameter: name=Param.positive("B/s", "link bandwidth, per direction"), ... and give
# the same names to the function and to the catalogue entry's params.
@model()
def {py}() -> Exhibit:
    """One line on what the exhibit shows."""
    raise NotImplementedError(f"{{SCAFFOLD}}: compute the Exhibit: summary, series (curves), "
                              "table (Table), animation, problems; check() every worded claim")
'''

TEST = '''"""Tests for models/{py}.py:
scene {id}."""

from __future__ import annotations

import pytest

from models.{py} import {py}

SCENE = "{id}"
# the mark `make check` looks for: remove it with the last placeholder
SCAFFOLD = "{mark}"


def test_{py}_is_tested():
    """Invariants, limits, analytic versus simulation, published values with sources."""
    assert {py}.is_model
    pytest.fail(f"{{SCAFFOLD}}: write the model's tests (README: Adding a scene, step 2)")
'''

FIGURE = '''"""Figures for scene {id}:
{title}.

A figure function reads the model output (build/data/<id>.json) and draws; the pipeline
calls it inside figures.theme.themed(theme) and saves the SVG, light and dark.
"""

from __future__ import annotations

# the mark `make check` looks for: remove it with the last placeholder
SCAFFOLD = "{mark}"


def main(data: dict, theme: str):
    """What the figure shows (the catalogue's alt text says it in words)."""
    raise NotImplementedError(f"{{SCAFFOLD}}: draw the figure from data['series'] (figures/axes.py)")
'''

SCENE = '''"""Scene {id}:
{title}."""

from __future__ import annotations

from scenes.style import ExhibitScene

# the mark `make check` looks for: remove it with the last placeholder
SCAFFOLD = "{mark}"


class {cls}(ExhibitScene):
    """What the animation shows, beat by beat."""

    scene_id = "{id}"

    def construct(self) -> None:
        # every animation belongs to a beat: with self.beat("caption"): self.play(...)
        # numbers come from self.data (the model output), never typed here
        raise NotImplementedError(f"{{SCAFFOLD}}: write the beats")
'''

PAGE = '''{{{{ scene_header() }}}}

!!! abstract "Takeaway"
    <!-- {mark}: one paragraph, every number through d (the model output) -->

{{{{ exhibit() }}}}

## The model

<!-- {mark}: the equations (math, math_block), the assumptions, the constants (const_tag) -->

{{{{ params_table() }}}}

## The numbers

{{{{ numbers_table() }}}}

## Worked problems

<!-- {mark}: two or three ??? question blocks, the answers from d.problems -->

## Sources

{{{{ sources() }}}}

## Reuse

{{{{ reuse() }}}}
'''


def exhibit_fields(scene_id: str) -> str:
    """The entry's exhibit fields: names in the scene's own modules (the modules follow from the id)."""
    n, mark = names(scene_id), scaffold_mark(scene_id)
    return (f"    model: {n['py']}\n"
            f"    params: {{}}\n"
            f"    scene: {n['cls']}\n"
            f"    figures:\n"
            f"      - name: main\n"
            f"        function: main\n"
            f"        alt: \"{mark}: what the figure shows, for a reader who cannot see it\"\n")


def add_to_catalogue(text: str, scene_id: str, module: str, title: str | None) -> str:
    """The catalogue's text with the scene's exhibit fields (and entry, if new); comments kept."""
    raw = yaml.safe_load(text)
    entry = next((s for s in raw["scenes"] if s.get("id") == scene_id), None)
    if entry is not None:
        if "model" in entry:
            raise SystemExit(f"error: scene {scene_id!r} already has an exhibit in catalogue.yml")
        if entry.get("module") != module:
            raise SystemExit(f"error: scene {scene_id!r} is listed in module {entry.get('module')!r}, "
                             f"not {module!r}")
        lines = text.splitlines(keepends=True)
        start = next(i for i, line in enumerate(lines) if re.match(rf"^  - id: {re.escape(scene_id)}\s*$", line))
        end = start + 1
        while end < len(lines) and lines[end].startswith("    "):
            end += 1
        return "".join(lines[:end]) + exhibit_fields(scene_id) + "".join(lines[end:])
    number = max(s["number"] for s in raw["scenes"]) + 1
    title = title or scene_id.replace("-", " ").capitalize()
    mark = scaffold_mark(scene_id)
    quoted = yaml.safe_dump(title, default_style='"', width=1000).strip()
    block = (f"  - id: {scene_id}\n    number: {number}\n    module: {module}\n"
             f"    title: {quoted}\n"
             f"    question: \"{mark}: the reader's question, in one sentence\"\n" + exhibit_fields(scene_id))
    return text.rstrip("\n") + "\n" + block


def main(scene_id: str, module: str, title: str | None = None, root: Path = paths.ROOT) -> int:
    if not SLUG.match(scene_id):
        print(f"error: {scene_id!r}: a scene id is a lowercase slug like 'gang-scheduling'", file=sys.stderr)
        return 2
    catalogue = root / CATALOGUE.name
    text = catalogue.read_text(encoding="utf-8")
    raw = yaml.safe_load(text)
    modules = [m["id"] for m in raw["modules"]]
    if module not in modules:
        print(f"error: --module {module!r}: the catalogue's modules are {', '.join(modules)}", file=sys.stderr)
        return 2
    listed = next((s for s in raw["scenes"] if s.get("id") == scene_id), None)
    title = title or (listed or {}).get("title") or scene_id.replace("-", " ").capitalize()
    targets = files(scene_id, root)
    taken = [str(p.relative_to(root)) for p in targets.values() if p.exists()]
    if taken:
        print(f"error: would overwrite {', '.join(taken)}; nothing was written", file=sys.stderr)
        return 2
    try:
        new_text = add_to_catalogue(text, scene_id, module, title)
    except SystemExit as e:
        print(e, file=sys.stderr)
        return 2
    fields = {**names(scene_id), "id": scene_id, "title": title.replace('"', "'"), "mark": scaffold_mark(scene_id)}
    for kind, template in (("model", MODEL), ("test", TEST), ("figure", FIGURE), ("scene", SCENE), ("page", PAGE)):
        targets[kind].parent.mkdir(parents=True, exist_ok=True)
        targets[kind].write_text(template.format(**fields), encoding="utf-8")
    catalogue.write_text(new_text, encoding="utf-8")
    print(f"scaffolded scene {scene_id!r} in module {module!r}:")
    print(f"  {CATALOGUE.name}: " + ("its exhibit fields" if listed else "a new entry"))
    for p in targets.values():
        print(f"  {p.relative_to(root)}")
    print("every placeholder says " + scaffold_mark(scene_id) + "; `make check` lists what is still missing,")
    print("and the page says \"Not built yet\" until none is left")
    return 0
