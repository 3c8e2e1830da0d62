"""Issue 10: the build as a hostile user tries it.

Every case checks three things: the exit status, the one-line message
(naming the scene, the field, the value, or the stage), and that the
previous site/ and build/manifest.json are byte-identical.

The cases run in a scratch copy of the project with two small declared probe
scenes (`probe`, `probe2`: models/, figures/ and scenes/probe.py and probe2.py,
docs/scenes/probe*.md), built once per module, so each case
costs seconds rather than a real render. A probe task pauses at a chosen
stage when W06_PROBE_PAUSE=<stage>:<scene> (writing its pid to
W06_PROBE_PIDFILE), which gives the kill and timeout tests a worker to stop
mid-task.

To add a case on a real scene (after the models declare their parameters),
append (scene, field, yaml value, expected words) to BAD_PARAMS; `set_param`
edits any scene's entry in catalogue.yml.
"""

from __future__ import annotations

import fcntl
import hashlib
import os
import re
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from pipeline.engine.project_copy import copy_project

pytestmark = pytest.mark.slow

ROOT = Path(__file__).resolve().parent.parent

PROBE_MODEL = '''\
"""A tiny declared model for the reliability tests (never in the real catalogue)."""

import os
import time
from pathlib import Path

from models.exhibit import Column, Exhibit, Param, Table, curves, model


def pause(stage: str, name: str) -> None:
    """Stop here while the test kills us, when W06_PROBE_PAUSE=<stage>:<name>."""
    if os.environ.get("W06_PROBE_PAUSE") == f"{stage}:{name}":
        Path(os.environ["W06_PROBE_PIDFILE"]).write_text(str(os.getpid()))
        time.sleep(float(os.environ.get("W06_PROBE_SLEEP", "300")))


@model(
    name=Param.text("probe name"),
    lanes=Param.integer("count", "lanes", minimum=1, maximum=64),
    bandwidth=Param.positive("B/s", "link bandwidth"),
    window=Param.positive("s", "observation window"),
    nan_at=Param.integer("count", "row made NaN (-1: none)", minimum=-1),
)
def probe(name, lanes, bandwidth, window, nan_at=-1) -> Exhibit:
    pause("compute", name)
    x = [float(i + 1) for i in range(lanes)]
    y = [bandwidth * v / window for v in x]
    if nan_at >= 0:
        y[nan_at] = float("nan")
    rows = [[i, v] for i, v in enumerate(y)]
    return Exhibit(summary={"total": sum(y)}, series=curves("x", x, y=y),
                   table=Table("probe rates", [Column("lane", "count"), Column("rate", "B/s")], rows))


def legacy(lanes):
    """An undeclared (legacy) model whose dict output holds a NaN."""
    return {"summary": {"lanes": lanes},
            "table": {"caption": "t", "columns": [{"name": "a", "unit": "1"}],
                      "rows": [[1.0], [float("nan")]]}}
'''

PROBE_FIGURE = '''\
import matplotlib.pyplot as plt

from models.probe import pause


def chart(data, theme):
    pause("figures", data["params"]["name"])
    fig, ax = plt.subplots(figsize=(2, 1.5))
    ax.plot(data["series"]["x"], data["series"]["y"])
    return fig
'''

PROBE_SCENE = '''\
from manim import Square

from models.probe import pause
from scenes.style import ExhibitScene


class Probe(ExhibitScene):
    scene_id = "probe"

    def construct(self) -> None:
        pause("media", self.data["params"]["name"])
        with self.beat("A probe square"):
            self.add(Square())
            self.wait(0.2)


class Probe2(Probe):
    scene_id = "probe2"
'''

PROBE_PAGE = "{{ scene_header() }}\n\n{{ exhibit() }}\n"


def probe_entry(sid: str, number: int, cls: str, lanes: int) -> str:
    return f'''\
  - id: {sid}
    number: {number}
    module: reliability
    title: "Probe scene {sid}"
    question: "Does the build keep its promises for {sid}?"
    model: probe
    params:
      name: {sid}
      lanes: {lanes}
      bandwidth: 2.0
      window: 4.0
    scene: {cls}
    figures:
      - name: chart
        function: chart
        alt: "A probe line chart that exercises the build pipeline"
'''


LEGACY_ENTRY = '''\
  - id: probe-legacy
    number: 92
    module: reliability
    title: "Probe legacy"
    question: "Does a legacy NaN get a clear message?"
    model: legacy
    params:
      lanes: 2
    scene: Probe
    figures:
      - name: chart
        function: chart
        alt: "A probe line chart that exercises the build pipeline"
'''


# --- helpers (reusable for real-scene cases) ----------------------------------------
def run(project: Path, *args: str, env: dict | None = None, timeout: float = 600) -> subprocess.CompletedProcess:
    full = {**os.environ, "NO_MKDOCS_2_WARNING": "1", **(env or {})}
    return subprocess.run([sys.executable, "-m", "pipeline", *args], cwd=project, env=full,
                          capture_output=True, text=True, timeout=timeout)


def tree_digest(folder: Path) -> dict[str, str]:
    """Every file under `folder` and its sha256: equal digests mean a byte-identical tree."""
    return {str(p.relative_to(folder)): hashlib.sha256(p.read_bytes()).hexdigest()
            for p in sorted(folder.rglob("*")) if p.is_file()}


def snapshot(project: Path) -> tuple[dict[str, str], bytes]:
    return tree_digest(project / "site"), (project / "build" / "manifest.json").read_bytes()


def assert_unchanged(project: Path, before: tuple[dict[str, str], bytes]) -> None:
    site, manifest = snapshot(project)
    assert manifest == before[1], "build/manifest.json changed"
    assert site == before[0], "site/ changed"


def set_param(project: Path, scene: str, field: str, value: str | None) -> None:
    """Set `field` of scene `scene` in the project's catalogue.yml to the YAML text `value`.

    value None removes the field; a field the entry does not have is added.
    """
    cat = project / "catalogue.yml"
    text = cat.read_text()
    m = re.search(rf"^  - id: {re.escape(scene)}\n(?:    .*\n|      .*\n)*", text, re.M)
    assert m, f"no scene {scene} in catalogue.yml"
    block = m.group(0)
    line = re.compile(rf"^      {re.escape(field)}: .*\n", re.M)
    if value is None:
        new = line.sub("", block, count=1)
    elif line.search(block):
        new = line.sub(f"      {field}: {value}\n", block, count=1)
    else:
        new = block.replace("    params:\n", f"    params:\n      {field}: {value}\n", 1)
    assert new != block, f"{scene}: could not set {field}"
    cat.write_text(text[:m.start()] + new + text[m.end():])


def one_line_error(output: str, *words: str) -> str:
    """The single output line holding every one of `words`, outside any traceback."""
    lines = [ln for ln in output.splitlines() if all(w in ln for w in words)]
    assert lines, f"no line with {words} in:\n{output[-3000:]}"
    assert "Traceback" not in output, output[-3000:]
    return lines[0]


# --- the built scratch project -------------------------------------------------------
def make_project(dest: Path) -> Path:
    copy_project(dest)
    for mod in ("probe", "probe2", "probe_legacy"):  # a scene's modules are named by its id
        (dest / "models" / f"{mod}.py").write_text(PROBE_MODEL)
        (dest / "figures" / f"{mod}.py").write_text(PROBE_FIGURE)
        (dest / "scenes" / f"{mod}.py").write_text(PROBE_SCENE)
    for sid in ("probe", "probe2"):
        (dest / "docs" / "scenes" / f"{sid}.md").write_text(PROBE_PAGE)
    cat = dest / "catalogue.yml"
    cat.write_text(cat.read_text().rstrip("\n") + "\n" + probe_entry("probe", 90, "Probe", 3)
                   + probe_entry("probe2", 91, "Probe2", 2))
    return dest


@pytest.fixture(scope="module")
def built(tmp_path_factory) -> Path:
    """The probe scenes built once, with a site: the 'previous good build' of every case."""
    project = make_project(tmp_path_factory.mktemp("rel") / "project")
    proc = run(project, "build", "--only", "probe", "probe2")
    assert proc.returncode == 0, proc.stdout[-3000:] + proc.stderr[-3000:]
    assert "<video" in (project / "site" / "scenes" / "probe" / "index.html").read_text()
    return project


@pytest.fixture
def scratch(built, tmp_path) -> Path:
    """A private copy of the built project, for cases that change build/."""
    dest = tmp_path / "project"
    shutil.copytree(built, dest, symlinks=True)
    return dest


@pytest.fixture
def catalogue_restored(built):
    """The shared built project, its catalogue.yml restored after the case."""
    cat = built / "catalogue.yml"
    text = cat.read_bytes()
    yield built
    cat.write_bytes(text)


# --- every bad parameter: one line, before any model runs ----------------------------
# (scene, field, YAML value or None for "remove it", words the one line must hold)
BAD_PARAMS = [
    ("probe", "lanes", '"sixteen"', ["'params.lanes'", "'sixteen'", "whole number"]),
    ("probe", "lanes", "2.5", ["'params.lanes'", "2.5", "whole number"]),
    ("probe", "lanes", "0", ["'params.lanes'", "0", ">= 1"]),
    ("probe", "lanes", "true", ["'params.lanes'", "True", "whole number"]),
    ("probe", "bandwidth", "0", ["'params.bandwidth'", "0", "> 0"]),
    ("probe", "bandwidth", "-1.0e+9", ["'params.bandwidth'", "-1000000000.0", "> 0"]),
    ("probe", "bandwidth", ".nan", ["'params.bandwidth'", "nan", "finite"]),
    ("probe", "window", ".inf", ["'params.window'", "inf", "finite"]),
    ("probe", "window", "-3", ["'params.window'", "-3", "> 0"]),
    ("probe", "window", "[1, 2]", ["'params.window'", "[1, 2]", "finite number"]),
    ("probe", "name", '""', ["'params.name'", "''", "non-empty text"]),
    ("probe", "window", None, ["'params.window'", "missing"]),
    ("probe", "colour", "3", ["'params.colour'", "no parameter"]),
    # the real scenes the hostile-user review tried
    ("ring-vs-tree", "link_bandwidth", "0", ["'params.link_bandwidth'", "0", "> 0"]),
    ("daly-checkpoint", "observation_window", ".inf", ["'params.observation_window'", "inf", "finite"]),
    ("daly-checkpoint", "observation_window", "-86400", ["'params.observation_window'", "-86400", "> 0"]),
    ("pcie-cxl", "lanes", '"sixteen"', ["'params.lanes'", "'sixteen'", "whole number"]),
]


@pytest.mark.parametrize("scene,field,value,words", BAD_PARAMS,
                         ids=[f"{s}.{f}={v}" for s, f, v, _ in BAD_PARAMS])
def test_bad_parameter_is_one_line_and_changes_nothing(catalogue_restored, scene, field, value, words):
    project = catalogue_restored
    before = snapshot(project)
    set_param(project, scene, field, value)
    proc = run(project, "build", "--only", scene)
    assert proc.returncode == 2, proc.stdout + proc.stderr
    line = one_line_error(proc.stderr, "catalogue.yml", f"scene {scene!r}", *words)
    assert line.startswith("error: catalogue.yml: scene"), line
    assert "render" not in proc.stdout  # no model ran
    assert_unchanged(project, before)


def test_check_reports_every_bad_value_at_once(catalogue_restored):
    project = catalogue_restored
    before = snapshot(project)
    set_param(project, "probe", "lanes", '"sixteen"')
    set_param(project, "probe", "bandwidth", "0")
    set_param(project, "probe2", "window", ".inf")
    set_param(project, "probe2", "colour", "3")
    set_param(project, "probe2", "bandwidth", None)
    proc = run(project, "check")
    assert proc.returncode == 2
    expected = (["'probe'", "'params.lanes'", "'sixteen'"], ["'probe'", "'params.bandwidth'", "0"],
                ["'probe2'", "'params.window'", "inf"], ["'probe2'", "'params.colour'", "no parameter"],
                ["'probe2'", "'params.bandwidth'", "missing"])
    for words in expected:
        one_line_error(proc.stderr, "catalogue.yml", *words)
    assert sum(ln.startswith(("error: catalogue.yml", "catalogue.yml")) for ln in proc.stderr.splitlines()) \
        == len(expected)  # one line each, no duplicates
    assert_unchanged(project, before)


def test_non_utf8_catalogue_is_a_clean_error(catalogue_restored):
    project = catalogue_restored
    before = snapshot(project)
    cat = project / "catalogue.yml"
    cat.write_bytes(cat.read_bytes().replace(b"Probe scene probe2", b"Probe scene \xff\xfe", 1))
    for cmd in (["check"], ["build", "--only", "probe"]):
        proc = run(project, *cmd)
        assert proc.returncode == 2
        one_line_error(proc.stderr, "catalogue.yml", "not UTF-8")
    assert_unchanged(project, before)


def test_an_undeclared_model_is_refused_before_anything_runs(catalogue_restored):
    """A model without @model declarations cannot have its parameters checked: refused at load."""
    project = catalogue_restored
    before = snapshot(project)
    cat = project / "catalogue.yml"
    cat.write_text(cat.read_text() + LEGACY_ENTRY)
    proc = run(project, "build", "--only", "probe-legacy")
    assert proc.returncode == 2
    one_line_error(proc.stderr, "scene 'probe-legacy'", "models.probe_legacy:legacy", "not declared with @model")
    assert_unchanged(project, before)


@pytest.mark.parametrize("scene,value,words", [
    ("probe", "1", ["probe: compute:", "table row 1", "'rate'", "nan"]),  # declared: Exhibit checks itself
])
def test_nan_in_model_output_names_scene_key_and_row(catalogue_restored, scene, value, words):
    project = catalogue_restored
    before = snapshot(project)
    set_param(project, scene, "nan_at", value)
    proc = run(project, "build", "--only", scene)
    assert proc.returncode == 1
    one_line_error(proc.stdout, "error: " + words[0], *words[1:])
    assert "Out of range float" not in proc.stdout
    assert "site/ kept as it was" in proc.stdout
    assert_unchanged(project, before)


def test_real_catalogue_loads():
    proc = subprocess.run([sys.executable, "-m", "pipeline", "check"], cwd=ROOT,
                          capture_output=True, text=True)
    assert proc.returncode == 0, proc.stderr
    assert "ok" in proc.stdout


# --- a dead or hung worker ------------------------------------------------------------
def start_paused(project: Path, stage: str, scene: str, *args: str, sleep: float = 300,
                 timeout_env: str | None = None) -> tuple[subprocess.Popen, Path]:
    pidfile = project / f"{stage}.pid"
    env = {**os.environ, "NO_MKDOCS_2_WARNING": "1", "W06_PROBE_PAUSE": f"{stage}:{scene}",
           "W06_PROBE_PIDFILE": str(pidfile), "W06_PROBE_SLEEP": str(sleep)}
    if timeout_env:
        env["W06_TASK_TIMEOUT"] = timeout_env
    proc = subprocess.Popen([sys.executable, "-m", "pipeline", "build", *args], cwd=project, env=env,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    return proc, pidfile


def wait_for(pidfile: Path, proc: subprocess.Popen, limit: float = 300) -> int:
    deadline = time.time() + limit
    while not pidfile.exists():
        assert proc.poll() is None, proc.communicate()
        assert time.time() < deadline, "the probe never reached its pause"
        time.sleep(0.05)
    time.sleep(0.1)
    return int(pidfile.read_text())


# kill points: a pool worker SIGKILLed in the middle of each stage of one scene
KILL_POINTS = ["compute", "figures", "media"]


@pytest.mark.parametrize("stage", KILL_POINTS)
def test_worker_killed_mid_task_publishes_nothing_mixed(scratch, stage):
    project = scratch
    before = snapshot(project)
    set_param(project, "probe", "lanes", "5")  # every probe task must run again
    set_param(project, "probe2", "lanes", "4")
    # one worker: probe2's tasks are queued behind the killed one and must still run
    proc, pidfile = start_paused(project, stage, "probe", "--only", "probe", "probe2", "-j", "1")
    os.kill(wait_for(pidfile, proc), signal.SIGKILL)  # as an out-of-memory kill would
    out, err = proc.communicate(timeout=600)
    assert proc.returncode == 1, out + err
    line = one_line_error(out, "error: probe:", f"{stage}:", "worker died (signal 9, maybe out of memory)")
    assert "BrokenProcessPool" not in out + err, line
    statuses = dict(re.findall(r"^(\S+/probe2?)\s+(\w+)\s", out, re.M))
    assert statuses["data/probe2"] == "built"  # the pool restarted for the tasks that never ran
    assert statuses["figures/probe2"] == "built" and statuses["media/preview/probe2"] == "built"
    assert "site/ kept as it was" in out and "probe" in out
    assert tree_digest(project / "site") == before[0], "a page was published from a mixed set"

    # later builds of other scenes do not publish the mixed scene either
    again = run(project, "build", "--only", "probe2")
    if stage != "compute":  # new data recorded next to old figures or video: nothing is published
        assert again.returncode == 1
        one_line_error(again.stdout, "scene 'probe'", "drawn from other data")
        assert tree_digest(project / "site") == before[0]
    else:  # the catalogue says lanes 5, the recorded data is still the whole old build (lanes 3)
        assert again.returncode == 0, again.stdout[-3000:]
        one_line_error(again.stdout, "scene 'probe'", "inputs changed", "params changed")
        page = "scenes/probe/index.html"
        assert tree_digest(project / "site")[page] == before[0][page], "probe's page said something new"


def test_the_build_after_a_kill_publishes_a_consistent_site(scratch):
    project = scratch
    set_param(project, "probe", "lanes", "6")
    proc, pidfile = start_paused(project, "media", "probe", "--only", "probe")
    os.kill(wait_for(pidfile, proc), signal.SIGKILL)
    proc.communicate(timeout=600)
    assert proc.returncode == 1
    done = run(project, "build", "--only", "probe")
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-3000:]
    page = (project / "site" / "scenes" / "probe" / "index.html").read_text()
    assert "<video" in page


def test_hung_task_is_killed_at_its_timeout(scratch):
    project = scratch
    before = snapshot(project)
    set_param(project, "probe", "lanes", "7")
    t0 = time.time()
    proc, pidfile = start_paused(project, "compute", "probe", "--only", "probe", "--timeout", "30")
    out, err = proc.communicate(timeout=300)
    elapsed = time.time() - t0
    assert proc.returncode == 1, out + err
    one_line_error(out, "error: probe: compute:", "timed out after 30s", "killed")
    pid = int(pidfile.read_text())
    assert not Path(f"/proc/{pid}").exists() or "zombie" in Path(f"/proc/{pid}/status").read_text().lower()
    assert elapsed < 200
    assert_unchanged(project, before)


def test_timeout_from_the_environment(scratch):
    project = scratch
    before = snapshot(project)
    set_param(project, "probe", "lanes", "7")
    proc, _ = start_paused(project, "figures", "probe", "--only", "probe", timeout_env="20")
    out, err = proc.communicate(timeout=300)
    assert proc.returncode == 1, out + err
    one_line_error(out, "error: probe: figures:", "timed out after 20s")
    assert tree_digest(project / "site") == before[0]


def test_help_states_the_timeout_rule():
    proc = subprocess.run([sys.executable, "-m", "pipeline", "build", "--help"], cwd=ROOT,
                          capture_output=True, text=True)
    text = " ".join(proc.stdout.split())
    assert "max(600 s, 10 x its recorded cost)" in text and "max(1800 s" in text
    assert "W06_TASK_TIMEOUT" in proc.stdout


# --- the record of what was built ------------------------------------------------------
@pytest.mark.parametrize("damage", ["truncated", "not-json", "old-version", "bad-entry"])
def test_damaged_manifest_is_an_error_and_nothing_is_pruned(scratch, damage):
    project = scratch
    mpath = project / "build" / "manifest.json"
    text = mpath.read_text()
    mpath.write_text({"truncated": text[: len(text) // 2], "not-json": "\x00\x00",
                      "old-version": text.replace('"version": 1', '"version": 0'),
                      "bad-entry": text.replace('"key": ', '"kee": ', 1)}[damage])
    before = snapshot(project)
    outputs_before = {k: v for k, v in tree_digest(project / "build").items() if k != ".lock"}
    proc = run(project, "build", "--only", "probe")
    assert proc.returncode == 2, proc.stdout + proc.stderr
    line = one_line_error(proc.stderr, "build/manifest.json", "rm build/manifest.json")
    assert "nothing was built or pruned" in line
    assert "pruned" not in proc.stdout
    assert_unchanged(project, before)
    assert {k: v for k, v in tree_digest(project / "build").items() if k != ".lock"} == outputs_before


def test_output_changed_on_disk_is_not_published(scratch):
    project = scratch
    before = snapshot(project)
    vtt = project / "build" / "media" / "preview" / "probe.vtt"
    vtt.write_text(vtt.read_text() + "\nNOTE half of a newer render\n")
    # mkdocs on its own (mkdocs serve, a deploy job) refuses too
    mk = subprocess.run([sys.executable, "-m", "mkdocs", "build", "--site-dir", "build/other-site"],
                        cwd=project, capture_output=True, text=True,
                        env={**os.environ, "NO_MKDOCS_2_WARNING": "1"})
    assert mk.returncode != 0 and "build/media/preview/probe.vtt" in mk.stdout + mk.stderr
    proc = run(project, "build", "--only", "probe2")  # does not rebuild probe
    assert proc.returncode == 1
    one_line_error(proc.stdout, "build/media/preview/probe.vtt", "bytes differ")
    assert_unchanged(project, before)
    fixed = run(project, "build", "--only", "probe")  # the way out: rebuild it
    assert fixed.returncode == 0, fixed.stdout[-2000:]
    assert "output changed on disk: build/media/preview/probe.vtt" in fixed.stdout


def test_second_build_is_refused_while_one_runs(scratch):
    project = scratch
    before = snapshot(project)
    stray = project / "build" / "data" / ".tmp-of-the-running-build"
    stray.write_text("in progress")
    lock = project / "build" / ".lock"
    with open(lock, "a+") as f:
        fcntl.flock(f, fcntl.LOCK_EX)  # as the running build holds it
        proc = run(project, "build", "--only", "probe")
    assert proc.returncode == 3
    one_line_error(proc.stderr, "another build is running", "build/.lock")
    assert stray.exists(), "the second build swept the first one's temporaries"
    assert_unchanged(project, before)


DISK_FULL = '''\
import errno, sys
from pathlib import Path
from pipeline.engine import atomic
real = atomic.write_bytes
def full(path, data):
    if Path(path).name in ("manifest.json", "report.json"):
        raise OSError(errno.ENOSPC, "No space left on device", str(path))
    return real(path, data)
atomic.write_bytes = full
from pipeline.__main__ import main
sys.exit(main(sys.argv[1:]))
'''


def test_disk_full_is_one_line_and_keeps_the_site(scratch):
    project = scratch
    before = snapshot(project)
    set_param(project, "probe", "lanes", "8")
    (project / "diskfull.py").write_text(DISK_FULL)
    proc = subprocess.run([sys.executable, "diskfull.py", "build", "--only", "probe"], cwd=project,
                          capture_output=True, text=True, env={**os.environ, "NO_MKDOCS_2_WARNING": "1"})
    assert proc.returncode == 1, proc.stdout + proc.stderr
    assert "Traceback" not in proc.stdout + proc.stderr
    one_line_error(proc.stdout, "error: no space left on device writing", "build/manifest.json")
    assert "tasks:" in proc.stdout  # the summary is still printed
    assert "site/ kept as it was" in proc.stdout
    assert_unchanged(project, before)


# --- atomic writes -----------------------------------------------------------------------
def test_cross_device_move_leaks_no_temporary(tmp_path, monkeypatch):
    from pipeline.engine import atomic

    src, dst = tmp_path / "render.mp4", tmp_path / "out" / "scene.mp4"
    src.write_bytes(b"video")
    dst.parent.mkdir()
    dst.write_bytes(b"old video")
    real_replace = os.replace

    def no_rename_from_src(a, b):
        if Path(a) == src:
            raise OSError(18, "Invalid cross-device link")
        return real_replace(a, b)

    def copy_fails(a, b):
        Path(b).write_bytes(b"vi")
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(atomic.os, "replace", no_rename_from_src)
    monkeypatch.setattr(atomic.shutil, "copyfile", copy_fails)
    with pytest.raises(OSError):
        atomic.move_into_place(src, dst)
    assert sorted(p.name for p in dst.parent.iterdir()) == ["scene.mp4"]
    assert dst.read_bytes() == b"old video"
    monkeypatch.undo()
    monkeypatch.setattr(atomic.os, "replace", no_rename_from_src)
    assert atomic.move_into_place(src, dst) is True  # the copy path, when it works
    assert dst.read_bytes() == b"video" and not src.exists()
    assert sorted(p.name for p in dst.parent.iterdir()) == ["scene.mp4"]


def test_commit_changes_nothing_unless_every_output_is_staged(tmp_path, monkeypatch):
    from pipeline.engine import atomic

    a, b, video = tmp_path / "a.png", tmp_path / "b.vtt", tmp_path / "v.mp4"
    a.write_bytes(b"old a")
    b.write_bytes(b"old b")
    render = tmp_path / "render.mp4"
    render.write_bytes(b"new video")
    real = atomic._stage_move

    def boom(src, dst):
        raise OSError(28, "No space left on device", str(dst))

    monkeypatch.setattr(atomic, "_stage_move", boom)
    with pytest.raises(OSError):
        atomic.commit({a: b"new a", b: b"new b"}, moves={video: render})
    assert a.read_bytes() == b"old a" and b.read_bytes() == b"old b" and not video.exists()
    assert not list(tmp_path.glob(".tmp-*"))
    monkeypatch.setattr(atomic, "_stage_move", real)
    hashes = atomic.commit({a: b"new a", b: b"new b"}, moves={video: render})
    assert a.read_bytes() == b"new a" and video.read_bytes() == b"new video"
    assert hashes[video] == hashlib.sha256(b"new video").hexdigest()


def test_site_swap_never_leaves_no_site(tmp_path):
    from pipeline.engine import atomic

    new, live, old = tmp_path / "new", tmp_path / "site", tmp_path / "old"
    new.mkdir()
    (new / "index.html").write_text("new")
    live.mkdir()
    (live / "index.html").write_text("old")
    how = atomic.swap_dirs(new, live, old)
    assert (live / "index.html").read_text() == "new"
    assert (old / "index.html").read_text() == "old"
    assert not new.exists()
    if sys.platform.startswith("linux"):
        assert how == "exchange"  # one renameat2: site/ existed at every instant
