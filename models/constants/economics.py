"""FinOps: utilisation accounting, prices and rate cards (each with its date), tariffs, depreciation lives.

Each entry: value in SI base units, unit, source key (sources.py), direction, scope."""

from __future__ import annotations

from models.constants.base import Constant  # noqa: F401  (used by the scenes' blocks below)

CONSTANTS = {
    # >>> constants: scene 21
    # <<< constants: scene 21
    # >>> constants: scene 22
    # Useful lives of servers in hyperscalers' 10-K filings (straight-line depreciation)
    "meta_server_useful_life": Constant(
        5.5 * 365.25 * 86400, "s", "meta-10k-2024", scope="",
        label="useful life of most of Meta's servers and network assets (from January 1, 2025)",
        note="as of January 2025: extended to 5.5 years, effective January 1, 2025 (restated in the Q3 2025 10-Q)",
    ),
    "amazon_server_useful_life": Constant(
        5 * 365.25 * 86400, "s", "amazon-10k-2024", scope="",
        label="useful life of a subset of Amazon's servers and networking equipment (from 2025)",
        note="as of February 2025: shortened from six years to five, effective January 1, 2025",
    ),
    "microsoft_server_useful_life": Constant(
        6 * 365.25 * 86400, "s", "microsoft-10k-2022", scope="",
        label="useful life of Microsoft's server and network equipment (from fiscal 2023)",
        note="as of July 2022: raised from four years to six",
    ),
    # Prices: public estimates, each with its date
    "dgx_h100_price_estimate": Constant(
        270e3, "USD", "semianalysis-server-cost-2023", scope="per node",
        label="sale price of one DGX H100 (estimate, as of May 2023)",
        note="an analyst's estimate, not a list price: NVIDIA publishes none",
    ),
    "cluster_network_cost_share": Constant(
        0.19, "1", "cottier2024", scope="per cluster",
        label="cluster-level interconnect as a share of the cluster's hardware cost (estimate)",
        note="Epoch AI's training-cost model: hardware cost × 1/(1 − 0.19)",
    ),
    "llama3_storage_capacity": Constant(
        240e15, "B", "llama3", scope="per cluster",
        label="capacity of the Llama 3 training cluster's Tectonic storage (240 PB)",
        note="§3.3.1: 7,500 SSD-equipped servers",
    ),
    "eia_industrial_tariff_ohio": Constant(
        0.0790, "1", "eia-epm-table-5-6a-2025-04", scope="",
        label="average industrial electricity price in Ohio, April 2025 (USD per kWh)",
        note="as of April 2025 (7.90 cents per kWh); Ohio hosts large AI data centres",
    ),
    "eia_industrial_tariff_iowa": Constant(
        0.0604, "1", "eia-epm-table-5-6a-2025-04", scope="",
        label="average industrial electricity price in Iowa, April 2025 (USD per kWh)",
        note="as of April 2025 (6.04 cents per kWh): among the lowest in the table",
    ),
    "eia_industrial_tariff_connecticut": Constant(
        0.1907, "1", "eia-epm-table-5-6a-2025-04", scope="",
        label="average industrial electricity price in Connecticut, April 2025 (USD per kWh)",
        note="as of April 2025 (19.07 cents per kWh): among the highest in the table",
    ),
    "google_fleet_pue_2024": Constant(
        1.09, "1", "google-environmental-report-2025", scope="aggregate",
        label="Google's fleet-wide average PUE, 2024",
    ),
    "uptime_average_pue_2021": Constant(
        1.57, "1", "uptime-survey-2021", scope="aggregate",
        label="average PUE of large data centres in Uptime Institute's 2021 survey",
    ),
    "cbre_colocation_rate_2023": Constant(
        163.44, "1", "cbre-dc-trends-h2-2023", scope="",
        label="North American average asking colocation rate, 2023 (USD per kW-month)",
        note="as of December 2023: 250-500 kW requirements at N+1/Tier III, primary markets",
    ),
    # <<< constants: scene 22
    # >>> constants: scene 23
    "llama3_405b_training_flops": Constant(
        3.8e25, "FLOP", "llama3-compute", scope="per job",
        label="pretraining compute of Llama 3 405B",
    ),
    "llama31_405b_gpu_hours": Constant(
        30.84e6, "1", "llama31-model-card", scope="per job",
        label="training GPU-hours of Llama 3.1 405B (H100-80GB)",
        note="cumulative GPU time of the 405B model's training, as of July 2024",
    ),
    "deepseek_v3_gpu_hours": Constant(
        2.788e6, "1", "deepseek-v3", scope="per job",
        label="H800 GPU-hours of DeepSeek-V3's full training",
        note="pre-training 2,664K + context extension 119K + post-training 5K",
    ),
    "deepseek_v3_rental_rate": Constant(
        2.0, "USD/h", "deepseek-v3", scope="per GPU",
        label="H800 rental price DeepSeek assumes (as of December 2024)",
    ),
    "deepseek_v3_tokens": Constant(
        14.8e12, "1", "deepseek-v3", scope="per job",
        label="DeepSeek-V3 pretraining tokens",
    ),
    "api_price_llama31_405b_low": Constant(
        3.0, "USD", "llama31-405b-api-prices", scope="per request",
        label="Llama 3.1 405B Instruct API price per million tokens, Fireworks (listed)",
        note="input and output tokens at one price; as listed in 2025",
    ),
    "api_price_llama31_405b_high": Constant(
        3.5, "USD", "llama31-405b-api-prices", scope="per request",
        label="Llama 3.1 405B Instruct Turbo API price per million tokens, Together AI (listed)",
        note="input and output tokens at one price; as listed in 2025",
    ),
    # <<< constants: scene 23
    # >>> constants: scene 24
    # <<< constants: scene 24
}
