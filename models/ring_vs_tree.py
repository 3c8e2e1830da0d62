"""All-reduce cost models: ring versus NCCL's double binary tree.

An alpha-beta model (Hockney's): a step that moves m bytes over one link costs
alpha + m / B, with alpha the per-step latency and B the per-direction link
bandwidth. p ranks all-reduce a message of n bytes.

Ring (Patarasuk & Yuan 2009; Thakur et al. 2005): a reduce-scatter then an
all-gather, each p-1 steps in which every rank sends n/p bytes to its right
neighbour:

    T_ring = 2(p-1) (alpha + n / (p B))

Its bandwidth term 2(p-1)/p * n/B meets the lower bound for all-reduce
(Patarasuk & Yuan): every rank must send and receive 2(p-1)/p * n bytes.

Double binary tree (NCCL 2.4+, after Sanders, Speck & Traff 2009): the message
is halved over two complementary binary trees of depth D = ceil(log2 p); a rank
interior in one tree is a leaf in the other, so no rank has more than two
children across both trees (NCCL's trees.cc; for odd p rank 0 has one child in
each). Each half is cut
into k chunks of n/(2k) bytes and pipelined: a reduce up the tree, then a
broadcast down, each D + k - 1 stages. In one stage a rank that is interior in
tree A receives one chunk from each of its two children (2 * n/(2k) = n/k
bytes in) and sends one chunk to its parent in A and one to its parent in B
(n/k bytes out), so a stage costs alpha + n/(kB) per direction:

    T_tree(k) = 2 (D + k - 1) (alpha + n / (k B)),   k >= 1 an integer

minimised over k. Continuous optimum k* = sqrt((D-1) n / (alpha B)), giving
T_tree* = 2 (sqrt((D-1) alpha) + sqrt(n/B))^2. The latency grows with log p,
the bandwidth term tends to 2 n/B: a factor p/(p-1) above the ring's. (NCCL's
own tuner, src/graph/tuning.cc, converts tree bus bandwidth to algorithm
bandwidth with the same factor 0.5.)

nccl-tests (doc/PERFORMANCE.md): algbw = S/t and, for all-reduce,
busbw = algbw * 2(p-1)/p, so a ring's busbw tends to the link bandwidth B.

Pure numpy/stdlib, SI units: bytes, seconds, bytes per second.
"""

from __future__ import annotations

import math

import numpy as np

from models.exhibit import Column, Exhibit, Param, ParamError, Table, check, curves, model
from models.lib.search import log_bisect

# ---------------------------------------------------------------------------
# the formulas
# ---------------------------------------------------------------------------


def tree_depth(p: int) -> int:
    """Depth (edges, root to deepest leaf) of NCCL's binary tree on p ranks."""
    _check_ranks(p)
    return math.ceil(math.log2(p))


def ring_steps(p: int) -> int:
    """Steps of a ring all-reduce: p-1 reduce-scatter plus p-1 all-gather."""
    _check_ranks(p)
    return 2 * (p - 1)


def ring_time(n, p: int, bandwidth: float, alpha: float):
    """T_ring = 2(p-1)(alpha + n/(pB)), seconds; n may be an array."""
    _check_ranks(p)
    n = np.asarray(n, dtype=float)
    return ring_steps(p) * (alpha + n / (p * bandwidth))


def ring_bandwidth_term(n, p: int, bandwidth: float):
    """The ring's bandwidth term 2(p-1)/p * n/B (its time with alpha = 0)."""
    return 2 * (p - 1) / p * np.asarray(n, dtype=float) / bandwidth


def ring_bytes_sent_per_rank(n, p: int):
    """Bytes each rank sends (and receives) in a ring all-reduce: 2(p-1)/p * n."""
    return 2 * (p - 1) / p * np.asarray(n, dtype=float)


def tree_time_chunks(n, p: int, bandwidth: float, alpha: float, k):
    """T_tree(k) = 2(D+k-1)(alpha + n/(kB)) for k pipeline chunks per half-message."""
    d = tree_depth(p)
    k = np.asarray(k, dtype=float)
    n = np.asarray(n, dtype=float)
    if np.any(k < 1):
        raise ValueError("chunk count k must be >= 1")
    return 2 * (d + k - 1) * (alpha + n / (k * bandwidth))


def tree_chunks_continuous(n, p: int, bandwidth: float, alpha: float):
    """Continuous optimum k* = sqrt((D-1) n / (alpha B)) (not clipped to k >= 1)."""
    d = tree_depth(p)
    return np.sqrt((d - 1) * np.asarray(n, dtype=float) / (alpha * bandwidth))


def tree_best_chunks(n, p: int, bandwidth: float, alpha: float):
    """The integer k >= 1 that minimises T_tree(k): floor or ceil of k*, ties to fewer."""
    kc = np.atleast_1d(tree_chunks_continuous(n, p, bandwidth, alpha))
    lo = np.maximum(np.floor(kc), 1.0)
    hi = lo + 1.0
    nn = np.broadcast_to(np.asarray(n, dtype=float), kc.shape)
    t_lo = tree_time_chunks(nn, p, bandwidth, alpha, lo)
    t_hi = tree_time_chunks(nn, p, bandwidth, alpha, hi)
    k = np.where(t_hi < t_lo, hi, lo)
    return k if np.ndim(n) else float(k[0])


def tree_time(n, p: int, bandwidth: float, alpha: float):
    """Double-binary-tree all-reduce time with the best integer chunk count."""
    k = tree_best_chunks(n, p, bandwidth, alpha)
    return tree_time_chunks(n, p, bandwidth, alpha, k)


def tree_time_continuous(n, p: int, bandwidth: float, alpha: float):
    """Closed form with continuous k: 2 (sqrt((D-1) alpha) + sqrt(n/B))^2."""
    d = tree_depth(p)
    return 2 * (np.sqrt((d - 1) * alpha) + np.sqrt(np.asarray(n, dtype=float) / bandwidth)) ** 2


def tree_steps(n, p: int, bandwidth: float, alpha: float):
    """Pipeline stages of the tree at size n: 2(D + k - 1)."""
    return 2 * (tree_depth(p) + tree_best_chunks(n, p, bandwidth, alpha) - 1)


def algbw(n, t):
    """nccl-tests algorithm bandwidth: S / t."""
    return np.asarray(n, dtype=float) / np.asarray(t, dtype=float)


def busbw_allreduce(n, t, p: int):
    """nccl-tests bus bandwidth for all-reduce: algbw * 2(p-1)/p."""
    return algbw(n, t) * 2 * (p - 1) / p


def crossover_unpipelined(p: int, bandwidth: float, alpha: float) -> float:
    """Closed-form crossover against an unpipelined tree (k = 1).

    2D(alpha + n/B) = 2(p-1)(alpha + n/(pB))  =>  n = (p-1-D) alpha B / (D - (p-1)/p).
    Returns 0.0 when the ring is never slower (p <= 3).
    """
    d = tree_depth(p)
    if p - 1 - d <= 0:
        return 0.0
    return (p - 1 - d) * alpha * bandwidth / (d - (p - 1) / p)


def crossover_continuous(p: int, bandwidth: float, alpha: float) -> float:
    """Closed-form crossover against the tree with continuous k (tree_time_continuous).

    With x = sqrt(n/B), a = sqrt((D-1) alpha): x^2/p + 2 a x - (p-D) alpha = 0,
    so x = p (sqrt(a^2 + (p-D) alpha / p) - a). Returns 0.0 when p <= 3.
    """
    d = tree_depth(p)
    if p - 1 - d <= 0:
        return 0.0
    a = math.sqrt((d - 1) * alpha)
    x = p * (math.sqrt(a * a + (p - d) * alpha / p) - a)
    return bandwidth * x * x


def crossover(p: int, bandwidth: float, alpha: float, lo: float = 1.0, hi: float = 1e15,
              rel_tol: float = 1e-12) -> float:
    """Message size n* where T_ring = T_tree (integer k), by bisection on log n.

    T_tree - T_ring is concave in n (a minimum of lines minus a line) and ends
    positive, so it has at most one root. Returns 0.0 when the ring is faster
    at every size (p <= 3).
    """
    def gap(n):
        return float(tree_time(n, p, bandwidth, alpha) - ring_time(n, p, bandwidth, alpha))

    if gap(lo) >= 0:
        return 0.0
    if gap(hi) <= 0:
        raise ValueError(f"no crossover below {hi:g} B")
    return log_bisect(gap, lo, hi, log_tol=rel_tol)


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
    _check_ranks(p)
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
    _check_ranks(p)
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
    return [sum(half * ((t[r] != -1) + t.count(r)) for t in (t0, t1)) for r in range(p)]


def _check_ranks(p) -> None:
    if int(p) != p or p < 2:
        raise ValueError(f"ranks must be an integer >= 2, got {p!r}")


# ---------------------------------------------------------------------------
# the entry function
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
) -> Exhibit:
    """Ring versus double-binary-tree all-reduce over message sizes.

    ranks: p, GPUs in the all-reduce, one link each; link_bandwidth: B, per
    direction (B/s); step_latency: alpha (s); the message range of the sweep;
    a small and a large message for the prose; the message the animation
    moves; cluster_ranks: a large p for the scaling problem.
    """
    p, B, a = int(ranks), float(link_bandwidth), float(step_latency)
    if not min_message < max_message:
        raise ParamError("max_message", max_message, f"more than min_message ({min_message:g} B)")
    if not small_message < large_message:
        raise ParamError("large_message", large_message, f"more than small_message ({small_message:g} B)")
    d = tree_depth(p)

    # --- the sweep ------------------------------------------------------------
    decades = math.log10(max_message / min_message)
    sizes = np.logspace(math.log10(min_message), math.log10(max_message),
                        int(round(decades * points_per_decade)) + 1)
    t_ring = ring_time(sizes, p, B, a)
    t_tree = tree_time(sizes, p, B, a)

    # --- crossover ------------------------------------------------------------
    n_star = crossover(p, B, a)
    n_star_k1 = crossover_unpipelined(p, B, a)
    n_star_cont = crossover_continuous(p, B, a)

    def at(n):
        tr, tt = float(ring_time(n, p, B, a)), float(tree_time(n, p, B, a))
        return {
            "ring_time": tr, "tree_time": tt,
            "tree_chunks": float(tree_best_chunks(n, p, B, a)),
            "tree_steps": float(tree_steps(n, p, B, a)),
            "ring_busbw": float(busbw_allreduce(n, tr, p)),
            "tree_busbw": float(busbw_allreduce(n, tt, p)),
            "ring_algbw": float(algbw(n, tr)),
        }

    small, large = at(small_message), at(large_message)
    ring_bytes = float(ring_bytes_sent_per_rank(large_message, p))
    tree_bytes = max(double_tree_bytes_sent(large_message, p))

    # --- scaling to the cluster ------------------------------------------------
    pc = int(cluster_ranks)
    n_star_cluster = crossover(pc, B, a)
    cluster_ring_large = float(ring_time(large_message, pc, B, a))
    cluster_tree_large = float(tree_time(large_message, pc, B, a))
    p2 = 2 * p
    n_star_doubled = crossover(p2, B, a)

    # --- the page's worded claims ------------------------------------------------
    gap = np.sign(t_ring - t_tree)
    gap = gap[gap != 0]
    check(np.count_nonzero(np.diff(gap)) <= 1, "T_ring − T_tree changes sign once")
    check(small_message < n_star < large_message,
          "the small message lies below the crossover and the large one above it")
    check(small["tree_time"] < small["ring_time"], "the tree wins below the crossover")
    check(large["ring_time"] < large["tree_time"], "the ring wins above the crossover")
    check(n_star_k1 <= n_star * (1 + 1e-9) and n_star <= n_star_cont * (1 + 1e-9),
          "two closed forms bracket the crossover")
    check(small["tree_steps"] * a > 0.5 * small["tree_time"],
          "the small message on the tree is latency-bound")
    check(small["tree_chunks"] == 1, "the small message goes up and down each tree in one chunk")
    check(large["ring_busbw"] > 0.9 * B, "at large sizes the ring's bus bandwidth approaches the link rate")
    check(math.isclose(tree_bytes / ring_bytes, p / (p - 1), rel_tol=1e-9),
          "the busiest tree GPU sends 2n, a factor p/(p−1) more than the ring's 2(p−1)/p · n")
    check(large_message < ring_bytes, "in-network reduction sends less than the ring's lower bound")
    check(n_star_cluster > large_message and cluster_tree_large < cluster_ring_large,
          "on the whole cluster the tree wins at every size up to the large message")
    check(n_star_doubled > n_star, "doubling the ranks moves the crossover up")

    # --- the animation plan ----------------------------------------------------
    per_step = animation_message / p
    tree0, tree1 = double_binary_tree(p)
    animation = {
        "message": animation_message,
        "bytes_per_step_per_rank": per_step,  # each rank sends one chunk per step
        "cumulative_bytes_per_rank": [per_step * s for s in range(ring_steps(p) + 1)],
        "step_time": a + per_step / B,
        "step_transfer_time": per_step / B,  # the n/(pB) part of one step
        "ring_time": float(ring_time(animation_message, p, B, a)),
        "ring_busbw": float(busbw_allreduce(animation_message, ring_time(animation_message, p, B, a), p)),
        "bytes_sent_per_rank": float(ring_bytes_sent_per_rank(animation_message, p)),
        "schedule": ring_schedule(p),
        "contributions": ring_contributions(p),
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

    summary = {
        "ranks": p,
        "link_bandwidth": B,
        "step_latency": a,
        "latency_bandwidth_product": a * B,  # bytes a link could move during one alpha
        "tree_depth": d,
        "ring_steps": ring_steps(p),
        "crossover_bytes": n_star,
        "crossover_unpipelined_bytes": n_star_k1,
        "crossover_continuous_bytes": n_star_cont,
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
        "ring_bytes_sent_large": ring_bytes,
        "tree_bytes_sent_large": tree_bytes,
        "cluster_ranks": pc,
        "cluster_tree_depth": tree_depth(pc),
        "cluster_ring_time_large": cluster_ring_large,
        "cluster_tree_time_large": cluster_tree_large,
        "doubled_ranks": p2,
    }

    problems = {
        "bytes_sent_per_gpu": ring_bytes,
        "bandwidth_term_large": float(ring_bandwidth_term(large_message, p, B)),
        "busbw_large": large["ring_busbw"],
        "algbw_large": large["ring_algbw"],
        "cluster_ring_latency": ring_steps(pc) * a,  # T_ring at n -> 0
        "cluster_tree_latency": 2 * tree_depth(pc) * a,  # T_tree at n -> 0 (k = 1)
        "cluster_crossover_bytes": n_star_cluster,
        "doubled_crossover_bytes": n_star_doubled,
    }

    # --- the numbers table: decades, the two reference sizes and the crossover -----
    decade_marks = [10.0**e for e in range(math.ceil(math.log10(min_message)),
                                           math.floor(math.log10(max_message)) + 1)]
    table_sizes = sorted({*decade_marks, small_message, large_message, max_message,
                          *([n_star] if n_star else [])})
    rows = []
    for n in table_sizes:
        r = at(n)
        if n == n_star:
            faster = "tie (crossover)"
        else:
            faster = "ring" if r["ring_time"] < r["tree_time"] else "tree"
        rows.append([float(n), r["ring_time"], r["tree_time"], int(r["tree_chunks"]),
                     r["ring_busbw"], r["tree_busbw"], faster])
    table = Table(
        f"All-reduce on {p} ranks, B per direction, alpha per step: ring versus double binary tree "
        "(best chunk count k), with nccl-tests bus bandwidth",
        [Column("message size", "B"), Column("ring time", "s"), Column("tree time", "s"),
         Column("tree chunks k", "count"), Column("ring busbw", "B/s"), Column("tree busbw", "B/s"),
         Column("faster", "text")],
        rows,
    )

    series = curves("message_bytes", sizes,
                    ring_time=t_ring, tree_time=t_tree,
                    ring_busbw=busbw_allreduce(sizes, t_ring, p),
                    tree_busbw=busbw_allreduce(sizes, t_tree, p))
    return Exhibit(summary=summary, series=series, table=table, animation=animation, problems=problems)
