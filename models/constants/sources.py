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
        "§3.3.1 (Storage: Tectonic throughput, checkpoint sizes); §3.3.4 Reliability and Operational"
        " Challenges, Table 5 (root-cause categorization of unexpected interruptions during a 54-day period of"
        " Llama 3 405B pre-training): 466 interruptions, 47 planned, 419 unexpected, about 78% attributed to"
        " confirmed or suspected hardware issues; effective training time higher than 90%",
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
        "§Bus bandwidth: AllReduce (busbw = algbw · 2(n−1)/n), ReduceScatter and AllGather"
        " (busbw = algbw · (n−1)/n, S the total array), Summary",
    ),
    "nccl-tuning": Source(
        "NCCL source, src/graph/tuning.cc (latency model: baseLat, hwLat), NCCL 2.20.3",
        "NVIDIA, NCCL repository",
        2024,
        "https://github.com/NVIDIA/nccl/blob/b6475625fbcaa2c3c0e50eed2fa1255d7514d4a2/src/graph/tuning.cc",
        "hwLat[NCCL_HW_NET][NCCL_ALGO_RING]: LL 2.7 us, Simple 14.0 us; hwLat[NCCL_HW_NET][NCCL_ALGO_TREE]: LL"
        " 5.0 us (tuning.cc:75); hwLat[NCCL_HW_NVLINK][NCCL_ALGO_RING]: Simple 3.4 us (tuning.cc:67);"
        " ring latency (nsteps - nInterSteps) * intraLat + nInterSteps * interLat (tuning.cc:249),"
        " with nInterSteps = 2*nNodes for an all-reduce in this release (tuning.cc:162)"
        " (release 2.20.3-1, commit b647562)",
    ),
    "nccl-channels": Source(
        "NCCL source: rings, channels and NICs (src/graph/search.cc, src/init.cc, src/graph/tuning.cc), NCCL 2.30.7",
        "NVIDIA, NCCL repository",
        2026,
        "https://github.com/NVIDIA/nccl/tree/73cf112295c33aee2b895f329f592f2a9b4b0f97/src/graph",
        "search.cc: an inter-node ring is NET n -> GPU a -> .. -> GPU x -> NET n, each channel takes its"
        " bandwidth off the NICs near the communicator's GPUs in the node (ncclTopoSearchRecNet, net.bw -= bw;"
        " ncclTopoSelectNets); init.cc: every rank keeps the smallest nChannels and bwInter any rank found;"
        " tuning.cc:306,324: busBw = nChannels * bw, bw the per-channel bandwidth the search found (bwIntra on"
        " up to 2 nodes, bwInter beyond; a ring's search keeps the two equal, search.cc:1262,1272);"
        " tuning.cc:379-380: a ring's algorithm bandwidth is busBw * nRanks/nsteps, a tree's busBw * 0.5."
        " The per-step latencies the constants cite from 2.20.3 (nccl-tuning) are unchanged here:"
        " hwLatencies NVLINK Ring/Simple 3.4 us, NET Ring/Simple 14.0 us, NET Tree/LL 5.0 us"
        " (tuning.cc:159,171); NET Tree/Simple is 14 us, the ring's (28 us in 2.20.3, changed in 2.23.4);"
        " tuning.cc:386-388: with one rank per node (ppn = 1) every algorithm's inter-node latency is"
        " the tree's; tuning.cc:151,384: every collective starts from a base latency, baseLatencies Tree and"
        " Ring (LL/LL128/Simple) 6.8/14.0/8.4 and 6.6/14.0/8.4 us; PAT (reduce-scatter, all-gather):"
        " base 8.0 us (tuning.cc:154), latency += log2i(nNodes) * (interLat / 3.5) + nRanks * 2.8"
        " (tuning.cc:429-434), busBw *= .75 (tuning.cc:337); tuning.cc:411-412: a multi-node ring"
        " all-reduce's latency is (nsteps - nInterSteps) * intraLat + nInterSteps * interLat with"
        " nInterSteps = 2 * (nNodes - 1) (2 * nNodes before 2.23.4); tuning.cc:649: the ring's latency times 1.4"
        " on Hopper (a 'plateau effect')"
        " (release 2.30.7-1, commit 73cf112)",
    ),
    "nccl-2-23-pat": Source(
        "NCCL 2.23.4-1 (release commit: its notes, and src/graph/tuning.cc at that commit)",
        "NVIDIA, NCCL repository",
        2024,
        "https://github.com/NVIDIA/nccl/commit/68b542363f9a44cdaac480f51ebe0fc26de96139",
        "commit message, 'Add PAT algorithms for Allgather and ReduceScatter': 'Parallel Aggregated Trees,"
        " variation of Bruck algorithm', 'Logarithmic number of network steps for small sizes at scale', 'Only"
        " supports one rank per node at the moment'; tuning.cc:112 (PAT off unless nNodes == nRanks),"
        " tuning.cc:170-174 (ReduceScatter and AllGather run PAT, Ring, NVLS or CollNet Direct, never Tree;"
        " AllReduce never PAT), tuning.cc:276-280 (PAT latency 8 us + log2(nNodes) interLat/3.5 + 2.8 us per"
        " rank, 'still a linear part')",
    ),
    "nccl-nvls": Source(
        "NCCL source: NVLS and NVLS_TREE, when they run and what the tuner charges (src/graph/tuning.cc,"
        " src/graph/search.cc, src/init.cc, src/transport/nvls.cc), NCCL 2.30.7",
        "NVIDIA, NCCL repository",
        2026,
        "https://github.com/NVIDIA/nccl/tree/73cf112295c33aee2b895f329f592f2a9b4b0f97/src",
        "search.cc:1124-1127: NVLS needs an NVSwitch and at most one channel (head) per GPU of the node;"
        " init.cc:1440,1453: every rank keeps the fewest NVLS channels any rank found, none turns NVLS off;"
        " tuning.cc:308-309: NVLS and NVLS_TREE need at least 2 channels; nvls.cc:262: no NVLS on a node"
        " with fewer than 2 GPUs; tuning.cc:319-322: on up to 2 nodes NVLS_TREE's inter-node bandwidth"
        " counts twice, capped per channel by perChMaxNVLSTreeBws (tuning.cc:205-210: Hopper 57.7,"
        " Blackwell 96.0 GB/s for 2 nodes); tuning.cc:379: its algorithm bandwidth is busBw * nRanks/nsteps,"
        " as a ring's; tuning.cc:501-502: no NVLS_TREE inside one node; nvls.cc:164-180: on Blackwell, 2"
        " nodes with NICs of 48 GB/s or more get 32 NVLS_TREE channels (release 2.30.7-1, commit 73cf112)",
    ),
    "nccl-pxn": Source(
        "NCCL User Guide, Environment Variables (NCCL 2.13.4)",
        "NVIDIA",
        2022,
        "https://docs.nvidia.com/deeplearning/nccl/archives/nccl_2134/user-guide/docs/env.html",
        "NCCL_PXN_DISABLE (since 2.12): disables inter-node communication using a non-local NIC, through"
        " NVLink and an intermediate GPU (PXN, PCI x NVLink); NCCL_P2P_PXN_LEVEL: when PXN is used for"
        " send/receive",
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
    # >>> sources: nvlink-nvswitch
    "nvidia-nvlink": Source(
        "NVLink and NVLink Switch",
        "NVIDIA",
        2024,
        "https://www.nvidia.com/en-us/data-center/nvlink/",
        "Blackwell: up to 18 NVLink 100 GB/s connections, 1.8 TB/s per GPU; NVLink Switch: 144 NVLink"
        " ports, 14.4 TB/s non-blocking; 130 TB/s of GPU bandwidth in one NVL72; generations table"
        " (fourth generation, Hopper: 900 GB/s, 18 links per GPU)",
    ),
    "pytorch-dcp-async-save": Source(
        "Asynchronous Saving with Distributed Checkpoint (DCP)",
        "L. Pasqualin, I. Zhang, R. Kumpera, C.-C. Huang, PyTorch tutorials",
        2024,
        "https://docs.pytorch.org/tutorials/recipes/distributed_async_checkpoint_recipe.html",
        "Asynchronous Checkpointing Overview: torch.distributed.checkpoint.async_save first copies the model"
        " into internal CPU buffers, so weights do not change while the checkpoint is written in parallel with"
        " training; the buffers can be pinned memory",
    ),
    "pytorch-dcp-staging": Source(
        "torch.distributed.checkpoint.staging (DefaultStager, StagingOptions), PyTorch source",
        "PyTorch contributors, pytorch/pytorch torch/distributed/checkpoint/staging.py",
        2025,
        "https://github.com/pytorch/pytorch/blob/main/torch/distributed/checkpoint/staging.py",
        "module docstring: experimental staging for DCP; StagingOptions: use_async_staging 'Enable asynchronous"
        " staging using a background thread pool. Allows overlapping computation with staging operations',"
        " use_non_blocking_copy (non-blocking device copies with stream synchronization), use_pinned_memory;"
        " AsyncStager's docstring: by default stage() copies the whole state dict to CPU RAM, then dcp.save"
        " writes it in parallel; with should_synchronize_after_execute False the user syncs later, 'for example,"
        " by overlapping staging with the forward/backward pass'",
    ),
    "nccl-issue-1264-h100-p2p": Source(
        "Only ~783GByte/s out of theoretical 900GB/s HGX H100 SXM Nvlink4 (NVIDIA/nccl issue #1264)",
        "NVIDIA/nccl GitHub issue (a user's run of NVIDIA's cuda-samples p2pBandwidthLatencyTest)",
        2024,
        "https://github.com/NVIDIA/nccl/issues/1264",
        "opening post: 8 x H100 80GB HBM3 on NVSwitch; bidirectional P2P 749 GB/s of 900, unidirectional"
        " 380 GB/s of 450 (a single measurement, second-hand: not an NVIDIA figure); the same post's"
        " `nvidia-smi topo -m`: each of GPU0-7 PIX (one PCIe switch) to exactly one NIC, SYS to every other",
    ),
    "nvidia-hopper-in-depth": Source(
        "NVIDIA Hopper Architecture In-Depth",
        "NVIDIA Technical Blog (M. Andersch et al.)",
        2022,
        "https://developer.nvidia.com/blog/nvidia-hopper-architecture-in-depth/",
        "§Fourth-generation NVLink and NVLink Switch System: 18 links, 900 GB/s total",
    ),
    "nvidia-grace-hopper-in-depth": Source(
        "NVIDIA Grace Hopper Superchip Architecture In-Depth",
        "NVIDIA Technical Blog",
        2022,
        "https://developer.nvidia.com/blog/nvidia-grace-hopper-superchip-architecture-in-depth/",
        "§NVLink-C2C: the Grace CPU and the Hopper GPU joined by NVLink-C2C, 900 GB/s total bandwidth, 7x an"
        " x16 PCIe Gen5 link (read through a stored copy's excerpts: the original was not reachable)",
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
        "Hardware Overview, DGX B200 Component Descriptions: 8 x B200; 2 x Intel Xeon 8570, 56 cores each;"
        " NVSwitch, 2 x 5th generation NVLink switches that provide 14.4 TB/s aggregate bandwidth; 8 x 3.84 TB"
        " U.2 NVMe; 4 OSFP ports for 8 x single-port ConnectX-7 (400 Gb/s); 2 x dual-port BlueField-3 DPU"
        " (storage and in-band management); 2 TB using 32 DIMMs; Power Specifications: 14.3 kW max (the DGX"
        " B200 is built on the HGX B200 8-GPU baseboard)",
    ),
    "nvidia-gb200-tuning-guide": Source(
        "NVIDIA GB200 NVL Multi-Node Tuning Guide: Understanding Your Grace-Blackwell Systems",
        "NVIDIA",
        2025,
        "https://docs.nvidia.com/multi-node-nvlink-systems/multi-node-tuning-guide/system.html",
        "Architecture, the 72x1 configuration: 18 1RU compute trays, 4 GPUs per compute tray, 9 NVLink"
        " Switch trays; Grace CPU, Blackwell GPU, CX7 and NVLink Switch ASICs liquid cooled; Network Overview:"
        " each compute tray reaches the front-end and in-band networks through two BF-3 NICs",
    ),
    # >>> sources: pcie-cxl
    "pcie-base-5": Source(
        "PCI Express Base Specification, Revision 5.0",
        "PCI-SIG",
        2019,
        "https://pcisig.com/specifications",
        "§4.2 (32.0 GT/s per lane, 128b/130b encoding; the link trains to the fastest of 2.5, 5.0, 8.0,"
        " 16.0 and 32.0 GT/s both ends support)",
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
    "cuda-api-sync-behavior": Source(
        "CUDA Runtime API: API synchronization behavior",
        "NVIDIA",
        2024,
        "https://docs.nvidia.com/cuda/cuda-runtime-api/api-sync-behavior.html",
        "§Memcpy: a copy from pageable host memory to the device is staged first, and the call returns only"
        " once the pageable buffer is in the staging memory; an Async copy between device memory and pageable"
        " host memory 'might be synchronous with respect to host'",
    ),
    "cuda-runtime-peer-access": Source(
        "CUDA Runtime API",
        "NVIDIA",
        2024,
        "https://docs.nvidia.com/cuda/cuda-runtime-api/group__CUDART__PEER.html",
        "§6.14 Peer Device Memory Access: cudaDeviceCanAccessPeer, cudaDeviceEnablePeerAccess (\"enables"
        " direct access to memory allocations on a peer device\"; its reference points to the CUDA C++"
        " Programming Guide's section Peer-to-Peer Memory Access for the per-system limits)",
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
        " (remote NUMA) hop, not measured on a CXL device; abstract: pooling across 8-16 sockets gets most"
        " of the benefit, and Pond cuts DRAM cost by 7% with performance within 1-5% of same-NUMA-node"
        " allocations (multi-headed external memory controller, no switch); each memory slice of the pool is"
        " assigned to one host at a time and released before another host takes it (no sharing between hosts)",
    ),
    "nvbandwidth-issue-6": Source(
        "NVIDIA/nvbandwidth issue #6: How many nodes?",
        "Soroushmehr1 on GitHub (third-party measurement, secondary: a user's nvbandwidth run, not NVIDIA's)",
        2023,
        "https://github.com/NVIDIA/nvbandwidth/issues/6",
        "description: a single-node H100 VM with 4 GPUs, host-to-device bandwidth 14.2, 57.06, 56.68 and"
        " 57.07 GB/s to GPUs 0-3 (GPU 0's the outlier the issue asks about); no CPU, test case or buffer"
        " size named",
    ),
    "vp-h100-benchmark": Source(
        "Voltage Park GPU Infrastructure Benchmarking: bandwidthTest shmoo, host to device, pinned"
        " (results/stream_nvbench/bandwidth_h2d_d2h_20260225_183119.txt)",
        "AI @ Georgia Tech with Voltage Park (third-party measurement, secondary: not NVIDIA's)",
        2026,
        "https://github.com/ZiyanIshani/vpbenchmarking/blob/b841c5b772e995a514c8c97e4fe590b72fd135ad/"
        "results/stream_nvbench/bandwidth_h2d_d2h_20260225_183119.txt",
        "the raw log: Host to Device Bandwidth, PINNED Memory Transfers, 81 sizes 1 kB-68 MB on device 0 of an"
        " 8x H100 80GB HBM3 SXM5 bare-metal node (peak 54.8 GB/s at 18-22 MB; 53.8 GB/s at 68 MB);"
        " stream_nvbench_summary.md names the CPUs, Intel Xeon Platinum 8470 (104 threads), CUDA 12.6, and puts"
        " the D2H drop at large sizes down to pinned memory on a remote NUMA node, 'H2D is unaffected';"
        " README: 'GPU H2D (PCIe) 54.8 GB/s, 87% of PCIe 5.0 x16', 'measured with pinned host memory'",
    ),
    "cuda-samples-bandwidthtest": Source(
        "CUDA Samples: bandwidthTest (Samples/1_Utilities/bandwidthTest/bandwidthTest.cu)",
        "NVIDIA, GitHub NVIDIA/cuda-samples",
        2025,
        "https://github.com/NVIDIA/cuda-samples/blob/ceab6e8bcce41c1a8af0cf872098ae745d9ce5ff/"
        "Samples/1_Utilities/bandwidthTest/bandwidthTest.cu",
        "testHostToDeviceTransfer: pinned buffers from cudaHostAlloc; 100 cudaMemcpyAsync queued back to back"
        " between two events (MEMCOPY_ITERATIONS); bandwidth = bytes x 100 / 1e9 / seconds",
    ),
    "azure-ai-benchmarking-guide": Source(
        "Azure AI Benchmarking Guide: Azure ND H100 v5 Benchmark Results (Azure_Results/ND_H100_v5_results.md)",
        "Microsoft Azure, GitHub Azure/AI-benchmarking-guide (the operator's own run, not NVIDIA's)",
        2024,
        "https://github.com/Azure/AI-benchmarking-guide/blob/8fd0c6e1bd0f853ef8f0500a3640a7d80a2a92ef/"
        "Azure_Results/ND_H100_v5_results.md",
        "System Specifications: NVIDIA H100 80GB HBM3, Intel Xeon Platinum 8480C, CUDA 12.6; NV Bandwidth table:"
        " Host to Device 51 GB/s, Device to Host 52 GB/s; Benchmarks/NVBandwidth.py runs nvbandwidth"
        " -t host_to_device_memcpy_sm with no -b (buffer size), on a clone of nvbandwidth's head; results and"
        " script both committed 2024-09-24",
    ),
    "nvbandwidth-common-h": Source(
        "nvbandwidth v0.6, common.h (default constants)",
        "NVIDIA, GitHub NVIDIA/nvbandwidth",
        2024,
        "https://github.com/NVIDIA/nvbandwidth/blob/445d8aef742e8a48a69779a939996f9e8863df9d/common.h",
        "defaultBufferSize = 64 (MiB), the --bufferSize default from the first release to v0.6 (2024-10);"
        " v0.7 (2025-02, commit 64d6837) raised it to 512 MiB",
    ),
    "cxl-pooling-qa": Source(
        "CXL 2.0 Specification: Memory Pooling - Questions from the Webinar Part 2",
        "M. Wagh and R. Sodke, CXL Consortium blog",
        2021,
        "https://computeexpresslink.org/blog/cxl-2-0-specification-memory-pooling-questions-from-the-webinar-part-2-2391/",
        "Switching Questions: in memory pooling without a switch, each port presents a fully compliant SLD"
        " (single logical device) to its host, enumerated exactly as a direct-attached SLD",
    ),
    "sth-spr-cxl": Source(
        "4th Gen Intel Xeon Scalable Sapphire Rapids Leaps Forward, p. 9: CXL Overview",
        "P. Kennedy, ServeTheHome (secondary: reports Intel's launch slides, not Intel's own document)",
        2023,
        "https://www.servethehome.com/4th-gen-intel-xeon-scalable-sapphire-rapids-leaps-forward/9/",
        "CXL Overview: Sapphire Rapids supports CXL 1.1 (Type 1 and Type 2 devices listed; up to 4 CXL"
        " devices per CPU, x16 on its PCIe Gen5/CXL root ports); Type-3 memory buffers not formally listed",
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
    "gengwg-a100-bandwidthtest": Source(
        "nvda_gpu_benchmark.md: CUDA bandwidthTest on an NVIDIA DGX A100 and a Dell A100 PCIe server",
        "W. Geng, gengwg/gpu on GitHub (third-party measurement, secondary: not NVIDIA's)",
        2023,
        "https://github.com/gengwg/gpu/blob/f1ce2499ef5f317f60068cbee22ed8f12e9b65a5/nvda_gpu_benchmark.md",
        "Host-to-Device Transfer Speeds Test, quick mode, 32,000,000-byte transfers: DGX A100"
        " (A100-SXM4-80GB) 25.7 GB/s pinned, 10.0 GB/s pageable; Dell A100 80GB PCIe 17.3 GB/s pinned,"
        " 3.3 GB/s pageable",
    ),
    "linux-cxl-device-types": Source(
        "Linux kernel documentation, Driver API, Compute Express Link: Devices and Protocols",
        "The Linux kernel documentation (summarises the CXL specification's device types; secondary to it)",
        2025,
        "https://docs.kernel.org/driver-api/cxl/devices/device-types.html",
        "Protocols (CXL.io, CXL.cache: a device coherently caches host memory; CXL.mem: the CPU coherently"
        " accesses device memory); Device Types (Type-1: io+cache, no host-managed memory; Type-2: io+cache+mem;"
        " Type-3: io+mem, e.g. a memory expander); Switch; Logical Devices and Heads (multi-headed and"
        " multi-logical devices; memory pools)",
    ),
    # >>> sources: hbm-roofline
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
    # >>> sources: hgx-server
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
    "nvidia-dgx-basepod-ra-fabrics": Source(
        "NVIDIA DGX BasePOD Reference Architecture: Reference Architectures (DGX BasePOD with NDR400 Compute Fabric)",
        "NVIDIA",
        2025,
        "https://docs.nvidia.com/dgx-basepod/reference-architecture-infrastructure-foundation-enterprise-ai/latest/reference-architectures.html",
        "Table 1. DGX BasePOD Components: compute nodes DGX H100 with NDR400 InfiniBand and two ConnectX-7 NICs;"
        " compute fabric QM9700 NDR400 InfiniBand switches; management and storage fabric NVIDIA SN4600C"
        " switches; System Architecture: 'an Ethernet fabric for system management and storage'",
    ),
    "mlxsw-5-13-release-notes": Source(
        "mlxsw (the Linux driver for NVIDIA/Mellanox Spectrum switches) wiki: 5.13 Release notes",
        "Mellanox / NVIDIA Networking (the switch vendor's driver project)",
        2021,
        "https://github.com/mellanox/mlxsw/wiki/5.13-Release-notes",
        "product table: 'Mellanox SN4600C | Spectrum-3 based 100GbE 2U Open Ethernet switch, 64 QSFP28 ports'",
    ),
    "ieee-802-3": Source(
        "IEEE 802.3-2022: IEEE Standard for Ethernet",
        "IEEE 802.3 Working Group",
        2022,
        "https://standards.ieee.org/ieee/802.3/10422/",
        "Clause 3.1.1 MAC frame format: preamble 7 octets, SFD 1, destination and source address 6 each,"
        " length/type 2, FCS 4; Clause 4.4.2: interPacketGap 96 bit times (12 octets) between frames",
    ),
    "rfc-791": Source(
        "RFC 791: Internet Protocol (IPv4)",
        "J. Postel, IETF",
        1981,
        "https://www.rfc-editor.org/rfc/rfc791",
        "§3.1 Internet Header Format: IHL minimum 5 32-bit words, a 20-octet header without options",
    ),
    "rfc-768": Source(
        "RFC 768: User Datagram Protocol",
        "J. Postel, IETF",
        1980,
        "https://www.rfc-editor.org/rfc/rfc768",
        "Format: source port, destination port, length, checksum, 2 octets each: an 8-octet header",
    ),
    "ibta-roce-v2": Source(
        "InfiniBand Architecture Specification Volume 1, Release 1.2.1, Annex A17: RoCEv2",
        "InfiniBand Trade Association",
        2014,
        "https://www.infinibandta.org/ibta-specification/",
        "A17.4: a RoCEv2 packet is an IB transport packet (BTH, 12 bytes, Vol. 1 §9.2; payload; ICRC,"
        " 4 bytes) in a UDP datagram (destination port 4791) over IP, with the Ethernet FCS; path MTU"
        " 256 to 4096 bytes of payload",
    ),
    "ibta-vol1-packet": Source(
        "InfiniBand Architecture Specification Volume 1, Release 1.3",
        "InfiniBand Trade Association (secondary: section headings as quoted by third-party summaries; the"
        " specification itself is not public)",
        2015,
        "https://www.infinibandta.org/ibta-specification/",
        "Chapter 7, link layer: §7.7 local route header (LRH), 8 bytes; §7.8.1 invariant CRC (ICRC), 4 bytes;"
        " §7.8.2 variant CRC (VCRC), 2 bytes; §9.2 base transport header, 12 bytes; path MTU 256 to 4096 bytes"
        " of payload",
    ),
    "intel-xeon-8480-ark": Source(
        "Intel Xeon Platinum 8480+ Processor (105M Cache, 2.00 GHz) specifications",
        "Intel (ARK)",
        2023,
        "https://www.intel.com/content/www/us/en/products/sku/231746/intel-xeon-platinum-8480-processor-105m-cache-2-00-ghz/specifications.html",
        "TDP 350 W; 8 memory channels; DDR5 4800 MT/s (1 DIMM per channel), 4400 MT/s (2 DIMMs per"
        " channel); PCI Express 5.0, max 80 lanes; the DGX's 8480C is NVIDIA's custom SKU of this 56-core part",
    ),
    "kioxia-cm6-cd6": Source(
        "Kioxia bringt PCIe-4.0-SSDs mit bis zu 30,72 TByte Speicherplatz (KIOXIA CM6 and CD6 launch)",
        "heise online, reporting KIOXIA's specifications (secondary: used for an estimate with a range)",
        2020,
        "https://www.heise.de/newsticker/meldung/Kioxia-bringt-PCIe-4-0-SSDs-mit-bis-zu-30-72-TByte-Speicherplatz-4666097.html",
        "CM6 (U.3, PCIe 4.0 x4): 6.9 GB/s sequential read; CD6: 6.2 GB/s",
    ),
    "nvidia-bcm11-admin-manual": Source(
        "NVIDIA Base Command Manager 11 Administrator Manual",
        "NVIDIA",
        2025,
        "https://docs.nvidia.com/base-command-manager/manuals/11/admin-manual.pdf",
        "§14.5 BIOS And Firmware Management, pp. 712-715: `firmware status` on a DGX H100 lists, in the GPU"
        " tray's package (nvfw_DGX-HGX-H100x8), HGX_FW_PCIeRetimer_0 to _7 beside HGX_FW_GPU_SXM_1 to _8 and"
        " HGX_FW_NVSwitch_0 to _3, and on the motherboard tray PCIeRetimer_0 and _1 (read as a text copy of"
        " the manual)",
    ),
    # >>> sources: ib-vs-roce
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
    "sonic-msn4700-pg-profile": Source(
        "SONiC sonic-buildimage, device/mellanox/x86_64-mlnx_msn4700-r0/ACS-MSN4700/pg_profile_lookup.ini",
        "SONiC project (Linux Foundation), sonic-buildimage repository",
        2021,
        "https://github.com/sonic-net/sonic-buildimage/blob/master/device/mellanox/x86_64-mlnx_msn4700-r0/"
        "ACS-MSN4700/pg_profile_lookup.ini",
        "the lossless PG profiles of the SN4700 (Spectrum-3, 32 x 400 GbE): xon 18432 B at every speed from"
        " 1 to 200 Gb/s and 36864 B at 400000 Mb/s, the doubled pipeline term of an 8-lane port; size 133120 B"
        " at 400000 Mb/s on 40m. Read in a"
        " fork's copy (stephenxs/sonic-buildimage, commit da3b8df)",
    ),
    "guo2016-rdma-scale": Source(
        "RDMA over Commodity Ethernet at Scale",
        "C. Guo, H. Wu, Z. Deng, G. Soni, J. Ye, J. Padhye, M. Lipshteyn, ACM SIGCOMM 2016",
        2016,
        "https://doi.org/10.1145/2934872.2934908",
        "abstract: Microsoft met a PFC-induced deadlock in its RoCE v2 network ('yes, it happened!')"
        " and the NIC PFC pause frame storm problem, and addressed both. Read here in a copy of the"
        " paper's text (studylib.net), abstract only",
    ),
    "hu2016-deadlocks": Source(
        "Deadlocks in Datacenter Networks: Why Do They Form, and How to Avoid Them",
        "S. Hu, Y. Zhu, P. Cheng, C. Guo, K. Tan, J. Padhye, K. Chen, ACM HotNets 2016",
        2016,
        "https://doi.org/10.1145/3005745.3005760",
        "abstract: PFC makes Ethernet networks prone to deadlocks; a cyclic buffer dependency is the"
        " necessary condition that earlier avoidance schemes target. Abstract read (Microsoft Research page)",
    ),
    "opensm-routing": Source(
        "OpenSM routing engines (doc/current-routing.txt, 12/13/17)",
        "linux-rdma OpenSM project",
        2017,
        "https://github.com/linux-rdma/opensm/blob/master/doc/current-routing.txt",
        "engine list: UPDN (minimum hops under ranking rules, for subnets where a loop could deadlock),"
        " fat-tree (credit-loop-free, like UPDN), LASH (deadlock-free shortest paths using virtual"
        " layers, SLs mapped to VLs), DOR and Torus-2QoS (datelines)",
    ),
    "sonic-pfcwd-hw-recovery": Source(
        "SONiC design: PFC Watchdog Hardware Recovery (doc/pfcwd/pfc_hardware_recovery_hld.md)",
        "SONiC project (Linux Foundation), SONiC repository",
        2025,
        "https://github.com/sonic-net/SONiC/blob/master/doc/pfcwd/pfc_hardware_recovery_hld.md",
        "§1 and §4.1: a queue that keeps receiving PFC frames for the detection time is declared in a"
        " storm (deadlock detection); the switch then ignores PFC on it and drops or forwards; it is"
        " restored once the queue stays unpaused for the restoration time",
    ),
    # >>> sources: rail-fat-tree
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
        " 400 TFLOPs/GPU, BF16 MFU 41%; the 8,192-GPU row 430 TFLOPs/GPU (43%), the 16,384-GPU"
        " 131K-sequence row (CP 16) 380 TFLOPs/GPU (38%)",
    ),
    "niagara-dragonfly": Source(
        "Niagara (system documentation, revision of February 2018)",
        "SciNet, University of Toronto, on the Compute Canada (now Digital Research Alliance of Canada) wiki",
        2018,
        "https://docs.alliancecan.ca/mediawiki/index.php?title=Niagara&oldid=47216",
        "§High-performance interconnect: EDR InfiniBand in a Dragonfly+ topology with four wings, each wing"
        " of 375 nodes with 1-to-1 connections, adaptive routing between wings; §Niagara system"
        " specifications: 1,500 nodes",
    ),
    "niagara-dragonfly-expanded": Source(
        "Niagara (system documentation, revision 170595; read in a copy of that revision's text, not on the wiki)",
        "SciNet, University of Toronto, on the Digital Research Alliance of Canada wiki",
        2020,
        "https://docs.alliancecan.ca/mediawiki/index.php?title=Niagara&oldid=170595",
        "§High-performance interconnect: EDR InfiniBand in a 'Dragonfly+' topology with five wings, each wing"
        " of at most 432 nodes with 1-to-1 connections, adaptive routing between wings giving 'an effective"
        " blocking of 2:1 between nodes of different wings'; §Niagara hardware specifications: 2,024 nodes"
        " (Skylake and Cascade Lake). The copy does not date the revision: the year given is an assumption (later"
        " than the 2018 revision, which lists 1,500 Skylake nodes), not a date read. No switch or global-link"
        " count is given",
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
    # >>> sources: ring-vs-tree (in-network reduction)
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
    # >>> sources: incast-spraying
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
    # >>> sources: gpudirect-storage
    "nvidia-gds-blog-2019": Source(
        "GPUDirect Storage: A Direct Path Between Storage and GPU Memory",
        "NVIDIA Technical Blog (A. Thompson, C. J. Newburn)",
        2019,
        "https://developer.nvidia.com/blog/gpudirect-storage/",
        "introduction: on a DGX-2, system memory to GPUs is limited to 50 GB/s; system memory, local"
        " drives and NICs combined reach an upper limit of nearly 200 GB/s",
    ),
    "nvidia-gds-design-guide": Source(
        "GPUDirect Storage Design Guide (r1.16)",
        "NVIDIA",
        2025,
        "https://docs.nvidia.com/gpudirect-storage/design-guide/index.html",
        "§3 Data Transfer Issues for GPU and Storage; §6.2 Paths from Storage to GPUs",
    ),
    "nvidia-gds-nvme-test": Source(
        "GDS Support for NVMe: Test GDS",
        "NVIDIA documentation",
        2024,
        "https://docs.nvidia.com/deploy/gds-support-for-nvme/test-gds.html",
        "gdsio on one NVMe drive, 4 threads, 1 MiB IOs: READ XferType CPUONLY 3.227660 GiB/s;"
        " READ XferType CPU_GPU 3.135021 GiB/s",
    ),
    "nvidia-gds-config-guide": Source(
        "GPUDirect Storage Configuration Guide: GPUDirect Storage Parameters",
        "NVIDIA",
        2025,
        "https://docs.nvidia.com/gpudirect-storage/configuration-guide/topics/gds-parameters.html",
        "Poll Mode: when poll mode is set, a read or write no larger than properties:poll_mode_max_size_kb"
        " (4 KB by default) polls for IO completion rather than blocking (sleep)",
    ),
    "kvikio-runtime-settings": Source(
        "KvikIO: Runtime Settings",
        "NVIDIA RAPIDS documentation",
        2025,
        "https://docs.rapids.ai/api/kvikio/stable/runtime_settings/",
        "GDS Threshold KVIKIO_GDS_THRESHOLD: reads smaller than this use POSIX; default 1048576 (1 MiB)",
    ),
    "micron-9200-datasheet": Source(
        "9200 NVMe SSDs (product datasheet)",
        "Micron Technology (read from a public mirror of the datasheet)",
        2018,
        "https://vdocument.in/9200-nvme-ssds-2-steady-state-as-defined-by-snia-solid-state-storage-performance.html",
        "Latency to media, typical (QD = 1): read 92-150 us",
    ),
    "nvidia-dgx-basepod-deploy": Source(
        "NVIDIA DGX BasePOD Deployment Guide: Networking (DGX H200/H100 system network ports)",
        "NVIDIA",
        2024,
        "https://docs.nvidia.com/dgx-basepod/deployment-guide-dgx-basepod/latest/network-overview.html",
        "DGX H200/H100 System Network Ports: port 2 of each dual-port ConnectX-7 (slots 1 and 2) bonded"
        " as one Ethernet interface for in-band management and storage; port 1 of each only optional,"
        " when InfiniBand storage is used instead of Ethernet; Managementnet and External networks: each DGX"
        " connects to the SN4600C switches with that bonded interface (slot 1 port 2 and slot 2 port 2)",
    ),
    "linux-mm-swap": Source(
        "Linux kernel source: mm/swap.c (folio_add_lru, folio_batch_move_lru) and include/linux/pagevec.h",
        "Linux kernel (mainline tree)",
        2025,
        "https://git.kernel.org/pub/scm/linux/kernel/git/torvalds/linux.git/tree/mm/swap.c",
        "folio_add_lru queues a folio in the CPU's lru_add folio_batch; when the batch is full,"
        " folio_batch_move_lru adds its folios under the lruvec's lru_lock, relocking only when a folio's"
        " lruvec differs; include/linux/pagevec.h: '#define PAGEVEC_SIZE 31' (15 before the 2024 patch"
        " 'increase PAGEVEC_SIZE from 15 to 31')",
    ),
    "linux-mm-vmscan": Source(
        "Linux kernel source: mm/vmscan.c (shrink_lruvec, shrink_inactive_list) and include/linux/swap.h",
        "Linux kernel (mainline tree)",
        2025,
        "https://git.kernel.org/pub/scm/linux/kernel/git/torvalds/linux.git/tree/mm/vmscan.c",
        "shrink_lruvec scans each LRU list nr_to_scan = min(nr[lru], SWAP_CLUSTER_MAX) at a time;"
        " shrink_inactive_list takes lruvec->lru_lock, isolate_lru_folios, and takes it again for"
        " move_folios_to_lru; include/linux/swap.h: '#define SWAP_CLUSTER_MAX 32UL'",
    ),
    "supermicro-x13ddw-manual": Source(
        "X13DDW-A User's Manual, chapter 5: UEFI BIOS (SNC)",
        "Supermicro (hosted by ManualsLib)",
        2023,
        "https://www.manualslib.com/manual/3433454/Supermicro-X13ddw-A.html?page=113",
        "SNC: 'The options are Auto, Disable, Enable SNC2 (2-clusters), and Enable SNC4 (4-clusters).'"
        " 'Note: The option of Enable SNC4 (4-clusters) depends on your system configuration and the"
        " processor.'",
    ),
    "axboe-rwf-uncached-writes": Source(
        "mm/filemap: make buffered writes work with RWF_UNCACHED (commit 1b4896e6, linux-block)",
        "J. Axboe, Linux kernel block tree",
        2024,
        "https://git.kernel.dk/?a=commit&h=1b4896e62530ad348dcc6afe10d0da76a3621341&p=linux-2.6-block.git",
        "commit message: buffered writes to 32 files settle at about 115 GB/s once the page cache is full,"
        " 'Meanwhile, 32 kswapds were running full steam trying to reclaim pages'",
    ),
    "axboe-dontcache-read-patch": Source(
        "[PATCH 08/11] mm/filemap: add read support for RWF_DONTCACHE",
        "J. Axboe, linux-mm and linux-fsdevel mailing lists",
        2024,
        "https://lore.kernel.org/linux-fsdevel/20241213155557.105419-9-axboe@kernel.dk/",
        "posted 13 Dec 2024; commit message, a box with 32 drives, 'Reading bs 65536, uncached 0': 158067MB/sec"
        " at 2 s, 95552MB/sec at 12 s once the page cache filled; top shows the test app at 3199 %CPU and"
        " '32 kswapd threads that are running mostly full tilt, burning ~28 full CPU cores'; with RWF_DONTCACHE"
        " the same reads run at '~155GB/sec' with the app at 3180 %CPU and no kswapd. The same text is in the"
        " 10 Nov, 14 Nov and 3 Dec 2024 postings of the series",
    ),
    "cuda-runtime-device-flags": Source(
        "CUDA Runtime API: cudaSetDeviceFlags",
        "NVIDIA",
        2024,
        "https://docs.nvidia.com/cuda/cuda-runtime-api/group__CUDART__DEVICE.html",
        "§6.1 Device Management, cudaSetDeviceFlags: cudaDeviceScheduleAuto (the default) spins actively"
        " on the processor while waiting for the GPU when the process has fewer active contexts than"
        " logical processors",
    ),
    # <<< sources: gpudirect-storage
    # >>> sources: data-prefetch
    "aws-s3-performance": Source(
        "Best Practices Design Patterns: Optimizing Amazon S3 Performance (AWS whitepaper)",
        "Amazon Web Services",
        2019,
        "https://docs.aws.amazon.com/whitepapers/latest/s3-optimizing-performance-best-practices/"
        "timeouts-and-retries-for-latency-sensitive-applications.html",
        "§Timeouts and Retries for Latency-Sensitive Applications: for requests under 512 KB 'median"
        " latencies are often in the tens of milliseconds range'; retry a GET after 2 seconds",
    ),
    "dean2013": Source(
        "The Tail at Scale",
        "J. Dean and L. A. Barroso, Communications of the ACM 56(2):74-80",
        2013,
        "https://doi.org/10.1145/2408776.2408794",
        "Table 1 (individual-leaf-request finishing times for a large fan-out service tree): one random"
        " leaf finishes in 1 ms at the 50th, 5 ms at the 95th and 10 ms at the 99th percentile",
    ),
    "zstd-benchmark": Source(
        "Zstandard README, benchmarks table",
        "Meta (Facebook), facebook/zstd repository, release 1.5.1",
        2021,
        "https://github.com/facebook/zstd/blob/v1.5.1/README.md",
        "§Benchmarks: zstd 1.5.1 -1, ratio 2.887, compression 530 MB/s, decompression 1700 MB/s"
        " (Core i7-9700K @ 4.9 GHz, lzbench, Silesia corpus)",
    ),
    "llama3-tokenizer": Source(
        "The Llama 3 Herd of Models (arXiv:2407.21783)",
        "Meta AI (A. Grattafiori, A. Dubey et al.)",
        2024,
        "https://arxiv.org/abs/2407.21783",
        "§3.2 Model Architecture: 'We use a vocabulary with 128K tokens' (100K from tiktoken plus 28K"
        " for non-English languages)",
    ),
    "kaplan2020": Source(
        "Scaling Laws for Neural Language Models (arXiv:2001.08361)",
        "J. Kaplan, S. McCandlish, T. Henighan, T. B. Brown et al., OpenAI",
        2020,
        "https://arxiv.org/abs/2001.08361",
        "§2.1 and Table 1: training compute C ≈ 6N FLOPs per token (forward 2N, backward twice that)",
    ),
    "aws-s3-request-rate": Source(
        "How can I scale my request rate to Amazon S3? (AWS Knowledge Center)",
        "Amazon Web Services",
        2024,
        "https://repost.aws/knowledge-center/s3-object-key-naming-pattern",
        "'Your application can achieve 3,500 PUT/COPY/POST/DELETE or 5,500 GET/HEAD requests per second per"
        " prefix in a bucket ... If Amazon S3 is optimizing for a new request rate, you receive a temporary"
        " HTTP 503 request response'; the S3 User Guide (Optimizing performance) says 'at least' and"
        " 'per partitioned prefix'",
    ),
    "aws-sdk-retry": Source(
        "AWS SDKs and Tools Reference Guide: Retry behavior",
        "Amazon Web Services",
        2024,
        "https://docs.aws.amazon.com/sdkref/latest/guide/feature-retry-behavior.html",
        "retry_mode standard: exponential backoff with jitter, three attempts by default (max_attempts);"
        " throttling errors such as 503 Slow Down are retried",
    ),
    "llama3-vision": Source(
        "The Llama 3 Herd of Models (arXiv:2407.21783)",
        "Meta AI (A. Grattafiori, A. Dubey et al.)",
        2024,
        "https://arxiv.org/abs/2407.21783",
        "§7.2.1 Image encoder: ViT-H/14, images of 224 x 224 split into 16 x 16 patches of 14 x 14 pixels"
        " (seen in secondary summaries of the section, not in the original)",
    ),
    "llama3-architecture-8b": Source(
        "The Llama 3 Herd of Models (arXiv:2407.21783)",
        "Meta AI (A. Grattafiori, A. Dubey et al.)",
        2024,
        "https://arxiv.org/abs/2407.21783",
        "§3.2 Model Architecture, Table 3, 8B column: 32 layers, model dimension 4,096, FFN dimension"
        " 14,336, 32 attention heads, 8 key/value heads",
    ),
    "laion400m-hf-part": Source(
        "Laion400m-1 dataset card (README, dataset_info), a stored copy of part of LAION-400M",
        "jp1924 on Hugging Face",
        2024,
        "https://huggingface.co/datasets/jp1924/Laion400m-1/blob/main/README.md",
        "dataset_info, split train: num_bytes 4,408,913,793,032, num_examples 69,875,384 (images with"
        " captions): about 63 KB a pair; a third party's copy, not LAION's own statistics",
    ),
    "aws-s3-parallel-requests": Source(
        "Best Practices Design Patterns: Optimizing Amazon S3 Performance (AWS whitepaper)",
        "Amazon Web Services",
        2019,
        "https://docs.aws.amazon.com/whitepapers/latest/s3-optimizing-performance-best-practices/"
        "horizontal-scaling-and-request-parallelization-for-high-throughput.html",
        "§Horizontal Scaling and Request Parallelization for High Throughput: byte-range requests of 8-16 MB;"
        " 'make one concurrent request for each 85-90 MB/s of desired network throughput'; about 15"
        " concurrent requests saturate a 10 Gb/s NIC (read in a verbatim copy of the section, not on AWS's site)",
    ),
    # <<< sources: data-prefetch
    # >>> sources: checkpoint-recovery
    "pytorch-nccl-timeout": Source(
        "Change ProcessGroupNCCL default timeout to 10 min (pytorch/pytorch pull request #110947)",
        "PyTorch",
        2023,
        "https://github.com/pytorch/pytorch/pull/110947",
        "the pull request's description: the NCCL process group's default timeout goes from 30 to 10 minutes;"
        " torch/distributed/constants.py default_pg_nccl_timeout",
    ),
    "dell-lustre-mdtest": Source(
        "Dell HPC Lustre Storage solution with Intel Omni-Path (white paper)",
        "Dell EMC HPC Engineering",
        2017,
        "https://www.dell.com/support/manuals/en-us/high-performance-computing-solution-resources/",
        "§4.3 Metadata Testing, Figure 13 (MDtest file metadata operations on one MDS, Lustre 2.7):"
        " file create over 27K OPS, file stat more than 500K OPS, at 240 concurrent threads",
    ),
    "flashrecovery2025": Source(
        "FlashRecovery: Fast and Low-Cost Recovery from Failures for Large-Scale Training of LLMs"
        " (arXiv:2509.03047)",
        "iFLYTEK AI Engineering Institute, University of Science and Technology of China, Huawei",
        2025,
        "https://arxiv.org/abs/2509.03047",
        "abstract: training restored on a cluster of 4,800 devices in 150 seconds; failures detected"
        " within seconds; recovery time nearly constant in the cluster's size",
    ),
    "byterobust2025": Source(
        "Robust LLM Training Infrastructure at ByteDance (ByteRobust, arXiv:2509.16293; SOSP 2025)",
        "ByteDance Seed and The University of Hong Kong (B. Wan, G. Liu et al.)",
        2025,
        "https://arxiv.org/abs/2509.16293",
        "abstract: 97% ETTR for a three-month training job on 9,600 GPUs",
    ),
    "megascale2024": Source(
        "MegaScale: Scaling Large Language Model Training to More Than 10,000 GPUs (NSDI '24)",
        "ByteDance and Peking University (Z. Jiang, H. Lin et al.)",
        2024,
        "https://www.usenix.org/conference/nsdi24/presentation/jiang-ziheng",
        "§4 (robust training: heartbeat-based detection, automated diagnosis and recovery, fast checkpointing)"
        " and §3.5 (collective communication group initialization: 1,047 s on 2,048 GPUs with TCPStore,"
        " 361 s with Redis, under 5 s on 2,048 and under 30 s on more than 10,000 GPUs after the"
        " optimizations; these figures read second-hand, from the issue #32 review)",
    ),
    "huawei-aiturbo": Source(
        "SFS Turbo user guide: accelerating checkpoint saving and loading with AITurbo",
        "Huawei Cloud",
        2025,
        "https://support.huaweicloud.com/usermanual-sfs/sfs_01_1001.html",
        "section 'accelerated checkpoint loading': within a redundancy group holding the same checkpoint,"
        " representative nodes load it from remote storage and broadcast it to the other nodes, so that"
        " storage bandwidth is not the bottleneck; process-level faults reload from host-memory copies",
    ),
    "pytorch-libuv-tcpstore": Source(
        "Introduction to Libuv TCPStore Backend (PyTorch tutorials)",
        "PyTorch (X. Wu)",
        2024,
        "https://docs.pytorch.org/tutorials/intermediate/TCPStore_libuv_backend.html",
        "Introduction: a new TCPStore server backend on libuv, for jobs of more than 1,024 ranks, with"
        " significant improvements in store initialization time; set as the default TCPStore server backend"
        " in PyTorch 2.4",
    ),
    # <<< sources: checkpoint-recovery
    # >>> sources: gang-scheduling
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
    "kueue-config-v1beta2": Source(
        "Kueue Configuration v1beta2 API (generated reference, config.kueue.x-k8s.io/v1beta2)",
        "Kubernetes SIG Scheduling, Kueue",
        2025,
        "https://kueue.sigs.k8s.io/docs/reference/kueue-config.v1beta2/",
        "WaitForPodsReady: timeout, blockAdmission (defaults to false), requeuingStrategy, recoveryTimeout"
        " (defaults to the timeout); no enable field. RequeuingStrategy: timestamp Eviction (default),"
        " backoffLimitCount (defaults to null: endless), backoffBaseSeconds (defaults to 60), backoffMaxSeconds"
        " (defaults to 3600)",
    ),
    "kueue-config-v1beta1": Source(
        "Kueue Configuration v1beta1 API (generated reference, config.kueue.x-k8s.io/v1beta1)",
        "Kubernetes SIG Scheduling, Kueue",
        2024,
        "https://kueue.sigs.k8s.io/docs/reference/kueue-config.v1beta1/",
        "WaitForPodsReady: enable ('Defaults to false'), timeout ('Defaults to 5min'), blockAdmission,"
        " requeuingStrategy (backoffBaseSeconds 60, backoffMaxSeconds 3600, as in v1beta2)",
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
    "kube-scheduler-config": Source(
        "kube-scheduler Configuration (v1): KubeSchedulerConfiguration",
        "Kubernetes documentation",
        2025,
        "https://kubernetes.io/docs/reference/config-api/kube-scheduler-config.v1/",
        "KubeSchedulerConfiguration: podInitialBackoffSeconds (default 1 s), podMaxBackoffSeconds (default 10 s)",
    ),
    "kube-scheduler-queue": Source(
        "Kubernetes source: the scheduling queue and the PrioritySort queue-sort plugin",
        "Kubernetes SIG Scheduling, kubernetes/kubernetes repository",
        2025,
        "https://github.com/kubernetes/kubernetes/blob/master/pkg/scheduler/backend/queue/scheduling_queue.go",
        "PrioritySort.Less (pkg/scheduler/framework/plugins/queuesort/priority_sort.go): higher priority first,"
        " then the earlier QueuedPodInfo.Timestamp; AddUnschedulableIfNotPresent: 'Refresh the timestamp since"
        " the pod is re-added', and the failure count lengthens the pod's backoff",
    ),
    "kueue-pr-11855": Source(
        "Kueue pull request #11855: config: enable waitForPodsReady by default",
        "Kubernetes SIG Scheduling, Kueue repository",
        2026,
        "https://github.com/kubernetes-sigs/kueue/pull/11855",
        "release note: 'WaitForPodsReady is now enabled by default ... (30 minute timeout, 30 minute recovery"
        " timeout)'; opened 31 May 2026, fixes issue #11366; earlier releases left it disabled with a 5-minute"
        " default timeout (Kueue PR #2210, charts/kueue/values.yaml)",
    ),
    "kueue-changelog-0-19": Source(
        "Kueue CHANGELOG-0.19.md, release v0.19.0",
        "Kubernetes SIG Scheduling, Kueue repository",
        2026,
        "https://github.com/kubernetes-sigs/kueue/blob/main/CHANGELOG/CHANGELOG-0.19.md",
        "v0.19.0, 'Actions Required Before Upgrading': 'WaitForPodsReady is now enabled by default ... (30 minute"
        " timeout, 30 minute recovery timeout). (#11855)'; also the DisableWaitForPodsReady feature gate (#13107)",
    ),
    "volcano-podgroup": Source(
        "Volcano documentation: PodGroup (minMember) and the gang plugin",
        "Volcano project (CNCF)",
        2025,
        "https://volcano.sh/en/docs/podgroup/",
        "PodGroup spec.minMember: the minimum number of pods that must be schedulable together; the gang"
        " plugin keeps a job's pods unbound until minMember of them fit",
    ),
    "coscheduling-plugin": Source(
        "scheduler-plugins: Coscheduling (KEP 42, lightweight coscheduling based on back-to-back queue sorting)",
        "Kubernetes SIG Scheduling, scheduler-plugins repository",
        2024,
        "https://github.com/kubernetes-sigs/scheduler-plugins/tree/master/pkg/coscheduling",
        "PodGroup minMember; pods of a group wait at the Permit stage until minMember are placed, else all"
        " are rejected after permitWaitingTimeSeconds",
    ),
    "slurm-reservations": Source(
        "Slurm: Advanced Resource Reservation Guide",
        "SchedMD",
        2025,
        "https://slurm.schedmd.com/reservations.html",
        "a reservation identifies resources and a time period; jobs using a node reservation use only those"
        " resources and no other job can; created with scontrol create reservation",
    ),
    # <<< sources: gang-scheduling
    # >>> sources: topology-packing
    "narayanan2021": Source(
        "Efficient Large-Scale Language Model Training on GPU Clusters Using Megatron-LM",
        "D. Narayanan, M. Shoeybi, J. Casper, P. LeGresley, M. Patwary, V. Korthikanti, D. Vainbrand,"
        " P. Kashinkunti, J. Bernauer, B. Catanzaro, A. Phanishayee and M. Zaharia, SC '21 (ACM)",
        2021,
        "https://doi.org/10.1145/3458817.3476209",
        "§3.2 Tensor and Pipeline Model Parallelism (pipeline: b·s·h elements between consecutive devices"
        " per microbatch; tensor: 8·b·s·h·(t−1)/t per layer per device per microbatch, two all-reduces"
        " forward and two backward, l_stage times that per device per microbatch), §4.1"
        " (scatter/gather: each tensor rank sends b·s·h/t across the pipeline link)",
    ),
    "korthikanti2022": Source(
        "Reducing Activation Recomputation in Large Transformer Models (arXiv:2205.05198)",
        "V. Korthikanti, J. Casper, S. Lym, L. McAfee, M. Andersch, M. Shoeybi and B. Catanzaro,"
        " MLSys 2023",
        2022,
        "https://arxiv.org/abs/2205.05198",
        "§4.2.2 Sequence Parallelism: each all-reduce becomes a reduce-scatter and an all-gather,"
        " with the same communication volume",
    ),
    "kalamkar2019": Source(
        "A Study of BFLOAT16 for Deep Learning Training (arXiv:1905.12322)",
        "D. Kalamkar, D. Mudigere, N. Mellempudi et al. (Intel and Facebook)",
        2019,
        "https://arxiv.org/abs/1905.12322",
        "the bfloat16 format it studies: 16 bits, 1 sign, 8 exponent and 7 mantissa bits",
    ),
    "llama3-numerics": Source(
        "The Llama 3 Herd of Models (arXiv:2407.21783)",
        "Meta AI (A. Grattafiori, A. Dubey et al.)",
        2024,
        "https://arxiv.org/abs/2407.21783",
        "§3.3.2 Parallelism for Model Scaling: Network-aware parallelism configuration (dimension order"
        " [TP, CP, PP, DP], innermost the most bandwidth-hungry) and Numerical stability (gradients"
        " reduce-scattered in FP32 across data-parallel workers)",
    ),
    "slurm-topology": Source(
        "Slurm documentation: Topology Guide, topology.conf(5) and topology.yaml(5)",
        "SchedMD",
        2025,
        "https://slurm.schedmd.com/topology.html",
        "Topology Guide: without a topology plugin Slurm considers nodes as a one-dimensional array and"
        " allocates best-fit; §Tree Topology: topology/tree finds the lowest-level switch that can satisfy the"
        " request and allocates on its leaf switches best-fit, which may use more than the optimum number of"
        " switches; --switches caps the leaf switches (with a maximum wait). topology.conf §topology/tree: each line"
        " defines a switch and its children, nodes or switches"
        " (requires select/cons_tres); jobs can only span nodes connected by the same switch fabric;"
        " topology.yaml §PARAMETERS: each topology is block (the topology/block plugin, block definitions"
        " below), flat (topology/flat, the default when no TopologyPlugin or topology.yaml is given) or tree",
    ),
    "kueue-tas": Source(
        "Kueue documentation: Topology Aware Scheduling (concepts) and Run Workloads with Topology-Aware"
        " Scheduling",
        "Kubernetes SIG Scheduling, Kueue",
        2025,
        "https://kueue.sigs.k8s.io/docs/concepts/topology_aware_scheduling/",
        "a Topology object lists node-label levels (e.g. block, rack, hostname); a workload asks for a pod"
        " set to be placed inside one domain of a level, required or preferred; beta, on by default since"
        " Kueue v0.14",
    ),
    "k8s-topology-manager": Source(
        "Kubernetes documentation: Control Topology Management Policies on a node",
        "The Kubernetes Authors",
        2025,
        "https://kubernetes.io/docs/tasks/administer-cluster/topology-manager/",
        "the kubelet's Topology Manager collects topology hints (NUMA affinity) from hint providers (CPU"
        " Manager, Device Manager) and admits a pod under the none, best-effort, restricted or"
        " single-numa-node policy: alignment inside one node, not across the network",
    ),
    # <<< sources: topology-packing
    # >>> sources: stragglers
    "lin2025-stragglers": Source(
        "Understanding Stragglers in Large Model Training Using What-if Analysis (arXiv:2505.05713)",
        "J. Lin, Z. Jiang, Z. Song et al. (NYU, ByteDance Seed), OSDI '25, pp. 483-498",
        2025,
        "https://www.usenix.org/conference/osdi25/presentation/lin-jinkun",
        "§4 (how often stragglers affect jobs): 42.5% of jobs slowed by ≥ 10% (S ≥ 1.1); 10.4% of cluster"
        " GPU-hours wasted; per-job waste median 7.8%, P90 21.3%, P99 45.0%; per-step slowdown stable"
        " (normalised P90 1.06); root causes: a single faulty worker dominates only 1.7% of straggling jobs",
    ),
    "pytorch-flight-recorder": Source(
        "Flight Recorder for Debugging Stuck Jobs (PyTorch tutorial, prototype)",
        "C. Pandya and J. Wang, PyTorch",
        2024,
        "https://docs.pytorch.org/tutorials/prototype/flight_recorder_tutorial.html",
        "a per-rank ring buffer of collectives (TORCH_NCCL_TRACE_BUFFER_SIZE), with start and end times"
        " when TORCH_NCCL_ENABLE_TIMING is set; dumps compared across ranks find the late rank",
    ),
    "nvidia-spectrum3": Source(
        "NVIDIA Spectrum-3 Ethernet switch ASIC (SN4000 series): 12.8 Tb/s, 64 MB shared packet buffer",
        "NVIDIA (Mellanox)",
        2020,
        "https://www.nvidia.com/en-us/networking/ethernet-switching/spectrum-sn4000/",
        "product brief, switching capacity and packet buffer. Not read in the original here: the 64 MB"
        " and 32 x 400 GbE were seen second-hand (gist jopietsch/c1573518516af6071ae9cd0462ff0fd3,"
        " '2020 High Speed Ethernet ASICs', Spectrum 3 row; and a summary citing NVIDIA)",
    ),
    "efadv-srd": Source(
        "efadv_create_driver_qp(3): Create EFA specific Queue Pair (rdma-core, EFA Direct Verbs Manual)",
        "Amazon / linux-rdma rdma-core",
        2019,
        "https://man.archlinux.org/man/efadv_create_driver_qp.3.en",
        "DESCRIPTION: 'Scalable Reliable Datagram (SRD) transport provides reliable out-of-order delivery,"
        " transparently utilizing multiple network paths'",
    ),
    "nvidia-adp-retx": Source(
        "Adaptive Retransmission: Parameters Control (Enablement and Capabilities; ROCE_ACCL layout)",
        "NVIDIA",
        2025,
        "https://docs.nvidia.com/networking/display/adaptiveretransmissionparameterscontrol/enablement+and+capabilities",
        "Enablement and Capabilities: roce_adp_retrans_en enables ADP retransmission; adp_retx_base_timeout_min,"
        " the minimum base timeout enforced by firmware, 0xFA0 (4000 ns, 4 us); Overview: April 2025 GA firmware"
        " adds multiple timeout values and retry counts per timeout",
    ),
    "linux-rxe-comp": Source(
        "Linux kernel, drivers/infiniband/sw/rxe/rxe_comp.c (Soft-RoCE requester's completer)",
        "The Linux kernel developers",
        2023,
        "https://github.com/torvalds/linux/blob/master/drivers/infiniband/sw/rxe/rxe_comp.c",
        "check_ack(): an AETH_NAK_PSN_SEQ_ERROR returns COMPST_ERROR_RETRY, the state a transport timeout reaches"
        " (a NAK enters the retry path); in COMPST_ERROR_RETRY, 'if (qp->comp.started_retry &&"
        " !qp->comp.timeout_retry) ... goto done': a NAK while a retry sequence is under way is not charged;"
        " 'if (qp->comp.retry_cnt != 7) qp->comp.retry_cnt--': a retry count of 7 (NCCL's default) is never"
        " decremented, so that QP never completes with IB_WC_RETRY_EXC_ERR; otherwise it does at zero;"
        " reset_retry_counters() runs on a positive ACK (AETH_ACK), not on a NAK",
    ),
    "nvidia-winof2-rdma": Source(
        "WinOF-2 Documentation v2.37: RDMA Capabilities (Shutdown RDMA QPs with Excessive Retransmissions)",
        "NVIDIA",
        2023,
        "https://docs.nvidia.com/networking/display/winof2v237/rdma+capabilities",
        "RoCE only, a driver mechanism of its own beside the QP's retry count: if the number of retransmissions due"
        " to a Local Ack Timeout, NAK-Sequence Error, or Implied NAK during a measurement period"
        " (EXT_QP_MAX_RETRY_PERIOD) exceeds a threshold (EXT_QP_MAX_RETRY_LIMIT, default 50; either set to 0"
        " disables it), the QP is handled as if the IB spec's Retry Count was exceeded (moved to the error state,"
        " 'Requester QP Transport Retries Exceeded Errors' incremented)",
    ),
    "nvidia-ofed-ooo": Source(
        "MLNX_OFED Documentation Rev 4.9-0.1.7.0 LTS: Out-of-Order (OOO) Data Placement Experimental Verbs",
        "NVIDIA",
        2023,
        "https://docs.nvidia.com/networking/display/OFEDv490170/Out-of-Order+(OOO)+Data+Placement+Experimental+Verbs",
        "supported on ConnectX-5 and above, RC and XRC QPs, DC transport; packets of one QP that took"
        " different paths and arrive out of order 'can now be handled instead of being dropped, in order to"
        " avoid retransmission'; data is placed in host memory out of order; set up with adaptive routing",
    ),
    "pytorch-nccl-env": Source(
        "PyTorch ProcessGroupNCCL Environment Variables",
        "PyTorch",
        2024,
        "https://docs.pytorch.org/docs/stable/torch_nccl_environment_variables.html",
        "TORCH_NCCL_TRACE_BUFFER_SIZE (the maximum number of events in the flight recorder's ring buffer),"
        " TORCH_NCCL_DUMP_ON_TIMEOUT (dump debug info on watchdog timeout or exception; needs a buffer"
        " larger than 0), TORCH_NCCL_ENABLE_TIMING (start events for every collective: accurate timing)",
    ),
    "pytorch-fr-watchdog": Source(
        "Flight Recorder: A New Lens for Understanding NCCL Watchdog Timeouts (PyTorch blog)",
        "Y. Liu, U. Thakore, J. Wang and Y. Yang, PyTorch at Meta",
        2026,
        "https://pytorch.org/?p=59990",
        "the watchdog timeout error (its example: Timeout(ms)=600000) is a catch-all; Meta finds most timeouts"
        " come from ranks that desynchronise rather than from the network; the flight recorder keeps a"
        " per-rank ring buffer of collectives, dumped from every rank on timeout, and fr_trace aligns the"
        " dumps by sequence id to find the mismatch",
    ),
    "nvidia-resiliency-straggler": Source(
        "NVIDIA Resiliency Extension: Straggler Detection, usage guide",
        "NVIDIA",
        2024,
        "https://nvidia.github.io/nvidia-resiliency-ext/straggler_det/usage_guide.html",
        "Design Overview: code sections marked for detection are timed (CPU wall clock), and the CUDA kernels"
        " launched in them optionally benchmarked into a per-rank GPU performance score; scores relative to"
        " the best rank or to the rank's own best",
    ),
    "nemo-straggler-callback": Source(
        "NeMo source: nemo/collections/llm/recipes/callbacks/common.py, straggler_det_callback()",
        "NVIDIA, NeMo (GitHub NVIDIA/NeMo)",
        2025,
        "https://github.com/NVIDIA/NeMo/blob/main/nemo/collections/llm/recipes/callbacks/common.py",
        "straggler_det_callback(): defaults straggler_report_time_interval = 300 (s) and"
        " gpu_relative_perf_threshold = 0.7, passed to nvidia-resiliency-ext's StragglerDetectionCallback"
        " ('A rank is considered a straggler if its score falls below the configured threshold (default 0.7).'"
        " 'The callback reports scores every 5 minutes by default.')",
    ),
    # <<< sources: stragglers
    # >>> sources: mig-vs-timeslicing
    "nvidia-mig-h100-profiles": Source(
        "NVIDIA Multi-Instance GPU User Guide: Supported MIG Profiles",
        "NVIDIA",
        2025,
        "https://docs.nvidia.com/datacenter/tesla/mig-user-guide/supported-mig-profiles.html",
        "§H100 MIG Profiles: the H100 80GB table (fraction of memory, fraction of SMs, L2 cache size, copy engines,"
        " number of"
        " instances available for 1g.10gb, 1g.10gb+me, 1g.20gb, 2g.20gb, 3g.40gb, 4g.40gb, 7g.80gb) and the"
        " figure of their placements on memory slices 0-7",
    ),
    "nvidia-mig-supported-gpus": Source(
        "NVIDIA Multi-Instance GPU User Guide: Supported GPUs",
        "NVIDIA",
        2025,
        "https://docs.nvidia.com/datacenter/tesla/mig-user-guide/supported-gpus.html",
        "table of supported GPUs: H100-SXM5 80GB, max number of instances 7",
    ),
    "nvidia-smi-mig-lgip-gh100": Source(
        "Add support for the NVIDIA H200 GPU (NVIDIA/mig-parted issue #120): nvidia-smi mig -lgip output",
        "NVIDIA, mig-parted repository",
        2024,
        "https://github.com/NVIDIA/mig-parted/issues/120",
        "GPU instance profiles on the GH100 die: SM column 16 (1g), 16 (1g+me), 26 (1g, double memory),"
        " 32 (2g), 60 (3g), 64 (4g), 132 (7g); an H200 listing (no H100 80GB listing was read)",
    ),
    "nvidia-hopper-sm-count": Source(
        "NVIDIA Hopper Architecture In-Depth",
        "NVIDIA Technical Blog (M. Andersch et al.)",
        2022,
        "https://developer.nvidia.com/blog/nvidia-hopper-architecture-in-depth/",
        "§H100 SM architecture: the H100 SXM5 has 132 SMs",
    ),
    "nvidia-gpu-operator-time-slicing": Source(
        "Time-Slicing GPUs in Kubernetes (NVIDIA GPU Operator documentation)",
        "NVIDIA",
        2025,
        "https://docs.nvidia.com/datacenter/cloud-native/gpu-operator/latest/gpu-sharing.html",
        "§Understanding Time-Slicing GPUs: replicas of one GPU handed to pods; \"Unlike Multi-Instance GPU"
        " (MIG), there is no memory or fault-isolation between replicas\"",
    ),
    "nvidia-mig-user-guide-intro": Source(
        "NVIDIA Multi-Instance GPU User Guide: Introduction",
        "NVIDIA",
        2025,
        "https://docs.nvidia.com/datacenter/tesla/mig-user-guide/index.html",
        "§Introduction: each instance's processors have separate and isolated paths through the memory system (the"
        " on-chip crossbar ports, L2 cache banks, memory controllers and DRAM address buses are assigned to one"
        " instance)",
    ),
    "nvidia-vgpu-schedulers": Source(
        "NVIDIA vGPU Knowledge Base: vGPU Features, vGPU Schedulers",
        "NVIDIA",
        2025,
        "https://docs.nvidia.com/vgpu/knowledge-base/latest/vgpu-features.html",
        "§vGPU Schedulers: time-sliced vGPUs share the GPU under one of three schedulers, best effort (the default;"
        " an idle VM's turn passes to the next), equal share and fixed share; the time slice is configurable",
    ),
    "nvidia-ai-enterprise-vgpu-scheduling": Source(
        "NVIDIA AI Enterprise 8.1: vGPU Scheduling Policies",
        "NVIDIA",
        2025,
        "https://docs.nvidia.com/ai-enterprise/release-8/8.1/infra-software/vgpu/features/scheduling.html",
        "Table 37, vGPU Scheduling Policy Comparison: best effort (idle VMs cede their slots), equal share, fixed"
        " share (a fixed fraction of GPU time even when other VMs are idle); MIG-backed vGPUs are not time-sliced",
    ),
    "nvml-vgpu-scheduler-state": Source(
        "NVML API Reference: nvmlVgpuSchedulerStateInfo_v2_t",
        "NVIDIA",
        2026,
        "https://docs.nvidia.com/deploy/nvml-api/structnvmlVgpuSchedulerStateInfo__v2__t.html",
        "fields schedulerPolicy and timeslice (\"the timeslice in ns for each software run list as configured, or the"
        " default value otherwise\")",
    ),
    "nvidia-mps": Source(
        "NVIDIA Multi-Process Service",
        "NVIDIA",
        2025,
        "https://docs.nvidia.com/deploy/mps/index.html",
        "§Introduction, Volta MPS: each client owns its own GPU address space; limited execution resource provisioning"
        " for QoS (active thread percentage); kernels of different processes run concurrently",
    ),
    "nvidia-smi-mig-lgip-h100-nvl": Source(
        "[H100 NVL] update all-balanced MIG config (NVIDIA/gpu-operator pull request #900): "
        "nvidia-smi mig -lgip output",
        "NVIDIA, gpu-operator repository",
        2024,
        "https://github.com/NVIDIA/gpu-operator/pull/900",
        "GPU instance profiles of an H100 NVL (GH100): SM column 16 (1g.12gb), 26 (1g.24gb), 32 (2g.24gb),"
        " the same as the H200 listing",
    ),
    "nvidia-mps-when-to-use": Source(
        "NVIDIA Multi-Process Service: When to Use MPS",
        "NVIDIA",
        2025,
        "https://docs.nvidia.com/deploy/mps/when-to-use-mps.html",
        "§The Benefits of MPS, Reduced On-GPU Context Storage: without MPS each CUDA process using a GPU allocates"
        " separate storage and scheduling resources on the GPU; §Considerations, Memory Protection and Error"
        " Containment, Error Containment: a fatal GPU fault generated by a Volta MPS client is reported to all the"
        " clients on the GPUs it is contained in, without indicating which client generated it",
    ),
    "nvidia-mps-pinned-mem-limit": Source(
        "NVIDIA Multi-Process Service: Appendix, Tools and Interface Reference",
        "NVIDIA",
        2025,
        "https://docs.nvidia.com/deploy/mps/appendix-tools-and-interface-reference.html",
        "§Environment Variables, CUDA_MPS_PINNED_DEVICE_MEM_LIMIT: limits the GPU memory the client process can"
        " allocate through CUDA APIs (on Volta and later, pinned device memory); set per client, or by the control"
        " daemon (set_default_device_pinned_mem_limit, set_device_pinned_mem_limit)",
    ),
    "stackhpc-mig-lgip-h100": Source(
        "vGPU/MIG configuration (StackHPC ansible-slurm-appliance documentation, docs/mig.md)",
        "StackHPC (GitHub stackhpc/ansible-slurm-appliance)",
        2025,
        "https://github.com/stackhpc/ansible-slurm-appliance/blob/main/docs/mig.md",
        "nvidia-smi mig -lgip on four H100 SXM5 80GB GPUs (lspci: GH100 [H100 SXM5 80GB] [10de:2330]): SM column"
        " 16, 16, 26, 32, 60, 64, 132 for 1g.10gb, 1g.10gb+me, 1g.20gb, 2g.20gb, 3g.40gb, 4g.40gb, 7g.80gb; Memory"
        " (GiB) 9.75, 9.75, 19.62, 19.62, 39.50, 39.50, 79.25 (a third party's output, second-hand: not NVIDIA's)",
    ),
    "nvidia-mig-getting-started": Source(
        "NVIDIA Multi-Instance GPU User Guide: Getting Started with MIG",
        "NVIDIA",
        2025,
        "https://docs.nvidia.com/datacenter/tesla/mig-user-guide/getting-started-with-mig.html",
        "§MIG with CUDA MPS, A Complete Example (v580): nvidia-smi on an NVIDIA H100 80GB HBM3 reads"
        " '87MiB /  81559MiB'; two 3g.40gb instances of 40448MiB each; each ./bin/BlackScholes client process"
        " uses 326MiB",
    ),
    "nvidia-forum-set-timeslice": Source(
        "Is this option --set-timeslice described in any document? (NVIDIA developer forum)",
        "NVIDIA developer forum",
        2020,
        "https://forums.developer.nvidia.com/t/is-there-any-document-on-set-timeslice-on-nvidia-smi/156566",
        "nvidia-smi compute-policy --set-timeslice takes default, short, medium or long; the thread asks for the"
        " durations, which no document gives",
    ),
    "vllm-issue-27508-h100": Source(
        "[Bug]: openai/gpt-oss-120b can't run on H100 (vllm-project/vllm issue #27508)",
        "a vLLM user (GitHub vllm-project/vllm)",
        2025,
        "https://github.com/vllm-project/vllm/issues/27508",
        "the reporter's nvidia-smi: 'NVIDIA H100 80GB HBM3' with '0MiB / 81559MiB'; their PyTorch out-of-memory"
        " error on it: 'GPU 0 has a total capacity of 79.11 GiB' (PyTorch's total is CUDA's cudaMemGetInfo total;"
        " a user's output, second-hand: not NVIDIA's)",
    ),
    # <<< sources: mig-vs-timeslicing
    # >>> sources: silent-data-corruption
    "dixit2021": Source(
        "Silent Data Corruptions at Scale (arXiv:2102.11245)",
        "Meta (H. D. Dixit, S. Pendharkar, M. Beadon, C. Mason, T. Chakravarthy, B. Muthiah, S. Sankar)",
        2021,
        "https://arxiv.org/abs/2102.11245",
        "Abstract: silent-error tests run across hundreds of thousands of machines found hundreds of CPUs"
        " with SDCs, monitored for more than 18 months (a CPU fleet)",
    ),
    "hochschild2021": Source(
        "Cores that don't count (HotOS '21)",
        "Google (P. H. Hochschild, P. Turner, J. C. Mogul, R. Govindaraju, P. Ranganathan, D. E. Culler,"
        " A. Vahdat)",
        2021,
        "https://doi.org/10.1145/3458336.3465297",
        "the paper's incidence estimate: 'on the order of a few mercurial cores per several thousand"
        " machines' (CPU cores; the exact rate is not disclosed)",
    ),
    "dixit2022": Source(
        "Detecting silent data corruptions in the wild (arXiv:2203.08989, IEEE SELSE 2022)",
        "Meta (H. D. Dixit, L. Boyle, G. Vunnam, S. Pendharkar, M. Beadon, S. Sankar)",
        2022,
        "https://arxiv.org/abs/2203.08989",
        "Abstract: silent errors arise where a defect sits in a part of the circuit without check logic; they"
        " are accelerated by datapath variations, temperature variance and age; Fleetscanner"
        " (out-of-production) and Ripple (in-production) testing compared",
    ),
    "baumann2005": Source(
        "Radiation-Induced Soft Errors in Advanced Semiconductor Technologies",
        "R. C. Baumann, IEEE Transactions on Device and Materials Reliability 5(3), pp. 305-316",
        2005,
        "https://doi.org/10.1109/TDMR.2005.853449",
        "Abstract and §I: soft errors from terrestrial radiation (cosmic-ray neutrons, alpha particles) flip"
        " stored bits in memories; in combinational logic they create transients that corrupt data if latched",
    ),
    # one source, two scenes: silent-data-corruption (ECC) and predictive-draining (row remapping)
    "nvidia-gpu-mem-error-mgmt": Source(
        "NVIDIA GPU Memory Error Management (application note DA-09826)",
        "NVIDIA",
        2022,
        "https://docs.nvidia.com/deploy/a100-gpu-mem-error-mgmt/index.html",
        "§1 Overview: Ampere and Hopper HBM ECC corrects single-bit errors (SBEs); uncorrectable errors are"
        " contained and pages offlined (§2 Table 1, GH100); §Row Remapping (spare rows per DRAM bank replace"
        " degrading cells, up to 512 remaps, a pending remap takes a GPU reset); §RMA Policy Thresholds",
    ),
    # <<< sources: silent-data-corruption
    # >>> sources: liquid-cooling
    "nvidia-superpod-h100-dc-design": Source(
        "NVIDIA DGX SuperPOD: Data Center Design Featuring NVIDIA DGX H100 Systems",
        "NVIDIA",
        2023,
        "https://docs.nvidia.com/dgx-superpod/design-guides/dgx-superpod-data-center-design-h100/latest/",
        "Planning a Data Center Deployment; rack density: four DGX H100 systems per rack (40.8 kW)",
    ),
    "nvidia-superpod-gb200-ra": Source(
        "NVIDIA DGX SuperPOD Reference Architecture, DGX GB200: DGX SuperPOD Architecture",
        "NVIDIA",
        2024,
        "https://docs.nvidia.com/dgx-superpod/reference-architecture-scalable-infrastructure-gb200/latest/"
        "dgx-superpod-architecture.html",
        "each SU (8 DGX GB200 racks) requires a TDP of 1.2 MW; each rack uses hybrid cooling, direct liquid"
        " cooling and air",
    ),
    "introl-gb200-nvl72-deployment": Source(
        "GB200 NVL72 Deployment: Managing 72 GPUs in Liquid-Cooled Configurations (secondary: a deployment"
        " vendor's blog, not NVIDIA)",
        "Introl",
        2025,
        "https://introl.com/blog/gb200-nvl72-deployment-72-gpu-liquid-cooled",
        "opening paragraph: 'The GB200 NVL72 consumes 120 kilowatts'; the same post says each rack 'requires 2.4"
        " megawatts of cooling capacity', twenty times that power, which we do not use: a vendor blog, read as an"
        " estimate",
    ),
    "nist-webbook-water": Source(
        "NIST Chemistry WebBook, SRD 69: Thermophysical Properties of Fluid Systems (water, IAPWS-95)",
        "National Institute of Standards and Technology (E. W. Lemmon, M. O. McLinden, D. G. Friend)",
        2023,
        "https://webbook.nist.gov/chemistry/fluid/",
        "isobaric properties of water at 0.101325 MPa, 25 °C: Cp 4.1813 J/(g·K), density 997.05 kg/m³",
    ),
    "dowfrost-guide": Source(
        "Engineering and Operating Guide for DOWFROST and DOWFROST HD Inhibited Propylene Glycol-based Heat"
        " Transfer Fluids",
        "The Dow Chemical Company",
        2008,
        "https://www.dow.com/en-us/pdp.dowfrost-inhibited-propylene-glycol-heat-transfer-fluid.html",
        "Product Properties and Engineering Data: Density and Specific Heat tables of aqueous solutions",
    ),
    "ashrae-fundamentals-2017": Source(
        "ASHRAE Handbook: Fundamentals (SI edition)",
        "ASHRAE",
        2017,
        "https://www.ashrae.org/technical-resources/ashrae-handbook",
        "Ch. 1 Psychrometrics: standard air, 1.204 kg/m³ at 20 °C and 101.325 kPa; c_p of dry air 1.006 kJ/(kg·K)",
    ),
    "ashrae-tc99-liquid-2021": Source(
        "Emergence and Expansion of Liquid Cooling in Mainstream Data Centers (ASHRAE TC 9.9 white paper)",
        "ASHRAE Technical Committee 9.9",
        2021,
        "https://www.ashrae.org/technical-resources/bookstore/datacom-series",
        "rack and chip power trends; liquid-cooling classes W17-W45 (not cited here for an air-cooled rack limit)",
    ),
    "ashrae-thermal-guidelines-2021": Source(
        "Thermal Guidelines for Data Processing Environments, 5th ed.: TC 9.9 reference card",
        "ASHRAE Technical Committee 9.9",
        2021,
        "https://www.ashrae.org/technical-resources/bookstore/datacom-series",
        "Table 2.1, 2021 Thermal Guidelines for Air Cooling (SI): recommended envelope, classes A1-A4, -9 °C DP to"
        " 15 °C DP and 70% rh (read in a copy of the reference card, not in the book)",
    ),
    "nvidia-blackwell-tech-brief": Source(
        "NVIDIA Blackwell Architecture Technical Brief",
        "NVIDIA",
        2024,
        "https://resources.nvidia.com/en-us-blackwell-architecture",
        "GPU specifications tables: the GB200 figures at 1,200 W per GPU, the HGX B200 figures at 1,000 W per"
        " GPU (read second-hand: G. Lockwood, glennklockwood.com/garden/processors/B200, quoting the tables)",
    ),
    # <<< sources: liquid-cooling
    # >>> sources: predictive-draining
    "kokolis2024": Source(
        "Revisiting Reliability in Large-Scale Machine Learning Research Clusters (arXiv:2410.21680; HPCA 2025)",
        "A. Kokolis, M. Kuchnik, J. Hoffman, A. Kumar, P. Malani, F. Ma, Z. DeVito, S. Sengupta, K. Saladi,"
        " C.-J. Wu (FAIR at Meta)",
        2024,
        "https://arxiv.org/abs/2410.21680",
        "failure-rate analysis of RSC-1 (16k A100) and RSC-2 (8k A100) over 11 months: 6.50 and 2.34 failures"
        " per 1000 node-days; the MTTF projection by job size (1.8 h at 16,384 GPUs)",
    ),
    "nvidia-xid-catalog": Source(
        "Xid Errors: Analyzing Xid Errors with the Xid Catalog",
        "NVIDIA",
        2025,
        "https://docs.nvidia.com/deploy/xid-errors/analyzing-xid-catalog.html",
        "the catalog of Xid events for A100, H100, B100 and GB200, each with its immediate resolution bucket"
        " (e.g. RESTART_APP, reset the GPU, drain the node)",
    ),
    "cui2025-gpu-resilience": Source(
        "Characterizing GPU Resilience and Impact on AI/HPC Systems (arXiv:2503.11901)",
        "S. Cui, A. Patke, H. Nguyen et al. (UIUC, NCSA, IBM Research)",
        2025,
        "https://arxiv.org/abs/2503.11901",
        "Abstract and findings: 2.5 years, 11.7 million GPU-hours of Xid errors on Delta's 1,056 A100 and H100"
        " GPUs; H100 memory errors 3.2x more frequent per GPU than A100's; GPU errors often fail the job",
    ),
    "zhuo2017-corruption": Source(
        "Understanding and Mitigating Packet Corruption in Data Center Networks (SIGCOMM 2017)",
        "D. Zhuo, M. Ghobadi, R. Mahajan, K.-T. Förster, A. Krishnamurthy, T. Anderson",
        2017,
        "https://www.microsoft.com/en-us/research/publication/understanding-mitigating-packet-corruption-data-center-networks/",
        "Abstract: 350K links in 15 production data centers; corruption on a link is stable over time and"
        " uncorrelated with its load; CorrOpt disables corrupting links and names the repair (clean the"
        " connector, replace the cable or transceiver) from their symptoms",
    ),
    "nvidia-ufm-telemetry-fields": Source(
        "UFM SDN Appliance User Manual v4.14.0: Appendix, Secondary Telemetry Fields",
        "NVIDIA",
        2024,
        "https://docs.nvidia.com/networking/display/ufmsdnappumv4140/appendix+%E2%80%93+secondary+telemetry+fields",
        "per-port fields: Total_Raw_BER (pre-FEC), Effective_BER (post-FEC), Raw_Errors_Lane_[0-3],"
        " physical and logical link state, cable details and power levels",
    ),
    "nvidia-mem-error-recovery-flags": Source(
        "NVIDIA GPU Memory Error Management: Error Recovery and Response Flags",
        "NVIDIA",
        2024,
        "https://docs.nvidia.com/deploy/a100-gpu-mem-error-mgmt/error-recovery-and-response-flags.html",
        "Row-remapping pending flag: the remap happens at the next GPU reset; with the flag set, unaffected"
        " applications can continue running and new workloads can be launched",
    ),
    "meta-gcm-row-remap": Source(
        "GCM health checks: check-nvidia-smi row_remap",
        "Meta (facebookresearch/gcm)",
        2025,
        "https://facebookresearch.github.io/gcm/docs/GCM_Health_Checks/health_checks/check-nvidia-smi/row_remap",
        "Exit Conditions table: pending remaps detected and failed remaps detected each exit CRITICAL (2)",
    ),
    "schroeder2011-dram-wild": Source(
        "DRAM Errors in the Wild: A Large-Scale Field Study (Communications of the ACM 54(2), pp. 100-107;"
        " SIGMETRICS 2009)",
        "B. Schroeder, E. Pinheiro, W.-D. Weber",
        2011,
        "https://doi.org/10.1145/1897816.1897844",
        "§5 A closer look at correlations, Figure 7: in more than 85% of cases a correctable error is followed"
        " by another in the same month, 13x to more than 90x an average month's probability (server DIMMs)",
    ),
    "boixaderas2024-dram-mitigation": Source(
        "Reinforcement Learning-based Adaptive Mitigation of Uncorrected DRAM Errors in the Field (HPDC '24;"
        " arXiv:2407.16377)",
        "I. Boixaderas, S. Moré, J. Bartolome, D. Vicente, P. Radojković, P. M. Carpenter, E. Ayguadé"
        " (Barcelona Supercomputing Center)",
        2024,
        "https://arxiv.org/abs/2407.16377",
        "Abstract: on two years of production logs from the MareNostrum supercomputer (DDR3 DIMMs), the"
        " predictor-triggered mitigation reduces lost compute time by 54% compared with no mitigation, 6% below"
        " the optimal Oracle method; an uncorrected error terminates the job and wastes the computation since"
        " the last checkpoint",
    ),
    "wu2024-hbm-errors": Source(
        "Removing Obstacles before Breaking Through the Memory Wall: A Close Look at HBM Errors in the Field"
        " (USENIX ATC '24, pp. 851-867)",
        "R. Wu, S. Zhou, J. Lu, Z. Shen, Z. Xu, J. Shu (Xiamen University), K. Yang, F. Lin (Huawei), Y. Zhang",
        2024,
        "https://www.usenix.org/conference/atc24/presentation/wu-ronglong",
        "Abstract: over 460 million HBM error events from nineteen data centers over two years; HBM's errors"
        " differ from conventional DRAM's in spatial locality, temporal correlation and sensor metrics, which"
        " makes DRAM's empirical prediction models ineffective for HBM; the hierarchical predictor Calchas"
        " shows failure prediction is feasible",
    ),
    "nvidia-ufm-telemetry-cable-info": Source(
        "UFM Telemetry Documentation v1.22.2: Cable Info",
        "NVIDIA",
        2025,
        "https://docs.nvidia.com/networking/display/ufmtelemetryumv1222/cable-info",
        "the field list for each port's cable or transceiver: temperature and supply-voltage alarm and warning"
        " flags, rx_power_high_th / rx_power_low_th and tx_power and tx_bias thresholds",
    ),
    "nvidia-ufm-primary-telemetry-fields": Source(
        "UFM-SDN Appliance User Manual v4.18.1 LTS: High-Frequency (Primary) Telemetry Fields",
        "NVIDIA",
        2024,
        "https://docs.nvidia.com/networking/display/UFMSDNAppUMv4181/High-Frequency+(Primary)+Telemetry+Fields",
        "per-port counters: SymbolErrorCounterExtended (errors not corrected by the PHY),"
        " LinkErrorRecoveryCounterExtended (times the port training state machine completed link error"
        " recovery), LinkDownedCounterExtended",
    ),
    # <<< sources: predictive-draining
    # >>> sources: pue-carbon-shifting
    "eia-co2-per-kwh-2022": Source(
        "How much carbon dioxide is produced per kilowatthour of U.S. electricity generation? (FAQ 74)",
        "U.S. Energy Information Administration",
        2023,
        "https://www.eia.gov/tools/faqs/faq.php?id=74&t=11",
        "Table 'U.S. electricity net generation and resulting CO2 emissions by fuel in 2022' (pounds per kWh:"
        " coal 2.30, natural gas 0.97, petroleum 2.38); data from the State Electricity Profiles, U.S. Profile,"
        " Tables 5 and 7",
    ),
    "google-environmental-report-2024": Source(
        "Google 2024 Environmental Report",
        "Google",
        2024,
        "https://blog.google/outreach-initiatives/sustainability/2024-environmental-report/",
        "Data centers: 'In 2023, the average annual power usage effectiveness for our data centers was 1.10"
        " compared with the industry average of 1.58'",
    ),
    "uptime-pue-2023": Source(
        "Large data centers are mostly more efficient, analysis confirms (Uptime Intelligence Update 221)",
        "Uptime Institute (J. Davis, J. O'Brien)",
        2023,
        "https://intelligence.uptimeinstitute.com/resource/large-data-centers-are-mostly-more-efficient-analysis-confirms",
        "'In 2023, industry average PUE stood at 1.58', from the Uptime Institute Global Data Center Survey",
    ),
    "eia-930": Source(
        "Hourly Electric Grid Monitor (Form EIA-930): net generation by energy source, PJM, 2022",
        "U.S. Energy Information Administration",
        2022,
        "https://www.eia.gov/electricity/gridmonitor/",
        "Bulk file EBA.zip, respondent PJM; vendored via HewlettPackard/dc-rl commit a92b475"
        " (models/datasets/README.md)",
    ),
    "tmyx-leesburg": Source(
        "TMYx typical meteorological year, Leesburg Executive Airport (WMO 724055), 2007-2021",
        "Climate.OneBuilding.org, from NOAA NCEI Integrated Surface Database and ERA5",
        2022,
        "https://climate.onebuilding.org/",
        "USA_VA_Leesburg.Exec.AP-Godfrey.Field.724055_TMYx, dry-bulb temperature; vendored via"
        " HewlettPackard/dc-rl commit a92b475 (models/datasets/README.md)",
    ),
    "aslan2018": Source(
        "Electricity Intensity of Internet Data Transmission: Untangling the Estimates (Journal of Industrial"
        " Ecology 22(4), 785-798)",
        "J. Aslan, K. Mayers, J. G. Koomey, C. France",
        2018,
        "https://doi.org/10.1111/jiec.12630",
        "Abstract: 'a new estimate of 0.06 kWh/GB for 2015' for core and fixed-line access networks, which has"
        " 'decreased by half approximately every 2 years since 2000'",
    ),
    "siler-evans2012": Source(
        "Marginal Emissions Factors for the U.S. Electricity System (Environmental Science & Technology 46(9),"
        " 4742-4748)",
        "K. Siler-Evans, I. L. Azevedo, M. G. Morgan",
        2012,
        "https://doi.org/10.1021/es300145v",
        "Abstract: comparing marginal and average emissions factors, 'AEFs may grossly misestimate the avoided"
        " emissions resulting from an intervention'; regional MEFs by time of day from 2006-2011 hourly data",
    ),
    # <<< sources: pue-carbon-shifting
    # >>> sources: mfu-mbu
    "palm2022": Source(
        "PaLM: Scaling Language Modeling with Pathways (arXiv:2204.02311)",
        "A. Chowdhery, S. Narang, J. Devlin et al. (Google Research), JMLR 24 (2023)",
        2022,
        "https://arxiv.org/abs/2204.02311",
        "§4.1 Training Efficiency and Table 3 (MFU 45.7% without, 46.2% with self-attention; HFU 57.8% with"
        " rematerialization; 238.3K tokens/s at batch 2048 on 6144 TPU v4), Appendix B (model FLOPs per"
        " token 6N + 12LHQT), Table 1 (540B: 118 layers, 48 heads, head size 256), §5 (sequence length 2048)",
    ),
    "llama3-long-context": Source(
        "The Llama 3 Herd of Models (arXiv:2407.21783)",
        "Meta AI (A. Grattafiori, A. Dubey et al.)",
        2024,
        "https://arxiv.org/abs/2407.21783",
        "§3.4.2 Long Context Pre-Training: context length increased gradually in six stages, from the original"
        " 8K context window to the final 128K; 'This long-context pre-training stage was performed using"
        " approximately 800B training tokens' (no per-stage lengths or token counts)",
    ),
    "azure-ai-benchmarking-h100": Source(
        "AI Benchmarking Guide: Azure ND H100 v5 Benchmark Results (Azure_Results/ND_H100_v5_results.md)",
        "Microsoft Azure, Azure/AI-benchmarking-guide on GitHub",
        2024,
        "https://github.com/Azure/AI-benchmarking-guide/blob/8fd0c6e1bd0f853ef8f0500a3640a7d80a2a92ef/"
        "Azure_Results/ND_H100_v5_results.md",
        "§Microbenchmarks, HBM Bandwidth: Copy 2.90 TB/s (Mul 2.90, Add 2.97, Triad 2.97, Dot 3.18) on 'NVIDIA"
        " H100 80GB HBM3', measured with BabelStream's CUDA build (Benchmarks/HBMBandwidth.py); a cloud"
        " provider's measurement, not NVIDIA's",
    ),
    "ml-engineering-mamf": Source(
        "Machine Learning Engineering Open Book: Accelerators (compute/accelerator/README.md)",
        "S. Bekman, stas00/ml-engineering on GitHub (measurements with the book's mamf-finder.py)",
        2025,
        "https://github.com/stas00/ml-engineering/blob/b9e29720eebd4aa946fa9678975385efbc90a777/compute/accelerator/README.md",
        "§Maximum Achievable Matmul FLOPS comparison table, BF16: NVIDIA H100 SXM, MAMF 794.5 TFLOPS against"
        " 989 theoretical, efficiency 80.3%, best shape 2048x2048x13312, torch 2.7.0+cu126, mean of 100"
        " iterations after 50 warm-up; NVIDIA GH200 SXM (900W 141GB HBM3e version), MAMF 828.6 against 989,"
        " printed 83.6%, torch 2.6.0+cu126; a community benchmark, not NVIDIA's",
    ),
    "torchtitan": Source(
        "torchtitan: a PyTorch native platform for training generative AI models",
        "PyTorch (Meta)",
        2024,
        "https://github.com/pytorch/torchtitan/blob/9fd2b5172bcb9a5c49d18c75c3ab833abe990819/torchtitan/utils.py",
        "torchtitan/utils.py at commit 9fd2b51, get_num_flop_per_token: flop_per_token = 6 * num_params + 12 * l"
        " * h * q * t (attention's two matmuls, forward and backward, over the full sequence without the causal"
        " mask's halving); MFU = that × tokens per second / peak FLOP/s. Its num_params leaves out the input"
        " embedding (get_num_params with exclude_embedding), about 0.5% of Llama 3 405B's parameters; the scenes"
        " count all N, as the Llama 3 report's parameter count does",
    ),
    "google-tpu-v4": Source(
        "Cloud TPU v4 system architecture",
        "Google Cloud",
        2023,
        "https://cloud.google.com/tpu/docs/v4",
        "TPU v4 chip specifications: peak compute per chip 275 TFLOP/s (bf16 or int8)",
    ),
    "nvidia-a100-datasheet": Source(
        "NVIDIA A100 Tensor Core GPU datasheet",
        "NVIDIA",
        2021,
        "https://www.nvidia.com/content/dam/en-zz/Solutions/Data-Center/a100/pdf/"
        "nvidia-a100-datasheet-nvidia-us-2188504-web.pdf",
        "Specifications: BFLOAT16 Tensor Core 312 TFLOPS (624 TFLOPS with sparsity)",
    ),
    "narayanan2021-throughput": Source(
        "Efficient Large-Scale Language Model Training on GPU Clusters Using Megatron-LM",
        "D. Narayanan, M. Shoeybi, J. Casper, P. LeGresley, M. Patwary, V. Korthikanti, D. Vainbrand,"
        " P. Kashinkunti, J. Bernauer, B. Catanzaro, A. Phanishayee and M. Zaharia, SC '21 (ACM)",
        2021,
        "https://doi.org/10.1145/3458817.3476209",
        "§5.1 and Table 1, the 1008B row: 160 heads, hidden size 25600, 128 layers, TP 8, PP 64, 3072 A100s,"
        " batch 3072, 163 TFLOP/s per GPU (52% of peak), 502.0 PFLOP/s; eq. (3) F = 96Bslh²(1 + s/6h +"
        " V/16lh) counts activation recomputation; sequence length 2048, vocabulary 51,200 (§5)",
    ),
    "llama31-model-card": Source(
        "Llama 3.1 model card (MODEL_CARD.md, meta-llama/llama-models)",
        "Meta",
        2024,
        "https://github.com/meta-llama/llama-models/blob/main/models/llama3_1/MODEL_CARD.md",
        "Hardware and Software, Training Energy Use: Llama 3.1 405B, 30.84M GPU hours on H100-80GB"
        " (cumulative training time)",
    ),
    "databricks-inference-2023": Source(
        "LLM Inference Performance Engineering: Best Practices",
        "Databricks (MosaicML engineering team)",
        2023,
        "https://www.databricks.com/blog/llm-inference-performance-engineering-best-practices",
        "Model Bandwidth Utilization (MBU): achieved bandwidth = (parameter bytes + KV cache bytes) / TPOT;"
        " worked example 7B parameters in 16-bit, TPOT 14 ms, 2 TB/s peak → MBU 50%; measured MBU 60% at"
        " batch 1 on 2×H100-80GB (Figure 3)",
    ),
    # <<< sources: mfu-mbu
    # >>> sources: capex-opex-tco
    "meta-10k-2024": Source(
        "Meta Platforms, Inc. Annual Report on Form 10-K for the fiscal year ended December 31, 2024",
        "Meta Platforms, Inc. (SEC filing)",
        2025,
        "https://www.sec.gov/cgi-bin/browse-edgar?action=getcompany&CIK=0001326801&type=10-K",
        "Note 1 (Use of estimates): estimated useful lives of most servers and network assets extended to"
        " 5.5 years, effective January 1, 2025",
    ),
    "amazon-10k-2024": Source(
        "Amazon.com, Inc. Annual Report on Form 10-K for the fiscal year ended December 31, 2024",
        "Amazon.com, Inc. (SEC filing, February 7, 2025)",
        2025,
        "https://www.sec.gov/cgi-bin/browse-edgar?action=getcompany&CIK=0001018724&type=10-K",
        "Part II, Item 7: useful lives of a subset of servers and networking equipment changed from six"
        " years to five, effective January 1, 2025",
    ),
    "microsoft-10k-2022": Source(
        "Microsoft Corporation Annual Report on Form 10-K for the fiscal year ended June 30, 2022",
        "Microsoft Corporation (SEC filing)",
        2022,
        "https://www.sec.gov/cgi-bin/browse-edgar?action=getcompany&CIK=0000789019&type=10-K",
        "Part II, Item 8, Note 1 (Property and equipment): estimated useful life of server and network"
        " equipment raised from four years to six, effective fiscal year 2023",
    ),
    "semianalysis-server-cost-2023": Source(
        "AI Server Cost Analysis – Memory Is The Biggest Loser",
        "SemiAnalysis (D. Patel, A. Nishball); figures as used by Epoch AI's training-cost-trends",
        2023,
        "https://www.semianalysis.com/p/ai-server-cost-analysis-memory-is",
        "DGX H100 bill of materials: sale price about $270,000 per server (May 2023 estimate)",
    ),
    "cottier2024": Source(
        "The rising costs of training frontier AI models (arXiv:2405.21015)",
        "Epoch AI (B. Cottier, R. Rahman, L. Fattorini, N. Maslej, D. Owen)",
        2024,
        "https://arxiv.org/abs/2405.21015",
        "§2 (Methods, amortized hardware CapEx): cluster-level interconnect taken as 19% of the cluster's"
        " hardware cost",
    ),
    "eia-epm-table-5-6a-2025-04": Source(
        "Electric Power Monthly, Table 5.6.A: Average Price of Electricity to Ultimate Customers by"
        " End-Use Sector, by State, April 2025 and 2024",
        "U.S. Energy Information Administration",
        2025,
        "https://www.eia.gov/electricity/monthly/epm_table_grapher.php?t=table_5_06_a",
        "Industrial column, April 2025 (data released June 25, 2025), cents per kWh",
    ),
    "google-environmental-report-2025": Source(
        "Google 2025 Environmental Report",
        "Google",
        2025,
        "https://www.gstatic.com/gumdrop/sustainability/google-2025-environmental-report.pdf",
        "Data centers: fleet-wide average annual power usage effectiveness of 1.09 in 2024",
    ),
    "uptime-survey-2021": Source(
        "Uptime Institute Global Data Center Survey 2021",
        "Uptime Institute",
        2021,
        "https://uptimeinstitute.com/2021-data-center-industry-survey-results",
        "average annual PUE of the respondents' largest data centre: 1.57",
    ),
    "cbre-dc-trends-h2-2023": Source(
        "North America Data Center Trends H2 2023",
        "CBRE Research",
        2024,
        "https://www.cbre.com/insights/reports/north-america-data-center-trends-h2-2023",
        "National lease pricing: average asking rate $163.44 per kW per month in 2023 (250-500 kW,"
        " N+1/Tier III), up 19% from $137.86 in 2022",
    ),
    # <<< sources: capex-opex-tco
    # >>> sources: cost-per-token
    "llama3-compute": Source(
        "The Llama 3 Herd of Models (arXiv:2407.21783)",
        "Meta AI (A. Grattafiori, A. Dubey et al.)",
        2024,
        "https://arxiv.org/abs/2407.21783",
        "§1 (Introduction): the flagship 405B model was pre-trained on 15.6T text tokens using 3.8 × 10²⁵ FLOPs",
    ),
    "deepseek-v3": Source(
        "DeepSeek-V3 Technical Report (arXiv:2412.19437)",
        "DeepSeek-AI",
        2024,
        "https://arxiv.org/abs/2412.19437",
        "§1 (Introduction), Table 1: 2.788M H800 GPU-hours (2,664K pre-training, 119K context extension, 5K"
        " post-training); at $2 per GPU-hour, $5.576M; 14.8T tokens; 671B total parameters, 37B activated"
        " per token (Abstract); §3.1 Compute Clusters (2,048 H800 GPUs, 8 per node on NVLink and NVSwitch,"
        " InfiniBand between nodes); §3.2 Training Framework (16-way pipeline, 64-way expert parallelism"
        " spanning 8 nodes, ZeRO-1 data parallelism, no tensor parallelism); §3.2.2 (NVLink 160 GB/s"
        " achieved, IB 50 GB/s); §3.3 FP8 Training",
    ),
    "llama31-405b-api-prices": Source(
        "Llama 3.1 405B API provider pricing (Together AI, Fireworks)",
        "InferenceBench price tracker (providers' listed prices)",
        2025,
        "https://inferencebench.io/models/meta-llama/llama-3.1-405b/",
        "Provider pricing: OpenRouter $1.00, Fireworks $3.00 and Together AI $3.50 per million input and"
        " output tokens",
    ),
    "artificialanalysis-llama31-405b": Source(
        "Llama 3.1 Instruct 405B: API provider benchmarking and analysis",
        "Artificial Analysis (price tracker; providers' listed prices)",
        2025,
        "https://artificialanalysis.ai/models/llama-3-1-instruct-405b/providers",
        "Lowest price, blended per 1M tokens at a 3:1 input:output ratio: Amazon Bedrock Standard $2.40,"
        " Bedrock Latency Optimized $3.00, Azure $8.00",
    ),
    "deepseek-inference-overview": Source(
        "Day 6, One More Thing: DeepSeek-V3/R1 Inference System Overview",
        "DeepSeek-AI (deepseek-ai/open-infra-index, 202502OpenSourceWeek)",
        2025,
        "https://github.com/deepseek-ai/open-infra-index/blob/main/202502OpenSourceWeek/"
        "day_6_one_more_thing_deepseekV3R1_inference_system_overview.md",
        "Statistics of DeepSeek's Online Service: over 24 hours (UTC+8 02/27/2025 12:00 PM to 02/28/2025"
        " 12:00 PM) peak node occupancy 278, average 226.75 nodes of 8 H800 GPUs, fewer nodes at night (given"
        " to research and training); $2 per GPU-hour, $87,072 a day; 608B input and 168B output tokens",
    ),
    # <<< sources: cost-per-token
    # >>> sources: spot-arbitrage
    "aws-spot-interruption-notices": Source(
        "Amazon EC2 User Guide: Spot Instance interruption notices",
        "Amazon Web Services",
        2025,
        "https://docs.aws.amazon.com/AWSEC2/latest/UserGuide/spot-instance-termination-notices.html",
        "first paragraphs: 'a warning that is issued two minutes before Amazon EC2 stops or terminates your Spot"
        " Instance'; 'Interruption notices are emitted on a best effort basis'",
    ),
    "gcp-spot-vms": Source(
        "Compute Engine documentation: Spot VMs",
        "Google Cloud",
        2026,
        "https://cloud.google.com/compute/docs/instances/spot",
        "§Preemption process, step 1 ('best effort and up to 30 seconds'); §Pricing ('up to 91% off');"
        " page last updated 2026-03-19",
    ),
    "gcp-preemptible-vms": Source(
        "Compute Engine documentation: Preemptible VM instances",
        "Google Cloud",
        2024,
        "https://cloud.google.com/compute/docs/instances/preemptible",
        "§What is a preemptible instance? ('a 60-91% discount'); §Limitations ('always stops preemptible"
        " instances after they run for 24 hours')",
    ),
    "azure-scheduled-events": Source(
        "Azure Metadata Service: Scheduled Events for Linux VMs",
        "Microsoft Learn",
        2024,
        "https://learn.microsoft.com/en-us/azure/virtual-machines/linux/scheduled-events",
        "§Event scheduling, minimum notice table: Preempt, 30 seconds",
    ),
    "aws-spot-advisor": Source(
        "Spot Instance Advisor",
        "Amazon Web Services",
        2025,
        "https://aws.amazon.com/ec2/spot/instance-advisor/",
        "'Frequency of interruption represents the rate at which Spot has reclaimed capacity during the trailing"
        " month', in bands <5%, 5-10%, 10-15%, 15-20%, >20%",
    ),
    "aws-spot-pricing": Source(
        "Amazon EC2 Spot Instances Pricing",
        "Amazon Web Services",
        2025,
        "https://aws.amazon.com/ec2/spot/pricing/",
        "'Spot Instances are available at a discount of up to 90% off compared to On-Demand pricing'",
    ),
    "aws-gpu-price-cut-2025": Source(
        "Announcing up to 45% price reduction for Amazon EC2 NVIDIA GPU-accelerated instances (What's New),"
        " with the EC2 On-Demand pricing page",
        "Amazon Web Services",
        2025,
        "https://aws.amazon.com/ec2/pricing/on-demand/",
        "p5.48xlarge, US East (N. Virginia), Linux, after the June 2025 reduction",
    ),
    "nextplatform-p5-2023": Source(
        "H100 GPU Instance Pricing On AWS: Grin And Bear It",
        "T. P. Morgan, The Next Platform",
        2023,
        "https://www.nextplatform.com/2023/07/27/h100-gpu-instance-pricing-on-aws-grin-and-bear-it/",
        "the P5 instance price table (p5.48xlarge on-demand at launch)",
    ),
    "aws-rebalance-recommendations": Source(
        "Amazon EC2 User Guide: EC2 instance rebalance recommendations",
        "Amazon Web Services",
        2025,
        "https://docs.aws.amazon.com/AWSEC2/latest/UserGuide/rebalance-recommendations.html",
        "first paragraphs: a signal 'when a Spot Instance is at elevated risk of interruption' that 'can arrive"
        " sooner than the two-minute Spot Instance interruption notice', or along with it; 'best effort'",
    ),
    "gcp-spot-pricing": Source(
        "Spot VMs pricing",
        "Google Cloud",
        2026,
        "https://cloud.google.com/spot-vms/pricing",
        "§How Spot VM pricing works: prices 'can change up to once every day' and give 'discounts of up to 91%';"
        " the per-region GPU rows were not read for this build",
    ),
    "silybench-gcp-a3-prices": Source(
        "silybench-data: GPU prices (derived/csv/gpu_prices.csv), a copy of Google's Cloud Billing Catalog",
        "T. Garg (second-hand; Google Cloud Billing Catalog API as the stated origin)",
        2026,
        "https://github.com/tgarg01/silybench-data/blob/045df3bf56b8d62c58f108fc43cb397306b83331/derived/csv/"
        "gpu_prices.csv",
        "rows gcp H100-80GB spot and on-demand, a3-highgpu-1g, us-central1, checked_at 2026-09-26",
    ),
    # <<< sources: spot-arbitrage
    # >>> sources: placement-tax
    "semianalysis-inferencex-gb200-b200-r1": Source(
        "GB200 NVL72 vs B200 on DeepSeek R1 670B: Up to 4.4x Throughput per GPU at 125 tok/s/user (InferenceX blog)",
        "SemiAnalysis",
        2026,
        "https://inferencex.semianalysis.com/blog/gb200-nvl72-vs-b200-disagg-deepseek-r1-fp4-dynamo-trt",
        "lede: DeepSeek R1 0528 FP4 1k/1k, Dynamo TRT-LLM + MTP, disaggregated prefill/decode on both; 'up to 4.39x"
        " throughput per GPU vs B200 at iso-interactivity, peaking at 125 tok/s/user (4,130 tok/s/GPU on GB200"
        " NVL72 vs 941 tok/s/GPU on B200)'; decode EP up to 32 on NVL72, capped at EP = 8 on B200 over RoCEv2;"
        " network-bound band about 75-175 tok/s/user",
    ),
    "semianalysis-inferencex-gb300-gb200": Source(
        "GB300 NVL72 vs GB200 NVL72 Inference Performance & Perf per Dollar on DeepSeek-V4-Pro 1.6T (InferenceX blog)",
        "SemiAnalysis",
        2026,
        "https://inferencex.semianalysis.com/blog/gb300-nvl72-vs-gb200-nvl72-dsv4-pro-vllm-fp4",
        "lede: 'After a 20% per-GPU TCO premium ($2.65 vs $2.21/GPU/hr per the SemiAnalysis AI Cloud TCO Model)'",
    ),
    "semianalysis-inferencex-pr381": Source(
        "feat(blog): GB200 NVL72 vs B200 disagg on DeepSeek R1 FP4 (SemiAnalysisAI/InferenceX-app pull request 381,"
        " merged 2026-05-26)",
        "SemiAnalysis (the blog post's authors)",
        2026,
        "https://github.com/SemiAnalysisAI/InferenceX-app/pull/381",
        "Headline numbers (InferenceX 2026-05-22, run 26306422380): peak iso-interactivity gap 4.39x at 125"
        " tok/s/user (4,130 vs 941 tok/s/GPU, spline-interpolated Pareto); peak throughput per GPU 14,659 vs 12,515"
        " (1.17x) where both run narrow EP = 4 + DP attention; B200 wins above about 250 tok/s/user by about 1.2x",
    ),
    "nvidia-slurm-block-scheduling": Source(
        "Achieving Peak System and Workload Efficiency on NVIDIA GB200 NVL72 with Slurm Block Scheduling"
        " (NVIDIA Technical Blog)",
        "NVIDIA",
        2026,
        "https://developer.nvidia.com/blog/?p=116606",
        "read: its opening sections only ('How is NVIDIA GB200 NVL72 architecture unique?'): 72 GPUs in 18"
        " compute trays; '1.8 TB/s bidirectional throughput per GPU, for a total of 130 TB/s aggregate';"
        " crossing the domain 'typically 50 GB/s (400 Gb/s) through InfiniBand or Ethernet'; the topology/block"
        " plugin treats an NVLink domain as a block, --segment sets the nodes that must share one",
    ),
    "nvidia-slurm-segment-sizing": Source(
        "Unlock Exascale Performance on NVIDIA GB200 NVL72 with Slurm Topology-Aware Job Scheduling"
        " (NVIDIA Technical Blog, read through a verbatim mirror and search excerpts)",
        "NVIDIA",
        2026,
        "https://blog.recruitology.com/?p=748946",
        "second-hand, in part: section 'What is the impact of segment size on node availability?': 'a simplified"
        " mathematical model' of 'the effective available cluster capacity' against the node unavailability"
        " rate λ; with --segment=9 'having only a single unavailable node means the domain can only contribute"
        " nine nodes'; the excerpt breaks off at what --segment=16 keeps, and the model's curve and values were"
        " not read",
    ),
    "skypilot-managed-jobs": Source(
        "SkyPilot documentation: Managed Jobs",
        "SkyPilot (UC Berkeley Sky Computing Lab)",
        2026,
        "https://docs.skypilot.co/en/latest/examples/managed-jobs.html",
        "read: managed jobs 'automatically retry failures, recover from spot instance preemptions, and clean up"
        " when done'; nothing on rack topology or defragmentation",
    ),
    "skypilot-priorities": Source(
        "SkyPilot documentation: Priority and Preemption (Kubernetes)",
        "SkyPilot (UC Berkeley Sky Computing Lab)",
        2026,
        "https://docs.skypilot.co/en/stable/reference/kubernetes/kubernetes-priorities.html",
        "read: priority-based scheduling, preemption and re-queuing through Kubernetes priority classes, 'only"
        " supported on Kubernetes'; no carving of contiguous racks",
    ),
    "coreweave-pricing-2026": Source(
        "CoreWeave pricing (coreweave.com/pricing), as transcribed on 2026-09-20 by the api-evangelist/coreweave"
        " plans file",
        "CoreWeave (transcript: API Evangelist)",
        2026,
        "https://github.com/api-evangelist/coreweave/blob/main/plans/coreweave-plans-pricing.yml",
        "second-hand (the pricing page itself not read): 'NVIDIA GB200 NVL72 (on-demand, North America)'"
        " $42.00 per hour for 4 GPUs; 'NVIDIA HGX B200 (on-demand)' $68.80 per hour for 8 GPUs; 'NVIDIA GB300"
        " NVL72 / HGX B300 (on-demand)' Contact sales; reserved capacity 'up to 60% discounts'",
    ),
    "meta-prometheus-news": Source(
        "Meta unveils plans for 1GW Prometheus and 5GW Hyperion AI superclusters (news report of Mark"
        " Zuckerberg's announcement, July 2025)",
        "Particle News",
        2025,
        "https://particle.news/story/meta-unveils-plans-for-1gw-prometheus-and-5gw-hyperion-ai-superclusters",
        "second-hand (the announcement itself not read): Prometheus, one gigawatt, New Albany, Ohio, to go"
        " online in 2026; no failure or MTBF figure; none found elsewhere",
    ),
    "placement-tax-video": Source(
        "Why $400,000/Day Vanishes in AI Clusters: The Scheduler Placement Tax (explainer video)",
        "SkildCore (video channel), uploaded 2026-11-07: claims audited on this page",
        2026,
        "",
        "the description and its 'key technical takeaways', as quoted on this page (placement, communication,"
        " bandwidth and 18 NVLink switch chips, serving, failure, hot spares, GR00T-N 1.7 measurement, money,"
        " defragmentation)",
    ),
    "nvidia-dgx-gb200-user-guide": Source(
        "NVIDIA DGX GB200 User Guide: Hardware",
        "NVIDIA",
        2025,
        "https://docs.nvidia.com/dgx/dgxgb200-user-guide/hardware.html",
        "Rack Configuration: 18 1RU compute trays of 2 Grace CPUs and 4 Blackwell GPUs, 9 1RU NVLink switch"
        " trays; DGX GB200 Compute Tray table, Networking: cluster network '4x NVIDIA ConnectX-7 single port 400G"
        " OSFP NIC', storage/management network 2x BlueField-3",
    ),
    # <<< sources: placement-tax
    # >>> sources: scenarios
    "deepseek-v3-architecture": Source(
        "DeepSeek-V3 Technical Report (arXiv:2412.19437)",
        "DeepSeek-AI",
        2024,
        "https://arxiv.org/abs/2412.19437",
        "§4.2 Hyper-Parameters: 61 Transformer layers, hidden dimension 7,168, 128 attention heads;"
        " per-head dimension 128, decoupled queries' and key's per-head dimension 64 (queries and keys 192, values"
        " 128 per head);"
        " MoE layers with 1 shared and 256 routed experts, 8 routed experts activated per token, each token"
        " sent to at most 4 nodes; maximum sequence length 4K in pre-training; batch size ramped from 3,072"
        " to 15,360 sequences over the first 469B tokens, then 15,360",
    ),
    "h800-getdeploying": Source(
        "NVIDIA H800 specifications",
        "GetDeploying (secondary: NVIDIA hosts no public H800 datasheet)",
        2025,
        "https://getdeploying.com/gpus/nvidia-h800",
        "NVLink at 400 GB/s bidirectional (900 GB/s on the H100); 80 GB HBM3; tensor-core throughput as"
        " the H100 SXM",
    ),
    "h800-waredb": Source(
        "NVIDIA H800 processor specifications",
        "WareDB (secondary: NVIDIA hosts no public H800 datasheet)",
        2025,
        "https://www.waredb.com/processor/nvidia-h800",
        "BF16 989.43 TFLOPS dense (1,978.86 TFLOPS with sparsity), as the H100 SXM",
    ),
    "h800-vs-h100-philisun": Source(
        "NVIDIA H800 vs H100: a technical deep dive",
        "Philisun (secondary: NVIDIA hosts no public H800 datasheet)",
        2025,
        "https://www.philisun.com/technical-analysis/nvidia-h800-vs-h100-a-technical-deep-dive-into-"
        "politically-defined-ai-chips/",
        "Core specification comparison: FP64 cut to 1 TFLOPS on the H800; NVLink 400 GB/s against 900 GB/s",
    ),
    "llama3-architecture-70b": Source(
        "The Llama 3 Herd of Models (arXiv:2407.21783)",
        "Meta AI (A. Grattafiori, A. Dubey et al.)",
        2024,
        "https://arxiv.org/abs/2407.21783",
        "§3.2 Model Architecture, Table 3, 70B column: 80 layers, model dimension 8,192, FFN dimension"
        " 28,672, 64 attention heads, 8 key/value heads",
    ),
    "llama31-model-card-70b": Source(
        "Llama 3.1 model card (MODEL_CARD.md, meta-llama/llama-models)",
        "Meta",
        2024,
        "https://github.com/meta-llama/llama-models/blob/main/models/llama3_1/MODEL_CARD.md",
        "Model Information (70B parameters; pretrained on ~15 trillion tokens); Hardware and Software,"
        " Training Energy Use: Llama 3.1 70B, 7.0M GPU hours on H100-80GB (cumulative training time);"
        " the GPU count of the 70B run is not published",
    ),
    # <<< sources: scenarios
    "irn2018": Source(
        "Revisiting Network Support for RDMA (IRN)",
        "R. Mittal, A. Shpiner, A. Panda, E. Zahavi, A. Krishnamurthy, S. Ratnasamy, S. Shenker, SIGCOMM 2018",
        2018,
        "https://doi.org/10.1145/3230543.3230557",
        "Abstract, read in the authors' extended version (arXiv 1806.08159): the need for PFC 'is an artifact of"
        " current RoCE NIC designs'; 'IRN (without PFC) outperforms RoCE (with PFC) by 6-83% for typical network"
        " scenarios'. Its design (selective retransmission in place of go-back-N) seen in a secondary summary only",
    ),
    "uec-design2025": Source(
        "Ultra Ethernet's Design Principles and Architectural Innovations (by the UE 1.0 specification's authors)",
        "T. Hoefler, K. Schramm, E. Spada, K. Underwood et al.",
        2025,
        "https://arxiv.org/abs/2508.08906",
        "Abstract (read): UE 1.0's transport, UET, is 'engineered for reliable, fast, and efficient communication';"
        " §2, ECMP Packet Spraying (seen in a secondary summary only): endpoints vary a per-packet entropy value so"
        " the switches' ECMP hash sprays one flow over many paths. The UE 1.0 specification itself was not read",
    ),
    "boto3-retries": Source(
        "Boto3 documentation: Retries",
        "Amazon Web Services",
        2024,
        "https://docs.aws.amazon.com/boto3/latest/guide/retries.html",
        "Legacy retry mode: 'Legacy mode is the default mode used by any Boto3 client you create'; 'a default value of"
        " 5 for maximum attempts (including the initial request)'; retries HTTP 429, 500, 502, 503, 504 and 509",
    ),
    "botocore-retry-standard": Source(
        "botocore (the AWS SDK for Python's core), botocore/retries/standard.py",
        "Amazon Web Services",
        2024,
        "https://github.com/boto/botocore/blob/develop/botocore/retries/standard.py",
        "class ExponentialBackoff, read in the source: _BASE = 2, _MAX_BACKOFF = 20; delay_amount 'implements"
        " truncated binary exponential backoff with jitter: t_i = rand(0, 1) * min(2 ** attempt, MAX_BACKOFF)"
        " where i is the request attempt (0 based)', so the first delay is rand(0, 1) seconds",
    ),
    "donti2019": Source(
        "How Much Are We Saving after All? Characterizing the Effects of Commonly Varying Assumptions on Emissions"
        " and Damage Estimates in PJM (Environmental Science & Technology 53(16), 9905-9914)",
        "P. L. Donti, J. Z. Kolter, I. L. Azevedo",
        2019,
        "https://doi.org/10.1021/acs.est.8b06586",
        "Abstract, read in a secondary copy of the ACS article: it tests 'average vs marginal emissions' among other"
        " assumptions for PJM's emissions factors, and finds that 'differing assumptions employed in these analyses"
        " could yield contradicting recommendations'",
    ),
}
