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
# The projector floor: a capital letter at least 2% of the frame height (9.7 px at
# 480p, 21.6 px at 1080p; a 3 m screen shows it 6 cm tall).
MIN_CAP_HEIGHT = 0.02  # fraction of the frame height
CAP_PER_POINT = 0.01011  # measured: Text("H", font_size=f, font=Inter).height = f × 0.01011 units
MIN_TEXT = 16  # the font size that meets the floor: 16 × 0.01011 / 8 = 2.02%
assert MIN_TEXT * CAP_PER_POINT >= MIN_CAP_HEIGHT * FRAME_HEIGHT

CAPTION_BAND_TOP = -FRAME_HEIGHT / 2 + CAPTION_BAND * FRAME_HEIGHT  # y of the band's top edge
