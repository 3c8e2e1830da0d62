"""Daly's formula: how often should a big job save its state?

The scene's data. The maths (Daly's expected wall time T_w(τ), Young's,
Daly's and the exact optimum interval, efficiency versus the restart time R,
the bounded Monte Carlo and one sampled timeline) lives in
models/lib/checkpoint.py, which other scenes call too; this module puts it
to work on one job: the T_w(τ) curve and its breakdown, a seeded Monte Carlo
that must agree with T_w within its confidence interval at every interval
tested, the trade-off at τ*/f, τ* and f·τ*, and a sweep over R. The scene
sweeps R because its value here is an assumption (Daly's HPC example), not a
Llama 3 measurement. The entry point is `daly_interval`.

Units: seconds, bytes, bytes per second (models/units.py).
"""

from __future__ import annotations

import math

import numpy as np

from models import scenario_facts
from models.exhibit import Column, Exhibit, Param, ParamError, Table, check, curves, model
from models.lib.checkpoint import (
    MAX_COST_OVER_MTBF,
    Z_CHECK,
    checkpoint_bytes,
    checkpoint_cost,
    daly_optimum,
    efficiency_at_optimum,
    efficiency_with_planned,
    mean_time_between_interruptions,
    optimal_interval,
    overhead_breakdown,
    restart_break_even,
    sample_timeline,
    simulate_wall_times,
    wall_time,
    waste_fraction,
    young_interval,
    z_scores,
)
from models.units import HOUR, fmt_seconds

MAX_SEGMENTS = 1_000_000  # segments per simulated job at the shortest interval the Monte Carlo tests


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
    checkpoint_bandwidth=Param.positive("B/s", "checkpoint write bandwidth, aggregate (the storage throughput, "
                                               "used as the write rate)"),
    restart_cost=Param.number("s", "restart time R (assumed)", minimum=0),
    restart_sweep=Param.numbers("s", "restart times R compared", minimum=0),
    work=Param.positive("s", "useful compute Tₛ"),
    gpus=Param.integer("count", "GPUs in the job"),
    # above 0: at an efficiency of 0 no restart time is long enough to explain it (the inversion divides by it)
    reported_efficiency=Param.number("1", "reported effective training time", above=0.0, maximum=1.0),
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
    checkpoints_kept=Param.integer("count", "checkpoints kept on storage (assumed retention)", minimum=1),
    storage_capacity=Param.positive("B", "capacity of the storage the checkpoints are written to"),
    planned_interruptions=Param.integer("count", "planned interruptions in the record, left out of M",
                                        minimum=0),
)
def daly_interval(observation_window: float, interruptions: float, model_params: float,
                  weight_bytes: float, optimizer_bytes: float, checkpoint_bandwidth: float,
                  restart_cost: float, restart_sweep: list, work: float, gpus: float,
                  reported_efficiency: float, reported_checkpoint_min: float,
                  reported_checkpoint_max: float, seed: int, trials: int = 40_000,
                  mc_points: int = 12, span: float = 10.0, timeline_segments: int = 12,
                  slow_storage_factor: float = 10.0, round_interval: float = HOUR,
                  tradeoff_factor: float = 10.0, checkpoints_kept: int = 2,
                  storage_capacity: float = math.inf, planned_interruptions: int = 0) -> Exhibit:
    """The scene's data: Daly's T_w(τ), the three optima, a seeded Monte Carlo and a sweep over R.

    observation_window, interruptions: the job-level failure record (→ M).
    model_params, weight_bytes, optimizer_bytes, checkpoint_bandwidth: → δ.
    restart_cost R (s), an assumption, and restart_sweep, the values of R
    compared; work T_s (s of useful compute); gpus (for GPU-hours);
    reported_*: the published effective training time and per-GPU checkpoint
    range the page compares with. The Monte Carlo runs `trials` jobs at
    `mc_points` intervals τ = T_s/n (whole numbers of segments, where Daly's
    T_s/τ is exact), log-spaced over τ*/span … τ*·span. checkpoints_kept (an
    assumption) and storage_capacity: what the optimum interval writes and keeps;
    planned_interruptions: scheduled stops the record counts apart, not in M.
    """
    rng = np.random.default_rng(seed)
    mtbf = mean_time_between_interruptions(observation_window, interruptions)
    ckpt_bytes = checkpoint_bytes(model_params, weight_bytes, optimizer_bytes)
    delta = checkpoint_cost(ckpt_bytes, checkpoint_bandwidth)
    R, Ts = float(restart_cost), float(work)
    _check_costs(delta, mtbf, R, restart_sweep, interruptions)
    opt = _optima(delta, mtbf, R, Ts)
    tau_opt = opt["optimal_interval"]
    _check_work(work, span, tau_opt)

    curve = _wall_time_curve(tau_opt, delta, mtbf, R, Ts)
    mc = _monte_carlo(tau_opt, delta, mtbf, R, Ts, span, mc_points, trials, rng)
    # one illustrative timeline near the optimum
    tl_blocks = sample_timeline(timeline_segments, tau_opt, delta, mtbf, R, rng)
    trade = _tradeoff(tau_opt, tradeoff_factor, delta, mtbf, R, Ts)
    planned_rate = int(planned_interruptions) / float(observation_window)  # planned stops per second
    # the R the reported share allows, with the planned stops and without: computed once for every scene
    # that quotes it (models/scenario_facts.py)
    limits = scenario_facts.restart_limits(reported_efficiency, delta, mtbf, int(planned_interruptions),
                                           float(observation_window))
    sweep = _restart_sweep(restart_sweep, reported_efficiency, limits, tau_opt, delta, mtbf, R, Ts, planned_rate)

    at_opt = _shares(tau_opt, delta, mtbf, R, Ts)
    wall_opt = float(wall_time(tau_opt, delta, mtbf, R, Ts))
    efficiency = 1.0 - opt["waste_optimal"]
    state = scenario_facts.checkpoint_state(model_params, weight_bytes, optimizer_bytes, gpus)
    per_gpu = state["checkpoint_bytes_per_gpu"]
    _check_claims(opt, at_opt, sweep, efficiency, per_gpu, R, Ts, reported_efficiency,
                  reported_checkpoint_min, reported_checkpoint_max)
    summary = _summary(opt, at_opt, sweep, mc, mtbf, ckpt_bytes, per_gpu, delta, efficiency, wall_opt,
                       weight_bytes + optimizer_bytes, gpus, R, Ts, span)
    summary.update(_volume(tau_opt, ckpt_bytes, int(checkpoints_kept), float(storage_capacity),
                           float(observation_window), int(planned_interruptions), R, efficiency))
    problems = _worked_problems(opt, ckpt_bytes, checkpoint_bandwidth, slow_storage_factor, round_interval,
                                wall_opt, delta, mtbf, R, Ts, gpus)
    return Exhibit(summary=summary, series=_series(curve, mc, sweep, Ts), table=_table(mc, Ts, trials),
                   animation={"timeline": tl_blocks, "tradeoff": trade}, problems=problems,
                   records={"restart_sweep": sweep["rows"], scenario_facts.RECORD: scenario_facts.published(
                       **state, restart_for_reported=sweep["r_reported"],
                       restart_for_reported_unplanned=sweep["r_reported_unplanned"])})


# --- the recipe's steps --------------------------------------------------------


def _check_costs(delta: float, mtbf: float, R: float, restart_sweep: list, interruptions: float) -> None:
    """Refuse a δ or an R so large against M that no job (or no restart) ever finishes."""
    # beyond e^50 a job of this kind never finishes (and e^{L/M} overflows past e^709)
    if delta > MAX_COST_OVER_MTBF * mtbf:
        raise ParamError("interruptions", interruptions, f"few enough that M ≥ δ/{MAX_COST_OVER_MTBF:g} "
                         f"(δ = {delta:.4g} s, M = {mtbf:.4g} s): no job finishes otherwise")
    for name, r in (("restart_cost", R), *(("restart_sweep", float(v)) for v in restart_sweep)):
        if r > MAX_COST_OVER_MTBF * mtbf:
            raise ParamError(name, r, f"at most {MAX_COST_OVER_MTBF:g}·M = {MAX_COST_OVER_MTBF * mtbf:.4g} s "
                             "(no restart completes otherwise)")


def _check_work(work: float, span: float, tau_opt: float) -> None:
    """The Monte Carlo intervals must hold whole segments, and no more than it can simulate."""
    Ts = float(work)
    if not span * tau_opt <= Ts <= MAX_SEGMENTS * tau_opt / span:
        raise ParamError("work", work, f"between span·τ* = {span * tau_opt:.4g} s and "
                         f"{MAX_SEGMENTS:,}·τ*/span = {MAX_SEGMENTS * tau_opt / span:.4g} s, so the Monte Carlo "
                         "intervals hold whole segments and no more than it can simulate")


def _wall_time_curve(tau_opt: float, delta: float, mtbf: float, R: float, Ts: float) -> dict:
    """T_w(τ) and its breakdown over τ*/30 … 30·τ* (intervals shorter than the job)."""
    tau_curve = tau_opt * np.logspace(-math.log10(30), math.log10(30), 241)
    tau_curve = tau_curve[tau_curve < Ts]
    curve_wall = wall_time(tau_curve, delta, mtbf, R, Ts)
    parts = overhead_breakdown(tau_curve, delta, mtbf, R, Ts)
    i_min = int(np.argmin(curve_wall))
    i_min_r0 = int(np.argmin(wall_time(tau_curve, delta, mtbf, 0.0, 2.0 * Ts)))
    check(i_min == i_min_r0, "R and T_s scale T_w without moving its minimum")
    return {"tau": tau_curve, "wall": curve_wall, "parts": parts}


def _monte_carlo(tau_opt: float, delta: float, mtbf: float, R: float, Ts: float, span: float,
                 mc_points: int, trials: int, rng: np.random.Generator) -> dict:
    """The seeded Monte Carlo at whole numbers of segments, and its agreement with T_w.

    Intervals τ = T_s/n, log-spaced over τ*/span … τ*·span; the same check must reject a model in
    which restarts cannot fail.
    """
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
    z, tested = z_scores(mc_mean, mc_analytic, mc_se)
    # the same check against a model whose restarts cannot fail: (M + R) for M·e^{R/M}
    immune = Ts / mc_tau * (mtbf + R) * np.expm1((mc_tau + delta) / mtbf)
    z_immune, _ = z_scores(mc_mean, immune, mc_se)
    ci = 1.96 * mc_se
    check(bool(np.any(tested)) and np.all(np.abs(z[tested]) <= Z_CHECK),
          "a seeded Monte Carlo agrees with the formula at every interval tested")
    check(R == 0 or (bool(np.any(tested)) and np.max(np.abs(z_immune[tested])) > Z_CHECK),
          "the check can fail: a model in which restarts cannot fail misses the simulation")
    return {"n_seg": n_seg, "tau": mc_tau, "mean": mc_mean, "se": mc_se, "analytic": mc_analytic, "z": z,
            "z_immune": z_immune, "ci": ci}


def _tradeoff(tau_opt: float, factor: float, delta: float, mtbf: float, R: float, Ts: float) -> dict:
    """The animation's trade-off bars at τ*/f, τ*, τ*·f."""
    trade_tau = np.array([tau_opt / factor, tau_opt, tau_opt * factor])
    trade_parts = overhead_breakdown(trade_tau, delta, mtbf, R, Ts)
    trade_wall = wall_time(trade_tau, delta, mtbf, R, Ts)
    trade_waste = 1.0 - Ts / trade_wall
    check(trade_parts["save"][0] > trade_parts["save"][1] and trade_parts["lost"][2] > trade_parts["lost"][1]
          and trade_waste[1] < min(trade_waste[0], trade_waste[2]),
          "save too often and writes pile up; too rarely and rework does")
    return {"factor": float(factor), "tau": trade_tau.tolist(),
            "wall_time": trade_wall.tolist(), "waste": trade_waste.tolist(),
            "save": trade_parts["save"].tolist(), "lost": trade_parts["lost"].tolist(),
            "restart": trade_parts["restart"].tolist()}


def _restart_sweep(restart_sweep: list, reported_efficiency: float, limits: dict, tau_opt: float, delta: float,
                   mtbf: float, R: float, Ts: float, planned_rate: float = 0.0) -> dict:
    """The restart time is an assumption, so sweep it: rows at the values compared, a dense curve,
    the R the reported share allows (with the planned stops at one R each, and without them) and
    the break-even R."""
    r_unplanned, r_reported = limits["restart_for_reported_unplanned"], limits["restart_for_reported"]
    r_even = restart_break_even(tau_opt, delta, mtbf)
    sweep = sorted(set(float(r) for r in restart_sweep) | {R})
    sweep_rows = []
    for r in sweep:
        sh = _shares(tau_opt, delta, mtbf, r, Ts)
        eff = float(efficiency_at_optimum(delta, mtbf, r))
        eff_planned = float(efficiency_with_planned(eff, r, planned_rate))
        sweep_rows.append({"restart": r, "efficiency": eff, "efficiency_with_planned": eff_planned,
                           "save": sh["save"], "lost": sh["lost"], "restart_share": sh["restart"],
                           "above_reported": bool(eff_planned >= reported_efficiency),
                           "assumed": r == R})
    r_lo, r_hi = max(min(sweep), mtbf * 1e-4), max(max(sweep), 2 * r_unplanned, 2 * R)
    r_dense = np.logspace(math.log10(r_lo), math.log10(r_hi), 121)
    dense = [_shares(tau_opt, delta, mtbf, r, Ts) for r in r_dense]
    for r, d in zip(r_dense, dense, strict=True):
        d["with_planned"] = float(efficiency_with_planned(1.0 - d["save"] - d["lost"] - d["restart"], float(r),
                                                          planned_rate))
    return {"rows": sweep_rows, "r_dense": r_dense, "dense": dense, "r_reported": r_reported,
            "r_reported_unplanned": r_unplanned, "r_even": r_even}


def _check_claims(opt: dict, at_opt: dict, sweep: dict, efficiency: float, per_gpu: float, R: float, Ts: float,
                  reported_efficiency: float, reported_checkpoint_min: float,
                  reported_checkpoint_max: float) -> None:
    """The worded claims on the page and in the scene."""
    tau_opt, sweep_rows = opt["optimal_interval"], sweep["rows"]
    check(fmt_seconds(opt["daly_interval"]) == fmt_seconds(tau_opt),
          "Daly's formula gives the exact minimum of the expected wall time to the digits shown")
    check(opt["young_interval"] > tau_opt, "Young's interval is too long")
    check(opt["young_extra_wall"] < 1e-4 * Ts, "the wall-time curve is flat at its minimum")
    check(at_opt["restart"] > at_opt["save"] + at_opt["lost"],
          "most of that loss is restarts (with R as assumed)")
    check(sweep["r_even"] < R, "restarts are the largest loss only above the break-even R")
    check(efficiency >= reported_efficiency,
          "the useful time is in line with the report's effective training time")
    check(sweep["r_reported"] > R, "the useful time stays above the reported share while R is below the limit")
    check(sweep["r_reported"] <= sweep["r_reported_unplanned"],
          "the planned stops lower the R that reaches the reported share")
    check(any(not row["above_reported"] for row in sweep_rows) and any(row["above_reported"] for row in sweep_rows),
          "the restart times compared fall on both sides of the reported share")
    check(reported_checkpoint_min <= per_gpu <= reported_checkpoint_max,
          "the per-GPU checkpoint is inside the range the Llama 3 report gives")


def _summary(opt: dict, at_opt: dict, sweep: dict, mc: dict, mtbf: float, ckpt_bytes: float, per_gpu: float,
             delta: float, efficiency: float, wall_opt: float, bytes_per_param: float, gpus: float, R: float,
             Ts: float, span: float) -> dict:
    """The numbers the page and the scene quote."""
    return {
        "mtbf": mtbf,
        "bytes_per_param": float(bytes_per_param),
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
        "restart_for_reported": sweep["r_reported"],
        "restart_for_reported_unplanned": sweep["r_reported_unplanned"],
        "restart_break_even": sweep["r_even"],
        "mc_points": len(mc["tau"]),
        "mc_span": float(span),
        "mc_z_check": Z_CHECK,
        "mc_max_abs_z": float(np.max(np.abs(mc["z"]))),
        "mc_max_rel_ci": float(np.max(mc["ci"] / mc["analytic"])),
        "mc_max_abs_z_immune_restarts": float(np.max(np.abs(mc["z_immune"]))),
    }


def _volume(tau_opt: float, ckpt_bytes: float, kept: int, capacity: float, window: float, planned: int,
            R: float, efficiency: float) -> dict:
    """What the optimum interval writes in a day of useful compute (and in a wall-clock day), what
    retention keeps, and the planned stops the failure record leaves out of M.

    Planned stops are scheduled: a checkpoint can precede each, so each costs a restart and no
    rework, P·R over the window (a first-order estimate, one restart per stop).
    """
    per_day = 86400.0 / tau_opt
    written = per_day * ckpt_bytes
    kept_bytes = kept * ckpt_bytes
    planned_share = planned * R / window
    check(kept_bytes < capacity, "the checkpoints kept fit in the storage")
    check(written * 30 < capacity < written * 1000,
          "a day of checkpoints is a small share of the storage, but keeping every one fills it in months")
    return {
        "checkpoints_per_day": per_day,
        "checkpoint_bytes_per_day": written,
        # the same per wall-clock day: a wall-clock day holds T_s/T_w of a day of useful compute
        "checkpoint_bytes_per_wall_day": written * efficiency,
        "checkpoints_kept": float(kept),
        "checkpoint_bytes_kept": kept_bytes,
        "kept_share_of_storage": kept_bytes / capacity,
        "days_to_fill_storage": capacity / written,
        "storage_capacity": capacity,
        "planned_interruptions": float(planned),
        "planned_restart_share": planned_share,
        "efficiency_with_planned": efficiency * (1.0 - planned_share),
    }


def _worked_problems(opt: dict, ckpt_bytes: float, checkpoint_bandwidth: float, slow_storage_factor: float,
                     round_interval: float, wall_opt: float, delta: float, mtbf: float, R: float, Ts: float,
                     gpus: float) -> dict:
    """Slower storage, a cluster twice the size, and a round-number interval, each with its claims."""
    tau_opt = opt["optimal_interval"]
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
    return {
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


def _series(curve: dict, mc: dict, sweep: dict, Ts: float) -> dict:
    """The figures' curves: T_w(τ) and its parts, the Monte Carlo points, the dense sweep over R."""
    parts, dense = curve["parts"], sweep["dense"]
    return {
        **curves("tau", curve["tau"], wall_time=curve["wall"], waste=1.0 - Ts / curve["wall"],
                 save=parts["save"], lost=parts["lost"], restart=parts["restart"]),
        **curves("mc_tau", mc["tau"], mc_mean=mc["mean"], mc_se=mc["se"], mc_ci95=mc["ci"],
                 mc_analytic=mc["analytic"], mc_z=mc["z"]),
        **curves("sweep_restart", sweep["r_dense"], sweep_efficiency=[1 - d["save"] - d["lost"] - d["restart"]
                                                                      for d in dense],
                 sweep_save=[d["save"] for d in dense], sweep_lost=[d["lost"] for d in dense],
                 sweep_restart_share=[d["restart"] for d in dense],
                 sweep_efficiency_with_planned=[d["with_planned"] for d in dense]),
    }


def _table(mc: dict, Ts: float, trials: int) -> Table:
    """Daly's T_w against the Monte Carlo at each interval tested."""
    return Table(
        f"Expected wall time for {fmt_seconds(Ts)} of useful compute versus checkpoint interval τ: "
        f"Daly's T_w(τ) against a seeded Monte Carlo of {trials:,} jobs per interval",
        [Column("interval τ", "s"), Column("segments", "count"), Column("T_w, Daly", "s"),
         Column("T_w, Monte Carlo mean", "s"), Column("95% CI half-width", "s"),
         Column("(MC − Daly) / SE", "1"), Column("waste 1 − T_s/T_w", "%")],
        [[float(t), int(n), float(a), float(m), float(c), float(zz), float(1.0 - Ts / a)]
         for t, n, a, m, c, zz in zip(mc["tau"], mc["n_seg"], mc["analytic"], mc["mean"], mc["ci"], mc["z"],
                                      strict=True)],
    )


__all__ = ["MAX_SEGMENTS", "daly_interval"]
