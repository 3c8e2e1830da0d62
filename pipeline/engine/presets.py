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
}
DEFAULT = "preview"


def check(name: str) -> dict:
    if name not in PRESETS:
        raise SystemExit(f"unknown preset {name!r}: choose one of {', '.join(PRESETS)}")
    return PRESETS[name]
