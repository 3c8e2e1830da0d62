"""Equations: LaTeX converted to MathML when the site is built, so the page needs no script.

A page writes TeX inside a Jinja string, and Jinja reads a string's backslash escapes as Python
does: "\\frac" written with one backslash arrives as a form feed and "rac", "\\text" as a tab and
"ext". No TeX source holds those control characters, so the macro turns each back into the
backslash and letter it was: one backslash or two both give the command. (A newline stays white
space: "\\nu" must be written with two backslashes; the page check in pipeline/site/page_checks.py
catches what is left of a command that lost its backslash.)
"""

from __future__ import annotations

import latex2mathml.converter

# the string escapes that turn a backslash and a letter into one control character
EATEN_BACKSLASH = str.maketrans({"\a": "\\a", "\b": "\\b", "\f": "\\f", "\r": "\\r", "\t": "\\t", "\v": "\\v"})


def tex_source(tex: str) -> str:
    """The TeX the page meant: a control character a string escape made is a backslash again."""
    return tex.translate(EATEN_BACKSLASH)


def math(tex: str) -> str:
    """An inline equation."""
    # the span keeps Markdown from taking a line that starts with <math> for a block
    return '<span class="w06-m">' + latex2mathml.converter.convert(tex_source(tex)) + "</span>"


def math_block(tex: str) -> str:
    """A display equation."""
    # focusable, so a keyboard can scroll an equation wider than a phone
    return ('<div class="w06-math" tabindex="0">'
            + latex2mathml.converter.convert(tex_source(tex), display="block") + "</div>")
