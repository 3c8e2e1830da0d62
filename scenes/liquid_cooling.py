"""liquid-cooling · 100 kW+ racks and direct-to-chip liquid cooling.

Two racks' power side by side; the airflow air cooling would need; the
coolant loop from cold plate to CDU to facility water with its flow and pump
power; then one GPU after a CDU fault, its throttle cycling between the two
thresholds on the power-temperature plane. Every number comes from self.data
(models.liquid_cooling.liquid_cooling).
"""

from __future__ import annotations

import math

import numpy as np
from manim import (
    DOWN,
    LEFT,
    RIGHT,
    UP,
    Arrow,
    Create,
    Dot,
    FadeIn,
    FadeOut,
    GrowFromEdge,
    Line,
    MoveAlongPath,
    Rectangle,
    RoundedRectangle,
    ValueTracker,
    VGroup,
    VMobject,
    Write,
    always_redraw,
    linear,
)

from design import palette
from models.units import fmt_count, fmt_percent, fmt_seconds, si
from scenes.style import BODY_SIZE, INK, MUTED, SMALL_SIZE, ExhibitScene, label, markup, title

HOT = palette.role("bad")
COLD = palette.role("primary")
GPU = palette.role("gpu")
FAC = palette.role("secondary")
OK = palette.role("ok")
AIR = INK  # air: the ink colour, seen over both bars


def _kw(w: float) -> str:
    return si(w, "W")


def _cfm(cfm: float) -> str:
    """Airflow to the precision it deserves: the nearest hundred below 10,000 CFM, else the nearest thousand."""
    return f"about {fmt_count(round(cfm, -2 if cfm < 1e4 else -3))} CFM"  # words: the font draws no "≈"


class LiquidCooling(ExhibitScene):
    scene_id = "liquid-cooling"

    def construct(self) -> None:
        self.m, self.p, self.a = self.data["summary"], self.data["params"], self.data["animation"]
        self.two_racks()
        self.air_would_need()
        self.the_loop()
        self.the_fault()
        self.the_throttle_cycles()
        self.hotter_silicon()

    def _t_span(self) -> tuple[float, float]:
        """The throttle chart's temperature axis: whole 5 K steps from below the GPU's normal temperature
        (where the climb after the fault starts) to past the engage threshold."""
        start = min(self.m["t_nominal"], self.p["throttle_lo"]) - 1
        return 5 * math.floor(start / 5), 5 * math.ceil((self.p["throttle_hi"] + 1) / 5)

    def _x_of(self, T: float) -> float:
        """x of GPU temperature T on the throttle chart."""
        a, b = self._t_span()
        return -3.2 + (T - a) * 6.4 / (b - a)

    def _y_of(self, P: float) -> float:
        """y of GPU power P on the throttle chart (45% to 105% of TDP)."""
        return -1.9 + (P - 0.45 * self.p["gpu_tdp"]) * 3.4 / (0.6 * self.p["gpu_tdp"])

    def two_racks(self) -> None:
        """An H100 rack's bar and an NVL72 rack's, against the practical air-cooling limit."""
        m, p = self.m, self.p
        with self.beat(f"A DGX H100 rack draws at most {_kw(m['h100_rack_power'])}; a GB200 NVL72 rack about "
                       f"{_kw(p['nvl72_rack_power'])}, {m['rack_ratio']:.1f}× as much."):
            head = title("How do you take 120 kW out of one rack?".replace(
                "120 kW", _kw(p["nvl72_rack_power"])))
            self.play(Write(head), run_time=1.0)
            scale = 3.6 / p["nvl72_rack_power"]
            base_y = -2.2
            self.bars, self.names = VGroup(), VGroup()
            for x, power, name, c in ((-3.0, m["h100_rack_power"], f"DGX H100 × {p['nodes_per_rack']}", COLD),
                                      (0.0, p["nvl72_rack_power"], "GB200 NVL72", HOT)):
                bar = Rectangle(width=1.6, height=power * scale, stroke_width=0, fill_color=c, fill_opacity=0.85)
                bar.move_to([x, base_y + power * scale / 2, 0])
                val = label(_kw(power), size=BODY_SIZE).next_to(bar, UP, buff=0.12)
                nm = label(name, size=SMALL_SIZE, color=MUTED).next_to(bar, DOWN, buff=0.12)
                self.bars.add(VGroup(bar, val))
                self.names.add(nm)
            limit_y = base_y + p["air_rack_limit"] * scale
            self.limit = Line([-4.2, limit_y, 0], [1.2, limit_y, 0], color=MUTED, stroke_width=2).set_opacity(0.9)
            self.limit_t = label(f"practical air limit, about {si(p['air_rack_limit'], 'W', 2)}", size=SMALL_SIZE,
                                 color=MUTED).next_to(self.limit, RIGHT, buff=0.2)
            self.play(*[GrowFromEdge(b[0], DOWN) for b in self.bars], FadeIn(self.names), run_time=1.2)
            self.play(FadeIn(self.bars[0][1]), FadeIn(self.bars[1][1]), run_time=0.6)
            self.play(Create(self.limit), FadeIn(self.limit_t), run_time=0.8)
            self.wait(1.5)

    def air_would_need(self) -> None:
        """Air streams through both racks, dots in proportion to the airflow each needs, its CFM on screen."""
        m, p, a = self.m, self.p, self.a
        with self.beat(f"Air warmed by {p['air_rise']:g} K needs {m['air_cfm_per_kw']:.0f} CFM per kilowatt: "
                       f"{_cfm(m['air_nvl72_cfm'])} for the NVL72 rack."):
            flow = ValueTracker(0.0)
            self.streams, cfm_labels = VGroup(), VGroup()
            most = a["air"]["nvl72_m3s"]
            limit_y = self.limit.get_start()[1]
            rng = np.random.default_rng(18)  # where each dot sits in the stream: seeded, the same every render
            for (bar, val), m3s, cfm in zip(self.bars, (a["air"]["h100_m3s"], a["air"]["nvl72_m3s"]),
                                            (m["air_h100_cfm"], m["air_nvl72_cfm"]), strict=True):
                left, span = bar.get_left()[0] - 0.35, bar.width + 0.7
                lo, hi = bar.get_bottom()[1] + 0.12, bar.get_top()[1] - 0.12
                if bar.get_top()[1] < limit_y + 0.3:  # a bar about at the limit: its dots stay under the line
                    hi = min(hi, limit_y - 0.15)
                n = max(3, round(30 * m3s / most))  # dots in proportion to the airflow: same speed, same spacing
                for k in range(n):
                    y = lo + (hi - lo) * (k + rng.uniform(0.1, 0.9)) / n  # one dot per height band
                    if abs(y - limit_y) < 0.15:  # no dot runs along the limit line, drawn over it
                        y = limit_y + math.copysign(0.15, y - limit_y)
                    off = float(rng.uniform())
                    dot = Dot(radius=0.05, color=AIR)
                    dot.add_updater(lambda d, y=y, off=off, left=left, span=span:
                                    d.move_to([left + span * ((flow.get_value() + off) % 1.0), y, 0]))
                    self.streams.add(dot)
                cfm_labels.add(label(_cfm(cfm), size=SMALL_SIZE + 2, color=AIR).next_to(val, UP, buff=0.1))
            self.air = VGroup(
                markup(f"V̇ = Q / (ρ·c<sub>p</sub>·ΔT) = <b>{m['air_cfm_per_kw']:.0f} CFM per kW</b>",
                       size=SMALL_SIZE + 2),
                label(f"water: about {fmt_count(round(m['water_vs_air'], -2))}× the heat per litre per K",
                      size=SMALL_SIZE, color=MUTED),
            ).arrange(DOWN, aligned_edge=LEFT, buff=0.3)
            self.air.next_to(self.bars, RIGHT, buff=0.6).align_to(self.bars, UP)
            self.play(FadeIn(self.streams), FadeIn(self.air[0]), run_time=0.6)
            self.play(flow.animate.set_value(1.5), FadeIn(cfm_labels), run_time=2.2, rate_func=linear)
            self.play(flow.animate.set_value(3.0), FadeIn(self.air[1]), run_time=2.2, rate_func=linear)
            self.streams.clear_updaters()
            self.air.add(cfm_labels)

    def the_loop(self) -> None:
        """Cold plates, the CDU and facility water, the two loops between them, warm coolant flowing."""
        m, p = self.m, self.p
        # one beat with the pump: its frame differs from the loop's only by the pump's line
        with self.beat(f"Cold plates hand {_kw(m['nvl72_liquid_heat'])} to the coolant: "
                       f"{fmt_count(m['water_flow_lpm'])} L/min of water, warmed {p['coolant_rise']:g} K, "
                       f"to the CDU and on to facility water. The pump needs {_kw(m['pump_power_water'])}, "
                       f"{fmt_percent(m['pump_share'], 2)} of the heat it moves."):
            self.play(FadeOut(VGroup(self.bars, self.names, self.limit, self.limit_t, self.air, self.streams)),
                      run_time=0.6)
            plate = self._box("cold plates\nGPUs, CPUs,\nswitch chips", GPU, [-4.6, 0.2, 0])
            self.cdu = cdu = self._box("CDU\nheat exchanger", COLD, [0.0, 0.2, 0])
            fac = self._box(f"facility water\nASHRAE W{p['facility_supply']:g}", FAC, [4.6, 0.2, 0])
            heat = markup(f"<b>{_kw(m['nvl72_liquid_heat'])}</b> to the liquid", size=BODY_SIZE, color=HOT)
            heat.next_to(plate, UP, buff=0.25)
            self.play(FadeIn(plate), FadeIn(cdu), FadeIn(fac), FadeIn(heat), run_time=0.8)
            # secondary loop: plate -> CDU (top, hot), CDU -> plate (bottom, cold)
            hot_a = Arrow(plate.get_right() + UP * 0.45, cdu.get_left() + UP * 0.45, buff=0.05, color=HOT)
            cold_a = Arrow(cdu.get_left() + DOWN * 0.45, plate.get_right() + DOWN * 0.45, buff=0.05, color=COLD)
            f_hot = Arrow(cdu.get_right() + UP * 0.45, fac.get_left() + UP * 0.45, buff=0.05, color=HOT)
            f_cold = Arrow(fac.get_left() + DOWN * 0.45, cdu.get_right() + DOWN * 0.45, buff=0.05, color=COLD)
            t_sup = label(f"{m['coolant_supply']:g} °C", size=SMALL_SIZE, color=COLD).next_to(cold_a, DOWN, 0.12)
            t_ret = label(f"{m['coolant_supply'] + p['coolant_rise']:g} °C", size=SMALL_SIZE,
                          color=HOT).next_to(hot_a, UP, buff=0.12)
            flow = label(f"{fmt_count(m['water_flow_lpm'])} L/min", size=BODY_SIZE).move_to([-2.3, -1.6, 0])
            self.play(Create(hot_a), Create(cold_a), FadeIn(t_sup), FadeIn(t_ret), run_time=1.0)
            f_sup = label(f"{p['facility_supply']:g} °C", size=SMALL_SIZE, color=COLD).next_to(f_cold, DOWN, 0.12)
            f_ret = label(f"{m['facility_return']:g} °C", size=SMALL_SIZE, color=HOT).next_to(f_hot, UP, buff=0.12)
            self.play(Create(f_hot), Create(f_cold), FadeIn(f_sup), FadeIn(f_ret), FadeIn(flow), run_time=1.0)
            dots = VGroup(*[Dot(radius=0.07, color=HOT) for _ in range(3)])
            self.play(*[MoveAlongPath(d, Line(plate.get_right() + UP * 0.45, cdu.get_left() + UP * 0.45),
                                      rate_func=lambda t, k=k: min(1.0, max(0.0, 1.5 * t - 0.25 * k)))
                        for k, d in enumerate(dots)], run_time=1.6)
            self.play(FadeOut(dots), run_time=0.2)
            pump = markup(f"pump through {m['pump_pressure_kpa']:g} kPa: <b>{_kw(m['pump_power_water'])}</b>, "
                          f"{fmt_percent(m['pump_share'], 2)}", size=BODY_SIZE)
            pump.move_to([2.3, -1.6, 0])
            self.play(FadeIn(pump, shift=0.2 * UP), self.cdu[0].animate.set_stroke(OK, width=5), run_time=0.8)
            self.wait(2.0)
            self.loop = VGroup(plate, cdu, fac, heat, hot_a, cold_a, f_hot, f_cold, t_sup, t_ret, f_sup, f_ret, flow,
                               pump)

    def the_fault(self) -> None:
        """The throttle chart, and the GPU's operating point heading for the engage threshold at TDP."""
        m, p = self.m, self.p
        x_of, y_of = self._x_of, self._y_of
        t_lo, t_hi = p["throttle_lo"], p["throttle_hi"]
        with self.beat(f"A CDU fault warms the supply to {p['coolant_fault']:g} °C: at TDP the GPU would settle "
                       f"at {m['t_fault']:.0f} °C, above the {t_hi:g} °C throttle. It climbs from "
                       f"{m['t_nominal']:.0f} °C and, in this one-lump model, reaches it "
                       f"{fmt_seconds(m['time_to_throttle_sim'])} after the fault (the times are illustrative)."):
            self.play(FadeOut(self.loop), run_time=0.6)
            xa = Line([-3.4, -2.0, 0], [3.4, -2.0, 0], color=MUTED)
            ya = Line([-3.4, -2.0, 0], [-3.4, 1.9, 0], color=MUTED)
            xl = label("GPU temperature", size=SMALL_SIZE, color=MUTED).next_to(xa, RIGHT, buff=0.15).shift(UP * 0.3)
            yl = label("power", size=SMALL_SIZE, color=MUTED).next_to(ya, UP, buff=0.1)
            hi_l = Line([x_of(t_hi), -2.0, 0], [x_of(t_hi), 1.7, 0], color=HOT).set_opacity(0.7)
            lo_l = Line([x_of(t_lo), -2.0, 0], [x_of(t_lo), 1.7, 0], color=COLD).set_opacity(0.7)
            hi_t = label(f"engage {t_hi:g} °C", size=SMALL_SIZE, color=HOT).next_to(hi_l, UP, buff=0.08)
            lo_t = label(f"release {t_lo:g} °C", size=SMALL_SIZE, color=COLD).next_to(lo_l, UP, buff=0.08)
            hi_t.shift(RIGHT * 0.6)
            lo_t.shift(LEFT * 0.6)
            tdp_t = label(f"TDP {_kw(p['gpu_tdp'])}", size=SMALL_SIZE, color=MUTED).move_to(
                [-4.6, y_of(p["gpu_tdp"]), 0])
            thr_t = label(_kw(m["throttled_power"]), size=SMALL_SIZE, color=MUTED).move_to(
                [-4.6, y_of(m["throttled_power"]), 0])
            # temperature ticks every 5 K along the axis
            a_t, b_t = self._t_span()
            ticks = VGroup()
            for T in range(int(a_t), int(b_t) + 1, 5):
                tick = Line([x_of(T), -2.0, 0], [x_of(T), -2.12, 0], color=MUTED)
                ticks.add(VGroup(tick, label(f"{T} °C", size=SMALL_SIZE - 2, color=MUTED).next_to(tick, DOWN,
                                                                                                    buff=0.06)))
            self.play(Create(xa), Create(ya), FadeIn(xl), FadeIn(yl), FadeIn(ticks), run_time=0.8)
            self.play(Create(hi_l), Create(lo_l), FadeIn(hi_t), FadeIn(lo_t), FadeIn(tdp_t), FadeIn(thr_t),
                      run_time=1.0)
            self.eq = markup(f"supply {p['coolant_fault']:g} °C, at TDP: T<sub>∞</sub> = {p['coolant_fault']:g} + "
                             f"{p['gpu_tdp']:g} W × {p['r_th']:g} K/W = <b>{m['t_fault']:.0f} °C</b>",
                             size=SMALL_SIZE + 2).move_to([0, 2.55, 0])
            # the climb after the fault, in time: T(t) = T_∞ − (T_∞ − T_nominal)·e^(−t/RC), from the GPU's
            # normal temperature to the engage threshold, which the model's simulation reaches at time_to_throttle_sim
            t_n, t_f, tau, t_end = m["t_nominal"], m["t_fault"], m["time_constant"], m["time_to_throttle_sim"]
            clock = ValueTracker(0.0)

            def temp_at(t: float) -> float:
                return min(t_f - (t_f - t_n) * math.exp(-t / tau), t_hi)

            self.dot = Dot([x_of(t_n), y_of(p["gpu_tdp"]), 0], radius=0.12, color=HOT)
            # short, to stay clear of the power axis and the release line either side of it
            start_t = label(f"normal {t_n:.0f} °C", size=SMALL_SIZE, color=MUTED).next_to(self.dot, DOWN, buff=0.15)
            self.play(FadeIn(self.eq), FadeIn(self.dot), FadeIn(start_t), run_time=0.6)
            self.dot.add_updater(lambda d: d.move_to([x_of(temp_at(clock.get_value())), y_of(p["gpu_tdp"]), 0]))
            readout = always_redraw(lambda: label(
                f"{clock.get_value():.1f} s after the fault: {temp_at(clock.get_value()):.1f} °C",
                size=SMALL_SIZE).move_to([0, -2.56, 0]))  # below the ticks, above the caption band: no line crosses it
            self.add(readout)
            self.play(clock.animate.set_value(t_end), run_time=3.0, rate_func=linear)
            self.dot.clear_updaters()
            self.remove(readout)
            reached = markup(f"throttles <b>{fmt_seconds(t_end)}</b> after the fault", size=SMALL_SIZE,
                             color=HOT).move_to([0, -2.56, 0])
            self.add(reached)
            self.chart = VGroup(xa, ya, xl, yl, ticks, hi_l, lo_l, hi_t, lo_t, tdp_t, thr_t)
            self.fault_notes = VGroup(reached, start_t)  # on screen to the beat's end; the next beat clears them
            self.wait(1.6)

    def the_throttle_cycles(self) -> None:
        """The operating point runs the simulated hysteresis loop twice, leaving its trail."""
        m, a, p = self.m, self.a, self.p
        x_of, y_of, dot = self._x_of, self._y_of, self.dot
        t_lo, t_hi = p["throttle_lo"], p["throttle_hi"]
        with self.beat(f"The throttle engages at {t_hi:g} °C and releases at {t_lo:g} °C: throttled "
                       f"{fmt_percent(m['throttled_share_sim'])} of the time, every {fmt_seconds(m['period_sim'])} "
                       f"in the one lump. It averages {fmt_percent(m['avg_power_share'], 2)} of TDP "
                       f"({fmt_percent(m['continuous_share'], 2)} if held at {t_hi:g} °C)."):
            self.play(FadeOut(self.fault_notes), run_time=0.4)
            path = VMobject(color=HOT, stroke_width=4)
            pts = []
            samples = list(zip(a["cycle"]["T"], a["cycle"]["P"], strict=True))
            for (T0, P0), (_, P1) in zip(samples, samples[1:], strict=False):
                pts.append([x_of(T0), y_of(P0), 0])
                if P1 != P0:  # the power steps at one temperature: a vertical edge, not a slant between samples
                    pts.append([x_of(T0), y_of(P1), 0])
            pts.append([x_of(samples[-1][0]), y_of(samples[-1][1]), 0])
            path.set_points_as_corners(pts)
            trail = path.copy().set_stroke(width=4)
            self.play(Create(trail), MoveAlongPath(dot, path), run_time=3.0, rate_func=linear)
            # which way the loop runs: heats right at TDP, drops at T_hi, cools left throttled, rises at T_lo
            full, thr = y_of(p["gpu_tdp"]), y_of(m["throttled_power"])
            mid_x, mid_y = (x_of(t_lo) + x_of(t_hi)) / 2, (full + thr) / 2
            arrows = VGroup(*[Arrow(np.array(c) - 0.3 * np.array(d), np.array(c) + 0.3 * np.array(d), buff=0,
                                    color=INK, stroke_width=5, max_tip_length_to_length_ratio=0.5)
                              for c, d in (([mid_x, full + 0.28, 0], RIGHT), ([x_of(t_hi) + 0.28, mid_y, 0], DOWN),
                                           ([mid_x, thr - 0.28, 0], LEFT), ([x_of(t_lo) - 0.28, mid_y, 0], UP))])
            self.play(FadeIn(arrows), run_time=0.6)
            share = label(f"throttled {fmt_percent(m['throttled_share_sim'])} of the time", size=SMALL_SIZE + 2,
                          color=COLD)
            share.next_to([x_of(t_hi) + 0.3, y_of(m["throttled_power"]), 0], RIGHT, buff=0.1)
            self.play(FadeIn(share), run_time=0.5)
            avg = markup(f"average power <b>{fmt_percent(m['avg_power_share'])} of TDP</b>; holding {t_hi:g} °C "
                         f"would give {fmt_percent(m['continuous_share'])}", size=SMALL_SIZE + 2)
            avg.move_to(self.eq)
            self.play(FadeOut(self.eq), FadeIn(avg), run_time=0.6)
            self.play(MoveAlongPath(dot, path), run_time=2.4, rate_func=linear)
            self.chart.add(trail, arrows, share, avg)
            self.wait(1.2)

    def hotter_silicon(self) -> None:
        """The resistance each chip may have to the coolant, (T_hi − T_supply)/TDP, shrinking as TDP grows."""
        m, p, a = self.m, self.p, self.a
        chips = a["chips"]
        h100_w, b200_w = fmt_count(chips[0]["tdp"]), fmt_count(chips[1]["tdp"])
        verdict = "would throttle it" if chips[1]["throttles"] else "would hold it below the threshold"
        with self.beat(f"A {b200_w} W B200 may have only {chips[1]['r_budget']:.3f} K/W to the "
                       f"coolant; the {p['r_th']:g} K/W plate that suits a {h100_w} W H100 {verdict}."):
            self.play(FadeOut(VGroup(self.chart, self.dot)), run_time=0.6)
            head = markup(f"R ≤ (T<sub>hi</sub> − T<sub>supply</sub>) / TDP = ({p['throttle_hi']:g} − "
                          f"{m['coolant_supply']:g}) K / TDP", size=BODY_SIZE).move_to([0, 2.6, 0])
            base_y, scale = -1.6, 3.4 / max(c["r_budget"] for c in chips)
            bars = VGroup()
            for k, c in enumerate(chips):
                x = -3.6 + 3.0 * k
                h = c["r_budget"] * scale
                # colour from the model's verdict at the assumed plate, not from the bar's position
                bar = Rectangle(width=1.5, height=h, stroke_width=0, fill_color=HOT if c["throttles"] else COLD,
                                fill_opacity=0.85).move_to([x, base_y + h / 2, 0])
                val = label(f"{c['r_budget']:.3f} K/W", size=SMALL_SIZE + 2).next_to(bar, UP, buff=0.1)
                name = label(f"{c['chip']}\n{fmt_count(c['tdp'])} W", size=SMALL_SIZE, color=MUTED).next_to(bar, DOWN,
                                                                                                   buff=0.1)
                bars.add(VGroup(bar, val, name))
            r_y = base_y + p["r_th"] * scale
            r_line = Line([-4.8, r_y, 0], [4.6, r_y, 0], color=MUTED, stroke_width=2)
            r_t = label(f"assumed plate {p['r_th']:g} K/W", size=SMALL_SIZE, color=MUTED).next_to(r_line, RIGHT,
                                                                                                 buff=0.1)
            r_t.shift(LEFT * 1.9 + UP * 0.2)
            self.play(FadeIn(head), run_time=0.6)
            for b in bars:
                self.play(GrowFromEdge(b[0], DOWN), FadeIn(b[1]), FadeIn(b[2]), run_time=0.9)
            self.play(Create(r_line), FadeIn(r_t), run_time=0.8)
            # the verdict, as on the page's table: each die's temperature with the assumed plate at the normal
            # supply, and whether that passes the throttle threshold
            verdicts = VGroup()
            for b, c in zip(bars, chips, strict=True):
                word = "throttles" if c["throttles"] else f"below {p['throttle_hi']:g} °C"
                v = markup(f"die {c['t_at_r']:.0f} °C: <b>{word}</b>", size=SMALL_SIZE,
                           color=HOT if c["throttles"] else OK).next_to(b[2], DOWN, buff=0.12)
                verdicts.add(v)
            self.play(FadeIn(verdicts), run_time=0.8)
            self.wait(3.0)

    def _box(self, text: str, colour: str, at) -> VGroup:
        box = RoundedRectangle(width=2.6, height=1.8, corner_radius=0.15, stroke_color=colour, stroke_width=3,
                               fill_color=colour, fill_opacity=0.15)
        t = label(text, size=SMALL_SIZE + 2)
        return VGroup(box, t).move_to(at)
