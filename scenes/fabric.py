"""Parts of a network, drawn the same in every scene: links, packets, port buffers,
flow-control credits and PAUSE frames, streams of packets, chunked buffers for
collectives, and nodes with one GPU per rail.

Everything moving is driven by one tracker or one alpha function, never by
rebuilding Text per frame (Pango lays out and Cairo rasterises a new Text every frame:
the costliest thing a scene can do).
"""

from __future__ import annotations

import numpy as np
from manim import (
    DOWN,
    RIGHT,
    Arrow,
    Dot,
    Line,
    Rectangle,
    RoundedRectangle,
    Square,
    Text,
    UpdateFromAlphaFunc,
    ValueTracker,
    VGroup,
    linear,
)

from design import palette
from scenes.server_parts import gpu
from scenes.style import BG, MUTED, SMALL_SIZE, label


class PortBuffer(VGroup):
    """An egress queue drawn as a column that fills from the bottom.

    Drive it with `self.level` (a ValueTracker, in the same units as
    `capacity`, e.g. bytes or packets): one updater resizes the fill, so a
    buffer can change every frame for the cost of one rectangle. `mark()`
    draws a threshold (XOFF, XON, ECN K_min) at a level.
    """

    def __init__(self, capacity: float, width: float = 0.5, height: float = 2.0,
                 color: str = palette.SKY, over_color: str = palette.VERMILLION, **kwargs):
        super().__init__(**kwargs)
        self.capacity, self.h = capacity, height
        self.level = ValueTracker(0)
        self.frame = Rectangle(width=width, height=height, stroke_color=MUTED, stroke_width=2)
        self.fill = Rectangle(width=width, height=0.001, stroke_width=0,
                              fill_color=color, fill_opacity=0.9)
        self.add(self.frame, self.fill)

        def follow(m):
            frac = min(max(self.level.get_value() / self.capacity, 0.0), 1.0)
            m.stretch_to_fit_height(max(frac * self.h, 0.001))
            m.set_fill(over_color if frac >= 1.0 else color)
            m.move_to(self.frame.get_bottom(), aligned_edge=DOWN)

        self.fill.add_updater(follow)

    def mark(self, level: float, name: str, color: str = palette.YELLOW, size: float = SMALL_SIZE - 2) -> VGroup:
        y = self.frame.get_bottom()[1] + self.h * level / self.capacity
        x0, x1 = self.frame.get_left()[0] - 0.08, self.frame.get_right()[0] + 0.08
        tick = Line([x0, y, 0], [x1, y, 0], stroke_width=2, color=color)
        text = Text(name, font_size=size, color=color).next_to(tick, RIGHT, buff=0.08)
        group = VGroup(tick, text)
        self.add(group)
        return group


def credit(color: str = palette.ROLE["credit"], radius: float = 0.07) -> Dot:
    """One flow-control credit travelling back to the sender."""
    return Dot(radius=radius, color=color)


def pause_frame(text: str = "PAUSE", size: float = SMALL_SIZE - 2) -> VGroup:
    """A PFC PAUSE frame: a small red tag that travels upstream; its text at the projection floor."""
    word = Text(text, font_size=size, color=BG, weight="BOLD")
    body = RoundedRectangle(corner_radius=0.05, width=word.width + 0.2, height=word.height + 0.14,
                            stroke_width=0, fill_color=palette.ROLE["pause"], fill_opacity=1)
    return VGroup(body, word.move_to(body))


def link(start, end, color: str = MUTED, width: float = 3, arrow: bool = False):
    """A cable or lane between two points (or mobjects' centres)."""
    a = start.get_center() if hasattr(start, "get_center") else start
    b = end.get_center() if hasattr(end, "get_center") else end
    if arrow:
        return Arrow(a, b, buff=0, stroke_width=width, color=color,
                     max_tip_length_to_length_ratio=0.12)
    return Line(a, b, stroke_width=width, color=color)


def packet(color: str = palette.SKY, size: float = 0.16) -> Square:
    """One packet or chunk of data in flight."""
    return Square(size, stroke_width=0, fill_color=color, fill_opacity=1)


def chunk_bar(n: int, colors: list[str], width: float = 1.0, height: float = 0.16) -> VGroup:
    """A buffer cut into n chunks, chunk i coloured colors[i] (for collectives)."""
    w = width / n
    return VGroup(*[
        Rectangle(width=w, height=height, stroke_width=1, stroke_color=BG,
                  fill_color=colors[i], fill_opacity=1)
        for i in range(n)
    ]).arrange(RIGHT, buff=0)


class Stream(VGroup):
    """Packets (or credits) running along a straight segment, driven by one tracker.

    Item i sits at fraction (tau - i*gap) of the way from a to b and is hidden
    outside [0, 1]: one cheap updater per item, no Text rebuilt per frame.
    """

    def __init__(self, a, b, n: int, make, gap: float = 0.35):
        super().__init__()
        self.a, self.b, self.gap = np.asarray(a, float), np.asarray(b, float), gap
        self.tau = ValueTracker(0.0)
        self.stalled_at: float | None = None  # stop items at this fraction (a paused link)
        for i in range(n):
            m = make()
            m.idx = i
            m.add_updater(self._place)
            self.add(m)

    def _place(self, m):
        f = self.tau.get_value() - m.idx * self.gap
        if self.stalled_at is not None:
            f = min(f, self.stalled_at - 0.0)
        visible = 0.0 <= f <= 1.0
        m.move_to(self.a + (self.b - self.a) * min(max(f, 0.0), 1.0))
        m.set_opacity(1.0 if visible else 0.0)

    def run(self, scene, span: float, run_time: float, **kw):
        scene.play(self.tau.animate.increment_value(span), run_time=run_time,
                   rate_func=linear, **kw)


def _polyline_point(points: list[np.ndarray], a: float) -> np.ndarray:
    """The point a fraction a (0..1) along a polyline, by length."""
    seg = [np.linalg.norm(points[i + 1] - points[i]) for i in range(len(points) - 1)]
    total = sum(seg) or 1.0
    d = a * total
    for i, s in enumerate(seg):
        if d <= s or i == len(seg) - 1:
            f = 0.0 if s == 0 else min(d / s, 1.0)
            return points[i] + f * (points[i + 1] - points[i])
        d -= s
    return points[-1]


def fly(mob, points: list[np.ndarray], turn_at: float | None = None, colour: str = palette.role("bad")):
    """Move a packet along a polyline in one animation; optionally recolour it part-way
    (a dropped packet turns vermillion where the buffer refuses it, then falls)."""
    pts = [np.array(p, dtype=float) for p in points]

    def update(m, a):
        m.move_to(_polyline_point(pts, a))
        if turn_at is not None and a >= turn_at:
            m.set_fill(colour, opacity=max(0.0, 1.0 - 1.4 * (a - turn_at)))

    return UpdateFromAlphaFunc(mob, update, rate_func=linear)


def node_box(index: int, rails: int, width: float) -> VGroup:
    """A node: a frame holding one small GPU per rail, GPU r labelled r.

    Returns VGroup(frame, gpus, name); gpus[r] is the GPU on rail r.
    """
    frame = Rectangle(width=width, height=0.62, stroke_color=MUTED, stroke_width=2)
    gw = min(0.22, (width - 0.2) / rails - 0.05)
    gpus = VGroup(*[gpu(str(r), width=gw, height=0.36) for r in range(rails)])
    gpus.arrange(RIGHT, buff=(width - 0.16 - gw * rails) / max(rails - 1, 1)).move_to(frame)
    name = label(f"node {index}", size=SMALL_SIZE - 2, color=MUTED).next_to(frame, DOWN, buff=0.08)
    return VGroup(frame, gpus, name)
