"""The page checks (pipeline/site/page_checks.py) each catch the defect they name, the fixes in the
macros (an eaten backslash restored, a repeated citation mark dropped) hold, and every built page
passes; the site's on_post_page hook runs the same checks in every build."""

from __future__ import annotations

from pathlib import Path

import latex2mathml.converter
import pytest

from pipeline.site.page_checks import (
    mangled_maths,
    number_opens_a_line,
    page_defects,
    repeated_citations,
    table_row_outside_table,
    tag_repeats_next_word,
)
from pipeline.site.sections.citations import drop_repeated_marks
from pipeline.site.sections.maths import math, math_block, tex_source


def _page(body: str) -> str:
    return f"<html><body><nav>menu</nav><article>{body}</article></body></html>"


def _cite(n: int) -> str:
    return f'<sup class="w06-cite"><a href="#ref-{n}">[{n}]</a></sup>'


def _tag(text: str) -> str:
    return f'<span class="w06-tag">{text}</span>'


# --- maths ------------------------------------------------------------------------------------------
PLACEMENT_TAX = "x = \frac{T_c\\,\text{loss}}{C_{\text{spread}}\\,(1-\text{loss}) - C_{\text{packed}}}"  # one backslash


@pytest.mark.parametrize("tex, defect", [
    (PLACEMENT_TAX, "stray 'rac'"),  # as Jinja hands it over: "\f" a form feed, "\t" a tab
    ("a \times b", "stray 'imes'"),
    (r"\foo{x} + 1", "unknown command"),
    (r"\frac{}{b}", "an empty numerator or denominator"),
    (r"\frac{a}{}", "an empty numerator or denominator"),
])
def test_mangled_maths_is_caught(tex, defect):
    planted = _page(f"<p>{latex2mathml.converter.convert(tex)}</p>")
    found = mangled_maths(planted)
    assert any(defect in f for f in found), found


def test_whole_maths_passes_including_words_that_hold_a_command_name():
    for tex in (r"x = \frac{T_c\,\text{loss}}{C}", r"\mathrm{Binomial}(n, p)", r"a \times b", r"e^{-R/M}"):
        assert mangled_maths(_page(latex2mathml.converter.convert(tex))) == [], tex


def test_not_well_formed_mathml_is_caught():
    assert "not well-formed" in mangled_maths(_page("<math><mi>x</mo></math>"))[0]


def test_the_math_macros_restore_a_backslash_a_string_escape_ate():
    eaten = "\frac{a}{b}\text{x}\times\beta\rho\vec{v}\alpha"
    assert tex_source(eaten) == r"\frac{a}{b}\text{x}\times\beta\rho\vec{v}\alpha"
    assert math(PLACEMENT_TAX) == math(PLACEMENT_TAX.replace("\f", "\\f").replace("\t", "\\t"))
    assert mangled_maths(_page(math_block(PLACEMENT_TAX))) == []
    assert "<mfrac>" in math_block(PLACEMENT_TAX)


# --- citations and tags ------------------------------------------------------------------------------
def test_a_mark_repeated_in_a_sentence_is_caught_and_one_in_two_sentences_is_not():
    twice = _page(f"<p>An NDR port is 50.0 GB/s {_tag('per direction, per port')}{_cite(4)} {_cite(4)}. Next.</p>")
    assert "[4] cited 2 times" in repeated_citations(twice)[0]
    thrice = _page(f"<p>3,072{_cite(7)} GPUs, 3,072{_cite(7)} ports and 3,072{_cite(7)} cables.</p>")
    assert "cited 3 times" in repeated_citations(thrice)[0]
    apart = _page(f"<p>One is 5{_cite(3)}. Another is 6{_cite(3)}.</p>")
    assert repeated_citations(apart) == []


def test_a_tag_that_the_next_word_repeats_is_caught():
    planted = _page(f"<p>one 50.0 GB/s {_tag('per direction, per port')}{_cite(5)} port {_cite(5)}.</p>")
    assert "followed by “port”" in tag_repeats_next_word(planted)[0]
    plural = _page(f"<p>18 {_tag('per GPU')}{_cite(8)} GPUs.</p>")
    assert tag_repeats_next_word(plural)
    fine = _page(f"<p>one port ({_tag('per direction, per port')}{_cite(5)}), and each</p>")
    assert tag_repeats_next_word(fine) == []


def test_the_second_of_two_marks_in_a_row_is_dropped_and_a_mark_after_another_source_kept():
    same = f"<p>NVLink is 1.80 TB/s {_tag('bidirectional')}{_cite(3)} {_cite(3)}, each way 900 GB/s.</p>"
    assert drop_repeated_marks(same).count("[3]") == 1
    assert repeated_citations(_page(drop_repeated_marks(same))) == []
    listed = f"<p>median 20.0 min{_cite(1)}, 90th percentile 6.67 h{_cite(1)}; next.</p>"
    assert drop_repeated_marks(listed).count("[1]") == 1
    between = f"<p>0.001{_cite(3)} and 0.001{_cite(4)}, in the range 0.0002{_cite(3)} to 0.005.</p>"
    assert drop_repeated_marks(between) == between  # dropping the last [3] would credit [4]
    assert repeated_citations(_page(between))  # so the check still fails it: the page must be reworded
    sentences = f"<p>One is 5{_cite(3)}. Another is 6{_cite(3)}.</p><p>A third 7{_cite(3)}.</p>"
    assert drop_repeated_marks(sentences) == sentences


def test_page_defects_reads_the_article_not_the_navigation():
    nav_only = f"<html><nav>x{_cite(1)} y{_cite(1)}</nav><article><p>fine</p></article></html>"
    assert page_defects(nav_only) == []


# --- every built page ---------------------------------------------------------------------------
@pytest.mark.browser
def test_every_built_page_passes_the_page_checks(preview_site: Path):
    pages = sorted(preview_site.rglob("*.html"))
    assert len(pages) > 90
    failing = {str(p.relative_to(preview_site)): found for p in pages if (found := page_defects(p.read_text("utf-8")))}
    assert not failing, failing


def test_the_site_hook_stops_the_build_naming_the_page():
    from types import SimpleNamespace

    from mkdocs.exceptions import PluginError

    from pipeline.site import site_hooks
    page = SimpleNamespace(file=SimpleNamespace(src_uri="scenes/placement-tax.md"))
    good = _page("<p>fine</p>")
    assert site_hooks.on_post_page(good, page, {}) == good
    with pytest.raises(PluginError, match=r"scenes/placement-tax.md: equation 1: stray 'rac'"):
        site_hooks.on_post_page(_page(latex2mathml.converter.convert(PLACEMENT_TAX)), page, {})


def test_const_tag_reads_as_part_of_the_sentence():
    from pipeline.site.context import Citations
    from pipeline.site.sections.citations import const_tag
    plain = const_tag(Citations(), "h800_nvlink_links", "p.md", noun="NVLink links")
    assert plain.startswith('8 NVLink links <span class="w06-tag">per GPU</span>'), plain
    pue = const_tag(Citations(), "google_fleet_pue_2023", "p.md")  # a ratio: no "aggregate" after it
    assert "w06-tag" not in pue and "aggregate" not in pue, pue
    coal = const_tag(Citations(), "eia_2022_co2_coal", "p.md")
    assert "aggregate" not in coal and "kWh" in coal, coal
    rack = const_tag(Citations(), "nvl72_nvlink_bw", "p.md")  # a bandwidth: the sum over the rack, said
    assert "aggregate" in rack, rack


@pytest.mark.parametrize("root", ["/", "/scenario/llama3-70b/", "/w06/scenario/deepseek-v3/"])
def test_a_404_page_links_relative_to_its_sites_root_never_doubled(root):
    from pipeline.site.site_hooks import relative_404
    built = (f'<head><meta charset="utf-8"><link href="{root}assets/site.css"></head>'
             f'<a href="{root}">home</a><a href="{root}scenes/ring-vs-tree/">x</a><img src="{root}assets/i.png">')
    fixed = relative_404(built, root)
    for link in ('href="assets/site.css"', 'href="scenes/ring-vs-tree/"', 'src="assets/i.png"'):
        assert link in fixed, fixed
    assert 'href="./"' in fixed and f"'{root}'" in fixed
    assert "scenario/" not in fixed.replace(f"'{root}'", "")


def test_a_plain_number_constant_reads_in_the_unit_its_parameter_declares():
    from pipeline.site.context import Citations
    from pipeline.site.sections.citations import const_tag
    tariff = const_tag(Citations(), "eia_industrial_tariff_ohio", "p.md", unit="USD/kWh")
    assert tariff.startswith("$0.0790/kWh"), tariff
    # a constant with a unit of its own keeps it whatever the caller asks
    assert const_tag(Citations(), "ndr_port_rate", "p.md", unit="B").startswith("50.0 GB/s")


def test_a_number_wrapped_to_the_start_of_a_line_is_caught():
    """'times\\n  72. No failure': Markdown makes the wrapped number an ordered list and drops it."""
    wrapped = "- an NVL72 rack, servers, times\n  72. No failure record was found.\n"
    assert len(number_opens_a_line(wrapped)) == 1 and "72" in number_opens_a_line(wrapped)[0]
    assert number_opens_a_line("A paragraph.\n\n2000. The year opens a paragraph and vanishes.\n")
    # a top-level paragraph's wrapped line continues the paragraph; "4)" is no marker to Python-Markdown
    assert number_opens_a_line("halving since\n2000. Carried on\nbackward\n4) [4]: 6ND\n") == []
    assert number_opens_a_line("**Every layout.** there are\n722. It keeps\n") == []  # bold is no bullet
    # an admonition's paragraph continues past a wrapped number, as a top-level one does
    assert number_opens_a_line("??? question\n    that takes 8; measured,\n    12. So 8 to 12\n") == []


def test_ordered_lists_and_code_pass_the_wrapped_number_check():
    page = ("Steps:\n\n1. first item, whose text\n   wraps to a second line\n2. second item\n"
            "- a bullet\n  1. a nested first item\n  2. and its next\n\n```\n3. code is not Markdown\n```\n")
    assert number_opens_a_line(page) == []


def test_a_table_row_printed_as_text_is_caught_and_a_pipe_in_prose_is_not():
    broken = "<article><table><tr><td>a</td></tr></table><p>| all at once | 1.07 | 1.36 |</p></article>"
    assert len(table_row_outside_table(broken)) == 1
    assert table_row_outside_table("<article><p>P(X | Y) is a conditional, |x| a norm.</p></article>") == []
