"""Checks every built page must pass: its equations are whole and its tagged, cited numbers read as
a sentence. The site's hooks (site_hooks.on_post_page) run them on every page and stop the build
with the page and the defect named; tests/test_site_page_checks.py shows each catching a planted case.

- `mangled_maths`: an equation whose TeX lost a backslash ("x = rac T_c ext loss": Jinja reads
  "\\f" and "\\t" in a page's string as a form feed and a tab), a command the converter did not
  know (it prints "\\foo" as an identifier), an empty numerator or denominator, MathML that is not
  well formed.
- `repeated_citations`: one citation mark twice in a sentence ("3,072 [7] ... 3,072 [7]", "[3] [3]").
- `tag_repeats_next_word`: a constant's tag followed by a word it already says
  ("50.0 GB/s per direction, per port [5] port").
- `table_row_outside_table`: a paragraph of pipes, a table row that fell out of its table (a blank
  line a Jinja loop left inside the table ends it; the row after it prints as text).
- `number_opens_a_line`, on the page's Markdown once the macros have filled it in (the hooks'
  on_page_markdown): a number wrapped to the start of a line, which Markdown turns into an ordered
  list, dropping the number ("times\n  72. No failure" read "times" and a list item).
"""

from __future__ import annotations

import html
import re
import xml.etree.ElementTree as ET

MATHML_NS = "{http://www.w3.org/1998/Math/MathML}"
_MATH = re.compile(r"<math\b.*?</math>", re.S)

# What is left of a TeX command when a Python/Jinja string escape ate its backslash and first letter
# (\a \b \f \n \r \t \v become control characters, which the converter then drops as white space).
# Three letters or more, so that ordinary variable names ("ab", "ar") are never taken for one.
EATEN_COMMANDS = ("alpha", "approx", "beta", "bar", "bigl", "bigr", "binom", "boldsymbol", "frac", "forall",
                  "nabla", "neq", "not", "right", "rightarrow", "rangle", "rho", "rm", "text", "textbf",
                  "textit", "textrm", "tfrac", "theta", "tilde", "times", "vec", "varepsilon", "varphi", "vdots")
STRAY_TAILS = {c[1:]: c[0] for c in EATEN_COMMANDS if len(c) >= 4}  # what is left -> the letter eaten


def mangled_maths(page_html: str) -> list[str]:
    """What is wrong with each equation on the page, one line each; [] when every one is whole."""
    found = []
    for n, m in enumerate(_MATH.finditer(page_html), 1):
        try:
            root = ET.fromstring(m.group(0))
        except ET.ParseError as exc:
            found.append(f"equation {n}: not well-formed MathML ({exc})")
            continue
        found += [f"equation {n}: {why}" for why in _math_problems(root)]
    return found


def _math_problems(root: ET.Element) -> list[str]:
    problems = []
    for el in root.iter():
        name = el.tag.removeprefix(MATHML_NS)
        text = el.text or ""
        if name in ("mi", "mo", "mtext") and text.startswith("\\"):
            problems.append(f"unknown command {text!r}")
        if any(ord(ch) < 32 and ch not in "\n" for ch in text):
            problems.append(f"a control character in {text!r} (a backslash read as a string escape)")
        if name == "mfrac" and (len(el) != 2 or any(_empty(child) for child in el)):
            problems.append("an empty numerator or denominator")
        for run in _letter_runs(el):
            if tail := _stray_tail(run):
                problems.append(f"stray {tail!r} in {run!r}: a command that lost its backslash")
    return problems


def _stray_tail(run: str) -> str | None:
    """The first command tail in `run` not preceded by its own first letter ("Binomial" is a word,
    "rac" alone is "\\frac" without its "\\f")."""
    low = run.lower()
    for tail, first in sorted(STRAY_TAILS.items(), key=lambda kv: -len(kv[0])):
        for m in re.finditer(re.escape(tail), low):
            if m.start() == 0 or low[m.start() - 1] != first:
                return tail
    return None


def _empty(el: ET.Element) -> bool:
    return not (el.text or "").strip() and len(el) == 0


def _letter_runs(el: ET.Element) -> list[str]:
    """The words spelt by consecutive one-letter identifiers among `el`'s children: converted TeX
    prints "rac" (from "\\frac" whose "\\f" became a form feed) as three <mi>."""
    runs, run = [], ""
    for child in el:
        text = child.text or ""
        if child.tag.removeprefix(MATHML_NS) == "mi" and len(text) == 1 and text.isalpha() and len(child) == 0:
            run += text
            continue
        if len(run) >= 3:
            runs.append(run)
        run = ""
    if len(run) >= 3:
        runs.append(run)
    return runs


# --- tags and citations -------------------------------------------------------------------------
_BLOCK = re.compile(r"<(p|li|td|th|figcaption|summary)\b[^>]*>(.*?)</\1>", re.S)
_CITE = re.compile(r'<sup class="w06-cite"><a href="#ref-(\d+)">\[\d+\]</a></sup>')
_MARK = "\x00cite{}\x00"
_SENTENCE_END = re.compile(r"(?<=[.!?])\s+(?=[A-Z(“\"])")


def _plain(fragment: str) -> str:
    """The fragment's text, each citation mark kept as a token `_MARK` and math dropped."""
    fragment = _MATH.sub("x", fragment)
    fragment = _CITE.sub(lambda m: _MARK.format(m.group(1)), fragment)
    return html.unescape(re.sub(r"<[^>]+>", "", fragment))


def repeated_citations(page_html: str) -> list[str]:
    """Each sentence that carries one citation mark more than once, shown with its marks as [n]."""
    found = []
    for _, block in _BLOCK.findall(_article(page_html)):
        for sentence in _SENTENCE_END.split(_plain(block)):
            marks = re.findall(r"\x00cite(\d+)\x00", sentence)
            twice = sorted({k for k in marks if marks.count(k) > 1}, key=int)
            if twice:
                shown = re.sub(r"\x00cite(\d+)\x00", r"[\1]", " ".join(sentence.split()))
                times = max(marks.count(k) for k in twice)
                found.append(f"[{'], ['.join(twice)}] cited {times} times in one sentence: {shown[:160]}")
    return found


_TAGGED = re.compile(r'<span class="w06-tag">([^<]*)</span>(?:\s*<sup class="w06-cite">.*?</sup>)?\s*([^<\s]*)', re.S)
_FILLER = {"per", "a", "an", "the", "of", "to", "and", "or", "in", "on", "at", "estimate"}


def tag_repeats_next_word(page_html: str) -> list[str]:
    """Each constant's tag that the next word of the prose repeats ("per port [5] port")."""
    found = []
    for tag, after in _TAGGED.findall(_article(page_html)):
        words = {_stem(w) for w in re.findall(r"[A-Za-z][\w-]*", html.unescape(tag))} - _FILLER
        nxt = re.match(r"[A-Za-z][\w-]*", html.unescape(after))
        if nxt and _stem(nxt.group(0)) in words:
            found.append(f"tag “{html.unescape(tag)}” is followed by “{nxt.group(0)}”, a word it already says")
    return found


def _stem(word: str) -> str:
    w = word.lower()
    return w[:-1] if w.endswith("s") and len(w) > 3 else w


_PIPE_PARAGRAPH = re.compile(r"<p>\s*\|([^<]*\|){2,}")


def table_row_outside_table(page_html: str) -> list[str]:
    """A paragraph that reads "| a | b | c |": a table row Markdown did not take into its table."""
    return [f"a table row printed as text ({html.unescape(m.group(0))[3:60]!r}): a blank line inside the table "
            "ended it (a Jinja loop's '{% endfor %}' line; '{%- ... -%}' trims it)"
            for m in _PIPE_PARAGRAPH.finditer(_article(page_html))]


_FENCE = re.compile(r"^\s*(```|~~~)")
_ORDERED = re.compile(r"^(\s*)(\d+)\.\s")  # Python-Markdown's ordered-list marker: digits and a full stop
_BULLET = re.compile(r"^\s*[-*+]\s")  # a bullet and a space ("**bold**" opens no item)


def number_opens_a_line(markdown: str) -> list[str]:
    """A number wrapped to the start of a line inside a list item ("- ... times\n  72. No failure": a macro's
    value at a line break), or opening a block, reads to Python-Markdown as an ordered list: the number
    vanishes and the sentence splits in two. Run on the page's Markdown after the macros have filled it in.
    Passes: a wrapped line of a paragraph that is no list (Markdown continues the paragraph there, in an
    admonition too), and a list's own items (numbered 1, or on from the last item at the same indent)."""
    found, fenced, last_number, list_block, prev = [], False, {}, False, ""
    for line in markdown.split("\n"):
        if _FENCE.match(line):
            fenced = not fenced
        opens_block = not prev.strip()
        prev = line
        if opens_block and line.strip():  # a block after a blank line: a list if its first line is an item
            list_block = bool(_ORDERED.match(line) or _BULLET.match(line))
        m = None if fenced else _ORDERED.match(line)
        if not m:
            continue
        indent, number = len(m.group(1)), int(m.group(2))
        if (opens_block or list_block) and number not in (1, last_number.get(indent, 0) + 1):
            found.append(f"a line opens with the number {m.group(2)} ({line.strip()[:48]!r}): Markdown reads "
                         "it as an ordered list, the number vanishes; keep it on the line before")
        last_number[indent] = number
    return found


def _article(page_html: str) -> str:
    """The page's own content, not the navigation or the footer."""
    start = page_html.find("<article")
    end = page_html.rfind("</article>")
    return page_html[start:end] if start >= 0 and end > start else page_html


def page_defects(page_html: str) -> list[str]:
    """Every defect the checks find on one built page."""
    return (mangled_maths(page_html) + repeated_citations(page_html) + tag_repeats_next_word(page_html)
            + table_row_outside_table(page_html))
