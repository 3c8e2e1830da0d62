"""The shard plan (pipeline/engine/shard.py): longest-processing-time balancing, costs, the --shard spec.

Unit tests, no build: they run in well under a second.
"""

from __future__ import annotations

import itertools
import json
import random

import pytest

from pipeline.catalogue import load
from pipeline.engine import shard

CATALOGUE = load()


def best_makespan(costs: list[float], n: int) -> float:
    """The optimal largest bin, by trying every assignment (small instances only)."""
    best = float("inf")
    for assignment in itertools.product(range(n), repeat=len(costs)):
        loads = [0.0] * n
        for c, k in zip(costs, assignment):
            loads[k] += c
        best = min(best, max(loads))
    return best


@pytest.mark.parametrize("seed", range(12))
def test_lpt_assigns_every_task_once_within_grahams_bound(seed):
    rng = random.Random(seed)
    n = rng.choice([2, 3, 4])
    costs = {f"media/preview/s{i:02d}": round(rng.uniform(1, 60), 1) for i in range(rng.randint(n, 8))}
    bins = shard.lpt(costs, n)
    assert len(bins) == n
    flat = [t for b in bins for t in b]
    assert sorted(flat) == sorted(costs)  # all assigned, none twice
    makespan = max(sum(costs[t] for t in b) for b in bins)
    opt = best_makespan(list(costs.values()), n)
    assert makespan <= (4 / 3 - 1 / (3 * n)) * opt + 1e-9, (costs, bins)


def test_lpt_is_deterministic_whatever_the_input_order():
    costs = {f"t{i}": float(c) for i, c in enumerate([5, 5, 5, 3, 3, 8, 1, 1, 2, 5])}
    first = shard.lpt(costs, 3)
    for seed in range(5):
        items = list(costs.items())
        random.Random(seed).shuffle(items)
        assert shard.lpt(dict(items), 3) == first
    # ties by task id, and to the lowest shard: equal costs go t0 -> 1, t1 -> 2, t2 -> 3
    assert shard.lpt({"b": 1.0, "a": 1.0, "c": 1.0}, 3) == [["a"], ["b"], ["c"]]


def test_lpt_balances_a_known_case():
    # longest first: 8 -> A, 7 -> B, 6 -> C, 5 -> C (11), 4 -> B (11), 3 -> A (11)
    costs = {"a": 8.0, "b": 7.0, "c": 6.0, "d": 5.0, "e": 4.0, "f": 3.0}
    assert shard.lpt(costs, 3) == [["a", "f"], ["b", "e"], ["c", "d"]]


def test_plan_shares_the_draw_tasks_by_recorded_cost_with_stated_defaults():
    ids = [s.id for s in CATALOGUE.built][:4]
    costs = {f"media/preview/{ids[0]}": 90.0, f"figures/{ids[0]}": 3.0, f"media/preview/{ids[1]}": 40.0}
    plan = shard.make_plan(CATALOGUE, ids, "preview", 3, costs=costs)
    panels = {f"explore/{i}" for i in ids if CATALOGUE.scene(i).explore}
    assert panels, "the first scenes include one with an Explore panel (pcie-cxl)"
    expected = {f"figures/{i}" for i in ids} | {f"media/preview/{i}" for i in ids} | panels
    assert set(plan.tasks) == expected  # draw tasks only: each shard computes the data it needs
    assert plan.costs[f"media/preview/{ids[0]}"] == 90.0
    assert plan.costs[f"media/preview/{ids[3]}"] == 20.0  # no recorded cost: the build's first guess
    assert plan.costs[f"figures/{ids[3]}"] == 2.0
    assert plan.tasks[f"media/preview/{ids[0]}"] == 1  # the longest task opens shard 1 alone
    assert plan.share(1) == [f"media/preview/{ids[0]}"]
    assert sum(len(plan.share(k)) for k in (1, 2, 3)) == len(expected)
    again = shard.make_plan(CATALOGUE, list(reversed(ids)), "preview", 3, costs=dict(reversed(costs.items())))
    assert again.as_dict() == plan.as_dict()
    assert shard.Plan.from_dict(json.loads(json.dumps(plan.as_dict()))).digest == plan.digest
    s2 = shard.Shard(plan, plan.tasks[f"media/preview/{ids[1]}"])
    assert s2.needs(ids[1]) and s2.keeps(f"data/{ids[1]}") and not s2.owns(f"media/preview/{ids[0]}")
    text = plan.describe()
    assert "shard 1/3: ~90s, 1 tasks" in text


def test_a_kit_plan_shares_the_kits_and_keeps_each_deck_with_its_hd_render():
    """build --kit --shard: the kits' renders are shared out like the site's; a deck (it cuts the hd render's
    file) goes to the shard of that render, whatever the balance; --kit ID limits the kits planned."""
    ids = [s.id for s in CATALOGUE.built][:4]
    costs = {f"media/hd/{ids[0]}": 500.0, f"kit/deck/{ids[1]}": 400.0}  # a deck heavy enough to pull alone
    plan = shard.make_plan(CATALOGUE, ids, "hd", 3, costs=costs, kit=True)
    for i in ids:
        assert {f"media/hd/{i}", f"media/4k/{i}", f"kit/overlay/{i}", f"kit/deck/{i}"} <= set(plan.tasks)
        assert plan.tasks[f"kit/deck/{i}"] == plan.tasks[f"media/hd/{i}"], i
        assert shard.Shard(plan, plan.tasks[f"media/hd/{i}"]).owns(f"kit/deck/{i}")
    # the deck's cost counts on its parent's shard: 400 s of deck plus the hd render's guess there
    k = plan.tasks[f"media/hd/{ids[1]}"]
    assert plan.loads()[k - 1] >= 400.0 + plan.costs[f"media/hd/{ids[1]}"]
    one = shard.make_plan(CATALOGUE, ids, "hd", 3, costs={}, kit=True, kit_only=[ids[2]])
    assert {t for t in one.tasks if t.startswith(("kit/", "media/4k/"))} == {
        f"kit/deck/{ids[2]}", f"kit/overlay/{ids[2]}", f"media/4k/{ids[2]}"}
    assert shard.make_plan(CATALOGUE, ids, "hd", 3, costs={}).tasks.keys() == {
        t for t in one.tasks if not t.startswith(("kit/", "media/4k/"))}


def test_hd_defaults_scale_with_pixels_and_frame_rate():
    assert shard.default_cost("media/hd/x") == pytest.approx(20.0 * 1920 * 1080 * 60 / (854 * 480 * 15), rel=1e-3)


def test_recorded_costs_prefer_the_last_run_then_the_manifest(tmp_path):
    manifest = {"version": 1, "entries": {
        t: {"key": "k", "parts": {}, "outputs": {}, "seconds": s}
        for t, s in (("figures/a", 4.0), ("media/preview/a", 30.0))}}
    report = {"preset": "preview", "tasks": [{"id": "media/preview/a", "status": "hit", "seconds": 0.0},
                                             {"id": "figures/a", "status": "built", "seconds": 6.5}]}
    (tmp_path / "manifest.json").write_text(json.dumps(manifest))
    (tmp_path / "report.json").write_text(json.dumps(report))
    costs = shard.recorded_costs(tmp_path / "report.json", tmp_path / "manifest.json")
    assert costs == {"figures/a": 6.5, "media/preview/a": 30.0}  # a hit's 0 s is not its cost
    (tmp_path / "report.json").write_text("{not json")
    with pytest.raises(shard.ShardError, match="report.json: cannot read the recorded costs"):
        shard.recorded_costs(tmp_path / "report.json", tmp_path / "manifest.json")


@pytest.mark.parametrize("spec", ["0/3", "4/3", "3", "a/b", "1/0", ""])
def test_bad_shard_spec_is_named(spec):
    with pytest.raises(shard.ShardError, match="--shard"):
        shard.parse_spec(spec)
    assert shard.parse_spec(" 2/3 ") == (2, 3)


# --- the merge's checks, on made-up shard folders (no render) ---------------------------------------
def fake_shards(root, plan: shard.Plan) -> list:
    """Each shard's build/ folder as `build --shard` leaves it, with made-up but consistent outputs."""
    import hashlib

    folders = []
    for k in range(1, plan.count + 1):
        folder = root / f"shard{k}"
        entries = {}

        def put(rel: str, data: bytes, folder=folder) -> dict:
            (folder / rel).parent.mkdir(parents=True, exist_ok=True)
            (folder / rel).write_bytes(data)
            return {f"build/{rel}": hashlib.sha256(data).hexdigest()}

        for t in plan.share(k):
            sid = shard.scene_of(t)
            data = put(f"data/{sid}.json", f'{{"scene": "{sid}"}}\n'.encode())
            entries[f"data/{sid}"] = {"key": f"kd-{sid}", "parts": {}, "outputs": data, "seconds": 1.0}
            rel = {"figures": f"figures/{sid}-a-light.svg", "explore": f"explore/{sid}.json"}.get(
                t.split("/", 1)[0], f"media/preview/{sid}.mp4")
            parts = {} if t.startswith("explore/") else {"data": data[f"build/data/{sid}.json"]}
            entries[t] = {"key": f"k-{t}", "parts": parts,
                          "outputs": put(rel, t.encode()), "seconds": 1.0}
        blob = {"version": 1, "entries": entries,
                "shard": {"index": k, "count": plan.count, "preset": plan.preset, "plan": plan.as_dict()}}
        (folder / "manifest.json").write_text(json.dumps(blob))
        folders.append(folder)
    return folders


@pytest.fixture
def plan() -> shard.Plan:
    ids = [s.id for s in CATALOGUE.built][:3]
    return shard.make_plan(CATALOGUE, ids, "preview", 3, costs={})


def check(folders, preset="preview"):
    return shard.check_parts([shard.read_part(f) for f in folders], preset, CATALOGUE)


def test_consistent_made_up_shards_pass_the_checks(tmp_path, plan):
    merged = check(fake_shards(tmp_path, plan))
    assert set(plan.tasks) <= set(merged)


def test_merge_checks_name_what_is_wrong(tmp_path, plan):
    one, two, three = fake_shards(tmp_path, plan)
    with pytest.raises(shard.ShardError, match=r"shard 2/3 given twice"):
        check([one, two, two, three])
    with pytest.raises(shard.ShardError, match=r"shard 1/3 missing: no folder given holds it"):
        check([two, three])
    with pytest.raises(shard.ShardError, match=r"built at preset 'preview', merging 'hd'"):
        check([one, two, three], preset="hd")
    with pytest.raises(shard.ShardError, match=r"no manifest.json: not a shard's build/ folder"):
        check([one, two, tmp_path / "nowhere"])
    # a shard of another plan (another N)
    other = fake_shards(tmp_path / "other", shard.make_plan(CATALOGUE, None, "preview", 2, costs={}))[0]
    with pytest.raises(shard.ShardError, match=r"are shards of different plans"):
        check([one, other, three])
    # a shard whose assigned task is missing (it failed)
    raw = json.loads((two / "manifest.json").read_text())
    lost = plan.share(2)[0]
    del raw["entries"][lost]
    (two / "manifest.json").write_text(json.dumps(raw))
    with pytest.raises(shard.ShardError, match=rf"shard 2/3 \({two}\): no entry for {lost}, which the plan gives it"):
        check([one, two, three])
    # a plain build's manifest
    raw.pop("shard")
    (two / "manifest.json").write_text(json.dumps(raw))
    with pytest.raises(shard.ShardError, match=r"not a partial manifest \(no 'shard' block\)"):
        check([one, two, three])


def test_a_hand_edited_plan_is_refused(tmp_path, plan):
    one, two, three = fake_shards(tmp_path, plan)
    raw = json.loads((one / "manifest.json").read_text())
    first = sorted(raw["shard"]["plan"]["tasks"])[0]
    raw["shard"]["plan"]["tasks"][first] = raw["shard"]["plan"]["tasks"][first] % 3 + 1  # another shard
    (one / "manifest.json").write_text(json.dumps(raw))
    with pytest.raises(shard.ShardError, match=r"does not match its recorded digest"):
        check([one, two, three])


def test_outputs_drawn_from_other_data_are_refused(tmp_path, plan):
    one, two, three = fake_shards(tmp_path, plan)
    raw = json.loads((two / "manifest.json").read_text())
    # an Explore panel runs the model itself and is drawn from no data: pick a figure or video task
    task = next(t for t in plan.share(2) if not t.startswith("explore/"))
    raw["entries"][task]["parts"]["data"] = "0" * 64  # drawn from other data than its shard recorded
    (two / "manifest.json").write_text(json.dumps(raw))
    with pytest.raises(shard.ShardError, match=rf"scene '{shard.scene_of(task)}': the shards' outputs are not one "
                       rf"consistent set: {task} was drawn from other data"):
        check([one, two, three])


def test_one_task_with_two_cache_keys_is_refused(tmp_path, plan):
    one, two, three = fake_shards(tmp_path, plan)
    a = json.loads((one / "manifest.json").read_text())
    b = json.loads((two / "manifest.json").read_text())
    data_task = next(t for t in a["entries"] if t.startswith("data/"))
    b["entries"][data_task] = {**a["entries"][data_task], "key": "another key"}
    (two / "manifest.json").write_text(json.dumps(b))
    with pytest.raises(shard.ShardError, match=rf"{data_task}: shard 1/3 .* and shard 2/3 .* recorded different "
                       "cache keys"):
        check([one, two, three])
