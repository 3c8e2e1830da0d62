"""Reliability, thermal and power: fault rates, coolant properties, thermal figures, rack powers, PUE.

Each entry: value in SI base units, unit, source key (sources.py), direction, scope."""

from __future__ import annotations

from models.constants.base import Constant  # noqa: F401  (used by the scenes' blocks below)

CONSTANTS = {
    # >>> constants: scene 17
    # <<< constants: scene 17
    # >>> constants: scene 18
    # <<< constants: scene 18
    # >>> constants: scene 19
    # <<< constants: scene 19
    # >>> constants: scene 20
    # <<< constants: scene 20
}
