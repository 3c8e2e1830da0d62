"""NVLink and NVSwitch: links per GPU, per-link and per-GPU bandwidth, domain sizes.

Each entry: value in SI base units, unit, source key (sources.py), direction, scope."""

from __future__ import annotations

from models.constants.base import BIDIRECTIONAL, PER_DIRECTION, Constant
from models.units import GB, TB, US

CONSTANTS = {
    # --- GPUs and links ---------------------------------------------------
    "h100_nvlink_bw": Constant(
        900 * GB, "B/s", "nvidia-h100-datasheet", BIDIRECTIONAL, "per GPU",
        label="H100 SXM NVLink bandwidth",
    ),
    "gh200_nvlink_c2c_bw": Constant(
        900 * GB, "B/s", "nvidia-grace-hopper-in-depth", BIDIRECTIONAL, "per GPU",
        label="NVLink-C2C between a Grace CPU and its Hopper GPU (GH200)",
        note="the host link of a Grace Hopper superchip, one GPU per CPU: both directions together, as NVIDIA"
             " quotes NVLink, so half of it each way; NVIDIA's comparison is an x16 PCIe Gen5 link",
    ),
    "h800_nvlink_bw": Constant(
        400 * GB, "B/s", "h800-getdeploying", BIDIRECTIONAL, "per GPU",
        label="H800 SXM NVLink bandwidth", note="the H100's 900 GB/s cut for export; DeepSeek-V3 reports"
        " 160 GB/s achieved per direction (§3.2.2)",
    ),
    "h800_nvlink_links": Constant(
        8, "1", "h800-getdeploying", scope="per GPU", label="NVLink links per H800 (fourth-generation NVLink)",
        note="derived: 400 GB/s / 50 GB/s per fourth-generation link; NVIDIA publishes no H800 link count",
    ),
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
    "hgx_b200_nvlink_switch_chips": Constant(
        2, "1", "nvidia-dgx-b200-guide", scope="per node",
        label="fifth-generation NVLink switch chips on the HGX B200 8-GPU baseboard",
        note="DGX B200 (an HGX B200 baseboard): 2 NVLink switches, 14.4 TB/s aggregate",
    ),
    "hgx_b200_nvlink_aggregate_bw": Constant(
        14.4 * TB, "B/s", "nvidia-dgx-b200-guide", BIDIRECTIONAL, "aggregate",
        label="HGX B200 NVLink switches, aggregate bandwidth",
        note="DGX B200: 2 fifth-generation NVLink switches that provide 14.4 TB/s aggregate (8 x 1.8 TB/s)",
    ),
    "h100_nvlink_measured_unidir": Constant(
        380 * GB, "B/s", "nccl-issue-1264-h100-p2p", PER_DIRECTION, "per GPU pair",
        label="H100 NVLink, one GPU pair, measured (p2pBandwidthLatencyTest)",
        note="one user's run on an 8 x H100 NVSwitch board, of 450 GB/s peak per direction; second-hand",
    ),
    "h800_nvlink_reported_unidir": Constant(
        160 * GB, "B/s", "deepseek-v3", PER_DIRECTION, "per GPU",
        label="H800 NVLink bandwidth as DeepSeek-V3 reports it for its cluster",
        note="§3.2.2: NVLink offers 160 GB/s, about 3.2 times IB's 50 GB/s; of 200 GB/s peak per direction;"
        " the paper does not say how it was measured",
    ),
    "nvl72_gpus": Constant(
        72, "1", "nvidia-gb200-nvl72", scope="per rack",
        label="GPUs in one GB200 NVL72 NVLink domain",
    ),
    "nvl72_nvlink_bw": Constant(
        130 * TB, "B/s", "nvidia-gb200-nvl72", BIDIRECTIONAL, "aggregate",
        label="GB200 NVL72 NVLink bandwidth",
        note="the sum over 72 GPUs of 1.8 TB/s each (129.6 TB/s), rounded",
    ),
    "nvlink_switch_ports": Constant(
        144, "1", "nvidia-nvlink", scope="per switch tray",
        label="NVLink ports on one NVLink Switch (an NVL72 switch tray)",
    ),
    "nvlink_switch_bw": Constant(
        14.4 * TB, "B/s", "nvidia-nvlink", BIDIRECTIONAL, "per switch tray",
        label="NVLink Switch non-blocking switching capacity",
    ),
    "nccl_nvlink_ring_simple_latency": Constant(
        3.4 * US, "s", "nccl-tuning", scope="per step",
        label="NCCL per-step NVLink latency, Ring/Simple",
        note="hwLat[NCCL_HW_NVLINK][NCCL_ALGO_RING][NCCL_PROTO_SIMPLE] in NCCL 2.20.3's tuning model",
    ),
}
