"""Trim the theme's stylesheets to the rules this site can use (run after every mkdocs build).

Material ships one stylesheet for every feature and extension it supports: 135 kB, of which a
page here uses a fraction. Every rule costs twice on a phone: its bytes block the first paint,
and the browser tries its selectors against each of a scene page's ~1,300 elements on every
full style recalculation (the theme's bundle forces five at start-up). So, after each build:

- a selector is dropped when it names a class that no page of the build and no script of the
  theme or the site can produce, or a palette colour (`data-md-color-primary=red`) that no page
  offers; a rule with no selector left goes, and an at-rule block with no rule left;
- classes inside functional pseudo-classes (`:not(.x)`, `:is(.x, .y)`) never count against a
  selector: `:not(.unused)` still matches;
- a class counts as producible when a script names it, or names its start in a template
  (`md-source__fact--` + a key);
- the palette's `[data-md-color-switching] *` rule goes: it exists to stop colour transitions
  while the reader switches scheme, but its universal selector turns the bundle's start-up
  palette pass into two extra restyles of the whole page; a switch now fades over the theme's
  0.25 s instead of snapping;
- the result gets a new content-hashed name and every page of the build links to it.

`tests/test_css_purge.py` checks the parser on edge cases, and in Chromium that every element
of built pages computes the same style under the trimmed sheets as under the theme's own.
"""

from __future__ import annotations

import hashlib
import re
from pathlib import Path

THEME_SHEETS = re.compile(r"^(main|palette)\.[0-9a-f]{8}\.min\.css$")
CLASS = re.compile(r"\.(-?[_a-zA-Z][\w-]*)")
PALETTE_ATTR = re.compile(r"\[data-md-color-(primary|accent|scheme)=[\"']?([\w-]+)[\"']?\]")
HTML_CLASS = re.compile(r"""\bclass\s*=\s*(?:"([^"]*)"|'([^']*)')""")
HTML_PALETTE = re.compile(r"""\bdata-md-color-(primary|accent|scheme)\s*=\s*["']([\w-]+)["']""")
JS_TOKEN = re.compile(r"[A-Za-z_][\w-]*")
# string and template literals, near enough: a regex literal can fool it, which is why any token
# with a dash or underscore counts wherever it stands (an identifier cannot hold a dash)
JS_STRING = re.compile(r'"(?:[^"\\\n]|\\.)*"|\'(?:[^\'\\\n]|\\.)*\'|`(?:[^`\\]|\\.)*`')
DROPPED = ("[data-md-color-switching]",)  # see the module's docstring


class CssError(ValueError):
    pass


def _skip_string(css: str, i: int) -> int:
    quote, i = css[i], i + 1
    while i < len(css) and css[i] != quote:
        i += 2 if css[i] == "\\" else 1
    return i + 1


def strip_comments(css: str) -> str:
    out, i, n = [], 0, len(css)
    while i < n:
        c = css[i]
        if c in "\"'":
            j = _skip_string(css, i)
            out.append(css[i:j])
            i = j
        elif css.startswith("/*", i):
            j = css.find("*/", i + 2)
            i = n if j < 0 else j + 2
        else:
            out.append(c)
            i += 1
    return "".join(out)


def items(css: str) -> list[tuple[str, str | None]]:
    """Top-level items of comment-free CSS: (prelude, block) for a rule or block at-rule,
    (statement, None) for `@charset ...;` and the like."""
    found: list[tuple[str, str | None]] = []
    depth, start, open_at, i, n = 0, 0, 0, 0, len(css)
    while i < n:
        c = css[i]
        if c in "\"'":
            i = _skip_string(css, i)
            continue
        if c == "{":
            if depth == 0:
                open_at = i
            depth += 1
        elif c == "}":
            depth -= 1
            if depth < 0:
                raise CssError(f"unbalanced '}}' at offset {i}")
            if depth == 0:
                found.append((css[start:open_at].strip(), css[open_at + 1:i]))
                start = i + 1
        elif c == ";" and depth == 0:
            found.append((css[start:i].strip(), None))
            start = i + 1
        i += 1
    if depth:
        raise CssError("unclosed '{' at the end")
    if css[start:].strip():
        raise CssError(f"text after the last rule: {css[start:][:40]!r}")
    return found


def split_selectors(prelude: str) -> list[str]:
    parts, depth, start, i = [], 0, 0, 0
    while i < len(prelude):
        c = prelude[i]
        if c in "\"'":
            i = _skip_string(prelude, i)
            continue
        if c in "([":
            depth += 1
        elif c in ")]":
            depth -= 1
        elif c == "," and depth == 0:
            parts.append(prelude[start:i].strip())
            start = i + 1
        i += 1
    parts.append(prelude[start:].strip())
    return parts


def _outside_functions(selector: str) -> str:
    """The selector without the arguments of functional pseudo-classes, strings and
    attribute brackets other than the palette's."""
    out, depth, i = [], 0, 0
    while i < len(selector):
        c = selector[i]
        if c in "\"'":
            j = _skip_string(selector, i)
            if depth == 0:
                out.append(selector[i:j])
            i = j
            continue
        if c == "(":
            depth += 1
        elif c == ")":
            depth -= 1
        elif depth == 0:
            out.append(c)
        i += 1
    return "".join(out)


class Usage:
    """What the build can put on a page: class names, class-name prefixes, palette values."""

    def __init__(self, classes: set[str], prefixes: set[str], palette: dict[str, set[str]]):
        self.classes, self.prefixes, self.palette = classes, tuple(sorted(prefixes)), palette

    def has_class(self, name: str) -> bool:
        return name in self.classes or name.startswith(self.prefixes)

    def keeps(self, selector: str) -> bool:
        if any(d in selector for d in DROPPED):
            return False
        bare = _outside_functions(selector)
        for kind, value in PALETTE_ATTR.findall(bare):
            if value not in self.palette.get(kind, set()):
                return False
        return all(self.has_class(c) for c in CLASS.findall(re.sub(r"\[[^\]]*\]", "", bare)))


def usage(html_texts: list[str], js_texts: list[str]) -> Usage:
    classes: set[str] = set()
    palette: dict[str, set[str]] = {}
    for text in html_texts:
        for a, b in HTML_CLASS.findall(text):
            classes.update((a or b).split())
        for kind, value in HTML_PALETTE.findall(text):
            palette.setdefault(kind, set()).add(value)
    prefixes: set[str] = set()
    for text in js_texts:
        tokens = {t for t in JS_TOKEN.findall(text) if "-" in t or "_" in t}
        for literal in JS_STRING.findall(text):
            tokens.update(JS_TOKEN.findall(literal))
        for token in tokens:
            classes.add(token)
            # a template's fixed start, "md-status--" + a name: keep every class it can become
            if token.endswith(("-", "_")) and len(token) >= 5:
                prefixes.add(token)
    return Usage(classes, prefixes, palette)


def purge(css: str, use: Usage) -> str:
    """The stylesheet without the rules `use` can never match."""
    return "".join(_purge_items(items(strip_comments(css)), use))


def _purge_items(found, use: Usage) -> list[str]:
    out = []
    for prelude, block in found:
        if block is None:
            out.append(prelude + ";")
        elif prelude.startswith(("@media", "@supports", "@container", "@layer", "@document")):
            inner = _purge_items(items(block), use)
            if inner:
                out.append(prelude + "{" + "".join(inner) + "}")
        elif prelude.startswith("@"):  # @font-face, @keyframes, @page, @property: kept whole
            out.append(prelude + "{" + block + "}")
        else:
            kept = [s for s in split_selectors(prelude) if use.keeps(s)]
            if kept:
                out.append(",".join(kept) + "{" + block + "}")
    return out


def _pages(site_dir: Path) -> list[Path]:
    """The build's pages: not the scenario copies under scenario/, which purge their own."""
    return sorted(p for p in site_dir.rglob("*.html")
                  if p.relative_to(site_dir).parts[0] != "scenario")


def purge_site(site_dir: Path) -> dict[str, tuple[int, int]]:
    """Trim the theme's sheets in a built site in place; returns {new name: (bytes before, after)}."""
    sheets_dir = site_dir / "assets" / "stylesheets"
    sheets = sorted(p for p in sheets_dir.glob("*.css") if THEME_SHEETS.match(p.name)) \
        if sheets_dir.is_dir() else []
    if not sheets:
        return {}
    pages = _pages(site_dir)
    texts = {p: p.read_text(encoding="utf-8") for p in pages}
    # the scripts that touch pages: the theme's bundle and the site's own, not the search
    # worker or its stemmers, which never see the DOM
    scripts = sorted(p for p in (site_dir / "assets").rglob("*.js")
                     if not {"workers", "lunr"} & set(p.relative_to(site_dir).parts))
    use = usage(list(texts.values()), [s.read_text(encoding="utf-8") for s in scripts])
    renames, sizes = {}, {}
    for sheet in sheets:
        before = sheet.read_text(encoding="utf-8")
        try:
            after = purge(before, use)
        except CssError as exc:
            raise CssError(f"{sheet}: {exc}") from None
        stem = sheet.name.split(".")[0]
        name = f"{stem}.{hashlib.sha256(after.encode()).hexdigest()[:8]}.min.css"
        (sheets_dir / name).write_text(after, encoding="utf-8")
        if name != sheet.name:
            sheet.unlink()
        sheet.with_name(sheet.name + ".map").unlink(missing_ok=True)
        renames[sheet.name] = name
        sizes[name] = (len(before.encode()), len(after.encode()))
    for page, text in texts.items():
        new = text
        for old, name in renames.items():
            new = new.replace(f"stylesheets/{old}", f"stylesheets/{name}")
        if new != text:
            page.write_text(new, encoding="utf-8")
    return sizes
