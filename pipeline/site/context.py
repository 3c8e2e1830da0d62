"""What the page macros read, as two explicit objects instead of state captured by closures.

- `Build`: one mkdocs run's inputs, the same for every page: the catalogue of the scenario the
  site is built for, the default scenario's catalogue, and the outputs the manifest records with
  where each is published.
- `Page`: one page as the macros see it: its address and source, its scene's model output `d`,
  and the sources it cites, numbered in order of first citation.

The section modules (pipeline/site/sections/) take these, or plainer values, as arguments.
"""

from __future__ import annotations

import json
import posixpath
from dataclasses import dataclass, field
from pathlib import Path

from pipeline import paths, scenarios
from pipeline.catalogue import CATALOGUE, Catalogue, Scenario, Scene, load, load_cached
from pipeline.engine.manifest import Manifest
from pipeline.site.shared import preset, site_path


@dataclass
class Citations:
    """The sources a page cites, in the order its reference list numbers them."""

    keys: list[str] = field(default_factory=list)

    def number(self, key: str) -> int:
        """The reference number of `key`, citing it now if the page has not yet."""
        if key not in self.keys:
            self.keys.append(key)
        return self.keys.index(key) + 1


@dataclass
class Build:
    """One mkdocs run's inputs, read once: catalogues and the published outputs."""

    cat: Catalogue  # resolved for the scenario this site is built for
    base: Catalogue  # the default scenario's (the same object when this site is the default's)
    scen: Scenario | None  # the scenario this site is built for, when the catalogue declares any
    published: dict[str, str]  # a recorded output's build-relative path -> its site path
    owned: set[str]  # every output the manifest records, published or not
    preset: str
    citations: dict[str, Citations] = field(default_factory=dict)  # by page source

    @classmethod
    def load(cls) -> Build:
        cat = load_cached(scenario=scenarios.current() or None)
        scen = cat.get_scenario() if cat.scenarios else None
        base = cat if (scen is None or scen.default) else load(CATALOGUE)
        owned = set(Manifest().outputs())
        published = {rel: dest for rel in owned if (dest := site_path(rel, owned))}
        return cls(cat=cat, base=base, scen=scen, published=published, owned=owned, preset=preset())

    @property
    def other_scenario(self) -> Scenario | None:
        """The scenario this site is built for when it is not the default, else None."""
        return self.scen if self.scen is not None and not self.scen.default else None

    def default_short(self) -> str:
        """The default scenario's short name ("Llama 3 405B")."""
        return self.base.get_scenario().short

    def page(self, url: str, src: str, d: dict, site_url: str) -> Page:
        """The page being rendered; its citations carry over from one macro call to the next."""
        return Page(self, url, src, d, site_url, self.citations.setdefault(src, Citations()))


@dataclass
class Page:
    """One page as the macros see it."""

    build: Build
    url: str  # MkDocs' page URL: "scenes/ring-vs-tree/", "" for the home page
    src: str  # its source, relative to docs/: "scenes/ring-vs-tree.md"
    d: dict  # its scene's model output (macros.on_pre_page_macros), {} on other pages
    site_url: str  # mkdocs.yml's site_url, this scenario's when the site is a scenario's
    cites: Citations

    def scene(self) -> Scene:
        if not self.src.startswith("scenes/"):
            raise ValueError(f"{self.src}: this macro belongs on a scene page")
        return self.build.cat.scene(Path(self.src).stem)

    def link(self, site_rel: str) -> str:
        """A link from this page to a site path, relative (works offline)."""
        page_dir = self.url.rstrip("/") if self.url.endswith("/") else posixpath.dirname(self.url)
        rel = posixpath.relpath(site_rel, page_dir or ".")
        return rel + "/" if site_rel.endswith("/") and not rel.endswith("/") else rel

    def href(self, rel: str) -> str | None:
        """The page-relative link of a recorded output (its build-relative path), or None if not published."""
        dest = self.build.published.get(rel)
        return self.link(dest) if dest else None

    def asset(self, build_path: Path) -> str | None:
        """The page-relative link of a recorded build output, or None if not built."""
        return self.href(paths.rel(build_path))

    def beats(self, scene_id: str) -> dict | None:
        """The scene's beats (timings and captions), if this build publishes them."""
        p = paths.beats(scene_id, self.build.preset)
        return json.loads(p.read_text()) if paths.rel(p) in self.build.published else None
