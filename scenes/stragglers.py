"""stragglers · Straggler detection & collective barrier lag.

A few ranks race to the step's barrier (the gradient all-reduce): each bar
is one rank's time to the barrier, drawn from the model's own jittered
times; the barrier stands where the last one arrives and every other rank
waits there. Then one rank turns slow and the barrier moves with it. Then
the section-timer detector: each rank's windowed z-score of its compute-kernel
time (collectives left out, so it flags the GPU and not its TP group) against
the threshold that allows one false alarm a day; the straggler crosses it.
Last, the flight recorder's view: each rank's mean recorded all-reduce
duration grows, and the slow rank's is the shortest.
Every number comes from self.data (models.stragglers.straggler_barrier).
"""

from __future__ import annotations

from manim import (
    DOWN,
    LEFT,
    RIGHT,
    UP,
    Create,
    DashedLine,
    DoubleArrow,
    FadeIn,
    FadeOut,
    GrowFromEdge,
    Indicate,
    Line,
    Rectangle,
    ReplacementTransform,
    ValueTracker,
    VGroup,
    Write,
    always_redraw,
    linear,
)

from design import palette
from models.units import fmt_count, fmt_percent, fmt_seconds, sig
from scenes.style import MUTED, SMALL_SIZE, ExhibitScene, label, legend, markup, title

COMPUTE = palette.role("compute")
WAIT = MUTED  # waiting is idle time: grey, apart from the slow rank's colour
SLOW = palette.role("failure")
BARRIER = palette.role("highlight")
OK = palette.role("ok")
IN_COLLECTIVE = palette.role("network")  # time a rank's record spends inside an all-reduce
TP_STAGE = palette.role("tertiary")  # time inside a TP all-reduce (the figure's colour for it)

X0, X1 = -4.6, 2.6  # the lanes' time axis (zoomed: it starts near μ, not at zero)
LANE_TOP, LANE_STEP, LANE_H = 2.25, 0.56, 0.34
T_LO, T_HI = 0.94, 1.10  # the visible window of time to the barrier, in units of μ
PANEL_X = 3.1  # left edge of the text column on the right


def _x(t: float) -> float:
    return X0 + (t - T_LO) / (T_HI - T_LO) * (X1 - X0)


class BarrierWait(ExhibitScene):
    scene_id = "stragglers"

    def _lane_y(self, i: int) -> float:
        return LANE_TOP - i * LANE_STEP

    def _bars(self, times: list[float], clock: ValueTracker, slow: int | None):
        """Bars that grow with the clock up to each rank's time, all at the same speed."""
        bars = VGroup()
        for i, t_r in enumerate(times):
            colour = SLOW if i == slow else COMPUTE

            def make(i=i, t_r=t_r, colour=colour):
                t = min(clock.get_value(), t_r)
                w = max(_x(t) - X0, 0.001)
                return Rectangle(width=w, height=LANE_H, stroke_width=0, fill_color=colour,
                                 fill_opacity=0.9).move_to([X0 + w / 2, self._lane_y(i), 0])

            bars.add(always_redraw(make))
        return bars

    def _waits(self, times: list[float]):
        """The time each rank spends waiting at the barrier, hatched in the pause colour."""
        end = max(times)
        return VGroup(*[Rectangle(width=max(_x(end) - _x(t), 0.001), height=LANE_H * 0.6, stroke_width=0,
                                  fill_color=WAIT, fill_opacity=0.55)
                        .move_to([(_x(t) + _x(end)) / 2, self._lane_y(i), 0])
                        for i, t in enumerate(times)])

    def _barrier(self, t: float):
        y0, y1 = self._lane_y(len(self.times[0]) - 1) - 0.3, LANE_TOP + 0.3
        return Line([_x(t), y0, 0], [_x(t), y1, 0], color=BARRIER, stroke_width=5)

    def construct(self) -> None:
        a = self.data["animation"]
        self.times = a["times"]
        self.slow = a["slow_rank"]
        self.N = fmt_count(self.data["params"]["gpus"])
        self.lanes_and_axis()
        self.the_barrier()
        self.jitter_alone()
        self.one_slow_gpu()
        self.the_detector()
        self.the_flight_recorder()

    def lanes_and_axis(self) -> None:
        """What the first beats share: the title, the ranks' names, the time axis with its ticks, the key."""
        m, n_anim = self.data["summary"], self.data["animation"]["ranks"]
        self.head = title("One slow GPU sets the pace of all of them")
        self.names = VGroup(*[label(f"rank {i}", SMALL_SIZE, MUTED).move_to([X0 - 0.75, self._lane_y(i), 0])
                              for i in range(n_anim)])
        axis_y = self.axis_y = self._lane_y(n_anim - 1) - 0.38
        self.axis = Line([X0, axis_y, 0], [X1, axis_y, 0], color=MUTED, stroke_width=2)
        self.ticks = VGroup()
        for v in (0.95, 1.0, 1.05):
            self.ticks.add(Line([_x(v), axis_y, 0], [_x(v), axis_y - 0.1, 0], color=MUTED, stroke_width=2))
        self.tick_mu = label(f"μ = {fmt_seconds(m['step_time'])}", SMALL_SIZE, MUTED).next_to(
            [_x(1.0), axis_y - 0.1, 0], DOWN, buff=0.08)
        self.tick_slow = label(f"+{fmt_percent(m['slowdown'])}", SMALL_SIZE, MUTED).next_to(
            [_x(1.0 + m["slowdown"]), axis_y - 0.1, 0], DOWN, buff=0.08)
        # the axis starts near μ, not at zero: a break mark and the note say so, so +5% is not read as 2×
        self.axis_break = VGroup(*[Line([X0 - 0.1 + dx, axis_y - 0.12, 0], [X0 + 0.02 + dx, axis_y + 0.12, 0],
                                        color=MUTED, stroke_width=2) for dx in (0.0, 0.09)])
        self.axis_note = label(f"time to the barrier (axis starts at {T_LO:.2f} μ)", SMALL_SIZE, MUTED).next_to(
            [X0, axis_y - 0.1, 0], DOWN, buff=0.3).align_to([X0 - 1.2, 0, 0], LEFT)  # below the tick labels

        self.key = legend([("computing", COMPUTE), ("waiting at the barrier", WAIT), ("the barrier", BARRIER)])
        self.key.move_to([X0 - 1.2, LANE_TOP + 0.62, 0], aligned_edge=LEFT)

    def the_barrier(self) -> None:
        """1. The ranks race to the barrier; all wait for the last."""
        clock = ValueTracker(T_LO)
        bars = self._bars(self.times[0], clock, None)
        with self.beat(f"Each step ends in an all-reduce: all {self.N} GPUs wait at the barrier for the last one, "
                       "and no two ranks take quite the same time"):
            self.play(Write(self.head), FadeIn(self.names), Create(self.axis), FadeIn(self.ticks),
                      FadeIn(self.axis_break), FadeIn(self.tick_mu), FadeIn(self.axis_note), run_time=1.5)
            self.add(bars)
            self.play(clock.animate.set_value(max(self.times[0])), run_time=3.0, rate_func=linear)
            waits = self._waits(self.times[0])
            barrier = self._barrier(max(self.times[0]))
            self.play(Create(barrier), FadeIn(waits), FadeIn(self.key), run_time=1.0)
            self.wait(1.5)
        self.first_race = (bars, waits, barrier)

    def jitter_alone(self) -> None:
        """2. Jitter alone: E[step] = μ + σ·m_N."""
        m, N = self.data["summary"], self.N
        eq = markup("E[step] = μ + σ·m<sub>N</sub>", 26).move_to([PANEL_X, 1.9, 0], aligned_edge=LEFT)
        rows = VGroup(
            label(f"σ/μ = {fmt_percent(m['jitter_cv'])} (assumed)", SMALL_SIZE),
            markup(f"m<sub>N</sub> = {m['m_N']:.2f} at N = {N}", SMALL_SIZE),
            label(f"step +{fmt_percent(m['jitter_factor'] - 1)}", SMALL_SIZE, BARRIER),
        ).arrange(DOWN, aligned_edge=LEFT, buff=0.22).next_to(eq, DOWN, aligned_edge=LEFT, buff=0.35)
        a = self.data["animation"]
        # the barrier is where the slowest rank finishes, late past μ by what m_N measures: here of 8 ranks
        top = LANE_TOP + 0.45
        late = DoubleArrow([_x(1.0), top, 0], [_x(max(self.times[0])), top, 0], buff=0, color=BARRIER,
                           stroke_width=3, tip_length=0.12, max_tip_length_to_length_ratio=0.3)
        mu_line = DashedLine([_x(1.0), self.axis_y, 0], [_x(1.0), top, 0], color=MUTED, stroke_width=2)
        late_label = markup(f"slowest of {a['ranks']}: +{a['first_late_sigma']:.1f}σ "
                            f"(m<sub>{a['ranks']}</sub> = {a['m_anim']:.2f})", SMALL_SIZE).next_to(
            late, UP, buff=0.08).align_to(late, LEFT)
        with self.beat(f"The ranks jitter: with {fmt_percent(m['jitter_cv'])} jitter the slowest of {N} GPUs is "
                       f"{m['m_N']:.1f} standard deviations late on average, "
                       f"so every step is {fmt_percent(m['jitter_factor'] - 1)} longer"):
            self.play(FadeOut(self.key), Create(mu_line), GrowFromEdge(late, LEFT), FadeIn(late_label), run_time=1.2)
            self.play(Write(eq), run_time=1.0)
            self.play(FadeIn(rows, shift=0.2 * UP), Indicate(self.first_race[2], color=BARRIER), run_time=1.2)
            self.wait(1.0)
        self.late_marks = VGroup(late, mu_line, late_label)
        self.eq, self.jitter_rows = eq, rows

    def one_slow_gpu(self) -> None:
        """3. One rank turns slow and the barrier moves with it."""
        m, a, N, slow = self.data["summary"], self.data["animation"], self.N, self.slow
        bars, waits, barrier = self.first_race
        t2 = self.times[1]
        clock2 = ValueTracker(T_LO)
        bars2 = self._bars(t2, clock2, slow)
        added, bound = fmt_count(round(m["slow_marginal_gpu_hours"])), fmt_count(round(m["slow_alone_gpu_hours"]))
        # the headline is the cost on top of the page's jitter; the jitter-free cost is its upper bound
        slow_note = VGroup(
            label(f"rank {slow}: +{fmt_percent(m['slowdown'])} slower,", SMALL_SIZE, SLOW),
            label(f"+{fmt_percent(a['slow_drawn'])} this step with its jitter", SMALL_SIZE, SLOW),
            label(f"step, with jitter: +{fmt_percent(m['slow_factor'] - 1)}", SMALL_SIZE, BARRIER),
            label(f"it adds {added} GPU-h a day", SMALL_SIZE),
            # what it adds rests on the assumed jitter: the page's sweep, from the model
            label(f"(σ/μ swept: {fmt_count(round(m['sweep_slow_added_max']))} to "
                  f"{fmt_count(round(m['sweep_slow_added_min']))})", SMALL_SIZE, MUTED),
            label("no jitter (upper bound):", SMALL_SIZE, MUTED),
            label(f"+{fmt_percent(m['identity_factor'] - 1)}, {bound} GPU-h a day", SMALL_SIZE, MUTED),
        ).arrange(DOWN, aligned_edge=LEFT, buff=0.14).next_to(self.jitter_rows, DOWN, aligned_edge=LEFT, buff=0.3)
        with self.beat(f"One GPU {fmt_percent(m['slowdown'])} slower holds up all {N}: with the jitter it adds "
                       f"{added} GPU-hours a day, {bound} at most"):
            self.play(FadeOut(waits), FadeOut(barrier), FadeOut(self.late_marks), FadeIn(self.key), run_time=0.6)
            self.remove(bars)
            self.add(bars2)
            self.play(clock2.animate.set_value(max(t2)), run_time=3.0, rate_func=linear)
            waits2 = self._waits(t2)
            barrier2 = self._barrier(max(t2))
            self.play(Create(barrier2), FadeIn(waits2), FadeIn(self.tick_slow), run_time=1.0)
            self.play(FadeIn(slow_note, shift=0.2 * UP), run_time=1.0)
            self.wait(2.0)
        self.slow_race = (bars2, waits2, barrier2, slow_note)

    def the_detector(self) -> None:
        """4. Each rank's windowed z-score against the day's threshold; the straggler crosses it."""
        m, a, slow, axis_y = self.data["summary"], self.data["animation"], self.slow, self.axis_y
        bars2, waits2, barrier2, slow_note = self.slow_race
        z = a["z_last"]
        h = m["threshold"]
        z_lo, z_hi = -2.0, max(max(z), h) + 1.0
        zx = lambda v: X0 + (v - z_lo) / (z_hi - z_lo) * (X1 - X0)  # noqa: E731
        zbars = VGroup()
        for i, v in enumerate(z):
            lo, hi = sorted((zx(0.0), zx(v)))
            zbars.add(Rectangle(width=max(hi - lo, 0.02), height=LANE_H, stroke_width=0,
                                fill_color=SLOW if v > h else OK, fill_opacity=0.9)
                      .move_to([(lo + hi) / 2, self._lane_y(i), 0]))
        thr = DashedLine([zx(h), axis_y, 0], [zx(h), LANE_TOP + 0.3, 0], color=BARRIER, stroke_width=4)
        zero = Line([zx(0), axis_y, 0], [zx(0), LANE_TOP + 0.3, 0], color=MUTED, stroke_width=2)
        thr_label = label(f"z > {h:.2f}", SMALL_SIZE, BARRIER).next_to([zx(h), axis_y - 0.05, 0], DOWN, buff=0.08)
        # the detector's scope: compute kernels only, so at TP = 8 it flags the GPU, not its TP group
        z_note = label(f"z-score of compute-kernel time over {m['window']} steps", SMALL_SIZE,
                       MUTED).move_to(self.axis_note)
        z_axis = Line([X0, axis_y, 0], [X1, axis_y, 0], color=MUTED, stroke_width=2)
        det = VGroup(
            label(f"flagged {m['delay99_steps']} steps after onset", SMALL_SIZE, SLOW),
            label(f"({fmt_seconds(m['delay99_seconds'])}, {fmt_percent(m['delay_confidence'])} of the time)",
                  SMALL_SIZE),
            label(f"{m['false_alarms_per_day']:g} false alarm a day", SMALL_SIZE, MUTED),
            label(f"costs {sig(m['cost_before_detect_jitter'], 2)} GPU-h until then", SMALL_SIZE),
            label(f"({sig(m['cost_before_detect'], 2)} if no jitter: upper bound)", SMALL_SIZE, MUTED),
        ).arrange(DOWN, aligned_edge=LEFT, buff=0.22).move_to([PANEL_X, -0.9, 0], aligned_edge=LEFT)
        with self.beat(f"A z-score of compute-kernel time alone flags the slow GPU, not its TP group of "
                       f"{m['scenario_tp']}, within {m['delay99_steps']} steps ({fmt_seconds(m['delay99_seconds'])})"):
            self.play(FadeOut(bars2), FadeOut(waits2), FadeOut(barrier2), FadeOut(self.ticks), FadeOut(self.tick_mu),
                      FadeOut(self.axis_break),
                      FadeOut(self.key), FadeOut(self.tick_slow), FadeOut(slow_note), FadeOut(self.jitter_rows),
                      FadeOut(self.eq), ReplacementTransform(self.axis_note, z_note),
                      ReplacementTransform(self.axis, z_axis), run_time=0.8)
            self.play(Create(zero), *[FadeIn(b, shift=0.2 * RIGHT) for b in zbars], run_time=1.5)
            self.play(Create(thr), FadeIn(thr_label), run_time=1.0)
            self.play(FadeIn(det, shift=0.2 * UP), self.names[slow].animate.set_color(SLOW), run_time=1.0)
            self.wait(3.0)
        self.detector_view = VGroup(zbars, thr, zero, thr_label, det)
        self.z_note, self.z_axis = z_note, z_axis

    def the_flight_recorder(self) -> None:
        """5. The flight recorder's records: every rank's mean gradient all-reduce (thick) and TP all-reduce
        (thin) grow; the slow rank's are the shortest of both, its TP partner's TP all-reduces long."""
        m, a = self.data["summary"], self.data["animation"]
        dur, dur_tp, slow, tp = a["fr_dur_dp"], a["fr_dur_tp"], a["fr_slow_rank"], a["fr_tp"]
        group = [r // tp for r in range(len(dur))]
        top = max(dur)
        names = VGroup(*[label(f"rank {i}", SMALL_SIZE, SLOW if i == slow else MUTED)
                         .move_to([X0 - 0.75, self._lane_y(i), 0]) for i in range(len(dur))])
        grow = ValueTracker(0.0)
        bars = VGroup()
        # one seconds scale for both kinds: the TP stage's difference is small beside the gradient wait
        for i, (d, d_tp) in enumerate(zip(dur, dur_tp, strict=True)):
            colour = SLOW if i == slow else (WAIT if group[i] == group[slow] else IN_COLLECTIVE)
            for value, height, dy, fill in ((d, LANE_H * 0.62, 0.07, colour), (d_tp, LANE_H * 0.3, -0.15, TP_STAGE)):

                def make(i=i, value=value, height=height, dy=dy, fill=fill):
                    w = max(grow.get_value() * value / top * (X1 - X0), 0.001)
                    return Rectangle(width=w, height=height, stroke_width=0, fill_color=fill,
                                     fill_opacity=0.9).move_to([X0 + w / 2, self._lane_y(i) + dy, 0])

                bars.add(always_redraw(make))
        ms = lambda v: f"{v * 1e3:.0f} ms"  # noqa: E731
        other = next(i for i in range(len(dur)) if group[i] != group[slow])
        partner = next(i for i in range(len(dur)) if group[i] == group[slow] and i != slow)
        tags = VGroup(
            label(ms(dur[slow]), SMALL_SIZE, SLOW).next_to([X0 + dur[slow] / top * (X1 - X0), self._lane_y(slow), 0],
                                                          RIGHT, buff=0.1),
            # inside the longest bars' end, clear of the text column on the right
            # one rank's bar, named as such: the caption and the page give the mean over those ranks
            label(f"rank {other}: {ms(dur[other])}", SMALL_SIZE).move_to([X1 - 0.1, self._lane_y(other), 0],
                                                                        aligned_edge=RIGHT),
            label(f"TP partner: waits {ms(dur_tp[partner])} per TP all-reduce", SMALL_SIZE, MUTED).next_to(
                [X0 + dur[partner] / top * (X1 - X0), self._lane_y(partner), 0], RIGHT, buff=0.1),
        )
        note = label("mean recorded all-reduce: thick gradient, thin TP", SMALL_SIZE, MUTED).move_to(self.z_note)
        side = VGroup(
            label("naive reading: all-reduces", SMALL_SIZE),
            label("are slow, blame the network", SMALL_SIZE),
            label("this page's late-entry script:", SMALL_SIZE, MUTED),
            label(f"1. TP group of ranks {m['fr_group_ranks']} enters", SMALL_SIZE),
            label("   the gradient all-reduce last", SMALL_SIZE),
            label(f"2. inside it, rank {m['fr_suspect']} enters", SMALL_SIZE, SLOW),
            # its own records are the shortest: entering last, it waits for no one
            label("   the TP all-reduces last", SMALL_SIZE, SLOW),
            label(f"   and records the shortest, {ms(dur_tp[slow])}", SMALL_SIZE, SLOW),
        ).arrange(DOWN, aligned_edge=LEFT, buff=0.14).move_to([PANEL_X, -0.5, 0], aligned_edge=LEFT)
        with self.beat(f"The flight recorder: rank {slow} has the shortest all-reduces, "
                       f"{ms(dur[slow])}; ranks outside its TP group record {ms(m['fr_dp_others_mean'])} on average, "
                       f"and inside the group the late-entry script finds rank {m['fr_suspect']}"):
            self.play(FadeOut(self.detector_view), ReplacementTransform(self.names, names),
                      ReplacementTransform(self.z_note, note), run_time=0.8)
            self.add(bars)
            self.play(grow.animate.set_value(1.0), run_time=2.5, rate_func=linear)
            self.play(FadeIn(tags), run_time=0.6)
            self.play(FadeIn(side, shift=0.2 * UP), Indicate(names[slow], color=SLOW), run_time=1.2)
            self.wait(2.5)
