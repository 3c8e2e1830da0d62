"""Cluster scheduling: job-trace statistics, scheduler defaults (Slurm, Kueue), MIG profiles, straggler studies.

Each entry: value in SI base units, unit, source key (sources.py), direction, scope."""

from __future__ import annotations

from models.constants.base import Constant  # noqa: F401  (used by the scenes' blocks below)

CONSTANTS = {
    # >>> constants: scene 13
    # Kueue waitForPodsReady and its requeuing strategy: the documented defaults
    "kueue_pods_ready_timeout": Constant(
        30 * 60, "s", "kueue-wait-for-pods-ready", scope="",
        label="Kueue waitForPodsReady timeout (default)",
        note="waitForPodsReady.timeout, 'defaulting to 30 minutes'",
    ),
    "kueue_backoff_base": Constant(
        60, "s", "kueue-wait-for-pods-ready", scope="",
        label="Kueue requeuingStrategy backoffBaseSeconds (default)",
        note="the first requeue delay; each further one doubles",
    ),
    "kueue_backoff_max": Constant(
        3600, "s", "kueue-wait-for-pods-ready", scope="",
        label="Kueue requeuingStrategy backoffMaxSeconds (default)",
    ),
    "kueue_backoff_jitter": Constant(
        0.0001, "1", "kueue-requeue-code", scope="",
        label="Kueue requeue backoff jitter (fraction of the delay)",
        note="wait.Backoff{Factor: 2, Jitter: 0.0001} in pkg/workload",
    ),
    # Philly (Jeon et al., ATC '19), Fig. 2: run-time CDF per GPU-count bucket. The public
    # figure gives curves, not tables: values read off the curves (estimate, about ±30%).
    "philly_run_median_1gpu": Constant(
        20 * 60, "s", "philly2019", scope="",
        label="median run time of 1-GPU jobs, Philly (estimate read off Fig. 2, 15-30 min)",
    ),
    "philly_run_median_2_4gpu": Constant(
        40 * 60, "s", "philly2019", scope="",
        label="median run time of 2-4-GPU jobs, Philly (estimate read off Fig. 2, 30-60 min)",
    ),
    "philly_run_median_5_8gpu": Constant(
        150 * 60, "s", "philly2019", scope="",
        label="median run time of 5-8-GPU jobs, Philly (estimate read off Fig. 2, 100-200 min)",
    ),
    "philly_run_median_gt8gpu": Constant(
        120 * 60, "s", "philly2019", scope="",
        label="median run time of >8-GPU jobs, Philly (estimate read off Fig. 2, 100-200 min)",
    ),
    "philly_run_p90_1gpu": Constant(
        400 * 60, "s", "philly2019", scope="",
        label="90th-percentile run time of 1-GPU jobs, Philly (estimate read off Fig. 2, 300-500 min)",
    ),
    "philly_run_p90_2_4gpu": Constant(
        4000 * 60, "s", "philly2019", scope="",
        label="90th-percentile run time of 2-4-GPU jobs, Philly (estimate read off Fig. 2, 3,000-5,000 min)",
    ),
    "philly_run_p90_5_8gpu": Constant(
        6000 * 60, "s", "philly2019", scope="",
        label="90th-percentile run time of 5-8-GPU jobs, Philly (estimate read off Fig. 2, 4,000-8,000 min)",
    ),
    "philly_run_p90_gt8gpu": Constant(
        2500 * 60, "s", "philly2019", scope="",
        label="90th-percentile run time of >8-GPU jobs, Philly (estimate read off Fig. 2, 2,000-3,000 min)",
    ),
    "philly_run_axis_max": Constant(
        1e4 * 60, "s", "philly2019", scope="",
        label="longest run time on Philly's Fig. 2 axis (10^4 min)",
    ),
    # <<< constants: scene 13
    # >>> constants: scene 14
    # <<< constants: scene 14
    # >>> constants: scene 15
    # <<< constants: scene 15
    # >>> constants: scene 16
    # <<< constants: scene 16
}
