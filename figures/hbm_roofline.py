"""Figure for the hbm-roofline scene (HBM3e bandwidth and the roofline knee).

Left: the log-log roofline of the three GPUs, ridge points marked, the
scenario GPU's roof again at the bandwidth decode achieves (dashed), kernels
placed on the scenario GPU's roof. Right: decode's arithmetic intensity
against batch size, weights only and with KV-cache reads, against each GPU's
ridge, and (right axis) how busy the scenario GPU's HBM is. Everything is
read from the model output (models.hbm_roofline).
"""

from __future__ import annotations

import matplotlib.pyplot as plt
import numpy as np
from matplotlib.ticker import FixedLocator, FuncFormatter, NullFormatter, NullLocator

from design import palette
from figures.axes import decades, label_clear
from figures.explore import Panel, Probe, Readout, Slider, probe_default, series, summary, tag
from models.constants import const
from models.units import fmt_count, fmt_percent, si, sig

GPU_ORDER = ("h100", "h200", "b200")
KV = palette.GREEN  # the KV-cache curves: a hue apart from every GPU's (blue, amber, pink), as in the animation


def gpu_colours(theme: str) -> dict[str, str]:
    """One colour per GPU, the same in the figure and the animation."""
    return {"h100": palette.role("primary", theme), "h200": palette.role("secondary", theme),
            "b200": palette.PURPLE}


def _flops(x: float) -> str:
    return si(x, "FLOP/s", 3)


def _num(x: float) -> str:
    return f"{x:,.0f}" if x >= 1 else f"{x:g}"


def roofline_chart(data: dict, theme: str):
    """Left, the three GPUs' roofs with the kernels placed on the scenario GPU's; right, decode's
    intensity against batch, with each GPU's ridge and what fits in HBM."""
    fig, (ax, ax_b) = plt.subplots(1, 2, figsize=(8, 4.5),
                                   gridspec_kw={"wspace": 0.32, "width_ratios": [1.25, 1]})
    roofs_panel(ax, data, theme)
    decode_panel(ax_b, data, theme)

    for a in (ax.xaxis, ax.yaxis, ax_b.xaxis, ax_b.yaxis):
        a.set_minor_locator(NullLocator())  # decades only: a small SVG, a readable grid

    h1, l1 = ax.get_legend_handles_labels()
    h2, l2 = ax_b.get_legend_handles_labels()
    fig.legend(h1 + h2, l1 + l2, loc="lower center", ncol=2, fontsize=9,
               bbox_to_anchor=(0.5, -0.2))
    return fig


def roofs_panel(ax, data: dict, theme: str) -> None:
    """The roofs of every GPU, and the kernels placed on the scenario GPU's roof."""
    s = data["series"]
    g, kernels = data["records"]["gpus"], data["records"]["kernels"]
    t = palette.THEMES[theme]
    col = gpu_colours(theme)
    anim = data["animation"]["gpu"]
    x = np.asarray(s["intensity"], dtype=float)
    for k in GPU_ORDER:
        gk = g[k]
        ax.plot(x, s[f"roof_{k}"], color=col[k], lw=2.0, zorder=3 if k == anim else 2,
                label=f"{gk['name']} ({gk['hbm']}): {_flops(gk['peak_bf16'])}, {si(gk['bandwidth'], 'B/s', 3)}")
        ax.plot([gk["ridge_bf16"]], [gk["peak_bf16"]], "o", color=col[k], ms=5, zorder=4)
    ga = g[anim]  # its ridge is labelled in the right-hand panel
    # the scenario GPU's roof at the bandwidth decode kernels achieve: the knee moves right
    eta = data["summary"]["decode_bandwidth_efficiency"]
    # the Explore slider moves this roof, its knee and the knee's label (the legend entry stays put)
    tag(ax.plot(x, np.minimum(ga["peak_bf16"], x * eta * ga["bandwidth"]), color=col[anim], lw=1.4, ls="--",
                zorder=2, label=f"{ga['name']}, β at the achieved share η_m (page: batch-1 MBU), Π at peak")[0],
        "roof-achieved")
    tag(ax.plot([ga["ridge_achievable"]], [ga["peak_bf16"]], "o", color=col[anim], ms=4, mfc="none",
                zorder=4)[0], "knee-achieved")
    tag(ax.annotate(f"η_m {fmt_percent(eta, 2)}: knee {sig(ga['ridge_achievable'], 4)}",
                    (ga["ridge_achievable"], ga["peak_bf16"]), xytext=(4, 5), textcoords="offset points",
                    ha="left", va="bottom", fontsize=9, color=col[anim]), "knee-achieved-label")

    # kernels on the scenario GPU's roof
    shapes = {"decode": "s", "gemm": "D", "attention": "^"}
    for kn in kernels:
        y = kn["attainable"][anim]
        ax.plot([kn["intensity"]], [y], shapes[kn["kind"]], color=t["ink"], ms=6, zorder=5,
                mec=t["ink"], mfc="none" if kn["kind"] == "decode" else t["ink"])

    ax.set_xscale("log")
    ax.set_yscale("log")
    ax.set_xlim(x[0], x[-1])
    ymin = float(np.min([s[f"roof_{k}"][0] for k in GPU_ORDER]))
    ax.set_ylim(ymin, max(gk["peak_bf16"] for gk in g.values()) * 2.5)
    ax.xaxis.set_major_locator(FixedLocator([0.1, 1, 10, 100, 1000, 10000]))
    ax.xaxis.set_major_formatter(FuncFormatter(lambda v, _: _num(v)))
    ax.xaxis.set_minor_formatter(NullFormatter())
    ax.yaxis.set_major_locator(FixedLocator(decades(*ax.get_ylim())))  # no tick drawn past the axis
    ax.yaxis.set_major_formatter(FuncFormatter(lambda v, _: _num(v / 1e12)))
    ax.yaxis.set_minor_formatter(NullFormatter())
    ax.set_xlabel("arithmetic intensity (FLOP per HBM byte)")
    ax.set_ylabel("attainable dense BF16 (TFLOP/s)")
    ax.set_title(f"kernels placed on the {ga['name']} roof", fontsize=10, color=t["muted"],
                 loc="left")
    # labels last, once the axes are final, each placed clear of every line and label
    for kn in kernels:
        if kn["kind"] == "decode":
            label_clear(ax, kn["intensity"], kn["attainable"][anim], kn["name"], fontsize=9, color=t["ink"])
    # the two compute-bound kernels sit close together on the flat roof: one label for both
    flat = [kn for kn in kernels if kn["kind"] != "decode"]
    marks = {"gemm": "◆", "attention": "▲"}
    ax.annotate("\n".join(f"{marks[kn['kind']]} {kn['name'].replace(' (FFN up-projection)', '')}"
                          for kn in sorted(flat, key=lambda kn: kn["intensity"])),
                (float(np.exp(np.mean([np.log(kn["intensity"]) for kn in flat]))), flat[0]["attainable"][anim]),
                xytext=(0, -10), textcoords="offset points", ha="center", va="top", fontsize=9, color=t["ink"])


def decode_panel(ax_b, data: dict, theme: str) -> None:
    """Decode intensity against batch, weights only and with the KV cache, under each GPU's ridge."""
    s, m = data["series"], data["summary"]
    g = data["records"]["gpus"]
    t = palette.THEMES[theme]
    col = gpu_colours(theme)
    anim = data["animation"]["gpu"]
    ga = g[anim]
    b = np.asarray(s["batch"], dtype=float)
    ax_b.plot(b, s["decode_intensity"], color=t["ink"], lw=2.0,
              label="weight matmuls, with or without KV cache: 2b/w")
    ax_b.plot(b, s["decode_intensity_kv"], color=KV, lw=2.0, ls="--",
              label=f"whole step, {int(m['context_length']):,}-token KV cache: average I(b)")
    by_ridge = sorted(GPU_ORDER, key=lambda k: -g[k]["ridge_bf16"])
    for i, k in enumerate(by_ridge):  # highest ridge labelled above its line, the rest below
        ax_b.axhline(g[k]["ridge_bf16"], color=col[k], lw=1.2, ls=":")
        above = i == 0
        ax_b.text(b[0] * 1.15, g[k]["ridge_bf16"] * (1.05 if above else 0.95),
                  f"{g[k]['name']} ridge {sig(g[k]['ridge_bf16'], 4)}", color=col[k], fontsize=9,
                  va="bottom" if above else "top")
    ax_b.plot([ga["bstar_bf16"]], [ga["ridge_bf16"]], "o", color=col[anim], ms=6, zorder=4)
    # HBM capacity: the largest batch whose KV caches fit beside the weights on the serving GPUs
    ax_b.plot([m["anim_kv_fit_batch"]], [m["anim_kv_fit_intensity"]], "o", color=KV,
              ms=6, zorder=4)
    # the limit of the step's average I(b): an average over kernels, not a knee
    lim = m["decode_intensity_limit_kv"]
    ax_b.axhline(lim, color=KV, lw=0.8, alpha=0.6,
                 label=f"I(b) tends to {sig(lim, 4)} FLOP/B (an average, not a knee)")
    # labelled in its own row: beside a ridge within 10% the two lines are one to the eye, so the label goes
    # one row under that ridge's (which sits below its line)
    near = [g[k]["ridge_bf16"] for k in by_ridge[1:] if abs(lim / g[k]["ridge_bf16"] - 1) < 0.1]
    y_lim, va = (min(near) * 0.95 / 1.45, "top") if near else (lim * 1.05, "bottom")
    ax_b.text(b[0] * 1.15, y_lim, f"KV step average {sig(lim, 4)}", color=KV, fontsize=9, va=va)
    # HBM saturation as a quantity: the scenario GPU's HBM busy share, weights-only decode (right axis)
    ax_h = ax_b.twinx()
    # named by its own axis label, not the legend (which would need a fourth row)
    ax_h.plot(b, 100 * np.asarray(s["decode_hbm_busy"], dtype=float), color=col[anim], lw=1.4, ls="-.")
    ax_h.set_ylim(0, 105)
    ax_h.yaxis.set_major_locator(FixedLocator([0, 25, 50, 75, 100]))
    ax_h.yaxis.set_minor_locator(NullLocator())
    ax_h.set_ylabel(f"{ga['name']} HBM busy, weights only (%, dash-dot)", fontsize=9, color=col[anim])
    ax_h.tick_params(axis="y", colors=col[anim])
    ax_h.tick_params(axis="x", which="both", labelbottom=False, bottom=False)
    ax_b.set_xscale("log")
    ax_b.set_yscale("log")
    ax_b.set_xlim(b[0], b[-1])
    ax_b.set_ylim(0.7, b[-1] * 2 / m["weight_bytes"] * 1.3)
    for a in (ax_b.xaxis, ax_b.yaxis):
        a.set_major_formatter(FuncFormatter(lambda v, _: _num(v)))
        a.set_minor_formatter(NullFormatter())
    ax_b.xaxis.set_major_locator(FixedLocator(decades(b[0], b[-1])))
    ax_b.yaxis.set_major_locator(FixedLocator(decades(*ax_b.get_ylim())))
    ax_b.annotate(f"b* = {fmt_count(ga['bstar_batch'])}", (ga["bstar_bf16"], ga["ridge_bf16"]), xytext=(-4, 16),
                  textcoords="offset points", ha="right", va="bottom", fontsize=9, color=t["ink"])
    label_clear(ax_b, m["anim_kv_fit_batch"], m["anim_kv_fit_intensity"],
                f"{fmt_count(m['anim_serving_gpus'])} × {ga['name']}:\n{fmt_count(m['anim_kv_fit_batch'])} fit",
                fontsize=9, color=KV)
    # the points the Explore probe moves along the three curves: at the page's b* here
    axes = {1: ax_b, 2: ax_h}
    colours = {"at-matmul": t["ink"], "at-kv": KV, "at-busy": col[anim]}
    for name, (i, xm, ym) in probe_marks(data, probe_default(BATCH, data)).items():
        tag(axes[i].plot([xm], [ym], ls="", marker="o", ms=5, color=colours[name], mec=t["ink"], mew=0.8,
                         zorder=6)[0], name)
    ax_b.set_xlabel("decode batch size b (sequences)")
    ax_b.set_ylabel("decode intensity (FLOP/B)")
    ax_b.set_title(f"{m['model_params'] / 1e9:.0f}B dense model, BF16", fontsize=10,
                   color=t["muted"], loc="left")


# --- the Explore panel: the batch, and the share of HBM bandwidth decode achieves -------------------------
# a probe along the model's batch sweep (no re-run), opening at the page's b*; the bandwidth share re-runs the
# model (numpy only) and moves the dashed roof and its knee. The page's 60% (a batch-1 MBU) is a stop, and so
# are the H100's measured copy and read-stream shares (Azure's BabelStream run): with the measured-matmul readouts
# they give the page's other two knees (a third slider, for η_c, is over the panel's limit of two)
_COPY_SHARE, _READ_SHARE = (const(k) / const("h100_hbm_bw") for k in ("h100_hbm_copy_measured",
                                                                      "h100_hbm_read_measured"))
BATCH = Probe("batch", "Decode batch b (sequences)", "count", every=3,  # 30 of the sweep's 90 points
              default=lambda out: out["summary"]["anim_bstar_batch"])
ETA_M = Slider("decode_efficiency", "Share of datasheet HBM bandwidth achieved, η_m", "%",
               tuple(sorted((0.4, 0.5, 0.6, 0.7, 0.8, 0.9, 1.0, _COPY_SHARE, _READ_SHARE))))


def probe_marks(data: dict, i: int) -> dict[str, tuple[int, float, float]]:
    """Axes 1 (intensity) and 2 (its right axis, HBM busy in %): the probe's points at series index i."""
    s = data["series"]
    return {"at-matmul": (1, s["batch"][i], s["decode_intensity"][i]),
            "at-kv": (1, s["batch"][i], s["decode_intensity_kv"][i]),
            "at-busy": (2, s["batch"][i], 100 * s["decode_hbm_busy"][i])}


def _fits(out: dict, i: int) -> str:
    """Whether b sequences' KV caches fit beside the weights on the serving GPUs."""
    return "yes" if out["series"]["batch"][i] <= out["summary"]["anim_kv_fit_batch"] else "no"


_ETA_C = "h100_matmul_share"  # the best measured matmul rate over the H100's dense BF16 peak


def _ctx(out: dict) -> str:
    return fmt_count(out["summary"]["context_length"])


EXPLORE = Panel(
    figure="roofline",
    title="Explore: batch and achieved HBM bandwidth",
    sliders=(BATCH, ETA_M),
    readouts=(
        Readout("Weight matmuls' intensity, 2b/w", "FLOP/B", series("decode_intensity")),
        Readout(lambda out: f"Whole step's average intensity I(b), {_ctx(out)}-token KV caches", "FLOP/B",
                series("decode_intensity_kv")),
        Readout(lambda out: f"{out['summary']['anim_name']} HBM busy, weights only, datasheet rates", "%",
                series("decode_hbm_busy")),
        Readout("Weights-only decode at the achieved bandwidth (Π at peak)", "FLOP/s",
                series("decode_attainable_achievable")),
        Readout(lambda out: f"KV caches of b sequences fit ({_ctx(out)} tokens each)", "text", _fits),
        Readout("Knee at the achieved bandwidth, Π at peak", "FLOP/B", summary("anim_ridge_achievable")),
        Readout("b* at the achieved bandwidth (weights only)", "count", summary("anim_bstar_achievable_batch")),
        Readout(lambda out: f"H100 SXM knee, best measured matmul (η_c {fmt_percent(out['summary'][_ETA_C])})"
                " over η_m", "FLOP/B", summary("h100_ridge_measured_mbu")),
        Readout("H100 SXM b* there (weights only)", "count", summary("h100_bstar_measured_mbu_batch")),
    ),
    marks=probe_marks,
    notes=("The bandwidth share moves the dashed roof only: the datasheet roofs, the batch curves and the HBM busy"
           " share stay at datasheet rates. The tensor cores are held at their peak.",
           "The last two readouts hold the H100's tensor cores at the best matmul rate measured instead. At η_m's"
           f" stops {fmt_percent(_COPY_SHARE)} (a BabelStream copy) and {fmt_percent(_READ_SHARE)} (its read-only"
           " stream, decode's kind of traffic) they give the page's knees at measured rates; there the measured"
           " matmul share is below η_m, so the knee lies left of the datasheet's.",),
)
