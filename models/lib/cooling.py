"""The economiser: how much of a facility's heat leaves without the chiller.

Read by pue-carbon-shifting (the facility's draw hour by hour) and liquid-cooling (the share of a
weather year a water class runs chiller-free), so both scenes count free cooling one way.

Temperatures in kelvin.
"""

from __future__ import annotations

import numpy as np


def free_cooling_share(t_out, t_chw: float, approach: float) -> np.ndarray:
    """Share of the heat the economiser rejects without the chiller: 1 below T_chw − Δ, 0 above T_chw."""
    t = np.asarray(t_out, dtype=float)
    return np.clip((t_chw - t) / approach, 0.0, 1.0)
