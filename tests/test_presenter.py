"""The presenter kit, on a 2-second, 2-beat fixture scene (tests/fixtures/kit_fixture.py).

Real scenes cost minutes at hd and far more at 4k, so the heavy outputs are made once per run from
the fixture, at the kit's resolutions but a lower frame rate (15 fps; 60 fps only multiplies the
same frames). The deck and overlay are made by the same functions the build's workers call
(presenter.make_deck, make_overlay); the 4k master by the site's media task (workers/media.py: media).
"""

from __future__ import annotations

import json
import re
import time
from pathlib import Path

import av
import pytest

from pipeline import paths
from pipeline.catalogue import load
from pipeline.engine import presets, registry
from pipeline.engine.manifest import Manifest
from pipeline.presenter import kit as presenter
from pipeline.presenter import subrip
from pipeline.stages import compute
from pipeline.workers import captions

FIXTURES = Path(__file__).with_name("fixtures")
SCENE_ID = "kit-fixture"
SCENE_REF = "fixtures.kit_fixture:KitFixture"
DATA = json.loads((FIXTURES / f"{SCENE_ID}.json").read_text())
FPS = 15  # the fixture's frame rate: the kit's pixel sizes, fewer frames


def fixture_class():
    from fixtures.kit_fixture import KitFixture

    KitFixture.data_dir = FIXTURES
    return KitFixture


def at(preset: str) -> dict:
    return {**presets.PRESETS[preset], "frame_rate": FPS}


@pytest.fixture(scope="module")
def kit(tmp_path_factory) -> Path:
    """The fixture's deck render and overlay render, once per run: build/presenter/<id>/ in a scratch dir."""
    out = tmp_path_factory.mktemp("kit") / "presenter"
    cls = fixture_class()
    presenter.make_deck(cls, SCENE_ID, at(presenter.DECK_PRESET), out, "Kit fixture")
    presenter.make_overlay(cls, SCENE_ID, at(presenter.OVERLAY_PRESET), out)
    return out


def _deck_videos(kit: Path) -> list[Path]:
    html = (presenter.deck_outputs(SCENE_ID, kit)["html"]).read_text()
    names = re.findall(r'data-background-video="([^"]+)"', html)
    return [presenter.deck_outputs(SCENE_ID, kit)["html"].parent / n for n in names]


@pytest.mark.slow
def test_deck_has_one_slide_per_beat(kit):
    out = presenter.deck_outputs(SCENE_ID, kit)
    beats = json.loads(out["beats"].read_text())
    assert [b["caption"] for b in beats["beats"]] == DATA["captions"]
    assert beats["slides"] == len(DATA["captions"]) == 2
    videos = _deck_videos(kit)
    assert len(videos) == 2 and all(v.is_file() for v in videos)
    # the slides are the movie cut at the beats: their lengths add up to the whole
    total = sum(float(av.open(str(v)).duration) / 1e6 for v in videos)
    assert total == pytest.approx(beats["duration"], abs=2 / FPS)


@pytest.mark.slow
def test_pptx_one_video_per_slide_notes_are_captions(kit):
    import pptx
    from pptx.enum.shapes import MSO_SHAPE_TYPE

    prs = pptx.Presentation(str(presenter.deck_outputs(SCENE_ID, kit)["pptx"]))
    slides = list(prs.slides)
    assert len(slides) == len(DATA["captions"])
    for slide, caption in zip(slides, DATA["captions"]):
        movies = [s for s in slide.shapes if s.shape_type == MSO_SHAPE_TYPE.MEDIA]
        assert len(movies) == 1, f"{len(movies)} videos on a slide"
        assert slide.notes_slide.notes_text_frame.text == caption
    media = [p for p in prs.part.package.iter_parts() if p.partname.startswith("/ppt/media/") and
             p.partname.endswith(".mp4")]
    assert len(media) == len(DATA["captions"])
    assert (prs.slide_width, prs.slide_height) == (1920 * 9525, 1080 * 9525)


@pytest.mark.slow
def test_kit_captions_and_poster(kit):
    from PIL import Image

    out = presenter.deck_outputs(SCENE_ID, kit)
    beats = json.loads(out["beats"].read_text())["beats"]
    assert out["vtt"].read_text() == captions.webvtt(beats)
    srt = out["srt"].read_text()
    assert srt.startswith("1\n00:00:00,000 --> 00:00:01,000\n" + DATA["captions"][0] + "\n")
    assert srt.count(" --> ") == 2
    assert Image.open(out["poster"]).size == (1920, 1080)
    with av.open(str(out["mp4"])) as c:
        s = c.streams.video[0]
        assert (s.width, s.height) == (1920, 1080)


def test_srt_format():
    beats = [{"start": 0.0, "end": 1.5, "caption": "one"}, {"start": 1.5, "end": 3723.25, "caption": "two"}]
    assert subrip.srt(beats) == "1\n00:00:00,000 --> 00:00:01,500\none\n\n2\n00:00:01,500 --> 01:02:03,250\ntwo\n"
    with pytest.raises(ValueError, match="beat 1 ends before it starts"):
        subrip.srt([{"start": 2.0, "end": 1.0, "caption": "x"}])


def _alpha_frames(path: Path) -> list:
    """Decode with libvpx-vp9: FFmpeg's own VP9 decoder drops the alpha plane."""
    frames = []
    with av.open(str(path)) as c:
        stream = c.streams.video[0]
        assert stream.metadata.get("alpha_mode") == "1", f"{path.name}: no alpha_mode tag: {stream.metadata}"
        dec = av.CodecContext.create("libvpx-vp9", "r")
        for packet in c.demux(stream):
            if packet.size:
                frames += dec.decode(packet)
        frames += dec.decode(None)
    return frames


@pytest.mark.slow
def test_overlay_webm_has_real_transparency(kit):
    path = presenter.overlay_output(SCENE_ID, kit)
    frames = _alpha_frames(path)
    assert frames and frames[-1].format.name == "yuva420p"
    rgba = frames[-1].to_ndarray(format="rgba")
    assert rgba.shape == (1080, 1920, 4)
    alpha = rgba[..., 3]
    for y, x in ((10, 10), (10, 1909), (1069, 10), (1069, 1909)):  # corners: background
        assert alpha[y, x] == 0, f"background pixel ({x}, {y}) has alpha {alpha[y, x]}"
    # the filled square, 3 units of 8 high, shifted up 0.6: its middle is drawn, opaque
    cy = 540 - round(0.6 / 8 * 1080)
    block = alpha[cy - 50:cy + 50, 960 - 50:960 + 50]
    assert block.min() >= 250, f"drawn content is not opaque (alpha down to {block.min()})"


@pytest.mark.slow
def test_4k_master_is_3840x2160(tmp_path, monkeypatch):
    """The kit's 4k master is the site's media task at the 4k preset: rendered here from the fixture."""
    from pipeline.workers import media as draw_media

    assert (presets.PRESETS["4k"]["pixel_width"], presets.PRESETS["4k"]["pixel_height"]) == (3840, 2160)
    monkeypatch.setattr(paths, "ROOT", tmp_path)
    monkeypatch.setattr(paths, "DATA", FIXTURES)
    monkeypatch.setattr(paths, "MEDIA", tmp_path / "build" / "media")
    monkeypatch.setattr(paths, "WORK", tmp_path / "build" / "work")
    (tmp_path / "build" / "media" / "4k").mkdir(parents=True)
    try:
        draw_media.media(SCENE_ID, SCENE_REF, "4k", {**presets.PRESETS["4k"], "frame_rate": 5})
    finally:
        fixture_class()  # media() pointed the class at paths.DATA; point it back
    with av.open(str(tmp_path / "build" / "media" / "4k" / f"{SCENE_ID}.mp4")) as c:
        s = c.streams.video[0]
        assert (s.width, s.height) == (3840, 2160)


def test_kit_tasks_use_the_presets(preview_site):
    scene = next(s for s in load().built if s.id == "ring-vs-tree")
    tasks = {t.id: t for t in _kit_tasks(scene)}
    assert set(tasks) == {f"kit/deck/{scene.id}", f"media/4k/{scene.id}", f"kit/overlay/{scene.id}"}
    assert tasks[f"media/4k/{scene.id}"].parts["preset"]["pixel_width"] == 3840
    assert tasks[f"kit/deck/{scene.id}"].parts["preset"]["frame_rate"] == 60
    # the kit's key covers manim-slides and python-pptx, and the vendored reveal.js
    assert {"manim-slides", "python-pptx"} <= set(tasks[f"kit/deck/{scene.id}"].parts["versions"])
    assert any("reveal.js" in f for f in tasks[f"kit/deck/{scene.id}"].parts["vendor"])


def _kit_tasks(scene):
    if not paths.data_json(scene.id).is_file():
        pytest.fail(f"{paths.rel(paths.data_json(scene.id))} missing: build the data first (make)")
    return kit_tasks(scene)


def kit_tasks(scene):
    """The tasks the presenter kit's build plans once the scene's data is up to date, keyed."""
    root = registry.task(compute, compute.planned(scene)).keyed()
    return [t.keyed() for t in registry.followers(root, registry.Context(load(), build="kit"))]


def test_unchanged_kit_is_a_cache_hit(tmp_path, preview_site):
    """Kit keys are stable: a recorded kit is a hit the next time, and a data change names itself."""
    scene = next(s for s in load().built if s.id == "ring-vs-tree")
    manifest = Manifest(tmp_path / "manifest.json")
    for task in _kit_tasks(scene):
        manifest.record(task.id, task.key, task.parts, {}, 1.0)
    t0 = time.perf_counter()
    again = [registry.judge(t, manifest, force=False) for t in _kit_tasks(scene)]
    assert [t.reason for t in again] == [None, None, None], [t.reason for t in again]
    assert time.perf_counter() - t0 < 5, "planning a kit must take seconds"
    deck = again[0]
    entry = manifest.get(deck.id)
    entry["parts"] = {**entry["parts"], "data": "0" * 64}
    entry["key"] = "stale"
    assert registry.judge(kit_tasks(scene)[0], manifest, force=False).reason == "data changed"


@pytest.mark.slow
@pytest.mark.browser
def test_offline_html_deck_in_chromium(kit, chromium):
    """From a folder with no network: every request stays on the host, no console error, and the
    right arrow shows the next beat's video."""
    from browser import HOST, serve

    deck = presenter.deck_outputs(SCENE_ID, kit)["html"].parent
    videos = [v.name for v in _deck_videos(kit)]
    problems, requests = [], []
    with serve(deck) as base:
        page = chromium.new_page()
        page.on("console", lambda m: m.type == "error" and problems.append(f"console error: {m.text}"))
        page.on("pageerror", lambda e: problems.append(f"page error: {e}"))
        page.on("request", lambda r: requests.append(r.url))
        page.on("requestfailed", lambda r: problems.append(f"failed: {r.url} ({r.failure})"))
        page.on("response", lambda r: r.status >= 400 and problems.append(f"HTTP {r.status}: {r.url}"))
        page.goto(base + "index.html", wait_until="load")
        page.wait_for_function("() => window.Reveal && Reveal.isReady()", timeout=30_000)
        shown = """() => {
            const v = Reveal.getCurrentSlide().slideBackgroundContentElement.querySelector('video');
            // played: a 1-second slide may have ended (and paused) by the time we look
            return v && v.readyState >= 2 && v.currentTime > 0 ? v.currentSrc : null;
        }"""
        first = page.wait_for_function(shown, timeout=30_000).json_value()
        assert page.evaluate("Reveal.getTotalSlides()") == len(DATA["captions"])
        page.keyboard.press("ArrowRight")
        page.wait_for_function("() => Reveal.getIndices().h === 1", timeout=15_000)
        second = page.wait_for_function(shown, timeout=30_000).json_value()
        notes = page.evaluate("Reveal.getSlideNotes()")
    assert first.endswith("/slides/" + videos[0]) and second.endswith("/slides/" + videos[1]), (first, second)
    assert DATA["captions"][1] in notes
    off_host = [u for u in requests if not u.startswith(f"http://{HOST}:")]
    assert not off_host, f"requests to other hosts: {off_host}"
    assert not problems, problems


def test_site_links_only_light_kit_files_this_build_made(tmp_path, monkeypatch):
    """Heavy kit files are listed with how to make them, never linked; files not made are not named."""
    from pipeline.site import kit_site

    monkeypatch.setattr(paths, "ROOT", tmp_path)
    monkeypatch.setattr(presenter, "PRESENTER", tmp_path / "build" / "presenter")
    monkeypatch.setattr(paths, "MEDIA", tmp_path / "build" / "media")
    where = kit_site.kit_paths("x")
    made = {k: where[k] for k in ("mp4", "vtt", "pptx", "4k")}  # no overlay, poster, srt, zip this time
    for p in made.values():
        p.parent.mkdir(parents=True, exist_ok=True)
        p.write_bytes(b"\0" * 1500)
    owned = {paths.rel(p) for p in made.values()}
    files = kit_site.kit_files(owned, "x")
    assert [f.kind for f in files] == ["mp4", "4k", "vtt", "pptx"]
    assert kit_site.site_path(paths.rel(where["mp4"])) == "assets/presenter/x/x-1080p60.mp4"
    assert kit_site.site_path(paths.rel(where["pptx"])) is None
    assert kit_site.site_path("build/presenter/x/x-deck/index.html") is None

    class Scene:
        id, title, label = "x", "A title", "01"

    linked = {paths.rel(where[k]): f"../../assets/{k}" for k in ("mp4", "vtt")}
    block = kit_site.reuse_block(Scene, files, linked.get, "https://example.org/scenes/x/")
    assert block.count("<a href=\"../../assets/") == 2
    assert "not in the site (too large): made by <code>make slides S=x</code>" in block
    assert "Transparent overlay" not in block and "1.50 kB" in block
    assert "“A title”, World 06 · Infrastructure, https://example.org/scenes/x/. Licensed CC BY 4.0" in block
    assert "scenes/x/" not in kit_site.attribution("A title", "scenes/x/")


# upstream's reveal.js 6.0.1 files, SHA-256 read from npm's reveal.js-6.0.1.tgz
# (pipeline/presenter/vendor/reveal.js/README.md)
VENDOR = Path(__file__).resolve().parents[1] / "pipeline" / "presenter" / "vendor" / "reveal.js"
UPSTREAM_SHA256 = {
    "LICENSE": "b2883e4b610bfa1b4d8fff84c4d4b825cc7d553cbd9fec4777c04068a2859dc0",
    "dist/reveal.css": "64e6203ee2048665c9f49c368f345fb3d7f936c404934162c70369a7682f388f",
    "dist/reveal.js": "3fb84c30d2e610dd598843d75a123ef2c4dbc588847cda86cd8c7a61e18ddb6b",
    "dist/theme/black.css": "c29c9689e8f3b277aa66edc01ed2ef97981a6768b05ad750582eac068d9705c3",
    "dist/plugin/highlight/zenburn.css": "e298a0f1c2de9dea4ace202ce7e60cbc3143ebf7eab42efe891a8885f392444c",
    "dist/plugin/notes.js": "946159680c70354c665dbf4f3c9023a737d8b14b48c6c9af452553717a046729",
    "dist/plugin/markdown.js": "73dbda3d0c6006d1794203d5405103aa7b3e8f3f59aecf3c35914150d51388cd",
}


def test_vendored_reveal_is_upstreams_bytes():
    """Every vendored file is upstream's exactly, and nothing else is vendored (but the README)."""
    import hashlib

    files = {p.relative_to(VENDOR).as_posix() for p in VENDOR.rglob("*") if p.is_file()} - {"README.md"}
    assert files == set(UPSTREAM_SHA256)
    for rel, digest in UPSTREAM_SHA256.items():
        assert hashlib.sha256((VENDOR / rel).read_bytes()).hexdigest() == digest, rel
