"""Cost per million tokens: what the scenario's pretraining run cost, and what a served token costs.

Both halves price GPU-hours at the owner's rate of capex-opex-tco (`models.lib.cost.cost_parts`:
depreciation, power, facility, staff, optics per GPU-hour, with the same inputs as capex-opex-tco's
catalogue entry).

Pretraining. The run's model FLOPs are 6·N·D (Kaplan 2020) plus attention over the context,
12·L·d·T per token (PaLM Appendix B; `models.training`, the count MFU is defined with and every
scene uses). At the achieved model FLOP/s per GPU the Llama 3 report prints (Table 4, 400 TFLOP/s;
its 41% MFU × the dense BF16 peak is about 406, so the 400 is the rounded figure) they take
FLOPs / FLOP/s GPU-seconds of compute; the job only computes for its effective training time E of
the wall clock (restarts, checkpoints), so the GPU-hours paid for are compute hours / E. Dollars = GPU-hours × rate; per
million training tokens = dollars / (D / 10⁶). Checked against the Llama 3 paper's 3.8×10²⁵ FLOPs
(6·N·D: the paper's figure leaves attention out) and the Llama 3.1 model card's 30.84M GPU-hours,
and set beside a second published run: DeepSeek-V3's 2.788M H800 GPU-hours at its stated $2 per
GPU-hour.

Serving (hbm-roofline's functions). The model is served in FP8 on the fewest whole nodes whose
HBM holds its weights (`serving_gpus`). One decode step for a batch of b sequences reads the weights
once and each sequence's KV cache (`decode_bytes`) and does b(2N + attention) FLOPs (`decode_flops`);
its time is the larger of bytes / (n·β·HBM bandwidth) and FLOPs / (n·β·peak). β is a bandwidth
measure (Databricks' MBU at batch 1 on two H100s, as mfu-mbu uses); applying it to the FLOP/s roof
and to every batch on n GPUs is an assumption the page states. The batch is
limited by the KV caches that fit beside the weights (`batch_that_fits`) and by the latency target
per output token. Output tokens per second are b / t(b); dollars per million output tokens =
n · rate / 3600 / (b / t(b)) · 10⁶. Prefill is compute-bound: 2N FLOPs per prompt token at the
training MFU (the achieved FLOP/s over the BF16 peak), applied to the FP8 peak the weights are served at:
an assumption the page states.

Token margins. A request mix (prompt share f) blends the prefill and decode costs at a typical batch; the
blend is per useful hour, the hourly cost over the serving utilisation u = DeepSeek's mean serving nodes over
its peak on one measured day (a fleet sized for the peak is idle the rest of the time, and pays for it),
beside u = 1 (the bound) and scene 22's low utilisation. The margin is 1 − blend / listed price.

Units: FLOP, seconds, bytes, USD; GPU-hours as plain numbers ("1") and prices per million tokens
as USD ("USD", named in the labels).
"""

from __future__ import annotations

import numpy as np

from models import scenario_facts
from models.constants.products import GPU
from models.exhibit import Column, Exhibit, Param, ParamError, Table, check, curves, model
from models.lib import decode as rl
from models.lib.collectives import ring_time
from models.lib.cost import FINANCE_PARAMS, RANGE_PARAMS, RATE_PARAMS, YEAR, cost_parts, tco_range
from models.lib.sweeps import including
from models.training import attention_flops_per_token, step_flops
from models.units import HOUR

MILLION = 1e6
# how close the modelled GPU-hours must land to the model card's: the run's published figures (FLOP/s,
# effective training time) carry two significant digits, so a few percent is their rounding, not a model error
GPU_HOURS_TOLERANCE = 0.05
# significant figures of a margin wherever it is shown (page prose and tables, animation, Explore panel): one
# precision, so the same margin never reads 69% in one place and 69.5% in another
MARGIN_DIGITS = 2

# the inputs the rate needs (the same names as in capex-opex-tco's catalogue entry)
RATE_INPUTS = ("gpus_per_node", *RATE_PARAMS, *FINANCE_PARAMS, "gpus")
# the inputs capex-opex-tco's tornado sweeps (its SWEPT), with the same catalogue values, but two: utilisation,
# because the run's effective training time already prices its idle hours, so the rate here counts every
# hour; and the optics replacements' ceiling, derived there from the fabric (a part under 1% of the rate)
RATE_SWEPT = (
    ("node_price", "node_price_low", "node_price_high"),
    ("useful_life", "economic_life", "useful_life_high"),
    ("cost_of_capital", "cost_of_capital_low", "cost_of_capital_high"),
    ("colocation", "colocation_low", "colocation_high"),
    ("network_share", "network_share_low", "network_share_high"),
    ("tariff", "tariff_low", "tariff_high"),
    ("pue", "pue_low", "pue_high"),
    ("staff_per_gpu_year", "staff_low", "staff_high"),
    ("storage_price_per_tb", "storage_price_low", "storage_price_high"),
    ("optics_price", "optics_price_low", "optics_price_high"),
)


def gpu_hour_rate(**inputs) -> float:
    """The owner's cost of one GPU-hour (USD/h, capex-opex-tco's rate), every hour counted."""
    return sum(cost_parts(inputs).values())


def rate_range(p: dict) -> tuple[float, float]:
    """The ends of capex-opex-tco's tornado for the rate, every hour counted (USD/h): each swept input
    at its low and high end, one at a time (models/lib/cost.py `tco_range`)."""
    return tco_range({k: p[k] for k in RATE_INPUTS}, {key: (p[lo], p[hi]) for key, lo, hi in RATE_SWEPT})


# --- pretraining -------------------------------------------------------------


def training_flops(params: float, tokens: float, flops_per_param_token: float, layers: int, context: int,
                   model_dim: int) -> dict:
    """6·N·D and the attention term over the context (PaLM's 12·L·d·T per token), FLOPs."""
    dense = step_flops(params, tokens, flops_per_param_token=flops_per_param_token)
    attention = attention_flops_per_token(layers, context, model_dim) * tokens
    return {"dense": dense, "attention": attention, "total": dense + attention}


def training_gpu_hours(flops: float, flops_per_gpu: float, effective_time: float) -> dict:
    """GPU-hours of compute at the achieved FLOP/s per GPU, and the wall-clock GPU-hours paid for (compute / E)."""
    compute = flops / flops_per_gpu / HOUR
    return {"compute": compute, "paid": compute / effective_time}


def cost_per_million(dollars: float, tokens: float) -> float:
    return dollars / (tokens / MILLION)


# --- serving -------------------------------------------------------------------


def decode_step_time(params, weight_bytes, batch, context, kv_per_token, layers, attn_dim, gpus, bandwidth,
                     peak):
    """Roofline time of one decode step on `gpus` GPUs: max(bytes / bandwidth, FLOPs / peak), at the
    bandwidth and FLOP/s the kernels achieve."""
    t_mem = rl.decode_bytes(params, weight_bytes, batch, context, kv_per_token) / (gpus * bandwidth)
    t_cmp = rl.decode_flops(params, batch, context, layers, attn_dim) / (gpus * peak)
    return np.maximum(t_mem, t_cmp), t_mem, t_cmp


def serving_cost_per_million(rate: float, gpus: int, batch, step_time):
    """USD per million output tokens: the GPUs' hourly cost over the tokens they emit in an hour."""
    tokens_per_s = np.asarray(batch, dtype=float) / step_time
    return gpus * rate / HOUR / tokens_per_s * MILLION

# --- the two halves, priced ---------------------------------------------------------


def pretraining(p: dict, rate: float) -> dict:
    """The Llama 3 run's FLOPs, GPU-hours and dollars, checked against the paper and the model card,
    beside DeepSeek-V3's stated cost."""
    fl = training_flops(p["model_params"], p["training_tokens"], p["flops_per_param_token"], p["layers"],
                        p["context"], p["model_dim"])
    hours = training_gpu_hours(fl["total"], p["flops_per_gpu"], p["effective_training_time"])
    dollars = hours["paid"] * rate
    flops_error = fl["dense"] / p["reported_flops"] - 1.0
    hours_error = hours["paid"] / p["reported_gpu_hours"] - 1.0
    # the assumption the page states: Table 4's FLOP/s counts attention, as MFU is defined. Had it
    # counted 6N only (as the paper's 3.8e25 does), the same wall time did only the dense FLOPs per second
    hours_if_6n = training_gpu_hours(fl["dense"], p["flops_per_gpu"], p["effective_training_time"])["paid"]
    check(abs(flops_error) < 0.01, "6·N·D matches the paper's 3.8×10²⁵ FLOPs (which leaves attention out) to within 1%")
    check(abs(hours_error) < GPU_HOURS_TOLERANCE, "the GPU-hours land within 5% of the model card's")
    ds_dollars = p["deepseek_gpu_hours"] * p["deepseek_rate"]
    check(rate < p["deepseek_rate"], "owning the GPUs costs less per hour than DeepSeek's assumed rental price")
    check(dollars > ds_dollars, "the Llama 3 run cost several times DeepSeek-V3's stated figure")
    return {"fl": fl, "hours": hours, "dollars": dollars,
            "per_m": cost_per_million(dollars, p["training_tokens"]), "days": hours["paid"] / p["gpus"] / 24,
            "flops_error": flops_error, "hours_error": hours_error, "hours_if_6n": hours_if_6n,
            "hours_error_if_6n": hours_if_6n / p["reported_gpu_hours"] - 1.0, "ds_dollars": ds_dollars,
            "ds_at_our_rate": p["deepseek_gpu_hours"] * rate,
            "ds_per_m": cost_per_million(ds_dollars, p["deepseek_tokens"])}


def decode_setup(p: dict, context: float, efficiency: float) -> dict:
    """The serving GPUs n, KV bytes per token, the batch whose KV caches fit beside the weights at `context`
    tokens per sequence (0 when none does) and the decode step time at the decode `efficiency`, as a function
    of the batch: the one setup the headline and the context and efficiency sweeps share."""
    gpu, n_params, w = p["gpu"], p["model_params"], p["serve_weight_bytes"]
    if p["model_dim"] < p["attention_heads"]:  # a head narrower than one value holds no KV cache
        raise ParamError("model_dim", p["model_dim"], f"at least the attention heads ({p['attention_heads']})")
    head_dim = p["model_dim"] // p["attention_heads"]
    n = rl.serving_gpus(n_params * w, gpu.hbm_capacity, p["gpus_per_node"])
    kv_tok = rl.kv_bytes_per_token(p["layers"], p["kv_heads"], head_dim, w)
    b_fit = rl.batch_that_fits(n * gpu.hbm_capacity - n_params * w, context * kv_tok)
    peak = gpu.peak_fp8 if w <= 1 else gpu.peak_bf16
    attn_dim = p["attention_heads"] * head_dim

    def step(batch):
        return decode_step_time(n_params, w, batch, context, kv_tok, p["layers"], attn_dim, n,
                                efficiency * gpu.hbm_bandwidth, efficiency * peak)

    return {"n": n, "kv_tok": kv_tok, "b_fit": b_fit, "peak": peak, "step": step}


def serving(p: dict, rate: float) -> dict:
    """Decode on the fewest nodes that hold the FP8 weights: the batch sweep up to what fits, the
    largest batch that meets the latency target, batch 1 and prefill."""
    gpu, n_params, w = p["gpu"], p["model_params"], p["serve_weight_bytes"]
    setup = decode_setup(p, p["serve_context"], p["decode_efficiency"])
    n, kv_tok, b_fit, peak, step = setup["n"], setup["kv_tok"], setup["b_fit"], setup["peak"], setup["step"]
    check(b_fit >= 1, "one sequence's KV cache fits beside the weights")
    b = including([x for x in p["batch_sweep"] if x <= b_fit], float(b_fit), float(p["typical_batch"]))
    check(p["typical_batch"] <= b_fit, "the typical batch fits in HBM")
    check(len(b) >= 2, "the batch sweep reaches past batch 1 inside HBM")
    beta = p["decode_efficiency"]
    t, t_mem, t_cmp = step(b)
    cost_out = serving_cost_per_million(rate, n, b, t)
    ok = t <= p["latency_target"]
    if not ok[0]:  # no batch to serve: every larger one steps slower still
        raise ParamError("latency_target", p["latency_target"],
                         f"at least batch 1's decode step, {float(t[0]):.3g} s with these weights, GPUs and "
                         "decode efficiency")
    best = int(np.nonzero(ok)[0][-1])
    check(bool(np.all(t_mem >= t_cmp)), "decode is memory-bound at every batch that fits")
    t1, t1_mem, _ = step(1.0)
    cost_b1 = float(serving_cost_per_million(rate, n, 1.0, t1))
    prefill_per_m = rate * (2.0 * n_params / (training_mfu(p) * peak)) / HOUR * MILLION
    check(cost_out[best] < p["api_price_low"],
          "at the largest batch that fits, the roofline cost is below every listed price")
    check(cost_b1 > p["api_price_high"], "at batch 1 a token costs more than any listed price")
    check(prefill_per_m < cost_out[0], "a prompt token costs less than an output token at batch 1")
    prompt_intensity = 2.0 * n_params * p["serve_context"] / (n_params * w)  # a whole prompt per weight read
    check(prompt_intensity > rl.ridge_point(beta * peak, beta * gpu.hbm_bandwidth), "prefill is compute-bound")
    t_ar = tp_allreduce_time(p, n, b)
    return {"n": n, "kv_tok": kv_tok, "b_fit": b_fit, "b": b, "t": t, "t_mem": t_mem, "t_cmp": t_cmp,
            "cost_out": cost_out, "best": best, "t1": t1, "cost_b1": cost_b1,
            "bw_bound_b1": n * rate / HOUR * float(t1_mem) * MILLION, "prefill_per_m": prefill_per_m,
            "t_ar": t_ar, "cost_out_with_ar": serving_cost_per_million(rate, n, b, t + t_ar),
            "all_b": np.arange(1.0, b_fit + 1.0), "all_t": step(np.arange(1.0, b_fit + 1.0))[0]}


def tp_allreduce_time(p: dict, gpus: int, batch):
    """Exposed time of one decode step's tensor-parallel all-reduces, a worst case: two per layer (after
    attention and after the MLP) of b·d BF16 activations, each a NCCL ring over the node's NVLink at
    the Ring/Simple per-step latency, none overlapped with the weight reads. Inference engines use
    lower-latency protocols and one-shot kernels, so the page quotes it as a bound, not in the headline."""
    per_step = 2 * p["layers"]
    message = np.asarray(batch, dtype=float) * p["model_dim"] * p["activation_bytes"]
    return per_step * ring_time(message, gpus, p["nvlink_bandwidth"] / 2.0, p["nvlink_step_latency"])


def blended(p: dict, rate: float, prefill_unit: float, decode_unit):
    """USD per million tokens over a request mix: input_share prompt tokens at the prefill cost, the rest
    output tokens at the decode cost. Both costs were computed at `prefill_unit`'s and `decode_unit`'s
    rate; they scale linearly with the GPU-hour rate."""
    f_in = p["input_share"]
    return rate * (f_in * prefill_unit + (1.0 - f_in) * np.asarray(decode_unit, dtype=float))


def serving_utilisation(p: dict) -> float:
    """The share of a fleet's paid hours that serving keeps busy: DeepSeek's mean node occupancy over its
    peak (a fleet sized for the peak, idle the rest of the day)."""
    return p["serving_mean_nodes"] / p["serving_peak_nodes"]


def token_margins(p: dict, rate: float, srv: dict) -> dict:
    """The blended cost per million tokens, owning the GPUs (scene 22's rate) and renting them on demand,
    at every batch that fits, per useful hour: the hourly cost over the serving utilisation u (idle hours
    are paid for too); the typical batch's margin against the listed prices, at u, at full use and at
    scene 22's low utilisation; the smallest batch that breaks even at each price (None when none does)."""
    n, u = srv["n"], serving_utilisation(p)
    check(0 < p["serving_utilisation_low"] < u <= 1, "the low utilisation lies below the measured one")
    # renting at the top of the market (on demand) and at DeepSeek's $2/h, a reserved-style rate
    rates = {"owner": rate, "rental": p["rental_node_price"] / p["gpus_per_node"], "rental_low": p["deepseek_rate"]}
    # the batch moves the cost per token more than the spread of hourly prices does (owning to renting on
    # demand): both matter, but the batch more (the rate alone still turns a margin into a loss)
    check(srv["cost_b1"] / float(srv["cost_out"][srv["best"]]) > max(rates.values()) / min(rates.values()),
          "batch size, more than the GPU's price, sets the price of a served token")
    prefill_unit = srv["prefill_per_m"] / rate  # per million prompt tokens per USD/h of rate
    out = {"rates": rates, "utilisation": u}
    for who, r in rates.items():
        curve = blended(p, r, prefill_unit, serving_cost_per_million(1.0, n, srv["b"], srv["t"])) / u
        every = blended(p, r, prefill_unit, serving_cost_per_million(1.0, n, srv["all_b"], srv["all_t"])) / u
        out[who] = {"curve": curve, "break_even": _first_batch_at_or_below(srv["all_b"], every, p["api_price_low"]),
                    "break_even_cheapest": _first_batch_at_or_below(srv["all_b"], every, p["api_price_cheapest"])}
    i = int(np.nonzero(srv["b"] == float(p["typical_batch"]))[0][0])
    out["typical"] = i
    for who in rates:
        cost = float(out[who]["curve"][i])
        out[who]["typical_cost"] = cost
        out[who]["margin"] = 1.0 - cost / p["api_price_low"]
        out[who]["margin_cheapest"] = 1.0 - cost / p["api_price_cheapest"]
        # the same tokens with every paid hour busy (the bound), and at scene 22's low utilisation
        for case, cost_u in (("full", cost * u), ("low_util", cost * u / p["serving_utilisation_low"])):
            out[who][f"cost_{case}"] = cost_u
            out[who][f"margin_{case}"] = 1.0 - cost_u / p["api_price_low"]
            out[who][f"margin_cheapest_{case}"] = 1.0 - cost_u / p["api_price_cheapest"]
    check(p["api_price_cheapest"] < p["api_price_blended_tracker"] < p["api_price_low"] < p["api_price_high"],
          "the listed prices are ordered cheapest, tracker blend, median, highest")
    check(float(np.median([p["api_price_cheapest"], p["api_price_low"], p["api_price_high"]])) == p["api_price_low"],
          "Fireworks' price is the median of the tracker's three")
    check(out["owner"]["typical_cost"] < out["rental"]["typical_cost"], "renting on demand costs more than owning")
    return out


def efficiency_sweep(p: dict, rate: float, srv: dict, mg: dict) -> list[dict]:
    """The owner's blended cost and margins at the typical batch and the measured utilisation, at each decode
    efficiency η of the sweep (the page's value among them): η scales both roofs, so a decode token costs 1/η;
    prefill keeps the training MFU. At the cheapest listed price η decides the sign of the margin."""
    u, b = mg["utilisation"], float(p["typical_batch"])
    prefill_unit = srv["prefill_per_m"] / rate
    rows = []
    for eta in including(p["decode_efficiency_sweep"], p["decode_efficiency"]):
        st = decode_setup(p, p["serve_context"], eta)
        t = float(st["step"](b)[0])
        cost = float(blended(p, rate, prefill_unit, serving_cost_per_million(1.0, st["n"], b, t))) / u
        rows.append({"efficiency": float(eta), "headline": bool(eta == p["decode_efficiency"]), "step_time": t,
                     "decode_cost": float(serving_cost_per_million(rate, st["n"], b, t)), "blended": cost,
                     "margin": 1.0 - cost / p["api_price_low"],
                     "margin_cheapest": 1.0 - cost / p["api_price_cheapest"]})
    return rows


def context_sweep(p: dict, rate: float, srv: dict, mg: dict) -> list[dict]:
    """At each context length per served sequence (the page's among them): how many sequences fit beside the
    weights, the largest that also meets the latency target, and its decode cost (the floor, per busy hour and
    per paid hour), and the owner's blended cost and margins at the typical batch where it still fits (None
    where it does not). A longer context leaves room for fewer KV caches, so fewer answers share each read."""
    u, typ = mg["utilisation"], float(p["typical_batch"])
    prefill_unit = srv["prefill_per_m"] / rate
    rows = []
    for c in including(p["serve_context_sweep"], p["serve_context"]):
        st = decode_setup(p, c, p["decode_efficiency"])
        row = {"context": float(c), "headline": bool(c == p["serve_context"]), "batch_fit": float(st["b_fit"]),
               "best_batch": None, "floor": None, "floor_paid": None, "blended": None, "margin": None,
               "margin_cheapest": None}
        if st["b_fit"] >= 1:
            all_b = np.arange(1.0, st["b_fit"] + 1.0)
            ok = np.nonzero(st["step"](all_b)[0] <= p["latency_target"])[0]
            if len(ok):
                best = float(all_b[ok[-1]])
                floor = float(serving_cost_per_million(rate, st["n"], best, st["step"](best)[0]))
                row.update(best_batch=best, floor=floor, floor_paid=floor / u)
            if typ <= st["b_fit"]:
                unit = serving_cost_per_million(1.0, st["n"], typ, st["step"](typ)[0])
                cost = float(blended(p, rate, prefill_unit, unit)) / u
                row.update(blended=cost, margin=1.0 - cost / p["api_price_low"],
                           margin_cheapest=1.0 - cost / p["api_price_cheapest"])
        rows.append(row)
    floors = [(r["context"], r["floor"], r["blended"]) for r in rows if r["floor"] is not None]
    for (c0, f0, b0), (c1, f1, b1) in zip(floors, floors[1:]):
        if c1 == 2 * c0:
            check(abs(f1 / f0 - 2.0) < 0.1, "doubling the context about doubles the floor")
            if b0 is not None and b1 is not None:
                check(b1 / b0 < f1 / f0, "the blended cost at a fixed batch moves much less than the floor")
    return rows


def _first_batch_at_or_below(batches, costs, price):
    """The smallest batch whose cost is at or below `price`, None when none is."""
    ok = np.nonzero(np.asarray(costs) <= price)[0]
    return float(batches[ok[0]]) if len(ok) else None


def latency_batch_with_allreduce(p: dict, rate: float, srv: dict) -> dict:
    """The largest batch whose step, with the worst-case all-reduces added, meets the latency target, its
    step time and its cost per million output tokens (all None when not even batch 1 does): the floor under
    that bound, since the full batch's step then misses the target."""
    t = srv["all_t"] + tp_allreduce_time(p, srv["n"], srv["all_b"])
    ok = np.nonzero(t <= p["latency_target"])[0]
    check(len(ok) > 0, "batch 1 meets the latency target even with the worst-case all-reduces")
    if not len(ok):
        return {"batch": None, "step_time": None, "cost": None}
    i = ok[-1]
    return {"batch": float(srv["all_b"][i]), "step_time": float(t[i]),
            "cost": float(serving_cost_per_million(rate, srv["n"], srv["all_b"][i], t[i]))}


def training_mfu(p: dict) -> float:
    """The run's MFU: the achieved model FLOP/s per GPU over the GPU's dense BF16 peak."""
    return p["flops_per_gpu"] / p["gpu"].peak_bf16


# --- what the page reads -------------------------------------------------------------


def summary_of(p: dict, rate: float, run: dict, srv: dict, mg: dict) -> dict:
    fl, hours, b, t, best = run["fl"], run["hours"], srv["b"], srv["t"], srv["best"]
    cost_best, t1 = float(srv["cost_out"][best]), srv["t1"]
    typ = mg["typical"]
    half_prefill = mg["owner"]["typical_cost"] + p["input_share"] * srv["prefill_per_m"] / mg["utilisation"]
    return {
        "rate": rate,
        "rate_low": rate_range(p)[0], "rate_high": rate_range(p)[1],
        "economic_life_years": p["economic_life"] / YEAR,
        "training_dollars_low": hours["paid"] * rate_range(p)[0],
        "training_dollars_high": hours["paid"] * rate_range(p)[1],
        "blended_owner_low": mg["owner"]["typical_cost"] * rate_range(p)[0] / rate,
        "blended_owner_high": mg["owner"]["typical_cost"] * rate_range(p)[1] / rate,
        "dense_flops": fl["dense"], "attention_flops": fl["attention"], "training_flops": fl["total"],
        "flops_error": run["flops_error"],
        "compute_gpu_hours": hours["compute"], "paid_gpu_hours": hours["paid"],
        "gpu_hours_error": run["hours_error"],
        "gpu_hours_tolerance": GPU_HOURS_TOLERANCE,
        "paid_gpu_hours_if_6n": run["hours_if_6n"], "gpu_hours_error_if_6n": run["hours_error_if_6n"],
        "training_days": run["days"], "training_dollars": run["dollars"], "per_million_training_tokens": run["per_m"],
        "achieved_flops_per_gpu": p["flops_per_gpu"], "mfu": training_mfu(p),
        "attention_share": fl["attention"] / fl["total"],
        "deepseek_dollars": run["ds_dollars"], "deepseek_at_our_rate": run["ds_at_our_rate"],
        "deepseek_per_million": run["ds_per_m"],
        # like for like: both runs' GPU-hours at one rate (either rate gives the same ratio)
        # pretraining against pretraining: DeepSeek's Table 1 stage without context extension and post-training
        "llama_over_deepseek": hours["paid"] / p["deepseek_pretraining_gpu_hours"],
        "deepseek_pretraining_at_its_rate": p["deepseek_pretraining_gpu_hours"] * p["deepseek_rate"],
        "deepseek_pretraining_at_our_rate": p["deepseek_pretraining_gpu_hours"] * rate,
        "deepseek_pretraining_per_million_at_our_rate": cost_per_million(p["deepseek_pretraining_gpu_hours"] * rate,
                                                                         p["deepseek_tokens"]),
        # the effective training time the model card's hours imply, with attention counted and with 6N only
        "implied_effective_time": hours["compute"] / p["reported_gpu_hours"],
        "implied_effective_time_if_6n": hours["compute"] * fl["dense"] / fl["total"] / p["reported_gpu_hours"],
        "llama_at_deepseek_rate": hours["paid"] * p["deepseek_rate"],
        "serving_gpus": srv["n"], "kv_bytes_per_sequence": p["serve_context"] * srv["kv_tok"],
        "batch_fit": srv["b_fit"],
        "best_batch": float(b[best]), "best_step_time": float(t[best]), "best_cost": cost_best,
        # the floor per paid hour: a peak-sized fleet busy u of its hours
        "best_cost_per_paid_hour": cost_best / mg["utilisation"],
        "best_tokens_per_s_per_gpu": float(b[best] / t[best] / srv["n"]),
        "latency_binds": bool(best < len(b) - 1),
        "batch1_step_time": float(t1), "batch1_cost": srv["cost_b1"], "batch1_bandwidth_bound": srv["bw_bound_b1"],
        "batch1_tokens_per_s": float(1.0 / t1),
        "prefill_per_million": srv["prefill_per_m"],
        "batch1_over_best": srv["cost_b1"] / cost_best,
        "training_dollars_if_6n": run["hours_if_6n"] * rate,
        # the tensor-parallel all-reduces, a worst case kept out of the headline
        "allreduces_per_step": 2 * p["layers"],
        "allreduce_time_b1": float(srv["t_ar"][0]), "allreduce_time_best": float(srv["t_ar"][best]),
        "batch1_cost_with_allreduce": float(srv["cost_out_with_ar"][0]),
        "best_cost_with_allreduce": float(srv["cost_out_with_ar"][best]),
        # token margins: a typical batch and request mix, owner's rate against on-demand rental
        "rental_rate": mg["rates"]["rental"],
        "typical_step_time": float(t[typ]), "typical_decode_cost": float(srv["cost_out"][typ]),
        "blended_owner": mg["owner"]["typical_cost"], "blended_rental": mg["rental"]["typical_cost"],
        "margin_owner": mg["owner"]["margin"], "margin_rental": mg["rental"]["margin"],
        # prefill at half the training MFU: a prompt token costs twice as much (per useful hour, as the blend)
        "blended_owner_half_prefill": half_prefill,
        "margin_owner_half_prefill": 1.0 - half_prefill / p["api_price_low"],
        "serving_utilisation": mg["utilisation"],
        # DeepSeek's own bill for its measured day: the occupied nodes only, at its $2/h
        "deepseek_serving_dollars_per_day": p["serving_mean_nodes"] * p["gpus_per_node"] * 24 * p["deepseek_rate"],
        **{f"{k}_{who}_{case}": mg[who][f"{k}_{case}"] for who in ("owner", "rental", "rental_low")
           for case in ("full", "low_util") for k in ("cost", "margin", "margin_cheapest")},
        "break_even_batch_owner": mg["owner"]["break_even"], "break_even_batch_rental": mg["rental"]["break_even"],
        # the cheapest listed price, and renting at DeepSeek's $2/h
        "margin_owner_cheapest": mg["owner"]["margin_cheapest"],
        "break_even_batch_owner_cheapest": mg["owner"]["break_even_cheapest"],
        "margin_rental_cheapest": mg["rental"]["margin_cheapest"],
        "break_even_batch_rental_cheapest": mg["rental"]["break_even_cheapest"],
        "rental_low_rate": mg["rates"]["rental_low"], "blended_rental_low": mg["rental_low"]["typical_cost"],
        "margin_rental_low": mg["rental_low"]["margin"],
        "margin_rental_low_cheapest": mg["rental_low"]["margin_cheapest"],
        "break_even_batch_rental_low": mg["rental_low"]["break_even"],
        "break_even_batch_rental_low_cheapest": mg["rental_low"]["break_even_cheapest"],
        # Table 4's three rows: the run's GPU-hours at each
        "paid_gpu_hours_table4_low": hours["paid"] * p["flops_per_gpu"] / p["flops_per_gpu_high"],
        "paid_gpu_hours_table4_high": hours["paid"] * p["flops_per_gpu"] / p["flops_per_gpu_low"],
        # the latency target with the worst-case all-reduces
        "best_step_time_with_allreduce": float(t[best] + srv["t_ar"][best]),
        **{f"latency_{k}_with_allreduce": v for k, v in latency_batch_with_allreduce(p, rate, srv).items()},
    }


def price_table(p: dict, run: dict, srv: dict, summ: dict) -> Table:
    best = srv["best"]
    rows = [
        ["Llama 3 405B pretraining, per million training tokens", run["per_m"],
         "its modelled GPU-hours at scene 22's rate"],
        # like for like with the row above: pretraining only, at the same owner's rate
        ["DeepSeek-V3 pretraining, per million training tokens", summ["deepseek_pretraining_per_million_at_our_rate"],
         "its pre-training GPU-hours (Table 1) at scene 22's rate"],
        ["prefill, per million prompt tokens", srv["prefill_per_m"], "compute-bound at the training MFU"],
        ["decode at batch 1, per million output tokens", srv["cost_b1"], "bandwidth-bound"],
        [f"decode at batch {int(srv['b'][best])}, per million output tokens", float(srv["cost_out"][best]),
         "largest batch that fits and meets the latency target"],
        [f"blended at batch {int(p['typical_batch'])}, owning the GPUs", summ["blended_owner"],
         f"{p['input_share']:.0%} prompt tokens, scene 22's rate, {summ['serving_utilisation']:.1%} utilisation"],
        [f"blended at batch {int(p['typical_batch'])}, renting on demand", summ["blended_rental"],
         "the same, at AWS's on-demand price"],
        # the tracker's three listed prices: the margins are read at the cheapest and the median
        ["published API price, cheapest", p["api_price_cheapest"], "listed price (OpenRouter)"],
        ["published API price, median", p["api_price_low"], "listed price (Fireworks)"],
        ["published API price, highest", p["api_price_high"], "listed price (Together AI)"],
    ]
    return Table("Dollars per million tokens", [Column("what", "text"), Column("USD per million tokens", "USD"),
                                                 Column("how", "text")], rows)


def animation_plan(p: dict, rate: float, run: dict, srv: dict, mg: dict) -> dict:
    """The run's FLOPs turned into GPU-hours and dollars over the rate's range, then one served answer at the
    best batch and at batch 1, then the owner's margin against the median listed price as the batch grows to
    the typical one."""
    best, answer = srv["best"], p["answer_tokens"]
    return {
        "flops": run["fl"]["total"], "gpu_hours": run["hours"]["paid"], "dollars": run["dollars"], "rate": rate,
        "flops_per_gpu": p["flops_per_gpu"],
        # scene 22's range of the hourly price, and the run's bill at each end
        "rate_low": rate_range(p)[0], "rate_high": rate_range(p)[1],
        "dollars_low": run["hours"]["paid"] * rate_range(p)[0], "dollars_high": run["hours"]["paid"] * rate_range(p)[1],
        "per_million": run["per_m"], "gpus": p["gpus"], "days": run["days"], "mfu": training_mfu(p),
        "answer_tokens": answer, "batch": float(srv["b"][best]), "step_time": float(srv["t"][best]),
        "answer_seconds": answer * float(srv["t"][best]),
        "answer_dollars": answer * float(srv["cost_out"][best]) / MILLION,
        "answer_dollars_b1": answer * srv["cost_b1"] / MILLION,
        "answer_seconds_b1": answer * float(srv["t1"]),
        # what the GPUs cost while the answer(s) run: the batch's bill, shared by its answers
        "spent_batch": answer * float(srv["cost_out"][best]) / MILLION * float(srv["b"][best]),
        "serving_gpus": srv["n"],
        # the margin beat: the owner's blended cost per useful hour along the batch sweep, the prices
        "margin_batches": [float(x) for x in srv["b"]],
        "margin_costs": [float(x) for x in mg["owner"]["curve"]],
        "typical_batch": float(p["typical_batch"]), "typical_cost": mg["owner"]["typical_cost"],
        "margin": mg["owner"]["margin"], "utilisation": mg["utilisation"],
        "price": p["api_price_low"], "price_cheapest": p["api_price_cheapest"],
    }


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
    flops_per_gpu=Param.positive("FLOP/s", "achieved model FLOP/s per GPU (BF16)"),
    flops_per_gpu_high=Param.positive("FLOP/s", "achieved model FLOP/s per GPU, Table 4's 8,192-GPU row"),
    flops_per_gpu_low=Param.positive("FLOP/s", "achieved model FLOP/s per GPU, Table 4's long-context row"),
    # above 0: a run that never computes trains nothing, at any number of paid hours
    effective_training_time=Param.number("1", "effective training time", above=0.0, maximum=1.0),
    reported_flops=Param.positive("FLOP", "training compute the Llama 3 paper reports"),
    reported_gpu_hours=Param.positive("1", "GPU-hours the Llama 3.1 model card reports for 405B"),
    # the owner's rate per GPU-hour: capex-opex-tco's inputs
    gpus=Param.integer("count", "GPUs in the cluster"),
    gpus_per_node=Param.integer("count", "GPUs per node", maximum=64),
    **RATE_PARAMS,
    **FINANCE_PARAMS,
    # the ends of capex-opex-tco's tornado (the same values), for the range of the rate
    **RANGE_PARAMS,
    economic_life=Param.positive("s", "economic life (assumption: shorter than the filings)", maximum=20 * YEAR),
    # the second run
    deepseek_gpu_hours=Param.positive("1", "DeepSeek-V3 training GPU-hours (H800), all stages"),
    deepseek_pretraining_gpu_hours=Param.positive("1", "DeepSeek-V3 pre-training GPU-hours (H800), Table 1's stage"),
    deepseek_rate=Param.positive("USD/h", "DeepSeek's assumed H800 rental price"),
    deepseek_tokens=Param.positive("count", "DeepSeek-V3 pretraining tokens"),
    # serving
    serve_weight_bytes=Param.positive("B", "bytes per weight and per KV value when serving (FP8)", maximum=8),
    serve_context=Param.positive("count", "tokens in context per served sequence (assumption)"),
    serve_context_sweep=Param.numbers("count", "context lengths per served sequence the page compares", minimum=1),
    latency_target=Param.positive("s", "latency target per output token"),
    # above 0: kernels that reach none of the bandwidth never finish a step
    decode_efficiency=Param.number("1", "decode kernels' share of peak HBM bandwidth (MBU measured at batch 1),"
                                   " assumed for the FLOP/s roof and every batch", above=0.0, maximum=1.0),
    decode_efficiency_sweep=Param.numbers("1", "decode efficiencies the page compares", above=0.0, maximum=1.0),
    batch_sweep=Param.numbers("count", "decode batch sizes", minimum=1),
    answer_tokens=Param.integer("count", "output tokens in one served answer (example)"),
    typical_batch=Param.integer("count", "decode batch of a typical deployment (assumption: batches are rarely full)"),
    input_share=Param.fraction("prompt tokens' share of all tokens served (assumption)"),
    rental_node_price=Param.positive("USD/h", "on-demand rental price of one 8-GPU node"),
    serving_peak_nodes=Param.positive("count", "serving fleet's peak node occupancy over a day (DeepSeek)"),
    serving_mean_nodes=Param.positive("count", "serving fleet's mean node occupancy over the day (DeepSeek)"),
    # above 0: a fleet that serves nothing has no cost per token
    serving_utilisation_low=Param.number("1", "serving utilisation, low end (scene 22's, an assumption)", above=0.0,
                                         maximum=1.0),
    activation_bytes=Param.positive("B", "bytes per activation value in the tensor-parallel all-reduce (BF16)",
                                    maximum=8),
    nvlink_bandwidth=Param.positive("B/s", "NVLink bandwidth per GPU, both directions"),
    nvlink_step_latency=Param.positive("s", "NCCL per-step NVLink latency, Ring/Simple"),
    api_price_low=Param.positive("USD", "published API price per million tokens, the tracker's median"),
    api_price_high=Param.positive("USD", "published API price per million tokens, highest listed"),
    api_price_cheapest=Param.positive("USD", "published API price per million tokens, cheapest on the tracker"),
    api_price_blended_tracker=Param.positive("USD", "a second tracker's lowest blended price (3:1 input:output)"),
)
def token_cost(model_params, training_tokens, flops_per_param_token, layers, model_dim, attention_heads,
               kv_heads, context, gpu, flops_per_gpu, effective_training_time, reported_flops, reported_gpu_hours, gpus,
               gpus_per_node, node_price, useful_life, network_share, storage_bytes_per_gpu,
               storage_price_per_tb, node_power, pue, tariff, colocation, staff_per_gpu_year,
               network_failures, observation_window, optics_price, cost_of_capital, node_price_low, node_price_high,
               economic_life, useful_life_high, cost_of_capital_low, cost_of_capital_high, network_share_low,
               network_share_high, storage_price_low, storage_price_high, pue_low, pue_high, tariff_low, tariff_high,
               colocation_low, colocation_high, staff_low, staff_high, optics_price_low, optics_price_high,
               deepseek_gpu_hours, deepseek_pretraining_gpu_hours, deepseek_rate,
               deepseek_tokens, serve_weight_bytes, serve_context, latency_target, decode_efficiency, batch_sweep,
               answer_tokens, api_price_low, api_price_high, typical_batch, input_share, rental_node_price,
               activation_bytes, nvlink_bandwidth, nvlink_step_latency, api_price_cheapest, flops_per_gpu_high,
               flops_per_gpu_low, api_price_blended_tracker, serving_peak_nodes, serving_mean_nodes,
               serving_utilisation_low, decode_efficiency_sweep, serve_context_sweep) -> Exhibit:
    p = dict(locals())
    rate = gpu_hour_rate(**{k: p[k] for k in RATE_INPUTS})
    run = pretraining(p, rate)
    srv = serving(p, rate)
    mg = token_margins(p, rate, srv)
    summ = summary_of(p, rate, run, srv, mg)
    eff = efficiency_sweep(p, rate, srv, mg)
    # whether the page may say every row of its utilisation and efficiency table keeps a margin at the median price
    summ["median_margin_every_row"] = bool(all(r["margin"] > 0 for r in eff) and mg["owner"]["margin_low_util"] > 0
                                           and mg["owner"]["margin_full"] > 0)
    return Exhibit(summary=summ,
                   series=curves("batch", srv["b"], step_time=srv["t"], memory_time=srv["t_mem"],
                                 compute_time=srv["t_cmp"], cost_per_million=srv["cost_out"],
                                 allreduce_time=srv["t_ar"], blended_owner=mg["owner"]["curve"],
                                 blended_rental=mg["rental"]["curve"],
                                 blended_rental_low=mg["rental_low"]["curve"]),
                   table=price_table(p, run, srv, summ), animation=animation_plan(p, rate, run, srv, mg),
                   problems={"half_mfu": {"mfu": training_mfu(p) / 2, "dollars": run["dollars"] * 2},
                             "rented": {"rate": p["deepseek_rate"],
                                        "dollars": run["hours"]["paid"] * p["deepseek_rate"]}},
                   records={"efficiency_sweep": eff,
                            "context_sweep": context_sweep(p, rate, srv, mg),
                            scenario_facts.RECORD: scenario_facts.published(
                       achieved_flops_per_gpu=p["flops_per_gpu"],
                       model_flops_per_token=run["fl"]["total"] / p["training_tokens"],
                       attention_share=run["fl"]["attention"] / run["fl"]["total"],
                       decode_bandwidth_efficiency=p["decode_efficiency"])})
