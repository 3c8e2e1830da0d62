"""GPUDirect Storage versus POSIX bounce buffers in the DGX H100 node of hgx-server.

Three ways to get a file's bytes from a drive (or a storage NIC) into HBM:

  buffered   read() into the page cache, the kernel copies into a pinned user
             buffer, cudaMemcpy DMAs that buffer to the GPU;
  O_DIRECT   the drive DMAs straight into the pinned user buffer, cudaMemcpy
             DMAs it to the GPU (no CPU copy);
  direct     GPUDirect Storage (cuFileRead): the drive or NIC DMAs straight
             into HBM.

DRAM traffic per byte delivered (host memory is shared by reads and writes):

  buffered   4 = DMA write into the page cache + CPU copy read + CPU copy
             write + cudaMemcpy read
  O_DIRECT   2 = DMA write into the user buffer + cudaMemcpy read
  direct     0

The node is hgx-server's graph (`build_node`); every leg's links
come from its shortest paths. A bounce leg ends (or starts) in the socket's
DRAM, which is charged as one shared resource per socket (channels x T/s x 8
bytes, the peak: the bounce path's best case) instead of the graph's
per-direction memory link.

One stream keeps one IO of n bytes in flight. Its IO takes, serially,

  buffered   T = t_lat + t_sys + n/B_src + n/m + T_pinned(n)
  O_DIRECT   T = t_lat + t_sys + n/B_src + T_pinned(n)
  direct     T = t_lat + t_sys + t_gds + n/B_src

with t_lat the drive's access latency, t_sys the CPU time of the read()
system call and block layer, t_gds cuFile's extra per-IO setup, B_src the
source path's bottleneck alone, m the one-core memcpy rate and T_pinned
pcie-cxl's pinned cudaMemcpy (`pinned_time`: t_0 + n/B). A
stream alone moves n/T. Many streams share every link, each socket's DRAM
and each socket's CPU cores; the rates are max-min fair (progressive
filling, each stream capped at n/T): a stream's rate r uses

  link l:  r on every link of its legs (a bounce crosses the switch uplink
           once up and once down, one direction each)
  DRAM s:  k r, k = 4, 2 or 0
  CPU s:   r (c + t_io/n) core-seconds per second (`cpu_per_byte`): c = 1/m +
           t_page/4096 + 1/B_x16 buffered (the copy, the page cache's reclaim
           of each 4 KiB page, the thread spinning in the synchronous
           cudaMemcpy), 1/B_x16 for O_DIRECT, 0 direct; t_io = t_sys + t_0
           (bounce) or t_sys (direct: cuFile's t_gds is waiting, not CPU)

A resource is the bottleneck when it is full; when none is, the streams are
latency-bound (too few IOs in flight).

Pure numpy/stdlib, SI units: bytes, seconds, bytes per second.
"""

from __future__ import annotations

import copy
import math

import numpy as np

from models import scenario_facts
from models.exhibit import Column, Exhibit, Param, ParamError, Table, check, curves, model
from models.lib.checkpoint import checkpoint_bytes
from models.lib.ethernet import ROCE_FRAME_PARAMS, roce_frame_efficiency
from models.lib.host_copies import pinned_time
from models.lib.node import (
    NODE_PARAMS,
    PCIE_PACKET_PARAMS,
    build_node,
    dram_rate,
    flows_for,
    path_links,
    pcie_packet_efficiency,
    pcie_rate,
    shortest_paths,
)
from models.units import fmt_bytes

PATHS = ("buffered", "odirect", "direct")
PATH_NAMES = {"buffered": "POSIX read through the page cache", "odirect": "POSIX read with O_DIRECT",
              "direct": "GPUDirect Storage"}
# host memory traffic per byte delivered. The page cache's: the drive's DMA write into the page cache (1), the
# CPU copy's read and write (2), cudaMemcpy's DMA read of the user buffer (1); O_DIRECT keeps the DMA write and read
BUFFERED_DRAM_PARTS = {"dma_write": 1, "copy": 2, "memcpy_read": 1}
DRAM_BYTES = {"buffered": sum(BUFFERED_DRAM_PARTS.values()), "odirect": BUFFERED_DRAM_PARTS["dma_write"]
              + BUFFERED_DRAM_PARTS["memcpy_read"], "direct": 0}
SOURCES = ("local", "network", "both")
SOURCE_NAMES = {"local": "local NVMe drives", "network": "storage NICs", "both": "drives and storage NICs at once"}
MAX_STREAMS = 4096  # bound on the flows one solve handles


# ---------------------------------------------------------------------------
# the solver: max-min fair rates over shared resources, each flow capped
# ---------------------------------------------------------------------------


def fair_rates(demand, coeff, capacity) -> np.ndarray:
    """Max-min fair rates: flow f uses coeff[f, r] units of resource r per unit rate, at most demand[f].

    Progressive filling: all unfrozen flows grow together until a resource
    fills (its flows freeze) or a flow reaches its demand (it freezes). Each
    round freezes at least one flow, so it ends within len(demand) rounds.
    """
    demand = np.asarray(demand, dtype=float)
    a = np.asarray(coeff, dtype=float)
    cap = np.asarray(capacity, dtype=float)
    if a.shape != (demand.size, cap.size):
        raise ValueError("coeff must be flows x resources")
    rate = np.zeros_like(demand)
    frozen = demand <= 0
    for _ in range(demand.size + 1):
        active = ~frozen
        if not active.any():
            break
        slack = cap - a.T @ rate
        per_unit = a[active].sum(axis=0)
        grow = np.where(per_unit > 0, slack / np.where(per_unit > 0, per_unit, 1.0), np.inf)
        inc = max(0.0, min(grow.min(), (demand[active] - rate[active]).min()))
        rate[active] += inc
        frozen |= rate >= demand * (1 - 1e-12)
        full = a.T @ rate >= cap * (1 - 1e-12)
        frozen |= (a[:, full] > 0).any(axis=1)
    return rate


# ---------------------------------------------------------------------------
# the node, its resources, and one stream's demands
# ---------------------------------------------------------------------------


def _link_kind(g, lid: int, frm: str) -> str:
    """The reader's name for a directed link: what it is in the node."""
    ln = g.links[lid]
    kinds = {g.nodes[ln.a].kind, g.nodes[ln.b].kind}
    if ln.kind == "network":
        return "storage NIC ports"
    if "nvme" in kinds:
        return "drive"
    if kinds == {"pcie_switch", "gpu"}:
        return "GPU's PCIe link"
    if kinds == {"cpu", "pcie_switch"}:
        return "PCIe switch uplink"
    if kinds == {"cpu", "storage_nic"}:
        return "storage NIC's PCIe link"
    return ln.label or ln.kind


class Node:
    """hgx-server's graph plus the resources the bounce path adds: DRAM and CPU cores per socket."""

    def __init__(self, g, ddr: float, cores_per_socket: float, sockets: int):
        self.g = g
        self.keys: list[tuple] = []
        self.names: list[str] = []
        self.cap: list[float] = []
        index: dict[tuple, int] = {}
        for lid, ln in enumerate(g.links):
            if ln.kind not in ("pcie", "network"):
                continue  # NVLink is not on these paths; memory links are replaced by the shared DRAM below
            for frm, to in ((ln.a, ln.b), (ln.b, ln.a)):
                index[(lid, frm)] = len(self.keys)
                self.keys.append(("link", lid, frm))
                self.names.append(_link_kind(g, lid, frm))
                self.cap.append(ln.capacity(frm, to))
        for s in range(sockets):
            index[("dram", s)] = len(self.keys)
            self.keys.append(("dram", s))
            self.names.append("host memory")
            self.cap.append(ddr)
        for s in range(sockets):
            index[("cpu", s)] = len(self.keys)
            self.keys.append(("cpu", s))
            self.names.append("CPU cores")
            self.cap.append(cores_per_socket)
        self.index = index
        self._paths: dict[tuple[str, str], list[str]] = {}
        self._hops: dict[tuple[str, str], list[tuple[int, str, str]]] = {}
        self._leg_links: dict[tuple[str, str, str], list[tuple[int, str, str]]] = {}
        self._bottleneck: dict[tuple[str, str], float] = {}
        self._link_resources: dict[tuple[str, str, str], list[int]] = {}

    def with_ddr(self, ddr: float) -> "Node":
        """The same node with another DDR5 rate per socket, sharing this one's paths (the graph is the same): the
        host-memory sweeps build a node per rate, and finding the paths again was most of their cost."""
        other = copy.copy(self)
        other.cap = [ddr if key[0] == "dram" else c for key, c in zip(self.keys, self.cap, strict=True)]
        return other

    def path(self, src: str, dst: str) -> list[str]:
        """The first shortest path src -> dst, found once per pair: the sweeps ask for the same few
        pairs tens of thousands of times, and the graph does not change under them."""
        if (src, dst) not in self._paths:
            self._paths[(src, dst)] = shortest_paths(self.g, src, dst)[0]
        return self._paths[(src, dst)]

    def hops(self, src: str, dst: str) -> list[tuple[int, str, str]]:
        """The links of the one shortest path src -> dst, memory links left out (found once per pair, as the path)."""
        if (src, dst) not in self._hops:
            self._hops[(src, dst)] = [(i, u, v) for i, u, v in path_links(self.g, self.path(src, dst))
                                      if self.g.links[i].kind != "memory"]
        return self._hops[(src, dst)]

    def stream_links(self, src: str, gpu: str, path: str) -> list[tuple[int, str, str]]:
        """Every link one stream's legs cross, leg after leg (found once per stream, as the path)."""
        key = (src, gpu, path)
        if key not in self._leg_links:
            self._leg_links[key] = [hop for leg in stream_legs(self, src, gpu, path) for hop in path_links(self.g, leg)]
        return self._leg_links[key]

    def link_resources(self, src: str, gpu: str, path: str) -> list[int]:
        """The resource index of every link one stream crosses that is a resource (found once per stream)."""
        key = (src, gpu, path)
        if key not in self._link_resources:
            self._link_resources[key] = [self.index[(i, u)] for i, u, _v in self.stream_links(src, gpu, path)
                                         if (i, u) in self.index]
        return self._link_resources[key]

    def bottleneck(self, src: str, dst: str) -> float:
        if (src, dst) not in self._bottleneck:
            self._bottleneck[(src, dst)] = min(self.g.links[i].capacity(u, v) for i, u, v in self.hops(src, dst))
        return self._bottleneck[(src, dst)]


def stream_legs(node: Node, src: str, gpu: str, path: str) -> list[list[str]]:
    """The node-by-node legs of one stream: one leg direct, two through DRAM for a bounce."""
    s = node.g.nodes[gpu].socket
    if path == "direct":
        return [node.path(src, gpu)]
    return [node.path(src, f"dram{s}"), node.path(f"dram{s}", gpu)]


def io_time(n, path: str, src_bw: float, x16: float, t_lat: float, t_sys: float, t_gds: float,
            t_memcpy: float, memcpy_bw: float):
    """Seconds one IO of n bytes takes on one stream, stage after stage (module docstring)."""
    n = np.asarray(n, dtype=float)
    base = t_lat + t_sys + n / src_bw
    if path == "direct":
        return base + t_gds
    cuda = pinned_time(n, x16, t_memcpy)  # pcie-cxl's pinned cudaMemcpy leg
    return base + cuda + (n / memcpy_bw if path == "buffered" else 0.0)


def cpu_per_byte(n: float, path: str, t_sys: float, t_memcpy: float, memcpy_bw: float, x16: float,
                 page_cpu: float, t_gds_cpu: float = 0.0) -> float:
    """Core-seconds of CPU per byte delivered.

    buffered   1/m (the copy) + page_cpu (the page cache's work per byte: reclaim of each 4 KiB page)
               + 1/B_x16 (the thread spins in the synchronous cudaMemcpy while the DMA runs)
               + (t_sys + t_0)/n
    O_DIRECT   1/B_x16 + (t_sys + t_0)/n
    direct     (t_sys + t_gds_cpu)/n: t_gds_cpu is the part of cuFile's extra per-IO time t_GDS spent on a
               core. 0 by default: a 1 MiB cuFileRead blocks (sleeps) on completion unless poll mode is set
               for IOs that large (NVIDIA's GDS configuration guide); the page sweeps it up to all of t_GDS
    """
    if path == "direct":
        return (t_sys + t_gds_cpu) / n
    bounce = 1.0 / x16 + (t_sys + t_memcpy) / n
    return bounce + (1.0 / memcpy_bw + page_cpu if path == "buffered" else 0.0)


def solve(node: Node, flows: list[tuple[str, str]], n: float, path: str, p: dict) -> dict:
    """Rates of concurrent streams (src, gpu) reading IOs of n bytes by `path`; what fills first."""
    if len(flows) > MAX_STREAMS:
        raise ValueError(f"at most {MAX_STREAMS} streams")
    R = len(node.keys)
    a = np.zeros((len(flows), R))
    demand = np.zeros(len(flows))
    one_io: dict[float, float] = {}
    # p may carry the page cache's bytes per byte swept (5 with read for ownership); the rest are fixed
    k = p.get("k_buffered", DRAM_BYTES[path]) if path == "buffered" else DRAM_BYTES[path]
    # the same for every stream: computed once, not once per stream (and, as before, not at all without one)
    cpu = cpu_per_byte(n, path, p["t_sys"], p["t_memcpy"], p["memcpy_bw"], p["x16"], p["page_cpu"],
                       p.get("t_gds_cpu", 0.0)) if flows else 0.0
    for f, (src, gpu) in enumerate(flows):
        s = node.g.nodes[gpu].socket
        for r in node.link_resources(src, gpu, path):
            a[f, r] += 1.0
        a[f, node.index[("dram", s)]] = k
        a[f, node.index[("cpu", s)]] = cpu
        bw = node.bottleneck(src, gpu)
        if bw not in one_io:  # streams whose path has the same bottleneck take the same time per IO
            one_io[bw] = float(io_time(n, path, bw, p["x16"], p["t_lat"], p["t_sys"], p["t_gds"], p["t_memcpy"],
                                       p["memcpy_bw"]))
        demand[f] = n / one_io[bw]
    rate = fair_rates(demand, a, node.cap)
    load = a.T @ rate
    util = load / np.asarray(node.cap)
    full = [k for k in range(R) if util[k] >= 1 - 1e-9]
    names = sorted({node.names[k] for k in full})
    dram = [load[node.index[("dram", s)]] for s in range(p["sockets"])]
    cores = sum(load[node.index[("cpu", s)]] for s in range(p["sockets"]))
    return {
        "total": float(rate.sum()),
        "rates": rate,
        "demand": demand,
        "bottleneck": " and ".join(names) if names else "IO latency (too few streams)",
        "full": names,
        "cpu_cores": float(cores),
        "dram_traffic": float(sum(dram)),
        "dram_util": float(max(dram) / node.cap[node.index[("dram", 0)]]),
        "max_util": float(util.max()),
    }


def stream_flows(g, source: str, per_gpu: int) -> list[tuple[str, str]]:
    """per_gpu streams on each GPU from its local drive, its socket's storage NIC, or both (per_gpu each)."""
    local = [(src, dst) for src, dst in flows_for(g, "nvme_to_gpu")]
    net = [(src, dst) for src, dst in flows_for(g, "storage_to_gpu")]
    pick = {"local": local, "network": net, "both": local + net}[source]
    return [f for f in pick for _ in range(per_gpu)]


def host_to_gpu_ceiling(node: Node, gpus: int) -> float:
    """Every GPU reading pinned host memory at once (cudaMemcpy from its own socket's DRAM)."""
    a = np.zeros((gpus, len(node.keys)))
    for k in range(gpus):
        s = node.g.nodes[f"gpu{k}"].socket
        for i, u, _v in node.hops(f"dram{s}", f"gpu{k}"):
            a[k, node.index[(i, u)]] += 1.0
        a[k, node.index[("dram", s)]] = 1.0
    return float(fair_rates(np.full(gpus, np.inf), a, node.cap).sum())


def _crossover(t_gds: float, t_memcpy: float, memcpy_bw: float, x16: float) -> float:
    """IO size below which one buffered stream beats one direct stream (0: direct always wins).

    T_buffered - T_direct = t_0 + n/m + n/B - t_gds, zero at n* = (t_gds - t_0) / (1/m + 1/B).
    """
    return max(0.0, (t_gds - t_memcpy) / (1.0 / memcpy_bw + 1.0 / x16))


def _crossover_odirect(t_gds: float, t_memcpy: float, x16: float) -> float:
    """IO size below which one O_DIRECT stream beats one direct stream (0: direct always wins).

    T_O_DIRECT - T_direct = t_0 + n/B - t_gds: no copy to save, so the bar is higher, n = (t_gds - t_0) B.
    """
    return max(0.0, (t_gds - t_memcpy) * x16)


def dram_fill_card_rate(dram_per_socket: float, k: float, drive_bw_per_socket: float, nics_per_socket: float,
                        x16: float) -> float | None:
    """The storage bandwidth one card's ports must carry before a k-bytes-per-byte path fills its socket's DRAM.

    A socket's DRAM carries k (drives + cards) bytes a second, so it fills at a card rate of
    (D/k - drives) / cards; a card moves at most its x16 link, so above that memory never fills (None).
    0 when the drives alone fill it. Assumes enough streams that the drives and ports, not latency, bind.
    """
    need = (dram_per_socket / k - drive_bw_per_socket) / nics_per_socket
    return max(0.0, need) if need <= x16 else None


# ---------------------------------------------------------------------------
# the entry function
# ---------------------------------------------------------------------------


@model(
    **NODE_PARAMS,
    **PCIE_PACKET_PARAMS,
    **ROCE_FRAME_PARAMS,
    nic_port_rate=Param.positive("B/s", "compute NIC port rate, per direction"),
    storage_port_rate=Param.positive("B/s", "one storage port's line rate, per direction (the slower of the card"
                                            " and the storage fabric's switch port; RoCE framing comes off it)"),
    storage_port_sweep=Param.numbers("B/s", "storage port line rates the page compares", minimum=1e6),
    data_drives=Param.integer("count", "NVMe data drives", maximum=64),
    nvme_transfer_rate=Param.positive("T/s", "a data drive's PCIe rate per lane (its own generation)"),
    drive_read_sweep=Param.numbers("B/s", "data drive rated reads the page compares (the range's ends)",
                                   minimum=1e6),
    drive_latency=Param.positive("s", "drive read latency at queue depth 1 (estimate)", maximum=0.1),
    syscall_time=Param.number("s", "CPU time of one read() in the kernel (assumption)", minimum=0, maximum=1e-3),
    syscall_range=Param.numbers("s", "range of read() CPU times tried (assumption)", minimum=0),
    gds_setup_time=Param.number("s", "cuFile's extra setup per IO (assumption)", minimum=0, maximum=1e-2),
    gds_setup_sweep=Param.numbers("s", "cuFile setup times compared", minimum=0),
    cufile_poll_max_io=Param.positive("B", "the largest read cuFile polls for in poll mode (default)"),
    gds_cpu_share_range=Param.numbers("1", "shares of cuFile's setup spent on a core, tried (0: it sleeps)",
                                      minimum=0),
    call_latency=Param.number("s", "per-call overhead of one cudaMemcpy", minimum=0, maximum=1e-2),
    memcpy_bandwidth=Param.positive("B/s", "one core's memcpy rate (the page-cache copy)"),
    streams_per_gpu=Param.integer("count", "streams per GPU in the IO-size sweep", maximum=64),
    max_streams_per_gpu=Param.integer("count", "most streams per GPU in the streams sweep", maximum=64),
    io_size=Param.positive("B", "IO size of the streams sweep"),
    min_io=Param.positive("B", "smallest IO size plotted"),
    max_io=Param.positive("B", "largest IO size plotted", maximum=1e10),
    points_per_decade=Param.integer("count", "points per decade of the IO-size curve", maximum=50),
    kvikio_threshold=Param.positive("B", "KvikIO's default GDS threshold"),
    published_host_to_gpu=Param.positive("B/s", "DGX-2: host memory to GPUs (NVIDIA, 2019)"),
    published_storage_to_gpu=Param.positive("B/s", "DGX-2: drives, NICs and host memory to GPUs (NVIDIA, 2019)"),
    model_params=Param.positive("count", "the scenario model's parameters"),
    weight_bytes=Param.positive("B", "bytes per weight"),
    optimizer_bytes=Param.positive("B", "optimizer bytes per parameter"),
    cluster_gpus=Param.integer("count", "GPUs in the scenario's cluster"),
    storage_fabric_bw=Param.positive("B/s", "storage fabric's sustained throughput, whole cluster"),
    storage_nic_ports_options=Param.numbers("count", "storage ports per card the page compares", minimum=1),
    reclaim_cores=Param.positive("count", "cores the kswapd threads burned in the reclaim measurement"),
    reclaim_rate=Param.positive("B/s", "page-cache throughput those threads reclaimed"),
    read_test_app_cores=Param.positive("count", "cores the reading app used in the same measurement"),
    read_test_io=Param.positive("B", "the measurement's read size"),
    dontcache_rate=Param.positive("B/s", "the same reads with RWF_DONTCACHE (no reclaim)"),
    dontcache_app_cores=Param.positive("count", "cores the reading app used with RWF_DONTCACHE"),
    write_test_kswapd_threads=Param.positive("count", "kswapd threads at full steam in the write test"),
    read_test_kswapd_threads=Param.positive("count", "kswapd threads in the read test, one per NUMA node"),
    write_test_rate=Param.positive("B/s", "buffered-write throughput in the write test"),
    card_cpu_share=Param.number("1", "the page cache's share of the CPU the card quotes", minimum=0, maximum=1),
    card_direct_cpu_share=Param.number("1", "GPUDirect's share of the CPU the card quotes", minimum=0, maximum=1),
    reclaim_kswapd_shares=Param.numbers("1", "shares of the page cache's reclaim only kswapd threads do, tried"
                                             " (0: any core)", minimum=0),
    page_bytes=Param.positive("B", "page-cache page size"),
    kswapd_threads=Param.positive("count", "background reclaim threads on the node: one kswapd per NUMA node"),
    lru_add_batch=Param.positive("count", "folios a CPU adds to an LRU per lock take (the kernel's PAGEVEC_SIZE)"),
    lru_isolate_batch=Param.positive("count", "folios reclaim isolates per lock take (SWAP_CLUSTER_MAX)"),
    snc_nodes_per_socket=Param.positive("count", "NUMA nodes per socket if the BIOS splits each socket (SNC4)"),
    read_test_peak=Param.positive("B/s", "Axboe's buffered-read test before the page cache fills"),
    read_test_settled=Param.positive("B/s", "the same test once the page cache is full, settled"),
    page_time_scales=Param.numbers("1", "multiples of the estimated reclaim time per page tried (assumption)",
                                   above=0),
    memcpy_sweep=Param.numbers("B/s", "one core's copy rates tried (the estimate's stated range)", above=0),
    dram_efficiency_sweep=Param.numbers("1", "shares of the DDR5 peak a socket sustains, tried", above=0),
    buffered_dram_bytes_sweep=Param.numbers("count", "DRAM bytes per byte the page-cache path moves, tried",
                                            minimum=1),
)
def gpudirect_storage(
    gpus: int, cpu_sockets: int, cpu_cores: int, nvswitches: int, nvlinks_per_gpu: int,
    gpu_nvlink_bw: float, pcie_transfer_rate: float, pcie_lanes: int, nvme_lanes: int,
    drive_read_bw: float, nic_port_rate: float, storage_port_rate: float, storage_port_sweep: list,
    storage_nics: int, storage_nic_ports: int,
    memory_channels: int, memory_transfer_rate: float, data_drives: int, nvme_transfer_rate: float,
    drive_read_sweep: list, drive_latency: float, syscall_time: float, syscall_range: list,
    gds_setup_time: float, gds_setup_sweep: list,
    gds_cpu_share_range: list, cufile_poll_max_io: float, call_latency: float, memcpy_bandwidth: float,
    streams_per_gpu: int, max_streams_per_gpu: int, io_size: float, min_io: float, max_io: float,
    points_per_decade: int, kvikio_threshold: float,
    published_host_to_gpu: float, published_storage_to_gpu: float,
    model_params: float, weight_bytes: float, optimizer_bytes: float, cluster_gpus: int,
    storage_fabric_bw: float, pcie_header_bytes: float, pcie_framing_seq_bytes: float, pcie_lcrc_bytes: float,
    pcie_dllp_bytes: float, pcie_tlps_per_dllp: float, pcie_max_payload: float,
    storage_nic_ports_options: list, reclaim_cores: float, reclaim_rate: float, page_bytes: float,
    read_test_app_cores: float, read_test_io: float, dontcache_rate: float, dontcache_app_cores: float,
    write_test_kswapd_threads: float, read_test_kswapd_threads: float, write_test_rate: float,
    reclaim_kswapd_shares: list, card_cpu_share: float,
    card_direct_cpu_share: float,
    kswapd_threads: float, read_test_peak: float, read_test_settled: float,
    lru_add_batch: float, lru_isolate_batch: float, snc_nodes_per_socket: float,
    page_time_scales: list, memcpy_sweep: list, dram_efficiency_sweep: list, buffered_dram_bytes_sweep: list,
    storage_mtu: float, eth_preamble_bytes: float, eth_header_bytes: float, eth_fcs_bytes: float,
    eth_gap_bytes: float, ip_header_bytes: float, udp_header_bytes: float, roce_bth_bytes: float,
    roce_icrc_bytes: float,
) -> Exhibit:
    """Bounce versus direct reads in the DGX H100 node, by IO size and concurrent streams."""
    gpus, cpu_sockets, data_drives = int(gpus), int(cpu_sockets), int(data_drives)
    _check_layout(gpus, cpu_sockets, storage_nics, data_drives, io_size, min_io, max_io, streams_per_gpu,
                  max_streams_per_gpu)
    # the share of each PCIe link that is payload, as hgx-server and pcie-cxl count it
    ports_options = _check_ports(storage_nic_ports_options, storage_nic_ports)
    eta = pcie_packet_efficiency(pcie_header_bytes, pcie_framing_seq_bytes, pcie_lcrc_bytes, pcie_dllp_bytes,
                                 pcie_tlps_per_dllp, pcie_max_payload)

    # the share of a storage port's line rate that is data: one RoCE v2 frame at the MTU, the same
    # function and constants as hgx-server (models/lib/ethernet.py), so both scenes carry one port rate
    eth = roce_frame_efficiency(storage_mtu, eth_preamble_bytes, eth_header_bytes, eth_fcs_bytes, eth_gap_bytes,
                                ip_header_bytes, udp_header_bytes, roce_bth_bytes, roce_icrc_bytes)

    def graph(ports: int, port_rate: float = storage_port_rate, drive_bw: float = drive_read_bw):
        # port_rate is a port's line rate; the graph's port carries its data, the line rate less the frames.
        # The drives' links train at their own generation (nvme_transfer_rate, hgx-server's value), not the slot's
        return build_node(gpus, cpu_sockets, int(nvswitches), int(nvlinks_per_gpu), gpu_nvlink_bw,
                          pcie_transfer_rate, int(pcie_lanes), int(nvme_lanes), nic_port_rate, int(storage_nics),
                          int(ports), int(memory_channels), memory_transfer_rate, data_drives,
                          drive_bw, pcie_payload_efficiency=eta, storage_port_rate=port_rate * eth,
                          nvme_transfer_rate=nvme_transfer_rate)

    g = graph(storage_nic_ports)
    x16 = pcie_rate(pcie_transfer_rate, pcie_lanes) * eta
    ddr = dram_rate(memory_channels, memory_transfer_rate)
    node = Node(g, ddr, cpu_cores / cpu_sockets, cpu_sockets)
    # the page cache's CPU time per 4 KiB page: the kswapd threads' core-seconds per page they kept up with in
    # Axboe's buffered-read test (a lower bound: the readers' own reclaim is in the app's CPU, see _calibration)
    page_time = reclaim_cores * page_bytes / reclaim_rate
    # t_gds_cpu: the part of cuFile's setup charged to a core; 0, it sleeps (the headline), swept below.
    # The headline's reason: cuFile polls only for reads up to its poll-mode size, and blocks for larger ones
    check(io_size > cufile_poll_max_io, "a cuFile read of the IO size used sleeps until it completes, even in"
                                        " poll mode: it is larger than the largest read cuFile polls for")
    p = {"t_lat": drive_latency, "t_sys": syscall_time, "t_gds": gds_setup_time, "t_gds_cpu": 0.0,
         "t_memcpy": call_latency,
         "memcpy_bw": memcpy_bandwidth, "x16": x16, "sockets": cpu_sockets, "page_cpu": page_time / page_bytes}

    hops = _path_hops(g, node)
    by_io = _io_size_sweep(g, node, p, hops, min_io, max_io, points_per_decade, int(streams_per_gpu))
    streams = _streams_sweep(g, node, p, io_size, int(max_streams_per_gpu))
    kmax = int(max_streams_per_gpu)
    sat = _saturation(g, node, p, io_size, kmax, storage_nic_ports * storage_port_rate * eth)
    rates = sorted({float(x) for x in storage_port_sweep} | {float(storage_port_rate)})
    ports = _port_span(graph, ddr, cpu_cores, cpu_sockets, p, io_size, kmax, ports_options, rates,
                       (int(storage_nic_ports), float(storage_port_rate)), eth)
    cpu_span = _cpu_span(g, node, p, io_size, kmax, page_time_scales, memcpy_sweep,
                         sat["both"]["buffered"]["full"], cpu_cores)
    fill = _dram_fill(g, node, graph, p, io_size, kmax, sat["local"]["direct"]["total"], ddr, x16, cpu_cores,
                      cpu_sockets, storage_nics, int(storage_nic_ports), dram_efficiency_sweep,
                      buffered_dram_bytes_sweep, ports["rows"], eth,
                      _drive_totals(graph, int(storage_nic_ports), drive_read_sweep, drive_read_bw, p, io_size, kmax,
                                    ddr, cpu_cores, cpu_sockets))
    grid = _gain_grid(graph, ddr, cpu_cores, cpu_sockets, p, io_size, kmax, ports["rows"], dram_efficiency_sweep,
                      buffered_dram_bytes_sweep, fill["drive_rates"])
    sys_rows = _syscall_span(g, node, p, io_size, kmax, syscall_range, "host memory" in sat["both"]["buffered"]["full"])
    ceiling = _host_ceiling(node, gpus, sat["both"]["direct"]["total"], published_host_to_gpu,
                            published_storage_to_gpu, ddr, cpu_sockets, dram_efficiency_sweep,
                            buffered_dram_bytes_sweep)
    setup = _setup_sweep(g, node, p, io_size, kmax, cpu_cores, gds_setup_sweep, gds_setup_time,
                         gds_cpu_share_range, kvikio_threshold, sat["both"])
    problems = _restore(sat["network"], model_params, weight_bytes, optimizer_bytes, cluster_gpus, gpus,
                        storage_fabric_bw)
    at_io = _local_at_io_size(node, by_io["flows_local"], io_size, p)
    summary = _summary(g, hops, by_io, streams, sat, at_io, ceiling, setup, x16, ddr, io_size, p,
                       streams_per_gpu, cpu_cores, weight_bytes + optimizer_bytes, gds_setup_time)
    summary.update(_cpu_summary(sat["both"], p, page_time, cpu_cores, memcpy_bandwidth, x16, io_size))
    summary.update(_reclaim_limit(summary["both_buffered"], page_time, page_bytes, kswapd_threads,
                                  read_test_peak, read_test_settled, read_test_kswapd_threads))
    summary.update(_lru_lock_takes(summary, lru_add_batch, lru_isolate_batch, kswapd_threads * snc_nodes_per_socket,
                                   page_bytes, page_time))
    placement = _reclaim_placement(summary, page_time, page_bytes, kswapd_threads, reclaim_kswapd_shares)
    summary.update(placement["summary"])
    summary.update(ports["summary"])
    check(summary["direct_cpu_share_high"] < card_direct_cpu_share,
          "at the widest storage wiring GPUDirect keeps a smaller share of the cores busy than the card's")
    summary.update(_calibration(summary, p, page_time, page_bytes, reclaim_cores, reclaim_rate, read_test_app_cores,
                                read_test_io, dontcache_rate, dontcache_app_cores, write_test_kswapd_threads,
                                write_test_rate, page_time_scales, cpu_cores, card_cpu_share))
    _syscall_measured(sys_rows, summary, p, read_test_io, cpu_cores)
    summary.update(cpu_span["summary"])
    summary.update(fill["summary"])
    summary.update(grid["summary"])
    summary.update(setup["summary"])
    # the NIC's direct leg crosses the CPU's root complex peer to peer, run at the x16 link's full rate (an
    # assumption: NVIDIA's design guide warns it may be slower); the share of that link BasePOD's ports use is
    # how slow it could run before it, not the ports, would bind
    summary["nic_p2p_share"] = storage_nic_ports * storage_port_rate * eth / x16
    check(summary["nic_p2p_share"] < 1, "BasePOD's storage ports carry less than the card's x16 link")
    # a drive's own link, as hgx-server gives it (nvme_transfer_rate): the drive, not its link, must set the rate
    summary["drive_link_rate"] = pcie_rate(nvme_transfer_rate, nvme_lanes) * eta
    check(all(abs(t - data_drives * min(d, summary["drive_link_rate"])) <= 1e-6 * t
              for d, t in fill["drive_totals"].items()),
          "the node's drives deliver each drive's rated read or its PCIe 4.0 link's, whichever is less")
    records = {
        "paths": {f"{src}_{pth}": {"legs": hops["legs"][(s_, pth)],
                                   "hops": sum(len(x) - 1 for x in hops["legs"][(s_, pth)])}
                  for src, s_ in (("local", hops["local_src"]), ("network", hops["net_src"]))
                  for pth in ("buffered", "direct")},
        "path_names": PATH_NAMES,
        "setup_sweep": setup["rows"],
        "gds_cpu_shares": sorted({float(x) for x in gds_cpu_share_range}),
        "syscall_sweep": sys_rows,
        "port_span": ports["rows"],
        "reclaim_placement": placement["rows"],
        "cpu_span": cpu_span["rows"],
        "dram_fill": fill["rows"],
        "dram_fill_card_rates": fill["card_rates"],
        "dram_fill_drive_rates": fill["drive_rates"],
        "gain_grid": grid["table"],
        "gain_by_card": grid["by_card"],
        scenario_facts.RECORD: scenario_facts.published(host_to_gpu_rate=x16),
    }
    plan = _animation_plan(io_size, streams, sat["both"], cpu_cores, data_drives, int(storage_nics),
                           sat["local"]["direct"]["total"],
                           sat["network"]["direct"]["total"], len(stream_flows(g, "local", kmax)))
    # beat 3's meter: the cores the CPU copy alone keeps busy at the node's full rate (the page's number);
    # beat 6 splits the rest: reclaim, the spin in cudaMemcpy, and the calls
    plan["copy_cores"] = summary["buffered_copy_cores"]
    plan["page_cores"] = summary["buffered_page_cores"]
    plan["spin_cores"] = summary["buffered_spin_cores"]
    plan["call_cores"] = summary["buffered_call_cores"]
    return Exhibit(summary=summary, series=_series(by_io, streams), table=_table(sat, kmax, io_size),
                   animation=plan, problems=problems, records=records)


# --- the recipe's steps ---------------------------------------------------------------------


def _check_layout(gpus: int, cpu_sockets: int, storage_nics: int, data_drives: int, io_size: float, min_io: float,
                  max_io: float, streams_per_gpu: int, max_streams_per_gpu: int) -> None:
    """Refuse a node the graph cannot lay out evenly, or a sweep the solver cannot bound."""
    if gpus % cpu_sockets or storage_nics % cpu_sockets:
        raise ParamError("cpu_sockets", cpu_sockets, "a divisor of gpus and storage_nics")
    if data_drives != gpus:
        raise ParamError("data_drives", data_drives, f"one drive behind each GPU's switch ({gpus})")
    if not min_io < io_size <= max_io:
        raise ParamError("io_size", io_size, f"between min_io and max_io ({min_io:g} to {max_io:g} B)")
    if gpus * max(streams_per_gpu, max_streams_per_gpu) * 2 > MAX_STREAMS:
        raise ParamError("max_streams_per_gpu", max_streams_per_gpu, f"at most {MAX_STREAMS} streams in all")


def _path_hops(g, node: Node) -> dict:
    """The hops of each path, for the first GPU, from a local drive and from a storage NIC."""
    local_src, gpu0 = flows_for(g, "nvme_to_gpu")[0]
    net_src, net_gpu = flows_for(g, "storage_to_gpu")[0]
    legs = {(src, path): stream_legs(node, src, gpu, path)
            for src, gpu in ((local_src, gpu0), (net_src, net_gpu)) for path in ("buffered", "direct")}

    def crosses_cpu(leg_list):
        return any(g.nodes[x].kind == "cpu" for leg in leg_list for x in leg)

    direct_local = legs[(local_src, "direct")][0]
    check(not crosses_cpu(legs[(local_src, "direct")]) and len(direct_local) == 3,
          "the direct path from a local drive stays inside one PCIe switch")
    check(crosses_cpu(legs[(net_src, "direct")])
          and not any(g.nodes[x].kind == "dram" for leg in legs[(net_src, "direct")] for x in leg),
          "from a storage NIC the direct path crosses the CPU's root complex but never touches DRAM")
    uplink_dirs = [(u, v) for leg in legs[(local_src, "buffered")] for u, v in zip(leg, leg[1:])
                   if {g.nodes[u].kind, g.nodes[v].kind} == {"cpu", "pcie_switch"}]
    check(len(uplink_dirs) == 2 and uplink_dirs[0] == uplink_dirs[1][::-1],
          "the bounce path crosses the switch uplink twice, once in each direction")
    return {"legs": legs, "local_src": local_src, "gpu0": gpu0, "net_src": net_src, "direct_local": direct_local}


def _io_size_sweep(g, node: Node, p: dict, hops: dict, min_io: float, max_io: float, points_per_decade: int,
                   streams_per_gpu: int) -> dict:
    """One stream alone, and the node's local drives with streams_per_gpu streams each, by IO size."""
    local_src, gpu0 = hops["local_src"], hops["gpu0"]
    x16 = p["x16"]
    decades = math.log10(max_io / min_io)
    sizes = np.logspace(math.log10(min_io), math.log10(max_io), int(round(decades * points_per_decade)) + 1)
    src_bw = node.bottleneck(local_src, gpu0)
    one = {pth: sizes / io_time(sizes, pth, src_bw, x16, p["t_lat"], p["t_sys"], p["t_gds"],
                                p["t_memcpy"], p["memcpy_bw"]) for pth in PATHS}

    flows_local = stream_flows(g, "local", streams_per_gpu)
    by_size = {pth: [solve(node, flows_local, float(n), pth, p) for n in sizes] for pth in PATHS}
    agg = {pth: np.array([r["total"] for r in by_size[pth]]) for pth in PATHS}
    cores = {pth: np.array([r["cpu_cores"] for r in by_size[pth]]) for pth in PATHS}

    n_star = _crossover(p["t_gds"], p["t_memcpy"], p["memcpy_bw"], x16)
    n_od = _crossover_odirect(p["t_gds"], p["t_memcpy"], x16)
    small = float(sizes[0])
    check(np.all(one["odirect"] >= one["buffered"] * (1 - 1e-12)),
          "O_DIRECT is never slower than the buffered read: it skips the CPU copy")
    check(p["t_gds"] > p["t_memcpy"] and one["buffered"][0] > one["direct"][0] and n_star > small,
          "at the smallest IO sizes the bounce path wins: cuFile's setup outweighs the copies it saves")
    check(one["direct"][-1] > one["buffered"][-1], "at large IO sizes the direct path wins per stream")
    below = sizes < n_od * (1 - 1e-9)
    check(n_od > n_star and np.all(one["odirect"][below] >= one["direct"][below])
          and np.all(one["odirect"][sizes > n_od * (1 + 1e-9)] < one["direct"][sizes > n_od * (1 + 1e-9)]),
          "per stream O_DIRECT beats the direct path below its own, larger crossover")
    return {"sizes": sizes, "src_bw": src_bw, "one": one, "flows_local": flows_local, "agg": agg, "cores": cores,
            "n_star": n_star, "n_odirect": n_od}


def _streams_sweep(g, node: Node, p: dict, io_size: float, max_streams_per_gpu: int) -> dict:
    """Streams at io_size from the drives and the storage NICs at once, and where each limit fills."""
    q = np.arange(1, max_streams_per_gpu + 1)
    sweep = {src: {pth: [solve(node, stream_flows(g, src, int(k)), io_size, pth, p) for k in q] for pth in PATHS}
             for src in ("both",)}
    s_tot = {pth: np.array([r["total"] for r in sweep["both"][pth]]) for pth in PATHS}
    s_cores = {pth: np.array([r["cpu_cores"] for r in sweep["both"][pth]]) for pth in PATHS}
    s_dram = {pth: np.array([r["dram_util"] for r in sweep["both"][pth]]) for pth in PATHS}
    streams_axis = q * len(stream_flows(g, "both", 1))

    def first_full(rows, what):
        hit = [i for i, r in enumerate(rows) if what in r["full"]]
        return int(streams_axis[hit[0]]) if hit else 0

    buffered_dram_streams = first_full(sweep["both"]["buffered"], "host memory")
    buffered_cpu_streams = first_full(sweep["both"]["buffered"], "CPU cores")
    after = s_tot["buffered"][streams_axis >= buffered_dram_streams] if buffered_dram_streams else []
    # host memory fills only when the drives and the storage ports together carry enough (the port rate decides)
    check(not buffered_dram_streams or (len(after) and np.allclose(after, after[0], rtol=1e-9)),
          "past the stream count that fills host memory the buffered path stays at its limit")
    return {"axis": streams_axis, "total": s_tot, "cores": s_cores, "dram": s_dram,
            "dram_full": buffered_dram_streams, "cpu_full": buffered_cpu_streams}


def _saturation(g, node: Node, p: dict, io_size: float, kmax: int, nic_ports_rate: float) -> dict:
    """The node's aggregates at the most streams, per source and path, and what they show."""
    sat = {src: {pth: solve(node, stream_flows(g, src, kmax), io_size, pth, p) for pth in PATHS} for src in SOURCES}
    for src in SOURCES:
        for pth in PATHS:
            check(sat[src][pth]["max_util"] <= 1 + 1e-9, "no resource carries more than its capacity")
        check(sat[src]["direct"]["total"] >= sat[src]["buffered"]["total"] * (1 - 1e-9)
              and sat[src]["direct"]["cpu_cores"] < sat[src]["buffered"]["cpu_cores"],
              "with enough streams the direct path moves at least as much and keeps fewer cores busy")
    sl, sn, sb = sat["local"], sat["network"], sat["both"]
    check(abs(sl["buffered"]["total"] - sl["direct"]["total"]) <= 1e-6 * sl["direct"]["total"]
          and sl["buffered"]["full"] == ["drive"] and sl["direct"]["full"] == ["drive"],
          "from the local drives alone both paths are drive-bound: the same bandwidth")
    check(("host memory" in sb["buffered"]["full"]) == (sb["direct"]["total"] > sb["buffered"]["total"] * (1 + 1e-9)),
          "with drives and storage NICs at once, the direct path moves more exactly when host memory caps the"
          " buffered path")
    check("host memory" not in sb["odirect"]["full"],
          "O_DIRECT halves the DRAM traffic and stays clear of the host-memory limit")
    check(abs(sb["odirect"]["total"] - sb["direct"]["total"]) <= 1e-9 * sb["direct"]["total"],
          "O_DIRECT keeps up with the direct path when drives and storage NICs are read at once")
    check(sn["direct"]["full"] == (["storage NIC's PCIe link"] if nic_ports_rate > p["x16"]
                                   else ["storage NIC ports"]),
          "from the storage NICs the narrower of a card's storage ports and its x16 link fills first")
    check(not any("CPU cores" in sat[s][pth]["full"] for s in SOURCES for pth in PATHS),
          "the CPU cores are never the first thing to fill on this node")
    return sat


def _syscall_span(g, node: Node, p: dict, io_size: float, kmax: int, syscall_range: list,
                  dram_bound: bool) -> list[dict]:
    """The same saturation at each end of the assumed read() CPU time: the conclusions must not move."""
    span = {}
    # the range's ends and the headline's value between them, so the table reads across
    for t_sys in sorted({float(x) for x in syscall_range} | {float(p["t_sys"])}):
        q_ = dict(p, t_sys=float(t_sys))
        span[float(t_sys)] = {pth: solve(node, stream_flows(g, "both", kmax), io_size, pth, q_) for pth in PATHS}
        check(("host memory" in span[float(t_sys)]["buffered"]["full"]) == dram_bound
              and not any("CPU cores" in span[float(t_sys)][pth]["full"] for pth in PATHS),
              "across the assumed range of read() CPU time, the CPU never fills first, and host memory fills"
              " (or not) as at the headline's")
    return [{"syscall_time": t_, "headline": t_ == p["t_sys"], "buffered_rate": v["buffered"]["total"],
             "buffered_cores": v["buffered"]["cpu_cores"], "odirect_cores": v["odirect"]["cpu_cores"],
             "direct_cores": v["direct"]["cpu_cores"]}
            for t_, v in sorted(span.items())]


def _cpu_span(g, node: Node, p: dict, io_size: float, kmax: int, page_time_scales: list, memcpy_sweep: list,
              full: list, cpu_cores: int) -> dict:
    """The page-cache path's busy cores at saturation with the two estimates that set most of them swept:
    the reclaim time per page (from a write test) and one core's copy rate (3.3 GB/s measured to a 20 GB/s what-if)."""
    rows = []
    for scale in sorted(float(x) for x in page_time_scales):
        for m in sorted(float(x) for x in memcpy_sweep):
            r = solve(node, stream_flows(g, "both", kmax), io_size, "buffered",
                      dict(p, page_cpu=p["page_cpu"] * scale, memcpy_bw=m))
            check(r["full"] == full, "across the reclaim and copy estimates tried, the page-cache path fills the"
                                     " same resource as at the headline's, and the CPU never first")
            rows.append({"page_scale": scale, "memcpy_bw": m, "cores": r["cpu_cores"],
                         "share": r["cpu_cores"] / cpu_cores})
    shares = [r["share"] for r in rows]
    return {"rows": rows, "summary": {"buffered_cpu_share_lo": min(shares), "buffered_cpu_share_hi": max(shares),
                                      "buffered_cores_lo": min(r["cores"] for r in rows),
                                      "buffered_cores_hi": max(r["cores"] for r in rows),
                                      "page_scale_lo": rows[0]["page_scale"], "page_scale_hi": rows[-1]["page_scale"],
                                      "memcpy_lo": min(r["memcpy_bw"] for r in rows),
                                      "memcpy_hi": max(r["memcpy_bw"] for r in rows)}}


def _dram_fill(g, node: Node, graph, p: dict, io_size: float, kmax: int, drives_total: float, ddr: float,
               x16: float, cpu_cores: int, sockets: int, storage_nics: int, ports: int, efficiencies: list,
               bytes_sweep: list, port_rows: list, eth: float, drive_totals: dict) -> dict:
    """The card storage rate at which the page cache fills host memory, computed, and how it moves with the
    share of DDR5's peak a socket sustains and the bytes of DRAM traffic per byte (5 if the copy's stores
    read each line first, read for ownership). drive_totals maps each drive rating tried to the node's drives
    at it (faster drives leave host memory less room for the cards)."""
    ks = sorted(float(x) for x in bytes_sweep)
    effs = sorted(float(x) for x in efficiencies)
    if float(DRAM_BYTES["buffered"]) not in ks:
        raise ParamError("buffered_dram_bytes_sweep", bytes_sweep, f"a list that includes {DRAM_BYTES['buffered']}")
    if 1.0 not in effs or max(effs) > 1:
        raise ParamError("dram_efficiency_sweep", efficiencies, "shares up to 1 that include 1 (the peak)")
    per_socket = drives_total / sockets
    nics = storage_nics / sockets

    def threshold(eff, k):
        return dram_fill_card_rate(ddr * eff, k, per_socket, nics, x16)

    head = threshold(1.0, DRAM_BYTES["buffered"])
    # the solver agrees: a little under the threshold host memory stays clear, a little over it fills
    if head:
        for f, fills in ((0.98, False), (1.02, True)):
            gg = graph(ports, head * f / ports / eth)  # the line rate whose frames carry that data
            nd = Node(gg, ddr, cpu_cores / sockets, sockets)
            r = solve(nd, stream_flows(gg, "both", kmax), io_size, "buffered", p)
            check(("host memory" in r["full"]) == fills,
                  "host memory fills once each card's storage ports carry the computed threshold")
    card_rates = sorted({r["port_rate"] for r in port_rows})
    drives = sorted(drive_totals)

    def fills(t):
        return [t is not None and c >= t for c in card_rates]

    rows = []
    for eff in effs:
        for k in ks:
            t = threshold(eff, k)
            by_drive = [{"drive_bw": d, "card_rate": dram_fill_card_rate(ddr * eff, k, drive_totals[d] / sockets, nics,
                                                                         x16)} for d in drives]
            for b in by_drive:
                b["fills"] = fills(b["card_rate"])
            # "fills" only with some of the drive ratings tried: the faster drives tip it
            either = [any(b["fills"][i] for b in by_drive) for i in range(len(card_rates))]
            rows.append({"efficiency": eff, "bytes": k, "card_rate": t, "fills": fills(t), "by_drive": by_drive,
                         "fills_some_drives": either})
    for r in rows:
        ts_ = [b["card_rate"] for b in r["by_drive"] if b["card_rate"] is not None]
        check(all(a >= b_ - 1e-6 for a, b_ in zip(ts_, ts_[1:])),
              "the faster the local drives, the less the storage cards must carry before host memory fills")
    ts = [b["card_rate"] for r in rows for b in r["by_drive"] if b["card_rate"] is not None]
    headline_rate = next(r["port_rate"] for r in port_rows if r["headline"])
    fast = dram_fill_card_rate(ddr, DRAM_BYTES["buffered"], drive_totals[drives[-1]] / sockets, nics, x16)
    # the drives alone never fill it: at the fastest rating, the least sustained share and the most bytes
    check(drive_totals[drives[-1]] * ks[-1] < sockets * ddr * effs[0],
          "the local drives alone never fill host memory, even the fastest rated with the least DDR5 tried")
    return {"rows": rows, "card_rates": card_rates, "drive_rates": drives, "drive_totals": drive_totals, "summary": {
        "dram_fill_card_rate": head, "dram_fill_card_rate_low": min(ts) if ts else None,
        "dram_fill_card_rate_fast_drives": fast,
        "drive_read_low": drives[0], "drive_read_high": drives[-1],
        "node_drive_bw_low": drive_totals[drives[0]], "node_drive_bw_high": drive_totals[drives[-1]],
        "dram_efficiency_low": effs[0], "dram_bytes_high": ks[-1],
        "headline_fills_in_sweep": any(b["card_rate"] is not None and headline_rate >= b["card_rate"]
                                       for r in rows for b in r["by_drive"]),
        # how many of the cases tried (DDR5 share x bytes per byte x drive rating) the headline's wiring fills;
        # the thresholds fall as each knob worsens, so one case is the harshest
        "headline_fill_cases": sum(b["card_rate"] is not None and headline_rate >= b["card_rate"]
                                   for r in rows for b in r["by_drive"]),
        "fill_cases": sum(len(r["by_drive"]) for r in rows)}}


def _gain_grid(graph, ddr: float, cpu_cores: int, sockets: int, p: dict, io_size: float, kmax: int,
               port_rows: list, efficiencies: list, bytes_sweep: list, drive_rates: list) -> dict:
    """The direct path's bandwidth gain, drives and storage NICs at once, over every storage wiring compared
    and the same host-memory cases the fill table tries (DDR5 share sustained x bytes per byte x drive
    rating): the peak-DDR5 gains of the ports table are this grid's best case for the bounce path."""
    effs = sorted(float(x) for x in efficiencies)
    ks = sorted(float(x) for x in bytes_sweep)
    # one wiring per card storage rate (1 x 200 GbE and 2 x 100 GbE carry the same data: the same gains)
    wirings = {}
    for r in port_rows:
        wirings.setdefault(r["port_rate"], r)
    rows = []
    for card, w in sorted(wirings.items()):
        for d in drive_rates:
            gg = graph(w["ports"], w["rate"], drive_bw=d)
            flows = stream_flows(gg, "both", kmax)
            node = Node(gg, ddr, cpu_cores / sockets, sockets)
            direct = solve(node, flows, io_size, "direct", p)["total"]
            for eff in effs:
                # the direct path puts nothing through DRAM: only the bounce path sees the share and the bytes
                nd = node.with_ddr(ddr * eff)
                for k in ks:
                    b = solve(nd, flows, io_size, "buffered", dict(p, k_buffered=k))
                    rows.append({"card_rate": card, "ports": w["ports"], "rate": w["rate"], "drive_bw": d,
                                 "efficiency": eff, "bytes": k, "buffered": b["total"], "direct": direct,
                                 "gain": direct / b["total"], "dram_bound": "host memory" in b["full"]})
    at = {(r["card_rate"], r["drive_bw"], r["efficiency"], r["bytes"]): r for r in rows}
    for r in rows:
        check(r["gain"] >= 1 - 1e-9, "in every host-memory case tried the direct path moves at least as much")
        # once host memory caps the page cache it moves exactly both sockets' sustained DDR5 over k
        check(not r["dram_bound"] or abs(r["buffered"] - sockets * ddr * r["efficiency"] / r["bytes"])
              <= 1e-6 * r["buffered"], "a page cache capped by host memory delivers sockets x DDR5 sustained / k")
    for (c, d, e, k), r in at.items():
        worse = [at[(c, d, e2, k2)] for e2 in effs for k2 in ks if e2 <= e and k2 >= k]
        check(all(w_["gain"] >= r["gain"] - 1e-9 for w_ in worse),
              "the less DDR5 a socket sustains and the more bytes per byte, the larger the direct path's gain")
    # the page's table: a row per host-memory case, a cell per card storage rate, a gain per drive rating
    table = [{"efficiency": e, "bytes": k, "by_card": [
        {"card_rate": c, "gains": [at[(c, d, e, k)]["gain"] for d in drive_rates],
         "dram_bound": [at[(c, d, e, k)]["dram_bound"] for d in drive_rates]} for c in sorted(wirings)]}
        for e in effs for k in ks]
    top = max(rows, key=lambda r: r["gain"])
    peak = [r for r in rows if r["efficiency"] == 1.0 and r["bytes"] == DRAM_BYTES["buffered"]]
    head_card = next(r["port_rate"] for r in port_rows if r["headline"])
    head = [r for r in rows if r["card_rate"] == head_card]
    by_card = [{"card_rate": c, "wirings": [(r["ports"], r["rate"]) for r in port_rows if r["port_rate"] == c],
                "gain_max": max(r["gain"] for r in rows if r["card_rate"] == c),
                "gain_min": min(r["gain"] for r in rows if r["card_rate"] == c)} for c in sorted(wirings)]
    return {"rows": rows, "table": table, "by_card": by_card, "card_rates": sorted(wirings), "summary": {
        "gain_dram_max": top["gain"], "gain_dram_max_card": top["card_rate"], "gain_dram_max_ports": top["ports"],
        "gain_dram_max_rate": top["rate"], "gain_dram_max_drive": top["drive_bw"],
        "gain_dram_max_eff": top["efficiency"], "gain_dram_max_bytes": top["bytes"],
        # at DDR5's peak, 4 bytes per byte: the ports table's range, with either drive rating
        "gain_peak_max": max(r["gain"] for r in peak),
        # BasePOD's wiring: its largest gain over the host-memory cases
        "gain_headline_wiring_max": max(r["gain"] for r in head)}}


def _drive_totals(graph, ports: int, drive_read_sweep: list, drive_read_bw: float, p: dict, io_size: float,
                  kmax: int, ddr: float, cpu_cores: int, sockets: int) -> dict:
    """The node's local drives read direct at each drive rating tried (the drive or its own Gen4 link)."""
    out = {}
    for d in sorted({float(x) for x in drive_read_sweep} | {float(drive_read_bw)}):
        gg = graph(ports, drive_bw=d)
        out[d] = solve(Node(gg, ddr, cpu_cores / sockets, sockets), stream_flows(gg, "local", kmax), io_size,
                       "direct", p)["total"]
    return out


def _host_ceiling(node: Node, gpus: int, storage_total: float, published_host_to_gpu: float,
                  published_storage_to_gpu: float, ddr: float, sockets: int, efficiencies: list,
                  bytes_sweep: list) -> dict:
    """Host memory → GPUs against storage → GPUs on this node, beside the DGX-2's published pair. The switch
    uplinks are the host path's ceiling for data already in host memory; a bounce buffer is capped lower, by
    both sockets' DDR5 over the bytes each delivered byte moves through it (at peak and at the least share
    sustained, with and without read for ownership)."""
    host_rate = host_to_gpu_ceiling(node, gpus)
    published_ratio = published_storage_to_gpu / published_host_to_gpu
    model_ratio = storage_total / host_rate
    check(published_ratio > 1 > model_ratio,
          "on DGX-2 storage could outrun host memory; on DGX H100 host memory to GPUs is the wider pipe")
    e_lo, k_hi = min(float(x) for x in efficiencies), max(float(x) for x in bytes_sweep)
    k = DRAM_BYTES["buffered"]
    bounce = {"peak": sockets * ddr / k, "low": sockets * ddr * e_lo / k, "low_rfo": sockets * ddr * e_lo / k_hi}
    check(bounce["peak"] < host_rate, "a bounce buffer's host-memory cap is below the switch uplinks")
    return {"host_rate": host_rate, "storage_total": storage_total, "published_ratio": published_ratio,
            "model_ratio": model_ratio,
            "bounce_ceiling": bounce["peak"], "bounce_ceiling_low": bounce["low"],
            "bounce_ceiling_low_rfo": bounce["low_rfo"],
            "bounce_ratio": bounce["peak"] / storage_total, "bounce_ratio_low": bounce["low"] / storage_total,
            "bounce_ratio_low_rfo": bounce["low_rfo"] / storage_total}


def _setup_sweep(g, node: Node, p: dict, io_size: float, kmax: int, cpu_cores: int, gds_setup_sweep: list,
                 gds_setup_time: float, cpu_shares: list, kvikio_threshold: float, sb: dict) -> dict:
    """cuFile's setup time swept: the IO size where direct starts to win, and the direct path's busy cores at
    saturation with each share of the setup spent on a core (0: the thread sleeps, the headline's). The
    setups tried run up to the one KvikIO's threshold would imply, an upper bound (it prices KvikIO's
    thread pool too)."""
    shares = sorted({float(x) for x in cpu_shares})
    if shares[0] != 0.0 or shares[-1] > 1:
        raise ParamError("gds_cpu_share_range", cpu_shares, "shares from 0 (the headline's: it sleeps) up to 1")
    t_mem, m, x16 = p["t_memcpy"], p["memcpy_bw"], p["x16"]
    implied_setup = t_mem + kvikio_threshold * (1.0 / m + 1.0 / x16)
    check(implied_setup > gds_setup_time,
          "read as a setup time alone, KvikIO's threshold would be larger than the one assumed")
    setups = sorted({float(t) for t in gds_setup_sweep} | {float(gds_setup_time), implied_setup})
    flows = stream_flows(g, "both", kmax)
    rows = []
    for t in setups:
        cores = [solve(node, flows, io_size, "direct", dict(p, t_gds=t, t_gds_cpu=f * t))["cpu_cores"] for f in shares]
        rows.append({"gds_setup": t, "crossover": _crossover(t, t_mem, m, x16),
                     "odirect_crossover": _crossover_odirect(t, t_mem, x16),
                     "headline": t == float(gds_setup_time), "implied": t == implied_setup,
                     "cpu_shares": [c / cpu_cores for c in cores]})
    check(all(r["odirect_crossover"] >= r["crossover"] for r in rows),
          "O_DIRECT, with no copy to save, holds out against the direct path to a larger IO than the page cache")
    check(sb["direct"]["cpu_cores"] < sb["odirect"]["cpu_cores"],
          "the direct path keeps fewer cores busy than O_DIRECT: no thread spins in a cudaMemcpy")
    worst = rows[-1]["cpu_shares"][-1]
    head = next(r for r in rows if r["headline"])
    odirect_share = sb["odirect"]["cpu_cores"] / cpu_cores
    # all of the setup on a core: GPUDirect's cores are IOs/s x (t_sys + t_GDS) at its saturated rate, equal to
    # O_DIRECT's at this setup (the solver agrees: the streams stay bandwidth-bound, so the rate does not move)
    even = sb["odirect"]["cpu_cores"] * io_size / sb["direct"]["total"] - p["t_sys"]
    at_even = solve(node, flows, io_size, "direct", dict(p, t_gds=even, t_gds_cpu=even))
    check(abs(at_even["cpu_cores"] - sb["odirect"]["cpu_cores"]) <= 1e-9 * sb["odirect"]["cpu_cores"],
          "with that much setup on a core GPUDirect keeps exactly O_DIRECT's cores busy, at the same bandwidth")
    check(head["cpu_shares"][-1] < odirect_share,
          "with all of the headline's cuFile setup spent on a core, GPUDirect still keeps fewer cores busy than"
          " O_DIRECT")
    return {"rows": rows, "implied": implied_setup, "summary": {
        "gds_cpu_share_spent": head["cpu_shares"][-1],
        "gds_cpu_share_worst": worst, "gds_setup_max": setups[-1],
        # the setup, all of it on a core, above which GPUDirect keeps more cores busy than O_DIRECT
        "gds_setup_beats_odirect_cpu": even}}


def _restore(sn: dict, model_params: float, weight_bytes: float, optimizer_bytes: float, cluster_gpus: int,
             gpus: int, storage_fabric_bw: float) -> dict:
    """The worked problem: restoring one node's shard of the checkpoint from the storage NICs."""
    ckpt = checkpoint_bytes(model_params, weight_bytes, optimizer_bytes)
    nodes = -(-int(cluster_gpus) // gpus)
    shard = ckpt / nodes
    fabric_share = storage_fabric_bw / nodes
    restore = {}
    for pth in PATHS:
        rate = sn[pth]["total"]
        t_node = shard / rate
        t = shard / min(rate, fabric_share)
        restore[pth] = {"node_rate": rate, "node_time": t_node, "time": t,
                        "core_seconds": sn[pth]["cpu_cores"] * t_node}
    check(fabric_share < min(r["node_rate"] for r in restore.values()),
          "the storage fabric's share per node, not the node's read path, sets the restore time")
    return {
        "restore": {"shard": shard, "nodes": nodes, "fabric_share": fabric_share, **restore},
        "restore_saved_core_seconds": restore["buffered"]["core_seconds"] - restore["direct"]["core_seconds"],
    }


def _check_ports(options: list, storage_nic_ports: int) -> list[int]:
    """The storage-port assignments compared: whole ports per card, the headline's among them."""
    opts = sorted({int(o) for o in options})
    if any(o != float(x) for o, x in zip(sorted(int(x) for x in options), sorted(options))) or opts[0] < 1:
        raise ParamError("storage_nic_ports_options", options, "whole numbers of ports, each at least 1")
    if int(storage_nic_ports) not in opts:
        raise ParamError("storage_nic_ports_options", options, f"a list that includes storage_nic_ports "
                                                              f"({storage_nic_ports})")
    return opts


def _port_span(graph, ddr: float, cpu_cores: int, sockets: int, p: dict, io_size: float, kmax: int,
               options: list[int], rates: list[float], headline: tuple[int, float], eth: float) -> dict:
    """Drives and storage NICs at once with each storage-port assignment and port rate: the gain is a range.

    A card's storage bandwidth is its ports times their rate (the storage fabric's switch port, below
    the card's own rate in BasePOD) times eth, the share of a RoCE v2 port's line rate that is data;
    that product is what moves the gain: rows run in its order. `rate` is a port's line rate."""
    rows = []
    for rate in rates:
        for ports in options:
            g = graph(ports, rate)
            nd = Node(g, ddr, cpu_cores / sockets, sockets)
            both = {pth: solve(nd, stream_flows(g, "both", kmax), io_size, pth, p) for pth in ("buffered", "direct")}
            net = solve(nd, stream_flows(g, "network", kmax), io_size, "direct", p)
            rows.append({"ports": int(ports), "rate": rate, "port_rate": ports * rate * eth,
                         "headline": (int(ports), rate) == headline, "network": net["total"],
                         "network_full": net["bottleneck"], "buffered": both["buffered"]["total"],
                         "direct": both["direct"]["total"],
                         "gain": both["direct"]["total"] / both["buffered"]["total"],
                         "buffered_full": both["buffered"]["bottleneck"],
                         "dram_bound": "host memory" in both["buffered"]["full"],
                         "buffered_cpu_share": both["buffered"]["cpu_cores"] / cpu_cores,
                         "direct_cpu_share": both["direct"]["cpu_cores"] / cpu_cores})
    rows.sort(key=lambda r: (r["port_rate"], r["ports"]))
    gains = [r["gain"] for r in rows]
    check(all(b >= a - 1e-12 for a, b in zip(gains, gains[1:])),
          "the more storage bandwidth each card's ports carry, the larger the direct path's gain")
    check(min(gains) >= 1 - 1e-12, "with any storage-port assignment the direct path moves at least as much")
    low, high = min(rows, key=lambda r: r["gain"]), max(rows, key=lambda r: r["gain"])
    bound = [r for r in rows if r["dram_bound"]]
    return {"rows": rows, "summary": {
        "gain_low": low["gain"], "gain_high": high["gain"],
        "ports_low": low["ports"], "ports_high": high["ports"],
        "rate_low": low["rate"], "rate_high": high["rate"],
        "both_direct_low": low["direct"], "both_buffered_low": low["buffered"],
        # the smallest card storage bandwidth compared at which the page cache fills host memory (None: none does)
        "dram_bound_card_rate": bound[0]["port_rate"] if bound else None,
        # the widest storage wiring compared: both paths' share of the node's cores there
        "buffered_cpu_share_high": rows[-1]["buffered_cpu_share"], "buffered_high": rows[-1]["buffered"],
        "direct_cpu_share_high": rows[-1]["direct_cpu_share"],
        "storage_port_rate": headline[1],
        # what one such port carries as data, RoCE v2 frames charged (hgx-server's value, one function)
        "storage_framing_efficiency": eth,
        "storage_port_data_rate": headline[1] * eth,
    }}


def _cpu_summary(sb: dict, p: dict, page_time: float, cpu_cores: int, memcpy_bandwidth: float, x16: float,
                 io_size: float) -> dict:
    """Where the buffered path's busy cores go at saturation, and each path's share of the node's cores."""
    rate = sb["buffered"]["total"]
    parts = {"copy": rate / memcpy_bandwidth, "pages": rate * p["page_cpu"], "spin": rate / x16,
             "calls": rate / io_size * (p["t_sys"] + p["t_memcpy"])}
    check(abs(sum(parts.values()) - sb["buffered"]["cpu_cores"]) <= 1e-9 * sb["buffered"]["cpu_cores"],
          "the buffered path's busy cores are its copy, page-cache, spin and call time")
    check(parts["pages"] > parts["copy"],
          "the page cache's per-page work, not the copy, keeps most of the buffered path's cores busy")
    return {"page_time": page_time, "pages_per_s": rate / 4096.0,
            "buffered_copy_cores": parts["copy"], "buffered_page_cores": parts["pages"],
            "buffered_spin_cores": parts["spin"], "buffered_call_cores": parts["calls"],
            "buffered_cpu_share": sb["buffered"]["cpu_cores"] / cpu_cores,
            "odirect_cpu_share": sb["odirect"]["cpu_cores"] / cpu_cores,
            "direct_cpu_share": sb["direct"]["cpu_cores"] / cpu_cores}


def _reclaim_limit(buffered_rate: float, page_time: float, page_bytes: float, kswapd_threads: float,
                   read_test_peak: float, read_test_settled: float, test_nodes: float) -> dict:
    """What the headline's reclaim assumption hides: it charges reclaim to any core, but Linux reclaims in the
    background on one kswapd thread per NUMA node; what those threads cannot keep up with, the reading threads
    reclaim themselves (direct reclaim), contending for each node's LRU lock. The model does not price that
    contention; it reports how much of the page cache's rate the kswapds alone could carry, and the drop
    Axboe's buffered-read test shows once the page cache is full."""
    limit = kswapd_threads * page_bytes / page_time
    check(limit < buffered_rate, "the kswapd threads alone reclaim pages slower than the page-cache path reads"
                                 " them, so the reading threads must reclaim the rest themselves")
    check(read_test_settled < read_test_peak, "Axboe's buffered reads slow once the page cache is full")
    # the unpriced risk: pages each NUMA node's LRU lock must take per second. Axboe's box spread its settled
    # reads over test_nodes nodes (one kswapd each); this node puts a faster page cache on kswapd_threads nodes
    lock_rate = buffered_rate / page_bytes / kswapd_threads
    test_lock_rate = read_test_settled / page_bytes / test_nodes
    check(lock_rate > test_lock_rate, "each of this node's LRU locks takes pages faster than any of Axboe's did")
    return {"lru_lock_page_rate": lock_rate, "read_test_lru_lock_page_rate": test_lock_rate,
            "lru_lock_rate_ratio": lock_rate / test_lock_rate, "read_test_numa_nodes": test_nodes,
            "kswapd_threads": kswapd_threads, "kswapd_reclaim_rate": limit,
            "kswapd_reclaim_share": limit / buffered_rate, "direct_reclaim_rate": buffered_rate - limit,
            "read_test_peak": read_test_peak, "read_test_settled": read_test_settled,
            "read_test_kept": read_test_settled / read_test_peak}


def _lru_lock_takes(s: dict, add_batch: float, isolate_batch: float, snc_nodes: float, page_bytes: float,
                    page_time: float) -> dict:
    """The LRU risk in lock takes, not pages: the kernel adds folios to an LRU add_batch at a time and reclaim
    isolates them isolate_batch at a time, taking the lock once more to put back what it did not free; with
    4 KiB folios (large folios take fewer). Axboe's box batches alike, so the ratio per node is the pages'. And
    if the BIOS split each socket into snc_nodes / sockets NUMA nodes, each node's LRU and kswapd would carry
    that much less."""
    per_page = 1.0 / add_batch + 2.0 / isolate_batch
    snc_rate = s["both_buffered"] / page_bytes / snc_nodes
    check(snc_nodes > s["kswapd_threads"], "sub-NUMA clustering splits the node into more NUMA nodes than sockets")
    check(snc_rate < s["lru_lock_page_rate"], "more NUMA nodes put fewer pages a second onto each node's LRU")
    return {"lru_lock_takes": s["lru_lock_page_rate"] * per_page,
            "read_test_lru_lock_takes": s["read_test_lru_lock_page_rate"] * per_page,
            "lru_lock_takes_per_page": per_page,
            "snc_numa_nodes": snc_nodes, "snc_lru_page_rate": snc_rate,
            "snc_lru_rate_ratio": snc_rate / s["read_test_lru_lock_page_rate"],
            "snc_kswapd_reclaim_rate": snc_nodes * page_bytes / page_time}


def _calibration(s: dict, p: dict, page_time: float, page_bytes: float, reclaim_cores: float, reclaim_rate: float,
                 app_cores: float, test_io: float, dontcache_rate: float, dontcache_app_cores: float,
                 write_threads: float, write_rate: float, page_time_scales: list, cpu_cores: int,
                 card_share: float) -> dict:
    """The page cache's CPU per byte against Axboe's buffered-read test, where the kswapds burned reclaim_cores
    and the reading app app_cores at reclaim_rate; the RWF_DONTCACHE run reclaims nothing. Everything the cached
    read costs beyond the uncached one, per page, is reclaim with the readers' share in it (t_page's upper
    reading); all of the test's CPU per byte, applied to this node, is the busy cores' upper reading."""
    measured = (reclaim_cores + app_cores) / reclaim_rate
    dontcache = dontcache_app_cores / dontcache_rate
    page_time_full = page_bytes * (measured - dontcache)
    write_page_time = write_threads * page_bytes / write_rate
    check(abs(page_time / write_page_time - 1) < 0.1,
          "the read test's reclaim time per page agrees with the write test's within a tenth")
    check(page_time < page_time_full <= max(page_time_scales) * page_time,
          "the reclaim time per page with the readers' share counted lies inside the range swept")
    # the model's CPU per byte for the same reads (64 KiB, no cudaMemcpy): the copy, t_page, the read() call
    model = 1.0 / p["memcpy_bw"] + page_time / page_bytes + p["t_sys"] / test_io
    check(model < measured, "the model charges a page-cache read less CPU per byte than Axboe's test measured")
    # his reads were 64 KiB, the node's are io_size: the test's CPU per byte holds a read() call per 64 KiB, so the
    # calls it charges beyond one per io_size come off (t_sys per call, the model's own estimate)
    extra_calls = p["t_sys"] * (1.0 / test_io - 1.0 / s["io_size"])
    check(extra_calls > 0, "Axboe's reads are smaller than the node's, so his CPU per byte holds more read() calls")

    def at_measured(rate):
        return _measured_cores(rate, measured, p["t_sys"], test_io, s["io_size"], p["x16"], p["t_memcpy"])

    measured_cores = at_measured(s["both_buffered"])
    high = at_measured(s["buffered_high"]) / cpu_cores  # the widest storage wiring compared
    check(s["buffered_cpu_share_high"] < card_share < high,
          "at the widest storage wiring the card's 60% lies between the model's share and the measured one")
    check(measured_cores > s["both_buffered_cores"],
          "at Axboe's measured CPU per byte the page cache keeps more cores busy than the model charges")
    return {"write_page_time": write_page_time, "page_time_full": page_time_full,
            "read_test_cpu_per_byte": measured, "dontcache_cpu_per_byte": dontcache,
            "model_cpu_per_byte_at_test": model, "read_test_cores": reclaim_cores + app_cores,
            "read_call_cpu_per_byte": extra_calls, "read_call_cores": s["both_buffered"] * extra_calls,
            "buffered_cores_measured": measured_cores, "buffered_cpu_share_measured": measured_cores / cpu_cores,
            "buffered_cpu_share_high_measured": high}


def _measured_cores(rate: float, measured: float, t_sys: float, test_io: float, io_size: float, x16: float,
                    t_memcpy: float) -> float:
    """The node's page cache at Axboe's measured CPU per byte, less the extra read() calls of his smaller reads
    (t_sys each: the whole assumed call, block layer included, so this subtracts at most), plus the spin and
    the cudaMemcpy calls his test does not make."""
    extra_calls = t_sys * (1.0 / test_io - 1.0 / io_size)
    return rate * (measured - extra_calls) + rate / x16 + rate / io_size * t_memcpy


def _syscall_measured(rows: list[dict], s: dict, p: dict, test_io: float, cpu_cores: int) -> None:
    """The measured end beside the model's cores at each assumed read() CPU time: it subtracts the extra calls
    at t_sys, so it moves the other way from the model's, and the page shows both."""
    for r in rows:
        r["measured_cores"] = _measured_cores(r["buffered_rate"], s["read_test_cpu_per_byte"], r["syscall_time"],
                                              test_io, s["io_size"], p["x16"], p["t_memcpy"])
        r["measured_share"] = r["measured_cores"] / cpu_cores
        r["buffered_share"] = r["buffered_cores"] / cpu_cores
    check(all(r["measured_cores"] > r["buffered_cores"] for r in rows),
          "at every assumed read() CPU time the measured CPU per byte keeps more cores busy than the model")
    ends = [r["measured_cores"] for r in sorted(rows, key=lambda r: r["syscall_time"])]
    check(all(b < a for a, b in zip(ends, ends[1:])),
          "the longer a read() call is assumed, the more the measured end subtracts, the fewer cores it keeps")
    s["buffered_cpu_share_measured_lo"] = min(ends) / cpu_cores
    s["buffered_cpu_share_measured_hi"] = max(ends) / cpu_cores


def _reclaim_placement(s: dict, page_time: float, page_bytes: float, kswapd_threads: float, shares: list) -> dict:
    """Which cores reclaim the page cache, swept: a share f of the reclaim only the kswapd threads may do, the
    rest any core (the readers' direct reclaim). Every stream's kswapd work grows with its rate, so the kswapds
    fill when the page cache reads kswapd_threads x page_bytes / (f t_page); below that the headline's rate
    holds. f = 0 is the headline's, any core; f = 1 kswapd only."""
    fs = sorted({float(x) for x in shares})
    if fs[0] != 0.0 or fs[-1] > 1:
        raise ParamError("reclaim_kswapd_shares", shares, "shares from 0 (any core, the headline's) up to 1")
    base, direct = s["both_buffered"], s["both_direct"]
    rows = []
    for f in fs:
        cap = math.inf if f == 0 else kswapd_threads * page_bytes / (f * page_time)
        rate = min(base, cap)
        rows.append({"share": f, "kswapd_cap": cap if f else None, "buffered": rate, "gain": direct / rate,
                     "kswapd_bound": cap < base})
    gains = [r["gain"] for r in rows]
    check(all(b >= a - 1e-12 for a, b in zip(gains, gains[1:])),
          "the more of the reclaim only the kswapd threads may do, the larger the direct path's gain")
    check(abs(gains[0] - s["both_gain"]) <= 1e-12 * s["both_gain"],
          "with reclaim on any core the gain is the headline's")
    binds = kswapd_threads * page_bytes / (page_time * base)  # the share above which the kswapds fill
    return {"rows": rows, "summary": {
        "reclaim_gain_low": gains[0], "reclaim_gain_high": gains[-1],
        "reclaim_kswapd_only_rate": rows[-1]["buffered"], "reclaim_share_binds": binds,
        "reclaim_share_max": fs[-1]}}


def _animation_plan(io_size: float, streams: dict, sb: dict, cpu_cores: int, drives: int, nics: int, drive_bw: float,
                    network_bw: float, n_local: int) -> dict:
    """One IO of io_size through each path, and the node's totals at the most streams, split by source
    (stream_flows lists the drives' streams first, then the NICs')."""
    split = {pth: {"drives": float(sb[pth]["rates"][:n_local].sum()), "nics": float(sb[pth]["rates"][n_local:].sum())}
             for pth in ("buffered", "direct")}
    return {
        "buffered_drives": split["buffered"]["drives"], "buffered_nics": split["buffered"]["nics"],
        "direct_drives": split["direct"]["drives"], "direct_nics": split["direct"]["nics"],
        "io_size": io_size,
        # the closing beat draws one drive and one NIC per panel: its rates are the node's, over this many
        "drives": int(drives), "nics": int(nics),
        "dram_bytes": dict(DRAM_BYTES),
        "streams": int(streams["axis"][-1]),
        "buffered_total": sb["buffered"]["total"], "direct_total": sb["direct"]["total"],
        "buffered_cores": sb["buffered"]["cpu_cores"], "direct_cores": sb["direct"]["cpu_cores"],
        "cpu_cores": int(cpu_cores), "drive_bw": drive_bw, "network_bw": network_bw,
        "buffered_bottleneck": sb["buffered"]["bottleneck"], "direct_bottleneck": sb["direct"]["bottleneck"],
        "dram_bound": "host memory" in sb["buffered"]["full"],
    }


def _local_at_io_size(node: Node, flows_local: list, io_size: float, p: dict) -> dict:
    """The local drives at io_size: the direct path buys CPU time, not bandwidth."""
    at_io = {pth: solve(node, flows_local, io_size, pth, p) for pth in ("buffered", "direct")}
    check(at_io["buffered"]["total"] == at_io["direct"]["total"]
          and at_io["direct"]["cpu_cores"] < at_io["buffered"]["cpu_cores"],
          "from the local drives alone the direct path buys CPU time, not bandwidth")
    return at_io


def _summary(g, hops: dict, by_io: dict, streams: dict, sat: dict, at_io: dict, ceiling: dict, setup: dict,
             x16: float, ddr: float, io_size: float, p: dict, streams_per_gpu: int, cpu_cores: int,
             bytes_per_param: float, gds_setup_time: float) -> dict:
    """The numbers the page and the scene quote."""
    sl, sn, sb = sat["local"], sat["network"], sat["both"]
    legs, local_src = hops["legs"], hops["local_src"]

    def one_stream(pth):
        return float(io_size / io_time(io_size, pth, by_io["src_bw"], x16, p["t_lat"], p["t_sys"], p["t_gds"],
                                       p["t_memcpy"], p["memcpy_bw"]))

    return {
        "x16_rate": x16, "dram_rate_per_socket": ddr,
        "node_drive_bw": sl["direct"]["total"], "node_network_bw": sn["direct"]["total"],
        "dram_bytes_buffered": DRAM_BYTES["buffered"], "dram_bytes_odirect": DRAM_BYTES["odirect"],
        "local_hops_direct": len(hops["direct_local"]) - 1,
        "local_hops_bounce": sum(1 for leg in legs[(local_src, "buffered")] for i, _u, _v in path_links(g, leg)
                                 if g.links[i].kind == "pcie"),
        "network_hops_direct": len(legs[(hops["net_src"], "direct")][0]) - 1,
        "io_size": io_size,
        "one_stream_buffered": one_stream("buffered"),
        "one_stream_direct": one_stream("direct"),
        "streams_per_gpu": int(streams_per_gpu),
        "sweep_streams": len(by_io["flows_local"]),
        "local_buffered_cores_at_io": at_io["buffered"]["cpu_cores"],
        "local_direct_cores_at_io": at_io["direct"]["cpu_cores"],
        "max_streams": int(streams["axis"][-1]),
        "both_buffered": sb["buffered"]["total"], "both_odirect": sb["odirect"]["total"],
        "both_direct": sb["direct"]["total"],
        "both_gain": sb["direct"]["total"] / sb["buffered"]["total"],
        "both_dram_bound": "host memory" in sb["buffered"]["full"],
        "both_buffered_cores": sb["buffered"]["cpu_cores"], "both_odirect_cores": sb["odirect"]["cpu_cores"],
        "both_direct_cores": sb["direct"]["cpu_cores"],
        "both_buffered_dram": sb["buffered"]["dram_traffic"], "both_odirect_dram": sb["odirect"]["dram_traffic"],
        "both_odirect_dram_util": sb["odirect"]["dram_util"],
        "buffered_dram_full_streams": streams["dram_full"],
        "buffered_cpu_full_streams": streams["cpu_full"],
        "cpu_cores": int(cpu_cores),
        "bytes_per_param": bytes_per_param,
        "crossover_io": by_io["n_star"],
        "odirect_crossover_io": by_io["n_odirect"],
        "one_stream_odirect": one_stream("odirect"),
        "gds_setup_time": gds_setup_time, "implied_gds_setup": setup["implied"],
        "host_to_gpu_ceiling": float(ceiling["host_rate"]), "storage_to_gpu_ceiling": ceiling["storage_total"],
        "model_ratio": ceiling["model_ratio"], "published_ratio": ceiling["published_ratio"],
        **{k_: ceiling[k_] for k_ in ("bounce_ceiling", "bounce_ceiling_low", "bounce_ceiling_low_rfo",
                                      "bounce_ratio", "bounce_ratio_low", "bounce_ratio_low_rfo")},
        "dram_bytes_direct": DRAM_BYTES["direct"],
        **{f"dram_bytes_{k_}": v for k_, v in BUFFERED_DRAM_PARTS.items()},
    }


def _table(sat: dict, kmax: int, io_size: float) -> Table:
    """Each source and path at the most streams: rate, host-memory traffic, busy cores, what fills first."""
    rows = []
    for src in SOURCES:
        for pth in PATHS:
            r = sat[src][pth]
            rows.append([SOURCE_NAMES[src], PATH_NAMES[pth], DRAM_BYTES[pth], r["total"], r["dram_traffic"],
                         r["cpu_cores"], r["bottleneck"]])
    return Table(
        f"The node's aggregate read rate into HBM with {kmax} streams per GPU per source, IOs of "
        f"{fmt_bytes(io_size)}: host-memory traffic, CPU cores kept busy and what fills first",
        [Column("source", "text"), Column("path", "text"), Column("DRAM bytes per byte", "count"),
         Column("into HBM", "B/s"), Column("host memory traffic", "B/s"), Column("CPU cores busy", "1"),
         Column("fills first", "text")],
        rows,
    )


def _series(by_io: dict, streams: dict) -> dict:
    """The figures' curves: by IO size (one stream, the node, busy cores) and by stream count."""
    one, agg, cores = by_io["one"], by_io["agg"], by_io["cores"]
    s_tot, s_cores, s_dram = streams["total"], streams["cores"], streams["dram"]
    series = curves("io_size", by_io["sizes"],
                    one_buffered=one["buffered"], one_odirect=one["odirect"], one_direct=one["direct"],
                    node_buffered=agg["buffered"], node_odirect=agg["odirect"], node_direct=agg["direct"],
                    cores_buffered=cores["buffered"], cores_odirect=cores["odirect"], cores_direct=cores["direct"])
    series.update(curves("streams", streams["axis"],
                         streams_buffered=s_tot["buffered"], streams_odirect=s_tot["odirect"],
                         streams_direct=s_tot["direct"],
                         streams_cores_buffered=s_cores["buffered"], streams_cores_odirect=s_cores["odirect"],
                         streams_cores_direct=s_cores["direct"],
                         streams_dram_buffered=s_dram["buffered"], streams_dram_odirect=s_dram["odirect"]))
    return series


__all__ = ["fair_rates", "Node", "io_time", "cpu_per_byte", "solve", "stream_flows", "stream_legs",
           "dram_fill_card_rate",
           "gpudirect_storage", "DRAM_BYTES", "PATHS"]
