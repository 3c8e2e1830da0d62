"""pue-carbon-shifting · Datacenter PUE and temporal compute shifting.

First the building: the overhead on top of each watt of IT, split into power
losses, fans and pumps, chillers and lighting, against Google's fleet and the
industry average. Then one day of PJM's grid (the day whose jobs save the
median share of the year's days), its batch jobs arriving during the working day, and the jobs
sliding along the 24-hour carbon curve into its valley. Every number comes from
self.data (models.pue_carbon_shifting.pue_carbon_shifting).
"""

from __future__ import annotations

import math

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
    ReplacementTransform,
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
    grow_value_bars,
    label,
    legend,
    markup,
    title,
    value_bars,
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


BAR_LO, BAR_HI = 1.0, 1.6  # the PUE axis of the building's bar
BAR_X0, BAR_X1, BAR_Y = -5.5, 5.5, 0.2


def _change(saved: float) -> str:
    """A moved row's change against home, unshifted: a cut, or a rise when the transfer outweighs the grid."""
    return f", −{fmt_percent(saved)}" if saved >= 0 else f", +{fmt_percent(-saved)}"


def _bar_x(v: float) -> float:
    """x of PUE value v on the building's bar."""
    return BAR_X0 + (BAR_X1 - BAR_X0) * (v - BAR_LO) / (BAR_HI - BAR_LO)


class CarbonShifting(ExhibitScene):
    scene_id = "pue-carbon-shifting"

    def construct(self) -> None:
        self.m, self.p, self.a = self.data["summary"], self.data["params"], self.data["animation"]
        self.the_buildings_overhead()
        self.against_google_and_the_industry()
        self.one_day_of_the_grid()
        self.the_days_jobs()
        self.they_slide_into_the_valley()
        self.the_year()
        self.the_run_pauses()
        self.or_another_grid()

    def the_buildings_overhead(self) -> None:
        a, sx, by = self.a, _bar_x, BAR_Y
        with self.beat(f"For every kWh the GPUs use, this building draws {a['pue_annual']:.2f} kWh "
                       "over a Virginia year."):
            self.head = title("What does the building cost in energy?")
            self.axis = Line([sx(BAR_LO), by - 0.45, 0], [sx(BAR_HI), by - 0.45, 0], color=MUTED, stroke_width=2)
            self.ticks = VGroup(*[
                VGroup(Line([sx(v), by - 0.52, 0], [sx(v), by - 0.38, 0], color=MUTED, stroke_width=2),
                       label(f"{v:.1f}", size=SMALL_SIZE, color=MUTED).move_to([sx(v), by - 0.8, 0]))
                for v in (1.0, 1.1, 1.2, 1.3, 1.4, 1.5, 1.6)])
            self.name = label("PUE = facility energy / IT energy", size=SMALL_SIZE, color=MUTED).move_to(
                [0, by - 1.3, 0])
            parts = [("power losses", a["share_power_loss"], LOSS), ("fans, pumps", a["share_fans"], FANS),
                     ("chillers", a["share_chiller"], CHILL), ("lighting", a["share_misc"], MISC)]
            self.segs, v = VGroup(), BAR_LO
            for _, share, colour in parts:
                r = Rectangle(width=sx(v + share) - sx(v), height=0.6, stroke_width=0, fill_color=colour,
                              fill_opacity=0.9)
                r.move_to([(sx(v) + sx(v + share)) / 2, by, 0])
                self.segs.add(r)
                v += share
            self.key = legend([(n, c) for n, _, c in parts]).move_to([0, by + 1.05, 0])
            self.play(Write(self.head), run_time=1.0)
            self.play(Create(self.axis), FadeIn(self.ticks), FadeIn(self.name), run_time=0.8)
            self.play(FadeIn(self.key), *[GrowFromEdge(s, LEFT) for s in self.segs], run_time=1.8)
            self.ours = markup(f"<b>this building: {a['pue_annual']:.2f}</b>", size=SMALL_SIZE + 2).next_to(
                self.segs, RIGHT, buff=0.2)
            self.play(FadeIn(self.ours), run_time=0.6)
            self.wait(2.0)

    def against_google_and_the_industry(self) -> None:
        a, sx, by = self.a, _bar_x, BAR_Y
        with self.beat(f"Google's fleet ran at {a['google_pue']:.2f} in 2023; the industry average was "
                       f"{a['industry_pue']:.2f}."):
            self.marks = VGroup()
            for val, colour, text, dy in ((a["google_pue"], GOOD, f"Google {a['google_pue']:.2f}", 1.75),
                                          (a["industry_pue"], BAD, f"industry {a['industry_pue']:.2f}", 1.75)):
                ln = Line([sx(val), by - 0.45, 0], [sx(val), by + dy - 0.25, 0], color=colour, stroke_width=4)
                tx = label(text, size=SMALL_SIZE, color=colour).move_to([sx(val), by + dy, 0])
                if val > 1.5:
                    tx.align_to(ln, RIGHT)
                else:
                    tx.align_to(ln, LEFT)
                self.marks.add(VGroup(ln, tx))
            self.play(FadeIn(self.marks, shift=0.2 * UP), run_time=1.0)
            self.wait(2.5)

    def one_day_of_the_grid(self) -> None:
        a = self.a
        # the curve is what a job pays per kWh of IT work, the grid's intensity times the building's facility
        # watts per IT watt that hour: the scheduler's weight. The grid alone would mislead on a hot day, when
        # a cooler night can be the cheaper hour at a higher intensity
        ci = a["cost"]
        first = a["first_hour"]
        lo_ci, hi_ci = min(ci), max(ci)
        # the axis spans the day's own range (rounded out to tens, the grid-alone curve included): from zero the
        # day's swing of a few percent would look flat. The broken-axis start is labelled, so nothing hides it
        span = list(ci) + list(a["ci"])
        bottom = 10.0 * math.floor(min(span) / 10.0 - 0.5)
        top = 10.0 * math.ceil(max(span) / 10.0 + 0.5)
        yc = lambda c: CURVE_LO + (CURVE_HI - CURVE_LO) * (c - bottom) / (top - bottom)  # noqa: E731
        self.curve_y = yc  # the day's saving is placed between the two curves (they_slide_into_the_valley)
        pts = [[_x(k + 0.5), yc(c), 0] for k, c in enumerate(ci)]
        self.curve = VMobject(color=GRID, stroke_width=5).set_points_as_corners(pts)
        # the grid's intensity alone, thin and muted under it: the gap between the two is the building's overhead
        grid_pts = [[_x(k + 0.5), yc(c), 0] for k, c in enumerate(a["ci"])]
        self.grid_curve = VMobject(color=MUTED, stroke_width=2.5).set_points_as_corners(grid_pts)
        # above the line's flat start, in the wide gap under the job's curve: below it the line dips into the label
        self.grid_label = (label("grid alone", size=16, color=MUTED).next_to(grid_pts[0], UP, buff=0.1)
                           .align_to(grid_pts[0], LEFT))
        self.curve = VGroup(self.curve, self.grid_curve, self.grid_label)
        ax_x = _x(0) - 0.15
        self.y_axis = VGroup(Line([ax_x, yc(bottom), 0], [ax_x, yc(top), 0], color=MUTED, stroke_width=2))
        for v in (bottom, (bottom + top) / 2, top):
            self.y_axis.add(Line([ax_x - 0.08, yc(v), 0], [ax_x, yc(v), 0], color=MUTED, stroke_width=2),
                            label(f"{v:.0f}", size=16, color=MUTED).next_to([ax_x - 0.08, yc(v), 0], LEFT,
                                                                           buff=0.05))
        self.base = Line([_x(0), LANE_BOTTOM - 0.1, 0], [_x(24), LANE_BOTTOM - 0.1, 0], color=MUTED, stroke_width=2)
        # the axis's floor drawn across the day: the curve's chart ends there, and the jobs' lanes below it
        # are a panel of their own (hours across), not negative intensity
        self.zero = Line([_x(0), yc(bottom), 0], [_x(24), yc(bottom), 0], color=MUTED, stroke_width=2)
        # the unit and the date on screen, above the axis's top
        self.unit = label(f"g CO₂/kWh · {a['date']} (EST)", size=16, color=MUTED).next_to(
            [ax_x, yc(top), 0], UP, buff=0.12).align_to([ax_x - 0.5, 0, 0], LEFT)
        self.y_axis.add(self.zero, self.unit)
        self.hour_marks = VGroup()
        for k in (0, 6, 12, 18, 24):
            hm = label(f"{(first + k) % 24:02d}:00", size=16, color=MUTED).next_to(self.base, DOWN, buff=0.08)
            self.hour_marks.add(hm.set_x(_x(k)))
        self.ci_hi = label(f"{hi_ci:.0f} g CO₂ per kWh of IT work", size=SMALL_SIZE, color=GRID)
        self.ci_lo = label(f"{lo_ci:.0f}", size=SMALL_SIZE, color=GRID)
        peak_k = ci.index(hi_ci)
        self.ci_hi.next_to([_x(peak_k + 0.5), yc(hi_ci), 0], UP, buff=0.1)
        # above the valley: below it the grid-alone curve runs close
        self.ci_lo.next_to([_x(a["cost_valley_hour"] + 0.5), yc(lo_ci), 0], UP, buff=0.1)
        head2 = self.head2 = title("Can batch work follow clean power?")
        with self.beat(f"{a['date']}, the day of median saving: a job pays {lo_ci:.0f} to {hi_ci:.0f} g CO₂ "
                       f"per IT kWh, least near {(first + a['cost_valley_hour']) % 24:02d}:00 EST."):
            self.play(FadeOut(VGroup(self.axis, self.ticks, self.name, self.segs, self.key, self.ours, self.marks)),
                      FadeOut(self.head), run_time=0.6)
            self.play(Write(head2), Create(self.base), FadeIn(self.hour_marks), FadeIn(self.y_axis), run_time=0.8)
            self.play(Create(self.curve[0]), Create(self.grid_curve), FadeIn(self.grid_label), run_time=2.0)
            self.play(FadeIn(self.ci_hi), FadeIn(self.ci_lo), run_time=0.5)
            self.wait(2.0)

    def the_days_jobs(self) -> None:
        """The day's jobs at their submission times, each in its own lane, inside their submission window."""
        a, p = self.a, self.p
        arrivals, dur = a["arrivals"], a["job_hours"]
        n = len(arrivals)
        lane_h = (LANE_TOP - LANE_BOTTOM) / max(n, 1)
        self.jobs = VGroup()
        for i, arr in enumerate(arrivals):
            r = Rectangle(width=_x(dur) - _x(0), height=lane_h * 0.7, stroke_width=0, fill_color=JOB,
                          fill_opacity=0.9)
            r.move_to([(_x(arr) + _x(arr + dur)) / 2, LANE_TOP - (i + 0.5) * lane_h, 0])
            self.jobs.add(r)
        # the submission window only (first to last submission hour), over the jobs' lanes, and labelled
        w0, w1 = 0, p["submit_to"] - p["submit_from"]
        self.window = Rectangle(width=_x(w1) - _x(w0), height=LANE_TOP - LANE_BOTTOM + 0.1, stroke_width=0,
                                fill_color=JOB, fill_opacity=0.12)
        self.window.move_to([(_x(w0) + _x(w1)) / 2, (LANE_TOP + LANE_BOTTOM) / 2, 0])
        self.window_label = label(f"submitted {p['submit_from']:02d}:00–{p['submit_to']:02d}:00", size=16,
                                  color=JOB)
        # inside the box's lower left, below the first jobs and left of the last ones (submitted late in the day)
        self.window_label.align_to(self.window, LEFT).align_to(self.window, DOWN).shift(0.08 * RIGHT + 0.08 * UP)
        # top right of the lanes: the first lane's job ends well before the day shown does
        self.lanes_label = label("batch jobs, one per lane", size=16, color=MUTED).next_to(
            [_x(24), LANE_TOP, 0], DOWN, buff=0.02).align_to([_x(24), 0, 0], RIGHT)
        self.window = VGroup(self.window, self.window_label)
        with self.beat(f"{n} batch jobs of {p['job_hours']} hours arrive in working hours; each may wait up to "
                       f"{a['slack']} hours."):
            self.play(FadeIn(self.window), FadeIn(self.lanes_label), run_time=0.4)
            self.play(*[GrowFromEdge(j, LEFT) for j in self.jobs], run_time=1.4)
            self.wait(1.8)

    def _day_before(self) -> str:
        lag = self.m["forecast_lag_days"]
        return "the day before" if lag == 1 else f"{lag} days before"

    def they_slide_into_the_valley(self) -> None:
        a = self.a
        with self.beat("Knowing the day ahead, each job slides to where it emits least: "
                       f"−{fmt_percent(a['saved'])} CO₂ today, −{fmt_percent(self.m['saved_jobs'])} over the year."):
            self.play(FadeOut(self.window), run_time=0.3)
            self.play(*[j.animate.shift(RIGHT * (_x(s) - _x(arr))).set_fill(MOVED, 0.9)
                        for j, arr, s in zip(self.jobs, a["arrivals"], a["starts"], strict=True)], run_time=3.0)
            # the day's saving on screen, under the curve and above the jobs' lanes
            self.day_saved = markup(f"this day, with foresight: <b>−{fmt_percent(a['saved'])}</b> CO₂\n"
                                    f"the year: −{fmt_percent(self.m['saved_jobs'])}",
                                    size=BODY_SIZE, color=MOVED)
            # in the gap between the two curves over the hours the text spans, so neither line crosses it
            self.day_saved.set_x(_x(18))
            k0 = max(int((self.day_saved.get_left()[0] - X0) / (X1 - X0) * 24.0) - 1, 0)
            k1 = min(int((self.day_saved.get_right()[0] - X0) / (X1 - X0) * 24.0) + 1, len(a["cost"]))
            gap_lo = max(self.curve_y(c) for c in a["ci"][k0:k1])
            gap_hi = min(self.curve_y(c) for c in a["cost"][k0:k1])
            self.day_saved.set_y((gap_lo + gap_hi) / 2)
            self.play(FadeIn(self.day_saved, shift=0.15 * UP), run_time=0.6)
            self.wait(2.0)

    def the_year(self) -> None:
        a, m = self.a, self.m
        # the year leads with the scheduler that sees only the past; foresight is the upper bound beside it
        with self.beat(f"Planning on {self._day_before()}, the year saves {fmt_percent(m['saved_jobs_forecast'])} "
                       f"of the jobs' CO₂ ({fmt_percent(m['saved_jobs'])} with foresight), "
                       f"{fmt_percent(m['saved_total_forecast'])} of the site's. The overhead above Google's fleet "
                       f"emits {self.data['problems']['google_vs_shifting']:.0f}× the best saving, "
                       f"{self.data['problems']['google_vs_all_shifting']:.2f}× per kWh that can shift."):
            self.play(FadeOut(VGroup(self.curve, self.base, self.hour_marks, self.ci_hi, self.ci_lo, self.jobs,
                                     self.y_axis, self.day_saved, self.lanes_label)),
                      run_time=0.6)
            lines = VGroup(
                markup(f"{a['slack']} h of slack, {m['jobs']:,} jobs in 2022", size=BODY_SIZE, color=MUTED),
                # the two savings on one scale: the site's is the jobs' diluted by everything else it burns
                value_bars([("batch jobs' CO₂, forecast", m["saved_jobs_forecast"],
                              f"−{fmt_percent(m['saved_jobs_forecast'])}", MOVED),
                            ("with foresight (upper bound)", m["saved_jobs"], f"−{fmt_percent(m['saved_jobs'])}",
                             MUTED),
                            ("whole site, forecast, free nodes at 0 W", m["saved_total_forecast"],
                             f"−{fmt_percent(m['saved_total_forecast'])}", INK)],
                           top=m["saved_jobs"], width=4.0, size=BODY_SIZE, height=0.32, buff=0.2),
                # the fair comparison first: a new hall against a modern hyperscale fleet, the industry's second
                markup(f"overhead above Google's fleet: <b>{self.data['problems']['google_vs_shifting']:.0f}×</b> "
                       "what shifting saves at best", size=BODY_SIZE, color=BAD),
                # the multiple is large because the jobs are a small share of the load: it scales as 1/(their
                # share), so the Google gap per kWh that could shift sits beside it
                markup("the same per kWh that can shift: "
                       f"<b>{self.data['problems']['google_vs_all_shifting']:.2f}×</b> "
                       f"(the jobs are {fmt_percent(m['jobs_energy_share'])} of the IT energy)", size=BODY_SIZE,
                       color=MUTED),
                markup(f"(industry-average PUE instead: {self.data['problems']['industry_vs_shifting']:.0f}×)",
                       size=BODY_SIZE, color=MUTED),
            ).arrange(DOWN, buff=0.45).move_to([0, 0.0, 0])
            self.play(FadeIn(lines[0], shift=0.15 * UP), run_time=0.7)
            self.play(*grow_value_bars(lines[1]), run_time=1.4)
            self.play(FadeIn(lines[2], shift=0.15 * UP), run_time=0.7)
            self.play(FadeIn(lines[3], shift=0.15 * UP), FadeIn(lines[4], shift=0.15 * UP), run_time=0.7)
            self.wait(2.5)
        self.year_lines = lines

    def the_run_pauses(self) -> None:
        """The pre-training run: paused in each day's dirtiest hours, against sited on the cleanest grid."""
        mv, p = self.data["records"]["moving"], self.p
        pc, base_t = mv["pause_chosen"], mv["pause_base_t"]
        sited = mv["run_sited"][mv["run_best"]]
        verb = (f"adds {fmt_percent(-pc['saved'])} to" if pc["saved"] < 0 else f"saves {fmt_percent(pc['saved'])} of")
        with self.beat(f"Pausing the pre-training run in PJM's {p['pause_hours']} dirtiest hours a day {verb} its "
                       f"CO₂; built on {sited['grid']}, {fmt_percent(sited['saved'])} less on its average accounts."):
            head7 = title("Can the pre-training run pause for clean power?")
            self.play(FadeOut(self.year_lines), ReplacementTransform(self.head2, head7), run_time=0.5)
            self.head2 = head7
            # the paused bar is the same work spread over more time: a year's worth of training, not a year
            head = markup("the pre-training run's CO₂ for a year's worth of training (t)", size=BODY_SIZE,
                          color=MUTED)
            bars = value_bars([("PJM, running through", base_t, f"{base_t:,.0f} t", JOB),
                               (f"PJM, paused {p['pause_hours']} h a day", pc["run_t"],
                                f"{pc['run_t']:,.0f} t" + _change(pc["saved"]), BAD if pc["saved"] < 0 else MOVED),
                               (f"built on {sited['grid']}", sited["run_t"],
                                f"{sited['run_t']:,.0f} t" + _change(sited["saved"]), MOVED)],
                              top=max(base_t, pc["run_t"]), width=5.0, size=BODY_SIZE, height=0.36, buff=0.25)
            # why the pause loses: the idle draw of paused nodes, the restarts, a shallow daily valley
            tail = markup(f"paused nodes draw {fmt_percent(p['paused_share'])} of busy power; electricity "
                          f"+{fmt_percent(pc['energy_change'])}, run {fmt_percent(pc['extra_wall'])} longer\n"
                          f"{sited['grid']}: its average mix; at the margin the load may just cut its exports",
                          size=SMALL_SIZE, color=MUTED)
            group = VGroup(head, bars, tail).arrange(DOWN, buff=0.45).move_to([0, 0.0, 0])
            self.play(FadeIn(head, shift=0.15 * UP), run_time=0.5)
            self.play(*grow_value_bars(bars), run_time=1.6)
            self.play(FadeIn(tail, shift=0.15 * UP), run_time=0.5)
            self.wait(2.5)
        self.year_lines = group

    def or_another_grid(self) -> None:
        """The same batch jobs' yearly CO₂ at each grid, a moved job's checkpoint transfer included; every
        change against home as submitted, whose bar is shown first."""
        rows, mv = self.data["records"]["sites"], self.data["records"]["moving"]
        best = rows[mv["best"]]
        change = (f"{fmt_percent(best['saved'])} less" if best["saved"] >= 0 else f"{fmt_percent(-best['saved'])} more")
        with self.beat(f"Send the jobs to {best['grid']} with a checkpoint each (2015 network energy, worst case): "
                       f"{change} than at home; {fmt_percent(best['saved_trend'])} on the 2022 trend. "
                       f"Both on {best['grid']}'s average accounts."):
            head8 = title("Can batch work move to clean power?")
            self.play(FadeOut(self.year_lines), ReplacementTransform(self.head2, head8), run_time=0.5)
            head = markup("the batch jobs' CO₂ in a year, by grid (t), against home as submitted", size=BODY_SIZE,
                          color=MUTED)
            home = rows[0]
            entries = [("PJM (home, as submitted)", home["unshifted_t"], f"{home['unshifted_t']:,.0f} t", INK),
                       (f"PJM (home, waiting {self.p['slack']} h, foresight)", home["total_t"],
                        f"{home['total_t']:,.0f} t" + _change(home["saved"]), JOB)]
            entries += [(r["grid"] + " (moved, checkpoint)", r["total_t"],
                         f"{r['total_t']:,.0f} t" + _change(r["saved"]),
                         MOVED if i == mv["best"] else INK) for i, r in enumerate(rows) if i > 0]
            bars = value_bars(entries, top=max(e[1] for e in entries), width=5.0, size=BODY_SIZE, height=0.36,
                              buff=0.25)
            # the worst case beside the others: the 2022 network trend, or the data already there
            tail = markup(f"{best['grid']} on the 2022 network trend: <b>−{fmt_percent(best['saved_trend'])}</b>; "
                          f"data already there: −{fmt_percent(best['saved_no_transfer'])}\n"
                          "savings on each grid's average mix; at the margin extra load may just cut its exports",
                          size=SMALL_SIZE, color=MUTED)
            VGroup(head, bars, tail).arrange(DOWN, buff=0.45).move_to([0, 0.0, 0])
            self.play(FadeIn(head, shift=0.15 * UP), run_time=0.6)
            self.play(*grow_value_bars(bars), run_time=2.2)
            self.play(FadeIn(tail, shift=0.15 * UP), run_time=0.6)
            self.wait(4.4)
