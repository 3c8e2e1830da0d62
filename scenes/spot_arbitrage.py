"""spot-arbitrage · Spot instance arbitrage & zero-overhead recovery.

The price gap first; then one preemption of the page's gang drawn to scale,
with AWS's two-minute notice, and with a 30-second one, zoomed out until the
work lost since the last checkpoint fits, and that loss shrinking under
asynchronous snapshots; then one sampled day of the Llama-scale gang (the
page's worked problem) hopping across preemptions (the model's `sample_run`);
then the break-even discounts on a log axis against the assumed discount range.
Every number comes from self.data (models.spot_arbitrage.spot_arbitrage).
"""

from __future__ import annotations

import math

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
    Transform,
    VGroup,
    Write,
)

from design import palette
from models.units import fmt_count, fmt_percent, fmt_seconds
from scenes.style import (
    BODY_SIZE,
    INK,
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
ZOOM_Y, ZOOM_H = 0.0, 0.5
LOG_LO = 1e-4  # the verdict's log axis starts at 0.01 %, below the smallest break-even drawn
MIN_DRAWN = 0.01  # scene units: a block narrower than this on the run bar is too thin to see, and skipped


def _usd(x: float) -> str:
    return f"${fmt_count(x)}"


def zoom_scale(t0: float, t1: float):
    """x of time t on the zoomed bar, which spans t0..t1 (t = 0 at the reclaim)."""
    return lambda t: LEFT_X + WIDTH * (t - t0) / (t1 - t0)


def span_rect(x0: float, x1: float, colour: str) -> Rectangle:
    """A block of the zoomed bar from x0 to x1."""
    r = Rectangle(width=x1 - x0, height=ZOOM_H, fill_color=colour, fill_opacity=0.9, stroke_width=0)
    return r.move_to([(x0 + x1) / 2, ZOOM_Y, 0])


class SpotHops(ExhibitScene):
    """The price gap, one run hopping across preemptions, one preemption zoomed in with AWS's notice
    and with a 30-second one, then the break-even discounts against the assumed discount range."""

    scene_id = "spot-arbitrage"

    def construct(self) -> None:
        # the page's 64-GPU gang first (price, one reclaim, its loss), then the Llama-scale gang: one change of scale
        for beat in (self.price_gap, self.aws_notice, self.short_notice, self.async_snapshots, self.one_run,
                     self.verdict):
            beat()

    def numbers(self) -> tuple[dict, dict, dict, dict]:
        """The model's summary, parameters, animation plan and worked problems."""
        return self.data["summary"], self.data["params"], self.data["animation"], self.data["problems"]

    def run_x(self, t: float) -> float:
        """x of wall-clock time t on the run bar."""
        return LEFT_X + WIDTH * t / self.data["animation"]["blocks"][-1]["end"]

    # --- the price gap ---------------------------------------------------------------

    def price_gap(self) -> None:
        s, p, _, _ = self.numbers()
        head = title("When does cheap-but-preemptible win?").to_edge(UP, buff=0.35)
        with self.beat(f"{fmt_seconds(p['work'])} on {fmt_count(s['gpus'])} GPUs costs "
                       f"{_usd(s['on_demand_cost'])} on demand; "
                       f"at an assumed {fmt_percent(p['discount'])} off, spot costs {_usd(s['aws_cost'])}, "
                       "but any node can be reclaimed."):
            self.play(Write(head), run_time=1.0)
            scale = 9.0 / s["on_demand_cost"]
            rows = VGroup()
            spot_name = f"spot, {fmt_percent(p['discount'])} off (assumed, unverified for GPUs)"
            for name, cost, colour in (("on demand", s["on_demand_cost"], MUTED),
                                       (spot_name, s["aws_cost"], COMPUTE)):
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
        with self.beat(f"At the worked problem's {fmt_count(a['gpus'])} GPUs the gang is reclaimed every "
                       f"{fmt_seconds(a['mtbp'])} on average: a sampled day of work hops across "
                       f"{a['preemptions']} preemptions, each a wait for a node."):
            self.play(FadeOut(VGroup(*self.zoom, *self.short_zoom)), run_time=0.6)
            # the snapshot and the restore (δ each) are seconds in a day: drawn to scale they vanish, so the
            # key names only what shows and says why the rest does not
            key = legend([("compute", COMPUTE), ("wait for capacity", WAIT)]).move_to([0, 2.55, 0])
            thin = label(f"snapshot and restore, {fmt_seconds(a['run_snapshot'])} each: too thin to draw",
                         size=SMALL_SIZE, color=MUTED)
            frame = Rectangle(width=WIDTH, height=RUN_H, stroke_color=MUTED, stroke_width=1.2)
            frame.move_to([LEFT_X + WIDTH / 2, RUN_Y, 0])
            rects = VGroup()
            for b in blocks:
                w = (b["end"] - b["start"]) * WIDTH / total  # to scale: a 1-s snapshot is not drawn
                if w < MIN_DRAWN:
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
            runs = label(f"{fmt_count(a['gpus'])} GPUs, wall clock, to scale", size=SMALL_SIZE, color=MUTED)
            runs.next_to(frame, DOWN, buff=0.12)
            thin.next_to(runs, DOWN, buff=0.2)
            self.play(FadeIn(key), Create(frame), FadeIn(t0), FadeIn(t1), FadeIn(runs), FadeIn(thin), run_time=0.8)
            self.play(*[GrowFromEdge(r, LEFT) for r in rects], run_time=3.0)
            self.play(FadeIn(ticks), run_time=0.6)
            self.wait(1.5)
        self.run_bar = [key, frame, rects, ticks, t0, t1, runs, thin]

    # --- one preemption of the page's gang, to scale: AWS's notice ---------------------------

    def aws_notice(self) -> None:
        _, _, a, _ = self.numbers()
        delta, wait_s, restore, notice = a["snapshot"], a["capacity_wait"], a["restore"], a["aws_notice"]
        zx = zoom_scale(-notice, wait_s + restore)  # t = 0 at the reclaim
        with self.beat(f"One reclaim of the page's {fmt_count(a['zoom_gpus'])}-GPU gang: AWS warns "
                       f"{fmt_seconds(notice)} ahead, its {fmt_seconds(delta)} snapshot fits, "
                       "no work is lost."):
            key = legend([("compute", COMPUTE), ("snapshot", SAVE), ("wait for capacity", WAIT),
                          ("restore", RESTART)]).move_to([0, 2.55, 0])
            head = label(f"the page's job, {fmt_count(a['zoom_gpus'])} GPUs: one reclaim, to scale",
                         size=SMALL_SIZE, color=MUTED).move_to([0, ZOOM_Y + 1.3, 0])
            zoom_frame = Rectangle(width=WIDTH, height=ZOOM_H, stroke_color=MUTED, stroke_width=1.2)
            zoom_frame.move_to([LEFT_X + WIDTH / 2, ZOOM_Y, 0])
            zrects = VGroup(*[span_rect(zx(t0_), zx(t1_), COLOURS[kind])
                              for kind, t0_, t1_ in (("compute", -notice, -delta), ("snapshot", -delta, 0.0),
                                                     ("wait", 0.0, wait_s),
                                                     ("restore", wait_s, wait_s + restore))])
            bracket = self._bracket(zx(-notice), zx(0.0), f"notice {fmt_seconds(notice)}", OK)
            reclaim = Line([zx(0.0), ZOOM_Y - ZOOM_H / 2 - 0.1, 0], [zx(0.0), ZOOM_Y + ZOOM_H / 2 + 0.1, 0],
                           color=FAIL, stroke_width=4)
            snap_t = label(f"snapshot {fmt_seconds(delta)}", size=SMALL_SIZE, color=SAVE)
            snap_t.next_to(zrects[1], DOWN, buff=0.15)
            rejoin_t = label(f"rejoin: wait {fmt_seconds(wait_s)} + restore {fmt_seconds(restore)}",
                             size=SMALL_SIZE, color=MUTED).next_to(zrects[2], DOWN, buff=0.15)
            self.play(FadeOut(self.price_rows), FadeOut(self.price_sub), run_time=0.5)
            self.play(FadeIn(key), FadeIn(head), Create(zoom_frame), run_time=0.8)
            self.play(GrowFromEdge(zrects[0], LEFT), FadeIn(bracket), run_time=1.0)
            self.play(GrowFromEdge(zrects[1], LEFT), FadeIn(snap_t), run_time=0.8)
            self.play(Create(reclaim), run_time=0.4)
            self.play(GrowFromEdge(zrects[2], LEFT), GrowFromEdge(zrects[3], LEFT), FadeIn(rejoin_t), run_time=1.2)
            self.wait(2.0)
        self.notice_bracket, self.snapshot_label, self.rejoin_label = bracket, snap_t, rejoin_t
        self.zoom = [key, head, zoom_frame, zrects, reclaim]

    # --- the same preemption with a 30-second notice, zoomed out to the lost work -------------

    def short_notice(self) -> None:
        _, _, a, _ = self.numbers()
        short, notice, lost = a["short_notice"], a["aws_notice"], a["lost_at_first"]
        end = a["capacity_wait"] + a["restore"]
        near, far = zoom_scale(-notice, end), zoom_scale(-lost, end)  # the beat before, and to scale with the loss
        _, head, _, zrects, reclaim = self.zoom
        with self.beat(f"Google Cloud and Azure warn {fmt_seconds(short)} ahead: the {fmt_seconds(a['snapshot'])} "
                       "snapshot does not fit, "
                       f"and the gang loses {fmt_seconds(lost)} of work on average, drawn to scale."):
            short_bracket = self._bracket(near(-short), near(0.0), f"notice {fmt_seconds(short)}", FAIL)
            self.play(FadeOut(self.notice_bracket), FadeOut(self.snapshot_label), FadeOut(self.rejoin_label),
                      FadeIn(short_bracket), run_time=0.8)
            # zoom out: the same times on a scale long enough to hold the work since the last checkpoint
            times = ((-notice, -a["snapshot"]), (-a["snapshot"], 0.0), (0.0, a["capacity_wait"]),
                     (a["capacity_wait"], end))
            earlier = span_rect(far(-lost), far(-notice), COMPUTE)
            short_far = self._bracket(far(-short), far(0.0), f"notice {fmt_seconds(short)}", FAIL)
            head_far = label(f"the page's job, {fmt_count(a['zoom_gpus'])} GPUs: the same reclaim, zoomed out "
                             f"to {fmt_seconds(lost + end)}, to scale", size=SMALL_SIZE, color=MUTED).move_to(head)
            self.play(*[r.animate.stretch_to_fit_width(far(t1) - far(t0)).move_to([(far(t0) + far(t1)) / 2, ZOOM_Y, 0])
                        for r, (t0, t1) in zip(zrects, times)],
                      reclaim.animate.set_x(far(0.0)), Transform(short_bracket, short_far),
                      GrowFromEdge(earlier, RIGHT), Transform(head, head_far), run_time=1.6)
            # no snapshot in time: everything since the last checkpoint is lost
            lost_r = span_rect(far(-lost), far(0.0), REWORK)
            last = Line([far(-lost), ZOOM_Y - ZOOM_H / 2 - 0.1, 0], [far(-lost), ZOOM_Y + ZOOM_H / 2 + 0.1, 0],
                        color=SAVE, stroke_width=4)
            last_t = label("last checkpoint", size=SMALL_SIZE, color=SAVE).next_to(last, UP, buff=0.1)
            last_t.align_to(last, LEFT)
            lost_t = label(f"{fmt_seconds(lost)} of work lost on average (one checkpoint every "
                           f"{fmt_seconds(a['fallback_interval'])})", size=SMALL_SIZE, color=REWORK)
            lost_t.next_to(lost_r, DOWN, buff=0.15).align_to(lost_r, LEFT)
            rejoin_t = label(f"rejoin {fmt_seconds(end)}", size=SMALL_SIZE, color=MUTED)
            rejoin_t.next_to(lost_t, DOWN, buff=0.15).align_to(zrects[3], RIGHT)
            self.play(Create(last), FadeIn(last_t), run_time=0.5)
            self.play(FadeOut(zrects[1]), GrowFromEdge(lost_r, RIGHT), FadeIn(lost_t), FadeIn(rejoin_t),
                      run_time=1.4)
            self.wait(2.0)
        self.short_zoom = [short_bracket, earlier, lost_r, last, last_t, lost_t, rejoin_t]
        self.far = far

    # --- the same reclaim with asynchronous snapshots: the loss shrinks ------------------------

    def async_snapshots(self) -> None:
        _, _, a, _ = self.numbers()
        far, lost, lost_a = self.far, a["lost_at_first"], a["lost_async"]
        _, earlier, lost_r, last, last_t, lost_t, rejoin_t = self.short_zoom
        with self.beat(f"Asynchronous snapshots copy to host memory in {fmt_seconds(a['async_copy'])} and drain "
                       f"behind training: the loss shrinks to {fmt_seconds(lost_a)}, and the extra wall time from "
                       f"{fmt_seconds(a['sync_extra'])} to {fmt_seconds(a['async_extra'])}."):
            # the work between the old and the new last durable copy is no longer lost: compute again
            kept = span_rect(far(-lost), far(-lost_a), COMPUTE)
            small = span_rect(far(-lost_a), far(0.0), REWORK)
            last_new = last.copy().set_x(far(-lost_a))
            # above the notice's bracket label, which sits just right of the new marker
            last_t_new = label("last copy on storage", size=SMALL_SIZE, color=SAVE).next_to(last_new, UP, buff=0.55)
            last_t_new.align_to(last_new, RIGHT)
            lost_t_new = label(f"{fmt_seconds(lost_a)} lost on average: half of a {fmt_seconds(a['async_interval'])} "
                               f"segment, plus q·τ = {fmt_seconds(a['async_late_loss'])} "
                               f"({fmt_percent(a['async_lost_share'])} of drains miss the notice)",
                               size=SMALL_SIZE, color=REWORK)
            lost_t_new.next_to(lost_r, DOWN, buff=0.15).align_to(lost_r, LEFT)
            extra = label(f"extra wall time over the run: {fmt_seconds(a['sync_extra'])} → "
                          f"{fmt_seconds(a['async_extra'])}", size=SMALL_SIZE, color=INK)
            extra.next_to(rejoin_t, DOWN, buff=0.35).align_to(lost_r, LEFT)
            self.play(GrowFromEdge(kept, LEFT), Transform(lost_r, small), Transform(last, last_new),
                      Transform(last_t, last_t_new), Transform(lost_t, lost_t_new), run_time=1.6)
            self.play(FadeIn(extra, shift=0.15 * RIGHT), run_time=0.6)
            self.wait(2.0)
        self.short_zoom += [kept, extra]

    # --- the verdict -----------------------------------------------------------------------

    def verdict(self) -> None:
        s, p, a, q = self.numbers()
        short = a["short_notice"]
        big = q["llama_scale"]
        with self.beat(f"Spot wins below an assumed {fmt_percent(p['discount'])}–{fmt_percent(p['discount_max'])} "
                       f"discount: {fmt_percent(s['aws_break_even'])} here; at {fmt_count(big['gpus'])} GPUs "
                       f"{fmt_percent(big['break_even'])} if the gang waits, "
                       f"{fmt_percent(q['elastic']['break_even'])} if it shrinks."):
            self.play(FadeOut(VGroup(*self.run_bar)), run_time=0.6)
            # the break-even discounts span three decades: on a linear 0-100 % axis the small ones vanish, so the
            # bars run on a log axis from LOG_LO to 100 %, and the assumed range is shaded on the same axis
            offer = (p["discount"], p["discount_max"])
            rows = [(f"{fmt_count(s['gpus'])} GPUs, AWS notice", s["aws_break_even"]),
                    (f"{fmt_count(s['gpus'])} GPUs, {fmt_seconds(short)} notice", s["gcp_break_even"]),
                    (f"{fmt_count(s['gpus'])} GPUs, {fmt_seconds(short)}, async snapshots",
                     q["async"]["break_even"]),
                    (f"{fmt_count(big['gpus'])} GPUs, gang waits", big["break_even"]),
                    (f"{fmt_count(big['gpus'])} GPUs, shrinks and continues", q["elastic"]["break_even"])]
            decades = -math.log10(LOG_LO)
            pos = lambda d: math.log10(max(d, LOG_LO) / LOG_LO)  # noqa: E731 - position on the log axis
            width = 5.5
            bars = value_bars([(name, pos(d), fmt_percent(d), OK if d < offer[0] else FAIL) for name, d in rows],
                              top=decades, width=width, size=BODY_SIZE - 2)
            head = markup("break-even discount  d* = 1 − W/T  (log axis)", size=BODY_SIZE, color=MUTED)
            VGroup(head, bars).arrange(DOWN, buff=0.4, aligned_edge=LEFT).move_to([0, 0.8, 0])
            x0 = bars[0][1].get_left()[0]
            x_of = lambda d: x0 + width * pos(d) / decades  # noqa: E731
            top_y, bot_y = bars.get_top()[1] + 0.1, bars.get_bottom()[1] - 0.1
            band = Rectangle(width=x_of(offer[1]) - x_of(offer[0]), height=top_y - bot_y, stroke_width=0,
                             fill_color=OK, fill_opacity=0.25)
            band.move_to([(x_of(offer[0]) + x_of(offer[1])) / 2, (top_y + bot_y) / 2, 0])
            axis = VGroup(Line([x0, bot_y, 0], [x_of(1.0), bot_y, 0], color=MUTED, stroke_width=1.5))
            for k in range(int(decades) + 1):
                d = LOG_LO * 10 ** k
                axis.add(Line([x_of(d), bot_y, 0], [x_of(d), bot_y - 0.1, 0], color=MUTED, stroke_width=1.5))
                axis.add(label(fmt_percent(d), size=SMALL_SIZE, color=MUTED).next_to([x_of(d), bot_y - 0.1, 0],
                                                                                   DOWN, buff=0.08))
            on_offer = markup(f"shaded: discount assumed, {fmt_percent(offer[0])}–{fmt_percent(offer[1])}"
                              " (published ranges, unverified for GPUs)", size=SMALL_SIZE + 2, color=OK)
            on_offer.next_to(axis, DOWN, buff=0.3).align_to(head, LEFT)
            # the one dated H100 Spot discount (second-hand), below the band: every bar still lies left of it
            quoted = q["discounts"]["quoted"]
            dated = DashedLine([x_of(quoted), bot_y, 0], [x_of(quoted), top_y, 0], color=INK, stroke_width=2)
            dated_t = markup(f"dated H100 Spot, second-hand: {fmt_percent(quoted)}", size=SMALL_SIZE + 2, color=INK)
            dated_t.next_to(on_offer, DOWN, buff=0.15).align_to(head, LEFT)
            self.play(FadeIn(head, shift=0.15 * RIGHT), Create(axis), run_time=0.6)
            self.play(*grow_value_bars(bars), run_time=1.6)
            self.play(FadeIn(band), FadeIn(on_offer, shift=0.15 * RIGHT), run_time=0.6)
            self.play(Create(dated), FadeIn(dated_t, shift=0.15 * RIGHT), run_time=0.6)
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
