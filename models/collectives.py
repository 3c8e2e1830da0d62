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
    a, b = math.log(lo), math.log(hi)
    while b - a > rel_tol:
        m = 0.5 * (a + b)
        if gap(math.exp(m)) < 0:
            a = m
        else:
            b = m
    return math.exp(0.5 * (a + b))


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


def _check_ranks(p) -> None:
    if int(p) != p or p < 2:
        raise ValueError(f"ranks must be an integer >= 2, got {p!r}")


# ---------------------------------------------------------------------------
# the entry function
# ---------------------------------------------------------------------------


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
) -> dict:
    """Ring versus double-binary-tree all-reduce over message sizes.

    ranks: p, GPUs in the all-reduce, one link each; link_bandwidth: B, per
    direction (B/s); step_latency: alpha (s); the message range of the sweep;
    a small and a large message for the prose; the message the animation
    moves; cluster_ranks: a large p for the scaling problem.
    """
    p, B, a = int(ranks), float(link_bandwidth), float(step_latency)
    _check_ranks(p)
    if not (0 < min_message < max_message):
        raise ValueError("need 0 < min_message < max_message")
    d = tree_depth(p)

    # --- the sweep ------------------------------------------------------------
    decades = math.log10(max_message / min_message)
    sizes = np.logspace(math.log10(min_message), math.log10(max_message),
                        int(round(decades * points_per_decade)) + 1)
    t_ring = ring_time(sizes, p, B, a)
    t_tree = tree_time(sizes, p, B, a)
    k_tree = tree_best_chunks(sizes, p, B, a)

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
            "ring_algbw": float(algbw(n, tr)), "tree_algbw": float(algbw(n, tt)),
        }

    small, large = at(small_message), at(large_message)

    # --- the animation plan ----------------------------------------------------
    schedule = ring_schedule(p)
    per_step = animation_message / p
    t_step = a + per_step / B
    tree0, tree1 = double_binary_tree(p)
    anim_small = small
    animation = {
        "message": animation_message,
        "bytes_per_step_per_rank": per_step,  # each rank sends one chunk per step
        "bytes_per_step_total": per_step * p,  # all p links together
        "cumulative_bytes_per_rank": [per_step * s for s in range(ring_steps(p) + 1)],
        "step_time": t_step,
        "step_transfer_time": per_step / B,  # the n/(pB) part of one step
        "ring_time": float(ring_time(animation_message, p, B, a)),
        "ring_busbw": float(busbw_allreduce(animation_message,
                                            ring_time(animation_message, p, B, a), p)),
        "bytes_sent_per_rank": float(ring_bytes_sent_per_rank(animation_message, p)),
        "schedule": schedule,
        "contributions": ring_contributions(p),
        "tree_parent": tree0,
        "tree_depth": depths(tree0),
        "mirror_tree_parent": tree1,
        "tree_message": small_message,
        "tree_time": anim_small["tree_time"],
        "tree_steps": anim_small["tree_steps"],
        "tree_message_ring_time": anim_small["ring_time"],
    }

    # --- scaling to the cluster ------------------------------------------------
    pc = int(cluster_ranks)
    cluster = {
        "cluster_ranks": pc,
        "cluster_tree_depth": tree_depth(pc),
        "cluster_ring_latency": ring_steps(pc) * a,  # T_ring at n -> 0
        "cluster_tree_latency": 2 * tree_depth(pc) * a,  # T_tree at n -> 0 (k = 1)
        "cluster_crossover_bytes": crossover(pc, B, a),
        "cluster_ring_time_large": float(ring_time(large_message, pc, B, a)),
        "cluster_tree_time_large": float(tree_time(large_message, pc, B, a)),
    }
    p2 = 2 * p
    doubled = {"doubled_ranks": p2, "doubled_crossover_bytes": crossover(p2, B, a)}

    summary = {
        "ranks": p,
        "link_bandwidth": B,
        "step_latency": a,
        "latency_bandwidth_product": a * B,  # bytes a link could move during one alpha
        "tree_depth": d,
        "ring_steps": ring_steps(p),
        "tree_steps_unpipelined": 2 * d,
        "ring_bandwidth_factor": 2 * (p - 1) / p,
        "crossover_bytes": n_star,
        "crossover_unpipelined_bytes": n_star_k1,
        "crossover_continuous_bytes": n_star_cont,
        "crossover_time": float(ring_time(n_star, p, B, a)),
        "crossover_tree_chunks": float(tree_best_chunks(n_star, p, B, a)) if n_star else 1.0,
        "small_message": small_message,
        "large_message": large_message,
        **{f"{k}_small": v for k, v in small.items()},
        **{f"{k}_large": v for k, v in large.items()},
        "tree_speedup_small": small["ring_time"] / small["tree_time"],
        "ring_speedup_large": large["tree_time"] / large["ring_time"],
        "ring_bytes_sent_large": float(ring_bytes_sent_per_rank(large_message, p)),
        "ring_latency_share_small": ring_steps(p) * a / small["ring_time"],
        "ring_busbw_fraction_large": large["ring_busbw"] / B,
        "tree_busbw_fraction_large": large["tree_busbw"] / B,
        "ring_busbw_limit": B,  # busbw as n -> infinity
        "tree_busbw_limit": (p - 1) / p * B,
        "animation_message": animation_message,
        "animation_bytes_per_step_per_rank": per_step,
        "animation_step_time": t_step,
        **cluster,
        **doubled,
    }

    problems = {
        "bytes_sent_per_gpu": summary["ring_bytes_sent_large"],
        "bandwidth_term_large": float(ring_bandwidth_term(large_message, p, B)),
        "busbw_large": large["ring_busbw"],
        "algbw_large": large["ring_algbw"],
        "cluster_ring_latency": cluster["cluster_ring_latency"],
        "cluster_tree_latency": cluster["cluster_tree_latency"],
        "cluster_crossover_bytes": cluster["cluster_crossover_bytes"],
        "doubled_crossover_bytes": doubled["doubled_crossover_bytes"],
    }

    # --- the numbers table: decades, the two reference sizes and the crossover -----
    table_sizes = sorted({*(10.0 ** np.arange(3, 10)), small_message, large_message,
                          max_message, *([n_star] if n_star else [])})
    rows = []
    for n in table_sizes:
        r = at(n)
        if n == n_star:
            faster = "tie (crossover)"
        else:
            faster = "ring" if r["ring_time"] < r["tree_time"] else "tree"
        rows.append([float(n), r["ring_time"], r["tree_time"], int(r["tree_chunks"]),
                     r["ring_busbw"], r["tree_busbw"], faster])
    table = {
        "caption": (f"All-reduce on {p} ranks, B per direction, alpha per step: ring versus "
                    "double binary tree (best chunk count k), with nccl-tests bus bandwidth"),
        "columns": [
            {"name": "message size", "unit": "B"},
            {"name": "ring time", "unit": "s"},
            {"name": "tree time", "unit": "s"},
            {"name": "tree chunks k", "unit": "count"},
            {"name": "ring busbw", "unit": "B/s"},
            {"name": "tree busbw", "unit": "B/s"},
            {"name": "faster", "unit": "text"},
        ],
        "rows": rows,
    }

    return {
        # how the page's parameter table shows the plain (non-constant) parameters
        "param_units": {"ranks": "count", "min_message": "B", "max_message": "B",
                        "points_per_decade": "count", "small_message": "B", "large_message": "B",
                        "animation_message": "B", "cluster_ranks": "count"},
        "summary": summary,
        "series": {
            "message_bytes": sizes,
            "ring_time": t_ring,
            "tree_time": t_tree,
            "tree_chunks": k_tree,
            "ring_algbw": algbw(sizes, t_ring),
            "tree_algbw": algbw(sizes, t_tree),
            "ring_busbw": busbw_allreduce(sizes, t_ring, p),
            "tree_busbw": busbw_allreduce(sizes, t_tree, p),
        },
        "animation": animation,
        "problems": problems,
        "table": table,
    }
