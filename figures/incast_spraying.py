"""Figures for scene incast-spraying (incast, microbursts and packet spraying).

A figure function reads the model output (build/data/<id>.json) and draws;
the pipeline calls it inside figures.theme.themed(theme) and saves the SVG.
"""

from __future__ import annotations

import matplotlib.pyplot as plt
import numpy as np

from design import palette
from figures.axes import label_clear, log_axis
from figures.explore import Panel, Probe, Readout, probe_default, series, tag
from models.units import fmt_count, fmt_rate, fmt_seconds


def goodput_vs_fan_in(data: dict, theme: str):
    """Top: goodput to one receiver versus synchronized senders N, for a lossless fabric, lossy RDMA
    and the historical TCP case. Bottom: a step's time on P uplinks, ECMP versus spraying, and with one
    uplink part-busy, ECMP, oblivious round-robin spraying and adaptive (congestion-aware) spraying."""
    s, m = data["series"], data["summary"]
    t = palette.THEMES[theme]
    n = np.asarray(s["fan_in"], dtype=float)
    C = m["port_rate"]

    # stacked, not side by side: on a phone two panels abreast are illegible, and the right one's long legend
    # squeezed both plots (review 08); each legend sits above its own panel, the gap leaves room for the lower one's
    fig, (ax_g, ax_u) = plt.subplots(2, 1, figsize=(6.4, 11.0), gridspec_kw={"hspace": 1.0})

    # --- goodput to one receiver ------------------------------------------------------
    ax_g.axhline(C, color=t["muted"], lw=1.0, ls=":")
    ax_g.plot(n, s["goodput_lossless"], color=palette.role("ok", theme), marker="o", ms=3.5,
              label="lossless (PFC / credits)")
    ax_g.plot(n, s["goodput_lossy"], color=palette.role("bad", theme), marker="s", ms=3.5,
              label=f"lossy RDMA, worst case:\nsenders in lockstep, {fmt_seconds(m['ib_timeout'])} timer")
    ax_g.plot(n, s["goodput_timeout"], color=palette.role("tertiary", theme), ls="--", marker="^", ms=3.5,
              label=f"historical TCP: {fmt_seconds(m['tcp_rto'])} RTO")
    lo = min(np.min(s["goodput_lossy"]), np.min(s["goodput_timeout"])) / 4
    log_axis(ax_g, "x", 0.8, n[-1] * 1.3, ticks=[v for v in (1, 2, 4, 8, 16, 32, 64, 128, 256, 512)
                                                  if v <= n[-1]],
             label="synchronized senders N (log scale)")
    # headroom above the port rate only for the two labels drawn there, not decades of empty axis
    log_axis(ax_g, "y", lo, C * 12, fmt=lambda v: fmt_rate(v, 1), every=2,
             label="goodput to the receiver (log scale)")
    ax_g.axvline(m["drop_free_fan_in"] + 0.5, color=t["muted"], lw=1.0, ls="--")
    # in the empty corner just left of the threshold line, on two lines, clear of the port-rate label
    ax_g.annotate(f"lossy drops\npast N = {fmt_count(m['drop_free_fan_in'])}", (m["drop_free_fan_in"] + 0.5, C / 3000),
                  xytext=(-4, 0), textcoords="offset points", ha="right", va="center", fontsize=9, color=t["ink"])
    # past the switch's ingress links the senders reach the port through upstream switches (the model's worst case)
    ax_g.axvline(m["ingress_links"], color=t["muted"], lw=0.8, ls=":")
    ax_g.annotate(f"{fmt_count(m['ingress_links'])} ingress\nlinks", (m["ingress_links"], C / 300), xytext=(3, 0),
                  textcoords="offset points", ha="left", va="bottom", fontsize=9, color=t["muted"])
    # the points the Explore panel moves along the three curves: at the page's largest fan-in here
    for name, (_ax, x, y) in probe_marks(data, probe_default(SENDERS, data)).items():
        tag(ax_g.plot([x], [y], ls="", marker="o", ms=6, color=t["ink"], mfc="none", mew=1.2, zorder=6)[0], name)
    # placed last, so it is kept clear of every line drawn above (the threshold and ingress-link markers too)
    label_clear(ax_g, n[-1], C, f"port rate {fmt_rate(C)}", fontsize=9, color=t["ink"])
    ax_g.set_title("incast: every packet meets one receiver port", fontsize=10, color=t["muted"], loc="left")
    ax_g.legend(fontsize=9, loc="lower left", bbox_to_anchor=(0.0, 1.07), frameon=False)

    # --- the busiest uplink: ECMP versus spraying -------------------------------------
    f = np.asarray(s["flows"], dtype=float)
    P = m["uplinks"]
    ax_u.plot(f, s["emax"], color=palette.role("bad", theme), lw=1.5, label="ECMP hash, exact E[max]")
    ax_u.errorbar(f, s["mc_mean"], yerr=2 * np.asarray(s["mc_se"]), fmt="o", ms=3.5, capsize=2,
                  color=palette.role("primary", theme), label=f"ECMP, {fmt_count(m['trials'])} seeded hashings")
    ax_u.plot(f, s["emax_qps"], color=palette.role("primary", theme), ls="-.", lw=1.3,
              label=f"ECMP hash, {fmt_count(m['qps_per_connection'])} queue pairs per connection, exact")
    ax_u.plot(f, s["spray"], color=palette.role("ok", theme), marker="D", ms=3.5,
              label="per-packet spraying, all uplinks free (NIC places out of order)")
    busy = f"one uplink {m['busy_uplink_load']:.0%} busy"
    ax_u.plot(f, s["ecmp_busy"], color=palette.role("bad", theme), ls="--", lw=1.3, marker="x", ms=4,
              label=f"ECMP hash, {busy} (seeded)")
    # orange with triangles, not the top panel's pink dashed TCP line: one style, one meaning in the figure
    ax_u.plot(f, s["spray_oblivious_busy"], color=palette.role("secondary", theme), ls="--", lw=1.3, marker="v", ms=3.5,
              label=f"oblivious round-robin, {busy} (placed out of order)")
    ax_u.plot(f, s["spray_adaptive_busy"], color=palette.role("ok", theme), ls=":", lw=1.6,
              label=f"adaptive (shortest queue), {busy} (placed out of order)")
    # the same spraying onto a plain in-order RC receiver: go-back-N, the median of the seeded path-skew draws
    gbn = m["gbn_fct_median"] / m["block_time"]
    top = max(max(s["emax"]), max(s["ecmp_busy"]), max(s["spray_oblivious_busy"]), gbn) * 1.08
    step = m["gbn_step_blocks"]  # the step ends with the slowest of the flows: usually far above the chart
    where = "off the chart" if step > top else "the cross"
    ax_u.plot([m["flows_eq"]], [gbn], ls="", marker="*", ms=9, color=palette.role("bad", theme),
              label=f"sprayed onto an in-order NIC (go-back-N), {fmt_seconds(m['path_skew'])} skew, median flow;\n"
                    f"the step (slowest of {fmt_count(m['flows_eq'])}): {fmt_count(step)}, {where}")
    if step <= top:
        ax_u.plot([m["flows_eq"]], [step], ls="", marker="X", ms=7, color=palette.role("bad", theme))
    ax_u.set_xlabel(f"flows N over P = {fmt_count(P)} uplinks")
    ax_u.set_ylabel("step time, in flows at full rate")
    ax_u.set_xlim(0, f[-1] * 1.05)
    ax_u.set_ylim(0, top)
    ax_u.set_title("the step waits for the slowest uplink", fontsize=10, color=t["muted"], loc="left")
    ax_u.legend(fontsize=9, loc="lower left", bbox_to_anchor=(0.0, 1.07), frameon=False)
    return fig


# --- the Explore panel: synchronized senders ----------------------------------------------------
# a probe along the model's own fan-in sweep (no re-run), opening at the page's largest fan-in
SENDERS = Probe("fan_in", "Synchronized senders N", "count", every=1,
                default=lambda out: out["summary"]["max_fan_in"])


def probe_marks(data: dict, i: int) -> dict[str, tuple[int, float, float]]:
    s = data["series"]
    n = s["fan_in"][i]
    return {"lossless-at": (0, n, s["goodput_lossless"][i]), "lossy-at": (0, n, s["goodput_lossy"][i]),
            "tcp-at": (0, n, s["goodput_timeout"][i])}


def _streak(out: dict, i: int) -> str:
    """The longest run of timeouts one queue pair took, against NCCL's retry limit."""
    k, limit = int(out["series"]["retry_streak"][i]), int(out["summary"]["retry_cnt"])
    return f"{fmt_count(k)} of {fmt_count(limit)} allowed" if k <= limit else f"{fmt_count(k)}: the QP fails"


EXPLORE = Panel(
    figure="goodput-vs-fan-in",
    title="Explore: synchronized senders",
    sliders=(SENDERS,),
    readouts=(
        Readout("Goodput, lossless (PFC / credits)", "B/s", series("goodput_lossless")),
        Readout("Goodput, lossy RDMA (worst case: lockstep, NCCL's timer)", "B/s", series("goodput_lossy")),
        Readout("Goodput, historical TCP", "B/s", series("goodput_timeout")),
        Readout("Lossy RDMA: timeouts in a row (NCCL_IB_RETRY_CNT)", "text", _streak),
    ),
    marks=probe_marks,
)
