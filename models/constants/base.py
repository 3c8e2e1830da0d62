"""The types of the constants table: a Source, a Constant, and the tags a bandwidth carries."""

from __future__ import annotations

from dataclasses import dataclass

# Direction: how a bandwidth counts traffic. Readers trip over figures quoted
# bidirectionally in one place and per direction in the next; every bandwidth
# says which it is, and the pages show the tag wherever the number appears.
PER_DIRECTION = "per direction"  # each direction carries this at once (full duplex)
BIDIRECTIONAL = "bidirectional"  # the sum of both directions of a full-duplex link: halve it before use
SHARED = "both directions, shared"  # a half-duplex total (HBM, a DDR channel): reads plus writes together
# a bandwidth whose source does not say which way it counts (a storage system's "throughput": reads, writes,
# or both together); the page that uses it says which reading its model takes
UNSTATED = "direction not stated"
NO_DIRECTION = ""
DIRECTIONS = (PER_DIRECTION, BIDIRECTIONAL, SHARED, UNSTATED, NO_DIRECTION)
BANDWIDTH_DIRECTIONS = (PER_DIRECTION, BIDIRECTIONAL, SHARED, UNSTATED)

SCOPES = ("per link", "per port", "per lane", "per GPU", "per CPU", "per node", "per rack", "per switch tray",
          "per switch chip", "per drive", "per channel", "per job", "per restart", "per step", "per rank", "per stream",
          "per worker", "per request", "per tenant", "per GPU instance", "per cluster", "aggregate",
          "per GPU pair", "per CPU core", "per server", "")


@dataclass(frozen=True)
class Source:
    """A primary source: datasheet, paper, standard or public measurement."""

    title: str
    publisher: str
    year: int
    url: str
    where: str = ""  # section, table or page within the source


@dataclass(frozen=True)
class Constant:
    value: float
    unit: str  # SI base unit of `value`: "B/s", "B", "s", "W", "USD", "1"
    source: str  # key into SOURCES
    direction: str = NO_DIRECTION
    scope: str = ""
    label: str = ""  # how the pages name it
    note: str = ""  # what the value means when it needs saying
    # (low, high) when the value is an assumption, not a published figure: the pages call it an
    # estimate and show the range (the scenarios' unpublished fields, catalogue.yml `scenarios:`)
    estimate: tuple[float, float] | None = None

    def __post_init__(self):
        if self.estimate is not None:
            lo, hi = self.estimate
            if not lo <= self.value <= hi:
                raise ValueError(f"estimate {self.value} lies outside its stated range {lo}..{hi}")
