"""The scenario's training arithmetic, shared by every scene that needs a step time.

A dense transformer's training step costs about 6 FLOPs per parameter and token (forward 2,
backward 4; Kaplan et al. 2020, §2.1 and Table 1); attention over the context adds a term
that 6N leaves out. Divided by the achieved FLOP/s of the job's GPUs, that is the step time.
"""

from __future__ import annotations


def step_flops(model_params: float, tokens: float, flops_per_param_token: float = 6.0) -> float:
    """Training FLOPs of one batch: ≈ 6·P per token (forward 2P, backward 4P)."""
    return flops_per_param_token * model_params * tokens


def step_time(model_params: float, tokens: float, gpus: float, flops_per_gpu: float,
              flops_per_param_token: float = 6.0) -> float:
    """Seconds per step: 6·P·tokens / (GPUs × achieved FLOP/s per GPU)."""
    return step_flops(model_params, tokens, flops_per_param_token) / (gpus * flops_per_gpu)


def attention_flops_per_token(layers: int, context: int, model_dim: int) -> float:
    """Training FLOPs per token that 6N leaves out: attention over the context, 3 × 2·n_layer·n_ctx·d.

    Kaplan et al. (Table 1) count 2·n_layer·n_ctx·d_attn forward FLOPs per token, the score
    product only; the backward pass costs twice the forward (×3 in all). PaLM's Appendix B counts
    the scores and the weighted sum of values over the full context, 12·L·H·Q·T, twice this:
    scene 21 uses PaLM's count because MFU is defined with it. With a causal mask a query meets
    n_ctx/2 keys on average, so this function is also the work a causal kernel does.
    """
    return 6.0 * layers * context * model_dim
