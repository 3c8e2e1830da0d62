"""Tests for models/ib_vs_roce.py: PFC headroom against the vendors' formulas and as a switch reserves it,
credits, both fabrics' congestion control, the flow-control simulation.

Scenario values come from the catalogue (fixtures in tests/conftest.py); explicit
parameters appear only in hand-checked cases, named as such."""

from __future__ import annotations

import math

import numpy as np
import pytest

from models import ib_vs_roce as m
from models.constants import CONSTANTS, const
from models.exhibit import ClaimError, ParamError, claims_collected
from models.lib.pfc import pfc_headroom
from pipeline.jsonio import to_json

SCENE = "ib-vs-roce"
T_PROP = const("fibre_delay_per_m")
T_RESP = const("mlx5_pfc_fixed_delay")


@pytest.fixture(scope="module")
def data(model_output):
    return model_output(SCENE)[0]


@pytest.fixture(scope="module")
def params(scene_params):
    return scene_params(SCENE)


def rows(data) -> dict[str, dict]:
    """The numbers table as {scheme: {column: value}}."""
    t = data["table"]
    names = [c["name"] for c in t["columns"]]
    return {r[0]: dict(zip(names, r)) for r in t["rows"]}


# --- the headroom formulas against published values ----------------------------------
def test_cable_term_matches_cisco_white_paper():
    # Cisco, "Priority Flow Control: Build Reliable Layer 2 Infrastructure" (C11-542809),
    # Distance Limitations: 513 ns per 100 m of single-mode fibre; at 10 Gb/s the sender
    # puts 5130 bits = 641 bytes on 100 m (and 476 ns / 595 bytes for twinax copper).
    assert float(m.cable_bytes(100, 10e9 / 8, T_PROP)) == pytest.approx(641, abs=0.5)
    assert float(m.cable_bytes(100, 10e9 / 8, 4.76e-9)) == pytest.approx(595, abs=0.5)
    assert CONSTANTS["fibre_delay_per_m"].source == "cisco-pfc-whitepaper"


def test_hand_checked_case_mlx5_driver_formula():
    # drivers/net/ethernet/mellanox/mlx5/core/en/port_buffer.c, calculate_xoff():
    # (301 + 216*len/100) * speed_mbps/1000 + 272*mtu/100, speed floored at 40 Gb/s.
    # Default cable 7 m, 100 Gb/s, MTU 1500: (301 + 15) * 100 + 4080 = 35,680 B
    assert m.mlx5_xoff(7, 100, 1500) == 35680
    assert m.mlx5_xoff(7, 10, 1500) == m.mlx5_xoff(7, 40, 1500)  # the 40 Gb/s floor


def test_response_constant_is_the_drivers_fixed_term():
    # 301 bytes per Gb/s of speed is 301 B / (0.125 B/ns) of line-rate traffic = 2.408 us
    assert T_RESP == pytest.approx(2.408e-6)
    assert T_RESP * 100e9 / 8 == pytest.approx(301 * 100)


@pytest.mark.parametrize("gbps", [40, 100, 200, 400, 800])
def test_wire_headroom_never_exceeds_the_vendor_formula(gbps):
    # the driver formula has the same form with margins (8.64 ns/m and 2.72 MTU): with the
    # same fixed response allowance, the bare physics must come out below it at any length
    rate = gbps * 1e9 / 8
    for length in (0, 1, 7, 30, 100, 300, 1000, 5000):
        for mtu in (1500, 4096, 9216):
            h = float(pfc_headroom(length, rate, mtu, T_PROP, T_RESP))
            assert h <= m.mlx5_xoff(length, gbps, mtu) + 1


def test_hand_checked_case_sonic_spectrum_headroom():
    # SONiC cfgmgr/buffer_headroom_mellanox.lua, step by step, for a 400G port (port_speed
    # 400000 Mb/s), 100 m, MTU 4096, Spectrum-2/3 ASIC table (cell 144 B, mac_phy_delay 0.8 KB,
    # pipeline_latency 18 KB), peer response 905 pause quanta, small_packet_percentage 100,
    # speed of light in the cable 198,000,000 m/s as the script has it.
    worst = 144 / 64  # cell above 2 x 64 B
    occupancy = (100 - 100 + 100 * worst) / 100
    on_cable = 2 * 100 * 400000 * 1e9 / 198e6 / (8 * 1024)
    prop = 4096 + on_cable + 0 + 0.8 * 1024 + 905 * 512 / 8
    xoff = math.ceil((4096 + prop * occupancy) / 1024) * 1024
    xon = math.ceil(18 * 1024 / 1024) * 1024
    size = math.ceil((xoff + xon) / 1024) * 1024
    assert size == 275456
    got = m.switch_headroom(100, 50e9, 4096, cell_size=144, small_packet_share=1.0, fibre_speed=198e6,
                            mac_phy_delay=0.8 * 1024, peer_response=905 * 512 / 8,
                            pipeline_latency=18 * 1024, lanes_8=False)
    assert float(got) == size
    # the script's 8-lane branch (a 400G Spectrum-3 port): pipeline_latency * 2 - 1024, plus one port MTU
    xon_8 = math.ceil((2 * 18 * 1024 - 1024) / 1024) * 1024
    size_8 = math.ceil((xoff + xon_8 + 4096) / 1024) * 1024
    assert size_8 == 296960
    got_8 = m.switch_headroom(100, 50e9, 4096, cell_size=144, small_packet_share=1.0, fibre_speed=198e6,
                              mac_phy_delay=0.8 * 1024, peer_response=905 * 512 / 8, pipeline_latency=18 * 1024)
    assert float(got_8) == size_8  # 400 Gb/s is an 8-lane port by default


def test_page_reservation_is_the_8_lane_form(data):
    # 100 m with Cisco's 513 ns/100 m fibre: xoff 259,072 B (by the script's arithmetic), then the 8-lane
    # xon 35,840 and one MTU 4,096: 299,008 B; the 4-lane form 259,072 + 18,432 = 277,504
    s = data["summary"]
    assert s["switch_reserve"] == 259072 + 35840 + 4096
    assert s["switch_reserve_4_lane"] == 259072 + 18432
    assert s["switch_reserve_sonic_fibre"] == 296960  # SONiC's own 198,000 km/s, as hand-checked above
    assert m.eight_lane(400e9 / 8) and not m.eight_lane(200e9 / 8) and not m.eight_lane(100e9 / 8)


def test_peer_response_follows_the_port_speed():
    # SONiC cfgmgr/buffer_headroom_mellanox.lua, pause_quanta_per_speed (IEEE 802.3 Annex 31B.3.7):
    # 394 quanta at 100 Gb/s, 453 at 200, 905 at 400 (and 800); one quantum is 512 bit times = 64 bytes
    G = 1e9 / 8
    assert m.peer_response_bytes(100 * G) == 394 * 64
    assert m.peer_response_bytes(200 * G) == 453 * 64
    assert m.peer_response_bytes(400 * G) == 905 * 64
    assert m.peer_response_bytes(800 * G) == 905 * 64
    assert m.peer_response_bytes(150 * G) == 453 * 64  # between two speeds: the faster one's allowance
    assert m.peer_response_bytes(25 * G) == 394 * 64


@pytest.mark.parametrize("gbps, quanta", [(100, 394), (200, 453), (400, 905)])
def test_hand_checked_switch_headroom_at_each_speed(gbps, quanta):
    # the SONiC script's arithmetic by hand, 300 m, lossless and port MTU 4096, 144 B cells, all
    # small packets; speed in Mb/s as the script takes it; the peer's quanta for this speed
    speed_mbps = gbps * 1000
    on_cable = 2 * 300 * speed_mbps * 1e9 / 198e6 / (8 * 1024)
    prop = 4096 + on_cable + 0.8 * 1024 + quanta * 512 / 8
    xoff = math.ceil((4096 + prop * 144 / 64) / 1024) * 1024
    if gbps == 400:  # eight lanes: the doubled pipeline term less 1 KiB, and one port MTU
        size = math.ceil((xoff + 2 * 18 * 1024 - 1024 + 4096) / 1024) * 1024
    else:
        size = math.ceil((xoff + 18 * 1024) / 1024) * 1024
    got = m.switch_headroom(300, gbps * 1e9 / 8, 4096, cell_size=144, small_packet_share=1.0, fibre_speed=198e6,
                            mac_phy_delay=0.8 * 1024, pipeline_latency=18 * 1024)
    assert float(got) == size


def test_reservation_table_at_three_speeds(data, params):
    s = data["summary"]
    assert s["switch_reserve_400g"] == s["switch_reserve"]  # the page's link is the 400 Gb/s row
    assert s["headroom_400g"] == pytest.approx(s["headroom"])
    assert s["switch_reserve_100g"] < s["switch_reserve_200g"] < s["switch_reserve_400g"]
    for g in ("100g", "200g", "400g"):  # each row's wire bytes stay within the NIC driver's
        assert s[f"headroom_{g}"] <= s[f"mlx5_xoff_{g}"]
    # the 64-byte worst case is what puts the switch above the wire bytes at this rate
    assert s["switch_reserve_no_small"] < s["headroom"] < s["switch_reserve"]


def test_sn4700_profile_is_near_the_no_small_packet_value(data):
    # SONiC's static SN4700 table (400 GbE, 40 m) against its dynamic calculator on the same cable, by hand:
    # all-64-byte default 230,400 B and no small packets 126,976 B, the profile's 133,120 B near the latter
    s = data["summary"]
    assert s["profile_cable"] == 40.0 and s["profile_reserve"] == 133120
    assert s["profile_cable_reserve"] == 230400 and s["profile_cable_reserve_no_small"] == 126976
    assert abs(s["profile_reserve"] - s["profile_cable_reserve_no_small"]) < 0.1 * s["profile_reserve"]


def test_congestion_control_over_cable_length(data, params):
    s, series = data["summary"], data["series"]
    R = params["link_rate"]
    L = list(series["cc_cable_length"])
    i = L.index(params["cable_length"])
    # the sweep's seeds at the page's cable include the page's run (same seed, same parameters): its value
    # lies in the band, and the mean lies inside the band at every length
    assert s["cc_seeds"] == params["other_seeds"] + 1 > 1
    for key in ("credit_cc", "pfc_dcqcn"):
        lo, hi, mean = (np.asarray(series[f"{key}_busy{e}"]) for e in ("_lo", "_hi", ""))
        assert lo[i] <= s[f"{key}_x_throughput"] / R <= hi[i]
        # the page quotes the seeds' idle mean and range on its cable, not the page's seed alone
        assert s[f"{key}_idle"] == pytest.approx(1 - mean[i])
        assert s[f"{key}_idle_lo"] == pytest.approx(1 - hi[i]) and s[f"{key}_idle_hi"] == pytest.approx(1 - lo[i])
        assert s[f"{key}_idle_lo"] <= 1 - s[f"{key}_x_throughput"] / R <= s[f"{key}_idle_hi"]
        assert s[f"{key}_victim_share_mean"] == pytest.approx(series[f"{key}_victim_share"][i])
        assert np.all(lo <= mean) and np.all(mean <= hi) and np.any(lo < hi)
        # averaged over the seeds, the loop's lag makes the bottleneck no busier on a longer cable
        assert np.all(np.diff(mean) <= 0.005)
    both = np.minimum(series["credit_cc_busy"], series["pfc_dcqcn_busy"])
    k = L.index(s["cc_busy_up_to"])
    assert np.all(both[:k + 1] >= s["busy_floor"]) and both[k + 1] < s["busy_floor"]
    assert s["cc_next_length"] == L[k + 1]
    # the loop lags with distance: on the longest cable each is less busy than on the shortest
    assert series["pfc_dcqcn_busy"][-1] < series["pfc_dcqcn_busy"][0]
    assert series["credit_cc_busy"][-1] < series["credit_cc_busy"][0]
    assert min(min(series["credit_cc_victim_share"]), min(series["pfc_dcqcn_victim_share"])) > 0.9
    assert data["problems"]["long_cable"] == s["cc_far_length"]


def test_a_long_cable_runs_and_says_where_the_claim_holds(params):
    # the page's worked problem's cable: the model runs (no claim stops it) and reports the same sweep
    out = m.lossless_transport(**{**params, "cable_length": 2000.0, "other_seeds": 0}).to_dict()
    assert out["summary"]["cc_busy_up_to"] < 2000.0
    assert out["summary"]["pfc_short_drops"] > 0


def test_cell_occupancy_worst_case_and_no_small_packets():
    assert m.cell_occupancy(144, 1.0) == pytest.approx(2.25)  # a 64 B packet fills a 144 B cell
    assert m.cell_occupancy(144, 0.0) == 1.0
    assert m.cell_occupancy(96, 1.0) == pytest.approx(2 * 96 / 97)  # the script's small-cell branch
    assert m.cell_occupancy(144, 0.5) == pytest.approx(1.625)


def test_switch_reservation_exceeds_the_wire_bound_at_every_length(data, params):
    s, series = data["summary"], data["series"]
    key = f"headroom_{params['link_rate'] * 8 / 1e9:g}g"
    assert np.all(np.asarray(series["switch_reserve"]) > np.asarray(series[key]))
    assert s["switch_reserve"] > s["headroom"] and s["switch_reserve_ratio"] > 1
    # the reservation is whole kilobytes (KiB), as the switch allocates it
    assert s["switch_reserve"] % 1024 == 0


def test_credits_for_line_rate_cover_the_round_trip():
    rate = const("ndr_port_rate")
    c = m.credits_for_line_rate(100, rate, 4096, T_PROP)
    assert (c - 1) * 4096 >= 2 * 100 * T_PROP * rate > (c - 2) * 4096


def test_hand_checked_credits_round_the_same_way_at_both_lengths(data):
    # round trip 2 x L x 5.13 ns/m x 50 GB/s, in 4096 B packets, rounded up, plus the packet in service:
    # 100 m: 51,300 B = 12.5 packets -> 13 + 1 = 14; 2 km: 1,026,000 B = 250.5 -> 251 + 1 = 252
    assert data["summary"]["credits_needed"] == 14
    assert data["problems"]["long_cable_credits"] == 252
    assert data["summary"]["credits"] >= 15  # the run's 7-slot cable (573 ns > 513 ns) needs one more


def test_whole_switch_headroom_is_a_spectrum3(data):
    # the reservation assumes Spectrum-3 cells and 8-lane 400G ports, so the whole switch is an SN4700-like
    # 32 x 400 GbE: 32 x 299,008 B = 9,568,256 B
    p = data["problems"]
    assert p["ports"] == 32 and p["switch_headroom_total"] == 32 * 299008
    # against the 64 MB shared buffer: 9,568,256 / 64e6 = 14.95%, twice that with two lossless priorities
    assert p["switch_headroom_buffer_share"] == pytest.approx(0.1495, abs=1e-4)
    assert p["switch_headroom_buffer_share_2"] == pytest.approx(2 * 0.1495, abs=2e-4)


def test_ecn_marking_ramp():
    p = m.ecn_mark_probability([0, 10, 20, 50, 80, 81], 20, 80, 0.2)
    np.testing.assert_allclose(p, [0, 0, 0, 0.1, 0.2, 1.0])


def test_ib_congestion_table_lowers_the_rate_with_the_index():
    r = m.ib_rate_limit(np.arange(0, 128), 0.05)
    assert r[0] == 1.0 and np.all(np.diff(r) < 0)
    assert float(m.ib_rate_limit(20, 0.05)) == pytest.approx(0.5)  # 20 x 0.05 = one packet time of gap


# --- the simulation --------------------------------------------------------------------
def test_no_drops_under_either_lossless_scheme(data):
    t = rows(data)
    for scheme in ("InfiniBand credits, CC off", "InfiniBand credits + FECN/BECN", "RoCE v2 PFC, CC off",
                   "RoCE v2 PFC + ECN/DCQCN"):
        assert t[scheme]["drops"] == 0, scheme
    s = data["summary"]
    # PFC really was exercised: it paused and used headroom
    assert s["pfc_pauses"] > 10 and s["pfc_max_headroom_used"] > 0
    assert s["pfc_max_headroom_used"] <= s["headroom"] + s["mtu"]
    # credits never let the ingress hold more than the credits handed out
    assert s["credit_max_ingress"] <= s["credits"] * s["mtu"]


def test_drops_when_headroom_below_the_formula(data):
    s = data["summary"]
    assert s["headroom_short"] < s["headroom"]
    assert s["pfc_short_drops"] > 0


@pytest.mark.parametrize("length", [10.0, 300.0, 1000.0])
def test_formula_headroom_suffices_at_other_cable_lengths(params, length):
    # the PFC run alone (the page's claims about congestion control are for its own cable):
    # the formula's headroom, in whole slots as the model rounds it, never drops; half of it does
    p = params
    slot = p["mtu"] / p["link_rate"]
    delay = max(1, math.ceil(length * p["prop_delay_per_m"] / slot - 1e-9))
    response = max(1, math.ceil(p["response_time"] / slot - 1e-9))
    h = float(pfc_headroom(length, p["link_rate"], p["mtu"], delay * slot / length, response * slot))
    h_pkts = math.ceil(h / p["mtu"])
    run = dict(n_direct=p["senders"] - 1, slots=int(150e-6 / slot), delay_slots=delay, response_slots=response,
               xoff_pkts=round(p["xoff"] / p["mtu"]), xon_pkts=round(p["xon"] / p["mtu"]), credits=1,
               congestor_rate=p["congestor_rate"], victim_rate=p["victim_rate"], cc="none", k_min_pkts=1,
               k_max_pkts=2, p_max=0.1, cnp_interval=1, dcqcn_g=0.1, rate_increase=0.1, increase_interval=1,
               min_rate=0.01, ib_threshold_pkts=1, ib_marking_rate=0, ccti_increase=1, ccti_limit=10,
               ccti_timer=1, cct_step=0.1, seed=p["seed"])
    enough = m.simulate("pfc", headroom_pkts=h_pkts, **run)
    short = m.simulate("pfc", headroom_pkts=h_pkts // 2, **run)
    assert enough["drops"] == 0 and enough["max_headroom_used"] <= h_pkts
    assert short["drops"] > 0


def test_like_with_like_congestion_control_off_and_on(data, params):
    s = data["summary"]
    R = params["link_rate"]
    t = rows(data)
    # congestion control off in both: the bottleneck runs at line rate, the victim stalls alike
    for scheme in ("InfiniBand credits, CC off", "RoCE v2 PFC, CC off"):
        assert t[scheme]["bottleneck throughput"] == pytest.approx(R, rel=0.02)
    assert s["pfc_victim_share"] < 0.7 and s["credit_victim_share"] < 0.7
    assert abs(s["pfc_victim_share"] - s["credit_victim_share"]) < 0.1
    # on in both: the senders slow down and the victim gets (nearly) its demand under both
    assert s["credit_cc_victim_share"] > 0.9 and s["pfc_dcqcn_victim_share"] > 0.9
    assert s["credit_cc_notices"] > 0 and s["pfc_dcqcn_notices"] > 0
    assert s["pfc_dcqcn_pauses"] < s["pfc_pauses"] / 5
    assert s["pfc_dcqcn_p99_congested"] < s["pfc_p99_congested"] / 5
    off = data["records"]["growing_latencies"]
    assert s["credit_cc_p99_congested"] < off["credit"]["p99_congested"] / 5
    # those growing latencies print as dashes in the table; the controlled runs' print
    for scheme, row in t.items():
        assert (row["p99 latency"] is None) == scheme.endswith(("CC off", "too small"))


def test_latency_with_cc_off_grows_with_the_run_and_settles_with_it_on(params):
    # measured over the second half like throughput: with CC off U's queue grows all run, so the p99 is
    # about proportional to the run's length (the page quotes none); with CC on it stays microseconds
    def p99s(sim_time):
        with claims_collected():
            out = m.lossless_transport(**{**params, "sim_time": sim_time, "other_seeds": 0}).to_dict()
        return rows(out), out["records"]["growing_latencies"]
    (r1, g1), (r2, g2) = p99s(params["sim_time"]), p99s(2 * params["sim_time"])
    for key in ("credit", "pfc"):
        assert g2[key]["p99_congested"] / g1[key]["p99_congested"] == pytest.approx(2, rel=0.1)
        assert g2[key]["p99_victim"] / g1[key]["p99_victim"] == pytest.approx(2, rel=0.1)
    for scheme in ("InfiniBand credits + FECN/BECN", "RoCE v2 PFC + ECN/DCQCN"):
        assert max(r1[scheme]["p99 latency"], r2[scheme]["p99 latency"]) < 10e-6


def test_ib_cc_that_never_marks_is_credit_flow_control_alone(params):
    # the same seed and a FECN threshold no queue reaches: FECN/BECN must change nothing
    common = dict(n_direct=3, slots=2000, delay_slots=7, response_slots=30, xoff_pkts=32, xon_pkts=30,
                  headroom_pkts=47, credits=79, congestor_rate=0.5, victim_rate=0.5, k_min_pkts=5,
                  k_max_pkts=20, p_max=0.2, cnp_interval=49, dcqcn_g=1 / 16, rate_increase=0.02,
                  increase_interval=61, min_rate=0.01, ib_marking_rate=0, ccti_increase=1, ccti_limit=127,
                  ccti_timer=50, cct_step=0.05, seed=3)
    off = m.simulate("credit", cc="none", ib_threshold_pkts=5, **common)
    never = m.simulate("credit", cc="ibcc", ib_threshold_pkts=10**6, **common)
    on = m.simulate("credit", cc="ibcc", ib_threshold_pkts=5, **common)
    assert never["notices"] == 0
    np.testing.assert_array_equal(never["q_ingress_up"], off["q_ingress_up"])
    # marking on: BECNs come back and the congested sender behind U is slowed below its demand
    assert on["notices"] > 0 and on["congestor_rate"].min() < 0.5


def test_seeded_determinism_and_seed_sensitivity(params):
    short = {**params, "sim_time": 100e-6, "other_seeds": 1}  # the sweep's other seeds follow `seed` too
    with claims_collected():  # a shorter run than the page's: its sentences need not hold, the bytes must repeat
        a = m.lossless_transport(**{**short, "seed": 11}).to_dict()
        b = m.lossless_transport(**{**short, "seed": 11}).to_dict()
        c = m.lossless_transport(**{**short, "seed": 12}).to_dict()
    assert to_json(a) == to_json(b)
    assert to_json(a) != to_json(c)


def test_bad_inputs_rejected(params):
    with pytest.raises(ParamError):
        m.lossless_transport(**{**params, "senders": 1})
    with pytest.raises(ParamError):
        m.lossless_transport(**{**params, "cable_length": float("nan")})
    with pytest.raises(ValueError):
        m.lossless_transport(**{**params, "xon": 200e3, "xoff": 100e3})
    with pytest.raises(ValueError):  # the time-stepped run is bounded whatever the parameters
        m.lossless_transport(**{**params, "mtu": 64.0, "sim_time": 4e-3})
    with pytest.raises(ValueError):
        m.simulate("lossy", n_direct=1, slots=10, delay_slots=1, response_slots=1, xoff_pkts=4,
                   xon_pkts=2, headroom_pkts=4, credits=8, congestor_rate=0.5, victim_rate=0.5,
                   cc="none", k_min_pkts=1, k_max_pkts=2, p_max=0.1, cnp_interval=1, dcqcn_g=0.1,
                   rate_increase=0.1, increase_interval=1, min_rate=0.01, ib_threshold_pkts=1,
                   ib_marking_rate=0, ccti_increase=1, ccti_limit=10, ccti_timer=1, cct_step=0.1, seed=0)


def test_a_claim_the_data_no_longer_supports_fails_the_build(params):
    # "give the port less headroom and the same burst overflows it" needs less headroom
    with pytest.raises(ClaimError, match="less headroom"):
        m.lossless_transport(**{**params, "short_headroom_fraction": 1.0, "sim_time": 100e-6, "other_seeds": 0})


def test_headroom_terms_add_up(data):
    s = data["summary"]
    assert s["headroom"] == pytest.approx(
        s["headroom_mtu_term"] + s["headroom_cable_term"] + s["headroom_response_term"])


# --- the scene -------------------------------------------------------------------------------
def test_scene_captions_quote_the_model(dry_run):
    from models.units import fmt_bytes, fmt_count, fmt_percent

    d, beats, _ = dry_run(SCENE)
    s = d["summary"]
    text = " ".join(b["caption"] for b in beats)
    for quoted in (fmt_bytes(s["headroom"]), fmt_bytes(s["switch_reserve"]), fmt_count(s["pfc_short_drops"]),
                   fmt_percent(s["pfc_victim_share"]), fmt_percent(s["credit_victim_share"]),
                   fmt_percent(s["credit_cc_victim_share"]), fmt_percent(s["pfc_dcqcn_victim_share"]),
                   fmt_count(s["credits"])):
        assert quoted in text
    assert "virtual lane" in text and "priority" in text
