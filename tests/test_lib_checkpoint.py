"""Young/Daly (models/lib/checkpoint.py): published optima, the exact minimiser, the breakdown of
wall time, efficiency versus the restart time, the Monte Carlo in harsh regimes, and the bounds on
every loop."""

from __future__ import annotations

import math

import numpy as np
import pytest

from models.lib import checkpoint as ck
from models.units import HOUR, MINUTE

Z = ck.Z_CHECK  # |MC − analytic| ≤ 3·SE: 3σ keeps a correct model from flaking


# --- the optimum, three ways -------------------------------------------------------------
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


def test_bisection_keeps_its_precision_for_any_delta_over_m():
    # a fixed number of steps on a bracket that scales with √(δ/M): precise even for δ/M = 1e-300,
    # where a bracket of (0, 1) would have needed ~500 steps
    for d in (1e-300, 1e-40, 1e-12):
        assert ck.optimal_interval(d, 1.0) == pytest.approx(math.sqrt(2 * d), rel=1e-5)
    for d in (1e-3, 1.0, 10.0):
        x = ck.optimal_interval(d, 1.0)
        assert 0 < x <= 1
        assert (1 - x) * math.exp(x) == pytest.approx(math.exp(-d), rel=1e-9, abs=1e-300)


def test_no_failures_no_overhead():
    work = 1e5
    for mtbf, delta in ((1e9, 1e-3), (1e12, 1e-6), (1e15, 1e-9)):
        w = ck.wall_time(ck.optimal_interval(delta, mtbf), delta, mtbf, 600.0, work)
        assert w >= work
        assert w / work - 1.0 < 10 * math.sqrt(2 * delta / mtbf) + 600.0 / mtbf * 2


def test_breakdown_adds_up_to_wall_time():
    tau = np.array([10.0, 100.0, 1000.0])
    args = (3.0, 5000.0, 600.0, 86400.0)
    parts = ck.overhead_breakdown(tau, *args)
    total = 86400.0 + parts["save"] + parts["lost"] + parts["restart"]
    np.testing.assert_allclose(total, ck.wall_time(tau, *args), rtol=1e-12)


# --- efficiency versus the restart time R ------------------------------------------------
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


# --- analytic versus Monte Carlo ---------------------------------------------------------
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


# --- every loop is bounded ---------------------------------------------------------------
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


# --- the sampled timeline ----------------------------------------------------------------
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


def test_z_scores_leave_points_with_no_spread_untested():
    """A simulated point at which no trial drew a failure (SE 0) gets z 0 and is marked untested; the
    others are (mean − reference) / SE."""
    z, tested = ck.z_scores([10.0, 12.0, 5.0], [9.0, 12.5, 4.0], [0.5, 0.25, 0.0])
    assert list(tested) == [True, True, False]
    assert list(z) == pytest.approx([2.0, -2.0, 0.0])
