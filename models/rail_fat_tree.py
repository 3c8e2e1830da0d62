"""Cluster topologies: k-ary fat-tree sizing, rail-optimized layout, Dragonfly+.

Fat-tree (folded Clos; Al-Fares et al. 2008). Every switch has k ports. A
switch below the top tier uses k/2 ports down and k/2 up; a top-tier switch
uses all k down. With n tiers the tree holds at most

    H_max(k, n) = 2 (k/2)^n hosts           (k for n = 1, k²/2 for 2, k³/4 for 3)

and, fully built, each of the n-1 lower tiers has 2 (k/2)^(n-1) switches and
the top tier (k/2)^(n-1), so S_max = (2n-1)(k/2)^(n-1) (3k/2 for 2 tiers, 5k²/4
for 3). Non-blocking means every tier boundary carries as many links as there
are hosts: n·H cables in all, and a bisection of H/2 links each way, i.e.
H/2 · port rate per direction. Per host that is (2n-1)/k switches and n cables.

For H hosts that do not fill the tree the same rule sizes a partial build:
ceil(H / (k/2)) switches in each lower tier, ceil(H / k) at the top. NVIDIA's
DGX SuperPOD compute fabric is such a build with k = 64 (Quantum-2 QM9700):
4 SUs of 32 nodes × 8 rails = 1,024 GPU ports on 32 leaves and 16 spines.

Rail-optimized layout (DGX SuperPOD RA). A node has g GPUs, each with its own
NIC; GPU r of every node in a scalable unit (SU) plugs into leaf r of that SU
(its "rail"). Network links traversed host to host (models.lib.fat_tree.network_links):

    same node                  0  (NVLink inside the node)
    same SU, same rail         2  (GPU -> leaf -> GPU: one switch)
    same pod, otherwise        4  (leaf -> spine -> leaf)
    different pods (3 tiers)   6  (leaf -> spine -> core -> spine -> leaf)

A pod is the k/2 leaves one spine group serves (2 tiers: the whole fabric).
With PXN (NCCL's PCIe x NVLink), a GPU first hands cross-rail data over
NVLink to the peer GPU on the destination's rail, so cross-rail traffic inside
an SU also stays at the leaf; the model reports both.

Dragonfly+ (Shpiner et al. 2017). A group is a two-level leaf-spine: l leaves
with p hosts each, s spines, h global ports per spine. Full bisection inside
the group takes p = l = s = h = k/2, so a group holds k²/4 hosts and offers
k²/4 global ports; with one global link between every pair of groups at most
k²/4 + 1 groups, (k²/4)(k²/4 + 1) hosts, and any host reaches any other in at
most 3 switch-to-switch hops (leaf -> spine -> spine -> leaf).

Cost is counted, not priced: switches per GPU and optical port-ends per GPU
(two per cable; no cited per-switch or per-transceiver price is used).

Pure numpy/stdlib; SI units (B/s for rates).
"""

from __future__ import annotations

import math

import numpy as np

from models.exhibit import Column, Exhibit, Param, ParamError, Table, check, curves, model
from models.lib.fat_tree import gpu_coords, network_links

# ---------------------------------------------------------------------------
# fat-tree sizing
# ---------------------------------------------------------------------------


def _check_radix(k) -> int:
    if int(k) != k or k < 4 or k % 2:
        raise ValueError(f"radix must be an even integer >= 4, got {k!r}")
    return int(k)


def _check_tiers(n) -> int:
    if int(n) != n or n < 1:
        raise ValueError(f"tiers must be an integer >= 1, got {n!r}")
    return int(n)


def fat_tree_max_hosts(k: int, tiers: int) -> int:
    """Hosts of a full non-blocking n-tier fat-tree of radix-k switches: 2 (k/2)^n."""
    k, n = _check_radix(k), _check_tiers(tiers)
    return 2 * (k // 2) ** n


def fat_tree_max_switches_per_tier(k: int, tiers: int) -> list[int]:
    """Switches per tier (leaf first) of the full tree: 2(k/2)^(n-1) below, (k/2)^(n-1) on top."""
    k, n = _check_radix(k), _check_tiers(tiers)
    if n == 1:
        return [1]
    half = (k // 2) ** (n - 1)
    return [2 * half] * (n - 1) + [half]


def fat_tree_max_switches(k: int, tiers: int) -> int:
    """All switches of the full tree: (2n-1)(k/2)^(n-1)."""
    return sum(fat_tree_max_switches_per_tier(k, tiers))


def tiers_needed(hosts: int, k: int) -> int:
    """Fewest tiers whose full fat-tree holds `hosts` (non-blocking)."""
    k = _check_radix(k)
    if hosts < 1:
        raise ValueError("hosts must be >= 1")
    n = 1
    while fat_tree_max_hosts(k, n) < hosts:
        n += 1
    return n


def fat_tree_build(hosts: int, k: int, tiers: int | None = None) -> dict:
    """A non-blocking fat-tree built for `hosts` endpoints (possibly partial).

    Lower tiers: ceil(H/(k/2)) switches each (k/2 down, k/2 up); top tier:
    ceil(H/k) (all k ports down). One tier boundary = H cables.
    """
    k = _check_radix(k)
    n = tiers_needed(hosts, k) if tiers is None else _check_tiers(tiers)
    if fat_tree_max_hosts(k, n) < hosts:
        raise ValueError(f"{hosts} hosts do not fit in {n} tiers of radix {k}")
    if n == 1:
        per_tier = [1]
    else:
        per_tier = [math.ceil(hosts / (k // 2))] * (n - 1) + [math.ceil(hosts / k)]
    cables = [int(hosts)] * n  # host-leaf, then one per tier boundary
    return {
        "hosts": int(hosts),
        "radix": k,
        "tiers": n,
        "switches_per_tier": per_tier,
        "switches": sum(per_tier),
        "cables_per_tier": cables,
        "cables": sum(cables),
        "switch_cables": sum(cables[1:]),
        "optic_ends": 2 * sum(cables),  # one transceiver port-end at each end of a cable
    }


def fabric_optics_per_host(k: int, tiers: int) -> float:
    """Optical port-ends per host of the full n-tier tree: two per cable, n cables per host (2n)."""
    full = fat_tree_build(fat_tree_max_hosts(k, tiers), k, tiers)
    return full["optic_ends"] / full["hosts"]


def bisection_bandwidth(hosts: int, port_rate: float) -> float:
    """Non-blocking bisection: H/2 links each way, per direction (B/s)."""
    return hosts / 2 * port_rate


# ---------------------------------------------------------------------------
# the rail-optimized layout
# ---------------------------------------------------------------------------


def sus_per_pod(k: int, gpus_per_node: int) -> int:
    """SUs under one spine group: a pod has k/2 leaves, an SU uses one leaf per rail."""
    k = _check_radix(k)
    return max((k // 2) // gpus_per_node, 1)


def ring_flows(gpus: int, gpus_per_node: int, cross_rail: bool) -> tuple[np.ndarray, np.ndarray]:
    """The inter-node sends of a collective ring over every node of a job.

    Same-rail: GPU r of node i sends to GPU r of node i+1 (NCCL's rail-aligned
    rings). Cross-rail: GPU r of node i sends to GPU (r+1) mod g of node i+1,
    the ring a rail-unaware ordering produces.
    """
    nodes = gpus // gpus_per_node
    node = np.repeat(np.arange(nodes), gpus_per_node)
    rail = np.tile(np.arange(gpus_per_node), nodes)
    dst_node = (node + 1) % nodes
    dst_rail = (rail + 1) % gpus_per_node if cross_rail else rail
    return node * gpus_per_node + rail, dst_node * gpus_per_node + dst_rail


def spine_share(links: np.ndarray) -> float:
    """Share of the inter-node sends whose path climbs above the leaf (4+ links)."""
    links = np.asarray(links)
    inter = links > 0
    return float(np.sum(links >= 4) / max(np.sum(inter), 1))


def parallel_flows(tp: int, pp: int, dp: int, dim: str) -> tuple[np.ndarray, np.ndarray]:
    """The sends of one parallel dimension, ranks packed onto GPUs in Llama 3's order [TP, CP, PP, DP]
    (tensor innermost; CP = 1): rank (t, s, d) is GPU t + tp (s + pp d).

    tensor: a ring inside each tensor group (t -> t+1); pipeline: each stage sends its activations to
    the next (s -> s+1; the gradients come back on the same pair); data: a ring over the data-parallel
    replicas (d -> d+1), as NCCL's ring reduce-scatter and all-gather run it.
    """
    t, st, d = np.meshgrid(np.arange(tp), np.arange(pp), np.arange(dp), indexing="ij")
    t, st, d = t.ravel(), st.ravel(), d.ravel()

    def gpu(t_, s_, d_):
        return t_ + tp * (s_ + pp * d_)

    if dim == "tensor":
        keep = np.full(t.shape, tp > 1)
        return gpu(t, st, d)[keep], gpu((t + 1) % tp, st, d)[keep]
    if dim == "pipeline":
        keep = st < pp - 1
        return gpu(t, st, d)[keep], gpu(t, st + 1, d)[keep]
    if dim == "data":
        keep = np.full(t.shape, dp > 1)
        return gpu(t, st, d)[keep], gpu(t, st, (d + 1) % dp)[keep]
    raise ValueError(f"dimension is tensor, pipeline or data, got {dim!r}")


def rail_spine_links(src, dst, gpus_per_node: int, su_nodes: int, k: int, pxn: bool = False):
    """Network links with rail-aligned spine groups (the alternative to shared spines).

    Leaf r of every SU connects only to spine group r: k/2 spines whose k/2 down-ports take leaf r of
    k/2 SUs (a "rail pod"). Same rail, same SU: 2 links; same rail, same rail pod: 4; anything else,
    including every cross-rail send, turns at a core switch: 6. PXN turns a cross-rail send into a
    same-rail one after an NVLink hop, as in network_links.
    """
    src, dst = np.asarray(src), np.asarray(dst)
    n0, r0, s0 = src // gpus_per_node, src % gpus_per_node, src // gpus_per_node // su_nodes
    n1, r1, s1 = dst // gpus_per_node, dst % gpus_per_node, dst // gpus_per_node // su_nodes
    same_rail = (r0 == r1) | bool(pxn)
    same_rail_pod = s0 // (k // 2) == s1 // (k // 2)
    links = np.where(n0 == n1, 0, np.where(~same_rail, 6,
                                           np.where(s0 == s1, 2, np.where(same_rail_pod, 4, 6))))
    return links if links.ndim else int(links)


PATH_LEVELS = {"nvlink": 0, "leaf": 2, "spine": 4, "core": 6}  # network links -> where the send turns round


def path_shares(links: np.ndarray) -> dict:
    """Share of all sends that stay on NVLink (0 network links), and of the sends that leave the node
    (the network's, as spine_share counts them) those that turn at a leaf (2), a spine (4) or a core
    switch (6); `network_sends` says whether any leave."""
    values, counts = np.unique(np.asarray(links), return_counts=True)
    return path_shares_from_counts(dict(zip(values.tolist(), counts.tolist(), strict=True)))


def path_shares_from_counts(counts: dict) -> dict:
    """path_shares from a histogram {network links: sends}."""
    total = sum(counts.values())
    inter = total - counts.get(0, 0)
    out = {"nvlink": counts.get(0, 0) / max(total, 1), "network_sends": int(inter)}
    out |= {name: counts.get(n, 0) / max(inter, 1) for name, n in PATH_LEVELS.items() if name != "nvlink"}
    return out


def short_first_straddle(G: int, g: int, su: int, short_su: int, tp: int, pp: int) -> float:
    """Share of the pipeline's inter-node sends whose two nodes lie in different SUs when the first SU
    has short_su nodes and every later one su (ranks packed from node 0): the SU edges then fall at
    short_su + m su, where a replica of nodes need not start."""
    src, dst = parallel_flows(tp, pp, G // (tp * pp), "pipeline")
    a, b = src // g, dst // g

    def unit(node):
        return np.where(node < short_su, 0, (node - short_su) // su + 1)

    inter = a != b
    return float(np.count_nonzero(unit(a)[inter] != unit(b)[inter]) / max(np.count_nonzero(inter), 1))


def all_to_all_link_counts(gpus: int, g: int, su: int, spp: int) -> dict:
    """Histogram {network links: sends} of a uniform all-to-all among the first `gpus`, every ordered pair of
    distinct GPUs, counted from group sizes (a group of c GPUs holds c(c - 1) ordered pairs) rather than
    enumerated: a 16,384-GPU all-to-all has 2.7e8 pairs. The classes nest: one node lies in one SU and pod,
    and two GPUs of one SU on one rail are on two nodes (one GPU per rail per node)."""
    node, rail, unit, pod = gpu_coords(np.arange(gpus), g, su, spp)

    def pairs(key) -> int:
        c = np.bincount(key).astype(np.int64)
        return int((c * (c - 1)).sum())

    same_node, same_rail, same_pod = pairs(node), pairs(unit * g + rail), pairs(pod)
    counts = {0: same_node, 2: same_rail, 4: same_pod - same_node - same_rail, 6: gpus * (gpus - 1) - same_pod}
    return {links: n for links, n in counts.items() if n}


def parallel_paths(G: int, g: int, su: int, spp: int, tp: int, pp: int) -> list[dict]:
    """Where each kind of training traffic runs on the rail-optimized fabric: the job's tensor,
    pipeline and data parallelism (Llama 3's rank order), an expert-parallel all-to-all over one SU,
    and a ring between different local ranks (GPU r to GPU r+1 of the next node)."""
    dp = G // (tp * pp)
    su_gpus = min(su * g, G)
    rows = [("tensor parallel", "all-reduce (ring)", tp, parallel_flows(tp, pp, dp, "tensor")),
            ("pipeline parallel", "send/receive to the next stage", pp, parallel_flows(tp, pp, dp, "pipeline")),
            ("data parallel", "reduce-scatter + all-gather (ring)", dp, parallel_flows(tp, pp, dp, "data")),
            ("expert parallel over one SU", "all-to-all", su_gpus, None),
            ("between different local ranks", "ring, GPU r to GPU r+1 of the next node", su_gpus,
             ring_flows(su_gpus, g, cross_rail=True))]
    out = []
    for name, collective, group, flows in rows:
        if flows is None:  # the all-to-all, counted a block of senders at a time
            counts = all_to_all_link_counts(su_gpus, g, su, spp)
        else:
            values, n = np.unique(network_links(*flows, g, su, spp), return_counts=True)
            counts = dict(zip(values.tolist(), n.tolist(), strict=True))
        out.append({"name": name, "collective": collective, "group": int(group), "sends": sum(counts.values()),
                    "max_links": int(max(counts, default=0)), **path_shares_from_counts(counts)})
    return out


def rail_spine_paths(G: int, g: int, su: int, k: int, tp: int, pp: int) -> dict:
    """The data-parallel ring and the cross-rail ring over one SU with rail-aligned spine groups
    (rail_spine_links), next to the shared spines of parallel_paths."""
    dp = G // (tp * pp)
    su_gpus = min(su * g, G)
    data = path_shares(rail_spine_links(*parallel_flows(tp, pp, dp, "data"), g, su, k))
    cross = path_shares(rail_spine_links(*ring_flows(su_gpus, g, cross_rail=True), g, su, k))
    cross_pxn = path_shares(rail_spine_links(*ring_flows(su_gpus, g, cross_rail=True), g, su, k, pxn=True))
    return {"data": data, "cross": cross, "cross_pxn": cross_pxn,
            "rail_pod_gpus": (k // 2) * su * g}


def all_to_all_spine_share(gpus: int, gpus_per_node: int, su_nodes: int, pxn: bool) -> float:
    """Share of a uniform all-to-all's inter-node bytes that climb to the spine.

    A GPU's inter-node peers: G - g. Those reached at the leaf: the same rail in
    the other nodes of its SU, (min(N, su_nodes) - 1) of them, times g with PXN
    (every GPU of those nodes). Closed form, checked against enumeration in the tests.
    """
    nodes = gpus // gpus_per_node
    su_peers = min(nodes, su_nodes) - 1
    inter = gpus - gpus_per_node
    if inter == 0:
        return 0.0
    at_leaf = su_peers * (gpus_per_node if pxn else 1)
    return 1 - at_leaf / inter


# ---------------------------------------------------------------------------
# Dragonfly+
# ---------------------------------------------------------------------------


def dragonfly_plus_max(k: int) -> dict:
    """Balanced Dragonfly+ of radix-k routers (p = l = s = h = k/2)."""
    k = _check_radix(k)
    half = k // 2
    group_hosts = half * half
    global_ports = half * half  # s spines × h global ports
    groups = global_ports + 1  # one global link to every other group
    return {
        "radix": k,
        "group_hosts": group_hosts,
        "group_switches": 2 * half,
        "global_ports_per_group": global_ports,
        "groups": groups,
        "hosts": group_hosts * groups,
        "switches": 2 * half * groups,
        "global_cables": groups * (groups - 1) // 2,
    }


def dragonfly_plus_build(hosts: int, k: int) -> dict:
    """A Dragonfly+ of full groups for `hosts` endpoints; every global port used.

    Groups: ceil(H / (k²/4)). Cables: host-leaf H', leaf-spine (k/2)² per group,
    global G (k²/4) / 2 (parallel links between a pair of groups when G is small).
    """
    mx = dragonfly_plus_max(k)
    if hosts > mx["hosts"]:
        raise ValueError(f"{hosts} hosts exceed a radix-{k} Dragonfly+ ({mx['hosts']})")
    g = math.ceil(hosts / mx["group_hosts"])
    built_hosts = g * mx["group_hosts"]
    local = g * (k // 2) ** 2
    glob = g * mx["global_ports_per_group"] // 2 if g > 1 else 0
    cables = built_hosts + local + glob
    return {
        "hosts": int(hosts),
        "groups": g,
        "switches": g * mx["group_switches"],
        "host_cables": built_hosts,
        "local_cables": local,
        "global_cables": glob,
        "cables": cables,
        "optic_ends": 2 * cables,
        "links_per_group_pair": (mx["global_ports_per_group"] / (g - 1)) if g > 1 else 0.0,
        # one group is its own non-blocking leaf-spine; a cut cannot usefully carry more than half the hosts
        "bisection_links": min(dragonfly_bisection_links(g, mx["global_ports_per_group"]), hosts / 2)
        if g > 1 else hosts / 2,
    }


def dragonfly_bisection_links(groups: int, global_ports: int) -> float:
    """Global links crossing the cut that splits the groups into two halves (per direction).

    Every group spreads its global ports evenly over the other groups, so a pair shares
    global_ports / (groups - 1) links on average, and floor(G/2) x ceil(G/2) pairs straddle the cut.
    One group alone has no global cut (0).
    """
    if groups < 2:
        return 0.0
    return (groups // 2) * (groups - groups // 2) * global_ports / (groups - 1)


# ---------------------------------------------------------------------------
# the entry function
# ---------------------------------------------------------------------------


@model(
    radix=Param.integer("count", "switch radix k (ports per switch)", minimum=4, maximum=1024),
    port_rate=Param.positive("B/s", "NIC port rate, per direction"),
    gpus=Param.integer("count", "GPUs in the cluster (one NIC port each)", minimum=2, maximum=10_000_000),
    gpus_per_node=Param.integer("count", "GPUs per node (rails)", minimum=1, maximum=64),
    su_nodes=Param.integer("count", "nodes per scalable unit (SU)", minimum=1, maximum=4096),
    reference_sus=Param.integer("count", "SUs in the reference DGX SuperPOD", minimum=1, maximum=64),
    min_radix=Param.integer("count", "smallest radix in the figure", minimum=4, maximum=1024),
    max_radix=Param.integer("count", "largest radix in the figure", minimum=4, maximum=1024),
    tensor_parallel=Param.integer("count", "tensor-parallel degree of the job (innermost in the rank order)",
                                  minimum=1, maximum=64),
    pipeline_parallel=Param.integer("count", "pipeline-parallel degree of the job", minimum=1, maximum=1024),
    reference_nodes_listed=Param.integer("count", "nodes the reference SuperPOD's table lists (its first SU is short "
                                         "by the nodes whose ports go to management)", minimum=1, maximum=262_144),
    published_df_blocking=Param.number("1", "effective blocking (x:1) between groups of a deployed Dragonfly+ "
                                       "(Niagara), set beside the model's bisection share", minimum=1.0, maximum=100.0),
)
def rail_fat_tree(
    radix: int,
    port_rate: float,
    gpus: int,
    gpus_per_node: int,
    su_nodes: int,
    reference_sus: int = 4,
    min_radix: int = 8,
    max_radix: int = 128,
    tensor_parallel: int = 8,
    pipeline_parallel: int = 16,
    reference_nodes_listed: int = 127,
    published_df_blocking: float = 2.0,
) -> Exhibit:
    """Size a rail-optimized fat-tree and a Dragonfly+ for the scenario's GPUs.

    radix: ports per switch (k); port_rate: per-direction rate of one port
    (B/s); gpus: GPUs (= NIC ports) to connect; gpus_per_node: rails; su_nodes:
    nodes per scalable unit; reference_sus: the SuperPOD size to reproduce
    (RA Table 4); min/max_radix: the sweep drawn in the figure; tensor_parallel,
    pipeline_parallel: the job's degrees (data parallelism takes the rest); reference_nodes_listed: the RA's node
    count for reference_sus SUs (one short SU: the page's example of an SU the replica does not divide);
    published_df_blocking: a deployed
    Dragonfly+'s stated blocking between groups, x:1 (its inverse is the share of the rate left between groups).
    """
    k, g, su, G = check_scenario(radix, min_radix, max_radix, gpus, gpus_per_node, su_nodes)
    tp, pp = int(tensor_parallel), int(pipeline_parallel)
    if G % (tp * pp):
        raise ParamError("pipeline_parallel", pp,
                         f"a degree whose product with tensor_parallel ({tp}) divides the {G:,} GPUs")
    spp = sus_per_pod(k, g)
    fabrics = size_fabrics(k, G, g, su, reference_sus)
    hops = hop_counts(G, g, su, spp)
    shares = spine_shares(G, g, su, spp)
    paths = parallel_paths(G, g, su, spp, tp, pp)
    # the RA's short SU (its 4-SU table lists one node fewer than 4 full SUs): were every SU that size, a replica
    # would not divide it, and the page counts where the pipeline and data-parallel sends then turn
    # (None where the listed count leaves no short SU for these SU and reference sizes: the page then omits it)
    short_su = int(reference_nodes_listed) - (int(reference_sus) - 1) * su
    short_paths = parallel_paths(G, g, short_su, spp, tp, pp) if 1 <= short_su < su else None
    rail_paths = rail_spine_paths(G, g, su, k, tp, pp)
    check_claims(fabrics, shares, k, G, g, su)
    check_paths(paths, tp, pp, g, su)
    summary = summarise(fabrics, hops, shares, k, G, g, su, spp, port_rate, reference_sus, tp, pp)
    summary |= {
        "pipeline_su_aligned": pipeline_su_aligned(tp, pp, g, su),
        "pipeline_leaf_share": paths[1]["leaf"],
        "data_leaf_share": paths[2]["leaf"],
        "data_spine_share": paths[2]["spine"],
        "data_core_share": paths[2]["core"],
        "rail_pod_gpus": rail_paths["rail_pod_gpus"],
        "rail_spines_data_leaf_share": rail_paths["data"]["leaf"],
        "rail_spines_data_spine_share": rail_paths["data"]["spine"],
        "rail_spines_data_core_share": rail_paths["data"]["core"],
        "rail_spines_cross_core_share": rail_paths["cross"]["core"],
        "rail_spines_cross_pxn_core_share": rail_paths["cross_pxn"]["core"],
        "short_su_nodes": short_su if short_paths else None,
        **{f"short_su_{dim}_{level}": short_paths[i][level] if short_paths else None
           for i, dim in ((1, "pipeline"), (2, "data")) for level in ("leaf", "spine", "core")},
        # the RA's layout itself: the one short SU first, full SUs after it (a check on the uniform case)
        "short_su_pipeline_straddle": 1 - short_paths[1]["leaf"] if short_paths else None,
        "short_first_pipeline_straddle": short_first_straddle(G, g, su, short_su, tp, pp) if short_paths else None,
        # a deployed Dragonfly+'s x:1 blocking between groups as a share of the non-blocking rate (1/x)
        "published_df_share": 1 / float(published_df_blocking),
    }
    check(not short_paths or not summary["pipeline_su_aligned"] or (short_su * g) % (tp * pp) != 0,
          "after the short SU no SU edge falls where a replica starts")
    check(summary["fat_tree_optics_per_gpu"] == 2 * summary["tiers"],
          "the fat-tree's optics per GPU are a whole number, two per tier (the page prints them as a count)")
    check(summary["rail_spines_data_core_share"] <= summary["data_core_share"],
          "rail-aligned spine groups keep at least as much of the data-parallel ring below the core")
    check(summary["rail_spines_cross_core_share"] == 1 or g == 1 or su == 1,
          "with rail-aligned spine groups every cross-rail send turns at a core switch")
    check(math.isclose(summary["fat_tree_switches_per_gpu"], summary["max_switches_per_host_3"])
          or fabrics["scenario"]["tiers"] != 3,
          "the scenario's partial build costs the same 5/k switches per GPU as the full tree")
    return Exhibit(summary=summary, series=radix_sweep(min_radix, max_radix),
                   table=fabrics_table(fabrics, k, G, reference_sus),
                   animation=animation_plan(summary, hops, fabrics, g, su),
                   problems=problems(fabrics, shares, k),
                   records={"parallel_paths": paths})


# ---------------------------------------------------------------------------
# the recipe's steps
# ---------------------------------------------------------------------------

DF_MAX_SWITCH_HOPS = 3  # Dragonfly+: leaf -> spine -> spine -> leaf


def check_scenario(radix: int, min_radix: int, max_radix: int, gpus: int, gpus_per_node: int,
                   su_nodes: int) -> tuple[int, int, int, int]:
    """The parameters' cross-checks; returns k, g (GPUs per node), su (nodes per SU) and G (GPUs)."""
    for name, v in (("radix", radix), ("min_radix", min_radix), ("max_radix", max_radix)):
        if int(v) % 2:
            raise ParamError(name, v, "an even whole number of ports (k/2 down, k/2 up)")
    if min_radix >= max_radix:
        raise ParamError("max_radix", max_radix, f"more than min_radix ({min_radix})")
    k = _check_radix(radix)
    g, su = int(gpus_per_node), int(su_nodes)
    G = int(gpus)
    if G % g:
        raise ParamError("gpus", G, f"a whole number of {g}-GPU nodes")
    if G // g < 2:
        raise ParamError("gpus", G, "at least two nodes (the rings run between nodes)")
    df_max = dragonfly_plus_max(k)
    if G > df_max["hosts"] or G > fat_tree_max_hosts(k, 4):
        raise ParamError("gpus", G, f"at most {min(df_max['hosts'], fat_tree_max_hosts(k, 4)):,} for radix {k}")
    return k, g, su, G


def size_fabrics(k: int, G: int, g: int, su: int, reference_sus: int) -> dict:
    """Every fabric the page sizes: one SU, the reference SuperPOD, the scenario's fat-tree and
    Dragonfly+, and the largest of each for this radix."""
    su_gpus = su * g
    return {
        "max_hosts": {n: fat_tree_max_hosts(k, n) for n in (1, 2, 3)},
        "max_switches": {n: fat_tree_max_switches(k, n) for n in (1, 2, 3)},
        "su": fat_tree_build(su_gpus, k, tiers=max(2, tiers_needed(su_gpus, k))),
        "reference": fat_tree_build(reference_sus * su_gpus, k),
        "scenario": fat_tree_build(G, k),
        "dragonfly": dragonfly_plus_build(G, k),
        "dragonfly_max": dragonfly_plus_max(k),
    }


def tier_switches(ft: dict) -> tuple[int, int, int]:
    """Leaves, spines and cores of a fat-tree build (0 for the tiers it lacks)."""
    tiers = ft["tiers"]
    per_tier = ft["switches_per_tier"] + [0, 0]
    return per_tier[0], (per_tier[1] if tiers > 1 else 0), (per_tier[2] if tiers > 2 else 0)


def hop_counts(G: int, g: int, su: int, spp: int) -> dict:
    """Network links between GPU 0 and a peer at each distance (the layout's default where the
    scenario has no such peer)."""
    su_gpus = su * g

    def links(a, b, pxn=False):
        return network_links(a, b, g, su, spp, pxn)

    return {
        "same_node": links(0, 1) if g > 1 else 0,
        "same_rail_same_su": links(0, g) if su > 1 else 2,  # GPU 0 of node 0 -> GPU 0 of node 1
        "cross_rail_same_su": links(0, g + 1) if su > 1 and g > 1 else 4,
        "cross_rail_same_su_pxn": links(0, g + 1, pxn=True) if su > 1 and g > 1 else 2,
        "same_rail_other_su": links(0, su_gpus) if G > su_gpus else 4,
        "other_pod": links(0, spp * su_gpus) if G > spp * su_gpus else 6,
    }


def spine_shares(G: int, g: int, su: int, spp: int) -> dict:
    """Share of the inter-node sends that climb to the spine: rings on one SU and on the job,
    all-to-all with and without PXN."""
    su_ring = min(su * g, G)

    def ring_share(gpus, cross_rail, pxn=False):
        return spine_share(network_links(*ring_flows(gpus, g, cross_rail=cross_rail), g, su, spp, pxn))

    return {
        "su_same": ring_share(su_ring, False),
        "su_cross": ring_share(su_ring, True),
        "su_cross_pxn": ring_share(su_ring, True, pxn=True),  # beat 5's last frame: NVLink first, then one rail
        "job_same": ring_share(G, False),
        "a2a": all_to_all_spine_share(G, g, su, pxn=False),
        "a2a_pxn": all_to_all_spine_share(G, g, su, pxn=True),
        "su_a2a": all_to_all_spine_share(su_ring, g, su, pxn=False),
        "su_a2a_pxn": all_to_all_spine_share(su_ring, g, su, pxn=True),
    }


def radix_sweep(min_radix: int, max_radix: int) -> dict:
    """The figure's series: the largest two- and three-tier fat-trees and Dragonfly+ per radix."""
    ks = np.arange(min_radix, max_radix + 1, 2)
    return curves("radix", ks,
                  fat_tree_2=2 * (ks // 2) ** 2,
                  fat_tree_3=2 * (ks // 2) ** 3,
                  dragonfly_plus=(ks // 2) ** 2 * ((ks // 2) ** 2 + 1))


def check_claims(fabrics: dict, shares: dict, k: int, G: int, g: int, su: int) -> None:
    """The page's worded claims, each checked on the numbers it quotes."""
    ft, df = fabrics["scenario"], fabrics["dragonfly"]
    tiers, max_hosts = ft["tiers"], fabrics["max_hosts"]
    nodes, sus = G // g, math.ceil(G / (su * g))
    check(max_hosts.get(tiers - 1, 1) < G <= fat_tree_max_hosts(k, tiers),
          "the scenario's GPUs need this many tiers (one fewer holds too few)")
    check(shares["su_same"] == 0, "within one scalable unit a same-rail all-reduce never reaches the spine")
    check(shares["su_cross"] > 0, "a cross-rail exchange climbs to the spine")
    check(shares["su_cross_pxn"] == 0, "with PXN a cross-rail ring in one scalable unit stays below the spine")
    check(shares["job_same"] <= sus / nodes + 1e-12,
          "across the job the rail-aligned ring climbs only at SU boundaries")
    check(shares["su_a2a_pxn"] < shares["su_a2a"], "with PXN the all-to-all share over the spine falls")
    check(shares["a2a_pxn"] > 0.5, "at this scale an all-to-all is a spine workload, even with PXN")
    check(df["switches"] < ft["switches"] and df["optic_ends"] < ft["optic_ends"],
          "the Dragonfly+ needs fewer switches and fewer optics than the fat-tree")
    check(DF_MAX_SWITCH_HOPS < 2 * (tiers - 1) or tiers < 3,
          "Dragonfly+ needs fewer switch-to-switch hops than the three-tier tree")
    check(fabrics["dragonfly_max"]["hosts"] > max_hosts[3],
          "a Dragonfly+ reaches more GPUs than a three-tier fat-tree")


def pipeline_su_aligned(tp: int, pp: int, g: int, su: int) -> bool:
    """Whether every pipeline stage pair sits inside one SU on one rail: the tensor group fills whole
    nodes (tp a multiple of g) and one model replica's tp·pp GPUs divide the SU's GPUs."""
    return tp % g == 0 and (su * g) % (tp * pp) == 0


def check_paths(paths: list[dict], tp: int, pp: int, g: int, su: int) -> None:
    """The page's sentences on where each parallelism runs (the pipeline's "at the leaf" only where a
    replica's nodes divide the SU; the page reports the share otherwise)."""
    tensor, pipeline, data, expert, cross = paths
    check(tensor["nvlink"] == 1, "tensor parallelism stays on NVLink inside the node")
    check(not pipeline_su_aligned(tp, pp, g, su) or pp == 1
          or (pipeline["network_sends"] > 0 and pipeline["leaf"] == 1),
          "pipeline send/receive between nodes stays on its rail, at the leaf, when a replica fits an SU")
    check(data["spine"] + data["core"] > 0, "a data-parallel group that spans SUs climbs to the spine")
    check(expert["spine"] > expert["leaf"], "most of an all-to-all climbs to the spine")
    check(cross["spine"] == 1, "every send between different local ranks climbs to the spine")


def tier(counts: list, i: int) -> int:
    """Switches or cables in tier i of a build; 0 for a tier it does not have (one SU of a few nodes, or a
    radix large enough that one tier of leaves holds the whole SuperPOD)."""
    return counts[i] if i < len(counts) else 0


def summarise(fabrics: dict, hops: dict, shares: dict, k: int, G: int, g: int, su: int, spp: int,
              port_rate: float, reference_sus: int, tp: int, pp: int) -> dict:
    """The numbers the page, the captions and the scene quote."""
    su_gpus = su * g
    su_build, ref_build, ft, df = (fabrics[x] for x in ("su", "reference", "scenario", "dragonfly"))
    df_max, max_hosts, max_switches = fabrics["dragonfly_max"], fabrics["max_hosts"], fabrics["max_switches"]
    leaves, spines, cores = tier_switches(ft)
    return {
        "radix": k,
        "port_rate": float(port_rate),
        "gpus": G,
        "gpus_per_node": g,
        "nodes": G // g,
        "su_nodes": su,
        "su_gpus": su_gpus,
        "sus": math.ceil(G / su_gpus),
        "sus_per_pod": spp,
        "pod_gpus": spp * su_gpus,
        "pods": math.ceil(G / (spp * su_gpus)),
        "max_hosts_2": max_hosts[2],
        "max_hosts_3": max_hosts[3],
        "max_switches_per_host_3": max_switches[3] / max_hosts[3],
        # one SU (the animation)
        "su_leaves": su_build["switches_per_tier"][0],
        "su_spines": tier(su_build["switches_per_tier"], 1),
        "su_host_cables": su_build["cables_per_tier"][0],
        "su_spine_cables": tier(su_build["cables_per_tier"], 1),
        "su_leaf_down": su,  # one port per node on each rail leaf
        "su_leaf_up": k // 2,
        # the reference SuperPOD (RA Table 4)
        "reference_sus": reference_sus,
        "reference_gpus": reference_sus * su_gpus,
        "reference_tiers": ref_build["tiers"],
        "reference_leaves": ref_build["switches_per_tier"][0],
        "reference_spines": tier(ref_build["switches_per_tier"], 1),
        "reference_spine_cables": tier(ref_build["cables_per_tier"], 1),
        # the scenario's fat-tree
        "tiers": ft["tiers"],
        "leaves": leaves,
        "spines": spines,
        "cores": cores,
        "switches": ft["switches"],
        "cables": ft["cables"],
        "bisection": bisection_bandwidth(G, port_rate),
        # Dragonfly+
        "df_group_hosts": df_max["group_hosts"],
        "df_group_switches": df_max["group_switches"],
        "df_max_groups": df_max["groups"],
        "df_max_hosts": df_max["hosts"],
        "df_groups": df["groups"],
        "df_switches": df["switches"],
        "df_cables": df["cables"],
        "df_links_per_group_pair": df["links_per_group_pair"],
        "df_links_per_group_pair_low": math.floor(df["links_per_group_pair"]),
        "df_links_per_group_pair_high": math.ceil(df["links_per_group_pair"]),
        # bisection: global links across the cut between two halves of the groups, against H/2
        "bisection_links": G / 2,
        "df_bisection_links": df["bisection_links"],
        "df_bisection": df["bisection_links"] * port_rate,
        "df_bisection_share": df["bisection_links"] / (G / 2),
        "fat_tree_switches_per_bisection_link": ft["switches"] / (G / 2),
        "dragonfly_switches_per_bisection_link": df["switches"] / df["bisection_links"],
        # the structural costs per GPU: full two- and three-tier trees, the largest Dragonfly+
        "max_switches_per_host_2": fabrics["max_switches"][2] / max_hosts[2],
        "max_optics_per_host_2": fabric_optics_per_host(k, 2),
        "max_optics_per_host_3": fabric_optics_per_host(k, 3),
        "df_max_switches_per_gpu": df_max["switches"] / df_max["hosts"],
        # two port-ends per cable: one host cable, one leaf-spine cable and half a global one per GPU (5)
        "df_max_optics_per_gpu": 2 * (2 * df_max["hosts"] + df_max["global_cables"]) / df_max["hosts"],
        "df_max_switch_hops": DF_MAX_SWITCH_HOPS,
        "ft_max_switch_hops": 2 * (ft["tiers"] - 1),
        # hops and spine shares
        **{f"links_{name}": int(v) for name, v in hops.items()},
        "su_same_rail_spine_share": shares["su_same"],
        "su_cross_rail_spine_share": shares["su_cross"],
        "su_cross_rail_spine_share_pxn": shares["su_cross_pxn"],
        "job_same_rail_spine_share": shares["job_same"],
        "su_all_to_all_spine_share": shares["su_a2a"],
        "su_all_to_all_spine_share_pxn": shares["su_a2a_pxn"],
        "fat_tree_switches_per_gpu": ft["switches"] / G,
        # the job's parallelism, packed in Llama 3's rank order (records["parallel_paths"])
        "tensor_parallel": tp,
        "pipeline_parallel": pp,
        "data_parallel": G // (tp * pp),
        "dp_replica_stride_nodes": tp * pp / g,
        "fat_tree_optics_per_gpu": ft["optic_ends"] / G,
        "dragonfly_switches_per_gpu": df["switches"] / G,
        "dragonfly_optics_per_gpu": df["optic_ends"] / G,
        "switch_saving": 1 - df["switches"] / ft["switches"],
        "optics_saving": 1 - df["optic_ends"] / ft["optic_ends"],
    }


def animation_plan(summary: dict, hops: dict, fabrics: dict, g: int, su: int) -> dict:
    """What the scene draws: one SU with a few nodes, then both large fabrics."""
    rail = min(2, g - 1)
    return {
        "draw_nodes": min(4, su),
        "rails": g,
        "spines": summary["su_spines"],
        # same-rail all-reduce: GPU r of each drawn node to GPU r of the next
        "same_rail": {"rail": rail, "links": hops["same_rail_same_su"]},
        # cross-rail: GPU r of node i to GPU r+1 of node i+1
        "cross_rail": {"rail": rail, "links": hops["cross_rail_same_su"]},
        # the scenario's fabrics, drawn whole when small enough: pods of the tree, Dragonfly+ groups
        "draw_pods": min(summary["pods"], 16),
        "draw_cores": min(summary["cores"], 8),
        "draw_groups": min(fabrics["dragonfly"]["groups"], 16),
    }


def problems(fabrics: dict, shares: dict, k: int) -> dict:
    """The answers to the page's problems."""
    return {
        "three_tier_switches_full": fabrics["max_switches"][3],
        "three_tier_hosts_full": fabrics["max_hosts"][3],
        "su_spine_cables": tier(fabrics["su"]["cables_per_tier"], 1),
        "all_to_all_spine_share": shares["a2a"],
        "all_to_all_spine_share_pxn": shares["a2a_pxn"],
    }


def fabrics_table(fabrics: dict, k: int, G: int, reference_sus: int) -> Table:
    """The numbers table: switches, cables and optics of each fabric the page sizes."""
    su_build, ref_build, ft, df = (fabrics[x] for x in ("su", "reference", "scenario", "dragonfly"))
    df_max, max_hosts = fabrics["dragonfly_max"], fabrics["max_hosts"]
    su_gpus, tiers = su_build["hosts"], ft["tiers"]
    ref_gpus = reference_sus * su_gpus
    leaves, spines, cores = tier_switches(ft)
    df_max_cables = df_max["hosts"] * 2 + df_max["global_cables"]
    full = fat_tree_max_switches_per_tier(k, tiers) + [0, 0, 0]
    df_max_bisection = dragonfly_bisection_links(df_max["groups"], df_max["global_ports_per_group"])
    bisection = [1.0, 1.0, 1.0, df["bisection_links"] / (G / 2), 1.0, df_max_bisection / (df_max["hosts"] / 2)]
    rows = [
        ["one SU (fat-tree)", su_gpus, su_build["tiers"], su_build["switches_per_tier"][0],
         tier(su_build["switches_per_tier"], 1), 0, su_build["switches"], su_build["cables"],
         su_build["switches"] / su_gpus, su_build["optic_ends"] / su_gpus],
        [f"{reference_sus}-SU SuperPOD (fat-tree, ports)", ref_gpus, ref_build["tiers"],
         ref_build["switches_per_tier"][0], tier(ref_build["switches_per_tier"], 1),
         ref_build["switches_per_tier"][2] if ref_build["tiers"] > 2 else 0,
         ref_build["switches"], ref_build["cables"], ref_build["switches"] / ref_gpus,
         ref_build["optic_ends"] / ref_gpus],
        ["scenario (fat-tree)", G, tiers, leaves, spines, cores, ft["switches"], ft["cables"],
         ft["switches"] / G, ft["optic_ends"] / G],
        ["scenario (Dragonfly+)", G, 2, df["groups"] * (k // 2), df["groups"] * (k // 2), 0,
         df["switches"], df["cables"], df["switches"] / G, df["optic_ends"] / G],
        [f"largest {tiers}-tier fat-tree", max_hosts.get(tiers, fat_tree_max_hosts(k, tiers)), tiers,
         *full[:3], sum(full), tiers * fat_tree_max_hosts(k, tiers),
         sum(full) / fat_tree_max_hosts(k, tiers), float(2 * tiers)],
        ["largest Dragonfly+", df_max["hosts"], 2, df_max["groups"] * (k // 2),
         df_max["groups"] * (k // 2), 0, df_max["switches"], df_max_cables,
         df_max["switches"] / df_max["hosts"], 2 * df_max_cables / df_max["hosts"]],
    ]
    rows = [row + [b] for row, b in zip(rows, bisection, strict=True)]
    return Table(
        f"Non-blocking fabrics of radix-{k} switches, one NIC port per GPU: switches per tier, cables "
        "(one per host per tier boundary), optical port-ends (two per cable) and the bisection as a share of "
        "the non-blocking H/2 links (Dragonfly+: the global links between two halves of its groups). "
        "Dragonfly+ leaf/spine columns count all groups' leaves and spines.",
        [Column("fabric", "text"), Column("GPUs", "count"), Column("tiers", "count"),
         Column("leaf switches", "count"), Column("spine switches", "count"), Column("core switches", "count"),
         Column("switches", "count"), Column("cables", "count"), Column("switches per GPU", "1"),
         Column("optics per GPU", "1"), Column("bisection, share of non-blocking", "1")],
        rows,
    )
