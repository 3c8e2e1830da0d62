"""The tests read what `make` already made only when `make` would not make it again.

`support.current_outputs` hands the model tests `make`'s data and the scene tests a render's record of
its beats and frame checks (tests/conftest.py: model_output, dry_run). It must refuse an output whose
sources changed since it was built, or whose bytes are not the recorded bytes: else a test would pass
on a stale or damaged file. Checked on a scratch copy holding the shared build by hard links, each
change made there by replacing a file (never writing through a link into the working tree's build).
"""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

from support import ROOT

from pipeline.engine.project_copy import copy_project, link_build

SCENE = "capex-opex-tco"
PROBE = f"""
import json, sys
sys.path.insert(0, "tests")
from support import current_outputs
print(json.dumps({{kind: sorted(current_outputs({SCENE!r}, kind) or []) for kind in ("compute", "media")}}))
"""


def current(project: Path) -> dict[str, list[str]]:
    """{kind: the current outputs' paths ([] when none)} for SCENE, as the copy's tests would see it."""
    proc = subprocess.run([sys.executable, "-c", PROBE], cwd=project, capture_output=True, text=True, timeout=300)
    assert proc.returncode == 0, proc.stderr[-3000:]
    return json.loads(proc.stdout)


def replace(path: Path, text: str) -> None:
    """Write `path` anew (unlink first: it may be a hard link into the shared build)."""
    path.unlink()
    path.write_text(text, encoding="utf-8")


def test_only_a_current_output_is_read(preview_site, tmp_path):
    project = tmp_path / "project"
    copy_project(project)
    (project / "tests").mkdir()
    shutil.copy2(ROOT / "tests" / "support.py", project / "tests" / "support.py")
    link_build(preview_site.parent / "build", project)

    fresh = current(project)
    assert f"build/data/{SCENE}.json" in fresh["compute"]
    assert f"build/media/preview/{SCENE}.beats.json" in fresh["media"]

    data = project / "build" / "data" / f"{SCENE}.json"
    original = data.read_text(encoding="utf-8")
    replace(data, original.replace("}", " }", 1))  # the same numbers, other bytes
    assert current(project) == {"compute": [], "media": []}, "damaged data must not be read"

    replace(data, original)
    scene = project / "scenes" / "capex_opex_tco.py"
    replace(scene, scene.read_text(encoding="utf-8") + "\n# edited\n")
    assert current(project) == {"compute": fresh["compute"], "media": []}, "an edited scene is dry-run again"

    model = project / "models" / "capex_opex_tco.py"
    replace(model, model.read_text(encoding="utf-8") + "\n# edited\n")
    assert current(project) == {"compute": [], "media": []}, "an edited model is run again"
