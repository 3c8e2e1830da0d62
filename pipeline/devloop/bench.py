"""`make bench`: how fast is a cold build, a no-op rebuild, a one-scene change?

Runs in a scratch copy of the project (build/bench-work), so your own build/
and site/ are untouched, and writes build/bench.json plus a printed table:
cold build, no-op rebuild (median of 3), bare `mkdocs build` (median of 3)
and their ratio, a one-parameter change to one scene (which tasks re-ran),
and each exhibit's render seconds and output bytes.

The edit loop, on the same scene:

- edit-to-reload under `python -m pipeline serve`: a parameter of the scene changed in
  catalogue.yml, timed from the write to mkdocs' "Reloading browsers" (median of 3), against
  that scene's preview render (its media task in the one-scene rebuild above) plus a bare
  `mkdocs build`. The goal is a ratio of at most 1.1;
- `python -m pipeline frame` for a middle and the last beat (the whole command, imports
  included) against the scene's full preview render.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import signal
import socket
import statistics
import subprocess
import sys
import threading
import time
from pathlib import Path

import yaml

from pipeline import paths
from pipeline.catalogue import Catalogue
from pipeline.engine import atomic
from pipeline.engine.project_copy import COPY, copy_project


def _timed(cmd: list[str], cwd: Path) -> tuple[float, str]:
    env = {**os.environ, "NO_MKDOCS_2_WARNING": "1", "W06_PRESET": "preview"}
    t0 = time.perf_counter()
    proc = subprocess.run(cmd, cwd=cwd, env=env, capture_output=True, text=True)
    dt = time.perf_counter() - t0
    if proc.returncode != 0:
        raise SystemExit(f"bench: {' '.join(cmd)} failed:\n{proc.stdout}\n{proc.stderr}")
    return dt, proc.stdout


def _report(work: Path) -> dict:
    return json.loads((work / "build" / "report.json").read_text())


def _change_one_parameter(work: Path, scene_id: str) -> str:
    """Nudge one literal numeric parameter of one scene (+1 or x1.05), the first whose new value the
    model still accepts with every claim holding (a nudge can break a worded claim); say which."""
    from pipeline.catalogue import load
    from pipeline.workers.compute import ModelError, run_model

    path = work / "catalogue.yml"
    raw = yaml.safe_load(path.read_text())
    entry = next(s for s in raw["scenes"] if s["id"] == scene_id)
    scene = load(path).scene(scene_id)
    for k, v in entry["params"].items():
        if isinstance(v, bool) or not isinstance(v, (int, float)):
            continue
        new = v + 1 if isinstance(v, int) else v * 1.05
        try:
            run_model(scene_id, scene.model, {**scene.params, k: new})
        except (ModelError, ValueError):
            continue
        entry["params"][k] = new
        path.write_text(yaml.safe_dump(raw, sort_keys=False, allow_unicode=True))
        return f"{scene_id}: params.{k} {v} -> {new}"
    raise SystemExit(f"bench: scene {scene_id!r} has no literal numeric parameter that can change")


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _wait_line(lines: list[str], start: int, pattern: str, proc, timeout: float = 900.0) -> float:
    """Poll the server's output from line `start` for `pattern`; the monotonic time it was seen."""
    rx, deadline = re.compile(pattern), time.monotonic() + timeout
    while time.monotonic() < deadline:
        if any(rx.search(x) for x in lines[start:]):
            return time.monotonic()
        if proc.poll() is not None:
            break
        time.sleep(0.02)
    raise SystemExit(f"bench: serve printed no {pattern!r}:\n" + "\n".join(lines[start:])[-4000:])


def edit_to_reload(work: Path, scene_id: str, jobs: list[str], runs: int = 3) -> dict:
    """Parameter edits of one scene under a running serve: seconds from the write to the reload."""
    port = _free_port()
    env = {**os.environ, "NO_MKDOCS_2_WARNING": "1", "PYTHONUNBUFFERED": "1"}
    proc = subprocess.Popen([sys.executable, "-m", "pipeline", "serve", "-a", f"127.0.0.1:{port}", *jobs],
                            cwd=work, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                            start_new_session=True)
    lines: list[str] = []
    threading.Thread(target=lambda: lines.extend(x.rstrip("\n") for x in proc.stdout), daemon=True).start()
    times, renders, changes = [], [], []
    try:
        _wait_line(lines, 0, r"Serving on http://", proc)
        for _ in range(runs):
            time.sleep(1.0)  # let the watcher and the warm workers settle between edits
            mark = len(lines)
            t0 = time.monotonic()
            changes.append(_change_one_parameter(work, scene_id))
            times.append(_wait_line(lines, mark, r"Reloading browsers", proc) - t0)
            done = [float(m.group(1)) for x in lines[mark:]
                    if (m := re.search(rf"done +media/preview/{re.escape(scene_id)} +([\d.]+)s", x))]
            renders.append(done[0] if done else None)
    finally:
        if proc.poll() is None:
            proc.send_signal(signal.SIGTERM)
            try:
                proc.wait(30)
            except subprocess.TimeoutExpired:
                pass
        try:
            os.killpg(proc.pid, signal.SIGKILL)
        except ProcessLookupError:
            pass
        proc.wait()
    return {"runs_s": [round(t, 2) for t in times], "median_s": round(statistics.median(times), 2),
            "render_in_loop_s": renders, "changes": changes}


def frame_times(work: Path, scene_id: str, beats: int) -> list[dict]:
    """`python -m pipeline frame` for a middle and the last beat: whole-command seconds."""
    out = []
    for beat in sorted({max(1, beats // 2), beats}):
        cmd = [sys.executable, "-m", "pipeline", "frame", scene_id, str(beat)]
        seconds, stdout = _timed(cmd, work)
        still = re.search(r"still in ([\d.]+)s", stdout)
        out.append({"beat": beat, "command_s": round(seconds, 2),
                    "still_s": float(still.group(1)) if still else None})
    return out


def _exhibits(work: Path, report: dict) -> list[dict]:
    manifest = json.loads((work / "build" / "manifest.json").read_text())["entries"]
    out = []
    for t in report["tasks"]:
        outs = manifest.get(t["id"], {}).get("outputs", {})
        size = sum((work / rel).stat().st_size for rel in outs if (work / rel).is_file())
        out.append({"task": t["id"], "seconds": t["seconds"], "bytes": size})
    return out


def _prepare(work: Path, reuse: bool) -> bool:
    """The scratch project: an earlier run's build reused (say one that stopped half-way) with fresh
    sources over it, else a fresh copy. True when reused."""
    reuse = reuse and (work / "build" / "manifest.json").is_file()
    if not reuse:
        copy_project(work)
        return False
    for name in COPY:
        src, dst = paths.ROOT / name, work / name
        if src.is_dir():
            shutil.copytree(src, dst, dirs_exist_ok=True, ignore=shutil.ignore_patterns("__pycache__"))
        else:
            shutil.copy2(src, dst)
    return True


def _loop(work: Path, target: str, jobs_args: list[str], render: float, bare: float) -> tuple[dict, dict]:
    """The edit loop's measures on `target`: edit-to-reload under serve, and make frame against a full render."""
    print(f"bench: edit-to-reload under serve ({target}, 3 parameter edits)…", flush=True)
    loop = edit_to_reload(work, target, jobs_args)
    loop["scene"] = target
    loop["preview_render_s"] = render
    loop["bare_mkdocs_build_s"] = round(bare, 2)
    loop["ratio"] = round(loop["median_s"] / (render + bare), 2)
    # the same edit against the render it ran (same minute, same machine load): what the loop adds
    loop["ratio_to_same_run_render"] = [round(t / (r + bare), 2) if r else None
                                        for t, r in zip(loop["runs_s"], loop["render_in_loop_s"])]
    loop["goal"] = 1.1

    print(f"bench: make frame against a full render ({target})…", flush=True)
    n_beats = len(json.loads((work / "build" / "media" / "preview" / f"{target}.beats.json").read_text())["beats"])
    frames = {"scene": target, "full_preview_render_s": render, "stills": frame_times(work, target, n_beats)}
    for f in frames["stills"]:
        f["command_over_render"] = round(f["command_s"] / render, 2)
    return loop, frames


def main(catalogue: Catalogue, jobs: int | None, hd: bool = False, reuse: bool = False) -> int:
    work = paths.BUILD / "bench-work"
    reuse = _prepare(work, reuse)
    jobs_args = ["-j", str(jobs)] if jobs else []
    build = [sys.executable, "-m", "pipeline", "build", "--preset", "preview", *jobs_args]
    build_hd = [sys.executable, "-m", "pipeline", "build", "--preset", "hd", "--no-site", *jobs_args]
    mkdocs = [sys.executable, "-m", "mkdocs", "build", "--strict", "--quiet", "--site-dir", "build/bare-site"]

    if reuse:
        print("bench: reusing build/bench-work (no cold build)…", flush=True)
        _timed(build, work)
        cold, exhibits = None, []
    else:
        print("bench: cold build (renders every exhibit)…", flush=True)
        cold, _ = _timed(build, work)
        exhibits = _exhibits(work, _report(work))

    print("bench: no-op rebuilds and bare mkdocs builds, 3 each…", flush=True)
    noop_runs, noop_rendered = [], set()
    bare_runs = []
    for _ in range(3):
        noop_runs.append(_timed(build, work)[0])
        noop_rendered |= {t["id"] for t in _report(work)["tasks"] if t["status"] != "hit"}
        bare_runs.append(_timed(mkdocs, work)[0])
    noop, bare = statistics.median(noop_runs), statistics.median(bare_runs)

    target = catalogue.built[-1].id
    change = _change_one_parameter(work, target)
    print(f"bench: one-scene change ({change})…", flush=True)
    one, _ = _timed(build, work)
    one_report = {t["id"]: t for t in _report(work)["tasks"]}
    rerun = sorted(i for i, t in one_report.items() if t["status"] != "hit")
    render = one_report[f"media/preview/{target}"]["seconds"]

    loop, frames = _loop(work, target, jobs_args, render, bare)

    if hd:
        print("bench: hd (1080p60) render of every animation…", flush=True)
        _timed(build_hd, work)
        exhibits += [e for e in _exhibits(work, _report(work)) if e["task"].startswith("media/hd/")]

    result = {
        "cores": os.cpu_count(),
        "jobs": jobs or os.cpu_count(),
        "cold_build_s": round(cold, 2) if cold is not None else None,
        "noop_rebuild_s": round(noop, 2),
        "noop_rebuild_runs_s": [round(x, 2) for x in noop_runs],
        "noop_rendered": sorted(noop_rendered),
        "bare_mkdocs_build_s": round(bare, 2),
        "bare_mkdocs_runs_s": [round(x, 2) for x in bare_runs],
        "noop_over_bare_mkdocs": round(noop / bare, 2),
        "one_scene_change": change,
        "one_scene_change_s": round(one, 2),
        "one_scene_change_rerun": rerun,
        "edit_to_reload": loop,
        "frame": frames,
        "exhibits": exhibits,
    }
    atomic.write_text(paths.BENCH, json.dumps(result, indent=1) + "\n")
    shutil.rmtree(work, ignore_errors=True)
    _print(result, cold is not None)
    return 0


def _print(result: dict, cold: bool) -> None:
    """bench.json as the table the maintainer reads."""
    change, rerun, loop, frames = (result["one_scene_change"], result["one_scene_change_rerun"],
                                   result["edit_to_reload"], result["frame"])
    target, render, bare = loop["scene"], loop["preview_render_s"], loop["bare_mkdocs_build_s"]
    print(f"\n{'measure':34} {'seconds':>8}")
    for label, key in ((("cold build (preview)", "cold_build_s"),) if cold else ()) + (
                       ("no-op rebuild (median of 3)", "noop_rebuild_s"),
                       ("bare mkdocs build (median of 3)", "bare_mkdocs_build_s"),
                       ("one-scene change", "one_scene_change_s")):
        print(f"{label:34} {result[key]:8.2f}")
    print(f"{'no-op / bare mkdocs':34} {result['noop_over_bare_mkdocs']:7.2f}x")
    print(f"no-op rebuild rendered: {', '.join(result['noop_rendered']) or 'nothing'}")
    print(f"one-scene change ({change}) re-ran: {', '.join(rerun)}")
    print(f"edit-to-reload under serve ({target}): median {loop['median_s']:.2f}s of {loop['runs_s']}; "
          f"preview render {render:.2f}s + bare mkdocs {bare:.2f}s -> ratio {loop['ratio']:.2f} (goal <= 1.1); "
          f"against each edit's own render: {loop['ratio_to_same_run_render']}")
    for f in frames["stills"]:
        print(f"make frame {target} beat {f['beat']}: {f['command_s']:.2f}s for the command "
              f"(still {f['still_s']}s) vs {render:.2f}s full render: {f['command_over_render']:.2f}x")
    print(f"\n{'exhibit task (cold render)':40} {'seconds':>8} {'bytes':>10}")
    for e in result["exhibits"]:
        print(f"{e['task']:40} {e['seconds']:8.1f} {e['bytes']:10,}")
    print(f"\nwritten to {paths.rel(paths.BENCH)}")
