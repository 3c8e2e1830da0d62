"""cost-per-token · Cost per million tokens: pretraining vs serving.

FLOPs turn into GPU-hours, GPU-hours into dollars: first for the scenario's pretraining run, then for
one served answer, at batch 1 and at the largest batch that fits. Every number comes from self.data
(models.cost_per_token.token_cost).
"""

from __future__ import annotations

from manim import DOWN, RIGHT, Arrow, FadeIn, FadeOut, GrowArrow, RoundedRectangle, VGroup, Write

from design import palette
from models.units import fmt_seconds, fmt_words, sig
from scenes.style import BODY_SIZE, INK, MUTED, SMALL_SIZE, ExhibitScene, label, markup, title

X = (-4.6, 0.0, 4.6)  # the three boxes: work, time, money
BOX_W, BOX_H = 3.6, 1.5


def usd(x: float) -> str:
    if x >= 1e6:
        return f"${fmt_words(x)}"
    return f"${x:,.4f}" if x < 0.01 else f"${x:,.2f}"


def sci(x: float) -> str:
    e = len(f"{int(x):d}") - 1
    return f"{x / 10 ** e:.2f}×10<sup>{e}</sup>"


def box(head: str, value: str, colour: str, x: float, y: float) -> VGroup:
    frame = RoundedRectangle(corner_radius=0.15, width=BOX_W, height=BOX_H, stroke_color=colour,
                             stroke_width=3, fill_opacity=0)
    h = label(head, size=SMALL_SIZE, color=MUTED)
    v = markup(f"<b>{value}</b>", size=BODY_SIZE, color=INK)
    VGroup(h, v).arrange(DOWN, buff=0.18).move_to(frame)
    return VGroup(frame, h, v).move_to([x, y, 0])


class TokenCostScene(ExhibitScene):
    """Pretraining on the top row (FLOPs, GPU-hours, dollars), one served answer on the bottom row
    (tokens, time, cost at batch 1, then at the batch that fits)."""

    scene_id = "cost-per-token"
    TOP_Y, BOTTOM_Y = 1.1, -1.35

    def construct(self) -> None:
        for beat in (self.training_flops, self.gpu_hours, self.owners_cost, self.served_answer,
                     self.alone_on_the_gpus, self.shared_reads):
            beat()

    def numbers(self) -> tuple[dict, dict, dict]:
        """The model's summary, parameters and animation plan."""
        return self.data["summary"], self.data["params"], self.data["animation"]

    def training_flops(self) -> None:
        _, p, a = self.numbers()
        with self.beat(f"Training Llama 3 405B on {fmt_words(p['training_tokens'])} tokens takes "
                       f"6·N·D plus attention: {sig(a['flops'] / 1e25, 3)}×10²⁵ FLOPs."):
            head = title("From FLOPs to dollars")
            sub = label("pretraining", size=BODY_SIZE - 2, color=MUTED).next_to(head, DOWN, buff=0.25)
            work = box("training FLOPs", sci(a["flops"]), palette.role("compute"), X[0], self.TOP_Y)
            self.play(Write(head), FadeIn(sub), run_time=1.0)
            self.play(FadeIn(work, shift=0.2 * RIGHT), run_time=0.8)
            self.wait(2.5)
        self.work_box = work

    def gpu_hours(self) -> None:
        _, p, a = self.numbers()
        with self.beat(f"At {sig(100 * a['mfu'], 2)}% MFU and {sig(100 * p['effective_training_time'], 2)}% "
                       f"effective time: {sig(a['gpu_hours'] / 1e6, 3)} million GPU-hours, "
                       f"{sig(a['days'], 3)} days on {a['gpus']:,} GPUs."):
            hours = box("GPU-hours", f"{sig(a['gpu_hours'] / 1e6, 3)} million", palette.role("data"), X[1],
                        self.TOP_Y)
            ar1 = Arrow(self.work_box.get_right(), hours.get_left(), buff=0.1, color=MUTED)
            self.play(GrowArrow(ar1), FadeIn(hours, shift=0.2 * RIGHT), run_time=1.0)
            self.wait(2.5)
        self.hours_box = hours

    def owners_cost(self) -> None:
        _, _, a = self.numbers()
        # the caption's "scene 22" is reader-facing text the captions track and transcript carry
        with self.beat(f"At scene 22's {usd(a['rate'])} per GPU-hour: {usd(a['dollars'])}, or "
                       f"{usd(a['per_million'])} per million training tokens."):
            cost = box("owner's cost", usd(a["dollars"]), palette.role("secondary"), X[2], self.TOP_Y)
            ar2 = Arrow(self.hours_box.get_right(), cost.get_left(), buff=0.1, color=MUTED)
            per = markup(f"= <b>{usd(a['per_million'])}</b> per million training tokens", size=BODY_SIZE - 4,
                         color=INK).next_to(cost, DOWN, buff=0.3)
            per.align_to(cost, RIGHT)
            self.play(GrowArrow(ar2), FadeIn(cost, shift=0.2 * RIGHT), run_time=1.0)
            self.play(FadeIn(per), run_time=0.6)
            self.wait(2.2)

    def served_answer(self) -> None:
        m, _, a = self.numbers()
        with self.beat(f"One served answer of {a['answer_tokens']} tokens on {a['serving_gpus']} GPUs: each "
                       f"token re-reads every weight, {fmt_seconds(m['batch1_step_time'])} a step."):
            sub2 = label("serving one answer", size=BODY_SIZE - 2, color=MUTED).move_to([0, -0.35, 0])
            ans = box("output tokens", f"{a['answer_tokens']}", palette.role("compute"), X[0], self.BOTTOM_Y)
            t_box = box("time at batch 1", fmt_seconds(a["answer_tokens"] * m["batch1_step_time"]),
                        palette.role("data"), X[1], self.BOTTOM_Y)
            ar3 = Arrow(ans.get_right(), t_box.get_left(), buff=0.1, color=MUTED)
            self.play(FadeIn(sub2), FadeIn(ans), run_time=0.8)
            self.play(GrowArrow(ar3), FadeIn(t_box, shift=0.2 * RIGHT), run_time=1.0)
            self.wait(2.5)
        self.time_box = t_box

    def alone_on_the_gpus(self) -> None:
        m, _, a = self.numbers()
        with self.beat(f"Alone on the GPUs, the answer costs {usd(a['answer_dollars_b1'])}: "
                       f"{usd(m['batch1_cost'])} per million output tokens."):
            c_box = box("cost at batch 1", usd(a["answer_dollars_b1"]), palette.role("secondary"), X[2],
                        self.BOTTOM_Y)
            ar4 = Arrow(self.time_box.get_right(), c_box.get_left(), buff=0.1, color=MUTED)
            self.play(GrowArrow(ar4), FadeIn(c_box, shift=0.2 * RIGHT), run_time=1.0)
            self.wait(2.5)
        self.cost_box = c_box

    def shared_reads(self) -> None:
        m, _, a = self.numbers()
        with self.beat(f"Sharing each weight read with {int(a['batch'])} answers cuts it to "
                       f"{usd(a['answer_dollars'])}: {usd(m['best_cost'])} per million."):
            t2 = box(f"time at batch {int(a['batch'])}", fmt_seconds(a["answer_seconds"]), palette.role("data"),
                     X[1], self.BOTTOM_Y)
            c2 = box(f"cost at batch {int(a['batch'])}", usd(a["answer_dollars"]), palette.role("ok"), X[2],
                     self.BOTTOM_Y)
            self.play(FadeOut(self.time_box), FadeIn(t2), FadeOut(self.cost_box), FadeIn(c2), run_time=1.2)
            self.wait(2.5)
