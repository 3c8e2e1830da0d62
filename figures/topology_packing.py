"""Figures for topology-packing: topology-aware packing.

Reads models.topology_packing.topology_packing output; the pipeline calls each
function inside figures.theme.themed(theme) and saves the SVG.
"""

from __future__ import annotations

import matplotlib.pyplot as plt
import numpy as np

from design import palette
from figures.axes import MIN_FONT
from figures.explore import Panel, Readout, Slider, summary, tag
from models.units import GB, fmt_count, fmt_percent, fmt_seconds

NAMES = {"random": "random GPUs\n(a bound)", "first_fit": "first-fit GPUs\n(worst case)",
         "whole_node": "whole nodes,\ntopology-blind", "topology_aware": "topology-\naware"}
LEVEL_NAMES = ("node (NVLink)", "rack", "pod", "across pods")
# no colour means two things across the panels: the levels are green (NVLink), two greys (rack, pod) and
# vermillion (across pods); the extra time per dimension blue, purple and orange; the measured step an outline
LEVEL_ROLES = ("ok", None, None, "bad")
LEVEL_GREYS = {1: 0.4, 2: 0.8}  # the theme's muted ink at these opacities: rack lighter than pod
DIM_ROLES = {"tensor": "primary", "pipeline": "tertiary", "data": "reduce"}


def placement_cost(data: dict, theme: str):
    """Top: bytes per GPU per step by the level they travel at, per placement.
    Bottom: step time, the measured step plus each dimension's extra communication."""
    s, m = data["series"], data["summary"]
    t = palette.THEMES[theme]
    keys = [r["key"] for r in data["records"]["placements"]]
    y = np.arange(len(keys))[::-1]
    # stacked, not side by side: each panel keeps the page's full width, so it still reads on a phone
    fig, (ax_b, ax_t) = plt.subplots(2, 1, figsize=(6.4, 7.0), gridspec_kw={"hspace": 0.62})

    # --- bytes by level ---------------------------------------------------------------
    for i, k in enumerate(keys):
        left = 0.0
        for lv, (name, role) in enumerate(zip(LEVEL_NAMES, LEVEL_ROLES, strict=True)):
            v = float(s[f"{k}_bytes"][lv]) / GB
            colour = palette.role(role, theme) if role else t["muted"]
            ax_b.barh(y[i], v, left=left, height=0.6, color=colour, alpha=LEVEL_GREYS.get(lv, 1.0),
                      label=name if i == 0 else None)
            left += v
        ax_b.text(left * 0.98, y[i] + 0.36, f"{fmt_percent(m[f'{k}_off_domain'], 4)} off NVLink",
                  ha="right", va="bottom", fontsize=MIN_FONT, color=t["ink"])
    ax_b.set_yticks(y, [NAMES[k] for k in keys])
    ax_b.set_ylim(-0.6, len(keys) - 0.1)
    ax_b.set_xlabel("GB sent per GPU per step, by where it travels")
    ax_b.set_xlim(0, float(max(np.sum(s[f"{k}_bytes"]) for k in keys)) / GB * 1.1)
    ax_b.grid(axis="y", visible=False)
    ax_b.set_title(f"{fmt_count(m['ranks'])} GPUs, TP {data['params']['tp']} · PP {data['params']['pp']}"
                   f" · DP {data['params']['dp']}", fontsize=10, color=t["muted"], loc="left")
    ax_b.legend(fontsize=MIN_FONT, loc="upper center", bbox_to_anchor=(0.5, -0.24), ncol=4)

    # --- step time --------------------------------------------------------------------
    # random placement's step is several times the others: clip its bar so the realistic cases stay readable
    top = max(m[f"{k}_step"] for k in keys if k != "random") * 1.25
    for i, k in enumerate(keys):
        ax_t.barh(y[i], m["measured_step"], height=0.6, fill=False, edgecolor=t["muted"], linewidth=1.2,
                  label="measured step" if i == 0 else None)
        left = m["measured_step"]
        for dim, role in DIM_ROLES.items():
            extra = max(m[f"{k}_comm_{dim}"] - m[f"topology_aware_comm_{dim}"], 0.0)
            tag(ax_t.barh(y[i], extra, left=left, height=0.6, color=palette.role(role, theme),
                          label=f"extra {dim}" if i == 0 else None)[0], f"extra-{k}-{dim}")
            left += extra
        txt = f"{fmt_seconds(m[f'{k}_step'])}, {fmt_percent(m[f'{k}_throughput'])}"
        if left > top:
            txt += " (bar clipped)"
        inside = left > 0.55 * top
        tag(ax_t.text(min(left, top) - 0.01 * top if inside else left + 0.01 * top, y[i] + (0.36 if inside else 0),
                      txt, ha="right" if inside else "left", va="bottom" if inside else "center",
                      fontsize=MIN_FONT, color=t["ink"]), f"step-{k}")
    ax_t.set_yticks(y, [NAMES[k] for k in keys])
    ax_t.set_ylim(-0.6, len(keys) - 0.1)
    ax_t.set_xlim(0, top)
    ax_t.set_xlabel("step time (s); label: step, relative throughput")
    ax_t.grid(axis="y", visible=False)
    ax_t.set_title("step time = measured + extra communication", fontsize=10, color=t["muted"], loc="left")
    ax_t.legend(fontsize=MIN_FONT, loc="upper center", bbox_to_anchor=(0.5, -0.24), ncol=4)
    return fig


def fragmentation(data: dict, theme: str):
    """Top: free GPUs over the trace (both schedulers see the same jobs).
    Bottom: free GPUs stranded in part-used nodes, first-fit against best-fit."""
    s, m, p = data["series"], data["summary"], data["params"]
    t = palette.THEMES[theme]
    x = np.asarray(s["trace_arrival"], dtype=float)
    ff_c, ta_c = palette.role("bad", theme), palette.role("ok", theme)
    fig, (ax_f, ax_s) = plt.subplots(2, 1, figsize=(8, 4.6), sharex=True,
                                     gridspec_kw={"hspace": 0.12, "height_ratios": [1, 1.3]})
    ax_f.plot(x, s["ff_free"], color=t["muted"], lw=1.4)
    ax_f.set_ylabel("free GPUs")
    ax_f.set_ylim(0, float(np.max(s["ff_free"])) * 1.1)
    ax_f.set_title(f"{fmt_count(m['gpus'])} GPUs, offered load {fmt_percent(p['trace_load'])}, "
                   f"job sizes {int(min(p['trace_sizes']))}–{int(max(p['trace_sizes']))} GPUs",
                   fontsize=10, color=t["muted"], loc="left")
    ff = np.asarray(s["ff_free"], dtype=float) - np.asarray(s["ff_whole"], dtype=float)
    ta = np.asarray(s["ff_free"], dtype=float) - np.asarray(s["ta_whole"], dtype=float)
    ax_s.plot(x, ff, color=ff_c, lw=1.4,
              label=f"first-fit: mean {fmt_count(round(m['stranded_first_fit']))}")
    ax_s.plot(x, ta, color=ta_c, lw=1.4,
              label=f"best-fit (topology-aware): mean {fmt_count(round(m['stranded_topology_aware']))}")
    ax_s.set_ylim(0, float(max(ff.max(), ta.max())) * 1.45)
    ax_s.set_ylabel("free GPUs in\npart-used nodes")
    ax_s.set_xlabel("job arrivals (means over the second half)")
    ax_s.set_xlim(x[0], x[-1])
    ax_s.legend(fontsize=MIN_FONT, loc="upper right", ncol=2)
    return fig


# the two assumptions that drive the whole-node penalty: how oversubscribed the layer above the pods is,
# and how far apart 1F1B starts the stages' gradient reductions (the microbatch size sets the slot)
EXPLORE = Panel(
    figure="placement-cost",
    title="Explore: oversubscription between pods and the pipeline stagger",
    sliders=(Slider("oversubscription", "Oversubscription of the layer between pods (x:1)", "1",
                    tuple(float(o) for o in range(1, 11))),
             Slider("micro_batch", "Microbatch size b (sequences; sets the stagger)", "count", (1, 2, 4, 8, 16))),
    readouts=(
        Readout("1F1B backward slot: the stagger between stages' reductions", "s", summary("backward_slot")),
        # the measured step holds only at the measured run's b: elsewhere plain 1F1B's, bubble included
        Readout("Packed (topology-aware) step under 1F1B at this b", "s", summary("packed_step")),
        Readout("Whole nodes, topology-blind: median penalty over the packed step", "s",
                summary("sweep_wn_extra_median")),
        Readout("Whole nodes, all stages' reductions at once (no stagger): median penalty", "s",
                summary("stagger_together_extra")),
        Readout("First-fit single GPUs (worst case): penalty on the figure's background", "s",
                summary("first_fit_extra")),
    ),
)
