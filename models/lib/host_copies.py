"""Host-to-device copies: the time of one DMA from page-locked (pinned) host memory.

A pinned buffer is read by the GPU's copy engine directly, one DMA:

    T_pinned(n) = t_0 + n / B_eff

with t_0 the per-call overhead of a copy and B_eff the link's payload rate.

Pure numpy, SI units: bytes, seconds, bytes per second.
"""

from __future__ import annotations

import numpy as np


def pinned_time(n, bandwidth: float, latency: float):
    """T_pinned = t_0 + n / B_eff: one DMA straight from page-locked memory."""
    return latency + np.asarray(n, dtype=float) / bandwidth
