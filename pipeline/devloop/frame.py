"""`make frame S=<id> BEAT=<n>`: one beat's last frame as a PNG, without encoding a video.

    python -m pipeline frame ID BEAT [--preset preview|hd|4k] [--out PATH] [--full]

The scene's data is brought up to date first through the build's cache (the compute task only:
no figure, no video). Then the scene runs with Manim skipping every animation (its `-s`,
save-last-frame mode: each play jumps to its end state and renders no frame) until the end of
beat BEAT, where a private exception stops it, and that one frame is drawn. The frame checks of
that beat (caption band, safe frame, text size, overlaps: scenes/style.py check_frame) are
printed with it, so the quality pass can use this entry point for any beat.

`--full` renders every frame up to the beat instead of skipping (as the video does), then draws
the same end-of-beat frame: the reference the still is compared with (tests/test_frame.py, bench).
"""

from __future__ import annotations

import shutil
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

from pipeline import paths
from pipeline.engine import atomic, presets
from pipeline.jsonio import load_ref


class _Stop(Exception):
    """Raised at the end of the wanted beat: the rest of the scene is never run."""


@dataclass
class Still:
    frame: object  # numpy array, height x width x 3 (RGB)
    beat: int
    caption: str
    beats: int  # beats played (= `beat`)
    problems: list[str]  # check_frame at the end of this beat
    seconds: float


def frame_path(scene_id: str, beat: int, preset: str) -> Path:
    return paths.BUILD / "frames" / preset / f"{scene_id}-beat{beat}.png"


def render_still(scene_ref: str, beat: int, settings: dict, data_dir: Path, full: bool = False) -> Still:
    """Run the scene to the end of beat `beat` (1-based) and draw that frame. In this process."""
    from manim import tempconfig

    if beat < 1:
        raise ValueError(f"beat {beat}: beats are numbered from 1")
    base = load_ref(scene_ref)

    class StillScene(base):  # end_of_beat is the base class's hook at every beat's end
        def end_of_beat(self) -> None:
            super().end_of_beat()
            if len(self.beats) == beat:
                raise _Stop

    StillScene.__name__ = StillScene.__qualname__ = base.__name__
    StillScene.data_dir = data_dir
    paths.WORK.mkdir(parents=True, exist_ok=True)
    work = Path(tempfile.mkdtemp(prefix=f"{atomic.TMP_PREFIX}frame-", dir=paths.WORK))
    t0 = time.perf_counter()
    try:
        config = {**settings, "media_dir": str(work), "write_to_movie": False,
                  "save_last_frame": not full,  # Manim's -s: every animation skipped
                  "disable_caching": True, "progress_bar": "none", "verbosity": "WARNING"}
        with tempconfig(config):
            scene = StillScene()
            renderer = scene.renderer
            draw = renderer.update_frame
            if not full:
                # skipped plays still paint their static mobjects and frozen frames: no frame is
                # kept from them, so paint nothing until the one frame wanted
                renderer.update_frame = lambda *a, **k: None
                renderer.save_static_frame_data = lambda *a, **k: None
            try:
                scene.render()
            except _Stop:
                pass
            else:
                raise ValueError(f"{scene_ref}: no beat {beat}: the scene has {len(scene.beats)} beats")
            # draw every mobject as it stands at the end of the beat (what save_last_frame draws)
            renderer.static_image = None
            draw(scene)
            frame = renderer.get_frame()
            b = scene.beats[-1]
            mine = f"beat {beat} ("
            problems = [p for p in scene.frame_problems if p.startswith(mine)]
            return Still(frame, beat, b["caption"], len(scene.beats), problems, time.perf_counter() - t0)
    finally:
        shutil.rmtree(work, ignore_errors=True)


def png_bytes(frame) -> bytes:
    from PIL import Image

    from pipeline.workers.media import image_bytes

    return image_bytes(Image.fromarray(frame).convert("RGB"), "PNG")


def fresh_data(catalogue, scene_id: str, preset: str) -> bool:
    """Bring build/data/<id>.json up to date through the cache (compute only). False on failure."""
    from pipeline.engine import build

    report = build.run(catalogue, only=[scene_id], preset=preset, jobs=1, site=False, draw=False)
    for o in report.failures:
        print(f"error: {o.message or o.task}", file=sys.stderr)
    return not report.failures and not report.errors


def main(catalogue, scene_id: str, beat: int, preset: str, out: str | None, full: bool = False) -> int:
    from pipeline.engine.build import BuildLocked

    try:
        scene = catalogue.scene(scene_id)
    except KeyError as e:
        print(f"error: {e.args[0]}", file=sys.stderr)
        return 2
    if not scene.built:
        print(f"error: scene {scene_id!r} has no animation yet (make check says what is missing)", file=sys.stderr)
        return 2
    if beat < 1:
        print(f"error: beat {beat}: beats are numbered from 1", file=sys.stderr)
        return 2
    try:
        if not fresh_data(catalogue, scene_id, preset):
            return 1
    except BuildLocked as e:
        print(f"error: {e}", file=sys.stderr)
        return 3
    try:
        still = render_still(scene.scene, beat, presets.check(preset), paths.DATA, full=full)
    except ValueError as e:
        print(f"error: {e}", file=sys.stderr)
        return 2
    dest = Path(out) if out else frame_path(scene_id, beat, preset)
    dest.parent.mkdir(parents=True, exist_ok=True)
    atomic.write_bytes(dest, png_bytes(still.frame))
    h, w = still.frame.shape[:2]
    print(f"beat {beat}: {still.caption}")
    for p in still.problems:
        print(f"frame check: {p}")
    how = 'every frame rendered' if full else 'animations skipped'
    print(f"{w}x{h} {preset} still in {still.seconds:.1f}s ({how})")
    print(dest if out else paths.rel(dest))
    return 0
