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

SHA256 = {
    GENERATION_FILE: "3d5f764414e9ce707329c407a21af9a1bba7182b5dce28ee6fbcc78851c733b0",
    TEMPERATURE_FILE: "47f0f92f710714939378c55bf5a6a4bdcbdb60c42910677883686912a06bd33c",
}

# every column's unit, as its header spells it
FUELS = ("wind", "solar", "hydro", "oil", "gas", "coal", "nuclear", "other")
COLUMNS = {
    GENERATION_FILE: ("utc_hour",) + tuple(f"{f}_MW" for f in FUELS),
    TEMPERATURE_FILE: ("month", "day", "hour_ending_lst", "dry_bulb_C"),
}
UNITS = {
    GENERATION_FILE: {"utc_hour": "hour ending, UTC (YYYY-MM-DDTHH)", **{f"{f}_MW": "MW" for f in FUELS}},
    TEMPERATURE_FILE: {"month": "1-12", "day": "1-31", "hour_ending_lst": "1-24, local standard time (UTC-5)",
                       "dry_bulb_C": "°C"},
}

HOURS = 8760
UTC_OFFSET_HOURS = -5  # Leesburg, VA: US Eastern Standard Time; TMYx hours are local standard time
SCREEN_SHARE = 0.5  # an hour whose total generation is below this share of the year's median is a reporting gap


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


def generation_by_fuel() -> dict:
    """PJM 2022 hourly net generation by fuel (W), rolled to local standard time, gaps filled.

    Returns {"fuels": {fuel: array W}, "filled_hours": n, "blank_hours": n, "screened_hours": n}.
    Hours are re-indexed to local standard time (UTC-5) so that hour k lines up
    with hour k of the temperature file; the five local hours at the very end of
    the year, which the file does not hold (they fall in 2023 UTC), wrap round to
    the first five UTC hours of 2022.
    """
    rows = verified_rows(GENERATION_FILE)
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


def dry_bulb() -> np.ndarray:
    """Leesburg TMYx hourly dry-bulb temperature (K), local standard time, 8,760 hours."""
    rows = verified_rows(TEMPERATURE_FILE)
    return np.array([float(r[3]) for r in rows]) + 273.15


__all__ = ["SHA256", "FUELS", "UNITS", "COLUMNS", "HOURS", "DatasetHashError", "sha256", "verified_rows",
           "generation_by_fuel", "dry_bulb"]
