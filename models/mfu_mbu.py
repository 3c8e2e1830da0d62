"""MFU, HFU and MBU: how much of the hardware is doing useful work?

Model FLOPs per token (PaLM, Chowdhery et al. 2022, Appendix B). A dense decoder
with N parameters, L layers, H heads of size Q, trained on sequences of T tokens:

    F_model = 6N + 12·L·H·Q·T

6N is the matmuls with the weights (forward 2N, backward 4N; Kaplan 2020). The
second term is self-attention over the context: QKᵀ and the attention-weighted
values, 2·T·H·Q FLOPs each per layer in the forward pass, ×3 with the backward.
Kaplan's Table 1 (`models/training.attention_flops_per_token`) counts only the QKᵀ
product, so PaLM's term is twice that function; the test suite shows that only the
PaLM count reproduces PaLM's published 46.2%.

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
    comm    = exposed communication       an assumption (stated, with a range)
    memory  = memory-bound phases         an assumption (norms, softmax, optimizer, …)
    slow    = 1 − all of the above         matmul kernels running below peak (the residual)

The residual must not be negative: a schedule whose bubble alone leaves less time
than the published MFU needs cannot have produced it (`check`).

Whole-run utilisation: 6·N·D / (GPU-hours × 3600 × peak), the model FLOPs of the
whole pretraining over everything the GPUs could have done while the job held them.

MBU (Databricks 2023): in a decode step each sequence reads every weight once
(shared by the batch) and its own KV cache (`models/roofline.decode_bytes`):

    MBU = bytes read per step / (step time × peak bandwidth)

Decode step time here: t(b) = max(bytes/(β·n·B), FLOPs/(β·n·Π)), both roofs at
the same kernel efficiency β (an assumption: Databricks' measured MBU), for a
model served on the fewest whole nodes whose HBM holds it (`roofline.serving_gpus`),
up to the largest batch whose KV caches fit.

Public for other scenes: `model_flops_per_token`, `forward_flops_per_token`,
`hardware_flops_per_token`, `mfu`, `hfu`, `mbu`, `pipeline_bubble`,
`whole_run_utilization`, `megatron_flops_per_token`. Entry point: `utilization_accounting`.
"""

from __future__ import annotations

import numpy as np

from models.constants.products import GPU
from models.exhibit import Column, Exhibit, Param, Table, check, curves, model
from models.lib.decode import batch_that_fits, decode_bytes, decode_flops, kv_bytes_per_token, serving_gpus
from models.training import attention_flops_per_token, step_time
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

    The attention term is QKᵀ and the weighted values, forward and backward: twice
    Kaplan's QKᵀ-only count (`training.attention_flops_per_token`). Leave the shape
    at 0 for 6N alone.
    """
    return 6.0 * params + 2.0 * attention_flops_per_token(layers, context, heads * head_dim)


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
    sequences_per_dp_rank=Param.integer("count", "sequences per data-parallel rank per step"),
    micro_batch=Param.integer("count", "sequences per micro-batch (assumption)"),
    interleave=Param.integer("count", "interleaved chunks per stage v (assumption)"),
    interleave_sweep=Param.numbers("count", "interleave depths compared", minimum=1),
    exposed_comm=Param.fraction("exposed communication, share of the step (assumption)"),
    exposed_comm_range=Param.numbers("1", "exposed communication range compared", minimum=0),
    memory_bound=Param.fraction("memory-bound phases, share of the step (assumption)"),
    recompute=Param.fraction("share of the forward pass recomputed (assumption)"),
    training_tokens=Param.positive("count", "pretraining tokens D"),
    run_gpu_hours=Param.positive("count", "GPU-hours of the whole run (model card)"),
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
    decode_efficiency=Param.fraction("decode: kernels' share of peak bandwidth and FLOP/s (measured MBU)"),
    node_gpus=Param.integer("count", "GPUs per server"),
    mbu_example_params=Param.positive("count", "MBU example: parameters"),
    mbu_example_weight_bytes=Param.positive("B", "MBU example: bytes per parameter"),
    mbu_example_tpot=Param.positive("s", "MBU example: time per output token"),
    mbu_example_bandwidth=Param.positive("B/s", "MBU example: peak bandwidth"),
    mbu_example_reported=Param.fraction("MBU example: published MBU"),
)
def utilization_accounting(gpu, model_params, layers, model_dim, attention_heads, kv_heads, sequence_length,
                           tokens_per_batch, gpus, flops_per_gpu, reported_mfu, pipeline_parallel,
                           sequences_per_dp_rank, micro_batch, interleave, interleave_sweep, exposed_comm,
                           exposed_comm_range, memory_bound, recompute, training_tokens, run_gpu_hours,
                           palm_params, palm_layers, palm_heads, palm_head_dim, palm_context, palm_chips,
                           palm_tokens_per_s, palm_peak, palm_reported_mfu, palm_reported_mfu_6n,
                           palm_reported_hfu, meg_params, meg_layers, meg_hidden, meg_heads, meg_sequence,
                           meg_vocabulary, meg_gpus, meg_flops_per_gpu, meg_aggregate, meg_reported_share,
                           a100_peak, weight_bytes, decode_context, decode_efficiency, node_gpus,
                           mbu_example_params, mbu_example_weight_bytes, mbu_example_tpot, mbu_example_bandwidth,
                           mbu_example_reported) -> Exhibit:
    """Scene 21's data: the scenario's step split into its parts, the published MFUs recomputed, decode MBU."""
    peak = gpu.peak_bf16
    head_dim = model_dim // attention_heads
    shape = dict(layers=layers, heads=attention_heads, head_dim=head_dim, context=sequence_length)

    # --- the scenario's step: Llama 3 405B on 16,384 H100s (Table 4) ------------------------------
    f_model = model_flops_per_token(model_params, **shape)
    f_6n = model_flops_per_token(model_params)
    attention_share = 1.0 - f_6n / f_model
    # the published FLOP/s counts the model FLOPs (PaLM's definition, attention included)
    t_step = step_time(model_params, tokens_per_batch, gpus, flops_per_gpu,
                       flops_per_param_token=f_model / model_params)
    t_step_6n = step_time(model_params, tokens_per_batch, gpus, flops_per_gpu)
    tokens_per_s = tokens_per_batch / t_step
    mfu_step = mfu(tokens_per_s, model_params, gpus, peak, **shape)
    hfu_step = hfu(tokens_per_s, model_params, gpus, peak, **shape, recompute=recompute)
    mfu_if_6n_counted = flops_per_gpu * f_model / f_6n / peak  # if Table 4's FLOP/s counted 6N only
    check(abs(mfu_step - flops_per_gpu / peak) < 1e-12, "MFU is the achieved model FLOP/s over the peak")
    check(abs(mfu_step - reported_mfu) < 0.01, "Table 4's MFU is its FLOP/s per GPU over the dense peak, "
          "to within the rounding of its figures")
    check(0 < mfu_step <= hfu_step <= 1, "0 < MFU ≤ HFU ≤ 1")

    m = sequences_per_dp_rank / micro_batch
    bubble = pipeline_bubble(pipeline_parallel, m * interleave)
    shares = step_shares(mfu_step, hfu_step, bubble, exposed_comm, memory_bound)
    check(shares["slow"] >= 0, "the published MFU fits in the step with the assumed bubble, communication "
          "and memory-bound phases")
    matmul_time = shares["useful"] + shares["recompute"] + shares["slow"]
    matmul_efficiency = (shares["useful"] + shares["recompute"]) / matmul_time
    plain_bubble = pipeline_bubble(pipeline_parallel, m)
    check(1.0 - plain_bubble - exposed_comm - memory_bound < hfu_step,
          "a plain (non-interleaved) schedule with these micro-batches could not reach the published MFU")
    check(bubble > exposed_comm and bubble > memory_bound,
          "the pipeline bubble costs more than exposed communication or memory-bound phases (as assumed)")

    sweep_v = sorted({int(v) for v in interleave_sweep} | {int(interleave)})
    sweep = []
    for v in sweep_v:
        b = pipeline_bubble(pipeline_parallel, m * v)
        sh = step_shares(mfu_step, hfu_step, b, exposed_comm, memory_bound)
        sweep.append({"interleave": v, "bubble": b, **{k: sh[k] for k in PARTS},
                      "feasible": bool(sh["slow"] >= 0),
                      "matmul_efficiency": (sh["useful"] + sh["recompute"]) / max(1e-12, 1 - b - exposed_comm
                                                                                   - memory_bound),
                      "assumed": v == interleave})
    comm_rows = []
    for c in sorted({float(x) for x in exposed_comm_range} | {float(exposed_comm)}):
        sh = step_shares(mfu_step, hfu_step, bubble, c, memory_bound)
        comm_rows.append({"comm": c, "slow": sh["slow"], "feasible": bool(sh["slow"] >= 0),
                          "matmul_efficiency": hfu_step / (1 - bubble - c - memory_bound),
                          "assumed": c == exposed_comm})
    check(all(r["feasible"] for r in comm_rows), "the conclusion holds across the communication range compared")

    # --- the whole run: Llama 3.1 model card -----------------------------------------------------
    run_flops_6n = model_flops_per_token(model_params) * training_tokens
    run_flops = f_model * training_tokens
    run_util_6n = whole_run_utilization(run_flops_6n, run_gpu_hours, peak)
    run_util = whole_run_utilization(run_flops, run_gpu_hours, peak)
    ideal_hours = run_flops / (flops_per_gpu * HOUR)  # GPU-hours at the step's throughput
    check(run_util_6n < mfu_step and run_util < mfu_step,
          "the whole run used the GPUs less than a training step does")

    # --- PaLM 540B (Table 3, Appendix B) ------------------------------------------------------------
    palm_shape = dict(layers=palm_layers, heads=palm_heads, head_dim=palm_head_dim, context=palm_context)
    palm_mfu = mfu(palm_tokens_per_s, palm_params, palm_chips, palm_peak, **palm_shape)
    palm_mfu_6n = mfu(palm_tokens_per_s, palm_params, palm_chips, palm_peak)
    palm_r = implied_recompute(palm_mfu, palm_reported_hfu)
    palm_hfu_full = hfu(palm_tokens_per_s, palm_params, palm_chips, palm_peak, **palm_shape, recompute=1.0)
    check(round(palm_mfu, 3) == palm_reported_mfu and round(palm_mfu_6n, 3) == palm_reported_mfu_6n,
          "PaLM's 46.2% and 45.7% follow from its throughput and shape")
    check(0 < palm_r < 1, "PaLM's HFU means it recomputed part, not all, of the forward pass")

    # --- Megatron-LM 1T (Table 1, eq. 3) --------------------------------------------------------------
    meg_hw_per_token = megatron_flops_per_token(meg_layers, meg_hidden, meg_sequence, meg_vocabulary)
    meg_tokens_per_s = meg_flops_per_gpu * meg_gpus / meg_hw_per_token
    meg_hfu = meg_flops_per_gpu / a100_peak
    meg_mfu = mfu(meg_tokens_per_s, meg_params, meg_gpus, a100_peak, layers=meg_layers, heads=meg_heads,
                  head_dim=meg_hidden // meg_heads, context=meg_sequence)
    meg_mfu_own = (meg_tokens_per_s * megatron_flops_per_token(meg_layers, meg_hidden, meg_sequence, meg_vocabulary,
                                                               recompute=False) / (meg_gpus * a100_peak))
    check(abs(meg_flops_per_gpu * meg_gpus / meg_aggregate - 1) < 0.005,
          "163 TFLOP/s on each of 3072 GPUs is the 502 PFLOP/s aggregate")
    check(round(meg_hfu, 2) == meg_reported_share, "Megatron-LM's 52% is 163 TFLOP/s over the A100 peak")
    check(abs(meg_mfu / meg_mfu_own - 1) < 0.005, "PaLM's count and Megatron's own, without recomputation, agree")
    check(meg_mfu < meg_hfu, "Megatron-LM's 52% counts recomputation: an HFU, not an MFU")

    # --- the MBU worked example (Databricks 2023) ------------------------------------------------------
    ex_bytes = float(decode_bytes(mbu_example_params, mbu_example_weight_bytes, 1))
    ex_mbu = mbu(ex_bytes, mbu_example_tpot, mbu_example_bandwidth)
    check(abs(ex_mbu - mbu_example_reported) < 0.005, "the worked example's MBU is 50%")

    # --- decode: the scenario's model served in BF16 ----------------------------------------------------
    weights = model_params * weight_bytes
    n_serve = serving_gpus(weights, gpu.hbm_capacity, node_gpus)
    kv_token = kv_bytes_per_token(layers, kv_heads, head_dim, weight_bytes)
    kv_seq = kv_token * decode_context
    b_fit = batch_that_fits(n_serve * gpu.hbm_capacity - weights, kv_seq)
    check(b_fit >= 1, "at least one sequence's KV cache fits beside the weights")
    batches = np.unique(np.concatenate([2.0 ** np.arange(0, int(np.log2(b_fit)) + 1), [b_fit]]))
    d_bytes = decode_bytes(model_params, weight_bytes, batches, decode_context, kv_token)
    d_flops = decode_flops(model_params, batches, decode_context, layers, model_dim)
    t_mem = d_bytes / (decode_efficiency * n_serve * gpu.hbm_bandwidth)
    t_cmp = d_flops / (decode_efficiency * n_serve * peak)
    t_dec = np.maximum(t_mem, t_cmp)
    d_mbu = mbu(d_bytes, t_dec, n_serve * gpu.hbm_bandwidth)
    d_mfu = d_flops / (t_dec * n_serve * peak)
    check(np.all(t_mem >= t_cmp), "decode stays memory-bound at every batch that fits")
    check(d_mfu[-1] < mfu_step and d_mbu[0] > d_mfu[0] * 50,
          "decode uses the memory bus, not the tensor cores: even the fullest batch has a lower MFU than training")

    summary = {
        "peak_tflops": peak / 1e12,
        "achieved_tflops": flops_per_gpu / 1e12,
        "useful_seconds": shares["useful"] * t_step,
        "palm_peak_tflops": palm_peak / 1e12,
        "head_dim": head_dim,
        "model_flops_per_token": f_model,
        "flops_6n_per_token": f_6n,
        "attention_share": attention_share,
        "step_time": t_step,
        "step_time_6n": t_step_6n,
        "tokens_per_s": tokens_per_s,
        "mfu": mfu_step,
        "hfu": hfu_step,
        "mfu_if_6n_counted": mfu_if_6n_counted,
        "micro_batches": m,
        "bubble": bubble,
        "plain_bubble": plain_bubble,
        **{f"share_{k}": v for k, v in shares.items()},
        "matmul_efficiency": matmul_efficiency,
        "run_flops_6n": run_flops_6n,
        "run_flops_6n_text": sci(run_flops_6n),
        "run_utilization_6n": run_util_6n,
        "run_utilization": run_util,
        "run_vs_step": run_util_6n / mfu_step,
        "ideal_gpu_hours": ideal_hours,
        "palm_mfu": palm_mfu,
        "palm_mfu_6n": palm_mfu_6n,
        "palm_recompute": palm_r,
        "palm_hfu_full": palm_hfu_full,
        "meg_tokens_per_s": meg_tokens_per_s,
        "meg_hfu": meg_hfu,
        "meg_mfu": meg_mfu,
        "mbu_example_bytes": ex_bytes,
        "mbu_example": ex_mbu,
        "serving_gpus": n_serve,
        "kv_per_token": kv_token,
        "kv_per_sequence": kv_seq,
        "decode_batch_fit": b_fit,
        "decode_step_b1": float(t_dec[0]),
        "decode_mbu_b1": float(d_mbu[0]),
        "decode_mfu_b1": float(d_mfu[0]),
        "decode_step_fit": float(t_dec[-1]),
        "decode_mfu_fit": float(d_mfu[-1]),
    }

    published = [
        ("PaLM 540B, MFU (6N + attention)", "TPU v4", palm_reported_mfu, palm_mfu),
        ("PaLM 540B, MFU (6N only)", "TPU v4", palm_reported_mfu_6n, palm_mfu_6n),
        ("PaLM 540B, HFU (rematerialisation)", "TPU v4", palm_reported_hfu, None),
        ("Megatron-LM 1T, share of peak (eq. 3: an HFU)", "A100", meg_reported_share, meg_hfu),
        ("Megatron-LM 1T, MFU (PaLM's count)", "A100", None, meg_mfu),
        ("Llama 3 405B, BF16 MFU (Table 4)", "H100", reported_mfu, mfu_step),
        ("Llama 3.1 405B, whole run (6ND / GPU-hours)", "H100", None, run_util_6n),
        ("MBU worked example (7B, 14 ms/token)", "2 TB/s", mbu_example_reported, ex_mbu),
    ]
    table = Table(
        "Published utilisations against the model's recomputation from each run's published throughput and shape "
        "(a dash: not published, or not recomputable from published figures)",
        [Column("case", "text"), Column("hardware", "text"), Column("published", "%"),
         Column("recomputed", "%")],
        [[c, h, p, r] for c, h, p, r in published],
    )

    series = {
        **curves("interleave", [r["interleave"] for r in sweep],
                 **{f"sweep_{k}": [r[k] for r in sweep] for k in PARTS}),
        **curves("recompute_share", np.linspace(0, 1, 21),
                 hfu_over_mfu=[hardware_flops_per_token(palm_params, **palm_shape, recompute=r)
                               / model_flops_per_token(palm_params, **palm_shape) for r in np.linspace(0, 1, 21)]),
        **curves("decode_batch", batches, decode_mbu=d_mbu, decode_mfu=d_mfu, decode_step=t_dec),
    }

    animation = {
        "step_time": t_step,
        "parts": [{"key": k, "label": PART_LABELS[k], "share": shares[k], "seconds": shares[k] * t_step}
                  for k in ("bubble", "comm", "memory", "slow", "recompute", "useful") if shares[k] > 1e-9],
        "mfu": mfu_step,
        "hfu": hfu_step,
    }

    return Exhibit(summary=summary, series=series, table=table, animation=animation,
                   records={"interleave_sweep": sweep, "comm_sweep": comm_rows,
                            "published": [{"case": c, "hardware": h, "published": p, "recomputed": r}
                                          for c, h, p, r in published]})


__all__ = [
    "model_flops_per_token", "forward_flops_per_token", "hardware_flops_per_token", "mfu", "hfu",
    "implied_recompute", "megatron_flops_per_token", "pipeline_bubble", "whole_run_utilization", "mbu",
    "step_shares", "utilization_accounting",
]
