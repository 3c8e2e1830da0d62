"""MkDocs hooks: what search engines and shared links read.

- `site_url` comes from one place, mkdocs.yml (`!ENV [W06_SITE_URL, ...]`): the deploy workflow sets
  W06_SITE_URL to the address GitHub Pages gives the repository, so a fork needs no edit. With it
  MkDocs writes sitemap.xml and the theme writes a canonical link on every page.
- A meta description per page: a scene page's question and the opening of its takeaway (as the page
  renders them, numbers from the model output); a module page's introduction; otherwise the page's
  first paragraph; the home page the site description.
- Open Graph and Twitter card tags on every page (docs/overrides/main.html prints `page.meta.w06_head`);
  a scene page's og:image is the absolute address of its poster frame (the animation's last frame) in
  this build, and there is no og:image rather than a dead one when the poster is not published.
- robots.txt, allowing everything and naming the sitemap; at the root only, naming the scenario
  sites' sitemaps too. A scenario's pages (site/scenario/<id>/, pipeline/scenarios.py) are a site of
  their own at `<site_url>scenario/<id>/`: their canonical links, sitemap and og:url say so, so a
  search engine sees the DeepSeek-V3 page as a page of its own, not a copy of the default one.
"""

from __future__ import annotations

import html
import re
import sys
from pathlib import Path
from urllib.parse import urljoin

from mkdocs.structure.files import File

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from pipeline import paths, scenarios  # noqa: E402
from pipeline.catalogue import load_cached  # noqa: E402
from pipeline.engine.manifest import Manifest  # noqa: E402
from pipeline.site.shared import preset, site_path  # noqa: E402

DESCRIPTION_MAX = 300  # characters: what a result snippet or a link preview shows, with room
ROBOTS = "User-agent: *\nAllow: /\n\nSitemap: {sitemap}\n"

_TAKEAWAY = re.compile(r'<div class="admonition abstract">\s*<p class="admonition-title">Takeaway</p>(.*?)</div>',
                       re.S)
_PARAGRAPH = re.compile(r"<p(?:\s[^>]*)?>(.*?)</p>", re.S)
_DROP = re.compile(r'<sup class="w06-cite">.*?</sup>|<(script|style|math)\b.*?</\1>', re.S)


def text_of(fragment: str) -> str:
    """An HTML fragment as one line of plain text: citation marks, scripts and equations dropped."""
    text = " ".join(html.unescape(re.sub(r"<[^>]+>", "", _DROP.sub("", fragment))).split())
    return re.sub(r" ([:;,.!?)])", r"\1", text)  # the space a dropped citation mark leaves


def clip(text: str, limit: int = DESCRIPTION_MAX) -> str:
    """At most `limit` characters: whole sentences if they fit, else whole words and an ellipsis."""
    if len(text) <= limit:
        return text
    cut = text[:limit]
    end = max(cut.rfind(". "), cut.rfind("? "), cut.rfind(": "))
    if end > limit // 2:
        return cut[: end + 1].rstrip(":").rstrip() + ("" if cut[end] in ".?" else ".")
    return cut.rsplit(" ", 1)[0].rstrip(",;:") + "…"


def scene_of(page):
    src = page.file.src_uri
    if not src.startswith("scenes/"):
        return None
    try:
        return load_cached().scene(Path(src).stem)
    except (KeyError, ValueError):
        return None


def description(page, content: str, config) -> str:
    scene = scene_of(page)
    if scene is not None:
        m = _TAKEAWAY.search(content)
        takeaway = text_of(m.group(1)) if m else ""
        return clip(f"{scene.question} {takeaway}".strip())
    if page.is_homepage:
        return config["site_description"]
    body = content.split("</h1>", 1)[-1]
    for m in _PARAGRAPH.finditer(body):
        text = text_of(m.group(1))
        if len(text) > 40:
            return clip(text)
    return config["site_description"]


_recorded: set[str] = set()  # build/ outputs the manifest records, read once per site build (on_files)


def poster_url(scene_id: str, site_url: str) -> str | None:
    """Absolute address of the scene's poster frame, if this build publishes one."""
    rel = paths.rel(paths.poster(scene_id, preset()))
    if rel not in _recorded:
        return None
    dest = site_path(rel)
    return urljoin(site_url, dest) if dest and (paths.ROOT / rel).is_file() else None


def social_tags(page, desc: str, config) -> str:
    site_url = config.get("site_url") or ""
    scene = scene_of(page)
    title = (scene.title if scene is not None else config["site_name"] if page.is_homepage
             else html.unescape(page.title or config["site_name"]))
    tags = [("og:type", "article" if scene else "website"), ("og:site_name", config["site_name"]),
            ("og:title", title), ("og:description", desc)]
    if page.canonical_url:
        tags.append(("og:url", page.canonical_url))
    image = poster_url(scene.id, site_url) if scene is not None and site_url else None
    if image:
        tags += [("og:image", image), ("og:image:alt", f"The last frame of the animation: {scene.title}")]
    tags.append(("twitter:card", "summary_large_image" if image else "summary"))
    return "\n".join(f'<meta {"name" if k.startswith("twitter:") else "property"}="{k}" '
                     f'content="{html.escape(str(v), quote=True)}">' for k, v in tags)


def on_page_content(content, page, config, files, **kwargs):
    desc = description(page, content, config)
    # the theme prints page.meta.description unescaped: escape it here, once
    page.meta["description"] = html.escape(desc, quote=True)
    page.meta["w06_head"] = social_tags(page, desc, config)
    return content


def on_config(config, **kwargs):
    here = scenarios.current()
    if here and config.get("site_url"):
        config["site_url"] = urljoin(config["site_url"], f"{scenarios.ROOT_DIR}/{here}/")
    return config


def on_files(files, config, **kwargs):
    _recorded.clear()
    manifest = Manifest()
    _recorded.update(manifest.outputs())
    site_url = config.get("site_url")
    if site_url and not scenarios.current():  # crawlers read robots.txt at the root only
        maps = [urljoin(site_url, "sitemap.xml")] + [urljoin(site_url, f"{scenarios.ROOT_DIR}/{sid}/sitemap.xml")
                                                      for sid in scenarios.built(manifest.entries)]
        files.append(File.generated(config, "robots.txt", content=ROBOTS.format(sitemap="\nSitemap: ".join(maps))))
    return files


def on_post_build(config, **kwargs):
    """MkDocs gzips the sitemap with the build time in the gzip header: write it again with none,
    so the same sources give the same site, byte for byte."""
    import gzip

    site = Path(config["site_dir"])
    xml, gz = site / "sitemap.xml", site / "sitemap.xml.gz"
    if xml.is_file() and gz.is_file():
        gz.write_bytes(gzip.compress(xml.read_bytes(), mtime=0))
