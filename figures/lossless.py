"""Figures for scene 05, InfiniBand vs RoCE v2 (lossless transport).

A figure function reads the model output (build/data/<id>.json) and draws;
the pipeline calls it inside figures.theme.themed(theme) and saves the SVG.
"""

from __future__ import annotations

import matplotlib.pyplot as plt
import numpy as np
from matplotlib.ticker import FuncFormatter

from design import palette
from models.units import fmt_bytes

RUNS = (("credit", "credits (InfiniBand)", "credit"),
        ("pfc", "PFC, no congestion control", "pause"),
        ("pfc_dcqcn", "PFC + ECN/DCQCN", "ring"))


def queues_and_victim(data: dict, theme: str):
    """Top: the shared ingress (U -> A) queue depth under each scheme, XOFF marked.
    Bottom: the victim flow's throughput, against what it asked for."""
    s, m = data["series"], data["summary"]
    t = palette.THEMES[theme]
    us = np.asarray(s["time"]) * 1e6
    fig, (ax_q, ax_v) = plt.subplots(2, 1, figsize=(8, 4.5), sharex=True,
                                     gridspec_kw={"hspace": 0.18})
    kb = 1e3
    for key, name, role in RUNS:
        c = palette.role(role, theme)
        ax_q.plot(us, np.asarray(s[f"{key}_ingress_bytes"]) / kb, color=c, lw=1.6, label=name)
        ax_v.plot(us, np.asarray(s[f"{key}_victim_rate"]) / 1e9, color=c, lw=1.6)
    ax_q.axhline(m["xoff"] / kb, color=t["muted"], lw=1.0, ls="--")
    ax_q.text(us[-1], m["xoff"] / kb, "XOFF ", ha="right", va="bottom", fontsize=9,
              color=t["muted"])
    ax_q.set_ylabel("shared ingress\nqueue (KB)")
    ax_q.set_ylim(0, None)
    ax_v.axhline(m["victim_rate"] / 1e9, color=t["ink"], lw=1.0, ls=":")
    ax_v.text(us[-1], m["victim_rate"] / 1e9, "victim's demand ", ha="right", va="bottom",
              fontsize=9, color=t["ink"])
    ax_v.set_ylabel("victim flow\n(GB/s)")
    ax_v.set_ylim(0, m["victim_rate"] / 1e9 * 1.35)
    ax_v.set_xlabel("time (µs)")
    ax_v.set_xlim(0, us[-1])
    fig.legend(*ax_q.get_legend_handles_labels(), loc="lower center", ncol=3, fontsize=9.5,
               bbox_to_anchor=(0.5, -0.06))
    return fig


def headroom_vs_cable(data: dict, theme: str):
    """PFC headroom above XOFF versus cable length, one line per link speed."""
    s, m = data["series"], data["summary"]
    t = palette.THEMES[theme]
    L = np.asarray(s["cable_length"])
    fig, ax = plt.subplots(figsize=(8, 4.5))
    colours = [palette.role("primary", theme), palette.role("secondary", theme), palette.GREEN,
               palette.PURPLE, palette.VERMILLION]
    for c, rate in zip(colours, s["sweep_rates"]):
        h = np.asarray(s["headroom_by_rate"][f"{rate:.0f}"])
        ax.plot(L, h / 1e3, color=c, label=f"{rate * 8 / 1e9:g} Gb/s")
    ax.plot(L, np.asarray(s["mlx5_xoff"]) / 1e3, color=t["muted"], ls="--", lw=1.4,
            label=f"mlx5 driver formula, {m['link_rate'] * 8 / 1e9:g} Gb/s")
    ax.plot([m["cable_length"]], [m["headroom"] / 1e3], "o", color=t["ink"], ms=5)
    ax.annotate(f"{fmt_bytes(m['headroom'])} at {m['cable_length']:g} m",
                (m["cable_length"], m["headroom"] / 1e3), xytext=(16, 16),
                textcoords="offset points", fontsize=9, color=t["ink"])
    ax.set_xlim(0, L[-1])
    ax.set_ylim(0, None)
    ax.yaxis.set_major_formatter(FuncFormatter(lambda y, _: f"{y:g}"))
    ax.set_xlabel("cable length (m)")
    ax.set_ylabel("headroom above XOFF (KB)")
    ax.legend(loc="upper left", fontsize=9.5)
    return fig
