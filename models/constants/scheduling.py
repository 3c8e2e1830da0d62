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
    # <<< constants: scene 15
    # >>> constants: scene 16
    # H100 80GB (SXM5) in MIG mode. The user guide's H100 table gives each profile's share of the 7 compute
    # slices (fraction of SMs, x/7) and of the 8 memory slices (fraction of memory, y/8) and the instances
    # available; the SM count of each profile is what the driver reports (nvidia-smi mig -lgip) on GH100.
    "h100_sms": Constant(
        132, "1", "nvidia-hopper-sm-count", scope="per GPU", label="SMs of the H100 SXM5",
    ),
    "h100_mig_compute_slices": Constant(
        7, "1", "nvidia-mig-h100-profiles", scope="per GPU", label="MIG compute slices of the H100 80GB",
        note="the guide's fractions of SMs are sevenths (1/7 … 7/7)",
    ),
    "h100_mig_memory_slices": Constant(
        8, "1", "nvidia-mig-h100-profiles", scope="per GPU", label="MIG memory slices of the H100 80GB",
        note="the guide's fractions of memory are eighths (1/8 … full); the placement diagram numbers them 0-7",
    ),
    "h100_mig_max_instances": Constant(
        7, "1", "nvidia-mig-supported-gpus", scope="per GPU", label="most MIG instances on one H100 80GB",
    ),
    "h100_mig_1g10gb_compute_slices": Constant(
        1, "1", "nvidia-mig-h100-profiles", scope="per GPU instance",
        label="compute slices of a MIG 1g.10gb instance (H100 80GB)", note="fraction of SMs 1/7",
    ),
    "h100_mig_1g10gb_memory_slices": Constant(
        1, "1", "nvidia-mig-h100-profiles", scope="per GPU instance",
        label="memory slices of a MIG 1g.10gb instance (H100 80GB)", note="fraction of memory 1/8",
    ),
    "h100_mig_1g10gb_sms": Constant(
        16, "1", "nvidia-smi-mig-lgip-gh100", scope="per GPU instance",
        label="SMs of a MIG 1g.10gb instance (H100 80GB)",
    ),
    "h100_mig_1g10gb_max_instances": Constant(
        7, "1", "nvidia-mig-h100-profiles", scope="per GPU",
        label="most MIG 1g.10gb instances on one H100 80GB",
    ),
    "h100_mig_1g10gb_me_compute_slices": Constant(
        1, "1", "nvidia-mig-h100-profiles", scope="per GPU instance",
        label="compute slices of a MIG 1g.10gb+me instance (H100 80GB)", note="fraction of SMs 1/7",
    ),
    "h100_mig_1g10gb_me_memory_slices": Constant(
        1, "1", "nvidia-mig-h100-profiles", scope="per GPU instance",
        label="memory slices of a MIG 1g.10gb+me instance (H100 80GB)", note="fraction of memory 1/8",
    ),
    "h100_mig_1g10gb_me_sms": Constant(
        16, "1", "nvidia-smi-mig-lgip-gh100", scope="per GPU instance",
        label="SMs of a MIG 1g.10gb+me instance (H100 80GB)",
    ),
    "h100_mig_1g10gb_me_max_instances": Constant(
        1, "1", "nvidia-mig-h100-profiles", scope="per GPU",
        label="most MIG 1g.10gb+me instances on one H100 80GB",
    ),
    "h100_mig_1g20gb_compute_slices": Constant(
        1, "1", "nvidia-mig-h100-profiles", scope="per GPU instance",
        label="compute slices of a MIG 1g.20gb instance (H100 80GB)", note="fraction of SMs 1/7",
    ),
    "h100_mig_1g20gb_memory_slices": Constant(
        2, "1", "nvidia-mig-h100-profiles", scope="per GPU instance",
        label="memory slices of a MIG 1g.20gb instance (H100 80GB)", note="fraction of memory 2/8",
    ),
    "h100_mig_1g20gb_sms": Constant(
        26, "1", "nvidia-smi-mig-lgip-gh100", scope="per GPU instance",
        label="SMs of a MIG 1g.20gb instance (H100 80GB)",
    ),
    "h100_mig_1g20gb_max_instances": Constant(
        4, "1", "nvidia-mig-h100-profiles", scope="per GPU",
        label="most MIG 1g.20gb instances on one H100 80GB",
    ),
    "h100_mig_2g20gb_compute_slices": Constant(
        2, "1", "nvidia-mig-h100-profiles", scope="per GPU instance",
        label="compute slices of a MIG 2g.20gb instance (H100 80GB)", note="fraction of SMs 2/7",
    ),
    "h100_mig_2g20gb_memory_slices": Constant(
        2, "1", "nvidia-mig-h100-profiles", scope="per GPU instance",
        label="memory slices of a MIG 2g.20gb instance (H100 80GB)", note="fraction of memory 2/8",
    ),
    "h100_mig_2g20gb_sms": Constant(
        32, "1", "nvidia-smi-mig-lgip-gh100", scope="per GPU instance",
        label="SMs of a MIG 2g.20gb instance (H100 80GB)",
    ),
    "h100_mig_2g20gb_max_instances": Constant(
        3, "1", "nvidia-mig-h100-profiles", scope="per GPU",
        label="most MIG 2g.20gb instances on one H100 80GB",
    ),
    "h100_mig_3g40gb_compute_slices": Constant(
        3, "1", "nvidia-mig-h100-profiles", scope="per GPU instance",
        label="compute slices of a MIG 3g.40gb instance (H100 80GB)", note="fraction of SMs 3/7",
    ),
    "h100_mig_3g40gb_memory_slices": Constant(
        4, "1", "nvidia-mig-h100-profiles", scope="per GPU instance",
        label="memory slices of a MIG 3g.40gb instance (H100 80GB)", note="fraction of memory 4/8",
    ),
    "h100_mig_3g40gb_sms": Constant(
        60, "1", "nvidia-smi-mig-lgip-gh100", scope="per GPU instance",
        label="SMs of a MIG 3g.40gb instance (H100 80GB)",
    ),
    "h100_mig_3g40gb_max_instances": Constant(
        2, "1", "nvidia-mig-h100-profiles", scope="per GPU",
        label="most MIG 3g.40gb instances on one H100 80GB",
    ),
    "h100_mig_4g40gb_compute_slices": Constant(
        4, "1", "nvidia-mig-h100-profiles", scope="per GPU instance",
        label="compute slices of a MIG 4g.40gb instance (H100 80GB)", note="fraction of SMs 4/7",
    ),
    "h100_mig_4g40gb_memory_slices": Constant(
        4, "1", "nvidia-mig-h100-profiles", scope="per GPU instance",
        label="memory slices of a MIG 4g.40gb instance (H100 80GB)", note="fraction of memory 4/8",
    ),
    "h100_mig_4g40gb_sms": Constant(
        64, "1", "nvidia-smi-mig-lgip-gh100", scope="per GPU instance",
        label="SMs of a MIG 4g.40gb instance (H100 80GB)",
    ),
    "h100_mig_4g40gb_max_instances": Constant(
        1, "1", "nvidia-mig-h100-profiles", scope="per GPU",
        label="most MIG 4g.40gb instances on one H100 80GB",
    ),
    "h100_mig_7g80gb_compute_slices": Constant(
        7, "1", "nvidia-mig-h100-profiles", scope="per GPU instance",
        label="compute slices of a MIG 7g.80gb instance (H100 80GB)", note="fraction of SMs 7/7",
    ),
    "h100_mig_7g80gb_memory_slices": Constant(
        8, "1", "nvidia-mig-h100-profiles", scope="per GPU instance",
        label="memory slices of a MIG 7g.80gb instance (H100 80GB)", note="fraction of memory 8/8",
    ),
    "h100_mig_7g80gb_sms": Constant(
        132, "1", "nvidia-smi-mig-lgip-gh100", scope="per GPU instance",
        label="SMs of a MIG 7g.80gb instance (H100 80GB)",
    ),
    "h100_mig_7g80gb_max_instances": Constant(
        1, "1", "nvidia-mig-h100-profiles", scope="per GPU",
        label="most MIG 7g.80gb instances on one H100 80GB",
    ),
    # <<< constants: scene 16
}
