"""Every scenario built once per test run, for tests/test_scenarios*.py (a plain function: each module wraps it)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SITE = ROOT / "site"
OTHERS = ("deepseek-v3", "llama3-70b")


_BUILT: list[Path] = []


def scenario_site() -> Path:
    """Every scenario's data, figures and pages (a no-op apart from mkdocs when build/ is warm), built
    once per test run; the test modules wrap it in a fixture."""
    if _BUILT:
        return _BUILT[0]
    if not os.environ.get("W06_GATE_PREBUILT"):
        env = {**os.environ, "NO_MKDOCS_2_WARNING": "1"}
        proc = subprocess.run([sys.executable, "-m", "pipeline", "build", "--preset", "preview", "--scenario", "all"],
                              cwd=ROOT, env=env, capture_output=True, text=True)
        assert proc.returncode == 0, proc.stdout[-3000:] + proc.stderr[-3000:]
    for sid in OTHERS:
        assert (SITE / "scenario" / sid / "index.html").is_file(), f"{sid}: no pages built"
    _BUILT.append(SITE)
    return SITE


