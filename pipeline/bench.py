"""`make bench`: how fast is a cold build, a no-op rebuild, a one-scene change?

Runs in a scratch copy of the project (build/bench-work), so your own build/
and site/ are untouched, and writes build/bench.json plus a printed table:
cold build, no-op rebuild (median of 3), bare `mkdocs build` (median of 3)
and their ratio, a one-parameter change to one scene (which tasks re-ran),
and each exhibit's render seconds and output bytes.
"""

from __future__ import annotations

import json
import os
import shutil
import statistics
import subprocess
import sys
import time
from pathlib import Path

import yaml

from pipeline import atomic, paths
from pipeline.catalogue import Catalogue

COPY = ("catalogue.yml", "mkdocs.yml", "models", "scenes", "design", "figures", "pipeline", "docs")


def copy_project(dest: Path) -> None:
    shutil.rmtree(dest, ignore_errors=True)
    dest.mkdir(parents=True)
    for name in COPY:
        src = paths.ROOT / name
        if src.is_dir():
            shutil.copytree(src, dest / name, ignore=shutil.ignore_patterns("__pycache__"))
        else:
            shutil.copy2(src, dest / name)


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
    """Nudge the first literal numeric parameter of one scene; say which."""
    path = work / "catalogue.yml"
    raw = yaml.safe_load(path.read_text())
    entry = next(s for s in raw["scenes"] if s["id"] == scene_id)
    for k, v in entry["params"].items():
        if isinstance(v, bool) or not isinstance(v, (int, float)):
            continue
        entry["params"][k] = v + 1 if isinstance(v, int) else v * 1.05
        path.write_text(yaml.safe_dump(raw, sort_keys=False, allow_unicode=True))
        return f"{scene_id}: params.{k} {v} -> {entry['params'][k]}"
    raise SystemExit(f"bench: scene {scene_id!r} has no literal numeric parameter to change")


def _exhibits(work: Path, report: dict) -> list[dict]:
    manifest = json.loads((work / "build" / "manifest.json").read_text())["entries"]
    out = []
    for t in report["tasks"]:
        outs = manifest.get(t["id"], {}).get("outputs", {})
        size = sum((work / rel).stat().st_size for rel in outs if (work / rel).is_file())
        out.append({"task": t["id"], "seconds": t["seconds"], "bytes": size})
    return out


def main(catalogue: Catalogue, jobs: int | None, hd: bool = False) -> int:
    work = paths.BUILD / "bench-work"
    copy_project(work)
    jobs_args = ["-j", str(jobs)] if jobs else []
    build = [sys.executable, "-m", "pipeline", "build", "--preset", "preview", *jobs_args]
    build_hd = [sys.executable, "-m", "pipeline", "build", "--preset", "hd", "--no-site", *jobs_args]
    mkdocs = [sys.executable, "-m", "mkdocs", "build", "--strict", "--quiet", "--site-dir", "build/bare-site"]

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
    rerun = sorted(t["id"] for t in _report(work)["tasks"] if t["status"] != "hit")

    if hd:
        print("bench: hd (1080p60) render of every animation…", flush=True)
        _timed(build_hd, work)
        exhibits += [e for e in _exhibits(work, _report(work)) if e["task"].startswith("media/hd/")]

    result = {
        "cores": os.cpu_count(),
        "jobs": jobs or os.cpu_count(),
        "cold_build_s": round(cold, 2),
        "noop_rebuild_s": round(noop, 2),
        "noop_rebuild_runs_s": [round(x, 2) for x in noop_runs],
        "noop_rendered": sorted(noop_rendered),
        "bare_mkdocs_build_s": round(bare, 2),
        "bare_mkdocs_runs_s": [round(x, 2) for x in bare_runs],
        "noop_over_bare_mkdocs": round(noop / bare, 2),
        "one_scene_change": change,
        "one_scene_change_s": round(one, 2),
        "one_scene_change_rerun": rerun,
        "exhibits": exhibits,
    }
    atomic.write_text(paths.BENCH, json.dumps(result, indent=1) + "\n")
    shutil.rmtree(work, ignore_errors=True)

    print(f"\n{'measure':34} {'seconds':>8}")
    for label, key in (("cold build (preview)", "cold_build_s"), ("no-op rebuild (median of 3)", "noop_rebuild_s"),
                       ("bare mkdocs build (median of 3)", "bare_mkdocs_build_s"),
                       ("one-scene change", "one_scene_change_s")):
        print(f"{label:34} {result[key]:8.2f}")
    print(f"{'no-op / bare mkdocs':34} {result['noop_over_bare_mkdocs']:7.2f}x")
    print(f"no-op rebuild rendered: {', '.join(result['noop_rendered']) or 'nothing'}")
    print(f"one-scene change ({change}) re-ran: {', '.join(rerun)}")
    print(f"\n{'exhibit task (cold render)':40} {'seconds':>8} {'bytes':>10}")
    for e in exhibits:
        print(f"{e['task']:40} {e['seconds']:8.1f} {e['bytes']:10,}")
    print(f"\nwritten to {paths.rel(paths.BENCH)}")
    return 0
