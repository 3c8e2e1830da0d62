"""Figure for scene ring-vs-tree: ring versus tree all-reduce time and bus bandwidth over message size.

A figure function reads the model output (build/data/<id>.json) and draws;
the pipeline calls it inside figures.theme.themed(theme) and saves the SVG.
"""

from __future__ import annotations

import matplotlib.pyplot as plt
import numpy as np
from matplotlib.ticker import FixedLocator, FuncFormatter, NullFormatter

from design import palette
from figures.explore import Panel, Probe, Readout, Slider, probe_default, series, tag
from models.units import fmt_bytes, fmt_seconds

GB = 1e9


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
    Right: nccl-tests bus bandwidth versus size, with the link bandwidth B dashed.

    The Explore panel (EXPLORE below) moves the tagged artists: curves, crossover, title and the
    points at the probed message size."""
    t = palette.THEMES[theme]
    colours = palette.role("primary", theme), palette.role("secondary", theme)  # ring, tree
    fig, (ax_t, ax_b) = plt.subplots(1, 2, figsize=(8, 4.5), gridspec_kw={"wspace": 0.34})
    _draw_times(ax_t, data, t, *colours)
    _draw_busbw(ax_b, data, t, *colours)

    # the points the Explore panel moves along the curves: at the large message here
    axes = (ax_t, ax_b)
    for name, (i, x, y) in probe_marks(data, probe_default(MESSAGE, data)).items():
        colour = colours[0] if name.startswith("ring") else colours[1]
        tag(axes[i].plot([x], [y], ls="", marker="o", ms=6, color=colour, mec=t["ink"], mew=0.8,
                         zorder=4)[0], name)

    # the legend gets its own band under both x-axis labels, never on top of them; the dots get an
    # untagged grey stand-in in it (the panel moves the dots, the legend names what they mark)
    fig.subplots_adjust(bottom=0.22)
    handles, labels = ax_t.get_legend_handles_labels()
    handles.append(plt.Line2D([], [], ls="", marker="o", ms=6, color=t["muted"], mec=t["ink"], mew=0.8))
    labels.append(f"dots: one message size ({fmt_bytes(data['summary']['large_message'])} here; Explore moves it)")
    fig.legend(handles, labels, loc="lower center", ncol=2, fontsize=9.5, bbox_to_anchor=(0.5, 0.0),
               frameon=False)
    return fig


def _draw_times(ax_t, data: dict, t: dict, ring_c: str, tree_c: str) -> None:
    """The left panel: both times on log axes, the crossover and which side each algorithm wins."""
    s, m = data["series"], data["summary"]
    n = np.asarray(s["message_bytes"], dtype=float)
    lo, hi = float(n[0]), float(n[-1])
    tag(ax_t.plot(n, s["ring_time"], color=ring_c, label="ring: 2(p−1) steps")[0], "ring-time")
    tag(ax_t.plot(n, s["tree_time"], color=tree_c,
                  label="double binary tree, pipelined in k chunks")[0], "tree-time")
    # the ring's halves on their own (the page's table): half the ring's time at every size
    tag(ax_t.plot(n, s["half_time"], color=ring_c, ls="--", lw=1.2,
                  label="reduce-scatter or all-gather alone (ring): p−1 steps")[0], "half-time")
    ax_t.set_yscale("log")
    _bytes_axis(ax_t, lo, hi)
    tmin = min(np.min(s["ring_time"]), np.min(s["tree_time"]))
    tmax = max(np.max(s["ring_time"]), np.max(s["tree_time"]))
    # room below for the Explore panel's smallest rank count: two ranks take two latency steps
    ylo = min(tmin, 2 * m["step_latency"]) / 3
    yhi = tmax * 1.5
    ax_t.set_ylim(ylo, yhi)
    yt = [10.0**e for e in range(int(np.ceil(np.log10(ylo))), int(np.floor(np.log10(yhi))) + 1)]
    ax_t.yaxis.set_major_locator(FixedLocator(yt))
    ax_t.yaxis.set_major_formatter(FuncFormatter(lambda y, _: fmt_seconds(y, 1)))
    ax_t.yaxis.set_minor_formatter(NullFormatter())
    ax_t.set_ylabel("time (log scale)")

    n_star = m["crossover_bytes"]
    top = bottom = ax_t.get_xaxis_transform()  # x in data, y in axes: placed the same at any p
    if n_star > 0:
        tag(ax_t.axvline(n_star, color=t["muted"], lw=1.2, ls="--"), "crossover-time")
        tag(ax_t.text(n_star * 1.25, 0.97, f"crossover\n{fmt_bytes(n_star)}", ha="left", va="top",
                      fontsize=10, color=t["ink"], transform=top, clip_on=True), "crossover-label")
        tag(ax_t.text(n_star / 1.4, 0.05, "tree faster", ha="right", va="center",
                      fontsize=10, color=tree_c, transform=bottom, clip_on=True), "tree-faster")
        tag(ax_t.text(n_star * 1.4, 0.05, "ring faster", ha="left", va="center",
                      fontsize=10, color=ring_c, transform=bottom, clip_on=True), "ring-faster")
    tag(ax_t.set_title(f"{m['ranks']} ranks: ring {m['ring_steps']} steps, tree depth {m['tree_depth']}; "
                       f"α = {fmt_seconds(m['step_latency'])}",
                       fontsize=10, color=t["muted"], loc="left"), "title")


def _draw_busbw(ax_b, data: dict, t: dict, ring_c: str, tree_c: str) -> None:
    """The right panel: nccl-tests bus bandwidth of both, the link rate and the tree's limit."""
    s, m = data["series"], data["summary"]
    n = np.asarray(s["message_bytes"], dtype=float)
    lo, hi = float(n[0]), float(n[-1])
    B = m["link_bandwidth"]
    tag(ax_b.plot(n, np.asarray(s["ring_busbw"]) / GB, color=ring_c)[0], "ring-busbw")
    tag(ax_b.plot(n, np.asarray(s["tree_busbw"]) / GB, color=tree_c)[0], "tree-busbw")
    ax_b.axhline(B / GB, color=t["ink"], lw=1.2, ls="--")
    ax_b.text(hi / 1.3, B / GB * 1.02, f"link B = {B / GB:g} GB/s per direction",
              ha="right", va="bottom", fontsize=9, color=t["ink"])
    tag(ax_b.axhline(m["tree_busbw_limit"] / GB, color=tree_c, lw=1.0, ls=":"), "tree-limit")
    tag(ax_b.text(lo * 1.5, m["tree_busbw_limit"] / GB * 0.98, "tree limit (p−1)/p · B",
                  ha="left", va="top", fontsize=9, color=tree_c), "tree-limit-label")
    if m["crossover_bytes"] > 0:  # stops below the link-rate label
        tag(ax_b.axvline(m["crossover_bytes"], ymax=0.83, color=t["muted"], lw=1.2, ls="--"), "crossover-busbw")
    _bytes_axis(ax_b, lo, hi)
    ax_b.set_ylim(0, B / GB * 1.18)
    ax_b.set_ylabel("bus bandwidth, nccl-tests (GB/s)")
    ax_b.set_title("busbw = S/t · 2(p−1)/p", fontsize=10, color=t["muted"], loc="left")


# --- the Explore panel -------------------------------------------------------------
# up to 32 ranks: the model also lays out the animation's ring schedule, p x p chunks
RANKS = Slider("ranks", "GPUs in the all-reduce", "count",
               (2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0, 10.0, 12.0, 14.0, 16.0, 20.0, 24.0, 28.0, 32.0))
MESSAGE = Probe("message_bytes", "Message size", "B", every=6, default=lambda out: out["summary"]["large_message"])


def probe_marks(data: dict, i: int) -> dict[str, tuple[int, float, float]]:
    """The points on each curve at message size number i: (axes index, x, y in the axes' units)."""
    s = data["series"]
    n = s["message_bytes"][i]
    return {"ring-at": (0, n, s["ring_time"][i]), "tree-at": (0, n, s["tree_time"][i]),
            "ring-bw-at": (1, n, s["ring_busbw"][i] / GB), "tree-bw-at": (1, n, s["tree_busbw"][i] / GB)}


def _faster(out: dict, i: int) -> str:
    ring, tree = out["series"]["ring_time"][i], out["series"]["tree_time"][i]
    return "ring" if ring < tree else "tree" if tree < ring else "tie"


def _crossover(out: dict, i: int) -> str:
    n_star = out["summary"]["crossover_bytes"]  # 0: the model's "no crossover"
    return fmt_bytes(n_star) if n_star > 0 else "none: the ring is never slower"


EXPLORE = Panel(
    figure="time-vs-size",
    title="Explore: GPU count and message size",
    sliders=(RANKS, MESSAGE),
    readouts=(
        Readout("Ring all-reduce time", "s", series("ring_time")),
        Readout("Tree all-reduce time", "s", series("tree_time")),
        Readout("Faster at this size", "text", _faster),
        Readout("Ring bus bandwidth", "B/s", series("ring_busbw")),
        Readout("Tree bus bandwidth", "B/s", series("tree_busbw")),
        Readout("Crossover size at this GPU count", "text", _crossover),
    ),
    marks=probe_marks,
)
