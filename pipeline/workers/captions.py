"""Beats -> WebVTT caption track and page transcript.

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
