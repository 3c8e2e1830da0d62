"""Figure for the pcie-cxl scene (PCIe Gen5 host copies): link efficiency, and copy bandwidth versus size."""

from __future__ import annotations

import matplotlib.pyplot as plt
import numpy as np

from design import palette
from figures.axes import label_clear, log_axis
from figures.explore import Panel, Probe, Readout, Slider, probe_default, series, summary, tag
from models.units import fmt_bytes

GB = 1e9


def bandwidth_vs_size(data: dict, theme: str):
    """Top: link efficiency versus TLP payload. Bottom: pinned and pageable bandwidth versus size."""
    s, m = data["series"], data["summary"]
    t = palette.THEMES[theme]
    pin_c, page_c = palette.role("ok", theme), palette.role("memory", theme)
    wire_c = palette.role("data", theme)

    # stacked, not side by side: on a phone each panel then gets the full width, and its labels stay legible
    fig, (ax_e, ax_b) = plt.subplots(2, 1, figsize=(6.4, 8.0),
                                     gridspec_kw={"hspace": 0.32, "height_ratios": [1, 1.3]})

    # --- link efficiency versus payload -----------------------------------------
    p = np.asarray(s["payload_bytes"], dtype=float)
    ax_e.plot(p, 100 * np.asarray(s["efficiency_no_dllp"]), color=t["muted"], ls="--", lw=1.4,
              label="TLPs only")
    ax_e.plot(p, 100 * np.asarray(s["efficiency"]), color=wire_c, marker="o", ms=4,
              label="with DLLPs")
    ax_e.axvline(m["max_payload"], color=t["muted"], lw=1.0, ls=":")
    log_axis(ax_e, "x", p[0] / 1.3, p[-1] * 1.3, fmt=lambda v: f"{int(v)}", base=2,
             ticks=list(p[::2]), label="TLP payload (B, log)")
    ax_e.set_ylim(50, 100)
    ax_e.set_yticks([50, 60, 70, 80, 90, 100])
    ax_e.set_ylabel("link efficiency (%)")
    ax_e.legend(loc="lower right", fontsize=9)
    label_clear(ax_e, m["max_payload"], 100 * m["efficiency"], f"{100 * m['efficiency']:.1f}%",
                fontsize=9, color=t["ink"])

    # --- copy bandwidth versus transfer size ------------------------------------
    n = np.asarray(s["transfer_bytes"], dtype=float)
    # the headline's pinned curve runs at the measured host's rate; the 256 B best case is its ceiling, for one
    # isolated call like it: queued copies pay a smaller t_0 and beat it at mid sizes, so the label names the t_0
    one_call = f"one call (t₀ {m['call_latency'] * 1e6:.0f} µs)"
    tag(ax_b.plot(n, np.asarray(s["pinned_bw_ceiling"]) / GB, color=pin_c, lw=1.0, ls="--",
                  label=f"{m['max_payload']:.0f} B ceiling, {one_call}")[0], "pinned-ceiling")
    tag(ax_b.plot(n, np.asarray(s["pinned_bw"]) / GB, color=pin_c, label=f"pinned, {one_call}")[0], "pinned")
    # the headline host's own bandwidthTest points: 100 copies queued back to back, so a smaller t_0 per copy
    tag(ax_b.plot(np.asarray(s["shmoo_bytes"]), np.asarray(s["shmoo_bw"]) / GB, ls="", marker="o", ms=3.2,
                  mfc="none", mec=t["ink"], mew=0.8, label="measured, queued copies")[0], "shmoo")
    # the fit only over the sizes the run measured: past its largest copy the measured rate falls, the fit does not
    fit_at = n <= float(np.max(s["shmoo_bytes"]))
    tag(ax_b.plot(n[fit_at], np.asarray(s["pinned_bw_back_to_back"])[fit_at] / GB, color=t["ink"], lw=0.9, ls="-.",
                  label=f"fit: t₀ {m['shmoo_t0_fit'] * 1e6:.1f} µs, B {m['shmoo_rate_fit'] / GB:.1f} GB/s")[0],
        "shmoo-fit")
    tag(ax_b.plot(n, np.asarray(s["pageable_bw"]) / GB, color=page_c, label="pageable: bounce buffer")[0],
        "pageable")
    tag(ax_b.axhline(m["raw_bw"] / GB, color=t["ink"], lw=1.1, ls="--"), "raw")
    ax_b.axhline(m["pageable_limit"] / GB, color=page_c, lw=1.0, ls=":")
    lo, hi = float(n[0]), float(n[-1])
    log_axis(ax_b, "x", lo, hi, fmt=lambda v: fmt_bytes(v, 1), every=3, label="transfer size (log)")
    ax_b.set_ylim(0, m["raw_bw"] / GB * 1.15)
    ax_b.set_yticks([0, 20, 40, 60])
    ax_b.set_ylabel("host to GPU (GB/s)")
    # right, between the pageable plateau and the pinned ones: past a few MB no curve crosses that band
    ax_b.legend(loc="center right", bbox_to_anchor=(1.0, 0.42), fontsize=9)
    tag(ax_b.annotate(f"link {m['raw_bw'] / GB:.1f} GB/s each way", (lo, m["raw_bw"] / GB),
                      xytext=(4, 3), textcoords="offset points", fontsize=9, color=t["ink"], va="bottom"),
        "raw-label")
    ax_b.annotate(f"memcpy {m['pageable_limit'] / GB:.1f} GB/s", (hi, m["pageable_limit"] / GB),
                  xytext=(-4, 3), textcoords="offset points", fontsize=9, color=page_c, ha="right",
                  va="bottom")
    # the points the Explore panel moves: at the page's small transfer here
    for name, (_, x, y) in probe_marks(data, probe_default(SIZE, data)).items():
        tag(ax_b.plot([x], [y], ls="", marker="o", ms=6, color=pin_c if name == "pinned-at" else page_c,
                      mec=t["ink"], mew=0.8, zorder=4)[0], name)
    return fig


# --- the Explore panel: lane count and transfer size ---------------------------
SIZE = Probe("transfer_bytes", "Transfer size", "B", every=2, default=lambda out: out["summary"]["small_transfer"])


def probe_marks(data: dict, i: int) -> dict[str, tuple[int, float, float]]:
    s = data["series"]
    n = s["transfer_bytes"][i]
    return {"pinned-at": (1, n, s["pinned_bw"][i] / GB), "pageable-at": (1, n, s["pageable_bw"][i] / GB)}


EXPLORE = Panel(
    figure="bandwidth-vs-size",
    title="Explore: PCIe lanes and transfer size",
    sliders=(Slider("lanes", "PCIe lanes", "count", (1.0, 2.0, 4.0, 8.0, 16.0)), SIZE),
    readouts=(
        Readout("Pinned copy (one DMA)", "B/s", series("pinned_bw")),
        Readout("Pageable copy (bounce buffer)", "B/s", series("pageable_bw")),
        Readout("Pinned over pageable", "1", lambda out, i: out["series"]["pinned_bw"][i]
                / out["series"]["pageable_bw"][i]),
        Readout("Link, each way", "B/s", summary("raw_bw")),
    ),
    marks=probe_marks,
)
