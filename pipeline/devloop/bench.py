"""`make bench`: what `make` costs a maintainer, each measure printed against its goal.

`make bench` runs after `make` (the Makefile's prerequisite) and measures in a scratch copy
(build/bench-work) holding the working tree's sources and, as hard links, its build/ and site/: the
tree state a maintainer has after `make`, so the working tree is never touched. Every build is
the command `make` runs (MAKE_BUILD: the preview preset and every scenario). Without a build to
copy, the copy is built cold first and that time is reported, with each exhibit's render seconds
and bytes. Written to build/bench.json and printed as a table:

- no-op `make` (median of 3, wall and CPU seconds): goal NOOP_GOAL seconds, no mkdocs run;
- a bare `mkdocs build` of each site (the default's median of 3; each scenario's once);
- a one-parameter change to one scene: goal at most CHANGE_GOAL x (the tasks it re-ran + one bare
  mkdocs build per site it rebuilt);
- edit-to-reload under `python -m pipeline serve` on the same scene: a parameter changed in
  catalogue.yml, timed from the write to mkdocs' "Reloading browsers", each edit against its own
  preview render (the one serve ran for it) plus a bare `mkdocs build`; the median of the 3 ratios:
  goal at most CHANGE_GOAL. A render's time varies from edit to edit by more than the goal's 10%,
  so dividing one edit's reload by another run's render would measure that noise, not the loop;
- `python -m pipeline frame` (the whole command, imports included) for beat 1 and a middle beat
  of that scene and of the scene with the longest render, against the scene's full preview
  render: goal at most FRAME_GOAL.
"""

from __future__ import annotations

import json
import os
import re
import resource
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
from pipeline.engine.project_copy import copy_project

MAKE_BUILD = ("build", "--preset", "preview", "--scenario", "all")  # the Makefile's `site` recipe
NOOP_GOAL = 3.0  # seconds for a no-op `make` on the 2-core machine
CHANGE_GOAL = 1.1  # x what a change must cost: its tasks plus one bare mkdocs build per site rebuilt
FRAME_GOAL = 0.5  # x the scene's full render: a still of an early beat must cost well under the video
NOT_COPIED = {".lock", "bench-work", "deploy-check", "bench.json"}  # nor the build's temporaries (.tmp-*)


def _cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def _timed(cmd: list[str], cwd: Path, env: dict | None = None) -> tuple[float, str, float]:
    """Run `cmd`: its wall seconds, its output and the CPU seconds it and its children used."""
    env = {**os.environ, "NO_MKDOCS_2_WARNING": "1", "W06_PRESET": "preview", **(env or {})}
    cpu0, t0 = _cpu(), time.perf_counter()
    proc = subprocess.run(cmd, cwd=cwd, env=env, capture_output=True, text=True)
    dt, cpu = time.perf_counter() - t0, _cpu() - cpu0
    if proc.returncode != 0:
        raise SystemExit(f"bench: {' '.join(cmd)} failed:\n{proc.stdout}\n{proc.stderr}")
    return dt, proc.stdout, cpu


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
    """`python -m pipeline frame` for beat 1 and a middle beat: whole-command seconds."""
    out = []
    for beat in sorted({1, max(1, beats // 2)}):
        cmd = [sys.executable, "-m", "pipeline", "frame", scene_id, str(beat)]
        seconds, stdout, _ = _timed(cmd, work)
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


def _prepare(work: Path) -> bool:
    """The scratch project: the sources, and the working tree's build/ and site/ as hard links (the
    build replaces files, never writes them in place). False when there is no build to copy."""
    copy_project(work)
    if not (paths.MANIFEST.is_file() and (paths.SITE / "index.html").is_file()):
        return False
    ignore = lambda folder, names: {n for n in names if n in NOT_COPIED or n.startswith(atomic.TMP_PREFIX)}  # noqa: E731
    shutil.copytree(paths.BUILD, work / "build", copy_function=os.link, ignore=ignore)
    shutil.copytree(paths.SITE, work / "site", copy_function=os.link)
    return True


def _sites(catalogue: Catalogue) -> list[tuple[str, dict]]:
    """(folder, environment) of each site `make` publishes: the default, then each other scenario."""
    from pipeline.scenarios import ENV, ROOT_DIR

    others = [s.id for s in catalogue.scenarios if s.id != catalogue.default_scenario]
    return [("", {ENV: ""}), *[(f"{ROOT_DIR}/{sid}", {ENV: sid}) for sid in others]]


def bare_mkdocs(work: Path, sites: list[tuple[str, dict]]) -> dict[str, list[float]]:
    """A bare `mkdocs build` of each site: the default's three times, each scenario's once."""
    out = {}
    for folder, env in sites:
        cmd = [sys.executable, "-m", "mkdocs", "build", "--strict", "--quiet", "--site-dir",
               f"build/bare-site/{folder}"]
        out[folder] = [_timed(cmd, work, env)[0] for _ in range(1 if folder else 3)]
    return out


def noop(work: Path, build: list[str]) -> dict:
    runs, cpu, rendered, mkdocs = [], [], set(), 0
    for _ in range(3):
        seconds, stdout, used = _timed(build, work)
        runs.append(seconds)
        cpu.append(used)
        rendered |= {t["id"] for t in _report(work)["tasks"] if t["status"] != "hit"}
        mkdocs += len(_site_record(work).get("built", [])) if "no mkdocs build" not in stdout else 0
    wall = statistics.median(runs)
    return {"median_s": round(wall, 2), "runs_s": [round(x, 2) for x in runs], "cpu_s": [round(x, 2) for x in cpu],
            "rendered": sorted(rendered), "mkdocs_runs": mkdocs, "goal_s": NOOP_GOAL, "ok": wall <= NOOP_GOAL}


def _site_record(work: Path) -> dict:
    from pipeline.engine.site import KEYS

    try:
        return json.loads((work / "build" / KEYS).read_text())
    except (OSError, ValueError):
        return {}


def one_scene_change(work: Path, build: list[str], target: str, bare: dict[str, float]) -> dict:
    """A parameter of `target` changed, then `make`: its time against its tasks plus the sites it rebuilt."""
    change = _change_one_parameter(work, target)
    print(f"bench: one-scene change ({change})…", flush=True)
    seconds, stdout, cpu = _timed(build, work)
    tasks = {t["id"]: t for t in _report(work)["tasks"] if t["status"] != "hit"}
    sites = [] if "no mkdocs build" in stdout else _site_record(work).get("built", [])
    budget = sum(t["seconds"] for t in tasks.values()) + sum(bare.get(f, bare[""]) for f in sites)
    return {"change": change, "seconds": round(seconds, 2), "cpu_s": round(cpu, 2), "rerun": sorted(tasks),
            "tasks_s": round(sum(t["seconds"] for t in tasks.values()), 2), "sites_rebuilt": sites,
            "ratio": round(seconds / budget, 2), "goal": CHANGE_GOAL, "ok": seconds <= CHANGE_GOAL * budget,
            "render_s": tasks.get(f"media/preview/{target}", {}).get("seconds")}


def _render_seconds(work: Path, scene_id: str) -> float:
    return json.loads((work / "build" / "manifest.json").read_text())["entries"][f"media/preview/{scene_id}"]["seconds"]


def frames(work: Path, scene_ids: list[str]) -> list[dict]:
    """make frame for an early and a middle beat of each scene, against its full preview render."""
    out = []
    for sid in scene_ids:
        render = _render_seconds(work, sid)
        beats = len(json.loads((work / "build" / "media" / "preview" / f"{sid}.beats.json").read_text())["beats"])
        for f in frame_times(work, sid, beats):
            ratio = f["command_s"] / render
            out.append({**f, "scene": sid, "full_preview_render_s": render, "command_over_render": round(ratio, 2),
                        "goal": FRAME_GOAL, "ok": ratio <= FRAME_GOAL})
    return out


def main(catalogue: Catalogue, jobs: int | None, hd: bool = False) -> int:
    work = paths.BUILD / "bench-work"
    warm = _prepare(work)
    jobs_args = ["-j", str(jobs)] if jobs else []
    build = [sys.executable, "-m", "pipeline", *MAKE_BUILD, *jobs_args]
    build_hd = [sys.executable, "-m", "pipeline", "build", "--preset", "hd", "--no-site", *jobs_args]
    cold, exhibits = None, []
    if not warm:
        print("bench: no build to copy: a cold build first (renders every exhibit)…", flush=True)
        cold = _timed(build, work)[0]
        exhibits = _exhibits(work, _report(work))

    print("bench: no-op make, 3 times…", flush=True)
    noop_result = noop(work, build)
    sites = _sites(catalogue)
    print(f"bench: bare mkdocs build of {len(sites)} sites…", flush=True)
    bare_runs = bare_mkdocs(work, sites)
    bare = {f: statistics.median(r) for f, r in bare_runs.items()}

    target = catalogue.built[-1].id
    longest = max((s.id for s in catalogue.built), key=lambda sid: _render_seconds(work, sid))  # before any edit
    change = one_scene_change(work, build, target, bare)
    render = change["render_s"] or _render_seconds(work, target)
    print(f"bench: edit-to-reload under serve ({target}, 3 parameter edits)…", flush=True)
    loop = edit_to_reload(work, target, jobs_args)
    per_edit = [round(t / (r + bare[""]), 2) if r else None
                for t, r in zip(loop["runs_s"], loop["render_in_loop_s"])]
    against_change_run = round(loop["median_s"] / (render + bare[""]), 2)
    loop.update(scene=target, preview_render_s=render, bare_mkdocs_build_s=round(bare[""], 2),
                ratio_to_same_run_render=per_edit, ratio_to_change_run_render=against_change_run,
                ratio=statistics.median(per_edit) if None not in per_edit else against_change_run,
                goal=CHANGE_GOAL)
    loop["ok"] = loop["ratio"] <= CHANGE_GOAL
    print(f"bench: make frame against a full render ({target}, {longest})…", flush=True)
    stills = frames(work, list(dict.fromkeys([target, longest])))

    if hd:
        print("bench: hd (1080p60) render of every animation…", flush=True)
        _timed(build_hd, work)
        exhibits += [e for e in _exhibits(work, _report(work)) if e["task"].startswith("media/hd/")]

    result = {
        "cores": os.cpu_count(),
        "jobs": jobs or os.cpu_count(),
        "load_average": [round(x, 2) for x in os.getloadavg()],
        "command": " ".join(["python -m pipeline", *MAKE_BUILD]),
        "from_working_tree_build": warm,
        "cold_build_s": round(cold, 2) if cold is not None else None,
        "noop": noop_result,
        "bare_mkdocs_s": {f or "default": [round(x, 2) for x in r] for f, r in bare_runs.items()},
        "one_scene_change": change,
        "edit_to_reload": loop,
        "frame": stills,
        "exhibits": exhibits,
    }
    atomic.write_text(paths.BENCH, json.dumps(result, indent=1) + "\n")
    shutil.rmtree(work, ignore_errors=True)
    _print(result)
    return 0


def _print(result: dict) -> None:
    """bench.json as the table the maintainer reads: each measure, its ratio and its goal."""
    noop_r, change, loop = result["noop"], result["one_scene_change"], result["edit_to_reload"]
    mark = {True: "ok", False: "MISSED"}
    print(f"\n{'measure':44} {'seconds':>8} {'ratio':>7}  goal")
    if result["cold_build_s"] is not None:
        print(f"{'cold build (no build to copy)':44} {result['cold_build_s']:8.2f}")
    print(f"{'no-op make (median of 3)':44} {noop_r['median_s']:8.2f} {'':7}  <= {noop_r['goal_s']:.0f} s "
          f"{mark[noop_r['ok']]} (CPU {noop_r['cpu_s']} s; mkdocs runs {noop_r['mkdocs_runs']}; "
          f"rendered: {', '.join(noop_r['rendered']) or 'nothing'})")
    for folder, runs in result["bare_mkdocs_s"].items():
        print(f"{'bare mkdocs build, ' + folder:44} {statistics.median(runs):8.2f}")
    print(f"{'one-scene change':44} {change['seconds']:8.2f} {change['ratio']:6.2f}x  <= {change['goal']} "
          f"{mark[change['ok']]} (tasks {change['tasks_s']} s + sites {change['sites_rebuilt']}; "
          f"CPU {change['cpu_s']} s)")
    print(f"  {change['change']}; re-ran: {', '.join(change['rerun'])}")
    print(f"{'edit-to-reload under serve (median of 3)':44} {loop['median_s']:8.2f} {loop['ratio']:6.2f}x  "
          f"<= {loop['goal']} {mark[loop['ok']]} (median of each edit against its own render + bare mkdocs "
          f"{loop['bare_mkdocs_build_s']} s: {loop['ratio_to_same_run_render']}; against the change run's render "
          f"{loop['preview_render_s']} s: {loop['ratio_to_change_run_render']}x)")
    for f in result["frame"]:
        print(f"{'make frame ' + f['scene'] + ' beat ' + str(f['beat']):44} {f['command_s']:8.2f} "
              f"{f['command_over_render']:6.2f}x  <= {f['goal']} {mark[f['ok']]} (full render "
              f"{f['full_preview_render_s']} s; still {f['still_s']} s)")
    print(f"load average {result['load_average']} on {result['cores']} cores")
    if result["exhibits"]:
        print(f"\n{'exhibit task (cold render)':40} {'seconds':>8} {'bytes':>10}")
        for e in result["exhibits"]:
            print(f"{e['task']:40} {e['seconds']:8.1f} {e['bytes']:10,}")
    print(f"\nwritten to {paths.rel(paths.BENCH)}")
