"""`make deploy-check`: the deploy workflow's commands, run here in its order.

    python -m pipeline.devloop.deploy_check [--preset hd] [--shards 3] [-j N] [--kit [ID ...]]

The workflow (.github/workflows/deploy.yml) cannot run on this machine; this proves every step it
calls, with the same commands (tests/test_deploy_workflow.py checks that the workflow runs these):

1. keys    `python -m pipeline keys --preset P --kit`: the cache key and the release's tag (plan job)
2. shards  `python -m pipeline build --preset P --shard I/N --no-site --kit` for I = 1..N, each in its
           own scratch copy of the project holding a copy of build/, as each CI runner restores the
           cache (shard jobs): its share of the site's renders and of the presenter kits;
           build/deploy-check/shard-I/
3. merge   `python -m pipeline merge --preset P DIR...` over the shards' build/ folders: build/ and
           site/ here (merge job), the pages linking the kits' heavy files in the release
           (W06_RELEASE_REPO, W06_RELEASE_TAG)
   scenarios `python -m pipeline build --preset P --scenario all`: the other published runs' data,
           figures and pages (the default scenario's tasks are all cache hits after the merge)
4. release `python -m pipeline release --repo R --tag T --check-site site`: the heavy kit files staged
           under their asset names in build/release/ and listed (this is the dry run: the workflow's
           release job uploads that folder), and every link a page makes to a release file checked
           against the list
5. gate    the browser gate on that site, as the merge job runs it (W06_GATE_PREBUILT=1)
6. pages   the Pages artifact: site/ packed as actions/upload-pages-artifact packs it, checked (a
           page at the root, a 404 page, no links out of the folder) -> build/deploy-check/pages.tar

`--kit ID ...` makes only those scenes' kits (the workflow makes every scene's): with
`--preset preview` it is the quick check (`make deploy-check PRESET=preview KIT=<id>`). The release's
repository here is W06_RELEASE_REPO if set, else DRY_RUN_REPO: nothing is uploaded.
"""

from __future__ import annotations

import argparse
import os
import shutil
import subprocess
import sys
import tarfile
import time
from pathlib import Path

from pipeline import paths
from pipeline.engine import presets
from pipeline.presenter import release as releases

WORK = paths.BUILD / "deploy-check"
SHARDS = 3
GATE_TESTS = ("tests/test_browser.py", "tests/test_site_pages.py", "tests/test_site_seo.py")
DRY_RUN_REPO = "dry-run/world06"  # the release's repository in a local check (no upload happens)
PAGES_LIMIT = 10 * 1024**3  # bytes: GitHub Pages' limit for a published site


def keys_cmd(preset: str, kit: list[str] = ()) -> list[str]:
    return ["-m", "pipeline", "keys", "--preset", preset, "--kit", *kit]


def shard_cmd(preset: str, index: int, count: int, kit: list[str] = ()) -> list[str]:
    return ["-m", "pipeline", "build", "--preset", preset, "--shard", f"{index}/{count}", "--no-site", "--kit", *kit]


def release_cmd(repo: str, tag: str) -> list[str]:
    return ["-m", "pipeline", "release", "--repo", repo, "--tag", tag, "--check-site", "site"]


def merge_cmd(preset: str, dirs: list[str]) -> list[str]:
    return ["-m", "pipeline", "merge", "--preset", preset, *dirs]


def scenarios_cmd(preset: str) -> list[str]:
    return ["-m", "pipeline", "build", "--preset", preset, "--scenario", "all"]


def gate_cmd() -> list[str]:
    return ["-m", "pytest", "-m", "browser", *GATE_TESTS]


class Steps:
    def __init__(self):
        self.n = 0
        self.times: list[tuple[str, float]] = []

    def run(self, name: str, argv: list[str], cwd: Path = paths.ROOT, env: dict | None = None,
            capture: bool = False) -> str:
        self.n += 1
        shown = " ".join(["python", *argv])
        print(f"\n[deploy-check] {self.n}. {name}: {shown}" + (f"  (in {paths.rel(cwd)})" if cwd != paths.ROOT
                                                                  else ""), flush=True)
        t0 = time.perf_counter()
        proc = subprocess.run([sys.executable, *argv], cwd=cwd, env={**os.environ, **(env or {})},
                              stdout=subprocess.PIPE if capture else None, text=True)
        dt = time.perf_counter() - t0
        self.times.append((name, dt))
        if capture:
            print(proc.stdout, end="", flush=True)
        if proc.returncode != 0:
            raise SystemExit(f"[deploy-check] {name} failed (exit {proc.returncode}) after {dt:.1f}s: {shown}")
        print(f"[deploy-check] {name}: ok in {dt:.1f}s", flush=True)
        return proc.stdout or ""


def scratch_runner(dest: Path) -> None:
    """A CI runner after checkout and cache restore: the project's sources and a copy of build/."""
    from pipeline.engine.project_copy import copy_project

    copy_project(dest)
    build = dest / "build"
    build.mkdir()
    for name in ("data", "figures", "media", "presenter", "manifest.json", "report.json"):
        src = paths.BUILD / name
        if src.is_dir():
            shutil.copytree(src, build / name)
        elif src.is_file():
            shutil.copy2(src, build / name)


def pages_artifact(site: Path, out: Path) -> tuple[int, int]:
    """site/ packed as upload-pages-artifact packs it (tar, links followed, no .git or .github);
    (files, bytes). Fails on what Pages would refuse or serve wrong."""
    problems = []
    for p in site.rglob("*"):
        if p.is_symlink() and not p.resolve().is_relative_to(site.resolve()):
            problems.append(f"{p.relative_to(site)}: a link out of site/")
    for need in ("index.html", "404.html", "sitemap.xml", "robots.txt"):
        if not (site / need).is_file():
            problems.append(f"{need}: missing at the root of site/")
    if problems:
        raise SystemExit("[deploy-check] the Pages artifact would be wrong:\n  " + "\n  ".join(problems))
    out.parent.mkdir(parents=True, exist_ok=True)
    files = size = 0
    with tarfile.open(out, "w", dereference=True) as tar:
        for p in sorted(site.rglob("*")):
            rel = p.relative_to(site)
            if rel.parts[0] in (".git", ".github") or not p.is_file():
                continue
            tar.add(p, arcname=str(rel), recursive=False)
            files += 1
            size += p.stat().st_size
    if size > PAGES_LIMIT:
        raise SystemExit(f"[deploy-check] site/ is {size:,} bytes, over GitHub Pages' {PAGES_LIMIT:,}")
    return files, size


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m pipeline.devloop.deploy_check", description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--preset", default="hd", choices=sorted(presets.PRESETS))
    ap.add_argument("--shards", type=int, default=SHARDS)
    ap.add_argument("-j", "--jobs", type=int, default=None, help="worker processes per build")
    ap.add_argument("--kit", nargs="*", metavar="ID", default=[],
                    help="only these scenes' presenter kits (default: every scene's, as the workflow)")
    args = ap.parse_args(argv)
    jobs = ["-j", str(args.jobs)] if args.jobs else []
    steps = Steps()
    t0 = time.perf_counter()

    digest = steps.run("keys", keys_cmd(args.preset, args.kit), capture=True).split()[-1]
    release = {"W06_RELEASE_REPO": os.environ.get("W06_RELEASE_REPO") or DRY_RUN_REPO,
               "W06_RELEASE_TAG": releases.tag_for(digest)}
    shutil.rmtree(WORK, ignore_errors=True)
    dirs = []
    for i in range(1, args.shards + 1):
        runner = WORK / f"shard-{i}"
        scratch_runner(runner)
        steps.run(f"shard {i}/{args.shards}", shard_cmd(args.preset, i, args.shards, args.kit) + jobs, cwd=runner)
        dirs.append(str(runner / "build"))
    steps.run("merge", merge_cmd(args.preset, dirs), env=release)
    steps.run("scenarios", scenarios_cmd(args.preset) + jobs, env=release)
    steps.run("release (dry run: what the release job would attach; the pages' links checked)",
              release_cmd(release["W06_RELEASE_REPO"], release["W06_RELEASE_TAG"]))
    steps.run("browser gate on the release site", gate_cmd(), env={"W06_GATE_PREBUILT": "1", **release})
    files, size = pages_artifact(paths.SITE, WORK / "pages.tar")
    print(f"\n[deploy-check] pages artifact: {files} files, {size:,} bytes -> {paths.rel(WORK / 'pages.tar')}")
    print("[deploy-check] every step passed: " + ", ".join(f"{n} {s:.1f}s" for n, s in steps.times)
          + f"; total {time.perf_counter() - t0:.1f}s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
