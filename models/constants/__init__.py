"""The one table of hardware and field constants, each with its source.

Split by domain into the modules of this package (gpus, nvlink, hostbus,
network, servers, storage, scheduling, reliability, economics, workload) and merged here into the single
`CONSTANTS` registry and the single `SOURCES` bibliography (sources.py) that
the rest of the code uses. `ENTITIES` (products.py) groups the constants of
one product into a typed object the catalogue can name: `$gpu.h100`.

Every bandwidth carries its direction (base.py: per direction, bidirectional,
a shared half-duplex total, or "direction not stated" when its source does not say) and its
scope (per link, per GPU, per rack, …): the pages show the tag wherever the number appears, so a per-direction figure
is never set against a bidirectional one by accident.

Values are in SI base units (models/units.py): bytes, seconds, B/s. Add a
constant to its domain's module, with its source, before any model or page
uses it.
"""

from __future__ import annotations

from models.constants import (
    economics,
    gpus,
    hostbus,
    network,
    nvlink,
    products,
    reliability,
    scheduling,
    servers,
    storage,
    workload,
)
from models.constants.base import (
    BANDWIDTH_DIRECTIONS,
    BIDIRECTIONAL,
    DIRECTIONS,
    NO_DIRECTION,
    PER_DIRECTION,
    SCOPES,
    SHARED,
    UNSTATED,
    Constant,
    Source,
)
from models.constants.sources import SOURCES

DOMAINS = (workload, gpus, nvlink, hostbus, servers, network, storage, scheduling, reliability, economics)


def _merge() -> dict[str, Constant]:
    out: dict[str, Constant] = {}
    for mod in DOMAINS:
        for k, v in mod.CONSTANTS.items():
            if k in out:
                raise KeyError(f"models/constants: {k!r} is defined twice ({mod.__name__} and another domain)")
            out[k] = v
    return out


CONSTANTS: dict[str, Constant] = _merge()
ENTITIES: dict[str, dict] = products.build(CONSTANTS)


def const(name: str) -> float:
    """The value of a constant, by name; a clear KeyError for a typo."""
    try:
        return CONSTANTS[name].value
    except KeyError:
        raise KeyError(f"models/constants: no constant named {name!r}") from None


__all__ = ["CONSTANTS", "SOURCES", "ENTITIES", "Constant", "Source", "const", "PER_DIRECTION", "BIDIRECTIONAL",
           "SHARED", "UNSTATED", "NO_DIRECTION", "DIRECTIONS", "BANDWIDTH_DIRECTIONS", "SCOPES"]
