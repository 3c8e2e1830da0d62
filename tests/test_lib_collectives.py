"""Tests for models/lib/collectives.py: the alpha-beta all-reduce times of the ring and the
double binary tree, the tree's chunk count, the crossover and nccl-tests' bandwidths."""

from __future__ import annotations

import math

import numpy as np
import pytest

from models.constants import const
from models.lib import collectives as c

B = const("ndr_port_rate")  # 50 GB/s per direction
ALPHA = const("nccl_net_ring_simple_latency")  # 14 us


# --- the ring ---------------------------------------------------------------------
@pytest.mark.parametrize("p", [2, 3, 8, 64, 16384])
def test_ring_bandwidth_term_dominates_large_messages(p):
    sizes = np.logspace(6, 15, 10)
    ratio = c.ring_time(sizes, p, B, ALPHA) / c.ring_bandwidth_term(sizes, p, B)
    assert np.all(ratio > 1)
    assert np.all(np.diff(ratio) < 0)  # the latency share shrinks as n grows
    assert ratio[-1] == pytest.approx(1.0, abs=1e-3 if p < 1000 else 0.5)
    # and the term itself is 2(p-1)/p * n/B
    assert c.ring_bandwidth_term(1e9, p, B) == pytest.approx(2 * (p - 1) / p * 1e9 / B)


# --- the ring's two halves: reduce-scatter and all-gather -----------------------------
def test_halves_worked_value_for_8_ranks():
    # by hand: 7 steps of (14 us + 1 GB / (8 x 50 GB/s)) = 7 x 2.514 ms = 17.598 ms each
    assert B == 50e9 and ALPHA == pytest.approx(14e-6)
    assert float(c.ring_reduce_scatter_time(1e9, 8, B, ALPHA)) == pytest.approx(17.598e-3, rel=1e-12)
    assert float(c.ring_all_gather_time(1e9, 8, B, ALPHA)) == pytest.approx(17.598e-3, rel=1e-12)
    assert float(c.ring_phase_bytes_sent_per_rank(1e9, 8)) == pytest.approx(0.875e9)
    assert c.ring_phase_steps(8) == 7


@pytest.mark.parametrize("p", [2, 3, 8, 64, 16384])
def test_halves_compose_into_the_all_reduce(p):
    n = np.logspace(0, 13, 60)
    rs, ag = c.ring_reduce_scatter_time(n, p, B, ALPHA), c.ring_all_gather_time(n, p, B, ALPHA)
    # the closed form, not ring_time's own code: 2(p-1)(alpha + n/(pB))
    np.testing.assert_allclose(rs + ag, 2 * (p - 1) * (ALPHA + n / (p * B)), rtol=1e-12)
    np.testing.assert_allclose(c.ring_time(n, p, B, ALPHA), rs + ag, rtol=1e-12)
    assert 2 * c.ring_phase_steps(p) == c.ring_steps(p)
    np.testing.assert_allclose(2 * c.ring_phase_bytes_sent_per_rank(n, p), c.ring_bytes_sent_per_rank(n, p))
    # nccl-tests' factors make all three report one bus bandwidth: half the time, half the factor
    np.testing.assert_allclose(c.busbw_reduce_scatter(n, rs, p), c.busbw_allreduce(n, rs + ag, p), rtol=1e-12)
    np.testing.assert_allclose(c.busbw_all_gather(n, ag, p), c.busbw_allreduce(n, rs + ag, p), rtol=1e-12)


def test_half_busbw_definition_and_limit():
    # nccl-tests doc/PERFORMANCE.md, ReduceScatter and AllGather: busbw = algbw * (n-1)/n, S the total array
    assert c.busbw_reduce_scatter(1e9, 0.05, 8) == pytest.approx(1e9 / 0.05 * 7 / 8)
    assert c.busbw_all_gather(1e9, 0.05, 8) == pytest.approx(1e9 / 0.05 * 7 / 8)
    n = 1e14
    assert c.busbw_all_gather(n, c.ring_all_gather_time(n, 8, B, ALPHA), 8) == pytest.approx(B, rel=1e-4)
    assert c.algbw(n, c.ring_all_gather_time(n, 8, B, ALPHA)) == pytest.approx(8 / 7 * B, rel=1e-4)


def test_fsdp_halves_equal_a_ring_at_the_mean_element_size():
    """What mfu-mbu's FSDP term relies on: a reduce-scatter of 4-byte gradients plus an all-gather of
    2-byte weights costs a ring all-reduce at (4 + 2)/2 bytes per element (same 2(p-1) latencies)."""
    params, p = 7e10, 64
    fsdp = c.ring_reduce_scatter_time(4 * params, p, B, ALPHA) + c.ring_all_gather_time(2 * params, p, B, ALPHA)
    assert float(fsdp) == pytest.approx(float(c.ring_time(3 * params, p, B, ALPHA)), rel=1e-12)
    assert float(fsdp) < float(c.ring_time(4 * params, p, B, ALPHA))


def test_ring_small_message_is_pure_latency():
    assert c.ring_time(0.0, 8, B, ALPHA) == pytest.approx(14 * ALPHA)


def test_tree_bandwidth_term_tends_to_2n_over_B():
    n = np.array([1e10, 1e12, 1e14])
    ratio = c.tree_time(n, 8, B, ALPHA) / (2 * n / B)
    assert np.all(ratio > 1) and np.all(np.diff(ratio) < 0)
    assert ratio[-1] == pytest.approx(1.0, abs=2e-3)


@pytest.mark.parametrize("p", [2, 4, 8, 100])
def test_times_increase_with_message_size(p):
    n = np.logspace(0, 12, 400)
    assert np.all(np.diff(c.ring_time(n, p, B, ALPHA)) > 0)
    assert np.all(np.diff(c.tree_time(n, p, B, ALPHA)) > 0)


# --- the tree's chunk count ---------------------------------------------------------
@pytest.mark.parametrize("n", [1e3, 6.4e4, 1e6, 1.9e6, 1e8, 1e9, 4e9])
def test_best_chunk_count_is_the_integer_optimum(n):
    ks = np.arange(1, 5000)
    brute = c.tree_time_chunks(n, 8, B, ALPHA, ks)
    k = c.tree_best_chunks(n, 8, B, ALPHA)
    assert c.tree_time_chunks(n, 8, B, ALPHA, k) == pytest.approx(brute.min(), rel=1e-12)
    assert k == ks[np.argmin(brute)]


def test_continuous_tree_is_a_lower_bound_when_k_star_at_least_one():
    n = np.logspace(6, 12, 50)
    assert np.all(c.tree_chunks_continuous(n, 8, B, ALPHA) >= 1)
    lower = c.tree_time_continuous(n, 8, B, ALPHA)
    assert np.all(c.tree_time(n, 8, B, ALPHA) >= lower * (1 - 1e-12))
    # and close to it when k is large
    assert c.tree_time(1e12, 8, B, ALPHA) == pytest.approx(
        c.tree_time_continuous(1e12, 8, B, ALPHA), rel=1e-5)


def test_chunk_count_rejects_k_below_one():
    with pytest.raises(ValueError):
        c.tree_time_chunks(1e6, 8, B, ALPHA, 0)


# --- the crossover ---------------------------------------------------------------------
@pytest.mark.parametrize("p", [4, 5, 8, 16, 64, 1000, 16384])
def test_tree_faster_below_crossover_ring_faster_above(p):
    n_star = c.crossover(p, B, ALPHA)
    assert n_star > 0
    below = np.logspace(0, math.log10(n_star) - 1e-6, 300)
    above = np.logspace(math.log10(n_star) + 1e-6, math.log10(n_star) + 4, 300)
    assert np.all(c.tree_time(below, p, B, ALPHA) < c.ring_time(below, p, B, ALPHA))
    assert np.all(c.ring_time(above, p, B, ALPHA) < c.tree_time(above, p, B, ALPHA))
    assert float(c.ring_time(n_star, p, B, ALPHA)) == pytest.approx(
        float(c.tree_time(n_star, p, B, ALPHA)), rel=1e-9)


@pytest.mark.parametrize("p", [4, 8, 16, 64, 16384])
def test_crossover_closed_forms_bracket_the_numeric_root(p):
    n_k1 = c.crossover_unpipelined(p, B, ALPHA)
    n_num = c.crossover(p, B, ALPHA)
    n_cont = c.crossover_continuous(p, B, ALPHA)
    # pipelining only helps the tree, and integer k is never better than continuous k
    assert n_k1 <= n_num * (1 + 1e-9) and n_num <= n_cont * (1 + 1e-9)
    # each closed form solves its own equation
    assert float(c.tree_time_chunks(n_k1, p, B, ALPHA, 1)) == pytest.approx(
        float(c.ring_time(n_k1, p, B, ALPHA)), rel=1e-12)
    assert float(c.tree_time_continuous(n_cont, p, B, ALPHA)) == pytest.approx(
        float(c.ring_time(n_cont, p, B, ALPHA)), rel=1e-12)


def test_crossover_scales_with_alpha_times_B():
    # every term is alpha or n/B, so n* is proportional to alpha*B
    base = c.crossover(8, B, ALPHA)
    assert c.crossover(8, 2 * B, ALPHA) == pytest.approx(2 * base, rel=1e-9)
    assert c.crossover(8, B, 3 * ALPHA) == pytest.approx(3 * base, rel=1e-9)


def test_crossover_worked_value_for_8_ranks():
    # at n* the best k is 2: 2(3+1)(a + n/2B) = 14(a + n/8B)  =>  n = 8/3 * alpha * B
    assert c.crossover(8, B, ALPHA) == pytest.approx(8 / 3 * ALPHA * B, rel=1e-9)


# --- nccl-tests bandwidths ---------------------------------------------------------------
def test_busbw_definition_and_limits():
    # nccl-tests doc/PERFORMANCE.md: busbw = algbw * 2(n-1)/n for AllReduce
    assert c.busbw_allreduce(1e9, 0.05, 8) == pytest.approx(1e9 / 0.05 * 14 / 8)
    n = 1e14
    assert c.busbw_allreduce(n, c.ring_time(n, 8, B, ALPHA), 8) == pytest.approx(B, rel=1e-3)
    tree_bus = c.busbw_allreduce(n, c.tree_time(n, 8, B, ALPHA), 8)
    assert tree_bus == pytest.approx(7 / 8 * B, rel=2e-3)
    sizes = np.logspace(3, 12, 100)
    ring_bus = c.busbw_allreduce(sizes, c.ring_time(sizes, 8, B, ALPHA), 8)
    assert np.all(ring_bus < B) and np.all(np.diff(ring_bus) > 0)


def test_three_ranks_tie_only_at_zero():
    assert c.crossover(3, B, ALPHA) == 0.0
    assert float(c.ring_time(0.0, 3, B, ALPHA)) == pytest.approx(
        float(c.tree_time(0.0, 3, B, ALPHA)))


def test_bad_ranks_rejected():
    for p in (1, 0, 2.5):
        with pytest.raises(ValueError):
            c.ring_time(1e6, p, B, ALPHA)

