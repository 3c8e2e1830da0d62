"""spot-arbitrage · Spot arbitrage: the providers' published notices, the renewal-reward formula
against its limits and a seeded Monte Carlo that can disagree with it, the break-even
discount, reuse of Young/Daly's model when the notice is too short, and determinism."""

from __future__ import annotations

import math

import numpy as np
import pytest

from models import spot_arbitrage as spot
from models.constants import CONSTANTS
from models.exhibit import ParamError
from models.lib import checkpoint as ck
from models.units import DAY, HOUR, MINUTE

SCENE = "spot-arbitrage"
Z = spot.Z_CHECK


@pytest.fixture(scope="module")
def data(model_output):
    return model_output(SCENE)[0]


# --- published values -------------------------------------------------------------------
def test_provider_notices_as_documented(scene_params):
    p = scene_params(SCENE)
    # AWS EC2 User Guide, "Spot Instance interruption notices": two minutes
    assert p["aws_notice"] == 2 * MINUTE
    # Google Cloud "Spot VMs", §Preemption process: best effort and up to 30 seconds
    assert p["gcp_notice"] == 30
    # Microsoft Learn, Scheduled Events, minimum notice table: Preempt 30 seconds
    assert p["azure_notice"] == 30
    # Google Cloud "Preemptible VM instances": always stopped after 24 hours
    assert CONSTANTS["gcp_preemptible_max_runtime"].value == DAY


def test_published_discounts_and_bands(scene_params):
    p = scene_params(SCENE)
    assert p["discount_max"] == 0.90  # AWS Spot pricing page: "up to 90%"
    assert p["discount"] == 0.60  # Google Cloud preemptible VMs: "60-91%"
    assert CONSTANTS["gcp_spot_max_discount"].value == 0.91  # Google Cloud Spot VMs: "up to 91%"
    # Spot Instance Advisor bands: <5%, 5-10%, 10-15%, 15-20%, >20% of capacity reclaimed a month
    assert (CONSTANTS["spot_advisor_band_low"].value, CONSTANTS["spot_advisor_band_high"].value) == (0.05, 0.20)
    assert p["monthly_interruption"] == 0.20


# --- the formula's limits -------------------------------------------------------------------
def test_no_preemption_means_the_discounted_price():
    # M → ∞: the job takes W and costs (1 − d)·p·n·W
    w, price, n, d = 7 * DAY, 55.04, 8, 0.6
    wall = spot.wall_time_with_notice(w, 1e15, 61.0, 661.0)
    assert wall == pytest.approx(w, rel=1e-6)
    assert spot.job_cost(price, n, wall, d) == pytest.approx((1 - d) * price * n * w / HOUR, rel=1e-6)
    assert spot.break_even_discount(w, wall) == pytest.approx(0.0, abs=1e-6)


def test_hand_checked_case_free_snapshot_costs_one_rejoin_per_preemption():
    # δ = 0: T = W·e^{R/M}; with R = 0 as well, T = W exactly
    w, m, r = 100 * HOUR, 5 * HOUR, 10 * MINUTE
    assert spot.wall_time_with_notice(w, m, 0.0, r) == pytest.approx(w * math.exp(r / m))
    assert spot.wall_time_with_notice(w, m, 0.0, 0.0) == pytest.approx(w)


def test_formula_meets_scene_10_segment_at_w_equal_delta():
    # the renewal solution is a line for W ≥ δ that starts where Young/Daly's segment time is
    m, d, r = 3 * HOUR, 90.0, 600.0
    assert spot.wall_time_with_notice(d, m, d, r) == pytest.approx(float(ck.segment_time(d, m, r)))


def test_break_even_is_where_the_costs_meet(data):
    s, p = data["summary"], data["params"]
    for key in ("aws", "gcp", "azure"):
        d_star = s[f"{key}_break_even"]
        spot_cost = spot.job_cost(p["price"], p["nodes"], s[f"{key}_wall"], d_star)
        od_cost = spot.job_cost(p["price"], p["nodes"], p["work"])
        assert spot_cost == pytest.approx(od_cost, rel=1e-12)
        # a point below it and spot costs more; above it, less
        assert spot.job_cost(p["price"], p["nodes"], s[f"{key}_wall"], d_star - 0.01) > od_cost
        assert spot.job_cost(p["price"], p["nodes"], s[f"{key}_wall"], d_star + 0.01) < od_cost


def test_max_rejoin_inverts_the_break_even():
    w, m, d, disc = 7 * DAY, 2 * HOUR, 60.0, 0.4
    r = spot.max_rejoin_for_discount(w, m, d, disc)
    assert spot.break_even_discount(w, spot.wall_time_with_notice(w, m, d, r)) == pytest.approx(disc)


def test_short_notice_reuses_scene_10(data):
    s, p = data["summary"], data["params"]
    m, delta, r, w = s["job_mtbp"], s["snapshot"], s["rejoin"], p["work"]
    tau = ck.optimal_interval(delta, m)
    assert s["fallback_interval"] == pytest.approx(tau, rel=0.05)  # τ* rounded to whole segments
    assert w / s["fallback_interval"] == pytest.approx(round(w / s["fallback_interval"]))
    assert s["gcp_wall"] == pytest.approx(float(ck.wall_time(s["fallback_interval"], delta, m, r, w)))
    assert s["gcp_wall"] > s["aws_wall"]


def test_rate_from_monthly_band():
    # 20% of a node's capacity reclaimed in 30 days: λ = −ln(0.8)/30 d
    lam = spot.preemption_rate(0.20, 30 * DAY)
    assert lam == pytest.approx(-math.log(0.8) / (30 * DAY))
    assert spot.job_mtbp(8, lam) == pytest.approx(1 / (8 * lam))
    with pytest.raises(ValueError):
        spot.preemption_rate(1.0, 30 * DAY)


# --- Monte Carlo against the formula ------------------------------------------------------
def test_monte_carlo_agrees_with_the_renewal_formula():
    # a small seeded run, hard enough to catch a wrong formula: ~40 preemptions per job
    w, m, d, r, n = 200 * HOUR, 5 * HOUR, 300.0, 1800.0, 3000
    sim = spot.simulate_with_notice(w, m, d, r, n, np.random.default_rng(1))
    mean, se = sim["wall"].mean(), sim["wall"].std(ddof=1) / math.sqrt(n)
    analytic = spot.wall_time_with_notice(w, m, d, r)
    assert abs(mean - analytic) <= Z * se
    # E[preemptions] = T/M
    assert abs(sim["preemptions"].mean() - analytic / m) <= Z * sim["preemptions"].std(ddof=1) / math.sqrt(n)
    # the check can fail: forgetting the snapshot (T = W·e^{R/M}) misses by far more than 3 SE
    assert abs(mean - w * math.exp(r / m)) > 10 * se


def test_page_monte_carlo_within_its_ci(data):
    s = data["summary"]
    assert s["mc_max_abs_z"] <= Z
    assert s["mc_max_abs_z_naive"] > Z
    rows = data["table"]["rows"]
    assert len(rows) == s["mc_points"]
    for r in rows:
        assert abs(r[5]) <= Z and abs(r[9]) <= Z


def test_simulation_is_bounded():
    with pytest.raises(spot.BoundExceeded):
        spot.simulate_with_notice(1e9, 1.0, 0.1, 0.1, 10, np.random.default_rng(0))


# --- the scene's claims, determinism, parameters ---------------------------------------
def test_snapshot_fits_aws_only(data):
    s, p = data["summary"], data["params"]
    assert p["gcp_notice"] < s["snapshot"] <= p["aws_notice"]
    rows = {r["key"]: r for r in data["records"]["providers"]}
    assert rows["aws"]["fits"] and not rows["gcp"]["fits"] and not rows["azure"]["fits"]


def test_break_even_sweep_scales_the_snapshot_with_the_gang(data):
    se, p, f = data["series"], data["params"], data["problems"]["sweep"]
    nodes, delta = np.array(se["nodes"]), np.array(se["sweep_snapshot"])
    state = p["model_params"] * (p["weight_bytes"] + p["optimizer_bytes"])
    assert delta == pytest.approx(state / (nodes * p["node_write_bandwidth"]))
    # 70B × 16 B (weights, gradients, Adam) = 1.12 TB does not fit one node's 640 GB of HBM
    assert nodes[0] == f["n_min"] == 2
    # 0.98 TB / (n × 2 GB/s) ≤ 30 s from 17 nodes; ≤ 120 s from 5
    assert f["merge_nodes"] == 17 and f["aws_fit_nodes"] == 5
    fits_aws, fits_short = delta <= p["aws_notice"], delta <= p["gcp_notice"]
    for i in range(len(p["interruption_sweep"])):
        fit, short, asyn = (np.array(se[k]) for k in (f"fit_{i}", f"nofit_{i}", f"async_{i}"))
        assert np.all(np.diff(fit[fits_aws]) > 0)
        assert np.all(short[fits_aws & ~fits_short] > fit[fits_aws & ~fits_short])
        assert short[fits_short] == pytest.approx(fit[fits_short])
        assert np.all(asyn[~fits_short] < short[~fits_short])


def test_llama_scale_worked_problem(data):
    q, p = data["problems"]["llama_scale"], data["params"]
    assert q["nodes"] == p["large_gpus"] // p["gpus_per_node"] == 2048
    # 405B × 14 B at Llama 3's sustained 2 TB/s (§3.3.1)
    assert q["snapshot"] == pytest.approx(405e9 * 14 / 2e12)
    assert q["break_even"] == pytest.approx(1 - p["work"] / q["wall"])


def test_deterministic(scene_params):
    p = scene_params(SCENE) | {"trials": 200, "mc_nodes": [8, 512]}
    a = spot.spot_arbitrage(**p).to_dict()
    b = spot.spot_arbitrage(**p).to_dict()
    assert a["summary"] == b["summary"] and a["animation"] == b["animation"]


def test_rejects_work_shorter_than_the_snapshot(scene_params):
    p = scene_params(SCENE) | {"work": 1.0, "trials": 200}
    with pytest.raises(ParamError):
        spot.spot_arbitrage(**p)


# --- asynchronous snapshots and elastic recovery -------------------------------------------------
def _simulate_async(work, mtbp, copy, drain, notice, rejoin, tau, trials, rng):
    """Event-by-event walk of two-stage snapshots: a copy every τ of work blocks for δ₁; it is durable
    δ₂ later, or at the reclaim if the drain finishes within the notice. Independent of the model."""
    walls = np.empty(trials)
    for k in range(trials):
        t, durable = 0.0, 0.0
        next_fail = rng.exponential(mtbp)
        while True:
            work_done, pending = durable, []  # pending: (time durable, work level)
            finished = False
            while True:
                seg = min(tau, work - work_done)
                end = t + seg + (copy if work_done + seg < work else 0.0)
                if end > next_fail:
                    break
                t, work_done = end, work_done + seg
                if work_done >= work:
                    finished = True
                    break
                pending.append((t + drain, work_done))
            if finished:
                walls[k] = t
                break
            t = next_fail
            durable = max([w for (ready, w) in pending if ready <= t + notice], default=durable)
            while True:  # the rejoin, which a preemption can also interrupt
                next_fail = t + rng.exponential(mtbp)
                if next_fail >= t + rejoin:
                    t += rejoin
                    break
                t = next_fail
    return walls


def test_asynchronous_snapshots_match_a_seeded_event_simulation():
    # many preemptions, a drain well past the notice: the approximation's hardest case here
    w, m, copy, drain, notice, r = 40_000.0, 3_000.0, 1.0, 200.0, 30.0, 100.0
    est = spot.wall_time_async(w, m, copy, drain, notice, r)
    walls = _simulate_async(w, m, copy, drain, notice, r, est["interval"], 3000, np.random.default_rng(7))
    mean, se = walls.mean(), walls.std(ddof=1) / math.sqrt(walls.size)
    assert abs(mean - est["wall"]) < 0.02 * est["wall"] + 3 * se
    # and forgetting the late drain (q = 0) misses it: the check can fail
    naive = float(ck.wall_time(est["interval"], copy, m, r, w))
    assert (mean - naive) / se > Z


def test_asynchronous_snapshots_reduce_to_daly_when_the_drain_fits_the_notice():
    w, m, copy, r = 7 * DAY, 1.0e6, 0.25, 661.0
    res = spot.wall_time_async(w, m, copy, 20.0, 30.0, r)
    assert res["lost_share"] == 0.0
    assert res["wall"] == pytest.approx(float(ck.wall_time(res["interval"], copy, m, r, w)), rel=1e-12)
    # the interval never drops below the drain
    assert spot.async_interval(1.0e3, 0.01, 500.0) == 500.0


def test_scene_async_numbers(data, scene_params):
    p, a = scene_params(SCENE), data["problems"]["async"]
    state = p["model_params"] * (p["weight_bytes"] + p["optimizer_bytes"])
    gpus = p["nodes"] * p["gpus_per_node"]
    assert a["host_copy"] == pytest.approx(state / gpus / (p["host_link_bw"] / 2))  # 64 GB/s each way per GPU
    assert a["host_copy"] < p["gcp_notice"] < a["drain"]
    assert a["extra"] < a["sync_extra"] / 5  # the fallback's extra time shrinks several-fold


def test_elastic_recovery_limits_and_hand_check():
    w = 7 * DAY
    assert spot.elastic_wall_time(w, 5_000.0, 0.0, 0.0, 128) == pytest.approx(w)
    # c/M = 1%, R/(rM) = 0.1%: T = W / 0.989
    assert spot.elastic_wall_time(w, 6_000.0, 60.0, 768.0, 128) == pytest.approx(w / 0.989)
    with pytest.raises(ValueError):
        spot.elastic_wall_time(w, 50.0, 60.0, 0.0, 8)


def test_scene_elastic_numbers(data, scene_params):
    p, e = scene_params(SCENE), data["problems"]["elastic"]
    big = data["problems"]["llama_scale"]
    assert e["replicas"] == 128 and e["replica_gpus"] == 128  # Llama 3 Table 4: TP 8 × PP 16, DP 128
    # FSDP: two reshard pauses per preemption (drop the replica, then take it back)
    share = 1 - 2 * p["reconfigure_time"] / big["mtbp"] - (p["capacity_wait"] + big["snapshot"]) / (128 * big["mtbp"])
    assert e["wall"] == pytest.approx(p["work"] / share)
    assert e["break_even"] < big["break_even"] / 3
    rows = e["pause_sweep"]
    assert [r["pause"] for r in rows] == p["reconfigure_sweep"]
    assert all(a["break_even"] < b["break_even"] for a, b in zip(rows, rows[1:]))
    assert e["savings_high"] == pytest.approx(1 - (1 - 0.70) * e["wall"] / p["work"])


def test_savings_equal_the_discount_only_without_overhead():
    assert spot.savings(100.0, 100.0, 0.6) == pytest.approx(0.6)
    assert spot.savings(100.0, 110.0, 0.6) == pytest.approx(1 - 0.4 * 1.1)


def test_two_minute_curve_never_above_the_thirty_second_ones(data):
    # a longer notice leaves the job every option a shorter one has: where δ(n) > 120 s (2-4 nodes) the
    # solid curve takes the better of checkpoints and asynchronous snapshots under 120 s, not checkpoints alone
    se, p, f = data["series"], data["params"], data["problems"]["sweep"]
    delta = np.array(se["sweep_snapshot"])
    unfit = delta > p["aws_notice"]
    assert unfit.sum() == 3 and f["aws_unfit_strategy"] == "async"
    for i in range(len(p["interruption_sweep"])):
        fit, short, asyn = (np.array(se[k]) for k in (f"fit_{i}", f"nofit_{i}", f"async_{i}"))
        assert np.all(fit <= np.minimum(short, asyn) + 1e-12)
    # the async estimate under 120 s loses less than under 30 s: the exposed drain is δ − N
    m, copy, drain, r = 40_000.0, 2.0, 245.0, 845.0
    long_, short_ = (spot.wall_time_async(7 * DAY, m, copy, drain, n, r) for n in (120.0, 30.0))
    assert long_["lost_share"] < short_["lost_share"] and long_["wall"] < short_["wall"]
    best = spot.best_wall_time(7 * DAY, m, 120.0, drain, copy, r)
    assert best["wall"] == pytest.approx(min(long_["wall"], spot.wall_time_without_notice(7 * DAY, m, drain, r)))


def test_savings_at_the_dated_price_and_lower_discounts(data, scene_params):
    p, q = scene_params(SCENE), data["problems"]["discounts"]
    # Google Cloud a3-highgpu-1g, us-central1, 26 Sep 2026 (second-hand): $6.571 Spot against $10.9791
    assert q["quoted"] == pytest.approx(1 - 6.571 / 10.9791) == pytest.approx(0.4015, abs=1e-4)
    ds = [r["discount"] for r in q["rows"]]
    assert ds == sorted(ds) and {0.30, 0.50, 0.60, 0.70} <= set(ds) and sum(r["quoted"] for r in q["rows"]) == 1
    walls = {"aws": data["summary"]["aws_wall"], "gang": data["problems"]["llama_scale"]["wall"]}
    for r in q["rows"]:
        for k, wall in walls.items():
            assert r[k] == pytest.approx(1 - (1 - r["discount"]) * wall / p["work"])
        # waiting at Llama scale costs several points of the saving; shrinking gives most of them back
        assert r["gang"] < r["elastic"] < r["aws"] < r["discount"]


def test_animation_runs_at_the_page_scales(data):
    a, q = data["animation"], data["problems"]
    big, asyn = q["llama_scale"], q["async"]
    # the hopping run is the worked problem's gang, at its own M and δ; the zoom is the page's 64 GPUs
    assert (a["gpus"], a["mtbp"], a["run_snapshot"]) == (big["gpus"], big["mtbp"], big["snapshot"]) == (
        16384, big["mtbp"], pytest.approx(2.835))
    assert a["zoom_gpus"] == data["summary"]["gpus"] == 64
    assert a["preemptions"] == sum(b["kind"] == "snapshot" for b in a["blocks"]) < spot.ANIM_MAX_EVENTS
    # the loss per preemption: half a segment (τ + δ) synchronously; half of the shorter async segment
    # (τ + δ₁) plus q·τ for the drains the notice misses
    assert a["lost_at_first"] == pytest.approx((a["fallback_interval"] + data["summary"]["snapshot"]) / 2)
    assert a["lost_async"] == pytest.approx((asyn["interval"] + asyn["host_copy"]) / 2
                                            + asyn["lost_share"] * asyn["interval"])
    assert a["lost_async"] < a["lost_at_first"] / 5
    assert (a["sync_extra"], a["async_extra"]) == (asyn["sync_extra"], asyn["extra"])


def test_elastic_pause_claims(data):
    e = data["problems"]["elastic"]
    # 2c/M against R/(rM): with c = 60 s the two pauses are 96% of the overhead
    assert e["pause_overhead_share"] == pytest.approx(e["pause_share"] / (e["pause_share"] + e["out_share"]))
    assert e["pause_overhead_share"] > 0.9
    # waiting breaks even at 10.1%; shrinking at c = 120 s gives 4.3%, at 300 s 10.7%: it loses from 300 s
    assert e["loses_from_pause"] == 300.0
    for r in e["pause_sweep"]:
        assert (r["break_even"] >= e["gang_break_even"]) == (r["pause"] >= 300.0)


def test_the_waiting_gang_at_the_sweeps_highest_rate(data, scene_params):
    p, q, big = scene_params(SCENE), data["problems"]["discounts"], data["problems"]["llama_scale"]
    # at 50% a month per node the 2,048-node gang is preempted 2.5x as often as at 20%: M shrinks by
    # ln(1 - 0.2) / ln(1 - 0.5), and the snapshot still fits the notice, so T = W·(1 + R/M)-style renewal
    assert q["high_rate"] == 0.50
    assert q["high_mtbp"] == pytest.approx(big["mtbp"] * math.log(1 - 0.20) / math.log(1 - 0.50))
    wall = spot.wall_time_with_notice(p["work"], q["high_mtbp"], big["snapshot"],
                                      p["capacity_wait"] + big["snapshot"])
    assert q["high_break_even"] == pytest.approx(1 - p["work"] / wall)
    # review 24b's hand check: break-even 28.2%, 16.6% saved at the dated 40.1% (not 33.4%)
    assert q["high_break_even"] == pytest.approx(0.282, abs=5e-4)
    assert q["quoted_gang_high"] == pytest.approx(0.166, abs=5e-4)
    for r in q["rows"]:
        assert r["gang_high"] < r["gang"]
        assert (r["gang_high"] > 0) == (r["discount"] > q["high_break_even"])


def test_the_takeaway_cites_the_async_column_at_the_dated_price(data):
    q = data["problems"]["discounts"]
    row = next(r for r in q["rows"] if r["quoted"])
    # the takeaway's Google Cloud discount is read in the 30 s async column, not in the AWS-notice one
    assert q["quoted_async"] == row["async"] == pytest.approx(0.401, abs=1e-3)
