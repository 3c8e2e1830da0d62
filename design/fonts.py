"""The bundled font: one family, shipped with the project, so no render or figure
depends on the fonts installed on the machine (Inter, SIL Open Font License)."""

from __future__ import annotations

from pathlib import Path

FONT_DIR = Path(__file__).resolve().parent / "fonts"
FAMILY = "Inter"


def files() -> list[Path]:
    """The font files, sorted (their bytes are part of every draw-stage cache key)."""
    return sorted(FONT_DIR.glob("*.otf"))
