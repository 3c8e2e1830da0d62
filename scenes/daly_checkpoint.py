"""daly-checkpoint · Daly's formula: optimal checkpoint frequency.

One sampled job timeline, drawn from the model's data rather than simulated
here: compute blocks grow, a checkpoint is written every τ, a failure throws
away the work since the last checkpoint, the job restarts (R) and redoes the
lost work. Then the trade-off (checkpoint too often, too rarely, just right)
and the two formulas, a dot riding the waste curve down to its flat minimum. Every number comes from self.data
(models.daly_checkpoint.daly_interval).
"""

from __future__ import annotations

import numpy as np
from manim import (
    DOWN,
    LEFT,
    RIGHT,
    UP,
    ChangeDecimalToValue,
    Create,
    CurvedArrow,
    Dot,
    FadeIn,
    FadeOut,
    GrowFromEdge,
    Line,
    Rectangle,
    ValueTracker,
    VGroup,
    VMobject,
    Write,
    linear,
)

from design import palette, sizes
from models.units import MINUTE, fmt_bytes, fmt_count, fmt_percent, fmt_seconds
from scenes.style import (
    BODY_SIZE,
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

COMPUTE = palette.role("compute")
SAVE = palette.role("save")
FAIL = palette.role("failure")
REWORK = palette.role("rework")
RESTART = palette.role("restart")
COLOURS = {"compute": COMPUTE, "save": SAVE, "rework": REWORK, "restart": RESTART}

BAR_LEFT, BAR_WIDTH = -6.3, 12.6
BAR_Y, BAR_H = 0.3, 0.7
SAVE_W = 0.07  # a save lasts seconds: drawn as a tick, wider than to scale
NOTE_Y = BAR_Y - BAR_H / 2 - 0.72  # notes under the time axis


def _progress_fn(blocks: list[dict]):
    """Useful work done (s) at wall time t, from the model's timeline blocks.

    A block owns (start, end]; at a failure's instant the lost block still
    shows its work, just after it the restart shows the rolled-back value.
    """
    spans = [b for b in blocks if b["end"] > b["start"]]
    ends = np.array([b["end"] for b in spans])

    def progress(t: float) -> float:
        i = min(int(np.searchsorted(ends, t, side="left")), len(spans) - 1)
        b = spans[i]
        f = np.clip((t - b["start"]) / (b["end"] - b["start"]), 0.0, 1.0)
        return b["work_start"] + f * (b["work_end"] - b["work_start"])

    return progress


def _shown(value):
    """An updater for a whole-number DecimalNumber that re-typesets only on change
    (DecimalNumber.set_value rebuilds its glyphs: ~10 ms a call)."""

    def update(d):
        v = round(value())
        if v != round(d.get_value()):
            d.set_value(v)

    return update


class CheckpointTimeline(ExhibitScene):
    scene_id = "daly-checkpoint"

    def construct(self) -> None:
        self.m, self.p, self.a = self.data["summary"], self.data["params"], self.data["animation"]
        self.blocks = self.a["timeline"]
        self.total = self.blocks[-1]["end"]
        self.scale = BAR_WIDTH / self.total
        self.fail = next(b for b in self.blocks if b["kind"] == "failure")
        self.t_fail = self.fail["start"]
        self.restart_block = next(b for b in self.blocks if b["kind"] == "restart" and not b["lost"])
        self.clock = ValueTracker(0.0)
        self.progress = _progress_fn(self.blocks)
        for beat in (self.the_failure_record, self.compute_then_save, self.a_failure, self.restart_then_rework,
                     self.the_job_finishes, self.the_tradeoff, self.young_and_daly):
            beat()

    def _x_of(self, t: float) -> float:
        """The timeline's x for wall time t."""
        return BAR_LEFT + t * self.scale

    def _follow(self, tr: ValueTracker) -> None:
        """Updater: the useful-work tracker follows the clock."""
        tr.set_value(self.progress(self.clock.get_value()))

    def the_failure_record(self) -> None:
        m, p = self.m, self.p
        with self.beat(f"Llama 3: {fmt_count(p['interruptions'])} unexpected interruptions in "
                       f"{fmt_seconds(p['observation_window'])}, one every {fmt_seconds(m['mtbf'])}; "
                       f"{fmt_count(m['planned_interruptions'])} planned stops lose no work."):
            head = title("How often should a big job save its state?")
            record = markup(
                f"{fmt_count(p['gpus'])} GPUs · {fmt_count(p['interruptions'])} interruptions in "
                f"{fmt_seconds(p['observation_window'])}  →  "
                f"<b>M = {fmt_seconds(m['mtbf'])}</b> between failures",
                size=BODY_SIZE - 2, color=INK).next_to(head, DOWN, buff=0.35)
            strip, ticks, count = self._interruption_strip(p["observation_window"], m["mtbf"],
                                                           p["interruptions"])
            self.play(Write(head), FadeIn(strip), FadeIn(count), run_time=1.2)
            self.play(FadeIn(record, shift=0.2 * DOWN), run_time=1.0)
            self.play(Create(ticks, lag_ratio=1.0), ChangeDecimalToValue(count[1], p["interruptions"]),
                      run_time=2.0, rate_func=linear)
            # the scheduled stops the record counts apart: above the bar, left out of M
            planned_n = int(m["planned_interruptions"])
            step = BAR_WIDTH / p["observation_window"]
            spacing = p["observation_window"] / max(planned_n, 1)
            y0 = BAR_Y + BAR_H / 2
            planned = VGroup(*[Line([BAR_LEFT + (k + 0.5) * spacing * step, y0 + 0.05, 0],
                                    [BAR_LEFT + (k + 0.5) * spacing * step, y0 + 0.3, 0],
                                    color=MUTED, stroke_width=2) for k in range(planned_n)])
            p_count = counter("planned, not in M", planned_n, color=MUTED)
            p_count.next_to(planned, UP, buff=0.15).align_to(count, RIGHT)
            p_count[1].set_value(0)
            self.play(FadeIn(p_count), run_time=0.3)
            self.play(Create(planned, lag_ratio=1.0), ChangeDecimalToValue(p_count[1], planned_n),
                      run_time=1.6, rate_func=linear)
        self.record, self.opening = record, VGroup(strip, ticks, count, planned, p_count)

    def _interruption_strip(self, window: float, mtbf: float, n: int) -> tuple[VGroup, VGroup, VGroup]:
        """The run's days as a bar, one tick per interruption at the mean spacing M (the record gives
        counts, not times), and a counter that counts them."""
        bar = Rectangle(width=BAR_WIDTH, height=BAR_H, stroke_color=MUTED, stroke_width=1.5)
        bar.move_to([BAR_LEFT + BAR_WIDTH / 2, BAR_Y, 0])
        days = label(f"{fmt_seconds(window)} of training", size=SMALL_SIZE, color=MUTED)
        days.next_to(bar, DOWN, buff=0.15).align_to(bar, LEFT)
        step = BAR_WIDTH / window
        ticks = VGroup(*[Line([BAR_LEFT + (k + 0.5) * mtbf * step, BAR_Y - BAR_H / 2, 0],
                              [BAR_LEFT + (k + 0.5) * mtbf * step, BAR_Y + BAR_H / 2, 0],
                              color=FAIL, stroke_width=0.6) for k in range(n)])
        count = counter("interruptions", n, color=FAIL)  # laid out at its widest, then counted from 0
        count.next_to(bar, DOWN, buff=0.15).align_to(bar, RIGHT)
        count[1].set_value(0)
        return VGroup(bar, days), ticks, count

    def compute_then_save(self) -> None:
        """The timeline: compute τ, save δ, repeat, up to the first failure."""
        m, blocks, clock, x_of, t_fail = self.m, self.blocks, self.clock, self._x_of, self.t_fail
        with self.beat(f"Compute for τ = {fmt_seconds(m['optimal_interval'])}, then save "
                       f"{fmt_bytes(m['checkpoint_bytes'])} of state in δ = "
                       f"{fmt_seconds(m['checkpoint_cost'])}."):
            key = legend([("compute", COMPUTE), ("checkpoint save", SAVE),
                          ("restart", RESTART), ("rework", REWORK)])
            key.next_to(self.record, DOWN, buff=0.3)
            frame = Rectangle(width=BAR_WIDTH, height=BAR_H, stroke_color=MUTED, stroke_width=1.5)
            frame.move_to([BAR_LEFT + BAR_WIDTH / 2, BAR_Y, 0])
            axis = self._time_axis(self.total, x_of)
            wall_c = counter("wall time", 0, unit="min")
            work_c = counter("useful work", 0, unit="min", color=COMPUTE)
            counters = VGroup(wall_c, work_c).arrange(RIGHT, buff=1.4).move_to([0, -1.75, 0])
            work_tr = ValueTracker(0.0)
            wall_c[1].add_updater(_shown(lambda: clock.get_value() / MINUTE))
            work_c[1].add_updater(_shown(lambda: work_tr.get_value() / MINUTE))
            work_tr.add_updater(self._follow)

            rects = VGroup(*[self._block(b, x_of, clock) for b in blocks
                             if b["kind"] in COLOURS and b["end"] > b["start"]])
            self.play(FadeOut(self.opening), run_time=0.4)
            self.play(FadeIn(key), Create(frame), FadeIn(axis), FadeIn(counters), run_time=1.0)
            # static things first: Cairo redraws every mobject after the first one
            # with an updater, so the moving ones go last
            self.remove(counters)
            self.add(work_tr, rects, counters)
            note = label(f"each save: δ = {fmt_seconds(m['checkpoint_cost'])} (tick drawn wider)",
                         size=SMALL_SIZE - 2, color=SAVE)
            first_save = next(b for b in blocks if b["kind"] == "save")
            note.next_to(frame, UP, buff=0.55).set_x(x_of(first_save["start"]) + 1.8)
            pointer = Line(note.get_bottom() + 0.05 * DOWN + 1.7 * LEFT,
                           [x_of(first_save["start"]), BAR_Y + BAR_H / 2 + 0.05, 0],
                           color=SAVE, stroke_width=2)
            t1 = first_save["end"] + 0.4 * (t_fail - first_save["end"])
            self.play(clock.animate.set_value(first_save["end"]), run_time=1.4, rate_func=linear)
            self.play(FadeIn(note), Create(pointer), run_time=0.6)
            self.play(clock.animate.set_value(t1), run_time=2.0, rate_func=linear)
            self.play(FadeOut(note), FadeOut(pointer), run_time=0.4)
            self.play(clock.animate.set_value(t_fail), run_time=2.2, rate_func=linear)
        self.key, self.frame, self.axis, self.counters = key, frame, axis, counters
        self.work_tr, self.rects = work_tr, rects

    def a_failure(self) -> None:
        """A failure: the work since the last checkpoint is lost."""
        blocks, work_tr, x_of = self.blocks, self.work_tr, self._x_of
        lost_work = self.fail["work_start"]
        lost_blocks = [b for b in blocks
                       if b["lost"] and b["kind"] in ("compute", "rework", "save")]
        lost_amount = max(b["work_end"] for b in lost_blocks) - lost_work
        with self.beat(f"A failure: the {fmt_seconds(lost_amount)} of work since the last checkpoint "
                       "is lost; the job rolls back."):
            xf = x_of(self.t_fail)
            cross = VGroup(
                Line([-0.22, 0.22, 0], [0.22, -0.22, 0], color=FAIL, stroke_width=7),
                Line([-0.22, -0.22, 0], [0.22, 0.22, 0], color=FAIL, stroke_width=7),
            ).move_to([xf, BAR_Y + BAR_H / 2 + 0.32, 0])
            fail_t = label("failure", size=SMALL_SIZE, color=FAIL).next_to(cross, UP, buff=0.1)
            lost_mobs = [r for r in self.rects if r.block["lost"]]
            x_ckpt = x_of(lost_blocks[0]["start"])
            y_arc = BAR_Y - BAR_H / 2 - 0.08
            arrow = CurvedArrow([xf, y_arc, 0], [x_ckpt, y_arc, 0], angle=-1.6, color=FAIL,
                                stroke_width=3, tip_length=0.16)
            back_t = label("back to the last checkpoint", size=SMALL_SIZE - 2, color=FAIL)
            back_t.move_to([x_ckpt, NOTE_Y, 0])
            work_tr.clear_updaters()
            self.play(FadeIn(cross, scale=1.6), FadeIn(fail_t), run_time=0.6)
            self.play(*[r.animate.set_fill(FAIL, opacity=0.3).set_stroke(FAIL, 2, opacity=1)
                        for r in lost_mobs],
                      Create(arrow), FadeIn(back_t), work_tr.animate.set_value(lost_work),
                      run_time=1.2)
            self.wait(1.4)
        self.cross, self.fail_t, self.rollback = cross, fail_t, (arrow, back_t)

    def restart_then_rework(self) -> None:
        """Restart R, then redo the lost work (rework)."""
        p, blocks, clock, x_of, restart = self.p, self.blocks, self.clock, self._x_of, self.restart_block
        with self.beat(f"Restarting costs R = {fmt_seconds(p['restart_cost'])} (assumed); then the lost "
                       "work is redone (orange) before new progress."):
            arrow, back_t = self.rollback
            self.play(FadeOut(arrow), FadeOut(back_t), run_time=0.4)
            self.work_tr.add_updater(self._follow)
            r_lbl = label(f"restart R = {fmt_seconds(p['restart_cost'])}", size=SMALL_SIZE - 2,
                          color=RESTART)
            r_lbl.move_to([x_of((restart["start"] + restart["end"]) / 2), NOTE_Y, 0])
            self.play(clock.animate.set_value(restart["end"]), FadeIn(r_lbl), run_time=2.0,
                      rate_func=linear)
            rework = next((b for b in blocks if b["kind"] == "rework" and not b["lost"]
                           and b["start"] >= restart["end"]), None)
            w_lbl = None
            if rework is not None:
                w_lbl = label("rework", size=SMALL_SIZE - 2, color=REWORK)
                w_lbl.move_to([x_of((rework["start"] + rework["end"]) / 2) + 0.2,
                               BAR_Y + BAR_H / 2 + 0.25, 0])
                self.play(clock.animate.set_value(rework["end"]), FadeIn(w_lbl), run_time=1.2,
                          rate_func=linear)
        self.r_lbl, self.w_lbl = r_lbl, w_lbl

    def the_job_finishes(self) -> None:
        """The job finishes: useful work against wall time."""
        blocks, total = self.blocks, self.total
        eff = blocks[-1]["work_end"] / total
        fails = sum(b["kind"] == "failure" for b in blocks)
        # a short run whose first failure sample_timeline places on purpose: its share is not the
        # expected share at τ*
        placed = "failure placed" if fails == 1 else "first failure placed"
        with self.beat(f"Illustrative run, {placed} on purpose: {fmt_percent(eff)} useful. "
                       f"Long-run expected: {fmt_percent(self.m['efficiency_optimal'])}."):
            self.play(self.clock.animate.set_value(total), run_time=3.2, rate_func=linear)
            ratio = label(f"illustrative run (failure placed): useful / wall = {fmt_percent(eff)}   ·   "
                          f"expected: {fmt_percent(self.m['efficiency_optimal'])}", size=SMALL_SIZE + 2, color=INK)
            ratio.next_to(self.counters, DOWN, buff=0.3)
            self.play(FadeIn(ratio), run_time=0.6)
            self.wait(1.4)
        self.ratio = ratio

    def the_tradeoff(self) -> None:
        """The trade-off: too often, too rarely, just right."""
        m, tr, key = self.m, self.a["tradeoff"], self.key
        with self.beat(f"Save too often and writes pile up; too rarely and rework does. Best: every "
                       f"{fmt_seconds(m['optimal_interval'])}, {fmt_percent(m['waste_optimal'])} lost."):
            timeline = (self.rects, self.counters, self.ratio, self.axis, self.frame, self.cross, self.fail_t,
                        self.r_lbl)
            for mob in (*timeline, key):
                mob.clear_updaters()
            old = VGroup(*timeline)
            if self.w_lbl is not None:
                old.add(self.w_lbl)
            self.play(FadeOut(old), run_time=0.8)
            rows, sub = self._tradeoff_rows(tr, m)
            block = VGroup(rows, sub)
            block.shift((key.get_bottom()[1] - 0.5 - block.get_top()[1]) * UP)
            for row in rows:
                self.play(FadeIn(row[0]), GrowFromEdge(row[1], LEFT), FadeIn(row[2]), run_time=0.9)
            self.play(FadeIn(sub), run_time=0.5)
            self.wait(1.6)
        self.tradeoff = VGroup(rows, sub, key)

    def young_and_daly(self) -> None:
        """Young and Daly, with the numbers."""
        m, p = self.m, self.p
        with self.beat(f"Young: √(2δM) = {fmt_seconds(m['young_interval'])}. Daly's higher-order "
                       f"optimum: {fmt_seconds(m['daly_interval'])}, the exact minimum here."):
            young = markup(f"Young 1974:  τ<sub>Y</sub> = √(2δM) = <b>{fmt_seconds(m['young_interval'])}</b>",
                           size=BODY_SIZE)
            daly = markup("Daly 2006:  τ<sub>D</sub> = √(2δM)·[1 + (1/3)√(δ/2M) + (1/9)(δ/2M)] − δ",
                          size=BODY_SIZE)
            daly_v = markup(f"= <b>{fmt_seconds(m['daly_interval'])}</b>, the exact minimum to these digits",
                            size=BODY_SIZE)
            given = markup(
                f"δ = {fmt_seconds(m['checkpoint_cost'])}, M = {fmt_seconds(m['mtbf'])}, "
                f"R = {fmt_seconds(p['restart_cost'])} (Daly's example; Llama 3 gives no R):",
                size=SMALL_SIZE, color=MUTED)
            loss = markup(
                f"waste <b>{fmt_percent(m['waste_optimal'])}</b> = {fmt_count(m['gpu_hours_lost_per_day'])} "
                "GPU-hours per day of useful compute",
                size=SMALL_SIZE, color=MUTED)
            limit = markup(
                f"with the {fmt_count(m['planned_interruptions'])} planned stops, useful time reaches "
                f"{fmt_percent(p['reported_efficiency'])} only while R ≤ {fmt_seconds(m['restart_for_reported'])}",
                size=SMALL_SIZE, color=MUTED)
            formulas = VGroup(young, daly, daly_v).arrange(DOWN, buff=0.3)
            daly_v.align_to(daly, RIGHT)
            numbers = VGroup(given, loss, limit).arrange(DOWN, buff=0.12)
            curve, markers, dot, path, waste_c = self._waste_curve(m)
            formulas.arrange(DOWN, buff=0.18)
            daly_v.align_to(daly, RIGHT)
            board = VGroup(formulas, VGroup(curve, waste_c, *markers), numbers).arrange(DOWN, buff=0.3)
            board.move_to([0, (self.record.get_bottom()[1] + sizes.CAPTION_BAND_TOP) / 2, 0])
            self.play(FadeOut(self.tradeoff), run_time=0.6)
            self.play(FadeIn(young, shift=0.2 * UP), FadeIn(curve), run_time=0.9)
            self.play(FadeIn(daly, shift=0.2 * UP), FadeIn(daly_v, shift=0.2 * UP), run_time=0.9)
            # a dot rides the waste curve from saving too often down to its flat minimum, its waste on screen
            dot.move_to(path.get_start())
            tracker = ValueTracker(0.0)
            dot.add_updater(lambda d: d.move_to(path.point_from_proportion(tracker.get_value())))
            def show_waste(n):
                n.set_value(100 * self._waste_at(tracker.get_value()))
                waste_c[2].next_to(n, RIGHT, buff=0.03)  # "7.37%", as the page writes it

            waste_c[1].add_updater(show_waste)
            self.add(dot, waste_c)
            self.play(tracker.animate.set_value(self._opt_fraction), run_time=1.8)
            dot.clear_updaters()
            waste_c[1].clear_updaters()
            self.play(*[FadeIn(mk, shift=0.25 * (DOWN if i == 0 else UP)) for i, mk in enumerate(markers)],
                      run_time=0.6)
            self.play(FadeIn(numbers), run_time=0.7)
            self.wait(1.0)

    def _waste_curve(self, m: dict):
        """The waste 1 − T_s/T_w against τ (log) over the trade-off's range τ*/f … f·τ*, a dot to ride it,
        its path, Young's and Daly's marks, and a waste counter."""
        ser, tr = self.data["series"], self.a["tradeoff"]
        tau, waste = np.asarray(ser["tau"], dtype=float), np.asarray(ser["waste"], dtype=float)
        lo, hi = tr["tau"][0], tr["tau"][-1]
        keep = (tau >= lo * (1 - 1e-9)) & (tau <= hi * (1 + 1e-9))
        tau, waste = tau[keep], waste[keep]
        width, height = 7.0, 1.1
        w_lo, w_hi = float(waste.min()), float(waste.max())

        def pt(t: float, w: float):
            x = -width / 2 + width * (np.log(t) - np.log(lo)) / (np.log(hi) - np.log(lo))
            return [x, height * (w - w_lo) / (w_hi - w_lo), 0]

        path = VMobject(stroke_color=INK, stroke_width=3).set_points_as_corners([pt(t, w) for t, w in
                                                                                 zip(tau, waste, strict=True)])
        base = Line(pt(lo, w_lo) + np.array([0, -0.1, 0]), pt(hi, w_lo) + np.array([0, -0.1, 0]),
                    color=MUTED, stroke_width=1.5)
        ends = VGroup(label(f"τ = {fmt_seconds(lo)}", size=SMALL_SIZE - 2, color=MUTED)
                      .next_to(base, DOWN, buff=0.1).align_to(base, LEFT),
                      label(f"{fmt_seconds(hi)} (log)", size=SMALL_SIZE - 2, color=MUTED)
                      .next_to(base, DOWN, buff=0.1).align_to(base, RIGHT))
        i_opt = int(np.argmin(waste))
        # the dot's path runs from the left end to the minimum: share of the path's length there
        seg = np.linalg.norm(np.diff(np.array([pt(t, w) for t, w in zip(tau, waste, strict=True)]), axis=0), axis=1)
        cum = np.concatenate([[0.0], np.cumsum(seg)]) / seg.sum()
        self._opt_fraction = float(cum[i_opt])
        self._waste_at = lambda f: float(np.interp(f, cum, waste))
        markers = []
        for name, t, side, colour in (("Young", m["young_interval"], UP, MUTED),
                                      ("Daly", m["daly_interval"], DOWN, SAVE)):
            w = float(np.interp(np.log(t), np.log(tau), waste))
            tick = Line(np.array(pt(t, w)) + [0, -0.16, 0], np.array(pt(t, w)) + [0, 0.16, 0], color=colour,
                        stroke_width=5)
            markers.append(VGroup(tick, label(name, size=SMALL_SIZE - 2, color=colour)
                                  .next_to(tick, side, buff=0.06)))
        dot = Dot(radius=0.09, color=SAVE)
        waste_c = counter("waste", 100 * float(waste[0]), decimals=2, unit="%")
        waste_c[2].clear_updaters()  # the % follows the number closely, "7.37%" as on the page
        waste_c[2].next_to(waste_c[1], RIGHT, buff=0.03)
        curve = VGroup(base, ends, path)
        waste_c.next_to(base, RIGHT, buff=0.4).align_to(path, UP)
        return curve, markers, dot, path, waste_c

    # --- scene helpers ---------------------------------------------------------
    def _block(self, b: dict, x_of, clock: ValueTracker) -> Rectangle:
        """A timeline block that grows from its left edge as the clock passes it."""
        x0, x1 = x_of(b["start"]), x_of(b["end"])
        colour = COLOURS[b["kind"]]
        if b["kind"] == "save":  # seconds long: a tick standing proud of the bar
            rect = Rectangle(width=SAVE_W, height=BAR_H + 0.2, stroke_width=0,
                             fill_color=colour, fill_opacity=0)
            rect.move_to([(x0 + x1) / 2, BAR_Y, 0])
            rect.add_updater(lambda r: r.set_fill(opacity=1.0 if clock.get_value() >= b["start"]
                                                  else 0.0))
        else:
            width = max(x1 - x0, 1e-3)
            rect = Rectangle(width=width, height=BAR_H, stroke_color=palette.VIDEO["bg"],
                             stroke_width=1, fill_color=colour, fill_opacity=0, stroke_opacity=0)

            last = [-1.0]

            def grow(r, b=b, x0=x0, width=width):
                f = float(np.clip((clock.get_value() - b["start"]) / (b["end"] - b["start"]), 0, 1))
                if f == last[0]:
                    return
                last[0] = f
                w = max(width * f, 1e-3)
                r.stretch_to_fit_width(w)
                r.move_to([x0 + w / 2, BAR_Y, 0])
                if f > 0 and r.get_fill_opacity() == 0:
                    r.set_fill(opacity=1.0).set_stroke(opacity=1.0)

            rect.add_updater(grow)
        rect.block = b
        return rect

    def _time_axis(self, total: float, x_of) -> VGroup:
        """Wall-clock ticks under the bar, every 10 minutes."""
        y = BAR_Y - BAR_H / 2
        step = 10 * MINUTE
        ticks = VGroup()
        t = 0.0
        while t <= total + 1e-9:
            x = x_of(t)
            ticks.add(Line([x, y - 0.02, 0], [x, y - 0.14, 0], color=MUTED, stroke_width=1.5))
            ticks.add(label(f"{t / MINUTE:g} min", size=SMALL_SIZE - 2, color=MUTED)
                      .move_to([x, y - 0.3, 0]))
            t += step
        return ticks

    def _tradeoff_rows(self, tr: dict, m: dict) -> tuple[VGroup, VGroup]:
        """Three stacked bars of waste: writes, lost work and restarts, at τ*/f, τ*, τ*·f."""
        names = ["too often", "optimum", "too rarely"]
        top = max(tr["waste"])
        max_w = 5.0
        rows = VGroup()
        for i, name in enumerate(names):
            head = markup(f"{name}: every <b>{fmt_seconds(tr['tau'][i])}</b>",
                          size=SMALL_SIZE + 2, color=INK if i == 1 else MUTED)
            parts = [(tr["save"][i], SAVE), (tr["lost"][i], REWORK), (tr["restart"][i], RESTART)]
            wall = tr["wall_time"][i]
            segs = VGroup(*[Rectangle(width=max(max_w * p / wall / top, 0.02), height=0.42,
                                      stroke_width=0, fill_color=c, fill_opacity=1)
                            for p, c in parts]).arrange(RIGHT, buff=0)
            value = label(f"{fmt_percent(tr['waste'][i])} lost", size=SMALL_SIZE + 2,
                          color=INK if i == 1 else MUTED)
            rows.add(VGroup(head, segs, value))
        rows.arrange(DOWN, buff=0.35)
        for row in rows:
            row[0].set_x(BAR_LEFT + row[0].width / 2)
            row[1].next_to([-1.7, row[0].get_y(), 0], RIGHT, buff=0)
            row[2].next_to(row[1], RIGHT, buff=0.25)
        f = tr["factor"]
        sub = label(f"bars: checkpoint writes · lost work · restarts, at τ*/{f:g}, τ*, {f:g}·τ*",
                    size=SMALL_SIZE - 2, color=MUTED)
        sub.next_to(rows, DOWN, buff=0.25).set_x(0)
        return rows, sub
