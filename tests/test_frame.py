"""`make frame` (python -m pipeline frame): one beat's last frame as a PNG, with Manim skipping
every animation before it, is the frame a full render shows at the end of that beat.

The reference is the same scene rendered frame by frame (`--full`: every animation played at the
preset's frame rate, updaters stepped per frame, as the video is made) and stopped at the same
beat's end. The shortest scene, a middle beat (updaters and transforms have run by then).
"""

from __future__ import annotations

import numpy as np
from PIL import Image
from support import run_build

from pipeline.engine.presets import PRESETS

SCENE = "incast-spraying"
BEAT = 3


def test_frame_of_a_beat_matches_the_full_render(project, tmp_path):
    proc = run_build(project, "frame", SCENE, str(BEAT))
    rel = proc.stdout.strip().splitlines()[-1]
    assert rel == f"build/frames/preview/{SCENE}-beat{BEAT}.png"
    assert f"beat {BEAT}: " in proc.stdout and "animations skipped" in proc.stdout
    assert not (project / "build" / "media").exists(), "a still must not render or encode a video"
    still = Image.open(project / rel)
    assert still.size == (PRESETS["preview"]["pixel_width"], PRESETS["preview"]["pixel_height"])

    ref = tmp_path / "full.png"
    proc = run_build(project, "frame", SCENE, str(BEAT), "--full", "--out", str(ref))
    assert "every frame rendered" in proc.stdout
    a = np.asarray(still.convert("RGB"), dtype=int)
    b = np.asarray(Image.open(ref).convert("RGB"), dtype=int)
    assert a.shape == b.shape
    diff = np.abs(a - b)
    assert diff.max() == 0, f"{(diff.max(axis=2) > 0).mean():.2%} of pixels differ, by up to {diff.max()}"


def test_frame_refuses_a_beat_the_scene_does_not_have(project):
    proc = run_build(project, "frame", SCENE, "0", check=False)
    assert proc.returncode == 2 and "numbered from 1" in proc.stderr
