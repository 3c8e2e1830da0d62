"""Figures for silent-data-corruption, silent data corruption.

A figure function reads the model output (build/data/<id>.json) and draws;
the pipeline calls it inside figures.theme.themed(theme) and saves the SVG.
Symbols are matplotlib mathtext, which is not LaTeX.
"""

from __future__ import annotations

import matplotlib.pyplot as plt
import numpy as np
from matplotlib.patches import Patch
from matplotlib.ticker import FixedLocator, PercentFormatter

from design import palette
from figures.axes import MIN_FONT, log_axis
from figures.explore import Panel, Probe, Readout, probe_default, series, tag
from models.units import DAY, MINUTE, fmt_count, fmt_seconds

SMALL = MIN_FONT


# One panel per figure: side by side, two panels of an 8-inch figure cannot be read at a phone's 390 px;
# as separate figures the page stacks them.


def bit_flip_training(data: dict, theme: str):
    """Loss and gradient norm of the clean run, the exponent flip and the mantissa flip, with the step of
    the flip and the detector's alarm."""
    s, m, a = data["series"], data["summary"], data["animation"]
    t = palette.THEMES[theme]
    clean_c, man_c = palette.role("primary", theme), palette.role("secondary", theme)
    exp_c, alarm_c = palette.role("failure", theme), palette.role("highlight", theme)
    step = np.asarray(s["step"], dtype=float)
    flip = a["flip_step"]
    fin = np.asarray(s["exponent_is_finite"], dtype=bool)

    fig = plt.figure(figsize=(8, 4.5))
    gs = fig.add_gridspec(2, 1, height_ratios=[1.6, 1], hspace=0.1)
    ax = fig.add_subplot(gs[0, 0])
    ax_g = fig.add_subplot(gs[1, 0], sharex=ax)

    loss_c = np.asarray(s["loss_clean"], dtype=float)
    ax.plot(step[fin], np.asarray(s["loss_exponent_finite"], dtype=float)[fin], color=exp_c, lw=2.4,
            label=f"bit {a['exponent_bit']} (exponent) flipped")
    ax.plot(step, loss_c, color=clean_c, lw=1.4, label="clean run")
    ax.plot(step, np.asarray(s["loss_mantissa"], dtype=float), color=man_c, lw=1.0, ls="--",
            label=f"bit {a['mantissa_bit']} (mantissa) flipped")
    lo, hi = float(loss_c.min()) * 0.7, float(loss_c.max()) * 1.6
    ax.vlines(flip, lo, hi, color=exp_c, lw=1.0, ls=":")
    ax.text(flip + 6, hi * 0.93, "loss = inf, then NaN", color=exp_c, fontsize=SMALL, va="top")
    log_axis(ax, "y", lo, hi, ticks=[v for v in (0.2, 0.5, 1.0, 2.0) if lo <= v <= hi],
             label="training loss")
    plt.setp(ax.get_xticklabels(), visible=False)
    ax.legend(fontsize=SMALL, loc="lower left", borderaxespad=0.3)
    ax.set_title(f"one weight {m['weight_before']:.3f} → {m['weight_exponent_text']}", fontsize=10,
                 color=t["muted"], loc="left")

    # log axis: the exponent flip's gradient norm is ~10³⁷, the clean run's below 1
    g_c = np.asarray(s["gnorm_clean"], dtype=float)
    g_e = np.asarray(s["gnorm_exponent_finite"], dtype=float)
    spike = (step >= flip) & (g_e > 0)
    ax_g.plot(step, g_c, color=clean_c, lw=1.2)
    ax_g.plot(step, np.asarray(s["gnorm_mantissa"], dtype=float), color=man_c, lw=0.9, ls="--")
    ax_g.plot(np.r_[flip - 1, step[spike]], np.r_[g_c[flip - 1], g_e[spike]], color=exp_c, lw=2.0)
    lo_g, hi_g = float(g_c.min()) / 3, float(max(g_e.max(), g_c.max())) * 1e4
    log_axis(ax_g, "y", lo_g, hi_g, ticks=[v for v in (1e0, 1e12, 1e24, 1e36) if lo_g <= v <= hi_g],
             fmt=lambda v: f"$10^{{{int(round(np.log10(v)))}}}$")
    peak = float(g_e[spike].max())
    ax_g.plot([m["exponent_detected_at"]], [peak], marker="v", ms=7, color=alarm_c, ls="none")
    e = int(np.floor(np.log10(peak)))
    ax_g.text(m["exponent_detected_at"] + 8, peak / 1e8, f"detector fires:\nnorm {peak / 10**e:.1f}×$10^{{{e}}}$",
              color=alarm_c, fontsize=SMALL, va="center")
    ax_g.set_ylabel("gradient norm", fontsize=SMALL)
    ax_g.tick_params(labelsize=SMALL)
    ax_g.set_xlabel("SGD step")
    ax_g.set_xlim(0, step[-1])
    return fig


def every_bit(data: dict, theme: str):
    """The largest loss change each of the weight's 32 bits causes when flipped, on a log axis; the
    overflowing bit drawn to the top."""
    m = data["summary"]
    t = palette.THEMES[theme]
    man_c, exp_c = palette.role("secondary", theme), palette.role("failure", theme)
    fig, ax_b = plt.subplots(figsize=(8, 4.2))
    # relative to the loss at the flip, the unit the page's prose uses
    bits = [{**b, "max_loss_change": b["max_loss_change"] / m["loss_at_flip"] if b["max_loss_change"] else None}
            for b in data["records"]["bits"]]
    effects = [b["max_loss_change"] for b in bits if b["max_loss_change"]]
    ylo, yhi = min(effects) / 3, max(effects) * 300
    colours = {"mantissa": man_c, "exponent": palette.role("tertiary", theme), "sign": t["muted"]}
    for b in bits:
        h = yhi if b["nonfinite"] else (b["max_loss_change"] or ylo)
        ax_b.bar(b["bit"], h, width=0.8, bottom=ylo, color=exp_c if b["nonfinite"] else colours[b["field"]],
                 edgecolor="none")
    handles = [Patch(color=c, label=field) for field, c in colours.items()]
    handles.append(Patch(color=exp_c, label="overflow: detected"))
    log_axis(ax_b, "y", ylo, yhi * 1.2, fmt=lambda v: f"$10^{{{int(round(np.log10(v)))}}}$", every=2,
             label=f"largest |Δ loss| / loss at the flip, over {m['sweep_tail']} steps")
    ax_b.set_xlim(-1, len(bits))
    ax_b.set_xticks([0, 8, 16, 23, 31])
    ax_b.set_xlabel("bit flipped (float32)\nbf16 keeps bits 16 to 31")
    ax_b.legend(handles=handles, fontsize=SMALL, loc="upper left", borderaxespad=0.3)
    # one weight at one threshold: the page sweeps both
    z = data["params"]["z_threshold"]
    ax_b.set_title(f"{m['bits_detected']} of {len(bits)} bits caught (this weight, z = {z:g})",
                   fontsize=10, color=t["muted"], loc="left")
    return fig


def sdc_odds(data: dict, theme: str):
    """P(at least one SDC) versus run length at the Llama 3 rate for three job sizes, with the Monte Carlo
    points."""
    s, m, p = data["series"], data["summary"], data["params"]
    t = palette.THEMES[theme]
    fleet = data["records"]["fleet"]
    colours = [palette.role(r, theme) for r in ("secondary", "primary", "tertiary", "quaternary")]
    x = np.asarray(s["run_length"], dtype=float) / DAY

    fig, ax = plt.subplots(figsize=(8, 4.2))
    for g, c in zip(fleet, colours, strict=False):
        ax.plot(x, np.asarray(s[f"p_{g}"], dtype=float), color=c, lw=1.5, label=f"{fmt_count(g)} GPUs")
        if g == p["gpus"]:  # the rate's 95% interval (six events), on the run's own size
            ax.fill_between(x, np.asarray(s["p_run_size_low"], dtype=float),
                            np.asarray(s["p_run_size_high"], dtype=float), color=c, alpha=0.18, lw=0,
                            label="rate's 95% interval")
    rows = [r for r in data["table"]["rows"] if r[2] is not None]
    for r in rows:
        c = colours[fleet.index(int(r[1]))]
        ax.errorbar(r[2] / DAY, r[4], yerr=r[5], fmt="o", ms=4, color=c, capsize=2, lw=1.0)
    ax.errorbar([], [], yerr=[], fmt="o", ms=4, color=t["muted"], label="Monte Carlo ± 95%")
    log_axis(ax, "x", x[0], x[-1], ticks=[v for v in (1 / 24, 1, 7, 30, 100) if x[0] <= v <= x[-1]],
             fmt=lambda v: "1 h" if v < 0.5 else f"{v:g} d", label="run length (log scale)")
    ax.set_ylim(0, 1.5)  # headroom above 100% for the legend
    ax.yaxis.set_major_locator(FixedLocator([0, 0.25, 0.5, 0.75, 1.0]))
    ax.yaxis.set_major_formatter(PercentFormatter(1.0, decimals=0))
    ax.set_ylabel("P(at least one SDC)")
    ax.legend(fontsize=SMALL, loc="upper left", ncol=2, borderaxespad=0.3)
    ax.set_title(f"Llama 3: {m['rate_per_gpu_hour'] * 1e6:.3g} ({m['rate_low_per_million_gpu_hours']:.2f}"
                 f"–{m['rate_high_per_million_gpu_hours']:.2f}) per 10⁶ GPU-h",
                 fontsize=10, color=t["muted"], loc="left")
    return fig


def check_interval(data: dict, theme: str):
    """Share of training time lost versus the check interval, by part, with c* and the Explore probe."""
    s, m, p = data["series"], data["summary"], data["params"]
    t = palette.THEMES[theme]
    fig, ax_c = plt.subplots(figsize=(8, 4.2))
    c = np.asarray(s["check_interval"], dtype=float) / MINUTE
    parts = [("checks (k/c)", "share_checks", palette.role("compute", theme)),
             ("interval thrown away (c/M)", "share_discarded", palette.role("rework", theme)),
             ("rollback past it (τ*/2M)", "share_rollback", palette.role("save", theme)),
             ("restarts (R/M)", "share_restart", palette.role("restart", theme))]
    ax_c.stackplot(c, *[np.asarray(s[k], dtype=float) for _, k, _ in parts], colors=[q for _, _, q in parts],
                   labels=[n for n, _, _ in parts], alpha=0.85)
    total = np.asarray(s["share_total"], dtype=float)
    ax_c.plot(c, total, color=t["ink"], lw=1.2)
    peak = float(total.max())
    ax_c.vlines(m["check_interval"] / MINUTE, 0, peak * 0.8, color=palette.role("failure", theme), lw=1.1)
    ax_c.text(m["check_interval"] / MINUTE * 1.15, peak * 0.75,
              f"c* = {fmt_seconds(m['check_interval'])}", color=palette.role("failure", theme), fontsize=SMALL)
    ax_c.set_ylim(0, peak * 2.6)
    ax_c.yaxis.set_major_formatter(PercentFormatter(1.0, decimals=1))
    log_axis(ax_c, "x", c[0], c[-1], ticks=[v for v in (1, 3, 10, 30, 100, 300, 1000) if c[0] <= v <= c[-1]],
             label="check interval c (min, log scale)")
    ax_c.set_ylabel("share of training time lost")
    ax_c.legend(fontsize=SMALL, loc="upper left", borderaxespad=0.3)
    ax_c.set_title(f"check = replay {p['check_steps']:g} step ({fmt_seconds(m['check_time'])})", fontsize=10,
                   color=t["muted"], loc="left")
    # the point the Explore panel moves along the total: at c* here
    for name, (i, x, y) in probe_marks(data, probe_default(INTERVAL, data)).items():
        tag(fig.axes[i].plot([x], [y], ls="", marker="o", ms=6, color=palette.role("failure", theme), mec=t["ink"],
                             mew=0.8, zorder=4)[0], name)
    return fig


# --- the Explore panel: the check interval --------------------------------------------------
# A probe along the model's own sweep of c (every 6th of its points): nothing re-runs. The sweep
# holds c* exactly, so the panel opens at the page's numbers.
INTERVAL = Probe("check_interval", "Check interval c", "s", every=6,
                 default=lambda out: out["summary"]["check_interval"])


def probe_marks(data: dict, i: int) -> dict[str, tuple[int, float, float]]:
    s = data["series"]
    return {"total-at": (0, s["check_interval"][i] / MINUTE, s["share_total"][i])}


def _latency(out: dict, i: int) -> float:
    """Detection latency c/2 + k at the probe's c."""
    return out["series"]["check_interval"][i] / 2 + out["summary"]["check_time"]


EXPLORE = Panel(
    figure="check-interval",
    title="Explore: check interval",
    sliders=(INTERVAL,),
    readouts=(
        Readout("Share of training time lost to SDCs", "%", series("share_total")),
        Readout("Checks (k/c)", "%", series("share_checks")),
        Readout("Interval thrown away (c/M)", "%", series("share_discarded")),
        Readout("Detection latency (c/2 + k)", "s", _latency),
    ),
    marks=probe_marks,
    notes=("The slider walks c along one curve, at this check cost k and this rate: c* = √(kM) does not"
           " move. The page's table sweeps k, and gives c* across the rate's 95% interval; a slider for"
           " either would re-run the model at every stop, so there is none.",),
)
