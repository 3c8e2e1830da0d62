"""What a model takes and what it returns: the one contract between the stages.

Read this file to know how to write a model. A model is a function decorated
with `@model(...)` that declares every parameter it takes (`Param`: kind,
unit, allowed range) and returns an `Exhibit`:

    @model(
        ranks=Param.integer("count", "GPUs in the ring", minimum=2),
        link_bandwidth=Param.positive("B/s", "link bandwidth, per direction"),
        seed=Param.integer("1", "random seed", animation=True),
    )
    def ring_vs_tree(ranks, link_bandwidth, seed=0) -> Exhibit:
        ...
        check(crossover > small_message, "the tree wins below the crossover")
        return Exhibit(
            summary={"crossover_bytes": crossover, ...},   # numbers the page quotes
            series=curves("message", sizes, ring=t_ring, tree=t_tree),  # figure data
            table=Table("caption", [Column("message", "B"), ...], rows),  # the numbers table
            animation={...},                                # the scene's plan
            problems={"bytes_sent": ...},                   # worked-problem answers
        )

Everything here validates itself when built, so a model that returns a NaN,
a ragged table or an unknown unit fails at once with the place named, and the
pipeline (pipeline/workers/compute.py) only has to serialise `exhibit.to_dict()`.

Parameters are checked before the model runs: pipeline/catalogue.py calls
`validate_params` on every scene's resolved parameters at load time, so a bad
value in catalogue.yml gets one line naming the scene, the field, the value and
what is allowed, and no model ever sees it.

Worded claims (a page saying "latency-bound" or "the tree wins below …") are
checked where they are made: `check(condition, claim)` raises `ClaimError`,
which the build reports with the scene and the claim, when the data stops
supporting the sentence.

Pure stdlib and numpy; the models know nothing of Manim, matplotlib or MkDocs.
"""

from __future__ import annotations

import contextlib
import contextvars
import dataclasses
import functools
import inspect
import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Literal, get_args

import numpy as np

# --- units ----------------------------------------------------------------------
# The units a column, parameter or summary value may carry. SI base units
# (models/units.py); "1" is a plain number, "count" a whole number of things,
# "text" a label. The page formats each by its unit (pipeline/site/sections/tables.py). A temperature
# readers know in degrees Celsius (a coolant supply, the outdoor air) is held and declared in "°C";
# a temperature difference, or one a formula needs absolute, in "K".
Unit = Literal[
    "B", "s", "B/s", "b/s", "1", "%", "count", "text",
    "FLOP", "FLOP/s", "FLOP/B", "W", "J", "J/B", "K", "USD", "USD/h", "kg/s", "Hz", "B/token", "T/s", "m",
    "°C", "K/W", "J/K", "kg/m³", "Pa", "m³/s", "L/min", "g/kWh", "USD/kWh", "USD/kW-month",
]
UNITS: frozenset[str] = frozenset(get_args(Unit))


class ContractError(ValueError):
    """A model's output breaks the contract; the message says where."""


class ParamError(ValueError):
    """A parameter value a model does not accept: field, value and what is allowed."""

    def __init__(self, name: str, value: Any, allowed: str):
        self.name, self.value, self.allowed = name, value, allowed
        super().__init__(f"field 'params.{name}': {value!r} is not allowed: {allowed}")


class ClaimError(AssertionError):
    """A sentence on the page that the model output no longer supports."""


# Where check() records failing claims instead of raising. An Explore panel (pipeline/workers/explore.py)
# runs a model at settings the page's sentences were not written for, and a scenario build
# (pipeline/workers/scenario.py) runs it for another published run: both need every sentence that
# does not hold there, not only the first. None (the default build): a failing claim stops the build.
_COLLECTED: contextvars.ContextVar[list[str] | None] = contextvars.ContextVar("w06_claims", default=None)


def check(condition: Any, claim: str) -> None:
    """Fail the build when `claim` (the page's words) stops holding for these parameters."""
    if not bool(condition):
        collected = _COLLECTED.get()
        if collected is None:
            raise ClaimError(f"claim no longer holds: {claim}")
        if claim not in collected:
            collected.append(claim)


@contextlib.contextmanager
def claims_collected():
    """Inside this block check() records each failing claim (once) in the yielded list and goes on."""
    broken: list[str] = []
    token = _COLLECTED.set(broken)
    try:
        yield broken
    finally:
        _COLLECTED.reset(token)


# --- parameters -------------------------------------------------------------------
Kind = Literal["number", "integer", "text", "numbers", "entity", "flag"]


@dataclass(frozen=True)
class Param:
    """One declared model parameter: what it is, its unit and the values it accepts.

    `label` is the reader's name for it on the page's parameter table;
    `animation=True` marks a value that only paces or seeds the animation (it
    is hidden from readers). Use the constructors below rather than the fields.
    """

    kind: Kind
    unit: str
    label: str
    minimum: float | None = None  # inclusive
    maximum: float | None = None  # inclusive
    above: float | None = None  # exclusive lower bound (positive: above=0)
    choices: tuple[str, ...] = ()
    entity: type | None = None
    animation: bool = False

    def __post_init__(self):
        if self.unit not in UNITS:
            raise ContractError(f"Param {self.label!r}: unit {self.unit!r} is not one of {sorted(UNITS)}")
        if not self.label.strip():
            raise ContractError("Param: a label (the reader's name for it) is required")

    # constructors, so declarations read as sentences
    @classmethod
    def positive(cls, unit: str, label: str, maximum: float | None = None, **kw) -> Param:
        return cls("number", unit, label, above=0.0, maximum=maximum, **kw)

    @classmethod
    def number(cls, unit: str, label: str, minimum: float | None = None, maximum: float | None = None,
               **kw) -> Param:
        return cls("number", unit, label, minimum=minimum, maximum=maximum, **kw)

    @classmethod
    def fraction(cls, label: str, **kw) -> Param:
        """A share in [0, 1]."""
        return cls("number", "1", label, minimum=0.0, maximum=1.0, **kw)

    @classmethod
    def integer(cls, unit: str, label: str, minimum: float | None = 1, maximum: float | None = None,
                **kw) -> Param:
        return cls("integer", unit, label, minimum=minimum, maximum=maximum, **kw)

    @classmethod
    def text(cls, label: str, choices: Sequence[str] = (), **kw) -> Param:
        return cls("text", "text", label, choices=tuple(choices), **kw)

    @classmethod
    def numbers(cls, unit: str, label: str, minimum: float | None = None, above: float | None = None,
                **kw) -> Param:
        """A non-empty list of numbers, each in range."""
        return cls("numbers", unit, label, minimum=minimum, above=above, **kw)

    @classmethod
    def of(cls, entity: type, label: str, **kw) -> Param:
        """A typed product entity from models/constants (e.g. `$gpu.h100`)."""
        return cls("entity", "text", label, entity=entity, **kw)

    @classmethod
    def flag(cls, label: str, **kw) -> Param:
        return cls("flag", "text", label, **kw)

    # --- validation ---------------------------------------------------------------
    def allowed(self) -> str:
        """What this parameter accepts, in words, for error messages."""
        if self.kind == "text":
            return f"one of {list(self.choices)}" if self.choices else "non-empty text"
        if self.kind == "entity":
            return f"a {self.entity.__name__} (e.g. $gpu.<name>)"
        if self.kind == "flag":
            return "true or false"
        what = {"number": "a finite number", "integer": "a whole number",
                "numbers": "a non-empty list of finite numbers"}[self.kind]
        bounds = []
        if self.above is not None:
            bounds.append(f"> {self.above:g}")
        if self.minimum is not None:
            bounds.append(f">= {self.minimum:g}")
        if self.maximum is not None:
            bounds.append(f"<= {self.maximum:g}")
        unit = "" if self.unit in ("1", "count", "text") else f" in {self.unit}"
        return what + unit + (f", {' and '.join(bounds)}" if bounds else "")

    def validate(self, name: str, value: Any) -> Any:
        """The value if it is allowed, else ParamError naming the field."""
        bad = ParamError(name, value, self.allowed())
        if self.kind == "text":
            if not isinstance(value, str) or not value.strip() or (self.choices and value not in self.choices):
                raise bad
            return value
        if self.kind == "flag":
            if not isinstance(value, bool):
                raise bad
            return value
        if self.kind == "entity":
            if not isinstance(value, self.entity):
                raise bad
            return value
        if self.kind == "numbers":
            if not isinstance(value, (list, tuple)) or not value:
                raise bad
            for v in value:
                self._number(bad, v)
            return value
        self._number(bad, value)
        if self.kind == "integer" and not float(value).is_integer():
            raise bad
        return value

    def _number(self, bad: ParamError, v: Any) -> None:
        if isinstance(v, bool) or not isinstance(v, (int, float, np.integer, np.floating)):
            raise bad
        if not math.isfinite(v):
            raise bad
        if self.above is not None and not v > self.above:
            raise bad
        if self.minimum is not None and v < self.minimum:
            raise bad
        if self.maximum is not None and v > self.maximum:
            raise bad


def validate_params(fn, params: Mapping[str, Any]) -> list[ParamError]:
    """Every problem with `params` for model `fn`: unknown, missing and disallowed values."""
    spec: dict[str, Param] = fn.params
    errors = []
    sig = inspect.signature(fn)
    for name in params:
        if name not in spec:
            errors.append(ParamError(name, params[name], f"{fn.__name__} takes no such parameter "
                                     f"(it takes {', '.join(spec)})"))
    for name, p in sig.parameters.items():
        if name not in params:
            if p.default is inspect.Parameter.empty:
                errors.append(ParamError(name, None, f"missing; {fn.__name__} requires it"))
            continue
        try:
            spec[name].validate(name, params[name])
        except ParamError as e:
            errors.append(e)
    return errors


def model(**spec: Param):
    """Declare a model's parameters. The decorated function validates its inputs and output.

    Every parameter of the function must be declared and nothing else, so the
    declaration and the signature cannot drift; that is checked at import.
    """

    def wrap(fn):
        names = list(inspect.signature(fn).parameters)
        if set(names) != set(spec):
            missing, extra = sorted(set(names) - set(spec)), sorted(set(spec) - set(names))
            raise ContractError(f"{fn.__module__}.{fn.__name__}: declare every parameter with Param: "
                                f"undeclared {missing}, declared but not taken {extra}")
        for name, p in spec.items():
            if not isinstance(p, Param):
                raise ContractError(f"{fn.__module__}.{fn.__name__}: {name} must be a Param")
        bound_sig = inspect.signature(fn)

        @functools.wraps(fn)
        def run(*args, **kwargs):
            bound = bound_sig.bind(*args, **kwargs)
            errors = validate_params(fn_ref, bound.arguments)
            if errors:
                raise errors[0]
            out = fn(*args, **kwargs)
            if not isinstance(out, Exhibit):
                raise ContractError(f"{fn.__module__}.{fn.__name__} returned {type(out).__name__}, "
                                    "expected an Exhibit (models/exhibit.py)")
            return out

        run.params = dict(spec)
        run.is_model = True
        fn_ref = run
        return run

    return wrap


def param_units(fn) -> dict[str, str]:
    return {k: p.unit for k, p in fn.params.items()}


# --- the output -------------------------------------------------------------------
Scalar = float | int | str | bool | None


def _finite(where: str, value: Any) -> None:
    """Reject NaN and infinity anywhere in a value, naming the path to it."""
    if isinstance(value, bool) or value is None or isinstance(value, str):
        return
    if isinstance(value, (int, float, np.integer, np.floating)):
        if not math.isfinite(value):
            raise ContractError(f"{where} is {value} (not finite): JSON and the page cannot carry it")
        return
    if isinstance(value, np.ndarray):
        if value.dtype.kind in "fc" and not np.all(np.isfinite(value)):
            bad = int(np.flatnonzero(~np.isfinite(value.ravel()))[0])
            raise ContractError(f"{where}[{bad}] is {value.ravel()[bad]} (not finite)")
        return
    if isinstance(value, Mapping):
        for k, v in value.items():
            _finite(f"{where}.{k}", v)
        return
    if isinstance(value, (list, tuple)):
        for i, v in enumerate(value):
            _finite(f"{where}[{i}]", v)
        return
    if dataclasses.is_dataclass(value):
        _finite(where, dataclasses.asdict(value))
        return
    raise ContractError(f"{where}: {type(value).__name__} is not JSON data")


@dataclass(frozen=True)
class Column:
    """One column of a table: its heading, its unit, and the significant figures its cells print
    with (3, as everywhere on the site, unless the column's point is a difference in the 4th)."""

    name: str
    unit: Unit
    digits: int = 3

    def __post_init__(self):
        if self.unit not in UNITS:
            raise ContractError(f"column {self.name!r}: unit {self.unit!r} is not one of {sorted(UNITS)}")
        if not isinstance(self.digits, int) or not 1 <= self.digits <= 6:
            raise ContractError(f"column {self.name!r}: digits {self.digits!r} is not a whole number from 1 to 6")

    def to_dict(self) -> dict:
        # digits is written only where it is not the default, so the other tables' data stay as they were
        d = {"name": self.name, "unit": self.unit}
        return d if self.digits == 3 else {**d, "digits": self.digits}


@dataclass(frozen=True)
class Table:
    """The page's numbers table (and the CSV download): a caption, columns with units, rows."""

    caption: str
    columns: tuple[Column, ...]
    rows: tuple[tuple, ...]

    def __init__(self, caption: str, columns: Sequence[Column], rows: Sequence[Sequence]):
        object.__setattr__(self, "caption", caption)
        object.__setattr__(self, "columns", tuple(columns))
        object.__setattr__(self, "rows", tuple(tuple(_plain(v) for v in r) for r in rows))
        self.__post_init__()

    def __post_init__(self):
        if not self.caption.strip():
            raise ContractError("table: a caption is required")
        if not self.columns:
            raise ContractError("table: no columns")
        for i, r in enumerate(self.rows):
            if len(r) != len(self.columns):
                raise ContractError(f"table row {i}: {len(r)} cells, expected {len(self.columns)} "
                                    f"({', '.join(c.name for c in self.columns)})")
            for v, c in zip(r, self.columns, strict=True):
                if c.unit == "text":
                    if not isinstance(v, str):
                        raise ContractError(f"table row {i}, column {c.name!r}: text column holds {v!r}")
                elif v is not None:  # None prints as a dash: "not applicable"
                    if isinstance(v, (str, bool)) or not isinstance(v, (int, float)):
                        raise ContractError(f"table row {i}, column {c.name!r}: {v!r} is not a number")
                    if not math.isfinite(v):
                        raise ContractError(f"table row {i}, column {c.name!r}: {v} is not finite")

    def to_dict(self) -> dict:
        return {"caption": self.caption,
                "columns": [c.to_dict() for c in self.columns],
                "rows": [list(r) for r in self.rows]}


def _plain(v: Any) -> Any:
    """numpy scalars to Python ones, so tables compare and serialise plainly."""
    if isinstance(v, np.generic):
        return v.item()
    return v


def curves(x_name: str, x: Sequence[float], **ys: Sequence[float]) -> dict[str, np.ndarray]:
    """Series that share one x axis: checked to be 1-D and of equal length.

    `series=curves("message", sizes, ring=t_ring, tree=t_tree)` gives the flat
    mapping {"message": ..., "ring": ..., "tree": ...} the figures read.
    """
    xs = np.asarray(x, dtype=float)
    if xs.ndim != 1 or xs.size == 0:
        raise ContractError(f"series {x_name!r}: expected a non-empty 1-D array")
    out = {x_name: xs}
    for name, y in ys.items():
        ya = np.asarray(y, dtype=float)
        if ya.shape != xs.shape:
            raise ContractError(f"series {name!r}: length {ya.size} does not match "
                                f"{x_name!r} ({xs.size})")
        out[name] = ya
    return out


def table_from_series(caption: str, columns: Sequence[Column], series: Mapping[str, Sequence],
                      keys: Sequence[str], pick: Sequence[int] | None = None) -> Table:
    """A numbers table whose rows sample curves: column j holds series[keys[j]] at the picked indices."""
    n = len(series[keys[0]])
    idx = range(n) if pick is None else pick
    rows = [[_plain(np.asarray(series[k])[i]) for k in keys] for i in idx]
    return Table(caption, columns, rows)


@dataclass(frozen=True)
class Exhibit:
    """What every model returns. Each part has one reader:

    summary:   the numbers (and booleans, and short labels) the page's prose quotes, by name;
    series:    arrays the figures draw (use `curves()` for series sharing an x axis);
    table:     the page's numbers table and CSV download;
    animation: the plan the Manim scene plays (positions, counts, per-beat values);
    problems:  answers to the page's worked problems;
    records:   named lists or mappings of structured items several readers share
               (the GPUs compared, the kernels placed), when a flat summary would
               only repeat them key by key.
    """

    summary: Mapping[str, Scalar]
    series: Mapping[str, Any]
    table: Table
    animation: Mapping[str, Any] = field(default_factory=dict)
    problems: Mapping[str, Any] = field(default_factory=dict)
    records: Mapping[str, Any] = field(default_factory=dict)

    def __post_init__(self):
        if not isinstance(self.table, Table):
            raise ContractError("exhibit.table must be a Table")
        for k, v in self.summary.items():
            if isinstance(v, (np.generic,)):
                continue
            if not isinstance(v, (int, float, str, bool)) and v is not None:
                raise ContractError(f"summary.{k}: {type(v).__name__} is not a scalar "
                                    "(put arrays in series, structures in records)")
        for k, v in self.series.items():
            a = np.asarray(v)
            if a.ndim != 1:
                raise ContractError(f"series.{k}: expected a 1-D array, got shape {a.shape}")
            if a.dtype.kind not in "biuf":
                raise ContractError(f"series.{k}: expected numbers, got dtype {a.dtype}")
        for part in ("summary", "series", "animation", "problems", "records"):
            _finite(part, getattr(self, part))

    def to_dict(self) -> dict:
        return {
            "summary": dict(self.summary),
            "series": {k: np.asarray(v) for k, v in self.series.items()},
            "table": self.table.to_dict(),
            "animation": dict(self.animation),
            "problems": dict(self.problems),
            "records": dict(self.records),
        }


__all__ = [
    "Unit", "UNITS", "ContractError", "ParamError", "ClaimError", "check", "Param", "model",
    "validate_params", "param_units", "Column", "Table", "curves", "table_from_series", "Exhibit",
]
