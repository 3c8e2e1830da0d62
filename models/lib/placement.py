"""Where a job's parallel groups land and what each dimension's traffic costs there.

A training job of G = t·p·d ranks (tensor-, pipeline- and data-parallel degrees t, p, d)
is placed on a hierarchy of GPUs: node (one NVLink domain), rack (one top-of-rack
switch), pod (full bisection), cluster (pods joined by a layer oversubscribed o:1).
Two GPUs are at level 0 (same node), 1 (same rack), 2 (same pod) or 3 (different pods).

`traffic_per_gpu` gives the bytes each GPU sends per step in each dimension
(Narayanan et al., SC '21, §3.2 and §4.1); `group_gpus` the GPUs of every group
for a placement (rank → GPU); `dimension_levels` the level of every hop of every
group; `dimension_channels` how many network channels each group's ring gets;
`dimension_times` the seconds each dimension spends communicating, each collective a ring
(the α-β ring all-reduce) at the rate of its slowest hop times its channels, its latency charged
step by step at the level each step crosses (`ring_step_levels`).

Latency (NCCL's tuner, src/graph/tuning.cc, as models/lib/collectives.ring_latency_two_level): of a
ring all-reduce's 2(p-1) steps over N nodes, 2(N-1) pay the network's latency and the rest NVLink's.
A ring whose node-to-node hops sit at different levels (rack, pod, across pods) takes each of its N
such hops twice and leaves out two traversals of the cheapest of them, which charges the most of any
choice and is NCCL's count exactly when the hops share one level.

Channels (NCCL, src/graph/search.cc, init.cc and tuning.cc, release 2.30.7-1). NCCL builds an
inter-node ring as "NET n -> GPU a -> GPU b -> .. -> GPU x -> NET n": it enters a node through one
NIC, visits that node's GPUs over NVLink and leaves through a NIC. Each channel takes its bandwidth
off the NICs it uses (`net.bw -= bw`), and the NICs it may use are those near the communicator's
GPUs in that node (`ncclTopoSelectNets`); every rank then keeps the smallest channel count and the
smallest per-channel bandwidth any node found (init.cc, `std::min` over `allGather3Data`), and the
tuner charges a ring `nChannels * bw` of bus bandwidth (tuning.cc). With one NIC per GPU (a
rail-optimised node, and GB200's compute tray), a node holding k of a group's GPUs offers k ports,
so a group split k / (n-k) over two nodes gets min(k, n-k) channels of one port each; a group over
more nodes gets the fewest GPUs it has in any one of them. The channels never carry more than one
GPU's NVLink. NCCL's tree and NVLS algorithms are not modelled. Its tuner converts a tree's bus
bandwidth to algorithm bandwidth at half (tuning.cc), below the ring's p/(2(p-1)) for the groups
here, so it would not pick the tree for large messages. NVLS_TREE it may well pick for a group over
two nodes with two or more GPUs in each (tuning.cc counts its inter-node bandwidth twice there); a
group with one GPU in some node cannot run NVLS (search.cc, tuning.cc: two channels, one per GPU of
the node). The scenes bound NVLS_TREE instead: no all-reduce beats n/(k·B) over k ports.

Units: bytes, seconds, bytes per second (models/units.py).
"""

from __future__ import annotations

import math

import numpy as np

from models.lib.collectives import ring_bandwidth_term, ring_steps
from models.lib.fat_tree import network_links

DIMENSIONS = ("tensor", "pipeline", "data")


# ---------------------------------------------------------------------------
# the hierarchy
# ---------------------------------------------------------------------------


def hop_levels(a, b, node_gpus: int, rack_gpus: int, pod_gpus: int):
    """Level of the path between GPUs a and b: 0 node, 1 rack, 2 pod, 3 across pods.

    `network_links` (the fat tree's) counts the network links of that path (0, 2, 4
    or 6) for a layout of nodes, scalable units and pods; a rack under one ToR
    is a scalable unit whose every GPU reaches the same switch (pxn=True: no
    rails), so the level is half the links.
    """
    links = network_links(a, b, node_gpus, rack_gpus // node_gpus, pod_gpus // rack_gpus, pxn=True)
    return np.asarray(links) // 2


def level_rates(nvlink_rate: float, port_rate: float, oversubscription: float) -> np.ndarray:
    """Per-direction rate a GPU gets at each level (B/s) with every GPU sending: NVLink, port, port,
    port / o (dimension_times raises the last when few flows leave a pod)."""
    return np.array([nvlink_rate, port_rate, port_rate, port_rate / oversubscription])


# ---------------------------------------------------------------------------
# groups and traffic
# ---------------------------------------------------------------------------


def group_gpus(gpu_of_rank, tp: int, pp: int, dp: int, order=("tensor", "pipeline", "data")) -> dict:
    """The GPUs of every group, per dimension: arrays of shape (groups, group size).

    `order` lists the dimensions innermost first: ("tensor", "pipeline", "data") is
    Llama 3's [TP, CP, PP, DP] (CP = 1); ("tensor", "data", "pipeline") is
    Megatron-LM's default. Rank = i_0 + n_0·(i_1 + n_1·i_2) for that order.
    """
    size = {"tensor": tp, "pipeline": pp, "data": dp}
    if sorted(order) != sorted(DIMENSIONS):
        raise ValueError(f"order must list {DIMENSIONS} once each, not {order!r}")
    outer_first = list(reversed(order))
    g = np.asarray(gpu_of_rank).reshape([size[d] for d in outer_first])
    out = {}
    for i, d in enumerate(outer_first):
        out[d] = np.moveaxis(g, i, -1).reshape(-1, size[d])
    return out


def traffic_per_gpu(tp: int, pp: int, dp: int, micro_batch: int, seq: int, hidden: int, layers: int,
                    microbatches: int, params: float, act_bytes: float, grad_bytes: float) -> dict:
    """Bytes each GPU sends per step in each dimension (Narayanan et al. 2021, §3.2 and §4.1).

    Returns bytes sent per GPU, the message sizes and the message counts per step.
    """
    bsh = micro_batch * seq * hidden
    layers_stage = math.ceil(layers / pp)
    tp_msg = bsh * act_bytes  # one all-reduce's message
    tp_count = 4 * layers_stage * microbatches if tp > 1 else 0
    pp_msg = bsh / tp * act_bytes  # one send, scatter/gather split over the tensor ranks
    pp_count = 2 * microbatches if pp > 1 else 0
    dp_msg = params / (tp * pp) * grad_bytes
    dp_count = 1 if dp > 1 else 0
    return {
        "tensor": tp_count * 2 * (tp - 1) / tp * tp_msg,
        "pipeline": pp_count * pp_msg,
        "data": dp_count * 2 * (dp - 1) / dp * dp_msg,
        "message": {"tensor": tp_msg, "pipeline": pp_msg, "data": dp_msg},
        "count": {"tensor": tp_count, "pipeline": pp_count, "data": dp_count},
        "layers_per_stage": layers_stage,
    }


def _hops(groups: np.ndarray, ring: bool) -> tuple[np.ndarray, np.ndarray]:
    """Sender and receiver of every hop: ring (with wrap) or chain."""
    if ring:
        return groups, np.roll(groups, -1, axis=1)
    return groups[:, :-1], groups[:, 1:]


def dimension_levels(groups: dict, hier: tuple[int, int, int]) -> dict[str, np.ndarray]:
    """Level of every hop of every group: rings for tensor and data, chains for pipeline."""
    out = {}
    for dim, g in groups.items():
        if g.shape[1] < 2:
            out[dim] = np.zeros((g.shape[0], 0), dtype=int)
            continue
        src, dst = _hops(g, ring=dim != "pipeline")
        out[dim] = hop_levels(src, dst, *hier)
    return out


def _run_lengths(sorted_rows: np.ndarray) -> np.ndarray:
    """For each element of rows sorted along axis 1, how many equal elements its row holds."""
    n = sorted_rows.shape[1]
    pos = np.broadcast_to(np.arange(n), sorted_rows.shape)
    starts = np.ones(sorted_rows.shape, dtype=bool)
    starts[:, 1:] = sorted_rows[:, 1:] != sorted_rows[:, :-1]
    ends = np.ones(sorted_rows.shape, dtype=bool)
    ends[:, :-1] = starts[:, 1:]
    first = np.maximum.accumulate(np.where(starts, pos, 0), axis=1)
    last = np.minimum.accumulate(np.where(ends, pos, n - 1)[:, ::-1], axis=1)[:, ::-1]
    return last - first + 1


def ring_channels(groups: np.ndarray, node_gpus: int) -> np.ndarray:
    """Network channels each group's ring gets: the fewest of its GPUs in any node it spans.

    Each GPU's own NIC carries one channel and NCCL keeps the smallest channel count any node
    found, so a group split k / (n-k) over two nodes gets min(k, n-k); a group inside one node
    gets its size (its ring never reaches the network).
    """
    groups = np.asarray(groups)
    if groups.ndim != 2 or groups.shape[1] == 0:
        raise ValueError(f"groups must be an array of shape (groups, group size >= 1), not {groups.shape}")
    nodes = np.sort(groups // node_gpus, axis=1)
    return _run_lengths(nodes).min(axis=1)


def dimension_channels(groups: dict, node_gpus: int) -> dict[str, np.ndarray]:
    """Channels of every group's ring, per dimension; pipeline sends are point to point, one channel."""
    return {dim: (np.ones(g.shape[0], dtype=int) if dim == "pipeline" else ring_channels(g, node_gpus))
            for dim, g in groups.items()}


def _node_rings(groups: np.ndarray, node_gpus: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The ring of every group's nodes as NCCL links them: each node once, in the order its first rank
    appears (inside a node the ring visits the group's GPUs over NVLink, so only node-to-node hops reach
    the network). Returns, group after group, the first GPU of every node and that of the next node
    round the group's ring, and how many nodes each group spans. All groups at once: the scene's
    backgrounds ask for hundreds of thousands of groups, one numpy pass instead of one call each."""
    nodes = groups // node_gpus
    order = np.argsort(nodes, axis=1, kind="stable")  # stable: equal nodes keep their rank order
    ranked = np.take_along_axis(nodes, order, axis=1)
    first_in_sorted = np.ones(ranked.shape, dtype=bool)
    first_in_sorted[:, 1:] = ranked[:, 1:] != ranked[:, :-1]
    first = np.zeros(ranked.shape, dtype=bool)  # a rank is the first of its node in its group
    np.put_along_axis(first, order, first_in_sorted, axis=1)
    rows, cols = np.nonzero(first)  # row-major: group by group, ranks in order
    src = groups[rows, cols]
    spans = first.sum(axis=1)
    starts = np.concatenate(([0], np.cumsum(spans)[:-1]))
    nxt = np.arange(src.size) + 1
    nxt[starts + spans - 1] = starts  # the last node of a ring links back to its first
    return src, src[nxt], spans


def cross_pod_load(groups: dict, channels: dict, hier: tuple[int, int, int]) -> dict[str, float]:
    """Per dimension: the most flows leaving any one pod, over that pod's GPUs.

    The layer above a pod carries pod_gpus·port/o; when a dimension's flows
    out of a pod exceed pod_gpus/o, each gets its share of that capacity. A ring's
    every channel (dimension_channels) is a flow on each hop between its nodes that leaves a pod;
    a pipeline chain sends one flow per hop.
    """
    node, pod = hier[0], hier[2]
    out = {}
    for dim, g in groups.items():
        if g.shape[1] < 2:
            out[dim] = 0.0
            continue
        if dim == "pipeline":
            src, dst = _hops(g, ring=False)
            weight = np.ones(src.shape, dtype=int)
        else:
            src, dst, spans = _node_rings(np.asarray(g), node)
            weight = np.repeat(np.asarray(channels[dim]), spans)
        leaving = (src // pod) != (dst // pod)
        flows = np.bincount((src // pod)[leaving], weights=weight[leaving]) if leaving.any() else np.zeros(1)
        out[dim] = float(flows.max() / pod)
    return out


def ring_step_levels(groups: np.ndarray, hier: tuple[int, int, int]) -> np.ndarray:
    """How many of each group's ring all-reduce steps cross each level: shape (groups, 4), rows summing to 2(p-1).

    The ring as NCCL links it (`_node_rings`: each node once, its GPUs over NVLink): of the 2(p-1) steps
    2(N-1) cross between its N nodes and the rest stay inside one (NCCL's nInterSteps, tuning.cc;
    collectives.ring_inter_node_steps). Each of the N node-to-node hops is counted twice at its own level,
    less two at the cheapest of them; a group inside one node has one hop from its node to itself, level 0,
    so all its steps stay there.
    """
    groups = np.asarray(groups)
    if groups.ndim != 2 or groups.shape[1] < 2:
        raise ValueError(f"groups must be an array of shape (groups, group size >= 2), not {groups.shape}")
    count, size = groups.shape
    src, dst, spans = _node_rings(groups, hier[0])
    level = np.asarray(hop_levels(src, dst, *hier), dtype=int)
    row = np.repeat(np.arange(count), spans)
    steps = np.zeros((count, 4), dtype=int)
    np.add.at(steps, (row, level), 2)
    starts = np.concatenate(([0], np.cumsum(spans)[:-1]))
    steps[np.arange(count), np.minimum.reduceat(level, starts)] -= 2
    steps[:, 0] += 2 * (size - spans)  # the hops inside each node, twice each
    return steps


def dimension_step_levels(groups: dict, hier: tuple[int, int, int]) -> dict[str, np.ndarray]:
    """ring_step_levels for every ring dimension (tensor, data) whose groups hold two GPUs or more."""
    return {dim: ring_step_levels(g, hier) for dim, g in groups.items() if dim != "pipeline" and g.shape[1] >= 2}


def ring_latency(steps, alphas) -> np.ndarray:
    """Seconds of latency of each ring: its steps at each level (ring_step_levels) times that level's alpha."""
    return np.asarray(steps) @ np.asarray(alphas, dtype=float)


def ring_allreduce_time(n, size: int, steps, worst: int, channels: int, rates: np.ndarray, alphas: np.ndarray):
    """One ring all-reduce of n bytes over `size` ranks: its latency step by step (ring_latency of `steps`,
    one row of ring_step_levels) plus the bandwidth term 2(p-1)/p·n/B at the rate of its slowest hop
    (`worst`) and `channels` (ring_rate). Every step's bytes wait for the slowest hop; only the latency
    is charged hop by hop."""
    if int(np.sum(steps)) != ring_steps(size):
        raise ValueError(f"a ring of {size} ranks takes {ring_steps(size)} steps, not {int(np.sum(steps))}")
    return float(ring_latency(steps, alphas)) + ring_bandwidth_term(n, size, ring_rate(worst, channels, rates))


def group_ring_time(n, group, hier: tuple[int, int, int], rates: np.ndarray, alphas: np.ndarray) -> float:
    """One ring all-reduce of n bytes over one group of GPUs (a 1-D array): its hop levels, channels
    (ring_channels) and latency steps (ring_step_levels), as dimension_times charges each group."""
    g = np.asarray(group)[None, :]
    worst = int(hop_levels(g, np.roll(g, -1, axis=1), *hier).max())
    channels = int(ring_channels(g, hier[0])[0])
    return float(ring_allreduce_time(n, g.shape[1], ring_step_levels(g, hier)[0], worst, channels, rates, alphas))


def ring_rate(level: int, channels: int, rates: np.ndarray) -> float:
    """Per-direction rate of a ring whose slowest hop is at `level`: NVLink inside a node; outside,
    `channels` flows at that level's rate, at most one GPU's NVLink (every channel also crosses it)."""
    if level == 0:
        return float(rates[0])
    return float(min(channels * rates[level], rates[0]))


def dimension_times(levels: dict, channels: dict, traffic: dict, rates: np.ndarray, alphas: np.ndarray,
                    load: dict | None = None, oversubscription: float = 1.0, *, steps: dict) -> dict[str, float]:
    """Seconds per step each dimension spends communicating: its slowest group sets it.

    `rates` per level (level_rates); across pods a flow gets the port rate
    times min(1, 1/(o·load)), `load` from cross_pod_load. A ring that leaves its node runs
    `channels` (dimension_channels) flows at its slowest hop's rate, at most one GPU's NVLink, and pays
    each step's latency at the level that step crosses (`steps`, dimension_step_levels: NVLink's alpha
    inside a node, the network's on the 2(N-1) steps between nodes). A pipeline send pays its slowest hop.
    """
    out = {}
    for dim, lv in levels.items():
        count = traffic["count"][dim]
        if lv.shape[1] == 0 or count == 0:
            out[dim] = 0.0
            continue
        r = rates.copy()
        r[3] = rates[2] * min(1.0, 1.0 / (oversubscription * load[dim])) if load and load[dim] > 0 else rates[2]
        worst = lv.max(axis=1)  # the slowest hop of each group (rates do not rise with level)
        n = traffic["message"][dim]
        ch = np.asarray(channels[dim])
        if dim == "pipeline":
            per = [alphas[w] + n / r[w] for w in set(worst.tolist())]
        else:
            # groups alike in slowest hop, channels and steps per level cost alike: time each kind once
            kinds = np.unique(np.column_stack([worst, ch, steps[dim]]), axis=0)
            per = [ring_allreduce_time(n, lv.shape[1], k[2:], int(k[0]), int(k[1]), r, alphas) for k in kinds]
        out[dim] = float(count * max(per))
    return out


__all__ = [
    "DIMENSIONS",
    "hop_levels", "level_rates", "group_gpus", "traffic_per_gpu", "dimension_levels", "ring_channels",
    "dimension_channels", "cross_pod_load", "ring_step_levels", "dimension_step_levels", "ring_latency",
    "ring_allreduce_time", "group_ring_time", "ring_rate", "dimension_times",
]
