"""Figure for cost-per-token: decode step time and dollars per million output tokens vs batch."""

from __future__ import annotations

import matplotlib.pyplot as plt
import numpy as np
from matplotlib.ticker import FuncFormatter

from design import palette
from figures.axes import MIN_FONT
from models.units import fmt_seconds

SMALL = MIN_FONT


def _usd(x: float) -> str:
    """Dollars, the sign escaped (two would open matplotlib's math mode)."""
    return f"\\${x:,.2f}" if x < 100 else f"\\${x:,.0f}"


def serving_cost(data: dict, theme: str):
    """Left: the roofline step time of one decode step against batch; right: USD per million output tokens."""
    s, m, p = data["series"], data["summary"], data["params"]
    t = palette.THEMES[theme]
    b = np.asarray(s["batch"], dtype=float)
    fig, (ax, ax_c) = plt.subplots(1, 2, figsize=(8, 4.2), gridspec_kw={"wspace": 0.42})

    ax.plot(b, np.asarray(s["memory_time"]) * 1e3, color=palette.role("memory", theme), lw=1.8,
            label="HBM bytes / bandwidth")
    ax.plot(b, np.asarray(s["compute_time"]) * 1e3, color=palette.role("compute", theme), lw=1.8, ls="--",
            label="FLOPs / peak")
    ax.axhline(p["latency_target"] * 1e3, color=palette.role("bad", theme), lw=1.0, ls=":",
               label=f"target {fmt_seconds(p['latency_target'])} per token")
    ax.set_xscale("log", base=2)
    ax.set_yscale("log")
    ax.set_xlabel("decode batch (sequences)")
    ax.set_ylabel("time per decode step (ms, log)")
    ax.yaxis.set_major_formatter(FuncFormatter(lambda v, _: f"{v:g}"))
    ax.xaxis.set_major_formatter(FuncFormatter(lambda v, _: f"{v:g}"))
    ax.set_ylim(0.03, 1000)
    ax.set_yticks([0.1, 1, 10, 100])
    ax.set_xticks([1, 4, 16, 64, 256])
    ax.set_xlim(0.8, 400)
    ax_c.set_xticks([1, 4, 16, 64, 256])
    ax.legend(fontsize=SMALL, loc="upper right", borderaxespad=0.2)
    ax.set_title(f"{m['serving_gpus']:.0f} GPUs, memory-bound throughout", fontsize=10, color=t["muted"],
                 loc="left")

    c = np.asarray(s["cost_per_million"], dtype=float)
    ax_c.plot(b, c, color=palette.role("primary", theme), lw=1.8, marker="o", ms=3.5,
              label="decode, roofline (lower bound)")
    ax_c.axhspan(p["api_price_low"], p["api_price_high"], color=palette.role("secondary", theme), alpha=0.35,
                 label=f"listed API prices {_usd(p['api_price_low'])}–{_usd(p['api_price_high'])}")
    ax_c.axhline(m["prefill_per_million"], color=palette.role("tertiary", theme), lw=1.2, ls="--",
                 label=f"prefill (prompt tokens) {_usd(m['prefill_per_million'])}")
    ax_c.set_xscale("log", base=2)
    ax_c.set_yscale("log")
    ax_c.xaxis.set_major_formatter(FuncFormatter(lambda v, _: f"{v:g}"))
    ax_c.yaxis.set_major_formatter(FuncFormatter(lambda v, _: _usd(v)))
    ax_c.set_ylim(0.1, 1000)
    ax_c.set_yticks([0.1, 1, 10, 100])
    ax_c.set_xlim(0.8, 400)
    ax_c.set_xlabel("decode batch (sequences)")
    ax_c.set_ylabel("USD per million output tokens (log)")
    ax_c.legend(fontsize=SMALL, loc="upper right", borderaxespad=0.2)
    ax_c.set_title(f"at scene 22's {_usd(m['rate'])} per GPU-hour", fontsize=10, color=t["muted"], loc="left")
    return fig
