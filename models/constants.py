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

from models.units import DAY, GB, MB, MINUTE, TB, Gbps, US

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
    # >>> sources: scene 02
    # >>> sources: scene 03
    # >>> sources: scene 04
    # >>> sources: scene 05
    # >>> sources: scene 06
    # >>> sources: scene 08
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
        2 * TB, "B/s", "llama3", scope="aggregate",
        label="Tectonic storage fabric, sustained throughput (Llama 3)",
        note="240 PB on 7,500 SSD servers; 2 TB/s sustained, 7 TB/s peak (§3.3.1)",
    ),
    "llama3_storage_peak_bw": Constant(
        7 * TB, "B/s", "llama3", scope="aggregate",
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
    # >>> constants: scene 02
    # >>> constants: scene 03
    # >>> constants: scene 04
    # >>> constants: scene 05
    # >>> constants: scene 06
    # >>> constants: scene 08
}


def const(name: str) -> float:
    """The value of a constant, by name; a clear KeyError for a typo."""
    try:
        return CONSTANTS[name].value
    except KeyError:
        raise KeyError(f"models/constants.py: no constant named {name!r}") from None
