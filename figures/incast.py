"""Figures for scene 08 (incast, microbursts and packet spraying).

A figure function reads the model output (build/data/<id>.json) and draws;
the pipeline calls it inside figures.theme.themed(theme) and saves the SVG.
"""

from __future__ import annotations

import matplotlib.pyplot as plt
import numpy as np
from matplotlib.ticker import FixedLocator, FuncFormatter, NullFormatter, NullLocator

from design import palette
from models.units import fmt_bytes, fmt_count, fmt_rate, fmt_seconds


def goodput_vs_fan_in(data: dict, theme: str):
    """Left: goodput versus fan-in N (the incast curve) for one port with a 200 ms and a
    fine-grained timeout, ECMP and adaptive spraying. Right: peak queue per buffer."""
    s, m = data["series"], data["summary"]
    t = palette.THEMES[theme]
    bad = palette.role("bad", theme)
    fine = palette.role("secondary", theme)
    spray = palette.role("ok", theme)
    ecmp = palette.role("tertiary", theme)
    one = palette.role("primary", theme)
    n = np.asarray(s["fan_in"], dtype=float)
    n_star = m["drop_free_fan_in"]

    fig, (ax_g, ax_q) = plt.subplots(1, 2, figsize=(8, 4.5), gridspec_kw={"wspace": 0.36})

    # --- goodput versus fan-in ----------------------------------------------------
    ax_g.plot(n, s["goodput"], color=bad, marker="o", ms=3.5,
              label=f"one port, RTO {fmt_seconds(m['rto'])}")
    ax_g.plot(n, s["goodput_fine"], color=fine, marker="o", ms=3.5,
              label=f"one port, RTO {fmt_seconds(m['rto_fine'])}")
    ax_g.plot(n, s["goodput_ecmp"], color=ecmp, lw=1.4, ls="--",
              label=f"ECMP over {m['paths']} paths (per-flow hash)")
    ax_g.plot(n, s["goodput_spray"], color=spray, marker="o", ms=3.5,
              label=f"sprayed over {m['paths']} paths")
    ax_g.set_xscale("log")
    ax_g.set_yscale("log")
    ax_g.axhline(m["port_rate"], color=t["muted"], lw=1.0, ls=":")
    ax_g.text(n[0], m["port_rate"] * 1.25, f"port rate {fmt_rate(m['port_rate'])}",
              fontsize=9, color=t["ink"], va="bottom")
    ax_g.axvline(n_star + 0.5, color=t["muted"], lw=1.0, ls="--")
    ax_g.text(n_star + 0.5, m["port_rate"] / 4, f" N* = {fmt_count(n_star)}", fontsize=9,
              color=t["ink"], ha="right", va="top")
    ax_g.xaxis.set_major_locator(FixedLocator([1, 2, 4, 8, 16, 32, 64, 128, 256]))
    ax_g.xaxis.set_major_formatter(FuncFormatter(lambda x, _: f"{x:g}"))
    ax_g.xaxis.set_minor_formatter(NullFormatter())
    lo = min(np.min(s["goodput"]), np.min(s["goodput_fine"])) / 3
    hi = max(np.max(s["goodput_spray"]), m["port_rate"]) * 3
    ax_g.set_ylim(lo, hi)
    yt = [10.0**e for e in range(int(np.ceil(np.log10(lo))), int(np.floor(np.log10(hi))) + 1)]
    ax_g.yaxis.set_major_locator(FixedLocator(yt[::2]))
    ax_g.yaxis.set_major_formatter(FuncFormatter(lambda y, _: fmt_rate(y, 1)))
    ax_g.yaxis.set_minor_formatter(NullFormatter())
    ax_g.set_xlabel("synchronized senders N (log scale)")
    ax_g.set_ylabel("goodput N·S / FCT (log scale)")
    ax_g.set_title(f"each sends {fmt_bytes(m['block_bytes'])}, buffer "
                   f"{fmt_bytes(m['buffer_bytes'])}", fontsize=10, color=t["muted"], loc="left")

    # --- peak queue per buffer ----------------------------------------------------
    ax_q.plot(n, s["analytic_peak"], color=t["muted"], lw=1.2, ls=":",
              label="N·W − D (no buffer limit)")
    ax_q.plot(n, s["peak"], color=one, marker="o", ms=3.5, label="one port")
    ax_q.plot(n, s["peak_ecmp"], color=ecmp, lw=1.4, ls="--", label="ECMP, busiest spine")
    ax_q.plot(n, s["peak_spray"], color=spray, marker="o", ms=3.5, label="sprayed, busiest spine")
    ax_q.axhline(m["buffer_packets"], color=bad, lw=1.2, ls="--")
    ax_q.text(n[-1], m["buffer_packets"] * 1.15,
              f"buffer B = {fmt_count(m['buffer_packets'])} packets",
              fontsize=9, color=bad, va="bottom", ha="right")
    ax_q.set_xscale("log")
    ax_q.set_yscale("log")
    ax_q.xaxis.set_major_locator(FixedLocator([1, 2, 4, 8, 16, 32, 64, 128, 256]))
    ax_q.xaxis.set_major_formatter(FuncFormatter(lambda x, _: f"{x:g}"))
    ax_q.xaxis.set_minor_formatter(NullFormatter())
    ax_q.set_ylim(0.7, max(max(s["analytic_peak"]), m["buffer_packets"]) * 8)
    ax_q.yaxis.set_major_formatter(FuncFormatter(lambda y, _: f"{y:g}"))
    ax_q.set_xlabel("synchronized senders N (log scale)")
    ax_q.set_ylabel(f"peak queue (packets of {fmt_bytes(m['packet_bytes'])})")
    ax_q.set_title("drops wherever the peak would pass B", fontsize=10, color=t["muted"],
                   loc="left")
    ax_q.legend(fontsize=8.5, loc="upper left")
    for ax in (ax_g, ax_q):
        ax.xaxis.set_minor_locator(NullLocator())
        ax.yaxis.set_minor_locator(NullLocator())

    handles, labels = ax_g.get_legend_handles_labels()
    fig.legend(handles, labels, loc="lower center", ncol=2, fontsize=9.5,
               bbox_to_anchor=(0.5, -0.1))
    return fig
