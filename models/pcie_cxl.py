"""Host-to-device limits: PCIe 5.0 x16, pageable versus pinned copies, and CXL memory.

The line. A PCIe link of L lanes at R transfers per second carries, per
direction, R * L bits per second on the wire; 128b/130b line coding (PCIe
3.0 to 5.0) spends 2 of every 130 bits on sync headers:

    B_raw = R * L * (128/130) / 8        (B/s, per direction)

The packets. Data crosses the link in transaction-layer packets (TLPs). A TLP
carrying P payload bytes also carries a header H (12 B with three dwords, 16 B
with four), a link CRC (4 B) and 4 B of framing and sequence number; the link
also sends data-link packets (DLLPs: ACKs and flow-control updates, 8 B each)
among the TLPs. With d DLLP bytes per TLP the link efficiency is

    eta(P) = P / (P + H + 4 + 4 + d),      B_eff(P) = eta(P) * B_raw

which rises with P towards 1 (Intel AN 456: 256/(256+20) = 92% before DLLPs).

The copies. A pinned (page-locked) buffer is read by the GPU's copy engine
directly: one DMA,

    T_pinned(n) = t_0 + n / B_eff

with t_0 the per-call overhead of a copy. A pageable buffer cannot be DMA'd
(its pages can move), so the driver copies it with the CPU, chunk by chunk,
into a pinned staging buffer of c bytes and DMAs each chunk from there (NVIDIA,
"How to Optimize Data Transfers"): two copies. With two staging buffers the
CPU copy of chunk i+1 overlaps the DMA of chunk i, a two-stage pipeline whose
makespan for chunks a_i = c_i/m (CPU copy at m B/s) and b_i = c_i/B_eff is

    T_pageable(n) = t_0 + max_j ( sum_{i<=j} a_i + sum_{i>=j} b_i )

(Johnson's two-machine flow shop). For large n it tends to n / min(m, B_eff):
the slower copy sets the rate, and it is never faster than pinned.

The node's other pipes, per GPU and per direction, for scale: the GPU's NIC
port (the hgx-server scene's node) and NVLink. Datasheet figures are compared like with like:
NVLink's 900 GB/s and PCIe's 128 GB/s both count both directions of the
signalling rate, so the ratio is taken on those, not on B_eff.

CXL memory. A CXL Type-3 expander puts DRAM behind a PCIe 5.0 PHY: it adds
capacity and bandwidth to the CPU's memory at the cost of latency (Pond
estimates +70-90 ns for a switchless pool of 8-16 sockets, evaluated by
emulation on a remote NUMA node; a real CXL 2.0 x8 expander
measured 250 ns per load). The model compares one device's measured
bandwidth with a DDR5 channel and a socket's channels.

Pure numpy/stdlib, SI units: bytes, seconds, bytes per second.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from models import scenario_facts
from models.datasets.bandwidthtest import h2d_shmoo
from models.exhibit import Column, Exhibit, Param, ParamError, Table, check, curves, model
from models.lib.host_copies import pinned_time
from models.lib.sweeps import including

# ---------------------------------------------------------------------------
# the link
# ---------------------------------------------------------------------------


def raw_bandwidth(transfer_rate: float, lanes: int, encoding: float) -> float:
    """B_raw = R * L * encoding / 8: bytes per second per direction after line coding."""
    if transfer_rate <= 0 or lanes < 1 or not (0 < encoding <= 1):
        raise ValueError("need transfer_rate > 0, lanes >= 1, 0 < encoding <= 1")
    return transfer_rate * lanes * encoding / 8


def tlp_overhead(header: float, framing_seq: float, lcrc: float, ecrc: float = 0.0) -> float:
    """Bytes a TLP carries besides its payload: header + framing/sequence + LCRC (+ ECRC)."""
    return header + framing_seq + lcrc + ecrc


def link_efficiency(payload, overhead: float, dllp_per_tlp: float = 0.0):
    """eta(P) = P / (P + overhead + DLLP bytes per TLP): the payload share of the wire."""
    p = np.asarray(payload, dtype=float)
    if np.any(p <= 0):
        raise ValueError("payload must be > 0")
    return scenario_facts.pcie_payload_efficiency(p, overhead, dllp_per_tlp)


def effective_bandwidth(payload, raw: float, overhead: float, dllp_per_tlp: float = 0.0):
    """B_eff(P) = eta(P) * B_raw, bytes of payload per second per direction."""
    return raw * link_efficiency(payload, overhead, dllp_per_tlp)


# ---------------------------------------------------------------------------
# the copies
# ---------------------------------------------------------------------------


def pageable_time(n, link_bw: float, memcpy_bw: float, chunk: float, latency: float):
    """Two-stage pipeline through two pinned staging buffers of `chunk` bytes.

    Closed form of the two-machine flow shop with k = ceil(n/c) chunks, all of
    size c except the last (r = n - (k-1)c): the critical path turns from the
    CPU copy to the DMA at one chunk j, so T = t_0 + max over j of
    (bytes of chunks 1..j)/m + (bytes of chunks j..k)/B. With equal chunks the
    maximum sits at an end: j = 1 or j = k. Checked against simulate_pageable.
    """
    n = np.asarray(n, dtype=float)
    if np.any(n < 0) or chunk <= 0:
        raise ValueError("need n >= 0 and chunk > 0")
    k = np.maximum(np.ceil(n / chunk), 1.0)
    first = np.minimum(n, chunk)
    last = n - (k - 1) * chunk
    # j = 1: first chunk copied, then every byte DMA'd;  j = k: every byte copied, then the last
    # DMA'd; j = k-1 (k >= 2): all full chunks copied, then the last full chunk and the tail DMA'd
    via_dma = first / memcpy_bw + n / link_bw
    via_copy = n / memcpy_bw + last / link_bw
    full = np.where(k >= 2, (k - 1) * chunk / memcpy_bw + (np.minimum(n, chunk) + last) / link_bw, 0.0)
    return latency + np.maximum(np.maximum(via_dma, via_copy), full)


def simulate_pageable(n: float, link_bw: float, memcpy_bw: float, chunk: float, latency: float,
                      buffers: int = 2) -> float:
    """Event-by-event staging: copy i waits for copy i-1 and for the DMA that frees its buffer.

    The check on pageable_time (and it shows what one staging buffer costs:
    with buffers=1 nothing overlaps and T = t_0 + n/m + n/B).
    """
    return latency + staging_schedule(n, link_bw, memcpy_bw, chunk, buffers)["dma_end"][-1]


def staging_schedule(n: float, link_bw: float, memcpy_bw: float, chunk: float,
                     buffers: int = 2) -> dict:
    """Start and end of every chunk's CPU copy and DMA (seconds after the call's overhead).

    Copy i starts when copy i-1 is done and a staging buffer is free (the DMA
    of chunk i-buffers is done); DMA i starts when copy i and DMA i-1 are done.
    memcpy_bw = inf gives the pinned case: back-to-back DMAs, no copies.
    """
    if buffers < 1:
        raise ValueError("need at least one staging buffer")
    k = max(math.ceil(n / chunk), 1)
    sizes = [chunk] * (k - 1) + [n - (k - 1) * chunk]
    copy_start, copy_end, dma_start, dma_end = [], [], [], []
    for i, s in enumerate(sizes):
        start = max(copy_end[-1] if copy_end else 0.0,
                    dma_end[i - buffers] if i >= buffers else 0.0)
        copy_start.append(start)
        copy_end.append(start + s / memcpy_bw)
        dstart = max(copy_end[-1], dma_end[-1] if dma_end else 0.0)
        dma_start.append(dstart)
        dma_end.append(dstart + s / link_bw)
    return {"sizes": sizes, "copy_start": copy_start, "copy_end": copy_end,
            "dma_start": dma_start, "dma_end": dma_end}


# ---------------------------------------------------------------------------
# CXL memory expansion
# ---------------------------------------------------------------------------


def socket_dram_bandwidth(channels: int, channel_bw: float) -> float:
    """Peak DRAM bandwidth of one socket: channels x per-channel peak."""
    return channels * channel_bw


def expanders_to_match(target_bw: float, device_bw: float) -> int:
    """How many expanders add as much bandwidth as `target_bw` (rounded up)."""
    return math.ceil(target_bw / device_bw - 1e-12)


# ---------------------------------------------------------------------------
# measured hosts: what the model needs to reproduce a bandwidthTest run
# ---------------------------------------------------------------------------


def link_rate_from_measurement(measured_bw: float, n: float, latency: float) -> float:
    """The DMA rate B behind a measured pinned copy of n bytes: n / measured = t_0 + n / B."""
    t_dma = n / measured_bw - latency
    if t_dma <= 0:
        raise ValueError("the measured copy is faster than its per-call overhead allows")
    return n / t_dma


def calibrated_link_rate(raw: float, ref_raw: float, ref_pinned: float, n: float, latency: float) -> float:
    """A link of raw rate `raw` at the efficiency a measured host gets from its own link (raw rate
    `ref_raw`, pinned copy `ref_pinned` of n bytes): the share of the raw rate a real host-to-device
    stream (read completions) gets, carried over. One function: pcie-cxl and hgx-server quote it."""
    return link_rate_from_measurement(ref_pinned, n, latency) / ref_raw * raw


def measured_share_rate(raw: float, measured_raw: float, measured_bw: float) -> float:
    """A link of raw rate `raw` at the share of its own raw rate (`measured_raw`) a measured host's large
    pinned copy got. The per-call overhead stays in: the headline's copy (68 MB) is long enough that the
    fitted overhead is a fifth of a percent of it, and the other Gen5 runs publish no copy size. One
    function: pcie-cxl's headline and hgx-server's read rate."""
    if not 0 < measured_bw < measured_raw:
        raise ValueError("a measured copy runs above zero and below its link's raw rate")
    return measured_bw / measured_raw * raw


def payload_equivalent(efficiency: float, overhead: float, dllp_per_tlp: float) -> float:
    """The payload P at which eta(P) = P / (P + O + d) equals a measured efficiency."""
    if not 0 < efficiency < 1:
        raise ValueError("efficiency must lie in (0, 1)")
    return (overhead + dllp_per_tlp) * efficiency / (1 - efficiency)


def fit_overhead_and_rate(n, bw) -> tuple[float, float]:
    """t_0 and B of T(n) = t_0 + n/B fitted to measured copies (sizes n, rates bw), least squares on each
    copy's time relative to itself: the points span five decades of size, and an absolute fit would leave
    the small copies, which alone carry t_0, no weight."""
    n = np.asarray(n, dtype=float)
    t = n / np.asarray(bw, dtype=float)
    a = np.vstack([np.ones_like(n), n]).T / t[:, None]
    (t0, inv_b), *_ = np.linalg.lstsq(a, np.ones_like(n), rcond=None)
    if t0 <= 0 or inv_b <= 0:
        raise ValueError("the measured copies do not fit t_0 + n/B with both terms positive")
    return float(t0), float(1 / inv_b)


def copy_rate_from_measurement(pageable_bw: float, pinned_bw: float, n: float, chunk: float,
                               latency: float) -> float:
    """The CPU copy rate m at which the model's pageable copy of n bytes runs at the measured rate.

    The link's DMA rate comes from the same host's pinned measurement; pageable_time falls as m
    grows, so a bisection on log m finds the one m that reproduces the pageable measurement.
    """
    link = link_rate_from_measurement(pinned_bw, n, latency)
    target = n / pageable_bw
    if target <= float(pinned_time(n, link, latency)):
        raise ValueError("a pageable copy cannot be as fast as a pinned one")
    lo, hi = math.log(1e6), math.log(1e15)
    for _ in range(200):
        mid = (lo + hi) / 2
        if float(pageable_time(n, link, math.exp(mid), chunk, latency)) > target:
            lo = mid
        else:
            hi = mid
    return math.exp((lo + hi) / 2)


# ---------------------------------------------------------------------------
# the entry function
# ---------------------------------------------------------------------------

MAX_ANIMATION_CHUNKS = 256  # the scene draws one packet per staging chunk


def checked_ranges(min_transfer: float, max_transfer: float, cxl_added_latency_low: float,
                   cxl_added_latency_high: float, animation_transfer: float, staging_chunk: float) -> int:
    """The ranges @model cannot check alone (one parameter against another); returns the number of
    staging chunks the animation draws."""
    if not min_transfer < max_transfer:
        raise ParamError("max_transfer", max_transfer, f"larger than min_transfer ({min_transfer:g} B)")
    if cxl_added_latency_high < cxl_added_latency_low:
        raise ParamError("cxl_added_latency_high", cxl_added_latency_high, "at least cxl_added_latency_low")
    chunks = math.ceil(animation_transfer / staging_chunk)
    if chunks > MAX_ANIMATION_CHUNKS:
        raise ParamError("animation_transfer", animation_transfer,
                         f"at most {MAX_ANIMATION_CHUNKS} staging chunks of {staging_chunk:g} B")
    return chunks


# the copy rates the sweep adds beyond the two measured hosts and the headline: a host twice as fast as
# the headline's (several staging threads, a newer core: no measurement), and one as fast as the link,
# above which the link, not the CPU, sets the pageable rate
SWEEP_WHAT_IF = 2.0


def memcpy_sweep(copies: Copies, shard: float, slowest: float, fastest: float, slowest_link: float,
                 fastest_link: float) -> list[dict]:
    """The pageable shard load at each CPU copy rate m: the two measured hosts' fitted rates, the
    headline's, twice the headline's, and the link's own rate. Each measured host keeps its own link
    efficiency (the Dell's `slowest_link`, the DGX A100's `fastest_link`): its CPU copy and its DMA belong to
    the same machine, so its ratio is not its copy over another host's link. The other rows run at the
    headline's link."""
    points = [(slowest, slowest_link, "slow_host", "slowest measured host (Dell A100 server, its own link)"),
              (copies.memcpy_bandwidth, copies.bw, "headline", "the headline: the DGX A100's copy, Gen5 link"),
              (fastest, fastest_link, "fast_host", "fastest measured host (DGX A100, its own link)"),
              (SWEEP_WHAT_IF * copies.memcpy_bandwidth, copies.bw, "what_if", "twice the headline (no measurement)"),
              (copies.bw, copies.bw, "link", "as fast as the link")]
    rows = []
    # at one copy rate (the headline's is the DGX A100's fit) the slower link's row first: its load is longer
    for m, link_bw, kind, what in sorted(points, key=lambda p: (p[0], p[1])):
        r = Copies(link_bw, m, copies.staging_chunk, copies.call_latency).at(shard)
        rows.append({"memcpy_bandwidth": m, "kind": kind, "what": what, "headline": kind == "headline",
                     "pageable_time": r["pageable_time"], "pinned_time": r["pinned_time"],
                     "ratio": r["pageable_time"] / r["pinned_time"]})
    times = [r["pageable_time"] for r in rows]
    check(all(a >= b for a, b in zip(times, times[1:])), "a faster CPU copy never slows the pageable load")
    return rows


def sweep_summary(rows: list[dict]) -> dict:
    """The sweep's ends, the headline's row and the two measured hosts', under the summary's names."""
    by = {r["kind"]: r for r in rows}
    head = by["headline"]
    return {
        "sweep_ratio_slow_host": by["slow_host"]["ratio"],
        "sweep_ratio_fast_host": by["fast_host"]["ratio"],
        "sweep_pageable_time_fast_host": by["fast_host"]["pageable_time"],
        "sweep_pinned_time_slow_host": by["slow_host"]["pinned_time"],
        "sweep_memcpy_low": rows[0]["memcpy_bandwidth"],
        "sweep_memcpy_high": rows[-1]["memcpy_bandwidth"],
        "sweep_pageable_time_low": rows[0]["pageable_time"],
        "sweep_pageable_time_high": rows[-1]["pageable_time"],
        "sweep_ratio_low": rows[0]["ratio"],
        "sweep_ratio_high": rows[-1]["ratio"],
        "sweep_headline_ratio": head["ratio"],
    }


def worked_problems(big: dict, small: dict, n_half: float, n_match: int, cxl_lanes: int) -> dict:
    """The numbers the page's worked problems ask the reader to re-derive."""
    return {
        "shard_pinned_time": big["pinned_time"],
        "shard_pageable_time": big["pageable_time"],
        "half_bandwidth_bytes": n_half,
        "small_pinned_bw": small["pinned_bw"],
        "expanders": n_match,
        "expander_lanes": n_match * cxl_lanes,
    }


@model(
    transfer_rate=Param.positive("T/s", "PCIe signalling rate per lane"),
    lanes=Param.integer("count", "PCIe lanes to the GPU", maximum=32),
    encoding=Param.positive("1", "line-code efficiency (128b/130b)", maximum=1.0),
    header_bytes=Param.positive("B", "TLP header"),
    framing_seq_bytes=Param.number("B", "TLP framing and sequence number", minimum=0),
    lcrc_bytes=Param.number("B", "TLP link CRC", minimum=0),
    dllp_bytes=Param.number("B", "one data-link packet (DLLP)", minimum=0),
    tlps_per_dllp=Param.positive("1", "TLPs per DLLP (assumption)"),
    max_payload=Param.number("B", "Max_Payload_Size of one TLP", minimum=16, maximum=4096),
    call_latency=Param.number("s", "per-call overhead of one copy", minimum=0, maximum=1.0),
    call_latency_low=Param.number("s", "per-call overhead, low end of its measured range", minimum=0, maximum=1.0),
    call_latency_high=Param.number("s", "per-call overhead, high end of its measured range", minimum=0,
                                   maximum=1.0),
    call_latency_sweep=Param.numbers("s", "per-call overheads swept (assumption: wider than the preprint's range)",
                                     above=0, maximum=1e-3),
    memcpy_bandwidth=Param.positive("B/s",
                                    "CPU copy rate m, one thread (the site's estimate; range: two hosts' fitted m)"),
    staging_chunk=Param.number("B", "staging buffer chunk (assumption)", minimum=4096),
    gpu_pcie_bw=Param.positive("B/s", "GPU datasheet PCIe figure (both directions)"),
    nvlink_bw=Param.positive("B/s", "GPU datasheet NVLink figure (both directions)"),
    nic_port_rate=Param.positive("B/s", "the GPU's NIC port, per direction (the hgx-server node's)"),
    cxl_lanes=Param.integer("count", "CXL expander's PCIe lanes", maximum=16),
    cxl_device_bw=Param.positive("B/s", "CXL expander bandwidth, vendor's 'up to' (reads plus writes)"),
    cxl_device_bw_low=Param.positive("B/s", "CXL expander bandwidth, measured by a third party (reads plus writes)"),
    cxl_device_bw_reads=Param.positive("B/s", "CXL expander bandwidth, all reads, measured by the same third party"),
    cpu_pcie_lanes=Param.integer("count", "PCIe 5.0 lanes of one CPU socket", minimum=1, maximum=256),
    cpu_cxl_devices=Param.integer("count", "CXL devices one CPU socket attaches, at most", minimum=1, maximum=64),
    cxl_added_latency_low=Param.number("s", "CXL latency over local DRAM, Pond's pool estimate, low", minimum=0),
    cxl_added_latency_high=Param.number("s", "CXL latency over local DRAM, Pond's pool estimate, high", minimum=0),
    cxl_load_latency=Param.positive("s", "load latency of a real CXL expander, measured"),
    ddr_transfer_rate=Param.positive("T/s", "DDR5 transfer rate at the server's DIMM population"),
    ddr_channels=Param.integer("count", "DDR5 channels per CPU socket", maximum=64),
    model_params=Param.positive("count", "the scenario model's parameters"),
    weight_bytes=Param.positive("B", "bytes per weight"),
    gpus_per_node=Param.integer("count", "GPUs per node (tensor-parallel shards)"),
    small_transfer=Param.positive("B", "a small per-step copy (worked problem)"),
    min_transfer=Param.positive("B", "smallest transfer plotted"),
    max_transfer=Param.positive("B", "largest transfer plotted", maximum=1e14),
    points_per_decade=Param.integer("count", "points per decade of the curve", maximum=100),
    animation_transfer=Param.positive("B", "the transfer the animation races", animation=True),
    ref_transfer_rate=Param.positive("T/s", "PCIe 4.0 signalling rate per lane (the measured hosts' link)"),
    ref_lanes=Param.integer("count", "PCIe lanes to the measured hosts' GPUs", maximum=32),
    ref_transfer_bytes=Param.positive("B", "bandwidthTest's transfer size on the measured hosts"),
    ref_pinned_bw=Param.positive("B/s", "DGX A100 pinned host-to-device copy, measured"),
    gen5_pinned_bw=Param.positive("B/s", "H100 SXM5 host-to-device copy over PCIe 5.0 x16, measured (the headline)"),
    gen5_pinned_bytes=Param.positive("B", "the headline's measured copy size (the shmoo's largest)"),
    gen5_pinned_bw_high=Param.positive("B/s", "H100 host-to-device copy over PCIe 5.0 x16 in a VM, measured"),
    gen5_pinned_bw_azure=Param.positive("B/s", "H100 host-to-device copy on Azure's ND H100 v5, measured"),
    gen5_transfer_rate=Param.positive("T/s", "PCIe 5.0 signalling rate per lane (the measured Gen5 hosts' link)"),
    ref_pageable_bw=Param.positive("B/s", "DGX A100 pageable host-to-device copy, measured"),
    alt_pinned_bw=Param.positive("B/s", "Dell A100 PCIe server pinned host-to-device copy, measured"),
    alt_pageable_bw=Param.positive("B/s", "Dell A100 PCIe server pageable host-to-device copy, measured"),
    pool_sockets_low=Param.positive("count", "sockets sharing one CXL memory pool (Pond), low"),
    pool_sockets_high=Param.positive("count", "sockets sharing one CXL memory pool (Pond), high"),
    pool_dram_saving=Param.positive("1", "DRAM cost a CXL memory pool saves (Pond)", maximum=1.0),
    host_cxl_version=Param.positive("1", "CXL version the scenario's host CPU implements (switched pools need 2.0)"),
)
def host_to_device(transfer_rate: float, lanes: int, encoding: float, header_bytes: float,
                   framing_seq_bytes: float, lcrc_bytes: float, dllp_bytes: float, tlps_per_dllp: float,
                   max_payload: float, call_latency: float, memcpy_bandwidth: float, staging_chunk: float,
                   gpu_pcie_bw: float, nvlink_bw: float, nic_port_rate: float, cxl_lanes: int,
                   cxl_device_bw: float, cxl_added_latency_low: float, cxl_added_latency_high: float,
                   cxl_load_latency: float, ddr_transfer_rate: float, ddr_channels: int, model_params: float,
                   weight_bytes: float, gpus_per_node: int, call_latency_low: float = 5e-6,
                   call_latency_high: float = 7e-6, cxl_device_bw_low: float = 25.1e9,
                   cxl_device_bw_reads: float = 17.8e9, cpu_pcie_lanes: int = 80, small_transfer: float = 64e3,
                   min_transfer: float = 1e3, max_transfer: float = 1e10, points_per_decade: int = 10,
                   animation_transfer: float = 64e6, ref_transfer_rate: float = 16e9, ref_lanes: int = 16,
                   ref_transfer_bytes: float = 32e6, ref_pinned_bw: float = 25.7e9,
                   ref_pageable_bw: float = 10.0e9, alt_pinned_bw: float = 17.3e9,
                   alt_pageable_bw: float = 3.3e9, pool_sockets_low: float = 8, pool_sockets_high: float = 16,
                   pool_dram_saving: float = 0.07, host_cxl_version: float = 1.1,
                   cpu_cxl_devices: int = 4, gen5_pinned_bw: float = 53.8e9, gen5_pinned_bytes: float = 68e6,
                   gen5_pinned_bw_high: float = 57.06e9, gen5_pinned_bw_azure: float = 51e9,
                   gen5_transfer_rate: float = 32e9,
                   call_latency_sweep: tuple = (2e-6, 4e-6, 6e-6, 8e-6, 10e-6)) -> Exhibit:
    """PCIe 5.0 x16 efficiency, pinned versus pageable copies, and CXL memory expansion.

    transfer_rate: R per lane (transfers/s); lanes: L; encoding: 128/130.
    TLP: header, framing+sequence and LCRC bytes; one DLLP (dllp_bytes) per
    tlps_per_dllp TLPs; max_payload: the system's Max_Payload_Size.
    Copies: call_latency t_0, memcpy_bandwidth m of the staging copy, staging_chunk c.
    gpu_pcie_bw and nvlink_bw: the GPU datasheet's figures (both directions);
    nic_port_rate: the GPU's own NIC port (the hgx-server node's), for the node's other pipes.
    CXL: the expander's lanes, measured bandwidth and latency; DDR5 channel
    bandwidth and channels per socket. The scenario's model (params x weight
    bytes over gpus_per_node) is the big transfer.
    """
    lanes, cxl_lanes, ddr_channels = int(lanes), int(cxl_lanes), int(ddr_channels)
    chunks = checked_ranges(min_transfer, max_transfer, cxl_added_latency_low, cxl_added_latency_high,
                            animation_transfer, staging_chunk)
    if not call_latency_low <= call_latency <= call_latency_high:
        raise ParamError("call_latency", call_latency,
                         f"within its range ({call_latency_low:g} to {call_latency_high:g} s)")
    if cxl_device_bw_low > cxl_device_bw:
        raise ParamError("cxl_device_bw_low", cxl_device_bw_low,
                         f"at most the vendor's 'up to' cxl_device_bw ({cxl_device_bw:.4g} B/s)")
    if cxl_device_bw_reads > cxl_device_bw_low:
        # all reads fill one direction of the link; the 2:1 mix uses both, so it carries more
        raise ParamError("cxl_device_bw_reads", cxl_device_bw_reads,
                         f"at most the 2:1 mix's cxl_device_bw_low ({cxl_device_bw_low:.4g} B/s)")

    link = pcie_link(transfer_rate, lanes, encoding, header_bytes, framing_seq_bytes, lcrc_bytes, dllp_bytes,
                     tlps_per_dllp, max_payload, gpu_pcie_bw)
    bw = link["effective_bw"]  # the 256 B posted-write best case: the ceiling, not what a host gets
    hosts = measured_hosts(link, Copies(bw, memcpy_bandwidth, staging_chunk, call_latency), ref_transfer_rate,
                           int(ref_lanes), encoding, ref_transfer_bytes, ref_pinned_bw, ref_pageable_bw,
                           alt_pinned_bw, alt_pageable_bw)
    # the headline copies run at a measured Gen5 H100 host's rate (read completions), not the best case
    gen5 = gen5_points(link, hosts, int(ref_lanes), gen5_transfer_rate, encoding, gen5_pinned_bw,
                       gen5_pinned_bw_high, gen5_pinned_bw_azure)
    cal = gen5["effective_bw_calibrated"]
    # the headline's CPU copy rate is the one the DGX A100's measured pageable run implies, fitted through the
    # staging model; the shared estimate memcpy_bandwidth (other scenes read it) is checked against it
    m = hosts["ref_memcpy_fit"]
    ceiling = Copies(bw, m, staging_chunk, call_latency)
    copies = Copies(cal, m, staging_chunk, call_latency)
    decades = math.log10(max_transfer / min_transfer)
    sizes = including(np.logspace(math.log10(min_transfer), math.log10(max_transfer),
                                  int(round(decades * points_per_decade)) + 1), small_transfer)
    t_pin = pinned_time(sizes, cal, call_latency)
    shmoo, shmoo_series = shmoo_fit(h2d_shmoo(), gen5_pinned_bw, gen5_pinned_bytes, call_latency_low,
                                    small_transfer, sizes)
    t_page = pageable_time(sizes, cal, m, staging_chunk, call_latency)
    small = copies.at(small_transfer)
    # B is the run's largest copy, its per-copy cost included, and the model adds one call's t_0 on top: a large
    # copy pays t_0 twice. The page says so rather than refit B (hgx-server reads the same rate)
    twice = copies.at(gen5_pinned_bytes)["pinned_bw"]
    check(0 < 1 - twice / cal < 0.01,
          "the model's copy of the headline's own size runs a little below the measured rate: t_0 counted twice")
    n_half = call_latency * cal  # pinned reaches half of the link's rate at n = t_0 B
    shard = model_params * weight_bytes / gpus_per_node
    big, big_ceiling = copies.at(shard), ceiling.at(shard)
    nvlink_dir = nvlink_bw / 2  # the datasheet's figure, one direction
    cxl_raw = raw_bandwidth(transfer_rate, cxl_lanes, encoding)
    # DDR5 per socket as every scene counts it (models/scenario_facts.py): channels × rate × 8 B
    socket_bw = scenario_facts.ddr_per_socket(ddr_channels, ddr_transfer_rate)
    ddr_channel_bw = socket_bw / ddr_channels
    check(socket_bw == socket_dram_bandwidth(ddr_channels, ddr_channel_bw), "the socket is its channels")
    n_match = expanders_to_match(socket_bw, cxl_device_bw)  # at Micron's "up to": the fewest
    n_match_high = expanders_to_match(socket_bw, cxl_device_bw_low)  # at Intel's measured run: the most

    check_copy_claims(link, t_pin, t_page, copies, n_half, small_transfer, nic_port_rate, nvlink_dir)
    check(big["pinned_time"] > big_ceiling["pinned_time"], "the 256 B figure is a ceiling: the host is slower")
    check_cxl_claims(cxl_device_bw, cxl_device_bw_low, ddr_channel_bw, n_match, cxl_raw)
    # the Dell server's efficiency: the slowest pinned load a measured host implies
    big_alt = Copies(hosts["effective_bw_calibrated_alt"], m, staging_chunk, call_latency).at(shard)
    big_dgx = Copies(hosts["effective_bw_dgx_a100"], m, staging_chunk, call_latency).at(shard)
    big_vm = Copies(gen5["effective_bw_gen5_high"], m, staging_chunk, call_latency).at(shard)
    big_azure = Copies(gen5["effective_bw_gen5_azure"], m, staging_chunk, call_latency).at(shard)
    check(big["pinned_time"] < big_dgx["pinned_time"] < big_azure["pinned_time"] < big_alt["pinned_time"],
          "Azure's Gen5 host loads the shard a little slower than the DGX A100's efficiency carried over, and"
          " faster than the Dell's")
    check(big_ceiling["pinned_time"] < big_vm["pinned_time"] < big["pinned_time"] < big_dgx["pinned_time"],
          "the VM and the SXM5 node load the shard faster than the DGX A100's efficiency carried over implies")
    check(big_ceiling["pinned_time"] < big["pinned_time"] < big_alt["pinned_time"],
          "the headline's pinned load sits between the ceiling and the slower measured host's efficiency")
    t0_rows = t0_sweep(sorted({float(t) for t in call_latency_sweep} | {call_latency}), cal, small_transfer, shard)
    sweep = memcpy_sweep(copies, shard, hosts["alt_memcpy_fit"], hosts["ref_memcpy_fit"],
                         hosts["effective_bw_calibrated_alt"], hosts["effective_bw_dgx_a100"])
    pageable_limit = min(m, cal)
    summary = {
        **{k: v for k, v in link.items() if k not in ("payloads", "payload_efficiency")},
        "memcpy_bandwidth": m,
        "memcpy_estimate": memcpy_bandwidth,  # the shared constant other scenes read
        "staging_chunk": staging_chunk,
        "pageable_limit": pageable_limit,
        "pinned_speedup": cal / pageable_limit,
        "pinned_speedup_ceiling": bw / min(m, bw),
        "call_latency": call_latency,  # one isolated call's t_0 (the shmoo's queued copies fit a smaller one)
        # the headline's own copy size through the model, t_0 counted twice, against the rate the run measured
        # (carried to the scene's link: the same rate at the catalogue's x16)
        "headline_copy_model_bw": twice,
        "headline_copy_model_shortfall": 1 - twice / cal,
        "half_bandwidth_bytes": n_half,
        "small_transfer": small_transfer,
        "pinned_time_small": small["pinned_time"],
        "pageable_time_small": small["pageable_time"],
        "gpus_per_node": int(gpus_per_node),
        "shard_bytes": shard,
        "pinned_time_shard": big["pinned_time"],
        "pageable_time_shard": big["pageable_time"],
        "pinned_time_shard_ceiling": big_ceiling["pinned_time"],
        "pinned_time_shard_alt": big_alt["pinned_time"],
        "pinned_time_shard_dgx_a100": big_dgx["pinned_time"],
        "pinned_time_shard_gen5_high": big_vm["pinned_time"],
        "pinned_time_shard_gen5_azure": big_azure["pinned_time"],
        "pageable_time_shard_ceiling": big_ceiling["pageable_time"],
        "shard_saving": big["pageable_time"] - big["pinned_time"],
        **sweep_summary(sweep),
        "nic_port_rate": nic_port_rate,
        "dllp_bytes": dllp_bytes,
        "ddr_transfer_rate": ddr_transfer_rate,
        "ddr_bytes_per_transfer": ddr_channel_bw / ddr_transfer_rate,  # the channel's 64 data bits
        "pcie_sheet_per_direction": gpu_pcie_bw / 2,
        "nvlink_per_direction": nvlink_dir,
        "nvlink_over_pcie": nvlink_dir / (gpu_pcie_bw / 2),
        "pcie_over_nic": link["raw_bw"] / nic_port_rate,
        **cxl_summary(cxl_lanes, cxl_raw, cxl_device_bw, cxl_added_latency_low, cxl_added_latency_high,
                      cxl_load_latency, ddr_channel_bw, ddr_channels, socket_bw, n_match),
        **cxl_measured_summary(cxl_device_bw_low, ddr_channel_bw, n_match_high, cxl_lanes),
        **cxl_reads_summary(cxl_device_bw_reads, ddr_channel_bw, socket_bw, cxl_raw, cxl_lanes),
        **call_latency_summary(call_latency_low, call_latency_high, cal, small_transfer),
        **t0_sweep_summary(t0_rows),
        **hosts,
        **gen5,
        **shmoo,
        "pool_sockets_low": pool_sockets_low,
        "pool_sockets_high": pool_sockets_high,
        "pool_dram_saving": pool_dram_saving,
        # expansion needs only CXL 1.1 (one host per expander); switches and multi-logical devices arrived with
        # CXL 2.0. A switchless multi-headed pool shows each host a plain device, so it is not decided here
        "host_cxl_version": host_cxl_version,
        "host_can_switch_pool": bool(host_cxl_version >= 2.0),
    }
    problems = worked_problems(big, small, n_half, n_match, cxl_lanes)
    problems["expanders_high"] = n_match_high
    # t_0's range moves the shard's load by microseconds, the small copy by a quarter of its rate
    check(float(pinned_time(shard, cal, call_latency_high) - pinned_time(shard, cal, call_latency_low))
          < 1e-3 * big["pinned_time"], "only small copies feel t_0: the shard's load time does not move")
    problems["expander_lanes_high"] = n_match_high * cxl_lanes
    # the lane budget: the expanders' lanes come out of the socket's own, which the GPUs' switches and
    # the NICs also need
    problems["cpu_pcie_lanes"] = int(cpu_pcie_lanes)
    problems["expander_lane_share_low"] = n_match * cxl_lanes / cpu_pcie_lanes
    problems["expander_lane_share_high"] = n_match_high * cxl_lanes / cpu_pcie_lanes
    check(problems["expander_lane_share_high"] > 1 > problems["expander_lane_share_low"] > 0.5,
          "matching a socket's DDR5 with expanders takes most of its PCIe lanes, or more than it has")
    problems.update(device_cap(int(cpu_cxl_devices), n_match, cxl_device_bw, cxl_device_bw_low, socket_bw))
    series = {
        **curves("payload_bytes", link["payloads"], efficiency=link["payload_efficiency"],
                 efficiency_no_dllp=link_efficiency(link["payloads"], link["tlp_overhead"])),
        **curves("transfer_bytes", sizes, pinned_bw=sizes / t_pin, pageable_bw=sizes / t_page,
                 pinned_bw_ceiling=sizes / pinned_time(sizes, bw, call_latency)),
        **shmoo_series,
    }
    return Exhibit(summary=summary, series=series,
                   table=copies_table(copies, small_transfer, animation_transfer, lanes),
                   animation=staging_animation(copies, animation_transfer, chunks), problems=problems,
                   # the published fact stays the 256 B payload rate, as hgx-server and gpudirect-storage count it
                   records={scenario_facts.RECORD: scenario_facts.published(host_to_gpu_rate=bw,
                                                                            ddr5_per_socket=socket_bw),
                            "memcpy_sweep": sweep, "call_latency_sweep": t0_rows})


# ---------------------------------------------------------------------------
# the recipe's steps
# ---------------------------------------------------------------------------


@dataclass(frozen=True)
class Copies:
    """One host-to-device copy's two ways over a link of payload rate `bw` (B_eff)."""

    bw: float
    memcpy_bandwidth: float
    staging_chunk: float
    call_latency: float

    def at(self, n: float) -> dict:
        """Pinned and pageable time and bandwidth of one call copying n bytes."""
        tp = float(pinned_time(n, self.bw, self.call_latency))
        tg = float(pageable_time(n, self.bw, self.memcpy_bandwidth, self.staging_chunk, self.call_latency))
        return {"pinned_time": tp, "pageable_time": tg, "pinned_bw": n / tp, "pageable_bw": n / tg}


def pcie_link(transfer_rate: float, lanes: int, encoding: float, header_bytes: float, framing_seq_bytes: float,
              lcrc_bytes: float, dllp_bytes: float, tlps_per_dllp: float, max_payload: float,
              gpu_pcie_bw: float) -> dict:
    """The link, under the summary's names: line rate, rate after line coding, TLP overheads, B_eff.

    Also the efficiency at each payload size of the figure (`payloads`, `payload_efficiency`).
    """
    raw = raw_bandwidth(transfer_rate, lanes, encoding)
    ovh = tlp_overhead(header_bytes, framing_seq_bytes, lcrc_bytes)
    dllp_per_tlp = dllp_bytes / tlps_per_dllp
    payloads = np.array([64.0, 128.0, 256.0, 512.0, 1024.0, 2048.0, 4096.0])
    eta = float(link_efficiency(max_payload, ovh, dllp_per_tlp))
    return {
        "transfer_rate_gt": transfer_rate / 1e9,
        "lanes": lanes,
        "line_rate": transfer_rate * lanes / 8,  # before line coding, per direction
        "raw_bw": raw,
        "gpu_pcie_bw": gpu_pcie_bw,  # the GPU datasheet's figure, both directions
        "tlp_overhead": ovh,
        "dllp_per_tlp": dllp_per_tlp,
        "max_payload": max_payload,
        "efficiency": eta,
        "effective_bw": scenario_facts.pcie_payload_rate(transfer_rate, lanes, encoding, max_payload, ovh,
                                                         dllp_bytes, tlps_per_dllp),
        "efficiency_128": float(link_efficiency(128.0, ovh, dllp_per_tlp)),
        "efficiency_256_no_dllp": float(link_efficiency(256.0, ovh)),
        "efficiency_4096": float(link_efficiency(4096.0, ovh, dllp_per_tlp)),
        "payloads": payloads,
        "payload_efficiency": link_efficiency(payloads, ovh, dllp_per_tlp),
    }


def refuse_inconsistent_measurements(ref_raw: float, n: float, latency: float, ref_pinned: float,
                                     ref_pageable: float, alt_pinned: float, alt_pageable: float) -> None:
    """A ParamError naming the field when the measured copies cannot be run back through the model:
    a copy shorter than its own per-call overhead, a pinned rate above the link's raw rate, or a
    pageable copy as fast as the pinned one on the same host."""
    for field, bw in (("ref_pinned_bw", ref_pinned), ("alt_pinned_bw", alt_pinned)):
        if n / bw <= latency:
            raise ParamError("call_latency", latency, f"shorter than the {n:g} B copy {field} measured "
                             f"({n / bw:.3g} s)")
    for field, pinned in (("ref_pinned_bw", ref_pinned), ("alt_pinned_bw", alt_pinned)):
        if n / pinned - latency <= n / ref_raw:
            raise ParamError(field, pinned, f"slower than the measured link's raw rate "
                             f"({ref_raw:.4g} B/s from ref_transfer_rate x ref_lanes x encoding) once the "
                             f"per-call overhead ({latency:g} s) is taken out")
    for field, pageable, pinned in (("ref_pageable_bw", ref_pageable, ref_pinned),
                                    ("alt_pageable_bw", alt_pageable, alt_pinned)):
        if pageable >= pinned:
            raise ParamError(field, pageable, f"below the same host's pinned rate ({pinned:.4g} B/s)")


def measured_hosts(link: dict, copies: Copies, ref_transfer_rate: float, ref_lanes: int,
                   encoding: float, n: float, ref_pinned: float, ref_pageable: float,
                   alt_pinned: float, alt_pageable: float) -> dict:
    """Two measured A100 hosts against the model: the payload their pinned rate implies, and their CPU copy rate.

    The DGX A100's pinned copy over PCIe 4.0 x16 gives the share of the raw rate a real host-to-device
    stream gets; the payload with that efficiency is a read-completion size, not the 256 B of a posted
    write. Each host's pageable rate, run back through the staging model, gives its CPU copy rate m.
    """
    ref_raw = raw_bandwidth(ref_transfer_rate, ref_lanes, encoding)
    refuse_inconsistent_measurements(ref_raw, n, copies.call_latency, ref_pinned, ref_pageable,
                                     alt_pinned, alt_pageable)
    ref_link = link_rate_from_measurement(ref_pinned, n, copies.call_latency)
    eta_ref = ref_link / ref_raw
    p_equiv = payload_equivalent(eta_ref, link["tlp_overhead"], link["dllp_per_tlp"])
    cal_bw = calibrated_link_rate(link["raw_bw"], ref_raw, ref_pinned, n, copies.call_latency)
    # the Dell server's pinned copy through the same calibration (its A100 PCIe also sits on PCIe 4.0 x16):
    # the slower of the two measured efficiencies, the far end of the pinned band
    alt_link = link_rate_from_measurement(alt_pinned, n, copies.call_latency)
    cal_bw_alt = calibrated_link_rate(link["raw_bw"], ref_raw, alt_pinned, n, copies.call_latency)
    m_ref = copy_rate_from_measurement(ref_pageable, ref_pinned, n, copies.staging_chunk, copies.call_latency)
    m_alt = copy_rate_from_measurement(alt_pageable, alt_pinned, n, copies.staging_chunk, copies.call_latency)
    eff_64 = float(link_efficiency(64.0, link["tlp_overhead"], link["dllp_per_tlp"]))
    eff_128 = link["efficiency_128"]
    check(eff_64 < eta_ref < eff_128, "a measured host-to-device stream runs between 64- and 128-byte payloads")
    check(abs(m_ref / copies.memcpy_bandwidth - 1) < 0.1,
          "the shared CPU copy estimate agrees with the DGX A100's fitted rate")
    check(m_alt < m_ref, "the same GPU on a different host copies pageable memory at a different rate")
    check(alt_link / ref_raw < eff_64, "the Dell server's pinned stream runs below even 64-byte payloads' efficiency")
    return {
        "ref_raw_bw": ref_raw,
        "ref_pinned_bw": ref_pinned,
        "ref_pageable_bw": ref_pageable,
        "ref_link_bw": ref_link,
        "ref_efficiency": eta_ref,
        # bandwidthTest queues its copies back to back, which may hide t_0: the efficiency with none taken out
        "ref_efficiency_no_overhead": ref_pinned / ref_raw,
        "ref_payload_equiv": p_equiv,
        "ref_memcpy_fit": m_ref,
        "ref_ratio_measured": ref_pinned / ref_pageable,
        "alt_pinned_bw": alt_pinned,
        "alt_pageable_bw": alt_pageable,
        "alt_memcpy_fit": m_alt,
        "alt_link_bw": alt_link,
        "alt_efficiency": alt_link / ref_raw,
        "effective_bw_calibrated_alt": cal_bw_alt,
        "alt_ratio_measured": alt_pinned / alt_pageable,
        "efficiency_64": eff_64,
        "effective_bw_64": eff_64 * link["raw_bw"],
        "effective_bw_128": eff_128 * link["raw_bw"],
        "effective_bw_dgx_a100": cal_bw,
        "ref_bandwidthtest_bytes": n,
    }


def gen5_points(link: dict, hosts: dict, lanes: int, transfer_rate: float, encoding: float, headline: float,
                high: float, azure: float) -> dict:
    """Three third-party runs on H100s over PCIe 5.0 x16: the headline (an 8-GPU SXM5 bare-metal node, like the
    scenario's), a faster VM, and Azure's ND H100 v5 (nvbandwidth's SM copy, on the DGX H100's CPU). All sit
    below the 256 B ceiling; the DGX A100's efficiency carried over falls among them.
    `transfer_rate` and `lanes` are the measured hosts' link, not the scene's (which the Explore panel moves)."""
    measured_raw = raw_bandwidth(transfer_rate, lanes, encoding)
    for field, v in (("gen5_pinned_bw", headline), ("gen5_pinned_bw_high", high), ("gen5_pinned_bw_azure", azure)):
        if v >= measured_raw:
            raise ParamError(field, v, f"below the measured hosts' raw rate ({measured_raw:.4g} B/s)")
    cal = measured_share_rate(link["raw_bw"], measured_raw, headline)
    cal_high = measured_share_rate(link["raw_bw"], measured_raw, high)
    cal_azure = measured_share_rate(link["raw_bw"], measured_raw, azure)
    check(cal_azure < cal < cal_high < link["effective_bw"],
          "the measured Gen5 hosts: Azure's below the headline's, the VM's above it, all below the ceiling")
    check(cal_azure < hosts["effective_bw_dgx_a100"] < cal,
          "the DGX A100's efficiency carried to Gen5 falls within the measured Gen5 hosts' spread")
    dgx = hosts["effective_bw_dgx_a100"]
    return {
        "effective_bw_calibrated": cal,
        "gen5_efficiency": headline / measured_raw,
        "effective_bw_gen5_high": cal_high,
        "gen5_efficiency_high": high / measured_raw,
        "effective_bw_gen5_azure": cal_azure,
        "gen5_efficiency_azure": azure / measured_raw,
        # how far the carried-over estimate sits from two measured Gen5 hosts, each as a share of that host's rate
        "dgx_a100_below_headline": 1 - dgx / cal,
        "dgx_a100_above_azure": dgx / cal_azure - 1,
    }


# the run prints its rates to 0.1 GB/s (the dataset keeps them as printed): a rounding of half that either way
SHMOO_PRINT_STEP = 0.1e9
# above SHMOO_FIT_LARGE_BYTES the fit must follow every point within SHMOO_FIT_TOLERANCE of its rate. There the
# rounding is at most 1.5% (0.05 of 3.4 GB/s at 10 kB); the worst point, 15 kB, repeats 14 kB's 4.7 GB/s and sits
# 5.4% off the fit, and the large copies' slow fall past the peak is not modelled. Below it, at a few kB, t_0 is
# most of each copy and the fit misses by more than the rounding explains: the page gives that miss as it is
SHMOO_FIT_LARGE_BYTES = 10e3
SHMOO_FIT_TOLERANCE = 0.06


def shmoo_fit(shmoo: dict, headline: float, headline_bytes: float, call_latency_low: float,
              small_transfer: float, sizes) -> tuple[dict, dict]:
    """The headline host's bandwidthTest shmoo (models/datasets): t_0 + n/B fitted to its 81 points, its peak
    and its largest copy. bandwidthTest queues 100 copies back to back (bandwidthTest.cu), so its t_0 is what a
    copy costs behind others, not an isolated call's. Returns (summary, series)."""
    n, bw = shmoo["transfer_bytes"], shmoo["bandwidth"]
    at = np.flatnonzero(n == headline_bytes)
    if at.size != 1 or bw[at[0]] != headline:
        raise ParamError("gen5_pinned_bw", headline, f"the shmoo's own rate at gen5_pinned_bytes ({headline_bytes:g}"
                         " B) in models/datasets/vp_h100_bandwidthtest_h2d_pinned.csv")
    t0, rate = fit_overhead_and_rate(n, bw)
    fitted = n / (t0 + n / rate)
    errors = np.abs(fitted / bw - 1)
    worst = int(np.argmax(errors))
    large = n > SHMOO_FIT_LARGE_BYTES
    error_large = float(np.max(errors[large]))
    rounding = SHMOO_PRINT_STEP / 2 / bw[worst]  # how far the printed rate's rounding can move the worst point
    peak = float(bw.max())
    at_peak = n[bw == peak]
    check(error_large < SHMOO_FIT_TOLERANCE, "above 10 kB t_0 + n/B follows every measured point within a few percent")
    check(n[worst] < SHMOO_FIT_LARGE_BYTES and rounding < errors[worst] / 2,
          "the fit's worst miss is a copy of a few kB, and the printed rate's rounding explains less than half of it")
    check(t0 < call_latency_low, "bandwidthTest's queued copies pay less per copy than one isolated call")
    check(headline_bytes == n.max() and headline < peak, "the headline takes the shmoo's largest copy, below its peak")
    check(abs(rate / headline - 1) < 0.05, "the fitted rate and the largest copy's agree within a few percent")
    small = small_transfer / (t0 + small_transfer / rate)
    return ({"shmoo_points": int(n.size), "shmoo_min_bytes": float(n.min()), "shmoo_max_bytes": float(n.max()),
             "shmoo_t0_fit": t0, "shmoo_rate_fit": rate, "shmoo_fit_max_error": float(errors[worst]),
             "shmoo_fit_worst_bytes": float(n[worst]), "shmoo_fit_worst_bw": float(bw[worst]),
             "shmoo_fit_worst_fitted": float(fitted[worst]), "shmoo_fit_worst_rounding": float(rounding),
             "shmoo_fit_large_bytes": SHMOO_FIT_LARGE_BYTES, "shmoo_fit_error_large": error_large,
             "shmoo_half_bytes_fit": t0 * rate, "shmoo_small_bw_fit": small,
             "shmoo_peak_bw": peak, "shmoo_peak_bytes_low": float(at_peak.min()),
             "shmoo_peak_bytes_high": float(at_peak.max()),
             "shmoo_headline_overhead_share": t0 / (headline_bytes / headline)},
            {**curves("shmoo_bytes", n, shmoo_bw=bw),
             "pinned_bw_back_to_back": np.asarray(sizes) / (t0 + np.asarray(sizes) / rate)})


def check_copy_claims(link: dict, t_pin, t_page, copies: Copies, n_half: float,
                      small_transfer: float, nic_port_rate: float, nvlink_dir: float) -> None:
    """The claims the page and captions make about the link and the two kinds of copy."""
    bw, call_latency = copies.bw, copies.call_latency
    check(math.isclose(link["gpu_pcie_bw"], 2 * link["line_rate"], rel_tol=0.02),
          "the datasheet's PCIe figure counts both directions of the line rate")
    check(np.all(np.diff(link["payload_efficiency"]) > 0), "efficiency rises with payload size")
    check(np.all(t_page > t_pin), "pageable memory is never faster than pinned")
    check(copies.memcpy_bandwidth < bw, "the CPU copy, well below the link, sets the pageable rate")
    check(float(pinned_time(100 * n_half, bw, call_latency)) * bw <= 100 * n_half / 0.99,
          "a pinned copy gets close to B_eff once much larger than t_0 B_eff")
    check(call_latency > small_transfer / bw, "for the small per-step copy the per-call overhead dominates")
    check(nic_port_rate < link["raw_bw"] < nvlink_dir,
          "per GPU and direction, the host link is wider than the NIC port and narrower than NVLink")


# Micron's CZ120 figure is an MLC run at 2 reads to 1 write (micron-cxl-cz120): reads, coming back to the
# CPU, fill their direction of the link first, so the link's ceiling at that mix is raw / (2/3)
CZ120_READ_SHARE = 2 / 3


def cxl_mix_ceiling(cxl_raw: float, read_share: float = CZ120_READ_SHARE) -> float:
    """The most an expander's link carries, reads plus writes, at a read share >= 1/2: the read
    direction full at the raw rate (line coding only: a theoretical ceiling, like a DDR5 channel's peak)."""
    return cxl_raw / max(read_share, 1 - read_share)


def check_cxl_claims(cxl_device_bw: float, cxl_device_bw_low: float, ddr_channel_bw: float, n_match: int,
                     cxl_raw: float) -> None:
    """What the page says one CXL expander adds beside a socket's DDR5 channels."""
    check(0.5 < cxl_device_bw_low / ddr_channel_bw < 1 < cxl_device_bw / ddr_channel_bw < 1.25,
          "one expander adds between about two thirds of a DDR5 channel's peak (measured) and about one"
          " (the vendor's 'up to')")
    check(n_match > 1, "CXL adds capacity and some bandwidth; it does not replace local channels")
    check(cxl_device_bw < cxl_mix_ceiling(cxl_raw), "the measured expander fits inside its link at its mix")
    check(cxl_mix_ceiling(cxl_raw) > ddr_channel_bw,
          "theoretical against theoretical, the expander's link is wider than one DDR5 channel")


def device_cap(devices: int, n_match: int, device_bw: float, device_bw_low: float, socket_bw: float) -> dict:
    """The socket's own cap on CXL devices: what the most expanders it attaches add, against its DDR5 peak.

    The lane count alone would allow the low end of the match; the device cap is the tighter limit."""
    check(n_match > devices, "the match cannot be built on this host: it needs more expanders than a socket attaches")
    return {
        "cpu_cxl_devices": devices,
        "cap_bw_low": devices * device_bw_low,
        "cap_bw_high": devices * device_bw,
        "cap_share_low": devices * device_bw_low / socket_bw,
        "cap_share_high": devices * device_bw / socket_bw,
    }


def cxl_summary(cxl_lanes, cxl_raw, cxl_device_bw, cxl_added_latency_low, cxl_added_latency_high,
                cxl_load_latency, ddr_channel_bw, ddr_channels, socket_bw, n_match) -> dict:
    """The page's CXL numbers: the expander's link, bandwidth and latency against the socket's DRAM."""
    return {
        "cxl_lanes": cxl_lanes,
        "cxl_link_raw_bw": cxl_raw,
        "cxl_device_bw": cxl_device_bw,
        "cxl_over_ddr_channel": cxl_device_bw / ddr_channel_bw,  # a measured "up to" over a theoretical peak
        "cxl_mix_ceiling": cxl_mix_ceiling(cxl_raw),
        "cxl_mix_ceiling_over_ddr_channel": cxl_mix_ceiling(cxl_raw) / ddr_channel_bw,
        "cxl_added_latency_low": cxl_added_latency_low,
        "cxl_added_latency_high": cxl_added_latency_high,
        "cxl_load_latency": cxl_load_latency,
        "ddr_channel_bw": ddr_channel_bw,
        "ddr_channels": ddr_channels,
        "socket_dram_bw": socket_bw,
        "cxl_expanders_to_match_socket": n_match,
        "cxl_lanes_to_match_socket": n_match * cxl_lanes,
    }


def cxl_measured_summary(cxl_device_bw_low: float, ddr_channel_bw: float, n_match_high: int,
                         cxl_lanes: int) -> dict:
    """The low end of the expander's bandwidth: a third party's measured run at the vendor's 2:1 mix."""
    return {
        "cxl_device_bw_low": cxl_device_bw_low,
        "cxl_over_ddr_channel_low": cxl_device_bw_low / ddr_channel_bw,
        "cxl_expanders_to_match_socket_high": n_match_high,
        "cxl_lanes_to_match_socket_high": n_match_high * cxl_lanes,
    }


def cxl_reads_summary(cxl_device_bw_reads: float, ddr_channel_bw: float, socket_bw: float, cxl_raw: float,
                      cxl_lanes: int) -> dict:
    """The read-heavy low end: Intel's all-reads run on the same expander, one direction of its link."""
    check(cxl_device_bw_reads < cxl_raw, "all reads fit in the read direction of the expander's link")
    check(0.5 < cxl_device_bw_reads / ddr_channel_bw < 0.6, "read-only, one expander adds about half a DDR5 channel")
    n = expanders_to_match(socket_bw, cxl_device_bw_reads)
    return {
        "cxl_device_bw_reads": cxl_device_bw_reads,
        "cxl_over_ddr_channel_reads": cxl_device_bw_reads / ddr_channel_bw,
        "cxl_expanders_to_match_socket_reads": n,
        "cxl_lanes_to_match_socket_reads": n * cxl_lanes,
    }


def t0_sweep(latencies: list[float], bw: float, small_transfer: float, shard: float) -> list[dict]:
    """What t_0 alone sets, over a range wider than the one preprint's: the small copy's rate, the half-rate
    size t_0 B and the shard's pinned load, at each per-call overhead."""
    rows = []
    for t0 in latencies:
        rows.append({"call_latency": t0,
                     "small_pinned_bw": small_transfer / float(pinned_time(small_transfer, bw, t0)),
                     "half_bandwidth_bytes": t0 * bw,
                     "shard_pinned_time": float(pinned_time(shard, bw, t0))})
    rates = [r["small_pinned_bw"] for r in rows]
    check(all(a > b for a, b in zip(rates, rates[1:])), "a slower call gives the small copy a lower rate")
    check(rows[-1]["shard_pinned_time"] - rows[0]["shard_pinned_time"] < 1e-3 * rows[0]["shard_pinned_time"],
          "over the whole sweep of t_0 the shard's load does not move to the digits shown")
    return rows


def t0_sweep_summary(rows: list[dict]) -> dict:
    """The t_0 sweep's ends, under the summary's names (the high t_0 gives the low rate)."""
    return {
        "t0_sweep_low": rows[0]["call_latency"],
        "t0_sweep_high": rows[-1]["call_latency"],
        "t0_sweep_small_bw_low": rows[-1]["small_pinned_bw"],
        "t0_sweep_small_bw_high": rows[0]["small_pinned_bw"],
        "t0_sweep_half_bytes_low": rows[0]["half_bandwidth_bytes"],
        "t0_sweep_half_bytes_high": rows[-1]["half_bandwidth_bytes"],
    }


def call_latency_summary(low: float, high: float, bw: float, small_transfer: float) -> dict:
    """What t_0 alone sets, at both ends of its measured range: the small copy's rate and the half-rate size."""
    return {
        "call_latency_low": low,
        "call_latency_high": high,
        "half_bandwidth_bytes_low": low * bw,
        "half_bandwidth_bytes_high": high * bw,
        # a slower call gives the small copy a lower rate: the high t_0 is the low rate
        "small_pinned_bw_low": small_transfer / float(pinned_time(small_transfer, bw, high)),
        "small_pinned_bw_high": small_transfer / float(pinned_time(small_transfer, bw, low)),
    }


def copies_table(copies: Copies, small_transfer: float, animation_transfer: float, lanes: int) -> Table:
    """The numbers table: pinned against pageable at each decade of transfer size."""
    table_sizes = sorted({*(10.0 ** np.arange(3, 11)), small_transfer, animation_transfer})
    rows = []
    for n in table_sizes:
        r = copies.at(n)
        rows.append([n, r["pinned_time"], r["pinned_bw"], r["pageable_time"], r["pageable_bw"],
                     r["pageable_time"] / r["pinned_time"]])
    return Table(
        f"Host-to-device copies over PCIe 5.0 x{lanes} at a measured H100 host's rate "
        f"(a third party's Gen5 run), one call each",
        [Column("transfer size", "B"), Column("pinned time", "s"), Column("pinned bandwidth", "B/s"),
         Column("pageable time", "s"), Column("pageable bandwidth", "B/s"),
         Column("pageable / pinned time", "1")],
        rows,
    )


def staging_animation(copies: Copies, animation_transfer: float, chunks: int) -> dict:
    """What the animation draws: one transfer, cut into staging chunks, pinned against pageable."""
    anim = copies.at(animation_transfer)
    return {
        "transfer": animation_transfer,
        "chunks": chunks,
        "pinned_time": anim["pinned_time"],
        "pageable_time": anim["pageable_time"],
        "pinned_bw": anim["pinned_bw"],
        "pageable_bw": anim["pageable_bw"],
        "call_latency": copies.call_latency,
        # every chunk's copy and DMA, in seconds after the call overhead t_0
        "pageable": staging_schedule(animation_transfer, copies.bw, copies.memcpy_bandwidth, copies.staging_chunk),
        "pinned": staging_schedule(animation_transfer, copies.bw, math.inf, copies.staging_chunk),
    }
