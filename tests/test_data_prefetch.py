"""data-prefetch · data prefetching: the demand from published values, the latency fit,
the simulation against formulas it could disagree with, Little's law, idle falling
to zero with depth, determinism, and the bounds on every loop."""

from __future__ import annotations

import math

import numpy as np
import pytest
from scipy import special

from models import data_prefetch as pf
from models.constants import CONSTANTS

SCENE = "data-prefetch"
Z = pf.Z_CHECK


@pytest.fixture(scope="module")
def data(model_output):
    return model_output(SCENE)[0]


# --- demand: published values ------------------------------------------------------------
def test_step_time_and_demand_from_llama3_table4(data):
    s = data["summary"]
    # Llama 3 §3.3.2, Table 4 (16,384 GPUs, 8K context): 16M tokens per batch, DP 128,
    # batch size/DP 16, 400 TFLOPs/GPU; 405B parameters; 6N + 12·L·d·T FLOPs per token (PaLM App. B),
    # 126 layers of width 16,384, 8,192 tokens of context
    assert s["step_time"] == pytest.approx((6 * 405e9 + 12 * 126 * 16384 * 8192) * 16 * 2**20 / (16384 * 400e12))
    assert 6.7 < s["step_time"] < 6.8
    assert s["sequences_per_rank"] == 16
    assert s["gpu_tokens_per_s"] * 16384 == pytest.approx(s["job_tokens_per_s"])
    # 128K vocabulary (§3.2) does not fit 16-bit ids: 4 bytes per token
    assert s["token_bytes"] == 4 and pf.token_id_bytes(65536) == 2 and pf.token_id_bytes(65537) == 4
    assert s["rank_bytes_per_step"] == 16 * 8192 * 4


def test_data_rate_against_the_checkpoint_burst(data):
    s, pr = data["summary"], data["problems"]["checkpoint"]
    # daly-checkpoint's checkpoint: 14 B/param × 405e9 at Tectonic's sustained 2 TB/s (Llama 3 §3.3.1)
    assert s["checkpoint_bytes"] == pytest.approx(405e9 * 14)
    assert s["checkpoint_time"] == pytest.approx(405e9 * 14 / 2e12)
    assert s["checkpoint_over_data"] == pytest.approx(2e12 / s["job_bytes_per_s"])
    assert s["checkpoint_over_data"] > 1e4
    assert pr["peak_share"] == pytest.approx(s["job_bytes_per_s"] / 7e12)


# --- the latency fit ------------------------------------------------------------------------
def test_lognormal_fit_reproduces_the_reference_percentiles(data):
    # Dean & Barroso 2013, Table 1: one leaf request, 1 ms p50, 5 ms p95, 10 ms p99
    p50, p95, p99 = (CONSTANTS[f"tail_at_scale_leaf_p{q}"].value for q in (50, 95, 99))
    mu, sigma = pf.lognormal_from_percentiles(p50, p99)
    assert float(pf.lognormal_quantile(0.5, mu, sigma)) == pytest.approx(p50)
    assert float(pf.lognormal_quantile(0.99, mu, sigma)) == pytest.approx(p99)
    # the third percentile is a prediction, not an input
    assert float(pf.lognormal_quantile(0.95, mu, sigma)) == pytest.approx(p95, rel=0.05)
    assert data["summary"]["sigma"] == pytest.approx(sigma)


def test_the_fit_check_can_fail():
    # a tail whose p95 sits far from a lognormal's: the same fit misses it
    mu, sigma = pf.lognormal_from_percentiles(1e-3, 10e-3)
    assert abs(float(pf.lognormal_quantile(0.95, mu, sigma)) / 2e-3 - 1) > 0.05


def test_sampled_reads_have_the_fitted_median_and_p99():
    mu, sigma = pf.lognormal_from_percentiles(0.03, 0.3)
    x = pf.read_times(np.random.default_rng(3), 200_000, mu, sigma, 0.0)
    assert np.median(x) == pytest.approx(0.03, rel=0.02)
    assert np.percentile(x, 99) == pytest.approx(0.3, rel=0.05)


# --- the simulation against formulas ---------------------------------------------------------
def test_simulation_agrees_with_formulas_within_ci(data):
    checks = data["records"]["checks"]
    assert len(checks) == 3
    for c in checks:
        assert abs(c["simulated"] - c["formula"]) <= Z * c["se"], c["case"]


def test_hand_checked_case_constant_reads():
    # reads of exactly 0.1 s, batch 4, step 1 s: one worker, no prefetch waits 0.4 s a step;
    # four workers wait 0.1 s; one batch of prefetch hides it all
    reads = np.full(4 * 50, 0.1)
    one = pf.summarise(pf.simulate(1, 0, 4, 1.0, reads), 1.0)
    assert one["mean_wait"] == pytest.approx(0.4)
    assert one["idle"] == pytest.approx(0.4 * 49 / (49 * 1.4 + 1.0))
    four = pf.summarise(pf.simulate(4, 0, 4, 1.0, reads), 1.0)
    assert four["mean_wait"] == pytest.approx(0.1)
    ahead = pf.summarise(pf.simulate(1, 4, 4, 1.0, reads), 1.0)
    assert ahead["idle"] == 0.0 and ahead["p99"] == pytest.approx(1.0)


def test_throughput_bound_holds_for_every_configuration():
    # no configuration delivers more than N/E[X] sequences per second
    mu, sigma = pf.lognormal_from_percentiles(0.03, 0.3)
    mean = pf.lognormal_mean(mu, sigma)
    reads = pf.read_times(np.random.default_rng(5), 16 * 600, mu, sigma, 0.0)
    for w in (1, 2, 4):
        for d in (0, 16, 64):
            sim = pf.simulate(w, d, 16, 0.01, reads)
            rate = 16 * (len(sim["start"]) - 1) / (sim["start"][-1] - sim["start"][0])
            assert rate <= w / mean * 1.1


def test_expected_max_matches_a_sampled_max():
    mu, sigma = pf.lognormal_from_percentiles(0.03, 0.3)
    x = np.random.default_rng(9).lognormal(mu, sigma, size=(40_000, 16)).max(axis=1)
    se = x.std(ddof=1) / math.sqrt(len(x))
    assert abs(x.mean() - pf.expected_max(16, mu, sigma)) < Z * se


# --- Little's law ----------------------------------------------------------------------------
def test_littles_law_on_the_buffer(data):
    s = data["summary"]
    assert s["little_L"] == pytest.approx(s["little_lambda_W"], rel=0.01)
    assert s["little_flight_L"] == pytest.approx(s["little_flight_lambda_S"], rel=0.05)


def test_littles_law_in_a_busy_regime():
    # a short step, where the buffer is often empty and the GPU waits
    mu, sigma = pf.lognormal_from_percentiles(0.03, 0.3)
    reads = pf.read_times(np.random.default_rng(2), 16 * 3000, mu, sigma, 0.0)
    sim = pf.simulate(4, 24, 16, 0.2, reads, record=True)
    ll = pf.littles_law(sim, pf.lognormal_mean(mu, sigma))
    assert ll["rel_error"] < 0.02 and ll["flight_rel_error"] < 0.05


# --- idle falls to zero -------------------------------------------------------------------------
def test_idle_falls_to_zero_with_workers_and_depth(data):
    rows = data["records"]["sweep"]
    by = {(r["workers"], r["depth"]): r["idle"] for r in rows}
    workers = sorted({r["workers"] for r in rows})
    depths = sorted({r["depth"] for r in rows})
    for w in workers:  # deeper never hurts (common random numbers)
        idle = [by[(w, d)] for d in depths]
        assert all(b <= a + 1e-12 for a, b in zip(idle, idle[1:], strict=False))
    assert by[(workers[0], depths[0])] > 0.05
    assert by[(workers[-1], depths[-1])] == 0.0
    s = data["summary"]
    assert (s["best_workers"], s["best_depth"]) == (1, 16)


def test_no_prefetch_cannot_beat_the_slowest_read(data):
    s = data["summary"]
    assert s["sync_idle_best"] >= 0.9 * s["sync_bound"]
    assert s["sync_idle_best"] > data["params"]["busy_target"]


def test_conclusion_holds_across_the_median_estimate(data):
    rows = data["records"]["median_sensitivity"]
    medians = [r["median"] for r in rows]
    assert min(medians) <= 0.01 and max(medians) >= 0.09  # AWS: "tens of milliseconds"
    target = data["params"]["busy_target"]
    assert all(target < r["sync_idle_many_workers"] for r in rows)
    # one worker, one batch: busy up to the assumed median; at the top of the range near the busy line,
    # and always a tenth or less of loading on demand's idle
    assert all(r["one_batch_idle"] <= target for r in rows if r["median"] <= data["params"]["latency_median"])
    assert all(r["one_batch_idle"] < 0.1 * r["sync_idle_many_workers"] for r in rows)
    idle = [r["sync_idle_one_worker"] for r in rows]
    assert idle == sorted(idle)  # slower reads, more idle
    assumed = next(r for r in rows if r["assumed"])
    assert assumed["sync_idle_one_worker"] == pytest.approx(data["summary"]["sync_idle_one_worker"], rel=0.05)


def _idle_by_integration(k: int, step: float, n: int, median: float, sigma: float, decode: float) -> float:
    """n·E[(X − kT)⁺]/(T + …) with E[(X − s)⁺] = ∫_s^∞ P(X > x) dx by quadrature, not the closed form."""
    from scipy import integrate

    s = k * step - decode
    excess = integrate.quad(lambda x: special.ndtr((math.log(median) - math.log(x)) / sigma), s, np.inf, limit=400)[0]
    return n * excess / (step + n * excess)


def test_the_smaller_models_rings_move_with_the_median_and_the_tail(data):
    s, target = data["summary"], data["params"]["busy_target"]
    rows = {round(r["median"], 3): r for r in data["records"]["median_sensitivity"]}
    # the tail formula by quadrature, least whole rings: (workers for throughput, one rank, the job) at 10, 30, 90 ms
    expected = {0.01: (2, 3, 10), 0.03: (6, 12, 36), 0.09: (16, 45, 135)}
    for med, (w, rank, job) in expected.items():
        r = rows[med]
        assert (r["small_throughput_workers"], r["small_rank_batches"], r["small_job_batches"]) == (w, rank, job)
        # each named ring is within the target by quadrature, and one batch shallower is not: the least whole ring
        for n, k in ((16, rank), (128 * 16, job)):
            assert _idle_by_integration(k, s["small_step"], n, med, s["sigma"], s["decode_time"]) <= target
            assert _idle_by_integration(k - 1, s["small_step"], n, med, s["sigma"], s["decode_time"]) > target
    # the median triples, the job's ring grows 135/36 = 3.75-fold
    assert (s["median_top_ratio"], s["median_ring_growth"]) == (pytest.approx(3.0), pytest.approx(135 / 36))
    # the tail doubled (σ = ln 20 / z₀.₉₉ = 1.29): 68 batches for one rank, 295 for the job
    tl = data["problems"]["tail"]
    assert tl["sigma"] == pytest.approx(math.log(20) / special.ndtri(0.99))
    assert (tl["small_rank_batches"], tl["small_job_batches"]) == (68, 295)
    assert (tl["small_rank_batches_fit"], tl["small_job_batches_fit"]) == (12, 36)
    assert _idle_by_integration(295, s["small_step"], 2048, 0.03, tl["sigma"], s["decode_time"]) <= target
    assert _idle_by_integration(294, s["small_step"], 2048, 0.03, tl["sigma"], s["decode_time"]) > target


def test_hedged_and_timed_out_reads_by_hand_and_by_sampling(data):
    fit = {"mu": math.log(0.03), "sigma": math.log(10) / special.ndtri(0.99), "decode": 0.0}
    # a delay far past every read: no second GET, the plain lognormal's closed-form excess
    assert pf.hedged_excess(0.5, fit, 1e6, True) == pytest.approx(pf.lognormal_excess(0.5, fit["mu"], fit["sigma"]),
                                                                  rel=1e-6)
    # against a sample: Y = min(L1, d + L2) (hedged) and L1 if L1 <= d else d + L2 (timed out)
    rng = np.random.default_rng(5)
    l1, l2 = rng.lognormal(fit["mu"], fit["sigma"], (2, 2_000_000))
    d, s = 0.15, 0.4
    for keep, y in ((True, np.minimum(l1, d + l2)), (False, np.where(l1 <= d, l1, d + l2))):
        sample = np.maximum(y - s, 0.0)
        se = sample.std() / math.sqrt(len(sample))
        assert abs(pf.hedged_excess(s, fit, d, keep) - sample.mean()) <= Z * se
    # the page's rows: the plain rings first, then a second GET only makes rings shallower, hedging beats cancelling
    rows = data["problems"]["hedge"]
    s_ = data["summary"]
    assert (rows[0]["rank_batches"], rows[0]["job_batches"]) == (s_["stress_batches"], s_["job_plain_job_batches"])
    assert all(r["job_batches"] <= rows[0]["job_batches"] for r in rows)
    hedged = {r["at"]: r for r in rows if r["how"] == "hedged"}
    # the extra GETs at the read's p95 and p99 are 5 % and 1 % by construction
    assert hedged["p95"]["extra_gets"] == pytest.approx(0.05) and hedged["p99"]["extra_gets"] == pytest.approx(0.01)
    assert hedged["p99"]["delay"] == pytest.approx(0.3) and hedged["aws"]["delay"] == 2.0
    assert s_["hedge_p99_job_batches"] < s_["job_plain_job_batches"]


# --- determinism and bounds ------------------------------------------------------------------------
def test_deterministic_under_a_seed(scene_params):
    p = scene_params(SCENE)
    p.update(steps=300, workers=[1, 2, 16], depths=[0, 8, 16], median_sweep=[0.03])
    a, b = pf.prefetch_pipeline(**p), pf.prefetch_pipeline(**p)
    assert a.summary == b.summary and a.table.rows == b.table.rows
    c = pf.prefetch_pipeline(**{**p, "seed": p["seed"] + 1})
    assert c.summary["sync_idle_one_worker"] != a.summary["sync_idle_one_worker"]


def test_loops_are_bounded():
    with pytest.raises(pf.BoundExceeded):
        pf.read_times(np.random.default_rng(0), pf.MAX_SAMPLES + 1, 0.0, 1.0, 0.0)
    with pytest.raises(pf.BoundExceeded):
        pf.simulate(1, 0, 16, 1.0, np.zeros(pf.MAX_SAMPLES + 16))


# --- the stressed cases: 503 retries, request-rate ceiling, shards, images ---------------------
def test_retried_reads_match_the_retry_formula():
    # geometric refusals, each costing one GET and a full-jitter wait U(0, base·2^i): sampled vs formula
    rng = np.random.default_rng(5)
    mu, sigma, decode = math.log(0.03), 0.99, 1e-4
    for p in (0.0, 0.05, 0.3):
        r = pf.retried_read_times(rng, 200_000, mu, sigma, decode, p, 1.0, 20.0)
        f = pf.retried_mean(pf.lognormal_mean(mu, sigma) + decode, decode, p, 1.0, 20.0)
        assert abs(r.mean() - f) <= Z * r.std(ddof=1) / math.sqrt(len(r))
    # with p = 0 nothing is added; the cap bounds the wait windows
    assert pf.retried_mean(0.05, 0.0, 0.0, 1.0, 20.0) == 0.05
    assert pf.backoff_mean(10, 1.0, 20.0) == 10.0
    with pytest.raises(ValueError):
        pf.retried_read_times(rng, 10, mu, sigma, decode, 1.0, 1.0, 20.0)


def test_demand_case_by_hand():
    # 1,000 tokens/s of 100-token samples of 1,000 B: 10 samples/s, 10 B/token; shards of 10 kB hold 10
    c = pf.demand_case("x", 2.0, 2000, 100, 1000, 0.01, 4, 10_000, 1e6, 5)
    assert c["samples_per_s"] == 10 and c["bytes_per_token"] == 10 and c["bytes_per_s"] == 10_000
    assert c["prefixes_needed"] == 3 and c["served_one_prefix"] == pytest.approx(0.4)
    assert c["samples_per_shard"] == 10 and c["shard_gets_per_s"] == 1
    assert c["decode_cores_per_node"] == pytest.approx(10 * 0.01 / 5) and c["run_bytes"] == 1e7


def test_cases_from_published_values(data):
    s = data["summary"]
    cases = {c["case"]: c for c in data["records"]["cases"]}
    # Llama 3 8B (Table 3: 32 layers, width 4,096) on the same 16,384 GPUs and 16M-token batch
    small = (6 * 8e9 + 12 * 32 * 4096 * 8192) * 16 * 2**20 / (16384 * 400e12)
    assert s["small_step"] == pytest.approx(small)
    assert s["small_speedup"] == pytest.approx(s["step_time"] / small) and 40 < s["small_speedup"] < 46
    # text: 2,048 sequences a step; one prefix serves 5,500 GET/s (AWS)
    assert s["text_gets_per_s"] == pytest.approx(128 * 16 / s["step_time"])
    assert s["small_text_served"] == pytest.approx(5500 / (128 * 16 / small))
    # images: 256 tokens each, 4,408,913,793,032 B / 69,875,384 pairs (a LAION-400M part)
    assert s["image_bytes_per_token"] == pytest.approx(4408913793032 / 69875384 / 256)
    assert s["image_run_bytes"] == pytest.approx(15.6e12 * s["image_bytes_per_token"]) and s["image_run_bytes"] > 1e15
    assert s["text_run_bytes"] == pytest.approx(15.6e12 * 4)
    assert s["image_gets_per_s"] == pytest.approx(16 * 2**20 / 256 / s["step_time"])
    # 16,384 GPUs / 8 per node; 5 ms per image
    assert s["small_image_decode_cores"] == pytest.approx(16 * 2**20 / 256 / small * 0.005 / 2048)
    assert all(c["shard_gets_per_s"] < 5500 for c in cases.values())


def test_image_decode_swept_tenfold(data):
    """The image decode time is an unsourced estimate: the page also shows it ten times longer. The cores per node
    scale with it (images a second per node × seconds an image), weighed against a DGX H100's 112 cores."""
    small = (6 * 8e9 + 12 * 32 * 4096 * 8192) * 16 * 2**20 / (16384 * 400e12)
    est, slow = data["records"]["decode_sweep"]
    assert est["assumed"] and est["factor"] == 1 and slow["factor"] == 10
    assert slow["decode_per_sample"] == pytest.approx(0.05)
    cores = 16 * 2**20 / 256 / small * 0.05 / 2048  # about 10 cores per node, by hand
    assert slow["cores_small"] == pytest.approx(cores) and 9 < cores < 12
    assert slow["host_share_small"] == pytest.approx(cores / 112) and slow["host_share_small"] < 0.2
    assert slow["cores_big"] == pytest.approx(10 * est["cores_big"]) and est["cores_big"] < est["cores_small"]


def test_503_retries_need_a_deeper_ring(data):
    s = data["summary"]
    rows = data["records"]["stress_sweep"]
    plain = [r for r in rows if r["case"] == "every GET answered"]
    retried = [r for r in rows if r["case"] == "503s retried"]
    # the same reads with refusals added (common random numbers): retries never help any configuration
    assert [(r["workers"], r["depth"]) for r in plain] == [(r["workers"], r["depth"]) for r in retried]
    for a, b in zip(plain, retried):
        assert b["idle"] >= a["idle"] - 1e-9
    # throughput: fewer than B·E[X]/T workers cannot keep up at any depth
    for r in plain:
        if r["workers"] < s["stress_throughput_workers"]:
            assert r["idle"] > 0.05
    assert s["retry_depth"] > s["stress_depth"] > s["sequences_per_rank"]
    assert s["retry_one_batch_idle"] > s["stress_one_batch_idle"] > 0.1
    # the ring that hides a retried read spans about its p99 in steps
    assert s["retry_batches"] * s["small_step"] >= s["retry_p99_read"]


def test_ring_depth_rule_is_a_lower_bound_and_the_tail_sets_the_rest(data):
    """The p99 rule (ceil(p99/T) batches) undershoots the busy ring, which the read-time tail sets: the
    shallowest grid ring whose idle B·E[(X − kT)⁺]/(T + …) is within the target."""
    smp, st, th = data["problems"]["sample"], data["problems"]["stress"], data["problems"]["throttle"]
    s, target, T = data["summary"], data["params"]["busy_target"], st["step"]
    assert smp["rule_plain"] == math.ceil(smp["p99_plain"] / T) < st["batches"]
    assert smp["rule_retried"] == th["steps_spanned"] < th["batches"]
    fit = {"mu": math.log(data["params"]["latency_median"]), "sigma": s["sigma"], "decode": s["decode_time"]}
    p, b, c = th["throttled"], th["base"], th["cap"]
    tails = pf.refused_tails(fit["mu"], fit["sigma"], b, c, p, 64 * T, T / 8)
    B = s["sequences_per_rank"]
    for share, busy in ((0.0, st["batches"]), (p, th["batches"])):
        grid = smp["batch_grid"]
        assert busy in grid
        assert pf.tail_idle(busy, T, B, fit, share, tails)["idle"] <= target
        shallower = grid[grid.index(busy) - 1]
        assert pf.tail_idle(shallower, T, B, fit, share, tails)["idle"] > target
    # one step of B reads meets an uncovered read with probability 1 − 0.99^B if only the p99 is covered
    assert smp["step_stall_at_p99"] == pytest.approx(1 - 0.99**B)


def test_lognormal_excess_by_hand_and_against_integration():
    mu, sigma = math.log(0.03), 0.99
    # s → 0: E[(L − 0)⁺] = E[L]; s < 0 adds |s|
    assert pf.lognormal_excess(0.0, mu, sigma) == pytest.approx(math.exp(mu + sigma**2 / 2))
    assert pf.lognormal_excess(-1.0, mu, sigma) == pytest.approx(math.exp(mu + sigma**2 / 2) + 1.0)
    # against ∫_s^∞ P(L > x) dx on a fine log grid
    for s in (0.01, 0.3, 2.5, 10.0):
        x = np.exp(np.linspace(math.log(s), mu + 14 * sigma, 200_001))
        surv = 0.5 * special.erfc((np.log(x) - mu) / (sigma * math.sqrt(2)))
        assert pf.lognormal_excess(s, mu, sigma) == pytest.approx(np.trapezoid(surv, x), rel=1e-4)


def test_read_tail_with_refusals_matches_monte_carlo():
    """The refused reads' tail on a grid against 2 million seeded draws, where the draws can measure it."""
    fit = {"mu": math.log(0.03), "sigma": 0.99, "decode": 2e-5}
    rng = np.random.default_rng(7)
    n, p = 2_000_000, 0.05
    draws = pf.retry_draws(rng, n, fit["mu"], fit["sigma"], p)
    x = pf.apply_retries(pf.read_times(rng, n, fit["mu"], fit["sigma"], fit["decode"]), draws, p, 1.0, 20.0)
    tails = pf.refused_tails(fit["mu"], fit["sigma"], 1.0, 20.0, p, 40.0, 0.02)
    for s in (0.5, 2.0, 5.0):
        excess, surv = pf.read_tail(s, fit, p, tails)
        over = np.maximum(x - s, 0.0)
        assert abs(excess - over.mean()) <= 4 * over.std() / math.sqrt(n)
        k = np.mean(x > s)
        assert abs(surv - k) <= 4 * math.sqrt(k * (1 - k) / n)
    # p = 0 is the lognormal alone
    assert pf.read_tail(1.0, fit, 0.0, tails)[0] == pytest.approx(pf.lognormal_excess(1.0 - 2e-5, fit["mu"], 0.99))


def test_tail_idle_matches_the_simulated_lockstep_job_where_stalls_are_many():
    """The analytic job idle against the seeded lockstep simulation at a ring shallow enough that the run holds
    dozens of stalls (the model sizes deep rings from the formula because there a simulation holds none)."""
    fit = {"mu": math.log(0.03), "sigma": 0.99, "decode": 0.0}
    ranks, B, T, k, steps = 32, 16, 0.156, 8, 2500
    reads = pf.read_times(np.random.default_rng(5), ranks * steps * B, fit["mu"], fit["sigma"], 0.0)
    sim = pf.simulate_lockstep(8, k * B, B, T, reads.reshape(ranks, steps * B))
    got = pf.summarise(sim, T, warmup=k)
    want = pf.tail_idle(k, T, ranks * B, fit, 0.0, [])
    stalls = int(np.sum(sim["wait"][k:] > 0))
    assert stalls >= 40
    assert stalls / (steps - k) == pytest.approx(want["stall_share"], rel=0.25)
    # the union bound counts overlapping stalls twice: the simulation idles a little less, not more
    assert 0.8 * want["idle"] <= got["idle"] <= 1.1 * want["idle"]


def test_refusals_and_hard_errors(data):
    s = data["summary"]
    # one prefix serves 5,500 GET/s (S3 User Guide): the 8B text job's excess is refused
    assert s["refused_one_prefix"] == pytest.approx(1 - 5500 / s["small_text_gets_per_s"])
    assert s["refused_one_prefix"] > s["retry_throttled"]  # 5% only fits when spread over prefixes
    assert s["small_text_prefixes"] >= 3
    # SDK standard mode: three attempts by default, so p^3 of GETs fail for good
    assert s["sdk_attempts"] == 3
    assert s["hard_errors_per_s"] == pytest.approx(s["retry_throttled"] ** 3 * s["small_text_gets_per_s"])


# --- the refusal share swept, and shards streamed ------------------------------------------------
def test_apply_retries_by_hand():
    # two reads of 1 s; u = 0.5 and 0.001: at p = 0.1, ⌊ln u / ln p⌋ = 0 and 3 refusals
    draws = {"u": np.array([0.5, 0.001]), "latency": np.full((2, 4), 0.01), "jitter": np.full((2, 4), 0.5)}
    out = pf.apply_retries(np.array([1.0, 1.0]), draws, 0.1, 1.0, 3.0)
    # windows min(3, 1·2^i) = 1, 2, 3: the second read waits 0.5 + 1 + 1.5 and three refused GETs of 10 ms
    assert out[0] == 1.0 and out[1] == pytest.approx(1.0 + 3 * 0.01 + 0.5 * (1 + 2 + 3))
    assert list(pf.apply_retries(np.array([1.0, 1.0]), draws, 0.0, 1.0, 3.0)) == [1.0, 1.0]
    # a larger share never refuses a read less often; draws made for a smaller share are refused
    rng = np.random.default_rng(2)
    d = pf.retry_draws(rng, 50_000, math.log(0.03), 0.99, 0.3)
    reads = np.ones(50_000)
    lo, hi = pf.apply_retries(reads, d, 0.05, 1.0, 20.0), pf.apply_retries(reads, d, 0.3, 1.0, 20.0)
    assert np.all(hi >= lo) and np.mean(hi > 1.0) == pytest.approx(0.3, abs=0.01)
    with pytest.raises(ValueError):
        pf.apply_retries(reads, d, 0.6, 1.0, 20.0)


def test_refusal_share_swept(data):
    s, sweep = data["summary"], data["records"]["throttle_sweep"]
    shares = [r["throttled"] for r in sweep]
    assert shares == sorted(shares) and shares[0] == 0.0 and data["params"]["throttled"] in shares
    # p = 0 is the every-GET-answered case; the assumed p is the retry case the page quotes
    zero, assumed = sweep[0], next(r for r in sweep if r["throttled"] == data["params"]["throttled"])
    assert (zero["workers"], zero["batches"]) == (s["stress_workers"], s["stress_batches"])
    assert (assumed["workers"], assumed["batches"]) == (s["retry_workers"], s["retry_batches"])
    assert assumed["ring_bytes"] == s["retry_ring_bytes"]
    # same reads, same draws: the busy ring, the longest read and one batch's idle never shrink with p
    deep = [math.inf if r["batches"] is None else r["batches"] for r in sweep]
    assert deep == sorted(deep) and deep[-1] > deep[0]
    for key in ("longest", "one_batch_idle", "deepest_idle", "mean_read"):
        vals = [r[key] for r in sweep]
        assert vals == sorted(vals), key
    for r in sweep:
        assert r["mean_read"] == pytest.approx(pf.retried_mean(s["mean_read"], s["decode_time"], r["throttled"],
                                                               data["params"]["backoff_base"],
                                                               data["params"]["backoff_cap"]))
        if r["batches"] is None:  # no busy ring on the grid: even the deepest one leaves the GPUs idle
            assert r["deepest_idle"] > data["params"]["busy_target"]
        else:  # on the grid both searches of the tail find the same ring
            assert r["tail_rank_batches"] == r["batches"]
        # the job waits on 128 ranks' reads: never a shallower ring than one rank
        assert r["tail_job_batches"] >= r["tail_rank_batches"]
        assert r["job_ring_bytes"] == r["tail_job_batches"] * 16 * 8192 * 4
        assert r["job_lookahead"] == pytest.approx(r["tail_job_batches"] * s["small_step"])
        assert r["hard_errors_per_s"] == pytest.approx(r["throttled"] ** 3 * s["small_text_gets_per_s"])
    assert s["sweep_off_grid_share"] == next(r["throttled"] for r in sweep if r["batches"] is None)
    # past the grid the tail still finds rings (least whole rings of the same formula: p = 10 %: 140 and 314
    # batches; p = 20 %: 340 and 574, 574 × 16 × 32 KiB = 287 MiB per rank)
    by_p = {r["throttled"]: r for r in sweep}
    assert (by_p[0.1]["tail_rank_batches"], by_p[0.1]["tail_job_batches"]) == (140, 314)
    assert (by_p[0.2]["tail_rank_batches"], by_p[0.2]["tail_job_batches"]) == (340, 574)
    assert s["sweep_max_job_ring_bytes"] == 574 * 16 * 32 * 2**10
    # and the tail's idle at the ring it names is within the target, one batch shallower it is not
    fit = {"mu": math.log(0.03), "sigma": s["sigma"], "decode": s["decode_time"]}
    for k, ok in ((340, True), (339, False)):
        tails = pf.refused_tails(fit["mu"], fit["sigma"], 1.0, 20.0, 0.2, 1024 * s["small_step"], s["small_step"] / 8)
        idle = pf.tail_idle(k, s["small_step"], 16, fit, 0.2, tails)["idle"]
        assert (idle <= data["params"]["busy_target"]) == ok


NEAR_CONSTANT = {"mu": 0.0, "sigma": 1e-6, "decode": 0.0, "mean_read": 1.0}  # a first byte of 1 s, every time


def test_shard_stream_by_hand():
    # a shard of 10 samples, 2 a step, steps of 1 s: it lasts 5 s; 100 B at 50 B/s stream in 2 s plus 1 s to
    # the first byte: one connection and one shard ahead never stall, for one rank or eight in lockstep
    case = {"case": "x", "step": 1.0, "samples_per_shard": 10, "bytes_per_s": 20.0, "samples_per_s": 2.0}
    r = pf.shard_stream(case, 2, 100, 50, np.ones(400), NEAR_CONSTANT, 8, 0.001)
    assert r["consume"] == 5 and r["transfer"] == 2 and r["mean_read"] == 3
    assert (r["workers"], r["ahead"], r["job_ahead"], r["one_one_idle"]) == (1, 1, 1, 0.0) and r["ring_bytes"] == 200
    assert r["rank_bytes_per_s"] == 20
    # the same shard read at 10 B/s: 11 s per shard against 5 s eaten: asked 3 shards (15 s) ahead it is never
    # late, 2 (10 s) always; one connection per shard in the ring
    r = pf.shard_stream(case, 2, 100, 10, np.ones(400), NEAR_CONSTANT, 8, 0.001)
    assert r["throughput_workers"] == 3 and (r["workers"], r["ahead"], r["job_ahead"]) == (3, 3, 3)
    assert r["idle"] == 0.0 and r["simulated_idle"] == 0.0
    assert r["one_one_idle"] == pytest.approx(1 - 5 / 11, rel=0.02)


def test_shard_ring_is_the_tails_smallest_and_deepens_with_ranks():
    """A spread first byte (the read fit's lognormal): the ring is the fewest shards whose tail idle is within the
    target, one fewer is not, and the job's ranks in lockstep need at least as many."""
    fit = {"mu": math.log(0.05), "sigma": 1.0, "decode": 1.0, "mean_read": 0.05 * math.exp(0.5) + 1.0}
    for ranks in (1, 128):
        k = pf.shard_ring_by_tail(0.5, ranks, fit, 0.01)
        assert pf.tail_idle(k, 0.5, ranks, fit, 0.0, [])["idle"] <= 0.01
        assert k == 1 or pf.tail_idle(k - 1, 0.5, ranks, fit, 0.0, [])["idle"] > 0.01
    assert pf.shard_ring_by_tail(0.5, 128, fit, 0.01) > pf.shard_ring_by_tail(0.5, 1, fit, 0.01) >= 3


def test_shards_from_published_values(data):
    s, shards = data["summary"], {r["case"]: r for r in data["records"]["shards"]}
    # AWS: one request per 85-90 MB/s (low end taken); 100 MB shards (assumed)
    assert s["shard_transfer"] == pytest.approx(1e8 / 85e6)
    img = shards["image-text, smaller model"]
    # 1,584 images per shard, 16M tokens / 128 ranks / 256 tokens per image = 512 images a rank a step
    assert img["shard_steps"] == pytest.approx(1584 / 512)
    assert img["consume"] == pytest.approx(1584 / 512 * s["small_step"])
    assert img["throughput_workers"] == math.ceil(img["mean_read"] / img["consume"]) > 1
    assert img["workers"] == img["ahead"] >= img["throughput_workers"] and img["one_one_idle"] > 0.3
    assert img["job_ahead"] > img["ahead"], "128 ranks in lockstep wait on the slowest shard: a deeper ring"
    # the seeded sample agrees with the tail within 3 standard errors, and both are busy (no 2x allowance)
    assert img["simulated_idle"] <= data["params"]["busy_target"] and img["idle"] <= data["params"]["busy_target"]
    assert abs(img["simulated_idle"] - img["idle"]) <= Z * img["simulated_idle_se"]
    assert img["simulated_idle_se"] < 0.2 * img["idle"], "a sample large enough to hold many stalls"
    # the shard's p99 from the formula: the first byte's p99 (0.03 s × 10, the fitted tail) + 100 MB at 85 MB/s
    assert img["p99_read"] == pytest.approx(0.3 + 1e8 / 85e6, rel=1e-3)
    for k in ("token ids, this model", "token ids, smaller model", "image-text, this model"):
        assert (shards[k]["workers"], shards[k]["ahead"], shards[k]["job_ahead"]) == (1, 1, 1)
        assert shards[k]["consume"] > 10 * s["shard_transfer"]


# --- the job: data-parallel ranks in lockstep ------------------------------------------------------
def test_lockstep_with_one_rank_is_one_rank_and_more_ranks_only_delay():
    rng = np.random.default_rng(4)
    reads = pf.read_times(rng, 4 * 60 * 16, math.log(0.03), 0.99, 0.0).reshape(4, 60 * 16)
    one = pf.simulate_lockstep(3, 32, 16, 0.15, reads[:1])
    alone = pf.simulate(3, 32, 16, 0.15, reads[0])
    assert np.allclose(one["start"], alone["start"]) and np.allclose(one["wait"], alone["wait"])
    # a max-plus system: waiting for the slowest rank never lets any step start earlier than one rank alone would
    job = pf.simulate_lockstep(3, 32, 16, 0.15, reads)
    for r in range(4):
        assert np.all(job["start"] >= pf.simulate(3, 32, 16, 0.15, reads[r])["start"] - 1e-12)
    with pytest.raises(pf.BoundExceeded):
        pf.simulate_lockstep(1, 0, 16, 1.0, np.zeros((2, pf.MAX_SAMPLES // 2 + 16)))


def test_one_ranks_ring_leaves_the_lockstep_job_idle(data):
    s, lock = data["summary"], data["problems"]["lockstep"]
    target = data["params"]["busy_target"]
    assert lock["ranks"] == data["params"]["data_parallel"] == 128
    assert lock["reads_per_step"] == lock["ranks"] * s["sequences_per_rank"]
    # the ring one rank needs (the one-rank sweep) stalls the job; its doublings below the job's least ring, then it
    for case, rank_batches in (("plain", s["stress_batches"]), ("retried", s["retry_batches"])):
        rows = [r for r in lock["rows"] if r["case"] == case]
        assert [r["batches"] for r in rows[:-1]] == [rank_batches * 2**i for i in range(len(rows) - 1)]
        assert rows[-2]["batches"] < rows[-1]["batches"] < 2 * rows[-2]["batches"]
        rank, job = rows[0], rows[-1]
        assert rank["rank_busy"] and rank["batches"] == lock[f"{case}_rank_batches"]
        assert rank["idle"] > target and rank["rank_idle"] <= target and rank["stall_share"] > 0
        assert job["job_busy"] and job["idle"] <= target and job["batches"] == lock[f"{case}_job_batches"]
        assert all(r["idle"] > target for r in rows[:-1])
        assert job["batches"] > rank["batches"]
    assert s["job_retried_ring_bytes"] == s["job_retried_job_depth"] * s["sequence_bytes"]
    # the least whole rings of 2048·E[(X − kT)⁺]/(T + …) ≤ 0.1 % (the review's estimate: about 36 for the job)
    assert (s["job_plain_job_batches"], s["job_retried_job_batches"]) == (36, 161)
    assert (s["job_plain_rank_batches"], s["job_retried_rank_batches"]) == (12, 49)
    # every GET answered, by quadrature: 36 batches within the busy line, 35 not; one rank 12 and 11
    for n, k in ((2048, 36), (16, 12)):
        assert _idle_by_integration(k, s["small_step"], n, 0.03, s["sigma"], s["decode_time"]) <= target
        assert _idle_by_integration(k - 1, s["small_step"], n, 0.03, s["sigma"], s["decode_time"]) > target


def test_the_sdk_default_fails_the_reads_that_set_the_retried_ring(data):
    s = data["summary"]
    # reads refused 3+ times (p^3 of them) come back as errors with max_attempts = 3; they are the longest
    assert s["sample_refused_sdk_errors"] >= 1
    assert s["sample_longest_sdk"] < 0.5 * s["sample_longest_retried"]
    assert s["retry_batches"] * s["small_step"] > 2 * s["sample_longest_sdk"]


def test_backoff_swept(data):
    """The SDK's backoff (botocore's ExponentialBackoff: rand(0, 1)·min(2^i, 20) s) scaled: a longer backoff never
    needs a shallower ring, the SDK's own row is the page's, and a short enough one leaves the lognormal's ring."""
    s, rows = data["summary"], data["records"]["backoff_sweep"]
    assert (data["params"]["backoff_base"], data["params"]["backoff_cap"]) == (1.0, 20.0)
    sdk = next(r for r in rows if r["assumed"])
    assert (sdk["rank_batches"], sdk["job_batches"]) == (s["retry_batches"], s["job_retried_job_batches"])
    for key in ("rank_batches", "job_batches", "mean_read"):
        vals = [math.inf if r[key] is None else r[key] for r in rows]
        assert vals == sorted(vals), key
    # a quarter of the SDK's backoff comes within one batch of the ring the lognormal reads alone need
    assert s["stress_batches"] <= rows[0]["rank_batches"] <= s["stress_batches"] + 1 < sdk["rank_batches"]


def test_least_ring_is_the_least_whole_ring():
    """The search: doublings bracket, bisection narrows; a step function by hand."""
    for edge in (1, 2, 3, 36, 37, 64, 1000, 1024):
        assert pf.least_ring(lambda k, e=edge: 0.0 if k >= e else 1.0, 0.5, 1024) == edge
    assert pf.least_ring(lambda k: 1.0, 0.5, 1024) is None
    calls = []
    pf.least_ring(lambda k: calls.append(k) or (0.0 if k >= 577 else 1.0), 0.5, 1024)
    assert len(calls) <= 2 * 11  # about 2·log2(1024) evaluations, not a scan


def test_busy_line_swept(data):
    """The busy line sets every ring: a tenth and ten times the page's, each ring the least whole one there."""
    s, rows = data["summary"], data["records"]["busy_sweep"]
    assert [r["target"] for r in rows] == [0.0001, 0.001, 0.01]
    page = next(r for r in rows if r["assumed"])
    assert page["target"] == data["params"]["busy_target"]
    assert (page["plain_rank_batches"], page["plain_job_batches"]) == (s["stress_batches"], s["job_plain_job_batches"])
    assert (page["retried_rank_batches"], page["retried_job_batches"]) == (s["retry_batches"],
                                                                          s["job_retried_job_batches"])
    assert (page["shard_rank_ahead"], page["shard_job_ahead"]) == (s["shard_image_ahead"], s["shard_image_job_ahead"])
    for k in ("plain_rank_batches", "plain_job_batches", "retried_rank_batches", "retried_job_batches"):
        assert rows[0][k] > rows[1][k] > rows[2][k], k
    # every GET answered, the job, by quadrature at 1 % and 0.01 %: least whole rings
    for r in (rows[0], rows[2]):
        k = r["plain_job_batches"]
        assert _idle_by_integration(k, s["small_step"], 2048, 0.03, s["sigma"], s["decode_time"]) <= r["target"]
        assert _idle_by_integration(k - 1, s["small_step"], 2048, 0.03, s["sigma"], s["decode_time"]) > r["target"]


def test_panel_idle_is_the_simulation_where_the_tail_formula_overstates(data):
    """Where the tail's idle passes TAIL_VALID_IDLE the panel shows the simulation; the formula never exceeds what
    it replaces by less than the simulation (a union bound counts overlapping stalls twice), and the shown idle falls
    with depth. At the shallowest ring the job's simulated idle is well under the formula's (which reads near 1)."""
    sr = data["series"]
    batches = list(sr["batches"])
    tb = [float(x) for x in sr["tail_batches"]]
    for name in ("plain", "retried"):
        for who in ("rank", "job"):
            shown, sim = sr[f"{name}_{who}_shown"], sr[f"{name}_{who}_shown_simulated"]
            tail = [sr[f"{name}_tail_{who}"][tb.index(float(k))] for k in batches]
            assert all(a >= b for a, b in zip(shown, shown[1:]))
            for v, t, was_sim in zip(shown, tail, sim, strict=True):
                assert bool(was_sim) == (t > pf.TAIL_VALID_IDLE)
                if not was_sim:
                    assert v == pytest.approx(t)
                else:
                    assert v < t  # the union bound overstates where stalls overlap
    assert sr["retried_job_shown_simulated"][0] and sr["retried_job_shown"][0] < 0.95


def test_retried_p99_is_the_read_time_law_not_a_sample(data):
    """The retried read's quantile from the grid: p = 0 is the lognormal's closed form; at p > 0 it matches a large
    seeded sample's percentile (2 × 10⁵ reads: its p99 is within about 1 % of the law's); the sweep prints it."""
    fit = {"mu": math.log(0.03), "sigma": math.log(10) / special.ndtri(0.99), "decode": 0.0}
    assert pf.retried_quantile(0.99, fit, 0.0, 1.0, 20.0) == pytest.approx(0.3)
    rng = np.random.default_rng(5)
    for p in (0.01, 0.05, 0.2):
        x = pf.retried_read_times(rng, 200_000, fit["mu"], fit["sigma"], 0.0, p, 1.0, 20.0)
        assert pf.retried_quantile(0.99, fit, p, 1.0, 20.0) == pytest.approx(float(np.percentile(x, 99)), rel=0.03)
    # refusals only lengthen reads: the p99 grows with p, and at p = 1 % it is past the no-refusal p99
    q = [pf.retried_quantile(0.99, fit, p, 1.0, 20.0) for p in (0.0, 0.01, 0.02, 0.05)]
    assert q == sorted(q) and q[1] > 0.3 * 1.2
    s, params = data["summary"], data["params"]
    live = {"mu": math.log(params["latency_median"]), "sigma": s["sigma"], "decode": s["decode_time"]}
    for r in data["records"]["throttle_sweep"]:
        assert r["p99_read"] == pytest.approx(pf.retried_quantile(0.99, live, r["throttled"], params["backoff_base"],
                                                                  params["backoff_cap"]))
    assert data["records"]["throttle_sweep"][0]["p99_read"] == pytest.approx(s["p99_read"])


def test_boto3_legacy_mode_fails_fewer_gets_for_good(data):
    """Standard mode gives up after 3 attempts (p³ of GETs fail for good), Boto3's default legacy mode after 5
    (p⁵): at p = 5 % that is one GET in 8,000 against one in 3.2 million."""
    s = data["summary"]
    assert s["sdk_attempts"] == 3 and s["legacy_attempts"] == 5
    assert s["hard_error_share"] == pytest.approx(0.05**3) and 1 / s["hard_error_share"] == pytest.approx(8000)
    assert s["legacy_hard_error_share"] == pytest.approx(0.05**5)
    assert 1 / s["legacy_hard_error_share"] == pytest.approx(3.2e6)
    assert s["legacy_hard_errors_per_s"] == pytest.approx(0.05**5 * s["small_text_gets_per_s"])
    assert s["legacy_hard_errors_per_s"] == pytest.approx(s["hard_errors_per_s"] * 0.05**2)
