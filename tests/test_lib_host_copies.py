"""Tests for models/lib/host_copies.py: one DMA from pinned host memory, t_0 + n / B_eff."""

from __future__ import annotations

import numpy as np
import pytest

from models.constants import const
from models.lib.host_copies import pinned_time

T0 = const("cuda_memcpy_call_latency")
B = 53.6e9  # about PCIe 5.0 x16's payload rate at 256 B TLPs, per direction


def test_pinned_time_is_overhead_plus_bytes_over_rate():
    n = np.array([0.0, 1e3, 1e9])
    np.testing.assert_allclose(pinned_time(n, B, T0), T0 + n / B)
    assert isinstance(pinned_time(1e9, B, T0), np.floating)


def test_pinned_reaches_half_bandwidth_at_latency_bandwidth_product():
    n = T0 * B
    assert n / float(pinned_time(n, B, T0)) == pytest.approx(B / 2)
