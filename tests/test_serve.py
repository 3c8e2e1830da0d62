"""`make serve` (python -m pipeline serve): an edit under a running server rebuilds exactly what
its cache keys say, through the build's plan and pool, then the pages reload; a failing task
leaves the served pages as they were.

One short-lived server on a free 127.0.0.1 port in a scratch copy of the project, two scenes
(the shortest renders), stopped at the end whatever happens. Every wait polls the server's
output with a hard deadline, so a hung server fails the test instead of hanging the suite.
"""

from __future__ import annotations

import os
import re
import signal
import socket
import subprocess
import sys
import threading
import time
import urllib.request
from pathlib import Path

import pytest

from pipeline.devloop.serve import relevant

EDITED = "capex-opex-tco"  # its model, models/capex_opex_tco.py, is read by no other scene; a cheap render
OTHER = "placement-tax"  # the cheapest scene to build whole (build/manifest.json, preview)
MODEL = "models/capex_opex_tco.py"
MODEL_EDIT = ("    ends = 2.0 * (1.0 + 1.0 / aggregation_oversubscription)\n",
              "    ends = 2.0 * (1.0 + 1.0 / aggregation_oversubscription) + 0.01\n")
SCENE = "scenes/capex_opex_tco.py"
SCENE_EDIT = ("    def construct(self) -> None:\n",
              "    def construct(self) -> None:\n        raise RuntimeError('boom from the test')\n")
STARTUP = 420.0  # s: the first build renders two animations on a loaded 2-core machine
REBUILD = 300.0


def scene_tasks(sid: str) -> set[str]:
    """A scene's preview tasks as the catalogue has them: data, figures, media, and its panel's probe if any."""
    from pipeline.catalogue import load

    scene = next(s for s in load().scenes if s.id == sid)
    return ({f"data/{sid}", f"figures/{sid}", f"media/preview/{sid}"}
            | ({f"explore/{sid}"} if scene.explore is not None else set()))


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Server:
    """The serve process and everything it printed, line by line, as it printed it."""

    def __init__(self, project: Path, port: int):
        env = {**os.environ, "NO_MKDOCS_2_WARNING": "1", "PYTHONUNBUFFERED": "1"}
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "pipeline", "serve", "--only", EDITED, OTHER, "-j", "2",
             "-a", f"127.0.0.1:{port}"],
            cwd=project, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
            start_new_session=True)
        self.lines: list[str] = []
        self.lock = threading.Lock()
        self.reader = threading.Thread(target=self._read, daemon=True)
        self.reader.start()

    def _read(self) -> None:
        for line in self.proc.stdout:
            with self.lock:
                self.lines.append(line.rstrip("\n"))

    def mark(self) -> int:
        with self.lock:
            return len(self.lines)

    def since(self, mark: int) -> list[str]:
        with self.lock:
            return self.lines[mark:]

    def wait_for(self, pattern: str, mark: int, timeout: float) -> str:
        rx = re.compile(pattern)
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            for line in self.since(mark):
                if rx.search(line):
                    return line
            if self.proc.poll() is not None:
                break
            time.sleep(0.1)
        state = "running" if self.proc.poll() is None else f"exited {self.proc.returncode}"
        raise AssertionError(f"no line matching {pattern!r} within {timeout:.0f}s (server {state}); "
                             "it printed:\n" + "\n".join(self.since(mark))[-6000:])

    def settle(self, quiet: float, timeout: float) -> None:
        """Wait until the server prints nothing for `quiet` seconds: mkdocs serve may rebuild and reload a
        second time for files the first rebuild wrote, and that late reload belongs to the step before."""
        deadline = time.monotonic() + timeout
        last, since = self.mark(), time.monotonic()
        while time.monotonic() < deadline:
            time.sleep(0.2)
            now = self.mark()
            if now != last:
                last, since = now, time.monotonic()
            elif time.monotonic() - since >= quiet:
                return
        raise AssertionError(f"the server kept printing for {timeout:.0f}s: " + "\n".join(self.since(0)[-20:]))

    def stop(self) -> None:
        if self.proc.poll() is None:
            self.proc.send_signal(signal.SIGTERM)
            try:
                self.proc.wait(30)
            except subprocess.TimeoutExpired:
                pass
        try:
            os.killpg(self.proc.pid, signal.SIGKILL)  # mkdocs serve and the workers too, whatever is left
        except ProcessLookupError:
            pass
        self.proc.wait(10)


def tasks(lines: list[str], status: str) -> set[str]:
    """Task ids on the build's progress lines with this status (hit | render | FAILED | done)."""
    rx = re.compile(rf"\] {status} +(\S+)")
    return {m.group(1) for line in lines if (m := rx.search(line))}


def get(url: str) -> str:
    with urllib.request.urlopen(url, timeout=30) as r:
        return r.read().decode()


@pytest.mark.slow  # two cold renders and three rebuilds under a live server: make test, not test-fast
def test_model_edit_under_serve_rebuilds_that_scene_only_and_a_failure_keeps_the_pages(project):
    port = free_port()
    base = f"http://127.0.0.1:{port}"
    server = Server(project, port)
    try:
        # first build, then mkdocs serve
        server.wait_for(r"^\[serve\] \d+ tasks: ", 0, STARTUP)
        server.wait_for(rf"Serving on http://127\.0\.0\.1:{port}/", 0, 120)
        first = server.since(0)
        assert tasks(first, "done") == scene_tasks(EDITED) | scene_tasks(OTHER), "\n".join(first)
        page = get(f"{base}/scenes/{EDITED}/")
        assert "<video" in page

        # a model edit that changes the numbers: that scene's data, figures and media, no other
        model = project / MODEL
        text = model.read_text()
        assert MODEL_EDIT[0] in text, f"the test's edit no longer applies to {MODEL}"
        mark = server.mark()
        model.write_text(text.replace(*MODEL_EDIT, 1))
        server.wait_for(r"Reloading browsers", mark, REBUILD)
        out = server.since(mark)
        expected = scene_tasks(EDITED)
        assert tasks(out, "render") == expected, "\n".join(out)
        assert tasks(out, "done") == expected
        assert tasks(out, "hit") == scene_tasks(OTHER)
        assert any(f"render  data/{EDITED}  (changed: {MODEL}" in line for line in out), "\n".join(out)
        assert any("[serve] changed: " + MODEL in line for line in out)
        assert "<video" in get(f"{base}/scenes/{EDITED}/")
        served = get(f"{base}/assets/data/{EDITED}.json")
        assert served == (project / "build" / "data" / f"{EDITED}.json").read_text()  # the new numbers

        # a failing render: its error in the terminal, the pages stay as they were (no reload). First let the
        # model edit's pages finish: a second reload of those pages (CI saw one) is not the failing edit's
        server.settle(quiet=5.0, timeout=REBUILD)
        scene = project / SCENE
        text = scene.read_text()
        assert SCENE_EDIT[0] in text
        mark = server.mark()
        scene.write_text(text.replace(*SCENE_EDIT, 1))
        server.wait_for(r"^\[serve\] pages not reloaded", mark, REBUILD)
        out = server.since(mark)
        assert tasks(out, "FAILED") == {f"media/preview/{EDITED}"}
        assert tasks(out, "render") == {f"media/preview/{EDITED}"}
        assert any("RuntimeError: boom from the test" in line for line in out), "\n".join(out)
        time.sleep(1.0)  # the one fixed wait: a reload, if one (wrongly) came, would show by now
        assert not any("Reloading browsers" in line for line in server.since(mark))
        assert get(f"{base}/assets/data/{EDITED}.json") == served
        assert server.proc.poll() is None, "the server must survive a failing task"
    finally:
        server.stop()
    assert server.proc.returncode is not None


@pytest.mark.parametrize("path, watched", [
    ("catalogue.yml", True), ("models/incast_spraying.py", True), ("scenes/style.py", True),
    ("figures/axes.py", True), ("design/palette.py", True), ("design/fonts/Inter-Regular.otf", True),
    ("pipeline/workers/compute.py", True),
    ("models/__pycache__/incast.cpython-311.pyc", False), ("models/.incast.py.swp", False),
    ("docs/index.md", False),  # mkdocs serve watches docs/ itself
    ("build/data/x.json", False), ("README.md", False), ("tests/test_incast_spraying.py", False),
])
def test_serve_watches_the_sources_the_pipeline_reads(path, watched):
    from pipeline import paths

    assert (relevant(str(paths.ROOT / path)) is not None) == watched
