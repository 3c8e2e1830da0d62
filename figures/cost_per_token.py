"""Figure for cost-per-token: decode step time and dollars per million tokens vs batch, with the
blended cost of a request mix owning the GPUs and renting them, against the listed API prices."""

from __future__ import annotations

import matplotlib.pyplot as plt
import numpy as np
from matplotlib.ticker import FuncFormatter

from design import palette
from figures.axes import MIN_FONT
from figures.explore import Panel, Probe, Readout, Slider, probe_default, series, tag
from models.cost_per_token import MARGIN_DIGITS
from models.units import fmt_percent, fmt_seconds

SMALL = MIN_FONT


def _usd(x: float) -> str:
    """Dollars, the sign escaped (two would open matplotlib's math mode)."""
    return f"\\${x:,.2f}" if x < 100 else f"\\${x:,.0f}"


def serving_cost(data: dict, theme: str):
    """Top: the roofline step time of one decode step against batch; bottom: USD per million tokens. Stacked,
    one batch axis for both, so each panel keeps the page's full width on a phone."""
    s, m, p = data["series"], data["summary"], data["params"]
    t = palette.THEMES[theme]
    b = np.asarray(s["batch"], dtype=float)
    fig, (ax, ax_c) = plt.subplots(2, 1, figsize=(6.4, 8.6), sharex=True, gridspec_kw={"hspace": 0.16})

    ax.plot(b, np.asarray(s["memory_time"]) * 1e3, color=palette.role("memory", theme), lw=1.8,
            label="HBM bytes / bandwidth")
    ax.plot(b, np.asarray(s["compute_time"]) * 1e3, color=palette.role("compute", theme), lw=1.8, ls="--",
            label="FLOPs / peak")
    ax.plot(b, np.asarray(s["allreduce_time"]) * 1e3, color=t["muted"], lw=1.2, ls="-.",
            label="TP all-reduces (worst case)")
    ax.axhline(p["latency_target"] * 1e3, color=palette.role("bad", theme), lw=1.0, ls=":",
               label=f"target {fmt_seconds(p['latency_target'])} per token")
    ax.set_xscale("log", base=2)
    ax.set_yscale("log")
    ax.set_ylabel("time per decode step (ms, log)")
    ax.yaxis.set_major_formatter(FuncFormatter(lambda v, _: f"{v:g}"))
    ax.xaxis.set_major_formatter(FuncFormatter(lambda v, _: f"{v:g}"))
    ax.set_ylim(0.03, 1000)
    ax.set_yticks([0.1, 1, 10, 100])
    ax.set_xticks([1, 4, 16, 64, 256])
    ax.set_xlim(0.8, 400)
    ax_c.set_xticks([1, 4, 16, 64, 256])
    ax.legend(fontsize=SMALL, loc="upper right", borderaxespad=0.2)
    ax.set_title(f"{m['serving_gpus']:.0f} GPUs, memory-bound throughout", fontsize=10, color=t["muted"],
                 loc="left")

    c = np.asarray(s["cost_per_million"], dtype=float)
    ax_c.plot(b, c, color=palette.role("primary", theme), lw=1.4, marker="o", ms=3,
              label="output tokens, decode, owning, per busy hour")
    tag(ax_c.plot(b, s["blended_owner"], color=palette.role("ok", theme), lw=1.8,
                  label="blended, owning")[0], "blended-owner")
    tag(ax_c.plot(b, s["blended_rental"], color=palette.role("bad", theme), lw=1.8, ls="--",
                  label=f"blended, on demand {_usd(m['rental_rate'])}/GPU-h (high)")[0],
        "blended-rental")
    ax_c.plot(b, s["blended_rental_low"], color=palette.role("bad", theme), lw=1.2, ls=":",
              label=f"blended, rented {_usd(m['rental_low_rate'])}/GPU-h")
    # the listed prices: who lists them, for which model, when, per million tokens (input and output alike)
    ax_c.axhspan(p["api_price_cheapest"], p["api_price_high"], color=palette.role("secondary", theme), alpha=0.35,
                 label=f"Llama 3.1 405B list prices, 2025, per M tokens in = out:\n"
                       f"OpenRouter {_usd(p['api_price_cheapest'])} to Together AI {_usd(p['api_price_high'])}")
    ax_c.axhline(p["api_price_low"], color=palette.role("secondary", theme), lw=1.0, ls="--",
                 label=f"Fireworks {_usd(p['api_price_low'])} (the median; margins read here)")
    ax_c.axhline(m["prefill_per_million"], color=palette.role("tertiary", theme), lw=1.2, ls=":",
                 label=f"prompt tokens {_usd(m['prefill_per_million'])}")
    ax_c.set_xscale("log", base=2)
    ax_c.set_yscale("log")
    ax_c.xaxis.set_major_formatter(FuncFormatter(lambda v, _: f"{v:g}"))
    ax_c.yaxis.set_major_formatter(FuncFormatter(lambda v, _: _usd(v)))
    ax_c.set_ylim(0.1, 300)
    ax_c.set_yticks([0.1, 1, 10, 100])
    ax_c.set_xticks([1, 4, 16, 64, 256])
    ax_c.set_xlim(0.8, 400)
    ax_c.set_xlabel("decode batch (sequences)")
    ax_c.set_ylabel("USD per million tokens (log)")
    # below the axes: the price band's label names provider, model, date and unit, too long to sit on the curves
    ax_c.legend(fontsize=SMALL, loc="upper center", bbox_to_anchor=(0.5, -0.17), borderaxespad=0.2)
    tag(ax_c.set_title(f"{fmt_percent(p['input_share'], 2)} prompt, {fmt_percent(m['serving_utilisation'], 3)} busy;"
                       f" owner {_usd(m['rate'])}/GPU-h",
                       fontsize=10, color=t["muted"], loc="left"), "title")
    # the points the Explore panel moves along the blended curves: at the typical batch here
    for name, (i, x, y) in probe_marks(data, probe_default(BATCH, data)).items():
        colour = palette.role("ok" if name == "owner-at" else "bad", theme)
        tag(fig.axes[i].plot([x], [y], ls="", marker="o", ms=6, color=colour, mec=t["ink"], mew=0.8,
                             zorder=6)[0], name)
    return fig


# --- the Explore panel: the deployment's batch and its request mix ------------------------------
# a probe along the model's batch sweep, opening at the typical batch; the prompt share re-runs the model
BATCH = Probe("batch", "Decode batch (sequences)", "count", default=lambda out: out["params"]["typical_batch"])
INPUT_SHARE = Slider("input_share", "Prompt tokens' share of all tokens", "%",
                     tuple(round(0.05 * k, 2) for k in range(20)))


def probe_marks(data: dict, i: int) -> dict[str, tuple[int, float, float]]:
    s = data["series"]
    return {"owner-at": (1, s["batch"][i], s["blended_owner"][i]),
            "rental-at": (1, s["batch"][i], s["blended_rental"][i])}


def _margin(key: str, price: str):
    """The margin against a listed price at the probe's batch: 1 − cost / price, shown at the page's precision
    (MARGIN_DIGITS significant figures, as its prose and the animation)."""
    return lambda out, i: fmt_percent(1.0 - out["series"][key][i] / out["params"][price], MARGIN_DIGITS)


EXPLORE = Panel(
    figure="serving-cost",
    title="Explore: batch and request mix",
    sliders=(BATCH, INPUT_SHARE),
    readouts=(
        Readout("Decode step time", "s", series("step_time")),
        Readout("Blended cost, owning (USD per million tokens)", "USD", series("blended_owner")),
        Readout("Blended cost, renting on demand (USD per million tokens)", "USD", series("blended_rental")),
        Readout("Margin at the tracker's median listed price, owning", "%", _margin("blended_owner", "api_price_low")),
        Readout("Margin at the cheapest listed price, owning", "%", _margin("blended_owner", "api_price_cheapest")),
        Readout("Margin at the tracker's median listed price, renting on demand", "%",
                _margin("blended_rental", "api_price_low")),
    ),
    marks=probe_marks,
    notes=("Batch and prompt share are assumptions; the decode efficiency (the measured share of HBM bandwidth), "
           "the prefill efficiency (the training MFU) and the serving utilisation (DeepSeek's measured day) are "
           "held at the page's values.",),
)
