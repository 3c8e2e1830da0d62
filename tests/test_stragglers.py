"""stragglers: the barrier identity, the expected maximum (quadrature
against Gumbel and a seeded Monte Carlo that could disagree), the step time
from the scenario, the cost at scale against the ByteDance study, and the
detector finding an injected straggler within its stated delay."""

from __future__ import annotations

import math

import numpy as np
import pytest

from models import stragglers as st
from models.constants import CONSTANTS
from models.exhibit import ClaimError, ParamError
from models.units import fmt_count, fmt_percent, fmt_seconds

SCENE = "stragglers"
Z = st.Z_CHECK


@pytest.fixture(scope="module")
def data(model_output):
    return model_output(SCENE)[0]


# --- the barrier ------------------------------------------------------------------
@pytest.mark.parametrize("n", [2, 8, 1000, 16384])
@pytest.mark.parametrize("s", [0.01, 0.05, 0.5])
def test_one_slow_gpu_slows_the_step_by_exactly_its_slowdown(n, s):
    mu = 6.2
    times = np.full(n, mu)
    before = st.barrier_step_time(times)
    times[n // 3] = mu * (1 + s)
    assert st.barrier_step_time(times) / before == pytest.approx(1 + s, rel=1e-15)
    # without jitter the expected step says the same, at any N
    assert st.expected_step_time(mu, 0.0, n, s) == pytest.approx(mu * (1 + s))


def test_the_identity_at_the_scenario(data):
    s = data["summary"]
    assert s["identity_factor"] == pytest.approx(1 + s["slowdown"], rel=1e-12)


# --- the step time from the scenario ---------------------------------------------------
def test_step_time_from_llama3_table4_and_palm_count(data):
    p, s = data["params"], data["summary"]
    # Llama 3 Table 4 (16,384-GPU row): 16M tokens per batch, 400 TFLOP/s per GPU;
    # PaLM Appendix B (torchtitan's MFU): 6N + 12·L·H·Q·T per token, Llama 3 405B 126 layers, H·Q = 16,384
    assert p["gpus"] == 16384 and p["tokens_per_batch"] == 16 * 2**20
    assert p["flops_per_gpu"] == 400e12 and p["flops_per_param_token"] == 6
    assert p["model_params"] == 405e9
    expected = (6 * 405e9 + 12 * 126 * 16384 * 8192) * 16 * 2**20 / (16384 * 400e12)
    assert s["step_time"] == pytest.approx(expected, rel=1e-12)
    assert 6.7 < s["step_time"] < 6.8  # hand check: 4.42e19 FLOP / 6.55e18 FLOP/s = 6.74 s


def test_hand_checked_attention_term(data):
    # PaLM Appendix B: 12·L·H·Q·T per token; Llama 3 405B (Table 3): 126 layers, H·Q = 16,384;
    # 8,192-token context: 12·126·16384·8192 = 2.03e11, 7.71% of 6N + that
    assert st.attention_flops_per_token(126, 8192, 16384) == pytest.approx(2.0294e11, rel=1e-3)
    assert data["summary"]["attention_share"] == pytest.approx(2.0294e11 / (6 * 405e9 + 2.0294e11), rel=1e-3)


# --- the expected maximum ------------------------------------------------------------
def test_hand_checked_maxima_of_two_and_three_normals():
    # E[max of 2] = 1/√π, E[max of 3] = 3/(2√π) (classical closed forms)
    assert st.expected_max_normal(2) == pytest.approx(1 / math.sqrt(math.pi), abs=1e-6)
    assert st.expected_max_normal(3) == pytest.approx(1.5 / math.sqrt(math.pi), abs=1e-6)
    assert st.expected_max_normal(1) == pytest.approx(0.0, abs=1e-6)


def test_shifted_rank_dominates_when_far_ahead():
    # one rank 20σ slower: the max is that rank (its mean is the shift)
    assert st.expected_max_normal(1000, shift=20.0) == pytest.approx(20.0, abs=1e-4)


@pytest.mark.parametrize("n", [4, 100, 3000])
def test_monte_carlo_agrees_with_quadrature_within_its_ci(n):
    rng = np.random.default_rng(1234 + n)
    draws = st.simulate_max_normal(n, 3000, rng)
    se = draws.std(ddof=1) / math.sqrt(draws.size)
    assert abs(draws.mean() - st.expected_max_normal(n)) <= Z * se


@pytest.mark.parametrize("shift", [1.0, 4.0])
def test_one_shifted_rank_quadrature_agrees_with_monte_carlo(shift):
    # the straggler on top of jitter: one of n normals has mean `shift` (in σ)
    rng = np.random.default_rng(int(shift * 10))
    n, trials = 2000, 3000
    x = rng.standard_normal((trials, n))
    x[:, 0] += shift
    draws = x.max(axis=1)
    se = draws.std(ddof=1) / math.sqrt(trials)
    assert abs(draws.mean() - st.expected_max_normal(n, shift)) <= Z * se
    # and it is not the unshifted value (the check can fail)
    assert abs(draws.mean() - st.expected_max_normal(n)) > Z * se or shift < 2


def test_the_check_can_fail_gumbel_is_outside_the_ci_at_small_n():
    # the same Monte Carlo rejects the Gumbel approximation where it is poor
    rng = np.random.default_rng(7)
    draws = st.simulate_max_normal(8, 20000, rng)
    se = draws.std(ddof=1) / math.sqrt(draws.size)
    assert abs(draws.mean() - st.gumbel_expected_max(8)) > Z * se


def test_scene_monte_carlo_at_every_rank_count(data):
    ser = data["series"]
    z = np.asarray(ser["mc_z"])
    assert len(z) >= 4 and np.all(np.abs(z) <= Z)
    assert max(ser["mc_n"]) == data["params"]["gpus"]


def test_maximum_grows_like_sqrt_2_ln_n_slowly(data):
    ser = data["series"]
    n, exact, gum, lead = (np.asarray(ser[k]) for k in ("n", "exact", "gumbel", "lead"))
    assert np.all(np.diff(exact) > 0)
    big = n >= 1000
    # Gumbel converges (within 1% past 1000 ranks); √(2 ln N) stays above, its ratio creeping to 1
    assert np.all(np.abs(gum[big] / exact[big] - 1) < 0.01)
    assert np.all(lead[big] > exact[big])
    ratio = exact[big] / lead[big]
    assert np.all(np.diff(ratio) > 0)
    s = data["summary"]
    assert s["m_2N"] - s["m_N"] < 0.2  # doubling 16,384 ranks adds under 0.2σ


# --- the cost and the published study ----------------------------------------------
def test_study_values_are_the_published_ones(data):
    p = data["params"]
    # Lin et al., OSDI '25: 42.5% of jobs slowed ≥ 10% (S ≥ 1.1); 10.4% of GPU-hours; median waste 7.8%
    assert p["reported_affected_jobs"] == 0.425 == CONSTANTS["bytedance_straggler_affected_jobs"].value
    assert p["reported_affected_slowdown"] == 1.1
    assert p["reported_waste_cluster"] == 0.104
    assert p["reported_waste_median"] == 0.078


def test_the_study_is_not_used_to_size_the_jitter(data):
    s = data["summary"]
    # the study puts most waste on persistent causes, so its median does not calibrate random jitter;
    # the page only says that the assumed jitter alone explains less than it
    assert s["waste_jitter"] < s["reported_waste_median"]
    # a single 5% straggler stays under the study's 'affected' threshold
    assert s["identity_factor"] < s["reported_affected_slowdown"]


def test_slow_rank_cost_at_scale(data):
    s = data["summary"]
    n = data["params"]["gpus"]
    assert s["slow_alone_gpu_hours"] == pytest.approx(n * 24 * (1 - 1 / 1.05))
    c = st.slow_rank_cost(n, s["step_time"], s["jitter_cv"], s["slowdown"])
    assert c["factor_slow"] == pytest.approx(s["slow_factor"])
    assert c["factor_slow"] > 1 + s["slowdown"] > c["factor_jitter"] > 1
    assert 0 < c["marginal_share"] < 1 - 1 / 1.05


def test_what_the_slow_gpu_adds_over_the_jitter_sweep(data):
    s, rows = data["summary"], data["records"]["jitter_sweep"]
    n, m_n, slow = data["params"]["gpus"], s["m_N"], s["slowdown"]
    assumed = next(r for r in rows if r["assumed"])
    assert assumed["slow_added"] == pytest.approx(s["slow_marginal_gpu_hours"], rel=1e-12)
    added = [r["slow_added"] for r in rows]
    assert all(a > b for a, b in zip(added, added[1:], strict=False)), "more jitter hides more of the slow GPU"
    for r in rows:
        # E[step with it] ≥ μ(1 + s): it adds at least 1 − (1 + c·m_N)/(1 + s) of every GPU-hour, and less
        # than the jitter-free 1 − 1/(1 + s)
        floor = n * 24 * (1 - (1 + r["cv"] * m_n) / (1 + slow))
        assert max(floor, 0.0) <= r["slow_added"] < s["slow_alone_gpu_hours"]
    # at the least jitter the slow GPU is the last rank on nearly every step: the floor is nearly exact
    assert added[0] == pytest.approx(n * 24 * (1 - (1 + rows[0]["cv"] * m_n) / (1 + slow)), rel=1e-3)
    assert (s["sweep_slow_added_max"], s["sweep_slow_added_min"]) == (added[0], added[-1])


# --- the detector --------------------------------------------------------------
def test_threshold_gives_the_stated_false_alarm_rate():
    h = st.threshold_for_false_alarms(1e-3, 1000)
    assert 1 - st.ndtr(h) == pytest.approx(1e-6, rel=1e-9)


def test_detector_finds_an_injected_straggler_within_its_stated_delay():
    rng = np.random.default_rng(99)
    s, c, w, ranks, trials = 0.05, 0.01, 16, 128, 300
    h = st.threshold_for_false_alarms(1e-3, ranks)
    k99 = st.detection_delay_steps(s, c, w, h)
    assert k99 is not None and k99 < w
    sim = st.simulate_detector(ranks, w, s, c, k99, trials, rng)
    found = (sim["straggler"] > h).any(axis=1)
    se = math.sqrt(0.99 * 0.01 / trials)
    assert found.mean() >= 0.99 - Z * se
    # and not much sooner than the expected z says: before the median delay most are still hidden
    k50 = st.median_detection_steps(s, c, w, h)
    early = (sim["straggler"][:, : max(k50 - 2, 1)] > h).any(axis=1).mean()
    assert early < 0.5
    # healthy ranks: false flags at the rate the threshold was set for
    assert np.mean(sim["healthy"] > h) < 1e-3


def test_the_delay_check_can_fail_a_too_short_window():
    # 2% straggler, 1% jitter, h = 5.75: a 4-step window cannot reach 99%
    assert st.detection_delay_steps(0.02, 0.01, 4, 5.75) is None
    assert st.smallest_detectable_slowdown(0.01, 4, 5.75) > 0.02


def test_scene_detector_numbers(data):
    s = data["summary"]
    assert s["delay50_steps"] <= s["delay99_steps"] <= s["window"]
    assert s["sim_share_by_delay"] >= 0.99 - Z * math.sqrt(0.0099 / s["detector_trials"])
    assert abs(s["sim_median_delay"] - s["delay50_steps"]) <= 1
    assert s["delay99_seconds"] == pytest.approx(s["delay99_steps"] * s["step_time"])


def test_simulated_roc_follows_the_analytic_one(data):
    ser, s = data["series"], data["summary"]
    tol = Z * math.sqrt(0.25 / s["detector_trials"]) + st.ROC_BIAS
    assert tol < 0.15  # tight enough to mean something at the scene's trials
    for k in data["params"]["roc_steps_after"]:
        k = int(k)
        assert np.max(np.abs(np.asarray(ser[f"roc_fpr_sim_{k}"]) - ser[f"roc_fpr_{k}"])) < 0.02 + st.ROC_BIAS
        assert np.max(np.abs(np.asarray(ser[f"roc_tpr_sim_{k}"]) - ser[f"roc_tpr_{k}"])) < tol


def test_roc_operating_point_at_the_days_threshold(data):
    s, p = data["summary"], data["params"]
    at_h = {r["k"]: r for r in data["records"]["roc_at_h"]}
    assert sorted(at_h) == sorted(int(k) for k in p["roc_steps_after"])
    for k, r in at_h.items():
        assert r["fpr"] == pytest.approx(s["fpr_per_check"], rel=1e-12)
        # hand check: E[z] after k slow steps is (s/c)·k/√W; TPR = 1 − Φ(h − that)
        shift = p["slowdown"] / p["jitter_cv"] * k / math.sqrt(p["window"])
        assert r["tpr"] == pytest.approx(0.5 * math.erfc((s["threshold"] - shift) / math.sqrt(2)), rel=1e-9)
    # 4 steps after onset at W = 20: shift 4.47, h 5.74, so one check catches it about 10% of the time
    assert 0.09 < at_h[4]["tpr"] < 0.11
    # the curves reach below the operating point's false-positive rate (the figure's log axis shows it)
    assert min(data["series"]["roc_fpr_4"]) < s["fpr_per_check"]


def test_the_roc_check_can_fail_with_the_wrong_sigma():
    # a detector that assumed twice the true jitter would sit far from the analytic curve
    rng = np.random.default_rng(3)
    sim = st.simulate_detector(128, 16, 0.05, 0.01, 2, 300, rng)
    fpr_wrong, tpr_wrong = st.analytic_roc([1.0, 2.0], 0.05, 0.02, 16, 2)
    tpr_sim = [(sim["straggler"][:, 1] > h).mean() for h in (1.0, 2.0)]
    assert max(abs(a - b) for a, b in zip(tpr_sim, tpr_wrong, strict=True)) > Z * math.sqrt(0.25 / 300) + st.ROC_BIAS


# --- the production tools' defaults, and a lasting spread between healthy GPUs ----------------
def test_production_defaults_are_the_published_ones(data):
    p, s = data["params"], data["summary"]
    # NeMo, nemo/collections/llm/recipes/callbacks/common.py, straggler_det_callback(): threshold 0.7,
    # report interval 300 s; PyTorch ProcessGroupNCCL.hpp: kProcessGroupNCCLDefaultTimeout = 10 min
    assert p["nemo_relative_threshold"] == 0.7 == CONSTANTS["nemo_straggler_relative_threshold"].value
    assert p["nemo_report_interval"] == 300 == CONSTANTS["nemo_straggler_report_interval"].value
    assert p["watchdog_timeout"] == 600 == CONSTANTS["pytorch_nccl_default_timeout"].value
    # score = best time / own time < 0.7 <=> more than 1/0.7 - 1 = 42.9% slower: a 5% straggler is not flagged
    assert s["nemo_min_slowdown"] == pytest.approx(3 / 7)
    assert not s["nemo_flags_straggler"]
    assert s["nemo_report_steps"] == pytest.approx(300 / s["step_time"])  # about 44.5 steps per report
    # the straggler's lag per all-reduce, s·μ = 0.337 s, against the 600 s timeout: about 1,780 times
    assert s["watchdog_over_lag"] == pytest.approx(600 / (0.05 * s["step_time"]))
    assert s["watchdog_over_lag"] > 1000


def test_a_lasting_spread_would_be_flagged_and_a_per_rank_baseline_costs_root_two(data):
    s = data["summary"]
    h, c, w = s["threshold"], s["jitter_cv"], s["window"]
    # a healthy GPU always δ slower has mean z = δ·√W/c: it reaches h at δ = h·c/√W (1.28% here)
    assert s["spread_flag_limit"] == pytest.approx(h * c / math.sqrt(w))
    assert s["spread_flag_limit"] < s["slowdown"]
    # scoring each rank's change against its own previous window: variance doubles, so c -> c·√2
    k = math.ceil((h + st.Z_99) * c * math.sqrt(2 * w) / s["slowdown"])
    assert s["baseline_delay99_steps"] == k > s["delay99_steps"]


def test_a_seeded_spread_fools_the_cross_rank_score():
    # the check can fail: healthy ranks with a lasting 2% spread (σ/μ 1%, W = 16) are flagged by the
    # cross-rank score well beyond the rate its threshold was set for
    rng = np.random.default_rng(5)
    ranks, w, c = 64, 16, 0.01
    t = 1.0 + c * rng.standard_normal((ranks, 3 * w)) + 0.02 * rng.standard_normal((ranks, 1))
    z = st.rolling_z_scores(t, w)
    h = st.threshold_for_false_alarms(1e-3, ranks)
    assert np.mean(z > h) > 100 * 1e-3 / ranks


def test_worked_problems_label_the_jitter_free_cost_as_the_bound(data):
    pr = data["problems"]
    for key in ("double_slowdown", "subtle"):
        assert 0 < pr[key]["gpu_hours_jitter"] < pr[key]["gpu_hours_alone"]
    # a 2% straggler at 1% jitter is rarely the slowest of 16,384 ranks: it adds little
    assert pr["subtle"]["gpu_hours_jitter"] < 0.05 * pr["subtle"]["gpu_hours_alone"]


# --- the flight recorder ---------------------------------------------------------------
def test_flight_recorder_names_the_slow_rank_and_the_telltale_holds(data):
    s, p = data["summary"], data["params"]
    assert s["fr_suspect"] == s["fr_slow_rank"] == s["fr_hang_suspect"]
    # the slow rank enters every gradient all-reduce last, so its record is the transfer alone
    assert s["fr_dp_straggler"] == pytest.approx(s["fr_collective_time"], rel=1e-9)
    assert s["fr_collective_time"] == pytest.approx(p["fr_collective_share"] * s["step_time"])
    # ranks outside its TP group wait about s·μ (0.34 s) on top, less what their own jitter uses up
    extra = s["fr_dp_others_mean"] - s["fr_collective_time"]
    assert 0.7 * p["slowdown"] * s["step_time"] < extra < 1.3 * p["slowdown"] * s["step_time"]
    assert s["fr_dp_others_min"] > 2 * s["fr_dp_straggler"]
    # inside the TP group the partner waits for it: the slow rank has the shorter TP records
    assert s["fr_tp_straggler"] < s["fr_tp_peers"]
    # hung: the other TP groups wait in the gradient all-reduce, the partner in its TP all-reduce
    assert s["fr_hang_waiting_dp"] == p["fr_ranks"] - p["fr_tp"]
    assert s["fr_hang_waiting_tp"] == p["fr_tp"] - 1


def test_explore_rows_are_computed_at_each_rank_count(data):
    """The probe's rows read the model at each N, not the job's summary repeated on every row."""
    s, m, p = data["series"], data["summary"], data["params"]
    i = s["n"].index(p["gpus"])
    assert s["n_jitter_step"][i] == pytest.approx(m["jitter_factor"] - 1, rel=1e-12)
    assert s["n_slow_added"][i] == pytest.approx(m["slow_marginal_gpu_hours"], rel=1e-12)
    assert s["n_delay99"][i] == m["delay99_steps"]
    assert s["n_delay99_seconds"][i] == pytest.approx(m["delay99_seconds"])
    # hand check at N = 2: m_2 = 1/√π, so jitter adds c/√π of the step
    assert s["n"][0] == 2 and s["n_jitter_step"][0] == pytest.approx(p["jitter_cv"] / math.sqrt(math.pi), rel=1e-6)
    # more ranks: more jitter, a lower per-rank false-alarm budget, so a higher threshold and no faster flag
    assert np.all(np.diff(s["n_jitter_step"]) > 0)
    assert np.all(np.diff(s["n_delay99"]) >= 0)


def test_the_detector_times_compute_kernels_so_it_flags_the_gpu_not_its_tp_group(data):
    s, p = data["summary"], data["params"]
    mu, slow = s["step_time"], p["slowdown"]
    # up to the barrier the partner waits for the slow GPU in every TP all-reduce: the same time, exactly
    assert s["fr_barrier_peers"] == pytest.approx(s["fr_barrier_straggler"], rel=1e-12)
    assert s["fr_barrier_straggler"] > s["fr_barrier_others"]
    # compute kernels alone: the slow GPU about (1 + s)·μ, its partner about μ (1% jitter over a few steps)
    assert s["fr_compute_straggler"] == pytest.approx((1 + slow) * mu, rel=0.015)
    assert s["fr_compute_peers"] == pytest.approx(mu, rel=0.015)


def test_cost_shares_compound(data):
    # jitter's cost is counted against μ, the slow GPU's against the jittery step: the job keeps the product
    # of what each leaves, so together they lose 1 − 1/S_s of its GPU-hours, less than the two costs added
    s, p = data["summary"], data["params"]
    per_day = p["gpus"] * 24
    assert s["both_gpu_hours"] == pytest.approx(per_day * (1 - 1 / s["slow_factor"]), rel=1e-12)
    kept = (1 - s["gpu_hours_jitter"] / per_day) * (1 - s["slow_marginal_gpu_hours"] / per_day)
    assert kept == pytest.approx(1 / s["slow_factor"], rel=1e-12)
    assert s["both_gpu_hours"] < s["gpu_hours_jitter"] + s["slow_marginal_gpu_hours"]
    assert 19_000 < s["both_gpu_hours"] < 19_100  # 19,045 against 15,020 + 4,186 = 19,206


def test_tp_groups_as_independent_units(data):
    s, p = data["summary"], data["params"]
    assert s["tp_units"] == p["gpus"] / p["scenario_tp"] == 2048
    assert s["m_tp_units"] == pytest.approx(st.expected_max_normal(2048), rel=1e-12)
    assert 3.3 < s["m_tp_units"] < s["m_N"]  # fewer units, a smaller maximum: 3.44 against 3.97
    assert s["jitter_factor_tp_units"] == pytest.approx(1 + p["jitter_cv"] * s["m_tp_units"])
    # the slow GPU's group among 2,048 units: fewer rivals hide less of its s, so it adds more (5,959 against
    # 4,186 GPU-h a day); rebuilt here from the quadrature with the shift s/c, over all N GPUs
    c, slow = p["jitter_cv"], p["slowdown"]
    slow_factor = 1 + c * st.expected_max_normal(2048, slow / c)
    added = p["gpus"] * 24 * (1 - s["jitter_factor_tp_units"] / slow_factor)
    assert s["slow_added_tp_units"] == pytest.approx(added, rel=1e-12)
    assert s["slow_added_tp_units"] > s["slow_marginal_gpu_hours"]
    assert 5900 < s["slow_added_tp_units"] < 6000


def test_animation_labels_the_slow_ranks_jitter(data):
    a, p = data["animation"], data["params"]
    assert a["slow_drawn"] == pytest.approx(a["times"][1][a["slow_rank"]] - 1.0)
    # the first race's slowest rank, in σ, is a draw of the maximum of a few normals
    assert a["first_late_sigma"] == pytest.approx((max(a["times"][0]) - 1.0) / p["jitter_cv"])
    assert a["m_anim"] == pytest.approx(st.expected_max_normal(a["ranks"]))


def test_section_times_hand_built_dump():
    # one rank pair, one TP all-reduce and one gradient all-reduce per step; rank 1 computes 2 s, rank 0 1 s
    dump = np.array([[[0, st.FR_DP, 0, 0.0, 0.0], [1, st.FR_TP, 0, 1.0, 2.5], [1, st.FR_DP, 1, 2.5, 3.0]],
                     [[0, st.FR_DP, 0, 0.0, 0.0], [1, st.FR_TP, 0, 2.0, 2.5], [1, st.FR_DP, 1, 2.5, 3.0]]])
    sec = st.section_times(dump)
    assert sec["compute"].tolist() == [1.0, 2.0]
    assert sec["barrier"].tolist() == [2.5, 2.5]


def test_ring_buffer_keeps_the_last_records_and_a_hang_leaves_them_open():
    rng = np.random.default_rng(0)
    rec = st.flight_recorder_run(4, 2, 3, 5, 6.0, 0.01, 0.05, 1, 0.02, rng)
    assert rec.shape == (4, 5 * 4, len(st.FR_FIELDS))
    ring = st.ring_buffer(rec, 6)
    assert np.array_equal(ring, rec[:, -6:])
    hung = st.flight_recorder_run(4, 2, 3, 5, 6.0, 0.01, 0.05, 1, 0.02, rng, hang_at_end=True)
    h = st.hang_analysis(st.ring_buffer(hung, 6), 2)
    assert h["never_entered"] == [1]
    assert np.isnan(hung[1, -2, 3])  # the hung rank never entered its last TP all-reduce
    assert np.isnan(hung[0, -2, 4]) and not np.isnan(hung[0, -2, 3])  # its partner entered, never left


def test_the_flight_recorder_check_can_fail_without_a_straggler():
    # with no slow rank nothing stands out: the claims on the dumps must fail, not pass by construction
    with pytest.raises(ClaimError):
        st.flight_recorder_study(6.74, 0.01, 0.0, 8, 2, 4, 6, 15, 0.02, 2, np.random.default_rng(1))


# --- contract and determinism ----------------------------------------------------------
def test_a_claim_that_stops_holding_fails_the_build(scene_params):
    p = {**scene_params(SCENE), "jitter_cv": 0.05, "jitter_sweep": [0.05], "mc_ranks": [2, 64],
         "mc_trials": 200, "detector_trials": 100}
    with pytest.raises(ClaimError):
        st.straggler_barrier(**p)


def test_bad_rank_counts_are_refused(scene_params):
    p = {**scene_params(SCENE), "mc_ranks": [2, 10**9]}
    with pytest.raises(ParamError):
        st.straggler_barrier(**p)


def test_deterministic_under_seed(scene_params):
    p = {**scene_params(SCENE), "mc_ranks": [2, 64], "mc_trials": 300, "detector_trials": 200,
         "detector_ranks": 64}
    a, b = st.straggler_barrier(**p), st.straggler_barrier(**p)
    assert a.summary == b.summary
    assert a.animation == b.animation
    c = st.straggler_barrier(**{**p, "seed": p["seed"] + 1})
    assert c.summary["mc_max_abs_z"] != a.summary["mc_max_abs_z"]


def test_scene_captions_quote_the_model(dry_run):
    data, beats, seconds = dry_run(SCENE)
    assert 20 <= seconds <= 60
    s, p = data["summary"], data["params"]
    text = " ".join(b["caption"] for b in beats)
    for quoted in (fmt_count(p["gpus"]), fmt_percent(p["slowdown"]), fmt_percent(s["jitter_factor"] - 1),
                   f"{s['delay99_steps']} steps", fmt_seconds(s["delay99_seconds"]),
                   fmt_count(round(s["slow_alone_gpu_hours"])), fmt_count(round(s["slow_marginal_gpu_hours"])),
                   f"{s['fr_dp_straggler'] * 1e3:.0f} ms",
                   f"rank {s['fr_suspect']}"):
        assert quoted in text, quoted
