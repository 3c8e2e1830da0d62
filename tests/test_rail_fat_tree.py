"""Tests for models/rail_fat_tree.py (scene rail-fat-tree: rail-optimized fat-tree and Dragonfly+), its figure
and scene. The hop counts by hand on a small topology: test_lib_fat_tree.py."""

from __future__ import annotations

import itertools

import numpy as np
import pytest

from models import rail_fat_tree as t
from models.constants import CONSTANTS, SOURCES, const
from models.exhibit import ParamError
from models.lib.fat_tree import network_links
from pipeline.jsonio import to_json

K = const("quantum2_radix")


@pytest.fixture(scope="module")
def data(model_output):
    return model_output("rail-fat-tree")[0]


# --- sizing identities for any radix ------------------------------------------------
@pytest.mark.parametrize("k", [4, 8, 16, 36, 48, 64, 128])
def test_fat_tree_closed_forms(k):
    assert t.fat_tree_max_hosts(k, 1) == k
    assert t.fat_tree_max_hosts(k, 2) == k * k // 2
    assert t.fat_tree_max_hosts(k, 3) == k**3 // 4
    assert t.fat_tree_max_switches(k, 2) == 3 * k // 2  # k leaves + k/2 spines
    assert t.fat_tree_max_switches(k, 3) == 5 * k * k // 4  # Al-Fares: k²/2 + k²/2 + k²/4


@pytest.mark.parametrize("k,n", list(itertools.product([4, 8, 24, 64], [1, 2, 3, 4])))
def test_full_build_matches_the_full_tree(k, n):
    h = t.fat_tree_max_hosts(k, n)
    b = t.fat_tree_build(h, k, tiers=n)
    assert b["switches_per_tier"] == t.fat_tree_max_switches_per_tier(k, n)
    # every port of every switch is used exactly once: ports = 2 * switch cables + host cables
    assert b["switches"] * k == 2 * b["switch_cables"] + h
    assert b["cables"] == n * h and b["optic_ends"] == 2 * n * h
    # per host: (2n-1)/k switches
    assert b["switches"] / h == pytest.approx((2 * n - 1) / k)


@pytest.mark.parametrize("k", [8, 32, 64])
def test_tiers_needed_steps_at_the_capacity(k):
    for n in (1, 2, 3):
        cap = t.fat_tree_max_hosts(k, n)
        assert t.tiers_needed(cap, k) == n
        assert t.tiers_needed(cap + 1, k) == n + 1


def test_bisection_is_half_the_hosts_times_the_port_rate():
    assert t.bisection_bandwidth(1024, 50e9) == pytest.approx(512 * 50e9)


def test_bad_inputs_raise():
    with pytest.raises(ValueError):
        t.fat_tree_max_hosts(7, 2)
    with pytest.raises(ValueError):
        t.fat_tree_build(3000, 64, tiers=2)


@pytest.mark.parametrize("k", [4, 8, 16, 64])
def test_dragonfly_plus_identities(k):
    d = t.dragonfly_plus_max(k)
    assert d["group_hosts"] == k * k // 4  # Shpiner et al.: N_group = p*l = k²/4
    assert d["groups"] == d["global_ports_per_group"] + 1
    assert d["hosts"] == (k * k // 4) * (k * k // 4 + 1)
    assert d["hosts"] > t.fat_tree_max_hosts(k, 3)  # more reach than a 3-tier fat-tree
    assert d["switches"] / d["hosts"] == pytest.approx(4 / k)  # vs 5/k for 3 tiers
    # every global port is used exactly once at the maximum size
    assert 2 * d["global_cables"] == d["groups"] * d["global_ports_per_group"]


# --- published sizes (DGX SuperPOD reference architectures) ----------------------------
# NVIDIA DGX SuperPOD RA, DGX H100, Network Fabrics, Table 4 (compute fabric component count):
# SUs 1/2/4 -> leaf 8/16/32, spine 4/8/16, spine-leaf cables 256/512/1024, with
# 8 rails x 32 nodes per SU on 64-port QM9700 switches. (3 SUs: 24 leaf, 16 spine; the
# non-blocking minimum is 12 spines, the RA provisions the 4-SU spine layer.)
@pytest.mark.parametrize("sus,leaf,spine,cables", [(1, 8, 4, 256), (2, 16, 8, 512), (4, 32, 16, 1024)])
def test_superpod_h100_table4(sus, leaf, spine, cables):
    b = t.fat_tree_build(sus * 32 * 8, 64)
    assert b["tiers"] == 2
    assert b["switches_per_tier"] == [leaf, spine]
    assert b["cables_per_tier"][1] == cables


def test_superpod_h100_three_sus_is_at_most_the_ra():
    b = t.fat_tree_build(3 * 256, 64)
    assert b["switches_per_tier"][0] == 24 and b["switches_per_tier"][1] <= 16
    assert b["cables_per_tier"][1] == 768  # Table 4: 768 spine-leaf cables


# NVIDIA DGX SuperPOD RA, DGX B200, Table 3 (same 64-port, 8-rail, 32-node SU): 16 SUs = 4,096
# GPUs -> 128 leaf, 128 spine, 64 core; 64 SUs = 16,384 GPUs -> 512/512/256, 16,384 cables per tier.
@pytest.mark.parametrize("gpus,tiers,per_tier", [
    (512, 2, [16, 8]), (2048, 2, [64, 32]), (4096, 3, [128, 128, 64]),
    (8192, 3, [256, 256, 128]), (16384, 3, [512, 512, 256]),
])
def test_superpod_b200_table3(gpus, tiers, per_tier):
    b = t.fat_tree_build(gpus, 64)
    assert b["tiers"] == tiers and b["switches_per_tier"] == per_tier
    assert b["cables_per_tier"] == [gpus] * tiers


# --- hop counts on small hand-checkable topologies -----------------------------------
# 2 GPUs per node, 2 nodes per SU, radix 8 -> a pod is 4 leaves = 2 SUs; 16 GPUs = 2 pods.
SMALL = dict(gpus_per_node=2, su_nodes=2, sus_per_pod=t.sus_per_pod(8, 2))


def test_small_topology_has_two_sus_per_pod():
    assert SMALL["sus_per_pod"] == 2


def test_rings_on_one_su_stay_or_climb():
    g, su = 8, 4
    spp = t.sus_per_pod(64, g)
    same = network_links(*t.ring_flows(g * su, g, cross_rail=False), g, su, spp)
    cross = network_links(*t.ring_flows(g * su, g, cross_rail=True), g, su, spp)
    assert set(same.tolist()) == {2} and set(cross.tolist()) == {4}
    assert t.spine_share(same) == 0.0 and t.spine_share(cross) == 1.0


@pytest.mark.parametrize("gpus,g,su,pxn", [(16, 2, 2, False), (16, 2, 2, True), (64, 4, 4, False),
                                           (64, 4, 4, True), (24, 8, 8, False)])
def test_all_to_all_share_matches_enumeration(gpus, g, su, pxn):
    src, dst = np.meshgrid(np.arange(gpus), np.arange(gpus), indexing="ij")
    links = network_links(src.ravel(), dst.ravel(), g, su, 10**6, pxn=pxn)
    assert t.spine_share(links) == pytest.approx(t.all_to_all_spine_share(gpus, g, su, pxn))


# --- the entry function, on the catalogue's scenario ------------------------------------
def test_scenario_numbers(data):
    """16,384 GPUs on radix-64 switches: the DGX B200 RA's 64-SU row (Table 3), and the shares by hand."""
    s = data["summary"]
    assert s["gpus"] == 16384 and s["radix"] == 64
    assert s["tiers"] == 3 and (s["leaves"], s["spines"], s["cores"]) == (512, 512, 256)
    assert s["fat_tree_optics_per_gpu"] == 6 and s["dragonfly_optics_per_gpu"] == 5
    assert s["df_switches"] < s["switches"]
    assert s["su_same_rail_spine_share"] == 0 and s["su_cross_rail_spine_share"] == 1
    assert s["job_same_rail_spine_share"] == pytest.approx(1 / 32)  # one SU boundary in 32 hops
    assert s["su_all_to_all_spine_share"] == pytest.approx(7 / 8)
    assert s["su_all_to_all_spine_share_pxn"] == 0
    assert s["reference_leaves"] == 32 and s["reference_spines"] == 16
    # the drawn fabrics: 16 pods of 1,024 GPUs (k/2 leaves each), 16 Dragonfly+ groups of k²/4 GPUs
    assert s["pods"] * s["pod_gpus"] == s["gpus"] and s["pod_gpus"] == (K // 2) ** 2
    assert s["df_groups"] * s["df_group_hosts"] == s["gpus"]
    an = data["animation"]
    assert an["draw_pods"] == s["pods"] and an["draw_groups"] == s["df_groups"]


def test_parallel_paths_by_hand(data):
    """Llama 3's rank order [TP, CP, PP, DP] packed onto the scenario (TP 8, PP 16, DP 128; 32-node SUs,
    4 SUs a pod), counted by hand: a tensor group is one node; pipeline stage s and s+1 are GPU r of two
    neighbouring nodes of one 16-node block, never across an SU; data-parallel replicas are 16 nodes apart,
    2 to an SU and 8 to a pod, so of the 128 ring hops half stay in an SU, 1 in 8 crosses a pod."""
    s = data["summary"]
    assert (s["tensor_parallel"], s["pipeline_parallel"], s["data_parallel"]) == (8, 16, 128)
    assert s["dp_replica_stride_nodes"] == 16
    tensor, pipeline, dp, expert, cross = data["records"]["parallel_paths"]
    assert tensor["nvlink"] == 1 and tensor["network_sends"] == 0 and tensor["max_links"] == 0
    assert pipeline["sends"] == 8 * 15 * 128 and pipeline["leaf"] == 1 and pipeline["max_links"] == 2
    assert (dp["leaf"], dp["spine"], dp["core"]) == pytest.approx((0.5, 0.375, 0.125))
    assert dp["max_links"] == 6
    # one fact, one value: the all-to-all row is the page's SU all-to-all share
    assert expert["spine"] == pytest.approx(s["su_all_to_all_spine_share"])
    assert expert["nvlink"] == pytest.approx(7 / 255)
    assert cross["spine"] == 1 == pytest.approx(s["su_cross_rail_spine_share"])


def test_parallel_flows_enumerate_every_send():
    """Rank (t, s, d) is GPU t + tp(s + pp d); each dimension's sends, checked against a brute-force list."""
    tp, pp, dp = 2, 3, 4
    src, dst = t.parallel_flows(tp, pp, dp, "pipeline")
    want = {(a + tp * (b + pp * c), a + tp * (b + 1 + pp * c))
            for a in range(tp) for b in range(pp - 1) for c in range(dp)}
    assert set(zip(src.tolist(), dst.tolist(), strict=True)) == want
    src, dst = t.parallel_flows(tp, pp, dp, "data")
    assert sorted((dst - src) % (tp * pp * dp)) == [tp * pp] * (tp * pp * dp)
    src, dst = t.parallel_flows(1, pp, dp, "tensor")
    assert len(src) == 0  # no tensor parallelism, no tensor traffic
    with pytest.raises(ValueError):
        t.parallel_flows(tp, pp, dp, "expert")


def test_parallel_degrees_must_divide_the_gpus(scene_params):
    with pytest.raises(ParamError) as e:
        t.rail_fat_tree(**{**scene_params("rail-fat-tree"), "pipeline_parallel": 3})
    assert e.value.name == "pipeline_parallel"


def test_tensor_group_across_nodes_leaves_nvlink(scene_params):
    """A tensor group wider than a node (16 on 8-GPU nodes) sends a share of its ring over the network:
    the page's sentence that tensor parallelism stays on NVLink no longer holds, and the model says so."""
    from models.exhibit import ClaimError

    with pytest.raises(ClaimError, match="stays on NVLink"):
        t.rail_fat_tree(**{**scene_params("rail-fat-tree"), "tensor_parallel": 16})


def test_deterministic(scene_params):
    params = scene_params("rail-fat-tree")
    assert to_json(t.rail_fat_tree(**params).to_dict()) == to_json(t.rail_fat_tree(**params).to_dict())


@pytest.mark.parametrize("field,value", [("radix", 63), ("gpus", 16385), ("gpus", 8),
                                         ("min_radix", 200), ("gpus", 10**7)])
def test_bad_parameters_name_the_field(scene_params, field, value):
    params = {**scene_params("rail-fat-tree"), field: value}
    with pytest.raises(ParamError) as e:
        t.rail_fat_tree(**params)
    assert e.value.name in (field, "max_radix")


def test_hand_checked_case_one_su_of_two_nodes():
    """2 nodes of 4 GPUs on radix-8 switches: one SU; built in 2 tiers, 2 leaves and 1 spine. The page's worded
    claim that an all-to-all is a spine workload fails here (PXN keeps it all at the leaves), and the
    model says so instead of publishing it."""
    from models.exhibit import ClaimError

    b = t.fat_tree_build(8, 8, tiers=2)
    assert b["tiers"] == 2 and b["switches_per_tier"] == [2, 1]  # ceil(8/4), ceil(8/8)
    assert t.all_to_all_spine_share(8, 4, 2, pxn=True) == 0.0
    with pytest.raises(ClaimError, match="spine workload"):
        t.rail_fat_tree(radix=8, port_rate=1e9, gpus=8, gpus_per_node=4, su_nodes=2, reference_sus=1,
                        min_radix=4, max_radix=16, tensor_parallel=4, pipeline_parallel=2)


def test_sources_cited():
    for key in ("alfares2008", "shpiner2017", "nvidia-superpod-h100-ra", "nvidia-superpod-b200-ra",
                "nvidia-qm9700-manual", "llama3-network", "llama3-numerics"):
        assert SOURCES[key].url.startswith("https://")
    assert K == 64 and const("superpod_su_nodes") == 32


def test_llama3_network_constants():
    """Llama 3 paper §3.3.1 Network: 16 GPUs per rack, 192 racks per pod = 3,072 GPUs; 8 pods = "24K"."""
    assert const("llama3_pod_gpus") == 192 * 16
    assert const("llama3_pods") * const("llama3_pod_gpus") == 24_576
    assert const("llama3_aggregation_oversubscription") == 7
    assert "§3.3.1" in SOURCES["llama3-network"].where and "Network" in SOURCES["llama3-network"].where
    assert all(CONSTANTS[k].source == "llama3-network" for k in ("llama3_pod_gpus", "llama3_pods"))


def test_niagara_dragonfly_constants():
    """SciNet's Niagara documentation (Feb 2018 revision), High-performance interconnect: Dragonfly+ with four
    wings of 375 nodes, 1:1 inside a wing; its specifications list 1,500 nodes, the wings' total."""
    assert const("niagara_df_wings") == 4 and const("niagara_df_wing_nodes") == 375
    assert const("niagara_df_wings") * const("niagara_df_wing_nodes") == 1500
    src = SOURCES["niagara-dragonfly"]
    assert "oldid=" in src.url and "four wings" in src.where and "375 nodes" in src.where
    # a published wing is far below the balanced radix-64 group the page derives (k²/4 hosts)
    assert const("niagara_df_wing_nodes") < t.dragonfly_plus_max(K)["group_hosts"]


def test_scene_captions_quote_the_model(dry_run):
    from models.units import fmt_count, fmt_percent

    data, beats, _ = dry_run("rail-fat-tree")
    text = " ".join(b["caption"] for b in beats)
    s = data["summary"]
    for n in (s["su_gpus"], s["su_spine_cables"], s["gpus"], s["switches"], s["df_switches"], s["cores"]):
        assert fmt_count(n) in text
    assert "within this SU" in text  # the same-rail claim is scoped to one scalable unit
    assert "data parallel" not in text  # the job's data-parallel group spans SUs: not a 0%-spine example
    assert "minimal route" in text and fmt_percent(s["df_bisection_share"]) + " of the bisection" in text
    assert "per direction" in text


# --- the Dragonfly+ bisection, rail-aligned spine groups, pipeline alignment ---------------------------
@pytest.mark.parametrize("groups,ports", [(2, 16), (3, 16), (5, 16), (17, 16), (16, 1024)])
def test_dragonfly_bisection_matches_every_balanced_cut(groups, ports):
    """The closed form against the global links of an explicit build (ports spread evenly, any remainder
    handed round so that pairs differ by at most one link), counted across every balanced split of the groups:
    the even-spread average equals the mean over cuts, and every cut lies within one link per crossing pair."""
    pairs = list(itertools.combinations(range(groups), 2))
    base, extra = divmod(ports, groups - 1)
    links = {}
    for i, j in pairs:  # round-robin the remainder: group i gives its extra links to i+1..i+extra (mod G)
        links[(i, j)] = base + ((j - i) % groups <= extra // 2 or (i - j) % groups <= extra // 2) * (extra > 0)
    cuts = []
    for half in itertools.combinations(range(groups), groups // 2):
        if groups > 12 and 0 not in half:
            continue
        side = set(half)
        cuts.append(sum(n for (i, j), n in links.items() if (i in side) != (j in side)))
        if len(cuts) > 2000:
            break
    closed = t.dragonfly_bisection_links(groups, ports)
    crossing = (groups // 2) * (groups - groups // 2)
    assert min(cuts) - crossing <= closed <= max(cuts) + crossing
    if ports % (groups - 1) == 0:  # every pair the same: every cut is exactly the closed form
        assert set(cuts) == {closed}


def test_dragonfly_is_not_non_blocking_at_the_scenario(data):
    """16 groups of 1,024 GPUs (radix 64): 8 x 8 pairs cross the cut, 1,024/15 links each: 8/15 of H/2."""
    s = data["summary"]
    assert s["df_groups"] == 16
    assert s["df_bisection_links"] == pytest.approx(64 * 1024 / 15)
    assert s["df_bisection_share"] == pytest.approx(8 / 15)
    assert s["df_bisection"] == pytest.approx(s["bisection"] * 8 / 15)
    assert s["dragonfly_switches_per_bisection_link"] > s["fat_tree_switches_per_bisection_link"]
    # the table's Dragonfly+ row carries the same share, the fat-trees 1
    rows = data["table"]["rows"]
    assert rows[3][-1] == pytest.approx(8 / 15)
    assert all(r[-1] == 1 for r in rows if "fat-tree" in r[0])


def test_two_groups_are_non_blocking():
    """Two groups: every global port crosses the one cut, as many links as half the hosts."""
    assert t.dragonfly_bisection_links(2, 1024) == 1024
    assert t.dragonfly_bisection_links(1, 1024) == 0


def test_structural_costs(data):
    s = data["summary"]
    k = s["radix"]
    assert s["max_switches_per_host_2"] == pytest.approx(3 / k)
    assert s["max_switches_per_host_3"] == pytest.approx(5 / k)
    assert s["df_max_switches_per_gpu"] == pytest.approx(4 / k)
    assert (s["max_optics_per_host_2"], s["max_optics_per_host_3"]) == (4, 6)
    assert s["dragonfly_optics_per_gpu"] == 5  # host, leaf-spine and half a global cable, two ends each


def test_rail_aligned_spine_groups_hand_count(data):
    """DP replicas sit 16 nodes apart (half a 32-node SU): of a 128-step ring, 64 steps stay in an SU; with
    rail pods of 32 SUs (radix 64) 2 steps cross between the two rail pods, with shared-spine pods of 4 SUs 16."""
    s = data["summary"]
    assert s["rail_pod_gpus"] == 32 * 32 * 8
    assert s["rail_spines_data_leaf_share"] == pytest.approx(64 / 128)
    assert s["rail_spines_data_core_share"] == pytest.approx(2 / 128)
    assert s["rail_spines_data_spine_share"] == pytest.approx(62 / 128)
    assert s["data_core_share"] == pytest.approx(16 / 128)
    assert s["rail_spines_cross_core_share"] == 1
    assert s["rail_spines_cross_pxn_core_share"] == 0


def test_rail_spine_links_by_hand():
    """g = 2, SUs of 2 nodes, radix 4 (rail pods of 2 SUs): GPU 0 to each peer."""
    dst = np.arange(1, 16)
    got = t.rail_spine_links(np.zeros_like(dst), dst, 2, 2, 4)
    # node 0 GPU 1 | node 1: rail 0, 1 | node 2 (SU 1): rail 0, 1 | node 3 | nodes 4-7 (rail pod 1)
    assert got.tolist() == [0, 2, 6, 4, 6, 4, 6, 6, 6, 6, 6, 6, 6, 6, 6]
    assert t.rail_spine_links(0, 3, 2, 2, 4, pxn=True) == 2


def test_pipeline_off_the_su_grid_reports_its_share(scene_params):
    """A 31-node SU: a 16-node replica straddles SUs, so the pipeline no longer turns at the leaf everywhere;
    the model reports the share instead of asserting 100%."""
    out = t.rail_fat_tree(**{**scene_params("rail-fat-tree"), "su_nodes": 31}).summary
    assert not out["pipeline_su_aligned"]
    assert 0.9 < out["pipeline_leaf_share"] < 1
    aligned = t.rail_fat_tree(**scene_params("rail-fat-tree")).summary
    assert aligned["pipeline_su_aligned"] and aligned["pipeline_leaf_share"] == 1


@pytest.mark.parametrize("gpus, g, su, spp", [(64, 8, 2, 2), (100, 8, 4, 1), (96, 4, 3, 2), (40, 8, 2, 2),
                                              (7, 8, 2, 1)])
def test_all_to_all_counts_equal_enumerating_every_pair(gpus, g, su, spp):
    """The counts from group sizes against every ordered pair of distinct GPUs run through network_links,
    with partial nodes, SUs and pods (gpus not a multiple of g, su * g or su * spp * g)."""
    src, dst = np.divmod(np.arange(gpus * gpus), gpus)
    keep = src != dst
    values, n = np.unique(network_links(src[keep], dst[keep], g, su, spp), return_counts=True)
    assert t.all_to_all_link_counts(gpus, g, su, spp) == dict(zip(values.tolist(), n.tolist(), strict=True))


def test_published_dragonfly_blocking_beside_the_model(data):
    """Niagara's 2:1 between wings leaves half the port rate (by hand); the model's balanced build sits near it,
    above half: 8·8·1024/15 global links across the cut against 8,192 for non-blocking."""
    assert CONSTANTS["niagara_interwing_blocking"].value == 2
    assert data["summary"]["published_df_share"] == pytest.approx(0.5)
    assert data["summary"]["df_bisection_share"] == pytest.approx(8 * 8 * 1024 / 15 / 8192)
    assert "niagara-dragonfly-expanded" in SOURCES


def test_short_su_and_dragonfly_optics_by_hand(data):
    """The RA's 4-SU table lists 127 nodes: 127 - 3·32 = 31 in its short SU. With 31-node SUs a 16-node
    replica straddles SUs; the largest Dragonfly+ pays 2·(1 + 1 + 1/2) = 5 port-ends per GPU."""
    m = data["summary"]
    assert m["short_su_nodes"] == CONSTANTS["superpod_4su_nodes_listed"].value - 3 * 32 == 31
    assert 0 < m["short_su_pipeline_spine"] and m["short_su_pipeline_leaf"] < 1
    for dim in ("pipeline", "data"):
        assert sum(m[f"short_su_{dim}_{lvl}"] for lvl in ("leaf", "spine", "core")) == pytest.approx(1)
    assert m["short_su_data_leaf"] < m["data_leaf_share"]  # smaller SUs keep fewer ring steps at the leaf
    assert m["df_max_optics_per_gpu"] == pytest.approx(5)


def test_short_su_is_the_model_run_with_that_su(scene_params):
    """The page's short-SU shares are the model's own parallel paths at su_nodes = 31 (a second route to them);
    a listed count that leaves no short SU gives none."""
    m = t.rail_fat_tree(**scene_params("rail-fat-tree")).summary
    run = t.rail_fat_tree(**{**scene_params("rail-fat-tree"), "su_nodes": m["short_su_nodes"]}).summary
    assert m["short_su_pipeline_leaf"] == pytest.approx(run["pipeline_leaf_share"])
    assert m["short_su_data_leaf"] == pytest.approx(run["data_leaf_share"])
    assert m["short_su_data_core"] == pytest.approx(run["data_core_share"])
    full = t.rail_fat_tree(**{**scene_params("rail-fat-tree"), "reference_nodes_listed": 128}).summary
    assert full["short_su_nodes"] is None and full["short_su_data_leaf"] is None


def test_short_su_first_layout_by_hand(data):
    """The RA's layout, one 31-node SU then SUs of 32: 16,384 GPUs are 128 replicas of 16 nodes, 15 stage pairs
    each, 1,920 pairs. SU edges fall at nodes 31 + 32m (m = 0..63), odd, so never at a replica's edge: each edge
    cuts one stage pair, 64 of 1,920 (3.33%), against 62 of 1,920 (3.23%) with every SU of 31 nodes."""
    m = data["summary"]
    assert m["short_first_pipeline_straddle"] == pytest.approx(64 / 1920)
    assert m["short_su_pipeline_straddle"] == pytest.approx(62 / 1920)
    assert t.short_first_straddle(16384, 8, 32, 32, 8, 16) == 0  # no short SU: every edge is a replica's


def test_pxn_keeps_the_cross_rail_ring_below_the_spine(data):
    """Beat 5's last frame: NVLink to GPU r+1 first, then 2 links on rail r+1, none over the spine."""
    m = data["summary"]
    assert m["su_cross_rail_spine_share"] == 1 and m["su_cross_rail_spine_share_pxn"] == 0
    assert m["links_cross_rail_same_su_pxn"] == 2
