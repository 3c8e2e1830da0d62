"""Figures for the collectives scenes (ring versus tree all-reduce).

A figure function reads the model output (build/data/<id>.json) and draws;
the pipeline calls it inside figures.theme.themed(theme) and saves the SVG.
"""

from __future__ import annotations

import matplotlib.pyplot as plt
import numpy as np
from matplotlib.ticker import FixedLocator, FuncFormatter, NullFormatter

from design import palette
from models.units import fmt_bytes, fmt_seconds


def _bytes_axis(ax, lo: float, hi: float) -> None:
    ax.set_xscale("log")
    ax.set_xlim(lo, hi)
    decades = [10.0**e for e in range(int(np.ceil(np.log10(lo))), int(np.floor(np.log10(hi))) + 1)]
    ax.xaxis.set_major_locator(FixedLocator(decades[::2]))  # every other decade: readable
    ax.xaxis.set_minor_locator(FixedLocator(decades[1::2]))
    ax.xaxis.set_major_formatter(FuncFormatter(lambda x, _: fmt_bytes(x, 1)))
    ax.xaxis.set_minor_formatter(NullFormatter())
    ax.set_xlabel("message size n per rank (log scale)")


def time_vs_size(data: dict, theme: str):
    """Left: all-reduce time versus message size, ring and tree, crossover marked.
    Right: nccl-tests bus bandwidth versus size, with the link bandwidth B dashed."""
    s, m = data["series"], data["summary"]
    t = palette.THEMES[theme]
    ring_c, tree_c = palette.role("primary", theme), palette.role("secondary", theme)
    n = np.asarray(s["message_bytes"], dtype=float)
    lo, hi = float(n[0]), float(n[-1])
    p = m["ranks"]

    fig, (ax_t, ax_b) = plt.subplots(1, 2, figsize=(8, 4.5), gridspec_kw={"wspace": 0.34})

    # --- time versus size -------------------------------------------------------
    ax_t.plot(n, s["ring_time"], color=ring_c, label=f"ring: 2(p−1) = {m['ring_steps']} steps")
    ax_t.plot(n, s["tree_time"], color=tree_c,
              label=f"double binary tree: depth {m['tree_depth']}, pipelined in k chunks")
    ax_t.set_yscale("log")
    _bytes_axis(ax_t, lo, hi)
    tmin = min(np.min(s["ring_time"]), np.min(s["tree_time"]))
    tmax = max(np.max(s["ring_time"]), np.max(s["tree_time"]))
    ax_t.set_ylim(tmin / 3, tmax * 1.5)
    yt = [10.0**e for e in range(int(np.ceil(np.log10(tmin / 3))),
                                 int(np.floor(np.log10(tmax))) + 1)]
    ax_t.yaxis.set_major_locator(FixedLocator(yt))
    ax_t.yaxis.set_major_formatter(FuncFormatter(lambda y, _: fmt_seconds(y, 1)))
    ax_t.yaxis.set_minor_formatter(NullFormatter())
    ax_t.set_ylabel("all-reduce time (log scale)")

    n_star = m["crossover_bytes"]
    if n_star > 0:
        ax_t.axvline(n_star, color=t["muted"], lw=1.2, ls="--")
        ax_t.text(n_star * 1.25, tmax, f"crossover\n{fmt_bytes(n_star)}", ha="left", va="top",
                  fontsize=10, color=t["ink"])
        ax_t.text(n_star / 1.4, tmin / 1.8, "tree faster", ha="right", va="center",
                  fontsize=10, color=tree_c)
        ax_t.text(n_star * 1.4, tmin / 1.8, "ring faster", ha="left", va="center",
                  fontsize=10, color=ring_c)
    ax_t.set_title(f"{p} ranks, α = {fmt_seconds(m['step_latency'])} per step",
                   fontsize=10, color=t["muted"], loc="left")

    # --- bus bandwidth versus size ----------------------------------------------
    gb = 1e9
    B = m["link_bandwidth"]
    ax_b.plot(n, np.asarray(s["ring_busbw"]) / gb, color=ring_c)
    ax_b.plot(n, np.asarray(s["tree_busbw"]) / gb, color=tree_c)
    ax_b.axhline(B / gb, color=t["ink"], lw=1.2, ls="--")
    ax_b.text(hi / 1.3, B / gb * 1.02, f"link B = {B / gb:g} GB/s per direction",
              ha="right", va="bottom", fontsize=9, color=t["ink"])
    ax_b.axhline(m["tree_busbw_limit"] / gb, color=tree_c, lw=1.0, ls=":")
    ax_b.text(lo * 1.5, m["tree_busbw_limit"] / gb * 0.98, "tree limit (p−1)/p · B",
              ha="left", va="top", fontsize=9, color=tree_c)
    if n_star > 0:  # stops below the link-rate label
        ax_b.axvline(n_star, ymax=0.83, color=t["muted"], lw=1.2, ls="--")
    _bytes_axis(ax_b, lo, hi)
    ax_b.set_ylim(0, B / gb * 1.18)
    ax_b.set_ylabel("bus bandwidth, nccl-tests (GB/s)")
    ax_b.set_title("busbw = S/t · 2(p−1)/p", fontsize=10, color=t["muted"], loc="left")

    # the legend gets its own band under both x-axis labels, never on top of them
    fig.subplots_adjust(bottom=0.27)
    handles, labels = ax_t.get_legend_handles_labels()
    fig.legend(handles, labels, loc="lower center", ncol=2, fontsize=9.5, bbox_to_anchor=(0.5, 0.0),
               frameon=False)
    return fig
