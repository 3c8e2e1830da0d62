"""mig-vs-timeslicing · MIG hardware slicing against time-sliced sharing.

Left: an H100 80GB cut by MIG into equal instances, each with its own
compute and memory slices (the model's layout for k tenants), with what no
instance owns greyed out. Right: the same tenants taking turns on the whole
GPU, each turn a time slice with a context switch between. Then one request's
latency on each, and what happens when one tenant misbehaves. Every number
comes from self.data (models.mig_vs_timeslicing.mig_vs_timeslicing).
"""

from __future__ import annotations

from manim import (
    DOWN,
    LEFT,
    Create,
    DashedLine,
    FadeIn,
    FadeOut,
    GrowFromEdge,
    LaggedStart,
    Line,
    Rectangle,
    VGroup,
    Write,
)

from design import palette
from models.units import MS, fmt_bytes, fmt_seconds
from scenes.style import (
    BODY_SIZE,
    INK,
    MUTED,
    PANEL,
    SMALL_SIZE,
    ExhibitScene,
    label,
    title,
)

GPU_C = palette.role("gpu")
MIG_C = palette.role("ok")
TS_C = palette.role("primary")
BAD = palette.role("bad")
SWITCH_C = palette.role("restart")
TENANT_C = [palette.SKY, palette.ORANGE, palette.PURPLE, palette.GREEN, palette.YELLOW, palette.BLUE, MUTED]
TENANT_INK = [palette.VIDEO["bg"]] * 5 + [INK, palette.VIDEO["bg"]]  # dark text on light fills

LEFT_X, RIGHT_X = -3.0, 3.9
COL_W = 0.64  # one memory slice
COMPUTE_Y, COMPUTE_H = 1.45, 0.9
MEMORY_Y, MEMORY_H = 0.62, 0.5
NOTE1_Y, NOTE2_Y = -0.1, -0.55
AXIS_Y = -2.3  # the latency axis
HIST_H = 0.8  # the tallest time-sliced bin's height: its top stays clear of the median's label
HIST_STEP = 10  # points of the model's latency series per bin
PCT_Y = -1.2  # the median and 99th-percentile labels
WORST_Y = -1.62  # the worst case's label: below the p99 label, over bins too short to reach it
MIG_LABEL_Y = (-0.55, -0.85)  # the MIG spike's two label lines
ROT_X0, ROT_W = -5.2, 10.8  # the time-sliced rotation's strip: the latency axis's span, so the lower half is used
ROT_Y, ROT_H = -1.75, 0.55
LANES_TOP, LANES_H = -1.2, 0.8  # MIG's instances over time, side by side, in the same band


class MigVsTimeSlicing(ExhibitScene):
    scene_id = "mig-vs-timeslicing"

    def construct(self) -> None:
        s, p = self.data["summary"], self.data["params"]
        self.k = p["tenants"]
        self.share = s["share_profile"]
        self.n_mem = s["memory_slices"]
        self.x0 = LEFT_X - self.n_mem * COL_W / 2
        self.the_gpu()
        self.mig_instances()
        self.time_slices()
        self.request_latency()
        self.isolation()

    def col_x(self, i: int) -> float:
        """Centre of memory slice i on the left."""
        return self.x0 + (i + 0.5) * COL_W

    def the_gpu(self) -> None:
        """The question, the GPU's compute and memory slices (left) and the whole GPU (right)."""
        s = self.data["summary"]
        x0, n_mem, col_x = self.x0, self.n_mem, self.col_x
        with self.beat(f"One H100 80GB: {s['gpu_sms']} SMs. MIG cuts it into {s['compute_slices']} compute "
                       f"slices and {s['memory_slices']} memory slices."):
            head = title("How do you share one GPU safely?")
            h_left = label("MIG: hardware slices", size=BODY_SIZE, color=MIG_C).move_to([LEFT_X, 2.75, 0])
            h_right = label("Time-slicing: taking turns", size=BODY_SIZE, color=TS_C).move_to([RIGHT_X, 2.75, 0])
            comp = VGroup(*[Rectangle(width=COL_W, height=COMPUTE_H, stroke_color=MUTED, stroke_width=1.5,
                                      fill_color=PANEL, fill_opacity=1).move_to([col_x(i), COMPUTE_Y, 0])
                            for i in range(s["compute_slices"])])
            mem = VGroup(*[Rectangle(width=COL_W, height=MEMORY_H, stroke_color=MUTED, stroke_width=1.5,
                                     fill_color=PANEL, fill_opacity=1).move_to([col_x(i), MEMORY_Y, 0])
                           for i in range(n_mem)])
            c_lbl = label("compute", size=SMALL_SIZE, color=MUTED).next_to(comp, LEFT, buff=0.12)
            m_lbl = label("memory", size=SMALL_SIZE, color=MUTED).next_to(mem, LEFT, buff=0.12)
            c_lbl.set_x(x0 - 0.12 - c_lbl.width / 2)
            m_lbl.set_x(x0 - 0.12 - m_lbl.width / 2)
            whole = Rectangle(width=n_mem * COL_W, height=COMPUTE_H + MEMORY_H + 0.32, stroke_color=GPU_C,
                              stroke_width=3, fill_color=PANEL, fill_opacity=1)
            whole.move_to([RIGHT_X, (COMPUTE_Y + COMPUTE_H / 2 + MEMORY_Y - MEMORY_H / 2) / 2, 0])
            # the memory the page packs time-sliced tenants against: what CUDA can allocate, not the datasheet's 80 GB
            w_lbl = label(f"whole GPU: {s['gpu_sms']} SMs, {fmt_bytes(s['cuda_memory'])} usable", size=SMALL_SIZE,
                          color=INK).move_to(whole)
            self.play(Write(head), run_time=1.0)
            self.play(FadeIn(h_left), FadeIn(h_right), Create(comp), Create(mem), FadeIn(c_lbl), FadeIn(m_lbl),
                      Create(whole), FadeIn(w_lbl), run_time=1.4)
            self.wait(1.6)
        self.whole_gpu, self.whole_label = whole, w_lbl

    def mig_instances(self) -> None:
        """MIG: k equal instances, walls between them, and what no instance owns."""
        s, a = self.data["summary"], self.data["animation"]
        k, share, x0, n_mem, col_x = self.k, self.share, self.x0, self.n_mem, self.col_x
        layout = a["share_layout"]
        prof = next(r for r in self.data["records"]["profiles"] if r["name"] == share)
        with self.beat(f"MIG: {k} × {share}, each with its own {s['share_sms']} SMs and memory; "
                       f"{s['gpu_sms'] - k * s['share_sms']} SMs belong to no instance."):
            blocks = VGroup()
            names = VGroup()
            for j, (_name, start) in enumerate(sorted(layout, key=lambda t: t[1])):
                colour = TENANT_C[j % len(TENANT_C)]
                c_box = Rectangle(width=prof["compute"] * COL_W - 0.08, height=COMPUTE_H - 0.08, stroke_width=0,
                                  fill_color=colour, fill_opacity=0.85)
                c_box.move_to([x0 + (start + prof["compute"] / 2) * COL_W, COMPUTE_Y, 0])
                m_box = Rectangle(width=prof["memory"] * COL_W - 0.08, height=MEMORY_H - 0.08, stroke_width=0,
                                  fill_color=colour, fill_opacity=0.55)
                m_box.move_to([x0 + (start + prof["memory"] / 2) * COL_W, MEMORY_Y, 0])
                blocks.add(VGroup(c_box, m_box))
                names.add(label(f"T{j + 1}", size=SMALL_SIZE, color=TENANT_INK[j % len(TENANT_C)]).move_to(c_box))
            used = {i for _, st in layout for i in range(st, st + prof["memory"])}
            idle = VGroup(*[Rectangle(width=COL_W - 0.08, height=MEMORY_H - 0.08, stroke_width=0,
                                      fill_color=MUTED, fill_opacity=0.35).move_to([col_x(i), MEMORY_Y, 0])
                            for i in range(n_mem) if i not in used])
            note1 = label(f"{share}: {s['share_sms']} SMs, {prof['memory_bytes'] / 1e9:g} GB each",
                          size=SMALL_SIZE, color=INK).move_to([LEFT_X, NOTE1_Y, 0])
            note2 = label(f"{s['gpu_sms'] - k * s['share_sms']} SMs and {len(idle)} memory slice unused",
                          size=SMALL_SIZE, color=MUTED).move_to([LEFT_X, NOTE2_Y, 0])
            self.play(*[GrowFromEdge(b, DOWN) for b in blocks], run_time=1.2)
            self.play(FadeIn(names), FadeIn(idle), FadeIn(note1), run_time=0.8)
            # over time, in the lower half: every instance runs all the time, side by side (the rotation of
            # the next beat takes this strip's place)
            # the lanes' band: from just under the notes (LANES_TOP) down, its label clear of the caption band
            lane_h = LANES_H / k
            lanes = VGroup(*[Rectangle(width=ROT_W, height=lane_h * 0.7, stroke_width=0,
                                       fill_color=TENANT_C[j % len(TENANT_C)], fill_opacity=0.8)
                             .move_to([ROT_X0 + ROT_W / 2, LANES_TOP - (j + 0.5) * lane_h, 0])
                             for j in range(k)])
            lanes_t = label(f"over time: all {k} run at once, each on its own {s['share_sms']} SMs",
                            size=SMALL_SIZE - 2, color=MUTED).move_to([ROT_X0 + ROT_W / 2,
                                                                     LANES_TOP - LANES_H - 0.3, 0])
            self.play(FadeIn(note2), run_time=0.5)
            self.play(LaggedStart(*[GrowFromEdge(ln, LEFT) for ln in lanes], lag_ratio=0.1), FadeIn(lanes_t),
                      run_time=1.0)
            self.wait(1.8)
        self.instances, self.instance_names, self.unused_note = blocks, names, note2
        self.mig_lanes = VGroup(lanes, lanes_t)

    def time_slices(self) -> None:
        """Time-slicing: the tenants' turns on the whole GPU, one slot each, twice round."""
        p, a = self.data["params"], self.data["animation"]
        k, whole = self.k, self.whole_gpu
        turns = a["turns"]
        with self.beat(f"Kubernetes time-slicing: {k} tenants take turns on the whole GPU, "
                       f"{fmt_seconds(p['quantum'])} each, a {fmt_seconds(p['switch'])} switch between "
                       f"(both assumed)."):
            total = turns[-1]["start"] + turns[-1]["switch"] + turns[-1]["run"]
            # the rotation across the frame's lower half, where the latency chart comes next
            bar_w, bx0 = ROT_W, ROT_X0
            gap = 0.06  # a switch, drawn wider than to scale
            scale = (bar_w - gap * len(turns)) / (total - p["switch"] * len(turns))
            slots = VGroup()
            xcur = bx0
            for tt in turns:
                xcur += gap
                w = tt["run"] * scale
                slots.add(Rectangle(width=w, height=ROT_H, stroke_width=0, fill_color=TENANT_C[tt["tenant"] % 7],
                                    fill_opacity=0.9).move_to([xcur + w / 2, ROT_Y, 0]))
                xcur += w
            t_note = VGroup(
                label(f"{k} tenants, one turn each, again and again", size=SMALL_SIZE,
                      color=INK).move_to([RIGHT_X, NOTE1_Y, 0]),
                label(f"each turn {fmt_seconds(p['quantum'])}, a {fmt_seconds(p['switch'])} switch between "
                      f"(gaps drawn wider than to scale)", size=SMALL_SIZE - 2,
                      color=MUTED).move_to([ROT_X0 + ROT_W / 2, ROT_Y - ROT_H / 2 - 0.3, 0]),
            )
            running = None
            self.play(FadeOut(self.mig_lanes), FadeIn(t_note), run_time=0.5)
            for i, slot in enumerate(slots):
                tenant = turns[i]["tenant"]
                new = label(f"T{tenant + 1} has the whole GPU", size=SMALL_SIZE, color=INK).move_to(self.whole_label)
                anims = [FadeIn(slot), whole.animate.set_fill(TENANT_C[tenant % 7], opacity=0.35)]
                anims.append(FadeOut(self.whole_label if running is None else running))
                anims.append(FadeIn(new))
                self.play(*anims, run_time=0.32)
                running = new
            self.wait(1.0)
        self.turn_slots, self.turn_note, self.turn_label = slots, t_note, running

    def latency_bins(self) -> list[tuple[float, float, float]]:
        """The time-sliced latency's distribution as (from, to, share of requests) bins: differences of
        the model's analytic CDF (series `cdf` over `latency`), HIST_STEP points a bin."""
        ser = self.data["series"]
        xs, cdf = ser["latency"], ser["cdf"]
        bins = []
        for i in range(0, len(xs) - HIST_STEP, HIST_STEP):
            share = cdf[i + HIST_STEP] - cdf[i]
            if share > 1e-9:
                bins.append((xs[i], xs[i + HIST_STEP], share))
        return bins

    def request_latency(self) -> None:
        """One request's latency on each: every request on the MIG instance at one value, the time-sliced
        requests spread out (the model's distribution, binned), with the median and 99th percentile."""
        s, p = self.data["summary"], self.data["params"]
        share = self.share
        with self.beat(f"A {fmt_seconds(p['work'])} request that could fill all {s['usable_sms']} SMs: "
                       f"{fmt_seconds(s['mig_latency'])} on its {share}, every time. Time-sliced: "
                       f"{fmt_seconds(s['ts_best'])} to {fmt_seconds(s['ts_worst'])}, set by the neighbours."):
            hi = max(s["mig_latency"], s["ts_worst"]) * 1.08
            ax_x0, ax_w = -5.2, 10.8
            xs = lambda v: ax_x0 + ax_w * v / hi  # noqa: E731
            axis = Line([ax_x0, AXIS_Y, 0], [ax_x0 + ax_w, AXIS_Y, 0], color=MUTED, stroke_width=1.5)
            ticks = VGroup()
            step = 20 * MS if hi > 60 * MS else 10 * MS
            v = 0.0
            while v <= hi:
                ticks.add(Line([xs(v), AXIS_Y, 0], [xs(v), AXIS_Y - 0.1, 0], color=MUTED, stroke_width=1.5))
                ticks.add(label(f"{v / MS:g} ms", size=SMALL_SIZE - 2, color=MUTED).move_to([xs(v) + 0.02,
                                                                                           AXIS_Y - 0.26, 0]))
                v += step
            bins = self.latency_bins()
            tallest = max(b[2] for b in bins)
            bars = VGroup()
            for lo, up, frac in bins:
                bar = Rectangle(width=max(xs(up) - xs(lo) - 0.03, 0.03), height=HIST_H * frac / tallest,
                                stroke_width=0, fill_color=TS_C, fill_opacity=0.8)
                bars.add(bar.move_to([(xs(lo) + xs(up)) / 2, AXIS_Y + HIST_H * frac / tallest / 2, 0]))
            ts_t = label("time-sliced: requests by latency", size=SMALL_SIZE, color=TS_C)
            ts_t.move_to([xs(bins[0][0]) + ts_t.width / 2, MIG_LABEL_Y[1], 0])
            pct = VGroup()
            for key, name in (("ts_p50", "median"), ("ts_p99", "p99")):
                x = xs(s[key])
                pct.add(Line([x, AXIS_Y, 0], [x, PCT_Y - 0.12, 0], color=INK, stroke_width=2.5))
                pct.add(label(f"{name} {fmt_seconds(s[key])}", size=SMALL_SIZE - 2, color=INK).move_to([x, PCT_Y, 0]))
            # the worst case the caption names (every neighbour busy), dashed: a bound, not a quantile
            x_w = xs(s["ts_worst"])
            pct.add(DashedLine([x_w, AXIS_Y, 0], [x_w, WORST_Y - 0.12, 0], color=BAD, stroke_width=2.5))
            pct.add(label(f"worst {fmt_seconds(s['ts_worst'])}", size=SMALL_SIZE - 2, color=BAD).move_to(
                [x_w, WORST_Y, 0]))
            x_mig = xs(s["mig_latency"])
            mig_spike = Line([x_mig, AXIS_Y, 0], [x_mig, MIG_LABEL_Y[0] + 0.15, 0], color=MIG_C, stroke_width=7)
            mig_t = VGroup(
                label(f"MIG {share}: {fmt_seconds(s['mig_latency'])}, every request", size=SMALL_SIZE, color=MIG_C),
                label(f"(a request that fills all {s['usable_sms']} SMs)", size=SMALL_SIZE - 2, color=MIG_C),
            )
            for line, y in zip(mig_t, MIG_LABEL_Y, strict=True):
                line.move_to([x_mig - 0.15 - line.width / 2, y, 0])
            self.play(FadeOut(VGroup(*self.turn_slots)), FadeOut(self.turn_note), FadeOut(self.unused_note),
                      run_time=0.5)
            self.play(Create(axis), FadeIn(ticks), run_time=0.6)
            self.play(GrowFromEdge(mig_spike, DOWN), FadeIn(mig_t), run_time=0.8)
            self.play(LaggedStart(*[GrowFromEdge(b, DOWN) for b in bars], lag_ratio=0.08), FadeIn(ts_t),
                      run_time=1.8)
            self.play(Create(pct), run_time=0.6)
            self.wait(2.6)
        self.latency_chart = VGroup(axis, ticks, bars, ts_t, pct, mig_spike, mig_t)

    def isolation(self) -> None:
        """One tenant outgrows its memory: a MIG slice caps it; time-sliced replicas share one pool, so the others
        may run out of memory (a crash alone would stay in its own CUDA context on either)."""
        k, whole = self.k, self.whole_gpu
        victim = min(2, k - 1)
        with self.beat("One tenant outgrows its memory. MIG caps it in its slice; time-sliced tenants "
                       "share one pool, so the others may run out."):
            self.play(FadeOut(self.latency_chart), run_time=0.5)  # its labels sit where the notes go
            bad_box = self.instances[victim].copy()
            for part in bad_box:
                part.set_fill(BAD, opacity=0.9)
            l_note = label(f"T{victim + 1} capped at its slice", size=SMALL_SIZE,
                           color=BAD).move_to([LEFT_X, NOTE2_Y, 0])
            r_note = label(f"T{victim + 1} grows: the others may run out", size=SMALL_SIZE,
                           color=BAD).move_to([RIGHT_X, NOTE2_Y, 0])
            crash = label("shared pool full", size=SMALL_SIZE, color=INK).move_to(whole)
            self.play(FadeIn(bad_box), FadeIn(l_note), run_time=0.7)
            self.add(self.instance_names[victim])  # back on top of the red slice
            self.play(whole.animate.set_fill(BAD, opacity=0.55), FadeOut(self.turn_label), FadeIn(crash),
                      FadeIn(r_note), run_time=0.8)
            self.wait(3.2)
