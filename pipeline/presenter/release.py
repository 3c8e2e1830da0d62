"""The presenter kit's heavy files as a GitHub Release: what is attached, under which names, and the links.

    python -m pipeline release --repo OWNER/NAME --tag TAG [--check-site DIR]

The Pages site stays light: the kit's heavy files (the 4k master, the transparent overlay, the PPTX and
the zipped HTML deck; pipeline/site/kit_site.py: HEAVY) are attached to a GitHub Release instead, and
the pages link them there. This module is the one place that says which files and under which names:

- `assets(owned)`: every heavy kit file the manifest records, named `<id>-2160p60.mp4`,
  `<id>-overlay.webm`, `<id>-deck.pptx`, `<id>-deck-html.zip` (one flat namespace: a release's
  attachments have no folders);
- `Release.from_env()`: the release the site links, from `W06_RELEASE_REPO` and `W06_RELEASE_TAG`
  (the deploy workflow sets both; without them no page links a heavy file, it says how to make it);
- `main`: checks every asset's bytes against the manifest's hash, stages the files under their
  asset names in build/release/assets/ (hard links) with build/release/release.json, and prints
  the list: the workflow's release job uploads exactly that folder, and `make deploy-check` stops
  here (its dry run). `--check-site DIR` then checks every link a page in DIR makes to a release file
  names an asset of that list, and that every asset is linked from some page.

The tag is the deploy key's (`site-` and the first 12 hex digits of `python -m pipeline keys --kit`):
a push that changes no task's key links the same release, whose files are byte for byte the same.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import shutil
import sys
from dataclasses import dataclass
from pathlib import Path

from pipeline import paths
from pipeline.engine import atomic

RELEASE_DIR = "release"  # build/release/: release.json and assets/
NAMES = {"4k": "{id}-2160p60.mp4", "overlay": "{id}-overlay.webm", "pptx": "{id}-deck.pptx",
         "zip": "{id}-deck-html.zip"}
REPO = re.compile(r"[A-Za-z0-9][A-Za-z0-9_.-]*/[A-Za-z0-9_.-]+")
TAG = re.compile(r"[A-Za-z0-9][A-Za-z0-9_.-]{0,99}")


@dataclass(frozen=True)
class Release:
    repo: str  # owner/name on GitHub
    tag: str

    def url(self, name: str) -> str:
        return f"https://github.com/{self.repo}/releases/download/{self.tag}/{name}"

    @property
    def prefix(self) -> str:
        return f"https://github.com/{self.repo}/releases/download/"

    @classmethod
    def from_env(cls, env=os.environ) -> Release | None:
        repo, tag = env.get("W06_RELEASE_REPO", ""), env.get("W06_RELEASE_TAG", "")
        if not repo and not tag:
            return None
        return cls.checked(repo, tag, "W06_RELEASE_REPO / W06_RELEASE_TAG")

    @classmethod
    def checked(cls, repo: str, tag: str, where: str) -> Release:
        if not REPO.fullmatch(repo):
            raise ValueError(f"{where}: repository {repo!r}: expected owner/name")
        if not TAG.fullmatch(tag):
            raise ValueError(f"{where}: tag {tag!r}: expected letters, digits, '.', '_' or '-'")
        return cls(repo, tag)


@dataclass(frozen=True)
class Asset:
    name: str  # the attachment's name
    rel: str  # the file as the manifest records it
    scene: str
    kind: str


def tag_for(digest: str) -> str:
    """The release's tag for a build whose `python -m pipeline keys --kit` digest is `digest`."""
    if not re.fullmatch(r"[0-9a-f]{64}", digest):
        raise ValueError(f"not a sha256 digest: {digest!r}")
    return f"site-{digest[:12]}"


def asset_name(scene_id: str, kind: str) -> str:
    return NAMES[kind].format(id=scene_id)


def assets(owned: set[str], scene_ids: list[str]) -> list[Asset]:
    """The heavy kit files of `scene_ids` that the manifest records (`owned`), in scene then kind order."""
    from pipeline.site import kit_site

    out = []
    for sid in scene_ids:
        where = kit_site.kit_paths(sid)
        for kind in NAMES:
            rel = paths.rel(where[kind])
            if rel in owned:
                out.append(Asset(asset_name(sid, kind), rel, sid, kind))
    return out


def stage(found: list[Asset], hashes: dict[str, str], out: Path | None = None, release: Release | None = None) -> dict:
    """Check each asset's bytes, link it under its name in out/assets/, write out/release.json; the list.
    `out`: build/release/ by default."""
    out = out or paths.BUILD / RELEASE_DIR
    problems = []
    for a in found:
        p = paths.ROOT / a.rel
        if not p.is_file():
            problems.append(f"{a.rel}: recorded in build/manifest.json but missing")
        elif atomic.file_sha256(p) != hashes[a.rel]:
            problems.append(f"{a.rel}: its bytes differ from the hash build/manifest.json records (run the build "
                            "again: it re-makes a damaged file)")
    if problems:
        raise SystemExit("release: refusing to attach damaged files:\n  " + "\n  ".join(problems))
    folder = out / "assets"
    shutil.rmtree(folder, ignore_errors=True)
    folder.mkdir(parents=True)
    listed = []
    for a in found:
        src = paths.ROOT / a.rel
        os.link(src, folder / a.name)
        listed.append({"name": a.name, "scene": a.scene, "kind": a.kind, "source": a.rel,
                       "size": src.stat().st_size, "sha256": hashes[a.rel]})
    record = {"repo": release.repo if release else None, "tag": release.tag if release else None,
              "assets": listed}
    atomic.write_text(out / "release.json", json.dumps(record, indent=1, sort_keys=True) + "\n")
    return record


LINK = re.compile(r'href="(https://github\.com/[^"]+/releases/download/[^"]+)"')


def check_site(site: Path, record: dict) -> list[str]:
    """Every link a page makes to a release file names an asset of `record`'s release, and every asset is
    linked from some page; the problems, each naming the page and the link."""
    release = Release(record["repo"], record["tag"])
    names = {a["name"] for a in record["assets"]}
    problems, linked = [], set()
    for page in sorted(site.rglob("*.html")):
        for url in LINK.findall(page.read_text(encoding="utf-8", errors="replace")):
            name = url.rsplit("/", 1)[1]
            if not url.startswith(release.prefix + release.tag + "/"):
                problems.append(f"{page.relative_to(site)}: {url}: not this release ({release.repo} {release.tag})")
            elif name not in names:
                problems.append(f"{page.relative_to(site)}: {url}: the release holds no file {name!r}")
            else:
                linked.add(name)
    problems += [f"{n}: attached but no page links it" for n in sorted(names - linked)]
    return problems


def main(argv: list[str] | None = None) -> int:
    from pipeline.catalogue import load
    from pipeline.engine.manifest import Manifest
    from pipeline.site.kit_site import size

    ap = argparse.ArgumentParser(prog="python -m pipeline release", description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--repo", required=True, help="owner/name of the GitHub repository")
    ap.add_argument("--tag", required=True, help="the release's tag (the workflow: site-<deploy key>)")
    ap.add_argument("--check-site", metavar="DIR", default=None,
                    help="then check the links DIR's pages make to release files against the list")
    args = ap.parse_args(argv)
    try:
        release = Release.checked(args.repo, args.tag, "--repo / --tag")
    except ValueError as e:
        print(f"error: {e}", file=sys.stderr)
        return 2
    manifest = Manifest()
    hashes = {rel: h for e in manifest.entries.values() for rel, h in e["outputs"].items()}
    found = assets(set(hashes), [s.id for s in load().built])
    if not found:
        print("error: release: build/manifest.json records no presenter kit's heavy files (4k, overlay, PPTX, "
              "deck ZIP): build them first (python -m pipeline build --preset hd --kit, or make presenter)",
              file=sys.stderr)
        return 1
    record = stage(found, hashes, release=release)
    total = sum(a["size"] for a in record["assets"])
    out = paths.BUILD / RELEASE_DIR
    print(f"release {release.repo} {release.tag}: {len(record['assets'])} files, {size(total)} "
          f"-> {paths.rel(out / 'assets')} (listed in {paths.rel(out / 'release.json')})")
    for a in record["assets"]:
        print(f"  {a['name']:48} {size(a['size']):>10}")
    if args.check_site:
        problems = check_site(Path(args.check_site), record)
        if problems:
            print("release: the pages' links to release files are wrong:\n  " + "\n  ".join(problems), file=sys.stderr)
            return 1
        print(f"release: every link {args.check_site} makes to a release file names an attached file, "
              "and every attached file is linked")
    return 0


if __name__ == "__main__":
    sys.exit(main())
