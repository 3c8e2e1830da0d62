"""Tests for models/lib/decode.py: the ridge point, a decode step's bytes and FLOPs, and what fits in HBM."""

from __future__ import annotations

import numpy as np
import pytest

from models.constants import const
from models.lib import decode as r

P = const("llama3_405b_params")


def test_decode_bytes_and_flops_weights_only():
    # with no context: the weights once (P w bytes) and 2P FLOPs per sequence
    b = np.array([1.0, 8.0, 64.0])
    np.testing.assert_allclose(r.decode_bytes(P, 2, b), P * 2)
    np.testing.assert_allclose(r.decode_flops(P, b), 2 * P * b)


def test_decode_bytes_and_flops_with_the_kv_cache():
    k = r.kv_bytes_per_token(126, 8, 128, 2)
    assert float(r.decode_bytes(P, 2, 4, 8192, k)) == pytest.approx(P * 2 + 4 * 8192 * k)
    assert r.attention_decode_flops_per_seq(126, 8192, 16384) == 4 * 126 * 8192 * 16384
    assert float(r.decode_flops(P, 4, 8192, 126, 16384)) == pytest.approx(
        4 * (2 * P + 4 * 126 * 8192 * 16384))


def test_h100_ridge_worked_value():
    # 989.5 TFLOP/s / 3.35 TB/s = 295.4 FLOP/B
    assert r.ridge_point(989.5e12, 3.35e12) == pytest.approx(295.37, abs=0.01)


def test_kv_bytes_per_token_llama3_405b():
    # 2 (K, V) x 126 layers x 8 KV heads x 128 dims x 2 bytes = 516,096 B per token
    assert r.kv_bytes_per_token(126, 8, 128, 2) == 516096


def test_hand_checked_case_llama3_405b_capacity():
    # Llama 3 Table 3 shapes: 2 x 126 layers x 8 KV heads x 128 dims x 2 B = 516,096 B per token;
    # 8,192 tokens: 4.23 GB per sequence. 405B x 2 B = 810 GB of weights: more than one HGX H100 node
    # (8 x 80 GB = 640 GB), so two nodes, 1,280 GB, leaving 470 GB: 111 sequences.
    kv_seq = r.kv_bytes_per_token(126, 8, 128, 2) * 8192
    assert kv_seq == 4_227_858_432
    assert r.serving_gpus(810e9, 80e9, 8) == 16
    assert r.batch_that_fits(16 * 80e9 - 810e9, kv_seq) == 111
    # H200: one node of 8 x 141 GB = 1,128 GB, 318 GB free: 75 sequences
    assert r.serving_gpus(810e9, 141e9, 8) == 8
    assert r.batch_that_fits(8 * 141e9 - 810e9, kv_seq) == 75
    with pytest.raises(ValueError):
        r.batch_that_fits(1e9, 0)
