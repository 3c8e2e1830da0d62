"""nvlink-nvswitch · NVLink mesh & NVSwitch scale-up.

The HGX H100 baseboard: eight GPUs, the NVSwitch chips between them, every GPU
streaming to every other at once while counters run the model's clock. Then
the same all-to-all squeezed through one NIC port per GPU, and finally the
GB200 NVL72 rack as one NVLink domain, where a 64-GPU expert group still fits.
Every number comes from self.data (models.nvlink_nvswitch.nvlink_domains); packets
only show the pattern (a few dozen at most), counters carry the bandwidth.
"""

from __future__ import annotations

import numpy as np
from manim import (
    DOWN,
    LEFT,
    RIGHT,
    UP,
    DashedLine,
    FadeIn,
    FadeOut,
    Rectangle,
    ValueTracker,
    VGroup,
)

from design import palette
from models.units import fmt_bytes, fmt_count, fmt_percent, fmt_rate, fmt_seconds
from scenes.fabric import (
    link,
    packet,
)
from scenes.server_parts import (
    gpu,
    nic,
    rack,
    switch,
)
from scenes.style import (
    INK,
    MUTED,
    PANEL,
    SMALL_SIZE,
    ExhibitScene,
    counter,
    grow_value_bars,
    label,
    markup,
    title,
    value_bars,
)

NVL = palette.role("switch")
NIC = palette.role("nic")
GPU = palette.role("gpu")
HOT = palette.role("highlight")
MEM = palette.role("memory")
PANEL_X = 2.05  # left edge of the right-hand text panel
BODY = SMALL_SIZE + 2


def _fmt_ms(x: float) -> str:
    return f"{x * 1e3:.2f}"



class NVLinkDomain(ExhibitScene):
    scene_id = "nvlink-nvswitch"

    # --- helpers ------------------------------------------------------------------------
    def stream(self, paths: list[list[np.ndarray]], colour: str, clock: ValueTracker,
               clock_to: float, stage_time: float, size: float = 0.15) -> None:
        """Move one packet along each path (same number of stops), all at once;
        the clock tracker advances to clock_to across the stages."""
        movers = [packet(colour, size=size).move_to(p[0]).set_z_index(3) for p in paths]
        self.add(*movers)
        stages = len(paths[0]) - 1
        start = clock.get_value()
        for s in range(1, stages + 1):
            self.play(*[m.animate.move_to(p[s]) for m, p in zip(movers, paths)],
                      clock.animate.set_value(start + (clock_to - start) * s / stages),
                      run_time=stage_time)
        self.remove(*movers)

    def port(self, i: int, inward: bool) -> np.ndarray:
        """Where packets enter GPU i: just outside its edge, toward the switches (inward)
        or toward its NIC, so a packet never sits on the GPU's label."""
        top = i < self.half
        edge = self.gpus[i].get_bottom() if top == inward else self.gpus[i].get_top()
        return edge + (DOWN if top == inward else UP) * 0.14

    def nic_outer(self, i: int) -> np.ndarray:
        """Just beyond NIC i, on the side away from its GPU (clear of both labels)."""
        return self.nics[i].get_center() + (UP if i < self.half else DOWN) * 0.3

    def at_leaf(self, i: int) -> np.ndarray:
        """Where NIC i's cable meets the IB switch: its row's height, on the switch's left edge."""
        return np.array([self.leaf.get_left()[0] + 0.05, self.nic_outer(i)[1], 0.0])

    # --- the script ------------------------------------------------------------------------
    def construct(self) -> None:
        s = self.data["summary"]
        self.p = int(s["node_gpus"])
        self.n_sw = int(s["hgx_h100_switch_chips"])
        self.half = (self.p + 1) // 2
        self.baseboard()
        self.link_split()
        self.alltoall_over_nvlink()
        self.bisection_cut()
        self.alltoall_over_nics()
        self.allreduce_ratio()
        self.chip_boundary()
        self.nvl72_rack()
        self.expert_group_fits()

    def baseboard(self) -> None:
        """1. The baseboard: GPUs, NVSwitch chips in the middle."""
        s = self.data["summary"]
        p, n_sw, half = self.p, self.n_sw, self.half
        with self.beat(f"HGX H100: {fmt_count(p)} GPUs, {fmt_count(n_sw)} NVSwitch chips; "
                       f"{fmt_count(s['h100_links'])} links × {fmt_rate(s['h100_link_dir'])} = "
                       f"{fmt_rate(s['h100_gpu_dir'])} per GPU each way, shared by its "
                       f"{fmt_count(p - 1)} peers"):
            heading = title("One NVLink domain", size=30)
            self.play(FadeIn(heading), run_time=0.5)

            xs = np.linspace(-5.2, -0.7, half)
            y_top, self.y_sw, y_bot = 1.55, -0.05, -1.65  # NICs above and below stay clear of the captions
            self.gpu_pos = [np.array([xs[i % half], y_top if i < half else y_bot, 0.0]) for i in range(p)]
            self.gpus = VGroup(*[gpu(f"GPU {i}", width=1.0, height=0.55).move_to(self.gpu_pos[i])
                                 for i in range(p)])
            sw_x = np.linspace(-5.2, -0.7, n_sw)
            # the chips carry no text: packets cross their bodies, so their name sits beside the row
            self.switches = VGroup(*[switch("NVSwitch", ports=6, width=1.3, height=0.55)
                                     .move_to([sw_x[j], self.y_sw, 0]) for j in range(n_sw)])
            for sw in self.switches:
                sw.remove(sw[2])
            self.sw_name = label("NVSwitch", size=SMALL_SIZE, color=NVL).rotate(np.pi / 2)
            self.sw_name.next_to(self.switches, LEFT, buff=0.15)
            self.wires = VGroup(*[link(self.gpus[i].get_center(), self.switches[j].get_center(), color=NVL,
                                       width=1.2) for i in range(p) for j in range(n_sw)])
            self.wires.set_z_index(-1).set_opacity(0.45)
            self.play(FadeIn(self.wires), FadeIn(self.switches), FadeIn(self.sw_name), FadeIn(self.gpus),
                      run_time=1.0)

            self.spec = VGroup(
                markup(f"<b>{fmt_count(s['h100_links'])}</b> NVLink links per GPU", size=BODY),
                markup(f"per link: {fmt_rate(s['h100_link_dir'])} each way", size=BODY),
                markup(f"per GPU: <b>{fmt_rate(s['h100_gpu_dir'])}</b> each way, in total", size=BODY),
                markup(f"shared by its {fmt_count(p - 1)} peers", size=SMALL_SIZE, color=MUTED),
                markup(f"({fmt_rate(s['h100_gpu_bidir'])} both ways summed)", size=SMALL_SIZE,
                       color=MUTED),
            ).arrange(DOWN, aligned_edge=LEFT, buff=0.12).move_to([PANEL_X, 1.75, 0], aligned_edge=LEFT)
            self.play(FadeIn(self.spec), run_time=0.6)
            self.wait(1.2)

    def link_split(self) -> None:
        """1b. Mesh or switch: how one GPU's links land on the chips."""
        s = self.data["summary"]
        n_sw = self.n_sw
        split = [int(k) for k in self.data["animation"]["links_per_switch"]]
        with self.beat(f"No GPU-to-GPU wire: {fmt_count(s['h100_links'])} links split "
                       f"{s['h100_switch_split']} over {fmt_count(n_sw)} switch chips; any pair gets "
                       f"full {fmt_rate(s['h100_pair_dir'])} each way"):
            # GPU 0's own wires light up, each labelled with its link count
            mine = VGroup(*[self.wires[j] for j in range(n_sw)])
            counts = VGroup()
            for j, k in enumerate(split):
                a, b = self.gpus[0].get_center(), self.switches[j].get_center()
                t = label(str(k), size=SMALL_SIZE, color=INK)
                t.add_background_rectangle(color=PANEL, opacity=1, buff=0.04)
                counts.add(t.move_to(a + (b - a) * 0.55))
            self.play(mine.animate.set_opacity(1).set_stroke(width=4), run_time=0.8)
            self.play(FadeIn(counts), run_time=0.6)
            split_t = markup(f"links to the {fmt_count(n_sw)} chips: <b>{s['h100_switch_split']}</b>",
                             size=BODY, color=NVL).next_to(self.spec, DOWN, aligned_edge=LEFT, buff=0.2)
            self.play(FadeIn(split_t), run_time=0.5)
            self.wait(1.0)
            self.split_marks = (VGroup(counts, split_t), mine)

    def alltoall_over_nvlink(self) -> None:
        """2. All-to-all over NVLink: everyone streams to everyone at once."""
        s, an = self.data["summary"], self.data["animation"]
        p, n_sw = self.p, self.n_sw
        with self.beat(f"All-to-all, {fmt_bytes(s['message'])} per GPU: each sends "
                       f"{fmt_bytes(s['alltoall_bytes_sent'])} to the {fmt_count(p - 1)} others at once, "
                       f"split over all {fmt_count(n_sw)} chips: "
                       f"{fmt_seconds(s['alltoall_nvlink_time'])}"):
            clock = self.progress = ValueTracker(0.0)  # fraction of the all-to-all done
            self.sent_c = counter("sent per GPU", 0, decimals=0, unit="MB", size=BODY)
            self.sent_c[1].add_updater(lambda m: m.set_value(clock.get_value() * s["alltoall_bytes_sent"] / 1e6))
            self.time_c = counter("elapsed", 0, decimals=2, unit="ms", size=BODY)
            self.rate_t = markup(f"all {fmt_count(p)} send <b>{fmt_rate(an['node_nvlink_inflight'])}</b> each way",
                                 size=BODY, color=NVL)
            self.counters = VGroup(self.rate_t, self.sent_c, self.time_c).arrange(DOWN, aligned_edge=LEFT,
                                                                                  buff=0.22)
            self.counters.move_to([PANEL_X, -0.6, 0], aligned_edge=LEFT)
            t_nvl = s["alltoall_nvlink_time"]
            self.time_c[1].add_updater(lambda m: m.set_value(clock.get_value() * t_nvl * 1e3))
            marks, mine = self.split_marks
            self.play(FadeIn(self.counters), FadeOut(marks),
                      mine.animate.set_opacity(0.45).set_stroke(width=1.2), run_time=0.5)
            for k in range(1, p):  # wave k: GPU i -> GPU (i+k) mod p, split into one piece per chip
                paths = [[self.port(i, inward=True), self.switches[j].get_center(),
                          self.port((i + k) % p, inward=True)] for i in range(p) for j in range(n_sw)]
                self.stream(paths, NVL, clock, k / (p - 1), stage_time=0.32, size=0.09)
            self.done = markup(f"done in <b>{fmt_seconds(t_nvl)}</b>", size=BODY, color=NVL)
            self.done.next_to(self.counters, DOWN, aligned_edge=LEFT, buff=0.25)
            self.play(FadeIn(self.done), run_time=0.4)
            self.wait(0.8)

    def bisection_cut(self) -> None:
        """2b. Sent is not the bisection: cut the board in half and count what crosses."""
        s = self.data["summary"]
        p, half = self.p, self.half
        h = p // 2
        with self.beat(f"Bisection: {fmt_count(h)} GPUs × {fmt_rate(s['h100_gpu_dir'])} = "
                       f"{fmt_rate(s['hgx_h100_bisection_dir'])} cross the cut each way, "
                       f"{fmt_rate(s['hgx_h100_bisection_bidir'])} both ways"):
            cols = half // 2  # left columns 0..cols-1, right columns cols..half-1
            x_cut = (self.gpu_pos[cols - 1][0] + self.gpu_pos[cols][0]) / 2
            cut = DashedLine([x_cut, 2.1, 0], [x_cut, -2.2, 0], color=HOT, stroke_width=4).set_z_index(2)
            left = [i for i in range(p) if (i % half) < cols]
            right = [i for i in range(p) if (i % half) >= cols]
            cut_t = VGroup(
                markup(f"across the cut: <b>{fmt_rate(s['hgx_h100_bisection_dir'])}</b> each way",
                       size=BODY, color=HOT),
                markup(f"({fmt_rate(s['hgx_h100_bisection_bidir'])} both ways: the bisection)",
                       size=SMALL_SIZE, color=MUTED),
                markup(f"this all-to-all sends {fmt_rate(s['hgx_h100_alltoall_cut_dir'])} across",
                       size=SMALL_SIZE, color=MUTED),
            ).arrange(DOWN, aligned_edge=LEFT, buff=0.1).next_to(self.counters, DOWN, aligned_edge=LEFT, buff=0.25)
            self.play(FadeOut(self.done), FadeIn(cut), run_time=0.5)
            n_sw = self.n_sw
            paths = [[self.port(a, inward=True), self.switches[j].get_center(), self.port(b, inward=True)]
                     for a, b in zip(left, right) for j in range(n_sw)]
            paths += [[self.port(b, inward=True), self.switches[j].get_center(), self.port(a, inward=True)]
                      for a, b in zip(left, right) for j in range(n_sw)]
            self.stream(paths, HOT, ValueTracker(0.0), 0.0, stage_time=0.45, size=0.09)
            self.play(FadeIn(cut_t), run_time=0.4)
            self.wait(1.6)
            self.cut_marks = VGroup(cut, cut_t)

    def alltoall_over_nics(self) -> None:
        """3. The same traffic through one NIC per GPU."""
        s, an = self.data["summary"], self.data["animation"]
        p, half, pos, clock = self.p, self.half, self.gpu_pos, self.progress
        with self.beat(f"The same all-to-all through one {fmt_rate(s['nic_rate'])} NIC port per GPU: "
                       f"{fmt_rate(an['node_nic_inflight'])} sent in all, "
                       f"{fmt_seconds(s['alltoall_nic_time'])}, "
                       f"{s['alltoall_slowdown']:.1f}× slower"):
            self.nics = VGroup(*[nic("NIC", width=0.7, height=0.34).move_to(
                pos[i] + (UP if i < half else DOWN) * 0.72) for i in range(p)])
            self.leaf = Rectangle(width=0.5, height=5.26, stroke_color=NIC, stroke_width=3,
                                  fill_color=PANEL, fill_opacity=1).move_to([0.75, self.y_sw, 0])
            self.leaf_t = label("IB switch", size=SMALL_SIZE - 2, color=INK).rotate(np.pi / 2).move_to(self.leaf)
            self.rate_nic = markup(f"all {fmt_count(p)} send <b>{fmt_rate(an['node_nic_inflight'])}</b> each way",
                                   size=BODY, color=NIC).move_to(self.rate_t, aligned_edge=LEFT)
            # each NIC's cable: up (or down) out of the NIC, then along the row to the IB switch
            self.nic_wires = VGroup(*[VGroup(link(self.nics[i].get_center(), self.nic_outer(i), color=NIC, width=1.5),
                                             link(self.nic_outer(i), self.at_leaf(i), color=NIC, width=1.5))
                                      for i in range(p)])
            self.nic_wires.set_z_index(-1)
            self.play(self.wires.animate.set_opacity(0.12), self.switches.animate.set_opacity(0.35),
                      FadeIn(self.nics), FadeIn(self.nic_wires), FadeIn(self.leaf), FadeIn(self.leaf_t),
                      FadeOut(self.rate_t), FadeIn(self.rate_nic), FadeOut(self.cut_marks), run_time=0.8)
            clock.set_value(0.0)
            t_nic = s["alltoall_nic_time"]
            self.time_c[1].clear_updaters()
            self.time_c[1].add_updater(lambda m: m.set_value(clock.get_value() * t_nic * 1e3))
            for k in range(1, p):
                paths = []
                for i in range(p):
                    j = (i + k) % p
                    paths.append([self.port(i, inward=False), self.nic_outer(i), self.at_leaf(i), self.at_leaf(j),
                                  self.nic_outer(j), self.port(j, inward=False)])
                self.stream(paths, NIC, clock, k / (p - 1), stage_time=0.12)
            self.slow = markup(f"<b>{fmt_seconds(t_nic)}</b>: {s['alltoall_slowdown']:.1f}× the NVLink time",
                               size=BODY, color=NIC)
            self.slow.next_to(self.counters, DOWN, aligned_edge=LEFT, buff=0.25)
            self.play(FadeIn(self.slow), run_time=0.4)
            self.wait(1.0)

    def allreduce_ratio(self) -> None:
        """4. All-reduce: the same ratio."""
        s = self.data["summary"]
        with self.beat(f"Ring all-reduce of {fmt_bytes(s['message'])}: "
                       f"{fmt_seconds(s['allreduce_nvlink_time'])} on NVLink, "
                       f"{fmt_seconds(s['allreduce_nic_time'])} over the NICs; "
                       f"NVLink is {s['nvlink_over_nic']:.0f}× one port"):
            for m in (self.sent_c[1], self.time_c[1]):
                m.clear_updaters()
            # the two times as bars on one scale: the NIC ring's bar is the full width
            times = value_bars([("NVLink", s["allreduce_nvlink_time"], fmt_seconds(s["allreduce_nvlink_time"]), NVL),
                                ("NICs", s["allreduce_nic_time"], fmt_seconds(s["allreduce_nic_time"]), NIC)],
                               top=s["allreduce_nic_time"], width=2.2, size=BODY, height=0.3, buff=0.18)
            self.ar = VGroup(markup("ring all-reduce, same n", size=BODY, color=MUTED), times)
            self.ar.arrange(DOWN, aligned_edge=LEFT, buff=0.2).move_to([PANEL_X, -0.9, 0], aligned_edge=LEFT)
            self.play(FadeOut(VGroup(self.counters, self.rate_nic, self.slow)), FadeIn(self.ar[0]), run_time=0.6)
            self.play(*grow_value_bars(times), run_time=1.4)
            self.wait(1.0)

    def chip_boundary(self) -> None:
        """4b. Where the chip ends: a load reaches a peer's HBM; HBM vs NVLink vs NIC."""
        s = self.data["summary"]
        src, dst = 0, min(5, self.p - 1)
        with self.beat(f"GPU {src} loads from GPU {dst}'s memory over NVLink; HBM ({fmt_rate(s['hbm_bw'])}) "
                       f"is {s['hbm_over_nvlink_bidir']:.1f}–{s['hbm_over_nvlink_dir']:.1f}× NVLink, "
                       f"a NIC port {s['nvlink_over_nic']:.0f}× below NVLink, {s['hbm_over_nic']:.0f}× below HBM"):
            sw = self.switches[dst % self.n_sw].get_center()
            ld = markup("ld", size=SMALL_SIZE, color=INK)
            req = VGroup(packet(HOT, size=0.18), ld).arrange(RIGHT, buff=0.05)
            req.move_to(self.port(src, inward=True)).set_z_index(4)
            self.play(FadeOut(self.ar), FadeIn(req), self.wires.animate.set_opacity(0.45),
                      self.switches.animate.set_opacity(1), run_time=0.5)
            self.play(req.animate.move_to(sw), run_time=0.45)
            self.play(req.animate.move_to(self.port(dst, inward=True)), run_time=0.45)
            reply = packet(NVL, size=0.18).move_to(self.port(dst, inward=True)).set_z_index(4)
            self.play(FadeOut(req), FadeIn(reply), run_time=0.3)
            self.play(reply.animate.move_to(sw), run_time=0.45)
            self.play(reply.animate.move_to(self.port(src, inward=True)), run_time=0.45)
            self.play(FadeOut(reply), run_time=0.2)
            bars = value_bars([
                ("local HBM", s["hbm_bw"], fmt_rate(s["hbm_bw"]), MEM),
                ("NVLink, each way", s["h100_gpu_dir"], fmt_rate(s["h100_gpu_dir"]), NVL),
                ("NIC, each way", s["nic_rate"], fmt_rate(s["nic_rate"]), NIC),
            ], top=s["hbm_bw"], width=1.4, size=SMALL_SIZE, height=0.26, buff=0.14)
            self.edge = VGroup(markup("a peer's memory takes loads and stores", size=SMALL_SIZE, color=MUTED),
                               bars,
                               markup(f"HBM: {s['hbm_over_nvlink_bidir']:.1f}–{s['hbm_over_nvlink_dir']:.1f}× NVLink "
                                      "(both ways or one)", size=SMALL_SIZE, color=MEM))
            self.edge.arrange(DOWN, aligned_edge=LEFT, buff=0.2).move_to([PANEL_X - 0.55, -0.95, 0], aligned_edge=LEFT)
            self.play(FadeIn(self.edge[0]), run_time=0.4)
            self.play(*grow_value_bars(bars), run_time=1.4)
            self.play(FadeIn(self.edge[2]), run_time=0.4)
            self.wait(1.0)

    def nvl72_rack(self) -> None:
        """5. GB200 NVL72: one domain of 72."""
        s = self.data["summary"]
        q = int(s["nvl72_gpus"])
        trays = int(s["nvl72_switch_trays"])
        with self.beat(f"GB200 NVL72: {fmt_count(q)} GPUs, {fmt_count(trays)} NVLink Switch trays; "
                       f"{fmt_count(q)} × {fmt_rate(s['b200_gpu_bidir'])} = "
                       f"{fmt_rate(s['nvl72_aggregate_bidir'], 4)} bidirectional "
                       f"(NVIDIA: {fmt_rate(s['nvl72_published_bidir'])})"):
            board = VGroup(self.gpus, self.switches, self.sw_name, self.wires, self.nics, self.nic_wires, self.leaf,
                           self.leaf_t)
            self.play(FadeOut(board), FadeOut(self.spec), FadeOut(self.edge), run_time=0.6)
            frame, self.squares, sw_trays = rack(q, 4, trays, top_trays=10, width=2.2, row=0.18)
            rack_g = VGroup(frame, sw_trays, self.squares).move_to([-2.9, 0.0, 0])  # clear of the captions
            rack_name = label("GB200 NVL72 rack", size=BODY, color=MUTED).next_to(frame, LEFT, buff=0.3)
            rack_name.rotate(np.pi / 2)
            self.play(FadeIn(rack_g), FadeIn(rack_name), run_time=1.0)
            agg = ValueTracker(0.0)
            self.agg_c = counter("aggregate, both ways", 0, decimals=1, unit="TB/s", size=BODY)
            self.agg_c[1].add_updater(lambda m: m.set_value(agg.get_value() / 1e12))
            nvl_spec = VGroup(
                markup(f"{fmt_count(s['b200_links'])} links × {fmt_rate(s['b200_link_dir'])} each way",
                       size=BODY),
                markup(f"per GPU: <b>{fmt_rate(s['b200_gpu_dir'])}</b> each way", size=BODY),
                markup(f"{fmt_count(s['nvl72_switch_ports_used'])} GPU links ÷ "
                       f"{fmt_count(s['nvlink_switch_ports'])} ports = {fmt_count(trays)} switch trays",
                       size=SMALL_SIZE, color=MUTED),
                self.agg_c,
            ).arrange(DOWN, aligned_edge=LEFT, buff=0.2).move_to([PANEL_X - 0.6, 1.2, 0],
                                                                 aligned_edge=LEFT)
            self.play(FadeIn(nvl_spec), run_time=0.5)
            # a dozen packets cross the switch band at once while the aggregate counts up
            step = max(q // 12, 1)
            srcs = list(range(0, q, step))[:12]
            mid_y = sw_trays.get_center()[1]
            paths = [[self.squares[i].get_center(), np.array([self.squares[i].get_center()[0], mid_y, 0]),
                      self.squares[(i + q // 2) % q].get_center()] for i in srcs]
            self.stream(paths, NVL, agg, s["nvl72_aggregate_bidir"], stage_time=0.7)
            self.wait(1.0)

    def expert_group_fits(self) -> None:
        """6. What fits: a 64-GPU expert all-to-all."""
        s = self.data["summary"]
        p, q, eg = self.p, int(s["nvl72_gpus"]), int(s["expert_group"])
        with self.beat(f"A {fmt_count(eg)}-GPU expert all-to-all: on {fmt_count(p)}-GPU boards "
                       f"{fmt_percent(s['expert_spill_hgx'])} of the bytes cross NICs "
                       f"({fmt_seconds(s['expert_alltoall_hgx_b200'])}); inside NVL72 none do "
                       f"({fmt_seconds(s['expert_alltoall_nvl72'])})"):
            self.agg_c[1].clear_updaters()
            box = VGroup(*[self.squares[i] for i in range(min(eg, len(self.squares)))])
            self.play(*[sq.animate.set_fill(HOT, opacity=0.85) for sq in box], run_time=0.8)
            fit = VGroup(
                markup(f"{fmt_count(eg)} GPUs, {fmt_bytes(s['message'])} each:", size=BODY, color=MUTED),
                markup(f"HGX B200 ({fmt_count(p)} per domain): "
                       f"<b>{fmt_seconds(s['expert_alltoall_hgx_b200'])}</b>", size=BODY, color=NIC),
                markup(f"NVL72 ({fmt_count(q)} per domain): "
                       f"<b>{fmt_seconds(s['expert_alltoall_nvl72'])}</b>", size=BODY, color=HOT),
                markup(f"{s['expert_speedup']:.0f}× faster: the group fits in the domain", size=BODY),
            ).arrange(DOWN, aligned_edge=LEFT, buff=0.16).move_to([PANEL_X - 0.6, -1.6, 0],
                                                                 aligned_edge=LEFT)
            self.play(FadeIn(fit), run_time=0.6)
            self.wait(3.0)

__all__ = ["NVLinkDomain", "rack"]
