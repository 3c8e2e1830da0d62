"""The presenter kit on the site: which kit files a page lists, which it links, and the HTML.

Where the files come from (README "Presenter kit"): `make presenter` / `make slides S=<id>` (or a
`build --kit`) write build/presenter/<id>/, build/media/hd/<id>.* and build/media/4k/<id>.mp4, recorded
in the manifest. The site lists a scene's kit only from the manifest, so it never names a file this
build did not make:

- light files (the 1080p60 MP4, its poster and WebVTT captions, which are the hd render's own files,
  and the SRT) are published in the site and linked: at hd the site's own video is that MP4; at another
  preset they are copied under assets/presenter/<id>/;
- heavy files (the 4k master, the transparent WebM, the PPTX and the zipped HTML deck, together
  several times the size of the light ones) never go into the site. When the build names a GitHub
  Release (W06_RELEASE_REPO and W06_RELEASE_TAG, set by the deploy workflow) they are linked there,
  under the names pipeline/presenter/release.py attaches them by; otherwise they are listed with
  their size and how to make them (`make slides S=<id>`), never as a link, so never dead.

Not a module of the kit's renders (pipeline/presenter/kit.py), so editing the page side never
re-renders a kit.
"""

from __future__ import annotations

import html
from dataclasses import dataclass
from pathlib import Path

from models import units
from pipeline import paths
from pipeline.presenter import kit as presenter
from pipeline.presenter import release as releases

SITE_DIR = "assets/presenter"
TITLE = "World 06 · Infrastructure"
LICENCE = "CC BY 4.0"
LICENCE_URL = "https://creativecommons.org/licenses/by/4.0/"

# what a speaker sees, in order: (kind, label, heavy); `heavy` files are never in the site: linked in the
# release when the build names one, else listed
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


# the name a light file has in assets/presenter/<id>/ when the site's own preset is not the kit's hd
PUBLISHED_NAME = {"mp4": "{id}-1080p60.mp4", "poster": "{id}-poster.png", "vtt": "{id}.vtt", "srt": "{id}.srt"}


def kit_paths(scene_id: str) -> dict[str, Path]:
    deck, hd = presenter.deck_outputs(scene_id), presenter.hd_outputs(scene_id)
    return {**{k: hd[k] for k in ("mp4", "poster", "vtt")}, **{k: deck[k] for k in ("srt", "pptx", "zip")},
            "4k": paths.video(scene_id, presenter.MASTER_PRESET),
            "overlay": presenter.overlay_output(scene_id)}


HD_KINDS = ("mp4", "poster", "vtt")  # the hd render's own files: kit files only beside a made deck


def has_deck(owned: set[str], scene_id: str) -> bool:
    """Whether this build made the scene's deck: then its hd render is also its kit's 1080p60 video. An hd
    render alone (make release) is the site's video, not a kit."""
    return paths.rel(presenter.deck_outputs(scene_id)["pptx"]) in owned


def site_path(rel: str, owned: set[str]) -> str | None:
    """Where a light kit file is copied in the site (assets/presenter/<id>/<name>), else None. The caller
    (pipeline/site/shared.py) asks only for files the site's own preset does not publish already."""
    parts = Path(rel).parts  # ("build", "presenter", id, name) or ("build", "media", "hd", name)
    if len(parts) != 4 or parts[1] not in ("presenter", "media"):
        return None
    sid = parts[3].split(".", 1)[0] if parts[1] == "media" else parts[2]
    for kind, p in kit_paths(sid).items():
        if kind in PUBLISHED_NAME and paths.rel(p) == rel and (kind not in HD_KINDS or has_deck(owned, sid)):
            return f"{SITE_DIR}/{sid}/{PUBLISHED_NAME[kind].format(id=sid)}"
    return None


@dataclass(frozen=True)
class KitFile:
    kind: str
    label: str
    rel: str  # as the manifest records it
    size: int  # bytes
    heavy: bool


def release_link(f: KitFile, scene_id: str) -> str | None:
    """A heavy file's address in the build's GitHub Release (W06_RELEASE_*), else None."""
    release = releases.Release.from_env()
    if not f.heavy or release is None:
        return None
    return release.url(releases.asset_name(scene_id, f.kind))


def kit_files(owned: set[str], scene_id: str) -> list[KitFile]:
    """The scene's kit files this build made (in the manifest and on disk), in KINDS order; the hd render's
    files only beside a made deck (has_deck)."""
    where = kit_paths(scene_id)
    deck = has_deck(owned, scene_id)
    out = []
    for kind, label, heavy in KINDS:
        if kind in HD_KINDS and not deck:
            continue
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
    release = releases.Release.from_env()
    out = ['<h3 id="reuse-in-a-talk">Reuse in a talk</h3>']
    if not files:
        out.append(f"<p>The presenter kit (a slide deck with one slide per beat as PPTX and as an offline "
                   f"HTML deck, the video at 1080p60 and 2160p, a transparent overlay, the poster and the "
                   f"captions) is not part of this build: {make} makes it.</p>")
    else:
        rows = []
        for f in files:
            link = href(f.rel) if not f.heavy else release_link(f, scene.id)
            name = (f'<a href="{link}" download>{html.escape(f.label)}</a>' if link
                    else html.escape(f.label))
            where = ("download" if link and not f.heavy else
                     f"download from the release {html.escape(release.tag)} (GitHub)" if link else
                     f"not in the site (too large): made by {make}")
            rows.append(f"<tr><td>{name}</td><td>{size(f.size)}</td><td>{where}</td></tr>")
        out += ['<table><thead><tr><th>File</th><th>Size</th><th>Where</th></tr></thead>',
                "<tbody>", *rows, "</tbody></table>"]
    out.append(f"<p>Licence: <a href=\"{LICENCE_URL}\">{LICENCE}</a>. "
               "Attribution to paste:</p>")
    out.append(f"<pre><code>{html.escape(attribution(scene.title, page_url))}</code></pre>")
    return "\n".join(out)


def presenters_table(scenes, owned: set[str], href, page_href) -> str:
    """Every built scene's kit in one table: a linked size where the file is in this site or in the
    build's release, a size marked † for a file too large for the site that no release holds, an em
    dash where this build made no such file."""
    head = "".join(f"<th>{html.escape(SHORT[k])}</th>" for k, _, _ in KINDS)
    rows = []
    for s in scenes:
        files = {f.kind: f for f in kit_files(owned, s.id)}
        cells = []
        for kind, _, _ in KINDS:
            f = files.get(kind)
            link = None if f is None else href(f.rel) if not f.heavy else release_link(f, s.id)
            cells.append("<td>—</td>" if f is None else
                         f'<td><a href="{link}" download>{size(f.size)}</a></td>' if link else
                         f"<td>{size(f.size)} †</td>")
        rows.append(f'<tr><td><a href="{page_href(s)}">{html.escape(s.label)} · {html.escape(s.title)}</a>'
                    f"</td>{''.join(cells)}</tr>")
    made = sum(1 for s in scenes if kit_files(owned, s.id))
    release = releases.Release.from_env()
    where = (f"the light ones (1080p60, poster, captions) in this site, the heavy ones (4k, overlay, PPTX, "
             f"HTML deck) attached to this version's GitHub Release, <code>{html.escape(release.tag)}</code> "
             f"of {html.escape(release.repo)}" if release else
             "the light ones (1080p60, poster, captions) in this site. Files marked † are too large to copy "
             "into the site every reader downloads, and this build names no release to link them in: "
             "<code>make slides S=&lt;id&gt;</code> makes them from the source (the README says how)")
    return "\n".join([
        f"<p>Sizes link to the files: {where}. A dash means this build did not make that file.</p>",
        f"<p>Kits in this build: {made} of {len(scenes)} scenes.</p>",
        f'<table><thead><tr><th>Scene</th>{head}</tr></thead><tbody>',
        *rows, "</tbody></table>",
    ])
