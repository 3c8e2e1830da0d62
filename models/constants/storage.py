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
    "aws_s3_small_get_median_latency": Constant(
        30e-3, "s", "aws-s3-performance", scope="per request",
        label="median latency of a small S3 GET (estimate)",
        note="AWS gives no number, only 'median latencies are often in the tens of milliseconds' for"
             " requests under 512 KB; 30 ms is an estimate inside that range (10-90 ms)",
    ),
    "aws_s3_small_request_bytes": Constant(
        512e3, "B", "aws-s3-performance", scope="per request",
        label="largest request AWS calls small (tens-of-milliseconds median latency)",
    ),
    "tail_at_scale_leaf_p50": Constant(
        1e-3, "s", "dean2013", scope="per request",
        label="median latency of one leaf request in Google's fan-out service",
    ),
    "tail_at_scale_leaf_p95": Constant(
        5e-3, "s", "dean2013", scope="per request",
        label="95th-percentile latency of one leaf request in Google's fan-out service",
    ),
    "tail_at_scale_leaf_p99": Constant(
        10e-3, "s", "dean2013", scope="per request",
        label="99th-percentile latency of one leaf request in Google's fan-out service",
    ),
    "zstd_decompression_speed": Constant(
        1.7e9, "B/s", "zstd-benchmark", PER_DIRECTION, "per worker",
        label="zstd level 1 decompression speed, one core",
        note="decompressed (output) bytes per second, one stream; Core i7-9700K at 4.9 GHz, Silesia corpus, lzbench",
    ),
    "llama3_vocabulary_tokens": Constant(
        128e3, "1", "llama3-tokenizer", scope="per job",
        label="vocabulary of the Llama 3 tokenizer (128K tokens)",
    ),
    "training_flops_per_param_token": Constant(
        6, "FLOP", "kaplan2020", scope="",
        label="training FLOPs per parameter per token (forward 2, backward 4)",
        note="C ≈ 6N per token, attention's context-dependent term left out",
    ),
    # <<< constants: scene 11
    # >>> constants: scene 12
    # <<< constants: scene 12
}
