"""The placement library: Megatron-LM's traffic formulas against the paper's own expressions, a
hand-checked small cluster's hop levels, groups, dimension times and share of the pod uplinks, and
the channels a ring that leaves its node gets (one per port of its sparsest node, as NCCL builds it)."""

from __future__ import annotations

import numpy as np
import pytest

from models.lib import placement as pl
from models.lib.collectives import ring_bytes_sent_per_rank, ring_latency_two_level


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
    rates, alphas = np.array([400.0, 50.0, 50.0, 50.0 / 7]), np.zeros(4)
    ch = pl.dimension_channels(groups, HIER[0])
    assert ch["data"].tolist() == [1] * 8 and ch["pipeline"].tolist() == [1] * 8  # one GPU per node each
    t = pl.dimension_times(lv, ch, traffic, rates, alphas, pl.cross_pod_load(groups, ch, HIER), 7.0,
                           steps=pl.dimension_step_levels(groups, HIER))
    assert t["tensor"] == pytest.approx(2 * 2 * 3 * 1200 / (4 * 400))  # 2 × ring 2(p-1)·n/(pB)
    assert t["pipeline"] == pytest.approx(2 * 50 / 50)
    assert t["data"] == pytest.approx(2 * 1 * 600 / (2 * 50))
    # the other order (Megatron's: tensor, data, pipeline) swaps what crosses racks
    lv2 = pl.dimension_levels(pl.group_gpus(np.arange(16), 4, 2, 2, ("tensor", "data", "pipeline")), HIER)
    assert np.all(lv2["data"] == 1) and np.all(lv2["pipeline"] == 2)


def test_hand_checked_case_cross_pod_share_of_the_uplinks():
    # 2 pods of 16: one data-parallel ring of all 32 GPUs, 4 in every node, runs 4 channels; each
    # leaves each pod once: 4 flows over a pod's 16 GPUs.
    groups = pl.group_gpus(np.arange(32), 1, 1, 32, ("tensor", "pipeline", "data"))
    load = pl.cross_pod_load(groups, pl.dimension_channels(groups, HIER[0]), HIER)["data"]
    assert load == pytest.approx(4 / 16)
    # a data-parallel pair 16 apart: every one of the 16 rings crosses.
    groups = {"data": np.stack([np.arange(16), np.arange(16) + 16], axis=1)}
    one = {"data": np.ones(16, dtype=int)}
    assert pl.cross_pod_load(groups, one, HIER)["data"] == pytest.approx(16 / 16)  # every GPU's flow leaves


def test_a_ring_leaving_its_pod_sends_one_flow_per_channel():
    # one data-parallel ring of 8: 4 GPUs in node 0 (pod 0), 4 in node 4 (pod 1): 4 channels, each a flow
    # leaving each pod once (NCCL enters and leaves a node once per channel), whatever the rank order
    group = np.array([[0, 1, 2, 3, 16, 17, 18, 19]])
    interleaved = np.array([[0, 16, 1, 17, 2, 18, 3, 19]])
    for g in (group, interleaved):
        ch = pl.dimension_channels({"data": g}, HIER[0])
        assert ch["data"].tolist() == [4]
        assert pl.cross_pod_load({"data": g}, ch, HIER)["data"] == pytest.approx(4 / 16)
    # planted defect: one flow per ring rather than per channel under-counts what leaves the pod
    assert pl.cross_pod_load({"data": group}, {"data": np.ones(1, dtype=int)}, HIER)["data"] == pytest.approx(1 / 16)


# --- channels: one per NIC, the fewest any node offers (NCCL's ring search) --------------------
NODE = 8  # 8-GPU nodes, one port per GPU
PORT, NVLINK = 50e9, 450e9
RATES8 = np.array([NVLINK, PORT, PORT, PORT / 7])


def split_group(*per_node: int) -> np.ndarray:
    """One group with per_node[i] GPUs in node i (nodes 0, 1, 2, ... of NODE GPUs)."""
    return np.concatenate([i * NODE + np.arange(k) for i, k in enumerate(per_node)])[None, :]


@pytest.mark.parametrize("per_node, channels", [
    ((1, 7), 1), ((7, 1), 1), ((2, 6), 2), ((3, 5), 3), ((4, 4), 4),  # two nodes: min(k, n - k)
    ((8,), 8),  # inside one node: its size (its ring never reaches the network)
    ((2, 3, 3), 2), ((4, 2, 2), 2), ((1, 1, 1, 1, 1, 1, 1, 1), 1),  # more nodes: the sparsest one
])
def test_ring_channels_are_the_fewest_gpus_the_group_has_in_any_node(per_node, channels):
    assert pl.ring_channels(split_group(*per_node), NODE).tolist() == [channels]


def test_ring_channels_do_not_depend_on_rank_order():
    # NCCL orders the ring by topology: an interleaved 4 + 4 group gets the same four channels
    interleaved = np.array([[0, 8, 1, 9, 2, 10, 3, 11]])
    assert pl.ring_channels(interleaved, NODE).tolist() == [4]
    many = np.stack([split_group(1, 7)[0], split_group(4, 4)[0], np.arange(8)])
    assert pl.ring_channels(many, NODE).tolist() == [1, 4, 8]


def test_ring_channels_refuse_a_group_that_is_not_an_array_of_rows():
    with pytest.raises(ValueError, match="groups must be an array of shape"):
        pl.ring_channels(np.arange(8), NODE)


def test_ring_rate_is_channels_times_the_port_at_most_nvlink():
    assert pl.ring_rate(0, 1, RATES8) == NVLINK  # inside a node: NVLink whatever the count
    assert pl.ring_rate(1, 1, RATES8) == PORT
    assert pl.ring_rate(1, 4, RATES8) == 4 * PORT  # the 4 + 4 split: 200 GB/s
    assert pl.ring_rate(3, 4, RATES8) == pytest.approx(4 * PORT / 7)  # across pods, each flow's share
    assert pl.ring_rate(1, 16, RATES8) == NVLINK  # 16 ports would outrun one GPU's NVLink


HIER8 = (NODE, 4 * NODE, 16 * NODE)  # 8-GPU nodes, 4 to a rack, 4 racks to a pod


def times8(groups: dict, traffic: dict, alphas) -> dict:
    """dimension_times on HIER8, channels and ring steps from the groups."""
    return pl.dimension_times(pl.dimension_levels(groups, HIER8), pl.dimension_channels(groups, NODE), traffic,
                              RATES8, alphas, steps=pl.dimension_step_levels(groups, HIER8))


@pytest.mark.parametrize("per_node", [(1, 7), (2, 6), (4, 4), (8,), (2, 3, 3)])
def test_split_ring_time_by_hand(per_node):
    # one all-reduce of n bytes over p = 8 ranks on N nodes of one rack: the bandwidth term 2(p-1)/p·n/B,
    # B = min(k) ports or NVLink inside a node, plus 2(N-1) steps at the network's α and 2(p-1) - 2(N-1) at NVLink's
    n, alphas = 268_435_456.0, np.array([3.4e-6, 14e-6, 14e-6, 14e-6])
    traffic = {"message": {"tensor": n}, "count": {"tensor": 1}}
    t = times8({"tensor": split_group(*per_node)}, traffic, alphas)["tensor"]
    nodes = len(per_node)
    rate = NVLINK if nodes == 1 else min(per_node) * PORT
    latency = (2 * 7 - 2 * (nodes - 1)) * alphas[0] + 2 * (nodes - 1) * alphas[1]
    assert t == pytest.approx(latency + 2 * 7 / 8 * n / rate, rel=1e-12)


@pytest.mark.parametrize("per_node", [(1, 7), (4, 4)])
def test_two_node_ring_latency_by_hand_is_nccls_two_level_latency(per_node):
    # review: an 8-rank ring on 2 nodes pays (2(p-1) - 2(N-1))·α_nvlink + 2(N-1)·α_net = 12·α_nvlink + 2·α_net
    # (NCCL's tuner, src/graph/tuning.cc), not 14·α_net; the bandwidth term is left out (n = 0)
    a_nv, a_net = 3.4e-6, 14e-6
    alphas = np.array([a_nv, a_net, a_net, a_net])
    traffic = {"message": {"tensor": 0.0}, "count": {"tensor": 1}}
    t = times8({"tensor": split_group(*per_node)}, traffic, alphas)["tensor"]
    assert t == pytest.approx(12 * a_nv + 2 * a_net, rel=1e-12) == pytest.approx(68.8e-6, rel=1e-12)
    assert t == pytest.approx(ring_latency_two_level(8, max(per_node), a_nv, a_net), rel=1e-12)
    assert pl.ring_step_levels(split_group(*per_node), HIER8).tolist() == [[12, 2, 0, 0]]
    # planted: every step at the slowest hop's α (the old charge) is 10.6 µs × 12 = 127.2 µs more
    assert 14 * a_net - t == pytest.approx(12 * (a_net - a_nv))


def test_ring_steps_follow_nccls_ring_not_the_rank_order():
    # an interleaved 4 + 4 group: NCCL visits each node once, so 2 steps cross, as for the contiguous group
    interleaved = np.array([[0, 8, 1, 9, 2, 10, 3, 11]])
    assert pl.ring_step_levels(interleaved, HIER8).tolist() == [[12, 2, 0, 0]]
    # inside one node every step is NVLink's; one GPU in each of a rack's 4 nodes, every step crosses
    assert pl.ring_step_levels(np.arange(8)[None, :], HIER8).tolist() == [[14, 0, 0, 0]]
    assert pl.ring_step_levels(np.arange(4)[None, :] * NODE, HIER8).tolist() == [[0, 6, 0, 0]]


def test_ring_steps_over_several_levels_by_hand():
    # 2 GPUs in node 0, 3 in node 16 (the next pod: 128 GPUs a pod), 3 in node 1 (node 0's rack): the ring
    # 0 -> 16 -> 1 -> 0 crosses pods twice and the rack once. Each node-to-node hop twice, less two at the
    # cheapest (the rack hop): 4 steps across pods, none in the rack, 2·(8 - 3) = 10 on NVLink
    group = np.array([[0, 1, 128, 129, 130, 8, 9, 10]])
    assert pl.ring_step_levels(group, HIER8).tolist() == [[10, 0, 0, 4]]
    # one GPU in each of 8 nodes, nodes 0-3 in rack 0 and 4-7 in rack 1: 6 hops inside a rack and 2
    # between the racks, each twice, less two of the cheapest (in-rack): 10 rack steps and 4 pod steps
    two_racks = np.arange(8)[None, :] * NODE
    assert pl.ring_step_levels(two_racks, HIER8).tolist() == [[0, 10, 4, 0]]
    # a pod of one rack puts the rack-to-rack hops across pods; racks of 8 nodes keep all 14 in the rack
    assert pl.ring_step_levels(two_racks, (NODE, 4 * NODE, 4 * NODE)).tolist() == [[0, 10, 0, 4]]
    assert pl.ring_step_levels(two_racks, (NODE, 8 * NODE, 16 * NODE)).tolist() == [[0, 14, 0, 0]]
    alphas = np.array([1.0, 10.0, 100.0, 1000.0])
    assert float(pl.ring_latency(pl.ring_step_levels(group, HIER8), alphas)[0]) == 10 * 1.0 + 4 * 1000.0


def test_every_ring_takes_its_two_p_minus_one_steps():
    rng = np.random.default_rng(7)
    groups = np.stack([rng.choice(512, size=8, replace=False) for _ in range(200)])
    steps = pl.ring_step_levels(groups, HIER8)
    assert np.all(steps.sum(axis=1) == 14) and np.all(steps >= 0)
    # the steps that cross between nodes are 2(N - 1), N the nodes each group spans (NCCL's nInterSteps)
    nodes = np.array([len(np.unique(g // NODE)) for g in groups])
    assert np.array_equal(steps[:, 1:].sum(axis=1), 2 * (nodes - 1))
    with pytest.raises(ValueError, match="takes 14 steps"):
        pl.ring_allreduce_time(1.0, 8, [13, 0, 0, 0], 0, 8, RATES8, np.zeros(4))
    with pytest.raises(TypeError):  # the latency needs the steps: no silent every-step-at-the-slowest-hop charge
        pl.dimension_times(pl.dimension_levels({"tensor": groups}, HIER8), {"tensor": np.ones(200, dtype=int)},
                           {"message": {"tensor": 1.0}, "count": {"tensor": 1}}, RATES8, np.zeros(4))


def test_split_4_plus_4_is_four_times_the_rate_of_1_plus_7():
    # the bandwidth terms alone: 2·7/8·n/B, B = 50 GB/s against 200 GB/s (9.40 ms against 2.35 ms)
    n, zero = 268_435_456.0, np.zeros(4)
    traffic = {"message": {"tensor": n}, "count": {"tensor": 1}}

    def time(*per_node):
        return times8({"tensor": split_group(*per_node)}, traffic, zero)["tensor"]

    assert time(1, 7) == pytest.approx(2 * 7 / 8 * n / PORT) == pytest.approx(9.395e-3, rel=1e-3)
    assert time(4, 4) == pytest.approx(time(1, 7) / 4) == pytest.approx(2.349e-3, rel=1e-3)


def test_the_slowest_group_sets_the_dimension_and_pipeline_sends_take_one_port():
    # two tensor groups, one split 4 + 4 and one 1 + 7: the dimension costs the 1 + 7 group's time
    n, zero = 1e9, np.zeros(4)
    groups = {"tensor": np.concatenate([split_group(4, 4), split_group(0, 0, 1, 7)]),
              "pipeline": np.array([[0, 8], [1, 9]])}
    traffic = {"message": {"tensor": n, "pipeline": n}, "count": {"tensor": 1, "pipeline": 1}}
    ch = pl.dimension_channels(groups, NODE)
    assert ch["pipeline"].tolist() == [1, 1]
    t = pl.dimension_times(pl.dimension_levels(groups, HIER8), ch, traffic, RATES8, zero,
                           steps=pl.dimension_step_levels(groups, HIER8))
    assert t["tensor"] == pytest.approx(2 * 7 / 8 * n / PORT)
    assert t["pipeline"] == pytest.approx(n / PORT)
