"""Stragglers: why one slow GPU slows down ten thousand, and how to find it.

A synchronous training step ends at a barrier (the gradient all-reduce):
every rank waits for the last one, so the step time is the maximum over
ranks of their time to the barrier,

    T_step = max_r t_r.

One slow rank. If every rank takes μ and one takes μ(1 + s), the step takes
μ(1 + s): a single GPU 5% slower makes the whole step 5% slower, whatever
the number of ranks (`barrier_step_time`).

Jitter. If the t_r are i.i.d. normal(μ, σ), E[T_step] = μ + σ·m_N with m_N
the expected maximum of N standard normals. It is computed exactly here by
quadrature, m_N = ∫₀^∞ (1 − Φ^N) dx − ∫_{−∞}^0 Φ^N dx (`expected_max_normal`),
and compared with the Gumbel (extreme-value) approximation
m_N ≈ b_N + γ/a_N, a_N = √(2 ln N), b_N = a_N − (ln ln N + ln 4π)/(2a_N)
(`gumbel_expected_max`), and with a seeded Monte Carlo that draws all N
normals per trial (`simulate_max_normal`). m_N grows like √(2 ln N): slowly,
but it multiplies σ, so 16,384 ranks pay about four standard deviations of
jitter on every step. The same quadrature with one rank shifted by s·μ gives
the expected step with a straggler on top of jitter.

Cost at scale. The scenario's step time is the training FLOPs of one batch,
6·P·tokens (Kaplan et al. 2020, §2.1), over the job's achieved throughput,
GPUs × FLOP/s per GPU (Llama 3, Table 4). A slowdown S of the step wastes a
share 1 − 1/S of every GPU-hour (`waste_share`, `gpu_hours_lost_per_day`).

Detection. The detector times each rank's compute kernels per step (CUDA
events around its compute, as a section timer such as NVIDIA's resiliency
extension can, its collectives excluded). Not its time up to the barrier:
with tensor parallelism the slow GPU's TP partners wait for it inside every
TP all-reduce, so up to the barrier its whole TP group is late together and
would be flagged together (`section_times` shows both on the flight
recorder's ranks). Compute kernels alone single out the one GPU. The detector keeps
a rolling mean over the last W steps per rank and scores it against the
other ranks:

    z_r = (m_r − median_r m) / (σ̂/√W),

σ̂ the median over ranks of their rolling standard deviations; it flags a
rank when z_r > h. For a straggler of slowdown s that began k ≤ W steps ago,
E[z] = (s/c)·k/√W with c = σ/μ, and z has unit variance; so it is flagged
with probability ≥ 99% after k₉₉ = ⌈(h + z₀.₉₉)·c·√W/s⌉ steps (the stated
delay, `detection_delay_steps`), if k₉₉ ≤ W. A healthy rank is flagged with
probability 1 − Φ(h) per evaluation; with N ranks checked every step that
is N·(1 − Φ(h)) false flags per step, which fixes the threshold for a given
false-alarm budget (`threshold_for_false_alarms`). The ROC (true- against
false-positive rate as h varies) comes from a seeded simulation and is
compared with the analytic one.

The flight recorder (`flight_recorder_run`, `late_entry_analysis`,
`hang_analysis`). A few ranks in TP groups, each step some TP all-reduces
and one gradient all-reduce; every rank logs each collective it enters
(group, sequence number, entry, end) and keeps its last records in a ring
buffer. A record runs from the rank's entry to the collective's end, so
the slow rank, entering last, has the shortest records; the analyzer finds
it as the last to enter (slow) or the one that never entered (hung).

Assumptions, all stated on the page: ranks are independent and identically
distributed apart from the straggler (with TP = 8 the barrier may see N/8
TP groups rather than N GPUs: `tp_group_units` gives m at N/8 for the page); the step is one global barrier (the
pipeline and tensor-parallel structure is not modelled); the jitter's size
c = σ/μ is an assumption (no primary source measures per-rank, per-step
jitter on this run), so the page sweeps it; normal jitter (light-tailed: a
heavy-tailed one grows the maximum faster).

The public functions are for other scenes (the case study calls the cost of
a slow rank at scale); the scene's entry point is `straggler_barrier`.
Every loop is bounded: quadrature on a fixed grid, Monte Carlo in fixed-size
batches over a declared number of trials.
"""

from __future__ import annotations

import math

import numpy as np
from scipy.special import log_ndtr, ndtr, ndtri
from scipy.stats import chi2

from models import scenario_facts
from models.constants import CONSTANTS
from models.exhibit import Column, Exhibit, Param, ParamError, Table, check, curves, model
from models.lib.memo import pure
from models.lib.seeded_memo import seeded
from models.lib.sweeps import including
from models.training import attention_flops_per_token, step_flops, step_time
from models.units import DAY, HOUR

EULER_GAMMA = 0.5772156649015329
CONFIDENCE = 0.99  # the stated delay: steps by which the straggler is flagged with this probability
Z_99 = float(ndtri(CONFIDENCE))  # one-sided 99% quantile of the standard normal
Z_CHECK = 3.0  # Monte Carlo agrees with the quadrature when |mean − exact| ≤ Z_CHECK·SE
QUAD_POINTS = 40_001  # grid points of the quadrature (fixed: no adaptive loop)
MC_BATCH_ELEMENTS = 4_000_000  # normals drawn per batch (bounds memory, not the trials)
MAX_MC_DRAWS = 200_000_000  # normals one Monte Carlo may draw in total
ROC_BIAS = 0.03  # simulated ROC vs analytic: allowance for estimating σ and the median from the ranks


# --- the step as a barrier ---------------------------------------------------


def barrier_step_time(times) -> float:
    """Step time of a synchronous step: the last rank to reach the barrier."""
    return float(np.max(np.asarray(times, dtype=float)))


# --- the expected maximum ------------------------------------------------------


@pure  # the page asks for the same N and curve several times, and the range test at settings that leave them be
def expected_max_normal(n, shift: float = 0.0) -> np.ndarray | float:
    """E[max] of n i.i.d. standard normals, one of them shifted by `shift` (in σ), by quadrature.

    E[M] = ∫₀^∞ (1 − G) dx − ∫_{−∞}^0 G dx with G(x) = Φ(x)^{n−1}·Φ(x − shift),
    on a fixed grid wide enough that the tails beyond it are below 1e-12
    (G is computed in logs, so n in the millions does not underflow).
    """
    ns = np.atleast_1d(np.asarray(n, dtype=float))
    if np.any(ns < 1):
        raise ValueError("n must be at least 1")
    lo = -9.0
    hi = 9.0 + max(0.0, float(shift)) + math.sqrt(2.0 * math.log(max(float(ns.max()), 2.0)))
    xn = np.linspace(lo, 0.0, QUAD_POINTS // 4)
    xp = np.linspace(0.0, hi, QUAD_POINTS)
    # log Φ on the grid does not depend on n: computed once, not once per n
    log_n, log_n_shifted = log_ndtr(xn), log_ndtr(xn - shift)
    log_p, log_p_shifted = log_ndtr(xp), log_ndtr(xp - shift)
    out = np.empty(ns.shape)
    for i, k in enumerate(ns):
        gn = np.exp((k - 1.0) * log_n + log_n_shifted)
        gp = np.exp((k - 1.0) * log_p + log_p_shifted)
        out[i] = np.trapezoid(1.0 - gp, xp) - np.trapezoid(gn, xn)
    return float(out[0]) if np.ndim(n) == 0 else out


def gumbel_expected_max(n) -> np.ndarray | float:
    """Extreme-value approximation m_N ≈ b_N + γ/a_N for the maximum of N standard normals."""
    ns = np.asarray(n, dtype=float)
    a = np.sqrt(2.0 * np.log(ns))
    b = a - (np.log(np.log(ns)) + math.log(4.0 * math.pi)) / (2.0 * a)
    out = b + EULER_GAMMA / a
    return float(out) if out.ndim == 0 else out


def leading_order_max(n) -> np.ndarray | float:
    """The growth rate of the normal maximum, √(2 ln N) (an upper envelope, slow to converge)."""
    out = np.sqrt(2.0 * np.log(np.asarray(n, dtype=float)))
    return float(out) if out.ndim == 0 else out


def simulate_max_normal(n: int, trials: int, rng: np.random.Generator) -> np.ndarray:
    """Seeded Monte Carlo: the maximum of n standard normals, drawn in full, per trial (see _max_normal_draws)."""
    return _max_normal_draws(rng, int(n), int(trials))


@seeded  # memoised by the generator's state: the range test reaches these draws with the same state at most settings
def _max_normal_draws(rng: np.random.Generator, n: int, trials: int) -> np.ndarray:
    """Seeded Monte Carlo: the maximum of n standard normals, drawn in full, per trial.

    Drawn in batches of at most MC_BATCH_ELEMENTS normals; refuses more than
    MAX_MC_DRAWS in total.
    """
    n, trials = int(n), int(trials)
    if n * trials > MAX_MC_DRAWS:
        raise ValueError(f"simulate_max_normal: {n:,} × {trials:,} draws exceed the budget of {MAX_MC_DRAWS:,}")
    per = max(1, MC_BATCH_ELEMENTS // n)
    out = np.empty(trials)
    for start in range(0, trials, per):
        m = min(per, trials - start)
        out[start:start + m] = rng.standard_normal((m, n)).max(axis=1)
    return out


def expected_step_time(mu: float, cv: float, ranks, slowdown: float = 0.0):
    """E[T_step] (s) for `ranks` ranks with normal jitter σ = cv·μ, one rank slower by `slowdown`.

    With cv = 0 this is the barrier identity: μ·(1 + slowdown).
    """
    if cv == 0:
        out = np.full(np.shape(ranks), mu * (1.0 + slowdown), dtype=float)
        return float(out) if out.ndim == 0 else out
    shift = slowdown / cv
    return mu + cv * mu * np.asarray(expected_max_normal(ranks, shift))


# --- the cost at scale -------------------------------------------------------


def waste_share(slowdown_factor):
    """Share of every GPU-hour lost when the step takes S times its ideal time: 1 − 1/S."""
    return 1.0 - 1.0 / np.asarray(slowdown_factor, dtype=float)


def gpu_hours_lost_per_day(gpus: float, slowdown_factor) -> np.ndarray | float:
    """GPU-hours a job of `gpus` GPUs loses per day when its step is S times its ideal time."""
    out = gpus * (DAY / HOUR) * waste_share(slowdown_factor)
    return float(out) if np.ndim(out) == 0 else out


def slow_rank_cost(gpus: float, mu: float, cv: float, slowdown: float) -> dict:
    """The cost of one slow rank at scale, for other scenes (the case study).

    Returns the expected step with jitter alone and with the slow rank (s),
    the slowdown factors against the jitter-free step μ, the share and
    GPU-hours per day lost to the slow rank alone (on top of jitter).
    """
    base = float(expected_step_time(mu, cv, gpus))
    slow = float(expected_step_time(mu, cv, gpus, slowdown))
    return {
        "step_jitter": base, "step_slow": slow,
        "factor_jitter": base / mu, "factor_slow": slow / mu,
        "marginal_share": 1.0 - base / slow,
        "marginal_gpu_hours_per_day": gpus * (DAY / HOUR) * (1.0 - base / slow),
    }


# --- the detector ------------------------------------------------------------


def threshold_for_false_alarms(false_flags_per_step: float, ranks: float) -> float:
    """z-threshold h at which N healthy ranks, checked every step, give the stated false flags per step.

    Per-rank, per-check false-positive rate 1 − Φ(h) = budget/N (a union bound:
    consecutive flags of one rank cluster, so alarms are at most this many).
    """
    p = false_flags_per_step / ranks
    if not 0 < p < 0.5:
        raise ValueError("false-alarm budget must give a per-rank rate in (0, 0.5)")
    return float(-ndtri(p))


def detection_delay_steps(slowdown: float, cv: float, window: int, threshold: float,
                          confidence: float = CONFIDENCE) -> int | None:
    """Steps after onset by which a straggler is flagged with probability ≥ `confidence`.

    E[z] after k ≤ W slow steps is (s/c)·k/√W, unit variance: k = ⌈(h + z_conf)·c·√W/s⌉.
    None when even a full window (k = W) does not reach it: the window is too short.
    """
    zc = float(ndtri(confidence))
    k = math.ceil((threshold + zc) * cv * math.sqrt(window) / slowdown - 1e-12)
    k = max(k, 1)
    return k if k <= window else None


def median_detection_steps(slowdown: float, cv: float, window: int, threshold: float) -> int | None:
    """Steps after onset at which the straggler's expected z reaches h (flagged half the time)."""
    return detection_delay_steps(slowdown, cv, window, threshold, confidence=0.5)


def smallest_detectable_slowdown(cv: float, window, threshold: float, confidence: float = CONFIDENCE):
    """The least slowdown a full window of W steps flags with the stated confidence: (h + z)·c/√W."""
    return (threshold + float(ndtri(confidence))) * cv / np.sqrt(np.asarray(window, dtype=float))


def rolling_z_scores(times: np.ndarray, window: int) -> np.ndarray:
    """Flight-recorder-style z-scores from per-rank step times.

    times: (..., ranks, steps) seconds to the barrier per rank per step. For
    each step t ≥ W−1: per-rank mean and std over the last W steps, then
    z = (mean − median over ranks of the means) / (median over ranks of the stds / √W).
    Returns (..., ranks, steps − W + 1).
    """
    t = np.asarray(times, dtype=float)
    c1 = np.cumsum(np.concatenate([np.zeros(t.shape[:-1] + (1,)), t], axis=-1), axis=-1)
    c2 = np.cumsum(np.concatenate([np.zeros(t.shape[:-1] + (1,)), t * t], axis=-1), axis=-1)
    s1 = c1[..., window:] - c1[..., :-window]
    s2 = c2[..., window:] - c2[..., :-window]
    mean = s1 / window
    var = np.maximum(s2 / window - mean**2, 0.0) * window / (window - 1)
    sigma = np.median(np.sqrt(var), axis=-2, keepdims=True)
    # the median of W-sample stds is σ times the median of χ_{W−1}/√(W−1): divide it out
    sigma = sigma / (math.sqrt(chi2.ppf(0.5, window - 1)) / math.sqrt(window - 1))
    return (mean - np.median(mean, axis=-2, keepdims=True)) / (sigma / math.sqrt(window))


def simulate_detector(ranks: int, window: int, slowdown: float, cv: float, after: int, trials: int,
                      rng: np.random.Generator) -> dict:
    """Seeded simulation of the detector: rank 0 turns slow after 2W healthy steps.

    Each trial runs 2W + after steps with μ = 1 and σ = cv; rank 0 is slower by
    `slowdown` from step 2W on. Returns the straggler's z at each of the
    `after` evaluations after onset (trials × after: column k − 1 is the check
    k steps after onset) and the healthy ranks' z at the same evaluations
    (flattened). When it is first flagged is left to the caller.
    """
    if ranks * (2 * window + after) * trials > MAX_MC_DRAWS:
        raise ValueError("simulate_detector: more draws than the Monte Carlo budget")
    steps = 2 * window + after
    onset = 2 * window
    straggler = np.empty((trials, after))
    healthy = []
    per = max(1, MC_BATCH_ELEMENTS // (ranks * steps))
    for start in range(0, trials, per):
        m = min(per, trials - start)
        t = 1.0 + cv * rng.standard_normal((m, ranks, steps))
        t[:, 0, onset:] += slowdown
        z = rolling_z_scores(t, window)  # evaluation j ends at step j + W − 1
        first = onset - window + 1  # the first window that holds one slow step
        straggler[start:start + m] = z[:, 0, first:first + after]
        healthy.append(z[:, 1:, first:first + after].ravel())
    return {"straggler": straggler, "healthy": np.concatenate(healthy)}


def analytic_roc(thresholds, slowdown: float, cv: float, window: int, steps_after: int):
    """(FPR, TPR) at each threshold for the evaluation `steps_after` steps after onset."""
    h = np.asarray(thresholds, dtype=float)
    k = min(steps_after, window)
    shift = slowdown / cv * k / math.sqrt(window)
    return 1.0 - ndtr(h), 1.0 - ndtr(h - shift)


# --- the flight recorder: per-rank ring buffers of collective records ------------------
# Record fields, one row per collective a rank entered (PyTorch's flight recorder keeps these per rank
# in a ring buffer of TORCH_NCCL_TRACE_BUFFER_SIZE entries; with TORCH_NCCL_ENABLE_TIMING it also times them)
FR_TP, FR_DP = 0, 1  # process group of a record: the rank's tensor-parallel group, or the global gradient group
FR_FIELDS = ("step", "group", "seq", "enter", "exit")  # exit = NaN: entered, never completed (a hang)


def _tp_groups(ranks: int, tp: int) -> np.ndarray:
    """Tensor-parallel group of each rank: consecutive blocks of `tp` ranks (as on one node's NVLink)."""
    if ranks % tp:
        raise ValueError("ranks must be a whole number of tensor-parallel groups")
    return np.arange(ranks) // tp


def flight_recorder_run(ranks: int, tp: int, segments: int, steps: int, mu: float, cv: float,
                        slowdown: float, slow_rank: int, collective_share: float,
                        rng: np.random.Generator, hang_at_end: bool = False) -> np.ndarray:
    """Every rank's collective records over `steps` steps, shape (ranks, records, 5) with FR_FIELDS.

    A step is `segments` compute segments, each ended by an all-reduce inside the rank's TP group,
    then the gradient all-reduce across all ranks. A collective starts when the last member enters and
    lasts its own transfer time (collective_share·μ, split over the TP segments); each member's record
    runs from its own entry to that end, so it holds its wait as well. The slow rank's compute is
    (1 + slowdown) longer; per-rank jitter σ = cv·μ per step, spread over the segments. With
    hang_at_end the slow rank stops in its last compute segment: its peers' records stay open.
    """
    group = _tp_groups(ranks, tp)
    seg_mu = mu / segments
    seg_sigma = cv * mu / math.sqrt(segments)
    tp_time = collective_share * mu / segments
    dp_time = collective_share * mu
    speed = np.ones(ranks)
    speed[slow_rank] = 1.0 + slowdown
    per_step = segments + 1
    rec = np.full((ranks, steps * per_step, len(FR_FIELDS)), np.nan)
    clock = np.zeros(ranks)
    for k in range(steps):
        last = hang_at_end and k == steps - 1
        for j in range(segments):
            enter = clock + speed * seg_mu + seg_sigma * rng.standard_normal(ranks)
            if last and j == segments - 1:
                enter[slow_rank] = np.nan  # stuck in a kernel: it never enters this collective
            # a collective missing a member never ends (NaN), and its members never enter the next one
            end = np.array([np.max(enter[group == g]) for g in group]) + tp_time
            i = k * per_step + j
            rec[:, i, 0], rec[:, i, 1], rec[:, i, 2] = k, FR_TP, k * segments + j
            rec[:, i, 3], rec[:, i, 4] = enter, end
            clock = end
        enter = clock
        end = np.max(enter) + dp_time
        i = k * per_step + segments
        rec[:, i, 0], rec[:, i, 1], rec[:, i, 2] = k, FR_DP, k
        rec[:, i, 3], rec[:, i, 4] = enter, end
        clock = np.full(ranks, end)
    return rec


def ring_buffer(records: np.ndarray, size: int) -> np.ndarray:
    """What each rank's ring buffer holds when it is dumped: its last `size` records."""
    return records[:, -size:]


def collective_durations(dump: np.ndarray, group_kind: int) -> np.ndarray:
    """Each rank's mean recorded duration (exit − enter) of the completed collectives of one kind:
    what a naive reading of NCCL timings sees."""
    kind = dump[:, :, 1] == group_kind
    dur = np.where(kind, dump[:, :, 4] - dump[:, :, 3], np.nan)
    return np.nanmean(dur, axis=1)


def late_entry_analysis(dump: np.ndarray, tp: int) -> dict:
    """The analyzer's two questions on a slow (not hung) job, answered from the dumps alone.

    1. Gradient all-reduces: which TP group enters last (its members' mean entry lag behind the
       first rank)? 2. Inside that group's TP all-reduces: which member enters last? That is the slow GPU.
    """
    ranks = dump.shape[0]
    group = _tp_groups(ranks, tp)
    # every rank's buffer holds the same collectives in the same order: pick columns by kind
    enter_dp = dump[:, dump[0, :, 1] == FR_DP, 3]
    lag_dp = np.mean(enter_dp - enter_dp.min(axis=0), axis=1)
    late_group = int(np.argmax([lag_dp[group == g].mean() for g in range(ranks // tp)]))
    members = np.flatnonzero(group == late_group)
    enter_tp = dump[np.ix_(members, dump[0, :, 1] == FR_TP)][:, :, 3]
    lag_tp = np.mean(enter_tp - enter_tp.min(axis=0), axis=1)
    return {"lag_dp": lag_dp, "late_group": late_group, "members": members, "lag_tp": lag_tp,
            "suspect": int(members[np.argmax(lag_tp)])}


def hang_analysis(dump: np.ndarray, tp: int) -> dict:
    """The analyzer on a hung job: per process group, the last collective each rank entered; the rank
    that never entered a collective its group's others entered is the suspect (the 'wavefront')."""
    ranks = dump.shape[0]
    group = _tp_groups(ranks, tp)
    entered = ~np.isnan(dump[:, :, 3])
    open_ = entered & np.isnan(dump[:, :, 4])
    last_tp = np.array([np.max(np.where(entered[r] & (dump[r, :, 1] == FR_TP), dump[r, :, 2], -1))
                        for r in range(ranks)])
    last_dp = np.array([np.max(np.where(entered[r] & (dump[r, :, 1] == FR_DP), dump[r, :, 2], -1))
                        for r in range(ranks)])
    behind = [r for r in range(ranks) if last_tp[r] < np.max(last_tp[group == group[r]])]
    return {"last_tp": last_tp, "last_dp": last_dp, "open": open_.any(axis=1),
            "waiting_in_dp": int(np.sum(last_dp == last_dp.max())),
            "waiting_in_tp": int(np.sum(open_.any(axis=1) & (last_dp < last_dp.max()))),
            "never_entered": behind}


def section_times(dump: np.ndarray) -> dict:
    """Per rank, its mean time per step two ways, over the whole steps in its dump: compute kernels only
    (each record's entry minus the previous record's end, summed over the step) and time to the barrier
    (entry into the gradient all-reduce minus the previous one's end, TP all-reduce waits included)."""
    dp = np.flatnonzero(dump[0, :, 1] == FR_DP)
    compute, barrier = [], []
    for a, b in zip(dp, dp[1:], strict=False):
        compute.append(np.sum(dump[:, a + 1:b + 1, 3] - dump[:, a:b, 4], axis=1))
        barrier.append(dump[:, b, 3] - dump[:, a, 4])
    return {"compute": np.mean(compute, axis=0), "barrier": np.mean(barrier, axis=0)}


def flight_recorder_study(mu: float, c: float, s: float, ranks: int, tp: int, segments: int, steps: int,
                          ring: int, collective_share: float, slow_rank: int, rng: np.random.Generator) -> dict:
    """A slow run and a hung run of a few ranks, dumped from their ring buffers and analysed; with the
    claims that the analyzer names the injected rank and that naive timings point away from it."""
    slow = ring_buffer(flight_recorder_run(ranks, tp, segments, steps, mu, c, s, slow_rank, collective_share,
                                           rng), ring)
    dur_dp = collective_durations(slow, FR_DP)
    dur_tp = collective_durations(slow, FR_TP)
    late = late_entry_analysis(slow, tp)
    check(late["suspect"] == slow_rank, "the late-entry analysis of the dumps names the slow GPU")
    check(int(np.argmin(dur_dp)) in late["members"] and int(np.argmin(dur_tp)) == slow_rank,
          "the slow GPU's group has the shortest gradient all-reduces, the slow GPU the shortest TP ones")
    others = np.flatnonzero(_tp_groups(ranks, tp) != late["late_group"])
    check(np.all(dur_dp[others] > 2 * dur_dp[late["members"]].max()),
          "every rank outside the slow GPU's group records a gradient all-reduce at least twice as long")
    # the detector's scope: timed to the barrier the slow GPU's TP group is late together; timed by its
    # compute kernels the slow GPU stands alone (its partners compute at the healthy pace)
    sec = section_times(slow)
    members = late["members"]
    check(np.ptp(sec["barrier"][members]) < 1e-9 * mu and np.all(sec["barrier"][others] < sec["barrier"][slow_rank]),
          "timed up to the barrier, the slow GPU's whole TP group is late together")
    check(np.all(np.delete(sec["compute"], slow_rank) < sec["compute"][slow_rank]),
          "timed by compute kernels alone, only the slow GPU is slow")
    hung = flight_recorder_run(ranks, tp, segments, steps, mu, c, s, slow_rank, collective_share, rng,
                               hang_at_end=True)
    hang = hang_analysis(ring_buffer(hung, ring), tp)
    check(hang["never_entered"] == [slow_rank], "the hang analysis names the rank that never entered")
    return {"slow_rank": slow_rank, "dump": slow, "dur_dp": dur_dp, "dur_tp": dur_tp, "late": late,
            "hang": hang, "hung_dump": ring_buffer(hung, ring), "sections": sec}


# --- the scene's data: its steps -----------------------------------------------


def check_sample_params(N: int, mc_ranks: list, mc_trials: int, window: int, roc_steps_after: list) -> None:
    """ParamError for rank counts the Monte Carlo cannot test (at most the job's N) and ROC steps the
    window cannot see."""
    for v in mc_ranks:
        if not float(v).is_integer() or v > N:
            raise ParamError("mc_ranks", v, f"whole numbers of ranks, at most the job's {N:,} GPUs")
        if v * mc_trials > MAX_MC_DRAWS:
            raise ParamError("mc_trials", mc_trials, f"at most {MAX_MC_DRAWS // int(v):,} at {int(v):,} ranks")
    for v in roc_steps_after:
        if not float(v).is_integer() or v > window:
            raise ParamError("roc_steps_after", v, f"whole numbers of steps, at most the window W = {window}")


def barrier_identity(mu: float, N: int, s: float, reported_affected_slowdown: float) -> float:
    """The step of N ranks with one slower by s, over the ideal step: 1 + s, checked."""
    ideal = np.full(N, mu)
    one_slow = ideal.copy()
    one_slow[N // 2] = mu * (1.0 + s)
    identity_factor = barrier_step_time(one_slow) / barrier_step_time(ideal)
    check(abs(identity_factor - (1.0 + s)) < 1e-12,
          "one GPU slower by s makes the whole step slower by s, whatever the number of GPUs")
    check(identity_factor < reported_affected_slowdown or s >= reported_affected_slowdown - 1.0,
          "a single GPU this much slower stays below the study's threshold for an affected job")
    return identity_factor


def expected_max_study(N: int, mc_ranks: list, mc_trials: int, rng: np.random.Generator) -> dict:
    """The expected maximum of N standard normals three ways (quadrature, Gumbel, leading order) over a
    curve of N, and a seeded Monte Carlo at the rank counts tested; with the claims on them."""
    n_curve = including(np.unique(np.round(np.logspace(math.log10(2), math.log10(max(N, 4) * 4), 60))), N)
    out = {"n_curve": n_curve, "m_exact": np.asarray(expected_max_normal(n_curve)),
           "m_gumbel": np.asarray(gumbel_expected_max(n_curve)), "m_lead": np.asarray(leading_order_max(n_curve))}
    mc_n = np.array(sorted({int(v) for v in mc_ranks}), dtype=float)
    mc_mean, mc_se = [], []
    for n in mc_n:
        draws = simulate_max_normal(int(n), mc_trials, rng)
        mc_mean.append(draws.mean())
        mc_se.append(draws.std(ddof=1) / math.sqrt(mc_trials))
    mc_mean, mc_se = np.array(mc_mean), np.array(mc_se)
    mc_exact = np.asarray(expected_max_normal(mc_n))
    mc_z = (mc_mean - mc_exact) / mc_se
    out.update(mc_n=mc_n, mc_mean=mc_mean, mc_se=mc_se, mc_exact=mc_exact,
               mc_gumbel=np.asarray(gumbel_expected_max(mc_n)), mc_z=mc_z)
    check(np.all(np.abs(mc_z) <= Z_CHECK),
          "a seeded Monte Carlo agrees with the quadrature at every rank count tested")
    m_N = out["m_N"] = float(expected_max_normal(N))
    out["gumbel_N"] = float(gumbel_expected_max(N))
    out["lead_N"] = float(leading_order_max(N))
    check(m_N < out["gumbel_N"] < out["lead_N"], "the Gumbel approximation overestimates, and √(2 ln N) more so")
    m_2N = out["m_2N"] = float(expected_max_normal(2 * N))
    check(m_2N - m_N < 0.1 * m_N, "doubling the ranks adds little: the maximum grows like √(2 ln N)")
    return out


def cost_at_scale(mu: float, c: float, s: float, N: int, m_N: float, jitter_sweep: list,
                  reported_waste_median: float) -> dict:
    """What jitter and one slow rank waste, at the assumed jitter and over the sweep; with the claims
    against the study's median waste."""
    step_jitter = mu * (1.0 + c * m_N)
    waste_jitter = float(waste_share(step_jitter / mu))
    slow = slow_rank_cost(N, mu, c, s)
    sweep = np.array(sorted(set(float(v) for v in jitter_sweep) | {c}))
    sweep_factor = 1.0 + sweep * m_N
    sweep_waste = waste_share(sweep_factor)
    sweep_slow_factor = np.array([float(expected_step_time(mu, cv, N, s)) / mu for cv in sweep])
    # what the slow GPU adds on top of each jitter: the headline's cost, which c drives
    sweep_slow_added = N * (DAY / HOUR) * (1.0 - sweep_factor / sweep_slow_factor)
    check(np.all(np.diff(sweep_slow_added) < 0),
          "the more jitter, the less the slow GPU adds: the jitter was already paid")
    check(waste_jitter < reported_waste_median,
          "at the assumed jitter, i.i.d. jitter alone explains less than the study's median waste")
    check(slow["factor_slow"] >= 1.0 + s and slow["factor_slow"] > slow["factor_jitter"],
          "with jitter, the step with the slow GPU is at least s slower than the ideal one")
    check(slow["marginal_share"] < waste_share(1.0 + s),
          "on top of jitter, the slow GPU costs less than s alone would: the jitter was already paid")
    # the page's convention: each cause's cost against the step without it (jitter's against μ, the slow GPU's
    # against the jittery step), so the two shares compound and together lose 1 − 1/S_s, less than their sum
    check(abs((1.0 - waste_jitter) * (1.0 - slow["marginal_share"]) - 1.0 / slow["factor_slow"]) < 1e-12,
          "jitter's share and the slow GPU's compound to the share lost with both")
    return {"step_jitter": step_jitter, "waste_jitter": waste_jitter, "slow": slow, "sweep": sweep,
            "sweep_factor": sweep_factor, "sweep_waste": sweep_waste, "sweep_slow_factor": sweep_slow_factor,
            "sweep_slow_added": sweep_slow_added}


def at_each_rank_count(n: np.ndarray, mu: float, c: float, s: float, window: int, false_alarms_per_day: float,
                       steps_per_day: float) -> dict:
    """The page's cost and detection numbers at each rank count of the m_N curve (the Explore probe), at
    the same step time μ: jitter's share of the step, what the slow GPU adds on top of it in GPU-hours a
    day at n GPUs, and the steps until flagged at the threshold that allows the day's false alarms at n."""
    n = np.asarray(n, dtype=float)
    jitter = np.asarray(expected_step_time(mu, c, n)) / mu
    slow = np.asarray(expected_step_time(mu, c, n, s)) / mu
    delay = []
    for k in n:
        h_n = threshold_for_false_alarms(false_alarms_per_day / steps_per_day, float(k))
        delay.append(detection_delay_steps(s, c, window, h_n) or -1)  # -1: not within the window
    delay = np.array(delay, dtype=float)
    return {"n_jitter_step": jitter - 1.0, "n_slow_added": n * (DAY / HOUR) * (1.0 - jitter / slow),
            "n_delay99": delay, "n_delay99_seconds": np.where(delay > 0, delay * mu, 0.0)}


def detector_study(mu: float, N: int, s: float, c: float, window: int, false_alarms_per_day: float,
                   roc_steps_after: list, detector_ranks: int, detector_trials: int,
                   rng: np.random.Generator) -> dict:
    """The detector's threshold for the day's false alarms, its delays, and a seeded simulation that
    must flag the straggler within them."""
    steps_per_day = DAY / mu
    h = threshold_for_false_alarms(false_alarms_per_day / steps_per_day, N)
    k99 = detection_delay_steps(s, c, window, h)
    k50 = median_detection_steps(s, c, window, h)
    # None: too subtle for this window (a straggler slower by less than s_min_W is never flagged before
    # its own steps fill the window and become the baseline). A real answer, returned as detected=False.
    detected = k99 is not None
    check(detected, "the detector flags the straggler before its window is full")
    after = int(max(max(int(v) for v in roc_steps_after), k99 if detected else window))
    sim = simulate_detector(detector_ranks, window, s, c, after, detector_trials, rng)
    zs, zh = sim["straggler"], sim["healthy"]
    flagged = zs > h
    first = np.where(flagged.any(axis=1), flagged.argmax(axis=1) + 1, after + 1)
    share_by_k99 = float(np.mean(first <= (k99 if detected else after)))
    se_share = math.sqrt(CONFIDENCE * (1 - CONFIDENCE) / detector_trials)
    check(not detected or share_by_k99 >= CONFIDENCE - Z_CHECK * se_share,
          "the simulated detector flags the straggler within the stated delay")
    median_first = float(np.median(first))
    check(k50 is None or abs(median_first - k50) <= 1, "half the stragglers are flagged by the median delay")
    fpr_sim_h = float(np.mean(zh > h))
    check(fpr_sim_h <= 1e-4, "at the day's threshold the simulation sees (almost) no false flags")
    return {"steps_per_day": steps_per_day, "h": h, "k99": k99, "k50": k50, "detected": detected,
            "zs": zs, "zh": zh, "share_by_k99": share_by_k99, "median_first": median_first}


def roc_study(zs: np.ndarray, zh: np.ndarray, s: float, c: float, window: int, roc_steps_after: list,
              detector_trials: int, h: float) -> dict:
    """The ROC from the simulation at each step count after onset, against the analytic curve, and the
    operating point at the day's threshold h; with the claims that they agree and that waiting longer
    buys a better curve."""
    # down to false-positive rates below the day's threshold's (the figure's axis is logarithmic)
    thr = np.linspace(-1.0, max(6.0, math.ceil(h + 0.5)), 71)
    # the healthy ranks' share above each threshold, counted on the sorted scores (the same counts as
    # mean(zh > thr), without a healthy-scores × thresholds array)
    zh_sorted = np.sort(zh)
    fpr_sim = (zh.size - np.searchsorted(zh_sorted, thr, side="right")) / zh.size
    roc = {}
    for k in sorted({int(v) for v in roc_steps_after}):
        tpr_sim = (zs[:, k - 1][:, None] > thr).mean(axis=0)
        fpr_an, tpr_an = analytic_roc(thr, s, c, window, k)
        roc[k] = {"tpr_sim": tpr_sim, "fpr_sim": fpr_sim, "fpr": fpr_an, "tpr": tpr_an}
    fpr_gap = max(float(np.max(np.abs(r["fpr_sim"] - r["fpr"]))) for r in roc.values())
    tpr_gap = max(float(np.max(np.abs(r["tpr_sim"] - r["tpr"]))) for r in roc.values())
    # binomial noise of the simulated rates (3 SE at p = ½), plus room for the estimated σ and median
    tpr_tol = Z_CHECK * math.sqrt(0.25 / detector_trials) + ROC_BIAS
    fpr_tol = Z_CHECK * math.sqrt(0.25 / zh.size) + ROC_BIAS
    check(fpr_gap < fpr_tol and tpr_gap < tpr_tol, "the simulated ROC follows the analytic one")
    ks = sorted(roc)
    check(all(np.trapezoid(roc[b]["tpr"][::-1], roc[b]["fpr"][::-1]) >
              np.trapezoid(roc[a]["tpr"][::-1], roc[a]["fpr"][::-1]) for a, b in zip(ks, ks[1:], strict=False)),
          "waiting more steps after onset buys a better ROC")
    at_h = []
    for k in ks:
        fpr_h, tpr_h = analytic_roc(np.array([h]), s, c, window, k)
        at_h.append({"k": k, "fpr": float(fpr_h[0]), "tpr": float(tpr_h[0])})
    return {"thr": thr, "roc": roc, "ks": ks, "at_h": at_h}


def delay_vs_window(s: float, c: float, h: float, window: int) -> dict:
    """Delay against the window, at the day's threshold, and the smallest slowdown each window can flag."""
    w_curve = np.unique(np.round(np.logspace(0.31, 3, 80))).astype(int)
    w_curve = w_curve[w_curve >= 2]
    delay99 = np.array([detection_delay_steps(s, c, int(w), h) or np.nan for w in w_curve], dtype=float)
    delay50 = np.array([median_detection_steps(s, c, int(w), h) or np.nan for w in w_curve], dtype=float)
    s_min = smallest_detectable_slowdown(c, w_curve, h)
    s_min_W = float(smallest_detectable_slowdown(c, window, h))
    check(s_min_W < s, "the straggler is above the smallest slowdown the window can flag")
    return {"w_curve": w_curve, "delay99": delay99, "delay50": delay50, "s_min": s_min, "s_min_W": s_min_W}


def production_defaults(mu: float, s: float, c: float, window: int, h: float, nemo_relative_threshold: float,
                        nemo_report_interval: float, watchdog_timeout: float) -> dict:
    """The real tools' defaults against the page's straggler, and what a lasting speed spread between
    healthy GPUs does to the modelled detector.

    NeMo's callback scores a rank as the best rank's section time over its own and flags a score below
    the threshold: jitter aside, only a rank slower by more than 1/threshold − 1. The NCCL watchdog
    aborts a collective that waits longer than its timeout: a straggler makes the others wait s·μ per
    all-reduce. A healthy GPU persistently slower than the median by δ has E[z] = δ·√W/c, so the
    cross-rank score flags it half the time once δ ≥ h·c/√W; scoring each rank's change against its
    own earlier window removes that offset at √2 more noise (the delay formula with c·√2).
    """
    return {
        "nemo_relative_threshold": nemo_relative_threshold,
        "nemo_min_slowdown": 1.0 / nemo_relative_threshold - 1.0,
        "nemo_flags_straggler": bool(s > 1.0 / nemo_relative_threshold - 1.0),
        "nemo_report_interval": nemo_report_interval,
        "nemo_report_steps": nemo_report_interval / mu,
        "watchdog_timeout": watchdog_timeout,
        "straggler_lag": s * mu,
        "watchdog_over_lag": watchdog_timeout / (s * mu),
        "spread_flag_limit": float(smallest_detectable_slowdown(c, window, h, confidence=0.5)),
        "baseline_delay99_steps": detection_delay_steps(s, c * math.sqrt(2.0), window, h) or -1,
    }


def scene_summary(step: dict, c: float, s: float, N: int, em: dict, cost: dict, det: dict, wd: dict,
                  reported: dict, mc_trials: int, window: int, false_alarms_per_day: float,
                  detector_ranks: int, detector_trials: int) -> dict:
    """The page's numbers: the step (`step`), the expected maximum (`em`), the cost at scale (`cost`),
    the detector (`det`, `wd`) and the study's figures (`reported`)."""
    mu, m_N, gumbel_N = step["mu"], em["m_N"], em["gumbel_N"]
    step_jitter, slow, sweep, sweep_waste = cost["step_jitter"], cost["slow"], cost["sweep"], cost["sweep_waste"]
    h, k99, k50 = det["h"], det["k99"], det["k50"]
    return {
        "step_flops": step["flops"],
        "step_time": mu,
        "attention_share": step["attention_share"],
        "steps_per_day": det["steps_per_day"],
        "identity_factor": step["identity_factor"],
        "slowdown": s,
        "jitter_cv": c,
        "m_N": m_N, "gumbel_N": gumbel_N, "lead_N": em["lead_N"],
        "gumbel_error": gumbel_N / m_N - 1.0,
        "m_2N": em["m_2N"],
        "jitter_factor": step_jitter / mu,
        "waste_jitter": cost["waste_jitter"],
        "gpu_hours_jitter": float(gpu_hours_lost_per_day(N, step_jitter / mu)),
        "slow_factor": slow["factor_slow"],
        "slow_marginal_share": slow["marginal_share"],
        "slow_marginal_gpu_hours": slow["marginal_gpu_hours_per_day"],
        "slow_alone_gpu_hours": float(gpu_hours_lost_per_day(N, 1.0 + s)),
        # jitter and the slow GPU together, against μ: less than their two costs added (they compound)
        "both_gpu_hours": float(gpu_hours_lost_per_day(N, slow["factor_slow"])),
        "slow_alone_waste": float(waste_share(1.0 + s)),
        "sweep_min": float(sweep.min()), "sweep_max": float(sweep.max()),
        "sweep_waste_min": float(sweep_waste.min()), "sweep_waste_max": float(sweep_waste.max()),
        # the slow GPU's added cost at the sweep's ends: most at the least jitter, least at the most
        "sweep_slow_added_max": float(cost["sweep_slow_added"][0]),
        "sweep_slow_added_min": float(cost["sweep_slow_added"][-1]),
        **reported,
        "mc_trials": mc_trials,
        "mc_max_abs_z": float(np.max(np.abs(em["mc_z"]))),
        "mc_z_check": Z_CHECK,
        "window": window,
        "false_alarms_per_day": false_alarms_per_day,
        "threshold": h,
        "fpr_per_check": float(1.0 - ndtr(h)),
        "delay_confidence": CONFIDENCE,
        # -1 and 0 s: not flagged within the window (detected False; the page's claim above then fails)
        "detected": det["detected"],
        "delay99_steps": k99 if det["detected"] else -1,
        "delay99_seconds": (k99 or 0) * mu,
        "delay50_steps": k50 if k50 is not None else (k99 if det["detected"] else -1),
        "sim_share_by_delay": det["share_by_k99"],
        "sim_median_delay": det["median_first"],
        "detector_ranks": detector_ranks,
        "detector_trials": detector_trials,
        "s_min_window": wd["s_min_W"],
        "cost_before_detect": (k99 or 0) * mu * s * N / HOUR,  # GPU-hours until flagged, jitter-free (upper bound)
        # the same with the page's jitter: the slow rank only adds what it is late beyond the jittery maximum
        "cost_before_detect_jitter": (k99 or 0) * (slow["step_slow"] - slow["step_jitter"]) * N / HOUR,
    }


def worked_problems(mu: float, c: float, s: float, N: int, m_N: float, window: int, h: float, k99: int,
                    subtle_slowdown: float) -> dict:
    """Twice the slowdown; a subtler straggler (how long to flag it, the window that would); four
    times the ranks."""
    double = slow_rank_cost(N, mu, c, 2 * s)
    subtle = slow_rank_cost(N, mu, c, subtle_slowdown)
    subtle_k = detection_delay_steps(subtle_slowdown, c, window, h)
    subtle_min_w = math.ceil(((h + Z_99) * c / subtle_slowdown) ** 2)
    check(subtle_slowdown >= s or subtle_k is None or k99 is None or subtle_k >= k99,
          "a subtler straggler takes longer to flag")
    big_m = float(expected_max_normal(4 * N))
    return {
        "double_slowdown": {"slowdown": 2 * s, "factor": double["factor_slow"],
                            "gpu_hours_alone": float(gpu_hours_lost_per_day(N, 1.0 + 2 * s)),
                            "gpu_hours_jitter": double["marginal_gpu_hours_per_day"]},
        "subtle": {"slowdown": subtle_slowdown, "delay_steps": subtle_k if subtle_k is not None else -1,
                   "delay_seconds": (subtle_k or 0) * mu, "detected": subtle_k is not None,
                   "min_window": subtle_min_w,
                   "gpu_hours_alone": float(gpu_hours_lost_per_day(N, 1.0 + subtle_slowdown)),
                   "gpu_hours_jitter": subtle["marginal_gpu_hours_per_day"]},
        "four_times_ranks": {"ranks": 4 * N, "m": big_m, "extra": c * mu * (big_m - m_N),
                             "factor": 1.0 + c * big_m},
    }


def tp_group_units(N: int, scenario_tp: int, c: float, s: float, m_N: float, slow_added: float) -> dict:
    """The independence assumption's alternative: the barrier sees N/TP TP groups, not N GPUs (a group's
    members wait for each other inside every layer). Were each group's jitter that of one rank, m would be
    m_{N/TP}, and the slow GPU's group would arrive s late among N/TP units: fewer rivals hide it, so it
    adds more on top of the jitter (still over all N GPUs). The page names the assumption and shows both."""
    units = max(N / scenario_tp, 1.0)
    m_units = float(expected_max_normal(units))
    jitter_factor = 1.0 + c * m_units
    slow_factor = 1.0 + c * float(expected_max_normal(units, s / c))
    added = N * (DAY / HOUR) * (1.0 - jitter_factor / slow_factor)
    check(scenario_tp == 1 or m_units < m_N, "fewer independent units at the barrier, a smaller expected maximum")
    check(scenario_tp == 1 or added > slow_added, "with fewer independent units, the slow GPU adds more")
    return {"tp_units": N / scenario_tp, "m_tp_units": m_units, "jitter_factor_tp_units": jitter_factor,
            "slow_added_tp_units": added}


def flight_recorder_summary(fr: dict, mu: float, tp: int, segments: int, ring: int,
                            collective_share: float, scenario_tp: int) -> dict:
    """The page's flight-recorder numbers: what the dumps show and what the analyzer concludes."""
    late, hang, r = fr["late"], fr["hang"], fr["slow_rank"]
    members = late["members"]
    peers = members[members != r]
    others = np.flatnonzero(np.isin(np.arange(fr["dur_dp"].size), members, invert=True))
    return {
        "fr_slow_rank": r, "fr_suspect": late["suspect"], "fr_late_group": late["late_group"],
        "fr_group_ranks": ", ".join(str(int(v)) for v in members),
        "fr_records_per_step": segments + 1, "fr_ring": ring,
        "fr_collective_time": collective_share * mu,
        "fr_dp_straggler": float(fr["dur_dp"][r]),
        "fr_dp_others_min": float(fr["dur_dp"][others].min()),
        "fr_dp_others_mean": float(fr["dur_dp"][others].mean()),
        "fr_dp_others_count": int(others.size),
        "fr_tp_straggler": float(fr["dur_tp"][r]), "fr_tp_peers": float(fr["dur_tp"][peers].mean()),
        "fr_lag_group": float(late["lag_dp"][r]),
        "fr_hang_waiting_dp": hang["waiting_in_dp"], "fr_hang_waiting_tp": hang["waiting_in_tp"],
        # -1: the analysis named no rank (only where a claim above has failed, e.g. in an Explore sweep)
        "fr_hang_suspect": int(hang["never_entered"][0]) if hang["never_entered"] else -1,
        "fr_tp": tp, "scenario_tp": scenario_tp,
        # the detector's two possible scopes, per step, over the partners' mean and the healthiest other rank
        "fr_compute_straggler": float(fr["sections"]["compute"][r]),
        "fr_compute_peers": float(fr["sections"]["compute"][peers].mean()),
        "fr_barrier_straggler": float(fr["sections"]["barrier"][r]),
        "fr_barrier_peers": float(fr["sections"]["barrier"][peers].mean()),
        "fr_barrier_others": float(fr["sections"]["barrier"][others].mean()),
    }


def flight_recorder_records(fr: dict, segments: int) -> dict:
    """The slow run's last step as each rank recorded it (the figure's timeline), in seconds from the
    end of the step before (the previous gradient all-reduce, which ends at once on every rank)."""
    d = fr["dump"]
    step = d[:, -(segments + 1):]
    start = float(d[0, -(segments + 2), 4])
    return {"fr_last_step": [{"rank": r, "group": "tp" if row[1] == FR_TP else "dp", "seq": int(row[2]),
                              "enter": float(row[3] - start), "exit": float(row[4] - start)}
                             for r in range(step.shape[0]) for row in step[r]]}


def scene_series(N: int, em: dict, cost: dict, rs: dict, wd: dict, fr: dict) -> dict:
    """The expected maximum against N, the Monte Carlo, the jitter sweep, the ROC curves, the delay
    against the window, and per rank what the flight recorder's dumps show."""
    roc, ks, sweep_factor = rs["roc"], rs["ks"], cost["sweep_factor"]
    return {
        **curves("n", em["n_curve"], exact=em["m_exact"], gumbel=em["m_gumbel"], lead=em["m_lead"]),
        **curves("mc_n", em["mc_n"], mc_mean=em["mc_mean"], mc_ci95=1.96 * em["mc_se"], mc_exact=em["mc_exact"],
                 mc_z=em["mc_z"]),
        **curves("sweep_cv", cost["sweep"], sweep_waste=cost["sweep_waste"], sweep_factor=sweep_factor,
                 sweep_slow_factor=cost["sweep_slow_factor"],
                 sweep_gpu_hours=gpu_hours_lost_per_day(N, sweep_factor)),
        **curves("roc_threshold", rs["thr"], **{f"roc_fpr_{k}": roc[k]["fpr"] for k in ks},
                 **{f"roc_tpr_{k}": roc[k]["tpr"] for k in ks},
                 **{f"roc_fpr_sim_{k}": roc[k]["fpr_sim"] for k in ks},
                 **{f"roc_tpr_sim_{k}": roc[k]["tpr_sim"] for k in ks}),
        **curves("w", wd["w_curve"], delay99=np.nan_to_num(wd["delay99"], nan=-1.0),
                 delay50=np.nan_to_num(wd["delay50"], nan=-1.0), s_min=wd["s_min"]),
        **curves("fr_rank", np.arange(fr["dur_dp"].size), fr_dur_dp=fr["dur_dp"], fr_dur_tp=fr["dur_tp"],
                 fr_lag_dp=fr["late"]["lag_dp"], fr_hang_last_tp=fr["hang"]["last_tp"],
                 fr_hang_last_dp=fr["hang"]["last_dp"]),
    }


def animation_plan(anim_ranks: int, c: float, s: float, window: int, k99: int, rng: np.random.Generator) -> dict:
    """A few ranks, a few steps, drawn from the same model: one slow from the second step on, and each
    rank's last z-score once the straggler has run k99 steps."""
    a_steps = 3
    jit = c * rng.standard_normal((a_steps, anim_ranks))
    slow_rank = int(rng.integers(anim_ranks))
    t_anim = 1.0 + jit
    t_anim[1:, slow_rank] += s
    z_anim = rolling_z_scores(1.0 + c * rng.standard_normal((anim_ranks, window + k99 - 1))
                              + np.where(np.arange(window + k99 - 1) >= window - 1, s, 0.0)
                              * (np.arange(anim_ranks)[:, None] == slow_rank), window)[:, -1]
    return {
        "ranks": anim_ranks, "slow_rank": slow_rank, "times": t_anim.tolist(),
        # the slow rank's drawn time in the slow step: s plus its own jitter (the label says both)
        "slow_drawn": float(t_anim[1, slow_rank] - 1.0),
        # the first race: how late its slowest rank is, in σ, against the expected maximum of that many
        "first_late_sigma": float((t_anim[0].max() - 1.0) / c) if c > 0 else 0.0,
        "m_anim": float(expected_max_normal(anim_ranks)),
        "step_max": t_anim.max(axis=1).tolist(), "z_last": z_anim.tolist(),
    }


def expected_max_table(em: dict, c: float, mc_trials: int) -> Table:
    return Table(
        f"Expected maximum of N standard normals (E[step] = μ + σ·m_N): quadrature, Gumbel approximation "
        f"and a seeded Monte Carlo of {mc_trials:,} trials per N, and the step slowdown at σ/μ = {c:g}",
        [Column("ranks N", "count"), Column("m_N, quadrature", "1"), Column("m_N, Gumbel", "1"),
         Column("m_N, Monte Carlo mean", "1"), Column("95% CI half-width", "1"),
         Column("(MC − exact) / SE", "1"), Column("step slowdown from jitter", "%")],
        [[int(n), float(e), float(g), float(m), float(ci), float(zz), float(c * e)]
         for n, e, g, m, ci, zz in zip(em["mc_n"], em["mc_exact"], em["mc_gumbel"], em["mc_mean"],
                                       1.96 * em["mc_se"], em["mc_z"], strict=True)],
    )


def jitter_sweep_records(cost: dict, c: float) -> dict:
    return {"jitter_sweep": [{"cv": float(v), "factor": float(f), "waste": float(w), "slow_factor": float(sf),
                              "slow_added": float(a), "assumed": bool(v == c)}
                             for v, f, w, sf, a in zip(cost["sweep"], cost["sweep_factor"], cost["sweep_waste"],
                                                       cost["sweep_slow_factor"], cost["sweep_slow_added"],
                                                       strict=True)]}


# --- the entry function -----------------------------------------------------------


@model(
    model_params=Param.positive("count", "model parameters"),
    tokens_per_batch=Param.positive("count", "tokens per global batch"),
    gpus=Param.integer("count", "GPUs in the job (ranks at the barrier)", minimum=2, maximum=10_000_000),
    flops_per_gpu=Param.positive("FLOP/s", "achieved throughput per GPU"),
    flops_per_param_token=Param.positive("1", "training FLOPs per parameter per token"),
    layers=Param.integer("count", "transformer layers"),
    attention_width=Param.integer("count", "attention width H·Q: query heads × head size"),
    sequence_length=Param.integer("count", "sequence length (tokens)"),
    jitter_cv=Param.positive("%", "per-rank step-time jitter σ/μ (assumed)", maximum=0.2),
    jitter_sweep=Param.numbers("%", "jitter values compared", above=0.0),
    slowdown=Param.positive("%", "how much slower the straggler is", maximum=10.0),
    reported_affected_jobs=Param.number("%", "share of jobs slowed by at least the threshold (study)", 0, 1),
    reported_affected_slowdown=Param.number("1", "slowdown threshold the study counts as affected",
                                            minimum=1.0, maximum=10.0),
    reported_waste_median=Param.number("%", "median per-job waste to stragglers (study)", 0, 1),
    reported_waste_cluster=Param.number("%", "share of cluster GPU-hours wasted (study)", 0, 1),
    mc_ranks=Param.numbers("count", "rank counts the Monte Carlo tests", minimum=2),
    mc_trials=Param.integer("count", "Monte Carlo trials per rank count", minimum=200, maximum=100_000),
    window=Param.integer("count", "detector window W (steps)", minimum=2, maximum=1000),
    false_alarms_per_day=Param.positive("count", "false alarms allowed per day, whole job"),
    roc_steps_after=Param.numbers("count", "ROC: evaluations this many steps after onset", minimum=1),
    detector_ranks=Param.integer("count", "ranks in the detector simulation", minimum=16, maximum=4096),
    detector_trials=Param.integer("count", "detector simulation trials", minimum=50, maximum=20_000),
    subtle_slowdown=Param.positive("%", "worked problem: a subtler straggler", maximum=10.0),
    nemo_relative_threshold=Param.positive("1", "NeMo straggler callback: relative score threshold (default)",
                                           maximum=1.0),
    nemo_report_interval=Param.positive("s", "NeMo straggler callback: report interval (default)"),
    watchdog_timeout=Param.positive("s", "PyTorch NCCL watchdog: collective timeout (default)"),
    scenario_tp=Param.integer("count", "tensor-parallel degree of the scenario's run", minimum=1),
    fr_ranks=Param.integer("count", "flight recorder demo: ranks", minimum=4, maximum=12),
    fr_tp=Param.integer("count", "flight recorder demo: tensor-parallel group size", minimum=2, maximum=16),
    fr_segments=Param.integer("count", "flight recorder demo: TP all-reduces per step", minimum=1, maximum=16),
    fr_steps=Param.integer("count", "flight recorder demo: steps run", minimum=2, maximum=100),
    fr_ring=Param.integer("count", "flight recorder demo: ring buffer entries per rank", minimum=2),
    fr_collective_share=Param.positive("%", "flight recorder demo: a collective's own transfer time / μ (assumed)",
                                       maximum=0.5),
    anim_ranks=Param.integer("count", "ranks drawn in the animation", minimum=4, maximum=12, animation=True),
    seed=Param.integer("1", "random seed", minimum=0, animation=True),
)
def straggler_barrier(model_params: float, tokens_per_batch: float, gpus: int, flops_per_gpu: float,
                      flops_per_param_token: float, layers: int, attention_width: int, sequence_length: int,
                      jitter_cv: float, jitter_sweep: list, slowdown: float,
                      reported_affected_jobs: float, reported_affected_slowdown: float,
                      reported_waste_median: float, reported_waste_cluster: float, mc_ranks: list,
                      mc_trials: int, window: int, false_alarms_per_day: float, roc_steps_after: list,
                      detector_ranks: int, detector_trials: int, subtle_slowdown: float = 0.02,
                      nemo_relative_threshold: float = CONSTANTS["nemo_straggler_relative_threshold"].value,
                      nemo_report_interval: float = CONSTANTS["nemo_straggler_report_interval"].value,
                      watchdog_timeout: float = CONSTANTS["pytorch_nccl_default_timeout"].value,
                      scenario_tp: int = 8, fr_ranks: int = 8, fr_tp: int = 2, fr_segments: int = 4,
                      fr_steps: int = 6, fr_ring: int = 15, fr_collective_share: float = 0.02,
                      anim_ranks: int = 8, seed: int = 0) -> Exhibit:
    """stragglers' data: the barrier, the expected maximum three ways, the cost at scale, the detector.

    model_params, tokens_per_batch, gpus, flops_per_gpu, flops_per_param_token → the step time μ.
    jitter_cv: the assumed σ/μ, swept over jitter_sweep; slowdown: the straggler's s.
    reported_*: the ByteDance straggler study's headline numbers, compared with the model.
    mc_ranks, mc_trials: the Monte Carlo of the maximum. window, false_alarms_per_day,
    roc_steps_after, detector_ranks, detector_trials: the detector and its simulation.
    nemo_relative_threshold, nemo_report_interval, watchdog_timeout: the production tools' defaults
    (NeMo's straggler callback, PyTorch's NCCL watchdog) the page compares the detector with.
    scenario_tp: the run's tensor-parallel group (its members wait for a slow one inside every layer).
    fr_*: the flight-recorder demonstration: a few ranks in TP groups, one slow, dumped and analysed.
    """
    rng = np.random.default_rng(seed)
    c, s, N = float(jitter_cv), float(slowdown), int(gpus)
    check_sample_params(N, mc_ranks, mc_trials, window, roc_steps_after)

    # the step as every scene counts it (models/scenario_facts.py): 6N plus attention over the context
    facts = scenario_facts.training_step(model_params, tokens_per_batch, N, flops_per_gpu, layers, attention_width,
                                         sequence_length, flops_per_param_token)
    mu, attention_share = facts["step_time"], facts["attention_share"]
    check(attention_share < 0.1, "attention over the context is a few per cent of the step's FLOPs")
    step = {"mu": mu, "attention_share": attention_share, "facts": facts,
            "identity_factor": barrier_identity(mu, N, s, reported_affected_slowdown),
            "flops": step_flops(model_params, tokens_per_batch, layers, attention_width, sequence_length,
                                flops_per_param_token)}
    em = expected_max_study(N, mc_ranks, mc_trials, rng)
    cost = cost_at_scale(mu, c, s, N, em["m_N"], jitter_sweep, reported_waste_median)
    det = detector_study(mu, N, s, c, window, false_alarms_per_day, roc_steps_after, detector_ranks,
                         detector_trials, rng)
    rs = roc_study(det["zs"], det["zh"], s, c, window, roc_steps_after, detector_trials, det["h"])
    wd = delay_vs_window(s, c, det["h"], window)
    by_n = at_each_rank_count(em["n_curve"], mu, c, s, window, false_alarms_per_day, det["steps_per_day"])
    reported = {"reported_affected_jobs": reported_affected_jobs,
                "reported_affected_slowdown": reported_affected_slowdown,
                "reported_waste_median": reported_waste_median, "reported_waste_cluster": reported_waste_cluster}
    summary = scene_summary(step, c, s, N, em, cost, det, wd, reported, mc_trials, window, false_alarms_per_day,
                            detector_ranks, detector_trials)
    summary.update(production_defaults(mu, s, c, window, det["h"], nemo_relative_threshold, nemo_report_interval,
                                       watchdog_timeout))
    problems = worked_problems(mu, c, s, N, em["m_N"], window, det["h"], det["k99"], subtle_slowdown)
    if fr_ring < fr_segments + 2 or fr_ring > fr_steps * (fr_segments + 1):
        raise ParamError("fr_ring", fr_ring, "at least one step and a record, at most the records of the run")
    if fr_ranks % fr_tp or fr_ranks < 2 * fr_tp:
        raise ParamError("fr_ranks", fr_ranks, f"a whole number, at least two, of TP groups of {fr_tp}")
    anim = animation_plan(anim_ranks, c, s, window, det["k99"] or window, rng)  # undetected: a full window
    # the same GPU is slow in the animation's race and in its flight-recorder dump
    fr = flight_recorder_study(mu, c, s, fr_ranks, fr_tp, fr_segments, fr_steps, fr_ring, fr_collective_share,
                               anim["slow_rank"] % fr_ranks, rng)
    anim.update(fr_ranks=fr_ranks, fr_tp=fr_tp, fr_slow_rank=fr["slow_rank"], fr_dur_dp=fr["dur_dp"].tolist(),
                fr_dur_tp=fr["dur_tp"].tolist())
    summary.update(flight_recorder_summary(fr, mu, fr_tp, fr_segments, fr_ring, fr_collective_share, scenario_tp))
    summary.update(tp_group_units(N, scenario_tp, c, s, em["m_N"], cost["slow"]["marginal_gpu_hours_per_day"]))
    series = {**scene_series(N, em, cost, rs, wd, fr), **curves("n", em["n_curve"], **by_n)}
    return Exhibit(summary=summary, series=series,
                   table=expected_max_table(em, c, mc_trials),
                   animation=anim,
                   problems=problems, records={**jitter_sweep_records(cost, c), "roc_at_h": rs["at_h"],
                                               **flight_recorder_records(fr, fr_segments),
                                               scenario_facts.RECORD: scenario_facts.published(**facts)})


__all__ = [
    "EULER_GAMMA", "CONFIDENCE", "Z_99", "Z_CHECK", "barrier_step_time", "step_flops", "step_time",
    "attention_flops_per_token", "expected_max_normal",
    "gumbel_expected_max", "leading_order_max", "simulate_max_normal", "expected_step_time", "waste_share",
    "gpu_hours_lost_per_day", "slow_rank_cost", "threshold_for_false_alarms", "detection_delay_steps",
    "median_detection_steps", "smallest_detectable_slowdown", "rolling_z_scores", "simulate_detector",
    "analytic_roc", "straggler_barrier",
]
