"""figures/svg_glyphs.py: a figure's text runs become one path each, drawn exactly as before."""

from __future__ import annotations

import base64
import io
import re
import xml.etree.ElementTree as ET

import pytest
from PIL import Image, ImageChops

from figures.explore import tag
from figures.svg_glyphs import SVG, XLINK, _affine, merge_glyph_runs
from figures.theme import svg_bytes, themed

_NUM = r"-?\d+(?:\.\d+)?(?:e-?\d+)?"


def _figure():
    import matplotlib.pyplot as plt

    with themed("light"):
        fig, ax = plt.subplots(figsize=(4, 2.5))
        ax.plot([1, 2, 3], [3, 1, 2], marker="o", label="a line")
        ax.set_title(r"M = 3.06 h, $\sqrt{2\delta M}$ and $T_s/T_w$")
        ax.set_xlabel("checkpoint interval τ (min)")
        tag(ax.text(1.5, 2.5, "moved 42%"), "label")
        ax.legend()
        raw = io.BytesIO()
        fig.savefig(raw, format="svg", bbox_inches="tight", metadata={"Date": None, "Creator": None})
        return raw.getvalue(), svg_bytes(fig)


def _points(d: str) -> list[tuple[float, float]]:
    """Every point of a path (absolute or relative M L Q C Z), as absolute coordinates."""
    out, pen, start = [], (0.0, 0.0), (0.0, 0.0)
    for cmd, args in re.findall(rf"([MLQCZmlqcz])((?:\s*{_NUM})*)", d):
        nums = [float(v) for v in re.findall(_NUM, args)]
        if cmd in "Zz":
            pen = start
            continue
        base = pen if cmd.islower() else (0.0, 0.0)
        pts = [(base[0] + nums[k], base[1] + nums[k + 1]) for k in range(0, len(nums), 2)]
        out += pts
        pen = pts[-1]
        if cmd in "Mm":
            start = pen
    return out


def test_text_runs_become_paths_and_tagged_text_keeps_its_glyphs():
    raw, merged = _figure()
    root = ET.fromstring(merged)
    parents = {c: p for p in root.iter() for c in p}

    def inside_tagged(e):
        while e in parents:
            e = parents[e]
            if e.get("id", "").startswith("w06-x-"):
                return True
        return False

    glyph_uses = [u for u in root.iter(f"{SVG}use") if u.get("x") is None]
    assert glyph_uses, "the tagged text keeps its glyph <use>s (the Explore panel swaps them)"
    assert all(inside_tagged(u) for u in glyph_uses), "a glyph <use> outside tagged text"
    ids = {e.get("id") for e in root.iter() if e.get("id")}
    assert all(u.get(XLINK).lstrip("#") in ids for u in root.iter(f"{SVG}use")), "a <use> lost its target"
    def markers(tree):  # points and tick marks: placed by x and y, not glyphs
        return [(u.get(XLINK), u.get("x"), u.get("y")) for u in tree.iter(f"{SVG}use") if u.get("x") is not None]
    assert len(markers(root)) >= 3 and markers(root) == markers(ET.fromstring(raw)), "markers stay as they were"
    before, after = len(list(ET.fromstring(raw).iter())), len(list(root.iter()))
    assert after < before * 0.75, (before, after)


def test_each_glyph_lands_where_its_use_put_it():
    """The merged run's points are the glyph outlines under the <use> and glyph transforms."""
    raw, merged = _figure()
    src = ET.fromstring(raw)
    glyphs = {p.get("id"): p for p in src.iter(f"{SVG}path") if p.get("id")}
    tagged = {id(e) for g in src.iter(f"{SVG}g") if g.get("id", "").startswith("w06-x-") for e in g.iter()}
    runs = [g for g in src.iter(f"{SVG}g") if g.find(f"{SVG}use") is not None
            and g.find(f"{SVG}use").get("x") is None and id(g) not in tagged]
    expected = []
    for g in runs:
        pts = []
        for u in g.findall(f"{SVG}use"):
            glyph = glyphs[u.get(XLINK).lstrip("#")]
            o, i = _affine(u.get("transform", "")), _affine(glyph.get("transform", ""))
            pts += [(o[0] * (i[0] * x + i[2]) + o[2], o[1] * (i[1] * y + i[3]) + o[3])
                    for x, y in _points(glyph.get("d", ""))]
        expected.append((g.get("transform"), pts))
    out = ET.fromstring(merged)
    got = {}
    for g in out.iter(f"{SVG}g"):
        p = g.find(f"{SVG}path")
        if g.get("transform") and p is not None and p.get("id") is None and g.find(f"{SVG}use") is None:
            got.setdefault(g.get("transform"), []).append(_points(p.get("d")))
    assert len(expected) > 5
    for transform, pts in expected:
        candidates = got.get(transform, [])
        assert any(len(c) == len(pts) and all(abs(a - x) <= 0.051 and abs(b - y) <= 0.051
                                              for (a, b), (x, y) in zip(c, pts, strict=True))
                   for c in candidates), f"the run at {transform} moved"


def test_unsupported_placements_are_left_alone():
    svg = (f'<svg xmlns="{SVG[1:-1]}" xmlns:xlink="http://www.w3.org/1999/xlink">'
           '<defs><path id="DejaVuSans-31" d="M 0 0 L 10 0 L 10 10 z"/></defs>'
           '<g transform="translate(5 5)"><use xlink:href="#DejaVuSans-31" transform="rotate(30)"/></g>'
           '<g transform="translate(9 9)"><use xlink:href="#DejaVuSans-31" transform="translate(2 0) scale(2)"/></g>'
           '</svg>').encode()
    out = merge_glyph_runs(svg).decode()
    assert out.count("<use") == 1 and "rotate(30)" in out, "a rotated glyph keeps its <use>"
    assert 'd="m 2 0 l 20 0 l 0 20 z"' in out, out
    assert 'id="DejaVuSans-31"' in out, "its glyph, still used, stays defined"


def _png(page, svg: bytes) -> Image.Image:
    url = "data:image/svg+xml;base64," + base64.b64encode(svg).decode()
    page.set_content(f'<body style="margin:0;background:#fff"><img id="f" src="{url}" style="width:1200px"></body>')
    page.wait_for_function("document.getElementById('f').complete")
    return Image.open(io.BytesIO(page.locator("#f").screenshot())).convert("L")


@pytest.mark.browser  # make test-fast leaves the browser out
@pytest.mark.usefixtures("chromium")
def test_chromium_draws_both_the_same(chromium):
    raw, merged = _figure()
    page = chromium.new_page()
    a, b = _png(page, raw), _png(page, merged)
    page.close()
    assert a.size == b.size
    diff = ImageChops.difference(a, b)
    worst = diff.getextrema()[1]
    changed = sum(diff.histogram()[65:])
    assert ImageChops.difference(a, Image.new("L", a.size, 255)).getbbox(), "nothing was drawn"
    assert changed <= a.size[0] * a.size[1] // 20000, f"{changed} pixels differ by more than 64 (worst {worst})"
