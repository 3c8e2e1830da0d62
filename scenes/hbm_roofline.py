"""hbm-roofline · HBM3e bandwidth and the roofline knee.

The scenario GPU's roofline on log-log axes; a decode kernel's dot starts at
batch 1, far down the bandwidth slope, and climbs one doubling of the batch
at a time until it reaches the knee at b*. Then the other GPUs' roofs appear
and show where their knees sit, and a KV cache per sequence shows how long
context keeps decode under the knee, with no more sequences than fit in
HBM beside the weights. Every number comes from self.data
(models.hbm_roofline.roofline). One rounding rule: intensities and ridges to four
significant figures, batches rounded up to whole sequences.
"""

from __future__ import annotations

import math

from manim import (
    DOWN,
    LEFT,
    RIGHT,
    UP,
    Axes,
    Create,
    DashedLine,
    Dot,
    FadeIn,
    FadeOut,
    Flash,
    Indicate,
    VGroup,
    VMobject,
)

from design import palette
from models.units import fmt_bytes, fmt_count, fmt_percent, fmt_rate, fmt_words, si, sig
from scenes.style import (
    MUTED,
    SMALL_SIZE,
    ExhibitScene,
    counter,
    label,
    markup,
    title,
)

GPU_COLOUR = {"h100": palette.role("primary"), "h200": palette.role("secondary"), "b200": palette.PURPLE}
DOT = palette.role("highlight")
KV = palette.GREEN  # as the figure: a hue apart from the H200's amber and the H100's blue it runs along

X_RANGE = (-0.3, 4.0)  # log10 FLOP/B
PANEL_X = 2.0  # left edge of the right-hand panel


def fmt_flops(x: float) -> str:
    return si(x, "FLOP/s", 3)


def _tick(v: float) -> str:
    return f"{v:,.0f}" if v >= 1 else f"{v:g}"


class DecodeClimbsTheRoofline(ExhibitScene):
    scene_id = "hbm-roofline"

    # --- helpers -------------------------------------------------------------------
    def p(self, intensity: float, flops: float):
        """A point on the log-log axes from intensity (FLOP/B) and throughput (FLOP/s)."""
        return self.axes.c2p(math.log10(intensity), math.log10(flops))

    def roof(self, g: dict, width: float = 5) -> VMobject:
        """The two roofs of one GPU: the bandwidth slope up to the ridge, then flat."""
        lo, hi = 10 ** X_RANGE[0], 10 ** X_RANGE[1]
        pts = [self.p(lo, lo * g["bandwidth"]), self.p(g["ridge_bf16"], g["peak_bf16"]),
               self.p(hi, g["peak_bf16"])]
        return VMobject(stroke_color=GPU_COLOUR[self.key_of[g["name"]]],
                        stroke_width=width).set_points_as_corners(pts)

    @staticmethod
    def set_counter(c: VGroup, value: float) -> None:
        """Set a style.counter's number and re-seat its unit at once (no one-frame lag)."""
        c[1].set_value(value)
        c[1].next_to(c[0], RIGHT, buff=0.15)
        if len(c) > 2:
            c[2].next_to(c[1], RIGHT, buff=0.12)

    # --- the script ------------------------------------------------------------------
    def construct(self) -> None:
        self.key_of = {g["name"]: k for k, g in self.data["records"]["gpus"].items()}
        self.roof_of_the_gpu()
        self.decode_at_batch_one()
        self.doubling_the_batch()
        self.the_knee()
        self.other_gpus()
        self.kv_cache()

    def scenario_gpu(self) -> tuple[str, dict]:
        """The animated GPU's key and its record."""
        key = self.data["animation"]["gpu"]
        return key, self.data["records"]["gpus"][key]

    def roof_of_the_gpu(self) -> None:
        """1. The roof of the scenario's GPU."""
        gpus = self.data["records"]["gpus"]
        key, g0 = self.scenario_gpu()
        with self.beat(f"{g0['name']} ({g0['hbm']}): throughput is capped by {fmt_rate(g0['bandwidth'])} × intensity "
                       f"until the {fmt_flops(g0['peak_bf16'])} dense BF16 roof; they meet at "
                       f"{sig(g0['ridge_bf16'], 4)} FLOP per byte"):
            heading = title("HBM3e bandwidth and the roofline knee")
            ymax = max(g["peak_bf16"] for g in gpus.values()) * 2.2
            ymin = 10 ** X_RANGE[0] * min(g["bandwidth"] for g in gpus.values()) * 0.8
            self.y_range = y_range = (math.log10(ymin), math.log10(ymax))
            self.axes = Axes(x_range=[*X_RANGE, 1], y_range=[*y_range, 1], x_length=6.9,
                             y_length=4.4, tips=False,
                             axis_config={"color": MUTED, "include_ticks": False, "stroke_width": 2})
            self.axes.move_to([-2.05, 0.25, 0])  # clear of the caption band
            ticks = VGroup()
            for e in range(math.ceil(X_RANGE[0]), math.floor(X_RANGE[1]) + 1):
                ticks.add(label(_tick(10.0**e), size=20, color=MUTED)
                          .next_to(self.axes.c2p(e, y_range[0]), DOWN, buff=0.12))
            for e in range(math.ceil(y_range[0]), math.floor(y_range[1]) + 1):
                ticks.add(label(_tick(10.0**e / 1e12), size=20, color=MUTED)
                          .next_to(self.axes.c2p(X_RANGE[0], e), LEFT, buff=0.12))
            x_name = label("arithmetic intensity (FLOP per HBM byte, log)", size=17, color=MUTED)
            x_name.next_to(self.axes, DOWN, buff=0.4)
            y_name = label("dense BF16 TFLOP/s (log)", size=17, color=MUTED).rotate(math.pi / 2)
            y_name.next_to(self.axes, LEFT, buff=0.95)
            self.play(FadeIn(heading), FadeIn(self.axes), FadeIn(ticks), FadeIn(x_name),
                      FadeIn(y_name), run_time=0.8)

            self.roof0 = self.roof(g0)
            self.ridge0 = ridge0 = self.p(g0["ridge_bf16"], g0["peak_bf16"])
            self.knee = Dot(ridge0, radius=0.07, color=GPU_COLOUR[key])
            self.knee_lbl = markup(f"ridge I* = Π/β = <b>{sig(g0['ridge_bf16'], 4)}</b> FLOP/B", size=16,
                                   color=GPU_COLOUR[key])
            self.knee_lbl.next_to(ridge0, UP, buff=0.2).align_to(ridge0, RIGHT).shift(0.1 * RIGHT)
            self.name0 = name0 = label(g0["name"], size=18, color=GPU_COLOUR[key])
            name0.next_to(self.p(10 ** X_RANGE[1], g0["peak_bf16"]), DOWN, buff=0.15,
                          aligned_edge=RIGHT)
            self.slope_lbl = label(f"β = {fmt_rate(g0['bandwidth'])}", size=16, color=GPU_COLOUR[key])
            mid = 10 ** ((X_RANGE[0] + math.log10(g0["ridge_bf16"])) / 2)
            # above the slope (to its left): the dashed slope of beat 4 runs below it
            self.slope_lbl.next_to(self.p(mid, mid * g0["bandwidth"]), LEFT, buff=0.25)
            self.flat_lbl = label(f"Π = {fmt_flops(g0['peak_bf16'])}", size=16, color=GPU_COLOUR[key])
            self.flat_lbl.next_to(self.p(10 ** X_RANGE[1], g0["peak_bf16"]), UP, buff=0.12,
                                  aligned_edge=RIGHT)
            self.play(Create(self.roof0), run_time=1.6)
            self.play(FadeIn(self.knee), FadeIn(self.knee_lbl), FadeIn(name0), FadeIn(self.slope_lbl),
                      FadeIn(self.flat_lbl), run_time=0.8)
            eq = markup("attainable = min(Π, I · β)", size=22)
            eq.move_to([PANEL_X, 2.35, 0], aligned_edge=LEFT)
            self.play(FadeIn(eq), run_time=0.5)
            self.wait(1.6)

    def decode_at_batch_one(self) -> None:
        """2. Decode at batch 1: every weight read for two FLOPs."""
        s, an = self.data["summary"], self.data["animation"]
        _, g0 = self.scenario_gpu()
        i1, a1 = an["intensity"][0], an["attainable"][0]
        with self.beat(f"Decode at batch 1 reads all {fmt_bytes(s['weights_bytes_total'])} of weights "
                       f"for 2 FLOPs per parameter: {sig(i1)} FLOP/B, {fmt_flops(a1)}, "
                       f"{fmt_percent(a1 / g0['peak_bf16'])} of the roof"):
            self.dot = Dot(self.p(i1, a1), radius=0.11, color=DOT)
            self.b_counter = counter("batch b", an["batches"][0], size=20)
            self.i_counter = counter("intensity 2b/w", i1, decimals=0, unit="FLOP/B", size=20)
            self.a_counter = counter("attainable", a1 / 1e12, decimals=1, unit="TFLOP/s", size=20)
            # HBM saturation as a quantity: busy the whole step left of the knee, I*/I right of it
            self.h_counter = counter("HBM busy", 100 * an["hbm_busy"][0], decimals=0, unit="%", size=20)
            panel = VGroup(self.b_counter, self.i_counter, self.a_counter, self.h_counter).arrange(
                DOWN, aligned_edge=LEFT, buff=0.2)
            panel.move_to([PANEL_X, 1.05, 0], aligned_edge=LEFT)
            self.note = markup(f"{fmt_words(s['model_params'])} parameters × {fmt_count(s['weight_bytes'])} B "
                               f"(BF16)", size=SMALL_SIZE, color=MUTED)
            self.note.move_to([PANEL_X, -0.3, 0], aligned_edge=LEFT)
            self.play(FadeIn(self.dot, scale=2), FadeIn(panel), FadeIn(self.note), run_time=0.8)
            self.play(Indicate(self.dot, color=DOT), run_time=0.8)
            self.wait(1.4)

    def set_counters(self, b: float, i: float, a: float, busy: float | None = None) -> None:
        """The panel's counters at batch b, intensity i, attainable a (FLOP/s) and HBM busy share."""
        self.set_counter(self.b_counter, b)
        self.set_counter(self.i_counter, i)
        self.set_counter(self.a_counter, a / 1e12)
        if busy is not None:
            self.set_counter(self.h_counter, 100 * busy)

    def doubling_the_batch(self) -> None:
        """3. Doubling the batch: the same weights serve twice the tokens."""
        an = self.data["animation"]
        _, g0 = self.scenario_gpu()
        with self.beat(f"Each doubling of the batch reuses the same weights for twice the tokens: "
                       f"intensity 2b/w = b in BF16, so the dot climbs the {fmt_rate(g0['bandwidth'])} "
                       f"slope, HBM saturated all the way"):
            self.trail = VGroup()
            for b, i, a, h in zip(an["batches"][1:], an["intensity"][1:], an["attainable"][1:],
                                  an["hbm_busy"][1:]):
                self.trail.add(Dot(self.dot.get_center(), radius=0.04, color=DOT, fill_opacity=0.5))
                self.add(self.trail[-1])
                self.play(self.dot.animate.move_to(self.p(i, a)), run_time=0.6)
                self.set_counters(b, i, a, h)
                self.wait(0.12)

    def the_knee(self) -> None:
        """4. The knee: b* = I* w / 2."""
        s, an = self.data["summary"], self.data["animation"]
        _, g0 = self.scenario_gpu()
        w, bstar = s["weight_bytes"], an["bstar"]
        past = an["past_knee_batch"]
        with self.beat(f"At b* = I* · w / 2 = {fmt_count(an['bstar_batch'])} sequences decode reaches "
                       f"the knee: from here the {fmt_flops(g0['peak_bf16'])} tensor cores, not HBM, "
                       f"set the pace; at {fmt_count(past)} HBM is busy only "
                       f"{fmt_percent(an['past_knee_hbm_busy'])} of the step"):
            self.trail.add(Dot(self.dot.get_center(), radius=0.04, color=DOT, fill_opacity=0.5))
            self.add(self.trail[-1])
            self.play(self.dot.animate.move_to(self.p(an["bstar_intensity"], g0["peak_bf16"])), run_time=0.8)
            self.set_counters(an["bstar_batch"], an["bstar_intensity"], g0["peak_bf16"], an["bstar_hbm_busy"])
            self.play(Flash(self.ridge0, color=DOT, line_length=0.3, flash_radius=0.3), run_time=0.7)
            self.bstar_eq = VGroup(
                markup(f"b* = I* · w / 2 = {sig(g0['ridge_bf16'], 4)} × {fmt_count(w)} / 2 = {sig(bstar, 4)}",
                       size=18, color=DOT),
                markup(f"rounded up: <b>{fmt_count(an['bstar_batch'])}</b> whole sequences", size=18, color=DOT),
            ).arrange(DOWN, aligned_edge=LEFT, buff=0.08)
            self.bstar_eq.move_to([PANEL_X, -0.9, 0], aligned_edge=LEFT)
            self.play(FadeIn(self.bstar_eq), run_time=0.5)
            self.wait(0.8)
            # past the knee along the flat roof: HBM idle for most of the step
            self.trail.add(Dot(self.dot.get_center(), radius=0.04, color=DOT, fill_opacity=0.5))
            self.add(self.trail[-1])
            past_i = past * 2 / w
            self.play(self.dot.animate.move_to(self.p(past_i, g0["peak_bf16"])), run_time=0.8)
            self.set_counters(past, past_i, g0["peak_bf16"], an["past_knee_hbm_busy"])
            self.play(Indicate(self.h_counter, color=DOT), run_time=0.7)
            self.wait(0.6)
            # kernels reach only a share η of the datasheet bandwidth: the slope drops, the knee moves right
            eta, r_eff = s["decode_bandwidth_efficiency"], s["anim_ridge_achievable"]
            lo = 10 ** X_RANGE[0]
            slope = DashedLine(self.p(lo, lo * eta * g0["bandwidth"]), self.p(r_eff, g0["peak_bf16"]),
                               stroke_color=GPU_COLOUR[self.data["animation"]["gpu"]], stroke_width=3,
                               dash_length=0.08)
            ghost = Dot(self.ridge0, radius=0.06, color=GPU_COLOUR[self.data["animation"]["gpu"]])
            # the tensor cores' share is not measured here: the knee lies between I* (tensor cores at η too)
            # and I*/η (tensor cores at their peak, the dashed line)
            eff_note = VGroup(
                markup(f"at the {fmt_percent(eta)} of β decode achieves (dashed):", size=16, color=MUTED),
                markup(f"knee {sig(s['anim_ridge_achievable_low'], 4)} to <b>{sig(r_eff, 4)}</b> FLOP/B, "
                       f"b* {fmt_count(s['anim_bstar_achievable_low_batch'])} to "
                       f"{fmt_count(s['anim_bstar_achievable_batch'])}", size=16, color=MUTED),
                markup(f"as tensor cores reach {fmt_percent(eta)} to 100% of Π", size=16, color=MUTED),
            ).arrange(DOWN, aligned_edge=LEFT, buff=0.06)
            eff_note.next_to(self.bstar_eq, DOWN, buff=0.12, aligned_edge=LEFT)
            self.play(Create(slope), ghost.animate.move_to(self.p(r_eff, g0["peak_bf16"])), FadeIn(eff_note),
                      run_time=1.2)
            self.wait(1.0)
            self.achievable = VGroup(slope, ghost, eff_note)

    def other_gpus(self) -> None:
        """5. The other GPUs: where their knees sit."""
        gpus, an = self.data["records"]["gpus"], self.data["animation"]
        key, _ = self.scenario_gpu()
        others = [k for k in an["order"] if k != key]
        self.lines = VGroup()
        for k in others:
            g = gpus[k]
            self.lines.add(VGroup(
                markup(f"<span foreground='{GPU_COLOUR[k]}'><b>{g['name']}</b></span>  "
                       f"I* = {sig(g['ridge_bf16'], 4)} FLOP/B, b* = "
                       f"{fmt_count(g['bstar_batch'])}", size=16),
                label(f"{g['hbm']}, {fmt_rate(g['bandwidth'])}, {fmt_flops(g['peak_bf16'])}", size=16,
                      color=MUTED),
            ).arrange(DOWN, aligned_edge=LEFT, buff=0.06))
        self.lines.arrange(DOWN, aligned_edge=LEFT, buff=0.16)
        self.lines.move_to([PANEL_X, -1.6, 0], aligned_edge=LEFT)
        with self.beat("HBM3e moves the knee: " + "; ".join(
                 f"{gpus[k]['name']} {fmt_rate(gpus[k]['bandwidth'])} and "
                 f"{fmt_flops(gpus[k]['peak_bf16'])}, knee at {sig(gpus[k]['ridge_bf16'], 4)} FLOP/B"
                 for k in others)):
            # the H100's b* stays for comparison, moved up where the model's size was
            self.play(FadeOut(self.slope_lbl), FadeOut(self.flat_lbl), FadeOut(self.knee_lbl),
                      FadeOut(self.achievable), FadeOut(self.note),
                      self.bstar_eq.animate.move_to([PANEL_X, -0.45, 0], aligned_edge=LEFT), run_time=0.4)
            self.top_peak = self.scenario_gpu()[1]["peak_bf16"]
            self.tags_below = [self.name0]
            for k, line in zip(others, self.lines):
                g = gpus[k]
                r = self.roof(g, width=4)
                kd = Dot(self.p(g["ridge_bf16"], g["peak_bf16"]), radius=0.07, color=GPU_COLOUR[k])
                # the roof's own name, on its flat part: it stays when the panel's lines go (beat 6)
                tag = label(g["name"], size=18, color=GPU_COLOUR[k])
                if g["peak_bf16"] > self.top_peak:  # a higher roof: its name above its flat part
                    tag.next_to(self.p(10 ** X_RANGE[1], g["peak_bf16"]), UP, buff=0.12, aligned_edge=RIGHT)
                else:  # the same or a lower roof: stacked under the names already there
                    tag.next_to(self.tags_below[-1], DOWN, buff=0.06, aligned_edge=RIGHT)
                    self.tags_below.append(tag)
                self.top_peak = max(self.top_peak, g["peak_bf16"])
                self.play(Create(r), FadeIn(line), run_time=1.2)
                self.play(FadeIn(kd, scale=2), FadeIn(tag), run_time=0.4)
                self.wait(0.8)
            self.bring_to_front(self.roof0, self.knee, self.dot)
            self.wait(1.2)

    def kv_cache(self) -> None:
        """6. KV cache: long context keeps decode under the knee."""
        s, an = self.data["summary"], self.data["animation"]
        _, g0 = self.scenario_gpu()
        y_range = self.y_range
        lim = an["kv_limit_intensity"]
        ctx = s["context_length"]
        fit = an["kv_batches"][-1]
        fit_i = an["kv_intensity"][-1]
        with self.beat(f"Give each sequence {fmt_count(ctx)} tokens of KV cache "
                       f"({fmt_bytes(s['kv_bytes_per_sequence'])} each): {fmt_count(s['anim_serving_gpus'])} "
                       f"{g0['name']}s hold only {fmt_count(fit)} beside the weights, and the step's average "
                       f"intensity stops at {fit_i:,.0f} FLOP/B, "
                       f"{'below' if fit_i < g0['ridge_bf16'] else 'above'} the knee"):
            # the weights-only dot and its trail belong to the climb above; the counters now follow the KV dot
            self.play(FadeOut(self.lines), FadeOut(self.bstar_eq), FadeOut(self.dot),
                      FadeOut(self.trail), run_time=0.4)
            kv_pts = [self.p(i, a) for i, a in zip(an["kv_intensity"], an["kv_attainable"])]
            kv_dot = Dot(kv_pts[0], radius=0.1, color=KV)
            kv_path = VMobject(stroke_color=KV, stroke_width=3).set_points_as_corners(kv_pts)
            limit_line = DashedLine(self.axes.c2p(math.log10(lim), y_range[0]),
                                    self.axes.c2p(math.log10(lim), y_range[1]),
                                    stroke_color=KV, stroke_width=2, dash_length=0.1)
            kv_note = VGroup(
                markup(f"<span foreground='{KV}'><b>with KV cache</b></span>, "
                       f"{fmt_count(s['anim_serving_gpus'])} GPUs:", size=18),
                markup(f"{fmt_count(fit)} fit: step average {fit_i:,.0f} FLOP/B", size=18),
                markup(f"any batch: under {sig(lim, 4)} FLOP/B (dashed)", size=18, color=MUTED),
            ).arrange(DOWN, aligned_edge=LEFT, buff=0.1)
            kv_note.move_to([PANEL_X, -1.6, 0], aligned_edge=LEFT)
            self.play(FadeIn(kv_dot), FadeIn(kv_note), run_time=0.5)
            for m in (self.b_counter, self.i_counter, self.a_counter, self.h_counter):
                m[1].set_color(KV)
            self.set_counters(an["kv_batches"][0], an["kv_intensity"][0], an["kv_attainable"][0],
                              an["kv_hbm_busy"][0])
            # with KV reads the intensity is no longer 2b/w: relabel the counter (same object, so the
            # number's updater keeps following it)
            self.i_counter[0].become(label("step average I(b)", size=20, color=MUTED)
                                     .move_to(self.i_counter[0], aligned_edge=LEFT))
            steps = list(zip(an["kv_batches"], an["kv_intensity"], an["kv_attainable"], an["kv_hbm_busy"],
                             kv_pts))
            self.play(Create(kv_path), run_time=0.8)
            for b, i, a, h, pt in steps[1:]:
                self.play(kv_dot.animate.move_to(pt), run_time=0.25)
                self.set_counters(b, i, a, h)
            self.play(Create(limit_line), run_time=0.6)
            self.wait(3.0)

__all__ = ["DecodeClimbsTheRoofline"]
