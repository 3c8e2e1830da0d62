"""LLM decode on the roofline: the bytes and FLOPs of one decode step, and what fits in HBM.

Roofline (Williams, Waterman & Patterson 2009): with peak compute Π (FLOP/s) and
memory bandwidth β (B/s) the two roofs meet at the ridge point I* = Π / β.

One decode step of a dense model with P parameters for a batch of b sequences
reads every weight once (P w bytes, shared by the batch) and does 2P FLOPs per
sequence. Each sequence also reads its own KV cache: with context c, L layers,
h_kv key/value heads of dimension d_h stored in w_kv bytes, that is c k bytes
per step with k = 2 L h_kv d_h w_kv, and attention adds 4 L c d_attn FLOPs
(QK^T and PV with d_attn = query heads × d_h):

    F = b (2P + 4 L c d_attn),    Q = P w + b c k

HBM capacity: a model is served on the fewest whole nodes of g GPUs whose HBM
holds its weights, n = g · ceil(P w / (g C)); the largest batch whose KV caches
fit beside the weights is floor(free / (c k)).

Pure numpy/stdlib, SI units: FLOP, bytes, FLOP/s, B/s.
"""

from __future__ import annotations

import math

import numpy as np


def ridge_point(peak: float, bandwidth: float) -> float:
    """I* = peak / bandwidth, FLOP per byte: where the two roofs meet."""
    if peak <= 0 or bandwidth <= 0:
        raise ValueError("peak and bandwidth must be positive")
    return peak / bandwidth


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


def serving_gpus(weights: float, capacity: float, node_gpus: int) -> int:
    """The fewest GPUs, in whole nodes of node_gpus, whose HBM holds the weights."""
    return int(node_gpus * math.ceil(weights / (node_gpus * capacity)))


def batch_that_fits(free_bytes: float, kv_per_sequence: float) -> int:
    """How many sequences' KV caches fit in free_bytes of HBM."""
    if kv_per_sequence <= 0:
        raise ValueError("kv_per_sequence must be positive")
    return max(int(free_bytes // kv_per_sequence), 0)
