"""What the building costs in energy, hour by hour, and what batch work gains by following clean power.

Two real hourly series for one place (models/datasets): PJM's 2022 generation
by fuel (EIA-930) and a typical year of outdoor temperature at Leesburg,
Loudoun County, Virginia (TMYx, NOAA ISD). Hour k of both is local standard time.

**Grid carbon intensity** (g CO₂ per kWh), hour by hour, is the generation-weighted
mean of per-fuel emission factors f_i (EIA, combustion CO₂, 2022):

    CI(t) = Σ_i G_i(t) f_i / Σ_i G_i(t)

**Facility power.** IT power P_IT(t) passes through the UPS (efficiency η_u) and
the distribution (transformers, PDUs, cabling: η_d), so the grid feeds
P_IT / (η_u η_d) to the IT path and the difference is lost as heat. Lighting and
offices draw a fixed P_misc = m × (IT capacity). All of it ends as heat
indoors, Q = P_IT / (η_u η_d) + P_misc, and cooling removes it:

    P_cool = Q × [ k_fan + (1 − φ(T)) / COP(T) ]

k_fan is fans and pumps per watt of heat. φ(T) is the share of the heat an
economiser rejects for free: 1 when the outdoor air is at least one approach
Δ below the chilled-water supply T_chw, 0 at or above T_chw, linear between.
The chiller carries the rest with a Carnot-fraction COP:

    COP(T) = ε × T_evap / (T_cond − T_evap),   T_evap = T_chw − Δ,   T_cond = T + Δ

(whenever the chiller runs, T > T_chw − Δ, so the lift T_cond − T_evap > Δ > 0).

    P_facility = P_IT / (η_u η_d) + P_misc + P_cool,    PUE(t) = P_facility / P_IT

The annual PUE is energy-weighted, Σ P_facility / Σ P_IT over the 8,760 hours,
not the mean of the hourly ratios (the mean weights a light hour like a heavy one).

**Shifting.** Non-deferrable work keeps a fixed share of the nodes busy. Deferrable
jobs (a number of nodes for a whole number of hours) are submitted during the
working day (seeded uniform arrivals). With a deadline slack s a job may start at
any hour in [arrival, arrival + s]; the free nodes cap how many jobs run in
one hour. P_facility is linear in P_IT, so a job's emissions are
Σ_hours p × a(t) × CI(t) with a(t) = ∂P_facility/∂P_IT. Each job, in turn,
moves to the feasible start that minimises them (repeated passes, bounded).
Its current start is always still feasible when it is reconsidered (the
nodes it frees are the ones it used), so no move raises emissions: shifting
never increases them, and with zero slack nothing moves.

Pure numpy, SI units (W, J, K, s); carbon intensity in g/kWh, emissions in kg.
"""

from __future__ import annotations

import numpy as np

from models import datasets
from models.exhibit import Column, Exhibit, Param, ParamError, Table, check, curves, model

HOUR = 3600.0
J_PER_KWH = 3.6e6
GWH = 3.6e12  # J
MAX_PASSES = 4  # local-search passes over the jobs; each pass can only lower emissions


# ---------------------------------------------------------------------------
# grid carbon intensity
# ---------------------------------------------------------------------------


def carbon_intensity(generation: dict[str, np.ndarray], factors: dict[str, float]) -> np.ndarray:
    """Generation-weighted CO₂ per kWh (g/kWh); fuels missing from `factors` count as zero."""
    total = sum(generation.values())
    emitted = sum(np.asarray(g) * factors.get(f, 0.0) for f, g in generation.items())
    return emitted / total


# ---------------------------------------------------------------------------
# the facility
# ---------------------------------------------------------------------------


def free_cooling_share(t_out, t_chw: float, approach: float) -> np.ndarray:
    """Share of the heat the economiser rejects without the chiller: 1 below T_chw − Δ, 0 above T_chw."""
    t = np.asarray(t_out, dtype=float)
    return np.clip((t_chw - t) / approach, 0.0, 1.0)


def chiller_cop(t_out, t_chw: float, approach: float, carnot_fraction: float) -> np.ndarray:
    """A Carnot-fraction chiller: ε T_evap / (T_cond − T_evap), lift floored at one approach."""
    t = np.asarray(t_out, dtype=float)
    t_evap = t_chw - approach
    lift = np.maximum(t + approach - t_evap, approach)
    return carnot_fraction * t_evap / lift


def facility_power(it_power, t_out, *, it_capacity: float, t_chw: float, approach: float,
                   carnot_fraction: float, fan_pump_share: float, ups_efficiency: float,
                   distribution_efficiency: float, misc_share: float) -> dict[str, np.ndarray]:
    """Every part of the facility's draw (W) for IT power `it_power` at outdoor temperature `t_out` (K)."""
    it = np.asarray(it_power, dtype=float)
    fed = it / (ups_efficiency * distribution_efficiency)
    misc = np.full_like(it, misc_share * it_capacity)
    heat = fed + misc
    phi = free_cooling_share(t_out, t_chw, approach)
    cop = chiller_cop(t_out, t_chw, approach, carnot_fraction)
    fans = heat * fan_pump_share
    chiller = heat * (1.0 - phi) / cop
    total = fed + misc + fans + chiller
    return {"it": it, "power_loss": fed - it, "misc": misc, "fans": fans, "chiller": chiller,
            "total": total, "free_share": phi, "cop": cop,
            # ∂total/∂it: what one more watt of IT costs the grid, this hour
            "marginal": (1.0 + fan_pump_share + (1.0 - phi) / cop) / (ups_efficiency * distribution_efficiency)}


# ---------------------------------------------------------------------------
# shifting deferrable jobs
# ---------------------------------------------------------------------------


def shift_jobs(weight, arrivals, duration: int, slack: int, nodes_per_job: int, free_nodes,
               passes: int = MAX_PASSES) -> np.ndarray:
    """Start hours that lower Σ weight over each job's hours, within its slack and the free nodes.

    `weight[t]` is the cost of running one job in hour t (any units); `arrivals`
    the submission hours, each job's earliest start; `free_nodes[t]` the nodes jobs may use.
    Starts at arrival must fit (the caller checks). Returns the start hours.
    """
    w = np.asarray(weight, dtype=float)
    hours = w.size
    arrivals = np.asarray(arrivals, dtype=int)
    start = arrivals.copy()
    used = np.zeros(hours, dtype=int)
    for s in start:
        used[s:s + duration] += nodes_per_job
    free = np.asarray(free_nodes)
    csum = np.concatenate([[0.0], np.cumsum(w)])
    offsets = np.arange(duration)
    # every job at its own cheapest start: optimal outright when that fits the free nodes
    latest_all = np.minimum(arrivals + slack, hours - duration)
    cand_all = arrivals[:, None] + np.arange(slack + 1)[None, :]
    cost_all = np.where(cand_all <= latest_all[:, None],
                        csum[np.minimum(cand_all, hours - duration) + duration]
                        - csum[np.minimum(cand_all, hours - duration)], np.inf)
    own_best = cand_all[np.arange(arrivals.size), np.argmin(cost_all, axis=1)]
    if np.all(job_profile(own_best, duration, hours) * nodes_per_job <= free):
        return own_best
    for _ in range(max(1, int(passes))):
        moved = False
        for j, a in enumerate(arrivals):
            latest = min(a + slack, hours - duration)
            cand = np.arange(a, latest + 1)
            used[start[j]:start[j] + duration] -= nodes_per_job
            fits = (used[cand[:, None] + offsets] + nodes_per_job <= free[cand[:, None] + offsets]).all(axis=1)
            cost = csum[cand + duration] - csum[cand]
            cost = np.where(fits, cost, np.inf)
            best = int(cand[int(np.argmin(cost))])
            if cost[best - a] < cost[start[j] - a] - 1e-12 * abs(cost[start[j] - a]):
                start[j], moved = best, True
            used[start[j]:start[j] + duration] += nodes_per_job
        if not moved:
            break
    return start


def job_profile(starts, duration: int, hours: int) -> np.ndarray:
    """Running jobs per hour."""
    step = np.zeros(hours + 1, dtype=int)
    starts = np.asarray(starts, dtype=int)
    np.add.at(step, starts, 1)
    np.add.at(step, starts + duration, -1)
    return np.cumsum(step)[:hours]


# ---------------------------------------------------------------------------
# the model
# ---------------------------------------------------------------------------


@model(
    gpus=Param.integer("count", "GPUs in the cluster"),
    gpus_per_node=Param.integer("count", "GPUs per node"),
    node_power=Param.positive("W", "power per node at full load"),
    busy_share=Param.fraction("share of nodes on work that cannot wait (training, serving)"),
    jobs_per_day=Param.integer("count", "deferrable jobs submitted per day", minimum=0, maximum=200),
    job_nodes=Param.integer("count", "nodes per deferrable job"),
    job_hours=Param.integer("count", "hours per deferrable job", maximum=24),
    submit_from=Param.integer("count", "first submission hour of the working day (local)", minimum=0, maximum=23),
    submit_to=Param.integer("count", "last submission hour of the working day (local)", minimum=0, maximum=23),
    slack=Param.integer("count", "deadline slack: hours a job may wait", minimum=0, maximum=72),
    slack_sweep=Param.numbers("count", "deadline slacks compared (hours)", minimum=0),
    chilled_water=Param.positive("K", "chilled-water supply temperature"),
    approach=Param.positive("K", "heat-exchanger approach temperature", maximum=20),
    carnot_fraction=Param.number("1", "chiller efficiency as a share of the Carnot limit", minimum=0.05,
                                 maximum=1.0),
    fan_pump_share=Param.fraction("fans and pumps per watt of heat removed"),
    ups_efficiency=Param.number("1", "UPS efficiency", minimum=0.5, maximum=1.0),
    distribution_efficiency=Param.number("1", "distribution efficiency (transformers, PDUs, cabling)",
                                         minimum=0.5, maximum=1.0),
    misc_share=Param.fraction("lighting and offices per watt of IT capacity"),
    co2_coal=Param.positive("1", "CO₂ per kWh from coal (g/kWh)"),
    co2_gas=Param.positive("1", "CO₂ per kWh from natural gas (g/kWh)"),
    co2_oil=Param.positive("1", "CO₂ per kWh from petroleum (g/kWh)"),
    google_pue=Param.number("1", "Google's fleet PUE, 2023", minimum=1.0),
    industry_pue=Param.number("1", "industry average PUE (Uptime Institute), 2023", minimum=1.0),
    seed=Param.integer("count", "random seed of the job arrivals", minimum=0),
)
def pue_carbon_shifting(gpus, gpus_per_node, node_power, busy_share, jobs_per_day, job_nodes, job_hours, submit_from,
                        submit_to, slack, slack_sweep, chilled_water, approach, carnot_fraction, fan_pump_share,
                        ups_efficiency, distribution_efficiency, misc_share, co2_coal, co2_gas, co2_oil,
                        google_pue, industry_pue, seed) -> Exhibit:
    if submit_to < submit_from:
        raise ParamError("submit_to", submit_to, f">= submit_from ({submit_from})")
    if any(not float(s).is_integer() for s in slack_sweep):
        raise ParamError("slack_sweep", slack_sweep, "whole numbers of hours")
    sweep = sorted({int(s) for s in slack_sweep} | {0, int(slack)})
    if max(sweep) > 72:
        raise ParamError("slack_sweep", slack_sweep, "slacks of at most 72 hours")

    # --- the data ---------------------------------------------------------------------
    gen = datasets.generation_by_fuel()
    factors = {"coal": co2_coal, "gas": co2_gas, "oil": co2_oil}
    ci = carbon_intensity(gen["fuels"], factors)  # g/kWh, local standard time
    t_out = datasets.dry_bulb()  # K
    hours = ci.size
    days = hours // 24

    # --- load -------------------------------------------------------------------------
    nodes = gpus // gpus_per_node
    busy = int(round(busy_share * nodes))
    free_nodes = nodes - busy
    if job_nodes > free_nodes:
        raise ParamError("job_nodes", job_nodes, f"<= the {free_nodes} nodes not on work that cannot wait")
    rng = np.random.default_rng(seed)
    arrivals = np.sort((np.arange(days)[:, None] * 24 + rng.integers(submit_from, submit_to + 1,
                                                                     size=(days, jobs_per_day))).ravel())
    arrivals = arrivals[arrivals <= hours - job_hours]
    capacity = nodes * node_power
    job_power = job_nodes * node_power
    facility = dict(it_capacity=capacity, t_chw=chilled_water, approach=approach, carnot_fraction=carnot_fraction,
                    fan_pump_share=fan_pump_share, ups_efficiency=ups_efficiency,
                    distribution_efficiency=distribution_efficiency, misc_share=misc_share)

    def it_power(starts):
        return busy * node_power + job_profile(starts, job_hours, hours) * job_power

    running0 = job_profile(arrivals, job_hours, hours)
    check(np.all(running0 * job_nodes <= free_nodes),
          "the jobs fit on the free nodes when each starts as soon as it is submitted")

    base = facility_power(it_power(arrivals), t_out, **facility)
    weight = base["marginal"] * ci  # g per kWh of IT energy added in hour t
    free = np.full(hours, free_nodes)

    def emissions_kg(parts):
        return float(np.sum(parts["total"] * HOUR / J_PER_KWH * ci) / 1e3)

    def job_emissions_kg(starts):
        csum = np.concatenate([[0.0], np.cumsum(weight)])
        per_job = csum[starts + job_hours] - csum[starts]
        return float(np.sum(per_job) * job_power * HOUR / J_PER_KWH / 1e3)

    runs = {}
    for s in sweep:
        starts = arrivals if s == 0 else shift_jobs(weight, arrivals, job_hours, s, job_nodes, free)
        parts = facility_power(it_power(starts), t_out, **facility)
        runs[s] = {"starts": starts, "parts": parts, "total_kg": emissions_kg(parts),
                   "jobs_kg": job_emissions_kg(starts)}
    base_run = runs[0]
    for r in runs.values():
        check(r["total_kg"] <= base_run["total_kg"] * (1 + 1e-12), "shifting never increases emissions")
        check(r["jobs_kg"] <= base_run["jobs_kg"] * (1 + 1e-12), "shifting never increases emissions")
        check(abs(r["parts"]["it"].sum() - base_run["parts"]["it"].sum()) <= 1e-9 * base_run["parts"]["it"].sum(),
              "shifting moves IT energy in time without changing it")
    check(runs[0]["jobs_kg"] == base_run["jobs_kg"], "with zero slack nothing moves and nothing is saved")
    chosen = runs[int(slack)]

    # --- PUE --------------------------------------------------------------------------
    p = chosen["parts"]
    e_it = float(p["it"].sum() * HOUR)
    e_fac = float(p["total"].sum() * HOUR)
    parts_j = {k: float(p[k].sum() * HOUR) for k in ("it", "power_loss", "misc", "fans", "chiller")}
    check(abs(sum(parts_j.values()) - e_fac) <= 1e-9 * e_fac,
          "IT, power losses, lighting, fans and chillers add up to the facility's energy")
    pue_hourly = p["total"] / p["it"]
    pue_annual = e_fac / e_it
    pue_mean = float(np.mean(pue_hourly))
    check(np.all(pue_hourly >= 1.0), "PUE is at least 1 in every hour")
    check(pue_annual < industry_pue, "below the industry average")
    check(pue_annual > google_pue, "above Google's fleet")
    free_hours = float(np.mean(base["free_share"] >= 1.0))
    chiller_hours = float(np.mean(base["free_share"] <= 0.0))
    daily_pue = pue_hourly.reshape(days, 24).mean(axis=1)
    summer, winter = int(np.argmax(daily_pue)), int(np.argmin(daily_pue))
    check(pue_hourly.max() > pue_hourly.min(), "PUE moves with the weather")

    # --- carbon -----------------------------------------------------------------------
    ci_day = ci.reshape(days, 24)
    diurnal = ci_day.mean(axis=0)
    swing = ci_day.max(axis=1) - ci_day.min(axis=1)
    jobs_saved = {s: 1 - r["jobs_kg"] / base_run["jobs_kg"] for s, r in runs.items()}
    total_saved = {s: 1 - r["total_kg"] / base_run["total_kg"] for s, r in runs.items()}
    check(jobs_saved[0] == 0.0, "with zero slack nothing moves and nothing is saved")
    check(all(jobs_saved[a] <= jobs_saved[b] + 1e-12 for a, b in zip(sweep, sweep[1:], strict=False)),
          "more slack never saves less")
    check(jobs_saved[int(slack)] < 0.5 * (ci.max() - ci.min()) / ci.mean(),
          "far less than the grid's full range would suggest")
    moved = int(np.sum(chosen["starts"] != arrivals))
    valley = int(np.argmin(diurnal))
    check(valley >= 22 or valley < 6, "on average the cleanest hours are at night")
    # the same year at the industry's average PUE: its extra overhead, in the same hours
    industry_extra_kg = float(np.sum((industry_pue - pue_annual) * p["it"] * HOUR / J_PER_KWH * ci) / 1e3)
    check(industry_extra_kg > base_run["jobs_kg"] - chosen["jobs_kg"],
          "the building's overhead outweighs what shifting saves")

    # --- the animation's day: the day with the median daily swing, shown from the first submission
    # hour to the same hour next day, so every job's slack window lies inside the 24 hours shown
    day = int(np.argsort(swing)[days // 2])
    day = min(day, days - 2)
    lo = day * 24 + submit_from
    hi = lo + 24
    in_day = (arrivals >= lo) & (arrivals < hi)
    day_jobs = arrivals[in_day] - lo
    day_starts = chosen["starts"][in_day] - lo
    check(np.all(day_starts + job_hours <= 24), "every job of the day shown finishes inside the 24 hours shown")
    day_cost = float(sum(np.sum(weight[lo + a: lo + a + job_hours]) for a in day_jobs))
    day_cost_shifted = float(sum(np.sum(weight[lo + s: lo + s + job_hours]) for s in day_starts))
    day_saved = 1 - day_cost_shifted / day_cost if day_cost else 0.0
    check(day_cost_shifted <= day_cost * (1 + 1e-12), "shifting never increases emissions")

    # --- sensitivity of the annual PUE to each assumption --------------------------------
    sens = []
    for label, key, lo_v, hi_v in (
        ("chilled-water supply", "t_chw", chilled_water - 5.0, chilled_water + 5.0),
        ("approach", "approach", max(approach - 2.0, 1.0), approach + 2.0),
        ("Carnot fraction", "carnot_fraction", max(carnot_fraction - 0.15, 0.05), min(carnot_fraction + 0.15, 1.0)),
        ("fans and pumps", "fan_pump_share", fan_pump_share / 2, fan_pump_share * 2),
        ("UPS efficiency", "ups_efficiency", ups_efficiency - 0.03, min(ups_efficiency + 0.02, 1.0)),
        ("distribution efficiency", "distribution_efficiency", distribution_efficiency - 0.02,
         min(distribution_efficiency + 0.01, 1.0)),
    ):
        out = []
        for v in (lo_v, hi_v):
            alt = facility_power(p["it"], t_out, **{**facility, key: v})
            out.append(float(alt["total"].sum() / p["it"].sum()))
        shown = (lambda v: f"{v - 273.15:.0f} °C") if key == "t_chw" else (
            (lambda v: f"{v:.0f} K") if key == "approach" else (lambda v: f"{v:.3g}"))
        sens.append({"assumption": label, "low_value": lo_v, "high_value": hi_v,
                     "low_shown": shown(lo_v), "high_shown": shown(hi_v),
                     "pue_low": out[0], "pue_high": out[1]})

    check(all(google_pue < r[k] < industry_pue for r in sens for k in ("pue_low", "pue_high")),
          "across these ranges the annual PUE stays between Google's fleet figure and the industry average")
    check(parts_j["power_loss"] + parts_j["fans"] > parts_j["chiller"],
          "the power chain and the fans then cost more than the chillers did")
    check(pue_annual <= pue_mean, "the mean of the ratios then reads too high")
    check(np.median(swing) < 0.25 * (ci.max() - ci.min()), "most of that range is between seasons and weeks")
    worst_hour = int(np.argmax(pue_hourly.reshape(days, 24).mean(axis=0)))
    check(12 <= worst_hour <= 19, "worst on hot afternoons")

    # --- output -----------------------------------------------------------------------
    months = np.cumsum([0, 31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31]) * 24
    spans = list(zip(months[:-1], months[1:], strict=True))
    monthly_pue = [float(p["total"][a:b].sum() / p["it"][a:b].sum()) for a, b in spans]
    monthly_ci = [float(ci[a:b].mean()) for a, b in spans]
    monthly_t = [float(t_out[a:b].mean() - 273.15) for a, b in spans]
    month_names = ("Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec")
    rows = [[m, t, pu, c] for m, t, pu, c in zip(month_names, monthly_t, monthly_pue, monthly_ci, strict=True)]
    table = Table("Month by month: mean outdoor temperature, energy-weighted PUE and mean grid carbon intensity",
                  [Column("month", "text"), Column("outdoor temperature (°C)", "1"), Column("PUE", "1"),
                   Column("carbon intensity (g CO₂/kWh)", "1")], rows)

    series = curves("day", np.arange(days) + 1,
                    pue_daily=daily_pue,
                    pue_daily_min=pue_hourly.reshape(days, 24).min(axis=1),
                    pue_daily_max=pue_hourly.reshape(days, 24).max(axis=1),
                    temperature_daily=t_out.reshape(days, 24).mean(axis=1) - 273.15,
                    ci_daily=ci_day.mean(axis=1))
    series.update(curves("hour", np.arange(24), ci_diurnal=diurnal,
                         ci_diurnal_p10=np.percentile(ci_day, 10, axis=0),
                         ci_diurnal_p90=np.percentile(ci_day, 90, axis=0)))
    series.update(curves("slack", np.array(sweep, dtype=float),
                         jobs_saved=np.array([jobs_saved[s] for s in sweep]),
                         total_saved=np.array([total_saved[s] for s in sweep])))
    temp_grid = np.linspace(-15.0, 40.0, 111) + 273.15
    curve = facility_power(np.full(temp_grid.size, float(p["it"].mean())), temp_grid, **facility)
    series.update(curves("temperature", temp_grid - 273.15, pue_at_temperature=curve["total"] / curve["it"]))

    summary = {
        "it_capacity_mw": capacity / 1e6,
        "node_power_kw": node_power / 1e3,
        "busy_nodes": busy,
        "free_nodes": free_nodes,
        "it_energy": e_it,
        "facility_energy": e_fac,
        "it_energy_gwh": e_it / GWH,
        "facility_energy_gwh": e_fac / GWH,
        "overhead_gwh": (e_fac - e_it) / GWH,
        "pue_annual": pue_annual,
        "pue_mean_hourly": pue_mean,
        "pue_min": float(pue_hourly.min()),
        "pue_max": float(pue_hourly.max()),
        "pue_best_day": float(daily_pue[winter]),
        "pue_worst_day": float(daily_pue[summer]),
        "overhead_vs_google": (pue_annual - 1) / (google_pue - 1),
        "overhead_vs_industry": (pue_annual - 1) / (industry_pue - 1),
        "share_power_loss": parts_j["power_loss"] / e_it,
        "share_misc": parts_j["misc"] / e_it,
        "share_fans": parts_j["fans"] / e_it,
        "share_chiller": parts_j["chiller"] / e_it,
        "free_cooling_hours": free_hours,
        "chiller_only_hours": chiller_hours,
        "free_cooling_below_c": chilled_water - approach - 273.15,
        "chilled_water_c": chilled_water - 273.15,
        "t_min_c": float(t_out.min() - 273.15),
        "t_max_c": float(t_out.max() - 273.15),
        "ci_mean": float(ci.mean()),
        "ci_min": float(ci.min()),
        "ci_max": float(ci.max()),
        "ci_swing_median": float(np.median(swing)),
        "ci_valley_hour": int(np.argmin(diurnal)),
        "ci_peak_hour": int(np.argmax(diurnal)),
        "ci_diurnal_low": float(diurnal.min()),
        "ci_diurnal_high": float(diurnal.max()),
        "filled_hours": gen["filled_hours"],
        "jobs": int(arrivals.size),
        "jobs_moved": moved,
        "jobs_energy_share": float(running0.sum() * job_power / p["it"].sum()),
        "emissions_total_t": base_run["total_kg"] / 1e3,
        "emissions_jobs_t": base_run["jobs_kg"] / 1e3,
        "saved_jobs": jobs_saved[int(slack)],
        "saved_jobs_t": (base_run["jobs_kg"] - chosen["jobs_kg"]) / 1e3,
        "saved_total": total_saved[int(slack)],
        "saved_jobs_max_slack": jobs_saved[max(sweep)],
        "max_slack": max(sweep),
    }
    animation = {
        "day": day + 1,
        "first_hour": int(submit_from),
        "ci": ci[lo:hi].tolist(),
        "arrivals": [int(a) for a in day_jobs],
        "starts": [int(s) for s in day_starts],
        "job_hours": int(job_hours),
        "slack": int(slack),
        "saved": day_saved,
        "valley_hour": int(np.argmin(ci[lo:hi])),  # hours after first_hour
        "pue_annual": pue_annual,
        "google_pue": google_pue,
        "industry_pue": industry_pue,
        "share_power_loss": parts_j["power_loss"] / e_it,
        "share_misc": parts_j["misc"] / e_it,
        "share_fans": parts_j["fans"] / e_it,
        "share_chiller": parts_j["chiller"] / e_it,
    }
    problems = {
        "no_chiller_pue": float((e_fac - parts_j["chiller"]) / e_it),
        "industry_extra_gwh": float((industry_pue - pue_annual) * e_it / GWH),
        "industry_extra_t": industry_extra_kg / 1e3,
        "industry_vs_shifting": industry_extra_kg / (base_run["jobs_kg"] - chosen["jobs_kg"]),
    }
    records = {
        "sensitivity": sens,
        "slack_sweep": [{"slack": s, "jobs_saved": jobs_saved[s], "total_saved": total_saved[s],
                         "jobs_t": runs[s]["jobs_kg"] / 1e3} for s in sweep],
    }
    return Exhibit(summary=summary, series=series, table=table, animation=animation, problems=problems,
                   records=records)
