"""The presenter kit, on a 2-second, 2-beat fixture scene (tests/fixtures/kit_fixture.py).

Real scenes cost minutes at hd and far more at 4k, so the heavy outputs are made once per run from
the fixture, at the kit's resolutions but a lower frame rate (15 fps; 60 fps only multiplies the
same frames). The hd render is the site's media task (workers/media.py: media), and the deck is cut
from it by the function the build's deck worker calls (deck.make_deck); the overlay by
presenter.make_overlay; the 4k master by the media task again.
"""

from __future__ import annotations

import json
import re
import time
import zipfile
from pathlib import Path

import av
import pytest

from pipeline import paths
from pipeline.catalogue import load
from pipeline.engine import presets, registry
from pipeline.engine.manifest import Manifest
from pipeline.presenter import deck as deck_task
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


def render_media(root: Path, preset: str, settings: dict) -> None:
    """The site's media task on the fixture, into root/build/media/<preset>/."""
    from pipeline.workers import media as draw_media

    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(paths, "ROOT", root)
        mp.setattr(paths, "DATA", FIXTURES)
        mp.setattr(paths, "MEDIA", root / "build" / "media")
        mp.setattr(paths, "WORK", root / "build" / "work")
        (root / "build" / "media" / preset).mkdir(parents=True, exist_ok=True)
        try:
            draw_media.media(SCENE_ID, SCENE_REF, preset, settings)
        finally:
            fixture_class()  # media() pointed the class at paths.DATA; point it back


@pytest.fixture(scope="module")
def kit(tmp_path_factory) -> Path:
    """The fixture's hd render, the deck cut from it and the overlay render, once per run: a scratch build/."""
    root = tmp_path_factory.mktemp("kit")
    render_media(root, presenter.DECK_PRESET, at(presenter.DECK_PRESET))
    build = root / "build"
    hd = presenter.hd_outputs(SCENE_ID, build / "media")
    deck_task.make_deck(SCENE_ID, hd["mp4"], hd["beats"], build / "presenter", "Kit fixture")
    presenter.make_overlay(fixture_class(), SCENE_ID, at(presenter.OVERLAY_PRESET), build / "presenter")
    with zipfile.ZipFile(presenter.deck_outputs(SCENE_ID, build / "presenter")["zip"]) as z:
        z.extractall(build / "unzipped")  # as a speaker opens the HTML deck
    return build


def _deck(kit: Path) -> dict[str, Path]:
    return presenter.deck_outputs(SCENE_ID, kit / "presenter")


def _html(kit: Path) -> Path:
    """The HTML deck's index.html, unzipped: the ZIP holds one folder, <id>-deck/."""
    return kit / "unzipped" / f"{SCENE_ID}-deck" / "index.html"


def _deck_videos(kit: Path) -> list[Path]:
    names = re.findall(r'data-background-video="([^"]+)"', _html(kit).read_text())
    return [_html(kit).parent / n for n in names]


def _frames(path: Path) -> list:
    with av.open(str(path)) as c:
        return [f.to_ndarray(format="rgb24") for f in c.decode(video=0)]


@pytest.mark.slow
def test_deck_is_the_hd_render_cut_at_the_beats(kit):
    """One slide per beat, and the slides' frames are the hd render's, in order, none lost or added:
    the deck is that render cut by stream copy, not a render of its own."""
    import numpy as np

    hd = presenter.hd_outputs(SCENE_ID, kit / "media")
    beats = json.loads(hd["beats"].read_text())
    assert [b["caption"] for b in beats["beats"]] == DATA["captions"]
    record = json.loads(_deck(kit)["slides"].read_text())
    assert record["slides"] == len(DATA["captions"]) == 2
    assert record["frames"] == [0, *(round(b["end"] * FPS) for b in beats["beats"])]
    videos = _deck_videos(kit)
    assert len(videos) == 2 and all(v.is_file() for v in videos)
    whole, start = _frames(hd["mp4"]), 0
    for k, v in enumerate(videos):
        frames = _frames(v)
        assert len(frames) == record["frames"][k + 1] - record["frames"][k]
        assert all(np.array_equal(f, whole[start + i]) for i, f in enumerate(frames)), f"slide {k + 1}"
        start += len(frames)
    assert start == len(whole)


@pytest.mark.slow
def test_the_same_hd_render_gives_the_same_deck_bytes(kit, tmp_path):
    """The deck's key is the hd render's bytes: cutting it again must give the same files, byte for byte
    (fixed zip dates and document dates, bit-exact slide containers), or a cache hit would lie."""
    hd = presenter.hd_outputs(SCENE_ID, kit / "media")
    again = deck_task.make_deck(SCENE_ID, hd["mp4"], hd["beats"], tmp_path / "presenter", "Kit fixture")
    first = {k: presenter.deck_outputs(SCENE_ID, kit / "presenter")[k] for k in ("srt", "pptx", "zip", "slides")}
    by_name = {p.name: h for p, h in again.items()}
    assert set(by_name) == {p.name for p in first.values()}
    from pipeline.engine import atomic

    assert all(atomic.file_sha256(p) == by_name[p.name] for p in first.values())


def test_cut_refuses_a_cut_off_a_keyframe_or_a_movie_of_another_length(tmp_path):
    """The fixture at the probe preset (a second's render): a cut inside a play, or beats that do not end
    where the movie does, is refused naming the movie and the frame."""
    from pipeline.presenter import decks

    render_media(tmp_path, "probe", {**presets.PRESETS["probe"], "frame_rate": FPS})
    movie = tmp_path / "build" / "media" / "probe" / f"{SCENE_ID}.mp4"
    beats = json.loads(movie.with_suffix(".beats.json").read_text())["beats"]
    ends = [round(b["end"] * FPS) for b in beats]
    assert len(decks.cut(movie, ends, tmp_path / "ok", "s")) == 2
    with pytest.raises(ValueError, match=r"frame 7 \(slide 2's first\) is not a keyframe"):
        decks.cut(movie, [7, ends[-1]], tmp_path / "mid", "s")
    with pytest.raises(ValueError, match=r"frames, but its beats end at frame"):
        decks.cut(movie, [ends[0], ends[-1] + 1], tmp_path / "long", "s")
    with pytest.raises(ValueError, match="not a whole frame at 15 fps"):
        decks.frame_at(0.5, 15, "x.beats.json: beat 1 end")


def test_deck_names_a_missing_or_damaged_beats_file(tmp_path):
    with pytest.raises(FileNotFoundError, match="missing: the deck is cut from the hd render"):
        deck_task.read_beats(tmp_path / "x.beats.json")
    (tmp_path / "x.beats.json").write_text('{"duration": 2.0, "beats": [{"start": 0, "caption": "c"}]}')
    with pytest.raises(ValueError, match=r"x\.beats\.json: 'beats': expected a non-empty list"):
        deck_task.read_beats(tmp_path / "x.beats.json")
    (tmp_path / "x.beats.json").write_text('{"beats": [{"start": 0, "end": 1, "caption": "c"}]}')
    with pytest.raises(ValueError, match="'duration': expected seconds"):
        deck_task.read_beats(tmp_path / "x.beats.json")


@pytest.mark.slow
def test_pptx_one_video_per_slide_notes_are_captions(kit):
    import pptx
    from pptx.enum.shapes import MSO_SHAPE_TYPE

    prs = pptx.Presentation(str(_deck(kit)["pptx"]))
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

    hd = presenter.hd_outputs(SCENE_ID, kit / "media")
    beats = json.loads(hd["beats"].read_text())["beats"]
    assert hd["vtt"].read_text() == captions.webvtt(beats)
    srt = _deck(kit)["srt"].read_text()
    assert srt.startswith("1\n00:00:00,000 --> 00:00:01,000\n" + DATA["captions"][0] + "\n")
    assert srt.count(" --> ") == 2
    assert Image.open(hd["poster"]).size == (1920, 1080)
    with av.open(str(hd["mp4"])) as c:
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
    path = presenter.overlay_output(SCENE_ID, kit / "presenter")
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
    assert (presets.PRESETS["4k"]["pixel_width"], presets.PRESETS["4k"]["pixel_height"]) == (3840, 2160)
    render_media(tmp_path, "4k", {**presets.PRESETS["4k"], "frame_rate": 5})
    with av.open(str(tmp_path / "build" / "media" / "4k" / f"{SCENE_ID}.mp4")) as c:
        s = c.streams.video[0]
        assert (s.width, s.height) == (3840, 2160)


def test_kit_tasks_use_the_presets():
    scene = next(s for s in load().built if s.id == "ring-vs-tree")
    tasks = {t.id: t for t in kit_tasks(scene)}
    assert set(tasks) == {f"media/hd/{scene.id}", f"kit/deck/{scene.id}", f"media/4k/{scene.id}",
                          f"kit/overlay/{scene.id}"}
    assert tasks[f"media/4k/{scene.id}"].parts["preset"]["pixel_width"] == 3840
    assert tasks[f"media/hd/{scene.id}"].parts["preset"]["frame_rate"] == 60
    # the deck renders nothing: its key is the hd render's movie and beats, not a scene or a preset
    deck = tasks[f"kit/deck/{scene.id}"].parts
    assert deck["movie"] == deck["beats"] == tasks[f"media/hd/{scene.id}"].key and "preset" not in deck
    assert not any(f.startswith("scenes/") for f in deck["sources"])
    # the kit's key covers manim-slides and python-pptx, and the vendored reveal.js
    assert {"manim-slides", "python-pptx"} <= set(deck["versions"])
    assert any("reveal.js" in f for f in deck["vendor"])


def test_a_site_and_kit_build_plans_the_hd_render_once():
    """build --kit at hd: one media/hd task serves the site and the deck; --kit ID limits the kits."""
    scene = next(s for s in load().built if s.id == "ring-vs-tree")
    both = [t.id for t in kit_tasks(scene, build="site+kit", preset="hd")]
    assert both.count(f"media/hd/{scene.id}") == 1
    assert {f"figures/{scene.id}", f"media/4k/{scene.id}", f"kit/deck/{scene.id}"} <= set(both)
    other = [t.id for t in kit_tasks(scene, build="site+kit", preset="hd", kit_only=["capex-opex-tco"])]
    assert not any(t.startswith(("kit/", "media/4k/")) for t in other) and f"media/hd/{scene.id}" in other


def kit_tasks(scene, build: str = "kit", preset: str = "preview", kit_only=None):
    """The tasks a build plans for `scene`, followers of followers included, keyed as the deploy key keys
    them (a follower's data part is its parent's key: no render need exist)."""
    ctx = registry.Context(load(), preset, build, keys_only=True, kit_only=kit_only)
    out, unseen = [], registry.followers(registry.task(compute, compute.planned(scene)).keyed(), ctx)
    while unseen:
        t = unseen.pop(0).keyed()
        out.append(t)
        unseen += registry.followers(t, ctx)
    return out


def test_unchanged_kit_is_a_cache_hit(tmp_path):
    """Kit keys are stable: a recorded kit is a hit the next time, and a new hd render names itself."""
    scene = next(s for s in load().built if s.id == "ring-vs-tree")
    manifest = Manifest(tmp_path / "manifest.json")
    for task in kit_tasks(scene):
        manifest.record(task.id, task.key, task.parts, {}, 1.0)
    t0 = time.perf_counter()
    again = [registry.judge(t, manifest, force=False) for t in kit_tasks(scene)]
    assert [t.reason for t in again] == [None] * 4, [t.reason for t in again]
    assert time.perf_counter() - t0 < 5, "planning a kit must take seconds"
    deck_id = f"kit/deck/{scene.id}"
    entry = manifest.get(deck_id)
    entry["parts"] = {**entry["parts"], "movie": "0" * 64}
    entry["key"] = "stale"
    deck = next(t for t in kit_tasks(scene) if t.id == deck_id)
    assert registry.judge(deck, manifest, force=False).reason == "movie changed"


@pytest.mark.slow
@pytest.mark.browser
def test_offline_html_deck_in_chromium(kit, chromium):
    """From a folder with no network: every request stays on the host, no console error, and the
    right arrow shows the next beat's video."""
    from browser import HOST, serve

    deck = _html(kit).parent
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
    """Without a release, heavy kit files are listed with how to make them, never linked; files not made
    are not named."""
    from pipeline.site import kit_site

    monkeypatch.delenv("W06_RELEASE_REPO", raising=False)
    monkeypatch.delenv("W06_RELEASE_TAG", raising=False)
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
    assert kit_site.site_path(paths.rel(where["mp4"]), owned) == "assets/presenter/x/x-1080p60.mp4"
    assert kit_site.site_path(paths.rel(where["pptx"]), owned) is None
    assert kit_site.site_path("build/presenter/x/x-deck/index.html", owned) is None
    # an hd render without a deck (make release) is the site's video, not a kit: neither listed nor copied
    no_deck = owned - {paths.rel(where["pptx"])}
    assert [f.kind for f in kit_site.kit_files(no_deck, "x")] == ["4k"]
    assert kit_site.site_path(paths.rel(where["mp4"]), no_deck) is None

    class Scene:
        id, title, label = "x", "A title", "01"

    linked = {paths.rel(where[k]): f"../../assets/{k}" for k in ("mp4", "vtt")}
    block = kit_site.reuse_block(Scene, files, linked.get, "https://example.org/scenes/x/")
    assert block.count("<a href=\"../../assets/") == 2
    assert "not in the site (too large): made by <code>make slides S=x</code>" in block
    assert "Transparent overlay" not in block and "1.50 kB" in block
    assert "“A title”, World 06 · Infrastructure, https://example.org/scenes/x/. Licensed CC BY 4.0" in block
    assert "scenes/x/" not in kit_site.attribution("A title", "scenes/x/")


def test_the_site_publishes_a_kits_hd_files_as_its_own_video_at_hd_and_copies_them_at_preview(monkeypatch):
    """pipeline/site/shared.py: at hd the kit's 1080p60 MP4 is the page's own video (one file, no copy); at
    preview it is copied under assets/presenter/ only beside a made deck."""
    from pipeline.site import shared

    deck = paths.rel(presenter.deck_outputs("x")["pptx"])
    mp4 = paths.rel(presenter.hd_outputs("x")["mp4"])
    monkeypatch.setenv("W06_PRESET", "hd")
    assert shared.site_path(mp4, {mp4}) == "assets/media/x.mp4"
    monkeypatch.setenv("W06_PRESET", "preview")
    assert shared.site_path(mp4, {mp4, deck}) == "assets/presenter/x/x-1080p60.mp4"
    assert shared.site_path(mp4, {mp4}) is None


def _fake_kit(tmp_path, monkeypatch, scene_ids, kinds) -> dict[str, str]:
    """Kit files of `kinds` for `scene_ids` under tmp_path/build, with their hashes as a manifest has them."""
    from pipeline.engine import atomic
    from pipeline.site import kit_site

    monkeypatch.setattr(paths, "ROOT", tmp_path)
    monkeypatch.setattr(paths, "BUILD", tmp_path / "build")
    monkeypatch.setattr(presenter, "PRESENTER", tmp_path / "build" / "presenter")
    monkeypatch.setattr(paths, "MEDIA", tmp_path / "build" / "media")
    hashes = {}
    for n, sid in enumerate(scene_ids):
        for k in kinds:
            p = kit_site.kit_paths(sid)[k]
            p.parent.mkdir(parents=True, exist_ok=True)
            p.write_bytes(bytes([n]) * (1000 + 10 * n))
            hashes[paths.rel(p)] = atomic.file_sha256(p)
    return hashes


def test_pages_link_the_heavy_files_in_the_release_and_the_check_holds_them_to_its_list(tmp_path, monkeypatch):
    """With W06_RELEASE_*, a heavy file links to the release under the name the release attaches it by;
    the staged list holds exactly those files, checked byte for byte; a page linking a file the release
    lacks, or another release, fails the check, and so does a listed file no page links."""
    from pipeline.presenter import release
    from pipeline.site import kit_site

    hashes = _fake_kit(tmp_path, monkeypatch, ["a", "b"], ["mp4", "4k", "overlay", "pptx", "zip"])
    monkeypatch.setenv("W06_RELEASE_REPO", "owner/world06")
    monkeypatch.setenv("W06_RELEASE_TAG", "site-0123456789ab")
    files = kit_site.kit_files(set(hashes), "a")

    class Scene:
        id, title, label = "a", "A title", "01"

    block = kit_site.reuse_block(Scene, files, lambda rel: "../../assets/a.mp4", "https://example.org/a/")
    base = "https://github.com/owner/world06/releases/download/site-0123456789ab/"
    for name in ("a-2160p60.mp4", "a-overlay.webm", "a-deck.pptx", "a-deck-html.zip"):
        assert f'href="{base}{name}"' in block, name
    assert "download from the release site-0123456789ab (GitHub)" in block and "make slides" not in block

    found = release.assets(set(hashes), ["a", "b"])
    assert [a.name for a in found] == ["a-2160p60.mp4", "a-overlay.webm", "a-deck.pptx", "a-deck-html.zip",
                                       "b-2160p60.mp4", "b-overlay.webm", "b-deck.pptx", "b-deck-html.zip"]
    record = release.stage(found, hashes, release=release.Release.from_env())
    staged = tmp_path / "build" / "release" / "assets"
    assert sorted(p.name for p in staged.iterdir()) == sorted(a.name for a in found)
    assert json.loads((tmp_path / "build" / "release" / "release.json").read_text()) == record
    assert record["assets"][0]["size"] == 1000 and record["tag"] == "site-0123456789ab"

    site = tmp_path / "site"
    (site / "a").mkdir(parents=True)
    table = kit_site.presenters_table([Scene], set(hashes), lambda rel: "x", lambda s: "a/")
    (site / "a" / "index.html").write_text(block + table)
    problems = release.check_site(site, record)
    assert problems == [f"{n}: attached but no page links it" for n in
                        ("b-2160p60.mp4", "b-deck-html.zip", "b-deck.pptx", "b-overlay.webm")]
    (site / "b.html").write_text(f'<a href="{base}b-2160p60.mp4">x</a> <a href="{base}b-overlay.webm">x</a> '
                                 f'<a href="{base}b-deck.pptx">x</a> <a href="{base}b-deck-html.zip">x</a>')
    assert release.check_site(site, record) == []
    (site / "c.html").write_text(f'<a href="{base}c-deck.pptx">x</a> '
                                 '<a href="https://github.com/owner/world06/releases/download/old/a-deck.pptx">x</a>')
    problems = release.check_site(site, record)
    assert any("c.html" in p and "the release holds no file 'c-deck.pptx'" in p for p in problems)
    assert any("c.html" in p and "not this release" in p for p in problems)


def test_release_refuses_a_damaged_file_and_a_bad_repo_or_tag(tmp_path, monkeypatch):
    from pipeline.presenter import release

    hashes = _fake_kit(tmp_path, monkeypatch, ["a"], ["4k"])
    (tmp_path / "build" / "media" / "4k" / "a.mp4").write_bytes(b"\1" * 1000)  # same size, other bytes
    with pytest.raises(SystemExit, match=r"build/media/4k/a\.mp4: its bytes differ"):
        release.stage(release.assets(set(hashes), ["a"]), hashes)
    assert not (tmp_path / "build" / "release" / "release.json").exists()
    with pytest.raises(ValueError, match="expected owner/name"):
        release.Release.checked("no-slash", "t", "--repo")
    with pytest.raises(ValueError, match="tag 'a b'"):
        release.Release.checked("o/r", "a b", "--tag")
    monkeypatch.setenv("W06_RELEASE_REPO", "o/r")
    monkeypatch.delenv("W06_RELEASE_TAG", raising=False)
    with pytest.raises(ValueError, match="W06_RELEASE_REPO / W06_RELEASE_TAG: tag ''"):
        release.Release.from_env()


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
