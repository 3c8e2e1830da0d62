"""Every render is reproducible: the same cache key gives the same bytes, in any process.

The cache trusts keys: a task whose key is unchanged is never run again, and shards rendered on
different machines are merged by key. So every task must give the same bytes for the same key in
any process, whatever that process's hash seed or allocation history. Proved here for every scene,
not a sample:

- `test_every_task_of_every_scene_gives_the_same_bytes_twice`: the run's shared preview build
  (`preview_site`, `make`'s own command: each worker process with its own random hash seed) against
  the whole catalogue built again at the same preset in a scratch copy, in other processes, with
  PYTHONHASHSEED 2 and large buffers at other alignments (ENVS[1]). Every data, figure, media and
  Explore panel task must have the same cache key and the same output hashes in both; the outputs
  on disk are compared byte for byte too. The shipped preset itself is checked, at the cost of one
  build, not two: a scene's cost is its construction (Manim's deep copies in Transform, SVG text),
  not its pixels, so two builds at a smaller preset cost more than one more at preview.
- `test_a_planted_nondeterministic_render_is_caught`: the same check on one scene into whose figure
  and animation nondeterminism is planted (lines drawn in a string set's iteration order, a dot at an
  unseeded random place) must name both tasks.
- the encoder on its own, cheaply: the RGBA-to-YUV conversion gives one picture whatever the frame
  buffer's alignment, and a clip on which x264's SIMD rate control gave a different file in every
  process (glibc's MALLOC_PERTURB_ varied: freed memory filled with a pattern, so a read of memory
  nobody wrote gives other values) gives one file through `scenes.style.reproducible`, as does the
  transparent VP9 (WebM).

The planted check builds its one scene twice at the `probe` preset (256x144, 3 fps: the whole
script, every beat, every animation and the encoder, on the fewest pixels and frames).
"""

from __future__ import annotations

import hashlib
import os
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import numpy as np
import pytest
from support import ROOT

from pipeline.engine.project_copy import copy_project

PRESET = "probe"
# The two builds' processes differ in hash seed and in where large buffers sit: in the second, glibc
# serves blocks up to 4 MB from the heap (16-byte aligned) rather than mmap (page-aligned), so a frame
# buffer's alignment differs. Not MALLOC_PERTURB_ here: filling every freed block nearly doubles the
# media tasks' time (203 s -> 373 s of task time); the encoder test below uses it, where it matters.
ENVS = ({"PYTHONHASHSEED": "1"}, {"PYTHONHASHSEED": "2", "MALLOC_MMAP_THRESHOLD_": "4194304"})


def build_both(root: Path, only: list[str] | None = None, plant=None) -> list[Path]:
    """Two scratch copies (`plant(project)` edits each the same way), built side by side; their build/ folders."""
    projects = []
    for k in range(len(ENVS)):
        project = root / f"build{k + 1}"
        copy_project(project)
        if plant:
            plant(project)
        projects.append(project)
    args = [sys.executable, "-m", "pipeline", "build", "--preset", PRESET, "--no-site", "-j", "1",
            *(["--only", *only] if only else [])]
    t0 = time.perf_counter()
    procs = []
    for project, extra in zip(projects, ENVS, strict=True):
        env = {k: v for k, v in os.environ.items() if k != "PYTHONHASHSEED" and not k.startswith("MALLOC_")}
        env.update({"NO_MKDOCS_2_WARNING": "1", **extra})
        procs.append(subprocess.Popen(args, cwd=project, env=env, stdout=subprocess.PIPE,
                                      stderr=subprocess.STDOUT, text=True))
    for project, proc in zip(projects, procs, strict=True):
        out, _ = proc.communicate(timeout=3600)  # a hang guard: two workers share the cores
        assert proc.returncode == 0, f"{project.name}: build failed ({proc.returncode}):\n{out[-4000:]}"
    print(f"two {PRESET} builds side by side: {time.perf_counter() - t0:.0f} s")
    return [p / "build" for p in projects]


def entries(build: Path) -> dict[str, dict]:
    import json

    return json.loads((build / "manifest.json").read_text())["entries"]


def differences(a: Path, b: Path, only: set[str] | None = None) -> list[str]:
    """What two builds of the same sources disagree on (of the tasks `only`, when given): tasks, cache
    keys, output hashes, output bytes."""
    ea, eb = entries(a), entries(b)
    if only is not None:
        ea, eb = ({t: e for t, e in x.items() if t in only} for x in (ea, eb))
    out = [f"{t}: built in one build only" for t in sorted(set(ea) ^ set(eb))]
    for t in sorted(set(ea) & set(eb)):
        if ea[t]["key"] != eb[t]["key"]:
            out.append(f"{t}: cache key differs")
        oa, ob = ea[t]["outputs"], eb[t]["outputs"]
        for path in sorted(set(oa) | set(ob)):
            if oa.get(path) != ob.get(path):
                out.append(f"{t}: {path} differs")
            elif (a.parent / path).read_bytes() != (b.parent / path).read_bytes():
                out.append(f"{t}: {path} differs on disk (the manifest says the same)")
    return out


def build_again(root: Path) -> Path:
    """The whole catalogue (the default scenario) at preview in a fresh scratch copy, in processes with
    ENVS[1]: its build/ folder."""
    project = root / "again"
    copy_project(project)
    env = {k: v for k, v in os.environ.items() if k != "PYTHONHASHSEED" and not k.startswith("MALLOC_")}
    env.update({"NO_MKDOCS_2_WARNING": "1", **ENVS[1]})
    t0 = time.perf_counter()
    # one worker: under `make test` the other pytest worker has the second core (the browser audit beside it)
    proc = subprocess.run([sys.executable, "-m", "pipeline", "build", "--preset", "preview", "--no-site", "-j", "1"],
                          cwd=project, env=env, capture_output=True, text=True, timeout=3600)
    assert proc.returncode == 0, f"the second build failed:\n{proc.stdout[-4000:]}{proc.stderr[-3000:]}"
    print(f"the second preview build: {time.perf_counter() - t0:.0f} s")
    return project / "build"


@pytest.mark.slow
def test_every_task_of_every_scene_gives_the_same_bytes_twice(preview_site, tmp_path):
    from pipeline.catalogue import load

    assert os.environ.get("PYTHONHASHSEED") != ENVS[1]["PYTHONHASHSEED"], "the two builds would share a hash seed"
    shared, again = preview_site.parent / "build", build_again(tmp_path)
    catalogue = load()
    expected = set()
    for s in catalogue.built:
        expected |= {f"data/{s.id}", f"figures/{s.id}", f"media/preview/{s.id}"}
        if s.explore:
            expected.add(f"explore/{s.id}")
    for build in (shared, again):
        missing = expected - set(entries(build))
        assert not missing, f"{build}: tasks not built, so not checked: {sorted(missing)}"
    assert len(catalogue.built) == 25  # every scene: the panels are counted from the catalogue above
    found = differences(shared, again, only=expected)
    assert not found, "the same sources built twice gave different bytes:\n  " + "\n  ".join(found)


# --- the planted nondeterminism: it must be caught -----------------------------------------------
PLANT_SCENE = "capex-opex-tco"  # cheap, and it has every kind of task (data, figures, panel, media)
WORDS = ("alpha", "beta", "gamma", "delta", "epsilon", "zeta")

FIGURE_PLANT = f'''

_planted_tornado = tornado


def tornado(data, theme):  # planted by tests/test_determinism.py: lines in a string set's order
    from matplotlib.lines import Line2D

    fig = _planted_tornado(data, theme)
    for i, word in enumerate(set({WORDS!r})):
        fig.add_artist(Line2D([0.02, 0.02 + 0.01 * len(word)], [0.02 + 0.01 * i] * 2, lw=0.5))
    return fig
'''

SCENE_PLANT = '''

import random as _planted_random

from manim import Dot as _PlantedDot

_planted_setup = GpuHourStack.setup


def _setup(self):  # planted by tests/test_determinism.py: a dot at an unseeded random place
    _planted_setup(self)
    self.add(_PlantedDot([_planted_random.uniform(-6, 6), _planted_random.uniform(-3, 3), 0], color=INK))


GpuHourStack.setup = _setup
'''


def plant(project: Path) -> None:
    with open(project / "figures" / "capex_opex_tco.py", "a", encoding="utf-8") as f:
        f.write(FIGURE_PLANT)
    with open(project / "scenes" / "capex_opex_tco.py", "a", encoding="utf-8") as f:
        f.write(SCENE_PLANT)


@pytest.mark.slow
def test_a_planted_nondeterministic_render_is_caught(tmp_path):
    from pipeline.catalogue import load

    assert load().scene(PLANT_SCENE).scene == "scenes.capex_opex_tco:GpuHourStack"
    orders = {subprocess.run([sys.executable, "-c", f"print(list(set({WORDS!r})))"], env={**os.environ, **env},
                             capture_output=True, text=True, check=True).stdout for env in ENVS}
    assert len(orders) == 2, "the two hash seeds iterate the planted set in the same order: pick other words"
    a, b = build_both(tmp_path, only=[PLANT_SCENE], plant=plant)
    found = differences(a, b)
    figure, video = f"build/figures/{PLANT_SCENE}-tornado", f"build/media/{PRESET}/{PLANT_SCENE}.mp4"
    assert any(d.startswith(f"figures/{PLANT_SCENE}: {figure}") for d in found), found
    assert any(d.startswith(f"media/{PRESET}/{PLANT_SCENE}: {video}") for d in found), found
    # and nothing else: the unplanted tasks of the same builds agree
    assert not [d for d in found if d.startswith(("data/", "explore/"))], found


# --- the encoder on its own -----------------------------------------------------------------------
def _at_offset(frame: np.ndarray, offset: int) -> np.ndarray:
    """A copy of `frame` whose first byte sits `offset` bytes past a 64-byte boundary."""
    buf = np.empty(frame.nbytes + 128, np.uint8)
    start = (-buf.ctypes.data) % 64 + offset
    out = buf[start:start + frame.nbytes].reshape(frame.shape)
    out[...] = frame
    return out


def _picture(frame) -> bytes:
    """The planes' pixels, without the rows' alignment padding (which no encoder reads)."""
    return b"".join(np.frombuffer(bytes(p), np.uint8).reshape(p.height, -1)[:, :p.width].tobytes()
                    for p in frame.planes)


@pytest.mark.parametrize("pix_fmt", ["yuv420p", "yuva420p"])
def test_rgba_to_yuv_does_not_depend_on_the_buffers_alignment(pix_fmt):
    import av

    rng = np.random.default_rng(0)
    frame = rng.integers(0, 256, (480, 854, 4), dtype=np.uint8)  # a row is 3416 bytes: not a multiple of 16
    if pix_fmt == "yuv420p":
        frame[..., 3] = 255
    pictures = set()
    for offset in range(16):
        src = _at_offset(frame, offset)
        # Manim's path (copied into PyAV's own buffer) and a zero-copy frame on the misaligned memory itself
        for make in (av.VideoFrame.from_ndarray, av.VideoFrame.from_numpy_buffer):
            made = make(src, format="rgba")
            pictures.add(hashlib.sha256(_picture(made.reformat(format=pix_fmt, threads=1))).hexdigest())
    assert len(pictures) == 1, f"{len(pictures)} different pictures from one frame at 16 alignments"


ENCODE = textwrap.dedent('''
    import hashlib, io, sys
    from fractions import Fraction
    import av, numpy as np
    sys.path.insert(0, sys.argv[2])
    from scenes.style import reproducible
    webm = sys.argv[1] == "webm"
    W, H = 864, 480
    yy, xx = np.mgrid[0:H, 0:W]
    out = io.BytesIO()
    container = av.open(out, mode="w", format=sys.argv[1])
    codec, pix_fmt = ("libvpx-vp9", "yuva420p") if webm else ("libx264", "yuv420p")
    stream = container.add_stream(codec, rate=Fraction(15), options={"crf": "23"})  # as Manim opens it
    stream.pix_fmt, stream.width, stream.height = pix_fmt, W, H
    reproducible(container, stream)
    for t in range(8 if webm else 12):
        a = np.empty((H, W, 4), np.uint8)
        a[..., 0] = (xx * 255 // W + 7 * t) % 256
        a[..., 1] = yy * 255 // H
        a[..., 2] = ((xx + yy + 13 * t) % 97) * 2
        a[..., 3] = ((xx // 8 + t) % 2) * 255 if webm else 255
        frame = av.VideoFrame.from_ndarray(a, format="rgba")
        frame.pts = t
        for packet in stream.encode(frame):
            container.mux(packet)
    for packet in stream.encode():
        container.mux(packet)
    container.close()
    print(hashlib.sha256(out.getvalue()).hexdigest())
''')


@pytest.mark.slow  # 15 s: six processes encoding
@pytest.mark.parametrize("fmt", ["mp4", "webm"])
def test_the_encoder_gives_one_file_in_any_heap(fmt):
    """A clip on which x264 (one thread, SIMD) gave a different file for each MALLOC_PERTURB_
    (3 of 3 differed), and the transparent VP9 in WebM, encoded in three processes."""
    digests = set()
    for k in (1, 2, 3):
        env = {**os.environ, "PYTHONHASHSEED": str(k), "MALLOC_PERTURB_": str(37 * k)}
        proc = subprocess.run([sys.executable, "-c", ENCODE, fmt, str(ROOT)], env=env, capture_output=True,
                              text=True, timeout=300)
        assert proc.returncode == 0, proc.stderr[-3000:]
        digests.add(proc.stdout.strip())
    assert len(digests) == 1, f"{fmt}: {len(digests)} different files from the same frames in 3 processes"
