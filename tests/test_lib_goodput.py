"""Goodput (models/lib/goodput.py): Daly's useful share at the optimum interval, for a recovery time."""

from __future__ import annotations

import numpy as np
import pytest

from models.lib import checkpoint as ck
from models.lib.goodput import goodput

DELTA, MTBF = 3.0, 10_000.0  # a checkpoint write and a job-level MTBI (s), hand-checkable


def test_goodput_is_efficiency_at_the_optimum_with_r_the_mttr():
    for mttr in (0.0, 60.0, 600.0):
        assert goodput(DELTA, MTBF, mttr) == pytest.approx(float(ck.efficiency_at_optimum(DELTA, MTBF, mttr)),
                                                           rel=1e-15)


def test_goodput_falls_with_the_mttr_and_takes_arrays():
    r = np.array([1.0, 10.0, 100.0, 1000.0])
    g = goodput(DELTA, MTBF, r)
    assert g.shape == r.shape and np.all(np.diff(g) < 0)


def test_goodput_tends_to_the_checkpoint_only_bound_as_the_mttr_goes_to_zero():
    tau = ck.optimal_interval(DELTA, MTBF)
    shares = ck.overhead_breakdown(tau, DELTA, MTBF, 0.0, 1e6 * tau)
    wall = float(ck.wall_time(tau, DELTA, MTBF, 0.0, 1e6 * tau))
    bound = 1 - (float(shares["save"]) + float(shares["lost"])) / wall  # writes and lost work alone
    assert float(goodput(DELTA, MTBF, 0.0)) == pytest.approx(bound, rel=1e-9)
    gaps = [bound - float(goodput(DELTA, MTBF, r)) for r in (100.0, 10.0, 1.0, 0.1, 1e-3)]
    assert all(g > 0 for g in gaps) and gaps == sorted(gaps, reverse=True) and gaps[-1] < 1e-6
