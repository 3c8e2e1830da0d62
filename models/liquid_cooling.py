"""liquid-cooling · 100 kW+ racks and direct-to-chip liquid cooling.

Four small pieces of physics, each over its parameters:

- rack power: an HGX/DGX H100 rack is `nodes_per_rack` nodes at the node's
  maximum system power (hgx-server's `power_budget` splits each node into GPUs,
  CPUs and the rest) plus the rack's other equipment; a GB200 NVL72 rack is
  NVIDIA's rack figure (an estimate with a range), a share of it carried by
  liquid and the rest by air;
- coolant flow from Q = ṁ·c_p·ΔT (`mass_flow`), as volume with the fluid's
  density (`volume_flow`), for water and 25% propylene glycol (PG25);
- the air-cooling limit: the airflow a kilowatt needs at an air temperature
  rise ΔT, V̇/Q = 1/(ρ·c_p·ΔT) (`airflow_per_watt`), in m³/s and CFM;
- pump power P = V̇·Δp/η (`pump_power`), with the loop's pressure drop and the
  pump's efficiency as stated assumptions;
- a lumped thermal model of one GPU: C·dT/dt = P(t) − (T − T_c)/R, with a
  throttle controller that drops the power to `throttled_power` when T reaches
  T_hi and restores it when T falls to T_lo < T_hi (`simulate_gpu`, forward
  Euler at a fixed step, bounded). Its period has a closed form (`cycle_times`)
  that the simulation is checked against;
- the facility side: facility water at `facility_supply` (an ASHRAE W class)
  reaches the rack `cdu_approach` warmer through the CDU's heat exchanger, and
  a dry cooler gives that water without a chiller in the hours the outdoor air
  is `dry_cooler_approach` colder (`free_cooling_share` in models/lib/cooling.py,
  which pue-carbon-shifting reads too, over the same Leesburg year);
- Blackwell silicon: the thermal resistance R a chip may have between die and
  coolant before it throttles at TDP, (T_hi − T_supply)/TDP, for the H100, the
  HGX B200 and the GB200 GPU, and the supply each would need at the assumed R;
- continuous throttling, the comparison for the hysteresis cycle: a controller
  that holds T at T_hi settles at the power (T_hi − T_c)/R.

Temperatures are in °C, declared "°C" (differences in K); pressures in Pa,
thermal resistances in K/W.
"""

from __future__ import annotations

import math
from types import SimpleNamespace

import numpy as np

from models import datasets
from models.exhibit import Column, Exhibit, Param, ParamError, Table, check, curves, model
from models.lib.cooling import free_cooling_share
from models.lib.memo import pure
from models.lib.node import power_budget
from models.lib.sweeps import including

KELVIN = 273.15  # °C to K

CFM = 0.3048**3 / 60.0  # one cubic foot per minute, in m³/s
LITRE_PER_MIN = 1e-3 / 60.0  # one litre per minute, in m³/s
MAX_STEPS = 2_000_000  # bound on the Euler loop: duration/dt may not exceed it
STABLE_STEP = 0.1  # dt must be at most this share of the time constant RC


# ---------------------------------------------------------------------------
# the pieces
# ---------------------------------------------------------------------------
def mass_flow(heat: float, cp: float, delta_t: float) -> float:
    """ṁ = Q / (c_p·ΔT): kg/s that carry `heat` W with a temperature rise `delta_t` K."""
    return heat / (cp * delta_t)


def volume_flow(mass: float, density: float) -> float:
    """V̇ = ṁ / ρ, m³/s."""
    return mass / density


def airflow_per_watt(cp_air: float, rho_air: float, delta_t):
    """m³/s of air per watt at an air temperature rise ΔT: 1/(ρ·c_p·ΔT)."""
    return 1.0 / (rho_air * cp_air * np.asarray(delta_t, dtype=float))


def pump_power(flow: float, pressure_drop: float, efficiency: float) -> float:
    """Shaft power that drives `flow` m³/s against `pressure_drop` Pa: V̇·Δp/η, W."""
    return flow * pressure_drop / efficiency


def steady_temperature(power, coolant: float, r_th: float):
    """T_∞ = T_c + P·R: where the GPU settles at constant power."""
    return coolant + np.asarray(power, dtype=float) * r_th


def cycle_times(full_power: float, throttled_power: float, coolant: float, r_th: float, c_th: float,
                t_hi: float, t_lo: float) -> dict:
    """Closed-form heating (T_lo→T_hi at full power) and cooling (T_hi→T_lo throttled) times.

    T relaxes exponentially to T_∞ with time constant RC, so the time from T_a to T_b is
    RC·ln((T_∞ − T_a)/(T_∞ − T_b)). A cycle exists only if T_∞,full > T_hi and T_∞,thr < T_lo.
    """
    tau = r_th * c_th
    hot = float(steady_temperature(full_power, coolant, r_th))
    cool = float(steady_temperature(throttled_power, coolant, r_th))
    if not (hot > t_hi and cool < t_lo):  # never reaches T_hi (share 0), or never cools to T_lo (share 1)
        return {"cycles": False, "heat": 0.0, "cool": 0.0, "period": 0.0,
                "throttled_share": 0.0 if hot <= t_hi else 1.0}
    heat = tau * math.log((hot - t_lo) / (hot - t_hi))
    cooldown = tau * math.log((t_hi - cool) / (t_lo - cool))
    return {"cycles": True, "heat": heat, "cool": cooldown, "period": heat + cooldown,
            "throttled_share": cooldown / (heat + cooldown)}


def time_to_reach(t0: float, target: float, t_inf: float, tau: float) -> float:
    """Time for T, relaxing from t0 towards t_inf with time constant tau, to reach `target`:
    tau·ln((T_∞ − T_0)/(T_∞ − T_target)); 0 if T starts at or past it, infinite if T settles short of it."""
    way = 1.0 if t_inf >= t0 else -1.0
    if (target - t0) * way <= 0:
        return 0.0
    if (t_inf - target) * way <= 0:
        return math.inf
    return tau * math.log((t_inf - t0) / (t_inf - target))


def _finite(t: float) -> float | None:
    """A time the page can carry: "never" (a die that settles short of T_hi) as None, not as 0 s, which
    would read as "at once"; there the cycle's claims already fail."""
    return t if math.isfinite(t) else None


def simulate_gpu(full_power: float, throttled_power: float, coolant, r_th: float, c_th: float,
                 t_hi: float, t_lo: float, t0: float, dt: float, steps: int) -> dict:
    """Forward Euler for C·dT/dt = P − (T − T_c)/R with the hysteresis throttle.

    `coolant` is a scalar or an array of `steps` supply temperatures. The
    controller reads T at the start of each step: it throttles once T ≥ T_hi
    and releases once T ≤ T_lo. Returns arrays t, T (steps+1), P, T_c, heat_out
    (steps) and the energy terms of the discrete balance
    C·(T_N − T_0) = Σ P·dt − Σ (T − T_c)/R·dt, which Euler keeps exactly.
    """
    if steps > MAX_STEPS:
        raise ValueError(f"{steps} steps: at most {MAX_STEPS}")
    tc = np.broadcast_to(np.asarray(coolant, dtype=float), (steps,))
    # the loop runs on Python floats, not numpy scalars (a tenth of the time): the same IEEE doubles,
    # the same operations in the same order, so the same bits
    supply = tc.tolist()
    full, thr = float(full_power), float(throttled_power)
    temp = [float(t0)] * (steps + 1)
    power = [0.0] * steps
    throttled = [False] * steps
    t = temp[0]
    state = t0 >= t_hi
    for n in range(steps):
        if state and t <= t_lo:
            state = False
        elif not state and t >= t_hi:
            state = True
        throttled[n] = state
        p = power[n] = thr if state else full
        t = temp[n + 1] = t + dt * (p - (t - supply[n]) / r_th) / c_th
    temp, power = np.array(temp), np.array(power)
    heat_out = (temp[:-1] - tc) / r_th
    return {"t": np.arange(steps + 1) * dt, "T": temp, "P": power, "coolant": np.array(tc),
            "throttled": np.array(throttled, dtype=bool), "heat_out": heat_out,
            "energy_in": float(np.sum(power) * dt), "energy_out": float(np.sum(heat_out) * dt),
            "energy_stored": float(c_th * (temp[-1] - temp[0]))}


@pure  # the range test re-runs the two-node sweep at settings that leave most of its 25 runs unchanged
def simulate_two_node(full_power: float, throttled_power: float, coolant, r_die: float, r_plate: float,
                      c_th: float, t_hi: float, t_lo: float, dt: float, steps: int) -> dict:
    """The split the one lump hides: a die with no heat capacity of its own on a plate that holds all of C.

    The die sits P·r_die above the plate at once; the plate follows C·dT_p/dt = P − (T_p − T_c)/r_plate.
    The controller reads the die at the start of each step (the plate plus the last step's power times
    r_die) with the same hysteresis as `simulate_gpu`. At r_die = 0 the two are the same model. Starts in
    the steady state at full power and the first supply temperature."""
    if steps > MAX_STEPS:
        raise ValueError(f"{steps} steps: at most {MAX_STEPS}")
    tc = np.broadcast_to(np.asarray(coolant, dtype=float), (steps,))
    # Python floats in the loop, as in `simulate_gpu`: the same bits at a tenth of the time
    supply = tc.tolist()
    full, thr = float(full_power), float(throttled_power)
    plate = [float(tc[0] + full_power * r_plate)] * (steps + 1)
    die = [0.0] * steps
    power = [0.0] * steps
    throttled = [False] * steps
    t_plate = plate[0]
    state, last = False, full
    for n in range(steps):
        t_die = die[n] = t_plate + last * r_die
        if state and t_die <= t_lo:
            state = False
        elif not state and t_die >= t_hi:
            state = True
        throttled[n] = state
        last = power[n] = thr if state else full
        t_plate = plate[n + 1] = t_plate + dt * (last - (t_plate - supply[n]) / r_plate) / c_th
    return {"plate": np.array(plate), "die": np.array(die), "P": np.array(power),
            "throttled": np.array(throttled, dtype=bool)}


def _transitions(throttled: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Indices where the throttle engages and where it releases."""
    d = np.diff(throttled.astype(int))
    return np.flatnonzero(d == 1) + 1, np.flatnonzero(d == -1) + 1


# ---------------------------------------------------------------------------
# the model's steps
# ---------------------------------------------------------------------------


def check_the_step(throttle_lo: float, throttle_hi: float, tau: float, dt: float, duration: float,
                   fault_at: float) -> int:
    """The simulation's steps, after checking the hysteresis band, the Euler step and the fault time."""
    if throttle_lo >= throttle_hi:
        raise ParamError("throttle_lo", throttle_lo, f"below throttle_hi = {throttle_hi:g} °C (the hysteresis band)")
    if dt > STABLE_STEP * tau:
        raise ParamError("dt", dt, f"at most {STABLE_STEP:g}·RC = {STABLE_STEP * tau:.4g} s for a stable, accurate "
                         "Euler step")
    steps = int(round(duration / dt))
    if steps > MAX_STEPS:
        raise ParamError("duration", duration, f"at most {MAX_STEPS:,} steps of dt = {dt:g} s")
    if not 0 < fault_at < duration:
        raise ParamError("fault_at", fault_at, f"inside the simulated time (0, {duration:g} s)")
    return steps


def rack_power(gpu_tdp, gpus_per_node, cpu_sockets, cpu_tdp, node_max_power, node_gpu_tdp, nodes_per_rack,
               rack_other_power, nvl72_rack_power, nvl72_liquid_share, air_rack_limit) -> SimpleNamespace:
    """An H100 rack from its nodes' budget against an NVL72 rack's liquid and air shares.

    The node's split is hgx-server's: its maximum less the TDPs of the GPUs it is rated for (the H100,
    `node_gpu_tdp`) and of its CPUs leaves the rest of the node (NVSwitches, NICs, drives, fans, power
    conversion). That rest does not shrink when the GPUs get hotter, so a GPU fits the node only if
    GPUs + CPUs + rest stay within the maximum: the node holds GPUs of at most its own H100's TDP."""
    node = power_budget(gpus_per_node, node_gpu_tdp, cpu_sockets, cpu_tdp, node_max_power)
    limit = node_gpu_tdp_limit(node, gpus_per_node)
    if gpu_tdp > limit * (1 + 1e-12):
        raise ParamError("gpu_tdp", gpu_tdp, f"at most {limit:g} W: {gpus_per_node} GPUs, {node['cpu_power']:g} W of"
                         f" CPUs and the rest of the node ({node['other_power']:g} W) must fit the DGX H100's"
                         f" {node_max_power:g} W (Blackwell GPUs are compared in their own rows, apart from this node)")
    h100_rack = nodes_per_rack * node_max_power + rack_other_power
    nvl_liquid = nvl72_liquid_share * nvl72_rack_power
    check(nvl72_rack_power > h100_rack, "the NVL72 rack draws several times the H100 rack")
    check(abs(h100_rack / air_rack_limit - 1.0) < 0.1, "the H100 rack is already at the practical air-cooling limit")
    check(nvl72_rack_power > 2.5 * air_rack_limit, "the NVL72 rack is several times past it")
    return SimpleNamespace(node=node, gpu_tdp_limit=limit, h100=h100_rack, h100_gpus=nodes_per_rack * gpus_per_node,
                           nvl_liquid=nvl_liquid, nvl_air=nvl72_rack_power - nvl_liquid)


def node_gpu_tdp_limit(node: dict, gpus: int) -> float:
    """The largest GPU TDP the node's maximum holds beside its CPUs and the rest of the node:
    (maximum − CPUs − rest)/GPUs. With the rest taken as the remainder at the node's own GPU, this is
    that GPU's TDP: the maximum leaves no headroom for a hotter one."""
    return (node["system_max_power"] - node["cpu_power"] - node["other_power"]) / gpus


def node_power_need(node: dict, gpus: int, gpu_tdp: float) -> float:
    """What a node with this node's CPUs and rest would need for `gpus` GPUs at `gpu_tdp`: GPUs + CPUs + rest."""
    return gpus * gpu_tdp + node["cpu_power"] + node["other_power"]


def coolant_flows(racks: SimpleNamespace, fluids: dict, coolant_rise: float, loop_pressure_drop: float,
                  pump_efficiency: float) -> dict:
    """Mass and volume flow and pump power for each coolant and rack, keyed (fluid, rack)."""
    flows = {}
    for fluid, (cp, rho) in fluids.items():
        for rack, heat in (("h100", racks.h100), ("nvl72", racks.nvl_liquid)):
            m = mass_flow(heat, cp, coolant_rise)
            v = volume_flow(m, rho)
            flows[(fluid, rack)] = {"mass": m, "volume": v, "pump": pump_power(v, loop_pressure_drop, pump_efficiency)}
            # energy balance: the flow carries exactly the heat
            check(abs(m * cp * coolant_rise - heat) <= 1e-9 * heat, "the coolant flow carries the rack's heat")
    w, g = flows[("water", "nvl72")], flows[("PG25", "nvl72")]
    check(g["volume"] > w["volume"], "PG25 needs more flow than water for the same heat")
    check(2 * max(w["pump"], g["pump"]) / racks.nvl_liquid < 0.02,
          "the pump costs under 2% of the heat it moves, even if Δp were twice the assumption")
    return flows


def air_flows(racks: SimpleNamespace, nvl72_rack_power, air_cp, air_density, air_rise, air_rise_sweep,
              water_cp, water_density) -> SimpleNamespace:
    """The air each rack would need, per kW over the temperature rises compared, and water against air."""
    per_w = float(airflow_per_watt(air_cp, air_density, air_rise))
    sweep = np.array(sorted(set(float(x) for x in air_rise_sweep) | {float(air_rise)}))
    # volumetric heat capacity ratio: how much more air than water per unit heat
    water_vs_air = (water_density * 1e3 * water_cp) / (air_density * air_cp)
    check(water_vs_air > 1000, "water carries thousands of times more heat per litre than air")
    return SimpleNamespace(per_w=per_w, sweep=sweep, per_kw_sweep=airflow_per_watt(air_cp, air_density, sweep) * 1e3,
                           h100=per_w * racks.h100, nvl_all=per_w * nvl72_rack_power, nvl_rest=per_w * racks.nvl_air,
                           water_vs_air=water_vs_air)


def throttle_cycle(gpu_tdp, throttled_share, coolant_supply, coolant_fault, r_th, c_th, throttle_hi,
                   throttle_lo) -> SimpleNamespace:
    """One GPU's steady temperatures before and after the fault, and the closed-form throttle cycle."""
    p_thr = throttled_share * gpu_tdp
    t_nominal = float(steady_temperature(gpu_tdp, coolant_supply, r_th))
    supply_limit = throttle_hi - gpu_tdp * r_th  # warmest supply that never throttles at TDP
    check(t_nominal < throttle_lo, "at the normal supply temperature the GPU runs at full power, below both thresholds")
    check(coolant_fault > supply_limit, "after the fault the GPU would settle above the throttle threshold")
    cyc = cycle_times(gpu_tdp, p_thr, coolant_fault, r_th, c_th, throttle_hi, throttle_lo)
    check(cyc["cycles"], "throttled, it cools below the release threshold: the controller cycles")
    t_fault = float(steady_temperature(gpu_tdp, coolant_fault, r_th))
    # the transient headline: from the fault, at TDP, the die climbs from T_nominal towards T_fault and
    # meets T_hi after RC·ln((T_fault − T_nominal)/(T_fault − T_hi))
    return SimpleNamespace(p_thr=p_thr, t_nominal=t_nominal, t_fault=t_fault, supply_limit=supply_limit, cyc=cyc,
                           time_to_throttle=_finite(time_to_reach(t_nominal, throttle_hi, t_fault, r_th * c_th)))


def simulated_gpu(gpu: SimpleNamespace, gpu_tdp, coolant_supply, coolant_fault, r_th, c_th, throttle_hi,
                  throttle_lo, fault_at, dt, steps) -> SimpleNamespace:
    """The Euler simulation through the fault, checked against energy balance and the closed-form cycle."""
    n_fault = int(round(fault_at / dt))
    tc = np.where(np.arange(steps) < n_fault, coolant_supply, coolant_fault)
    sim = simulate_gpu(gpu_tdp, gpu.p_thr, tc, r_th, c_th, throttle_hi, throttle_lo, gpu.t_nominal, dt, steps)
    balance = sim["energy_in"] - sim["energy_out"] - sim["energy_stored"]
    check(abs(balance) <= 1e-9 * sim["energy_in"],
          "energy in = heat to the coolant + energy stored, to better than one part in a billion")
    on, off = _transitions(sim["throttled"])
    check(len(on) >= 3 and len(off) >= 2, "the throttle cycles several times in the simulated window")
    check(np.all(sim["T"][on] >= throttle_hi) and np.all(sim["T"][on - 1] < throttle_hi + 1e-12),
          "the throttle engages when T reaches T_hi")
    check(np.all(sim["T"][off] <= throttle_lo), "and releases when T falls to T_lo")
    check(not sim["throttled"][:n_fault].any(), "before the fault the GPU never throttles")
    # measured period from successive engagements, against the closed form. A hotter GPU (a higher
    # TDP, a warmer fault) may engage once and stay throttled: no period (0), and its shares are
    # taken over the whole time after the fault
    periods = np.diff(on) * dt
    period_sim = float(np.mean(periods[1:])) if len(periods) > 1 else float(periods[0]) if len(periods) else 0.0
    check(len(periods) > 0 and abs(period_sim - gpu.cyc["period"]) <= 4 * dt + 1e-3 * gpu.cyc["period"],
          "the simulated cycle matches the closed-form period")
    # the first engagement after the fault, against the closed form: the step reads T at its start, so
    # the simulated time lies at most one step after the exact crossing
    first = float(on[0] * dt - n_fault * dt) if len(on) else None  # never engaged: the claims above fail
    check(first is not None and gpu.time_to_throttle is not None
          and abs(first - gpu.time_to_throttle) <= 2 * dt + 1e-3 * gpu.time_to_throttle,
          "the simulated time to the first throttle matches the closed form")
    cycling = len(on) >= 3
    # a whole number of cycles after the first engagement, else everything after the fault
    start, stop = (on[1], on[-1]) if cycling else (n_fault, steps)
    cycle = (on[1], on[2]) if cycling else (n_fault, steps - 1)  # the one the animation plays
    t_max = float(np.max(sim["T"]))
    check(t_max < throttle_hi + 0.5, "the temperature never runs past T_hi by more than one step's rise")
    return SimpleNamespace(sim=sim, balance=balance, on=on, period=period_sim, cycle=cycle, first_throttle=first,
                           throttled_share=float(np.mean(sim["throttled"][start:stop])),
                           avg_power=float(np.mean(sim["P"][start:stop])), t_max=t_max)


def fault_mean_power(gpu_tdp, p_thr, fault, r, c_th, throttle_hi, throttle_lo) -> dict:
    """The mean power after a fault to `fault` °C, as a share of TDP, over the closed-form cycle: TDP where the
    die never reaches T_hi, the throttled power where it never cools to T_lo (it stays throttled)."""
    c = cycle_times(gpu_tdp, p_thr, fault, r, c_th, throttle_hi, throttle_lo)
    if c["cycles"]:
        mean = (c["heat"] * gpu_tdp + c["cool"] * p_thr) / c["period"]
    else:
        mean = p_thr if c["throttled_share"] == 1.0 else gpu_tdp
    return {"fault": fault, "cycles": c["cycles"], "throttled_share": c["throttled_share"],
            "mean_power_share": mean / gpu_tdp,
            "overheats": bool(steady_temperature(p_thr, fault, r) > throttle_hi)}


def resistance_sweep(gpu: SimpleNamespace, gpu_tdp, coolant_supply, coolant_fault, r_th, r_sweep, c_th,
                     throttle_hi, throttle_lo, faults=()) -> list[dict]:
    """Thermal resistance, the assumption that drives the result, swept, with the mean power after a fault
    to each of the supply temperatures compared."""
    r_rows = []
    for r in sorted(set(float(x) for x in r_sweep) | {float(r_th)}):
        c = cycle_times(gpu_tdp, gpu.p_thr, coolant_fault, r, c_th, throttle_hi, throttle_lo)
        r_rows.append({"by_fault": [fault_mean_power(gpu_tdp, gpu.p_thr, f, r, c_th, throttle_hi, throttle_lo)
                                    for f in faults],
                       "r_th": r, "t_nominal": float(steady_temperature(gpu_tdp, coolant_supply, r)),
                       "supply_limit": throttle_hi - gpu_tdp * r,
                       "throttles_nominal": bool(coolant_supply > throttle_hi - gpu_tdp * r),
                       "throttled_share": c["throttled_share"],
                       # where even the throttled GPU settles past T_hi, one throttle level cannot hold the die:
                       # "100% throttled" there means it overheats throttled, not that it holds at T_hi
                       "t_throttled_fault": float(steady_temperature(gpu.p_thr, coolant_fault, r)),
                       "assumed": r == float(r_th)})
    check(any(row["throttles_nominal"] for row in r_rows) and any(not row["throttles_nominal"] for row in r_rows),
          "across the resistances compared, the normal supply is sometimes too warm")
    return r_rows


def capacitance_sweep(gpu: SimpleNamespace, gpu_tdp, coolant_fault, r_th, c_th, c_sweep, throttle_hi,
                      throttle_lo) -> list[dict]:
    """Thermal capacitance, the assumption that sets every time on the page, swept.

    C enters only through RC: every time (to the first throttle, the heating and cooling legs, the
    period) scales with it, and the throttled share, a ratio of two such times, does not move at all."""
    rows = []
    for c in sorted(set(float(x) for x in c_sweep) | {float(c_th)}):
        cyc = cycle_times(gpu_tdp, gpu.p_thr, coolant_fault, r_th, c, throttle_hi, throttle_lo)
        rows.append({"c_th": c, "tau": r_th * c,
                     "time_to_throttle": _finite(time_to_reach(gpu.t_nominal, throttle_hi, gpu.t_fault, r_th * c)),
                     "heat": cyc["heat"], "cool": cyc["cool"], "period": cyc["period"],
                     "throttled_share": cyc["throttled_share"], "assumed": c == float(c_th)})
    base = next(r for r in rows if r["assumed"])
    check(all(abs(r["throttled_share"] - base["throttled_share"]) < 1e-12 for r in rows),
          "the throttled share does not depend on C")
    # a die that never reaches T_hi has no time to scale (None in every row, as C does not change that)
    check(all(abs(r["period"] / r["c_th"] - base["period"] / base["c_th"]) <= 1e-9 * base["period"] / base["c_th"]
              and (base["time_to_throttle"] is None
                   or abs(r["time_to_throttle"] / r["c_th"] - base["time_to_throttle"] / base["c_th"])
                   <= 1e-9 * base["time_to_throttle"] / base["c_th"]) for r in rows),
          "the time to the first throttle and the period scale in proportion to C")
    return rows


def two_node_sweep(gpu: SimpleNamespace, run: SimpleNamespace, gpu_tdp, coolant_supply, coolant_fault, r_th, c_th,
                   r_die_sweep, throttle_hi, throttle_lo, fault_at, dt, steps, shares=()) -> list[dict]:
    """The one lump's R split into die-to-plate r_die and plate-to-coolant R − r_die (`simulate_two_node`).

    C is mostly the plate's copper, so it sits behind the plate's share of R only: the plate's time constant
    (R − r_die)·C is shorter, and every time with it. A throttle drops the die by (TDP − P_thr)·r_die at once;
    past the hysteresis band T_hi − T_lo the die falls straight through T_lo and the controller switches at
    every step it reads (chatter) instead of cycling. The mean power is what the plate sees either way."""
    # a split keeps some of R at the plate: values at or past r_th (a smaller R than the catalogue's) are dropped
    values = sorted(set(float(x) for x in r_die_sweep if x < r_th) | {0.0})
    if dt > STABLE_STEP * (r_th - values[-1]) * c_th:
        raise ParamError("dt", dt, f"at most {STABLE_STEP:g}·(R − r_die)·C = "
                         f"{STABLE_STEP * (r_th - values[-1]) * c_th:.4g} s for the plate's shortest time constant")
    n_fault = int(round(fault_at / dt))
    tc = np.where(np.arange(steps) < n_fault, coolant_supply, coolant_fault)
    rows = []
    for r_die in values:
        r_plate = r_th - r_die
        sim = simulate_two_node(gpu_tdp, gpu.p_thr, tc, r_die, r_plate, c_th, throttle_hi, throttle_lo, dt, steps)
        on, _ = _transitions(sim["throttled"])
        # closed form: the plate climbs from T_c + P·r_plate towards T_fault + P·r_plate and the die meets
        # T_hi when the plate reaches T_hi − P·r_die
        closed = _finite(time_to_reach(coolant_supply + gpu_tdp * r_plate, throttle_hi - gpu_tdp * r_die,
                                       coolant_fault + gpu_tdp * r_plate, r_plate * c_th))
        first = float((on[0] - n_fault) * dt) if len(on) else None
        after = slice(on[0], steps) if len(on) else slice(n_fault, steps)
        drop = (gpu_tdp - gpu.p_thr) * r_die
        # the split crossed with the throttle's depth: where the controller chatters the mean power is about
        # (TDP + P_thr)/2, so it follows the depth; the die's peak is read after the fault (the controller reads
        # it only at a step's start, so a split can carry it past T_hi before the throttle bites)
        by_share = []
        for share in shares:
            other = sim if share * gpu_tdp == gpu.p_thr else simulate_two_node(
                gpu_tdp, share * gpu_tdp, tc, r_die, r_plate, c_th, throttle_hi, throttle_lo, dt, steps)
            o_on, _ = _transitions(other["throttled"])
            o_after = slice(o_on[0], steps) if len(o_on) else slice(n_fault, steps)
            by_share.append({"share": share, "assumed": share * gpu_tdp == gpu.p_thr,
                             "mean_power_share": float(np.mean(other["P"][o_after])) / gpu_tdp,
                             "die_peak": float(np.max(other["die"][n_fault:]))})
        rows.append({"by_share": by_share, "die_peak": float(np.max(sim["die"][n_fault:])),
                     "r_die": r_die, "r_plate": r_plate, "tau_plate": r_plate * c_th, "time_to_throttle": closed,
                     "time_to_throttle_sim": first, "die_drop": drop,
                     "chatters": bool(drop > throttle_hi - throttle_lo),
                     "switches_per_min": 60.0 * len(on) / ((steps - on[0]) * dt) if len(on) else 0.0,
                     "throttled_share": float(np.mean(sim["throttled"][after])),
                     "mean_power_share": float(np.mean(sim["P"][after])) / gpu_tdp,
                     "lump": r_die == 0.0})
    lump = rows[0]
    check(lump["time_to_throttle_sim"] is not None and run.first_throttle is not None
          and abs(lump["time_to_throttle_sim"] - run.first_throttle) < 1e-9,
          "with no resistance between die and plate, the two-node model is the one lump")
    check(all(r["time_to_throttle"] is not None and r["time_to_throttle_sim"] is not None
              and abs(r["time_to_throttle_sim"] - r["time_to_throttle"]) <= 2 * dt for r in rows),
          "each split's simulated time to the first throttle matches its closed form")
    check(all(a["time_to_throttle"] is not None and b["time_to_throttle"] is not None
              and a["time_to_throttle"] > b["time_to_throttle"] for a, b in zip(rows, rows[1:], strict=False)),
          "the more of R between die and plate, the sooner the die throttles")
    check(any(r["chatters"] for r in rows), "a split that drops the die past the band makes the controller chatter")
    return rows


def throttle_grid(gpu_tdp, coolant_fault, r_th, c_th, throttle_hi, throttle_lo, throttled_share,
                  throttled_share_sweep, throttle_lo_sweep) -> list[dict]:
    """The throttled power and the release threshold, the two controller assumptions besides R, swept.

    One row per throttled power (a share of TDP), one cell per release threshold T_lo: the share of time
    throttled and the mean power (a share of TDP) over the closed-form cycle. Where the throttled GPU
    settles above T_lo it never releases: it stays throttled (mean power = the throttled power), or, if it
    settles above T_hi too, one throttle level cannot hold it."""
    shares = sorted(set(float(x) for x in throttled_share_sweep) | {float(throttled_share)})
    lows = sorted(set(float(x) for x in throttle_lo_sweep if x < throttle_hi) | {float(throttle_lo)})
    rows = []
    for share in shares:
        p_thr = share * gpu_tdp
        cells = []
        for lo in lows:
            cyc = cycle_times(gpu_tdp, p_thr, coolant_fault, r_th, c_th, throttle_hi, lo)
            if cyc["cycles"]:
                mean = (cyc["heat"] * gpu_tdp + cyc["cool"] * p_thr) / cyc["period"]
            else:
                mean = p_thr if cyc["throttled_share"] == 1.0 else gpu_tdp
            cells.append({"throttle_lo": lo, "cycles": cyc["cycles"], "throttled_share": cyc["throttled_share"],
                          "mean_power_share": mean / gpu_tdp,
                          "overheats": bool(steady_temperature(p_thr, coolant_fault, r_th) > throttle_hi),
                          "assumed": lo == float(throttle_lo) and share == float(throttled_share)})
        rows.append({"share": share, "assumed": share == float(throttled_share), "cells": cells})
    cycling = [c for r in rows for c in r["cells"] if c["cycles"]]
    # a lower throttled power cools the die faster: less time throttled at the same T_lo
    for r0, r1 in zip(rows, rows[1:], strict=False):
        for a, b in zip(r0["cells"], r1["cells"], strict=True):
            if a["cycles"] and b["cycles"]:
                check(a["throttled_share"] < b["throttled_share"],
                      "the deeper the throttle, the less of the time the GPU spends throttled")
    check(len(cycling) > 1, "across the throttle settings compared, the controller cycles")
    # the mean power follows the band (T_lo) more than the throttle's depth: its spread down each T_lo
    # column stays below its spread along the headline's row
    def spread(cells):
        return max(c["mean_power_share"] for c in cells) - min(c["mean_power_share"] for c in cells) if cells else 0.0
    used = next(r for r in rows if r["assumed"])
    columns = [[r["cells"][j] for r in rows if r["cells"][j]["cycles"]] for j in range(len(lows))]
    check(max(spread(col) for col in columns) < spread([c for c in used["cells"] if c["cycles"]]),
          "the mean power moves more with the release threshold than with the throttled power")
    return rows


def facility_loop(racks: SimpleNamespace, facility_supply, cdu_approach, facility_rise, coolant_rise, w_classes,
                  dry_cooler_approach, dry_cooler_approach_sweep, water_cp, water_density) -> SimpleNamespace:
    """Facility water through the CDU to the rack, the facility flow, and the chiller-free hours by W class.

    The CDU's heat exchanger hands the rack's liquid heat to the facility water; the secondary
    (rack) supply is the facility supply plus the exchanger's approach. A dry cooler makes the
    facility water without a chiller in the hours the outdoor air is at least one approach below
    it: the shared free_cooling_share (models/lib/cooling.py) over pue-carbon-shifting's Leesburg TMYx year.
    """
    if facility_rise > cdu_approach + coolant_rise:
        raise ParamError("facility_rise", facility_rise, f"at most {cdu_approach + coolant_rise:g} K: in a counterflow"
                         " exchanger the facility water leaves no warmer than the rack's return, which it cools")
    t_out = datasets.dry_bulb()

    def free_hours(supply_c: float, approach: float = dry_cooler_approach) -> float:
        return float(np.mean(free_cooling_share(t_out, supply_c + KELVIN, approach) >= 1.0))

    # the dry cooler's approach is an assumption: each class's hours at every approach compared
    approaches = sorted(set(float(x) for x in dry_cooler_approach_sweep) | {float(dry_cooler_approach)})

    supply = facility_supply + cdu_approach
    m = mass_flow(racks.nvl_liquid, water_cp, facility_rise)
    classes = sorted(set(float(w) for w in w_classes))
    rows = [{"w_class": f"W{w:g}", "facility_supply": w, "rack_supply": w + cdu_approach,
             "free_hours": free_hours(w), "assumed": w == float(facility_supply),
             "by_approach": [{"approach": k, "free_hours": free_hours(w, k), "assumed": k == float(dry_cooler_approach)}
                             for k in approaches]} for w in classes]
    shares = [r["free_hours"] for r in rows]
    check(all(a <= b for a, b in zip(shares, shares[1:], strict=False)),
          "the warmer the facility water, the more hours it is made without a chiller")
    check(all(a["free_hours"] >= b["free_hours"] for r in rows for a, b in zip(r["by_approach"], r["by_approach"][1:],
                                                                               strict=False)),
          "the larger the dry cooler's approach, the fewer hours without a chiller")
    return SimpleNamespace(supply=supply, mass=m, lpm=volume_flow(m, water_density) / LITRE_PER_MIN,
                           free_hours=free_hours(facility_supply), rows=rows, free_hours_at=free_hours,
                           approaches=approaches,
                           free_hours_worst=free_hours(facility_supply, approaches[-1]))


def blackwell_budget(gpu_tdp, b200_tdp, gb200_gpu_tdp, coolant_supply, r_th, throttle_hi, plate_mass_flow,
                     cp) -> list[dict]:
    """The die-to-coolant resistance each chip may have before it throttles at TDP, and the supply
    each would need at the assumed R. T_hi − T_supply is the same for all: the budget shrinks as 1/TDP.

    R is counted from the supply, so it holds the coolant's own warming through the plate too: at
    `plate_mass_flow` kg/s per GPU the water leaves the plate TDP/(ṁ·c_p) warmer, a resistance 1/(ṁ·c_p)
    that no better plate or paste removes, only more flow. Its share of each chip's budget grows with the TDP."""
    plate_r = 1.0 / (plate_mass_flow * cp)
    rows = [{"chip": name, "tdp": tdp, "r_budget": (throttle_hi - coolant_supply) / tdp,
             "t_at_r": float(steady_temperature(tdp, coolant_supply, r_th)),
             "supply_at_r": throttle_hi - tdp * r_th, "throttles": bool(coolant_supply > throttle_hi - tdp * r_th),
             "plate_rise": tdp * plate_r, "plate_share": tdp * plate_r / (throttle_hi - coolant_supply),
             "modelled": name.startswith("H100")}
            for name, tdp in (("H100 SXM", gpu_tdp), ("B200 (HGX B200)", b200_tdp),
                              ("B200 in GB200", gb200_gpu_tdp))]
    check(all(r["plate_share"] < 1.0 for r in rows), "the coolant's own rise through the plate fits in each budget")
    check(rows[0]["plate_share"] < rows[1]["plate_share"] < rows[2]["plate_share"],
          "the coolant's own rise takes a larger share of a hotter chip's budget")
    check(rows[0]["r_budget"] > rows[1]["r_budget"] > rows[2]["r_budget"],
          "the hotter the chip, the smaller the resistance it may have to the coolant")
    check(not rows[0]["throttles"] and rows[1]["throttles"] and rows[2]["throttles"],
          "the cold plate assumed for the H100 would throttle both Blackwell GPUs at the normal supply")
    return rows


def continuous_throttle(gpu_tdp, coolant_fault, r_th, throttle_hi, avg_power) -> SimpleNamespace:
    """A controller that holds T at T_hi (power capping) settles at (T_hi − T_c)/R: the comparison."""
    p = (throttle_hi - coolant_fault) / r_th
    check(avg_power < p < gpu_tdp, "the hysteresis cycle averages less power than holding T at T_hi would")
    return SimpleNamespace(power=p, share=p / gpu_tdp, lost=(p - avg_power) / gpu_tdp)


def page_summary(racks, flows, air, gpu, run, nodes_per_rack, node_max_power, nvl72_rack_power, nvl72_gpus,
                 loop_pressure_drop, air_rack_limit, tau, gpu_tdp) -> dict:
    """The numbers the page quotes."""
    node, w, g, cyc, sim = racks.node, flows[("water", "nvl72")], flows[("PG25", "nvl72")], gpu.cyc, run.sim
    return {
        "node_gpu_power": node["gpu_power"], "node_cpu_power": node["cpu_power"],
        "node_other_power": node["other_power"], "node_gpu_share": node["gpu_share"],
        # the largest GPU TDP the DGX H100 node's maximum holds beside its CPUs and the rest of the node
        "node_gpu_tdp_limit": racks.gpu_tdp_limit,
        "h100_rack_power": racks.h100, "h100_rack_gpus": racks.h100_gpus,
        "h100_rack_compute": nodes_per_rack * node_max_power,
        "nvl72_power_per_gpu": nvl72_rack_power / nvl72_gpus,
        "h100_power_per_gpu": racks.h100 / racks.h100_gpus,
        "rack_ratio": nvl72_rack_power / racks.h100,
        "nvl72_liquid_heat": racks.nvl_liquid, "nvl72_air_heat": racks.nvl_air,
        "water_mass_flow": w["mass"], "water_flow_lpm": w["volume"] / LITRE_PER_MIN,
        "pg25_mass_flow": g["mass"], "pg25_flow_lpm": g["volume"] / LITRE_PER_MIN,
        "pg25_extra_flow": g["volume"] / w["volume"] - 1.0,
        "h100_water_flow_lpm": flows[("water", "h100")]["volume"] / LITRE_PER_MIN,
        "pump_power_water": w["pump"], "pump_power_pg25": g["pump"], "pump_share": w["pump"] / racks.nvl_liquid,
        "pump_pressure_kpa": loop_pressure_drop / 1e3,
        "air_cfm_per_kw": air.per_w * 1e3 / CFM, "air_m3s_per_kw": air.per_w * 1e3,
        "air_h100_cfm": air.h100 / CFM, "air_h100_m3s": air.h100,
        "air_nvl72_cfm": air.nvl_all / CFM, "air_nvl72_m3s": air.nvl_all,
        "air_nvl72_rest_cfm": air.nvl_rest / CFM,
        "air_nvl72_over_limit": nvl72_rack_power / air_rack_limit,
        "water_vs_air": air.water_vs_air,
        "throttled_power": gpu.p_thr, "time_constant": tau, "stable_step": STABLE_STEP,
        "t_nominal": gpu.t_nominal, "t_fault": gpu.t_fault, "supply_limit": gpu.supply_limit,
        "time_to_throttle": gpu.time_to_throttle, "time_to_throttle_sim": run.first_throttle,
        "heat_time": cyc["heat"], "cool_time": cyc["cool"], "period": cyc["period"],
        "period_sim": run.period, "throttled_share_formula": cyc["throttled_share"],
        "throttled_share_sim": run.throttled_share, "avg_power": run.avg_power,
        "avg_power_share": run.avg_power / gpu_tdp, "t_max": run.t_max,
        "energy_in": sim["energy_in"], "energy_out": sim["energy_out"], "energy_stored": sim["energy_stored"],
        "energy_balance_error": run.balance,
    }


def worked_problems(racks, flows, gpu, gpu_tdp, coolant_fault, r_th, c_th, throttle_hi, throttle_lo, coolant_rise,
                    water_cp, water_density, loop_pressure_drop, pump_efficiency) -> dict:
    """Halve the coolant's temperature rise; a supply 5 K warmer after the fault."""
    w = flows[("water", "nvl72")]
    warm = cycle_times(gpu_tdp, gpu.p_thr, coolant_fault + 5.0, r_th, c_th, throttle_hi, throttle_lo)
    half_dt = coolant_rise / 2.0
    nvl_liquid = racks.nvl_liquid
    problems = {
        "half_rise": {"rise": half_dt,
                      "flow_lpm": volume_flow(mass_flow(nvl_liquid, water_cp, half_dt), water_density * 1e3)
                      / LITRE_PER_MIN,
                      "pump": pump_power(volume_flow(mass_flow(nvl_liquid, water_cp, half_dt), water_density * 1e3),
                                         4.0 * loop_pressure_drop, pump_efficiency)},
        "warmer_fault": {"supply": coolant_fault + 5.0, "throttled_share": warm["throttled_share"],
                         "period": warm["period"]},
    }
    check(abs(problems["half_rise"]["flow_lpm"] * LITRE_PER_MIN / w["volume"] - 2.0) < 1e-9,
          "halving the temperature rise doubles the flow")
    check(problems["half_rise"]["pump"] > 7.9 * w["pump"], "halve ΔT: double the flow, eight times the pump power")
    check(warm["throttled_share"] > gpu.cyc["throttled_share"], "a warmer supply: the GPU spends longer throttled")
    return problems


def figure_series(run, air, steps, h100_rack_power, nvl72_rack_power, air_cp, air_density) -> dict:
    """The GPU trace (decimated for the figure), airflow against rack power, airflow per kW against the rise."""
    sim = run.sim
    keep = max(1, steps // 3000)
    idx = np.arange(0, steps, keep)
    racks_kw = including(np.linspace(0.0, max(1.2 * nvl72_rack_power, 1.0), 61), h100_rack_power)
    return {
        **curves("t", sim["t"][idx], temperature=sim["T"][idx], power=sim["P"][idx],
                 coolant=sim["coolant"][idx]),
        **curves("rack_power", racks_kw,
                 **{f"air_cfm_{int(round(s))}K": racks_kw * float(airflow_per_watt(air_cp, air_density, s)) / CFM
                    for s in air.sweep}),
        **curves("air_rise", air.sweep, air_cfm_per_kw=air.per_kw_sweep / CFM),
    }


def animation_plan(run, racks, flows, coolant_rise, coolant_supply, air, chips) -> dict:
    """One throttle cycle sampled after the fault, and the loop's numbers."""
    sim, w = run.sim, flows[("water", "nvl72")]
    a, b = run.cycle
    cyc_idx = np.linspace(a, b, 400).astype(int)  # dense enough that the power steps sit at T_hi and T_lo
    return {
        "cycle": {"T": sim["T"][cyc_idx].tolist(), "P": sim["P"][cyc_idx].tolist()},
        "loop": {"flow_lpm": w["volume"] / LITRE_PER_MIN, "heat": racks.nvl_liquid, "rise": coolant_rise,
                 "supply": coolant_supply},
        # air through each rack, m³/s: the dots' speed in the air beat is in proportion
        "air": {"h100_m3s": air.h100, "nvl72_m3s": air.nvl_all},
        "chips": [{"chip": c["chip"], "tdp": c["tdp"], "r_budget": c["r_budget"], "t_at_r": c["t_at_r"],
                   "throttles": c["throttles"]} for c in chips],
    }


def flow_table(racks, flows, coolant_rise, loop_pressure_drop, pump_efficiency) -> Table:
    """Coolant flow and pump power for each rack and coolant."""
    rows = []
    for fluid in ("water", "PG25"):
        for rack, name, heat in (("h100", "DGX H100 rack (hypothetical: it is air-cooled)", racks.h100),
                                 ("nvl72", "GB200 NVL72, liquid share", racks.nvl_liquid)):
            f = flows[(fluid, rack)]
            rows.append([name, fluid, heat, f["mass"], f["volume"] / LITRE_PER_MIN, f["pump"]])
    return Table(
        f"Coolant flow for a {coolant_rise:g} K rise, Q = ṁ·c_p·ΔT, and pump power V̇·Δp/η "
        f"(Δp = {loop_pressure_drop / 1e3:g} kPa, η = {pump_efficiency:g}, both assumptions)",
        [Column("rack", "text"), Column("coolant", "text"), Column("heat to liquid", "W"),
         Column("mass flow", "kg/s"), Column("volume flow", "L/min"), Column("pump power", "W")],
        rows,
    )


# ---------------------------------------------------------------------------
# the entry function
# ---------------------------------------------------------------------------


@model(
    gpu_tdp=Param.positive("W", "H100 SXM thermal design power (the DGX H100 node and the one-GPU model)"),
    gpus_per_node=Param.integer("count", "GPUs per HGX H100 node", minimum=1, maximum=16),
    cpu_sockets=Param.integer("count", "CPU sockets per node", minimum=0, maximum=8),
    cpu_tdp=Param.positive("W", "CPU thermal design power"),
    node_max_power=Param.positive("W", "DGX H100 maximum system power"),
    node_gpu_tdp=Param.positive("W", "TDP of the GPUs the DGX H100's maximum is rated for (H100 SXM)"),
    nodes_per_rack=Param.integer("count", "DGX H100 systems per rack", minimum=1, maximum=16),
    rack_other_power=Param.number("W", "other equipment in the H100 rack (assumption)", minimum=0.0),
    nvl72_rack_power=Param.positive("W", "GB200 NVL72 rack power (estimate)"),
    nvl72_gpus=Param.integer("count", "GPUs in a GB200 NVL72 rack", maximum=144),
    # above 0: the NVL72 is liquid-cooled by design; at 0 there is no coolant flow to compare
    nvl72_liquid_share=Param.number("1", "share of the NVL72 rack's heat taken by liquid (assumption)", above=0.0,
                                    maximum=1.0),
    su_power=Param.positive("W", "DGX SuperPOD GB200 scalable unit power"),
    su_racks=Param.integer("count", "DGX GB200 racks per scalable unit", minimum=1, maximum=64),
    water_cp=Param.positive("1", "specific heat of water, J/(kg·K)"),
    water_density=Param.positive("1", "density of water, kg/L"),
    pg25_cp=Param.positive("1", "specific heat of PG25, J/(kg·K)"),
    pg25_density=Param.positive("1", "density of PG25, kg/L"),
    air_cp=Param.positive("1", "specific heat of air, J/(kg·K)"),
    air_density=Param.positive("kg/m³", "density of air"),
    coolant_rise=Param.positive("K", "coolant temperature rise across the rack (assumption)", maximum=40),
    air_rise=Param.positive("K", "air temperature rise across the rack (assumption)", maximum=40),
    air_rise_sweep=Param.numbers("K", "air temperature rises compared", above=0.0),
    air_rack_limit=Param.positive("W", "practical limit of an air-cooled rack (this page's estimate)"),
    loop_pressure_drop=Param.positive("Pa", "pressure drop of the rack's coolant loop (assumption)"),
    pump_efficiency=Param.number("1", "pump and motor efficiency (assumption)", minimum=0.05, maximum=1.0),
    r_th=Param.positive("K/W", "thermal resistance, GPU to coolant (assumption)"),
    r_sweep=Param.numbers("K/W", "thermal resistances compared", above=0.0),
    c_th=Param.positive("J/K", "thermal capacitance of GPU and cold plate (assumption)"),
    c_sweep=Param.numbers("J/K", "thermal capacitances compared", above=0.0),
    r_die_sweep=Param.numbers("K/W", "die-to-plate resistances compared (two-node model)", minimum=0.0),
    facility_supply=Param.number("°C", "facility water supply temperature (an ASHRAE W class)", minimum=0.0,
                                 maximum=60.0),
    cdu_approach=Param.positive("K", "CDU heat-exchanger approach, rack supply over facility supply (assumption)",
                                maximum=20.0),
    facility_rise=Param.positive("K", "facility water temperature rise across the CDU (assumption)", maximum=40.0),
    w_classes=Param.numbers("°C", "ASHRAE liquid-cooling classes compared (facility supply limits)", above=0.0),
    room_dew_point=Param.number("°C", "the room air's highest dew point (ASHRAE's recommended envelope)",
                                minimum=-20.0, maximum=40.0),
    dry_cooler_approach=Param.positive("K", "dry cooler approach, facility water over outdoor air (assumption)",
                                       maximum=20.0),
    dry_cooler_approach_sweep=Param.numbers("K", "dry cooler approaches compared", above=0.0),
    b200_tdp=Param.positive("W", "B200 thermal design power, HGX B200"),
    gb200_gpu_tdp=Param.positive("W", "B200 thermal design power in a GB200 superchip"),
    dgx_b200_gpus=Param.integer("count", "B200 GPUs in a DGX B200", minimum=1, maximum=16),
    dgx_b200_max_power=Param.positive("W", "DGX B200 maximum system power"),
    coolant_fault=Param.number("°C", "coolant supply temperature after a CDU fault", minimum=0.0,
                               maximum=80.0),
    coolant_fault_sweep=Param.numbers("°C", "fault supply temperatures compared", above=0.0, maximum=80.0),
    throttle_hi=Param.number("°C", "throttle engages at (assumption)", minimum=20.0, maximum=120.0),
    throttle_lo=Param.number("°C", "throttle releases at (assumption)", minimum=20.0, maximum=120.0),
    throttled_share=Param.fraction("throttled power as a share of TDP (assumption)"),
    throttled_share_sweep=Param.numbers("1", "throttled powers compared, shares of TDP", above=0.0,
                                         maximum=1.0),
    throttle_lo_sweep=Param.numbers("°C", "release thresholds compared", above=0.0),
    fault_at=Param.positive("s", "time of the fault"),
    duration=Param.positive("s", "simulated time"),
    dt=Param.positive("s", "integration step"),
)
def liquid_cooling(gpu_tdp, gpus_per_node, cpu_sockets, cpu_tdp, node_max_power, node_gpu_tdp, nodes_per_rack,
                   rack_other_power, nvl72_rack_power, nvl72_gpus, nvl72_liquid_share, su_power, su_racks,
                   water_cp, water_density, pg25_cp, pg25_density, air_cp, air_density,
                   coolant_rise, air_rise, air_rise_sweep, air_rack_limit, loop_pressure_drop, pump_efficiency,
                   r_th, r_sweep, c_th, c_sweep, r_die_sweep, facility_supply, cdu_approach, facility_rise, w_classes,
                   room_dew_point, dry_cooler_approach, dry_cooler_approach_sweep, b200_tdp, gb200_gpu_tdp,
                   dgx_b200_gpus, dgx_b200_max_power, coolant_fault, coolant_fault_sweep,
                   throttle_hi, throttle_lo, throttled_share, throttled_share_sweep, throttle_lo_sweep, fault_at,
                   duration, dt) -> Exhibit:
    """Rack power, coolant and air flow, pump power, and one GPU's throttle cycle.

    The H100 rack reuses hgx-server's `power_budget` for one node; the NVL72 rack
    is NVIDIA's rack figure. Flows are sized for the whole rack's heat with a
    temperature rise `coolant_rise` (liquid) or `air_rise` (air). The rack's supply is
    the facility water plus the CDU's approach. The GPU runs at TDP with that supply
    until `fault_at`, when the supply steps to `coolant_fault`; the throttle then
    cycles between T_hi and T_lo.
    """
    tau = r_th * c_th
    steps = check_the_step(throttle_lo, throttle_hi, tau, dt, duration, fault_at)
    racks = rack_power(gpu_tdp, gpus_per_node, cpu_sockets, cpu_tdp, node_max_power, node_gpu_tdp, nodes_per_rack,
                       rack_other_power, nvl72_rack_power, nvl72_liquid_share, air_rack_limit)
    # liquid densities come in kg/L (as coolant tables give them): to kg/m³ here
    fluids = {"water": (water_cp, water_density * 1e3), "PG25": (pg25_cp, pg25_density * 1e3)}
    flows = coolant_flows(racks, fluids, coolant_rise, loop_pressure_drop, pump_efficiency)
    air = air_flows(racks, nvl72_rack_power, air_cp, air_density, air_rise, air_rise_sweep, water_cp, water_density)
    fac = facility_loop(racks, facility_supply, cdu_approach, facility_rise, coolant_rise, w_classes,
                        dry_cooler_approach, dry_cooler_approach_sweep, water_cp, water_density * 1e3)
    coolant_supply = fac.supply
    gpu = throttle_cycle(gpu_tdp, throttled_share, coolant_supply, coolant_fault, r_th, c_th, throttle_hi,
                         throttle_lo)
    run = simulated_gpu(gpu, gpu_tdp, coolant_supply, coolant_fault, r_th, c_th, throttle_hi, throttle_lo, fault_at,
                        dt, steps)
    faults = sorted(set(float(x) for x in coolant_fault_sweep) | {float(coolant_fault)})
    r_rows = resistance_sweep(gpu, gpu_tdp, coolant_supply, coolant_fault, r_th, r_sweep, c_th, throttle_hi,
                              throttle_lo, faults)
    c_rows = capacitance_sweep(gpu, gpu_tdp, coolant_fault, r_th, c_th, c_sweep, throttle_hi, throttle_lo)
    shares = sorted(set(float(x) for x in throttled_share_sweep) | {float(throttled_share)})
    split = two_node_sweep(gpu, run, gpu_tdp, coolant_supply, coolant_fault, r_th, c_th, r_die_sweep, throttle_hi,
                           throttle_lo, fault_at, dt, steps, shares)
    grid = throttle_grid(gpu_tdp, coolant_fault, r_th, c_th, throttle_hi, throttle_lo, throttled_share,
                         throttled_share_sweep, throttle_lo_sweep)
    # the cells where the controller cycles (all of them, where none does: the claims about it fail)
    cycling = [c for r in grid for c in r["cells"] if c["cycles"]] or [c for r in grid for c in r["cells"]]
    # the cells where it throttles at all, cycling or staying throttled: the takeaway's range
    throttling = [c for r in grid for c in r["cells"] if c["throttled_share"] > 0] or cycling
    summary = page_summary(racks, flows, air, gpu, run, nodes_per_rack, node_max_power, nvl72_rack_power,
                           nvl72_gpus, loop_pressure_drop, air_rack_limit, tau, gpu_tdp)
    check(nvl72_rack_power <= su_power / su_racks, "the rack figure fits within its share of the scalable unit")
    # the flow one GPU's plate gets: the NVL72 loop's water shared equally over its GPUs (the CPUs' and switches'
    # plates take some of it, so a GPU's own share, and its rise, may be larger: the rise is a lower bound)
    plate_mass = flows[("water", "nvl72")]["mass"] / nvl72_gpus
    chips = blackwell_budget(gpu_tdp, b200_tdp, gb200_gpu_tdp, coolant_supply, r_th, throttle_hi, plate_mass, water_cp)
    # the same fault for a B200 at its own budget (the H100's C and throttle depth, assumed alike): at that R the
    # die sits at T_hi at the normal supply, so it throttles the moment the supply warms, and the bound is
    # (T_hi − T_fault)/(T_hi − T_supply) of TDP whatever the TDP
    b200_fault = fault_mean_power(b200_tdp, throttled_share * b200_tdp, coolant_fault, chips[1]["r_budget"], c_th,
                                  throttle_hi, throttle_lo)
    b200_bound = (throttle_hi - coolant_fault) / (chips[1]["r_budget"] * b200_tdp)
    check(b200_fault["mean_power_share"] <= b200_bound + 1e-12,
          "a B200 at its budget, after the same fault, averages no more than the bound")
    # the B200's TDP is read second-hand; NVIDIA's own DGX B200 guide gives only the system's maximum. The
    # two agree if eight B200s at that TDP take about the share of their node the H100s take of theirs
    b200_node_share = dgx_b200_gpus * b200_tdp / dgx_b200_max_power
    check(abs(b200_node_share - racks.node["gpu_share"]) < 0.05,
          "eight B200s at the quoted TDP take about the share of the DGX B200's maximum that eight H100s take"
          " of the DGX H100's")
    # the DGX H100's CPUs and rest of the node do not shrink for hotter GPUs: with them counted, eight
    # B200s would need more than the DGX H100's maximum, and fit within the DGX B200's
    b200_need = node_power_need(racks.node, dgx_b200_gpus, b200_tdp)
    check(b200_need > node_max_power, "a B200 at its quoted TDP does not fit the DGX H100's power budget")
    check(b200_need <= dgx_b200_max_power,
          "with the DGX H100's CPUs and rest of the node, eight B200s fit the DGX B200's maximum")
    check(coolant_supply > room_dew_point, "the rack's normal supply stays above the dew point the room may have")
    cont = continuous_throttle(gpu_tdp, coolant_fault, r_th, throttle_hi, run.avg_power)
    summary |= {
        "coolant_supply": coolant_supply, "coolant_return": coolant_supply + coolant_rise,
        "facility_return": facility_supply + facility_rise,
        "facility_mass_flow": fac.mass, "facility_flow_lpm": fac.lpm, "free_cooling_hours": fac.free_hours,
        "free_cooling_below": facility_supply - dry_cooler_approach,
        "free_cooling_hours_worst": fac.free_hours_worst, "dry_cooler_approach_worst": fac.approaches[-1],
        "r_budget_h100": chips[0]["r_budget"], "r_budget_b200": chips[1]["r_budget"],
        "r_budget_gb200": chips[2]["r_budget"], "b200_t_at_r": chips[1]["t_at_r"],
        "gb200_t_at_r": chips[2]["t_at_r"],
        "plate_flow_lpm": volume_flow(plate_mass, water_density * 1e3) / LITRE_PER_MIN,
        "plate_r": 1.0 / (plate_mass * water_cp),
        "plate_rise_h100": chips[0]["plate_rise"], "plate_share_h100": chips[0]["plate_share"],
        "plate_rise_b200": chips[1]["plate_rise"], "plate_share_b200": chips[1]["plate_share"],
        "plate_rise_gb200": chips[2]["plate_rise"], "plate_share_gb200": chips[2]["plate_share"],
        "b200_supply_at_r": chips[1]["supply_at_r"],
        "gb200_supply_at_r": chips[2]["supply_at_r"], "die_headroom": throttle_hi - coolant_supply,
        # the facility water the GB200's rack supply needs, through the same CDU, and the hours a dry cooler makes it
        "gb200_facility_supply": chips[2]["supply_at_r"] - cdu_approach,
        "gb200_free_hours": fac.free_hours_at(chips[2]["supply_at_r"] - cdu_approach),
        # condensation: a pipe or plate colder than the room air's dew point wets. The GB200's colder need (rack
        # supply and facility water) against the highest dew point ASHRAE's recommended envelope lets the room have
        "gb200_rack_condenses": bool(chips[2]["supply_at_r"] <= room_dew_point),
        "gb200_facility_condenses": bool(chips[2]["supply_at_r"] - cdu_approach <= room_dew_point),
        "gb200_below_dew_point": room_dew_point - (chips[2]["supply_at_r"] - cdu_approach),
        "coolant_supply_over_dew_point": coolant_supply - room_dew_point,
        "b200_node_gpu_power": dgx_b200_gpus * b200_tdp, "b200_node_gpu_share": b200_node_share,
        "b200_in_h100_node_need": b200_need,
        "nvl72_gpu_tdp_total": nvl72_gpus * gb200_gpu_tdp,
        "nvl72_gpu_tdp_share": nvl72_gpus * gb200_gpu_tdp / nvl72_rack_power,
        "su_power_per_rack": su_power / su_racks,
        "continuous_power": cont.power, "continuous_share": cont.share, "continuous_gain": cont.lost,
        "b200_fault_throttled_share": b200_fault["throttled_share"], "b200_fault_cycles": b200_fault["cycles"],
        "b200_fault_mean_share": b200_fault["mean_power_share"], "b200_fault_bound": b200_bound,
        "c_low": c_rows[0]["c_th"], "c_high": c_rows[-1]["c_th"],
        "time_to_throttle_low": c_rows[0]["time_to_throttle"], "time_to_throttle_high": c_rows[-1]["time_to_throttle"],
        "period_low": c_rows[0]["period"], "period_high": c_rows[-1]["period"],
        # the controller's sweep: the range of the share throttled and of the mean power where it cycles
        "grid_share_low": min(c["throttled_share"] for c in cycling),
        "grid_share_high": max(c["throttled_share"] for c in cycling),
        "grid_mean_low": min(c["mean_power_share"] for c in cycling),
        "grid_mean_high": max(c["mean_power_share"] for c in cycling),
        # the two-node split: the largest r_die swept, its time to throttle, and the mean power over all splits
        "split_r_die": split[-1]["r_die"], "split_r_plate": split[-1]["r_plate"],
        "split_time_to_throttle": split[-1]["time_to_throttle"], "split_die_drop": split[-1]["die_drop"],
        "split_chatters": split[-1]["chatters"], "split_switches_per_min": split[-1]["switches_per_min"],
        "split_mean_low": min(r["mean_power_share"] for r in split),
        "split_mean_high": max(r["mean_power_share"] for r in split),
        "split_share_low": min(r["throttled_share"] for r in split),
        "split_share_high": max(r["throttled_share"] for r in split),
        "band": throttle_hi - throttle_lo,
        "grid_all_mean_low": min(c["mean_power_share"] for c in throttling),
        "grid_all_mean_high": max(c["mean_power_share"] for c in throttling),
        # the split crossed with the throttle's depth: every (r_die, depth) cell's mean power and the die's peak
        "split_all_mean_low": min(c["mean_power_share"] for r in split for c in r["by_share"]),
        "split_all_mean_high": max(c["mean_power_share"] for r in split for c in r["by_share"]),
        "split_die_peak_used": split[-1]["die_peak"],
        "split_die_peak": max(c["die_peak"] for r in split for c in r["by_share"]),
        "split_die_peak_r_die": max(split, key=lambda r: max(c["die_peak"] for c in r["by_share"]))["r_die"],
        "split_die_peak_share": max((c for r in split for c in r["by_share"]), key=lambda c: c["die_peak"])["share"],
        # the fault temperature swept at the assumed R: the mean power's range
        "fault_low": faults[0], "fault_high": faults[-1],
        "fault_mean_at_low": next(r for r in r_rows if r["assumed"])["by_fault"][0]["mean_power_share"],
        "fault_mean_at_high": next(r for r in r_rows if r["assumed"])["by_fault"][-1]["mean_power_share"],
        "free_cooling_approach_low": fac.approaches[0],
        # pump flow lost (left out, bounded on the page): no heat leaves the lump, it warms at P/C from T_nominal
        "no_flow_rate": gpu_tdp / c_th, "no_flow_time": (throttle_hi - gpu.t_nominal) * c_th / gpu_tdp,
    }
    # at the headline's throttle depth only: crossed with the depth the split moves it more (where the
    # controller chatters the mean is (TDP + P_thr)/2), which the page shows; the bound below holds throughout
    check(summary["split_mean_high"] - summary["split_mean_low"]
          < summary["grid_mean_high"] - summary["grid_mean_low"],
          "at the headline's throttle depth, the die-to-plate split moves the mean power less than the controller's"
          " assumptions do")
    # the bound: over a long run the mean power is the mean heat out, (mean die T − T_c)/R, and the die's mean
    # stays below T_hi in every setting swept, so none averages more than (T_hi − T_c)/R
    check(all(c["mean_power_share"] <= cont.share for r in split for c in r["by_share"])
          and all(c["mean_power_share"] <= cont.share for r in grid for c in r["cells"]),
          "no throttle depth, release threshold or die-to-plate split swept averages more than the power the plate "
          "carries continuously, (T_hi − T_c)/R")
    problems = worked_problems(racks, flows, gpu, gpu_tdp, coolant_fault, r_th, c_th, throttle_hi, throttle_lo,
                               coolant_rise, water_cp, water_density, loop_pressure_drop, pump_efficiency)
    node = racks.node
    series = figure_series(run, air, steps, racks.h100, nvl72_rack_power, air_cp, air_density)
    return Exhibit(summary=summary, series=series,
                   table=flow_table(racks, flows, coolant_rise, loop_pressure_drop, pump_efficiency),
                   animation=animation_plan(run, racks, flows, coolant_rise, coolant_supply, air, chips),
                   problems=problems,
                   records={"r_sweep": r_rows, "c_sweep": c_rows, "two_node": split, "throttle_grid": grid,
                            "chips": chips, "w_classes": fac.rows, "rack_split": [
                       {"part": "GPUs", "power": node["gpu_power"]}, {"part": "CPUs", "power": node["cpu_power"]},
                       {"part": "rest of the node", "power": node["other_power"]}]})


__all__ = ["CFM", "LITRE_PER_MIN", "MAX_STEPS", "mass_flow", "volume_flow", "airflow_per_watt", "pump_power",
           "steady_temperature", "cycle_times", "time_to_reach", "simulate_gpu", "simulate_two_node",
           "liquid_cooling"]
