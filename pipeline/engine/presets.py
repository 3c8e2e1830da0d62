"""Quality presets: the one place that says what 'preview', 'hd' and '4k' mean.

The preset is part of every media path (build/media/<preset>/) and of every
media cache key, so switching presets never serves a stale render.
"""

PRESETS = {
    # tests and fast iteration
    "preview": {"pixel_width": 854, "pixel_height": 480, "frame_rate": 15},
    # the deployed site (make release)
    "hd": {"pixel_width": 1920, "pixel_height": 1080, "frame_rate": 60},
    # presentations
    "4k": {"pixel_width": 3840, "pixel_height": 2160, "frame_rate": 60},
    # the determinism test (tests/test_determinism.py): every scene's whole script, every
    # code path of the render and encode, at the fewest pixels and frames that still draw it
    "probe": {"pixel_width": 256, "pixel_height": 144, "frame_rate": 3},
}
DEFAULT = "preview"


def check(name: str) -> dict:
    if name not in PRESETS:
        raise SystemExit(f"unknown preset {name!r}: choose one of {', '.join(PRESETS)}")
    return PRESETS[name]
