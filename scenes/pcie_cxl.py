"""pcie-cxl · PCIe Gen5 host copies & CXL memory expansion.

Two lanes side by side race the same transfer to a GPU: pageable host memory,
copied by the CPU into a pinned bounce buffer and DMA'd from there (two hops),
and pinned host memory DMA'd straight across PCIe 5.0 x16. Every chunk's copy
and DMA times come from the model's schedule (models.pcie_cxl.staging_schedule),
played at one common time scale, so the race is as lopsided as the model says;
two bandwidth meters read the bytes delivered over the time elapsed. Then a CXL
memory expander on the CPU's side: capacity and bandwidth, at a latency cost; and a
multi-headed pool whose DRAM blocks move to whichever socket asks for them.
"""

from __future__ import annotations

import numpy as np
from manim import (
    DOWN,
    LEFT,
    RIGHT,
    UP,
    FadeIn,
    FadeOut,
    Indicate,
    Line,
    ValueTracker,
    VGroup,
    linear,
)

from design import palette
from models.units import fmt_bytes, fmt_count, fmt_percent, fmt_rate, fmt_seconds
from scenes.fabric import (
    PortBuffer,
    link,
    packet,
)
from scenes.server_parts import (
    chip,
    cpu,
    gpu,
    memory,
    tlp_bar,
)
from scenes.style import (
    INK,
    MUTED,
    SMALL_SIZE,
    ExhibitScene,
    counter,
    grow_value_bars,
    label,
    markup,
    title,
    value_bars,
)

PAGE = palette.role("memory")  # pageable lane
PIN = palette.role("ok")  # pinned lane
WIRE = palette.role("data")
SHARD_TOP_Y = -1.85  # the shard-time bars' top, under the pinned lane

X_RAM, X_CPU, X_BOUNCE, X_GPU = -5.3, -3.3, -1.3, 4.2
Y_PAGE, Y_PIN = 1.35, -1.45
Y_EQ = -2.3  # equations sit just above the caption band
POOL_SOCKETS_SHOWN = 4  # beat 7 draws four of a pool's sockets: Pond's 8-16 would not fit the frame
TLP_LABEL = SMALL_SIZE  # the TLP bar's field names, scaled up from the helper's 14
RACE_SECONDS = 7.5  # the slower lane's transfer, on screen (the scene keeps to its 60 s budget)
TRANSIT = 0.6  # video seconds a packet takes to cross a hop when its DMA is quicker than that



def delivered(sched: dict, t: float, t0: float) -> float:
    """Bytes landed in GPU memory by model time t (chunks land linearly during their DMA)."""
    u = t - t0
    out = 0.0
    for size, a, b in zip(sched["sizes"], sched["dma_start"], sched["dma_end"]):
        if u >= b:
            out += size
        elif u > a:
            out += size * (u - a) / (b - a)
    return out


def jitter(i: int) -> np.ndarray:
    """A packet's small vertical offset, so neighbouring chunks do not sit on one another."""
    return np.array([0.0, 0.09 * ((i % 3) - 1), 0.0])


class BounceBufferVersusDirectDMA(ExhibitScene):
    scene_id = "pcie-cxl"

    def construct(self) -> None:
        self.the_pipe()
        self.packet_overhead()
        self.two_lanes()
        self.the_race()
        self.at_scale()
        self.cxl_memory()
        self.cxl_pooling()

    def lane_parts(self) -> VGroup:
        """Both lanes' boxes, wires and names, in the order they fade in together."""
        return VGroup(self.ram_page, self.hop1, self.cpu_box, self.copy_rate, self.bounce, self.bus_page,
                      self.gpu_page, self.lane_page, self.ram_pin, self.gpu_pin, self.bus_pin, self.bus_lbl,
                      self.lane_pin)

    def the_pipe(self) -> None:
        """1. The pipe: 32 GT/s x 16 lanes x 128/130."""
        s = self.data["summary"]
        with self.beat(f"PCIe 5.0 x{s['lanes']}: {s['transfer_rate_gt']:g} GT/s × {s['lanes']} lanes × "
                       f"128/130 ÷ 8 = {fmt_rate(s['raw_bw'])} per direction "
                       f"(the {fmt_rate(s['gpu_pcie_bw'])} on the datasheet counts both directions)"):
            self.heading = title("Host to GPU: pageable vs pinned over PCIe 5.0")
            self.play(FadeIn(self.heading), run_time=0.6)

            self.ram_page = memory("pageable RAM", width=1.9, height=0.6).move_to([X_RAM, Y_PAGE, 0])
            self.cpu_box = cpu("CPU memcpy", width=1.8, height=0.6).move_to([X_CPU, Y_PAGE, 0])
            self.bounce = chip("bounce buffer", PAGE, width=1.6, height=0.6).move_to([X_BOUNCE, Y_PAGE, 0])
            self.gpu_page = gpu("GPU", width=1.1, height=0.7).move_to([X_GPU, Y_PAGE, 0])
            self.ram_pin = memory("pinned RAM", width=1.9, height=0.6).move_to([X_RAM, Y_PIN, 0])
            self.gpu_pin = gpu("GPU", width=1.1, height=0.7).move_to([X_GPU, Y_PIN, 0])

            self.hop1 = link(self.ram_page.get_right(), self.bounce.get_left(), color=PAGE, width=3)
            self.cpu_box.set_z_index(1)
            self.bus_page = link(self.bounce.get_right(), self.gpu_page.get_left(), color=WIRE, width=8)
            self.bus_pin = link(self.ram_pin.get_right(), self.gpu_pin.get_left(), color=WIRE, width=8)
            self.bus_lbl = label(f"PCIe 5.0 x{s['lanes']}", size=SMALL_SIZE, color=WIRE)
            self.bus_lbl.next_to(self.bus_pin, UP, buff=0.12).shift(RIGHT * 0.6)
            self.lane_page = label("pageable: two hops", size=SMALL_SIZE + 2, color=PAGE)
            self.lane_page.next_to(self.ram_page, UP, buff=0.6).align_to(self.ram_page, LEFT)
            self.lane_pin = label("pinned: one DMA", size=SMALL_SIZE + 2, color=PIN)
            self.lane_pin.next_to(self.ram_pin, UP, buff=0.25).align_to(self.ram_pin, LEFT)
            # the CPU copy's rate on its hop (the DGX A100's fitted m), so beat 3 names the slow stage
            self.copy_rate = label(f"≈ {fmt_rate(s['memcpy_bandwidth'])}", size=SMALL_SIZE, color=PAGE)
            self.copy_rate.next_to(self.cpu_box, DOWN, buff=0.1)

            self.play(FadeIn(VGroup(self.ram_pin, self.gpu_pin, self.bus_pin, self.bus_lbl, self.lane_pin)),
                      run_time=0.8)
            self.eq = markup(f"B<sub>raw</sub> = {s['transfer_rate_gt']:g} GT/s × {s['lanes']} × 128/130 ÷ 8 "
                             f"= <b>{fmt_rate(s['raw_bw'])}</b> per direction", size=SMALL_SIZE + 4)
            self.eq.move_to([0, Y_EQ, 0])
            self.play(FadeIn(self.eq), run_time=0.6)
            # the top half, empty until beat 3's pageable lane: where the datasheet's figure comes from
            self.sheet = VGroup(
                markup(f"datasheet: <b>{fmt_rate(s['gpu_pcie_bw'])}</b> = 2 directions × "
                       f"{fmt_rate(s['line_rate'])}", size=SMALL_SIZE + 4),
                markup("the line rate, before 128b/130b: one direction carries "
                       f"{fmt_rate(s['raw_bw'])}", size=SMALL_SIZE + 2, color=MUTED),
            ).arrange(DOWN, buff=0.12).move_to([0, Y_PAGE - 0.1, 0])
            self.play(FadeIn(self.sheet, shift=DOWN * 0.2), run_time=0.6)
            self.wait(1.8)

    def packet_overhead(self) -> None:
        """2. Packets: every TLP pays for its header, CRC and framing."""
        s = self.data["summary"]
        with self.beat(f"Each {fmt_bytes(s['max_payload'])} TLP carries {fmt_bytes(s['tlp_overhead'])} "
                       f"of overhead plus its share of DLLPs: {fmt_percent(s['efficiency'])} efficient, "
                       f"{fmt_rate(s['effective_bw'])} of payload at best"):
            # the header is what is left of the overhead after framing+seq and LCRC (4 B each)
            self.bar = tlp_bar(s["max_payload"], s["tlp_overhead"] - 8, 4, 4, s["dllp_per_tlp"], width=9.0,
                               size=TLP_LABEL)
            self.bar.move_to([0, 0.55, 0])
            self.eq2 = markup(f"η = P / (P + {fmt_count(s['tlp_overhead'])} + {s['dllp_per_tlp']:g}) = "
                              f"<b>{fmt_percent(s['efficiency'])}</b>  →  B<sub>eff</sub> = "
                              f"<b>{fmt_rate(s['effective_bw'])}</b>", size=SMALL_SIZE + 4)
            self.eq2.move_to([0, Y_EQ, 0])
            self.play(FadeOut(VGroup(self.ram_pin, self.gpu_pin, self.bus_pin, self.bus_lbl, self.lane_pin)),
                      FadeIn(self.bar), FadeOut(self.eq), FadeOut(self.sheet), FadeIn(self.eq2), run_time=0.8)
            self.wait(3.6)

    def two_lanes(self) -> None:
        """3. The two lanes."""
        s, an = self.data["summary"], self.data["animation"]
        with self.beat(f"Pageable memory cannot be DMA'd: the CPU copies it into a pinned bounce buffer "
                       f"at about {fmt_rate(s['memcpy_bandwidth'])}, chunk by chunk, then the GPU DMAs it"):
            self.play(FadeOut(self.bar), FadeOut(self.eq2), run_time=0.5)
            self.play(FadeIn(self.lane_parts()), run_time=0.9)
            self.note = markup(f"{fmt_bytes(an['transfer'])} in {fmt_count(an['chunks'])} chunks of "
                               f"{fmt_bytes(s['staging_chunk'])}; two staging buffers, so copy and DMA overlap",
                               size=SMALL_SIZE, color=MUTED).move_to([0, 3.0, 0])
            self.play(FadeIn(self.note), run_time=0.5)
            self.wait(2.0)

    def the_race(self) -> None:
        """4. The race: same bytes, same clock."""
        an = self.data["animation"]
        with self.beat(f"The same {fmt_bytes(an['transfer'])}: pinned takes "
                       f"{fmt_seconds(an['pinned_time'])} ({fmt_rate(an['pinned_bw'])}), pageable "
                       f"{fmt_seconds(an['pageable_time'])} ({fmt_rate(an['pageable_bw'])})"):
            # why pinned is not beat 2's ceiling: the data comes back as read completions, and a measured
            # Gen5 host's efficiency sets the rate; the call's t_0 trims a little more
            s = self.data["summary"]
            completions = markup(f"reads return as completions: a measured Gen5 H100 node reaches "
                                 f"{fmt_percent(s['gen5_efficiency'])} → {fmt_rate(s['effective_bw_calibrated'])}, "
                                 f"less {fmt_seconds(an['call_latency'])} per call",
                                 size=SMALL_SIZE, color=MUTED).move_to(self.note)
            self.play(FadeOut(self.note), FadeIn(completions), run_time=0.4)
            self.note = completions
            t_end = max(an["pageable_time"], an["pinned_time"])
            scale = RACE_SECONDS / t_end  # video seconds per model second
            clock = ValueTracker(0.0)  # model seconds since the call
            self.add_race_meters(clock)
            pk_page, pk_pin = self.add_race_packets(clock, scale)
            self.add_landed_columns(clock)

            self.done_pin = label(f"done: {fmt_seconds(an['pinned_time'])}", size=SMALL_SIZE, color=PIN)
            self.done_pin.next_to(self.gpu_pin, UP, buff=0.15)
            self.done_page = label(f"done: {fmt_seconds(an['pageable_time'])}", size=SMALL_SIZE, color=PAGE)
            self.done_page.next_to(self.gpu_page, UP, buff=0.15)
            first = min(an["pinned_time"], an["pageable_time"])
            self.play(clock.animate.set_value(first), run_time=max(first * scale, 0.3), rate_func=linear)
            self.add(self.done_pin if an["pinned_time"] <= an["pageable_time"] else self.done_page)
            self.play(clock.animate.set_value(t_end), run_time=max((t_end - first) * scale, 0.3),
                      rate_func=linear)
            self.add(self.done_page if an["pinned_time"] <= an["pageable_time"] else self.done_pin)
            for m in (*pk_page, *pk_pin):
                m.clear_updaters()
            self.meter_page[1].clear_updaters()
            self.meter_pin[1].clear_updaters()
            self.fill_page.level.clear_updaters()
            self.fill_pin.level.clear_updaters()
            self.fill_page.level.set_value(an["transfer"])
            self.fill_pin.level.set_value(an["transfer"])
            self.meter_page[1].set_value(an["pageable_bw"] / 1e9)
            self.meter_pin[1].set_value(an["pinned_bw"] / 1e9)
            self.remove(pk_page, pk_pin)
            self.wait(0.7)

    def add_race_meters(self, clock: ValueTracker) -> None:
        """Two bandwidth meters under the GPUs: bytes delivered over the time elapsed, as the clock runs."""
        an = self.data["animation"]
        t0 = an["call_latency"]
        self.meter_page = counter("pageable", 0, decimals=1, unit="GB/s", color=PAGE, size=SMALL_SIZE + 2)
        self.meter_page.next_to(self.gpu_page, DOWN, buff=0.3).align_to(self.gpu_page, RIGHT)
        self.meter_pin = counter("pinned", 0, decimals=1, unit="GB/s", color=PIN, size=SMALL_SIZE + 2)
        self.meter_pin.next_to(self.gpu_pin, DOWN, buff=0.3).align_to(self.gpu_pin, RIGHT)
        self.add(self.meter_page, self.meter_pin)

        def meter(sched, t_total, bw_final):
            def update(m):
                t = clock.get_value()
                if t >= t_total:
                    m.set_value(bw_final / 1e9)
                elif t > t0:
                    m.set_value(delivered(sched, t, t0) / t / 1e9)
            return update

        self.meter_page[1].add_updater(meter(an["pageable"], an["pageable_time"], an["pageable_bw"]))
        self.meter_pin[1].add_updater(meter(an["pinned"], an["pinned_time"], an["pinned_bw"]))

    def add_race_packets(self, clock: ValueTracker, scale: float) -> tuple[VGroup, VGroup]:
        """A packet per chunk, positioned by the clock: waits in RAM, copied (hop 1), waits in the
        bounce buffer, DMA'd (hop 2); the pinned lane has only the DMA."""
        an = self.data["animation"]
        pg, pn, t0 = an["pageable"], an["pinned"], an["call_latency"]
        # pageable packets ride just above the boxes so they never cover a name
        over = UP * 0.5
        p_ram, p_bounce = self.ram_page.get_center() + over, self.bounce.get_center() + over
        p_gpu = self.gpu_page.get_center() + over
        w_out, w_in = self.bounce.get_right() + RIGHT * 0.1, self.gpu_page.get_left() + LEFT * 0.1  # hop 2
        q_ram, q_gpu = self.ram_pin.get_right() + RIGHT * 0.1, self.gpu_pin.get_left() + LEFT * 0.1
        k = len(pg["sizes"])
        # packets cross a hop in at least TRANSIT video seconds and land when the model's DMA ends,
        # so a quick DMA shows as a stream of packets in flight rather than a flicker
        transit = TRANSIT / scale

        def place_page(i):
            def upd(m):
                u = clock.get_value() - t0
                cs, ce, ds, de = pg["copy_start"][i], pg["copy_end"][i], pg["dma_start"][i], pg["dma_end"][i]
                if u <= cs:
                    pos, vis = p_ram, 0.0
                elif u < ce:
                    pos, vis = p_ram + (p_bounce - p_ram) * (u - cs) / (ce - cs), 1.0
                elif u < max(ds, de - transit):
                    pos, vis = p_bounce, 1.0
                elif u < de:
                    a = max(ds, de - transit, ce)
                    pos, vis = w_out + (w_in - w_out) * (u - a) / (de - a), 1.0
                else:
                    pos, vis = p_gpu, 0.0
                m.move_to(pos + jitter(i)).set_fill(opacity=vis)
            return upd

        def place_pin(i):
            def upd(m):
                u = clock.get_value() - t0
                de = pn["dma_end"][i]
                a = min(pn["dma_start"][i], de - transit)
                if max(a, 0.0) < u < de:
                    m.move_to(q_ram + (q_gpu - q_ram) * (u - a) / (de - a) + jitter(i))
                    m.set_fill(opacity=1.0)
                else:
                    m.set_fill(opacity=0.0)
            return upd

        pk_page = VGroup(*[packet(PAGE, size=0.17) for _ in range(k)])
        pk_pin = VGroup(*[packet(PIN, size=0.17) for _ in range(len(pn["sizes"]))])
        for i, m in enumerate(pk_page):
            m.set_z_index(2).add_updater(place_page(i))
        for i, m in enumerate(pk_pin):
            m.set_z_index(2).add_updater(place_pin(i))
        self.add(pk_page, pk_pin)
        return pk_page, pk_pin

    def add_landed_columns(self, clock: ValueTracker) -> None:
        """How much has landed in each GPU's memory: a column filling beside the GPU."""
        an = self.data["animation"]
        pg, pn, t0 = an["pageable"], an["pinned"], an["call_latency"]
        self.fill_page = PortBuffer(an["transfer"], width=0.2, height=0.7, color=PAGE,
                                    over_color=PAGE)
        self.fill_page.next_to(self.gpu_page, RIGHT, buff=0.12)
        self.fill_pin = PortBuffer(an["transfer"], width=0.2, height=0.7, color=PIN,
                                   over_color=PIN)
        self.fill_pin.next_to(self.gpu_pin, RIGHT, buff=0.12)
        self.fill_page.level.add_updater(lambda v: v.set_value(delivered(pg, clock.get_value(), t0)))
        self.fill_pin.level.add_updater(lambda v: v.set_value(delivered(pn, clock.get_value(), t0)))
        self.add(self.fill_page.level, self.fill_pin.level, self.fill_page, self.fill_pin)

    def at_scale(self) -> None:
        """5. What it costs at the scenario's scale, and the node's other pipes."""
        s = self.data["summary"]
        # the caption keeps to the beat's length at reading pace; the box on screen says the rest
        # one GPU loading alone: scene 04 has the node's eight at once
        with self.beat(f"One GPU alone, at the measured {fmt_rate(s['effective_bw_calibrated'])}: its "
                       f"{fmt_bytes(s['shard_bytes'])} shard loads in {fmt_seconds(s['pinned_time_shard'])} "
                       f"pinned ({fmt_seconds(s['pinned_time_shard_ceiling'])} at best, "
                       f"{fmt_seconds(s['pinned_time_shard_alt'])} on the Dell), "
                       f"{fmt_seconds(s['pageable_time_shard'])} pageable"):
            # the shard comparison only: the bars below carry the two times
            self.lim = VGroup(
                markup(f"one GPU's {fmt_bytes(s['shard_bytes'])} shard, loading alone; "
                       f"pinned = already in pinned memory", size=SMALL_SIZE),
                markup(f"pinned: measured Gen5 node's {fmt_rate(s['effective_bw_calibrated'])}; "
                       f"{fmt_seconds(s['pinned_time_shard_ceiling'])} at the ceiling, "
                       f"{fmt_seconds(s['pinned_time_shard_alt'])} at the Dell's "
                       f"{fmt_rate(s['effective_bw_calibrated_alt'])}", size=SMALL_SIZE, color=MUTED),
            ).arrange(DOWN, aligned_edge=LEFT, buff=0.08)
            self.lim.move_to([0, 0.18, 0]).align_to(self.ram_page, LEFT)
            # the shard's two load times on one scale, under the pinned lane
            shard = value_bars([("pinned", s["pinned_time_shard"], fmt_seconds(s["pinned_time_shard"]), PIN),
                                ("pageable", s["pageable_time_shard"], fmt_seconds(s["pageable_time_shard"]), PAGE)],
                               top=s["pageable_time_shard"], width=3.5, size=SMALL_SIZE, height=0.22, buff=0.1)
            shard.next_to([0, SHARD_TOP_Y, 0], DOWN, buff=0).align_to(self.ram_page, LEFT)
            # the 64 MB race's labels go: beside the shard's bars they would read as its numbers
            race_labels = VGroup(self.meter_page, self.meter_pin, self.done_pin, self.done_page)
            self.play(FadeOut(self.note), FadeOut(race_labels), FadeIn(self.lim), run_time=0.6)
            self.play(*grow_value_bars(shard), run_time=3.0)
            self.wait(5.0)
        self.shard_bars = shard

    def cxl_memory(self) -> None:
        """6. CXL: memory on the same PHY."""
        s = self.data["summary"]
        lo_x, hi_x = f"{s['cxl_over_ddr_channel_low']:.2f}", f"{s['cxl_over_ddr_channel']:.2f}"
        with self.beat(f"CXL adds CPU memory on the same PHY: an x{s['cxl_lanes']} expander gives "
                       f"{fmt_rate(s['cxl_device_bw_low'])} measured to {fmt_rate(s['cxl_device_bw'])} 'up to', "
                       f"{lo_x}–{hi_x}× a DDR5 channel's peak; {fmt_seconds(s['cxl_load_latency'])} a load"):
            self.play(FadeOut(VGroup(*self.lane_parts(), self.lim, self.shard_bars, self.fill_page, self.fill_pin)),
                      FadeOut(self.heading), run_time=0.6)
            heading2 = title("CXL: more memory for the CPU, on the PCIe 5.0 PHY")
            self.play(FadeIn(heading2), run_time=0.4)
            sock = cpu("CPU socket", width=1.8, height=0.9).move_to([-2.6, 0.6, 0])
            dimms = VGroup(*[memory("DDR5", width=0.85, height=0.34)
                             for _ in range(int(s["ddr_channels"]))]).arrange(DOWN, buff=0.08)
            dimms.next_to(sock, LEFT, buff=1.0)
            ddr_links = VGroup(*[Line(d.get_right(), sock.get_left(), stroke_width=1.5, color=PAGE)
                                 for d in dimms])
            cxl_dev = chip(f"CXL expander x{s['cxl_lanes']}", palette.role("tertiary"), width=2.4,
                           height=0.7).move_to([3.3, 0.6, 0])
            cxl_link = link(sock.get_right(), cxl_dev.get_left(), color=WIRE, width=6)
            ddr_txt = markup(f"{fmt_count(s['ddr_channels'])} × {fmt_rate(s['ddr_channel_bw'])} = "
                             f"<b>{fmt_rate(s['socket_dram_bw'])}</b>", size=SMALL_SIZE + 2, color=PAGE)
            ddr_txt.next_to(dimms, DOWN, buff=0.2)
            cxl_txt = VGroup(
                markup(f"<b>{fmt_rate(s['cxl_device_bw_low'])}–{fmt_rate(s['cxl_device_bw'])}</b> at 2:1: "
                       f"{lo_x}–{hi_x}× one channel", size=SMALL_SIZE, color=INK),
                markup(f"(Intel measured – Micron 'up to'; x{s['cxl_lanes']} link "
                       f"{fmt_rate(s['cxl_link_raw_bw'])} each way)", size=SMALL_SIZE, color=MUTED),
                # the read-heavy low end: the same Intel run with reads alone
                markup(f"all reads: {fmt_rate(s['cxl_device_bw_reads'])}, "
                       f"{s['cxl_over_ddr_channel_reads']:.2f}× one channel (Intel measured)",
                       size=SMALL_SIZE, color=INK),
                markup(f"{fmt_seconds(s['cxl_load_latency'])} per load in total, measured", size=SMALL_SIZE, color=INK),
                markup(f"+{s['cxl_added_latency_low'] * 1e9:.0f}–{s['cxl_added_latency_high'] * 1e9:.0f} ns "
                       f"over local DRAM (Pond's estimate, {fmt_count(s['pool_sockets_low'])}–"
                       f"{fmt_count(s['pool_sockets_high'])}-socket pool)", size=SMALL_SIZE, color=INK),
            ).arrange(DOWN, aligned_edge=LEFT, buff=0.1).next_to(cxl_dev, DOWN, buff=0.25)
            # the block's right edge under the expander's, so its widest line stays inside the frame
            cxl_txt.align_to(cxl_dev, RIGHT)
            self.play(FadeIn(VGroup(sock, dimms, ddr_links)), run_time=0.7)
            self.play(FadeIn(ddr_txt), FadeIn(cxl_link), FadeIn(cxl_dev), FadeIn(cxl_txt), run_time=0.8)
            p = self.data["problems"]
            need = markup(f"matching one socket's DDR5 peak takes {fmt_count(s['cxl_expanders_to_match_socket'])}–"
                          f"{fmt_count(s['cxl_expanders_to_match_socket_high'])} expanders, "
                          f"{fmt_count(s['cxl_lanes_to_match_socket'])}–"
                          f"{fmt_count(s['cxl_lanes_to_match_socket_high'])} PCIe lanes "
                          f"of the socket's {fmt_count(p['cpu_pcie_lanes'])}", size=SMALL_SIZE + 2)
            # the socket's own cap on CXL devices (second-hand, Intel's launch slides): the match cannot be built
            cap = markup(f"but a 4th-gen Xeon socket attaches at most <b>{fmt_count(p['cpu_cxl_devices'])}</b> "
                         f"CXL devices: {fmt_rate(p['cap_bw_low'])}–{fmt_rate(p['cap_bw_high'])}, "
                         f"not a socket's worth", size=SMALL_SIZE + 2, color=PAGE)
            match = VGroup(need, cap).arrange(DOWN, buff=0.08).move_to([0, Y_EQ + 0.1, 0])
            self.play(FadeIn(need), run_time=0.6)
            self.wait(0.8)
            # the one moving element of the beat: the cap lands under the count it rules out
            self.play(FadeIn(cap, shift=UP * 0.2), Indicate(cxl_dev, color=PAGE, scale_factor=1.05), run_time=0.9)
            self.wait(1.8)
        self.cxl_parts = VGroup(heading2, sock, dimms, ddr_links, cxl_dev, cxl_link, ddr_txt, cxl_txt, match)

    def cxl_pooling(self) -> None:
        """7. Pooling: a multi-headed CXL device lends its DRAM to whichever socket needs it."""
        s = self.data["summary"]
        lo, hi = fmt_count(s["pool_sockets_low"]), fmt_count(s["pool_sockets_high"])
        saving = f"{s['pool_dram_saving'] * 100:.0f}%"
        with self.beat(f"Pooling: a multi-headed CXL device lends each slice of its DRAM to one socket at a time; "
                       f"Pond found pools of {lo}–{hi} sockets enough, and projects DRAM cost {saving} lower"):
            self.play(FadeOut(self.cxl_parts), run_time=0.6)
            heading3 = title("CXL pooling: one box of DRAM, several sockets")
            sockets = VGroup(*[cpu(f"socket {i + 1}", width=1.5, height=0.55) for i in range(POOL_SOCKETS_SHOWN)])
            sockets.arrange(DOWN, buff=0.35).move_to([-4.3, 0.05, 0])
            pool = chip("CXL memory pool", palette.role("tertiary"), width=3.0, height=2.9)
            pool[1].next_to(pool[0].get_top(), DOWN, buff=0.12)
            pool.move_to([2.6, 0.05, 0])
            blocks = VGroup(*[packet(PAGE, size=0.3) for _ in range(16)]).arrange_in_grid(4, 4, buff=0.12)
            blocks.move_to(pool[0].get_center() + DOWN * 0.2)
            heads = VGroup(*[link(sk.get_right(), pool[0].get_left() + UP * (0.9 - 0.6 * i), color=WIRE, width=4)
                             for i, sk in enumerate(sockets)])
            # above the pool, clear of socket 1 and of the wires
            proto = label("multi-headed: one CXL.mem link per socket", size=SMALL_SIZE, color=MUTED)
            proto.next_to(pool, UP, buff=0.12)
            # the squares are slices of the pool's memory; four sockets stand for Pond's 8-16
            legend = VGroup(packet(PAGE, size=0.2), label("= one slice of memory", size=SMALL_SIZE, color=MUTED)
                            ).arrange(RIGHT, buff=0.1).next_to(pool, DOWN, buff=0.12)
            shown = label(f"{POOL_SOCKETS_SHOWN} of {lo}–{hi} sockets shown", size=SMALL_SIZE, color=MUTED)
            shown.next_to(sockets, UP, buff=0.12)
            self.play(FadeIn(heading3), FadeIn(sockets), FadeIn(pool), FadeIn(blocks), run_time=0.8)
            self.play(FadeIn(heads), FadeIn(proto), FadeIn(legend), FadeIn(shown), run_time=0.6)
            # capacity follows demand: blocks move from the pool to the sockets that ask for them
            want = [3, 1, 4, 2]
            held = [[] for _ in sockets]
            free = list(blocks)
            for i, n in enumerate(want):
                moves = []
                for _ in range(n):
                    b = free.pop()
                    # just below the socket's own wire, so a lent block does not sit on it
                    slot = sockets[i].get_right() + RIGHT * (0.25 + 0.34 * len(held[i])) + DOWN * 0.3
                    held[i].append(b)
                    moves.append(b.animate.scale(0.8).move_to(slot))
                self.play(*moves, run_time=0.7)
            # socket 3's job ends: its blocks go back, and socket 2 takes two of them
            back = held[2][2:]
            self.play(*[b.animate.move_to(sockets[1].get_right() + RIGHT * (0.25 + 0.34 * (1 + k)) + DOWN * 0.3)
                        for k, b in enumerate(back)], run_time=1.2)
            note = VGroup(
                markup(f"Pond: <b>{lo}–{hi}</b> sockets per pool get most of the benefit; "
                       f"projected DRAM cost <b>−{saving}</b>", size=SMALL_SIZE + 2),
                # the scenario's host: switched pools need CXL 2.0; a switchless one is left open (each head
                # looks to its host like a plain expander)
                markup(f"switches need CXL 2.0 (the scenario's Xeon: CXL {s['host_cxl_version']:.1f}); one host per "
                       f"slice; sharing needs CXL 3.x", size=SMALL_SIZE, color=MUTED),
            ).arrange(DOWN, buff=0.08).move_to([0, Y_EQ - 0.05, 0])
            self.play(FadeIn(note), run_time=0.6)
            self.wait(3.0)
