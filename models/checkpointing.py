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
equation), found here by bisection.

A seeded Monte Carlo walks the same job through random failures, vectorised
over trials, and must agree with T_w within its confidence interval.

Units: seconds, bytes, bytes per second (models/units.py).
"""

from __future__ import annotations

import math

import numpy as np

from models.units import HOUR

Z_CHECK = 3.0  # Monte Carlo agrees with the analytic model when |mean − T_w| ≤ Z_CHECK·SE

# --- the inputs, derived ----------------------------------------------------


def mean_time_between_interruptions(observation_window: float, interruptions: float) -> float:
    """Job-level MTBI M: the observed window divided by the interruptions in it."""
    if observation_window <= 0 or interruptions <= 0:
        raise ValueError("observation_window and interruptions must be positive")
    return observation_window / interruptions


def checkpoint_bytes(model_params: float, weight_bytes: float, optimizer_bytes: float) -> float:
    """Bytes of one full training checkpoint: 16-bit weights plus optimizer states.

    Mixed-precision Adam keeps 2Ψ (weights) + 2Ψ (gradients) + 12Ψ (fp32
    weights, momentum, variance) bytes (ZeRO §3.1); a checkpoint needs all of
    it except the gradients, which the next step recomputes: 14 bytes/param.
    """
    return model_params * (weight_bytes + optimizer_bytes)


def checkpoint_cost(nbytes: float, bandwidth: float) -> float:
    """δ: seconds to write `nbytes` at an aggregate write bandwidth (B/s)."""
    if bandwidth <= 0:
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
    """Daly's expected wall-clock time T_w(τ) for `work` seconds of compute."""
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


def optimal_interval(delta, mtbf, iterations: int = 200):
    """The exact minimiser of T_w(τ) (independent of R and T_s).

    dT_w/dτ = 0 gives (1 − x)·e^x = e^{−δ/M} with x = τ/M, i.e.
    x = 1 + W₀(−e^{−1−δ/M}). h(x) = expm1(x) − x·e^x − expm1(−δ/M) falls
    monotonically from h(0) > 0 to h(1) < 0, so bisection on (0, 1) is safe;
    expm1 keeps precision when δ ≪ M.
    """
    d = np.asarray(delta, dtype=float) / np.asarray(mtbf, dtype=float)
    lo = np.zeros_like(d)
    hi = np.ones_like(d)
    target = np.expm1(-d)
    for _ in range(iterations):
        mid = 0.5 * (lo + hi)
        h = np.expm1(mid) - mid * np.exp(mid) - target
        lo = np.where(h > 0, mid, lo)
        hi = np.where(h > 0, hi, mid)
    out = 0.5 * (lo + hi) * mtbf
    return float(out) if np.ndim(out) == 0 else out


# --- the Monte Carlo ----------------------------------------------------------


def simulate_wall_times(n_segments: int, tau: float, delta: float, mtbf: float,
                        restart: float, trials: int, rng: np.random.Generator) -> dict:
    """Walk `trials` copies of the job through random failures; per-trial totals.

    Vectorised over trials; the loop runs once per failure, not per segment:
    from each (re)start, draw the time X to the next failure; floor(X / L)
    whole segments complete before it; if the job is not done, the segment
    in progress is lost (X minus the completed segments) and a restart
    follows, itself repeated while failures (fresh Exp(M) draws, memoryless)
    strike before R elapses. Returns wall, lost and restart time per trial.
    """
    length = tau + delta
    remaining = np.full(trials, n_segments, dtype=np.int64)
    wall = np.zeros(trials)
    lost = np.zeros(trials)
    restarting = np.zeros(trials)
    failures = np.zeros(trials, dtype=np.int64)
    active = np.arange(trials)
    while active.size:
        x = rng.exponential(mtbf, size=active.size)
        k = np.floor(x / length).astype(np.int64)
        done = k >= remaining[active]
        fin = active[done]
        wall[fin] += remaining[fin] * length
        remaining[fin] = 0
        hit = active[~done]
        xs, ks = x[~done], k[~done]
        wall[hit] += xs
        lost[hit] += xs - ks * length
        remaining[hit] -= ks
        failures[hit] += 1
        pending = hit
        while pending.size:  # restarts, which failures may also interrupt
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
                    rng: np.random.Generator, margin: int = 3,
                    max_draws: int = 10_000) -> tuple[list[dict], int]:
    """One job's timeline, event by event, for the animation.

    Failures are one Poisson process on the wall clock. Paths are drawn until
    one has its first failure after `margin` checkpoints and at least
    `margin` segments before the end, so that a rollback to a checkpoint can
    be shown (an illustration, and stated as such); returns the blocks and
    how many paths were drawn.
    Block: kind (compute | rework | save | restart | failure), start, end,
    work_start, work_end (useful compute done, s), lost (thrown away).
    """
    for draw in range(1, max_draws + 1):
        blocks: list[dict] = []
        t = 0.0
        next_fail = rng.exponential(mtbf)
        seg = 0
        redo = 0.0  # compute of the current segment already done once and lost
        nfail = 0
        while seg < n_segments:
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
            for b in blocks[attempt:]:
                b["lost"] = True
            t = next_fail
            while True:  # a restart that a further failure can interrupt
                nfail += 1
                blocks.append(_block("failure", t, t, base, base, True))
                next_fail = t + rng.exponential(mtbf)
                if next_fail < t + restart:
                    blocks.append(_block("restart", t, next_fail, base, base, True))
                    t = next_fail
                    continue
                blocks.append(_block("restart", t, t + restart, base, base, False))
                t += restart
                break
        first = next((b for b in blocks if b["kind"] == "failure"), None)
        if first is not None and margin * tau <= first["work_start"] <= (n_segments - margin) * tau:
            return blocks, draw
    raise RuntimeError("no failure in any sampled timeline; lengthen the illustrative job")


def _block(kind, start, end, w0, w1, lost) -> dict:
    return {"kind": kind, "start": float(start), "end": float(end),
            "work_start": float(w0), "work_end": float(w1), "lost": bool(lost)}


# --- the scene's data ---------------------------------------------------------


def _optima(delta: float, mtbf: float, restart: float, work: float) -> dict:
    """τ_Y, τ_D, τ* and the wall time and waste at each."""
    taus = {"young": float(young_interval(delta, mtbf)),
            "daly": float(daly_optimum(delta, mtbf)),
            "optimal": float(optimal_interval(delta, mtbf))}
    out = {}
    for name, tau in taus.items():
        out[f"{name}_interval"] = tau
        out[f"wall_time_{name}"] = float(wall_time(tau, delta, mtbf, restart, work))
        out[f"waste_{name}"] = float(waste_fraction(tau, delta, mtbf, restart, work))
    out["young_vs_optimal"] = taus["young"] / taus["optimal"] - 1.0
    out["young_extra_wall"] = out["wall_time_young"] - out["wall_time_optimal"]
    return out


def daly_interval(observation_window: float, interruptions: float, model_params: float,
                  weight_bytes: float, optimizer_bytes: float, checkpoint_bandwidth: float,
                  restart_cost: float, work: float, gpus: float, seed: int,
                  reported_efficiency: float | None = None, trials: int = 40_000,
                  mc_points: int = 12, span: float = 10.0,
                  timeline_segments: int = 12, slow_storage_factor: float = 10.0,
                  tradeoff_factor: float = 10.0) -> dict:
    """Scene 10's data: Daly's T_w(τ), the three optima and a seeded Monte Carlo.

    observation_window, interruptions: the job-level failure record (→ M).
    model_params, weight_bytes, optimizer_bytes, checkpoint_bandwidth: → δ.
    restart_cost R (s); work T_s (s of useful compute); gpus (for GPU-hours);
    reported_efficiency: a published effective-training-time to compare with.
    The Monte Carlo runs `trials` jobs at `mc_points` intervals τ = T_s/n
    (whole numbers of segments, where Daly's T_s/τ is exact), log-spaced over
    τ*/span … τ*·span.
    """
    rng = np.random.default_rng(seed)
    mtbf = mean_time_between_interruptions(observation_window, interruptions)
    ckpt_bytes = checkpoint_bytes(model_params, weight_bytes, optimizer_bytes)
    delta = checkpoint_cost(ckpt_bytes, checkpoint_bandwidth)
    R, Ts = float(restart_cost), float(work)
    opt = _optima(delta, mtbf, R, Ts)
    tau_opt = opt["optimal_interval"]

    # analytic curve and its breakdown
    tau_curve = tau_opt * np.logspace(-math.log10(30), math.log10(30), 241)
    tau_curve = tau_curve[tau_curve < Ts]
    curve_wall = wall_time(tau_curve, delta, mtbf, R, Ts)
    parts = overhead_breakdown(tau_curve, delta, mtbf, R, Ts)

    # Monte Carlo at whole numbers of segments
    targets = tau_opt * np.logspace(-math.log10(span), math.log10(span), mc_points)
    n_seg = np.unique(np.maximum(1, np.round(Ts / targets)).astype(int))[::-1]
    mc_tau, mc_mean, mc_se, mc_lost, mc_restart, mc_fail = [], [], [], [], [], []
    for n in n_seg:
        tau = Ts / n
        sim = simulate_wall_times(int(n), tau, delta, mtbf, R, trials, rng)
        mc_tau.append(tau)
        mc_mean.append(sim["wall"].mean())
        mc_se.append(sim["wall"].std(ddof=1) / math.sqrt(trials))
        mc_lost.append(sim["lost"].mean())
        mc_restart.append(sim["restart"].mean())
        mc_fail.append(sim["failures"].mean())
    mc_tau, mc_mean, mc_se = np.array(mc_tau), np.array(mc_mean), np.array(mc_se)
    mc_analytic = wall_time(mc_tau, delta, mtbf, R, Ts)
    z = (mc_mean - mc_analytic) / mc_se
    # the same check against a model whose restarts cannot fail: (M + R) for M·e^{R/M}
    immune = Ts / mc_tau * (mtbf + R) * np.expm1((mc_tau + delta) / mtbf)
    z_immune = (mc_mean - immune) / mc_se
    ci = 1.96 * mc_se

    # one illustrative timeline near the optimum
    tl_blocks, tl_draws = sample_timeline(timeline_segments, tau_opt, delta, mtbf, R, rng)
    p_failure = -math.expm1(-timeline_segments * (tau_opt + delta) / mtbf)

    # the trade-off at τ*/f, τ*, τ*·f
    trade_tau = np.array([tau_opt / tradeoff_factor, tau_opt, tau_opt * tradeoff_factor])
    trade_parts = overhead_breakdown(trade_tau, delta, mtbf, R, Ts)
    trade_wall = wall_time(trade_tau, delta, mtbf, R, Ts)

    at_opt = overhead_breakdown(tau_opt, delta, mtbf, R, Ts)
    wall_opt = opt["wall_time_optimal"]
    hourly = 1.0 * HOUR

    summary = {
        "mtbf": mtbf,
        "observation_window": float(observation_window),
        "interruptions": float(interruptions),
        "model_params": float(model_params),
        "bytes_per_param": float(weight_bytes + optimizer_bytes),
        "checkpoint_bytes": ckpt_bytes,
        "checkpoint_bytes_per_gpu": ckpt_bytes / gpus,
        "checkpoint_bandwidth": float(checkpoint_bandwidth),
        "checkpoint_cost": delta,
        "restart_cost": R,
        "work": Ts,
        "gpus": float(gpus),
        "delta_over_mtbf": delta / mtbf,
        **opt,
        "daly_vs_optimal": opt["daly_interval"] / tau_opt - 1.0,
        "young_wall_excess": opt["wall_time_young"] / wall_opt - 1.0,
        "efficiency_optimal": 1.0 - opt["waste_optimal"],
        "save_fraction_optimal": float(at_opt["save"]) / wall_opt,
        "lost_fraction_optimal": float(at_opt["lost"]) / wall_opt,
        "restart_fraction_optimal": float(at_opt["restart"]) / wall_opt,
        "failures_per_job_optimal": float(at_opt["failures"]),
        "overhead_optimal": wall_opt - Ts,
        "gpu_hours_lost_per_day": gpus * (wall_opt - Ts) / HOUR * (86400.0 / Ts),
        "restart_factor": math.exp(R / mtbf),
        "mc_trials": float(trials),
        "mc_points": float(len(mc_tau)),
        "mc_span": float(span),
        "mc_z_check": Z_CHECK,
        "mc_max_abs_z": float(np.max(np.abs(z))),
        "mc_max_rel_error": float(np.max(np.abs(mc_mean / mc_analytic - 1.0))),
        "mc_max_rel_ci": float(np.max(ci / mc_analytic)),
        "mc_max_abs_z_immune_restarts": float(np.max(np.abs(z_immune))),
        "reported_efficiency": (float(reported_efficiency) if reported_efficiency is not None
                                else None),
        "timeline_segments": float(timeline_segments),
        "timeline_interval": tau_opt,
        "timeline_draws": float(tl_draws),
        "timeline_failure_probability": p_failure,
        "timeline_failures": float(sum(b["kind"] == "failure" for b in tl_blocks)),
        "timeline_wall": tl_blocks[-1]["end"],
        "tradeoff_factor": float(tradeoff_factor),
    }

    # worked problems
    slow_bw = checkpoint_bandwidth / slow_storage_factor
    slow_delta = checkpoint_cost(ckpt_bytes, slow_bw)
    slow = _optima(slow_delta, mtbf, R, Ts)
    big = _optima(delta, mtbf / 2.0, R, Ts)
    hourly_waste = float(waste_fraction(hourly, delta, mtbf, R, Ts))
    hourly_wall = float(wall_time(hourly, delta, mtbf, R, Ts))
    problems = {
        "slow_storage": {
            "factor": float(slow_storage_factor), "bandwidth": slow_bw,
            "checkpoint_cost": slow_delta, **slow,
            "interval_ratio": slow["optimal_interval"] / tau_opt,
        },
        "double_cluster": {
            "mtbf": mtbf / 2.0, **big,
            "interval_ratio": big["optimal_interval"] / tau_opt,
        },
        "hourly": {
            "interval": hourly, "waste": hourly_waste, "wall_time": hourly_wall,
            "extra_wall_time": hourly_wall - wall_opt,
            "extra_gpu_hours_per_day": gpus * (hourly_wall - wall_opt) / HOUR * (86400.0 / Ts),
        },
    }

    series = {
        "curve": {
            "tau": tau_curve, "wall_time": curve_wall, "waste": 1.0 - Ts / curve_wall,
            "save": parts["save"], "lost": parts["lost"], "restart": parts["restart"],
        },
        "mc": {
            "tau": mc_tau, "segments": n_seg.astype(float), "mean": mc_mean, "se": mc_se,
            "ci95": ci, "analytic": mc_analytic, "z": z,
            "lost": np.array(mc_lost), "restart": np.array(mc_restart),
            "failures": np.array(mc_fail),
        },
        "tradeoff": {
            "tau": trade_tau, "wall_time": trade_wall, "waste": 1.0 - Ts / trade_wall,
            "save": trade_parts["save"], "lost": trade_parts["lost"],
            "restart": trade_parts["restart"], "failures": trade_parts["failures"],
        },
        "timeline": tl_blocks,
    }

    table = {
        "caption": (f"Expected wall time for {Ts / HOUR:g} h of useful compute versus checkpoint "
                    f"interval τ: Daly's T_w(τ) against a seeded Monte Carlo of {trials:,} jobs "
                    "per interval"),
        "columns": [
            {"name": "interval τ", "unit": "s"},
            {"name": "segments", "unit": "count"},
            {"name": "T_w, Daly", "unit": "s"},
            {"name": "T_w, Monte Carlo mean", "unit": "s"},
            {"name": "95% CI half-width", "unit": "s"},
            {"name": "(MC − Daly) / SE", "unit": "1"},
            {"name": "waste 1 − T_s/T_w", "unit": "%"},
        ],
        "rows": [
            [float(t), int(n), float(a), float(m), float(c), float(zz), float(1.0 - Ts / a)]
            for t, n, a, m, c, zz in zip(mc_tau, n_seg, mc_analytic, mc_mean, ci, z, strict=True)
        ],
    }
    param_units = {"observation_window": "s", "interruptions": "count", "model_params": "count",
                   "work": "s", "gpus": "count", "seed": "1", "trials": "count"}
    return {"summary": summary, "series": series, "problems": problems, "table": table,
            "param_units": param_units}
