"""Real hourly datasets committed to the repository, loaded with their hashes checked.

Two CSV files, both for one year of 8,760 hours (their provenance, licences and
exactly what was done to them: README.md in this folder):

- `pjm_2022_generation_by_fuel.csv`: US EIA Form EIA-930 hourly net generation
  by energy source for the PJM Interconnection balancing authority, 2022, in MW,
  hours ending at the UTC time given (US government data, public domain);
- `leesburg_tmyx_dry_bulb.csv`: hourly outdoor dry-bulb temperature (°C) of a
  typical meteorological year (TMYx 2007-2021) for Leesburg Executive Airport,
  Loudoun County, Virginia, in local standard time (UTC-5), built from NOAA
  NCEI Integrated Surface Database observations.

and the same two kinds of file for two more sites, from the same sources: CAISO's and BPA's 2022
generation (`caiso_2022_…`, `bpa_2022_…`) and TMYx dry-bulb temperature at San Jose and Seattle
(UTC-8). Every series is returned on Leesburg's clock (UTC-5).

The pipeline's cache key covers the Python modules a model imports, not data
files, so each CSV's sha256 lives here as a constant and the loader refuses a
file whose hash differs: changing a CSV forces a change to this module, which
changes the key.

Pure stdlib and numpy.
"""

from __future__ import annotations

import csv
import hashlib
from pathlib import Path

import numpy as np

HERE = Path(__file__).resolve().parent

GENERATION_FILE = "pjm_2022_generation_by_fuel.csv"
TEMPERATURE_FILE = "leesburg_tmyx_dry_bulb.csv"
# two more sites, for moving batch work to another grid (same sources, same treatment: README.md)
CAISO_GENERATION_FILE = "caiso_2022_generation_by_fuel.csv"
BPA_GENERATION_FILE = "bpa_2022_generation_by_fuel.csv"
SAN_JOSE_TEMPERATURE_FILE = "san_jose_tmyx_dry_bulb.csv"
SEATTLE_TEMPERATURE_FILE = "seattle_tmyx_dry_bulb.csv"
GENERATION_FILES = (GENERATION_FILE, CAISO_GENERATION_FILE, BPA_GENERATION_FILE)
TEMPERATURE_FILES = (TEMPERATURE_FILE, SAN_JOSE_TEMPERATURE_FILE, SEATTLE_TEMPERATURE_FILE)

SHA256 = {
    GENERATION_FILE: "3d5f764414e9ce707329c407a21af9a1bba7182b5dce28ee6fbcc78851c733b0",
    TEMPERATURE_FILE: "47f0f92f710714939378c55bf5a6a4bdcbdb60c42910677883686912a06bd33c",
    CAISO_GENERATION_FILE: "1833b23bbd6f3c3277d21bca3eaea759bdbffe382b537501fa8008bbeaa1f25b",
    BPA_GENERATION_FILE: "d77e92f9d71b869ceacc89a7bcadd99ce3ce0e5e37858b79839effcd63737a4a",
    SAN_JOSE_TEMPERATURE_FILE: "462c878fd768dfbaa92c1802ed2a3cc8ce54d431ebb0485e745b3cd95c5ac353",
    SEATTLE_TEMPERATURE_FILE: "fb360d7df0d7dd2eca730673eaba1ce24172a25c935fbe4d695ddd88b83b06ca",
}
# each temperature file's local standard time (hours from UTC): TMYx hours are local standard time
TEMPERATURE_UTC_OFFSET = {TEMPERATURE_FILE: -5, SAN_JOSE_TEMPERATURE_FILE: -8, SEATTLE_TEMPERATURE_FILE: -8}

# every column's unit, as its header spells it
FUELS = ("wind", "solar", "hydro", "oil", "gas", "coal", "nuclear", "other")
COLUMNS = {
    **{g: ("utc_hour",) + tuple(f"{f}_MW" for f in FUELS) for g in GENERATION_FILES},
    **{t: ("month", "day", "hour_ending_lst", "dry_bulb_C") for t in TEMPERATURE_FILES},
}
UNITS = {
    **{g: {"utc_hour": "hour ending, UTC (YYYY-MM-DDTHH)", **{f"{f}_MW": "MW" for f in FUELS}}
       for g in GENERATION_FILES},
    **{t: {"month": "1-12", "day": "1-31",
           "hour_ending_lst": f"1-24, local standard time (UTC{TEMPERATURE_UTC_OFFSET[t]})", "dry_bulb_C": "°C"}
       for t in TEMPERATURE_FILES},
}

HOURS = 8760
UTC_OFFSET_HOURS = -5  # Leesburg, VA: US Eastern Standard Time; TMYx hours are local standard time
SCREEN_SHARE = 0.1  # an hour whose total generation is below this share of the year's median is a reporting gap


class DatasetHashError(ValueError):
    """A dataset file whose contents are not the ones this module was written for."""


def sha256(name: str) -> str:
    return hashlib.sha256((HERE / name).read_bytes()).hexdigest()


def verified_rows(name: str) -> list[list[str]]:
    """The file's data rows, after checking its sha256 and its header."""
    actual = sha256(name)
    if actual != SHA256[name]:
        raise DatasetHashError(f"{HERE / name}: sha256 {actual} does not match the expected {SHA256[name]}; "
                               "update SHA256 in models/datasets/__init__.py and README.md only if the change "
                               "is intended")
    with open(HERE / name, newline="") as f:
        rows = list(csv.reader(f))
    if tuple(rows[0]) != COLUMNS[name]:
        raise DatasetHashError(f"{name}: header {rows[0]} is not {list(COLUMNS[name])}")
    if len(rows) - 1 != HOURS:
        raise DatasetHashError(f"{name}: {len(rows) - 1} data rows, expected {HOURS}")
    return rows[1:]


def _fill_gaps(x: np.ndarray) -> np.ndarray:
    """Linear interpolation across missing (NaN) hours; the ends hold their nearest value."""
    good = np.isfinite(x)
    idx = np.arange(x.size)
    return np.interp(idx, idx[good], x[good])


def generation_by_fuel(name: str = GENERATION_FILE) -> dict:
    """A balancing authority's 2022 hourly net generation by fuel (W), PJM unless `name` says otherwise,
    rolled to Leesburg's local standard time (UTC-5, for every file, so that hour k is the same instant
    on every grid), gaps filled.

    Returns {"fuels": {fuel: array W}, "filled_hours": n, "blank_hours": n, "screened_hours": n}.
    Hours are re-indexed to local standard time (UTC-5) so that hour k lines up
    with hour k of the temperature file; the five local hours at the very end of
    the year, which the file does not hold (they fall in 2023 UTC), wrap round to
    the first five UTC hours of 2022.
    """
    rows = verified_rows(name)
    raw = np.array([[float(v) if v != "" else np.nan for v in r[1:]] for r in rows])
    blank = ~np.all(np.isfinite(raw), axis=1)
    total = raw.sum(axis=1)
    screened = np.isfinite(total) & (total < SCREEN_SHARE * np.nanmedian(total))
    raw[blank | screened] = np.nan
    filled = np.column_stack([_fill_gaps(raw[:, j]) for j in range(raw.shape[1])])
    local = np.roll(filled, UTC_OFFSET_HOURS, axis=0)  # local hour k = UTC hour k + 5
    return {
        "fuels": {f: local[:, j] * 1e6 for j, f in enumerate(FUELS)},
        "filled_hours": int(np.sum(blank | screened)),
        "blank_hours": int(np.sum(blank)),
        "screened_hours": int(np.sum(screened)),
    }


def dry_bulb(name: str = TEMPERATURE_FILE) -> np.ndarray:
    """TMYx hourly dry-bulb temperature (K), Leesburg unless `name` says otherwise, 8,760 hours, indexed in
    Leesburg's local standard time (UTC-5): a Pacific file's hour k moves to k + 3, the same instant. The
    three hours that roll past the year's end wrap round to its start."""
    rows = verified_rows(name)
    t = np.array([float(r[3]) for r in rows]) + 273.15
    return np.roll(t, UTC_OFFSET_HOURS - TEMPERATURE_UTC_OFFSET[name])  # Eastern hour k = local hour k − 3


__all__ = ["SHA256", "GENERATION_FILES", "TEMPERATURE_FILES", "TEMPERATURE_UTC_OFFSET",
           "FUELS", "UNITS", "COLUMNS", "HOURS", "DatasetHashError", "sha256", "verified_rows",
           "generation_by_fuel", "dry_bulb"]
