"""The theme's stylesheets trimmed to what the site's pages and scripts can use (pipeline/site/css_purge.py).

The parser on the edge cases minified CSS has; the rules a page can never match go and the others
stay; a built site links only trimmed sheets. tests/test_css_purge_browser.py checks in Chromium
that every element of built pages computes the same style under the trimmed sheets as under the
theme's own.
"""

from __future__ import annotations

import re

import pytest

from pipeline.site import css_purge as P

USE = P.usage(['<body data-md-color-primary="indigo"><div class="md-header used">'],
              ['x("li",{class:`md-source__fact md-source__fact--${k}`});e.classList.add("md-tooltip--active")'])


def test_the_parser_keeps_strings_and_nested_blocks_whole():
    css = '@charset "UTF-8";a:after{content:"} {"}@media screen{.used{color:red}}/* gone */@keyframes k{0%{opacity:0}}'
    found = P.items(P.strip_comments(css))
    assert [f[0] for f in found] == ['@charset "UTF-8"', "a:after", "@media screen", "@keyframes k"]
    assert found[1][1] == 'content:"} {"'
    assert P.split_selectors('.a:is(.b,.c),[x="1,2"],.d') == [".a:is(.b,.c)", '[x="1,2"]', ".d"]


@pytest.mark.parametrize("css", [".a{color:red", ".a{color:red}}", ".a{color:red} .b"])
def test_broken_css_is_refused(css):
    with pytest.raises(P.CssError):
        P.items(css)


def test_unused_selectors_go_and_used_ones_stay():
    css = (".used,.unused{color:red}.unused .md-header{color:blue}"
           "@media screen{.unused{top:0}}@media print{.md-header{top:0}}"
           ".md-header:not(.unused){left:0}.md-header :is(.unused,.used){right:0}"
           "[href$=\".pdf\"]{x:1}a.used{x:2}")
    out = P.purge(css, USE)
    assert out == (".used{color:red}@media print{.md-header{top:0}}"
                   ".md-header:not(.unused){left:0}.md-header :is(.unused,.used){right:0}"
                   "[href$=\".pdf\"]{x:1}a.used{x:2}")


def test_classes_a_script_can_make_are_kept():
    out = P.purge(".md-source__fact--stars{a:1}.md-tooltip--active{b:1}.md-tooltip--other{c:1}", USE)
    assert out == ".md-source__fact--stars{a:1}.md-tooltip--active{b:1}"


def test_only_offered_palette_colours_and_no_switching_rule():
    css = ("[data-md-color-primary=indigo]{a:1}[data-md-color-primary=red]{a:2}"
           "[data-md-color-switching] *{transition-duration:0s!important}")
    assert P.purge(css, USE) == "[data-md-color-primary=indigo]{a:1}"


def test_keyframes_and_font_faces_are_kept_whole():
    css = "@font-face{font-family:x;src:url(a.woff)}@keyframes spin{from{a:0}to{a:1}}"
    assert P.purge(css, USE) == css


def test_a_built_site_links_only_trimmed_sheets(tmp_path):
    site = tmp_path / "site"
    sheets = site / "assets" / "stylesheets"
    sheets.mkdir(parents=True)
    (sheets / "main.0123abcd.min.css").write_text(
        ".used{a:1}.unused{b:2}\n/*# sourceMappingURL=main.0123abcd.min.css.map*/")
    (sheets / "main.0123abcd.min.css.map").write_text("{}")
    (site / "assets" / "javascripts").mkdir()
    (site / "assets" / "javascripts" / "bundle.js").write_text('a.classList.add("used")')
    page = '<link rel="stylesheet" href="assets/stylesheets/main.0123abcd.min.css"><p class="x">'
    (site / "index.html").write_text(page)
    (site / "scenario" / "b").mkdir(parents=True)
    (site / "scenario" / "b" / "index.html").write_text(page.replace('class="x"', 'class="unused"'))
    sizes = P.purge_site(site)
    (name,) = sizes
    assert re.fullmatch(r"main\.[0-9a-f]{8}\.min\.css", name) and name != "main.0123abcd.min.css"
    assert sorted(p.name for p in sheets.iterdir()) == [name]
    assert (sheets / name).read_text() == ".used{a:1}", "a scenario copy's pages do not count"
    assert f"stylesheets/{name}" in (site / "index.html").read_text()
    assert "0123abcd" in (site / "scenario" / "b" / "index.html").read_text(), "scenario copies purge their own"
    assert P.purge_site(site) == {name: (10, 10)}, "a second pass changes nothing"
    assert sorted(p.name for p in sheets.iterdir()) == [name]


def test_a_sheet_that_cannot_be_parsed_names_itself(tmp_path):
    sheets = tmp_path / "assets" / "stylesheets"
    sheets.mkdir(parents=True)
    (sheets / "main.0123abcd.min.css").write_text(".a{color:red")
    with pytest.raises(P.CssError, match=r"main\.0123abcd\.min\.css.*unclosed"):
        P.purge_site(tmp_path)
