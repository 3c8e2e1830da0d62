"""Products as typed entities, built from the cited constants.

A group of constants that describes one product (a GPU) is exposed as one
frozen, self-checking object, so the catalogue can pass `$gpu.h100` instead of
a dozen values one by one. Each field is read from CONSTANTS, so every value
keeps its source, unit, direction and scope there; `sources()` names them.
"""

from __future__ import annotations

from dataclasses import dataclass, fields


@dataclass(frozen=True)
class GPU:
    """One GPU's datasheet figures, SI units (FLOP/s, B/s, B, W)."""

    key: str
    name: str
    peak_bf16: float  # dense tensor-core peak
    peak_fp8: float  # dense tensor-core peak
    hbm_bandwidth: float  # reads plus writes share it
    hbm_capacity: float

    def __post_init__(self):
        for f in fields(self):
            v = getattr(self, f.name)
            if isinstance(v, float) and not v > 0:
                raise ValueError(f"GPU {self.key}: {f.name} must be positive, got {v}")
        if self.peak_fp8 < self.peak_bf16:
            raise ValueError(f"GPU {self.key}: FP8 peak below BF16 peak")

    @property
    def ridge_bf16(self) -> float:
        """FLOP per byte at which the BF16 roofline turns flat."""
        return self.peak_bf16 / self.hbm_bandwidth


def _gpu(constants: dict, key: str, name: str) -> GPU:
    c = constants
    return GPU(key, name,
               peak_bf16=float(c[f"{key}_bf16_dense_flops"].value),
               peak_fp8=float(c[f"{key}_fp8_dense_flops"].value),
               hbm_bandwidth=float(c[f"{key}_hbm_bw"].value),
               hbm_capacity=float(c[f"{key}_hbm_capacity"].value))


# the constants each entity field is read from, for the page's sources
GPU_FIELDS = {"peak_bf16": "{key}_bf16_dense_flops", "peak_fp8": "{key}_fp8_dense_flops",
              "hbm_bandwidth": "{key}_hbm_bw", "hbm_capacity": "{key}_hbm_capacity"}


@dataclass(frozen=True)
class Server:
    """One AI server's bill of materials from its maker's guide: counts, SI units (B, B/s, W)."""

    key: str
    name: str
    host_cpu: str  # the host CPU's name: x86 sockets or Arm (Grace) chips
    storage_nic: str  # what carries storage and in-band management: ConnectX-7 cards or BlueField-3 DPUs
    gpus: int
    host_cpus: int
    compute_nics: int  # one per GPU: the scale-out fabric
    storage_nics: int
    gpu_nvlink_bw: float  # per GPU, both directions
    max_power: float | None  # the node's maximum system power; None where no source gives it

    def __post_init__(self):
        for name in ("gpus", "host_cpus", "compute_nics", "storage_nics"):
            if getattr(self, name) < 1:
                raise ValueError(f"Server {self.key}: {name} must be at least 1")
        if self.gpus % self.host_cpus:
            raise ValueError(f"Server {self.key}: GPUs must split evenly over the host CPUs")
        if self.max_power is not None and not self.max_power > 0:
            raise ValueError(f"Server {self.key}: max_power must be positive")

    @property
    def gpus_per_host_cpu(self) -> int:
        return self.gpus // self.host_cpus


def _servers(c: dict) -> dict[str, Server]:
    """The H100 node this scene models, and the two Blackwell-generation nodes beside it."""
    v = lambda k: c[k].value  # noqa: E731 - a reader's shorthand
    return {
        "dgx_h100": Server("dgx_h100", "DGX H100", "Xeon Platinum 8480C (x86)", "ConnectX-7",
                           int(v("dgx_h100_gpus")), int(v("dgx_h100_cpu_sockets")),
                           int(v("dgx_h100_compute_nics")), int(v("dgx_h100_storage_nics")),
                           float(v("h100_nvlink_bw")), float(v("dgx_h100_max_power"))),
        "dgx_b200": Server("dgx_b200", "DGX B200", "Xeon Platinum 8570 (x86)", "BlueField-3 DPU",
                           int(v("dgx_b200_gpus")), int(v("dgx_b200_cpu_sockets")),
                           int(v("dgx_b200_compute_nics")), int(v("dgx_b200_dpus")),
                           float(v("b200_nvlink_bw")), float(v("dgx_b200_max_power"))),
        "gb200_tray": Server("gb200_tray", "GB200 NVL72 compute tray", "Grace (Arm)", "BlueField-3",
                             int(v("gb200_tray_gpus")), int(v("gb200_tray_grace_cpus")),
                             int(v("gb200_tray_compute_nics")), int(v("gb200_tray_dpus")),
                             float(v("b200_nvlink_bw")), None),
    }


# the constants each server field is read from, for the page's sources
SERVER_CONSTANTS = {
    "dgx_h100": ("dgx_h100_gpus", "dgx_h100_cpu_sockets", "dgx_h100_compute_nics", "dgx_h100_storage_nics",
                 "h100_nvlink_bw", "dgx_h100_max_power"),
    "dgx_b200": ("dgx_b200_gpus", "dgx_b200_cpu_sockets", "dgx_b200_compute_nics", "dgx_b200_dpus",
                 "b200_nvlink_bw", "dgx_b200_max_power"),
    "gb200_tray": ("gb200_tray_gpus", "gb200_tray_grace_cpus", "gb200_tray_compute_nics", "gb200_tray_dpus",
                   "b200_nvlink_bw"),
}


def build(constants: dict) -> dict[str, dict]:
    """Every entity kind the catalogue can name ($gpu.<key>, $server.<key>), from the constants."""
    return {
        "gpu": {k: _gpu(constants, k, n) for k, n in (("h100", "H100 SXM"), ("h200", "H200 SXM"),
                                                        ("b200", "B200"), ("gb200", "GB200 NVL72 Blackwell GPU"),
                                                        ("h800", "H800 SXM"))},
        "server": _servers(constants),
    }
