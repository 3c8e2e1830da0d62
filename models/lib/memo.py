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
import hashlib
from collections import OrderedDict
from collections.abc import Callable
from typing import TypeVar

import numpy as np

F = TypeVar("F", bound=Callable)

CACHE_SIZE = 4096  # results kept per function: a result is a few hundred bytes unless it carries a trace


class _ArrayKey(tuple):
    """An array's place in a memo key: its shape, dtype and a digest of its bytes (equal bytes, equal key).
    A 128-bit digest stands in for the bytes themselves, which would keep every swept array alive."""


def _key_part(x):
    if isinstance(x, np.ndarray):
        data = np.ascontiguousarray(x)
        return _ArrayKey((x.shape, data.dtype.str, hashlib.blake2b(data.tobytes(), digest_size=16).digest()))
    return x


def pure(fn: F) -> F:
    """Memoise `fn`, a pure function of hashable arguments and numpy arrays (an array is keyed by its bytes; any
    other unhashable argument, a list, runs it uncached). Each caller gets its own deep copy: a caller that edits
    its result cannot change another's."""
    cache: OrderedDict = OrderedDict()
    info = {"hits": 0, "misses": 0}

    @functools.wraps(fn)
    def wrapper(*args, **kwargs):
        key = (tuple(_key_part(a) for a in args), tuple((k, _key_part(v)) for k, v in kwargs.items()))
        try:
            hash(key)
        except TypeError:
            return fn(*args, **kwargs)
        if key in cache:
            cache.move_to_end(key)
            info["hits"] += 1
        else:
            info["misses"] += 1
            cache[key] = fn(*args, **kwargs)
            if len(cache) > CACHE_SIZE:
                cache.popitem(last=False)
        return copy.deepcopy(cache[key])

    def cache_info():
        return functools._CacheInfo(info["hits"], info["misses"], CACHE_SIZE, len(cache))

    def cache_clear():
        cache.clear()
        info.update(hits=0, misses=0)

    wrapper.cache_info = cache_info  # type: ignore[attr-defined]
    wrapper.cache_clear = cache_clear  # type: ignore[attr-defined]
    wrapper.uncached = fn  # type: ignore[attr-defined]
    return wrapper  # type: ignore[return-value]
