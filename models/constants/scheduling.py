"""Cluster scheduling: job-trace statistics, scheduler defaults (Slurm, Kueue), MIG profiles, straggler studies.

Each entry: value in SI base units, unit, source key (sources.py), direction, scope."""

from __future__ import annotations

from models.constants.base import Constant  # noqa: F401  (used by the scenes' blocks below)

CONSTANTS = {
    # >>> constants: scene 13
    # <<< constants: scene 13
    # >>> constants: scene 14
    # <<< constants: scene 14
    # >>> constants: scene 15
    # <<< constants: scene 15
    # >>> constants: scene 16
    # <<< constants: scene 16
}
