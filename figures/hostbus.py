"""Figure for scene 02 (PCIe Gen5 vs CXL): link efficiency, and copy bandwidth versus size."""

from __future__ import annotations

import matplotlib.pyplot as plt
import numpy as np
from matplotlib.ticker import FixedLocator, FuncFormatter, NullFormatter

from design import palette
from models.units import fmt_bytes

GB = 1e9


def bandwidth_vs_size(data: dict, theme: str):
    """Left: link efficiency versus TLP payload. Right: pinned and pageable bandwidth versus size."""
    s, m = data["series"], data["summary"]
    t = palette.THEMES[theme]
    pin_c, page_c = palette.role("ok", theme), palette.role("memory", theme)
    wire_c = palette.role("data", theme)

    fig, (ax_e, ax_b) = plt.subplots(1, 2, figsize=(8, 4.5),
                                     gridspec_kw={"wspace": 0.32, "width_ratios": [1, 1.45]})

    # --- link efficiency versus payload -----------------------------------------
    p = np.asarray(s["payload_bytes"], dtype=float)
    ax_e.plot(p, 100 * np.asarray(s["efficiency_no_dllp"]), color=t["muted"], ls="--", lw=1.4,
              label="TLPs only")
    ax_e.plot(p, 100 * np.asarray(s["efficiency"]), color=wire_c, marker="o", ms=4,
              label="with DLLPs")
    ax_e.axvline(m["max_payload"], color=t["muted"], lw=1.0, ls=":")
    ax_e.text(m["max_payload"] * 1.1, 100 * m["efficiency"] - 6,
              f"{100 * m['efficiency']:.1f}%",
              fontsize=9, color=t["ink"], va="top")
    ax_e.set_xscale("log", base=2)
    ax_e.xaxis.set_major_locator(FixedLocator(p[::2]))
    ax_e.xaxis.set_major_formatter(FuncFormatter(lambda x, _: f"{int(x)}"))
    ax_e.xaxis.set_minor_formatter(NullFormatter())
    ax_e.tick_params(axis="x", labelsize=8)
    ax_e.set_ylim(50, 100)
    ax_e.yaxis.set_major_locator(FixedLocator([50, 60, 70, 80, 90, 100]))
    ax_e.set_xlabel("TLP payload (B, log)")
    ax_e.set_ylabel("link efficiency (%)")
    ax_e.legend(loc="lower right", fontsize=8.5)

    # --- copy bandwidth versus transfer size ------------------------------------
    n = np.asarray(s["transfer_bytes"], dtype=float)
    ax_b.plot(n, np.asarray(s["pinned_bw"]) / GB, color=pin_c, label="pinned: one DMA")
    ax_b.plot(n, np.asarray(s["pageable_bw"]) / GB, color=page_c,
              label="pageable: bounce buffer")
    ax_b.axhline(m["raw_bw"] / GB, color=t["ink"], lw=1.1, ls="--")
    ax_b.text(n[0] * 1.3, m["raw_bw"] / GB * 1.02,
              f"link {m['raw_bw'] / GB:.1f} GB/s each way",
              fontsize=8.5, color=t["ink"], va="bottom")
    ax_b.axhline(m["pageable_limit"] / GB, color=page_c, lw=1.0, ls=":")
    ax_b.text(n[0] * 1.3, m["pageable_limit"] / GB * 1.04,
              f"memcpy {m['pageable_limit'] / GB:.0f} GB/s", fontsize=8.5, color=page_c,
              va="bottom")
    ax_b.set_xscale("log")
    lo, hi = float(n[0]), float(n[-1])
    decades = [10.0**e for e in range(int(np.ceil(np.log10(lo))), int(np.floor(np.log10(hi))) + 1)]
    ax_b.xaxis.set_major_locator(FixedLocator(decades[::3]))
    ax_b.xaxis.set_minor_locator(FixedLocator(decades))
    ax_b.xaxis.set_major_formatter(FuncFormatter(lambda x, _: fmt_bytes(x, 1)))
    ax_b.xaxis.set_minor_formatter(NullFormatter())
    ax_b.set_xlim(lo, hi)
    ax_b.set_ylim(0, m["raw_bw"] / GB * 1.15)
    ax_b.yaxis.set_major_locator(FixedLocator([0, 20, 40, 60]))
    ax_b.set_xlabel("transfer size (log)")
    ax_b.set_ylabel("host to GPU (GB/s)")
    ax_b.legend(loc="upper left", bbox_to_anchor=(0.0, 0.88), fontsize=8.5)
    return fig
