"""Parts of a server, drawn the same in every scene: chips (GPU, NIC, CPU, DRAM, NVMe),
switch ASICs, an NVLink rack, and a PCIe packet drawn to scale.

A part is coloured by its role (design/palette.py), so a GPU or a NIC looks
the same from the baseboard scene to the storage scenes.
"""

from __future__ import annotations

import numpy as np
from manim import DOWN, LEFT, RIGHT, UP, Rectangle, RoundedRectangle, Square, Text, VGroup

from design import palette
from models.units import fmt_bytes
from scenes.style import INK, MUTED, PANEL, SMALL_SIZE, label


def chip(name: str, color: str, width: float = 1.0, height: float = 0.7,
         size: int = SMALL_SIZE) -> VGroup:
    """A component package: rounded body in its role colour, with its name."""
    body = RoundedRectangle(corner_radius=0.08, width=width, height=height,
                            stroke_color=color, stroke_width=3,
                            fill_color=PANEL, fill_opacity=1)
    text = Text(name, font_size=size, color=INK).move_to(body)
    if text.width > width * 0.9:
        text.scale_to_fit_width(width * 0.9)
    return VGroup(body, text)


def gpu(name: str = "GPU", color: str = palette.ROLE["gpu"], width: float = 1.0,
        height: float = 0.7) -> VGroup:
    return chip(name, color, width, height)


def nic(name: str = "NIC", width: float = 0.8, height: float = 0.45) -> VGroup:
    return chip(name, palette.ROLE["nic"], width, height)


def cpu(name: str = "CPU", width: float = 1.2, height: float = 0.8) -> VGroup:
    return chip(name, palette.ROLE["cpu"], width, height)


def memory(name: str = "DRAM", width: float = 0.9, height: float = 0.4) -> VGroup:
    return chip(name, palette.ROLE["memory"], width, height)


def nvme(name: str = "NVMe", width: float = 0.8, height: float = 0.4) -> VGroup:
    return chip(name, palette.ROLE["storage"], width, height)


def switch(name: str = "switch", ports: int = 8, color: str = palette.ROLE["switch"],
           width: float = 2.4, height: float = 0.6) -> VGroup:
    """A switch ASIC (NVSwitch, PCIe switch, leaf or spine): a long body with port marks."""
    body = Rectangle(width=width, height=height, stroke_color=color, stroke_width=3,
                     fill_color=PANEL, fill_opacity=1)
    marks = VGroup(*[Square(0.09, stroke_width=0, fill_color=color, fill_opacity=1)
                     for _ in range(ports)]).arrange(RIGHT, buff=width / (ports + 1) - 0.09)
    marks.next_to(body.get_top(), DOWN, buff=0.08)
    text = Text(name, font_size=SMALL_SIZE, color=INK).next_to(marks, DOWN, buff=0.06)
    return VGroup(body, marks, text)


def rack(gpus: int, gpus_per_tray: int, switch_trays: int, top_trays: int,
         width: float = 2.0, row: float = 0.2) -> tuple[VGroup, VGroup, VGroup]:
    """An NVL72-style rack: compute trays of small GPU squares above and below
    a band of NVLink Switch trays. Plain rectangles (no text), so 72 GPUs cost
    72 cheap mobjects. Returns (frame, gpu squares, switch trays).

    Reusable for any rack-scale NVLink domain (NVL36, NVL72, NVL144).
    """
    trays = int(np.ceil(gpus / gpus_per_tray))
    top = min(top_trays, trays)
    rows = ["gpu"] * top + ["switch"] * switch_trays + ["gpu"] * (trays - top)
    squares, switches = VGroup(), VGroup()
    y0 = row * (len(rows) - 1) / 2
    g = 0
    size = min(row * 0.78, width / gpus_per_tray * 0.7)
    for i, kind in enumerate(rows):
        y = y0 - i * row
        if kind == "switch":
            switches.add(Rectangle(width=width, height=row * 0.72, stroke_width=0,
                                   fill_color=palette.role("switch"), fill_opacity=0.9).move_to([0, y, 0]))
            continue
        for k in range(gpus_per_tray):
            if g >= gpus:
                break
            x = -width / 2 + width * (k + 0.5) / gpus_per_tray
            squares.add(Rectangle(width=size * 1.6, height=size, stroke_width=1.5,
                                  stroke_color=palette.role("gpu"), fill_color=PANEL, fill_opacity=1)
                        .move_to([x, y, 0]))
            g += 1
    frame = Rectangle(width=width + 0.3, height=row * len(rows) + 0.2, stroke_color=MUTED,
                      stroke_width=2)
    return frame, squares, switches


def tlp_bar(payload: float, header: float, framing: float, lcrc: float, dllp: float,
            width: float = 7.0, size: int = SMALL_SIZE - 2) -> VGroup:
    """One TLP drawn to scale: framing+seq | header | payload | LCRC, then its share of DLLP bytes.

    Reusable for any packet-overhead picture (fields as (bytes, colour, name)).
    """
    fields = [(framing, MUTED, "STP+seq"), (header, palette.PURPLE, "header"),
              (payload, palette.role("data"), "payload"), (lcrc, MUTED, "LCRC"), (dllp, palette.VERMILLION, "DLLP")]
    total = sum(b for b, _, _ in fields)
    rects, names = VGroup(), VGroup()
    for b, colour, _name in fields:
        r = Rectangle(width=width * b / total, height=0.42, stroke_width=1, stroke_color=INK,
                      fill_color=colour, fill_opacity=0.85)
        rects.add(r)
    rects.arrange(RIGHT, buff=0)
    for b, _, name in fields:
        t = label(f"{name} {fmt_bytes(b)}", size=size, color=INK)
        names.add(t)
    # small fields get their names staggered above and below, the payload inside
    for i, (r, t) in enumerate(zip(rects, names)):
        if fields[i][2] == "payload":
            t.move_to(r)
        elif i < 2:
            t.next_to(r, UP if i == 0 else DOWN, buff=0.1).align_to(r, LEFT)
        else:
            t.next_to(r, DOWN if i == 3 else UP, buff=0.1).align_to(r, RIGHT)
    return VGroup(rects, names)
