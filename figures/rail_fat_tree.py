"""Figures for the topology scene (rail-optimized fat-tree and Dragonfly+).

A figure function reads the model output (build/data/<id>.json) and draws;
the pipeline calls it inside figures.theme.themed(theme) and saves the SVG.
"""

from __future__ import annotations

import matplotlib.pyplot as plt
import numpy as np
from matplotlib.ticker import FixedLocator, FuncFormatter, NullFormatter

from design import palette
from figures.axes import label_clear
from models.units import fmt_count, fmt_rate


def _count_label(x: float) -> str:
    for div, suffix in ((1e6, "M"), (1e3, "k")):
        if x >= div:
            return f"{x / div:g}{suffix}"
    return f"{x:g}"


def scale_and_cost(data: dict, theme: str):
    """Left: most GPUs each topology connects versus radix, scenario marked.
    Right: switches, optical port-ends per GPU and bisection of the scenario's Dragonfly+ as shares of the
    fat-tree's (the fat-tree is non-blocking, the Dragonfly+ is not)."""
    s, m = data["series"], data["summary"]
    t = palette.THEMES[theme]
    c2, c3, cdf = (palette.role("primary", theme), palette.role("secondary", theme),
                   palette.role("tertiary", theme))
    k = np.asarray(s["radix"], dtype=float)

    fig, (ax, ax_c) = plt.subplots(1, 2, figsize=(8, 4.5),
                                   gridspec_kw={"width_ratios": [1.35, 1], "wspace": 0.38})

    # --- reach versus radix ------------------------------------------------------
    ax.plot(k, s["fat_tree_2"], color=c2, label="fat-tree, 2 tiers: k²/2")
    ax.plot(k, s["fat_tree_3"], color=c3, label="fat-tree, 3 tiers: k³/4")
    ax.plot(k, s["dragonfly_plus"], color=cdf, label="Dragonfly+: (k²/4)(k²/4 + 1)")
    ax.set_xscale("log", base=2)
    ax.set_yscale("log")
    ax.xaxis.set_major_locator(FixedLocator([8, 16, 32, 64, 128]))
    ax.xaxis.set_major_formatter(FuncFormatter(lambda x, _: f"{x:g}"))
    ax.xaxis.set_minor_formatter(NullFormatter())
    ax.set_xlim(k[0], k[-1])
    ymax = float(np.max(s["dragonfly_plus"])) * 2
    ax.set_ylim(10, ymax)
    ax.yaxis.set_major_locator(FixedLocator([10.0**e for e in range(1, int(np.log10(ymax)) + 1)]))
    ax.yaxis.set_major_formatter(FuncFormatter(lambda y, _: _count_label(y)))
    ax.yaxis.set_minor_formatter(NullFormatter())
    ax.set_xlabel("switch radix k (ports, log scale)")
    ax.set_ylabel("most GPUs, one port each (log scale)")

    G, kk = m["gpus"], m["radix"]
    ax.axhline(G, color=t["muted"], lw=1.1, ls="--", label=f"the scenario: {fmt_count(G)} GPUs")
    ax.axvline(kk, color=t["muted"], lw=1.1, ls=":")
    for y, c in ((m["max_hosts_2"], c2), (m["max_hosts_3"], c3), (m["df_max_hosts"], cdf)):
        ax.plot([kk], [y], "o", color=c, ms=5)
    ax.legend(loc="upper left", fontsize=9)
    for y, c, text in ((m["max_hosts_2"], c2, f"k = {kk}: {fmt_count(m['max_hosts_2'])}"),
                       (m["max_hosts_3"], c3, fmt_count(m["max_hosts_3"])),
                       (m["df_max_hosts"], cdf, fmt_count(m["df_max_hosts"]))):
        label_clear(ax, kk, y, text, fontsize=9, color=c)

    # --- cost and capacity at the scenario size, relative to the fat-tree -----------
    # one axis, one unit: each quantity as a share of the fat-tree's, the absolute value written on the bar;
    # the bars take the left panel's colours for the same fabrics (three-tier tree, Dragonfly+)
    c_ft = c3 if m["tiers"] == 3 else c2
    groups = ["switches", "optical\nport-ends", "bisection"]
    ft_vals = [m["switches"], m["fat_tree_optics_per_gpu"], m["bisection"]]
    df_vals = [m["df_switches"], m["dragonfly_optics_per_gpu"], m["df_bisection"]]
    fmts = [fmt_count, lambda v: f"{v:g}/GPU", fmt_rate]
    x = np.arange(len(groups))
    w = 0.36
    b1 = ax_c.bar(x - w / 2, [1.0] * 3, w, color=c_ft, label=f"fat-tree, {m['tiers']} tiers")
    b2 = ax_c.bar(x + w / 2, [d / f for d, f in zip(df_vals, ft_vals, strict=True)], w, color=cdf,
                  label=f"Dragonfly+, {m['df_groups']} groups")
    for bars, vals in ((b1, ft_vals), (b2, df_vals)):
        for b, v, fmt in zip(bars, vals, fmts, strict=True):
            ax_c.text(b.get_x() + b.get_width() / 2, b.get_height() + 0.02, fmt(v), ha="center",
                      va="bottom", fontsize=9, color=t["ink"], rotation=90)
    ax_c.set_xticks(x, groups)
    ax_c.set_ylim(0, 1.85)
    ax_c.set_ylabel(f"share of the {m['tiers']}-tier fat-tree's")
    ax_c.grid(axis="x", visible=False)
    ax_c.set_title(f"{fmt_count(G)} GPUs, radix {kk}", fontsize=10, color=t["muted"], loc="left")
    ax_c.legend(loc="upper right", fontsize=9)
    return fig
