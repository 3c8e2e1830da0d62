"""The build CLI behind `make`.

    python -m pipeline build [--preset preview|hd|4k] [-j N] [--only ID ...] [--force] [--no-site]
                             [--timeout SECONDS] [--shard I/N] [--kit]
                             [--scenario ID|all]
    python -m pipeline merge --preset P DIR [DIR ...] [--no-site]
                                        N shards' build/ folders (build --shard) -> build/, then the site
    python -m pipeline check            validate catalogue.yml and stop
    python -m pipeline bench [--hd]     on a copy of build/ and site/: no-op and one-scene `make`, edit-to-reload
                                        under serve, a beat's still against a full render, each against its
                                        goal -> build/bench.json
    python -m pipeline serve [-a HOST:PORT] [--only ID ...]
                                        build, serve with live reload, rebuild on every source edit
    python -m pipeline frame ID BEAT [--preset preview|hd]
                                        the last frame of one beat as a PNG, no video encoded
    python -m pipeline new ID --module MODULE
                                        scaffold a scene: catalogue entry, model, test, figure, scene, page
    python -m pipeline keys [--preset P] [--only ID ...] [--kit [ID ...]] [--tasks]
                                        one digest over the cache keys of every task a build needs (the
                                        deploy workflow's cache key); nothing is built
    python -m pipeline bench-release [--kit ID ...] [--warm]
                                        the release build cold and the sample scenes' kits: wall, CPU,
                                        per scene and part per second of video -> build/bench-release.json
    python -m pipeline release --repo OWNER/NAME --tag TAG [--check-site DIR]
                                        the kit's heavy files a GitHub Release attaches, staged in
                                        build/release/ and listed; the pages' links to them checked
    python -m pipeline presenter [--only ID ...] [-j N] [--force] [--timeout SECONDS]
                                        the presenter kit: the hd render (build/media/hd/, shared with the
                                        release: 1080p60, poster, captions), the 4k master (build/media/4k/),
                                        the deck cut from the hd render and the transparent overlay
                                        (build/presenter/<id>/); same cache as the site

Exit status: 0 built (and published); 1 a task failed, the site was not
published or the disk is full (the previous site/ is kept, the summary names
what failed and what was kept); 2 catalogue.yml or build/manifest.json cannot
be used (nothing built); 3 another build is running.
"""

from __future__ import annotations

import argparse
import sys

from pipeline.catalogue import CatalogueError, load
from pipeline.engine import presets
from pipeline.engine.manifest import ManifestError


def build_rules() -> str:
    from pipeline.engine.build import TIMEOUT_RULE

    return TIMEOUT_RULE.replace("%", "%%")


def parser() -> argparse.ArgumentParser:
    ap = argparse.ArgumentParser(prog="python -m pipeline", description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = ap.add_subparsers(dest="command", required=True)
    b = sub.add_parser("build", help="compute, draw and assemble the site")
    b.add_argument("--preset", default=presets.DEFAULT, choices=sorted(presets.PRESETS))
    b.add_argument("-j", "--jobs", type=int, default=None, help="worker processes (default: all cores)")
    b.add_argument("--only", nargs="+", metavar="ID", help="build only these scenes")
    b.add_argument("--force", action="store_true", help="ignore the cache for the selected scenes")
    b.add_argument("--no-site", action="store_true", help="skip mkdocs build")
    b.add_argument("--scenario", metavar="ID", default=None,
                   help="also build this scenario's data, figures and pages (catalogue.yml scenarios:), "
                   "or 'all'; default: the default scenario only")
    b.add_argument("--timeout", type=float, metavar="SECONDS", default=None,
                   help="kill any task running longer than this. Default rule: "
                   + build_rules())
    b.add_argument("--shard", metavar="I/N", default=None,
                   help="draw only shard I of N's share (planned from build/report.json costs); leaves build/ "
                   "holding that share and a partial manifest for `merge`; no site (pipeline/engine/shard.py)")
    b.add_argument("--kit", nargs="*", metavar="ID", default=None,
                   help="also the presenter kit (the hd and 4k renders, overlay, deck) of every selected scene, "
                   "or of the scenes named, as the deploy workflow builds the release; with --shard, the kit's "
                   "tasks are shared out too")
    mg = sub.add_parser("merge", help="combine N shards' build/ folders into build/ and build the site")
    mg.add_argument("--preset", default=presets.DEFAULT, choices=sorted(presets.PRESETS))
    mg.add_argument("dirs", nargs="+", metavar="DIR", help="a shard's build/ folder (one per shard)")
    mg.add_argument("--no-site", action="store_true", help="skip mkdocs build")
    sub.add_parser("check", help="validate the catalogue")
    sub.add_parser("release", help="stage and list the kit's heavy files for a GitHub Release "
                   "(python -m pipeline release --help)")
    sub.add_parser("bench-release", help="the release build cold and the presenter kits, measured "
                   "(python -m pipeline bench-release --help)")
    bench = sub.add_parser("bench", help="time what make does: no-op and one-scene rebuilds, the edit loop")
    bench.add_argument("-j", "--jobs", type=int, default=None)
    bench.add_argument("--hd", action="store_true", help="also time a cold hd render of every animation")
    sv = sub.add_parser("serve", help="build, serve with live reload, rebuild on every source edit")
    sv.add_argument("--preset", default=presets.DEFAULT, choices=sorted(presets.PRESETS))
    sv.add_argument("-j", "--jobs", type=int, default=None)
    sv.add_argument("--only", nargs="+", metavar="ID", help="build only these scenes")
    sv.add_argument("-a", "--dev-addr", default="127.0.0.1:8000", metavar="HOST:PORT")
    fr = sub.add_parser("frame", help="render one beat's last frame as a PNG (no video)")
    fr.add_argument("id", help="scene id (catalogue.yml)")
    fr.add_argument("beat", type=int, help="beat number, from 1")
    fr.add_argument("--preset", default=presets.DEFAULT, choices=sorted(presets.PRESETS))
    fr.add_argument("--out", default=None, help="PNG path (default build/frames/<preset>/<id>-beat<N>.png)")
    fr.add_argument("--full", action="store_true",
                    help="render every frame up to the beat instead of skipping (slow; for comparison)")
    nw = sub.add_parser("new", help="scaffold a scene: catalogue entry and its five files")
    nw.add_argument("id", help="the scene's id, a slug like 'gang-scheduling'")
    nw.add_argument("--module", required=True, help="the catalogue module it belongs to (modules: in catalogue.yml)")
    nw.add_argument("--title", default=None, help="its title (default: from the id)")
    ky = sub.add_parser("keys", help="print one digest over the cache keys of the tasks a build needs")
    ky.add_argument("--preset", default=presets.DEFAULT, choices=sorted(presets.PRESETS))
    ky.add_argument("--only", nargs="+", metavar="ID", help="only these scenes' tasks")
    ky.add_argument("--tasks", action="store_true", help="also list each task's key, before the digest")
    ky.add_argument("--kit", nargs="*", metavar="ID", default=None,
                    help="the build with the presenter kits (build --kit [ID ...])")
    pk = sub.add_parser("presenter", help="the presenter kit: decks, 1080p60 and 4k masters, transparent overlay")
    pk.add_argument("-j", "--jobs", type=int, default=None, help="worker processes (default: all cores)")
    pk.add_argument("--only", nargs="+", metavar="ID", help="only these scenes' kits")
    pk.add_argument("--force", action="store_true", help="ignore the cache for the selected scenes")
    pk.add_argument("--timeout", type=float, metavar="SECONDS", default=None, help="as for build")
    # the kit's build: default scenario, one machine, no site
    pk.set_defaults(scenario=None, shard=None, no_site=True, kit=None)
    return ap


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    if argv[:1] == ["release"]:  # its own parser: pipeline/presenter/release.py
        from pipeline.presenter import release

        return release.main(argv[1:])
    if argv[:1] == ["bench-release"]:  # its own parser: pipeline/devloop/bench_release.py
        from pipeline.devloop import bench_release

        return bench_release.main(argv[1:])
    args = parser().parse_args(argv)

    if args.command == "new":  # before load(): scaffolding must work while another scaffold is unfinished
        from pipeline.devloop import scaffold

        return scaffold.main(args.id, args.module, args.title)

    try:
        catalogue = load()
    except CatalogueError as e:
        print(f"error: {e}", file=sys.stderr)
        print("nothing was built; build/ and site/ are unchanged", file=sys.stderr)
        return 2

    if args.command == "check":
        return check(catalogue)
    if args.command == "serve":
        from pipeline.devloop import serve

        return serve.main(args.preset, args.jobs, args.only, args.dev_addr)
    if args.command == "frame":
        from pipeline.devloop import frame

        return frame.main(catalogue, args.id, args.beat, args.preset, args.out, full=args.full)
    if args.command == "keys":
        from pipeline.engine import keys

        return keys.main(catalogue, args.preset, args.only, tasks=args.tasks,
                         kit=False if args.kit is None else args.kit)
    if args.command == "bench":
        from pipeline.devloop import bench as bench_mod

        return bench_mod.main(catalogue, args.jobs, hd=args.hd)

    return build_or_merge(args, catalogue)


def check(catalogue) -> int:
    """`check`: the catalogue loads; list what unfinished scenes miss; every scenario resolves."""
    unfinished = [s for s in catalogue.scenes if s.missing]
    for s in unfinished:
        print(f"catalogue.yml: scene {s.id!r} is not built yet; still missing:", file=sys.stderr)
        for m in s.missing:
            print(f"  - {m}", file=sys.stderr)
    if unfinished:
        print(f"catalogue.yml: {len(unfinished)} scene(s) unfinished: their pages say \"Not built yet\"",
              file=sys.stderr)
        return 1
    from pipeline import scenarios

    try:  # every scenario's values resolve and pass the models' declarations too
        scenarios.catalogues(catalogue, scenarios.ids(catalogue, "all"))
    except CatalogueError as e:
        print(f"error: {e}", file=sys.stderr)
        return 2
    print(f"catalogue.yml: {len(catalogue.scenes)} entries, {len(catalogue.built)} with exhibits, "
          f"{len(catalogue.scenarios)} scenarios: ok")
    return 0


def build_or_merge(args, catalogue) -> int:
    """`build`, `presenter` and `merge`: the arguments checked, then the build (or the merge) and its summary."""
    from pipeline.engine import build

    if args.command == "merge":
        from pipeline.engine import shard

        try:
            return shard.merge(catalogue, args.dirs, args.preset, site=not args.no_site)
        except ManifestError as e:
            print(f"error: {e}\nnothing was merged; build/ and site/ are unchanged", file=sys.stderr)
            return 2
    for option, ids in (("--only", args.only), ("--kit", args.kit)):
        unknown = [i for i in ids or [] if i not in {s.id for s in catalogue.scenes}]
        if unknown:
            print(f"error: {option}: no scene with id {unknown[0]!r} in catalogue.yml", file=sys.stderr)
            return 2
    outside = [i for i in args.kit or [] if args.only and i not in args.only]
    if outside:
        print(f"error: --kit: {outside[0]!r} is not among --only's scenes: its kit would not be built",
              file=sys.stderr)
        return 2
    from pipeline import scenarios

    try:
        extra = scenarios.catalogues(catalogue, scenarios.ids(catalogue, args.scenario))
    except KeyError as e:
        print(f"error: {e.args[0]}", file=sys.stderr)
        return 2
    except CatalogueError as e:
        print(f"error: {e}", file=sys.stderr)
        print("nothing was built; build/ and site/ are unchanged", file=sys.stderr)
        return 2
    if args.timeout is not None and not args.timeout > 0:
        print("error: --timeout: expected a positive number of seconds", file=sys.stderr)
        return 2
    part = None
    if args.shard and extra:
        print("error: --shard renders the default scenario's media only; build the other scenarios "
              "(--scenario) after the merge", file=sys.stderr)
        return 2
    if args.shard:
        from pipeline.engine import shard

        try:
            index, count = shard.parse_spec(args.shard)
            plan = shard.make_plan(catalogue, args.only, args.preset, count, kit=args.kit is not None,
                                   kit_only=args.kit or None)
        except (shard.ShardError, ManifestError) as e:
            print(f"error: {e}", file=sys.stderr)
            return 2
        print(plan.describe() + f"\nthis is shard {index}/{count}: no site (merge builds it)", flush=True)
        part = shard.Shard(plan, index)
    try:
        timeout = build.timeout_override(args.timeout)
        if args.command == "presenter":  # the kit's tasks in the same build: no site, nothing pruned but stale kits
            report = build.run(catalogue, only=args.only, preset="hd", jobs=args.jobs, force=args.force,
                               site=False, timeout=timeout, builds="kit")
        else:
            report = build.run(catalogue, only=args.only, preset=args.preset, jobs=args.jobs,
                               force=args.force, site=not (args.no_site or part), timeout=timeout, shard=part,
                               scenarios=extra, builds="site" if args.kit is None else "site+kit",
                               kit_only=args.kit or None)
    except build.BuildLocked as e:
        print(f"error: {e}", file=sys.stderr)
        return 3
    except ManifestError as e:
        print(f"error: {e}", file=sys.stderr)
        print("site/ is unchanged", file=sys.stderr)
        return 2
    print(build.summarize(report))
    site_done = args.no_site or part or report.site_ok or report.site_deferred
    return 0 if report.ok and (args.command == "presenter" or site_done) else 1


if __name__ == "__main__":
    sys.exit(main())
