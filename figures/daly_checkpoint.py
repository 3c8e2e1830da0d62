"""Figures for daly-checkpoint, Daly's formula (optimal checkpoint frequency).

A figure function reads the model output (build/data/<id>.json) and draws;
the pipeline calls it inside figures.theme.themed(theme) and saves the SVG.
Symbols are matplotlib mathtext ($T_s/T_w$), which is not LaTeX.
"""

from __future__ import annotations

import matplotlib.pyplot as plt
import numpy as np
from matplotlib.ticker import FixedLocator, PercentFormatter

from design import palette
from figures.axes import MIN_FONT, log_axis
from figures.explore import Panel, Probe, Readout, probe_default, series, tag
from models.units import MINUTE, fmt_count, fmt_percent, fmt_seconds

_MINUTE_TICKS = (0.1, 0.2, 0.5, 1, 2, 5, 10, 20, 50, 100, 200)
SMALL = MIN_FONT  # legends and secondary ticks


def _minutes_axis(ax, lo: float, hi: float, label: str | None = None) -> None:
    """Log x-axis of a time in seconds, ticks in minutes (the unit people schedule in)."""
    lo_m, hi_m = lo / MINUTE, hi / MINUTE
    log_axis(ax, "x", lo_m, hi_m, ticks=[t for t in _MINUTE_TICKS if lo_m <= t <= hi_m], label=label)


def wall_time_vs_interval(data: dict, theme: str):
    """Left: waste 1 − T_s/T_w versus τ, Daly's curve and the Monte Carlo, with
    the Young, Daly and exact optima; beneath it, MC minus Daly with 95% CIs.
    Right: where the lost time goes (checkpoint writes, lost work, restarts)."""
    t = palette.THEMES[theme]
    fail_c = palette.role("failure", theme)
    fig = plt.figure(figsize=(8, 4.5))
    gs = fig.add_gridspec(2, 2, height_ratios=[3, 1.15], width_ratios=[1.15, 1],
                          hspace=0.12, wspace=0.3)
    ax = fig.add_subplot(gs[0, 0])
    ax_r = fig.add_subplot(gs[1, 0], sharex=ax)
    ax_b = fig.add_subplot(gs[:, 1])
    top = _waste_panel(ax, data, theme)
    _mc_minus_daly_panel(ax_r, data, theme)
    _time_shares_panel(ax_b, data, theme, top)
    # the points the Explore panel moves along the waste curve: at the exact optimum here
    axes = fig.axes
    for name, (i, x, y) in probe_marks(data, probe_default(INTERVAL, data)).items():
        tag(axes[i].plot([x], [y], ls="", marker="o", ms=6, color=fail_c, mec=t["ink"], mew=0.8, zorder=4)[0],
            name)
    return fig


def _tau_span(data: dict) -> tuple[float, float]:
    """The curve's interval range (s)."""
    tau = np.asarray(data["series"]["tau"], dtype=float)
    return float(tau[0]), float(tau[-1])


def _waste_panel(ax, data: dict, theme: str) -> float:
    """Waste versus interval: Daly's curve, the Monte Carlo with its CIs, the three optima.
    Returns the curve's highest waste (the other panel's scale)."""
    s, m, p = data["series"], data["summary"], data["params"]
    t = palette.THEMES[theme]
    tau = np.asarray(s["tau"], dtype=float)
    lo, hi = _tau_span(data)
    line_c, mc_c, fail_c = palette.role("primary", theme), palette.role("rework", theme), palette.role("failure", theme)
    waste = np.asarray(s["waste"], dtype=float)
    ax.plot(tau / MINUTE, waste, color=line_c, label=r"Daly $T_w(\tau)$, analytic")
    mtau = np.asarray(s["mc_tau"], dtype=float)
    mmean = np.asarray(s["mc_mean"], dtype=float)
    mci = np.asarray(s["mc_ci95"], dtype=float)
    work = p["work"]
    mwaste = 1.0 - work / mmean
    werr = work * mci / mmean**2  # 1 − T_s/T_w: delta method on the CI of T_w
    ax.errorbar(mtau / MINUTE, mwaste, yerr=werr, fmt="o", ms=4.5, color=mc_c, capsize=2,
                lw=1.2, label=f"Monte Carlo, {fmt_count(p['trials'])} jobs each (95% CI)")
    marks = [
        ("young_interval", "Young", "--", t["muted"]),
        ("daly_interval", "Daly eq. 37", ":", palette.role("compute", theme)),
        ("optimal_interval", "exact optimum", "-", fail_c),
    ]
    top = float(np.max(waste))
    # Young's dashed line sits under Daly's and the exact one at this scale: its entry says where it is
    where = {"young_interval": f" (+{fmt_percent(m['young_vs_optimal'])}, hidden)"}
    for key, name, ls, c in marks:  # stop below the legend
        ax.vlines(m[key] / MINUTE, 0, top * 1.05, color=c, lw=1.1, ls=ls,
                  label=f"{name}: {fmt_seconds(m[key])}{where.get(key, '')}")
    ax.set_ylim(0, top * 1.9)  # headroom for the legend
    ax.yaxis.set_major_formatter(PercentFormatter(1.0, decimals=0))
    ax.set_ylabel(r"waste  $1 - T_s/T_w$")
    _minutes_axis(ax, lo, hi)
    plt.setp(ax.get_xticklabels(), visible=False)
    ax.legend(fontsize=SMALL, loc="upper center", handlelength=1.8, borderaxespad=0.2)
    ax.set_title(f"M = {fmt_seconds(m['mtbf'])}, δ = {fmt_seconds(m['checkpoint_cost'])}, "
                 f"R = {fmt_seconds(p['restart_cost'])}", fontsize=10, color=t["muted"], loc="left")
    return top


def _mc_minus_daly_panel(ax_r, data: dict, theme: str) -> None:
    """Monte Carlo minus Daly, relative, with 95% CIs."""
    s = data["series"]
    lo, hi = _tau_span(data)
    line_c, mc_c = palette.role("primary", theme), palette.role("rework", theme)
    mtau = np.asarray(s["mc_tau"], dtype=float)
    mmean = np.asarray(s["mc_mean"], dtype=float)
    mci = np.asarray(s["mc_ci95"], dtype=float)
    analytic = np.asarray(s["mc_analytic"], dtype=float)
    rel, rel_ci = (mmean - analytic) / analytic, mci / analytic
    ax_r.axhline(0, color=line_c, lw=1.2)
    ax_r.errorbar(mtau / MINUTE, rel, yerr=rel_ci, fmt="o", ms=3.5, color=mc_c, capsize=2, lw=1.0)
    lim = float(np.max(np.abs(rel) + rel_ci)) * 1.3
    ax_r.set_ylim(-lim, lim)
    ax_r.yaxis.set_major_formatter(PercentFormatter(1.0, decimals=2))
    ax_r.yaxis.set_major_locator(FixedLocator([-lim / 1.3, 0, lim / 1.3]))
    ax_r.set_ylabel("MC − Daly", fontsize=SMALL)
    ax_r.tick_params(axis="y", labelsize=SMALL)
    _minutes_axis(ax_r, lo, hi, label=r"checkpoint interval $\tau$ (min, log scale)")


def _time_shares_panel(ax_b, data: dict, theme: str, top: float) -> None:
    """Where the time goes: checkpoint writes, lost work and restarts as shares of wall time."""
    s, m = data["series"], data["summary"]
    t = palette.THEMES[theme]
    tau = np.asarray(s["tau"], dtype=float)
    wall = np.asarray(s["wall_time"], dtype=float)
    waste = np.asarray(s["waste"], dtype=float)
    lo, hi = _tau_span(data)
    save_c, lost_c = palette.role("save", theme), palette.role("rework", theme)
    restart_c, fail_c = palette.role("restart", theme), palette.role("failure", theme)
    parts = [
        (r"writing checkpoints ($\delta$ each)", np.asarray(s["save"], dtype=float), save_c),
        ("lost work, redone", np.asarray(s["lost"], dtype=float), lost_c),
        ("restarts (R, and failed restarts)", np.asarray(s["restart"], dtype=float), restart_c),
    ]
    ax_b.stackplot(tau / MINUTE, *[q / wall for _, q, _ in parts],
                   colors=[c for _, _, c in parts], labels=[n for n, _, _ in parts], alpha=0.85)
    ax_b.plot(tau / MINUTE, waste, color=t["ink"], lw=1.2)
    ax_b.vlines(m["optimal_interval"] / MINUTE, 0, top * 1.05, color=fail_c, lw=1.1)
    ax_b.set_ylim(0, top * 1.45)
    ax_b.yaxis.set_major_formatter(PercentFormatter(1.0, decimals=0))
    ax_b.set_ylabel("share of wall time")
    _minutes_axis(ax_b, lo, hi, label=r"checkpoint interval $\tau$ (min, log scale)")
    ax_b.legend(fontsize=SMALL, loc="upper center", borderaxespad=0.2)
    ax_b.set_title("too often: writes; too rarely: rework", fontsize=10, color=t["muted"], loc="left")


# --- the Explore panel: the checkpoint interval --------------------------------------
# A probe along the model's own sweep of tau (every 7th of its 241 points): nothing re-runs, so
# the Monte Carlo stays the page's. The panel opens at the exact optimum, a point of that sweep.
INTERVAL = Probe("tau", "Checkpoint interval τ", "s", every=7, default=lambda out: out["summary"]["optimal_interval"])


def probe_marks(data: dict, i: int) -> dict[str, tuple[int, float, float]]:
    s = data["series"]
    x = s["tau"][i] / MINUTE
    return {"waste-at": (0, x, s["waste"][i]), "share-at": (2, x, s["waste"][i])}


def _share(key: str):
    return lambda out, i: out["series"][key][i] / out["series"]["wall_time"][i]


EXPLORE = Panel(
    figure="wall-time-vs-interval",
    title="Explore: checkpoint interval",
    sliders=(INTERVAL,),
    readouts=(
        Readout("Waste (share of wall time)", "%", series("waste")),
        Readout("Writing checkpoints", "%", _share("save")),
        Readout("Lost work, redone", "%", _share("lost")),
        Readout("Restarts", "%", _share("restart")),
        Readout("Wall time for one day of useful compute", "s", series("wall_time")),
    ),
    marks=probe_marks,
)


def efficiency_vs_restart(data: dict, theme: str):
    """Left: the useful share at the optimum interval versus the restart time R,
    against the reported effective training time, with the assumed R and the
    largest R that still reaches the reported share marked. Right: the loss at
    the optimum split into writes, lost work and restarts, versus R."""
    s, m, p = data["series"], data["summary"], data["params"]
    t = palette.THEMES[theme]
    r = np.asarray(s["sweep_restart"], dtype=float)
    eff = np.asarray(s["sweep_efficiency"], dtype=float)
    eff_planned = np.asarray(s["sweep_efficiency_with_planned"], dtype=float)
    lo, hi = float(r[0]), float(r[-1])
    line_c, fail_c = palette.role("primary", theme), palette.role("failure", theme)
    ok_c = palette.role("ok", theme)
    reported = p["reported_efficiency"]

    fig, (ax, ax_b) = plt.subplots(1, 2, figsize=(8, 4.5), gridspec_kw={"wspace": 0.32})

    # --- useful share versus R ------------------------------------------------
    ax.plot(r / MINUTE, eff, color=line_c, lw=1.8, label=r"useful share $T_s/T_w$ at $\tau^*$")
    ax.plot(r / MINUTE, eff_planned, color=line_c, lw=1.4, ls="--",
            label=f"+ {fmt_count(m['planned_interruptions'])} planned stops, one R each")
    ax.axhline(reported, color=t["muted"], lw=1.1, ls="--",
               label=f"Llama 3 report: > {fmt_percent(reported)}")
    r_assumed, r_max = p["restart_cost"], m["restart_for_reported"]
    ax.plot([r_assumed / MINUTE], [m["efficiency_optimal"]], "o", color=fail_c, ms=6,
            label=f"assumed R = {fmt_seconds(r_assumed)}: {fmt_percent(m['efficiency_optimal'])}")
    ax.plot([r_max / MINUTE], [reported], "D", color=ok_c, ms=5.5,
            label=f"R = {fmt_seconds(r_max)}: still {fmt_percent(reported)}")
    y_hi = float(eff.max()) + 0.01
    low = min(float(eff_planned.min()), reported)
    y_lo = low - 0.75 * (y_hi - low)  # room for the legend
    ax.set_ylim(y_lo, y_hi)
    ax.yaxis.set_major_formatter(PercentFormatter(1.0, decimals=0))
    ax.set_ylabel("useful share of wall time")
    _minutes_axis(ax, lo, hi, label="restart time R (min, log scale)")
    ax.legend(fontsize=SMALL, loc="lower left", borderaxespad=0.3)
    ax.set_title(f"at τ* = {fmt_seconds(m['optimal_interval'])}, whatever R is", fontsize=10,
                 color=t["muted"], loc="left")

    # --- the loss versus R -----------------------------------------------------
    parts = [
        ("writing checkpoints", np.asarray(s["sweep_save"], dtype=float), palette.role("save", theme)),
        ("lost work, redone", np.asarray(s["sweep_lost"], dtype=float), palette.role("rework", theme)),
        ("restarts", np.asarray(s["sweep_restart_share"], dtype=float), palette.role("restart", theme)),
    ]
    ax_b.stackplot(r / MINUTE, *[q for _, q, _ in parts], colors=[c for _, _, c in parts],
                   labels=[n for n, _, _ in parts], alpha=0.85)
    total = sum(q for _, q, _ in parts)
    ax_b.vlines(m["restart_break_even"] / MINUTE, 0, float(total.max()) * 1.02, color=t["ink"], lw=1.0,
                ls=":", label=f"restarts = writes + rework\nat R = {fmt_seconds(m['restart_break_even'])}")
    ax_b.set_ylim(0, float(total.max()) * 1.55)
    ax_b.yaxis.set_major_formatter(PercentFormatter(1.0, decimals=0))
    ax_b.set_ylabel("share of wall time lost")
    _minutes_axis(ax_b, lo, hi, label="restart time R (min, log scale)")
    ax_b.legend(fontsize=SMALL, loc="upper left", borderaxespad=0.3)
    return fig
