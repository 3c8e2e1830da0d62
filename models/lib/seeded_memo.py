"""memo.pure for a simulation that draws from its caller's generator: keyed by the generator's state.

A seeded Monte Carlo inside a model takes the model's one generator, so its draws depend on every draw made
before it. Its result is still a pure function of the generator's state and its other arguments, and so is the
state it leaves the generator in: the range test and the Explore panels reach such a simulation with the same
state at most of their settings (the parameters they move change nothing drawn before it), and can take the first
run's numbers, bit for bit, with the generator moved on exactly as a fresh run moves it.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import TypeVar

import numpy as np

from models.lib.memo import pure

F = TypeVar("F", bound=Callable)


def rng_state(rng: np.random.Generator) -> tuple:
    """A PCG64 generator's whole state (numpy's default_rng) as a hashable tuple; generator_at turns it back."""
    s = rng.bit_generator.state
    if s["bit_generator"] != "PCG64":
        raise TypeError(f"seeded memo: a PCG64 generator expected, not {s['bit_generator']}")
    return s["state"]["state"], s["state"]["inc"], s["has_uint32"], s["uinteger"]


def _state_dict(state: tuple) -> dict:
    value, inc, has_uint32, uinteger = state
    return {"bit_generator": "PCG64", "state": {"state": value, "inc": inc}, "has_uint32": has_uint32,
            "uinteger": uinteger}


def generator_at(state: tuple) -> np.random.Generator:
    """A fresh generator at this state: it draws what the generator the state was read from would draw next."""
    rng = np.random.Generator(np.random.PCG64())
    rng.bit_generator.state = _state_dict(state)
    return rng


def seeded(fn: F) -> F:
    """Memoise fn(rng, *args) by rng's state and its other arguments (memo.pure: arrays by their bytes, a deep copy
    for each caller); on a hit or a miss alike, rng is left in the state fn's draws leave it in."""

    @pure
    def from_state(state: tuple, *args, **kwargs):
        rng = generator_at(state)
        return fn(rng, *args, **kwargs), rng_state(rng)

    @functools.wraps(fn)
    def wrapper(rng: np.random.Generator, *args, **kwargs):
        out, after = from_state(rng_state(rng), *args, **kwargs)
        rng.bit_generator.state = _state_dict(after)
        return out

    wrapper.cache_info = from_state.cache_info  # type: ignore[attr-defined]
    wrapper.cache_clear = from_state.cache_clear  # type: ignore[attr-defined]
    wrapper.uncached = fn  # type: ignore[attr-defined]
    return wrapper  # type: ignore[return-value]
