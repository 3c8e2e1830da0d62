"""The scenario's derived quantities: one name, one convention, one value across every scene.

The check (`contradictions`) is shown catching a planted contradiction, both in the facts a scene
publishes and in a summary value under a fact's name; then every scene that publishes facts is run
as the build runs it, and their values must agree."""

from __future__ import annotations

import math
import re
from pathlib import Path

import pytest

from models import scenario_facts as sf
from models import training
from models.constants import SOURCES, const
from models.lib.checkpoint import efficiency_at_optimum
from models.units import fmt

ROOT = Path(__file__).resolve().parents[1]


def scenes_that_publish() -> list[str]:
    """Every scene whose model module publishes facts, found in the source so the list cannot go stale."""
    mods = [p.stem for p in sorted((ROOT / "models").glob("*.py"))
            if p.stem != "scenario_facts" and re.search(r"\bscenario_facts\.published\(", p.read_text())]
    return [m.replace("_", "-") for m in mods]


def data_with(summary: dict | None = None, facts: dict | None = None) -> dict:
    return {"summary": summary or {}, "records": {sf.RECORD: facts} if facts is not None else {}}


# --- the registry ------------------------------------------------------------------------------
def test_every_fact_states_a_unit_a_convention_and_a_real_source():
    for name, fact in sf.FACTS.items():
        assert fact.source in SOURCES, name
        assert len(fact.convention) > 40, name
        fmt(1.0, fact.unit)  # a unit the formatters know


def test_published_refuses_a_name_the_registry_does_not_define():
    with pytest.raises(sf.UnknownFact, match="steptime"):
        sf.published(steptime=6.74)
    with pytest.raises(ValueError, match="step_time"):
        sf.published(step_time=math.nan)
    assert sf.published(step_time=6) == {"step_time": 6.0}


def test_model_flops_per_token_is_palms_count_by_hand():
    # PaLM Appendix B, Table 1 (540B: 118 layers, 48 heads of 256, 2,048 tokens): 6N + 12·L·H·Q·T
    n, attn = 540.35e9, 12 * 118 * 48 * 256 * 2048
    assert training.model_flops_per_token(n, 118, 48 * 256, 2048) == pytest.approx(6 * n + attn, rel=1e-15)
    # Kaplan's Table 1 counts QKᵀ only: half the term
    assert training.kaplan_attention_flops_per_token(118, 2048, 48 * 256) == pytest.approx(attn / 2, rel=1e-15)
    assert training.model_flops_per_token(n) == 6 * n  # the shape left at 0: 6N alone


def test_the_scenarios_step_by_hand():
    # Llama 3 405B (Table 3: 126 layers, H·Q = 16,384), Table 4 (16M tokens, 400 TFLOP/s, 16,384 GPUs)
    step = sf.training_step(405e9, 16 * 2**20, 16384, 400e12, 126, 16384, 8192)
    per_token = 6 * 405e9 + 12 * 126 * 16384 * 8192  # 2.633e12
    assert step["model_flops_per_token"] == pytest.approx(per_token, rel=1e-15)
    assert step["attention_share"] == pytest.approx(12 * 126 * 16384 * 8192 / per_token, rel=1e-15)
    assert round(step["attention_share"], 4) == 0.0771
    assert step["step_time"] == pytest.approx(per_token * 16 * 2**20 / (16384 * 400e12), rel=1e-15)
    assert round(step["step_time"], 2) == 6.74
    assert step["step_time"] == pytest.approx(training.step_time(405e9, 16 * 2**20, 16384, 400e12, 126, 16384,
                                                                 8192), rel=1e-15)


def test_checkpoint_pcie_and_ddr_by_hand():
    ck = sf.checkpoint_state(405e9, 2, 12, 16384)
    assert ck["checkpoint_bytes"] == 405e9 * 14 and round(ck["checkpoint_bytes_per_gpu"] / 1e6) == 346
    # PCIe 5.0 x16, 256-byte payloads: 63.0 GB/s × 256/(256 + 20 + 8/4) = 58.0 GB/s
    rate = sf.pcie_payload_rate(32e9, 16, 128 / 130, 256, 12 + 4 + 4, 8, 4)
    assert rate == pytest.approx(32e9 * 16 * 128 / 130 / 8 * 256 / 278, rel=1e-15)
    assert round(rate / 1e9, 1) == 58.0
    # 8 channels × 4,400 MT/s × 8 B (two DIMMs per channel on the Xeon 8480+)
    assert sf.ddr_per_socket(8, 4400e6) == 281.6e9
    assert sf.ddr_per_socket(const("xeon_8480_memory_channels"), const("xeon_8480_ddr5_2dpc_rate")) == 281.6e9


def test_the_restart_limits_by_hand():
    # Daly's model at δ = 2.835 s (5.67 TB at 2 TB/s), M = 54 days / 419; Llama 3's > 90%, 47 planned stops
    delta, window = 5.67e12 / 2e12, 54 * 86400.0
    mtbf = window / 419
    lim = sf.restart_limits(0.90, delta, mtbf, 47, window)
    e0 = float(efficiency_at_optimum(delta, mtbf, 0.0))
    assert lim["restart_for_reported_unplanned"] == pytest.approx(mtbf * math.log(e0 / 0.90), rel=1e-15)
    r = lim["restart_for_reported"]
    assert e0 * math.exp(-r / mtbf) * (1 - 47 * r / window) == pytest.approx(0.90, rel=1e-12)
    assert round(r / 60, 1) == 13.8 and round(lim["restart_for_reported_unplanned"] / 60, 1) == 15.3
    # no planned stops: one limit; a target even R = 0 misses: negative, both
    none = sf.restart_limits(0.90, delta, mtbf, 0, window)
    assert none["restart_for_reported"] == none["restart_for_reported_unplanned"]
    assert all(v < 0 for v in sf.restart_limits(0.999, delta, mtbf, 47, window).values())


# --- the check catches a planted contradiction ---------------------------------------------------
def test_the_check_catches_two_scenes_publishing_different_values():
    found = sf.contradictions({"a": data_with(facts={"step_time": 6.74}),
                               "b": data_with(facts={"step_time": 6.2208})})
    assert len(found) == 1
    assert "step_time" in found[0] and "a 6.74" in found[0] and "b 6.2208" in found[0]


def test_the_check_catches_a_summary_value_under_a_facts_name():
    # a scene that prints the quantity without publishing it is held to it too
    found = sf.contradictions({"a": data_with(facts={"attention_share": 0.0771}),
                               "b": data_with(summary={"attention_share": 0.0418})})
    assert len(found) == 1 and "attention_share" in found[0]


def test_the_check_passes_one_value_and_ignores_other_names():
    assert sf.contradictions({"a": data_with(summary={"step_time": 6.74, "steps_per_day": 12818.0}),
                              "b": data_with(facts={"step_time": 6.74 * (1 + 1e-12)},
                                             summary={"steps_per_day": 1.0}),
                              "c": data_with()}) == []


# --- every scene, as built ------------------------------------------------------------------------
def test_every_publishing_scene_is_found():
    found = scenes_that_publish()
    for scene in ("stragglers", "data-prefetch", "silent-data-corruption", "mfu-mbu", "cost-per-token",
                  "daly-checkpoint", "checkpoint-recovery", "pcie-cxl", "hgx-server", "gpudirect-storage"):
        assert scene in found


def test_one_fact_one_value_across_the_scenes(model_output):
    data = {scene: model_output(scene)[0] for scene in scenes_that_publish()}
    assert sf.contradictions(data) == []
    # and each of the quantities the reviews found with two values is carried by at least two scenes
    carried = {}
    for scene, d in data.items():
        for name in sf.carried(d):
            carried.setdefault(name, set()).add(scene)
    for name in ("step_time", "attention_share", "achieved_flops_per_gpu", "decode_bandwidth_efficiency",
                 "host_to_gpu_rate", "ddr5_per_socket", "checkpoint_bytes_per_gpu", "restart_for_reported",
                 "restart_for_reported_unplanned"):
        assert len(carried.get(name, ())) >= 2, (name, carried.get(name))


# --- every scenario, as its build runs it ---------------------------------------------------------
OTHER_SCENARIOS = ("deepseek-v3", "llama3-70b")


def scenario_data(sid: str) -> dict[str, dict]:
    """Every publishing scene the scenario builds, run as pipeline/workers/scenario.py runs it (claims collected)."""
    import json

    from models.exhibit import claims_collected
    from pipeline import scenarios
    from pipeline.catalogue import load
    from pipeline.jsonio import to_json
    from pipeline.workers.compute import ModelError, run_model

    cat = load(scenario=sid)
    planned = {s.id for s in scenarios.plan(sid, cat, None)}
    data = {}
    for scene in scenes_that_publish():
        if scene in planned:
            s = cat.scene(scene)
            try:
                with claims_collected():
                    data[scene] = json.loads(to_json(run_model(s.id, s.model, s.params)))
            except ModelError:
                continue  # the model refuses this run's values: its page publishes no number at all
    return data


@pytest.mark.parametrize("sid", OTHER_SCENARIOS)
def test_one_fact_one_value_under_every_other_scenario(sid):
    data = scenario_data(sid)
    assert len(data) >= 3, sorted(data)
    assert sf.contradictions(data) == []


def test_a_moes_step_counts_attention_as_its_flops_per_gpu_does():
    # DeepSeek-V3's FLOP/s per GPU is derived from its GPU-hours with the step's own count (6N_active + attention,
    # H·Q = 128 × (192 + 128)/2 for multi-head latent attention): the step is then the run's GPU-time per step,
    # whatever the count, and no mixed convention inflates it
    f = const("deepseek_v3_model_flops_per_gpu")
    per_token = 6 * 37e9 + 12 * 61 * 20480 * 4096
    assert f == pytest.approx(per_token * 14.8e12 / (2664e3 * 3600), rel=1e-12)
    step = sf.training_step(37e9, 15360 * 4096, 2048, f, 61, 20480, 4096)
    gpu_seconds_per_token = 2664e3 * 3600 / 14.8e12
    assert step["step_time"] == pytest.approx(15360 * 4096 * gpu_seconds_per_token / 2048, rel=1e-12)
