"""Scene ring-vs-tree: ring versus NCCL's double binary tree all-reduce, over message sizes.

The alpha-beta times, the crossover and nccl-tests' bus bandwidth are in models.lib.collectives
(its docstring derives them). This module holds what only this scene uses: the schedules the
animation draws (which chunk each rank sends at each ring step, NCCL's two binary trees) and the
entry function, a recipe of the sweep, the reference sizes, the scaling to the cluster, the
claims, the animation plan, the summary and the numbers table.

Pure numpy/stdlib, SI units: bytes, seconds, bytes per second.
"""

from __future__ import annotations

import math
from collections import Counter

import numpy as np

from models.exhibit import Column, Exhibit, Param, ParamError, Table, check, curves, model
from models.lib.collectives import (
    algbw,
    binomial_tree_time,
    busbw_all_gather,
    busbw_allreduce,
    busbw_reduce_scatter,
    check_ranks,
    crossover,
    crossover_between,
    crossover_continuous,
    crossover_unpipelined,
    nodes_spanned,
    ring_all_gather_time,
    ring_bandwidth_term,
    ring_bytes_sent_per_rank,
    ring_inter_node_steps,
    ring_latency_two_level,
    ring_phase_bytes_sent_per_rank,
    ring_phase_steps,
    ring_reduce_scatter_time,
    ring_steps,
    ring_time,
    ring_time_two_level,
    tree_best_chunks,
    tree_depth,
    tree_steps,
    tree_time,
    tree_time_two_level,
)
from models.lib.sweeps import including

# ---------------------------------------------------------------------------
# the schedules the animation draws
# ---------------------------------------------------------------------------


def ring_schedule(p: int) -> dict:
    """Which chunk every rank sends at every step of a ring all-reduce.

    Rank r sends to rank (r+1) mod p. Reduce-scatter step s: rank r sends chunk
    (r - s) mod p, which the receiver adds into its copy. All-gather step s: rank
    r sends chunk (r + 1 - s) mod p, which the receiver overwrites. After the
    reduce-scatter rank r holds the fully reduced chunk (r + 1) mod p.
    """
    check_ranks(p)
    rs = [[(r - s) % p for r in range(p)] for s in range(p - 1)]
    ag = [[(r + 1 - s) % p for r in range(p)] for s in range(p - 1)]
    return {"reduce_scatter": rs, "all_gather": ag,
            "owner_after_reduce_scatter": [(r + 1) % p for r in range(p)]}


def simulate_ring(inputs: np.ndarray, schedule: dict) -> list[np.ndarray]:
    """Run a ring schedule on integer vectors.

    inputs[r, c] is rank r's value for chunk c (any integer array of shape p x p
    or p x p x m). Returns the buffers after every step (the inputs first), so a
    caller can check each rank's state at any point.
    """
    buf = np.array(inputs, copy=True)
    p = buf.shape[0]
    states = [buf.copy()]
    for phase, combine in (("reduce_scatter", "add"), ("all_gather", "copy")):
        for sends in schedule[phase]:
            sent = [buf[r, sends[r]].copy() for r in range(p)]  # all sends are simultaneous
            for r in range(p):
                dst, c = (r + 1) % p, sends[r]
                buf[dst, c] = buf[dst, c] + sent[r] if combine == "add" else sent[r]
            states.append(buf.copy())
    return states


def ring_contributions(p: int) -> list[list[list[int]]]:
    """How many ranks' inputs are summed into each (rank, chunk) after each step.

    contributions[s][r][c]: step 0 is the start (all 1), steps 1..p-1 the
    reduce-scatter, p..2(p-1) the all-gather. Computed by simulating the
    schedule on one-hot inputs: rank r's input is the bit 2^r.
    """
    onehot = np.array([[1 << r] * p for r in range(p)], dtype=np.int64)
    return [[[int(bin(int(v)).count("1")) for v in row] for row in state]
            for state in simulate_ring(onehot, ring_schedule(p))]


def btree(p: int) -> list[int]:
    """Parents in NCCL's binary tree (src/graph/trees.cc, ncclGetBtree); root 0 has -1.

    Interior nodes sit at ranks with a high lowest set bit: the tree is in-order,
    so drawing rank r at x = r and depth on y gives the classic picture.
    """
    check_ranks(p)
    parent = [-1] * p
    for r in range(1, p):
        bit = 1
        while bit < p and not (bit & r):
            bit <<= 1
        up = (r ^ bit) | (bit << 1)
        if up >= p:
            up = r ^ bit
        parent[r] = up
    return parent


def double_binary_tree(p: int) -> tuple[list[int], list[int]]:
    """Parents in both trees of NCCL's double binary tree (ncclGetDtree).

    The second tree mirrors the first (rank r -> p-1-r) when p is even and shifts
    it by one rank when p is odd, so the leaves of one are the interior of the
    other (for odd p, rank 0 has one child in each tree): no rank has more than
    two children across both trees.
    """
    t0 = btree(p)
    if p % 2 == 0:
        t1 = [-1 if t0[p - 1 - r] == -1 else p - 1 - t0[p - 1 - r] for r in range(p)]
    else:
        t1 = [-1 if t0[(r - 1) % p] == -1 else (t0[(r - 1) % p] + 1) % p for r in range(p)]
    return t0, t1


def depths(parent: list[int]) -> list[int]:
    """Depth of every node given a parent list (root = 0)."""
    out = []
    for r in range(len(parent)):
        d, q = 0, r
        while parent[q] != -1:
            q, d = parent[q], d + 1
        out.append(d)
    return out


def double_tree_bytes_sent(n, p: int) -> list[float]:
    """Bytes each rank sends in a double-binary-tree all-reduce of n bytes, from the trees.

    Each tree carries n/2. Reduce: every non-root sends its n/2 to its parent in
    that tree. Broadcast: every rank sends n/2 to each child. A rank interior in
    one tree (two children) and a leaf in the other sends n/2 + n/2 + 2 * n/2 = 2n.
    """
    t0, t1 = double_binary_tree(p)
    half = float(n) / 2
    children = [Counter(t) for t in (t0, t1)]  # counted once: t.count(r) per rank made a 10^5-rank ring p^2
    return [sum(half * ((t[r] != -1) + c[r]) for t, c in zip((t0, t1), children, strict=True)) for r in range(p)]


# ---------------------------------------------------------------------------
# the entry function: a recipe
# ---------------------------------------------------------------------------


@model(
    ranks=Param.integer("count", "GPUs in the all-reduce, p (one network port each)", minimum=2,
                        maximum=100_000),
    link_bandwidth=Param.positive("B/s", "link bandwidth B, per direction"),
    step_latency=Param.positive("s", "latency per step, α"),
    min_message=Param.positive("B", "smallest message in the figure"),
    max_message=Param.positive("B", "largest message in the figure", maximum=1e13),
    points_per_decade=Param.integer("count", "points per decade in the figure", minimum=2, maximum=200),
    small_message=Param.positive("B", "the small message the page quotes"),
    large_message=Param.positive("B", "the large message the page quotes", maximum=1e13),
    animation_message=Param.positive("B", "the buffer the ring animation moves", animation=True),
    cluster_ranks=Param.integer("count", "GPUs in the cluster-wide all-reduce", minimum=4, maximum=100_000),
    cluster_gpus_per_node=Param.integer("count", "GPUs per node in the cluster (one network rank per node)",
                                        minimum=1, maximum=64),
    cluster_intra_node_latency=Param.positive("s", "latency per in-node (NVLink) step of the cluster's ring"),
    ll_step_latency=Param.positive("s", "the ring's latency per step with NCCL's LL protocol"),
    ll_tree_step_latency=Param.positive("s", "the tree's latency per step with NCCL's LL protocol"),
    base_latency=Param.number("s", "NCCL's base latency of one collective (Simple, ring and tree alike), left "
                              "out of the times and quoted beside them", minimum=0.0, maximum=1e-3),
    pat_base_latency=Param.number("s", "NCCL's base latency of a PAT collective", minimum=0.0, maximum=1e-3),
    pat_rank_latency=Param.number("s", "the latency NCCL's tuner charges PAT per rank", minimum=0.0,
                                  maximum=1e-4),
    pat_log_divisor=Param.positive("1", "the divisor of the network latency in PAT's per-log-step term"),
    pat_busbw_factor=Param.positive("1", "the factor NCCL's tuner scales PAT's bus bandwidth by", maximum=1.0),
)
def ring_vs_tree(
    ranks: int,
    link_bandwidth: float,
    step_latency: float,
    min_message: float = 1e3,
    max_message: float = 4e9,
    points_per_decade: int = 24,
    small_message: float = 64e3,
    large_message: float = 1e9,
    animation_message: float = 1e9,
    cluster_ranks: int = 16384,
    cluster_gpus_per_node: int = 8,
    cluster_intra_node_latency: float = 3.4e-6,
    ll_step_latency: float = 2.7e-6,
    ll_tree_step_latency: float = 5.0e-6,
    base_latency: float = 8.4e-6,
    pat_base_latency: float = 8.0e-6,
    pat_rank_latency: float = 2.8e-6,
    pat_log_divisor: float = 3.5,
    pat_busbw_factor: float = 0.75,
) -> Exhibit:
    """Ring versus double-binary-tree all-reduce over message sizes.

    ranks: p, GPUs in the all-reduce, one link each; link_bandwidth: B, per
    direction (B/s); step_latency: alpha (s); the message range of the sweep;
    a small and a large message for the prose; the message the animation
    moves; cluster_ranks: a large p for the scaling problem, and its GPUs per
    node and the latency of an in-node step (the problem's ring across nodes);
    ll_step_latency, ll_tree_step_latency: the ring's and the tree's alpha with
    NCCL's LL protocol, where the crossover moves with them; base_latency: NCCL's fixed latency per
    collective, the same for both algorithms, so it cannot move the crossover: the page quotes what it adds
    to the small message's times instead of adding it to every curve; pat_*: what NCCL's tuner
    charges PAT (its reduce-scatter and all-gather at one rank per node), set against the ring half.
    """
    p, B, a = int(ranks), float(link_bandwidth), float(step_latency)
    if not min_message < max_message:
        raise ParamError("max_message", max_message, f"more than min_message ({min_message:g} B)")
    if not small_message < large_message:
        raise ParamError("large_message", large_message, f"more than small_message ({small_message:g} B)")
    sizes = including(message_sizes(min_message, max_message, points_per_decade), small_message, large_message)
    t_ring, t_tree = ring_time(sizes, p, B, a), tree_time(sizes, p, B, a)
    crossings = crossovers(p, B, a)
    small, large = at_size(small_message, p, B, a), at_size(large_message, p, B, a)
    sent = {"ring": float(ring_bytes_sent_per_rank(large_message, p)),
            "tree": max(double_tree_bytes_sent(large_message, p))}
    cluster = cluster_scaling(int(cluster_ranks), p, B, a, large_message, int(cluster_gpus_per_node),
                              float(cluster_intra_node_latency))
    ll = ll_protocol(p, B, float(ll_step_latency), float(ll_tree_step_latency), small_message)
    halves = ring_halves(p, B, a, small_message, large_message)
    check_claims(t_ring, t_tree, crossings, small, large, sent, cluster, p, B, a,
                 small_message, large_message)
    check_halves(halves, small, large, sent)
    check(0 < ll["n_star"] < crossings["n_star"], "with LL's latencies the crossover falls")
    base = float(base_latency)
    # reduce-scatter and all-gather at one rank per node: the ring's p - 1 steps against PAT's logarithmic
    # count (NCCL 2.23+: a Bruck variant, ceil(log2 p) rounds), a textbook floor at this page's alpha,
    # then what NCCL's tuner charges each of the two
    half_steps, pat_steps = ring_phase_steps(p), (p - 1).bit_length()  # bit_length of p - 1 = ceil(log2 p)
    extra = {"half_steps": half_steps, "pat_steps": pat_steps,
             "half_latency_floor": half_steps * a, "pat_latency_floor": pat_steps * a,
             "base_latency": base,
             "base_share_ring_small": base / small["ring_time"], "base_share_tree_small": base / small["tree_time"],
             **pat_tuner(p, B, a, base, float(pat_base_latency), float(pat_rank_latency), float(pat_log_divisor),
                         float(pat_busbw_factor))}
    check(pat_steps <= half_steps, "PAT needs no more steps than the ring's half")
    check(extra["pat_tuner_latency"] < extra["half_tuner_latency"] and 0 < extra["pat_crossover_bytes"],
          "NCCL's tuner charges PAT less latency than the ring half, and the ring half wins again above a size")
    return Exhibit(
        summary={**summary(p, B, a, crossings, small, large, sent, cluster, small_message, large_message),
                 **{f"ll_{k}": v for k, v in ll.items()}, **extra},
        series=curves("message_bytes", sizes, ring_time=t_ring, tree_time=t_tree,
                      # either half alone (reduce-scatter or all-gather), the figure's dashed line
                      half_time=ring_reduce_scatter_time(sizes, p, B, a),
                      ring_busbw=busbw_allreduce(sizes, t_ring, p),
                      tree_busbw=busbw_allreduce(sizes, t_tree, p)),
        table=numbers_table(p, B, a, crossings["n_star"], min_message, max_message,
                            small_message, large_message),
        animation=animation_plan(p, B, a, animation_message, small_message, small),
        problems=problems(p, B, a, large, sent, cluster, large_message),
        records={"ring_halves": halves},
    )


# ---------------------------------------------------------------------------
# the recipe's steps
# ---------------------------------------------------------------------------


def message_sizes(min_message: float, max_message: float, points_per_decade: int) -> np.ndarray:
    """The sweep: log-spaced message sizes, `points_per_decade` to a decade."""
    decades = math.log10(max_message / min_message)
    return np.logspace(math.log10(min_message), math.log10(max_message),
                       int(round(decades * points_per_decade)) + 1)


def crossovers(p: int, B: float, a: float) -> dict:
    """The crossover against the pipelined tree and the two closed forms that bracket it."""
    return {"n_star": crossover(p, B, a),
            "n_star_k1": crossover_unpipelined(p, B, a),
            "n_star_cont": crossover_continuous(p, B, a)}


def at_size(n: float, p: int, B: float, a: float) -> dict:
    """Both algorithms at one message size: times, the tree's chunks and steps, bandwidths."""
    tr, tt = float(ring_time(n, p, B, a)), float(tree_time(n, p, B, a))
    return {
        "ring_time": tr, "tree_time": tt,
        "tree_chunks": float(tree_best_chunks(n, p, B, a)),
        "tree_steps": float(tree_steps(n, p, B, a)),
        "binomial_time": float(binomial_tree_time(n, p, B, a)),
        "ring_busbw": float(busbw_allreduce(n, tr, p)),
        "tree_busbw": float(busbw_allreduce(n, tt, p)),
        "ring_algbw": float(algbw(n, tr)),
    }


def ring_halves(p: int, B: float, a: float, small_message: float, large_message: float) -> list[dict]:
    """The ring all-reduce's two halves as collectives of their own (what FSDP and ZeRO run), then
    the all-reduce they add up to: steps, bytes each GPU sends and, at the small and the large message
    (n the total array, nccl-tests' S), time, algbw and nccl-tests busbw."""
    rows = []
    for name, steps, sent, time, bus in (
            ("reduce-scatter", ring_phase_steps(p), ring_phase_bytes_sent_per_rank, ring_reduce_scatter_time,
             busbw_reduce_scatter),
            ("all-gather", ring_phase_steps(p), ring_phase_bytes_sent_per_rank, ring_all_gather_time,
             busbw_all_gather),
            ("all-reduce", ring_steps(p), ring_bytes_sent_per_rank, ring_time, busbw_allreduce)):
        t_small, t_large = float(time(small_message, p, B, a)), float(time(large_message, p, B, a))
        rows.append({"name": name, "steps": steps,
                     "bytes_sent_large": float(sent(large_message, p)),
                     "busbw_factor": (2 if name == "all-reduce" else 1) * (p - 1) / p,
                     "time_small": t_small, "time_large": t_large,
                     "algbw_large": float(algbw(large_message, t_large)),
                     "busbw_large": float(bus(large_message, t_large, p))})
    return rows


def check_halves(halves: list[dict], small: dict, large: dict, sent: dict) -> None:
    """The page's sentences on the halves: they add up to the all-reduce, and report its busbw."""
    rs, ag, ar = halves
    check(math.isclose(rs["time_large"] + ag["time_large"], large["ring_time"], rel_tol=1e-12)
          and math.isclose(rs["time_small"] + ag["time_small"], small["ring_time"], rel_tol=1e-12)
          and math.isclose(ar["time_large"], large["ring_time"], rel_tol=1e-12),
          "a reduce-scatter then an all-gather is the ring all-reduce: their times add up to it")
    check(math.isclose(rs["bytes_sent_large"] + ag["bytes_sent_large"], sent["ring"], rel_tol=1e-12),
          "each half sends half the all-reduce's bytes")
    check(all(math.isclose(h["busbw_large"], ar["busbw_large"], rel_tol=1e-9) for h in (rs, ag)),
          "nccl-tests reports the same bus bandwidth for each half as for the all-reduce")


def pat_tuner(p: int, B: float, a: float, ring_base: float, pat_base: float, per_rank: float, divisor: float,
              factor: float) -> dict:
    """NCCL 2.30.7's tuner on a reduce-scatter or all-gather at one rank per node (tuning.cc:337,429-434):
    PAT costs pat_base + log2i(p) interLat/divisor + p per_rank at factor x the bus bandwidth, the ring
    half ring_base + (p - 1) interLat at B p/(p - 1) (its busBw * nRanks/nsteps). With one rank per node
    interLat is the tree's network latency, this page's alpha. The crossover is where the two times
    lat + n/algbw meet, n the gathered array (0 when the ring half is never slower)."""
    log_steps = p.bit_length() - 1  # NCCL's log2i: floor(log2 p)
    pat_lat = pat_base + log_steps * a / divisor + p * per_rank
    half_lat = ring_base + ring_phase_steps(p) * a
    pat_bw, half_bw = factor * B, B * p / ring_phase_steps(p)
    # factor <= 1 < p/(p-1): PAT's algbw is always the lower, so the times cross once if PAT starts lower
    n_cross = max(half_lat - pat_lat, 0.0) / (1 / pat_bw - 1 / half_bw)
    return {"pat_log_steps": log_steps, "pat_tuner_base": pat_base, "pat_tuner_log_part": log_steps * a / divisor,
            "pat_tuner_rank_part": p * per_rank, "pat_tuner_latency": pat_lat, "half_tuner_latency": half_lat,
            "pat_busbw_factor": factor, "pat_tuner_algbw": pat_bw, "half_tuner_algbw": half_bw,
            "pat_crossover_bytes": n_cross}


def ll_protocol(p: int, B: float, a_ring: float, a_tree: float, small_message: float) -> dict:
    """The crossover and the small message with NCCL's LL latencies, each algorithm at its own alpha
    (Ring/LL and Tree/LL in NCCL's table), and with both at the tree's (what NCCL 2.23 and later charge
    the ring too when there is one rank per node)."""
    return {"step_latency": a_ring, "tree_step_latency": a_tree,
            "n_star": crossover(p, B, a_ring, tree_alpha=a_tree),
            "ring_time_small": float(ring_time(small_message, p, B, a_ring)),
            "tree_time_small": float(tree_time(small_message, p, B, a_tree)),
            "n_star_tree_alpha": crossover(p, B, a_tree)}


def cluster_scaling(pc: int, p: int, B: float, a: float, large_message: float, gpus_per_node: int,
                    a_intra: float) -> dict:
    """The same link on the whole cluster's pc ranks: the worst case (one flat single-rail ring, every
    step at the network's alpha); across nodes of gpus_per_node GPUs as NCCL's tuner charges it (the
    2(N-1) ring steps between nodes at the network's alpha a, the rest on NVLink at a_intra; the tree a
    chain in each node, then a double tree over the nodes); and on twice the scene's ranks."""
    nodes = nodes_spanned(pc, gpus_per_node)
    on_net = nodes >= 2  # one node: no network ring at all
    if nodes == 2:  # the double tree over two nodes sends n per port each way, the one-port ring 2(p-1)/p n
        raise ParamError("cluster_ranks", pc, f"one node or at least three nodes of {gpus_per_node} GPUs: "
                         "across two nodes the tree is faster at every size and there is no crossover")
    inter = ring_inter_node_steps(pc, gpus_per_node)
    return {
        "ranks": pc,
        "gpus_per_node": gpus_per_node,
        "nodes": nodes,
        "intra_node_latency": a_intra,
        "ring_steps_inter_nodes": inter,
        "ring_steps_intra_nodes": ring_steps(pc) - inter,
        "ring_latency_inter_nodes": inter * a,
        "ring_latency_intra_nodes": (ring_steps(pc) - inter) * a_intra,
        "n_star_nodes": crossover_between(
            lambda n: ring_time_two_level(n, pc, gpus_per_node, B, a_intra, a),
            lambda n: tree_time_two_level(n, pc, gpus_per_node, B, a_intra, a)) if on_net else 0.0,
        "ring_latency_nodes": ring_latency_two_level(pc, gpus_per_node, a_intra, a) if on_net else 0.0,
        "tree_latency_nodes": 2 * ((gpus_per_node - 1) * a_intra + tree_depth(nodes) * a) if on_net else 0.0,
        "n_star": crossover(pc, B, a),
        "ring_large": float(ring_time(large_message, pc, B, a)),
        "tree_large": float(tree_time(large_message, pc, B, a)),
        "doubled_ranks": 2 * p,
        "n_star_doubled": crossover(2 * p, B, a),
    }


def check_claims(t_ring, t_tree, crossings: dict, small: dict, large: dict, sent: dict, cluster: dict,
                 p: int, B: float, a: float, small_message: float, large_message: float) -> None:
    """The page's worded claims, each checked on the numbers it quotes."""
    n_star = crossings["n_star"]
    diff = t_ring - t_tree
    gap = np.sign(np.where(np.abs(diff) <= 1e-12 * t_ring, 0.0, diff))  # a tie within rounding is a tie
    gap = gap[gap != 0]
    check(np.count_nonzero(np.diff(gap)) <= 1, "T_ring − T_tree changes sign once")
    check(small_message < n_star < large_message,
          "the small message lies below the crossover and the large one above it")
    check(small["tree_time"] < small["ring_time"], "the tree wins below the crossover")
    check(large["ring_time"] < large["tree_time"], "the ring wins above the crossover")
    check(crossings["n_star_k1"] <= n_star * (1 + 1e-9) and n_star <= crossings["n_star_cont"] * (1 + 1e-9),
          "two closed forms bracket the crossover")
    check(small["binomial_time"] >= small["tree_time"] * (1 - 1e-12)
          and large["binomial_time"] > large["tree_time"],
          "the binomial tree is never faster than the double tree: same latency, log p times the bytes")
    check(small["binomial_time"] < small["ring_time"] and large["binomial_time"] > large["ring_time"],
          "the binomial tree beats the ring on the small message and loses on the large one")
    check(small["tree_steps"] * a > 0.5 * small["tree_time"],
          "the small message on the tree is latency-bound")
    check(small["tree_chunks"] == 1, "the small message goes up and down each tree in one chunk")
    check(large["ring_busbw"] > 0.9 * B, "at large sizes the ring's bus bandwidth approaches the link rate")
    check(math.isclose(sent["tree"] / sent["ring"], p / (p - 1), rel_tol=1e-9),
          "the busiest tree GPU sends 2n, a factor p/(p−1) more than the ring's 2(p−1)/p · n")
    check(large_message < sent["ring"], "in-network reduction sends less than the ring's lower bound")
    check(cluster["n_star"] > large_message and cluster["tree_large"] < cluster["ring_large"],
          "on the whole cluster the tree wins at every size up to the large message")
    check(cluster["n_star_doubled"] > n_star, "doubling the ranks moves the crossover up")
    check(cluster["nodes"] < 2 or cluster["ring_latency_intra_nodes"] > cluster["ring_latency_inter_nodes"],
          "across nodes the ring's NVLink steps add more to its latency floor than its network steps")
    check(cluster["nodes"] < 2 or cluster["n_star_nodes"] > large_message,
          "across nodes the tree still wins at every size up to the large message")


ANIMATED_RANKS = 63  # the largest ring whose schedule the plan lays out: 2^62 is the last bit an int64 holds


def animation_plan(p: int, B: float, a: float, animation_message: float, small_message: float,
                   small: dict) -> dict:
    """What the scene draws: the ring's schedule on the animation's buffer, then the two trees
    each carrying half of the small message."""
    per_step = animation_message / p
    tree0, tree1 = double_binary_tree(p)
    # the step-by-step ring is p x 2(p-1) states of p chunks, and a rank's input is one bit of an
    # int64: past ANIMATED_RANKS it is neither drawable nor small, so a larger ring has none
    drawn = p <= ANIMATED_RANKS
    return {
        "message": animation_message,
        "bytes_per_step_per_rank": per_step,  # each rank sends one chunk per step
        "cumulative_bytes_per_rank": [per_step * s for s in range(ring_steps(p) + 1)],
        "step_time": a + per_step / B,
        "step_transfer_time": per_step / B,  # the n/(pB) part of one step
        "ring_time": float(ring_time(animation_message, p, B, a)),
        # the two halves the animation plays one after the other, and the clock after every step
        "reduce_scatter_time": float(ring_reduce_scatter_time(animation_message, p, B, a)),
        "all_gather_time": float(ring_all_gather_time(animation_message, p, B, a)),
        "cumulative_time": [(a + per_step / B) * s for s in range(ring_steps(p) + 1)],
        "ring_busbw": float(busbw_allreduce(animation_message, ring_time(animation_message, p, B, a), p)),
        "bytes_sent_per_rank": float(ring_bytes_sent_per_rank(animation_message, p)),
        "schedule": ring_schedule(p) if drawn else [],
        "contributions": ring_contributions(p) if drawn else [],
        # the two trees, each carrying half of the small message
        "tree_parent": tree0,
        "tree_depth": depths(tree0),
        "mirror_tree_parent": tree1,
        "mirror_tree_depth": depths(tree1),
        "tree_message": small_message,
        "tree_half": small_message / 2,
        "tree_time": small["tree_time"],
        "tree_steps": small["tree_steps"],
        "tree_message_ring_time": small["ring_time"],
    }


def summary(p: int, B: float, a: float, crossings: dict, small: dict, large: dict, sent: dict,
            cluster: dict, small_message: float, large_message: float) -> dict:
    """The numbers the page, the captions and the scene quote."""
    n_star = crossings["n_star"]
    return {
        "ranks": p,
        "link_bandwidth": B,
        "step_latency": a,
        "latency_bandwidth_product": a * B,  # bytes a link could move during one alpha
        "tree_depth": tree_depth(p),
        "ring_steps": ring_steps(p),
        "crossover_bytes": n_star,
        "crossover_unpipelined_bytes": crossings["n_star_k1"],
        "crossover_continuous_bytes": crossings["n_star_cont"],
        "crossover_tree_chunks": float(tree_best_chunks(n_star, p, B, a)) if n_star else 1.0,
        "small_message": small_message,
        "large_message": large_message,
        "ring_time_small": small["ring_time"],
        "tree_time_small": small["tree_time"],
        "ring_time_large": large["ring_time"],
        "tree_time_large": large["tree_time"],
        "ring_busbw_large": large["ring_busbw"],
        "ring_busbw_fraction_large": large["ring_busbw"] / B,
        "tree_busbw_limit": (p - 1) / p * B,
        "ring_bytes_sent_large": sent["ring"],
        "tree_bytes_sent_large": sent["tree"],
        "cluster_ranks": cluster["ranks"],
        "cluster_tree_depth": tree_depth(cluster["ranks"]),
        "cluster_ring_time_large": cluster["ring_large"],
        "cluster_tree_time_large": cluster["tree_large"],
        "doubled_ranks": cluster["doubled_ranks"],
        "cluster_gpus_per_node": cluster["gpus_per_node"],
        "cluster_nodes": cluster["nodes"],
        "binomial_time_small": small["binomial_time"],
        "binomial_time_large": large["binomial_time"],
    }


def problems(p: int, B: float, a: float, large: dict, sent: dict, cluster: dict,
             large_message: float) -> dict:
    """The answers to the page's problems."""
    pc = cluster["ranks"]
    return {
        "bytes_sent_per_gpu": sent["ring"],
        "bandwidth_term_large": float(ring_bandwidth_term(large_message, p, B)),
        "busbw_large": large["ring_busbw"],
        "algbw_large": large["ring_algbw"],
        "cluster_ring_latency": ring_steps(pc) * a,  # T_ring at n -> 0
        "cluster_tree_latency": 2 * tree_depth(pc) * a,  # T_tree at n -> 0 (k = 1)
        "cluster_crossover_bytes": cluster["n_star"],
        "doubled_crossover_bytes": cluster["n_star_doubled"],
        "cluster_nodes_ring_latency": cluster["ring_latency_nodes"],
        "cluster_nodes_ring_latency_inter": cluster["ring_latency_inter_nodes"],
        "cluster_nodes_ring_latency_intra": cluster["ring_latency_intra_nodes"],
        "cluster_nodes_ring_steps_inter": cluster["ring_steps_inter_nodes"],
        "cluster_nodes_ring_steps_intra": cluster["ring_steps_intra_nodes"],
        "cluster_nodes_tree_latency": cluster["tree_latency_nodes"],
        "cluster_nodes_crossover_bytes": cluster["n_star_nodes"],
    }


def numbers_table(p: int, B: float, a: float, n_star: float, min_message: float, max_message: float,
                  small_message: float, large_message: float) -> Table:
    """The numbers table: decades, the two reference sizes and the crossover."""
    decade_marks = [10.0**e for e in range(math.ceil(math.log10(min_message)),
                                           math.floor(math.log10(max_message)) + 1)]
    table_sizes = sorted({*decade_marks, small_message, large_message, max_message,
                          *([n_star] if n_star else [])})
    rows = []
    for n in table_sizes:
        r = at_size(n, p, B, a)
        if n == n_star:
            faster = "tie (crossover)"
        else:
            faster = "ring" if r["ring_time"] < r["tree_time"] else "tree"
        rows.append([float(n), r["ring_time"], r["tree_time"], int(r["tree_chunks"]),
                     r["ring_busbw"], r["tree_busbw"], faster])
    return Table(
        f"All-reduce on {p} ranks, B per direction, alpha per step: ring versus double binary tree "
        "(best chunk count k), with nccl-tests bus bandwidth",
        [Column("message size", "B"), Column("ring time", "s"), Column("tree time", "s"),
         Column("tree chunks k", "count"), Column("ring busbw", "B/s"), Column("tree busbw", "B/s"),
         Column("faster", "text")],
        rows,
    )
