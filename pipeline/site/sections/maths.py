"""Equations: LaTeX converted to MathML when the site is built, so the page needs no script."""

from __future__ import annotations

import latex2mathml.converter


def math(tex: str) -> str:
    """An inline equation."""
    # the span keeps Markdown from taking a line that starts with <math> for a block
    return '<span class="w06-m">' + latex2mathml.converter.convert(tex) + "</span>"


def math_block(tex: str) -> str:
    """A display equation."""
    # focusable, so a keyboard can scroll an equation wider than a phone
    return '<div class="w06-math" tabindex="0">' + latex2mathml.converter.convert(tex, display="block") + "</div>"
