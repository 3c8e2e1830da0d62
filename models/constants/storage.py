"""Storage and checkpointing: the storage fabric, checkpoint sizes, restart costs.

Each entry: value in SI base units, unit, source key (sources.py), direction, scope."""

from __future__ import annotations

from models.constants.base import PER_DIRECTION, Constant
from models.units import GB, MB, MINUTE, TB, US, GiB

CONSTANTS = {
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
    "daly_example_restart": Constant(
        10 * MINUTE, "s", "daly2006", scope="per job",
        label="restart time R in Daly's worked examples",
        note="Figs. 3-5 use R = 10 min; used here as a stated assumption, not a measurement",
    ),
    # >>> constants: scene 09
    "nvme_read_latency_qd1": Constant(
        92 * US, "s", "micron-9200-datasheet", scope="per drive",
        label="NVMe read latency at queue depth 1, typical (estimate, 92-150 us)",
        note="the Micron 9200's datasheet gives 92-150 us to media; the DGX H100 guide does not name its"
             " drives, so the low end is taken as an estimate for a data-center TLC drive",
    ),
    "dgx2_sysmem_to_gpu_bw": Constant(
        50 * GB, "B/s", "nvidia-gds-blog-2019", PER_DIRECTION, "per node",
        label="DGX-2: CPU system memory to GPUs, the limit NVIDIA states",
    ),
    "dgx2_storage_to_gpu_bw": Constant(
        200 * GB, "B/s", "nvidia-gds-blog-2019", PER_DIRECTION, "per node",
        label="DGX-2: host memory, local drives and NICs combined to GPUs, upper limit (\"nearly 200 GB/s\")",
    ),
    "kvikio_gds_threshold": Constant(
        1048576, "B", "kvikio-runtime-settings", scope="per request",
        label="KvikIO's default GDS threshold: smaller reads go through POSIX",
    ),
    "gdsio_nvme_cpuonly_read": Constant(
        3.227660 * GiB, "B/s", "nvidia-gds-nvme-test", PER_DIRECTION, "per drive",
        label="gdsio read into host memory only (CPUONLY), one NVMe drive, 4 threads, 1 MiB IOs",
    ),
    "gdsio_nvme_cpu_gpu_read": Constant(
        3.135021 * GiB, "B/s", "nvidia-gds-nvme-test", PER_DIRECTION, "per drive",
        label="gdsio read through a host bounce buffer into the GPU (CPU_GPU), same drive and settings",
    ),
    # <<< constants: scene 09
    # >>> constants: scene 11
    # <<< constants: scene 11
    # >>> constants: scene 12
    # <<< constants: scene 12
}
