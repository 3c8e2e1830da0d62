"""The project's Python passes ruff with the settings in pyproject.toml (line length, import order, pyflakes)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def test_the_code_passes_ruff():
    ruff = Path(sys.executable).parent / "ruff"
    assert ruff.is_file(), "ruff is in requirements.lock; run make"
    proc = subprocess.run([str(ruff), "check", "--no-cache", "."], cwd=ROOT, capture_output=True, text=True)
    assert proc.returncode == 0, proc.stdout[-4000:]
