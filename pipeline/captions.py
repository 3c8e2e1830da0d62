"""Beats -> WebVTT and SubRip caption tracks and the page transcript.

A beat is {"start": s, "end": s, "caption": text}, recorded by
ExhibitScene.beat() while the scene renders.
"""

from __future__ import annotations


def timestamp(seconds: float) -> str:
    ms = round(seconds * 1000)
    h, rem = divmod(ms, 3_600_000)
    m, rem = divmod(rem, 60_000)
    s, ms = divmod(rem, 1000)
    return f"{h:02d}:{m:02d}:{s:02d}.{ms:03d}"


def webvtt(beats: list[dict]) -> str:
    lines = ["WEBVTT", ""]
    for i, b in enumerate(beats, 1):
        if b["end"] <= b["start"]:
            raise ValueError(f"beat {i} ends before it starts: {b}")
        text = b["caption"].replace("-->", "→")
        lines += [str(i), f"{timestamp(b['start'])} --> {timestamp(b['end'])}", text, ""]
    return "\n".join(lines)


def srt_timestamp(seconds: float) -> str:
    """SubRip's form: a comma before the milliseconds."""
    return timestamp(seconds).replace(".", ",")


def srt(beats: list[dict]) -> str:
    """The same beats as SubRip (.srt): for video editors and slide tools that do not read WebVTT."""
    lines = []
    for i, b in enumerate(beats, 1):
        if b["end"] <= b["start"]:
            raise ValueError(f"beat {i} ends before it starts: {b}")
        lines += [str(i), f"{srt_timestamp(b['start'])} --> {srt_timestamp(b['end'])}", b["caption"], ""]
    return "\n".join(lines)
