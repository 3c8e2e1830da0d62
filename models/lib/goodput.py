"""Goodput: the useful share of a failing job's wall time, for a given recovery time."""

from __future__ import annotations

from models.lib.checkpoint import efficiency_at_optimum


def goodput(delta: float, mtbf: float, mttr):
    """Useful share of wall time at the optimum interval for recovery time(s) R.

    Recovery time is Daly's restart cost, so this is `efficiency_at_optimum` with R = the MTTR.
    """
    return efficiency_at_optimum(delta, mtbf, mttr)
