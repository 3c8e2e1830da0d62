"""Scene 23 · Cost per million tokens: pretraining vs serving.

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
    scene_id = "cost-per-token"

    def construct(self) -> None:
        m, p, a = self.data["summary"], self.data["params"], self.data["animation"]
        compute, money, data_c = palette.role("compute"), palette.role("secondary"), palette.role("data")
        y1 = 1.1

        with self.beat(f"Training Llama 3 405B on {fmt_words(p['training_tokens'])} tokens takes "
                       f"6·N·D plus attention: {sig(a['flops'] / 1e25, 3)}×10²⁵ FLOPs."):
            head = title("From FLOPs to dollars")
            sub = label("pretraining", size=BODY_SIZE - 2, color=MUTED).next_to(head, DOWN, buff=0.25)
            work = box("training FLOPs", sci(a["flops"]), compute, X[0], y1)
            self.play(Write(head), FadeIn(sub), run_time=1.0)
            self.play(FadeIn(work, shift=0.2 * RIGHT), run_time=0.8)
            self.wait(2.5)

        with self.beat(f"At {sig(100 * p['mfu'], 2)}% MFU and {sig(100 * p['effective_training_time'], 2)}% "
                       f"effective time: {sig(a['gpu_hours'] / 1e6, 3)} million GPU-hours, "
                       f"{sig(a['days'], 3)} days on {a['gpus']:,} GPUs."):
            hours = box("GPU-hours", f"{sig(a['gpu_hours'] / 1e6, 3)} million", data_c, X[1], y1)
            ar1 = Arrow(work.get_right(), hours.get_left(), buff=0.1, color=MUTED)
            self.play(GrowArrow(ar1), FadeIn(hours, shift=0.2 * RIGHT), run_time=1.0)
            self.wait(2.5)

        with self.beat(f"At scene 22's {usd(a['rate'])} per GPU-hour: {usd(a['dollars'])}, or "
                       f"{usd(a['per_million'])} per million training tokens."):
            cost = box("owner's cost", usd(a["dollars"]), money, X[2], y1)
            ar2 = Arrow(hours.get_right(), cost.get_left(), buff=0.1, color=MUTED)
            per = markup(f"= <b>{usd(a['per_million'])}</b> per million training tokens", size=BODY_SIZE - 4,
                         color=INK).next_to(cost, DOWN, buff=0.3)
            per.align_to(cost, RIGHT)
            self.play(GrowArrow(ar2), FadeIn(cost, shift=0.2 * RIGHT), run_time=1.0)
            self.play(FadeIn(per), run_time=0.6)
            self.wait(2.2)

        y2 = -1.35
        with self.beat(f"One served answer of {a['answer_tokens']} tokens on {a['serving_gpus']} GPUs: each "
                       f"token re-reads every weight, {fmt_seconds(m['batch1_step_time'])} a step."):
            sub2 = label("serving one answer", size=BODY_SIZE - 2, color=MUTED).move_to([0, -0.35, 0])
            ans = box("output tokens", f"{a['answer_tokens']}", compute, X[0], y2)
            t_box = box("time at batch 1", fmt_seconds(a["answer_tokens"] * m["batch1_step_time"]), data_c,
                        X[1], y2)
            ar3 = Arrow(ans.get_right(), t_box.get_left(), buff=0.1, color=MUTED)
            self.play(FadeIn(sub2), FadeIn(ans), run_time=0.8)
            self.play(GrowArrow(ar3), FadeIn(t_box, shift=0.2 * RIGHT), run_time=1.0)
            self.wait(2.5)

        with self.beat(f"Alone on the GPUs, the answer costs {usd(a['answer_dollars_b1'])}: "
                       f"{usd(m['batch1_cost'])} per million output tokens."):
            c_box = box("cost at batch 1", usd(a["answer_dollars_b1"]), money, X[2], y2)
            ar4 = Arrow(t_box.get_right(), c_box.get_left(), buff=0.1, color=MUTED)
            self.play(GrowArrow(ar4), FadeIn(c_box, shift=0.2 * RIGHT), run_time=1.0)
            self.wait(2.5)

        with self.beat(f"Sharing each weight read with {int(a['batch'])} answers cuts it to "
                       f"{usd(a['answer_dollars'])}: {usd(m['best_cost'])} per million."):
            t2 = box(f"time at batch {int(a['batch'])}", fmt_seconds(a["answer_seconds"]), data_c, X[1], y2)
            c2 = box(f"cost at batch {int(a['batch'])}", usd(a["answer_dollars"]), palette.role("ok"), X[2], y2)
            self.play(FadeOut(t_box), FadeIn(t2), FadeOut(c_box), FadeIn(c2), run_time=1.2)
            self.wait(2.5)
