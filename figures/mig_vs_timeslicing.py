"""Figures for mig-vs-timeslicing: MIG hardware slicing against time-slicing.

A figure function reads the model output (build/data/<id>.json) and draws;
the pipeline calls it inside figures.theme.themed(theme) and saves the SVG.
"""

from __future__ import annotations

import matplotlib.pyplot as plt
import numpy as np
from matplotlib.patches import Rectangle

from design import palette
from figures.axes import MIN_FONT
from figures.explore import Panel, Readout, Slider, summary, tag
from models.units import MS, US, fmt_seconds

SMALL = MIN_FONT + 1

_PROFILE_ROLE = {"1g.10gb": "primary", "1g.10gb+me": "primary", "1g.20gb": "secondary", "2g.20gb": "tertiary",
                 "3g.40gb": "quaternary", "4g.40gb": "bad", "7g.80gb": None}


def mig_layouts(data: dict, theme: str):
    """Left: the H100 80GB's MIG profiles and their start slots on memory slices 0-7 (the guide's figure,
    from the model's placement rule). Right: the tenant mix packed onto MIG instances, per GPU: the SMs
    tenants need, the SMs their instances own beyond that, and the SMs no instance owns."""
    s, rec = data["summary"], data["records"]
    t = palette.THEMES[theme]
    fig, (ax, ax2) = plt.subplots(1, 2, figsize=(8, 4.2), gridspec_kw={"width_ratios": [1.15, 1], "wspace": 0.42})

    profiles = [p for p in rec["profiles"] if not p["name"].endswith("+me")]
    n_mem = s["memory_slices"]
    for row, p in enumerate(profiles):
        y = len(profiles) - 1 - row
        r = _PROFILE_ROLE[p["name"]]
        colour = palette.role(r, theme) if r else t["muted"]
        for start in p["starts"]:
            ax.add_patch(Rectangle((start + 0.06, y + 0.14), p["memory"] - 0.12, 0.72, facecolor=colour,
                                   edgecolor=t["bg"], lw=1.0))
            ax.text(start + 0.06 + (p["memory"] - 0.12) / 2, y + 0.5, str(start), ha="center", va="center",
                    fontsize=SMALL, color=t["bg"], fontweight="bold")
    ax.set_xlim(0, n_mem)
    ax.set_ylim(0, len(profiles))
    ax.set_xticks(np.arange(n_mem) + 0.5)
    ax.set_xticklabels([str(i) for i in range(n_mem)])
    ax.set_yticks(np.arange(len(profiles)) + 0.5)
    ax.set_yticklabels([f"{p['name']}  ({p['sms']} SMs)" for p in reversed(profiles)], fontsize=SMALL)
    ax.tick_params(axis="both", length=0)
    ax.set_xlabel("memory slice (the number in a bar: its start)")
    ax.set_title("Where each H100 MIG profile may start", fontsize=MIN_FONT + 2)
    ax.set_xticks(np.arange(1, n_mem), minor=True)
    ax.grid(False)
    ax.grid(True, which="minor", axis="x", color=t["grid"], lw=0.6)
    ax.set_axisbelow(True)

    gpus = rec["mig_gpus"]
    tenants = rec["tenants"]
    need_c, slack_c, idle_c = (palette.role("compute", theme), palette.role("rework", theme),
                               palette.role("bad", theme))
    width = 0.6
    for g in gpus:
        x = g["gpu"]
        need = sum(tt["sms"] for tt in tenants if tt["gpu"] == x)
        slack = g["owned_sms"] - need
        ax2.bar(x, need, width, color=need_c, label="SMs the tenants need" if x == 1 else None)
        ax2.bar(x, slack, width, bottom=need, color=slack_c,
                label="owned by an instance, unused" if x == 1 else None)
        ax2.bar(x, g["unowned_sms"], width, bottom=g["owned_sms"], color=idle_c, alpha=0.55, hatch="//",
                edgecolor=t["bg"], label="owned by no instance" if x == 1 else None)
    ax2.axhline(s["gpu_sms"], color=t["muted"], lw=1.0, ls="--")
    ax2.set_axisbelow(True)
    ax2.grid(False, axis="x")
    ax2.set_xticks([g["gpu"] for g in gpus])
    ax2.set_xticklabels([f"GPU {g['gpu']}" for g in gpus])
    ax2.set_ylim(0, s["gpu_sms"] * 1.5)
    ax2.set_ylabel("SMs")
    ax2.set_title(f"{s['tenant_count']} tenants on {s['mig_gpus']} MIG GPUs", fontsize=MIN_FONT + 2)
    ax2.legend(loc="upper center", fontsize=SMALL, frameon=False, ncol=1)
    fig.subplots_adjust(left=0.2, right=0.98, top=0.9, bottom=0.14)
    return fig


def latency_distribution(data: dict, theme: str):
    """Left: the distribution of one tenant's latency under time-slicing (analytic mixture and the seeded
    rotation walk; neighbours busy with probability u, and all busy), against the fixed latency on the
    equal MIG share. Right: mean, 99th percentile and worst case versus the switch cost c."""
    s, p, ser = data["summary"], data["params"], data["series"]
    t = palette.THEMES[theme]
    fig, (ax, ax2) = plt.subplots(1, 2, figsize=(8, 4.2), gridspec_kw={"wspace": 0.3})
    x = np.asarray(ser["latency"], dtype=float) / MS
    ts_c, sat_c = palette.role("primary", theme), palette.role("secondary", theme)
    mig_c = palette.role("gpu", theme)
    # the Explore panel moves what depends on u (tagged); the all-busy curve and the MIG line do not
    tag(ax.plot(x, ser["cdf"], color=ts_c, lw=1.8, label="time-sliced, load u (analytic)")[0],
        "cdf")
    step = max(1, len(x) // 40)
    tag(ax.plot(x[::step], np.asarray(ser["cdf_mc"])[::step], "o", ms=3.5, color=ts_c, alpha=0.7,
                label=f"simulated, {p['trials']:,} requests")[0], "cdf-mc")
    ax.plot(x, ser["cdf_saturated"], color=sat_c, lw=1.5, ls="--", label="time-sliced, all neighbours busy")
    # the MIG latency moves with S_eff (tagged); at a given S_eff it is the same for every request
    tag(ax.axvline(s["mig_latency"] / MS, color=mig_c, lw=2.0, label=f"MIG {s['share_profile']}: every request"),
        "mig-left")
    ax.set_xlim(0, x[-1])
    ax.set_ylim(0, 1.7)
    ax.set_yticks([0, 0.25, 0.5, 0.75, 1.0])
    ax.set_xlabel("latency of one request (ms)")
    ax.set_ylabel("share of requests finished")
    tag(ax.set_title(f"{p['tenants']} tenants, W = {fmt_seconds(p['work'])}, u = {p['busy']:.2g}, "
                     f"S_eff = {s['usable_sms']} SMs", fontsize=MIN_FONT + 2), "title-left")
    ax.legend(loc="upper left", fontsize=SMALL, frameon=False)

    c = np.asarray(ser["switch_dense"], dtype=float) / US
    tag(ax2.plot(c, np.asarray(ser["sweep_mean"]) / MS, color=ts_c, lw=1.8, label="time-sliced: mean")[0],
        "sweep-mean")
    tag(ax2.plot(c, np.asarray(ser["sweep_p99"]) / MS, color=sat_c, lw=1.5, ls="--", label="99th pct.")[0],
        "sweep-p99")
    ax2.plot(c, np.asarray(ser["sweep_worst"]) / MS, color=palette.role("bad", theme), lw=1.2, ls=":",
             label="worst")
    tag(ax2.axhline(s["mig_latency"] / MS, color=mig_c, lw=2.0, label=f"MIG {s['share_profile']}"), "mig-right")
    ax2.axvline(p["switch"] / US, color=t["muted"], lw=1.0, ls="-.", label="assumed c")
    ax2.set_xlim(0, c[-1])
    hi = max(float(np.max(ser["sweep_worst"])), s["mig_latency"]) / MS
    ax2.set_ylim(0, hi * 1.6)
    ax2.set_xlabel("context-switch cost c (µs)")
    ax2.set_ylabel("latency (ms)")
    ax2.set_title(f"time slice q = {fmt_seconds(p['quantum'])}, assumed c = {fmt_seconds(p['switch'])}",
                  fontsize=MIN_FONT + 2)
    ax2.legend(loc="upper left", fontsize=SMALL, frameon=False, ncol=2)
    fig.subplots_adjust(left=0.08, right=0.95, top=0.9, bottom=0.14)
    return fig


# --- the Explore panel: the neighbours' load u and the SMs a request can use, S_eff ---------
# u drives the time-sliced distribution (not the MIG latency, not the all-busy worst case); from idle
# neighbours to always busy, in the page's busy_sweep steps and finer; 0.5 (the page's value) is a stop.
# S_eff drives the MIG latency, W·max(1, S_eff/S) (not time-slicing: each turn has the whole GPU); from one
# 1g instance's 16 SMs to the whole GPU's 132 (the page's value), through the page's sweep points 32 and 66
def _at_least_basis_point(share: float) -> float:
    """A share as shown in the panel: below 0.01% it reads as 0."""
    return share if share >= 1e-4 else 0.0


def _ts_done_by_mig(out: dict, i) -> float:
    """The share of time-sliced requests finished by the time the MIG instance finishes (at this S_eff)."""
    return next(r["ts_faster"] for r in out["records"]["usable_sms_sweep"] if r["assumed"])


EXPLORE = Panel(
    figure="latency-distribution",
    title="Explore: how busy the neighbours are, and how many SMs a request can use",
    sliders=(Slider("busy", "Chance a neighbour has work during the request, u", "1",
                    tuple(round(0.1 * k, 1) for k in range(11))),
             Slider("usable_sms", "SMs one request can keep busy, S_eff", "count",
                    (16, 32, 48, 66, 99, 132))),
    readouts=(
        # shares under 0.01% read as 0: "0.000100%" says nothing a reader can use
        Readout("Time-sliced: request runs alone (under 0.01% shown as 0)", "%",
                lambda out, i: _at_least_basis_point(out["summary"]["ts_alone_share"])),
        Readout("Time-sliced: mean latency", "s", summary("ts_mean")),
        Readout("Time-sliced: 99th percentile", "s", summary("ts_p99")),
        Readout("Time-sliced: worst case (all busy)", "s", summary("ts_worst")),
        Readout("MIG instance: every request", "s", summary("mig_latency")),
        Readout("Time-sliced requests finished by then", "%", _ts_done_by_mig),
    ),
)
