"""Root finding the models share."""

from __future__ import annotations

import math
from collections.abc import Callable


def log_bisect(f: Callable[[float], float], lo: float, hi: float, *,
               steps: int | None = None, log_tol: float | None = None) -> float:
    """The x in [lo, hi] where an increasing `f` crosses zero, by bisection on log x.

    Bisecting the logarithm keeps the relative precision the same from bytes to petabytes (or
    seconds to years). The caller has checked f(lo) < 0 <= f(hi). Stops after `steps` halvings,
    or once the bracket is narrower than `log_tol` in log x: exactly one of the two is given.
    """
    if (steps is None) == (log_tol is None):
        raise ValueError("log_bisect: give exactly one of steps and log_tol")
    a, b = math.log(lo), math.log(hi)

    def halve(a: float, b: float) -> tuple[float, float]:
        m = 0.5 * (a + b)
        return (m, b) if f(math.exp(m)) < 0 else (a, m)

    if steps is not None:
        for _ in range(steps):
            a, b = halve(a, b)
    else:
        while b - a > log_tol:
            a, b = halve(a, b)
    return math.exp(0.5 * (a + b))
