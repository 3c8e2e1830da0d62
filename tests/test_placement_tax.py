"""placement-tax · the case study: every verdict is computed, the arithmetic claims are checked exactly,
and the page cannot keep a verdict the model no longer gives."""

from __future__ import annotations

import math
import re
from pathlib import Path

import numpy as np
import pytest

from models import placement_tax as pt
from models.constants import CONSTANTS
from models.exhibit import ClaimError
from models.lib.collectives import ring_time
from models.lib.placement import ring_step_levels, traffic_per_gpu
from models.lib.reliability import usable_capacity
from models.units import DAY, HOUR

SCENE = "placement-tax"
PAGE = Path(__file__).resolve().parent.parent / "docs" / "scenes" / "placement-tax.md"

# the verdict each claim gets today: a model change that flips one must change this and the page
EXPECTED = {
    "bandwidth": "reproduced",
    "switch-chips": "holds if",
    "placement": "holds if",
    "communication": "holds if",
    "serving": "holds if",
    "serving-low": "not checkable here",
    "node-mtbf": "holds if",
    "node-mtbf-source": "not checkable here",
    "rack-mtbf": "holds if",
    "rack-hours": "reproduced",
    "hot-spares": "holds if",
    "groot": "not checkable here",
    "money-hour": "holds if",
    "money-day": "holds if",
    "defrag": "holds if",
    "skypilot": "not reproduced",
}


@pytest.fixture(scope="module")
def data(model_output):
    return model_output(SCENE)[0]


def claim(name):
    return CONSTANTS[name].value


# --- verdicts -------------------------------------------------------------------------------
def test_every_claim_gets_the_expected_verdict(data):
    v = data["records"]["verdicts"]
    assert data["records"]["order"] == list(EXPECTED)
    assert {k: v[k]["verdict"] for k in v} == EXPECTED
    s = data["summary"]
    counts = {"reproduced": s["reproduced"], "holds if": s["holds_if"], "off by": s["off_by"],
              "not reproduced": s["not_reproduced"], "not checkable here": s["not_checkable"]}
    for kind, n in counts.items():
        assert n == sum(x == kind for x in EXPECTED.values()), kind


def test_the_page_names_each_verdict_in_its_heading():
    """Section headings carry the verdict words: a flipped verdict leaves the page wrong, so it fails here."""
    text = PAGE.read_text()
    heads = {"Placement": "placement", "Communication": "communication", "Bandwidth": "bandwidth",
             "Serving": "serving", "Hot spares": "hot-spares", "GR00T-N 1.7": "groot"}
    for word, key in heads.items():
        line = next(h for h in re.findall(r"^## (.+)$", text, re.M) if h.startswith(word))
        assert line.endswith(EXPECTED[key]), (line, key)
    for label, key in (("**Switch chips — ", "switch-chips"), ("**Low end — ", "serving-low"),
                       ("**Node MTBF — ", "node-mtbf"), ("**Attribution — ", "node-mtbf-source"),
                       ("**Rack — ", "rack-mtbf"), ("**Cluster — ", "rack-hours"),
                       ("**Per hour — ", "money-hour"), ("**Per day — ", "money-day"),
                       ("**SkyPilot — ", "skypilot")):
        assert f"{label}{EXPECTED[key]}.**" in text, key
    assert "Defragmentation: preempt checkpointed batch jobs — " + EXPECTED["defrag"] in text


def test_the_page_types_no_claim_number():
    text = PAGE.read_text()
    body = re.sub(r"{{.*?}}|{%.*?%}", "", text, flags=re.S)
    for typed in ("43", "60%", "14.4", "12.6", "384", "1.59", "1.39", "27", "490", "16,000", "16k", "400",
                  "18×", "3.9", "4.4", "130", "1.8 TB", "512", "10,000", "4-GPU", "16-node", "18-node"):
        assert typed not in body, typed


# --- the arithmetic claims, exactly --------------------------------------------------------------
def test_groot_is_a_throughput_gain_not_a_step_cut(data):
    s = data["summary"]
    assert s["groot_gain"] == pytest.approx(1.59 / 1.39 - 1, rel=1e-12)
    assert s["groot_cut"] == pytest.approx(1 - 1.39 / 1.59, rel=1e-12)
    assert round(s["groot_gain"], 3) == claim("video_groot_gain")
    assert round(s["groot_cut"], 3) == 0.126


def test_sixteen_thousand_an_hour_is_about_four_hundred_thousand_a_day(data):
    s = data["summary"]
    assert s["per_day"] == 16_000 * 24 == 384_000
    assert s["per_day_short"] == 16_000
    # 4% under "~$400k": inside the page's one tolerance, so the day is the hour times 24, and gets its verdict
    assert abs(s["per_day"] / 400_000 - 1) == pytest.approx(0.04) and 0.04 < s["tolerance"] == pt.TOLERANCE
    v = data["records"]["verdicts"]
    assert v["money-day"]["verdict"] == v["money-hour"]["verdict"] == "holds if"
    # the hour's shortfall is reported once: the day row does not count the video's rounding as a second one
    assert v["money-day"]["off"] is None and "not counted again" in v["money-day"]["why"]
    # the modelled day: 10,000 GPUs x $42.00/4 (CoreWeave's GB200 on-demand, review 36e) x 14.4% x 24 h, $362.6k
    assert v["money-day"]["modelled"] == s["per_day_rent"] == pytest.approx(24 * 10_000 * 42 / 4 * (1.59 / 1.39 - 1))
    assert s["per_day_rent"] == pytest.approx(362_590, abs=1)
    assert s["per_day_gb300"] == pytest.approx(91_511, abs=1)
    assert s["per_day_gb200"] == pytest.approx(76_317, abs=1)
    assert s["rate_needed_gain"] == pytest.approx(16_000 / (10_000 * (1.59 / 1.39 - 1)))
    assert s["rate_needed_cut"] == pytest.approx(16_000 / (10_000 * (1 - 1.39 / 1.59)))


def test_money_uses_scene_22s_cost_per_gpu_hour(data, model_output):
    tco = model_output("capex-opex-tco")[0]
    assert data["summary"]["gpu_hour"] == pytest.approx(tco["summary"]["total_per_hour"], rel=1e-12)
    assert data["summary"]["gained_per_hour"] == pytest.approx(
        10_000 * tco["summary"]["total_per_hour"] * data["summary"]["groot_gain"])


def test_money_is_judged_at_blackwell_rent(data):
    """Review 36e, finding 1: the claim is about Blackwell racks, so the GR00T gain's GPU-hours are valued at
    CoreWeave's on-demand GB200 NVL72 list price ($42.00 an hour for 4 GPUs, second-hand, September 2026): $15,108
    an hour, 5.6% short of $16k, just outside the 5% tolerance; owner's costs are readings in the range."""
    s, v = data["summary"], data["records"]["verdicts"]["money-hour"]
    gain = 1.59 / 1.39 - 1
    assert (s["rent_gb200"], s["rent_b200"]) == (pytest.approx(10.50), pytest.approx(8.60))
    assert s["rented_gb200"] == pytest.approx(10_000 * 10.50 * gain) == pytest.approx(15_108, abs=1)
    assert s["rented_b200"] == pytest.approx(10_000 * 8.60 * gain) == pytest.approx(12_374, abs=1)
    assert v["modelled"] == s["rented_gb200"] == s["money_high"]
    # review 36b, finding 4: GB300 at GB200 rent x its 20% cost-of-ownership premium, $12.60, $18.1k/h
    assert s["rent_gb300_est"] == pytest.approx(10.50 * 2.65 / 2.21) == pytest.approx(12.59, abs=0.01)
    assert v["high"] == s["rented_gb300_est"] == pytest.approx(10_000 * s["rent_gb300_est"] * gain)
    assert v["high"] > 16_000 > v["modelled"]
    assert v["verdict"] == "holds if" and v["off"] is None and "$11.12" in v["why"]
    assert not pt.close(s["rented_gb200"], 16_000) and pt.close(s["rented_gb200"], 16_000, 0.06)  # narrowly off
    assert s["rent_gb200_over_needed"] == pytest.approx(10.50 / s["rate_needed_gain"])
    assert "5.6% short" in v["why"] and "second-hand" in v["why"] and "Contact sales" in v["why"]
    # SemiAnalysis: GB300 $2.65 is 'a 20% per-GPU TCO premium' over GB200's $2.21 (2.65/2.21 = 1.199)
    assert CONSTANTS["semianalysis_gb300_tco_per_gpu_hour"].value / claim("semianalysis_gb200_tco_per_gpu_hour") \
        == pytest.approx(1.2, abs=0.005)
    assert s["gained_per_hour_gb200"] == pytest.approx(10_000 * 2.21 * gain)  # about $3,180 an hour
    assert s["gained_per_hour_gb300"] == pytest.approx(10_000 * 2.65 * gain) == pytest.approx(3_813, abs=1)
    assert "$3,813" in v["why"] and "$3,180" in v["why"]
    assert s["rate_needed_over_gb200"] == pytest.approx(s["rate_needed_gain"] / 2.21) == pytest.approx(5.03, abs=0.01)
    # the other reading, 43% of 10,000 GPUs: $16k/h needs 16,000 / 4,300 = $3.72 a GPU-hour, 1.68x GB200's TCO
    assert s["rate_needed_loss"] == pytest.approx(16_000 / 4_300) == pytest.approx(3.72, abs=0.005)
    assert s["rate_needed_loss_over_gb200"] == pytest.approx(3.72 / 2.21, abs=0.005)
    c = CONSTANTS["coreweave_gb200_on_demand_price"]
    assert c.source == "coreweave-pricing-2026" and "second-hand" in c.note


def test_bandwidth_ratio_per_direction_and_mixed(data):
    s = data["summary"]
    assert s["nvlink_dir"] == 0.9e12  # 1.8 TB/s bidirectional, halved
    assert s["ratio_dir"] == pytest.approx(18.0, rel=1e-12)  # 900 GB/s / 50 GB/s
    assert s["ratio_mixed"] == pytest.approx(36.0, rel=1e-12)
    assert s["aggregate"] == pytest.approx(72 * 1.8e12)  # 129.6 TB/s, NVIDIA's "130 TB/s"


def test_series_reliability(data):
    s = data["summary"]
    # the rack from Llama 3's record (its 4-GPU node over 18 nodes), not from the video's 490 days
    assert s["rack_mtbf"] == pytest.approx(s["llama_node_mtbf"] / 18)
    assert s["rack_mtbf_video"] == pytest.approx(490 * DAY / 18)  # 27.2 days, the video's own arithmetic
    assert s["rack_mtbf"] / DAY == pytest.approx(29.3, abs=0.05)  # +8.6%: outside the tolerance, inside RSC's range
    assert s["rack_mtbf_low"] < claim("video_rack_mtbf") < s["rack_mtbf_high"]
    assert s["racks"] == math.ceil(10_000 / 72) == 139
    assert s["cluster_rack_interval"] == pytest.approx(s["llama_node_mtbf"] / 18 / 139)  # 5.1 h at Llama 3's rate
    # Llama 3: 54 days × 16,384 GPUs / 419 interruptions, per 4 GPUs
    assert s["llama_node_mtbf"] / DAY == pytest.approx(54 * 16384 / 419 / 4)
    # Kokolis et al.: 1000/6.50 and 1000/2.34 node-days per failure for 8-GPU nodes, ×2 for 4 GPUs
    assert s["rsc_low"] / DAY == pytest.approx(2 * 1000 / 6.50)
    assert s["rsc_high"] / DAY == pytest.approx(2 * 1000 / 2.34)
    # review 54: a rack of 18 trays, 139 racks, at the clusters' rates: 3.0 to 8.2 hours
    assert s["cluster_rack_interval_low"] / HOUR == pytest.approx(2 * 1000 / 6.50 * 24 / 18 / 139)
    assert s["cluster_rack_interval_high"] / HOUR == pytest.approx(2 * 1000 / 2.34 * 24 / 18 / 139)
    lo, hi = s["cluster_rack_interval_low"] / HOUR, s["cluster_rack_interval_high"] / HOUR
    assert (round(lo, 1), round(hi, 1)) == (3.0, 8.2)


# --- the solved assumptions ------------------------------------------------------------------------
def test_exposed_share_for_the_43_percent_loss_round_trips(data):
    s = data["summary"]
    r = s["ratio_dir"]
    assert float(pt.loss_from_share(s["c_for_loss"], r)) == pytest.approx(claim("video_placement_loss"))
    assert float(pt.spread_share(s["c_for_60"], r)) == pytest.approx(claim("video_comm_share"))
    assert s["c_for_loss"] == pytest.approx((1 / 0.57 - 1) / 17)


def test_placement_loss_from_scene_14s_times(data):
    s, comm = data["summary"], data["records"]["comm"]
    assert s["c_packed"] == pytest.approx(sum(comm["packed"].values()))
    assert s["c_spread"] == pytest.approx(sum(comm["spread"].values()))
    assert s["loss"] == pytest.approx(1 - (s["t_compute"] + s["c_packed"]) / (s["t_compute"] + s["c_spread"]))
    assert comm["spread"]["tensor"] == comm["packed"]["tensor"]  # TP 4 stays in a 4-GPU tray
    assert comm["spread"]["data"] > 10 * comm["packed"]["data"]  # the gradient all-reduce crosses IB
    assert s["loss"] < claim("video_placement_loss")


def test_the_headline_is_the_overlapped_loss_and_nothing_overlapped_bounds_it(data):
    # by hand: the gradient all-reduce leaves both steps, the rest of the communication stays exposed
    s, c = data["summary"], data["records"]["comm"]
    tc = s["t_compute"]
    hidden = 1 - (tc + s["c_packed"] - c["packed"]["data"]) / (tc + s["c_spread"] - c["spread"]["data"])
    assert s["loss_overlapped"] == pytest.approx(hidden, rel=1e-12) == pytest.approx(0.00559, abs=1e-5)
    assert s["loss_overlapped"] < s["loss"]  # nothing overlapped is the bound
    v = data["records"]["verdicts"]["placement"]
    # one range rule with the communication row: both jobs at every batch swept (review 36b, finding 3), counted
    # with the pipeline bubble (review 36c, finding 2): the bubble (3/16 of compute) lengthens both steps alike
    batch = data["records"]["batch_sweep"]
    tb = tc * (1 + 3 / 16)
    counted = 1 - (tb + s["c_packed"] - c["packed"]["data"]) / (tb + s["c_spread"] - c["spread"]["data"])
    assert v["low"] == s["loss_overlapped_bubble"] == pytest.approx(counted, rel=1e-12)
    assert v["high"] == max(max(r["loss_bubble"], r["variant_loss_bubble"]) for r in batch) \
        == pytest.approx(0.513, abs=1e-3)


def test_the_headline_hides_only_behind_the_last_microbatchs_backward(data):
    """Review 54: with 16 accumulated microbatches the gradient all-reduce can overlap only the last one's
    backward (4 of its 6 FLOPs per weight per token): 2/3 x 3.36 s / 16 = 140 ms of the spread 525 ms. The compute
    by hand on the GB200's GPU: 6 x 70e9 x 524,288 tokens / (64 x 2.5 PFLOP/s x 41%) = 3.357 s."""
    s, c = data["summary"], data["records"]["comm"]
    tc, m = s["t_compute"], s["microbatches"]
    assert tc == pytest.approx(6 * 70e9 * 4 * 16 * 8192 / (64 * 2.5e15 * 0.41), rel=1e-12)
    window = (4 / 6) * tc / m
    assert s["overlap_window"] == pytest.approx(window, rel=1e-12) == pytest.approx(0.1399, abs=1e-4)
    assert c["packed"]["data"] < window < c["spread"]["data"]  # packed it hides wholly, spread it does not
    packed = tc + c["packed"]["tensor"] + c["packed"]["pipeline"]
    spread = tc + c["spread"]["tensor"] + c["spread"]["pipeline"] + c["spread"]["data"] - window
    assert s["loss_capped"] == pytest.approx(1 - packed / spread, rel=1e-12) == pytest.approx(0.0996, abs=1e-4)
    assert s["loss_overlapped"] < s["loss_capped"] < s["loss"]
    # the figure's point: packed, the whole all-reduce hides, so only tensor and pipeline traffic stays exposed
    other = s["c_packed"] - c["packed"]["data"]
    assert s["share_packed_capped"] == pytest.approx(other / (tc + other), rel=1e-12)
    v = data["records"]["verdicts"]["placement"]
    # the verdict's number counts the bubble (review 36c, finding 2): 3/16 of compute in both steps
    bubble = tc * 3 / 16
    assert s["loss_capped_bubble"] == pytest.approx(1 - (packed + bubble) / (spread + bubble), rel=1e-12)
    assert v["modelled"] == s["loss_capped_bubble"] and v["verdict"] == "holds if"
    # the cause the video names, at the page's batch, is off by about -80%
    assert s["placement_cause_off"] == pytest.approx(0.0862 / 0.43 - 1, abs=1e-3)
    # the video's own GR00T run: 1 - 1.39/1.59 = 12.6% lost by the spread placement, 3.4x below 43%; not checkable,
    # so it no longer stands beside the claim as corroboration
    assert s["groot_loss"] == pytest.approx(1 - 1.39 / 1.59) and v["beside"] is None
    assert claim("video_placement_loss") / s["groot_loss"] == pytest.approx(3.42, abs=0.01)


def test_the_60_percent_claim_is_an_upper_bound_the_model_reaches(data):
    s, v = data["summary"], data["records"]["verdicts"]["communication"]
    share = s["variant_spread"] / (s["variant_compute"] + s["variant_spread"])
    assert s["variant_share_spread"] == pytest.approx(share, rel=1e-12) == pytest.approx(0.526, abs=1e-3)
    # review 36d, finding 3: the verdict counts the bubble in the step: (2 - 1)/16 of the variant's compute
    counted = s["variant_spread"] / (s["variant_compute"] * (1 + 1 / 16) + s["variant_spread"])
    assert s["variant_share_spread_bubble"] == pytest.approx(counted, rel=1e-12)
    assert v["modelled"] == s["variant_share_spread_bubble"]
    # at the page's batch the job nearest the 43% loss is short of 60% by more than the tolerance ...
    assert abs(share / claim("video_comm_share") - 1) > pt.TOLERANCE
    # ... but "up to" is a bound: the variant at 4 sequences per rank is 61.2% (within 5% of 60%), the stated job
    # at 2 about 57%
    rows = {r["sequences_per_dp_rank"]: r for r in data["records"]["batch_sweep"]}
    assert rows[4]["variant_share_spread"] == pytest.approx(0.612, abs=1e-3)
    assert rows[2]["share_spread"] == pytest.approx(0.575, abs=0.005)
    # the batch row at the page's batch is the page's own step
    assert rows[16]["variant_share_spread"] == pytest.approx(share, rel=1e-12)
    assert rows[16]["share_spread"] == pytest.approx(s["share_spread"], rel=1e-12)
    # the range's top counts the bubble too: the variant at 2 sequences per rank, (2 - 1)/2 of its compute idle,
    # 59.5% (68.8% left out), still within the tolerance of 60%
    assert rows[2]["variant_share_spread"] == pytest.approx(0.688, abs=1e-3)
    assert rows[2]["variant_share_spread_bubble"] == pytest.approx(0.595, abs=1e-3) == s["comm_share_max"]
    assert v["verdict"] == "holds if" and v["low"] < v["high"] == s["comm_share_max"]
    assert abs(v["high"] / 0.6 - 1) <= pt.TOLERANCE
    # the condition: 60% of a spread step at r = 18 needs c = 0.6/(18 - 0.6*17) = 1/13 of the packed step exposed
    assert s["c_for_60"] == pytest.approx(0.6 / (18 - 0.6 * 17)) == pytest.approx(1 / 13)
    assert "7.7%" in v["why"]


def test_the_serving_low_end_is_neither_of_the_benchmarks_ratios(data):
    s, v = data["summary"], data["records"]["verdicts"]["serving-low"]
    low = claim("video_serving_gain_low")
    assert abs(s["serving_at_iso"] / low - 1) > pt.TOLERANCE and abs(s["serving_at_peak"] / low - 1) > pt.TOLERANCE
    assert v["verdict"] == "not checkable here" and v["modelled"] is None


def test_repair_time_for_the_27_percent_gain(data):
    s = data["summary"]
    m = claim("video_node_mtbf")
    gain = usable_capacity(16, 2, m, s["repair_needed"]) / usable_capacity(18, 0, m, s["repair_needed"]) - 1
    assert gain == pytest.approx(0.27, abs=1e-9)
    assert 5 * DAY < s["repair_needed"] < 20 * DAY
    assert s["gain_at_repair"] < 0


def test_hand_checked_spare_gain_with_no_repairs_is_a_loss_of_two_nodes():
    # with repairs instant, nothing is ever down: 16 of 18 nodes work, against all 18
    assert float(pt.spare_gain(16, 2, 490 * DAY, 1e-9)) == pytest.approx(16 / 18 - 1, abs=1e-9)
    assert pt.repair_for_gain(-0.5, 16, 2, 490 * DAY) is None


def test_defragmentation_wait_simulation_agrees(data):
    s = data["summary"]
    assert s["wait_no_preempt"] == pytest.approx(4 * HOUR * sum(1 / k for k in range(1, 10)))
    assert abs(s["mc_wait"] - s["wait_no_preempt"]) <= 3 * s["mc_wait_se"]
    assert s["delta"] == pytest.approx(8e9 * 14 / 10e9)  # 2 + 12 bytes per parameter at 10 GB/s
    assert s["lost_gpu_hours"] < s["saved_gpu_hours"]


def test_a_changed_claim_breaks_the_checks(scene_params):
    p = scene_params(SCENE)
    p["claims_per_day"] = 500_000  # 23% above a day of $16k an hour: outside the tolerance
    with pytest.raises(ClaimError, match="within the 5% tolerance of the claim's"):
        pt.placement_tax(**p)
    p = scene_params(SCENE)
    p["grad_bytes"] = 10 * p["grad_bytes"]  # ten times the gradient bytes: spreading now costs more
    with pytest.raises(ClaimError, match="with nothing overlapped the stated job loses less than 43%"):
        pt.placement_tax(**p)


def test_figure_series(data):
    s = data["series"]
    assert np.all(np.diff(s["loss"]) > 0) and np.all(np.asarray(s["spread_share"]) >= np.asarray(s["loss"]))
    assert np.all(np.diff(s["spare_gain"]) > 0)


def test_variant_with_tensor_groups_across_trays_reaches_the_claim_only_with_the_bubble_left_out(data):
    # review 36c, finding 3: on the GB200's GPU the variant's worst case is 41.0%, inside 5% of 43%; counted with
    # the bubble ((2 - 1)/16 of compute), 39.8%, outside (finding 2)
    s = data["summary"]
    x = s["variant_exposure"]
    loss = 1 - (s["variant_compute"] + x * s["variant_packed"]) / (s["variant_compute"] + x * s["variant_spread"])
    assert loss == pytest.approx(claim("video_placement_loss"), rel=1e-12)
    assert x > 1  # 43% needs more than all of the communication exposed
    assert s["variant_loss"] == pytest.approx(0.410, abs=1e-3)
    assert abs(s["variant_loss"] / claim("video_placement_loss") - 1) <= pt.TOLERANCE
    tb = s["variant_compute"] * (1 + 1 / 16)
    counted = 1 - (tb + s["variant_packed"]) / (tb + s["variant_spread"])
    assert s["variant_loss_bubble"] == pytest.approx(counted, rel=1e-12) == pytest.approx(0.398, abs=1e-3)
    assert abs(s["variant_loss_bubble"] / claim("video_placement_loss") - 1) > pt.TOLERANCE
    assert s["variant_reaches_page"] is True and s["variant_reaches_page_bubble"] is False
    assert s["variant_short"] == pytest.approx(1 - s["variant_loss"] / claim("video_placement_loss"))
    assert s["loss"] < s["variant_loss"] < claim("video_placement_loss")


def test_variant_tensor_rings_run_on_the_trays_four_ports(data, scene_params):
    # TP 8 spread over two 4-GPU trays: a 4 + 4 split, one channel per GPU's port, so 4 × 50 GB/s; the
    # tensor all-reduces by hand with Scene 14's traffic formulas and the α-β ring
    p, s = scene_params(SCENE), data["summary"]
    t, pp, dp = p["variant_tp"], p["variant_pp"], p["variant_dp"]
    assert (t, p["claims_node_gpus"]) == (8, 4)
    m = p["sequences_per_dp_rank"] // p["micro_batch"]
    tr = traffic_per_gpu(t, pp, dp, p["micro_batch"], p["seq"], p["hidden"], p["layers"], m, p["model_params"],
                         p["act_bytes"], p["grad_bytes"])
    # review 36e: of the ring's 2(8 - 1) = 14 steps, the 2(2 - 1) = 2 that cross between the trays pay the
    # network latency, the other 12 NVLink's (NCCL's two-level ring latency)
    assert (s["variant_ring_steps"], s["variant_inter_steps"]) == (14, 2)
    n = tr["message"]["tensor"]
    one = 12 * p["nvlink_latency"] + 2 * p["net_latency"] + 2 * 7 / 8 * n / (4 * p["port_rate"])
    assert s["variant_tensor_spread"] == pytest.approx(tr["count"]["tensor"] * one) == pytest.approx(3.183, abs=1e-3)
    # every step at the network's latency (the old model) would charge 0.33 s more a step
    flat = float(ring_time(n, t, 4 * p["port_rate"], p["net_latency"]))
    assert tr["count"]["tensor"] * flat - s["variant_tensor_spread"] == pytest.approx(
        tr["count"]["tensor"] * 12 * (p["net_latency"] - p["nvlink_latency"]))
    one_port = float(ring_time(tr["message"]["tensor"], t, p["port_rate"], p["net_latency"]))
    assert s["variant_tensor_spread"] < 0.3 * tr["count"]["tensor"] * one_port  # not one port's time


def test_the_page_s_step_counts_are_the_shared_placement_maths(data, scene_params):
    # the summary's 14 and 2 (ring_inter_node_steps) are what dimension_times charges the spread TP-8 ring:
    # ring_step_levels on a group with 4 GPUs in each of two trays, trays in different racks of one pod
    p, s = scene_params(SCENE), data["summary"]
    domain, tray = int(p["nvl72_gpus"]), int(p["claims_node_gpus"])
    group = np.concatenate([np.arange(tray), domain + np.arange(tray)])[None, :]
    steps = ring_step_levels(group, (domain, domain, domain * int(p["claims_job_nodes"])))[0]
    assert steps.sum() == s["variant_ring_steps"] and steps[1:].sum() == s["variant_inter_steps"]
    assert steps.tolist() == [12, 0, 2, 0]


def test_a_variant_left_on_one_port_would_break_the_checks(scene_params, monkeypatch):
    # planted: every split ring charged one port, the old model; the variant then loses far more than 43%
    p = scene_params(SCENE)
    monkeypatch.setattr(pt, "dimension_channels",
                        lambda groups, node_gpus: {d: np.ones(g.shape[0], dtype=int) for d, g in groups.items()})
    with pytest.raises(ClaimError, match="the variant reaches 43% within the tolerance, from below"):
        pt.placement_tax(**p)


def test_variant_with_its_gradient_all_reduce_hidden_misses_the_claim(data):
    # by hand from the per-dimension times: the data-parallel term drops out of both steps
    s, c = data["summary"], data["records"]["variant_comm"]
    tc = s["variant_compute"]
    hidden = 1 - (tc + sum(c["packed"].values()) - c["packed"]["data"]) / (tc + sum(c["spread"].values())
                                                                           - c["spread"]["data"])
    assert s["variant_loss_dp_hidden"] == pytest.approx(hidden, rel=1e-12) == pytest.approx(0.367, abs=1e-3)
    assert abs(s["variant_loss_dp_hidden"] / claim("video_placement_loss") - 1) > pt.TOLERANCE
    sweep = [r for r in data["records"]["overlap"] if r["dimension"] == "data"]
    assert [r["hidden"] for r in sweep] == [0.0, 0.25, 0.5, 0.75, 1.0]
    assert sweep[0]["variant_loss"] == pytest.approx(s["variant_loss"])
    assert sweep[-1]["variant_loss"] == pytest.approx(s["variant_loss_dp_hidden"])
    assert sweep[-1]["loss"] == pytest.approx(s["loss_dp_hidden"]) and s["loss_dp_hidden"] < 0.1 * s["loss"]


def test_gradient_and_pipeline_traffic_alone_cost_about_what_the_stated_job_loses(data):
    s, c = data["summary"], data["records"]["variant_comm"]
    tc, packed = s["variant_compute"], sum(c["packed"].values())
    # spread, only the gradient and pipeline traffic slows: tensor all-reduces at their packed time
    alone = 1 - (tc + packed) / (tc + c["packed"]["tensor"] + c["spread"]["data"] + c["spread"]["pipeline"])
    assert s["variant_loss_no_tensor"] == pytest.approx(alone, rel=1e-12)
    assert s["variant_loss_no_tensor"] < s["loss"] * 1.2 < s["variant_loss"]


def test_variant_nvls_tree_floor_by_hand(data, scene_params):
    # each tray's 4 ports carry the message out once: count · n / (4 · 50 GB/s)
    p, s = scene_params(SCENE), data["summary"]
    m = p["sequences_per_dp_rank"] // p["micro_batch"]
    tr = traffic_per_gpu(p["variant_tp"], p["variant_pp"], p["variant_dp"], p["micro_batch"], p["seq"], p["hidden"],
                         p["layers"], m, p["model_params"], p["act_bytes"], p["grad_bytes"])
    assert s["variant_tensor_channels"] == 4
    floor = tr["count"]["tensor"] * tr["message"]["tensor"] / (4 * p["port_rate"])
    assert s["variant_tensor_nvls_floor"] == pytest.approx(floor) == pytest.approx(1.718, rel=1e-3)
    assert s["variant_loss_nvls_floor"] == pytest.approx(0.256, abs=1e-3)
    assert s["variant_loss_nvls_floor"] < s["variant_loss"]
    # review 53: packed, NVLS reduces in the switches: count · n / 900 GB/s (0.382 s against the ring's 0.790 s);
    # on both placements 32.8 %, NVLS packed against a ring spread 46.7 %: the ring's 41.0 % lies between
    packed = tr["count"]["tensor"] * tr["message"]["tensor"] / (p["nvlink_bw"] / 2)
    assert s["variant_tensor_nvls_packed"] == pytest.approx(packed) == pytest.approx(0.382, rel=1e-3)
    assert s["variant_loss_nvls_both"] == pytest.approx(0.328, abs=1e-3)
    assert s["variant_loss_packed_nvls"] == pytest.approx(0.467, abs=1e-3)
    assert s["variant_loss_nvls_both"] < s["variant_loss"] < s["variant_loss_packed_nvls"]


def test_the_stated_jobs_loss_grows_as_the_batch_shrinks(data, scene_params):
    """The gradient all-reduce is the same bytes at every batch; compute scales with the tokens. By hand at the
    page's batch the loss is the summary's; halving the batch raises it at every step of the sweep."""
    rows, s, p = data["records"]["batch_sweep"], data["summary"], scene_params(SCENE)
    page = next(r for r in rows if r["page"])
    assert page["sequences_per_dp_rank"] == p["sequences_per_dp_rank"] and page["loss"] == pytest.approx(s["loss"])
    assert [r["sequences_per_dp_rank"] for r in rows] == [16, 8, 4, 2]
    assert [round(r["loss"], 3) for r in rows] == [0.123, 0.214, 0.346, 0.505]
    assert rows[-1]["tokens"] == p["dp"] * 2 * p["seq"]
    # review 53: the 1F1B bubble, (p - 1)/m of compute: PP 4 over 16, 8, 4, 2 microbatches -> 3/16 ... 3/2
    assert [r["bubble_share"] for r in rows] == pytest.approx([3 / 16, 3 / 8, 3 / 4, 3 / 2])
    assert [round(r["loss_bubble"], 3) for r in rows] == [0.107, 0.169, 0.241, 0.308]
    assert s["loss_bubble"] == pytest.approx(rows[0]["loss_bubble"])
    # the variant, PP 2: (2 - 1)/m of its compute; counted it reaches 43% (within 5%) at 8 per rank, not at 16
    assert [round(r["variant_loss_bubble"], 3) for r in rows] == [0.398, 0.423, 0.462, 0.513]
    assert s["variant_reach_seqs_bubble"] == 8 and s["variant_reach_loss_bubble"] == pytest.approx(rows[1][
        "variant_loss_bubble"])
    assert rows[1]["variant_loss_bubble"] >= 0.43 * (1 - pt.TOLERANCE) > rows[0]["variant_loss_bubble"]


def test_the_overlap_check_catches_a_model_that_ignores_overlap(scene_params, monkeypatch):
    # planted: hiding communication changes nothing; the variant would then keep its 43% with gradients hidden
    real = pt.hidden_loss
    monkeypatch.setattr(pt, "hidden_loss", lambda compute, comm, hidden: real(compute, comm, {}))
    # the stated job's check fires first now that its headline is the overlapped loss
    with pytest.raises(ClaimError, match="hiding the gradient all-reduce behind backward shrinks"):
        pt.placement_tax(**scene_params(SCENE))


def test_the_floor_check_catches_a_floor_no_lower_than_the_ring(scene_params, monkeypatch):
    # planted: the 'floor' charges the ring's own time, so NVLS_TREE would change nothing
    monkeypatch.setattr(pt, "variant_nvls_floor",
                        lambda p, traffic, comm: {"channels": 4, "tensor": comm["spread"]["tensor"],
                                                  "tensor_packed": comm["packed"]["tensor"]})
    with pytest.raises(ClaimError, match="the ring's loss lies between"):
        pt.placement_tax(**scene_params(SCENE))


def test_each_claim_has_a_source_kind_and_links_built_scenes(data, catalogue):
    ids = {s.id for s in catalogue.scenes}
    for k, v in data["records"]["verdicts"].items():
        assert v["source"] in ("measured", "measured (substitute: Llama 3 / RSC)", "derived", "vendor-adjacent"), k
        assert v["scenes"] and set(v["scenes"]) <= ids, k


# --- the NIC count, the switch chips, the spares' unavailable share ---------------------------------
def test_the_trays_nic_count_is_read_from_the_dgx_gb200_guide(scene_params):
    c = CONSTANTS["gb200_tray_compute_nics"]
    assert c.value == 4 and c.source == "nvidia-dgx-gb200-user-guide"
    assert scene_params(SCENE)["tray_nics"] == c.value


def test_a_tray_with_one_nic_would_leave_the_variant_one_channel(scene_params):
    # planted: one ConnectX per tray (the old model's lone port); the NIC cap leaves the split ring one channel
    # and the variant then loses far more than the claim
    p = scene_params(SCENE)
    p["tray_nics"] = 1
    with pytest.raises(ClaimError, match="the variant reaches 43% within the tolerance, from below"):
        pt.placement_tax(**p)


def test_the_nic_cap_divides_a_split_rings_bandwidth_term(data, scene_params):
    p = scene_params(SCENE)
    m = p["sequences_per_dp_rank"] // p["micro_batch"]
    tr = traffic_per_gpu(8, 2, 4, p["micro_batch"], p["seq"], p["hidden"], p["layers"], m, p["model_params"],
                         p["act_bytes"], p["grad_bytes"])
    rates = np.array([450e9, p["port_rate"], p["port_rate"], p["port_rate"]])
    alphas = np.zeros(4)  # bandwidth terms alone: four channels take a quarter of one's time
    four = pt.placement_comm(8, 2, 4, tr, 72, 4, 16, rates, alphas, 4)["spread"]["tensor"]
    one = pt.placement_comm(8, 2, 4, tr, 72, 4, 16, rates, alphas, 1)["spread"]["tensor"]
    assert four == pytest.approx(one / 4, rel=1e-12)


def test_eighteen_switch_chips_from_the_links_and_ports(data):
    s = data["summary"]
    # 72 GPUs × 18 links end on 9 trays × 144 ports; a chip has 14.4 TB/s / (2 chips × 100 GB/s) = 72 ports
    assert s["nvlink_links_total"] == 72 * 18 == 9 * 144
    assert s["switch_ports_per_chip"] == pytest.approx(72)
    assert s["switch_chips"] == pytest.approx(claim("video_switch_chips")) and s["switch_chips_per_tray"] == 2


def test_switch_trays_short_of_the_links_break_the_check(scene_params):
    p = scene_params(SCENE)
    p["switch_trays"] = 8
    with pytest.raises(ClaimError, match="take every GPU's NVLink links"):
        pt.placement_tax(**p)


def test_the_spares_condition_is_an_unavailable_share(data):
    s = data["summary"]
    m, r = claim("video_node_mtbf"), s["repair_needed"]
    assert s["unavailable_needed"] == pytest.approx(r / (m + r), rel=1e-12)
    assert 0.015 < s["unavailable_needed"] < 0.025  # about 2% of the time down
    assert s["unavailable_at_repair"] == pytest.approx(DAY / (m + DAY), rel=1e-12)


def test_a_model_that_hides_the_whole_all_reduce_breaks_the_checks(scene_params, monkeypatch):
    # planted: no cap on what can overlap, the headline back at full overlap (review 54's finding)
    monkeypatch.setattr(pt, "overlap_window", lambda compute, microbatches: math.inf)
    with pytest.raises(ClaimError, match="capped at the last microbatch's backward"):
        pt.placement_tax(**scene_params(SCENE))


# --- verdicts from the tolerance, the spares over racks, the fleet's cost ------------------------------
def test_judge_derives_each_verdict_from_the_tolerance():
    assert pt.judge(1.04, 1.0) == "reproduced" and pt.judge(1.04, 1.0, conditional=True) == "holds if"
    assert pt.judge(1.10, 1.0) == "off by"
    assert pt.judge(1.10, 1.0, 0.5, 2.0) == "holds if"  # the claim inside the modelled range
    assert pt.judge(0.2, 1.0, 0.1, 0.96) == "holds if"  # within tolerance of the range's end
    assert pt.judge(0.2, 1.0, 0.1, 0.9) == "off by"  # a range that stops short of it
    assert pt.judge(None, 1.0) == "not checkable here"


def test_spares_over_k_racks_by_hand(data):
    # at the one-day repair q = 1/491; over k racks the rigid job needs all 18k nodes up, with spares each rack
    # needs 16 of its 18: gain = 16/18 * (P[at most 2 of 18 down] / (1 - q)^18)^k - 1
    q = DAY / (490 * DAY + DAY)
    a18 = sum(math.comb(18, j) * q**j * (1 - q) ** (18 - j) for j in range(3))
    rows = {r["racks"]: r["gain"] for r in data["records"]["spares_by_racks"]}
    for k in (1, 7, 8, 10):
        assert rows[k] == pytest.approx(16 / 18 * (a18 / (1 - q) ** 18) ** k - 1, rel=1e-9)
    assert rows[1] == pytest.approx(data["summary"]["gain_at_repair"])
    assert (round(rows[7], 3), round(rows[8], 3), round(rows[10], 3)) == (0.149, 0.192, 0.283)
    s = data["summary"]
    assert s["spare_k_positive"] == 4 and s["spare_k_claim"] == 10  # 28.3%, within 5% of 27%
    v = data["records"]["verdicts"]["hot-spares"]
    assert v["verdict"] == "holds if" and v["low"] < 0 < 0.27 < v["high"] and "10 racks" in v["why"]


def test_the_claimed_dollars_need_aws_s_2023_launch_price(data, model_output):
    tco = model_output("capex-opex-tco")[0]
    s, v = data["summary"], data["records"]["verdicts"]["money-hour"]
    # by hand: AWS p5 on-demand, $55.04 and $98.32 a node of 8 H100 -> $6.88 and $12.29 a GPU-hour; at the GR00T
    # 14.4% of 10,000 GPUs that is $9,899 to $17,683 an hour: only the July 2023 launch price reaches $16k, today's
    # list price (June 2025's cut) falls 38% short, so the launch price is shown, not judged (review 36d)
    assert (s["rent_low"], s["rent_high"]) == (pytest.approx(6.88), pytest.approx(12.29))
    gain = 1.59 / 1.39 - 1
    assert s["rented_low"] == pytest.approx(10_000 * 6.88 * gain) == pytest.approx(9_899, abs=1)
    assert s["rented_high"] == pytest.approx(10_000 * 12.29 * gain) == pytest.approx(17_683, abs=1)
    assert s["rent_low"] < s["rate_needed_gain"] < s["rent_high"] and "$11.12" in v["why"]
    assert s["rented_low"] < s["money_high"] < 16_000 and v["verdict"] == "holds if"
    assert s["rented_short"] == pytest.approx(1 - 9_899 / 16_000, abs=1e-4) == pytest.approx(0.381, abs=1e-3)
    assert "2023" in v["why"] and "shown, not judged" in v["why"]
    # the whole fleet's cost at an owned H100's rate lands on the claim: named a coincidence, not the reading
    assert s["fleet_per_hour"] == pytest.approx(10_000 * tco["summary"]["total_per_hour"], rel=1e-12)
    assert abs(s["fleet_over_claim"]) < pt.TOLERANCE  # $16,034/h against $16k/h
    assert "16,034" in v["beside"] and "coincidence" in v["beside"]


def test_node_and_rack_mtbf_are_rated_on_substitute_records(data):
    v = data["records"]["verdicts"]
    assert v["node-mtbf"]["why"].startswith("consistent with Llama 3 / RSC")
    assert v["node-mtbf-source"]["verdict"] == "not checkable here" and v["node-mtbf-source"]["modelled"] is None
    for k in ("node-mtbf", "rack-mtbf"):
        assert v[k]["source"] == "measured (substitute: Llama 3 / RSC)"
        assert not pt.close(v[k]["modelled"], v[k]["claimed"]) and v[k]["low"] < v[k]["claimed"] < v[k]["high"]


def test_the_variant_judged_as_the_stated_job_is_misses_the_claim(data):
    """Review 36e, findings 2 and 3: by hand, the TP-8 variant with the bubble left out of both steps (as the stated
    job's), its gradient all-reduce hidden behind the last backward (capped) and its tensor all-reduces at NVLS's
    floor in both placements; counted, the bubble ((p-1)/m = 1/16 of compute) dilutes it; every realistic change,
    and the worst case itself, is outside the tolerance."""
    s, vc = data["summary"], data["records"]["variant_comm"]
    w = s["variant_overlap_window"]

    def loss(tc):
        def step(where, tensor):
            c = vc[where]
            return tc + tensor + c["pipeline"] + max(0.0, c["data"] - w)
        return 1 - step("packed", s["variant_tensor_nvls_packed"]) / step("spread", s["variant_tensor_nvls_floor"])
    tc = s["variant_compute"]
    assert s["variant_loss_judged"] == pytest.approx(loss(tc), rel=1e-12) == pytest.approx(0.317, abs=1e-3)
    bubbled = loss(tc * (1 + (2 - 1) / s["microbatches"]))
    assert s["variant_loss_judged_bubble"] == pytest.approx(bubbled, rel=1e-12) == pytest.approx(0.305, abs=1e-3)
    # one convention: the stated job's headline counts the bubble too: 8.6%
    assert s["loss_capped_bubble"] == pytest.approx(0.086, abs=1e-3)
    assert s["loss_capped_bubble"] < s["loss_capped"]
    v = data["records"]["verdicts"]["placement"]
    assert v["high"] > s["variant_loss_judged"] and v["modelled"] == s["loss_capped_bubble"]
    for x in (s["variant_loss_judged"], s["variant_loss_bubble"], s["variant_loss_capped"],
              s["variant_loss_nvls_both"]):
        assert abs(x / 0.43 - 1) > pt.TOLERANCE
    # review 36d, finding 8: the row's "why" is short; the NVLS bound is named in the body's table of routes
    assert all(w in v["why"] for w in ("tensor all-reduces cross trays", "bubble counted", "cause the video names",
                                       "as the stated job is judged"))
    assert "no modelled job reproduces" not in v["why"]


def test_small_batch_crossing_and_bubble_maximum(data, model_output):
    """Review 36d, finding 3: every whole batch from 1 to 16 sequences per rank, run through the model's own step:
    nothing hidden and no bubble the stated job reaches 43% at 2 per rank (3 gives less); with the bubble counted
    none does, 35.9% at most (at 1 per rank, the bubble (p-1)/m = 300% of compute)."""
    s = data["summary"]
    assert s["batch_seqs_crossing"] == 2 and s["batch_seqs_bubble_max"] == 1
    assert s["batch_loss_bubble_max"] == pytest.approx(0.359, abs=1e-3)
    assert s["batch_loss_bubble_max"] < 0.43 * (1 - pt.TOLERANCE)
    sweep = {r["sequences_per_dp_rank"]: r for r in data["records"]["batch_sweep"]}
    assert sweep[2]["loss"] >= 0.43 > sweep[4]["loss"]
    assert s["batch_loss_bubble_max"] >= max(r["loss_bubble"] for r in sweep.values())


def test_the_layout_sweep_by_hand(data):
    """Review 36e, finding 5: the layouts at the stated job's global batch; the stated and variant rows are their own
    steps, TP4 x PP2 x DP8 (122.5 GB a GPU, fits) loses more than the stated job, less than the claim; TP4 x DP16
    (245 GB a GPU) does not fit unsharded and is listed, not computed (FSDP not modelled)."""
    s, rows = data["summary"], data["records"]["layouts"]
    by = {(r["tp"], r["pp"], r["dp"]): r for r in rows}
    assert list(by) == [(4, 4, 4), (8, 2, 4), (4, 2, 8), (4, 1, 16)]
    assert by[4, 4, 4]["stated"] and by[4, 4, 4]["loss"] == pytest.approx(s["loss"], rel=1e-12)
    assert by[4, 4, 4]["loss_capped"] == pytest.approx(s["loss_capped"], rel=1e-12)
    assert by[8, 2, 4]["variant"] and by[8, 2, 4]["loss"] == pytest.approx(s["variant_loss"], rel=1e-12)
    assert by[4, 2, 8]["state"] == pytest.approx(70e9 / 8 * 14) and by[4, 2, 8]["fits"]
    # DP 8, one GPU per tray: a ring of 8 over one 50 GB/s port, 2 * 7/8 of 70e9/8 FP32 gradients, 7 * 2 * 14 us
    dp_ring = 2 * 7 / 8 * 70e9 / 8 * 4 / 50e9 + 14 * 14e-6
    assert by[4, 2, 8]["data_spread"] == pytest.approx(dp_ring, rel=1e-9)
    assert s["loss"] < by[4, 2, 8]["loss"] < 0.43 * (1 - pt.TOLERANCE)
    assert by[4, 1, 16]["state"] == pytest.approx(245e9) and not by[4, 1, 16]["fits"]
    assert by[4, 1, 16]["loss"] is None


# --- review 36b: where 43% is reached, and the GB200's own GPU -----------------------------
def test_43_percent_is_reached_only_with_tensor_all_reduces_across_trays(data):
    s, batch = data["summary"], data["records"]["batch_sweep"]
    tol = s["tolerance"] * claim("video_placement_loss")
    # the stated job (gradient all-reduces across racks, the video's cause) is off at the page's batch
    assert s["placement_cause_off"] < -pt.TOLERANCE
    # the variant reaches it at a smaller batch: every batch at or below the crossing is within or above
    reach = [r for r in batch if r["variant_loss"] >= claim("video_placement_loss") - tol]
    assert reach and max(r["sequences_per_dp_rank"] for r in reach) == s["variant_reach_seqs"]
    # with the bubble left out the variant reaches at the page's batch (review 36c, finding 3); counted, only at
    # a smaller one
    assert s["variant_reach_seqs"] == data["params"]["sequences_per_dp_rank"]
    assert s["variant_reach_seqs_bubble"] < data["params"]["sequences_per_dp_rank"]
    assert s["variant_packed_nvls_reaches"] is True


def test_the_page_runs_on_the_gb200s_own_gpu_and_the_b200_is_one_row(data, scene_params):
    """Review 36c, finding 3: the scenario is a GB200 NVL72, so the GPU is its own (2.5 PFLOP/s dense BF16,
    186 GB); the HGX B200's GPU, slower, is one row whose compute grows by the peak ratio and whose losses shrink."""
    s, p = data["summary"], scene_params(SCENE)
    assert p["gpu"].key == "gb200" and p["gpu"].peak_bf16 == claim("gb200_bf16_dense_flops") == 2.5e15
    assert p["gpu"].hbm_capacity == claim("gb200_hbm_capacity") == 186e9 == s["hbm_capacity"]
    ratio = claim("gb200_bf16_dense_flops") / claim("b200_bf16_dense_flops")
    assert ratio == pytest.approx(2.5 / 2.25) == pytest.approx(s["gpu_peak_over_b200"])
    assert s["b200_t_compute"] == pytest.approx(s["t_compute"] * ratio, rel=1e-12)
    assert s["b200_loss_capped"] < s["loss_capped"] and s["b200_variant_loss"] < s["variant_loss"]
    # on the B200 the variant at the page's batch misses by more than the tolerance (the old page's 38.9%)
    assert s["b200_variant_loss"] == pytest.approx(0.389, abs=1e-3)
    assert s["b200_verdict"] == "off by" and s["b200_variant_reaches"] is False
    # review 36d, finding 4: the page says by how much (-79.5%), as the verdict table's "off by" does
    assert s["b200_off"] == pytest.approx(s["b200_loss_capped"] / 0.43 - 1, rel=1e-12)
    assert s["b200_off"] == pytest.approx(-0.795, abs=1e-3)


def test_the_mfu_is_swept_and_the_reach_thresholds_sit_on_the_tolerance(data, scene_params):
    """Review 36c, finding 3: the MFU (Llama 3's, on H100s) is swept; the threshold is where the loss meets
    the tolerance's edge, 43% x 0.95, and the variant's loss rises with the MFU."""
    s, rows, p = data["summary"], data["records"]["mfu_sweep"], scene_params(SCENE)
    assert [r["mfu"] for r in rows] == sorted(r["mfu"] for r in rows)
    assert sum(r["page"] for r in rows) == 1 and next(r for r in rows if r["page"])["mfu"] == p["mfu"]
    page = next(r for r in rows if r["page"])
    assert page["variant_loss"] == pytest.approx(s["variant_loss"]) and page["loss_capped"] == pytest.approx(
        s["loss_capped"]) and page["variant_loss_bubble"] == pytest.approx(s["variant_loss_bubble"])
    edge = 0.43 * (1 - pt.TOLERANCE)
    assert s["mfu_variant_reach"] < p["mfu"] < s["mfu_variant_bubble_reach"] < 0.45
    # every swept MFU on the threshold's side reaches, every one below it does not
    for r in rows:
        assert (r["variant_loss_bubble"] >= edge) == (r["mfu"] >= s["mfu_variant_bubble_reach"]), r["mfu"]
        assert (r["variant_loss"] >= edge) == (r["mfu"] >= s["mfu_variant_reach"]), r["mfu"]
    assert s["mfu_capped_reach"] is None  # the stated job, capped, never reaches 43% however fast its compute


# --- review 36d --------------------------------------------------------------------------------
def test_the_variants_thresholds_are_given_with_the_stated_jobs_overlap_too(data):
    """Review 36d, finding 1: judged like the stated job (gradient all-reduce behind the last backward, bubble
    counted), the variant reaches 43% at 8 sequences per rank (41.0%, the edge 40.85%) and needs a higher MFU than
    with nothing hidden; hiding part of the all-reduce only lowers each loss."""
    s, batch, mfus = data["summary"], data["records"]["batch_sweep"], data["records"]["mfu_sweep"]
    edge = 0.43 * (1 - pt.TOLERANCE)
    assert all(r["variant_loss_capped_bubble"] < r["variant_loss_bubble"] for r in batch)
    assert s["variant_reach_seqs_capped"] == 8 and s["variant_reach_loss_capped"] == pytest.approx(0.410, abs=1e-3)
    assert s["variant_reach_loss_capped"] >= edge
    assert s["mfu_variant_capped_reach"] == pytest.approx(0.448, abs=1e-3)
    assert s["mfu_variant_capped_reach"] > s["mfu_variant_bubble_reach"]
    for r in mfus:
        assert (r["variant_loss_capped_bubble"] >= edge) == (r["mfu"] >= s["mfu_variant_capped_reach"]), r["mfu"]
    why = data["records"]["verdicts"]["placement"]["why"]
    assert "as the stated job is judged" in why and "nothing hidden" in why


def test_the_money_row_names_both_of_its_conditions(data):
    """Review 36d, finding 2: the money verdict rests on a price and on GR00T's 14.4% (not checkable here) read as a
    gain; read as a cut (12.6%) it needs $16,000 / (10,000 x 0.126) = $12.72 a GPU-hour, and the row says so."""
    s, v = data["summary"], data["records"]["verdicts"]
    assert s["rate_needed_cut"] == pytest.approx(12.72, abs=0.005)
    assert s["rate_needed_cut"] > s["rate_needed_gain"]
    assert v["groot"]["verdict"] == "not checkable here"
    why = v["money-hour"]["why"]
    assert "not checkable here" in why and "$12.72" in why and "step-time cut" in why
