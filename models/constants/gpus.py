"""GPUs: tensor-core peaks, HBM bandwidth and capacity, power.

Each entry: value in SI base units, unit, source key (sources.py), direction, scope."""

from __future__ import annotations

from models.constants.base import SHARED, Constant
from models.units import GB, TB

CONSTANTS = {
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
        3.35 * TB, "B/s", "nvidia-h100-datasheet", SHARED, "per GPU",
        label="H100 SXM HBM3 bandwidth",
        note="reads and writes share the memory bus; the datasheet figure is their total",
    ),
    "h100_hbm_capacity": Constant(
        80 * GB, "B", "nvidia-h100-datasheet", scope="per GPU", label="H100 SXM HBM3 capacity",
        note="the datasheet prints 80GB without saying whether G is 10^9 or 2^30; read as 10^9, the smaller",
    ),
    # a measured ceiling for HBM on one H100 SXM (not the datasheet): BabelStream's copy kernel, which
    # counts the bytes read and the bytes written, as the datasheet's bandwidth does
    "h100_hbm_copy_measured": Constant(
        2.90 * TB, "B/s", "azure-ai-benchmarking-h100", SHARED, "per GPU",
        label="device-memory copy bandwidth measured on an H100 SXM (BabelStream Copy, Azure ND H100 v5)",
        note="HBM Bandwidth table: Copy 2.90, Mul 2.90, Add 2.97, Triad 2.97, Dot 3.18 TB/s on 'NVIDIA H100"
             " 80GB HBM3', CUDA 12.6, driver 560.35.03",
    ),
    # the same table's read-only kernel: decode streams weights and KV caches in and writes little, so its
    # HBM ceiling is a read stream's, not a copy's
    "h100_hbm_read_measured": Constant(
        3.18 * TB, "B/s", "azure-ai-benchmarking-h100", SHARED, "per GPU",
        label="device-memory read-only stream bandwidth measured on an H100 SXM (BabelStream Dot, Azure ND H100"
              " v5)",
        note="HBM Bandwidth table, Dot 3.18 TB/s: two arrays read and reduced, nothing written back but the sum;"
             " same run as h100_hbm_copy_measured",
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
        4.8 * TB, "B/s", "nvidia-h200-datasheet", SHARED, "per GPU",
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
    "gb200_bf16_dense_flops": Constant(
        2.5e15, "FLOP/s", "nvidia-gb200-nvl72", scope="per GPU",
        label="GB200 NVL72's Blackwell GPU dense BF16 tensor-core peak",
        note="GB200 NVL72 page: 360 PFLOP/s FP16/BF16 with sparsity for the rack's 72 GPUs; dense is half "
             "(the page's figure as recalled and quoted second-hand, not re-read for this constant)",
    ),
    # the GB200 NVL72's own Blackwell GPU: the rack's figures over its 72 GPUs (the case study's scenario)
    "gb200_fp8_dense_flops": Constant(
        5e15, "FLOP/s", "nvidia-gb200-nvl72", scope="per GPU",
        label="GB200 NVL72's Blackwell GPU dense FP8 tensor-core peak",
        note="GB200 NVL72 page: 720 PFLOP/s FP8 with sparsity for the rack's 72 GPUs; dense is half "
             "(as gb200_bf16_dense_flops: quoted second-hand, not re-read for this constant)",
    ),
    "gb200_hbm_bw": Constant(
        576 * TB / 72, "B/s", "nvidia-gb200-nvl72", SHARED, "per GPU",
        label="GB200 NVL72's Blackwell GPU HBM3e bandwidth",
        note="GB200 NVL72 page: 576 TB/s for the rack's 72 GPUs, 8 TB/s each; reads and writes share the bus "
             "(quoted second-hand, not re-read for this constant)",
    ),
    "gb200_hbm_capacity": Constant(
        186 * GB, "B", "nvidia-gb200-nvl72", scope="per GPU",
        label="GB200 NVL72's Blackwell GPU HBM3e capacity",
        note="GB200 NVL72 page: up to 13.4 TB HBM3e for the rack's 72 GPUs, 186 GB each (rounded down); "
             "quoted second-hand, not re-read for this constant",
    ),
    "b200_fp8_dense_flops": Constant(
        4.5e15, "FLOP/s", "nvidia-hgx-b200", scope="per GPU",
        label="B200 (HGX B200) dense FP8 tensor-core peak",
        note="HGX page: 9 PFLOP/s FP8/FP6 with sparsity; dense is half",
    ),
    "b200_hbm_bw": Constant(
        7.7 * TB, "B/s", "nvidia-hgx-b200", SHARED, "per GPU",
        label="B200 (HGX B200) HBM3e bandwidth",
        note="the HGX page's per-GPU figure (62 TB/s for 8 GPUs); launch material and the"
        " DGX B200 quote 8 TB/s (64 TB/s per 8 GPUs). Reads and writes share the bus",
    ),
    "b200_hbm_capacity": Constant(
        180 * GB, "B", "nvidia-hgx-b200", scope="per GPU",
        label="B200 (HGX B200) HBM3e capacity",
        note="192 GB in early announcements; 180 GB per HGX B200 GPU",
    ),
    "h100_sxm_tdp": Constant(
        700, "W", "nvidia-h100-datasheet", scope="per GPU",
        label="H100 SXM maximum thermal design power",
    ),
    # H800 (DeepSeek-V3's GPU): the H100 SXM's die with NVLink cut to 400 GB/s and FP64 to 1 TFLOP/s;
    # tensor-core peaks, HBM and power as the H100 SXM. NVIDIA hosts no public H800 datasheet: the
    # sources are secondary and say so (sources.py)
    "h800_bf16_dense_flops": Constant(
        989.5e12, "FLOP/s", "h800-waredb", scope="per GPU",
        label="H800 SXM dense BF16 tensor-core peak",
        note="989.43 TFLOP/s dense, 1,978.86 with sparsity: the H100 SXM's figure",
    ),
    "h800_fp8_dense_flops": Constant(
        1979e12, "FLOP/s", "h800-getdeploying", scope="per GPU",
        label="H800 SXM dense FP8 tensor-core peak", note="tensor-core throughput as the H100 SXM; dense is half"
        " the with-sparsity figure",
    ),
    "h800_hbm_bw": Constant(
        3.35 * TB, "B/s", "h800-getdeploying", SHARED, "per GPU", label="H800 SXM HBM3 bandwidth",
        note="as the H100 SXM; reads and writes share the memory bus",
    ),
    "h800_hbm_capacity": Constant(
        80 * GB, "B", "h800-getdeploying", scope="per GPU", label="H800 SXM HBM3 capacity",
    ),
    "h800_fp64_flops": Constant(
        1e12, "FLOP/s", "h800-vs-h100-philisun", scope="per GPU", label="H800 SXM FP64 peak",
        note="cut from the H100 SXM's 34 TFLOP/s (export control)",
    ),
    "h100_fp64_flops": Constant(
        34e12, "FLOP/s", "nvidia-h100-datasheet", scope="per GPU", label="H100 SXM FP64 peak (vector)",
        note="67 TFLOP/s on the FP64 tensor cores",
    ),
}
