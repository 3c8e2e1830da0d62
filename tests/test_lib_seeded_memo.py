"""models/lib/seeded_memo.seeded: a memoised draw from the caller's generator gives a fresh run's numbers and leaves
the generator where a fresh run leaves it."""

from __future__ import annotations

import numpy as np

from models.lib.seeded_memo import generator_at, rng_state, seeded


def test_a_repeat_from_the_same_state_is_served_from_the_memo_and_moves_the_generator_on():
    calls = []

    @seeded
    def draw(rng: np.random.Generator, n: int) -> np.ndarray:
        calls.append(n)
        return rng.lognormal(0.0, 2.0, size=n)

    fresh = np.random.default_rng(5)
    expected, after = draw.uncached(fresh, 4), fresh.standard_normal(3)
    for _ in range(2):  # the first run fills the memo, the second comes from it
        rng = np.random.default_rng(5)
        np.testing.assert_array_equal(draw(rng, 4), expected)
        np.testing.assert_array_equal(rng.standard_normal(3), after)  # the generator moved on exactly as fresh
    assert calls == [4, 4] and draw.cache_info().hits == 1  # the uncached reference, then the one memoised run
    other = np.random.default_rng(5)
    other.random()
    assert not np.array_equal(draw(other, 4), expected)  # another state is another run


def test_a_generator_rebuilt_from_its_state_draws_the_same_numbers():
    rng = np.random.default_rng(11)
    rng.normal(size=7)
    copy = generator_at(rng_state(rng))
    np.testing.assert_array_equal(copy.lognormal(size=5), rng.lognormal(size=5))


def test_the_models_seeded_simulations_memoised_equal_fresh_runs():
    from models import data_prefetch, stragglers

    args = (3, 16 * 40, -3.0, 1.0, 1e-4, 0.2, 1.0, 20.0, 4, 2, 16, 0.05)
    fresh = data_prefetch._lockstep_idle.uncached(np.random.default_rng(2), *args)
    assert data_prefetch._lockstep_idle(np.random.default_rng(2), *args) == fresh
    assert data_prefetch._lockstep_idle(np.random.default_rng(2), *args) == fresh  # from the memo
    fresh = stragglers._max_normal_draws.uncached(np.random.default_rng(3), 64, 50)
    np.testing.assert_array_equal(stragglers.simulate_max_normal(64, 50, np.random.default_rng(3)), fresh)
    np.testing.assert_array_equal(stragglers.simulate_max_normal(64, 50, np.random.default_rng(3)), fresh)
