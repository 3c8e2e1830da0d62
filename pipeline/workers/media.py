"""The media stage, run in a worker: data -> build/media/<preset>/<id>.{mp4,png,webp,vtt,beats.json}.

beats.json holds the beats (start, end, caption), the duration, and what the frame and text-card checks
found at each beat's end (`frame_problems`, `card_problems`: empty for a presentable scene).

Manim renders into a scratch folder under build/work with its own cache off
(ours sits above it); the poster is the last frame. Everything lands by
atomic rename, all staged first and renamed together (atomic.commit), so no
page ever points at a half-written file or a poster of another video.
"""

from __future__ import annotations

import io
import shutil
import tempfile
from pathlib import Path

from pipeline import paths
from pipeline.engine import atomic
from pipeline.jsonio import load_ref, to_json
from pipeline.workers import captions


def resized(img, width: int):
    from PIL import Image

    if img.width <= width:
        return img
    return img.resize((width, round(img.height * width / img.width)), Image.Resampling.LANCZOS)


def image_bytes(img, fmt: str, **options) -> bytes:
    buf = io.BytesIO()
    img.save(buf, format=fmt, **options)
    return buf.getvalue()


def media(scene_id: str, scene_ref: str, preset: str, settings: dict) -> dict[str, str]:
    """Render the animation, its poster (last frame), caption track and beats."""
    from manim import tempconfig
    from PIL import Image

    cls = load_ref(scene_ref)
    cls.data_dir = paths.DATA
    paths.WORK.mkdir(parents=True, exist_ok=True)
    work = Path(tempfile.mkdtemp(prefix=f"{atomic.TMP_PREFIX}{scene_id}-{preset}-", dir=paths.WORK))
    try:
        config = {
            **settings,
            "media_dir": str(work),
            "output_file": scene_id,
            "format": "mp4",
            "write_to_movie": True,
            "save_last_frame": False,
            "disable_caching": True,  # our own content-hash cache sits above Manim's
            "progress_bar": "none",
            "verbosity": "WARNING",
        }
        with tempconfig(config):
            scene = cls()
            scene.render()
            frame = scene.renderer.get_frame()
            beats = scene.timed_beats()
            duration = round(scene.renderer.time, 3)
            # what the scene tests check at each beat's end (scenes/style.py), recorded by the render
            # itself: tests/test_scenes.py reads it for a current render instead of dry-running again
            checks = {"frame_problems": list(scene.frame_problems), "card_problems": list(scene.card_problems)}
        videos = list(work.rglob(f"{scene_id}.mp4"))
        if len(videos) != 1:
            raise RuntimeError(f"{scene_ref}: expected one {scene_id}.mp4 from Manim, found {videos}")
        if not beats:
            raise RuntimeError(f"{scene_ref}: the scene marked no beats (call self.beat(caption))")

        last = Image.fromarray(frame).convert("RGB")
        outputs = {
            paths.poster(scene_id, preset): image_bytes(last, "PNG", optimize=True),
            paths.poster_web(scene_id, preset): image_bytes(resized(last, 1280), "WEBP", quality=82),
            paths.card(scene_id, preset): image_bytes(resized(last, 427), "WEBP", quality=80),
            paths.captions(scene_id, preset): captions.webvtt(beats).encode(),
            paths.beats(scene_id, preset): to_json({"duration": duration, "beats": beats, **checks}),
        }
        # staged together, then renamed together (atomic.commit): a failure
        # before the renames leaves every previous output as it was
        vid = paths.video(scene_id, preset)
        hashes = atomic.commit(outputs, moves={vid: videos[0]})
        out = {paths.rel(p): h for p, h in hashes.items()}
        return out
    finally:
        shutil.rmtree(work, ignore_errors=True)
