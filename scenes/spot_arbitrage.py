"""spot-arbitrage · Spot instance arbitrage & zero-overhead recovery.

The price gap first; then one sampled run of a larger gang hopping across
preemptions (the model's `sample_run`: compute, the snapshot inside the
notice, the wait for capacity, the restore); then one preemption zoomed in to
scale, with AWS's two-minute notice and with a 30-second one; then the
break-even discounts against the discount on offer. Every number comes from
self.data (models.spot_arbitrage.spot_arbitrage).
"""

from __future__ import annotations

from manim import (
    DOWN,
    LEFT,
    RIGHT,
    UP,
    Create,
    DashedLine,
    FadeIn,
    FadeOut,
    GrowFromEdge,
    Line,
    Rectangle,
    VGroup,
    Write,
)

from design import palette
from models.units import fmt_count, fmt_percent, fmt_seconds
from scenes.style import (
    BODY_SIZE,
    MUTED,
    SMALL_SIZE,
    ExhibitScene,
    grow_value_bars,
    label,
    legend,
    markup,
    title,
    value_bars,
)

COMPUTE = palette.role("compute")
SAVE = palette.role("save")
FAIL = palette.role("failure")
REWORK = palette.role("rework")
RESTART = palette.role("restart")
WAIT = MUTED  # idle: no capacity yet
OK = palette.role("ok")
COLOURS = {"compute": COMPUTE, "snapshot": SAVE, "wait": WAIT, "restore": RESTART}

LEFT_X, WIDTH = -6.2, 12.4
RUN_Y, RUN_H = 1.55, 0.42
ZOOM_Y, ZOOM_H = -0.85, 0.5
MIN_W = 0.05  # a rejoin lasts minutes in a day: drawn wider than to scale on the run bar


def _usd(x: float) -> str:
    return f"${fmt_count(x)}"


class SpotHops(ExhibitScene):
    """The price gap, one run hopping across preemptions, one preemption zoomed in with AWS's notice
    and with a 30-second one, then the break-even discounts against the discount on offer."""

    scene_id = "spot-arbitrage"

    def construct(self) -> None:
        for beat in (self.price_gap, self.one_run, self.aws_notice, self.short_notice, self.verdict):
            beat()

    def numbers(self) -> tuple[dict, dict, dict, dict]:
        """The model's summary, parameters, animation plan and worked problems."""
        return self.data["summary"], self.data["params"], self.data["animation"], self.data["problems"]

    def run_x(self, t: float) -> float:
        """x of wall-clock time t on the run bar."""
        return LEFT_X + WIDTH * t / self.data["animation"]["blocks"][-1]["end"]

    def zoom_x(self, t: float) -> float:
        """x of time t on the zoomed bar (t = 0 at the notice)."""
        a = self.data["animation"]
        return LEFT_X + WIDTH * t / (a["aws_notice"] + a["capacity_wait"] + a["restore"])

    # --- the price gap ---------------------------------------------------------------

    def price_gap(self) -> None:
        s, p, _, _ = self.numbers()
        head = title("When does cheap-but-preemptible win?").to_edge(UP, buff=0.35)
        with self.beat(f"{fmt_seconds(p['work'])} on {fmt_count(s['gpus'])} GPUs costs "
                       f"{_usd(s['on_demand_cost'])} on demand; "
                       f"at {fmt_percent(p['discount'])} off, spot costs {_usd(s['aws_cost'])}, "
                       "but any node can be reclaimed."):
            self.play(Write(head), run_time=1.0)
            scale = 9.0 / s["on_demand_cost"]
            rows = VGroup()
            for name, cost, colour in (("on demand", s["on_demand_cost"], MUTED),
                                       (f"spot, {fmt_percent(p['discount'])} off", s["aws_cost"], COMPUTE)):
                bar = Rectangle(width=cost * scale, height=0.5, fill_color=colour, fill_opacity=0.85,
                                stroke_width=0)
                name_t = label(name, size=SMALL_SIZE, color=MUTED)
                value_t = label(_usd(cost), size=BODY_SIZE)
                rows.add(VGroup(name_t, bar, value_t))
            for i, (name_t, bar, value_t) in enumerate(rows):
                y = 1.3 - 1.0 * i
                bar.move_to([-3.6 + bar.width / 2, y, 0])
                name_t.next_to(bar, UP, buff=0.1).align_to(bar, LEFT)
                value_t.next_to(bar, RIGHT, buff=0.2)
            sub = markup(f"{fmt_count(p['nodes'])} nodes × {fmt_count(p['gpus_per_node'])} H100s · "
                         f"{fmt_seconds(p['work'])} of training", size=SMALL_SIZE, color=MUTED)
            sub.next_to(head, DOWN, buff=0.3)
            self.play(FadeIn(sub), *[GrowFromEdge(r[1], LEFT) for r in rows],
                      *[FadeIn(r[0]) for r in rows], run_time=1.2)
            self.play(*[FadeIn(r[2]) for r in rows], run_time=0.6)
            self.wait(2.0)
        self.price_rows, self.price_sub = rows, sub

    # --- one run hopping across preemptions -------------------------------------------

    def one_run(self) -> None:
        _, _, a, _ = self.numbers()
        blocks, x_of = a["blocks"], self.run_x
        total = blocks[-1]["end"]
        with self.beat(f"Scaled up to {fmt_count(a['gpus'])} GPUs, the gang is reclaimed every "
                       f"{fmt_seconds(a['mtbp'])} on average: this day of work hops across "
                       f"{a['preemptions']} preemptions."):
            self.play(FadeOut(self.price_rows), FadeOut(self.price_sub), run_time=0.5)
            key = legend([("compute", COMPUTE), ("snapshot", SAVE), ("wait for capacity", WAIT),
                          ("restore", RESTART)]).move_to([0, 2.55, 0])
            frame = Rectangle(width=WIDTH, height=RUN_H, stroke_color=MUTED, stroke_width=1.2)
            frame.move_to([LEFT_X + WIDTH / 2, RUN_Y, 0])
            rects = VGroup()
            for b in blocks:
                w = max((b["end"] - b["start"]) * WIDTH / total, MIN_W if b["kind"] != "compute" else 0)
                if w <= 0:
                    continue
                r = Rectangle(width=w, height=RUN_H, fill_color=COLOURS[b["kind"]], fill_opacity=0.9,
                              stroke_width=0)
                r.move_to([x_of(b["start"]) + w / 2, RUN_Y, 0])
                rects.add(r)
            reclaims = [b["end"] for b in blocks if b["kind"] == "snapshot"]
            ticks = VGroup(*[Line([x_of(t), RUN_Y + RUN_H / 2 + 0.02, 0], [x_of(t), RUN_Y + RUN_H / 2 + 0.2, 0],
                                  color=FAIL, stroke_width=4) for t in reclaims])
            t0 = label("0", size=SMALL_SIZE, color=MUTED).next_to(frame, DOWN, buff=0.12).align_to(frame, LEFT)
            t1 = label(fmt_seconds(total), size=SMALL_SIZE, color=MUTED).next_to(frame, DOWN, buff=0.12)
            t1.align_to(frame, RIGHT)
            runs = label(f"{fmt_count(a['gpus'])} GPUs, wall clock", size=SMALL_SIZE, color=MUTED)
            runs.next_to(frame, DOWN, buff=0.12)
            self.play(FadeIn(key), Create(frame), FadeIn(t0), FadeIn(t1), FadeIn(runs), run_time=0.8)
            self.play(*[GrowFromEdge(r, LEFT) for r in rects], run_time=3.0)
            self.play(FadeIn(ticks), run_time=0.6)
            self.wait(1.5)
        self.first_reclaim = reclaims[0] if reclaims else total / 2
        self.run_bar = [key, frame, rects, ticks, t0, t1, runs]

    # --- one preemption, to scale: AWS's notice -------------------------------------------

    def aws_notice(self) -> None:
        _, _, a, _ = self.numbers()
        delta, wait_s, restore = a["snapshot"], a["capacity_wait"], a["restore"]
        span = a["aws_notice"] + wait_s + restore
        zx, t_reclaim = self.zoom_x, self.first_reclaim
        with self.beat(f"One reclaim of the {fmt_count(a['zoom_gpus'])}-GPU gang: AWS warns "
                       f"{fmt_seconds(a['aws_notice'])} ahead, its {fmt_seconds(delta)} snapshot fits, "
                       "no work is lost."):
            zoom_frame = Rectangle(width=WIDTH, height=ZOOM_H, stroke_color=MUTED, stroke_width=1.2)
            zoom_frame.move_to([LEFT_X + WIDTH / 2, ZOOM_Y, 0])
            guides = VGroup(
                DashedLine([self.run_x(t_reclaim), RUN_Y - RUN_H / 2, 0], [LEFT_X, ZOOM_Y + ZOOM_H / 2, 0],
                           color=MUTED, stroke_width=1),
                DashedLine([self.run_x(t_reclaim), RUN_Y - RUN_H / 2, 0], [LEFT_X + WIDTH, ZOOM_Y + ZOOM_H / 2, 0],
                           color=MUTED, stroke_width=1))
            parts = [("compute", 0.0, a["aws_notice"] - delta), ("snapshot", a["aws_notice"] - delta, a["aws_notice"]),
                     ("wait", a["aws_notice"], a["aws_notice"] + wait_s),
                     ("restore", a["aws_notice"] + wait_s, span)]
            zrects = VGroup()
            for kind, t0_, t1_ in parts:
                r = Rectangle(width=zx(t1_) - zx(t0_), height=ZOOM_H, fill_color=COLOURS[kind], fill_opacity=0.9,
                              stroke_width=0)
                r.move_to([(zx(t0_) + zx(t1_)) / 2, ZOOM_Y, 0])
                zrects.add(r)
            notice = self._bracket(zx(0), zx(a["aws_notice"]), f"notice {fmt_seconds(a['aws_notice'])}", OK)
            reclaim = Line([zx(a["aws_notice"]), ZOOM_Y - ZOOM_H / 2 - 0.1, 0],
                           [zx(a["aws_notice"]), ZOOM_Y + ZOOM_H / 2 + 0.1, 0], color=FAIL, stroke_width=4)
            snap_t = label(f"snapshot {fmt_seconds(delta)}", size=SMALL_SIZE, color=SAVE)
            snap_t.next_to(zrects[1], DOWN, buff=0.15)
            rejoin_t = label(f"rejoin: wait {fmt_seconds(wait_s)} + restore {fmt_seconds(restore)}",
                             size=SMALL_SIZE, color=MUTED).next_to(zrects[2], DOWN, buff=0.15)
            self.play(Create(guides), Create(zoom_frame), run_time=0.8)
            self.play(GrowFromEdge(zrects[0], LEFT), FadeIn(notice), run_time=1.0)
            self.play(GrowFromEdge(zrects[1], LEFT), FadeIn(snap_t), run_time=0.8)
            self.play(Create(reclaim), run_time=0.4)
            self.play(GrowFromEdge(zrects[2], LEFT), GrowFromEdge(zrects[3], LEFT), FadeIn(rejoin_t), run_time=1.2)
            self.wait(2.0)
        self.notice_bracket, self.snapshot_label = notice, snap_t
        self.zoom = [guides, zoom_frame, zrects, reclaim, rejoin_t]

    # --- the same preemption with a 30-second notice ---------------------------------------

    def short_notice(self) -> None:
        _, _, a, _ = self.numbers()
        short, zx, zoom_frame = a["short_notice"], self.zoom_x, self.zoom[1]
        with self.beat(f"Google Cloud and Azure warn {fmt_seconds(short)} ahead: it does not fit, and the "
                       f"gang loses {fmt_seconds(a['lost_at_first'])} on average, back to its last checkpoint."):
            short_notice = self._bracket(zx(a["aws_notice"] - short), zx(a["aws_notice"]),
                                         f"notice {fmt_seconds(short)}", FAIL)
            lost = Rectangle(width=zx(a["aws_notice"]) - zx(0), height=ZOOM_H, fill_color=REWORK,
                             fill_opacity=0.85, stroke_width=0)
            lost.move_to([(zx(0) + zx(a["aws_notice"])) / 2, ZOOM_Y, 0])
            lost_t = label(f"← {fmt_seconds(a['lost_at_first'])} of work lost on average, back to the last checkpoint "
                           f"(one every {fmt_seconds(a['fallback_interval'])})", size=SMALL_SIZE, color=REWORK)
            lost_t.next_to(zoom_frame, DOWN, buff=0.55).align_to(zoom_frame, LEFT)
            self.play(FadeOut(self.notice_bracket), FadeOut(self.snapshot_label), run_time=0.5)
            self.play(FadeIn(short_notice), run_time=0.8)
            self.play(FadeIn(lost), FadeIn(lost_t), run_time=1.0)
            self.wait(2.5)
        self.short_zoom = [short_notice, lost, lost_t]

    # --- the verdict -----------------------------------------------------------------------

    def verdict(self) -> None:
        s, p, a, q = self.numbers()
        short = a["short_notice"]
        big = q["llama_scale"]
        with self.beat(f"Spot wins below the {fmt_percent(p['discount'])}–{fmt_percent(p['discount_max'])} "
                       f"on offer: {fmt_percent(s['aws_break_even'])} here; at {fmt_count(big['gpus'])} GPUs "
                       f"{fmt_percent(big['break_even'])} if the gang waits, "
                       f"{fmt_percent(q['elastic']['break_even'])} if it shrinks."):
            self.play(FadeOut(VGroup(*self.run_bar, *self.zoom, *self.short_zoom)), run_time=0.6)
            # each break-even discount as a bar on 0-100 %, against the discount on offer
            offer = (p["discount"], p["discount_max"])
            rows = [(f"{fmt_count(s['gpus'])} GPUs, AWS notice", s["aws_break_even"]),
                    (f"{fmt_count(s['gpus'])} GPUs, {fmt_seconds(short)} notice", s["gcp_break_even"]),
                    (f"{fmt_count(s['gpus'])} GPUs, {fmt_seconds(short)}, async snapshots",
                     q["async"]["break_even"]),
                    (f"{fmt_count(big['gpus'])} GPUs, gang waits", big["break_even"]),
                    (f"{fmt_count(big['gpus'])} GPUs, shrinks and continues", q["elastic"]["break_even"])]
            bars = value_bars([(name, d, fmt_percent(d), OK if d < offer[0] else FAIL) for name, d in rows],
                              top=1.0, width=5.5, size=BODY_SIZE - 2)
            head = markup("break-even discount  d* = 1 − W/T", size=BODY_SIZE, color=MUTED)
            on_offer = markup(f"discount on offer:  {fmt_percent(offer[0])}–{fmt_percent(offer[1])}",
                              size=BODY_SIZE, color=OK)
            VGroup(head, bars, on_offer).arrange(DOWN, buff=0.4, aligned_edge=LEFT).move_to([0, 0.3, 0])
            self.play(FadeIn(head, shift=0.15 * RIGHT), run_time=0.6)
            self.play(*grow_value_bars(bars), run_time=1.6)
            self.play(FadeIn(on_offer, shift=0.15 * RIGHT), run_time=0.6)
            self.wait(3.0)

    def _bracket(self, x0: float, x1: float, text: str, colour: str) -> VGroup:
        """A bracket over the zoomed bar from x0 to x1, labelled above."""
        y = ZOOM_Y + ZOOM_H / 2 + 0.15
        br = VGroup(Line([x0, y, 0], [x1, y, 0], color=colour, stroke_width=3),
                    Line([x0, y - 0.1, 0], [x0, y, 0], color=colour, stroke_width=3),
                    Line([x1, y - 0.1, 0], [x1, y, 0], color=colour, stroke_width=3))
        t = label(text, size=SMALL_SIZE, color=colour).next_to(br, UP, buff=0.1)
        t.set_x(min(max((x0 + x1) / 2, LEFT_X + t.width / 2), LEFT_X + WIDTH - t.width / 2))
        return VGroup(br, t)
