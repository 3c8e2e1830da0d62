"""Cluster scheduling: job-trace statistics, scheduler defaults (Slurm, Kueue), MIG profiles, straggler studies.

Each entry: value in SI base units, unit, source key (sources.py), direction, scope."""

from __future__ import annotations

from models.constants.base import Constant  # noqa: F401  (used by the scenes' blocks below)

CONSTANTS = {
    # >>> constants: scene 13
    # <<< constants: scene 13
    # >>> constants: scene 14
    "llama3_rack_gpus": Constant(
        16, "1", "llama3-network", scope="per rack",
        label="GPUs per rack under one top-of-rack switch in Meta's Llama 3 cluster",
        note="two 8-GPU servers per rack on one Minipack2 ToR (§3.3.1, Network topology)",
    ),
    "llama3_gradient_reduce_bytes": Constant(
        4, "B", "llama3-numerics", scope="",
        label="bytes per gradient element in Llama 3's data-parallel reduce-scatter (FP32)",
        note="§3.3.2, Numerical stability: gradients are reduce-scattered in FP32 across the"
             " data-parallel workers in FSDP",
    ),
    "bf16_bytes": Constant(
        2, "B", "kalamkar2019", scope="",
        label="bytes per BF16 element",
        note="bfloat16: 1 sign, 8 exponent and 7 mantissa bits; Llama 3 trains in BF16 (Table 4)",
    ),
    "llama3_gpu_network_rate": Constant(
        400e9 / 8, "B/s", "llama3-network", "per direction", "per GPU",  # 400 Gb/s in bytes (base.PER_DIRECTION)
        label="network bandwidth per GPU in Meta's Llama 3 clusters (400 Gb/s)",
        note="§3.3.1 Network: both the RoCE and the InfiniBand clusters 'leverage 400 Gbps interconnects"
             " between GPUs'",
    ),
    # <<< constants: scene 14
    # >>> constants: scene 15
    "bytedance_straggler_affected_jobs": Constant(
        0.425, "%", "lin2025-stragglers", scope="per job",
        label="share of training jobs slowed by stragglers by at least 10% (S ≥ 1.1)",
        note="3,079 Megatron-LM pretraining jobs of ≥ 128 GPUs, Jan–May 2024, what-if analysis",
    ),
    "bytedance_straggler_affected_slowdown": Constant(
        1.1, "1", "lin2025-stragglers", scope="per job",
        label="slowdown S (actual / straggler-free step time) above which the study counts a job as affected",
    ),
    "bytedance_straggler_waste_median": Constant(
        0.078, "%", "lin2025-stragglers", scope="per job",
        label="median share of a job's GPU-hours wasted to stragglers (1 − 1/S)",
        note="the study also reports P90 21.3% and P99 45.0%",
    ),
    "bytedance_straggler_waste_cluster": Constant(
        0.104, "%", "lin2025-stragglers", scope="per cluster",
        label="share of the cluster's GPU-hours wasted to stragglers",
    ),
    # <<< constants: scene 15
    # >>> constants: scene 16
    # <<< constants: scene 16
}
