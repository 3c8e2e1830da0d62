"""liquid-cooling: published inputs, the flow formula against a hand-worked case,
units, the energy balance of the GPU model, and the throttle's thresholds."""

from __future__ import annotations

import math

import numpy as np
import pytest

from models import liquid_cooling as co
from models.constants import CONSTANTS
from models.exhibit import ClaimError, ParamError

SCENE = "liquid-cooling"


@pytest.fixture(scope="module")
def data(model_output):
    return model_output(SCENE)[0]


@pytest.fixture(scope="module")
def params(scene_params):
    return dict(scene_params(SCENE))


# --- published inputs ------------------------------------------------------------------
def test_h100_rack_is_four_dgx_at_their_maximum(data, params):
    # DGX H100 User Guide: 10.2 kW max per system; DGX SuperPOD data-centre design: four systems per rack
    assert params["node_max_power"] == 10.2e3 and params["nodes_per_rack"] == 4
    assert params["gpu_tdp"] == 700  # H100 SXM datasheet
    s = data["summary"]
    assert s["h100_rack_power"] == pytest.approx(40.8e3)
    assert s["node_gpu_power"] + s["node_cpu_power"] + s["node_other_power"] == pytest.approx(10.2e3)


def test_fluid_properties_are_the_cited_values(params):
    # NIST WebBook (IAPWS-95), water at 25 °C and 1 atm: cp 4.1813 J/(g·K), ρ 997.05 kg/m³
    assert params["water_cp"] == pytest.approx(4181.3) and params["water_density"] * 1e3 == pytest.approx(997.05)
    # ASHRAE Fundamentals ch. 1: standard air 1.204 kg/m³ at 20 °C; cp 1.006 kJ/(kg·K)
    assert params["air_density"] == pytest.approx(1.204) and params["air_cp"] == pytest.approx(1006)
    # PG25 is an estimate with its range in the note; the value sits inside it
    assert 3900 <= params["pg25_cp"] <= 3980 and 1.010 <= params["pg25_density"] <= 1.025
    assert "estimate" in CONSTANTS["pg25_cp"].label


# --- the flow formula, by hand -------------------------------------------------------
def test_hand_checked_flow_for_100_kw_at_10_k():
    # 100 kW of heat, water cp 4186 J/(kg·K), ΔT 10 K: ṁ = 100000 / 41860 = 2.3889 kg/s;
    # at ρ = 1000 kg/m³ that is 2.3889 L/s = 143.3 L/min
    m = co.mass_flow(100e3, 4186.0, 10.0)
    assert m == pytest.approx(2.38891543, rel=1e-8)
    v = co.volume_flow(m, 1000.0)
    assert v / co.LITRE_PER_MIN == pytest.approx(143.33, abs=0.01)


def test_hand_checked_air_per_kw():
    # 1 kW, air ρ 1.2 kg/m³, cp 1006, ΔT 10 K: 1000 / 12072 = 0.08284 m³/s = 175.5 CFM
    v = float(co.airflow_per_watt(1006.0, 1.2, 10.0)) * 1e3
    assert v == pytest.approx(0.082836, rel=1e-4)
    assert v / co.CFM == pytest.approx(175.5, abs=0.1)
    assert co.CFM == pytest.approx(4.719474e-4, rel=1e-6)  # 1 ft³/min in m³/s


def test_hand_checked_pump_power():
    # 2 L/s through 150 kPa at η 0.5: 0.002 × 150000 / 0.5 = 600 W
    assert co.pump_power(2e-3, 150e3, 0.5) == pytest.approx(600.0)


# --- units and balances in the model output ----------------------------------------
def test_units_and_energy_balance_of_the_flows(data, params):
    s, p = data["summary"], params
    # mass flow [kg/s] × cp [J/(kg·K)] × ΔT [K] = W: the flow carries exactly the liquid share of the heat
    assert s["water_mass_flow"] * p["water_cp"] * p["coolant_rise"] == pytest.approx(s["nvl72_liquid_heat"])
    assert s["pg25_mass_flow"] * p["pg25_cp"] * p["coolant_rise"] == pytest.approx(s["nvl72_liquid_heat"])
    # L/min from kg/s: / ρ [kg/m³] × 1000 L/m³ × 60 s/min
    assert s["water_flow_lpm"] == pytest.approx(s["water_mass_flow"] / p["water_density"] * 60)  # kg/L: L/s
    # CFM and m³/s agree
    assert s["air_nvl72_cfm"] * co.CFM == pytest.approx(s["air_nvl72_m3s"])
    assert s["nvl72_liquid_heat"] + s["nvl72_air_heat"] == pytest.approx(p["nvl72_rack_power"])
    # the table's columns carry the declared units
    cols = {c["name"]: c["unit"] for c in data["table"]["columns"]}
    assert cols["mass flow"] == "kg/s" and cols["pump power"] == "W" and cols["heat to liquid"] == "W"


def test_gpu_energy_balance(data):
    s = data["summary"]
    # ∫P dt = ΔE_stored + ∫heat out dt (discrete, forward Euler keeps it to rounding)
    assert s["energy_in"] == pytest.approx(s["energy_out"] + s["energy_stored"], rel=1e-12)
    assert abs(s["energy_balance_error"]) < 1e-6


def test_energy_balance_check_can_fail():
    # a wrong heat-out term (missing the 1/R) breaks the balance the test relies on
    sim = co.simulate_gpu(700.0, 420.0, 50.0, 0.06, 300.0, 87.0, 82.0, 60.0, 0.01, 3000)
    wrong = float(np.sum(sim["T"][:-1] - sim["coolant"]) * 0.01)
    assert abs(sim["energy_in"] - wrong - sim["energy_stored"]) > 1e3


# --- the throttle ------------------------------------------------------------------
def _sim(t0=60.0, coolant=50.0, steps=20000):
    return co.simulate_gpu(700.0, 420.0, coolant, 0.06, 300.0, 87.0, 82.0, t0, 0.01, steps)


def test_throttle_engages_at_the_threshold_and_releases_below_it():
    sim = _sim()
    T, thr = sim["T"], sim["throttled"]
    on = np.flatnonzero(np.diff(thr.astype(int)) == 1) + 1
    off = np.flatnonzero(np.diff(thr.astype(int)) == -1) + 1
    assert len(on) >= 3 and len(off) >= 3
    assert np.all(T[on] >= 87.0) and np.all(T[on - 1] < 87.0)  # engages on reaching T_hi, not before
    assert np.all(T[off] <= 82.0) and np.all(T[off - 1] > 82.0)  # releases on reaching T_lo, not before
    # between T_lo and T_hi the state depends on the direction: both states occur there (hysteresis)
    band = (T[:-1] > 82.5) & (T[:-1] < 86.5)
    assert thr[band].any() and (~thr[band]).any()
    assert np.all(sim["P"][thr] == 420.0) and np.all(sim["P"][~thr] == 700.0)


def test_no_throttle_when_the_coolant_is_cold():
    sim = _sim(coolant=35.0)
    assert not sim["throttled"].any() and sim["T"].max() < 87.0


def test_simulated_period_matches_closed_form():
    c = co.cycle_times(700.0, 420.0, 50.0, 0.06, 300.0, 87.0, 82.0)
    # hand: RC = 18 s; T∞ 92 and 75.2 °C: heat 18 ln(10/5) = 12.477 s, cool 18 ln(11.8/6.8) = 9.921 s
    assert c["heat"] == pytest.approx(18 * math.log(2), rel=1e-9)
    assert c["cool"] == pytest.approx(18 * math.log(11.8 / 6.8), rel=1e-9)
    sim = _sim(steps=30000)
    on = np.flatnonzero(np.diff(sim["throttled"].astype(int)) == 1) + 1
    assert np.mean(np.diff(on)[1:]) * 0.01 == pytest.approx(c["period"], abs=0.05)


def test_model_output_cycle(data):
    s = data["summary"]
    assert s["t_nominal"] < data["params"]["throttle_lo"] < data["params"]["throttle_hi"] < s["t_fault"]
    assert s["period_sim"] == pytest.approx(s["period"], abs=0.05)
    assert s["throttled_share_sim"] == pytest.approx(s["throttled_share_formula"], abs=0.01)


# --- parameters the model refuses -------------------------------------------------------
def test_unstable_step_is_refused(params):
    p = dict(params, dt=5.0)
    with pytest.raises(ParamError, match="dt"):
        co.liquid_cooling(**p)


def test_inverted_thresholds_are_refused(params):
    with pytest.raises(ParamError, match="throttle_lo"):
        co.liquid_cooling(**dict(params, throttle_lo=90.0))


def test_claim_fails_when_no_cycle(params):
    # a cold fault supply never reaches T_hi: the page's throttle claim must fail, not pass silently
    with pytest.raises(ClaimError):
        co.liquid_cooling(**dict(params, coolant_fault=40.0))


# --- the facility side, Blackwell silicon, continuous throttling ----------------------------
def test_rack_supply_is_facility_water_plus_the_cdu_approach(data, params):
    s = data["summary"]
    assert params["facility_supply"] == 32.0  # the W32 class's supply limit
    assert s["coolant_supply"] == pytest.approx(params["facility_supply"] + params["cdu_approach"])
    # the facility side carries the same liquid heat at its own rise
    assert s["facility_mass_flow"] * params["water_cp"] * params["facility_rise"] == pytest.approx(
        s["nvl72_liquid_heat"])
    rows = data["records"]["w_classes"]
    assert [r["w_class"] for r in rows] == ["W17", "W27", "W32", "W40", "W45"]
    free = [r["free_hours"] for r in rows]
    assert free == sorted(free) and free[0] < 0.75 < free[2] < 1.0  # warm water: far more chiller-free hours
    assert next(r for r in rows if r["assumed"])["free_hours"] == s["free_cooling_hours"]


def test_facility_water_cannot_leave_warmer_than_the_rack_return(params):
    with pytest.raises(ParamError, match="facility_rise"):
        co.liquid_cooling(**dict(params, facility_rise=14.0))  # 32 + 14 = 46 °C > the rack's 45 °C return


def test_blackwell_resistance_budget_by_hand(data):
    s = data["summary"]
    # (T_hi − T_supply)/TDP = (87 − 35)/P: 0.0743, 0.052, 0.0433 K/W
    assert s["r_budget_h100"] == pytest.approx(52 / 700)
    assert s["r_budget_b200"] == pytest.approx(0.052)
    assert s["r_budget_gb200"] == pytest.approx(52 / 1200)
    # at the H100's assumed 0.06 K/W: 35 + 60 = 95 °C and 35 + 72 = 107 °C; supplies 87 − 60 and 87 − 72
    assert s["b200_t_at_r"] == pytest.approx(95.0) and s["gb200_t_at_r"] == pytest.approx(107.0)
    assert s["b200_supply_at_r"] == pytest.approx(27.0) and s["gb200_supply_at_r"] == pytest.approx(15.0)
    # 72 GPUs at 1,200 W are 86.4 kW of the 120 kW rack: the rack's 1,667 W per GPU is not a TDP
    assert s["nvl72_gpu_tdp_total"] == pytest.approx(86.4e3) and s["nvl72_power_per_gpu"] > 1.3 * 1200


def test_coolant_rise_through_the_plate_by_hand(data, params):
    s = data["summary"]
    # the loop carries 0.85 × 120 kW = 102 kW at a 10 K rise; one of 72 GPUs gets 1/72 of that flow, so a GPU
    # of TDP P warms its water by P × 10 × 72 / 102,000 K, whatever c_p is: 7.06 K at 1,000 W, 8.47 K at 1,200 W
    liquid = params["nvl72_liquid_share"] * params["nvl72_rack_power"]
    per_w = params["coolant_rise"] * params["nvl72_gpus"] / liquid
    assert s["plate_rise_b200"] == pytest.approx(1000 * per_w) and s["plate_rise_b200"] == pytest.approx(7.06, abs=0.01)
    assert s["plate_rise_gb200"] == pytest.approx(1200 * per_w)
    assert s["plate_r"] == pytest.approx(per_w)
    # against the 52 K between the 35 °C supply and 87 °C: 13.6% of the B200's budget, 16.3% of the GB200's
    assert s["plate_share_b200"] == pytest.approx(1000 * per_w / 52)
    assert s["plate_share_gb200"] == pytest.approx(1200 * per_w / 52) and s["plate_share_gb200"] > 0.16
    # about 2 L/min per GPU: 2.44 kg/s of water over 72 GPUs
    assert s["plate_flow_lpm"] == pytest.approx(s["water_flow_lpm"] / 72)
    assert 1.9 < s["plate_flow_lpm"] < 2.2


def test_cold_water_for_the_gb200_sits_at_or_below_the_rooms_dew_point(data, params):
    s = data["summary"]
    assert CONSTANTS["ashrae_recommended_dew_point_max"].value == 15.0  # Table 2.1, recommended: up to 15 °C DP
    # the GB200 at R = 0.06 K/W needs 87 − 72 = 15 °C at the rack, 12 °C facility water: 0 K and 3 K below 15 °C
    assert s["gb200_rack_condenses"] and s["gb200_facility_condenses"]
    assert s["gb200_below_dew_point"] == pytest.approx(3.0)
    assert s["coolant_supply_over_dew_point"] == pytest.approx(35.0 - 15.0)
    # a room whose air could reach a 36 °C dew point would wet even the 35 °C supply: that claim must fail
    with pytest.raises(ClaimError, match="dew point"):
        co.liquid_cooling(**dict(params, room_dew_point=36.0))


def test_a_tdp_the_dgx_h100_cannot_supply_is_refused_by_name(params):
    # the rest of the node (10,200 − 8 × 700 − 2 × 350 = 3,900 W) is counted: a 1,000 W GPU needs
    # 8,000 + 700 + 3,900 = 12.6 kW > 10.2 kW, refused as a ParamError naming gpu_tdp, not a bare ValueError
    for tdp in (1000.0, 1200.0, 701.0):
        with pytest.raises(ParamError, match="gpu_tdp"):
            co.liquid_cooling(**dict(params, gpu_tdp=tdp))
    co.liquid_cooling(**dict(params, gpu_tdp=650.0))  # a power-capped H100 fits


def test_the_node_holds_no_gpu_hotter_than_the_h100(data, params):
    s = data["summary"]
    assert params["node_gpu_tdp"] == params["gpu_tdp"] == 700
    assert s["node_other_power"] == pytest.approx(3900.0)
    # (10,200 − 700 − 3,900)/8 = 700 W: no headroom above the H100's own TDP
    assert s["node_gpu_tdp_limit"] == pytest.approx(700.0)
    # eight 1,000 W B200s with the DGX H100's CPUs and rest: 12.6 kW, past 10.2 kW, within the DGX B200's 14.3 kW
    assert s["b200_in_h100_node_need"] == pytest.approx(12600.0)
    assert params["node_max_power"] < s["b200_in_h100_node_need"] <= params["dgx_b200_max_power"]


def test_rack_figure_derived_from_the_scalable_unit(data, params):
    # NVIDIA's RA: 1.2 MW per SU of 8 racks -> 150 kW per rack with networking; the 120 kW rack fits inside
    assert data["summary"]["su_power_per_rack"] == pytest.approx(150e3)
    assert params["nvl72_rack_power"] <= data["summary"]["su_power_per_rack"]


def test_continuous_throttling_by_hand(data):
    s = data["summary"]
    # (87 − 50) K / 0.06 K/W = 616.7 W, 88.1% of 700 W, above the hysteresis cycle's average
    assert s["continuous_power"] == pytest.approx(37 / 0.06)
    assert s["continuous_share"] == pytest.approx(37 / 0.06 / 700)
    assert s["avg_power_share"] < s["continuous_share"]
    assert s["continuous_gain"] == pytest.approx(s["continuous_share"] - s["avg_power_share"])


def test_a_resistance_the_throttle_cannot_hold_is_flagged(data, params):
    # at 0.10 K/W after the fault: 50 + 420 × 0.10 = 92 °C > 87 °C, so "100% throttled" still overheats
    rows = {round(r["r_th"], 3): r for r in data["records"]["r_sweep"]}
    for r in rows.values():
        expected = params["coolant_fault"] + r["r_th"] * params["gpu_tdp"] * params["throttled_share"]
        assert r["t_throttled_fault"] == pytest.approx(expected)
    if 0.1 in rows:
        assert rows[0.1]["t_throttled_fault"] == pytest.approx(92.0) and rows[0.1]["throttled_share"] == 1.0


# --- the thermal capacitance, swept --------------------------------------------------------
def test_time_to_first_throttle_by_hand(data):
    s = data["summary"]
    # from 35 + 700 × 0.06 = 77 °C towards 50 + 42 = 92 °C, reaching 87 °C: RC ln(15/5) = 18 ln 3 = 19.775 s
    assert s["time_to_throttle"] == pytest.approx(18 * math.log(3), rel=1e-9)
    # the simulation engages within one Euler step of the exact crossing
    assert abs(s["time_to_throttle_sim"] - s["time_to_throttle"]) <= 0.02
    assert co.time_to_reach(77.0, 87.0, 92.0, 18.0) == pytest.approx(19.7750, abs=1e-4)
    assert co.time_to_reach(77.0, 87.0, 85.0, 18.0) == math.inf  # settles below the threshold: never throttles


def test_capacitance_moves_the_times_not_the_share(data, params):
    rows = data["records"]["c_sweep"]
    assert [r["c_th"] for r in rows] == sorted(set(params["c_sweep"]) | {params["c_th"]})
    assert [r for r in rows if r["assumed"]][0]["c_th"] == params["c_th"] == 300.0
    used = next(r for r in rows if r["assumed"])
    for r in rows:
        k = r["c_th"] / used["c_th"]
        # every time is RC × a log of temperatures: in proportion to C
        assert r["time_to_throttle"] == pytest.approx(k * used["time_to_throttle"], rel=1e-12)
        assert r["period"] == pytest.approx(k * used["period"], rel=1e-12)
        # the share is a ratio of two such times: independent of C
        assert r["throttled_share"] == pytest.approx(used["throttled_share"], rel=1e-12)
    # the ends of the range, by hand: 150 J/K -> 9 s × ln 3, 600 J/K -> 36 s × ln 3
    s = data["summary"]
    assert s["time_to_throttle_low"] == pytest.approx(9 * math.log(3)) and s["c_low"] == 150.0
    assert s["time_to_throttle_high"] == pytest.approx(36 * math.log(3)) and s["c_high"] == 600.0


def test_a_smaller_capacitance_simulates_the_same_share(params):
    # an independent run at half the capacitance: the simulated share stays, the period halves
    base = co.liquid_cooling(**params).summary
    half = co.liquid_cooling(**dict(params, c_th=150.0)).summary
    assert half["throttled_share_sim"] == pytest.approx(base["throttled_share_sim"], abs=0.01)
    assert half["period_sim"] == pytest.approx(base["period_sim"] / 2, abs=0.05)


def test_blackwell_tdp_against_the_dgx_b200_maximum(data, params):
    # DGX B200 guide: 14.3 kW max; 8 × 1,000 W = 8 kW is 55.9%, beside 8 × 700 W of 10.2 kW = 54.9% for the H100
    s = data["summary"]
    assert params["dgx_b200_max_power"] == 14.3e3 and params["dgx_b200_gpus"] == 8
    assert s["b200_node_gpu_share"] == pytest.approx(8000 / 14300)
    assert abs(s["b200_node_gpu_share"] - s["node_gpu_share"]) < 0.05


def test_animation_marks_which_chips_throttle(data):
    chips = data["animation"]["chips"]
    # at the assumed 0.06 K/W and the 35 °C supply: 77, 95 and 107 °C against the 87 °C threshold
    assert [c["throttles"] for c in chips] == [False, True, True]
    assert [c["t_at_r"] for c in chips] == pytest.approx([77.0, 95.0, 107.0])


# --- the controller's assumptions, swept ---------------------------------------------------
def test_throttle_grid_by_hand(data, params):
    grid = {r["share"]: {c["throttle_lo"]: c for c in r["cells"]} for r in data["records"]["throttle_grid"]}
    used = grid[params["throttled_share"]][params["throttle_lo"]]
    assert used["assumed"] and used["throttled_share"] == pytest.approx(data["summary"]["throttled_share_formula"])
    # 50% of TDP at T_lo = 80 °C: hot T∞ = 50 + 42 = 92, throttled T∞ = 50 + 21 = 71 °C;
    # heat 18 ln(12/5), cool 18 ln(16/9): share = ln(16/9)/(ln(12/5) + ln(16/9))
    heat, cool = math.log(12 / 5), math.log(16 / 9)
    c = grid[0.5][80.0]
    assert c["throttled_share"] == pytest.approx(cool / (heat + cool), rel=1e-12)
    assert c["mean_power_share"] == pytest.approx((heat + 0.5 * cool) / (heat + cool), rel=1e-12)
    # 80% of TDP settles at 50 + 33.6 = 83.6 °C: above T_lo = 82, it never releases, below T_hi it holds
    stuck = grid[0.8][82.0]
    assert not stuck["cycles"] and stuck["throttled_share"] == 1.0 and stuck["mean_power_share"] == 0.8
    assert not stuck["overheats"]
    # a deeper throttle: less time throttled, at every T_lo where both cycle
    for lo in grid[0.4]:
        assert grid[0.4][lo]["throttled_share"] < grid[0.6][lo]["throttled_share"]


def test_dry_cooler_approach_sweep(data, params):
    rows = {r["w_class"]: r for r in data["records"]["w_classes"]}
    w32 = rows["W32"]["by_approach"]
    assert [k["approach"] for k in w32] == sorted(set(params["dry_cooler_approach_sweep"]) | {4.0})
    used = next(k for k in w32 if k["assumed"])
    assert used["approach"] == params["dry_cooler_approach"]
    assert used["free_hours"] == pytest.approx(data["summary"]["free_cooling_hours"])
    # a wider approach needs colder air: never more hours, and strictly fewer where the year has such hours
    for r in rows.values():
        hours = [k["free_hours"] for k in r["by_approach"]]
        assert hours == sorted(hours, reverse=True)
    assert w32[-1]["free_hours"] < w32[0]["free_hours"]
    assert data["summary"]["free_cooling_hours_worst"] == pytest.approx(w32[-1]["free_hours"])


# --- the two-node split -------------------------------------------------------------------
def test_two_node_split_throttles_sooner_by_the_plates_share_of_r(data, params):
    # massless die on a plate holding all of C: the plate climbs 15 K towards a point 5 K past its own
    # threshold whatever the split, so the time is (R − r_die)·C·ln 3: 0.02·300·ln 3 = 6.59 s at r_die = 0.04
    rows = data["records"]["two_node"]
    assert rows[0]["r_die"] == 0.0 and rows[0]["lump"]
    for r in rows:
        assert r["time_to_throttle"] == pytest.approx(r["r_plate"] * params["c_th"] * math.log(3), rel=1e-9)
        assert abs(r["time_to_throttle_sim"] - r["time_to_throttle"]) <= 2 * params["dt"]
    assert data["summary"]["split_time_to_throttle"] == pytest.approx(6 * math.log(3), rel=1e-9)
    assert rows[0]["time_to_throttle_sim"] == pytest.approx(data["summary"]["time_to_throttle_sim"], abs=1e-9)


def test_two_node_split_chatters_past_the_band_and_keeps_the_mean_power(data):
    # a throttle to 60% drops the die by 280 W · r_die: 11.2 K at 0.04 K/W, past the 5 K band
    s = data["summary"]
    assert s["split_die_drop"] == pytest.approx(280 * 0.04) and s["split_chatters"]
    rows = data["records"]["two_node"]
    assert [r["chatters"] for r in rows] == [280 * r["r_die"] > 5 for r in rows]
    assert rows[-1]["switches_per_min"] > 100 * rows[0]["switches_per_min"]  # not a cycle: every step or two
    # chattering every other step is a 50% duty: mean power (1 + 0.6)/2 = 80% of TDP
    assert rows[-1]["mean_power_share"] == pytest.approx(0.8, abs=0.002)
    assert s["split_mean_high"] - s["split_mean_low"] < s["grid_mean_high"] - s["grid_mean_low"]


def test_two_node_with_no_die_resistance_is_the_lump():
    tc = np.where(np.arange(3000) < 500, 35.0, 50.0)
    a = co.simulate_gpu(700.0, 420.0, tc, 0.06, 300.0, 87.0, 82.0, 35.0 + 700 * 0.06, 0.01, 3000)
    b = co.simulate_two_node(700.0, 420.0, tc, 0.0, 0.06, 300.0, 87.0, 82.0, 0.01, 3000)
    assert np.array_equal(a["P"], b["P"]) and np.allclose(a["T"], b["plate"], rtol=0, atol=1e-12)


def test_lost_pump_flow_bound(data):
    # no heat out: 700 W into 300 J/K is 2.33 K/s, and the 10 K from 77 °C to 87 °C take 30/7 = 4.29 s
    s = data["summary"]
    assert s["no_flow_rate"] == pytest.approx(7 / 3) and s["no_flow_time"] == pytest.approx(30 / 7)
    assert s["no_flow_time"] < s["time_to_throttle"]


# --- review 18c: the split crossed with the throttle's depth, the bound, the fault swept -------------
def test_split_crossed_with_depth_chatters_to_the_average_and_overshoots_by_hand(data):
    # at r_die = 0.04 the die chatters: half the steps at TDP, half at s·TDP, so the mean is (1 + s)/2; the plate
    # sits at 50 + 700(1 + s)/2 × 0.02 and the die, read at full power, at that + 700 × 0.04 = 78 + 7(1 + s) °C
    row = next(r for r in data["records"]["two_node"] if r["r_die"] == pytest.approx(0.04))
    cells = {round(c["share"], 2): c for c in row["by_share"]}
    for s in (0.4, 0.5, 0.6, 0.7):
        assert cells[s]["mean_power_share"] == pytest.approx((1 + s) / 2, abs=0.002)
        assert cells[s]["die_peak"] == pytest.approx(78 + 7 * (1 + s), abs=0.02)
    assert cells[0.6]["die_peak"] == pytest.approx(89.2, abs=0.02) and cells[0.6]["die_peak"] > 87.0
    s = data["summary"]
    assert s["split_all_mean_low"] == pytest.approx(0.7, abs=0.002)
    assert s["split_die_peak"] == pytest.approx(89.9, abs=0.02)
    assert s["split_die_peak_used"] == pytest.approx(89.2, abs=0.02)  # the headline depth, 60%
    # the one lump never runs past T_hi by more than one Euler step's rise
    assert all(c["die_peak"] < 87.01 for c in data["records"]["two_node"][0]["by_share"])


def test_no_setting_averages_more_than_the_continuous_bound(data):
    # (87 − 50)/0.06 = 616.7 W = 88.1% of TDP: every split, depth and release threshold stays at or below it
    s = data["summary"]
    assert s["continuous_share"] == pytest.approx(37 / 0.06 / 700)
    split = [c["mean_power_share"] for r in data["records"]["two_node"] for c in r["by_share"]]
    grid = [c["mean_power_share"] for r in data["records"]["throttle_grid"] for c in r["cells"]]
    assert max(split + grid) <= s["continuous_share"]


def test_takeaway_range_counts_the_stays_throttled_cells(data):
    # throttled to 70%, the die settles at 50 + 0.7 × 42 = 79.4 °C, above T_lo = 78 °C: it stays at 70% of TDP
    s = data["summary"]
    assert s["grid_all_mean_low"] == pytest.approx(0.7)
    assert s["grid_all_mean_low"] < s["grid_mean_low"] and s["grid_all_mean_high"] == s["grid_mean_high"]


def test_mean_power_against_the_fault_temperature_by_hand(data):
    # R = 0.06, fault 55 °C: T_full = 97, T_thr = 80.2; heat ln(15/10), cool ln(6.8/1.8), both × RC
    heat, cool = math.log(15 / 10), math.log(6.8 / 1.8)
    expected = (heat + 0.6 * cool) / (heat + cool)
    row = next(r for r in data["records"]["r_sweep"] if r["assumed"])
    by = {f["fault"]: f for f in row["by_fault"]}
    assert by[55.0]["mean_power_share"] == pytest.approx(expected, rel=1e-9)
    assert by[50.0]["mean_power_share"] == pytest.approx(data["summary"]["throttled_share_formula"] * 0.6
                                                         + (1 - data["summary"]["throttled_share_formula"]), rel=1e-9)
    shares = [f["mean_power_share"] for f in row["by_fault"]]
    assert all(a > b for a, b in zip(shares, shares[1:], strict=False))  # warmer fault, less power
    # R = 0.10 throttled to 420 W at 46 °C settles at 88 °C > 87 °C: flagged as overheating
    hot = next(r for r in data["records"]["r_sweep"] if r["r_th"] == pytest.approx(0.1))
    assert hot["by_fault"][0]["overheats"]


def test_chiller_free_hours_range_over_the_approaches(data):
    s = data["summary"]
    assert s["free_cooling_approach_low"] == 4.0 and s["dry_cooler_approach_worst"] == 10.0
    assert s["free_cooling_hours_worst"] < s["free_cooling_hours"]


def test_b200_fault_at_its_budget_by_hand(data, params):
    """The same 50 °C fault for a B200 at R = 52 K / 1,000 W: the die sits at T_hi (87 °C) at the normal supply,
    full power heads for 50 + 52 = 102 °C, throttled (60%) for 50 + 31.2 = 81.2 °C, just below T_lo (82 °C)."""
    s = data["summary"]
    assert params["throttled_share"] == pytest.approx(0.6) and params["coolant_fault"] == pytest.approx(50.0)
    heat, cool = math.log((102 - 82) / (102 - 87)), math.log((87 - 81.2) / (82 - 81.2))  # in units of RC
    assert s["b200_fault_cycles"]
    assert s["b200_fault_throttled_share"] == pytest.approx(cool / (heat + cool))
    assert s["b200_fault_mean_share"] == pytest.approx((heat + 0.6 * cool) / (heat + cool))
    assert s["b200_fault_bound"] == pytest.approx(37 / 52)
    assert s["b200_fault_mean_share"] < s["b200_fault_bound"] < s["continuous_share"]
