"""Figures for mfu-mbu, MFU vs MBU accounting.

A figure function reads the model output (build/data/<id>.json) and draws; the
pipeline calls it inside figures.theme.themed(theme) and saves the SVG.
"""

from __future__ import annotations

import matplotlib.pyplot as plt
import numpy as np
from matplotlib.patches import Patch
from matplotlib.ticker import PercentFormatter

from design import palette
from figures.axes import MIN_FONT, log_axis
from figures.explore import Panel, Readout, Slider, summary, tag
from models.units import fmt_count, fmt_percent

PART_ROLES = {"useful": "ok", "recompute": "highlight", "slow": "tertiary", "memory": "memory", "comm": "network",
              "bubble": "bad"}
PART_NAMES = {"useful": "useful model FLOPs (MFU)", "recompute": "recomputed FLOPs", "slow": "matmuls below peak",
              "memory": "memory-bound phases", "comm": "exposed communication", "bubble": "pipeline bubble"}


def step_breakdown(data: dict, theme: str):
    """Left: the step's wall time split into its parts for each interleave depth v.
    Right: HFU/MFU versus the share of the forward pass recomputed, PaLM's published ratio marked."""
    s, m, p = data["series"], data["summary"], data["params"]
    t = palette.THEMES[theme]
    fig, (ax, ax2) = plt.subplots(1, 2, figsize=(8, 4.3), gridspec_kw={"width_ratios": [1.35, 1], "wspace": 0.32})

    sweep = data["records"]["interleave_sweep"]
    ys = np.arange(len(sweep))
    # every segment is drawn, empty ones at zero width, so the Explore panel finds each at every stop
    for i, row in enumerate(sweep):
        left = 0.0
        for k in ("useful", "recompute", "slow", "memory", "comm", "bubble"):
            if k == "recompute" and max(r["recompute"] for r in sweep) <= 0:
                continue  # the scenario recomputes nothing: no legend entry for it
            w = max(row[k], 0.0)
            tag(ax.barh(i, w, left=left, height=0.62, color=palette.role(PART_ROLES[k], theme),
                        edgecolor=t["bg"], lw=0.6,
                        label=PART_NAMES[k] if i == len(sweep) - 1 else None)[0], f"v{row['interleave']}-{k}")
            left += w
        above = row["feasible"] and row["matmul_efficiency"] > m["gemm_ceiling"]  # beyond the best measured matmul
        # every depth that fits names the measured ceiling beside its efficiency: a depth just below it (v = 2)
        # reads as close to the line, not only the ones above it
        note = (f"matmuls at\n{fmt_percent(row['matmul_efficiency'])} of peak"
                + f"\n(ceiling {fmt_percent(m['gemm_ceiling'])})" if row["feasible"]
                else "no time left\nfor the matmuls" if row["matmul_efficiency"] is None  # no efficiency fits
                else f"needs {fmt_percent(row['matmul_efficiency'])}\nof peak")
        tag(ax.text(left + 0.02, i, note, va="center", ha="left", fontsize=MIN_FONT,
                    color=t["ink"] if row["feasible"] and not above else palette.role("bad", theme)),
            f"v{row['interleave']}-note")
    ax.set_yticks(ys, [f"v = {r['interleave']}" + (" (assumed)" if r["assumed"] else "") for r in sweep])
    ax.set_xlim(0, 1.4)
    ax.set_xticks([0, 0.25, 0.5, 0.75, 1.0])
    ax.xaxis.set_major_formatter(PercentFormatter(1.0, decimals=0))
    ax.set_xlabel("share of the step's wall time")
    ax.set_ylim(-0.6, len(sweep) - 0.4)
    fig.legend(*ax.get_legend_handles_labels(), fontsize=MIN_FONT, loc="upper center", ncol=3, handlelength=1.2,
               columnspacing=1.0, frameon=False, bbox_to_anchor=(0.5, 0.995))
    fig.subplots_adjust(top=0.8, bottom=0.13, left=0.17, right=0.97)
    ax.set_title(f"One training step at {fmt_percent(m['mfu'])} MFU, by interleave depth v", fontsize=10)

    r = np.asarray(s["recompute_share"], dtype=float)
    ratio = np.asarray(s["hfu_over_mfu"], dtype=float)
    ax2.plot(r, ratio, color=palette.role("primary", theme), label="HFU / MFU = 1 + r/3")
    pr = m["palm_recompute"]
    pub = p["palm_reported_hfu"] / p["palm_reported_mfu"]
    ax2.plot([pr], [pub], "o", color=palette.role("highlight", theme), ms=6,
             label=f"PaLM 540B: {fmt_percent(p['palm_reported_hfu'])} / {fmt_percent(p['palm_reported_mfu'])}")
    ax2.axhline(m["meg_hfu"] / m["meg_mfu"], color=t["muted"], ls="--", lw=1,
                label="Megatron 1T: full recompute")
    ax2.set_xlim(0, 1)
    ax2.set_ylim(0.98, 1.5)
    ax2.set_yticks([1.0, 1.1, 1.2, 1.3, 1.4])
    ax2.xaxis.set_major_formatter(PercentFormatter(1.0, decimals=0))
    ax2.set_xlabel("forward pass recomputed, r")
    ax2.set_ylabel("HFU / MFU")
    ax2.legend(fontsize=MIN_FONT, loc="upper left", borderaxespad=0.3)
    ax2.set_title("Recomputation raises HFU, not MFU", fontsize=10)
    return fig


def published_utilization(data: dict, theme: str):
    """Left: published utilisations beside the model's recomputation.
    Right: decode MBU and MFU versus batch size (log axis), up to the batch that fits."""
    s, m, p = data["series"], data["summary"], data["params"]
    t = palette.THEMES[theme]
    fig, (ax, ax2) = plt.subplots(1, 2, figsize=(8, 4.3), gridspec_kw={"width_ratios": [1.3, 1], "wspace": 0.55})

    rows = data["records"]["published"]
    names = ["PaLM MFU", "PaLM MFU, 6N", "PaLM HFU", "Megatron 1T, eq. 3", "Megatron 1T, MFU",
             "Llama 3 MFU", "Llama 3.1, whole run", "MBU example"]
    ys = np.arange(len(rows))[::-1]
    h = 0.36
    pub_c, rec_c = palette.role("secondary", theme), palette.role("primary", theme)
    for y, row in zip(ys, rows, strict=True):
        if row["published"] is not None:
            ax.barh(y + h / 2, row["published"], height=h, color=pub_c)
        if row["recomputed"] is not None:
            ax.barh(y - h / 2, row["recomputed"], height=h, color=rec_c)
    handles = [Patch(color=pub_c, label="published"), Patch(color=rec_c, label="recomputed here")]
    ax.set_yticks(ys, names[: len(rows)])
    ax.set_xlim(0, 0.75)
    ax.set_xticks([0, 0.2, 0.4, 0.6])
    ax.xaxis.set_major_formatter(PercentFormatter(1.0, decimals=0))
    ax.set_xlabel("utilisation")
    ax.set_ylim(-0.7, len(rows) + 0.9)
    ax.legend(handles=handles, fontsize=MIN_FONT, loc="upper right", ncol=2, borderaxespad=0.2, handlelength=1.2)
    ax.set_title("Published against recomputed", fontsize=10)

    b = np.asarray(s["decode_batch"], dtype=float)
    ax2.plot(b, s["decode_mbu"], "o-", ms=3.5, color=palette.role("memory", theme),
             label=f"MBU: {fmt_percent(p['decode_efficiency'], 2)}, an input")
    ax2.text(float(b[-1]), p["decode_efficiency"] + 0.04, "flat by construction:\nmeasured at batch 1, assumed\n"
             "at every batch", ha="right", va="bottom", fontsize=MIN_FONT, color=t["muted"])
    ax2.plot(b, s["decode_mfu"], "s-", ms=3.5, color=palette.role("compute", theme), label="MFU (tensor cores)")
    ax2.axhline(m["mfu"], color=t["muted"], ls="--", lw=1, label="training step MFU")
    log_axis(ax2, "x", 1, float(b[-1]) * 1.2, ticks=[1, 4, 16, 64], label="decode batch (sequences)")
    ax2.set_ylim(0, 1.05)
    ax2.yaxis.set_major_formatter(PercentFormatter(1.0, decimals=0))
    ax2.legend(fontsize=MIN_FONT, loc="upper left", borderaxespad=0.3)
    fig.subplots_adjust(left=0.22, right=0.97, bottom=0.13, top=0.88)
    ax2.set_title(f"Decode on {fmt_count(m['serving_gpus'])} GPUs,\n{fmt_count(p['decode_context'])}-token context",
                  fontsize=10)
    return fig


EXPLORE = Panel(
    figure="step-breakdown",
    title="Explore: hidden communication and memory-bound time",
    sliders=(
        Slider("comm_hidden", "Communication hidden behind compute", "%",
               tuple(round(0.1 * k, 2) for k in range(11))),
        Slider("memory_bound", "Memory-bound phases (share of the step)", "%",
               tuple(round(0.05 + 0.025 * k, 3) for k in range(7))),
    ),
    readouts=(
        Readout("Exposed communication (share of the step)", "%", summary("share_comm")),
        Readout("Pipeline bubble at the assumed v", "%", summary("share_bubble")),
        Readout("Matmuls below peak (the residual)", "%", summary("share_slow")),
        Readout("Matmuls run at (share of peak)", "%", summary("matmul_efficiency")),
    ),
    notes=("The MFU is fixed by the published throughput; the sliders only move how the rest of the step "
           "is divided.",),
)
