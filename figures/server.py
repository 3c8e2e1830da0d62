"""Figures for scene 04 (the HGX node): per-path bandwidth and the power budget.

Reads the model output of models.server.hgx_server; the pipeline calls each
function inside figures.theme.themed(theme) and saves the SVG.
"""

from __future__ import annotations

import matplotlib.pyplot as plt
import numpy as np
from matplotlib.ticker import FixedLocator, FuncFormatter, NullFormatter

from design import palette
from models.units import fmt_rate


def path_bandwidth(data: dict, theme: str):
    """Left: per-GPU bandwidth of each path alone versus all GPUs at once (log axis).
    Right: the system's maximum power split into GPUs, CPUs and the remainder."""
    s, m = data["series"], data["summary"]
    t = palette.THEMES[theme]
    alone_c, cont_c = palette.role("tertiary", theme), palette.role("secondary", theme)

    fig, (ax, axp) = plt.subplots(1, 2, figsize=(8, 4.5),
                                  gridspec_kw={"width_ratios": [3.2, 1], "wspace": 0.08})

    # --- per-path bandwidth ---------------------------------------------------
    names = s["path_names"]
    y = np.arange(len(names))[::-1]
    h = 0.36
    alone = np.asarray(s["alone"], dtype=float)
    cont = np.asarray(s["contended"], dtype=float)
    ax.barh(y + h / 2, alone, h, color=alone_c, label="one transfer alone")
    ax.barh(y - h / 2, cont, h, color=cont_c, label=f"each of {m['gpus']} at once")
    for yi, a, c in zip(y, alone, cont):
        ax.text(a * 1.12, yi + h / 2, fmt_rate(a), va="center", fontsize=8.5, color=t["ink"])
        if not np.isclose(c, a):  # equal bars need one label
            ax.text(c * 1.12, yi - h / 2, fmt_rate(c), va="center", fontsize=8.5, color=t["ink"])
    ax.set_yticks(y)
    ax.set_yticklabels(names, fontsize=9.5)
    ax.set_xscale("log")
    lo, hi = min(cont.min(), alone.min()) / 2, max(alone.max(), cont.max()) * 6
    ax.set_xlim(lo, hi)
    decades = [10.0**e for e in range(int(np.ceil(np.log10(lo))), int(np.floor(np.log10(hi))) + 1)]
    ax.xaxis.set_major_locator(FixedLocator(decades))
    ax.xaxis.set_major_formatter(FuncFormatter(lambda x, _: fmt_rate(x, 1)))
    ax.xaxis.set_minor_formatter(NullFormatter())
    ax.xaxis.set_minor_locator(FixedLocator([]))
    ax.set_xlabel("bandwidth per GPU, per direction (log scale)")
    ax.grid(axis="y", visible=False)
    ax.axvline(m["pcie_x16_rate"], color=t["muted"], lw=1.0, ls="--")
    ax.text(m["pcie_x16_rate"], y[0] + 0.62, " PCIe 5.0 x16", fontsize=8.5, color=t["muted"],
            va="center")
    ax.set_ylim(y[-1] - 0.6, y[0] + 0.8)
    ax.legend(loc="lower center", bbox_to_anchor=(0.5, -0.25), ncol=2, fontsize=9.5)

    # --- power budget -----------------------------------------------------------
    parts = s["power_parts"]
    watts = np.asarray(s["power_watts"], dtype=float)
    colours = [palette.role("gpu", theme), palette.role("cpu", theme), t["muted"]]
    bottom = 0.0
    for name, w, c in zip(parts, watts, colours):
        axp.bar(0, w / 1e3, 0.6, bottom=bottom / 1e3, color=c)
        axp.text(0.36, (bottom + w / 2) / 1e3, f"{name}\n{w / 1e3:.3g} kW", va="center",
                 fontsize=8.5, color=t["ink"])
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


__all__ = ["path_bandwidth"]
