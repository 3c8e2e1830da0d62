"""Figures for gang-scheduling: gang scheduling and all-or-nothing allocation.

Read the model output (build/data/gang-scheduling.json); the pipeline calls
each function inside figures.theme.themed(theme) and saves the SVG.
"""

from __future__ import annotations

import matplotlib.pyplot as plt
import numpy as np
from matplotlib.ticker import PercentFormatter

from design import palette
from figures.axes import MIN_FONT, log_axis
from figures.explore import Panel, Probe, Readout, probe_default, tag
from models.units import HOUR, fmt_count, fmt_percent, fmt_seconds

SMALL = MIN_FONT
RECORD_STYLES = ((0, (1.2, 1.2)), "-.", (0, (6, 2)))  # one line style per repair time swept
# the realistic pod-by-pod run without a timeout (the takeaway's case) and with Kueue's, greedy round-robin
# (an idealised interleaving, not a bound), and the two gang policies
POLICIES = (("pods_none", "pod by pod, no timeout", "bad"), ("greedy", "greedy round-robin (idealised)", "primary"),
            ("pods", "pod by pod + timeout", "restart"), ("gang", "gang (FIFO)", "secondary"),
            ("backfill", "gang + EASY backfill", "ok"))


def _prob(x: float) -> str:
    """A probability as the page's prob() macro writes it: near 1, five figures (the digits that tell it
    from 1); else three; when tiny, a power of ten. One format for the figure, the Explore panel and the page."""
    if x >= 0.999995:  # five figures would round it to 100%: say only that it is past five nines
        return "over 99.999%"
    if x >= 0.999:
        return fmt_percent(x, 5)
    return fmt_percent(x) if x >= 1e-3 else f"{x:.1e}"


def _pairs(v) -> np.ndarray:
    """Each two neighbouring bins of equal width as one: their mean (an odd last bin kept alone)."""
    v = np.asarray(v, dtype=float)
    even = v[: v.size // 2 * 2].reshape(-1, 2).mean(axis=1)
    return np.concatenate([even, v[v.size // 2 * 2:]])


def policies(data: dict, theme: str):
    """Left: busy GPUs and GPUs held idle by waiting jobs, over the trace, per policy
    (small multiples). Right: the CDF of queueing delay per policy (log x)."""
    s, m = data["series"], data["summary"]
    t = palette.THEMES[theme]
    G, horizon = m["gpus"], m["horizon"]
    fig = plt.figure(figsize=(8, 6.2))
    gs = fig.add_gridspec(len(POLICIES), 2, width_ratios=[1.25, 1], hspace=0.35, wspace=0.3)
    held_c = t["muted"]
    for i, (pol, name, role) in enumerate(POLICIES):
        ax = fig.add_subplot(gs[i, 0])
        # pairs of the model's equal bins averaged: still exact averages, and five panels fit the SVG budget
        tt, busy, held = (_pairs(s[k]) for k in ("bin_mid", f"{pol}_busy", f"{pol}_held"))
        ax.fill_between(tt / HOUR / 24, 0, busy, color=palette.role(role, theme), alpha=0.85, lw=0,
                        label="busy")
        if held.any():  # the gang policies hold nothing: no empty area drawn
            ax.fill_between(tt / HOUR / 24, busy, busy + held, color=held_c, alpha=0.6, lw=0,
                            label="held idle")
        ax.set_xlim(0, horizon / HOUR / 24)
        ax.set_ylim(0, G * 1.02)
        ax.set_yticks([0, G // 2, G])
        ax.tick_params(labelsize=SMALL)
        ax.set_title(f"{name}: {fmt_percent(m[f'{pol}_utilisation'])} busy, "
                     f"{fmt_percent(m[f'{pol}_held_idle'])} held idle", fontsize=SMALL, loc="left",
                     color=t["ink"], pad=2)
        if i < len(POLICIES) - 1:
            plt.setp(ax.get_xticklabels(), visible=False)
        else:
            ax.set_xlabel("days into the trace", fontsize=SMALL)
        if i == len(POLICIES) // 2:
            ax.set_ylabel("GPUs", fontsize=SMALL)
        if pol == "greedy" and m["greedy_first_deadlock"] is not None:
            x = m["greedy_first_deadlock"] / HOUR / 24
            ax.axvline(x, color=t["ink"], lw=1.0, ls=":")
            ax.text(x, G * 0.55, "deadlock: stuck for good ", fontsize=SMALL, color=t["ink"], ha="right",
                    va="center")
        if i == 0:
            ax.legend(fontsize=SMALL, loc="upper left", ncols=2, borderaxespad=0.2, handlelength=1.2,
                      bbox_to_anchor=(0.0, 0.93))

    ax = fig.add_subplot(gs[:, 1])
    lo = 60.0
    hi = max(float(np.max(s[f"{p}_wait_q"])) for p, _, _ in POLICIES) * 1.5
    for pol, name, role in POLICIES:
        w = np.asarray(s[f"{pol}_wait_q"], dtype=float)
        frac = np.asarray(s[f"{pol}_wait_share"], dtype=float)  # of all jobs: greedy's never-started stay off
        ax.plot(np.maximum(w, lo) / HOUR, frac, color=palette.role(role, theme), lw=1.8,
                label=f"{name}: p99 {fmt_seconds(m[f'{pol}_wait_p99'])}")
    log_axis(ax, "x", lo / HOUR, hi / HOUR,
             ticks=[t_ for t_ in (0.1, 1, 10, 100, 1000) if lo / HOUR <= t_ <= hi / HOUR],
             label="queueing delay (hours, log scale)")
    ax.set_ylim(0, 1.32)
    ax.set_yticks([0, 0.25, 0.5, 0.75, 1.0])
    ax.yaxis.set_major_formatter(PercentFormatter(1.0, decimals=0))
    ax.set_ylabel("share of jobs started within", fontsize=SMALL + 1)
    ax.legend(fontsize=SMALL, loc="upper left", borderaxespad=0.3)
    # one trace, the page's seed, named: the page leads with the median over the seeds
    ax.set_title(f"{fmt_count(m['jobs'])} jobs, {m['gpus']} GPUs, load {fmt_percent(m['load'])}, "
                 f"seed {data['params']['seed']}",
                 fontsize=10, color=t["muted"], loc="left")
    return fig


def gang_start(data: dict, theme: str):
    """Left: aⁿ against n (log x) for the availabilities compared, with the scenario's
    nodes marked. Right: Kueue's requeue delay versus the requeue count."""
    s, m, p = data["series"], data["summary"], data["params"]
    t = palette.THEMES[theme]
    fig, (ax, ax_b) = plt.subplots(1, 2, figsize=(8, 4.2), gridspec_kw={"width_ratios": [1.5, 1], "wspace": 0.32})
    n = np.asarray(s["nodes_axis"], dtype=float)
    roles = ("bad", "secondary", "ok")
    for i in range(len(p["unavailability"])):
        a = m[f"availability_{i}"]
        ax.plot(n, s[f"p_{i}"], color=palette.role(roles[i % 3], theme), lw=1.8,
                label=f"a = {fmt_percent(a, 5)}: {_prob(m[f'start_probability_{i}'])} at "
                      f"{fmt_count(m['scenario_nodes'])} nodes")
    if "p_spares" in s:
        ax.plot(n, s["p_spares"], color=palette.role("secondary", theme), lw=1.8, ls="--",
                label=f"a = {fmt_percent(m['availability_1'], 5)} with {p['spares'][1]} spare nodes: "
                      f"{_prob(m['start_spares_8_a0_999'])}")
    # the availabilities the scenario's failure record gives, one per repair time swept, with the spares:
    # these decide the answer, so they are drawn, not only tabled (a legend of their own, lower left)
    record, key = [], f"p_{p['spares'][1]}"
    for j, row in enumerate(data["records"].get("repair", [])):
        if f"p_spares_repair_{j}" not in s:
            continue
        record += ax.plot(n, s[f"p_spares_repair_{j}"], color=palette.role("tertiary", theme), lw=1.5,
                          ls=RECORD_STYLES[j % len(RECORD_STYLES)],
                          label=f"{fmt_seconds(row['repair'])}, a = {fmt_percent(row['a'], 4)}: {_prob(row[key])}")
    ax.vlines(m["scenario_nodes"], 0, 1.02, color=t["ink"], lw=1.0, ls=":")
    # the points the Explore panel moves along the curves: at the scenario's gang here
    for name, (i_ax, x, y) in probe_marks(data, probe_default(GANG_NODES, data)).items():
        colour = palette.role("secondary", theme) if name == "spares-at" else t["ink"]
        tag(fig.axes[i_ax].plot([x], [y], ls="", marker="o", ms=5, color=colour, mec=t["ink"], mew=0.8,
                                zorder=6)[0], name)
    log_axis(ax, "x", float(n[0]), float(n[-1]), ticks=[1, 10, 100, 1000], label="nodes in the gang, n (log scale)")
    ax.set_ylim(0, 1.45)
    ax.set_yticks([0, 0.25, 0.5, 0.75, 1.0])
    ax.yaxis.set_major_formatter(PercentFormatter(1.0, decimals=0))
    ax.set_ylabel("P(the gang can start)")
    main = ax.legend(handles=[h for h in ax.get_lines() if h not in record and not h.get_label().startswith("_")],
                     fontsize=SMALL, loc="upper right", borderaxespad=0.3)
    if record:
        # below the axes: inside, the 99% curve runs through wherever it goes
        ax.legend(handles=record, fontsize=SMALL, loc="upper left", bbox_to_anchor=(0.0, -0.2), borderaxespad=0.0,
                  handlelength=2.0, ncols=1,
                  title=f"Llama 3 record, {p['spares'][1]} spares, node out for:", title_fontsize=SMALL,
                  alignment="left")
        ax.add_artist(main)
    ax.set_title(f"the scenario's job: {fmt_count(m['scenario_nodes'])} nodes (dotted)", fontsize=10,
                 color=t["muted"], loc="left")

    k = np.asarray(s["backoff_n"], dtype=float)
    d = np.asarray(s["backoff_s"], dtype=float)
    ax_b.bar(k, d / 60.0, color=palette.role("restart", theme), width=0.7)
    ax_b.axhline(p["backoff_max"] / 60.0, color=t["muted"], lw=1.0, ls="--")
    ax_b.set_xticks(k)
    ax_b.tick_params(labelsize=SMALL)
    ax_b.set_xlabel("requeue count n", fontsize=SMALL + 1)
    ax_b.set_ylabel("delay before requeue (min)", fontsize=SMALL + 1)
    ax_b.set_ylim(0, p["backoff_max"] / 60.0 * 1.35)
    ax_b.set_title(f"Kueue: {fmt_seconds(p['backoff_base'])}·2ⁿ⁻¹, cap {fmt_seconds(p['backoff_max'])}",
                   fontsize=10, color=t["muted"], loc="left")
    return fig


# --- the Explore panel: nodes in the gang ------------------------------------------------------
# a probe along the model's own sweep of n (every fourth point), opening at the scenario's gang
GANG_NODES = Probe("nodes_axis", "Nodes in the gang, n", "count", every=4,
                   default=lambda out: out["summary"]["scenario_nodes"])


def probe_marks(data: dict, i: int) -> dict[str, tuple[int, float, float]]:
    s, p = data["series"], data["params"]
    marks = {f"p{k}-at": (0, s["nodes_axis"][i], s[f"p_{k}"][i]) for k in range(len(p["unavailability"]))}
    if "p_spares" in s:
        marks["spares-at"] = (0, s["nodes_axis"][i], s["p_spares"][i])
    return marks


def _p_readout(key: str):
    """A start probability as the page writes it (the page's prob() macro), so every readout shares one
    format."""
    return lambda out, i: _prob(out["series"][key][i])


EXPLORE = Panel(
    figure="gang-start",
    title="Explore: nodes in the gang",
    sliders=(GANG_NODES,),
    readouts=(
        Readout(lambda out: f"P(start), a = {fmt_percent(out['summary']['availability_0'], 5)}, no spare", "%",
                _p_readout("p_0")),
        Readout(lambda out: f"P(start), a = {fmt_percent(out['summary']['availability_1'], 5)}, no spare", "%",
                _p_readout("p_1")),
        Readout(lambda out: f"P(start), a = {fmt_percent(out['summary']['availability_1'], 5)}, "
                            f"{out['params']['spares'][1]} spare nodes", "%", _p_readout("p_spares")),
    ),
    marks=probe_marks,
)
