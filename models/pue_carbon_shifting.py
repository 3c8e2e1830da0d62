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

That scheduler sees the hourly weights it is scored on: perfect foresight, an upper bound.
A scheduler that sees only the past uses a persistence forecast: each hour's weight is taken to be
the same hour's L days earlier, L the fewest whole days that put every hour of a job's window
(slack plus duration) before the job is submitted (one day at 12 h of slack and 4 h jobs). It
places the jobs on the forecast and is scored on the actual weights, so it can save less than
foresight, and can even raise a job's emissions.

**Grid or building.** The same scheduler run on CI(t) alone (a flat building) and on a(t) alone (a flat
grid, a pure energy saving) splits the saving; the chosen schedule scored on a(t) is the facility energy it
saves, which marginal intensity does not touch.

**Pausing the pre-training run.** The busy nodes are the pre-training run. Paused in each
local day's k dirtiest hours, its work costs the mean weight of the hours it runs in and takes
24/(24 − k) times as long; each pause costs a checkpoint write and a restart of the whole run.

**Another grid.** The same batch jobs run at CAISO (San Jose's weather) or on BPA's grid (Seattle's
weather; Seattle itself is served by Seattle City Light and Puget Sound Energy, not BPA), each first
moving one checkpoint over the WAN (whole hours of delay inside the same deadline; the transfer's
energy charged at PJM's intensity, at the 2015 figure and on its halving trend).
The pre-training run is also sited on each grid from the start. A joint scheduler lets each job pick
its grid and its start together, its transfer charged: each job's least cost over the rows.

Pure numpy, SI units (W, J, K, s); carbon intensity in g/kWh, emissions in kg.
"""

from __future__ import annotations

import datetime
import math

import numpy as np

from models import datasets, scenario_facts
from models.exhibit import Column, Exhibit, Param, ParamError, Table, check, curves, model
from models.lib.cooling import free_cooling_share
from models.lib.memo import pure
from models.units import ZERO_CELSIUS

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


def chiller_cop(t_out, t_chw: float, approach: float, carnot_fraction: float,
                condenser_approach: float | None = None) -> np.ndarray:
    """A Carnot-fraction chiller: ε T_evap / (T_cond − T_evap), lift floored at one approach.

    The condenser runs `condenser_approach` above the outdoor air (default: the same approach as every
    other heat exchanger); the page moves it alone to show what a warmer, air-cooled condenser costs."""
    t = np.asarray(t_out, dtype=float)
    t_evap = t_chw - approach
    cond = approach if condenser_approach is None else condenser_approach
    lift = np.maximum(t + cond - t_evap, approach)
    return carnot_fraction * t_evap / lift


def facility_power(it_power, t_out, *, it_capacity: float, t_chw: float, approach: float,
                   carnot_fraction: float, fan_pump_share: float, ups_efficiency: float,
                   distribution_efficiency: float, misc_share: float,
                   condenser_approach: float | None = None) -> dict[str, np.ndarray]:
    """Every part of the facility's draw (W) for IT power `it_power` at outdoor temperature `t_out` (K)."""
    it = np.asarray(it_power, dtype=float)
    fed = it / (ups_efficiency * distribution_efficiency)
    misc = np.full_like(it, misc_share * it_capacity)
    heat = fed + misc
    phi = free_cooling_share(t_out, t_chw, approach)
    cop = chiller_cop(t_out, t_chw, approach, carnot_fraction, condenser_approach)
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


@pure  # the range test and the Explore panel re-run the year at settings that leave a slack's schedule unchanged
def shift_jobs(weight, arrivals, duration: int, slack: int, nodes_per_job: int, free_nodes,
               passes: int = MAX_PASSES) -> np.ndarray:
    """Start hours that lower Σ weight over each job's hours, within its slack and the free nodes.

    `weight[t]` is the cost of running one job in hour t (any units); `arrivals`
    the submission hours, each job's earliest start; `free_nodes[t]` the nodes jobs may use.
    Starts at arrival must fit (the caller checks). Returns the start hours.
    """
    w = np.asarray(weight, dtype=float)
    arrivals = np.asarray(arrivals, dtype=int)
    free = np.asarray(free_nodes)
    # every job at its own cheapest start: optimal outright when that fits the free nodes
    own_best = own_best_starts(w, arrivals, duration, slack)
    if not node_limit_binds(own_best, duration, nodes_per_job, free):
        return own_best
    return local_search(w, arrivals, duration, slack, nodes_per_job, free, own_best, passes)


def local_search(w: np.ndarray, arrivals: np.ndarray, duration: int, slack: int, nodes_per_job: int,
                 free: np.ndarray, own_best: np.ndarray, passes: int) -> np.ndarray:
    """shift_jobs's passes: each job in turn moves to its cheapest start that fits beside the others.

    What does not change between passes is computed once for all jobs (each candidate start's cost, the
    hours it covers and the nodes free there), so a job's turn is a handful of array operations; the
    numbers compared are the ones a job-by-job evaluation gives, element for element."""
    hours = w.size
    csum = np.concatenate([[0.0], np.cumsum(w)])
    start = [int(a) for a in arrivals]
    used = np.zeros(hours, dtype=int)
    for s in start:
        used[s:s + duration] += nodes_per_job
    # a job at its own cheapest start, in a schedule that fits, has nothing better to move to (that start is
    # the first least cost among all its candidates and still fits): its turn is skipped, the outcome the same
    fits_now = bool(np.all(used <= free))
    best_alone = [int(b) for b in own_best]
    turns = [job_candidates(csum, free, int(a), min(int(a) + slack, hours - duration), duration, nodes_per_job)
             for a in arrivals]
    for _ in range(max(1, int(passes))):
        moved = False
        for j, (cost, hours_of, room) in enumerate(turns):
            s = start[j]
            if fits_now and s == best_alone[j]:
                continue
            a = int(arrivals[j])
            used[s:s + duration] -= nodes_per_job
            fits = (used[hours_of] <= room).all(axis=1)
            masked = np.where(fits, cost, np.inf)
            k = int(np.argmin(masked))
            best_cost, current = float(masked[k]), float(masked[s - a])
            # infinite only if the caller's schedule did not fit: then any fit is better
            if math.isfinite(best_cost) and (not math.isfinite(current)
                                             or best_cost < current - 1e-12 * abs(current)):
                start[j], moved = a + k, True
            used[start[j]:start[j] + duration] += nodes_per_job
        if not moved:
            break
    return np.array(start, dtype=int)


def job_candidates(csum: np.ndarray, free: np.ndarray, arrival: int, latest: int, duration: int,
                   nodes_per_job: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """One job's candidate starts, arrival to latest: each one's cost (Σ weight over its hours), the hours it
    covers (one row per start) and how many nodes the other jobs may use there for this one to fit."""
    cand = np.arange(arrival, latest + 1)
    hours_of = cand[:, None] + np.arange(duration)
    return csum[cand + duration] - csum[cand], hours_of, free[hours_of] - nodes_per_job


def persistence_forecast(weight, slack: int, duration: int, day: int = 24) -> tuple[np.ndarray, int]:
    """Each hour's weight as a scheduler without foresight sees it: the same hour's `lag` hours earlier.

    lag is the fewest whole days that put every hour a job may run in (its slack plus its duration, from
    its submission) before the submission: only hours already over are known. The year's first `lag`
    hours have no past in the data; they take the year's last, the nearest days of the season.
    Returns (forecast, lag in hours).
    """
    lag = day * max(1, -(-(int(slack) + int(duration)) // day))
    return np.roll(np.asarray(weight, dtype=float), lag), lag


def job_cost(weight, starts, duration: int) -> float:
    """Σ weight over every job's hours."""
    csum = np.concatenate([[0.0], np.cumsum(np.asarray(weight, dtype=float))])
    starts = np.asarray(starts, dtype=int)
    return float(np.sum(csum[starts + duration] - csum[starts]))


def own_best_starts(weight, arrivals, duration: int, slack: int) -> np.ndarray:
    """Each job's cheapest start within its slack, ignoring the other jobs (and so the node limit)."""
    w = np.asarray(weight, dtype=float)
    hours = w.size
    arrivals = np.asarray(arrivals, dtype=int)
    csum = np.concatenate([[0.0], np.cumsum(w)])
    latest_all = np.minimum(arrivals + slack, hours - duration)
    cand_all = arrivals[:, None] + np.arange(slack + 1)[None, :]
    cost_all = np.where(cand_all <= latest_all[:, None],
                        csum[np.minimum(cand_all, hours - duration) + duration]
                        - csum[np.minimum(cand_all, hours - duration)], np.inf)
    return cand_all[np.arange(arrivals.size), np.argmin(cost_all, axis=1)]


def node_limit_binds(starts, duration: int, nodes_per_job: int, free_nodes) -> bool:
    """True when the jobs at `starts` would need more nodes in some hour than are free."""
    free = np.asarray(free_nodes)
    return bool(np.any(job_profile(starts, duration, free.size) * nodes_per_job > free))


def job_profile(starts, duration: int, hours: int) -> np.ndarray:
    """Running jobs per hour."""
    step = np.zeros(hours + 1, dtype=int)
    starts = np.asarray(starts, dtype=int)
    np.add.at(step, starts, 1)
    np.add.at(step, starts + duration, -1)
    return np.cumsum(step)[:hours]


# ---------------------------------------------------------------------------
# the model's steps
# ---------------------------------------------------------------------------


def slack_values(submit_from: int, submit_to: int, slack: int, slack_sweep) -> list[int]:
    """The slacks compared (hours), always with zero and the chosen one; the parameters checked."""
    if submit_to < submit_from:
        raise ParamError("submit_to", submit_to, f">= submit_from ({submit_from})")
    if any(not float(s).is_integer() for s in slack_sweep):
        raise ParamError("slack_sweep", slack_sweep, "whole numbers of hours")
    sweep = sorted({int(s) for s in slack_sweep} | {0, int(slack)})
    if max(sweep) > 72:
        raise ParamError("slack_sweep", slack_sweep, "slacks of at most 72 hours")
    return sweep


def read_dataset(reader, name: str):
    """`reader(name)` (a models.datasets loader): the file's series, parsed once per contents. The range test and
    the Explore panels run the year hundreds of times, and parsing the CSVs cost more than the rest of a run; the
    key holds the file's sha256, so a changed file is read (and refused) afresh."""
    return _parsed(reader, name, datasets.sha256(name))


@pure
def _parsed(reader, name: str, sha256: str):  # sha256: the key's part for the file's contents
    return reader(name)


def the_year(co2_coal: float, co2_gas: float, co2_oil: float) -> dict:
    """The two real hourly series: grid carbon intensity (g/kWh) and outdoor temperature (K)."""
    gen = read_dataset(datasets.generation_by_fuel, datasets.GENERATION_FILE)
    factors = {"coal": co2_coal, "gas": co2_gas, "oil": co2_oil}
    ci = carbon_intensity(gen["fuels"], factors)  # g/kWh, local standard time
    return {"ci": ci, "t_out": read_dataset(datasets.dry_bulb, datasets.TEMPERATURE_FILE), "hours": ci.size,
            "days": ci.size // 24,
            "filled_hours": gen["filled_hours"]}


def arrival_hours(days: int, hours: int, jobs_per_day: int, job_hours: int, first: int, last: int,
                  seed: int) -> np.ndarray:
    """Each day's seeded submission hours, from `first` to `last` o'clock inclusive, sorted; the jobs that
    would run past the year's end are dropped."""
    rng = np.random.default_rng(seed)
    arrivals = np.sort((np.arange(days)[:, None] * 24 + rng.integers(first, last + 1,
                                                                     size=(days, jobs_per_day))).ravel())
    return arrivals[arrivals <= hours - job_hours]


def round_the_clock(year: dict, load: dict, weight: np.ndarray, slack: int, jobs_per_day: int, seed: int) -> dict:
    """The same jobs submitted at any hour of the day instead of in the working day: what shifting saves then.

    The submission window is a scenario choice that sets how far the jobs start from the night's clean, cool
    hours, so the page gives this row beside the model's. The weight does not depend on when the jobs run
    (the marginal a(t) is the weather's), so the model's own weight scores it. None if those arrivals, started
    as submitted, would not fit on the free nodes."""
    hours, job_hours, job_nodes = year["hours"], load["job_hours"], load["job_nodes"]
    arrivals = arrival_hours(year["days"], hours, jobs_per_day, job_hours, 0, 23, seed)
    if np.any(job_profile(arrivals, job_hours, hours) * job_nodes > load["free_nodes"]):
        return None
    free = np.full(hours, load["free_nodes"])
    before = job_cost(weight, arrivals, job_hours)
    starts = arrivals if slack == 0 else shift_jobs(weight, arrivals, job_hours, slack, job_nodes, free)
    forecast, _ = persistence_forecast(weight, slack, job_hours)
    fc = arrivals if slack == 0 else shift_jobs(forecast, arrivals, job_hours, slack, job_nodes, free)
    to_t = load["job_power"] * HOUR / J_PER_KWH / 1e6  # Σ weight (g per kWh of IT) -> t for the jobs' power
    return {"saved": 1 - job_cost(weight, starts, job_hours) / before,
            "saved_forecast": 1 - job_cost(weight, fc, job_hours) / before,
            "saved_t": (before - job_cost(weight, starts, job_hours)) * to_t, "jobs_t": before * to_t}


def the_load(year: dict, gpus: int, gpus_per_node: int, node_power: float, busy_share: float, jobs_per_day: int,
             job_share: float, job_hours: int, submit_from: int, submit_to: int, seed: int) -> dict:
    """The cluster's nodes, the pre-training run (the busy nodes) and the deferrable jobs' seeded arrival hours.

    A job's size is a share of the free nodes (whole nodes, at least one), so a smaller cluster runs
    smaller jobs and the jobs keep the same share of the IT energy in every scenario."""
    hours, days = year["hours"], year["days"]
    nodes = gpus // gpus_per_node
    busy = int(round(busy_share * nodes))
    if busy == 0:  # then the hours no job runs draw no IT power, and their PUE divides by zero
        raise ParamError("busy_share", busy_share, f"a share that keeps at least one of the {nodes} nodes busy")
    free_nodes = nodes - busy
    if free_nodes == 0:
        raise ParamError("busy_share", busy_share, f"a share that leaves some of the {nodes} nodes free for batch jobs")
    job_nodes = max(1, int(round(job_share * free_nodes)))
    arrivals = arrival_hours(days, hours, jobs_per_day, job_hours, submit_from, submit_to, seed)
    running = job_profile(arrivals, job_hours, hours)
    # the shifting starts from every job at its arrival: that schedule must fit, or there is nothing to improve on
    if np.any(running * job_nodes > free_nodes):
        raise ParamError("jobs_per_day", jobs_per_day,
                         f"few enough jobs of {job_nodes} nodes for {job_hours} h that those started as they are "
                         f"submitted fit on the {free_nodes} free nodes (at most {int(running.max())} run at once)")
    return {"nodes": nodes, "busy": busy, "free_nodes": free_nodes, "arrivals": arrivals,
            "capacity": nodes * node_power, "job_power": job_nodes * node_power, "node_power": node_power,
            "job_nodes": job_nodes, "job_hours": job_hours, "running": running}


def it_power(load: dict, starts, hours: int) -> np.ndarray:
    """IT power (W) each hour with the deferrable jobs starting at `starts`."""
    return load["busy"] * load["node_power"] + job_profile(starts, load["job_hours"], hours) * load["job_power"]


def shifting_runs(year: dict, load: dict, facility: dict, sweep: list[int]) -> tuple[dict, np.ndarray, dict]:
    """Every slack's starts, facility power and emissions; the marginal weight; the unshifted facility.

    Returns (runs by slack, weight[t] in g per kWh of IT energy added in hour t, the facility at arrival).
    """
    ci, t_out, hours = year["ci"], year["t_out"], year["hours"]
    arrivals, job_hours, job_nodes = load["arrivals"], load["job_hours"], load["job_nodes"]
    base = facility_power(it_power(load, arrivals, hours), t_out, **facility)
    weight = base["marginal"] * ci  # g per kWh of IT energy added in hour t
    free = np.full(hours, load["free_nodes"])

    def emissions_kg(parts):
        return float(np.sum(parts["total"] * HOUR / J_PER_KWH * ci) / 1e3)

    def job_emissions_kg(starts):
        csum = np.concatenate([[0.0], np.cumsum(weight)])
        per_job = csum[starts + job_hours] - csum[starts]
        return float(np.sum(per_job) * load["job_power"] * HOUR / J_PER_KWH / 1e3)

    runs = {}
    for s in sweep:
        starts = arrivals if s == 0 else shift_jobs(weight, arrivals, job_hours, s, job_nodes, free)
        parts = facility_power(it_power(load, starts, hours), t_out, **facility)
        binds = s > 0 and node_limit_binds(own_best_starts(weight, arrivals, job_hours, s), job_hours, job_nodes,
                                           free)
        # the same scheduler on a persistence forecast, scored on the actual hours
        forecast, lag = persistence_forecast(weight, s, job_hours)
        fc_starts = arrivals if s == 0 else shift_jobs(forecast, arrivals, job_hours, s, job_nodes, free)
        fc_parts = facility_power(it_power(load, fc_starts, hours), t_out, **facility)
        runs[s] = {"starts": starts, "parts": parts, "total_kg": emissions_kg(parts),
                   "jobs_kg": job_emissions_kg(starts), "limit_binds": binds,
                   "peak_nodes": int(job_profile(starts, job_hours, hours).max()) * job_nodes,
                   "forecast_starts": fc_starts, "forecast_lag_h": lag, "forecast_total_kg": emissions_kg(fc_parts),
                   "forecast_jobs_kg": job_emissions_kg(fc_starts)}
    check_shifting(runs)
    return runs, weight, base


def check_shifting(runs: dict) -> None:
    """The claims every run makes against the unshifted one (slack 0)."""
    base_run = runs[0]
    for r in runs.values():
        check(r["total_kg"] <= base_run["total_kg"] * (1 + 1e-12), "shifting never increases emissions")
        check(r["jobs_kg"] <= base_run["jobs_kg"] * (1 + 1e-12), "shifting never increases emissions")
        check(abs(r["parts"]["it"].sum() - base_run["parts"]["it"].sum()) <= 1e-9 * base_run["parts"]["it"].sum(),
              "shifting moves IT energy in time without changing it")
    check(runs[0]["jobs_kg"] == base_run["jobs_kg"], "with zero slack nothing moves and nothing is saved")
    # where every job gets its own cheapest start (the node limit does not bind) foresight is the optimum,
    # so no forecast can beat it; where the limit binds the passes are a heuristic and the page shows both
    check(all(r["forecast_jobs_kg"] >= r["jobs_kg"] * (1 - 1e-12) for r in runs.values() if not r["limit_binds"]),
          "perfect foresight is an upper bound")


def saving_split(year: dict, load: dict, base: dict, chosen: dict, slack: int) -> dict:
    """How much of the shifting's saving is the grid's and how much the building's.

    A job's weight is a(t) × CI(t): the building's facility W per IT W (cooler hours cost less) times the grid's
    intensity. The same scheduler is run on each factor alone, the other held flat, and scored on that factor:
    on CI alone (a building whose overhead never moves), on a(t) alone (a grid whose intensity never moves,
    a pure energy saving), and on both (the model). The chosen schedule's facility energy for the jobs is
    also scored on a(t): what it saves at the meter, whatever the grid's marginal plant."""
    arrivals, job_hours, job_nodes = load["arrivals"], load["job_hours"], load["job_nodes"]
    free = np.full(year["hours"], load["free_nodes"])
    a = base["marginal"]
    rows = []
    for name, w in (("both", a * year["ci"]), ("grid", year["ci"]), ("building", a)):
        before = job_cost(w, arrivals, job_hours)
        starts = arrivals if slack == 0 else shift_jobs(w, arrivals, job_hours, slack, job_nodes, free)
        forecast, _ = persistence_forecast(w, slack, job_hours)
        fc = arrivals if slack == 0 else shift_jobs(forecast, arrivals, job_hours, slack, job_nodes, free)
        rows.append({"follows": name, "saved": 1 - job_cost(w, starts, job_hours) / before,
                     "saved_forecast": 1 - job_cost(w, fc, job_hours) / before})
    energy_before = job_cost(a, arrivals, job_hours)
    out = {r["follows"]: r for r in rows}
    out["energy_saved"] = 1 - job_cost(a, chosen["starts"], job_hours) / energy_before
    out["energy_saved_forecast"] = 1 - job_cost(a, chosen["forecast_starts"], job_hours) / energy_before
    # the grid's part of the modelled schedule: its saving at a flat building, the rest the building's
    out["grid_saved_of_schedule"] = 1 - (job_cost(year["ci"], chosen["starts"], job_hours)
                                         / job_cost(year["ci"], arrivals, job_hours))
    if slack > 0:
        check(out["building"]["saved"] > 0 and out["energy_saved"] > 0 and out["energy_saved_forecast"] > 0,
              "part of following clean power is following cool nights, a real energy saving")
        check(out["grid"]["saved"] < out["both"]["saved"], "the grid alone saves less than grid and building together")
    return out


def annual_pue(p: dict, base: dict, days: int, google_pue: float, industry_pue: float) -> dict:
    """The year's energies (J), its energy-weighted PUE against the hourly mean, and the cooling hours."""
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
    daily_pue = pue_hourly.reshape(days, 24).mean(axis=1)
    check(pue_hourly.max() > pue_hourly.min(), "PUE moves with the weather")
    return {"e_it": e_it, "e_fac": e_fac, "parts_j": parts_j, "hourly": pue_hourly, "annual": pue_annual,
            "mean": pue_mean, "daily": daily_pue,
            "summer": int(np.argmax(daily_pue)), "winter": int(np.argmin(daily_pue)),
            "free_hours": float(np.mean(base["free_share"] >= 1.0)),
            "chiller_hours": float(np.mean(base["free_share"] <= 0.0))}


def carbon_savings(year: dict, runs: dict, sweep: list[int], slack: int, arrivals, pue: dict,
                   industry_pue: float) -> dict:
    """The grid's daily and diurnal shape, what each slack saves, and the industry PUE's extra CO₂."""
    ci, days = year["ci"], year["days"]
    base_run, chosen = runs[0], runs[int(slack)]
    ci_day = ci.reshape(days, 24)
    diurnal = ci_day.mean(axis=0)
    swing = ci_day.max(axis=1) - ci_day.min(axis=1)
    # no deferrable jobs emit nothing, so there is nothing to save
    jobs_saved = {s: 1 - r["jobs_kg"] / base_run["jobs_kg"] if base_run["jobs_kg"] else 0.0 for s, r in runs.items()}
    total_saved = {s: 1 - r["total_kg"] / base_run["total_kg"] for s, r in runs.items()}
    forecast_saved = {s: 1 - r["forecast_jobs_kg"] / base_run["jobs_kg"] if base_run["jobs_kg"] else 0.0
                      for s, r in runs.items()}
    forecast_total_saved = {s: 1 - r["forecast_total_kg"] / base_run["total_kg"] for s, r in runs.items()}
    check(jobs_saved[0] == 0.0, "with zero slack nothing moves and nothing is saved")
    check(all(jobs_saved[a] <= jobs_saved[b] + 1e-12 for a, b in zip(sweep, sweep[1:], strict=False)),
          "more slack never saves less")
    check(jobs_saved[int(slack)] > 0, "letting batch jobs wait for cleaner power cuts their emissions")
    check(jobs_saved[int(slack)] < 0.5 * (ci.max() - ci.min()) / ci.mean(),
          "far less than the grid's full range would suggest")
    moved = int(np.sum(chosen["starts"] != arrivals))
    valley = int(np.argmin(diurnal))
    check(valley >= 22 or valley < 6, "on average the cleanest hours are at night")
    # the same year at the industry's average PUE: its extra overhead, in the same hours
    p = chosen["parts"]
    industry_extra_kg = float(np.sum((industry_pue - pue["annual"]) * p["it"] * HOUR / J_PER_KWH * ci) / 1e3)
    check(industry_extra_kg > base_run["jobs_kg"] - chosen["jobs_kg"],
          "the building's overhead outweighs what shifting saves")
    return {"ci_day": ci_day, "diurnal": diurnal, "swing": swing, "jobs_saved": jobs_saved,
            "total_saved": total_saved, "moved": moved, "industry_extra_kg": industry_extra_kg,
            "forecast_saved": forecast_saved, "forecast_total_saved": forecast_total_saved,
            "forecast_moved": int(np.sum(chosen["forecast_starts"] != arrivals))}


def first_date() -> datetime.date:
    """The grid data's first local day: its first UTC hour's date (the local day starts five hours later,
    on the same date)."""
    return datetime.date.fromisoformat(read_dataset(first_utc_hour, datasets.GENERATION_FILE)[:10])


def first_utc_hour(name: str) -> str:
    """A generation file's first hour, as it is written (YYYY-MM-DDTHH, UTC)."""
    return datasets.verified_rows(name)[0][0]


def animation_day(year: dict, carbon: dict, weight: np.ndarray, arrivals, chosen_starts, submit_from: int,
                  job_hours: int) -> dict:
    """The day whose jobs save the median share of the year's days (jobs are submitted every day, weekends
    too), shown from the first submission hour to the same hour next day, so every job's slack window lies
    inside the 24 hours shown: its jobs before and after, and what it saves. The year's last day has no next
    day to show, so it is not a candidate; nor is a day with no jobs."""
    days = year["days"]
    csum = np.concatenate([[0.0], np.cumsum(np.asarray(weight, dtype=float))])
    per_day = np.full(days - 1, np.nan)
    for d in range(days - 1):
        lo_d = d * 24 + submit_from
        sel = (arrivals >= lo_d) & (arrivals < lo_d + 24)
        before = float(np.sum(csum[arrivals[sel] + job_hours] - csum[arrivals[sel]]))
        after = float(np.sum(csum[chosen_starts[sel] + job_hours] - csum[chosen_starts[sel]]))
        if before > 0:
            per_day[d] = 1 - after / before
    candidates = np.flatnonzero(np.isfinite(per_day))
    day = int(candidates[np.argsort(per_day[candidates], kind="stable")[candidates.size // 2]])
    lo = day * 24 + submit_from
    hi = lo + 24
    in_day = (arrivals >= lo) & (arrivals < hi)
    day_jobs = arrivals[in_day] - lo
    day_starts = chosen_starts[in_day] - lo
    check(np.all(day_starts + job_hours <= 24), "every job of the day shown finishes inside the 24 hours shown")
    day_cost = float(sum(np.sum(weight[lo + a: lo + a + job_hours]) for a in day_jobs))
    day_cost_shifted = float(sum(np.sum(weight[lo + s: lo + s + job_hours]) for s in day_starts))
    day_saved = 1 - day_cost_shifted / day_cost if day_cost else 0.0
    check(day_cost_shifted <= day_cost * (1 + 1e-12), "shifting never increases emissions")
    others = per_day[candidates]
    check(abs(day_saved - per_day[day]) <= 1e-9 and abs(int(np.sum(others < day_saved))
                                                         - int(np.sum(others > day_saved))) <= 1,
          "the day with the median saving")
    date = first_date() + datetime.timedelta(days=day)
    return {"day": day, "lo": lo, "hi": hi, "jobs": day_jobs, "starts": day_starts, "saved": day_saved,
            "date": date.strftime("%A %-d %B %Y"), "cost": weight[lo:hi],
            "saved_median": float(np.median(per_day[candidates])),
            "saved_p25": float(np.percentile(per_day[candidates], 25)),
            "saved_p75": float(np.percentile(per_day[candidates], 75))}


def sensitivity_ranges(chilled_water: float, approach: float, carnot_fraction: float, fan_pump_share: float,
                       ups_efficiency: float, distribution_efficiency: float) -> list[tuple[str, str, float, float]]:
    """(label, facility key, low, high): the range each assumption is varied over."""
    return [
        ("chilled-water supply", "t_chw", chilled_water - 5.0, chilled_water + 5.0),
        # the shared approach also sets the condenser unless the condenser row below overrides it
        ("approach (economiser and condenser)", "approach", max(approach - 2.0, 1.0), approach + 2.0),
        ("Carnot fraction", "carnot_fraction", max(carnot_fraction - 0.15, 0.05), min(carnot_fraction + 0.15, 1.0)),
        ("fans and pumps", "fan_pump_share", fan_pump_share / 2, fan_pump_share * 2),
        ("UPS efficiency", "ups_efficiency", ups_efficiency - 0.03, min(ups_efficiency + 0.02, 1.0)),
        ("distribution efficiency", "distribution_efficiency", distribution_efficiency - 0.02,
         min(distribution_efficiency + 0.01, 1.0)),
        # the condenser alone, from the scenario's approach (already the optimistic end for an air-cooled
        # condenser) to the warm end of the page's 10-15 K: it moves the headline more than most rows
        ("condenser approach (alone)", "condenser_approach", approach, max(15.0, approach)),
    ]


def shown_value(key: str, v: float) -> str:
    """An assumption's value as the page prints it."""
    if key == "t_chw":
        return f"{v - 273.15:.0f} °C"
    if key in ("approach", "condenser_approach"):
        return f"{v:.0f} K"
    return f"{v:.3g}"


def pue_sensitivity(p: dict, t_out, facility: dict, ranges) -> list[dict]:
    """The annual PUE at the low and high end of each assumption's range, the rest held."""
    sens = []
    for label, key, lo_v, hi_v in ranges:
        out = []
        for v in (lo_v, hi_v):
            alt = facility_power(p["it"], t_out, **{**facility, key: v})
            out.append(float(alt["total"].sum() / p["it"].sum()))
        sens.append({"assumption": label, "low_value": lo_v, "high_value": hi_v,
                     "low_shown": shown_value(key, lo_v), "high_shown": shown_value(key, hi_v),
                     "pue_low": out[0], "pue_high": out[1]})
    return sens


def pue_joint(p: dict, t_out, facility: dict, ranges, sens: list[dict]) -> dict:
    """The annual PUE with every assumption at once at the end of its range that lowers it (best) or
    raises it (worst): the one-at-a-time table's rows do not add up to this, the overheads compound."""
    best, worst = dict(facility), dict(facility)
    for (_, key, lo_v, hi_v), r in zip(ranges, sens, strict=True):
        low_is_better = r["pue_low"] <= r["pue_high"]
        best[key], worst[key] = (lo_v, hi_v) if low_is_better else (hi_v, lo_v)
    if "condenser_approach" in best and "approach" in best:
        # the condenser row starts at the scenario's approach, but the approach row already moves the
        # condenser with it: the most favourable mix takes the condenser at the lower of the two, the least
        # favourable at the higher
        best["condenser_approach"] = min(best["condenser_approach"], best["approach"])
        worst["condenser_approach"] = max(worst["condenser_approach"], worst["approach"])
    out = {}
    for name, f in (("pue_best", best), ("pue_worst", worst)):
        alt = facility_power(p["it"], t_out, **f)
        out[name] = float(alt["total"].sum() / p["it"].sum())
    check(out["pue_best"] <= min(min(r["pue_low"], r["pue_high"]) for r in sens) + 1e-12
          and out["pue_worst"] >= max(max(r["pue_low"], r["pue_high"]) for r in sens) - 1e-12,
          "all at once, the ends reach further than any one assumption moved alone")
    return out


def check_the_page(sens: list[dict], pue: dict, carbon: dict, ci, days: int, google_pue: float,
                   industry_pue: float) -> None:
    """The page's claims about the sensitivity, the overhead's parts and the grid's and weather's shape."""
    parts_j = pue["parts_j"]
    check(all(google_pue < r[k] < industry_pue for r in sens for k in ("pue_low", "pue_high")),
          "across these ranges the annual PUE stays between Google's fleet figure and the industry average")
    check(parts_j["power_loss"] + parts_j["fans"] > parts_j["chiller"],
          "the power chain and the fans then cost more than the chillers did")
    check(pue["annual"] <= pue["mean"], "the mean of the ratios then reads too high")
    check(np.median(carbon["swing"]) < 0.25 * (ci.max() - ci.min()), "most of that range is between seasons and weeks")
    worst_hour = int(np.argmax(pue["hourly"].reshape(days, 24).mean(axis=0)))
    check(12 <= worst_hour <= 19, "worst on hot afternoons")


MONTH_NAMES = ("Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec")


def monthly_table(p: dict, ci, t_out) -> Table:
    """Month by month: outdoor temperature, energy-weighted PUE and grid carbon intensity."""
    months = np.cumsum([0, 31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31]) * 24
    spans = list(zip(months[:-1], months[1:], strict=True))
    monthly_pue = [float(p["total"][a:b].sum() / p["it"][a:b].sum()) for a, b in spans]
    monthly_ci = [float(ci[a:b].mean()) for a, b in spans]
    monthly_t = [float(t_out[a:b].mean() - 273.15) for a, b in spans]
    rows = [[m, t, pu, c] for m, t, pu, c in zip(MONTH_NAMES, monthly_t, monthly_pue, monthly_ci, strict=True)]
    return Table("Month by month: mean outdoor temperature, energy-weighted PUE and mean grid carbon intensity",
                 [Column("month", "text"), Column("outdoor temperature", "°C"), Column("PUE", "1"),
                  Column("carbon intensity, CO₂", "g/kWh")], rows)


def figure_series(year: dict, pue: dict, carbon: dict, sweep: list[int], p: dict, facility: dict) -> dict:
    """The figures' curves: the year day by day, the average day, savings by slack, PUE by temperature."""
    days, t_out, ci_day = year["days"], year["t_out"], carbon["ci_day"]
    hourly = pue["hourly"]
    series = curves("day", np.arange(days) + 1,
                    pue_daily=pue["daily"],
                    pue_daily_min=hourly.reshape(days, 24).min(axis=1),
                    pue_daily_max=hourly.reshape(days, 24).max(axis=1),
                    temperature_daily=t_out.reshape(days, 24).mean(axis=1) - 273.15,
                    ci_daily=ci_day.mean(axis=1))
    series.update(curves("hour", np.arange(24), ci_diurnal=carbon["diurnal"],
                         ci_diurnal_p10=np.percentile(ci_day, 10, axis=0),
                         ci_diurnal_p90=np.percentile(ci_day, 90, axis=0)))
    series.update(curves("slack", np.array(sweep, dtype=float),
                         jobs_saved=np.array([carbon["jobs_saved"][s] for s in sweep]),
                         jobs_saved_forecast=np.array([carbon["forecast_saved"][s] for s in sweep]),
                         total_saved=np.array([carbon["total_saved"][s] for s in sweep])))
    temp_grid = np.linspace(-15.0, 40.0, 111) + 273.15
    curve = facility_power(np.full(temp_grid.size, float(p["it"].mean())), temp_grid, **facility)
    series.update(curves("temperature", temp_grid - 273.15, pue_at_temperature=curve["total"] / curve["it"]))
    return series


def overhead_shares(pue: dict) -> dict:
    """Each part of the overhead per unit of IT energy."""
    parts_j, e_it = pue["parts_j"], pue["e_it"]
    return {"share_power_loss": parts_j["power_loss"] / e_it, "share_misc": parts_j["misc"] / e_it,
            "share_fans": parts_j["fans"] / e_it, "share_chiller": parts_j["chiller"] / e_it}


def page_summary(year: dict, load: dict, pue: dict, carbon: dict, runs: dict, sweep: list[int], slack: int,
                 chilled_water: float, approach: float, google_pue: float, industry_pue: float) -> dict:
    """The numbers the page quotes."""
    ci, t_out = year["ci"], year["t_out"]
    e_it, e_fac, pue_annual, hourly, daily = pue["e_it"], pue["e_fac"], pue["annual"], pue["hourly"], pue["daily"]
    diurnal, swing = carbon["diurnal"], carbon["swing"]
    base_run, chosen = runs[0], runs[int(slack)]
    p = chosen["parts"]
    shares = overhead_shares(pue)
    return {
        "it_capacity_mw": load["capacity"] / 1e6,
        "node_power_kw": load["node_power"] / 1e3,
        "busy_nodes": load["busy"],
        "free_nodes": load["free_nodes"],
        "job_nodes": load["job_nodes"],
        "it_energy": e_it,
        "facility_energy": e_fac,
        "it_energy_gwh": e_it / GWH,
        "facility_energy_gwh": e_fac / GWH,
        "overhead_gwh": (e_fac - e_it) / GWH,
        "pue_annual": pue_annual,
        "pue_mean_hourly": pue["mean"],
        "pue_min": float(hourly.min()),
        "pue_max": float(hourly.max()),
        "pue_best_day": float(daily[pue["winter"]]),
        "pue_worst_day": float(daily[pue["summer"]]),
        "overhead_vs_google": (pue_annual - 1) / (google_pue - 1),
        "overhead_vs_industry": (pue_annual - 1) / (industry_pue - 1),
        **shares,
        "free_cooling_hours": pue["free_hours"],
        "chiller_only_hours": pue["chiller_hours"],
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
        "filled_hours": year["filled_hours"],
        "jobs": int(load["arrivals"].size),
        "jobs_moved": carbon["moved"],
        "jobs_energy_share": float(load["running"].sum() * load["job_power"] / p["it"].sum()),
        "emissions_total_t": base_run["total_kg"] / 1e3,
        "emissions_jobs_t": base_run["jobs_kg"] / 1e3,
        "saved_jobs": carbon["jobs_saved"][int(slack)],
        "saved_jobs_t": (base_run["jobs_kg"] - chosen["jobs_kg"]) / 1e3,
        "saved_total": carbon["total_saved"][int(slack)],
        # the same scheduler on a persistence forecast (the same hours `forecast_lag_days` earlier)
        "saved_jobs_forecast": carbon["forecast_saved"][int(slack)],
        "saved_jobs_forecast_t": (base_run["jobs_kg"] - chosen["forecast_jobs_kg"]) / 1e3,
        "saved_total_forecast": carbon["forecast_total_saved"][int(slack)],
        "forecast_share_of_foresight": (carbon["forecast_saved"][int(slack)] / carbon["jobs_saved"][int(slack)]
                                        if carbon["jobs_saved"][int(slack)] else None),
        "forecast_lag_days": chosen["forecast_lag_h"] // 24,
        "jobs_moved_forecast": carbon["forecast_moved"],
        "saved_jobs_forecast_max_slack": carbon["forecast_saved"][max(sweep)],
        "saved_jobs_forecast_best": max(carbon["forecast_saved"].values()),
        "saved_jobs_forecast_best_slack": max(sweep, key=lambda s_: carbon["forecast_saved"][s_]),
        "saved_jobs_max_slack": carbon["jobs_saved"][max(sweep)],
        "max_slack": max(sweep),
        "hours": int(year["hours"]),
        "max_passes": MAX_PASSES,
        # whether the free nodes stop a job taking its own cheapest start: at the scenario's slack, and the
        # first slack compared where they do (None: at none)
        "node_limit_binds": bool(chosen["limit_binds"]),
        "peak_job_nodes": chosen["peak_nodes"],
        "first_binding_slack": next((s for s in sweep if runs[s]["limit_binds"]), None),
    }


def animation_plan(year: dict, day: dict, pue: dict, submit_from: int, job_hours: int, slack: int,
                   google_pue: float, industry_pue: float) -> dict:
    """What the animation draws: the building's overhead, then the day shown and its jobs."""
    ci, lo, hi = year["ci"], day["lo"], day["hi"]
    return {
        "day": day["day"] + 1,
        "date": day["date"],
        "first_hour": int(submit_from),
        "ci": ci[lo:hi].tolist(),
        # what a job pays each hour, g CO₂ per kWh of IT energy: the grid's intensity times the building's
        # facility watts per added IT watt in that hour's weather (the scheduler's weight). The animation draws
        # this, not the grid alone: on a hot day a cooler night can be the cheaper hour at a higher intensity
        "cost": day["cost"].tolist(),
        "cost_valley_hour": int(np.argmin(day["cost"])),  # hours after first_hour
        "arrivals": [int(a) for a in day["jobs"]],
        "starts": [int(s) for s in day["starts"]],
        "job_hours": int(job_hours),
        "slack": int(slack),
        "saved": day["saved"],
        "saved_median": day["saved_median"],
        "valley_hour": int(np.argmin(ci[lo:hi])),  # hours after first_hour
        "pue_annual": pue["annual"],
        "google_pue": google_pue,
        "industry_pue": industry_pue,
        **overhead_shares(pue),
    }


def problems_numbers(pue: dict, carbon: dict, runs: dict, slack: int, industry_pue: float, google_pue: float,
                     ci) -> dict:
    """The worked problems' answers."""
    e_it, e_fac = pue["e_it"], pue["e_fac"]
    extra_kg = carbon["industry_extra_kg"]
    saved_kg = runs[0]["jobs_kg"] - runs[int(slack)]["jobs_kg"]
    it = runs[int(slack)]["parts"]["it"]
    google_extra_kg = float(np.sum((pue["annual"] - google_pue) * it * HOUR / J_PER_KWH * ci) / 1e3)
    return {
        "no_chiller_pue": float((e_fac - pue["parts_j"]["chiller"]) / e_it),
        "industry_extra_gwh": float((industry_pue - pue["annual"]) * e_it / GWH),
        "industry_extra_t": extra_kg / 1e3,
        # against a modern hyperscale fleet instead of a survey heavy with older facilities: this building's
        # extra overhead over Google's, in the same hours (a linear overhead, so the same form as above)
        "google_extra_t": google_extra_kg / 1e3,
        "google_vs_shifting": google_extra_kg / saved_kg if saved_kg > 0 else None,
        # None when shifting saves nothing: no multiple of nothing (the page's claim that it saves fails)
        "industry_vs_shifting": extra_kg / saved_kg if saved_kg > 0 else None,
        # the same if every watt of the site could shift and saved the batch jobs' share: the multiples above
        # scale as 1/(the jobs' share of the site's emissions), a scenario choice, so both are printed
        "industry_vs_all_shifting": (extra_kg / (carbon["jobs_saved"][int(slack)] * runs[0]["total_kg"])
                                     if saved_kg > 0 else None),
        "google_vs_all_shifting": (google_extra_kg / (carbon["jobs_saved"][int(slack)] * runs[0]["total_kg"])
                                   if saved_kg > 0 else None),
    }


# ---------------------------------------------------------------------------
# pausing the pre-training run, and moving the batch jobs to another grid
# ---------------------------------------------------------------------------


def pause_mask(weight, days: int, k: int) -> np.ndarray:
    """True in the hours the run pauses: each local day's k hours of highest weight."""
    w = np.asarray(weight, dtype=float).reshape(days, 24)
    paused = np.zeros_like(w, dtype=bool)
    if k > 0:
        top = np.argsort(w, axis=1, kind="stable")[:, 24 - k:]
        np.put_along_axis(paused, top, True, axis=1)
    return paused.ravel()


def pausing(weight, days: int, sweep: list[int], run_power: float, run_gpus: int, overhead_per_pause: float,
            idle_share: float = 0.0, marginal=None) -> dict:
    """The pre-training run paused in each day's k dirtiest hours, for each k in `sweep`.

    The run's work is fixed: one year of it at full power. Paused, it runs only in the other hours, so its
    emissions per unit of work are the mean weight of the hours it runs in, and it takes 24/(24 − k) times
    as long. Every pause costs one checkpoint write before it and one restart after it
    (`overhead_per_pause`, s of the whole run at full power), charged at the mean weight of its running
    hours. A paused node stays powered on and draws `idle_share` of its busy power: over the stretched run
    there are k/(24 − k) paused hours per running hour, at the mean weight w_p of the paused hours, so
    per running hour the run is charged

        w_eff = w_run + s · w_p · k/(24 − k)

    and saved(s) = 1 − (1 + o) w_eff / w̄ (o: the overhead's share of the run's hours), which falls linearly
    in s with slope (1 + o) · k/(24 − k) · w_p/w̄: not saved(0)·(1 − s), since a paused hour's draw is
    charged at the dirty hours' weight. `marginal` (facility W per IT W, hourly) gives the same for the
    facility's energy, and so for the electricity bill at a flat price.
    """
    w = np.asarray(weight, dtype=float)
    hours = w.size
    a = None if marginal is None else np.asarray(marginal, dtype=float)
    out = []
    for k in sweep:
        paused = pause_mask(w, days, k)
        blocks = int(np.sum(paused & ~np.roll(paused, 1))) if k else 0
        stretch = 24.0 / (24 - k)  # wall time per unit of work
        idle_per_run_hour = idle_share * k / (24 - k)  # paused hours (at s of full power) per running hour
        w_run = float(w[~paused].mean())
        w_pause = float(w[paused].mean()) if k else 0.0
        w_eff = w_run + idle_per_run_hour * w_pause
        overhead_h = blocks * stretch * overhead_per_pause / HOUR  # hours of the whole run, per year of work
        base_kg = float(w.mean() * hours * run_power / 1e3 / 1e3)  # g/kWh × kWh → kg
        kg = float(w_eff * (hours + overhead_h) * run_power / 1e3 / 1e3)
        extra_wall = stretch * (1 + overhead_h / hours) - 1
        # the cost per pause (checkpoint and restart, s) at which pausing k hours neither saves nor costs CO₂;
        # negative when the paused nodes' idle draw alone costs more than the dirty hours' excess
        break_even = ((float(w.mean()) / w_eff - 1) * hours * HOUR / (blocks * stretch)) if blocks else None
        # the idle share at which free pauses neither save nor cost CO₂: w_run + s* w_p k/(24 − k) = w̄
        break_even_idle = ((float(w.mean()) - w_run) / (w_pause * k / (24 - k))) if k else None
        row = {"pause_hours": int(k), "blocks_per_day": blocks / days, "saved": 1 - kg / base_kg,
               "break_even_overhead": break_even, "break_even_idle_share": break_even_idle,
               "saved_free_pauses": 1 - w_eff / float(w.mean()),
               "saved_t": (base_kg - kg) / 1e3, "run_t": kg / 1e3, "extra_wall": extra_wall,
               "gpu_hours_per_t": extra_wall * hours * run_gpus / ((base_kg - kg) / 1e3)
               if kg < base_kg else None}
        if a is not None:
            # the facility's energy for the same work, in the same hours: the bill's change at a flat price
            a_eff = float(a[~paused].mean()) + idle_per_run_hour * (float(a[paused].mean()) if k else 0.0)
            row["energy_change"] = a_eff * (hours + overhead_h) / (float(a.mean()) * hours) - 1
        out.append(row)
    check(out[0]["saved"] == 0.0 and out[0]["extra_wall"] == 0.0, "without pauses nothing is saved or lost")
    check(all(a["extra_wall"] < b["extra_wall"] for a, b in zip(out, out[1:], strict=False)),
          "every extra paused hour stretches the run")
    return {"rows": out, "base_t": out[0]["run_t"]}


SITES = (  # (place, grid, generation file, temperature file); the first is home, where the data lives
    ("Loudoun County, Virginia", "PJM", datasets.GENERATION_FILE, datasets.TEMPERATURE_FILE),
    ("San Jose, California", "CAISO", datasets.CAISO_GENERATION_FILE, datasets.SAN_JOSE_TEMPERATURE_FILE),
    # Seattle's weather but not its grid: Seattle is served by Seattle City Light and Puget Sound Energy (their
    # own balancing authorities in EIA-930), so the site is named by BPA's grid, the weather said to be Seattle's
    ("a site on BPA's grid (Seattle's weather)", "BPA", datasets.BPA_GENERATION_FILE,
     datasets.SEATTLE_TEMPERATURE_FILE),
)


def site_years(year: dict, factors: dict) -> list[dict]:
    """Each site's hourly carbon intensity (g/kWh) and outdoor temperature (K), all on Leesburg's clock;
    home is `year`, already loaded."""
    out = [{"place": SITES[0][0], "grid": SITES[0][1], "ci": year["ci"], "t_out": year["t_out"]}]
    for place, grid, gen_file, temp_file in SITES[1:]:
        gen = read_dataset(datasets.generation_by_fuel, gen_file)
        out.append({"place": place, "grid": grid, "ci": carbon_intensity(gen["fuels"], factors),
                    "t_out": read_dataset(datasets.dry_bulb, temp_file)})
    return out


def moving_sites(sites: list[dict], load: dict, facility: dict, slack: int, move_bytes: float,
                 wan_bandwidth: float, transfer_energy: float, weights_bytes: float,
                 transfer_energy_trend: float) -> dict:
    """The batch jobs run at each site in turn, with the same arrivals, slack and free nodes.

    A job sent away first moves its data (`move_bytes` over `wan_bandwidth`, whole hours), so it starts
    that much later, and the transfer's energy (`transfer_energy` J/B) is charged at the home grid's
    intensity in its arrival hour. Its deadline does not move: a move longer than the slack makes it late.
    `move_bytes` is the worst case (a full checkpoint); each row also gives the saving with only
    `weights_bytes` carried (same delay, to keep one schedule) and with no transfer at all, and the full
    checkpoint at `transfer_energy_trend` (the same J/B carried forward on its source's trend).
    """
    hours = sites[0]["ci"].size
    arrivals, job_hours, job_nodes = load["arrivals"], load["job_hours"], load["job_nodes"]
    free = np.full(hours, load["free_nodes"])
    delay = int(np.ceil(move_bytes / wan_bandwidth / HOUR))
    kwh_per_job_hour = load["job_power"] * HOUR / J_PER_KWH
    home_ci = sites[0]["ci"]
    rows, weights = [], []
    for i, site in enumerate(sites):
        marginal = facility_power(np.ones(hours), site["t_out"], **facility)["marginal"]
        weight = marginal * site["ci"]
        weights.append(weight)
        d = 0 if i == 0 else delay
        earliest = np.minimum(arrivals + d, hours - job_hours)
        window = max(int(slack) - d, 0)
        starts = earliest if window == 0 else shift_jobs(weight, earliest, job_hours, window, job_nodes, free)
        csum = np.concatenate([[0.0], np.cumsum(weight)])
        run_kg = float(np.sum(csum[starts + job_hours] - csum[starts]) * kwh_per_job_hour / 1e3)
        # the same jobs placed on a persistence forecast of this grid (known when each job is submitted at
        # home: the window still ends slack + duration after submission), scored on the actual hours
        forecast, _ = persistence_forecast(weight, slack, job_hours)
        fc_starts = earliest if window == 0 else shift_jobs(forecast, earliest, job_hours, window, job_nodes, free)
        fc_kg = job_cost(weight, fc_starts, job_hours) * kwh_per_job_hour / 1e3
        # foresight is the optimum when every job can take its own cheapest start
        foresight_optimal = window == 0 or not node_limit_binds(own_best_starts(weight, earliest, job_hours, window),
                                                               job_hours, job_nodes, free)
        check(not foresight_optimal or fc_kg >= run_kg * (1 - 1e-12), "perfect foresight is an upper bound")
        unshifted_kg = float(np.sum(csum[earliest + job_hours] - csum[earliest]) * kwh_per_job_hour / 1e3)
        transfer_kg = 0.0 if i == 0 else float(np.sum(home_ci[arrivals]) * move_bytes * transfer_energy
                                                 / J_PER_KWH / 1e3)
        msum = np.concatenate([[0.0], np.cumsum(marginal)])
        job_marginal = float(np.mean(msum[starts + job_hours] - msum[starts]) / job_hours)
        rows.append({"place": site["place"], "grid": site["grid"], "ci_mean": float(site["ci"].mean()),
                     "ci_swing_median": float(np.median(np.ptp(site["ci"].reshape(-1, 24), axis=1))),
                     "t_mean_c": float(site["t_out"].mean() - ZERO_CELSIUS), "facility_per_it": job_marginal,
                     "delay_h": d, "late": d > int(slack), "unshifted_t": unshifted_kg / 1e3,
                     "shifted_t": run_kg / 1e3, "transfer_t": transfer_kg / 1e3,
                     "shifted_forecast_t": fc_kg / 1e3, "foresight_optimal": bool(foresight_optimal),
                     "temporal_saved": 1 - run_kg / unshifted_kg if unshifted_kg else 0.0,
                     "temporal_saved_forecast": 1 - fc_kg / unshifted_kg if unshifted_kg else 0.0,
                     "total_t": (run_kg + transfer_kg) / 1e3})
    home = rows[0]["unshifted_t"]
    for r in rows:
        r["transfer_weights_t"] = r["transfer_t"] * weights_bytes / move_bytes
        # the transfer's CO₂ is proportional to the energy per byte
        r["transfer_trend_t"] = r["transfer_t"] * transfer_energy_trend / transfer_energy
        if home == 0:  # no batch jobs: nothing emitted, nothing to save
            r["saved"] = r["saved_weights_only"] = r["saved_no_transfer"] = r["saved_trend"] = 0.0
            r["saved_forecast"] = 0.0
            continue
        r["saved_trend"] = 1 - (r["shifted_t"] + r["transfer_trend_t"]) / home
        r["saved"] = 1 - r["total_t"] / home
        # the range around that worst case: only the weights carried, or nothing (data already there)
        r["saved_weights_only"] = 1 - (r["shifted_t"] + r["transfer_weights_t"]) / home
        r["saved_no_transfer"] = 1 - r["shifted_t"] / home
        r["saved_forecast"] = 1 - (r["shifted_forecast_t"] + r["transfer_t"]) / home
    # the greenest grid: the least CO₂ for the jobs once there, whatever moving the data costs
    best = min(range(len(rows)), key=lambda j: rows[j]["shifted_t"])
    green = rows[best]
    # the data per job at which sending the jobs to the greenest site stops paying (home, shifted, as the
    # alternative); transfer emissions grow in proportion to the bytes
    per_byte_t = green["transfer_t"] / move_bytes if best else 0.0
    break_even = (rows[0]["shifted_t"] - green["shifted_t"]) / per_byte_t if per_byte_t > 0 else None
    return {"rows": rows, "best": best, "delay_h": delay, "break_even_bytes": break_even, "weights": weights,
            "worst_case_pays": bool(best and green["total_t"] < rows[0]["shifted_t"])}


def joint_sites(moving: dict, sites: list[dict], load: dict, slack: int, move_bytes: float,
                transfer_energy: float) -> dict:
    """Each batch job picks its grid and its start together: at every site its cheapest start within the
    slack (less the transfer's delay away from home), plus, away from home, its transfer (charged as in
    `moving_sites`); it takes the site where that sum is least. With foresight, like the rows it draws on.

    Each site keeps its own free nodes. When every job's own cheapest start fits at every site (the node
    limit does not bind on the whole set of jobs there), it fits for any subset of them, so the choice is
    the optimum of this cost model and can be no worse than any single site's row; `limit_binds` says
    when that does not hold (the rows' local search is then the fallback, and the choice only a bound).
    """
    hours = sites[0]["ci"].size
    arrivals, job_hours, job_nodes = load["arrivals"], load["job_hours"], load["job_nodes"]
    free = np.full(hours, load["free_nodes"])
    kwh_per_job_hour = load["job_power"] * HOUR / J_PER_KWH
    home_ci = sites[0]["ci"]
    cost, binds = [], False
    for i, weight in enumerate(moving["weights"]):
        d = 0 if i == 0 else moving["delay_h"]
        earliest = np.minimum(arrivals + d, hours - job_hours)
        starts = own_best_starts(weight, earliest, job_hours, max(int(slack) - d, 0))
        binds = binds or node_limit_binds(starts, job_hours, job_nodes, free)
        csum = np.concatenate([[0.0], np.cumsum(weight)])
        run_kg = (csum[starts + job_hours] - csum[starts]) * kwh_per_job_hour / 1e3
        transfer_kg = 0.0 if i == 0 else home_ci[arrivals] * move_bytes * transfer_energy / J_PER_KWH / 1e3
        cost.append(run_kg + transfer_kg)
    cost = np.array(cost)  # site × job, kg
    choice = np.argmin(cost, axis=0)
    total_t = float(cost[choice, np.arange(choice.size)].sum() / 1e3)
    rows = moving["rows"]
    home = rows[0]["unshifted_t"]
    if not binds:
        check(all(total_t <= r["total_t"] * (1 + 1e-12) for r in rows),
              "picking grid and hour together, job by job, is never worse than any one grid")
    return {"total_t": total_t, "saved": 1 - total_t / home if home else 0.0, "limit_binds": bool(binds),
            "jobs_by_grid": [{"grid": r["grid"], "jobs": int(np.sum(choice == i))} for i, r in enumerate(rows)],
            "gain_over_best_row": min(r["total_t"] for r in rows) - total_t}


# ---------------------------------------------------------------------------
# the model
# ---------------------------------------------------------------------------


@model(
    gpus=Param.integer("count", "GPUs in the cluster"),
    gpus_per_node=Param.integer("count", "GPUs per node"),
    node_power=Param.positive("W", "power per node at full load"),
    busy_share=Param.fraction("share of nodes on the pre-training run, which cannot wait for batch slack"),
    jobs_per_day=Param.integer("count", "deferrable jobs submitted per day", minimum=1, maximum=200),
    job_share=Param.fraction("share of the free nodes each deferrable job uses (whole nodes, at least one)"),
    job_hours=Param.integer("count", "hours per deferrable job", maximum=24),
    submit_from=Param.integer("count", "first submission hour of the working day (local)", minimum=0, maximum=23),
    submit_to=Param.integer("count", "last submission hour of the working day (local)", minimum=0, maximum=23),
    slack=Param.integer("count", "deadline slack: hours a job may wait", minimum=0, maximum=72),
    slack_sweep=Param.numbers("count", "deadline slacks compared (hours)", minimum=0),
    chilled_water=Param.positive("°C", "chilled-water supply temperature"),
    approach=Param.positive("K", "heat-exchanger approach temperature", maximum=20),
    carnot_fraction=Param.number("1", "chiller efficiency as a share of the Carnot limit", minimum=0.05,
                                 maximum=1.0),
    fan_pump_share=Param.fraction("fans and pumps per watt of heat removed"),
    ups_efficiency=Param.number("1", "UPS efficiency", minimum=0.5, maximum=1.0),
    distribution_efficiency=Param.number("1", "distribution efficiency (transformers, PDUs, cabling)",
                                         minimum=0.5, maximum=1.0),
    misc_share=Param.fraction("lighting and offices per watt of IT capacity"),
    co2_coal=Param.positive("g/kWh", "CO₂ per kWh from coal"),
    co2_gas=Param.positive("g/kWh", "CO₂ per kWh from natural gas"),
    co2_oil=Param.positive("g/kWh", "CO₂ per kWh from petroleum"),
    # above 1: a PUE of 1 is a building with no overhead at all, which no fleet reports (the UPS alone
    # loses some); the page compares overheads, a ratio to nothing
    google_pue=Param.number("1", "Google's fleet PUE, 2023", above=1.0),
    industry_pue=Param.number("1", "industry average PUE (Uptime Institute), 2023", above=1.0),
    pause_hours=Param.integer("count", "dirtiest hours a day the pre-training run pauses", minimum=0, maximum=12),
    pause_sweep=Param.numbers("count", "daily pause hours compared", minimum=0),
    model_params=Param.positive("count", "parameters of the pre-trained model"),
    weight_bytes=Param.positive("B", "bytes per parameter for the weights"),
    optimizer_bytes=Param.positive("B", "bytes per parameter for the optimizer state"),
    checkpoint_bandwidth=Param.positive("B/s", "storage write rate for a checkpoint"),
    restart_cost=Param.positive("s", "restart time after a pause"),
    paused_share=Param.fraction("a paused node's draw as a share of its busy draw (powered on, idle)"),
    paused_share_sweep=Param.numbers("1", "paused nodes' draw compared, as shares of busy draw", minimum=0),
    restart_sweep=Param.numbers("s", "restart times compared", minimum=0),
    wan_bandwidth=Param.positive("B/s", "wide-area bandwidth between the sites"),
    transfer_energy=Param.positive("J/B", "network energy per byte moved between sites"),
    transfer_halving_years=Param.positive("1", "years over which the network energy per byte halves"),
    transfer_trend_years=Param.number("1", "years the per-byte energy is carried forward on its trend",
                                      minimum=0, maximum=30),
    seed=Param.integer("count", "random seed of the job arrivals", minimum=0),
)
def pue_carbon_shifting(gpus, gpus_per_node, node_power, busy_share, jobs_per_day, job_share, job_hours, submit_from,
                        submit_to, slack, slack_sweep, chilled_water, approach, carnot_fraction, fan_pump_share,
                        ups_efficiency, distribution_efficiency, misc_share, co2_coal, co2_gas, co2_oil,
                        google_pue, industry_pue, pause_hours, pause_sweep, model_params, weight_bytes,
                        optimizer_bytes, checkpoint_bandwidth, restart_cost, paused_share, paused_share_sweep,
                        restart_sweep, wan_bandwidth,
                        transfer_energy, transfer_halving_years, transfer_trend_years,
                        seed) -> Exhibit:
    chilled_water = chilled_water + ZERO_CELSIUS  # declared in °C, as plants quote it; the model works in K
    sweep = slack_values(submit_from, submit_to, slack, slack_sweep)
    year = the_year(co2_coal, co2_gas, co2_oil)
    load = the_load(year, gpus, gpus_per_node, node_power, busy_share, jobs_per_day, job_share, job_hours,
                    submit_from, submit_to, seed)
    facility = dict(it_capacity=load["capacity"], t_chw=chilled_water, approach=approach,
                    carnot_fraction=carnot_fraction, fan_pump_share=fan_pump_share, ups_efficiency=ups_efficiency,
                    distribution_efficiency=distribution_efficiency, misc_share=misc_share)
    runs, weight, base = shifting_runs(year, load, facility, sweep)
    chosen = runs[int(slack)]
    p = chosen["parts"]
    pue = annual_pue(p, base, year["days"], google_pue, industry_pue)
    carbon = carbon_savings(year, runs, sweep, slack, load["arrivals"], pue, industry_pue)
    day = animation_day(year, carbon, weight, load["arrivals"], chosen["starts"], submit_from, job_hours)
    split = saving_split(year, load, base, chosen, int(slack))
    around = round_the_clock(year, load, weight, int(slack), jobs_per_day, seed)
    check(abs(split["both"]["saved"] - carbon["jobs_saved"][int(slack)]) <= 1e-9
          and abs(split["both"]["saved_forecast"] - carbon["forecast_saved"][int(slack)]) <= 1e-9,
          "the split's first row is the model's own schedule")
    # free nodes drawing the paused nodes' idle share while no batch job runs on them (the model gives them 0 W)
    idle_nodes = load["free_nodes"] - job_profile(chosen["starts"], job_hours, year["hours"]) * load["job_nodes"]
    free_idle_t = float(np.sum(idle_nodes * node_power * paused_share * weight) * HOUR / J_PER_KWH / 1e6)
    # the chiller's condenser at an air-cooled plant's warmer approach, everything else held
    condenser_pue = {c: float(facility_power(p["it"], year["t_out"], **facility, condenser_approach=c)["total"].sum()
                              / p["it"].sum()) for c in (approach, 10.0, 15.0)}
    check(all(a_ < b_ for a_, b_ in zip(list(condenser_pue.values()), list(condenser_pue.values())[1:], strict=False))
          or approach >= 10.0, "a warmer condenser raises the annual PUE")
    ranges = sensitivity_ranges(chilled_water, approach, carnot_fraction, fan_pump_share, ups_efficiency,
                                distribution_efficiency)
    sens = pue_sensitivity(p, year["t_out"], facility, ranges)
    joint = pue_joint(p, year["t_out"], facility, ranges, sens)
    check_the_page(sens, pue, carbon, year["ci"], year["days"], google_pue, industry_pue)
    # the pre-training run (the busy nodes) pausing in each day's dirtiest hours; a pause costs one
    # checkpoint write (daly-checkpoint's δ, one value: models/scenario_facts.py) and one restart
    if any(not float(k).is_integer() or not 0 <= k <= 12 for k in pause_sweep):
        raise ParamError("pause_sweep", pause_sweep, "whole numbers of hours from 0 to 12")
    state = scenario_facts.checkpoint_state(model_params, weight_bytes, optimizer_bytes, gpus)
    checkpoint_write = state["checkpoint_bytes"] / checkpoint_bandwidth
    pauses = sorted({int(k) for k in pause_sweep} | {0, int(pause_hours)})
    run_power, run_gpus = load["busy"] * node_power, load["busy"] * gpus_per_node
    # paused nodes stay powered on and draw paused_share of their busy power (an assumption, swept below)
    pause = pausing(weight, year["days"], pauses, run_power, run_gpus, checkpoint_write + restart_cost,
                    paused_share, base["marginal"])
    # the batch jobs sent to another grid, each carrying one checkpoint of the run (a worst case)
    factors = {"coal": co2_coal, "gas": co2_gas, "oil": co2_oil}
    sites = site_years(year, factors)
    # the 2015 figure is the bound; on its own paper's halving trend it would be this much lower by 2022
    transfer_energy_trend = transfer_energy * 0.5 ** (transfer_trend_years / transfer_halving_years)
    moving = moving_sites(sites, load, facility, slack, state["checkpoint_bytes"], wan_bandwidth, transfer_energy,
                          model_params * weight_bytes, transfer_energy_trend)
    joint_choice = joint_sites(moving, sites, load, slack, state["checkpoint_bytes"], transfer_energy)
    # the pre-training run itself sited on each grid from the start: its constant load at that site's hourly
    # weight (facility W per IT W × CI), no pauses and nothing to move each day
    run_sited = [{"grid": r["grid"], "place": r["place"],
                  "run_t": float(np.sum(w) * run_power * HOUR / J_PER_KWH / 1e6)}
                 for r, w in zip(moving["rows"], moving["weights"], strict=True)]
    for r in run_sited:
        r["saved"] = 1 - r["run_t"] / run_sited[0]["run_t"] if run_sited[0]["run_t"] else 0.0
    check(abs(run_sited[0]["run_t"] - pause["base_t"]) <= 1e-9 * pause["base_t"],
          "the home row is the unpaused run above")
    check(max(r["saved"] for r in run_sited) > 0 and max(r["saved"] for r in run_sited) * pause["base_t"]
          > max(rows_["unshifted_t"] for rows_ in moving["rows"]),
          "siting the run on a cleaner grid is by far the largest lever")
    chosen_pause = next(r for r in pause["rows"] if r["pause_hours"] == int(pause_hours))
    # the restart time is an assumption the sign of the pause's saving rests on: swept, with its break-even
    if any(r <= 0 for r in restart_sweep):
        raise ParamError("restart_sweep", restart_sweep, "restart times above 0 s")
    restarts = sorted({float(r) for r in restart_sweep} | {float(restart_cost)})
    restart_rows = []
    for r in restarts:
        row = pausing(weight, year["days"], [0, int(pause_hours)], run_power, run_gpus, checkpoint_write + r,
                      paused_share)["rows"][-1]
        restart_rows.append({"restart": r, "saved": row["saved"], "extra_wall": row["extra_wall"]})
    be = chosen_pause.get("break_even_overhead")
    # None when no restart, however short, makes the pause pay (the idle draw alone outweighs the dirty hours)
    break_even_restart = be - checkpoint_write if be is not None and be > checkpoint_write else None
    if break_even_restart is not None:
        check(all((row["saved"] > 0) == (row["restart"] < break_even_restart) for row in restart_rows
                  if abs(row["restart"] - break_even_restart) > 1e-6 * break_even_restart),
              "a restart shorter than the break-even makes the pause pay, a longer one does not")
    if break_even_restart is None and int(pause_hours) > 0:
        check(all(row["saved"] < 0 for row in restart_rows), "no restart, however short, makes the pause pay")
    check(chosen_pause["saved"] <= 0.0 or int(pause_hours) == 0,
          "pausing the pre-training run in PJM's dirtiest hours saves nothing")
    rows = moving["rows"]
    check(moving["best"] > 0 and rows[moving["best"]]["saved_weights_only"] > carbon["jobs_saved"][int(slack)],
          "moving the batch jobs is a different size of lever")
    check(moving["break_even_bytes"] is None
          or moving["worst_case_pays"] == (moving["break_even_bytes"] > state["checkpoint_bytes"]),
          "the worst case pays exactly when a checkpoint is below the break-even size")
    check(all(r["saved_no_transfer"] >= r["saved_weights_only"] >= r["saved"] for r in rows),
          "the full checkpoint is the worst case: less data saves more")
    check(all(r["saved_no_transfer"] >= r["saved_trend"] >= r["saved"] for r in rows),
          "the 2015 figure is the bound: on its trend the transfer costs less")
    temporal = [1 - r["shifted_t"] / r["unshifted_t"] if r["unshifted_t"] else 0.0 for r in rows]
    check(rows[moving["best"]]["saved"] - rows[moving["best"]]["saved_forecast"]
          < rows[0]["saved"] - rows[0]["saved_forecast"],
          "the forecast costs the move less than it costs waiting at home")
    check(rows[1]["unshifted_t"] / rows[1]["ci_mean"] < rows[0]["unshifted_t"] / rows[0]["ci_mean"],
          "Eastern working hours already fall in California's solar valley")
    # the same pauses on the grid with the largest daily swing, for contrast
    swingiest = max(range(len(sites)), key=lambda j: moving["rows"][j]["ci_swing_median"])
    pause_there = pausing(moving["weights"][swingiest], year["days"], [0, int(pause_hours)], run_power, run_gpus,
                          checkpoint_write + restart_cost, paused_share)["rows"][-1]
    check(pause_there["saved"] > chosen_pause["saved"], "on a grid with a deep daily valley it is different")
    # the paused nodes' draw swept: the saving falls linearly in it, on PJM and on the swingiest grid
    if any(v > 1 for v in paused_share_sweep):
        raise ParamError("paused_share_sweep", paused_share_sweep, "shares of the busy draw from 0 to 1")
    idle_rows = []
    for share in sorted({float(v) for v in paused_share_sweep} | {0.0, float(paused_share)}):
        home = pausing(weight, year["days"], [0, int(pause_hours)], run_power, run_gpus,
                       checkpoint_write + restart_cost, share, base["marginal"])["rows"][-1]
        there = pausing(moving["weights"][swingiest], year["days"], [0, int(pause_hours)], run_power, run_gpus,
                        checkpoint_write + restart_cost, share)["rows"][-1]
        idle_rows.append({"share": share, "saved": home["saved"], "saved_free_pauses": home["saved_free_pauses"],
                          "energy_change": home.get("energy_change", 0.0), "saved_there": there["saved"],
                          "break_even_overhead": home["break_even_overhead"]})
    if int(pause_hours) > 0:
        check(all(a["saved"] > b["saved"] for a, b in zip(idle_rows, idle_rows[1:], strict=False)),
              "the more a paused node draws, the less pausing saves")
        check(chosen_pause["energy_change"] > 0, "adds to its electricity bill")
    # the restart below which the pause would pay if paused nodes drew nothing (the page's earlier, 0 W model)
    be0 = idle_rows[0]["break_even_overhead"]
    break_even_restart_no_idle = be0 - checkpoint_write if be0 is not None and be0 > checkpoint_write else None
    check(abs(moving["rows"][0]["shifted_t"] - chosen["jobs_kg"] / 1e3) <= 1e-9 * moving["rows"][0]["shifted_t"],
          "the home site's row is the shifting run above")
    check(abs(moving["rows"][0]["shifted_forecast_t"] - chosen["forecast_jobs_kg"] / 1e3)
          <= 1e-9 * moving["rows"][0]["shifted_forecast_t"], "the home site's row is the shifting run above")
    problems = problems_numbers(pue, carbon, runs, slack, industry_pue, google_pue, year["ci"])
    if around is not None:
        # the overhead above Google's fleet against this saving: the multiple at the other submission window
        around["google_vs_shifting"] = (problems["google_extra_t"] / around["saved_t"] if around["saved_t"] > 0
                                        else None)
    return Exhibit(
        summary=page_summary(year, load, pue, carbon, runs, sweep, slack, chilled_water, approach, google_pue,
                             industry_pue),
        series=figure_series(year, pue, carbon, sweep, p, facility),
        table=monthly_table(p, year["ci"], year["t_out"]),
        animation=animation_plan(year, day, pue, submit_from, job_hours, slack, google_pue, industry_pue),
        problems=problems,
        records={"split": split, "free_idle_t": free_idle_t,
                 "round_the_clock": around,
                 "free_idle_vs_jobs": free_idle_t / (runs[0]["jobs_kg"] / 1e3) if runs[0]["jobs_kg"] else None,
                 # the site's total and the forecast's share of it with that idle draw added: the page prints
                 # the 0 W figures and these beside them (the idle hours are the scheduled year's, close enough
                 # to the unshifted year's for a qualifier)
                 "site_with_idle_t": runs[0]["total_kg"] / 1e3 + free_idle_t,
                 "saved_total_forecast_with_idle": (carbon["forecast_total_saved"][int(slack)] * runs[0]["total_kg"]
                                                    / (runs[0]["total_kg"] + free_idle_t * 1e3)),
                 "condenser_pue": [{"approach": c, "pue": v} for c, v in condenser_pue.items()],
                 "sensitivity": sens, "sensitivity_joint": joint, "pausing": pause["rows"], "sites": moving["rows"],
                 "moving": {"best": moving["best"], "delay_h": moving["delay_h"],
                            "break_even_bytes": moving["break_even_bytes"], "move_bytes": state["checkpoint_bytes"],
                            "worst_case_pays": moving["worst_case_pays"], "weights_bytes": model_params * weight_bytes,
                            "checkpoint_write": checkpoint_write, "pause_base_t": pause["base_t"],
                            # the pre-training run is the busy nodes: its own GPUs, not the whole cluster's
                            "run_gpus": run_gpus,
                            "pause_there_grid": moving["rows"][swingiest]["grid"],
                            "pause_there_saved": pause_there["saved"],
                            "pause_there_saved_free": pause_there["saved_free_pauses"],
                            "pause_chosen": chosen_pause,
                            "restart_sweep": restart_rows,
                            "idle_sweep": idle_rows,
                            "break_even_restart_no_idle": break_even_restart_no_idle,
                            "pause_there_break_even_idle": pause_there["break_even_idle_share"],
                            "break_even_restart": break_even_restart,
                            "cop_hottest": float(chiller_cop(year["t_out"].max(), chilled_water, approach,
                                                             carnot_fraction)),
                            "temporal_saved_by_site": temporal,
                            "transfer_energy_trend": transfer_energy_trend,
                            "transfer_trend_factor": transfer_energy / transfer_energy_trend,
                            "transfer_trend_kwh_per_gb": transfer_energy_trend * 1e9 / J_PER_KWH,
                            "run_sited": run_sited,
                            "joint": joint_choice,
                            "run_best": max(range(len(run_sited)), key=lambda j: run_sited[j]["saved"])},
                 scenario_facts.RECORD: scenario_facts.published(checkpoint_bytes=state["checkpoint_bytes"]),
                 "slack_sweep": [{"slack": s, "jobs_saved": carbon["jobs_saved"][s],
                                  "total_saved": carbon["total_saved"][s], "jobs_t": runs[s]["jobs_kg"] / 1e3,
                                  "jobs_saved_forecast": carbon["forecast_saved"][s],
                                  "jobs_t_forecast": runs[s]["forecast_jobs_kg"] / 1e3,
                                  "forecast_lag_days": runs[s]["forecast_lag_h"] // 24,
                                  "limit_binds": bool(runs[s]["limit_binds"])}
                                 for s in sweep]},
    )
