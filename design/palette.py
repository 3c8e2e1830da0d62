"""The shared palette: one place for every colour the site draws with.

Okabe & Ito's colour-blind-safe set (Okabe, M. and Ito, K., "Color Universal
Design", 2008) for data; neutral inks for light and dark grounds. Animations
are drawn on the dark ground (they drop onto dark and light slides alike);
figures come in a light and a dark variant.

Pure data: imported by Manim scenes, matplotlib figures and the site CSS
(design/css.py generates its custom properties), so it imports neither library.
Roles are named by what a colour means, never by the scene that first used it.
"""

# data colours (Okabe-Ito)
BLUE = "#0072B2"
SKY = "#56B4E9"
GREEN = "#009E73"
ORANGE = "#E69F00"
VERMILLION = "#D55E00"
PURPLE = "#CC79A7"
YELLOW = "#F0E442"

# roles, so scenes say what a colour means rather than which colour it is
ROLE = {
    # series on a chart or in an animation, in the order a comparison lists them
    "primary": SKY,
    "secondary": ORANGE,
    "tertiary": PURPLE,
    "quaternary": GREEN,
    # what a thing is doing
    "compute": GREEN,
    "data": SKY,  # bytes in flight
    "reduce": ORANGE,  # partial sums being combined
    "save": SKY,  # a checkpoint being written
    "restart": PURPLE,
    "failure": VERMILLION,
    "rework": ORANGE,
    "victim": ORANGE,  # a flow hurt by someone else's congestion
    "highlight": YELLOW,
    "ok": GREEN,
    "bad": VERMILLION,
    # hardware, so a GPU or a NIC is the same colour in every scene
    "gpu": GREEN,
    "switch": PURPLE,
    "nic": SKY,
    "network": SKY,
    "cpu": BLUE,
    "memory": ORANGE,
    "storage": YELLOW,
    "credit": GREEN,
    "pause": VERMILLION,
}

# the default colour cycle of every figure: the series roles in order
SERIES = ("primary", "secondary", "tertiary", "quaternary", "bad")

# grounds and inks
THEMES = {
    "dark": {"bg": "#10141C", "panel": "#1A2030", "ink": "#E8ECF2", "muted": "#9AA4B2", "grid": "#2C3446"},
    "light": {"bg": "#FFFFFF", "panel": "#F2F4F7", "ink": "#1B1F27", "muted": "#5B6472", "grid": "#DDE1E7"},
}
# the animations' ground
VIDEO = THEMES["dark"]

# On a white ground sky blue and yellow fall below 3:1 contrast; swap them
# for their darker Okabe-Ito neighbours so a role keeps its hue family.
_ON_LIGHT = {SKY: BLUE, YELLOW: ORANGE}


def role(name: str, theme: str = "dark") -> str:
    """The colour of a role ('primary', 'failure', …) on the given ground."""
    colour = ROLE[name]
    return _ON_LIGHT.get(colour, colour) if theme == "light" else colour
