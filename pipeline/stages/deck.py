"""The presenter kit's deck: one hd render with manim-slides -> MP4, poster, captions, PPTX and the
offline HTML deck in build/presenter/<id>/ (pipeline/presenter/kit.py: deck). Planned by the kit's
build (python -m pipeline presenter), with the 4k master (media) and the overlay.

Keyed also on the vendored reveal.js files the HTML deck bundles and the deck's title."""

from __future__ import annotations

from pipeline import paths
from pipeline.engine import presets
from pipeline.engine.hashing import files_hashes
from pipeline.engine.registry import Planned, module_of
from pipeline.presenter import kit

KIND = "deck"
LIBS = ("numpy", "manim", "ManimPango", "pycairo", "av", "pillow", "manim-slides", "python-pptx")
COST = 8.0  # at preview size, measured on ring-vs-tree
PIXEL_SCALED = True
FOLLOWS = "compute"
BUILDS = ("kit",)
WORKER = "pipeline.presenter.kit:deck"
ORDER = 10
VENDOR = paths.ROOT / "pipeline" / "presenter" / "vendor"


def after(parent, ctx) -> list[Planned]:
    scene = parent.scene
    settings = presets.check(kit.DECK_PRESET)
    return [Planned(f"kit/deck/{scene.id}", scene, (scene.id, scene.scene, settings, scene.title),
                    [module_of(scene.scene)],
                    lambda: {"scene": scene.scene, "title": scene.title,
                             "data": ctx.data(parent, paths.data_json(scene.id)), "fonts": ctx.fonts(),
                             "vendor": files_hashes(p for p in VENDOR.rglob("*") if p.is_file()),
                             "preset": {"name": kit.DECK_PRESET, **settings}})]


def live(ctx):
    ids = {s.id for s in ctx.catalogue.built}
    return lambda task_id: task_id.startswith("kit/deck/") and task_id.rsplit("/", 1)[1] in ids
