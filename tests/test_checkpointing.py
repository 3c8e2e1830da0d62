"""Scene 10 · Daly's formula: the model's limits, published values, and the
analytic wall time against a seeded Monte Carlo that could disagree with it."""

from __future__ import annotations

import json
import math

import numpy as np
import pytest

from models import checkpointing as ck
from models.constants import CONSTANTS
from models.units import DAY, HOUR, MINUTE, fmt_seconds
from pipeline.catalogue import load
from pipeline.jsonio import to_json

PARAMS = load().scene("daly-checkpoint").params
Z = ck.Z_CHECK  # |MC − analytic| ≤ 3·SE: 3σ keeps a correct model from flaking


@pytest.fixture(scope="module")
def data():
    return ck.daly_interval(**PARAMS)


# --- inputs -------------------------------------------------------------------
def test_mtbf_from_the_llama3_record():
    # Llama 3 report §3.3.4: 419 unexpected interruptions in a 54-day snapshot,
    # "one failure every three hours" as the press summarised it.
    m = ck.mean_time_between_interruptions(54 * DAY, 419)
    assert m / HOUR == pytest.approx(3.093, abs=1e-3)
    assert PARAMS["observation_window"] == 54 * DAY and PARAMS["interruptions"] == 419


def test_checkpoint_size_matches_llama3_per_gpu_range(data):
    s = data["summary"]
    # ZeRO §3.1: 2Ψ fp16 weights + KΨ optimizer states with K = 12 (gradients not saved)
    assert s["bytes_per_param"] == 14
    assert s["checkpoint_bytes"] == pytest.approx(405e9 * 14)
    # Llama 3 §3.3.1: each GPU saves 1 MB to 4 GB of model state
    lo = CONSTANTS["llama3_checkpoint_per_gpu_min"].value
    hi = CONSTANTS["llama3_checkpoint_per_gpu_max"].value
    assert lo <= s["checkpoint_bytes_per_gpu"] <= hi
    assert s["checkpoint_cost"] == pytest.approx(s["checkpoint_bytes"] / 2e12)


# --- the optimum ----------------------------------------------------------------
@pytest.mark.parametrize("mtbf_h, published_min", [(24, 117), (6, 57), (0.25, 9.1)])
def test_daly_published_cases(mtbf_h, published_min):
    # Daly 2006, Figs. 3-5: δ = 5 min, R = 10 min; "the new model predicts τopt = …"
    tau = ck.daly_optimum(5 * MINUTE, mtbf_h * HOUR) / MINUTE
    assert tau == pytest.approx(published_min, abs=0.5 if published_min > 10 else 0.05)


def test_young_tends_to_daly_as_delta_over_m_vanishes():
    gaps = []
    for d in (1e-1, 1e-2, 1e-3, 1e-4, 1e-6):
        ratio = ck.daly_optimum(d, 1.0) / ck.young_interval(d, 1.0)
        gaps.append(abs(ratio - 1.0))
        assert gaps[-1] < math.sqrt(d)  # ratio = 1 − (2/3)√(δ/2M) + (δ/2M)/9
    assert gaps == sorted(gaps, reverse=True) and gaps[-1] < 1e-3


@pytest.mark.parametrize("ratio", [2.0, 3.0, 10.0])
def test_daly_is_m_when_delta_at_least_2m(ratio):
    assert ck.daly_optimum(ratio * 100.0, 100.0) == 100.0
    assert ck.daly_optimum(1.99 * 100.0, 100.0) != 100.0


@pytest.mark.parametrize("d", [1e-5, 1e-3, 1e-2, 0.1, 0.5])
def test_exact_optimum_minimises_wall_time(d):
    mtbf, restart, work = 1.0, 0.05, 100.0
    tau = ck.optimal_interval(d, mtbf)
    grid = tau * np.exp(np.linspace(-0.5, 0.5, 20001))
    w = ck.wall_time(grid, d, mtbf, restart, work)
    assert grid[np.argmin(w)] == pytest.approx(tau, rel=1e-4)
    # stationarity in closed form: (1 − τ/M)·e^{τ/M} = e^{−δ/M}
    x = tau / mtbf
    assert (1 - x) * math.exp(x) == pytest.approx(math.exp(-d), rel=1e-12)


@pytest.mark.parametrize("d", [1e-5, 1e-3, 1e-2, 0.1])
def test_daly_estimate_close_to_exact_and_no_worse_than_young(d):
    tau_d, tau_e = ck.daly_optimum(d, 1.0), ck.optimal_interval(d, 1.0)
    tau_y = ck.young_interval(d, 1.0)
    # Daly's estimate is good for δ ≪ M: within 0.5% of the minimiser up to δ = 0.1 M
    assert abs(tau_d / tau_e - 1.0) < 5e-3
    assert abs(tau_d / tau_e - 1.0) <= abs(tau_y / tau_e - 1.0)
    args = (d, 1.0, 0.1, 1000.0)
    assert ck.wall_time(tau_d, *args) <= ck.wall_time(tau_y, *args) * (1 + 1e-12)
    assert ck.wall_time(tau_e, *args) <= ck.wall_time(tau_d, *args) * (1 + 1e-12)


def test_no_failures_no_overhead():
    work = 1e5
    for mtbf, delta in ((1e9, 1e-3), (1e12, 1e-6), (1e15, 1e-9)):
        w = ck.wall_time(ck.optimal_interval(delta, mtbf), delta, mtbf, 600.0, work)
        assert w >= work
        assert w / work - 1.0 < 10 * math.sqrt(2 * delta / mtbf) + 600.0 / mtbf * 2


def test_wall_time_falls_then_rises_around_the_optimum(data):
    s = data["series"]["curve"]
    tau, w = np.asarray(s["tau"]), np.asarray(s["wall_time"])
    i = int(np.argmin(w))
    assert 0 < i < len(w) - 1
    assert np.all(np.diff(w[: i + 1]) < 0) and np.all(np.diff(w[i:]) > 0)
    assert tau[i] == pytest.approx(data["summary"]["optimal_interval"], rel=0.02)


def test_breakdown_adds_up_to_wall_time():
    tau = np.array([10.0, 100.0, 1000.0])
    args = (3.0, 5000.0, 600.0, 86400.0)
    parts = ck.overhead_breakdown(tau, *args)
    total = 86400.0 + parts["save"] + parts["lost"] + parts["restart"]
    np.testing.assert_allclose(total, ck.wall_time(tau, *args), rtol=1e-12)


# --- analytic versus Monte Carlo ---------------------------------------------------
def test_monte_carlo_agrees_with_daly_at_every_interval(data):
    mc = data["series"]["mc"]
    mean, se, analytic = (np.asarray(mc[k]) for k in ("mean", "se", "analytic"))
    assert len(mean) >= 10
    assert np.all(np.abs(mean - analytic) <= Z * se), mc["z"]
    assert np.all(se / analytic < 1e-3)  # the interval is tight, so agreement means something


def _rejected(mean, se, model) -> bool:
    return bool(np.any(np.abs(mean - model) > Z * se))


def test_wrong_models_fail_the_same_check(data):
    """The check can fail: models that differ from Daly's only in the restart
    term are rejected by the same |mean − model| ≤ 3·SE test."""
    s, mc = data["summary"], data["series"]["mc"]
    mean, se, tau = (np.asarray(mc[k]) for k in ("mean", "se", "tau"))
    M, d, R, Ts = s["mtbf"], s["checkpoint_cost"], s["restart_cost"], s["work"]
    n = Ts / tau
    no_exp = ck.wall_time(tau, d, M, R, Ts) / math.exp(R / M)          # drop e^{R/M}
    doubled = ck.wall_time(tau, d, M, 2 * R, Ts)                       # R doubled
    immune = n * (M + R) * np.expm1((tau + d) / M)                     # restarts cannot fail
    assert _rejected(mean, se, no_exp)
    assert _rejected(mean, se, doubled)
    assert _rejected(mean, se, immune)


@pytest.mark.parametrize("mtbf, delta, restart, n", [
    (1000.0, 100.0, 300.0, 40),     # δ/M = 0.1: failures during saves are common
    (500.0, 50.0, 400.0, 20),       # R comparable to M: failed restarts are common
    (200.0, 500.0, 100.0, 10),      # δ > 2M: Daly's τ = M regime
])
def test_monte_carlo_agrees_in_harsh_regimes(mtbf, delta, restart, n):
    rng = np.random.default_rng(2024)
    tau, trials = 150.0, 20_000
    sim = ck.simulate_wall_times(n, tau, delta, mtbf, restart, trials, rng)
    w = sim["wall"]
    se = w.std(ddof=1) / math.sqrt(trials)
    assert abs(w.mean() - ck.wall_time(tau, delta, mtbf, restart, n * tau)) <= Z * se
    parts = ck.overhead_breakdown(tau, delta, mtbf, restart, n * tau)
    for key in ("lost", "restart"):
        v = sim[key]
        assert abs(v.mean() - parts[key]) <= Z * v.std(ddof=1) / math.sqrt(trials)


# --- the illustrative timeline ---------------------------------------------------
def test_timeline_is_a_consistent_job(data):
    s = data["summary"]
    blocks = data["series"]["timeline"]
    n, tau = int(s["timeline_segments"]), s["timeline_interval"]
    for a, b in zip(blocks, blocks[1:]):
        assert b["start"] == pytest.approx(a["end"])  # contiguous wall clock
    kept = [b for b in blocks if not b["lost"]]
    done = sum(b["end"] - b["start"] for b in kept if b["kind"] in ("compute", "rework"))
    assert done == pytest.approx(n * tau)
    assert sum(b["kind"] == "save" for b in kept) == n
    assert blocks[-1]["work_end"] == pytest.approx(n * tau)
    fails = [i for i, b in enumerate(blocks) if b["kind"] == "failure"]
    assert fails and s["timeline_failures"] == len(fails)
    for i in fails:  # a failure is followed by a restart, preceded by lost work
        assert blocks[i + 1]["kind"] == "restart" and blocks[i - 1]["lost"]
    rework = [b for b in kept if b["kind"] == "rework"]
    assert rework and all(b["start"] > blocks[fails[0]]["start"] for b in rework)


# --- contracts ------------------------------------------------------------------------
def test_table_contract(data):
    t = data["table"]
    assert isinstance(t["caption"], str) and t["caption"]
    units = {"B", "s", "B/s", "1", "%", "count", "text"}
    assert all(set(c) == {"name", "unit"} and c["unit"] in units for c in t["columns"])
    assert t["rows"] and all(len(r) == len(t["columns"]) for r in t["rows"])
    waste_col = [c["unit"] for c in t["columns"]].index("%")
    assert all(0.0 <= r[waste_col] <= 1.0 for r in t["rows"])
    json.loads(to_json(data))  # serialisable, no NaN


def test_deterministic_under_seed(data):
    assert to_json(ck.daly_interval(**PARAMS)) == to_json(data)


def test_scene_captions_quote_the_model(dry_run):
    data, beats, duration = dry_run("daly-checkpoint")
    assert 30 <= duration <= 45
    s = data["summary"]
    text = " ".join(b["caption"] for b in beats)
    for key in ("mtbf", "optimal_interval", "restart_cost", "checkpoint_cost"):
        assert fmt_seconds(s[key]) in text, key


@pytest.mark.parametrize("theme", ["light", "dark"])
def test_figure_draws(data, theme):
    from figures.checkpointing import wall_time_vs_interval
    from figures.theme import svg_bytes, themed

    payload = json.loads(to_json(data))
    with themed(theme):
        svg = svg_bytes(wall_time_vs_interval(payload, theme))
    assert svg.startswith(b"<?xml") and len(svg) > 10_000
