"""The site: MkDocs hooks and page macros over the catalogue and the recorded outputs of build/.

- `shared.py`: what both the hooks and the macros need (the preset, where a build output is
  published, the glossary's entries); the macros import no hooks module.
- `site_hooks.py`: nav and files from the catalogue and build/, first-use glossary links, the
  scenario switch, the 404 page; `seo_hooks.py`: meta descriptions, Open Graph tags, robots.txt;
  `css_purge.py`: the theme's stylesheets trimmed to what the pages use.
- `macros.py`: registers the page macros; each page section is a module of plain functions in
  `sections/`, over the explicit build and page context of `context.py`.
- `kit_site.py`: which files of the presenter kit a page lists, and the HTML.
"""
