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


def build(constants: dict) -> dict[str, dict]:
    """Every entity kind the catalogue can name ($gpu.<key>), from the constants."""
    return {
        "gpu": {k: _gpu(constants, k, n) for k, n in (("h100", "H100 SXM"), ("h200", "H200 SXM"),
                                                        ("b200", "B200"), ("h800", "H800 SXM"))},
    }
