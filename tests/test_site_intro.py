"""The optional module `intro` in catalogue.yml: validated on load, read by the module pages."""

from __future__ import annotations

import pytest
import yaml

from pipeline.catalogue import CATALOGUE, CatalogueError, load


def test_every_module_but_the_case_study_has_an_intro():
    raw = yaml.safe_load(CATALOGUE.read_text())
    assert all(m.get("intro") for m in raw["modules"] if m["id"] != "case-study")


@pytest.mark.parametrize("bad", ["", "   ", 3, ["a"]])
def test_a_bad_intro_names_the_module_and_field(tmp_path, bad):
    raw = yaml.safe_load(CATALOGUE.read_text())
    raw["modules"][0]["intro"] = bad
    p = tmp_path / "catalogue.yml"
    p.write_text(yaml.safe_dump(raw, sort_keys=False))
    with pytest.raises(CatalogueError, match=r"module 'silicon': field 'intro'"):
        load(p)
