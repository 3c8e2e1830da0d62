"""The presenter kit's transparent overlay: a render with alpha, VP9 in WebM ->
build/presenter/<id>/<id>-overlay.webm (pipeline/presenter/kit.py: overlay)."""

from __future__ import annotations

from pipeline import paths
from pipeline.engine import presets
from pipeline.engine.registry import Planned, module_of
from pipeline.presenter import kit

KIND = "overlay"
LIBS = ("numpy", "manim", "ManimPango", "pycairo", "av", "pillow")
COST = 45.0  # at preview size, measured on ring-vs-tree (before OVERLAY_VP9)
PIXEL_SCALED = True
# wall seconds per second of video at hd, one task per core on the 2-core machine, over the three sample
# kits of make bench RELEASE=1 (README "Presenter kit"); the first-build guess with the scene's video length
RATE = {"hd": 2.15}
FOLLOWS = "compute"
BUILDS = ("kit",)
WORKER = "pipeline.presenter.kit:overlay"
ORDER = 30


def after(parent, ctx) -> list[Planned]:
    scene = parent.scene
    if not ctx.kit_for(scene.id):
        return []
    settings = presets.check(kit.OVERLAY_PRESET)
    return [Planned(f"kit/overlay/{scene.id}", scene, (scene.id, scene.scene, settings), [module_of(scene.scene)],
                    lambda: {"scene": scene.scene, "data": ctx.data(parent, paths.data_json(scene.id)),
                             "fonts": ctx.fonts(), "preset": {"name": kit.OVERLAY_PRESET, **settings,
                                                              "transparent": True}})]


def live(ctx):
    ids = {s.id for s in ctx.catalogue.built}
    return lambda task_id: task_id.startswith("kit/overlay/") and task_id.rsplit("/", 1)[1] in ids
