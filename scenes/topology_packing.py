"""topology-packing · Topology-aware packing & switch-hop minimization.

A small room of racks (two 8-GPU nodes under one top-of-rack switch each,
a pod spine above). One tensor-parallel group of the job is first sprinkled
across the room, as a random scheduler leaves it: its ring all-reduce hops
climb to the ToR and the spine. A first-fit scheduler of single GPUs leaves
it 1 + 7 over two nodes, its ring through one port (the worst case); a whole
node keeps it on NVLink. The headline: two pods under the oversubscribed
aggregation layer, topology-aware gradient rings leaving a pod a few times,
under what its uplinks carry, and whole nodes' crossing the layer over it; last, the whole job
placed four ways (medians over the seeded backgrounds, as the page's headline). Every number comes from
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
    LaggedStart,
    MoveAlongPath,
    Rectangle,
    RoundedRectangle,
    Square,
    Succession,
    VGroup,
    VMobject,
    Write,
)

from design import palette
from models.units import fmt_count, fmt_percent, fmt_rate, fmt_seconds, si
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
        # the label sits in the gap left of its switch: ring hops climb through the switch at the GPUs' x
        tor_t = label("ToR", SMALL_SIZE - 2, MUTED).next_to(tor, LEFT, buff=0.06)
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


AGG_Y, POD_SPINE_Y, POD_NODE_Y = 2.3, 0.95, -0.35  # the two-pod view of the headline beat
POD_X, UPLINK_DX = 3.2, 1.0  # pod centres; each pod's uplink leaves its spine this far towards the middle
UNDER_SPINE, UNDER_AGG = POD_SPINE_Y - 0.3, AGG_Y - 0.34  # traffic runs just under the boxes, clear of labels
PACKET = 0.16


def _route(points) -> VMobject:
    line = VMobject()
    line.set_points_as_corners([np.array([x, y, 0.0]) for x, y in points])
    return line


def _pods(o: float, pod_gpus: int):
    """Two pods of nodes under their spines, and above them the aggregation layer they share: each pod's
    uplink drawn one lane to the seven lanes below its spine (o:1)."""
    agg = RoundedRectangle(corner_radius=0.08, width=2 * POD_X + 3.2, height=0.44, stroke_color=BAD,
                           fill_color=BAD, fill_opacity=0.18).move_to([0, AGG_Y, 0])
    agg_t = label(f"aggregation layer between pods · {o:g}:1 oversubscribed", SMALL_SIZE, INK).move_to(agg)
    parts, nodes = [agg, agg_t], {}
    for side, x in (("left", -POD_X), ("right", POD_X)):
        spine = RoundedRectangle(corner_radius=0.06, width=3.0, height=0.36, stroke_color=SWITCH_C,
                                 fill_color=SWITCH_C, fill_opacity=0.25).move_to([x, POD_SPINE_Y, 0])
        spine_t = label("pod spine", SMALL_SIZE - 2, MUTED).move_to(spine).shift(0.5 * (LEFT if x < 0 else RIGHT))
        xs = x + np.linspace(-1.2, 1.2, 4)
        boxes = [Rectangle(width=0.6, height=0.42, stroke_color=MUTED, stroke_width=1.5,
                           fill_color=GPU_C, fill_opacity=0.3).move_to([nx, POD_NODE_Y, 0]) for nx in xs]
        down = [_route([(nx, POD_NODE_Y + 0.21), (nx, POD_SPINE_Y - 0.18)]).set_stroke(MUTED, 1.5) for nx in xs]
        ux = x + (UPLINK_DX if x < 0 else -UPLINK_DX)
        up = _route([(ux, POD_SPINE_Y + 0.18), (ux, AGG_Y - 0.22)]).set_stroke(BAD, 3)
        up_t = label(f"uplink: 1/{o:g} of the pod's bandwidth", SMALL_SIZE - 2, BAD)
        up_t.next_to(up, LEFT if x < 0 else RIGHT, buff=0.12)
        pod_t = label(f"pod: {fmt_count(pod_gpus)} GPUs", SMALL_SIZE - 2, MUTED).next_to(boxes[0], DOWN, buff=0.15)
        pod_t.align_to(boxes[0], LEFT)
        parts += [spine, spine_t, *boxes, *down, up, up_t, pod_t]
        nodes[side] = xs
    return VGroup(*parts), nodes


def _packets(route: VMobject, n: int, color: str, run_time: float) -> LaggedStart:
    """n packets following `route` one after another, each gone as it arrives."""
    blocks = [Square(PACKET, stroke_width=0, fill_color=color, fill_opacity=1).move_to(route.get_start())
              for _ in range(n)]
    return LaggedStart(*[Succession(MoveAlongPath(b, route, run_time=run_time), FadeOut(b, run_time=0.01))
                         for b in blocks], lag_ratio=0.35)


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
        self.across_pods()
        self.four_placements()

    def room_and_group(self) -> None:
        """The room of racks, and one tensor group's ranks in a row below it."""
        m, a, tp = self.data["summary"], self.data["animation"], self.tp
        row = VGroup(*[Square(SLOT * 0.8, stroke_width=0, fill_color=RANK_C, fill_opacity=1) for _ in range(tp)])
        row.arrange(RIGHT, buff=0.12)
        row_t = label(f"one tensor group: {tp} ranks · {fmt_count(m['count_tensor'])} all-reduces of "
                      f"{si(m['msg_tensor'], 'B')} a step", BODY_SIZE, INK)
        group = VGroup(row, row_t).arrange(RIGHT, buff=0.4).move_to([0, ROW_Y, 0])
        key = label(f"{a['node_gpus']} GPUs per node, one NVLink domain · {self.rack_gpus} GPUs per rack under "
                    "one ToR switch", SMALL_SIZE, MUTED).move_to([0, KEY_Y, 0])
        with self.beat(f"A tensor-parallel group: {tp} ranks that all-reduce "
                       f"{fmt_count(m['count_tensor'])} times a step, {si(m['msg_tensor'], 'B')} each."):
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

    def across_pods(self) -> None:
        """The headline: whole nodes keep tensor groups on NVLink, but their gradient and pipeline traffic
        crosses the oversubscribed layer between pods, where topology-aware keeps it inside a pod."""
        m, p = self.data["summary"], self.data["params"]
        o = float(p["oversubscription"])
        pods, nodes = _pods(o, int(p["pod_gpus"]))
        left = nodes["left"]
        inside = _route([(left[0], POD_NODE_Y), (left[0], UNDER_SPINE), (left[3], UNDER_SPINE),
                         (left[3], POD_NODE_Y)])
        ux = POD_X - UPLINK_DX
        # whole nodes' ring passes between the pods again and again: four crossings, one lane each, through
        # the same uplinks (alternate directions: a ring comes back)
        hops = [(0, 0), (1, 0), (1, 3), (3, 3)]  # (left node, right node) of each crossing
        across = []
        for k, (li, ri) in enumerate(hops):
            d, nx = 0.07 * (k + 1), 0.06 * (k - 1.5)  # clear of the in-pod ring on UNDER_SPINE
            pts = [(left[li] + nx, POD_NODE_Y), (left[li] + nx, UNDER_SPINE - d), (-ux + d, UNDER_SPINE - d),
                   (-ux + d, UNDER_AGG - d), (ux - d, UNDER_AGG - d), (ux - d, UNDER_SPINE - d),
                   (nodes["right"][ri] + nx, UNDER_SPINE - d), (nodes["right"][ri] + nx, POD_NODE_Y)]
            across.append(_route(pts if k % 2 == 0 else pts[::-1]))
        # topology-aware's rings leave a pod too, a few times each: one lane of its own, one packet, no queue
        lane = 0.34
        leaves = _route([(left[2], POD_NODE_Y), (left[2], UNDER_SPINE - lane), (-ux + lane, UNDER_SPINE - lane),
                         (-ux + lane, UNDER_AGG - lane), (ux - lane, UNDER_AGG - lane), (ux - lane, UNDER_SPINE - lane),
                         (nodes["right"][1], UNDER_SPINE - lane), (nodes["right"][1], POD_NODE_Y)])
        n = m["sweep_wn_draws"]
        ta = label(f"topology-aware: gradient rings leave each pod a few times, under the uplink capacity · "
                   f"step {fmt_seconds(m['topology_aware_step'])}", SMALL_SIZE, OK)
        wn = label(f"whole nodes, blind: they cross the {o:g}:1 layer, over its capacity · "
                   f"median step {fmt_seconds(m['sweep_wn_step_median'])} of {n} backgrounds", SMALL_SIZE,
                   palette.role("reduce"))
        counters = VGroup(ta, wn).arrange(DOWN, buff=0.22, aligned_edge=LEFT).move_to([0, COUNTER_Y + 0.1, 0])
        with self.beat(f"Whole nodes, topology-blind: gradient rings cross the {o:g}:1 layer between pods, more "
                       f"than its uplinks carry. Median step {fmt_seconds(m['sweep_wn_step_median'])}, "
                       f"not {fmt_seconds(m['topology_aware_step'])}."):
            self.play(FadeOut(self.packed_parts), run_time=0.6)
            self.play(FadeIn(pods), run_time=1.0)
            trace_in = VGroup(inside.copy(), leaves.copy()).set_stroke(OK, 2.5)
            trace_x = VGroup(*[r.copy() for r in across]).set_stroke(palette.role("reduce"), 2.5)
            self.play(Create(trace_in), _packets(inside, 4, OK, 1.0), _packets(leaves, 1, OK, 1.4), FadeIn(ta),
                      run_time=1.6)
            # through the one uplink lane the packets queue: the same bytes, slower
            self.play(Create(trace_x), *[_packets(r, 2, palette.role("reduce"), 2.2) for r in across], FadeIn(wn),
                      run_time=3.2)
            self.wait(0.8)
        self.pod_parts = VGroup(pods, counters, trace_in, trace_x)

    def four_placements(self) -> None:
        """The whole job placed four ways: step time and bytes off NVLink; whole nodes is the headline."""
        m = self.data["summary"]
        # the realistic cases as medians over the backgrounds (the page's headline); random, a bound, on one
        n = m["sweep_wn_draws"]
        rows = [("topology-aware", "topology_aware_step", "topology_aware_throughput"),
                ("whole nodes, blind", "sweep_wn_step_median", "sweep_wn_throughput_median"),
                ("first-fit GPUs (worst)", "sweep_ff_step_median", "sweep_ff_throughput_median"),
                ("random GPUs (bound)", "random_step", "random_throughput")]
        table = VGroup(*[
            VGroup(label(name, BODY_SIZE, INK),
                   label(f"step {fmt_seconds(m[k])}", BODY_SIZE, INK),
                   label(f"{fmt_percent(m[tk])} throughput", BODY_SIZE, MUTED))
            for name, k, tk in rows])
        for row in table:
            row[0].set_x(-4.2)
            row[1].set_x(-0.4)
            row[2].next_to(row[1], RIGHT, buff=0.6)
        table.arrange(DOWN, buff=0.3, aligned_edge=LEFT)
        for row in table:
            row[1].align_to(table[0][1], LEFT)
            row[2].align_to(table[0][2], LEFT)
        table.move_to([0, 0.4, 0])
        note = label(f"whole nodes and first-fit: medians over {n} backgrounds · random: one background",
                     SMALL_SIZE, MUTED).next_to(table, UP, buff=0.35)
        with self.beat(f"Four placements, medians over {n} backgrounds. Worst case, first-fit single GPUs: "
                       f"{fmt_seconds(m['sweep_ff_step_median'])}."):
            # the realistic cases as bars on one scale; random's bar would dwarf them, its row says why
            colour = {"topology_aware_step": OK, "sweep_wn_step_median": palette.role("reduce")}
            shown = rows[:3]
            steps = value_bars([(name.split(" (")[0], m[k], fmt_seconds(m[k]), colour.get(k, BAD))
                                for name, k, _ in shown], top=max(m[k] for _, k, _ in shown), width=5.0,
                               size=SMALL_SIZE, height=0.22, buff=0.1)
            steps.next_to(table, DOWN, buff=0.45).set_x(0)
            self.play(FadeOut(self.pod_parts), run_time=0.8)
            self.play(FadeIn(table, shift=0.2 * UP), FadeIn(note), run_time=1.2)
            self.play(*grow_value_bars(steps), run_time=1.4)
            self.wait(1.6)
