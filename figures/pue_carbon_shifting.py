"""Figures for pue-carbon-shifting, datacenter PUE and temporal compute shifting.

A figure function reads the model output (build/data/<id>.json) and draws;
the pipeline calls it inside figures.theme.themed(theme) and saves the SVG.
"""

from __future__ import annotations

import matplotlib.pyplot as plt
import numpy as np
from matplotlib.patches import Patch
from matplotlib.ticker import MaxNLocator, PercentFormatter

from design import palette
from figures.axes import MIN_FONT
from figures.explore import Panel, Readout, Slider, summary, tag
from models.units import sig

SMALL = MIN_FONT
MONTH_STARTS = np.cumsum([0, 31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30]) + 1
MONTHS = ("J", "F", "M", "A", "M", "J", "J", "A", "S", "O", "N", "D")


def pue_through_the_year(data: dict, theme: str):
    """Left: daily PUE over the year with each day's hourly range, against the annual PUE and the
    published fleet figures. Right: PUE versus outdoor temperature at the year's mean IT load."""
    s, m, p = data["series"], data["summary"], data["params"]
    t = palette.THEMES[theme]
    main = palette.role("primary", theme)
    google_c, industry_c = palette.role("ok", theme), palette.role("bad", theme)
    fig, (ax, ax_t) = plt.subplots(1, 2, figsize=(8, 4.2), gridspec_kw={"width_ratios": [1.6, 1], "wspace": 0.28})

    day = np.asarray(s["day"], dtype=float)
    ax.fill_between(day, s["pue_daily_min"], s["pue_daily_max"], color=main, alpha=0.22, lw=0,
                    label="hourly range within the day")
    ax.plot(day, s["pue_daily"], color=main, lw=1.2, label="daily mean")
    ax.axhline(m["pue_annual"], color=t["ink"], lw=1.0, ls="--",
               label=f"annual, energy-weighted: {m['pue_annual']:.2f}")
    ax.axhline(p["google_pue"], color=google_c, lw=1.2, ls=":", label=f"Google fleet 2023: {p['google_pue']:.2f}")
    ax.set_xlim(1, 365)
    ax.set_ylim(1.0, max(float(np.max(s["pue_daily_max"])) * 1.08, 1.45))
    ax.set_xticks(MONTH_STARTS)
    ax.set_xticklabels(MONTHS)
    ax.set_ylabel("PUE")
    ax.set_title(f"Industry average 2023 (Uptime): {p['industry_pue']:.2f}, off the top of this scale",
                 fontsize=SMALL, color=t["muted"], loc="left")
    ax.legend(fontsize=SMALL, loc="upper left", ncol=2, handlelength=1.6, borderaxespad=0.3)

    temp = np.asarray(s["temperature"], dtype=float)
    pue_t = np.asarray(s["pue_at_temperature"], dtype=float)
    ax_t.plot(temp, pue_t, color=main, lw=1.5)
    lo, hi = m["free_cooling_below_c"], m["chilled_water_c"]
    ax_t.axvspan(temp[0], lo, color=google_c, alpha=0.12, lw=0)
    ax_t.axvspan(hi, temp[-1], color=industry_c, alpha=0.10, lw=0)
    ax_t.set_xlim(temp[0], temp[-1])
    ax_t.set_ylim(1.0, float(pue_t.max()) * 1.12)
    y_text = float(pue_t.max()) * 1.07
    ax_t.text(temp[0] + 1, y_text, "free\ncooling", fontsize=SMALL, color=t["ink"], va="top")
    ax_t.text(temp[-1] - 1, y_text, "chiller", fontsize=SMALL, color=t["ink"], va="top", ha="right")
    ax_t.set_xlabel("outdoor dry-bulb temperature (°C)")
    ax_t.set_ylabel("PUE at the mean IT load")
    fig.subplots_adjust(left=0.08, right=0.98, bottom=0.14, top=0.9)
    return fig


def carbon_and_shifting(data: dict, theme: str):
    """Left: PJM 2022 carbon intensity by local hour, mean and 10-90% band, with the submission window.
    Right: share of the batch jobs' emissions saved versus deadline slack."""
    s, m, p = data["series"], data["summary"], data["params"]
    t = palette.THEMES[theme]
    main = palette.role("primary", theme)
    jobs_c = palette.role("compute", theme)
    fig, (ax, ax_s) = plt.subplots(1, 2, figsize=(8, 4.2), gridspec_kw={"width_ratios": [1.3, 1], "wspace": 0.3})

    hour = np.asarray(s["hour"], dtype=float) + 0.5  # row k is the hour ending k+1
    ax.fill_between(hour, s["ci_diurnal_p10"], s["ci_diurnal_p90"], color=main, alpha=0.2, lw=0,
                    label="10th-90th percentile of days")
    ax.plot(hour, s["ci_diurnal"], color=main, lw=1.6, label="mean day")
    tag(ax.axvspan(p["submit_from"], p["submit_to"] + 1, color=jobs_c, alpha=0.12, lw=0,
                   label="batch jobs submitted"), "window")
    ax.set_xlim(0, 24)
    ax.set_xticks([0, 6, 12, 18, 24])
    ax.set_xlabel("hour of the day (Eastern Standard Time, all year)")
    ax.set_ylabel("grid carbon intensity (g CO$_2$/kWh)")
    lo = float(np.min(s["ci_diurnal_p10"]))
    hi = float(np.max(s["ci_diurnal_p90"]))
    ax.set_ylim(lo - 0.05 * (hi - lo), hi + 0.45 * (hi - lo))
    ax.legend(fontsize=SMALL, loc="upper left", handlelength=1.6, borderaxespad=0.3)
    ax.set_title("PJM, 2022 (EIA-930)", fontsize=SMALL, color=t["muted"], loc="left")

    slack = np.asarray(s["slack"], dtype=float)
    tag(ax_s.plot(slack, s["jobs_saved"], "o-", color=jobs_c, lw=1.5, ms=4,
                  label="jobs, foresight (upper bound)")[0], "foresight")
    # the scheduler that sees only the past: placed on the same hours of earlier days, scored on the actual
    tag(ax_s.plot(slack, s["jobs_saved_forecast"], "D--", color=jobs_c, lw=1.2, ms=3.5,
                  label="jobs, forecast from past days")[0], "forecast")
    tag(ax_s.plot(slack, s["total_saved"], "s-", color=t["muted"], lw=1.2, ms=3.5,
                  label="whole site, foresight")[0], "site")
    tag(ax_s.vlines(p["slack"], 0, m["saved_jobs"], color=t["ink"], lw=0.9, ls="--"), "at")
    ax_s.yaxis.set_major_formatter(PercentFormatter(1.0, decimals=0))
    ax_s.set_ylim(0, float(np.max(s["jobs_saved"])) * 1.45)
    ax_s.set_xlim(0, float(slack.max()) * 1.04)
    ax_s.set_xlabel("deadline slack (hours)")
    ax_s.set_ylabel("CO$_2$ saved by shifting")
    ax_s.legend(fontsize=SMALL, loc="upper left", handlelength=1.6, borderaxespad=0.3)
    tag(ax_s.set_title(f"{p['slack']} h slack: {m['saved_jobs_forecast']:.1%} forecast, {m['saved_jobs']:.1%} at most",
                       fontsize=SMALL, color=t["muted"], loc="left"), "title")
    fig.subplots_adjust(left=0.09, right=0.98, bottom=0.14, top=0.9)
    return fig


def the_other_levers(data: dict, theme: str):
    """Left: the batch jobs' CO₂ in a year at each grid, split into running (shifted) and moving the data, for a
    full checkpoint per job (the worst case), the weights only and no transfer. Right: what pausing the
    pre-training run saves against what a paused node draws, on PJM (with and without the restart's cost) and
    on the grid with the deepest daily valley, the page's assumed draw dotted."""
    rows, mv, p = data["records"]["sites"], data["records"]["moving"], data["params"]
    t = palette.THEMES[theme]
    run_c, move_c = palette.role("compute", theme), palette.role("bad", theme)
    fig, (ax, ax_r) = plt.subplots(1, 2, figsize=(8, 4.8), gridspec_kw={"width_ratios": [1.3, 1], "wspace": 0.5})

    cases = [("checkpoint (worst)", "transfer_t"), ("weights only", "transfer_weights_t"),
             ("no transfer", None)]
    height = 0.26
    labels, ys = [], []
    slot = 0.0
    for i, r in enumerate(rows):
        for case, key in (cases if i else cases[-1:]):
            y = -slot * (height + 0.08)
            slot += 1.0
            moved = r[key] if key else 0.0
            ax.barh(y, r["shifted_t"], height=height, color=run_c, lw=0)
            ax.barh(y, moved, left=r["shifted_t"], height=height, color=move_c, lw=0)
            ax.text(r["shifted_t"] + moved, y, f" {r['shifted_t'] + moved:,.0f}", va="center", fontsize=SMALL,
                    color=t["ink"])
            labels.append(f"{r['grid']}, {case}" if i else f"{r['grid']}, home")
            ys.append(y)
        slot += 0.6  # a gap between grids
    ax.set_yticks(ys)
    ax.set_yticklabels(labels, fontsize=SMALL)
    ax.set_xlabel("the batch jobs' CO$_2$ in a year (t)")
    ax.set_xlim(0, max(r["shifted_t"] + r["transfer_t"] for r in rows) * 1.22)
    ax.legend(handles=[Patch(color=run_c, label="running, shifted"), Patch(color=move_c, label="moving the data")],
              fontsize=SMALL, loc="lower right", handlelength=1.2, borderaxespad=0.3)
    ax.set_title("send the jobs to another grid", fontsize=SMALL, color=t["muted"], loc="left")

    # the pause's saving against what a paused node draws: linear in the share, on PJM and the swingiest grid
    rows_i = mv["idle_sweep"]
    share = np.array([r["share"] for r in rows_i])
    ax_r.axhline(0, color=t["muted"], lw=0.8)
    ax_r.plot(share, [r["saved"] for r in rows_i], "o-", color=run_c, lw=1.5, ms=4, label="PJM")
    ax_r.plot(share, [r["saved_free_pauses"] for r in rows_i], "--", color=run_c, lw=1.0,
              label="PJM, free pauses")
    ax_r.plot(share, [r["saved_there"] for r in rows_i], "s-", color=palette.role("primary", theme), lw=1.5, ms=4,
              label=mv["pause_there_grid"])
    ax_r.axvline(p["paused_share"], color=move_c, lw=0.9, ls=":")
    ax_r.text(p["paused_share"], ax_r.get_ylim()[1], f"this page: {p['paused_share']:.0%} ", fontsize=SMALL,
              color=move_c, va="top", ha="right")
    ax_r.xaxis.set_major_formatter(PercentFormatter(1.0, decimals=0))
    ax_r.yaxis.set_major_formatter(PercentFormatter(1.0, decimals=0))
    ax_r.yaxis.set_major_locator(MaxNLocator(nbins=5, steps=[1, 2, 5, 10]))  # whole percents, room between
    # below the axes: the three lines cross the whole panel, so no corner inside it stays clear at every scenario
    ax_r.legend(fontsize=SMALL, loc="upper center", bbox_to_anchor=(0.45, -0.17), ncol=2, handlelength=1.6,
                frameon=False, columnspacing=1.0)
    ax_r.set_xlabel("paused node's draw, of busy")
    ax_r.set_ylabel(f"run's CO$_2$ saved, paused {p['pause_hours']} h a day")
    ax_r.set_title(f"pause the run ({p['restart_cost']:.0f} s restarts)", fontsize=SMALL,
                   color=t["muted"], loc="left")
    fig.subplots_adjust(left=0.235, right=0.98, bottom=0.27, top=0.9)
    return fig


def _window(out: dict, i: int | None) -> str:
    """The submission window the stop sets, as the page words it (Eastern Standard Time)."""
    p = out["params"]
    return f"{p['submit_from']}:00 to {p['submit_to']}:00"


def _google_multiple(out: dict, i: int | None) -> str | None:
    """The takeaway's multiple, this building's CO₂ above Google's fleet over the best saving, to the two figures
    the page prints it with (None, shown as a dash, where shifting saves nothing)."""
    v = out["problems"]["google_vs_shifting"]
    return None if v is None else f"{sig(v, 2)} times"


# The two assumptions the shifting answer rests on besides the slack (the figure's own x axis): the heat
# exchangers' approach sets when the economiser gives way to the chiller, so the building's share of the saving and
# the annual PUE (the sensitivity table's approach row spans the page's ±2 K); the submission window sets how far
# the jobs start from the night's clean, cool hours (the page compares a round-the-clock window; here its start moves
# from midnight to late afternoon, its end held). Each stop is one model run, about a second: 5 × 6 runs.
EXPLORE = Panel(
    figure="carbon-and-shifting",
    title="Explore: the cooling plant and the submission window",
    sliders=(
        Slider("approach", "Heat-exchanger approach Δ (economiser and condenser)", "K", (2.0, 4.0, 6.0, 8.0, 10.0)),
        Slider("submit_from", "First hour jobs are submitted (Eastern Standard Time)", "count",
               (0, 3, 6, 9, 12, 15)),
    ),
    readouts=(
        Readout("Submission window", "text", _window),
        Readout("Jobs' CO₂ saved, forecast from past days", "%", summary("saved_jobs_forecast")),
        Readout("Jobs' CO₂ saved, foresight (upper bound)", "%", summary("saved_jobs")),
        Readout("Jobs' electricity saved, forecast", "%",
                lambda out, i: out["records"]["split"]["energy_saved_forecast"]),
        Readout("Annual PUE", "1", summary("pue_annual")),
        Readout("CO₂ of the overhead above Google's fleet, against the best saving", "text", _google_multiple),
    ),
    notes=("The grid's hourly intensity (left) does not move: both sliders change the jobs or the building, not PJM. "
           "The window's last hour stays the page's; at the first stop the jobs arrive at any hour up to it.",),
)
