"""silent-data-corruption · Silent data corruption & transient bit-flips.

One flipped bit, followed from the weight's 32 bits through the output
layer's matrix multiply into the loss curve: the exponent's top bit sends the
loss to infinity and the detector fires; the lowest mantissa bit changes
nothing anyone can see. Then the odds for a real run and the cost of checking.
Every number comes from self.data (models.silent_data_corruption.silent_corruption).
"""

from __future__ import annotations

import math

import numpy as np
from manim import (
    DOWN,
    LEFT,
    RIGHT,
    UP,
    Axes,
    Create,
    FadeIn,
    FadeOut,
    GrowFromEdge,
    Indicate,
    Line,
    Rectangle,
    Transform,
    VGroup,
    VMobject,
    Write,
)

from design import palette
from models.units import fmt_percent, fmt_seconds
from scenes.style import (
    BODY_SIZE,
    INK,
    MUTED,
    SMALL_SIZE,
    ExhibitScene,
    label,
    markup,
    title,
)

SIGN = palette.role("quaternary")
EXPONENT = palette.role("tertiary")
MANTISSA = palette.role("secondary")
FAIL = palette.role("failure")
CLEAN = palette.role("primary")
ALARM = palette.role("highlight")
OK = palette.role("ok")

BIT_W = 0.40  # 32 cells fill the frame's width: the digits stay legible at 480p
BITS_Y = 1.8


def _field(bit: int) -> str:
    return "sign" if bit == 31 else "exponent" if 23 <= bit <= 30 else "mantissa"


def _sup(n: int) -> str:
    return str(n).translate(str.maketrans("-0123456789", "⁻⁰¹²³⁴⁵⁶⁷⁸⁹"))


def _fmt(v) -> str:
    """A float32 value as the scene shows it: 3 decimals, or × 10ⁿ past a million."""
    if isinstance(v, str):
        return v
    if abs(v) < 1e6:
        return f"{v:.3f}"
    exp = math.floor(math.log10(abs(v)))
    return f"{v / 10**exp:.2f} × 10{str(exp).translate(str.maketrans('-0123456789', '⁻⁰¹²³⁴⁵⁶⁷⁸⁹'))}"


class SilentCorruption(ExhibitScene):
    scene_id = "silent-data-corruption"

    def _bits(self, pattern: str) -> tuple[VGroup, dict]:
        """32 boxes, bit 31 on the left, coloured by field; returns the group and bit → (box, digit)."""
        cells, index = VGroup(), {}
        for pos, ch in enumerate(pattern):
            bit = 31 - pos
            colour = {"sign": SIGN, "exponent": EXPONENT, "mantissa": MANTISSA}[_field(bit)]
            box = Rectangle(width=BIT_W, height=0.62, stroke_color=colour, stroke_width=2,
                            fill_color=colour, fill_opacity=0.18)
            box.move_to([(pos - 15.5) * BIT_W, BITS_Y, 0])
            digit = label(ch, size=BODY_SIZE).move_to(box)
            cells.add(VGroup(box, digit))
            index[bit] = (box, digit)
        return cells, index

    def construct(self) -> None:
        self.m, self.p, self.a = self.data["summary"], self.data["params"], self.data["animation"]
        self.mm = self.a["matmul"]
        self.pattern = self.a["weight_bits"]
        self.xb, self.mb = self.a["exponent_bit"], self.a["mantissa_bit"]
        self.flip = self.a["flip_step"]
        self.the_weights_bits()
        self.flip_the_exponents_top_bit()
        self.through_the_matrix_multiply()
        self.into_the_loss_curve()
        self.the_mantissa_flip()
        self.the_cost_of_checking()

    def the_weights_bits(self) -> None:
        m, pattern = self.m, self.pattern
        with self.beat(f"A float32 weight is {len(pattern)} bits: a sign, {m['exponent_bits']} exponent bits and "
                       f"{m['float32_mantissa_bits']} mantissa bits. "
                       f"This one holds {m['weight_before']:.3f}."):
            head = title("How does a wrong answer hide in a training run?")
            self.cells, index = self._bits(pattern)
            self.index = index
            self.names = VGroup(
                label("sign", size=SMALL_SIZE, color=SIGN).next_to(index[31][0], UP, buff=0.15),
                label(f"exponent ({m['exponent_bits']} bits)", size=SMALL_SIZE, color=EXPONENT)
                .next_to(VGroup(index[30][0], index[23][0]), UP, buff=0.15),
                label(f"mantissa ({m['float32_mantissa_bits']} bits)", size=SMALL_SIZE, color=MANTISSA)
                .next_to(VGroup(index[22][0], index[0][0]), UP, buff=0.15),
            )
            self.names[0].align_to(index[31][0], LEFT)  # inside the safe frame
            self.value = markup(f"w = <b>{m['weight_before']:.3f}</b>", size=BODY_SIZE).next_to(self.cells, DOWN,
                                                                                                buff=0.35)
            self.play(Write(head), run_time=1.0)
            self.play(FadeIn(self.cells, lag_ratio=0.03), FadeIn(self.names), run_time=1.6)
            self.play(FadeIn(self.value, shift=0.2 * DOWN), run_time=0.8)
            self.wait(1.2)

    def flip_the_exponents_top_bit(self) -> None:
        m, xb = self.m, self.xb
        box30, digit30 = self.index[xb]
        with self.beat(f"Flip bit {xb}, the exponent's top bit: the weight becomes "
                       f"{m['weight_exponent_text']}, a factor 2{_sup(m['flip_factor_log2'])} larger."):
            new_digit = label("1" if digit30.text == "0" else "0", size=BODY_SIZE, color=FAIL).move_to(box30)
            new_value = markup(f"w = <b>{m['weight_exponent_text']}</b>", size=BODY_SIZE, color=FAIL).move_to(
                self.value)
            self.play(box30.animate.set_fill(FAIL, opacity=0.6).set_stroke(FAIL), run_time=0.6)
            self.play(Transform(digit30, new_digit), Transform(self.value, new_value), run_time=1.0)
            self.wait(1.8)

    def through_the_matrix_multiply(self) -> None:
        """A few rows of the output layer's a·w, the flipped weight's among them, and the logit it makes."""
        m, mm = self.m, self.mm
        i = mm["unit"]
        acts, ws = mm["activations"], mm["column_weights"]
        shown = sorted({0, 1, i, len(acts) - 1} if i not in (0, 1, len(acts) - 1) else {0, 1, 2, len(acts) - 1})
        with self.beat(f"In the output layer's matrix multiply it meets an activation of {mm['activation']:.2f}: "
                       f"one logit becomes {m['logit_after_text']}."):
            self.play(FadeOut(self.cells), FadeOut(self.names), self.value.animate.move_to([0, 2.35, 0]), run_time=0.8)
            rows = VGroup()
            for k in shown:
                bad = k == i
                w_txt = m["weight_exponent_text"] if bad else f"{ws[k]:.3f}"
                row = VGroup(
                    label(f"a{k} = {acts[k]:.2f}", size=SMALL_SIZE, color=INK),
                    label("×", size=SMALL_SIZE, color=MUTED),
                    label(f"w{k} = {w_txt}", size=SMALL_SIZE, color=FAIL if bad else INK),
                ).arrange(RIGHT, buff=0.2)
                rows.add(row)
            dots = label("…", size=SMALL_SIZE, color=MUTED)
            rows.insert(len(rows) - 1, dots)
            rows.arrange(DOWN, buff=0.16, aligned_edge=LEFT).move_to([-2.6, -0.6, 0])
            brace = Line([0.6, 0.7, 0], [0.6, -1.9, 0], color=MUTED, stroke_width=2)
            before = mm["logits_before"][mm["column"]]
            after = mm["logits_after"][mm["column"]]
            sum_before = markup(f"logit = Σ a·w = {_fmt(before)}", size=SMALL_SIZE, color=CLEAN)
            sum_after = markup(f"logit = <b>{_fmt(after)}</b>", size=BODY_SIZE, color=FAIL)
            sum_before.move_to([3.4, -0.2, 0])
            sum_after.next_to(sum_before, DOWN, buff=0.35)
            note = label("before the flip", size=SMALL_SIZE, color=MUTED).next_to(sum_before, UP, buff=0.15)
            self.play(FadeIn(rows, lag_ratio=0.15), Create(brace), run_time=1.2)
            self.play(FadeIn(note), FadeIn(sum_before), run_time=0.7)
            bad_row = rows[shown.index(i)]
            self.play(Indicate(bad_row, color=FAIL), run_time=0.8)
            self.play(FadeIn(sum_after, shift=0.2 * RIGHT), run_time=0.8)
            self.wait(1.6)
        self.matmul = VGroup(rows, brace, sum_before, sum_after, note)

    def into_the_loss_curve(self) -> None:
        """The clean run's loss on log axes, and the corrupted run's climbing off the top at the flip."""
        m, xb, flip = self.m, self.xb, self.flip
        loss = np.asarray(self.data["series"]["loss_clean"], dtype=float)
        steps = len(loss)
        lo, hi = math.log10(loss.min() * 0.7), math.log10(loss.max() * 1.6)
        self.lo = lo
        with self.beat(f"Backwards, it blows the gradient norm up to {m['blowup_grad_norm_text']}: the detector "
                       f"fires, and the update makes the run NaN."):
            self.play(FadeOut(self.matmul), FadeOut(self.value), run_time=0.6)
            self.span = span = hi - lo  # the y axis is log10(loss) − lo, so the x axis sits at the bottom
            self.axes = axes = Axes(x_range=[0, steps, 50], y_range=[0, span, span], x_length=7.6, y_length=3.6,
                                    tips=False, axis_config={"color": MUTED, "stroke_width": 2}).move_to([-0.9, 0.2, 0])
            self.x_lab = label("SGD step", size=SMALL_SIZE, color=MUTED).next_to(axes.x_axis, DOWN, buff=0.15)
            self.y_lab = label("loss (log)", size=SMALL_SIZE, color=MUTED).next_to(axes.y_axis, LEFT, buff=0.15)
            self.y_lab.rotate(math.pi / 2)
            # the axes' numbers, as plain text (no LaTeX): steps along x, loss values on the log y axis
            self.ticks = VGroup(*[label(f"{k}", size=SMALL_SIZE, color=MUTED).next_to(axes.c2p(k, 0), DOWN, buff=0.1)
                                  for k in range(0, steps + 1, 100)])
            y_ticks = VGroup(*[label(f"{v:g}", size=SMALL_SIZE, color=MUTED).next_to(
                axes.c2p(0, math.log10(v) - lo), LEFT, buff=0.1)
                for v in (0.2, 0.5, 1.0, 2.0) if lo <= math.log10(v) <= hi])
            self.ticks.add(*y_ticks)
            self.x_lab.next_to(self.ticks[0], DOWN, buff=0.1).set_x(axes.get_center()[0])
            self.y_lab.next_to(y_ticks, LEFT, buff=0.15).set_y(axes.get_center()[1])
            self.clean = VMobject(color=CLEAN, stroke_width=3)
            self.clean.set_points_as_corners([axes.c2p(k, math.log10(v) - lo) for k, v in enumerate(loss)])
            head_pts = [axes.c2p(k, math.log10(v) - lo) for k, v in enumerate(loss[:flip])]
            self.corrupt = VMobject(color=FAIL, stroke_width=4).set_points_as_corners(
                head_pts + [axes.c2p(flip, span)])
            self.inf_lab = label("inf, then NaN", size=SMALL_SIZE, color=FAIL).next_to(axes.c2p(flip, 0.8 * span),
                                                                                       RIGHT, buff=0.2)
            self.alarm = label("▼ detector fires", size=SMALL_SIZE, color=ALARM)
            self.alarm.next_to(axes.c2p(m["exponent_detected_at"], span), UP, buff=0.1)
            self.key = VGroup(label("clean run", size=SMALL_SIZE, color=CLEAN),
                              label(f"bit {xb} flipped", size=SMALL_SIZE, color=FAIL)).arrange(RIGHT, buff=0.5)
            self.key.next_to(axes, DOWN, buff=0.75)
            self.play(Create(axes), FadeIn(self.ticks), FadeIn(self.x_lab), FadeIn(self.y_lab), FadeIn(self.key),
                      run_time=0.8)
            self.play(Create(self.corrupt), run_time=1.5)
            self.play(Create(self.clean), run_time=1.2)
            self.play(FadeIn(self.inf_lab), run_time=0.5)
            # the grown bar stays its own mobject in the scene: kept apart so the next beat fades both
            self.norm_panel, self.bad_bar = self._gradient_norm_bars(axes)
            self.play(FadeIn(self.norm_panel), run_time=0.5)
            self.play(GrowFromEdge(self.bad_bar, DOWN), run_time=1.0)
            self.play(FadeIn(self.alarm, shift=0.2 * DOWN), run_time=0.5)
            self.wait(1.5)

    def _gradient_norm_bars(self, axes) -> tuple[VGroup, VGroup]:
        """Beside the loss: the gradient norm at the flip step on a log axis, clean against the flipped run."""
        m = self.m
        clean, bad = m["blowup_grad_norm_clean"], m["blowup_grad_norm"]
        e_lo, e_hi = math.floor(math.log10(clean)), math.ceil(math.log10(bad)) + 1
        bottom, top = axes.c2p(0, 0)[1], axes.c2p(0, self.span)[1]
        x_axis = axes.get_right()[0] + 1.6

        def y(v: float) -> float:
            return bottom + (top - bottom) * (math.log10(v) - e_lo) / (e_hi - e_lo)

        line = Line([x_axis, bottom, 0], [x_axis, top, 0], color=MUTED, stroke_width=2)
        ticks = VGroup(*[label(f"10{_sup(e)}", size=SMALL_SIZE, color=MUTED).next_to([x_axis, y(10.0**e), 0], LEFT,
                                                                                    buff=0.1)
                         for e in range(0, e_hi, 12) if e >= e_lo])

        def bar(v: float, colour: str, dx: float) -> VGroup:
            r = Rectangle(width=0.4, height=max(y(v) - bottom, 0.04), stroke_width=0, fill_color=colour,
                          fill_opacity=0.9)
            return VGroup(r.move_to([x_axis + dx, (bottom + max(y(v), bottom + 0.04)) / 2, 0]))

        clean_bar = bar(clean, CLEAN, 0.4)
        bad_bar = bar(bad, FAIL, 0.95)
        bad_bar.add(label(m["blowup_grad_norm_text"], size=SMALL_SIZE, color=FAIL).next_to(bad_bar, UP, buff=0.1)
                    .align_to(clean_bar, LEFT))
        head = label("gradient norm", size=SMALL_SIZE, color=MUTED).next_to(line, DOWN, buff=0.15)
        return VGroup(line, ticks, clean_bar, head), bad_bar

    def the_mantissa_flip(self) -> None:
        m, mb, flip, axes, lo, span = self.m, self.mb, self.flip, self.axes, self.lo, self.span
        with self.beat(f"Flip bit {mb} of the mantissa instead: the weight moves by "
                       f"{m['weight_mantissa_change_ppb']:.0f} parts per billion, the loss by at most "
                       f"{m['mantissa_max_loss_relative_text']} of itself, and nothing fires."):
            self.play(FadeOut(self.corrupt), FadeOut(self.inf_lab), FadeOut(self.alarm), FadeOut(self.norm_panel),
                      FadeOut(self.bad_bar), run_time=0.5)
            man = np.asarray(self.data["series"]["loss_mantissa"], dtype=float)
            self.quiet = VMobject(color=MANTISSA, stroke_width=3).set_points_as_corners(
                [axes.c2p(k, math.log10(v) - lo) for k, v in enumerate(man)])
            self.quiet.set_stroke(opacity=0.9)
            new_key = VGroup(label("clean run", size=SMALL_SIZE, color=CLEAN),
                             label(f"bit {mb} flipped: same curve", size=SMALL_SIZE, color=MANTISSA)
                             ).arrange(RIGHT, buff=0.5).move_to(self.key)
            self.mark = Line(axes.c2p(flip, 0), axes.c2p(flip, span), color=MUTED, stroke_width=2)
            self.mark_lab = label(f"flip at step {flip}", size=SMALL_SIZE, color=MUTED).next_to(self.mark, UP,
                                                                                                 buff=0.1)
            self.play(Transform(self.key, new_key), Create(self.mark), FadeIn(self.mark_lab), run_time=0.7)
            self.play(Create(self.quiet), run_time=1.5)
            self.wait(1.8)

    def the_cost_of_checking(self) -> None:
        """Training moves along a timeline with a check every c*; a quiet SDC strikes, the next check
        fails, and the job rolls back to the last checkpoint before the last check that passed."""
        m = self.m
        c, tau = m["check_interval"], m["checkpoint_interval"]
        with self.beat(f"Check every c* = {fmt_seconds(c)}: a failed check rolls back past the last passed one. "
                       f"Checking costs {fmt_percent(m['added_share'])} of the time."):
            self.play(FadeOut(VGroup(self.axes, self.ticks, self.x_lab, self.y_lab, self.clean, self.quiet, self.key,
                                     self.mark, self.mark_lab)), run_time=0.6)
            span = 2.6 * c  # training time shown, in seconds
            x0, x1, y = -6.2, 6.2, -0.4

            def at(t: float) -> np.ndarray:
                return np.array([x0 + (x1 - x0) * t / span, y, 0.0])

            track = Line(at(0), at(span), color=MUTED, stroke_width=3)
            ckpts = VGroup(*[Line(at(t) + 0.12 * DOWN, at(t) + 0.12 * UP, color=MUTED, stroke_width=2)
                             for t in np.arange(tau, span, tau)])
            checks = VGroup(*[Line(at(t) + 0.35 * DOWN, at(t) + 0.35 * UP, color=OK, stroke_width=6)
                              for t in (c, 2 * c)])
            check_labs = VGroup(*[label(f"check {k + 1}", size=SMALL_SIZE, color=OK).next_to(tick, UP, buff=0.1)
                                  for k, tick in enumerate(checks)])
            key = VGroup(label(f"checkpoints every τ* = {fmt_seconds(tau)}", size=SMALL_SIZE, color=MUTED),
                         label(f"check: replay {m['check_time']:.3g} s, then compare", size=SMALL_SIZE, color=OK)
                         ).arrange(RIGHT, buff=0.6).next_to(track, DOWN, buff=1.3)
            # the page's one cost of checking: the replays and the interval a detection throws away
            cost = markup(f"c* = √(kM) = <b>{fmt_seconds(c)}</b>   checking costs "
                          f"<b>{fmt_percent(m['added_share'])}</b> of the time", size=BODY_SIZE,
                          color=OK).move_to([0, 2.3, 0])
            # six events are few: c* and the cost across the rate's 95% interval (a higher rate costs more)
            spread = label(f"c* from {fmt_seconds(m['check_interval_low'])} to {fmt_seconds(m['check_interval_high'])}"
                           f" across the SDC rate's 95% interval (cost {fmt_percent(m['added_share_high'])} at its"
                           " top)",
                           size=SMALL_SIZE, color=MUTED).next_to(cost, DOWN, buff=0.2)
            self.play(Create(track), FadeIn(ckpts), FadeIn(checks), FadeIn(check_labs), FadeIn(key), FadeIn(cost),
                      FadeIn(spread), run_time=0.9)
            head = VGroup(Rectangle(width=0.22, height=0.5, color=CLEAN, fill_color=CLEAN, fill_opacity=1))
            head.move_to(at(0))
            self.add(head)
            strike_t = 1.4 * c
            self.play(head.animate.move_to(at(c)), run_time=1.0, rate_func=lambda t: t)
            self.play(Indicate(checks[0], color=OK), run_time=0.5)
            self.play(head.animate.move_to(at(strike_t)), run_time=0.4, rate_func=lambda t: t)
            # the headline's assumption (q = 1): the defect fires in every step, so the next check sees it
            bolt = VGroup(label("fires every step", size=SMALL_SIZE, color=FAIL),
                          label("defective unit", size=BODY_SIZE, color=FAIL)).arrange(DOWN, buff=0.08)
            bolt.next_to(at(strike_t), UP, buff=0.6)
            bad = Line(at(strike_t), at(2 * c), color=FAIL, stroke_width=8)
            self.play(FadeIn(bolt, shift=0.3 * DOWN), head.animate.set_color(FAIL), run_time=0.4)
            self.play(Create(bad), head.animate.move_to(at(2 * c)), run_time=0.6, rate_func=lambda t: t)
            fail = label("check 2 fails", size=SMALL_SIZE, color=FAIL).move_to(check_labs[1])
            self.play(Transform(check_labs[1], fail), checks[1].animate.set_color(FAIL), run_time=0.5)
            # back to the last checkpoint taken before check 1, the last check that passed
            back_t = math.floor(c / tau) * tau
            lost = Line(at(back_t), at(2 * c), color=FAIL, stroke_width=14, stroke_opacity=0.45)
            lost_lab = label(f"thrown away: c + τ*/2 on average = {fmt_seconds(c + tau / 2)}", size=SMALL_SIZE,
                             color=FAIL).next_to(lost, DOWN, buff=0.5)
            self.play(FadeIn(lost), head.animate.move_to(at(back_t)).set_color(CLEAN), FadeIn(lost_lab), run_time=1.0)
            self.wait(1.0)
