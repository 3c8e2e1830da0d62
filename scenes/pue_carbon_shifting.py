"""Scene 20 · Datacenter PUE and temporal compute shifting.

First the building: the overhead on top of each watt of IT, split into power
losses, fans and pumps, chillers and lighting, against Google's fleet and the
industry average. Then one day of PJM's grid (the day with the year's median
daily swing), its batch jobs arriving during the working day, and the jobs
sliding along the 24-hour carbon curve into its valley. Every number comes from
self.data (models.pue_carbon_shifting.pue_carbon_shifting).
"""

from __future__ import annotations

from manim import (
    DOWN,
    LEFT,
    RIGHT,
    UP,
    Create,
    FadeIn,
    FadeOut,
    GrowFromEdge,
    Line,
    Rectangle,
    VGroup,
    VMobject,
    Write,
)

from design import palette
from models.units import fmt_percent
from scenes.style import (
    BODY_SIZE,
    INK,
    MUTED,
    SMALL_SIZE,
    ExhibitScene,
    label,
    legend,
    markup,
    title,
)

LOSS = palette.role("secondary")
FANS = palette.role("primary")
CHILL = palette.role("tertiary")
MISC = palette.role("cpu")
GRID = palette.role("primary")
JOB = palette.role("secondary")
MOVED = palette.role("ok")
GOOD, BAD = palette.role("ok"), palette.role("bad")

# the day chart: hours 0..24 across, carbon intensity up top, the jobs' lanes below
X0, X1 = -6.0, 6.2
CURVE_LO, CURVE_HI = 0.2, 2.3
LANE_TOP, LANE_BOTTOM = -0.1, -2.1


def _x(hour: float) -> float:
    return X0 + (X1 - X0) * hour / 24.0


class CarbonShifting(ExhibitScene):
    scene_id = "pue-carbon-shifting"

    def construct(self) -> None:
        m, p, a = self.data["summary"], self.data["params"], self.data["animation"]

        # --- the building's overhead ---------------------------------------------------
        with self.beat(f"For every kWh the GPUs use, this building draws {a['pue_annual']:.2f} kWh "
                       "over a Virginia year."):
            head = title("What does the building cost in energy?")
            lo, hi = 1.0, 1.6
            bx0, bx1, by = -5.5, 5.5, 0.2
            sx = lambda v: bx0 + (bx1 - bx0) * (v - lo) / (hi - lo)  # noqa: E731
            axis = Line([sx(lo), by - 0.45, 0], [sx(hi), by - 0.45, 0], color=MUTED, stroke_width=2)
            ticks = VGroup(*[
                VGroup(Line([sx(v), by - 0.52, 0], [sx(v), by - 0.38, 0], color=MUTED, stroke_width=2),
                       label(f"{v:.1f}", size=SMALL_SIZE, color=MUTED).move_to([sx(v), by - 0.8, 0]))
                for v in (1.0, 1.1, 1.2, 1.3, 1.4, 1.5, 1.6)])
            name = label("PUE = facility energy / IT energy", size=SMALL_SIZE, color=MUTED).move_to(
                [0, by - 1.3, 0])
            parts = [("power losses", a["share_power_loss"], LOSS), ("fans, pumps", a["share_fans"], FANS),
                     ("chillers", a["share_chiller"], CHILL), ("lighting", a["share_misc"], MISC)]
            segs, v = VGroup(), lo
            for _, share, colour in parts:
                r = Rectangle(width=sx(v + share) - sx(v), height=0.6, stroke_width=0, fill_color=colour,
                              fill_opacity=0.9)
                r.move_to([(sx(v) + sx(v + share)) / 2, by, 0])
                segs.add(r)
                v += share
            key = legend([(n, c) for n, _, c in parts]).move_to([0, by + 1.05, 0])
            self.play(Write(head), run_time=1.0)
            self.play(Create(axis), FadeIn(ticks), FadeIn(name), run_time=0.8)
            self.play(FadeIn(key), *[GrowFromEdge(s, LEFT) for s in segs], run_time=1.8)
            ours = markup(f"<b>this building: {a['pue_annual']:.2f}</b>", size=SMALL_SIZE + 2).next_to(
                segs, RIGHT, buff=0.2)
            self.play(FadeIn(ours), run_time=0.6)
            self.wait(2.0)

        with self.beat(f"Google's fleet ran at {a['google_pue']:.2f} in 2023; the industry average was "
                       f"{a['industry_pue']:.2f}."):
            marks = VGroup()
            for val, colour, text, dy in ((a["google_pue"], GOOD, f"Google {a['google_pue']:.2f}", 1.75),
                                          (a["industry_pue"], BAD, f"industry {a['industry_pue']:.2f}", 1.75)):
                ln = Line([sx(val), by - 0.45, 0], [sx(val), by + dy - 0.25, 0], color=colour, stroke_width=4)
                tx = label(text, size=SMALL_SIZE, color=colour).move_to([sx(val), by + dy, 0])
                if val > 1.5:
                    tx.align_to(ln, RIGHT)
                else:
                    tx.align_to(ln, LEFT)
                marks.add(VGroup(ln, tx))
            self.play(FadeIn(marks, shift=0.2 * UP), run_time=1.0)
            self.wait(2.5)

        # --- one day of the grid ----------------------------------------------------------
        ci = a["ci"]
        first = a["first_hour"]
        lo_ci, hi_ci = min(ci), max(ci)
        pad = 0.08 * (hi_ci - lo_ci)
        yc = lambda c: CURVE_LO + (CURVE_HI - CURVE_LO) * (c - lo_ci + pad) / (hi_ci - lo_ci + 2 * pad)  # noqa: E731
        pts = [[_x(k + 0.5), yc(c), 0] for k, c in enumerate(ci)]
        curve = VMobject(color=GRID, stroke_width=5).set_points_as_corners(pts)
        base = Line([_x(0), LANE_BOTTOM - 0.1, 0], [_x(24), LANE_BOTTOM - 0.1, 0], color=MUTED, stroke_width=2)
        hour_marks = VGroup()
        for k in (0, 6, 12, 18, 24):
            hm = label(f"{(first + k) % 24:02d}:00", size=16, color=MUTED).next_to(base, DOWN, buff=0.08)
            hour_marks.add(hm.set_x(_x(k)))
        ci_hi = label(f"{hi_ci:.0f} g CO₂/kWh", size=SMALL_SIZE, color=GRID)
        ci_lo = label(f"{lo_ci:.0f}", size=SMALL_SIZE, color=GRID)
        peak_k = ci.index(hi_ci)
        ci_hi.next_to([_x(peak_k + 0.5), yc(hi_ci), 0], UP, buff=0.1)
        ci_lo.next_to([_x(a["valley_hour"] + 0.5), yc(lo_ci), 0], DOWN, buff=0.1)
        head2 = title("Can batch work follow clean power?")
        with self.beat(f"PJM's grid on a typical day: {lo_ci:.0f} to {hi_ci:.0f} g CO₂ per kWh, "
                       f"cleanest around {(first + a['valley_hour']) % 24:02d}:00."):
            self.play(FadeOut(VGroup(axis, ticks, name, segs, key, ours, marks)), FadeOut(head), run_time=0.6)
            self.play(Write(head2), Create(base), FadeIn(hour_marks), run_time=0.8)
            self.play(Create(curve), run_time=2.0)
            self.play(FadeIn(ci_hi), FadeIn(ci_lo), run_time=0.5)
            self.wait(2.0)

        # --- the day's jobs at their submission times --------------------------------------
        arrivals, starts, dur = a["arrivals"], a["starts"], a["job_hours"]
        n = len(arrivals)
        lane_h = (LANE_TOP - LANE_BOTTOM) / max(n, 1)
        jobs = VGroup()
        for i, arr in enumerate(arrivals):
            r = Rectangle(width=_x(dur) - _x(0), height=lane_h * 0.7, stroke_width=0, fill_color=JOB,
                          fill_opacity=0.9)
            r.move_to([(_x(arr) + _x(arr + dur)) / 2, LANE_TOP - (i + 0.5) * lane_h, 0])
            jobs.add(r)
        window = Rectangle(width=_x(max(arrivals) + dur) - _x(min(arrivals)), height=CURVE_HI - LANE_BOTTOM + 0.1,
                           stroke_width=0, fill_color=JOB, fill_opacity=0.10)
        window.move_to([(_x(min(arrivals)) + _x(max(arrivals) + dur)) / 2, (CURVE_HI + LANE_BOTTOM) / 2, 0])
        with self.beat(f"{n} batch jobs of {p['job_hours']} hours arrive in working hours; each may wait up to "
                       f"{a['slack']} hours."):
            self.play(FadeIn(window), run_time=0.4)
            self.play(*[GrowFromEdge(j, LEFT) for j in jobs], run_time=1.4)
            self.wait(2.4)

        # --- they slide into the valley ----------------------------------------------------
        with self.beat(f"Each job slides to its cleanest hours: this day's jobs emit "
                       f"{fmt_percent(a['saved'])} less CO₂."):
            self.play(FadeOut(window), run_time=0.3)
            self.play(*[j.animate.shift(RIGHT * (_x(s) - _x(arr))).set_fill(MOVED, 0.9)
                        for j, arr, s in zip(jobs, arrivals, starts, strict=True)], run_time=3.0)
            self.wait(2.6)

        # --- the year ----------------------------------------------------------------------
        with self.beat(f"Over the year: {fmt_percent(m['saved_jobs'])} of the batch jobs' CO₂, "
                       f"{fmt_percent(m['saved_total'])} of the site's. The building's overhead weighs more."):
            self.play(FadeOut(VGroup(curve, base, hour_marks, ci_hi, ci_lo, jobs)), run_time=0.6)
            lines = VGroup(
                markup(f"{a['slack']} h of slack, {m['jobs']:,} jobs in 2022", size=BODY_SIZE, color=MUTED),
                markup(f"batch jobs' CO₂: <b>−{fmt_percent(m['saved_jobs'])}</b>", size=BODY_SIZE + 4, color=MOVED),
                markup(f"the whole site's: −{fmt_percent(m['saved_total'])}", size=BODY_SIZE, color=INK),
                markup(f"industry-average PUE instead: <b>{self.data['problems']['industry_vs_shifting']:.0f}×</b> "
                       "what shifting saves", size=BODY_SIZE, color=BAD),
            ).arrange(DOWN, buff=0.45).move_to([0, 0.0, 0])
            for ln in lines:
                self.play(FadeIn(ln, shift=0.15 * UP), run_time=0.7)
            self.wait(2.5)
