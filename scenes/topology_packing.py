"""topology-packing · Topology-aware packing & switch-hop minimization.

A small room of racks (two 8-GPU nodes under one top-of-rack switch each,
a pod spine above). One tensor-parallel group of the job is first sprinkled
across the room, as a random scheduler leaves it: its ring all-reduce hops
climb to the ToR and the spine. A first-fit scheduler of single GPUs leaves
it 1 + 7 over two nodes, its ring through one port (the worst case); a whole
node keeps it on NVLink. Last, the whole job placed four ways, whole nodes
topology-blind against topology-aware the headline. Every number comes from
self.data (models.topology_packing.topology_packing); the sprinkled slots are the
model's seeded draw.
"""

from __future__ import annotations

import numpy as np
from manim import (
    DOWN,
    LEFT,
    RIGHT,
    UP,
    Create,
    FadeIn,
    FadeOut,
    Rectangle,
    RoundedRectangle,
    Square,
    VGroup,
    VMobject,
    Write,
)

from design import palette
from models.units import fmt_bytes, fmt_count, fmt_percent, fmt_rate, fmt_seconds
from scenes.style import (
    BODY_SIZE,
    INK,
    MUTED,
    SMALL_SIZE,
    ExhibitScene,
    grow_value_bars,
    label,
    title,
    value_bars,
)

GPU_C = palette.role("gpu")
RANK_C = palette.role("highlight")
BAD = palette.role("bad")
OK = palette.role("ok")
SWITCH_C = palette.role("switch")

SLOT, GAP = 0.26, 0.07  # one GPU square and the gap between squares
NODE_W, NODE_H = 4 * SLOT + 3 * GAP + 0.2, 2 * SLOT + GAP + 0.2
RACK_DX = 2.2
TOR_Y, NODE0_Y, NODE1_Y = 0.95, 0.05, -0.85
SPINE_Y = 2.25
COUNTER_Y = -2.05
ROW_Y, KEY_Y = -1.8, -2.4  # the group's row and the room's key, first beat


def _room(racks: int, node_gpus: int, rack_gpus: int):
    """Racks of nodes under ToR switches, a spine above; returns the group and slot centres."""
    x0 = -(racks - 1) * RACK_DX / 2
    spine = RoundedRectangle(corner_radius=0.08, width=(racks - 1) * RACK_DX + NODE_W, height=0.42,
                             stroke_color=SWITCH_C, fill_color=SWITCH_C, fill_opacity=0.25).move_to([0, SPINE_Y, 0])
    spine_t = label("pod spine", SMALL_SIZE, MUTED).move_to(spine)
    parts, slots, tors = [spine, spine_t], [], []
    nodes_per_rack = rack_gpus // node_gpus
    for r in range(racks):
        x = x0 + r * RACK_DX
        tor = RoundedRectangle(corner_radius=0.06, width=NODE_W, height=0.36, stroke_color=SWITCH_C,
                               fill_color=SWITCH_C, fill_opacity=0.25).move_to([x, TOR_Y, 0])
        tor_t = label("ToR", SMALL_SIZE - 2, MUTED).move_to(tor)
        tors.append(tor)
        parts += [tor, tor_t]
        for n in range(nodes_per_rack):
            y = NODE0_Y if n == 0 else NODE1_Y
            box = Rectangle(width=NODE_W, height=NODE_H, stroke_color=MUTED, stroke_width=1.5).move_to([x, y, 0])
            parts.append(box)
            for g in range(node_gpus):
                row, col = divmod(g, 4)
                c = np.array([x - 1.5 * (SLOT + GAP) + col * (SLOT + GAP), y + (0.5 - row) * (SLOT + GAP), 0])
                sq = Square(SLOT, stroke_width=0, fill_color=GPU_C, fill_opacity=0.35).move_to(c)
                parts.append(sq)
                slots.append(c)
    return VGroup(*parts), np.array(slots), tors, spine


def _path(a: int, b: int, level: int, slots, tors, rack_gpus: int) -> VMobject:
    """The route of one ring hop: inside the node, via the ToR, or via the spine."""
    pa, pb = slots[a], slots[b]
    ta, tb = tors[a // rack_gpus].get_bottom(), tors[b // rack_gpus].get_bottom()
    if level == 0:
        pts = [pa, pb]
    elif level == 1:
        pts = [pa, [pa[0], ta[1], 0], [pb[0], tb[1], 0], pb]
    else:
        top = SPINE_Y - 0.21
        pts = [pa, [pa[0], top, 0], [pb[0], top, 0], pb]
    line = VMobject(stroke_color=BAD if level else OK, stroke_width=3.5)
    line.set_points_as_corners([np.array(p, dtype=float) for p in pts])
    return line


def _ring_lines(ranks, levels, slots, tors, rack_gpus):
    return VGroup(*[_path(int(a), int(b), int(lv), slots, tors, rack_gpus)
                    for a, b, lv in zip(ranks, np.roll(ranks, -1), levels, strict=True)])


class TopologyPacking(ExhibitScene):
    scene_id = "topology-packing"

    def construct(self) -> None:
        a = self.data["animation"]
        self.rack_gpus = a["rack_gpus"]
        self.room, self.slots, self.tors, _ = _room(a["racks"], a["node_gpus"], a["rack_gpus"])
        self.tp = len(a["packed"])
        self.room_and_group()
        self.sprinkled()
        self.first_fit()
        self.packed()
        self.four_placements()

    def room_and_group(self) -> None:
        """The room of racks, and one tensor group's ranks in a row below it."""
        m, a, tp = self.data["summary"], self.data["animation"], self.tp
        row = VGroup(*[Square(SLOT * 0.8, stroke_width=0, fill_color=RANK_C, fill_opacity=1) for _ in range(tp)])
        row.arrange(RIGHT, buff=0.12)
        row_t = label(f"one tensor group: {tp} ranks · {fmt_count(m['count_tensor'])} all-reduces of "
                      f"{fmt_bytes(m['msg_tensor'])} a step", BODY_SIZE, INK)
        group = VGroup(row, row_t).arrange(RIGHT, buff=0.4).move_to([0, ROW_Y, 0])
        key = label(f"{a['node_gpus']} GPUs per node, one NVLink domain · {self.rack_gpus} GPUs per rack under "
                    "one ToR switch", SMALL_SIZE, MUTED).move_to([0, KEY_Y, 0])
        with self.beat(f"A tensor-parallel group: {tp} ranks that all-reduce "
                       f"{fmt_count(m['count_tensor'])} times a step, {fmt_bytes(m['msg_tensor'])} each."):
            head = title("Where should a job's ranks go?")
            self.play(Write(head), run_time=1.0)
            self.play(FadeIn(self.room), FadeIn(key), run_time=1.2)
            self.play(FadeIn(group, shift=0.2 * UP), run_time=0.8)
            self.wait(1.4)
        self.dots, self.row_label, self.room_key = row, row_t, key

    def sprinkled(self) -> None:
        """The ranks sprinkled over the room as the model drew them; the ring's hops climb."""
        m, a, tp, slots = self.data["summary"], self.data["animation"], self.tp, self.slots
        lines = _ring_lines(a["sprinkled"], a["sprinkled_levels"], slots, self.tors, self.rack_gpus)
        off = sum(1 for lv in a["sprinkled_levels"] if lv > 0)
        c_left = label(f"ring hops off NVLink: {off} of {tp}", BODY_SIZE, INK)
        c_right = label(f"one all-reduce: {fmt_seconds(a['tp_time_split'])}", BODY_SIZE, BAD)
        counters = VGroup(c_left, c_right).arrange(RIGHT, buff=1.0).move_to([0, COUNTER_Y, 0])
        with self.beat(f"Sprinkled across the room, the ring climbs to the ToR and the spine: each hop off the "
                       f"node runs at the port's {fmt_rate(m['port_rate'])}."):
            self.play(FadeOut(self.room_key), FadeOut(self.row_label),
                      *[d.animate.move_to(slots[g]) for d, g in zip(self.dots, a["sprinkled"], strict=True)],
                      run_time=1.4)
            self.play(Create(lines), run_time=2.0)
            self.play(FadeIn(counters), run_time=0.8)
            self.wait(2.0)
        self.sprinkled_lines, self.sprinkled_counters = lines, counters

    def first_fit(self) -> None:
        """First-fit single GPUs: the group starts on the last free GPU of one node, 1 + 7; one port."""
        a, tp, slots = self.data["animation"], self.tp, self.slots
        ff = a["first_fit"]
        lines = _ring_lines(ff, a["first_fit_levels"], slots, self.tors, self.rack_gpus)
        off = sum(1 for lv in a["first_fit_levels"] if lv > 0)
        c_left = label(f"ring hops off NVLink: {off} of {tp} · one port", BODY_SIZE, INK)
        c_right = label(f"one all-reduce: {fmt_seconds(a['tp_time_first_fit'])}", BODY_SIZE, BAD)
        m = self.data["summary"]
        c_step = label(f"worst case: every step waits for it, {fmt_seconds(m['first_fit_step'])} instead of "
                       f"{fmt_seconds(m['measured_step'])}", BODY_SIZE, BAD)
        counters = VGroup(VGroup(c_left, c_right).arrange(RIGHT, buff=1.0), c_step).arrange(DOWN, buff=0.2)
        counters.move_to([0, COUNTER_Y - 0.15, 0])
        with self.beat(f"First-fit single GPUs: one rank alone in a node, its ring through one port. "
                       f"Every step waits: {fmt_seconds(m['first_fit_step'])}."):
            self.play(FadeOut(self.sprinkled_lines), FadeOut(self.sprinkled_counters), run_time=0.6)
            self.play(*[d.animate.move_to(slots[g]) for d, g in zip(self.dots, ff, strict=True)], run_time=1.4)
            self.play(Create(lines), FadeIn(counters), run_time=1.2)
            self.wait(3.0)
        self.ff_lines, self.ff_counters = lines, counters

    def packed(self) -> None:
        """The same ranks packed into one node: the ring stays on NVLink."""
        a, tp, slots = self.data["animation"], self.tp, self.slots
        packed = a["packed"]
        new_lines = _ring_lines(packed, [0] * tp, slots, self.tors, self.rack_gpus)
        domain = Rectangle(width=NODE_W + 0.12, height=NODE_H + 0.12, stroke_color=OK,
                           stroke_width=4).move_to(np.mean(slots[packed], axis=0))
        c2_left = label(f"ring hops off NVLink: 0 of {tp}", BODY_SIZE, INK)
        c2_right = label(f"one all-reduce: {fmt_seconds(a['tp_time_node'])}, "
                         f"{a['ff_ratio']:.1f}× faster", BODY_SIZE, OK)
        counters2 = VGroup(c2_left, c2_right).arrange(RIGHT, buff=1.0).move_to([0, COUNTER_Y, 0])
        with self.beat(f"A whole node, one NVLink domain: {fmt_seconds(a['tp_time_node'])} per all-reduce, "
                       f"{a['ff_ratio']:.1f}× faster."):
            self.play(FadeOut(self.ff_counters), FadeOut(self.ff_lines), run_time=0.6)
            self.play(*[d.animate.move_to(slots[g]) for d, g in zip(self.dots, packed, strict=True)], run_time=1.6)
            self.play(Create(domain), Create(new_lines), FadeIn(counters2), run_time=1.0)
            self.wait(2.0)
        self.packed_parts = VGroup(self.room, self.dots, new_lines, domain, counters2)

    def four_placements(self) -> None:
        """The whole job placed four ways: step time and bytes off NVLink; whole nodes is the headline."""
        m = self.data["summary"]
        rows = [("topology-aware", "topology_aware"), ("whole nodes, blind", "whole_node"),
                ("first-fit GPUs (worst)", "first_fit"), ("random GPUs (bound)", "random")]
        table = VGroup(*[
            VGroup(label(name, BODY_SIZE, INK),
                   label(f"step {fmt_seconds(m[f'{k}_step'])}", BODY_SIZE, INK),
                   label(f"{fmt_percent(m[f'{k}_throughput'])} throughput", BODY_SIZE, MUTED))
            for name, k in rows])
        for row in table:
            row[0].set_x(-4.2)
            row[1].set_x(-0.4)
            row[2].next_to(row[1], RIGHT, buff=0.6)
        table.arrange(DOWN, buff=0.3, aligned_edge=LEFT)
        for row in table:
            row[1].align_to(table[0][1], LEFT)
            row[2].align_to(table[0][2], LEFT)
        table.move_to([0, 0.4, 0])
        with self.beat(f"Whole nodes, topology-blind: {fmt_seconds(m['whole_node_step'])}. "
                       f"Topology-aware: {fmt_seconds(m['topology_aware_step'])}."):
            # the realistic cases as bars on one scale; random's bar would dwarf them, its row says why
            colour = {"topology_aware": OK, "whole_node": palette.role("reduce")}
            shown = rows[:3]
            steps = value_bars([(name, m[f"{k}_step"], fmt_seconds(m[f"{k}_step"]), colour.get(k, BAD))
                                for name, k in shown], top=max(m[f"{k}_step"] for _, k in shown), width=5.0,
                               size=SMALL_SIZE, height=0.22, buff=0.1)
            steps.next_to(table, DOWN, buff=0.45).set_x(0)
            self.play(FadeOut(self.packed_parts), run_time=0.8)
            self.play(FadeIn(table, shift=0.2 * UP), run_time=1.2)
            self.play(*grow_value_bars(steps), run_time=1.4)
            self.wait(1.6)
