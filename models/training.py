"""The scenario's training arithmetic, shared by every scene that needs a step time.

One FLOP count, the one MFU is defined with. Model FLOPs per training token of a dense decoder
(PaLM, Chowdhery et al. 2022, Appendix B; Meta's reference trainer torchtitan computes its MFU
with the same count, `get_num_flop_per_token`):

    F = 6·N + 12·L·H·Q·T

6N is the matmuls with the weights (forward 2N, backward 4N; Kaplan et al. 2020, §2.1). The second
term is self-attention over the context of T tokens, L layers of H heads of size Q: the scores QKᵀ
and the weighted sum of values, 2·T·H·Q FLOPs each per layer forward, ×3 with the backward. It is
counted over the full context, without the causal mask's halving, as both PaLM and torchtitan do.
The Llama 3 report's 400 TFLOP/s per GPU (Table 4) is model FLOPs per second in this sense, so the
step time is F × tokens per step / (GPUs × 400 TFLOP/s). Leave the shape at 0 for 6N alone.
"""

from __future__ import annotations

# FLOPs per weight per token: forward 2, backward 4 (Kaplan et al. 2020, §2.1 and Table 1)
DENSE_FLOPS_PER_PARAM_TOKEN = 6.0
# FLOPs per layer, per query head dimension, per context token: 2 matmuls × 2 FLOPs per
# multiply-add × 3 for forward and backward (PaLM Appendix B; torchtitan's comment on its factor 12)
ATTENTION_FLOPS_FACTOR = 12.0


def attention_flops_per_token(layers: int, context: int, attention_dim: int) -> float:
    """Attention's training FLOPs per token over the context: 12·L·(H·Q)·T (PaLM Appendix B).

    `attention_dim` is H·Q, the query heads times their size (the model dimension for Llama 3).
    """
    return ATTENTION_FLOPS_FACTOR * layers * attention_dim * context


def kaplan_attention_flops_per_token(layers: int, context: int, attention_dim: int) -> float:
    """Kaplan's count, for comparison only: 2·L·T·d forward (QKᵀ alone, Table 1), ×3 in training.

    Half of PaLM's term: it leaves out the weighted sum of values. The mfu-mbu page shows that only
    PaLM's count reproduces PaLM's published MFU.
    """
    return ATTENTION_FLOPS_FACTOR / 2.0 * layers * attention_dim * context


def model_flops_per_token(params: float, layers: int = 0, attention_dim: int = 0, context: int = 0,
                          flops_per_param_token: float = DENSE_FLOPS_PER_PARAM_TOKEN) -> float:
    """Model FLOPs per training token: 6·N + 12·L·H·Q·T (PaLM Appendix B; torchtitan's MFU)."""
    return flops_per_param_token * params + attention_flops_per_token(layers, context, attention_dim)


def attention_share(params: float, layers: int, attention_dim: int, context: int) -> float:
    """The attention term's share of the model FLOPs per token, 12·L·H·Q·T / (6N + 12·L·H·Q·T)."""
    return attention_flops_per_token(layers, context, attention_dim) / model_flops_per_token(
        params, layers, attention_dim, context)


def step_flops(model_params: float, tokens: float, layers: int = 0, attention_dim: int = 0, context: int = 0,
               flops_per_param_token: float = DENSE_FLOPS_PER_PARAM_TOKEN) -> float:
    """Model FLOPs of one batch of `tokens` tokens."""
    return model_flops_per_token(model_params, layers, attention_dim, context, flops_per_param_token) * tokens


def step_time(model_params: float, tokens: float, gpus: float, flops_per_gpu: float, layers: int = 0,
              attention_dim: int = 0, context: int = 0,
              flops_per_param_token: float = DENSE_FLOPS_PER_PARAM_TOKEN) -> float:
    """Seconds per step: model FLOPs of the batch / (GPUs × achieved model FLOP/s per GPU)."""
    return step_flops(model_params, tokens, layers, attention_dim, context, flops_per_param_token) / (
        gpus * flops_per_gpu)
