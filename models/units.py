"""Units and number formatting: the project's units convention in one place.

Models work in SI base units: bytes, seconds, bytes per second, watts, dollars.
Decimal prefixes throughout (GB = 10^9 B, as vendors quote bandwidth); a bit
rate is converted to bytes at the boundary (400 Gb/s = 50 GB/s).

The formatters are shared by the page macros, the figures and the Manim
scenes, so the same quantity reads the same everywhere.
"""

from __future__ import annotations

import math

# --- multipliers (decimal, as datasheets use them) -------------------------
KB, MB, GB, TB, PB = 1e3, 1e6, 1e9, 1e12, 1e15
KiB, MiB, GiB = 2.0**10, 2.0**20, 2.0**30
BIT = 1 / 8  # bytes per bit
Gbps = 1e9 * BIT  # one gigabit per second, in bytes per second
NS, US, MS = 1e-9, 1e-6, 1e-3
MINUTE, HOUR, DAY = 60.0, 3600.0, 86400.0

_PREFIXES = [(1e15, "P"), (1e12, "T"), (1e9, "G"), (1e6, "M"), (1e3, "k"), (1.0, "")]


def sig(x: float, digits: int = 3) -> str:
    """x to `digits` significant figures, no exponent for everyday magnitudes."""
    if x == 0 or not math.isfinite(x):
        return f"{x:g}"
    if float(x).is_integer() and abs(x) < 1e15 and abs(x) >= 10 ** (digits - 1) or isinstance(x, int):
        return f"{int(x):,}"
    mag = math.floor(math.log10(abs(x)))
    decimals = max(digits - 1 - mag, 0)
    return f"{round(x, decimals - 0):,.{decimals}f}"


def si(x: float, unit: str, digits: int = 3) -> str:
    """Decimal SI prefix: si(2.5e10, 'B/s') -> '25.0 GB/s'."""
    for mult, prefix in _PREFIXES:
        if abs(x) >= mult:
            return f"{sig(x / mult, digits)} {prefix}{unit}"
    return f"{sig(x, digits)} {unit}"


def fmt_bytes(x: float, digits: int = 3) -> str:
    if abs(x) < 1e3:
        return f"{x:,.0f} B"
    return si(x, "B", digits).replace(" kB", " KB")


def fmt_rate(bytes_per_s: float, digits: int = 3) -> str:
    return si(bytes_per_s, "B/s", digits).replace(" kB/s", " KB/s")


def fmt_seconds(t: float, digits: int = 3) -> str:
    """Seconds in the unit a reader would use: µs, ms, s, min, h, days."""
    a = abs(t)
    if a == 0:
        return "0 s"
    if a < 1e-6:
        return f"{sig(t / NS, digits)} ns"
    if a < 1e-3:
        return f"{sig(t / US, digits)} µs"
    if a < 1:
        return f"{sig(t / MS, digits)} ms"
    if a < 120:
        return f"{sig(t, digits)} s"
    if a < 2 * HOUR:
        return f"{sig(t / MINUTE, digits)} min"
    if a < 3 * DAY:
        return f"{sig(t / HOUR, digits)} h"
    return f"{sig(t / DAY, digits)} days"


def fmt_count(n: float) -> str:
    """An integer count with thousands separators: 16384 -> '16,384'."""
    return f"{round(n):,}"


def fmt_words(n: float, digits: int = 3) -> str:
    """A large count in words: 405e9 -> '405 billion', 15.6e12 -> '15.6 trillion'."""
    for mult, word in ((1e12, "trillion"), (1e9, "billion"), (1e6, "million")):
        if abs(n) >= mult:
            return f"{sig(n / mult, digits)} {word}"
    return fmt_count(n)


def fmt_percent(fraction: float, digits: int = 3) -> str:
    return f"{sig(100 * fraction, digits)}%"
