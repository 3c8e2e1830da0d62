"""What the site's hooks and its page macros both need: the preset, where a build output is
published, and the glossary's entries. One module both import, so neither imports the other.

Importing it points pipeline.paths at the current scenario's folders (pipeline/scenarios.py):
a scenario's mkdocs run reads build/scenario/<id>/.
"""

from __future__ import annotations

import os
import re
from functools import lru_cache
from pathlib import Path

import yaml

from pipeline import scenarios

GLOSSARY_FILE = Path(__file__).resolve().parents[2] / "docs" / "glossary.yml"

scenarios.use_for_site()


def preset() -> str:
    return os.environ.get("W06_PRESET", "preview")


def site_path(rel_build_path: str, owned: set[str] = frozenset()) -> str | None:
    """Where a build artifact is published in the site, or None if not published. `owned`: every output
    the manifest records (a kit's light files are published only beside its deck: kit_site.has_deck)."""
    parts = Path(rel_build_path).parts  # ("build", kind, ...) or ("build", "scenario", id, kind, ...)
    here = scenarios.current()
    if parts[1] == scenarios.ROOT_DIR:  # a scenario's own data and figures, in that scenario's site only
        return f"assets/{parts[3]}/{parts[-1]}" if parts[2] == here and parts[3] in ("data", "figures") else None
    if parts[1] in ("data", "figures", "explore"):  # the default scenario's (an Explore panel runs its model)
        return None if here else f"assets/{parts[1]}/{parts[-1]}"
    if parts[1] == "media" and parts[2] == preset():
        # animations are the default scenario's: a scenario's pages link to the default site's copy
        return f"../../assets/media/{parts[-1]}" if here else f"assets/media/{parts[-1]}"
    if parts[1] in ("presenter", "media"):  # the presenter kit: its light files only (pipeline/site/kit_site.py)
        from pipeline.site import kit_site

        dest = kit_site.site_path(rel_build_path, owned)
        return f"../../{dest}" if dest and here else dest  # the default site's copy, as for the animation
    return None


@lru_cache(maxsize=1)
def glossary() -> list[dict]:
    """The glossary entries (docs/glossary.yml), sorted by term, each with an `id` for its anchor."""
    terms = yaml.safe_load(GLOSSARY_FILE.read_text(encoding="utf-8"))["terms"]
    for e in terms:
        e["id"] = "term-" + re.sub(r"[^a-z0-9]+", "-", e["term"].lower()).strip("-")
    return sorted(terms, key=lambda e: e["term"].lower())
