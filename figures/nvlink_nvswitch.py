"""Figure for the nvlink-nvswitch scene (NVLink mesh & NVSwitch scale-up): collectives inside and outside the domain.

Reads models.nvlink_nvswitch.nvlink_domains output; the pipeline calls it inside
figures.theme.themed(theme) and saves the SVG.
"""

from __future__ import annotations

import matplotlib.pyplot as plt
import numpy as np

from design import palette
from figures.axes import decades, log_axis
from figures.explore import Panel, Probe, Readout, probe_default, series, tag
from models.units import fmt_bytes, fmt_rate, fmt_seconds


def _secs(y: float) -> str:
    return fmt_seconds(y, 1)


def domain_bandwidth(data: dict, theme: str):
    """Left: all-to-all / all-reduce time vs message size, NVLink vs NICs (8 H100s).
    Right: all-to-all time vs group size for NVLink domains of 8 and 72 GPUs."""
    s, m = data["series"], data["summary"]
    t = palette.THEMES[theme]
    nvl_c = palette.role("switch", theme)
    nic_c = palette.role("nic", theme)
    b200_c = palette.role("gpu", theme)
    nvl72_c = palette.role("reduce", theme)
    p8 = m["node_gpus"]

    fig, (ax_n, ax_g) = plt.subplots(1, 2, figsize=(8, 4.5), gridspec_kw={"wspace": 0.42})

    # --- time versus message size --------------------------------------------------
    n = np.asarray(s["message_bytes"], dtype=float)
    ax_n.plot(n, s["alltoall_nvlink_h100"], color=nvl_c,
              label=f"all-to-all, NVLink {fmt_rate(m['h100_gpu_dir'])} each way")
    ax_n.plot(n, s["allreduce_nvlink_h100"], color=nvl_c, ls="--", label="all-reduce, NVLink")
    ax_n.plot(n, s["alltoall_nic"], color=nic_c,
              label=f"all-to-all, NIC {fmt_rate(m['nic_rate'])} each way")
    ax_n.plot(n, s["allreduce_nic"], color=nic_c, ls="--", label="all-reduce, NICs")
    log_axis(ax_n, "x", n[0], n[-1], fmt=lambda x: fmt_bytes(x, 1), ticks=decades(n[0], n[-1]), every=2)
    lo = min(np.min(s["alltoall_nvlink_h100"]), np.min(s["allreduce_nvlink_h100"]))
    hi = max(np.max(s["alltoall_nic"]), np.max(s["allreduce_nic"]))
    log_axis(ax_n, "y", lo / 2, hi * 2, fmt=_secs)
    ax_n.axvline(m["message"], color=t["muted"], lw=1.0, ls=":")
    ax_n.text(m["message"] / 2.5, hi, f"{m['alltoall_slowdown']:.1f}× slower\nover NICs at\n"
              f"{fmt_bytes(m['message'])}", ha="right", va="top", fontsize=9, color=t["ink"])
    ax_n.set_xlabel("bytes per GPU, n (log scale)")
    ax_n.set_ylabel("time (log scale)")
    ax_n.set_title(f"{p8} H100s: inside the baseboard vs over NICs", fontsize=10,
                   color=t["muted"], loc="left")

    # --- time versus group size: what fits in the domain --------------------------------
    g = np.asarray(s["group_size"], dtype=float)
    # wide and underneath: HGX B200 runs on the NVL72 line up to its domain and on the H100 line past it
    ax_g.plot(g, s["group_alltoall_hgx_b200"], color=b200_c, lw=5, alpha=0.45, zorder=1,
              label=f"HGX B200 (domain {p8}): wide line, under\nNVL72 up to {p8}, under HGX H100 past it")
    # dash-dot: dashed already means "all-reduce" in the left panel
    ax_g.plot(g, s["group_alltoall_hgx_h100"], color=nvl_c, ls="-.",
              label=f"HGX H100 (domain {p8})")
    ax_g.plot(g, s["group_alltoall_nvl72"], color=nvl72_c,
              label=f"GB200 NVL72 (domain {m['nvl72_gpus']})")
    for d, c in ((p8, t["muted"]), (m["nvl72_gpus"], nvl72_c)):
        ax_g.axvline(d, color=c, lw=1.0, ls=":")
    xt = [v for v in (2, p8, 32, m["nvl72_gpus"], g[-1]) if g[0] <= v <= g[-1]]
    log_axis(ax_g, "x", g[0], g[-1], fmt=lambda x: f"{int(x)}", base=2, ticks=sorted(set(xt)))
    glo = min(np.min(s["group_alltoall_nvl72"]), np.min(s["group_alltoall_hgx_b200"]))
    ghi = max(np.max(s["group_alltoall_hgx_h100"]), np.max(s["group_alltoall_nvl72"]))
    ylo, yhi = glo / 2, ghi * 3
    gticks = [k * d for d in decades(ylo / 10, yhi * 10) for k in (1, 2, 5) if ylo <= k * d <= yhi]
    log_axis(ax_g, "y", ylo, yhi, fmt=_secs, ticks=gticks)
    ax_g.set_xlabel("GPUs in the all-to-all group (log scale)")
    ax_g.set_ylabel(f"all-to-all time, n = {fmt_bytes(m['message'])}")
    ax_g.set_title("past the domain, the NIC sets the pace", fontsize=10, color=t["muted"],
                   loc="left")

    # the points the Explore panel moves along the four left-hand curves: at the page's n here
    for name, (i, x, y) in probe_marks(data, probe_default(MESSAGE, data)).items():
        colour = nvl_c if "nvlink" in name else nic_c
        tag((ax_n, ax_g)[i].plot([x], [y], ls="", marker="o", ms=6, color=colour, mec=t["ink"], mew=0.8,
                                 zorder=4)[0], name)

    # one legend per panel, under its own axes
    for ax in (ax_n, ax_g):
        ax.legend(loc="upper center", bbox_to_anchor=(0.5, -0.2), ncol=1, fontsize=9, frameon=False)
    return fig


# --- the Explore panel: the message size -------------------------------------------------
# A probe along the model's own sweep of n (every 3rd of its points, the page's 1 GB among them):
# the four collectives' times on 8 H100s, over NVLink and over one NIC port per GPU.
MESSAGE = Probe("message_bytes", "Bytes per GPU, n", "B", every=3, default=lambda out: out["summary"]["message"])
_CURVES = ("alltoall_nvlink_h100", "alltoall_nic", "allreduce_nvlink_h100", "allreduce_nic")


def probe_marks(data: dict, i: int) -> dict[str, tuple[int, float, float]]:
    """The points on each left-hand curve at message size number i: (axes index, x, y)."""
    s = data["series"]
    n = s["message_bytes"][i]
    return {f"{k.replace('_', '-')}-at": (0, n, s[k][i]) for k in _CURVES}


def _ratio(num: str, den: str):
    return lambda out, i: out["series"][num][i] / out["series"][den][i]


EXPLORE = Panel(
    figure="domain-bandwidth",
    title="Explore: message size",
    sliders=(MESSAGE,),
    readouts=(
        Readout("All-to-all over NVLink", "s", series("alltoall_nvlink_h100")),
        Readout("All-to-all over the NICs", "s", series("alltoall_nic")),
        Readout("All-to-all: NICs ÷ NVLink", "1", _ratio("alltoall_nic", "alltoall_nvlink_h100")),
        Readout("Ring all-reduce over NVLink", "s", series("allreduce_nvlink_h100")),
        Readout("Ring all-reduce over the NICs", "s", series("allreduce_nic")),
    ),
    marks=probe_marks,
)
