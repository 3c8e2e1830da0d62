"""One path per text run in a figure's SVG, in place of one <use> per glyph.

matplotlib writes text as glyph outlines (svg.fonttype "path": no font needed to read the figure)
and places each glyph with a <use>. A browser clones the referenced outline into a shadow tree for
every <use>, and styles and lays out each clone: a scene figure's few hundred glyphs made a
document of about 1,400 elements, whose first style pass and layout, on the page's main thread,
was a long task on a phone. Here each run's glyphs become one <path> whose outline is
the glyphs' outlines with their placements applied: the same shapes, drawn the same way, in one
element.

Left as they are:
- anything inside an element the Explore panel moves (id "w06-x-..."): its script swaps those
  glyph runs by their <use>s (docs/assets/explore.js);
- a run whose placements are not plain translate/scale, or whose glyph is not a plain outline.
Glyph definitions no <use> refers to any more are dropped.
"""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET

SVG = "{http://www.w3.org/2000/svg}"
XLINK = "{http://www.w3.org/1999/xlink}href"
GLYPH_PREFIXES = ("Inter-", "DejaVu", "STIX")  # the fonts figures/theme.py draws with
EXPLORE_PREFIX = "w06-x-"
_ARGS = {"M": 1, "L": 1, "Q": 2, "C": 3, "Z": 0}  # coordinate pairs per command
_TOKEN = re.compile(r"[MLQCZz]|-?\d+(?:\.\d+)?(?:e-?\d+)?")
_STEP = re.compile(r"\s*(translate|scale)\(\s*([^)]*)\)")

for _prefix, _uri in (("", SVG[1:-1]), ("xlink", XLINK[1:XLINK.index("}")]),  # matplotlib's own prefixes
                     ("dc", "http://purl.org/dc/elements/1.1/"), ("cc", "http://creativecommons.org/ns#"),
                     ("rdf", "http://www.w3.org/1999/02/22-rdf-syntax-ns#")):
    ET.register_namespace(_prefix, _uri)


def _affine(transform: str) -> tuple[float, float, float, float] | None:
    """(sx, sy, tx, ty) of a chain of translate() and scale(), or None for anything else."""
    sx, sy, tx, ty = 1.0, 1.0, 0.0, 0.0
    pos = 0
    while pos < len(transform.strip()):
        m = _STEP.match(transform, pos)
        if not m:
            return None
        kind, nums = m.group(1), [float(v) for v in re.split(r"[\s,]+", m.group(2).strip())]
        if kind == "translate":
            dx, dy = nums[0], nums[1] if len(nums) > 1 else 0.0
            tx, ty = tx + sx * dx, ty + sy * dy
        else:
            kx, ky = nums[0], nums[1] if len(nums) > 1 else nums[0]
            sx, sy = sx * kx, sy * ky
        pos = m.end()
    return sx, sy, tx, ty


def _num(v: float) -> str:
    text = f"{v:.1f}".rstrip("0").rstrip(".")
    return "0" if text in ("-0", "") else text


def _placed(d: str, a: tuple[float, float, float, float], pen: list[float]) -> str | None:
    """Outline `d` (absolute M L Q C Z) with the scale-and-translate `a` applied, written with
    relative commands from the pen position `pen` (updated): short numbers that compress well."""
    sx, sy, tx, ty = a
    out, tokens, i = [], _TOKEN.findall(d), 0
    start = pen[:]
    while i < len(tokens):
        cmd = tokens[i].upper()
        if cmd not in _ARGS:
            return None
        pairs = tokens[i + 1:i + 1 + 2 * _ARGS[cmd]]
        if len(pairs) != 2 * _ARGS[cmd] or any(p.upper() in _ARGS for p in pairs):
            return None
        i += 1 + len(pairs)
        if cmd == "Z":
            out.append("z")
            pen[:] = start
            continue
        # rounded absolute points first, so the deltas add up to them exactly: no drift
        pts = [(round(sx * float(pairs[k]) + tx, 1), round(sy * float(pairs[k + 1]) + ty, 1))
               for k in range(0, len(pairs), 2)]
        out.append(cmd.lower())  # every point of a relative command is from the pen at its start
        for x, y in pts:
            out += [_num(x - pen[0]), _num(y - pen[1])]
        pen[:] = list(pts[-1])
        if cmd == "M":
            start = pen[:]
    return " ".join(out)


def merge_glyph_runs(svg: bytes) -> bytes:
    """The SVG with each text run's glyph <use>s replaced by one <path> (see the module doc)."""
    root = ET.fromstring(svg)
    glyphs = {p.get("id"): p for p in root.iter(f"{SVG}path") if p.get("id", "").startswith(GLYPH_PREFIXES)}
    moved = set()

    def walk(g: ET.Element) -> None:
        if g.get("id", "").startswith(EXPLORE_PREFIX):
            return
        uses = [u for u in g if u.tag == f"{SVG}use" and u.get("x") is None
                and u.get(XLINK, "").lstrip("#") in glyphs]
        if uses:
            parts, pen = [], [0.0, 0.0]  # a path's first relative moveto is absolute
            for u in uses:
                glyph = glyphs[u.get(XLINK).lstrip("#")]
                outer, inner = _affine(u.get("transform", "")), _affine(glyph.get("transform", ""))
                if outer is None or inner is None or not glyph.get("d", "").strip():
                    parts.append(None if glyph.get("d", "").strip() else "")
                    continue
                a = (outer[0] * inner[0], outer[1] * inner[1],
                     outer[0] * inner[2] + outer[2], outer[1] * inner[3] + outer[3])
                parts.append(_placed(glyph.get("d"), a, pen))
            if None not in parts:
                first = list(g).index(uses[0])
                for u in uses:
                    g.remove(u)
                    moved.add(u.get(XLINK).lstrip("#"))
                g.insert(first, ET.Element(f"{SVG}path", {"d": " ".join(p for p in parts if p)}))
        for child in g:
            walk(child)

    walk(root)
    for e in root.iter():  # matplotlib's indentation: text nodes of whitespace only (no <text> here)
        if e.text is not None and not e.text.strip() and len(e):
            e.text = None
        if e.tail is not None and not e.tail.strip():
            e.tail = None
    still = {u.get(XLINK, "").lstrip("#") for u in root.iter(f"{SVG}use")}
    parents = {child: parent for parent in root.iter() for child in parent}
    for defs in list(root.iter(f"{SVG}defs")):
        for p in list(defs):
            if p.get("id") in moved and p.get("id") not in still:
                defs.remove(p)
        if not len(defs):
            parents[defs].remove(defs)
    return b'<?xml version="1.0" encoding="utf-8" standalone="no"?>\n' + ET.tostring(root, encoding="unicode").encode()
