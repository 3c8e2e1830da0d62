"""A memo for the pure simulations several models run many times over.

A model's sub-sweeps often re-run one simulation with the same arguments (the scenario's own point
inside each sweep), and the range test and the Explore panels call the whole model at settings that
leave most of its simulations unchanged. A simulation whose result depends only on its arguments
(its seed among them) can hand back the first run's result: the numbers are the ones a fresh run
gives, bit for bit (tests/test_memo.py), at none of the cost.
"""

from __future__ import annotations

import copy
import functools
from collections.abc import Callable
from typing import TypeVar

F = TypeVar("F", bound=Callable)

CACHE_SIZE = 4096  # results kept per function: a result is a few hundred bytes unless it carries a trace


def pure(fn: F) -> F:
    """Memoise `fn`, a pure function of hashable arguments (an unhashable one, an array, runs it uncached).
    Each caller gets its own deep copy: a caller that edits its result cannot change another's."""
    cached = functools.lru_cache(maxsize=CACHE_SIZE)(fn)

    @functools.wraps(fn)
    def wrapper(*args, **kwargs):
        try:
            hash((args, tuple(kwargs.items())))
        except TypeError:
            return fn(*args, **kwargs)
        return copy.deepcopy(cached(*args, **kwargs))

    wrapper.cache_info = cached.cache_info  # type: ignore[attr-defined]
    wrapper.cache_clear = cached.cache_clear  # type: ignore[attr-defined]
    wrapper.uncached = fn  # type: ignore[attr-defined]
    return wrapper  # type: ignore[return-value]
