"""Scene 10 · Daly's formula: the model's limits, published values, the analytic
wall time against a seeded Monte Carlo that could disagree with it, the sweep
over the restart time R, and the bounds on every loop."""

from __future__ import annotations

import math

import numpy as np
import pytest

from models import daly_checkpoint as ck
from models.constants import CONSTANTS
from models.exhibit import ClaimError, ParamError
from models.units import DAY, HOUR, MINUTE, fmt_seconds

Z = ck.Z_CHECK  # |MC − analytic| ≤ 3·SE: 3σ keeps a correct model from flaking
SCENE = "daly-checkpoint"


@pytest.fixture(scope="module")
def data(model_output):
    return model_output(SCENE)[0]


# --- inputs: published values -------------------------------------------------------
def test_mtbf_from_the_llama3_record(scene_params):
    # Llama 3 report §3.3.4 and Table 5: 419 unexpected interruptions in a 54-day snapshot
    # ("about one every three hours")
    p = scene_params(SCENE)
    assert p["observation_window"] == 54 * DAY and p["interruptions"] == 419
    m = ck.mean_time_between_interruptions(p["observation_window"], p["interruptions"])
    assert m / HOUR == pytest.approx(3.093, abs=1e-3)
    assert ck.interruption_rate(p["observation_window"], p["interruptions"]) == pytest.approx(1 / m)


def test_checkpoint_size_matches_llama3_per_gpu_range(data):
    s, p = data["summary"], data["params"]
    # ZeRO §3.1: 2Ψ fp16 weights + KΨ optimizer states with K = 12 (gradients not saved)
    assert s["bytes_per_param"] == 14
    assert s["checkpoint_bytes"] == pytest.approx(405e9 * 14)
    # Llama 3 §3.3.1: each GPU saves 1 MB to 4 GB of model state
    lo = CONSTANTS["llama3_checkpoint_per_gpu_min"].value
    hi = CONSTANTS["llama3_checkpoint_per_gpu_max"].value
    assert (p["reported_checkpoint_min"], p["reported_checkpoint_max"]) == (lo, hi)
    assert lo <= s["checkpoint_bytes_per_gpu"] <= hi
    # Llama 3 §3.3.1: Tectonic sustains 2 TB/s
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
    s = data["series"]
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


# --- the restart time R: an assumption, swept ----------------------------------------
def test_hand_checked_case_efficiency_falls_as_e_to_the_minus_r_over_m():
    delta, mtbf, work = 3.0, 10_000.0, 86_400.0
    tau = ck.optimal_interval(delta, mtbf)
    for r in (0.0, 60.0, 600.0, 3600.0):
        direct = 1.0 - ck.waste_fraction(tau, delta, mtbf, r, work)
        assert ck.efficiency_at_optimum(delta, mtbf, r) == pytest.approx(direct, rel=1e-12)
    e0 = ck.efficiency_at_optimum(delta, mtbf, 0.0)
    assert ck.efficiency_at_optimum(delta, mtbf, mtbf) == pytest.approx(e0 / math.e, rel=1e-12)
    # the limit R for a target share: the share there is the target
    r_max = ck.restart_for_efficiency(0.9, delta, mtbf)
    assert ck.efficiency_at_optimum(delta, mtbf, r_max) == pytest.approx(0.9, rel=1e-12)
    assert ck.restart_for_efficiency(0.999, delta, mtbf) < 0  # unreachable even with R = 0


def test_break_even_restart_equals_writes_plus_rework():
    delta, mtbf, work = 3.0, 10_000.0, 86_400.0
    tau = ck.optimal_interval(delta, mtbf)
    r = ck.restart_break_even(tau, delta, mtbf)
    parts = ck.overhead_breakdown(tau, delta, mtbf, r, work)
    assert float(parts["restart"]) == pytest.approx(float(parts["save"] + parts["lost"]), rel=1e-9)


def test_sweep_over_r_brackets_the_reported_share(data):
    s, p, rows = data["summary"], data["params"], data["records"]["restart_sweep"]
    eff = [r["efficiency"] for r in rows]
    assert eff == sorted(eff, reverse=True)  # a longer restart never helps
    for r in rows:
        assert r["above_reported"] == (r["restart"] <= s["restart_for_reported"])
        assert r["above_reported"] == (r["efficiency"] >= p["reported_efficiency"])
        assert r["efficiency"] + r["save"] + r["lost"] + r["restart_share"] == pytest.approx(1.0)
    assert [r["restart"] for r in rows if r["assumed"]] == [p["restart_cost"]]
    # the page's claims: the assumed R clears the report, and some R in the sweep does not
    assert p["restart_cost"] < s["restart_for_reported"]
    assert not all(r["above_reported"] for r in rows)
    assert s["restart_break_even"] < p["restart_cost"]


def test_a_claim_that_stops_holding_fails_the_build(scene_params):
    p = scene_params(SCENE)
    # with a 30-minute restart the useful time no longer reaches the reported share
    with pytest.raises(ClaimError, match="effective training time"):
        ck.daly_interval(**{**p, "restart_cost": 30 * MINUTE, "trials": 200})


# --- analytic versus Monte Carlo ---------------------------------------------------
def test_monte_carlo_agrees_with_daly_at_every_interval(data):
    s = data["series"]
    mean, se, analytic = (np.asarray(s[k]) for k in ("mc_mean", "mc_se", "mc_analytic"))
    assert len(mean) >= 10
    assert np.all(np.abs(mean - analytic) <= Z * se), s["mc_z"]
    assert np.all(se / analytic < 1e-3)  # the interval is tight, so agreement means something


def _rejected(mean, se, model) -> bool:
    return bool(np.any(np.abs(mean - model) > Z * se))


def test_wrong_models_fail_the_same_check(data):
    """The check can fail: models that differ from Daly's only in the restart
    term are rejected by the same |mean − model| ≤ 3·SE test."""
    s, p, ser = data["summary"], data["params"], data["series"]
    mean, se, tau = (np.asarray(ser[k]) for k in ("mc_mean", "mc_se", "mc_tau"))
    M, d, R, Ts = s["mtbf"], s["checkpoint_cost"], p["restart_cost"], p["work"]
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


# --- every loop is bounded ------------------------------------------------------------
def test_a_huge_mtbf_finishes_without_failures():
    """M = 1e300 s used to overflow floor(X/L) into negative integers and spin forever."""
    rng = np.random.default_rng(0)
    sim = ck.simulate_wall_times(10, 100.0, 1.0, 1e300, 600.0, 1000, rng)
    assert np.all(sim["failures"] == 0) and np.allclose(sim["wall"], 10 * 101.0)
    blocks = ck.sample_timeline(12, 100.0, 1.0, 1e300, 600.0, rng)
    assert sum(b["kind"] == "failure" for b in blocks) >= 1  # conditioned: the rollback is shown


def test_a_job_that_cannot_progress_is_refused_with_a_clear_error():
    rng = np.random.default_rng(0)
    with pytest.raises(ck.BoundExceeded, match="expects .* failures"):
        ck.simulate_wall_times(100, 100.0, 5000.0, 100.0, 600.0, 100, rng)  # δ = 50 M
    with pytest.raises(ck.BoundExceeded, match="expects .* failures"):
        ck.sample_timeline(12, 100.0, 1.0, 10.0, 600.0, rng)  # R = 60 M: restarts rarely finish


def test_the_entry_point_is_bounded_too(scene_params):
    p = scene_params(SCENE)
    with pytest.raises(ParamError, match="observation_window"):
        ck.daly_interval(**{**p, "observation_window": math.inf})
    with pytest.raises(ParamError, match="work"):  # too short for whole Monte Carlo segments
        ck.daly_interval(**{**p, "work": 60.0})
    with pytest.raises(ParamError, match="work"):  # a job so long the simulation would take hours
        ck.daly_interval(**{**p, "work": 1e12, "trials": 100})
    with pytest.raises(ParamError, match="restart_cost"):  # e^{R/M} would overflow
        ck.daly_interval(**{**p, "restart_cost": 1e9})
    with pytest.raises(ParamError, match="interruptions"):  # δ ≫ M: no segment ever completes
        ck.daly_interval(**{**p, "observation_window": 1.0})
    # allowed inputs, but a job that expects more failures than the simulation's budget
    window = p["interruptions"] * 2.835 / 40  # M = δ/40
    with pytest.raises(ck.BoundExceeded, match="expects"):
        ck.daly_interval(**{**p, "observation_window": window, "work": 100.0, "restart_cost": 0.0,
                            "restart_sweep": [0.0], "trials": 100})


def test_bisection_keeps_its_precision_for_any_delta_over_m():
    # a fixed number of steps on a bracket that scales with √(δ/M): precise even for δ/M = 1e-300,
    # where a bracket of (0, 1) would have needed ~500 steps
    for d in (1e-300, 1e-40, 1e-12):
        assert ck.optimal_interval(d, 1.0) == pytest.approx(math.sqrt(2 * d), rel=1e-5)
    for d in (1e-3, 1.0, 10.0):
        x = ck.optimal_interval(d, 1.0)
        assert 0 < x <= 1
        assert (1 - x) * math.exp(x) == pytest.approx(math.exp(-d), rel=1e-9, abs=1e-300)


# --- the illustrative timeline ---------------------------------------------------
def test_timeline_is_a_consistent_job(data):
    s, p = data["summary"], data["params"]
    blocks = data["animation"]["timeline"]
    n, tau = p.get("timeline_segments", 12), s["optimal_interval"]
    for a, b in zip(blocks, blocks[1:]):
        assert b["start"] == pytest.approx(a["end"])  # contiguous wall clock
    kept = [b for b in blocks if not b["lost"]]
    done = sum(b["end"] - b["start"] for b in kept if b["kind"] in ("compute", "rework"))
    assert done == pytest.approx(n * tau)
    assert sum(b["kind"] == "save" for b in kept) == n
    assert blocks[-1]["work_end"] == pytest.approx(n * tau)
    fails = [i for i, b in enumerate(blocks) if b["kind"] == "failure"]
    assert fails
    for i in fails:  # a failure is followed by a restart, preceded by lost work
        assert blocks[i + 1]["kind"] == "restart" and blocks[i - 1]["lost"]
    rework = [b for b in kept if b["kind"] == "rework"]
    assert rework and all(b["start"] > blocks[fails[0]]["start"] for b in rework)
    # the first failure falls where a rollback can be shown: after 3 checkpoints, 3 segments before the end
    assert 3 * tau <= blocks[fails[0]]["work_start"] <= (n - 3) * tau


def test_timeline_conditioning_matches_the_truncated_exponential():
    """The first failure's wall time, conditioned on [a, b), has the truncated exponential's mean."""
    mtbf, tau, delta = 1000.0, 100.0, 10.0
    rng = np.random.default_rng(7)
    firsts = []
    for _ in range(2000):
        blocks = ck.sample_timeline(12, tau, delta, mtbf, 50.0, rng)
        firsts.append(next(b for b in blocks if b["kind"] == "failure")["start"])
    a, b = 3 * (tau + delta), 9 * (tau + delta)
    mean = a + mtbf - (b - a) / math.expm1((b - a) / mtbf)
    firsts = np.array(firsts)
    assert firsts.min() >= a and firsts.max() < b
    assert abs(firsts.mean() - mean) <= Z * firsts.std(ddof=1) / math.sqrt(len(firsts))


# --- contracts ------------------------------------------------------------------------
def test_waste_column_is_a_share(data):
    t = data["table"]
    waste_col = [c["unit"] for c in t["columns"]].index("%")
    assert all(0.0 <= r[waste_col] <= 1.0 for r in t["rows"])


def test_deterministic_under_seed(scene_params, data):
    import json

    from pipeline.jsonio import to_json

    again = json.loads(to_json(ck.daly_interval(**scene_params(SCENE)).to_dict()))
    assert again == {k: data[k] for k in again}


def test_scene_captions_quote_the_model(dry_run):
    data, beats, duration = dry_run(SCENE)
    assert 30 <= duration <= 45
    s, p = data["summary"], data["params"]
    text = " ".join(b["caption"] for b in beats)
    for v in (s["mtbf"], s["optimal_interval"], p["restart_cost"], s["checkpoint_cost"]):
        assert fmt_seconds(v) in text, v
