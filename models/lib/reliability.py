"""Series reliability and hot spares: what a job that needs every one of its parts can expect.

**Series.** A job that stops when any part fails sees the parts' failure rates add:
n identical parts of mean time between failures m give M = m/n. A job's failure
record (I interruptions in a window T on N GPUs) gives a per-GPU MTBF, T·N/I; a
rate quoted as failures per 1000 node-days gives a node MTBF of 1000 days over it.

**Hot spares.** A rigid job needs n nodes at once from a pool of n + s. A node is
down (in repair) with probability p = λR/(1 + λR) (up for 1/λ on average, then down
for R: an alternating renewal process), independently, so the job can run with
probability A = P(Binomial(n + s, p) ≤ s), and the pool's usable capacity is
n·A/(n + s).

Units: seconds, counts.
"""

from __future__ import annotations

import numpy as np
from scipy import stats

from models.lib.checkpoint import mean_time_between_interruptions
from models.units import DAY

# --- series reliability --------------------------------------------------------------------


def series_mtbf(unit_mtbf, units):
    """MTBF of `units` identical parts in series (any one failing stops the whole): m/n."""
    return np.asarray(unit_mtbf, dtype=float) / np.asarray(units, dtype=float)


def gpu_mtbf(observation_window: float, interruptions: float, gpus: float) -> float:
    """Per-GPU MTBF (s) implied by a job's record: the job's MTBI times its GPUs."""
    return mean_time_between_interruptions(observation_window, interruptions) * gpus


def node_mtbf_from_rate(failures_per_1000_node_days: float) -> float:
    """Node MTBF (s) from a rate quoted as failures per 1000 node-days."""
    if not failures_per_1000_node_days > 0:
        raise ValueError("the failure rate must be positive")
    return 1000.0 * DAY / failures_per_1000_node_days


# --- hot spares ----------------------------------------------------------------------------


def down_probability(mtbf, repair):
    """Share of time a node is in repair: λR/(1 + λR) = R/(m + R)."""
    mtbf, repair = np.asarray(mtbf, dtype=float), np.asarray(repair, dtype=float)
    return repair / (mtbf + repair)


def availability_at(n: int, s: int, p):
    """Probability that at most s of n + s nodes are down, each independently with probability p."""
    return stats.binom.cdf(s, n + s, p)


def spare_availability(n: int, s: int, mtbf, repair):
    """Probability that a rigid job of n nodes can run from a pool of n + s (node MTBF, repair time)."""
    return availability_at(n, s, down_probability(mtbf, repair))


def usable_capacity(n: int, s: int, mtbf, repair):
    """Expected share of the n + s nodes doing the rigid job's work: n·A/(n + s)."""
    return n * spare_availability(n, s, mtbf, repair) / (n + s)


__all__ = ["series_mtbf", "gpu_mtbf", "node_mtbf_from_rate", "down_probability", "availability_at",
           "spare_availability", "usable_capacity"]
