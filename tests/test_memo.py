"""models/lib/memo.pure: a memoised simulation gives a fresh run's numbers, to every caller separately."""

from __future__ import annotations

import numpy as np
import pytest

from models import ib_vs_roce, incast_spraying
from models.lib.memo import pure


def test_a_repeat_is_served_from_the_memo_and_equals_a_fresh_run():
    calls = []

    @pure
    def draw(n: int, seed: int) -> dict:
        calls.append((n, seed))
        return {"x": np.random.default_rng(seed).normal(size=n).tolist()}

    first, again = draw(3, seed=7), draw(3, seed=7)
    assert first == again == draw.uncached(3, seed=7)
    assert calls == [(3, 7), (3, 7)]  # the memo's one run and the uncached reference: the repeat ran nothing
    assert draw(3, seed=8) != first  # another seed is another run
    assert draw.cache_info().hits == 1


def test_each_caller_gets_its_own_copy():
    @pure
    def table(n: int) -> dict:
        return {"rows": [[i] for i in range(n)]}

    mine = table(2)
    mine["rows"][0].append("edited")
    mine["extra"] = 1
    assert table(2) == {"rows": [[0], [1]]}


def test_an_array_is_keyed_by_its_bytes_and_a_list_runs_uncached():
    calls = []

    @pure
    def total(xs) -> float:
        calls.append(1)
        return float(np.sum(xs))

    assert total(np.arange(4.0)) == 6.0
    assert total(np.arange(4.0)) == 6.0  # another array with the same bytes: from the memo
    assert len(calls) == 1
    changed = np.arange(4.0)
    changed[3] = 4.0
    assert total(changed) == 7.0  # one element differs: a new run
    assert total(np.arange(4)) == 6.0  # the same values as integers: another dtype, another run
    assert total(np.arange(4.0).reshape(2, 2)) == 6.0  # another shape, another run
    assert len(calls) == 4
    assert total([1.0, 2.0]) == 3.0 and total([1.0, 2.0]) == 3.0  # a list is unhashable: it runs every time
    assert len(calls) == 6
    assert total.cache_info().currsize == 4


def test_the_carbon_scheduler_memoised_equals_a_fresh_run():
    from models.pue_carbon_shifting import shift_jobs

    rng = np.random.default_rng(4)
    weight = rng.uniform(100, 500, 24 * 14)
    arrivals = np.sort(rng.integers(0, 24 * 12, 60))
    args = (weight, arrivals, 5, 12, 2, np.full(weight.size, 20))
    fresh = shift_jobs.uncached(*args)
    np.testing.assert_array_equal(shift_jobs(*args), fresh)
    np.testing.assert_array_equal(shift_jobs(*args), fresh)  # the second from the memo


@pytest.mark.parametrize("mode", ["lossless", "lossy", "timeout"])
def test_the_incast_simulation_memoised_equals_a_fresh_run(mode):
    args = dict(senders=8, block_packets=12, window=6, rtt_slots=4, mode=mode, buffer=20, xoff=8, xon=6,
                headroom=4, timeout_slots=40, seed=3)
    fresh = incast_spraying.simulate.uncached(**args)
    assert incast_spraying.simulate(**args) == fresh
    assert incast_spraying.simulate(**args) == fresh  # the second from the memo


def test_the_fabric_model_gives_the_same_exhibit_with_and_without_the_memo(monkeypatch):
    """The whole ib-vs-roce model (19 fabric runs, two of them repeats) at the page's values, both ways."""
    from pipeline.catalogue import load
    from pipeline.jsonio import load_ref, to_json

    scene = load().scene("ib-vs-roce")
    fn = load_ref(scene.model)
    memoised = fn(**scene.params)
    monkeypatch.setattr(ib_vs_roce, "simulate", ib_vs_roce.simulate.uncached)
    fresh = fn(**scene.params)
    assert to_json(memoised.to_dict()) == to_json(fresh.to_dict())  # the data file's bytes


def test_the_optimal_interval_memoised_equals_a_fresh_bisection():
    """Scalars go through the memo, arrays around it; both give the bisection's own numbers."""
    from models.lib import checkpoint

    deltas, mtbfs = [1.0, 30.0, 600.0, 7200.0], [3600.0, 11_000.0, 86_400.0 * 10]
    for d in deltas:
        for m in mtbfs:
            assert checkpoint.optimal_interval(d, m) == checkpoint.optimal_interval.uncached(d, m)
            assert checkpoint.optimal_interval(d, m) == checkpoint.optimal_interval.uncached(d, m)
    grid = np.array(deltas)
    np.testing.assert_array_equal(checkpoint.optimal_interval(grid, 11_000.0),
                                  checkpoint.optimal_interval.uncached(grid, 11_000.0))
