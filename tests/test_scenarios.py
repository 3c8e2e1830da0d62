"""The scenario switch: three published runs, each a build dimension with its own pages.

The first group reads the catalogue and the constants only (fast). The second builds every scenario
(`python -m pipeline build --scenario all`, a no-op apart from mkdocs when build/ is warm) and reads
the site: every scenario's data and figures exist, the switch's links resolve on every page of every
scenario, and a claim that fails under a scenario is stated, never printed as the page's sentence.
"""

from __future__ import annotations

import json
import os
import re
from html import unescape
from pathlib import Path

import pytest

from models.constants import CONSTANTS, ENTITIES
from models.exhibit import ClaimError, check, claims_collected
from pipeline import scenarios
from pipeline.catalogue import CatalogueError, load
from pipeline.engine import registry
from pipeline.stages import compute, scenario_data

ROOT = Path(__file__).resolve().parent.parent
SITE = ROOT / "site"
DEFAULT = load()
OTHERS = ("deepseek-v3", "llama3-70b")


@pytest.fixture(scope="module")
def cats():
    return {sid: load(scenario=sid) for sid in OTHERS}


# --- the catalogue and its sources ---------------------------------------------------------------
def test_three_scenarios_each_with_every_value(cats):
    assert [s.id for s in DEFAULT.scenarios] == ["llama3-405b", *OTHERS]
    assert DEFAULT.is_default and DEFAULT.scenario_id == "llama3-405b"
    for sid, cat in cats.items():
        assert not cat.is_default and cat.scenario_id == sid
        assert set(cat.scenario) == set(DEFAULT.scenario), sid


def test_deepseek_v3_values_are_the_published_ones(cats):
    v = cats["deepseek-v3"].scenario
    assert (v["model_params"], v["active_params"], v["training_tokens"]) == (671e9, 37e9, 14.8e12)
    assert (v["gpus"], v["gpus_per_node"], v["gpu_hours"]) == (2048, 8, 2.788e6)
    assert v["gpu"] is ENTITIES["gpu"]["h800"]
    for name in ("deepseek_v3_params", "deepseek_v3_active_params", "deepseek_v3_gpus", "deepseek_v3_gpu_hours",
                 "deepseek_v3_pipeline_parallel", "deepseek_v3_expert_parallel"):
        assert CONSTANTS[name].source == "deepseek-v3" and CONSTANTS[name].estimate is None, name
    # the report's parallelism (§3.2) and architecture (§4.2)
    assert CONSTANTS["deepseek_v3_pipeline_parallel"].value == 16
    assert CONSTANTS["deepseek_v3_expert_parallel"].value == 64
    assert CONSTANTS["deepseek_v3_layers"].value == 61 and CONSTANTS["deepseek_v3_model_dim"].value == 7168
    # 2,788K GPU-hours = 2,664K pre-training + 119K context extension + 5K post-training (Table 1)
    assert 2664e3 + 119e3 + 5e3 == v["gpu_hours"]


def test_h800_differs_from_h100_where_its_sources_say():
    h800, h100 = ENTITIES["gpu"]["h800"], ENTITIES["gpu"]["h100"]
    assert h800.peak_bf16 == h100.peak_bf16 and h800.hbm_bandwidth == h100.hbm_bandwidth
    assert CONSTANTS["h800_nvlink_bw"].value == 400e9 < CONSTANTS["h100_nvlink_bw"].value == 900e9
    assert CONSTANTS["h800_nvlink_bw"].direction == CONSTANTS["h100_nvlink_bw"].direction
    assert CONSTANTS["h800_fp64_flops"].value == 1e12 < CONSTANTS["h100_fp64_flops"].value
    # 8 fourth-generation links of 50 GB/s make the H800's 400 GB/s
    links, per_link = CONSTANTS["h800_nvlink_links"].value, CONSTANTS["nvlink4_link_bw"].value
    assert links * per_link == CONSTANTS["h800_nvlink_bw"].value


def test_unpublished_values_are_labelled_estimates_with_a_range(cats):
    estimates = {}
    for sid, cat in cats.items():
        for key, raw in cat.get_scenario().raw_values.items():
            if isinstance(raw, str) and raw.startswith("$const."):
                c = CONSTANTS[raw[7:]]
                if c.estimate:
                    lo, hi = c.estimate
                    assert lo <= c.value <= hi and lo < hi, (sid, key)
                    assert "estimate" in c.label and ("not published" in c.note or "publishes no" in c.note)
                    estimates.setdefault(sid, []).append(key)
    assert estimates == {"deepseek-v3": ["interruptions"], "llama3-70b": ["gpus", "interruptions"]}
    with pytest.raises(ValueError, match="outside its stated range"):
        type(CONSTANTS["llama3_70b_gpus"])(1, "1", "llama3", estimate=(2, 3))


def test_a_moe_trains_with_its_active_parameters(cats):
    ds = cats["deepseek-v3"]
    assert ds.scene("stragglers").params["model_params"] == 37e9  # 6·N_active per token
    assert DEFAULT.scene("stragglers").params["model_params"] == 405e9
    # memory and checkpoints hold every expert
    assert ds.scene("daly-checkpoint").params["model_params"] == 671e9


def test_dense_only_scenes_are_not_built_for_a_moe(cats):
    ds, dense = cats["deepseek-v3"], cats["llama3-70b"]
    planned = {s.id for s in scenarios.plan("deepseek-v3", ds, None)}
    assert set(ds.dense_only) and not planned & set(ds.dense_only)
    assert planned | set(ds.dense_only) == {s.id for s in ds.built}
    assert len(scenarios.plan("llama3-70b", dense, None)) == len(dense.built)


def test_a_scenario_swaps_in_its_own_published_constants(cats):
    s = cats["deepseek-v3"].scene("nvlink-nvswitch")
    assert s.raw_params["h100_links"] == "$const.h800_nvlink_links" and s.params["h100_links"] == 8
    assert cats["llama3-70b"].scene("mfu-mbu").params["layers"] == 80
    # a constant of the default run the scenario has no figure for is named on its pages
    assert "llama3_storage_sustained_bw" in scenarios.held_constants(cats["deepseek-v3"],
                                                                      cats["deepseek-v3"].scene("daly-checkpoint"))
    assert scenarios.held_constants(DEFAULT, DEFAULT.scene("daly-checkpoint")) == []


def compute_task(scene):
    return registry.task(compute, compute.planned(scene)).keyed()


def scenario_data_task(scene, sid):
    return registry.task(scenario_data, scenario_data.planned(scene, sid)).keyed()


def test_default_cache_keys_do_not_depend_on_the_scenarios(cats):
    for s in DEFAULT.built[:6]:
        t = compute_task(s)
        assert "scenario" not in t.parts and t.id == f"data/{s.id}"
        assert compute_task(load(scenario="llama3-405b").scene(s.id)).key == t.key
    s70 = cats["llama3-70b"].scene("ring-vs-tree")
    t70 = scenario_data_task(s70, "llama3-70b")
    assert t70.id == "scenario/llama3-70b/data/ring-vs-tree" and t70.parts["scenario"] == "llama3-70b"
    assert t70.parts["params"]["cluster_ranks"] == 8192  # the scenario's resolved values are in the key
    assert t70.key != compute_task(DEFAULT.scene("ring-vs-tree")).key


def test_bad_scenario_input_names_file_scenario_and_field(tmp_path):
    text = (ROOT / "catalogue.yml").read_text(encoding="utf-8")
    bad = tmp_path / "catalogue.yml"
    bad.write_text(text.replace("        gpus: $const.deepseek_v3_gpus\n", ""), encoding="utf-8")
    with pytest.raises(CatalogueError, match=r"scenario 'deepseek-v3': field 'values.gpus': missing"):
        load(bad)
    bad.write_text(text.replace("nvlink4_links_per_gpu: h800_nvlink_links", "nvlink4_links_per_gpu: h800_links"),
                   encoding="utf-8")
    with pytest.raises(CatalogueError, match=r"field 'constants.nvlink4_links_per_gpu': 'h800_links' names no"):
        load(bad)
    with pytest.raises(CatalogueError, match="no scenario 'gb300'"):
        load(scenario="gb300")


def test_the_cli_refuses_an_unknown_scenario(capsys):
    from pipeline.__main__ import main

    assert main(["build", "--no-site", "--scenario", "gb300"]) == 2
    assert "--scenario: no scenario 'gb300'" in capsys.readouterr().err


def test_claims_are_collected_under_a_scenario_and_raised_otherwise(cats):
    from pipeline.jsonio import load_ref

    s = cats["deepseek-v3"].scene("nvlink-nvswitch")
    with claims_collected() as failed:
        load_ref(s.model)(**s.params)
        check(True, "a claim that holds")
    # the H800's 8 links: 400 GB/s, not the H100's 900; and its NVLink (200 GB/s a direction) is only
    # 4x a 400 Gb/s NIC, so it sits no nearer HBM than the NIC does
    assert failed == ["the links multiply out to NVIDIA's published per-GPU NVLink bandwidth",
                      "NVLink sits much closer to HBM than the NIC does"]
    with pytest.raises(ClaimError, match="NVLink bandwidth"):
        load_ref(s.model)(**s.params)


@pytest.mark.parametrize("page, here, expected", [
    ("scenes/ring-vs-tree/", "llama3-405b",
     ["./", "../../scenario/deepseek-v3/scenes/ring-vs-tree/", "../../scenario/llama3-70b/scenes/ring-vs-tree/"]),
    ("scenes/ring-vs-tree/", "deepseek-v3",
     ["../../../../scenes/ring-vs-tree/", "./", "../../../llama3-70b/scenes/ring-vs-tree/"]),
    ("", "llama3-70b", ["../../", "../deepseek-v3/", "./"]),
])
def test_switch_links_keep_the_reader_on_the_same_page(page, here, expected):
    links = scenarios.switch_links(page, here, ["llama3-405b", *OTHERS], "llama3-405b")
    assert [href for _, href in links] == expected


# --- the three scenarios built -------------------------------------------------------------------
SWITCH = re.compile(r'<nav class="[^"]*\bw06-scenario-switch\b[^"]*".*?</nav>', re.S)
HEADER = re.compile(r'<header class="md-header.*?</header>', re.S)


@pytest.mark.slow
def test_every_scenario_builds_data_figures_and_pages(scenario_site, cats):
    manifest = json.loads((ROOT / "build" / "manifest.json").read_text())["entries"]
    for sid, cat in cats.items():
        for s in cat.built:
            page = scenario_site / "scenario" / sid / "scenes" / s.id / "index.html"
            assert page.is_file(), page
            if scenarios.not_modelled(cat, s):
                assert f"scenario/{sid}/data/{s.id}" not in manifest
                assert "Not modelled for" in page.read_text(encoding="utf-8")
                continue
            data = json.loads((scenarios.data_dir(sid) / f"{s.id}.json").read_text())
            assert data["scenario"]["id"] == sid and data["params"] == json.loads(json.dumps(
                compute_task(s).parts["params"]))
            figs = manifest[f"scenario/{sid}/figures/{s.id}"]["outputs"]
            assert len(figs) == (0 if "model_error" in data["scenario"] else 2 * len(s.figures)), (sid, s.id)


@pytest.mark.slow
def test_switch_links_resolve_on_every_page_of_every_scenario(scenario_site):
    from browser import pages

    checked = 0
    for rel in pages(scenario_site, scenarios=True):
        html = (scenario_site / rel / "index.html").read_text(encoding="utf-8")
        if rel == "404/" or rel.endswith("/404/"):
            continue
        header = HEADER.search(html)
        nav = SWITCH.search(header.group(0)) if header else None
        assert nav, f"{rel}: no scenario switch in the header bar"
        hrefs = re.findall(r'href="([^"]+)"', nav.group(0))
        assert len(hrefs) == 3, rel
        here = rel.split("/", 2)[2] if rel.startswith("scenario/") else rel
        for h in hrefs:
            target = os.path.normpath(os.path.join(rel or ".", h))
            target = "" if target == "." else target + "/"
            assert (scenario_site / target / "index.html").is_file(), f"{rel}: {h} resolves to nothing"
            same = target.split("/", 2)[2] if target.startswith("scenario/") else target
            assert same == here, f"{rel}: {h} leaves the page ({target})"
            checked += 1
    assert checked >= 3 * 3 * 25


@pytest.mark.slow
def test_a_failing_claim_is_stated_not_printed(scenario_site, cats, capsys):
    rows = []
    for sid, cat in cats.items():
        for s in scenarios.plan(sid, cat, None):
            info = json.loads((scenarios.data_dir(sid) / f"{s.id}.json").read_text())["scenario"]
            page = (scenario_site / "scenario" / sid / "scenes" / s.id / "index.html").read_text("utf-8")
            page = unescape(re.sub(r"<[^>]+>", "", page))  # glossary links sit inside the claims' words
            failed = info.get("claims_failed", [])
            if failed or "model_error" in info:
                # the written explanation (its takeaway box) is withheld; what differs is said instead
                assert 'class="admonition abstract"' not in page, (sid, s.id)
                assert "What differs:" in page, (sid, s.id)
            for claim in failed:
                assert f"“{claim}” does not hold with these values" in page, (sid, s.id, claim)
            rows.append((sid, s.id, len(failed), info.get("model_error", "")))
    with capsys.disabled():
        print(f"\n{'scenario':12} {'scene':24} claims failing / model error")
        for sid, scene, n, err in rows:
            if n or err:
                print(f"{sid:12} {scene:24} {n or ''} {err[:80]}")
    assert any(n for _, _, n, _ in rows)  # the check above checked something


@pytest.mark.slow
def test_scenario_pages_say_the_animation_is_the_defaults(scenario_site):
    page = (scenario_site / "scenario" / "llama3-70b" / "scenes" / "ring-vs-tree" / "index.html").read_text("utf-8")
    assert "rendered for the default scenario (Llama 3 405B)" in page
    assert 'src="../../../../assets/media/ring-vs-tree.mp4"' in page
    assert not (scenario_site / "scenario" / "llama3-70b" / "assets" / "media").exists()


def test_no_scenario_site_without_its_outputs():
    # the build publishes only scenarios with recorded outputs, so the switch never links to nothing
    assert scenarios.built({"data/x": {}, "scenario/deepseek-v3/data/x": {}}) == ["deepseek-v3"]
    assert scenarios.built({"data/x": {}}) == []


def test_a_build_without_the_scenario_folder_forgets_its_records(tmp_path, monkeypatch):
    from pipeline.engine.manifest import Manifest

    monkeypatch.setattr(scenarios.paths, "ROOT", tmp_path)
    (tmp_path / "build" / "scenario" / "llama3-70b" / "data").mkdir(parents=True)
    kept = tmp_path / "build" / "scenario" / "llama3-70b" / "data" / "x.json"
    kept.write_text("{}")
    m = Manifest(tmp_path / "manifest.json")
    m.entries = {"scenario/deepseek-v3/data/x": {"outputs": {"build/scenario/deepseek-v3/data/x.json": "0"}},
                 "scenario/llama3-70b/data/x": {"outputs": {"build/scenario/llama3-70b/data/x.json": "0"}},
                 "data/x": {"outputs": {"build/data/x.json": "0"}}}
    assert scenarios.absent(m, {}) == ["scenario/deepseek-v3/data/x"]
    assert scenarios.absent(m, {"deepseek-v3": None}) == []  # a scenario being built re-runs instead
    # figures that rightly wrote nothing (a model that refuses the scenario) stay with their data:
    # forgetting them alone left data without figures, and the next plain build refused the site
    m.entries["scenario/llama3-70b/figures/x"] = {"outputs": {}}
    assert scenarios.absent(m, {}) == ["scenario/deepseek-v3/data/x"]
