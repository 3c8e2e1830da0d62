"""Reliability, thermal and power: fault rates, coolant properties, thermal figures, rack powers, PUE.

Each entry: value in SI base units, unit, source key (sources.py), direction, scope."""

from __future__ import annotations

from models.constants.base import Constant  # noqa: F401  (used by the scenes' blocks below)

CONSTANTS = {
    # >>> constants: scene 17
    # <<< constants: scene 17
    # >>> constants: scene 18
    # <<< constants: scene 18
    # >>> constants: scene 19
    # <<< constants: scene 19
    # >>> constants: scene 20
    # CO2 per kWh generated, US utility-scale plants, 2022 (the grid data's year): EIA gives pounds
    # per kWh; 1 lb = 453.59237 g. EIA counts combustion CO2 only and treats wind, solar, hydro,
    # nuclear and biomass as carbon neutral, so those fuels get 0 here.
    "eia_2022_co2_coal": Constant(
        2.30 * 453.59237, "g/kWh", "eia-co2-per-kwh-2022", scope="aggregate",
        label="CO₂ per kWh generated from coal, US utility-scale plants, 2022 (2.30 lb/kWh)",
    ),
    "eia_2022_co2_gas": Constant(
        0.97 * 453.59237, "g/kWh", "eia-co2-per-kwh-2022", scope="aggregate",
        label="CO₂ per kWh generated from natural gas, US utility-scale plants, 2022 (0.97 lb/kWh)",
    ),
    "eia_2022_co2_oil": Constant(
        2.38 * 453.59237, "g/kWh", "eia-co2-per-kwh-2022", scope="aggregate",
        label="CO₂ per kWh generated from petroleum, US utility-scale plants, 2022 (2.38 lb/kWh)",
    ),
    "google_fleet_pue_2023": Constant(
        1.10, "1", "google-environmental-report-2024", scope="aggregate",
        label="Google's average annual PUE across its data centers, 2023",
    ),
    "uptime_average_pue_2023": Constant(
        1.58, "1", "uptime-pue-2023", scope="aggregate",
        label="industry average annual PUE, Uptime Institute Global Data Center Survey, 2023",
    ),
    # <<< constants: scene 20
}
