"""Tests for models/lib/nvlink.py: NVLink rates, their direction and their scope."""

from __future__ import annotations

import pytest

from models.constants import const
from models.lib.nvlink import aggregate, check_gpus, per_direction


def test_per_direction_halves_a_bidirectional_figure():
    # H100: 900 GB/s per GPU, both directions summed, is 450 GB/s each way
    assert per_direction(const("h100_nvlink_bw")) == pytest.approx(450e9)


def test_aggregate_sums_every_gpu():
    assert aggregate(72, 1.8e12) == pytest.approx(129.6e12)
    assert aggregate(2, 1.0) == 2.0


@pytest.mark.parametrize("p", [1, 0, 2.5])
def test_a_domain_needs_two_or_more_whole_gpus(p):
    with pytest.raises(ValueError, match="GPUs must be an integer >= 2"):
        check_gpus(p)
    with pytest.raises(ValueError):
        aggregate(p, 1e9)
