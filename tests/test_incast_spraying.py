"""Tests for models/incast_spraying.py (scene incast-spraying: incast at a receiver's port, ECMP versus
packet spraying)."""

from __future__ import annotations

import math

import numpy as np
import pytest

from models import incast_spraying as m
from models.constants import CONSTANTS, SOURCES, const
from models.exhibit import ClaimError
from models.lib.pfc import pfc_headroom

SCENE = "incast-spraying"


@pytest.fixture(scope="module")
def data(model_output):
    return model_output(SCENE)[0]


# --- published values -------------------------------------------------------------------------
def test_published_constants_and_sources():
    # NCCL User Guide, env.html §NCCL_IB_TIMEOUT: default 20; src/transport/net_ib/common.cc sets 20
    assert const("nccl_ib_timeout") == 20
    assert CONSTANTS["nccl_ib_timeout"].source == "nccl-env"
    # IB local ACK timeout = 4.096 us * 2^timeout (the IB spec's unit, as NCCL documents it)
    assert const("ib_ack_timeout_unit") == pytest.approx(4.096e-6) == m.IB_ACK_TIMEOUT_UNIT
    assert m.ib_transport_timeout(20, const("ib_ack_timeout_unit")) == pytest.approx(4.294967296)  # about 4.3 s
    # Vasudevan et al., SIGCOMM 2009: stock TCP's RTO_min = 200 ms (the historical contrast)
    assert const("tcp_rto_min") == pytest.approx(0.2)
    assert SOURCES["nccl-env"].url.startswith("https://docs.nvidia.com/deeplearning/nccl/")
    for key in ("vasudevan2009", "dixit2013"):
        assert SOURCES[key].url.startswith("https://doi.org/")


# --- formulas, checked by hand ------------------------------------------------------------------
def test_hand_checked_bdp_window():
    # 50 GB/s x 5 us = 250 kB = 61.04 packets of 4096 B -> 62 (one BDP, rounded up)
    assert m.bdp_window(50e9, 5e-6, 4096) == 62
    assert m.packets(262144, 4096) == 64 and m.packets(4097, 4096) == 2


def test_hand_checked_balls_into_bins():
    # 2 flows on 2 uplinks: max 1 with probability 1/2, else 2 -> E[max] = 1.5
    assert m.expected_max_load(2, 2) == pytest.approx(1.5)
    # 3 flows on 3 uplinks: all apart 6/27, all together 3/27, else 2 -> E = (6 + 2*18 + 3*3)/27
    assert m.expected_max_load(3, 3) == pytest.approx((6 + 36 + 9) / 27)
    cdf = m.max_load_cdf(5, 4)
    assert np.all(np.diff(cdf) >= -1e-12) and cdf[-1] == pytest.approx(1.0) and cdf[0] == 0.0


BLOCK = 1 << 20  # hashings enumerated per numpy block (8 uplinks x 2 B x 1 Mi: 16 MB)


@pytest.mark.parametrize("flows,bins", [(2, 2), (5, 4), (7, 3), (8, 8), (9, 5)])
def test_max_load_cdf_equals_enumerating_every_hashing(flows, bins):
    """The Poissonized FFT form against all P^N hashings counted one by one (in numpy, a block of
    hashings at a time: hashing i puts flow k on uplink digit k of i in base P)."""
    counts = np.zeros(flows + 1)
    total = bins ** flows
    for start in range(0, total, BLOCK):
        index = np.arange(start, min(start + BLOCK, total), dtype=np.int64)
        loads = np.zeros((index.size, bins), dtype=np.int16)
        rows = np.arange(index.size)
        for k in range(flows):
            loads[rows, (index // bins ** k) % bins] += 1
        counts += np.bincount(loads.max(axis=1), minlength=flows + 1)
    assert counts.sum() == total
    assert np.allclose(m.max_load_cdf(flows, bins), np.cumsum(counts) / bins ** flows, rtol=0, atol=1e-12)


@pytest.mark.parametrize("flows,bins", [(8192, 8), (8192, 2), (4096, 64)])
def test_max_load_runs_at_thousands_of_flows(flows, bins):
    """128 queue pairs per connection hash 8,192 sub-flows: N!/P^N overflowed there (math range error)."""
    cdf = m.max_load_cdf(flows, bins)
    assert cdf[math.ceil(flows / bins) - 1] == 0.0 and cdf[-1] == 1.0 and np.all(np.diff(cdf) >= 0)
    mc = m.max_load_monte_carlo(flows, bins, 4000, np.random.default_rng(5))
    se = mc.std(ddof=1) / math.sqrt(mc.size)
    assert abs(mc.mean() - m.expected_max_load(flows, bins)) < 4 * se


@pytest.mark.parametrize("flows,bins", [(4, 4), (8, 8), (16, 8), (40, 8)])
def test_monte_carlo_agrees_with_exact_expectation(flows, bins):
    mc = m.max_load_monte_carlo(flows, bins, 40000, np.random.default_rng(3))
    se = mc.std(ddof=1) / math.sqrt(mc.size)
    assert abs(mc.mean() - m.expected_max_load(flows, bins)) < 4 * se


def test_drop_free_fan_in_matches_simulation():
    for buffer in (20, 61, 122, 244):
        w, r = 16, 61
        n_star = m.drop_free_fan_in(buffer, w, r)
        for n in range(1, n_star + 1):
            assert m.simulate(n, 32, w, r, "lossy", buffer=buffer, seed=3)["drops"] == 0
        assert m.simulate(n_star + 1, 32, w, r, "lossy", buffer=buffer, seed=3)["drops"] > 0


@pytest.mark.parametrize("n", [1, 2, 7, 128, 192])
def test_send_orders_drawn_in_blocks_are_one_permutation_per_slot(n):
    """simulate() draws its per-slot send orders a block at a time: the same orders, bit for bit."""
    one_at_a_time = np.random.default_rng(n)
    blocks = m.seeded_orders(np.random.default_rng(n), n)
    for _ in range(3000):
        assert np.array_equal(next(blocks), one_at_a_time.permutation(n))


# --- the receiver's port bounds goodput -----------------------------------------------------------
@pytest.mark.parametrize("mode", m.MODES)
@pytest.mark.parametrize("n", [1, 3, 12, 40])
def test_goodput_to_one_receiver_never_exceeds_its_port(mode, n):
    sim = m.simulate(n, 24, 20, 20, mode, buffer=30, xoff=6, xon=4, pause_slots=3, headroom=4,
                     timeout_slots=400, seed=n)
    assert sim["fct_slots"] >= n * 24  # one packet per slot through the port, at most


def test_lossless_incast_runs_at_the_port_rate_and_drops_nothing(data):
    s, se = data["summary"], data["series"]
    assert np.all(np.asarray(se["goodput_lossless"]) <= s["port_rate"] * (1 + 1e-12))
    assert np.all(np.asarray(se["goodput_lossless"]) >= 0.9 * s["port_rate"])
    assert s["fct_lossless_hi"] == pytest.approx(s["fct_ideal_hi"])
    assert all(row[1] > 0 for row in data["table"]["rows"] if row[0] > s["drop_free_fan_in"])


def test_lossless_simulation_holds_what_the_pfc_headroom_allows():
    # the lossless simulation never holds more than XOFF + the pause delay on an ingress
    sim = m.simulate(16, 40, 40, 20, "lossless", xoff=8, xon=6, pause_slots=5, headroom=6, seed=1)
    assert sim["drops"] == 0 and sim["peak_ingress"] <= 8 + 6
    # too little headroom for the pause delay drops packets even in "lossless" mode
    short = m.simulate(16, 40, 40, 20, "lossless", xoff=8, xon=6, pause_slots=5, headroom=2, seed=1)
    assert short["drops"] > 0
    assert pfc_headroom(100.0, 50e9, 4096, 5.13e-9, 2.408e-6) > 0


def test_nak_recovers_in_round_trips_tail_loss_waits_for_the_timeout(data):
    s = data["summary"]
    assert s["naks_hi"] > 0 and s["drops_hi"] > 0
    assert s["fct_lossy_hi"] < s["fct_ideal_hi"] + 10 * s["base_rtt"]
    assert s["fct_timeout_hi"] >= s["tcp_rto"]  # the historical case waits RTO_min
    assert s["max_timeouts_lossy"] > 0 and s["max_goodput_lossy"] < s["port_rate"] / 1000


def test_go_back_n_resends_what_the_receiver_discarded():
    sim = m.simulate(6, 30, 20, 10, "lossy", buffer=12, timeout_slots=300, seed=2, trace=True)
    arrivals = sum(len(e["arrivals"]) for e in sim["events"])
    dropped = sum(a[2] for e in sim["events"] for a in e["arrivals"])
    assert arrivals == sim["sent"] and dropped == sim["drops"] > 0
    assert sim["naks"] > 0 and sim["discarded"] > 0
    assert sim["sent"] >= 6 * 30 + sim["drops"] + sim["discarded"]


# --- spraying ------------------------------------------------------------------------------------------
def test_spraying_evens_the_uplinks_ecmp_does_not(data):
    s, se = data["summary"], data["series"]
    emax, spray, mean = (np.asarray(se[k]) for k in ("emax", "spray", "mean_load"))
    assert np.all(emax > spray) and np.all(spray - mean <= 1 / s["block_packets"] + 1e-12)
    assert s["spray_speedup_eq"] == pytest.approx(s["emax_eq"] / s["spray_eq"])
    assert s["ecmp_efficiency_eq"] < 0.75


def test_adaptive_spraying_fills_spare_capacity_oblivious_waits_for_the_busy_uplink():
    # 8 flows, 8 uplinks, one uplink half busy, 64-packet blocks: by hand
    assert m.oblivious_spray_load(8, 8, 64, 0.5) == pytest.approx(1 / 0.5)  # 1 flow's worth at half rate
    assert m.adaptive_spray_load(8, 8, 0.5) == pytest.approx(8 / 7.5)
    assert m.oblivious_spray_load(8, 8, 64, 0.0) == m.sprayed_max_load(8, 8, 64)  # no busy uplink: no difference
    assert m.adaptive_spray_load(8, 8, 0.0) == pytest.approx(1.0)


def test_ecmp_with_a_busy_uplink_by_hand():
    # two hashings of 4 flows on 3 uplinks, uplink 0 half busy: (2, 1, 1) waits 2 / 0.5 = 4, (0, 3, 1) waits 3
    counts = np.array([[2, 1, 1], [0, 3, 1]])
    assert m.ecmp_busy_step(counts, 0.5).tolist() == [4.0, 3.0]
    assert m.ecmp_busy_step(counts, 0.0).tolist() == counts.max(axis=1).tolist()  # no busy uplink: plain max


def test_ecmp_busy_uplink_matches_an_independent_monte_carlo(data):
    # the reviewer's independent check (200k hashings, P = 8, one uplink 50% busy): 8 flows 3.14, 64 flows 16.85
    se = data["series"]
    flows, busy = list(se["flows"]), np.asarray(se["ecmp_busy"])
    assert data["params"]["busy_uplink_load"] == 0.5 and data["params"]["uplinks"] == 8
    assert busy[flows.index(8)] == pytest.approx(3.14, abs=0.05)
    assert busy[flows.index(64)] == pytest.approx(16.85, abs=0.1)


def test_adaptive_beats_oblivious_and_ecmp_never_beats_oblivious_on_the_same_busy_uplink(data):
    se, s = data["series"], data["summary"]
    obl, ada, emax = (np.asarray(se[k]) for k in ("spray_oblivious_busy", "spray_adaptive_busy", "emax"))
    busy, busy_se = np.asarray(se["ecmp_busy"]), np.asarray(se["ecmp_busy_se"])
    assert np.all(ada <= obl) and np.all(ada >= np.asarray(se["mean_load"]))
    assert np.all(busy > obl - 4 * busy_se)  # the fair comparison: ECMP loses to oblivious spraying
    assert np.all(busy >= emax - 4 * np.asarray(se["mc_se"]))  # a busy uplink never helps ECMP
    assert s["ecmp_busy_eq"] > s["oblivious_busy_eq"] > s["adaptive_busy_eq"]
    assert s["adaptive_gain_eq"] == pytest.approx(s["oblivious_busy_eq"] / s["adaptive_busy_eq"])


def test_spraying_reorders_unless_there_is_one_path_or_no_skew():
    rng = np.random.default_rng(0)
    assert m.out_of_sequence_fraction(64, 1, 50.0, 50, rng) == 0.0  # one path keeps order
    assert m.out_of_sequence_fraction(64, 8, 1.0, 50, rng) == 0.0  # skew under one slot: nothing overtakes
    fr = [m.out_of_sequence_fraction(64, 8, sk, 500, np.random.default_rng(1)) for sk in (3.0, 12.0, 60.0)]
    assert 0 < fr[0] < fr[1] < fr[2] < 1
    # two paths, the second always 2.5 slots late: packets 0,2,4.. overtake 1,3,.. -> every even one after 0
    k = 10
    arrival = np.arange(k) + np.where(np.arange(k) % 2 == 1, 2.5, 0.0)
    ahead = sum(arrival[i] < arrival[:i].max() for i in range(1, k))
    assert ahead == 4  # packets 2, 4, 6, 8 arrive before 1, 3, 5, 7


def test_sprayed_flow_by_hand_go_back_n_versus_placement():
    # 3 packets over 2 paths, path 1 five slots late, feedback 10 slots after an arrival, no window limit.
    # Sent at 0, 1, 2 on paths 0, 1, 0: they land at 0, 6, 2. Packet 2 lands ahead of 1: go-back-N discards
    # it and NAKs 1 at slot 2; the NAK reaches the sender at 12, which resends 1 (its 4th send: path 1, lands
    # 17) and 2 (path 0, lands 13). Packet 1's first copy landed at 6, so 2's copy at 13 completes: 14 slots.
    gbn = m.sprayed_flow(3, [0.0, 5.0], 10, 100, 10**6, placement=False)
    assert (gbn["fct_slots"], gbn["resent"], gbn["discarded"], gbn["timeouts"]) == (14, 2, 1, 0)
    placed = m.sprayed_flow(3, [0.0, 5.0], 10, 100, 10**6, placement=True)
    assert (placed["fct_slots"], placed["resent"]) == (7, 0)  # the last packet (1) lands at 6


@pytest.mark.parametrize("placement", [False, True])
def test_sprayed_flow_without_skew_or_with_one_path_never_resends(placement):
    for delays in ([0.0] * 8, [7.5]):  # equal paths, or one path however slow
        r = m.sprayed_flow(64, delays, 61, 100, 10**6, placement=placement)
        assert r["resent"] == 0 and r["discarded"] == 0
        assert r["fct_slots"] == 64 + math.ceil(delays[0])


def test_go_back_n_tail_discard_waits_for_the_timer():
    # packets 0..3 on 4 paths, path 0 slow: 1, 2, 3 land ahead of 0 and are discarded, one NAK for 0. The NAK
    # lands at slot 1 + 3 = 4; the resent 0..3 take paths 0..3 again, so 1..3 overtake 0 again, and with the
    # NAK for 0 already sent nothing reveals the gap: the sender waits for its 1000-slot timer.
    r = m.sprayed_flow(4, [9.0, 0.0, 0.0, 0.0], 3, 100, 1000, placement=False)
    assert r["timeouts"] >= 1 and r["fct_slots"] > 1000
    assert m.sprayed_flow(4, [9.0, 0.0, 0.0, 0.0], 3, 100, 1000, placement=True)["fct_slots"] == 10


def test_which_receivers_tolerate_spraying(data):
    s = data["summary"]
    assert SOURCES["nvidia-ofed-ooo"].url.startswith("https://docs.nvidia.com/networking/")
    assert s["placed_fct_median"] < 2 * s["block_time"]  # placed out of order: about the block's own time
    assert s["gbn_over_placed"] == pytest.approx(s["gbn_fct_median"] / s["placed_fct_median"])
    assert s["gbn_over_placed"] > 2 and s["gbn_resent_mean"] > s["block_packets"]
    assert 0 < s["gbn_timeout_share"] < 0.5
    # a draw that waits for the timer costs 4.29 s: the mean is at least that share of it
    assert s["gbn_fct_mean"] >= s["gbn_timeout_share"] * s["ib_timeout"]


def test_retry_streak_stays_within_nccl_retry_cnt_until_the_edge(data):
    s, se = data["summary"], data["series"]
    assert s["retry_cnt"] == const("nccl_ib_retry_cnt") == 7  # NCCL env.html §NCCL_IB_RETRY_CNT: default 7
    assert max(se["retry_streak"]) == s["retry_streak_max"] <= s["retry_cnt"]
    assert s["edge_fan_in"] > s["max_fan_in"] and s["edge_streak_min"] >= s["retry_cnt"]  # the limit reached
    # review 08 (finding 3): the edge over the block sizes' 4 send orders (seeds 0-3): runs of 7, 7, 8, 7
    assert s["edge_orders"] == s["retry_seeds"] == 4
    assert (s["edge_streak_min"], s["edge_streak_max"], s["edge_fails"]) == (7, 8, 1)
    # the upper bound, every NAK charged too (no NIC verified to count so): 6 at most in the sweep, 8 to 9 at 192
    assert s["retry_nak_streak_max"] == 6 <= s["retry_cnt"]
    assert (s["edge_nak_streak_min"], s["edge_nak_streak_max"], s["edge_nak_fails"]) == (8, 9, 4)
    # review 08b (finding 1): rxe_comp.c never decrements a retry count of 7, NCCL's default, so in Soft-RoCE the
    # page's QP cannot fail on retries: the page must say so rather than call Soft-RoCE's count the NAK-counted one
    assert const("rxe_retry_cnt_unlimited") == 7 and s["rxe_retry_unlimited"] is True


@pytest.mark.parametrize("n,seed", [(16, 0), (32, 1), (64, 2)])
def test_nak_retries_only_add_to_the_retry_count(n, seed):
    """The counter with NAK-sequence retries counts every timeout the timeout-only one does, and at most every NAK
    more; recovery by timeout alone sends no NAK, so there the two counts agree."""
    g = m.slot_grid(50e9, 4096, 262144, 5e-6, 2e6, 131072, 100, 5e-9, 1e-6, 12, 4.096e-6, 0.2)
    lossy, timeout = m.run_incast(g, n, "lossy", seed), m.run_incast(g, n, "timeout", seed)
    assert lossy["naks"] > 0 and lossy["max_retry_streak"] <= lossy["max_nak_retry_streak"]
    assert lossy["max_nak_retry_streak"] <= lossy["max_retry_streak"] + lossy["naks"]
    assert timeout["naks"] == 0 and timeout["max_nak_retry_streak"] == timeout["max_retry_streak"]


def test_lossy_rdma_loses_to_tcp_where_tail_losses_dominate(data):
    s, se = data["summary"], data["series"]
    assert s["timeout_ratio"] == pytest.approx(4.294967296 / 0.2, rel=1e-6)
    n = np.asarray(se["fan_in"])
    worse = n[np.asarray(se["goodput_lossy"]) < np.asarray(se["goodput_timeout"])]
    assert worse.min() == s["rdma_worse_from"] > s["drop_free_fan_in"]


def test_buffer_is_a_fair_share_of_a_real_switch_and_bloat_is_queue_over_rate(data):
    s = data["summary"]
    assert m.fair_share_buffer(64e6, 32) == 2e6
    assert s["buffer_bytes"] == const("spectrum3_shared_buffer") / const("spectrum3_ports_400g")
    assert s["lossy_queue_delay"] == pytest.approx(s["buffer_packets"] * s["slot"])
    assert s["lossless_queue_delay"] == pytest.approx(s["lossless_peak_queue_bytes"] / s["port_rate"])
    assert s["lossless_peak_queue_bytes"] <= s["switch_buffer"]


def test_per_port_buffer_sweep_matches_the_reviewers_rerun(data):
    # reviewer's re-run of run_incast at 128 senders: 2 MB drop-free to 8, 25.8 s, streak 5 | 8 MB: 33, 8.6 s,
    # streak 2 | 16 MB: 65, 4.3 s, streak 1 | 32 MB: 129, no drops
    rows = data["records"]["per_port_buffer"]
    assert [r["buffer_bytes"] // 4096 * 4096 for r in rows] == [r["buffer_bytes"] for r in rows]
    assert [r["drop_free_fan_in"] for r in rows] == [8, 33, 65, 129]
    assert [r["streak"] for r in rows] == [5, 2, 1, 0]
    assert rows[0]["fct"] == pytest.approx(25.8, rel=0.01) and rows[1]["fct"] == pytest.approx(8.6, rel=0.01)
    assert rows[-1]["drops"] == 0 and rows[-1]["share"] == 0.5
    assert rows[0]["buffer_bytes"] == data["summary"]["buffer_bytes"] // 4096 * 4096
    assert data["summary"]["ingress_links"] == const("spectrum3_ports_400g") - 1


def test_a_retry_limit_the_sweep_exceeds_fails_the_build(scene_params):
    p = scene_params(SCENE)
    p["retry_cnt"] = 1  # the sweep's longest timeout streak is longer: "finishes within NCCL's retry count" fails
    with pytest.raises(ClaimError):
        m.incast_spraying(**p)


# --- claims and the animation ---------------------------------------------------------------------------
def test_a_claim_that_stops_holding_fails_the_build(scene_params):
    p = scene_params(SCENE)
    p["switch_buffer_bytes"] = 1e9 * p["switch_ports"]  # so deep the lossy port never drops: "drops from N* + 1" fails
    with pytest.raises(ClaimError):
        m.incast_spraying(**p)


def test_animation_case(data):
    an = data["animation"]
    assert an["fct_slots"] == an["ideal_slots"]  # lossless: the port never idles
    assert an["pauses"] > 0 and an["max_load"] > an["spray_load"]
    assert sum(an["loads"]) == an["flows"] == len(an["hash"])
    moving = [len(e["arrivals"]) + len(e["departures"]) for e in an["events"]]
    assert sum(moving) < 200


def test_lossy_animation_drops_naks_and_waits_the_real_timeout(data):
    an, s = data["animation"], data["summary"]
    ev = an["lossy_events"]
    dropped = sum(a[2] for e in ev for a in e["arrivals"])
    assert dropped == an["lossy_drops"] > 0 and an["lossy_naks"] > 0
    assert max(e["queue"] for e in ev) <= an["lossy_buffer"]  # drop-tail: never above the buffer
    first = an["lossy_first_timeout"]
    assert ev[first]["timeouts"] and not any(e["timeouts"] for e in ev[:first])
    assert an["lossy_fct"] >= s["ib_timeout"]  # the tail loss waited the whole timer
    # every packet a sender sent twice is a resend: the trace holds them (go-back-N)
    sends = [(f, q) for e in ev for f, q, _ in e["arrivals"]]
    assert len(sends) - len(set(sends)) == an["lossy_resent"] > 0


def test_scene_captions_quote_the_model(dry_run):
    data, beats, _ = dry_run(SCENE)
    from models.units import fmt_count, fmt_rate

    text = " ".join(b["caption"] for b in beats)
    an = data["animation"]
    assert fmt_count(an["fct_slots"]) in text and fmt_count(an["max_load"]) in text
    assert fmt_rate(data["summary"]["port_rate"]) in text
    from models.units import fmt_seconds

    assert fmt_seconds(an["ib_timeout"]) in text and fmt_seconds(an["lossy_fct"]) in text


# --- review fixes: the worst case's timer swept, like with like, skew swept, queue pairs -----------------------
def test_timer_sweep_labels_the_worst_case_and_scales_with_the_timer(data):
    s, rows = data["summary"], data["records"]["timer_sweep"]
    assert [r["exponent"] for r in rows] == sorted(r["exponent"] for r in rows)
    ok = [r for r in rows if not r["fails"]]
    assert all(a["fct"] <= b["fct"] for a, b in zip(ok, ok[1:]))  # among finishing timers, shorter never slower
    assert [r["exponent"] for r in rows][:5] == [4, 5, 6, 7, 8]  # no gap between 65.5 us and 1.05 ms
    default = next(r for r in rows if r["exponent"] == const("nccl_ib_timeout"))
    assert default["goodput"] == pytest.approx(s["max_goodput_lossy"])  # the headline is the sweep's worst row
    older = next(r for r in rows if r["exponent"] == 18)
    assert older["fct"] == pytest.approx(s["older_fct_lossy_max"])
    # timers far longer than the burst: the same lockstep rounds, so the block time scales with the timer (x4)
    assert default["fct"] / older["fct"] == pytest.approx(4.0, rel=0.01)
    assert default["streak"] == older["streak"] <= s["retry_cnt"]
    # the shortest timer swept fires on packets that were only queued: fast, but past NCCL's retry limit
    assert s["short_goodput"] > 1000 * s["max_goodput_lossy"] and s["short_fails"]
    assert s["short_streak"] > s["retry_cnt"]
    assert s["best_ok_streak"] <= s["retry_cnt"] and s["best_ok_goodput"] > s["max_goodput_lossy"]
    # review 50: 65.5 us fires inside the 671 us the port needs for 128 blocks (128 x 64 slots x 81.92 ns), not on
    # merely queued packets (488-packet queue = 40 us, + 5 us RTT < 65.5 us); the lockstep resends drop again:
    # 826 timeouts against 446 at 131 us, and the block is no sooner (0.974 ms against 0.970 ms)
    assert s["burst_drain_time"] == pytest.approx(128 * 64 * 4096 / s["port_rate"])
    assert s["short_ib_timeout"] < s["burst_drain_time"] and s["short_timer_beyond_queue"]
    assert s["short_ib_timeout"] > (s["buffer_packets"] + s["rtt_slots"]) * s["slot"]
    assert s["best_ok_exp"] == 5 and s["best_ok_timeout"] == pytest.approx(131.072e-6)
    assert s["short_timeouts"] == 826 and s["best_ok_timeouts"] == 446
    assert s["short_over_best_ok_fct"] >= 1.0


def test_lossless_and_lossy_compared_at_the_same_buffer(data):
    s = data["summary"]
    share = s["buffer_packets"] * s["packet_bytes"]
    assert s["lossless_over_lossy_buffer"] == pytest.approx(s["lossless_peak_queue_bytes"] / share)
    # 2 MB of 4096 B packets (488) over scene 05's headroom for 100 m at 50 GB/s (179,956 B): 11 ingresses
    assert s["pfc_ingresses_in_share"] == int(share // s["headroom_bytes"]) == 11
    assert s["pfc_ingresses_in_share"] < s["ingress_links"]
    assert s["pfc_headroom_all_links"] == pytest.approx(s["headroom_bytes"] * s["ingress_links"])
    assert s["hot_buffer_bytes"] >= s["lossless_peak_queue_bytes"] and s["hot_drops"] == 0  # the same borrowing
    # review 50: through 31 ingress links PFC caps the receiver's switch at 31 x (32 XOFF + 44 headroom) packets,
    # 9.65 MB (193 us); the rest of the 31.7 MB backlog waits paused upstream
    assert s["lossless_port_cap_bytes"] == s["ingress_links"] * (s["xoff_packets"] + s["headroom_packets"]) * 4096
    assert s["lossless_port_cap_bytes"] == pytest.approx(9.65e6, rel=1e-3)
    assert s["lossless_port_cap_delay"] == pytest.approx(193e-6, rel=1e-2)
    assert s["lossless_upstream_bytes"] == pytest.approx(s["lossless_peak_queue_bytes"] - s["lossless_port_cap_bytes"])
    assert 0.5 < s["lossless_upstream_share"] < 1


def test_skew_sweep_go_back_n_against_ecmp(data):
    s, rows = data["summary"], data["records"]["skew_sweep"]
    assert [r["skew"] for r in rows] == sorted(data["params"]["path_skews"])
    assert rows[1]["skew_slots"] < 1.5 and rows[1]["gbn_blocks"] < 1.5  # about one packet time: little overtakes
    assert all(r["placed_step_blocks"] < r["ecmp_blocks"] == pytest.approx(s["emax_eq"]) for r in rows)
    # review 52: a step ends with its slowest flow; judged that way go-back-N loses from just above one packet
    # time of skew (81.92 ns); at 50 ns nothing overtakes and it matches placement (review 53)
    assert all(r["gbn_step_blocks"] >= r["gbn_blocks"] for r in rows)
    assert rows[0]["skew_slots"] < 1 and not rows[0]["gbn_worse_than_ecmp"]
    assert rows[0]["gbn_step_blocks"] == pytest.approx(rows[0]["placed_step_blocks"])
    assert all(r["gbn_worse_than_ecmp"] for r in rows[1:])
    assert s["skew_ecmp_wins_from"] == rows[1]["skew"] and s["skew_ecmp_loses_below"] == rows[0]["skew"]
    first = next(i for i, r in enumerate(rows) if r["gbn_median_worse_than_ecmp"])
    assert first > 0 and all(r["gbn_blocks"] > s["emax_eq"] for r in rows[first:])
    assert s["skew_median_ecmp_wins_from"] == rows[first]["skew"] <= s["path_skew"]


def test_retry_streak_by_block_size(data):
    """Review 53: 128 senders of 1 MiB blocks, four send orders: one run of 9 timeouts, past NCCL's 7."""
    rows, s = data["records"]["retry_by_block"], data["summary"]
    assert [r["block_bytes"] for r in rows] == [262144, 524288, 1048576]
    page = next(r for r in rows if r["page"])
    assert page["block_bytes"] == data["params"]["block_bytes"] and page["abort_share"] == 0
    assert page["streak_max"] <= s["retry_cnt"] < rows[-1]["streak_max"]
    assert s["retry_block_abort_from"] == 1048576 and rows[-1]["abort_share"] == pytest.approx(0.25)
    assert all(r["nak_streak_min"] >= r["streak_min"] and r["nak_streak_max"] >= r["streak_max"] for r in rows)
    assert page["nak_abort_share"] == 0 and rows[-1]["nak_abort_share"] >= rows[-1]["abort_share"]


def test_one_estimate_of_the_sprayed_step_per_skew(data):
    """Review 08: the figure's go-back-N step and the skew table's row at the page's skew are one estimate, from the
    same draws, as many at every skew (finding 1); a step's mean is the chance that one of its N flows waits for the
    timer, 1 - (1 - k/n)^N, times the timer (finding 2: 1 - 0.94^8 = 39% of 4.29 s = 1.68 s at 200 ns)."""
    s, rows = data["summary"], data["records"]["skew_sweep"]
    row = next(r for r in rows if r["skew"] == s["path_skew"])
    assert s["spray_trials"] == data["params"]["spray_trials"] and all(r["draws"] == s["spray_trials"] for r in rows)
    assert row["gbn_step_blocks"] == s["gbn_step_blocks"] and row["gbn_timeout_draws"] == s["gbn_timeout_draws"]
    assert row["gbn_blocks"] * s["block_time"] == pytest.approx(s["gbn_fct_median"])
    # finding 8: the figure's sprayed point has no skew (1 block time at N = P); placed at the page's skew, above it
    assert row["placed_step_blocks"] == s["placed_step_blocks"]
    assert s["spray_eq"] < s["placed_step_blocks"] < s["emax_eq"]
    assert s["gbn_timeout_share"] == pytest.approx(s["gbn_timeout_draws"] / s["spray_trials"])
    waits = [r for r in rows if r["gbn_timeout_draws"]]
    assert waits
    for r in waits:
        chance = 1 - (1 - r["gbn_timeout_draws"] / r["draws"]) ** s["flows_eq"]
        assert r["gbn_step_blocks"] * s["block_time"] == pytest.approx(chance * s["ib_timeout"], rel=0.01)


def test_the_lossy_block_is_counted_in_timeout_rounds(data):
    """Review 08 (finding 4): 25.8 s is 6 timer lengths of 4.29 s, against a longest run of 5 for one queue pair."""
    s = data["summary"]
    assert all(r["rounds"] == pytest.approx(r["fct"] / r["timeout"]) for r in data["records"]["timer_sweep"])
    assert s["worst_rounds"] == pytest.approx(s["fct_lossy_max"] / s["ib_timeout"]) == pytest.approx(6.0, abs=0.01)
    assert s["worst_streak"] == s["retry_streak_max"] < s["worst_rounds"]


def test_expected_max_of_a_sample_by_hand():
    # two values 1 and 3, equally likely: the max of two draws is 3 unless both are 1 (1/4): 1/4 + 3 * 3/4 = 2.5
    assert m.expected_max_of(np.array([3.0, 1.0]), 2) == pytest.approx(2.5)
    assert m.expected_max_of(np.array([3.0, 1.0]), 1) == pytest.approx(2.0)  # one draw: the mean
    x = np.random.default_rng(0).exponential(size=4000)  # E[max of 8 Exp(1)] = H_8 = 2.7179
    assert m.expected_max_of(x, 8) == pytest.approx(sum(1 / k for k in range(1, 9)), rel=0.05)


def test_queue_pairs_per_connection_by_hand(data):
    # 2 connections x 2 QPs on 2 uplinks: 4 balls, Bin(4, 1/2) -> max 2 (6/16), 3 (8/16), 4 (2/16): 44/16, per QP / 2
    assert m.qp_spread_load(2, 2, 2) == pytest.approx(44 / 16 / 2)
    assert m.qp_spread_load(2, 2, 1) == pytest.approx(m.expected_max_load(2, 2))
    assert const("nccl_ib_qps_per_connection") == 1  # NCCL env.html §NCCL_IB_QPS_PER_CONNECTION; net_ib: default 1
    s, se = data["summary"], data["series"]
    assert np.all(np.asarray(se["spray"]) <= np.asarray(se["emax_qps"]) + 1e-12)
    assert np.all(np.asarray(se["emax_qps"]) <= np.asarray(se["emax"]) + 1e-12)
    assert s["spray_eq"] < s["emax_qps_eq"] < s["emax_eq"]


def test_reordering_beat_by_hand(data):
    an = data["animation"]
    # 8 packets on 4 uplinks whose queues add 0, 1/3, 2/3 and 1 of the 1 us skew (12.2 slots): packet i lands at
    # i + delay(i mod 4), so 4 (at 4.0) overtakes 1 (5.07), 5 overtakes 2, 6 overtakes 3 -> 0 4 1 5 2 6 3 7
    assert an["reorder_order"] == [0, 4, 1, 5, 2, 6, 3, 7]
    assert an["reorder_kept"] == [True, False] * 4 and an["reorder_discarded"] == 4 and an["reorder_resume_at"] == 4


# --- review fixes: recovery and timer separated, the older NCCL's exponent sourced, W's rounding --------------
def test_older_nccl_timeout_is_a_sourced_constant_and_the_catalogue_uses_it(data):
    # NCCL env.html §NCCL_IB_TIMEOUT: 18 from 2.14 until 2.23 raised it to 20
    assert const("nccl_ib_timeout_2_14") == 18 and CONSTANTS["nccl_ib_timeout_2_14"].source == "nccl-env"
    s = data["summary"]
    assert s["older_ib_timeout_exp"] == 18
    assert s["older_ib_timeout"] == pytest.approx(4.096e-6 * 2**18)  # 1.07 s


def test_rdma_recovery_with_tcp_timer_separates_recovery_from_timer(data):
    s = data["summary"]
    # same timer (200 ms): NAK recovery is never slower than the timer alone, and it spares timeouts
    assert s["tcp_timer_fct_lossy_max"] <= s["fct_timeout_max"]
    assert s["tcp_timer_timeouts_lossy_max"] < s["max_timeouts_timeout"]
    assert s["recovery_gain_max"] == pytest.approx(s["fct_timeout_max"] / s["tcp_timer_fct_lossy_max"])
    # same recovery: the block is a string of lockstep timer waits, so with the same drops and timeouts the block
    # time scales with the timer, 4.294967296 s / 0.2 s (by hand: 21.47)
    assert s["tcp_timer_timeouts_lossy_max"] == s["max_timeouts_lossy"]
    assert s["timer_cost_max"] == pytest.approx(4.294967296 / 0.2, rel=0.01)
    assert s["timer_cost_max"] > s["recovery_gain_max"] > 1.0
    # the table's other two rows are the sweep's own last runs
    assert s["fct_lossy_max"] == pytest.approx(s["block_packets"] * 4096 * s["max_fan_in"] / s["max_goodput_lossy"])
    assert s["fct_timeout_max"] == pytest.approx(s["block_packets"] * 4096 * s["max_fan_in"]
                                                 / s["max_goodput_timeout"])


def test_window_rounds_the_rtt_to_whole_slots(data):
    s = data["summary"]
    # 5 us / (4096 B / 50 GB/s = 81.92 ns) = 61.04 slots -> R = 61; W = ceil(C * 61 slots / MTU) = 61,
    # while the unrounded 5 us would give ceil(61.04) = 62
    assert s["rtt_slots"] == 61 == s["window_packets"]
    assert s["window_packets_unrounded"] == 62 == m.bdp_window(50e9, 5e-6, 4096)


def test_the_skew_table_step_peaks_where_most_draws_wait(data):
    """Review 08b (finding 4): waits of 0, 0, 23, 23, 8, 5 of 400. The step is worst at 200 and 500 ns (309k block
    times, 1 - (1 - 23/400)^8 = 37.7% of 4.29 s), not at the page's 1 us (8 of 400: 122k); the two 23s are
    independent draws (each skew draws its own delays from the one rng stream), so their other columns differ."""
    s, rows = data["summary"], data["records"]["skew_sweep"]
    assert [r["gbn_timeout_draws"] for r in rows] == [0, 0, 23, 23, 8, 5]
    worst = max(rows, key=lambda r: r["gbn_step_blocks"])
    assert worst["gbn_timeout_draws"] == s["skew_timer_draws"] == max(r["gbn_timeout_draws"] for r in rows)
    own = next(r for r in rows if r["skew"] == s["path_skew"])
    assert own["gbn_timeout_draws"] < worst["gbn_timeout_draws"] and own["gbn_step_blocks"] < worst["gbn_step_blocks"]
    a, b = (r for r in rows if r["gbn_timeout_draws"] == s["skew_timer_draws"])
    assert (a["gbn_blocks"], a["gbn_mean_blocks"]) != (b["gbn_blocks"], b["gbn_mean_blocks"])



def test_the_timer_table_judges_the_qp_both_ways(data):
    """Review 08b (finding 3): the timer table also gives the NAK-charged upper bound; at 131 us (128 senders, seed 8)
    that run is 6, within NCCL's 7, so the shortest finishing timer finishes either way."""
    s, rows = data["summary"], data["records"]["timer_sweep"]
    assert all(r["nak_streak"] >= r["streak"] and r["nak_fails"] >= r["fails"] for r in rows)
    assert all(r["nak_fails"] == (r["nak_streak"] > s["retry_cnt"]) for r in rows)
    assert s["best_ok_timeout"] == pytest.approx(131.072e-6)
    assert s["best_ok_nak_streak"] == 6 <= s["retry_cnt"] and not s["best_ok_nak_fails"]
