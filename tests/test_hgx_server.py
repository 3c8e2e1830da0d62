"""Tests for models/hgx_server.py (the hgx-server scene: paths through the HGX H100 node), its figure and scene."""

from __future__ import annotations

import pytest

from models import hgx_server as sv
from models.constants import CONSTANTS, const
from models.exhibit import ClaimError, ParamError
from models.lib import ethernet, node
from pipeline.jsonio import to_json

GRAPH_ARGS = ("gpus", "cpu_sockets", "nvswitches", "nvlinks_per_gpu", "gpu_nvlink_bw",
              "pcie_transfer_rate", "pcie_lanes", "nvme_lanes", "nic_port_rate", "storage_nics",
              "storage_nic_ports", "memory_channels", "memory_transfer_rate", "data_drives", "drive_read_bw")


@pytest.fixture(scope="module")
def params(scene_params):
    return scene_params("hgx-server")


@pytest.fixture(scope="module")
def data(model_output):
    """The catalogue's hgx-server entry, run as the build runs it."""
    return model_output("hgx-server")[0]


# a 256-byte TLP carries 12 B of header, 4 of framing and sequence, 4 of LCRC and a quarter of an
# 8-byte DLLP besides its payload (the PCIe packet layout as pcie-cxl counts it): 256/278 is payload
PAYLOAD_SHARE = 256 / (256 + 12 + 4 + 4 + 8 / 4)
# one RoCE v2 frame at a 4096-byte MTU: preamble+SFD 8, MAC header 14, IPv4 20, UDP 8, BTH 12, payload,
# ICRC 4, FCS 4, inter-packet gap 12 (IEEE 802.3, RFC 791/768, IBTA Annex A17): 4096/4178 of the port is data
ETH_SHARE = 4096 / (4096 + 8 + 14 + 20 + 8 + 12 + 4 + 4 + 12)


@pytest.fixture(scope="module")
def g(params):
    return node.build_node(*(params[k] for k in GRAPH_ARGS), pcie_payload_efficiency=PAYLOAD_SHARE,
                           storage_port_rate=params["storage_port_rate"])


# --- the constants against the datasheet -------------------------------------------
def test_constants_match_the_dgx_h100_datasheet():
    # DGX H100 user guide, hardware overview: 8 GPUs, 2 x 8480C (56 cores each), 2 TB DDR5,
    # 8 single-port + 2 dual-port ConnectX-7, 8 x 3.84 TB U.2 + 2 x 1.92 TB M.2, 10.2 kW max
    assert const("dgx_h100_gpus") == 8 and const("dgx_h100_cpu_sockets") == 2
    assert const("dgx_h100_cpu_cores") == 112
    assert const("dgx_h100_dram") == 2e12
    assert const("dgx_h100_compute_nics") == 8 and const("dgx_h100_storage_nics") == 2
    assert const("dgx_h100_data_drives") * const("dgx_h100_data_drive_capacity") == pytest.approx(
        30.72e12)
    assert const("dgx_h100_max_power") == 10.2e3
    assert const("h100_sxm_tdp") == 700 and const("xeon_8480_tdp") == 350  # datasheet, Intel ARK
    assert CONSTANTS["pcie5_transfer_rate"].value == 32e9


# --- the topology ---------------------------------------------------------------------
def test_component_totals_match_the_datasheet(g, data):
    s = data["summary"]
    assert len(g.of_kind("gpu")) == s["gpus"] == const("dgx_h100_gpus")
    assert len(g.of_kind("nvswitch")) == const("hgx_h100_nvswitch_chips")
    assert len(g.of_kind("nic")) == const("dgx_h100_compute_nics")
    assert len(g.of_kind("storage_nic")) == const("dgx_h100_storage_nics")
    assert len(g.of_kind("cpu")) == const("dgx_h100_cpu_sockets")
    assert len(g.of_kind("nvme")) == const("dgx_h100_data_drives")
    assert s["data_storage"] == pytest.approx(30.72e12)
    # 8 x 400 Gb/s = 3.2 Tb/s = 400 GB/s out of the node
    assert s["node_fabric_bw"] == pytest.approx(400e9)


# --- bottlenecks -----------------------------------------------------------------------
@pytest.mark.parametrize("kind", list(sv.PATH_KINDS))
def test_bottleneck_is_the_narrowest_link_on_the_path(g, kind):
    for src, dst in node.flows_for(g, kind):
        for p in node.shortest_paths(g, src, dst):
            hops = node.path_links(g, p)
            caps = [g.links[i].capacity(u, v) for i, u, v in hops]
            bw, (u, v) = sv.bottleneck(g, p)
            assert bw == min(caps)
            assert (u, v) in [(a, b) for _, a, b in hops]
        # one transfer alone: a single path moves its bottleneck, a stripe the sum
        paths = node.shortest_paths(g, src, dst)
        alone = sv.transfer_bandwidth(g, src, dst)
        if len(paths) == 1:
            assert alone == pytest.approx(sv.bottleneck(g, paths[0])[0])
        else:
            assert alone == pytest.approx(sum(sv.bottleneck(g, p)[0] for p in paths))


def test_path_values(data):
    s = data["summary"]
    x16 = node.pcie_rate(32e9, 16) * PAYLOAD_SHARE  # 58.0 GB/s of payload per direction
    assert s["pcie_payload_efficiency"] == pytest.approx(PAYLOAD_SHARE, rel=1e-12)
    assert s["pcie_x16_payload_rate"] == pytest.approx(x16, rel=1e-12)
    assert s["gpu_to_nic_alone"] == pytest.approx(const("ndr_port_rate"))  # the NIC port binds
    assert s["gpu_to_gpu_alone"] == pytest.approx(const("h100_nvlink_bw") / 2)  # 450 GB/s
    assert s["host_to_gpu_alone"] == pytest.approx(x16)  # the x16 link binds, not DDR5
    # the drive's rated read (a Gen4 U.2 drive, low end of the range), not its Gen5 x4 link
    assert s["nvme_to_gpu_alone"] == pytest.approx(const("u2_gen4_read_bw_low"))
    assert s["nvme_to_gpu_alone"] < x16 / 4
    # BasePOD wires one port of each storage card for storage, into an SN4600C's 100 GbE port: 100/8 = 12.5 GB/s
    # binds, below the card's 400G and the slot
    assert const("dgx_h100_storage_ports_per_card") == 1
    assert const("dgx_h100_storage_port_rate") == pytest.approx(12.5e9)
    assert s["storage_to_gpu_alone"] == pytest.approx(12.5e9 * ETH_SHARE)
    assert s["storage_framing_efficiency"] == pytest.approx(ETH_SHARE) == pytest.approx(0.98037, abs=1e-5)
    assert s["storage_to_gpu_alone"] < const("ndr_port_rate") and s["storage_to_gpu_alone"] < x16
    assert s["nvlink_to_nic_ratio"] == pytest.approx(9.0)


# --- contention ---------------------------------------------------------------------------
@pytest.mark.parametrize("kind", list(sv.PATH_KINDS))
def test_max_min_allocation_is_feasible_and_fair(g, kind):
    flows = node.flows_for(g, kind)
    out = node.allocate(g, flows)
    assert len(out["rates"]) == len(flows) == 8
    for key, load in out["load"].items():
        assert load <= out["capacity"][key] * (1 + 1e-9)  # no link over capacity
    # symmetric traffic: every GPU gets the same share
    assert max(out["rates"]) == pytest.approx(min(out["rates"]))
    # no flow does better than alone
    src, dst = flows[0]
    assert max(out["rates"]) <= sv.transfer_bandwidth(g, src, dst) * (1 + 1e-9)


def test_pairing_means_no_shared_link_for_gpu_to_nic(data):
    p = data["records"]["paths"]["gpu_to_nic"]
    assert p["max_flows_per_link"] == 1 and p["shared_links"] == []
    assert p["contended"] == pytest.approx(p["alone"])
    assert p["aggregate"] == pytest.approx(8 * const("ndr_port_rate"))
    assert data["records"]["paths"]["gpu_to_gpu"]["max_flows_per_link"] == 1  # NVSwitch is non-blocking


def test_storage_nic_is_shared_by_a_socket_of_gpus(data):
    p = data["records"]["paths"]["storage_to_gpu"]
    assert p["max_flows_per_link"] == 4
    # fair share of one 100 GbE port (the card's one storage port, at the switch's rate) among 4 GPUs: 3.125 GB/s
    assert p["contended"] == pytest.approx(12.5e9 * ETH_SHARE / 4)
    assert p["slowdown"] == pytest.approx(4.0)
    # 50 / (3.125 x 0.980) = 16.3x slower per GPU than the compute NIC, which each GPU has to itself
    assert data["problems"]["storage_slowdown"] == pytest.approx(16.0 / ETH_SHARE)
    assert data["problems"]["storage_time"] == pytest.approx(1e9 / (3.125e9 * ETH_SHARE))


def test_storage_port_sweep_by_hand(data):
    """100, 200, 400 Gb/s per port: 12.5, 25, 50 GB/s of line rate, 98.0% of it data, over 4 GPUs; a drive
    reads 6.2 to 6.9 GB/s."""
    rows = data["records"]["storage_port_sweep"]
    assert [r["port_rate"] for r in rows] == pytest.approx([12.5e9, 25e9, 50e9])
    assert [r["headline"] for r in rows] == [True, False, False]
    e = ETH_SHARE
    assert [r["contended"] for r in rows] == pytest.approx([3.125e9 * e, 6.25e9 * e, 12.5e9 * e])
    assert [r["alone"] for r in rows] == pytest.approx([12.5e9 * e, 25e9 * e, 50e9 * e])
    assert [r["fabric_slowdown"] for r in rows] == pytest.approx([16.0 / e, 8.0 / e, 4.0 / e])
    assert [r["drive_ratio"] for r in rows] == pytest.approx([3.125 * e / 6.2, 6.25 * e / 6.2, 12.5 * e / 6.2])
    assert [r["drive_ratio_low"] for r in rows] == pytest.approx([3.125 * e / 6.9, 6.25 * e / 6.9, 12.5 * e / 6.9])
    assert [r["drive_ratio_high"] for r in rows] == pytest.approx([3.125 * e / 6.2, 6.25 * e / 6.2, 12.5 * e / 6.2])
    # with the frames charged, 200 Gb/s gives 6.127 GB/s, under even the low-end drive's 6.2: slower, by 1.2%
    assert [r["faster_than_drive"] for r in rows] == [False, False, True]
    assert [r["verdict"] for r in rows] == ["slower", "slower", "faster"]
    s = data["summary"]
    # r* = d n / (p eta) = 6.2 GB/s x 4 / 0.980 = 25.30 GB/s = 202.4 Gb/s; at 6.9 GB/s, 225.2 Gb/s
    assert s["storage_breakeven_port_rate"] == pytest.approx(24.8e9 / e)
    assert s["storage_breakeven_low"] == pytest.approx(24.8e9 / e)
    assert s["storage_breakeven_high"] == pytest.approx(27.6e9 / e)
    assert s["storage_breakeven_high"] * 8 / 1e9 == pytest.approx(225.2, abs=0.05)
    assert s["storage_faster_than_drive"] is False
    assert s["storage_to_gpu_contended"] < s["nvme_to_gpu_contended"]


def test_storage_ranking_follows_the_port_rate(params):
    """Just below and above the break-even rate the claim holds and the order of the two pipes flips."""
    for rate, faster in ((25.0e9, False), (25.6e9, True)):
        out = sv.hgx_server(**{**params, "storage_port_rate": rate}).to_dict()
        s = out["summary"]
        assert s["storage_faster_than_drive"] is faster
        assert (s["storage_to_gpu_contended"] > s["nvme_to_gpu_contended"]) is faster
        # the headline rate joins the sweep when it is not one of its stops
        assert rate in [r["port_rate"] for r in out["records"]["storage_port_sweep"]]


def test_storage_port_defaults_to_the_compute_port_in_the_graph(params):
    g0 = node.build_node(*(params[k] for k in GRAPH_ARGS))
    link = g0.links[node.path_links(g0, ["snic0", "storage0"])[0][0]]
    assert link.capacity("snic0", "storage0") == pytest.approx(params["nic_port_rate"])


def test_host_to_gpu_shares_dram_without_filling_it(data):
    p, s = data["records"]["paths"]["host_to_gpu"], data["summary"]
    assert p["max_flows_per_link"] == 4 and p["busiest_link"] == ["dram0", "cpu0"]
    assert p["busiest_link_utilisation"] == pytest.approx(4 * s["pcie_x16_payload_rate"] /
                                                          s["dram_rate_per_socket"])
    assert p["busiest_link_utilisation"] < 1 and p["contended"] == pytest.approx(p["alone"])


def test_contention_grows_when_the_slot_narrows(params, g):
    # with the card's own 400G on its storage port (a switch as fast as the card), so that the slot can bind
    port = const("ndr_port_rate")
    narrow = node.build_node(*({**params, "pcie_lanes": 8}[k] for k in GRAPH_ARGS),
                             pcie_payload_efficiency=PAYLOAD_SHARE, storage_port_rate=port)
    wide = node.build_node(*(params[k] for k in GRAPH_ARGS), pcie_payload_efficiency=PAYLOAD_SHARE,
                           storage_port_rate=port)
    # an x8 slot (29.0 GB/s of payload) is narrower than the one 400G storage port (50 GB/s): the slot binds
    x8 = node.pcie_rate(32e9, 8) * PAYLOAD_SHARE
    assert x8 < port
    assert sv.path_report(narrow, "storage_to_gpu")["alone"] == pytest.approx(x8)
    assert sv.path_report(narrow, "storage_to_gpu")["contended"] == pytest.approx(x8 / 4)
    assert sv.path_report(wide, "storage_to_gpu")["contended"] == pytest.approx(port / 4)
    assert sv.path_report(narrow, "storage_to_gpu")["contended"] < sv.path_report(wide, "storage_to_gpu")["contended"]
    # with an x8 link the PCIe hop, not the 400G port, binds GPU -> NIC
    assert sv.path_report(narrow, "gpu_to_nic")["alone"] == pytest.approx(node.pcie_rate(32e9, 8) * PAYLOAD_SHARE)
    # and the page's "host memory: a little more than the NIC port" stops holding: the model says so
    with pytest.raises(ClaimError, match="pipes rank"):
        sv.hgx_server(**{**params, "pcie_lanes": 8})


def test_the_drive_not_its_link_sets_the_local_read(params):
    # a drive rated faster than its x4 link reads at the link rate, and the page's claim fails
    with pytest.raises(ClaimError, match="rated read"):
        sv.hgx_server(**{**params, "drive_read_bw": 20e9})
    g = node.build_node(*({**params, "drive_read_bw": 20e9}[k] for k in GRAPH_ARGS),
                        pcie_payload_efficiency=PAYLOAD_SHARE, nvme_transfer_rate=params["nvme_transfer_rate"])
    # the drives are PCIe 4.0: their x4 link trains at 16 GT/s in the 5.0 slot
    assert params["nvme_transfer_rate"] == 16e9
    assert sv.transfer_bandwidth(g, "nvme0", "gpu0") == pytest.approx(node.pcie_rate(16e9, 4) * PAYLOAD_SHARE)


# --- power -----------------------------------------------------------------------------------
def test_power_budget_sums_to_the_system_maximum(data):
    s = data["summary"]
    assert s["gpu_power"] == 8 * 700 and s["cpu_power"] == 2 * 350
    assert s["gpu_power"] + s["cpu_power"] + s["other_power"] == pytest.approx(10.2e3)
    assert sum(data["series"]["power_watts"]) == pytest.approx(s["system_max_power"])
    assert 0.5 < s["gpu_share"] < 0.6  # 5.6 of 10.2 kW
    with pytest.raises(ValueError):
        node.power_budget(8, 1400, 2, 350, 10.2e3)


def test_cluster_scaling(data):
    p = data["problems"]
    assert p["cluster_nodes"] == 2048  # 16,384 GPUs / 8
    assert p["cluster_max_power"] == pytest.approx(2048 * 10.2e3)


# --- the entry function -----------------------------------------------------------------------
def test_table_contended_never_beats_alone(data):
    # the five kinds, then the mixed rows: the send at its fair share and at its high end, then the receive
    assert len(data["table"]["rows"]) == len(sv.PATH_KINDS) + 3
    for row in data["table"]["rows"]:
        assert row[5] <= row[4] * (1 + 1e-9)


def test_deterministic(params):
    assert to_json(sv.hgx_server(**params).to_dict()) == to_json(sv.hgx_server(**params).to_dict())


@pytest.mark.parametrize("field,value", [("compute_nics", 4), ("storage_nics", 3), ("data_drives", 9),
                                         ("gpus", 0), ("gpu_nvlink_bw", float("inf")), ("gpu_retimers", 4)])
def test_rejects_bad_parameters_naming_the_field(params, field, value):
    with pytest.raises(ParamError, match=field):
        sv.hgx_server(**{**params, field: value})


# --- the figure and the scene ------------------------------------------------------------------
@pytest.mark.parametrize("theme", ["light", "dark"])
def test_figure_bars_are_the_model_rates(data, theme):
    from figures.hgx_server import path_bandwidth
    from figures.theme import themed

    with themed(theme):
        fig = path_bandwidth(data, theme)
        widths = sorted(round(b.get_width()) for b in fig.axes[0].patches)
        expect = sorted(round(x) for x in data["series"]["alone"] + data["series"]["contended"])
        assert widths == expect


def test_scene_captions_quote_the_model(dry_run):
    from models.units import fmt_rate

    data, beats, _ = dry_run("hgx-server")
    text = " ".join(b["caption"] for b in beats)
    s = data["summary"]
    for key in ("gpu_to_nic_alone", "gpu_to_gpu_alone", "host_to_gpu_alone",
                "storage_to_gpu_contended"):
        assert fmt_rate(s[key]) in text, key
    # the mixed beat: the share of one GPU's x16 link asked, and what the all-reduce's send gets
    assert f"{s['mix_demand_share'] * 100:.3g}%" in text and fmt_rate(s["mix_nic_rate"]) in text


# --- the drives' own PCIe generation ---------------------------------------------------
def test_the_drive_link_is_pcie4_x4(data):
    s = data["summary"]
    # 16 GT/s x 4 lanes x 128/130 / 8 = 7.88 GB/s per direction, before packet framing
    assert s["pcie_nvme_rate"] == pytest.approx(7.877e9, rel=1e-3)
    assert s["pcie_nvme_payload_rate"] == pytest.approx(7.877e9 * PAYLOAD_SHARE, rel=1e-3)
    assert s["drive_read_bw"] < s["pcie_nvme_payload_rate"]


# --- host memory: peak versus what a socket sustains ------------------------------------
def test_memory_breakeven_is_four_x16_links_over_the_ddr5_peak(data):
    s = data["summary"]
    # 8 channels x 4400 MT/s x 8 B = 281.6 GB/s; four x16 links of payload need 4 x 58.0 = 232 GB/s
    assert s["dram_rate_per_socket"] == pytest.approx(281.6e9)
    assert s["host_demand_per_socket"] == pytest.approx(4 * s["pcie_x16_payload_rate"])
    assert s["memory_breakeven"] == pytest.approx(4 * node.pcie_rate(32e9, 16) * PAYLOAD_SHARE / 281.6e9)
    assert 0.8 < s["memory_breakeven"] < 0.85
    assert s["memory_efficiency"] == 1.0 and not s["host_to_gpu_memory_bound"]


@pytest.mark.parametrize("eff", [0.5, 0.7, 0.8])
def test_below_breakeven_the_socket_memory_sets_the_host_rate(params, eff):
    from models.exhibit import claims_collected
    with claims_collected() as failed:
        out = sv.hgx_server(**{**params, "memory_efficiency": eff})
    s = out.summary
    assert s["host_to_gpu_memory_bound"]
    # four GPUs split what the socket sustains, max-min fair: c_e / n_e
    assert s["host_to_gpu_contended"] == pytest.approx(281.6e9 * eff / 4)
    assert s["host_to_gpu_contended"] < s["host_to_gpu_alone"]
    assert any("at DDR5's peak" in c for c in failed)


def test_above_breakeven_the_link_still_binds(params):
    out = sv.hgx_server(**{**params, "memory_efficiency": 0.9})
    assert not out.summary["host_to_gpu_memory_bound"]
    assert out.summary["host_to_gpu_contended"] == pytest.approx(out.summary["host_to_gpu_alone"])


def test_memory_efficiency_is_a_share(params):
    with pytest.raises(ParamError):
        sv.hgx_server(**{**params, "memory_efficiency": 1.2})


# --- the Blackwell generation -----------------------------------------------------------
def test_blackwell_servers_match_nvidias_guides():
    from models.constants import ENTITIES
    b, t = ENTITIES["server"]["dgx_b200"], ENTITIES["server"]["gb200_tray"]
    # DGX B200 user guide, hardware overview: 8 B200, 2 x Xeon 8570, 8 single-port ConnectX-7,
    # 2 dual-port BlueField-3 DPUs, 14.3 kW max
    assert (b.gpus, b.host_cpus, b.compute_nics, b.storage_nics, b.max_power) == (8, 2, 8, 2, 14.3e3)
    assert "BlueField-3" in b.storage_nic
    # GB200 NVL tuning guide: 4 GPUs per compute tray, two BF-3 NICs; 36 Grace over 18 trays
    assert (t.gpus, t.host_cpus, t.storage_nics) == (4, 2, 2)
    assert const("gb200_nvl72_gpus") == t.gpus * const("gb200_nvl72_compute_trays")
    assert t.max_power is None  # no source read gives one tray's power


def test_generation_rows(data):
    h, b, t = data["records"]["generations"]
    assert h["nvlink_per_direction"] == pytest.approx(450e9) and b["nvlink_per_direction"] == pytest.approx(900e9)
    assert h["power_per_gpu"] == pytest.approx(1275.0) and b["power_per_gpu"] == pytest.approx(1787.5)
    assert (h["gpus_per_host_cpu"], b["gpus_per_host_cpu"], t["gpus_per_host_cpu"]) == (4, 4, 2)
    assert t["power_per_gpu"] is None


def test_a_server_that_cannot_split_its_gpus_is_refused():
    from models.constants.products import Server
    with pytest.raises(ValueError, match="split evenly"):
        Server("x", "x", "cpu", "nic", 6, 4, 6, 2, 1e12, 1e4)


# --- the PCIe retimers ---------------------------------------------------------------------------
def test_retimer_counts_match_the_firmware_inventory():
    # BCM 11 Administrator Manual §14.5: a DGX H100's GPU tray lists HGX_FW_PCIeRetimer_0 to _7 beside
    # its eight GPUs, the motherboard tray PCIeRetimer_0 and _1
    assert const("hgx_h100_pcie_retimers") == const("dgx_h100_gpus") == 8
    assert const("dgx_h100_motherboard_retimers") == 2


def test_each_gpu_link_has_one_retimer_and_every_pcie_path_crosses_it(data):
    rec = data["records"]
    assert data["summary"]["gpu_retimers"] == data["summary"]["gpus"] == len(rec["retimers"])
    gpus = {b for _, b in rec["retimers"]}
    assert gpus == {f"gpu{k}" for k in range(data["summary"]["gpus"])}
    on = {frozenset(p) for p in rec["retimers"]}
    for kind, paths in ((k, v["flow_paths"]) for k, v in rec["paths"].items()):
        for stripes in paths:
            for p in stripes:
                n = sum(frozenset(e) in on for e in zip(p, p[1:]))
                assert n == (0 if kind == "gpu_to_gpu" else 1), (kind, p)


def test_retimers_change_no_rate(params):
    # a retimer re-sends at the link's rate: the node without them moves the same bytes
    with_rt, without = sv.hgx_server(**params), sv.hgx_server(**{**params, "gpu_retimers": 0})
    assert without.records["retimers"] == [] and without.summary["gpu_retimers"] == 0
    assert with_rt.series == without.series


def test_a_port_inside_the_breakeven_range_is_a_tie(params):
    """At 26 GB/s (208 Gb/s) each GPU gets 26 x 0.980 / 4 = 6.37 GB/s: above a 6.2, below a 6.9 GB/s drive."""
    out = sv.hgx_server(**{**params, "storage_port_sweep": [26e9]}).to_dict()
    row = next(r for r in out["records"]["storage_port_sweep"] if r["port_rate"] == 26e9)
    assert row["verdict"] == "tie"
    assert row["drive_ratio_low"] == pytest.approx(26e9 * ETH_SHARE / 4 / 6.9e9)
    assert row["drive_ratio_low"] < 1 < row["drive_ratio_high"]


def test_frame_efficiency_by_hand():
    assert ethernet.frame_efficiency(4096, 8, 14, 20, 8, 12, 4, 4, 12) == pytest.approx(4096 / 4178)
    # a standard 1500-byte frame pays the same 82 bytes on less payload
    assert ethernet.frame_efficiency(1500, 82) == pytest.approx(1500 / 1582)
    assert ethernet.frame_efficiency(1500, 82) < ethernet.frame_efficiency(4096, 82)
    with pytest.raises(ValueError):
        ethernet.frame_efficiency(0, 82)
    # the catalogue's frame (the constants both scenes read) is the 82 bytes by hand
    frame = {k: const(c) for k, c in (("storage_mtu", "roce_max_mtu"), ("eth_preamble_bytes", "ethernet_preamble_sfd"),
                                      ("eth_header_bytes", "ethernet_mac_header"), ("eth_fcs_bytes", "ethernet_fcs"),
                                      ("eth_gap_bytes", "ethernet_interpacket_gap"),
                                      ("ip_header_bytes", "ipv4_header"), ("udp_header_bytes", "udp_header"),
                                      ("roce_bth_bytes", "roce_bth"), ("roce_icrc_bytes", "roce_icrc"))}
    assert ethernet.roce_frame_efficiency(**frame) == pytest.approx(4096 / 4178)


def test_host_read_rate_is_scene_02s_calibrated_rate(data, model_output):
    """The measured host's rate is pcie-cxl's own effective_bw_calibrated (one function, one value), and
    by hand: a third party's 53.8 GB/s (its shmoo's largest copy) on an 8-GPU H100 SXM5 node, a share of the
    Gen5 x16 raw rate (63.0 GB/s) carried to the same link, so the measured rate itself."""
    s = data["summary"]
    pc = model_output("pcie-cxl")[0]["summary"]
    assert s["host_to_gpu_read_rate"] == pytest.approx(pc["effective_bw_calibrated"], rel=1e-12)
    gen5 = 32e9 * 16 * 128 / 130 / 8
    assert s["host_to_gpu_read_rate"] == pytest.approx(53.8e9 / gen5 * gen5)
    assert s["host_to_gpu_read_rate"] / gen5 == pytest.approx(0.8538, abs=1e-4)
    assert s["host_to_gpu_read_rate"] < s["host_to_gpu_alone"]  # below the posted-write best case
    # break-even: 4 GPUs at the read rate over the socket's 281.6 GB/s peak (8 x 4400 MT/s x 8 B)
    assert s["memory_breakeven_read"] == pytest.approx(4 * s["host_to_gpu_read_rate"] / 281.6e9)
    assert s["memory_breakeven_read"] < s["memory_breakeven"]
    assert s["host_read_to_nic"] == pytest.approx(s["host_to_gpu_read_rate"] / 50e9)
    # the published host-to-GPU fact stays the best case, as other scenes read it
    assert data["records"]["scenario_facts"]["host_to_gpu_rate"] == pytest.approx(s["host_to_gpu_alone"])


def test_host_copy_timed_at_best_case_and_at_the_read_rate(data, params):
    # worked problem 2: 1 GB into every GPU at once, DDR5 at its peak (the x16 link binds either way):
    # 1e9 / 58.0 GB/s = 17.2 ms at the posted-write best case, 1e9 / 53.8 GB/s = 18.6 ms at the read rate
    s, pr = data["summary"], data["problems"]
    assert params["message"] == 1e9 and params["memory_efficiency"] == 1.0
    assert pr["host_time"] == pytest.approx(1e9 / s["host_to_gpu_contended"])
    assert pr["host_read_time"] == pytest.approx(1e9 / s["host_to_gpu_read_rate"])
    assert 17.1e-3 < pr["host_time"] < 17.3e-3 and 18.5e-3 < pr["host_read_time"] < 18.7e-3
    # when a socket sustains less than the read rate's share, memory sets both times alike
    from models.exhibit import claims_collected
    with claims_collected():  # the page's at-peak claims fail off the peak, as expected
        low = sv.hgx_server(**{**params, "memory_efficiency": 0.7}).to_dict()
    assert low["problems"]["host_read_time"] == pytest.approx(low["problems"]["host_time"])
    assert low["problems"]["host_time"] == pytest.approx(1e9 / (0.7 * 281.6e9 / 4))  # 49.3 GB/s a GPU, below 53.8


def test_host_path_labelled_best_case_in_the_table(data):
    names = [row[0] for row in data["table"]["rows"]]
    assert "host DRAM → GPU (posted-write best case)" in names


def test_table_names_links_in_words(data):
    kinds = {row[0]: row[3] for row in data["table"]["rows"]}
    assert all("ports" not in k or not k.startswith("1 ") for k in kinds.values())
    assert any(k.endswith("NVLinks to one NVSwitch") for k in kinds.values())


# --- mixed traffic: a checkpoint snapshot staged during an all-reduce (and reads during a receive) ----
X16_PAYLOAD = 32e9 * 16 * 128 / 130 / 8 * PAYLOAD_SHARE  # 63.0 GB/s x 256/278 = 58.0 GB/s
STORAGE_SHARE = 12.5e9 * ETH_SHARE / 4  # one 100 GbE port's data, four GPUs: 3.06 GB/s each
# one InfiniBand packet at 4096 bytes: LRH 8, BTH 12, ICRC 4, VCRC 2 (IBTA Vol. 1): 4096/4122 is data
IB_SHARE = 4096 / (4096 + 8 + 12 + 4 + 2)


def test_snapshot_mix_by_hand(data, params):
    s, mix = data["summary"], data["records"]["mix"]
    # the send at the 400G port's 50 GB/s + a posted-write D2H copy at the x16 link's 58.0 GB/s (four GPUs
    # at 58.0 ask 232 of a socket's 282 GB/s of DDR5: memory does not bind), both GPU -> switch
    asked = 50e9 + X16_PAYLOAD
    assert [r["key"] for r in mix["rows"]] == ["nic_send", "gpu_to_host"] and mix["link"] == ["gpu0", "sw0"]
    assert s["mix_capacity"] == pytest.approx(X16_PAYLOAD)
    assert s["mix_demand"] == pytest.approx(asked)
    assert s["mix_demand_share"] == pytest.approx(asked / X16_PAYLOAD)  # 108 / 58.0 = 186%
    # max-min: both ask more than half the link, so each gets half: 29.0 GB/s, the send loses 42%
    assert s["mix_over"] and s["mix_load_share"] == pytest.approx(1.0)
    assert s["mix_nic_rate"] == pytest.approx(X16_PAYLOAD / 2)
    assert s["mix_gpu_to_host_rate"] == pytest.approx(X16_PAYLOAD / 2)
    assert s["mix_nic_loss"] == pytest.approx(1 - X16_PAYLOAD / 2 / 50e9)
    # InfiniBand's headers leave 49.7 GB/s of data, still above the 29.0 fair share: the split holds
    assert s["mix_split_holds_with_ib_headers"]
    # a measured D2H copy (46.8 GB/s, Voltage Park) still asks more than the 29.0 GB/s fair share
    assert s["mix_d2h_measured_over_fair_share"] and 46.8e9 > X16_PAYLOAD / 2
    slow = sv.hgx_server(**{**params, "d2h_measured": 20e9}).to_dict()["summary"]
    assert not slow["mix_d2h_measured_over_fair_share"]
    # the same run's large copies (20.5 GB/s at 68 MB) fall below the fair share: the snapshot is capped off
    # the link and the send gets the rest, 58.0 - 20.5 = 37.5 GB/s by hand, 25% below the port's 50.0
    assert s["mix_d2h_large_under_fair_share"]
    assert s["mix_nic_rate_high"] == pytest.approx(X16_PAYLOAD - 20.5e9)
    assert s["mix_nic_rate_high"] == pytest.approx(37.5e9, rel=1e-3)
    assert s["mix_nic_loss_high"] == pytest.approx(1 - (X16_PAYLOAD - 20.5e9) / 50e9)
    # a D2H copy at or above the fair share collapses the range to it; one near zero leaves the port's demand
    fast = sv.hgx_server(**{**params, "d2h_large_measured": 40e9}).to_dict()["summary"]
    assert fast["mix_nic_rate_high"] == pytest.approx(fast["mix_nic_rate"])
    tiny = sv.hgx_server(**{**params, "d2h_large_measured": 1e9}).to_dict()["summary"]
    assert tiny["mix_nic_rate_high"] == pytest.approx(50e9)


def test_read_mix_by_hand(data):
    s, mix = data["summary"], data["records"]["readmix"]
    # NIC receive at the 400G port's 50 GB/s + the drive's 6.2 GB/s + a quarter of the storage port
    asked = 50e9 + 6.2e9 + STORAGE_SHARE
    assert mix["link"] == ["sw0", "gpu0"]
    assert s["readmix_demand"] == pytest.approx(asked)
    assert s["readmix_demand_share"] == pytest.approx(asked / X16_PAYLOAD)  # 59.3 / 58.0 = 102%
    assert s["readmix_over"] and s["readmix_load_share"] == pytest.approx(1.0)
    # the link runs full: the reads keep their rates and the NIC's receive gets what is left
    assert s["readmix_nic_rate"] == pytest.approx(X16_PAYLOAD - 6.2e9 - STORAGE_SHARE)  # 48.8 GB/s
    assert [r["key"] for r in mix["rows"]] == ["nic_receive", "nvme_to_gpu", "storage_to_gpu"]
    assert s["readmix_nic_data_share_to_fill"] == pytest.approx((X16_PAYLOAD - 6.2e9 - STORAGE_SHARE) / 50e9)


def test_infiniband_header_share_by_hand(data):
    s = data["summary"]
    assert s["compute_framing_efficiency"] == pytest.approx(IB_SHARE)  # 99.4%
    # above the read mix's 97.5% threshold: the link stays over-full with the headers charged
    assert s["readmix_over_with_ib_headers"] and IB_SHARE > s["readmix_nic_data_share_to_fill"]
    assert s["storage_slowdown_ib"] == pytest.approx(50e9 * IB_SHARE / STORAGE_SHARE)  # 16.2x


def test_mixed_rows_in_the_table(data):
    send, high, receive = data["table"]["rows"][-3:]
    assert send[0].startswith("all-reduce send during a checkpoint snapshot staged")
    assert send[4] == pytest.approx(50e9) and send[5] == pytest.approx(data["summary"]["mix_nic_rate"])
    assert send[6] == 2 and send[7] == pytest.approx(8 * send[5])
    # the high end by hand: the link's payload less the measured 20.5 GB/s large copy, below the port's 50 GB/s;
    # eight GPUs at once, about 300 GB/s for the node
    assert high[0].startswith("same send, high end") and "20.5 GB/s" in high[0]
    assert high[5] == pytest.approx(data["summary"]["mix_capacity"] - 20.5e9)
    assert 37e9 < high[5] < 38e9 and 296e9 < high[7] < 304e9 and high[7] == pytest.approx(8 * high[5])
    assert receive[0].startswith("all-reduce receive during input reads")
    assert receive[5] == pytest.approx(data["summary"]["readmix_nic_rate"]) and receive[6] == 3


def test_read_mix_fits_when_the_reads_are_slower(params):
    # a drive at 1 GB/s: 50 + 1 + 3.06 < 58.0, so the link has room and the NIC keeps its port's rate
    out = sv.hgx_server(**{**params, "drive_read_bw": 1e9, "drive_read_sweep": [1e9]}).to_dict()
    s = out["summary"]
    assert not s["readmix_over"] and s["readmix_demand_share"] < 1
    assert s["readmix_nic_rate"] == pytest.approx(50e9)
    assert s["readmix_load_share"] == pytest.approx(s["readmix_demand_share"])


def test_snapshot_split_holds_across_the_explore_range(params):
    # at half of DDR5's peak a socket sustains 141 GB/s: four snapshots ask 35.2 GB/s each, still above
    # half the link, so max-min still splits it evenly and the send gets 29.0 GB/s
    from models.exhibit import claims_collected
    with claims_collected():  # the page's at-peak host claim fails here, as the Explore panel says
        out = sv.hgx_server(**{**params, "memory_efficiency": 0.5})
    s = out.summary
    assert s["mix_gpu_to_host"] == pytest.approx(0.5 * 8 * 4400e6 * 8 / 4)
    assert s["mix_nic_rate"] == pytest.approx(X16_PAYLOAD / 2)


def test_mixed_load_never_exceeds_the_link(params):
    for drive in (1e9, 6.2e9, 6.9e9):
        out = sv.hgx_server(**{**params, "drive_read_bw": drive, "drive_read_sweep": [drive]}).to_dict()
        for mix in (out["records"]["mix"], out["records"]["readmix"]):
            assert mix["load"] <= mix["capacity"] * (1 + 1e-9)
            assert all(r["rate"] <= r["demand"] * (1 + 1e-9) for r in mix["rows"])


# --- the host link: NVLink-C2C against PCIe 5.0 x16 ----------------------------------------
def test_c2c_against_pcie_by_hand(data):
    s = data["summary"]
    # 900 GB/s both directions (NVIDIA, GH200) is 450 GB/s each way; PCIe 5.0 x16 is 63.0 GB/s raw
    assert const("gh200_nvlink_c2c_bw") == 900e9
    assert s["c2c_per_direction"] == pytest.approx(450e9)
    assert s["c2c_to_x16_raw"] == pytest.approx(450e9 / (32e9 * 16 * 128 / 130 / 8))  # 7.14x: NVIDIA's "7x"
    assert s["c2c_to_x16_payload"] == pytest.approx(450e9 / X16_PAYLOAD)


def test_two_gpus_per_uplink_halves_the_host_copy(data):
    # the assumed layout's alternative: two GPUs behind one x16 uplink split its 58.0 GB/s
    assert data["summary"]["host_to_gpu_two_per_uplink"] == pytest.approx(X16_PAYLOAD / 2)  # 29.0 GB/s
