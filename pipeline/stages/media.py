"""Media: a scene's animation at a preset -> build/media/<preset>/<id>.* (pipeline/workers/media.py).

The preset is part of the id, the path and the key, so preview, hd and 4k never mix. The presenter
kit's build plans the hd render (the deck is cut from it: pipeline/stages/deck.py) and the 4k master
through this same task, shared with `build --preset hd` (make release) and `build --preset 4k`."""

from __future__ import annotations

from pipeline import paths
from pipeline.engine import presets
from pipeline.engine.registry import Planned, module_of
from pipeline.presenter.kit import DECK_PRESET, MASTER_PRESET

KIND = "media"
LIBS = ("numpy", "manim", "ManimPango", "pycairo", "av", "pillow")
COST = 20.0
PIXEL_SCALED = True
# wall seconds per second of video, one task per core on the 2-core machine (make bench RELEASE=1, README
# "Presenter kit"): hd over all 25 scenes of a cold release, 4k over the three sample kits
RATE = {"hd": 1.70, "4k": 6.52}
FOLLOWS = "compute"
BUILDS = ("site", "kit")
WORKER = "pipeline.workers.media:media"
ORDER = 20


def wanted(ctx, scene_id: str) -> list[str]:
    """The presets a build renders: the site's, and for a scene's kit the deck's hd and the 4k master."""
    return list(dict.fromkeys([*([ctx.preset] if "site" in ctx.build.split("+") else []),
                               *([DECK_PRESET, MASTER_PRESET] if ctx.kit_for(scene_id) else [])]))


def after(parent, ctx) -> list[Planned]:
    return [render(parent, ctx, preset) for preset in wanted(ctx, parent.scene.id)]


def render(parent, ctx, preset: str) -> Planned:
    scene = parent.scene
    settings = presets.check(preset)
    return Planned(f"media/{preset}/{scene.id}", scene, (scene.id, scene.scene, preset, settings),
                   [module_of(scene.scene)],
                   lambda: {"scene": scene.scene, "data": ctx.data(parent, paths.data_json(scene.id)),
                            "fonts": ctx.fonts(), "preset": {"name": preset, **settings}})


def live(ctx):
    ids = {s.id for s in ctx.catalogue.built}
    return lambda task_id: task_id.startswith("media/") and task_id.rsplit("/", 1)[1] in ids
