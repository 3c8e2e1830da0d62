"""Explore panels: the built panel data against the page it belongs to.

Reads the preview build (the session's `preview_site`): every panel's JSON at its default stop
must be the page's own figure and numbers; grids, budgets and the widget's "look values up only"
rule are checked on the built files. The browser behaviour is tests/test_explore_browser.py.
"""

from __future__ import annotations

import gzip
import json
import re
from pathlib import Path

import numpy as np
import pytest

from figures.explore import MAX_SLIDERS, MAX_STOPS, Probe, ProbeError, Slider, probe_default, probe_stops
from models import units
from models.exhibit import ClaimError, check, claims_collected
from models.lib.sweeps import including
from pipeline import paths
from pipeline.catalogue import load
from pipeline.jsonio import load_ref, to_json
from pipeline.workers import explore
from pipeline.workers.compute import run_model

ROOT = Path(__file__).resolve().parent.parent
WIDGET = ROOT / "docs" / "assets" / "explore.js"
JSON_BUDGET = 50_000  # bytes gzipped per page
JS_BUDGET = 8_000  # bytes gzipped
CATALOGUE = load()
PANELS = sorted(s.id for s in CATALOGUE.built if s.explore)


def _panel(scene_id: str) -> dict:
    return json.loads(explore.explore_json(scene_id).read_text(encoding="utf-8"))


def _default_cell(data: dict) -> dict:
    cell = data["cells"]
    for s in data["sliders"]:
        cell = cell[s["default"]]
    return cell


@pytest.fixture(scope="module")
def built(preview_site):
    return preview_site


def test_every_panel_is_listed_in_the_readme():
    """Each scene may have one panel (its catalogue entry names it); the README's table lists them all."""
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    section = readme.split("## Explore panels", 1)[1].split("\n## ", 1)[0]
    listed = set(re.findall(r"^\| `([a-z0-9-]+)` \(", section, flags=re.M))
    assert listed == set(PANELS), f"README's Explore table lists {sorted(listed)}, the catalogue {PANELS}"


def test_claims_are_collected_only_inside_the_block():
    with claims_collected() as broken:
        check(False, "a sentence")
        check(True, "a true sentence")
    assert broken == ["a sentence"]
    with pytest.raises(ClaimError, match="a sentence"):
        check(False, "a sentence")


@pytest.mark.parametrize("scene_id", PANELS)
def test_grid_within_limits(built, scene_id):
    data = _panel(scene_id)
    assert 1 <= len(data["sliders"]) <= MAX_SLIDERS
    cell = data["cells"]
    for s in data["sliders"]:
        assert 2 <= len(s["stops"]) <= MAX_STOPS, (s["id"], len(s["stops"]))
        assert len(s["stops"]) == len(s["keys"]) == len(set(s["keys"])), f"{s['id']}: url keys must be unique"
        assert isinstance(cell, list) and len(cell) == len(s["stops"]), s["id"]
        cell = cell[0]
    assert len(cell["v"]) == len(data["readouts"])
    assert all(isinstance(v, str) for v in cell["v"]), "every number the panel shows is a string Python made"


@pytest.mark.parametrize("scene_id", PANELS)
def test_default_stop_is_the_page(built, scene_id):
    """The panel opens where the page is: its sliders at the catalogue's values, its numbers those
    of the page's own model output, its figure the page's figure (light and dark)."""
    scene = CATALOGUE.scene(scene_id)
    data = _panel(scene_id)
    panel = load_ref(CATALOGUE.scene(scene_id).explore)
    page_data = json.loads(paths.data_json(scene_id).read_text(encoding="utf-8"))
    cell = _default_cell(data)
    probe_i = None
    for spec, s in zip(panel.sliders, data["sliders"], strict=True):
        if isinstance(spec, Slider):
            assert spec.stops[s["default"]] == pytest.approx(scene.params[spec.param], rel=1e-9)
        else:
            probe_i = probe_default(spec, page_data)
            x = page_data["series"][spec.series][probe_i]
            if spec.default is not None:  # the page's own value, not its neighbour on the sweep
                assert x == pytest.approx(spec.default(page_data), rel=1e-9), (spec.series, x)
            assert s["stops"][s["default"]] == units.fmt(x, spec.unit)
    expected = [units.fmt(r.value(page_data, probe_i), r.unit) for r in panel.readouts]
    assert cell["v"] == expected
    assert data["readouts"] == [r.label(page_data) if callable(r.label) else r.label for r in panel.readouts]
    frame = data["frames"][cell["f"]]
    for theme in ("light", "dark"):
        svg = paths.figure_svg(scene_id, data["figure"], theme).read_bytes()
        page_geo, _ = explore.tagged(svg)
        assert page_geo, f"{theme}: the page's figure has no tagged element"
        for tag, geo in page_geo.items():
            if tag in cell["m"]:
                assert geo["xy"] == [cell["m"][tag]], f"{theme}: mark {tag}"
            else:
                assert frame.get(tag) == geo, f"{theme}: tagged element {tag} differs from the page's figure"
        assert set(frame) <= set(page_geo), "every element the panel moves is in the page's figure"


@pytest.mark.parametrize("scene_id", PANELS)
def test_some_stop_moves_the_figure_and_the_numbers(built, scene_id):
    data = _panel(scene_id)
    cells = data["cells"]
    flat = [c for row in cells for c in (row if isinstance(row, list) else [row])]
    assert len({json.dumps(c["v"]) for c in flat}) > 1
    # the figure moves: other curves (a model slider) or other marks (a probe)
    moves = {json.dumps([data["frames"][c["f"]], c["m"]], sort_keys=True) for c in flat}
    assert len(moves) > 1


@pytest.mark.parametrize("scene_id", PANELS)
def test_budget_and_first_load(built, scene_id):
    blob = explore.explore_json(scene_id).read_bytes()
    zipped = len(gzip.compress(blob, mtime=0))
    js = len(gzip.compress(WIDGET.read_bytes(), mtime=0))
    print(f"\n{scene_id}: panel JSON {len(blob):,} B, {zipped:,} B gzipped; explore.js {js:,} B gzipped")
    assert zipped <= JSON_BUDGET, f"{scene_id}: {zipped:,} B gzipped, over {JSON_BUDGET:,}"
    assert js <= JS_BUDGET, f"explore.js: {js:,} B gzipped, over {JS_BUDGET:,}"
    page = (built / "scenes" / scene_id / "index.html").read_text(encoding="utf-8")
    assert 'class="w06-explore"' in page
    # loaded on open only: named in a data attribute, never a <script src> or preload
    assert not re.search(r"<script[^>]+explore\.js|<link[^>]+explore", page)
    assert (built / "assets" / "explore" / f"{scene_id}.json").read_bytes() == blob


@pytest.mark.parametrize("scene_id", PANELS)
def test_fallback_table_holds_the_panel_numbers(built, scene_id):
    page = (built / "scenes" / scene_id / "index.html").read_text(encoding="utf-8")
    data = _panel(scene_id)
    block = page[page.index('class="w06-explore"'):]
    block = block[:block.index("</details>")]
    first = data["sliders"][0]
    rows = re.findall(r"<tr><th scope=\"row\">", block)
    assert len(rows) == len(first["stops"])
    for i in range(len(first["stops"])):
        cell = data["cells"][i]
        for s in data["sliders"][1:]:
            cell = cell[s["default"]]
        row = "".join(f"<td>{v}</td>" for v in cell["v"])
        assert row.replace("&", "&amp;") in block or row in block, f"row {i} of the fallback table"


@pytest.mark.parametrize("scene_id", PANELS)
def test_the_panel_notes_are_on_the_page(built, scene_id):
    # a note says what the sliders do not move: declared in figures/<mod>.py, it must reach the reader
    # (it once went into the JSON only, and neither the page nor the widget showed it)
    import html as html_lib

    page = (built / "scenes" / scene_id / "index.html").read_text(encoding="utf-8")
    block = page[page.index('class="w06-explore"'):]
    block = block[:block.index("</details>")]
    fallback_end = block.index("</div>", block.index("w06-explore-fallback"))
    # the page's abbreviations wrap terms such as MFU in <abbr>: compare the paragraphs' text
    shown = [html_lib.unescape(re.sub(r"<[^>]+>", "", m.group(1)))
             for m in re.finditer(r'<p class="w06-explore-note">(.*?)</p>', block[fallback_end:], re.S)]
    for note in _panel(scene_id).get("notes", ()):
        assert note in shown, f"{scene_id}: a panel note is not shown outside the fallback table: {note[:60]}"


def _code(js: str) -> str:
    """The script without comments and string literals."""
    # one left-to-right pass, so a quote inside the other kind of string is skipped with it
    token = re.compile(r'"(?:\\.|[^"\\\n])*"|\'(?:\\.|[^\'\\\n])*\'|//[^\n]*')
    return token.sub(lambda m: "" if m.group().startswith("//") else '""', js)


def test_widget_only_looks_values_up():
    code = _code(WIDGET.read_text(encoding="utf-8"))
    clamp = re.search(r"function clamp\([^)]*\) \{[^}]*\}", code)
    assert clamp, "explore.js: the index clamp is the one place Math may appear"
    rest = code.replace(clamp.group(), "")
    for pattern, what in [(r"\bMath\.", "Math.* outside the index clamp"), (r"\*\*", "exponentiation"),
                          (r"[^/*]\*[^/*]", "multiplication"), (r"[)\w\]] */ *[\w(]", "division"),
                          (r"%", "remainder"), (r"parseFloat|Number\(|toFixed|toPrecision|NumberFormat",
                                                "number parsing or formatting")]:
        found = re.findall(pattern, rest)
        assert not found, f"explore.js: {what}: {found[:3]}"


def test_the_rule_catches_arithmetic():
    code = _code("function clamp(i, n) { return Math.max(0, Math.min(n - 1, i)); }\nvar y = Math.log(x) * 2;")
    rest = code.replace(re.search(r"function clamp\([^)]*\) \{[^}]*\}", code).group(), "")
    assert re.findall(r"\bMath\.", rest) and re.findall(r"[^/*]\*[^/*]", rest)


# The numbers each page quotes at its own setting, as the model's summary holds them: series name ->
# summary value. The panel's default cell must read the same numbers off its curves.
PAGE_NUMBERS = {
    "pcie-cxl": {"pinned_bw": lambda s: s["small_transfer"] / s["pinned_time_small"],
                 "pageable_bw": lambda s: s["small_transfer"] / s["pageable_time_small"]},
    "ring-vs-tree": {"ring_time": lambda s: s["ring_time_large"], "tree_time": lambda s: s["tree_time_large"],
                     "ring_busbw": lambda s: s["ring_busbw_large"]},
    "daly-checkpoint": {"waste": lambda s: s["waste_optimal"]},
    "nvlink-nvswitch": {"alltoall_nvlink_h100": lambda s: s["alltoall_nvlink_time"],
                        "alltoall_nic": lambda s: s["alltoall_nic_time"],
                        "allreduce_nvlink_h100": lambda s: s["allreduce_nvlink_time"],
                        "allreduce_nic": lambda s: s["allreduce_nic_time"]},
    "stragglers": {"exact": lambda s: s["m_N"], "gumbel": lambda s: s["gumbel_N"], "lead": lambda s: s["lead_N"]},
    "liquid-cooling": {"air_cfm_15K": lambda s: s["air_h100_cfm"]},
    "incast-spraying": {"goodput_lossless": lambda s: s["max_goodput_lossless"],
                        "goodput_lossy": lambda s: s["max_goodput_lossy"]},
    "gang-scheduling": {"p_0": lambda s: s["start_probability_0"], "p_1": lambda s: s["start_probability_1"],
                        "p_spares": lambda s: s["start_spares_8_a0_999"]},
    "cost-per-token": {"blended_owner": lambda s: s["blended_owner"], "blended_rental": lambda s: s["blended_rental"],
                       "step_time": lambda s: s["typical_step_time"]},
    # the page's busy ring with 503s retried, at its 16 workers
    # the page's ring is sized from the read-time tail: its idle, not a simulation's, is the page's number
    # (the panel's readout on the probe's grid: the tail's idle where it holds, as at the page's ring)
    "data-prefetch": {"retried_rank_shown": lambda s: s["retry_idle"]},
    # the page's weights-only b* and its intensity 2b*/w (the worked problem's b* = I* w / 2, rounded up)
    "hbm-roofline": {"batch": lambda s: s["anim_bstar_batch"],
                     "decode_intensity": lambda s: 2 * s["anim_bstar_batch"] / s["weight_bytes"]},
    "silent-data-corruption": {"share_total": lambda s: s["sdc_share_total"],
                               "share_checks": lambda s: s["check_share"],
                               "share_discarded": lambda s: s["discarded_share"]},
}


def test_every_probe_panel_has_its_page_numbers():
    probes = {s for s in PANELS if any(isinstance(x, Probe) for x in load_ref(CATALOGUE.scene(s).explore).sliders)}
    assert probes == set(PAGE_NUMBERS)


@pytest.mark.parametrize("scene_id", sorted(PAGE_NUMBERS))
def test_default_cell_reproduces_the_page_numbers(scene_id):
    """The model at the catalogue's parameters, read where the panel opens: the page's own numbers,
    exactly (a probe that opened at the sweep's neighbour read 36.6 ms for the page's 35.2 ms)."""
    scene = CATALOGUE.scene(scene_id)
    out = json.loads(to_json(run_model(scene_id, scene.model, scene.params)))
    probe = next(x for x in load_ref(scene.explore).sliders if isinstance(x, Probe))
    i = probe_default(probe, out)
    assert i in probe_stops(probe, out), "the page's point is a stop of the probe"
    for name, page in PAGE_NUMBERS[scene_id].items():
        assert out["series"][name][i] == pytest.approx(page(out["summary"]), rel=1e-9), name


def test_probe_opens_at_the_page_point_and_stops_there():
    probe = Probe("x", "x", "B", every=2, default=lambda out: 100.0)
    out = {"series": {"x": [1.0, 10.0, 100.0, 1000.0, 10000.0, 1e5, 1e6]}}
    assert probe_default(probe, out) == 2
    assert probe_stops(probe, out) == [0, 2, 4, 6]
    off_grid = Probe("x", "x", "B", every=3, default=lambda out: 100.0)
    assert probe_stops(off_grid, out) == [0, 2, 6], "the page's point replaces the interior stop nearest it"


def test_a_sweep_without_the_page_value_is_refused():
    """The planted defect: a sweep whose nearest point is 4% off the page's value."""
    probe = Probe("x", "x", "B", every=1, default=lambda out: 1e9)
    out = {"series": {"x": [1e8, 1.04e9, 1e10]}}
    with pytest.raises(ProbeError, match=r"probe 'x': the page's value 1e\+09 is not a point of the series"):
        probe_default(probe, out)
    with pytest.raises(explore.ExploreError, match=r"ring-vs-tree: explore probe 'x'.*not a point"):
        explore._probe_stops("ring-vs-tree", probe, {(): (out, [])}, out)


def test_sweeps_hold_the_quoted_values_exactly():
    grid = np.linspace(0.0, 1.2, 13)
    assert grid[1] != 0.1  # a linspace misses its own round values by a rounding
    xs = including(grid, 0.1, 0.65)
    assert 0.1 in xs and 0.65 in xs and len(xs) == len(grid) + 1, "0.1 replaces its rounding, 0.65 is added"
    assert np.all(np.diff(xs) > 0)


def test_a_label_in_the_table_caption_keeps_its_acronyms():
    # the no-JavaScript table's caption puts slider labels inside a sentence; lower() once printed "gpus ... nic"
    from pipeline.site.sections.exhibit import in_sentence

    assert in_sentence("GPUs in the cluster (one NIC port each)") == "GPUs in the cluster (one NIC port each)"
    assert in_sentence("DDR5 sustained share") == "DDR5 sustained share"
    assert in_sentence("Switch radix k") == "switch radix k"
    assert in_sentence("Decode batch b (sequences)") == "decode batch b (sequences)"
