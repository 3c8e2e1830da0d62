"""Reliability, thermal and power: fault rates, coolant properties, thermal figures, rack powers, PUE.

Each entry: value in SI base units, unit, source key (sources.py), direction, scope."""

from __future__ import annotations

from models.constants.base import Constant  # noqa: F401  (used by the scenes' blocks below)

CONSTANTS = {
    # >>> constants: scene 17
    # CPU fleet studies give a prevalence (share of machines with a defective core), not a rate per
    # hour; both papers give only an order of magnitude, so each value is an estimate with its range.
    "meta_sdc_defective_share": Constant(
        1e-3, "1", "dixit2021", scope="per node",
        label="share of machines with an SDC-defective CPU in Meta's fleet (estimate, 2e-4 to 5e-3)",
        note="abstract: 'hundreds of CPUs' found across 'hundreds of thousands of machines'; hundreds over"
             " hundreds of thousands spans about 2e-4 (200 in 900k) to 5e-3 (900 in 200k): 1e-3 is the"
             " order of magnitude, an estimate. CPUs, not GPUs",
    ),
    "google_mercurial_core_share": Constant(
        1e-3, "1", "hochschild2021", scope="per node",
        label="share of machines with a mercurial core in Google's fleet (estimate, 2e-4 to 2e-3)",
        note="'on the order of a few mercurial cores per several thousand machines': a few (2-5) over"
             " several thousand (3,000-9,000) spans about 2e-4 to 2e-3; 1e-3 is the order of magnitude,"
             " an estimate. CPUs, not GPUs",
    ),
    "sdc_defective_share_low": Constant(
        2e-4, "1", "dixit2021", scope="per node",
        label="low end of the share of machines with an SDC-defective CPU (both CPU fleet studies)",
        note="200 in 900,000 (Dixit et al.) and 2 in 9,000 (Hochschild et al.): the reading least favourable"
             " to the claim that SDCs are common",
    ),
    "sdc_defective_share_high": Constant(
        5e-3, "1", "dixit2021", scope="per node",
        label="high end of the share of machines with an SDC-defective CPU (both CPU fleet studies)",
        note="900 in 200,000 (Dixit et al.); Hochschild et al.'s reading tops out near 2e-3",
    ),
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
