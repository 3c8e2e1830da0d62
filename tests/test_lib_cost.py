"""The cost rates (models/lib/cost.py): straight-line depreciation, the network's share of the
hardware, power and facility per GPU-hour checked by hand, the hours in a year and a month, and one
declaration of the rate's inputs for every model that prices GPU-hours."""

from __future__ import annotations

import pytest

from models.lib import cost
from models.units import DAY, HOUR

YEAR = 365.25 * DAY


def test_hand_checked_depreciation_arithmetic():
    # $270,000 over 8 GPUs and 5.5 years of 8,766 h: 33,750 / 48,213 h = $0.70003 per GPU-hour
    per_gpu = 270_000 / 8
    assert cost.straight_line_per_hour(per_gpu, 5.5 * YEAR) == pytest.approx(33_750 / (5.5 * 8766), rel=1e-12)
    assert cost.straight_line_per_hour(per_gpu, 5.5 * YEAR) == pytest.approx(0.70002, abs=1e-5)
    # halving the life doubles the rate
    assert cost.straight_line_per_hour(1.0, 2 * YEAR) == pytest.approx(2 * cost.straight_line_per_hour(1.0, 4 * YEAR))
    with pytest.raises(ValueError):
        cost.straight_line_per_hour(1.0, 0.0)


def test_worked_example_epoch_interconnect_gross_up():
    # Cottier et al. 2024 (Epoch AI): cluster cost = hardware × 1/(1 − 0.19): the network is 19% of the
    # total. $100 of servers gives $123.46 of cluster, of which $23.46 network.
    net = cost.network_cost(100.0, 0.19)
    assert 100.0 + net == pytest.approx(100.0 / (1 - 0.19), rel=1e-12)
    assert net / (100.0 + net) == pytest.approx(0.19, rel=1e-12)
    assert net == pytest.approx(23.4568, abs=1e-4)


def test_hand_checked_power_and_facility():
    # a DGX H100 at 10.2 kW over 8 GPUs = 1.275 kW per GPU; PUE 1.09; 7.90 ¢/kWh
    assert cost.power_per_hour(10.2e3, 8, 1.09, 0.0790) == pytest.approx(1.275 * 1.09 * 0.0790, rel=1e-12)
    # $163.44 per kW-month, 730.5 h a month
    assert cost.facility_per_hour(10.2e3, 8, 163.44) == pytest.approx(1.275 * 163.44 / 730.5, rel=1e-12)


def test_the_hours_in_a_year_and_a_month():
    assert cost.YEAR / HOUR == pytest.approx(8766)
    assert cost.MONTH / HOUR == pytest.approx(730.5)


def test_every_model_that_prices_gpu_hours_declares_the_rate_once():
    from models.capex_opex_tco import gpu_hour_cost
    from models.cost_per_token import token_cost
    from models.placement_tax import placement_tax
    for fn in (gpu_hour_cost, token_cost, placement_tax):
        for name, param in cost.RATE_PARAMS.items():
            assert fn.params[name] is param, (fn.__name__, name)


def test_hand_checked_annuity_factor():
    # 8% over 5.5 years: 1.08^5.5 = 1.52697, 1 − 1/1.52697 = 0.34511, 0.08 × 5.5 / 0.34511 = 1.2750
    assert cost.annuity_factor(0.08, 5.5) == pytest.approx(0.44 / (1 - 1.08 ** -5.5), rel=1e-12)
    assert cost.annuity_factor(0.08, 5.5) == pytest.approx(1.2750, abs=1e-4)
    # one year: the whole price plus one year's interest on it
    assert cost.annuity_factor(0.10, 1.0) == pytest.approx(1.10, rel=1e-12)
    # no interest: the straight line; more interest or a longer life: a larger factor
    assert cost.annuity_factor(0.0, 5.5) == 1.0
    assert cost.annuity_factor(0.10, 5.5) > cost.annuity_factor(0.08, 5.5) > 1.0
    assert cost.annuity_factor(0.08, 6.0) > cost.annuity_factor(0.08, 3.0)
    with pytest.raises(ValueError):
        cost.annuity_factor(-0.01, 5.0)


def _rate_inputs(**changes):
    p = dict(node_price=270e3, useful_life=5.5 * YEAR, network_share=0.19, storage_bytes_per_gpu=14.6e12,
             storage_price_per_tb=100.0, node_power=10.2e3, pue=1.09, tariff=0.079, colocation=163.44,
             staff_per_gpu_year=500.0, network_failures=35, observation_window=54 * DAY,
             optics_price=1000.0, gpus=16_384, gpus_per_node=8)
    return dict(p, **changes)


def test_financing_is_the_annuity_on_depreciation_and_absent_without_a_rate():
    plain = cost.cost_parts(_rate_inputs())
    assert plain["financing"] == 0.0  # models that do not declare a cost of capital: unchanged totals
    financed = cost.cost_parts(_rate_inputs(cost_of_capital=0.08))
    depreciation = plain["server"] + plain["network"] + plain["storage"]
    assert financed["financing"] == pytest.approx(depreciation * (cost.annuity_factor(0.08, 5.5) - 1), rel=1e-12)
    def without_financing(parts):
        return {k: v for k, v in parts.items() if k != "financing"}

    assert without_financing(financed) == without_financing(plain)


def test_tco_range_spans_the_one_at_a_time_ends():
    p = _rate_inputs(cost_of_capital=0.08, utilisation=0.9)
    total = sum(cost.cost_parts(p).values())
    low, high = cost.tco_range(p, {"utilisation": (0.5, 1.0), "node_price": (200e3, 400e3)})
    cheap_server = sum(cost.cost_parts(dict(p, node_price=200e3)).values()) / 0.9
    assert low == pytest.approx(min(total / 1.0, cheap_server), rel=1e-12)
    assert high == pytest.approx(total / 0.5, rel=1e-12)  # half the hours idle is the dearest end here
    assert low <= total / 0.9 <= high
    # with no ranges the range is the point; with no utilisation the cost is per GPU-hour, every hour used
    assert cost.tco_range(_rate_inputs(), {}) == pytest.approx((sum(cost.cost_parts(_rate_inputs()).values()),) * 2)
