"""Tests for models/incast.py (scene 08, incast and packet spraying), its figure and scene."""

from __future__ import annotations

import json
import math

import numpy as np
import pytest

from models import incast as m
from models.constants import CONSTANTS, SOURCES, const
from pipeline.jsonio import to_json

C = const("ndr_port_rate")  # 50 GB/s per direction
RTO = const("tcp_rto_min")  # 200 ms
PARAMS = dict(port_rate=C, rto=RTO, fan_in=[1, 4, 8, 16, 17, 32, 64], buffer_sweep=[0.5e6, 1e6])


_json = to_json  # the pipeline's own serialisation: numpy converted, keys sorted


@pytest.fixture(scope="module")
def data():
    return json.loads(_json(m.incast_spraying(**PARAMS)))


# --- constants ----------------------------------------------------------------------
def test_constants_and_sources():
    # Vasudevan et al., SIGCOMM 2009: stock TCP bounds its timer below by RTO_min = 200 ms
    assert RTO == pytest.approx(0.2)
    assert CONSTANTS["tcp_rto_min"].source == "vasudevan2009"
    for key in ("vasudevan2009", "dixit2013"):
        assert SOURCES[key].url.startswith("https://doi.org/")


def test_slot_is_one_packet_at_line_rate():
    assert m.slot_time(4096, C) == pytest.approx(4096 / 50e9)
    assert m.packets(262144, 4096) == 64 and m.packets(4097, 4096) == 2 and m.packets(1, 4096) == 1
    with pytest.raises(ValueError):
        m.slot_time(0, C)


# --- the analytic threshold against the simulation ---------------------------------------
@pytest.mark.parametrize("n,w,r", [(1, 16, 61), (2, 16, 61), (8, 16, 61), (16, 16, 61),
                                   (5, 8, 3), (12, 10, 4), (30, 4, 100), (7, 6, 6)])
def test_peak_queue_matches_analytic_without_buffer_limit(n, w, r):
    sim = m.simulate(n, 3 * w, w, buffer=10**6, rtt_slots=r, rto_slots=10**5, seed=1)
    assert sim["drops"] == 0
    assert sim["peak_queue"] == m.peak_queue(n, w, r)  # N*W - (min(W, R) - 1)


@pytest.mark.parametrize("buffer", [20, 61, 122, 244, 488])
def test_no_drops_at_threshold_drops_just_past_it(buffer):
    w, r = 16, 61
    n_star = m.drop_free_fan_in(buffer, w, r)
    assert m.peak_queue(n_star, w, r) <= buffer < m.peak_queue(n_star + 1, w, r)
    for n in range(1, n_star + 1):
        assert m.simulate(n, 64, w, buffer, r, 10**4, seed=3)["drops"] == 0
    assert m.simulate(n_star + 1, 64, w, buffer, r, 10**4, seed=3)["drops"] > 0


def test_fct_is_ideal_below_threshold():
    # no loss: the port drains N*K packets back to back (the first packet waits nothing)
    for n in (4, 8, 16):
        sim = m.simulate(n, 64, 16, 244, 61, 10**6, seed=0)
        assert sim["fct_slots"] == m.ideal_fct_slots(n, 64)
        assert sim["retransmitted"] == 0 and sim["timeouts"] == 0


# --- the incast curve -------------------------------------------------------------------------
def test_goodput_collapses_past_threshold(data):
    s, se = data["summary"], data["series"]
    assert s["goodput_lo"] == pytest.approx(s["port_rate"], rel=1e-9)  # line rate at N*
    assert s["goodput_hi"] < s["port_rate"] / 1000  # one RTO: three orders of magnitude
    assert s["fct_hi"] >= s["rto"]
    n = np.array(se["fan_in"])
    g = np.array(se["goodput"])
    below, above = n <= s["drop_free_fan_in"], n > s["drop_free_fan_in"]
    assert np.all(np.array(se["drops"])[below] == 0) and np.all(np.array(se["drops"])[above] > 0)
    assert g[above].max() < g[below & (n >= 4)].min() / 1000


def test_fine_grained_timeout_softens_the_collapse(data):
    s = data["summary"]
    assert s["goodput_hi_fine"] > 100 * s["goodput_hi"]
    assert s["fct_hi_fine"] < s["fct_hi"]


def test_collapse_versus_buffer(data):
    rows = data["series"]["buffers"]
    ns = [r["drop_free_fan_in"] for r in rows]
    assert ns == sorted(ns) and ns[-1] > ns[0]  # a deeper buffer tolerates more senders
    for r in rows:
        assert r["drops_at"] == 0 and r["drops_past"] > 0
        assert r["goodput_past"] < r["goodput_at"] / 100


# --- spraying ------------------------------------------------------------------------------------
@pytest.mark.parametrize("n", [2, 3, 8, 16, 24, 40])
def test_spraying_strictly_reduces_peak_queue(n):
    kw = dict(block_packets=32, window=16, buffer=10**6, rtt_slots=61, rto_slots=10**5, seed=5)
    one = m.simulate(n, routing="single", **kw)
    spray = m.simulate(n, routing="spray", paths=4, **kw)
    ecmp = m.simulate(n, routing="ecmp", paths=4, **kw)
    assert one["sent"] == spray["sent"] == n * 32  # the same offered load
    assert spray["peak_queue"] < one["peak_queue"]
    assert spray["peak_queue"] <= ecmp["peak_queue"] <= one["peak_queue"]
    # shortest-queue spraying keeps every spine within one packet of the even split
    assert abs(spray["peak_queue"] - m.peak_queue(n, 16, 61, 4)) <= 1


def test_spraying_raises_drop_free_fan_in(data):
    s = data["summary"]
    assert s["drop_free_fan_in_spray"] >= s["paths"] * s["drop_free_fan_in"]
    assert s["drops_hi_spray"] == 0 and s["fct_hi_spray"] < s["fct_hi"]
    # but a thousand senders overflow even eight spines
    assert s["question_peak_spray_packets"] > s["buffer_packets"]
    assert s["question_paths_needed"] > s["paths"]


# --- determinism and the entry function ------------------------------------------------------------
def test_seeded_determinism():
    kw = dict(senders=24, block_packets=32, window=16, buffer=100, rtt_slots=20, rto_slots=500)
    a = m.simulate(seed=11, trace=True, routing="ecmp", paths=4, **kw)
    b = m.simulate(seed=11, trace=True, routing="ecmp", paths=4, **kw)
    assert a == b
    c = [m.simulate(seed=s, trace=True, **kw)["events"] for s in range(4)]
    assert any(x != c[0] for x in c[1:])  # the seed decides who wins the race for the buffer
    assert _json(m.incast_spraying(**PARAMS)) == _json(m.incast_spraying(**PARAMS))


def test_every_packet_delivered_and_accounted():
    sim = m.simulate(12, 20, 8, 30, 10, 200, seed=2, trace=True)
    arrivals = sum(len(e["arrivals"]) for e in sim["events"])
    dropped = sum(1 for e in sim["events"] for a in e["arrivals"] if a[3])
    departures = sum(len(e["departures"]) for e in sim["events"])
    assert arrivals == sim["sent"] and dropped == sim["drops"]
    assert departures == sim["sent"] - sim["drops"]
    assert sim["sent"] >= 12 * 20 + sim["drops"]  # every drop is resent (go-back resends more)
    assert all(max(e["queues"]) <= 30 for e in sim["events"])


def test_rejects_bad_input():
    with pytest.raises(ValueError):
        m.simulate(0, 4, 4, 4, 4, 4)
    with pytest.raises(ValueError):
        m.simulate(2, 4, 4, 4, 4, 4, routing="magic")


def test_animation_case(data):
    an = data["animation"]
    assert an["single_drops"] > 0 and an["spray_drops"] == 0
    assert an["single_peak"] == an["buffer_packets"]  # full: the buffer is what capped it
    assert an["spray_peak"] == an["analytic_peak_spray"] < an["buffer_packets"]
    assert an["single_fct"] > an["rto"] > 1000 * an["spray_fct"]
    moving = [len(e["arrivals"]) + len(e["departures"]) for e in an["single_burst"]]
    assert max(moving) <= 40 and sum(moving) < 300  # a few hundred packets at most on screen


def test_summary_and_table(data):
    for k, v in data["summary"].items():
        assert isinstance(v, (int, float)) and math.isfinite(v), k
    t = data["table"]
    units = {"B", "s", "B/s", "1", "%", "count", "text"}
    assert t["caption"] and all(c["unit"] in units for c in t["columns"])
    assert t["rows"] and all(len(r) == len(t["columns"]) for r in t["rows"])
    for row in t["rows"]:
        assert all(isinstance(v, (int, float)) for v in row)
        n, analytic, simulated, drops = row[:4]
        assert simulated == min(analytic, data["summary"]["buffer_packets"]) or drops > 0


# --- the figure and the scene -------------------------------------------------------------------------
@pytest.mark.parametrize("theme", ["light", "dark"])
def test_figure_draws(data, theme):
    from figures.incast import goodput_vs_fan_in
    from figures.theme import svg_bytes, themed

    with themed(theme):
        fig = goodput_vs_fan_in(data, theme)
        assert len(fig.axes) == 2
        assert svg_bytes(fig).startswith(b"<?xml")


def test_scene_captions_quote_the_model(dry_run):
    data, beats, _ = dry_run("incast-spraying")
    text = " ".join(b["caption"] for b in beats)
    from models.units import fmt_count, fmt_seconds
    an = data["animation"]
    assert fmt_count(an["single_drops"]) in text
    assert fmt_seconds(an["single_fct"]) in text and fmt_seconds(an["spray_fct"]) in text
    assert fmt_count(data["summary"]["drop_free_fan_in"] + 1) in text
