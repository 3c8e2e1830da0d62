"""Sweeps the models share: a figure's x grid that holds the values the page quotes."""

from __future__ import annotations

import math
from collections.abc import Sequence

import numpy as np

REL_TOL = 1e-9  # a grid point this close to a quoted value is that value, rounding apart


def including(grid: Sequence[float], *points: float) -> np.ndarray:
    """`grid` sorted with each of `points` on it exactly.

    A page quotes its numbers at its own setting (a 1 GB message, a 40.8 kW rack); an Explore probe
    walks the model's sweep and opens there, so the sweep must hold that setting itself, not a
    neighbour (figures/explore.py: page_point). A grid point within REL_TOL of a quoted value (a
    logspace's 999999999.9999999 for 1e9) is replaced by it, so no two points are a rounding apart.
    """
    xs = [float(x) for x in grid]
    for p in map(float, points):
        near = [i for i, x in enumerate(xs) if math.isclose(x, p, rel_tol=REL_TOL)]
        if near:
            xs[near[0]] = p
        else:
            xs.append(p)
    return np.array(sorted(xs))
