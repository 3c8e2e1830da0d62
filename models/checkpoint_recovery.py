"""Checkpoint recovery: how 16,384 ranks come back from a failure, and what the wait costs.

Recovery time (MTTR, the restart cost R of Daly's model, models/lib/checkpoint.py) is a sum
of parts, each with its own cost model:

    R = T_detect + T_reschedule + T_process + T_init + T_metadata + T_load

- T_detect: how long the job takes to notice. It depends on the kind of failure.
  A *hang* (a rank stops answering but its process lives) is noticed, without
  a health check, only when PyTorch's NCCL watchdog times out (its default is
  a cited constant). A *crash* (a process exits) is seen by the launcher at once
  (torchrun's elastic agent watches its workers): seconds, an assumption. With
  heartbeats a crash is seen in seconds (an assumption), but a hang is not: a rank stuck in a
  collective keeps its process and its heartbeats, so a progress watchdog must notice that no
  step has finished for k step times and the hung rank must then be found
  (`hang_detect_time`; k and the localisation are assumed, k is swept). The fast recoveries'
  headline figures are a hang's; a crash's are beside them. The worst case and the current
  default are computed for both kinds, and their mix is swept by the share of
  hangs (`HANG_SHARES`, `mixed_goodput`).
- T_reschedule: replacing the failed node: requeue and start a new one, or
  swap in a warm spare (both assumptions, stated on the page and swept).
- T_process: restarting every rank's process: container, Python imports, CUDA
  context, model build and the first step's warm-up (an
  assumption: no source measures it at this scale).
- T_init: communicator (process-group) initialization, as MegaScale (NSDI '24, §3.5)
  measured it: with PyTorch's default TCPStore, and after its optimizations. The
  measured values are used as they stand; no queue model is fitted to them.
- T_metadata: the stampede. All p ranks send f metadata lookups (opens, stats, failed
  lookups) at the same instant; f depends most on whether the Python environment sits on
  the shared file system (`_stampede_cases`: both cases, and the f at which one server's
  stampede equals the TCPStore set-up). One metadata server serves them first come, first served at μ per second,
  so the last rank waits p·f/μ (the mean rank half that). Spread over m
  metadata shards (a hash-partitioned namespace), the queue is p·f/(m·μ). A best
  case: no lock contention, no timeouts and no retries (`FILES_SWEEP` sweeps f).
- T_load: the state. Weights (w bytes per parameter) are replicated across
  the D data-parallel replicas; optimizer state (o bytes per parameter) is
  sharded across all p ranks (what the Llama 3 report's per-GPU checkpoint
  size implies; daly-checkpoint). If every rank reads what it needs from storage,
  storage serves D·Ψ·w + Ψ·o bytes at its aggregate read bandwidth B_s. If
  one rank per model-parallel shard reads the weights and broadcasts them to
  its D − 1 replicas over a pipelined binary tree (the broadcast half of
  NCCL's double-binary-tree all-reduce: ring-vs-tree's `tree_time`/2, depth
  ⌈log₂ D⌉), storage serves only Ψ·(w + o). Each rank's own read is also
  capped by its NIC: the slower of the two bounds the load.

Four recoveries: the unoptimized worst case of a full restart, the fast full restart (every part at
its fast setting; every rank still restarts, and one reader per shard reloads the weights from storage
and broadcasts them), the same fast
full restart reloading from the in-memory copy the partial restart uses (so the two
are compared on the same state and the same lost work), and the partial restart
(the blast radius of one node): the healthy ranks keep their processes and their
state in GPU memory; only the replacement node, a warm spare whose process is
already up, copies its ranks' state from a peer's in-memory copy over its NICs,
and the job redoes the interrupted step instead of rolling back to the last
checkpoint. A partial restart covers only a failure that one node's swap cures: the record's software
bugs, dependency failures, network switch or cable faults and NCCL watchdog timeouts of unknown cause
(Table 5's rows, `full_restart_interruptions`) need every rank back, so the design charges them the
full restart from the in-memory copy. The coverable share c = 1 − those/all weights the two
(`partial_design`), and it is swept (`COVERABLE_SHARES`).

Lost work is not part of R: Daly's model charges it separately, and at the
optimum interval τ* (`optimal_interval`, which does not depend on
R) a full restart throws away about τ*/2. Goodput (useful share of wall time) is
`goodput`, Daly's `efficiency_at_optimum(δ, M, R)` with R = this MTTR; as R → 0 it
tends to the share left by checkpoint writes and lost work alone. A restart from the
per-step copy loses half a step, not τ*/2, so that curve does not fit it; its goodput is
`direct_goodput`, the same accounting to first order with each failure's own lost work.

Every loop here is a fixed-size sweep. Units: seconds, bytes, bytes per second.
"""

from __future__ import annotations

import math

import numpy as np

from models import scenario_facts
from models.exhibit import Column, Exhibit, Param, ParamError, Table, check, curves, model
from models.lib.checkpoint import (
    checkpoint_bytes,
    checkpoint_cost,
    mean_time_between_interruptions,
    optimal_interval,
    overhead_breakdown,
    restart_for_efficiency,
)
from models.lib.collectives import ring_all_gather_time, tree_depth, tree_time
from models.lib.goodput import goodput
from models.lib.sweeps import including
from models.units import HOUR, MINUTE

PARTS = ("detection", "rescheduling", "process restart", "communicator init", "metadata opens", "checkpoint load")
# unoptimized worst-case full restart, fast full restart (from storage), fast full restart from the in-memory
# copy, partial restart (one node)
WAYS = ("slow", "fast", "memory", "partial")


# --- the parts -------------------------------------------------------------------


def burst_queue_time(requests: float, rate: float, servers: int = 1) -> float:
    """Time (s) for `servers` FIFO servers, each serving `rate` requests/s, to clear a burst
    of `requests` that all arrive at once, spread evenly: the last one waits requests/(servers·rate).
    The mean request waits about half that."""
    if not (np.all(np.asarray(rate) > 0) and servers >= 1 and np.all(np.asarray(requests) >= 0)):
        raise ValueError("burst_queue_time: rate > 0, servers ≥ 1, requests ≥ 0")
    return requests / (servers * rate)


def metadata_time(ranks: int, files_per_rank: float, rate: float, shards: int = 1) -> float:
    """The stampede: `ranks` × `files_per_rank` opens on `shards` metadata servers at `rate` each."""
    return burst_queue_time(ranks * files_per_rank, rate, shards)


def state_per_rank(model_params: float, weight_bytes: float, optimizer_bytes: float,
                   ranks: int, data_parallel: int) -> tuple[float, float]:
    """(weight bytes, optimizer bytes) one rank must hold: weights replicated across the
    data-parallel replicas (split over the p/D model-parallel shards), optimizer state over all p."""
    return model_params * weight_bytes / (ranks / data_parallel), model_params * optimizer_bytes / ranks


def load_from_storage(model_params: float, weight_bytes: float, optimizer_bytes: float, ranks: int,
                      data_parallel: int, read_bandwidth: float, nic_bandwidth: float) -> dict:
    """Every rank reads its own weights and optimizer shard from storage.

    Storage serves D·Ψ·w + Ψ·o bytes at B_s; each rank's NIC caps its own read. The slower bounds it."""
    w, o = state_per_rank(model_params, weight_bytes, optimizer_bytes, ranks, data_parallel)
    volume = data_parallel * model_params * weight_bytes + model_params * optimizer_bytes
    storage, nic = volume / read_bandwidth, (w + o) / nic_bandwidth
    return {"time": max(storage, nic), "volume": volume, "storage_bound": storage, "nic_bound": nic}


def broadcast_time(nbytes: float, ranks: int, bandwidth: float, alpha: float) -> float:
    """A pipelined binary-tree broadcast of `nbytes` to `ranks` ranks: the broadcast half of
    NCCL's double-binary-tree all-reduce (`tree_time`: (D + k − 1)(α + n/(kB)), best k)."""
    if ranks < 2:
        return 0.0
    return float(tree_time(nbytes, ranks, bandwidth, alpha)) / 2.0


def load_with_broadcast(model_params: float, weight_bytes: float, optimizer_bytes: float, ranks: int,
                        data_parallel: int, read_bandwidth: float, nic_bandwidth: float,
                        alpha: float, from_storage: bool = True) -> dict:
    """One reader per model-parallel shard fetches the weights, then a tree broadcasts them to the
    D − 1 other replicas; every rank reads its own optimizer shard. Storage serves Ψ·(w + o).
    With `from_storage=False` the state is already in host memory (an in-memory snapshot): only
    the broadcast remains. Read, then broadcast: no overlap is assumed."""
    w, o = state_per_rank(model_params, weight_bytes, optimizer_bytes, ranks, data_parallel)
    volume = model_params * (weight_bytes + optimizer_bytes)
    storage, nic = volume / read_bandwidth, (w + o) / nic_bandwidth
    read = max(storage, nic) if from_storage else 0.0
    bcast = broadcast_time(w, data_parallel, nic_bandwidth, alpha)
    return {"time": read + bcast, "read": read, "broadcast": bcast, "volume": volume if from_storage else 0.0,
            "storage_bound": storage, "nic_bound": nic, "tree_depth": tree_depth(data_parallel)}


def load_sharded(model_params: float, weight_bytes: float, optimizer_bytes: float, ranks: int,
                 data_parallel: int, read_bandwidth: float, nic_bandwidth: float, alpha: float) -> dict:
    """Every rank reads a disjoint slice: its optimizer shard and 1/D of its model-parallel shard's weights
    (the layout an FSDP-sharded checkpoint has). Storage serves Ψ·(w + o), each byte once, as with one reader
    per shard, but no rank waits for a reader. If the weights stay sharded (FSDP's full sharding) the load
    ends there; if every replica needs the whole shard, a ring all-gather over the D replicas follows."""
    w, o = state_per_rank(model_params, weight_bytes, optimizer_bytes, ranks, data_parallel)
    volume = model_params * (weight_bytes + optimizer_bytes)
    storage, nic = volume / read_bandwidth, (w / data_parallel + o) / nic_bandwidth
    read = max(storage, nic)
    gather = float(ring_all_gather_time(w, data_parallel, nic_bandwidth, alpha))
    return {"time": read, "read": read, "gather": gather, "replicated": read + gather, "volume": volume,
            "storage_bound": storage, "nic_bound": nic}


def load_from_peer(model_params: float, weight_bytes: float, optimizer_bytes: float, ranks: int,
                   data_parallel: int, nic_bandwidth: float, alpha: float) -> float:
    """A replacement rank copies its state from a peer's in-memory copy: its weights (held by every
    other data-parallel replica) and its optimizer shard, one transfer through its own NIC. Every
    rank of the node copies at once, each through its own NIC, so the node takes as long as one rank."""
    w, o = state_per_rank(model_params, weight_bytes, optimizer_bytes, ranks, data_parallel)
    return alpha + (w + o) / nic_bandwidth


def hang_detect_time(timeout_steps: int, step: float, localisation: float) -> float:
    """Detection of a hang with heartbeats on: a rank stuck in a collective keeps its process, so its heartbeats
    go on and only a progress watchdog notices, after k step times with no step finished (at most k steps from
    the hang: the timer runs from the last progress), plus the time to find which rank hung."""
    if timeout_steps < 1 or step <= 0 or localisation < 0:
        raise ValueError("hang_detect_time: k ≥ 1 steps, step > 0, localisation ≥ 0")
    return timeout_steps * step + localisation


def direct_goodput(delta: float, tau: float, mtbf: float, restart, lost):
    """Goodput counted directly, to first order in (R + L)/M: checkpoints written every τ at δ each leave
    τ/(τ + δ) of the running time useful, and each failure (one per M of wall time) costs its restart R and
    its lost work L: G ≈ τ/(τ + δ)·(1 − (R + L)/M). With L = τ*/2 it is Daly's `goodput` to first order; with
    L = half a step it is the restart from the per-step copy, which Daly's curve (lost work τ*/2) does not fit."""
    return tau / (tau + delta) * (1.0 - (np.asarray(restart, dtype=float) + lost) / mtbf)


def partial_design(share, partial: float, fallback: float):
    """A per-failure quantity (MTTR, R + L, GPU-hours) of the partial-restart design, averaged over the record:
    a share c of failures take the partial restart, the rest the full-restart fallback: c·partial + (1 − c)·fallback.
    `direct_goodput` is linear in R + L, so the design's goodput is the same mix of the two goodputs."""
    c = np.asarray(share, dtype=float)
    if np.any((c < 0) | (c > 1)):
        raise ValueError("partial_design: the coverable share lies in [0, 1]")
    return c * partial + (1.0 - c) * fallback


def mixed_goodput(delta: float, mtbf: float, r_hang: float, r_crash: float, hang_share):
    """Goodput when a share h of failures are hangs (restart r_hang) and the rest crashes (r_crash).

    In Daly's model each failure costs the expected time to finish a restart, retried while new failures
    interrupt it; with a fixed R that is M(e^{R/M} − 1), which is where goodput's e^{−R/M} comes from.
    If every failure (also one during a restart) is a hang with probability h, independently, the retried
    restart costs M(1 − E[e^{−R/M}])/E[e^{−R/M}], so goodput is G₀·E[e^{−R/M}]: the share-weighted mean
    of the two goodputs, h·G(r_hang) + (1 − h)·G(r_crash). The one R giving the same goodput
    (`effective_restart`) is −M·ln E[e^{−R/M}], a little under the mean R (Jensen)."""
    h = np.asarray(hang_share, dtype=float)
    if np.any((h < 0) | (h > 1)):
        raise ValueError("mixed_goodput: the share of hangs lies in [0, 1]")
    return h * goodput(delta, mtbf, r_hang) + (1.0 - h) * goodput(delta, mtbf, r_crash)


def effective_restart(mtbf: float, r_hang: float, r_crash: float, hang_share):
    """The single R with the mix's goodput: −M·ln(h·e^{−r_hang/M} + (1 − h)·e^{−r_crash/M})."""
    h = np.asarray(hang_share, dtype=float)
    return -mtbf * np.log(h * np.exp(-r_hang / mtbf) + (1.0 - h) * np.exp(-r_crash / mtbf))


def hang_share_for_target(target: float, delta: float, mtbf: float, r_hang: float, r_crash: float) -> float:
    """The largest share of hangs with which the mix still reaches `target` goodput (clipped to [0, 1]):
    the mix is linear in h, so h* = (G(r_crash) − target)/(G(r_crash) − G(r_hang))."""
    g_hang, g_crash = float(goodput(delta, mtbf, r_hang)), float(goodput(delta, mtbf, r_crash))
    if g_crash <= g_hang:
        raise ValueError("hang_share_for_target: a hang must cost more than a crash")
    return float(min(1.0, max(0.0, (g_crash - target) / (g_crash - g_hang))))


# --- the scene's data ---------------------------------------------------------------


@model(
    observation_window=Param.positive("s", "length of the run's failure record"),
    interruptions=Param.integer("count", "unexpected interruptions in that record", minimum=1),
    full_restart_interruptions=Param.numbers("count", "the record's interruptions a one-node partial restart cannot "
                                                      "cover (Table 5: software bug, dependency, network "
                                                      "switch/cable, NCCL watchdog timeouts)", minimum=0),
    storage_restart_interruptions=Param.numbers("count", "the record's interruptions whose per-step copy may be "
                                                         "bad, restarted from storage (Table 5: silent data "
                                                         "corruption)", minimum=0),
    model_params=Param.positive("count", "model parameters"),
    weight_bytes=Param.positive("B", "bytes per parameter, 16-bit weights (replicated across data parallel)"),
    optimizer_bytes=Param.number("B", "bytes per parameter, optimizer state (sharded over all ranks)", minimum=0),
    checkpoint_bandwidth=Param.positive("B/s", "checkpoint write bandwidth, aggregate"),
    peak_bandwidth=Param.positive("B/s", "storage fabric's peak throughput, aggregate (the δ sweep's fast end)"),
    read_bandwidth=Param.positive("B/s", "checkpoint read bandwidth from storage, aggregate"),
    gpus=Param.integer("count", "ranks (GPUs) in the job", minimum=2, maximum=10_000_000),
    gpus_per_node=Param.integer("count", "GPUs (ranks) per node: what one node failure takes out", minimum=1),
    # from 2: the partial restart copies the lost weights from another data-parallel replica (the per-step copy
    # holds only the optimizer shards); with one replica no peer holds them
    data_parallel=Param.integer("count", "data-parallel replicas", minimum=2),
    nic_bandwidth=Param.positive("B/s", "network bandwidth per GPU, per direction"),
    step_latency=Param.positive("s", "per-step network latency of a tree stage (NCCL's model)"),
    tokens_per_batch=Param.positive("count", "tokens in one global batch (one step)"),
    flops_per_gpu=Param.positive("FLOP/s", "achieved model FLOP/s per GPU"),
    flops_per_param_token=Param.positive("FLOP", "training FLOPs per parameter per token"),
    layers=Param.integer("count", "transformer layers"),
    model_dim=Param.integer("count", "model width"),
    sequence_length=Param.integer("count", "tokens per sequence"),
    slow_detection=Param.positive("s", "detection of a hang without health checks: the NCCL collective timeout"),
    crash_detection=Param.positive("s", "detection of a crash without health checks: the launcher sees the process "
                                        "exit (assumed)"),
    fast_detection=Param.positive("s", "detection of a crash with heartbeats (assumed)"),
    # a rank hung inside a collective keeps its process, and with it its heartbeats: only a progress watchdog
    # catches it (no step finished for k step times), and then the hung rank must be found
    progress_timeout_steps=Param.integer("count", "steps without progress before a hang is declared (assumed)",
                                         minimum=1, maximum=20),
    hang_localisation=Param.number("s", "finding the hung rank once the progress timeout fires (assumed)",
                                   minimum=0),
    slow_reschedule=Param.positive("s", "requeue and start a replacement node (assumed)"),
    fast_reschedule=Param.positive("s", "swap in a warm spare node (assumed)"),
    process_restart=Param.number("s", "restart every rank's process: container, imports, CUDA context, "
                                      "model build, first-step warm-up; not NCCL set-up, which T_init counts "
                                      "(assumed)", minimum=0),
    # MegaScale's figures were read second-hand (the paper itself was not reachable): the descriptions say so,
    # since the parameter table prints them next to the numbers
    fast_init_small=Param.positive("s", "communicator initialization after MegaScale's optimizations on 2,048 GPUs, "
                                        "under (second-hand; the set-up sweep's low end)"),
    slow_init=Param.positive("s", "communicator initialization, legacy default TCPStore (MegaScale, 2,048 GPUs; "
                                  "second-hand)"),
    fast_init=Param.positive("s", "communicator initialization, optimized (MegaScale, >10,000 GPUs, under; "
                                  "second-hand)"),
    redis_init=Param.positive("s", "communicator initialization with Redis (MegaScale, 2,048 GPUs; second-hand)"),
    init_measured_gpus=Param.integer("count", "GPUs in MegaScale's TCPStore and Redis measurements (second-hand)"),
    fast_init_gpus=Param.integer("count", "GPUs in MegaScale's optimized measurement (more than; second-hand)"),
    current_init=Param.positive("s", "store initialization with PyTorch's libuv TCPStore, the default since 2.4 "
                                     "(measured at more ranks; store only)"),
    current_init_ranks=Param.integer("count", "ranks in that libuv TCPStore measurement"),
    files_per_rank=Param.positive("count", "metadata lookups (opens, stats, failed lookups) each rank sends on "
                                           "restart, environment local (assumed)"),
    shared_env_lookups=Param.positive("count", "the same with the Python environment on the shared file system "
                                               "(assumed, from an strace of one import of numpy, matplotlib, yaml)"),
    mds_rate=Param.positive("count", "file opens per second one metadata server serves (assumed)"),
    mds_rate_low=Param.positive("count", "metadata rate, low end of the measured range (file creates)"),
    mds_rate_high=Param.positive("count", "metadata rate, high end of the measured range (file stats)"),
    metadata_shards=Param.integer("count", "metadata servers in the sharded layout (assumed)"),
    # above 0: at a share of 0 no restart time is long enough to explain it (the inversion divides by it)
    reported_efficiency=Param.number("1", "reported effective training time (Llama 3)", above=0.0, maximum=1.0),
    planned_interruptions=Param.integer("count", "planned interruptions in the record, left out of M (each costs "
                                                 "one restart against the reported share)", minimum=0),
    reported_restore_time=Param.positive("s", "published restore time (FlashRecovery)"),
    reported_restore_devices=Param.integer("count", "devices in that restore"),
    # above 0, as the reported efficiency: the R a share of 0 allows is unbounded
    reported_ettr=Param.number("1", "published effective training time ratio (ByteRobust)", above=0.0,
                               maximum=1.0),
    scene10_restart=Param.number("s", "restart time scene 10 assumed", minimum=0),
    animation_ranks=Param.integer("count", "ranks drawn in the stampede", minimum=8, maximum=64, animation=True),
)
def checkpoint_recovery(observation_window: float, interruptions: float, full_restart_interruptions: list,
                        model_params: float,
                        weight_bytes: float, optimizer_bytes: float, checkpoint_bandwidth: float,
                        read_bandwidth: float, peak_bandwidth: float, progress_timeout_steps: int,
                        hang_localisation: float, gpus: int, gpus_per_node: int, data_parallel: int,
                        nic_bandwidth: float, step_latency: float, tokens_per_batch: float, flops_per_gpu: float,
                        flops_per_param_token: float, layers: int, model_dim: int, sequence_length: int,
                        slow_detection: float, crash_detection: float, fast_detection: float,
                        slow_reschedule: float,
                        fast_reschedule: float, process_restart: float, slow_init: float, fast_init: float,
                        redis_init: float, init_measured_gpus: int, fast_init_gpus: int,
                        current_init: float, current_init_ranks: int,
                        files_per_rank: float, mds_rate: float, mds_rate_low: float, mds_rate_high: float,
                        metadata_shards: int, reported_efficiency: float, reported_restore_time: float,
                        reported_restore_devices: int, reported_ettr: float, scene10_restart: float,
                        animation_ranks: int, fast_init_small: float, planned_interruptions: int = 0,
                        storage_restart_interruptions: list = (), shared_env_lookups: float = 3100.0) -> Exhibit:
    """The scene's data: MTTR as a sum of parts for the unoptimized worst case, the fast and the partial restart,
    the metadata stampede and its sensitivity, and goodput versus MTTR (Daly's model, models/lib/goodput.py)."""
    p, D = int(gpus), int(data_parallel)
    if p % D:
        raise ParamError("data_parallel", data_parallel, f"a divisor of the ranks ({p})")
    if not mds_rate_low <= mds_rate <= mds_rate_high:
        raise ParamError("mds_rate", mds_rate, f"within the measured range [{mds_rate_low:g}, {mds_rate_high:g}]")
    if sum(full_restart_interruptions) + sum(storage_restart_interruptions) > interruptions:
        raise ParamError("full_restart_interruptions", full_restart_interruptions, f"at most {interruptions} in all "
                         "with the storage restarts")
    # the share of the record's failures that one node's swap cures and whose per-step copy is sound: what a
    # partial restart can handle. The rest fall back to a full restart: from the in-memory copy, or from
    # storage where the copy itself may be bad (silent data corruption)
    n_memory, n_storage = float(sum(full_restart_interruptions)), float(sum(storage_restart_interruptions))
    coverable = 1.0 - (n_memory + n_storage) / float(interruptions)
    storage_of_fallback = n_storage / (n_memory + n_storage) if n_memory + n_storage > 0 else 0.0
    mtbf = mean_time_between_interruptions(observation_window, interruptions)
    ckpt = checkpoint_bytes(model_params, weight_bytes, optimizer_bytes)
    delta = checkpoint_cost(ckpt, checkpoint_bandwidth)
    tau = optimal_interval(delta, mtbf)
    # the step as every scene counts it (models/scenario_facts.py): 6N plus attention over the context
    step = scenario_facts.training_step(model_params, tokens_per_batch, p, flops_per_gpu, layers, model_dim,
                                        sequence_length, flops_per_param_token)["step_time"]

    # a hang, which heartbeats miss, is caught by the progress watchdog and then localised: the fast recoveries'
    # headline detection (the page's convention: one figure for a failure kind is the hang's)
    hang_detection = hang_detect_time(progress_timeout_steps, step, hang_localisation)
    parts = _recovery_parts(p, D, model_params, weight_bytes, optimizer_bytes, read_bandwidth, nic_bandwidth,
                            step_latency, slow_detection, hang_detection, slow_reschedule, fast_reschedule,
                            process_restart, slow_init, fast_init, files_per_rank, mds_rate, metadata_shards,
                            current_init, crash_detection, fast_detection)
    # the R the reported share allows, as daly-checkpoint computes it (models/scenario_facts.py): with the
    # record's planned stops at one R each, and without them (the convention of the goodput curve here)
    limits = scenario_facts.restart_limits(reported_efficiency, delta, mtbf, int(planned_interruptions),
                                           float(observation_window))
    gp = _goodput_at_mttr(delta, mtbf, tau, parts, limits, scene10_restart, step)
    gp["fallback"] = _fallback(parts, gp, storage_of_fallback)
    # the current default's hang/crash mix that just reaches the report's share (the goodput curve's convention:
    # planned stops left out)
    gp["hang_share_for_reported"] = hang_share_for_target(reported_efficiency, delta, mtbf, parts["mttr_current"],
                                                          parts["mttr_current_crash"])
    blast = _blast_radius(parts, gp, p, int(gpus_per_node))
    _check_claims(parts, gp, blast, p, files_per_rank, mds_rate, mds_rate_low, mds_rate_high, metadata_shards,
                  reported_efficiency, reported_ettr, reported_restore_time, slow_init, redis_init, fast_init,
                  init_measured_gpus, fast_init_gpus)
    summary = _summary(parts, gp, blast, mtbf, ckpt, delta, tau, p, D, files_per_rank, mds_rate_low,
                       mds_rate_high, model_params, weight_bytes, optimizer_bytes, step, nic_bandwidth)
    problems = _worked_problems(parts, p, files_per_rank, mds_rate, metadata_shards, observation_window, mtbf,
                                reported_ettr, delta, interruptions)
    summary.update(_direct(parts, gp, delta, tau, mtbf, fast_init, reported_ettr, coverable))
    gp["goodput_partial_at_tau"] = summary["goodput_partial"]
    summary.update(_reoptimised(parts, gp, delta, tau, mtbf, coverable, n_storage / float(interruptions)))
    summary.update(_low_ends(parts, blast, fast_init_small))
    # a crashed node's margin under the minute, and how far a hung node's headline is over it (the takeaway's
    # verdict names both)
    summary["partial_margin"] = MINUTE - parts["mttr_partial_crash"]
    summary["partial_overrun"] = parts["mttr_partial"] - MINUTE
    # the peer copy runs at the NIC's full rate (an assumption: contention or protocol overhead would slow it);
    # at a share of it the copy grows, but every sub-minute verdict stays as it is
    peer_slow = load_from_peer(model_params, weight_bytes, optimizer_bytes, p, D, PEER_NIC_SHARE * nic_bandwidth,
                               step_latency)
    check(parts["mttr_partial_crash"] + peer_slow - parts["peer"] < MINUTE < parts["mttr_partial"]
          and parts["mttr_partial"] + peer_slow - parts["peer"] < problems["ettr"]["restart"] and peer_slow < 1.0,
          "at half the NIC's rate the peer copy changes no verdict: a crashed node still comes back in under a "
          "minute, a hung one still does not, the partial restart still meets ByteRobust's share, and the copy "
          "still takes under a second")
    summary.update(peer_nic_share=PEER_NIC_SHARE, partial_checkpoint_load_slow_nic=peer_slow)
    # the second-hand set-up figure's weight in the headline
    summary["init_share_partial"] = parts["partial"]["communicator init"] / parts["mttr_partial"]
    summary["metadata_checkpoint_only"] = metadata_time(p, CHECKPOINT_ONLY_FILES, mds_rate)
    summary.update(_stampede_cases(parts, p, shared_env_lookups, mds_rate, metadata_shards, slow_init))
    summary["storage_restart_interruptions"] = n_storage
    summary["storage_restart_share"] = n_storage / float(interruptions)
    summary["memory_restart_share"] = n_memory / float(interruptions)
    summary["mttr_fallback"] = gp["fallback"]["mttr"]
    # GPU-hours per failure over the record: a node's failures at the partial restart's, the rest at the full
    # restart's from the in-memory copy
    summary["full_restart_interruptions"] = float(sum(full_restart_interruptions))
    summary["gpu_hours_per_failure_partial_mean"] = float(partial_design(
        coverable, blast["gpu_hours"]["partial"], p * (gp["fallback"]["mttr"] + gp["fallback"]["lost"]) / HOUR))
    summary.update(_ettr_g0(mtbf, reported_ettr, float(summary["goodput_zero"])))
    check(summary["mttr_partial_mean"] < problems["ettr"]["restart"],
          "averaged over the record's failures, the partial-restart design is still under the R ByteRobust's "
          "ETTR allows")
    records = {"parts": [{"part": k, **{w: parts[w][k] for w in WAYS}} for k in PARTS],
               "process_sweep": _process_sweep(parts, delta, mtbf, problems["ettr"]["restart"]),
               "hang_sweep": _hang_sweep(parts, delta, mtbf, reported_efficiency),
               "init_sweep": _init_sweep(parts, gp, delta, tau, mtbf, fast_init_small, fast_init, coverable),
               "coverable_sweep": _coverable_sweep(parts, gp, delta, tau, mtbf, coverable, p),
               "files_sweep": _files_sweep(parts, p, files_per_rank, mds_rate, metadata_shards, shared_env_lookups,
                                           summary["lookups_crossover"]),
               "warmup_sweep": _warmup_sweep(parts, gp, delta, tau, mtbf, coverable),
               "timeout_sweep": _timeout_sweep(parts, gp, delta, tau, mtbf, coverable, step,
                                               int(progress_timeout_steps)),
               "ettr_sweep": _ettr_sweep(parts, delta, mtbf, reported_ettr, checkpoint_bandwidth / peak_bandwidth),
               scenario_facts.RECORD: scenario_facts.published(
                   step_time=step, **limits,
                   **scenario_facts.checkpoint_state(model_params, weight_bytes, optimizer_bytes, p))}
    # the headline's range over the page's own sweeps of its four soft spots (the set-up, the spare's warm-up,
    # the progress timeout and the localisation), moved together: the one-at-a-time rows lie inside it
    records["combined"] = _combined(parts, fast_init_small, fast_init, step, int(progress_timeout_steps),
                                    float(hang_localisation), records["warmup_sweep"])
    span = [r["mttr_partial"] for r in records["combined"]]
    one_at_a_time = [r["mttr_partial"] for k in ("init_sweep", "warmup_sweep", "timeout_sweep") for r in records[k]]
    summary["mttr_partial_low"], summary["mttr_partial_high"] = min(span), max(span)
    check(min(span) <= min(one_at_a_time) and max(one_at_a_time) <= max(span),
          "the sweeps moved together bound every one-at-a-time row")
    summary["hang_detection"] = parts["partial"]["detection"]
    summary["mttr_partial_crash"] = parts["mttr_partial_crash"]
    summary["mttr_fast_crash"] = parts["mttr_fast_crash"]
    summary["mttr_partial_combined_high"] = records["combined"][-2]["mttr_partial"]
    # the full restart's parts other than the process restart: after a hang (the timeout) they alone are over a
    # minute, after a crash (heartbeats) they leave the processes a second or so
    summary["mttr_fast_without_process"] = parts["mttr_fast"] - parts["fast"]["process restart"]
    summary["process_budget_fast_crash"] = MINUTE - (parts["mttr_fast_crash"] - parts["fast"]["process restart"])
    check(summary["process_budget_fast"] < 0.0 < summary["process_budget_fast_crash"] < 10.0,
          "after a hang no process restart, however short, brings a full restart under a minute; after a crash "
          "only one of a few seconds")
    return Exhibit(summary=summary,
                   series=_series(delta, mtbf, gp, parts, p, files_per_rank, mds_rate_low, mds_rate_high,
                                  metadata_shards),
                   table=_table(parts, gp, blast),
                   animation=_animation_plan(parts, animation_ranks, metadata_shards, int(gpus_per_node),
                                             int(interruptions)),
                   problems=problems, records=records)


# --- the recipe's steps ---------------------------------------------------------------


def _recovery_parts(p: int, D: int, model_params: float, weight_bytes: float, optimizer_bytes: float,
                    read_bandwidth: float, nic_bandwidth: float, step_latency: float, slow_detection: float,
                    fast_detection: float, slow_reschedule: float, fast_reschedule: float, process_restart: float,
                    slow_init: float, fast_init: float, files_per_rank: float, mds_rate: float,
                    metadata_shards: int, current_init: float, crash_detection: float,
                    heartbeat_detection: float) -> dict:
    """The parts of the recovery, three ways: the unoptimized worst-case full restart, the fast full restart, and the
    partial restart in which only the replacement node reloads (from a peer's memory, not from storage)."""
    meta_one = metadata_time(p, files_per_rank, mds_rate)
    meta_sharded = metadata_time(p, files_per_rank, mds_rate, metadata_shards)
    every = load_from_storage(model_params, weight_bytes, optimizer_bytes, p, D, read_bandwidth, nic_bandwidth)
    tree = load_with_broadcast(model_params, weight_bytes, optimizer_bytes, p, D, read_bandwidth,
                               nic_bandwidth, step_latency)
    memory = load_with_broadcast(model_params, weight_bytes, optimizer_bytes, p, D, read_bandwidth,
                                 nic_bandwidth, step_latency, from_storage=False)
    peer = load_from_peer(model_params, weight_bytes, optimizer_bytes, p, D, nic_bandwidth, step_latency)
    sharded = load_sharded(model_params, weight_bytes, optimizer_bytes, p, D, read_bandwidth, nic_bandwidth,
                           step_latency)
    slow = dict(zip(PARTS, (slow_detection, slow_reschedule, process_restart, slow_init, meta_one, every["time"]),
                    strict=True))
    fast = dict(zip(PARTS, (fast_detection, fast_reschedule, process_restart, fast_init, meta_sharded, tree["time"]),
                    strict=True))
    # the same full restart, but the state comes from the per-step in-memory copy the partial restart relies
    # on: only the broadcast is left of the load. The processes still restart and import their libraries,
    # so the metadata opens stay.
    from_memory = {**fast, "checkpoint load": memory["time"]}
    # the healthy ranks keep their processes; the warm spare's process is already up (it waits, as in
    # ByteRobust's and FlashRecovery's standbys); no checkpoint file is opened: the state comes from a peer.
    # Every communicator that held the failed rank is rebuilt: MegaScale's whole-job figure is used.
    partial = dict(zip(PARTS, (fast_detection, fast_reschedule, 0.0, fast_init, 0.0, peer), strict=True))
    ways = {"slow": slow, "fast": fast, "memory": from_memory, "partial": partial}
    # a current default, not the worst case: the same as the worst case but with PyTorch's libuv store (the
    # default since 2.4) in place of the legacy TCPStore
    current = {**slow, "communicator init": current_init}
    # Both are hangs: the NCCL timeout (slow_detection) is their detection, the right cost when a rank stops
    # answering and nobody notices until the watchdog fires. A crash (a process exits) is seen by the launcher
    # at once and does not wait for the timeout: the same recoveries with crash_detection in its place.
    slow_crash = {**slow, "detection": crash_detection}
    current_crash = {**current, "detection": crash_detection}
    # the fast recoveries' `fast_detection` argument is a hang's (progress timeout + localisation); a crash stops
    # the heartbeats and is seen in `heartbeat_detection`
    fast_crash = {**fast, "detection": heartbeat_detection}
    partial_crash = {**partial, "detection": heartbeat_detection}
    return {"meta_one": meta_one, "meta_sharded": meta_sharded, "every": every, "tree": tree,
            "memory_load": memory, "peer": peer, "sharded": sharded, **ways, "current": current,
            "slow_crash": slow_crash, "current_crash": current_crash, "fast_crash": fast_crash,
            "partial_crash": partial_crash,
            "mttr_current": sum(current.values()), "mttr_slow_crash": sum(slow_crash.values()),
            "mttr_current_crash": sum(current_crash.values()), "mttr_fast_crash": sum(fast_crash.values()),
            "mttr_partial_crash": sum(partial_crash.values()),
            **{f"mttr_{w}": sum(ways[w].values()) for w in WAYS}}


# the parts of the worst-case recovery a source measured or this model computes (the rest are assumptions)
MEASURED_PARTS = ("communicator init", "metadata opens", "checkpoint load")


def measured_floor(way: dict) -> float:
    """The sum of a recovery's measured or modelled parts: its MTTR with every assumed part at zero."""
    return sum(way[k] for k in MEASURED_PARTS)


def _goodput_at_mttr(delta: float, mtbf: float, tau: float, parts: dict, limits: dict,
                     scene10_restart: float, step: float) -> dict:
    """Goodput (Daly's model with R = MTTR) for each full restart, and the work one failure throws away."""
    mttr_slow, mttr_fast = parts["mttr_slow"], parts["mttr_fast"]
    g_slow, g_fast = float(goodput(delta, mtbf, mttr_slow)), float(goodput(delta, mtbf, mttr_fast))
    g_zero = float(goodput(delta, mtbf, 0.0))
    g_scene10 = float(goodput(delta, mtbf, scene10_restart))
    g_current = float(goodput(delta, mtbf, parts["mttr_current"]))
    g_current_crash = float(goodput(delta, mtbf, parts["mttr_current_crash"]))
    g_slow_crash = float(goodput(delta, mtbf, parts["mttr_slow_crash"]))
    parts0 = overhead_breakdown(tau, delta, mtbf, 0.0, tau)  # one segment: per-failure lost work
    lost_per_failure = float(parts0["lost"] / parts0["failures"])
    return {"slow": g_slow, "fast": g_fast, "zero": g_zero, "scene10": g_scene10, "current": g_current,
            "current_crash": g_current_crash, "slow_crash": g_slow_crash,
            "r_reported": limits["restart_for_reported"],
            "r_reported_unplanned": limits["restart_for_reported_unplanned"],
            "lost_per_failure": lost_per_failure, "lost_partial": step / 2.0, "step": step,
            "failures_per_day": 86400.0 / mtbf}


def _blast_radius(parts: dict, gp: dict, p: int, gpus_per_node: int) -> dict:
    """Who reloads, and what one failure costs in GPU-hours: every rank waits out the MTTR and redoes the
    lost work, whichever ranks reload. A full restart from a checkpoint loses τ*/2 on average; a restart from
    the per-step in-memory copy (full or partial) redoes the interrupted step, half a step on average.
    The saving of the partial restart over the fast full restart splits in two: the copy (fast → memory)
    and keeping the healthy processes alive (memory → partial)."""
    lost = {"slow": gp["lost_per_failure"], "fast": gp["lost_per_failure"], "memory": gp["lost_partial"],
            "partial": gp["lost_partial"]}
    per_failure = {w: p * (parts[f"mttr_{w}"] + lost[w]) / HOUR for w in WAYS}
    # how much of the detection + swap the partial restart can spend and stay under a minute
    fixed = parts["mttr_partial"] - parts["partial"]["detection"] - parts["partial"]["rescheduling"]
    return {"reload_ranks": {"slow": p, "fast": p, "partial": gpus_per_node}, "gpu_hours": per_failure,
            "wait_budget_partial": MINUTE - fixed,
            "process_budget_fast": MINUTE - (parts["mttr_fast"] - parts["fast"]["process restart"]),
            # the two largest parts of a full restart together: what the processes and the set-up may take
            # between them for it to come back in a minute (the page's "no full restart" rests on this)
            "joint_budget_fast": MINUTE - (parts["mttr_fast"] - parts["fast"]["process restart"]
                                           - parts["fast"]["communicator init"]),
            "joint_budget_memory": MINUTE - (parts["mttr_memory"] - parts["memory"]["process restart"]
                                             - parts["memory"]["communicator init"]),
            "saved_by_copy": per_failure["fast"] - per_failure["memory"],
            "saved_by_live_processes": per_failure["memory"] - per_failure["partial"]}


def _check_claims(parts: dict, gp: dict, blast: dict, p: int, files_per_rank: float, mds_rate: float,
                  mds_rate_low: float, mds_rate_high: float, metadata_shards: int, reported_efficiency: float,
                  reported_ettr: float, reported_restore_time: float, slow_init: float, redis_init: float,
                  fast_init: float, init_measured_gpus: int, fast_init_gpus: int) -> None:
    """The page's worded claims."""
    slow, fast, partial, every, tree = parts["slow"], parts["fast"], parts["partial"], parts["every"], parts["tree"]
    mttr_slow, mttr_fast, mttr_partial = parts["mttr_slow"], parts["mttr_fast"], parts["mttr_partial"]
    meta_one = parts["meta_one"]
    g_slow, g_fast, g_zero = gp["slow"], gp["fast"], gp["zero"]
    check(parts["mttr_partial_crash"] < MINUTE < mttr_partial,
          "a crashed node's partial restart comes back in under a minute; a hung node's, caught by the progress "
          "timeout, does not")
    check(mttr_fast > MINUTE, "a full restart of every rank does not come back in under a minute")
    check(mttr_slow > 20 * MINUTE, "the unoptimized worst case takes more than 20 minutes")
    check(init_measured_gpus < p and fast_init_gpus < p,
          "MegaScale measured on fewer GPUs than this job has: at 16,384 ranks the values are likely low")
    check(fast_init < redis_init < slow_init, "Redis beat TCPStore, and the optimized set-up beat both")
    check(slow["communicator init"] == max(slow.values()), "communicator set-up is the largest part of the worst case")
    check(slow["detection"] + slow["rescheduling"] + slow["communicator init"] > 0.8 * mttr_slow,
          "the NCCL timeout, the fresh node and the TCPStore set-up are most of the worst-case recovery")
    check(meta_one == metadata_shards * parts["meta_sharded"], "sharding the metadata divides the queue by the shards")
    check(meta_one > fast["detection"], "one metadata server makes the restart wait longer than detection does")
    check(metadata_time(p, files_per_rank, mds_rate_high) < meta_one < metadata_time(p, files_per_rank, mds_rate_low),
          "the assumed rate lies inside the measured range")
    check(every["storage_bound"] > every["nic_bound"],
          "when every rank reads from storage, storage bandwidth (not the NICs) bounds the load")
    check(tree["time"] < every["time"] / 10, "one reader per shard plus a broadcast tree loads ten times faster")
    check(tree["broadcast"] < tree["read"], "the broadcast costs less than the one unavoidable read")
    check(parts["sharded"]["time"] < tree["time"],
          "a sharded read (each replica reads its own slice) beats one reader per shard plus a tree: the tree "
          "wins only against every replica re-reading the weights")
    check(parts["memory_load"]["time"] < tree["time"], "a snapshot already in host memory needs only the broadcast")
    check(parts["peer"] < 1.0, "copying one node's state from a peer takes under a second")
    check(fast["communicator init"] + fast["process restart"] > 0.5 * mttr_fast,
          "restarting the processes and rebuilding the communicators are most of the fast full restart")
    check(partial["communicator init"] == max(partial.values()) and partial["communicator init"] > 0.5 * (
          parts["mttr_partial_crash"]), "rebuilding the communicators is the largest part of the partial restart, "
          "and most of a crashed node's")
    check(g_slow < g_fast < g_zero, "goodput falls as the MTTR grows")
    check(g_slow < reported_efficiency <= g_fast,
          "the worst-case recovery falls below the report's effective training time; the fast restart clears it")
    check(gp["r_reported"] < mttr_slow, "the worst-case MTTR is above the largest R that reaches the report's share")
    check(measured_floor(slow) > gp["r_reported_unplanned"],
          "the worst case's measured and modelled parts alone (TCPStore set-up, metadata opens, load) exceed the "
          "limit for the report's share: the verdict does not rest on the assumed detection, requeue or process "
          "restart")
    check(parts["mttr_current_crash"] < gp["r_reported"] <= gp["r_reported_unplanned"] < parts["mttr_current"],
          "with the libuv store a crash is inside the limit for the report's share, planned stops counted or not; "
          "a hang, which waits out the NCCL timeout, is over it")
    check(gp["slow_crash"] < reported_efficiency,
          "the unoptimized worst case falls below the report's share even if every failure is a crash")
    check(math.isclose(parts["mttr_current"] - parts["mttr_current_crash"],
                       slow["detection"] - parts["current_crash"]["detection"]),
          "a hang and a crash differ only in detection")
    check(0.0 < gp["hang_share_for_reported"] < 1.0,
          "with the libuv store the report's share is reached below some share of hangs, not at every share")
    check(mttr_fast < gp["r_reported"] <= gp["r_reported_unplanned"],
          "the fast full restart is inside the limit, with the planned stops counted and without them")
    check(g_zero - g_fast < 0.02, "with the fast full restart goodput is within two points of the bound set by "
                                  "checkpoint writes and lost work alone")
    check(mttr_partial < mttr_fast < reported_restore_time < mttr_slow,
          "FlashRecovery's published restore time is longer than both fast recoveries modelled here")
    check(abs(gp["lost_per_failure"] - mttr_fast) < 0.1 * mttr_fast,
          "after the fast full restart, lost work costs about as much per failure as the restart")
    gh = blast["gpu_hours"]
    check(gh["partial"] < gh["memory"] < gh["fast"],
          "from the same in-memory copy, the partial restart still costs fewer GPU-hours than a full restart")
    check(blast["saved_by_copy"] > blast["saved_by_live_processes"],
          "most of the saving over the fast full restart comes from the per-step copy, not from keeping the "
          "healthy processes alive")
    check(parts["mttr_memory"] > MINUTE, "a full restart from the in-memory copy still takes over a minute")
    check(blast["process_budget_fast"] < 10.0,
          "a full restart would need every process back in under ten seconds to come back in a minute")


def _summary(parts: dict, gp: dict, blast: dict, mtbf: float, ckpt: float, delta: float, tau: float, p: int,
             D: int, files_per_rank: float, mds_rate_low: float, mds_rate_high: float, model_params: float,
             weight_bytes: float, optimizer_bytes: float, step: float, nic_bandwidth: float) -> dict:
    """The numbers the page and the scene quote."""
    every, tree = parts["every"], parts["tree"]
    mttr_slow, mttr_fast = parts["mttr_slow"], parts["mttr_fast"]
    w_rank, o_rank = state_per_rank(model_params, weight_bytes, optimizer_bytes, p, D)
    state = scenario_facts.checkpoint_state(model_params, weight_bytes, optimizer_bytes, p)
    per_gpu = state["checkpoint_bytes_per_gpu"]
    # the weights are written once, spread over the D replicas: on average each GPU writes its optimizer
    # shard plus 1/D of its model-parallel shard's weights
    check(math.isclose(o_rank + w_rank / D, per_gpu, rel_tol=1e-12),
          "each rank's optimizer shard plus its share of the weights is the per-GPU checkpoint of scene 10")
    gh = blast["gpu_hours"]
    # keeping the copy current: each rank sends its optimizer shard to a peer once a step (its weights are
    # already held by the other data-parallel replicas)
    copy_rate = o_rank / step
    check(copy_rate / nic_bandwidth < 0.01, "keeping the in-memory copy current takes under 1% of a NIC")
    return {
        "mtbf": mtbf,
        "checkpoint_bytes": ckpt,
        "checkpoint_cost": delta,
        "optimal_interval": tau,
        "lost_per_failure": gp["lost_per_failure"],
        "lost_partial": gp["lost_partial"],
        "step_time": step,
        "failures_per_day": gp["failures_per_day"],
        "mttr_slow": mttr_slow,
        "mttr_fast": mttr_fast,
        "mttr_partial": parts["mttr_partial"],
        "mttr_memory": parts["mttr_memory"],
        "mttr_slow_measured_parts": measured_floor(parts["slow"]),
        "copy_bytes_per_step": o_rank,
        "copy_rate": copy_rate,
        "copy_nic_share": copy_rate / nic_bandwidth,
        **{f"{w}_{k.replace(' ', '_')}": parts[w][k] for w in WAYS for k in PARTS},
        "metadata_opens": p * files_per_rank,
        # the typical case beside it: every file cached per node (the node's ranks import the same libraries)
        # (the queue is linear in the opens: one server's wait scaled from ranks to nodes)
        "metadata_per_node": parts["meta_one"] * math.ceil(p / blast["reload_ranks"]["partial"]) / p,
        "metadata_low_rate_time": metadata_time(p, files_per_rank, mds_rate_low),
        "metadata_high_rate_time": metadata_time(p, files_per_rank, mds_rate_high),
        "weights_per_rank": w_rank,
        "optimizer_per_rank": o_rank,
        "state_per_rank": w_rank + o_rank,
        "weights_written_per_rank": w_rank / D,
        "checkpoint_bytes_per_gpu": per_gpu,
        "model_parallel_shards": p // D,
        "storage_volume_every_rank": every["volume"],
        "storage_volume_readers": tree["volume"],
        "load_every_nic_bound": every["nic_bound"],
        "load_read": tree["read"],
        "load_broadcast": tree["broadcast"],
        "load_memory": parts["memory_load"]["time"],
        "broadcast_depth": tree["tree_depth"],
        "reload_ranks_partial": blast["reload_ranks"]["partial"],
        "wait_budget_partial": blast["wait_budget_partial"],
        "process_budget_fast": blast["process_budget_fast"],
        "joint_budget_fast": blast["joint_budget_fast"],
        "joint_budget_memory": blast["joint_budget_memory"],
        # the stampede's share of the worst case: the card leads with it, the takeaway weighs it
        "metadata_share_slow": parts["slow"]["metadata opens"] / mttr_slow,
        "goodput_slow": gp["slow"],
        "goodput_fast": gp["fast"],
        "goodput_zero": gp["zero"],
        "goodput_scene10": gp["scene10"],
        "restart_for_reported": gp["r_reported"],
        "restart_for_reported_unplanned": gp["r_reported_unplanned"],
        "gpu_hours_per_failure_slow": gh["slow"],
        "gpu_hours_per_failure_fast": gh["fast"],
        "gpu_hours_per_failure_partial": gh["partial"],
        "gpu_hours_per_failure_memory": gh["memory"],
        "gpu_hours_saved_by_copy": blast["saved_by_copy"],
        "gpu_hours_saved_by_live_processes": blast["saved_by_live_processes"],
        "gpu_hours_saved_partial": gh["fast"] - gh["partial"],
        "gpu_hours_saved_per_day": p * (mttr_slow - mttr_fast) * gp["failures_per_day"] / HOUR,
        "load_tree": tree["time"],
        "load_sharded": parts["sharded"]["time"],
        "load_sharded_nic_bound": parts["sharded"]["nic_bound"],
        "load_sharded_gather": parts["sharded"]["gather"],
        "load_sharded_replicated": parts["sharded"]["replicated"],
        "load_tree_over_sharded": tree["time"] - parts["sharded"]["time"],
        "storage_reread_factor": every["volume"] / tree["volume"],
        "mttr_current": parts["mttr_current"],
        "mttr_current_measured_parts": measured_floor(parts["current"]),
        "current_communicator_init": parts["current"]["communicator init"],
        "goodput_current": gp["current"],
        "gpu_hours_per_failure_current": p * (parts["mttr_current"] + gp["lost_per_failure"]) / HOUR,
        "gpu_hours_saved_per_day_current": p * (parts["mttr_current"] - mttr_fast) * gp["failures_per_day"] / HOUR,
        # a crash the launcher sees at once, beside the hang above (only detection differs)
        "mttr_current_crash": parts["mttr_current_crash"],
        "goodput_current_crash": gp["current_crash"],
        "gpu_hours_per_failure_current_crash": p * (parts["mttr_current_crash"] + gp["lost_per_failure"]) / HOUR,
        "mttr_slow_crash": parts["mttr_slow_crash"],
        "goodput_slow_crash": gp["slow_crash"],
        "hang_share_for_reported": gp["hang_share_for_reported"],
    }


def _worked_problems(parts: dict, p: int, files_per_rank: float, mds_rate: float, metadata_shards: int,
                     observation_window: float, mtbf: float, reported_ettr: float, delta: float,
                     interruptions: float) -> dict:
    """Twice the lookups per rank, the GPU-hours the fast restart saves, and the R that ByteRobust's ETTR allows."""
    mttr_slow, mttr_fast = parts["mttr_slow"], parts["mttr_fast"]
    double_files = metadata_time(p, 2 * files_per_rank, mds_rate)
    hosts = p * (mttr_slow - mttr_fast) * (observation_window / mtbf) / HOUR
    hosts_current = p * (parts["mttr_current"] - mttr_fast) * (observation_window / mtbf) / HOUR
    r_ettr = restart_for_efficiency(reported_ettr, delta, mtbf)
    check(parts["mttr_partial"] < r_ettr < mttr_fast, "the fast full restart's MTTR is above the R that "
                                                      "ByteRobust's ETTR allows; the partial restart's is below it")
    # the assumed process restart decides this: the largest one with which the fast full restart still meets it
    process_budget = r_ettr - (mttr_fast - parts["fast"]["process restart"])
    check(0 < process_budget < parts["fast"]["process restart"],
          "the fast full restart misses ByteRobust's share only because of the assumed process restart")
    return {
        "double_files": {"time": double_files, "sharded": double_files / metadata_shards},
        "snapshot": {"gpu_hours_saved": hosts, "gpu_hours_saved_current": hosts_current,
                     "interruptions": float(interruptions)},
        "ettr": {"restart": r_ettr, "process_budget": process_budget},
    }


# the assumed process restart, as multiples of its assumed value: the largest assumed part, swept
PROCESS_SWEEP = (0.25, 0.5, 1.0, 2.0)


def _process_sweep(parts: dict, delta: float, mtbf: float, r_ettr: float) -> list[dict]:
    """The fast full restart with the process restart at a quarter, half, once and twice its assumed value
    (the partial restart has none, so it does not move)."""
    assumed = parts["fast"]["process restart"]
    rows = []
    for factor in PROCESS_SWEEP:
        mttr = parts["mttr_fast"] + (factor - 1.0) * assumed
        rows.append({"process_restart": factor * assumed, "mttr_fast": mttr,
                     "goodput_fast": float(goodput(delta, mtbf, mttr)), "meets_ettr": bool(mttr <= r_ettr)})
    return rows


def _direct(parts: dict, gp: dict, delta: float, tau: float, mtbf: float, fast_init: float,
            reported_ettr: float, coverable: float) -> dict:
    """Goodput of the two restarts from the per-step copy, counted directly (`direct_goodput`: Daly's curve
    charges τ*/2 of lost work, they lose half a step), the partial-restart design over the record's failures
    (a share `coverable` partial, the rest full restarts), and the set-up budget of the partial restart."""
    lost_full, lost_step = gp["lost_per_failure"], gp["lost_partial"]
    g_node = float(direct_goodput(delta, tau, mtbf, parts["mttr_partial"], lost_step))
    g_memory = float(direct_goodput(delta, tau, mtbf, parts["mttr_memory"], lost_step))
    g_fast_direct = float(direct_goodput(delta, tau, mtbf, parts["mttr_fast"], lost_full))
    fb = gp["fallback"]
    g_fallback = float(direct_goodput(delta, tau, mtbf, fb["mttr"], fb["lost"]))
    # the failures a node swap cannot cure restart every rank, from the same in-memory copy (half a step lost),
    # those whose copy may be bad from storage (`_fallback`); if every copy were lost with them, all from storage
    # (the fast full restart, τ*/2 lost)
    g_partial = float(partial_design(coverable, g_node, g_fallback))
    g_storage = float(partial_design(coverable, g_node, g_fast_direct))
    mttr_mean = float(partial_design(coverable, parts["mttr_partial"], fb["mttr"]))
    # the durable checkpoints are still written at τ*: the copy covers one node's loss, not every failure
    check(abs(g_fast_direct - gp["fast"]) < 1e-3,
          "counted directly, the fast full restart's goodput is Daly's to within a tenth of a point")
    # above G₀ (which charges τ*/2 of lost work per failure), below the share checkpoint writes alone leave
    check(gp["fast"] < g_memory < g_partial < g_node < tau / (tau + delta),
          "the restarts from the per-step copy keep more goodput than the fast full restart from storage; the "
          "failures a partial restart cannot cover pull the design below its every-failure-a-node figure")
    check(g_partial > gp["zero"], "the partial restart beats the bound of every full restart from a checkpoint")
    check(g_partial > reported_ettr, "the partial restart's goodput is above ByteRobust's share")
    check(g_storage > gp["fast"], "even with a fallback from storage the design keeps more than the fast full restart")
    check(parts["mttr_partial_crash"] < MINUTE < parts["mttr_partial"] < mttr_mean,
          "a crashed node comes back in under a minute; a hung one does not, nor the design's mean over the record")
    # how long the communicator set-up may take with the partial restart still under a minute: a hang, a crash
    budget = MINUTE - (parts["mttr_partial"] - parts["partial"]["communicator init"])
    budget_crash = MINUTE - (parts["mttr_partial_crash"] - parts["partial_crash"]["communicator init"])
    check(budget < fast_init < budget_crash < 2.0 * fast_init,
          "with MegaScale's set-up figure a crashed node's partial restart stays under a minute, a hung node's does "
          "not; with twice the figure neither does")
    return {"goodput_partial": g_partial, "goodput_partial_node": g_node, "goodput_partial_storage": g_storage,
            "goodput_memory": g_memory, "goodput_fast_direct": g_fast_direct, "coverable_share": coverable,
            "full_restart_share": 1.0 - coverable, "mttr_partial_mean": mttr_mean,
            "cost_per_failure_partial": parts["mttr_partial"] + lost_step, "init_budget_partial": budget,
            "init_budget_partial_crash": budget_crash}


def durable_lost(tau, delta: float, rollback_mtbf: float):
    """Work lost per rollback to the durable checkpoint, written every τ at δ each, when rollbacks come one per
    `rollback_mtbf` (Daly's lost time per failure, `overhead_breakdown`: M − L/(e^{L/M} − 1) with L = τ + δ,
    about L/2 when L ≪ M)."""
    b = overhead_breakdown(tau, delta, rollback_mtbf, 0.0, tau)
    return b["lost"] / b["failures"]


def _reoptimised(parts: dict, gp: dict, delta: float, tau: float, mtbf: float, coverable: float,
                 storage_share: float) -> dict:
    """The partial-restart design with its durable checkpoint re-spaced. Only the failures restarted from storage
    (a share q of all: silent data corruption) roll back to it; the rest restore from the per-step copy and lose
    half a step whatever the durable interval. So goodput, τ/(τ + δ)·(1 − Σ shareᵢ(Rᵢ + Lᵢ)/M) with the storage
    share's L the rollback's lost work at interval τ (`durable_lost`, rollbacks one per M/q), is maximised far
    beyond scene 10's τ* (every failure a rollback): near Young's √(2δM/q). Found on a fine log grid."""
    q = float(storage_share)
    m_share = 1.0 - coverable - q
    step_cost = (coverable * (parts["mttr_partial"] + gp["lost_partial"])
                 + m_share * (parts["mttr_memory"] + gp["lost_partial"]) + q * parts["mttr_fast"])
    check(q > 0.0, "some of the record's failures roll back to the durable checkpoint")
    if q <= 0.0:
        # no rollbacks: goodput grows with the interval without bound; nothing to re-space (the claim above says so)
        g_tau = float(tau / (tau + delta) * (1.0 - step_cost / mtbf))
        return {"durable_interval_design": tau, "durable_interval_young": tau, "goodput_partial_reoptimised": g_tau,
                "durable_interval_ratio": 1.0}
    taus = np.logspace(math.log10(tau), math.log10(mtbf / q), 4001)
    g = taus / (taus + delta) * (1.0 - (step_cost + q * durable_lost(taus, delta, mtbf / q)) / mtbf)
    best = int(np.argmax(g))
    young = math.sqrt(2.0 * delta * mtbf / q)
    check(0 < best < len(taus) - 1, "the design's goodput has an interior optimum in the durable interval")
    check(abs(taus[best] / young - 1.0) < 0.05,
          "the design's best durable interval is Young's √(2δM/q), with only the storage restarts as rollbacks")
    at_tau = float(tau / (tau + delta) * (1.0 - (step_cost + q * float(durable_lost(tau, delta, mtbf / q))) / mtbf))
    check(abs(at_tau - gp["goodput_partial_at_tau"]) < 1e-5,
          "at scene 10's τ* this count is the design's goodput the page quotes")
    check(g[best] - at_tau > 0.005,
          "re-spacing the durable checkpoint for the design gains more than half a point of goodput: the figure "
          "at scene 10's τ* is a lower bound")
    return {"durable_interval_design": float(taus[best]), "durable_interval_young": young,
            "goodput_partial_reoptimised": float(g[best]), "durable_interval_ratio": float(taus[best] / tau)}


# the coverable share swept: every failure a node's (today's figure before the record was read) and half;
# the record's own share is added (`including`)
COVERABLE_SHARES = (0.5, 1.0)


def _coverable_sweep(parts: dict, gp: dict, delta: float, tau: float, mtbf: float, coverable: float,
                     p: int) -> list[dict]:
    """The partial-restart design with a share c of failures covered by the partial restart, the rest by the full
    restart from the in-memory copy (or, last column, from storage): mean MTTR, goodput, GPU-hours per failure."""
    g_node = float(direct_goodput(delta, tau, mtbf, parts["mttr_partial"], gp["lost_partial"]))
    fb = gp["fallback"]
    g_memory = float(direct_goodput(delta, tau, mtbf, fb["mttr"], fb["lost"]))
    g_fast = float(direct_goodput(delta, tau, mtbf, parts["mttr_fast"], gp["lost_per_failure"]))
    gh_node = p * (parts["mttr_partial"] + gp["lost_partial"]) / HOUR
    gh_memory = p * (fb["mttr"] + fb["lost"]) / HOUR
    rows = []
    for c in sorted(including(COVERABLE_SHARES, coverable), reverse=True):
        rows.append({"share": float(c), "is_record": bool(math.isclose(c, coverable)),
                     "mttr_mean": float(partial_design(c, parts["mttr_partial"], fb["mttr"])),
                     "goodput": float(partial_design(c, g_node, g_memory)),
                     "goodput_storage": float(partial_design(c, g_node, g_fast)),
                     "gpu_hours": float(partial_design(c, gh_node, gh_memory))})
    return rows


def _init_sweep(parts: dict, gp: dict, delta: float, tau: float, mtbf: float, fast_init_small: float,
                fast_init: float, coverable: float) -> list[dict]:
    """The two fast recoveries with the communicator set-up at MegaScale's two optimized figures (both upper
    bounds: 'under'), halfway between, and twice the larger: the largest part of the partial restart, swept.
    The partial design's goodput is at the record's coverable share (its fallback, the full restart from the
    in-memory copy, rebuilds the same communicators, so it shifts by the same seconds)."""
    rows = []
    for init in (fast_init_small, fast_init / 2.0, fast_init, 2.0 * fast_init):
        shift = init - parts["partial"]["communicator init"]
        mttr_partial = parts["mttr_partial"] + shift
        g_node = float(direct_goodput(delta, tau, mtbf, mttr_partial, gp["lost_partial"]))
        g_memory = float(direct_goodput(delta, tau, mtbf, gp["fallback"]["mttr"] + shift, gp["fallback"]["lost"]))
        crash = parts["mttr_partial_crash"] + shift
        rows.append({"init": init, "mttr_partial": mttr_partial, "mttr_fast": parts["mttr_fast"] + shift,
                     "goodput_partial": float(partial_design(coverable, g_node, g_memory)),
                     "partial_under_minute": bool(mttr_partial < MINUTE), "mttr_partial_crash": crash,
                     "crash_under_minute": bool(crash < MINUTE)})
    check(rows[0]["partial_under_minute"] and not rows[2]["partial_under_minute"] and rows[2]["crash_under_minute"]
          and not rows[-1]["crash_under_minute"],
          "a hung node's partial restart is under a minute at MegaScale's small-job set-up figure, not at the "
          "large-job one; a crashed node's is under a minute at both, not at twice the larger")
    return rows


# the metadata lookups (opens, stats, failed lookups) each rank sends, swept over four decades: the stampede is
# linear in them. The assumed count, the shared-environment count and the crossover are added (`including`)
FILES_SWEEP = (2.0, 1_000.0, 10_000.0)
# the sweep's low end: the checkpoint's own files alone (a rank's shard and its index), for an environment that
# comes from the local container image and reads nothing else from the parallel file system
CHECKPOINT_ONLY_FILES = FILES_SWEEP[0]


def _stampede_cases(parts: dict, p: int, shared_env_lookups: float, mds_rate: float, shards: int,
                    slow_init: float) -> dict:
    """The stampede with the Python environment on the shared file system, and the lookups per rank at which one
    server's stampede equals the TCPStore set-up (p·f/μ = T_init: f = T_init·μ/p), the worst case's largest part."""
    one, sharded = metadata_time(p, shared_env_lookups, mds_rate), metadata_time(p, shared_env_lookups, mds_rate,
                                                                                 shards)
    mttr = parts["mttr_slow"] + one - parts["slow"]["metadata opens"]
    crossover = slow_init * mds_rate / p
    check(one > MINUTE > sharded,
          "with the environment on the shared file system one metadata server's stampede takes minutes; a sharded "
          "namespace brings it under a minute")
    check(shared_env_lookups < crossover < FILES_SWEEP[-1],
          "the stampede on one server would equal the TCPStore set-up at a lookup count inside the sweep, above "
          "the shared environment's")
    return {"metadata_shared_env": one, "metadata_shared_env_sharded": sharded, "mttr_slow_shared_env": mttr,
            "metadata_share_shared_env": one / mttr, "lookups_crossover": crossover,
            "lookups_crossover_sharded": crossover * shards}


def _files_sweep(parts: dict, p: int, files_per_rank: float, mds_rate: float, shards: int,
                 shared_env_lookups: float, crossover: float) -> list[dict]:
    """The stampede and the two full restarts from the checkpoint's files alone to 10⁴ lookups per rank, with the
    assumed count, the shared environment's and the crossover (the partial restart opens none: it does not move)."""
    cases = {float(files_per_rank): "assumed (headline)", float(shared_env_lookups): "environment on the shared FS",
             float(crossover): "stampede = TCPStore set-up", CHECKPOINT_ONLY_FILES: "checkpoint files only"}
    rows = []
    for f in map(float, sorted(including(FILES_SWEEP, files_per_rank, shared_env_lookups, crossover))):
        one, sharded = metadata_time(p, f, mds_rate), metadata_time(p, f, mds_rate, shards)
        mttr_slow = parts["mttr_slow"] + one - parts["slow"]["metadata opens"]
        rows.append({"files_per_rank": f, "case": cases.get(f, ""), "metadata_one": one, "metadata_sharded": sharded,
                     "mttr_slow": mttr_slow, "share_slow": one / mttr_slow,
                     "mttr_fast": parts["mttr_fast"] + sharded - parts["fast"]["metadata opens"]})
    return rows


def _fallback(parts: dict, gp: dict, storage_share: float) -> dict:
    """The full restart a failure the partial restart cannot cover gets: from the in-memory copy (half a step lost),
    or, for a share `storage_share` of them whose copy may be bad, the fast full restart from storage (τ*/2 lost).
    Its mean MTTR R and lost work L; goodput is linear in R + L, so the mean carries through."""
    q = float(storage_share)
    return {"mttr": (1.0 - q) * parts["mttr_memory"] + q * parts["mttr_fast"],
            "lost": (1.0 - q) * gp["lost_partial"] + q * gp["lost_per_failure"], "storage_share": q}


# the spare's own warm-up (its process waits, but its CUDA context, model build and first step may not be done)
# plus aborting the hung communicators on the healthy ranks, seconds: assumed, none in the headline; swept
WARMUP_SWEEP = (0.0, 10.0, 30.0)


def _warmup_sweep(parts: dict, gp: dict, delta: float, tau: float, mtbf: float, coverable: float) -> list[dict]:
    """The partial restart, and the design's mean over the record, with a spare warm-up + abort term added to the
    partial restart (its fallback, a full restart, starts every process anew and aborts nothing, so it does not
    move). The headline is the first row: none."""
    fb = gp["fallback"]
    g_memory = float(direct_goodput(delta, tau, mtbf, fb["mttr"], fb["lost"]))
    rows = []
    for extra in WARMUP_SWEEP:
        mttr = parts["mttr_partial"] + extra
        g_node = float(direct_goodput(delta, tau, mtbf, mttr, gp["lost_partial"]))
        rows.append({"warmup": extra, "mttr_partial": mttr, "partial_under_minute": bool(mttr < MINUTE),
                     "mttr_partial_crash": parts["mttr_partial_crash"] + extra,
                     "crash_under_minute": bool(parts["mttr_partial_crash"] + extra < MINUTE),
                     "mttr_mean": float(partial_design(coverable, mttr, fb["mttr"])),
                     "goodput_partial": float(partial_design(coverable, g_node, g_memory))})
    check(rows[0]["warmup"] == 0.0 and rows[0]["crash_under_minute"] and not rows[1]["crash_under_minute"],
          "the headline assumes no spare warm-up and no abort; ten seconds of them put even a crashed node's "
          "partial restart over a minute")
    return rows


def _low_ends(parts: dict, blast: dict, fast_init_small: float) -> dict:
    """The fast full restart with both assumptions at their sweeps' low ends together: a quarter of the assumed
    process restart and MegaScale's small-job set-up figure. (Checked after the worked problems: a process
    restart under ByteRobust's budget is named by that claim first.)"""
    check(blast["joint_budget_fast"] < blast["joint_budget_memory"] < parts["fast"]["process restart"],
          "with the assumed process restart no full restart comes back in under a minute: the assumption alone "
          "is over the time the processes and the set-up may take together")
    mttr = (parts["mttr_fast"] + (PROCESS_SWEEP[0] - 1.0) * parts["fast"]["process restart"]
            + fast_init_small - parts["fast"]["communicator init"])
    check(mttr < MINUTE, "with both sweeps' low ends together a full restart would come back in under a minute")
    return {"mttr_fast_low_ends": mttr, "process_restart_low": PROCESS_SWEEP[0] * parts["fast"]["process restart"]}


# the peer copy's share of the NIC's rate, beside the full rate the model assumes: half (the page says no verdict moves)
PEER_NIC_SHARE = 0.5
# the progress timeout in steps: from two (one step is a hair-trigger: any slow step fires it) to ten, where the
# timeout alone is over a minute; the assumed k is added
TIMEOUT_STEPS = (2, 3, 5, 10)
# the time to find the hung rank once the timeout fires (every rank of the collective waits alike), seconds: no
# source gives it, so from the assumed 5 s to a minute; swept in the combined table (`_combined`)
LOCALISATION_SWEEP = (5.0, 15.0, 30.0, 60.0)


def _timeout_sweep(parts: dict, gp: dict, delta: float, tau: float, mtbf: float, coverable: float, step: float,
                   timeout_steps: int) -> list[dict]:
    """The hung node's partial restart, and the design's mean and goodput over the record, as the progress timeout
    goes from two steps to ten: each step more adds one step time to the detection of a hang, in every fast
    recovery (the design's fallback, a full restart from the in-memory copy, waits for the same timeout)."""
    fb = gp["fallback"]
    rows = []
    for k in sorted(including(TIMEOUT_STEPS, timeout_steps)):
        shift = (k - timeout_steps) * step
        mttr = parts["mttr_partial"] + shift
        g_node = float(direct_goodput(delta, tau, mtbf, mttr, gp["lost_partial"]))
        g_memory = float(direct_goodput(delta, tau, mtbf, fb["mttr"] + shift, fb["lost"]))
        rows.append({"steps": int(k), "is_assumed": bool(k == timeout_steps),
                     "detection": parts["partial"]["detection"] + shift, "mttr_partial": mttr,
                     "partial_under_minute": bool(mttr < MINUTE),
                     "mttr_mean": float(partial_design(coverable, mttr, fb["mttr"] + shift)),
                     "goodput_partial": float(partial_design(coverable, g_node, g_memory))})
    check(rows[0]["steps"] == 2 and not any(r["partial_under_minute"] for r in rows)
          and rows[-1]["steps"] * step > MINUTE,
          "with MegaScale's set-up figure no progress timeout of two steps or more brings a hung node's partial "
          "restart under a minute; at ten steps the timeout alone is over a minute")
    return rows


def _combined(parts: dict, fast_init_small: float, fast_init: float, step: float, timeout_steps: int,
              localisation: float, warmup_rows: list[dict]) -> list[dict]:
    """The partial restart with the page's four soft spots (set-up, spare warm-up + abort, progress timeout and the
    time to find the hung rank) moved together: all at their low ends, the headline, the localisation swept with the
    rest at the headline, the set-up and the warm-up at their high ends, and all four at their high ends. The sweeps'
    one-at-a-time rows understate the spread; these rows bound it."""
    init_now = parts["partial"]["communicator init"]
    det_now = parts["partial"]["detection"]
    k_low, k_high = min(TIMEOUT_STEPS), max(TIMEOUT_STEPS)
    loc_low, loc_high = min(LOCALISATION_SWEEP), max(LOCALISATION_SWEEP)
    w_high = warmup_rows[-1]["warmup"]
    cases = [("every sweep at its low end", fast_init_small, 0.0, k_low, loc_low),
             ("headline", init_now, 0.0, timeout_steps, localisation)]
    cases += [(f"finding the hung rank takes {loc:g} s", init_now, 0.0, timeout_steps, loc)
              for loc in LOCALISATION_SWEEP if loc != localisation]
    cases += [("set-up and warm-up at their high ends", 2.0 * fast_init, w_high, timeout_steps, localisation),
              ("every sweep at its high end", 2.0 * fast_init, w_high, k_high, loc_high)]
    rows = []
    for name, init, w, k, loc in cases:
        det = hang_detect_time(k, step, loc)
        rows.append({"case": name, "init": init, "warmup": w, "steps": int(k), "localisation": loc,
                     "detection": det, "mttr_partial": parts["mttr_partial"] + (init - init_now) + w + (det - det_now)})
    loc_rows = [r for r in rows if r["case"].startswith("finding")]
    check(rows[0]["mttr_partial"] < MINUTE < rows[1]["mttr_partial"]
          and all(rows[1]["mttr_partial"] < r["mttr_partial"] for r in rows[2:])
          and rows[-1]["mttr_partial"] == max(r["mttr_partial"] for r in rows)
          and rows[-2]["mttr_partial"] > 2 * MINUTE and rows[-1]["mttr_partial"] > 3 * MINUTE,
          "with the sweeps moved together a hung node's partial restart runs from under a minute to over three; the "
          "set-up and the warm-up at their high ends alone put it over two minutes")
    check(loc_rows and loc_rows[-1]["localisation"] == loc_high
          and math.isclose(loc_rows[-1]["mttr_partial"] - rows[1]["mttr_partial"], loc_high - localisation),
          "finding the hung rank adds to the hang's recovery second for second")
    return rows


# ByteRobust's limit R = M·ln(G₀/E) with G₀ under a point above E: G₀ at two round values near its own
G0_PROBES = (0.975, 0.98)
# G₀ is set by the checkpoint write time δ. The report gives the fabric's throughput as 2 TB/s sustained and
# 7 TB/s peak, without saying whether either counts writes alone, so δ is swept: at the peak rate (the row's
# factor is sustained/peak, added by `_ettr_sweep`), at the sustained rate (the model's), at two thirds and at
# half of it (δ × 1.5, 2: a sustained figure that counts reads and writes together)
ETTR_DELTA_FACTORS = (1.0, 1.5, 2.0)


def _ettr_g0(mtbf: float, reported_ettr: float, g0: float) -> dict:
    """ByteRobust's limit at two round G₀ near the model's: how far the verdicts move with G₀."""
    low, high = (mtbf * math.log(g / reported_ettr) for g in G0_PROBES)
    check(low < MINUTE < high and g0 - G0_PROBES[0] < 0.005 and G0_PROBES[1] - g0 < 0.005,
          "G₀ within half a point below the model's puts ByteRobust's limit under a minute; within half a point "
          "above, over it")
    return {"g0_margin_ettr": g0 - reported_ettr, "g0_probe_low": G0_PROBES[0], "g0_probe_high": G0_PROBES[1],
            "restart_for_ettr_g0_low": low, "restart_for_ettr_g0_high": high}


def _ettr_sweep(parts: dict, delta: float, mtbf: float, reported_ettr: float, peak_factor: float) -> list[dict]:
    """ByteRobust's limit, and which recoveries meet it, as the checkpoint write time δ moves: a longer write
    lowers G₀ and with it the limit (no R at all once G₀ falls below the target). The first row writes at the
    fabric's peak rate (δ × `peak_factor`, the sustained rate over the peak)."""
    rows = []
    for factor in (peak_factor, *ETTR_DELTA_FACTORS):
        d = factor * delta
        g0 = float(goodput(d, mtbf, 0.0))
        # below the target no R reaches it: the row says so (`reachable`) and carries a limit of 0
        reachable = g0 > reported_ettr
        limit = mtbf * math.log(g0 / reported_ettr) if reachable else 0.0
        rows.append({"delta": d, "factor": factor, "is_peak": bool(factor == peak_factor),
                     "goodput_zero": g0, "restart_for_ettr": limit,
                     "reachable": bool(reachable), "fast_meets": bool(reachable and parts["mttr_fast"] <= limit),
                     "partial_meets": bool(reachable and parts["mttr_partial"] <= limit)})
    check(rows[0]["fast_meets"] and not rows[-1]["partial_meets"],
          "with the checkpoint written at the fabric's peak rate the fast full restart meets ByteRobust's share; "
          "written at half the sustained rate, not even the partial restart does")
    return rows


# the share of failures that are hangs (the rest crashes): the source gives no split, so both ends and between
HANG_SHARES = (0.0, 0.25, 0.5, 0.75, 1.0)


def _hang_sweep(parts: dict, delta: float, mtbf: float, reported_efficiency: float) -> list[dict]:
    """The current default and the worst case as the share of hangs goes from none (every failure a crash) to all."""
    rows = []
    for h in HANG_SHARES:
        g_current = float(mixed_goodput(delta, mtbf, parts["mttr_current"], parts["mttr_current_crash"], h))
        rows.append({
            "hang_share": h,
            "mttr_current": h * parts["mttr_current"] + (1.0 - h) * parts["mttr_current_crash"],
            "goodput_current": g_current,
            "goodput_slow": float(mixed_goodput(delta, mtbf, parts["mttr_slow"], parts["mttr_slow_crash"], h)),
            "current_meets_reported": bool(g_current >= reported_efficiency),
        })
    return rows


def _series(delta: float, mtbf: float, gp: dict, parts: dict, p: int, files_per_rank: float, mds_rate_low: float,
            mds_rate_high: float, metadata_shards: int) -> dict:
    """The figures' curves: goodput against MTTR, and the stampede against the metadata rate."""
    r_sweep = np.logspace(0, math.log10(max(2.0 * parts["mttr_slow"], 2.0 * gp["r_reported_unplanned"])), 121)
    g_sweep = goodput(delta, mtbf, r_sweep)
    mu = np.logspace(math.log10(mds_rate_low / 2), math.log10(mds_rate_high * 2), 81)
    meta_curve_one = metadata_time(p, files_per_rank, mu)
    meta_curve_sharded = metadata_time(p, files_per_rank, mu, metadata_shards)
    return {
        **curves("mttr", r_sweep, goodput=g_sweep),
        **curves("mds_rate", mu, metadata_one=meta_curve_one, metadata_sharded=meta_curve_sharded),
    }


# the seed of the record strip's tick positions (the animation's first beat): one fixed draw
RECORD_SEED = 12


def _animation_plan(parts: dict, animation_ranks: int, metadata_shards: int, gpus_per_node: int,
                    interruptions: int) -> dict:
    """The record as a strip of interruptions, a queue of ranks at one server, the fast restart, then the partial
    restart of one node. The strip draws the record's count at random times: the report gives no dates, and a
    Poisson process with that count in the window puts them uniformly (seeded, so every render agrees)."""
    ticks = np.sort(np.random.default_rng(RECORD_SEED).uniform(0.0, 1.0, int(interruptions)))
    return {
        "record_ticks": ticks.tolist(),
        "ranks": int(animation_ranks),
        "node_ranks": int(min(gpus_per_node, animation_ranks // 2)),
        "shards": int(min(metadata_shards, 4)),
        **{f"{w}_clock": np.cumsum([parts[w][k] for k in PARTS]).tolist() for w in WAYS},
        "tree_depth": int(parts["tree"]["tree_depth"]),
    }


def _table(parts: dict, gp: dict, blast: dict) -> Table:
    """The recovery part by part, four ways."""
    slow, fast, memory, partial = parts["slow"], parts["fast"], parts["memory"], parts["partial"]
    what = {"detection": "NCCL timeout → progress timeout + localisation (a hang)",
            "rescheduling": "requeue → warm spare",
            "process restart": "every rank → only the spare (already up)",
            "communicator init": "legacy TCPStore → MegaScale's optimized set-up",
            "metadata opens": "one server → sharded → none", "checkpoint load": "every rank reads → "
            "one reader + broadcast → broadcast from memory → one node copies from a peer"}
    rows = [[k, slow[k], fast[k], memory[k], partial[k], what[k]] for k in PARTS]
    rows += [
        ["MTTR (sum)", *(parts[f"mttr_{w}"] for w in WAYS), "—"],
        ["lost work per failure (not in MTTR)", gp["lost_per_failure"], gp["lost_per_failure"], gp["lost_partial"],
         gp["lost_partial"], "τ*/2 → half a step (the in-memory copy is a step old at most)"],
    ]
    return Table(
        "Recovery time of the 16,384-rank job, part by part: the unoptimized worst case and the fast full restart, "
        "the fast full "
        "restart from the in-memory copy, and the partial restart of one node",
        [Column("part", "text"), Column("unoptimized worst case", "s"), Column("fast full restart", "s"),
         Column("full restart, in-memory copy", "s"), Column("partial restart", "s"), Column("what changes", "text")],
        rows,
    )


__all__ = [
    "PARTS", "WAYS", "burst_queue_time", "metadata_time", "state_per_rank", "load_from_storage", "broadcast_time",
    "load_with_broadcast", "load_from_peer", "measured_floor", "partial_design", "checkpoint_recovery",
]
