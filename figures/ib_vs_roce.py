"""Figures for scene ib-vs-roce, InfiniBand vs RoCE v2 (lossless transport).

A figure function reads the model output (build/data/<id>.json) and draws;
the pipeline calls it inside figures.theme.themed(theme) and saves the SVG.
Colour says which fabric (InfiniBand credits, RoCE v2 PFC); the line style says
whether its congestion control is on, so like is compared with like.
"""

from __future__ import annotations

import matplotlib.pyplot as plt
import numpy as np
from matplotlib.ticker import FuncFormatter

from design import palette
from figures.explore import Panel, Readout, Slider, summary, tag
from models.units import fmt_bytes, si

RUNS = (("credit", "InfiniBand credits, CC off", "credit", "-"),
        ("pfc", "RoCE v2 PFC, CC off", "pause", "-"),
        ("credit_cc", "InfiniBand + FECN/BECN", "credit", "--"),
        ("pfc_dcqcn", "RoCE v2 + ECN/DCQCN", "pause", "--"))


def queues_and_victim(data: dict, theme: str):
    """Top: the shared ingress (U -> A) queue depth under each scheme, XOFF marked.
    Bottom: the victim flow's throughput, against what it asked for."""
    s, m = data["series"], data["summary"]
    t = palette.THEMES[theme]
    us = np.asarray(s["time"]) * 1e6
    fig, (ax_q, ax_v) = plt.subplots(2, 1, figsize=(8, 5.0), sharex=True,
                                     gridspec_kw={"hspace": 0.18})
    kb = 1e3
    for key, name, role, ls in RUNS:  # the lines the Explore panel moves with the cable length
        c = palette.role(role, theme)
        tag(ax_q.plot(us, np.asarray(s[f"{key}_ingress_bytes"]) / kb, color=c, lw=1.6, ls=ls, label=name)[0],
            f"queue-{key}")
        tag(ax_v.plot(us, np.asarray(s[f"{key}_victim_rate"]) / 1e9, color=c, lw=1.6, ls=ls)[0], f"victim-{key}")
    top = max(float(np.max(np.asarray(s[f"{k}_ingress_bytes"]))) for k, *_ in RUNS) / kb
    # room above the page's highest queue for the Explore panel's longest cable, drawn in this frame
    ax_q.set_ylim(0, top * 1.4)
    ax_q.axhline(m["xoff"] / kb, color=t["muted"], lw=1.0, ls=":", label="_xoff")
    _edge_label(ax_q, m["xoff"] / kb, "PFC XOFF", t["muted"])
    ax_q.set_ylabel("shared ingress\nqueue (kB)")
    ax_v.set_ylim(0, m["victim_rate"] / 1e9 * 1.45)
    ax_v.axhline(m["victim_rate"] / 1e9, color=t["ink"], lw=1.0, ls=":")
    _edge_label(ax_v, m["victim_rate"] / 1e9, "victim's\ndemand", t["ink"])
    ax_v.set_ylabel("victim flow\n(GB/s)")
    ax_v.set_xlabel("time (µs)")
    ax_v.set_xlim(0, us[-1])
    for ax in (ax_q, ax_v):  # no tick label beyond the axis, where it would meet the other panel's
        lo, hi = ax.get_ylim()
        ax.set_yticks([v for v in ax.get_yticks() if lo <= v <= hi])
    fig.subplots_adjust(right=0.86)
    fig.legend(*ax_q.get_legend_handles_labels(), loc="lower center", ncol=2, fontsize=9.5,
               bbox_to_anchor=(0.5, -0.1))
    return fig


def _edge_label(ax, y: float, text: str, color: str):
    """A horizontal reference line's name, just outside the right edge of the axes (clear of data)."""
    ax.annotate(text, (1.0, y), xycoords=("axes fraction", "data"), xytext=(5, 0),
                textcoords="offset points", ha="left", va="center", fontsize=9, color=color)


def headroom_vs_cable(data: dict, theme: str):
    """PFC headroom above XOFF versus cable length: bytes on the wire, one line per link speed,
    against what a switch reserves in cells and what NVIDIA's NIC driver allows."""
    s, m = data["series"], data["summary"]
    t = palette.THEMES[theme]
    L = np.asarray(s["cable_length"])
    fig, ax = plt.subplots(figsize=(8, 4.8))
    rates = sorted((float(k[len("headroom_"):-1]), k) for k in s if k.startswith("headroom_") and k.endswith("g"))
    colours = [palette.role(r, theme) for r in ("primary", "secondary", "tertiary", "quaternary")]
    here = m["link_rate"] * 8 / 1e9
    for i, (gbps, key) in enumerate(rates):
        c = t["ink"] if gbps == here else colours[i % len(colours)]
        ax.plot(L, np.asarray(s[key]) / 1e3, color=c, lw=2.2 if gbps == here else 1.4,
                label=f"on the wire, {gbps:g} Gb/s")
    ax.plot(L, np.asarray(s["switch_reserve"]) / 1e3, color=palette.role("bad", theme), lw=2.0, ls="-.",
            label=f"switch reservation in {m['cell_size']:g}-byte cells, {here:g} Gb/s")
    ax.plot(L, np.asarray(s["mlx5_xoff"]) / 1e3, color=t["muted"], ls="--", lw=1.4,
            label=f"NIC driver (mlx5) xoff, {here:g} Gb/s")
    ax.plot([m["cable_length"]], [m["headroom"] / 1e3], "o", color=t["ink"], ms=5)
    ax.plot([m["cable_length"]], [m["switch_reserve"] / 1e3], "o", color=palette.role("bad", theme), ms=5)
    # the two values at the page's cable length, named in the empty corner above the lines
    top = max(float(np.max(np.asarray(s[k]))) for _, k in rates) / 1e3
    for i, (text, c) in enumerate((
            (f"● {fmt_bytes(m['switch_reserve'])} reserved in cells", palette.role("bad", theme)),
            (f"● {fmt_bytes(m['headroom'])} on the wire", t["ink"]))):
        ax.text(0.03, 0.95 - 0.08 * i, f"{text} at {m['cable_length']:g} m", transform=ax.transAxes,
                ha="left", va="top", fontsize=9.5, color=c)
    ax.set_xlim(0, L[-1])
    ax.set_ylim(0, top * 1.05)
    ax.yaxis.set_major_formatter(FuncFormatter(lambda y, _: f"{y:g}"))
    ax.set_xlabel("cable length (m)")
    ax.set_ylabel("headroom above XOFF (kB)")
    fig.legend(*ax.get_legend_handles_labels(), loc="lower center", ncol=2, fontsize=9,
               bbox_to_anchor=(0.5, -0.14))
    return fig


def busy_vs_cable(data: dict, theme: str):
    """With congestion control on, how busy the bottleneck stays and what the victim gets, against the
    cable length: the notices need a cable round trip to reach the senders."""
    s, m = data["series"], data["summary"]
    t = palette.THEMES[theme]
    L = np.asarray(s["cc_cable_length"])
    fig, (ax_b, ax_v) = plt.subplots(2, 1, figsize=(8, 5.0), sharex=True, gridspec_kw={"hspace": 0.18})
    for key, name, role in (("credit_cc", "InfiniBand + FECN/BECN", "credit"),
                            ("pfc_dcqcn", "RoCE v2 + ECN/DCQCN", "pause")):
        c = palette.role(role, theme)
        # the line is the mean over the seeds, the band their range (the seeds' spread at each length)
        ax_b.fill_between(L, np.asarray(s[f"{key}_busy_lo"]) * 100, np.asarray(s[f"{key}_busy_hi"]) * 100,
                          color=c, alpha=0.2, lw=0)
        ax_b.plot(L, np.asarray(s[f"{key}_busy"]) * 100, "o-", color=c, lw=1.6, ms=4,
                  label=f"{name} (mean of {m['cc_seeds']:g} seeds, band: their range)")
        ax_v.fill_between(L, np.asarray(s[f"{key}_victim_share_lo"]) * 100,
                          np.asarray(s[f"{key}_victim_share_hi"]) * 100, color=c, alpha=0.2, lw=0)
        ax_v.plot(L, np.asarray(s[f"{key}_victim_share"]) * 100, "o--", color=c, lw=1.4, ms=4)
    ax_b.axhline(m["busy_floor"] * 100, color=t["muted"], lw=1.0, ls=":")
    _edge_label(ax_b, m["busy_floor"] * 100, f"{m['busy_floor']:.0%}", t["muted"])
    ax_b.axvline(m["cc_busy_up_to"], color=t["muted"], lw=1.0, ls=":")
    ax_b.annotate(f"both at least {m['busy_floor']:.0%} busy\nup to {m['cc_busy_up_to']:g} m",
                  (m["cc_busy_up_to"], 52), xytext=(6, 0), textcoords="offset points", fontsize=9,
                  color=t["ink"], va="bottom")
    ax_b.set_ylim(50, 105)
    ax_b.set_ylabel("bottleneck busy\n(% of line rate)")
    ax_v.axhline(100, color=t["ink"], lw=1.0, ls=":")
    _edge_label(ax_v, 100, "victim's\ndemand", t["ink"])
    ax_v.set_ylim(50, 115)
    for ax in (ax_b, ax_v):  # ticks inside each panel only, clear of the other panel's
        ax.set_yticks([60, 80, 100])
    ax_v.set_ylabel("victim gets\n(% of demand)")
    ax_v.set_xscale("log")
    ax_v.set_xlim(L[0] * 0.8, L[-1] * 1.25)
    ax_v.xaxis.set_major_formatter(FuncFormatter(lambda x, _: f"{x:g}"))
    ax_v.set_xlabel("cable length (m), log scale")
    fig.subplots_adjust(right=0.86)
    fig.legend(*ax_b.get_legend_handles_labels(), loc="lower center", ncol=1, fontsize=9.5,
               bbox_to_anchor=(0.5, -0.1))
    return fig


def _kb(key: str):
    return lambda out, i: si(out["summary"][key], "B")


def _seeds(out: dict) -> str:
    return f"{out['summary']['cc_seeds']:g}"


# --- the Explore panel: cable length ---------------------------------------------------
# Stops from the distance sweep's own lengths, so every stop's congestion-controlled runs are ones the
# page's model already ran (the memo hands them back): the panel costs the CC-off runs at three more
# lengths. It stops at 500 m, the longest cable whose queues fit the page figure's frame (top * 1.4): at 700 m the
# credits' uncontrolled queue reaches 475 kB against the frame's 430 kB, so no 700 m stop.
EXPLORE = Panel(
    figure="queues-and-victim",
    title="Explore: cable length",
    sliders=(Slider("cable_length", "Cable length between the switches (m)", "m", (10.0, 100.0, 300.0, 500.0)),),
    readouts=(
        # both in decimal kB: a reservation that happens to be a power of two would print in KiB
        Readout("PFC headroom, bytes on the wire", "B", _kb("headroom")),
        Readout("What a Spectrum switch reserves (SONiC's formula)", "B", _kb("switch_reserve")),
        Readout("Victim's share of its demand, PFC with CC off", "%", summary("pfc_victim_share")),
        # the congestion-controlled readouts read the distance sweep's mean over its seeds at the stop's
        # cable, as the page and the third figure do: one seed's run jumps from stop to stop
        Readout(lambda o: f"Victim's share of its demand, ECN/DCQCN (mean of {_seeds(o)} seeds)", "%",
                summary("pfc_dcqcn_victim_share_mean")),
        Readout(lambda o: f"Bottleneck idle, FECN/BECN (mean of {_seeds(o)} seeds)", "%",
                summary("credit_cc_idle")),
        Readout(lambda o: f"Bottleneck idle, ECN/DCQCN (mean of {_seeds(o)} seeds)", "%",
                summary("pfc_dcqcn_idle")),
    ),
    notes=("The lines are one seed's runs; the readouts for the controlled runs are the seeds' mean. Longer "
           "cables, where DCQCN leaves the bottleneck idle more often, are in the third figure: their "
           "uncontrolled queues would not fit this frame.",),
)
