"""Every model runs across the range its parameters declare.

A `Param` is a promise: any value it accepts, the model computes. For every built scene's model,
each parameter is swept over its declared range, the others at the catalogue's values, with the
page's worded claims collected as the Explore panels collect them (a sentence that stops holding
at another setting is not a failure: the panel names it). The model must return an Exhibit, or
refuse the combination with a ParamError (a clear error naming the field and what is allowed, the
contract's answer to two settings that contradict each other). Anything else (an IndexError, a
ValueError deep in the maths, a ZeroDivisionError) fails and names the model, the parameter and
the value.

The points, per parameter (sweep_points): both declared ends; for a side the declaration leaves
open, the catalogue's value times or over OPEN_FACTOR; between two declared ends the middle and,
for a range over decades, a point in each of the top decades. Lists, entities and free text are
not swept (their range is not a line). Sampling effort (trials, steps) only sets how many draws
a Monte Carlo takes: EFFORT is held at its declared minimum throughout, keeping the test fast.

The sweep itself is marked `slow` (`make test`; one model's: `pytest tests/test_model_ranges.py -k <id>`):
thousands of model runs are minutes of CPU, more than `make test-fast`'s whole budget. The checks of
the sweep's own logic below stay in `make test-fast`.
"""

from __future__ import annotations

import time

import pytest

from models.exhibit import Column, Exhibit, Param, ParamError, Table, check, claims_collected, model
from pipeline.catalogue import load
from pipeline.jsonio import load_ref

CATALOGUE = load()
SCENES = [s.id for s in CATALOGUE.built]
OPEN_FACTOR = 4.0  # an open side is probed this far from the page's value: far enough to leave its neighbourhood
DECADES = 3  # a range over decades gets a point at max/10, max/100, ... this many
# sample counts: cost grows with them and nothing but the noise changes, so only their minimum is swept
EFFORT = {"trials", "mc_trials", "detector_trials", "steps", "trace_jobs", "jobs", "sim_time", "mc_nodes",
          "max_spares", "max_nodes", "other_seeds", "retry_seeds", "frequent_job_steps", "shard_check_reads",
          "spray_trials"}


def sweep_points(p: Param, value) -> list:
    """The values of one parameter the sweep tries (the catalogue's own value left out)."""
    if p.kind == "flag":
        return [not value]
    if p.kind == "text":
        return [c for c in p.choices if c != value]
    if p.kind not in ("number", "integer"):
        return []
    lo = p.minimum if p.minimum is not None else (value / OPEN_FACTOR if value > 0 else None)
    hi = p.maximum if p.maximum is not None else (value * OPEN_FACTOR if value > 0 else None)
    points = [x for x in (lo, hi) if x is not None]
    if p.minimum is not None and p.maximum is not None:
        points.append((lo + hi) / 2)
        if hi > 0 and hi > 100 * max(lo, 0.0):  # over decades: the linear middle says little about the bottom
            points += [hi / 10 ** k for k in range(1, DECADES + 1) if hi / 10 ** k > lo]
    if p.kind == "integer":
        points = [int(round(x)) for x in points]
    allowed = [x for x in points if _accepts(p, x)]
    return [x for x in dict.fromkeys(allowed) if x != value]


def _accepts(p: Param, x) -> bool:
    try:
        p.validate("x", x)
    except ParamError:
        return False
    return True


def least_effort(fn, params: dict) -> dict:
    """The catalogue's parameters with every sample count at its declared minimum: the sweep asks
    whether the maths runs, which the number of draws does not change, and it costs a tenth."""
    return {k: (type(v)(fn.params[k].minimum) if k in EFFORT and fn.params[k].minimum is not None
                and fn.params[k].kind in ("number", "integer") else v)  # a list of seeds keeps its seeds
            for k, v in params.items()}


def outcome(fn, params: dict) -> str | None:
    """None when the model returns an Exhibit or refuses with a ParamError, else what went wrong."""
    try:
        with claims_collected():
            out = fn(**params)
    except ParamError:
        return None
    except Exception as e:  # noqa: BLE001 - any other exception is the finding
        return f"{type(e).__name__}: {str(e)[:160]}"
    return None if isinstance(out, Exhibit) else f"returned {type(out).__name__}"


def sweep(scene_id: str) -> list[str]:
    """Every failure of one scene's model over its parameters' ranges: "model: param=value: error"."""
    scene = CATALOGUE.scene(scene_id)
    fn = load_ref(scene.model)
    base = least_effort(fn, scene.params)
    failures = []
    for name, p in fn.params.items():
        if name not in scene.params:
            continue
        points = sweep_points(p, scene.params[name])
        if name in EFFORT:
            points = [x for x in points if x == p.minimum]
        for x in points:
            problem = outcome(fn, {**base, name: x})
            if problem:
                failures.append(f"{scene.model}: {name}={x!r}: {problem}")
                print(failures[-1])
    return failures


# Models the sweep still stops, each with why: strict xfails, so a model that passes is noticed.
STILL_FAILING: dict[str, str] = {}


@pytest.mark.slow  # minutes of CPU over every model: `make test` runs it, `make test-fast` leaves it
@pytest.mark.parametrize("scene_id", [pytest.param(s, marks=pytest.mark.xfail(reason=STILL_FAILING[s], strict=True))
                                      if s in STILL_FAILING else s for s in SCENES])
def test_model_runs_across_its_declared_range(scene_id):
    t0 = time.process_time()
    failures = sweep(scene_id)
    print(f"\n{scene_id}: swept in {time.process_time() - t0:.1f} s CPU")
    assert not failures, f"{scene_id}: the model stops inside its declared range:\n" + "\n".join(failures)


# --- the check catches what it names ------------------------------------------------------
def test_sweep_points_cover_both_ends_and_the_decades():
    assert sweep_points(Param.number("m", "cable", minimum=0, maximum=10_000), 5.0) == [
        0, 10_000, 5000.0, 1000.0, 100.0, 10.0]
    assert sweep_points(Param.positive("W", "power"), 700.0) == [175.0, 2800.0]
    assert sweep_points(Param.integer("count", "ports", minimum=1, maximum=4), 3) == [1, 4, 2]
    assert sweep_points(Param.flag("a flag"), True) == [False]
    assert sweep_points(Param.numbers("1", "a list"), [1.0]) == []


def _exhibit(**summary) -> Exhibit:
    return Exhibit(summary=summary, series={}, table=Table("t", [Column("x", "1")], [[1.0]]))


def test_a_model_that_stops_inside_its_range_is_named():
    """A planted defect: a model whose declared range runs to 64 ports but whose table has 8 rows."""

    @model(ports=Param.integer("count", "ports", minimum=1, maximum=64))
    def planted(ports):
        rates = [1.0] * 8  # one row per port count, up to 8: the declaration says 64
        return _exhibit(rate=rates[ports - 1])

    assert outcome(planted, {"ports": 8}) is None
    assert outcome(planted, {"ports": 64}).startswith("IndexError")
    points = sweep_points(planted.params["ports"], 8)
    assert 64 in points, "the sweep reaches the declared end where the defect is"


def test_refusals_and_collected_claims_pass():

    @model(x=Param.positive("1", "x"), y=Param.positive("1", "y"))
    def picky(x, y):
        if x > y:
            raise ParamError("x", x, f"at most y ({y:g})")
        check(x < 1, "x is small")
        return _exhibit(x=float(x))

    assert outcome(picky, {"x": 2.0, "y": 3.0}) is None, "a failing claim is collected"
    assert outcome(picky, {"x": 4.0, "y": 3.0}) is None, "a ParamError is a clear refusal"
    assert outcome(picky, {"x": -1.0, "y": 3.0}) is None, "the contract's own refusal"
