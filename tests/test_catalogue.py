"""The catalogue: all 25 entries, and bad input rejected with a precise message."""

from __future__ import annotations

import hashlib
from pathlib import Path

import pytest
import yaml
from support import run_build

from pipeline.catalogue import CATALOGUE, CatalogueError, load

ROOT = Path(__file__).resolve().parent.parent


def test_catalogue_has_24_scenes_in_6_modules_and_a_case_study():
    cat = load()
    assert len(cat.scenes) == 25
    modules = [m.id for m in cat.modules]
    for m in modules[:6]:
        assert len(cat.in_module(m)) == 4, m
    assert [s.id for s in cat.in_module("case-study")] == ["placement-tax"]
    assert [s.number for s in cat.scenes] == list(range(1, 26))


def test_parameters_resolve_scenario_and_constant_references():
    cat = load()
    for s in cat.built:
        for name, raw in s.raw_params.items():
            if isinstance(raw, str) and raw.startswith("$"):
                value = s.params[name]
                assert not (isinstance(value, str) and value.startswith("$")), f"{s.id}.{name} left unresolved"


def _broken(tmp_path, mutate) -> str:
    raw = yaml.safe_load(CATALOGUE.read_text())
    mutate(raw)
    p = tmp_path / "catalogue.yml"
    p.write_text(yaml.safe_dump(raw, sort_keys=False))
    with pytest.raises(CatalogueError) as e:
        load(p)
    return str(e.value)


def _scene(raw, sid):
    return next(s for s in raw["scenes"] if s["id"] == sid)


@pytest.mark.parametrize("mutate, expected", [
    (lambda r: _scene(r, "ring-vs-tree").update(colour="red"), ["'ring-vs-tree'", "'colour'", "unknown field"]),
    (lambda r: _scene(r, "stragglers").pop("title"), ["'stragglers'", "'title'", "missing"]),
    (lambda r: _scene(r, "stragglers").update(id="ring-vs-tree"), ["'ring-vs-tree'", "'id'", "duplicate"]),
    (lambda r: _scene(r, "ring-vs-tree").update(model="no_such_model"),
     ["'ring-vs-tree'", "'model'", "no function 'no_such_model'"]),
    (lambda r: _scene(r, "ring-vs-tree").update(id="ring-vs-trees"),  # the module follows the id
     ["'ring-vs-trees'", "'model'", "does not exist (models/ring_vs_trees.py)"]),
    (lambda r: _scene(r, "ring-vs-tree").update(model="models.ring_vs_tree:ring_vs_tree"),  # the old, long form
     ["'ring-vs-tree'", "'model'", "write 'ring_vs_tree' alone", "models/ring_vs_tree.py"]),
    (lambda r: _scene(r, "daly-checkpoint").update(scene="NoSuchScene"),
     ["'daly-checkpoint'", "'scene'", "no class 'NoSuchScene'"]),
    (lambda r: _scene(r, "daly-checkpoint")["figures"][0].update(function="figures.daly_checkpoint:f"),
     ["'daly-checkpoint'", "figures[0]", "'function'", "write 'f' alone"]),
    (lambda r: _scene(r, "stragglers").update(explore="NO_PANEL"),
     ["'stragglers'", "'explore'", "figures/stragglers.py has no top-level assignment 'NO_PANEL'"]),
    (lambda r: _scene(r, "stragglers").pop("scene"),
     ["'stragglers'", "'scene'", "missing (an exhibit needs model, scene and figures)"]),
    (lambda r: [_scene(r, "stragglers").pop(f) for f in ("model", "scene", "figures", "explore")],
     ["'stragglers'", "'params'", "only allowed with a model"]),
    (lambda r: _scene(r, "ring-vs-tree")["params"].update(bogus=1), ["'ring-vs-tree'", "params.bogus"]),
    (lambda r: _scene(r, "ring-vs-tree")["params"].update(ranks="$scenario.nope"),
     ["'ring-vs-tree'", "params.ranks", "no value 'nope'"]),
    (lambda r: _scene(r, "ring-vs-tree")["figures"][0].update(alt="fig.svg"), ["'ring-vs-tree'", "'alt'"]),
    (lambda r: _scene(r, "ring-vs-tree").update(sources=["no-such-paper"]), ["'sources'", "no-such-paper"]),
    (lambda r: _scene(r, "stragglers").update(module="nowhere"), ["'stragglers'", "'module'"]),
    (lambda r: r["scenarios"]["dense_only"].update({"mfu-mbus": "a typo"}), ["'scenarios.dense_only'", "'mfu-mbus'"]),
])
def test_bad_catalogue_names_file_entry_and_field(tmp_path, mutate, expected):
    msg = _broken(tmp_path, mutate)
    assert msg.startswith(str(tmp_path / "catalogue.yml")) or msg.startswith("catalogue.yml")
    for part in expected:
        assert part in msg, (part, msg)


def test_duplicate_yaml_keys_are_rejected(tmp_path):
    p = tmp_path / "catalogue.yml"
    p.write_text(CATALOGUE.read_text().replace("    number: 7\n", "    number: 7\n    number: 8\n", 1))
    with pytest.raises(CatalogueError, match="'number' appears twice"):
        load(p)


def _tree_digest(root: Path) -> str:
    h = hashlib.sha256()
    for p in sorted(root.rglob("*")):
        if p.is_file():
            h.update(str(p.relative_to(root)).encode() + p.read_bytes())
    return h.hexdigest()


def test_cli_rejects_bad_catalogue_and_changes_nothing(project):
    (project / "build" / "data").mkdir(parents=True)
    (project / "build" / "data" / "old.json").write_text("{}")
    (project / "site").mkdir()
    (project / "site" / "index.html").write_text("previous site")
    before = _tree_digest(project / "build"), _tree_digest(project / "site")
    cat = project / "catalogue.yml"
    cat.write_text(cat.read_text().replace("model: ring_vs_tree\n", "model: ring_vs_treez\n", 1))
    proc = run_build(project, "build", check=False)
    assert proc.returncode == 2
    assert "catalogue.yml: scene 'ring-vs-tree': field 'model'" in proc.stderr
    assert (_tree_digest(project / "build"), _tree_digest(project / "site")) == before
