"""Tests for models/lib/pfc.py: the PFC headroom on the wire, its terms and how it grows."""

from __future__ import annotations

import numpy as np
import pytest

from models.constants import const
from models.lib.pfc import pfc_headroom

T_PROP = const("fibre_delay_per_m")
T_RESP = const("mlx5_pfc_fixed_delay")


def test_headroom_terms_and_monotonicity():
    rate = const("ndr_port_rate")
    L = np.linspace(0, 2000, 50)
    h = pfc_headroom(L, rate, 4096, T_PROP, T_RESP)
    assert np.all(np.diff(h) > 0)
    # slope: each metre of cable adds a round trip's worth of line-rate bytes
    assert (h[-1] - h[0]) / (L[-1] - L[0]) == pytest.approx(2 * T_PROP * rate)
    # zero cable, zero response: just the two frames in transmission and the PAUSE
    assert float(pfc_headroom(0, rate, 4096, T_PROP, 0.0)) == 2 * 4096 + 64
    # linear in rate beyond the fixed MTU term
    h1 = float(pfc_headroom(100, rate, 4096, T_PROP, T_RESP)) - 2 * 4096 - 64
    h2 = float(pfc_headroom(100, 2 * rate, 4096, T_PROP, T_RESP)) - 2 * 4096 - 64
    assert h2 == pytest.approx(2 * h1)
