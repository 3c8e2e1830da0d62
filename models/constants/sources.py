"""Every source the site cites: datasheets, papers, standards, public measurements.

One bibliography for all domains; a constant or a page names a source by its key."""

from __future__ import annotations

from models.constants.base import Source

SOURCES = {
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
    "nvidia-dgx-b200-guide": Source(
        "NVIDIA DGX B200 User Guide: Introduction to NVIDIA DGX B200 Systems",
        "NVIDIA",
        2024,
        "https://docs.nvidia.com/dgx/dgxb200-user-guide/introduction-to-dgxb200.html",
        "Hardware Overview, DGX B200 Component Descriptions: NVSwitch, 2 x 5th generation NVLink switches"
        " that provide 14.4 TB/s aggregate bandwidth (the DGX B200 is built on the HGX B200 8-GPU baseboard)",
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
        "OxiCUDA project, docs.rs (secondary: used only for an estimate with a range)",
        2025,
        "https://docs.rs/oxicuda-memory/0.5.5/oxicuda_memory/staging/index.html",
        "a single-threaded host memcpy runs at roughly 10 GB/s; no primary measurement is cited here",
    ),
    "pond2023": Source(
        "Pond: CXL-Based Memory Pooling Systems for Cloud Platforms (ASPLOS 2023)",
        "H. Li, D. S. Berger, L. Hsu et al., Microsoft Azure",
        2023,
        "https://www.microsoft.com/en-us/research/publication/pond-cxl-based-memory-pooling-systems-for-cloud-platforms/",
        "§2-3: CXL memory adds about 70-90 ns over NUMA-local DRAM, emulated with a cross-socket"
        " (remote NUMA) hop, not measured on a CXL device",
    ),
    "sun2023": Source(
        "Demystifying CXL Memory with Genuine CXL-Ready Systems and Devices (MICRO 2023)",
        "Y. Sun, Y. Yuan, Z. Yu et al., UIUC and Intel Labs",
        2023,
        "https://doi.org/10.1145/3613424.3614256",
        "three real CXL memory devices on a 4th-gen Xeon, compared with CXL emulated as remote-NUMA DDR:"
        " the two behave differently",
    ),
    "intel-cachelib-cxl": Source(
        "CacheLib wiki: OCP demo configuration (CXL 2.0 memory expander)",
        "Intel (I. Chorążewicz), intel/CacheLib on GitHub",
        2023,
        "https://github.com/intel/CacheLib/wiki/OCP-demo-configuration",
        "CXL 2.0 expander, EDSFF E3.S, PCIe 5.0 x8, 96 GB: latency 250 ns; 17.8 GB/s all reads,"
        " 25.1 GB/s at 2:1 read/write, on a 2-socket Xeon Platinum 8470",
    ),
    "micron-cxl-cz120": Source(
        "Memory Expansion with CXL Modules: Benefits, Use Cases and Enriching the CXL Ecosystem",
        "Micron Technology (P. Kale)",
        2023,
        "https://www.micron.com/products/memory/cxl-memory",
        "CZ120 memory expansion module, CXL 2.0 Type 3, PCIe 5.0 x8, 128/256 GB: up to 36 GB/s"
        " (MLC, 2:1 read/write, one module)",
    ),
    "jedec-jesd79-5": Source(
        "JESD79-5: DDR5 SDRAM Standard",
        "JEDEC Solid State Technology Association",
        2020,
        "https://www.jedec.org/standards-documents/docs/jesd79-5c",
        "DDR5-4800 data rate (4800 MT/s); a DIMM channel carries 64 data bits as two 32-bit subchannels:"
        " 4800e6 x 8 B = 38.4 GB/s, reads and writes sharing it",
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
    "llama3-architecture": Source(
        "The Llama 3 Herd of Models (arXiv:2407.21783)",
        "Meta AI (A. Grattafiori, A. Dubey et al.)",
        2024,
        "https://arxiv.org/abs/2407.21783",
        "§3.2 Model Architecture, Table 3 (overview of the key hyperparameters of Llama 3): 405B column,"
        " 126 layers, model dimension 16,384, FFN dimension 53,248, 128 attention heads, 8 key/value heads",
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
    "kioxia-cm6-cd6": Source(
        "Kioxia bringt PCIe-4.0-SSDs mit bis zu 30,72 TByte Speicherplatz (KIOXIA CM6 and CD6 launch)",
        "heise online, reporting KIOXIA's specifications (secondary: used for an estimate with a range)",
        2020,
        "https://www.heise.de/newsticker/meldung/Kioxia-bringt-PCIe-4-0-SSDs-mit-bis-zu-30-72-TByte-Speicherplatz-4666097.html",
        "CM6 (U.3, PCIe 4.0 x4): 6.9 GB/s sequential read; CD6: 6.2 GB/s",
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
        "per-priority PAUSE (XOFF/XON) between directly connected peers: each PFC frame names which of"
        " the 8 priorities it pauses, and traffic on the other priorities keeps flowing",
    ),
    "dcqcn2015": Source(
        "Congestion Control for Large-Scale RDMA Deployments (DCQCN)",
        "Y. Zhu, H. Eran, D. Firestone et al., ACM SIGCOMM 2015",
        2015,
        "https://doi.org/10.1145/2785956.2787484",
        "§3: ECN marking between K_min and K_max (RED-like), CNPs, rate cut R(1 - alpha/2),"
        " alpha update with gain g, additive and hyper increase",
    ),
    "ibta-vol1-a10": Source(
        "InfiniBand Architecture Specification Volume 1, Release 1.2.1, Annex A10: Congestion Control",
        "InfiniBand Trade Association",
        2007,
        "https://www.infinibandta.org/ibta-specification/",
        "A10.2 (switch marks FECN past its threshold, at its Marking_Rate; the destination returns"
        " BECN; the source raises its CCT index by CCTI_Increase, selecting a longer inter-packet"
        " delay from the CCT, A10.2.2.1.1; CCTI_Timer lowers the index by one on expiry);"
        " A10.4.3.8.4 CACongestionSetting (CCTI_Timer, CCTI_Increase, CCTI_Min)",
    ),
    "ibta-vol1-credits": Source(
        "InfiniBand Architecture Specification Volume 1, Release 1.2.1",
        "InfiniBand Trade Association",
        2007,
        "https://www.infinibandta.org/ibta-specification/",
        "Chapter 7, link layer: §7.6 virtual lanes (up to 15 data VLs) and §7.9 link-level flow"
        " control, credits advertised and consumed per virtual lane",
    ),
    "sonic-headroom-mellanox": Source(
        "SONiC sonic-swss, cfgmgr/buffer_headroom_mellanox.lua (lossless headroom for NVIDIA Spectrum)",
        "SONiC project (Linux Foundation), sonic-swss repository",
        2023,
        "https://github.com/sonic-net/sonic-swss/blob/master/cfgmgr/buffer_headroom_mellanox.lua",
        "worst_case_factor = cell/64 for cells above 128 B; cell_occupancy; xoff = MTU + (MTU +"
        " bytes on cable + MAC/PHY delay + peer response) x cell_occupancy, rounded up to 1 KiB;"
        " xon = pipeline latency; size = xoff + xon; peer response = 905 pause quanta x 512 bit"
        " at 400 Gb/s (IEEE 802.3 Annex 31B.3.7)",
    ),
    "sonic-headroom-hld": Source(
        "SONiC design: Dynamically Headroom Calculation (doc/qos/dynamically-headroom-calculation.md)",
        "SONiC project (Linux Foundation), SONiC repository",
        2021,
        "https://github.com/sonic-net/SONiC/blob/master/doc/qos/dynamically-headroom-calculation.md",
        "Table ASIC_TABLE: MELLANOX-SPECTRUM-2 and -3 cell_size 144 B, pipeline_latency 18 KB,"
        " mac_phy_delay 0.8 KB; Table ROCE_TABLE: small_packet_percentage 100",
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
    "llama3-parallelism": Source(
        "The Llama 3 Herd of Models (arXiv:2407.21783)",
        "Meta AI (A. Grattafiori, A. Dubey et al.)",
        2024,
        "https://arxiv.org/abs/2407.21783",
        "§3.3.2 Parallelism for Model Scaling, Table 4 (scaling configurations and MFU): the 16,384-GPU,"
        " 8K-sequence row: TP 8, CP 1, PP 16, DP 128, batch size/DP 16, 16M tokens per batch,"
        " 400 TFLOPs/GPU, BF16 MFU 41%",
    ),
    "llama3-network": Source(
        "The Llama 3 Herd of Models (arXiv:2407.21783)",
        "Meta AI (A. Grattafiori, A. Dubey et al.)",
        2024,
        "https://arxiv.org/abs/2407.21783",
        "§3.3.1 Training Infrastructure: Compute (Llama 3 405B trained on up to 16K H100 GPUs) and Network"
        " (RoCE fabric; network topology: 24K GPUs in a three-layer Clos, 16 GPUs per rack on one Minipack2"
        " ToR switch, 192 racks form a pod of 3,072 GPUs with full bisection bandwidth, 8 pods joined by"
        " aggregation switches at a 1:7 oversubscription)",
    ),
    # >>> sources: scene 07 (in-network reduction)
    "graham2016-sharp": Source(
        "Scalable Hierarchical Aggregation Protocol (SHArP): A Hardware Architecture for Efficient Data"
        " Reduction",
        "R. L. Graham et al., COMHPC workshop at SC16 (IEEE)",
        2016,
        "https://doi.org/10.1109/COMHPC.2016.006",
        "reductions computed by the InfiniBand switches as data passes through an aggregation tree",
    ),
    "nccl-2-18-release": Source(
        "NCCL Release 2.18.1: release notes",
        "NVIDIA",
        2023,
        "https://docs.nvidia.com/deeplearning/nccl/release-notes/rel_2-18-1.html",
        "Key Features: inter-node algorithms for NVLink SHARP, NVLS (NVLink SHARP + IB SHARP) and NVLSTREE",
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
    "nccl-env": Source(
        "NCCL User Guide: Environment Variables (NCCL_IB_TIMEOUT, NCCL_IB_RETRY_CNT)",
        "NVIDIA",
        2024,
        "https://docs.nvidia.com/deeplearning/nccl/user-guide/docs/env.html",
        "§NCCL_IB_TIMEOUT: the InfiniBand Verbs timeout is 4.096 µs × 2^timeout, default 20;"
        " §NCCL_IB_RETRY_CNT: default 7. Defaults as set in src/transport/net_ib/common.cc"
        " (NCCL_PARAM(IbTimeout, \"IB_TIMEOUT\", 20), NCCL_PARAM(IbRetryCnt, \"IB_RETRY_CNT\", 7))",
    ),
    "dixit2013": Source(
        "On the Impact of Packet Spraying in Data Center Networks",
        "A. Dixit, P. Prakash, Y. C. Hu and R. R. Kompella, IEEE INFOCOM 2013, pp. 2130-2138",
        2013,
        "https://doi.org/10.1109/INFCOM.2013.6567015",
        "random packet spraying over the equal-cost paths of a multi-rooted tree; symmetric"
        " paths keep queues similar, so the reordering is tolerable",
    ),
    # >>> sources: scene 09
    # <<< sources: scene 09
    # >>> sources: scene 11
    # <<< sources: scene 11
    # >>> sources: scene 12
    # <<< sources: scene 12
    # >>> sources: scene 13
    "philly2019": Source(
        "Analysis of Large-Scale Multi-Tenant GPU Clusters for DNN Training Workloads",
        "M. Jeon, S. Venkataraman, A. Phanishayee, J. Qian, W. Xiao and F. Yang, USENIX ATC '19",
        2019,
        "https://www.usenix.org/conference/atc19/presentation/jeon",
        "§3 and Fig. 2 (CDF of job run time by GPU count: 1, 2-4, 5-8, >8 GPUs), as regenerated from the"
        " released trace by the Philly Trace Analysis notebook (github.com/msr-fiddle/philly-traces)",
    ),
    "kueue-wait-for-pods-ready": Source(
        "Kueue documentation: Setup All-or-nothing with ready Pods",
        "Kubernetes SIG Scheduling, Kueue",
        2025,
        "https://kueue.sigs.k8s.io/docs/tasks/manage/setup_wait_for_pods_ready/",
        "§Configuring waitForPodsReady (timeout defaults to 30 minutes) and §Requeuing Strategy"
        " (backoffBaseSeconds 60, backoffMaxSeconds 3600, delays ≈ 60, 120, 240, …, 3600 s;"
        " backoffLimitCount unset: requeued endlessly; timestamp Eviction by default); page as of Kueue v0.20",
    ),
    "kueue-requeue-code": Source(
        "Kueue source, pkg/workload/workload.go (UpdateRequeueState: wait.Backoff with Factor 2, Jitter 0.0001)",
        "Kubernetes SIG Scheduling, Kueue repository",
        2025,
        "https://github.com/kubernetes-sigs/kueue/blob/main/pkg/workload/workload.go",
        "'Every backoff duration is about 60s*2^(n-1)+Rand'",
    ),
    "lifka1995": Source(
        "The ANL/IBM SP scheduling system",
        "D. A. Lifka, Job Scheduling Strategies for Parallel Processing (JSSPP), LNCS 949",
        1995,
        "https://doi.org/10.1007/3-540-60153-8_35",
        "EASY backfilling: a later job may start if it does not delay the first job in the queue",
    ),
    "mualem2001": Source(
        "Utilization, predictability, workloads, and user runtime estimates in scheduling the IBM SP2 with"
        " backfilling",
        "A. W. Mu'alem and D. G. Feitelson, IEEE Transactions on Parallel and Distributed Systems 12(6)",
        2001,
        "https://doi.org/10.1109/71.932708",
        "§2: EASY (aggressive) backfilling, the shadow time and the extra nodes",
    ),
    "slurm-sched-config": Source(
        "Slurm documentation: slurm.conf, SchedulerType=sched/backfill",
        "SchedMD",
        2024,
        "https://slurm.schedmd.com/slurm.conf.html#OPT_SchedulerType",
        "sched/backfill: starts lower-priority jobs if doing so does not delay the expected start of any"
        " higher-priority job",
    ),
    # <<< sources: scene 13
    # >>> sources: scene 14
    # <<< sources: scene 14
    # >>> sources: scene 15
    # <<< sources: scene 15
    # >>> sources: scene 16
    # <<< sources: scene 16
}
