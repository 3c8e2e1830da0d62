"""Figure for gpudirect-storage, GPUDirect Storage versus POSIX bounce buffers.

Top: the node's read rate into HBM from its local drives versus IO size, for
the buffered POSIX path, POSIX with O_DIRECT and GPUDirect Storage, and under
it the CPU cores each keeps busy. Bottom: the three paths versus concurrent
streams when the local drives and the storage NICs are read at once, with the
buffered path's host-memory limit. The panels are stacked, not side by side,
so a phone's narrow column keeps the text legible.
"""

from __future__ import annotations

import matplotlib.pyplot as plt
import numpy as np

from design import palette
from figures.axes import MIN_FONT, label_clear, log_axis
from figures.explore import Panel, Readout, Slider, summary, tag
from models.units import fmt_bytes, fmt_count, fmt_rate

PATHS = (("buffered", "POSIX, page cache", "secondary", "-"),
         ("odirect", "POSIX, O_DIRECT", "tertiary", "--"),
         ("direct", "GPUDirect Storage", "primary", "-"))
G = 1e9


def read_paths(data: dict, theme: str):
    s, m, p = data["series"], data["summary"], data["params"]
    t = palette.THEMES[theme]
    size = np.asarray(s["io_size"], dtype=float)
    streams = np.asarray(s["streams"], dtype=float)

    fig = plt.figure(figsize=(6.0, 8.4))
    outer = fig.add_gridspec(2, 1, height_ratios=[3.2, 2.4], hspace=0.3)
    gs = outer[0].subgridspec(2, 1, height_ratios=[2.2, 1], hspace=0.12)
    ax = fig.add_subplot(gs[0])
    ax_c = fig.add_subplot(gs[1], sharex=ax)
    ax_s = fig.add_subplot(outer[1])

    # --- top: rate and cores versus IO size, the local drives -------------------------
    for key, name, role, ls in PATHS:
        c = palette.role(role, theme)
        ax.plot(size, np.asarray(s[f"node_{key}"]) / G, color=c, ls=ls, lw=1.8, label=name)
        ax_c.plot(size, np.asarray(s[f"cores_{key}"]), color=c, ls=ls, lw=1.8)
    ax.axhline(m["node_drive_bw"] / G, color=t["muted"], lw=0.8, ls=":")
    ax.set_ylim(0, m["node_drive_bw"] / G * 1.35)
    ax.set_ylabel("into HBM (GB/s)")
    ax.set_title(f"{p['data_drives']} local drives, {fmt_count(m['sweep_streams'])} streams",
                 fontsize=10, color=t["muted"], loc="left")
    ax.legend(fontsize=MIN_FONT, loc="center right", handlelength=2.2, borderaxespad=0.3)
    label_clear(ax, size[len(size) // 2], m["node_drive_bw"] / G,
                f"drives' rated read: {fmt_rate(m['node_drive_bw'])}", fontsize=MIN_FONT, color=t["muted"])
    if m["crossover_io"] > size[0]:
        ax.axvline(m["crossover_io"], color=t["muted"], lw=0.8, ls="--")
        ax_c.axvline(m["crossover_io"], color=t["muted"], lw=0.8, ls="--")
        ax.annotate(f"one stream alone, GDS beats\nthe page cache above {fmt_bytes(m['crossover_io'])}",
                    (m["crossover_io"], 0.08),
                    xycoords=("data", "axes fraction"), xytext=(6, 0), textcoords="offset points",
                    fontsize=MIN_FONT, color=t["muted"], ha="left", va="bottom")
    # O_DIRECT's crossover against GDS (812 kB at the page's values) is per stream, one IO in flight: the page
    # gives it in words; this panel plots the node's streams together, where the paths tie long before it
    plt.setp(ax.get_xticklabels(), visible=False)
    ticks = [float(4096 * 4**k) for k in range(8) if 4096 * 4**k <= size[-1] * 1.001]
    log_axis(ax_c, "x", size[0], size[-1], fmt=fmt_bytes, ticks=ticks, label="IO size")
    cores = np.concatenate([np.asarray(s[f"cores_{k}"]) for k, *_ in PATHS])
    c_lo, c_hi = 10 ** np.floor(np.log10(cores.min())), 10 ** np.ceil(np.log10(cores.max()))
    log_axis(ax_c, "y", c_lo, c_hi, fmt=lambda v: f"{v:g}", label="CPU cores")

    # --- bottom: versus streams, drives and storage NICs at once --------------------------
    for key, _name, role, ls in PATHS:
        c = palette.role(role, theme)
        (line,) = ax_s.plot(streams, np.asarray(s[f"streams_{key}"]) / G, color=c, ls=ls, lw=1.8, marker="o",
                            ms=3)
        tag(line, f"streams-{key}")
    # the page-cache path's ceiling from host memory: every socket's DDR5 over the bytes it moves per byte
    # delivered (not the traffic it carries now, which is below that ceiling unless memory fills)
    dram_cap = p["cpu_sockets"] * m["dram_rate_per_socket"] / m["dram_bytes_buffered"]
    # the axis holds the widest case (every storage NIC's x16 link full) for any port assignment, so the
    # Explore panel's stops share it
    top = (m["node_drive_bw"] + p["storage_nics"] * m["x16_rate"]) / G
    ax_s.axhline(dram_cap / G, color=palette.role("bad", theme), lw=0.9, ls=":")
    # the limits first: a label placed clear of the others under auto limits can land on them once these are set
    ax_s.set_ylim(0, top * 1.3)
    ax_s.set_xlim(0, streams[-1] * 1.04)
    label_clear(ax_s, streams[-1] * 0.6, dram_cap / G,
                f"host memory ÷ {m['dram_bytes_buffered']}: {fmt_rate(dram_cap)}", fontsize=MIN_FONT,
                color=palette.role("bad", theme))
    if m["buffered_dram_full_streams"]:
        ax_s.axvline(m["buffered_dram_full_streams"], color=t["muted"], lw=0.8, ls="--")
        ax_s.annotate(f"page-cache path fills\nhost memory at {fmt_count(m['buffered_dram_full_streams'])} streams",
                      (m["buffered_dram_full_streams"], 0.3), xycoords=("data", "axes fraction"),
                      xytext=(6, 0), textcoords="offset points", fontsize=MIN_FONT, color=t["muted"],
                      ha="left", va="center")
    # where the paths meet, their curves lie on one another from the point they saturate: the label names every
    # path on the direct line, so the page cache's curve is not read as missing
    def same(key):
        return abs(m[key] - m["both_direct"]) <= 1e-6 * m["both_direct"]

    on_line = [n for k, n in (("both_buffered", "page cache"), ("both_odirect", "O_DIRECT")) if same(k)]
    name = " = ".join([*on_line, "GPUDirect"]) if on_line else "direct"
    tag(label_clear(ax_s, streams[-1] * 0.75, m["both_direct"] / G, f"{name}: {fmt_rate(m['both_direct'])}",
                    fontsize=MIN_FONT, color=palette.role("primary", theme)), "direct-label")
    ax_s.set_xlabel("concurrent streams in the node")
    ax_s.set_ylabel("into HBM (GB/s)")
    ax_s.set_title(f"drives and storage NICs at once, {fmt_bytes(m['io_size'])} IOs",
                   fontsize=10, color=t["muted"], loc="left")
    fig.subplots_adjust(left=0.12, right=0.97, top=0.96, bottom=0.07)
    return fig


EXPLORE = Panel(
    figure="read-paths",
    title="Explore: how fast each storage card's storage port runs",
    # the port's rate is what moves the gain (the port count at 100 GbE leaves it at 1x): the catalogue's sweep,
    # BasePOD's 100 GbE, a 200 GbE switch port and the card's own 400G
    sliders=(Slider("storage_port_rate", "storage port line rate, per direction", "B/s", (12.5e9, 25e9, 50e9)),),
    # only what the slider moves: the lower panel, drives and storage NICs at once
    readouts=(
        Readout("GPUDirect Storage, drives and NICs at once", "B/s", summary("both_direct")),
        Readout("Page-cache path, drives and NICs at once", "B/s", summary("both_buffered")),
        Readout("Gain of the direct path", "1", summary("both_gain")),
        Readout("Cores busy, page-cache path", "count", summary("both_buffered_cores")),
    ),
    notes=("NVIDIA's BasePOD deployment guide gives storage one port per card (bonded with in-band"
           " management) into 100 GbE switch ports; a faster switch runs that port up to the card's own 400G."
           " Host memory fills once a card carries the page's computed threshold.",),
)

__all__ = ["read_paths", "EXPLORE"]
