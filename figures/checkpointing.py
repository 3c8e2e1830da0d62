"""Figures for scene 10, Daly's formula (optimal checkpoint frequency).

A figure function reads the model output (build/data/<id>.json) and draws;
the pipeline calls it inside figures.theme.themed(theme) and saves the SVG.
"""

from __future__ import annotations

import matplotlib.pyplot as plt
import numpy as np
from matplotlib.ticker import FixedLocator, FuncFormatter, NullFormatter, PercentFormatter

from design import palette
from models.units import MINUTE, fmt_count, fmt_seconds


def _minutes_axis(ax, lo: float, hi: float, label: bool = True) -> None:
    """Log x-axis of the interval τ, ticks in minutes (the unit people schedule in)."""
    ax.set_xscale("log")
    ax.set_xlim(lo / MINUTE, hi / MINUTE)
    ticks = [t for t in (0.1, 0.2, 0.5, 1, 2, 5, 10, 20, 50, 100, 200)
             if lo / MINUTE <= t <= hi / MINUTE]
    ax.xaxis.set_major_locator(FixedLocator(ticks))
    ax.xaxis.set_major_formatter(FuncFormatter(lambda x, _: f"{x:g}"))
    ax.xaxis.set_minor_formatter(NullFormatter())
    if label:
        ax.set_xlabel("checkpoint interval τ (min, log scale)")


def wall_time_vs_interval(data: dict, theme: str):
    """Left: waste 1 − T_s/T_w versus τ, Daly's curve and the Monte Carlo, with
    the Young, Daly and exact optima; beneath it, MC minus Daly with 95% CIs.
    Right: where the lost time goes (checkpoint writes, lost work, restarts)."""
    s, m = data["series"], data["summary"]
    t = palette.THEMES[theme]
    curve, mc = s["curve"], s["mc"]
    tau = np.asarray(curve["tau"], dtype=float)
    wall = np.asarray(curve["wall_time"], dtype=float)
    lo, hi = float(tau[0]), float(tau[-1])
    line_c = palette.role("primary", theme)
    mc_c = palette.role("rework", theme)
    save_c, lost_c = palette.role("save", theme), palette.role("rework", theme)
    restart_c, fail_c = palette.role("restart", theme), palette.role("failure", theme)

    fig = plt.figure(figsize=(8, 4.5))
    gs = fig.add_gridspec(2, 2, height_ratios=[3, 1.15], width_ratios=[1.15, 1],
                          hspace=0.12, wspace=0.3)
    ax = fig.add_subplot(gs[0, 0])
    ax_r = fig.add_subplot(gs[1, 0], sharex=ax)
    ax_b = fig.add_subplot(gs[:, 1])

    # --- waste versus interval ------------------------------------------------
    waste = np.asarray(curve["waste"], dtype=float)
    ax.plot(tau / MINUTE, waste, color=line_c, label="Daly T_w(τ), analytic")
    mtau = np.asarray(mc["tau"], dtype=float)
    mmean = np.asarray(mc["mean"], dtype=float)
    mci = np.asarray(mc["ci95"], dtype=float)
    work = m["work"]
    mwaste = 1.0 - work / mmean
    werr = work * mci / mmean**2  # 1 − T_s/T_w: delta method on the CI of T_w
    ax.errorbar(mtau / MINUTE, mwaste, yerr=werr, fmt="o", ms=4.5, color=mc_c, capsize=2,
                lw=1.2, label=f"Monte Carlo, {fmt_count(m['mc_trials'])} jobs each (95% CI)")
    marks = [
        ("young_interval", "Young √(2δM)", "--", t["muted"]),
        ("daly_interval", "Daly eq. 37", ":", palette.role("compute", theme)),
        ("optimal_interval", "exact optimum", "-", fail_c),
    ]
    top = float(np.max(waste))
    for key, name, ls, c in marks:  # stop below the legend
        ax.vlines(m[key] / MINUTE, 0, top * 1.05, color=c, lw=1.1, ls=ls,
                  label=f"{name}: {fmt_seconds(m[key])}")
    ax.set_ylim(0, top * 1.75)  # headroom for the legend
    ax.yaxis.set_major_formatter(PercentFormatter(1.0, decimals=0))
    ax.set_ylabel("waste  1 − T_s / T_w")
    _minutes_axis(ax, lo, hi, label=False)
    plt.setp(ax.get_xticklabels(), visible=False)
    ax.legend(fontsize=8, loc="upper center", handlelength=1.8, borderaxespad=0.2)
    ax.set_title(f"M = {fmt_seconds(m['mtbf'])}, δ = {fmt_seconds(m['checkpoint_cost'])}, "
                 f"R = {fmt_seconds(m['restart_cost'])}", fontsize=10, color=t["muted"], loc="left")

    # --- Monte Carlo minus Daly -----------------------------------------------
    analytic = np.asarray(mc["analytic"], dtype=float)
    rel, rel_ci = (mmean - analytic) / analytic, mci / analytic
    ax_r.axhline(0, color=line_c, lw=1.2)
    ax_r.errorbar(mtau / MINUTE, rel, yerr=rel_ci, fmt="o", ms=3.5, color=mc_c, capsize=2, lw=1.0)
    lim = float(np.max(np.abs(rel) + rel_ci)) * 1.3
    ax_r.set_ylim(-lim, lim)
    ax_r.yaxis.set_major_formatter(PercentFormatter(1.0, decimals=2))
    ax_r.yaxis.set_major_locator(FixedLocator([-lim / 1.3, 0, lim / 1.3]))
    ax_r.set_ylabel("MC − Daly", fontsize=9)
    ax_r.tick_params(axis="y", labelsize=8)
    _minutes_axis(ax_r, lo, hi)

    # --- where the time goes ----------------------------------------------------
    parts = [
        ("writing checkpoints (δ per segment)", np.asarray(curve["save"], dtype=float), save_c),
        ("lost work, redone", np.asarray(curve["lost"], dtype=float), lost_c),
        ("restarts (R, and failed restarts)", np.asarray(curve["restart"], dtype=float), restart_c),
    ]
    ax_b.stackplot(tau / MINUTE, *[p / wall for _, p, _ in parts],
                   colors=[c for _, _, c in parts], labels=[n for n, _, _ in parts], alpha=0.85)
    ax_b.plot(tau / MINUTE, waste, color=t["ink"], lw=1.2)
    ax_b.vlines(m["optimal_interval"] / MINUTE, 0, top * 1.05, color=fail_c, lw=1.1)
    ax_b.set_ylim(0, float(np.max(waste)) * 1.35)
    ax_b.yaxis.set_major_formatter(PercentFormatter(1.0, decimals=0))
    ax_b.set_ylabel("share of wall time")
    _minutes_axis(ax_b, lo, hi)
    ax_b.legend(fontsize=8, loc="upper center", borderaxespad=0.2)
    ax_b.set_title("too often: writes; too rare: rework", fontsize=10, color=t["muted"], loc="left")
    return fig
