"""The roofline model: when is a GPU memory-bound, and when does LLM decode reach the knee?

Roofline (Williams, Waterman & Patterson 2009): a kernel that performs F
floating-point operations and moves Q bytes between HBM and the chip has
arithmetic intensity I = F / Q (FLOP per byte). With peak compute Π (FLOP/s)
and memory bandwidth β (B/s) its attainable throughput is

    P(I) = min(Π, I · β)

The two roofs meet at the ridge point I* = Π / β. Below it the kernel is
memory-bound (the slanted roof: doubling I doubles throughput); above it,
compute-bound (the flat roof).

GEMM. C[M×N] = A[M×K] · B[K×N] in a dtype of w bytes: F = 2MNK; if each
matrix crosses HBM once (ideal tiling), Q = w (MK + KN + MN), so

    I_gemm = 2MNK / (w (MK + KN + MN))

It becomes compute-bound at M_knee = I* w K N / (2 N K − I* w (K + N)).

LLM decode. One decode step of a dense model with P parameters for a batch of
b sequences reads every weight once (P w bytes, shared by the batch) and does
2P FLOPs per sequence. Weights alone:

    I_decode = 2 P b / (P w) = 2b / w,    compute-bound from b* = I* w / 2

so in BF16 (w = 2) the intensity is the batch size, and b* is the ridge point
itself. Halving w (FP8 weights on FP8 tensor cores) doubles the intensity but
FP8 also doubles Π, so b* does not move.

KV cache (optional term). Each sequence also reads its own KV cache: with
context c, L layers, h_kv key/value heads of dimension d_h stored in w_kv
bytes, that is c · 2 L h_kv d_h w_kv bytes per step, and attention adds
4 L c d_attn FLOPs (QK^T and PV with d_attn = query heads × d_h). Then

    I_decode(b) = b (2P + 4 L c d_attn) / (P w + b c k),   k = 2 L h_kv d_h w_kv

which climbs with b but saturates at (2P + 4 L c d_attn) / (c k): KV bytes grow
with the batch.

That I(b) is the whole step's average intensity, not a threshold. A step is
several kernels, each on the roofline by itself: the weight matmuls (2Pb FLOPs
over P w bytes, intensity 2b/w whatever the KV cache, compute-bound from b*)
and attention (4 L c d_attn FLOPs over c k bytes per sequence, intensity
4 L d_attn / k at every batch). The step takes the sum over kernels of
max(F/Π, Q/β), never less than the blended max(ΣF/Π, ΣQ/β). So with KV caches
the matmuls still reach the knee at b*, whatever the context; what stops them
is HBM capacity (b* sequences' caches must fit), and attention never does.

HBM busy share. Left of the knee the step waits on HBM, which moves bytes all
the time (saturated, 1); right of it the tensor cores set the time and HBM is
busy for the share min(1, I*/I).

Achievable rates. With HBM at a share η_m of its datasheet bandwidth and the
tensor cores at a share η_c of their peak, the knee is (η_c / η_m) I*. The
scenario's η_m (decode_bandwidth_efficiency, one value for every scene) is an
end-to-end MBU measured at batch 1, launch gaps and communication included,
not HBM's sustained bandwidth. With η_c = 1 the knee is I* / η_m; with η_c = η_m
it stays at I*; a smaller η_c moves it further left. Two measured ceilings on
the H100 give two more cases: the best-shape BF16 matmul (η_c, an upper bound
for decode's GEMMs) against the MBU, and against a device-memory copy (the
share of its bandwidth a saturated HBM delivers to a pure stream).

FP8 weights, BF16 compute (weight-only quantisation, the common serving case):
the weights' bytes halve, Π does not, so b* halves.

Attention prefill (a fused, FlashAttention-style kernel): for L tokens, h
query heads and h_kv KV heads of dimension d_h, causal FLOPs 2 L^2 d_h h
(QK^T and PV, halved by the mask); HBM traffic Q, O (h heads) and K, V (h_kv
heads) once each, tiles re-used on chip: I = L h / (w (h + h_kv)).

HBM capacity. The weights and every sequence's KV cache must fit in HBM. The
model is served on the fewest whole nodes of g GPUs whose HBM holds its
weights, split evenly (tensor parallel inside a node, pipeline stages across
nodes): n = g · ceil(P w / (g C)) GPUs of capacity C. The largest batch whose
KV caches fit beside the weights is

    b_fit = floor((n C − P w) / (c k))

and a knee reached only above b_fit is "capacity-bound". C is the datasheet's
"80GB" read as 10^9 B; read as 2^30 B (the larger reading) on the same n GPUs,
with activations, workspace and fragmentation ignored, the batch is an upper bound.

Assumptions: peaks are dense tensor-core datasheet peaks (half the "with
sparsity" figures); HBM bandwidth is the datasheet total (reads plus writes);
caches, kernel launch and efficiency losses are not modelled: real kernels
reach a fraction of either roof. Tensor parallelism divides a layer's bytes
and FLOPs alike, so it leaves every intensity here unchanged.

Pure numpy/stdlib, SI units: FLOP, bytes, seconds, FLOP/s, B/s.
"""

from __future__ import annotations

import math

import numpy as np

from models.constants.products import GPU
from models.exhibit import Column, Exhibit, Param, ParamError, Table, check, curves, model
from models.lib.decode import (
    attention_decode_flops_per_seq,
    batch_that_fits,
    decode_bytes,
    decode_flops,
    kv_bytes_per_token,
    ridge_point,
    serving_gpus,
)
from models.lib.sweeps import including
from models.scenario_facts import RECORD, published
from models.units import GB, GiB

# ---------------------------------------------------------------------------
# the roofline
# ---------------------------------------------------------------------------


def attainable(intensity, peak: float, bandwidth: float):
    """min(peak, I * bandwidth), FLOP/s; intensity may be an array."""
    i = np.asarray(intensity, dtype=float)
    if np.any(i < 0):
        raise ValueError("arithmetic intensity must be >= 0")
    out = np.minimum(peak, i * bandwidth)
    return out if np.ndim(intensity) else float(out)


def hbm_busy(intensity, peak: float, bandwidth: float):
    """Share of the time HBM moves bytes at full bandwidth: min(1, I*/I).

    Left of the knee the kernel waits on HBM, which is saturated (1); right of it
    the tensor cores set the time and HBM idles for the rest: I*/I.
    """
    i = np.asarray(intensity, dtype=float)
    if np.any(i <= 0):
        raise ValueError("arithmetic intensity must be > 0")
    out = np.minimum(1.0, ridge_point(peak, bandwidth) / i)
    return out if np.ndim(intensity) else float(out)


def is_memory_bound(intensity: float, peak: float, bandwidth: float) -> bool:
    return intensity < ridge_point(peak, bandwidth)


# ---------------------------------------------------------------------------
# GEMM
# ---------------------------------------------------------------------------


def gemm_flops(m, n, k):
    """2MNK: one multiply and one add per term."""
    return 2.0 * np.asarray(m, dtype=float) * n * k


def gemm_bytes(m, n, k, dtype_bytes: float):
    """w (MK + KN + MN): read A and B, write C, each once."""
    m = np.asarray(m, dtype=float)
    return dtype_bytes * (m * k + k * n + m * n)


def gemm_intensity(m, n, k, dtype_bytes: float):
    """2MNK / (w (MK + KN + MN)), FLOP per byte."""
    return gemm_flops(m, n, k) / gemm_bytes(m, n, k, dtype_bytes)


def gemm_knee_rows(n: float, k: float, dtype_bytes: float, ridge: float) -> float | None:
    """Rows M at which an M×K by K×N GEMM reaches the ridge point; None if it never does.

    Solves 2MNK = I* w (MK + KN + MN) for M. As M grows the intensity tends to
    2NK / (w (K + N)); if that is not above the ridge, no M is compute-bound.
    """
    denom = 2.0 * n * k - ridge * dtype_bytes * (k + n)
    if denom <= 0:
        return None
    return ridge * dtype_bytes * k * n / denom


# ---------------------------------------------------------------------------
# LLM decode
# ---------------------------------------------------------------------------


def decode_intensity(params: float, weight_bytes: float, batch, context: float = 0.0,
                     kv_per_token: float = 0.0, layers: int = 0, attn_dim: int = 0):
    """FLOP per byte of one decode step (weights only when context = 0)."""
    return (decode_flops(params, batch, context, layers, attn_dim)
            / decode_bytes(params, weight_bytes, batch, context, kv_per_token))


def decode_intensity_weights_only(batch, weight_bytes: float):
    """The closed form 2b / w."""
    return 2.0 * np.asarray(batch, dtype=float) / weight_bytes


def compute_bound_batch(ridge: float, weight_bytes: float) -> float:
    """b* = I* w / 2: the batch at which weights-only decode reaches the knee."""
    return ridge * weight_bytes / 2.0


def decode_intensity_limit(params: float, context: float, kv_per_token: float,
                           layers: int, attn_dim: int) -> float:
    """The intensity decode tends to as b grows, with KV reads: (2P + 4Lc d_attn) / (c k)."""
    if context <= 0 or kv_per_token <= 0:
        return math.inf
    return (2.0 * params + attention_decode_flops_per_seq(layers, context, attn_dim)) / (
        context * kv_per_token)


# ---------------------------------------------------------------------------
# attention prefill
# ---------------------------------------------------------------------------


def attention_prefill_flops(tokens: float, head_dim: int, heads: int) -> float:
    """Causal attention over L tokens: 2 L^2 d_h per head (QK^T and PV, halved by the mask)."""
    return 2.0 * tokens**2 * head_dim * heads


def attention_prefill_bytes(tokens: float, head_dim: int, heads: int, kv_heads: int,
                            dtype_bytes: float) -> float:
    """Q and O for h heads, K and V for h_kv heads, each crossing HBM once (fused kernel)."""
    return dtype_bytes * tokens * head_dim * (2.0 * heads + 2.0 * kv_heads)


def attention_prefill_intensity(tokens: float, heads: int, kv_heads: int,
                                dtype_bytes: float) -> float:
    """L h / (w (h + h_kv)): independent of the head dimension."""
    return tokens * heads / (dtype_bytes * (heads + kv_heads))


# ---------------------------------------------------------------------------
# the entry function
# ---------------------------------------------------------------------------

GPU_KEYS = ("h100", "h200", "b200")
# the HBM generation each GPU carries (its datasheet): the card's HBM3e is the H200's and the B200's
HBM_GENERATION = {"h100": "HBM3", "h200": "HBM3e", "b200": "HBM3e"}


@model(
    gpu_name=Param.text("the GPU the animation climbs", choices=("H100 SXM", "H200 SXM", "B200")),
    h100=Param.of(GPU, "H100 SXM (HBM3)"),
    h200=Param.of(GPU, "H200 SXM (HBM3e)"),
    b200=Param.of(GPU, "B200 in an HGX B200 (HBM3e)"),
    model_params=Param.positive("count", "parameters of the dense model, P"),
    weight_bytes=Param.positive("B", "bytes per weight and per KV value, w", maximum=8),
    layers=Param.integer("count", "transformer layers, L"),
    model_dim=Param.integer("count", "model dimension"),
    ffn_dim=Param.integer("count", "FFN dimension"),
    attention_heads=Param.integer("count", "attention (query) heads, h"),
    kv_heads=Param.integer("count", "key/value heads, h_kv"),
    node_gpus=Param.integer("count", "GPUs per node (the model is served on whole nodes)", maximum=64),
    context_length=Param.positive("count", "KV-cache tokens per sequence, c"),
    decode_batches=Param.numbers("count", "decode batches placed on the roofline", minimum=1),
    train_tokens=Param.positive("count", "rows M of the training GEMM (tokens)"),
    max_batch=Param.integer("count", "largest batch in the decode sweep", minimum=2, maximum=1_000_000),
    decode_efficiency=Param.positive("1", "share of datasheet HBM bandwidth decode achieves (an end-to-end MBU"
                                     " measured at batch 1)", maximum=1.0),
    h100_matmul_measured=Param.positive("FLOP/s", "highest dense BF16 matmul rate measured on an H100 SXM (best"
                                        " shape of a shape search)"),
    h100_copy_measured=Param.positive("B/s", "device-memory copy bandwidth measured on an H100 SXM (BabelStream,"
                                      " reads plus writes)"),
    h100_read_measured=Param.positive("B/s", "device-memory read-only stream bandwidth measured on an H100 SXM"
                                      " (BabelStream Dot: decode's traffic is almost all reads)"),
)
def roofline(gpu_name, h100, h200, b200, model_params, weight_bytes, layers, model_dim, ffn_dim,
             attention_heads, kv_heads, node_gpus, context_length, decode_batches=(1, 8, 64),
             train_tokens=8192, max_batch=1024, decode_efficiency=1.0, h100_matmul_measured=None,
             h100_copy_measured=None, h100_read_measured=None) -> Exhibit:
    """Rooflines of three GPUs, kernels placed on them, and decode's climb to the knee.

    gpu_name: the scenario's GPU (animated); h100/h200/b200: GPU entities
    (dense BF16 and FP8 peaks, HBM bandwidth and capacity); the dense model (P
    parameters in weight_bytes each, its layer shapes); node_gpus: the model is
    served on whole nodes; context_length: KV tokens per sequence for the
    KV-cache term, the capacity limit and the prefill kernel; decode_batches:
    decode kernels to place; train_tokens: rows M of the training GEMM;
    max_batch: end of the decode sweep; decode_efficiency: the share of datasheet
    HBM bandwidth decode achieves (the scenario fact, an end-to-end MBU at batch 1);
    h100_matmul_measured, h100_copy_measured, h100_read_measured: measured ceilings of the H100's two roofs
    (best-shape matmul; memory copy and read-only stream), for the knee at measured rates (None: the datasheet's).
    """
    by_key = {"h100": h100, "h200": h200, "b200": b200}
    anim = next(k for k, g in by_key.items() if g.name == gpu_name)
    P, w = float(model_params), float(weight_bytes)
    L, d, f_dim = int(layers), int(model_dim), int(ffn_dim)
    h, hkv = int(attention_heads), int(kv_heads)
    if d % h:
        raise ParamError("model_dim", d, f"a multiple of attention_heads ({h}): the heads split it evenly")
    if hkv > h:
        raise ParamError("kv_heads", hkv, f"at most attention_heads ({h}): each KV head serves a group of them")
    head_dim = d // h
    attn_dim = h * head_dim
    ctx = float(context_length)
    kv_tok = kv_bytes_per_token(L, hkv, head_dim, w)  # KV cache in the weights' dtype
    kv_seq = kv_tok * ctx
    weights = P * w

    def kv_i(b):
        """Decode's intensity at batch b with every sequence's KV cache read too."""
        return float(decode_intensity(P, w, b, ctx, kv_tok, L, attn_dim))

    eta = float(decode_efficiency)
    gpus = {key: gpu_roofline(g, P, w, ctx, kv_tok, kv_seq, weights, node_gpus, L, attn_dim, eta)
            for key, g in by_key.items()}
    for k, g in gpus.items():
        g["hbm"] = HBM_GENERATION[k]
    ga = gpus[anim]
    kernels = placed_kernels(gpus, ga, decode_batches, train_tokens, f_dim, d, w, ctx, head_dim, h, hkv)
    train = kernels[-2]
    i_grid = np.logspace(-1, 4.5, 111)
    # the sweep holds b* and the batch that fits, so the Explore probe opens at the page's b*
    batches = including(np.unique(np.round(np.logspace(0, math.log10(max_batch), 121))),
                        *[b for b in (ga["bstar_batch"], ga["kv_fit_batch"]) if 1 <= b <= max_batch])
    series = {
        **curves("intensity", i_grid, **{f"roof_{k}": attainable(i_grid, g["peak_bf16"], g["bandwidth"])
                                         for k, g in gpus.items()}),
        **curves("batch", batches, decode_intensity=decode_intensity_weights_only(batches, w),
                 decode_intensity_kv=decode_intensity(P, w, batches, ctx, kv_tok, L, attn_dim),
                 # the scenario GPU's HBM busy share, weights-only decode: saturated up to b*, then I*/I
                 decode_hbm_busy=hbm_busy(decode_intensity_weights_only(batches, w), ga["peak_bf16"],
                                          ga["bandwidth"]),
                 # weights-only decode on the scenario GPU's roof with HBM at the achievable share (Explore)
                 decode_attainable_achievable=attainable(decode_intensity_weights_only(batches, w),
                                                         ga["peak_bf16"], eta * ga["bandwidth"])),
    }
    lim = decode_intensity_limit(P, ctx, kv_tok, L, attn_dim)
    animation = climb_plan(anim, ga, w, max_batch, kv_i, lim)
    summary = {
        "model_params": P, "weight_bytes": w, "context_length": ctx,
        "kv_bytes_per_token": kv_tok, "kv_bytes_per_sequence": kv_seq,
        "layers": L, "kv_heads": hkv,
        "weights_bytes_total": weights,
        "decode_intensity_limit_kv": lim,
        "train_tokens": float(train_tokens), "ffn_dim": f_dim, "model_dim": d,
        "node_gpus": int(node_gpus),
        **gpu_summary(gpus, ga, lim),
    }
    step = decode_step_kernels(P, w, ga["kv_fit_batch"], ctx, kv_tok, L, attn_dim, ga["peak_bf16"],
                               ga["bandwidth"])
    summary.update({
        "decode_bandwidth_efficiency": eta,
        "anim_ridge_achievable": ga["ridge_achievable"],
        "anim_bstar_achievable_batch": math.ceil(ga["bstar_achievable"]),
        "anim_bstar_fp8_weights_bf16_batch": math.ceil(ga["bstar_fp8w_bf16"]),
        # FP8 weights on BF16 compute: what fits beside the halved weights, KV in BF16 or in FP8
        "anim_fp8w_serving_gpus": ga["fp8w_serving_gpus"],
        "anim_fp8w_free_bytes": ga["fp8w_free_bytes"],
        "anim_fp8w_fit_bf16_kv": ga["fp8w_fit_bf16_kv"],
        "anim_fp8w_fit_fp8_kv": ga["fp8w_fit_fp8_kv"],
        # does capacity bind before the halved b*, even with an FP8 KV cache? (the page words it either way)
        "anim_fp8w_capacity_binds": ga["fp8w_fit_fp8_kv"] < math.ceil(ga["bstar_fp8w_bf16"]),
        # the knee at achievable rates is (η_c/η_m) I*: tensor cores at the same share as HBM leave it at I*,
        # at their peak it is I*/η_m; a smaller η_c moves it further left, so these two are cases, not bounds
        "anim_ridge_achievable_low": ga["ridge_bf16"],
        "anim_bstar_achievable_low_batch": ga["bstar_batch"],
        "attention_decode_intensity": step["attention_intensity"],
        "anim_fit_matmul_intensity": step["matmul_intensity"],
        "anim_fit_step_time_per_kernel": step["time_per_kernel"],
        "anim_fit_step_time_blended": step["time_blended"],
        "anim_fit_attention_time_share": step["attention_time"] / step["time_per_kernel"],
    })
    summary.update({"anim_hbm": ga["hbm"], "anim_past_knee_batch": animation["past_knee_batch"],
                    "anim_past_knee_hbm_busy": animation["past_knee_hbm_busy"],
                    # weights only: the past-the-knee batch's KV caches fit beside the weights below this context
                    "anim_past_knee_max_context": ga["free_bytes"] / (animation["past_knee_batch"] * kv_tok)})
    summary.update(measured_knees(gpus["h100"], w, eta, h100_matmul_measured, h100_copy_measured,
                                  h100_read_measured))
    check_knee_claims(summary, ga, gpus, ctx)
    check(step["time_per_kernel"] >= step["time_blended"] * (1 - 1e-12),
          "the step's per-kernel time is never below the blended roofline's")
    problems = {
        "bstar": ga["bstar_bf16"],
        "bstar_fp8": ga["bstar_fp8"],
        "ridge_fp8": ga["ridge_fp8"],
        "train_intensity": train["intensity"],
        "train_attainable": train["attainable"][anim],
        "train_time": train["flops"] / train["attainable"][anim],
        "train_knee_rows": gemm_knee_rows(f_dim, d, w, ga["ridge_bf16"]),
        "kv_limit": lim,
        "h200_bstar_batch": gpus["h200"]["bstar_batch"],
        "h200_kv_fit_batch": gpus["h200"]["kv_fit_batch"],
        "h200_bstar_max_context": gpus["h200"]["bstar_max_context"],
        "h200_serving_gpus": gpus["h200"]["serving_gpus"],
    }
    problems.update({"bstar_fp8_weights_bf16": ga["bstar_fp8w_bf16"], "bstar_achievable": ga["bstar_achievable"]})
    return Exhibit(summary=summary, series=series, table=roofline_table(gpus, ctx), animation=animation,
                   problems=problems, records={"gpus": gpus, "kernels": kernels, "decode_step": step,
                                               RECORD: published(decode_bandwidth_efficiency=eta)})


# ---------------------------------------------------------------------------
# the recipe's steps
# ---------------------------------------------------------------------------


def measured_knees(g: dict, w: float, eta_m: float, matmul, copy, read=None) -> dict:
    """The H100's knee at measured rates, (η_c/η_m) I*: the two measurements are the H100's own.

    η_c is the best-shape matmul rate over the dense peak (an upper bound for the M ≈ b* GEMMs of decode);
    η_m the scenario's batch-1 MBU, a device-memory copy's share of the datasheet bandwidth, or a read-only
    stream's (BabelStream Dot): decode reads weights and KV caches and writes little, so the read stream is
    its measured HBM ceiling, the copy (half writes) a lower one.
    """
    peak, bw, ridge = g["peak_bf16"], g["bandwidth"], g["ridge_bf16"]
    eta_c = 1.0 if matmul is None else float(matmul) / peak
    eta_copy = 1.0 if copy is None else float(copy) / bw
    eta_read = 1.0 if read is None else float(read) / bw
    if eta_c > 1:
        raise ParamError("h100_matmul_measured", matmul, f"at most the H100's dense BF16 peak ({peak:.4g} FLOP/s)")
    if eta_copy > 1:
        raise ParamError("h100_copy_measured", copy, f"at most the H100's datasheet bandwidth ({bw:.4g} B/s)")
    if eta_read > 1:
        raise ParamError("h100_read_measured", read, f"at most the H100's datasheet bandwidth ({bw:.4g} B/s)")
    r_mbu, r_copy, r_read = eta_c / eta_m * ridge, eta_c / eta_copy * ridge, eta_c / eta_read * ridge
    out = {
        "h100_matmul_share": eta_c, "h100_copy_share": eta_copy,
        "h100_matmul_measured_tflops": eta_c * peak / 1e12, "h100_copy_measured_tbs": eta_copy * bw / 1e12,
        # measured matmul rate against the batch-1 MBU: the third case of the ratio, between the other two
        "h100_ridge_measured_mbu": r_mbu,
        "h100_bstar_measured_mbu_batch": math.ceil(compute_bound_batch(r_mbu, w)),
        # measured matmul rate against a memory copy: both roofs at a measured ceiling
        "h100_ridge_measured_copy": r_copy,
        "h100_bstar_measured_copy_batch": math.ceil(compute_bound_batch(r_copy, w)),
        "h100_ridge_measured_copy_below_datasheet": bool(r_copy < ridge),
        # measured matmul rate against a read-only stream: decode's own kind of HBM traffic
        "h100_read_share": eta_read, "h100_read_measured_tbs": eta_read * bw / 1e12,
        "h100_ridge_measured_read": r_read,
        "h100_bstar_measured_read_batch": math.ceil(compute_bound_batch(r_read, w)),
        "h100_ridge_measured_read_below_datasheet": bool(r_read < ridge),
    }
    # the page's words for the MBU case (η_c ≤ 1 is enforced above); an Explore η_m above η_c breaks them
    check(eta_m < eta_c, "the measured matmul share exceeds η_m, so its knee is right of the datasheet's")
    # the page calls the read stream decode's ceiling and the copy a lower one: the read knee left of the copy's
    check(eta_read >= eta_copy, "a read-only stream reaches at least the copy's share of HBM")
    return out


def decode_step_kernels(P: float, w: float, b: float, ctx: float, kv_tok: float, L: int, attn_dim: int,
                        peak: float, bandwidth: float) -> dict:
    """One decode step at batch b as two kernels, each on the roofline by itself.

    Weight matmuls: F = 2Pb, Q = P w. Attention: F = b 4 L c d_attn, Q = b c k. Time: the sum over
    kernels of max(F/Π, Q/β), against the blended max(ΣF/Π, ΣQ/β) of one kernel at I(b).
    """
    f_mm, q_mm = 2.0 * P * b, P * w
    f_at, q_at = b * attention_decode_flops_per_seq(L, ctx, attn_dim), b * ctx * kv_tok
    t_mm, t_at = max(f_mm / peak, q_mm / bandwidth), max(f_at / peak, q_at / bandwidth)
    return {
        "batch": float(b),
        "matmul_intensity": f_mm / q_mm, "attention_intensity": f_at / q_at,
        "matmul_time": t_mm, "attention_time": t_at, "time_per_kernel": t_mm + t_at,
        "time_blended": max((f_mm + f_at) / peak, (q_mm + q_at) / bandwidth),
        "blended_intensity": (f_mm + f_at) / (q_mm + q_at),
    }


def gpu_roofline(g, P: float, w: float, ctx: float, kv_tok: float, kv_seq: float, weights: float,
                 node_gpus: int, L: int, attn_dim: int, eta: float = 1.0) -> dict:
    """One GPU's roofs and knees, how many serve the model, and how large a batch fits beside it."""
    r16, r8 = ridge_point(g.peak_bf16, g.hbm_bandwidth), ridge_point(g.peak_fp8, g.hbm_bandwidth)
    n = serving_gpus(weights, g.hbm_capacity, node_gpus)
    free = n * g.hbm_capacity - weights
    b_fit = batch_that_fits(free, kv_seq)
    # the datasheet's "80GB" read as GiB, on the same n GPUs: the larger reading, so this batch bounds b_fit above
    b_fit_binary = batch_that_fits(n * g.hbm_capacity * GiB / GB - weights, kv_seq)
    # FP8 weights (half the bytes) on BF16 compute: fewer GPUs may hold them, more HBM is left for KV
    n8 = serving_gpus(weights / 2, g.hbm_capacity, node_gpus)
    free8 = n8 * g.hbm_capacity - weights / 2
    bstar = compute_bound_batch(r16, w)
    # per kernel: the weight matmuls' intensity is 2b/w whatever the KV cache, so their knee is b* at any
    # context; attention's is fixed far under it. Only capacity can keep the matmuls from b*.
    b_need = math.ceil(bstar)
    kv_knee = (f"capacity-bound: needs {b_need:,}, {b_fit:,} fit" if b_need > b_fit
               else f"{b_need:,} (fits: {b_fit:,})")
    out = {
        "name": g.name,
        "peak_bf16": g.peak_bf16, "peak_fp8": g.peak_fp8,
        "bandwidth": g.hbm_bandwidth, "memory": g.hbm_capacity,
        "ridge_bf16": r16, "ridge_fp8": r8,
        "bstar_bf16": bstar,
        "bstar_batch": math.ceil(bstar),  # whole sequences: the one rounding rule for batches
        "bstar_fp8": compute_bound_batch(r8, w / 2),  # FP8 weights on FP8 tensor cores
        "bstar_fp8w_bf16": compute_bound_batch(r16, w / 2),  # FP8 weights, BF16 compute: b* halves
        # the knee at the bandwidth kernels achieve, the tensor-core roof at its datasheet peak
        "ridge_achievable": ridge_point(g.peak_bf16, eta * g.hbm_bandwidth),
        "bstar_achievable": compute_bound_batch(ridge_point(g.peak_bf16, eta * g.hbm_bandwidth), w),
        "fp8w_serving_gpus": n8, "fp8w_free_bytes": free8,
        "fp8w_fit_bf16_kv": batch_that_fits(free8, kv_seq),
        "fp8w_fit_fp8_kv": batch_that_fits(free8, kv_seq / 2),
        # with KV caches the weight matmuls reach the knee at b* if b* sequences fit
        "kv_reaches_knee": b_need <= b_fit,
        "kv_knee": kv_knee,
        "serving_gpus": n,
        "free_bytes": free,
        "kv_fit_batch": b_fit,
        "kv_fit_batch_binary": b_fit_binary,
        # the longest context at which b* sequences' KV caches still fit beside the weights
        "bstar_max_context": free / (b_need * kv_tok),
        # the step's average intensity I(b) at the largest batch that fits (an average, not a threshold)
        "kv_fit_step_intensity": float(decode_intensity(P, w, b_fit, ctx, kv_tok, L, attn_dim)),
        "decode_b1_attainable": attainable(decode_intensity_weights_only(1, w), g.peak_bf16,
                                           g.hbm_bandwidth),
        "memory_sweep_time": g.hbm_capacity / g.hbm_bandwidth,  # reading a GPU full of weights once
    }
    # the table's per-kernel answer agrees with the capacity test: b* fits exactly when its context is short enough
    check(out["kv_reaches_knee"] == (ctx <= out["bstar_max_context"]),
          "b* sequences fit beside the weights exactly below the context bstar_max_context")
    return out


def placed_kernels(gpus: dict, ga: dict, decode_batches, train_tokens: float, f_dim: int, d: int, w: float,
                   ctx: float, head_dim: int, h: int, hkv: int) -> list[dict]:
    """Kernels placed on the BF16 roofline: decode at each batch, a training GEMM, attention prefill.

    The last two are the training GEMM and the prefill, in that order.
    """
    kernels = []
    for b in decode_batches:
        b = int(b)
        kernels.append({
            "name": f"decode, b = {b}", "kind": "decode", "batch": b,
            "flops": float(gemm_flops(b, f_dim, d)), "bytes": float(gemm_bytes(b, f_dim, d, w)),
            "intensity": float(gemm_intensity(b, f_dim, d, w)),
        })
    m_train = float(train_tokens)
    train = {
        "name": "training GEMM (FFN up-projection)", "kind": "gemm", "batch": None,
        "flops": float(gemm_flops(m_train, f_dim, d)), "bytes": float(gemm_bytes(m_train, f_dim, d, w)),
        "intensity": float(gemm_intensity(m_train, f_dim, d, w)),
    }
    prefill = {
        "name": "attention prefill", "kind": "attention", "batch": None,
        "flops": attention_prefill_flops(ctx, head_dim, h),
        "bytes": attention_prefill_bytes(ctx, head_dim, h, hkv, w),
        "intensity": attention_prefill_intensity(ctx, h, hkv, w),
    }
    kernels += [train, prefill]
    for kn in kernels:
        kn["attainable"] = {k: attainable(kn["intensity"], g["peak_bf16"], g["bandwidth"])
                            for k, g in gpus.items()}
        kn["memory_bound"] = {k: bool(kn["intensity"] < g["ridge_bf16"]) for k, g in gpus.items()}
    check(all(all(kn["memory_bound"].values()) for kn in kernels if kn["kind"] == "decode"),
          "decode at the batches placed is memory-bound on every GPU")
    check(not any(train["memory_bound"].values()) and not any(prefill["memory_bound"].values()),
          "training GEMMs sit right of every knee")
    check(all(int(b) <= ga["kv_fit_batch"] for b in decode_batches),
          "the decode batches placed fit in HBM with their KV caches")
    check(ga["bstar_max_context"] > 0, "b* sequences fit beside the weights at some context length")
    return kernels


def climb_plan(anim: str, ga: dict, w: float, max_batch: int, kv_i, lim: float) -> dict:
    """The animation plan: doublings of b on the scenario's GPU, weights only and with the KV cache."""
    bstar = ga["bstar_bf16"]
    doublings = [float(2**k) for k in range(int(math.log2(max_batch)) + 1)]
    climb = [b for b in doublings if b < bstar]
    kv_climb = [b for b in doublings if b < ga["kv_fit_batch"]] + [float(ga["kv_fit_batch"])]
    animation = {
        "gpu": anim,
        "batches": climb,
        "intensity": [float(decode_intensity_weights_only(b, w)) for b in climb],
        "attainable": [attainable(float(decode_intensity_weights_only(b, w)), ga["peak_bf16"],
                                  ga["bandwidth"]) for b in climb],
        # HBM busy share at each step: saturated all the way up the slope
        "hbm_busy": [hbm_busy(float(decode_intensity_weights_only(b, w)), ga["peak_bf16"], ga["bandwidth"])
                     for b in climb],
        "bstar": bstar,
        "bstar_batch": ga["bstar_batch"],
        # at the whole batch b*: its intensity (2 b*/w) and throughput, as the screen shows them
        "bstar_intensity": float(decode_intensity_weights_only(ga["bstar_batch"], w)),
        "bstar_hbm_busy": hbm_busy(float(decode_intensity_weights_only(ga["bstar_batch"], w)), ga["peak_bf16"],
                                   ga["bandwidth"]),
        # two doublings past the knee: the tensor cores set the pace and HBM idles most of the step
        "past_knee_batch": float(2 ** (math.ceil(math.log2(bstar)) + 1)),
        "past_knee_hbm_busy": hbm_busy(float(decode_intensity_weights_only(2 ** (math.ceil(math.log2(bstar)) + 1),
                                                                          w)), ga["peak_bf16"], ga["bandwidth"]),
        "order": [anim] + [k for k in GPU_KEYS if k != anim],
        # doublings with each sequence's KV cache read too, up to the largest batch that fits
        "kv_batches": kv_climb,
        "kv_intensity": [kv_i(b) for b in kv_climb],
        "kv_attainable": [attainable(kv_i(b), ga["peak_bf16"], ga["bandwidth"]) for b in kv_climb],
        "kv_limit_intensity": lim,
        "kv_hbm_busy": [hbm_busy(kv_i(b), ga["peak_bf16"], ga["bandwidth"]) for b in kv_climb],
    }
    check(kv_i(ga["kv_fit_batch"]) < ga["ridge_bf16"] or ga["kv_reaches_knee"],
          "with its KV cache, the largest batch that fits stays under the knee")
    return animation


def gpu_summary(gpus: dict, ga: dict, lim: float) -> dict:
    """Each GPU's knees and what fits, then the scenario's GPU under anim_* names."""
    out = {}
    for k, g in gpus.items():
        for f in ("ridge_bf16", "bstar_batch", "serving_gpus", "kv_fit_batch", "kv_fit_batch_binary",
                  "kv_reaches_knee"):
            out[f"{k}_{f}"] = g[f]
        out[f"{k}_bandwidth_tbs"] = g["bandwidth"] / 1e12
        out[f"{k}_peak_bf16_tflops"] = g["peak_bf16"] / 1e12
        out[f"{k}_peak_fp8_tflops"] = g["peak_fp8"] / 1e12
    out.update({
        "anim_name": ga["name"],
        "anim_ridge_bf16": ga["ridge_bf16"],
        "anim_peak_bf16_tflops": ga["peak_bf16"] / 1e12,
        "anim_b1_fraction_of_peak": ga["decode_b1_attainable"] / ga["peak_bf16"],
        "anim_bstar_batch": ga["bstar_batch"],
        "anim_bstar_max_context": ga["bstar_max_context"],
        "anim_serving_gpus": ga["serving_gpus"],
        "anim_kv_fit_batch": ga["kv_fit_batch"],
        "anim_kv_fit_batch_binary": ga["kv_fit_batch_binary"],
        "anim_capacity_binary": ga["memory"] * GiB / GB,  # the datasheet's "80GB" read as 2^30 bytes per G
        # even at the larger (binary) reading of the capacity, b* sequences do not fit
        "anim_binary_fit_below_bstar": ga["kv_fit_batch_binary"] < ga["bstar_batch"],
        "anim_kv_fit_intensity": ga["kv_fit_step_intensity"],  # the step's average I(b), not a threshold
        "anim_kv_limit_fraction_of_ridge": lim / ga["ridge_bf16"],
        # the step's average I(b) stays under the ridge at every batch (an average: the matmuls still reach b*)
        "anim_kv_limit_below_ridge": bool(lim < ga["ridge_bf16"]),
        "anim_kv_reaches_knee": ga["kv_reaches_knee"],
    })
    return out


def check_knee_claims(summary: dict, ga: dict, gpus: dict, ctx: float) -> None:
    """How the three GPUs' knees compare, as the page words it."""
    check(math.isclose(gpus["h200"]["peak_bf16"], gpus["h100"]["peak_bf16"])
          and gpus["h200"]["bandwidth"] > gpus["h100"]["bandwidth"],
          "HBM3e on the same tensor cores: the H200 has the H100's compute and more bandwidth")
    check(summary["h200_ridge_bf16"] < summary["h100_ridge_bf16"],
          "the H200 keeps the compute and adds bandwidth, so its knee falls")
    check(ga["bstar_max_context"] < ctx, "b* sequences do not fit with a full KV cache each")
    check(all(math.isclose(g["bstar_fp8"], g["bstar_bf16"]) for g in gpus.values()),
          "FP8 doubles the intensity and the peak alike, so b* does not move")
    check(all(math.isclose(g["bstar_fp8w_bf16"], g["bstar_bf16"] / 2) for g in gpus.values()),
          "FP8 weights on BF16 compute halve b*")
    check(summary["attention_decode_intensity"] < ga["ridge_bf16"],
          "decode attention stays far under the knee at every batch")
    check(abs(summary["b200_ridge_bf16"] / summary["h100_ridge_bf16"] - 1) < 0.05,
          "the B200 raises both, and its knee stays near the H100's")
    check(summary["anim_past_knee_max_context"] < ctx,
          "the past-the-knee batch fits with its KV caches only at short context")


def roofline_table(gpus: dict, ctx: float) -> Table:
    """Each GPU's roofs, ridges, knees and what fits, in GPU_KEYS order."""
    return Table(
        "Roofline of each GPU (dense tensor-core peaks; HBM bandwidth per GPU, reads and writes "
        "sharing it) and the batch at which BF16 decode of the scenario's model becomes "
        f"compute-bound, weights only and with {int(ctx):,} tokens of KV cache per sequence (the weight "
        "matmuls reach the knee at the weights-only batch at any context, if that many sequences' KV caches "
        "fit beside the weights); the "
        "model is served on the fewest whole nodes whose HBM holds its weights. Ridges to 4 significant "
        "figures, as in the text",
        [Column("GPU", "text"), Column("dense BF16 peak", "FLOP/s"), Column("dense FP8 peak", "FLOP/s"),
         Column("HBM bandwidth", "B/s"), Column("HBM capacity", "B"),
         Column("ridge, BF16 (FLOP/B)", "1", digits=4), Column("ridge, FP8 (FLOP/B)", "1", digits=4),
         Column("decode b*, weights only (rounded up to whole sequences)", "count"),
         Column("GPUs serving the model", "count"),
         Column("largest batch that fits, with KV cache", "count"),
         Column("decode b*, with KV cache (weight matmuls)", "text"),
         Column("b* sequences fit beside the weights below about (tokens each)", "count")],
        [[g["name"], g["peak_bf16"], g["peak_fp8"], g["bandwidth"], g["memory"], g["ridge_bf16"],
          g["ridge_fp8"], g["bstar_batch"], g["serving_gpus"], g["kv_fit_batch"], g["kv_knee"],
          g["bstar_max_context"]]
         for g in (gpus[k] for k in GPU_KEYS)],
    )


__all__ = [
    "attainable", "hbm_busy", "is_memory_bound", "gemm_flops", "gemm_bytes", "gemm_intensity", "gemm_knee_rows",
    "decode_intensity", "decode_intensity_weights_only", "compute_bound_batch",
    "decode_intensity_limit",
    "attention_prefill_flops", "attention_prefill_bytes", "attention_prefill_intensity", "decode_step_kernels",
    "roofline",
]
