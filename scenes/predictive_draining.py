"""predictive-draining · Predictive health checks & autonomous node draining.

A row of nodes runs the job. Rates add: each node's failures flash and land on
the job's strip, so a node that lasts months makes a job that is interrupted
every few hours. Healthy nodes log an error now and then; one node's counter
climbs to the drain threshold k (the page's conservative one, a drain that
restarts no faster than a crash) while a time axis marks the burst's errors;
the job checkpoints and moves to a hot spare (the drain time D on the axis), and
the drained node crashes later, off the job (the crash on the axis). A healthy
node reaches k by chance and is drained for nothing. Then the wall time lost,
from zero: never draining, the conservative threshold, the fast drain restart
(the upside) and a drain charged a crash's whole cost; then the fast-restart
gain, enlarged, split into the lost work, the hang skipped and the faster
restart. Every number comes from self.data
(models.predictive_draining.predictive_draining).
"""

from __future__ import annotations

from manim import (
    DOWN,
    LEFT,
    RIGHT,
    UP,
    Brace,
    Create,
    Cross,
    DecimalNumber,
    FadeIn,
    FadeOut,
    GrowFromEdge,
    Indicate,
    Line,
    Rectangle,
    RoundedRectangle,
    VGroup,
    Write,
)

from design import palette
from models.units import fmt_count, fmt_percent, fmt_seconds
from scenes.style import BODY_SIZE, INK, MUTED, SMALL_SIZE, ExhibitScene, label, markup, title

ROW_Y = 1.0
COUNT_Y = 0.2
SPACING, NODE_W, NODE_H = 1.25, 1.0, 0.75
BAD, OK, GPU = palette.role("bad"), palette.role("ok"), palette.role("gpu")
DRAIN = palette.role("save")
# beat 6 in the first figure's colours: never draining's dashed line, the best threshold's diamond; a drain as
# slow as a crash is the figure's muted dotted curve. The gain's parts: the work a crash makes the job redo
# (rework), the restart it skips (restart), and the hang between them in the colour neither of those takes
NEVER = palette.role("bad")
BAR_X = -1.5  # the bars' left edge: room for their names on the left, 5 units of bar and a value on the right
PART_WORK, PART_HANG, PART_RESTART = palette.role("rework"), palette.role("primary"), palette.role("restart")
# the burst's time axis, between the title and the nodes: from the burst's start to a little past the crash
AXIS_Y, AXIS_X0, AXIS_X1 = 2.5, -5.5, 5.5
STRIP_Y = -0.1  # beat 1: the job's failures over one node's MTBF


def _node(name: str, colour: str) -> VGroup:
    box = RoundedRectangle(corner_radius=0.08, width=NODE_W, height=NODE_H, stroke_color=colour,
                           stroke_width=2.5, fill_color=colour, fill_opacity=0.2)
    return VGroup(box, label(name, size=SMALL_SIZE, color=INK).move_to(box))


class PredictiveDraining(ExhibitScene):
    scene_id = "predictive-draining"

    def construct(self) -> None:
        self.m, self.p, self.a = self.data["summary"], self.data["params"], self.data["animation"]
        self.n, self.bad_i, self.k = self.a["nodes"], self.a["failing"], self.a["k_best"]
        self.x0 = -SPACING * (self.n - 1) / 2
        self.series_reliability()
        self.precursors()
        self.the_drain()
        self.the_crash_off_the_job()
        self.a_false_drain()
        self.goodput()

    def series_reliability(self) -> None:
        m, p, n, x0 = self.m, self.p, self.n, self.x0
        with self.beat(f"Rates add: nodes that last {fmt_seconds(m['node_mtbf'])} each interrupt a "
                       f"{fmt_count(p['gpus'])}-GPU job every {fmt_seconds(m['job_mtbf'])}."):
            head = title("How do you pull a node before it crashes the job?")
            self.nodes = VGroup(*[_node(f"node {i + 1}", GPU).move_to([x0 + SPACING * i, ROW_Y, 0])
                                  for i in range(n)])
            # the rack's figure is the per-GPU rate times 72, not a measured NVL72 record: the label says so
            self.chain = markup(f"node <b>{fmt_seconds(m['node_mtbf'])}</b>  →  NVL72 rack (extrapolated) "
                                f"<b>{fmt_seconds(m['rack_mtbf'])}</b>  →  {fmt_count(m['nodes'])} nodes "
                                f"<b>{fmt_seconds(m['job_mtbf'])}</b>", size=BODY_SIZE)
            self.chain.move_to([0, -1.2, 0])
            self.play(Write(head), run_time=1.0)
            self.play(FadeIn(self.nodes, lag_ratio=0.1), run_time=1.2)
            # each node's failures over one node MTBF (seeded draws) flash on the node and land on the job's
            # strip: each node fails about once, the job as often as all of them together
            strip = Line([AXIS_X0, STRIP_Y, 0], [AXIS_X1, STRIP_Y, 0], color=MUTED, stroke_width=2)
            strip_name = label(f"these {len(self.nodes)} nodes' failures over {fmt_seconds(m['node_mtbf'])}, "
                               "one node's MTBF", size=SMALL_SIZE, color=MUTED).next_to(strip, DOWN, buff=0.15)
            self.play(Create(strip), FadeIn(strip_name), run_time=0.5)
            ticks = VGroup()
            for t, i in zip(self.a["failure_ticks"], self.a["failure_nodes"], strict=True):  # a few: seeded
                x = AXIS_X0 + (AXIS_X1 - AXIS_X0) * t
                tick = Line([x, STRIP_Y - 0.18, 0], [x, STRIP_Y + 0.18, 0], color=BAD, stroke_width=5)
                ticks.add(tick)
                self.play(Indicate(self.nodes[i], color=BAD, scale_factor=1.15), Create(tick), run_time=0.4)
            self.chain.next_to(strip_name, DOWN, buff=0.35)
            self.play(FadeIn(self.chain, shift=0.2 * UP), run_time=0.8)
            self.wait(1.5)
            self.strip = VGroup(strip, strip_name, ticks)

    def precursors(self) -> None:
        """Background errors on every node, then the failing node's burst, one error at a time, up to k."""
        p, a, k, bad_i, x0 = self.p, self.a, self.k, self.bad_i, self.x0
        with self.beat(f"Healthy nodes log an error now and then; a failing node's errors come in a burst. "
                       f"Drain at k = {k} errors in {fmt_seconds(p['window'])}."):
            self.play(FadeOut(self.chain), FadeOut(self.strip), run_time=0.4)
            self.row_name = label(f"errors (memory, optics), last {fmt_seconds(p['window'])}", size=SMALL_SIZE,
                                  color=MUTED)
            self.counts = VGroup(*[DecimalNumber(c if i != bad_i else 0, num_decimal_places=0, font_size=BODY_SIZE,
                                                 color=INK).move_to([x0 + SPACING * i, COUNT_Y, 0])
                                   for i, c in enumerate(a["background_counts"])])
            self.row_name.move_to([0, COUNT_Y - 0.55, 0])
            self.rule = markup(f"drain when <b>{k}</b> errors arrive within {fmt_seconds(p['window'])}",
                               size=BODY_SIZE).move_to([0, -1.35, 0])
            # the failing node's time axis, from its burst's start to a little past its crash (seeded draws)
            self.span = 1.1 * max(a["crash_at"], a["drain_at"] + a["drain_time"])
            axis = Line([AXIS_X0, AXIS_Y, 0], [AXIS_X1, AXIS_Y, 0], color=MUTED, stroke_width=2)
            start = label(f"node {bad_i + 1}: burst starts", size=SMALL_SIZE, color=MUTED)
            start.next_to(axis, DOWN, buff=0.15).align_to(axis, LEFT)
            end = label(fmt_seconds(self.span), size=SMALL_SIZE, color=MUTED)
            end.next_to(axis, DOWN, buff=0.15).align_to(axis, RIGHT)
            self.axis = VGroup(axis, start, end)
            self.play(FadeIn(self.counts), FadeIn(self.row_name), FadeIn(self.rule), Create(axis), FadeIn(start),
                      FadeIn(end), run_time=0.8)
            self.bad = bad = self.nodes[bad_i]
            for j in range(k):  # the burst: one error at a time, up to the threshold, each on the axis
                colour = BAD if j == k - 1 else palette.role("highlight")
                x = self._at(a["signal_times"][j])
                tick = Line([x, AXIS_Y - 0.15, 0], [x, AXIS_Y + 0.15, 0], color=colour, stroke_width=5)
                self.axis.add(tick)
                self.play(self.counts[bad_i].animate.set_value(j + 1).set_color(colour),
                          bad[0].animate.set_stroke(colour).set_fill(colour, 0.2 + 0.15 * (j + 1)),
                          Create(tick), run_time=0.6)
                self.play(Indicate(self.counts[bad_i], color=colour, scale_factor=1.3), run_time=0.4)
            self.wait(1.2)

    def _at(self, t: float) -> float:
        """The x of time t (s since the burst began) on the beat 2-4 axis."""
        return AXIS_X0 + (AXIS_X1 - AXIS_X0) * t / self.span

    def the_drain(self) -> None:
        m, a, bad, bad_i, x0 = self.m, self.a, self.bad, self.bad_i, self.x0
        with self.beat(f"Drained within D = {fmt_seconds(a['drain_time'])}: a health check, a checkpoint "
                       f"({fmt_seconds(m['checkpoint_cost'])}), then a hot spare, before the crash."):
            # the drain on the axis: from the k-th error, one health-check period plus the checkpoint write
            x0_d, x1_d = self._at(a["drain_at"]), self._at(a["drain_at"] + a["drain_time"])
            drain_bar = Rectangle(width=max(x1_d - x0_d, 0.06), height=0.22, stroke_width=0, fill_color=DRAIN,
                                  fill_opacity=0.95).move_to([x0_d, AXIS_Y, 0], aligned_edge=LEFT)
            drain_name = label(f"drain, D = {fmt_seconds(a['drain_time'])}", size=SMALL_SIZE, color=DRAIN)
            # above the axis: below it sits the burst's start label
            drain_name.next_to(drain_bar, UP, buff=0.12).align_to(drain_bar, LEFT)
            self.axis.add(drain_bar, drain_name)
            self.play(GrowFromEdge(drain_bar, LEFT), FadeIn(drain_name), run_time=0.6)
            spare = _node("spare", OK).move_to([x0 + SPACING * bad_i, -1.9, 0])
            spare_tag = label("hot spare", size=SMALL_SIZE, color=MUTED).next_to(spare, RIGHT, buff=0.2)
            self.play(FadeOut(self.rule), FadeIn(spare), FadeIn(spare_tag), run_time=0.6)
            out = [x0 + SPACING * bad_i + 2.6, -1.9, 0]
            # out of the job, in the drain colour at full strength (its name in full ink stays readable)
            self.play(bad.animate.move_to(out), FadeOut(self.counts[bad_i]), FadeOut(spare_tag), run_time=0.9)
            self.drained = label("drained", size=SMALL_SIZE, color=DRAIN).next_to(bad, RIGHT, buff=0.2)
            self.play(spare.animate.move_to([x0 + SPACING * bad_i, ROW_Y, 0]), FadeIn(self.drained),
                      bad[0].animate.set_stroke(DRAIN).set_fill(DRAIN, 0.35), run_time=0.9)
            fresh = DecimalNumber(0, num_decimal_places=0, font_size=BODY_SIZE, color=INK)
            fresh.move_to([x0 + SPACING * bad_i, COUNT_Y, 0])
            self.play(FadeIn(fresh), run_time=0.4)
            self.spare, self.fresh = spare, fresh
            self.wait(1.5)

    def the_crash_off_the_job(self) -> None:
        m, a, k, bad = self.m, self.a, self.k, self.bad
        with self.beat(f"The crash comes later, off the job. At k = {k} the drain catches "
                       f"{fmt_percent(m['same_restart_caught'])} of failures in time."):
            # the crash on the axis, from the k-th error
            xc = self._at(a["crash_at"])
            crash_tick = Line([xc, AXIS_Y - 0.25, 0], [xc, AXIS_Y + 0.25, 0], color=BAD, stroke_width=7)
            crash_name = label(f"crash, {fmt_seconds(a['crash_at'] - a['drain_at'])} after error {k}",
                               size=SMALL_SIZE, color=BAD).next_to(crash_tick, UP, buff=0.1)
            if crash_name.get_right()[0] > AXIS_X1:  # near the axis's end: right-aligned to it
                crash_name.align_to([AXIS_X1, 0, 0], RIGHT)
            self.axis.add(crash_tick, crash_name)
            # the node crashes: a box in the failure colour and a small cross beside it, clear of its name
            self.cross = Cross(stroke_color=BAD, stroke_width=5).scale(0.22).next_to(bad, LEFT, buff=0.15)
            self.crash = label("crashed, off the job", size=SMALL_SIZE, color=BAD).next_to(bad, RIGHT, buff=0.2)
            self.play(FadeOut(self.drained), Create(crash_tick), FadeIn(crash_name), FadeIn(self.cross),
                      FadeIn(self.crash), bad[0].animate.set_stroke(BAD).set_fill(BAD, 0.35), run_time=0.7)
            self.job_ok = label("the job keeps running", size=SMALL_SIZE, color=OK).move_to([-3.0, -1.9, 0])
            self.play(FadeIn(self.job_ok), run_time=0.5)
            self.wait(2.2)

    def a_false_drain(self) -> None:
        """A healthy node's background errors reach k by chance: it is drained too, checked and sent back."""
        m, p, k, x0 = self.m, self.p, self.k, self.x0
        i = self.a["falsely_drained"]
        node, count = self.nodes[i], self.counts[i]
        with self.beat(f"A healthy node can reach k by chance: {m['same_restart_healthy_per_day']:.2g} a day are "
                       f"drained for nothing."):
            self.play(FadeOut(VGroup(self.cross, self.crash, self.bad, self.job_ok, self.axis)), run_time=0.4)
            start = int(self.a["background_counts"][i])
            for j in range(start, k):  # the chance errors, one at a time, up to the threshold
                colour = BAD if j == k - 1 else palette.role("highlight")
                self.play(count.animate.set_value(j + 1).set_color(colour),
                          node[0].animate.set_stroke(colour).set_fill(colour, 0.35), run_time=0.5)
            self.play(Indicate(count, color=BAD, scale_factor=1.3), run_time=0.5)  # k reached, by chance
            self.wait(0.5)
            home = node.get_center()
            out = [x0 + SPACING * i + 1.6, -1.9, 0]
            pool = [x0 + SPACING * i, -1.9, 0]
            tag = label(f"{k} errors by chance; burn-in {fmt_seconds(p['verify_time'])}: healthy", size=SMALL_SIZE,
                        color=MUTED)
            # the job pays for it as for a real drain: a checkpoint and a restart on a spare, δ + R_d
            spare = _node("spare", OK).move_to(pool)
            cost = label(f"job pauses {fmt_seconds(m['checkpoint_cost'] + p['crash_restart'])} "
                         f"(checkpoint + restart)", size=SMALL_SIZE, color=BAD).move_to([0, -0.55, 0])
            self.play(FadeIn(spare), FadeOut(self.row_name), run_time=0.4)
            self.play(node.animate.move_to(out).set_opacity(0.6), FadeOut(count),
                      spare.animate.move_to(home), FadeIn(cost), run_time=0.9)
            self.play(FadeIn(tag.next_to(node, RIGHT, buff=0.2)), run_time=0.4)
            self.wait(0.8)
            zero = DecimalNumber(0, num_decimal_places=0, font_size=BODY_SIZE, color=INK).move_to(count)
            rate = label(f"healthy nodes drained: {m['same_restart_healthy_per_day']:.2g} a day", size=SMALL_SIZE,
                         color=BAD).move_to([0, -0.95, 0])
            # the last frame still says what drained it: k errors by chance
            back = label(f"{k} errors by chance, yet healthy: back to the spare pool", size=SMALL_SIZE, color=MUTED)
            self.play(node.animate.move_to(pool).set_opacity(1.0), FadeOut(tag), run_time=0.8)
            self.play(node[0].animate.set_stroke(GPU).set_fill(GPU, 0.2), FadeIn(zero), FadeIn(rate),
                      FadeIn(back.next_to(node, RIGHT, buff=0.2)), FadeOut(cost), FadeIn(self.row_name),
                      run_time=0.5)
            self.wait(1.2)
            self.false_drain_marks = VGroup(zero, rate, back, spare)

    def goodput(self) -> None:
        """Bars of wall time lost, from zero: never draining (the first figure's dashed line), then the drains by
        restart time: the fast drain restart (the upside, the figure's diamond), the page's conservative
        threshold (a drain that restarts as a crash does) and a drain charged a crash's whole cost (its dotted
        curve); then the fast-restart gain,
        enlarged, split into the page's three parts, the conservative gain braced as its first two."""
        m, p, k = self.m, self.p, self.k
        with self.beat(f"Time lost: never drain {fmt_percent(1 - m['goodput_never'])}; k = {m['k_best']}, a "
                       f"{fmt_seconds(p['drain_restart'])} drain restart, {fmt_percent(1 - m['goodput_best'])}; "
                       f"k = {k}, a drain restarting as a crash does, "
                       f"{fmt_percent(1 - m['same_restart_goodput'])}; k = {m['symmetric_k_best']}, a drain "
                       f"costing a whole crash, {fmt_percent(1 - m['symmetric_goodput'])}."):
            on_row = [c for j, c in enumerate(self.counts) if j not in (self.bad_i, self.a["falsely_drained"])]
            in_job = [node for j, node in enumerate(self.nodes) if j != self.bad_i]  # the failing node is gone
            self.play(FadeOut(VGroup(self.row_name, *on_row, *in_job, self.spare, self.fresh,
                                     self.false_drain_marks)), run_time=0.5)
            slow = fmt_seconds(m["crash_cost"])
            rows = [("never drain", m["goodput_never"], NEVER),
                    # the drains in order of their restart time, fastest first (review 19b): the upside, a
                    # pre-warmed spare restarting fast (the figure's best threshold)
                    (f"k = {m['k_best']}, drain restart {fmt_seconds(p['drain_restart'])} (upside)",
                     m["goodput_best"], OK),
                    # the page's headline: the drain restarts with the crash's machinery, skipping the hang
                    (f"k = {k}, drain restart {fmt_seconds(p['crash_restart'])} (= crash's)",
                     m["same_restart_goodput"], PART_HANG),
                    # a drain charged the whole crash cost, hang included (the figure's dotted curve): its own
                    # best threshold keeps only the lost work
                    (f"k = {m['symmetric_k_best']}, drain costs {slow} (= crash)", m["symmetric_goodput"], MUTED)]
            scale = 5.0 / max(1 - g for _, g, _ in rows)  # the longest bar spans 5 units; bars start at 0
            bars = VGroup()
            for j, (name, g, colour) in enumerate(rows):
                bars.add(self._bar(name, scale * (1 - g), 1.9 - 0.55 * j, colour, fmt_percent(1 - g)))
            axis = VGroup(label("share of wall time lost (bars start at 0)", size=SMALL_SIZE, color=MUTED),
                          label(f"draining at any error (k = 1) loses {fmt_percent(1 - m['goodput_any'])}",
                                size=SMALL_SIZE, color=MUTED)).arrange(DOWN, aligned_edge=LEFT, buff=0.08)
            axis.next_to(bars, DOWN, buff=0.12).align_to(bars[0][0], LEFT)
            self.play(*[GrowFromEdge(b[0], LEFT) for b in bars], *[FadeIn(b[1]) for b in bars], run_time=1.0)
            self.play(*[FadeIn(b[2]) for b in bars], FadeIn(axis), run_time=0.5)
            self.wait(3.0)  # the caption names all four bars: it needs the time to be read
            # the gain, never draining's loss minus the best threshold's, enlarged to the same 5 units and
            # split as the page splits it: R_d = R_c keeps the lost work, R_d = R_r adds the hang skipped,
            # the page's R_d adds the faster restart
            parts = [("lost work", m["part_lost_work"], PART_WORK), ("hang skipped", m["part_hang"], PART_HANG),
                     ("faster restart", m["part_restart"], PART_RESTART)]
            gain_scale = 5.0 / m["gain_best"]
            y_gain = -1.2
            segs, x = VGroup(), BAR_X
            for _, v, colour in parts:
                seg = Rectangle(width=max(gain_scale * v, 0.05), height=0.45, stroke_width=0, fill_color=colour,
                                fill_opacity=0.9).move_to([x, y_gain, 0], aligned_edge=LEFT)
                segs.add(seg)
                x += gain_scale * v
            gain_name = label("fast-restart gain, enlarged", size=SMALL_SIZE, color=INK).next_to(segs, LEFT, buff=0.2)
            gain_name.align_to([BAR_X - 0.2, 0, 0], RIGHT)
            gain_val = label(fmt_percent(m["gain_best"]), size=SMALL_SIZE, color=INK).next_to(segs, RIGHT, buff=0.15)
            key = VGroup(*[VGroup(Rectangle(width=0.22, height=0.22, stroke_width=0, fill_color=colour,
                                            fill_opacity=0.9),
                                  label(f"{name} {fmt_percent(v)}", size=SMALL_SIZE, color=INK))
                           .arrange(RIGHT, buff=0.1) for name, v, colour in parts]).arrange(RIGHT, buff=0.45)
            # the first two parts are the conservative gain (the drain restarts as a crash does)
            brace = Brace(VGroup(segs[0], segs[1]), DOWN, buff=0.05, color=PART_HANG)
            brace_name = label(f"{fmt_percent(m['same_restart_gain'])}: drain restart = crash's, k = {k}",
                               size=SMALL_SIZE, color=INK).next_to(brace, DOWN, buff=0.08)
            key.next_to(brace_name, DOWN, buff=0.2).set_x(0)  # centred: the three entries are wider than the bar
            self.play(*[GrowFromEdge(sg, LEFT) for sg in segs], FadeIn(gain_name), FadeIn(gain_val), run_time=0.8)
            self.play(FadeIn(key), FadeIn(brace), FadeIn(brace_name), run_time=0.5)
            self.wait(2.5)

    @staticmethod
    def _bar(name: str, width: float, y: float, colour: str, value: str) -> VGroup:
        """One bar from x = BAR_X (its name right-aligned before it, its value after it)."""
        bar = Rectangle(width=max(width, 0.05), height=0.42, stroke_width=0, fill_color=colour, fill_opacity=0.85)
        bar.move_to([BAR_X, y, 0], aligned_edge=LEFT)
        name_t = label(name, size=SMALL_SIZE, color=INK).next_to(bar, LEFT, buff=0.2)
        name_t.align_to([BAR_X - 0.2, 0, 0], RIGHT)
        val = label(value, size=SMALL_SIZE, color=INK).next_to(bar, RIGHT, buff=0.15)
        return VGroup(bar, name_t, val)
