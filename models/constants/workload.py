"""The scenario's workload: Llama 3 405B, its shapes, its run and its interruption record.

Each entry: value in SI base units, unit, source key (sources.py), direction, scope."""

from __future__ import annotations

from models.constants.base import Constant
from models.units import DAY

CONSTANTS = {
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
    "llama3_405b_layers": Constant(
        126, "1", "llama3-architecture", label="transformer layers of Llama 3 405B",
        note="§3.2, Table 3 of the Llama 3 report",
    ),
    "llama3_405b_model_dim": Constant(
        16384, "1", "llama3-architecture", label="model dimension of Llama 3 405B", note="§3.2, Table 3",
    ),
    "llama3_405b_ffn_dim": Constant(
        53248, "1", "llama3-architecture", label="FFN dimension of Llama 3 405B", note="§3.2, Table 3",
    ),
    "llama3_405b_attention_heads": Constant(
        128, "1", "llama3-architecture", label="attention (query) heads of Llama 3 405B", note="§3.2, Table 3",
    ),
    "llama3_405b_kv_heads": Constant(
        8, "1", "llama3-architecture", label="key/value heads of Llama 3 405B (grouped-query attention)",
        note="§3.2, Table 3",
    ),
    # --- the run's parallelism and throughput (Llama 3 report §3.3.2, Table 4, the 16,384-GPU row) ---
    "llama3_tensor_parallel": Constant(
        8, "1", "llama3-parallelism", scope="per job", label="tensor-parallel degree of the Llama 3 405B run",
    ),
    "llama3_context_parallel": Constant(
        1, "1", "llama3-parallelism", scope="per job",
        label="context-parallel degree of the Llama 3 405B run (8K-context stage)",
    ),
    "llama3_pipeline_parallel": Constant(
        16, "1", "llama3-parallelism", scope="per job", label="pipeline-parallel degree of the Llama 3 405B run",
    ),
    "llama3_data_parallel": Constant(
        128, "1", "llama3-parallelism", scope="per job", label="data-parallel degree of the Llama 3 405B run",
    ),
    "llama3_sequence_length": Constant(
        8192, "1", "llama3-parallelism", scope="per job", label="sequence length of the 8K-context stage",
    ),
    "llama3_sequences_per_dp_rank": Constant(
        16, "1", "llama3-parallelism", scope="per step",
        label="sequences per data-parallel rank per step (batch size / DP)",
    ),
    "llama3_tokens_per_batch": Constant(
        16 * 2**20, "1", "llama3-parallelism", scope="per step",
        label="tokens per global batch (16M)",
        note="Table 4 prints 16M; DP 128 × 16 sequences × 8,192 tokens = 16,777,216",
    ),
    "llama3_tflops_per_gpu": Constant(
        400e12, "FLOP/s", "llama3-parallelism", scope="per GPU",
        label="achieved BF16 throughput per GPU in the Llama 3 405B run",
    ),
    "llama3_bf16_mfu": Constant(
        0.41, "1", "llama3-parallelism", scope="per GPU",
        label="BF16 model FLOPs utilisation of the Llama 3 405B run",
    ),
    # --- training arithmetic (models/training.py) ---
    "training_flops_per_param_token": Constant(
        6, "FLOP", "kaplan2020", scope="",
        label="training FLOPs per parameter per token (forward 2, backward 4)",
        note="C ≈ 6N FLOPs per training token, §2.1 and Table 1 of Kaplan et al.; attention's context term left out",
    ),
}
