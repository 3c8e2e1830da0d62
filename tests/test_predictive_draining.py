"""predictive-draining: the series formula, published failure rates, the precursor model
(threshold extremes, Monte Carlo against analytic), goodput through
Young/Daly and checkpoint-recovery's goodput, hot spares, determinism."""

from __future__ import annotations

import math

import numpy as np
import pytest

from models import predictive_draining as dr
from models.constants import CONSTANTS
from models.exhibit import ParamError
from models.lib import checkpoint as ck
from models.lib.reliability import node_mtbf_from_rate, series_mtbf
from models.units import DAY, HOUR

SCENE = "predictive-draining"


@pytest.fixture(scope="module")
def data(model_output):
    return model_output(SCENE)[0]


# --- series reliability ----------------------------------------------------------------------------
def test_series_formula_rates_add():
    # hand-checked: three parts of 10, 20 and 20 days fail at 1/10 + 2/20 = 1/5 per day
    assert dr.series_mtbf_of([10 * DAY, 20 * DAY, 20 * DAY]) == pytest.approx(5 * DAY)
    assert dr.series_mtbf_of([7 * DAY] * 7) == pytest.approx(float(series_mtbf(7 * DAY, 7)))


def test_series_formula_against_monte_carlo():
    rng = np.random.default_rng(3)
    mean, se = dr.simulate_series(30 * DAY, 16, 20_000, rng)
    assert abs(mean - 30 * DAY / 16) < 3 * se
    assert se < 0.01 * mean


def test_llama3_record_gives_the_job_interval_back_and_a_node_mtbf(data):
    # 419 unexpected interruptions in 54 days on 16,384 GPUs (Llama 3 report §3.3.4, Table 5), 8 GPUs a node
    s = data["summary"]
    window, n = CONSTANTS["llama3_snapshot_days"].value, CONSTANTS["llama3_unexpected_interruptions"].value
    assert (window, n) == (54 * DAY, 419)
    assert s["job_mtbf"] == pytest.approx(ck.mean_time_between_interruptions(window, n))
    assert s["node_mtbf"] == pytest.approx(54 * DAY * 2048 / 419)  # about 264 days
    assert s["rack_mtbf"] == pytest.approx(54 * DAY * 16384 / 419 / 72)  # an NVL72 rack: about 29 days
    assert 3 * HOUR < s["job_mtbf"] < 3.2 * HOUR
    assert s["llama_rate"] == pytest.approx(1000 * 419 / (54 * 2048))


def test_kokolis_rates_turn_into_a_node_mtbf_and_back():
    # Kokolis et al. 2024 (arXiv:2410.21680): RSC-1 6.50, RSC-2 2.34 failures per 1000 node-days (8-GPU A100
    # nodes); their 16k-GPU projection through the series formula: tests/test_lib_reliability.py
    r1, r2 = CONSTANTS["rsc1_failures_per_1000_node_days"].value, CONSTANTS["rsc2_failures_per_1000_node_days"].value
    assert (r1, r2) == (6.50, 2.34)
    assert dr.failures_per_1000_node_days(node_mtbf_from_rate(r2)) == pytest.approx(r2)


# --- precursors: threshold extremes and Monte Carlo --------------------------------------------------
def test_never_draining_catches_nothing_and_drains_nothing():
    k = 10_000  # k → ∞
    assert float(dr.caught_share(k, 0.5, 1200.0, 6 * HOUR, 300.0)) == pytest.approx(0.0, abs=1e-12)
    assert float(dr.false_drain_rate(k, 10 * DAY, DAY)) == 0.0
    assert dr.drain_goodput(0.0, 0.0, 2048, 264 * DAY, 3.0, 600.0, 60.0) == pytest.approx(
        float(ck.efficiency_at_optimum(3.0, 264 * DAY / 2048, 600.0)))


def test_draining_at_any_signal_catches_every_burst_that_leaves_time_and_drains_at_the_background_rate():
    f, b, lead, d = 0.5, 1200.0, 6 * HOUR, 300.0
    assert float(dr.caught_share(1, f, b, lead, d)) == pytest.approx(f * math.exp(-d / lead) * lead / (lead + b))
    assert float(dr.false_drain_rate(1, 10 * DAY, DAY)) == pytest.approx(math.exp(-0.1) / (10 * DAY))
    # a burst that starts the moment before the crash with no drain time and instant signals: all caught
    assert float(dr.caught_share(1, f, 1e-9, lead, 0.0)) == pytest.approx(f)


def test_a_higher_threshold_catches_less_and_drains_fewer_healthy_nodes(data):
    s = data["series"]
    assert np.all(np.diff(s["caught"]) < 0)
    assert np.all(np.diff(s["healthy_per_day"]) < 0)


@pytest.mark.parametrize("k", [1, 2, 4])
def test_caught_share_monte_carlo_agrees_with_the_closed_form(k):
    rng = np.random.default_rng(100 + k)
    mean, se = dr.simulate_caught(k, 0.4, 1200.0, 6 * HOUR, 300.0, 50_000, rng)
    assert abs(mean - float(dr.caught_share(k, 0.4, 1200.0, 6 * HOUR, 300.0))) < 3 * se


@pytest.mark.parametrize("k", [1, 2, 3])
def test_false_drain_monte_carlo_agrees_with_the_poisson_formula(k):
    rng = np.random.default_rng(200 + k)
    mean, se = dr.simulate_false_drains(k, 2 * DAY, DAY, 200, 500 * DAY, rng)
    assert abs(mean - float(dr.false_drain_rate(k, 2 * DAY, DAY))) < 3 * se


def test_the_pages_monte_carlo_records_agree(data):
    for r in data["records"]["monte_carlo"]:
        assert abs(r["mc"] - r["analytic"]) <= 3 * r["se"], r


# --- goodput through Young/Daly and checkpoint-recovery -----------------------------------------------
def test_goodput_ordering_on_the_page(data):
    s = data["summary"]
    assert s["goodput_any"] < s["goodput_never"] < s["goodput_best"] < s["goodput_perfect"]
    # a crash costs the detection (5 min, assumed) plus Daly's restart
    assert data["params"]["detection_time"] == 300.0
    crash_cost = 300.0 + CONSTANTS["daly_example_restart"].value
    assert s["crash_cost"] == pytest.approx(crash_cost)
    assert s["goodput_never"] == pytest.approx(float(ck.efficiency_at_optimum(
        s["checkpoint_cost"], s["job_mtbf"], crash_cost)))
    assert s["k_best"] == int(data["series"]["threshold"][np.argmax(data["series"]["goodput"])])


def test_a_noisier_fleet_needs_a_higher_threshold(data):
    sens = data["records"]["background_sensitivity"]
    by_interval = sorted(sens, key=lambda r: r["background_interval"])
    ks = [r["k_best"] for r in by_interval]
    assert ks == sorted(ks, reverse=True) and ks[0] > ks[-1]


# --- the coverage, calibrated on Llama 3's Table 5 ----------------------------------------------------
def test_coverage_is_the_share_of_interruptions_with_a_named_precursor(data):
    # Llama 3 report §3.3.4, Table 5: GPU HBM3 memory 72 and network switch/cable 35 of 419 interruptions
    hbm = CONSTANTS["llama3_interruptions_gpu_hbm3"].value
    net = CONSTANTS["llama3_interruptions_network_switch_cable"].value
    assert (hbm, net) == (72, 35)
    s, p = data["summary"], data["params"]
    # every HBM3 interruption, and the assumed node-side share (half) of the network ones
    assert p["network_node_share"] == 0.5
    assert s["coverage"] == pytest.approx((72 + 0.5 * 35) / 419)  # about 21.4%
    assert s["hbm_share"] + s["network_node_part"] == pytest.approx(s["coverage"])
    assert s["all_network_coverage"] == pytest.approx(107 / 419)  # every switch and cable counted: 25.5%
    assert dr.calibrated_coverage([0, 0], 419) == 0.0
    assert dr.node_side_coverage(72, 35, 0.0, 419) == pytest.approx(72 / 419)
    # no threshold catches more than the coverage, and k = 1 loses only the lead and burst factors
    assert s["caught_any"] == pytest.approx(s["coverage"] * s["lead_factor"] * s["burst_factor"])


def test_rejects_more_precursor_interruptions_than_the_record_holds(scene_params):
    with pytest.raises(ParamError):
        dr.predictive_draining(**(scene_params(SCENE) | {"hbm_interruptions": 400}))


# --- the restart after a planned drain: the assumption the gain leans on ------------------------------
def test_a_drain_as_slow_as_a_crash_keeps_only_a_small_gain(data):
    s, series = data["summary"], data["series"]
    # recompute the symmetric curve from the page's own caught shares and false-drain rates
    false_rate = np.asarray(series["healthy_per_day"]) / s["nodes"] / DAY
    g_sym = dr.drain_goodput(np.asarray(series["caught"]), false_rate, s["nodes"], s["node_mtbf"],
                             s["checkpoint_cost"], s["crash_cost"], s["crash_cost"])
    assert np.allclose(g_sym, series["goodput_symmetric"])
    assert s["symmetric_goodput"] == pytest.approx(float(g_sym.max()))
    assert 0 < s["symmetric_gain"] < 0.5 * s["gain_best"]
    assert s["symmetric_goodput_at_k_best"] < s["goodput_never"]  # the fast-restart k loses
    assert s["symmetric_k_best"] > s["k_best"]


def test_the_gain_shrinks_and_the_threshold_rises_as_the_drain_restart_slows(data):
    rows = data["records"]["restart_sensitivity"]
    assert [r["drain_restart"] for r in rows] == sorted(r["drain_restart"] for r in rows)
    gains = [r["gain"] for r in rows] + [data["summary"]["symmetric_gain"]]
    assert all(a > b for a, b in zip(gains, gains[1:], strict=False))
    ks = [r["k_best"] for r in rows] + [data["summary"]["symmetric_k_best"]]
    assert ks == sorted(ks)
    # the page's own R_d is one of the rows, and its gain is the headline's
    own = [r for r in rows if r["drain_restart"] == data["params"]["drain_restart"]]
    assert own and own[0]["gain"] == pytest.approx(data["summary"]["gain_best"])


def test_share_of_the_covered_failures_lost_time_won_back(data):
    # hand-checked: a gain of 1 point when 20% of failures are covered and never draining loses 10% of wall
    # time is half of the 2 points those failures cost
    assert dr.covered_loss_saved(0.01, 0.2, 0.9) == pytest.approx(0.5)
    s, rows = data["summary"], data["records"]["restart_sensitivity"]
    lost_covered = s["coverage"] * (1 - s["goodput_never"])
    assert s["covered_saved_best"] == pytest.approx(s["gain_best"] / lost_covered)
    assert s["covered_saved_symmetric"] == pytest.approx(s["symmetric_gain"] / lost_covered)
    shares = [r["covered_saved"] for r in rows] + [s["covered_saved_symmetric"]]
    assert all(a > b for a, b in zip(shares, shares[1:], strict=False))  # a slower drain restart wins back less
    assert 0 < s["covered_saved_symmetric"] < s["covered_saved_best"] < s["covered_saved_perfect"] < 1


def test_the_published_memory_predictor_saving_lies_inside_the_swept_range(data):
    # Boixaderas et al. (HPDC '24), Abstract: 54% of the compute time lost to DRAM uncorrected errors saved on
    # MareNostrum, 6% below the Oracle
    published = CONSTANTS["boixaderas_lost_time_reduction"].value
    assert (published, CONSTANTS["boixaderas_oracle_gap"].value) == (0.54, 0.06)
    assert data["params"]["published_saving"] == published
    rows = data["records"]["restart_sensitivity"]
    assert data["summary"]["covered_saved_symmetric"] < published < rows[0]["covered_saved"]


def test_rejects_a_drain_restart_slower_than_a_crash(scene_params):
    with pytest.raises(ParamError):
        # R_c = 5 min detection + 10 min restart = 900 s; a drain restart past it is refused
        dr.predictive_draining(**(scene_params(SCENE) | {"drain_restart_sweep": [60.0, 901.0]}))
    dr.predictive_draining(**(scene_params(SCENE) | {"drain_restart_sweep": [60.0, 900.0]}))  # = R_c: allowed


# --- the lead time: how much warning a failure gives ---------------------------------------------------
def test_the_gain_shrinks_with_a_shorter_warning_and_vanishes_without_one(data):
    rows = data["records"]["lead_sensitivity"]
    assert [r["mean_lead"] for r in rows] == data["params"]["lead_sweep"]
    gains = [r["gain"] for r in rows]
    assert all(a < b for a, b in zip(gains, gains[1:], strict=False))
    assert all(r["gain_same"] < r["gain"] for r in rows)
    # the page's own ℓ is one of the rows, and its gain is the headline's
    own = [r for r in rows if r["mean_lead"] == data["params"]["mean_lead"]]
    assert own and own[0]["gain"] == pytest.approx(data["summary"]["gain_best"])
    # the factors quoted with c(k), recomputed from D, ℓ and b_s
    s, b_s = data["summary"], data["params"]["burst_interval"]
    for r in rows:
        assert r["lead_factor"] == pytest.approx(math.exp(-s["drain_time"] / r["mean_lead"]))
        assert r["burst_factor"] == pytest.approx(r["mean_lead"] / (r["mean_lead"] + b_s))
    # a warning far shorter than the drain time D catches almost nothing: the best k gains about zero
    series = data["series"]
    false_rate = np.asarray(series["healthy_per_day"]) / s["nodes"] / DAY
    caught = dr.caught_share(np.asarray(series["threshold"]), s["coverage"], b_s, 60.0, s["drain_time"])
    g = dr.drain_goodput(caught, false_rate, s["nodes"], s["node_mtbf"], s["checkpoint_cost"],
                         s["crash_cost"], data["params"]["drain_restart"])
    assert 0 <= g.max() - s["goodput_never"] < 1e-3


# --- the crash restart R_c and the whole grid of swept assumptions ---------------------------------------
def test_the_gain_grows_with_the_crash_restart_and_the_page_row_is_the_headline(data):
    rows = data["records"]["crash_restart_sensitivity"]
    p, s = data["params"], data["summary"]
    assert [r["crash_restart"] for r in rows] == p["crash_restart_sweep"]
    assert all(r["crash_cost"] == pytest.approx(p["detection_time"] + r["crash_restart"]) for r in rows)
    # published bounds: FlashRecovery's 150 s, Daly's 10 min, MegaScale's 1,047 s
    assert CONSTANTS["flashrecovery_restore_time"].value in p["crash_restart_sweep"]
    assert CONSTANTS["megascale_init_tcpstore_time"].value in p["crash_restart_sweep"]
    gains = [r["gain"] for r in rows]
    assert all(a < b for a, b in zip(gains, gains[1:], strict=False))
    nevers = [r["goodput_never"] for r in rows]
    assert all(a > b for a, b in zip(nevers, nevers[1:], strict=False))  # a slower crash restart costs more
    own = [r for r in rows if r["crash_restart"] == p["crash_restart"]]
    assert own and own[0]["gain"] == pytest.approx(s["gain_best"])
    assert own[0]["gain_symmetric"] == pytest.approx(s["symmetric_gain"])
    assert own[0]["goodput_never"] == pytest.approx(s["goodput_never"])
    # with no restart advantage a drain only saves the lost work: the gain hardly moves with R_c
    sym = [r["gain_symmetric"] for r in rows]
    assert max(sym) < 1.5 * min(sym) and max(sym) < rows[0]["gain"]


def test_detection_time_adds_to_the_crash_cost_and_the_gain_grows_with_it(data):
    rows = data["records"]["detection_sensitivity"]
    p, s = data["params"], data["summary"]
    assert [r["detection"] for r in rows] == p["detection_sweep"] == [0.0, 60.0, 300.0, 600.0]
    # the page's 5 min is assumed; the sweep's worst case is PyTorch's default watchdog timeout
    assert p["detection_time"] == 300.0 and p["detection_sweep"][-1] == CONSTANTS["pytorch_nccl_default_timeout"].value
    gains = [r["gain"] for r in rows]
    assert all(a < b for a, b in zip(gains, gains[1:], strict=False))
    own = [r for r in rows if r["detection"] == p["detection_time"]]
    assert own and own[0]["gain"] == pytest.approx(s["gain_best"]) and own[0]["crash_cost"] == 900.0
    # hand-derived: the 5-minute row at the page's k = 3, composed from the closed forms with the numbers
    # written out. f = (72 + 35/2)/419 (Llama 3 Table 5: HBM3, half the network ones, assumed);
    # D = 300 s + δ; ℓ = 6 h; b_s = 20 min; a healthy
    # node errs every 10 days, W = 1 day, so F(3) = e^-0.1 · 0.1²/2 / 10 days; n = 2,048 nodes;
    # Λ = 419/54 days; R_c = 5 min detection + 10 min restart; R_d = 60 s.
    f, lead, b_s, delta = 89.5 / 419, 6 * HOUR, 1200.0, s["checkpoint_cost"]
    c = f * math.exp(-(300.0 + delta) / lead) * (lead / (lead + b_s)) ** 3
    big_f = math.exp(-0.1) * 0.1 ** 2 / 2 / (10 * DAY)
    lam = 419 / (54 * DAY)
    g3 = (float(ck.efficiency_at_optimum(delta, 1 / ((1 - c) * lam), 900.0))
          / (1 + (c * lam + 2048 * big_f) * (delta + 60.0)))
    never = float(ck.efficiency_at_optimum(delta, 1 / lam, 900.0))
    assert s["k_best"] == 3 and g3 - never == pytest.approx(own[0]["gain"], rel=1e-9)
    # first order, each caught crash also saves the detection time: the 0 → 10 min step in the gain is
    # about c·T_det·Λ of wall time, scaled by goodput (the drained job runs that share of the time)
    step = rows[-1]["gain"] - rows[0]["gain"]
    assert step == pytest.approx(c * 600.0 * lam * s["goodput_best"], rel=0.1)
    # with a crash noticed at once the crash cost is the restart alone
    assert rows[0]["crash_cost"] == p["crash_restart"]
    assert rows[0]["goodput_never"] == pytest.approx(float(ck.efficiency_at_optimum(delta, 1 / lam,
                                                                                      p["crash_restart"])))


def test_the_grid_range_holds_every_swept_gain(data):
    s, rec = data["summary"], data["records"]
    swept = ([r["gain"] for r in rec["lead_sensitivity"]] + [r["gain_same"] for r in rec["lead_sensitivity"]]
             + [r["gain"] for r in rec["restart_sensitivity"]] + [s["symmetric_gain"]]
             + [r["gain"] for r in rec["crash_restart_sensitivity"]]
             + [r["gain_symmetric"] for r in rec["crash_restart_sensitivity"]]
             + [r["gain"] for r in rec["detection_sensitivity"]])
    assert s["grid_gain_min"] <= min(swept) + 1e-12 and s["grid_gain_max"] >= max(swept) - 1e-12
    assert 0 <= s["grid_gain_min"] < s["gain_best"] < s["grid_gain_max"]
    # the extremes are where the model says: the worst with no restart advantage and a short warning,
    # the best with the slowest crash, the fastest drain and the longest warning
    p = data["params"]
    assert s["grid_min_drain_restart"] == s["grid_min_crash_cost"]
    assert s["grid_min_lead"] == min(p["lead_sweep"]) and s["grid_max_lead"] == max(p["lead_sweep"])
    assert s["grid_max_drain_restart"] == min(p["drain_restart_sweep"])
    assert s["grid_max_crash_restart"] == max(p["crash_restart_sweep"])
    assert s["grid_max_detection"] == max(p["detection_sweep"])
    assert s["grid_max_crash_cost"] == s["grid_max_detection"] + s["grid_max_crash_restart"]
    # recompute the best cell by hand from the closed forms
    ser = data["series"]
    false_rate = np.asarray(ser["healthy_per_day"]) / s["nodes"] / DAY
    caught = dr.caught_share(np.asarray(ser["threshold"]), s["coverage"], p["burst_interval"], s["grid_max_lead"],
                             s["drain_time"])
    g = dr.drain_goodput(caught, false_rate, s["nodes"], s["node_mtbf"], s["checkpoint_cost"],
                         s["grid_max_crash_cost"], s["grid_max_drain_restart"])
    never = float(ck.efficiency_at_optimum(s["checkpoint_cost"], s["job_mtbf"], s["grid_max_crash_cost"]))
    assert g.max() - never == pytest.approx(s["grid_gain_max"])


def test_coverage_without_the_network_share_gains_less(data):
    s = data["summary"]
    assert s["hbm_share"] < s["coverage"] < s["all_network_coverage"]
    assert 0 < s["hbm_only_gain"] < s["gain_best"] < s["all_network_gain"]
    assert 0 < s["hbm_only_gain_same"] < s["same_restart_gain"] < s["all_network_gain_same"]


def test_the_network_share_sweep_recomputes_and_holds_the_page_row(data):
    s, p, rows = data["summary"], data["params"], data["records"]["network_share_sensitivity"]
    assert [r["network_node_share"] for r in rows] == p["network_node_share_sweep"]
    ks = np.arange(1, 13)
    never = s["goodput_never"]
    nodes, m_node = s["nodes"], s["node_mtbf"]
    false_rate = dr.false_drain_rate(ks, p["background_interval"], p["window"])
    for r in rows:
        f = (72 + r["network_node_share"] * 35) / 419
        assert r["coverage"] == pytest.approx(f)
        c = dr.caught_share(ks, f, p["burst_interval"], p["mean_lead"], s["drain_time"])
        for tag, r_d in (("", p["drain_restart"]), ("_same", p["crash_restart"])):
            g = dr.drain_goodput(c, false_rate, nodes, m_node, s["checkpoint_cost"], s["crash_cost"], r_d)
            assert r[f"gain{tag}"] == pytest.approx(float(g.max()) - never)
            assert r[f"k_best{tag}"] == int(np.argmax(g)) + 1
    page = next(r for r in rows if r["network_node_share"] == p["network_node_share"])
    assert page["gain"] == pytest.approx(s["gain_best"]) and page["gain_same"] == pytest.approx(s["same_restart_gain"])
    # the gain grows with the share, in both columns
    assert all(a["gain"] < b["gain"] and a["gain_same"] < b["gain_same"] for a, b in zip(rows, rows[1:]))


def test_rejects_an_unsorted_detection_sweep(scene_params):
    with pytest.raises(ParamError):
        dr.predictive_draining(**(scene_params(SCENE) | {"detection_sweep": [600.0, 0.0]}))


def test_rejects_an_unsorted_crash_restart_sweep(scene_params):
    with pytest.raises(ParamError):
        dr.predictive_draining(**(scene_params(SCENE) | {"crash_restart_sweep": [600.0, 150.0]}))

def test_drains_never_push_goodput_below_zero():
    # renewal form: drains that take ten times the running time leave 1/11 of the Daly goodput, not zero
    nodes, node_mtbf, delta, r_c, r_d = 2048, 264 * DAY, 60.0, 600.0, 600.0
    drains_per_node = 10.0 / (delta + r_d) / nodes  # x = n·F·(δ + R_d) = 10
    g = dr.drain_goodput(0.0, drains_per_node, nodes, node_mtbf, delta, r_c, r_d)
    g0 = dr.drain_goodput(0.0, 0.0, nodes, node_mtbf, delta, r_c, r_d)
    assert g == pytest.approx(g0 / 11.0)
    assert g > 0


# --- hot spares ---------------------------------------------------------------------------------------
def test_hand_checked_case_spare_availability():
    # n = 2, s = 1, node MTBF 9 days, repair 1 day: p = 1/10; P(≤ 1 of 3 down) = 0.972, so one spare
    # reaches 0.97 and two reach 0.99 (the availability itself: tests/test_lib_reliability.py)
    assert dr.spares_needed(2, 9 * DAY, DAY, 0.97) == 1
    assert dr.spares_needed(2, 9 * DAY, DAY, 0.99) == 2
    # a node down 24 hours in 25: not even one spare per node keeps the job whole at 0.999
    assert dr.spares_needed(2, 3600.0, DAY, 0.999) is None


def test_spares_grow_with_repair_time_and_beat_the_mean_number_down(data):
    need = data["records"]["spares_by_repair"]
    assert [r["spares"] for r in need] == sorted(r["spares"] for r in need)
    for r in need:
        assert r["spares"] > r["down_nodes"]
    avail = data["series"]["avail_r1"]
    assert np.all(np.diff(avail) >= 0) and avail[-1] > 0.999


# --- contract and determinism ----------------------------------------------------------------------------
def test_deterministic(scene_params):
    p = scene_params(SCENE) | {"trials": 2000, "mc_nodes": 20, "mc_span": 200 * DAY}
    a, b = dr.predictive_draining(**p).to_dict(), dr.predictive_draining(**p).to_dict()
    assert a["summary"] == b["summary"] and a["records"]["monte_carlo"] == b["records"]["monte_carlo"]
    c = dr.predictive_draining(**(p | {"seed": 5})).to_dict()
    assert c["records"]["monte_carlo"] != a["records"]["monte_carlo"]


def test_rejects_a_node_size_that_does_not_divide_the_job(scene_params):
    with pytest.raises(ParamError):
        dr.predictive_draining(**(scene_params(SCENE) | {"gpus_per_node": 7}))


# --- consistency with the record's reported effective training time ------------------------------------
def test_never_draining_at_the_pages_crash_cost_reaches_the_reported_effective_training_time(data):
    # Llama 3 §3.3.4: effective training time "higher than 90%". At the optimum interval goodput is
    # E0·e^(-R_c/M) (E0 the share at R_c = 0), so the largest R_c that still reaches 90% is M·ln(E0/0.9).
    s, p = data["summary"], data["params"]
    reported = CONSTANTS["llama3_effective_training_time"].value
    assert reported == p["reported_effective_time"] == 0.90
    m = 54 * DAY / 419
    e0 = float(ck.efficiency_at_optimum(s["checkpoint_cost"], m, 0.0))
    r_max = m * math.log(e0 / 0.90)
    assert s["consistent_crash_cost_max"] == pytest.approx(r_max)
    assert 900.0 < r_max < 1200.0  # the page's 15 min is consistent, the 10-min default's 20 min is not
    assert s["consistent_detection_max"] == pytest.approx(r_max - 600.0)
    assert s["goodput_never"] == pytest.approx(e0 * math.exp(-900.0 / m)) and s["goodput_never"] >= 0.90
    assert s["default_timeout_goodput_never"] == pytest.approx(e0 * math.exp(-1200.0 / m))
    assert s["default_timeout_goodput_never"] < 0.90


# --- R_d = R_r: a drain that skips the hang but restarts no faster than a crash ------------------------
def test_the_gain_splits_into_lost_work_the_skipped_hang_and_the_faster_restart(data):
    s, series, p = data["summary"], data["series"], data["params"]
    false_rate = np.asarray(series["healthy_per_day"]) / s["nodes"] / DAY
    g_rr = dr.drain_goodput(np.asarray(series["caught"]), false_rate, s["nodes"], s["node_mtbf"],
                            s["checkpoint_cost"], s["crash_cost"], p["crash_restart"])
    assert s["same_restart_goodput"] == pytest.approx(float(g_rr.max()))
    assert s["same_restart_gain"] == pytest.approx(float(g_rr.max()) - s["goodput_never"])
    assert s["same_restart_k_best"] == int(np.argmax(g_rr)) + 1
    assert 0 < s["symmetric_gain"] < s["same_restart_gain"] < s["gain_best"]
    parts = s["part_lost_work"] + s["part_hang"] + s["part_restart"]
    assert parts == pytest.approx(s["gain_best"])
    assert s["part_hang"] > 0 and s["part_restart"] > 0
    assert s["same_restart_share"] == pytest.approx(s["same_restart_gain"] / s["gain_best"])


# --- the checkpoint write δ ------------------------------------------------------------------------------
def test_a_slower_checkpoint_write_lowers_never_draining_and_the_first_row_is_the_headline(data):
    rows, s, p = data["records"]["checkpoint_sensitivity"], data["summary"], data["params"]
    assert [r["delta"] for r in rows] == [s["checkpoint_cost"], *p["checkpoint_sweep"]]
    assert rows[0]["gain"] == pytest.approx(s["gain_best"]) and rows[0]["k_best"] == s["k_best"]
    nevers = [r["goodput_never"] for r in rows]
    assert all(a > b for a, b in zip(nevers, nevers[1:], strict=False))
    assert all(r["gain"] > 0 for r in rows)
    # hand-derived: never draining at δ = 30 s is the Daly goodput at M = 54 days/419 and R_c = 900 s
    assert rows[1]["goodput_never"] == pytest.approx(float(ck.efficiency_at_optimum(30.0, 54 * DAY / 419, 900.0)))
    assert rows[1]["drain_time"] == pytest.approx(300.0 + 30.0)
    # the R_d = R_r column: its first row is the headline, and it grows with δ (more lost work to save)
    assert rows[0]["gain_same"] == pytest.approx(s["same_restart_gain"])
    assert rows[0]["k_best_same"] == s["same_restart_k_best"]
    gains_same = [r["gain_same"] for r in rows]
    assert all(0 < a <= b for a, b in zip(gains_same, gains_same[1:], strict=False))
    # the record bound: the page's δ reaches the reported effective training time, the hand-derived 85.6% at 30 s
    # does not (so the slower rows are not the record's run)
    assert rows[0]["fits_record"] and not rows[1]["fits_record"]
    assert [r["fits_record"] for r in rows] == [r["goodput_never"] >= p["reported_effective_time"] for r in rows]


def test_the_short_lead_ratio_and_the_noisiest_fleets_mean_count(data):
    s, rows = data["summary"], data["records"]["lead_sensitivity"]
    assert s["short_lead_gain_ratio"] == pytest.approx(rows[0]["gain"] / s["gain_best"])
    assert 0 < s["short_lead_gain_ratio"] < 0.5
    # 1 day window over a signal a day: a mean count of 1, below that fleet's best k
    assert s["noisiest_background_mean"] == pytest.approx(1.0)


def test_grid_range_over_the_cells_the_record_allows(data):
    """Review 53: 144 of the 248 cells put never draining below Llama 3's reported >90% effective training time;
    the range over the rest is narrower, and both grid extremes sit in ruled-out cells (R_c = 40 min)."""
    s = data["summary"]
    assert s["grid_cells"] == 248 and s["grid_fit_cells"] == 104
    assert s["grid_gain_min"] <= s["grid_fit_gain_min"] < s["grid_fit_gain_max"] < s["grid_gain_max"]
    assert s["grid_fit_gain_max"] == pytest.approx(0.0165, abs=1e-4)  # at the node-side coverage, 21.4%
    assert s["grid_max_crash_cost"] == s["grid_min_crash_cost"] == 2400.0
    assert s["gain_best"] <= s["grid_fit_gain_max"]


def test_coverage_and_lead_time_low_together_give_the_gains_floor(data):
    rows = {r["case"]: r for r in data["records"]["joint_sensitivity"]}
    low, page, high = rows["both low"], rows["the page's"], rows["both high"]
    s, rec = data["summary"], data["records"]
    # the corners are the sweeps' ends, and the middle row is the headline
    assert (low["coverage"], low["mean_lead"]) == (min(rec["coverage_sweep"]), 1800.0)
    assert (high["coverage"], high["mean_lead"]) == (max(rec["coverage_sweep"]), 86400.0)
    assert page["gain"] == pytest.approx(s["gain_best"], rel=1e-12)
    # the one-at-a-time rows agree with the coverage and lead tables
    assert rows["coverage low"]["gain"] == pytest.approx(rec["coverage_sensitivity"][0]["gain"], rel=1e-9)
    assert rows["lead time short"]["gain"] == pytest.approx(rec["lead_sensitivity"][0]["gain"], rel=1e-9)
    # hand-derived: at k = 4, f = 10%, l = 30 min, b_s = 20 min, D = 5 min + delta:
    # c = 0.1 * e^(-D/1800) * (1800/3000)^4
    assert low["k_best"] == 4
    d = 300.0 + s["checkpoint_cost"]
    assert low["caught"] == pytest.approx(0.1 * math.exp(-d / 1800.0) * 0.6**4, rel=1e-9)
    # both low at once costs more than either alone: the floor sits under both one-at-a-time rows
    assert 0.0 <= low["gain"] < min(rows["coverage low"]["gain"], rows["lead time short"]["gain"])
    assert low["gain"] < 0.1 * page["gain"]
    assert high["gain"] > 3 * page["gain"]
    # a slower drain restart gains less in every case
    assert all(r["gain_same"] <= r["gain"] for r in rows.values())


# --- review 19b: clustered background errors and the coverage's ceiling ----------------------------
def test_clustered_false_drains_reduce_to_poisson_at_cluster_size_one():
    ks = np.arange(1, 9)
    poisson = dr.false_drain_rate(ks, 10 * DAY, DAY)
    assert dr.clustered_false_drain_rate(ks, 10 * DAY, DAY, 1.0) == pytest.approx(poisson)


def test_clustered_false_drains_hand_values():
    # m = 3, b_h = 10 days, W = 1 day: clusters every 30 days, so 1/30 in the window on average.
    # k = 1: a cluster that finds the window empty, e^{-1/30}/(30 days).
    rate_c = 1.0 / (30 * DAY)
    mu = 1.0 / 30
    assert float(dr.clustered_false_drain_rate(1, 10 * DAY, DAY, 3.0)) == pytest.approx(rate_c * math.exp(-mu))
    # k = 2: an empty window and a cluster of 2 or more (2/3), or one error already there and any cluster;
    # P(N_W = 1) = P(one cluster)·P(size 1) = mu·e^{-mu}·(1/3)
    want = rate_c * (math.exp(-mu) * 2 / 3 + mu * math.exp(-mu) / 3)
    assert float(dr.clustered_false_drain_rate(2, 10 * DAY, DAY, 3.0)) == pytest.approx(want)
    # clustering at the same mean rate drains a healthy node more than twice as often at k = 2
    assert float(dr.clustered_false_drain_rate(2, 10 * DAY, DAY, 3.0)) > 2 * float(dr.false_drain_rate(2, 10 * DAY,
                                                                                                        DAY))


def test_clustered_row_raises_the_threshold_and_lowers_the_gain(data):
    s = data["summary"]
    assert s["clustered_k_best_same"] >= s["same_restart_k_best"]
    assert s["clustered_gain_same"] <= s["same_restart_gain"]
    assert s["clustered_k_best"] >= s["k_best"]
    assert s["clustered_gain"] <= s["gain_best"]


def test_coverage_ceiling_counts_every_faulty_gpu_interruption(data):
    s = data["summary"]
    # hand: (72 + 0.5·35 + 148)/419
    assert s["ceiling_coverage"] == pytest.approx((72 + 0.5 * 35 + 148) / 419)
    assert s["ceiling_coverage"] < max(data["records"]["coverage_sweep"])
    # the ceiling's gain lies between the calibrated coverage's and the sweep's top
    assert s["same_restart_gain"] < s["ceiling_gain_same"] < s["cov_gain_max"] + 1.0
    assert s["gain_best"] < s["ceiling_gain"]


@pytest.mark.parametrize("k", [1, 3, 6])
def test_clustered_false_drains_against_monte_carlo(k):
    # seeded: clusters of geometric size (mean 3) every 3 days (1 error a day on average), W = 1 day; a drain
    # is a cluster that lifts the window's count from below k to k or more
    rng = np.random.default_rng(7)
    m, b_h, w, span, nodes = 3.0, DAY, DAY, 400 * DAY, 200
    per_node = np.zeros(nodes)
    for i in range(nodes):
        t = np.sort(rng.random(rng.poisson((w + span) / (m * b_h))) * (w + span))
        size = rng.geometric(1.0 / m, t.size)
        cum = np.concatenate([[0], np.cumsum(size)])
        before = cum[np.arange(t.size)] - cum[np.searchsorted(t, t - w, side="right")]  # errors in the window
        per_node[i] = np.count_nonzero((t >= w) & (before < k) & (before + size >= k))
    rate = per_node / span
    want = float(dr.clustered_false_drain_rate(k, b_h, w, m))
    assert abs(rate.mean() - want) < 3 * rate.std(ddof=1) / math.sqrt(nodes) + 1e-3 * want


# --- review 19c: the headline without its hang, R_d = R_r in the lead tables, the symmetric clustered row ----
def test_a_crash_noticed_at_once_leaves_the_headline_drain_only_the_lost_work(data):
    s, p, ser = data["summary"], data["params"], data["series"]
    assert s["instant_detection"] == 0.0 == p["detection_sweep"][0]
    # by hand: with no hang R_c = R_r, and the headline's drain restarts in R_r too, so a drain costs δ + R_r
    nodes, m_node = s["nodes"], s["node_mtbf"]
    c = np.asarray(ser["caught"], dtype=float)
    fr = np.asarray(ser["healthy_per_day"], dtype=float) / (nodes * DAY)
    g = dr.drain_goodput(c, fr, nodes, m_node, s["checkpoint_cost"], p["crash_restart"], p["crash_restart"])
    never = float(ck.efficiency_at_optimum(s["checkpoint_cost"], s["job_mtbf"], p["crash_restart"]))
    assert s["instant_detection_gain_same"] == pytest.approx(float(g.max()) - never, rel=1e-9)
    assert s["instant_detection_k_best_same"] == int(np.argmax(g)) + 1
    # the hang is most of the headline, and what is left is about the lost work (the R_d = R_c row)
    assert 0 < s["instant_detection_gain_same"] < 0.5 * s["same_restart_gain"]
    assert s["instant_detection_gain_same"] == pytest.approx(s["symmetric_gain"], rel=0.05)


def test_the_lead_tables_second_column_is_the_headlines_restart(data):
    s, rec = data["summary"], data["records"]
    page = [r for r in rec["joint_sensitivity"] if r["case"] == "the page's"][0]
    assert page["gain_same"] == pytest.approx(s["same_restart_gain"], rel=1e-12)
    assert page["k_best_same"] == s["same_restart_k_best"]
    own = [r for r in rec["lead_sensitivity"] if r["mean_lead"] == data["params"]["mean_lead"]][0]
    assert own["gain_same"] == pytest.approx(s["same_restart_gain"], rel=1e-12)
    assert s["joint_low_gain_same"] < s["short_lead_gain_same"] < s["same_restart_gain"]


def test_the_headline_curve_is_drawn(data):
    s, ser = data["summary"], data["series"]
    curve = np.asarray(ser["goodput_same"], dtype=float)
    assert int(np.argmax(curve)) + 1 == s["same_restart_k_best"]
    assert float(curve.max()) == pytest.approx(s["same_restart_goodput"])


def test_the_symmetric_clustered_row_is_the_page_model_with_both_intervals_times_m(data):
    # every node's errors cluster and the check counts clusters: both Poisson streams thin by m, so the row is
    # the unclustered model with b_s·m and b_h·m (hand-derived)
    s, p = data["summary"], data["params"]
    m = p["background_cluster_size"]
    ks = np.arange(1, dr.MAX_THRESHOLD + 1)
    c = dr.caught_share(ks, s["coverage"], p["burst_interval"] * m, p["mean_lead"], s["drain_time"])
    f = dr.false_drain_rate(ks, p["background_interval"] * m, p["window"])
    for tag, r_d in (("", p["drain_restart"]), ("_same", p["crash_restart"])):
        g = dr.drain_goodput(c, f, s["nodes"], s["node_mtbf"], s["checkpoint_cost"], s["crash_cost"], r_d)
        assert s[f"debounced_k_best{tag}"] == int(np.argmax(g)) + 1
        assert s[f"debounced_gain{tag}"] == pytest.approx(float(g.max()) - s["goodput_never"], rel=1e-9)
    # at k = 1 a check that counts clusters drains a healthy node once per cluster that finds the window empty:
    # e^{-W/(m b_h)}/(m b_h) by hand
    mbh = m * p["background_interval"]
    assert float(f[0]) == pytest.approx(math.exp(-p["window"] / mbh) / mbh)
    # debouncing undoes the one-sided row's loss: it gains at both restarts where that row loses at R_d = R_r
    assert s["debounced_gain_same"] > max(s["clustered_gain_same"], 0.0)
    assert s["debounced_gain"] > s["clustered_gain"]
