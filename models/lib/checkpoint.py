"""Young/Daly: how often a job that fails should save its state, and what the failures cost.

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
(`restart_for_efficiency`).

A seeded Monte Carlo (`simulate_wall_times`) walks the same job through
random failures, vectorised over trials; `sample_timeline` draws one job's
path event by event. Every loop here is bounded by construction: the
bisection runs a fixed number of steps, and the simulations refuse
(BoundExceeded) a job whose expected failure count is beyond their budget,
and stop with the same error if a sampled path ever exceeds it.

Units: seconds, bytes, bytes per second (models/units.py).
"""

from __future__ import annotations

import math

import numpy as np

from models.lib.memo import pure

Z_CHECK = 3.0  # Monte Carlo agrees with the analytic model when |mean − T_w| ≤ Z_CHECK·SE
BISECTION_STEPS = 100  # halves (0, 1) past float64 precision (2^-53) with room to spare
MAX_EXPECTED_FAILURES = 10_000  # per simulated job: beyond this the job barely progresses
MAX_COST_OVER_MTBF = 50.0  # δ/M and R/M above this: e^50 attempts per segment, no job finishes


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


@pure  # 100 bisection steps per call; the drain grids and the range test ask for the same (δ, M) again and again
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


def efficiency_with_planned(efficiency, restart, planned_rate: float):
    """The useful share once planned stops, `planned_rate` per second of wall time, take one restart R
    each and lose no work (a checkpoint can precede a scheduled stop): E·(1 − P·R/W), first order."""
    return efficiency * (1.0 - planned_rate * np.asarray(restart, dtype=float))


def restart_for_efficiency_with_planned(target: float, delta: float, mtbf: float, planned_rate: float) -> float:
    """The longest restart R (s) for which E₀·e^(−R/M)·(1 − P·R/W) still reaches `target`, the planned
    stops (P in a window W, `planned_rate` = P/W) costing one R each.

    Bisection over [0, M·ln(E₀/target)]: the share falls monotonically with R, and the limit without
    planned stops (`restart_for_efficiency`) bounds it from above; equal to it when planned_rate is 0.
    Negative (that bound) when even R = 0 falls short.
    """
    if planned_rate < 0:
        raise ValueError("planned_rate must be at least 0")
    hi = restart_for_efficiency(target, delta, mtbf)
    if hi <= 0.0 or planned_rate == 0:
        return hi
    e0 = float(efficiency_at_optimum(delta, mtbf, 0.0))
    lo = 0.0
    for _ in range(2 * BISECTION_STEPS):
        mid = 0.5 * (lo + hi)
        if float(efficiency_with_planned(e0 * math.exp(-mid / mtbf), mid, planned_rate)) >= target:
            lo = mid
        else:
            hi = mid
    return lo


def restart_break_even(tau: float, delta: float, mtbf: float) -> float:
    """The restart R (s) at which restarts cost as much as checkpoint writes and rework together.

    Per segment: f·M·(e^{R/M} − 1) = δ + f·M − L with f = e^{L/M} − 1, so
    R = M·ln(1 + (δ + f·M − L)/(f·M)). Above it, restarts are most of the loss.
    """
    length = tau + delta
    f = math.expm1(length / mtbf)
    return mtbf * math.log1p((delta + f * mtbf - length) / (f * mtbf))


# --- the Monte Carlo ----------------------------------------------------------


def z_scores(mean, reference, se):
    """(mean − reference) / SE at each simulated point, 0 where SE is 0, and which points test anything.

    A point at which no trial drew a failure has no spread (SE 0): its simulation equals the failure-free
    time and tests nothing, so its z is 0 and a check reads only the tested points (none at a tiny rate)."""
    mean, reference, se = (np.asarray(x, dtype=float) for x in (mean, reference, se))
    tested = se > 0
    return np.divide(mean - reference, se, out=np.zeros_like(mean), where=tested), tested


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
