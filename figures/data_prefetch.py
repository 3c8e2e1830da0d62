"""Figures for data-prefetch, data prefetching (one data-parallel rank's input pipeline).

A figure function reads the model output (build/data/<id>.json) and draws;
the pipeline calls it inside figures.theme.themed(theme) and saves the SVG.
"""

from __future__ import annotations

import matplotlib.pyplot as plt
import numpy as np
from matplotlib.ticker import FixedLocator, FuncFormatter, PercentFormatter

from design import palette
from figures.axes import MIN_FONT, log_axis
from figures.explore import Panel, Probe, Readout, probe_default, tag
from models.units import fmt_count, fmt_seconds

SMALL = MIN_FONT + 0.5
_SHALLOW = ("failure", "secondary", "tertiary", "primary")  # rings shorter than one batch


def _depths(series: dict) -> list[int]:
    return sorted(int(k[len("idle_d"):]) for k in series if k.startswith("idle_d"))


def _workers_axis(ax, workers: np.ndarray) -> None:
    ax.set_xscale("log", base=2)
    ax.xaxis.set_major_locator(FixedLocator(workers))
    ax.xaxis.set_major_formatter(FuncFormatter(lambda v, _: f"{v:g}"))
    ax.xaxis.set_minor_locator(FixedLocator([]))
    ax.set_xlim(workers[0] / 1.3, workers[-1] * 1.3)
    ax.set_xlabel("loader workers per rank")


def idle_vs_workers(data: dict, theme: str):
    """Left: GPU idle fraction against workers, one line per ring depth. Middle: the p99
    step time against workers, with the compute time. Right: the fitted read latency."""
    s, m, p = data["series"], data["summary"], data["params"]
    t = palette.THEMES[theme]
    workers = np.asarray(s["workers"], dtype=float)
    depths = _depths(s)
    B = m["sequences_per_rank"]
    shallow = [d for d in depths if d < B]
    colours = {d: palette.role(_SHALLOW[i % len(_SHALLOW)], theme) for i, d in enumerate(shallow)}
    colours.update({d: palette.role("ok", theme) if d == B else t["muted"] for d in depths if d >= B})

    fig, (ax, ax_p, ax_l) = plt.subplots(1, 3, figsize=(11, 4.0), width_ratios=[1.15, 1.15, 1])
    fig.subplots_adjust(wspace=0.36)

    # --- idle fraction ---------------------------------------------------------------
    for d in depths:
        idle = np.asarray(s[f"idle_d{d}"], dtype=float)
        name = "no prefetch" if d == 0 else f"ring of {d}" + (" (one batch)" if d == B else "")
        ax.plot(workers, idle, marker="o", ms=4, color=colours[d], lw=1.8,
                ls="-" if d < B else (0, (4, 2)) if d == B else ":", label=name)
    top = max(float(np.max(s[f"idle_d{d}"])) for d in depths)
    ax.set_ylim(-0.04 * top, top * 1.12)
    ax.yaxis.set_major_formatter(PercentFormatter(1.0, decimals=0))
    ax.set_ylabel("GPU idle (share of wall time)")
    _workers_axis(ax, workers)
    ax.legend(fontsize=SMALL, loc="upper right", handlelength=2.2, title="ring depth, sequences",
              title_fontsize=SMALL)
    ax.set_title(f"{B} sequences a step, step {fmt_seconds(m['step_time'])}", fontsize=10,
                 color=t["muted"], loc="left")

    # --- p99 step time -----------------------------------------------------------------
    for d in depths:
        ax_p.plot(workers, np.asarray(s[f"p99_d{d}"], dtype=float), marker="o", ms=4, color=colours[d],
                  lw=1.8, ls="-" if d < B else (0, (4, 2)) if d == B else ":")
    ax_p.axhline(m["step_time"], color=t["muted"], lw=1.0, ls="--")
    hi = max(float(np.max(s[f"p99_d{d}"])) for d in depths)
    span = hi - m["step_time"]
    ax_p.set_ylim(m["step_time"] - 0.12 * span, hi + 0.25 * span)
    ax_p.text(workers[-1], m["step_time"] - 0.04 * span, f"compute only: {fmt_seconds(m['step_time'])}",
              ha="right", va="top", fontsize=SMALL, color=t["muted"])
    ax_p.yaxis.set_major_formatter(FuncFormatter(lambda v, _: f"{v:.2f} s"))
    ax_p.set_ylabel("99th-percentile step time")
    _workers_axis(ax_p, workers)
    ax_p.set_title(f"seeded simulation, {fmt_count(m['steps'])} steps each", fontsize=10,
                   color=t["muted"], loc="left")

    # --- the read latency --------------------------------------------------------------------
    q = np.asarray(s["quantile"], dtype=float)
    lat = np.asarray(s["read_latency"], dtype=float)
    ax_l.plot(q * 100, lat, color=palette.role("primary", theme), lw=2.0)
    for val, name, qq in ((p["latency_median"], "median", 50), (m["p99_read"], "p99", 99)):
        ax_l.plot([qq], [val], "o", color=palette.role("failure", theme), ms=5)
        ax_l.annotate(f"{name} {fmt_seconds(val)}", (qq, val), xytext=(-8, 6), textcoords="offset points",
                      ha="right", va="bottom", fontsize=SMALL, color=t["ink"])
    ax_l.axhline(m["mean_read"], color=t["muted"], lw=1.0, ls=":")
    ax_l.text(2, m["mean_read"] * 1.12, f"mean {fmt_seconds(m['mean_read'])}", fontsize=SMALL,
              color=t["muted"], va="bottom")
    log_axis(ax_l, "y", 0.005, 1.0, fmt=lambda v: fmt_seconds(v), ticks=[0.005, 0.01, 0.03, 0.1, 0.3, 1.0])
    ax_l.set_xlim(0, 100)
    ax_l.set_xlabel("percentile of reads")
    ax_l.set_ylabel("read time (one GET + decode)")
    ax_l.set_title(f"lognormal, σ = {m['sigma']:.2f}", fontsize=10, color=t["muted"], loc="left")
    return fig


def idle_vs_ring_depth(data: dict, theme: str):
    """The stressed case: the smaller model's step, idle against ring depth (in batches), one line per
    worker count; left with every GET answered, right with a share of GETs refused (503) and retried."""
    s, m = data["series"], data["summary"]
    t = palette.THEMES[theme]
    batches = np.asarray(s["batches"], dtype=float)
    target = float(data["params"]["busy_target"])
    fig, axes = plt.subplots(1, 2, figsize=(10, 4.4), sharey=True)
    fig.subplots_adjust(wspace=0.08, top=0.8)
    panels = (("plain", "every GET answered", m["stress_workers"], m["stress_batches"], m["job_plain_job_batches"]),
              ("retried", f"{m['retry_throttled'] * 100:g}% of GETs refused (503 Slow Down), retried",
               m["retry_workers"], m["retry_batches"], m["job_retried_job_batches"]))
    workers = sorted(int(k.rsplit("_w", 1)[1]) for k in s if k.startswith("plain_idle_w"))
    shades = ("failure", "secondary", "ok", "primary")
    # curves that coincide (more workers than throughput needs) stay visible: each count its own line and marker
    styles = (("-", "o", 7), ("--", "s", 6), ("-.", "^", 5), (":", "D", 4))
    for ax, (name, heading, best_w, best_k, job_k) in zip(axes, panels):
        for i, w in enumerate(workers):
            ls, mk, ms = styles[i % len(styles)]
            ax.plot(batches, np.asarray(s[f"{name}_idle_w{w}"], dtype=float), marker=mk, ms=ms, lw=1.8, ls=ls,
                    color=palette.role(shades[i % len(shades)], theme), label=f"{w} workers")
        # the read-time tail's idle (what sizes the rings): one rank, and the job of all ranks in lockstep; drawn only
        # where it holds (a union bound: past TAIL_VALID_IDLE overlapping stalls make it overstate), the seeded
        # lockstep simulation's points beyond
        tb = np.asarray(s["tail_batches"], dtype=float)
        lock = f"{fmt_count(m['job_ranks'])} ranks in lockstep"
        for who, colour, ls, label in (("rank", t["ink"], "-", "one rank"), ("job", t["muted"], (0, (6, 2)), lock)):
            y = np.asarray(s[f"{name}_tail_{who}"], dtype=float)
            ax.plot(tb, np.where(y <= m["tail_valid_idle"], y, np.nan), color=colour, lw=2.2, ls=ls,
                    label=f"{label}, from the tail")
        sim = np.asarray(s[f"{name}_job_shown_simulated"], dtype=bool)
        ax.plot(batches[sim], np.asarray(s[f"{name}_job_shown"], dtype=float)[sim], ls="", marker="X", ms=8,
                color=t["muted"], label=f"{fmt_count(m['job_ranks'])} ranks in lockstep, simulated")
        # named in the legend, not on the plot: every curve crosses this line somewhere, so a label on it is struck
        ax.axhline(target, color=palette.role("failure", theme), lw=1.2, ls=":",
                   label=f"busy: idle ≤ {target * 100:g}%")
        ax.plot([best_k], [target], "s", ms=11, mfc="none", mew=1.8, color=t["ink"])
        if job_k is not None:
            ax.plot([job_k], [target], "D", ms=10, mfc="none", mew=1.8, color=t["muted"])
        note = (f"one rank busy (square) from {fmt_count(best_k)} batches, {fmt_count(best_w)} workers"
                f"\n{fmt_count(m['job_ranks'])} ranks in lockstep (diamond): from {fmt_count(job_k)} batches")
        ax.set_xscale("log", base=2)
        ax.set_yscale("symlog", linthresh=1e-5, linscale=0.3)
        ax.xaxis.set_major_locator(FixedLocator([v for v in tb if int(v) & (int(v) - 1) == 0]))  # powers of two
        ax.xaxis.set_major_formatter(FuncFormatter(lambda v, _: f"{v:g}"))
        ax.xaxis.set_minor_locator(FixedLocator([]))
        ax.set_xlim(tb[0] / 1.3, tb[-1] * 1.3)
        ax.set_xlabel("ring depth (batches of sequences)")
        ax.set_title(f"{heading}\n{note}", fontsize=SMALL, color=t["ink"], loc="left")
    axes[0].yaxis.set_major_locator(FixedLocator([0, 1e-5, 1e-4, 1e-3, 1e-2, 1e-1, 1]))
    axes[0].yaxis.set_major_formatter(FuncFormatter(lambda v, _: "0" if v == 0 else f"{v * 100:g}%"))
    axes[0].yaxis.set_minor_locator(FixedLocator([]))
    axes[0].set_ylabel("GPU idle (share of wall time, log above 0.001%)")
    axes[0].set_ylim(-2e-6, 1.0)
    handles, labels = axes[0].get_legend_handles_labels()
    fig.legend(handles, labels, fontsize=SMALL, loc="upper center", bbox_to_anchor=(0.5, 0.0), ncol=3,
               title="simulated idle by loader workers per rank; idle from the read-time tail", title_fontsize=SMALL)
    # the points the Explore panel moves along the curves: at the page's deep ring here
    for name, (k, x, y) in probe_marks(data, probe_default(DEPTH, data)).items():
        w = int(name.rsplit("-w", 1)[1])
        tag(axes[k].plot([x], [y], ls="", marker="o", ms=7, mec=t["ink"], mew=0.8, zorder=6,
                         color=palette.role(shades[workers.index(w) % len(shades)], theme))[0], name)
    fig.suptitle(f"A step of {fmt_seconds(m['small_step'])} (Llama 3 8B on the same GPUs): "
                 f"{fmt_count(m['sequences_per_rank'])} sequences a step per rank", fontsize=10, color=t["ink"],
                 x=0.08, ha="left")
    return fig


# --- the Explore panel: ring depth ---------------------------------------------------
# a probe along the stressed case's own depth sweep (no model re-run), opening at the ring the page
# quotes for retried 503s; the readouts are the read-time tail's idle there (what the page quotes) and the
# simulated idle fractions
DEPTH = Probe("batches", "Ring depth (batches)", "count", default=lambda out: out["summary"]["retry_batches"])


def _stress_workers(data: dict) -> list[int]:
    return sorted(int(k.rsplit("_w", 1)[1]) for k in data["series"] if k.startswith("plain_idle_w"))


def probe_marks(data: dict, i: int) -> dict[str, tuple[int, float, float]]:
    s = data["series"]
    return {f"{name}-w{w}": (k, s["batches"][i], s[f"{name}_idle_w{w}"][i])
            for k, name in enumerate(("plain", "retried")) for w in _stress_workers(data)}


def _idle(name: str, k: int):
    return lambda out, i: out["series"][f"{name}_idle_w{_stress_workers(out)[k]}"][i]


def _idle_label(name: str, k: int):
    """A simulated readout's label; below the workers throughput needs it says so, since there the idle is the
    shortfall in reads, not the ring's, and need not fall as the ring deepens (8 workers, 503s retried)."""
    case = "every GET answered" if name == "plain" else "503s retried"
    need = "stress_throughput_workers" if name == "plain" else "retry_throughput_workers"

    def text(out: dict) -> str:
        w, least = _stress_workers(out)[k], out["summary"][need]
        short = f" (fewer than the {least} throughput needs: a deeper ring does not help)" if w < least else ""
        return f"GPU idle, {w} workers, {case}{short}"
    return text


def _shown_idle(name: str, who: str):
    """The idle at the probe's depth: the read-time tail's (what sizes the page's rings) where it holds, the seeded
    simulation's where the tail's union bound overstates (shallow rings, where stalls overlap)."""
    return lambda out, i: out["series"][f"{name}_{who}_shown"][i]


def _ring_megabytes(out: dict, i: int) -> float:
    """In decimal MB, the page's one unit ("B" would print the power-of-two rings, most of the slider, in MiB)."""
    m = out["summary"]
    return out["series"]["batches"][i] * m["sequences_per_rank"] * m["sequence_bytes"] / 1e6


EXPLORE = Panel(
    figure="idle-vs-ring-depth",
    title="Explore: ring depth",
    sliders=(DEPTH,),
    readouts=(
        Readout("Ring size per rank (MB)", "1", _ring_megabytes),
        Readout("GPU idle, one rank, 503s retried (read-time tail; simulated at shallow rings)", "%",
                _shown_idle("retried", "rank")),
        Readout("GPU idle, all ranks in lockstep, 503s retried (read-time tail; simulated at shallow rings)", "%",
                _shown_idle("retried", "job")),
        *[Readout(_idle_label("retried", k), "%", _idle("retried", k)) for k in range(1, 4)],
        *[Readout(_idle_label("plain", k), "%", _idle("plain", k)) for k in range(1, 3)],
    ),
    marks=probe_marks,
    notes=("At shallow rings stalls overlap and the read-time tail's formula overstates the idle, so there the two "
           "'read-time tail' readouts show the seeded simulation (one rank: the sweep at the most workers; all "
           "ranks: a lockstep run of every rank's loader).",),
)

__all__ = ["idle_vs_workers", "idle_vs_ring_depth", "EXPLORE"]
