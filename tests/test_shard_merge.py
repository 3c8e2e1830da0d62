"""Sharded rendering, proved on real scenes: three shards merged equal one unsharded build.

Three of the cheapest scenes (SUBSET) are built three times over as shards 1/3, 2/3, 3/3, each in
its own scratch copy of the project (as three CI runners would), and the three build/ folders are
merged in a fourth copy, which also builds the site. The unsharded reference is the run's one full
build (the shared `preview_site`, `make`'s own build), given to a fifth copy by hard links: a build
of the same scenes there must render nothing. The merged manifest must equal the unsharded one on
those scenes (tasks, cache keys, key parts, output hashes), and every output byte for byte: data,
figures, captions, posters, and the videos too (renders are reproducible: tests/test_determinism.py).
Then the bad merges: a missing shard, and two shards claiming one output with different bytes, fail
naming what is wrong and change nothing in build/ or site/. Time: the shards' renders are ~30 s of
recorded task time plus a worker start per build, and the merge's site build: 95 s of CPU for the
whole file (user + sys; 3 min before the reference came from the shared build), 13.6 min wall on
the shared 2-core machine at load average 10-14.
"""

from __future__ import annotations

import hashlib
import json
import shutil
import subprocess
from pathlib import Path

import pytest
from support import run_build

from pipeline.engine.project_copy import copy_project, link_build

pytestmark = pytest.mark.slow

# three of the cheapest scenes to render (recorded preview costs, data + figures + media: 16-22 s each;
# none has an Explore panel, whose probe runs the model once per stop)
SUBSET = ["pue-carbon-shifting", "predictive-draining", "silent-data-corruption"]
N = 3


def draw_tasks() -> set[str]:
    """SUBSET's draw tasks as the catalogue has them: figures, preview media, and a panel's probe if any."""
    from pipeline.catalogue import load

    scenes = {s.id: s for s in load().scenes}
    return ({f"figures/{s}" for s in SUBSET} | {f"media/preview/{s}" for s in SUBSET}
            | {f"explore/{s}" for s in SUBSET if scenes[s].explore is not None})


def entries(build: Path) -> dict[str, dict]:
    return json.loads((build / "manifest.json").read_text())["entries"]


def comparable(build: Path) -> dict[str, dict]:
    """Each entry of SUBSET's without what depends on the machine or the moment (seconds, size and mtime)."""
    return {t: {k: e[k] for k in ("key", "parts", "outputs")} for t, e in entries(build).items()
            if t.rsplit("/", 1)[1] in SUBSET and not t.startswith("scenario/")}


def tree(*folders: Path) -> dict[str, tuple[str, int]]:
    """Every file under the folders: its sha256 and mtime (what 'nothing changed' means)."""
    out = {}
    for folder in folders:
        for p in sorted(folder.rglob("*")):
            if p.is_file():
                out[str(p)] = (hashlib.sha256(p.read_bytes()).hexdigest(), p.stat().st_mtime_ns)
    return out


@pytest.fixture(scope="module")
def work(preview_site, tmp_path_factory) -> Path:
    root = tmp_path_factory.mktemp("shards")
    for k in range(1, N + 1):
        copy_project(root / f"shard{k}")
        proc = run_build(root / f"shard{k}", "build", "--shard", f"{k}/{N}", "--only", *SUBSET)
        assert f"this is shard {k}/{N}" in proc.stdout
        assert f"shard plan: {len(draw_tasks())} draw tasks over 3 shards" in proc.stdout
    copy_project(root / "unsharded")
    link_build(preview_site.parent / "build", root / "unsharded")
    run_build(root / "unsharded", "build", "--no-site", "--only", *SUBSET)
    report = json.loads((root / "unsharded" / "build" / "report.json").read_text())
    assert {t["status"] for t in report["tasks"]} == {"hit"}  # the reference is the shared build, as it was
    copy_project(root / "merged")
    proc = run_build(root / "merged", "merge", *[str(root / f"shard{k}" / "build") for k in range(1, N + 1)])
    assert "merge: site built" in proc.stdout
    return root


def test_each_shard_keeps_its_share_and_a_partial_manifest(work):
    plans, owned = set(), []
    for k in range(1, N + 1):
        raw = json.loads((work / f"shard{k}" / "build" / "manifest.json").read_text())
        assert raw["shard"]["index"] == k and raw["shard"]["count"] == N
        plan = raw["shard"]["plan"]
        plans.add(plan["digest"])
        share = {t for t, i in plan["tasks"].items() if i == k}
        draws = {t for t in raw["entries"] if not t.startswith("data/")}
        assert draws == share  # exactly its share of the draw tasks ...
        scenes = {t.rsplit("/", 1)[1] for t in share}
        assert {t for t in raw["entries"] if t.startswith("data/")} == {f"data/{s}" for s in scenes}  # ... and its data
        owned += sorted(share)
        assert not (work / f"shard{k}" / "site").exists()  # a shard builds no site
    assert len(plans) == 1  # one plan on every "runner"
    assert sorted(owned) == sorted(draw_tasks())


def test_merged_equals_one_unsharded_build(work):
    merged, unsharded = work / "merged" / "build", work / "unsharded" / "build"
    assert set(comparable(unsharded)) == {f"data/{s}" for s in SUBSET} | draw_tasks()
    assert set(entries(merged)) == set(comparable(unsharded))  # the merge holds SUBSET's tasks, nothing else
    assert comparable(merged) == comparable(unsharded)  # same tasks, keys, parts and output hashes
    rels = sorted({rel for e in comparable(unsharded).values() for rel in e["outputs"]})
    assert {Path(r).suffix for r in rels} >= {".json", ".svg", ".vtt", ".mp4", ".png", ".webp"}
    differ = [r for r in rels if (work / "merged" / r).read_bytes() != (work / "unsharded" / r).read_bytes()]
    assert differ == []  # data, figures, captions, posters and the videos: byte for byte


def test_merge_builds_the_site_and_a_noop_build_follows(work):
    site = work / "merged" / "site" / "scenes"
    for sid in SUBSET:
        assert "<video" in (site / sid / "index.html").read_text(), sid
    proc = run_build(work / "merged", "build", "--no-site", "--only", *SUBSET)
    report = json.loads((work / "merged" / "build" / "report.json").read_text())
    assert {t["status"] for t in report["tasks"]} == {"hit"}, proc.stdout  # the merged cache is the cache


def merge(work: Path, *folders: Path) -> subprocess.CompletedProcess:
    return run_build(work / "merged", "merge", *map(str, folders), check=False)


def test_missing_shard_fails_and_changes_nothing(work):
    before = tree(work / "merged" / "build", work / "merged" / "site")
    proc = merge(work, work / "shard1" / "build", work / "shard3" / "build")
    assert proc.returncode == 2
    assert "shard 2/3 missing: no folder given holds it" in proc.stdout
    assert "build/ and site/ are unchanged" in proc.stdout
    assert tree(work / "merged" / "build", work / "merged" / "site") == before


def test_conflicting_claims_fail_and_change_nothing(work, tmp_path):
    """Shard 2 also claims an output of shard 1's, with other bytes (its own record is consistent)."""
    bad = tmp_path / "shard2-build"
    shutil.copytree(work / "shard2" / "build", bad)
    one = json.loads((work / "shard1" / "build" / "manifest.json").read_text())
    task = next(t for t in sorted(one["entries"]) if t.startswith("figures/") or t.startswith("media/"))
    entry = json.loads(json.dumps(one["entries"][task]))
    rel = sorted(entry["outputs"])[0]
    other = (work / "shard1" / rel).read_bytes() + b"\n<!-- drawn elsewhere -->\n"
    (bad / Path(rel).relative_to("build")).parent.mkdir(parents=True, exist_ok=True)
    (bad / Path(rel).relative_to("build")).write_bytes(other)
    entry["outputs"][rel] = hashlib.sha256(other).hexdigest()
    raw = json.loads((bad / "manifest.json").read_text())
    raw["entries"][task] = entry
    (bad / "manifest.json").write_text(json.dumps(raw))

    before = tree(work / "merged" / "build", work / "merged" / "site")
    proc = merge(work, work / "shard1" / "build", bad, work / "shard3" / "build")
    assert proc.returncode == 2
    assert f"error: merge: {rel}: shard 1/3 ({work / 'shard1' / 'build'}) has sha256" in proc.stdout
    assert f"shard 2/3 ({bad})" in proc.stdout and "two shards claim one output with different bytes" in proc.stdout
    assert tree(work / "merged" / "build", work / "merged" / "site") == before


def test_damaged_output_in_a_shard_fails_and_changes_nothing(work, tmp_path):
    bad = tmp_path / "shard3-build"
    shutil.copytree(work / "shard3" / "build", bad)
    rel = sorted(r for e in entries(bad).values() for r in e["outputs"])[0]
    (bad / Path(rel).relative_to("build")).write_bytes(b"truncated")
    before = tree(work / "merged" / "build", work / "merged" / "site")
    proc = merge(work, work / "shard1" / "build", work / "shard2" / "build", bad)
    assert proc.returncode == 2
    assert f"{bad / Path(rel).relative_to('build')}: its bytes differ from the hash shard 3/3" in proc.stdout
    assert tree(work / "merged" / "build", work / "merged" / "site") == before
