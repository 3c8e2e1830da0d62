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
with the batch, so at long context decode may never reach the knee.

Attention prefill (a fused, FlashAttention-style kernel): for L tokens, h
query heads and h_kv KV heads of dimension d_h, causal FLOPs 2 L^2 d_h h
(QK^T and PV, halved by the mask); HBM traffic Q, O (h heads) and K, V (h_kv
heads) once each, tiles re-used on chip: I = L h / (w (h + h_kv)).

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

# ---------------------------------------------------------------------------
# the roofline
# ---------------------------------------------------------------------------


def ridge_point(peak: float, bandwidth: float) -> float:
    """I* = peak / bandwidth, FLOP per byte: where the two roofs meet."""
    if peak <= 0 or bandwidth <= 0:
        raise ValueError("peak and bandwidth must be positive")
    return peak / bandwidth


def attainable(intensity, peak: float, bandwidth: float):
    """min(peak, I * bandwidth), FLOP/s; intensity may be an array."""
    i = np.asarray(intensity, dtype=float)
    if np.any(i < 0):
        raise ValueError("arithmetic intensity must be >= 0")
    out = np.minimum(peak, i * bandwidth)
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


def kv_bytes_per_token(layers: int, kv_heads: int, head_dim: int, kv_dtype_bytes: float) -> float:
    """K and V for one token across all layers: 2 L h_kv d_h w_kv bytes."""
    return 2.0 * layers * kv_heads * head_dim * kv_dtype_bytes


def attention_decode_flops_per_seq(layers: int, context: float, attn_dim: int) -> float:
    """QK^T and PV for one new token against c cached ones: 4 L c d_attn FLOPs."""
    return 4.0 * layers * context * attn_dim


def decode_flops(params: float, batch, context: float = 0.0, layers: int = 0,
                 attn_dim: int = 0):
    """FLOPs of one decode step for b sequences: b (2P + 4 L c d_attn)."""
    b = np.asarray(batch, dtype=float)
    return b * (2.0 * params + attention_decode_flops_per_seq(layers, context, attn_dim))


def decode_bytes(params: float, weight_bytes: float, batch, context: float = 0.0,
                 kv_per_token: float = 0.0):
    """HBM bytes of one decode step: the weights once, plus b c k bytes of KV cache."""
    b = np.asarray(batch, dtype=float)
    return params * weight_bytes + b * context * kv_per_token


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


def compute_bound_batch_kv(ridge: float, params: float, weight_bytes: float, context: float,
                           kv_per_token: float, layers: int, attn_dim: int) -> float | None:
    """Batch at which decode with KV reads reaches the ridge; None if it never does.

    Solves b (2P + f) = I* (P w + b c k): b = I* P w / (2P + f - I* c k).
    """
    f = attention_decode_flops_per_seq(layers, context, attn_dim)
    denom = 2.0 * params + f - ridge * context * kv_per_token
    if denom <= 0:
        return None
    return ridge * params * weight_bytes / denom


def max_context_for_knee(ridge: float, params: float, kv_per_token: float, layers: int,
                         attn_dim: int) -> float | None:
    """Longest context at which decode can still reach the ridge at some batch.

    From (2P + 4 L c d_attn) / (c k) = I*: c = 2P / (I* k - 4 L d_attn); None if
    every context can (attention alone is above the ridge).
    """
    denom = ridge * kv_per_token - 4.0 * layers * attn_dim
    if denom <= 0:
        return None
    return 2.0 * params / denom


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
GPU_NAMES = {"h100": "H100 SXM", "h200": "H200 SXM", "b200": "B200"}


def _slug(name: str) -> str:
    for key, full in GPU_NAMES.items():
        if name.strip().lower() in (key, full.lower()):
            return key
    raise ValueError(f"gpu_name {name!r} is not one of {list(GPU_NAMES.values())}")


def roofline(
    gpu_name: str,
    h100_peak_bf16: float, h100_peak_fp8: float, h100_bandwidth: float, h100_memory: float,
    h200_peak_bf16: float, h200_peak_fp8: float, h200_bandwidth: float, h200_memory: float,
    b200_peak_bf16: float, b200_peak_fp8: float, b200_bandwidth: float, b200_memory: float,
    model_params: float,
    weight_bytes: float,
    layers: int,
    model_dim: int,
    ffn_dim: int,
    attention_heads: int,
    kv_heads: int,
    context_length: float = 8192,
    decode_batches: tuple = (1, 8, 64),
    train_tokens: float = 8192,
    max_batch: int = 1024,
) -> dict:
    """Rooflines of three GPUs, kernels placed on them, and decode's climb to the knee.

    gpu_name: the scenario's GPU (animated); per GPU the dense BF16 and FP8
    peaks (FLOP/s), HBM bandwidth (B/s) and capacity (B); the dense model
    (P parameters in weight_bytes each, its layer shapes); context_length: KV
    tokens per sequence for the KV-cache term and the prefill kernel;
    decode_batches: decode kernels to place; train_tokens: rows M of the
    training GEMM; max_batch: end of the decode sweep.
    """
    anim = _slug(gpu_name)
    P, w = float(model_params), float(weight_bytes)
    if P <= 0 or w <= 0:
        raise ValueError("model_params and weight_bytes must be positive")
    L, d, f_dim = int(layers), int(model_dim), int(ffn_dim)
    h, hkv = int(attention_heads), int(kv_heads)
    head_dim = d // h
    attn_dim = h * head_dim
    ctx = float(context_length)
    kv_tok = kv_bytes_per_token(L, hkv, head_dim, w)  # KV cache in the weights' dtype
    att_f = attention_decode_flops_per_seq(L, ctx, attn_dim)

    specs = {
        "h100": (h100_peak_bf16, h100_peak_fp8, h100_bandwidth, h100_memory),
        "h200": (h200_peak_bf16, h200_peak_fp8, h200_bandwidth, h200_memory),
        "b200": (b200_peak_bf16, b200_peak_fp8, b200_bandwidth, b200_memory),
    }

    # --- per-GPU roofs and knees -------------------------------------------------
    gpus = {}
    for key, (pk16, pk8, bw, mem) in specs.items():
        r16, r8 = ridge_point(pk16, bw), ridge_point(pk8, bw)
        b_kv = compute_bound_batch_kv(r16, P, w, ctx, kv_tok, L, attn_dim)
        gpus[key] = {
            "name": GPU_NAMES[key],
            "peak_bf16": float(pk16), "peak_fp8": float(pk8),
            "bandwidth": float(bw), "memory": float(mem),
            "ridge_bf16": r16, "ridge_fp8": r8,
            "bstar_bf16": compute_bound_batch(r16, w),
            "bstar_fp8": compute_bound_batch(r8, w / 2),  # FP8 weights on FP8 tensor cores
            "bstar_kv": b_kv,
            "max_context_for_knee": max_context_for_knee(r16, P, kv_tok, L, attn_dim),
            "decode_b1_attainable": attainable(decode_intensity_weights_only(1, w), pk16, bw),
            "memory_sweep_time": mem / bw,  # reading a GPU full of weights once
        }

    # --- kernels placed on the roofline (BF16) ------------------------------------
    kernels = []
    for b in decode_batches:
        b = int(b)
        kernels.append({
            "name": f"decode, b = {b}", "kind": "decode", "batch": b,
            "flops": float(gemm_flops(b, f_dim, d)), "bytes": float(gemm_bytes(b, f_dim, d, w)),
            "intensity": float(gemm_intensity(b, f_dim, d, w)),
            "model_intensity": float(decode_intensity_weights_only(b, w)),
        })
    m_train = float(train_tokens)
    kernels.append({
        "name": "training GEMM (FFN up-projection)", "kind": "gemm", "batch": None,
        "flops": float(gemm_flops(m_train, f_dim, d)),
        "bytes": float(gemm_bytes(m_train, f_dim, d, w)),
        "intensity": float(gemm_intensity(m_train, f_dim, d, w)),
        "model_intensity": None,
    })
    kernels.append({
        "name": "attention prefill", "kind": "attention", "batch": None,
        "flops": attention_prefill_flops(ctx, head_dim, h),
        "bytes": attention_prefill_bytes(ctx, head_dim, h, hkv, w),
        "intensity": attention_prefill_intensity(ctx, h, hkv, w),
        "model_intensity": None,
    })
    for kn in kernels:
        kn["attainable"] = {k: attainable(kn["intensity"], g["peak_bf16"], g["bandwidth"])
                            for k, g in gpus.items()}
        kn["memory_bound"] = {k: bool(kn["intensity"] < g["ridge_bf16"]) for k, g in gpus.items()}

    # --- series: roofs on a log grid, and decode's climb -----------------------------
    i_grid = np.logspace(-1, 4.5, 111)
    roofs = {k: attainable(i_grid, g["peak_bf16"], g["bandwidth"]) for k, g in gpus.items()}
    batches = np.unique(np.round(np.logspace(0, math.log10(max_batch), 121))).astype(float)
    dec_w = decode_intensity_weights_only(batches, w)
    dec_kv = decode_intensity(P, w, batches, ctx, kv_tok, L, attn_dim)
    doublings = [float(2**k) for k in range(int(math.log2(max_batch)) + 1)]

    ga = gpus[anim]
    series = {
        "intensity": i_grid,
        **{f"roof_{k}": v for k, v in roofs.items()},
        "batch": batches,
        "decode_intensity": dec_w,
        "decode_intensity_kv": dec_kv,
        "decode_attainable": attainable(dec_w, ga["peak_bf16"], ga["bandwidth"]),
        "decode_attainable_kv": attainable(dec_kv, ga["peak_bf16"], ga["bandwidth"]),
    }

    # --- the animation plan: doublings of b on the scenario's GPU ---------------------
    bstar = ga["bstar_bf16"]
    climb = [b for b in doublings if b < bstar]
    animation = {
        "gpu": anim,
        "batches": climb,
        "intensity": [float(decode_intensity_weights_only(b, w)) for b in climb],
        "attainable": [attainable(float(decode_intensity_weights_only(b, w)), ga["peak_bf16"],
                                  ga["bandwidth"]) for b in climb],
        "bstar": bstar,
        "bstar_batch": math.ceil(bstar),
        "order": [anim] + [k for k in GPU_KEYS if k != anim],
        # the same doublings with each sequence's KV cache read too
        "kv_batches": doublings,
        "kv_intensity": [float(decode_intensity(P, w, b, ctx, kv_tok, L, attn_dim))
                         for b in doublings],
        "kv_attainable": [attainable(float(decode_intensity(P, w, b, ctx, kv_tok, L, attn_dim)),
                                     ga["peak_bf16"], ga["bandwidth"]) for b in doublings],
        "kv_limit_intensity": decode_intensity_limit(P, ctx, kv_tok, L, attn_dim),
    }

    # --- summary, problems, table ------------------------------------------------------
    summary = {
        "model_params": P, "weight_bytes": w, "context_length": ctx,
        "kv_bytes_per_token": kv_tok, "kv_bytes_per_sequence": kv_tok * ctx,
        "head_dim": head_dim, "layers": L, "kv_heads": hkv, "attention_heads": h,
        "weights_bytes_total": P * w,
        "decode_flops_per_token": 2.0 * P,
        "attention_flops_per_token": att_f,
        "decode_intensity_limit_kv": decode_intensity_limit(P, ctx, kv_tok, L, attn_dim),
        "train_tokens": m_train, "ffn_dim": f_dim, "model_dim": d,
        "gemm_limit_intensity": 2.0 * f_dim * d / (w * (f_dim + d)),
    }
    for k, g in gpus.items():
        for field in ("peak_bf16", "peak_fp8", "bandwidth", "memory", "ridge_bf16", "ridge_fp8",
                      "bstar_bf16", "bstar_fp8", "decode_b1_attainable", "memory_sweep_time"):
            summary[f"{k}_{field}"] = g[field]
        summary[f"{k}_peak_bf16_tflops"] = g["peak_bf16"] / 1e12
        summary[f"{k}_peak_fp8_tflops"] = g["peak_fp8"] / 1e12
        summary[f"{k}_b1_fraction_of_peak"] = g["decode_b1_attainable"] / g["peak_bf16"]
        summary[f"{k}_bstar_batch"] = math.ceil(g["bstar_bf16"])  # whole sequences
        summary[f"{k}_kv_reaches_knee"] = 1.0 if g["bstar_kv"] is not None else 0.0
    summary.update({f"anim_{f}": ga[f] for f in ("peak_bf16", "bandwidth", "ridge_bf16",
                                                   "bstar_bf16", "decode_b1_attainable")})
    summary["anim_peak_bf16_tflops"] = ga["peak_bf16"] / 1e12
    summary["anim_bstar_batch"] = math.ceil(ga["bstar_bf16"])
    summary["anim_ridge_fp8"] = ga["ridge_fp8"]
    summary["anim_kv_limit_fraction_of_ridge"] = (summary["decode_intensity_limit_kv"]
                                                  / ga["ridge_bf16"])
    for kn in kernels:
        tag = kn["kind"] if kn["kind"] != "decode" else f"decode_b{kn['batch']}"
        summary[f"kernel_{tag}_intensity"] = kn["intensity"]
        summary[f"kernel_{tag}_attainable"] = kn["attainable"][anim]
        summary[f"kernel_{tag}_fraction_of_peak"] = kn["attainable"][anim] / ga["peak_bf16"]

    train = next(kn for kn in kernels if kn["kind"] == "gemm")
    problems = {
        "bstar": bstar,
        "bstar_fp8": ga["bstar_fp8"],
        "ridge_fp8": ga["ridge_fp8"],
        "train_intensity": train["intensity"],
        "train_attainable": train["attainable"][anim],
        "train_time": train["flops"] / train["attainable"][anim],
        "train_knee_rows": gemm_knee_rows(f_dim, d, w, ga["ridge_bf16"]),
        "kv_limit": summary["decode_intensity_limit_kv"],
        "kv_bstar": ga["bstar_kv"],
        "kv_max_context": ga["max_context_for_knee"],
        "b1_step_time_floor": ga["memory_sweep_time"],
    }

    def count_or_never(x):
        return f"{math.ceil(x):,}" if x is not None else "never"

    rows = []
    for k in GPU_KEYS:
        g = gpus[k]
        rows.append([g["name"], g["peak_bf16"] / 1e12, g["peak_fp8"] / 1e12, g["bandwidth"],
                     g["memory"], g["ridge_bf16"], g["ridge_fp8"], math.ceil(g["bstar_bf16"]),
                     count_or_never(g["bstar_kv"]), g["memory_sweep_time"]])
    table = {
        "caption": ("Roofline of each GPU (dense tensor-core peaks, HBM bandwidth per GPU) and the "
                    "batch at which BF16 decode of the scenario's model becomes compute-bound, "
                    f"weights only and with {int(ctx):,} tokens of KV cache per sequence"),
        "columns": [
            {"name": "GPU", "unit": "text"},
            {"name": "dense BF16 peak (TFLOP/s)", "unit": "1"},
            {"name": "dense FP8 peak (TFLOP/s)", "unit": "1"},
            {"name": "HBM bandwidth", "unit": "B/s"},
            {"name": "HBM capacity", "unit": "B"},
            {"name": "ridge, BF16 (FLOP/B)", "unit": "1"},
            {"name": "ridge, FP8 (FLOP/B)", "unit": "1"},
            {"name": "decode b*, weights only", "unit": "count"},
            {"name": "decode b*, with KV cache", "unit": "text"},
            {"name": "time to read all of HBM", "unit": "s"},
        ],
        "rows": rows,
    }

    return {
        "param_units": {
            "context_length": "count", "train_tokens": "count", "max_batch": "count",
            "layers": "count", "model_dim": "count", "ffn_dim": "count",
            "attention_heads": "count", "kv_heads": "count", "model_params": "count",
            "weight_bytes": "B", "gpu_name": "text", "decode_batches": "text",
        },
        "gpus": gpus,
        "kernels": kernels,
        "summary": summary,
        "series": series,
        "animation": animation,
        "problems": problems,
        "table": table,
    }


__all__ = [
    "ridge_point", "attainable", "is_memory_bound", "gemm_flops", "gemm_bytes", "gemm_intensity",
    "gemm_knee_rows", "kv_bytes_per_token", "attention_decode_flops_per_seq", "decode_flops",
    "decode_bytes", "decode_intensity", "decode_intensity_weights_only", "compute_bound_batch",
    "decode_intensity_limit", "compute_bound_batch_kv", "max_context_for_knee",
    "attention_prefill_flops", "attention_prefill_bytes", "attention_prefill_intensity",
    "roofline",
]
