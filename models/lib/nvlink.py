"""NVLink rates: direction and scope.

Vendors quote NVLink bidirectionally (the sum of both directions) and per GPU;
a network port is quoted per direction. A bidirectional figure is halved to a
per-direction one (`per_direction`) before it meets any time, and a domain's
aggregate is every GPU's rate summed (`aggregate`).

Pure stdlib, SI units: bytes per second.
"""

from __future__ import annotations


def per_direction(bidirectional_rate: float) -> float:
    """A bidirectional figure (both directions summed) as the rate one way."""
    return bidirectional_rate / 2.0


def aggregate(gpus: int, gpu_rate: float) -> float:
    """B_agg = p * B_gpu: every GPU's rate summed over the domain."""
    check_gpus(gpus)
    return gpus * gpu_rate


def check_gpus(p) -> None:
    """Refuse a GPU count that is not a whole number of at least two."""
    if int(p) != p or p < 2:
        raise ValueError(f"GPUs must be an integer >= 2, got {p!r}")
