"""Scene 02 · PCIe Gen5 host copies & CXL memory expansion.

Two lanes side by side race the same transfer to a GPU: pageable host memory,
copied by the CPU into a pinned bounce buffer and DMA'd from there (two hops),
and pinned host memory DMA'd straight across PCIe 5.0 x16. Every chunk's copy
and DMA times come from the model's schedule (models.pcie_cxl.staging_schedule),
played at one common time scale, so the race is as lopsided as the model says;
two bandwidth meters read the bytes delivered over the time elapsed. Then a CXL
memory expander on the CPU's side: capacity and bandwidth, at a latency cost.
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
    label,
    markup,
    title,
)

PAGE = palette.role("memory")  # pageable lane
PIN = palette.role("ok")  # pinned lane
WIRE = palette.role("data")

X_RAM, X_CPU, X_BOUNCE, X_GPU = -5.3, -3.3, -1.3, 4.2
Y_PAGE, Y_PIN = 1.35, -1.45
Y_EQ = -2.3  # equations sit just above the caption band
TLP_LABEL = SMALL_SIZE  # the TLP bar's field names, scaled up from the helper's 14
RACE_SECONDS = 10.0  # the slower lane's transfer, on screen
TRANSIT = 0.6  # video seconds a packet takes to cross a hop when its DMA is quicker than that



class BounceBufferVersusDirectDMA(ExhibitScene):
    scene_id = "pcie-cxl"

    def construct(self) -> None:
        s, an = self.data["summary"], self.data["animation"]

        # === 1. The pipe: 32 GT/s x 16 lanes x 128/130 ===
        with self.beat(f"PCIe 5.0 x{s['lanes']}: {s['transfer_rate_gt']:g} GT/s × {s['lanes']} lanes × "
                       f"128/130 ÷ 8 = {fmt_rate(s['raw_bw'])} per direction "
                       f"(the {fmt_rate(s['gpu_pcie_bw'])} on the datasheet counts both directions)"):
            heading = title("Host to GPU: pageable vs pinned over PCIe 5.0")
            self.play(FadeIn(heading), run_time=0.6)

            ram_page = memory("pageable RAM", width=1.9, height=0.6).move_to([X_RAM, Y_PAGE, 0])
            cpu_box = cpu("CPU memcpy", width=1.8, height=0.6).move_to([X_CPU, Y_PAGE, 0])
            bounce = chip("bounce buffer", PAGE, width=1.6, height=0.6).move_to([X_BOUNCE, Y_PAGE, 0])
            gpu_page = gpu("GPU", width=1.1, height=0.7).move_to([X_GPU, Y_PAGE, 0])
            ram_pin = memory("pinned RAM", width=1.9, height=0.6).move_to([X_RAM, Y_PIN, 0])
            gpu_pin = gpu("GPU", width=1.1, height=0.7).move_to([X_GPU, Y_PIN, 0])

            hop1 = link(ram_page.get_right(), bounce.get_left(), color=PAGE, width=3)
            cpu_box.set_z_index(1)
            bus_page = link(bounce.get_right(), gpu_page.get_left(), color=WIRE, width=8)
            bus_pin = link(ram_pin.get_right(), gpu_pin.get_left(), color=WIRE, width=8)
            bus_lbl = label(f"PCIe 5.0 x{s['lanes']}", size=SMALL_SIZE, color=WIRE)
            bus_lbl.next_to(bus_pin, UP, buff=0.12).shift(RIGHT * 0.6)
            lane_page = label("pageable: two hops", size=SMALL_SIZE + 2, color=PAGE)
            lane_page.next_to(ram_page, UP, buff=0.6).align_to(ram_page, LEFT)
            lane_pin = label("pinned: one DMA", size=SMALL_SIZE + 2, color=PIN)
            lane_pin.next_to(ram_pin, UP, buff=0.25).align_to(ram_pin, LEFT)

            self.play(FadeIn(VGroup(ram_pin, gpu_pin, bus_pin, bus_lbl, lane_pin)), run_time=0.8)
            eq = markup(f"B<sub>raw</sub> = {s['transfer_rate_gt']:g} GT/s × {s['lanes']} × 128/130 ÷ 8 "
                        f"= <b>{fmt_rate(s['raw_bw'])}</b> per direction", size=SMALL_SIZE + 4)
            eq.move_to([0, Y_EQ, 0])
            self.play(FadeIn(eq), run_time=0.6)
            self.wait(2.4)

        # === 2. Packets: every TLP pays for its header, CRC and framing ===
        with self.beat(f"Each {fmt_bytes(s['max_payload'])} TLP carries {fmt_bytes(s['tlp_overhead'])} "
                       f"of overhead plus its share of DLLPs: {fmt_percent(s['efficiency'])} efficient, "
                       f"{fmt_rate(s['effective_bw'])} of payload"):
            # the header is what is left of the overhead after framing+seq and LCRC (4 B each)
            bar = tlp_bar(s["max_payload"], s["tlp_overhead"] - 8, 4, 4, s["dllp_per_tlp"], width=9.0,
                          size=TLP_LABEL)
            bar.move_to([0, 0.55, 0])
            eq2 = markup(f"η = P / (P + {fmt_count(s['tlp_overhead'])} + {s['dllp_per_tlp']:g}) = "
                         f"<b>{fmt_percent(s['efficiency'])}</b>  →  B<sub>eff</sub> = "
                         f"<b>{fmt_rate(s['effective_bw'])}</b>", size=SMALL_SIZE + 4)
            eq2.move_to([0, Y_EQ, 0])
            self.play(FadeOut(VGroup(ram_pin, gpu_pin, bus_pin, bus_lbl, lane_pin)), FadeIn(bar),
                      FadeOut(eq), FadeIn(eq2), run_time=0.8)
            self.wait(3.6)

        # === 3. The two lanes ===
        with self.beat(f"Pageable memory cannot be DMA'd: the CPU copies it into a pinned bounce buffer "
                       f"at about {fmt_rate(s['memcpy_bandwidth'])}, chunk by chunk, then the GPU DMAs it"):
            self.play(FadeOut(bar), FadeOut(eq2), run_time=0.5)
            self.play(FadeIn(VGroup(ram_page, hop1, cpu_box, bounce, bus_page, gpu_page, lane_page,
                                    ram_pin, gpu_pin, bus_pin, bus_lbl, lane_pin)), run_time=0.9)
            note = markup(f"{fmt_bytes(an['transfer'])} in {fmt_count(an['chunks'])} chunks of "
                          f"{fmt_bytes(s['staging_chunk'])}; two staging buffers, so copy and DMA overlap",
                          size=SMALL_SIZE, color=MUTED).move_to([0, 3.0, 0])
            self.play(FadeIn(note), run_time=0.5)
            self.wait(2.0)

        # === 4. The race: same bytes, same clock ===
        with self.beat(f"The same {fmt_bytes(an['transfer'])}: pinned takes "
                       f"{fmt_seconds(an['pinned_time'])} ({fmt_rate(an['pinned_bw'])}), pageable "
                       f"{fmt_seconds(an['pageable_time'])} ({fmt_rate(an['pageable_bw'])})"):
            pg, pn = an["pageable"], an["pinned"]
            t0 = an["call_latency"]
            t_end = max(an["pageable_time"], an["pinned_time"])
            scale = RACE_SECONDS / t_end  # video seconds per model second
            clock = ValueTracker(0.0)  # model seconds since the call

            meter_page = counter("pageable", 0, decimals=1, unit="GB/s", color=PAGE, size=SMALL_SIZE + 2)
            meter_page.next_to(gpu_page, DOWN, buff=0.3).align_to(gpu_page, RIGHT)
            meter_pin = counter("pinned", 0, decimals=1, unit="GB/s", color=PIN, size=SMALL_SIZE + 2)
            meter_pin.next_to(gpu_pin, DOWN, buff=0.3).align_to(gpu_pin, RIGHT)
            self.add(meter_page, meter_pin)

            def delivered(sched, t):
                """Bytes landed in GPU memory by model time t (chunks land linearly during their DMA)."""
                u = t - t0
                out = 0.0
                for size, a, b in zip(sched["sizes"], sched["dma_start"], sched["dma_end"]):
                    if u >= b:
                        out += size
                    elif u > a:
                        out += size * (u - a) / (b - a)
                return out

            def meter(sched, t_total, bw_final):
                def update(m):
                    t = clock.get_value()
                    if t >= t_total:
                        m.set_value(bw_final / 1e9)
                    elif t > t0:
                        m.set_value(delivered(sched, t) / t / 1e9)
                return update

            meter_page[1].add_updater(meter(pg, an["pageable_time"], an["pageable_bw"]))
            meter_pin[1].add_updater(meter(pn, an["pinned_time"], an["pinned_bw"]))

            # a packet per chunk, positioned by the clock: waits in RAM, copied (hop 1), waits in the
            # bounce buffer, DMA'd (hop 2); the pinned lane has only the DMA
            # pageable packets ride just above the boxes so they never cover a name
            over = UP * 0.5
            p_ram, p_bounce = ram_page.get_center() + over, bounce.get_center() + over
            p_gpu = gpu_page.get_center() + over
            w_out, w_in = bounce.get_right() + RIGHT * 0.1, gpu_page.get_left() + LEFT * 0.1  # hop 2: the wire
            q_ram, q_gpu = ram_pin.get_right() + RIGHT * 0.1, gpu_pin.get_left() + LEFT * 0.1
            k = len(pg["sizes"])
            # packets cross a hop in at least TRANSIT video seconds and land when the model's DMA ends,
            # so a quick DMA shows as a stream of packets in flight rather than a flicker
            transit = TRANSIT / scale

            def jitter(i):
                return np.array([0.0, 0.09 * ((i % 3) - 1), 0.0])

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

            # how much has landed in each GPU's memory: a column filling beside the GPU
            fill_page = PortBuffer(an["transfer"], width=0.2, height=0.7, color=PAGE,
                                   over_color=PAGE)
            fill_page.next_to(gpu_page, RIGHT, buff=0.12)
            fill_pin = PortBuffer(an["transfer"], width=0.2, height=0.7, color=PIN,
                                  over_color=PIN)
            fill_pin.next_to(gpu_pin, RIGHT, buff=0.12)
            fill_page.level.add_updater(lambda v: v.set_value(delivered(pg, clock.get_value())))
            fill_pin.level.add_updater(lambda v: v.set_value(delivered(pn, clock.get_value())))
            self.add(fill_page.level, fill_pin.level, fill_page, fill_pin)

            done_pin = label(f"done: {fmt_seconds(an['pinned_time'])}", size=SMALL_SIZE, color=PIN)
            done_pin.next_to(gpu_pin, UP, buff=0.15)
            done_page = label(f"done: {fmt_seconds(an['pageable_time'])}", size=SMALL_SIZE, color=PAGE)
            done_page.next_to(gpu_page, UP, buff=0.15)
            first = min(an["pinned_time"], an["pageable_time"])
            self.play(clock.animate.set_value(first), run_time=max(first * scale, 0.3), rate_func=linear)
            self.add(done_pin if an["pinned_time"] <= an["pageable_time"] else done_page)
            self.play(clock.animate.set_value(t_end), run_time=max((t_end - first) * scale, 0.3),
                      rate_func=linear)
            self.add(done_page if an["pinned_time"] <= an["pageable_time"] else done_pin)
            for m in (*pk_page, *pk_pin):
                m.clear_updaters()
            meter_page[1].clear_updaters()
            meter_pin[1].clear_updaters()
            fill_page.level.clear_updaters()
            fill_pin.level.clear_updaters()
            fill_page.level.set_value(an["transfer"])
            fill_pin.level.set_value(an["transfer"])
            meter_page[1].set_value(an["pageable_bw"] / 1e9)
            meter_pin[1].set_value(an["pinned_bw"] / 1e9)
            self.remove(pk_page, pk_pin)
            self.wait(1.2)

        # === 5. What it costs at the scenario's scale, and the node's other pipes ===
        with self.beat(f"Loading one GPU's {fmt_bytes(s['shard_bytes'])} weight shard: "
                       f"{fmt_seconds(s['pinned_time_shard'])} pinned, "
                       f"{fmt_seconds(s['pageable_time_shard'])} pageable; per direction the link sits "
                       f"between the GPU's NIC port ({fmt_rate(s['nic_port_rate'])}) and NVLink "
                       f"({fmt_rate(s['nvlink_per_direction'])})"):
            lim = VGroup(
                markup(f"pinned → B<sub>eff</sub> = {fmt_rate(s['effective_bw'])};  "
                       f"pageable → min(memcpy, B<sub>eff</sub>) = {fmt_rate(s['pageable_limit'])}",
                       size=SMALL_SIZE),
                markup(f"{fmt_bytes(s['shard_bytes'])} shard: <b>{fmt_seconds(s['pinned_time_shard'])}</b> "
                       f"pinned vs <b>{fmt_seconds(s['pageable_time_shard'])}</b> pageable", size=SMALL_SIZE),
                markup(f"per direction: NIC port {fmt_rate(s['nic_port_rate'])} &lt; PCIe x{s['lanes']} "
                       f"{fmt_rate(s['raw_bw'])} &lt; NVLink {fmt_rate(s['nvlink_per_direction'])}",
                       size=SMALL_SIZE, color=MUTED),
            ).arrange(DOWN, aligned_edge=LEFT, buff=0.1)
            lim.move_to([0, 0.15, 0]).align_to(ram_page, LEFT)
            self.play(FadeOut(note), FadeIn(lim), run_time=0.6)
            self.wait(3.5)

        # === 6. CXL: memory on the same PHY ===
        with self.beat(f"CXL gives the CPU more memory on the same PHY: one x{s['cxl_lanes']} expander adds "
                       f"{fmt_rate(s['cxl_device_bw'])}, close to one {fmt_rate(s['ddr_channel_bw'])} DDR5 "
                       f"channel; a real one measures {fmt_seconds(s['cxl_load_latency'])} per load"):
            self.play(FadeOut(VGroup(ram_page, hop1, cpu_box, bounce, bus_page, gpu_page, lane_page,
                                     ram_pin, gpu_pin, bus_pin, bus_lbl, lane_pin, meter_page,
                                     meter_pin, done_pin, done_page, lim, fill_page, fill_pin)),
                      FadeOut(heading), run_time=0.6)
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
                markup(f"<b>{fmt_rate(s['cxl_device_bw'])}</b> measured (x{s['cxl_lanes']} link: "
                       f"{fmt_rate(s['cxl_link_raw_bw'])} each way)", size=SMALL_SIZE, color=INK),
                markup(f"{fmt_seconds(s['cxl_load_latency'])} per load, measured "
                       f"(emulated: +{s['cxl_added_latency_low'] * 1e9:.0f}–"
                       f"{s['cxl_added_latency_high'] * 1e9:.0f} ns)", size=SMALL_SIZE, color=INK),
            ).arrange(DOWN, aligned_edge=LEFT, buff=0.1).next_to(cxl_dev, DOWN, buff=0.25)
            self.play(FadeIn(VGroup(sock, dimms, ddr_links)), run_time=0.7)
            self.play(FadeIn(ddr_txt), FadeIn(cxl_link), FadeIn(cxl_dev), FadeIn(cxl_txt), run_time=0.8)
            match = markup(f"matching one socket's DDR5 takes {fmt_count(s['cxl_expanders_to_match_socket'])}"
                           f" expanders, {fmt_count(s['cxl_lanes_to_match_socket'])} PCIe lanes",
                           size=SMALL_SIZE + 2).move_to([0, Y_EQ, 0])
            self.play(FadeIn(match), run_time=0.6)
            self.wait(3.5)
