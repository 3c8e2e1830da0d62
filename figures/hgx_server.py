"""Figures for the hgx-server scene (the HGX node): per-path bandwidth and the power budget.

Reads the model output of models.hgx_server.hgx_server; the pipeline calls each
function inside figures.theme.themed(theme) and saves the SVG.
"""

from __future__ import annotations

import matplotlib.pyplot as plt
import numpy as np

from design import palette
from figures.axes import log_axis
from figures.explore import Panel, Readout, Slider, summary, tag
from models.units import fmt_rate

HOST = "host_to_gpu"  # the path the Explore panel moves: DDR5's sustained share sets it or not


def path_bandwidth(data: dict, theme: str):
    """Left: per-GPU bandwidth of each path alone versus all GPUs at once (log axis).
    Right: the system's maximum power split into GPUs, CPUs and the remainder."""
    s, m, rec = data["series"], data["summary"], data["records"]
    t = palette.THEMES[theme]
    alone_c, cont_c = palette.role("tertiary", theme), palette.role("secondary", theme)

    fig, (ax, axp) = plt.subplots(1, 2, figsize=(8, 4.5),
                                  gridspec_kw={"width_ratios": [3.2, 1], "wspace": 0.08})

    # --- per-path bandwidth ---------------------------------------------------
    names = rec["path_names"]
    y = np.arange(len(names))[::-1]
    h = 0.36
    alone = np.asarray(s["alone"], dtype=float)
    cont = np.asarray(s["contended"], dtype=float)
    ax.barh(y + h / 2, alone, h, color=alone_c, label="one transfer alone")
    bars = ax.barh(y - h / 2, cont, h, color=cont_c, label=f"each of {m['gpus']} at once")
    host = rec["path_kinds"].index(HOST)
    tag(bars[host], "host-contended")
    lo, hi = min(cont.min(), alone.min()) / 2, max(alone.max(), cont.max()) * 6
    log_axis(ax, "x", lo, hi, fmt=lambda v: fmt_rate(v, 1), label="bandwidth per GPU, per direction (log scale)")
    pcie = m["pcie_x16_payload_rate"]  # what an x16 link carries once packet headers are paid
    ax.axvline(pcie, color=t["muted"], lw=1.0, ls="--")
    renderer = fig.canvas.get_renderer()
    for i, (yi, a, c) in enumerate(zip(y, alone, cont)):
        for x, yy in ((a, yi + h / 2), (c, yi - h / 2)):
            if yy < yi and np.isclose(c, a) and i != host:  # equal bars need one label (the host's moves)
                continue
            txt = ax.text(x * 1.12, yy, fmt_rate(x), va="center", fontsize=9, color=t["ink"])
            if yy < yi and i == host:
                tag(txt, "host-contended-label")
            x0, x1 = (ax.transData.inverted().transform(txt.get_window_extent(renderer))[:, 0])
            if x0 < pcie < x1:  # the label would be struck by the PCIe line: set it past the line
                txt.set_x(pcie * 1.08)
    ax.set_yticks(y)
    # the host bars are an upper bound: a posted write's packets, with the socket's DDR5 at the share the
    # model is given (its peak unless the Explore panel moves it); the label says so
    eff = m["memory_efficiency"]
    ddr = "DDR5 at its peak" if eff >= 1 else f"DDR5 at {eff * 100:.3g}% of peak"
    names = [f"{n}\n(posted writes, {ddr})" if k == HOST else n for n, k in zip(names, rec["path_kinds"])]
    ax.set_yticklabels(names, fontsize=9.5)
    ax.grid(axis="y", visible=False)
    ax.text(pcie, y[0] + 0.62, " PCIe 5.0 x16", fontsize=9, color=t["muted"], va="center")
    ax.set_ylim(y[-1] - 0.6, y[0] + 0.8)
    ax.legend(loc="lower center", bbox_to_anchor=(0.5, -0.25), ncol=2, fontsize=9.5)

    # --- power budget -----------------------------------------------------------
    parts = rec["power_parts"]
    watts = np.asarray(s["power_watts"], dtype=float)
    colours = [palette.role("gpu", theme), palette.role("cpu", theme), t["muted"]]
    bottom = 0.0
    for name, w, c in zip(parts, watts, colours):
        axp.bar(0, w / 1e3, 0.6, bottom=bottom / 1e3, color=c)
        axp.text(0.36, (bottom + w / 2) / 1e3, f"{name}\n{w / 1e3:.3g} kW", va="center",
                 fontsize=9, color=t["ink"])
        bottom += w
    axp.set_xlim(-0.4, 2.1)
    axp.set_ylim(0, m["system_max_power"] / 1e3 * 1.08)
    axp.set_xticks([])
    axp.yaxis.tick_right()
    axp.yaxis.set_label_position("right")
    axp.set_ylabel("maximum system power (kW)")
    axp.spines["right"].set_visible(True)
    axp.spines["left"].set_visible(False)
    axp.grid(axis="x", visible=False)
    return fig


EXPLORE = Panel(
    figure="path-bandwidth",
    title="Explore: how much of its DDR5 peak a socket sustains",
    sliders=(Slider("memory_efficiency", "DDR5 sustained, share of its peak", "%",
                    (0.5, 0.6, 0.7, 0.75, 0.8, 0.85, 0.9, 0.95, 1.0)),),
    # only what the slider moves: the host path with every GPU copying at once
    readouts=(
        Readout("Host DRAM → each GPU, all at once (posted-write best case)", "B/s", summary("host_to_gpu_contended")),
        Readout("One socket's DDR5, sustained", "B/s", summary("dram_sustained_per_socket")),
    ),
    notes=("The x16 links bind only while a socket sustains more than the break-even share of its DDR5 peak;"
           " below it, the socket's memory is the bottleneck and the four GPUs split what it sustains.",),
)

__all__ = ["path_bandwidth", "EXPLORE"]
