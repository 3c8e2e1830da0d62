"""The page macros, section by section (pipeline/site/sections/), without building the site.

Each section is a plain function: these tests hand it a catalogue scene, a model output or a
page context (pipeline/site/context.py) built here, and read the HTML or Markdown it returns.
"""

from __future__ import annotations

import importlib.util
import re
from pathlib import Path
from types import SimpleNamespace

import pytest
import yaml
from jinja2.defaults import DEFAULT_FILTERS

from models.constants import CONSTANTS, SOURCES
from pipeline import paths
from pipeline.catalogue import load_cached
from pipeline.site.context import Build, Citations, Page
from pipeline.site.sections import (
    citations,
    exhibit,
    glossary,
    header,
    home,
    maths,
    player,
    reuse,
    scenario_notes,
    tables,
)

ROOT = Path(__file__).resolve().parent.parent
SCENE = "ring-vs-tree"


def make_page(url: str = f"scenes/{SCENE}/", published: dict | None = None, d: dict | None = None,
              owned: set | None = None) -> Page:
    cat = load_cached()
    build = Build(cat=cat, base=cat, scen=None, published=published or {}, owned=owned or set(),
                  preset="preview")
    src = url.rstrip("/") + ".md" if url else "index.md"
    return build.page(url, src, d or {}, "https://example.org/w06/")


# --- the page context ---------------------------------------------------------------------------
@pytest.mark.parametrize("url, target, link", [
    ("scenes/ring-vs-tree/", "assets/figures/a.svg", "../../assets/figures/a.svg"),
    ("", "assets/figures/a.svg", "assets/figures/a.svg"),
    ("scenes/ring-vs-tree/", "modules/silicon/", "../../modules/silicon/"),
    ("scenes/ring-vs-tree/", "scenes/ring-vs-tree/", "./"),
    ("404.html", "scenes/x/", "scenes/x/"),
])
def test_links_are_relative_to_the_page_and_keep_a_folder_s_slash(url, target, link):
    assert make_page(url).link(target) == link


def test_an_output_is_linked_only_when_the_build_publishes_it():
    svg = paths.figure_svg(SCENE, "time-vs-size", "light")
    page = make_page(published={paths.rel(svg): "assets/figures/x-light.svg"})
    assert page.asset(svg) == "../../assets/figures/x-light.svg"
    assert page.asset(paths.figure_svg(SCENE, "time-vs-size", "dark")) is None


def test_a_scene_macro_off_a_scene_page_names_the_page():
    with pytest.raises(ValueError, match="index.md: this macro belongs on a scene page"):
        make_page("").scene()


def test_a_page_keeps_its_citations_from_one_macro_call_to_the_next():
    page = make_page()
    page.cites.number("llama3")
    again = page.build.page(page.url, page.src, {}, "")
    assert again.cites.keys == ["llama3"]
    assert page.build.page("scenes/other/", "scenes/other.md", {}, "").cites.keys == []


# --- equations --------------------------------------------------------------------------------
def test_equations_are_mathml_inline_and_in_a_focusable_block():
    inline = maths.math("x^2")
    assert inline.startswith('<span class="w06-m"><math') and inline.endswith("</math></span>")
    block = maths.math_block(r"\frac{a}{b}")
    assert block.startswith('<div class="w06-math" tabindex="0"><math') and 'display="block"' in block


# --- citations ----------------------------------------------------------------------------------
def test_citations_are_numbered_by_first_use_and_a_repeat_keeps_its_number():
    cites = Citations(["llama3"])
    first = citations.cite(cites, "deepseek-v3", "p.md")
    assert first == '<sup class="w06-cite"><a href="#ref-2">[2]</a></sup>'
    assert citations.cite(cites, "llama3", "p.md") == '<sup class="w06-cite"><a href="#ref-1">[1]</a></sup>'
    assert cites.keys == ["llama3", "deepseek-v3"]


def test_an_unknown_source_or_constant_names_the_page():
    with pytest.raises(KeyError, match="scenes/x.md: cite\\('no-such'\\)"):
        citations.cite(Citations(), "no-such", "scenes/x.md")
    with pytest.raises(KeyError, match="scenes/x.md: const_tag\\('no_such'\\)"):
        citations.const_tag(Citations(), "no_such", "scenes/x.md")


def test_a_constant_shows_its_value_tag_estimate_and_source():
    name = "deepseek_v3_model_flops_per_gpu"
    cites = Citations()
    out = citations.const_tag(cites, name, "p.md")
    assert out.startswith("437 TFLOP/s ")
    assert '<span class="w06-tag">per GPU, estimate, 320 TFLOP/s to 510 TFLOP/s</span>' in out
    assert out.endswith('<sup class="w06-cite"><a href="#ref-1">[1]</a></sup>')
    assert cites.keys == [CONSTANTS[name].source]


def test_the_reference_list_is_numbered_as_the_marks_and_escaped():
    out = citations.sources(["llama3", "deepseek-v3"])
    assert out.startswith('<ol class="w06-sources">\n<li id="ref-1">')
    assert '<li id="ref-2">' in out and out.endswith("</li>\n</ol>")
    assert "§3.3.1" in out and SOURCES["llama3"].url in out


# --- the parameters and key numbers tables ------------------------------------------------------
def param(label, unit="", kind="number", animation=False):
    return SimpleNamespace(label=label, unit=unit, kind=kind, animation=animation)


def test_each_parameter_says_where_its_value_comes_from():
    scene = SimpleNamespace(
        raw_params={"bw": "$const.ndr_port_rate", "n": "$scenario.gpus", "gpu": "$gpu.h100", "size": 4096,
                    "fps": 15},
        params={"bw": 0, "n": 0, "gpu": None, "size": 4096, "fps": 15})
    spec = {"bw": param("link bandwidth", "B/s"), "n": param("GPUs", "count"), "gpu": param("GPU", kind="entity"),
            "size": param("message <size>", "B"), "fps": param("frames", animation=True)}
    computed = {"bw": 5e10, "n": 16384, "gpu": {"name": "H100 SXM"}}
    rows = tables.params_table(scene, spec, computed, lambda name, unit="": f"[{name}]").split("\n")
    assert rows[:2] == ["| Parameter | Value | From |", "| --- | --- | --- |"]
    assert rows[2] == f"| link bandwidth | [ndr_port_rate] | {CONSTANTS['ndr_port_rate'].label or 'ndr_port_rate'} |"
    assert rows[3] == "| GPUs | 16,384 | the scenario: <code>gpus</code> |"
    assert rows[4] == "| GPU | H100 SXM | datasheet figures, <code>$gpu.h100</code> (sources below) |"
    assert rows[5] == "| message &lt;size&gt; | 4 KiB | chosen for this page |"
    assert len(rows) == 6  # the animation's own parameter is not a reader's


def test_the_key_numbers_table_formats_every_value_in_its_column_s_unit():
    table = {"caption": "Times", "columns": [{"name": "size", "unit": "B"}, {"name": "time", "unit": "s"}],
             "rows": [[4096, 0.002], [1e9, 1.5]]}
    assert tables.numbers_table(table).split("\n") == [
        "*Times*", "", "| size | time |", "| --- | --- |", "| 4 KiB | 2.00 ms |", "| 1.00 GB | 1.50 s |"]


def test_a_column_with_its_own_digits_prints_them_and_only_it_records_them():
    from models.exhibit import Column, Table
    t = Table("Ridges", [Column("ridge", "1", digits=4), Column("rate", "B/s")], [[295.37, 129.6e12]])
    cols = t.to_dict()["columns"]
    assert cols == [{"name": "ridge", "unit": "1", "digits": 4}, {"name": "rate", "unit": "B/s"}]
    assert tables.numbers_table(t.to_dict()).split("\n")[-1] == "| 295.4 | 130 TB/s |"


# --- the animation ---------------------------------------------------------------------------------
def test_the_player_has_no_controls_until_asked_and_a_plain_player_without_script():
    out = player.player("A <title>", "v.mp4", "p.webp", "c.vtt")
    first, fallback = out.split("<noscript>")
    assert "controls" not in first.split("<a ")[0]
    assert 'aria-label="Animation: A &lt;title&gt;"' in first and 'poster="p.webp"' in first
    assert f'<a class="w06-play" href="v.mp4" onclick="{player.PLAY_HANDLER}">' in first
    assert fallback.startswith("<video controls ") and fallback.endswith("</video></noscript>")
    assert out.count('<track kind="captions" src="c.vtt" srclang="en" label="English" default>') == 2


def test_the_transcript_lists_each_beat_at_its_minute_and_second():
    beats = {"beats": [{"start": 0.0, "caption": "One"}, {"start": 75.4, "caption": "Two & three"}]}
    out = player.transcript(beats)
    assert out.startswith('<details class="w06-transcript" id="transcript"><summary>Transcript (2 beats)')
    assert '<li><span class="w06-time">00:00</span> One</li>' in out
    assert '<li><span class="w06-time">01:15</span> Two &amp; three</li>' in out


def test_the_animation_s_caption_says_when_it_is_the_default_run_s():
    assert exhibit.video_figure("P", 61.6).endswith("<figcaption>Animation, 62 s, with captions.</figcaption>\n"
                                                     "</figure>")
    other = exhibit.video_figure("P", 10, "Llama 3 405B", "DeepSeek-V3")
    assert ("with captions, rendered for the default scenario (Llama 3 405B): its numbers are that run's, "
            "not DeepSeek-V3's.</figcaption>") in other


def test_an_exhibit_not_rendered_or_drawn_says_so():
    out = exhibit.exhibit(make_page())
    assert '<p class="w06-pending">The animation is not rendered at the <code>preview</code> preset yet' in out
    assert "is not drawn yet.</p>" in out


def test_a_figure_shows_each_scheme_s_variant_only_in_that_scheme():
    out = exhibit.figure('Time "vs" size', "l.svg", "d.svg")
    assert '<img src="l.svg#only-light" alt="Time &quot;vs&quot; size"' in out
    assert '<img src="d.svg#only-dark"' in out and "<figcaption>Time &quot;vs&quot; size.</figcaption>" in out


# --- the Explore panel --------------------------------------------------------------------------------
PANEL = {"title": "Explore", "figure": "f", "readouts": ["time"],
         "sliders": [{"label": "GPUs", "stops": ["8", "16"], "default": 1},
                     {"label": "Message size", "stops": ["1 MB", "1 GB"], "default": 0}],
         "cells": [[{"v": ["1 ms"]}, {"v": ["2 s"]}], [{"v": ["3 ms"]}, {"v": ["4 s"]}]]}


def test_the_explore_fallback_walks_the_first_slider_at_the_page_s_other_settings():
    out = exhibit.explore_table(PANEL)
    assert "<caption>Key values by GPUs, message size 1 MB, computed when the site was built</caption>" in out
    assert '<tr><th scope="row">8</th><td>1 ms</td></tr>' in out
    assert '<tr><th scope="row">16 (this page)</th><td>3 ms</td></tr>' in out


def test_the_explore_panel_carries_its_links_for_the_widget():
    links = {"panel": "p.json", "light": "l.svg", "dark": "d.svg", "script": "e.js"}
    out = exhibit.explore_panel(PANEL, "explore-x-f", "An <alt>", links)
    assert out.startswith('<details class="w06-explore" id="explore-x-f" data-search-exclude data-panel="p.json" '
                          'data-light="l.svg" '
                          'data-dark="d.svg" data-script="e.js" data-alt="An &lt;alt&gt;"><summary>Explore</summary>')
    assert out.endswith("</table></div>\n</details>")


# --- reuse ------------------------------------------------------------------------------------------------
def test_downloads_list_only_what_is_published_then_the_licence_and_the_kit():
    csv = paths.data_csv(SCENE)
    page = make_page(published={paths.rel(csv): f"assets/data/{SCENE}.csv"})
    out = reuse.reuse(page)
    assert out.startswith('<div data-search-exclude>\n<ul class="w06-downloads">\n'
                          f'<li><a href="../../assets/data/{SCENE}.csv" download>Numbers table (CSV)</a></li>\n</ul>')
    assert f"<p>{reuse.LICENSE}</p>" in out
    assert "is not part of this build: <code>make slides S=ring-vs-tree</code> makes it." in out
    assert "https://example.org/w06/scenes/ring-vs-tree/. Licensed CC BY 4.0" in out


# --- the scene page's header and the scenario notes --------------------------------------------------
def test_the_header_starts_the_reference_list_with_the_catalogue_s_sources():
    page = make_page()
    page.cites.keys = ["stale"]
    out = header.scene_header(page)
    scene = page.scene()
    assert out == f'# {scene.label} · {scene.title}\n\n<p class="w06-question">{scene.question}</p>\n'
    assert page.cites.keys == list(scene.sources)


def test_a_scene_without_data_says_how_to_build_it():
    assert "<code>make scene S=x</code> or <code>make</code>" in header.not_computed("x")
    assert header.pending().startswith('<p class="w06-pending"><strong>Not built yet.</strong>')


def test_a_scenario_s_changed_inputs_are_shown_beside_the_default_s():
    spec = {"n": param("GPUs", "count"), "bw": param("bandwidth", "B/s")}
    default = SimpleNamespace(raw_params={"n": "$scenario.gpus", "bw": 1e9}, params={"n": 16384, "bw": 1e9})
    same = SimpleNamespace(raw_params={"n": "$scenario.gpus", "bw": 1e9}, params={"n": 16384, "bw": 1e9})
    assert scenario_notes.differences(default, same, spec, "A", "B") == ""
    other = SimpleNamespace(raw_params={"n": "$scenario.gpus", "bw": 1e9}, params={"n": 2048, "bw": 1e9})
    out = scenario_notes.differences(default, other, spec, "Llama", "DeepSeek")
    assert out == ("<table><thead><tr><th>Input</th><th>Llama</th><th>DeepSeek</th></tr></thead>"
                   "<tbody><tr><td>GPUs</td><td>16,384</td><td>2,048</td></tr></tbody></table>")


def test_the_claims_note_counts_the_claims_that_fail():
    one = scenario_notes.claims_note(["the tree wins"], "A", "B")
    assert "<strong>1 of the statements the explanation makes for A does not hold for B</strong>" in one
    assert "<li>“the tree wins” does not hold with these values.</li>" in one
    assert " do not hold for B" in scenario_notes.claims_note(["x", "y"], "A", "B")
    assert "Every worded claim the model checks holds with B's values" in scenario_notes.claims_note([], "A", "B")


def test_held_constants_are_listed_only_when_there_are_any():
    assert scenario_notes.held_inputs([], str, "A", "B") == ""
    out = scenario_notes.held_inputs(["ndr_port_rate"], lambda n: f"[{n}]", "A", "B")
    assert out.startswith("<p>These inputs stay at A's published values (B publishes none this model can take)")
    assert out.endswith(": [ndr_port_rate]</li></ul>")


# --- the home and module pages ---------------------------------------------------------------------------
def test_planned_scenes_are_one_folded_line_each():
    page = make_page("")
    one = [SimpleNamespace(id="x", label="07", title="T", question="Q?")]
    assert home.planned(page, []) == ""
    out = home.planned(page, one)
    assert out.startswith('<details class="w06-planned"><summary>1 more scene planned, not built yet</summary>')
    assert '<li><a href="scenes/x/">07 · T</a> <span class="w06-planned-q">Q?</span></li>' in out


def test_a_card_without_a_poster_says_so_and_links_the_scene():
    out = home.card(make_page(""), load_cached().scene(SCENE))
    assert out.startswith(f'<a class="w06-card" href="scenes/{SCENE}/">'
                          '<span class="w06-card-empty">poster not rendered in this build</span>')


def test_the_journey_lists_every_module_but_the_case_study_with_its_count():
    out = home.journey_at_a_glance(make_page(""))
    cat = load_cached()
    assert out.count("<li>") == sum(m.id != home.CASE_STUDY for m in cat.modules)
    assert '<a href="modules/silicon/">' in out


def test_a_module_intro_is_read_from_the_catalogue_as_written(tmp_path):
    p = tmp_path / "catalogue.yml"
    p.write_text(yaml.safe_dump({"modules": [{"id": "a", "intro": "Hello."}, {"id": "b"}]}))
    assert home.intro("a", p) == "Hello."
    assert home.intro("b", p) == "" and home.intro("c", p) == ""


def test_no_signature_animation_when_no_video_is_published():
    assert home.signature(make_page("")) == ""


# --- the glossary page ---------------------------------------------------------------------------------
def test_a_glossary_entry_cites_a_bibliography_key_or_a_written_out_source():
    entries = [{"id": "term-a", "term": "A", "expansion": "Ay", "text": "x < y", "source": "llama3"},
               {"id": "term-b", "term": "B", "expansion": "Bee", "text": "t",
                "source": {"publisher": "P", "title": "T", "url": "https://e.org/", "year": 2020}},
               {"id": "term-c", "term": "C", "expansion": "See", "text": "t"}]
    out = glossary.glossary_page(entries)
    assert '<dt id="term-a">A <span class="w06-expansion">Ay</span></dt><dd>x &lt; y' in out
    assert f'Source: {SOURCES["llama3"].publisher}, ' in out
    assert ('<span class="w06-gloss-src">Source: P, <a href="https://e.org/"><cite>T</cite></a> (2020).</span>'
            in out)
    assert '<dd>t</dd>\n</dl>' in out


# --- registration -------------------------------------------------------------------------------------------
class FakeEnv:
    def __init__(self):
        self.macros, self.filters, self.variables, self.conf = {}, {}, {}, {"site_url": ""}

    def macro(self, f, name):
        self.macros[name] = f

    def filter(self, f, name):
        self.filters[name] = f


def load_macros_module():
    """As the macros plugin loads it: from its file, by the name mkdocs.yml gives."""
    module_name = re.search(r"module_name:\s*(\S+)", (ROOT / "mkdocs.yml").read_text()).group(1)
    spec = importlib.util.spec_from_file_location(module_name, ROOT / f"{module_name}.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_every_macro_and_filter_a_page_calls_is_registered():
    env = FakeEnv()
    load_macros_module().define_env(env)
    called = set()
    for p in (ROOT / "docs").rglob("*.md"):
        text = p.read_text(encoding="utf-8")
        own = set(re.findall(r"\{%-? *macro +([a-z_]+)\(", text))  # a page's own Jinja macros are defined there
        called |= set(re.findall(r"\{\{-? *([a-z_]+)\(", text)) - {"super"} - own
        called |= {f for f in re.findall(r"\|\s*([a-z_]+)", "".join(re.findall(r"\{\{.*?\}\}", text, re.S)))}
    hooks = (ROOT / "pipeline" / "site" / "site_hooks.py").read_text()
    called |= set(re.findall(r"\{\{+ *([a-z_]+)\(", hooks))
    assert called - set(env.macros) - set(env.filters) - set(DEFAULT_FILTERS) == set()
    assert env.variables["catalogue"] is not None
