"""One digest over the cache keys of every task a build needs: the key CI keeps build/ under.

    python -m pipeline keys [--preset P] [--only ID ...] [--kit] [--tasks]

The deploy workflow (.github/workflows/deploy.yml) restores build/ from `actions/cache` under this
digest, so the pipeline's own content hashes decide what CI reuses, not a hash of the whole tree:
an edit to a page, a test or the README leaves the digest (and the cache) as it was, and an edit to
one scene's animation changes it while every other task's key stays put. When the digest is new,
the workflow's restore-keys prefix brings back the last build and the build's per-task keys decide
what renders again (only the tasks whose keys changed).

Per task the site's build plans (compute, figures, media at the preset, and the Explore panel where a
scene has one, for every built scene; engine/registry.py; with `--kit` also the presenter kit's hd and
4k renders, overlay and deck, as `build --kit` plans them) the key is the build's own, with one
substitution: a draw task's `data` part is the key of the compute task that writes that data,
instead of the data file's hash. The workflow computes the digest before
any build/ exists, and a scene's data is a function of its compute key (the models are
deterministic). So the digest changes whenever any task's key changes; it may also change when
none does (a model edit that leaves its numbers as they were), which costs one more cache entry and
no render. Nothing is computed or rendered here: it reads sources and the catalogue only.
"""

from __future__ import annotations

import sys

from pipeline.catalogue import Catalogue
from pipeline.engine import presets, registry
from pipeline.engine.hashing import digest


def task_keys(catalogue: Catalogue, preset: str = presets.DEFAULT, only: list[str] | None = None,
              kit: bool | list[str] = False) -> dict[str, str]:
    """{task id: input key} for every task a build of `preset` plans (see the module docstring), the
    followers of followers included (the kit's deck follows the hd render). `kit`: True for every
    selected scene's kit, or a list of the scenes whose kits the build makes."""
    presets.check(preset)
    ctx = registry.Context(catalogue, preset, "site+kit" if kit is not False else "site", only=only, keys_only=True,
                           kit_only=kit if isinstance(kit, list) and kit else None)
    keys: dict[str, str] = {}
    unseen = list(registry.roots(ctx))
    while unseen:
        task = unseen.pop(0).keyed()
        keys[task.id] = task.key
        unseen += registry.followers(task, ctx)
    return keys


def run_digest(catalogue: Catalogue, preset: str = presets.DEFAULT, only: list[str] | None = None,
               kit: bool | list[str] = False) -> str:
    """The one digest naming the build's inputs: sha256 over the sorted (task id, key) pairs."""
    return digest(sorted(task_keys(catalogue, preset, only, kit).items()))


def main(catalogue: Catalogue, preset: str, only: list[str] | None, tasks: bool = False,
         kit: bool | list[str] = False) -> int:
    for option, ids in (("--only", only), ("--kit", kit if isinstance(kit, list) else [])):
        unknown = [i for i in ids or [] if i not in {s.id for s in catalogue.built}]
        if unknown:
            print(f"error: {option}: no built scene with id {unknown[0]!r} in catalogue.yml", file=sys.stderr)
            return 2
    if tasks:
        for task_id, key in sorted(task_keys(catalogue, preset, only, kit).items()):
            print(f"{key}  {task_id}")
    print(run_digest(catalogue, preset, only, kit))
    sys.stdout.flush()
    return 0
