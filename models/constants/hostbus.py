"""The host bus and host memory: PCIe, CXL, DDR5, host copies.

Each entry: value in SI base units, unit, source key (sources.py), direction, scope."""

from __future__ import annotations

from models.constants.base import BIDIRECTIONAL, PER_DIRECTION, SHARED, Constant
from models.units import GB, US

CONSTANTS = {
    "pcie5_transfer_rate": Constant(
        32e9, "T/s", "pcie-base-5", scope="per lane",
        label="PCIe 5.0 transfer rate per lane",
        note="one bit per transfer per lane, each direction; bytes need the 128b/130b encoding first",
    ),
    "pcie4_transfer_rate": Constant(
        16e9, "T/s", "pcie-base-5", scope="per lane",
        label="PCIe 4.0 transfer rate per lane",
        note="a PCIe 4.0 device in a 5.0 slot trains at 16 GT/s, the fastest rate both ends support",
    ),
    "pcie_128b130b": Constant(
        128 / 130, "1", "intel-an708",
        label="128b/130b line-code efficiency (PCIe 3.0 to 5.0)",
    ),
    "pcie_tlp_header_3dw": Constant(
        12, "B", "intel-an708", label="TLP header, 3 dwords (32-bit address, or a completion)",
    ),
    "pcie_tlp_framing_seq": Constant(
        4, "B", "intel-an456",
        label="TLP framing plus sequence number",
        note="20 B of overhead for a 3-dword header (AN 456) = 12 B header + 4 B LCRC + 4 B framing"
             " and sequence number (with 128b/130b the 4-byte STP token carries the sequence number)",
    ),
    "pcie_lcrc": Constant(4, "B", "intel-an708", label="TLP link CRC (LCRC)"),
    "pcie_dllp": Constant(8, "B", "intel-an708", label="one DLLP (ACK or UpdateFC), two dwords"),
    "pcie_tlps_per_dllp": Constant(
        4, "1", "intel-an708", label="TLPs per DLLP (assumption)",
        note="an assumption: one ACK or UpdateFC DLLP per four TLPs; AN 708 gives a DLLP's size, not how often"
        " a link sends one",
    ),
    "pcie_max_payload_server": Constant(
        256, "B", "intel-an456", label="Max_Payload_Size of a TLP, common on servers",
        note="the payload AN 456 measures its 92% posted-write efficiency at",
    ),
    "h100_pcie_bw": Constant(
        128 * GB, "B/s", "nvidia-h100-datasheet", BIDIRECTIONAL, "per GPU",
        label="H100 PCIe Gen5 host interface",
        note="64 GB/s each way at the 32 GT/s x16 line rate, before 128b/130b encoding",
    ),
    "cuda_memcpy_call_latency": Constant(
        6 * US, "s", "dualpath2026", scope="",
        label="per-call overhead of one cudaMemcpyAsync (estimate, 5-7 µs)",
        note="an estimate: the midpoint of the 5-7 us one preprint measured; NVIDIA publishes no figure",
    ),
    # the preprint's range around it: pcie-cxl shows what t_0 alone sets (a small copy's rate, the half-rate size)
    "cuda_memcpy_call_latency_low": Constant(
        5 * US, "s", "dualpath2026", scope="",
        label="per-call overhead of one cudaMemcpyAsync, low end of one preprint's range",
    ),
    "cuda_memcpy_call_latency_high": Constant(
        7 * US, "s", "dualpath2026", scope="",
        label="per-call overhead of one cudaMemcpyAsync, high end of one preprint's range",
    ),
    "host_memcpy_bw_one_thread": Constant(
        10 * GB, "B/s", "gengwg-a100-bandwidthtest", PER_DIRECTION, "per CPU core", estimate=(3.34 * GB, 10.3 * GB),
        label="single-threaded host memcpy, the pageable staging copy (estimate)",
        note="an estimate for a host nobody measured (the DGX H100), based on the DGX A100's measured pageable"
             " copy: run back through pcie-cxl's staging model it needs a CPU copy of about 10.3 GB/s, and the"
             " value sits just below that (oxicuda-staging's docs also quote about 10 GB/s, a secondary remark)."
             " The range is the two measured hosts' CPU copy rates as pcie-cxl's staging model fits them to their"
             " pageable copies (Dell A100 server 3.3 GB/s gives 3.34, DGX A100 10.0 GB/s gives 10.3; its tests"
             " hold the range to those fits); pcie-cxl sweeps m from the slower host's to the link's own rate."
             " The conclusion (the CPU copy sets the pageable rate) holds below the link",
    ),
    "cxl_added_latency_low": Constant(
        70e-9, "s", "pond2023",
        label="CXL latency added over local DRAM, low end (Pond's estimate for an 8-16-socket pool, no switch)",
        note="Pond's design estimate for a pool of 8-16 sockets behind a multi-headed controller; Pond"
             " evaluated it by emulation, with the memory of the other socket (a remote NUMA node), not a CXL device",
    ),
    "cxl_added_latency_high": Constant(
        90e-9, "s", "pond2023",
        label="CXL latency added over local DRAM, high end (Pond's estimate for an 8-16-socket pool, no switch)",
    ),
    # the scenario's host decides which half of the CXL story it can run: expansion (one host per
    # expander) works on CXL 1.1; multi-headed and multi-logical pooling devices are CXL 2.0
    "xeon_8480_cxl_version": Constant(
        1.1, "1", "sth-spr-cxl",
        label="CXL version the Xeon Platinum 8480+ (4th-gen Xeon, Sapphire Rapids) implements",
        note="second-hand: ServeTheHome's launch coverage of Intel's platform slides, not Intel's ARK page"
             " or product brief read here",
    ),
    # the same launch slides cap how many CXL devices one socket attaches: the lane match of pcie-cxl's worked
    # problem (8-12 x8 expanders) cannot be built on this host whatever its lanes
    "xeon_8480_cxl_devices_max": Constant(
        4, "1", "sth-spr-cxl", scope="per CPU",
        label="CXL devices one 4th-gen Xeon (Sapphire Rapids) socket attaches, at most",
        note="second-hand: ServeTheHome's report of Intel's launch slides ('up to 4 CXL devices per CPU'),"
             " not Intel's own product brief",
    ),
    "cxl_load_latency_measured": Constant(
        250e-9, "s", "intel-cachelib-cxl",
        label="load latency of a real CXL 2.0 expander (PCIe 5.0 x8, E3.S), measured by Intel",
        note="total latency of one load from the expander, on a 4th-gen Xeon; not an increment",
    ),
    "cz120_bw": Constant(
        36 * GB, "B/s", "micron-cxl-cz120", BIDIRECTIONAL, "per link",
        label="Micron CZ120 CXL 2.0 memory expander (PCIe 5.0 x8), up to (measured)",
        note="Micron's MLC run with a 2:1 read/write mix, quoted as 'up to': a best measured run, not a"
             " theoretical peak; reads and writes together, over both directions of the x8 link",
    ),
    "cxl_expander_bw_measured": Constant(
        25.1 * GB, "B/s", "intel-cachelib-cxl", BIDIRECTIONAL, "per link",
        label="a real CXL 2.0 expander (PCIe 5.0 x8, E3.S), 2:1 read/write, measured by Intel",
        note="the same 2:1 mix as Micron's CZ120 'up to', measured on a 4th-gen Xeon (Platinum 8470);"
             " reads and writes together over both directions of the x8 link",
    ),
    "cxl_expander_bw_reads_measured": Constant(
        17.8 * GB, "B/s", "intel-cachelib-cxl", PER_DIRECTION, "per link",
        label="a real CXL 2.0 expander (PCIe 5.0 x8, E3.S), all reads, measured by Intel",
        note="the same expander and run as the 2:1 figure; reads alone fill only the link's read direction,"
             " so this is the read-heavy low end",
    ),
    "ddr5_4800_channel_bw": Constant(
        38.4 * GB, "B/s", "jedec-jesd79-5", SHARED, "per channel",
        label="one DDR5-4800 channel, peak",
        note="4800 MT/s x 8 B (64 data bits as two 32-bit subchannels); reads and writes share the channel",
    ),
    # measured host-to-device copies on two named hosts (a third party's bandwidthTest runs, 32 MB each)
    "bandwidthtest_quick_bytes": Constant(
        32e6, "B", "gengwg-a100-bandwidthtest", label="bandwidthTest's quick-mode transfer (32,000,000 B)",
    ),
    "dgx_a100_h2d_pinned_measured": Constant(
        25.7 * GB, "B/s", "gengwg-a100-bandwidthtest", PER_DIRECTION, "per GPU",
        label="DGX A100 host-to-device copy from pinned memory, measured (PCIe 4.0 x16, 32 MB)",
    ),
    "dgx_a100_h2d_pageable_measured": Constant(
        10.0 * GB, "B/s", "gengwg-a100-bandwidthtest", PER_DIRECTION, "per GPU",
        label="DGX A100 host-to-device copy from pageable memory, measured (32 MB)",
    ),
    "dell_a100_h2d_pinned_measured": Constant(
        17.3 * GB, "B/s", "gengwg-a100-bandwidthtest", PER_DIRECTION, "per GPU",
        label="Dell A100 PCIe server host-to-device copy from pinned memory, measured (32 MB)",
    ),
    "dell_a100_h2d_pageable_measured": Constant(
        3.3 * GB, "B/s", "gengwg-a100-bandwidthtest", PER_DIRECTION, "per GPU",
        label="Dell A100 PCIe server host-to-device copy from pageable memory, measured (32 MB)",
    ),
    # measured host-to-device copies over PCIe 5.0 x16 to an H100 (third parties)
    "h100_sxm_h2d_pinned_measured": Constant(
        53.8 * GB, "B/s", "vp-h100-benchmark", PER_DIRECTION, "per GPU",
        label="H100 SXM5 host-to-device copy from pinned memory, measured on an 8-GPU bare-metal node"
              " (PCIe 5.0 x16, Xeon Platinum 8470, the shmoo's largest copy)",
        note="the bandwidthTest shmoo's largest copy (68 MB; models/datasets/vp_h100_bandwidthtest_h2d_pinned.csv,"
             " checked against it by pcie-cxl); the run peaks at 54.8 GB/s at 18-22 MB, the figure its README"
             " quotes, and falls slowly past that",
    ),
    "h100_sxm_h2d_pinned_bytes": Constant(
        68e6, "B", "vp-h100-benchmark",
        label="the largest copy of the H100 SXM5 node's bandwidthTest shmoo (68,000,000 B)",
    ),
    "nd_h100_v5_h2d_measured": Constant(
        51 * GB, "B/s", "azure-ai-benchmarking-guide", PER_DIRECTION, "per GPU",
        label="H100 host-to-device copy measured with nvbandwidth on an Azure ND H100 v5 VM"
              " (PCIe 5.0 x16, Xeon Platinum 8480C)",
        note="nvbandwidth's host_to_device_memcpy_sm test (an SM copy kernel, not the copy engine), one figure"
             " for the VM, to whole GB/s; the guide's script passes no buffer size, so the run used nvbandwidth's"
             " default (64 MiB in the releases of 2024, when the results were posted: nvbandwidth-common-h)",
    ),
    "h100_sxm_d2h_measured": Constant(
        46.8 * GB, "B/s", "vp-h100-benchmark", PER_DIRECTION, "per GPU",
        label="H100 SXM5 device-to-host copy, measured on an 8-GPU bare-metal node (PCIe 5.0 x16), the run's peak",
        note="the same third-party run as the host-to-device copy (bandwidthTest shmoo, pinned memory, Xeon"
             " Platinum 8470 per the run's summary); the peak, at 900 kB copies: from 2 MB up the copy falls to"
             " about 21 GB/s (h100_sxm_d2h_large_measured)",
    ),
    "h100_sxm_d2h_large_measured": Constant(
        20.5 * GB, "B/s", "vp-h100-benchmark", PER_DIRECTION, "per GPU",
        label="H100 SXM5 device-to-host copy, measured on the same node at the shmoo's largest copy (68 MB)",
        note="the log's Device to Host block, PINNED Memory Transfers: '68000000 20.5' (20.5-20.6 GB/s from"
             " 26 MB up); the run's summary: 'falls to ~20.5 GB/s at large sizes (>2 MB), likely due to NUMA"
             " effects (pinned host memory allocated on a remote NUMA node relative to the GPU)', 'H2D is"
             " unaffected'",
    ),
    "h100_vm_h2d_pinned_measured": Constant(
        57.06 * GB, "B/s", "nvbandwidth-issue-6", PER_DIRECTION, "per GPU",
        label="H100 host-to-device copy, measured with nvbandwidth in a 4-GPU VM (PCIe 5.0 x16)",
        note="the middle of the three matching GPUs (56.68, 57.06, 57.07 GB/s; GPU 0's 14.2 GB/s is the"
             " outlier the issue asks about); nvbandwidth's host buffers are pinned (cuMemHostAlloc in its"
             " memcpy.cpp)",
    ),
    # Pond (ASPLOS 2023), abstract: how large a CXL memory pool needs to be, and what it saves
    "pond_pool_sockets_low": Constant(8, "1", "pond2023", label="sockets sharing one Pond memory pool, low"),
    "pond_pool_sockets_high": Constant(16, "1", "pond2023", label="sockets sharing one Pond memory pool, high"),
    "pond_dram_saving": Constant(
        0.07, "1", "pond2023", label="DRAM cost Pond's pooling saves (158 cloud workloads)",
        note="with performance within 1-5% of same-NUMA-node allocations",
    ),
}
