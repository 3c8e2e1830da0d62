"""Tests for models/ring_vs_tree.py (scene ring-vs-tree): the schedules the animation draws, the entry
function on the catalogue's parameters, its figure and scene. The times themselves: test_lib_collectives.py."""

from __future__ import annotations

import math

import numpy as np
import pytest

from models import ring_vs_tree as c
from models.constants import CONSTANTS, SOURCES, const
from models.exhibit import ClaimError, ParamError
from models.lib import collectives as co
from pipeline.jsonio import to_json

B = const("ndr_port_rate")  # 50 GB/s per direction
ALPHA = const("nccl_net_ring_simple_latency")  # 14 us


@pytest.fixture(scope="module")
def data(model_output):
    return model_output("ring-vs-tree")[0]


# --- constants the scene cites -------------------------------------------------
def test_constants_and_sources():
    # NCCL 2.20.3 src/graph/tuning.cc:
    # hwLat[NCCL_HW_NET][NCCL_ALGO_RING][NCCL_PROTO_SIMPLE] = 14.0 (us)
    assert const("nccl_net_ring_simple_latency") == pytest.approx(14.0e-6)
    # ConnectX-7 datasheet: NDR 400 Gb/s per port = 50 GB/s per direction
    assert const("ndr_port_rate") == pytest.approx(50e9)
    assert CONSTANTS["ndr_port_rate"].direction == "per direction"
    for key in ("patarasuk2009", "thakur2005", "sanders2009", "nccl-tuning", "nccl-trees",
                "nccl-tests-performance", "nccl-double-tree-blog", "graham2016-sharp", "nccl-2-18-release",
                "llama3-numerics", "korthikanti2022"):
        assert SOURCES[key].url.startswith("https://")


def test_series_busbw_relation(data):
    s, p = data["series"], data["summary"]["ranks"]
    n = np.array(s["message_bytes"])
    for algo in ("ring", "tree"):
        t = np.array(s[f"{algo}_time"])
        np.testing.assert_allclose(s[f"{algo}_busbw"], n / t * 2 * (p - 1) / p, rtol=1e-12)


# --- the schedule the animation draws --------------------------------------------------------
@pytest.mark.parametrize("p", [2, 3, 5, 8, 13])
def test_ring_schedule_reduces_then_gathers(p):
    sched = c.ring_schedule(p)
    assert len(sched["reduce_scatter"]) == len(sched["all_gather"]) == p - 1
    rng = np.random.default_rng(7)
    inputs = rng.integers(-1000, 1000, size=(p, p, 3))  # rank x chunk x elements
    total = inputs.sum(axis=0)  # the all-reduce answer, per chunk
    states = c.simulate_ring(inputs, sched)
    assert len(states) == 2 * (p - 1) + 1
    after_rs = states[p - 1]
    for r in range(p):
        full = [ch for ch in range(p) if np.array_equal(after_rs[r, ch], total[ch])]
        owner = sched["owner_after_reduce_scatter"][r]
        assert owner in full
        # exactly one fully reduced chunk per rank (random inputs make accidents impossible)
        assert full == [owner]
    assert sorted(sched["owner_after_reduce_scatter"]) == list(range(p))
    for r in range(p):
        np.testing.assert_array_equal(states[-1][r], total)


@pytest.mark.parametrize("p", [2, 8])
def test_contributions_count_ranks_in_each_chunk(p):
    cb = np.array(c.ring_contributions(p))
    assert cb.shape == (2 * (p - 1) + 1, p, p)
    assert np.all(cb[0] == 1) and np.all(cb[-1] == p)
    assert np.all((cb[p - 1] == p).sum(axis=1) == 1)  # one full chunk per rank after reduce-scatter
    assert np.all(np.diff(cb.sum(axis=(1, 2))) > 0)  # every step adds information


def test_each_step_is_a_permutation_of_sends():
    sched = c.ring_schedule(8)
    for phase in ("reduce_scatter", "all_gather"):
        for sends in sched[phase]:
            assert sorted(sends) == list(range(8))  # every chunk is on the wire once per step


# --- the double binary tree -------------------------------------------------------------------
@pytest.mark.parametrize("p", range(2, 65))
def test_double_binary_tree_structure(p):
    t0, t1 = c.double_binary_tree(p)
    for t in (t0, t1):
        assert t.count(-1) == 1  # one root, p-1 edges
        assert max(c.depths(t)) == co.tree_depth(p) == math.ceil(math.log2(p))
    interior0 = {q for q in t0 if q >= 0}
    interior1 = {q for q in t1 if q >= 0}
    if p % 2 == 0:
        assert not interior0 & interior1  # mirror: each rank is interior in at most one tree
    else:
        assert interior0 & interior1 <= {0}  # shift: only rank 0 (one child in each tree)
    # what bounds a pipeline stage at n/(kB): at most two children across BOTH trees,
    # so a rank receives at most two half-message chunks per stage
    assert max(t0.count(r) + t1.count(r) for r in range(p)) <= 2


def test_btree_matches_ncclGetBtree_picture():
    # trees.cc illustration for 14 ranks: 0-8, 8-{4,12}, 4-{2,6}, 12-{10,13}, 2-{1,3}, ...
    t = c.btree(14)
    assert t[8] == 0 and t[4] == 8 and t[12] == 8 and t[2] == 4 and t[6] == 4
    assert t[10] == 12 and t[13] == 12 and t[1] == 2 and t[11] == 10


# --- edge cases --------------------------------------------------------------------------------
def test_two_ranks():
    assert co.ring_steps(2) == 2 and co.tree_depth(2) == 1
    assert co.crossover(2, B, ALPHA) == 0.0 and co.crossover_unpipelined(2, B, ALPHA) == 0.0
    n = np.logspace(0, 12, 100)
    # each rank roots one tree and is the other's only child: one n/2 chunk each way per stage,
    # so the double tree ties the ring at 2 alpha + n/B (the review found it charged at twice that)
    assert np.allclose(co.tree_time(n, 2, B, ALPHA), co.ring_time(n, 2, B, ALPHA), rtol=1e-12)
    assert float(co.tree_time(1e9, 2, B, ALPHA)) == pytest.approx(2 * ALPHA + 1e9 / B)
    # so the page's "the tree wins below the crossover" cannot be published for 2 ranks
    with pytest.raises(ClaimError, match="below the crossover"):
        c.ring_vs_tree(ranks=2, link_bandwidth=B, step_latency=ALPHA, cluster_ranks=64)


@pytest.mark.parametrize("p", list(range(2, 70)) + [127, 128, 129, 1000, 1001])
def test_stage_share_is_the_busiest_port_on_the_trees(p):
    """In one stage a rank sends a chunk to its parent in each tree it does not root and receives one
    from each child across both trees; the busiest port's count of n/(2k) chunks, halved, is the share
    the time formula charges."""
    t0, t1 = c.double_binary_tree(p)
    busiest = max(max((t0[r] != -1) + (t1[r] != -1), t0.count(r) + t1.count(r)) for r in range(p))
    assert co.tree_stage_share(p) == busiest / 2


def test_three_ranks_one_port_carries_both_halves():
    """p = 3: both trees are chains (0-2-1 and 1-0-2), rank 2 sends both halves to rank 0: the tree
    sends 1.5 n in all from its busiest GPU, but one port carries n/k per stage, so it never wins."""
    t0, t1 = c.double_binary_tree(3)
    assert t0 == [-1, 2, 0] and t1 == [1, -1, 0]
    assert max(c.double_tree_bytes_sent(1.0, 3)) == pytest.approx(1.5)
    assert co.tree_stage_share(3) == 1.0
    n = np.logspace(0, 12, 100)
    assert np.all(co.ring_time(n, 3, B, ALPHA) < co.tree_time(n, 3, B, ALPHA))


def test_binomial_tree_is_the_unpipelined_double_tree_with_log_p_the_bytes():
    """Binomial reduce + broadcast: 2D steps of the full n. At k = 1 the double tree costs the same
    (its busiest port carries n per stage); past that the double tree pipelines and the binomial
    tree's 2D n/B bandwidth term leaves it D times behind the double tree's 2n/B."""
    for p in (4, 8, 64):
        d = co.tree_depth(p)
        assert float(co.binomial_tree_time(1e3, p, B, ALPHA)) == pytest.approx(
            float(co.tree_time_chunks(1e3, p, B, ALPHA, 1)))
        big = 1e12
        assert float(co.binomial_tree_time(big, p, B, ALPHA)) / float(co.tree_time(big, p, B, ALPHA)) \
            == pytest.approx(d, rel=0.02)


def test_ll_crossover_gives_each_algorithm_its_own_alpha(data):
    """NCCL's hwLat table (2.20.3 tuning.cc:75, unchanged in 2.30.7): NET Ring/LL 2.7 us, Tree/LL 5.0 us.
    On 8 ranks (D = 3) with k = 1 at the crossover, by hand:
    14 (2.7 us + n/(8B)) = 6 (5.0 us + n/B)  =>  n = (37.8 - 30) us * B / (6 - 14/8)."""
    s = data["summary"]
    assert const("nccl_net_ring_ll_latency") == pytest.approx(2.7e-6)
    assert const("nccl_net_tree_ll_latency") == pytest.approx(5.0e-6)
    assert CONSTANTS["nccl_net_tree_ll_latency"].source == "nccl-tuning"
    assert s["ll_step_latency"] == const("nccl_net_ring_ll_latency")
    assert s["ll_tree_step_latency"] == const("nccl_net_tree_ll_latency")
    assert s["ranks"] == 8
    assert s["ll_n_star"] == pytest.approx((37.8e-6 - 30e-6) * B / (6 - 14 / 8), rel=1e-9)
    # the tree's larger alpha costs it: the crossover with equal alphas at the ring's LL value is higher
    assert s["ll_n_star"] < co.crossover(8, B, s["ll_step_latency"])
    # both at the tree's alpha (NCCL 2.23+ with one rank per node): n* scales with alpha B
    assert s["ll_n_star_tree_alpha"] == pytest.approx(
        s["crossover_bytes"] * s["ll_tree_step_latency"] / s["step_latency"], rel=1e-6)
    # 64 kB: ring 14 (2.7 us + 8 kB/B), tree 6 (5.0 us + 64 kB/B)
    assert s["ll_ring_time_small"] == pytest.approx(14 * (2.7e-6 + 8e3 / B), rel=1e-9)
    assert s["ll_tree_time_small"] == pytest.approx(6 * (5.0e-6 + 64e3 / B), rel=1e-9)
    assert s["ll_tree_time_small"] < s["ll_ring_time_small"]


def test_two_level_ring_latency_by_hand():
    """NCCL's tuner (tuning.cc:249 in 2.20.3): (nsteps - nInterSteps) intraLat + nInterSteps interLat.
    16 ranks at 4 a node: 4 nodes, nsteps = 30, nInterSteps = 6: 24 * 3.4 us + 6 * 14 us = 165.6 us."""
    a_nv = const("nccl_nvlink_ring_simple_latency")
    assert a_nv == pytest.approx(3.4e-6)
    assert co.ring_inter_node_steps(16, 4) == 6
    assert co.ring_latency_two_level(16, 4, a_nv, ALPHA) == pytest.approx(24 * 3.4e-6 + 6 * 14e-6, rel=1e-12)
    assert co.ring_latency_two_level(16, 4, a_nv, ALPHA) == pytest.approx(165.6e-6, rel=1e-12)
    # plus the ring's bandwidth term 2 (15/16) n/B
    assert float(co.ring_time_two_level(1.6e6, 16, 4, B, a_nv, ALPHA)) == pytest.approx(
        165.6e-6 + 2 * 15 / 16 * 1.6e6 / B, rel=1e-12)
    # the tree: a 4-GPU chain each way (2 * 3 NVLink hops) then the double tree over 4 nodes (D = 2),
    # k = 1 at 1 kB: 2 * 3 * 3.4 us + 2 * 2 * (14 us + 1 kB/B)
    assert float(co.tree_time_two_level(1e3, 16, 4, B, a_nv, ALPHA)) == pytest.approx(
        6 * 3.4e-6 + 4 * (14e-6 + 1e3 / B), rel=1e-12)
    # one node: no network step; one GPU a node: every step on the network, the flat ring
    assert co.ring_latency_two_level(8, 8, a_nv, ALPHA) == pytest.approx(14 * 3.4e-6)
    assert co.ring_latency_two_level(64, 1, a_nv, ALPHA) == pytest.approx(126 * ALPHA)
    with pytest.raises(ValueError):
        co.tree_time_two_level(1e3, 8, 8, B, a_nv, ALPHA)


def test_two_level_reduces_to_the_flat_model_at_one_gpu_a_node():
    n = np.logspace(3, 10, 15)
    a_nv = const("nccl_nvlink_ring_simple_latency")
    assert np.allclose(co.ring_time_two_level(n, 64, 1, B, a_nv, ALPHA), co.ring_time(n, 64, B, ALPHA), rtol=1e-12)
    assert np.allclose(co.tree_time_two_level(n, 64, 1, B, a_nv, ALPHA), co.tree_time(n, 64, B, ALPHA), rtol=1e-12)
    flat = co.crossover_between(lambda m: co.ring_time_two_level(m, 64, 1, B, a_nv, ALPHA),
                                lambda m: co.tree_time_two_level(m, 64, 1, B, a_nv, ALPHA))
    assert flat == pytest.approx(co.crossover(64, B, ALPHA), rel=1e-9)


def test_cluster_ring_across_nodes_counts_its_nvlink_steps(data):
    """16,384 GPUs at 8 a node: 2048 nodes; 2 * 2047 = 4094 network steps at 14 us (57.3 ms) and
    32,766 - 4094 = 28,672 NVLink steps at 3.4 us (97.5 ms): about 155 ms (expert review), not 57.3 ms."""
    s, pr = data["summary"], data["problems"]
    a_nv = const("nccl_nvlink_ring_simple_latency")
    assert s["cluster_ranks"] == 16384 and s["cluster_gpus_per_node"] == 8
    assert s["cluster_nodes"] == 2048
    assert pr["cluster_nodes_ring_steps_inter"] == 4094 and pr["cluster_nodes_ring_steps_intra"] == 28672
    assert pr["cluster_nodes_ring_latency_inter"] == pytest.approx(4094 * 14e-6, rel=1e-12)
    assert pr["cluster_nodes_ring_latency_intra"] == pytest.approx(28672 * 3.4e-6, rel=1e-12)
    assert pr["cluster_nodes_ring_latency"] == pytest.approx(28672 * a_nv + 4094 * ALPHA, rel=1e-12)
    assert 0.154 < pr["cluster_nodes_ring_latency"] < 0.156
    assert pr["cluster_nodes_ring_latency"] < pr["cluster_ring_latency"] / 2
    # the tree: a chain of 8 each way, then D = 11 over the nodes
    assert pr["cluster_nodes_tree_latency"] == pytest.approx(2 * (7 * 3.4e-6 + 11 * 14e-6), rel=1e-12)
    # at the crossover the two across-node times tie, and it is far above a training all-reduce
    n = pr["cluster_nodes_crossover_bytes"]
    tr = float(co.ring_time_two_level(n, 16384, 8, B, a_nv, ALPHA))
    assert float(co.tree_time_two_level(n, 16384, 8, B, a_nv, ALPHA)) == pytest.approx(tr, rel=1e-9)
    # the ring's 155 ms against the tree's continuous-k excess 4 sqrt(10 alpha n / B): about 0.5 TB
    assert 4e11 < n < 6e11
    assert n > c.cluster_scaling(16384, 8, B, ALPHA, 1e9, 8, 0.0)["n_star_nodes"]


def test_cluster_nodes_round_up_and_one_node_has_no_network_ring():
    def nodes(ranks, per_node):
        return c.cluster_scaling(ranks, 8, B, ALPHA, 1e9, per_node, const("nccl_nvlink_ring_simple_latency"))
    assert nodes(1000, 7)["nodes"] == 143  # 142 full nodes and one of 6 GPUs
    one = nodes(8, 8)
    assert one["nodes"] == 1 and one["n_star_nodes"] == 0.0 and one["ring_latency_nodes"] == 0.0
    # two nodes: the double tree over them sends n per port, less than the one-port ring's 2(p-1)/p n,
    # so it wins at every size and the problem has no crossover to quote
    with pytest.raises(ParamError, match="cluster_ranks"):
        nodes(16, 8)
    assert nodes(24, 8)["n_star_nodes"] > 0


# --- bytes per GPU: ring, double tree, in-network ---------------------------------------------------
@pytest.mark.parametrize("p", [4, 5, 8, 13, 64])
def test_busiest_tree_gpu_sends_2n(p):
    """Counted from the trees themselves: n/2 up each tree, then n/2 down to each of two children."""
    sent = c.double_tree_bytes_sent(1.0, p)
    assert max(sent) == pytest.approx(2.0)
    assert max(sent) / float(co.ring_bytes_sent_per_rank(1.0, p)) == pytest.approx(p / (p - 1))
    # every byte sent is received: the totals equal 2 (p - 1) halves per tree
    assert sum(sent) == pytest.approx(2 * (p - 1) * 0.5 * 2)


def test_hand_checked_case_4_ranks():
    """p = 4 by hand: tree A 0-2, 2-{1,3}; its mirror B 3-1, 1-{0,2}. Rank 2 has two children in A:
    sends 1/2 (B, up) + 2 x 1/2 (A, down) = 1.5; rank 1 likewise in B; the ring sends 2 * 3/4 = 1.5."""
    t0, t1 = c.double_binary_tree(4)
    assert t0 == [-1, 2, 0, 2] and t1 == [1, 3, 1, -1]
    assert c.double_tree_bytes_sent(1.0, 4) == [1.0, 2.0, 2.0, 1.0]
    assert co.ring_bytes_sent_per_rank(1.0, 4) == pytest.approx(1.5)


# --- the entry function, on the catalogue's parameters ------------------------------------------
def test_summary_numbers(data):
    s, an, pr = data["summary"], data["animation"], data["problems"]
    assert s["ranks"] == 8
    assert s["ring_steps"] == 14 and s["tree_depth"] == 3 and an["tree_steps"] == 6
    assert s["ring_bytes_sent_large"] == pytest.approx(1.75e9)
    assert s["tree_bytes_sent_large"] == pytest.approx(2e9)
    assert s["tree_time_small"] < s["ring_time_small"]
    assert s["ring_time_large"] < s["tree_time_large"]
    assert s["small_message"] < s["crossover_bytes"] < s["large_message"]
    assert s["ring_busbw_fraction_large"] == pytest.approx(s["ring_busbw_large"] / B)
    assert 0.99 < s["ring_busbw_fraction_large"] < 1
    # at 16,384 ranks the ring's 2(p-1) latencies dwarf the tree's 2 log2 p
    assert s["cluster_ranks"] == 16384
    assert pr["cluster_ring_latency"] == pytest.approx(2 * 16383 * ALPHA)
    assert pr["cluster_tree_latency"] == pytest.approx(2 * 14 * ALPHA)
    assert pr["cluster_crossover_bytes"] > pr["doubled_crossover_bytes"] > s["crossover_bytes"]


def test_animation_plan(data):
    an, p = data["animation"], data["summary"]["ranks"]
    assert an["bytes_per_step_per_rank"] * p == pytest.approx(an["message"])
    assert an["cumulative_bytes_per_rank"][-1] == pytest.approx(an["bytes_sent_per_rank"])
    assert len(an["contributions"]) == 2 * (p - 1) + 1
    assert an["step_time"] == pytest.approx(ALPHA + an["step_transfer_time"])
    assert an["ring_time"] == pytest.approx(2 * (p - 1) * an["step_time"])
    # the two trees the animation draws are complementary and each carries half
    t0, t1 = an["tree_parent"], an["mirror_tree_parent"]
    assert not {q for q in t0 if q >= 0} & {q for q in t1 if q >= 0}
    assert an["tree_half"] * 2 == pytest.approx(an["tree_message"])
    assert an["tree_steps"] == 2 * max(max(an["tree_depth"]), max(an["mirror_tree_depth"]))


def test_ring_halves_record(data):
    """The page's table of the two halves: their times add up to the all-reduce's, each sends half its
    bytes, counted here from the schedule the animation plays, and all three report one busbw."""
    s, an = data["summary"], data["animation"]
    p, n = s["ranks"], s["large_message"]
    rs, ag, ar = data["records"]["ring_halves"]
    assert [r["name"] for r in (rs, ag, ar)] == ["reduce-scatter", "all-gather", "all-reduce"]
    assert rs["steps"] == ag["steps"] == p - 1 and ar["steps"] == s["ring_steps"]
    assert rs["time_large"] + ag["time_large"] == pytest.approx(s["ring_time_large"], rel=1e-12)
    assert rs["time_small"] + ag["time_small"] == pytest.approx(s["ring_time_small"], rel=1e-12)
    sched = c.ring_schedule(p)
    for half, phase in ((rs, "reduce_scatter"), (ag, "all_gather")):
        assert half["bytes_sent_large"] == pytest.approx(len(sched[phase]) * n / p)
        assert half["busbw_factor"] == pytest.approx((p - 1) / p)
        assert half["busbw_large"] == pytest.approx(ar["busbw_large"], rel=1e-9)
        assert half["algbw_large"] == pytest.approx(2 * ar["algbw_large"], rel=1e-9)
    assert ar["busbw_large"] == pytest.approx(s["ring_busbw_large"])
    # the animation's clock reaches T_rs when the reduce-scatter ends and T_ring at the end
    assert an["cumulative_time"][p - 1] == pytest.approx(an["reduce_scatter_time"], rel=1e-12)
    assert an["cumulative_time"][-1] == pytest.approx(an["ring_time"], rel=1e-12)
    assert an["reduce_scatter_time"] + an["all_gather_time"] == pytest.approx(an["ring_time"], rel=1e-12)


def test_table_rows_name_the_faster_algorithm(data):
    t = data["table"]
    sizes = [r[0] for r in t["rows"]]
    assert sizes == sorted(sizes)
    for row in t["rows"]:
        if row[-1] == "tree":
            assert row[2] < row[1]
        elif row[-1] == "ring":
            assert row[1] < row[2]


def test_deterministic(scene_params):
    params = scene_params("ring-vs-tree")
    assert to_json(c.ring_vs_tree(**params).to_dict()) == to_json(c.ring_vs_tree(**params).to_dict())


def test_rejects_bad_range(scene_params):
    with pytest.raises(ParamError):
        c.ring_vs_tree(**{**scene_params("ring-vs-tree"), "min_message": 1e9, "max_message": 1e3})


def test_claim_fails_when_the_small_message_is_not_small(scene_params):
    """A "small" message above the crossover would make the page's sentence false: the model refuses."""
    with pytest.raises(ClaimError):
        c.ring_vs_tree(**{**scene_params("ring-vs-tree"), "small_message": 1e8})


# --- the figure and the scene ---------------------------------------------------------------------
def test_figure_marks_the_crossover(data):
    from figures.ring_vs_tree import time_vs_size
    from figures.theme import themed

    with themed("light"):
        fig = time_vs_size(data, "light")
        xs = [ln.get_xdata()[0] for ln in fig.axes[0].get_lines() if len(ln.get_xdata()) == 2]
        assert any(x == pytest.approx(data["summary"]["crossover_bytes"]) for x in xs)


def test_scene_captions_quote_the_model(dry_run):
    data, beats, _ = dry_run("ring-vs-tree")
    text = " ".join(b["caption"] for b in beats)
    from models.units import fmt_bytes
    assert fmt_bytes(data["summary"]["crossover_bytes"]) in text
    assert "two trees" in text and fmt_bytes(data["animation"]["tree_half"]) in text


def test_pat_floor_base_latency_and_the_half_line(data):
    """By hand at p = 8, α = 14 µs: PAT's ⌈log₂ 8⌉ = 3 steps (42 µs) against the ring half's 7 (98 µs); the
    8.4 µs base latency is 8.4/198.4 of the ring's 64 kB time and 8.4/91.7 of the tree's, and the same for both
    it leaves the crossover where it is; the figure's dashed line is exactly half the ring."""
    m, s = data["summary"], data["series"]
    assert (m["pat_steps"], m["half_steps"]) == (3, 7)
    assert m["pat_latency_floor"] == pytest.approx(42e-6) and m["half_latency_floor"] == pytest.approx(98e-6)
    assert m["base_share_ring_small"] == pytest.approx(8.4e-6 / m["ring_time_small"])
    assert 0.04 < m["base_share_ring_small"] < m["base_share_tree_small"] < 0.1
    assert np.allclose(np.asarray(s["half_time"]) * 2, s["ring_time"])
    for p in (2, 3, 4, 5, 16, 17, 16384):
        assert (p - 1).bit_length() == math.ceil(math.log2(p))


def test_pat_as_nccl_tuner_charges_it(data):
    """NCCL 2.30.7's tuner by hand at p = 8, α = 14 µs, B = 50 GB/s: PAT 8 + 3 · 14/3.5 + 8 · 2.8 = 42.4 µs at
    0.75 · 50 = 37.5 GB/s; the ring half 8.4 + 7 · 14 = 106.4 µs at 50 · 8/7 = 57.14 GB/s; the times meet at
    64 µs / (1/37.5 − 1/57.14) ns/B ≈ 6.98 MB, and the ring half is the faster above it."""
    m = data["summary"]
    assert m["pat_log_steps"] == 3
    assert m["pat_tuner_latency"] == pytest.approx(42.4e-6) and m["half_tuner_latency"] == pytest.approx(106.4e-6)
    assert m["pat_tuner_rank_part"] > max(m["pat_tuner_base"], m["pat_tuner_log_part"])  # the largest term
    assert m["pat_tuner_algbw"] == pytest.approx(37.5e9) and m["half_tuner_algbw"] == pytest.approx(400e9 / 7)
    n = m["pat_crossover_bytes"]
    assert n == pytest.approx(64e-6 / (1 / 37.5e9 - 7 / 400e9)) and 6.9e6 < n < 7.0e6
    for x, pat_faster in ((n / 2, True), (2 * n, False)):
        t_pat = m["pat_tuner_latency"] + x / m["pat_tuner_algbw"]
        t_half = m["half_tuner_latency"] + x / m["half_tuner_algbw"]
        assert (t_pat < t_half) == pat_faster
    # floor, not ceil: log2i(9) is 3 where the textbook bound counts 4 steps
    assert c.pat_tuner(9, B, ALPHA, 8.4e-6, 8e-6, 2.8e-6, 3.5, 0.75)["pat_log_steps"] == 3
