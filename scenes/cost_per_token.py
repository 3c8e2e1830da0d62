"""cost-per-token · Cost per million tokens: pretraining vs serving.

FLOPs turn into GPU-hours, GPU-hours into dollars: first for the scenario's pretraining run (the FLOPs, the
hours and the dollars, a band over the range of the hourly price, fill together as the run's days pass),
then for one served answer racing on a shared time axis, alone and in the largest batch that fits, and last
the owner's margin against a listed price opening as the batch grows to the typical one, at the measured
serving utilisation. Every number comes from self.data (models.cost_per_token.token_cost).
"""

from __future__ import annotations

import math

import numpy as np
from manim import (
    DOWN,
    LEFT,
    RIGHT,
    UP,
    Create,
    DashedLine,
    Dot,
    FadeIn,
    FadeOut,
    Line,
    Rectangle,
    ValueTracker,
    VGroup,
    VMobject,
    Write,
    always_redraw,
    linear,
)

from design import palette
from models.cost_per_token import MARGIN_DIGITS
from models.units import fmt_percent, fmt_seconds, fmt_words, sig
from scenes.style import BODY_SIZE, INK, MUTED, SMALL_SIZE, ExhibitScene, counter, label, markup, title

# the serving lanes: one time axis shared by batch 1 and the full batch, so the slower step shows as a longer bar
LANE_LEFT, LANE_WIDTH = -4.2, 7.0
LANE1_Y, LANE2_Y = 1.3, -0.6
LANE_RUN = 4.0  # seconds of video for the full batch's answer; batch 1's runs in proportion
# the pretraining meters: bars that fill as the run's days pass, FLOPs, GPU-hours, then dollars as a range
METER_X0, METER_W = -5.6, 6.4
METER_Y = (0.9, -0.3, -1.5)  # FLOPs, GPU-hours, dollars
# the margin chart: log batch across, log dollars per million tokens up
CHART_X0, CHART_W, CHART_Y0, CHART_H = -4.6, 7.4, -2.0, 3.6
CHART_BATCH_MAX = 256.0
CHART_COST_MIN, CHART_COST_MAX = 0.3, 50.0  # USD per million tokens; dearer costs sit on the top edge


def usd(x: float) -> str:
    if x >= 1e6:
        return f"${fmt_words(x)}"
    return f"${x:,.4f}" if x < 0.01 else f"${x:,.2f}"


def cents(x: float) -> str:
    """A small dollar amount to two significant digits ($0.038, $0.00027)."""
    return f"${x:.{max(2, 1 - math.floor(math.log10(x)))}f}"


class TokenCostScene(ExhibitScene):
    """Pretraining as three meters filling over the run (FLOPs, GPU-hours, dollars as scene 22's range); then
    serving as two lanes on one time axis: one answer alone at batch 1, then the full batch's answers growing
    together, slower, while a counter adds up what the GPUs cost, shared by the batch; last the margin chart."""

    scene_id = "cost-per-token"

    def construct(self) -> None:
        for beat in (self.pretraining_run, self.one_answer_alone, self.shared_reads, self.margin):
            beat()

    def numbers(self) -> tuple[dict, dict, dict]:
        """The model's summary, parameters and animation plan."""
        return self.data["summary"], self.data["params"], self.data["animation"]

    def pretraining_run(self) -> None:
        """One beat: as the run's days pass, the FLOPs done fill their meter, the GPU-hours they take (FLOPs over
        the achieved FLOP/s and the effective time) fill theirs, and the bill fills as a band, not a bar: scene
        22's range of the hourly price, its central rate marked."""
        _, p, a = self.numbers()
        with self.beat(f"{sig(a['flops'] / 1e25, 3)}×10²⁵ FLOPs at {sig(a['flops_per_gpu'] / 1e12, 3)} TFLOP/s per "
                       f"GPU and {sig(100 * p['effective_training_time'], 2)}% effective time fill "
                       f"{sig(a['gpu_hours'] / 1e6, 3)} million GPU-hours; at scene 22's {usd(a['rate_low'])} to "
                       f"{usd(a['rate_high'])} per GPU-hour that is {usd(a['dollars_low'])} to "
                       f"{usd(a['dollars_high'])}, {usd(a['dollars'])} at {usd(a['rate'])}."):
            head = title("From FLOPs to dollars")
            sub = label(f"pretraining Llama 3 405B on {fmt_words(p['training_tokens'])} tokens, "
                        f"{a['gpus']:,} GPUs", size=BODY_SIZE - 4, color=MUTED).next_to(head, DOWN, buff=0.25)
            clock = ValueTracker(0.0)  # share of the run done
            work = self.meter(clock, METER_Y[0], palette.role("compute"), "FLOPs done", a["flops"] / 1e25,
                              "×10²⁵", decimals=2)
            per_hour = label(f"÷ ({sig(a['flops_per_gpu'] / 1e12, 3)} TFLOP/s × "
                             f"{sig(100 * p['effective_training_time'], 2)}% effective × 3,600 s)",
                             size=SMALL_SIZE - 2, color=MUTED)
            per_hour.move_to([METER_X0 + METER_W / 2, (METER_Y[0] + METER_Y[1]) / 2, 0])
            hours = self.meter(clock, METER_Y[1], palette.role("data"), "GPU-hours", a["gpu_hours"] / 1e6, "million")
            day = counter(f"days on {a['gpus']:,} GPUs", 0, decimals=1, size=SMALL_SIZE)
            day.next_to(work, UP, buff=0.3).align_to(work, LEFT)
            day[1].add_updater(lambda d: d.set_value(a["days"] * clock.get_value()))
            bill, ends = self.range_meter(clock, METER_Y[2], palette.role("secondary"), a)
            self.play(Write(head), FadeIn(sub), FadeIn(work), FadeIn(per_hour), FadeIn(hours), FadeIn(day),
                      FadeIn(bill), run_time=1.0)
            self.play(clock.animate.set_value(1.0), run_time=5.0, rate_func=linear)
            per = markup(f"{usd(a['dollars'])} at {usd(a['rate'])} per GPU-hour = <b>{usd(a['per_million'])}</b> "
                         f"per million training tokens", size=SMALL_SIZE, color=INK)
            per.next_to(bill, DOWN, buff=0.55).align_to(bill, LEFT)
            self.play(FadeIn(ends), run_time=0.6)
            self.play(FadeIn(per), run_time=0.6)
            self.wait(2.0)
        self.pretraining = VGroup(head, sub, work, per_hour, hours, day, bill, ends, per)

    @staticmethod
    def meter(clock: ValueTracker, y: float, colour: str, name: str, total: float, unit: str,
              decimals: int = 1) -> VGroup:
        """A bar that fills with a clock (0 to 1) and a counter of what it has added up (`total` at the end)."""
        bar = always_redraw(lambda: Rectangle(
            width=max(METER_W * clock.get_value(), 1e-3), height=0.28, stroke_width=0, fill_color=colour,
            fill_opacity=0.9).move_to([METER_X0 + max(METER_W * clock.get_value(), 1e-3) / 2, y, 0]))
        frame = Rectangle(width=METER_W, height=0.28, stroke_color=MUTED, stroke_width=1).move_to(
            [METER_X0 + METER_W / 2, y, 0])
        count = counter(name, 0, decimals=decimals, unit=unit, size=SMALL_SIZE)
        count.next_to(frame, RIGHT, buff=0.25)
        count[1].add_updater(lambda d: d.set_value(total * clock.get_value()))
        return VGroup(frame, bar, count)

    @staticmethod
    def range_meter(clock: ValueTracker, y: float, colour: str, a: dict) -> tuple[VGroup, VGroup]:
        """The bill as the run goes: the hours so far priced at the low and high ends of scene 22's rate, a pale
        band between them, solid up to the central rate; the frame is the high end's full bill. Returns the meter
    and the range's ends (ticks and their labels), shown once the run is done."""
        scale = METER_W / a["dollars_high"]

        def band() -> VGroup:
            k = clock.get_value()
            lo, mid, hi = (max(scale * k * a[key], 1e-3) for key in ("dollars_low", "dollars", "dollars_high"))
            return VGroup(
                Rectangle(width=max(hi - lo, 1e-3), height=0.28, stroke_width=0, fill_color=colour,
                          fill_opacity=0.3).move_to([METER_X0 + (lo + hi) / 2, y, 0]),
                Rectangle(width=mid, height=0.28, stroke_width=0, fill_color=colour,
                          fill_opacity=0.9).move_to([METER_X0 + mid / 2, y, 0]))

        frame = Rectangle(width=METER_W, height=0.28, stroke_color=MUTED, stroke_width=1).move_to(
            [METER_X0 + METER_W / 2, y, 0])
        count = counter("owner's cost", 0, decimals=1, unit="million USD", size=SMALL_SIZE)
        count.next_to(frame, RIGHT, buff=0.25)
        count[1].add_updater(lambda d: d.set_value(a["dollars"] / 1e6 * clock.get_value()))
        # the range's ends, named under the band once the run is done (their places are fixed by the data)
        ends = VGroup(*[label(f"{usd(a[f'dollars_{end}'])} at {usd(a[f'rate_{end}'])}/h", size=SMALL_SIZE - 2,
                              color=MUTED).next_to([METER_X0 + scale * a[f"dollars_{end}"], y - 0.14, 0], DOWN,
                                                   buff=0.08) for end in ("low", "high")])
        # the low end's name ends at its tick, the high end's at the frame's right edge: side by side, apart
        ends[0].align_to([METER_X0 + scale * a["dollars_low"] - 0.1, 0, 0], RIGHT)
        ends[1].align_to(frame, RIGHT)
        tick = VGroup(*[Line([METER_X0 + scale * a[f"dollars_{end}"], y - 0.2, 0],
                             [METER_X0 + scale * a[f"dollars_{end}"], y + 0.2, 0], color=MUTED, stroke_width=2)
                        for end in ("low", "high")])
        return VGroup(frame, always_redraw(band), count), VGroup(tick, ends)

    def lane(self, y: float, name: str, colour: str, answers: int, seconds: float, dollars: float):
        """One decode lane: `answers` answers as stacked strips that grow together along a time axis while a
        counter adds up what the GPUs cost meanwhile. Returns the strips, the counter and the clock."""
        clock = ValueTracker(0.0)
        height = 0.18 if answers == 1 else 0.9
        strips = max(1, min(answers, 24))  # drawn strips: one per answer up to 24, the rest implied
        x0 = LANE_LEFT

        def grown() -> VGroup:
            width = max(LANE_WIDTH * clock.get_value() / self.t_axis, 1e-3)
            return VGroup(*[Rectangle(width=width, height=height / strips * 0.7, stroke_width=0, fill_color=colour,
                                      fill_opacity=0.9).move_to([x0 + width / 2,
                                                                 y + height / 2 - (k + 0.5) * height / strips, 0])
                            for k in range(strips)])

        bars = always_redraw(grown)
        tag = label(name, size=SMALL_SIZE, color=INK).next_to([x0, y, 0], LEFT, buff=0.25)
        spent = counter("GPU cost", 0, decimals=3, unit="USD", size=SMALL_SIZE)
        spent.move_to([x0 + LANE_WIDTH / 2 + 1.2, y - height / 2 - 0.35, 0])
        spent[1].add_updater(lambda d: d.set_value(dollars * clock.get_value() / seconds))
        return VGroup(tag, bars, spent), clock

    def one_answer_alone(self) -> None:
        m, _, a = self.numbers()
        self.t_axis = a["answer_seconds"] * 1.08  # both lanes share one time axis: the slower one fits
        with self.beat(f"Alone on {a['serving_gpus']} GPUs, one {a['answer_tokens']}-token answer takes "
                       f"{fmt_seconds(a['answer_seconds_b1'])} and costs {cents(a['answer_dollars_b1'])}: "
                       f"{usd(m['batch1_cost'])} per million."):
            self.play(FadeOut(self.pretraining), run_time=0.6)
            sub = label(f"serving: {a['answer_tokens']} output tokens per answer, {a['serving_gpus']} GPUs",
                        size=BODY_SIZE - 4, color=MUTED).move_to([0, 2.35, 0])
            lane1, clock1 = self.lane(LANE1_Y, "batch 1", palette.role("secondary"), 1, a["answer_seconds_b1"],
                                      a["answer_dollars_b1"])
            note = label("bar length: wall time of the answer", size=SMALL_SIZE - 2, color=MUTED)
            note.next_to(sub, DOWN, buff=0.15)
            self.play(FadeIn(sub), FadeIn(note), FadeIn(lane1), run_time=0.6)
            self.play(clock1.animate.set_value(a["answer_seconds_b1"]),
                      run_time=LANE_RUN * a["answer_seconds_b1"] / a["answer_seconds"], rate_func=linear)
            done = markup(f"{fmt_seconds(a['answer_seconds_b1'])}: <b>{cents(a['answer_dollars_b1'])}</b> per answer, "
                          f"{usd(m['batch1_cost'])} per million",
                          size=SMALL_SIZE, color=INK)
            done.next_to([LANE_LEFT + LANE_WIDTH * a["answer_seconds_b1"] / self.t_axis, LANE1_Y, 0], RIGHT,
                         buff=0.15)
            self.play(FadeIn(done), run_time=0.5)
            self.wait(2.5)

    def shared_reads(self) -> None:
        m, _, a = self.numbers()
        b = int(a["batch"])
        with self.beat(f"{b} answers share each weight read: {fmt_seconds(a['answer_seconds'])}, slower, "
                       f"yet {cents(a['answer_dollars'])} each, {usd(m['best_cost'])} per million."):
            lane2, clock2 = self.lane(LANE2_Y, f"batch {b}", palette.role("ok"), b, a["answer_seconds"],
                                      a["spent_batch"])
            self.play(FadeIn(lane2), run_time=0.5)
            self.play(clock2.animate.set_value(a["answer_seconds"]), run_time=LANE_RUN, rate_func=linear)
            each = markup(f"{fmt_seconds(a['answer_seconds'])}: {cents(a['spent_batch'])} ÷ {b} = "
                          f"<b>{cents(a['answer_dollars'])}</b> per answer, {usd(m['best_cost'])} per million",
                          size=SMALL_SIZE, color=INK)
            each.move_to([LANE_LEFT + LANE_WIDTH / 2, LANE2_Y - 1.35, 0])
            self.play(FadeIn(each), run_time=0.6)
            self.wait(3.0)

    # --- the margin: the owner's blended cost falls below the listed price as the batch grows ------------

    @staticmethod
    def chart_point(batch: float, cost: float) -> list[float]:
        """Screen position of (batch, USD per million tokens) on the log-log margin chart."""
        x = CHART_X0 + CHART_W * math.log2(batch) / math.log2(CHART_BATCH_MAX)
        c = min(max(cost, CHART_COST_MIN), CHART_COST_MAX)
        span = math.log10(CHART_COST_MAX / CHART_COST_MIN)
        return [x, CHART_Y0 + CHART_H * math.log10(c / CHART_COST_MIN) / span, 0.0]

    def chart_axes(self, a: dict) -> VGroup:
        """The axes, their ticks and the two listed prices as horizontal lines."""
        pt = self.chart_point
        axes = VGroup(Line(pt(1, CHART_COST_MIN), pt(CHART_BATCH_MAX, CHART_COST_MIN), color=MUTED),
                      Line(pt(1, CHART_COST_MIN), pt(1, CHART_COST_MAX), color=MUTED))
        for b in (1, 4, 16, 64, 256):
            axes.add(label(f"{b}", size=SMALL_SIZE - 2, color=MUTED).next_to(pt(b, CHART_COST_MIN), DOWN, buff=0.12))
        for c in (1, 10):
            axes.add(label(f"${c}", size=SMALL_SIZE - 2, color=MUTED).next_to(pt(1, c), LEFT, buff=0.12))
        axes.add(label("batch", size=SMALL_SIZE - 2, color=MUTED).next_to(pt(CHART_BATCH_MAX, CHART_COST_MIN), UP,
                                                                           buff=0.12))
        price = DashedLine(pt(1, a["price"]), pt(CHART_BATCH_MAX, a["price"]), color=palette.role("secondary"))
        cheap = DashedLine(pt(1, a["price_cheapest"]), pt(CHART_BATCH_MAX, a["price_cheapest"]), color=MUTED)
        names = VGroup(
            label(f"Fireworks {usd(a['price'])}/M, Llama 3.1 405B, 2025", size=SMALL_SIZE - 2,
                  color=palette.role("secondary")).next_to(price, RIGHT, buff=0.1).shift(0.2 * UP),
            label(f"OpenRouter {usd(a['price_cheapest'])}/M", size=SMALL_SIZE - 2,
                  color=MUTED).next_to(cheap, RIGHT, buff=0.1))
        # the median price's name at the right edge, the cheapest's at the left (the dot ends near its right)
        names[0].align_to(price, RIGHT).shift(0.22 * UP)
        names[1].align_to(cheap, LEFT).shift(0.35 * RIGHT + 0.22 * UP)
        return VGroup(axes, price, cheap, names)

    def margin(self) -> None:
        _, _, a = self.numbers()
        log_b, log_c = np.log2(a["margin_batches"]), np.log10(a["margin_costs"])

        def cost_at(batch: float) -> float:
            return float(10 ** np.interp(math.log2(batch), log_b, log_c))

        b_typ, pt = a["typical_batch"], self.chart_point
        with self.beat(f"Batch {int(b_typ)}, GPUs busy {fmt_percent(a['utilisation'], 3)} of paid hours: "
                       f"{usd(a['typical_cost'])} per million, {fmt_percent(a['margin'], MARGIN_DIGITS)} margin at "
                       f"{usd(a['price'])}."):
            self.play(*[FadeOut(m) for m in self.mobjects], run_time=0.5)
            head = label(f"owning, {fmt_percent(a['utilisation'], 3)} busy: blended USD per million tokens",
                         size=BODY_SIZE - 4, color=MUTED).move_to([0, 2.35, 0])
            chart = self.chart_axes(a)
            steps = np.geomspace(1.0, a["margin_batches"][-1], 60)
            curve = VMobject(color=palette.role("ok"), stroke_width=4).set_points_as_corners(
                [pt(b, cost_at(b)) for b in steps])
            self.play(FadeIn(head), FadeIn(chart), run_time=0.6)
            self.play(Create(curve), run_time=1.0)
            log_batch = ValueTracker(0.0)  # log2 of the batch: the dot moves evenly along the log axis

            def at() -> float:
                return 2.0 ** log_batch.get_value()

            dot = always_redraw(lambda: Dot(pt(at(), cost_at(at())), radius=0.09, color=INK))
            # the gap between the price and the cost: the margin, green once the cost is under the price
            gap = always_redraw(lambda: Line(pt(at(), cost_at(at())), pt(at(), a["price"]), stroke_width=6,
                                             color=palette.role("ok" if cost_at(at()) <= a["price"] else "bad")))
            # the margin at the page's precision (two significant figures, as its prose and the Explore panel):
            # the decimals that give the final value two figures
            decimals = max(0, MARGIN_DIGITS - 1 - int(math.floor(math.log10(max(abs(100 * a["margin"]), 1.0)))))
            readout = VGroup(counter("batch", 1, decimals=0, size=SMALL_SIZE),
                             counter("margin", 100 * (1 - cost_at(1.0) / a["price"]), decimals=decimals, unit="%",
                                     size=SMALL_SIZE))  # opens at its first value: the digits' count holds
            # "69%", not "69 %": the sign set against the number, as the page writes it
            readout[1][2].clear_updaters().add_updater(lambda m: m.next_to(readout[1][1], RIGHT, buff=0.03))
            readout.arrange(DOWN, aligned_edge=LEFT, buff=0.15).move_to([1.6, 0.9, 0])
            readout[0][1].add_updater(lambda d: d.set_value(round(at())))
            readout[1][1].add_updater(lambda d: d.set_value(100 * (1 - cost_at(at()) / a["price"])))
            self.play(FadeIn(dot), FadeIn(gap), FadeIn(readout), run_time=0.4)
            self.play(log_batch.animate.set_value(math.log2(b_typ)), run_time=4.0, rate_func=linear)
            self.wait(2.0)
