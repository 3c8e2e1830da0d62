"""Figures for capex-opex-tco: the GPU-hour as a stack of costs, the idle tax, the tornado."""

from __future__ import annotations

import matplotlib.pyplot as plt
import numpy as np
from matplotlib.patches import Patch
from matplotlib.ticker import FuncFormatter, PercentFormatter

from design import palette
from figures.axes import MIN_FONT
from figures.explore import Panel, Readout, Slider, summary, tag
from models.units import DAY, fmt_count, fmt_percent, sig

SMALL = MIN_FONT
YEAR = 365.25 * DAY

# one colour per part, by meaning where the palette has one
PART_ROLES = {
    "server": "gpu", "network": "network", "storage": "storage", "financing": "gpu", "power": "secondary",
    "facility": "tertiary", "staff": "cpu", "optics": "failure",
}


def part_colour(key: str, theme: str) -> str:
    if key == "staff":  # blue sits too close to the network's sky: staff is drawn in the theme's grey
        return palette.THEMES[theme]["muted"]
    if key == "storage":  # yellow darkens towards orange on a light ground: storage in the theme's ink
        return palette.THEMES[theme]["ink"]
    return palette.role(PART_ROLES[key], theme)


# financing is the servers' money plus its interest: the servers' green, paler and hatched
FINANCING_STYLE = {"alpha": 0.45, "hatch": "///"}


def part_style(key: str) -> dict:
    return FINANCING_STYLE if key == "financing" else {}


def _usd(x: float) -> str:
    """Dollars, with the dollar sign escaped (two of them would open matplotlib's math mode)."""
    if x == 0:
        return "\\$0"
    return f"\\${x:,.3f}" if abs(x) < 0.01 else f"\\${x:,.2f}"



def cost_stack(data: dict, theme: str):
    """Left: one GPU-hour as a stacked bar, and the same stack per useful GPU-hour (the idle tax on
    top). Right: the cost per useful GPU-hour against utilisation, 1/u times the full rate."""
    m, p = data["summary"], data["params"]
    t = palette.THEMES[theme]
    parts = data["records"]["parts"]
    fig, (ax, ax_u) = plt.subplots(1, 2, figsize=(8, 4.3), gridspec_kw={"width_ratios": [1, 1.25], "wspace": 0.35})

    # --- the stack ----------------------------------------------------------------
    bottom = 0.0
    for part in parts:
        style = part_style(part["key"])
        ax.bar(0, part["per_hour"], bottom=bottom, width=0.6, color=part_colour(part["key"], theme),
               edgecolor=t["bg"], lw=0.6, label=f"{part['name']}: {_usd(part['per_hour'])}", **style)
        tag(ax.bar(1, part["per_hour"] / p["utilisation"], bottom=bottom / p["utilisation"], width=0.6,
                   color=part_colour(part["key"], theme), edgecolor=t["bg"], lw=0.6, **style)[0],
            f"useful-{part['key']}")
        bottom += part["per_hour"]
    ax.set_xticks([0, 1], ["per\nGPU-hour", "per useful\nGPU-hour"])
    ax.set_xlim(-0.5, 1.5)
    top = m["useful_per_hour"]
    ax.set_ylim(0, top * 1.95)  # headroom for the legend
    ax.yaxis.set_major_formatter(FuncFormatter(lambda v, _: _usd(v)))
    ax.set_ylabel("USD per GPU-hour")
    ax.text(0, m["total_per_hour"] + top * 0.03, _usd(m["total_per_hour"]), ha="center", va="bottom",
            fontsize=SMALL, color=t["ink"])
    tag(ax.text(1, top + top * 0.03, _usd(top), ha="center", va="bottom", fontsize=SMALL, color=t["ink"]),
        "useful-total")
    handles, names = ax.get_legend_handles_labels()  # top of the stack first, as drawn
    ax.legend(handles[::-1], names[::-1], fontsize=SMALL, loc="upper left", ncol=1, borderaxespad=0.2,
              handlelength=1.0, labelspacing=0.25, frameon=False)
    ax.set_title(f"CapEx {fmt_percent(m['capex_share'], 2)} of the total", fontsize=10, color=t["muted"],
                 loc="left")

    # --- the idle tax ---------------------------------------------------------------
    s = data["series"]
    u = np.asarray(s["utilisation"], dtype=float)
    c = np.asarray(s["cost_per_useful"], dtype=float)
    ax_u.plot(u, c, color=palette.role("primary", theme), lw=1.8, label="cost per useful GPU-hour: 1/utilisation")
    ax_u.axhline(m["total_per_hour"], color=t["muted"], lw=1.0, ls="--",
                 label=f"every hour useful: {_usd(m['total_per_hour'])}")
    # the marked point's numbers are in the title, which the Explore panel can rewrite
    tag(ax_u.plot([p["utilisation"]], [m["useful_per_hour"]], "o", color=palette.role("highlight", theme),
                  mec=t["ink"], ms=6)[0], "at")
    ax_u.set_yscale("log")
    ax_u.set_ylim(m["total_per_hour"] * 0.7, float(c.max()) * 1.3)
    ax_u.yaxis.set_major_formatter(FuncFormatter(lambda v, _: _usd(v)))
    ax_u.yaxis.set_minor_formatter(FuncFormatter(lambda v, _: ""))
    ax_u.set_yticks([m["total_per_hour"] * k for k in (1, 2, 5, 10)])
    ax_u.xaxis.set_major_formatter(PercentFormatter(1.0, decimals=0))
    ax_u.set_xlabel("utilisation (useful share of GPU-hours)")
    ax_u.set_ylabel("USD per useful GPU-hour (log scale)")
    ax_u.legend(fontsize=SMALL, loc="upper right", borderaxespad=0.2)
    tag(ax_u.set_title(f"marked: {fmt_percent(p['utilisation'], 2)} useful, {_usd(m['useful_per_hour'])} "
                       "per useful GPU-hour", fontsize=10, color=t["muted"], loc="left"), "title")
    return fig


def _range_text(key: str, lo: float, hi: float, window: float) -> str:
    """The swept range of an input, in the units a reader uses (replacements: counted in the
    snapshot's window, shown per year)."""
    if key == "network_failures":
        return f"{fmt_count(lo / window * YEAR)}–{fmt_count(hi / window * YEAR)} a year"
    if key == "cost_of_capital":
        return f"{fmt_percent(lo, 2)}–{fmt_percent(hi, 2)} a year"
    if key == "node_price":
        return f"\\${fmt_count(lo)}–\\${fmt_count(hi)}"
    if key == "useful_life":
        return f"{sig(lo / YEAR, 2)}–{sig(hi / YEAR, 2)} years"
    if key in ("utilisation", "network_share"):
        return f"{fmt_percent(lo, 2)}–{fmt_percent(hi, 2)}"
    if key == "colocation":
        return f"\\${fmt_count(lo)}–\\${fmt_count(hi)} per kW-month"
    if key == "tariff":
        return f"{sig(100 * lo, 3)}–{sig(100 * hi, 3)} ¢/kWh"
    if key == "pue":
        return f"{sig(lo, 3)}–{sig(hi, 3)}"
    if key == "staff_per_gpu_year":
        return f"\\${fmt_count(lo)}–\\${fmt_count(hi)} per GPU-year"
    if key == "storage_price_per_tb":
        return f"\\${fmt_count(lo)}–\\${fmt_count(hi)} per TB"
    return f"\\${fmt_count(lo)}–\\${fmt_count(hi)}"


def _per_server(key: str, m: dict) -> str:
    """The storage price's range also as the price of one Llama 3 storage server, so the reader sees
    which end prices a whole server (the low and scenario prices cover little beyond its flash)."""
    if key != "storage_price_per_tb":
        return ""
    return f", \\${fmt_count(m['storage_server_price_low'])}–\\${fmt_count(m['storage_server_price_high'])} a server"


def tornado(data: dict, theme: str):
    """The cost per useful GPU-hour as each input moves from its low to its high value, widest on top."""
    m = data["summary"]
    t = palette.THEMES[theme]
    bars = data["records"]["tornado"]
    base = m["useful_per_hour"]
    fig, ax = plt.subplots(figsize=(8, 5.2))
    n = len(bars)
    lo_c, hi_c = palette.role("primary", theme), palette.role("secondary", theme)
    for i, b in enumerate(bars):
        y = n - 1 - i
        for end, colour in (("at_low", lo_c), ("at_high", hi_c)):
            v = b[end]
            ax.barh(y, v - base, left=base, height=0.62, color=colour, edgecolor=t["bg"], lw=0.5)
    keys = [Patch(color=lo_c, label="input at its low value"), Patch(color=hi_c, label="input at its high value")]
    ax.axvline(base, color=t["ink"], lw=1.0)
    window = data["params"]["observation_window"]
    ax.set_yticks(range(n), [f"{b['label']}  ({_range_text(b['input'], b['low_value'], b['high_value'], window)}"
                             f"{_per_server(b['input'], m)})" for b in reversed(bars)], fontsize=SMALL)
    span = m["tornado_max"] - m["tornado_min"]
    ax.set_xlim(m["tornado_min"] - 0.05 * span, m["tornado_max"] + 0.05 * span)
    ax.set_ylim(-0.7, n + 0.9)
    ax.xaxis.set_major_formatter(FuncFormatter(lambda v, _: _usd(v)))
    ax.set_xlabel(f"USD per useful GPU-hour (scenario: {_usd(base)})")
    ax.legend(handles=keys, fontsize=SMALL, loc="upper right", ncol=2, borderaxespad=0.2)
    fig.tight_layout()
    return fig


# --- the Explore panel: utilisation --------------------------------------------------
# from the tornado's low end (utilisation_low, 50%) to every hour useful; below 50% the page's
# own curve (right) already shows the cost
EXPLORE = Panel(
    figure="cost-stack",
    title="Explore: utilisation",
    sliders=(Slider("utilisation", "Utilisation (useful share of GPU-hours)", "%",
                    tuple(round(0.5 + 0.05 * k, 2) for k in range(11))),),
    # only what the slider moves: the cost per GPU-hour and the cluster's yearly cost do not
    readouts=(
        Readout("Cost per useful GPU-hour", "USD/h", summary("useful_per_hour")),
        Readout("Idle tax per useful GPU-hour", "USD/h", summary("idle_tax")),
    ),
)
