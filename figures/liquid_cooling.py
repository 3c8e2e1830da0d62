"""Figures for liquid-cooling, 100 kW+ racks and direct-to-chip liquid cooling.

A figure function reads the model output (build/data/<id>.json) and draws;
the pipeline calls it inside figures.theme.themed(theme) and saves the SVG.
"""

from __future__ import annotations

import matplotlib.pyplot as plt
import numpy as np

from design import palette
from figures.axes import MIN_FONT
from figures.explore import Panel, Probe, Readout, probe_default, tag
from models.liquid_cooling import CFM, airflow_per_watt
from models.units import fmt_count, fmt_percent, fmt_seconds

SMALL = MIN_FONT + 1


def throttle_cycle(data: dict, theme: str):
    """Left: power against temperature after the coolant fault, the throttle's hysteresis loop.
    Right: temperature and power against time, before and after the fault."""
    s, m, p = data["series"], data["summary"], data["params"]
    t = palette.THEMES[theme]
    hot_c, cool_c = palette.role("bad", theme), palette.role("primary", theme)
    pow_c = palette.role("compute", theme)
    time = np.asarray(s["t"], dtype=float)
    temp = np.asarray(s["temperature"], dtype=float)
    power = np.asarray(s["power"], dtype=float)
    hi, lo = p["throttle_hi"], p["throttle_lo"]

    fig = plt.figure(figsize=(8, 4.4))
    gs = fig.add_gridspec(2, 2, width_ratios=[1, 1.25], height_ratios=[2, 1], wspace=0.38, hspace=0.12)
    ax = fig.add_subplot(gs[:, 0])
    ax2 = fig.add_subplot(gs[0, 1])
    axp = fig.add_subplot(gs[1, 1], sharex=ax2)

    # --- the loop: after the first engagement ---------------------------------------
    after = time >= p["fault_at"]
    first = int(np.argmax(after & (power < p["gpu_tdp"])))
    ax.plot(temp[first:], power[first:], color=cool_c, lw=1.6)
    # arrows along the loop: heating at full power, cooling throttled
    ax.annotate("", xy=(hi - 0.6, p["gpu_tdp"]), xytext=(lo + 0.6, p["gpu_tdp"]),
                arrowprops={"arrowstyle": "->", "color": hot_c, "lw": 1.6})
    ax.annotate("", xy=(lo + 0.6, m["throttled_power"]), xytext=(hi - 0.6, m["throttled_power"]),
                arrowprops={"arrowstyle": "->", "color": cool_c, "lw": 1.6})
    for x, name in ((hi, "engage"), (lo, "release")):
        ax.vlines(x, m["throttled_power"] * 0.97, p["gpu_tdp"] * 1.03, color=t["muted"], lw=0.9, ls="--")
        ax.text(x, m["throttled_power"] * 0.62, f"{name}\n{x:g} °C", ha="center", va="bottom", fontsize=SMALL,
                color=t["muted"])
    ax.text((hi + lo) / 2, p["gpu_tdp"] * 1.05, "heats at TDP", ha="center", va="bottom", fontsize=SMALL, color=hot_c)
    ax.text((hi + lo) / 2, m["throttled_power"] * 0.93, "cools throttled", ha="center", va="top", fontsize=SMALL,
            color=cool_c)
    ax.set_xlim(lo - 4, hi + 4)
    ax.set_ylim(m["throttled_power"] * 0.55, p["gpu_tdp"] * 1.2)
    ax.set_xlabel("GPU temperature (°C)")
    ax.set_ylabel("GPU power (W)")
    ax.set_title(f"hysteresis: {fmt_percent(m['throttled_share_sim'])} of the time throttled",
                 fontsize=10, color=t["muted"], loc="left")

    # --- the trace ----------------------------------------------------------------
    ax2.plot(time, temp, color=hot_c, lw=1.4, label="GPU temperature")
    ax2.plot(time, np.asarray(s["coolant"], dtype=float), color=cool_c, lw=1.2, ls="-.", label="coolant supply")
    ax2.axhline(hi, color=t["muted"], lw=0.8, ls="--")
    ax2.axhline(lo, color=t["muted"], lw=0.8, ls="--")
    ax2.axvline(p["fault_at"], color=t["muted"], lw=0.8, ls=":")
    ax2.text(p["fault_at"] + 3, p["coolant_fault"] + 2, "CDU fault", fontsize=SMALL, color=t["muted"], va="bottom")
    ax2.set_ylim(m["coolant_supply"] - 8, hi + 22)
    ax2.set_xlim(0, time[-1])
    ax2.set_ylabel("temperature (°C)")
    plt.setp(ax2.get_xticklabels(), visible=False)
    ax2.set_xlabel("")
    axp.plot(time, power, color=pow_c, lw=1.2)
    # the comparison: a controller that held T at T_hi would settle at (T_hi − T_c)/R
    axp.axhline(m["continuous_power"], color=t["muted"], lw=0.9, ls="--")
    # below the throttled power, where no line runs
    axp.text(time[-1] * 0.99, m["throttled_power"] * 0.45,
             f"dashed: holding T at {hi:g} °C, {fmt_count(m['continuous_power'])} W", ha="right", va="center",
             fontsize=SMALL, color=t["muted"])
    axp.set_ylim(0, p["gpu_tdp"] * 1.3)
    axp.set_yticks([m["throttled_power"], p["gpu_tdp"]])
    axp.set_ylabel("power (W)")
    axp.set_xlabel("time (s)")
    ax2.legend(fontsize=SMALL, loc="upper right", ncol=2, handlelength=1.4, columnspacing=0.8, borderaxespad=0.2)
    ax2.set_title(f"period {fmt_seconds(m['period_sim'])}, RC = {fmt_seconds(m['time_constant'])}",
                  fontsize=10, color=t["muted"], loc="left")
    return fig


def airflow_per_watt_kw(p: dict, rise: float) -> float:
    """Thousand CFM per kW of rack at an air rise `rise` K, from the model's own function."""
    return float(airflow_per_watt(p["air_cp"], p["air_density"], rise)) * 1e3 / CFM / 1e3


def airflow_vs_rack_power(data: dict, theme: str):
    """Airflow a rack needs against its power, at several air temperature rises, with the two racks
    and the practical air-cooling limit marked."""
    s, m, p = data["series"], data["summary"], data["params"]
    t = palette.THEMES[theme]
    kw = np.asarray(s["rack_power"], dtype=float) / 1e3
    rises = sorted(float(k[len("air_cfm_"):-1]) for k in s if k.startswith("air_cfm_") and k.endswith("K"))
    roles = ["primary", "secondary", "tertiary", "quaternary"]
    fig, ax = plt.subplots(figsize=(8, 4.2))
    limit = p["air_rack_limit"] / 1e3
    ax.axvspan(limit, kw[-1], color=t["grid"], alpha=0.5, lw=0)
    ax.text(kw[-1] - 1.5, 0.03, "beyond the practical\nlimit of air cooling", transform=ax.get_xaxis_transform(),
            ha="right", va="bottom", fontsize=SMALL, color=t["muted"])
    for i, r in enumerate(rises):
        y = np.asarray(s[f"air_cfm_{int(round(r))}K"], dtype=float) / 1e3
        ax.plot(kw, y, color=palette.role(roles[i % 4], theme), lw=1.6, label=f"air warms by {r:g} K")
    for key, name, cfm in (("h100_rack_power", "DGX H100 rack", m["air_h100_cfm"]),
                           ("nvl72_rack_power", "GB200 NVL72 rack", m["air_nvl72_cfm"])):
        x = (m[key] if key in m else p[key]) / 1e3
        ax.plot([x], [cfm / 1e3], "o", color=t["ink"], ms=5, zorder=5)
        # below the warmest-air line, where no curve runs: on the side away from the frame's edge
        low = float(airflow_per_watt_kw(p, max(rises))) * x * 0.9
        right = x < 0.5 * kw[-1]
        shown = round(cfm, -2 if cfm < 1e4 else -3)  # to the precision it deserves, as the animation shows it
        ax.text(x + (1.0 if right else -1.0) * 0.01 * kw[-1], (low if right else 0.75 * low),
                f"{name}\n{fmt_count(shown)} CFM (at {p['air_rise']:g} K)", ha="left" if right else "right",
                va="top", fontsize=SMALL, color=t["ink"])
    ax.set_xlim(0, kw[-1])
    ax.set_ylim(0, None)
    ax.set_xlabel("rack power (kW)")
    ax.set_ylabel("airflow needed (thousand CFM)")
    ax.legend(fontsize=SMALL, loc="upper left", borderaxespad=0.3)
    ax.set_title(r"$\dot V = Q\,/\,(\rho\, c_p\, \Delta T)$: "
                 + f"{m['air_cfm_per_kw']:.0f} CFM per kW at {p['air_rise']:g} K",
                 fontsize=10, color=t["muted"], loc="left")
    # the points the Explore panel moves along the curves: near the DGX H100 rack here
    for i, (name, (_, x, y)) in enumerate(probe_marks(data, probe_default(RACK, data)).items()):
        tag(ax.plot([x], [y], ls="", marker="o", ms=6, color=palette.role(roles[i % 4], theme), mec=t["ink"],
                    mew=0.8, zorder=6)[0], name)
    return fig


# --- the Explore panel: rack power --------------------------------------------
# a probe along the model's own power sweep (every other point, 2.4 kW apart), opening at the
# DGX H100 rack (a point of the sweep); the readouts are the curves' own values there
RACK = Probe("rack_power", "Rack power", "W", every=2, default=lambda out: out["summary"]["h100_rack_power"])


def _rises(data: dict) -> list[str]:
    return sorted((k for k in data["series"] if k.startswith("air_cfm_") and k.endswith("K")),
                  key=lambda k: float(k[len("air_cfm_"):-1]))


def probe_marks(data: dict, i: int) -> dict[str, tuple[int, float, float]]:
    s = data["series"]
    return {f"at-{k[len('air_cfm_'):]}": (0, s["rack_power"][i] / 1e3, s[k][i] / 1e3) for k in _rises(data)}


def _airflow(k: int):
    # to the precision the page and the figure's labels give it (nearest hundred below 10,000 CFM, else the
    # nearest thousand), so the panel's opening readout is the page's number, not 13,995 beside 14,000
    def value(out, i):
        cfm = out["series"][_rises(out)[k]][i]
        return round(cfm, -2 if cfm < 1e4 else -3)
    return value


def _airflow_label(k: int):
    return lambda out: f"Airflow needed, air warming by {_rises(out)[k][len('air_cfm_'):-1]} K (CFM)"


def _air_verdict(out: dict, i: int) -> str:
    # three ways, as the page words it: within 10% of the limit (the band the model's check uses for the
    # H100 rack) is "about at" it, so the readout at the opening DGX H100 rack agrees with the prose
    limit, power = out["params"]["air_rack_limit"], out["series"]["rack_power"][i]
    if abs(power / limit - 1.0) < 0.1:
        return "about at the practical limit (as estimated here)"
    return "within the practical limit" if power < limit else "beyond the practical limit"


EXPLORE = Panel(
    figure="airflow-vs-rack-power",
    title="Explore: rack power",
    sliders=(RACK,),
    readouts=(
        *[Readout(_airflow_label(k), "count", _airflow(k)) for k in range(3)],  # the catalogue's air_rise_sweep
        Readout("Air cooling", "text", _air_verdict),
    ),
    marks=probe_marks,
)
