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
    # <<< constants: scene 19
    # >>> constants: scene 20
    # <<< constants: scene 20
}
