"""Figures for stragglers: stragglers and the collective barrier.

expected_max: the expected maximum of N normals (quadrature, Gumbel, √(2 ln N),
Monte Carlo) and what jitter, with and without one slow GPU, costs at the
scenario's scale. detector: the ROC of the windowed z-score
detector (log false-positive axis, the day's threshold marked) and its delay against the window length.
"""

from __future__ import annotations

import matplotlib.pyplot as plt
import numpy as np
from matplotlib.ticker import PercentFormatter

from design import palette
from figures.axes import MIN_FONT, log_axis
from figures.explore import Panel, Probe, Readout, Slider, probe_default, series, tag
from models.units import fmt_count, fmt_percent, fmt_seconds

SMALL = MIN_FONT


def _count(v: float) -> str:
    return fmt_count(v) if v < 1e4 else f"{v / 1e3:g}k"


def expected_max(data: dict, theme: str):
    """Left: m_N, the expected maximum of N standard normals, versus N. Right: the share
    of GPU-hours lost to jitter at the job's N versus σ/μ (the study's median is compared in the text)."""
    s, m, p = data["series"], data["summary"], data["params"]
    t = palette.THEMES[theme]
    n = np.asarray(s["n"], dtype=float)
    fig, (ax, ax2) = plt.subplots(1, 2, figsize=(8, 4.2), gridspec_kw={"width_ratios": [1.25, 1], "wspace": 0.3})

    ax.plot(n, s["lead"], color=t["muted"], ls=":", lw=1.4, label=r"$\sqrt{2\,\ln N}$ (growth rate)")
    ax.plot(n, s["gumbel"], color=palette.role("secondary", theme), ls="--", lw=1.4,
            label=r"Gumbel $b_N + \gamma/a_N$")
    ax.plot(n, s["exact"], color=palette.role("primary", theme), lw=1.8, label="exact (quadrature)")
    ax.errorbar(s["mc_n"], s["mc_mean"], yerr=s["mc_ci95"], fmt="o", ms=4.5, capsize=2,
                color=palette.role("tertiary", theme),
                label=f"Monte Carlo, {fmt_count(p['mc_trials'])} trials (95% CI)")
    ax.axvline(p["gpus"], color=palette.role("highlight", theme), lw=1.0, ls="-.")
    ax.annotate(f"{fmt_count(p['gpus'])} GPUs: {m['m_N']:.2f}σ", (p["gpus"], 0.35), xytext=(-6, 0),
                textcoords="offset points", ha="right", va="center", fontsize=SMALL, color=t["ink"])
    log_axis(ax, "x", float(n[0]), float(n[-1]), fmt=_count, ticks=[2, 10, 100, 1e3, 1e4, 6.4e4],
             label="ranks N at the barrier")
    ax.set_ylim(0, float(np.max(s["lead"])) * 1.45)
    ax.set_ylabel("expected maximum, in σ")
    ax.legend(fontsize=SMALL, loc="upper left", borderaxespad=0.3)
    ax.set_title(r"E[step] = μ + σ·$m_N$", fontsize=10, color=t["muted"], loc="left")

    cv = np.asarray(s["sweep_cv"], dtype=float)
    # the sweep holds the assumed σ/μ as one of its points: the Explore slider moves it, so these move too
    tag(ax2.plot(cv * 100, s["sweep_waste"], "o-", color=palette.role("primary", theme), ms=4,
                 label="jitter alone, this model")[0], "sweep-waste")
    # no line for the study's median: it is waste from all causes, not a point on this jitter sweep (page text)
    ax2.axhline(m["slow_alone_waste"], color=palette.role("secondary", theme), ls=":", lw=1.3,
                label=f"one GPU {fmt_percent(m['slowdown'])} slower, no jitter")
    tag(ax2.plot(cv * 100, 1.0 - 1.0 / np.asarray(s["sweep_slow_factor"], dtype=float), "s--", ms=3.5, lw=1.2,
                 color=palette.role("quaternary", theme),
                 label=f"jitter + one GPU {fmt_percent(m['slowdown'])} slower")[0], "sweep-slow")
    tag(ax2.plot([m["jitter_cv"] * 100], [m["waste_jitter"]], "D", ms=7, color=palette.role("highlight", theme),
                 label="assumed σ/μ")[0], "assumed-cv")
    # the same x range at every slider stop: the sweep's own values bound it, not the slider's
    x_max = float(max(cv.max(), max(p["jitter_sweep"]))) * 100
    ax2.set_xlim(0, x_max * 1.08)
    # the value beside its point (the legend does not move with the Explore slider): below the curves,
    # on the side with room
    right = m["jitter_cv"] * 100 < 0.6 * x_max
    tag(ax2.annotate(f"σ/μ = {fmt_percent(m['jitter_cv'])}", (m["jitter_cv"] * 100, m["waste_jitter"]),
                     xytext=(8 if right else -8, -12), textcoords="offset points", ha="left" if right else "right",
                     va="top", fontsize=SMALL, color=t["ink"]), "assumed-cv-label")
    ax2.set_ylim(0, float(np.max(s["sweep_waste"])) * 1.6)
    ax2.yaxis.set_major_formatter(PercentFormatter(1.0, decimals=0))
    ax2.set_xlabel("per-rank jitter σ/μ (%)")
    ax2.set_ylabel("GPU-hours lost  1 − μ/E[step]")
    ax2.legend(fontsize=SMALL, loc="upper left", borderaxespad=0.3)
    ax2.set_title(f"{fmt_count(p['gpus'])} GPUs, μ = {fmt_seconds(m['step_time'])}", fontsize=10,
                  color=t["muted"], loc="left")
    fig.subplots_adjust(left=0.08, right=0.98, top=0.92, bottom=0.13)
    # the points the Explore panel moves along the curves: at the job's GPU count here
    for name, (i, x, y) in probe_marks(data, probe_default(RANKS, data)).items():
        colour = palette.role("primary" if name == "exact-at" else "secondary", theme)
        tag(fig.axes[i].plot([x], [y], ls="", marker="o", ms=6, color=colour, mec=t["ink"], mew=0.8,
                             zorder=6)[0], name)
    return fig


# --- the Explore panel: ranks at the barrier, and the jitter σ/μ ------------------------------
# a probe along the model's own sweep of N (every other point), opening at the job's GPU count
RANKS = Probe("n", "Ranks N at the barrier", "count", every=2, default=lambda out: out["params"]["gpus"])
# the assumption that drives the cost: the model re-run at each σ/μ (the page's 1% is a stop)
JITTER = Slider("jitter_cv", "Per-rank jitter σ/μ (assumed)", "%",
                (0.0025, 0.005, 0.0075, 0.01, 0.015, 0.02, 0.03))


def _flagged(out: dict, i: int | None) -> str:
    """At the probed N: its own threshold for the day's false alarms (the model's n_delay99)."""
    s, m = out["series"], out["summary"]
    if s["n_delay99"][i] < 0:
        return f"not within the {m['window']}-step window"
    return f"{int(s['n_delay99'][i])} steps, {fmt_seconds(s['n_delay99_seconds'][i])}"


def probe_marks(data: dict, i: int) -> dict[str, tuple[int, float, float]]:
    s = data["series"]
    return {"exact-at": (0, s["n"][i], s["exact"][i]), "gumbel-at": (0, s["n"][i], s["gumbel"][i])}


EXPLORE = Panel(
    figure="expected-max",
    title="Explore: ranks at the barrier, and the jitter",
    sliders=(RANKS, JITTER),
    readouts=(
        Readout("Expected maximum m_N, in σ (exact)", "1", series("exact")),
        Readout("Gumbel approximation, in σ", "1", series("gumbel")),
        Readout("Growth rate √(2 ln N), in σ", "1", series("lead")),
        # the rows below are the model's at each probed N, at the page's step time μ (not the job's N alone)
        Readout("Step longer than μ from jitter alone, N ranks", "%", series("n_jitter_step")),
        Readout(lambda out: f"One GPU {fmt_percent(out['summary']['slowdown'])} slower adds, on top of jitter "
                            "(GPU-hours a day, N GPUs)", "count", series("n_slow_added")),
        Readout("Detector flags it (99% of the time, threshold for N ranks) within", "text", _flagged),
    ),
    marks=probe_marks,
)


def detector(data: dict, theme: str):
    """Left: ROC of the detector k steps after onset (analytic lines, simulated points).
    Right: steps until flagged versus the window W, at the one-false-alarm-a-day threshold."""
    s, m, p = data["series"], data["summary"], data["params"]
    t = palette.THEMES[theme]
    fig, (ax, ax2) = plt.subplots(1, 2, figsize=(8, 4.2), gridspec_kw={"wspace": 0.3})
    colours = [palette.role(r, theme) for r in ("primary", "secondary", "tertiary", "quaternary")]
    at_h = {int(r["k"]): r for r in data["records"]["roc_at_h"]}
    for i, k in enumerate(int(v) for v in p["roc_steps_after"]):
        c = colours[i % len(colours)]
        ax.plot(s[f"roc_fpr_{k}"], s[f"roc_tpr_{k}"], color=c, lw=1.6,
                label=f"{k} step{'s' if k > 1 else ''} after onset")
        # a log axis drops the simulated zeros: the simulation sees no false flag that rare
        fs, ts = np.asarray(s[f"roc_fpr_sim_{k}"])[::5], np.asarray(s[f"roc_tpr_sim_{k}"])[::5]
        ax.plot(fs[fs > 0], ts[fs > 0], "o", ms=3.5, color=c)
        ax.plot([at_h[k]["fpr"]], [at_h[k]["tpr"]], "D", ms=6, color=c, mec=t["ink"], mew=0.8, zorder=5)
    # the false-positive rate runs over decades: on a log axis the day's threshold is a point, not x = 0
    fpr_lo = 10.0 ** np.floor(np.log10(min(np.min(s[f"roc_fpr_{k}"]) for k in at_h)))
    fpr_h = m["fpr_per_check"]
    chance = np.logspace(np.log10(fpr_lo), 0, 50)
    ax.plot(chance, chance, color=t["muted"], lw=0.8, ls=":")
    # h's false-positive rate, up to the highest diamond (a full-height line would cross the legend)
    ax.plot([fpr_h, fpr_h], [0, max(r["tpr"] for r in at_h.values())], color=palette.role("highlight", theme),
            lw=1.0, ls="-.")
    # in the empty upper left, above the curves: they rise only past the day's rate
    ax.annotate(f"◆ at h = {m['threshold']:.2f}:\n{m['false_alarms_per_day']:g} false alarm/day,\n"
                f"rate {fpr_h:.1e} per check", (fpr_lo * 3, 0.6), ha="left", va="center", fontsize=SMALL,
                color=t["ink"])
    decades = [10.0 ** e for e in range(int(np.log10(fpr_lo)), 1, 3)]
    log_axis(ax, "x", fpr_lo, 1.0, ticks=decades, fmt=lambda v: "1" if v == 1 else f"1e{int(round(np.log10(v)))}",
             label="false-positive rate per check (healthy rank flagged)")
    ax.set_ylim(0, 1.02)
    ax.set_ylabel("true-positive rate (straggler flagged)")
    ax.legend(fontsize=SMALL, loc="upper left", title="lines: analytic, dots: simulated",
              title_fontsize=SMALL, borderaxespad=0.3)
    ax.set_title(f"W = {m['window']}, straggler +{fmt_percent(m['slowdown'])}, σ/μ = "
                 f"{fmt_percent(m['jitter_cv'])}", fontsize=10, color=t["muted"], loc="left")

    w = np.asarray(s["w"], dtype=float)
    d99 = np.asarray(s["delay99"], dtype=float)
    d50 = np.asarray(s["delay50"], dtype=float)
    ok99, ok50 = d99 > 0, d50 > 0
    ax2.plot(w, w, color=t["muted"], ls=":", lw=1.0, label="window full (k = W)")
    ax2.plot(w[ok50], d50[ok50], color=palette.role("secondary", theme), lw=1.4, label="flagged half the time")
    ax2.plot(w[ok99], d99[ok99], color=palette.role("primary", theme), lw=1.8,
             label=f"flagged {fmt_percent(m['delay_confidence'])} of the time")
    ax2.plot([m["window"]], [m["delay99_steps"]], "D", ms=7, color=palette.role("highlight", theme),
             label=f"W = {m['window']}: {m['delay99_steps']} steps, {fmt_seconds(m['delay99_seconds'])}")
    log_axis(ax2, "x", float(w[0]), float(w[-1]), ticks=[2, 5, 10, 20, 50, 100, 200, 500, 1000],
             label="window W (steps)")
    log_axis(ax2, "y", 1, float(w[-1]) * 3, ticks=[1, 2, 5, 10, 20, 50, 100, 200, 500, 1000],
             label="steps after onset until flagged")
    ax2.legend(fontsize=SMALL, loc="upper left", borderaxespad=0.3)
    ax2.set_title(f"threshold z > {m['threshold']:.2f}: {m['false_alarms_per_day']:g} false alarm/day",
                  fontsize=10, color=t["muted"], loc="left")
    fig.subplots_adjust(left=0.08, right=0.98, top=0.92, bottom=0.13)
    return fig


def flight_recorder(data: dict, theme: str):
    """Left: the last step of the slow run as each rank's flight recorder logged it (compute, then
    each collective from the rank's entry to its end). Right: each rank's mean recorded duration of
    the gradient and the TP all-reduces over its ring buffer: the slow GPU has the shortest."""
    s, m, rec = data["series"], data["summary"], data["records"]["fr_last_step"]
    t = palette.THEMES[theme]
    ranks = np.asarray(s["fr_rank"], dtype=int)
    slow, tp = int(m["fr_slow_rank"]), int(m["fr_tp"])
    fig, (ax, ax2) = plt.subplots(1, 2, figsize=(8, 4.2), gridspec_kw={"width_ratios": [1.35, 1], "wspace": 0.3})
    colour = {"compute": palette.role("compute", theme), "tp": palette.role("tertiary", theme),
              "dp": palette.role("primary", theme)}
    # each rank computes from the end of its previous collective to its entry into the next one
    for r in ranks:
        prev = 0.0
        for row in (x for x in rec if x["rank"] == r):
            ax.barh(r, row["enter"] - prev, left=prev, height=0.62, color=colour["compute"], lw=0)
            ax.barh(r, row["exit"] - row["enter"], left=row["enter"], height=0.62, color=colour[row["group"]], lw=0)
            prev = row["exit"]
    for g in range(1, len(ranks) // tp):
        ax.axhline(g * tp - 0.5, color=t["grid"], lw=0.8)
    ax.set_yticks(ranks, [f"rank {r}" + (" (slow)" if r == slow else "") for r in ranks], fontsize=SMALL)
    ax.get_yticklabels()[slow].set_color(palette.role("failure", theme))
    ax.invert_yaxis()
    end = max(x["exit"] for x in rec)
    ax.set_xlim(0, end * 1.02)
    ax.set_xlabel("time in the step (s)")
    ax.legend(handles=[plt.Rectangle((0, 0), 1, 1, color=colour[k]) for k in ("compute", "tp", "dp")],
              labels=["computing", f"in a TP all-reduce (groups of {tp})", "in the gradient all-reduce"],
              fontsize=SMALL, loc="upper center", bbox_to_anchor=(0.5, -0.13), ncol=2, frameon=False)
    ax.set_title("one step, as each rank's records show it", fontsize=10, color=t["muted"], loc="left")

    w = 0.38
    bar_dp = ax2.bar(ranks - w / 2, s["fr_dur_dp"], w, color=colour["dp"], label="gradient all-reduce")
    bar_tp = ax2.bar(ranks + w / 2, s["fr_dur_tp"], w, color=colour["tp"], label="TP all-reduce")
    for bars in (bar_dp, bar_tp):
        bars[slow].set_edgecolor(palette.role("failure", theme))
        bars[slow].set_linewidth(1.6)
    ax2.axhline(m["fr_collective_time"], color=t["muted"], ls=":", lw=1.0)
    ax2.set_xticks(ranks, [str(r) for r in ranks], fontsize=SMALL)
    ax2.get_xticklabels()[slow].set_color(palette.role("failure", theme))
    ax2.set_xlabel(f"rank (slow: {slow})")
    ax2.set_ylabel("mean recorded duration (s)")
    ax2.set_ylim(0, float(np.max(s["fr_dur_dp"])) * 1.55)
    ax2.legend(fontsize=SMALL, loc="upper left", borderaxespad=0.3,
               title=f"dotted: transfer alone, {fmt_seconds(m['fr_collective_time'])}", title_fontsize=SMALL)
    ax2.set_title(f"last {m['fr_ring']} records per rank", fontsize=10, color=t["muted"], loc="left")
    fig.subplots_adjust(left=0.15, right=0.98, top=0.92, bottom=0.25)
    return fig
