"""One measured host-to-device shmoo, committed to the repository and loaded with its hash checked.

`vp_h100_bandwidthtest_h2d_pinned.csv`: NVIDIA's `bandwidthTest --mode=shmoo` from pinned memory to one H100
SXM5 of an 8-GPU bare-metal node (2x Xeon Platinum 8470, PCIe 5.0 x16), 81 copy sizes from 1 kB to 68 MB, as
the Voltage Park benchmarking repository's raw log gives them (provenance and what was done to it: README.md
in this folder). pcie-cxl fits t_0 + n/B to it and takes its largest copy as the headline's rate.

Its own module, not `__init__.py`: the pipeline's cache key covers the modules a model imports, so the hash
lives here, where a change to the file forces a change to the module pcie-cxl imports, and the other
datasets' scene keeps its key. Pure stdlib and numpy.
"""

from __future__ import annotations

import csv

import numpy as np

from models.datasets import HERE, DatasetHashError, sha256

SHMOO_FILE = "vp_h100_bandwidthtest_h2d_pinned.csv"
SHMOO_SHA256 = "c7267a711f6163992077cabeab5c37ea1fd358d2727d5d4330dc95f7faf7d1c7"
SHMOO_COLUMNS = ("transfer_bytes", "bandwidth_GBps")
SHMOO_ROWS = 81
# bandwidthTest reports decimal GB/s: bytes x iterations / 1e9 / seconds (bandwidthTest.cu)
GBPS = 1e9


def h2d_shmoo() -> dict:
    """The shmoo's copy sizes (B) and rates (B/s), in the file's order (ascending size)."""
    actual = sha256(SHMOO_FILE)
    if actual != SHMOO_SHA256:
        raise DatasetHashError(f"{HERE / SHMOO_FILE}: sha256 {actual} does not match the expected {SHMOO_SHA256};"
                               " update SHMOO_SHA256 in models/datasets/bandwidthtest.py and README.md only if"
                               " the change is intended")
    with open(HERE / SHMOO_FILE, newline="") as f:
        rows = list(csv.reader(f))
    if tuple(rows[0]) != SHMOO_COLUMNS or len(rows) - 1 != SHMOO_ROWS:
        raise DatasetHashError(f"{SHMOO_FILE}: header {rows[0]} and {len(rows) - 1} rows, expected "
                               f"{list(SHMOO_COLUMNS)} and {SHMOO_ROWS}")
    n = np.array([float(r[0]) for r in rows[1:]])
    bw = np.array([float(r[1]) for r in rows[1:]]) * GBPS
    return {"transfer_bytes": n, "bandwidth": bw}
