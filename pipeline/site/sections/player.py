"""The animation on a page: a poster with a play button, and its transcript from the beats."""

from __future__ import annotations

import html

from pipeline.workers.captions import timestamp

# the poster's play button: the video's own controls, in place, and playing
PLAY_HANDLER = ("var v=this.parentNode.querySelector('video');v.controls=true;v.play();v.focus();"
                "this.remove();return false")


def player(title: str, video: str, poster: str | None, captions: str | None) -> str:
    """A scene's animation as a poster with a play button, until the reader asks for it.

    `video`, `poster`, `captions`: page-relative links to the MP4, the poster frame and the WebVTT.
    Chromium builds a <video>'s own controls (a shadow tree, its style sheet, four icon
    images) as soon as `controls` is set, and on a phone that was the costliest block of the
    first load, a quarter of a second of blocked main thread in Lighthouse. So the
    attribute comes with the first click: the button's inline handler needs no script file,
    works from the first paint, sets `controls`, plays with the captions track on and hands
    focus to the video. The button is a link to the MP4, so a click that no script handles
    still opens the animation in the browser's player; with JavaScript off the page shows
    the plain <video controls> from <noscript> instead (site.css hides the poster button)."""
    track = f'<track kind="captions" src="{captions}" srclang="en" label="English" default>'
    attrs = (f'playsinline preload="none" width="854" height="480" poster="{poster}" '
             f'aria-label="Animation: {html.escape(title)}"')
    return (f'<div class="w06-player">\n<video {attrs}>\n<source src="{video}" type="video/mp4">\n'
            f'{track}\n</video>\n'
            f'<a class="w06-play" href="{video}" onclick="{PLAY_HANDLER}">'
            f'<svg viewBox="0 0 24 24" aria-hidden="true" focusable="false"><path d="M8 5v14l11-7z"/></svg>'
            f'<span class="w06-play-label">Play the animation</span></a>\n</div>\n'
            f'<noscript><video controls {attrs}>\n<source src="{video}" type="video/mp4">\n'
            f'{track}\n</video></noscript>')


def transcript(beats: dict) -> str:
    """The beats' captions, folded right under the video where a reader looks for them."""
    items = "".join(f"<li><span class=\"w06-time\">{timestamp(x['start'])[3:8]}</span> "
                    f"{html.escape(x['caption'])}</li>" for x in beats["beats"])
    return (f'<details class="w06-transcript" id="transcript"><summary>Transcript '
            f'({len(beats["beats"])} beats)</summary>\n<ol>{items}</ol>\n</details>')
