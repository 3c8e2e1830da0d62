"""daly-checkpoint · Daly's formula: published values, the analytic wall time
against a seeded Monte Carlo that could disagree with it, the sweep over the
restart time R, and the entry point's bounds (the Young/Daly maths itself:
tests/test_lib_checkpoint.py)."""

from __future__ import annotations

import math

import numpy as np
import pytest

from models.constants import CONSTANTS, UNSTATED
from models.daly_checkpoint import daly_interval
from models.exhibit import ClaimError, ParamError
from models.lib import checkpoint as ck
from models.units import DAY, HOUR, MINUTE, fmt_seconds

Z = ck.Z_CHECK  # |MC − analytic| ≤ 3·SE: 3σ keeps a correct model from flaking
SCENE = "daly-checkpoint"


@pytest.fixture(scope="module")
def data(model_output):
    return model_output(SCENE)[0]


# --- inputs: published values -------------------------------------------------------
def test_mtbf_from_the_llama3_record(scene_params):
    # Llama 3 report §3.3.4 and Table 5: 419 unexpected interruptions in a 54-day snapshot
    # ("about one every three hours")
    p = scene_params(SCENE)
    assert p["observation_window"] == 54 * DAY and p["interruptions"] == 419
    m = ck.mean_time_between_interruptions(p["observation_window"], p["interruptions"])
    assert m / HOUR == pytest.approx(3.093, abs=1e-3)
    assert ck.interruption_rate(p["observation_window"], p["interruptions"]) == pytest.approx(1 / m)


def test_checkpoint_size_matches_llama3_per_gpu_range(data):
    s, p = data["summary"], data["params"]
    # ZeRO §3.1: 2Ψ fp16 weights + KΨ optimizer states with K = 12 (gradients not saved)
    assert s["bytes_per_param"] == 14
    assert s["checkpoint_bytes"] == pytest.approx(405e9 * 14)
    # Llama 3 §3.3.1: each GPU saves 1 MB to 4 GB of model state
    lo = CONSTANTS["llama3_checkpoint_per_gpu_min"].value
    hi = CONSTANTS["llama3_checkpoint_per_gpu_max"].value
    assert (p["reported_checkpoint_min"], p["reported_checkpoint_max"]) == (lo, hi)
    assert lo <= s["checkpoint_bytes_per_gpu"] <= hi
    # Llama 3 §3.3.1: Tectonic sustains 2 TB/s
    assert s["checkpoint_cost"] == pytest.approx(s["checkpoint_bytes"] / 2e12)


# --- the optimum ----------------------------------------------------------------
def test_wall_time_falls_then_rises_around_the_optimum(data):
    s = data["series"]
    tau, w = np.asarray(s["tau"]), np.asarray(s["wall_time"])
    i = int(np.argmin(w))
    assert 0 < i < len(w) - 1
    assert np.all(np.diff(w[: i + 1]) < 0) and np.all(np.diff(w[i:]) > 0)
    assert tau[i] == pytest.approx(data["summary"]["optimal_interval"], rel=0.02)


# --- the restart time R: an assumption, swept ----------------------------------------
def test_sweep_over_r_brackets_the_reported_share(data):
    s, p, rows = data["summary"], data["params"], data["records"]["restart_sweep"]
    eff = [r["efficiency"] for r in rows]
    assert eff == sorted(eff, reverse=True)  # a longer restart never helps
    for r in rows:
        # the report's share covers every stop: "reaches" counts the planned ones at one R each
        assert r["above_reported"] == (r["restart"] <= s["restart_for_reported"])
        assert r["above_reported"] == (r["efficiency_with_planned"] >= p["reported_efficiency"])
        assert r["efficiency_with_planned"] < r["efficiency"] or r["restart"] == 0
        assert r["efficiency"] + r["save"] + r["lost"] + r["restart_share"] == pytest.approx(1.0)
    assert [r["restart"] for r in rows if r["assumed"]] == [p["restart_cost"]]
    # the page's claims: the assumed R clears the report, and some R in the sweep does not
    assert p["restart_cost"] < s["restart_for_reported"]
    assert not all(r["above_reported"] for r in rows)
    assert s["restart_break_even"] < p["restart_cost"]


def test_restart_limit_counts_the_planned_stops(data):
    """E₀·e^(−R/M)·(1 − P·R/W) = 0.9 at the limit; without the planned stops it is M·ln(E₀/0.9)."""
    s, p = data["summary"], data["params"]
    e0, m = s["efficiency_no_restart"], s["mtbf"]
    rate = s["planned_interruptions"] / p["observation_window"]
    r = s["restart_for_reported"]
    assert e0 * math.exp(-r / m) * (1 - rate * r) == pytest.approx(p["reported_efficiency"], rel=1e-9)
    assert s["restart_for_reported_unplanned"] == pytest.approx(m * math.log(e0 / p["reported_efficiency"]))
    # the reviewer's hand solution: about 828 s with the 47 stops, against about 15.3 min without
    assert r == pytest.approx(828, abs=2)
    assert s["restart_for_reported_unplanned"] / MINUTE == pytest.approx(15.3, abs=0.05)
    # the dense curve the figure draws crosses the reported share at that limit
    rr = np.asarray(data["series"]["sweep_restart"])
    eff = np.asarray(data["series"]["sweep_efficiency_with_planned"])
    assert np.all(np.diff(eff) < 0)
    assert np.interp(p["reported_efficiency"], eff[::-1], rr[::-1]) == pytest.approx(r, rel=0.01)


def test_scene_12s_restarts_bracket_the_assumed_r_and_the_limit(data, model_output):
    """The page places R between scene 12's fast full restart and its default recovery, for the same
    job: the fast one inside the limit on R, the default one outside it, below the reported share."""
    s, p = data["summary"], data["params"]
    rec = model_output("checkpoint-recovery")[0]["summary"]
    fast, slow = rec["mttr_fast"], rec["mttr_slow"]
    assert fast < p["restart_cost"] < slow
    assert fast < s["restart_for_reported"] < slow
    e_slow = s["efficiency_no_restart"] * math.exp(-slow / s["mtbf"])
    assert e_slow < p["reported_efficiency"]
    # today's default store (scene 12's "current default"): a hang is above both limits on R, planned stops
    # counted or not; a crash is below both (the page: "above for a hang, below for a crash")
    hang, crash = rec["mttr_current"], rec["mttr_current_crash"]
    assert crash < s["restart_for_reported"] < s["restart_for_reported_unplanned"] < hang


def test_a_claim_that_stops_holding_fails_the_build(scene_params):
    p = scene_params(SCENE)
    # with a 30-minute restart the useful time no longer reaches the reported share
    with pytest.raises(ClaimError, match="effective training time"):
        daly_interval(**{**p, "restart_cost": 30 * MINUTE, "trials": 200})


# --- analytic versus Monte Carlo ---------------------------------------------------
def test_monte_carlo_agrees_with_daly_at_every_interval(data):
    s = data["series"]
    mean, se, analytic = (np.asarray(s[k]) for k in ("mc_mean", "mc_se", "mc_analytic"))
    assert len(mean) >= 10
    assert np.all(np.abs(mean - analytic) <= Z * se), s["mc_z"]
    assert np.all(se / analytic < 1e-3)  # the interval is tight, so agreement means something


def _rejected(mean, se, model) -> bool:
    return bool(np.any(np.abs(mean - model) > Z * se))


def test_wrong_models_fail_the_same_check(data):
    """The check can fail: models that differ from Daly's only in the restart
    term are rejected by the same |mean − model| ≤ 3·SE test."""
    s, p, ser = data["summary"], data["params"], data["series"]
    mean, se, tau = (np.asarray(ser[k]) for k in ("mc_mean", "mc_se", "mc_tau"))
    M, d, R, Ts = s["mtbf"], s["checkpoint_cost"], p["restart_cost"], p["work"]
    n = Ts / tau
    no_exp = ck.wall_time(tau, d, M, R, Ts) / math.exp(R / M)          # drop e^{R/M}
    doubled = ck.wall_time(tau, d, M, 2 * R, Ts)                       # R doubled
    immune = n * (M + R) * np.expm1((tau + d) / M)                     # restarts cannot fail
    assert _rejected(mean, se, no_exp)
    assert _rejected(mean, se, doubled)
    assert _rejected(mean, se, immune)


# --- every loop is bounded ------------------------------------------------------------
def test_the_entry_point_is_bounded_too(scene_params):
    p = scene_params(SCENE)
    with pytest.raises(ParamError, match="observation_window"):
        daly_interval(**{**p, "observation_window": math.inf})
    with pytest.raises(ParamError, match="work"):  # too short for whole Monte Carlo segments
        daly_interval(**{**p, "work": 60.0})
    with pytest.raises(ParamError, match="work"):  # a job so long the simulation would take hours
        daly_interval(**{**p, "work": 1e12, "trials": 100})
    with pytest.raises(ParamError, match="restart_cost"):  # e^{R/M} would overflow
        daly_interval(**{**p, "restart_cost": 1e9})
    with pytest.raises(ParamError, match="interruptions"):  # δ ≫ M: no segment ever completes
        daly_interval(**{**p, "observation_window": 1.0})
    # allowed inputs, but a job that expects more failures than the simulation's budget
    window = p["interruptions"] * 2.835 / 40  # M = δ/40
    with pytest.raises(ck.BoundExceeded, match="expects"):
        daly_interval(**{**p, "observation_window": window, "work": 100.0, "restart_cost": 0.0,
                            "restart_sweep": [0.0], "trials": 100})


# --- the illustrative timeline ---------------------------------------------------
def test_timeline_is_a_consistent_job(data):
    s, p = data["summary"], data["params"]
    blocks = data["animation"]["timeline"]
    n, tau = p.get("timeline_segments", 12), s["optimal_interval"]
    for a, b in zip(blocks, blocks[1:]):
        assert b["start"] == pytest.approx(a["end"])  # contiguous wall clock
    kept = [b for b in blocks if not b["lost"]]
    done = sum(b["end"] - b["start"] for b in kept if b["kind"] in ("compute", "rework"))
    assert done == pytest.approx(n * tau)
    assert sum(b["kind"] == "save" for b in kept) == n
    assert blocks[-1]["work_end"] == pytest.approx(n * tau)
    fails = [i for i, b in enumerate(blocks) if b["kind"] == "failure"]
    assert fails
    for i in fails:  # a failure is followed by a restart, preceded by lost work
        assert blocks[i + 1]["kind"] == "restart" and blocks[i - 1]["lost"]
    rework = [b for b in kept if b["kind"] == "rework"]
    assert rework and all(b["start"] > blocks[fails[0]]["start"] for b in rework)
    # the first failure falls where a rollback can be shown: after 3 checkpoints, 3 segments before the end
    assert 3 * tau <= blocks[fails[0]]["work_start"] <= (n - 3) * tau


# --- contracts ------------------------------------------------------------------------
def test_waste_column_is_a_share(data):
    t = data["table"]
    waste_col = [c["unit"] for c in t["columns"]].index("%")
    assert all(0.0 <= r[waste_col] <= 1.0 for r in t["rows"])


def test_deterministic_under_seed(scene_params, data):
    import json

    from pipeline.jsonio import to_json

    again = json.loads(to_json(daly_interval(**scene_params(SCENE)).to_dict()))
    assert again == {k: data[k] for k in again}


def test_scene_captions_quote_the_model(dry_run):
    data, beats, duration = dry_run(SCENE)
    assert 30 <= duration <= 45
    s, p = data["summary"], data["params"]
    text = " ".join(b["caption"] for b in beats)
    for v in (s["mtbf"], s["optimal_interval"], p["restart_cost"], s["checkpoint_cost"]):
        assert fmt_seconds(v) in text, v


def test_what_the_interval_writes_and_keeps(data):
    s, p = data["summary"], data["params"]
    # a day of useful compute at τ*: T_s/τ* checkpoints of the full state (~346 × 5.67 TB ≈ 2 PB)
    assert s["checkpoints_per_day"] == pytest.approx(DAY / s["optimal_interval"])
    assert 300 < s["checkpoints_per_day"] < 400
    assert s["checkpoint_bytes_per_day"] == pytest.approx(s["checkpoints_per_day"] * s["checkpoint_bytes"])
    assert 1.5e15 < s["checkpoint_bytes_per_day"] < 2.5e15
    # a wall-clock day is T_s/T_w of a day of useful compute: it ends fewer segments, so it writes less
    wall_day = s["checkpoint_bytes_per_day"] * s["efficiency_optimal"]
    assert s["checkpoint_bytes_per_wall_day"] == pytest.approx(wall_day, rel=1e-12)
    assert s["checkpoint_bytes_per_wall_day"] < s["checkpoint_bytes_per_day"]
    # and the GPU-hours lost per day are per day of useful compute: GPUs × (T_w − T_s) per T_s of a day
    lost_per_useful_day = p["gpus"] * 24 * (1 / s["efficiency_optimal"] - 1)
    assert s["gpu_hours_lost_per_day"] == pytest.approx(lost_per_useful_day, rel=1e-9)
    assert s["gpu_hours_lost_per_day"] > p["gpus"] * 24 * s["waste_optimal"]  # more than per wall-clock day
    # Llama 3 §3.3.1: 240 PB of Tectonic storage; keeping every checkpoint fills it in months
    assert s["storage_capacity"] == CONSTANTS["llama3_storage_capacity"].value == 240e15
    assert s["days_to_fill_storage"] == pytest.approx(240e15 / s["checkpoint_bytes_per_day"])
    assert s["checkpoint_bytes_kept"] == p["checkpoints_kept"] * s["checkpoint_bytes"]


def test_the_storage_throughput_states_no_direction_and_is_used_as_the_write_rate(data, scene_params):
    # Llama 3 §3.3.1 gives Tectonic's 2 TB/s sustained and 7 TB/s peak "throughput", not which way it counts
    for name in ("llama3_storage_sustained_bw", "llama3_storage_peak_bw"):
        assert CONSTANTS[name].direction == UNSTATED, name
    bw = CONSTANTS["llama3_storage_sustained_bw"].value
    assert scene_params(SCENE)["checkpoint_bandwidth"] == bw == 2e12
    s = data["summary"]
    assert s["checkpoint_cost"] == pytest.approx(s["checkpoint_bytes"] / bw, rel=1e-12)  # δ = bytes / write rate
    # were it reads and writes together, half each way: δ doubles and the optimum grows by about √2
    half = daly_interval(**{**scene_params(SCENE), "checkpoint_bandwidth": bw / 2, "trials": 2000}).summary
    assert half["checkpoint_cost"] == pytest.approx(2 * s["checkpoint_cost"], rel=1e-12)
    assert half["optimal_interval"] / s["optimal_interval"] == pytest.approx(math.sqrt(2), rel=0.02)


def test_planned_interruptions_are_outside_m(data, scene_params):
    s, p = data["summary"], data["params"]
    # Table 5: 466 interruptions in the snapshot, 47 planned, 419 unexpected; M counts the 419 only
    assert CONSTANTS["llama3_planned_interruptions"].value == 47
    assert s["planned_interruptions"] + p["interruptions"] == 466
    assert s["mtbf"] == pytest.approx(p["observation_window"] / p["interruptions"])
    assert s["planned_restart_share"] == pytest.approx(47 * p["restart_cost"] / p["observation_window"])
    assert p["reported_efficiency"] < s["efficiency_with_planned"] < s["efficiency_optimal"]
    # the planned stops do not move the interval
    none = daly_interval(**{**scene_params(SCENE), "planned_interruptions": 0, "trials": 2000})
    assert none.summary["optimal_interval"] == s["optimal_interval"]
    assert none.summary["efficiency_with_planned"] == none.summary["efficiency_optimal"]
