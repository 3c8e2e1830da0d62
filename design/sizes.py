"""Sizes shared by every animation: the frame's bands and the text scale.

Sizes are Pango font sizes in Manim's units on the 16:9 frame (14.22 × 8
units); the limits are fractions of the frame height, so they hold at every
resolution. ExhibitScene checks them at the end of every beat.
"""

from __future__ import annotations

FRAME_HEIGHT = 8.0  # Manim units
FRAME_WIDTH = FRAME_HEIGHT * 16 / 9

# the caption track sits over the bottom of the video: nothing is drawn there
CAPTION_BAND = 0.16  # fraction of the frame height kept clear at the bottom
# text must stay this far inside the left, right and top edges
SAFE_MARGIN = 0.02  # fraction of the frame height

# the text scale: one font, four sizes
TITLE = 34
BODY = 24
SMALL = 18
MIN_TEXT = 16  # nothing smaller: at 480p a 16-pt label is ~11 px tall, the projector floor
# measured: the cap height of a Pango Text at font_size f is ≈ f × 0.0087 Manim units
MIN_TEXT_HEIGHT = 0.0132  # fraction of frame height: the smallest capital letter allowed

CAPTION_BAND_TOP = -FRAME_HEIGHT / 2 + CAPTION_BAND * FRAME_HEIGHT  # y of the band's top edge
