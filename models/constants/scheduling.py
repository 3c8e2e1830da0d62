"""Cluster scheduling: job-trace statistics, scheduler defaults (Slurm, Kueue), MIG profiles, straggler studies.

Each entry: value in SI base units, unit, source key (sources.py), direction, scope."""

from __future__ import annotations

from models.constants.base import Constant  # noqa: F401  (used by the scenes' blocks below)

CONSTANTS = {
    # >>> constants: scene 13
    # <<< constants: scene 13
    # >>> constants: scene 14
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
