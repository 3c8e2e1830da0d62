"""Tests for models/nvlink_nvswitch.py (the nvlink-nvswitch scene: NVLink mesh & NVSwitch scale-up), its figure
and scene."""

from __future__ import annotations

import math

import numpy as np
import pytest

from models import nvlink_nvswitch as nv
from models.constants import CONSTANTS, SOURCES, const
from models.exhibit import ClaimError, ParamError
from models.lib import nvlink
from models.lib.collectives import ring_time
from pipeline.jsonio import to_json

NIC = const("ndr_port_rate")
A_NVL = const("nccl_nvlink_ring_simple_latency")
A_NET = const("nccl_net_ring_simple_latency")
SCENE = "nvlink-nvswitch"


@pytest.fixture(scope="module")
def data(model_output):
    return model_output(SCENE)[0]


@pytest.fixture(scope="module")
def params(scene_params):
    return scene_params(SCENE)


# --- published figures multiply out from per-link rates -----------------------------
def test_h100_per_gpu_from_links():
    # NVIDIA NVLink page (generations table) and Hopper in-depth blog:
    # 18 fourth-generation links x 50 GB/s = 900 GB/s per GPU, both bidirectional
    links, link = const("nvlink4_links_per_gpu"), const("nvlink4_link_bw")
    assert CONSTANTS["nvlink4_link_bw"].direction == CONSTANTS["h100_nvlink_bw"].direction
    assert nv.per_gpu(links, link) == pytest.approx(const("h100_nvlink_bw"))
    assert nvlink.per_direction(nv.per_gpu(links, link)) == pytest.approx(450e9)


def test_b200_per_gpu_from_links():
    # NVIDIA NVLink page: "18 NVLink 100 GB/s connections for a total bandwidth of 1.8 TB/s"
    assert CONSTANTS["nvlink5_link_bw"].direction == CONSTANTS["b200_nvlink_bw"].direction
    assert nv.per_gpu(const("nvlink5_links_per_gpu"), const("nvlink5_link_bw")) == pytest.approx(
        const("b200_nvlink_bw"))


def test_nvl72_aggregate_multiplies_out():
    # GB200 NVL72 page: 72 GPUs, 130 TB/s; 72 x 1.8 TB/s = 129.6 TB/s, quoted rounded
    agg = nvlink.aggregate(int(const("nvl72_gpus")), const("b200_nvlink_bw"))
    assert agg == pytest.approx(129.6e12)
    assert agg == pytest.approx(const("nvl72_nvlink_bw"), rel=0.005)
    assert CONSTANTS["nvl72_nvlink_bw"].direction == CONSTANTS["b200_nvlink_bw"].direction
    # and through the switches: 72 x 18 links on 144-port switches = 9 trays of 14.4 TB/s
    trays = nv.switch_count(72, 18, int(const("nvlink_switch_ports")))
    assert trays == 9
    assert trays * const("nvlink_switch_bw") == pytest.approx(agg)
    assert const("nvlink_switch_ports") * const("nvlink5_link_bw") == pytest.approx(
        const("nvlink_switch_bw"))


def test_hgx_b200_two_switch_chips_carry_the_board():
    # DGX B200 user guide (an HGX B200 baseboard): 2 fifth-generation NVLink switches, 14.4 TB/s aggregate;
    # 8 GPUs x 1.8 TB/s = 14.4 TB/s bidirectional
    assert const("hgx_b200_nvlink_switch_chips") == 2
    assert CONSTANTS["hgx_b200_nvlink_switch_chips"].source == "nvidia-dgx-b200-guide"
    assert nvlink.aggregate(8, const("b200_nvlink_bw")) == pytest.approx(14.4e12)


def test_hgx_h100_aggregate_and_bisection():
    # 8 x 900 GB/s = 7.2 TB/s bidirectional; bisection 4 x 450 GB/s = 1.8 TB/s per direction
    assert nvlink.aggregate(8, const("h100_nvlink_bw")) == pytest.approx(7.2e12)
    assert nv.bisection(8, nvlink.per_direction(const("h100_nvlink_bw"))) == pytest.approx(1.8e12)


def test_sources_cited():
    for key in ("nvidia-nvlink", "nvidia-hopper-in-depth", "nvidia-hgx-h100-blog",
                "nvidia-gb200-nvl72"):
        assert SOURCES[key].url.startswith("https://")
    for name in ("nvlink4_link_bw", "nvlink5_link_bw", "b200_nvlink_bw", "nvl72_nvlink_bw",
                 "nvlink_switch_bw"):
        assert CONSTANTS[name].direction == "bidirectional"
        assert CONSTANTS[name].scope in ("per link", "per GPU", "per switch tray", "aggregate")
    # NCCL 2.20.3 tuning.cc: hwLat[NVLINK][RING][SIMPLE] = 3.4 us
    assert A_NVL == pytest.approx(3.4e-6)


# --- direction conventions ---------------------------------------------------------------------
def test_direction_conventions_in_output(data):
    s = data["summary"]
    for key in ("h100_gpu", "b200_gpu"):
        assert s[f"{key}_dir"] == pytest.approx(s[f"{key}_bidir"] / 2)
    cols = [c["name"] for c in data["table"]["columns"]]
    for row in data["table"]["rows"]:
        r = dict(zip(cols, row))
        assert r["per GPU, per direction"] == pytest.approx(r["per GPU, bidirectional"] / 2)
        assert r["per GPU, per direction"] == pytest.approx(r["NVLink links per GPU"] * r["per link, per direction"])
        assert r["bisection, per direction"] == pytest.approx(
            r["domain aggregate, bidirectional"] / 2 / 2)  # half the GPUs, one direction
    # the NVLink-vs-NIC ratio compares per direction with per direction (the port is per direction)
    assert CONSTANTS["ndr_port_rate"].direction == "per direction"
    assert s["nvlink_over_nic"] == pytest.approx(s["h100_gpu_dir"] / NIC) == pytest.approx(9.0)
    assert s["nvlink_over_nic"] != pytest.approx(s["h100_gpu_bidir"] / NIC)
    # every bandwidth column of the table names its direction
    for col in data["table"]["columns"]:
        if col["unit"] == "B/s":
            assert "per direction" in col["name"] or "bidirectional" in col["name"], col


def test_times_use_per_direction_rates(data):
    # a 1 GB all-to-all over 8 GPUs sends 7/8 GB per GPU at 450 GB/s, not at 900 GB/s
    t = nv.alltoall_time(1e9, 8, 450e9, 0.0)
    assert t == pytest.approx(0.875e9 / 450e9)
    d = data["summary"]
    assert d["message"] == 1e9 and d["node_gpus"] == 8
    assert d["alltoall_nvlink_time"] == pytest.approx(A_NVL + 0.875e9 / d["h100_gpu_dir"])


# --- times --------------------------------------------------------------------------------------
def test_allreduce_reuses_collectives():
    n = np.logspace(3, 10, 20)
    np.testing.assert_allclose(nv.allreduce_time(n, 8, 450e9, A_NVL), ring_time(n, 8, 450e9, A_NVL))


@pytest.mark.parametrize("p", [2, 8, 72])
def test_times_monotonic_in_message_size(p):
    n = np.logspace(0, 11, 300)
    for f in (nv.alltoall_time, nv.allreduce_time):
        assert np.all(np.diff(f(n, p, 450e9, A_NVL)) > 0)
    t = nv.alltoall_time_spanning(n, 64, 8, 900e9, NIC, A_NVL, A_NET)
    assert np.all(np.diff(t) > 0)


def test_nvlink_beats_nic_at_every_size(data):
    s = data["series"]
    for coll in ("alltoall", "allreduce"):
        assert np.all(np.array(s[f"{coll}_nvlink_h100"]) < np.array(s[f"{coll}_nic"]))
    # at large n the ratio tends to the bandwidth ratio, 9x
    big = 1e13
    ratio = nv.alltoall_time(big, 8, NIC, A_NET) / nv.alltoall_time(big, 8, 450e9, A_NVL)
    assert ratio == pytest.approx(9.0, rel=1e-4)


def test_alltoall_limits():
    assert nv.alltoall_time(0.0, 8, 450e9, A_NVL) == pytest.approx(A_NVL)
    assert nv.alltoall_bytes_sent(1e9, 2) == pytest.approx(0.5e9)
    # large p: each GPU sends almost all of n
    assert nv.alltoall_bytes_sent(1e9, 10_000) == pytest.approx(1e9, rel=1e-3)


def test_spanning_all_to_all():
    # inside the domain it is the plain all-to-all
    assert nv.alltoall_time_spanning(1e9, 8, 8, 450e9, NIC, A_NVL, A_NET) == pytest.approx(
        nv.alltoall_time(1e9, 8, 450e9, A_NVL))
    assert nv.spill_fraction(8, 8) == 0 and nv.spill_fraction(64, 8) == pytest.approx(7 / 8)
    assert nv.spill_fraction(64, 72) == 0
    # past the domain the NIC share binds: 56/64 GB over 50 GB/s
    t = nv.alltoall_time_spanning(1e9, 64, 8, 900e9, NIC, A_NVL, A_NET)
    assert t == pytest.approx(A_NET + 56 / 64 * 1e9 / NIC)
    # a faster NVLink cannot help traffic that leaves the domain
    assert t == pytest.approx(float(nv.alltoall_time_spanning(1e9, 64, 8, 1e15, NIC, A_NVL, A_NET)))


def test_group_sweep_steps_at_domain_edge(data):
    s = data["series"]
    g = np.array(s["group_size"])
    rate = 900e9  # B200, per direction
    for key, d in (("group_alltoall_hgx_b200", 8), ("group_alltoall_nvl72", 72)):
        t = np.array(s[key])
        j = int(np.where(g == d + 1)[0][0])
        # one GPU past the domain: in-domain and NIC sends overlap, the slower one sets the time
        assert t[j] == pytest.approx(A_NET + max(d / (d + 1) * 1e9 / rate * (d - 1) / d,
                                                 1 / (d + 1) * 1e9 / NIC))
    # for the 8-GPU board the NIC binds at once: more than 2x the in-domain time
    t8 = np.array(s["group_alltoall_hgx_b200"])
    assert t8[int(np.where(g == 9)[0][0])] > 2 * t8[int(np.where(g == 8)[0][0])]
    # at 144 GPUs both domains spill and the NIC share (g-D)/g decides
    t72 = np.array(s["group_alltoall_nvl72"])
    assert t72[-1] == pytest.approx(A_NET + (144 - 72) / 144 * 1e9 / NIC)
    # within its domain, NVL72 is never slower than an 8-GPU board at the same group size
    assert np.all(np.array(s["group_alltoall_nvl72"]) <= np.array(s["group_alltoall_hgx_b200"]) + 1e-12)


# --- the entry function -----------------------------------------------------------------------------
def test_summary_numbers(data):
    s = data["summary"]
    assert s["node_gpus"] == 8 and s["nvl72_gpus"] == 72 and s["nvl72_switch_trays"] == 9
    assert s["alltoall_nic_time"] > s["alltoall_nvlink_time"]
    assert s["allreduce_nic_time"] > s["allreduce_nvlink_time"]
    assert s["expert_speedup"] > 10
    g = np.array(data["series"]["group_size"])
    spill72 = np.array(data["series"]["group_spill_nvl72"])
    assert np.all(spill72[g <= s["nvl72_gpus"]] == 0) and np.all(spill72[g > s["nvl72_gpus"]] > 0)
    assert s["expert_alltoall_nvl72"] == pytest.approx(
        A_NVL + (s["expert_group"] - 1) / s["expert_group"] * s["message"] / s["b200_gpu_dir"])
    agg = {r[0]: r[7] for r in data["table"]["rows"]}
    assert agg["GB200 NVL72"] / agg["HGX B200"] == pytest.approx(9.0)
    for k, v in s.items():
        if k == "h100_switch_split":
            continue
        assert isinstance(v, (int, float)) and math.isfinite(v), k


def test_links_split_over_the_switches_as_the_node_model_does(data):
    # one fact, one value: the 18 links land on the 4 NVSwitch chips as scene 04's node graph wires them
    from models.lib.node import split_links
    split = data["records"]["h100_links_per_switch"]
    assert split == split_links(18, 4) == [5, 4, 4, 5]
    assert data["summary"]["h100_switch_split"] == "5/4/4/5"
    assert data["animation"]["links_per_switch"] == split
    s = data["summary"]
    # no GPU-to-GPU wire: a pair stripes over every chip and gets the GPU's whole rate, per direction
    assert s["h100_pair_dir"] == pytest.approx(s["h100_gpu_dir"]) == pytest.approx(450e9)
    assert s["h100_switch_max_dir"] == pytest.approx(5 * 25e9)


def test_chip_boundary_ratios(data):
    # H100 SXM datasheet: HBM3 3.35 TB/s (reads and writes together); NVLink 450 GB/s per direction
    s = data["summary"]
    assert CONSTANTS["h100_hbm_bw"].source == "nvidia-h100-datasheet"
    assert s["hbm_bw"] == pytest.approx(3.35e12)
    assert s["hbm_over_nvlink_dir"] == pytest.approx(3.35e12 / 450e9)  # about 7.4x
    assert s["hbm_over_nvlink_bidir"] == pytest.approx(s["hbm_over_nvlink_dir"] / 2)
    assert s["hbm_over_nic"] == pytest.approx(s["hbm_over_nvlink_dir"] * s["nvlink_over_nic"])
    # NVLink sits between HBM and the NIC on both sides
    assert 1 < s["hbm_over_nvlink_dir"] < s["hbm_over_nic"]
    assert "Peer-to-Peer Memory Access" in SOURCES["cuda-runtime-peer-access"].where


def test_claim_hbm_faster_than_nvlink(params):
    # an HBM slower than NVLink both ways summed would make the boundary paragraph false
    with pytest.raises(ClaimError, match="HBM is still faster"):
        nv.nvlink_domains(**{**params, "hbm_bw": 800e9})


def test_fewer_links_than_switches_is_refused(params):
    # fewer links than switches contradicts the wiring: refused, naming this model's field
    with pytest.raises(ParamError, match="h100_links"):
        nv.nvlink_domains(**{**params, "h100_links": 3})


def test_scenario_node_size_flows_through(params):
    d = nv.nvlink_domains(**{**params, "node_gpus": 4}).summary
    assert d["hgx_h100_aggregate_bidir"] == pytest.approx(4 * 900e9)
    assert d["alltoall_bytes_sent"] == pytest.approx(0.75e9)


def test_table_contract(data):
    t = data["table"]
    assert isinstance(t["caption"], str) and t["caption"]
    units = {"B", "s", "B/s", "1", "%", "count", "text"}
    assert all({"name", "unit"} <= set(c) <= {"name", "unit", "digits"} and c["unit"] in units for c in t["columns"])
    # the aggregate column prints 4 figures: the NVL72's 129.6 TB/s, not NVIDIA's rounded 130
    assert [c.get("digits", 3) for c in t["columns"]].count(4) == 1
    assert len(t["rows"]) == 3 and all(len(r) == len(t["columns"]) for r in t["rows"])
    for row in t["rows"]:
        for col, v in zip(t["columns"], row):
            assert isinstance(v, str) if col["unit"] == "text" else isinstance(v, (int, float))


def test_deterministic(params):
    assert to_json(nv.nvlink_domains(**params).to_dict()) == to_json(nv.nvlink_domains(**params).to_dict())


def test_rejects_bad_input(params):
    with pytest.raises(ParamError):
        nv.nvlink_domains(**{**params, "node_gpus": 1})
    with pytest.raises(ParamError):
        nv.nvlink_domains(**{**params, "nic_rate": float("nan")})
    with pytest.raises(ValueError):
        nv.nvlink_domains(**{**params, "min_message": 1e9, "max_message": 1e3})
    with pytest.raises(ValueError):
        nv.per_gpu(0, 1e9)


# --- claims: the page's sentences fail the build when the numbers stop supporting them -------------
def test_claim_published_per_gpu_rate_must_multiply_out(params):
    with pytest.raises(ClaimError, match="published per-GPU"):
        nv.nvlink_domains(**{**params, "h100_links": 12})


def test_claim_group_fits_in_the_rack(params):
    # a 96-GPU expert group does not fit in a 72-GPU domain: "inside NVL72 none do" must fail
    with pytest.raises(ClaimError, match="inside NVL72"):
        nv.nvlink_domains(**{**params, "expert_group": 96})


def test_claim_nvl72_rounding(params):
    with pytest.raises(ClaimError, match="rounded"):
        nv.nvlink_domains(**{**params, "nvl72_published_bw": 150e12})


def test_scene_captions_quote_the_model(dry_run):
    from models.units import fmt_rate, fmt_seconds

    data, beats, _ = dry_run("nvlink-nvswitch")
    s = data["summary"]
    text = " ".join(b["caption"] for b in beats)
    for v in (fmt_seconds(s["alltoall_nvlink_time"]), fmt_seconds(s["alltoall_nic_time"]),
              fmt_rate(s["h100_gpu_dir"]), fmt_seconds(s["expert_alltoall_nvl72"])):
        assert v in text


# --- published aggregates, the cut, a direct mesh, a measured rate ---------------------------
def test_hgx_b200_aggregate_is_the_dgx_b200_guides(data):
    # DGX B200 User Guide, Component Descriptions: 2 NVLink switches, 14.4 TB/s aggregate
    assert CONSTANTS["hgx_b200_nvlink_aggregate_bw"].source == "nvidia-dgx-b200-guide"
    s = data["summary"]
    assert s["hgx_b200_published_bidir"] == pytest.approx(14.4e12)
    assert s["hgx_b200_aggregate_bidir"] == pytest.approx(s["hgx_b200_published_bidir"])


def test_claim_hgx_b200_aggregate(params):
    with pytest.raises(ClaimError, match="DGX B200 guide"):
        nv.nvlink_domains(**{**params, "hgx_b200_published_bw": 14e12})


def test_alltoall_crosses_the_cut_below_the_bisection(data):
    s = data["summary"]
    # 4 GPUs x 450 GB/s, each sending 4 of its 7 streams across the middle
    assert s["hgx_h100_alltoall_cut_dir"] == pytest.approx(4 * 450e9 * 4 / 7)
    assert s["hgx_h100_bisection_dir"] == pytest.approx(1.8e12)
    assert s["hgx_h100_bisection_bidir"] == pytest.approx(3.6e12)
    # what all 8 GPUs send is twice the bisection: the number on screen is not the bisection
    assert s["hgx_h100_sent_dir"] == pytest.approx(2 * s["hgx_h100_bisection_dir"])
    assert s["hgx_h100_alltoall_cut_dir"] < s["hgx_h100_bisection_dir"]
    for p in (2, 3, 8, 9):
        assert nv.alltoall_cut_rate(p, 1.0) <= p // 2


def test_direct_mesh_alternative(data):
    s = data["summary"]
    # 18 links over 7 peers: 2 or 3 links, 50-75 GB/s per pair each way against 450 GB/s through switches
    assert (s["mesh_pair_links_min"], s["mesh_pair_links_max"]) == (2, 3)
    assert s["mesh_pair_dir_min"] == pytest.approx(50e9)
    assert s["mesh_pair_dir_max"] == pytest.approx(75e9)
    assert s["mesh_pair_dir_max"] < s["h100_pair_dir"] / 5
    # one pair alone: 450 / 75 = 6x and 450 / 50 = 9x through the switches
    assert (s["mesh_pair_gain_min"], s["mesh_pair_gain_max"]) == (pytest.approx(6.0), pytest.approx(9.0))
    # an even all-to-all of 1 GB: the 2-link pairs carry 1 GB / 8 at 50 GB/s, plus one 3.4 µs step,
    # against 3.4 µs + 7/8 GB at 450 GB/s: about 1.3x, by hand
    t_mesh = 3.4e-6 + 1e9 / 8 / 50e9
    assert s["mesh_alltoall_time"] == pytest.approx(t_mesh)
    assert s["mesh_alltoall_slowdown"] == pytest.approx(t_mesh / (3.4e-6 + 7 / 8 * 1e9 / 450e9))
    assert 1.2 < s["mesh_alltoall_slowdown"] < 1.4 < s["mesh_pair_gain_min"]


def test_measured_nvlink_rate(data, params):
    s = data["summary"]
    assert s["nvlink_measured_fraction"] == pytest.approx(380 / 450)
    assert s["nvlink_over_nic_measured"] == pytest.approx(380e9 / NIC)
    assert s["nvlink_over_nic_measured"] < s["nvlink_over_nic"]
    with pytest.raises(ParamError, match="nvlink_measured"):
        nv.nvlink_domains(**{**params, "nvlink_measured": 500e9})
