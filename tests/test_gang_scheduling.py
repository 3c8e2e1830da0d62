"""gang-scheduling: a two-job deadlock checked by hand, conservation of
GPU-time, gang admission never deadlocking, backfill never delaying the head's
reservation, Kueue's documented backoff sequence, aⁿ, and determinism."""

from __future__ import annotations

import math

import numpy as np
import pytest

from models import gang_scheduling as gm
from models.constants import CONSTANTS
from models.units import HOUR, MINUTE

SCENE = "gang-scheduling"


@pytest.fixture(scope="module")
def data(model_output):
    return model_output(SCENE)[0]


def small_trace(seed: int, jobs: int = 300, gpus: int = 64, load: float = 0.85):
    """A small seeded trace: the catalogue's run-time distribution on a 64-GPU cluster."""
    rng = np.random.default_rng(seed)
    c = CONSTANTS
    med = [c[f"philly_run_median_{b}"].value for b in ("1gpu", "2_4gpu", "5_8gpu", "gt8gpu")]
    p90 = [c[f"philly_run_p90_{b}"].value for b in ("1gpu", "2_4gpu", "5_8gpu", "gt8gpu")]
    return gm.draw_trace(jobs, gpus, [0.6, 0.2, 0.12, 0.08], [[1], [2, 4], [8], [16, 32]], med, p90,
                         c["philly_run_axis_max"].value, load, rng)


# --- the hand-checked two-job deadlock ------------------------------------------------
def test_hand_checked_case_two_jobs_each_grab_half_and_deadlock():
    # 8 GPUs, two 6-GPU jobs submitted together: round-robin gives each 4; each needs 2 more,
    # none are free and nothing runs, so neither can ever start.
    r = gm.simulate([6, 6], [HOUR, HOUR], [0.0, 0.0], 8, "greedy", horizon=HOUR)
    assert r["deadlocks"] == 1 and r["first_deadlock"] == 0.0
    assert np.all(np.isnan(r["start"]))
    assert r["busy"] == 0.0 and r["held_idle"] == pytest.approx(8 * HOUR)  # all 8 GPUs held idle for the hour


def test_hand_checked_case_gang_runs_one_then_the_other():
    r = gm.simulate([6, 6], [HOUR, HOUR], [0.0, 0.0], 8, "gang", horizon=2 * HOUR)
    assert r["deadlocks"] == 0
    assert r["start"].tolist() == [0.0, HOUR]
    assert r["busy"] == pytest.approx(6 * 2 * HOUR) and r["held_idle"] == 0.0


def test_hand_checked_case_timeout_breaks_the_deadlock():
    # waitForPodsReady 30 min: both evicted at 1800 s, requeued after 60·(1 + 0.0001·U) s; the
    # first back takes all 6 it needs and starts; the other holds the last 2 until it too times out.
    r = gm.simulate([6, 6], [HOUR, HOUR], [0.0, 0.0], 8, "greedy", timeout=30 * MINUTE, seed=3,
                    horizon=4 * HOUR)
    first = float(np.nanmin(r["start"]))
    assert 30 * MINUTE + 60 <= first <= 30 * MINUTE + 60 * (1 + gm.KUEUE_JITTER)
    assert np.all(np.isfinite(r["start"])) and r["evictions"] >= 2


def test_greedy_with_a_job_alone_is_not_a_deadlock():
    r = gm.simulate([6], [HOUR], [0.0], 8, "greedy")
    assert r["deadlocks"] == 0 and r["start"].tolist() == [0.0]


# --- invariants over seeded traces --------------------------------------------------------
@pytest.mark.parametrize("seed", [1, 2, 3])
@pytest.mark.parametrize("policy", gm.POLICIES)
def test_conservation_gpu_time_never_exceeds_capacity(seed, policy):
    tr = small_trace(seed)
    r = gm.simulate(tr["size"], tr["run"], tr["submit"], 64, policy)
    cap = 64 * r["horizon"]
    assert 0 < r["busy"] and r["busy"] + r["held_idle"] <= cap * (1 + 1e-12)
    # busy GPU-seconds inside the window are at most the work of the jobs that started
    started = np.isfinite(r["start"])
    assert r["busy"] <= float(np.sum((tr["size"] * tr["run"])[started])) * (1 + 1e-12)


@pytest.mark.parametrize("seed", range(8))
@pytest.mark.parametrize("policy", ["gang", "backfill"])
def test_gang_admission_never_deadlocks(seed, policy):
    tr = small_trace(seed, load=1.2)  # overloaded on purpose
    r = gm.simulate(tr["size"], tr["run"], tr["submit"], 64, policy)
    assert r["deadlocks"] == 0 and r["held_idle"] == 0.0
    assert np.all(np.isfinite(r["start"]))  # every job eventually runs


def test_greedy_can_deadlock_on_a_seeded_trace():
    found = [s for s in range(8) if gm.simulate(*(lambda t: (t["size"], t["run"], t["submit"]))(
        small_trace(s, load=1.2)), 64, "greedy")["deadlocks"] > 0]
    assert found, "greedy partial allocation should deadlock on some overloaded trace"


@pytest.mark.parametrize("seed", range(6))
def test_backfill_never_delays_the_head_reservation(seed):
    """Replay EASY: whenever a job is backfilled past the head, the head then starts no later
    than the shadow time computed at that moment (run times are known exactly here)."""
    tr = small_trace(seed, jobs=200, load=1.0)
    size, run, submit = tr["size"], tr["run"], tr["submit"]
    bf = gm.simulate(size, run, submit, 64, "backfill")
    start, end = bf["start"], bf["start"] + run
    order = np.lexsort((np.arange(size.size), submit))
    checked = 0
    for t in np.unique(start):
        started_now = np.flatnonzero(start == t)
        waiting = [j for j in order if submit[j] <= t and start[j] > t]
        if not waiting:
            continue
        head = waiting[0]
        passed = [j for j in started_now if submit[j] > submit[head] or (submit[j] == submit[head] and j > head)]
        if not passed:
            continue
        # shadow time from the jobs running just before the backfill decisions at t
        running = [j for j in range(size.size) if start[j] < t < end[j] or (start[j] < t and end[j] > t)]
        before = [j for j in started_now if j not in passed]
        free = 64 - sum(size[j] for j in running) - sum(size[j] for j in before)
        avail, shadow = free, math.inf
        for e, j in sorted((end[j], j) for j in running + before):
            avail += size[j]
            if avail >= size[head]:
                shadow = e
                break
        assert start[head] <= shadow + 1e-6, f"job {head} started at {start[head]} after its reservation {shadow}"
        checked += 1
    assert checked > 0, "no job was backfilled: the test checked nothing"


def test_backfill_starts_no_job_later_in_the_mean_and_cuts_the_tail(data):
    s = data["summary"]
    assert s["backfill_wait_p50"] <= s["gang_wait_p50"] and s["backfill_wait_p99"] < s["gang_wait_p99"]


def test_determinism():
    tr1, tr2 = small_trace(5), small_trace(5)
    assert np.array_equal(tr1["size"], tr2["size"]) and np.array_equal(tr1["submit"], tr2["submit"])
    for pol in gm.POLICIES:
        a = gm.simulate(tr1["size"], tr1["run"], tr1["submit"], 64, pol)
        b = gm.simulate(tr2["size"], tr2["run"], tr2["submit"], 64, pol)
        assert np.array_equal(a["start"], b["start"], equal_nan=True) and a["busy"] == b["busy"]
    assert not np.array_equal(small_trace(6)["submit"], tr1["submit"])  # the seed matters


def test_determinism_of_the_jittered_timeout_run():
    two = ([6, 6, 3], [HOUR, HOUR, HOUR], [0.0, 0.0, 0.0])
    a = gm.simulate(*two, 8, "greedy", timeout=1800, seed=4, horizon=6 * HOUR)
    b = gm.simulate(*two, 8, "greedy", timeout=1800, seed=4, horizon=6 * HOUR)
    assert np.array_equal(a["start"], b["start"], equal_nan=True) and a["evictions"] == b["evictions"]


def test_the_event_loop_is_bounded(monkeypatch):
    monkeypatch.setattr(gm, "MAX_EVENTS_PER_JOB", 1)
    tr = small_trace(1, jobs=100)
    with pytest.raises(gm.BoundExceeded):
        gm.simulate(tr["size"], tr["run"], tr["submit"], 64, "gang")


# --- Kueue, published defaults -------------------------------------------------------------
def test_kueue_documented_defaults():
    # kueue.sigs.k8s.io, "Setup All-or-nothing with ready Pods": timeout defaults to 30 minutes,
    # backoffBaseSeconds 60, backoffMaxSeconds 3600
    assert CONSTANTS["kueue_pods_ready_timeout"].value == 30 * MINUTE
    assert CONSTANTS["kueue_backoff_base"].value == 60
    assert CONSTANTS["kueue_backoff_max"].value == 3600


def test_kueue_backoff_sequence_as_documented(scene_params):
    # "Using the defaults, the evicted workload is re-queued after approximately
    # 60, 120, 240, ..., 3600, ..., 3600 seconds"
    p = scene_params(SCENE)
    seq = gm.kueue_backoff_sequence(9, p["backoff_base"], p["backoff_max"])
    assert seq == [60, 120, 240, 480, 960, 1920, 3600, 3600, 3600]
    # the code's jitter (Jitter: 0.0001) keeps each delay within 0.01% above the documented value
    for n, v in enumerate(seq[:6], start=1):
        assert v <= gm.kueue_backoff(n, 60, 3600, gm.KUEUE_JITTER, 0.999) <= v * (1 + gm.KUEUE_JITTER)
    with pytest.raises(ValueError):
        gm.kueue_backoff(0, 60, 3600)


# --- aⁿ ----------------------------------------------------------------------------------
def test_gang_start_probability(data):
    assert gm.gang_start_probability(1, 0.9) == pytest.approx(0.9)
    assert gm.gang_start_probability(2048, 0.999) == pytest.approx(math.exp(2048 * math.log(0.999)))
    s = data["summary"]
    assert s["scenario_nodes"] == 16384 / 8  # the scenario's 16,384 GPUs on 8-GPU nodes
    assert s["start_probability_1"] == pytest.approx(0.999 ** 2048)
    assert gm.availability_for(2048, 0.5) ** 2048 == pytest.approx(0.5)


def test_scene_output_is_consistent(data):
    s = data["summary"]
    assert s["gang_started"] == s["jobs"] == s["backfill_started"]
    assert s["greedy_never_started"] == s["jobs"] - s["greedy_started"] > 0
    assert s["greedy_first_deadlock"] <= s["greedy_stuck_at"] < s["horizon"]


# --- the realistic pod-by-pod case ---------------------------------------------------------
def test_pods_of_a_job_are_whole_nodes_past_one_node():
    assert gm.pods_of(4, 8) == [4] and gm.pods_of(8, 8) == [8] and gm.pods_of(32, 8) == [8, 8, 8, 8]
    with pytest.raises(ValueError):
        gm.pods_of(12, 8)  # a multi-node job must ask for whole nodes


def test_the_pass_puts_pods_back_with_pod_backoff_s_delay():
    """_put_back writes pod_backoff out inline (it runs some 1.5 million times a model run): the
    delay it gives each put-back pod must be pod_backoff's for that pod's attempt count."""
    c = gm._PodCluster(size=[16, 8], run=[10.0, 10.0], submit=[0.0, 0.0], gpus=8, gpus_per_node=8, timeout=math.inf,
                       backoff_base=60.0, backoff_max=3600.0, pod_backoff_initial=1.5, pod_backoff_max=20.0,
                       noise=1.0, seed=3, horizon=100.0)
    for j in (0, 1):
        c.admit(j, 0.0)
    pods = sorted((v[0], key) for key, v in c.pending.items())
    for attempt in range(1, 9):  # past the cap: 1.5 · 2^4 = 24 > 20
        c._put_back(pods, 0, t=5.0 * attempt)
        for _, key in pods:
            queued, attempts, eligible = c.pending[key]
            assert attempts == attempt
            assert eligible - queued == pytest.approx(gm.pod_backoff(attempt, 1.5, 20.0), abs=1e-9)


def test_kube_scheduler_pod_backoff_defaults_and_doubling():
    # KubeSchedulerConfiguration v1: podInitialBackoffSeconds 1 s, podMaxBackoffSeconds 10 s
    assert CONSTANTS["kube_pod_initial_backoff"].value == 1 and CONSTANTS["kube_pod_max_backoff"].value == 10
    assert [gm.pod_backoff(n, 1, 10) for n in range(0, 7)] == [0, 1, 2, 4, 8, 10, 10]


def test_hand_checked_pods_two_jobs_each_grab_half_and_deadlock():
    # 16 GPUs, 2 nodes of 8. Job 0 (one node) runs 0-10 s. A (2 whole-node pods) arrives at 1 s:
    # A0 takes the free node, A1 fails (queue stamp 1 s, backoff 1 s). B arrives at 1.5 s: both pods
    # fail (stamp 1.5 s, eligible at 2.5 s). A 1-GPU job arrives at 2.2 s: in that pass only A1 is out
    # of backoff; it fails again and its stamp is refreshed to 2.2 s, now *behind* B's. At 10 s
    # job 0's node frees and goes to B0: A and B each hold one node and wait for the other.
    size, run, submit = [8, 16, 16, 1], [10.0, HOUR, HOUR, 60.0], [0.0, 1.0, 1.5, 2.2]
    r = gm.simulate_pods(size, run, submit, 16, 8, noise=0.0, horizon=2 * HOUR)
    assert r["start"][0] == 0.0 and np.all(np.isnan(r["start"][1:]))
    assert r["deadlocks"] == 1 and r["first_deadlock"] == 10.0
    # all 16 GPUs held idle from 10 s, plus A0's node from 1 s to 10 s
    assert r["held_idle"] == pytest.approx(16 * (2 * HOUR - 10.0) + 8 * 9.0)


def test_hand_checked_pods_timeout_breaks_it():
    size, run, submit = [8, 16, 16, 1], [10.0, HOUR, HOUR, 60.0], [0.0, 1.0, 1.5, 2.2]
    r = gm.simulate_pods(size, run, submit, 16, 8, timeout=30 * MINUTE, noise=0.0, seed=2, horizon=6 * HOUR)
    assert np.all(np.isfinite(r["start"])) and r["evictions"] >= 2


def test_pods_single_node_jobs_never_hold_idle():
    tr = small_trace(3)
    small = tr["size"] <= 8
    r = gm.simulate_pods(tr["size"][small], tr["run"][small], tr["submit"][small], 64, 8, noise=1.0, seed=3)
    assert r["held_idle"] == 0.0 and r["deadlocks"] == 0 and np.all(np.isfinite(r["start"]))


@pytest.mark.parametrize("seed", [1, 2])
def test_pods_conservation_and_determinism(seed):
    tr = small_trace(seed)
    a = gm.simulate_pods(tr["size"], tr["run"], tr["submit"], 64, 8, timeout=30 * MINUTE, noise=1.0, seed=seed)
    b = gm.simulate_pods(tr["size"], tr["run"], tr["submit"], 64, 8, timeout=30 * MINUTE, noise=1.0, seed=seed)
    assert np.array_equal(a["start"], b["start"], equal_nan=True) and a["held_idle"] == b["held_idle"]
    assert a["busy"] + a["held_idle"] <= 64 * a["horizon"] * (1 + 1e-12)


def test_realistic_case_on_the_page(data):
    s = data["summary"]
    # with the timeout, pod by pod holds less than greedy round-robin; gang admission holds nothing
    assert 0 < s["pods_held_idle"] < s["greedy_held_idle"] and s["gang_held_idle"] == 0
    # but greedy round-robin is no upper bound: pod by pod without a timeout holds more on this seed
    assert s["pods_none_held_idle"] > s["greedy_held_idle"]
    assert s["pods_started"] == s["jobs"] and s["pods_none_deadlocks"] > 0
    # without the timeout partial jobs pile up: far more held idle than with it, and it locks for good
    assert s["pods_none_held_idle"] > s["pods_held_idle"] and s["pods_none_first_deadlock"] > 0


# --- spares --------------------------------------------------------------------------------
def test_start_probability_with_spares():
    # no spare: aⁿ; 8 spares at a = 0.999 on 2,048 nodes: 99.97 % (the binomial tail)
    assert gm.gang_start_probability_spares(2048, 0, 0.999) == pytest.approx(0.999 ** 2048)
    assert gm.gang_start_probability_spares(2048, 8, 0.999) == pytest.approx(0.99971, abs=5e-5)
    assert gm.gang_start_probability_spares(3, 1, 0.9) == pytest.approx(0.9 ** 4 + 4 * 0.1 * 0.9 ** 3)
    ps = [gm.gang_start_probability_spares(2048, s, 0.999) for s in range(0, 20, 4)]
    assert all(b > a for a, b in zip(ps, ps[1:], strict=False)) and ps[-1] <= 1.0


def test_demo_quota_exceeds_capacity(data):
    d = data["animation"]["demo"]
    assert d["quota"] >= 2 * d["size"] > d["gpus"]  # Kueue admits both only because quota > GPUs


# --- the two-job example on whole nodes, as the page and the animation tell it ------------------
def test_demo_evictions_per_job_by_hand(data):
    # 4 nodes of 8, two jobs of 3 nodes: each gets 2 and both wait. At 30 min both are evicted and
    # requeued after 60·(1 + 0.0001·U) s; the first back (A) takes 3 nodes and runs for an hour. B takes
    # the last node, times out 30 min later, is requeued after 120 s, holds the node again and starts when
    # A ends (its next timeout would come 120 s after that): A evicted once, B twice.
    s, d = data["summary"], data["animation"]["demo"]
    assert d["gpus"] == 4 * d["gpus_per_node"] and d["size"] == 3 * d["gpus_per_node"]
    assert s["demo_evictions_a"] == 1 and s["demo_evictions_b"] == 2
    assert s["demo_evictions_a"] + s["demo_evictions_b"] == s["demo_timeout_evictions"]
    assert d["evictions_b"] == s["demo_evictions_b"]
    first = 30 * MINUTE + 60
    assert first <= s["demo_timeout_first_start"] <= first + s["demo_jitter_max"]
    assert s["demo_timeout_second_start"] == pytest.approx(s["demo_timeout_first_start"] + HOUR)


# --- the spread over seeds ---------------------------------------------------------------------
def test_pods_run_cut_at_the_window_keeps_its_integrals():
    tr = small_trace(4)
    h = float(tr["submit"][-1])
    kw = {"timeout": 30 * MINUTE, "noise": 1.0, "seed": 4, "horizon": h}
    full = gm.simulate_pods(tr["size"], tr["run"], tr["submit"], 64, 8, **kw)
    cut = gm.simulate_pods(tr["size"], tr["run"], tr["submit"], 64, 8, until=h, **kw)
    assert cut["held_idle"] == full["held_idle"] and cut["busy"] == full["busy"]
    assert cut["events"] < full["events"]


def test_pods_spread_over_seeds(data):
    s, rows = data["summary"], data["records"]["pods_seeds"]
    assert len(rows) == s["pods_spread_runs"] == gm.ROBUST_SEEDS + 1
    assert rows[0]["held_idle"] == s["pods_held_idle"]  # the page's run is the first seed
    assert [r["seed"] for r in rows] == list(range(rows[0]["seed"], rows[0]["seed"] + len(rows)))
    assert s["pods_held_idle_min"] <= s["pods_held_idle_median"] <= s["pods_held_idle_max"]
    # every seed holds GPUs idle, and less than greedy round-robin does on the page's seed
    assert all(0 < r["held_idle"] < s["greedy_held_idle"] for r in rows)


def test_pods_without_timeout_over_seeds(data):
    """The no-timeout pod-by-pod run on every seed the page uses, beside greedy and the gang policies."""
    s, rows = data["summary"], data["records"]["pods_seeds"]
    robust = {r["seed"]: r for r in data["records"]["robustness"] if r["case"] == "the catalogue's mix"}
    # the first row is the page's run (cut at the window: the same integral), the others the robustness traces
    assert rows[0]["none_held_idle"] == s["pods_none_held_idle"]
    assert rows[0]["gang_utilisation"] == s["gang_utilisation"]
    assert rows[0]["backfill_utilisation"] == s["backfill_utilisation"]
    for r in rows[1:]:
        assert r["greedy_held_idle"] == robust[r["seed"]]["greedy_held_idle"]
        assert r["backfill_utilisation"] == robust[r["seed"]]["backfill_utilisation"]
    for r in rows:
        # the timeout always cuts the idle-held share; the two shares and the busy share fit in the capacity
        assert r["none_held_idle"] > r["held_idle"] > 0
        assert r["none_held_idle"] + r["none_utilisation"] <= 1 + 1e-9
    none = sorted(r["none_held_idle"] for r in rows)
    assert s["pods_none_held_idle_min"] == none[0] and s["pods_none_held_idle_max"] == none[-1]
    assert s["pods_none_held_idle_median"] == none[len(none) // 2]
    greedy = sorted(r["greedy_held_idle"] for r in rows)
    assert (s["greedy_held_idle_min"], s["greedy_held_idle_median"], s["greedy_held_idle_max"]) == (
        greedy[0], greedy[len(greedy) // 2], greedy[-1])
    assert s["pods_none_above_greedy"] == sum(r["none_held_idle"] > r["greedy_held_idle"] for r in rows) >= 1
    low = min(rows, key=lambda r: r["utilisation"])
    assert (s["pods_util_min_seed"], s["pods_util_min"]) == (low["seed"], low["utilisation"])


# --- node availability from the scenario's failure record ------------------------------------
def test_record_availability_by_hand(data, scene_params):
    p, rows, s = scene_params(SCENE), data["records"]["repair"], data["summary"]
    c = CONSTANTS
    # Table 5: 419 unexpected interruptions; software bug 54, dependency 2, switch/cable 35, NCCL watchdog 7
    # name no node: 419 − 98 = 321 node failures over 54 days on 2,048 nodes
    assert p["record_interruptions"] == c["llama3_unexpected_interruptions"].value == 419
    assert sum(p["non_node_interruptions"]) == 54 + 2 + 35 + 7
    assert s["node_share"] == pytest.approx(321 / 419) and s["node_interruptions"] == pytest.approx(321)
    per_node_day = 321 / (54 * 2048)  # 0.0029 node failures per node per day
    assert s["node_mtbf"] == pytest.approx(86400 / per_node_day)
    assert [r["repair"] for r in rows] == sorted(p["repair_times"])
    for r in rows:
        a = 1 / (1 + per_node_day * r["repair"] / 86400)
        assert r["a"] == pytest.approx(a)
        # 8 spares: at most 8 of 2,056 nodes down, the binomial tail summed term by term
        n = 2048 + 8
        tail = sum(math.comb(n, k) * (1 - a) ** k * a ** (n - k) for k in range(9))
        assert r["p_8"] == pytest.approx(tail, rel=1e-9)
    # 1 day out of the pool: a = 1/(1 + 0.0029) = 99.71%, about 5.9 nodes down, 8 spares start it 85%
    day = next(r for r in rows if r["repair"] == 86400)
    assert day["a"] == pytest.approx(0.99711, abs=1e-5) and day["down"] == pytest.approx(5.93, abs=0.01)
    assert day["p_8"] == pytest.approx(0.853, abs=0.002)
    # the longer the repair, the lower a and the start probability
    assert all(b["a"] < a_["a"] and b["p_8"] < a_["p_8"] for a_, b in zip(rows, rows[1:], strict=False))


def test_demo_run_time_is_in_the_data(data):
    # the animation's reservation time is A's run time under gang admission (A starts at 0), from the data
    d = data["animation"]["demo"]
    assert d["run"] == HOUR == data["problems"]["two_jobs"]["gang_second_wait"]

def test_figure_curves_pass_through_the_tables(data):
    """The gang-start figure's record curves meet the repair table at the scenario's gang, each falls with n,
    and the policies figure's no-timeout panel integrates to the page's idle-held share."""
    s, m, rows = data["series"], data["summary"], data["records"]["repair"]
    n = list(s["nodes_axis"])
    i = n.index(m["scenario_nodes"])
    for j, r in enumerate(rows):
        curve = s[f"p_spares_repair_{j}"]
        assert curve[i] == pytest.approx(r["p_8"], rel=1e-12)
        assert all(b <= a + 1e-12 for a, b in zip(curve, curve[1:], strict=False))  # the sum rounds near 1
    # bins of equal width over the window: their mean is the window's mean, busy and held alike
    for key in ("pods_none", "pods"):
        assert sum(s[f"{key}_held"]) / len(s[f"{key}_held"]) / m["gpus"] == pytest.approx(m[f"{key}_held_idle"],
                                                                                           rel=1e-6)
        assert sum(s[f"{key}_busy"]) / len(s[f"{key}_busy"]) / m["gpus"] == pytest.approx(m[f"{key}_utilisation"],
                                                                                          rel=1e-6)
