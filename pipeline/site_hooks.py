"""MkDocs hooks: derive nav and missing pages from the catalogue, add build/ artifacts.

MkDocs only *reads* build/ (rendering inside MkDocs events would make
`mkdocs serve` loop). Only outputs recorded in the manifest are published,
and only when every recorded output's bytes match its recorded hash and
every scene's outputs are one consistent set (Manifest.mixed): otherwise the
site build stops with the file or scene named, and the previous site/ stays.
So a half-written or out-of-order file from an interrupted build can never
reach the site.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

from mkdocs.structure.files import File

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from design import css  # noqa: E402
from pipeline import paths  # noqa: E402
from pipeline.catalogue import load_cached  # noqa: E402
from pipeline.manifest import Manifest  # noqa: E402

PENDING_PAGE = "{{ scene_header() }}\n\n{{ pending() }}\n"
MODULE_PAGE = "{{{{ module_page('{id}') }}}}\n"


def preset() -> str:
    return os.environ.get("W06_PRESET", "preview")


def site_path(rel_build_path: str) -> str | None:
    """Where a build artifact is published in the site, or None if not published."""
    parts = Path(rel_build_path).parts  # ("build", kind, ...)
    if parts[1] in ("data", "figures"):
        return f"assets/{parts[1]}/{parts[-1]}"
    if parts[1] == "media" and parts[2] == preset():
        return f"assets/media/{parts[-1]}"
    return None


def on_config(config, **kwargs):
    cat = load_cached()
    nav: list = [{"Home": "index.md"}]
    for m in cat.modules:
        scenes = cat.in_module(m.id)
        if m.id == "case-study":
            nav += [{f"Case study · {s.title}": f"scenes/{s.id}.md"} for s in scenes]
            continue
        nav.append({f"{m.number} · {m.title}": [f"modules/{m.id}.md"] +
                    [{f"{s.number:02d} · {s.title}": f"scenes/{s.id}.md"} for s in scenes]})
    config["nav"] = nav
    return config


def on_files(files, config, **kwargs):
    cat = load_cached()
    docs = Path(config["docs_dir"])
    for m in cat.modules:
        uri = f"modules/{m.id}.md"
        if m.id != "case-study" and not (docs / uri).exists():
            files.append(File.generated(config, uri, content=MODULE_PAGE.format(id=m.id)))
    for s in cat.scenes:
        uri = f"scenes/{s.id}.md"
        if not (docs / uri).exists():
            if s.built:
                raise SystemExit(f"catalogue.yml: scene {s.id!r} has an exhibit but no page docs/{uri}")
            files.append(File.generated(config, uri, content=PENDING_PAGE))
    files.append(File.generated(config, "assets/palette.css", content=css.stylesheet()))
    manifest = Manifest()
    refused = manifest.verify()
    refused += [f"scene {s.id!r}: {why}" for s in cat.built if (why := manifest.mixed(s.id, preset()))]
    if refused:
        raise SystemExit("site not built: outputs do not match build/manifest.json, "
                         "run `python -m pipeline build` to rebuild them: " + "; ".join(refused))
    for rel in sorted(manifest.outputs()):
        dest = site_path(rel)
        src = paths.ROOT / rel
        if dest and src.is_file():
            files.append(File.generated(config, dest, abs_src_path=str(src)))
    return files
