"""silent-data-corruption: the odds against a seeded Monte Carlo, the published
rate, the check-interval optimum, bit flips by hand, and the real numpy training run
(exponent flip detected within the stated delay, low mantissa flip not; deterministic)."""

from __future__ import annotations

import math

import numpy as np
import pytest

from models import silent_data_corruption as sdc
from models.constants import CONSTANTS
from models.exhibit import ClaimError, ParamError
from models.lib import checkpoint as ck
from models.training import step_time
from models.units import DAY, HOUR

SCENE = "silent-data-corruption"
Z = sdc.Z_CHECK


@pytest.fixture(scope="module")
def data(model_output):
    return model_output(SCENE)[0]


# --- published values ------------------------------------------------------------------
def test_llama3_sdc_count_and_rate(scene_params, data):
    # Llama 3 report §3.3.4, Table 5: 6 of the 419 unexpected interruptions in the 54-day snapshot of
    # 405B pretraining on 16,384 H100 GPUs were silent data corruption
    p = scene_params(SCENE)
    assert p["sdc_interruptions"] == 6 and p["interruptions"] == 419
    assert p["observation_window"] == 54 * DAY and p["gpus"] == 16384
    assert CONSTANTS["llama3_interruptions_silent_data_corruption"].source == "llama3"
    lam = 6 / (16384 * 54 * DAY)
    assert data["summary"]["rate_per_gpu_hour"] == pytest.approx(lam * HOUR, rel=1e-12)
    assert data["summary"]["mtb_sdc"] == pytest.approx(9 * DAY)
    # over the same window and fleet the expected count is the count observed
    assert data["summary"]["expected_in_run"] == pytest.approx(6.0)
    assert data["summary"]["p_run"] == pytest.approx(1 - math.exp(-6))


def test_cpu_fleet_shares_are_estimates_inside_their_range():
    # Dixit et al. 2021 (abstract): hundreds of CPUs in hundreds of thousands of machines;
    # Hochschild et al. 2021: a few mercurial cores per several thousand machines
    lo, hi = CONSTANTS["sdc_defective_share_low"].value, CONSTANTS["sdc_defective_share_high"].value
    for key, src in (("meta_sdc_defective_share", "dixit2021"), ("google_mercurial_core_share", "hochschild2021")):
        c = CONSTANTS[key]
        assert c.source == src and "estimate" in c.label and lo <= c.value <= hi
    assert lo == pytest.approx(200 / 900_000, rel=0.15) and hi == pytest.approx(900 / 200_000, rel=0.15)


# --- the odds: formula against Monte Carlo ---------------------------------------------------
def test_hand_checked_case_one_expected_event():
    # λ·n·t = 1 → P = 1 − 1/e
    assert sdc.p_at_least_one(1e-6, 1000, 1000.0) == pytest.approx(1 - math.exp(-1))
    assert sdc.p_any_defective(0.5, 3) == pytest.approx(1 - 0.125)
    assert sdc.p_at_least_one(1e-6, 1000, 0.0) == 0.0


@pytest.mark.parametrize("devices,duration", [(50, 2e4), (400, 1e4), (400, 4e4)])
def test_hand_checked_case_rate_formula_agrees_with_per_device_monte_carlo(devices, duration):
    rng = np.random.default_rng(3)
    lam, trials = 1e-7, 4000
    first = sdc.simulate_first_event(lam, devices, trials, rng)
    p = float(sdc.p_at_least_one(lam, devices, duration))
    se = math.sqrt(p * (1 - p) / trials)
    assert abs(np.mean(first <= duration) - p) <= Z * se
    # the check can fail: a model that forgot the fleet (one device) is far off
    p_one = float(sdc.p_at_least_one(lam, 1, duration))
    assert abs(np.mean(first <= duration) - p_one) > Z * se


def test_hand_checked_case_prevalence_formula_agrees_with_monte_carlo():
    rng = np.random.default_rng(4)
    share, machines, trials = 1e-3, 700, 4000
    hits = sdc.simulate_any_defective(share, machines, trials, rng)
    p = float(sdc.p_any_defective(share, machines))
    se = math.sqrt(p * (1 - p) / trials)
    assert abs(hits.mean() - p) <= Z * se
    assert abs(hits.mean() - share) > Z * se  # one machine's odds are not the job's


def test_catalogue_monte_carlo_within_its_check(data):
    z = [r[-1] for r in data["table"]["rows"]]
    assert len(z) >= 6 and max(abs(v) for v in z) <= Z


# --- periodic checks ------------------------------------------------------------------------
def test_check_interval_optimum_is_sqrt_k_m():
    k, m, tau, r = 6.0, 9 * DAY, 250.0, 600.0
    c = np.logspace(1, 6, 20001)
    total = sdc.check_overhead(c, k, m, tau, r)["total"]
    c_star = float(sdc.optimal_check_interval(k, m))
    assert c_star == pytest.approx(math.sqrt(k * m))
    assert c[np.argmin(total)] == pytest.approx(c_star, rel=1e-3)
    assert float(sdc.detection_latency(100.0, 5.0)) == 55.0


def test_reuses_step_time_and_scene_10_interval(data, scene_params):
    p, s = scene_params(SCENE), data["summary"]
    assert s["step_time"] == pytest.approx(step_time(p["model_params"], p["tokens_per_step"], p["gpus"],
                                                     p["flops_per_gpu"], p["layers"], p["model_dim"],
                                                     p["sequence_length"], p["flops_per_param_token"]))
    assert 6.7 < s["step_time"] < 6.8  # hand check: (6N + 12·L·d·T) × 16.8M tokens / 6.55e18 FLOP/s
    delta = ck.checkpoint_cost(ck.checkpoint_bytes(p["model_params"], p["weight_bytes"], p["optimizer_bytes"]),
                               p["checkpoint_bandwidth"])
    mtbf = ck.mean_time_between_interruptions(p["observation_window"], p["interruptions"])
    assert s["checkpoint_interval"] == pytest.approx(ck.optimal_interval(delta, mtbf))
    assert s["check_share"] == pytest.approx(s["check_time"] / s["check_interval"])
    parts = s["check_share"] + s["discarded_share"] + s["rollback_share"] + s["restart_share"]
    assert s["sdc_share_total"] == pytest.approx(parts)


# --- bits by hand ---------------------------------------------------------------------------
def test_hand_checked_bit_flips():
    assert sdc.flipped_value(0.5, 30) == 2.0**127  # exponent 126 → 254
    assert sdc.flipped_value(0.5, 31) == -0.5
    assert sdc.flipped_value(1.0, 0) == 1.0 + 2.0**-23
    assert sdc.flipped_value(1.0, 16) == 1.0 + 2.0**-7  # bf16's lowest mantissa bit
    assert sdc.flipped_value(1.0, 23) == 0.5  # exponent 127 → 126
    with pytest.raises(ValueError):
        sdc.flip_bit(np.zeros(2, dtype=np.float64), (0,), 3)


# --- the training run -----------------------------------------------------------------------
def test_exponent_flip_detected_within_stated_delay_and_mantissa_flip_not(data):
    s, p, bits = data["summary"], data["params"], data["records"]["bits"]
    assert s["exponent_detected_at"] is not None
    assert 0 <= s["exponent_detected_at"] - p["flip_step"] <= s["detect_delay"]
    assert s["nonfinite_from"] == p["flip_step"]
    assert bits[p["exponent_bit"]]["detected"] and bits[p["exponent_bit"]]["nonfinite"]
    assert not bits[p["mantissa_bit"]]["detected"]
    assert s["mantissa_max_loss_change"] < 1e-4 * s["final_loss_clean"]
    assert [b["bit"] for b in bits if b["detected"]] == [p["exponent_bit"]]


@pytest.mark.parametrize("seed", [1, 2, 5])
def test_detector_other_seeds(seed):
    """The same claims on other seeds, small and fast: the exponent MSB of a |w| < 2 weight is caught at the
    step it lands, the lowest mantissa bit never, and the clean run raises no alarm."""
    flip, window = 60, 20
    runs = sdc.train_with_flip(seed, 100, flip, (0, 0), [30, 0], 256, 16, 16, 4, 32, 0.1)
    assert abs(runs["weight"]) < 2
    assert not sdc.detector(runs["clean"][1], window, 6.0).any()
    hit = sdc.first_alarm(sdc.detector(runs[30][1], window, 6.0), flip)
    assert hit == flip
    assert sdc.first_alarm(sdc.detector(runs[0][1], window, 6.0), flip) is None


def test_detector_fires_on_a_finite_spike_and_not_on_noise():
    g = np.r_[np.ones(30) + 0.01 * np.sin(np.arange(30)), 5.0, np.ones(5)]
    alarm = sdc.detector(g, 20, 6.0)
    assert sdc.first_alarm(alarm, 0) == 30
    assert not sdc.detector(np.ones(40) + 0.01 * np.cos(np.arange(40)), 20, 6.0).any()


def test_training_run_is_deterministic():
    a = sdc.train_with_flip(9, 80, 40, (1, 2), [30, 0], 128, 16, 8, 4, 16, 0.1)
    b = sdc.train_with_flip(9, 80, 40, (1, 2), [30, 0], 128, 16, 8, 4, 16, 0.1)
    for key in ("clean", 0):
        np.testing.assert_array_equal(a[key][0], b[key][0])
        np.testing.assert_array_equal(a[key][1], b[key][1])
    np.testing.assert_array_equal(a[30][0][:40], b[30][0][:40])


def test_model_output_is_deterministic(data, scene_params):
    again = sdc.silent_corruption(**scene_params(SCENE))
    assert again.summary["mc_max_abs_z"] == data["summary"]["mc_max_abs_z"]
    assert again.summary["added_gpu_hours"] == pytest.approx(data["summary"]["added_gpu_hours"], rel=1e-12)
    assert again.summary["mantissa_max_loss_change"] == data["summary"]["mantissa_max_loss_change"]


# --- bad inputs -----------------------------------------------------------------------------
def test_bad_inputs_are_refused(scene_params):
    p = scene_params(SCENE)
    with pytest.raises(ParamError):
        sdc.silent_corruption(**{**p, "sdc_interruptions": p["interruptions"] + 1})
    with pytest.raises(ParamError):
        sdc.silent_corruption(**{**p, "flip_step": 10})
    with pytest.raises(ParamError):
        sdc.silent_corruption(**{**p, "trials": 10**9})


def test_a_claim_fails_when_the_numbers_stop_supporting_it(scene_params):
    # a run of one day on few GPUs does not "almost certainly" meet an SDC
    p = scene_params(SCENE)
    with pytest.raises(ClaimError):
        sdc.silent_corruption(**{**p, "run_days": DAY, "fleet_sweep": [8], "gpus": 1024})


# --- the rate's uncertainty -----------------------------------------------------------------
def test_poisson_interval_matches_published_table_and_its_definition():
    # Garwood's exact 95% limits for k = 6 (as tabulated, e.g. Ulm 1990 / any exact Poisson table): 2.202, 13.06
    lo, hi = sdc.poisson_count_interval(6)
    assert lo == pytest.approx(2.2019, abs=1e-3) and hi == pytest.approx(13.059, abs=1e-3)
    # by definition: P(N ≥ 6 | lo) = 2.5% and P(N ≤ 6 | hi) = 2.5%
    def cdf(k, mu):
        return sum(math.exp(-mu) * mu**i / math.factorial(i) for i in range(k + 1))
    assert 1 - cdf(5, lo) == pytest.approx(0.025, abs=1e-9)
    assert cdf(6, hi) == pytest.approx(0.025, abs=1e-9)
    assert sdc.poisson_count_interval(0)[0] == 0.0
    # a seeded check: counts drawn at the interval's ends land at or beyond 6 about 2.5% of the time
    rng = np.random.default_rng(3)
    assert np.mean(rng.poisson(lo, 200_000) >= 6) == pytest.approx(0.025, abs=0.002)


def test_rate_interval_and_check_interval_range(data):
    s = data["summary"]
    exposure_mh = 16384 * 54 * 24 / 1e6  # million GPU-hours of the snapshot
    assert s["rate_low_per_million_gpu_hours"] == pytest.approx(2.2019 / exposure_mh, rel=1e-3)
    assert s["rate_high_per_million_gpu_hours"] == pytest.approx(13.059 / exposure_mh, rel=1e-3)
    # c* ∝ 1/√λ: the high rate gives the short interval
    c = s["check_interval"]
    assert s["check_interval_low"] == pytest.approx(c * math.sqrt(6 / 13.059), rel=1e-3)
    assert s["check_interval_high"] == pytest.approx(c * math.sqrt(6 / 2.2019), rel=1e-3)


def test_replay_share_sweep_by_hand(data, scene_params):
    # a replay that sees a share φ of the SDCs: faults every M/φ, c* = √(k·M/φ); φ = 1 is the headline's row
    s, rows = data["summary"], data["records"]["replay_share_sweep"]
    assert [r["share"] for r in rows] == sorted({1.0, *scene_params(SCENE)["replay_share_sweep"]}, reverse=True)
    assert rows[0]["assumed"] and rows[0]["interval"] == pytest.approx(s["check_interval"], rel=1e-12)
    k = s["check_interval"] ** 2 / s["mtb_sdc"]
    for r in rows:
        assert r["interval"] == pytest.approx(math.sqrt(k * s["mtb_sdc"] / r["share"]), rel=1e-9)
        assert r["checks"] == pytest.approx(k / r["interval"], rel=1e-9)
    # a replay that sees fewer faults is run less often and prices less loss
    assert all(a["interval"] < b["interval"] and a["total"] > b["total"] for a, b in zip(rows, rows[1:]))


def test_fleet_odds_for_unmeasured_sizes(data):
    rows = data["records"]["fleet_odds"]
    lam = data["summary"]["rate_per_gpu_hour"] / HOUR
    for r in rows:
        assert r["p_day"] == pytest.approx(1 - math.exp(-lam * r["gpus"] * DAY), rel=1e-9)
        assert r["p_day_low"] < r["p_day"] < r["p_day_high"]
        assert r["p_run_low"] <= r["p_run"] <= r["p_run_high"]  # the largest saturates at 100%
    sizes = [r["gpus"] for r in rows]
    assert sizes == sorted(sizes) and 16384 in sizes
    assert [r["p_day"] for r in rows] == sorted(r["p_day"] for r in rows)


# --- which check sees which fault -------------------------------------------------------------
def test_replay_misses_a_transient_weight_flip_and_a_checksum_misses_a_reduced_gradient(data):
    seen = data["records"]["checks_seen"]
    assert seen["weight_flip"] == {"replay_sees": False, "checksum_sees": True}
    assert seen["gradient_flip"] == {"replay_sees": False, "checksum_sees": False}
    assert seen["persistent_defect"] == {"replay_sees": True, "checksum_sees": False}
    # a defect in the update after the all-reduce makes that replica's weights differ: both checks see it
    assert seen["persistent_update_defect"] == {"replay_sees": True, "checksum_sees": True}


def test_update_defect_lands_only_on_its_replica_after_the_all_reduce():
    # the corrupt_update hook flips the bit in the new W2 of its replica only, after the mean gradient
    x, y = sdc._dataset(17, 64, sdc.FEATURES, sdc.CLASSES)
    w1, w2, _ = sdc._init(17, sdc.FEATURES, 8, sdc.CLASSES)
    replicas = [(w1.copy(), w2.copy()) for _ in range(2)]

    def flip_replica_1(k, arr):
        if k == 1:
            sdc.flip_bit(arr, (0, 0), 30)

    clean = sdc._data_parallel_step(x[:32], y[:32], replicas, 0.1)
    bad = sdc._data_parallel_step(x[:32], y[:32], replicas, 0.1, corrupt_update=flip_replica_1)
    assert sdc._same_bits(bad[0], clean[0]) and not sdc._same_bits(bad[1], clean[1])
    diff = np.flatnonzero(bad[1][1].view(np.uint32) != clean[1][1].view(np.uint32))
    assert diff.tolist() == [0] and int(bad[1][1].view(np.uint32)[0, 0] ^ clean[1][1].view(np.uint32)[0, 0]) == 1 << 30


def test_without_any_fault_no_check_fires():
    # a healthy data-parallel step: a replay agrees bit for bit and the replicas stay identical
    x, y = sdc._dataset(17, 64, sdc.FEATURES, sdc.CLASSES)
    w1, w2, _ = sdc._init(17, sdc.FEATURES, 8, sdc.CLASSES)
    state = (x, y, w1, w2, np.arange(32))
    replicas = [(w1.copy(), w2.copy()) for _ in range(2)]
    a = sdc._data_parallel_step(x[:32], y[:32], replicas, 0.1)
    b = sdc._data_parallel_step(x[:32], y[:32], [(p.copy(), q.copy()) for p, q in replicas], 0.1)
    assert sdc._same_bits(a[0], b[0]) and sdc._same_bits(a[0], a[1])
    # and on another network, the transient weight flip is again invisible to the replay
    seen = sdc.what_checks_see(state, (0, 0), 24, 0.1)
    assert seen["weight_flip"] == {"replay_sees": False, "checksum_sees": True}


def test_overflow_is_the_float32_sum_not_one_example(data):
    t = data["animation"]["matmul"]
    f32max = float(np.finfo(np.float32).max)
    assert t["largest_example_loss"] < f32max < t["batch_loss_sum_float64"]
    assert t["batch_loss_sum"] == "inf"


def test_cpu_rows_count_machines_not_gpus(data, scene_params):
    p = scene_params(SCENE)
    cpu = [r for r in data["table"]["rows"] if "CPU" in r[0]]
    assert cpu and all(r[1] == p["gpus"] // p["gpus_per_node"] for r in cpu)


def test_gradient_blowup_is_the_backward_pass_not_the_loss(data):
    # the flipped weight reaches dW1 through dL/da = (p − y)·W2ᵀ: the largest entry of dW1 is of the
    # flipped weight's order, the norm finite (the detector fires on the z-score), and the next step NaN
    s = data["summary"]
    assert math.isfinite(s["blowup_grad_norm"]) and s["blowup_grad_norm"] > 1e30
    assert s["blowup_grad_norm_clean"] < 10
    assert s["blowup_max_dw1"] <= s["blowup_grad_norm"]
    assert 1e-3 < s["blowup_max_dw1"] / abs(s["weight_exponent"]) < 10
    # SGD writes lr·dW1 into W1
    assert s["blowup_max_update_w1"] == pytest.approx(data["params"]["learning_rate"] * s["blowup_max_dw1"],
                                                      rel=1e-3)
    b = sdc.gradient_blowup(*_flip_state(), 0.1)
    assert b["next_loss_finite"]  # a mantissa flip (bit 0) passed through the same path stays finite


def _flip_state():
    x, y = sdc._dataset(17, 64, sdc.FEATURES, sdc.CLASSES)
    w1, w2, _ = sdc._init(17, sdc.FEATURES, 8, sdc.CLASSES)
    return (x, y, w1, w2, np.arange(32)), (0, 0), 0


def test_state_check_reads_the_state_once_at_hbm_speed(data, scene_params):
    p, s = scene_params(SCENE), data["summary"]
    # HSDP: each of the r copies is sharded over n/r GPUs, so a GPU holds r/n of the state
    per_gpu = p["model_params"] * (p["weight_bytes"] + p["optimizer_bytes"]) * p["state_replicas"] / p["gpus"]
    assert p["state_replicas"] >= 2  # a comparison needs two copies
    assert s["state_bytes_per_gpu"] == pytest.approx(per_gpu)
    assert s["state_replica_gpus"] * p["state_replicas"] == p["gpus"]
    assert s["state_check_time"] == pytest.approx(per_gpu / p["hbm_bandwidth"])
    assert s["state_check_time"] < 1e-3  # well under a millisecond, not a tenth of a step
    assert s["state_check_interval"] == pytest.approx(math.sqrt(s["state_check_time"] * s["mtb_sdc"]))
    # the replay's sweep no longer holds a sub-step "state check" row
    assert min(r["steps"] for r in data["records"]["check_sweep"]) >= 1


# --- a defect that fires in only some steps -----------------------------------------------------
def test_catch_probability_and_intermittent_latency_by_hand():
    # one step replayed sees a defect firing in 10% of steps with probability 0.1; four steps 1 − 0.9⁴
    assert float(sdc.catch_probability(0.1, 1)) == pytest.approx(0.1)
    assert float(sdc.catch_probability(0.1, 4)) == pytest.approx(1 - 0.9**4)
    assert float(sdc.catch_probability(1.0, 1)) == 1.0
    # geometric number of checks: 1/p on average; the strike is c/2 before the first, then 1/p − 1 whole intervals
    assert float(sdc.detection_latency(100.0, 5.0, 0.25)) == pytest.approx(50 + 300 + 5)
    # the optimum moves to √(k·p·M), and it is the minimum of f(c) with c/(pM) discarded
    k, m, p = 6.0, 9 * DAY, 0.1
    c = np.logspace(1, 6, 20001)
    total = sdc.check_overhead(c, k, m, 250.0, 600.0, p)["total"]
    assert c[np.argmin(total)] == pytest.approx(math.sqrt(k * p * m), rel=1e-3)


def test_firing_share_sweep_by_hand(data):
    s, rows = data["summary"], data["records"]["firing_share_sweep"]
    k, m = s["check_time"], s["mtb_sdc"]
    assert rows[0]["assumed"] and rows[0]["firing_share"] == 1.0
    assert rows[0]["interval"] == pytest.approx(s["check_interval"], rel=1e-12)
    assert rows[0]["latency"] == pytest.approx(s["detection_latency"], rel=1e-12)
    for r in rows:  # one step replayed: p = q
        q = r["firing_share"]
        assert r["catch"] == pytest.approx(q) and r["checks_to_catch"] == pytest.approx(1 / q)
        assert r["interval"] == pytest.approx(math.sqrt(k * q * m), rel=1e-9)
        assert r["latency"] == pytest.approx(r["interval"] * (1 / q - 0.5) + k, rel=1e-9)
        # at the headline's c*, latency ≈ c*/q for small q
        assert r["latency_at_headline"] == pytest.approx(s["check_interval"] * (1 / q - 0.5) + k, rel=1e-9)
        assert r["total_at_headline"] >= r["total"] - 1e-15  # re-optimising never loses
    # checks cost ∝ 1/√q: the rarer the firing, the costlier the checking
    assert rows[-1]["checks"] == pytest.approx(s["check_share"] / math.sqrt(rows[-1]["firing_share"]), rel=1e-9)


def test_check_share_is_a_lower_bound_on_the_rate_side(data):
    # a higher rate (the interval's high end) shortens c* and raises the cost as √λ
    s = data["summary"]
    assert s["check_share_high"] == pytest.approx(s["check_share"] * math.sqrt(13.059 / 6), rel=1e-3)
    assert s["check_share_high"] > s["check_share"]


def test_added_share_by_hand(data):
    # the page's one cost of checking: checks + discarded interval, each √(k/(pM)) at c* = √(kpM), so twice the
    # checks in every sweep row; by hand 2·√(6.74 s / 777,600 s) ≈ 0.589% at the counted rate
    s, rec = data["summary"], data["records"]
    assert s["added_share"] == pytest.approx(2 * math.sqrt(s["check_time"] / s["mtb_sdc"]), rel=1e-9)
    assert s["added_share"] == pytest.approx(0.00589, abs=5e-6)
    assert s["added_share_high"] == pytest.approx(s["added_share"] * math.sqrt(13.059 / 6), rel=1e-3)
    for name in ("check_sweep", "replay_share_sweep", "firing_share_sweep"):
        for r in rec[name]:
            assert r["added"] == pytest.approx(2 * r["checks"], rel=1e-9)
    # a replay that sees a tenth: √0.1 of the cost; a defect firing in 1% of steps: 1/√0.01 = 10 times it
    phi = rec["replay_share_sweep"][-1]
    assert phi["added"] == pytest.approx(s["added_share"] * math.sqrt(phi["share"]), rel=1e-9)
    q = rec["firing_share_sweep"][-1]
    assert q["added"] == pytest.approx(s["added_share"] / math.sqrt(q["firing_share"]), rel=1e-9)


# --- the detected-bit count across weights and thresholds ----------------------------------------
def test_detection_by_weight_and_threshold(data, scene_params):
    p, s = scene_params(SCENE), data["summary"]
    dw = data["records"]["detection_by_weight"]
    assert dw["z"] == sorted({*map(float, p["z_threshold_sweep"]), float(p["z_threshold"])})
    rows = {r["weight"]: r for r in dw["rows"]}
    mags = [abs(r["value"]) for r in dw["rows"]]
    assert mags == sorted(mags)  # smallest, the page's, largest
    page = rows["the page's"]
    assert page["value"] == pytest.approx(s["weight_before"])
    at_z = dw["z"].index(float(p["z_threshold"]))
    assert page["by_z"][at_z]["detected"] == s["bits_detected"]
    # a higher threshold can only detect fewer bits (the z-score test is monotone in z)
    for r in dw["rows"]:
        counts = [c["detected"] for c in r["by_z"]]
        assert counts == sorted(counts, reverse=True)
    # the page's threshold is quiet on the clean run; a low one fires on noise
    assert not dw["clean_alarm"][at_z] and dw["clean_alarm"][0]
    # a column the clean run's noise sets off is flagged in every row (the page prints a dash there)
    for r in dw["rows"]:
        assert [c["noisy"] for c in r["by_z"]] == dw["clean_alarm"]
    assert 1 <= dw["quiet_min_detected"] <= dw["quiet_max_detected"] <= 2


def test_added_gpu_hours_by_hand(data, scene_params):
    # checks and discarded interval at c*: 2·√(k/M) of n·T; the interval's ends scale it as √λ
    p, s = scene_params(SCENE), data["summary"]
    share = 2 * math.sqrt(s["check_time"] / s["mtb_sdc"])
    assert s["added_gpu_hours"] == pytest.approx(share * p["gpus"] * p["run_days"] / HOUR, rel=1e-9)
    assert s["added_gpu_hours_low"] == pytest.approx(s["added_gpu_hours"] * math.sqrt(2.2019 / 6), rel=1e-3)
    assert s["added_gpu_hours_high"] == pytest.approx(s["added_gpu_hours"] * math.sqrt(13.059 / 6), rel=1e-3)


def test_mantissa_change_in_ppb_and_relative_loss(data):
    s = data["summary"]
    # bit 0 of a float32 in [2⁻³, 2⁻²) changes it by 2⁻²³ × 2⁻³ absolute, i.e. 2⁻²⁶/|w| relative
    assert s["weight_mantissa_change_ppb"] == pytest.approx(2.0**-26 / abs(s["weight_before"]) * 1e9, rel=1e-6)
    assert s["silent_max_relative"] * s["loss_at_flip"] > 0


def test_added_gpu_hours_are_quoted_to_two_figures(data):
    s = data["summary"]
    for key in ("added_gpu_hours", "added_gpu_hours_low", "added_gpu_hours_high"):
        r = s[f"{key}_rounded"]
        assert r == pytest.approx(s[key], rel=0.05) and float(f"{r:.2g}") == r
