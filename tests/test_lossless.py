"""Tests for models/lossless.py: PFC headroom, credits, the flow-control simulation."""

from __future__ import annotations

import math

import numpy as np
import pytest

from models import lossless as m
from models.constants import CONSTANTS, const
from pipeline.jsonio import to_json

R400 = const("ndr_port_rate")  # 400 Gb/s = 50 GB/s
T_PROP = const("fibre_delay_per_m")
T_RESP = const("mlx5_pfc_fixed_delay")
PARAMS = dict(link_rate=R400, prop_delay_per_m=T_PROP, response_time=T_RESP)


@pytest.fixture(scope="module")
def data():
    return m.lossless_transport(**PARAMS)


_json = to_json  # the pipeline's own serialisation: numpy converted, keys sorted


# --- the headroom formula against published values ----------------------------------
def test_cable_term_matches_cisco_white_paper():
    # Cisco, "Priority Flow Control: Build Reliable Layer 2 Infrastructure" (C11-542809),
    # Distance Limitations: 513 ns per 100 m of single-mode fibre; at 10 Gb/s the sender
    # puts 5130 bits = 641 bytes on 100 m (and 476 ns / 595 bytes for twinax copper).
    assert float(m.cable_bytes(100, 10e9 / 8, T_PROP)) == pytest.approx(641, abs=0.5)
    assert float(m.cable_bytes(100, 10e9 / 8, 4.76e-9)) == pytest.approx(595, abs=0.5)
    assert CONSTANTS["fibre_delay_per_m"].source == "cisco-pfc-whitepaper"


def test_mlx5_driver_formula_worked_value():
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
def test_headroom_never_exceeds_the_vendor_formula(gbps):
    # the driver formula has the same form with margins (8.64 ns/m and 2.72 MTU): with the
    # same fixed response allowance, the bare physics must come out below it at any length
    rate = gbps * 1e9 / 8
    for length in (0, 1, 7, 30, 100, 300, 1000, 5000):
        for mtu in (1500, 4096, 9216):
            h = float(m.pfc_headroom(length, rate, mtu, T_PROP, T_RESP))
            assert h <= m.mlx5_xoff(length, gbps, mtu) + 1


def test_headroom_terms_and_monotonicity():
    L = np.linspace(0, 2000, 50)
    h = m.pfc_headroom(L, R400, 4096, T_PROP, T_RESP)
    assert np.all(np.diff(h) > 0)
    # slope: each metre of cable adds a round trip's worth of line-rate bytes
    assert (h[-1] - h[0]) / (L[-1] - L[0]) == pytest.approx(2 * T_PROP * R400)
    # zero cable, zero response: just the two frames in transmission and the PAUSE
    assert float(m.pfc_headroom(0, R400, 4096, T_PROP, 0.0)) == 2 * 4096 + 64
    # linear in rate beyond the fixed MTU term
    h1 = float(m.pfc_headroom(100, R400, 4096, T_PROP, T_RESP)) - 2 * 4096 - 64
    h2 = float(m.pfc_headroom(100, 2 * R400, 4096, T_PROP, T_RESP)) - 2 * 4096 - 64
    assert h2 == pytest.approx(2 * h1)


def test_credits_for_line_rate_cover_the_round_trip():
    c = m.credits_for_line_rate(100, R400, 4096, T_PROP)
    assert (c - 1) * 4096 >= 2 * 100 * T_PROP * R400 > (c - 2) * 4096


def test_ecn_marking_ramp():
    p = m.ecn_mark_probability([0, 10, 20, 50, 80, 81], 20, 80, 0.2)
    np.testing.assert_allclose(p, [0, 0, 0, 0.1, 0.2, 1.0])


# --- the simulation --------------------------------------------------------------------
def test_no_drops_under_either_lossless_scheme(data):
    s = data["summary"]
    assert s["credit_drops"] == 0 and s["pfc_drops"] == 0 and s["pfc_dcqcn_drops"] == 0
    # PFC really was exercised: it paused, and used headroom, but not more than computed
    assert s["pfc_pauses"] > 10 and s["pfc_max_headroom_used"] > 0
    assert s["pfc_max_headroom_used"] <= s["headroom_sim"]
    # credits never let the ingress hold more than the credits it handed out
    assert s["credit_max_ingress"] <= s["credits"] * s["mtu"]


def test_drops_when_headroom_below_the_formula(data):
    s = data["summary"]
    assert s["headroom_short"] < s["headroom"]
    assert s["pfc_short_drops"] > 0


@pytest.mark.parametrize("length", [10.0, 300.0, 1000.0])
def test_formula_headroom_suffices_at_other_cable_lengths(length):
    d = m.lossless_transport(**PARAMS, cable_length=length, sim_time=150e-6)
    s = d["summary"]
    assert s["pfc_drops"] == 0 and s["pfc_max_headroom_used"] <= s["headroom_sim"]
    assert s["pfc_short_drops"] > 0


def test_head_of_line_blocking_and_dcqcn_relief(data):
    s = data["summary"]
    # the bottleneck runs at line rate under both lossless schemes
    assert s["pfc_x_throughput"] == pytest.approx(R400, rel=0.01)
    assert s["credit_x_throughput"] == pytest.approx(R400, rel=0.01)
    # the victim, bound for an idle port, loses about half its throughput to the pause/credit stall
    assert s["pfc_victim_share"] < 0.7 and s["credit_victim_share"] < 0.7
    # with DCQCN the senders slow down, pauses nearly vanish and the victim recovers
    assert s["pfc_dcqcn_pauses"] < s["pfc_pauses"] / 5
    assert s["pfc_dcqcn_victim_share"] > 0.9
    assert s["pfc_dcqcn_p99_congested"] < s["pfc_p99_congested"] / 5
    assert s["pfc_dcqcn_cnps"] > 0


def test_latency_percentiles_ordered(data):
    for key in ("credit", "pfc", "pfc_dcqcn", "pfc_short"):
        r = data["runs"][key]
        assert 0 < r["p50_congested"] <= r["p99_congested"] <= r["p999_congested"]
        assert 0 < r["p50_victim"] <= r["p99_victim"] <= r["p999_victim"]


def test_seeded_determinism_and_seed_sensitivity():
    a = m.lossless_transport(**PARAMS, sim_time=100e-6, seed=11)
    b = m.lossless_transport(**PARAMS, sim_time=100e-6, seed=11)
    c = m.lossless_transport(**PARAMS, sim_time=100e-6, seed=12)
    assert _json(a) == _json(b)
    assert _json(a) != _json(c)


def test_bad_inputs_rejected():
    with pytest.raises(ValueError):
        m.lossless_transport(**PARAMS, senders=1)
    with pytest.raises(ValueError):
        m.lossless_transport(**PARAMS, xon=200e3, xoff=100e3)
    with pytest.raises(ValueError):
        m.simulate("lossy", n_direct=1, slots=10, delay_slots=1, response_slots=1, xoff_pkts=4,
                   xon_pkts=2, headroom_pkts=4, credits=8, congestor_rate=0.5,
                   victim_rate=0.5, dcqcn=False, k_min_pkts=1, k_max_pkts=2, p_max=0.1,
                   cnp_interval=1, dcqcn_g=0.1, rate_increase=0.1, increase_interval=1,
                   min_rate=0.01, seed=0)


# --- the entry function's contract ----------------------------------------------------------
def test_table_contract(data):
    t = data["table"]
    assert isinstance(t["caption"], str) and t["caption"]
    units = {"B", "s", "B/s", "1", "%", "count", "text"}
    assert all(set(col) == {"name", "unit"} and col["unit"] in units for col in t["columns"])
    assert len(t["rows"]) == 4 and all(len(r) == len(t["columns"]) for r in t["rows"])
    for row in t["rows"]:
        for col, v in zip(t["columns"], row):
            assert isinstance(v, str) if col["unit"] == "text" else isinstance(v, (int, float))


def test_summary_is_flat_and_finite(data):
    for k, v in data["summary"].items():
        assert isinstance(v, (int, float)) and math.isfinite(v), k
    s = data["summary"]
    assert s["headroom"] == pytest.approx(
        s["headroom_mtu_term"] + s["headroom_cable_term"] + s["headroom_response_term"])


def test_deterministic(data):
    assert _json(m.lossless_transport(**PARAMS)) == _json(data)


# --- the figures and the scene -----------------------------------------------------------------
@pytest.mark.parametrize("theme", ["light", "dark"])
def test_figures_draw(data, theme):
    from figures.lossless import headroom_vs_cable, queues_and_victim
    from figures.theme import svg_bytes, themed

    for f in (queues_and_victim, headroom_vs_cable):
        with themed(theme):
            b = svg_bytes(f(data, theme))
        assert b.startswith(b"<?xml") and len(b) < 70_000


def test_scene_captions_quote_the_model(dry_run):
    from models.units import fmt_bytes, fmt_count, fmt_percent

    d, beats, _ = dry_run("ib-vs-roce")
    s = d["summary"]
    text = " ".join(b["caption"] for b in beats)
    assert fmt_bytes(s["headroom"]) in text
    assert fmt_count(s["pfc_short_drops"]) in text
    assert fmt_percent(s["pfc_victim_share"]) in text
    assert fmt_count(s["credits"]) in text
