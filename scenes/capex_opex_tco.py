"""capex-opex-tco · Cluster CapEx vs OpEx: amortised TCO.

One GPU-hour as a stacked bar, built layer by layer from the model's parts (depreciation of the
servers, network and storage and the interest on the money that bought them, then power, facility,
staff and optics), then stretched by the idle
hours it has to carry: at utilisation u, a useful GPU-hour costs the total divided by u. Every
number comes from self.data (models.capex_opex_tco.gpu_hour_cost).
"""

from __future__ import annotations

from manim import (
    DOWN,
    LEFT,
    RIGHT,
    UP,
    ChangeDecimalToValue,
    FadeIn,
    FadeOut,
    GrowFromEdge,
    Line,
    Rectangle,
    Text,
    VGroup,
    Write,
    linear,
)

from design import palette
from models.units import fmt_percent, sig
from scenes import server_parts as parts
from scenes.style import BODY_SIZE, INK, MUTED, SMALL_SIZE, ExhibitScene, counter, label, markup, title

YEAR = 365.25 * 86400
ROLES = {
    "server": "gpu", "network": "network", "storage": "storage", "financing": "gpu", "power": "secondary",
    "facility": "tertiary", "staff": "cpu", "optics": "failure",
}
BAR_X, BAR_W = -4.9, 2.0
BAR_BOTTOM = -2.45  # above the caption band (y < -2.72)
BAR_TOP_MAX = 2.3  # below the title
ROW_H = 0.5
COLUMN_X = -3.4  # the legend column's left edge
HOUR_W = 4.5  # the opening's one-hour bar
# financing is the servers' money plus its interest: the servers' green, paler (as in the figure)
PALE = {"financing": 0.45}


def part_colour(key: str) -> str:
    """A part's colour, as the figure draws it on the dark ground (figures/capex_opex_tco.py `part_colour`):
    staff in the grey (blue sits too close to the network's sky), storage in the ink."""
    if key == "staff":
        return MUTED
    if key == "storage":
        return INK
    return palette.role(ROLES[key])


def usd(x: float) -> str:
    return f"${x:,.3f}" if abs(x) < 0.01 else f"${x:,.2f}"


class GpuHourStack(ExhibitScene):
    """The question, the CapEx layers, the OpEx layers, the total, then the idle tax at the
    scenario's utilisation and at half."""

    scene_id = "capex-opex-tco"

    def construct(self) -> None:
        a = self.data["animation"]
        # the tallest bar drawn is the 50%-utilisation one: it sets the scale
        self.scale = (BAR_TOP_MAX - BAR_BOTTOM) / a["half_useful"]
        self.bar_rects: list = []
        # each layer's legend row and value, grouped; never animated as these groups, but the encoded
        # video's bytes depend on their being held (the decoded frames are the same either way)
        self.legend_rows: list = []
        self.bar_top, self.row_y = BAR_BOTTOM, BAR_BOTTOM + ROW_H / 2
        for beat in (self.the_question, self.depreciation, self.running_costs, self.every_hour_used,
                     self.idle_hours, self.half_idle):
            beat()

    def numbers(self) -> tuple[dict, dict, dict]:
        """The model's summary, parameters and animation plan."""
        return self.data["summary"], self.data["params"], self.data["animation"]

    def stack_layers(self, group: list[dict]) -> list:
        """Each layer's bar segment, on top of the stack so far, and its legend row: (segment, row) pairs."""
        anims = []
        for layer in group:
            h = max(layer["value"] * self.scale, 0.004)
            colour = part_colour(layer["key"])
            r = Rectangle(width=BAR_W, height=h, stroke_width=0, fill_color=colour,
                          fill_opacity=PALE.get(layer["key"], 1))
            r.move_to([BAR_X, self.bar_top + h / 2, 0])
            self.bar_top += h
            self.bar_rects.append(r)
            sw = Rectangle(width=0.22, height=0.22, stroke_width=0, fill_color=colour,
                           fill_opacity=PALE.get(layer["key"], 1))
            name = label(layer["name"], size=SMALL_SIZE, color=INK)
            val = label(f"{usd(layer['value'])}/h", size=SMALL_SIZE, color=MUTED)
            row = VGroup(sw, name).arrange(RIGHT, buff=0.15)
            row.move_to([COLUMN_X, self.row_y, 0], aligned_edge=LEFT)
            val.move_to([COLUMN_X + 3.3, self.row_y, 0], aligned_edge=RIGHT)
            self.row_y += ROW_H
            self.legend_rows.append(VGroup(row, val))
            anims.append((r, VGroup(row, val)))
        return anims

    def the_question(self) -> None:
        m, p, _ = self.numbers()
        with self.beat("Each minute an H100 runs costs its owner money."):
            head = title("What does a GPU-hour really cost?")
            sub = label(f"{p['gpus']:,} H100 GPUs in {p['gpus_per_node']}-GPU servers, bought and run",
                        size=BODY_SIZE - 4, color=MUTED).next_to(head, DOWN, buff=0.25)
            base = Line([BAR_X - BAR_W / 2 - 0.2, BAR_BOTTOM, 0], [BAR_X + BAR_W / 2 + 0.2, BAR_BOTTOM, 0],
                        color=MUTED, stroke_width=2)
            hour = self._one_gpu_hour()
            self.play(Write(head), run_time=1.0)
            self.play(FadeIn(sub), FadeIn(base), FadeIn(hour["still"]), FadeIn(hour["minutes"]),
                      FadeIn(hour["dollars"]), run_time=0.8)
            self.play(GrowFromEdge(hour["fill"], LEFT), ChangeDecimalToValue(hour["minutes"][1], 60),
                      ChangeDecimalToValue(hour["dollars"][1], m["total_per_hour"]), run_time=3.0, rate_func=linear)
            self.wait(0.6)
        self.opening = VGroup(hour["still"], hour["fill"], hour["minutes"], hour["dollars"])

    def _one_gpu_hour(self) -> dict:
        """One GPU and an hour bar beside it that fills while its minute counter runs to 60."""
        chip = parts.gpu("H100", width=1.3, height=0.8).move_to([-1.2, 0.3, 0])
        frame = Rectangle(width=HOUR_W, height=0.45, stroke_color=MUTED, stroke_width=1.5)
        frame.next_to(chip, RIGHT, buff=0.5)
        fill = Rectangle(width=HOUR_W, height=0.45, stroke_width=0, fill_color=palette.role("gpu"),
                         fill_opacity=0.8).move_to(frame)
        minutes = counter("busy", 0, unit="min", size=SMALL_SIZE + 2).next_to(frame, DOWN, buff=0.2)
        minutes.align_to(frame, LEFT)
        # the owner's cost so far, in dollars: it reaches the model's total as the hour ends; the "$"
        # rides just before the number, as the later beats write "$1.60"
        dollars = counter("cost", 0, decimals=2, size=SMALL_SIZE + 2)
        sign = Text("$", font_size=SMALL_SIZE + 2, color=dollars[1].get_color())
        dollars.add(sign)
        sign.add_updater(lambda m: m.next_to(dollars[1], LEFT, buff=0.04))
        dollars[1].clear_updaters()
        dollars[1].add_updater(lambda m: m.next_to(dollars[0], RIGHT, buff=0.34))
        dollars.next_to(frame, DOWN, buff=0.2)
        dollars.align_to(frame, RIGHT).shift(0.6 * LEFT)
        return {"still": VGroup(chip, frame), "fill": fill, "minutes": minutes, "dollars": dollars}

    def depreciation(self) -> None:
        m, p, a = self.numbers()
        with self.beat(f"Hardware over {sig(m['useful_life_years'], 2)} years, "
                       f"with {fmt_percent(p['cost_of_capital'], 2)} "
                       f"interest: {usd(m['capex_per_hour'])} an hour."):
            self.play(FadeOut(self.opening), run_time=0.4)
            for r, row in self.stack_layers([x for x in a["layers"] if x["capex"]]):
                self.play(GrowFromEdge(r, DOWN), FadeIn(row, shift=0.1 * RIGHT), run_time=0.9)
            cap_t = markup(f"CapEx  <b>{usd(m['capex_per_hour'])}</b>/h", size=BODY_SIZE)
            cap_t.move_to([3.6, 1.2, 0])
            self.play(FadeIn(cap_t), run_time=0.6)
            self.wait(1.2)
        self.capex_text = cap_t

    def running_costs(self) -> None:
        m, p, a = self.numbers()
        with self.beat(f"Power, facility, staff and optics add {usd(m['opex_per_hour'])}."):
            for r, row in self.stack_layers([x for x in a["layers"] if not x["capex"]]):
                self.play(GrowFromEdge(r, DOWN), FadeIn(row, shift=0.1 * RIGHT), run_time=0.7)
            op_t = markup(f"OpEx  <b>{usd(m['opex_per_hour'])}</b>/h", size=BODY_SIZE)
            op_t.next_to(self.capex_text, DOWN, buff=0.35, aligned_edge=LEFT)
            self.play(FadeIn(op_t), run_time=0.6)
            self.wait(1.0)
        self.opex_text = op_t

    def every_hour_used(self) -> None:
        m, _, _ = self.numbers()
        self.total_y = total_y = BAR_BOTTOM + m["total_per_hour"] * self.scale
        # the total's line is labelled with its value at the bar's left and drawn above the idle outline:
        # once the bar stretches (beats 5, 6) it runs just under the near-white storage band
        tick = Line([BAR_X - BAR_W / 2 - 0.15, total_y, 0], [BAR_X + BAR_W / 2 + 0.15, total_y, 0],
                    color=INK, stroke_width=2).set_z_index(3)
        tick_l = label(usd(m["total_per_hour"]), size=SMALL_SIZE, color=INK).set_z_index(3)
        tick_l.next_to(tick, LEFT, buff=0.08)
        with self.beat(f"Every hour used: {usd(m['total_per_hour'])} per GPU-hour."):
            tot_t = markup(f"total  <b>{usd(m['total_per_hour'])}</b> per GPU-hour", size=BODY_SIZE)
            tot_t.next_to(self.opex_text, DOWN, buff=0.5, aligned_edge=LEFT)
            self.play(FadeIn(tick), FadeIn(tick_l), FadeIn(tot_t), run_time=0.8)
            self.wait(2.0)
        self.total_text = tot_t

    def idle_hours(self) -> None:
        _, _, a = self.numbers()
        bar, total_y, u = VGroup(*self.bar_rects), self.total_y, a["utilisation"]
        useful_y = BAR_BOTTOM + a["useful"] * self.scale
        with self.beat(f"At {fmt_percent(u, 2)} utilisation each useful hour also pays for idle ones: "
                       f"{usd(a['useful'])}."):
            # the idle hours' outline in grey, like its label: the white line is the total alone
            idle = Rectangle(width=BAR_W, height=useful_y - total_y, stroke_color=MUTED, stroke_width=2,
                             fill_opacity=0).move_to([BAR_X, (useful_y + total_y) / 2, 0])
            idle_l = label("idle", size=SMALL_SIZE, color=MUTED).next_to(idle, UP, buff=0.08)
            self.play(bar.animate.stretch(1 / u, 1, about_edge=DOWN), FadeIn(idle), FadeIn(idle_l),
                      run_time=1.5)
            use_t = markup(f"per useful hour  <b>{usd(a['useful'])}</b>", size=BODY_SIZE,
                           color=palette.role("highlight"))
            use_t.next_to(self.total_text, DOWN, buff=0.35, aligned_edge=LEFT)
            self.play(FadeIn(use_t), run_time=0.6)
            self.wait(1.5)
        self.bar, self.idle_box, self.idle_label, self.useful_text = bar, idle, idle_l, use_t

    def half_idle(self) -> None:
        _, _, a = self.numbers()
        total_y, u = self.total_y, a["utilisation"]
        half_y = BAR_BOTTOM + a["half_useful"] * self.scale
        h = a["half_utilisation"]
        with self.beat(f"At {fmt_percent(h, 2)} utilisation: {usd(a['half_useful'])} per useful hour."):
            idle2 = Rectangle(width=BAR_W, height=half_y - total_y, stroke_color=MUTED, stroke_width=2,
                              fill_opacity=0).move_to([BAR_X, (half_y + total_y) / 2, 0])
            self.play(self.bar.animate.stretch(u / h, 1, about_edge=DOWN), self.idle_box.animate.become(idle2),
                      self.idle_label.animate.next_to(idle2, UP, buff=0.08), run_time=1.5)
            half_t = markup(f"at {fmt_percent(h, 2)}  <b>{usd(a['half_useful'])}</b>", size=BODY_SIZE,
                            color=palette.role("bad"))
            half_t.next_to(self.useful_text, DOWN, buff=0.35, aligned_edge=LEFT)
            self.play(FadeIn(half_t), run_time=0.6)
            self.wait(2.0)
