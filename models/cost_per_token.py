"""Cost per million tokens: what the scenario's pretraining run cost, and what a served token costs.

Both halves price GPU-hours at scene 22's rate (`models.capex_opex_tco.cost_parts`: depreciation, power,
facility, staff, optics per GPU-hour, with the same inputs as scene 22's catalogue entry).

Pretraining. The run's FLOPs are 6·N·D (Kaplan 2020; `models.training.step_flops`) plus attention
over the context (`attention_flops_per_token`, ×D). At the achieved MFU on the GPU's dense BF16 peak
they take FLOPs / (MFU · peak) GPU-seconds of compute; the job only computes for its effective training
time E of the wall clock (restarts, checkpoints), so the GPU-hours paid for are compute hours / E.
Dollars = GPU-hours × rate; per million training tokens = dollars / (D / 10⁶). Checked against the
Llama 3 paper's 3.8×10²⁵ FLOPs and the Llama 3.1 model card's 30.84M GPU-hours, and set beside a
second published run: DeepSeek-V3's 2.788M H800 GPU-hours at its stated $2 per GPU-hour.

Serving (scene 03's roofline functions). The model is served in FP8 on the fewest whole nodes whose
HBM holds its weights (`serving_gpus`). One decode step for a batch of b sequences reads the weights
once and each sequence's KV cache (`decode_bytes`) and does b(2N + attention) FLOPs (`decode_flops`);
its time is the larger of bytes / (n·HBM bandwidth) and FLOPs / (n·peak): the roofline, a lower
bound on real step times. The batch is limited by the KV caches that fit beside the weights
(`batch_that_fits`) and by the latency target per output token. Output tokens per second are
b / t(b); dollars per million output tokens = n · rate / 3600 / (b / t(b)) · 10⁶. Prefill is
compute-bound: 2N FLOPs per prompt token at the training MFU.

Units: FLOP, seconds, bytes, USD; GPU-hours as plain numbers ("1") and prices per million tokens
as USD ("USD", named in the labels).
"""

from __future__ import annotations

import numpy as np

from models import capex_opex_tco as tco
from models.constants.products import GPU
from models.exhibit import Column, Exhibit, Param, Table, check, curves, model
from models.lib import decode as rl
from models.training import attention_flops_per_token, step_flops
from models.units import HOUR

MILLION = 1e6

# scene 22's inputs the rate needs (the same names as in its catalogue entry)
RATE_INPUTS = ("gpus_per_node", "node_price", "useful_life", "network_share", "storage_bytes_per_gpu",
               "storage_price_per_tb", "node_power", "pue", "tariff", "colocation", "staff_per_gpu_year",
               "network_failures", "observation_window", "optics_price", "gpus")


def gpu_hour_rate(**inputs) -> float:
    """Scene 22's owner's cost of one GPU-hour (USD/h), every hour counted."""
    return sum(tco.cost_parts(inputs).values())


# --- pretraining -------------------------------------------------------------


def training_flops(params: float, tokens: float, flops_per_param_token: float, layers: int, context: int,
                   model_dim: int) -> dict:
    """6·N·D and the attention term over the context, FLOPs."""
    dense = step_flops(params, tokens, flops_per_param_token)
    attention = attention_flops_per_token(layers, context, model_dim) * tokens
    return {"dense": dense, "attention": attention, "total": dense + attention}


def training_gpu_hours(flops: float, peak: float, mfu: float, effective_time: float) -> dict:
    """GPU-hours of compute at MFU·peak, and the wall-clock GPU-hours paid for (compute / E)."""
    compute = flops / (mfu * peak) / HOUR
    return {"compute": compute, "paid": compute / effective_time}


def cost_per_million(dollars: float, tokens: float) -> float:
    return dollars / (tokens / MILLION)


# --- serving -------------------------------------------------------------------


def decode_step_time(params, weight_bytes, batch, context, kv_per_token, layers, attn_dim, gpus, bandwidth,
                     peak):
    """Roofline time of one decode step on `gpus` GPUs: max(bytes / bandwidth, FLOPs / peak)."""
    t_mem = rl.decode_bytes(params, weight_bytes, batch, context, kv_per_token) / (gpus * bandwidth)
    t_cmp = rl.decode_flops(params, batch, context, layers, attn_dim) / (gpus * peak)
    return np.maximum(t_mem, t_cmp), t_mem, t_cmp


def serving_cost_per_million(rate: float, gpus: int, batch, step_time):
    """USD per million output tokens: the GPUs' hourly cost over the tokens they emit in an hour."""
    tokens_per_s = np.asarray(batch, dtype=float) / step_time
    return gpus * rate / HOUR / tokens_per_s * MILLION


@model(
    # the run
    model_params=Param.positive("count", "parameters, N"),
    training_tokens=Param.positive("count", "pretraining tokens, D"),
    flops_per_param_token=Param.positive("FLOP", "training FLOPs per parameter per token"),
    layers=Param.integer("count", "transformer layers"),
    model_dim=Param.integer("count", "model dimension"),
    attention_heads=Param.integer("count", "attention heads"),
    kv_heads=Param.integer("count", "key/value heads"),
    context=Param.integer("count", "training sequence length"),
    gpu=Param.of(GPU, "GPU"),
    mfu=Param.fraction("model FLOPs utilisation (BF16)"),
    effective_training_time=Param.fraction("effective training time"),
    reported_flops=Param.positive("FLOP", "training compute the Llama 3 paper reports"),
    reported_gpu_hours=Param.positive("1", "GPU-hours the Llama 3.1 model card reports for 405B"),
    # scene 22's rate
    gpus=Param.integer("count", "GPUs in the cluster"),
    gpus_per_node=Param.integer("count", "GPUs per node", maximum=64),
    node_price=Param.positive("USD", "price of one 8-GPU server (estimate)"),
    useful_life=Param.positive("s", "useful life (straight-line depreciation)"),
    network_share=Param.number("1", "network share of cluster hardware cost", minimum=0, maximum=0.9),
    storage_bytes_per_gpu=Param.positive("B", "storage capacity per GPU"),
    storage_price_per_tb=Param.positive("USD", "storage hardware price per TB (assumption)"),
    node_power=Param.positive("W", "node maximum power"),
    pue=Param.number("1", "power usage effectiveness (PUE)", minimum=1.0, maximum=3.0),
    tariff=Param.positive("1", "industrial electricity price (USD per kWh)", maximum=2.0),
    colocation=Param.positive("1", "colocation rate (USD per kW-month)", maximum=5000.0),
    staff_per_gpu_year=Param.number("USD", "operations staff per GPU-year (assumption)", minimum=0),
    network_failures=Param.number("count", "network switch/cable interruptions in the snapshot", minimum=0),
    observation_window=Param.positive("s", "length of the snapshot"),
    optics_price=Param.number("USD", "price of one optics or cable replacement (assumption)", minimum=0),
    # the second run
    deepseek_gpu_hours=Param.positive("1", "DeepSeek-V3 training GPU-hours (H800)"),
    deepseek_rate=Param.positive("USD/h", "DeepSeek's assumed H800 rental price"),
    deepseek_tokens=Param.positive("count", "DeepSeek-V3 pretraining tokens"),
    # serving
    serve_weight_bytes=Param.positive("B", "bytes per weight and per KV value when serving (FP8)", maximum=8),
    serve_context=Param.positive("count", "tokens in context per served sequence (assumption)"),
    latency_target=Param.positive("s", "latency target per output token"),
    batch_sweep=Param.numbers("count", "decode batch sizes", minimum=1),
    answer_tokens=Param.integer("count", "output tokens in one served answer (example)"),
    api_price_low=Param.positive("USD", "published API price per million tokens, lowest listed"),
    api_price_high=Param.positive("USD", "published API price per million tokens, highest listed"),
)
def token_cost(model_params, training_tokens, flops_per_param_token, layers, model_dim, attention_heads,
               kv_heads, context, gpu, mfu, effective_training_time, reported_flops, reported_gpu_hours, gpus,
               gpus_per_node, node_price, useful_life, network_share, storage_bytes_per_gpu,
               storage_price_per_tb, node_power, pue, tariff, colocation, staff_per_gpu_year,
               network_failures, observation_window, optics_price, deepseek_gpu_hours, deepseek_rate,
               deepseek_tokens, serve_weight_bytes, serve_context, latency_target, batch_sweep,
               answer_tokens, api_price_low, api_price_high) -> Exhibit:
    p = dict(locals())
    rate = gpu_hour_rate(**{k: p[k] for k in RATE_INPUTS})

    # --- pretraining ---------------------------------------------------------------
    fl = training_flops(model_params, training_tokens, flops_per_param_token, layers, context, model_dim)
    hours = training_gpu_hours(fl["total"], gpu.peak_bf16, mfu, effective_training_time)
    dollars = hours["paid"] * rate
    per_m_train = cost_per_million(dollars, training_tokens)
    days = hours["paid"] / gpus / 24
    flops_error = fl["dense"] / reported_flops - 1.0
    hours_error = hours["paid"] / reported_gpu_hours - 1.0
    check(abs(flops_error) < 0.01, "6·N·D matches the paper's 3.8×10²⁵ FLOPs to within 1%")
    check(abs(hours_error) < 0.05, "the GPU-hours land within 5% of the model card's")
    ds_dollars = deepseek_gpu_hours * deepseek_rate
    ds_at_our_rate = deepseek_gpu_hours * rate
    ds_per_m = cost_per_million(ds_dollars, deepseek_tokens)
    check(rate < deepseek_rate, "owning the GPUs costs less per hour than DeepSeek's assumed rental price")
    check(dollars > ds_dollars, "the Llama 3 run cost several times DeepSeek-V3's stated figure")

    # --- serving ------------------------------------------------------------------------
    w = serve_weight_bytes
    head_dim = model_dim // attention_heads
    n = rl.serving_gpus(model_params * w, gpu.hbm_capacity, gpus_per_node)
    kv_tok = rl.kv_bytes_per_token(layers, kv_heads, head_dim, w)
    b_fit = rl.batch_that_fits(n * gpu.hbm_capacity - model_params * w, serve_context * kv_tok)
    check(b_fit >= 1, "one sequence's KV cache fits beside the weights")
    peak = gpu.peak_fp8 if w <= 1 else gpu.peak_bf16
    attn_dim = attention_heads * head_dim
    b = np.asarray(sorted({float(x) for x in batch_sweep if x <= b_fit} | {float(b_fit)}), dtype=float)
    check(len(b) >= 2, "the batch sweep reaches past batch 1 inside HBM")
    t, t_mem, t_cmp = decode_step_time(model_params, w, b, serve_context, kv_tok, layers, attn_dim, n,
                                       gpu.hbm_bandwidth, peak)
    cost_out = serving_cost_per_million(rate, n, b, t)
    ok = t <= latency_target
    check(ok[0], "a single sequence meets the latency target")
    best = int(np.nonzero(ok)[0][-1])
    check(bool(np.all(t_mem >= t_cmp)), "decode is memory-bound at every batch that fits")
    t1, t1_mem, _ = decode_step_time(model_params, w, 1.0, serve_context, kv_tok, layers, attn_dim, n,
                                     gpu.hbm_bandwidth, peak)
    cost_b1 = float(serving_cost_per_million(rate, n, 1.0, t1))
    bw_bound_b1 = n * rate / HOUR * float(t1_mem) * MILLION
    prefill_per_m = rate * (2.0 * model_params / (mfu * peak)) / HOUR * MILLION
    check(cost_out[best] < api_price_low,
          "at the largest batch that fits, the roofline cost is below every listed price")
    check(cost_b1 > api_price_high, "at batch 1 a token costs more than any listed price")
    check(prefill_per_m < cost_out[0], "a prompt token costs less than an output token at batch 1")
    check(cost_b1 / cost_out[best] > 10, "batch size, not the GPU's price, sets the price of a served token")
    prompt_intensity = 2.0 * model_params * serve_context / (model_params * w)  # a whole prompt per weight read
    check(prompt_intensity > rl.ridge_point(peak, gpu.hbm_bandwidth), "prefill is compute-bound")

    summary = {
        "rate": rate,
        "dense_flops": fl["dense"], "attention_flops": fl["attention"], "training_flops": fl["total"],
        "flops_error": flops_error,
        "compute_gpu_hours": hours["compute"], "paid_gpu_hours": hours["paid"], "gpu_hours_error": hours_error,
        "training_days": days, "training_dollars": dollars, "per_million_training_tokens": per_m_train,
        "achieved_flops_per_gpu": mfu * gpu.peak_bf16,
        "deepseek_dollars": ds_dollars, "deepseek_at_our_rate": ds_at_our_rate, "deepseek_per_million": ds_per_m,
        "llama_over_deepseek": dollars / ds_dollars,
        "serving_gpus": n, "kv_bytes_per_sequence": serve_context * kv_tok, "batch_fit": b_fit,
        "best_batch": float(b[best]), "best_step_time": float(t[best]), "best_cost": float(cost_out[best]),
        "best_tokens_per_s_per_gpu": float(b[best] / t[best] / n),
        "latency_binds": bool(best < len(b) - 1),
        "batch1_step_time": float(t1), "batch1_cost": cost_b1, "batch1_bandwidth_bound": bw_bound_b1,
        "batch1_tokens_per_s": float(1.0 / t1),
        "prefill_per_million": prefill_per_m,
        "batch1_over_best": cost_b1 / float(cost_out[best]),
    }
    series = curves("batch", b, step_time=t, memory_time=t_mem, compute_time=t_cmp, cost_per_million=cost_out)
    rows = [
        ["pretraining, per million training tokens", per_m_train, "Llama 3 405B at scene 22's rate"],
        ["DeepSeek-V3, per million training tokens", ds_per_m, "its stated GPU-hours × $2"],
        ["prefill, per million prompt tokens", prefill_per_m, "compute-bound at the training MFU"],
        ["decode at batch 1, per million output tokens", cost_b1, "bandwidth-bound"],
        [f"decode at batch {int(b[best])}, per million output tokens", float(cost_out[best]),
         "largest batch that fits and meets the latency target"],
        ["published API price, low", api_price_low, "listed price"],
        ["published API price, high", api_price_high, "listed price"],
    ]
    table = Table("Dollars per million tokens", [Column("what", "text"), Column("USD per million tokens", "USD"),
                                                  Column("how", "text")], rows)
    animation = {
        "flops": fl["total"], "gpu_hours": hours["paid"], "dollars": dollars, "rate": rate,
        "per_million": per_m_train, "gpus": gpus, "days": days,
        "answer_tokens": answer_tokens, "batch": float(b[best]), "step_time": float(t[best]),
        "answer_seconds": answer_tokens * float(t[best]),
        "answer_dollars": answer_tokens * float(cost_out[best]) / MILLION,
        "answer_dollars_b1": answer_tokens * cost_b1 / MILLION,
        "serving_gpus": n,
    }
    problems = {
        "half_mfu": {"mfu": mfu / 2, "dollars": dollars * 2},
        "rented": {"rate": deepseek_rate, "dollars": hours["paid"] * deepseek_rate},
    }
    return Exhibit(summary=summary, series=series, table=table, animation=animation, problems=problems)
