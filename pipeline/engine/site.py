"""The site step: mkdocs builds the pages into a scratch folder, which then replaces site/ in one swap.

The pages are a keyed task like any other. Each site (the default one at the root of site/, and one
per other scenario in its folder) has a key over everything its mkdocs run reads: the catalogue, the
pages' sources (docs/, overrides included), mkdocs.yml, the hooks and macros with every project
module they import, design/, the recorded outputs the pages publish (build/manifest.json's outputs
and their hashes), the preset, the run's W06_* environment and the mkdocs libraries' versions. The
keys of the site/ now published are recorded in build/site-keys.json; a site whose key is unchanged
is not built again (a no-op `make` runs no mkdocs), and an unchanged site is carried over into the
new site/ as hard links while the changed ones are rebuilt.

A failed page build leaves the previous site/ untouched.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

from pipeline import paths
from pipeline.engine import atomic, hashing
from pipeline.engine.limits import SITE_TIMEOUT

KEYS = "site-keys.json"  # in build/: {folder: key} of the site/ published now ("" the default site)
HOOK_MODULES = ("pipeline.site.site_hooks", "pipeline.site.seo_hooks", "pipeline.site.macros")
SOURCE_TREES = ("docs", "design", "pipeline/site")  # every file under these: pages, overrides, assets, fonts
SOURCE_FILES = ("mkdocs.yml", "catalogue.yml")
LIBRARIES = ("mkdocs", "mkdocs-material", "mkdocs-macros-plugin", "mkdocs-material-extensions", "markdown",
             "pymdown-extensions", "jinja2")


def build_site(preset: str, strict: bool = True, timeout: float | None = None,
               extra: list[tuple[str, dict]] = (), env: dict | None = None) -> bool:
    """Build the sites whose keys changed into a scratch folder, then swap it for site/.

    A failed page build leaves the previous site/ untouched. The swap is one
    renameat2(RENAME_EXCHANGE) on Linux, so site/ never disappears; on other
    platforms it is two renames back to back and site/ is absent only between
    them (atomic.swap_dirs). `extra`: (folder in the site, environment) of further mkdocs runs, one
    per other scenario built (pipeline/stages/scenario_data.py: sites); `env`: the default site's.
    """
    runs = [("", env or {}), *extra]  # the default first: mkdocs empties the folder it builds into
    keys = site_keys(preset, strict, runs)
    recorded = recorded_keys()
    if set(recorded) == set(keys):
        stale = [folder for folder in keys if not current(folder, keys[folder], recorded)]
    else:  # another set of sites than site/ holds: all built afresh, so no folder outlives its site
        stale = list(keys)
    if not stale:
        print(f"site: {describe(list(keys))} unchanged (keys in {paths.rel(paths.BUILD / KEYS)}): "
              "no mkdocs build", flush=True)
        return True
    tmp = paths.BUILD / f"{atomic.TMP_PREFIX}site"
    shutil.rmtree(tmp, ignore_errors=True)
    if "" not in stale:  # the default site carried over; scenario folders are placed one by one below
        _link_tree(paths.SITE, tmp, skip={f for f, _ in runs if f})
    for folder, run_env in runs:
        dest = tmp / folder if folder else tmp
        if folder not in stale:
            if folder:  # left out of the default's carry-over above, or emptied by its mkdocs run
                _link_tree(paths.SITE / folder, dest)
            continue
        shutil.rmtree(dest, ignore_errors=True)
        if not _mkdocs(dest, preset, strict, timeout, run_env, folder):
            shutil.rmtree(tmp, ignore_errors=True)
            return False
    _forget_keys()  # site/ is about to change: a crash before the new keys are written rebuilds, never trusts
    old = paths.BUILD / f"{atomic.TMP_PREFIX}site-old"
    shutil.rmtree(old, ignore_errors=True)
    atomic.swap_dirs(tmp, paths.SITE, old)
    shutil.rmtree(old, ignore_errors=True)
    atomic.write_text(paths.BUILD / KEYS, json.dumps({"keys": keys, "built": stale}, indent=1, sort_keys=True))
    return True


def describe(folders: list[str]) -> str:
    """'the default site and 2 scenario sites' for the log line."""
    others = len([f for f in folders if f])
    return "the default site" + (f" and {others} scenario site(s)" if others else "")


def source_files() -> list[Path]:
    """Every file the pages' mkdocs runs read from the sources (build/'s are keyed by the manifest)."""
    root = paths.ROOT
    files = {root / name for name in SOURCE_FILES}
    for tree in SOURCE_TREES:
        files |= {p for p in (root / tree).rglob("*")
                  if p.is_file() and "__pycache__" not in p.parts and not p.name.endswith(".pyc")}
    for module in HOOK_MODULES:  # the hooks' and macros' imports: models' constants, design, units, …
        files |= {root / p.relative_to(hashing.ROOT) for p in hashing.closure(module)}
    return sorted(files)


def published_outputs() -> dict:
    """{task id: {output: sha256}} from the manifest: what the pages may link and copy."""
    try:
        entries = json.loads(paths.MANIFEST.read_text())["entries"]
    except (OSError, ValueError, KeyError):
        return {}
    return {task_id: entry.get("outputs", {}) for task_id, entry in entries.items()}


def site_keys(preset: str, strict: bool, runs: list[tuple[str, dict]]) -> dict[str, str]:
    """{folder: key} for each site this build publishes."""
    shared = {
        "preset": preset,
        "strict": strict,
        "sources": {paths.rel(p): hashing.file_hash(p) for p in source_files()},
        "published": published_outputs(),
        "libraries": hashing.versions(*LIBRARIES),
    }
    base = hashing.digest(shared)
    return {folder: hashing.digest({"shared": base, "folder": folder, "env": _w06_env(preset, run_env)})
            for folder, run_env in runs}


def _w06_env(preset: str, run_env: dict) -> dict:
    """The project's variables the run sees (W06_SITE_URL, the scenario, the preset, …)."""
    env = {**os.environ, "W06_PRESET": preset, **run_env}
    return {k: v for k, v in env.items() if k.startswith("W06_")}


def recorded_keys() -> dict[str, str]:
    try:
        return json.loads((paths.BUILD / KEYS).read_text())["keys"]
    except (OSError, ValueError, KeyError, TypeError):
        return {}


def current(folder: str, key: str, recorded: dict[str, str]) -> bool:
    """Whether site/<folder> is published and was built from `key`."""
    return recorded.get(folder) == key and (paths.SITE / folder / "index.html").is_file()


def _forget_keys() -> None:
    try:
        (paths.BUILD / KEYS).unlink()
    except FileNotFoundError:
        pass


def _link_tree(src: Path, dest: Path, skip: set[str] = frozenset()) -> None:
    """Copy a published site folder as hard links (its files are only ever replaced, never written
    in place), leaving out the folders in `skip` (relative to site/)."""
    def ignore(folder: str, names: list[str]) -> set[str]:
        rel = Path(folder).relative_to(paths.SITE)
        return {n for n in names if str(rel / n) in skip}

    shutil.copytree(src, dest, copy_function=os.link, ignore=ignore, dirs_exist_ok=True)


def _mkdocs(dest: Path, preset: str, strict: bool, timeout: float | None, run_env: dict, folder: str) -> bool:
    cmd = [sys.executable, "-m", "mkdocs", "build", "--site-dir", str(dest)]
    if strict:
        cmd.append("--strict")
    env = {**os.environ, "W06_PRESET": preset, "NO_MKDOCS_2_WARNING": "1", **run_env}
    limit = max(SITE_TIMEOUT, timeout or 0.0)
    what = f" ({folder})" if folder else ""
    try:
        proc = subprocess.run(cmd, cwd=paths.ROOT, env=env, capture_output=True, text=True, timeout=limit)
    except subprocess.TimeoutExpired:
        print(f"mkdocs build{what} timed out after {limit:.0f}s (killed): site/ left as it was", file=sys.stderr)
        return False
    if proc.returncode != 0:
        # mkdocs' own INFO chatter is noise on success; on failure it is the diagnosis
        print(proc.stdout + proc.stderr, file=sys.stderr)
        print(f"mkdocs build{what} failed: site/ left as it was", file=sys.stderr)
        return False
    return True
