"""Reliability, thermal and power: fault rates, coolant properties, thermal figures, rack powers, PUE.

Each entry: value in SI base units, unit, source key (sources.py), direction, scope."""

from __future__ import annotations

from models.constants.base import Constant  # noqa: F401  (used by the scenes' blocks below)

CONSTANTS = {
    # >>> constants: silent-data-corruption
    # CPU fleet studies give a prevalence (share of machines with a defective core), not a rate per
    # hour; both papers give only an order of magnitude, so each value is an estimate with its range.
    "meta_sdc_defective_share": Constant(
        1e-3, "1", "dixit2021",
        label="share of machines with an SDC-defective CPU in Meta's fleet (estimate, 2e-4 to 5e-3)",
        note="abstract: 'hundreds of CPUs' found across 'hundreds of thousands of machines'; hundreds over"
             " hundreds of thousands spans about 2e-4 (200 in 900k) to 5e-3 (900 in 200k): 1e-3 is the"
             " order of magnitude, an estimate. CPUs, not GPUs",
    ),
    "google_mercurial_core_share": Constant(
        1e-3, "1", "hochschild2021",
        label="share of machines with a mercurial core in Google's fleet (estimate, 2e-4 to 2e-3)",
        note="'on the order of a few mercurial cores per several thousand machines': a few (2-5) over"
             " several thousand (3,000-9,000) spans about 2e-4 to 2e-3; 1e-3 is the order of magnitude,"
             " an estimate. CPUs, not GPUs",
    ),
    "sdc_defective_share_low": Constant(
        2e-4, "1", "dixit2021",
        label="low end of the share of machines with an SDC-defective CPU (both CPU fleet studies)",
        note="200 in 900,000 (Dixit et al.) and 2 in 9,000 (Hochschild et al.): the reading least favourable"
             " to the claim that SDCs are common",
    ),
    "sdc_defective_share_high": Constant(
        5e-3, "1", "dixit2021",
        label="high end of the share of machines with an SDC-defective CPU (both CPU fleet studies)",
        note="900 in 200,000 (Dixit et al.); Hochschild et al.'s reading tops out near 2e-3",
    ),
    # <<< constants: silent-data-corruption
    # >>> constants: liquid-cooling
    "superpod_h100_nodes_per_rack": Constant(
        4, "1", "nvidia-superpod-h100-dc-design", scope="per rack",
        label="DGX H100 systems per rack in NVIDIA's DGX SuperPOD data-centre design",
        note="four 8U systems, 32 GPUs, 40.8 kW of IT load per rack footprint; sites with less power per rack"
        " use two or one",
    ),
    "gb200_nvl72_rack_power": Constant(
        120e3, "W", "introl-gb200-nvl72-deployment", scope="per rack",
        label="GB200 NVL72 rack power (second-hand estimate)",
        note="second-hand: a deployment vendor's article ('The GB200 NVL72 consumes 120 kilowatts'), not an NVIDIA"
        " document; the one NVIDIA figure read here is 1.2 MW per scalable unit of 8 DGX GB200 racks"
        " (nvidia-superpod-gb200-ra), 150 kW per rack with the unit's networking and management, which bounds it",
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
    "ashrae_recommended_dew_point_max": Constant(
        15.0, "°C", "ashrae-thermal-guidelines-2021", scope="",
        label="upper dew point of ASHRAE's recommended envelope for the room's air (classes A1-A4)",
        note="a surface colder than the air's dew point gathers condensation",
    ),
    "b200_hgx_tdp": Constant(
        1000, "W", "nvidia-blackwell-tech-brief", scope="per GPU",
        label="B200 thermal design power in the HGX B200 (configurable up to)",
        note="the brief's HGX B200 column is given at 1,000 W per GPU; read second-hand (G. Lockwood's notes"
        " quoting the brief's tables, and NVIDIA's HGX page as summarised by others)",
    ),
    "gb200_gpu_tdp": Constant(
        1200, "W", "nvidia-blackwell-tech-brief", scope="per GPU",
        label="B200 thermal design power in a GB200 superchip (configurable up to)",
        note="the brief's GB200 column is given at 1,200 W per GPU; read second-hand (G. Lockwood's notes"
        " quoting the brief's tables)",
    ),
    "gb200_su_power": Constant(
        1.2e6, "W", "nvidia-superpod-gb200-ra", scope="aggregate",
        label="DGX SuperPOD GB200 scalable unit (8 DGX GB200 racks) power",
        note="'each SU requires a TDP of 1.2 MW', the racks with the unit's networking and management",
    ),
    "gb200_su_racks": Constant(
        8, "1", "nvidia-superpod-gb200-ra", scope="aggregate",
        label="DGX GB200 racks in one DGX SuperPOD scalable unit",
    ),
    # <<< constants: liquid-cooling
    # >>> constants: predictive-draining
    # Kokolis et al. (Meta), 11 months of two A100 research clusters; nodes of 8 GPUs.
    "rsc1_failures_per_1000_node_days": Constant(
        6.50, "1", "kokolis2024",
        label="failures per 1000 node-days, Meta research cluster RSC-1 (A100)",
    ),
    "rsc2_failures_per_1000_node_days": Constant(
        2.34, "1", "kokolis2024",
        label="failures per 1000 node-days, Meta research cluster RSC-2 (A100)",
    ),
    "rsc1_mttf_16k_gpus": Constant(
        1.8 * 3600.0, "s", "kokolis2024", scope="per job",
        label="projected mean time to failure of a 16,384-GPU job at RSC-1's rate",
    ),
    # Boixaderas et al. (HPDC '24), Abstract: a predictor-triggered mitigation of DRAM uncorrected errors on two
    # years of MareNostrum's logs (DDR3 DIMMs, CPU nodes)
    "boixaderas_lost_time_reduction": Constant(
        0.54, "1", "boixaderas2024-dram-mitigation", scope="per cluster",
        label="compute time lost to DRAM uncorrected errors that predictor-triggered mitigation saves (MareNostrum)",
    ),
    "boixaderas_oracle_gap": Constant(
        0.06, "1", "boixaderas2024-dram-mitigation", scope="per cluster",
        label="how far that saving falls below the optimal Oracle's",
    ),
    # Schroeder, Pinheiro and Weber, DRAM errors in the wild (SIGMETRICS 2009; CACM 2011), §5 on correctable (CE)
    # before uncorrectable (UE) errors, server DIMMs. Read second-hand: a summary of the paper's findings (the
    # paper's §5 page on CE-UE correlations was not reachable from this project's tools).
    "schroeder_ue_preceded_by_ce": Constant(
        0.70, "1", "schroeder2011-dram-wild",
        label="share of uncorrectable DRAM errors preceded by a correctable error in the same DIMM, at least",
        note="'70-80 percent of the time'; the low end; second-hand (a summary of the SIGMETRICS paper)",
    ),
    "schroeder_ce_ue_factor_low": Constant(
        9, "1", "schroeder2011-dram-wild",
        label="factor by which a correctable error raises the probability of an uncorrectable one, low end",
        note="'by factors of 9-400', depending on platform; second-hand as above",
    ),
    "schroeder_ce_ue_factor_high": Constant(
        400, "1", "schroeder2011-dram-wild",
        label="the same factor, high end",
        note="second-hand as above",
    ),
    "schroeder_ce_followed_same_month": Constant(
        0.85, "1", "schroeder2011-dram-wild",
        label="share of correctable DRAM errors followed by another in the same DIMM within the month, more than",
        note="§5, Figure 7: 'in more than 85% of cases'; second-hand as above",
    ),
    "nvidia_row_remap_max": Constant(
        512, "1", "nvidia-gpu-mem-error-mgmt", scope="per GPU",
        label="rows an Ampere or Hopper GPU can remap, at most",
        note="§Row Remapping: spare rows per DRAM bank replace degrading cells",
    ),
    "cui_h100_a100_memory_error_ratio": Constant(
        3.2, "1", "cui2025-gpu-resilience",
        label="H100 memory errors per GPU over A100's, NCSA Delta",
    ),
    "wu_hbm_data_centers": Constant(
        19, "1", "wu2024-hbm-errors",
        label="data centers in the HBM field study",
    ),
    "zhuo_links_studied": Constant(
        350_000, "1", "zhuo2017-corruption",
        label="data-center links in the packet-corruption study",
        note="Abstract: '350K links'",
    ),
    # <<< constants: predictive-draining
    # >>> constants: pue-carbon-shifting
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
    # 0.06 kWh/GB (2015) in J per byte: 0.06 × 3.6e6 J / 1e9 B
    "aslan_2015_network_energy_per_byte": Constant(
        0.06 * 3.6e6 / 1e9, "J/B", "aslan2018",
        label="electricity per byte sent through the Internet's core and fixed-line access networks, 2015"
              " (0.06 kWh/GB)",
        note="A 2015 average that includes access networks, halving about every two years since 2000 (the same"
             " paper): for a 2022 transfer between two data centres it is an upper bound",
    ),
    # the same abstract's trend: "decreased by half approximately every 2 years since 2000"
    "aslan_network_energy_halving_years": Constant(
        2.0, "1", "aslan2018",
        label="years over which the Internet's electricity per byte halved, 2000-2015",
        note="The paper's fitted trend up to its 2015 estimate; carrying it past 2015 is an extrapolation",
    ),
    # <<< constants: pue-carbon-shifting
}
