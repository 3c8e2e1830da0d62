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
        0.90, "1", "llama3",
        label="effective training time of the Llama 3 405B run (share of wall time)",
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
    "llama3_405b_attention_width": Constant(
        128 * 128, "1", "llama3-architecture", label="attention width of Llama 3 405B: query heads × head size",
        note="§3.2, Table 3: 128 heads of 128; the H·Q of attention's FLOPs, 12·L·H·Q·T per token (PaLM B)",
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
    "llama3_tflops_per_gpu_8k_gpus": Constant(
        430e12, "FLOP/s", "llama3-parallelism", scope="per GPU",
        label="achieved BF16 throughput per GPU, Llama 3 405B on 8,192 GPUs (Table 4, first row, 8K sequence)",
    ),
    "llama3_tflops_per_gpu_131k": Constant(
        380e12, "FLOP/s", "llama3-parallelism", scope="per GPU",
        label="achieved BF16 throughput per GPU, Llama 3 405B at 131,072-token context "
              "(Table 4, last row: 16,384 GPUs, CP 16)",
    ),
    # Table 4's other two rows' configurations, named where cost-per-token brackets the run's hours with them
    "llama3_table4_gpus_small": Constant(
        8192, "1", "llama3-parallelism", scope="per job",
        label="GPUs in Table 4's first row (Llama 3 405B, 8K sequence)",
    ),
    "llama3_long_context_length": Constant(
        131072, "1", "llama3-parallelism", scope="per job",
        label="sequence length of the long-context stage (Table 4, last row: 131,072 tokens, CP 16)",
    ),
    "llama3_bf16_mfu": Constant(
        0.41, "1", "llama3-parallelism", scope="per GPU",
        label="BF16 model FLOPs utilisation of the Llama 3 405B run",
    ),
    # --- training arithmetic (models/training.py) ---
    "training_flops_per_param_token": Constant(
        6, "FLOP", "kaplan2020", scope="",
        label="training FLOPs per parameter per token (forward 2, backward 4)",
        note="C ≈ 6N FLOPs per training token, §2.1 and Table 1 of Kaplan et al.; attention's context term is"
        " added by models/training.py as PaLM counts it",
    ),
    # --- scenario deepseek-v3 (catalogue.yml `scenarios:`): DeepSeek-V3 on 2,048 H800s ---------------
    "deepseek_v3_params": Constant(
        671e9, "1", "deepseek-v3", scope="per job", label="parameters of DeepSeek-V3 (all experts)",
        note="a mixture of experts: every parameter is stored, 37B are active per token",
    ),
    "deepseek_v3_active_params": Constant(
        37e9, "1", "deepseek-v3", scope="per job", label="parameters of DeepSeek-V3 active per token",
        note="training FLOPs per token ≈ 6 × the active parameters",
    ),
    "deepseek_v3_gpus": Constant(
        2048, "1", "deepseek-v3", scope="per job", label="H800 GPUs in the DeepSeek-V3 cluster (§3.1)",
    ),
    "deepseek_v3_pipeline_parallel": Constant(
        16, "1", "deepseek-v3", scope="per job", label="pipeline-parallel degree of the DeepSeek-V3 run (§3.2)",
    ),
    "deepseek_v3_expert_parallel": Constant(
        64, "1", "deepseek-v3", scope="per job", label="expert-parallel degree of the DeepSeek-V3 run (§3.2)",
        note="spanning 8 nodes; the all-to-all it needs is not modelled by the dense scenes",
    ),
    "deepseek_v3_data_parallel": Constant(
        128, "1", "deepseek-v3", scope="per job",
        label="data-parallel degree of the DeepSeek-V3 run (ZeRO-1)",
        note="2,048 GPUs / 16 pipeline stages, no tensor parallelism (§3.2); the report names ZeRO-1 DP"
        " but not its degree, so this is derived",
    ),
    "deepseek_v3_layers": Constant(
        61, "1", "deepseek-v3-architecture", label="transformer layers of DeepSeek-V3 (§4.2)",
    ),
    "deepseek_v3_model_dim": Constant(
        7168, "1", "deepseek-v3-architecture", label="hidden dimension of DeepSeek-V3 (§4.2)",
    ),
    "deepseek_v3_attention_width": Constant(
        128 * (192 + 128) // 2, "1", "deepseek-v3-architecture",
        label="attention width of DeepSeek-V3 for attention's FLOPs: heads × mean of query-key and value head sizes",
        note="§4.2: 128 heads; multi-head latent attention scores with 192-wide queries and keys (128 + 64 for"
        " RoPE) and weights 128-wide values, so 12·L·H·Q·T becomes 12·L·H·(192 + 128)/2·T, not the hidden 7,168",
    ),
    "deepseek_v3_attention_heads": Constant(
        128, "1", "deepseek-v3-architecture", label="attention heads of DeepSeek-V3 (§4.2)",
    ),
    "deepseek_v3_sequence_length": Constant(
        4096, "1", "deepseek-v3-architecture", scope="per job",
        label="sequence length of DeepSeek-V3 pre-training (4K, §4.2)",
    ),
    "deepseek_v3_tokens_per_batch": Constant(
        15360 * 4096, "1", "deepseek-v3-architecture", scope="per step",
        label="tokens per global batch of DeepSeek-V3 (15,360 sequences of 4K)",
        note="after the ramp from 3,072 sequences over the first 469B tokens",
    ),
    "deepseek_v3_model_flops_per_gpu": Constant(
        # the same count every scene's step uses (models/training.py): 6N plus PaLM's attention term,
        # here 12 · 61 layers · 20,480 attention width · 4,096 tokens of context
        (6 * 37e9 + 12 * 61 * (128 * (192 + 128) // 2) * 4096) * 14.8e12 / (2664e3 * 3600),
        "FLOP/s", "deepseek-v3", scope="per GPU", estimate=(320e12, 510e12),
        label="model FLOP/s per GPU of the DeepSeek-V3 pre-training (estimate)",
        note="not published: (6 × 37e9 active parameters + attention's 12·L·H·Q·T at 4K context) × 14.8T tokens"
        " / 2,664K pre-training GPU-hours; FP8 GEMMs and the MTP module not counted, hence the range",
    ),
    "deepseek_v3_interruptions": Constant(
        52, "1", "llama3", scope="per job", estimate=(26, 105),
        label="unexpected interruptions of a 2,048-GPU job over 54 days (estimate)",
        note="DeepSeek publishes no interruption record: Llama 3's 419 in 54 days on 16,384 GPUs, scaled"
        " by GPU count (419 × 2,048 / 16,384); range ×0.5 to ×2",
    ),
    # --- data-prefetch's smaller model: Llama 3 8B (Table 3), on the same GPUs and batch
    "llama3_8b_params": Constant(8e9, "1", "llama3-architecture-8b", scope="per job", label="parameters of Llama 3 8B"),
    "llama3_8b_layers": Constant(32, "1", "llama3-architecture-8b", label="transformer layers of Llama 3 8B"),
    "llama3_8b_model_dim": Constant(4096, "1", "llama3-architecture-8b", label="model dimension of Llama 3 8B"),
    # --- scenario llama3-70b: Llama 3.1 70B on H100s ------------------------------------------------
    "llama3_70b_params": Constant(
        70e9, "1", "llama3-architecture-70b", scope="per job", label="parameters of Llama 3 70B",
    ),
    "llama3_70b_tokens": Constant(
        15e12, "1", "llama31-model-card-70b", scope="per job", label="pretraining tokens of Llama 3.1 70B",
        note="the model card's '~15 trillion tokens'",
    ),
    "llama3_70b_gpus": Constant(
        8192, "1", "llama31-model-card-70b", scope="per job", estimate=(4096, 16384),
        label="H100 GPUs in the Llama 3 70B run (estimate)",
        note="not published (the model card gives 7.0M GPU-hours only): assumed half the 405B run's 16,384;"
        " a 16,384-GPU cluster and a 4,096-GPU job bound it",
    ),
    "llama3_70b_gpu_hours": Constant(
        7.0e6, "1", "llama31-model-card-70b", scope="per job", label="H100 GPU-hours of Llama 3.1 70B training",
        note="cumulative training time as the model card reports it",
    ),
    "llama3_70b_layers": Constant(80, "1", "llama3-architecture-70b", label="transformer layers of Llama 3 70B"),
    "llama3_70b_model_dim": Constant(8192, "1", "llama3-architecture-70b", label="model dimension of Llama 3 70B"),
    "llama3_70b_attention_width": Constant(
        64 * 128, "1", "llama3-architecture-70b", label="attention width of Llama 3 70B: query heads × head size",
        note="64 heads of 128; the H·Q of attention's FLOPs",
    ),
    "llama3_70b_ffn_dim": Constant(28672, "1", "llama3-architecture-70b", label="FFN dimension of Llama 3 70B"),
    "llama3_70b_attention_heads": Constant(
        64, "1", "llama3-architecture-70b", label="attention (query) heads of Llama 3 70B",
    ),
    "llama3_70b_kv_heads": Constant(
        8, "1", "llama3-architecture-70b", label="key/value heads of Llama 3 70B (grouped-query attention)",
    ),
    "llama3_70b_interruptions": Constant(
        210, "1", "llama3", scope="per job", estimate=(105, 419),
        label="unexpected interruptions of the 70B job over 54 days (estimate)",
        note="not published for 70B: Llama 3 405B's 419 in 54 days on 16,384 GPUs, scaled by the estimated"
        " GPU count (419 × 8,192 / 16,384, rounded); range from ×0.5 to the 405B job's own count",
    ),
}
