"""mig-vs-timeslicing: MIG placements on the H100 80GB, packing a tenant mix, latency under time-slicing."""

from __future__ import annotations

import itertools
import json
import math
import re

import numpy as np
import pytest

from models import mig_vs_timeslicing as mig
from models.constants import CONSTANTS, ENTITIES
from models.exhibit import ClaimError, ParamError

SCENE = "mig-vs-timeslicing"
Z = 3.0  # |mean − model| ≤ 3·SE
GEO = mig.h100_geometry()
H100 = ENTITIES["gpu"]["h100"]
REPORTED = 81559 * 2**20  # NVIDIA MIG user guide, Getting Started: nvidia-smi on an H100 80GB HBM3, "81559MiB"
CUDA_TOTAL = 79.11 * 2**30  # a user's PyTorch error on an H100 80GB HBM3: "total capacity of 79.11 GiB"


@pytest.fixture(scope="module")
def data(model_output):
    return model_output(SCENE)[0]


# --- published values: the MIG user guide's H100 80GB table and placement figure ------------------
# NVIDIA MIG user guide, Supported MIG Profiles, H100 MIG Profiles: fraction of SMs (x/7), fraction of
# memory (y/8), number of instances available; SMs as nvidia-smi mig -lgip reports them on GH100.
GUIDE_TABLE = {  # name: (compute slices, memory slices, SMs, instances available)
    "1g.10gb": (1, 1, 16, 7),
    "1g.10gb+me": (1, 1, 16, 1),
    "1g.20gb": (1, 2, 26, 4),
    "2g.20gb": (2, 2, 32, 3),
    "3g.40gb": (3, 4, 60, 2),
    "4g.40gb": (4, 4, 64, 1),
    "7g.80gb": (7, 8, 132, 1),
}
# the guide's placement figure: where each profile may start, on memory slices 0-7
GUIDE_PLACEMENTS = {
    "1g.10gb": (0, 1, 2, 3, 4, 5, 6),
    "1g.10gb+me": (0, 1, 2, 3, 4, 5, 6),
    "1g.20gb": (0, 2, 4, 6),
    "2g.20gb": (0, 2, 4),
    "3g.40gb": (0, 4),
    "4g.40gb": (0,),
    "7g.80gb": (0,),
}


def test_profile_table_matches_the_guide():
    assert (GEO.compute_slices, GEO.memory_slices, GEO.sms, GEO.max_instances) == (7, 8, 132, 7)
    got = {p.name: (p.compute, p.memory, p.sms, p.max_instances) for p in GEO.profiles}
    assert got == GUIDE_TABLE
    # the profile names carry the memory: y/8 of 80 GB
    for p in GEO.profiles:
        assert mig.profile_memory(p, H100, GEO) == pytest.approx(int(re.search(r"\.(\d+)gb", p.name)[1]) * 1e9)


def test_placement_rule_gives_exactly_the_guides_figure():
    assert {p.name: mig.placements(p, GEO) for p in GEO.profiles} == GUIDE_PLACEMENTS


def test_nvidias_default_layouts_are_valid():
    """mig-parted's config-default.yaml for the H100 80GB: all-<profile> and all-balanced."""
    for name, (_, _, _, count) in GUIDE_TABLE.items():
        assert mig.fit([name] * count, GEO) is not None, name
        assert mig.fit([name] * (count + 1), GEO) is None, name  # one more never fits
    assert mig.fit(["1g.10gb", "1g.10gb", "2g.20gb", "3g.40gb"], GEO) is not None  # all-balanced


@pytest.mark.parametrize("config", [
    [("4g.40gb", 0), ("4g.40gb", 0)],                     # the same slices twice
    [("3g.40gb", 0), ("1g.10gb", 3)],                     # 3g.40gb at 0 owns memory slice 3
    [("2g.20gb", 1)],                                     # 2g.20gb starts on even slices only
    [("1g.10gb", 7)],                                     # memory slice 7 has no compute slice
    [("2g.20gb", 6)],                                     # would need compute slice 7
    [("4g.40gb", 4)],                                     # would need compute slices 4-7
    [("1g.20gb", 1)],                                     # 1g.20gb starts on even slices only
    [("7g.80gb", 0), ("1g.10gb", 0)],
    [("4g.40gb", 0), ("2g.20gb", 4), ("2g.20gb", 6)],
    [("1g.10gb+me", 0), ("1g.10gb+me", 1)],               # one media-extension instance per GPU
    [("1g.20gb", s) for s in (0, 2, 4, 6)] + [("1g.10gb", 1)],
])
def test_known_invalid_layouts_are_rejected(config):
    assert not mig.is_valid(config, GEO)


def test_known_valid_layouts_are_accepted():
    assert mig.is_valid([("1g.10gb", s) for s in range(7)], GEO)
    assert mig.is_valid([("4g.40gb", 0), ("3g.40gb", 4)], GEO)
    assert mig.is_valid([("2g.20gb", 0), ("2g.20gb", 2), ("2g.20gb", 4), ("1g.20gb", 6)], GEO)
    assert mig.is_valid([("1g.10gb+me", 3), ("1g.10gb", 0), ("3g.40gb", 4)], GEO)


def _brute_force_maximal():
    """An independent enumeration: every multiset of profiles, every assignment of start slots,
    occupied slices as Python sets."""
    base = [p for p in GEO.profiles if not p.name.endswith("+me")]
    cells = {}
    for p in base:
        for s in GUIDE_PLACEMENTS[p.name]:
            cells[p.name, s] = ({("m", i) for i in range(s, s + p.memory)}
                                | {("c", i) for i in range(s, s + p.compute)})

    def feasible(names):
        if len(names) > 7:
            return False
        counts = {n: names.count(n) for n in set(names)}
        # instances of one profile take distinct starts, so choose a set of starts per profile
        for choice in itertools.product(*(itertools.combinations(GUIDE_PLACEMENTS[n], c) for n, c in counts.items())):
            used: set = set()
            ok = True
            for n, starts in zip(counts, choice):
                for s in starts:
                    if used & cells[n, s]:
                        ok = False
                        break
                    used |= cells[n, s]
            if ok:
                return True
        return False

    layouts = set()
    for counts in itertools.product(*(range(p.max_instances + 1) for p in base)):
        names = [p.name for p, c in zip(base, counts) for _ in range(c)]
        if not names or not feasible(names):
            continue
        if any(feasible(names + [p.name]) for p in base):
            continue
        layouts.add(tuple(sorted(names)))
    return layouts


def test_maximal_layouts_equal_an_independent_enumeration(data):
    got = {tuple(sorted(n for n, c in m for _ in range(c))) for m in mig.maximal_layouts(GEO)}
    assert got == _brute_force_maximal()
    assert data["summary"]["maximal_layouts"] == len(got)
    assert ("3g.40gb", "4g.40gb") in got and ("7g.80gb",) in got
    assert tuple(["1g.10gb"] * 7) in got


def test_dead_end_placements_are_placement_maximal_but_not_layout_maximal(data):
    # 4g.40gb at 0, 1g.20gb at 4, 1g.10gb at 6: nothing more fits, yet 1g.10gb at 4 and 1g.20gb at 6 would
    # leave room for another 1g.10gb at 5
    dead = (("1g.10gb", 6), ("1g.20gb", 4), ("4g.40gb", 0))
    assert dead in {tuple(sorted(c)) for c in mig.maximal_configurations(GEO)}
    assert mig.fit(["4g.40gb", "1g.20gb", "1g.10gb", "1g.10gb"], GEO) is not None
    assert data["summary"]["dead_end_placements"] > 0


def test_search_finds_each_profiles_instance_count(data):
    best = {}
    for cfg in mig.valid_configurations(GEO, include_media=True):
        for name in {n for n, _ in cfg}:
            best[name] = max(best.get(name, 0), sum(1 for n, _ in cfg if n == name))
    assert best == {name: row[3] for name, row in GUIDE_TABLE.items()}


def test_layout_table_counts_idle_sms(data):
    rows = {r["layout"]: r for r in data["records"]["layouts"]}
    assert rows["7g.80gb"]["idle_sms"] == 0
    assert rows["7× 1g.10gb"]["sms"] == 7 * 16 and rows["7× 1g.10gb"]["memory_slices"] == 7
    assert rows["2× 3g.40gb"]["idle_sms"] == 132 - 120 and rows["2× 3g.40gb"]["compute_slices"] == 6
    for r in rows.values():
        assert r["sms"] + r["idle_sms"] == 132
        assert mig.is_valid([tuple(x) for x in r["placement"]], GEO)


# --- packing ---------------------------------------------------------------------------
def test_hand_checked_case_smallest_profile():
    per_sm = H100.peak_bf16 / 132
    assert mig.sms_needed(10 * per_sm, H100, GEO) == 10
    assert mig.sms_needed(10.2 * per_sm, H100, GEO) == 11
    assert mig.smallest_profile(9e9, 10, H100, GEO).name == "1g.10gb"
    assert mig.smallest_profile(14e9, 10, H100, GEO).name == "1g.20gb"    # memory decides
    assert mig.smallest_profile(9e9, 20, H100, GEO).name == "1g.20gb"     # 26 SMs cover 20
    assert mig.smallest_profile(22e9, 27, H100, GEO).name == "3g.40gb"    # 2g.20gb has 20 GB only
    assert mig.smallest_profile(41e9, 10, H100, GEO).name == "7g.80gb"
    assert mig.smallest_profile(81e9, 10, H100, GEO) is None


def test_hand_checked_case_packing():
    assert len(mig.pack_first_fit(["1g.10gb"] * 7, GEO)) == 1
    assert len(mig.pack_first_fit(["1g.10gb"] * 8, GEO)) == 2
    assert len(mig.pack_first_fit(["4g.40gb", "3g.40gb", "4g.40gb", "3g.40gb"], GEO)) == 2
    assert len(mig.pack_first_fit(["2g.20gb"] * 4, GEO)) == 2


def test_scenario_packing(data):
    s, rec = data["summary"], data["records"]
    assert s["whole_gpus"] == len(data["params"]["tenant_memory"])
    assert s["mig_gpus"] == s["mig_lower_bound"] < s["whole_gpus"]
    assert s["timeslice_gpus"] <= s["mig_gpus"]
    owned = sum(r["owned_sms"] for r in rec["mig_gpus"])
    assert owned + s["mig_unowned_sms"] == 132 * s["mig_gpus"]
    assert s["mig_allocated_sms"] == owned and s["mig_slack_sms"] == owned - s["tenant_sms"]
    for t in rec["tenants"]:  # every tenant's instance covers its needs
        assert t["profile_sms"] >= t["sms"] and t["profile_memory"] >= t["memory"]
    for g in rec["timeslice_gpus"]:  # the memory the driver reports, 81559 MiB, not the datasheet's 80 GB
        assert g["memory"] <= REPORTED


# --- latency under time-slicing -----------------------------------------------------
def test_closed_form_limits():
    w, q, c = 10e-3, 2e-3, 50e-6
    # one tenant alone: the whole GPU, no switch
    assert mig.mixture_mean(mig.latency_mixture(1, 0.7, w, q, c)) == pytest.approx(w, rel=1e-12)
    # idle neighbours: the whole GPU
    assert mig.mixture_mean(mig.latency_mixture(7, 0.0, w, q, c)) == pytest.approx(w, rel=1e-12)
    # processor sharing: tiny slices, free switches, saturated neighbours -> k·W
    for k in (2, 4, 7):
        ratio = mig.mixture_mean(mig.latency_mixture(k, 1.0, w, w / 4096, 0.0)) / (k * w)
        assert ratio == pytest.approx(1.0, abs=2e-3)
    # a slice longer than the request: wait for the rotation, then run W
    m = mig.latency_mixture(3, 1.0, w, 4 * w, c)
    assert m["lo"][2] == pytest.approx(c + w) and m["width"][2] == pytest.approx(2 * (4 * w + c))


def test_hand_checked_case_saturated_latency():
    # k = 3, both neighbours busy, W = 5 ms, q = 2 ms, c = 0.1 ms: n = 3 slices, r = 1 ms;
    # wait c + U·2(q+c), then 2 rotations of 3(q+c) = 6.3 ms, then r
    lo = 0.1e-3 + 2 * 6.3e-3 + 1e-3
    assert mig.latency_base(2, 5e-3, 2e-3, 0.1e-3) == pytest.approx(lo)
    assert mig.rotation_before(2, 2e-3, 0.1e-3) == pytest.approx(4.2e-3)
    assert mig.rotation_before(1, 2e-3, 0.1e-3) == pytest.approx(2e-3)  # one neighbour: no switches


@pytest.mark.parametrize("k, u, w, q, c", [
    (7, 0.5, 10e-3, 2e-3, 50e-6),
    (2, 1.0, 7e-3, 2e-3, 300e-6),    # one neighbour: its slices run back to back
    (4, 0.3, 1e-3, 5e-3, 20e-6),     # a request shorter than one slice
    (5, 0.9, 9e-3, 1e-3, 1e-3),      # switches as long as slices
])
def test_rotation_walk_agrees_with_the_closed_form(k, u, w, q, c):
    rng = np.random.default_rng(7)
    sim = mig.simulate_rotation(k, u, w, q, c, 20_000, rng)
    lat = sim["latency"]
    mix = mig.latency_mixture(k, u, w, q, c)
    se = lat.std(ddof=1) / math.sqrt(lat.size)
    assert abs(lat.mean() - mig.mixture_mean(mix)) <= Z * se + 1e-15
    # per busy count b the latency lies in [lo, lo + P]
    for b in np.unique(sim["busy"]):
        sel = sim["busy"] == b
        assert lat[sel].min() >= mix["lo"][b] - 1e-12
        assert lat[sel].max() <= mix["lo"][b] + mix["width"][b] + 1e-12
    probe = np.quantile(lat, np.linspace(0.02, 0.98, 49))
    ks = np.max(np.abs(np.mean(lat[:, None] <= probe, axis=0) - mig.mixture_cdf(mix, probe)))
    assert ks <= 1.63 / math.sqrt(lat.size)


def test_one_tenant_walk_is_the_whole_gpu():
    sim = mig.simulate_rotation(1, 0.5, 10e-3, 2e-3, 1e-3, 500, np.random.default_rng(1))
    assert np.allclose(sim["latency"], 10e-3) and np.all(sim["switches"] == 0)


def test_a_wrong_model_fails_the_same_check():
    """The check can fail: a rotation in which the waiting tenant jumps the queue (waits only for the
    current slice) has a smaller mean than the walk, by more than 3 SE."""
    k, u, w, q, c = 7, 1.0, 10e-3, 2e-3, 50e-6
    lat = mig.simulate_rotation(k, u, w, q, c, 20_000, np.random.default_rng(3))["latency"]
    se = lat.std(ddof=1) / math.sqrt(lat.size)
    n, r = 5, w - 4 * q
    jump = c + (q + c) / 2 + (n - 1) * k * (q + c) + r
    assert abs(lat.mean() - jump) > Z * se


def test_scenario_latency(data):
    s, p = data["summary"], data["params"]
    assert s["share_profile"] == "1g.10gb" and p["tenants"] == 7
    assert s["mig_latency"] == pytest.approx(p["work"] * 132 / 16)
    assert s["mig_latency_memory_bound"] == pytest.approx(p["work"] * 8)
    assert s["ts_best"] == p["work"] < s["ts_p50"] < s["ts_p99"] <= s["ts_worst"]
    assert s["ts_alone_share"] == pytest.approx((1 - p["busy"]) ** (p["tenants"] - 1))
    assert abs(s["mc_z"]) <= Z and s["mc_ks"] <= s["mc_ks_limit"]
    # the break-even switch cost: there the saturated worst case equals the MIG latency
    m = mig.latency_mixture(p["tenants"], 1.0, p["work"], p["quantum"], s["switch_break_even"])
    assert float(np.max(m["lo"] + m["width"])) == pytest.approx(s["mig_latency"], rel=1e-9)
    sweep = data["records"]["switch_sweep"]
    assert [r["switch"] for r in sweep if r["assumed"]] == [p["switch"]]
    assert [r["worst"] for r in sweep] == sorted(r["worst"] for r in sweep)


def test_usable_sms_limits():
    """W·max(1, S_eff/S): a request that fits the instance loses nothing; one that fills the GPU scales by S₀/S;
    S_eff above the GPU's SMs is the whole GPU."""
    assert mig.mig_latency(0.01, 8, 16, 132) == 0.01
    assert mig.mig_latency(0.01, 16, 16, 132) == 0.01
    assert mig.mig_latency(0.01, 32, 16, 132) == pytest.approx(0.02)
    assert mig.mig_latency(0.01, 132, 16, 132) == pytest.approx(0.01 * 132 / 16)
    assert mig.mig_latency(0.01, 500, 16, 132) == mig.mig_latency(0.01, 132, 16, 132)


def test_usable_sms_sweep(data):
    """The S_eff sweep: MIG latency rises with S_eff, the time-sliced share faster than MIG with it, and the
    share matches the mixture's CDF at the MIG latency."""
    s, rows = data["summary"], data["records"]["usable_sms_sweep"]
    # the swept 16, 32, 66, 132, the two whole S_eff either side of the crossover (60.6: 60 and 61) and either
    # side of each change in the GPU counts (53|54, 61|62, 98|99)
    assert [r["usable_sms"] for r in rows] == [16, 32, 53, 54, 60, 61, 62, 66, 98, 99, 132]
    assert [r["usable_sms"] for r in rows if r["crossover"]] == [60, 61]
    assert [r["usable_sms"] for r in rows if r["count_change"]] == [53, 54, 61, 62, 98, 99]
    assert [r["mig_below_mean"] for r in rows] == [True] * 5 + [False] * 6
    assert [r["usable_sms"] for r in rows if r["assumed"]] == [s["usable_sms"]]
    assert [r["mig"] for r in rows] == sorted(r["mig"] for r in rows)
    assert [r["ts_faster"] for r in rows] == sorted(r["ts_faster"] for r in rows)
    assert rows[-1]["mig"] == pytest.approx(s["mig_latency"])
    # at 16 SMs the request fits the 1g.10gb: MIG takes W, and only the requests that run alone tie it
    assert rows[0]["mig"] == pytest.approx(data["params"]["work"])
    assert rows[0]["ts_faster"] == pytest.approx(s["ts_alone_share"])
    # the crossover is the model's formula, 16·mean/W, not the sweep grid's last "yes" (32)
    assert s["usable_sms_crossover"] == pytest.approx(16 * s["ts_mean"] / 0.010)
    assert s["usable_sms_mig_wins"] == 60 and s["mig_latency_at_usable_win"] == pytest.approx(0.010 * 60 / 16)
    assert s["mig_latency_at_usable_win"] < s["ts_mean"] < mig.mig_latency(0.010, 61, 16, 132)


def test_gpu_counts_by_usable_sms_by_hand(data):
    """A tenant occupying S_eff SMs in its turn needs flops / (S_eff × 989.5/132 TFLOP/s) of GPU time.

    Hand-packed at S_eff = 66 (66 × 7.496 = 494.8 TFLOP/s a GPU; CUDA's 84.94 GB), first-fit by memory:
    35 GB/400 T opens GPU 1; 30/280 does not fit it (680 T), opens GPU 2; 22/200 joins GPU 2 (480 T);
    18/120 fits neither (520, 600 T), opens GPU 3; 14/100 would take GPU 1 to 500 T, joins GPU 3; 12/90 joins
    GPU 1 (490 T); 9, 8, 6 and 4 GB (60, 50, 40, 30 T) each overflow GPUs 1 and 2 and join GPU 3 (400 T, 59 GB):
    3 GPUs, as many as MIG. At S_eff = 60 the compute alone needs 1370 / (60 × 7.496) = 3.05, so 4. The largest
    tenant, 400 T, needs 400 / 7.496 = 53.4 SMs: at 53 nothing serves it."""
    s = data["summary"]
    mem = [6e9, 9e9, 14e9, 18e9, 30e9, 35e9, 8e9, 12e9, 4e9, 22e9]
    flops = [x * 1e12 for x in (40, 60, 100, 120, 280, 400, 50, 90, 30, 200)]
    geo = mig.h100_geometry()
    assert mig.turn_compute(66, H100, geo) == pytest.approx(66 * 989.5e12 / 132)
    bins = mig.pack_time_sliced(mem, flops, H100, CUDA_TOTAL, mig.turn_compute(66, H100, geo))
    assert bins == [[5, 7], [4, 9], [3, 2, 1, 6, 0, 8]]
    assert math.ceil(sum(flops) / mig.turn_compute(60, H100, geo)) == 4
    assert mig.pack_time_sliced(mem, flops, H100, CUDA_TOTAL, mig.turn_compute(53, H100, geo)) is None
    # the S_eff = S₀ packing is the page's headline; S_eff above S₀ is the whole GPU
    assert mig.turn_compute(500, H100, geo) == mig.turn_compute(132, H100, geo) == pytest.approx(H100.peak_bf16)
    rows = {r["usable_sms"]: r for r in data["records"]["usable_sms_sweep"]}
    assert (rows[66]["mig_gpus"], rows[66]["timeslice_gpus"]) == (3, 3)
    assert (rows[60]["mig_gpus"], rows[60]["timeslice_gpus"]) == (3, 4)
    assert (rows[53]["mig_gpus"], rows[53]["timeslice_gpus"]) == (None, None)
    assert (rows[132]["mig_gpus"], rows[132]["timeslice_gpus"]) == (s["mig_gpus"], s["timeslice_gpus"]) == (3, 2)
    segs = [(g["lo"], g["hi"], g["mig"], g["timeslice"], g["fewer"]) for g in data["records"]["gpu_count_segments"]]
    assert segs == [(1, 53, None, None, "neither"), (54, 61, 3, 4, "mig"), (62, 98, 3, 3, "tie"),
                    (99, 132, 3, 2, "timeslice")]
    assert s["gpu_count_served_from"] == 54 and s["timeslice_fewer_from"] == 99
    # MIG is faster on average up to S_eff = 60, where time-slicing needs 4 GPUs to MIG's 3
    assert s["usable_sms_mig_wins"] == 60 and s["mig_packs_as_tight_where_faster"] is True
    # two 40 T tenants at S_eff = 8 (60.0 T a turn) need a GPU each; at 11 (82.5 T) they share one
    assert len(mig.pack_time_sliced([1e9] * 2, [40e12] * 2, H100, 80e9, mig.turn_compute(8, H100, geo))) == 2
    assert len(mig.pack_time_sliced([1e9] * 2, [40e12] * 2, H100, 80e9, mig.turn_compute(11, H100, geo))) == 1


def test_mig_instances_hold_their_contexts(data):
    """Tenant 2's 9 GB on a 1g.10gb (10 GB nominal) leaves 1 GB, the least of any instance; the MPS client's
    326 MiB (0.34 GB) fits, so with it counted the mix still takes 3 GPUs on MIG."""
    s = data["summary"]
    assert s["mig_tight_tenant"] == 2 and s["mig_min_spare"] == pytest.approx(1e9)
    assert s["context_memory"] == 326 * 2**20 < s["mig_min_spare"]
    assert s["mig_gpus_with_contexts"] == s["mig_gpus"] == 3


def test_usable_sms_crossover_by_hand():
    """Two tenants, the neighbour always busy, q = 2 ms, c = 0, W = 10 ms: n = 5 slices, each rotation
    2 × 2 ms, so L = U·2 + 4·4 + 2 = 18 + 2U ms, mean 19 ms. The 2-tenant MIG share is 3g.40gb (60 SMs):
    MIG takes 10·S_eff/60 ms, equal to 19 ms at S_eff = 60·19/10 = 114. So MIG wins on average up to 113 SMs
    (18.83 ms); at 114 it ties, which is not a win."""
    mix = mig.latency_mixture(2, 1.0, 0.010, 0.002, 0.0)
    assert mig.mixture_mean(mix) == pytest.approx(0.019)
    geo = mig.h100_geometry()
    share = mig.largest_equal_share(2, geo)
    assert share.name == "3g.40gb" and share.sms == 60
    assert mig.usable_sms_crossover(mig.mixture_mean(mix), 0.010, 60) == pytest.approx(114)
    got = mig.usable_sms_summary(share, mix, 0.010, 132)
    assert got["usable_sms_mig_wins"] == 113
    assert got["mig_latency_at_usable_win"] == pytest.approx(0.010 * 113 / 60)
    # the time-sliced latency is uniform on [18, 20) ms: (18.83 − 18)/2 = 41.7% of requests finish sooner
    assert got["ts_faster_at_usable_win"] == pytest.approx((0.010 * 113 / 60 - 0.018) / 0.002)
    # a mean of W (neighbours never busy) is never beaten; a crossover above the GPU caps at its SMs
    idle = mig.latency_mixture(2, 0.0, 0.010, 0.002, 0.0)
    assert mig.usable_sms_summary(share, idle, 0.010, 132)["usable_sms_mig_wins"] is None
    assert mig.usable_sms_mig_wins(250.0, 132) == 132 and mig.usable_sms_mig_wins(60.0, 132) == 59


def test_timeslice_packing_limits(data):
    """Each shared GPU's tenants fit its memory and SMs; the spare memory per context is what is left."""
    s = data["summary"]
    for r in data["records"]["timeslice_gpus"]:
        assert r["memory"] <= CUDA_TOTAL and r["sms"] <= s["gpu_sms"]
        assert r["spare_per_context"] == pytest.approx((CUDA_TOTAL - r["memory"]) / len(r["tenants"]))
    assert s["timeslice_max_sm_load"] == pytest.approx(s["timeslice_max_sms"] / s["gpu_sms"])


def test_contexts_fit_on_the_reported_memory(data):
    """By hand: CUDA can allocate 79.11 GiB = 84.94×10⁹ bytes (nvidia-smi reports 81559 MiB =
    85,520,809,984). First-fit decreasing puts the 35, 30 and 18 GB tenants on GPU 1 (83 GB; the 22 GB tenant
    no longer fits), the other seven (75 GB) on GPU 2. GPU 1 leaves (84.94 − 83)/3 = 0.648 GB per context
    ((85.52 − 83)/3 = 0.840 GB against nvidia-smi's total), more than the 326 MiB (0.342 GB) of the MPS client
    in NVIDIA's example, so two GPUs hold the mix with its contexts; on the datasheet's 80×10⁹ bytes they
    would not."""
    s, rows = data["summary"], data["records"]["timeslice_gpus"]
    assert s["reported_memory"] == REPORTED == 85_520_809_984 and s["context_memory"] == 326 * 2**20
    assert s["cuda_memory"] == pytest.approx(84.9437e9, rel=1e-5)
    assert [sorted(r["tenants"]) for r in rows] == [[4, 5, 6], [1, 2, 3, 7, 8, 9, 10]]
    assert s["timeslice_min_spare_per_context"] == pytest.approx((CUDA_TOTAL - 83e9) / 3)
    assert s["timeslice_min_spare_per_context"] == pytest.approx(0.648e9, abs=1e6)
    assert s["timeslice_min_spare_per_context_smi"] == pytest.approx((REPORTED - 83e9) / 3)
    assert s["timeslice_min_spare_per_context_smi"] == pytest.approx(0.840e9, abs=1e6)
    assert s["timeslice_min_spare_per_context"] > s["context_memory"]
    assert s["timeslice_gpus_with_contexts"] == s["timeslice_gpus"] == 2
    assert s["timeslice_gpus_datasheet_contexts"] == 3
    # the packer itself: three 28 GB tenants fit the reported memory (84 GB) but not 80×10⁹ bytes
    flops = [1e12] * 3
    assert len(mig.pack_time_sliced([28e9] * 3, flops, H100, REPORTED)) == 1
    assert len(mig.pack_time_sliced([28e9] * 3, flops, H100, 80e9)) == 2


def test_explore_panel_opens_at_the_page_and_moves_the_mig_line(data):
    """Both sliders open at the page's u and S_eff; the S_eff stops stay within the GPU's SMs and include
    the page's S_eff-sweep points, and the MIG lines the panel moves are tagged."""
    from figures import mig_vs_timeslicing as fig

    p = data["params"]
    stops = {sl.param: sl.stops for sl in fig.EXPLORE.sliders}
    assert len(stops) == 2 and p["busy"] in stops["busy"] and p["usable_sms"] in stops["usable_sms"]
    assert max(stops["usable_sms"]) <= data["summary"]["gpu_sms"] and len(stops["usable_sms"]) <= 40
    assert set(p["usable_sms_sweep"]) <= set(stops["usable_sms"])
    import matplotlib.pyplot as plt

    from figures.explore import PREFIX
    from figures.theme import themed

    with themed("light"):
        f = fig.latency_distribution(data, "light")
    try:
        lines = {a.get_gid(): a for ax in f.axes for a in ax.lines if a.get_gid()}
        assert lines[PREFIX + "mig-left"].get_xdata()[0] == pytest.approx(data["summary"]["mig_latency"] * 1e3)
        assert lines[PREFIX + "mig-right"].get_ydata()[0] == pytest.approx(data["summary"]["mig_latency"] * 1e3)
    finally:
        plt.close(f)


def test_a_claim_that_stops_holding_fails_the_build(scene_params):
    p = scene_params(SCENE)
    with pytest.raises(ClaimError, match="worst case stays under"):
        mig.mig_vs_timeslicing(**{**p, "switch": 500e-6, "trials": 2000})


def test_inputs_are_bounded(scene_params):
    p = {**scene_params(SCENE), "trials": 2000}
    with pytest.raises(ParamError, match="quantum"):
        mig.mig_vs_timeslicing(**{**p, "quantum": 1e-9})
    with pytest.raises(ParamError, match="tenants"):
        mig.mig_vs_timeslicing(**{**p, "tenants": 8})
    with pytest.raises(ParamError, match="tenant_flops"):
        mig.mig_vs_timeslicing(**{**p, "tenant_flops": p["tenant_flops"][:-1]})
    with pytest.raises(ParamError, match="tenant_memory"):
        mig.mig_vs_timeslicing(**{**p, "tenant_memory": [90e9] * len(p["tenant_flops"])})
    with pytest.raises(ParamError, match="work"):
        mig.mig_vs_timeslicing(**{**p, "work": math.inf})


def test_deterministic_under_seed(scene_params, data):
    from pipeline.jsonio import to_json

    again = json.loads(to_json(mig.mig_vs_timeslicing(**scene_params(SCENE)).to_dict()))
    assert again == {k: data[k] for k in again}


def test_constants_are_cited():
    for name in ("h100_mig_compute_slices", "h100_mig_memory_slices", "h100_mig_3g40gb_sms"):
        assert CONSTANTS[name].source.startswith("nvidia-")


def test_scene_captions_quote_the_model(dry_run):
    from models.units import fmt_seconds

    data, beats, duration = dry_run(SCENE)
    assert 20 <= duration <= 60 and 4 <= len(beats) <= 7
    s, p = data["summary"], data["params"]
    text = " ".join(b["caption"] for b in beats)
    for v in (s["mig_latency"], s["ts_best"], s["ts_worst"], p["quantum"], p["switch"], p["work"]):
        assert fmt_seconds(v) in text, v
    assert f"{s['gpu_sms'] - p['tenants'] * s['share_sms']} SMs belong to no instance" in text
    # the MIG latency is stated with its condition: the SMs the request can use
    assert f"request that could fill all {s['usable_sms']} SMs: {fmt_seconds(s['mig_latency'])}" in text


def test_neighbours_load_moves_the_tail_not_the_worst_case(data):
    rows = data["records"]["busy_sweep"]
    w, s = data["params"]["work"], data["summary"]
    idle = next(r for r in rows if r["busy"] == 0)
    assert idle["alone"] == 1 and idle["worst"] == pytest.approx(w) and idle["p99"] == pytest.approx(w)
    loaded = [r for r in rows if r["busy"] > 0]
    assert [r["p99"] for r in loaded] == sorted(r["p99"] for r in loaded)
    assert all(r["worst"] == pytest.approx(s["ts_saturated_worst"]) for r in loaded)
    assert all(r["p99"] < s["mig_latency"] for r in rows)


def test_tenant_count_sweep_by_hand(data):
    """k picks the MIG share and the rotation. By hand at S_eff = 132, W = 10 ms, q = 2 ms, c = 50 µs (n = 5):
    k = 2: 2× 3g.40gb, 60 SMs, MIG 10·132/60 = 22 ms; worst (one busy neighbour) c + 4·2(q+c) + q + q = 20.45 ms.
    k = 3: 2g.20gb, 32 SMs, 41.25 ms; worst c + 4·3(q+c) + q + 2(q+c) = 30.75 ms.
    k = 4: 1g.20gb, 26 SMs, 50.77 ms; worst c + 4·4(q+c) + q + 3(q+c) = 41.0 ms.
    k = 7: 1g.10gb, 16 SMs, 82.5 ms; worst 35(q+c) = 71.75 ms. The worst case stays under MIG at each."""
    rows = {r["tenants"]: r for r in data["records"]["tenants_sweep"]}
    expect = {2: ("3g.40gb", 0.022, 0.02045), 3: ("2g.20gb", 0.04125, 0.03075),
              4: ("1g.20gb", 0.010 * 132 / 26, 0.041), 7: ("1g.10gb", 0.0825, 0.07175)}
    for k, (prof, mig_lat, worst) in expect.items():
        assert rows[k]["profile"] == prof
        assert rows[k]["mig"] == pytest.approx(mig_lat) and rows[k]["worst"] == pytest.approx(worst)
    assert [r["assumed"] for r in rows.values()].count(True) == 1 and rows[7]["assumed"]
    assert rows[7]["mig"] == pytest.approx(data["summary"]["mig_latency"])
    s = data["summary"]
    assert s["tenants_worst_below_mig_all"] and s["tenants_worst_above_mig"] == 0
    # the thinnest margin is at k = 2: worst(c) = c + 8(q + c) + 2q = 10q + 9c reaches 22 ms at c = 2/9 ms
    assert s["tenants_thinnest"] == 2 and s["tenants_thinnest_switch_even"] == pytest.approx(2e-3 / 9)


def test_instances_are_sized_conservatively(data):
    """A 1g.10gb instance reports 9.75 GiB = 10.47×10⁹ bytes (nvidia-smi mig -lgip on an H100 80GB), more than
    the 80 GB / 8 = 10×10⁹ bytes per memory slice the model sizes instances by."""
    s = data["summary"]
    assert s["mig_1g_reported_memory"] == 9.75 * 2**30 and s["mig_1g_nominal_memory"] == 10e9
    assert s["mig_1g_nominal_memory"] < s["mig_1g_reported_memory"]


def test_mig_profiles_do_not_move_with_the_memory_reading(data):
    """MIG sizes a profile at m × 10 GB; the listing gives more (1g.10gb: 9.75 GiB = 10.47 GB), and 1/8 of
    nvidia-smi's 85.52 GB total (10.69 GB a slice) is more still. The tenants' 4-35 GB needs fall in none of
    the gaps (10, 10.69], (20, 21.38], (40, 42.76] GB, so no tenant's profile changes; a 10.5 GB tenant would
    move from 1g.20gb to 1g.10gb."""
    s = data["summary"]
    assert s["mig_slice_memory_generous"] == pytest.approx(REPORTED / 8) == pytest.approx(10.69e9, abs=1e7)
    assert s["mig_1g_reported_memory"] <= s["mig_slice_memory_generous"]
    assert s["mig_profiles_changed_generous"] == 0
    geo = mig.h100_geometry()
    assert mig.smallest_profile(10.5e9, 1, H100, geo).name == "1g.20gb"
    assert mig.smallest_profile(10.5e9, 1, H100, geo, REPORTED).name == "1g.10gb"


def test_every_request_done_reads_exactly_one():
    """At u = 0.3 the mixture's pmf sums to 1 − 3×10⁻¹⁶, so the raw CDF past the worst case is just under 1
    and the Explore panel printed '100.0%' where other u print '100%': the share is rounded to exactly 1."""
    mix = mig.latency_mixture(7, 0.3, 0.010, 0.002, 50e-6)
    worst = mig.mixture_max(mix)
    assert float(mig.mixture_cdf(mix, np.array([worst * 1.1]))[0]) < 1.0
    assert mig.share_done_by(mix, worst * 1.1) == 1.0
    assert 0 < mig.share_done_by(mix, worst * 0.5) < 1
