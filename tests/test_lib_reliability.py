"""models/lib/reliability.py: the series formula, published failure rates turned into MTBFs, and hot spares."""

from __future__ import annotations

import pytest

from models.constants import CONSTANTS
from models.lib import reliability as rel
from models.units import DAY


def test_series_formula_divides_the_unit_mtbf_by_the_units():
    assert float(rel.series_mtbf(100 * DAY, 4)) == pytest.approx(25 * DAY)


def test_kokolis_rates_reproduce_their_published_16k_projection():
    # Kokolis et al. 2024 (arXiv:2410.21680): RSC-1 6.50 failures per 1000 node-days (8-GPU A100 nodes);
    # projected MTTF 1.8 h for a 16,384-GPU job. Series formula: 1000 days / (6.50 × 2048 nodes).
    r1 = CONSTANTS["rsc1_failures_per_1000_node_days"].value
    assert r1 == 6.50
    mttf = float(rel.series_mtbf(rel.node_mtbf_from_rate(r1), 16384 // 8))
    assert mttf == pytest.approx(CONSTANTS["rsc1_mttf_16k_gpus"].value, rel=0.01)


def test_a_failure_rate_must_be_positive():
    with pytest.raises(ValueError, match="positive"):
        rel.node_mtbf_from_rate(0.0)


def test_the_llama3_record_gives_a_gpu_mtbf_of_window_times_gpus_over_interruptions():
    # 419 unexpected interruptions in 54 days on 16,384 GPUs (Llama 3 report §3.3.4, Table 5)
    assert rel.gpu_mtbf(54 * DAY, 419, 16384) == pytest.approx(54 * DAY * 16384 / 419)


def test_hand_checked_case_spare_availability():
    # n = 2, s = 1, node MTBF 9 days, repair 1 day: p = 1/10; P(≤ 1 of 3 down) = 0.9³ + 3·0.1·0.9² = 0.972
    assert float(rel.down_probability(9 * DAY, DAY)) == pytest.approx(0.1)
    assert float(rel.spare_availability(2, 1, 9 * DAY, DAY)) == pytest.approx(0.972)
    assert float(rel.usable_capacity(2, 1, 9 * DAY, DAY)) == pytest.approx(2 * 0.972 / 3)
    assert float(rel.availability_at(2, 1, 0.1)) == pytest.approx(0.972)
