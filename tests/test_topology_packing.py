"""Scene 14 · Topology-aware packing: Megatron-LM's traffic formulas against the paper's own
expressions, a hand-checked small cluster, packed never worse than random, the fragmentation
trace's invariants and bounds, and determinism."""

from __future__ import annotations

import numpy as np
import pytest

from models import topology_packing as pl
from models.constants import CONSTANTS
from models.lib.collectives import ring_bytes_sent_per_rank, ring_time

SCENE = "topology-packing"


@pytest.fixture(scope="module")
def data(model_output):
    return model_output(SCENE)[0]


# --- Megatron-LM's formulas -----------------------------------------------------------
@pytest.mark.parametrize("h, t", [(12288, 8), (25600, 8), (20480, 8)])
def test_tensor_bytes_match_narayanan_section_3_3(h, t):
    # Narayanan et al., SC '21, §3.2: "tensors of total size bsh need to be all-reduced among t model
    # replicas twice each in the forward and backward pass for each layer, leading to a total
    # communication of 8bsh((t-1)/t) per layer per device for each microbatch". Hidden sizes of
    # Table 1's 145B, 1T and 530B rows; b = 1, s = 2048; one layer, one microbatch, 1 byte/element.
    b, s = 1, 2048
    tr = pl.traffic_per_gpu(t, pp=1, dp=1, micro_batch=b, seq=s, hidden=h, layers=1, microbatches=1,
                            params=1.0, act_bytes=1.0, grad_bytes=1.0)
    assert tr["tensor"] == pytest.approx(8 * b * s * h * (t - 1) / t)
    assert tr["count"]["tensor"] == 4  # two all-reduces forward, two backward


def test_tensor_bytes_per_stage_match_section_3_2():
    # §3.2: "the total amount of tensor-parallel-communication per device for each microbatch is then
    # l_stage · 8bsh(t-1)/t"; 96 layers over 8 stages (the 175B-class shape), one microbatch
    b, s, h, t = 1, 2048, 12288, 8
    tr = pl.traffic_per_gpu(t, 8, 1, b, s, h, 96, 1, 1.0, 1.0, 1.0)
    assert tr["layers_per_stage"] == 12
    assert tr["tensor"] == pytest.approx(12 * 8 * b * s * h * (t - 1) / t)


def test_tensor_bytes_1t_row_by_hand():
    # the 1T row of Table 1 (h = 25,600, t = 8), s = 2048, b = 1, BF16: 8·2048·25600·7/8 = 367,001,600
    # elements per layer per microbatch per device, 734,003,200 bytes
    tr = pl.traffic_per_gpu(8, 1, 1, 1, 2048, 25600, 1, 1, 1.0, 2.0, 4.0)
    assert tr["tensor"] == 734_003_200


def test_pipeline_bytes_match_section_3_3_and_4_1():
    # §3.2: b·s·h between consecutive devices per microbatch, each way (activations, then gradients);
    # §4.1 scatter/gather: each of the t tensor ranks sends b·s·h/t
    b, s, h = 2, 2048, 12288
    plain = pl.traffic_per_gpu(1, 2, 1, b, s, h, 2, 1, 1.0, 1.0, 1.0)
    assert plain["pipeline"] == 2 * b * s * h
    split = pl.traffic_per_gpu(8, 2, 1, b, s, h, 2, 1, 1.0, 1.0, 1.0)
    assert split["pipeline"] == 2 * b * s * h / 8


def test_data_bytes_are_a_ring_all_reduce_of_the_local_gradients():
    tr = pl.traffic_per_gpu(8, 16, 128, 1, 8192, 16384, 126, 16, 405e9, 2.0, 4.0)
    assert tr["message"]["data"] == pytest.approx(405e9 / 128 * 4)
    assert tr["data"] == pytest.approx(float(ring_bytes_sent_per_rank(405e9 / 128 * 4, 128)))


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
    assert s["measured_step"] == pytest.approx(6 * 405e9 * 16_777_216 / (16384 * 400e12))


def test_scenario_orders_the_placements(data):
    s = data["summary"]
    assert s["topology_aware_step"] == pytest.approx(s["measured_step"])  # the reference
    assert s["topology_aware_step"] <= s["first_fit_step"] <= s["random_step"]
    assert s["topology_aware_tp_split"] == 0 and s["random_tp_split"] > 0.99
    assert s["stranded_topology_aware"] < s["stranded_first_fit"]


# --- a hand-checkable small cluster ------------------------------------------------------------
HIER = (4, 8, 16)  # nodes of 4 GPUs, racks of 2 nodes, pods of 2 racks; 2 pods = 32 GPUs


def test_hand_checked_case_levels_on_a_32_gpu_cluster():
    assert pl.hop_levels(0, 3, *HIER) == 0  # same node
    assert pl.hop_levels(0, 4, *HIER) == 1  # same rack
    assert pl.hop_levels(0, 8, *HIER) == 2  # same pod
    assert pl.hop_levels(0, 16, *HIER) == 3  # across pods
    # TP 4, PP 2, DP 2 packed on GPUs 0..15 in Llama 3's order (tensor, pipeline, data):
    groups = pl.group_gpus(np.arange(16), 4, 2, 2)
    assert groups["tensor"].tolist() == [[0, 1, 2, 3], [4, 5, 6, 7], [8, 9, 10, 11], [12, 13, 14, 15]]
    assert groups["pipeline"][0].tolist() == [0, 4] and groups["data"][0].tolist() == [0, 8]
    lv = pl.dimension_levels(groups, HIER)
    assert lv["tensor"].max() == 0  # every tensor group inside a node
    assert np.all(lv["pipeline"] == 1)  # stages 4 GPUs apart: the other node of the rack
    assert np.all(lv["data"] == 2)  # replicas 8 GPUs apart: the other rack of the pod
    traffic = {"tensor": 100.0, "pipeline": 10.0, "data": 30.0,
               "message": {"tensor": 1200.0, "pipeline": 50.0, "data": 600.0},
               "count": {"tensor": 2, "pipeline": 2, "data": 1}}
    assert pl.level_bytes(lv, traffic).tolist() == [100.0, 10.0, 30.0, 0.0]
    assert pl.off_domain_share(lv, traffic) == pytest.approx(40 / 140)
    assert pl.mean_switch_hops(lv, traffic) == pytest.approx((10 * 1 + 30 * 3) / 140)
    rates, alphas = np.array([400.0, 50.0, 50.0, 50.0 / 7]), np.zeros(4)
    t = pl.dimension_times(lv, traffic, rates, alphas, pl.cross_pod_load(groups, HIER), 7.0)
    assert t["tensor"] == pytest.approx(2 * 2 * 3 * 1200 / (4 * 400))  # 2 × ring 2(p-1)·n/(pB)
    assert t["pipeline"] == pytest.approx(2 * 50 / 50)
    assert t["data"] == pytest.approx(2 * 1 * 600 / (2 * 50))
    # the other order (Megatron's: tensor, data, pipeline) swaps what crosses racks
    lv2 = pl.dimension_levels(pl.group_gpus(np.arange(16), 4, 2, 2, ("tensor", "data", "pipeline")), HIER)
    assert np.all(lv2["data"] == 1) and np.all(lv2["pipeline"] == 2)


def test_hand_checked_case_cross_pod_share_of_the_uplinks():
    # 2 pods of 16; a data-parallel pair 16 apart: every one of the 16 rings crosses.
    groups = pl.group_gpus(np.arange(32), 1, 1, 32, ("tensor", "pipeline", "data"))
    load = pl.cross_pod_load(groups, HIER)["data"]
    assert load == pytest.approx(1 / 16)  # one flow leaves each pod, 16 GPUs per pod
    groups = {"data": np.stack([np.arange(16), np.arange(16) + 16], axis=1)}
    assert pl.cross_pod_load(groups, HIER)["data"] == pytest.approx(16 / 16)  # every GPU's flow leaves


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
    traffic = pl.traffic_per_gpu(tp, pp, dp, 1, 4096, 8192, 16, 4, 7e9, 2.0, 4.0)
    rates = pl.level_rates(450e9, 50e9, 7.0)
    alphas = np.array([3.4e-6, 14e-6, 14e-6, 14e-6])
    ref = pl.place_topology_aware(free, tp * pp * dp, 8, 64)
    steps = {k: pl.step_time(pl.place(k, free, tp * pp * dp, 8, 64, rng), ref, tp, pp, dp, traffic, hier,
                             rates, alphas, 7.0, 1.0)["step"] for k in pl.PLACEMENTS}
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
    # worked problem: a tensor group split over two nodes runs at the port rate
    s, pr = data["summary"], data["problems"]["split_tensor"]
    assert pr["in_node"] == pytest.approx(float(ring_time(s["msg_tensor"], 8, s["nvlink_rate"], 3.4e-6)))
    assert pr["split"] == pytest.approx(float(ring_time(s["msg_tensor"], 8, s["port_rate"], 14e-6)))
