"""Tests for models/hbm_roofline.py (the hbm-roofline scene: HBM3e bandwidth and the roofline knee), its figure
and scene."""

from __future__ import annotations

import math

import numpy as np
import pytest

from models import hbm_roofline as r
from models.constants import CONSTANTS, SOURCES, const
from models.exhibit import ClaimError, ParamError
from models.lib import decode as dc
from pipeline.jsonio import to_json

GPUS = {
    "h100": (const("h100_bf16_dense_flops"), const("h100_hbm_bw")),
    "h200": (const("h200_bf16_dense_flops"), const("h200_hbm_bw")),
    "b200": (const("b200_bf16_dense_flops"), const("b200_hbm_bw")),
}
P = const("llama3_405b_params")
SCENE = "hbm-roofline"


@pytest.fixture(scope="module")
def data(model_output):
    return model_output(SCENE)[0]


@pytest.fixture(scope="module")
def params(scene_params):
    return scene_params(SCENE)


# --- constants: published values ----------------------------------------------------
def test_datasheet_values_dense_is_half_sparse():
    # H100 SXM datasheet: BF16 1,979 TFLOPS and FP8 3,958 TFLOPS "with sparsity"; 3.35 TB/s; 80 GB
    assert const("h100_bf16_dense_flops") == pytest.approx(1979e12 / 2)
    assert const("h100_fp8_dense_flops") == pytest.approx(3958e12 / 2)
    assert const("h100_hbm_bw") == pytest.approx(3.35e12)
    # H200 datasheet: same compute, 4.8 TB/s HBM3e, 141 GB
    assert const("h200_bf16_dense_flops") == const("h100_bf16_dense_flops")
    assert const("h200_hbm_bw") == pytest.approx(4.8e12) and const("h200_hbm_capacity") == 141e9
    # HGX B200 per GPU: FP16/BF16 4.5 PFLOPS and FP8 9 PFLOPS with sparsity; 7.7 TB/s; 180 GB
    assert const("b200_bf16_dense_flops") == pytest.approx(4.5e15 / 2)
    assert const("b200_fp8_dense_flops") == pytest.approx(9e15 / 2)
    assert const("b200_hbm_bw") == pytest.approx(7.7e12)
    for k in ("h100", "h200", "b200"):
        c = CONSTANTS[f"{k}_hbm_bw"]
        assert c.scope == "per GPU" and c.direction
    for key in ("williams2009", "nvidia-h200-datasheet", "nvidia-hgx-b200"):
        assert SOURCES[key].url.startswith("https://")


# --- the roofline ---------------------------------------------------------------------
@pytest.mark.parametrize("k", list(GPUS))
def test_ridge_point_is_peak_over_bandwidth(k):
    peak, bw = GPUS[k]
    ridge = dc.ridge_point(peak, bw)
    assert ridge == pytest.approx(peak / bw)
    # at the ridge both roofs agree; just below it the slope binds, just above the flat roof
    assert ridge * bw == pytest.approx(peak)
    assert r.attainable(ridge * 0.999, peak, bw) < peak
    assert r.attainable(ridge * 1.001, peak, bw) == peak
    assert r.is_memory_bound(ridge * 0.999, peak, bw) and not r.is_memory_bound(ridge, peak, bw)


@pytest.mark.parametrize("k", list(GPUS))
def test_attainable_never_above_either_roof(k):
    peak, bw = GPUS[k]
    i = np.logspace(-3, 6, 2000)
    a = r.attainable(i, peak, bw)
    assert np.all(a <= peak) and np.all(a <= i * bw * (1 + 1e-12))
    assert np.all(np.diff(a) >= 0)  # more intensity never hurts
    # and it touches one roof everywhere
    assert np.all(np.isclose(a, peak) | np.isclose(a, i * bw))


def test_attainable_rejects_negative_intensity():
    with pytest.raises(ValueError):
        r.attainable(-1.0, 1e15, 1e12)
    with pytest.raises(ValueError):
        dc.ridge_point(0.0, 1e12)


# --- GEMM intensity on hand-checked shapes --------------------------------------------
def test_gemm_intensity_hand_checked():
    # square n=1024 in BF16: 2n^3 / (2 * 3n^2) = n/3
    assert r.gemm_intensity(1024, 1024, 1024, 2) == pytest.approx(1024 / 3)
    # 2x3x4 in FP32: F = 48, bytes = 4 (2*4 + 4*3 + 2*3) = 104
    assert r.gemm_flops(2, 3, 4) == 48
    assert r.gemm_bytes(2, 3, 4, 4) == 104
    assert r.gemm_intensity(2, 3, 4, 4) == pytest.approx(48 / 104)
    # a matrix-vector product (M=1) in BF16 is about 1 FLOP/B: 2NK / (2(K + NK + N))
    assert r.gemm_intensity(1, 4096, 4096, 2) == pytest.approx(
        2 * 4096 * 4096 / (2 * (4096 + 4096 * 4096 + 4096)))
    assert 0.99 < r.gemm_intensity(1, 4096, 4096, 2) < 1


def test_gemm_intensity_grows_with_rows_to_its_limit():
    m = np.logspace(0, 8, 200)
    i = r.gemm_intensity(m, 53248, 16384, 2)
    assert np.all(np.diff(i) > 0)
    limit = 2 * 53248 * 16384 / (2 * (53248 + 16384))
    assert i[-1] < limit and i[-1] == pytest.approx(limit, rel=1e-3)


@pytest.mark.parametrize("ridge", [100.0, 295.37, 2000.0])
def test_gemm_knee_rows_solves_its_equation(ridge):
    m = r.gemm_knee_rows(53248, 16384, 2, ridge)
    assert r.gemm_intensity(m, 53248, 16384, 2) == pytest.approx(ridge, rel=1e-10)
    # a small square GEMM can never reach a ridge above its limit n/3
    assert r.gemm_knee_rows(64, 64, 2, ridge) is None


# --- decode intensity -------------------------------------------------------------------
@pytest.mark.parametrize("w", [1, 2, 4])
def test_decode_weights_only_is_2b_over_w(w):
    b = np.array([1, 8, 64, 300])
    np.testing.assert_allclose(r.decode_intensity(P, w, b), 2 * b / w, rtol=1e-12)
    np.testing.assert_allclose(r.decode_intensity_weights_only(b, w), 2 * b / w)


def test_decode_is_a_skinny_gemm():
    # one layer's FFN matmul with M = b rows has intensity ~ b in BF16, like the whole model
    for b in (1, 8, 64):
        assert r.gemm_intensity(b, 53248, 16384, 2) == pytest.approx(b, rel=0.01)


@pytest.mark.parametrize("k", list(GPUS))
def test_compute_bound_batch_reaches_the_ridge(k):
    peak, bw = GPUS[k]
    ridge = dc.ridge_point(peak, bw)
    b_star = r.compute_bound_batch(ridge, 2)
    assert r.decode_intensity_weights_only(b_star, 2) == pytest.approx(ridge)
    assert r.is_memory_bound(float(r.decode_intensity_weights_only(b_star * 0.99, 2)), peak, bw)
    # FP8 weights on FP8 tensor cores: intensity and peak both double, b* is unchanged
    fp8_peak = 2 * peak
    assert r.compute_bound_batch(dc.ridge_point(fp8_peak, bw), 1) == pytest.approx(b_star)


def test_kv_term_saturates_intensity():
    k = dc.kv_bytes_per_token(126, 8, 128, 2)
    b = np.logspace(0, 7, 100)
    i = r.decode_intensity(P, 2, b, 8192, k, 126, 16384)
    limit = r.decode_intensity_limit(P, 8192, k, 126, 16384)
    assert np.all(np.diff(i) > 0) and np.all(i < limit)
    assert i[-1] == pytest.approx(limit, rel=1e-2)
    # with no context the KV form reduces to the weights-only one
    np.testing.assert_allclose(r.decode_intensity(P, 2, b, 0, k, 126, 16384), 2 * b / 2)
    # and KV reads can only lower intensity at a given batch... after counting attention FLOPs
    assert np.all(i <= (2 * P + dc.attention_decode_flops_per_seq(126, 8192, 16384)) * b / (P * 2))


def test_with_kv_the_matmuls_reach_the_knee_at_bstar_though_the_average_stays_under_it():
    """Reviewer finding: the page read the step's average I(b) as a threshold ("no batch gets there, however
    much HBM"). Per kernel, the weight matmuls go compute-bound past b* at any context."""
    k = dc.kv_bytes_per_token(126, 8, 128, 2)
    peak, bw = 989.5e12, 3.35e12  # H100
    ridge = dc.ridge_point(peak, bw)
    b_star = math.ceil(r.compute_bound_batch(ridge, 2))
    assert b_star == 296
    for ctx in (1024, 8192, 131072):
        below = r.decode_step_kernels(P, 2, b_star - 1, ctx, k, 126, 16384, peak, bw)
        above = r.decode_step_kernels(P, 2, b_star, ctx, k, 126, 16384, peak, bw)
        # the matmuls: memory-bound one sequence short of b*, compute-bound at b*
        assert below["matmul_time"] == pytest.approx(P * 2 / bw)
        assert above["matmul_time"] == pytest.approx(2 * P * b_star / peak) and above["matmul_time"] > P * 2 / bw
        # attention: memory-bound at every batch and context
        assert above["attention_intensity"] < ridge
    # at 8K the step's average stays under the ridge at every batch, though the matmuls are past it
    assert r.decode_intensity_limit(P, 8192, k, 126, 16384) < ridge
    st = r.decode_step_kernels(P, 2, 4 * b_star, 8192, k, 126, 16384, peak, bw)
    assert st["blended_intensity"] < ridge < st["matmul_intensity"]


def test_attention_prefill_intensity():
    # L h / (w (h + h_kv)): 8192 * 128 / (2 * 136)
    assert r.attention_prefill_intensity(8192, 128, 8, 2) == pytest.approx(8192 * 128 / 272)
    f = r.attention_prefill_flops(8192, 128, 128)
    q = r.attention_prefill_bytes(8192, 128, 128, 8, 2)
    assert f / q == pytest.approx(r.attention_prefill_intensity(8192, 128, 8, 2))
    # multi-head attention (h_kv = h): L / (2w)
    assert r.attention_prefill_intensity(4096, 32, 32, 2) == pytest.approx(1024)


# --- HBM capacity ---------------------------------------------------------------------------


def test_with_kv_every_gpu_is_capacity_bound_at_its_matmuls_bstar(data):
    """Reviewer finding: the table said "never: KV reads cap the intensity" (H100, B200) and "needs 27,417"
    (H200), read off the step's average; per kernel the matmuls need b*, and b* does not fit."""
    s = data["summary"]
    kv_seq = s["kv_bytes_per_sequence"]
    expected = {"h100": (296, 111), "h200": (207, 75), "b200": (293, 149)}
    rows = {row[0]: row for row in data["table"]["rows"]}
    for k, g in data["records"]["gpus"].items():
        assert g["serving_gpus"] * g["memory"] >= s["weights_bytes_total"]
        fit = g["kv_fit_batch"]
        used = s["weights_bytes_total"] + fit * kv_seq
        assert used <= g["serving_gpus"] * g["memory"] < used + kv_seq
        assert (g["bstar_batch"], fit) == expected[k]
        assert not g["kv_reaches_knee"]
        assert g["kv_knee"] == f"capacity-bound: needs {g['bstar_batch']:,}, {fit:,} fit"
        # b* sequences fit only below this context: the free bytes over b* caches of k bytes per token
        assert g["bstar_max_context"] == pytest.approx(g["free_bytes"] / (g["bstar_batch"] * s["kv_bytes_per_token"]))
        assert g["bstar_max_context"] < s["context_length"]
        row = rows[g["name"]]
        assert row[-2] == g["kv_knee"] and row[-1] == pytest.approx(g["bstar_max_context"])
        assert "never" not in row[-2]
    # 470 GB free on 16 H100s: 296 sequences of 516,096 B per token fit below about 3,077 tokens
    assert data["records"]["gpus"]["h100"]["bstar_max_context"] == pytest.approx(470e9 / (296 * 516_096))
    assert round(data["records"]["gpus"]["h100"]["bstar_max_context"]) == 3077


def test_table_ridges_match_the_text_to_four_figures(data):
    from pipeline.site.sections.tables import numbers_table

    for row, k in zip(data["table"]["rows"], r.GPU_KEYS, strict=True):
        g = data["records"]["gpus"][k]
        assert row[5] == g["ridge_bf16"] and row[6] == g["ridge_fp8"]
    assert [c.get("digits") for c in data["table"]["columns"][5:7]] == [4, 4]
    lines = numbers_table(data["table"]).split("\n")
    assert lines[4].split(" | ")[5] == "295.4" and lines[5].split(" | ")[5] == "206.1"


def test_past_the_knee_batch_fits_only_at_short_context(data):
    """Reviewer finding: HBM busy 28.8% at batch 1,024 counts weights only; its KV caches fit on 16 H100s
    only below about 889 tokens each."""
    s = data["summary"]
    assert s["anim_past_knee_batch"] == 1024
    assert s["anim_past_knee_max_context"] == pytest.approx((16 * 80e9 - 810e9) / (1024 * 516_096))
    assert round(s["anim_past_knee_max_context"]) == 889
    assert s["anim_past_knee_max_context"] < s["context_length"]


def test_kv_animation_stops_at_the_batch_that_fits(data):
    an, s = data["animation"], data["summary"]
    assert an["kv_batches"][-1] == s["anim_kv_fit_batch"]
    assert max(an["kv_intensity"]) < s["anim_ridge_bf16"]


def test_claim_fails_when_short_context_lets_b_star_fit(params):
    # at 1,024 tokens the 296 sequences' caches do fit: the page's "only below N tokens" sentence
    # about a full 8K cache no longer holds, and the build must say so
    with pytest.raises(ClaimError):
        r.roofline(**{**params, "context_length": 1024})


# --- the entry function -----------------------------------------------------------------------
def test_summary_and_kernels(data):
    s, g = data["summary"], data["records"]["gpus"]
    for k, gk in g.items():
        assert s[f"{k}_ridge_bf16"] == pytest.approx(gk["peak_bf16"] / gk["bandwidth"])
        assert gk["bstar_bf16"] == pytest.approx(s[f"{k}_ridge_bf16"])  # w = 2: b* = I*
        assert gk["bstar_fp8"] == pytest.approx(gk["bstar_bf16"])
        assert s[f"{k}_bstar_batch"] == math.ceil(gk["bstar_bf16"])
    # same compute, more bandwidth: the H200's knee sits left of the H100's
    assert s["h200_ridge_bf16"] < s["h100_ridge_bf16"]
    kinds = {kn["kind"] for kn in data["records"]["kernels"]}
    assert kinds == {"decode", "gemm", "attention"}
    for kn in data["records"]["kernels"]:
        for k, gk in g.items():
            assert kn["attainable"][k] <= gk["peak_bf16"] * (1 + 1e-12)
            assert kn["memory_bound"][k] == (kn["intensity"] < gk["ridge_bf16"])
        if kn["kind"] == "decode":
            assert all(kn["memory_bound"].values())
        else:
            assert not any(kn["memory_bound"].values())


def test_animation_plan(data):
    an = data["animation"]
    assert an["batches"][0] == 1 and all(b < an["bstar"] for b in an["batches"])
    assert 2 * an["batches"][-1] >= an["bstar"]
    assert an["order"][0] == an["gpu"] == "h100"
    np.testing.assert_allclose(an["intensity"], np.array(an["batches"]) * 2 / 2)
    # one rounding rule: the screen's batch and intensity at the knee are the whole batch b*
    assert an["bstar_batch"] == math.ceil(an["bstar"]) and an["bstar_intensity"] == an["bstar_batch"]
    assert max(an["kv_intensity"]) < an["kv_limit_intensity"]


def test_deterministic(params):
    assert to_json(r.roofline(**params).to_dict()) == to_json(r.roofline(**params).to_dict())


def test_scenario_gpu_must_be_known(params):
    with pytest.raises(ParamError):
        r.roofline(**{**params, "gpu_name": "A100"})
    with pytest.raises(ParamError):
        r.roofline(**{**params, "h100": 3.35e12})  # a GPU entity, not a number
    d = r.roofline(**{**params, "gpu_name": "B200"})
    assert d.animation["gpu"] == "b200" and d.animation["order"][0] == "b200"


def test_entities_come_from_the_datasheet_constants(params):
    for k in ("h100", "h200", "b200"):
        g = params[k]
        assert g.key == k and g.peak_bf16 == const(f"{k}_bf16_dense_flops")
        assert g.hbm_bandwidth == const(f"{k}_hbm_bw") and g.hbm_capacity == const(f"{k}_hbm_capacity")
    # Llama 3 shapes cite §3.2, Table 3 of the report, not the storage section
    for name in ("layers", "model_dim", "ffn_dim", "attention_heads", "kv_heads"):
        c = CONSTANTS[f"llama3_405b_{name}"]
        assert "Table 3" in SOURCES[c.source].where and "§3.2" in SOURCES[c.source].where


# --- the figure and the scene ---------------------------------------------------------------
def test_figure_labels_b_star_as_the_scene_rounds_it(data):
    from figures.hbm_roofline import roofline_chart
    from figures.theme import svg_bytes, themed

    with themed("light"):
        fig = roofline_chart(data, "light")
        texts = [t.get_text() for ax in fig.axes for t in ax.texts]
        svg_bytes(fig)
    assert f"b* = {data['animation']['bstar_batch']}" in texts
    # the step-average limit sits within 1% of the H200's ridge: it carries a label of its own
    from models.units import sig

    lim = data["summary"]["decode_intensity_limit_kv"]
    assert abs(lim / data["summary"]["h200_ridge_bf16"] - 1) < 0.01
    assert f"KV step average {sig(lim, 4)}" in texts


def test_scene_captions_quote_the_model(dry_run):
    data, beats, _ = dry_run("hbm-roofline")
    text = " ".join(b["caption"] for b in beats)
    from models.units import fmt_count, sig

    s = data["summary"]
    assert sig(s["h100_ridge_bf16"], 4) in text
    assert f"b* = I* · w / 2 = {fmt_count(s['anim_bstar_batch'])}" in text
    assert f"hold only {fmt_count(s['anim_kv_fit_batch'])} beside the weights" in text


# --- the step as kernels; achievable bandwidth; FP8 weights on BF16 compute --------------
def test_decode_step_per_kernel_against_blend(data):
    s = data["summary"]
    L, hkv = s["layers"], s["kv_heads"]
    d_attn = s["model_dim"]
    k = s["kv_bytes_per_token"]
    assert k == pytest.approx(2 * L * hkv * 128 * 2)
    # attention's intensity is 4 L d_attn / k, independent of batch and context (~16 FLOP/B here)
    assert s["attention_decode_intensity"] == pytest.approx(4 * L * d_attn / k)
    assert s["attention_decode_intensity"] == pytest.approx(16.0, rel=0.01)
    g = data["records"]["gpus"]["h100"]
    for b in (1, 111, 296, 400, 4096):
        st = r.decode_step_kernels(P, 2, b, 8192, k, L, d_attn, g["peak_bf16"], g["bandwidth"])
        assert st["matmul_intensity"] == pytest.approx(b)  # 2b/w in BF16, whatever the KV cache
        assert st["time_per_kernel"] >= st["time_blended"] * (1 - 1e-12)
        # the blend is the step's I(b) of the closed form
        assert st["blended_intensity"] == pytest.approx(float(r.decode_intensity(P, 2, b, 8192, k, L, d_attn)))
    # both memory-bound below b*: the times agree; above it the matmuls flatten and the blend underestimates
    lo = r.decode_step_kernels(P, 2, 111, 8192, k, L, d_attn, g["peak_bf16"], g["bandwidth"])
    hi = r.decode_step_kernels(P, 2, 4096, 8192, k, L, d_attn, g["peak_bf16"], g["bandwidth"])
    assert lo["time_per_kernel"] == pytest.approx(lo["time_blended"])
    assert hi["time_per_kernel"] > hi["time_blended"] * 1.01


def test_achievable_bandwidth_moves_the_knee(data):
    s = data["summary"]
    eta = const("h100_decode_mbu_measured")
    assert s["decode_bandwidth_efficiency"] == eta == pytest.approx(0.60)  # Databricks, Figure 3
    assert data["records"]["scenario_facts"] == {"decode_bandwidth_efficiency": eta}
    assert s["anim_ridge_achievable"] == pytest.approx(s["anim_ridge_bf16"] / eta)
    assert s["anim_bstar_achievable_batch"] == math.ceil(s["anim_ridge_bf16"] / eta)
    assert s["anim_bstar_achievable_batch"] > s["anim_bstar_batch"]


def test_fp8_weights_on_bf16_compute_halve_bstar(data):
    for g in data["records"]["gpus"].values():
        assert g["bstar_fp8w_bf16"] == pytest.approx(g["bstar_bf16"] / 2)
        assert g["bstar_fp8"] == pytest.approx(g["bstar_bf16"])
    assert data["summary"]["anim_bstar_fp8_weights_bf16_batch"] == math.ceil(data["summary"]["anim_bstar_batch"] / 2)


def test_achievable_knee_is_a_range(data):
    s = data["summary"]
    # tensor cores at the same share as HBM: the knee does not move; at their peak: I*/η
    assert s["anim_ridge_achievable_low"] == s["anim_ridge_bf16"]
    assert s["anim_ridge_achievable_low"] < s["anim_ridge_achievable"]
    assert s["anim_bstar_achievable_low_batch"] == s["anim_bstar_batch"] < s["anim_bstar_achievable_batch"]
    # the knee at achievable rates is (η_c/η_m) I*: the two cases are η_c = η_m and η_c = 1, not bounds
    eta = s["decode_bandwidth_efficiency"]
    for eta_c, knee in ((eta, s["anim_ridge_achievable_low"]), (1.0, s["anim_ridge_achievable"])):
        assert dc.ridge_point(eta_c * s["anim_peak_bf16_tflops"] * 1e12,
                              eta * s["h100_bandwidth_tbs"] * 1e12) == pytest.approx(knee)
    assert dc.ridge_point(0.5 * eta * 989.5e12, eta * 3.35e12) < s["anim_ridge_achievable_low"]


def test_fp8_weights_capacity_binds_before_the_halved_bstar(data):
    s = data["summary"]
    # 405 GB of FP8 weights on one node of 8 × 80 GB: 235 GB left; 8,192 tokens × 516,096 B each per sequence
    assert s["anim_fp8w_serving_gpus"] == 8
    assert s["anim_fp8w_free_bytes"] == pytest.approx(8 * 80e9 - P)
    kv_seq = s["kv_bytes_per_sequence"]
    assert kv_seq == pytest.approx(8192 * 2 * 126 * 8 * 128 * 2)
    assert s["anim_fp8w_fit_bf16_kv"] == math.floor((8 * 80e9 - P) / kv_seq) == 55
    assert s["anim_fp8w_fit_fp8_kv"] == math.floor((8 * 80e9 - P) / (kv_seq / 2)) == 111
    assert s["anim_fp8w_fit_fp8_kv"] < s["anim_bstar_fp8_weights_bf16_batch"]
    assert s["anim_fp8w_capacity_binds"] is True


@pytest.mark.parametrize("k", list(GPUS))
def test_hbm_busy_saturated_left_of_the_knee_then_falls(k):
    peak, bw = GPUS[k]
    ridge = dc.ridge_point(peak, bw)
    i = np.array([0.5, 1, 10, ridge * 0.999, ridge, ridge * 2, ridge * 10])
    busy = r.hbm_busy(i, peak, bw)
    assert np.all(busy[:5] == 1.0)
    assert busy[5] == pytest.approx(0.5) and busy[6] == pytest.approx(0.1)
    # busy × bandwidth × time = bytes: the bytes a kernel moves over its roofline time
    for x in i:
        q = 1e9
        t = max(x * q / peak, q / bw)
        assert r.hbm_busy(float(x), peak, bw) == pytest.approx(q / bw / t)
    with pytest.raises(ValueError):
        r.hbm_busy(0.0, peak, bw)


def test_hbm_busy_in_the_plan_and_series(data):
    an, s = data["animation"], data["series"]
    assert all(h == 1.0 for h in an["hbm_busy"])  # every step of the climb is under the knee
    assert all(h == 1.0 for h in an["kv_hbm_busy"])  # so is every batch that fits with its KV cache
    assert an["past_knee_batch"] > an["bstar"]
    assert an["past_knee_hbm_busy"] == pytest.approx(data["summary"]["anim_ridge_bf16"] / an["past_knee_batch"])
    busy = np.asarray(s["decode_hbm_busy"], dtype=float)
    assert np.all(np.diff(busy) <= 1e-12) and busy[0] == 1.0 and busy[-1] < 0.5


def test_hbm3e_step_on_the_same_tensor_cores(data):
    g = data["records"]["gpus"]
    assert (g["h100"]["hbm"], g["h200"]["hbm"], g["b200"]["hbm"]) == ("HBM3", "HBM3e", "HBM3e")
    assert g["h100"]["peak_bf16"] == g["h200"]["peak_bf16"]
    # 989.5 TFLOP/s over 3.35 and 4.8 TB/s
    assert g["h100"]["ridge_bf16"] == pytest.approx(295.4, abs=0.05)
    assert g["h200"]["ridge_bf16"] == pytest.approx(206.1, abs=0.05)
    assert (g["h100"]["bstar_batch"], g["h200"]["bstar_batch"]) == (296, 207)


def test_mbu_constant_is_a_ratio_not_per_request():
    c = CONSTANTS["h100_decode_mbu_measured"]
    assert c.unit == "1" and c.scope == ""


def test_measured_rates_give_three_more_knees(data):
    s = data["summary"]
    # MAMF 794.5 TFLOP/s against the 989.5 peak; BabelStream copy 2.90 TB/s against 3.35 (Azure ND H100 v5)
    assert const("h100_bf16_gemm_measured") == pytest.approx(794.5e12)
    assert const("h100_hbm_copy_measured") == pytest.approx(2.90e12)
    assert CONSTANTS["h100_hbm_copy_measured"].direction == CONSTANTS["h100_hbm_bw"].direction  # reads + writes
    assert s["h100_matmul_share"] == pytest.approx(794.5 / 989.5)
    assert s["h100_copy_share"] == pytest.approx(2.90 / 3.35)
    # (η_c / η_m) I* = 794.5e12 / (0.6 × 3.35e12) = 395.27 and 794.5e12 / 2.90e12 = 273.97, by hand
    assert s["h100_ridge_measured_mbu"] == pytest.approx(395.27, abs=0.01)
    assert s["h100_bstar_measured_mbu_batch"] == 396
    assert s["h100_ridge_measured_copy"] == pytest.approx(273.97, abs=0.01)
    assert s["h100_bstar_measured_copy_batch"] == 274
    # the MBU case lies between the two cases of the ratio; the copy case left of the datasheet knee
    assert s["anim_ridge_bf16"] < s["h100_ridge_measured_mbu"] < s["anim_ridge_achievable"]
    assert s["h100_ridge_measured_copy_below_datasheet"] and s["h100_ridge_measured_copy"] < s["anim_ridge_bf16"]
    # the read-only stream (BabelStream Dot, 3.18 TB/s, the same Azure table): 794.5 / 3.18 = 249.84, by hand
    assert const("h100_hbm_read_measured") == pytest.approx(3.18e12)
    assert CONSTANTS["h100_hbm_read_measured"].source == CONSTANTS["h100_hbm_copy_measured"].source
    assert s["h100_read_share"] == pytest.approx(3.18 / 3.35)
    assert s["h100_ridge_measured_read"] == pytest.approx(249.84, abs=0.01)
    assert s["h100_bstar_measured_read_batch"] == 250
    # a read stream beats the copy's share, so its knee is the leftmost of the measured ones
    assert s["h100_ridge_measured_read_below_datasheet"]
    assert s["h100_ridge_measured_read"] < s["h100_ridge_measured_copy"] < s["anim_ridge_bf16"]


def test_measured_rates_above_the_datasheet_are_refused(params):
    with pytest.raises(ParamError, match="h100_copy_measured"):
        r.roofline(**{**params, "h100_copy_measured": 4e12})
    with pytest.raises(ParamError, match="h100_read_measured"):
        r.roofline(**{**params, "h100_read_measured": 3.4e12})
    with pytest.raises(ParamError, match="h100_matmul_measured"):
        r.roofline(**{**params, "h100_matmul_measured": 1.2e15})


def test_capacity_read_as_gib_bounds_the_batch_that_fits(data):
    s = data["summary"]
    kv_seq = s["kv_bytes_per_sequence"]
    # 16 H100s; 810 GB of BF16 weights; 80 GB read as 80 × 2^30 B: 133 fit, not 111, and still under b* = 296
    assert s["anim_capacity_binary"] == 80 * 2**30
    assert s["anim_kv_fit_batch"] == math.floor((16 * 80e9 - 2 * P) / kv_seq) == 111
    assert s["anim_kv_fit_batch_binary"] == math.floor((16 * 80 * 2**30 - 2 * P) / kv_seq) == 133
    for k in ("h100", "h200", "b200"):
        assert s[f"{k}_kv_fit_batch_binary"] >= s[f"{k}_kv_fit_batch"]
    assert s["anim_binary_fit_below_bstar"] and s["anim_kv_fit_batch_binary"] < s["anim_bstar_batch"]


def test_explore_probe_opens_at_the_page_bstar(data):
    from figures.explore import page_point
    from figures.hbm_roofline import BATCH, ETA_M, EXPLORE, probe_marks
    i = page_point(BATCH, data)
    assert data["series"]["batch"][i] == data["summary"]["anim_bstar_batch"]
    assert data["summary"]["anim_kv_fit_batch"] in data["series"]["batch"]
    assert const("h100_decode_mbu_measured") in ETA_M.stops  # the panel opens at the page's η_m
    marks = probe_marks(data, i)
    assert marks["at-matmul"][2] == pytest.approx(2 * 296 / 2)  # 2b/w in BF16 is b
    # one sequence past the knee (295.4) HBM is busy I*/I = 295.4/296 of the step
    assert marks["at-busy"][2] == pytest.approx(100 * (989.5 / 3.35) / 296)
    assert EXPLORE.figure == "roofline" and len(EXPLORE.sliders) == 2


def test_matmul_share_claim_breaks_once_eta_m_passes_it(params):
    # η_c = 794.5 / 989.5 = 0.803: at η_m = 0.9 the MBU knee (0.803/0.9) I* falls left of I*, and the page's
    # sentence that it lies right of the datasheet's must stop the build (the Explore panel lists it instead)
    with pytest.raises(ClaimError, match="exceeds η_m"):
        r.roofline(**{**params, "decode_efficiency": 0.9})
    s = r.roofline(**{**params, "decode_efficiency": 0.8}).summary
    assert s["h100_ridge_measured_mbu"] > s["anim_ridge_bf16"]


def test_explore_stops_reach_the_page_measured_knees(params):
    # η_m's stops hold the copy's and the read stream's shares (2.90 and 3.18 of 3.35 TB/s): there the
    # measured-matmul readout is the page's 274 and 250, and at the page's 60% its 396
    from figures.hbm_roofline import ETA_M
    from models.exhibit import claims_collected
    assert const("h100_hbm_copy_measured") / const("h100_hbm_bw") in ETA_M.stops
    assert const("h100_hbm_read_measured") / const("h100_hbm_bw") in ETA_M.stops
    want = {2.90 / 3.35: 274, 3.18 / 3.35: 250, 0.6: 396}
    for eta, b in want.items():
        stop = min(ETA_M.stops, key=lambda x: abs(x - eta))
        with claims_collected() as broken:
            s = r.roofline(**{**params, "decode_efficiency": stop}).summary
        assert s["h100_bstar_measured_mbu_batch"] == b
        # the page's claim that the MBU case is right of the datasheet knee breaks exactly where η_m > η_c
        assert bool(broken) == (stop > s["h100_matmul_share"])
