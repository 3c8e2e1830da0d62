"""Units and number formatting: the project's units convention in one place.

Models work in SI base units: bytes, seconds, bytes per second, watts, dollars.
Decimal prefixes throughout (GB = 10^9 B, as vendors quote bandwidth); a bit
rate is converted to bytes at the boundary (400 Gb/s = 50 GB/s).

The one exception, decided here: a byte quantity that is an exact power of two
of 1 KiB or more (an MTU, a page, a TLP payload, a buffer) prints exactly in
binary units, "4 KiB", never the rounded decimal "4.10 kB". Every other byte
quantity prints with a decimal prefix (kB, MB, GB: lower-case k, as SI has it).

`fmt(value, unit)` formats a value in any unit a model may declare
(models/exhibit.py `UNITS`), so pages, figures and scenes never pick a
formatter by hand.

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
ZERO_CELSIUS = 273.15  # K: 0 °C (the SI brochure, 9th ed., 2019, section 2.3.1), for a model's boundary

_PREFIXES = [(1e18, "E"), (1e15, "P"), (1e12, "T"), (1e9, "G"), (1e6, "M"), (1e3, "k"), (1.0, "")]
_BINARY = [(2**40, "TiB"), (2**30, "GiB"), (2**20, "MiB"), (2**10, "KiB")]
_SUPERSCRIPT = str.maketrans("-0123456789", "⁻⁰¹²³⁴⁵⁶⁷⁸⁹")


def sig(x: float, digits: int = 3) -> str:
    """x to `digits` significant figures, no exponent for everyday magnitudes."""
    if x == 0 or not math.isfinite(x):
        return f"{x:g}"
    if float(x).is_integer() and abs(x) < 1e15 and abs(x) >= 10 ** (digits - 1) or isinstance(x, int):
        return f"{int(x):,}"
    mag = math.floor(math.log10(abs(x)))
    decimals = max(digits - 1 - mag, 0)
    return f"{round(x, decimals - 0):,.{decimals}f}"


def sci(x: float, digits: int = 3) -> str:
    """Scientific notation for magnitudes past every prefix: 3.8e25 -> '3.80 × 10²⁵'."""
    exp = math.floor(math.log10(abs(x)))
    return f"{sig(x / 10**exp, digits)} × 10{str(exp).translate(_SUPERSCRIPT)}"


def si(x: float, unit: str, digits: int = 3) -> str:
    """Decimal SI prefix: si(2.5e10, 'B/s') -> '25.0 GB/s'; past 10^21, scientific notation."""
    if not math.isfinite(x):
        return f"{x:g} {unit}"
    if abs(x) >= 1e21:
        return f"{sci(x, digits)} {unit}"
    for mult, prefix in _PREFIXES:
        if abs(x) >= mult:
            return f"{sig(x / mult, digits)} {prefix}{unit}"
    return f"{sig(x, digits)} {unit}"


def is_binary(x: float) -> bool:
    """An exact power of two of 1 KiB or more: printed in binary units."""
    if not math.isfinite(x) or x < 1024 or not float(x).is_integer():
        return False
    n = int(x)
    return n & (n - 1) == 0


def fmt_bytes(x: float, digits: int = 3) -> str:
    """Bytes: 512 -> '512 B', 4096 -> '4 KiB' (exact), 4.1e9 -> '4.10 GB'."""
    if is_binary(x):
        for mult, unit in _BINARY:
            if x >= mult:
                return f"{int(x) // mult:,} {unit}"
    if abs(x) < 1e3:
        return f"{x:,.0f} B" if float(x).is_integer() else f"{sig(x, digits)} B"
    return si(x, "B", digits)


def fmt_rate(bytes_per_s: float, digits: int = 3) -> str:
    """Bytes per second, always decimal (link rates are decimal): 5e10 -> '50.0 GB/s'."""
    return si(bytes_per_s, "B/s", digits)


def fmt_bits(bits_per_s: float, digits: int = 3) -> str:
    """Bits per second, as a line rate is quoted: 4e11 -> '400 Gb/s'."""
    return si(bits_per_s, "b/s", digits)


def fmt_usd(x: float, digits: int = 3) -> str:
    """Dollars: 2.5 -> '$2.50', 1234 -> '$1,234', 3.2e9 -> '$3.20 billion'."""
    sign = "−" if x < 0 else ""
    a = abs(x)
    if a >= 1e6:
        return f"{sign}${fmt_words(a, digits)}"
    if a >= 100:
        return f"{sign}${round(a):,}"
    if 0 < a < 0.005:  # cents would print a nonzero amount as $0.00: keep its significant figures
        return f"{sign}${sig(a, digits)}"
    return f"{sign}${a:,.2f}"


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


def fmt_per(formatter, per: str):
    return lambda x, digits=3: f"{formatter(x, digits)}/{per}"


def fmt_celsius(t: float, digits: int = 3) -> str:
    """A temperature a reader knows in degrees Celsius (a coolant supply, the outdoor air): 18 -> '18.0 °C'.
    Held in °C by the model that declares it; a difference of temperatures is in K."""
    return f"{sig(t, digits)} °C".replace("-", "−")


def fmt_usd_rate(per: str):
    """A price per unit under a dollar keeps its significant figures: 0.08 -> '$0.0800/kWh', 150 -> '$150/kW-month'."""
    def shown(x: float, digits: int = 3) -> str:
        money = f"${sig(x, digits)}" if 0 < abs(x) < 1 else fmt_usd(x, digits)
        return f"{money}/{per}"
    return shown


def _plain(unit: str):
    """A unit that takes no prefix (kelvin, kg/s, FLOP per byte): '300 K'."""
    return lambda x, digits=3: f"{sig(x, digits)} {unit}"


# every unit a model may declare (models/exhibit.py UNITS), and a few the
# constants table and legacy models use; anything else gets a decimal SI prefix
FORMAT = {
    "B": fmt_bytes,
    "s": fmt_seconds,
    "B/s": fmt_rate,
    "b/s": fmt_bits,
    "count": lambda x, digits=3: fmt_count(x),
    "%": fmt_percent,
    "1": sig,
    "text": lambda x, digits=3: str(x),
    "USD": fmt_usd,
    "USD/h": fmt_per(fmt_usd, "h"),
    "B/token": fmt_per(fmt_bytes, "token"),
    "K": _plain("K"),
    "°C": fmt_celsius,
    "K/W": _plain("K/W"),
    "J/K": _plain("J/K"),
    "kg/m³": _plain("kg/m³"),
    "Pa": lambda x, digits=3: si(x, "Pa", digits),
    "m³/s": _plain("m³/s"),
    "L/min": _plain("L/min"),
    "g/kWh": lambda x, digits=3: si(x, "g/kWh", digits),
    "USD/kWh": fmt_usd_rate("kWh"),
    "USD/kW-month": fmt_usd_rate("kW-month"),
    "kg/s": _plain("kg/s"),
    "FLOP/B": _plain("FLOP/B"),
    "m": _plain("m"),
}


def fmt(value, unit: str, digits: int = 3) -> str:
    """A value in its unit, as a reader reads it: fmt(4096, 'B') -> '4 KiB',
    fmt(3.2e10, 'T/s') -> '32.0 GT/s', fmt(7e2, 'W') -> '700 W'. None -> '—'."""
    if value is None:
        return "—"
    if isinstance(value, (list, tuple)):
        return ", ".join(fmt(v, unit, digits) for v in value)
    if isinstance(value, str) or isinstance(value, bool):
        return str(value)
    if unit in FORMAT:
        return FORMAT[unit](value, digits)
    return si(value, unit, digits)
