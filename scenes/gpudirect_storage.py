"""gpudirect-storage · GPUDirect Storage versus POSIX bounce buffers.

Two copies of one slice of hgx-server's node side by side: a data drive and a
GPU behind one PCIe switch, the CPU and its DRAM above. On the left a block
takes the bounce path (drive → page cache, CPU copy into the user buffer,
cudaMemcpy down to HBM) and a DRAM counter climbs to the model's byte count;
on the right it takes one DMA through the switch. Last, the whole node: both
sources' paths into HBM are drawn, each with the rate it delivers, and blocks
stream from the drive and the NVMe-oF NIC in proportion to the model's rates,
and each side's CPU meter (full scale: the node's cores) fills to the cores the
model keeps busy at that rate, the bounce side's split into copy, reclaim and spin (the CPU-copy beat fills it to
the copy's share alone first). Every number comes from self.data
(models.gpudirect_storage.gpudirect_storage).
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
    LaggedStart,
    Line,
    MoveAlongPath,
    Rectangle,
    Square,
    Succession,
    VGroup,
    VMobject,
    Write,
    linear,
)

from design import palette
from models.units import fmt_rate, sig
from scenes import server_parts as parts
from scenes.style import BODY_SIZE, INK, MUTED, PANEL, SMALL_SIZE, ExhibitScene, label, title

DATA = palette.role("data")
BAD = palette.role("bad")
OK = palette.role("ok")
CPU_C = palette.ROLE["cpu"]
MEM_C = palette.ROLE["memory"]
DRIVE_C = palette.ROLE["storage"]  # the drive's own colour: its bytes in the closing beat
NIC_C = palette.ROLE["nic"]
METER_H = 1.9
STREAM_BLOCKS = 10  # blocks the faster path delivers in the closing stream


def _route(points) -> VMobject:
    path = VMobject()
    path.set_points_as_corners([list(p) for p in points])
    return path


class BounceVersusDirect(ExhibitScene):
    scene_id = "gpudirect-storage"

    def construct(self) -> None:
        self.a = self.data["animation"]
        self.k_buf = self.a["dram_bytes"]["buffered"]
        self.scale = float(self.a["cpu_cores"])  # meter full scale: the node's cores, so 57 of 112 looks half full
        for beat in (self.two_ways, self.bounce_up_to_the_page_cache, self.the_cpu_copy, self.cudamemcpy_down,
                     self.gpudirect_storage, self.drives_and_nics_at_once):
            beat()

    def two_ways(self) -> None:
        with self.beat("Two ways to read a file into GPU memory: through host memory, or straight into HBM."):
            head = title("Why let the NIC or NVMe write straight into HBM?")  # the page's question
            left = self._panel(-3.55, "POSIX read() + cudaMemcpy", self.scale)
            right = self._panel(3.55, "GPUDirect Storage", self.scale)
            self.play(Write(head), run_time=1.0)
            self.play(FadeIn(left["all"]), FadeIn(right["all"]), run_time=1.2)
            self.wait(2.0)
        self.L, self.R = left, right

    def bounce_up_to_the_page_cache(self) -> None:
        L = self.L
        with self.beat("Bounce path: the drive DMAs the block up through the switch and the CPU into the "
                       "page cache."):
            self._send(_route(self._up(L, -0.12) + [L["cpu"].get_center() + 0.12 * UP,
                                                     L["dram"].get_left() + 0.12 * UP, L["cache"].get_center()]),
                       L, 1)

    def the_cpu_copy(self) -> None:
        L = self.L
        with self.beat("The CPU copies it from the page cache into a pinned user buffer: one read, one write."):
            cpu = L["cpu"].get_center()
            copy = _route([L["cache"].get_center(), L["dram"].get_left() + 0.12 * UP, cpu + 0.12 * UP,
                           cpu + 0.12 * DOWN, L["dram"].get_left() + 0.12 * DOWN, L["user"].get_center()])
            self._send(copy, L, self.k_buf - 1)
            # the copy is the first step that costs the CPU: its meter fills to the copy's share at the
            # node's full rate, the rest (reclaim, spin, calls) joins it in the closing beat
            self.play(*self._meter(L, self.a["copy_cores"], 2, "copy alone"), run_time=0.8)
        self.cpu_centre = cpu

    def cudamemcpy_down(self) -> None:
        L, k_buf, cpu = self.L, self.k_buf, self.cpu_centre
        with self.beat(f"cudaMemcpy reads it once more and DMAs it down to HBM: {k_buf} bytes of DRAM "
                       "traffic per byte delivered."):
            x_up = L["cpu"].get_x() + 0.12
            sw_y = L["sw"][0].get_y()
            down = _route([L["user"].get_center(), L["dram"].get_left() + 0.12 * DOWN, cpu + 0.12 * DOWN,
                           [x_up, cpu[1], 0], [x_up, sw_y, 0], [L["gpu"].get_x(), sw_y, 0], L["gpu"].get_top()])
            self._send(down, L, k_buf)

    def gpudirect_storage(self) -> None:
        R = self.R
        with self.beat("GPUDirect Storage: the drive DMAs through the PCIe switch into HBM, the NVMe-oF NIC "
                       "through the CPU's root complex; host memory never sees either."):
            direct = self._direct_routes(R)
            self._send(direct["nvme"], R, 0)
            # the NIC's leg: peer to peer through the root complex, past the CPU's cores and its DRAM
            self._send(direct["nic"], R, 0)
            untouched = label("untouched", size=SMALL_SIZE, color=MUTED).next_to(R["dram"], DOWN, buff=0.12)
            self.play(FadeIn(untouched), run_time=0.5)
            self.wait(1.0)

    def drives_and_nics_at_once(self) -> None:
        a, L, R = self.a, self.L, self.R
        # two lines of caption: the rates and the cores; what fills first is under each panel
        with self.beat(f"The whole node, drives and NVMe-oF NICs at once: the bounce path "
                       f"{fmt_rate(a['buffered_total'])} on {sig(a['buffered_cores'], 3)} of {a['cpu_cores']} "
                       f"cores, the direct path {fmt_rate(a['direct_total'])} on {sig(a['direct_cores'], 2)}."):
            routes = {"buffered": (L, self._bounce_routes(L)), "direct": (R, self._direct_routes(R))}
            # both sources' paths into HBM drawn first, each in its source's colour, with the rate it
            # delivers on that path (the model's split of the node's total between drives and NICs)
            traces, rates = [], []
            for pth, (P, r) in routes.items():
                for src, colour in (("drives", DRIVE_C), ("nics", NIC_C)):
                    key = "nvme" if src == "drives" else "nic"
                    traces.append(r[key].copy().set_stroke(colour, width=3).set_z_index(-0.5))
                    rates.append(self._source_rate(P, key, a[f"{pth}_{src}"], colour, a[src]))
            self.play(*[Create(t) for t in traces], *[FadeIn(t) for t in rates], run_time=1.2)
            self.play(*self._result(L, a["buffered_total"], a["buffered_bottleneck"], BAD),
                      *self._result(R, a["direct_total"], a["direct_bottleneck"], OK),
                      *self._split_meter(L), *self._meter(R, a["direct_cores"], 2), run_time=1.2)
            # blocks into HBM from each source in proportion to its rate, the same seconds on both sides
            anims = []
            for pth, (_panel, r) in routes.items():
                for src, key, colour in (("drives", "nvme", DRIVE_C), ("nics", "nic", NIC_C)):
                    n = max(1, round(STREAM_BLOCKS * a[f"{pth}_{src}"] / a["direct_total"]))
                    anims.append(self._stream(r[key], n, colour))
            self.play(*anims, run_time=4.0, rate_func=linear)
            self.wait(1.0)

    def _source_rate(self, panel: dict, key: str, rate: float, colour: str, count: int):
        """The rate one source delivers into HBM, left of the drive or under the NIC's NVMe-oF tag, with how
        many drives or NICs the one box stands for (the rate is the node's, not one box's)."""
        what = f"{count} drives" if key == "nvme" else f"{count} NICs"
        text = VGroup(label(fmt_rate(rate), size=SMALL_SIZE - 2, color=colour),
                      label(what, size=SMALL_SIZE - 2, color=colour)).arrange(DOWN, buff=0.04)
        if key == "nvme":
            return text.next_to(panel["nvme"], LEFT, buff=0.12)
        return text.next_to(panel["nic_t"], DOWN, buff=0.06)

    def _split_meter(self, panel: dict) -> list:
        """The bounce side's meter stacked by what keeps the cores busy at the node's full rate: the copy (beat
        3's), the page cache's reclaim, the spin in cudaMemcpy and the calls, each the model's number."""
        a = self.a
        pieces = [("copy", a["copy_cores"], CPU_C), ("reclaim", a["page_cores"], BAD),
                  ("spin and calls", a["spin_cores"] + a["call_cores"], MUTED)]
        bars, words = VGroup(), VGroup()
        bottom = panel["meter"].get_bottom()
        for name, cores, colour in pieces:
            h = max(0.001, METER_H * cores / self.scale)
            bar = Rectangle(width=0.32, height=h, stroke_width=0, fill_color=colour, fill_opacity=0.9)
            bars.add(bar.move_to(bottom, aligned_edge=DOWN))
            bottom = bar.get_top()
            words.add(label(f"{name} {sig(cores, 3)}", size=SMALL_SIZE, color=colour))
        words.add(label(f"= {sig(a['buffered_cores'], 3)} of {self.scale:.0f} cores", size=SMALL_SIZE, color=CPU_C))
        words.arrange(RIGHT, buff=0.18).move_to(panel["cores_c"].get_center())
        if words.width > 6.4:
            words.scale_to_fit_width(6.4)
        return [FadeOut(panel["fill"]), FadeIn(bars), FadeOut(panel["cores_c"]), FadeIn(words)]

    def _bounce_routes(self, P: dict) -> dict:
        """Drive -> page cache -> user buffer -> HBM, and the same from the NIC through the root complex."""
        cpu, sw_y = P["cpu"].get_center(), P["sw"][0].get_y()
        x_up = P["cpu"].get_x() + 0.12
        through = [P["dram"].get_left() + 0.12 * UP, P["cache"].get_center(), P["user"].get_center(),
                   P["dram"].get_left() + 0.12 * DOWN, cpu + 0.12 * DOWN, [x_up, cpu[1], 0], [x_up, sw_y, 0],
                   [P["gpu"].get_x(), sw_y, 0], P["gpu"].get_top()]
        return {"nvme": _route(self._up(P, -0.12) + [cpu + 0.12 * UP] + through),
                "nic": _route([P["nic"].get_right(), cpu + 0.12 * UP] + through)}

    def _direct_routes(self, P: dict) -> dict:
        """Drive -> switch -> HBM, and NIC -> root complex -> switch -> HBM, peer to peer."""
        cpu, sw_y = P["cpu"].get_center(), P["sw"][0].get_y()
        x_up = P["cpu"].get_x() + 0.12
        return {"nvme": _route([P["nvme"].get_top(), [P["nvme"].get_x(), sw_y, 0], [P["gpu"].get_x(), sw_y, 0],
                                P["gpu"].get_top()]),
                "nic": _route([P["nic"].get_right(), cpu, [x_up, cpu[1], 0], [x_up, sw_y, 0],
                               [P["gpu"].get_x(), sw_y, 0], P["gpu"].get_top()])}

    def _meter(self, panel: dict, cores: float, digits: int, what: str = "cores busy") -> list:
        """The CPU meter fills to `cores` of the node's cores, at the node's full rate, with its number under
        the panel, to the page's digits."""
        h = max(0.001, METER_H * min(cores / self.scale, 1.0))
        bar = Rectangle(width=0.32, height=h, stroke_width=0, fill_color=CPU_C, fill_opacity=0.9)
        bar.move_to(panel["meter"].get_bottom(), aligned_edge=DOWN)
        text = label(f"{what}: {sig(cores, digits)} of {self.scale:.0f} cores", size=SMALL_SIZE, color=CPU_C).move_to(
            panel["cores_c"].get_center())
        return [panel["fill"].animate.become(bar), panel["cores_c"].animate.become(text)]

    def _stream(self, route: VMobject, n: int, colour: str = DATA) -> LaggedStart:
        """n blocks following `route` one after another, gone as each arrives."""
        blocks = [Square(0.16, stroke_width=0, fill_color=colour, fill_opacity=1).move_to(route.get_start())
                  .set_z_index(-1) for _ in range(n)]
        return LaggedStart(*[Succession(MoveAlongPath(b, route, run_time=1.0), FadeOut(b, run_time=0.01))
                             for b in blocks], lag_ratio=1.0 / n)

    # --- pieces -------------------------------------------------------------------------
    def _panel(self, cx: float, name: str, scale: float) -> dict:
        """One slice of the node: drive and GPU behind a PCIe switch, the CPU and its DRAM above."""
        head = label(name, size=BODY_SIZE, color=INK).move_to([cx, 2.55, 0])
        cpu = parts.cpu("CPU", width=1.1, height=0.7).move_to([cx - 0.7, 1.35, 0])
        nic = parts.nic("NIC", width=0.7, height=0.45).move_to([cx - 1.95, 1.35, 0])
        nic_t = label("NVMe-oF", size=SMALL_SIZE - 2, color=MUTED).next_to(nic, DOWN, buff=0.08)
        dram = Rectangle(width=1.9, height=1.1, stroke_color=MEM_C, stroke_width=3, fill_color=PANEL,
                         fill_opacity=1).move_to([cx + 1.55, 1.35, 0])
        cache = label("page cache", size=SMALL_SIZE - 2).move_to(dram.get_center() + 0.22 * UP)
        user = label("user buffer", size=SMALL_SIZE - 2).move_to(dram.get_center() + 0.22 * DOWN)
        dram_name = label("DRAM", size=SMALL_SIZE - 2, color=MEM_C).next_to(dram, UP, buff=0.08)
        sw = parts.switch("PCIe switch", ports=6, width=2.2, height=0.62).move_to([cx + 0.1, -0.05, 0])
        nvme = parts.nvme("NVMe", width=1.0, height=0.5).move_to([cx - 0.9, -1.45, 0])
        gpu = parts.gpu("GPU HBM", width=1.3, height=0.5).move_to([cx + 1.1, -1.45, 0])
        links = VGroup(
            Line(nvme.get_top(), [nvme.get_x(), sw.get_bottom()[1], 0], color=MUTED, stroke_width=2),
            Line(gpu.get_top(), [gpu.get_x(), sw.get_bottom()[1], 0], color=MUTED, stroke_width=2),
            Line([cpu.get_x(), sw.get_top()[1], 0], cpu.get_bottom(), color=MUTED, stroke_width=2),
            Line(cpu.get_right(), dram.get_left(), color=MUTED, stroke_width=2),
            Line(nic.get_right(), cpu.get_left(), color=MUTED, stroke_width=2),
        )
        # the CPU meter: cores kept busy, out of `scale`
        frame = Rectangle(width=0.32, height=METER_H, stroke_color=CPU_C, stroke_width=2)
        frame.move_to([cx - 2.75, 0.55, 0])
        fill = Rectangle(width=0.32, height=0.001, stroke_width=0, fill_color=CPU_C, fill_opacity=0.9)
        fill.move_to(frame.get_bottom(), aligned_edge=DOWN)
        top_t = label(f"{scale:g} cores", size=SMALL_SIZE - 2, color=MUTED).next_to(frame, UP, buff=0.16)
        top_t.set_x(frame.get_x())
        meter_t = label("CPU", size=SMALL_SIZE - 2, color=CPU_C).next_to(frame, DOWN, buff=0.08)
        dram_c = self._count_text("DRAM traffic per byte: 0", cx)
        # hidden until the CPU copy (beat 3), the first step that keeps a core busy
        cores_c = label("cores busy", size=SMALL_SIZE, color=MUTED).move_to([cx, -2.45, 0]).set_opacity(0)
        group = VGroup(head, links, cpu, nic, nic_t, dram, cache, user, dram_name, sw, nvme, gpu, frame, fill,
                       top_t, meter_t, dram_c, cores_c)
        return {"all": group, "cpu": cpu, "nic": nic, "dram": dram, "cache": cache, "user": user, "sw": sw,
                "nvme": nvme, "gpu": gpu, "meter": frame, "fill": fill, "dram_c": dram_c, "cores_c": cores_c, "cx": cx,
                "head": head, "nic_t": nic_t}

    @staticmethod
    def _up(panel: dict, dx: float) -> list:
        """Drive -> switch -> CPU, along the links (inside a part the trace runs under its body)."""
        sw_y = panel["sw"][0].get_y()
        x = panel["cpu"].get_x() + dx
        return [panel["nvme"].get_top(), [panel["nvme"].get_x(), sw_y, 0], [x, sw_y, 0],
                [x, panel["cpu"].get_y(), 0]]

    @staticmethod
    def _count_text(text: str, cx: float):
        return label(text, size=SMALL_SIZE, color=MUTED).move_to([cx, -2.1, 0])

    def _send(self, route: VMobject, panel: dict, dram_bytes: int) -> None:
        """A block travels `route`, leaving its trace; the DRAM counter updates."""
        # drawn behind the parts: inside a chip, the switch or the DRAM the trace runs under its body
        trace = route.copy().set_stroke(DATA, width=5).set_z_index(-1)
        block = Square(0.2, stroke_width=0, fill_color=DATA, fill_opacity=1).move_to(route.get_start())
        block.set_z_index(-1)
        self.add(block)
        self.play(Create(trace), MoveAlongPath(block, route), run_time=1.8, rate_func=linear)
        self.remove(block)
        new_c = self._count_text(f"DRAM traffic per byte: {dram_bytes}", panel["cx"])
        new_c.set_color(BAD if dram_bytes else OK)
        self.play(panel["dram_c"].animate.become(new_c), run_time=0.8)
        self.wait(1.6)

    def _result(self, panel: dict, rate: float, neck: str, color: str) -> list:
        """The DRAM row becomes the node's rate into HBM and what fills first."""
        text = label(f"{fmt_rate(rate)} into HBM ({neck} full)", size=SMALL_SIZE, color=color)
        text.move_to(panel["dram_c"].get_center())
        if text.width > 6.4:
            text.scale_to_fit_width(6.4)
        return [panel["dram_c"].animate.become(text)]
