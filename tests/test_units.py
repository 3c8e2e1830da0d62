"""The units convention (models/units.py): every unit a model may declare reads well."""

from __future__ import annotations

import pytest

from models import units
from models.exhibit import UNITS
from models.units import fmt


@pytest.mark.parametrize("value, shown", [
    (4096, "4 KiB"), (1024, "1 KiB"), (2**20, "1 MiB"), (256 * 2**20, "256 MiB"), (2**30, "1 GiB"),
    (2**41, "2 TiB"), (512, "512 B"), (0, "0 B"), (64, "64 B"),
    (4100, "4.10 kB"), (3072, "3.07 kB"), (1e9, "1.00 GB"), (4.1e12, "4.10 TB"), (1.5, "1.50 B"),
])
def test_bytes_powers_of_two_are_exact_and_the_rest_decimal(value, shown):
    assert units.fmt_bytes(value) == shown


def test_an_mtu_never_prints_rounded():
    assert fmt(4096, "B") == "4 KiB"
    assert "4.10" not in fmt(4096.0, "B")


@pytest.mark.parametrize("value, unit, shown", [
    (5e10, "B/s", "50.0 GB/s"),
    (4e11, "b/s", "400 Gb/s"),
    (3.2e10, "T/s", "32.0 GT/s"),
    (9.89e14, "FLOP/s", "989 TFLOP/s"),
    (3.8e25, "FLOP", "3.80 × 10²⁵ FLOP"),
    (700, "W", "700 W"),
    (1.2e8, "W", "120 MW"),
    (2.5, "USD", "$2.50"),
    (1234, "USD", "$1,234"),
    (3.2e9, "USD", "$3.20 billion"),
    (2.5, "USD/h", "$2.50/h"),
    (0.0016, "USD/h", "$0.00160/h"),  # under half a cent: not "$0.00/h"
    (0.0, "USD/h", "$0.00/h"),
    (0.985, "%", "98.5%"),
    (0.985, "1", "0.985"),
    (16384, "count", "16,384"),
    (300, "K", "300 K"),
    (1500, "kg/s", "1,500 kg/s"),
    (295, "FLOP/B", "295 FLOP/B"),
    (1.8e9, "Hz", "1.80 GHz"),
    (3.6e6, "J", "3.60 MJ"),
    (0.0025, "s", "2.50 ms"),
    (2 * 2**20, "B/token", "2 MiB/token"),
    ("NDR", "text", "NDR"),
    (100, "m", "100 m"),
    (None, "B", "—"),
    ([1024, 2048], "B", "1 KiB, 2 KiB"),
])
def test_fmt_reads_well_in_every_unit(value, unit, shown):
    assert fmt(value, unit) == shown


def test_every_declarable_unit_has_a_reading():
    samples = {"text": "label"}
    for unit in sorted(UNITS):
        out = fmt(samples.get(unit, 1234.5), unit)
        assert out and "e+" not in out and "None" not in out, (unit, out)
        if unit not in ("1", "count", "text", "%", "USD", "USD/h", "s"):
            assert unit.split("/")[-1] in out, (unit, out)  # the unit is shown


def test_page_macros_use_the_same_convention():
    from pipeline.site import macros
    assert macros.fmt(4096, "B") == fmt(4096, "B")


@pytest.mark.parametrize("value, unit, shown", [
    (18.0, "°C", "18.0 °C"), (-5.2, "°C", "−5.20 °C"), (35, "°C", "35 °C"),
    (0.06, "K/W", "0.0600 K/W"), (1.204, "kg/m³", "1.20 kg/m³"), (150000.0, "Pa", "150 kPa"),
    (0.0125, "m³/s", "0.0125 m³/s"), (60.5, "L/min", "60.5 L/min"),
    (440.0, "g/kWh", "440 g/kWh"), (1040.0, "g/kWh", "1.04 kg/kWh"),
    (0.08, "USD/kWh", "$0.0800/kWh"), (0.0551, "USD/kWh", "$0.0551/kWh"), (150.0, "USD/kW-month", "$150/kW-month"),
])
def test_the_facility_units_read_as_an_engineer_writes_them(value, unit, shown):
    assert fmt(value, unit) == shown
    assert unit in UNITS  # a model may declare it


def test_a_chilled_water_supply_reads_in_celsius_not_kelvin():
    """Scene 20's chilled-water supply is declared in °C (its model converts to K inside): its page reads
    "18.0 °C", not "291 K"; scenes 18, 20 and 22 carry no unit "1" whose label names a unit."""
    from models.capex_opex_tco import gpu_hour_cost
    from models.liquid_cooling import liquid_cooling
    from models.pue_carbon_shifting import pue_carbon_shifting
    assert pue_carbon_shifting.params["chilled_water"].unit == "°C"
    assert fmt(18.0, pue_carbon_shifting.params["chilled_water"].unit) == "18.0 °C"
    named = ("°C", "K/W", "kg/m³", " Pa", "(Pa", "g/kWh", "USD per", "USD/", "L/min")
    for fn in (gpu_hour_cost, liquid_cooling, pue_carbon_shifting):
        for name, p in fn.params.items():
            assert not (p.unit == "1" and any(u in p.label for u in named)), (fn.__name__, name, p.label)
