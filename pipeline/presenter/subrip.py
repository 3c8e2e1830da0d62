"""Beats -> SubRip (.srt), the caption format video editors and slide tools read.

Its own module, not in captions.py: every media task's cache key covers captions.py (the site's
renders import it), so an edit there would re-render every published video.
"""

from __future__ import annotations

from pipeline.workers.captions import timestamp


def srt_timestamp(seconds: float) -> str:
    """SubRip's form: a comma before the milliseconds."""
    return timestamp(seconds).replace(".", ",")


def srt(beats: list[dict]) -> str:
    """The beats as SubRip cues, numbered from 1, one per beat."""
    lines = []
    for i, b in enumerate(beats, 1):
        if b["end"] <= b["start"]:
            raise ValueError(f"beat {i} ends before it starts: {b}")
        lines += [str(i), f"{srt_timestamp(b['start'])} --> {srt_timestamp(b['end'])}", b["caption"], ""]
    return "\n".join(lines)
