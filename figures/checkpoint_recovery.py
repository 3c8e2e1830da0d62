"""Figures for checkpoint-recovery (MTTR as a sum of parts, and what it costs).

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
from models.units import MINUTE, fmt_count, fmt_percent, fmt_seconds

SMALL = MIN_FONT
# hues an eye tells apart (the load is green, so it never meets the communicator's blue); the
# assumed process restart is drawn in neutral grey ("muted"), not a sixth hue next to the yellow
PART_ROLES = {"detection": "failure", "rescheduling": "restart", "process restart": "muted",
              "communicator init": "cpu", "metadata opens": "storage", "checkpoint load": "gpu"}


def _part_colour(part: str, theme: str) -> str:
    role = PART_ROLES[part]
    return palette.THEMES[theme]["muted"] if role == "muted" else palette.role(role, theme)


def _tick_seconds(v: float) -> str:
    """A round tick as a round label: "1 s", "60 s", "10 min", not "1.00 s" or "10.0 min"."""
    text = fmt_seconds(v)
    number, _, unit = text.partition(" ")
    return f"{float(number):g} {unit}" if unit and number.replace(".", "").isdigit() else text


def _seconds_axis(ax, which: str, lo: float, hi: float, label: str, fmt=fmt_seconds) -> None:
    ticks = [t for t in (0.1, 1, 10, 60, 600, 3600) if lo <= t <= hi]
    log_axis(ax, which, lo, hi, fmt=fmt, ticks=ticks, label=label)


def _stacked(ax, rec: list, ways: list[str], names: list[str], unit: float, theme: str,
             tagged: bool = False) -> np.ndarray:
    """One stacked bar per recovery in `ways`, its parts in `unit` seconds; returns the totals.
    `tagged`: each segment is tagged for the Explore panel (`<way>-<part>`)."""
    t = palette.THEMES[theme]
    left = np.zeros(len(ways))
    for row in rec:
        vals = np.array([row[w] for w in ways]) / unit
        bars = ax.barh(names, vals, left=left, color=_part_colour(row["part"], theme),
                       label=row["part"], height=0.55, edgecolor=t["bg"], linewidth=0.6)
        if tagged:
            for way, patch in zip(ways, bars.patches, strict=True):
                tag(patch, f"{way}-{row['part'].replace(' ', '-')}")
        left += vals
    return left


def recovery_parts(data: dict, theme: str):
    """Left: stacked bars of the six parts, the unoptimized worst case on a minutes axis above, the fast full and
    the partial restart on a seconds axis below (each on its own linear scale, so every part shows).
    Right: the stampede's wait versus one metadata server's rate, one server and sharded."""
    s, m, p, rec = data["series"], data["summary"], data["params"], data["records"]["parts"]
    t = palette.THEMES[theme]
    fig = plt.figure(figsize=(8, 5.2))
    grid = fig.add_gridspec(2, 2, wspace=0.42, hspace=0.75, width_ratios=[1.15, 1], height_ratios=[1, 1.6])
    ax_slow, ax_fast, ax_m = fig.add_subplot(grid[0, 0]), fig.add_subplot(grid[1, 0]), fig.add_subplot(grid[:, 1])

    # --- the parts: the worst case in minutes, the two fast recoveries in seconds ------------------------
    total = _stacked(ax_slow, rec, ["slow"], ["unoptimized\nworst case"], MINUTE, theme)[0]
    ax_slow.text(total + 0.5, 0, fmt_seconds(m["mttr_slow"]), va="center", ha="left", fontsize=SMALL + 1,
                 color=t["ink"])
    ax_slow.set_xlim(0, total * 1.3)
    ax_slow.set_xlabel("minutes", fontsize=SMALL + 1)
    ax_slow.set_title(f"{fmt_count(p['gpus'])} ranks, one failure", fontsize=10, color=t["muted"], loc="left")
    totals = _stacked(ax_fast, rec, ["fast", "partial"], ["fast full\nrestart", "partial\n(one node)"], 1.0, theme,
                      tagged=True)
    for i, (way, tot) in enumerate(zip(("fast", "partial"), totals, strict=True)):
        tag(ax_fast.text(max(tot, MINUTE) + 3, i, fmt_seconds(tot), va="center", ha="left", fontsize=SMALL + 1,
                         color=t["ink"]), f"{way}-total")
    # the partial restart's range with the page's sweeps moved together, as a whisker under its bar, and a crash's
    # end (heartbeats, not the progress timeout) as a tick above it; both move with the spare's slider
    below, above = 1 + 0.36, 1 - 0.36
    tag(ax_fast.plot([m["mttr_partial_low"], m["mttr_partial_high"]], [below, below], color=t["ink"], lw=1.1,
                     marker="|", ms=7, mew=1.3)[0], "partial-range")
    # right of the 1-minute line, which would strike it through, and fixed (untagged: it must not move)
    ax_fast.text(MINUTE + 3, below + 0.05, "range of the sweeps", ha="left", va="top", fontsize=SMALL,
                 color=t["muted"])
    tag(ax_fast.plot([m["mttr_partial_crash"]] * 2, [above, above - 0.14], color=t["ink"], lw=1.4)[0],
        "partial-crash")
    tag(ax_fast.text(m["mttr_partial_crash"], above - 0.16, "a crash", ha="right", va="bottom", fontsize=SMALL,
                     color=t["muted"]), "partial-crash-label")
    ax_fast.axvline(MINUTE, color=t["muted"], lw=1.0, ls="--")
    ax_fast.text(MINUTE + 1.5, -0.62, "1 min", ha="left", va="bottom", fontsize=SMALL, color=t["muted"])
    # room for the Explore panel's slowest detection and warm spare (their last stops) on the same axis, and for
    # the partial restart's range (its high end already takes the longest timeout; the spare's swap moves it)
    slowest_k = (max(TIMEOUT_STOPS) - p["progress_timeout_steps"]) * m["step_time"]
    ax_fast.set_xlim(0, (max(max(totals) + slowest_k, m["mttr_partial_high"]) + max(SPARE_STOPS)
                         - p["fast_reschedule"]) * 1.15)
    ax_fast.set_ylim(1.75, -0.75)  # first bar on top, room for the 1-minute label and the range under the last
    ax_fast.set_xlabel("seconds", fontsize=SMALL + 1)
    handles, labels = ax_fast.get_legend_handles_labels()
    fig.legend(handles, labels, fontsize=SMALL, loc="lower left", ncol=3, bbox_to_anchor=(0.06, -0.02),
               handlelength=1.2, frameon=False)
    fig.subplots_adjust(bottom=0.22)

    # --- the stampede's sensitivity to the metadata rate ----------------------------------------
    mu = np.asarray(s["mds_rate"], dtype=float)
    one = np.asarray(s["metadata_one"], dtype=float)
    sharded = np.asarray(s["metadata_sharded"], dtype=float)
    ax_m.axvspan(p["mds_rate_low"], p["mds_rate_high"], color=t["muted"], alpha=0.15, lw=0,
                 label="measured Lustre MDS range")
    ax_m.plot(mu, one, color=palette.role("bad", theme), lw=1.8, label="one metadata server")
    ax_m.plot(mu, sharded, color=palette.role("ok", theme), lw=1.8,
              label=f"{fmt_count(p['metadata_shards'])} metadata shards")
    ax_m.plot([p["mds_rate"]], [m["slow_metadata_opens"]], "o", color=palette.role("bad", theme), ms=5)
    ax_m.plot([p["mds_rate"]], [m["fast_metadata_opens"]], "o", color=palette.role("ok", theme), ms=5)
    lo_y, hi_y = float(sharded.min()) / 2, float(one.max()) * 30
    _seconds_axis(ax_m, "y", lo_y, hi_y, f"wait for {fmt_count(m['metadata_opens'])} lookups")
    log_axis(ax_m, "x", float(mu[0]), float(mu[-1]), fmt=lambda v: f"{v / 1e3:g}k",
             ticks=[v for v in (2e4, 5e4, 1e5, 2e5, 5e5) if mu[0] <= v <= mu[-1]],
             label="lookups per second, one server (log)")
    ax_m.legend(fontsize=SMALL, loc="upper right", borderaxespad=0.3)
    ax_m.set_title(f"{fmt_count(p['files_per_rank'])} lookups/rank, local env. (assumed)", fontsize=10,
                   color=t["muted"], loc="left")
    return fig


def goodput_vs_mttr(data: dict, theme: str):
    """Goodput at τ* versus MTTR (log), the worst case, the same with today's store (a hang and a crash) and the
    fast restart marked, the R → 0 bound, the Llama 3 report's 90% and ByteRobust's 97%."""
    s, m, p = data["series"], data["summary"], data["params"]
    t = palette.THEMES[theme]
    r = np.asarray(s["mttr"], dtype=float)
    g = np.asarray(s["goodput"], dtype=float)
    fig, ax = plt.subplots(figsize=(8, 4.5))
    ax.plot(r, g, color=palette.role("primary", theme), lw=1.9, label="goodput at the optimum interval τ*")
    ax.axhline(m["goodput_zero"], color=palette.role("save", theme), lw=1.1, ls=":",
               label=f"MTTR → 0: writes and lost work alone, {fmt_percent(m['goodput_zero'])}")
    ax.axhline(p["reported_ettr"], color=palette.role("ok", theme), lw=1.0, ls="-.",
               label=f"ByteRobust: {fmt_percent(p['reported_ettr'])} ETTR, three-month job")
    # the partial-restart design does not sit on the curve (it loses half a step, not τ*/2): its goodput over the
    # record as a level, at scene 10's τ* and with the durable checkpoint re-spaced for it
    ax.axhline(m["goodput_partial"], color=palette.role("tertiary", theme), lw=1.0, ls="-",
               label=f"partial-restart design, record's mix: {fmt_percent(m['goodput_partial'])} "
                     f"({fmt_percent(m['goodput_partial_reoptimised'])} re-spaced, dotted)")
    ax.axhline(m["goodput_partial_reoptimised"], color=palette.role("tertiary", theme), lw=1.0, ls=(0, (1, 2)))
    ax.axhline(p["reported_efficiency"], color=t["muted"], lw=1.1, ls="--",
               label=f"Llama 3 report: > {fmt_percent(p['reported_efficiency'])} effective training time")
    ax.plot([m["mttr_slow"]], [m["goodput_slow"]], "o", color=palette.role("bad", theme), ms=7,
            label=f"unoptimized worst case: MTTR {fmt_seconds(m['mttr_slow'])} → {fmt_percent(m['goodput_slow'])}")
    ax.plot([m["mttr_current"]], [m["goodput_current"]], "s", color=palette.role("bad", theme), ms=6,
            mfc="none", mew=1.6,
            label=f"same with PyTorch's libuv store, a hang: MTTR {fmt_seconds(m['mttr_current'])} → "
                  f"{fmt_percent(m['goodput_current'])}")
    # a crash the launcher sees does not wait for the NCCL timeout: the same recovery, detection aside
    ax.plot([m["mttr_current_crash"]], [m["goodput_current_crash"]], "^", color=palette.role("bad", theme), ms=6.5,
            mfc="none", mew=1.6,
            label=f"the same, a crash: MTTR {fmt_seconds(m['mttr_current_crash'])} → "
                  f"{fmt_percent(m['goodput_current_crash'])}")
    ax.plot([m["mttr_fast"]], [m["goodput_fast"]], "D", color=palette.role("ok", theme), ms=6.5,
            label=f"fast full restart: MTTR {fmt_seconds(m['mttr_fast'])} → {fmt_percent(m['goodput_fast'])}")
    # the fast restart's point sits a hair under ByteRobust's line: say so where it is drawn
    ax.annotate(f"{fmt_percent(m['goodput_fast'])}: just under {fmt_percent(p['reported_ettr'])}",
                (m["mttr_fast"], m["goodput_fast"]), xytext=(-12, -22), textcoords="offset points", ha="right",
                va="top", fontsize=SMALL, color=t["ink"],
                arrowprops={"arrowstyle": "-", "color": t["muted"], "lw": 0.8})
    y_lo = np.floor((min(float(g.min()), p["reported_efficiency"]) - 0.04) * 25) / 25  # a whole 4%
    top = max(m["goodput_zero"], m["goodput_partial_reoptimised"]) + 0.008
    ax.set_ylim(y_lo - 0.008, top)
    # the limit for the report's share: a vertical line from the axis up to where the curve crosses it (the
    # curve leaves the planned stops out, so the line is the limit without them)
    ax.plot([m["restart_for_reported_unplanned"]] * 2, [y_lo - 0.008, p["reported_efficiency"]], color=t["muted"],
            lw=0.9, ls=":")
    ax.yaxis.set_major_locator(FixedLocator(np.arange(y_lo, top, 0.04)))
    ax.yaxis.set_major_formatter(PercentFormatter(1.0, decimals=0))
    ax.set_ylabel("useful share of wall time")
    _seconds_axis(ax, "x", float(r[0]), float(r[-1]), "recovery time per failure, MTTR (log scale)",
                  fmt=_tick_seconds)
    ax.legend(fontsize=SMALL, loc="lower left", borderaxespad=0.3)
    ax.set_title(f"{fmt_count(p['interruptions'])} interruptions in {fmt_seconds(p['observation_window'])}: "
                 f"one every {fmt_seconds(m['mtbf'])}\n> {fmt_percent(p['reported_efficiency'])} needs MTTR ≤ "
                 f"{fmt_seconds(m['restart_for_reported_unplanned'])} (vertical line); ≤ "
                 f"{fmt_seconds(m['restart_for_reported'])} with the {fmt_count(p['planned_interruptions'])} "
                 "planned stops",
                 fontsize=10, color=t["muted"], loc="left")
    return fig


# --- the Explore panel: the two assumed waits of the fast recoveries --------------------------------
# A hang's detection (the progress timeout, in steps, plus localisation) and the warm spare's swap (15 s) are
# assumptions that carry most of the partial restart; they move both fast recoveries, and together they show
# where the partial restart stops being sub-minute (the page's wait budget). Each grid point is one model run.
TIMEOUT_STOPS = (2, 3, 4, 5, 7, 10)
SPARE_STOPS = (5.0, 10.0, 15.0, 20.0, 30.0, 45.0, 60.0)
EXPLORE = Panel(
    figure="recovery-parts",
    title="Explore: the hang's progress timeout and the warm spare's swap",
    sliders=(Slider("progress_timeout_steps", "Steps without progress before a hang is declared (assumed)", "count",
                    TIMEOUT_STOPS),
             Slider("fast_reschedule", "Time to swap in a warm spare (assumed)", "s", SPARE_STOPS)),
    readouts=(
        # in seconds throughout (unit "1"): the fast full restart crosses two minutes inside the sweep, where
        # "s" would switch to minutes and the column would change unit under the reader
        Readout("Fast full restart, MTTR (s)", "1", summary("mttr_fast")),
        Readout("Partial restart, MTTR (s)", "1", summary("mttr_partial")),
        Readout("Goodput, fast full restart", "%", summary("goodput_fast")),
        Readout("GPU-hours per failure, partial restart", "count", summary("gpu_hours_per_failure_partial")),
    ),
)
