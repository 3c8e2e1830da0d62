"""The presenter kit's deck: the site's hd render cut at its beats' ends into one video per slide, then
the PPTX, the zipped offline HTML deck and the SRT in build/presenter/<id>/
(pipeline/presenter/deck.py). No render of its own: it follows `media/hd/<id>`, so one hd render
serves the site's video, the kit's 1080p60 MP4 and the deck.

Keyed on the hd render's movie and beats (their hashes), the vendored reveal.js files the HTML deck
bundles, and the deck's title."""

from __future__ import annotations

from pipeline import paths
from pipeline.engine.hashing import files_hashes
from pipeline.engine.registry import Planned
from pipeline.presenter import kit

KIND = "deck"
LIBS = ("av", "manim-slides", "python-pptx", "pillow")  # pillow: the PPTX converter saves each slide's poster
COST = 4.0  # seconds: a stream copy and two converters (measured about 2-5 s a scene, README "Presenter kit")
PIXEL_SCALED = False
FOLLOWS = "media"
BUILDS = ("kit",)
WORKER = "pipeline.presenter.deck:deck"
ORDER = 10
VENDOR = paths.ROOT / "pipeline" / "presenter" / "vendor"


def after(parent, ctx) -> list[Planned]:
    scene = parent.scene
    if parent.id != f"media/{kit.DECK_PRESET}/{scene.id}" or not ctx.kit_for(scene.id):
        return []  # the 4k master and the site's preview are not cut into slides, nor a scene without a kit
    hd = kit.hd_outputs(scene.id)
    return [Planned(f"kit/deck/{scene.id}", scene, (scene.id, scene.title), [],
                    lambda: {"title": scene.title,
                             "movie": ctx.data(parent, hd["mp4"]), "beats": ctx.data(parent, hd["beats"]),
                             "vendor": files_hashes(p for p in VENDOR.rglob("*") if p.is_file())})]


def live(ctx):
    ids = {s.id for s in ctx.catalogue.built}
    return lambda task_id: task_id.startswith("kit/deck/") and task_id.rsplit("/", 1)[1] in ids
