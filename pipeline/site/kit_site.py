"""The presenter kit on the site: which kit files a page lists, which it links, and the HTML.

Where the files go (README "Presenter kit"): `make presenter` / `make slides S=<id>` write
build/presenter/<id>/ and build/media/4k/<id>.mp4, recorded in the manifest. The site lists a
scene's kit only from the manifest, so it never names a file this build did not make:

- light files (the 1080p60 MP4, the poster PNG, the two caption tracks) are copied into the site,
  under assets/presenter/<id>/, and linked;
- heavy files (the 4k master, the transparent WebM, the PPTX and the zipped HTML deck, together
  several times the size of the light ones) are listed with their size and how to get them: made
  by `make slides S=<id>` from the source; never a link, so never dead.

Not a module of the kit's renders (pipeline/presenter.py), so editing the page side never
re-renders a kit.
"""

from __future__ import annotations

import html
from dataclasses import dataclass
from pathlib import Path

from models import units
from pipeline import paths
from pipeline.presenter import kit as presenter

SITE_DIR = "assets/presenter"
TITLE = "World 06 · Infrastructure"
LICENCE = "CC BY 4.0"
LICENCE_URL = "https://creativecommons.org/licenses/by/4.0/"

# what a speaker sees, in order: (kind, label, heavy); `heavy` files are listed, never linked
KINDS = [
    ("mp4", "Video, 1080p60 (MP4)", False),
    ("4k", "Video master, 2160p60 (MP4)", True),
    ("overlay", "Transparent overlay, 1080p60 (WebM, VP9 with alpha)", True),
    ("poster", "Poster frame, 1920×1080 (PNG)", False),
    ("vtt", "Captions (WebVTT)", False),
    ("srt", "Captions (SRT)", False),
    ("pptx", "Slide deck, one slide per beat, notes = captions (PPTX)", True),
    ("zip", "Offline HTML deck, reveal.js bundled (ZIP)", True),
]
HEAVY = {kind for kind, _, heavy in KINDS if heavy}
SHORT = {"mp4": "1080p60", "4k": "4k", "overlay": "overlay", "poster": "poster", "vtt": "VTT", "srt": "SRT",
         "pptx": "PPTX", "zip": "HTML deck"}


def kit_paths(scene_id: str) -> dict[str, Path]:
    out = presenter.deck_outputs(scene_id)
    return {**{k: out[k] for k in ("mp4", "poster", "vtt", "srt", "pptx", "zip")},
            "4k": paths.video(scene_id, presenter.MASTER_PRESET),
            "overlay": presenter.overlay_output(scene_id)}


def site_path(rel: str) -> str | None:
    """Where a kit file is published in the site (light kinds only), else None."""
    parts = Path(rel).parts  # ("build", "presenter", id, name)
    if len(parts) != 4 or parts[1] != "presenter":
        return None
    light = {paths.rel(p) for k, p in kit_paths(parts[2]).items() if k not in HEAVY}
    return f"{SITE_DIR}/{parts[2]}/{parts[3]}" if rel in light else None


@dataclass(frozen=True)
class KitFile:
    kind: str
    label: str
    rel: str  # as the manifest records it
    size: int  # bytes
    heavy: bool


def kit_files(owned: set[str], scene_id: str) -> list[KitFile]:
    """The scene's kit files this build made (in the manifest and on disk), in KINDS order."""
    where = kit_paths(scene_id)
    out = []
    for kind, label, heavy in KINDS:
        rel = paths.rel(where[kind])
        p = paths.ROOT / rel
        if rel in owned and p.is_file():
            out.append(KitFile(kind, label, rel, p.stat().st_size, heavy))
    return out


def size(n: int) -> str:
    return units.fmt(n, "B")


def attribution(title: str, page_url: str) -> str:
    """The line to paste under a reused animation. `page_url` is absolute only when the site has a
    site_url (mkdocs.yml); without one the line names the site and the page, never a relative path."""
    where = f", {page_url}" if page_url.startswith(("http://", "https://")) else ""
    return f"“{title}”, {TITLE}{where}. Licensed {LICENCE} ({LICENCE_URL})."


def reuse_block(scene, files: list[KitFile], href, page_url: str) -> str:
    """The page's "Reuse in a talk" block. `href(rel)` is the page-relative link of a published file."""
    make = f"<code>make slides S={html.escape(scene.id)}</code>"
    out = ['<h3 id="reuse-in-a-talk">Reuse in a talk</h3>']
    if not files:
        out.append(f"<p>The presenter kit (a slide deck with one slide per beat as PPTX and as an offline "
                   f"HTML deck, the video at 1080p60 and 2160p, a transparent overlay, the poster and the "
                   f"captions) is not part of this build: {make} makes it.</p>")
    else:
        rows = []
        for f in files:
            link = href(f.rel) if not f.heavy else None
            name = (f'<a href="{link}" download>{html.escape(f.label)}</a>' if link
                    else html.escape(f.label))
            where = "download" if link else f"not in the site (too large): made by {make}"
            rows.append(f"<tr><td>{name}</td><td>{size(f.size)}</td><td>{where}</td></tr>")
        out += ['<table><thead><tr><th>File</th><th>Size</th><th>Where</th></tr></thead>',
                "<tbody>", *rows, "</tbody></table>"]
    out.append(f"<p>Licence: <a href=\"{LICENCE_URL}\">{LICENCE}</a>. "
               "Attribution to paste:</p>")
    out.append(f"<pre><code>{html.escape(attribution(scene.title, page_url))}</code></pre>")
    return "\n".join(out)


def presenters_table(scenes, owned: set[str], href, page_href) -> str:
    """Every built scene's kit in one table: a linked size where the file is in this site, a size
    marked † for a file too large for the site, an em dash where this build made no such file."""
    head = "".join(f"<th>{html.escape(SHORT[k])}</th>" for k, _, _ in KINDS)
    rows = []
    for s in scenes:
        files = {f.kind: f for f in kit_files(owned, s.id)}
        cells = []
        for kind, _, _ in KINDS:
            f = files.get(kind)
            link = href(f.rel) if f and not f.heavy else None
            cells.append("<td>—</td>" if f is None else
                         f'<td><a href="{link}" download>{size(f.size)}</a></td>' if link else
                         f"<td>{size(f.size)} †</td>")
        rows.append(f'<tr><td><a href="{page_href(s)}">{html.escape(s.label)} · {html.escape(s.title)}</a>'
                    f"</td>{''.join(cells)}</tr>")
    made = sum(1 for s in scenes if kit_files(owned, s.id))
    return "\n".join([
        f"<p>Kits in this build: {made} of {len(scenes)} scenes.</p>",
        f'<table><thead><tr><th>Scene</th>{head}</tr></thead><tbody>',
        *rows, "</tbody></table>",
    ])
