"""A damaged output heals: bytes that differ from the manifest, with the file's size and mtime left as
recorded (bit rot, a bad copy), are found before publishing, and the task that owns them re-runs.

Planning trusts an output's recorded size and mtime, so such a damage passes it; the byte check
before publishing finds it, drops the task's recorded sizes and mtimes (every later build then
compares bytes) and re-runs the task in the same build. Here, on a scratch copy of the shared preview
build plus the presenter kit's 2-beat fixture scene (tests/fixtures/kit_fixture.py), one output of
each kind of task is damaged in place and one plain `build` must end with exit 0 and a site whose
every file matches the manifest. The kit renders at the probe preset's pixels and frame rate in the
copy (its `hd` and `4k` presets shrunk): the heal does not depend on the size, a real kit costs minutes.

The unit cases at the top need no build.
"""

from __future__ import annotations

import hashlib
import json
import os
import shutil
from pathlib import Path

import pytest
from support import run_build

from pipeline import paths
from pipeline.engine.manifest import Manifest
from pipeline.engine.project_copy import copy_project

FIXTURES = Path(__file__).with_name("fixtures")
SCENE = "capex-opex-tco"  # has data, figures, media and an Explore panel, and the cheapest of them to re-run
KIT = "kit-fixture"
KEEP = ("data", "figures", "media", "explore", "presenter", "manifest.json", "report.json")  # what a build reads back


def damage(path: Path) -> None:
    """Invert 64 bytes in the middle of `path`, in place, and put its mtime back: size and time as recorded."""
    st = path.stat()
    with open(path, "r+b") as f:
        f.seek(max(0, st.st_size // 2 - 32))
        chunk = f.read(64)
        f.seek(-len(chunk), os.SEEK_CUR)
        f.write(bytes(b ^ 0xFF for b in chunk))
    os.utime(path, ns=(st.st_atime_ns, st.st_mtime_ns))
    assert (path.stat().st_size, path.stat().st_mtime_ns) == (st.st_size, st.st_mtime_ns)


def sha(p: Path) -> str:
    return hashlib.sha256(p.read_bytes()).hexdigest()


# --- the manifest's part, without a build ------------------------------------------------------------
@pytest.fixture
def recorded(tmp_path, monkeypatch) -> tuple[Manifest, Path]:
    monkeypatch.setattr(paths, "ROOT", tmp_path)
    out = tmp_path / "build" / "figures" / "x.svg"
    out.parent.mkdir(parents=True)
    out.write_bytes(b"<svg>" + b"0" * 200 + b"</svg>")
    other = out.with_name("x-dark.svg")  # undamaged: its record stays as it was
    other.write_bytes(b"<svg>" + b"1" * 200 + b"</svg>")
    manifest = Manifest(tmp_path / "build" / "manifest.json")
    manifest.record("figures/x", "k", {}, {paths.rel(p): sha(p) for p in (out, other)}, 1.0)
    return manifest, out


def test_planning_trusts_size_and_time_the_byte_check_does_not(recorded):
    manifest, out = recorded
    damage(out)
    assert manifest.broken_output("figures/x") is None  # the fast path: this is what the issue was
    assert manifest.damaged() == {"figures/x": {"build/figures/x.svg": "bytes differ from the recorded hash"}}


def test_distrust_makes_the_next_planning_compare_bytes(recorded):
    manifest, out = recorded
    damage(out)
    manifest.distrust("figures/x", ["build/figures/x.svg"])
    again = Manifest(manifest.path)  # what the next build reads: the distrust was saved
    assert set(again.get("figures/x")["stat"]) == {"build/figures/x-dark.svg"}
    assert again.broken_output("figures/x") == "output changed on disk: build/figures/x.svg"


def test_distrust_leaves_the_manifest_alone_when_planning_sees_the_change_anyway(recorded):
    manifest, out = recorded
    out.write_bytes(out.read_bytes() + b"\n")  # another size: planning compares bytes already
    before = manifest.path.read_bytes()
    manifest.distrust("figures/x", ["build/figures/x.svg"])
    assert manifest.path.read_bytes() == before


# --- the build's part, on a scratch copy ---------------------------------------------------------------
KIT_MODEL = '''\
"""The kit fixture's values (tests/fixtures/kit-fixture.json) as a declared model's output."""

from models.exhibit import Column, Exhibit, Param, Table, curves, model


@model(side=Param.positive("1", "the square's side, in scene units"))
def kit_fixture(side) -> Exhibit:
    return Exhibit(summary={"side": side}, series=curves("x", [0.0, 1.0], y=[0.0, side]),
                   table=Table("fixture", [Column("x", "1")], [[0.0], [1.0]]),
                   animation=ANIMATION)


ANIMATION = {animation}
'''

KIT_FIGURE = '''\
import matplotlib.pyplot as plt


def chart(data, theme):
    fig, ax = plt.subplots(figsize=(2, 1.5))
    ax.plot(data["series"]["x"], data["series"]["y"])
    return fig
'''

KIT_SCENE_TAIL = '''

class KitFixtureBuilt(KitFixture):
    """The fixture, its values read from the model's `animation` (the build's data file)."""

    def setup(self):
        super().setup()
        self.data = self.data["animation"]
'''

KIT_ENTRY = '''\
  - id: kit-fixture
    number: 93
    module: reliability
    title: "Kit fixture"
    question: "Does a damaged kit file heal?"
    model: kit_fixture
    params:
      side: 3.0
    scene: KitFixtureBuilt
    figures:
      - name: chart
        function: chart
        alt: "A fixture line chart for the heal test"
'''

SMALL = '{"pixel_width": 256, "pixel_height": 144, "frame_rate": 3}'  # the probe preset's


def add_kit_fixture(project: Path) -> None:
    """The 2-beat fixture scene as a catalogue scene, and the kit's presets shrunk (this copy only)."""
    values = json.loads((FIXTURES / f"{KIT}.json").read_text())
    (project / "models" / "kit_fixture.py").write_text(KIT_MODEL.replace("{animation}", repr(values)))
    (project / "figures" / "kit_fixture.py").write_text(KIT_FIGURE)
    (project / "scenes" / "kit_fixture.py").write_text((FIXTURES / "kit_fixture.py").read_text() + KIT_SCENE_TAIL)
    (project / "docs" / "scenes" / f"{KIT}.md").write_text("{{ scene_header() }}\n\n{{ exhibit() }}\n")
    cat = project / "catalogue.yml"
    cat.write_text(cat.read_text().rstrip("\n") + "\n" + KIT_ENTRY)
    presets = project / "pipeline" / "engine" / "presets.py"
    text = presets.read_text()
    for name, size in (("hd", '{"pixel_width": 1920, "pixel_height": 1080, "frame_rate": 60}'),
                       ("4k", '{"pixel_width": 3840, "pixel_height": 2160, "frame_rate": 60}')):
        assert f'"{name}": {size}' in text, f"presets.py: {name} is not {size}"
        text = text.replace(f'"{name}": {size}', f'"{name}": {SMALL}')
    presets.write_text(text)


@pytest.fixture(scope="module")
def project(preview_site, tmp_path_factory) -> Path:
    """Sources and the shared preview build copied (real copies: damaging them in place touches nothing
    else), the kit fixture added; built with its site and its kit."""
    project = tmp_path_factory.mktemp("heal") / "project"
    copy_project(project)
    src = preview_site.parent / "build"
    (project / "build").mkdir()
    for name in KEEP:  # what exists: build/presenter only after a kit was made
        if (src / name).is_dir():
            shutil.copytree(src / name, project / "build" / name)
        elif (src / name).is_file():
            shutil.copy2(src / name, project / "build" / name)
    add_kit_fixture(project)
    run_build(project, "build")
    run_build(project, "presenter", "--only", KIT)
    run_build(project, "build")  # the kit's light files into the site
    return project


def manifest_entries(project: Path) -> dict[str, dict]:
    return json.loads((project / "build" / "manifest.json").read_text())["entries"]


def statuses(project: Path) -> dict[str, str]:
    return {t["id"]: t["status"] for t in json.loads((project / "build" / "report.json").read_text())["tasks"]}


def assert_site_matches_manifest(project: Path) -> None:
    """Every recorded output's bytes are its hash, and so are those of its published copy in site/."""
    from pipeline.site.shared import site_path

    published = 0
    entries = manifest_entries(project)
    owned = {rel for e in entries.values() for rel in e["outputs"]}
    for entry in entries.values():
        for rel, digest in entry["outputs"].items():
            assert sha(project / rel) == digest, f"{rel}: bytes differ from the manifest"
            dest = site_path(rel, owned)
            if dest and not dest.startswith("../"):
                assert sha(project / "site" / dest) == digest, f"site/{dest}: not the bytes {rel} records"
                published += 1
    assert published > 100


# (kind, the damaged outputs, the tasks that must re-run)
CASES = [
    ("data", [f"build/data/{SCENE}.json"], [f"data/{SCENE}"]),
    ("figure", [f"build/figures/{SCENE}-tornado-light.svg"], [f"figures/{SCENE}"]),
    ("media", [f"build/media/preview/{SCENE}.mp4"], [f"media/preview/{SCENE}"]),
    ("panel", [f"build/explore/{SCENE}.json"], [f"explore/{SCENE}"]),
    ("kit", [f"build/presenter/{KIT}/{KIT}-deck.pptx", f"build/media/4k/{KIT}.mp4", f"build/media/hd/{KIT}.mp4"],
     [f"kit/deck/{KIT}", f"media/4k/{KIT}", f"media/hd/{KIT}"]),
]


@pytest.mark.slow
@pytest.mark.parametrize("kind,files,owners", CASES, ids=[c[0] for c in CASES])
def test_one_plain_build_heals_a_damaged_output(project, kind, files, owners):
    entries = manifest_entries(project)
    for rel, owner in zip(files, owners):
        assert rel in entries[owner]["outputs"], f"{owner} does not record {rel}"
    for rel in files:
        damage(project / rel)
    proc = run_build(project, "build")  # exit 0 (run_build fails with the output otherwise)
    for rel, owner in zip(files, owners):
        assert (f"damaged {rel}: bytes differ from the recorded hash; it is an output of {owner}: re-run"
                in proc.stdout), proc.stdout[-3000:]
    ran = {t for t, s in statuses(project).items() if s == "built"}
    assert set(owners) <= ran, ran
    if kind == "data":  # the model's output is deterministic: what read it stays a hit
        assert ran == set(owners), ran
    assert_site_matches_manifest(project)


@pytest.mark.slow
def test_a_scene_outside_the_selection_heals_on_the_next_build(project):
    """`--only` another scene: not re-run, the site kept, the file, its task and the command named; the
    next plain build re-runs it (its record now asks for a byte check)."""
    rel = f"build/figures/{SCENE}-cost-stack-dark.svg"
    damage(project / rel)
    site_before = {p: sha(p) for p in (project / "site").rglob("*") if p.is_file()}
    proc = run_build(project, "build", "--only", KIT, check=False)
    assert proc.returncode == 1, proc.stdout[-3000:]
    assert (f"{rel}: bytes differ from the recorded hash (an output of figures/{SCENE}, not planned by this "
            f"build: python -m pipeline build --only {SCENE}, or make, re-runs it)") in proc.stdout, proc.stdout[-3000:]
    assert {p: sha(p) for p in (project / "site").rglob("*") if p.is_file()} == site_before
    stats = manifest_entries(project)[f"figures/{SCENE}"]["stat"]
    assert rel not in stats and len(stats) == 3, stats  # the damaged file is compared by its bytes from now on
    run_build(project, "build")
    assert statuses(project)[f"figures/{SCENE}"] == "built"
    assert_site_matches_manifest(project)
