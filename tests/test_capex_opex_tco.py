"""capex-opex-tco · the cost of a GPU-hour: the parts add up, the 1/u idle tax, the inputs the page
quotes with their sources, and the claims the page makes (the rates' arithmetic: test_lib_cost.py)."""

from __future__ import annotations

import pytest

from models import capex_opex_tco as tco
from models.constants import CONSTANTS
from models.exhibit import ClaimError
from models.lib.cost import cost_parts
from models.units import DAY

SCENE = "capex-opex-tco"
YEAR = 365.25 * DAY


@pytest.fixture(scope="module")
def data(model_output):
    return model_output(SCENE)[0]


def test_the_parts_sum_to_the_total(data):
    s = data["summary"]
    parts = [s[f"{k}_per_hour"] for k, _, _ in tco.PARTS]
    assert sum(parts) == pytest.approx(s["total_per_hour"], rel=1e-12)
    assert s["capex_per_hour"] + s["opex_per_hour"] == pytest.approx(s["total_per_hour"], rel=1e-12)
    # CapEx is the hardware's depreciation and its financing; OpEx the running costs
    capex = s["server_per_hour"] + s["network_per_hour"] + s["storage_per_hour"] + s["financing_per_hour"]
    assert s["capex_per_hour"] == pytest.approx(capex, rel=1e-12)
    assert sum(s[f"{k}_share"] for k, _, _ in tco.PARTS) == pytest.approx(1.0, rel=1e-12)
    rows = data["table"]["rows"]
    assert sum(r[1] for r in rows[: len(tco.PARTS)]) == pytest.approx(s["total_per_hour"], rel=1e-12)


def test_the_idle_tax_scales_as_one_over_utilisation(data):
    s = data["series"]
    total = data["summary"]["total_per_hour"]
    for u, c in zip(s["utilisation"], s["cost_per_useful"]):
        assert c * u == pytest.approx(total, rel=1e-12)
    assert data["problems"]["half_idle"]["useful"] == pytest.approx(2 * total, rel=1e-12)
    assert data["summary"]["useful_per_hour"] == pytest.approx(total / data["params"]["utilisation"])


def test_inputs_come_from_their_sources(scene_params):
    p = scene_params(SCENE)
    # 10-K filings: Meta 5.5 years (fiscal 2025), Amazon 5 (2025), Microsoft 6 (fiscal 2023)
    assert p["useful_life"] / YEAR == pytest.approx(5.5)
    assert (p["useful_life_low"] / YEAR, p["useful_life_high"] / YEAR) == pytest.approx((5.0, 6.0))
    # the economic life the tornado sweeps down to (an assumption) and the cost of capital (assumptions)
    assert p["economic_life"] / YEAR == pytest.approx(3.0)
    assert (p["cost_of_capital_low"], p["cost_of_capital"], p["cost_of_capital_high"]) == (0.05, 0.08, 0.12)
    # Llama 3 §3.3.1: the aggregation layer is oversubscribed 1:7
    assert p["aggregation_oversubscription"] == CONSTANTS["llama3_aggregation_oversubscription"].value == 7
    # EIA Electric Power Monthly Table 5.6.A, April 2025, industrial: OH 7.90, IA 6.04, CT 19.07 ¢/kWh
    assert (p["tariff"], p["tariff_low"], p["tariff_high"]) == pytest.approx((0.0790, 0.0604, 0.1907))
    # Google 2025 Environmental Report: fleet PUE 1.09 in 2024; CBRE H2 2023: $163.44 per kW-month
    assert p["pue"] == 1.09 and p["colocation"] == 163.44
    # SemiAnalysis (May 2023): DGX H100 about $270,000; Epoch: interconnect 19% of cluster cost
    assert p["node_price"] == 270e3 and p["network_share"] == 0.19
    # storage per GPU is the Llama 3 cluster's 240 PB over its 16,384 GPUs
    per_gpu = CONSTANTS["llama3_storage_capacity"].value / CONSTANTS["llama3_405b_gpus"].value
    assert p["storage_bytes_per_gpu"] == pytest.approx(per_gpu, rel=1e-12)
    # the node's power is hgx-server's DGX H100 maximum
    assert p["node_power"] == CONSTANTS["dgx_h100_max_power"].value


def test_optics_replacements_from_the_llama3_record(data):
    # 35 network switch/cable interruptions in 54 days: 236.7 a year across the cluster
    assert data["summary"]["optics_replacements_per_year"] == pytest.approx(35 / 54 * 365.25, rel=1e-12)


def test_optics_ceiling_counts_transceivers_per_port_end(data):
    s = data["summary"]
    # one transceiver per optical port end: rack uplink 1:1 (2 ends per GPU), aggregation 1:7 (2/7);
    # the GPU-to-rack links add 2 more if optical, none if copper
    assert s["transceivers_per_gpu_low"] == pytest.approx(2 + 2 / 7, rel=1e-12)
    assert s["transceivers_per_gpu_high"] == pytest.approx(4 + 2 / 7, rel=1e-12)
    # 16,384 GPUs × 2.29 × 1% = 374.5 a year; × 4.29 × 3% = 2,106.5 a year
    assert s["optics_replacements_low"] == pytest.approx(16_384 * (2 + 2 / 7) * 0.01, rel=1e-12)
    assert s["optics_replacements_high"] == pytest.approx(16_384 * (4 + 2 / 7) * 0.03, rel=1e-12)
    assert s["optics_replacements_per_year"] < s["optics_replacements_low"] < s["optics_replacements_high"]
    # even at the ceiling, optics stay under 1% of the cost
    assert s["optics_share"] < s["optics_share_high"] < 0.01


def test_financing_is_the_annuity_above_the_straight_line(data):
    s = data["summary"]
    # 8% over 5.5 years: A = 0.44 / (1 − 1.08^−5.5) = 1.2750
    assert s["annuity_factor"] == pytest.approx(0.08 * 5.5 / (1 - 1.08 ** -5.5), rel=1e-12)
    # monthly payments (66 at 8%/12) cost less than yearly ones in arrears: about 1.24 against 1.27
    assert s["annuity_factor_monthly"] == pytest.approx(0.08 * 5.5 / (1 - (1 + 0.08 / 12) ** -66), rel=1e-12)
    assert 1 < s["annuity_factor_monthly"] < s["annuity_factor"]
    assert s["financing_per_hour"] == pytest.approx(s["depreciation_per_hour"] * (s["annuity_factor"] - 1), rel=1e-12)
    # it costs more than the electricity, and without it the total falls back to the straight line
    assert s["financing_per_hour"] > s["power_per_hour"]
    plain = data["problems"]["no_financing"]
    assert s["total_per_hour"] - plain["total"] == pytest.approx(s["financing_per_hour"], rel=1e-12)


def test_the_range_is_the_tornado_span_and_holds_the_scenario(data):
    s = data["summary"]
    ends = [e for b in data["records"]["tornado"] for e in (b["at_low"], b["at_high"])]
    assert (s["tornado_min"], s["tornado_max"]) == pytest.approx((min(ends), max(ends)), rel=1e-12)
    assert s["tornado_min"] < s["useful_per_hour"] < s["tornado_max"]
    # the top end is the half-idle worked problem (the takeaway names it, not its number, a second time)
    assert data["params"]["utilisation_low"] == data["problems"]["half_idle"]["utilisation"]
    assert s["tornado_max"] == pytest.approx(data["problems"]["half_idle"]["useful"], rel=1e-12)
    # utilisation first, then the life (down to the economic life), as the takeaway says
    assert [b["input"] for b in data["records"]["tornado"][:2]] == ["utilisation", "useful_life"]
    assert data["summary"]["tornado_second"] == "useful life"
    # the economic life moves the answer more than the filings' spread does
    assert data["problems"]["economic_life"]["increase"] > 5 * data["problems"]["shorter_life"]["increase"]


def test_tornado_ranks_by_swing_and_brackets_the_scenario(data):
    bars = data["records"]["tornado"]
    swings = [b["swing"] for b in bars]
    assert swings == sorted(swings, reverse=True)
    base = data["summary"]["useful_per_hour"]
    for b in bars:
        assert min(b["at_low"], b["at_high"]) <= base + 1e-12 <= max(b["at_low"], b["at_high"]) + 2e-12


def test_cost_rises_with_every_price_and_falls_with_life_and_utilisation(scene_params):
    p = scene_params(SCENE)
    base = _useful(p)
    assert base == pytest.approx(tco.gpu_hour_cost(**p).summary["useful_per_hour"], rel=1e-12)
    for key in ("node_price", "tariff", "pue", "colocation", "staff_per_gpu_year", "optics_price",
                "storage_price_per_tb", "network_share", "cost_of_capital", "network_failures"):
        assert _useful(dict(p, **{key: p[key] * 1.1})) > base, key
    for key in ("useful_life", "utilisation"):
        assert _useful(dict(p, **{key: p[key] * 0.9})) > base, key


def _useful(p: dict) -> float:
    parts = cost_parts(p)
    return tco.cost_per_useful_hour(sum(parts.values()), p["utilisation"])


def test_a_claim_fails_when_the_numbers_stop_supporting_it(scene_params):
    p = scene_params(SCENE)
    # a colocation rate ten times the average makes the facility, not the servers, the largest part
    with pytest.raises(ClaimError, match="largest part|running costs"):
        tco.gpu_hour_cost(**dict(p, colocation=1634.4, colocation_high=2000.0))


def test_the_left_out_it_load_is_sized_by_hand(data):
    s = data["summary"]
    # switch ports per GPU in the 1:1 / 1:7 fabric: the GPU's link (1), the rack uplink's two ends (2), 2/7
    assert s["switch_ports_per_gpu"] == pytest.approx(3 + 2 / 7, rel=1e-12)
    # 7,500 storage servers × 500 W over 16,384 GPUs; 3.29 ports × 15 W; 2.29 transceivers × 12 W
    watts = 7500 * 500 / 16_384 + (3 + 2 / 7) * 15 + (2 + 2 / 7) * 12
    assert s["other_it_per_gpu"] == pytest.approx(watts, rel=1e-12)  # about 306 W
    # 240 PB on 7,500 servers is 32 TB each; 14.6 TB per GPU is 0.458 of a server
    assert s["storage_servers_per_gpu"] == pytest.approx(240e15 / 16_384 / 32e12, rel=1e-12)
    assert s["other_it_load_share"] == pytest.approx(watts / (10_200 / 8), rel=1e-12)  # about 24%
    # billed like the GPU servers' load: power and facility grow in proportion, nothing else does
    scale = watts / (10_200 / 8)
    extra = (s["power_per_hour"] + s["facility_per_hour"]) * scale
    assert s["other_it_per_hour"] == pytest.approx(extra, rel=1e-9)
    assert s["other_it_increase"] == pytest.approx(extra / s["total_per_hour"], rel=1e-9)
    assert s["other_it_low_increase"] < s["other_it_increase"] < s["other_it_high_increase"] < 0.10
    assert s["other_it_cluster_power"] == pytest.approx(watts * 16_384, rel=1e-12)  # about 5 MW


def test_optics_at_both_high_ends_pass_one_percent(data):
    s = data["summary"]
    # 2,106.5 replacements a year at $5,000 each over 16,384 GPU-years: about $0.073 per GPU-hour
    per_hour = 16_384 * (4 + 2 / 7) * 0.03 * 5000 / (16_384 * YEAR / 3600)
    assert s["optics_dearest_per_hour"] == pytest.approx(per_hour, rel=1e-9)
    assert s["optics_share_dearest"] > 0.01 > s["optics_share_high"]


def test_the_economic_life_claim_fails_if_another_input_moves_more(scene_params):
    p = scene_params(SCENE)
    # a network share swept to 60% moves the cost more than the 3-year life does
    with pytest.raises(ClaimError, match="economic life|useful life"):
        tco.gpu_hour_cost(**dict(p, network_share_high=0.6))


def test_storage_price_per_tb_as_the_price_of_a_storage_server(data):
    s = data["summary"]
    # 240 PB on 7,500 servers is 32 TB each: $100/TB prices one at $3,200, the $500/TB high end at $16,000
    assert s["storage_bytes_per_server"] == pytest.approx(32e12, rel=1e-12)
    assert (s["storage_server_price_low"], s["storage_server_price"], s["storage_server_price_high"]) == \
        pytest.approx((1_600.0, 3_200.0, 16_000.0), rel=1e-12)
    # at the high end storage per GPU grows by 14.6 TB × $400 = $5,859; with the network's share on top,
    # financed over 5.5 years and divided by the utilisation, that is what the useful GPU-hour gains
    extra = 240e15 / 16_384 / 1e12 * 400 / (1 - 0.19) * s["annuity_factor"] / (5.5 * YEAR / 3600)
    u = data["params"]["utilisation"]
    assert s["storage_high_useful"] - s["useful_per_hour"] == pytest.approx(extra / u, rel=1e-9)
    assert s["storage_high_increase"] == pytest.approx(extra / u / s["useful_per_hour"], rel=1e-9)


def test_the_storage_server_claim_fails_if_the_high_end_stays_near_the_scenario(scene_params):
    p = scene_params(SCENE)
    with pytest.raises(ClaimError, match="storage server"):
        tco.gpu_hour_cost(**dict(p, storage_price_high=200.0))
