"""The model contract (models/exhibit.py): declarations, validation, self-checking output."""

from __future__ import annotations

import math

import numpy as np
import pytest

from models.exhibit import (
    ClaimError,
    Column,
    ContractError,
    Exhibit,
    Param,
    ParamError,
    Table,
    check,
    curves,
    model,
    table_from_series,
    validate_params,
)


def _table(rows=((1.0, "a"),)):
    return Table("caption", [Column("x", "B"), Column("name", "text")], rows)


@model(size=Param.positive("B", "message size"), ranks=Param.integer("count", "ranks", minimum=2),
       mode=Param.text("mode", choices=("ring", "tree")), seed=Param.integer("1", "seed", minimum=0, animation=True))
def probe(size, ranks, mode="ring", seed=0):
    return Exhibit(summary={"size": size, "ranks": ranks}, series=curves("x", [1, 2], y=[3, 4]), table=_table())


def test_a_declared_model_runs_and_returns_an_exhibit():
    out = probe(size=1e6, ranks=8)
    assert isinstance(out, Exhibit)
    d = out.to_dict()
    assert set(d) == {"summary", "series", "table", "animation", "problems", "records"}
    assert d["table"]["columns"] == [{"name": "x", "unit": "B"}, {"name": "name", "unit": "text"}]
    assert probe.params["seed"].animation and not probe.params["size"].animation


@pytest.mark.parametrize("field, value, words", [
    ("size", 0, "> 0"), ("size", -1.0, "> 0"), ("size", math.nan, "finite"), ("size", math.inf, "finite"),
    ("size", "sixteen", "finite number"), ("size", True, "finite number"),
    ("ranks", 1, ">= 2"), ("ranks", 2.5, "whole number"), ("mode", "star", "one of ['ring', 'tree']"),
])
def test_every_bad_value_names_the_field_the_value_and_what_is_allowed(field, value, words):
    params = {"size": 1e6, "ranks": 8, field: value}
    with pytest.raises(ParamError) as e:
        probe(**params)
    msg = str(e.value)
    assert f"params.{field}" in msg and repr(value) in msg and words in msg
    assert "\n" not in msg
    assert validate_params(probe, params), "the catalogue sees the same error before the model runs"


def test_unknown_and_missing_parameters_are_reported():
    errors = validate_params(probe, {"size": 1.0, "colour": "red"})
    text = "\n".join(map(str, errors))
    assert "params.colour" in text and "takes no such parameter" in text
    assert "params.ranks" in text and "missing" in text


def test_a_declaration_must_match_the_signature():
    with pytest.raises(ContractError, match="undeclared \\['b'\\]"):
        @model(a=Param.positive("s", "a"))
        def bad(a, b):
            return None


def test_a_model_must_return_an_exhibit():
    @model(a=Param.positive("s", "a"))
    def legacy(a):
        return {"table": {}}

    with pytest.raises(ContractError, match="expected an Exhibit"):
        legacy(a=1.0)


@pytest.mark.parametrize("build, words", [
    (lambda: Exhibit({"x": math.nan}, {}, _table()), "summary.x is nan"),
    (lambda: Exhibit({}, {"y": np.array([1.0, np.inf])}, _table()), "series.y[1]"),
    (lambda: Exhibit({}, {}, _table(), animation={"steps": [{"t": 1.0}, {"t": -math.inf}]}),
     "animation.steps[1].t"),
    (lambda: Exhibit({}, {}, _table(), problems={"answer": float("nan")}), "problems.answer"),
    (lambda: Exhibit({"arr": [1, 2]}, {}, _table()), "summary.arr: list is not a scalar"),
    (lambda: Exhibit({}, {"grid": np.zeros((2, 2))}, _table()), "series.grid: expected a 1-D array"),
    (lambda: _table(rows=((1.0,),)), "table row 0: 1 cells, expected 2"),
    (lambda: _table(rows=((math.nan, "a"),)), "column 'x': nan is not finite"),
    (lambda: _table(rows=(("1", "a"),)), "column 'x': '1' is not a number"),
    (lambda: Column("speed", "furlongs"), "unit 'furlongs'"),
    (lambda: Column("ridge", "1", digits=0), "digits 0 is not a whole number from 1 to 6"),
    (lambda: curves("x", [1, 2, 3], y=[1, 2]), "length 2 does not match 'x' (3)"),
])
def test_the_output_checks_itself_and_names_the_place(build, words):
    with pytest.raises(ContractError) as e:
        build()
    assert words in str(e.value)


def test_table_from_series_samples_curves():
    s = curves("n", [1, 2, 4], t=[0.1, 0.2, 0.4])
    t = table_from_series("c", [Column("n", "count"), Column("t", "s")], s, ["n", "t"], pick=[0, 2])
    assert t.rows == ((1.0, 0.1), (4.0, 0.4))


def test_check_fails_with_the_claim():
    check(2 > 1, "two is more than one")
    with pytest.raises(ClaimError, match="claim no longer holds: the tree wins below 1 MB"):
        check(False, "the tree wins below 1 MB")
