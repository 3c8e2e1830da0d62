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
from figures.explore import Panel, Readout, Slider, summary, tag
from models.units import fmt_count, fmt_rate


def _count_label(x: float) -> str:
    for div, suffix in ((1e6, "M"), (1e3, "k")):
        if x >= div:
            return f"{x / div:g}{suffix}"
    return f"{x:g}"


def scale_and_cost(data: dict, theme: str):
    """Left: most GPUs each topology connects versus radix, scenario marked.
    Right: switches, optical port-ends per GPU and bisection of the scenario's Dragonfly+ as shares of the
    fat-tree's (the fat-tree is non-blocking, the Dragonfly+ is not).

    The Explore panel (EXPLORE) moves the GPU count and the radix: what depends on them is tagged, and
    legends, axis labels and colours hold no value that moves (the panel swaps only tagged shapes and text)."""
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
    # the legend is fixed (the panel never redraws it): the GPU count is in the right panel's title
    tag(ax.axhline(G, color=t["muted"], lw=1.1, ls="--", label="GPUs sized on the right"), "gpus")
    tag(ax.axvline(kk, color=t["muted"], lw=1.1, ls=":"), "radix")
    for name, y, c in (("ft2", m["max_hosts_2"], c2), ("ft3", m["max_hosts_3"], c3), ("df", m["df_max_hosts"], cdf)):
        tag(ax.plot([kk], [y], "o", color=c, ms=5)[0], f"at-{name}")
    ax.legend(loc="upper left", fontsize=9)
    for name, y, c, text in (("ft2", m["max_hosts_2"], c2, f"k = {kk}: {fmt_count(m['max_hosts_2'])}"),
                             ("ft3", m["max_hosts_3"], c3, fmt_count(m["max_hosts_3"])),
                             ("df", m["df_max_hosts"], cdf, fmt_count(m["df_max_hosts"]))):
        tag(label_clear(ax, kk, y, text, fontsize=9, color=c), f"label-{name}")

    # --- cost and capacity at the scenario size, relative to the fat-tree -----------
    # one axis, one unit: each quantity as a share of the fat-tree's, the absolute value written on the bar;
    # the Dragonfly+ takes its left-panel colour; the fat-tree a neutral one, since its tier count (and so its
    # left-panel colour) moves with the Explore panel's sliders and a bar's colour does not
    c_ft = t["muted"]
    groups = ["switches", "optical\nport-ends", "bisection"]
    ft_vals = [m["switches"], m["fat_tree_optics_per_gpu"], m["bisection"]]
    df_vals = [m["df_switches"], m["dragonfly_optics_per_gpu"], m["df_bisection"]]
    fmts = [fmt_count, lambda v: f"{v:g}/GPU", fmt_rate]
    x = np.arange(len(groups))
    w = 0.36
    b1 = ax_c.bar(x - w / 2, [1.0] * 3, w, color=c_ft, label="fat-tree, non-blocking")
    b2 = ax_c.bar(x + w / 2, [d / f for d, f in zip(df_vals, ft_vals, strict=True)], w, color=cdf,
                  label="Dragonfly+")
    for b, name in zip(b2, ("switches", "optics", "bisection"), strict=True):
        tag(b, f"df-{name}")
    for fabric, bars, vals in (("ft", b1, ft_vals), ("df", b2, df_vals)):
        for b, v, fmt, name in zip(bars, vals, fmts, ("switches", "optics", "bisection"), strict=True):
            tag(ax_c.text(b.get_x() + b.get_width() / 2, b.get_height() + 0.02, fmt(v), ha="center",
                          va="bottom", fontsize=9, color=t["ink"], rotation=90), f"value-{fabric}-{name}")
    ax_c.set_xticks(x, groups)
    ax_c.set_ylim(0, 1.85)
    ax_c.set_ylabel("share of the fat-tree's")
    ax_c.grid(axis="x", visible=False)
    tag(ax_c.set_title(f"{fmt_count(G)} GPUs, radix {kk}:\nfat-tree {m['tiers']} tiers, "
                       f"Dragonfly+ {m['df_groups']} groups", fontsize=10, color=t["muted"], loc="left"), "title")
    ax_c.legend(loc="upper right", fontsize=9)
    return fig


# --- the Explore panel: GPU count and radix -----------------------------------------------------
# The two inputs that set every count on the right: the cluster's GPUs, powers of two from 4,096 to 65,536
# (below 4,096 a radix-128 Dragonfly+ of one group costs over 1.85 times the two-tier tree's switches and its bar
# would outgrow the page figure's frame), and the switch radix: 32, the catalogue's 64 and 128 (half, the same
# and twice Quantum-2's ports). Fifteen model runs and drawings: the panel costs a few seconds to build.
def _per_gpu(key: str):
    """Port-ends per GPU as the page prints them: a whole number as one ("6", not "6.00"), else 3 figures."""
    return lambda out, i: f"{out['summary'][key]:.3g}"


PANEL_RADIXES = (32, 64, 128)

EXPLORE = Panel(
    figure="scale-and-cost",
    title="Explore: GPU count and switch radix",
    sliders=(Slider("gpus", "GPUs in the cluster (one NIC port each)", "count",
                    tuple(2**e for e in range(12, 17))),
             Slider("radix", "Switch radix k (ports per switch)", "count", PANEL_RADIXES)),
    readouts=(
        Readout("Fat-tree tiers (non-blocking)", "count", summary("tiers")),
        Readout("Fat-tree switches", "count", summary("switches")),
        Readout("Dragonfly+ groups", "count", summary("df_groups")),
        Readout("Dragonfly+ switches", "count", summary("df_switches")),
        Readout("Optical port-ends per GPU: fat-tree", "text", _per_gpu("fat_tree_optics_per_gpu")),
        Readout("Optical port-ends per GPU: Dragonfly+", "text", _per_gpu("dragonfly_optics_per_gpu")),
        Readout("Dragonfly+ bisection, share of the fat-tree's", "%", summary("df_bisection_share")),
    ),
    # the radix-32 stops pass k³/4 GPUs, where a fourth tier is needed: the left plot and the prose stop at three
    notes=(f"Above k³/4 GPUs a non-blocking fat-tree needs a fourth tier, which the panel counts (radix "
           f"{min(PANEL_RADIXES)} past {fmt_count(min(PANEL_RADIXES) ** 3 // 4)} GPUs); the left plot and the "
           "text stop at three tiers.",),
)
