"""Figures for predictive-draining: the threshold trade-off, series reliability and hot spares.

A figure function reads the model output (build/data/<id>.json) and draws; the
pipeline calls it inside figures.theme.themed(theme) and saves the SVG.
"""

from __future__ import annotations

import matplotlib.pyplot as plt
import numpy as np
from matplotlib.ticker import FixedLocator, PercentFormatter

from design import palette
from figures.axes import MIN_FONT, log_axis
from figures.explore import Panel, Readout, Slider, summary, tag
from models.units import DAY, fmt_count, fmt_percent, fmt_seconds

SMALL = MIN_FONT
SERIES_ROLES = ("tertiary", "primary", "secondary")
G_FLOOR = 0.85  # goodput panel's lower edge: below never draining's at a 20-min crash cost (detection + restart)
G_CEILING = 0.95  # and its upper edge, above the perfect predictor's goodput (the model's own check)


def _per_day(v: float) -> str:
    return f"{v:g}" if v >= 0.01 else f"{v:.0e}".replace("e-0", "e-")


def drain_tradeoff(data: dict, theme: str):
    """Left: ROC, share of failures drained in time versus healthy nodes drained per day (log).
    Right: goodput versus the threshold k for three background rates, the headline's drain restart (R_d = R_r)
    and the pessimistic one (R_d = R_c), against never draining."""
    s, m, p, rec = data["series"], data["summary"], data["params"], data["records"]
    t = palette.THEMES[theme]
    ks = np.asarray(s["threshold"], dtype=int)
    caught = np.asarray(s["caught"], dtype=float)
    # taller than the second figure, same axes: the goodput legend holds the headline's two-line entry too
    fig, (ax, ax_g) = plt.subplots(1, 2, figsize=(8, 6.0), gridspec_kw={"wspace": 0.34})
    fig.subplots_adjust(bottom=0.37, top=0.937, left=0.1, right=0.98)

    # --- the ROC ------------------------------------------------------------------------------
    lo, hi = 1e-3, 1e3
    h = np.asarray(s["healthy_per_day"], dtype=float)
    keep = h >= lo
    ax.plot(h[keep], caught[keep], "o-", color=palette.role("primary", theme), lw=1.4, ms=4,
            label=f"healthy node: a signal every {fmt_seconds(p['background_interval'])} (assumed)")
    for k in (1, 2, m["k_best"]):
        ax.annotate(f"k = {k}", (h[k - 1], caught[k - 1]), xytext=(0, -9), textcoords="offset points",
                    ha="center", va="top", fontsize=SMALL, color=t["ink"])
    ax.axhline(m["coverage"], color=t["muted"], lw=1.0, ls="--")
    ax.text(lo * 1.3, m["coverage"] + 0.005, f"coverage {fmt_percent(m['coverage'])}",
            fontsize=SMALL, color=t["muted"], va="bottom")
    ax.axvline(m["crashes_per_day"], color=palette.role("failure", theme), lw=0.9, ls=":")
    ax.text(m["crashes_per_day"] * 1.2, 0.05, f"{m['crashes_per_day']:.1f} failures\na day",
            fontsize=SMALL, color=palette.role("failure", theme), va="bottom")
    log_axis(ax, "x", lo, hi, fmt=_per_day, label=f"healthy nodes drained per day, {fmt_count(m['nodes'])} nodes")
    ax.set_ylim(0, m["coverage"] * 1.25)
    ax.yaxis.set_major_formatter(PercentFormatter(1.0, decimals=0))
    ax.set_ylabel("failures drained before the crash")
    ax.legend(fontsize=SMALL, loc="upper center", bbox_to_anchor=(0.5, -0.14), borderaxespad=0.3)
    ax.set_title("each point a threshold k", fontsize=10, color=t["muted"], loc="left")

    # --- goodput versus k -------------------------------------------------------------------
    kmax = 8
    for i, b in enumerate(rec["background_sweep"]):
        g = np.asarray(s[f"goodput_bg{i}"], dtype=float)[:kmax]
        g = np.where(g >= G_FLOOR, g, np.nan)  # below the floor: off the scale (the title says so)
        tag(ax_g.plot(ks[:kmax], g, "o-", color=palette.role(SERIES_ROLES[i], theme), lw=1.4, ms=4,
                      label=f"a signal every {fmt_seconds(b)}")[0], f"goodput-bg{i}")
    g_sym = np.asarray(s["goodput_symmetric"], dtype=float)[:kmax]
    ax_g.plot(ks[:kmax], np.where(g_sym >= G_FLOOR, g_sym, np.nan), "s:", color=t["muted"], lw=1.2, ms=3,
              label=f"drain restart = crash cost R_c, {fmt_seconds(m['crash_cost'])}")
    # the headline's drain: it restarts with the crash's own machinery (R_d = R_r) and skips only the hang
    g_same = np.asarray(s["goodput_same"], dtype=float)[:kmax]
    ax_g.plot(ks[:kmax], np.where(g_same >= G_FLOOR, g_same, np.nan), "^-", color=t["ink"], lw=1.2, ms=4,
              label=f"headline: drain restart = crash's R_r, {fmt_seconds(p['crash_restart'])}\n"
                    f"(best k = {m['same_restart_k_best']}, {fmt_percent(m['same_restart_goodput'])}: open diamond)")
    ax_g.plot([m["same_restart_k_best"]], [m["same_restart_goodput"]], "D", mfc="none", mec=t["ink"], mew=1.4,
              ms=9, zorder=5)
    ax_g.axhline(m["goodput_never"], color=palette.role("bad", theme), lw=1.1, ls="--",
                 label=f"never drain: {fmt_percent(m['goodput_never'])}")
    tag(ax_g.plot([m["k_best"]], [m["goodput_best"]], "D", color=palette.role("ok", theme), ms=8, zorder=5,
                  label="best threshold")[0], "best")
    ax_g.set_ylim(G_FLOOR, G_CEILING)  # fixed: the Explore panel's drain restarts draw in the same frame
    ax_g.yaxis.set_major_locator(FixedLocator(np.arange(G_FLOOR, G_CEILING + 0.001, 0.01)))
    ax_g.yaxis.set_major_formatter(PercentFormatter(1.0, decimals=0))
    ax_g.set_xlim(0.5, kmax + 0.5)
    ax_g.xaxis.set_major_locator(FixedLocator(ks[:kmax]))
    ax_g.set_xlabel("drain threshold k (signals in one day)")
    ax_g.set_ylabel("goodput (useful share of wall time)")
    ax_g.legend(fontsize=SMALL, loc="upper center", bbox_to_anchor=(0.5, -0.14), borderaxespad=0.3, ncol=1)
    # both cases: the headline's (R_d = R_r, open diamond) and the page's fast drain restart (filled diamond)
    tag(ax_g.set_title(f"headline, drain restart = R_r: best k = {m['same_restart_k_best']}, "
                       f"{fmt_percent(m['same_restart_goodput'])}\n"
                       f"drain restart {fmt_seconds(p['drain_restart'])}: best k = {m['k_best']}, "
                       f"{fmt_percent(m['goodput_best'])}", fontsize=10, color=t["muted"], loc="left"), "title")
    ax_g.text(0.98, 0.02, f"{fmt_count(p['gpus'])} GPUs; below {fmt_percent(G_FLOOR, 2)} not drawn",
              transform=ax_g.transAxes, ha="right", va="bottom", fontsize=SMALL, color=t["muted"])
    return fig


def series_and_spares(data: dict, theme: str):
    """Left: a job's mean time between interruptions versus its GPUs (series reliability, log-log).
    Right: probability a rigid job finds all its nodes versus hot spares, one curve per repair time."""
    s, m, p, rec = data["series"], data["summary"], data["params"], data["records"]
    t = palette.THEMES[theme]
    fig, (ax, ax_s) = plt.subplots(1, 2, figsize=(8, 5.4), gridspec_kw={"wspace": 0.34})
    fig.subplots_adjust(bottom=0.3, top=0.93, left=0.1, right=0.98)

    g = np.asarray(s["cluster_gpus"], dtype=float)
    for key, role, label in (("mtbf_rsc2", "tertiary", "Meta RSC-2 rate"),
                             ("mtbf_llama", "primary", "Llama 3 record"),
                             ("mtbf_rsc1", "secondary", "Meta RSC-1 rate")):
        ax.plot(g, np.asarray(s[key], dtype=float) / DAY * 24, color=palette.role(role, theme), lw=1.7, label=label)
    ax.plot([p["gpus"]], [m["job_mtbf"] / 3600], "o", color=palette.role("failure", theme), ms=6, ls="none",
            label=f"the {fmt_count(p['gpus'])}-GPU job: {fmt_seconds(m['job_mtbf'])}")
    ax.plot([p["rack_gpus"]], [m["rack_mtbf"] / 3600], "s", color=palette.role("gpu", theme), ms=6, ls="none",
            label=f"one NVL72 rack (extrapolated from the per-GPU rate): {fmt_seconds(m['rack_mtbf'])}")
    log_axis(ax, "x", float(g[0]), float(g[-1]), fmt=lambda v: fmt_count(v),
             ticks=[8, 72, 1024, 16384, 131072], label="GPUs in the job (log)")
    log_axis(ax, "y", 0.1, 3e4, fmt=lambda v: f"{v:,g}", ticks=[0.1, 1, 10, 100, 1e3, 1e4],
             label="hours between interruptions (log)")
    ax.legend(fontsize=SMALL, loc="upper center", bbox_to_anchor=(0.5, -0.14), borderaxespad=0.3, ncol=1)
    ax.set_title("series reliability: rates add", fontsize=10, color=t["muted"], loc="left")

    sp = np.asarray(s["spares"], dtype=float)
    # one ink, a line style per repair time: the left panel's colours already name the three failure rates
    styles = ("-", "--", "-.", ":")
    for i, r in enumerate(rec["repair_sweep"]):
        ax_s.plot(sp, s[f"avail_r{i}"], color=t["ink"], lw=1.7, ls=styles[i % len(styles)],
                  label=f"repair {fmt_seconds(r)}: {rec['spares_by_repair'][i]['spares']} spares")
    ax_s.axhline(p["target_availability"], color=t["muted"], lw=0.8)
    ax_s.text(sp[-1], p["target_availability"] - 0.02, f"target {fmt_percent(p['target_availability'], 4)}",
              fontsize=SMALL, color=t["muted"], ha="right", va="top")
    ax_s.set_xlim(0, sp[-1])
    ax_s.set_ylim(0, 1.05)
    ax_s.yaxis.set_major_formatter(PercentFormatter(1.0, decimals=0))
    ax_s.set_xlabel(f"hot spares beside {fmt_count(m['nodes'])} nodes")
    ax_s.set_ylabel("probability the job has all its nodes")
    ax_s.legend(fontsize=SMALL, loc="upper center", bbox_to_anchor=(0.5, -0.14), borderaxespad=0.3, ncol=1)
    ax_s.set_title("rigid job: all nodes or nothing", fontsize=10, color=t["muted"], loc="left")
    return fig


# --- the Explore panel: the restart after a planned drain ---------------------------------------
# from the sweep's fastest (30 s) to the headline crash cost, detection + restart (15 min: no drain advantage),
# through the page's 60 s; past the crash cost a drain would cost more than the crash it prevents
EXPLORE = Panel(
    figure="drain-tradeoff",
    title="Explore: restart after a planned drain",
    sliders=(Slider("drain_restart", "Restart after a planned drain, R_d", "s",
                    (30.0, 60.0, 120.0, 300.0, 600.0, 900.0)),),
    readouts=(
        Readout("Best threshold k", "count", summary("k_best")),
        Readout("Goodput at the best threshold", "%", summary("goodput_best")),
        Readout("Gain over never draining", "%", summary("gain_best")),
        Readout("Goodput draining at any error", "%", summary("goodput_any")),
    ),
    notes=("Never draining does not move: it has no drains. The dotted curve is a drain that costs as much as a "
           "crash (R_d = R_c), the pessimistic bound; the last stop is that case.",),
)
