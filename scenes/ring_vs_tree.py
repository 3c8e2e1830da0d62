"""Scene ring-vs-tree · Ring vs tree all-reduce.

Eight GPUs on a ring all-reduce a buffer chunk by chunk: reduce-scatter, then
all-gather, every step drawn from the model's schedule (which chunk each rank
sends, how many ranks' inputs each chunk holds). Then the same GPUs become a
NCCL's double binary tree for a small message: two complementary trees over
the same GPUs, each carrying half the data (a GPU interior in one is a leaf in
the other). The crossover size closes the scene.
Every number comes from self.data (models.ring_vs_tree.ring_vs_tree).
"""

from __future__ import annotations

import math

import numpy as np
from manim import (
    DEGREES,
    DOWN,
    LEFT,
    RIGHT,
    UP,
    Circle,
    Create,
    Dot,
    FadeIn,
    FadeOut,
    Line,
    Rotating,
    Triangle,
    ValueTracker,
    VGroup,
    VMobject,
    Write,
    linear,
)

from design import palette
from models.units import fmt_bytes, fmt_count, fmt_rate, fmt_seconds
from scenes.fabric import (
    chunk_bar,
    packet,
)
from scenes.server_parts import (
    gpu,
)
from scenes.style import (
    INK,
    MUTED,
    SMALL_SIZE,
    ExhibitScene,
    counter,
    label,
    legend,
    markup,
    title,
)

RING = palette.role("primary")
TREE = palette.role("secondary")
TREE_B = palette.role("tertiary")
DONE = palette.role("highlight")

RING_CENTER = np.array([-3.1, 0.0, 0.0])
RING_RADIUS = 2.0
PANEL_X = 1.35  # left edge of the right-hand text panel
BODY_SMALL = SMALL_SIZE + 2


def _time_unit(t: float) -> tuple[float, str]:
    """Divisor and unit so a clock that ends at t seconds reads naturally."""
    for div, unit in ((1.0, "s"), (1e-3, "ms"), (1e-6, "µs")):
        if t >= div:
            return div, unit
    return 1e-9, "ns"


def _unit_for(x: float) -> tuple[float, str]:
    """Divisor and unit so the counter's final value reads naturally."""
    for div, unit in ((1e12, "TB"), (1e9, "GB"), (1e6, "MB"), (1e3, "kB")):  # SI: k, as the page writes it
        if x >= div:
            return div, unit
    return 1.0, "B"


def _settled(c: VGroup, text: str, color: str) -> VGroup:
    """A counter's number and unit as the page writes them ("1.00 GB", "43.0 ms"). A DecimalNumber keeps one
    unit and fixed decimals while it counts, so where the count stops for good (the poster frame) the
    formatted text takes its place, placed as the counter places its number."""
    value, unit = text.rsplit(" ", 1)
    out = VGroup(label(value, color=color), label(unit, color=MUTED)).arrange(RIGHT, buff=0.12)
    return out.next_to(c[0], RIGHT, buff=0.15)


class RingVsTreeAllReduce(ExhibitScene):
    scene_id = "ring-vs-tree"

    # --- helpers ------------------------------------------------------------------
    def chunk_look(self, count: int) -> tuple[str, float]:
        """Colour and opacity of a chunk holding the sum of `count` ranks' inputs."""
        p = self.p
        if count >= p:
            return DONE, 1.0
        return RING, 0.18 + 0.72 * (count - 1) / max(p - 2, 1)

    def paint(self, state: list[list[int]]) -> None:
        for r, bar in enumerate(self.bars):
            for c, rect in enumerate(bar):
                colour, opacity = self.chunk_look(state[r][c])
                rect.set_fill(colour, opacity=opacity)

    def ring_pass(self, sends: list[int], state_after, step_no: int, run_time: float) -> None:
        """One ring step: every rank sends its chunk to the next, all in one play."""
        p = self.p
        movers, moves = [], []
        for r in range(p):
            c = sends[r]
            src = self.bars[r][c]
            dst = self.bars[(r + 1) % p][c]
            colour, opacity = self.chunk_look(self.state[r][c])
            m = packet(colour, size=0.2).move_to(src).set_fill(opacity=max(opacity, 0.45))
            movers.append(m)
            moves.append(m.animate(path_arc=-60 * DEGREES).move_to(dst))
        self.add(*movers)
        self.play(*moves, run_time=run_time)
        self.remove(*movers)
        # counters tick once per step (a step is the unit here; no per-frame re-layout)
        self.step_counter[1].set_value(step_no)
        self.bytes_counter[1].set_value(self.cum[step_no] / self.bytes_div)
        self.clock[1].set_value(self.clock_at[step_no] / self.time_div)
        self.state = state_after
        self.paint(self.state)
        self.wait(0.15)

    def settle_counters(self, step_no: int) -> None:
        """Where a half ends, the bytes and time counters read as the page writes them (875 MB, not
        0.88 GB): the formatted text takes the counting numbers' place until the next half counts on."""
        finals = ((self.bytes_counter, fmt_bytes(self.cum[step_no])), (self.clock, fmt_seconds(self.clock_at[step_no])))
        self.settled = VGroup(*[_settled(c, text, INK) for c, text in finals])
        self.play(*[FadeOut(VGroup(*c[1:])) for c, _ in finals], FadeIn(self.settled), run_time=0.3)

    def unsettle_counters(self) -> list:
        """The animations that hand the counters back to their counting numbers."""
        return [FadeOut(self.settled), FadeIn(VGroup(*self.bytes_counter[1:])), FadeIn(VGroup(*self.clock[1:]))]

    # --- the script: one method per beat --------------------------------------------
    def construct(self) -> None:
        s, an = self.data["summary"], self.data["animation"]
        self.p = int(s["ranks"])
        self.cum = an["cumulative_bytes_per_rank"]
        self.bytes_div, self.bytes_unit = _unit_for(self.cum[-1])
        self.clock_at = an["cumulative_time"]
        self.time_div, self.time_unit = _time_unit(self.clock_at[-1])
        self.ring_of_gpus()
        self.reduce_scatter()
        self.all_gather()
        self.ring_cost()
        self.double_binary_tree()
        self.crossover()

    def ring_of_gpus(self) -> None:
        """Eight GPUs on a ring, each with its buffer cut into p chunks, and the counters' panel."""
        s, an, p = self.data["summary"], self.data["animation"], self.p
        n_anim = an["message"]
        with self.beat(f"{p} GPUs in a ring, each holding a {fmt_bytes(n_anim)} buffer "
                       f"cut into {p} chunks of {fmt_bytes(an['bytes_per_step_per_rank'])}"):
            self.heading = title("Ring vs tree all-reduce")
            self.play(FadeIn(self.heading), run_time=0.6)

            angles = [math.pi / 2 - 2 * math.pi * r / p for r in range(p)]
            ring_pos = [RING_CENTER + RING_RADIUS * np.array([math.cos(t), math.sin(t), 0])
                        for t in angles]
            self.track = Circle(radius=RING_RADIUS, stroke_color=MUTED, stroke_width=2).move_to(RING_CENTER)
            self.tips = VGroup()
            for r in range(p):
                mid = angles[r] - math.pi / p
                tip = Triangle(stroke_width=0, fill_color=MUTED, fill_opacity=1).scale(0.09)
                tip.rotate(mid - math.pi)  # Triangle points up; clockwise tangent is mid - 90°
                tip.move_to(RING_CENTER + RING_RADIUS * np.array([math.cos(mid), math.sin(mid), 0]))
                self.tips.add(tip)
            self.gpus = VGroup(*[gpu(f"GPU {r}", color=MUTED, width=0.95, height=0.5).move_to(ring_pos[r])
                                 for r in range(p)])
            self.bars = VGroup(*[chunk_bar(p, [RING] * p, width=1.15, height=0.2)
                                 .next_to(self.gpus[r], DOWN, buff=0.05) for r in range(p)])
            self.state = an["contributions"][0]
            self.paint(self.state)

            self.play(FadeIn(self.track), FadeIn(self.tips), FadeIn(self.gpus), FadeIn(self.bars), run_time=1.0)

            # the right-hand panel: phase, counters, what one step costs
            self.phase_rs = label("reduce-scatter", size=26, color=RING)
            self.phase_ag = label("all-gather", size=26, color=DONE)
            for ph in (self.phase_rs, self.phase_ag):
                ph.move_to([PANEL_X, 2.45, 0], aligned_edge=LEFT)
            self.step_counter = counter("step", 0)
            self.of_total = label(f"of {fmt_count(s['ring_steps'])}", size=BODY_SMALL, color=MUTED)
            self.step_counter.move_to([PANEL_X, 1.9, 0], aligned_edge=LEFT)
            self.of_total.add_updater(lambda m: m.next_to(self.step_counter[1], RIGHT, buff=0.15))
            self.bytes_counter = counter("sent per GPU", 0, decimals=2, unit=self.bytes_unit)
            self.bytes_counter.move_to([PANEL_X, 1.35, 0], aligned_edge=LEFT)
            self.clock = counter("time", 0, decimals=1, unit=self.time_unit)
            self.clock.move_to([PANEL_X, 0.8, 0], aligned_edge=LEFT)
            self.per_step = VGroup(
                markup(f"buffer n = {fmt_bytes(n_anim)} on each GPU, {fmt_count(p)} chunks",
                       size=SMALL_SIZE, color=INK),
                markup(f"per step each GPU sends n/p = {fmt_bytes(an['bytes_per_step_per_rank'])}",
                       size=SMALL_SIZE, color=INK),
                markup(f"one step = α + n/pB = {fmt_seconds(s['step_latency'])} + "
                       f"{fmt_seconds(an['step_transfer_time'])}", size=SMALL_SIZE, color=INK),
            ).arrange(DOWN, aligned_edge=LEFT, buff=0.14).move_to([PANEL_X, -0.15, 0], aligned_edge=LEFT)
            self.key = legend([("partial sum (more ranks = brighter)", RING), ("fully reduced", DONE)],
                              size=SMALL_SIZE - 2).arrange(DOWN, aligned_edge=LEFT, buff=0.12)
            self.key.move_to([PANEL_X, -1.15, 0], aligned_edge=LEFT)
            self.play(FadeIn(self.phase_rs), FadeIn(self.step_counter), FadeIn(self.of_total),
                      FadeIn(self.bytes_counter), FadeIn(self.clock), FadeIn(self.per_step), FadeIn(self.key),
                      run_time=0.8)

    def reduce_scatter(self) -> None:
        """p-1 steps: each GPU receives a chunk and adds it in."""
        an, half = self.data["animation"], self.p - 1
        sched, contrib = an["schedule"], an["contributions"]
        with self.beat(f"Reduce-scatter: {fmt_count(half)} steps, {fmt_seconds(an['reduce_scatter_time'])}; "
                       f"each GPU passes one chunk to its neighbour, which adds it in"):
            for step in range(half):
                self.ring_pass(sched["reduce_scatter"][step], contrib[step + 1], step + 1,
                               run_time=1.0 if step == 0 else 0.5)
            self.owner_note = VGroup(
                markup(f"reduce-scatter done: {fmt_seconds(an['reduce_scatter_time'])}", size=SMALL_SIZE,
                       color=RING),
                markup("each GPU now owns one fully reduced chunk", size=SMALL_SIZE, color=DONE),
            ).arrange(DOWN, aligned_edge=LEFT, buff=0.12).move_to([PANEL_X, -2.0, 0], aligned_edge=LEFT)
            self.play(FadeIn(self.owner_note), run_time=0.4)
            self.settle_counters(half)
            self.wait(0.6)

    def all_gather(self) -> None:
        """p-1 more steps: each GPU receives a reduced chunk and overwrites its copy."""
        an, half = self.data["animation"], self.p - 1
        sched, contrib = an["schedule"], an["contributions"]
        with self.beat(f"All-gather: {fmt_count(half)} more steps, {fmt_seconds(an['all_gather_time'])}, "
                       f"pass the reduced chunks round; each GPU has sent "
                       f"{fmt_bytes(an['bytes_sent_per_rank'])}, 2(p−1)/p of the buffer"):
            self.remove(self.phase_rs)
            self.play(FadeIn(self.phase_ag), FadeOut(self.owner_note), *self.unsettle_counters(), run_time=0.4)
            for step in range(half):
                self.ring_pass(sched["all_gather"][step], contrib[half + step + 1], half + step + 1,
                               run_time=0.5)
            self.settle_counters(2 * half)
            self.wait(0.6)

    def ring_cost(self) -> None:
        """The ring's cost: 2(p-1) latencies plus a bandwidth term."""
        s, an = self.data["summary"], self.data["animation"]
        with self.beat(f"T_ring = T_rs + T_ag = 2(p−1)(α + n/pB) = {fmt_seconds(an['ring_time'])}: "
                       f"{fmt_count(s['ring_steps'])} latencies; "
                       f"bus bandwidth {fmt_rate(an['ring_busbw'])} "
                       f"of the link's {fmt_rate(s['link_bandwidth'])}"):
            eq = markup("T<sub>ring</sub> = T<sub>rs</sub> + T<sub>ag</sub> = 2(p−1) · (α + n / pB)",
                        size=SMALL_SIZE + 4)
            eq_num = markup(f"= {fmt_count(s['ring_steps'])} × ({fmt_seconds(s['step_latency'])} + "
                            f"{fmt_seconds(an['step_transfer_time'])}) = "
                            f"<b>{fmt_seconds(an['ring_time'])}</b>", size=SMALL_SIZE + 2)
            eq_bus = markup(f"busbw <b>{fmt_rate(an['ring_busbw'])}</b> of B = {fmt_rate(s['link_bandwidth'])}",
                            size=SMALL_SIZE + 2, color=RING)
            eq_note = markup("latency term grows with p;\nbandwidth term → 2(p−1)/p · n/B",
                             size=SMALL_SIZE, color=MUTED)
            self.eq_group = VGroup(eq, eq_num, eq_bus, eq_note).arrange(DOWN, aligned_edge=LEFT, buff=0.15)
            self.eq_group.next_to(self.per_step, DOWN, buff=0.2, aligned_edge=LEFT)
            # one chunk's 2(p−1) hops, clockwise from GPU 0 as the ring sends: each hop pays α once
            hops = int(s["ring_steps"])
            token = Dot(RING_CENTER + RING_RADIUS * UP, radius=0.09, color=RING)
            self.play(FadeOut(self.key), Write(eq), FadeIn(token), run_time=1.2)
            self.play(FadeIn(eq_num), FadeIn(eq_bus), FadeIn(eq_note),
                      Rotating(token, angle=-2 * math.pi * hops / self.p, about_point=RING_CENTER,
                               run_time=2.8, rate_func=linear))
            self.play(FadeOut(token), run_time=0.3)

    def double_binary_tree(self) -> None:
        """The same GPUs as two complementary trees, for a small message: up, then down."""
        s, an = self.data["summary"], self.data["animation"]
        tree_msg = an["tree_message"]
        with self.beat(f"A {fmt_bytes(tree_msg)} message on NCCL's double binary tree: two trees, each "
                       f"carrying half ({fmt_bytes(an['tree_half'])}); {fmt_count(an['tree_steps'])} steps up "
                       f"and down instead of {fmt_count(s['ring_steps'])} ({fmt_seconds(an['tree_time'])} vs "
                       f"{fmt_seconds(an['tree_message_ring_time'])})"):
            self.of_total.clear_updaters()
            self.play(FadeOut(VGroup(self.track, self.tips, self.bars, self.phase_ag, self.gpus,
                                     self.step_counter, self.of_total, self.bytes_counter[0], self.clock[0],
                                     self.settled, self.per_step, self.eq_group)), run_time=0.6)
            drawn, dmax = self.draw_trees()
            self.tree_steps = counter("tree steps", 0, color=TREE)
            self.tree_steps.move_to([-6.3, -0.7, 0], aligned_edge=LEFT)
            self.ring_ref = markup(f"ring: {fmt_count(s['ring_steps'])} steps", size=BODY_SMALL,
                                   color=RING).move_to([-6.3, -1.25, 0], aligned_edge=LEFT)
            self.msg_note = markup(f"n = {fmt_bytes(tree_msg)}, n/2 = {fmt_bytes(an['tree_half'])} per tree: "
                                   "latency-bound", size=SMALL_SIZE, color=INK)
            self.msg_note.move_to([-6.3, -1.85, 0], aligned_edge=LEFT)
            self.play(FadeIn(self.tree_steps), FadeIn(self.ring_ref), FadeIn(self.msg_note), run_time=0.4)
            self.tree_passes(drawn, dmax)
            self.times = VGroup(
                markup(f"tree: <b>{fmt_seconds(an['tree_time'])}</b>", size=SMALL_SIZE + 2, color=TREE),
                markup(f"ring: <b>{fmt_seconds(an['tree_message_ring_time'])}</b>",
                       size=SMALL_SIZE + 2, color=RING),
            ).arrange(DOWN, aligned_edge=LEFT, buff=0.15).move_to([0.9, -0.95, 0], aligned_edge=LEFT)
            self.mirror = markup("no GPU has more than two children in both trees together",
                                 size=SMALL_SIZE, color=MUTED).move_to([-6.3, -2.35, 0], aligned_edge=LEFT)
            self.play(FadeIn(self.times), FadeIn(self.mirror), run_time=0.6)
            self.wait(1.8)

    def draw_trees(self) -> tuple[list, int]:
        """Draw both trees side by side; returns per tree (boxes, parent, depth, colour) and the depth."""
        an, p = self.data["animation"], self.p
        trees = [(an["tree_parent"], an["tree_depth"], TREE, -6.3, "tree A: first half", RIGHT),
                 (an["mirror_tree_parent"], an["mirror_tree_depth"], TREE_B, 0.9, "tree B: second half",
                  LEFT)]
        dmax = max(max(an["tree_depth"]), max(an["mirror_tree_depth"]))
        dx = 5.4 / (p - 1)
        dy = min(0.75, 2.25 / max(dmax, 1))
        drawn = []  # per tree: (boxes, positions, parent, depth, colour)
        for parent, depth, colour, x0, name, side in trees:
            pos = [np.array([x0 + dx * r, 2.3 - dy * depth[r], 0]) for r in range(p)]
            boxes = VGroup(*[gpu(str(r), color=MUTED, width=min(0.6, dx - 0.1), height=0.42)
                             .move_to(pos[r]).set_z_index(1) for r in range(p)])
            edges = VGroup(*[Line(pos[r], pos[parent[r]], stroke_color=colour, stroke_width=3)
                             for r in range(p) if parent[r] >= 0]).set_z_index(-1)
            head = label(name, size=BODY_SMALL, color=colour)
            edge_x = x0 + dx * (p - 1) if side is RIGHT else x0
            head.move_to([edge_x, 2.3, 0], aligned_edge=side)
            self.play(FadeIn(boxes), Create(edges), FadeIn(head), run_time=0.7)
            drawn.append((boxes, parent, depth, colour))
        return drawn, dmax

    def tree_passes(self, drawn: list, dmax: int) -> None:
        """Reduce up both trees at once, deepest level first, then broadcast each half back down."""
        p, tree_steps = self.p, self.tree_steps
        step_no = 0
        # reduce: deepest level first; both trees send up at once, each its own half
        for lvl in range(dmax, 0, -1):
            step_no += 1
            pk, moves = [], []
            for boxes, parent, depth, colour in drawn:
                for r in (r for r in range(p) if depth[r] == lvl):
                    m = packet(colour, size=0.16).move_to(boxes[r].get_top()).set_z_index(2)
                    pk.append(m)
                    moves.append(m.animate.move_to(boxes[parent[r]].get_bottom()))
            self.add(*pk)
            self.play(*moves, run_time=0.5)
            self.remove(*pk)
            tree_steps[1].set_value(step_no)
        self.play(*[boxes[parent.index(-1)][0].animate.set_stroke(DONE, width=5)
                    for boxes, parent, _, _ in drawn], run_time=0.3)
        # broadcast: each root sends its reduced half back down its own tree
        for lvl in range(1, dmax + 1):
            step_no += 1
            pk, moves, lit = [], [], []
            for boxes, parent, depth, _ in drawn:
                for r in (r for r in range(p) if depth[r] == lvl):
                    m = packet(DONE, size=0.16).move_to(boxes[parent[r]].get_bottom()).set_z_index(2)
                    pk.append(m)
                    moves.append(m.animate.move_to(boxes[r].get_top()))
                    lit.append(boxes[r][0])
            self.add(*pk)
            self.play(*moves, run_time=0.5)
            self.remove(*pk)
            tree_steps[1].set_value(step_no)
            for b in lit:
                b.set_stroke(DONE, width=5)

    def crossover(self) -> None:
        """The crossover: a marker sweeps the message size along a log axis while both times count,
        stops at n* where they tie, then runs on to the large message where the ring wins."""
        d, s = self.data, self.data["summary"]
        n_star, n_big = s["crossover_bytes"], s["large_message"]
        ser = d["series"]
        log_n = np.log10(np.asarray(ser["message_bytes"], dtype=float))
        log_ring = np.log10(np.asarray(ser["ring_time"], dtype=float))
        log_tree = np.log10(np.asarray(ser["tree_time"], dtype=float))
        with self.beat(f"Sweep the size: below {fmt_bytes(n_star)} the tree wins on latency; at "
                       f"{fmt_bytes(n_big)} the ring wins on bandwidth, {fmt_seconds(s['ring_time_large'])} "
                       f"against {fmt_seconds(s['tree_time_large'])}"):
            lo, hi = float(10 ** log_n[0]), float(10 ** log_n[-1])
            x_lo, x_hi, y_line = -6.0, 6.0, -1.55

            def x_of(n: float) -> float:
                return x_lo + (x_hi - x_lo) * (math.log10(n) - math.log10(lo)) / (
                    math.log10(hi) - math.log10(lo))

            xs = x_of(n_star) if n_star > 0 else x_lo
            tree_side = Line([x_lo, y_line, 0], [xs, y_line, 0], stroke_color=TREE, stroke_width=10)
            ring_side = Line([xs, y_line, 0], [x_hi, y_line, 0], stroke_color=RING, stroke_width=10)
            tick = Line([xs, y_line - 0.25, 0], [xs, y_line + 0.25, 0], stroke_color=INK,
                        stroke_width=3)
            star_lbl = markup(f"n* = <b>{fmt_bytes(n_star)}</b>", size=SMALL_SIZE + 2)
            star_lbl.next_to(tick, UP, buff=0.08)
            end_lbls = VGroup(
                label(fmt_bytes(lo, 1), size=SMALL_SIZE - 2, color=MUTED).next_to([x_lo, y_line, 0], DOWN,
                                                                                   buff=0.2),
                label(fmt_bytes(hi, 1), size=SMALL_SIZE - 2, color=MUTED).next_to([x_hi, y_line, 0], DOWN,
                                                                                   buff=0.2),
                label("tree faster", size=SMALL_SIZE, color=TREE).next_to(
                    [(x_lo + xs) / 2, y_line, 0], DOWN, buff=0.2),
                label("ring faster", size=SMALL_SIZE, color=RING).next_to(
                    [(xs + x_hi) / 2, y_line, 0], DOWN, buff=0.2),
            )
            axis_name = label("message size n (log scale)", size=SMALL_SIZE - 2, color=MUTED)
            axis_name.next_to([x_lo, y_line, 0], UP, buff=0.2, aligned_edge=LEFT)
            # the trees make way: this beat is the whole range of sizes
            self.play(*[FadeOut(m) for m in self.mobjects if m is not self.heading and isinstance(m, VMobject)],
                      FadeIn(tree_side), FadeIn(ring_side), FadeIn(end_lbls), FadeIn(axis_name), run_time=0.6)

            # the marker and three readouts driven by one tracker, log10 of the size: the model's sweep,
            # interpolated on log axes between its points
            at = ValueTracker(float(log_n[0]))
            marker = Triangle(stroke_width=0, fill_color=INK, fill_opacity=1).scale(0.14).rotate(math.pi)
            marker.add_updater(lambda m: m.move_to([x_of(10 ** at.get_value()), y_line + 0.3, 0]))
            size_c = counter("n", 10 ** log_n[0] / 1e6, decimals=2, unit="MB")
            tree_c = counter("tree", 0, decimals=2, unit="ms", color=TREE)
            ring_c = counter("ring", 0, decimals=2, unit="ms", color=RING)
            for c, x in ((size_c, x_lo), (tree_c, x_lo + 4.4), (ring_c, x_lo + 7.6)):  # fixed: n grows wider
                c.move_to([x, 1.5, 0], aligned_edge=LEFT)
            panel = VGroup(size_c, tree_c, ring_c)
            size_c[1].add_updater(lambda m: m.set_value(10 ** at.get_value() / 1e6))
            tree_c[1].add_updater(lambda m: m.set_value(10 ** np.interp(at.get_value(), log_n, log_tree) * 1e3))
            ring_c[1].add_updater(lambda m: m.set_value(10 ** np.interp(at.get_value(), log_n, log_ring) * 1e3))
            self.play(FadeIn(marker), FadeIn(panel), run_time=0.4)
            if n_star > 0:
                self.play(at.animate.set_value(math.log10(n_star)), run_time=2.6, rate_func=linear)
                self.play(FadeIn(tick), FadeIn(star_lbl), run_time=0.4)
                self.wait(0.8)
            self.play(at.animate.set_value(math.log10(n_big)), run_time=2.2, rate_func=linear)
            for m in (marker, size_c[1], tree_c[1], ring_c[1]):
                m.clear_updaters()
            # the count has stopped on the page's numbers: show them as the page writes them
            finals = ((size_c, fmt_bytes(n_big), INK), (tree_c, fmt_seconds(s["tree_time_large"]), TREE),
                      (ring_c, fmt_seconds(s["ring_time_large"]), RING))
            self.play(*[FadeOut(VGroup(*c[1:])) for c, _, _ in finals],
                      *[FadeIn(_settled(c, text, col)) for c, text, col in finals], run_time=0.3)
            sent = markup(f"each GPU sends: ring {fmt_bytes(s['ring_bytes_sent_large'])}, "
                          f"tree up to {fmt_bytes(s['tree_bytes_sent_large'])}", size=SMALL_SIZE + 2)
            sent.move_to([x_lo, 0.7, 0], aligned_edge=LEFT)
            self.play(FadeIn(sent), run_time=0.4)
            self.wait(2.5)


__all__ = ["RingVsTreeAllReduce"]
