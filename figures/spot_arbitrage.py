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
from models.units import fmt_count, fmt_percent, fmt_seconds

SMALL = MIN_FONT


def _pct(v: float) -> str:
    return f"{v * 100:g}%"


def break_even_vs_gang(data: dict, theme: str):
    """Left: the break-even discount d* = 1 − W/T against gang size, per monthly band, with the
    snapshot inside the notice (solid) and periodic checkpoints (dashed), under the offered range.
    Right: the expected overhead T/W − 1 at the scenario's band, formulas against the Monte Carlo."""
    s, p, m = data["series"], data["params"], data["summary"]
    t = palette.THEMES[theme]
    colours = [palette.role(r, theme) for r in ("primary", "secondary", "tertiary", "quaternary")]
    nodes = np.asarray(s["nodes"], dtype=float)
    bands = p["interruption_sweep"]

    fig, (ax, ax2) = plt.subplots(1, 2, figsize=(9, 5.2), gridspec_kw={"wspace": 0.32})

    # --- left: break-even discount versus gang size ------------------------------------
    lo, hi = 1e-5, 1.0
    ax.axhspan(p["discount"], p["discount_max"], color=palette.role("ok", theme), alpha=0.18, lw=0)
    ax.text(1.3, 0.72, f"discount on offer, {_pct(p['discount'])}–{_pct(p['discount_max'])}",
            fontsize=SMALL, color=t["ink"], va="center")
    for i in range(len(bands)):
        c = colours[i % len(colours)]
        ax.plot(nodes, np.clip(s[f"fit_{i}"], lo, None), color=c, lw=1.8)
        ax.plot(nodes, np.clip(s[f"nofit_{i}"], lo, None), color=c, lw=1.5, ls="--")
    for n, name, ha in ((p["nodes"], f"{fmt_count(m['gpus'])} GPUs", "left"),
                        (data["problems"]["llama_scale"]["nodes"],
                         f"{fmt_count(data['problems']['llama_scale']['gpus'])} GPUs", "right")):
        ax.vlines(n, lo, 0.3, color=t["muted"], lw=0.9, ls=":")
        ax.text(n * (1.12 if ha == "left" else 1 / 1.12), 1.6e-5, name, fontsize=SMALL, color=t["muted"],
                ha=ha, va="bottom")
    log_axis(ax, "x", 1, float(nodes[-1]), fmt=lambda v: f"{v:g}", label="nodes in the gang (8 GPUs each)")
    log_axis(ax, "y", lo, hi, fmt=_pct, label="break-even discount  1 − W/T")
    handles = [Line2D([], [], color=colours[i % len(colours)], lw=1.8,
                      label=f"{_pct(f)} of a node reclaimed a month") for i, f in enumerate(bands)]
    handles += [Line2D([], [], color=t["muted"], lw=1.8, label=f"snapshot in the notice (δ ≤ {p['aws_notice']:g} s)"),
                Line2D([], [], color=t["muted"], lw=1.5, ls="--",
                       label=f"notice too short ({p['gcp_notice']:g} s): checkpoints")]
    fig.legend(handles=handles, fontsize=SMALL, loc="lower left", bbox_to_anchor=(0.06, 0.0), ncol=2,
               handlelength=2.2, frameon=False)
    fig.subplots_adjust(bottom=0.3)
    ax.set_title(f"spot wins below the band · δ = {fmt_seconds(m['snapshot'])}, R = {fmt_seconds(m['rejoin'])}",
                 fontsize=10, color=t["muted"], loc="left")

    # --- right: overhead, formulas against the Monte Carlo ------------------------------------
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
    ax2.set_title(f"{fmt_percent(p['monthly_interruption'], 2)} reclaimed a month, "
                  f"W = {fmt_seconds(p['work'])}", fontsize=10, color=t["muted"], loc="left")
    return fig
