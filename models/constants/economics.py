"""FinOps: utilisation accounting, prices and rate cards (each with its date), tariffs, depreciation lives.

Each entry: value in SI base units, unit, source key (sources.py), direction, scope."""

from __future__ import annotations

from models.constants.base import Constant  # noqa: F401  (used by the scenes' blocks below)

CONSTANTS = {
    # >>> constants: scene 21
    # <<< constants: scene 21
    # >>> constants: scene 22
    # <<< constants: scene 22
    # >>> constants: scene 23
    # <<< constants: scene 23
    # >>> constants: scene 24
    # <<< constants: scene 24
}
