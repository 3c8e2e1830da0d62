"""The whole preview build, and what the cache promises.

The run's one full build (the shared `preview_site` fixture: cold on a fresh clone) is given to
scratch copies of the sources by hard links (pipeline/engine/project_copy.py: link_build, seconds
for the whole cache); there: the copied build is a no-op (cache keys do not depend on where the
project lives, which is what lets CI restore build/ from a cache); a no-op rebuild renders nothing.
Each test that changes something gets its own copy, so none has to build its way back: a parameter
change re-renders exactly that scene; a palette change is in the key of every exhibit (figures,
animation, panel) of every scene and of no model, and a build of two scenes re-draws exactly their
exhibits and runs no model; a killed render leaves nothing the site or a later build would use; a
forced re-render gives byte-identical outputs. The renders are of the cheapest scenes (recorded
preview costs in build/report.json), so the whole file renders about ten short animations instead
of every scene twice.
"""

from __future__ import annotations

import hashlib
import json
import os
import re
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from support import run_build

from pipeline.catalogue import load
from pipeline.engine.project_copy import copy_project, link_build

pytestmark = pytest.mark.slow

CATALOGUE = load()
BUILT = [s.id for s in CATALOGUE.built]
PANELS = sorted(s.id for s in CATALOGUE.built if s.explore)  # each one's task explore/<id> draws a figure
# the cheapest renders (build/report.json, preview: ~8 s of animation each on an idle machine), one of
# them with an Explore panel, so every kind of draw task is rebuilt
CHEAP = "mig-vs-timeslicing"
CHEAP_PANEL = "capex-opex-tco"
STYLED = [CHEAP_PANEL, CHEAP]


# what a default-scenario build reads back (the other scenarios' outputs are left out: their pages
# would be built again by every build in a copy)
KEEP = ("data", "figures", "media", "explore", "presenter", "manifest.json", "report.json")


def scratch_copy(preview_site: Path, dest: Path) -> Path:
    """A copy of the sources at `dest` with the shared build's cache (KEEP) hard-linked in."""
    copy_project(dest)
    link_build(preview_site.parent / "build", dest, KEEP)
    return dest


@pytest.fixture(scope="module")
def built(preview_site, tmp_path_factory) -> Path:
    """One copy for the tests that only rebuild what is there (no-op builds)."""
    return scratch_copy(preview_site, tmp_path_factory.mktemp("build") / "project")


@pytest.fixture
def scratch(preview_site, tmp_path) -> Path:
    """A copy of its own for a test that changes sources or build/ (nothing to restore afterwards)."""
    return scratch_copy(preview_site, tmp_path / "project")


def exhibits(scenes) -> set[str]:
    """What a scene draws from its data: figures, its animation at preview and its panel if any."""
    return ({f"figures/{s}" for s in scenes} | {f"media/preview/{s}" for s in scenes}
            | {f"explore/{s}" for s in scenes if s in PANELS})  # a panel draws its figure


def task_keys(project: Path) -> dict[str, str]:
    """{task id: cache key} of every task a preview build of `project` plans, computed, nothing built."""
    proc = run_build(project, "keys", "--preset", "preview", "--tasks")
    pairs = [line.split("  ", 1) for line in proc.stdout.splitlines() if "  " in line]
    return {task_id: key for key, task_id in pairs}


def report(project: Path) -> dict[str, dict]:
    return {t["id"]: t for t in json.loads((project / "build" / "report.json").read_text())["tasks"]}


def rerun(project: Path) -> set[str]:
    return {i for i, t in report(project).items() if t["status"] != "hit"}


def outputs(project: Path) -> dict[str, str]:
    entries = json.loads((project / "build" / "manifest.json").read_text())["entries"]
    return {rel: h for e in entries.values() for rel, h in e["outputs"].items()}


def sha(p: Path) -> str:
    return hashlib.sha256(p.read_bytes()).hexdigest()


def test_full_build_has_every_exhibit_and_the_site(preview_site):
    site = preview_site
    built = preview_site.parent
    assert (site / "index.html").is_file()
    pages = sorted(p.parent.name for p in (site / "scenes").glob("*/index.html"))
    assert len(pages) == len(CATALOGUE.scenes)
    assert len(list((site / "modules").glob("*/index.html"))) == 6
    for sid in BUILT:
        media = site / "assets" / "media"
        for ext in ("mp4", "png", "vtt"):
            assert (media / f"{sid}.{ext}").stat().st_size > 0, (sid, ext)
        page = (site / "scenes" / sid / "index.html").read_text()
        assert "<video" in page and "autoplay" not in page and 'preload="none"' in page
        assert_video_waits_behind_its_poster(page, sid)
        assert "#only-light" in page and "#only-dark" in page
        assert "Not built yet" not in page
        vtt = (media / f"{sid}.vtt").read_text()
        assert vtt.startswith("WEBVTT") and vtt.count("-->") >= 4
    assert_video_waits_behind_its_poster((site / "index.html").read_text(), "home page")
    assert len(BUILT) == len(CATALOGUE.scenes)  # every scene in the catalogue has its exhibit now
    statuses = {t["status"] for t in report(built).values()}
    assert statuses <= {"built", "hit"}  # all "built" on a fresh clone, all "hit" on a warm tree


def test_copied_build_is_a_noop_wherever_it_lives(built):
    run_build(built, "build")
    assert rerun(built) == set(), "a task's cache key depends on the project's path"


def test_recorded_outputs_match_their_hashes(built):
    for rel, digest in outputs(built).items():
        assert sha(built / rel) == digest, rel


def test_noop_rebuild_renders_nothing(built):
    before = {rel: (built / rel).stat().st_mtime_ns for rel in outputs(built)}
    run_build(built, "build", "--no-site")  # the tasks are the question here; the site step is the test above
    assert rerun(built) == set()
    after = {rel: (built / rel).stat().st_mtime_ns for rel in outputs(built)}
    assert after == before  # not even rewritten


def test_parameter_change_rerenders_that_scene_only(scratch):
    cat = scratch / "catalogue.yml"
    text = cat.read_text()
    line = "      transceiver_afr_low: 0.01  #"  # capex-opex-tco's alone (no other scene aliases it)
    assert text.count(line) == 1
    cat.write_text(text.replace(line, "      transceiver_afr_low: 0.012  #"))
    run_build(scratch, "build", "--no-site")  # every scene planned: the others must be hits
    assert rerun(scratch) == {f"data/{CHEAP_PANEL}"} | exhibits([CHEAP_PANEL])
    assert "params changed" in report(scratch)[f"data/{CHEAP_PANEL}"]["reason"]
    assert "data changed" in report(scratch)[f"media/preview/{CHEAP_PANEL}"]["reason"]


def test_shared_style_change_redraws_every_exhibit_but_no_model(scratch):
    palette = scratch / "design" / "palette.py"
    text = palette.read_text()
    before = task_keys(scratch)
    palette.write_text(text.replace('VERMILLION = "#D55E00"', 'VERMILLION = "#D55E01"'))
    after = task_keys(scratch)
    assert set(after) == set(before)
    # every scene: the palette is in the key of each exhibit and of no model
    assert {t for t in after if after[t] != before[t]} == exhibits(BUILT)
    # and the build does what the keys say, on two scenes: re-draws their exhibits, runs no model
    run_build(scratch, "build", "--no-site", "--only", *STYLED)
    expected = exhibits(STYLED)
    assert rerun(scratch) == expected
    for task in expected:
        assert "design/palette.py" in report(scratch)[task]["reason"]
    palette.write_text(text)
    run_build(scratch, "build", "--no-site", "--only", *STYLED)  # back to the real palette
    assert rerun(scratch) == expected
    assert task_keys(scratch) == before


def test_killed_render_leaves_nothing_a_later_build_or_the_site_uses(scratch):
    victim = CHEAP
    media = scratch / "build" / "media" / "preview"
    # forget the scene's media so the interrupted render is its only one
    entries_path = scratch / "build" / "manifest.json"
    manifest = json.loads(entries_path.read_text())
    del manifest["entries"][f"media/preview/{victim}"]
    entries_path.unlink()  # a hard link to the shared build's manifest: replace it, never write through it
    entries_path.write_text(json.dumps(manifest))
    for f in media.glob(f"{victim}.*"):
        f.unlink()

    proc = subprocess.Popen([sys.executable, "-m", "pipeline", "build", "--no-site", "--only", victim],
                            cwd=scratch, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                            start_new_session=True)
    work = scratch / "build" / "work"
    deadline = time.time() + 120
    while time.time() < deadline and not any(work.glob(f".tmp-{victim}-*/**/*.mp4")):
        time.sleep(0.05)  # wait until Manim has started writing partial movie files
    os.killpg(proc.pid, signal.SIGKILL)
    proc.wait()
    assert time.time() < deadline, "render never started"

    assert not list(media.glob(f"{victim}.*")), "a killed render left a file where the site looks"
    assert f"build/media/preview/{victim}.mp4" not in outputs(scratch)
    # the site publishes recorded outputs only: the next site build has no video for it
    run_build(scratch, "build", "--only", victim)
    assert rerun(scratch) == {f"media/preview/{victim}"}
    assert not list(work.glob(".tmp-*")), "scratch from the killed render was not swept"
    for rel, digest in outputs(scratch).items():
        assert sha(scratch / rel) == digest, rel


def test_forced_rerender_is_byte_identical(scratch):
    forced = {f"data/{CHEAP_PANEL}"} | exhibits([CHEAP_PANEL])
    run_build(scratch, "build", "--force", "--no-site", "--only", CHEAP_PANEL)
    assert rerun(scratch) == forced
    first = outputs(scratch)
    run_build(scratch, "build", "--force", "--no-site", "--only", CHEAP_PANEL)
    assert rerun(scratch) == forced
    assert outputs(scratch) == first  # no timestamps, no unseeded randomness, no machine state


def test_failing_scene_is_isolated_and_summarized(tmp_path):
    project = tmp_path / "project"
    copy_project(project)
    scene = project / "scenes" / "ring_vs_tree.py"
    text = scene.read_text()
    assert "    def construct(self) -> None:\n" in text
    scene.write_text(text.replace("    def construct(self) -> None:\n",
                                  "    def construct(self) -> None:\n        raise RuntimeError('boom')\n", 1))
    proc = run_build(project, "build", "--no-site", "--only", "ring-vs-tree", "daly-checkpoint", check=False)
    assert proc.returncode == 1
    tasks = {t["id"]: t["status"] for t in json.loads((project / "build" / "report.json").read_text())["tasks"]}
    assert tasks["media/preview/ring-vs-tree"] == "failed"
    assert tasks["media/preview/daly-checkpoint"] == "built"  # the others finish
    assert "RuntimeError: boom" in proc.stdout
    assert not (project / "build" / "media" / "preview" / "ring-vs-tree.mp4").exists()


def test_one_scene_on_a_fresh_checkout_builds_the_whole_site(tmp_path):
    """`make scene S=<id>` before any full build: the other pages say they are not built."""
    project = tmp_path / "project"
    copy_project(project)
    run_build(project, "build", "--only", "daly-checkpoint")
    site = project / "site" / "scenes"
    assert "<video" in (site / "daly-checkpoint" / "index.html").read_text()
    for sid in BUILT:
        if sid != "daly-checkpoint":
            assert "Not built in this build" in (site / sid / "index.html").read_text(), sid


def assert_video_waits_behind_its_poster(page: str, where: str) -> None:
    """The page's animation is a <video> without controls (the browser builds them only when set,
    pipeline/site/sections/player.py), a play link to the same MP4, and the plain player in <noscript>."""
    outside = re.sub(r"<noscript>.*?</noscript>", "", page, flags=re.S)
    videos = re.findall(r"<video\b[^>]*>", outside)
    assert len(videos) == 1 and "controls" not in videos[0], (where, videos)
    src = re.search(r'<source src="([^"]+)" type="video/mp4">', outside).group(1)
    assert f'<a class="w06-play" href="{src}" onclick=' in outside, where
    fallback = re.findall(r"<noscript>(.*?)</noscript>", page, flags=re.S)
    assert any(f.startswith("<video controls ") and f'<source src="{src}"' in f and "<track " in f
               for f in fallback), where


# --- a one-scene build at a release preset ----------------------------------------------------------
def _one_scene_build(preset: str, only, recorded: set[str]):
    """A Build's publish step over a manifest holding the entries `recorded`, with no task failed."""
    from types import SimpleNamespace

    from pipeline.engine.build import Build
    from pipeline.engine.registry import Context
    from pipeline.engine.report import Report

    manifest = SimpleNamespace(get=lambda task_id: {} if task_id in recorded else None)
    fake = SimpleNamespace(ctx=Context(load(), preset, only=only), manifest=manifest, report=Report(preset))
    fake.unrendered_elsewhere = lambda: Build.unrendered_elsewhere(fake)
    return fake


def test_one_scene_hd_build_leaves_the_site_and_succeeds_when_the_others_have_no_hd_render():
    """`make release S=<id>` on a tree `make` built at preview: the scene's hd render is what was asked
    for, so the build succeeds; the hd site would need every scene's hd render, so site/ stays and the
    note says why. At preview, or with every scene selected, nothing is deferred."""
    from pipeline.engine.build import Build

    ids = [s.id for s in load().built]
    data = {f"data/{i}" for i in ids}
    fake = _one_scene_build("hd", [ids[0]], data | {f"media/hd/{ids[0]}"})
    Build.publish(fake, damage=[])
    assert fake.report.site_deferred and fake.report.site_ok is None
    assert f"{len(ids) - 1} scene(s) outside --only have none yet" in fake.report.site_note
    assert fake.report.ok
    assert _one_scene_build("preview", [ids[0]], data).unrendered_elsewhere() == []  # make scene: a fault
    assert _one_scene_build("hd", None, data).unrendered_elsewhere() == []  # make release: every scene
    rendered = data | {f"media/hd/{i}" for i in ids}
    assert _one_scene_build("hd", [ids[0]], rendered).unrendered_elsewhere() == []  # the others have hd
