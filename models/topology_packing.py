"""Topology-aware placement: where a job's parallel groups land, and what it costs.

A training job of G = t·p·d ranks (tensor-, pipeline- and data-parallel
degrees t, p, d; context parallelism 1) is placed on a hierarchy of GPUs:

    node  (n GPUs on one NVLink/NVSwitch baseboard: the scale-up domain)
    rack  (r GPUs under one top-of-rack switch)
    pod   (q GPUs under a full-bisection layer of cluster switches)
    cluster (pods joined by an aggregation layer oversubscribed o:1)

Two GPUs a, b are at level 0 (same node), 1 (same rack), 2 (same pod) or 3
(different pods); a message between them crosses 0, 1, 3 or 5 switches
(NVLink inside the node; ToR; ToR-spine-ToR; ToR-spine-aggregation-spine-ToR).
The levels reuse the fat tree's network_links (a rack plays its scalable unit).

Rank order (Llama 3's [TP, CP, PP, DP] with CP = 1, tensor fastest, the default of
`order`): rank = i_t + t·(i_p + p·i_d), so a tensor group is t consecutive ranks, a
pipeline group strides t and a data-parallel group strides t·p (Megatron-LM's default
swaps the last two: `order=("tensor", "data", "pipeline")`). A placement maps rank → GPU.

Bytes per GPU per step (Narayanan et al., SC '21, §3.2 and §4.1; Korthikanti
et al. 2022, §4.2.2 for sequence parallelism), with b the microbatch size, s
the sequence length, h the hidden size, m microbatches per step, L_s the
layers of the slowest stage, w bytes per activation element, w_g bytes per
gradient element and P the parameter count:

    tensor:    4 all-reduces of b·s·h elements per layer per microbatch
               (2 forward, 2 backward): each GPU sends 8·b·s·h·(t−1)/t·w per
               layer per microbatch (the paper's own expression), so
               B_tp = L_s·m·8·b·s·h·(t−1)/t·w. Sequence parallelism replaces
               each all-reduce by a reduce-scatter plus an all-gather: the
               same bytes.
    pipeline:  b·s·h elements per microbatch between consecutive stages, in
               each direction (activations forward, gradients backward),
               split over the t tensor ranks by the scatter/gather
               optimisation (§4.1): B_pp = 2·m·b·s·h/t·w.
    data:      one all-reduce of the P/(t·p) gradients a GPU holds:
               B_dp = 2(d−1)/d · P/(t·p) · w_g (ring).

Times. Each collective is a ring (the α-β ring_time) over the
group's GPUs as NCCL orders them (each node once, its GPUs over NVLink; the slowest hop is the
level that joins the group, whatever the order); a ring runs at the rate of its slowest hop (the
NVLink per-GPU rate inside a node, the network port rate between nodes, the
port rate divided by the oversubscription between pods) times its channels, and
pays each step's latency at the level that step crosses: of its 2(t−1) steps over N nodes, the
2(N−1) between nodes at the network's alpha and the rest at NVLink's (NCCL's tuner, src/graph/tuning.cc;
ring_step_levels in models/lib/placement.py). A ring that leaves its node
runs one channel per NIC, as NCCL does: a group with k of its GPUs in one node
and n−k in another gets min(k, n−k) ports (models/lib/placement.py says where
NCCL's source does this), so as rings a 4 + 4 split costs about a quarter of a 1 + 7 split.
NCCL's NVLS_TREE is not modelled but bounded: where every node holds at least two of a
split group's GPUs its tuner may pick it, and no all-reduce beats n/(k·B), each of the sparsest
node's k ports carrying the message out once and the sum back in (nvls_tree_floor).
All groups of a dimension run at once, so the dimension costs what its slowest group costs. Pipeline sends are
point-to-point on the slowest hop of each pipeline chain. Placement then
changes the step time by its extra communication:

    T_step(placement) = T_measured + Σ_dim [T_dim(placement) − T_dim(reference)]

where T_measured = (6·P + 12·L·d·S)·tokens/(G·F) is the run's step at its measured
throughput F per GPU, and the reference is the topology-aware placement (the
assumption: the published throughput was measured with the job packed, and
extra communication is not hidden behind compute).

Placements. `random` gives each rank a GPU drawn from the free ones;
`first_fit` gives ranks, in order, the free GPUs in index order; `topology_aware`
takes wholly free nodes first, filling the pod with the most of them first,
so tensor groups sit inside one node and data-parallel groups inside a pod
where they can. `fragmentation_trace` replays a seeded trace of job
arrivals and departures under a first-fit or a topology-aware (best-fit)
scheduler and records how much free capacity is still usable by a job that
needs whole nodes.

The hierarchy, the groups, the traffic per dimension and the dimension times
live in models/lib/placement.py, which the case study (placement-tax) calls
too; this module adds the placements, the fragmentation trace, the step time
of a placement and the scene's entry point, `topology_packing`.

Units: bytes, seconds, bytes per second (models/units.py).
"""

from __future__ import annotations

import dataclasses
import functools
import heapq
import math
from dataclasses import dataclass

import numpy as np

from models import training
from models.exhibit import Column, Exhibit, Param, ParamError, Table, check, curves, model
from models.lib.collectives import ring_time
from models.lib.memo import pure
from models.lib.nvlink import per_direction
from models.lib.placement import (
    DIMENSIONS,
    cross_pod_load,
    dimension_channels,
    dimension_levels,
    dimension_step_levels,
    dimension_times,
    group_gpus,
    group_ring_time,
    hop_levels,
    level_rates,
    ring_allreduce_time,
    ring_channels,
    ring_latency,
    ring_rate,
    ring_step_levels,
    traffic_per_gpu,
)

LEVELS = ("node", "rack", "pod", "cluster")
SWITCH_HOPS = (0, 1, 3, 5)  # switches a message crosses at each level: network links − 1 (NVLink inside a node)
PLACEMENTS = ("random", "first_fit", "whole_node", "topology_aware")
MAX_TRACE_JOBS = 100_000  # the fragmentation trace refuses more arrivals than this


def level_bytes(levels: dict, traffic: dict) -> np.ndarray:
    """Bytes per GPU per step at each level, all dimensions: each hop carries an equal share."""
    out = np.zeros(len(LEVELS))
    for dim, lv in levels.items():
        if lv.size == 0:
            continue
        share = np.bincount(lv.ravel(), minlength=len(LEVELS)) / lv.size
        out += share * traffic[dim]
    return out


def off_domain_share(levels: dict, traffic: dict) -> float:
    """Share of the bytes a GPU sends that leave its NVLink domain (level ≥ 1)."""
    b = level_bytes(levels, traffic)
    return float(b[1:].sum() / b.sum()) if b.sum() > 0 else 0.0


def mean_switch_hops(levels: dict, traffic: dict) -> float:
    """Switches crossed per byte sent, averaged over the bytes."""
    b = level_bytes(levels, traffic)
    return float(np.dot(b, SWITCH_HOPS) / b.sum()) if b.sum() > 0 else 0.0


def step_time(gpu_of_rank, reference_gpu_of_rank, tp: int, pp: int, dp: int, traffic: dict,
              hier: tuple[int, int, int], rates: np.ndarray, alphas: np.ndarray, oversubscription: float,
              measured_step: float, order=("tensor", "pipeline", "data"), backward_slot: float | None = None) -> dict:
    """Step time of a placement: the measured step plus its extra communication over the reference.

    `backward_slot` (s): under 1F1B the pipeline stages finish their backward passes one slot apart, so
    their data-parallel reductions are staggered and share the pods' uplinks as they overlap
    (staggered_data_time); None charges them all at once.
    Returns the step time (s), the per-dimension communication times of both placements, the hop levels,
    and the throughput relative to the reference.
    """
    traffic_items = _frozen(traffic)

    def comm(gpu_of_rank):
        a = np.ascontiguousarray(gpu_of_rank, dtype=np.int64)
        lv = _geometry(a.tobytes(), int(tp), int(pp), int(dp), tuple(map(int, hier)), tuple(order))[0]
        return (lv, *_placement_comm(a, tp, pp, dp, traffic_items, hier, rates, alphas, oversubscription, order,
                                     backward_slot))

    lv, t, together, alone, demand = comm(gpu_of_rank)
    _, t_ref, together_ref, _, _ = comm(reference_gpu_of_rank)
    step = measured_step + sum(t[k] - t_ref[k] for k in DIMENSIONS)
    # the bound without the stagger: every stage's reduction at once
    step_together = step + (together - t["data"]) - (together_ref - t_ref["data"])
    return {"step": step, "comm": t, "comm_reference": t_ref, "throughput": measured_step / step,
            "levels": lv, "data_together": together, "data_alone": alone, "step_together": step_together,
            "data_uplink_demand": demand}


def _frozen(d):
    """A nested dict of numbers as nested sorted tuples: hashable, so it can be part of a memo key."""
    return tuple(sorted((k, _frozen(v)) for k, v in d.items())) if isinstance(d, dict) else d


def _thawed(items):
    """_frozen's dict back."""
    return {k: _thawed(v) if isinstance(v, tuple) else v for k, v in items}


@pure  # a step re-times its reference placement once per placement compared, and the stagger sweep re-times
# the same placements at every Explore stop of the microbatch slider: a placement's times are a function of
# these arguments (traffic_items: the traffic dict, _frozen)
def _placement_comm(gpu_of_rank: np.ndarray, tp, pp, dp, traffic_items: tuple, hier, rates: np.ndarray,
                    alphas: np.ndarray, oversubscription, order, backward_slot) -> tuple:
    """One placement's communication time per dimension (the data-parallel one staggered when
    `backward_slot` is set), its data-parallel time with every stage at once and with one stage alone,
    and the busiest pod's uplink demand."""
    traffic = _thawed(traffic_items)
    lv, ch, load, steps = _geometry(gpu_of_rank.tobytes(), int(tp), int(pp), int(dp), tuple(map(int, hier)),
                                    tuple(order))
    t = dimension_times(lv, ch, traffic, rates, alphas, load, oversubscription, steps=steps)
    together = alone = t["data"]
    demand = load["data"] * oversubscription  # all stages' flows out of the busiest pod over its uplinks
    if backward_slot is not None and traffic["count"]["data"] and pp > 1:
        starts = (pp - 1 - np.arange(pp)) * backward_slot  # stage p-1 finishes its backward first
        t["data"], alone = staggered_data_time(lv["data"], ch["data"], load["data"], pp, hier[2], traffic,
                                               rates, alphas, oversubscription, starts, steps["data"])
    return t, together, alone, demand


@functools.lru_cache(maxsize=128)
def _geometry(gpu_bytes: bytes, tp: int, pp: int, dp: int, hier: tuple, order: tuple) -> tuple:
    """A placement's hop levels, ring channels, cross-pod flows and ring steps per level, remembered in this
    process: they depend on where the ranks sit, not on the traffic, so the stagger sweep re-times the same
    placements under other microbatch sizes without re-deriving them. Callers only read the arrays."""
    groups = group_gpus(np.frombuffer(gpu_bytes, dtype=np.int64), tp, pp, dp, order)
    ch = dimension_channels(groups, hier[0])
    return dimension_levels(groups, hier), ch, cross_pod_load(groups, ch, hier), dimension_step_levels(groups, hier)


def backward_slot(measured_step: float, microbatches: int, pp: int) -> float:
    """One microbatch's backward pass on one stage under non-interleaved 1F1B: the step is m + p − 1
    slots of forward + backward (Narayanan et al. §2.2.1), and backward is 2/3 of a slot (4 of the 6
    FLOPs per parameter per token)."""
    return measured_step / (microbatches + pp - 1) * 2 / 3


def one_f_one_b_step(measured_step: float, sequences: int, measured_micro_batch: int, micro_batch: int,
                     pp: int) -> float:
    """The packed step under plain 1F1B at microbatch size b, from the measured step taken at b₀: one
    sequence's forward + backward on a stage is T/(b₀·(S/b₀ + p − 1)), a slot of b sequences is b times
    that, and a step is S/b + p − 1 slots. The compute per sequence is held at the measured run's, so a
    larger b pays its longer pipeline bubble (p − 1 slots of b sequences) in full."""
    per_sequence = measured_step / (sequences + measured_micro_batch * (pp - 1))
    return per_sequence * (sequences + micro_batch * (pp - 1))


def saturated_queue_time(alone: float, together: float, pp: int, slot: float) -> float:
    """A lower bound on the staggered charge: the uplinks taken as saturated from the first stage's
    reduction on, a work-conserving queue fed together/p of uplink work per stage, one slot apart, ends
    stage 0's reduction max_j((j+1)·together/p − j·slot) after it starts, and never sooner than `alone`.
    The fluid (fluid_finish) is slower wherever fewer stages overlap than it takes to fill the uplinks."""
    return max(alone, max((j + 1) * together / pp - j * slot for j in range(pp)))


def full_rate_stages(demand: float, pp: int) -> int:
    """How many stages' reductions can overlap before the busiest pod's uplinks bind: each brings a p-th
    of `demand` (all stages' flows over what the uplinks carry), so k of them fit while k·demand/p ≤ 1."""
    return pp if demand <= 1 else math.floor(pp / demand)


def fluid_finish(starts, work, flows, uplink: float, port: float, channels, nvlink: float) -> np.ndarray:
    """When each stage's rings have sent their bytes, the stages sharing the pods' uplinks fairly.

    Stage j starts at starts[j] with work[j] bytes to send per channel (a ring's bandwidth term) and
    flows[j, q] flows leaving pod q. While a set of stages runs, each pod's uplinks (`uplink` B/s) are
    shared equally among the flows leaving it, no flow faster than its `port`; a stage's rings move at
    their slowest flow's rate times `channels[j]`, at most `nvlink`. Rates change only when a stage
    starts or ends, so the fluid is exact between those events (at most 2p of them).
    """
    starts, remaining = np.asarray(starts, dtype=float), np.asarray(work, dtype=float).copy()
    flows, channels = np.asarray(flows, dtype=float), np.asarray(channels, dtype=float)
    end = np.where(remaining > 0, np.inf, starts)
    now = float(starts.min())
    while np.isinf(end).any():
        active = (starts <= now) & np.isinf(end)
        pod_load = flows[active].sum(axis=0)
        share = np.full(pod_load.shape, np.inf)
        np.divide(uplink, pod_load, out=share, where=pod_load > 0)
        per_flow = np.minimum(port, np.where(flows > 0, share[None, :], np.inf).min(axis=1))
        rate = np.where(active, np.minimum(channels * per_flow, nvlink), 0.0)
        waiting = starts[(starts > now) & np.isinf(end)]
        until = np.where(active, remaining / np.where(rate > 0, rate, 1.0), np.inf)
        step = min(float(until.min()), float(waiting.min()) - now if waiting.size else np.inf)
        remaining = np.where(active, remaining - rate * step, remaining)
        now += step
        done = active & (remaining <= 1e-9 * np.asarray(work, dtype=float).max())
        end[done] = now
    return end


@pure  # the kinds depend on where the ranks sit only: every oversubscription and microbatch re-asks them
def _ring_kinds(worst: np.ndarray, channels: np.ndarray, steps: np.ndarray) -> np.ndarray:
    """The distinct (slowest hop, channels, steps per level) rows of a stage's rings."""
    return np.unique(np.column_stack([worst, channels, steps]), axis=0)


def staggered_data_time(levels: np.ndarray, channels: np.ndarray, load: float, pp: int, pod_gpus: int,
                        traffic: dict, rates: np.ndarray, alphas: np.ndarray, oversubscription: float,
                        starts, steps: np.ndarray) -> tuple[float, float]:
    """Exposed data-parallel time when the p stages' reductions start at `starts` (1F1B: a backward
    slot apart, stage 0 last), and the longest any one stage's reduction takes with the uplinks to itself.

    Rings that leave their pod share the uplinks of the busiest pod (`load`: cross_pod_load's flows
    leaving it, per GPU of the pod, all stages together) with the other stages' rings running at that
    moment, each stage bringing a p-th of those flows (fluid_finish); rings inside a pod run at their
    own slowest hop (dimension_times). Each ring pays its latency step by step (`steps`, ring_step_levels);
    a stage whose rings leave a pod adds its dearest such ring's latency to the shared fluid. Each stage ends
    when its slowest ring does; the step waits from stage 0's start until every stage has ended. With every
    stage at once this is dimension_times' charge.
    """
    d, n, count = levels.shape[1], traffic["message"]["data"], traffic["count"]["data"]
    # group_gpus lists the data-parallel groups stage by stage (the stage outermost) in either rank order
    worst = levels.max(axis=1).reshape(pp, -1)
    ch = np.asarray(channels).reshape(pp, -1)
    steps = np.asarray(steps).reshape(pp, worst.shape[1], -1)
    crosses = worst == 3
    local = np.zeros(pp)  # each stage's rings that stay in a pod, at their own rate
    for j in range(pp):
        stay = ~crosses[j]
        # rings alike in slowest hop, channels and steps per level cost alike: time each kind once
        kinds = _ring_kinds(worst[j][stay], ch[j][stay], steps[j][stay])
        local[j] = max((count * float(ring_allreduce_time(n, d, k[2:], int(k[0]), int(k[1]), rates, alphas))
                        for k in kinds), default=0.0)
    leaves = crosses.any(axis=1)
    flows = np.where(leaves, load * pod_gpus / pp, 0.0)[:, None]  # the busiest pod: each stage a p-th of its flows
    work = np.where(leaves, count * 2 * (d - 1) / d * n, 0.0)
    least = np.where(crosses, ch, np.iinfo(np.int64).max).min(axis=1)
    fewest = np.where(leaves, least, 1)
    latency = count * np.where(crosses, ring_latency(steps, alphas), 0.0).max(axis=1)  # 0 where none leaves
    uplink = pod_gpus * rates[2] / oversubscription
    starts = np.asarray(starts, dtype=float)

    def ends(start_at, which):
        out = fluid_finish(start_at[which], work[which], flows[which], uplink, rates[2], fewest[which], rates[0])
        return start_at[which] + np.maximum(local[which], out - start_at[which] + latency[which])

    exposed = float(ends(starts, np.arange(pp)).max() - starts.max())
    alone = max(float(ends(starts, np.array([j]))[0] - starts[j]) for j in range(pp))
    return exposed, alone


# ---------------------------------------------------------------------------
# placements
# ---------------------------------------------------------------------------


def place_random(free, ranks: int, rng: np.random.Generator) -> np.ndarray:
    """Each rank on a GPU drawn at random from the free ones."""
    free = np.asarray(free)
    if free.size < ranks:
        raise ValueError(f"{ranks} ranks do not fit in {free.size} free GPUs")
    return rng.choice(free, size=ranks, replace=False)


def place_first_fit(free, ranks: int) -> np.ndarray:
    """Ranks in order on the free GPUs in index order."""
    free = np.sort(np.asarray(free))
    if free.size < ranks:
        raise ValueError(f"{ranks} ranks do not fit in {free.size} free GPUs")
    return free[:ranks]


def place_topology_aware(free, ranks: int, node_gpus: int, pod_gpus: int) -> np.ndarray:
    """Wholly free nodes first, pods with the most free nodes first; then the rest first-fit.

    Ranks in order, so a tensor group of ≤ node_gpus ranks lands in one node
    and consecutive data-parallel ranks in the same pod.
    """
    free = np.sort(np.asarray(free))
    if free.size < ranks:
        raise ValueError(f"{ranks} ranks do not fit in {free.size} free GPUs")
    node = free // node_gpus
    nodes, counts = np.unique(node, return_counts=True)
    whole = nodes[counts == node_gpus]
    pod_of = whole * node_gpus // pod_gpus
    pods, per_pod = np.unique(pod_of, return_counts=True)
    order = {int(p): i for i, p in enumerate(pods[np.lexsort((pods, -per_pod))])}
    whole = whole[np.lexsort((whole, [order[int(p)] for p in pod_of]))] if whole.size else whole
    chosen = (whole[:, None] * node_gpus + np.arange(node_gpus)).ravel()
    rest = np.setdiff1d(free, chosen, assume_unique=True)
    return np.concatenate([chosen, rest])[:ranks]


def place_whole_nodes(free, ranks: int, node_gpus: int, rng: np.random.Generator) -> np.ndarray:
    """Whole free nodes in random order, ranks in order: a scheduler that gives a job whole nodes
    (Slurm --exclusive, a Kubernetes pod per 8-GPU node) but ignores where the nodes sit under the
    switches. Tensor groups stay in a node; pipeline and data-parallel neighbours land anywhere."""
    free = np.asarray(free)
    nodes, counts = np.unique(free // node_gpus, return_counts=True)
    whole = nodes[counts == node_gpus]
    need = math.ceil(ranks / node_gpus)
    if whole.size < need:
        raise ValueError(f"{ranks} ranks need {need} whole free nodes; {whole.size} are free")
    chosen = rng.permutation(whole)[:need]
    return (chosen[:, None] * node_gpus + np.arange(node_gpus)).ravel()[:ranks]


def place(kind: str, free, ranks: int, node_gpus: int, pod_gpus: int, rng: np.random.Generator) -> np.ndarray:
    """One of PLACEMENTS."""
    if kind == "random":
        return place_random(free, ranks, rng)
    if kind == "first_fit":
        return place_first_fit(free, ranks)
    if kind == "whole_node":
        return place_whole_nodes(free, ranks, node_gpus, rng)
    if kind == "topology_aware":
        return place_topology_aware(free, ranks, node_gpus, pod_gpus)
    raise ValueError(f"placement must be one of {PLACEMENTS}, not {kind!r}")


# ---------------------------------------------------------------------------
# fragmentation under a trace of arrivals and departures
# ---------------------------------------------------------------------------


def _first_free(busy: np.ndarray, node_free: np.ndarray, size: int, node_gpus: int) -> np.ndarray:
    """The first `size` free GPUs in index order, scanning only nodes that have some free."""
    nodes = np.flatnonzero(node_free)
    upto = int(np.searchsorted(np.cumsum(node_free[nodes]), size)) + 1
    span = nodes[:upto]
    cand = (span[:, None] * node_gpus + np.arange(node_gpus)).ravel()
    return cand[~busy[cand]][:size]


def _allocate(busy: np.ndarray, node_free: np.ndarray, size: int, node_gpus: int, policy: str) -> np.ndarray | None:
    """GPUs for a job of `size` under a policy, or None if it does not fit (no queueing).

    first_fit: the first free GPUs in index order. topology_aware (best fit): a job
    smaller than a node goes to the fullest node that holds it; a larger one to the
    first wholly free nodes; either falls back to first fit.
    """
    if int(node_free.sum()) < size:
        return None
    if policy == "first_fit":
        return _first_free(busy, node_free, size, node_gpus)
    if size < node_gpus:
        fits = np.flatnonzero(node_free >= size)
        if fits.size:
            n = fits[np.argmin(node_free[fits])]
            return np.flatnonzero(~busy[n * node_gpus:(n + 1) * node_gpus])[:size] + n * node_gpus
        return _first_free(busy, node_free, size, node_gpus)
    whole = np.flatnonzero(node_free == node_gpus)
    need = math.ceil(size / node_gpus)
    if whole.size >= need:
        return (whole[:need, None] * node_gpus + np.arange(node_gpus)).ravel()[:size]
    return _first_free(busy, node_free, size, node_gpus)


def fragmentation_trace(gpus: int, node_gpus: int, sizes, load: float, jobs: int,
                        policy: str, rng: np.random.Generator) -> dict:
    """Replay a seeded trace: Poisson arrivals, exponential holding times (mean 1), sizes drawn
    uniformly from `sizes`; a job that does not fit is turned away. Bounded: `jobs` arrivals.

    `load` is the offered load: arrival rate × mean size × mean holding time / GPUs.
    Records, after every arrival: free GPUs and free GPUs in wholly free nodes
    (the rest are stranded: a tensor group of a node's size placed there spans nodes).
    """
    if jobs > MAX_TRACE_JOBS:
        raise ValueError(f"at most {MAX_TRACE_JOBS:,} arrivals")
    sizes = np.asarray(sizes, dtype=int)
    if load == 0:  # no other tenants: an empty cluster, nothing arrives (an arrival rate of 0 has no gaps to draw)
        return {"time": [], "free": [], "free_whole_nodes": [], "turned_away": 0,
                "busy": np.zeros(gpus, dtype=bool)}
    rate = load * gpus / sizes.mean()
    arrivals = np.cumsum(rng.exponential(1.0 / rate, jobs))
    holds = rng.exponential(1.0, jobs)
    picks = rng.choice(sizes, jobs)
    busy = np.zeros(gpus, dtype=bool)
    nodes = gpus // node_gpus
    node_free = np.full(nodes, node_gpus, dtype=np.int64)
    running: list[tuple[float, int, np.ndarray]] = []  # a heap of (end, arrival index, GPUs): soonest end first
    rec = {"time": [], "free": [], "free_whole_nodes": [], "turned_away": 0}
    for i in range(jobs):
        now = arrivals[i]
        while running and running[0][0] <= now:  # who leaves first does not matter: freeing is a set union
            _, _, g = heapq.heappop(running)
            busy[g] = False
            node_free += np.bincount(g // node_gpus, minlength=nodes)
        g = _allocate(busy, node_free, int(picks[i]), node_gpus, policy)
        if g is None:
            rec["turned_away"] += 1
        else:
            busy[g] = True
            node_free -= np.bincount(g // node_gpus, minlength=nodes)
            heapq.heappush(running, (now + holds[i], i, g))
        rec["time"].append(float(now))
        rec["free"].append(int(node_free.sum()))
        rec["free_whole_nodes"].append(int(np.count_nonzero(node_free == node_gpus) * node_gpus))
    rec["busy"] = busy
    return rec


def seeded_trace(gpus: int, node_gpus: int, sizes, load: float, jobs: int, policy: str, seed: int) -> dict:
    """fragmentation_trace on a fresh generator seeded `seed`, remembered in this process: the Explore
    panel runs the model once per stop of a slider no trace depends on, and the traces are most of a
    run. The caller gets its own copy (nothing it changes reaches the next caller)."""
    trace = _seeded_trace(int(gpus), int(node_gpus), tuple(int(s) for s in sizes), float(load), int(jobs),
                          str(policy), int(seed))
    # a deep copy: the lists hold only numbers, so copying each list copies everything a caller could change
    # (copy.deepcopy walks the 3 × 3,000 numbers one by one, a tenth of a second per Explore stop)
    return {k: v.copy() if isinstance(v, (list, np.ndarray)) else v for k, v in trace.items()}


@functools.lru_cache(maxsize=64)
def _seeded_trace(gpus, node_gpus, sizes, load, jobs, policy, seed) -> dict:
    return fragmentation_trace(gpus, node_gpus, list(sizes), load, jobs, policy, np.random.default_rng(seed))


# ---------------------------------------------------------------------------
# the scene's steps
# ---------------------------------------------------------------------------


@dataclass(frozen=True)
class Job:
    """The scenario job on its cluster: what every step time of a placement needs."""

    tp: int
    pp: int
    dp: int
    order: tuple[str, ...]
    hier: tuple[int, int, int]
    traffic: dict
    rates: np.ndarray
    alphas: np.ndarray
    oversubscription: float
    measured_step: float  # the packed step at this microbatch size: the measured one at b₀ (one_f_one_b_step)
    microbatches: int
    tokens: int
    backward_slot: float | None = None
    measured_at: float = 0.0  # the measured step, taken at microbatch size b₀
    measured_micro_batch: int = 1  # b₀

    @property
    def ranks(self) -> int:
        return self.tp * self.pp * self.dp

    def step(self, gpu_of_rank, reference_gpu_of_rank) -> dict:
        """step_time of a placement against a reference placement."""
        return step_time(gpu_of_rank, reference_gpu_of_rank, self.tp, self.pp, self.dp, self.traffic, self.hier,
                         self.rates, self.alphas, self.oversubscription, self.measured_step, self.order,
                         self.backward_slot)


def check_layout(tp: int, node_gpus: int, rack_gpus: int, pod_gpus: int, sequences_per_dp_rank: int,
                 micro_batch: int, name: str = "micro_batch") -> None:
    """ParamError unless pods hold whole racks of whole nodes, a tensor group divides a node and the
    microbatch divides a data-parallel rank's sequences."""
    if rack_gpus % node_gpus or pod_gpus % rack_gpus:
        raise ParamError("pod_gpus", pod_gpus, "a whole number of racks, each a whole number of nodes")
    if node_gpus % tp:
        raise ParamError("tp", tp, f"a divisor of the {node_gpus} GPUs of a node")
    if sequences_per_dp_rank % micro_batch:
        raise ParamError(name, micro_batch, "a divisor of the sequences per data-parallel rank")


def the_other_tenants(gpus: int, node_gpus: int, sizes: list[int], background_load: float, trace_jobs: int,
                      seed: int, ranks: int) -> dict:
    """The cluster the job meets: a first-fit trace of other tenants (seed + 1), which must leave the
    job's ranks free."""
    background = seeded_trace(gpus, node_gpus, sizes, background_load, trace_jobs, "first_fit", seed + 1)
    free = np.flatnonzero(~background["busy"])
    if free.size < ranks:
        raise ParamError("background_load", background_load, f"low enough to leave the job's {ranks} GPUs "
                         f"free ({free.size} are)")
    return background


def whole_node_gpus(busy: np.ndarray, node_gpus: int) -> int:
    """Free GPUs in wholly free nodes."""
    return int((~busy).reshape(-1, node_gpus).all(axis=1).sum() * node_gpus)


def compare_placements(job: Job, free: np.ndarray, node_gpus: int, pod_gpus: int,
                       rng: np.random.Generator) -> tuple[dict, np.ndarray]:
    """The job placed each of PLACEMENTS ways on the free GPUs: step times against topology-aware, the
    share of bytes off NVLink, switches per byte, bytes per level, split tensor groups. Returns the
    results and the reference placement."""
    placed = {k: place(k, free, job.ranks, node_gpus, pod_gpus, rng) for k in PLACEMENTS}
    ref = placed["topology_aware"]
    res = {k: job.step(placed[k], ref) for k in PLACEMENTS}
    for k in PLACEMENTS:
        res[k]["off_domain"] = off_domain_share(res[k]["levels"], job.traffic)
        res[k]["switch_hops"] = mean_switch_hops(res[k]["levels"], job.traffic)
        res[k]["level_bytes"] = level_bytes(res[k]["levels"], job.traffic)
        res[k]["tp_split"] = float(np.mean(res[k]["levels"]["tensor"].max(axis=1) > 0))
        res[k]["tp_channels"] = worst_tensor_channels(placed[k], job)
        res[k]["gpu_of_rank"] = placed[k]
    return res, ref


def nvl72_alternative(job: Job, nvl72_gpus: int, pod_gpus: int) -> dict:
    """The NVL72 alternative: domains of 72, the job packed in either rank order; the share of bytes
    leaving NVLink with such domains and with the job's nodes, per order; with the claims on them."""
    llama, megatron = ("tensor", "pipeline", "data"), ("tensor", "data", "pipeline")
    order = job.order
    other = megatron if order == llama else llama
    packed = {o: group_gpus(np.arange(job.ranks), job.tp, job.pp, job.dp, o) for o in (order, other)}
    nvl_off = {o: off_domain_share(dimension_levels(packed[o], (nvl72_gpus, nvl72_gpus, pod_gpus)), job.traffic)
               for o in (order, other)}
    node_off = {o: off_domain_share(dimension_levels(packed[o], job.hier), job.traffic) for o in (order, other)}
    nvl_best = min(nvl_off, key=nvl_off.get)
    check(nvl_off[nvl_best] < min(node_off.values()),
          "a 72-GPU domain keeps more of the bytes on NVLink than an 8-GPU node")
    check(nvl_off[order] > 0.8 * node_off[order],
          "in this rank order a 72-GPU domain barely changes the share that leaves NVLink")
    check(nvl_off[other] < 0.5 * node_off[other],
          "in the other order a 72-GPU domain keeps most of the data-parallel ring on NVLink")
    return {"nvl_off": nvl_off, "node_off": node_off, "other": other}


def one_split_group(job: Job, ref: np.ndarray, first_fit: dict) -> dict:
    """One split tensor group: one GPU of the first group swapped with one of the next; it costs what
    first-fit's many split groups cost, within the network latencies of the further nodes first-fit's worst
    group may span (each adds two of its ring's steps at the network's alpha)."""
    one = ref.copy()
    one[[job.tp - 1, job.tp]] = one[[job.tp, job.tp - 1]]
    r_one = job.step(one, ref)
    check(abs(r_one["comm"]["tensor"] - first_fit["comm"]["tensor"]) <= 0.01 * first_fit["comm"]["tensor"],
          "one split tensor group is enough: the synchronous job waits for its slowest group")
    check(first_fit["tp_channels"] == 1, "first-fit's most lopsided tensor group runs on one port, as the swapped one")
    check(first_fit["step"] >= r_one["step"] - 1e-12 * r_one["step"],
          "first-fit's many split groups cost no less than the one swapped pair")
    return r_one


def nvls_tree_floor(job: Job, channels: int) -> float:
    """Least time of one tensor all-reduce for a group whose sparsest node holds `channels` of its GPUs,
    whatever the algorithm (NCCL's NVLS_TREE included): that node's ports carry the message out once and
    the sum back in, n/(k·B), and never less than the ring inside one node (the packed reference)."""
    n = job.traffic["message"]["tensor"]
    t_node = float(ring_time(n, job.tp, job.rates[0], job.alphas[0]))
    return max(n / ring_rate(1, channels, job.rates), t_node)


def nvls_floor_step(job: Job, r: dict, channels: int) -> float:
    """The least step a placement could take if NCCL ran its worst tensor group as NVLS_TREE: its tensor
    all-reduces at nvls_tree_floor. A group with a single GPU in some node keeps the ring (NVLS needs two
    channels, one per GPU of the node: NCCL's search.cc and tuning.cc), so its step stays."""
    if channels < 2 or channels >= job.tp:
        return r["step"]
    return r["step"] - r["comm"]["tensor"] + job.traffic["count"]["tensor"] * nvls_tree_floor(job, channels)


def worst_tensor_channels(gpu_of_rank, job: Job) -> int:
    """The fewest network channels any tensor group's ring gets: the most lopsided split sets the step
    (a group inside one node counts its size)."""
    groups = group_gpus(gpu_of_rank, job.tp, job.pp, job.dp, job.order)["tensor"]
    return int(ring_channels(groups, job.hier[0]).min())


def first_fit_backgrounds(job: Job, gpus: int, node_gpus: int, pod_gpus: int, sizes: list[int],
                          background_load: float, trace_jobs: int, seed: int,
                          other_seeds: int) -> tuple[list[dict], list[tuple[np.ndarray, np.ndarray]]]:
    """How first-fit moves with the other tenants: the job placed first-fit on more seeded backgrounds
    (those that leave it room), with the claims on them. Returns the runs and, per run, the whole-node
    and topology-aware placements (stagger_sweep re-times them under other schedules)."""
    sweep, pairs = [], []
    for k in range(int(other_seeds)):
        bg = seeded_trace(gpus, node_gpus, sizes, background_load, trace_jobs, "first_fit", seed + 10 + k)
        fr = np.flatnonzero(~bg["busy"])
        if fr.size < job.ranks:
            continue
        ff = place_first_fit(fr, job.ranks)
        ref = place_topology_aware(fr, job.ranks, node_gpus, pod_gpus)
        r_ff = job.step(ff, ref)
        split = float(np.mean(r_ff["levels"]["tensor"].max(axis=1) > 0))
        partial = int(fr.size - whole_node_gpus(bg["busy"], node_gpus))
        channels = worst_tensor_channels(ff, job)
        # whole nodes in a random order of their own on the same background: how far the
        # whole-node penalty moves with the tenants and the node order (the headline is one draw)
        wn = place_whole_nodes(fr, job.ranks, node_gpus, np.random.default_rng(seed + 10 + k))
        r_wn, r_ref = job.step(wn, ref), job.step(ref, ref)
        pairs.append((wn, ref))
        sweep.append({"seed": seed + 10 + k, "step": r_ff["step"], "tp_split": split, "partial_node_free": partial,
                      "tp_channels": channels, "nvls_floor_step": nvls_floor_step(job, r_ff, channels),
                      "whole_node_step": r_wn["step"],
                      "whole_node_extra_data": r_wn["comm"]["data"] - r_ref["comm"]["data"],
                      "whole_node_comm_data": r_wn["comm"]["data"], "whole_node_data_alone": r_wn["data_alone"],
                      "whole_node_stage_work": r_wn["data_together"] / job.pp})
    if not sweep:
        raise ParamError("background_load", background_load, "low enough that some background leaves the job room")
    check(all(r["step"] >= job.measured_step - 1e-9 for r in sweep), "first-fit is never faster than topology-aware")
    by_channels: dict[int, list[float]] = {}
    for r in sweep:
        by_channels.setdefault(r["tp_channels"], []).append(r["step"])
    check(all(max(s) - min(s) <= 0.05 * min(s) for s in by_channels.values()),
          "first-fit's step depends on the other tenants only through its most lopsided tensor group's channels")
    worst_first = [max(by_channels[c]) for c in sorted(by_channels)]
    check(all(a > b for a, b in zip(worst_first, worst_first[1:])),
          "the fewer channels the worst-split tensor group gets, the longer first-fit's step")
    return sweep, pairs


def placement_claims(job: Job, res: dict, ref: np.ndarray) -> None:
    """What the three placements show: the bytes per dimension, the order of step times, where the
    extra time comes from, and how far random placement scatters the bytes."""
    traffic, oversubscription = job.traffic, job.oversubscription
    rnd, ff, ta = res["random"], res["first_fit"], res["topology_aware"]
    check(traffic["tensor"] > traffic["data"] > traffic["pipeline"],
          "tensor parallelism moves the most bytes per GPU, then data, then pipeline")
    check(ta["step"] <= ff["step"] <= rnd["step"], "topology-aware ≤ first-fit ≤ random in step time")
    check(ta["tp_split"] == 0.0, "topology-aware placement keeps every tensor group inside one node")
    check(ff["tp_split"] > 0.5, "first-fit: most later tensor groups start off a node boundary")
    check((ff["comm"]["tensor"] - ta["comm"]["tensor"]) > 0.9 * (ff["step"] - ta["step"]),
          "nearly all of first-fit's extra step time comes from split tensor groups")
    wn = res["whole_node"]
    check(abs(ff["comm"]["data"] - ta["comm"]["data"]) <= 0.05 * ta["comm"]["data"],
          "first-fit's data-parallel rings stay where topology-aware's are: its extra is all tensor")
    check(wn["tp_split"] == 0.0 and wn["comm"]["tensor"] == ta["comm"]["tensor"],
          "whole nodes keep every tensor group inside one node, as topology-aware does")
    check(ta["step"] < wn["step"] < ff["step"], "topology-aware < whole nodes blind < first-fit single GPUs")
    check(wn["comm"]["data"] > ta["comm"]["data"] and wn["comm"]["pipeline"] > ta["comm"]["pipeline"],
          "topology-blind whole nodes pay only where data and pipeline traffic crosses pods")
    ref_groups = group_gpus(ref, job.tp, job.pp, job.dp, job.order)
    ref_load = cross_pod_load(ref_groups, dimension_channels(ref_groups, job.hier[0]), job.hier)
    check(ref_load["data"] * oversubscription < 1.0,
          "Llama 3's order: data-parallel rings leave a pod far below what the uplinks carry")
    check(rnd["tp_split"] > 0.99, "random placement splits almost every tensor group")
    check(rnd["off_domain"] > 0.9, "random placement sends almost all its bytes off NVLink")
    check(rnd["level_bytes"][3] > 0.5 * rnd["level_bytes"].sum(), "random placement: most bytes cross pods")
    check(ta["off_domain"] < 0.5 * ff["off_domain"], "topology-aware halves first-fit's off-NVLink share or better")
    check(ta["switch_hops"] < ff["switch_hops"] < rnd["switch_hops"],
          "fewer switch hops is the same thing as more bytes on NVLink and in the rack")
    check(rnd["comm"]["tensor"] > rnd["comm"]["data"], "sprinkled, the tensor all-reduces dominate the step")


def stranded_gpus(traces: dict, trace_jobs: int) -> dict[str, np.ndarray]:
    """Free GPUs in part-used nodes after every arrival past the warm-up, per scheduler; with the claims
    comparing the two."""
    tr_ff, tr_ta = traces["first_fit"], traces["topology_aware"]
    half = trace_jobs // 2  # after warm-up
    stranded = {k: np.array(t["free"][half:]) - np.array(t["free_whole_nodes"][half:]) for k, t in traces.items()}
    check(np.array_equal(tr_ff["free"], tr_ta["free"]) and tr_ff["turned_away"] == tr_ta["turned_away"] == 0,
          "both schedulers see the same jobs and turn none away, so their free GPUs match step for step")
    check(stranded["topology_aware"].mean() < 0.5 * stranded["first_fit"].mean(),
          "best-fit strands fewer than half as many free GPUs in part-used nodes as first-fit")
    return stranded


def background_draws(job: Job, res: dict, sweep: list[dict]) -> list[dict]:
    """Every background the job met: this page's (seed + 1) first, then the sweep's; each with its
    first-fit and whole-node steps, the whole-node data-parallel penalty and one stage's uplink work."""
    wn, ta = res["whole_node"], res["topology_aware"]
    here = {"step": res["first_fit"]["step"], "whole_node_step": wn["step"],
            "whole_node_extra_data": wn["comm"]["data"] - ta["comm"]["data"],
            "whole_node_stage_work": wn["data_together"] / job.pp}
    return [here, *sweep]


def whole_node_sweep_summary(job: Job, draws: list[dict]) -> dict:
    """Whole nodes topology-blind over every background (background_draws): the median and extremes of
    the step, its throughput and the data-parallel penalty, how many backgrounds queued the reductions
    at all, and first-fit's median step. The headline is the median: one background is one draw."""
    steps = np.array([r["whole_node_step"] for r in draws])
    extra = np.array([r["whole_node_extra_data"] for r in draws])
    work = np.array([r["whole_node_stage_work"] for r in draws])
    median = float(np.median(steps))
    return {"sweep_wn_draws": len(draws),
            "sweep_wn_step_min": float(steps.min()), "sweep_wn_step_median": median,
            "sweep_wn_step_max": float(steps.max()),
            "sweep_wn_throughput_median": job.measured_step / median,
            "sweep_wn_throughput_min": job.measured_step / float(steps.max()),
            "sweep_wn_throughput_max": job.measured_step / float(steps.min()),
            "sweep_wn_extra_median": _exact_zero(median - job.measured_step, job.measured_step),
            "sweep_wn_extra_data_min": float(extra.min()), "sweep_wn_extra_data_median": float(np.median(extra)),
            "sweep_wn_extra_data_max": float(extra.max()),
            "sweep_wn_stage_work_min": float(work.min()), "sweep_wn_stage_work_max": float(work.max()),
            "sweep_wn_queued_runs": int(np.sum(extra > 1e-6)),
            "sweep_ff_step_median": float(np.median([r["step"] for r in draws])),
            "sweep_ff_throughput_median": job.measured_step / float(np.median([r["step"] for r in draws]))}


def _exact_zero(extra: float, step: float) -> float:
    """A penalty that is rounding only (the same times subtracted in another order) reads 0: where the
    uplinks never bind, whole nodes and topology-aware take the same data-parallel time."""
    return 0.0 if abs(extra) < 1e-12 * step else extra


def stagger_sweep(job: Job, pairs: list[tuple[np.ndarray, np.ndarray]], sequences_per_dp_rank: int,
                  traffic_for) -> list[dict]:
    """The whole-node penalty under other 1F1B staggers: every microbatch size b that divides a
    data-parallel rank's S sequences gives m = S/b microbatches; the packed step is 1F1B's m + p − 1 slots
    of b sequences at the measured run's compute per sequence (one_f_one_b_step), so the backward slot is
    b·⅔·T/(S + b₀(p − 1)) and the bubble (p − 1)/(m + p − 1). The stages' reductions start a slot apart.
    Per b, the median and range over the backgrounds (`pairs`: whole-node and topology-aware placements)
    of the penalty over the packed step, and the median penalty with every stage's reduction at once (no
    stagger). Penalties, not steps: the measured step holds only at b₀. `traffic_for(b, m)` is the job's
    traffic at that microbatch size."""
    rows = []
    for b in (b for b in range(1, sequences_per_dp_rank + 1) if sequences_per_dp_rank % b == 0):
        m = sequences_per_dp_rank // b
        # the measured step is the b₀ run's; at another b the packed step is 1F1B's (m + p − 1) slots of b
        # sequences, not the measured one (one_f_one_b_step), and the slot grows with b
        packed = one_f_one_b_step(job.measured_at, sequences_per_dp_rank, job.measured_micro_batch, b, job.pp)
        jb = dataclasses.replace(job, traffic=traffic_for(b, m), microbatches=m, measured_step=packed,
                                 backward_slot=backward_slot(packed, m, job.pp))
        runs = [jb.step(wn, ref) for wn, ref in pairs]
        extra = [_exact_zero(r["step"] - packed, packed) for r in runs]
        rows.append({"micro_batch": b, "microbatches": m, "slot": jb.backward_slot, "packed_step": packed,
                     "bubble": (job.pp - 1) / (m + job.pp - 1),
                     "extra": float(np.median(extra)), "extra_min": min(extra), "extra_max": max(extra),
                     "together_extra": _exact_zero(float(np.median([r["step_together"] for r in runs])) - packed,
                                                   packed),
                     "extra_data": float(np.median([r["comm"]["data"] - r["comm_reference"]["data"] for r in runs]))})
    return rows


def stagger_summary(job: Job, stagger: list[dict]) -> dict:
    """The stagger's part in the whole-node penalty: at the page's microbatch size against every stage's
    reduction at once, at the largest microbatch (the longest slot), and at the smallest one whose
    reductions no longer queue, with the bubble that costs; with the claims on them."""
    here = next(r for r in stagger if r["microbatches"] == job.microbatches)
    widest = stagger[-1]
    check(all(r["together_extra"] > r["extra"] for r in stagger),
          "every stagger costs less than the stages' reductions all at once")
    check(here["together_extra"] > 3 * here["extra"],
          "the 1F1B stagger cuts the whole-node penalty to a fraction of the all-at-once one")
    check(widest["extra"] < here["extra"], "a longer backward slot spreads the reductions further")
    check(widest["extra_data"] < 0.01 * here["extra_data"],
          "at the longest slot the stages' reductions no longer queue on the uplinks")
    # the shortest slot at which the reductions stop queueing: the page's way out, and what it costs
    free = next((r for r in stagger if r["extra_data"] < 0.01 * here["extra_data"]), widest)
    check(free["packed_step"] - here["packed_step"] > here["extra"] - free["extra"],
          "a microbatch large enough to stop the queueing grows the 1F1B bubble by more than it saves")
    return {"stagger_extra": here["extra"], "stagger_together_extra": here["together_extra"],
            "stagger_together_step": here["packed_step"] + here["together_extra"], "stagger_bubble": here["bubble"],
            "stagger_widest_micro_batch": widest["micro_batch"], "stagger_widest_slot": widest["slot"],
            "stagger_widest_extra": widest["extra"], "stagger_widest_extra_data": widest["extra_data"],
            "stagger_free_micro_batch": free["micro_batch"], "stagger_free_slot": free["slot"],
            "stagger_free_extra": free["extra"], "stagger_free_packed_step": free["packed_step"],
            "stagger_free_bubble": free["bubble"]}


def scene_summary(job: Job, gpus: int, free: np.ndarray, whole_free: int, res: dict, nvl: dict,
                  stranded: dict, r_one: dict, sweep: list[dict], draws: list[dict], stagger: list[dict]) -> dict:
    """The page's numbers: the job's traffic and rates, the cluster it met, the NVL72 alternative,
    the fragmentation, and each placement's step, throughput and traffic."""
    traffic, rates = job.traffic, job.rates
    total = traffic["tensor"] + traffic["pipeline"] + traffic["data"]
    nvl_off, node_off, order, other = nvl["nvl_off"], nvl["node_off"], job.order, nvl["other"]
    summary = {
        "ranks": job.ranks, "gpus": gpus,
        "hops_rack": SWITCH_HOPS[1], "hops_pod": SWITCH_HOPS[2], "hops_cluster": SWITCH_HOPS[3],
        "microbatches": job.microbatches, "layers_per_stage": traffic["layers_per_stage"],
        "tokens_per_step": job.tokens, "measured_step": job.measured_at, "packed_step": job.measured_step,
        "bubble": (job.pp - 1) / (job.microbatches + job.pp - 1),
        "bytes_tensor": traffic["tensor"], "bytes_pipeline": traffic["pipeline"], "bytes_data": traffic["data"],
        "msg_tensor": traffic["message"]["tensor"], "msg_pipeline": traffic["message"]["pipeline"],
        "msg_data": traffic["message"]["data"],
        "count_tensor": traffic["count"]["tensor"], "count_pipeline": traffic["count"]["pipeline"],
        "share_tensor": traffic["tensor"] / total,
        "nvlink_rate": rates[0], "port_rate": rates[1], "cross_pod_rate": rates[3],
        "nvlink_over_port": rates[0] / rates[1],
        "free_gpus": int(free.size),
        "busy_gpus": gpus - int(free.size), "partial_node_free": int(free.size) - whole_free,
        "nvl72_off_domain": nvl_off[order], "nvl72_off_domain_other_order": nvl_off[other],
        "node_off_domain": node_off[order], "other_order": "-".join(other),
        "stranded_first_fit": float(stranded["first_fit"].mean()),
        "stranded_topology_aware": float(stranded["topology_aware"].mean()),
        "stranded_first_fit_max": int(stranded["first_fit"].max()),
        "one_split_step": r_one["step"],
        "backward_slot": job.backward_slot,
        "whole_node_data_together": res["whole_node"]["data_together"],
        "whole_node_data_alone": res["whole_node"]["data_alone"],
        "whole_node_step_together": res["whole_node"]["step_together"],
        "whole_node_data_queue": saturated_queue_time(res["whole_node"]["data_alone"],
                                                      res["whole_node"]["data_together"], job.pp, job.backward_slot),
        "whole_node_uplink_demand": res["whole_node"]["data_uplink_demand"],
        "whole_node_stage_demand": res["whole_node"]["data_uplink_demand"] / job.pp,
        "whole_node_full_rate_stages": full_rate_stages(res["whole_node"]["data_uplink_demand"], job.pp),
        "whole_node_alone_slots": res["whole_node"]["data_alone"] / job.backward_slot,
        "random_data_together": res["random"]["data_together"],
        "whole_node_throughput_together": job.measured_step / res["whole_node"]["step_together"],
        "whole_node_extra": res["whole_node"]["step"] - job.measured_step,
        "whole_node_extra_data": res["whole_node"]["comm"]["data"] - res["topology_aware"]["comm"]["data"],
        "whole_node_extra_pipeline": (res["whole_node"]["comm"]["pipeline"]
                                      - res["topology_aware"]["comm"]["pipeline"]),
        "first_fit_extra": res["first_fit"]["step"] - job.measured_step,
        "sweep_runs": len(sweep), "sweep_ff_step_min": min(r["step"] for r in sweep),
        "sweep_ff_step_max": max(r["step"] for r in sweep),
        "sweep_ff_split_runs": sum(r["tp_split"] > 0.5 for r in sweep),
        "sweep_ff_one_channel_runs": sum(r["tp_channels"] == 1 for r in sweep),
        "sweep_ff_one_channel_share": sum(r["tp_channels"] == 1 for r in sweep) / len(sweep),
        # one-port runs differ only in how many nodes their worst group spans (network latencies)
        "sweep_ff_one_channel_min": min((r["step"] for r in sweep if r["tp_channels"] == 1), default=0.0),
        "sweep_ff_one_channel_max": max((r["step"] for r in sweep if r["tp_channels"] == 1), default=0.0),
        "first_fit_over_one_split": res["first_fit"]["step"] - r_one["step"],
        **whole_node_sweep_summary(job, draws),
        **stagger_summary(job, stagger),
    }
    for k, r in res.items():
        summary.update({f"{k}_step": r["step"], f"{k}_throughput": r["throughput"],
                        f"{k}_off_domain": r["off_domain"], f"{k}_switch_hops": r["switch_hops"],
                        f"{k}_tp_split": r["tp_split"], f"{k}_tp_channels": r["tp_channels"],
                        **{f"{k}_comm_{d}": r["comm"][d] for d in DIMENSIONS}})
    return summary


def split_tensor_times(job: Job) -> list[dict]:
    """One tensor all-reduce with its group split k / (t−k) over two neighbouring nodes, k = 1 … t/2:
    min(k, t−k) channels of one port each (ring_channels, ring_rate), the 2(2 − 1) steps between the
    nodes at the network's latency and the rest at NVLink's (group_ring_time, as dimension_times)."""
    node_gpus, tp, msg = job.hier[0], job.tp, job.traffic["message"]["tensor"]
    level = int(hop_levels(0, node_gpus, *job.hier))
    out = []
    for k in range(1, tp // 2 + 1):
        group = np.concatenate([np.arange(k), node_gpus + np.arange(tp - k)])
        channels = int(ring_channels(group[None, :], node_gpus)[0])
        rate = ring_rate(level, channels, job.rates)
        steps = ring_step_levels(group[None, :], job.hier)[0]
        out.append({"near": k, "far": tp - k, "channels": channels, "rate": rate,
                    "steps": int(steps.sum()), "inter_steps": int(steps[1:].sum()),
                    "time": group_ring_time(msg, group, job.hier, job.rates, job.alphas)})
    return out


def worked_problems(job: Job) -> dict:
    """1) a tensor group split over two nodes: its all-reduces run on min(k, t−k) ports; 2) the whole
    data-parallel reduction across pods instead of inside one."""
    traffic, rates, alphas = job.traffic, job.rates, job.alphas
    t_in = float(ring_time(traffic["message"]["tensor"], job.tp, rates[0], alphas[0]))
    splits = split_tensor_times(job)
    t_out, even = splits[0]["time"], splits[-1]
    check(all(a["time"] > b["time"] for a, b in zip(splits, splits[1:])),
          "the more evenly a tensor group splits, the more ports its ring runs on")
    # one data-parallel rank has no reduction to run: it costs nothing inside a pod or across pods
    t_dp_pod, t_dp_x = ((float(ring_time(traffic["message"]["data"], job.dp, rates[lv], alphas[lv])) for lv in (2, 3))
                        if job.dp > 1 else (0.0, 0.0))
    check(t_out > 5 * t_in, "a tensor group split 1 + (t−1) is several times slower per all-reduce")
    check(even["time"] > t_in, "even split evenly, a tensor group is slower than inside one node")
    # a GPU alone in its node reaches the other t-1 only through its port: whatever the algorithm, its
    # message goes out and the sum comes back in, n bytes each way at the port rate
    lone_floor = traffic["message"]["tensor"] / splits[0]["rate"]
    even_floor = nvls_tree_floor(job, even["channels"])
    check(t_in < even_floor < even["time"], "NVLS_TREE could beat the even split's ring, not the node's")
    check(splits[0]["channels"] == 1 and t_out > lone_floor, "the 1 + (t-1) ring is slower than one port's floor")
    return {
        "split_tensor": {"in_node": t_in, "split": t_out, "ratio": t_out / t_in,
                         "steps": splits[0]["steps"], "inter_steps": splits[0]["inter_steps"],
                         "lone_port_floor": lone_floor, "lone_port_ratio": t_out / lone_floor,
                         "per_step_extra": (t_out - t_in) * traffic["count"]["tensor"],
                         "even_near": even["near"], "even_channels": even["channels"], "even_rate": even["rate"],
                         "even_split": even["time"], "even_ratio": even["time"] / t_in,
                         "even_per_step_extra": (even["time"] - t_in) * traffic["count"]["tensor"],
                         "even_nvls_floor": even_floor, "even_nvls_ratio": even_floor / t_in,
                         "even_nvls_per_step_extra": (even_floor - t_in) * traffic["count"]["tensor"],
                         "splits": splits},
        "data_across_pods": {"in_pod": t_dp_pod, "across": t_dp_x, "extra": t_dp_x - t_dp_pod},
    }


def scene_series(traces: dict, trace_jobs: int, res: dict) -> dict:
    """Fragmentation over the trace (about 400 points), and bytes per level for each placement."""
    tr_ff, tr_ta = traces["first_fit"], traces["topology_aware"]
    step = max(1, trace_jobs // 400)
    return {
        **curves("trace_arrival", np.arange(trace_jobs)[::step],
                 ff_free=np.array(tr_ff["free"])[::step], ff_whole=np.array(tr_ff["free_whole_nodes"])[::step],
                 ta_whole=np.array(tr_ta["free_whole_nodes"])[::step]),
        **curves("level", np.arange(len(LEVELS)),
                 **{f"{k}_bytes": res[k]["level_bytes"] for k in PLACEMENTS}),
    }


def animation_plan(job: Job, room_racks: int, rack_gpus: int, node_gpus: int, split_tensor: dict,
                   rng: np.random.Generator) -> dict:
    """One tensor group in a small room: sprinkled at random over `room_racks` racks, then packed."""
    room = room_racks * rack_gpus
    sprinkled = np.sort(rng.choice(room, size=job.tp, replace=False))
    levels = hop_levels(sprinkled, np.roll(sprinkled, -1), *job.hier)
    channels = int(ring_channels(sprinkled[None, :], node_gpus)[0])
    t_sprinkled = group_ring_time(job.traffic["message"]["tensor"], sprinkled, job.hier, job.rates, job.alphas)
    # first-fit single GPUs: the group starts on the last free GPU of the first node, 1 + (t-1) over two
    # nodes of one rack; its time is the worked problem's lone-GPU split
    first_fit = np.array([node_gpus - 1, *range(node_gpus, node_gpus + job.tp - 1)])
    ff_levels = hop_levels(first_fit, np.roll(first_fit, -1), *job.hier)
    check(int(ring_channels(first_fit[None, :], node_gpus)[0]) == split_tensor["splits"][0]["channels"] == 1,
          "the animation's first-fit group is the worked problem's 1 + (t-1) split")
    return {
        "racks": int(room_racks), "rack_gpus": rack_gpus, "node_gpus": node_gpus,
        "sprinkled": sprinkled.tolist(), "packed": list(range(job.tp)),
        "sprinkled_levels": levels.tolist(), "sprinkled_channels": channels,
        "first_fit": first_fit.tolist(), "first_fit_levels": ff_levels.tolist(),
        "tp_time_first_fit": split_tensor["split"],
        "ff_ratio": split_tensor["split"] / split_tensor["in_node"],
        "tp_time_split": t_sprinkled, "tp_time_node": split_tensor["in_node"],
        "tp_ratio": t_sprinkled / split_tensor["in_node"],
    }


PLACEMENT_NAMES = {"random": "random GPUs", "first_fit": "first-fit GPUs (worst case)",
                   "whole_node": "whole nodes, topology-blind", "topology_aware": "topology-aware"}


def placements_table(job: Job, res: dict) -> Table:
    rows = []
    for k in PLACEMENTS:
        r = res[k]
        rows.append([PLACEMENT_NAMES[k], r["comm"]["tensor"], r["comm"]["pipeline"], r["comm"]["data"],
                     r["off_domain"], r["switch_hops"], r["step"], r["throughput"]])
    return Table(
        f"The {job.ranks:,}-GPU job (TP {job.tp}, PP {job.pp}, DP {job.dp}) placed four ways on the free GPUs "
        "a trace left: communication per step by dimension, share of bytes leaving the NVLink domain, "
        "switches crossed per byte, step time and throughput relative to topology-aware",
        [Column("placement", "text"), Column("tensor", "s"), Column("pipeline", "s"), Column("data", "s"),
         Column("bytes off NVLink", "%"), Column("switches per byte", "1"), Column("step time", "s"),
         Column("relative throughput", "%")],
        rows,
    )


def scene_records(res: dict, sweep: list[dict]) -> dict:
    return {"first_fit_backgrounds": sweep,
            "placements": [{"key": k, "name": PLACEMENT_NAMES[k], "step": res[k]["step"],
                            "throughput": res[k]["throughput"], "off_domain": res[k]["off_domain"],
                            "level_bytes": res[k]["level_bytes"].tolist()} for k in PLACEMENTS]}


# ---------------------------------------------------------------------------
# the entry function
# ---------------------------------------------------------------------------


@model(
    # from 2: the scene is where a tensor group lands (in one node or split over two); a degree of 1 has no group
    tp=Param.integer("count", "tensor-parallel degree t", minimum=2),
    pp=Param.integer("count", "pipeline-parallel degree p"),
    dp=Param.integer("count", "data-parallel degree d"),
    cp=Param.integer("count", "context-parallel degree (this model takes 1)", minimum=1, maximum=1),
    seq=Param.integer("count", "sequence length s (tokens)"),
    sequences_per_dp_rank=Param.integer("count", "sequences per data-parallel rank per step"),
    micro_batch=Param.integer("count", "microbatch size b (sequences; sets the 1F1B slot)"),
    measured_micro_batch=Param.integer("count", "microbatch size b₀ of the measured run (an assumption)"),
    hidden=Param.integer("count", "model dimension h"),
    layers=Param.integer("count", "transformer layers"),
    params=Param.positive("count", "model parameters P"),
    act_bytes=Param.positive("B", "bytes per activation element (BF16)"),
    grad_bytes=Param.positive("B", "bytes per gradient element in the data-parallel reduction"),
    flops_per_gpu=Param.positive("FLOP/s", "measured throughput per GPU"),
    node_gpus=Param.integer("count", "GPUs per node (one NVLink domain)", minimum=2),
    rack_gpus=Param.integer("count", "GPUs per rack (one top-of-rack switch)", minimum=2),
    pod_gpus=Param.integer("count", "GPUs per full-bisection pod", minimum=2),
    pods=Param.integer("count", "pods in the cluster"),
    oversubscription=Param.number("1", "oversubscription of the layer between pods (x:1)", minimum=1),
    nvlink_bw=Param.positive("B/s", "NVLink bandwidth per GPU, bidirectional"),
    port_rate=Param.positive("B/s", "network port per GPU, per direction"),
    nvlink_latency=Param.positive("s", "NCCL per-step NVLink latency"),
    net_latency=Param.positive("s", "NCCL per-step network latency"),
    nvl72_gpus=Param.integer("count", "GPUs in one NVL72 NVLink domain (the alternative)", minimum=2),
    trace_sizes=Param.numbers("count", "job sizes in the trace (GPUs)", above=0),
    background_load=Param.fraction("offered load of the other tenants when the job arrives"),
    trace_load=Param.number("1", "offered load of the fragmentation trace", above=0.0, maximum=1.0),
    trace_jobs=Param.integer("count", "arrivals in the trace", minimum=10, maximum=MAX_TRACE_JOBS),
    rank_order=Param.text("parallel dimensions, innermost first",
                          choices=("tensor-pipeline-data", "tensor-data-pipeline")),
    seed=Param.integer("1", "random seed", minimum=0),
    other_seeds=Param.integer("count", "other background traces tried (how the result moves)", minimum=1,
                              maximum=20),
    room_racks=Param.integer("count", "racks drawn in the animation", minimum=2, maximum=12, animation=True),
)
def topology_packing(tp, pp, dp, cp, seq, sequences_per_dp_rank, micro_batch, measured_micro_batch, hidden,
                     layers, params,
                     act_bytes, grad_bytes, flops_per_gpu, node_gpus, rack_gpus, pod_gpus, pods,
                     oversubscription, nvlink_bw, port_rate, nvlink_latency, net_latency, nvl72_gpus,
                     trace_sizes, background_load, trace_load, trace_jobs, rank_order, seed, other_seeds=5,
                     room_racks=6) -> Exhibit:
    """topology-packing's data: the scenario job placed four ways on a cluster left fragmented by a
    seeded trace; bytes per dimension, the share leaving the NVLink domain, step times; and the
    fragmentation each scheduler leaves."""
    rng = np.random.default_rng(seed)
    tp, pp, dp, node_gpus, rack_gpus, pod_gpus = map(int, (tp, pp, dp, node_gpus, rack_gpus, pod_gpus))
    check_layout(tp, node_gpus, rack_gpus, pod_gpus, sequences_per_dp_rank, micro_batch)
    check_layout(tp, node_gpus, rack_gpus, pod_gpus, sequences_per_dp_rank, measured_micro_batch,
                 "measured_micro_batch")
    ranks = tp * pp * dp
    gpus = pod_gpus * int(pods)
    if ranks > gpus:
        raise ParamError("pods", pods, f"enough for the job's {ranks} GPUs")
    m = sequences_per_dp_rank // micro_batch
    tokens = dp * sequences_per_dp_rank * seq
    measured = training.step_time(params, tokens, ranks, flops_per_gpu, layers, hidden, seq)
    # the measured step is the b₀ run's; at another microbatch size the packed step is 1F1B's, bubble included
    packed = one_f_one_b_step(measured, int(sequences_per_dp_rank), int(measured_micro_batch), int(micro_batch), pp)
    job = Job(tp, pp, dp, tuple(rank_order.split("-")), (node_gpus, rack_gpus, pod_gpus),
              traffic_per_gpu(tp, pp, dp, micro_batch, seq, hidden, layers, m, params, act_bytes, grad_bytes),
              level_rates(per_direction(nvlink_bw), port_rate, oversubscription),
              np.array([nvlink_latency, net_latency, net_latency, net_latency]), oversubscription,
              packed, m, tokens, backward_slot(packed, m, pp), measured, int(measured_micro_batch))

    sizes = [int(s) for s in trace_sizes]
    background = the_other_tenants(gpus, node_gpus, sizes, background_load, trace_jobs, seed, ranks)
    free = np.flatnonzero(~background["busy"])
    # fragmentation: the same kind of trace, busier, under both schedulers
    traces = {pol: seeded_trace(gpus, node_gpus, sizes, trace_load, trace_jobs, pol, seed + 2)
              for pol in ("first_fit", "topology_aware")}

    res, ref = compare_placements(job, free, node_gpus, pod_gpus, rng)
    nvl = nvl72_alternative(job, nvl72_gpus, pod_gpus)
    r_one = one_split_group(job, ref, res["first_fit"])
    sweep, pairs = first_fit_backgrounds(job, gpus, node_gpus, pod_gpus, sizes, background_load, trace_jobs,
                                         seed, other_seeds)
    draws = background_draws(job, res, sweep)
    # the stagger drives the whole-node penalty: the same backgrounds under every microbatch size
    stagger = stagger_sweep(job, [(res["whole_node"]["gpu_of_rank"], ref), *pairs], int(sequences_per_dp_rank),
                            lambda b, mb: traffic_per_gpu(tp, pp, dp, b, seq, hidden, layers, mb, params,
                                                          act_bytes, grad_bytes))
    placement_claims(job, res, ref)
    stranded = stranded_gpus(traces, trace_jobs)
    problems = worked_problems(job)
    return Exhibit(
        summary=scene_summary(job, gpus, free, whole_node_gpus(background["busy"], node_gpus), res, nvl,
                              stranded, r_one, sweep, draws, stagger),
        series=scene_series(traces, trace_jobs, res),
        table=placements_table(job, res),
        animation=animation_plan(job, room_racks, rack_gpus, node_gpus, problems["split_tensor"], rng),
        problems=problems,
        records={**scene_records(res, sweep), "stagger": stagger},
    )


__all__ = [
    "LEVELS", "SWITCH_HOPS", "PLACEMENTS", "MAX_TRACE_JOBS",
    "level_bytes", "off_domain_share", "mean_switch_hops", "step_time",
    "place_random", "place_first_fit", "place_topology_aware", "place", "fragmentation_trace",
    "topology_packing",
]
