"""All-reduce times in the alpha-beta model: ring versus NCCL's double binary tree.

An alpha-beta model (Hockney's): a step that moves m bytes over one link costs
alpha + m / B, with alpha the per-step latency and B the per-direction link
bandwidth. p ranks all-reduce a message of n bytes.

Ring (Patarasuk & Yuan 2009; Thakur et al. 2005): a reduce-scatter then an
all-gather, each p-1 steps in which every rank sends n/p bytes to its right
neighbour. Each half is a collective of its own (FSDP and ZeRO run them apart:
reduce-scatter the gradients, all-gather the parameters), on an n-byte total
array (nccl-tests' S: each rank ends with, or starts from, n/p of it):

    T_rs = T_ag = (p-1) (alpha + n / (p B))
    T_ring = T_rs + T_ag = 2(p-1) (alpha + n / (p B))

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
(n/k bytes out), so a stage costs alpha + n/(kB) per direction. Each stage is
charged its busiest port's bytes, s * n/k with s = tree_stage_share(p): s = 1
for p >= 3 (for p = 3 both trees are chains and rank 2 sends both halves to
rank 0 over one port), s = 1/2 for p = 2 (each rank is the root of one tree
with one child, so a stage moves one n/(2k) chunk each way and the double
tree ties the ring at 2 alpha + n/B):

    T_tree(k) = 2 (D + k - 1) (alpha + s n / (k B)),   k >= 1 an integer

minimised over k. Continuous optimum k* = sqrt((D-1) s n / (alpha B)), giving
T_tree* = 2 (sqrt((D-1) alpha) + sqrt(s n/B))^2. The reduce and the broadcast
are run one after the other (2(D + k - 1) stages); NCCL overlaps them, which
this model leaves out. The latency grows with log p,
the bandwidth term tends to 2 n/B: a factor p/(p-1) above the ring's. (NCCL's
own tuner, src/graph/tuning.cc, converts tree bus bandwidth to algorithm
bandwidth with the same factor 0.5.)

nccl-tests (doc/PERFORMANCE.md): algbw = S/t and, for all-reduce,
busbw = algbw * 2(p-1)/p, so a ring's busbw tends to the link bandwidth B; for
reduce-scatter and all-gather busbw = algbw * (p-1)/p, with S the total array.

Pure numpy/stdlib, SI units: bytes, seconds, bytes per second.
"""

from __future__ import annotations

import math

import numpy as np

from models.lib.search import log_bisect

# ---------------------------------------------------------------------------
# the formulas
# ---------------------------------------------------------------------------


def tree_depth(p: int) -> int:
    """Depth (edges, root to deepest leaf) of NCCL's binary tree on p ranks."""
    check_ranks(p)
    return math.ceil(math.log2(p))


def ring_steps(p: int) -> int:
    """Steps of a ring all-reduce: p-1 reduce-scatter plus p-1 all-gather."""
    check_ranks(p)
    return 2 * (p - 1)


def ring_phase_steps(p: int) -> int:
    """Steps of one half of the ring all-reduce (a reduce-scatter or an all-gather): p-1."""
    check_ranks(p)
    return p - 1


def ring_reduce_scatter_time(n, p: int, bandwidth: float, alpha: float):
    """Ring reduce-scatter of an n-byte array (each rank ends with its n/p, summed):
    T_rs = (p-1)(alpha + n/(pB)), seconds; n may be an array."""
    return ring_phase_steps(p) * (alpha + np.asarray(n, dtype=float) / (p * bandwidth))


def ring_all_gather_time(n, p: int, bandwidth: float, alpha: float):
    """Ring all-gather into an n-byte array (each rank starts with its n/p):
    T_ag = (p-1)(alpha + n/(pB)), seconds; n may be an array."""
    return ring_phase_steps(p) * (alpha + np.asarray(n, dtype=float) / (p * bandwidth))


def ring_phase_bytes_sent_per_rank(n, p: int):
    """Bytes each rank sends (and receives) in a ring reduce-scatter or all-gather: (p-1)/p * n."""
    check_ranks(p)
    return (p - 1) / p * np.asarray(n, dtype=float)


def ring_time(n, p: int, bandwidth: float, alpha: float):
    """T_ring = T_rs + T_ag = 2(p-1)(alpha + n/(pB)), seconds; n may be an array."""
    return ring_reduce_scatter_time(n, p, bandwidth, alpha) + ring_all_gather_time(n, p, bandwidth, alpha)


def ring_bandwidth_term(n, p: int, bandwidth: float):
    """The ring's bandwidth term 2(p-1)/p * n/B (its time with alpha = 0)."""
    return 2 * (p - 1) / p * np.asarray(n, dtype=float) / bandwidth


def ring_bytes_sent_per_rank(n, p: int):
    """Bytes each rank sends (and receives) in a ring all-reduce: 2(p-1)/p * n."""
    return 2 * (p - 1) / p * np.asarray(n, dtype=float)


def tree_stage_share(p: int) -> float:
    """The busiest port's bytes in one tree stage, as a share of n/k (k chunks per half).

    In a stage a rank sends one n/(2k) chunk to its parent in each tree it is not the root of,
    and receives one from each child across both trees. NCCL's two trees give some rank two
    of either for every p >= 3 (tests check it on the trees themselves); for p = 2 each rank
    roots one tree and is the other's only child: one chunk each way, a share of 1/2."""
    check_ranks(p)
    return 0.5 if p == 2 else 1.0


def tree_time_chunks(n, p: int, bandwidth: float, alpha: float, k):
    """T_tree(k) = 2(D+k-1)(alpha + s n/(kB)) for k pipeline chunks per half-message,
    s = tree_stage_share(p)."""
    d = tree_depth(p)
    k = np.asarray(k, dtype=float)
    n = np.asarray(n, dtype=float)
    if np.any(k < 1):
        raise ValueError("chunk count k must be >= 1")
    return 2 * (d + k - 1) * (alpha + tree_stage_share(p) * n / (k * bandwidth))


def tree_chunks_continuous(n, p: int, bandwidth: float, alpha: float):
    """Continuous optimum k* = sqrt((D-1) s n / (alpha B)) (not clipped to k >= 1)."""
    d = tree_depth(p)
    return np.sqrt((d - 1) * tree_stage_share(p) * np.asarray(n, dtype=float) / (alpha * bandwidth))


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
    """Closed form with continuous k: 2 (sqrt((D-1) alpha) + sqrt(s n/B))^2."""
    d = tree_depth(p)
    return 2 * (np.sqrt((d - 1) * alpha) + np.sqrt(tree_stage_share(p) * np.asarray(n, dtype=float) / bandwidth)) ** 2


def binomial_tree_time(n, p: int, bandwidth: float, alpha: float):
    """All-reduce as a binomial-tree reduce then a binomial-tree broadcast, unpipelined (MPICH's
    reduce + bcast for short messages, Thakur et al. 2005): D = ceil(log2 p) steps each way, each
    moving the full n over one link: T = 2 D (alpha + n/B). Its latency is the double tree's at
    k = 1; its bandwidth term 2 D n/B grows with log p."""
    return 2 * tree_depth(p) * (alpha + np.asarray(n, dtype=float) / bandwidth)


def nodes_spanned(p: int, gpus_per_node: int) -> int:
    """Nodes a p-rank communicator spans at gpus_per_node GPUs a node (a part-filled last node is a node)."""
    check_ranks(p)
    if int(gpus_per_node) != gpus_per_node or gpus_per_node < 1:
        raise ValueError(f"gpus_per_node must be an integer >= 1, got {gpus_per_node!r}")
    return -(-p // int(gpus_per_node))


def ring_inter_node_steps(p: int, gpus_per_node: int) -> int:
    """Steps of a p-rank all-reduce ring that cross between nodes: 2(N-1), none on one node (NCCL's
    nInterSteps, src/graph/tuning.cc). A ring enters and leaves each node once, so N of its p hops
    are network hops, and each of the 2(p-1) steps' chunks crosses them in turn."""
    nodes = nodes_spanned(p, gpus_per_node)
    return 0 if nodes == 1 else 2 * (nodes - 1)


def ring_latency_two_level(p: int, gpus_per_node: int, alpha_intra: float, alpha_inter: float) -> float:
    """The latency NCCL's tuner charges a ring all-reduce across nodes (src/graph/tuning.cc,
    ncclTopoTuneModel): (nsteps - nInterSteps) * intraLat + nInterSteps * interLat, with
    nsteps = 2(p-1) and nInterSteps = 2(N-1): the hops inside a node (NVLink) at alpha_intra,
    those between nodes at alpha_inter."""
    inter = ring_inter_node_steps(p, gpus_per_node)
    return (ring_steps(p) - inter) * alpha_intra + inter * alpha_inter


def ring_time_two_level(n, p: int, gpus_per_node: int, bandwidth: float, alpha_intra: float,
                        alpha_inter: float):
    """Ring all-reduce over nodes: ring_latency_two_level plus the ring's bandwidth term
    2(p-1)/p * n/B, B the network port the ring crosses nodes on (each hop carries the same bytes,
    and the in-node hops are faster; NCCL's tuner charges n / (busBw * p/nsteps), the same term)."""
    return (ring_latency_two_level(p, gpus_per_node, alpha_intra, alpha_inter)
            + ring_bandwidth_term(n, p, bandwidth))


def tree_time_two_level(n, p: int, gpus_per_node: int, bandwidth: float, alpha_intra: float,
                        alpha_inter: float):
    """NCCL's tree across nodes: a chain through the g GPUs of each node, then the double binary tree
    over the N nodes. NCCL's tuner charges it 2((g-1) intraLat + log2(N) interLat)
    (src/graph/tuning.cc); here the chain adds its 2(g-1) in-node hops at alpha_intra to the tree over
    N ranks at alpha_inter (tree_time: its stages carry the bytes at the port's B; the chain's NVLink
    hops are faster and only fill the pipeline). Needs at least two nodes."""
    nodes = nodes_spanned(p, gpus_per_node)
    if nodes < 2:
        raise ValueError(f"the tree across nodes needs at least two nodes, got {p} ranks at {gpus_per_node} a node")
    chain = 2 * (int(gpus_per_node) - 1) * alpha_intra
    return chain + tree_time(n, nodes, bandwidth, alpha_inter)


def tree_steps(n, p: int, bandwidth: float, alpha: float):
    """Pipeline stages of the tree at size n: 2(D + k - 1)."""
    return 2 * (tree_depth(p) + tree_best_chunks(n, p, bandwidth, alpha) - 1)


def algbw(n, t):
    """nccl-tests algorithm bandwidth: S / t."""
    return np.asarray(n, dtype=float) / np.asarray(t, dtype=float)


def busbw_allreduce(n, t, p: int):
    """nccl-tests bus bandwidth for all-reduce: algbw * 2(p-1)/p."""
    return algbw(n, t) * 2 * (p - 1) / p


def busbw_reduce_scatter(n, t, p: int):
    """nccl-tests bus bandwidth for reduce-scatter, n the total array: algbw * (p-1)/p."""
    return algbw(n, t) * (p - 1) / p


def busbw_all_gather(n, t, p: int):
    """nccl-tests bus bandwidth for all-gather, n the total array: algbw * (p-1)/p."""
    return algbw(n, t) * (p - 1) / p


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
              rel_tol: float = 1e-12, tree_alpha: float | None = None) -> float:
    """Message size n* where T_ring = T_tree (integer k), by bisection on log n.

    The tree pays tree_alpha per stage if given (NCCL's tuner has one latency per algorithm and
    protocol), else the ring's alpha. See crossover_between.
    """
    ta = alpha if tree_alpha is None else float(tree_alpha)
    return crossover_between(lambda n: ring_time(n, p, bandwidth, alpha),
                             lambda n: tree_time(n, p, bandwidth, ta), lo, hi, rel_tol)


def crossover_between(ring, tree, lo: float = 1.0, hi: float = 1e15, rel_tol: float = 1e-12) -> float:
    """Message size n* where ring(n) = tree(n), two time functions, by bisection on log n.

    T_tree - T_ring is concave in n (a minimum of lines minus a line, plus constants) and ends
    positive, so it has at most one root. Returns 0.0 when the tree is never faster: p = 3, and
    p = 2 where the two tie at every size (a gap within rounding of the ring's time counts as a tie).
    """
    def gap(n):
        tr = float(ring(n))
        g = float(tree(n)) - tr
        return 0.0 if abs(g) <= 1e-12 * tr else g

    if gap(lo) >= 0:
        return 0.0
    if gap(hi) <= 0:
        raise ValueError(f"no crossover below {hi:g} B")
    return log_bisect(gap, lo, hi, log_tol=rel_tol)


def check_ranks(p) -> None:
    """Reject a rank count that is not an integer >= 2 (the ring and the trees need two ranks)."""
    if int(p) != p or p < 2:
        raise ValueError(f"ranks must be an integer >= 2, got {p!r}")
