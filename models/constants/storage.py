"""Storage and checkpointing: the storage fabric, checkpoint sizes, restart costs.

Each entry: value in SI base units, unit, source key (sources.py), direction, scope."""

from __future__ import annotations

from models.constants.base import PER_DIRECTION, Constant
from models.units import GB, MB, MINUTE, TB

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
    # <<< constants: scene 09
    # >>> constants: scene 11
    # <<< constants: scene 11
    # >>> constants: scene 12
    # <<< constants: scene 12
}
