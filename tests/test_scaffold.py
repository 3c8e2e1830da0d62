"""`make new` (python -m pipeline new): a scaffolded scene has the contract's parts, passes ruff
and imports, and is refused as built, with every missing part named, until it is filled in;
filled in, it validates and builds like any scene.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

from support import run_build

SID = "fair-share"  # a new scene: not in the catalogue yet
FILES = ("models/fair_share.py", "tests/test_fair_share.py", "figures/fair_share.py",
         "scenes/fair_share.py", f"docs/scenes/{SID}.md")


def py(project: Path, code: str) -> str:
    proc = subprocess.run([sys.executable, "-c", code], cwd=project, capture_output=True, text=True,
                          timeout=120, env={**os.environ, "PYTHONPATH": f"{project}:{project / 'tests'}"})
    assert proc.returncode == 0, proc.stderr
    return proc.stdout.strip()


def mkdocs(project: Path) -> Path:
    site = project / "scratch-site"
    env = {**os.environ, "NO_MKDOCS_2_WARNING": "1", "W06_PRESET": "preview"}
    proc = subprocess.run([sys.executable, "-m", "mkdocs", "build", "--strict", "--site-dir", str(site)],
                          cwd=project, env=env, capture_output=True, text=True, timeout=300)
    assert proc.returncode == 0, proc.stdout[-3000:] + proc.stderr[-3000:]
    return site


FILLED = {
    "models/fair_share.py": '''"""A toy model standing in for the real one."""

from models.exhibit import Column, Exhibit, Param, Table, curves, model


@model(jobs=Param.integer("count", "jobs waiting"))
def fair_share(jobs) -> Exhibit:
    x = list(range(1, jobs + 1))
    return Exhibit(summary={"jobs": jobs}, series=curves("job", x, wait=[2.0 * i for i in x]),
                   table=Table("Wait per job", [Column("job", "count"), Column("wait", "s")],
                               [[i, 2.0 * i] for i in x]))
''',
    "tests/test_fair_share.py": '''from models.fair_share import fair_share


def test_waits_grow():
    assert fair_share(jobs=3).summary["jobs"] == 3
''',
    "figures/fair_share.py": '''import matplotlib.pyplot as plt


def main(data: dict, theme: str):
    fig, ax = plt.subplots(figsize=(8, 4.5))
    ax.plot(data["series"]["job"], data["series"]["wait"])
    ax.set_xlabel("job")
    ax.set_ylabel("wait (s)")
    return fig
''',
    "scenes/fair_share.py": '''from manim import Create, Square

from scenes.style import ExhibitScene


class FairShareScene(ExhibitScene):
    scene_id = "fair-share"

    def construct(self) -> None:
        with self.beat("A job waits until all its GPUs are free at once"):
            self.play(Create(Square()), run_time=0.5)
''',
    f"docs/scenes/{SID}.md": '''{{ scene_header() }}

A job of {{ d.summary.jobs | count }} waits.

{{ exhibit() }}

## The model

{{ params_table() }}

## The numbers

{{ numbers_table() }}

## Sources

{{ sources() }}

## Reuse

{{ reuse() }}
''',
}


def test_scaffolded_scene_is_refused_until_filled_in(project):
    out = run_build(project, "new", SID, "--module", "scheduling").stdout
    for f in FILES:
        assert (project / f).is_file(), f
        assert f in out
    # the contract's parts, and nothing pretending to be content
    model = (project / FILES[0]).read_text()
    assert "@model(" in model and "-> Exhibit" in model and "NotImplementedError" in model
    assert "class FairShareScene(ExhibitScene)" in (project / FILES[3]).read_text()
    assert 'scene_id = "fair-share"' in (project / FILES[3]).read_text()
    page = (project / FILES[4]).read_text()
    for macro in ("scene_header()", "exhibit()", "params_table()", "numbers_table()", "sources()", "reuse()"):
        assert macro in page, macro
    ruff = shutil.which("ruff", path=str(Path(sys.executable).parent))
    assert ruff, "ruff is in requirements.lock: the scaffold must pass it"
    lint = subprocess.run([ruff, "check", "--config", str(Path(__file__).parent.parent / "pyproject.toml"),
                           *FILES[:4]], cwd=project, capture_output=True, text=True)
    assert lint.returncode == 0, lint.stdout
    py(project, "import models.fair_share, figures.fair_share, scenes.fair_share, "
                "test_fair_share")
    assert run_build(project, "new", SID, "--module", "scheduling", check=False).returncode == 2  # no overwrite

    # validation names everything still missing; the scene is not built; its page says so
    check = run_build(project, "check", check=False)
    assert check.returncode == 1
    for part in ("figures[0].alt", "model models.fair_share:fair_share", "figure 'main'",
                 "animation scenes.fair_share:FairShareScene", f"page docs/scenes/{SID}.md",
                 "tests tests/test_fair_share.py", "field 'question'"):
        assert part in check.stderr, (part, check.stderr)
    assert py(project, f"from pipeline.catalogue import load; print(load().scene('{SID}').built)") == "False"
    pending = (mkdocs(project) / "scenes" / SID / "index.html").read_text()
    assert "Not built yet" in pending and "<video" not in pending

    # filled in, all but the figure's alt text: still refused, and only that is named
    for rel, text in FILLED.items():
        (project / rel).write_text(text)
    cat = project / "catalogue.yml"
    text = cat.read_text()
    start = text.index(f"  - id: {SID}\n")
    head, tail = text[:start], text[start:]
    tail = tail.replace("    params: {}\n", "    params:\n      jobs: 3\n", 1)
    tail = tail.replace(f'question: "w06-scaffold({SID}): the reader\'s question, in one sentence"',
                        'question: "How long does each job wait for its share?"', 1)
    cat.write_text(head + tail)
    check = run_build(project, "check", check=False)
    assert check.returncode == 1 and "figures[0].alt" in check.stderr
    assert "scene 'fair-share'" in check.stderr and "model models" not in check.stderr
    assert "page docs" not in check.stderr and "tests tests" not in check.stderr
    text = cat.read_text()
    cat.write_text(text.replace(f'alt: "w06-scaffold({SID}): what the figure shows, for a reader who cannot see it"',
                                'alt: "Wait time of each job in the queue, growing with its place"', 1))
    check = run_build(project, "check")
    assert "ok" in check.stdout
    assert py(project, f"from pipeline.catalogue import load; print(load().scene('{SID}').built)") == "True"

    # and it builds like any scene: data, figures, media, its own page
    run_build(project, "build", "--only", SID)
    page = (project / "site" / "scenes" / SID / "index.html").read_text()
    assert "<video" in page and "Not built yet" not in page
