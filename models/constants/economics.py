"""FinOps: utilisation accounting, prices and rate cards (each with its date), tariffs, depreciation lives.

Each entry: value in SI base units, unit, source key (sources.py), direction, scope."""

from __future__ import annotations

from models.constants.base import SHARED, Constant
from models.constants.workload import CONSTANTS as WORKLOAD

# the Llama 3 cluster's storage, a name of its own: the per-GPU capacity below is derived from it
LLAMA3_STORAGE = Constant(
    240e15, "B", "llama3", scope="per cluster",
    label="capacity of the Llama 3 training cluster's Tectonic storage (240 PB)",
    note="§3.3.1: 7,500 SSD-equipped servers",
)

CONSTANTS = {
    # >>> constants: mfu-mbu
    # --- PaLM 540B (Chowdhery et al. 2022): the published MFU and HFU and what they were computed from ---
    "palm_540b_params": Constant(540.35e9, "1", "palm2022", scope="per job", label="parameters of PaLM 540B",
                                 note="Table 1: 540.35B"),
    "palm_540b_layers": Constant(118, "1", "palm2022", label="transformer layers of PaLM 540B"),
    "palm_540b_heads": Constant(48, "1", "palm2022", label="attention heads of PaLM 540B"),
    "palm_540b_head_dim": Constant(256, "1", "palm2022", label="attention head size of PaLM 540B"),
    "palm_sequence_length": Constant(2048, "1", "palm2022", scope="per job", label="sequence length of PaLM"),
    "palm_540b_chips": Constant(6144, "1", "palm2022", scope="per job",
                                label="TPU v4 chips that trained PaLM 540B (two pods)"),
    "palm_540b_tokens_per_s": Constant(238.3e3, "1", "palm2022", scope="per job",
                                       label="PaLM 540B training throughput, tokens per second",
                                       note="average, at batch size 2048 (§4.1)"),
    "palm_540b_mfu": Constant(0.462, "1", "palm2022", scope="per job", label="PaLM 540B MFU (with self-attention)"),
    "palm_540b_mfu_no_attention": Constant(0.457, "1", "palm2022", scope="per job",
                                           label="PaLM 540B MFU counting 6N only (no self-attention)"),
    "palm_540b_hfu": Constant(0.578, "1", "palm2022", scope="per job",
                              label="PaLM 540B hardware FLOPs utilisation (rematerialization included)"),
    "tpu_v4_bf16_flops": Constant(275e12, "FLOP/s", "google-tpu-v4", scope="",  # no "per chip" scope: the label says it
                                  label="TPU v4 peak compute per chip (bf16)",
                                  note="per chip; PaLM's Table 3 MFU reproduces with this peak"),
    # --- Megatron-LM's 1T-parameter run (Narayanan et al. 2021, Table 1) ---
    "megatron_1t_params": Constant(1008e9, "1", "narayanan2021-throughput", scope="per job",
                                   label="parameters of Megatron-LM's largest GPT (1008B)"),
    "megatron_1t_layers": Constant(128, "1", "narayanan2021-throughput", label="layers of the 1008B GPT"),
    "megatron_1t_hidden": Constant(25600, "1", "narayanan2021-throughput", label="hidden size of the 1008B GPT"),
    "megatron_1t_heads": Constant(160, "1", "narayanan2021-throughput", label="attention heads of the 1008B GPT"),
    "megatron_sequence_length": Constant(2048, "1", "narayanan2021-throughput", scope="per job",
                                         label="sequence length of Megatron-LM's GPT runs"),
    "megatron_vocabulary": Constant(51200, "1", "narayanan2021-throughput",
                                    label="vocabulary of Megatron-LM's GPT models"),
    "megatron_1t_gpus": Constant(3072, "1", "narayanan2021-throughput", scope="per job",
                                 label="A100 GPUs in the 1008B run"),
    "megatron_1t_batch": Constant(3072, "1", "narayanan2021-throughput", scope="per step",
                                  label="global batch of the 1008B run, sequences"),
    "megatron_1t_flops_per_gpu": Constant(163e12, "FLOP/s", "narayanan2021-throughput", scope="per GPU",
                                          label="achieved throughput per A100 in the 1008B run",
                                          note="counted by eq. (3), which includes activation recomputation"),
    "megatron_1t_aggregate_flops": Constant(502.0e15, "FLOP/s", "narayanan2021-throughput", scope="per job",
                                            label="aggregate throughput of the 1008B run"),
    "megatron_1t_peak_share": Constant(0.52, "1", "narayanan2021-throughput", scope="per GPU",
                                       label="share of peak reported for the 1008B run"),
    "a100_bf16_dense_flops": Constant(312e12, "FLOP/s", "nvidia-a100-datasheet", scope="per GPU",
                                      label="A100 dense BF16 tensor-core peak",
                                      note="datasheet: 312 TFLOP/s, 624 with sparsity"),
    # --- Llama 3.1 405B: the whole run's GPU time (model card) ---
    "llama31_405b_gpu_hours": Constant(30.84e6, "1", "llama31-model-card", scope="per job",
                                       label="H100 GPU-hours of Llama 3.1 405B training",
                                       note="cumulative training time as the model card reports it"),
    # --- MBU (Databricks 2023): the worked example and a measured value ---
    "mbu_example_params": Constant(7e9, "1", "databricks-inference-2023", scope="per request",
                                   label="parameters in the MBU worked example"),
    "mbu_example_weight_bytes": Constant(2, "B", "databricks-inference-2023", scope="",
                                         label="bytes per parameter in the MBU example (16-bit)"),
    "mbu_example_tpot": Constant(14e-3, "s", "databricks-inference-2023", scope="per request",
                                 label="time per output token in the MBU example"),
    "mbu_example_peak_bw": Constant(2e12, "B/s", "databricks-inference-2023",
                                    SHARED, "per GPU",  # reads plus writes
                                    label="peak memory bandwidth in the MBU example (2 TB/s)"),
    "mbu_example_mbu": Constant(0.50, "1", "databricks-inference-2023", scope="per request",
                                label="MBU of the worked example"),
    "h100_decode_mbu_measured": Constant(0.60, "1", "databricks-inference-2023", scope="",
                                         label="MBU measured at batch 1 on 2×H100-80GB (TensorRT-LLM)",
                                         note="Figure 3 of the post; an empirical value used here as the decode"
                                         " kernels' share of peak bandwidth"),
    # the long-context stages (Llama 3 §3.4.2): bound the whole run's extra attention FLOPs
    "llama3_long_context_tokens": Constant(800e9, "1", "llama3-long-context", scope="per job",
                                           label="training tokens of Llama 3 405B's long-context pre-training stage",
                                           note="§3.4.2: 'approximately 800B training tokens', six stages from 8K"
                                                " to 128K; no per-stage lengths or token counts"),
    "llama3_max_context": Constant(131072, "1", "llama3-parallelism", scope="per job",
                                   label="sequence length of the longest-context stage (Table 4's 131K row)",
                                   note="§3.4.2 calls it the final 128K context window"),
    # a measured ceiling for dense BF16 matmuls on one H100 SXM (not a training run)
    "h100_bf16_gemm_measured": Constant(794.5e12, "FLOP/s", "ml-engineering-mamf", scope="per GPU",
                                        label="highest BF16 matmul throughput measured on an H100 SXM (MAMF)",
                                        note="mean of 100 iterations at the best shape of a brute-force shape"
                                             " search, torch 2.7.0+cu126: 80.3% of the 989 TFLOP/s peak"),
    # the same table's GH200 row: the same 989 TFLOP/s peak, one more card's best case beside the H100's
    "gh200_bf16_gemm_measured": Constant(828.6e12, "FLOP/s", "ml-engineering-mamf", scope="per GPU",
                                         label="highest BF16 matmul throughput measured on a GH200 (MAMF)",
                                         note="900 W, 141 GB HBM3e version, torch 2.6.0+cu126, best shape"
                                              " 1024x15360x4096; the table prints 83.6%, its own rule"
                                              " (MAMF/theory) gives 828.6/989 = 83.8%"),
    # <<< constants: mfu-mbu
    # >>> constants: capex-opex-tco
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
    "llama3_storage_capacity": LLAMA3_STORAGE,
    # derived, not published: the capacity above over the run's GPUs (the pages that price storage per GPU)
    "llama3_storage_per_gpu": Constant(
        LLAMA3_STORAGE.value / WORKLOAD["llama3_405b_gpus"].value, "B", "llama3", scope="per GPU",
        label="storage capacity per GPU of the Llama 3 training cluster (derived: its storage over its GPUs)",
        note="derived: 240 PB (§3.3.1) over the 16,384 GPUs of the 405B run",
    ),
    "llama3_storage_servers": Constant(
        7500, "1", "llama3", scope="per cluster",
        label="SSD-equipped servers of the Llama 3 training cluster's Tectonic storage",
        note="§3.3.1: 240 PB on 7,500 servers",
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
    # <<< constants: capex-opex-tco
    # >>> constants: cost-per-token
    "llama3_405b_training_flops": Constant(
        3.8e25, "FLOP", "llama3-compute", scope="per job",
        label="pretraining compute of Llama 3 405B",
    ),
    "deepseek_v3_gpu_hours": Constant(
        2.788e6, "1", "deepseek-v3", scope="per job",
        label="H800 GPU-hours of DeepSeek-V3's full training",
        note="pre-training 2,664K + context extension 119K + post-training 5K",
    ),
    "deepseek_v3_pretraining_gpu_hours": Constant(
        2.664e6, "1", "deepseek-v3", scope="per job",
        label="H800 GPU-hours of DeepSeek-V3's pre-training stage (Table 1)",
        note="without the context extension (119K) and post-training (5K) of the full 2.788M",
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
        3.0, "USD", "llama31-405b-api-prices", scope="",
        label="Llama 3.1 405B Instruct API price per million tokens, Fireworks (listed; the tracker's median)",
        note="input and output tokens at one price; as listed in 2025",
    ),
    "api_price_llama31_405b_high": Constant(
        3.5, "USD", "llama31-405b-api-prices", scope="",
        label="Llama 3.1 405B Instruct Turbo API price per million tokens, Together AI (listed)",
        note="input and output tokens at one price; as listed in 2025",
    ),
    "api_price_llama31_405b_cheapest": Constant(
        1.0, "USD", "llama31-405b-api-prices", scope="",
        label="Llama 3.1 405B API price per million tokens, OpenRouter (listed; cheapest on the tracker)",
        note="input and output tokens at one price; as listed in 2025",
    ),
    "api_price_llama31_405b_bedrock_blended": Constant(
        2.40, "USD", "artificialanalysis-llama31-405b", scope="",
        label="Llama 3.1 405B blended API price per million tokens (3:1 input:output), Amazon Bedrock Standard",
        note="a tracker's blended price, as listed in 2025",
    ),
    # DeepSeek's served fleet over one day (UTC+8 2025-02-27 12:00 to 02-28 12:00): inference held every node at
    # the daytime peak and gave nodes back to research and training at night. The mean over the peak is the share
    # of a peak-sized fleet that serving kept busy: the serving utilisation cost-per-token prices idle hours with
    "deepseek_inference_peak_nodes": Constant(
        278, "1", "deepseek-inference-overview", scope="per cluster",
        label="DeepSeek-V3/R1 inference: peak node occupancy over 24 hours (8 H800 GPUs per node)",
    ),
    "deepseek_inference_mean_nodes": Constant(
        226.75, "1", "deepseek-inference-overview", scope="per cluster",
        label="DeepSeek-V3/R1 inference: average node occupancy over the same 24 hours",
    ),
    # <<< constants: cost-per-token
    # >>> constants: spot-arbitrage
    # Provider notices before a spot/preemptible VM is reclaimed (each provider's own documentation).
    "aws_spot_notice": Constant(
        120, "s", "aws-spot-interruption-notices", scope="per node",
        label="AWS EC2 Spot interruption notice",
        note="issued two minutes before EC2 stops or terminates the instance; emitted on a best-effort basis",
    ),
    "gcp_spot_notice": Constant(
        30, "s", "gcp-spot-vms", scope="per node",
        label="Google Cloud Spot VM preemption notice",
        note="ACPI G2 Soft Off, then G3 Mechanical Off; the shutdown period is best effort and up to 30 s",
    ),
    "azure_spot_notice": Constant(
        30, "s", "azure-scheduled-events", scope="per node",
        label="Azure Spot VM eviction notice (Scheduled Events, Preempt)",
        note="the minimum notice of a Preempt event in Scheduled Events",
    ),
    "gcp_preemptible_max_runtime": Constant(
        86400, "s", "gcp-preemptible-vms", scope="per node",
        label="Google Cloud preemptible VM maximum runtime (24 h)",
        note="preemptible VMs always stop after 24 hours; Spot VMs have no maximum runtime",
    ),
    # Discounts: dated ceilings and ranges as the providers state them, not GPU-specific prices.
    "aws_spot_max_discount": Constant(
        0.90, "%", "aws-spot-pricing", scope="",
        label="AWS Spot discount, up to (as of 2025)",
        note="'a discount of up to 90% off compared to On-Demand pricing'; per-GPU-type discounts are not published",
    ),
    "gcp_spot_min_discount": Constant(
        0.60, "%", "gcp-preemptible-vms", scope="",
        label="Google Cloud Spot/preemptible discount, low end of the published range (as of 2024)",
        note="'a 60-91% discount compared to the price of standard VMs'",
    ),
    "gcp_spot_max_discount": Constant(
        0.91, "%", "gcp-spot-vms", scope="",
        label="Google Cloud Spot discount, up to (as of March 2026)",
    ),
    # The Spot Instance Advisor's frequency-of-interruption bands (share of capacity reclaimed in the
    # trailing month): <5%, 5-10%, 10-15%, 15-20%, >20%. The band of a given GPU type changes monthly.
    "spot_advisor_band_low": Constant(
        0.05, "%", "aws-spot-advisor", scope="",
        label="Spot Instance Advisor: edge of the lowest interruption band (<5% a month)",
    ),
    "spot_advisor_band_high": Constant(
        0.20, "%", "aws-spot-advisor", scope="",
        label="Spot Instance Advisor: edge of the highest interruption band (>20% a month)",
    ),
    # On-demand price of one 8×H100 node. AWS's price page was not read for this build: the value is the list
    # price as third-party copies of AWS's Price List carry it (instances.vantage.sh, March 2026), so the
    # page treats it as an estimate and shows the launch price as the other end of the range.
    "aws_p5_on_demand_price": Constant(
        55.04, "USD/h", "aws-gpu-price-cut-2025", scope="per node",
        label="AWS p5.48xlarge on-demand price, US East (N. Virginia), Linux"
              " (as of June 2025, still listed March 2026)",
        note="after AWS's June 2025 reduction of up to 45% on P5 on-demand prices",
    ),
    "aws_p5_on_demand_price_launch": Constant(
        98.32, "USD/h", "nextplatform-p5-2023", scope="per node",
        label="AWS p5.48xlarge on-demand price at launch (as of July 2023; upper end of the estimate)",
    ),
    # A dated GPU Spot price, read second-hand: a copy of Google's Cloud Billing Catalog (a3-highgpu-1g,
    # 1 H100 80GB + 26 vCPU + 234 GiB, us-central1, boot disk excluded) made on 26 September 2026. Google's
    # own Spot pricing page lists these rows but they could not be read for this build.
    "gcp_a3_high_spot_price": Constant(
        6.571, "USD/h", "silybench-gcp-a3-prices", scope="per GPU",
        label="Google Cloud a3-highgpu-1g Spot price, us-central1 (as of 26 September 2026, second-hand)",
        note="GPU $5.8632 + 26 vCPU + 234 GiB, summed from the Cloud Billing catalog by the copy's author",
    ),
    "gcp_a3_high_on_demand_price": Constant(
        10.9791, "USD/h", "silybench-gcp-a3-prices", scope="per GPU",
        label="Google Cloud a3-highgpu-1g on-demand-equivalent price, us-central1 (as of 26 September 2026,"
              " second-hand)",
        note="the 1-GPU shape is sold as Spot or Flex-start only; this is its list price at the default rate",
    ),
    # <<< constants: spot-arbitrage
}
