"""The site's CSS custom properties, generated from the palette.

The site stylesheet (docs/assets/site.css) uses var(--w06-<role>) and never a
literal colour, so the pages, figures and animations always agree. MkDocs
publishes the output of `stylesheet()` as assets/palette.css
(pipeline/site/site_hooks.py), loaded before site.css.
"""

from __future__ import annotations

from design import palette


def _block(theme: str) -> list[str]:
    t = palette.THEMES[theme]
    lines = [f"  --w06-{k}: {v};" for k, v in t.items()]
    lines += [f"  --w06-{name}: {palette.role(name, theme)};" for name in palette.ROLE]
    return lines


def stylesheet() -> str:
    out = ["/* Generated from design/palette.py by design/css.py: edit the palette, not this. */",
           ":root, [data-md-color-scheme=\"default\"] {", *_block("light"), "}",
           "[data-md-color-scheme=\"slate\"] {", *_block("dark"), "}",
           f":root {{ --w06-video-bg: {palette.VIDEO['bg']}; }}", ""]
    return "\n".join(out)
