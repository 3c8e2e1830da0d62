"""gpudirect-storage · GPUDirect Storage: the fair-share solver against hand-checked cases and
hgx-server's allocator, the DRAM byte count of each path, the invariants (the direct
path never moves more bytes through DRAM; it loses at tiny IOs only when cuFile's
setup exceeds the cudaMemcpy call), and NVIDIA's published values."""

from __future__ import annotations

import numpy as np
import pytest

from models import gpudirect_storage as gds
from models.constants import CONSTANTS
from models.exhibit import ClaimError, ParamError
from models.lib.checkpoint import checkpoint_bytes
from models.lib.node import allocate, build_node, dram_rate, flows_for, pcie_rate

SCENE = "gpudirect-storage"
# a storage port's data share, as hgx-server charges it: a RoCE v2 frame at the 4096-byte MTU spends
# 8 (preamble, SFD) + 14 (MAC) + 20 (IPv4) + 8 (UDP) + 12 (BTH) + 4 (ICRC) + 4 (FCS) + 12 (gap) = 82 bytes more
ETH = 4096 / 4178


@pytest.fixture(scope="module")
def data(model_output):
    return model_output(SCENE)[0]


@pytest.fixture(scope="module")
def node(scene_params):
    p = scene_params(SCENE)
    g = build_node(p["gpus"], p["cpu_sockets"], p["nvswitches"], p["nvlinks_per_gpu"], p["gpu_nvlink_bw"],
                   p["pcie_transfer_rate"], p["pcie_lanes"], p["nvme_lanes"], p["nic_port_rate"],
                   p["storage_nics"], p["storage_nic_ports"], p["memory_channels"], p["memory_transfer_rate"],
                   p["data_drives"], p["drive_read_bw"], nvme_transfer_rate=p["nvme_transfer_rate"])
    ddr = dram_rate(p["memory_channels"], p["memory_transfer_rate"])
    return gds.Node(g, ddr, p["cpu_cores"] / p["cpu_sockets"], p["cpu_sockets"]), p


def _knobs(p, **over):
    k = {"t_lat": p["drive_latency"], "t_sys": p["syscall_time"], "t_gds": p["gds_setup_time"],
         "t_memcpy": p["call_latency"], "memcpy_bw": p["memcpy_bandwidth"],
         "x16": pcie_rate(p["pcie_transfer_rate"], p["pcie_lanes"]), "sockets": p["cpu_sockets"],
         "page_cpu": p["reclaim_cores"] / p["reclaim_rate"]}
    k.update(over)
    return k


# --- the solver ----------------------------------------------------------------------
def test_hand_checked_case_fair_rates():
    # two flows on one resource of 10: 5 each; cap one at 2 and the other takes 8
    assert gds.fair_rates([np.inf, np.inf], [[1], [1]], [10]).tolist() == pytest.approx([5, 5])
    assert gds.fair_rates([2, np.inf], [[1], [1]], [10]).tolist() == pytest.approx([2, 8])
    # a flow using a resource twice (the bounce path's DRAM) gets half as much of it
    assert gds.fair_rates([np.inf], [[4]], [100]).tolist() == pytest.approx([25])
    # a flow with no demand gets nothing, and nothing spins
    assert gds.fair_rates([0, np.inf], [[1], [1]], [10]).tolist() == pytest.approx([0, 10])


def test_direct_reads_match_scene_04s_allocator(node):
    # uncapped direct flows through the node's links are what hgx-server's max-min allocator gives
    n, _ = node
    for kind in ("nvme_to_gpu", "storage_to_gpu"):
        flows = flows_for(n.g, kind)
        ours = gds.fair_rates(np.full(len(flows), np.inf), _link_matrix(n, flows), n.cap)
        assert ours.tolist() == pytest.approx(allocate(n.g, flows)["rates"], rel=1e-9)


def _link_matrix(n, flows):
    a = np.zeros((len(flows), len(n.keys)))
    for f, (src, dst) in enumerate(flows):
        for i, u, _v in n.hops(src, dst):
            a[f, n.index[(i, u)]] += 1
    return a


# --- the byte count and the invariants ---------------------------------------------------
def test_dram_traffic_is_4_2_0_bytes_per_byte_delivered(data):
    for _source, path, k, into_hbm, dram, _cores, _neck in data["table"]["rows"]:
        assert k == {"POSIX read through the page cache": 4, "POSIX read with O_DIRECT": 2,
                     "GPUDirect Storage": 0}[path]
        assert dram == pytest.approx(k * into_hbm)


def test_direct_never_moves_more_through_dram_nor_less_into_hbm(data):
    rows = data["table"]["rows"]
    for source in {r[0] for r in rows}:
        by = {r[1]: r for r in rows if r[0] == source}
        direct = by["GPUDirect Storage"]
        for other in by.values():
            assert direct[4] <= other[4]
            assert direct[3] >= other[3] * (1 - 1e-9)


def test_no_resource_over_capacity_at_any_point(node):
    n, p = node
    for path in gds.PATHS:
        for size in (4096.0, 1 << 20, 1 << 24):
            r = gds.solve(n, gds.stream_flows(n.g, "both", 8), size, path, _knobs(p))
            assert r["max_util"] <= 1 + 1e-9


def test_bounce_path_crosses_dram_and_uplink_twice(data):
    legs = data["records"]["paths"]["local_buffered"]["legs"]
    assert legs[0][-1].startswith("dram") and legs[1][0].startswith("dram")
    assert data["records"]["paths"]["local_direct"]["legs"] == [["nvme0", "sw0", "gpu0"]]
    # four PCIe hops (drive up to the CPU, CPU down to the GPU) around two trips into DRAM
    assert data["summary"]["local_hops_bounce"] == 4 and data["summary"]["local_hops_direct"] == 2


def test_direct_loses_small_ios_only_when_cufile_setup_exceeds_the_memcpy_call(node):
    n, p = node
    sizes = np.logspace(np.log10(512), 8, 60)
    bw = p["drive_read_bw"]
    x16 = pcie_rate(p["pcie_transfer_rate"], p["pcie_lanes"])
    args = (p["drive_latency"], p["syscall_time"])
    for t_gds in (0.0, p["call_latency"], 2 * p["call_latency"], 1e-4):
        tb = gds.io_time(sizes, "buffered", bw, x16, *args, t_gds, p["call_latency"], p["memcpy_bandwidth"])
        td = gds.io_time(sizes, "direct", bw, x16, *args, t_gds, p["call_latency"], p["memcpy_bandwidth"])
        if t_gds <= p["call_latency"]:
            assert np.all(td <= tb)  # nothing to lose: direct is never slower
        else:
            assert td[0] > tb[0] and td[-1] < tb[-1]  # loses the smallest, wins the largest
            n_star = gds._crossover(t_gds, p["call_latency"], p["memcpy_bandwidth"], x16)
            at = [gds.io_time(n_star, pth, bw, x16, *args, t_gds, p["call_latency"], p["memcpy_bandwidth"])
                  for pth in ("buffered", "direct")]
            assert at[0] == pytest.approx(at[1], rel=1e-12)


def test_claim_fails_when_direct_no_longer_wins_large_ios(scene_params):
    # the page's claims are checked where they are made: make cuFile's setup absurd and one fails
    p = scene_params(SCENE)
    p.update(gds_setup_time=5e-3)
    with pytest.raises(ClaimError):
        gds.gpudirect_storage(**p)


# --- published values ----------------------------------------------------------------------
def test_gdsio_one_drive_bounce_costs_little_when_the_drive_is_the_bottleneck(node):
    # NVIDIA, "GDS Support for NVMe: Test GDS": gdsio, one NVMe drive, 4 threads, 1 MiB IOs:
    # READ CPUONLY 3.227660 GiB/s, READ CPU_GPU (host bounce buffer) 3.135021 GiB/s: ratio 0.971.
    # The model, with that drive's host-only rate as the drive, 4 streams on one GPU: the bounce
    # path is drive-bound too, so its ratio to the drive rate is within a few percent of theirs.
    n, p = node
    host_only = CONSTANTS["gdsio_nvme_cpuonly_read"].value
    published = CONSTANTS["gdsio_nvme_cpu_gpu_read"].value / host_only
    assert published == pytest.approx(0.971, abs=1e-3)
    p = dict(p, drive_read_bw=host_only)
    g = build_node(p["gpus"], p["cpu_sockets"], p["nvswitches"], p["nvlinks_per_gpu"], p["gpu_nvlink_bw"],
                   p["pcie_transfer_rate"], p["pcie_lanes"], p["nvme_lanes"], p["nic_port_rate"],
                   p["storage_nics"], p["storage_nic_ports"], p["memory_channels"], p["memory_transfer_rate"],
                   p["data_drives"], host_only)
    one = gds.Node(g, n.cap[n.index[("dram", 0)]], p["cpu_cores"] / 2, 2)
    r = gds.solve(one, [("nvme0", "gpu0")] * 4, float(1 << 20), "buffered", _knobs(p))
    assert r["full"] == ["drive"]
    assert r["total"] / host_only == pytest.approx(published, abs=0.05)


def test_dgx2_blog_ratio_against_the_h100_node(data):
    # NVIDIA blog 2019 (DGX-2): system memory to GPUs limited to 50 GB/s; drives, NICs and system
    # memory combined nearly 200 GB/s. On hgx-server's DGX H100 the host pipe is the wider one.
    s = data["summary"]
    assert s["published_ratio"] == pytest.approx(200 / 50)
    assert s["model_ratio"] < 1 < s["published_ratio"]
    x16 = s["x16_rate"]
    # PCIe 5.0 x16 payload after packet overhead, as pcie-cxl and hgx-server count it: 63.0 × 256/278 GB/s
    assert x16 == pytest.approx(32e9 * 16 * 128 / 130 / 8 * 256 / (256 + 20 + 8 / 4), rel=1e-12)
    assert data["records"]["scenario_facts"]["host_to_gpu_rate"] == x16
    assert s["host_to_gpu_ceiling"] == pytest.approx(8 * x16)  # 8 switch uplinks, DDR5 not full
    assert s["node_drive_bw"] == pytest.approx(8 * 6.2e9)  # eight drives at their rated read
    # each storage NIC's one storage port (BasePOD's wiring) at its SN4600C switch's 100 GbE, 12.5 GB/s of line
    # rate, 98.0% of it data (RoCE v2 frames, as hgx-server charges them): 24.5 GB/s for the two, far below
    # their x16 links and the card's 400G
    assert CONSTANTS["dgx_h100_storage_port_rate"].value == pytest.approx(12.5e9)
    assert s["storage_framing_efficiency"] == pytest.approx(ETH) and 0.980 < ETH < 0.981
    assert s["storage_port_data_rate"] == pytest.approx(12.5e9 * ETH)
    assert s["node_network_bw"] == pytest.approx(2 * 12.5e9 * ETH) == pytest.approx(24.51e9, rel=1e-3)
    assert s["node_network_bw"] < 2 * CONSTANTS["ndr_port_rate"].value < 2 * x16
    assert s["storage_to_gpu_ceiling"] == pytest.approx(s["node_drive_bw"] + s["node_network_bw"])  # 74.1 GB/s
    assert s["model_ratio"] == pytest.approx((49.6e9 + 25e9 * ETH) / (8 * x16))


def test_storage_ports_carry_scene_04s_data_rate(data, model_output):
    # one port data rate for both scenes: hgx-server's framing share, and the same storage NICs' aggregate
    hgx = model_output("hgx-server")[0]
    s = data["summary"]
    assert s["storage_framing_efficiency"] == hgx["summary"]["storage_framing_efficiency"]
    assert s["node_network_bw"] == pytest.approx(hgx["records"]["paths"]["storage_to_gpu"]["aggregate"], rel=1e-12)


def test_kvikio_threshold_round_trip(data, scene_params):
    # KvikIO's default GDS threshold (1 MiB): the cuFile setup it implies puts the crossover there
    s, p = data["summary"], scene_params(SCENE)
    assert p["kvikio_threshold"] == 1 << 20
    x16 = s["x16_rate"]
    assert gds._crossover(s["implied_gds_setup"], p["call_latency"], p["memcpy_bandwidth"], x16) == \
        pytest.approx(p["kvikio_threshold"])
    assert s["implied_gds_setup"] > p["gds_setup_time"]  # the assumed setup is the smaller, kinder one


# --- the worked problems ----------------------------------------------------------------------
def test_restore_is_set_by_the_fabric_share(data, scene_params):
    p = scene_params(SCENE)
    r = data["problems"]["restore"]
    nodes = p["cluster_gpus"] // p["gpus"]
    assert r["shard"] == pytest.approx(checkpoint_bytes(p["model_params"], p["weight_bytes"],
                                                        p["optimizer_bytes"]) / nodes)
    assert r["fabric_share"] == pytest.approx(p["storage_fabric_bw"] / nodes)
    for path in gds.PATHS:
        assert r[path]["time"] == pytest.approx(r["shard"] / r["fabric_share"])
    assert data["problems"]["restore_saved_core_seconds"] > 0


def test_buffered_path_hits_host_memory_before_the_cpu(data, scene_params):
    # at BasePOD's 100 GbE storage ports neither fills: drives + ports give 49.6 + 24.5 = 74.1 GB/s, and the
    # page cache's 4 bytes of DRAM traffic per byte, 296.4 GB/s, stay below both sockets' 2 x 281.6 GB/s
    s = data["summary"]
    both = 49.6e9 + 25e9 * ETH
    assert s["buffered_dram_full_streams"] == 0 and s["buffered_cpu_full_streams"] == 0
    assert s["both_dram_bound"] is False
    assert s["both_buffered"] == pytest.approx(both) and s["both_buffered_dram"] == pytest.approx(4 * both)
    assert s["both_buffered_dram"] < 2 * s["dram_rate_per_socket"]
    # with the card's own 400G port (49.6 + 98.0 = 147.6 GB/s offered, 590.6 GB/s of DRAM traffic) host memory
    # fills, the CPU not
    fast = gds.gpudirect_storage(**dict(scene_params(SCENE), storage_port_rate=CONSTANTS["ndr_port_rate"].value))
    f = fast.summary
    assert 0 < f["buffered_dram_full_streams"] <= f["max_streams"]
    assert f["buffered_cpu_full_streams"] == 0 and f["both_dram_bound"] is True
    assert f["both_gain"] == pytest.approx((49.6e9 + 100e9 * ETH) / 140.8e9)
    assert f["both_buffered_dram"] == pytest.approx(2 * f["dram_rate_per_socket"])  # both sockets full


# --- the storage-port assignment and the CPU count (issue #32 review) ---------------------------
def test_gain_is_a_range_over_the_storage_port_assignment(data, scene_params):
    # BasePOD bonds one port per card for storage, into 100 GbE SN4600C ports; both ports carry storage only
    # with the optional InfiniBand storage port, and a faster switch runs a port up to the card's 400G.
    # By hand, drives 8 x 6.2 = 49.6 GB/s plus the cards' ports (98.0% of their line rate is data: RoCE v2
    # frames), against the buffered path's host-memory cap, 2 x 281.6 / 4 = 140.8 GB/s:
    #   card's line 12.5 GB/s (1 x 100G), 12.25 of data: 49.6 + 24.5 = 74.1 both ways, 1x
    #   25 GB/s (1 x 200G or 2 x 100G), 24.5 of data: 98.6 both ways, 1x
    #   50 GB/s (1 x 400G or 2 x 200G), 49.0 of data: direct 147.6, buffered capped at 140.8: 1.049x
    #   100 GB/s (2 x 400G): the x16 links (2 x 58.0) bind, direct 165.7 against 140.8
    s, p = data["summary"], scene_params(SCENE)
    rows = {(r["ports"], r["rate"]): r for r in data["records"]["port_span"]}
    assert set(rows) == {(n, r) for n in (1, 2) for r in (12.5e9, 25e9, 50e9)}
    assert [r["headline"] for r in data["records"]["port_span"]].count(True) == 1 and rows[(1, 12.5e9)]["headline"]
    def d(card_line):  # drives plus both cards' data
        return 49.6e9 + 2 * card_line * ETH
    for key, direct, buffered in (((1, 12.5e9), d(12.5e9), d(12.5e9)), ((1, 25e9), d(25e9), d(25e9)),
                                  ((2, 12.5e9), d(25e9), d(25e9)), ((1, 50e9), d(50e9), 140.8e9),
                                  ((2, 25e9), d(50e9), 140.8e9)):
        assert rows[key]["port_rate"] == pytest.approx(key[0] * key[1] * ETH)
        assert rows[key]["direct"] == pytest.approx(direct) and rows[key]["buffered"] == pytest.approx(buffered)
        assert rows[key]["network_full"] == "storage NIC ports"
    assert rows[(2, 50e9)]["network_full"] == "storage NIC's PCIe link"
    assert rows[(2, 50e9)]["direct"] == pytest.approx(8 * 6.2e9 + 2 * s["x16_rate"])
    # the headline is BasePOD's wiring, no bandwidth gain; the widest wiring is the high end
    assert p["storage_nic_ports"] == 1 and p["storage_port_rate"] == pytest.approx(12.5e9)
    assert s["both_gain"] == pytest.approx(s["gain_low"]) == pytest.approx(1.0)
    assert s["gain_high"] == pytest.approx((8 * 6.2e9 + 2 * s["x16_rate"]) / 140.8e9)
    assert s["dram_bound_card_rate"] == pytest.approx(50e9 * ETH)  # host memory fills from 49.0 GB/s a card
    # the optional second port at BasePOD's switch speed: 98.6 GB/s, still no gain
    q = dict(p, storage_nic_ports=2)
    assert gds.gpudirect_storage(**q).summary["both_gain"] == pytest.approx(1.0)


def test_storage_port_options_must_be_whole_and_include_the_headline(scene_params):
    p = scene_params(SCENE)
    for bad in ([1.5, 1], [0, 1], [2]):  # [2] leaves out the headline, BasePOD's one port
        with pytest.raises(ParamError):
            gds.gpudirect_storage(**dict(p, storage_nic_ports_options=bad))


def test_kswapd_reclaim_limit(data):
    # one kswapd per NUMA node, 2 on a DGX H100: 2 x 4096 B per 1.20 us = 2 x 95.552 GB/s / 28 = 6.83 GB/s, far
    # below the ~74 GB/s the headline's page cache reads; the rest falls on the readers (direct reclaim)
    s = data["summary"]
    assert s["kswapd_threads"] == 2
    assert s["kswapd_reclaim_rate"] == pytest.approx(2 * 95552e6 / 28)
    assert s["kswapd_reclaim_rate"] + s["direct_reclaim_rate"] == pytest.approx(s["both_buffered"])
    assert 0.05 < s["kswapd_reclaim_share"] < 0.15
    # Axboe's buffered-read test: 158067 MB/s before the cache fills, 95552 MB/s after
    assert s["read_test_kept"] == pytest.approx(95552 / 158067)


def test_cpu_count_per_page_spin_and_wait(data, scene_params):
    # Axboe's buffered-read test: the kswapd threads burned ~28 cores keeping a full page cache reading at
    # 95552 MB/s, so reclaim costs 28 x 4096 B / 95.552 GB/s = 1.20 us of a core per 4 KiB page.
    s, p = data["summary"], scene_params(SCENE)
    assert s["page_time"] == pytest.approx(28 * 4096 / 95552e6)
    rate, n = s["both_buffered"], s["io_size"]
    assert s["pages_per_s"] == pytest.approx(rate / 4096)  # ~18M pages/s at 74.6 GB/s
    by_hand = rate * (1 / p["memcpy_bandwidth"] + s["page_time"] / 4096 + 1 / s["x16_rate"]) \
        + rate / n * (p["syscall_time"] + p["call_latency"])
    assert s["both_buffered_cores"] == pytest.approx(by_hand)
    assert s["buffered_page_cores"] > s["buffered_copy_cores"]  # reclaim, not the copy, dominates
    # the direct path is charged its read() call only: cuFile's setup is time a thread waits
    assert s["both_direct_cores"] == pytest.approx(s["both_direct"] / n * p["syscall_time"])
    assert s["both_direct_cores"] < s["both_odirect_cores"] < s["both_buffered_cores"]
    # the card's "60% -> 2%" against the node's 112 cores: at the widest storage wiring compared the model's
    # ends are near it, not on it; at BasePOD's slower ports the node reads less and fewer cores are busy
    assert 0.4 < s["buffered_cpu_share_high"] < 0.6 and s["direct_cpu_share_high"] < 0.02
    assert s["buffered_cpu_share"] < s["buffered_cpu_share_high"] and s["direct_cpu_share"] < 0.02


def test_page_cache_cpu_calibrated_against_axboes_read_test(data, scene_params):
    # the read test: kswapds ~28 cores + the app 3199 %CPU at 95552 MB/s; with RWF_DONTCACHE the app's
    # 3180 %CPU at ~155 GB/s and no kswapd. By hand:
    s, p = data["summary"], scene_params(SCENE)
    measured = (28 + 31.99) / 95552e6  # 0.628 ns of a core per byte
    assert s["read_test_cpu_per_byte"] == pytest.approx(measured)
    assert s["dontcache_cpu_per_byte"] == pytest.approx(31.80 / 155e9)
    # everything the cached read costs beyond the uncached one, per 4 KiB page: 1.73 us
    assert s["page_time_full"] == pytest.approx(4096 * (measured - 31.80 / 155e9))
    assert 1.72e-6 < s["page_time_full"] < 1.74e-6
    # the write test's 32 x 4096 B / 115 GB/s = 1.14 us agrees with the read test's 1.20 us
    assert s["write_page_time"] == pytest.approx(32 * 4096 / 115e9)
    # the model at the test's 64 KiB reads: copy + t_page + read() per byte, below what the test measured
    model = 1 / p["memcpy_bandwidth"] + 28 / 95552e6 + p["syscall_time"] / 65536
    assert s["model_cpu_per_byte_at_test"] == pytest.approx(model)
    assert model < measured
    # his 64 KiB reads make 16 read() calls per MiB where the node's 1 MiB reads make one: at t_sys = 5 us the
    # extra calls are 5 us x (1/64 KiB - 1/1 MiB) = 0.072 ns a byte, about 5.3 cores at the headline's rate
    extra = p["syscall_time"] * (1 / 65536 - 1 / 2**20)
    assert s["read_call_cpu_per_byte"] == pytest.approx(extra)
    assert 5.0 < s["read_call_cores"] < 5.6
    # the node at the measured CPU per byte, less those calls: ~43 of 112 cores (38%), against the model's ~31 (28%)
    rate = s["both_buffered"]
    by_hand = rate * (measured - extra) + rate / s["x16_rate"] + rate / s["io_size"] * p["call_latency"]
    assert s["buffered_cores_measured"] == pytest.approx(by_hand)
    assert 0.36 < s["buffered_cpu_share_measured"] < 0.40
    # at the widest wiring (141 GB/s, host memory full) the card's 60% lies between the model and the measurement
    w = s["buffered_high"]
    assert s["buffered_cpu_share_high_measured"] == pytest.approx(
        (w * (measured - extra) + w / s["x16_rate"] + w / s["io_size"] * p["call_latency"]) / 112)
    assert s["buffered_cpu_share_high"] < p["card_cpu_share"] < s["buffered_cpu_share_high_measured"]
    assert 0.26 < s["buffered_cpu_share"] < 0.30


def test_syscall_table_carries_the_measured_end(data, scene_params):
    # the measured end at each read() CPU time: Axboe's 0.628 ns a byte less (t_sys x (1/64 KiB - 1/1 MiB)), plus
    # the spin and the cudaMemcpy calls; at 2 us it keeps ~46 cores (41%), at 10 us ~38 (34%), the model ~31 each
    s, p = data["summary"], scene_params(SCENE)
    rows = data["records"]["syscall_sweep"]
    assert [r["syscall_time"] for r in rows] == [2e-6, 5e-6, 1e-5]
    assert [r["headline"] for r in rows] == [False, True, False]
    measured = (28 + 31.99) / 95552e6
    for r in rows:
        rate = r["buffered_rate"]
        extra = r["syscall_time"] * (1 / 65536 - 1 / 2**20)
        by_hand = rate * (measured - extra) + rate / s["x16_rate"] + rate / s["io_size"] * p["call_latency"]
        assert r["measured_cores"] == pytest.approx(by_hand)
        assert r["measured_cores"] > r["buffered_cores"]
    assert rows[1]["measured_cores"] == pytest.approx(s["buffered_cores_measured"])
    assert 0.40 < rows[0]["measured_share"] < 0.42 and 0.33 < rows[-1]["measured_share"] < 0.34
    assert s["buffered_cpu_share_measured_hi"] == pytest.approx(rows[0]["measured_share"])
    assert s["buffered_cpu_share_measured_lo"] == pytest.approx(rows[-1]["measured_share"])


def test_lru_lock_rate_against_axboes_box(data):
    # Axboe's box: 95552 MB/s over 32 NUMA nodes' LRUs = 0.73 M pages/s a lock; this node: its page cache's rate
    # over 2 nodes, about 9.0 M pages/s a lock, about 12x
    s = data["summary"]
    theirs = 95552e6 / 4096 / 32
    ours = s["both_buffered"] / 4096 / 2
    assert s["read_test_lru_lock_page_rate"] == pytest.approx(theirs)
    assert s["lru_lock_page_rate"] == pytest.approx(ours)
    assert s["lru_lock_rate_ratio"] == pytest.approx(ours / theirs)
    assert 11.5 < s["lru_lock_rate_ratio"] < 13
    # the 32 NUMA nodes are the read test's own count ('32 kswapd threads'), not the write test's
    assert s["read_test_numa_nodes"] == CONSTANTS["uncached_read_test_kswapd_threads"].value == 32
    assert CONSTANTS["uncached_read_test_kswapd_threads"].source == "axboe-dontcache-read-patch"


def test_lru_lock_takes_are_batched_and_snc4_cuts_the_ratio(data):
    # the kernel adds 31 folios a lock take and isolates 32 (then takes the lock again to put back): per 4 KiB page
    # 1/31 + 2/32 lock takes, ~0.86 M a second a node here against ~0.069 M on Axboe's box, the same 12x
    s = data["summary"]
    per_page = 1 / 31 + 2 / 32
    assert s["lru_lock_takes_per_page"] == pytest.approx(per_page)
    assert s["lru_lock_takes"] == pytest.approx(s["lru_lock_page_rate"] * per_page)
    assert s["lru_lock_takes"] / s["read_test_lru_lock_takes"] == pytest.approx(s["lru_lock_rate_ratio"])
    assert 0.8e6 < s["lru_lock_takes"] < 0.9e6
    # SNC4: 2 sockets x 4 = 8 NUMA nodes, a quarter of the pages onto each LRU: ~2.3 M/s, ~3.1x Axboe's box,
    # and 8 kswapds reclaiming 8 x 4096 B / 1.20 us = 27 GB/s
    assert s["snc_numa_nodes"] == 8
    assert s["snc_lru_page_rate"] == pytest.approx(s["both_buffered"] / 4096 / 8)
    assert s["snc_lru_rate_ratio"] == pytest.approx(s["lru_lock_rate_ratio"] / 4)
    assert 3.0 < s["snc_lru_rate_ratio"] < 3.2
    assert s["snc_kswapd_reclaim_rate"] == pytest.approx(4 * s["kswapd_reclaim_rate"])


def test_reclaim_placement_sweep(data, scene_params):
    # a share f of the reclaim on the 2 kswapds only: they fill when the page cache reads 2 x 4096 B / (f t_page)
    s, p = data["summary"], scene_params(SCENE)
    rows = data["records"]["reclaim_placement"]
    t_page = 28 * 4096 / 95552e6
    assert [r["share"] for r in rows] == sorted(p["reclaim_kswapd_shares"])
    for r in rows:
        cap = np.inf if r["share"] == 0 else 2 * 4096 / (r["share"] * t_page)
        assert r["buffered"] == pytest.approx(min(s["both_buffered"], cap))
        assert r["gain"] == pytest.approx(s["both_direct"] / r["buffered"])
    gains = [r["gain"] for r in rows]
    assert all(b >= a for a, b in zip(gains, gains[1:]))  # monotone in the share
    assert gains[0] == pytest.approx(s["both_gain"])  # any core: the headline
    # kswapd only: 6.83 GB/s, so GPUDirect moves ~10.9x as much at BasePOD's wiring
    assert s["reclaim_kswapd_only_rate"] == pytest.approx(2 * 95552e6 / 28)
    assert s["reclaim_gain_high"] == pytest.approx(s["both_direct"] / (2 * 95552e6 / 28))
    assert s["reclaim_share_binds"] == pytest.approx(2 * 95552e6 / 28 / s["both_buffered"])
    # the shares tried must start at 0 (any core, the headline's) and stay at most 1
    for bad in ([0.5, 1.0], [0.0, 1.5]):
        with pytest.raises(ParamError):
            gds.gpudirect_storage(**dict(p, reclaim_kswapd_shares=bad))


# --- the review's sweeps: reclaim and copy estimates, O_DIRECT at small IOs, the host-memory threshold -----
def test_busy_cores_swept_over_reclaim_and_copy_estimates(data, scene_params):
    # the page cache's cores are rate x (1/m + t_page/4096 + 1/B_x16) + IOs/s x (t_sys + t0); the bandwidth
    # (74.6 GB/s, drives and ports full) does not move, so each corner is by hand
    s, p = data["summary"], scene_params(SCENE)
    rate, n = s["both_buffered"], s["io_size"]

    def cores(scale, m):
        return rate * (1 / m + scale * s["page_time"] / 4096 + 1 / s["x16_rate"]) \
            + rate / n * (p["syscall_time"] + p["call_latency"])

    rows = data["records"]["cpu_span"]
    assert len(rows) == 9
    for r in rows:
        assert r["cores"] == pytest.approx(cores(r["page_scale"], r["memcpy_bw"]), rel=1e-9)
    assert s["buffered_cores_lo"] == pytest.approx(cores(0.5, 20e9))  # ~16 cores
    # the slowest copy tried is the slower host scene 02 measures (3.3 GB/s), the fastest a 20 GB/s what-if
    assert [r["memcpy_bw"] for r in rows[:3]] == pytest.approx([3.3e9, p["memcpy_bandwidth"], 20e9])
    assert s["buffered_cores_hi"] == pytest.approx(cores(1.5, 3.3e9))  # ~57 cores
    assert 15 < s["buffered_cores_lo"] < 17 and 56 < s["buffered_cores_hi"] < 58
    # at BasePOD's wiring even the harshest corner (t_page x 1.5, a 3.3 GB/s copy) is short of the card's 60%
    assert s["buffered_cpu_share_lo"] < s["buffered_cpu_share"] < s["buffered_cpu_share_hi"] < 0.6


def test_odirect_beats_direct_per_stream_below_its_own_crossover(data, scene_params):
    # T_O_DIRECT - T_direct = t0 + n/B_x16 - t_GDS: zero at (t_GDS - t0) B_x16 = (20 - 6) us x 58.0 GB/s = 812 kB
    s, p = data["summary"], scene_params(SCENE)
    x16 = s["x16_rate"]
    n_od = (p["gds_setup_time"] - p["call_latency"]) * x16
    assert s["odirect_crossover_io"] == pytest.approx(n_od)
    assert 0.8e6 < n_od < 0.82e6 and n_od > s["crossover_io"]
    args = (s["node_drive_bw"] / p["data_drives"], x16, p["drive_latency"], p["syscall_time"],
            p["gds_setup_time"], p["call_latency"], p["memcpy_bandwidth"])
    assert gds.io_time(n_od, "odirect", *args) == pytest.approx(gds.io_time(n_od, "direct", *args), rel=1e-12)
    assert gds.io_time(0.9 * n_od, "odirect", *args) < gds.io_time(0.9 * n_od, "direct", *args)
    assert s["one_stream_odirect"] < s["one_stream_direct"]  # 1 MiB is above it, barely
    for r in data["records"]["setup_sweep"]:
        assert r["odirect_crossover"] == pytest.approx(max(0.0, (r["gds_setup"] - p["call_latency"]) * x16))
    # at saturation O_DIRECT matches the direct path's bandwidth on under 2% of the cores
    assert s["both_odirect"] == pytest.approx(s["both_direct"]) and s["odirect_cpu_share"] < 0.02


def test_host_memory_threshold_computed_and_swept(data):
    # per socket: DDR5 281.6 GB/s / 4 bytes per byte = 70.4 GB/s, less its four drives' 24.8 GB/s, over one
    # card: 45.6 GB/s a card (not 49.0, the data rate of the first wiring compared that fills)
    s = data["summary"]
    assert s["dram_fill_card_rate"] == pytest.approx(45.6e9)
    rows = {(r["efficiency"], r["bytes"]): r for r in data["records"]["dram_fill"]}
    assert rows[(0.8, 5.0)]["card_rate"] == pytest.approx(0.8 * 281.6e9 / 5 - 24.8e9)  # 20.3 GB/s
    assert rows[(0.8, 4.0)]["card_rate"] == pytest.approx(0.8 * 281.6e9 / 4 - 24.8e9)  # 31.5 GB/s
    cards = data["records"]["dram_fill_card_rates"]
    assert cards == pytest.approx([12.5e9 * ETH, 25e9 * ETH, 50e9 * ETH, 100e9 * ETH])
    for r in rows.values():
        assert r["fills"] == [c >= r["card_rate"] for c in cards]
    # 80% sustained and read-for-ownership: the 200G (24.5 GB/s of data) wiring fills; BasePOD's 100G does not
    # with the headline's drives
    assert rows[(0.8, 5.0)]["fills"][1] and not any(r["fills"][0] for r in rows.values())
    # ... but with the faster drives (6.9 GB/s each), 70% sustained and read for ownership it does:
    # 0.7 x 281.6 / 5 - 4 x 6.9 = 11.8 GB/s a card, under BasePOD's 12.25 GB/s of data
    assert s["headline_fills_in_sweep"] is True
    assert s["headline_fill_cases"] == 1 and s["fill_cases"] == 16  # 4 shares x 2 byte counts x 2 drive ratings
    # above the x16 link the card cannot carry it: memory never fills; drives alone filling it: 0
    assert gds.dram_fill_card_rate(1e12, 4, 24.8e9, 1, 58e9) is None
    assert gds.dram_fill_card_rate(50e9, 4, 24.8e9, 1, 58e9) == 0.0


# --- s54: the drives' range in the host-memory table, one drive-link rate, cuFile's setup on a core -------------
def test_host_memory_threshold_carries_the_drives_range(data):
    # per socket, per card: DDR5 x share / bytes per byte, less four drives at each rating (6.2 and 6.9 GB/s)
    s = data["summary"]
    assert data["records"]["dram_fill_drive_rates"] == pytest.approx([6.2e9, 6.9e9])
    assert s["node_drive_bw_low"] == pytest.approx(8 * 6.2e9) and s["node_drive_bw_high"] == pytest.approx(8 * 6.9e9)
    assert s["dram_fill_card_rate_fast_drives"] == pytest.approx(281.6e9 / 4 - 4 * 6.9e9)  # 42.8 GB/s
    for r in data["records"]["dram_fill"]:
        by_hand = [r["efficiency"] * 281.6e9 / r["bytes"] - 4 * d for d in (6.2e9, 6.9e9)]
        assert [b["card_rate"] for b in r["by_drive"]] == pytest.approx(by_hand)
        assert r["by_drive"][0]["card_rate"] == pytest.approx(r["card_rate"])  # the headline's drives first
        # faster drives only ever tip a card rate from clear to full, never back
        assert all(b >= a for a, b in zip(r["fills"], r["fills_some_drives"]))
    assert s["dram_fill_card_rate_low"] == pytest.approx(0.7 * 281.6e9 / 5 - 4 * 6.9e9)  # 11.8 GB/s


def test_drive_link_is_scene_04s_gen4_rate(data, model_output):
    # one fact, one value: a drive's x4 link at PCIe 4.0 (16 GT/s), payload share charged, as hgx-server has it
    hgx = model_output("hgx-server")[0]
    s = data["summary"]
    assert s["drive_link_rate"] == pytest.approx(hgx["summary"]["pcie_nvme_payload_rate"], rel=1e-12)
    assert s["drive_link_rate"] == pytest.approx(16e9 * 4 * 128 / 130 / 8 * s["x16_rate"] / (32e9 * 16 * 128 / 130 / 8))
    # above either drive rating, so the drives, not their links, set the node's 49.6 GB/s
    assert s["drive_link_rate"] > 6.9e9 and s["node_drive_bw"] == pytest.approx(8 * 6.2e9)


def test_gds_setup_on_a_core_swept(data, scene_params):
    # GPUDirect's cores at saturation: IOs/s x (t_sys + share x t_GDS); 74.1 GB/s / 1 MiB = 70.7k IOs/s.
    # Asleep (the headline) it is the read() call alone: 0.32% of 112 cores; 20 us all on a core: 1.6%
    s, p = data["summary"], scene_params(SCENE)
    ios = s["both_direct"] / s["io_size"]
    rows = data["records"]["setup_sweep"]
    assert data["records"]["gds_cpu_shares"] == [0.0, 1.0]
    for r in rows:
        assert r["cpu_shares"][0] == pytest.approx(s["direct_cpu_share"])
        assert r["cpu_shares"][-1] == pytest.approx(ios * (p["syscall_time"] + r["gds_setup"]) / 112)
    assert 0.0031 < s["direct_cpu_share"] < 0.0032 and 0.0155 < s["gds_cpu_share_spent"] < 0.016
    # the sweep ends at KvikIO's implied setup, whose crossover is KvikIO's 1 MiB threshold
    assert rows[-1]["implied"] and rows[-1]["gds_setup"] == pytest.approx(s["implied_gds_setup"])
    assert rows[-1]["crossover"] == pytest.approx(p["kvikio_threshold"])
    assert [r["gds_setup"] for r in rows if r["headline"]] == [p["gds_setup_time"]]
    # all on a core, GPUDirect passes O_DIRECT's 2.05 cores at 2.05 / 70.7k IOs/s - 5 us = 24.1 us
    assert s["gds_cpu_share_spent"] < s["odirect_cpu_share"]
    even = s["both_odirect_cores"] / ios - p["syscall_time"]
    assert s["gds_setup_beats_odirect_cpu"] == pytest.approx(even)
    assert 24e-6 < even < 24.2e-6


def test_gds_cpu_share_range_must_start_at_zero(scene_params):
    p = scene_params(SCENE)
    with pytest.raises(ParamError):
        gds.gpudirect_storage(**dict(p, gds_cpu_share_range=[0.5, 1.0]))


def test_closing_beat_splits_the_node_between_drives_and_nics(data):
    # the animation's two sources add up to each path's total; the drives give their 49.6 GB/s on both paths
    a = data["animation"]
    for pth in ("buffered", "direct"):
        assert a[f"{pth}_drives"] + a[f"{pth}_nics"] == pytest.approx(a[f"{pth}_total"], rel=1e-12)
    assert a["direct_drives"] == pytest.approx(a["drive_bw"]) and a["direct_nics"] == pytest.approx(a["network_bw"])


# --- s54 fix round 2: the gain over host memory's sweep, the bounce buffer's ceiling, the NIC's leg ----------------
def test_gain_swept_over_host_memory_cases(data):
    # once host memory caps the page cache it delivers 2 sockets x 281.6 GB/s x share / bytes per byte; the direct
    # path is the drives plus the cards' storage ports or their x16 links. Widest wiring (2 x 400G: the x16 links,
    # 2 x 58.0 GB/s, bind), 70% sustained, read for ownership: (8 x 6.2 + 116.0) / 78.85 = 2.10 with the headline's
    # drives, (8 x 6.9 + 116.0) / 78.85 = 2.17 with the faster ones (the grid's top)
    s, x16 = data["summary"], data["summary"]["x16_rate"]
    grid = {(r["efficiency"], r["bytes"]): r for r in data["records"]["gain_grid"]}
    assert len(grid) == 8
    widest = grid[(0.7, 5.0)]["by_card"][-1]
    assert widest["gains"] == pytest.approx([(8 * d + 2 * x16) / (2 * 281.6e9 * 0.7 / 5) for d in (6.2e9, 6.9e9)])
    assert 2.09 < widest["gains"][0] < 2.11
    assert s["gain_dram_max"] == pytest.approx(widest["gains"][1])
    assert (s["gain_dram_max_eff"], s["gain_dram_max_bytes"], s["gain_dram_max_drive"]) == (0.7, 5.0, 6.9e9)
    assert (s["gain_dram_max_ports"], s["gain_dram_max_rate"]) == (2, 50e9)
    # the review's 1.68 (70%) and 1.47 (80%) at the widest wiring, 4 bytes per byte, the headline's drives
    assert grid[(0.7, 4.0)]["by_card"][-1]["gains"][0] == pytest.approx((8 * 6.2e9 + 2 * x16) / (2 * 281.6e9 * 0.7 / 4))
    assert 1.67 < grid[(0.7, 4.0)]["by_card"][-1]["gains"][0] < 1.69
    assert 1.46 < grid[(0.8, 4.0)]["by_card"][-1]["gains"][0] < 1.48
    # at DDR5's peak and 4 bytes per byte with the headline's drives, the grid is the ports table
    peak = [c["gains"][0] for c in grid[(1.0, 4.0)]["by_card"]]
    by_card = {}
    for r in data["records"]["port_span"]:
        by_card.setdefault(r["port_rate"], r["gain"])
    assert peak == pytest.approx([by_card[c] for c in sorted(by_card)])
    # BasePOD's wiring: no gain but in its one harshest case (fast drives, 70%, 5 B/B): 12.25 + 27.6 GB/s a
    # socket's worth of storage against 0.7 x 281.6 / 5 = 39.4 GB/s of host memory a socket
    assert s["gain_headline_wiring_max"] == pytest.approx((8 * 6.9e9 + 2 * 12.5e9 * ETH) / (2 * 281.6e9 * 0.7 / 5))
    assert 1.0 < s["gain_headline_wiring_max"] < 1.02
    assert s["gain_peak_max"] == pytest.approx((8 * 6.9e9 + 2 * x16) / 140.8e9)
    # monotone: less DDR5 sustained or more bytes per byte never lowers the gain
    for e in (0.7, 0.8, 0.9, 1.0):
        for a_, b_ in zip(grid[(e, 4.0)]["by_card"], grid[(e, 5.0)]["by_card"]):
            assert all(y >= x - 1e-12 for x, y in zip(a_["gains"], b_["gains"]))


def test_bounce_buffer_ceiling_against_storage(data):
    # a bounce buffer's cap: 2 x 281.6 GB/s / 4 = 140.8 GB/s at peak, 98.6 at 70%, 78.8 with read for ownership;
    # against the 74.1 GB/s drives and NICs deliver: 1.90, 1.33 and 1.06
    s = data["summary"]
    assert s["bounce_ceiling"] == pytest.approx(140.8e9)
    assert s["bounce_ceiling_low"] == pytest.approx(0.7 * 140.8e9)
    assert s["bounce_ceiling_low_rfo"] == pytest.approx(0.7 * 2 * 281.6e9 / 5)
    assert s["bounce_ratio"] == pytest.approx(140.8e9 / s["both_direct"])
    assert 1.89 < s["bounce_ratio"] < 1.91 and 1.32 < s["bounce_ratio_low"] < 1.34
    assert 1 < s["bounce_ratio_low_rfo"] < s["bounce_ratio_low"] < s["bounce_ratio"] < 1 / s["model_ratio"]


def test_nic_leg_share_and_dram_parts_and_beat_counts(data):
    s, a = data["summary"], data["animation"]
    # BasePOD's one 100 GbE port a card, as data, over the card's x16 link: 12.25 / 58.0 = 21%
    assert s["nic_p2p_share"] == pytest.approx(12.5e9 * ETH / s["x16_rate"])
    assert 0.2 < s["nic_p2p_share"] < 0.22
    # the page's k: 1 (DMA write) + 2 (the copy) + 1 (cudaMemcpy's read) = 4; O_DIRECT 2; direct 0
    parts = (s["dram_bytes_dma_write"], s["dram_bytes_copy"], s["dram_bytes_memcpy_read"])
    assert parts == (1, 2, 1) and sum(parts) == s["dram_bytes_buffered"] == 4
    assert (s["dram_bytes_odirect"], s["dram_bytes_direct"]) == (2, 0)
    # the closing beat's one drive and one NIC box stand for the node's 8 drives and 2 storage NICs
    assert (a["drives"], a["nics"]) == (8, 2)
