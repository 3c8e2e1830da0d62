"""The one table of hardware and field constants, each with its source.

Every bandwidth carries its direction ("per direction" or "bidirectional")
and its scope ("per link", "per port", "per GPU", "per node", "aggregate"):
the pages show the tag wherever the number appears, so a per-direction figure
is never set against a bidirectional one by accident.

Values are in SI base units (see models/units.py): bytes, seconds, B/s.
Add a constant here, with its source, before any model or page uses it.
"""

from __future__ import annotations

from dataclasses import dataclass

from models.units import DAY, GB, MB, MINUTE, TB, US, Gbps

PER_DIRECTION = "per direction"
BIDIRECTIONAL = "bidirectional"
NO_DIRECTION = ""

SCOPES = ("per link", "per port", "per GPU", "per node", "per job", "per step", "aggregate", "")


@dataclass(frozen=True)
class Source:
    """A primary source: datasheet, paper, standard or public measurement."""

    title: str
    publisher: str
    year: int
    url: str
    where: str = ""  # section, table or page within the source


@dataclass(frozen=True)
class Constant:
    value: float
    unit: str  # SI base unit of `value`: "B/s", "B", "s", "W", "USD", "1"
    source: str  # key into SOURCES
    direction: str = NO_DIRECTION
    scope: str = ""
    label: str = ""  # how the pages name it
    note: str = ""  # what the value means when it needs saying


SOURCES: dict[str, Source] = {
    "llama3": Source(
        "The Llama 3 Herd of Models (arXiv:2407.21783)",
        "Meta AI (A. Grattafiori, A. Dubey et al.)",
        2024,
        "https://arxiv.org/abs/2407.21783",
        "§3.3.1 (Storage: Tectonic throughput, checkpoint sizes); §3.3.4 and Table 5"
        " (interruptions during a 54-day snapshot)",
    ),
    "nvidia-h100-datasheet": Source(
        "NVIDIA H100 Tensor Core GPU datasheet",
        "NVIDIA",
        2023,
        "https://www.nvidia.com/en-us/data-center/h100/",
        "Technical specifications, H100 SXM column",
    ),
    "nvidia-cx7-datasheet": Source(
        "NVIDIA ConnectX-7 400G adapter datasheet",
        "NVIDIA",
        2022,
        "https://www.nvidia.com/content/dam/en-zz/Solutions/networking/infiniband-adapters/infiniband-connectx7-data-sheet.pdf",
        "Single-port NDR 400 Gb/s InfiniBand",
    ),
    "nccl-tests-performance": Source(
        "NCCL tests: Performance reported by NCCL tests (doc/PERFORMANCE.md)",
        "NVIDIA, nccl-tests repository",
        2023,
        "https://github.com/NVIDIA/nccl-tests/blob/master/doc/PERFORMANCE.md",
        "§Bus bandwidth, AllReduce",
    ),
    "nccl-tuning": Source(
        "NCCL source, src/graph/tuning.cc (latency model: baseLat, hwLat), NCCL 2.20.3",
        "NVIDIA, NCCL repository",
        2024,
        "https://github.com/NVIDIA/nccl/blob/b6475625fbcaa2c3c0e50eed2fa1255d7514d4a2/src/graph/tuning.cc",
        "hwLat[NCCL_HW_NET][NCCL_ALGO_RING][NCCL_PROTO_SIMPLE] = 14.0 us (release 2.20.3-1, commit b647562)",
    ),
    "nccl-trees": Source(
        "NCCL source, src/graph/trees.cc (ncclGetBtree, ncclGetDtree: the double binary tree)",
        "NVIDIA, NCCL repository",
        2020,
        "https://github.com/NVIDIA/nccl/blob/master/src/graph/trees.cc",
        "ncclGetBtree (in-order tree rooted at rank 0), ncclGetDtree (mirror for even p, shift for odd p)",
    ),
    "sanders2009": Source(
        "Two-tree algorithms for full bandwidth broadcast, reduction and scan",
        "P. Sanders, J. Speck and J. L. Träff, Parallel Computing 35(12):581-594",
        2009,
        "https://doi.org/10.1016/j.parco.2009.09.001",
        "the two complementary binary trees NCCL's double binary tree implements",
    ),
    "young1974": Source(
        "A first order approximation to the optimum checkpoint interval",
        "J. W. Young, Communications of the ACM 17(9):530-531",
        1974,
        "https://doi.org/10.1145/361147.361115",
        "the first-order optimum τ = √(2δM)",
    ),
    "daly2006": Source(
        "A higher order estimate of the optimum checkpoint interval for restart dumps",
        "J. T. Daly, Future Generation Computer Systems 22(3):303-312",
        2006,
        "https://doi.org/10.1016/j.future.2004.11.016",
        "complete cost function T_w(τ); eq. (37), the higher-order optimum;"
        " Figs. 3-5 (worked cases with R = 10 min, δ = 5 min)",
    ),
    "zero2020": Source(
        "ZeRO: Memory Optimizations Toward Training Trillion Parameter Models (arXiv:1910.02054)",
        "S. Rajbhandari, J. Rasley, O. Ruwase and Y. He, SC20",
        2020,
        "https://arxiv.org/abs/1910.02054",
        "§3.1 Model States: mixed-precision Adam holds 2Ψ + 2Ψ + KΨ bytes, K = 12",
    ),
    "nccl-double-tree-blog": Source(
        "Massively Scale Your Deep Learning Training with NCCL 2.4",
        "NVIDIA Technical Blog (S. Jeaugey)",
        2019,
        "https://developer.nvidia.com/blog/massively-scale-deep-learning-training-nccl-2-4/",
    ),
    "patarasuk2009": Source(
        "Bandwidth optimal all-reduce algorithms for clusters of workstations",
        "P. Patarasuk and X. Yuan, J. Parallel and Distributed Computing 69(2):117-124",
        2009,
        "https://doi.org/10.1016/j.jpdc.2008.09.002",
    ),
    "thakur2005": Source(
        "Optimization of Collective Communication Operations in MPICH",
        "R. Thakur, R. Rabenseifner and W. Gropp, IJHPCA 19(1):49-66",
        2005,
        "https://doi.org/10.1177/1094342005051521",
    ),
    # >>> sources: scene 01
    "nvidia-nvlink": Source(
        "NVLink and NVLink Switch",
        "NVIDIA",
        2024,
        "https://www.nvidia.com/en-us/data-center/nvlink/",
        "Blackwell: up to 18 NVLink 100 GB/s connections, 1.8 TB/s per GPU; NVLink Switch: 144 NVLink"
        " ports, 14.4 TB/s non-blocking; 130 TB/s of GPU bandwidth in one NVL72; generations table"
        " (fourth generation, Hopper: 900 GB/s, 18 links per GPU)",
    ),
    "nvidia-hopper-in-depth": Source(
        "NVIDIA Hopper Architecture In-Depth",
        "NVIDIA Technical Blog (M. Andersch et al.)",
        2022,
        "https://developer.nvidia.com/blog/nvidia-hopper-architecture-in-depth/",
        "§Fourth-generation NVLink and NVLink Switch System: 18 links, 900 GB/s total",
    ),
    "nvidia-hgx-h100-blog": Source(
        "Introducing NVIDIA HGX H100: An Accelerated Server Platform for AI and High-Performance Computing",
        "NVIDIA Technical Blog",
        2022,
        "https://developer.nvidia.com/blog/introducing-nvidia-hgx-h100-an-accelerated-server-platform-for-ai-and-high-performance-computing/",
        "§HGX H100 8-GPU: eight H100s, four third-generation NVSwitch chips, every GPU on all four,"
        " each switch non-blocking; 900 GB/s bidirectional between any two GPUs",
    ),
    "nvidia-gb200-nvl72": Source(
        "NVIDIA GB200 NVL72",
        "NVIDIA",
        2024,
        "https://www.nvidia.com/en-us/data-center/gb200-nvl72/",
        "Specifications: 72 Blackwell GPUs, 36 Grace CPUs, NVLink bandwidth 130 TB/s",
    ),
    # >>> sources: scene 02
    "pcie-base-5": Source(
        "PCI Express Base Specification, Revision 5.0",
        "PCI-SIG",
        2019,
        "https://pcisig.com/specifications",
        "§4.2 (32.0 GT/s per lane, 128b/130b encoding)",
    ),
    "intel-an708": Source(
        "AN 708: PCI Express DMA Reference Design Using External Memory, Understanding PCI Express Throughput",
        "Intel",
        2017,
        "https://www.intel.com/content/www/us/en/docs/programmable/683390/quartus-prime-pro-v17-0-arria-10/understanding-pci-express-throughput.html",
        "§Protocol Overhead: 128b/130b; DLLPs are two dwords; TLP overhead 5-7 dwords without ECRC"
        " (framing, sequence number, 3- or 4-dword header, LCRC)",
    ),
    "intel-an456": Source(
        "AN 456: PCI Express High Performance Reference Design, Throughput for Posted Writes",
        "Intel",
        2018,
        "https://www.intel.com/content/www/us/en/docs/programmable/683541/current/throughput-for-posted-writes.html",
        "§1.1.2: 256-byte payload, 3-dword header (five dwords of overhead): 256/(256+20) = 92%",
    ),
    "nvidia-data-transfers-blog": Source(
        "How to Optimize Data Transfers in CUDA C/C++",
        "NVIDIA Technical Blog (M. Harris)",
        2012,
        "https://developer.nvidia.com/blog/how-optimize-data-transfers-cuda-cc/",
        "§Pinned Host Memory: pageable transfers are staged through a pinned buffer, then DMA'd",
    ),
    "cuda-best-practices": Source(
        "CUDA C++ Best Practices Guide",
        "NVIDIA",
        2024,
        "https://docs.nvidia.com/cuda/cuda-c-best-practices-guide/index.html",
        "§Data Transfer Between Host and Device, Pinned Memory",
    ),
    "dualpath2026": Source(
        "DualPath: Breaking the Storage Bandwidth Bottleneck in Agentic LLM Inference (arXiv:2602.21548)",
        "Wu et al., arXiv preprint",
        2026,
        "https://arxiv.org/abs/2602.21548",
        "§5.2: one cudaMemcpyAsync costs about 5-7 us of per-call overhead",
    ),
    "oxicuda-staging": Source(
        "oxicuda-memory 0.5.5, module staging (measurement notes)",
        "OxiCUDA project, docs.rs",
        2025,
        "https://docs.rs/oxicuda-memory/0.5.5/oxicuda_memory/staging/index.html",
        "a single-threaded host memcpy runs at roughly 10 GB/s",
    ),
    "pond2023": Source(
        "Pond: CXL-Based Memory Pooling Systems for Cloud Platforms (ASPLOS 2023)",
        "H. Li, D. S. Berger, L. Hsu et al., Microsoft Azure",
        2023,
        "https://www.microsoft.com/en-us/research/publication/pond-cxl-based-memory-pooling-systems-for-cloud-platforms/",
        "§2-3: CXL memory adds about 70-90 ns over NUMA-local DRAM, like a cross-socket hop",
    ),
    "micron-cz120": Source(
        "Micron Unveils 128GB and 256GB CXL 2.0 Expansion Modules (CZ120)",
        "Tom's Hardware (A. Shilov), reporting Micron's announcement",
        2023,
        "https://www.tomshardware.com/news/micron-unveils-128gb-256gb-cxl-2-expansion-modules",
        "CXL 2.0 Type 3, PCIe 5.0 x8; up to 36 GB/s (MLC, 2:1 read/write); DDR5-4800 RDIMM 38.4 GB/s peak",
    ),
    "wwt-spr-memory": Source(
        "Memory Population Guidelines for Intel 4th Gen Xeon Scalable Processors",
        "World Wide Technology",
        2023,
        "https://www.wwt.com/article/memory-population-guidelines-for-intel-4th-gen-xeon-scalable-processors",
        "four controllers, eight DDR5 channels per CPU, 4800 MT/s with one DIMM per channel",
    ),
    # >>> sources: scene 03
    "williams2009": Source(
        "Roofline: An Insightful Visual Performance Model for Multicore Architectures",
        "S. Williams, A. Waterman and D. Patterson, Communications of the ACM 52(4):65-76",
        2009,
        "https://doi.org/10.1145/1498765.1498785",
        "attainable GFLOP/s = min(peak floating-point performance, peak memory bandwidth x"
        " operational intensity); the ridge point",
    ),
    "nvidia-h200-datasheet": Source(
        "NVIDIA H200 Tensor Core GPU",
        "NVIDIA",
        2024,
        "https://www.nvidia.com/en-us/data-center/h200/",
        "Technical specifications, H200 SXM column (tensor-core figures shown with sparsity)",
    ),
    "nvidia-hgx-b200": Source(
        "NVIDIA HGX Platform: technical specifications",
        "NVIDIA",
        2025,
        "https://www.nvidia.com/en-us/data-center/hgx/",
        "HGX B200 column, individual Blackwell GPU specifications (tensor-core figures with"
        " sparsity; 180 GB HBM3E, 7.7 TB/s per GPU)",
    ),
    # >>> sources: scene 04
    "nvidia-dgx-h100-user-guide": Source(
        "NVIDIA DGX H100/H200 User Guide: Introduction to the NVIDIA DGX H100 System",
        "NVIDIA",
        2023,
        "https://docs.nvidia.com/dgx/dgxh100-user-guide/introduction-to-dgxh100.html",
        "Hardware overview (8 H100 SXM, 4 NVSwitch, 2 Xeon Platinum 8480C, 2 TB DDR5, 8 single-port"
        " ConnectX-7 behind 4 OSFP ports, 2 dual-port ConnectX-7, 8 x 3.84 TB U.2 + 2 x 1.92 TB M.2;"
        " system power 10.2 kW max); §1.2.3 Network Modules, Table 6 (each OSFP port's ConnectX-7 paired"
        " with one GPU, four per CPU)",
    ),
    "nvidia-dgx-basepod-ra": Source(
        "NVIDIA DGX BasePOD Reference Architecture: Core Components (DGX H200 and H100 systems)",
        "NVIDIA",
        2024,
        "https://docs.nvidia.com/dgx-basepod/reference-architecture-infrastructure-foundation-enterprise-ai/latest/core-components.html",
        "Key specifications of the DGX H200 and H100 system: dual Xeon Platinum 8480C, 112 cores total;"
        " 2 TB DDR5; four OSFP ports serving eight single-port ConnectX-7; 2 dual-port QSFP112 ConnectX-7",
    ),
    "intel-xeon-8480-ark": Source(
        "Intel Xeon Platinum 8480+ Processor (105M Cache, 2.00 GHz) specifications",
        "Intel (ARK)",
        2023,
        "https://www.intel.com/content/www/us/en/products/sku/231746/intel-xeon-platinum-8480-processor-105m-cache-2-00-ghz/specifications.html",
        "TDP 350 W; 8 memory channels; DDR5 4800 MT/s (1 DIMM per channel), 4400 MT/s (2 DIMMs per"
        " channel); the DGX's 8480C is NVIDIA's custom SKU of this 56-core part",
    ),
    "pcisig-pcie-base": Source(
        "PCI Express Base Specification, Revision 5.0",
        "PCI-SIG",
        2019,
        "https://pcisig.com/specifications/pciexpress",
        "Physical layer: 32.0 GT/s per lane, 128b/130b encoding",
    ),
    # >>> sources: scene 05
    "cisco-pfc-whitepaper": Source(
        "Priority Flow Control: Build Reliable Layer 2 Infrastructure (white paper C11-542809)",
        "Cisco Systems",
        2009,
        "https://www.cisco.com/en/US/prod/collateral/switches/ps9441/ps9670/white_paper_c11-542809_ns783_Networking_Solutions_White_Paper.html",
        "§Distance Limitations: 476 ns per 100 m of twinax copper, 513 ns per 100 m of single-mode"
        " fibre; 641 bytes in flight per 100 m at 10 Gb/s; MTU at each end of the link",
    ),
    "linux-mlx5-port-buffer": Source(
        "Linux kernel, drivers/net/ethernet/mellanox/mlx5/core/en/port_buffer.c (calculate_xoff)",
        "NVIDIA (Mellanox) mlx5 driver, Linux kernel",
        2018,
        "https://github.com/torvalds/linux/blob/master/drivers/net/ethernet/mellanox/mlx5/core/en/port_buffer.c",
        "xoff = (301 + 2.16 len[m]) * speed[Gb/s] + 2.72 MTU[B], speed at least 40 Gb/s",
    ),
    "ieee-802-1qbb": Source(
        "IEEE 802.1Qbb-2011: Priority-based Flow Control",
        "IEEE 802.1 Working Group",
        2011,
        "https://1.ieee802.org/dcb/802-1qbb/",
        "per-priority PAUSE (XOFF/XON) between directly connected peers",
    ),
    "dcqcn2015": Source(
        "Congestion Control for Large-Scale RDMA Deployments (DCQCN)",
        "Y. Zhu, H. Eran, D. Firestone et al., ACM SIGCOMM 2015",
        2015,
        "https://doi.org/10.1145/2785956.2787484",
        "§3: ECN marking between K_min and K_max (RED-like), CNPs, rate cut R(1 - alpha/2),"
        " alpha update with gain g, additive and hyper increase",
    ),
    # >>> sources: scene 06
    "nvidia-superpod-h100-ra": Source(
        "NVIDIA DGX SuperPOD Reference Architecture, DGX H100: Network Fabrics",
        "NVIDIA",
        2023,
        "https://docs.nvidia.com/dgx-superpod/reference-architecture-scalable-infrastructure-h100/latest/network-fabrics.html",
        "Compute InfiniBand fabric: SUs of 32 nodes, rail-aligned; Table 4 (compute fabric component"
        " count: 1-4 SUs, 31-127 nodes, 8-32 leaf and 4-16 spine switches, cable counts)",
    ),
    "nvidia-superpod-b200-ra": Source(
        "NVIDIA DGX SuperPOD Reference Architecture, DGX B200: DGX SuperPOD Architecture",
        "NVIDIA",
        2024,
        "https://docs.nvidia.com/dgx-superpod/reference-architecture-scalable-infrastructure-b200/latest/dgx-superpod-architecture.html",
        "Table 3 (larger DGX SuperPOD component counts: 2-64 SUs, leaf/spine/core switches and cables"
        " per tier; 64 SUs = 16,384 GPUs with 512 leaf, 512 spine, 256 core switches)",
    ),
    "nvidia-qm9700-manual": Source(
        "QM9700/QM9790 1U NDR 400Gb/s InfiniBand Switch Systems User Manual",
        "NVIDIA",
        2022,
        "https://docs.nvidia.com/qm9700-qm9790-1u-ndr-400gb-s-infiniband-switch-systems-user-manual.pdf",
        "§1.1 Speed and Switching Capabilities; Interfaces: 32 OSFP cages, each 2 logical 400 Gb/s"
        " InfiniBand ports (64 NDR ports)",
    ),
    "alfares2008": Source(
        "A Scalable, Commodity Data Center Network Architecture",
        "M. Al-Fares, A. Loukissas and A. Vahdat, ACM SIGCOMM 2008",
        2008,
        "https://doi.org/10.1145/1402958.1402967",
        "§3 (the k-ary fat-tree: k pods, (k/2)² core switches, k³/4 hosts)",
    ),
    "shpiner2017": Source(
        "Dragonfly+: Low Cost Topology for Scaling Datacenters",
        "A. Shpiner, Z. Haramaty, S. Eliad, V. Zdornov, B. Gafni and E. Zahavi, HiPINEB 2017 (IEEE)",
        2017,
        "https://doi.org/10.1109/HiPINEB.2017.11",
        "groups of leaf-spine (Clos) routers; full in-group bisection when p = l = s = h = k/2,"
        " so a group holds k²/4 hosts",
    ),
    # >>> sources: scene 08
    "vasudevan2009": Source(
        "Safe and Effective Fine-grained TCP Retransmissions for Datacenter Communication",
        "V. Vasudevan, A. Phanishayee, H. Shah, E. Krevat, D. G. Andersen, G. R. Ganger,"
        " G. A. Gibson and B. Mueller, ACM SIGCOMM 2009",
        2009,
        "https://doi.org/10.1145/1592568.1592604",
        "the incast problem: synchronized reads overfill shallow switch buffers; timeouts bounded"
        " below by RTO_min = 200 ms against microsecond RTTs; microsecond-granularity timeouts as the fix",
    ),
    "dixit2013": Source(
        "On the Impact of Packet Spraying in Data Center Networks",
        "A. Dixit, P. Prakash, Y. C. Hu and R. R. Kompella, IEEE INFOCOM 2013, pp. 2130-2138",
        2013,
        "https://doi.org/10.1109/INFCOM.2013.6567015",
        "random packet spraying over the equal-cost paths of a multi-rooted tree; symmetric"
        " paths keep queues similar, so the reordering is tolerable",
    ),
}


CONSTANTS: dict[str, Constant] = {
    # --- the scenario's workload (Llama 3 405B pretraining) ---------------
    "llama3_405b_params": Constant(
        405e9, "1", "llama3", label="parameters of Llama 3 405B", scope="per job"
    ),
    "llama3_405b_tokens": Constant(
        15.6e12, "1", "llama3", label="pretraining tokens of Llama 3 405B", scope="per job"
    ),
    "llama3_405b_gpus": Constant(
        16384, "1", "llama3", label="H100 GPUs in the Llama 3 405B run", scope="per job"
    ),
    "llama3_snapshot_days": Constant(
        54 * DAY, "s", "llama3", label="length of the reported pretraining snapshot",
        scope="per job",
    ),
    "llama3_unexpected_interruptions": Constant(
        419, "1", "llama3", label="unexpected interruptions in the 54-day snapshot",
        scope="per job",
    ),
    # --- checkpointing and reliability (scene 10, Daly's formula) ---------
    "llama3_storage_sustained_bw": Constant(
        2 * TB, "B/s", "llama3", PER_DIRECTION, "aggregate",
        label="Tectonic storage fabric, sustained throughput (Llama 3)",
        note="240 PB on 7,500 SSD servers; 2 TB/s sustained, 7 TB/s peak (§3.3.1)",
    ),
    "llama3_storage_peak_bw": Constant(
        7 * TB, "B/s", "llama3", PER_DIRECTION, "aggregate",
        label="Tectonic storage fabric, peak throughput (Llama 3)",
    ),
    "llama3_checkpoint_per_gpu_min": Constant(
        1 * MB, "B", "llama3", scope="per GPU",
        label="smallest per-GPU checkpoint in the Llama 3 run",
    ),
    "llama3_checkpoint_per_gpu_max": Constant(
        4 * GB, "B", "llama3", scope="per GPU",
        label="largest per-GPU checkpoint in the Llama 3 run",
    ),
    "llama3_effective_training_time": Constant(
        0.90, "1", "llama3", scope="per job",
        label="effective training time of the Llama 3 405B run",
        note="reported as 'higher than 90%': a lower bound (§3.3.4)",
    ),
    "mixed_precision_weight_bytes": Constant(
        2, "B", "zero2020", scope="",
        label="bytes per parameter of the 16-bit working weights",
        note="the fp16/bf16 copy of the parameters (2Ψ bytes)",
    ),
    "adam_optimizer_state_bytes": Constant(
        12, "B", "zero2020", scope="",
        label="bytes per parameter of mixed-precision Adam's optimizer states",
        note="K = 12: fp32 copy of the parameters, momentum and variance (4Ψ each)",
    ),
    "daly_example_restart": Constant(
        10 * MINUTE, "s", "daly2006", scope="per job",
        label="restart time R in Daly's worked examples",
        note="Figs. 3-5 use R = 10 min; used here as a stated assumption, not a measurement",
    ),
    # --- GPUs and links ---------------------------------------------------
    "h100_nvlink_bw": Constant(
        900 * GB, "B/s", "nvidia-h100-datasheet", BIDIRECTIONAL, "per GPU",
        label="H100 SXM NVLink bandwidth",
    ),
    "ndr_port_rate": Constant(
        400 * Gbps, "B/s", "nvidia-cx7-datasheet", PER_DIRECTION, "per port",
        label="NDR InfiniBand port rate (400 Gb/s)",
    ),
    # --- collective latency (NCCL's own cost model) ----------------------
    "nccl_net_ring_simple_latency": Constant(
        14.0 * US, "s", "nccl-tuning", scope="per step",
        label="NCCL per-step network latency, Ring/Simple",
        note=(
            "hwLat[NCCL_HW_NET][NCCL_ALGO_RING][NCCL_PROTO_SIMPLE] in NCCL 2.20.3's tuning "
            "model: the latency NCCL charges per inter-node ring step. Older releases used "
            "9.6 us (e.g. 2.7.5). The Tree/Simple entry (28 us in 2.20.3) is not used: NCCL's "
            "comment (2.7) says it is the latency of a 256 kB chunk including its transfer, "
            "which this model charges separately as n/(kB); both algorithms get the same alpha"
        ),
    ),
    # >>> constants: scene 01
    "nvlink4_links_per_gpu": Constant(
        18, "1", "nvidia-nvlink", scope="per GPU",
        label="NVLink links per H100 (fourth-generation NVLink)",
    ),
    "nvlink4_link_bw": Constant(
        50 * GB, "B/s", "nvidia-hopper-in-depth", BIDIRECTIONAL, "per link",
        label="fourth-generation NVLink, one link",
        note="25 GB/s each way; 18 links make the H100's 900 GB/s",
    ),
    "nvlink5_links_per_gpu": Constant(
        18, "1", "nvidia-nvlink", scope="per GPU",
        label="NVLink links per Blackwell GPU (fifth-generation NVLink)",
    ),
    "nvlink5_link_bw": Constant(
        100 * GB, "B/s", "nvidia-nvlink", BIDIRECTIONAL, "per link",
        label="fifth-generation NVLink, one link",
    ),
    "b200_nvlink_bw": Constant(
        1.8 * TB, "B/s", "nvidia-nvlink", BIDIRECTIONAL, "per GPU",
        label="Blackwell GPU NVLink bandwidth",
    ),
    "hgx_h100_nvswitch_chips": Constant(
        4, "1", "nvidia-hgx-h100-blog", scope="per node",
        label="third-generation NVSwitch chips on the HGX H100 8-GPU baseboard",
    ),
    "nvl72_gpus": Constant(
        72, "1", "nvidia-gb200-nvl72", scope="per node",
        label="GPUs in one GB200 NVL72 NVLink domain",
    ),
    "nvl72_nvlink_bw": Constant(
        130 * TB, "B/s", "nvidia-gb200-nvl72", BIDIRECTIONAL, "aggregate",
        label="GB200 NVL72 NVLink bandwidth",
        note="the sum over 72 GPUs of 1.8 TB/s each (129.6 TB/s), rounded",
    ),
    "nvlink_switch_ports": Constant(
        144, "1", "nvidia-nvlink", scope="per node",
        label="NVLink ports on one NVLink Switch (NVL72 switch tray)",
    ),
    "nvlink_switch_bw": Constant(
        14.4 * TB, "B/s", "nvidia-nvlink", BIDIRECTIONAL, "aggregate",
        label="NVLink Switch non-blocking switching capacity",
    ),
    "nccl_nvlink_ring_simple_latency": Constant(
        3.4 * US, "s", "nccl-tuning", scope="per step",
        label="NCCL per-step NVLink latency, Ring/Simple",
        note="hwLat[NCCL_HW_NVLINK][NCCL_ALGO_RING][NCCL_PROTO_SIMPLE] in NCCL 2.20.3's tuning model",
    ),
    # >>> constants: scene 02
    "pcie5_transfer_rate": Constant(
        32e9, "1", "pcie-base-5", scope="",
        label="PCIe 5.0 transfer rate per lane, transfers per second (32 GT/s)",
        note="one bit per transfer per lane, each direction; bytes need the 128b/130b encoding first",
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
    "h100_pcie_bw": Constant(
        128 * GB, "B/s", "nvidia-h100-datasheet", BIDIRECTIONAL, "per GPU",
        label="H100 PCIe Gen5 host interface",
        note="64 GB/s each way at the 32 GT/s x16 line rate, before 128b/130b encoding",
    ),
    "cuda_memcpy_call_latency": Constant(
        6 * US, "s", "dualpath2026", scope="",
        label="per-call overhead of one cudaMemcpyAsync",
        note="midpoint of the 5-7 us the DualPath authors measured",
    ),
    "host_memcpy_bw_one_thread": Constant(
        10 * GB, "B/s", "oxicuda-staging", PER_DIRECTION, "per GPU",
        label="single-threaded host memcpy (the pageable staging copy)",
        note="a rough public figure; the staging copy runs on one CPU thread per transfer",
    ),
    "cxl_added_latency_low": Constant(
        70e-9, "s", "pond2023", label="CXL memory latency added over local DRAM, low end",
    ),
    "cxl_added_latency_high": Constant(
        90e-9, "s", "pond2023", label="CXL memory latency added over local DRAM, high end",
    ),
    "cz120_bw": Constant(
        36 * GB, "B/s", "micron-cz120", BIDIRECTIONAL, "per link",
        label="Micron CZ120 CXL 2.0 memory expander (PCIe 5.0 x8), measured",
        note="MLC with a 2:1 read/write mix, so both directions of the x8 link carry traffic",
    ),
    "ddr5_4800_channel_bw": Constant(
        38.4 * GB, "B/s", "micron-cz120", BIDIRECTIONAL, "per link",
        label="one DDR5-4800 channel, peak",
        note="4800 MT/s x 8 B; reads and writes share the channel",
    ),
    "spr_ddr5_channels": Constant(
        8, "1", "wwt-spr-memory", label="DDR5 channels per 4th-gen Xeon socket",
    ),
    # >>> constants: scene 03
    # dense = half the datasheets' "with sparsity" tensor-core figures (2:4 structured sparsity)
    "h100_bf16_dense_flops": Constant(
        989.5e12, "FLOP/s", "nvidia-h100-datasheet", scope="per GPU",
        label="H100 SXM dense BF16 tensor-core peak",
        note="datasheet: 1,979 TFLOP/s with sparsity; dense is half",
    ),
    "h100_fp8_dense_flops": Constant(
        1979e12, "FLOP/s", "nvidia-h100-datasheet", scope="per GPU",
        label="H100 SXM dense FP8 tensor-core peak",
        note="datasheet: 3,958 TFLOP/s with sparsity; dense is half",
    ),
    "h100_hbm_bw": Constant(
        3.35 * TB, "B/s", "nvidia-h100-datasheet", BIDIRECTIONAL, "per GPU",
        label="H100 SXM HBM3 bandwidth",
        note="reads and writes share the memory bus; the datasheet figure is their total",
    ),
    "h100_hbm_capacity": Constant(
        80 * GB, "B", "nvidia-h100-datasheet", scope="per GPU", label="H100 SXM HBM3 capacity",
    ),
    "h200_bf16_dense_flops": Constant(
        989.5e12, "FLOP/s", "nvidia-h200-datasheet", scope="per GPU",
        label="H200 SXM dense BF16 tensor-core peak",
        note="datasheet: 1,979 TFLOP/s with sparsity (the H100's compute); dense is half",
    ),
    "h200_fp8_dense_flops": Constant(
        1979e12, "FLOP/s", "nvidia-h200-datasheet", scope="per GPU",
        label="H200 SXM dense FP8 tensor-core peak",
        note="datasheet: 3,958 TFLOP/s with sparsity; dense is half",
    ),
    "h200_hbm_bw": Constant(
        4.8 * TB, "B/s", "nvidia-h200-datasheet", BIDIRECTIONAL, "per GPU",
        label="H200 SXM HBM3e bandwidth",
        note="reads and writes share the memory bus; the datasheet figure is their total",
    ),
    "h200_hbm_capacity": Constant(
        141 * GB, "B", "nvidia-h200-datasheet", scope="per GPU", label="H200 SXM HBM3e capacity",
    ),
    "b200_bf16_dense_flops": Constant(
        2.25e15, "FLOP/s", "nvidia-hgx-b200", scope="per GPU",
        label="B200 (HGX B200) dense BF16 tensor-core peak",
        note="HGX page: 4.5 PFLOP/s FP16/BF16 with sparsity; dense is half",
    ),
    "b200_fp8_dense_flops": Constant(
        4.5e15, "FLOP/s", "nvidia-hgx-b200", scope="per GPU",
        label="B200 (HGX B200) dense FP8 tensor-core peak",
        note="HGX page: 9 PFLOP/s FP8/FP6 with sparsity; dense is half",
    ),
    "b200_hbm_bw": Constant(
        7.7 * TB, "B/s", "nvidia-hgx-b200", BIDIRECTIONAL, "per GPU",
        label="B200 (HGX B200) HBM3e bandwidth",
        note="the HGX page's per-GPU figure (62 TB/s for 8 GPUs); launch material and the"
        " DGX B200 quote 8 TB/s (64 TB/s per 8 GPUs). Reads and writes share the bus",
    ),
    "b200_hbm_capacity": Constant(
        180 * GB, "B", "nvidia-hgx-b200", scope="per GPU",
        label="B200 (HGX B200) HBM3e capacity",
        note="192 GB in early announcements; 180 GB per HGX B200 GPU",
    ),
    "llama3_405b_layers": Constant(
        126, "1", "llama3", label="transformer layers of Llama 3 405B",
        note="Table 3 of the Llama 3 report",
    ),
    "llama3_405b_model_dim": Constant(
        16384, "1", "llama3", label="model dimension of Llama 3 405B", note="Table 3",
    ),
    "llama3_405b_ffn_dim": Constant(
        53248, "1", "llama3", label="FFN dimension of Llama 3 405B", note="Table 3",
    ),
    "llama3_405b_attention_heads": Constant(
        128, "1", "llama3", label="attention (query) heads of Llama 3 405B", note="Table 3",
    ),
    "llama3_405b_kv_heads": Constant(
        8, "1", "llama3", label="key/value heads of Llama 3 405B (grouped-query attention)",
        note="Table 3",
    ),
    # >>> constants: scene 04
    "pcie_gen5_transfer_rate": Constant(
        32e9, "1", "pcisig-pcie-base", scope="per link",
        label="PCIe 5.0 signalling rate per lane (32 GT/s)",
        note="transfers (bits) per second on one lane, before 128b/130b encoding;"
             " an x16 link moves 32e9 × 16 × 128/130 / 8 ≈ 63 GB/s each way",
    ),
    "h100_sxm_tdp": Constant(
        700, "W", "nvidia-h100-datasheet", scope="per GPU",
        label="H100 SXM maximum thermal design power",
    ),
    "xeon_8480_tdp": Constant(
        350, "W", "intel-xeon-8480-ark", scope="",
        label="Xeon Platinum 8480+ TDP (one socket)",
    ),
    "xeon_8480_memory_channels": Constant(
        8, "1", "intel-xeon-8480-ark", scope="",
        label="DDR5 memory channels per Xeon Platinum 8480+ socket",
    ),
    "xeon_8480_ddr5_2dpc_rate": Constant(
        4400e6, "1", "intel-xeon-8480-ark", scope="",
        label="DDR5 transfer rate with two DIMMs per channel (4400 MT/s)",
        note="4800 MT/s with one DIMM per channel; each transfer moves 8 bytes per channel",
    ),
    "dgx_h100_max_power": Constant(
        10.2e3, "W", "nvidia-dgx-h100-user-guide", scope="per node",
        label="DGX H100 maximum system power",
    ),
    "dgx_h100_gpus": Constant(
        8, "1", "nvidia-dgx-h100-user-guide", scope="per node",
        label="H100 SXM GPUs in one DGX H100",
    ),
    "dgx_h100_cpu_sockets": Constant(
        2, "1", "nvidia-dgx-h100-user-guide", scope="per node",
        label="Xeon Platinum 8480C sockets in one DGX H100",
    ),
    "dgx_h100_cpu_cores": Constant(
        112, "1", "nvidia-dgx-basepod-ra", scope="per node",
        label="CPU cores in one DGX H100 (2 × 56)",
    ),
    "dgx_h100_dram": Constant(
        2e12, "B", "nvidia-dgx-h100-user-guide", scope="per node",
        label="DDR5 system memory in one DGX H100",
    ),
    "dgx_h100_compute_nics": Constant(
        8, "1", "nvidia-dgx-h100-user-guide", scope="per node",
        label="single-port ConnectX-7 NICs for the compute fabric (one per GPU)",
    ),
    "dgx_h100_storage_nics": Constant(
        2, "1", "nvidia-dgx-h100-user-guide", scope="per node",
        label="dual-port ConnectX-7 cards for storage and in-band management",
    ),
    "dgx_h100_data_drives": Constant(
        8, "1", "nvidia-dgx-h100-user-guide", scope="per node",
        label="U.2 NVMe data drives in one DGX H100",
    ),
    "dgx_h100_data_drive_capacity": Constant(
        3.84e12, "B", "nvidia-dgx-h100-user-guide", scope="",
        label="capacity of one U.2 NVMe data drive (3.84 TB)",
    ),
    "dgx_h100_os_drives": Constant(
        2, "1", "nvidia-dgx-h100-user-guide", scope="per node",
        label="M.2 NVMe OS drives in one DGX H100",
    ),
    "dgx_h100_os_drive_capacity": Constant(
        1.92e12, "B", "nvidia-dgx-h100-user-guide", scope="",
        label="capacity of one M.2 NVMe OS drive (1.92 TB)",
    ),
    # >>> constants: scene 05
    "fibre_delay_per_m": Constant(
        5.13e-9, "s", "cisco-pfc-whitepaper",
        label="propagation delay per metre of single-mode fibre",
        note="513 ns per 100 m (light at about 65% of c); twinax copper is 476 ns per 100 m",
    ),
    "mlx5_pfc_fixed_delay": Constant(
        301 / 0.125 * 1e-9, "s", "linux-mlx5-port-buffer",
        label="fixed response allowance in NVIDIA's mlx5 xoff formula",
        note="the driver's 301 bytes per Gb/s of link speed, i.e. 301 B / (0.125 B/ns) = 2.408 us"
             " of line-rate traffic that lands after XOFF regardless of cable length",
    ),
    # >>> constants: scene 06
    "quantum2_radix": Constant(
        64, "1", "nvidia-qm9700-manual", scope="",
        label="ports per NVIDIA Quantum-2 QM9700 switch (NDR 400 Gb/s)",
        note="32 OSFP cages × 2 logical 400 Gb/s InfiniBand ports",
    ),
    "superpod_su_nodes": Constant(
        32, "1", "nvidia-superpod-h100-ra", scope="",
        label="DGX H100 nodes per DGX SuperPOD scalable unit (SU)",
        note="one rail-aligned group of 32 nodes (256 GPUs); the first SU gives one node's"
             " ports to UFM, so Table 4 lists 31 nodes for 1 SU and 127 for 4 SUs",
    ),
    # >>> constants: scene 08
    "tcp_rto_min": Constant(
        0.200, "s", "vasudevan2009", scope="",
        label="TCP minimum retransmission timeout RTO_min (stock default)",
        note="the 200 ms lower bound on TCP's retransmission timer that turns one lost"
             " packet of an incast burst into a stall thousands of round trips long",
    ),
}


def const(name: str) -> float:
    """The value of a constant, by name; a clear KeyError for a typo."""
    try:
        return CONSTANTS[name].value
    except KeyError:
        raise KeyError(f"models/constants.py: no constant named {name!r}") from None
