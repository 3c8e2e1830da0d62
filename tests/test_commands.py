"""Every command `make help` lists, run the way a maintainer or a speaker types it, in a scratch copy.

Internals can be right while the command a user types is broken (an argument the subcommand never
defines fails only when the command runs), so each target here runs through `make` itself and its
result is checked. The copies: `project` holds the sources and the Makefile (pipeline/engine/
project_copy.py, plus what make needs); `warm` also holds the working tree's build/ and site/ as
hard links (the build only ever replaces files, never writes them in place), the state a maintainer
has after `make`. The working tree's own build/ and site/ are never written.

make always runs with `-o .venv/.ok`: the copy's .venv is a link to the shared virtual environment,
which a test must never reinstall. The heavy targets (a real scene's presenter kit, an hd release,
the benchmark, the deploy check) are `-m heavy` (`make test-heavy`, not `make test`: an hour or more of
CPU); the suites themselves are collected only, `-m slow`. Each heavy one also has a quick check here that
the command gets as far as the build (the build lock held, it stops with status 3 and says so).
"""

from __future__ import annotations

import fcntl
import json
import os
import re
import shutil
import signal
import socket
import subprocess
import time
import urllib.request
from pathlib import Path

import pytest
from support import ROOT

from pipeline.engine.project_copy import copy_project

MAKE_FILES = ("Makefile", "requirements.lock", "pyproject.toml", "README.md", "tools", "tests")
NOT_COPIED = {".lock", "bench-work", "deploy-check", "bench.json"}  # and the build's own temporaries (.tmp-*)
SCENE = "mig-vs-timeslicing"  # the shortest preview render (7.4 s): the one-scene commands' scene
TIMEOUT = 1800

# every target `make help` lists, and the test that runs it as typed
COVERED = {
    "site": "test_make_noop_runs_no_mkdocs",
    "help": "test_help_readme_and_tests_name_the_same_targets",
    "serve": "test_make_serve_serves_the_pages",
    "scene": "test_make_scene_rebuilds_one_scene",
    "frame": "test_make_frame_writes_the_beat_png",
    "new": "test_make_new_scaffolds_a_scene_check_lists_what_it_misses",
    "check": "test_make_new_scaffolds_a_scene_check_lists_what_it_misses",
    "release": "test_make_release_one_scene_at_hd",
    "slides": "test_make_slides_makes_the_kit",
    "presenter": "test_heavy_commands_get_to_the_build",
    "test": "test_test_targets_select_their_tests",
    "test-fast": "test_test_targets_select_their_tests",
    "test-heavy": "test_test_targets_select_their_tests",
    "test-reliability": "test_test_targets_select_their_tests",
    "bench": "test_make_bench_writes_every_ratio",
    "deploy-check": "test_make_deploy_check_at_preview",
    "lighthouse": "test_make_lighthouse_without_npm_says_how_to_get_it",
    "browser": "test_make_browser_finds_chromium",
    "clean": "test_make_clean_and_distclean",
    "distclean": "test_make_clean_and_distclean",
}


def make(project: Path, *args: str, check: bool = True, timeout: float = TIMEOUT) -> subprocess.CompletedProcess:
    """`make ARGS` in `project`, as typed (plus -o .venv/.ok: never reinstall the shared venv)."""
    env = {k: v for k, v in os.environ.items() if not k.startswith(("MAKE", "PYTEST_"))}
    proc = subprocess.run(["make", "--no-print-directory", "-o", ".venv/.ok", *args], cwd=project, env=env,
                          capture_output=True, text=True, timeout=timeout)
    if check and proc.returncode != 0:
        raise AssertionError(f"make {' '.join(args)} failed ({proc.returncode}):\n"
                             f"{proc.stdout[-4000:]}\n{proc.stderr[-4000:]}")
    return proc


def scratch(dest: Path) -> Path:
    """The sources, the Makefile and its inputs, and .venv as a link to the shared environment."""
    copy_project(dest)
    for name in MAKE_FILES:
        src = ROOT / name
        if src.is_dir():
            shutil.copytree(src, dest / name, ignore=shutil.ignore_patterns("__pycache__", ".pytest_cache"))
        else:
            shutil.copy2(src, dest / name)
    (dest / ".venv").symlink_to((ROOT / ".venv").resolve())
    return dest


def link_build(dest: Path) -> None:
    """The working tree's build/ and site/ into `dest` as hard links (never written in place)."""
    if not (ROOT / "build" / "manifest.json").is_file() or not (ROOT / "site" / "index.html").is_file():
        pytest.skip("the working tree has no build: run `make` first")
    ignore = lambda folder, names: {n for n in names if n in NOT_COPIED or n.startswith(".tmp-")}  # noqa: E731
    shutil.copytree(ROOT / "build", dest / "build", copy_function=os.link, ignore=ignore)
    shutil.copytree(ROOT / "site", dest / "site", copy_function=os.link)


@pytest.fixture
def project(tmp_path) -> Path:
    return scratch(tmp_path / "w06")


@pytest.fixture(scope="module")
def warm(preview_site, tmp_path_factory) -> Path:
    """A copy in the state a maintainer has after `make`: the shared build (make's own command) linked in."""
    dest = scratch(tmp_path_factory.mktemp("warm") / "w06")
    link_build(dest)
    return dest


def help_targets() -> set[str]:
    out = make(ROOT, "help", timeout=60).stdout
    return set(re.findall(r"^  make (\S+) ", out, re.M)) - {"options:"}


def readme_targets() -> set[str]:
    """The targets in the README's Commands table (`make` alone is the site)."""
    text = (ROOT / "README.md").read_text()
    section = text.split("\n## Commands\n", 1)[1].split("\n## ", 1)[0]
    rows = re.findall(r"^\| `make( [a-z-]+)?[^`]*` \|", section, re.M)
    return {(r.strip() or "site") for r in rows}


def test_help_readme_and_tests_name_the_same_targets():
    assert help_targets() == set(COVERED)
    assert readme_targets() == set(COVERED)
    here = globals()
    missing = {t: f for t, f in COVERED.items() if f not in here}
    assert not missing, f"no test function for {missing}"


def test_readme_targets_catch_a_missing_row(monkeypatch):
    """The README check fails when a target's row is gone (a planted defect)."""
    text = (ROOT / "README.md").read_text()
    cut = re.sub(r"^\| `make lighthouse[^\n]*\n", "", text, flags=re.M)
    assert cut != text
    real = Path.read_text
    monkeypatch.setattr(Path, "read_text", lambda p, *a, **k: cut if p.name == "README.md" else real(p, *a, **k))
    assert "lighthouse" not in readme_targets()


def test_make_noop_runs_no_mkdocs(warm):
    """`make` after `make`: every task a cache hit and no mkdocs build, for any site."""
    out = make(warm).stdout
    assert re.search(r"\b0 built, \d+ cache hits, 0 failed", out), out[-2000:]
    assert "no mkdocs build" in out, out[-2000:]
    assert "site built in" not in out or re.search(r"site built in 0\.\d+s", out)


def test_make_scene_rebuilds_one_scene(warm):
    assert "usage: make scene S=<scene id>" in make(warm, "scene", check=False).stdout
    out = make(warm, "scene", f"S={SCENE}").stdout
    assert re.search(rf"hit +media/preview/{SCENE}\b", out) and "no mkdocs build" in out, out[-2000:]


def reaches_the_lock(project: Path, *args: str) -> subprocess.CompletedProcess:
    """`make ARGS` while another build holds `project`'s build lock."""
    (project / "build").mkdir(exist_ok=True)
    fd = os.open(project / "build" / ".lock", os.O_RDWR | os.O_CREAT, 0o644)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        return make(project, *args, check=False, timeout=300)
    finally:
        os.close(fd)


def stopped_at_the_lock(proc: subprocess.CompletedProcess) -> bool:
    return "another build is running" in proc.stderr and "Traceback" not in proc.stderr and proc.returncode == 2


HEAVY = ((), ("release",), ("release", f"S={SCENE}"), ("slides", f"S={SCENE}"), ("presenter",))


def test_heavy_commands_get_to_the_build(project):
    """`make`, `release`, `slides S=` and `presenter` parse their arguments, load the catalogue and
    reach the build: with another build holding the lock, each says so and stops (the CLI's status 3,
    make's 2); an argument the command never defined would end it with a traceback before that."""
    for args in HEAVY:
        proc = reaches_the_lock(project, *args)
        assert stopped_at_the_lock(proc), (args, proc.stderr[-2000:])


def test_heavy_commands_check_catches_an_undefined_argument(project):
    """The check above on a planted defect: the presenter command without its build defaults."""
    main = project / "pipeline" / "__main__.py"
    text = main.read_text()
    planted = re.sub(r"^ *pk\.set_defaults\(.*$", "", text, flags=re.M)
    assert planted != text
    main.write_text(planted)
    proc = reaches_the_lock(project, "slides", f"S={SCENE}")
    assert not stopped_at_the_lock(proc) and "AttributeError" in proc.stderr, proc.stderr[-2000:]


def test_make_frame_writes_the_beat_png(warm):
    assert "usage: make frame" in make(warm, "frame", f"S={SCENE}", check=False).stdout
    out = make(warm, "frame", f"S={SCENE}", "BEAT=1").stdout
    png = warm / "build" / "frames" / "preview" / f"{SCENE}-beat1.png"
    assert png.is_file() and png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n", out[-2000:]


def test_make_new_scaffolds_a_scene_check_lists_what_it_misses(project):
    assert "catalogue.yml:" in make(project, "check").stdout
    module = re.search(r"^  - id: (\S+)", (project / "catalogue.yml").read_text().split("\nmodules:", 1)[1], re.M)
    make(project, "new", "S=commands-probe", f"M={module.group(1)}")
    for rel in ("models/commands_probe.py", "figures/commands_probe.py", "scenes/commands_probe.py",
                "tests/test_commands_probe.py", "docs/scenes/commands-probe.md"):
        assert (project / rel).is_file(), rel
    proc = make(project, "check", check=False)
    assert proc.returncode != 0 and "'commands-probe' is not built yet" in proc.stderr, proc.stderr[-2000:]


def test_make_lighthouse_without_npm_says_how_to_get_it(project):
    proc = make(project, "lighthouse", "LIGHTHOUSE=/nonexistent/lighthouse", check=False, timeout=120)
    assert proc.returncode != 0
    assert "npm install lighthouse" in proc.stderr and "Traceback" not in proc.stderr, proc.stderr


def test_make_browser_finds_chromium(project):
    if shutil.which("chromium") is None:
        pytest.skip("no chromium here: make browser would install it with apt-get")
    proc = make(project, "browser", timeout=60)
    assert "installing" not in proc.stdout


def test_make_clean_and_distclean(project):
    for folder in ("build", "site"):
        (project / folder / "x").mkdir(parents=True)
    make(project, "clean", timeout=60)
    assert not (project / "build").exists() and not (project / "site").exists()
    venv = (project / ".venv").resolve()
    make(project, "distclean", timeout=60)
    assert not (project / ".venv").is_symlink() and venv.is_dir()  # the link went, never the environment


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.mark.slow
def test_make_serve_serves_the_pages(warm):
    port = _free_port()
    proc = subprocess.Popen(["make", "--no-print-directory", "-o", ".venv/.ok", "serve", f"PORT={port}"],
                            cwd=warm, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                            start_new_session=True)
    try:
        deadline, body = time.monotonic() + 900, None
        while time.monotonic() < deadline and proc.poll() is None and body is None:
            try:
                body = urllib.request.urlopen(f"http://127.0.0.1:{port}/", timeout=5).read().decode()
            except OSError:
                time.sleep(1)
        assert body is not None and "<html" in body.lower()
    finally:
        os.killpg(proc.pid, signal.SIGTERM)
        try:
            proc.wait(30)
        except subprocess.TimeoutExpired:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait()


@pytest.mark.heavy
def test_make_slides_makes_the_kit(warm):
    """`make slides S=<id>` on a real scene: the deck (HTML and PPTX), the 4k master and the overlay."""
    make(warm, "slides", f"S={SCENE}", timeout=4 * 3600)
    kit = warm / "build" / "presenter" / SCENE
    names = {p.name for p in kit.rglob("*") if p.is_file()}
    assert any(n.endswith(".html") for n in names) and any(n.endswith(".pptx") for n in names), names


@pytest.mark.heavy
def test_make_release_one_scene_at_hd(warm):
    out = make(warm, "release", f"S={SCENE}", timeout=4 * 3600).stdout
    assert (warm / "build" / "media" / "hd" / f"{SCENE}.mp4").is_file(), out[-2000:]
    assert (warm / "site" / "index.html").is_file()


@pytest.mark.heavy
def test_make_bench_writes_every_ratio(warm):
    out = make(warm, "bench", timeout=4 * 3600).stdout
    for goal in ("no-op make", "one-scene change", "edit-to-reload", "make frame"):
        assert goal in out, out[-3000:]
    assert (warm / "build" / "bench.json").is_file()


@pytest.mark.heavy
def test_make_deploy_check_at_preview(project):
    """The quick deploy check as typed: the preview site with one scene's kit; the release's dry run lists
    that kit's four heavy files and the pages' links to them pass the check."""
    out = make(project, "deploy-check", "PRESET=preview", f"KIT={SCENE}", timeout=8 * 3600).stdout
    assert (project / "build" / "deploy-check" / "pages.tar").is_file(), out[-3000:]
    listed = json.loads((project / "build" / "release" / "release.json").read_text())
    assert sorted(a["kind"] for a in listed["assets"]) == ["4k", "overlay", "pptx", "zip"], listed
    assert "every link site makes to a release file names an attached file" in out, out[-3000:]


@pytest.mark.slow
@pytest.mark.parametrize("target", ["test", "test-fast", "test-heavy", "test-reliability"])
def test_test_targets_select_their_tests(project, target):
    """The suites' targets, collected only (running them is the suite itself)."""
    env_opts = "PYTEST_ADDOPTS=--collect-only -q -p no:cacheprovider"
    proc = subprocess.run(["make", "--no-print-directory", "-o", ".venv/.ok", target],
                          cwd=project, env={**os.environ, "PYTEST_ADDOPTS": env_opts.split("=", 1)[1]},
                          capture_output=True, text=True, timeout=600)
    assert proc.returncode == 0, proc.stdout[-3000:] + proc.stderr[-3000:]
    count = int(re.search(r"(\d+) tests? collected", proc.stdout).group(1))
    assert count > 0
    if target == "test-reliability":
        assert "test_reliability.py" in proc.stdout and "test_build.py" not in proc.stdout


# --- the site's pages as a keyed task (pipeline/engine/site.py) ---------------------------------------
@pytest.fixture
def site_project(tmp_path, monkeypatch):
    """A scratch copy the site step works in, with mkdocs replaced by a stub that records each run."""
    from pipeline import paths
    from pipeline.engine import site

    root = tmp_path / "w06"
    copy_project(root)
    for name, value in (("ROOT", root), ("BUILD", root / "build"), ("SITE", root / "site"),
                        ("MANIFEST", root / "build" / "manifest.json")):
        monkeypatch.setattr(paths, name, value)
    (root / "build").mkdir()
    runs: list[str] = []

    def stub(dest, preset, strict, timeout, run_env, folder):
        dest.mkdir(parents=True, exist_ok=True)
        (dest / "index.html").write_text(f"<html>{folder or 'default'} {len(runs)}</html>")
        runs.append(folder)
        return True

    monkeypatch.setattr(site, "_mkdocs", stub)
    return root, runs


SITES = [("scenario/a", {"W06_SCENARIO": "a"}), ("scenario/b", {"W06_SCENARIO": "b"})]


def _publish(extra=SITES, env=None) -> None:
    from pipeline.engine.site import build_site

    assert build_site("preview", extra=extra, env=env or {"W06_SCENARIO": ""})


def test_site_unchanged_runs_no_mkdocs(site_project):
    root, runs = site_project
    _publish()
    assert runs == ["", "scenario/a", "scenario/b"]
    _publish()
    assert runs == ["", "scenario/a", "scenario/b"]  # nothing changed: no run


def test_site_rebuilds_only_what_changed(site_project, monkeypatch):
    root, runs = site_project
    _publish()
    default_page = root / "site" / "index.html"
    inode = default_page.stat().st_ino
    _publish([SITES[0], ("scenario/b", {"W06_SCENARIO": "b", "W06_EXTRA": "1"})])  # one site's environment
    assert runs[3:] == ["scenario/b"]
    assert default_page.stat().st_ino == inode and (root / "site" / "scenario" / "a" / "index.html").is_file()
    (root / "site" / "scenario" / "a" / "index.html").unlink()  # a published site damaged: rebuilt
    _publish()
    assert sorted(runs[4:]) == ["scenario/a", "scenario/b"]
    _publish(env={"W06_SCENARIO": "", "W06_EXTRA": "1"})  # the default site alone changed: the others kept
    assert runs[6:] == [""]
    assert all((root / "site" / "scenario" / sid / "index.html").is_file() for sid in "ab")
    _publish(extra=[SITES[0]])  # a scenario no longer published: built afresh, its folder gone
    assert runs[7:] == ["", "scenario/a"] and not (root / "site" / "scenario" / "b").exists()


@pytest.mark.parametrize("edit", ["page", "hook", "catalogue", "output"])
def test_site_key_covers_every_input(site_project, edit):
    """A page, a hook's import, the catalogue or a published output changed: every site is rebuilt."""
    import json

    root, runs = site_project
    _publish()
    if edit == "page":
        (root / "docs" / "index.md").write_text((root / "docs" / "index.md").read_text() + "\nmore\n")
    elif edit == "hook":
        p = root / "models" / "units.py"
        p.write_text(p.read_text() + "\n# edited\n")
    elif edit == "catalogue":
        (root / "catalogue.yml").write_text((root / "catalogue.yml").read_text() + "\n# edited\n")
    else:
        (root / "build" / "manifest.json").write_text(json.dumps(
            {"version": 1, "entries": {"data/x": {"outputs": {"build/data/x.json": "0" * 64}}}}))
    _publish()
    assert runs[3:] == ["", "scenario/a", "scenario/b"], edit


def test_bench_times_the_command_make_runs():
    """`make bench` times the build `make` runs: the same preset and scenarios."""
    from pipeline.devloop.bench import MAKE_BUILD

    recipe = re.search(r"^site:.*\n\t(.+)$", (ROOT / "Makefile").read_text(), re.M).group(1)
    assert recipe.startswith("$(BUILD) ") and " ".join(MAKE_BUILD[1:]) in recipe
    assert re.search(r"^BUILD +:= \$\(BIN\)/python -m pipeline build$", (ROOT / "Makefile").read_text(), re.M)


# --- a no-op's catalogue check: passed parameter checks remembered, never a failure ---------------------
def test_remembered_parameter_checks_never_hide_a_bad_value(tmp_path, monkeypatch):
    """The second load skips the model imports, yet a value the model rejects is still reported."""
    from pipeline import catalogue, paths

    monkeypatch.setattr(paths, "BUILD", tmp_path / "build")
    path = tmp_path / "catalogue.yml"
    text = catalogue.CATALOGUE.read_text()
    path.write_text(text)
    catalogue.load(path)
    assert (tmp_path / "build" / catalogue.PARAMS_CHECKED).is_file()
    imported = []
    monkeypatch.setattr(catalogue, "_check_params", lambda where, s: imported.append(s.id) or [])
    catalogue.load(path)
    assert imported == []  # every check remembered
    monkeypatch.undo()
    monkeypatch.setattr(paths, "BUILD", tmp_path / "build")
    assert "      ranks: 8\n" in text
    path.write_text(text.replace("      ranks: 8\n", "      ranks: -8\n", 1))
    with pytest.raises(catalogue.CatalogueError, match="ring-vs-tree.*ranks"):
        catalogue.load(path)


def test_remembered_parameter_check_keys_cover_the_model_sources(monkeypatch):
    from pipeline import catalogue
    from pipeline.engine import hashing

    scene = catalogue.load().scene("ring-vs-tree")
    key = catalogue._params_key(scene)
    real = hashing.source_hashes
    monkeypatch.setattr(hashing, "source_hashes", lambda m: {**real(m), "models/exhibit.py": "0" * 64})
    assert catalogue._params_key(scene) != key
