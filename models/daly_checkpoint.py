"""Daly's formula: how often should a big job save its state?

A job needs `work` seconds of useful compute (T_s). It computes for τ, then
writes a checkpoint for δ, and repeats. Failures arrive as a Poisson process
with mean time between failures M. A failure throws away the segment in
progress (its compute and any partial save); the job then pays a restart R
(which a further failure can also interrupt, starting it over) and redoes
the segment from the last checkpoint.

Under those assumptions the expected time to finish one segment of length
L = τ + δ is exactly M·e^{R/M}·(e^{L/M} − 1) (a renewal argument: see
`segment_time`), so for T_s/τ segments

    T_w(τ) = M · e^{R/M} · (e^{(τ+δ)/M} − 1) · T_s / τ        (Daly 2006)

Young (1974) minimised a first-order version: τ_Y = √(2δM). Daly's
perturbation solution (his eq. 37) adds the next terms:
τ_D = √(2δM)·[1 + ⅓√(δ/2M) + (1/9)(δ/2M)] − δ for δ < 2M, else τ_D = M.
The exact minimiser solves (1 − τ/M)·e^{τ/M} = e^{−δ/M} (a Lambert-W
equation), found here by a fixed number of bisection steps.

The optimum τ* does not depend on R, and R only multiplies T_w by e^{R/M};
so the useful share at τ* is its value at R = 0 times e^{−R/M}, and the
restart time a target efficiency allows has a closed form
(`restart_for_efficiency`). The scene sweeps R because its value here is an
assumption (Daly's HPC example), not a Llama 3 measurement.

A seeded Monte Carlo walks the same job through random failures, vectorised
over trials, and must agree with T_w within its confidence interval. Every
loop here is bounded by construction: the bisection runs a fixed number of
steps, and the simulations refuse (BoundExceeded) a job whose expected
failure count is beyond their budget, and stop with the same error if a
sampled path ever exceeds it.

The public functions (interruption rate, checkpoint cost, expected wall
time, optima, efficiency versus R) are for other scenes to call; the scene's
entry point is `daly_interval`.

Units: seconds, bytes, bytes per second (models/units.py).
"""

from __future__ import annotations

import math

import numpy as np

from models.exhibit import Column, Exhibit, Param, ParamError, Table, check, curves, model
from models.units import HOUR, fmt_seconds

Z_CHECK = 3.0  # Monte Carlo agrees with the analytic model when |mean − T_w| ≤ Z_CHECK·SE
BISECTION_STEPS = 100  # halves (0, 1) past float64 precision (2^-53) with room to spare
MAX_EXPECTED_FAILURES = 10_000  # per simulated job: beyond this the job barely progresses
MAX_COST_OVER_MTBF = 50.0  # δ/M and R/M above this: e^50 attempts per segment, no job finishes
MAX_SEGMENTS = 1_000_000  # segments per simulated job at the shortest interval the Monte Carlo tests


class BoundExceeded(RuntimeError):
    """A simulation would need more steps than its budget; the message says which and why."""


# --- the inputs, derived ----------------------------------------------------


def mean_time_between_interruptions(observation_window: float, interruptions: float) -> float:
    """Job-level MTBI M (s): the observed window divided by the interruptions in it."""
    if not (observation_window > 0 and interruptions > 0):
        raise ValueError("observation_window and interruptions must be positive")
    return observation_window / interruptions


def interruption_rate(observation_window: float, interruptions: float) -> float:
    """Job-level interruption rate λ = 1/M (per second) from a failure record."""
    return 1.0 / mean_time_between_interruptions(observation_window, interruptions)


def checkpoint_bytes(model_params: float, weight_bytes: float, optimizer_bytes: float) -> float:
    """Bytes of one full training checkpoint: 16-bit weights plus optimizer states.

    Mixed-precision Adam keeps 2Ψ (weights) + 2Ψ (gradients) + 12Ψ (fp32
    weights, momentum, variance) bytes (ZeRO §3.1); a checkpoint needs all of
    it except the gradients, which the next step recomputes: 14 bytes/param.
    """
    return model_params * (weight_bytes + optimizer_bytes)


def checkpoint_cost(nbytes: float, bandwidth: float) -> float:
    """δ (s): seconds to write `nbytes` at an aggregate write bandwidth (B/s)."""
    if not bandwidth > 0:
        raise ValueError("bandwidth must be positive")
    return nbytes / bandwidth


# --- Daly's cost function ---------------------------------------------------


def segment_time(length, mtbf: float, restart: float):
    """Expected wall time to complete one segment of `length` seconds.

    Renewal argument: with X ~ Exp(M), E = E[min(X, L)] + P(X < L)·(E_R + E),
    where E_R = M(e^{R/M} − 1) is the expected time to get through a restart
    that failures can also interrupt. Solving gives M·e^{R/M}·(e^{L/M} − 1).
    """
    length = np.asarray(length, dtype=float)
    return mtbf * math.exp(restart / mtbf) * np.expm1(length / mtbf)


def wall_time(tau, delta: float, mtbf: float, restart: float, work: float):
    """Daly's expected wall-clock time T_w(τ) (s) for `work` seconds of compute."""
    tau = np.asarray(tau, dtype=float)
    return segment_time(tau + delta, mtbf, restart) * work / tau


def waste_fraction(tau, delta: float, mtbf: float, restart: float, work: float):
    """Fraction of wall time not spent on useful compute: 1 − T_s/T_w."""
    return 1.0 - work / wall_time(tau, delta, mtbf, restart, work)


def overhead_breakdown(tau, delta: float, mtbf: float, restart: float, work: float) -> dict:
    """Expected seconds spent writing checkpoints, on lost work and on restarts.

    Per segment of L = τ + δ: expected failures e^{L/M} − 1; lost time
    M(e^{L/M} − 1) − L; restart time (e^{L/M} − 1)·M(e^{R/M} − 1). The three
    plus T_s add up to T_w exactly.
    """
    tau = np.asarray(tau, dtype=float)
    n = work / tau
    length = tau + delta
    fails = np.expm1(length / mtbf)
    return {
        "save": n * delta,
        "lost": n * (mtbf * fails - length),
        "restart": n * fails * mtbf * math.expm1(restart / mtbf),
        "failures": n * fails,
    }


def expected_failures(tau, delta: float, mtbf: float, restart: float, work: float):
    """Expected failures per job, failed restarts included: (T_s/τ)·(e^{L/M} − 1)·e^{R/M}."""
    tau = np.asarray(tau, dtype=float)
    return work / tau * np.expm1((tau + delta) / mtbf) * math.exp(restart / mtbf)


# --- the optimum, three ways -------------------------------------------------


def young_interval(delta, mtbf):
    """Young (1974), first order: τ_Y = √(2δM)."""
    return np.sqrt(2.0 * np.asarray(delta, dtype=float) * mtbf)


def daly_optimum(delta, mtbf):
    """Daly (2006) eq. (37): the higher-order estimate of the optimum interval."""
    delta = np.asarray(delta, dtype=float)
    mtbf = np.asarray(mtbf, dtype=float)
    x = delta / (2.0 * mtbf)
    est = np.sqrt(2.0 * delta * mtbf) * (1.0 + np.sqrt(x) / 3.0 + x / 9.0) - delta
    out = np.where(delta < 2.0 * mtbf, est, mtbf)
    return float(out) if out.ndim == 0 else out


def optimal_interval(delta, mtbf):
    """The exact minimiser τ* of T_w(τ) (independent of R and T_s).

    dT_w/dτ = 0 gives (1 − x)·e^x = e^{−δ/M} with x = τ/M, i.e.
    x = 1 + W₀(−e^{−1−δ/M}). In logs, g(x) = x + ln(1 − x) = −δ/M, with g
    falling from 0 at x = 0; since g(x) ≤ −x²/2, the root lies below
    min(1, 2√(2δ/M)), so bisection on that bracket keeps its relative
    precision however small δ/M is. It runs BISECTION_STEPS steps, no more.
    For x < 1e-4, g is its series −x²/2 − x³/3 − x⁴/4 (no cancellation).
    """
    d = np.asarray(delta, dtype=float) / np.asarray(mtbf, dtype=float)
    lo = np.zeros_like(d)
    hi = np.minimum(1.0, 2.0 * np.sqrt(2.0 * d))
    for _ in range(BISECTION_STEPS):
        mid = 0.5 * (lo + hi)
        with np.errstate(divide="ignore"):
            g = np.where(mid < 1e-4, -mid**2 / 2 - mid**3 / 3 - mid**4 / 4, mid + np.log1p(-mid))
        lo = np.where(g > -d, mid, lo)
        hi = np.where(g > -d, hi, mid)
    out = 0.5 * (lo + hi) * mtbf
    return float(out) if np.ndim(out) == 0 else out


# --- efficiency versus the restart time ---------------------------------------


def efficiency_at_optimum(delta: float, mtbf: float, restart):
    """Useful share T_s/T_w at the exact optimum τ*, for restart time(s) R.

    τ* does not depend on R and R only multiplies T_w by e^{R/M}, so this is
    its value at R = 0 times e^{−R/M}.
    """
    tau = optimal_interval(delta, mtbf)
    base = tau / float(segment_time(tau + delta, mtbf, 0.0))
    return base * np.exp(-np.asarray(restart, dtype=float) / mtbf)


def restart_for_efficiency(target: float, delta: float, mtbf: float) -> float:
    """The longest restart R (s) for which the useful share at τ* still reaches `target`.

    R = M·ln(E₀/target), E₀ the share at R = 0; negative when even R = 0 falls short.
    """
    return mtbf * math.log(float(efficiency_at_optimum(delta, mtbf, 0.0)) / target)


def restart_break_even(tau: float, delta: float, mtbf: float) -> float:
    """The restart R (s) at which restarts cost as much as checkpoint writes and rework together.

    Per segment: f·M·(e^{R/M} − 1) = δ + f·M − L with f = e^{L/M} − 1, so
    R = M·ln(1 + (δ + f·M − L)/(f·M)). Above it, restarts are most of the loss.
    """
    length = tau + delta
    f = math.expm1(length / mtbf)
    return mtbf * math.log1p((delta + f * mtbf - length) / (f * mtbf))


# --- the Monte Carlo ----------------------------------------------------------


def _failure_budget(n_segments: int, tau: float, delta: float, mtbf: float, restart: float,
                    what: str) -> int:
    """Loop steps a simulation may take: refuse up front a job that expects too many failures."""
    expected = float(expected_failures(tau, delta, mtbf, restart, n_segments * tau))
    if not expected <= MAX_EXPECTED_FAILURES:
        raise BoundExceeded(
            f"{what}: the job expects {expected:.3g} failures (τ = {tau:.3g} s, δ = {delta:.3g} s, "
            f"M = {mtbf:.3g} s, R = {restart:.3g} s, {n_segments} segments); the simulation is "
            f"bounded at {MAX_EXPECTED_FAILURES:,} expected failures per job")
    return int(1000 + 50 * expected)


def _step(steps: int, budget: int) -> int:
    """Count one loop step; BoundExceeded past the budget."""
    if steps >= budget:
        raise BoundExceeded(f"simulate_wall_times: a path ran past {budget:,} loop steps")
    return steps + 1


def simulate_wall_times(n_segments: int, tau: float, delta: float, mtbf: float,
                        restart: float, trials: int, rng: np.random.Generator) -> dict:
    """Walk `trials` copies of the job through random failures; per-trial totals.

    Vectorised over trials; the loop runs once per failure, not per segment:
    from each (re)start, draw the time X to the next failure; if X covers the
    remaining segments the job is done, else floor(X / L) whole segments
    complete before it, the segment in progress is lost (X minus the completed
    segments) and a restart follows, itself repeated while failures (fresh
    Exp(M) draws, memoryless) strike before R elapses. Returns wall, lost and
    restart time and failures per trial. Bounded: BoundExceeded if the job
    expects more than MAX_EXPECTED_FAILURES failures, or a path runs past the budget.
    """
    budget = _failure_budget(n_segments, tau, delta, mtbf, restart, "simulate_wall_times")
    length = tau + delta
    remaining = np.full(trials, n_segments, dtype=np.int64)
    wall = np.zeros(trials)
    lost = np.zeros(trials)
    restarting = np.zeros(trials)
    failures = np.zeros(trials, dtype=np.int64)
    active = np.arange(trials)
    steps = 0
    while active.size:
        steps = _step(steps, budget)
        x = rng.exponential(mtbf, size=active.size)
        done = x >= remaining[active] * length  # compared as floats: no integer overflow
        fin = active[done]
        wall[fin] += remaining[fin] * length
        remaining[fin] = 0
        hit = active[~done]
        xs = x[~done]
        ks = np.floor(xs / length).astype(np.int64)  # < remaining, so it fits
        wall[hit] += xs
        lost[hit] += xs - ks * length
        remaining[hit] -= ks
        failures[hit] += 1
        pending = hit
        while pending.size:  # restarts, which failures may also interrupt
            steps = _step(steps, budget)
            y = rng.exponential(mtbf, size=pending.size)
            ok = y >= restart
            wall[pending[ok]] += restart
            restarting[pending[ok]] += restart
            bad = pending[~ok]
            wall[bad] += y[~ok]
            restarting[bad] += y[~ok]
            failures[bad] += 1
            pending = bad
        active = hit
    return {"wall": wall, "lost": lost, "restart": restarting, "failures": failures}


def sample_timeline(n_segments: int, tau: float, delta: float, mtbf: float, restart: float,
                    rng: np.random.Generator, margin: int = 3) -> list[dict]:
    """One job's timeline, event by event, for the animation.

    Failures are one Poisson process on the wall clock. The first failure is
    drawn conditioned to fall between the end of segment `margin` and the
    start of the last `margin` segments (a truncated exponential, by inverse
    CDF: no rejection loop), so that a rollback to a checkpoint can be shown;
    later failures are unconditioned (the process is memoryless). An
    illustration, and stated as such. Bounded like the Monte Carlo.
    Block: kind (compute | rework | save | restart | failure), start, end,
    work_start, work_end (useful compute done, s), lost (thrown away).
    """
    if n_segments <= 2 * margin:
        raise ValueError(f"sample_timeline: {n_segments} segments leave no room past a margin of {margin}")
    budget = _failure_budget(n_segments, tau, delta, mtbf, restart, "sample_timeline")
    length = tau + delta
    a, b = margin * length, (n_segments - margin) * length
    u = rng.uniform()
    next_fail = a - mtbf * math.log1p(u * math.expm1(-(b - a) / mtbf))
    blocks: list[dict] = []
    t = 0.0
    seg = 0
    redo = 0.0  # compute of the current segment already done once and lost
    while seg < n_segments:
        if len(blocks) > 4 * budget:
            raise BoundExceeded(f"sample_timeline: the path ran past {4 * budget:,} blocks")
        base = seg * tau
        attempt = len(blocks)  # this attempt's blocks start here
        plan = []
        if redo > 0:
            plan.append(("rework", redo, base, base + redo))
        plan.append(("compute", tau - redo, base + redo, base + tau))
        plan.append(("save", delta, base + tau, base + tau))
        failed = False
        for kind, dur, w0, w1 in plan:
            if dur <= 0:
                continue
            if next_fail < t + dur:  # the failure strikes inside this block
                w_fail = w0 + (next_fail - t) / dur * (w1 - w0)
                blocks.append(_block(kind, t, next_fail, w0, w_fail, True))
                redo = max(redo, w_fail - base)
                failed = True
                break
            blocks.append(_block(kind, t, t + dur, w0, w1, False))
            t += dur
        if not failed:
            seg += 1
            redo = 0.0
            continue
        # the attempt is lost: roll back to the last checkpoint, restart
        for blk in blocks[attempt:]:
            blk["lost"] = True
        t = next_fail
        for _ in range(budget):  # a restart that a further failure can interrupt
            blocks.append(_block("failure", t, t, base, base, True))
            next_fail = t + rng.exponential(mtbf)
            if next_fail < t + restart:
                blocks.append(_block("restart", t, next_fail, base, base, True))
                t = next_fail
                continue
            blocks.append(_block("restart", t, t + restart, base, base, False))
            t += restart
            break
        else:
            raise BoundExceeded(f"sample_timeline: more than {budget:,} failed restarts in a row")
    return blocks


def _block(kind, start, end, w0, w1, lost) -> dict:
    return {"kind": kind, "start": float(start), "end": float(end),
            "work_start": float(w0), "work_end": float(w1), "lost": bool(lost)}


# --- the scene's data ---------------------------------------------------------


def _optima(delta: float, mtbf: float, restart: float, work: float) -> dict:
    """τ_Y, τ_D, τ* and the waste at each, and how far Young's interval is from τ*."""
    taus = {"young": float(young_interval(delta, mtbf)),
            "daly": float(daly_optimum(delta, mtbf)),
            "optimal": float(optimal_interval(delta, mtbf))}
    out = {}
    for name, tau in taus.items():
        out[f"{name}_interval"] = tau
        out[f"waste_{name}"] = float(waste_fraction(tau, delta, mtbf, restart, work))
    out["young_vs_optimal"] = taus["young"] / taus["optimal"] - 1.0
    out["young_extra_wall"] = float(wall_time(taus["young"], delta, mtbf, restart, work)
                                    - wall_time(taus["optimal"], delta, mtbf, restart, work))
    return out


def _shares(tau: float, delta: float, mtbf: float, restart: float, work: float) -> dict:
    """Shares of wall time at τ: checkpoint writes, lost work, restarts."""
    parts = overhead_breakdown(tau, delta, mtbf, restart, work)
    wall = float(wall_time(tau, delta, mtbf, restart, work))
    return {k: float(parts[k]) / wall for k in ("save", "lost", "restart")}


@model(
    observation_window=Param.positive("s", "length of the run's failure record"),
    interruptions=Param.integer("count", "unexpected interruptions in that record", minimum=1),
    model_params=Param.positive("count", "model parameters"),
    weight_bytes=Param.positive("B", "bytes per parameter, 16-bit weights"),
    optimizer_bytes=Param.number("B", "bytes per parameter, optimizer state", minimum=0),
    checkpoint_bandwidth=Param.positive("B/s", "checkpoint write bandwidth, aggregate"),
    restart_cost=Param.number("s", "restart time R (assumed)", minimum=0),
    restart_sweep=Param.numbers("s", "restart times R compared", minimum=0),
    work=Param.positive("s", "useful compute Tₛ"),
    gpus=Param.integer("count", "GPUs in the job"),
    reported_efficiency=Param.fraction("reported effective training time"),
    reported_checkpoint_min=Param.positive("B", "smallest per-GPU checkpoint reported"),
    reported_checkpoint_max=Param.positive("B", "largest per-GPU checkpoint reported"),
    seed=Param.integer("1", "random seed", minimum=0, animation=True),
    trials=Param.integer("count", "Monte Carlo jobs per interval", minimum=100, maximum=1_000_000),
    mc_points=Param.integer("count", "intervals the Monte Carlo tests", minimum=3, maximum=40),
    span=Param.number("1", "Monte Carlo range: τ*/span to span·τ*", minimum=1.5, maximum=100),
    timeline_segments=Param.integer("count", "segments in the animated job", minimum=7, maximum=40,
                                    animation=True),
    slow_storage_factor=Param.number("1", "worked problem: storage slower by", minimum=1.5, maximum=1000),
    round_interval=Param.positive("s", "worked problem: a round-number interval"),
    tradeoff_factor=Param.number("1", "trade-off bars: τ*/f and f·τ*", minimum=1.5, maximum=100,
                                 animation=True),
)
def daly_interval(observation_window: float, interruptions: float, model_params: float,
                  weight_bytes: float, optimizer_bytes: float, checkpoint_bandwidth: float,
                  restart_cost: float, restart_sweep: list, work: float, gpus: float,
                  reported_efficiency: float, reported_checkpoint_min: float,
                  reported_checkpoint_max: float, seed: int, trials: int = 40_000,
                  mc_points: int = 12, span: float = 10.0, timeline_segments: int = 12,
                  slow_storage_factor: float = 10.0, round_interval: float = HOUR,
                  tradeoff_factor: float = 10.0) -> Exhibit:
    """Scene 10's data: Daly's T_w(τ), the three optima, a seeded Monte Carlo and a sweep over R.

    observation_window, interruptions: the job-level failure record (→ M).
    model_params, weight_bytes, optimizer_bytes, checkpoint_bandwidth: → δ.
    restart_cost R (s), an assumption, and restart_sweep, the values of R
    compared; work T_s (s of useful compute); gpus (for GPU-hours);
    reported_*: the published effective training time and per-GPU checkpoint
    range the page compares with. The Monte Carlo runs `trials` jobs at
    `mc_points` intervals τ = T_s/n (whole numbers of segments, where Daly's
    T_s/τ is exact), log-spaced over τ*/span … τ*·span.
    """
    rng = np.random.default_rng(seed)
    mtbf = mean_time_between_interruptions(observation_window, interruptions)
    ckpt_bytes = checkpoint_bytes(model_params, weight_bytes, optimizer_bytes)
    delta = checkpoint_cost(ckpt_bytes, checkpoint_bandwidth)
    R, Ts = float(restart_cost), float(work)
    # beyond e^50 a job of this kind never finishes (and e^{L/M} overflows past e^709)
    if delta > MAX_COST_OVER_MTBF * mtbf:
        raise ParamError("interruptions", interruptions, f"few enough that M ≥ δ/{MAX_COST_OVER_MTBF:g} "
                         f"(δ = {delta:.4g} s, M = {mtbf:.4g} s): no job finishes otherwise")
    for name, r in (("restart_cost", R), *(("restart_sweep", float(v)) for v in restart_sweep)):
        if r > MAX_COST_OVER_MTBF * mtbf:
            raise ParamError(name, r, f"at most {MAX_COST_OVER_MTBF:g}·M = {MAX_COST_OVER_MTBF * mtbf:.4g} s "
                             "(no restart completes otherwise)")
    opt = _optima(delta, mtbf, R, Ts)
    tau_opt = opt["optimal_interval"]
    if not span * tau_opt <= Ts <= MAX_SEGMENTS * tau_opt / span:
        raise ParamError("work", work, f"between span·τ* = {span * tau_opt:.4g} s and "
                         f"{MAX_SEGMENTS:,}·τ*/span = {MAX_SEGMENTS * tau_opt / span:.4g} s, so the Monte Carlo "
                         "intervals hold whole segments and no more than it can simulate")

    # analytic curve and its breakdown
    tau_curve = tau_opt * np.logspace(-math.log10(30), math.log10(30), 241)
    tau_curve = tau_curve[tau_curve < Ts]
    curve_wall = wall_time(tau_curve, delta, mtbf, R, Ts)
    parts = overhead_breakdown(tau_curve, delta, mtbf, R, Ts)
    i_min = int(np.argmin(curve_wall))
    i_min_r0 = int(np.argmin(wall_time(tau_curve, delta, mtbf, 0.0, 2.0 * Ts)))
    check(i_min == i_min_r0, "R and T_s scale T_w without moving its minimum")

    # Monte Carlo at whole numbers of segments
    targets = tau_opt * np.logspace(-math.log10(span), math.log10(span), mc_points)
    n_seg = np.unique(np.maximum(1, np.round(Ts / targets)).astype(np.int64))[::-1]
    mc_tau, mc_mean, mc_se = [], [], []
    for n in n_seg:
        tau = Ts / n
        sim = simulate_wall_times(int(n), tau, delta, mtbf, R, trials, rng)
        mc_tau.append(tau)
        mc_mean.append(sim["wall"].mean())
        mc_se.append(sim["wall"].std(ddof=1) / math.sqrt(trials))
    mc_tau, mc_mean, mc_se = np.array(mc_tau), np.array(mc_mean), np.array(mc_se)
    mc_analytic = wall_time(mc_tau, delta, mtbf, R, Ts)
    z = (mc_mean - mc_analytic) / mc_se
    # the same check against a model whose restarts cannot fail: (M + R) for M·e^{R/M}
    immune = Ts / mc_tau * (mtbf + R) * np.expm1((mc_tau + delta) / mtbf)
    z_immune = (mc_mean - immune) / mc_se
    ci = 1.96 * mc_se
    check(np.all(np.abs(z) <= Z_CHECK),
          "a seeded Monte Carlo agrees with the formula at every interval tested")
    check(R == 0 or np.max(np.abs(z_immune)) > Z_CHECK,
          "the check can fail: a model in which restarts cannot fail misses the simulation")

    # one illustrative timeline near the optimum
    tl_blocks = sample_timeline(timeline_segments, tau_opt, delta, mtbf, R, rng)

    # the trade-off at τ*/f, τ*, τ*·f
    trade_tau = np.array([tau_opt / tradeoff_factor, tau_opt, tau_opt * tradeoff_factor])
    trade_parts = overhead_breakdown(trade_tau, delta, mtbf, R, Ts)
    trade_wall = wall_time(trade_tau, delta, mtbf, R, Ts)
    trade_waste = 1.0 - Ts / trade_wall
    check(trade_parts["save"][0] > trade_parts["save"][1] and trade_parts["lost"][2] > trade_parts["lost"][1]
          and trade_waste[1] < min(trade_waste[0], trade_waste[2]),
          "save too often and writes pile up; too rarely and rework does")

    at_opt = _shares(tau_opt, delta, mtbf, R, Ts)
    wall_opt = float(wall_time(tau_opt, delta, mtbf, R, Ts))
    efficiency = 1.0 - opt["waste_optimal"]
    per_gpu = ckpt_bytes / gpus

    # the restart time: an assumption, so sweep it
    r_reported = restart_for_efficiency(reported_efficiency, delta, mtbf)
    r_even = restart_break_even(tau_opt, delta, mtbf)
    sweep = sorted(set(float(r) for r in restart_sweep) | {R})
    sweep_rows = []
    for r in sweep:
        sh = _shares(tau_opt, delta, mtbf, r, Ts)
        sweep_rows.append({"restart": r, "efficiency": float(efficiency_at_optimum(delta, mtbf, r)),
                           "save": sh["save"], "lost": sh["lost"], "restart_share": sh["restart"],
                           "above_reported": bool(efficiency_at_optimum(delta, mtbf, r) >= reported_efficiency),
                           "assumed": r == R})
    r_lo, r_hi = max(min(sweep), mtbf * 1e-4), max(max(sweep), 2 * r_reported, 2 * R)
    r_dense = np.logspace(math.log10(r_lo), math.log10(r_hi), 121)
    dense = [_shares(tau_opt, delta, mtbf, r, Ts) for r in r_dense]

    # worded claims on the page and in the scene
    check(fmt_seconds(opt["daly_interval"]) == fmt_seconds(tau_opt),
          "Daly's formula gives the exact minimum of the expected wall time to the digits shown")
    check(opt["young_interval"] > tau_opt, "Young's interval is too long")
    check(opt["young_extra_wall"] < 1e-4 * Ts, "the wall-time curve is flat at its minimum")
    check(at_opt["restart"] > at_opt["save"] + at_opt["lost"],
          "most of that loss is restarts (with R as assumed)")
    check(r_even < R, "restarts are the largest loss only above the break-even R")
    check(efficiency >= reported_efficiency,
          "the useful time is in line with the report's effective training time")
    check(r_reported > R, "the useful time stays above the reported share while R is below the limit")
    check(any(not row["above_reported"] for row in sweep_rows) and any(row["above_reported"] for row in sweep_rows),
          "the restart times compared fall on both sides of the reported share")
    check(reported_checkpoint_min <= per_gpu <= reported_checkpoint_max,
          "the per-GPU checkpoint is inside the range the Llama 3 report gives")

    summary = {
        "mtbf": mtbf,
        "bytes_per_param": float(weight_bytes + optimizer_bytes),
        "checkpoint_bytes": ckpt_bytes,
        "checkpoint_bytes_per_gpu": per_gpu,
        "checkpoint_cost": delta,
        "delta_over_mtbf": delta / mtbf,
        **{k: opt[k] for k in ("young_interval", "daly_interval", "optimal_interval", "waste_young",
                               "waste_daly", "waste_optimal", "young_vs_optimal", "young_extra_wall")},
        "efficiency_optimal": efficiency,
        "save_fraction_optimal": at_opt["save"],
        "lost_fraction_optimal": at_opt["lost"],
        "restart_fraction_optimal": at_opt["restart"],
        "gpu_hours_lost_per_day": gpus * (wall_opt - Ts) / HOUR * (86400.0 / Ts),
        "restart_factor": math.exp(R / mtbf),
        "efficiency_no_restart": float(efficiency_at_optimum(delta, mtbf, 0.0)),
        "restart_for_reported": r_reported,
        "restart_break_even": r_even,
        "mc_points": len(mc_tau),
        "mc_span": float(span),
        "mc_z_check": Z_CHECK,
        "mc_max_abs_z": float(np.max(np.abs(z))),
        "mc_max_rel_ci": float(np.max(ci / mc_analytic)),
        "mc_max_abs_z_immune_restarts": float(np.max(np.abs(z_immune))),
    }

    # worked problems
    slow_bw = checkpoint_bandwidth / slow_storage_factor
    slow_delta = checkpoint_cost(ckpt_bytes, slow_bw)
    slow = _optima(slow_delta, mtbf, R, Ts)
    slow_ratio = slow["optimal_interval"] / tau_opt
    check(abs(slow_ratio / math.sqrt(slow_storage_factor) - 1) < 0.05, "the optimum grows with √δ")
    check(slow["waste_optimal"] > opt["waste_optimal"], "slower storage: the waste rises")
    check(slow["young_vs_optimal"] > opt["young_vs_optimal"], "Daly's correction grows with δ/M")
    big = _optima(delta, mtbf / 2.0, R, Ts)
    big_ratio = big["optimal_interval"] / tau_opt
    big_shares = _shares(big["optimal_interval"], delta, mtbf / 2.0, R, Ts)
    check(abs(big_ratio * math.sqrt(2.0) - 1) < 0.05, "the optimum shrinks by about 1/√2")
    check(big["waste_optimal"] > opt["waste_optimal"], "double the cluster: the waste rises")
    check(big_shares["restart"] > big_shares["save"] + big_shares["lost"],
          "at this scale a shorter restart is worth more than a better interval")
    round_wall = float(wall_time(round_interval, delta, mtbf, R, Ts))
    round_parts = overhead_breakdown(round_interval, delta, mtbf, R, Ts)
    opt_parts = overhead_breakdown(tau_opt, delta, mtbf, R, Ts)
    extra_lost = float(round_parts["lost"] - opt_parts["lost"])
    check(extra_lost > round_wall - wall_opt > 0, "the cost of the round-number interval is mostly rework")
    problems = {
        "slow_storage": {"factor": float(slow_storage_factor), "bandwidth": slow_bw,
                         "checkpoint_cost": slow_delta, **slow, "interval_ratio": slow_ratio},
        "double_cluster": {"mtbf": mtbf / 2.0, **big, "interval_ratio": big_ratio,
                           "restart_share": big_shares["restart"],
                           "save_lost_share": big_shares["save"] + big_shares["lost"]},
        "round_interval": {
            "interval": float(round_interval),
            "waste": float(waste_fraction(round_interval, delta, mtbf, R, Ts)),
            "extra_wall_time": round_wall - wall_opt,
            "extra_gpu_hours_per_day": gpus * (round_wall - wall_opt) / HOUR * (86400.0 / Ts),
        },
    }

    series = {
        **curves("tau", tau_curve, wall_time=curve_wall, waste=1.0 - Ts / curve_wall,
                 save=parts["save"], lost=parts["lost"], restart=parts["restart"]),
        **curves("mc_tau", mc_tau, mc_mean=mc_mean, mc_se=mc_se, mc_ci95=ci, mc_analytic=mc_analytic,
                 mc_z=z),
        **curves("sweep_restart", r_dense, sweep_efficiency=[1 - d["save"] - d["lost"] - d["restart"]
                                                              for d in dense],
                 sweep_save=[d["save"] for d in dense], sweep_lost=[d["lost"] for d in dense],
                 sweep_restart_share=[d["restart"] for d in dense]),
    }

    animation = {
        "timeline": tl_blocks,
        "tradeoff": {"factor": float(tradeoff_factor), "tau": trade_tau.tolist(),
                     "wall_time": trade_wall.tolist(), "waste": trade_waste.tolist(),
                     "save": trade_parts["save"].tolist(), "lost": trade_parts["lost"].tolist(),
                     "restart": trade_parts["restart"].tolist()},
    }

    table = Table(
        f"Expected wall time for {fmt_seconds(Ts)} of useful compute versus checkpoint interval τ: "
        f"Daly's T_w(τ) against a seeded Monte Carlo of {trials:,} jobs per interval",
        [Column("interval τ", "s"), Column("segments", "count"), Column("T_w, Daly", "s"),
         Column("T_w, Monte Carlo mean", "s"), Column("95% CI half-width", "s"),
         Column("(MC − Daly) / SE", "1"), Column("waste 1 − T_s/T_w", "%")],
        [[float(t), int(n), float(a), float(m), float(c), float(zz), float(1.0 - Ts / a)]
         for t, n, a, m, c, zz in zip(mc_tau, n_seg, mc_analytic, mc_mean, ci, z, strict=True)],
    )
    return Exhibit(summary=summary, series=series, table=table, animation=animation,
                   problems=problems, records={"restart_sweep": sweep_rows})


__all__ = [
    "Z_CHECK", "BISECTION_STEPS", "MAX_EXPECTED_FAILURES", "MAX_COST_OVER_MTBF", "MAX_SEGMENTS", "BoundExceeded",
    "mean_time_between_interruptions", "interruption_rate", "checkpoint_bytes", "checkpoint_cost",
    "segment_time", "wall_time", "waste_fraction", "overhead_breakdown", "expected_failures",
    "young_interval", "daly_optimum", "optimal_interval",
    "efficiency_at_optimum", "restart_for_efficiency", "restart_break_even",
    "simulate_wall_times", "sample_timeline", "daly_interval",
]
