"""Figures for spot-arbitrage, spot instance arbitrage.

A figure function reads the model output (build/data/<id>.json) and draws;
the pipeline calls it inside figures.theme.themed(theme) and saves the SVG.
"""

from __future__ import annotations

import matplotlib.pyplot as plt
import numpy as np
from matplotlib.lines import Line2D

from design import palette
from figures.axes import MIN_FONT, log_axis
from figures.explore import Panel, Readout, Slider, summary, tag
from models.units import fmt_count, fmt_percent, fmt_seconds

SMALL = MIN_FONT


def _pct(v: float) -> str:
    return f"{v * 100:g}%"


def break_even_vs_gang(data: dict, theme: str):
    """The break-even discount d* = 1 − W/T against gang size, per monthly band: a 2-minute notice (solid:
    the snapshot inside it, or where it does not fit the better of checkpoints and asynchronous snapshots),
    periodic checkpoints under a 30 s notice (dashed), and the same with
    asynchronous snapshots (dotted); the Llama-scale worked problem as a gang that waits and as one
    that shrinks and continues; under the assumed discount range."""
    s, p, m = data["series"], data["params"], data["summary"]
    big, el = data["problems"]["llama_scale"], data["problems"]["elastic"]
    t = palette.THEMES[theme]
    colours = [palette.role(r, theme) for r in ("primary", "secondary", "tertiary", "quaternary")]
    nodes = np.asarray(s["nodes"], dtype=float)
    bands = p["interruption_sweep"]

    fig, ax = plt.subplots(figsize=(7.6, 5.6))
    lo, hi = 1e-5, 1.0
    ax.axhspan(p["discount"], p["discount_max"], color=palette.role("ok", theme), alpha=0.18, lw=0)
    # the band is the published ranges across all machine types, not a quoted GPU price: say so on it
    ax.text(nodes[0] * 1.1, 0.72, f"discount assumed, {_pct(p['discount'])}–{_pct(p['discount_max'])} "
            "(published ranges, unverified for GPUs)",
            fontsize=SMALL, color=t["ink"], va="center")
    # the one dated H100 Spot discount found (second-hand), below the assumed band: spot still wins there
    quoted = data["problems"]["discounts"]["quoted"]
    # a long dash-dot, so it is not read as one of the 30 s checkpoint curves (dashed)
    tag(ax.axhline(quoted, color=t["ink"], lw=0.9, ls=(0, (10, 2, 2, 2))), "quoted")
    ax.text(nodes[0] * 1.1, quoted / 1.12, f"H100 Spot, Google Cloud, Sep 2026 (second-hand): {fmt_percent(quoted)}",
            fontsize=SMALL, color=t["ink"], va="top")
    for i in range(len(bands)):
        c = colours[i % len(colours)]
        tag(ax.plot(nodes, np.clip(s[f"fit_{i}"], lo, None), color=c, lw=1.8)[0], f"fit-{i}")
        tag(ax.plot(nodes, np.clip(s[f"nofit_{i}"], lo, None), color=c, lw=1.5, ls="--")[0], f"nofit-{i}")
        tag(ax.plot(nodes, np.clip(s[f"async_{i}"], lo, None), color=c, lw=1.3, ls=":")[0], f"async-{i}")
    # where δ(n) = state / (n × per-node bandwidth) fits 30 s, the dashed and dotted curves join the solid ones
    sw = data["problems"]["sweep"]
    # the guides stop below the dated-discount label, which sits just under its line
    ax.vlines(sw["merge_nodes"], lo, 0.2, color=t["muted"], lw=0.9, ls="-.")
    ax.text(sw["merge_nodes"] * 1.1, 0.22, f"δ ≤ {p['gcp_notice']:g} s\nfrom {sw['merge_nodes']} nodes",
            fontsize=SMALL, color=t["muted"], ha="left", va="top")
    # the scenario's gang, and the Llama-scale worked problem (its own δ, drawn as points, not curves)
    ax.vlines(p["nodes"], lo, 0.2, color=t["muted"], lw=0.9, ls=":")
    ax.text(p["nodes"] / 1.12, 1.6e-5, f"{fmt_count(m['gpus'])} GPUs", fontsize=SMALL, color=t["muted"],
            ha="right", va="bottom")
    hl = palette.role("highlight", theme)
    tag(ax.plot([big["nodes"]], [big["break_even"]], "*", ms=11, color=hl, mec=t["ink"], mew=0.6)[0], "gang")
    tag(ax.plot([big["nodes"]], [el["break_even"]], "D", ms=6, color=hl, mec=t["ink"], mew=0.6)[0], "elastic")
    # the two points' values, in the empty lower right (the curves crowd the points themselves)
    tag(ax.text(0.98, 0.16, f"★ {p['large_params'] / 1e9:g}B, {fmt_count(big['gpus'])} GPUs "
                            f"(δ = {fmt_seconds(big['snapshot'])}), "
                f"waits: {fmt_percent(big['break_even'], 2)}", transform=ax.transAxes, fontsize=SMALL, color=t["ink"],
                ha="right", va="bottom"), "gang-label")
    tag(ax.text(0.98, 0.09, f"◆ shrinks and continues: {fmt_percent(el['break_even'], 2)}",
                transform=ax.transAxes, fontsize=SMALL, color=t["ink"], ha="right", va="bottom"), "elastic-label")
    log_axis(ax, "x", float(nodes[0]), float(nodes[-1]), fmt=lambda v: f"{v:g}",
             label="nodes in the gang (8 GPUs each)")
    log_axis(ax, "y", lo, hi, fmt=_pct, label="break-even discount  1 − W/T")
    handles = [Line2D([], [], color=colours[i % len(colours)], lw=1.8,
                      label=f"{_pct(f)} of a node reclaimed a month") for i, f in enumerate(bands)]
    # below the gangs whose δ fits 2 minutes, the solid curve is the better strategy under that notice: say which
    below = {"async": "async snapshots", "checkpoints": "checkpoints",
             "async/checkpoints": "the better of checkpoints and async"}.get(sw["aws_unfit_strategy"], "")
    handles += [Line2D([], [], color=t["muted"], lw=1.8,
                       label=f"{p['aws_notice']:g} s notice: δ inside it from {sw['aws_fit_nodes']} nodes"
                             + (f",\nbelow, {below} under it" if below else "")),
                Line2D([], [], color=t["muted"], lw=1.5, ls="--",
                       label=f"{p['gcp_notice']:g} s notice, checkpoints while δ > {p['gcp_notice']:g} s"),
                Line2D([], [], color=t["muted"], lw=1.3, ls=":",
                       label=f"{p['gcp_notice']:g} s notice, asynchronous snapshots")]
    fig.legend(handles=handles, fontsize=SMALL, loc="lower left", bbox_to_anchor=(0.02, 0.0), ncol=2,
               handlelength=2.2, frameon=False)
    fig.subplots_adjust(bottom=0.25)
    tag(ax.set_title(f"spot wins below the assumed band · {p['model_params'] / 1e9:g}B: δ = state / (n × "
                     f"{p['node_write_bandwidth'] / 1e9:g} GB/s), {fmt_seconds(m['snapshot'])} at {p['nodes']} nodes",
                     fontsize=10, color=t["muted"], loc="left"), "title")
    return fig


def monte_carlo_check(data: dict, theme: str):
    """Expected overhead T/W − 1 at the scenario's band against gang size: formulas against the Monte Carlo."""
    s, p = data["series"], data["params"]
    t = palette.THEMES[theme]
    fig, ax2 = plt.subplots(figsize=(7.6, 4.6))
    dn = np.asarray(s["dense_nodes"], dtype=float)
    fit_c, nofit_c = palette.role("save", theme), palette.role("rework", theme)
    ax2.plot(dn, np.asarray(s["dense_fit"]) - 1, color=fit_c, lw=1.8, label="formula, snapshot in the notice")
    ax2.plot(dn, np.asarray(s["dense_nofit"]) - 1, color=nofit_c, lw=1.5, ls="--",
             label="Daly (scene 10), checkpoints at τ*")
    mn = np.asarray(s["mc_nodes"], dtype=float)
    ax2.errorbar(mn, np.asarray(s["mc_fit_mean"]) - 1, yerr=s["mc_fit_ci"], fmt="o", ms=4.5, color=fit_c,
                 capsize=2, lw=1.1, label=f"Monte Carlo, {fmt_count(p['trials'])} jobs (95% CI)")
    ax2.errorbar(mn, np.asarray(s["mc_nofit_mean"]) - 1, yerr=s["mc_nofit_ci"], fmt="s", ms=4, color=nofit_c,
                 capsize=2, lw=1.1, label="Monte Carlo, checkpoints")
    ylo = 10 ** np.floor(np.log10(min(np.min(s["dense_fit"]) - 1, 1e-3)))
    log_axis(ax2, "x", 1, float(dn[-1]), fmt=lambda v: f"{v:g}", label="nodes in the gang")
    log_axis(ax2, "y", ylo, 10.0, fmt=_pct, label="extra wall time  T/W − 1")
    ax2.legend(fontsize=SMALL, loc="upper left", handlelength=1.8, borderaxespad=0.3, framealpha=0.9)
    ax2.set_title(f"{fmt_percent(p['monthly_interruption'], 2)} reclaimed a month, δ fixed at "
                  f"{fmt_seconds(data['summary']['snapshot'])} to test the formulas, "
                  f"W = {fmt_seconds(p['work'])}", fontsize=10, color=t["muted"], loc="left")
    return fig


def _problem(key: str, field: str):
    return lambda out, i: out["problems"][key][field]


EXPLORE = Panel(
    figure="break-even-vs-gang",
    title="Explore: the wait for a replacement node",
    sliders=(Slider("capacity_wait", "Wait for replacement capacity", "s",
                    (60.0, 120.0, 300.0, 600.0, 900.0, 1200.0, 1800.0, 2700.0, 3600.0)),),
    readouts=(
        Readout(lambda out: f"Rejoin R of the {fmt_count(out['summary']['gpus'])}-GPU gang (wait + restore)", "s",
                summary("rejoin")),
        Readout(lambda out: f"Break-even, {fmt_count(out['summary']['gpus'])} GPUs, "
                            f"{out['params']['gcp_notice']:g} s notice, periodic checkpoints", "%",
                summary("gcp_break_even")),
        Readout(lambda out: f"Break-even, {fmt_count(out['problems']['llama_scale']['gpus'])} GPUs, gang waits",
                "%", _problem("llama_scale", "break_even")),
        Readout(lambda out: f"Break-even, {fmt_count(out['problems']['llama_scale']['gpus'])} GPUs, "
                            "shrinks and continues", "%", _problem("elastic", "break_even")),
    ),
)
