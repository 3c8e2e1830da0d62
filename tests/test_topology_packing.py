"""Topology-aware packing: the scenario's traffic by hand, a hand-checked small cluster's bytes per
level, the placements, packed never worse than random, the fragmentation trace's invariants and
bounds, and determinism. The traffic formulas and the hop levels: tests/test_lib_placement.py."""

from __future__ import annotations

import numpy as np
import pytest

from models import topology_packing as pl
from models.constants import CONSTANTS
from models.exhibit import ClaimError
from models.lib.collectives import ring_bytes_sent_per_rank, ring_time, ring_time_two_level
from models.lib.placement import dimension_levels, group_gpus, level_rates, traffic_per_gpu

SCENE = "topology-packing"


@pytest.fixture(scope="module")
def data(model_output):
    return model_output(SCENE)[0]


# --- the traffic formulas (traffic_per_gpu: tests/test_lib_placement.py) ----------------------
def test_sequence_parallelism_moves_the_same_bytes():
    # Korthikanti et al. 2022, §4.2.2: a reduce-scatter plus an all-gather, (p-1)/p·n each, is an all-reduce
    n, p = 268_435_456, 8
    assert 2 * (p - 1) / p * n == pytest.approx(float(ring_bytes_sent_per_rank(n, p)))


# --- the scenario ------------------------------------------------------------------------
def test_scenario_traffic_by_hand(data, scene_params):
    p, s = scene_params(SCENE), data["summary"]
    assert (p["tp"], p["pp"], p["dp"], p["cp"]) == (8, 16, 128, 1)  # Llama 3 Table 4, 16,384-GPU row
    assert s["tokens_per_step"] == CONSTANTS["llama3_tokens_per_batch"].value == 16_777_216
    assert s["layers_per_stage"] == 8 and s["microbatches"] == 16  # ceil(126/16); 16 sequences, b = 1
    bsh = 8192 * 16384
    assert s["bytes_tensor"] == 8 * bsh * 7 / 8 * 2 * 8 * 16  # §3.2 per layer per microbatch, BF16
    assert s["bytes_pipeline"] == 2 * 16 * bsh / 8 * 2
    assert s["bytes_data"] == pytest.approx(2 * 127 / 128 * 405e9 / 128 * 4)
    assert s["measured_step"] == pytest.approx((6 * 405e9 + 12 * 126 * 16384 * 8192) * 16_777_216 / (16384 * 400e12))


def test_scenario_orders_the_placements(data):
    s = data["summary"]
    assert s["topology_aware_step"] == pytest.approx(s["measured_step"])  # the reference
    assert s["topology_aware_step"] <= s["first_fit_step"] <= s["random_step"]
    assert s["topology_aware_tp_split"] == 0 and s["random_tp_split"] > 0.99
    assert s["stranded_topology_aware"] < s["stranded_first_fit"]


# --- a hand-checkable small cluster ------------------------------------------------------------
HIER = (4, 8, 16)  # nodes of 4 GPUs, racks of 2 nodes, pods of 2 racks; 2 pods = 32 GPUs


def test_hand_checked_case_bytes_per_level_on_a_32_gpu_cluster():
    # TP 4, PP 2, DP 2 packed on GPUs 0..15 in Llama 3's order: tensor in a node, pipeline across the
    # rack, data across the pod (the levels themselves: tests/test_lib_placement.py)
    lv = dimension_levels(group_gpus(np.arange(16), 4, 2, 2), HIER)
    traffic = {"tensor": 100.0, "pipeline": 10.0, "data": 30.0,
               "message": {"tensor": 1200.0, "pipeline": 50.0, "data": 600.0},
               "count": {"tensor": 2, "pipeline": 2, "data": 1}}
    assert pl.level_bytes(lv, traffic).tolist() == [100.0, 10.0, 30.0, 0.0]
    assert pl.off_domain_share(lv, traffic) == pytest.approx(40 / 140)
    assert pl.mean_switch_hops(lv, traffic) == pytest.approx((10 * 1 + 30 * 3) / 140)


def test_hand_checked_case_topology_aware_takes_whole_nodes():
    free = np.array([1, 2, 3, 8, 9, 10, 11, 12, 13, 14, 15, 20])  # nodes 2 and 3 wholly free
    got = pl.place_topology_aware(free, 8, node_gpus=4, pod_gpus=16)
    assert got.tolist() == [8, 9, 10, 11, 12, 13, 14, 15]
    assert pl.place_first_fit(free, 4).tolist() == [1, 2, 3, 8]  # straddles two nodes


# --- packed is never worse than random ------------------------------------------------------------
@pytest.mark.parametrize("seed", range(8))
def test_packed_never_worse_than_random(seed):
    rng = np.random.default_rng(seed)
    hier, gpus = (8, 16, 64), 256
    tp, pp, dp = 4, 2, 8
    busy = rng.random(gpus) < rng.uniform(0.1, 0.5)
    free = np.flatnonzero(~busy)
    if free.size < tp * pp * dp:
        free = np.arange(gpus)
    traffic = traffic_per_gpu(tp, pp, dp, 1, 4096, 8192, 16, 4, 7e9, 2.0, 4.0)
    rates = level_rates(450e9, 50e9, 7.0)
    alphas = np.array([3.4e-6, 14e-6, 14e-6, 14e-6])
    ref = pl.place_topology_aware(free, tp * pp * dp, 8, 64)
    steps = {k: pl.step_time(pl.place(k, free, tp * pp * dp, 8, 64, rng), ref, tp, pp, dp, traffic, hier,
                             rates, alphas, 7.0, 1.0)["step"] for k in pl.PLACEMENTS
             if k != "whole_node"}  # a random background may leave no whole node
    assert steps["topology_aware"] <= steps["random"]
    assert steps["first_fit"] <= steps["random"]


# --- fragmentation trace ----------------------------------------------------------------------------
def test_trace_invariants_and_bound():
    rng = np.random.default_rng(3)
    rec = pl.fragmentation_trace(256, 8, [1, 2, 4, 8, 16, 32], 0.8, 400, "first_fit", rng)
    free, whole = np.array(rec["free"]), np.array(rec["free_whole_nodes"])
    assert np.all((0 <= whole) & (whole <= free) & (free <= 256)) and np.all(whole % 8 == 0)
    assert rec["busy"].sum() == 256 - free[-1]
    with pytest.raises(ValueError, match="at most"):
        pl.fragmentation_trace(256, 8, [1], 0.5, pl.MAX_TRACE_JOBS + 1, "first_fit", rng)


def test_no_other_tenants_is_an_empty_cluster():
    # load 0 has no arrival gaps to draw (1/rate); it is the cluster nobody else uses, not a ÷0
    rec = pl.fragmentation_trace(256, 8, [1, 2, 4], 0.0, 400, "first_fit", np.random.default_rng(3))
    assert not rec["busy"].any() and rec["busy"].size == 256 and rec["time"] == [] and rec["turned_away"] == 0
    assert pl.the_other_tenants(256, 8, [1, 2, 4], 0.0, 400, 3, ranks=256)["busy"].sum() == 0


def test_first_free_is_first_fit_in_index_order():
    rng = np.random.default_rng(9)
    for _ in range(20):
        busy = rng.random(128) < 0.6
        node_free = (~busy).reshape(-1, 8).sum(axis=1)
        size = int(rng.integers(1, max(int(node_free.sum()), 1) + 1))
        got = pl._allocate(busy, node_free, size, 8, "first_fit")
        assert got.tolist() == np.flatnonzero(~busy)[:size].tolist()


def test_best_fit_strands_less_than_first_fit():
    out = {}
    for pol in ("first_fit", "topology_aware"):
        rec = pl.fragmentation_trace(512, 8, [1, 2, 4, 8, 16, 32, 64], 0.7, 600, pol, np.random.default_rng(5))
        out[pol] = np.mean(np.array(rec["free"][300:]) - np.array(rec["free_whole_nodes"][300:]))
    assert out["topology_aware"] < out["first_fit"]


# --- determinism ----------------------------------------------------------------------------------
def test_determinism():
    def run():
        rng = np.random.default_rng(11)
        rec = pl.fragmentation_trace(256, 8, [1, 4, 16], 0.6, 200, "topology_aware", rng)
        return rec["free"], pl.place_random(np.flatnonzero(~rec["busy"]), 32, rng).tolist()

    assert run() == run()


def test_ring_time_is_the_collectives_model(data):
    # worked problem: a tensor group split k + (8 - k) over two nodes runs on min(k, 8 - k) ports; of its
    # 2(8 - 1) = 14 steps the 2(2 - 1) = 2 between the nodes pay the network's 14 µs, the other 12 NVLink's
    # 3.4 µs (NCCL's two-level ring latency, ring_time_two_level)
    s, pr = data["summary"], data["problems"]["split_tensor"]
    assert pr["in_node"] == pytest.approx(float(ring_time(s["msg_tensor"], 8, s["nvlink_rate"], 3.4e-6)))
    assert pr["split"] == pytest.approx(float(ring_time_two_level(s["msg_tensor"], 8, 7, s["port_rate"], 3.4e-6,
                                                                  14e-6)), rel=1e-12)
    assert [(r["near"], r["far"], r["channels"]) for r in pr["splits"]] == [(1, 7, 1), (2, 6, 2), (3, 5, 3), (4, 4, 4)]
    for r in pr["splits"]:
        assert r["time"] == pytest.approx(float(ring_time_two_level(
            s["msg_tensor"], 8, r["far"], r["channels"] * s["port_rate"], 3.4e-6, 14e-6)), rel=1e-12)
    # by hand: 2·7/8 · 268,435,456 B / (4 · 50 GB/s) = 2.3488 ms, plus 12 · 3.4 µs + 2 · 14 µs = 68.8 µs
    assert pr["even_split"] == pr["splits"][-1]["time"] == pytest.approx(2.3488e-3 + 68.8e-6, rel=1e-4)
    assert pr["split"] == pytest.approx(9.3952e-3 + 68.8e-6, rel=1e-4)  # 1 + 7: one port
    # planted: every step at the network's latency (the old charge) is 12 × 10.6 µs slower
    flat = float(ring_time(s["msg_tensor"], 8, s["port_rate"], 14e-6))
    assert flat - pr["split"] == pytest.approx(12 * (14e-6 - 3.4e-6), rel=1e-9)
    # the lone GPU's floor: its 268 MB out through one 50 GB/s port and the sum back, whatever the algorithm
    assert pr["lone_port_floor"] == pytest.approx(s["msg_tensor"] / 50e9) == pytest.approx(5.369e-3, rel=1e-3)
    assert pr["lone_port_ratio"] == pytest.approx(9.464 / 5.369, rel=1e-3)  # the ring's 2(t-1)/t and its latency


def test_first_fit_sweep_follows_the_worst_split(data):
    # the other tenants move first-fit's step only through its most lopsided tensor group's channels
    runs, s = data["records"]["first_fit_backgrounds"], data["summary"]
    one = [r["step"] for r in runs if r["tp_channels"] == 1]
    # a one-port group over two nodes costs the swapped pair's step; each further node it spans adds 2 of its
    # steps at the network's latency in place of NVLink's, per tensor all-reduce
    extra = (np.array(one) - s["one_split_step"]) / (s["count_tensor"] * 2 * (14e-6 - 3.4e-6))
    assert one and np.allclose(extra, np.round(extra), atol=1e-6) and np.all(np.round(extra) >= 0)
    assert all(r["step"] < min(one) for r in runs if r["tp_channels"] > 1)
    assert s["sweep_ff_one_channel_runs"] == len(one) and s["first_fit_tp_channels"] == 1
    assert s["sweep_ff_one_channel_share"] == pytest.approx(len(one) / len(runs)) and s["sweep_runs"] >= 15
    assert s["topology_aware_tp_channels"] == 8  # whole nodes: every ring stays on NVLink


def small_job(port_rate: float) -> pl.Job:
    """TP 8 on 8-GPU nodes, the scenario's message shape, NVLink 450 GB/s per direction."""
    traffic = traffic_per_gpu(8, 2, 2, 1, 8192, 16384, 16, 4, 1e10, 2.0, 4.0)
    return pl.Job(8, 2, 2, ("tensor", "pipeline", "data"), (8, 16, 64), traffic, level_rates(450e9, port_rate, 7.0),
                  np.array([3.4e-6, 14e-6, 14e-6, 14e-6]), 7.0, 1.0, 4, 8192 * 8)


def test_the_worked_problem_check_catches_ports_that_buy_nothing():
    # planted: a port as fast as NVLink, so more channels buy nothing and every split costs the same
    times = [r["time"] for r in pl.split_tensor_times(small_job(50e9))]
    assert times == sorted(times, reverse=True) and times[0] == pytest.approx(4 * times[-1], rel=0.1)
    with pytest.raises(ClaimError, match="the more evenly a tensor group splits"):
        pl.worked_problems(small_job(450e9))


def test_the_sweep_check_catches_a_network_where_the_split_does_not_matter(scene_params):
    # the same planted network on the scenario: first-fit's backgrounds then cost the same whatever the split
    # (the network's latency NVLink's too: else the rings that span more nodes pay more network latencies, and
    # the swapped pair no longer costs what first-fit's worst group does)
    p = scene_params(SCENE)
    p["port_rate"] = p["nvlink_bw"] / 2
    p["net_latency"] = p["nvlink_latency"]
    with pytest.raises(ClaimError, match="the fewer channels the worst-split tensor group gets"):
        pl.topology_packing(**p)


def test_nvls_tree_floor_by_hand(data):
    # each of the 4 ports of a node carries the 268 MB message out once: n / (4 · 50 GB/s)
    s, pr = data["summary"], data["problems"]["split_tensor"]
    assert pr["even_nvls_floor"] == pytest.approx(s["msg_tensor"] / (4 * 50e9)) == pytest.approx(1.342e-3, rel=1e-3)
    assert pr["in_node"] < pr["even_nvls_floor"] < pr["even_split"]
    assert pr["even_nvls_per_step_extra"] == pytest.approx(s["count_tensor"] * (pr["even_nvls_floor"] - pr["in_node"]))


def test_nvls_floor_step_keeps_the_ring_where_a_node_holds_one_gpu(data):
    job = small_job(50e9)
    r = {"step": 10.0, "comm": {"tensor": 5.0}}
    assert pl.nvls_floor_step(job, r, 1) == 10.0  # a lone GPU: NVLS needs two channels, the ring stays
    assert pl.nvls_floor_step(job, r, 8) == 10.0  # inside one node: nothing leaves NVLink
    n, count = job.traffic["message"]["tensor"], job.traffic["count"]["tensor"]
    assert pl.nvls_floor_step(job, r, 4) == pytest.approx(10.0 - 5.0 + count * n / (4 * 50e9))
    # the sweep: only runs whose worst split keeps several GPUs on each side can come down
    for run in data["records"]["first_fit_backgrounds"]:
        if run["tp_channels"] == 1:
            assert run["nvls_floor_step"] == run["step"]
        else:
            assert data["summary"]["measured_step"] < run["nvls_floor_step"] < run["step"]


def test_the_floor_never_undercuts_the_ring_inside_a_node():
    # planted: a port as fast as NVLink; the floor then stops at the node's own ring time
    job = small_job(450e9)
    t_node = float(ring_time(job.traffic["message"]["tensor"], 8, 450e9, 3.4e-6))
    assert pl.nvls_tree_floor(job, 4) == pytest.approx(t_node)


# --- whole nodes, topology-blind, and the 1F1B stagger ------------------------------------------
def test_whole_nodes_take_only_wholly_free_nodes():
    free = np.array([1, 2, 3, 8, 9, 10, 11, 12, 13, 14, 15, 20, 21, 22, 23])  # nodes 2, 3, 5 wholly free
    got = pl.place_whole_nodes(free, 8, 4, np.random.default_rng(0))
    nodes = sorted(set((got // 4).tolist()))
    assert len(nodes) == 2 and set(nodes) <= {2, 3, 5} and sorted(got.tolist()) == sorted(
        (np.array(nodes)[:, None] * 4 + np.arange(4)).ravel().tolist())
    with pytest.raises(ValueError, match="whole free nodes"):
        pl.place_whole_nodes(free, 16, 4, np.random.default_rng(0))


def queue_bound(alone: float, together: float, pp: int, slot: float) -> float:
    """The earlier charge, a lower bound: the uplinks saturated from the first stage's reduction, a
    work-conserving queue fed together/p per stage, one slot apart; stage 0 never sooner than alone."""
    return max(alone, max((j + 1) * together / pp - j * slot for j in range(pp)))


def test_fluid_stagger_by_hand():
    # two stages, one pod whose uplinks carry 4 B/s, 3 flows each of 1 B/s ports, 1 byte each; stage 1
    # starts at 0, stage 0 at 0.5. Alone a stage's 3 flows fit (1 B/s each); together 6 flows share 4 B/s.
    end = pl.fluid_finish([0.5, 0.0], [1.0, 1.0], [[3.0], [3.0]], 4.0, 1.0, [1, 1], 100.0)
    # stage 1: 0.5 B alone by 0.5, then 0.5 B at 2/3 B/s: 1.25. Stage 0: 0.5 B at 2/3 by 1.25, then 0.5 B
    # alone at 1 B/s: 1.75, i.e. 1.25 after its start
    assert end.tolist() == pytest.approx([1.75, 1.25])
    # the queue's lower bound: together 1.5 s, so max(1, 2·0.75 − 0.5) = 1: a quarter short, because the
    # uplinks are not saturated while stage 1 runs alone
    assert queue_bound(1.0, 1.5, 2, 0.5) == pytest.approx(1.0) == pl.saturated_queue_time(1.0, 1.5, 2, 0.5)
    assert end[0] - 0.5 > 1.0
    # saturated from the first stage (4 flows each): the fluid is the queue, 2·2/2 − 0.5 = 1.5
    end = pl.fluid_finish([0.5, 0.0], [1.0, 1.0], [[4.0], [4.0]], 4.0, 1.0, [1, 1], 100.0)
    assert end[0] - 0.5 == pytest.approx(queue_bound(1.0, 2.0, 2, 0.5)) == pytest.approx(1.5)
    # uplinks that never bind (1 flow each): every stage takes its time alone
    end = pl.fluid_finish([0.5, 0.0], [1.0, 1.0], [[1.0], [1.0]], 4.0, 1.0, [1, 1], 100.0)
    assert end.tolist() == pytest.approx([1.5, 1.0])
    # channels multiply a ring's rate, up to NVLink's
    assert pl.fluid_finish([0.0], [1.0], [[1.0]], 4.0, 1.0, [2], 1.5).tolist() == pytest.approx([1 / 1.5])


def test_backward_slot_is_two_thirds_of_a_1f1b_slot():
    assert pl.backward_slot(6.2, 16, 16) == pytest.approx(6.2 / 31 * 2 / 3)


def test_scenario_whole_nodes_is_the_middle_case(data):
    s = data["summary"]
    assert s["topology_aware_step"] < s["whole_node_step"] < s["first_fit_step"] < s["random_step"]
    assert s["whole_node_tp_split"] == 0 and s["whole_node_comm_tensor"] == s["topology_aware_comm_tensor"]
    # the same bytes leave NVLink as topology-aware; they cross more switches
    assert s["whole_node_off_domain"] == pytest.approx(s["topology_aware_off_domain"])
    assert s["whole_node_switch_hops"] > s["topology_aware_switch_hops"]
    # the extra is data + pipeline; the fluid stagger lies between the saturated queue and all at once
    assert s["whole_node_extra"] == pytest.approx(s["whole_node_extra_data"] + s["whole_node_extra_pipeline"])
    queue = queue_bound(s["whole_node_data_alone"], s["whole_node_data_together"], 16, s["backward_slot"])
    assert queue < s["whole_node_comm_data"] < s["whole_node_data_together"]
    # charged all at once (no stagger) it is the bound, far worse
    assert s["whole_node_step_together"] > s["whole_node_step"]
    assert s["backward_slot"] == pytest.approx(s["measured_step"] / 31 * 2 / 3)


def test_whole_node_sweep_pays_between_the_queue_and_all_at_once(data, scene_params):
    """Over the seeded backgrounds, whole nodes topology-blind pay a data-parallel penalty on every one:
    no less than the saturated queue (a lower bound), no more than every stage's reduction at once."""
    s, p = data["summary"], scene_params(SCENE)
    runs = data["records"]["first_fit_backgrounds"]
    slot, pp = s["backward_slot"], p["pp"]
    for run in runs:
        queue = queue_bound(run["whole_node_data_alone"], pp * run["whole_node_stage_work"], pp, slot)
        assert queue - 1e-9 <= run["whole_node_comm_data"] <= pp * run["whole_node_stage_work"] + 1e-9
        assert run["whole_node_extra_data"] > 0 and run["whole_node_step"] > s["measured_step"]
    assert s["sweep_wn_step_min"] <= s["sweep_wn_step_median"] <= s["sweep_wn_step_max"]
    # the median and range are over every background: the page's own (seed + 1) and the sweep's
    assert s["sweep_wn_queued_runs"] == s["sweep_wn_draws"] == len(runs) + 1 == s["sweep_runs"] + 1
    steps = sorted([s["whole_node_step"], *(r["whole_node_step"] for r in runs)])
    assert s["sweep_wn_step_median"] == pytest.approx(np.median(steps))
    assert (s["sweep_wn_step_min"], s["sweep_wn_step_max"]) == (steps[0], steps[-1])
    assert s["sweep_wn_throughput_median"] == pytest.approx(s["measured_step"] / np.median(steps))
    # random GPUs: their reductions queue too, less than whole nodes' here
    assert s["topology_aware_comm_data"] < s["random_comm_data"] < s["whole_node_comm_data"]


def test_one_f_one_b_step_by_hand():
    # measured 6.2 s at b0 = 1, 16 sequences, p = 16: 31 slots of 0.2 s, one sequence each
    assert pl.one_f_one_b_step(6.2, 16, 1, 1, 16) == pytest.approx(6.2)
    # b = 2: 8 + 15 = 23 slots of two sequences, 0.4 s each
    assert pl.one_f_one_b_step(6.2, 16, 1, 2, 16) == pytest.approx(23 * 0.4)
    # b = 16: one microbatch, 16 slots of 3.2 s; the bubble is 15/16 of the step
    assert pl.one_f_one_b_step(6.2, 16, 1, 16, 16) == pytest.approx(16 * 3.2)
    # measured at b0 = 2 instead: 23 slots of 6.2/23 s; b = 1 is 31 slots of half that
    assert pl.one_f_one_b_step(6.2, 16, 2, 1, 16) == pytest.approx(31 * 6.2 / 23 / 2)


def test_stagger_sweep_by_hand(data, scene_params):
    """Every microbatch size that divides the 16 sequences: m = 16/b microbatches, a backward slot of
    b·⅔·T/(16 + 15) (the measured run's compute per sequence, b₀ = 1), a packed step of (m + 15) such
    slots; the catalogue's b = 1 row is the headline's median penalty; all at once is the bound above
    every row, and the longer slots spread the reductions until the uplinks no longer queue them."""
    s, p = data["summary"], scene_params(SCENE)
    rows = data["records"]["stagger"]
    T = s["measured_step"]
    assert [r["micro_batch"] for r in rows] == [1, 2, 4, 8, 16] and p["measured_micro_batch"] == 1
    for r in rows:
        b, m = r["micro_batch"], r["microbatches"]
        assert m == 16 // b
        assert r["slot"] == pytest.approx(b * 2 / 3 * T / (16 + p["pp"] - 1))
        assert r["packed_step"] == pytest.approx((m + p["pp"] - 1) * b * T / (16 + p["pp"] - 1))
        assert r["bubble"] == pytest.approx((p["pp"] - 1) / (m + p["pp"] - 1))
        assert r["extra_min"] <= r["extra"] <= r["extra_max"] < r["together_extra"]
    # the review's number: at b = 2 the slot is about 290 ms, not ⅔·T/23
    assert rows[1]["slot"] == pytest.approx(2 * rows[0]["slot"]) and rows[1]["slot"] > 0.28
    here = rows[0]
    assert p["micro_batch"] == 1 and here["packed_step"] == pytest.approx(T)
    assert here["extra"] == pytest.approx(s["sweep_wn_extra_median"]) == pytest.approx(s["stagger_extra"])
    assert here["together_extra"] > 3 * here["extra"]
    # the slots grow with b; the penalty never grows with them; the bubble grows by far more than it saves
    assert all(a["slot"] < b["slot"] and b["extra"] <= a["extra"] + 1e-9 for a, b in zip(rows, rows[1:]))
    free = next(r for r in rows if r["extra_data"] < 0.01 * here["extra_data"])
    assert s["stagger_free_micro_batch"] == free["micro_batch"] and s["stagger_free_extra"] < here["extra"]
    assert free["packed_step"] - T > 10 * (here["extra"] - free["extra"])
