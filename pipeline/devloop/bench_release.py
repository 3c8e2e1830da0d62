"""`make bench RELEASE=1`: what the release build and the presenter kits cost, measured end to end.

    python -m pipeline bench-release [--kit ID ...] [--warm] [-j N]     (make bench RELEASE=1 [KIT="ID ..."])

In a scratch copy of the project (build/bench-release-work, the working tree never touched):

1. the release, cold: `python -m pipeline build --preset hd --scenario all` (what `make release`
   runs) from an empty build/: its wall and CPU seconds (the build and every worker, all threads),
   the load average around it, and per scene the hd render's CPU seconds per second of video (each
   task's CPU is the worker's own, recorded in build/report.json). Goal: RELEASE_GOAL_S wall on the
   2-core machine. `--warm` skips it and links the working tree's build/ instead (kits only);
2. the presenter kit of the sample scenes (`--kit`, default KIT_SAMPLE), as `make slides` builds it:
   per scene and per part (the deck, the 4k master, the overlay; the hd render is the release's and
   a cache hit here) its CPU seconds and CPU seconds per second of video; the kit's extra cost per
   second of video against BEFORE (the kit as it was, measured the same way) with its goal, at most
   half of it;
3. the 25-scene total: the sample's CPU seconds per second of video times every scene's video length
   (their hd beats), and the wall time that is on this machine's cores.

Written to build/bench-release.json and printed. A benchmark, not a test: the numbers depend on the
machine, so nothing here fails a build; the closing note and the README quote them.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import shutil
import subprocess
import sys
import time
from pathlib import Path

from pipeline import paths
from pipeline.engine import atomic
from pipeline.engine.project_copy import copy_project, link_build

WORK = paths.BUILD / "bench-release-work"
OUT = paths.BUILD / "bench-release.json"
RELEASE_GOAL_S = 20 * 60  # a cold `make release` on the 2-core machine
KIT_SAMPLE = ("capex-opex-tco", "mig-vs-timeslicing", "topology-packing")  # the three shortest videos
# The kit before one hd render fed it (the deck rendered the scene at hd again; the overlay at libvpx's
# slowest setting), measured on KIT_SAMPLE at commit 9e988ce (the kit as it was, with the per-task CPU
# record) with `python -m pipeline presenter --only ID -j 2`, one scene at a time, on the 2-core
# machine: CPU seconds per part, and each scene's seconds of video at hd (README "Presenter kit").
BEFORE = {
    "capex-opex-tco": {"video_s": 26.95, "deck": 47.44, "4k": 227.49, "overlay": 272.34},
    "mig-vs-timeslicing": {"video_s": 34.2, "deck": 58.95, "4k": 253.49, "overlay": 379.87},
    "topology-packing": {"video_s": 38.683, "deck": 65.02, "4k": 307.04, "overlay": 515.40},
}
PARTS = {"deck": "kit/deck/{id}", "4k": "media/4k/{id}", "overlay": "kit/overlay/{id}"}


def _cpu() -> float:
    use = resource.getrusage(resource.RUSAGE_CHILDREN)
    return use.ru_utime + use.ru_stime


def timed(cmd: list[str], cwd: Path) -> dict:
    """Run `cmd` in `cwd`: wall and CPU seconds (it and its children), load averages before and after."""
    load0, c0, t0 = os.getloadavg(), _cpu(), time.perf_counter()
    proc = subprocess.run(cmd, cwd=cwd, capture_output=True, text=True)
    wall, cpu = time.perf_counter() - t0, _cpu() - c0
    if proc.returncode != 0:
        raise SystemExit(f"bench-release: {' '.join(cmd)} failed (exit {proc.returncode}):\n"
                         + (proc.stdout + proc.stderr)[-3000:])
    return {"wall_s": round(wall, 1), "cpu_s": round(cpu, 1), "load_before": [round(x, 2) for x in load0],
            "load_after": [round(x, 2) for x in os.getloadavg()]}


def report_tasks(work: Path) -> dict[str, dict]:
    return {t["id"]: t for t in json.loads((work / "build" / "report.json").read_text())["tasks"]}


def video_seconds(work: Path, scene_id: str) -> float:
    return float(json.loads((work / "build" / "media" / "hd" / f"{scene_id}.beats.json").read_text())["duration"])


def release_cold(work: Path, jobs: list[str]) -> dict:
    cmd = [sys.executable, "-m", "pipeline", "build", "--preset", "hd", "--scenario", "all", *jobs]
    print(f"bench-release: the release, cold ({' '.join(cmd[1:])})…", flush=True)
    run = timed(cmd, work)
    tasks = report_tasks(work)
    scenes = sorted(t.split("/")[-1] for t in tasks if t.startswith("media/hd/"))
    per_scene = []
    for sid in scenes:
        t, video = tasks[f"media/hd/{sid}"], video_seconds(work, sid)
        per_scene.append({"scene": sid, "video_s": video, "render_cpu_s": t.get("cpu_seconds"),
                          "render_wall_s": t["seconds"],
                          "cpu_s_per_video_s": round(t.get("cpu_seconds", 0) / video, 2)})
    by_kind: dict[str, float] = {}
    for t in tasks.values():
        kind = t["id"].split("/")[0] if not t["id"].startswith("media/") else "media/" + t["id"].split("/")[1]
        by_kind[kind] = round(by_kind.get(kind, 0.0) + t.get("cpu_seconds", 0.0), 1)
    return {**run, "goal_wall_s": RELEASE_GOAL_S, "ok": run["wall_s"] <= RELEASE_GOAL_S,
            "cpu_s_by_task_kind": by_kind, "scenes": per_scene}


def kits(work: Path, sample: list[str], jobs: list[str]) -> dict:
    cmd = [sys.executable, "-m", "pipeline", "presenter", "--only", *sample, *jobs]
    print(f"bench-release: the presenter kit of {', '.join(sample)}…", flush=True)
    run = timed(cmd, work)
    tasks = report_tasks(work)
    rows = []
    for sid in sample:
        video = video_seconds(work, sid)
        parts, walls = {}, {}
        for part, pattern in PARTS.items():
            t = tasks.get(pattern.format(id=sid), {})
            built = t.get("status") == "built"
            parts[part] = t.get("cpu_seconds") if built else None
            walls[part] = t.get("seconds") if built else None
        extra = sum(v for v in parts.values() if v is not None)
        rows.append({"scene": sid, "video_s": video, "cpu_s": parts, "wall_s": walls, "extra_cpu_s": round(extra, 1),
                     "extra_cpu_s_per_video_s": round(extra / video, 2),
                     "hd_render": tasks.get(f"media/hd/{sid}", {}).get("status")})
    return {**run, "scenes": rows}


def before_rate() -> float:
    """The kit before: extra CPU seconds per second of video over BEFORE's scenes."""
    return sum(b["deck"] + b["4k"] + b["overlay"] for b in BEFORE.values()) / sum(b["video_s"] for b in BEFORE.values())


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m pipeline bench-release", description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--kit", nargs="+", metavar="ID", default=list(KIT_SAMPLE), help="the sample scenes' kits")
    ap.add_argument("--warm", action="store_true", help="skip the cold release: link the working tree's build/")
    ap.add_argument("-j", "--jobs", type=int, default=None)
    args = ap.parse_args(argv)
    jobs = ["-j", str(args.jobs)] if args.jobs else []
    copy_project(WORK)
    result: dict = {"cores": os.cpu_count(), "jobs": args.jobs or os.cpu_count()}
    if args.warm:
        link_build(paths.BUILD, WORK)
        result["release"] = None
    else:
        result["release"] = release_cold(WORK, jobs)
    kit = kits(WORK, args.kit, jobs)
    rate = sum(r["extra_cpu_s"] for r in kit["scenes"]) / sum(r["video_s"] for r in kit["scenes"])
    hd = sorted((WORK / "build" / "media" / "hd").glob("*.beats.json"))
    total_video = sum(float(json.loads(p.read_text())["duration"]) for p in hd)
    kit.update(extra_cpu_s_per_video_s=round(rate, 2), before_cpu_s_per_video_s=round(before_rate(), 2),
               goal="at most half the kit before", ok=rate <= before_rate() / 2,
               all_scenes={"scenes": len(hd), "video_s": round(total_video, 1),
                           "extra_cpu_s": round(rate * total_video), "before_cpu_s": round(before_rate() * total_video),
                           "wall_s_on_this_machine": round(rate * total_video / (os.cpu_count() or 1))})
    result["kit"] = kit
    atomic.write_text(OUT, json.dumps(result, indent=1) + "\n")
    shutil.rmtree(WORK, ignore_errors=True)
    show(result)
    return 0


def show(result: dict) -> None:
    rel, kit = result["release"], result["kit"]
    if rel:
        print(f"\nrelease, cold: {rel['wall_s']:.0f} s wall ({rel['wall_s'] / 60:.1f} min; goal "
              f"{rel['goal_wall_s'] / 60:.0f} min: {'ok' if rel['ok'] else 'MISSED'}), {rel['cpu_s']:.0f} CPU-s on "
              f"{result['cores']} cores; load {rel['load_before']} before, {rel['load_after']} after")
        kinds = sorted(rel["cpu_s_by_task_kind"].items())
        print("  CPU-s by task kind: " + ", ".join(f"{k} {v:.0f}" for k, v in kinds))
        print(f"  {'scene':28} {'video s':>8} {'hd CPU-s':>9} {'per video-s':>12}")
        for s in rel["scenes"]:
            print(f"  {s['scene']:28} {s['video_s']:8.1f} {s['render_cpu_s'] or 0:9.1f} {s['cpu_s_per_video_s']:12.2f}")
    print(f"\nkit (CPU-s; per second of video): {kit['wall_s']:.0f} s wall, {kit['cpu_s']:.0f} CPU-s")
    print(f"  {'scene':28} {'video s':>8} {'deck':>8} {'4k':>8} {'overlay':>8} {'extra/s':>8}")
    for s in kit["scenes"]:
        c = s["cpu_s"]
        print(f"  {s['scene']:28} {s['video_s']:8.1f} " + " ".join(f"{(c[p] or 0):8.1f}" for p in PARTS)
              + f" {s['extra_cpu_s_per_video_s']:8.2f}")
    a = kit["all_scenes"]
    print(f"  extra CPU-s per video-s {kit['extra_cpu_s_per_video_s']} against {kit['before_cpu_s_per_video_s']} "
          f"before ({'ok' if kit['ok'] else 'MISSED'}: {kit['goal']})")
    print(f"  all {a['scenes']} scenes ({a['video_s']:.0f} s of video): {a['extra_cpu_s']:,} CPU-s "
          f"(before {a['before_cpu_s']:,}), about {a['wall_s_on_this_machine'] / 60:.0f} min on "
          f"{result['cores']} cores")
    print(f"\nwritten to {paths.rel(OUT)}")


if __name__ == "__main__":
    sys.exit(main())
