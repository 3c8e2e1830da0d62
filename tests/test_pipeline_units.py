"""Pipeline building blocks: import closures, atomic writes, reasons, captions."""

from __future__ import annotations

import os

import pytest

from pipeline.engine import atomic, hashing
from pipeline.engine.registry import why
from pipeline.workers import captions


def test_closure_follows_imports_transitively():
    files = {str(p.relative_to(hashing.ROOT)) for p in hashing.closure("figures.theme")}
    # figures.theme imports design.palette: a palette change must reach every figure
    assert {"figures/theme.py", "figures/__init__.py", "design/palette.py", "design/__init__.py"} <= files
    assert "scenes/style.py" not in files  # figures do not depend on the Manim style


def test_stage_closures_keep_drawing_code_out_of_model_keys():
    compute = {str(p.relative_to(hashing.ROOT)) for p in hashing.closure("pipeline.workers.compute")}
    media = {str(p.relative_to(hashing.ROOT)) for p in hashing.closure("pipeline.workers.media")}
    assert {"pipeline/workers/compute.py", "pipeline/engine/atomic.py", "pipeline/jsonio.py"} <= compute
    # a colour tweak must not re-run models, nor a figure-theme tweak re-render videos
    assert not any(f.startswith(("scenes/", "figures/")) for f in compute)
    assert "pipeline/workers/captions.py" in media and "figures/theme.py" not in media


def test_a_task_key_covers_its_worker_not_the_engine_or_the_stage_declarations():
    """Editing the engine, a stage's declaration or the site side re-renders nothing: only what a
    worker imports is in a key."""
    from pipeline.engine import registry

    for st in registry.stages():
        files = {str(p.relative_to(hashing.ROOT)) for p in hashing.closure(registry.module_of(st.WORKER))}
        assert not any(f.startswith("pipeline/stages/") for f in files), (st.KIND, files)
        engine = {f for f in files if f.startswith("pipeline/engine/")}
        assert engine <= {"pipeline/engine/__init__.py", "pipeline/engine/atomic.py"}, (st.KIND, engine)
        assert not {"pipeline/catalogue.py", "pipeline/scenarios.py", "pipeline/macros.py"} & files, st.KIND


def test_closure_rejects_modules_outside_the_project():
    with pytest.raises(ModuleNotFoundError):
        hashing.closure("numpy")


def test_write_bytes_skips_identical_content(tmp_path):
    p = tmp_path / "a" / "out.json"
    assert atomic.write_bytes(p, b"one") is True
    os.utime(p, ns=(1, 1))
    assert atomic.write_bytes(p, b"one") is False
    assert p.stat().st_mtime_ns == 1  # untouched
    assert atomic.write_bytes(p, b"two") is True
    assert p.read_bytes() == b"two"


def test_interrupted_write_keeps_the_old_file_and_no_temporary(tmp_path, monkeypatch):
    p = tmp_path / "out.json"
    atomic.write_bytes(p, b"old")

    def crash(src, dst):
        raise KeyboardInterrupt  # as if the build were killed between write and rename

    monkeypatch.setattr(atomic.os, "replace", crash)
    with pytest.raises(KeyboardInterrupt):
        atomic.write_bytes(p, b"new content")
    assert p.read_bytes() == b"old"
    assert [q.name for q in tmp_path.iterdir()] == ["out.json"]


def test_sweep_removes_leftover_temporaries(tmp_path):
    (tmp_path / "media").mkdir()
    (tmp_path / "media" / f"{atomic.TMP_PREFIX}abc").write_bytes(b"half a video")
    (tmp_path / "media" / "keep.mp4").write_bytes(b"video")
    assert atomic.sweep_temporaries(tmp_path) == 1
    assert [q.name for q in (tmp_path / "media").iterdir()] == ["keep.mp4"]


def test_why_names_the_changed_file_and_part():
    old = {"sources": {"scenes/a.py": "1", "scenes/style.py": "2"}, "data": "x", "preset": {"name": "preview"}}
    new = {"sources": {"scenes/a.py": "1", "scenes/style.py": "3"}, "data": "y", "preset": {"name": "preview"}}
    reason = why(old, new)
    assert "scenes/style.py" in reason and "data changed" in reason
    assert "scenes/a.py" not in reason and "preset" not in reason


def test_webvtt_from_beats():
    vtt = captions.webvtt([{"start": 0, "end": 2.5, "caption": "Ring: 14 steps"},
                           {"start": 2.5, "end": 61.25, "caption": "Tree"}])
    assert vtt.startswith("WEBVTT\n")
    assert "00:00:00.000 --> 00:00:02.500\nRing: 14 steps" in vtt
    assert "00:00:02.500 --> 00:01:01.250\nTree" in vtt
    with pytest.raises(ValueError):
        captions.webvtt([{"start": 3, "end": 3, "caption": "empty"}])


def test_import_scan_reads_every_form(tmp_path, monkeypatch):
    pkg = tmp_path / "scenes"
    pkg.mkdir()
    src = pkg / "demo.py"
    src.write_text(
        "import numpy as np, models.units\n"
        "from . import palette\n"
        "from scenes.style import (\n    gpu,\n    link as wire,\n)\n"
        "def f():\n    from figures.theme import themed  # a lazy import still counts\n"
    )
    monkeypatch.setattr(hashing, "ROOT", tmp_path)
    names = hashing._read_imports(src)
    assert {"numpy", "models.units", "scenes", "scenes.palette", "scenes.style",
            "scenes.style.gpu", "scenes.style.link", "figures.theme"} <= names


def test_a_task_records_its_cpu_seconds_in_the_manifest_and_the_report(tmp_path):
    """The pool measures each task's CPU (the worker process's, every thread): what the release and kit
    benchmarks compare. A task that burns CPU records at least most of its wall time as CPU, one that
    sleeps records next to none."""
    from pipeline.engine import pool
    from pipeline.engine.manifest import Manifest
    from pipeline.engine.report import Outcome, Report

    _, wall, cpu = pool._run("hashlib:pbkdf2_hmac", ("sha256", b"w06", b"salt", 300_000))
    assert cpu > 0.02 and cpu >= 0.5 * wall, (wall, cpu)
    _, wall, idle = pool._run("time:sleep", (0.2,))
    assert wall >= 0.2 and idle < 0.05, (wall, idle)
    manifest = Manifest(tmp_path / "manifest.json")
    manifest.record("media/hd/x", "k", {}, {}, wall, cpu)
    assert manifest.get("media/hd/x")["cpu_seconds"] == round(cpu, 3)
    report = Report("hd")
    report.add(Outcome("media/hd/x", "built", "never built", wall, cpu=cpu))
    report.add(Outcome("data/x", "hit"))
    tasks = {t["id"]: t for t in report.as_dict()["tasks"]}
    assert tasks["media/hd/x"]["cpu_seconds"] == round(cpu, 3) and "cpu_seconds" not in tasks["data/x"]


def test_a_render_never_built_is_guessed_from_its_measured_rate_and_the_scenes_video_length():
    """make slides' ETA: the kit's renders carry measured wall seconds per second of video (RATE); with the
    scene's video length known the first guess is that product, else the pixel-scaled COST."""
    from pipeline.engine import presets, registry
    from pipeline.stages import media, overlay

    for st, name in ((media, "hd"), (media, "4k"), (overlay, "hd")):
        rate = st.RATE[name]
        assert 0.1 < rate < 100, (st.KIND, name, rate)
        preset = {"name": name, **presets.PRESETS[name]}
        assert registry.first_cost(st.KIND, preset, 30.0) == pytest.approx(30.0 * rate)
        assert registry.first_cost(st.KIND, preset, None) == registry.first_cost(st.KIND, preset)
    assert media.RATE["4k"] > media.RATE["hd"]  # four times the pixels
