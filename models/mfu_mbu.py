"""MFU, HFU and MBU: how much of the hardware is doing useful work?

Model FLOPs per token (PaLM, Chowdhery et al. 2022, Appendix B). A dense decoder
with N parameters, L layers, H heads of size Q, trained on sequences of T tokens:

    F_model = 6N + 12·L·H·Q·T

6N is the matmuls with the weights (forward 2N, backward 4N; Kaplan 2020). The
second term is self-attention over the context: QKᵀ and the attention-weighted
values, 2·T·H·Q FLOPs each per layer in the forward pass, ×3 with the backward.
Kaplan's Table 1 (`models.training.kaplan_attention_flops_per_token`) counts only the
QKᵀ product, half of PaLM's term; the test suite shows that only the PaLM count
reproduces PaLM's published 46.2%. PaLM's count is the one every scene of the
scenario uses (`models.training`, `models.scenario_facts`).

MFU = tokens/s × F_model / (chips × peak FLOP/s): the useful work a run did, per
second, over what the chips could do at their datasheet peak. Rematerialisation
(activation recomputation) repeats part of the forward pass, F_fwd = 2N + 4LHQT
per token, in the backward; HFU counts those FLOPs too:

    F_hw = F_model + r·F_fwd,   HFU = MFU · F_hw / F_model,   r ∈ [0, 1]

so MFU ≤ HFU ≤ (4/3)·MFU. Megatron-LM reports its throughput with full
recomputation (its eq. 3, 96Bslh²(1 + s/6h + V/16lh) per iteration): that is an HFU.

A training step, decomposed. The step's wall time T is split into shares that
add to one:

    useful  = MFU                         model FLOPs, as if run at peak
    recompute = HFU − MFU                 rematerialised FLOPs at peak
    bubble  = (p − 1)/(v·m + p − 1)        pipeline fill and drain (Narayanan 2021 §2.2:
                                          p stages, m micro-batches, v interleaved chunks)
    comm    = (1 − h)·C/T                 exposed communication: C the step's collectives and sends
                                          for the job packed as scene 14 packs it (`communication_times`,
                                          models/lib/placement.py; data parallelism as FSDP moves it,
                                          scene 14's ring all-reduce an upper estimate), h the share
                                          hidden behind compute (an assumption, swept from 0 to 1)
    memory  = memory-bound phases         an assumption (norms, softmax, optimizer, …), swept
    slow    = 1 − all of the above         matmul kernels running below peak (the residual)

The residual must not be negative: a schedule whose bubble alone leaves less time
than the published MFU needs cannot have produced it (`check`). The job's data-parallel
degree is the scenario's GPUs over TP·PP (`parallel_layout`), and the three assumptions
(v, h, the memory-bound share) are swept together on a grid (`joint_sweep`).

Whole-run utilisation: 6·N·D / (GPU-hours × 3600 × peak), the model FLOPs of the
whole pretraining over everything the GPUs could have done while the job held them.

MBU (Databricks 2023): in a decode step each sequence reads every weight once
(shared by the batch) and its own KV cache (`decode_bytes`, as hbm-roofline):

    MBU = bytes read per step / (step time × peak bandwidth)

Decode step time here: t(b) = max(bytes/(β·n·B), FLOPs/(β·n·Π)), both roofs at
the same kernel efficiency β (an assumption: Databricks' measured MBU), for a
model served on the fewest whole nodes whose HBM holds it (`serving_gpus`),
up to the largest batch whose KV caches fit.

The FLOP and bandwidth accounting (`model_flops_per_token`, `forward_flops_per_token`,
`hardware_flops_per_token`, `mfu`, `hfu`, `mbu`, `pipeline_bubble`, `whole_run_utilization`,
`megatron_flops_per_token`) is plain functions; the entry point, `utilization_accounting`, is a
recipe of steps: the scenario's step and its split, the sweeps, the whole run, the published runs
recomputed (PaLM, Megatron-LM, the MBU example), decode, and what the page reads.
"""

from __future__ import annotations

from types import SimpleNamespace

import numpy as np

from models import scenario_facts, training
from models.constants import const
from models.constants.products import GPU
from models.exhibit import Column, Exhibit, Param, ParamError, Table, check, curves, model
from models.lib import placement
from models.lib.decode import batch_that_fits, decode_bytes, decode_flops, kv_bytes_per_token, serving_gpus
from models.lib.nvlink import per_direction
from models.units import HOUR


def sci(x: float, digits: int = 3) -> str:
    """A large number as the page prints it: 3.79e25 -> '3.79 × 10²⁵'."""
    mant, exp = f"{x:.{digits - 1}e}".split("e")
    sup = str(int(exp)).translate(str.maketrans("-0123456789", "⁻⁰¹²³⁴⁵⁶⁷⁸⁹"))
    return f"{mant} × 10{sup}"


# --- FLOP accounting ------------------------------------------------------------


def model_flops_per_token(params: float, layers: int = 0, heads: int = 0, head_dim: int = 0,
                          context: int = 0) -> float:
    """PaLM's model FLOPs per training token: 6N + 12·L·H·Q·T (Appendix B).

    The attention term is QKᵀ and the weighted values, forward and backward
    (`training.model_flops_per_token`, by heads and head size). Leave the shape at 0 for 6N alone.
    """
    return training.model_flops_per_token(params, layers, heads * head_dim, context)


def forward_flops_per_token(params: float, layers: int = 0, heads: int = 0, head_dim: int = 0,
                            context: int = 0) -> float:
    """One forward pass per token, 2N + 4·L·H·Q·T: a third of the model FLOPs."""
    return model_flops_per_token(params, layers, heads, head_dim, context) / 3.0


def hardware_flops_per_token(params: float, layers: int = 0, heads: int = 0, head_dim: int = 0,
                             context: int = 0, recompute: float = 0.0) -> float:
    """FLOPs the hardware runs per token: the model's plus the recomputed share r of the forward."""
    if not 0.0 <= recompute <= 1.0:
        raise ValueError(f"recompute is the share of the forward pass recomputed, in [0, 1]: {recompute}")
    return (model_flops_per_token(params, layers, heads, head_dim, context)
            + recompute * forward_flops_per_token(params, layers, heads, head_dim, context))


def mfu(tokens_per_second: float, params: float, chips: float, peak: float, layers: int = 0,
        heads: int = 0, head_dim: int = 0, context: int = 0) -> float:
    """Model FLOPs utilisation: tokens/s × model FLOPs per token / (chips × peak FLOP/s)."""
    return tokens_per_second * model_flops_per_token(params, layers, heads, head_dim, context) / (chips * peak)


def hfu(tokens_per_second: float, params: float, chips: float, peak: float, layers: int = 0,
        heads: int = 0, head_dim: int = 0, context: int = 0, recompute: float = 0.0) -> float:
    """Hardware FLOPs utilisation: as MFU, with the recomputed forward FLOPs counted."""
    return (tokens_per_second * hardware_flops_per_token(params, layers, heads, head_dim, context, recompute)
            / (chips * peak))


def implied_recompute(mfu_value: float, hfu_value: float) -> float:
    """The share r of the forward pass recomputed that turns a published MFU into its HFU.

    HFU/MFU = 1 + r·F_fwd/F_model = 1 + r/3 (the forward is a third of the model FLOPs).
    """
    return 3.0 * (hfu_value / mfu_value - 1.0)


def megatron_flops_per_token(layers: int, hidden: int, sequence: int, vocabulary: int,
                             recompute: bool = True) -> float:
    """Megatron-LM's count per token (Narayanan et al. 2021, eq. 3 and its appendix).

    With full activation recomputation: 96·l·h²·(1 + s/6h + V/16lh) per sequence-token
    (eq. 3 divided by B·s); without it the transformer layers run three passes, not four:
    72·l·h²·(1 + s/6h) + 6·h·V (the logit layer is not recomputed).
    """
    n_l, h, s, v = float(layers), float(hidden), float(sequence), float(vocabulary)
    if recompute:
        return 96.0 * n_l * h**2 * (1 + s / (6 * h) + v / (16 * n_l * h))
    return 72.0 * n_l * h**2 * (1 + s / (6 * h)) + 6.0 * h * v


def pipeline_bubble(p: int, m: float) -> float:
    """Share of a pipelined step that stages sit idle: (p − 1)/(m + p − 1).

    p stages, m micro-batches (GPipe and 1F1B; Narayanan et al. 2021 §2.2.1). An
    interleaved schedule with v chunks per stage divides the bubble by v: pass m·v.
    """
    if p < 1 or m <= 0:
        raise ValueError(f"pipeline_bubble: need p ≥ 1 and m > 0, got p={p}, m={m}")
    return (p - 1.0) / (m + p - 1.0)


def whole_run_utilization(flops: float, gpu_hours: float, peak: float) -> float:
    """A run's model FLOPs over everything its GPUs could do while the job held them."""
    return flops / (gpu_hours * HOUR * peak)


def mbu(bytes_per_step: float, step_seconds: float, peak_bandwidth: float) -> float:
    """Model bandwidth utilisation: bytes read per decode step / (step time × peak bandwidth)."""
    return bytes_per_step / (step_seconds * peak_bandwidth)


def step_shares(mfu_value: float, hfu_value: float, bubble: float, comm: float, memory: float) -> dict:
    """The step's wall time in shares that add to one; `slow` is the residual (matmuls below peak)."""
    shares = {"useful": mfu_value, "recompute": hfu_value - mfu_value, "slow": 0.0, "memory": memory,
              "comm": comm, "bubble": bubble}
    shares["slow"] = 1.0 - sum(v for k, v in shares.items() if k != "slow")
    return shares


# --- the scene ---------------------------------------------------------------------

PARTS = ("useful", "recompute", "slow", "memory", "comm", "bubble")
PART_LABELS = {"useful": "useful model FLOPs at peak (MFU)", "recompute": "recomputed FLOPs (HFU − MFU)",
               "slow": "matmuls below peak", "memory": "memory-bound phases", "comm": "exposed communication",
               "bubble": "pipeline bubble"}

# The steps below take the model's inputs as one namespace `p` (p.layers, p.palm_chips, ...) and
# check the page's claims about their part in the order the page makes them.


# --- the scenario's step: Llama 3 405B on 16,384 H100s (Table 4) ------------------------------


def refuse_contradictions(p) -> None:
    """Settings that contradict each other: a head narrower than one dimension, key/value heads that do not
    split the query heads into whole groups, a throughput above the GPU's peak (an MFU above one), racks
    or pods that cut a node or a rack (the placement counts whole ones)."""
    if p.model_dim % p.attention_heads:
        raise ParamError("model_dim", p.model_dim,
                         f"a multiple of attention_heads ({p.attention_heads}): heads × a whole head size")
    if p.attention_heads % p.kv_heads:
        raise ParamError("kv_heads", p.kv_heads,
                         f"a divisor of attention_heads ({p.attention_heads}): each serves a whole group of query"
                         " heads")
    if p.flops_per_gpu > p.gpu.peak_bf16:
        raise ParamError("flops_per_gpu", p.flops_per_gpu,
                         f"at most the {p.gpu.name}'s dense BF16 peak, {p.gpu.peak_bf16:g} FLOP/s (an MFU of one)")
    if p.gemm_ceiling > p.gpu.peak_bf16:
        raise ParamError("gemm_ceiling", p.gemm_ceiling,
                         f"at most the {p.gpu.name}'s dense BF16 peak, {p.gpu.peak_bf16:g} FLOP/s: a measured matmul"
                         " cannot beat it")
    if p.gemm_ceiling_gh200 > p.gpu.peak_bf16:
        raise ParamError("gemm_ceiling_gh200", p.gemm_ceiling_gh200,
                         f"at most the {p.gpu.name}'s dense BF16 peak, {p.gpu.peak_bf16:g} FLOP/s, which the GH200"
                         " shares: a measured matmul cannot beat it")
    if p.long_context_tokens > p.training_tokens:
        raise ParamError("long_context_tokens", p.long_context_tokens,
                         f"at most the run's {p.training_tokens:g} pretraining tokens, of which they are a part")
    if p.long_context_max < p.sequence_length:
        raise ParamError("long_context_max", p.long_context_max,
                         f"at least the {p.sequence_length}-token context of the step it extends")
    if p.rack_gpus % p.node_gpus or p.pod_gpus % p.rack_gpus:
        raise ParamError("pod_gpus", p.pod_gpus, "a whole number of racks, each a whole number of nodes")


def training_step(p) -> dict:
    """Model FLOPs per token (with and without attention), the step time and its MFU and HFU."""
    peak = p.gpu.peak_bf16
    head_dim = p.model_dim // p.attention_heads
    shape = dict(layers=p.layers, heads=p.attention_heads, head_dim=head_dim, context=p.sequence_length)
    f_model = model_flops_per_token(p.model_params, **shape)
    f_6n = model_flops_per_token(p.model_params)
    # the published FLOP/s counts the model FLOPs (PaLM's definition, attention included): the
    # scenario's one step time (models/scenario_facts.py); 6N alone only to show what it leaves out
    facts = scenario_facts.training_step(p.model_params, p.tokens_per_batch, p.gpus, p.flops_per_gpu, p.layers,
                                         p.attention_heads * head_dim, p.sequence_length)
    t_step = facts["step_time"]
    t_step_6n = training.step_time(p.model_params, p.tokens_per_batch, p.gpus, p.flops_per_gpu)
    tokens_per_s = p.tokens_per_batch / t_step
    mfu_step = mfu(tokens_per_s, p.model_params, p.gpus, peak, **shape)
    hfu_step = hfu(tokens_per_s, p.model_params, p.gpus, peak, **shape, recompute=p.recompute)
    mfu_if_6n_counted = p.flops_per_gpu * f_model / f_6n / peak  # if Table 4's FLOP/s counted 6N only
    check(abs(mfu_step - p.flops_per_gpu / peak) < 1e-12, "MFU is the achieved model FLOP/s over the peak")
    check(abs(mfu_step - p.reported_mfu) < 0.01, "Table 4's MFU is its FLOP/s per GPU over the dense peak, "
          "to within the rounding of its figures")
    check(0 < mfu_step <= hfu_step <= 1, "0 < MFU ≤ HFU ≤ 1")
    return {"peak": peak, "head_dim": head_dim, "f_model": f_model, "f_6n": f_6n,
            "attention_share": facts["attention_share"], "t_step": t_step, "t_step_6n": t_step_6n, "facts": facts,
            "tokens_per_s": tokens_per_s, "mfu": mfu_step, "hfu": hfu_step, "mfu_if_6n_counted": mfu_if_6n_counted}


def parallel_layout(p) -> dict:
    """The job's data-parallel degree and sequences per data-parallel rank, from the scenario's GPUs,
    tensor and pipeline degrees, batch and sequence length: DP = GPUs / (TP·PP), so that
    TP × PP × DP is the job's GPUs under every scenario (Llama 3 405B: 16,384 / (8·16) = 128 ranks,
    16M tokens / (128 · 8,192) = 16 sequences each, as Table 4 prints)."""
    tp, pp, gpus = int(p.tensor_parallel), int(p.pipeline_parallel), int(p.gpus)
    if gpus % (tp * pp):
        raise ParamError("gpus", p.gpus, f"a multiple of tensor × pipeline parallelism ({tp * pp})")
    dp = gpus // (tp * pp)
    per_rank = p.tokens_per_batch / (p.sequence_length * dp)
    if per_rank != int(per_rank) or int(per_rank) % int(p.micro_batch):
        raise ParamError("tokens_per_batch", p.tokens_per_batch,
                         f"whole micro-batches of {p.micro_batch} sequences on each of {dp} data-parallel ranks")
    return {"data_parallel": dp, "sequences_per_dp_rank": int(per_rank)}


# the collectives the step's exposed communication counts: the data-parallel term is FSDP's
CENTRAL_COMM = ("tensor", "pipeline", "data")


def communication_times(p) -> dict:
    """Seconds per step each parallel dimension spends communicating, the job packed in rank order
    (tensor groups inside a node, data-parallel groups inside a pod where they fit): scene 14's
    traffic and ring model (models/lib/placement.py) on its topology-aware placement, which on a
    free cluster is this one. The rings run at full link rate: a lower bound on the tensor and pipeline
    times. Data parallelism twice: `data_allreduce`, scene 14's ring all-reduce of 32-bit gradients, and
    `data`, what FSDP moves (Llama 3 §3.3.2): a reduce-scatter of the 32-bit gradients and an all-gather
    of the 16-bit parameters, (n−1)/n·P·(4 + 2) bytes, the all-reduce's ring at (4 + 2)/2 bytes per
    element, with the same 2(n−1) latency steps. `data` is the central value, `data_allreduce` an upper one."""
    tp, pp, dp = int(p.tensor_parallel), int(p.pipeline_parallel), int(p.data_parallel)
    check(tp * pp * dp == p.gpus, "tensor × pipeline × data parallelism is the job's GPUs")
    m = int(p.sequences_per_dp_rank // p.micro_batch)
    rates = placement.level_rates(per_direction(p.nvlink_bw), p.port_rate, p.oversubscription)
    alphas = np.array([p.nvlink_latency, p.net_latency, p.net_latency, p.net_latency])
    hier = (int(p.node_gpus), int(p.rack_gpus), int(p.pod_gpus))
    groups = placement.group_gpus(np.arange(tp * pp * dp), tp, pp, dp, tuple(p.rank_order.split("-")))
    channels = placement.dimension_channels(groups, hier[0])
    levels, load = placement.dimension_levels(groups, hier), placement.cross_pod_load(groups, channels, hier)
    steps = placement.dimension_step_levels(groups, hier)  # each ring step's latency at the level it crosses

    def times(data_bytes: float) -> dict:
        traffic = placement.traffic_per_gpu(tp, pp, dp, int(p.micro_batch), int(p.sequence_length),
                                            int(p.model_dim), int(p.layers), m, p.model_params, p.act_bytes,
                                            data_bytes)
        return placement.dimension_times(levels, channels, traffic, rates, alphas, load, p.oversubscription,
                                         steps=steps)

    ring, fsdp = times(p.grad_bytes), times((p.grad_bytes + p.weight_bytes) / 2)
    check(fsdp["data"] < ring["data"], "FSDP moves less than a ring all-reduce of 32-bit gradients")
    return {"tensor": ring["tensor"], "pipeline": ring["pipeline"], "data": fsdp["data"],
            "data_allreduce": ring["data"]}


def exposed_comm_share(p, st: dict, comm: dict, hidden: float) -> float:
    """Share of the step spent in communication not hidden behind compute: (1 − h)·C/T."""
    if not 0.0 <= hidden <= 1.0:
        raise ValueError(f"the share of communication hidden is in [0, 1]: {hidden}")
    return (1.0 - hidden) * sum(comm[dim] for dim in CENTRAL_COMM) / st["t_step"]


def matmul_efficiency(hfu_value: float, bubble, comm, memory):
    """The matmuls' share of peak while they run: the HFU over the time the other parts leave them,
    HFU / (1 − bubble − exposed communication − memory-bound). Above one (or no time left: inf) the
    published MFU cannot fit: the matmuls would have to beat peak."""
    left = 1.0 - np.asarray(bubble) - np.asarray(comm) - np.asarray(memory)
    with np.errstate(divide="ignore"):
        return np.where(left > 0, hfu_value / np.where(left > 0, left, 1.0), np.inf)


def needed_efficiency(hfu_value: float, bubble: float, comm: float, memory: float) -> float | None:
    """matmul_efficiency at one point, None where the other parts leave the matmuls no time at all:
    no efficiency, however high, delivers the published MFU (the page and JSON carry no infinity)."""
    eff = float(matmul_efficiency(hfu_value, bubble, comm, memory))
    return eff if np.isfinite(eff) else None


def step_split(p, st: dict, comm: dict) -> dict:
    """The step's wall time in shares (useful, recompute, bubble, communication, memory, slow)."""
    m = p.sequences_per_dp_rank / p.micro_batch
    bubble = pipeline_bubble(p.pipeline_parallel, m * p.interleave)
    exposed = exposed_comm_share(p, st, comm, p.comm_hidden)
    shares = step_shares(st["mfu"], st["hfu"], bubble, exposed, p.memory_bound)
    check(shares["slow"] >= 0, "the published MFU fits in the step with the assumed bubble, communication "
          "and memory-bound phases")
    matmul_time = shares["useful"] + shares["recompute"] + shares["slow"]
    check(bubble > exposed, "the pipeline bubble costs more than exposed communication")
    check(shares["useful"] + shares["recompute"] <= matmul_time,
          "the matmuls run at or below peak")
    # no matmul time left (the fit claim failed): no efficiency delivers the MFU, not a negative one
    eff = (shares["useful"] + shares["recompute"]) / matmul_time if matmul_time > 0 else None
    return {"m": m, "bubble": bubble, "shares": shares, "plain_bubble": pipeline_bubble(p.pipeline_parallel, m),
            "exposed": exposed, "matmul_efficiency": eff}


def interleave_rows(p, st: dict, split: dict) -> list[dict]:
    """The step's shares at each interleave depth drawn (and the assumed one), the other assumptions as assumed."""
    sweep = []
    for v in sorted({int(v) for v in p.interleave_sweep} | {int(p.interleave)}):
        b = pipeline_bubble(p.pipeline_parallel, split["m"] * v)
        sh = step_shares(st["mfu"], st["hfu"], b, split["exposed"], p.memory_bound)
        sweep.append({"interleave": v, "bubble": b, **{k: sh[k] for k in PARTS},
                      "feasible": bool(sh["slow"] >= 0),
                      "matmul_efficiency": needed_efficiency(st["hfu"], b, split["exposed"], p.memory_bound),
                      "assumed": v == p.interleave})
    return sweep


def assumption_rows(p, st: dict, split: dict, comm: dict) -> list[dict]:
    """The residual with the hidden communication and the memory-bound share each over its range
    (the other at its assumed value), then both together at the ends that lose least and most, at the
    assumed interleave depth. The matmul efficiency rises as less communication hides and more time is
    memory-bound, so at one depth those two ends are its bounds."""
    hidden_range = sorted({float(x) for x in p.comm_hidden_range} | {float(p.comm_hidden)}, reverse=True)
    memory_range = sorted({float(x) for x in p.memory_bound_range} | {float(p.memory_bound)})
    v0 = int(p.interleave)
    cases = ([("hidden", h, p.memory_bound) for h in hidden_range]
             + [("memory", p.comm_hidden, mb) for mb in memory_range]
             + [("joint", hidden_range[0], memory_range[0]), ("joint", hidden_range[-1], memory_range[-1])])
    bubble = pipeline_bubble(p.pipeline_parallel, split["m"] * v0)
    rows = []
    for varied, h, mb in cases:
        c = exposed_comm_share(p, st, comm, h)
        sh = step_shares(st["mfu"], st["hfu"], bubble, c, mb)
        rows.append({"varied": varied, "interleave": v0, "bubble": bubble, "hidden": h, "comm": c, "memory": mb,
                     "slow": sh["slow"], "feasible": bool(sh["slow"] >= 0),
                     "matmul_efficiency": needed_efficiency(st["hfu"], bubble, c, mb),
                     "assumed": h == p.comm_hidden and mb == p.memory_bound})
    check(all(r["feasible"] for r in rows),
          "the published MFU fits across the ranges compared at the assumed interleave depth, jointly too")
    return rows


# the joint sweep's grid: the hidden share in steps of 5% of its range, the memory-bound share in 15 steps
JOINT_HIDDEN_POINTS, JOINT_MEMORY_POINTS = 21, 16


def joint_sweep(p, st: dict, split: dict, comm: dict) -> dict:
    """All three assumptions swept together: every whole interleave depth v from the smallest to the largest
    drawn, the hidden share and the memory-bound share over their ranges on a grid. Per depth: the share of
    the grid that cannot hold the published MFU, and the bounds of the matmul efficiency over the part that
    can. The efficiency is continuous and monotone in each assumption, so at one depth it runs from its value
    at the corner that loses least up to the other corner's, or up to peak where the boundary crosses the
    range (then the grid's own largest value is below peak only by its step)."""
    drawn = {int(v) for v in p.interleave_sweep} | {int(p.interleave)}
    depths = np.arange(min(drawn), max(drawn) + 1)
    hidden = np.linspace(min(p.comm_hidden_range), max(p.comm_hidden_range), JOINT_HIDDEN_POINTS)
    memory = np.linspace(min(p.memory_bound_range), max(p.memory_bound_range), JOINT_MEMORY_POINTS)
    c = np.array([exposed_comm_share(p, st, comm, h) for h in hidden])
    ceiling = p.gemm_ceiling / st["peak"]  # one H100's best measured matmul, as a share of peak
    # the same table's GH200 (same peak): the line drawn at another card's best case instead
    ceiling_gh200 = p.gemm_ceiling_gh200 / st["peak"]
    rows = []
    for v in depths:
        bubble = float(pipeline_bubble(p.pipeline_parallel, split["m"] * int(v)))
        eff = matmul_efficiency(st["hfu"], bubble, c[:, None], memory[None, :])
        ok = eff <= 1.0
        implausible = (eff > ceiling) & ok  # possible only for matmuls faster than any measured
        low = float(matmul_efficiency(st["hfu"], bubble, c[-1], memory[0]))  # all hidden, least memory-bound
        high = float(matmul_efficiency(st["hfu"], bubble, c[0], memory[-1]))  # none hidden, most memory-bound
        rows.append({"interleave": int(v), "bubble": bubble, "combinations": int(eff.size),
                     "impossible": int((~ok).sum()), "implausible": int(implausible.sum()),
                     "plausible": int(eff.size - (~ok).sum() - implausible.sum()),
                     "plausible_gh200": int((eff <= ceiling_gh200).sum()),
                     "low": low if low <= 1 else None,
                     "high": min(high, 1.0) if low <= 1 else None, "reaches_peak": bool(low <= 1 < high),
                     "assumed": int(v) == int(p.interleave)})
    feasible = [r for r in rows if r["low"] is not None]
    check(all(r["low"] is None or r["low"] <= ceiling for r in rows if r["plausible"]),
          "every depth with a plausible combination starts below the measured matmul ceiling")
    check(any(r["impossible"] for r in rows), "some combinations of interleave depth, hidden communication and "
          "memory-bound share cannot hold the published MFU")
    return {"rows": rows, "depths": (int(depths[0]), int(depths[-1])),
            "hidden": (float(hidden[0]), float(hidden[-1]), float(hidden[1] - hidden[0])),
            "memory": (float(memory[0]), float(memory[-1]), float(memory[1] - memory[0])),
            "combinations": sum(r["combinations"] for r in rows),
            "impossible": sum(r["impossible"] for r in rows),
            "implausible": sum(r["implausible"] for r in rows),
            "plausible": sum(r["plausible"] for r in rows),
            "ceiling": ceiling,
            "ceiling_gh200": ceiling_gh200,
            "plausible_gh200": sum(r["plausible_gh200"] for r in rows),
            "plausible_gh200_from": min((r["interleave"] for r in rows if r["plausible_gh200"]), default=None),
            "gh200_moved": [r["interleave"] for r in rows if r["plausible_gh200"] != r["plausible"]],
            "implausible_up_to": max((r["interleave"] for r in rows if r["implausible"]), default=None),
            "plausible_from": min((r["interleave"] for r in rows if r["plausible"]), default=None),
            # no depth can hold the published MFU (its claim failed): no bounds, not an error
            "low": min((r["low"] for r in feasible), default=None),
            "high": max((r["high"] for r in feasible), default=None),
            "reaches_peak_up_to": max((r["interleave"] for r in rows if r["reaches_peak"]), default=None),
            "impossible_up_to": max((r["interleave"] for r in rows if r["impossible"]), default=None)}


# --- the whole run: Llama 3.1 model card -----------------------------------------------------


def whole_run(p, st: dict) -> dict:
    run_flops_6n = model_flops_per_token(p.model_params) * p.training_tokens
    run_flops = st["f_model"] * p.training_tokens
    run_util_6n = whole_run_utilization(run_flops_6n, p.run_gpu_hours, st["peak"])
    run_util = whole_run_utilization(run_flops, p.run_gpu_hours, st["peak"])
    check(run_util_6n < st["mfu"] and run_util < st["mfu"],
          "the whole run used the GPUs less than a training step does")
    check(abs(run_util / st["mfu"] - run_flops / (p.flops_per_gpu * HOUR) / p.run_gpu_hours) < 1e-9,
          "the run over the step is the ideal GPU-hours over the model card's, counted the same way")
    return {"run_flops_6n": run_flops_6n, "run_flops": run_flops, "run_util_6n": run_util_6n, "run_util": run_util,
            "ideal_hours": run_flops / (p.flops_per_gpu * HOUR),  # GPU-hours at the step's throughput
            "long_context": long_context_rows(p, st, run_flops)}


def long_context_rows(p, st: dict, run_flops: float) -> list[dict]:
    """The whole run's model FLOPs with the long-context stage's extra attention (Llama 3 §3.4.2).

    The stage's tokens (about 800B) trained at contexts from the step's 8K up to 128K, in six stages whose
    lengths and token counts are not published. Attention FLOPs per token grow linearly with the context,
    so the extra is tokens × 12·L·H·Q·(T̄ − T), T̄ the stage's token-weighted mean context: zero at T̄ = T
    (the page's 8K count), largest with every long-context token at the longest context. Those two ends bound
    the correction; the means between are illustrations."""
    shape = dict(layers=p.layers, heads=p.attention_heads, head_dim=st["head_dim"])
    t0, t_max = int(p.sequence_length), int(p.long_context_max)
    means = sorted({t0, t_max} | {int(t) for t in p.long_context_means if t0 < t < t_max})
    rows = []
    for t in means:
        extra = p.long_context_tokens * (model_flops_per_token(p.model_params, **shape, context=t) - st["f_model"])
        util = whole_run_utilization(run_flops + extra, p.run_gpu_hours, st["peak"])
        rows.append({"mean_context": t, "extra_flops": extra, "extra_share": extra / run_flops,
                     "run_utilization": util, "run_vs_step": util / st["mfu"], "bound": t in (t0, t_max)})
    check(rows[-1]["run_vs_step"] < 1, "even with every long-context token at the longest context, the whole run "
          "used the GPUs less than a training step does")
    return rows


# --- the published runs recomputed ------------------------------------------------------


def palm_recomputed(p) -> dict:
    """PaLM 540B (Table 3, Appendix B): its MFU with and without attention, and the recompute its HFU implies."""
    shape = dict(layers=p.palm_layers, heads=p.palm_heads, head_dim=p.palm_head_dim, context=p.palm_context)
    palm_mfu = mfu(p.palm_tokens_per_s, p.palm_params, p.palm_chips, p.palm_peak, **shape)
    palm_mfu_6n = mfu(p.palm_tokens_per_s, p.palm_params, p.palm_chips, p.palm_peak)
    palm_r = implied_recompute(palm_mfu, p.palm_reported_hfu)
    palm_hfu_full = hfu(p.palm_tokens_per_s, p.palm_params, p.palm_chips, p.palm_peak, **shape, recompute=1.0)
    check(round(palm_mfu, 3) == p.palm_reported_mfu and round(palm_mfu_6n, 3) == p.palm_reported_mfu_6n,
          "PaLM's 46.2% and 45.7% follow from its throughput and shape")
    check(0 < palm_r < 1, "PaLM's HFU means it recomputed part, not all, of the forward pass")
    return {"shape": shape, "mfu": palm_mfu, "mfu_6n": palm_mfu_6n, "recompute": palm_r, "hfu_full": palm_hfu_full}


def megatron_recomputed(p) -> dict:
    """Megatron-LM 1T (Table 1, eq. 3): its 52% is an HFU; its MFU by PaLM's count and by its own."""
    hw_per_token = megatron_flops_per_token(p.meg_layers, p.meg_hidden, p.meg_sequence, p.meg_vocabulary)
    tokens_per_s = p.meg_flops_per_gpu * p.meg_gpus / hw_per_token
    meg_hfu = p.meg_flops_per_gpu / p.a100_peak
    meg_mfu = mfu(tokens_per_s, p.meg_params, p.meg_gpus, p.a100_peak, layers=p.meg_layers, heads=p.meg_heads,
                  head_dim=p.meg_hidden // p.meg_heads, context=p.meg_sequence)
    mfu_own = (tokens_per_s * megatron_flops_per_token(p.meg_layers, p.meg_hidden, p.meg_sequence,
                                                       p.meg_vocabulary, recompute=False)
               / (p.meg_gpus * p.a100_peak))
    check(abs(p.meg_flops_per_gpu * p.meg_gpus / p.meg_aggregate - 1) < 0.005,
          "163 TFLOP/s on each of 3072 GPUs is the 502 PFLOP/s aggregate")
    check(round(meg_hfu, 2) == p.meg_reported_share, "Megatron-LM's 52% is 163 TFLOP/s over the A100 peak")
    check(abs(meg_mfu / mfu_own - 1) < 0.005, "PaLM's count and Megatron's own, without recomputation, agree")
    check(meg_mfu < meg_hfu, "Megatron-LM's 52% counts recomputation: an HFU, not an MFU")
    return {"tokens_per_s": tokens_per_s, "hfu": meg_hfu, "mfu": meg_mfu}


def mbu_example(p) -> dict:
    """The MBU worked example (Databricks 2023)."""
    ex_bytes = float(decode_bytes(p.mbu_example_params, p.mbu_example_weight_bytes, 1))
    ex_mbu = mbu(ex_bytes, p.mbu_example_tpot, p.mbu_example_bandwidth)
    check(abs(ex_mbu - p.mbu_example_reported) < 0.005, "the worked example's MBU is 50%")
    return {"bytes": ex_bytes, "mbu": ex_mbu}


# --- decode: the scenario's model served in BF16 ----------------------------------------------------


def decode(p, st: dict) -> dict:
    """MBU and MFU of a decode step from batch 1 to the largest batch whose KV caches fit."""
    gpu, peak = p.gpu, st["peak"]
    weights = p.model_params * p.weight_bytes
    n_serve = serving_gpus(weights, gpu.hbm_capacity, p.node_gpus)
    kv_token = kv_bytes_per_token(p.layers, p.kv_heads, st["head_dim"], p.weight_bytes)
    kv_seq = kv_token * p.decode_context
    b_fit = batch_that_fits(n_serve * gpu.hbm_capacity - weights, kv_seq)
    if b_fit < 1:  # no batch to decode: every number below would be of an empty batch
        raise ParamError("decode_context", p.decode_context,
                         f"at most {int((n_serve * gpu.hbm_capacity - weights) // kv_token):,} tokens: one sequence's "
                         f"KV cache must fit beside the weights on {n_serve} GPUs")
    batches = np.unique(np.concatenate([2.0 ** np.arange(0, int(np.log2(b_fit)) + 1), [b_fit]]))
    d_bytes = decode_bytes(p.model_params, p.weight_bytes, batches, p.decode_context, kv_token)
    d_flops = decode_flops(p.model_params, batches, p.decode_context, p.layers, p.model_dim)
    t_mem = d_bytes / (p.decode_efficiency * n_serve * gpu.hbm_bandwidth)
    t_cmp = d_flops / (p.decode_efficiency * n_serve * peak)
    t_dec = np.maximum(t_mem, t_cmp)
    d_mbu = mbu(d_bytes, t_dec, n_serve * gpu.hbm_bandwidth)
    d_mfu = d_flops / (t_dec * n_serve * peak)
    check(np.all(t_mem >= t_cmp), "decode stays memory-bound at every batch that fits")
    check(d_mfu[-1] < st["mfu"] and d_mbu[0] > d_mfu[0] * 50,
          "decode uses the memory bus, not the tensor cores: even the fullest batch has a lower MFU than training")
    return {"n_serve": n_serve, "kv_token": kv_token, "kv_seq": kv_seq, "b_fit": b_fit, "batches": batches,
            "t_dec": t_dec, "mbu": d_mbu, "mfu": d_mfu, "bytes": d_bytes}


# --- what the page reads -------------------------------------------------------------


def efficiency_bounds(effs: list) -> dict:
    """The least and most matmul efficiency over the joint corners; a corner with no matmul time left
    (None) has no upper bound, and with every corner so, no lower one either."""
    finite = [e for e in effs if e is not None]
    return {"matmul_efficiency_low": min(finite, default=None),
            "matmul_efficiency_high": max(finite) if len(finite) == len(effs) else None}


def summary_of(p, st, split, comm, ranges, joint_all, run, palm, meg, ex, dec) -> dict:
    shares, t_step, t_dec = split["shares"], st["t_step"], dec["t_dec"]
    joint = [r for r in ranges if r["varied"] == "joint"]
    comm_total = sum(comm[dim] for dim in CENTRAL_COMM)
    # the upper estimate: the data-parallel term as scene 14's ring all-reduce of 32-bit gradients
    comm_total_allreduce = comm_total - comm["data"] + comm["data_allreduce"]
    exposed_allreduce = (1.0 - p.comm_hidden) * comm_total_allreduce / t_step
    plain = joint_all["rows"][0]  # the shallowest depth swept: v = 1, a plain schedule
    plain_needs = needed_efficiency(st["hfu"], split["plain_bubble"], split["exposed"], p.memory_bound)
    return {
        "data_parallel": p.data_parallel,
        "sequences_per_dp_rank": p.sequences_per_dp_rank,
        "peak_tflops": st["peak"] / 1e12,
        "achieved_tflops": p.flops_per_gpu / 1e12,
        "useful_seconds": shares["useful"] * t_step,
        "palm_peak_tflops": p.palm_peak / 1e12,
        "head_dim": st["head_dim"],
        "model_flops_per_token": st["f_model"],
        "flops_6n_per_token": st["f_6n"],
        "attention_share": st["attention_share"],
        "attention_over_6n": st["f_model"] / st["f_6n"] - 1.0,
        "step_time": t_step,
        "step_time_6n": st["t_step_6n"],
        "tokens_per_s": st["tokens_per_s"],
        "mfu": st["mfu"],
        "hfu": st["hfu"],
        "mfu_if_6n_counted": st["mfu_if_6n_counted"],
        "micro_batches": split["m"],
        "bubble": split["bubble"],
        "plain_bubble": split["plain_bubble"],
        **{f"share_{k}": v for k, v in shares.items()},
        "matmul_efficiency": split["matmul_efficiency"],
        **{f"comm_{dim}": t for dim, t in comm.items()},
        "comm_total": comm_total,
        "comm_share_if_exposed": comm_total / t_step,
        "comm_total_allreduce": comm_total_allreduce,
        "share_comm_allreduce": exposed_allreduce,
        "matmul_efficiency_allreduce": needed_efficiency(st["hfu"], split["bubble"], exposed_allreduce,
                                                         p.memory_bound),
        **efficiency_bounds([r["matmul_efficiency"] for r in joint]),
        # the best measured dense BF16 matmul on this GPU, as a share of peak: above it, implausible
        "gemm_ceiling_tflops": p.gemm_ceiling / 1e12,
        "gemm_ceiling": joint_all["ceiling"],
        # the same table's GH200, the same peak: where the line sits at another card's best case
        "gemm_ceiling_gh200_tflops": p.gemm_ceiling_gh200 / 1e12,
        "gemm_ceiling_gh200": joint_all["ceiling_gh200"],
        "joint_plausible_gh200": joint_all["plausible_gh200"],
        "joint_plausible_gh200_from": joint_all["plausible_gh200_from"],
        # the shallowest and deepest depths whose plausible count the GH200's line moves (None: none moves)
        "joint_gh200_moved_from": min(joint_all["gh200_moved"], default=None),
        "joint_gh200_moved_to": max(joint_all["gh200_moved"], default=None),
        "matmul_efficiency_of_ceiling": (split["matmul_efficiency"] / joint_all["ceiling"]
                                         if split["matmul_efficiency"] is not None else None),
        "matmul_efficiency_high_plausible": (max((r["matmul_efficiency"] for r in joint), default=0)
                                             <= joint_all["ceiling"]
                                             if all(r["matmul_efficiency"] is not None for r in joint) else False),
        # all three assumptions swept together (joint_sweep)
        "joint_depth_min": joint_all["depths"][0],
        "joint_depth_max": joint_all["depths"][1],
        "joint_hidden_step": joint_all["hidden"][2],
        "joint_memory_step": joint_all["memory"][2],
        "joint_combinations": joint_all["combinations"],
        "joint_impossible": joint_all["impossible"],
        "joint_low": joint_all["low"],
        "joint_high": joint_all["high"],
        "joint_reaches_peak_up_to": joint_all["reaches_peak_up_to"],
        "joint_impossible_up_to": joint_all["impossible_up_to"],
        "joint_implausible": joint_all["implausible"],
        "joint_plausible": joint_all["plausible"],
        "joint_implausible_up_to": joint_all["implausible_up_to"],
        "joint_plausible_from": joint_all["plausible_from"],
        # FSDP's bytes over a ring all-reduce of the 32-bit gradients: (grad + weight)/2 per element over grad
        "fsdp_over_allreduce_bytes": (p.grad_bytes + p.weight_bytes) / 2 / p.grad_bytes,
        # full recomputation: the model's FLOPs over the hardware's (the MFU a full-recompute HFU hides)
        "full_recompute_mfu_over_hfu": st["f_model"] / (st["f_model"] + forward_flops_per_token(
            p.model_params, p.layers, p.attention_heads, st["head_dim"], p.sequence_length)),
        # the input embedding torchtitan leaves out of N, as a share of N (and so of 6N)
        "embedding_share": p.vocabulary * p.model_dim / p.model_params,
        # a plain schedule (v = 1): at the assumed shares, and at the corner that loses least
        "plain_feasible": plain_needs is not None and plain_needs <= 1.0,
        "plain_matmul_efficiency": plain_needs,
        "plain_best": plain["low"] if plain["interleave"] == 1 else None,
        "effective_training_time": const("llama3_effective_training_time"),
        "run_flops_6n": run["run_flops_6n"],
        "run_flops_6n_text": sci(run["run_flops_6n"]),
        "run_utilization_6n": run["run_util_6n"],
        "run_utilization": run["run_util"],
        # both with the step's count (6N + attention), so the ratio is ideal over actual GPU-hours
        "run_vs_step": run["run_util"] / st["mfu"],
        # the long-context stage's extra attention FLOPs (Llama 3 §3.4.2), at its upper bound
        "long_context_tokens": p.long_context_tokens,
        "long_context_extra_max": run["long_context"][-1]["extra_share"],
        "run_utilization_max": run["long_context"][-1]["run_utilization"],
        "run_vs_step_max": run["long_context"][-1]["run_vs_step"],
        "run_flops": run["run_flops"],
        "run_flops_text": sci(run["run_flops"]),
        "ideal_gpu_hours": run["ideal_hours"],
        "palm_mfu": palm["mfu"],
        "palm_mfu_6n": palm["mfu_6n"],
        "palm_recompute": palm["recompute"],
        "palm_hfu_full": palm["hfu_full"],
        "meg_tokens_per_s": meg["tokens_per_s"],
        "meg_hfu": meg["hfu"],
        "meg_mfu": meg["mfu"],
        "mbu_example_bytes": ex["bytes"],
        "mbu_example": ex["mbu"],
        "serving_gpus": dec["n_serve"],
        "kv_per_token": dec["kv_token"],
        "kv_per_sequence": dec["kv_seq"],
        "decode_batch_fit": dec["b_fit"],
        "decode_step_b1": float(t_dec[0]),
        "decode_mbu_b1": float(dec["mbu"][0]),
        "decode_mfu_b1": float(dec["mfu"][0]),
        "decode_step_fit": float(t_dec[-1]),
        "decode_mfu_fit": float(dec["mfu"][-1]),
        "decode_bytes_b1": float(dec["bytes"][0]),
        "serving_bandwidth": dec["n_serve"] * p.gpu.hbm_bandwidth,
    }


def published_cases(p, st, run, palm, meg, ex) -> list[tuple]:
    """(case, hardware, published, recomputed): None where a figure is not published or not recomputable."""
    return [
        ("PaLM 540B, MFU (6N + attention)", "TPU v4", p.palm_reported_mfu, palm["mfu"]),
        ("PaLM 540B, MFU (6N only)", "TPU v4", p.palm_reported_mfu_6n, palm["mfu_6n"]),
        ("PaLM 540B, HFU (rematerialisation)", "TPU v4", p.palm_reported_hfu, None),
        ("Megatron-LM 1T, share of peak (eq. 3: an HFU)", "A100", p.meg_reported_share, meg["hfu"]),
        ("Megatron-LM 1T, MFU (PaLM's count)", "A100", None, meg["mfu"]),
        ("Llama 3 405B, BF16 MFU (Table 4)", "H100", p.reported_mfu, st["mfu"]),
        ("Llama 3.1 405B, whole run (model FLOPs / GPU-hours)", "H100", None, run["run_util"]),
        ("MBU worked example (7B, 14 ms/token)", "2 TB/s", p.mbu_example_reported, ex["mbu"]),
    ]


def published_table(published: list[tuple]) -> Table:
    return Table(
        "Published utilisations against the model's recomputation from each run's published throughput and shape "
        "(a dash: not published, or not recomputable from published figures)",
        [Column("case", "text"), Column("hardware", "text"), Column("published", "text"),
         Column("recomputed", "%")],
        # a published figure as its source prints it (41%, not 41.0%): the stored value has its digits
        [[c, h, "—" if pub is None else f"{100 * pub:.4g}%", r] for c, h, pub, r in published],
    )


def series_of(p, sweep: list[dict], palm: dict, dec: dict) -> dict:
    """The shares over the interleave depth, PaLM's HFU/MFU over the recomputed share, decode over the batch."""
    shape = palm["shape"]
    return {
        **curves("interleave", [r["interleave"] for r in sweep],
                 **{f"sweep_{k}": [r[k] for r in sweep] for k in PARTS}),
        **curves("recompute_share", np.linspace(0, 1, 21),
                 hfu_over_mfu=[hardware_flops_per_token(p.palm_params, **shape, recompute=r)
                               / model_flops_per_token(p.palm_params, **shape) for r in np.linspace(0, 1, 21)]),
        **curves("decode_batch", dec["batches"], decode_mbu=dec["mbu"], decode_mfu=dec["mfu"],
                 decode_step=dec["t_dec"]),
    }


def animation_plan(p, st: dict, split: dict, sweep: list[dict], summary: dict) -> dict:
    """The step's bar, part by part (parts too thin to see are left out), then MFU and HFU; the interleave
    depths drawn (bubble and residual at each, the other assumptions as assumed); decode at batch 1."""
    shares, t_step = split["shares"], st["t_step"]
    return {
        "interleave": [{"interleave": r["interleave"], "bubble": r["bubble"], "slow": r["slow"],
                        "feasible": r["feasible"], "matmul_efficiency": r["matmul_efficiency"],
                        "assumed": r["assumed"]} for r in sweep],
        "decode": {k: summary[k] for k in ("serving_gpus", "decode_bytes_b1", "serving_bandwidth", "decode_step_b1",
                                           "decode_mbu_b1", "decode_mfu_b1", "decode_batch_fit", "decode_mfu_fit")},
        "step_time": t_step,
        "parts": [{"key": k, "label": PART_LABELS[k], "share": shares[k], "seconds": shares[k] * t_step}
                  for k in ("bubble", "comm", "memory", "slow", "recompute", "useful") if shares[k] > 1e-9],
        "mfu": st["mfu"],
        "hfu": st["hfu"],
    }


@model(
    gpu=Param.of(GPU, "the training GPU (dense BF16 peak)"),
    model_params=Param.positive("count", "parameters N"),
    layers=Param.integer("count", "transformer layers L"),
    model_dim=Param.integer("count", "model dimension (heads × head size)"),
    attention_heads=Param.integer("count", "attention (query) heads H"),
    kv_heads=Param.integer("count", "key/value heads"),
    sequence_length=Param.integer("count", "training sequence length T"),
    tokens_per_batch=Param.positive("count", "tokens per global batch"),
    gpus=Param.integer("count", "GPUs in the job"),
    flops_per_gpu=Param.positive("FLOP/s", "achieved model FLOP/s per GPU (Table 4)"),
    reported_mfu=Param.fraction("MFU the Llama 3 report gives"),
    pipeline_parallel=Param.integer("count", "pipeline stages p"),
    micro_batch=Param.integer("count", "sequences per micro-batch (assumption)"),
    interleave=Param.integer("count", "interleaved chunks per stage v (assumption)"),
    interleave_sweep=Param.numbers("count", "interleave depths compared", minimum=1),
    tensor_parallel=Param.integer("count", "tensor-parallel degree"),
    act_bytes=Param.positive("B", "bytes per activation element sent"),
    grad_bytes=Param.positive("B", "bytes per gradient element reduced"),
    rack_gpus=Param.integer("count", "GPUs per rack (one ToR switch)"),
    pod_gpus=Param.integer("count", "GPUs per pod (full bisection)"),
    oversubscription=Param.positive("1", "oversubscription between pods"),
    nvlink_bw=Param.positive("B/s", "NVLink bandwidth per GPU, both directions"),
    port_rate=Param.positive("B/s", "network rate per GPU, per direction"),
    nvlink_latency=Param.positive("s", "ring step latency on NVLink"),
    net_latency=Param.positive("s", "ring step latency on the network"),
    rank_order=Param.text("parallel dimensions, innermost first",
                          choices=("tensor-pipeline-data", "tensor-data-pipeline")),
    comm_hidden=Param.fraction("share of the step's communication hidden behind compute (assumption)"),
    comm_hidden_range=Param.numbers("1", "hidden communication range compared", minimum=0),
    memory_bound=Param.fraction("memory-bound phases, share of the step (assumption)"),
    memory_bound_range=Param.numbers("1", "memory-bound range compared", minimum=0),
    gemm_ceiling=Param.positive("FLOP/s", "highest dense BF16 matmul throughput measured on one H100 SXM"),
    gemm_ceiling_gh200=Param.positive("FLOP/s", "the same, measured on one GH200 (same peak)"),
    recompute=Param.fraction("share of the forward pass recomputed (assumption)"),
    training_tokens=Param.positive("count", "pretraining tokens D"),
    run_gpu_hours=Param.positive("count", "GPU-hours of the whole run (model card)"),
    long_context_tokens=Param.positive("count", "tokens of the long-context pre-training stage"),
    long_context_max=Param.integer("count", "longest context of that stage"),
    long_context_means=Param.numbers("count", "mean contexts of that stage compared (its token-weighted mean)",
                                     minimum=1),
    vocabulary=Param.positive("count", "vocabulary (input embedding rows)"),
    palm_params=Param.positive("count", "PaLM 540B: parameters"),
    palm_layers=Param.integer("count", "PaLM 540B: layers"),
    palm_heads=Param.integer("count", "PaLM 540B: heads"),
    palm_head_dim=Param.integer("count", "PaLM 540B: head size"),
    palm_context=Param.integer("count", "PaLM: sequence length"),
    palm_chips=Param.integer("count", "PaLM 540B: TPU v4 chips"),
    palm_tokens_per_s=Param.positive("count", "PaLM 540B: tokens per second"),
    palm_peak=Param.positive("FLOP/s", "TPU v4 peak per chip"),
    palm_reported_mfu=Param.fraction("PaLM 540B: published MFU"),
    palm_reported_mfu_6n=Param.fraction("PaLM 540B: published MFU without attention"),
    palm_reported_hfu=Param.fraction("PaLM 540B: published HFU"),
    meg_params=Param.positive("count", "Megatron 1T: parameters"),
    meg_layers=Param.integer("count", "Megatron 1T: layers"),
    meg_hidden=Param.integer("count", "Megatron 1T: hidden size"),
    meg_heads=Param.integer("count", "Megatron 1T: heads"),
    meg_sequence=Param.integer("count", "Megatron: sequence length"),
    meg_vocabulary=Param.integer("count", "Megatron: vocabulary"),
    meg_gpus=Param.integer("count", "Megatron 1T: A100 GPUs"),
    meg_flops_per_gpu=Param.positive("FLOP/s", "Megatron 1T: FLOP/s per GPU (eq. 3)"),
    meg_aggregate=Param.positive("FLOP/s", "Megatron 1T: aggregate FLOP/s"),
    meg_reported_share=Param.fraction("Megatron 1T: published share of peak"),
    a100_peak=Param.positive("FLOP/s", "A100 dense BF16 peak"),
    weight_bytes=Param.positive("B", "bytes per weight and per KV value when serving"),
    decode_context=Param.integer("count", "decode: tokens of context per sequence (assumption)"),
    # above 0: kernels that move no bytes never finish a decode step (its time divides by this share)
    decode_efficiency=Param.number("1", "decode: kernels' share of peak HBM bandwidth (MBU measured at batch 1),"
                                   " assumed for the FLOP/s roof and every batch", above=0.0, maximum=1.0),
    node_gpus=Param.integer("count", "GPUs per server"),
    mbu_example_params=Param.positive("count", "MBU example: parameters"),
    mbu_example_weight_bytes=Param.positive("B", "MBU example: bytes per parameter"),
    mbu_example_tpot=Param.positive("s", "MBU example: time per output token"),
    mbu_example_bandwidth=Param.positive("B/s", "MBU example: peak bandwidth"),
    mbu_example_reported=Param.fraction("MBU example: published MBU"),
)
def utilization_accounting(gpu, model_params, layers, model_dim, attention_heads, kv_heads, sequence_length,
                           tokens_per_batch, gpus, flops_per_gpu, reported_mfu, pipeline_parallel,
                           micro_batch, interleave, interleave_sweep, tensor_parallel, act_bytes, grad_bytes,
                           rack_gpus, pod_gpus, oversubscription, nvlink_bw, port_rate, nvlink_latency,
                           net_latency, rank_order, comm_hidden, comm_hidden_range, memory_bound,
                           memory_bound_range, gemm_ceiling, gemm_ceiling_gh200, recompute, training_tokens,
                           run_gpu_hours, long_context_tokens, long_context_max, long_context_means, vocabulary,
                           palm_params, palm_layers, palm_heads, palm_head_dim, palm_context, palm_chips,
                           palm_tokens_per_s, palm_peak, palm_reported_mfu, palm_reported_mfu_6n,
                           palm_reported_hfu, meg_params, meg_layers, meg_hidden, meg_heads, meg_sequence,
                           meg_vocabulary, meg_gpus, meg_flops_per_gpu, meg_aggregate, meg_reported_share,
                           a100_peak, weight_bytes, decode_context, decode_efficiency, node_gpus,
                           mbu_example_params, mbu_example_weight_bytes, mbu_example_tpot, mbu_example_bandwidth,
                           mbu_example_reported) -> Exhibit:
    """The scenario's step split into its parts, the published MFUs recomputed, decode MBU."""
    p = SimpleNamespace(**locals())
    refuse_contradictions(p)
    p = SimpleNamespace(**vars(p), **parallel_layout(p))  # DP and sequences per rank, from the scenario
    st = training_step(p)
    comm = communication_times(p)
    split = step_split(p, st, comm)
    sweep = interleave_rows(p, st, split)
    ranges = assumption_rows(p, st, split, comm)
    joint_all = joint_sweep(p, st, split, comm)
    run = whole_run(p, st)
    palm = palm_recomputed(p)
    meg = megatron_recomputed(p)
    ex = mbu_example(p)
    dec = decode(p, st)
    published = published_cases(p, st, run, palm, meg, ex)
    summary = summary_of(p, st, split, comm, ranges, joint_all, run, palm, meg, ex, dec)
    return Exhibit(summary=summary,
                   series=series_of(p, sweep, palm, dec), table=published_table(published),
                   animation=animation_plan(p, st, split, sweep, summary),
                   records={"interleave_sweep": sweep, "assumption_ranges": ranges, "joint_sweep": joint_all["rows"],
                            "long_context": run["long_context"],
                            scenario_facts.RECORD: scenario_facts.published(
                                **st["facts"], decode_bandwidth_efficiency=p.decode_efficiency),
                            "published": [{"case": c, "hardware": h, "published": pub, "recomputed": r}
                                          for c, h, pub, r in published]})


__all__ = [
    "model_flops_per_token", "forward_flops_per_token", "hardware_flops_per_token", "mfu", "hfu",
    "implied_recompute", "megatron_flops_per_token", "pipeline_bubble", "whole_run_utilization", "mbu",
    "step_shares", "utilization_accounting",
]
