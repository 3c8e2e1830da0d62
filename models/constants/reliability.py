"""Reliability, thermal and power: fault rates, coolant properties, thermal figures, rack powers, PUE.

Each entry: value in SI base units, unit, source key (sources.py), direction, scope."""

from __future__ import annotations

from models.constants.base import Constant  # noqa: F401  (used by the scenes' blocks below)

CONSTANTS = {
    # >>> constants: scene 17
    # <<< constants: scene 17
    # >>> constants: scene 18
    "superpod_h100_nodes_per_rack": Constant(
        4, "1", "nvidia-superpod-h100-dc-design", scope="per rack",
        label="DGX H100 systems per rack in NVIDIA's DGX SuperPOD data-centre design",
        note="four 8U systems, 32 GPUs, 40.8 kW of IT load per rack footprint; sites with less power per rack"
        " use two or one",
    ),
    "gb200_nvl72_rack_power": Constant(
        120e3, "W", "nvidia-superpod-gb200-ra", scope="per rack",
        label="GB200 NVL72 rack power (estimate)",
        note="estimate, range 120-132 kW: NVIDIA gives 1.2 MW per scalable unit of 8 DGX GB200 racks (150 kW per"
        " rack including the unit's networking and management); 120 kW is the figure quoted for the rack itself",
    ),
    "gb200_nvl72_rack_power_high": Constant(
        132e3, "W", "nvidia-superpod-gb200-ra", scope="per rack",
        label="GB200 NVL72 rack power, high end of the quoted range (estimate)",
        note="the upper figure quoted for a fully loaded NVL72 rack; the SU's 1.2 MW over 8 racks bounds it",
    ),
    "gb200_nvl72_gpus": Constant(
        72, "1", "nvidia-gb200-nvl72", scope="per rack",
        label="Blackwell GPUs in one GB200 NVL72 rack",
    ),
    "water_cp_25c": Constant(
        4181.3, "J/(kg·K)", "nist-webbook-water", scope="",
        label="specific heat of liquid water at 25 °C, 1 atm",
    ),
    "water_density_25c": Constant(
        0.99705, "kg/L", "nist-webbook-water", scope="",
        label="density of liquid water at 25 °C, 1 atm",
        note="997.05 kg/m³; in kg/L as coolant tables give it",
    ),
    "pg25_cp": Constant(
        3930.0, "J/(kg·K)", "dowfrost-guide", scope="",
        label="specific heat of 25% propylene glycol in water at about 25 °C (estimate)",
        note="read from the guide's specific-heat table for 25% DOWFROST solutions; estimate, range"
        " 3,900-3,980 J/(kg·K) over 20-40 °C",
    ),
    "pg25_density": Constant(
        1.020, "kg/L", "dowfrost-guide", scope="",
        label="density of 25% propylene glycol in water at about 25 °C (estimate)",
        note="read from the guide's density table for 25% DOWFROST solutions; estimate, range 1.010-1.025 kg/L",
    ),
    "air_cp": Constant(
        1006.0, "J/(kg·K)", "ashrae-fundamentals-2017", scope="",
        label="specific heat of dry air near 20 °C",
    ),
    "air_density_20c": Constant(
        1.204, "kg/m³", "ashrae-fundamentals-2017", scope="",
        label="density of standard air at 20 °C and 101.325 kPa",
    ),
    "air_cooled_rack_limit": Constant(
        40e3, "W", "ashrae-tc99-liquid-2021", scope="per rack",
        label="practical limit of an air-cooled rack (estimate)",
        note="estimate, range 30-40 kW: beyond it the airflow, fan power and hot-aisle temperatures of"
        " conventional air cooling become impractical; no single standard fixes the number",
    ),
    # <<< constants: scene 18
    # >>> constants: scene 19
    # <<< constants: scene 19
    # >>> constants: scene 20
    # <<< constants: scene 20
}
