"""hgx-server · The modern AI server: HGX baseboard layout.

An exploded DGX H100 assembles part by part (CPUs and DRAM, PCIe switches,
NICs and drives, GPUs, NVSwitches), is wired up, and then four kinds of
transfer light up one after another with their bandwidth alone and with all
eight GPUs at once; the power budget closes the scene. Each lit path stays
on screen until the next beat begins, so a paused frame shows what its
caption says. Every count, rate and
watt comes from self.data (models/hgx_server.py: hgx_server); the layout is computed
from the model's node list, so a different node draws itself.
"""

from __future__ import annotations

import numpy as np
from manim import (
    DOWN,
    LEFT,
    RIGHT,
    UP,
    Create,
    FadeIn,
    FadeOut,
    GrowFromCenter,
    GrowFromEdge,
    LaggedStart,
    Line,
    Rectangle,
    ShowPassingFlash,
    SurroundingRectangle,
    VGroup,
    VMobject,
)

from design import palette
from models.units import fmt_bytes, fmt_count, fmt_rate
from scenes.server_parts import (
    chip,
    cpu,
    gpu,
    memory,
    nic,
    nvme,
    switch,
)
from scenes.style import (
    INK,
    MUTED,
    SMALL_SIZE,
    ExhibitScene,
    label,
    legend,
    markup,
    title,
)

LIT = palette.role("highlight")
SHARED = palette.role("bad")
WIRE = palette.VIDEO["muted"]
NVLINK = palette.ROLE["gpu"]
RETIMER = INK
# the mixed beat's classes, as the meter names them
MIX_NAMES = {"nic_send": "all-reduce send", "gpu_to_host": "snapshot to host memory"}

# rows of the layout (Manim units; the frame is 14.2 x 8; captions own the band below y = -2.72)
Y_CPU, Y_SW, Y_IO, Y_GPU, Y_NVS = 2.3, 1.4, 0.6, -0.2, -1.1
Y_INFO = -2.05  # two lines of numbers under the NVSwitch row, above the caption band
Y_BUS = (Y_GPU + Y_NVS) / 2  # where NVLink paths run between the GPU and NVSwitch rows
Y_RT = (Y_IO - 0.18 + Y_GPU + 0.275) / 2  # retimers: on a GPU's x16 link, between the NIC/SSD row and the GPU


class AssembleTheNode(ExhibitScene):
    scene_id = "hgx-server"

    # --- layout ---------------------------------------------------------------------
    def layout(self) -> dict:
        nodes = self.data["records"]["graph"]["nodes"]
        n_gpu = sum(1 for n in nodes if n["kind"] == "gpu")
        n_nvs = sum(1 for n in nodes if n["kind"] == "nvswitch")
        sockets = sorted({n["socket"] for n in nodes if n["kind"] == "cpu"})
        col = min(1.62, 12.6 / n_gpu)
        x_gpu = [(k - (n_gpu - 1) / 2) * col for k in range(n_gpu)]
        half = 12.6 / max(len(sockets), 1)
        x_sock = [(s - (len(sockets) - 1) / 2) * half for s in sockets]
        pos = {}
        for n in nodes:
            k, s, kind = n["index"], n["socket"], n["kind"]
            if kind == "cpu":
                pos[n["name"]] = np.array([x_sock[s] * 0.92, Y_CPU, 0])
            elif kind == "dram":  # outboard of its CPU
                out = -1.0 if x_sock[s] < 0 else 1.0
                pos[n["name"]] = np.array([x_sock[s] * 0.92 + out * 1.65, Y_CPU, 0])
            elif kind in ("storage_nic", "storage"):  # inboard of its CPU
                inward = 1.0 if x_sock[s] < 0 else -1.0
                pos[n["name"]] = np.array([x_sock[s] * 0.92 + inward * 1.75, Y_CPU, 0])
            elif kind == "pcie_switch":
                pos[n["name"]] = np.array([x_gpu[k], Y_SW, 0])
            elif kind == "nic":
                pos[n["name"]] = np.array([x_gpu[k] - 0.36, Y_IO, 0])
            elif kind == "net":
                pos[n["name"]] = np.array([x_gpu[k] - 0.36, Y_IO, 0])  # the port is the NIC's edge
            elif kind == "nvme":
                pos[n["name"]] = np.array([x_gpu[k] + 0.38, Y_IO, 0])
            elif kind == "gpu":
                pos[n["name"]] = np.array([x_gpu[k], Y_GPU, 0])
            elif kind == "nvswitch":
                span = 12.6 / n_nvs
                pos[n["name"]] = np.array([(k - (n_nvs - 1) / 2) * span, Y_NVS, 0])
        self.col = col
        self.span_nvs = 12.6 / n_nvs
        return pos

    def part(self, node: dict):
        """The mobject for one node of the model's graph."""
        k, kind = node["index"], node["kind"]
        w = self.col * 0.86
        if kind == "cpu":
            return cpu(f"CPU {k}", width=1.5, height=0.6)
        if kind == "dram":
            return memory("DDR5", width=1.0, height=0.42)
        if kind == "storage_nic":
            return chip("storage NIC", palette.ROLE["nic"], width=1.55, height=0.42)
        if kind == "pcie_switch":
            return switch("PCIe sw", ports=4, color=palette.ROLE["switch"], width=w, height=0.5)
        if kind == "nic":
            return nic("NIC", width=w * 0.47, height=0.36)
        if kind == "nvme":
            return nvme("SSD", width=w * 0.47, height=0.36)
        if kind == "gpu":
            return gpu(f"GPU {k}", width=w, height=0.55)
        if kind == "nvswitch":
            return switch(f"NVSwitch {k}", ports=8, width=self.span_nvs * 0.82, height=0.55)
        return None  # fabric ports and storage fabric are drawn as the NIC's edge

    def wire(self, a: str, b: str, kind: str = "pcie") -> Line:
        if kind == "nvlink":
            return Line(self.pos[a], self.pos[b], stroke_width=2, color=NVLINK,
                        stroke_opacity=0.45).set_z_index(-1)
        return Line(self.pos[a], self.pos[b], stroke_width=2, color=WIRE,
                    stroke_opacity=0.55).set_z_index(-1)

    def retimer_marks(self) -> VGroup:
        """A small chip on each link the model gives a retimer (a GPU's x16 link to its switch)."""
        marks = VGroup()
        for a, b in self.data["records"]["retimers"]:
            x = self.pos[b if b.startswith("gpu") else a][0]
            marks.add(Rectangle(width=0.34, height=0.15, stroke_width=0, fill_color=RETIMER,
                                fill_opacity=1).move_to([x, Y_RT, 0]).set_z_index(1))
        return marks

    def route(self, names: list[str], color: str = LIT, width: float = 7, lane: float = 0.0) -> VMobject:
        """A path through the drawn parts. A GPU-NVSwitch hop runs down the GPU's column to a bus
        between the two rows, then along it: a straight diagonal would cross the other GPUs.

        `lane` shifts the bus and the GPU's column by that many Manim units, so paths striped over
        several NVSwitches run side by side instead of on one shared-looking wire."""
        drawn = [n for n in names if n in self.pos and n in self.parts]
        pts = [self.pos[drawn[0]]]
        for a, b in zip(drawn, drawn[1:]):
            kinds = {a.rstrip("0123456789"), b.rstrip("0123456789")}
            if kinds == {"gpu", "nvs"}:
                pa, pb = self.pos[a], self.pos[b]
                y = Y_BUS + lane
                # leave and enter a GPU in its own lane (x shifted), an NVSwitch at its centre
                xa = pa[0] + (lane * 2 if a.startswith("gpu") else 0)
                xb = pb[0] + (lane * 2 if b.startswith("gpu") else 0)
                if a.startswith("gpu"):
                    pts[-1] = np.array([xa, pa[1], 0])
                pts += [np.array([xa, y, 0]), np.array([xb, y, 0]), np.array([xb, pb[1], 0])]
                continue
            pts.append(self.pos[b])
        path = VMobject(stroke_color=color, stroke_width=width).set_points_as_corners(pts)
        return path.set_z_index(-0.5)

    def meter(self, text: str, share: float, color: str) -> tuple[VGroup, Rectangle]:
        """A bar that fills to `share` of a link's capacity, its number beside it: (meter, fill).

        The fill is returned apart so the beat can grow it while the data flows."""
        width, height = 2.6, 0.24
        frame = Rectangle(width=width, height=height, stroke_color=MUTED, stroke_width=2, fill_opacity=0)
        fill = Rectangle(width=max(width * min(share, 1.0), 0.01), height=height, stroke_width=0,
                         fill_color=color, fill_opacity=0.9)
        fill.align_to(frame, LEFT)
        words = markup(f"{text}: <b>{share * 100:.3g}%</b> in use", size=SMALL_SIZE)
        row = VGroup(frame, words).arrange(RIGHT, buff=0.2)
        fill.align_to(frame, LEFT).set_y(frame.get_y())
        return VGroup(row, fill), fill

    def flow(self, glow: VGroup, grow: Rectangle, run_time: float = 2.0) -> None:
        """Data runs along the lit paths while the bottleneck's meter fills."""
        paths = [m for m in glow if not isinstance(m, SurroundingRectangle)]
        flashes = [ShowPassingFlash(p.copy().set_stroke(palette.ROLE["data"], width=10), time_width=0.5)
                   for p in paths]
        self.play(GrowFromEdge(grow, LEFT), *flashes, run_time=run_time)

    def info(self, lines: list[str]) -> VGroup:
        g = VGroup(*[markup(t, size=SMALL_SIZE) for t in lines]).arrange(
            DOWN, aligned_edge=LEFT, buff=0.1)
        return g.move_to([0, Y_INFO, 0])

    def light(self, kind: str, gpus: list[int], run_time: float = 1.6) -> VGroup:
        """Light the paths of one kind of transfer for the given GPUs; returns the glow.

        A path is a thick line under the parts plus an outline around every part
        it passes, so it reads at any size even where the parts sit close together.
        """
        paths, names = [], []
        for k in gpus:
            striped = self.paths_for(kind, k)
            for i, p in enumerate(striped):
                # paths striped over several switches get a lane each (0.07 apart, centred on the bus)
                lane = (i - (len(striped) - 1) / 2) * 0.07 if len(striped) > 1 else 0.0
                paths.append(self.route(p, width=5 if len(striped) > 1 else 7, lane=lane))
                names += [n for n in p if n in self.parts and n not in names]
        rings = [SurroundingRectangle(self.parts[n], color=LIT, buff=0.04, stroke_width=4) for n in names]
        glow = VGroup(*paths, *rings)
        flashes = [ShowPassingFlash(p.copy().set_stroke(palette.ROLE["data"], width=10),
                                    time_width=0.6) for p in paths]
        self.play(Create(glow, lag_ratio=0), run_time=0.6)
        self.play(*flashes, run_time=run_time)
        return glow

    def clear(self) -> None:
        """Fade out the previous beat's lit paths and numbers (at the start of a beat)."""
        if len(self.shown):
            self.play(FadeOut(self.shown), run_time=0.4)
        self.shown = VGroup()

    def paths_for(self, kind: str, k: int) -> list[list[str]]:
        """The model's shortest paths for GPU k's transfer of this kind."""
        return self.data["records"]["paths"][kind]["flow_paths"][k]

    def group_of(self, *kinds: str) -> VGroup:
        """The drawn parts of the given kinds, in the model's node order."""
        return VGroup(*[self.parts[n["name"]] for n in self.data["records"]["graph"]["nodes"]
                        if n["kind"] in kinds and n["name"] in self.parts])

    # --- the script -------------------------------------------------------------------
    def construct(self) -> None:
        self.pos = self.layout()
        self.parts = {}
        for n in self.data["records"]["graph"]["nodes"]:
            m = self.part(n)
            if m is not None:
                self.parts[n["name"]] = m.move_to(self.pos[n["name"]])
        self.assemble()
        self.shown = VGroup()  # what the current beat lit; cleared when the next beat starts
        self.wiring()
        self.gpu_to_nic()
        self.gpu_to_gpu()
        self.host_to_gpu()
        self.storage_to_gpu()
        self.mixed_traffic()
        self.power_budget()

    def assemble(self) -> None:
        """1. The exploded node flies together, part by part."""
        s = self.data["summary"]
        with self.beat(f"What is in the box: {fmt_count(s['gpus'])} H100 GPUs, "
                       f"{fmt_count(s['nvswitches'])} NVSwitches, {fmt_count(s['cpu_sockets'])} CPUs "
                       f"with {fmt_bytes(s['dram_capacity'])} of DDR5, {fmt_count(s['compute_nics'])} "
                       f"NICs of {fmt_rate(s['nic_port_rate'])} each way, {fmt_count(s['data_drives'])} NVMe drives"):
            self.heading = title("Inside an HGX H100 node (DGX H100)", size=30)
            self.play(FadeIn(self.heading), run_time=0.5)
            stages = [(("cpu", "dram", "storage_nic"), UP), (("pcie_switch",), LEFT),
                      (("nic", "nvme"), RIGHT), (("gpu",), LEFT), (("nvswitch",), DOWN)]
            for kinds, direction in stages:
                grp = self.group_of(*kinds)
                self.play(LaggedStart(*[FadeIn(m, shift=-direction * 1.2) for m in grp],
                                      lag_ratio=0.12), run_time=1.0)

    def wiring(self) -> None:
        """2. The wiring: PCIe trees under each CPU, NVLink to every NVSwitch."""
        s = self.data["summary"]
        with self.beat(f"{fmt_count(s['pcie_switches'])} PCIe switches pair each GPU with its own NIC; "
                       f"{fmt_count(s['gpu_retimers'])} retimers carry the x16 links off the baseboard; "
                       f"NVLink joins each GPU to all {fmt_count(s['nvswitches'])} NVSwitches"):
            drawn = set()
            pcie, nvl = VGroup(), VGroup()
            for ln in self.data["records"]["graph"]["links"]:
                a, b = ln["a"], ln["b"]
                if a not in self.parts or b not in self.parts or (a, b) in drawn:
                    continue
                drawn.add((a, b))
                (nvl if ln["kind"] == "nvlink" else pcie).add(self.wire(a, b, ln["kind"]))
            self.play(Create(pcie, lag_ratio=0.02), run_time=1.2)
            self.play(Create(nvl, lag_ratio=0.01), run_time=1.2)
            self.retimers = self.retimer_marks()
            if len(self.retimers):
                self.play(LaggedStart(*[GrowFromCenter(m) for m in self.retimers], lag_ratio=0.15),
                          run_time=1.2)
            key = legend([("PCIe 5.0", WIRE), ("retimer", RETIMER), ("NVLink", NVLINK), ("lit path", LIT),
                          ("shared link", SHARED)], size=SMALL_SIZE - 2)
            key.next_to(self.heading, DOWN, buff=0.12)
            self.play(FadeIn(key), run_time=0.4)
            x16 = s["pcie_x16_payload_rate"]  # payload per direction, as the paths count it
            txt = self.info([f"each GPU's PCIe 5.0 x16 link: <b>{fmt_rate(x16)}</b> per direction, through one retimer",
                             "a retimer re-sends the signal at the full rate: it adds latency, not a limit"])
            self.play(FadeIn(txt), run_time=0.4)
            self.shown = VGroup(txt)
            self.wait(2.2)

    def gpu_to_nic(self) -> None:
        """3. GPU -> its NIC: the 1:1 pairing, nothing shared."""
        s, g2n = self.data["summary"], self.data["records"]["paths"]["gpu_to_nic"]
        with self.beat(f"GPU → NIC: {fmt_rate(g2n['alone'])} per GPU, the NIC port; with all "
                       f"{fmt_count(s['gpus'])} at once still {fmt_rate(g2n['contended'])} each: "
                       f"no link shared, {fmt_rate(g2n['aggregate'])} leaves the node"):
            self.clear()
            glow = self.light("gpu_to_nic", [0])
            txt = self.info([f"GPU → PCIe switch → NIC → fabric: {fmt_count(g2n['hops'])} hops, no CPU; "
                             f"narrowest link = the NIC's port = <b>{fmt_rate(g2n['alone'])}</b>",
                             f"all {fmt_count(s['gpus'])} GPUs at once: <b>{fmt_rate(g2n['contended'])}</b>"
                             f" each, {fmt_rate(g2n['aggregate'])} per node"])
            self.play(FadeIn(txt), run_time=0.5)
            glow_all = self.light("gpu_to_nic", list(range(1, s["gpus"])), run_time=1.4)
            self.shown = VGroup(glow, glow_all, txt)
            self.wait(1.2)

    def gpu_to_gpu(self) -> None:
        """4. GPU -> GPU over NVLink: striped over every NVSwitch."""
        s, g2g = self.data["summary"], self.data["records"]["paths"]["gpu_to_gpu"]
        with self.beat(f"GPU → GPU over NVLink: {fmt_rate(g2g['alone'])} each way, striped over "
                       f"{fmt_count(g2g['parallel_paths'])} NVSwitches, "
                       f"{s['nvlink_to_nic_ratio']:.3g}× the NIC"):
            self.clear()
            glow = self.light("gpu_to_gpu", [0])
            txt = self.info([f"{fmt_count(g2g['parallel_paths'])} paths in parallel, one per NVSwitch: "
                             f"<b>{fmt_rate(g2g['alone'])}</b> per direction",
                             f"{s['nvlink_to_nic_ratio']:.3g}× a NIC port; all {fmt_count(s['gpus'])} "
                             f"at once: still {fmt_rate(g2g['contended'])} each (non-blocking)"])
            self.play(FadeIn(txt), run_time=0.5)
            self.shown = VGroup(glow, txt)
            self.wait(1.6)

    def host_to_gpu(self) -> None:
        """5. host -> GPU: through the CPU, the x16 link binds."""
        s, h2g = self.data["summary"], self.data["records"]["paths"]["host_to_gpu"]
        with self.beat(f"Host → GPU: at best {fmt_rate(h2g['alone'])} each, its x16 link (measured: "
                       f"{fmt_rate(s['host_to_gpu_read_rate'])}). {fmt_count(h2g['max_flows_per_link'])} GPUs "
                       f"need {s['memory_breakeven'] * 100:.3g}% of a socket's DDR5 peak "
                       f"({s['memory_breakeven_read'] * 100:.3g}% measured); below it, memory binds"):
            self.clear()
            per_socket = s["gpus"] // s["cpu_sockets"]
            glow = self.light("host_to_gpu", list(range(per_socket)), run_time=1.0)
            line = markup(f"each GPU: <b>{fmt_rate(h2g['contended'])}</b>, its x16 link, if the socket keeps "
                          f"its peak of {fmt_rate(s['dram_sustained_per_socket'])}", size=SMALL_SIZE)
            gauge, fill = self.meter(f"socket's DDR5, {fmt_count(h2g['max_flows_per_link'])} GPUs at once",
                                     h2g["busiest_link_utilisation"], LIT)
            txt = VGroup(line, gauge).arrange(DOWN, aligned_edge=LEFT, buff=0.12).move_to([0, Y_INFO, 0])
            fill.align_to(gauge[0][0], LEFT).set_y(gauge[0][0].get_y())
            self.play(FadeIn(line), FadeIn(gauge[0]), run_time=0.4)
            self.flow(glow, fill)
            self.shown = VGroup(glow, txt)
            self.wait(1.2)

    def storage_to_gpu(self) -> None:
        """6. storage NIC -> GPU: four GPUs behind one storage port (BasePOD wires one port of each card)."""
        s, P = self.data["summary"], self.data["records"]["paths"]
        st = P["storage_to_gpu"]
        port_binds = st["path_bottleneck"] < s["pcie_x16_payload_rate"]
        where = "storage port" if port_binds else "x16 slot"
        with self.beat(f"Remote storage → GPU: {fmt_rate(st['alone'])} alone, but "
                       f"{fmt_count(st['max_flows_per_link'])} GPUs share each storage NIC's {where}: "
                       f"{fmt_rate(st['contended'])} each"):
            self.clear()
            per_socket = s["gpus"] // s["cpu_sockets"]
            glow = self.light("storage_to_gpu", list(range(per_socket)))
            busy = st["busiest_link"]
            hot = VGroup(self.route(busy, color=SHARED, width=11), *[
                SurroundingRectangle(self.parts[n], color=SHARED, buff=0.1, stroke_width=5)
                for n in busy if n in self.parts and n.startswith("snic")])
            line = markup(f"each GPU gets <b>{fmt_rate(st['contended'])}</b> "
                          f"({st['slowdown']:.3g}× slower than alone); a local drive: "
                          f"{fmt_rate(P['nvme_to_gpu']['contended'])}, its rated read", size=SMALL_SIZE)
            # the link that binds: the card's one storage port (BasePOD), or its x16 slot if that is narrower
            use = (st["contended"] * st["max_flows_per_link"] / st["path_bottleneck"] if port_binds
                   else st["busiest_link_utilisation"])
            gauge, fill = self.meter(f"storage NIC's {where}, {fmt_count(st['max_flows_per_link'])} GPUs",
                                     use, SHARED)
            txt = VGroup(line, gauge).arrange(DOWN, aligned_edge=LEFT, buff=0.12).move_to([0, Y_INFO, 0])
            fill.align_to(gauge[0][0], LEFT).set_y(gauge[0][0].get_y())
            self.play(Create(hot), FadeIn(line), FadeIn(gauge[0]), run_time=0.6)
            self.flow(glow, fill)
            self.shown = VGroup(glow, hot, txt)
            self.wait(1.2)

    def mixed_traffic(self) -> None:
        """7. A checkpoint snapshot staged (non-blocking) during an all-reduce: the send and the copy to host memory
        share one GPU's x16 link, out of the GPU.

        The meter stacks each class's demand on the link; together they run past its end (the share
        asked, on screen), then the max-min outcome: each class shrinks to its fair share (a class below
        it keeps its demand) until the stack fits."""
        s, mix = self.data["summary"], self.data["records"]["mix"]
        k = mix["gpu"]
        rows = {r["key"]: r for r in mix["rows"]}
        verdict = (f"if shared fairly, the send gets {fmt_rate(s['mix_nic_rate'])}" if s["mix_over"]
                   else "the link has room for both")
        with self.beat(f"Snapshot staged during all-reduce: the send and the copy to host memory ask "
                       f"{s['mix_demand_share'] * 100:.3g}% of GPU {k}'s x16 link; {verdict}"):
            self.clear()
            colours = {"nic_send": palette.ROLE["nic"], "gpu_to_host": palette.GREEN}
            kinds = {"nic_send": "gpu_to_nic", "gpu_to_host": "host_to_gpu"}
            paths = VGroup()
            for key in rows:
                for p in self.paths_for(kinds[key], k):
                    # the host path is drawn host -> GPU; the snapshot runs it backwards, out of the GPU
                    paths.add(self.route(p[::-1] if key == "gpu_to_host" else p, color=colours[key], width=6))
            # each class's destination part ringed in its colour (the NIC, and the socket's DDR5)
            sources = VGroup(*[
                SurroundingRectangle(self.parts[n], color=colours[key], buff=0.05, stroke_width=4)
                for key in rows for n in self.paths_for(kinds[key], k)[0]
                if n in self.parts and n.rstrip("0123456789") in ("nic", "dram")])
            hot = self.route(mix["link"], color=SHARED, width=12)
            ring = SurroundingRectangle(self.parts[f"gpu{k}"], color=SHARED, buff=0.06, stroke_width=5)
            # the meter: the link's payload rate is the frame; each class's demand stacks from the left
            # the frame shrinks so the stack's overrun (186% asked is most of a second link) stays on screen
            width, height = min(4.6, 6.5 / max(1.0, mix["demand_share"])), 0.26
            frame = Rectangle(width=width, height=height, stroke_color=INK, stroke_width=2, fill_opacity=0)
            # the room the stack runs to: the text sits beyond the stack's end, not the frame's
            room = Rectangle(width=width * max(1.0, mix["demand_share"]), height=height, stroke_width=0,
                             fill_opacity=0)
            names = markup("  ".join(f'<span foreground="{colours[key]}">■</span> {MIX_NAMES[key]} '
                                     f"{fmt_rate(r['demand'])}" for key, r in rows.items()), size=SMALL_SIZE)
            asked = markup(f"<b>{s['mix_demand_share'] * 100:.3g}%</b> of {fmt_rate(mix['capacity'])} asked",
                           size=SMALL_SIZE)
            # the outcome replaces the share asked at the beat's end (it keeps the share on screen): the
            # longer of the two sets the layout, so neither runs off the frame
            got = markup(f"<b>{s['mix_demand_share'] * 100:.3g}%</b> asked: link full, the send "
                         f"gets about <b>{fmt_rate(s['mix_nic_rate'])}</b>", size=SMALL_SIZE)
            bar = VGroup(room, got if s["mix_over"] else asked).arrange(RIGHT, buff=0.35)
            txt = VGroup(names, bar).arrange(DOWN, aligned_edge=LEFT, buff=0.14).move_to([0, Y_INFO, 0])
            frame.move_to(room.get_left() + RIGHT * width / 2)
            asked.next_to(room, RIGHT, buff=0.35)
            x = frame.get_left()[0]
            segs = VGroup()
            for key, r in rows.items():
                w = max(width * r["demand"] / mix["capacity"], 0.01)
                segs.add(Rectangle(width=w, height=height, stroke_width=0, fill_color=colours[key],
                                   fill_opacity=0.9).move_to([x + w / 2, frame.get_y(), 0]))
                x += w
            # the link's end, taller than the bar, so a stack that runs past it shows
            full = Line(frame.get_corner(UP + RIGHT) + UP * 0.1, frame.get_corner(DOWN + RIGHT) + DOWN * 0.1,
                        color=SHARED, stroke_width=4).set_z_index(2)
            self.play(Create(paths, lag_ratio=0), Create(sources), Create(hot), Create(ring), FadeIn(names),
                      FadeIn(frame), FadeIn(full), run_time=0.6)
            flashes = [ShowPassingFlash(p.copy().set_stroke(palette.ROLE["data"], width=10), time_width=0.5)
                       for p in paths]
            self.play(LaggedStart(*[GrowFromEdge(sg, LEFT) for sg in segs], lag_ratio=0.6), *flashes,
                      run_time=2.0)
            self.play(FadeIn(asked), run_time=0.4)
            self.shown = VGroup(paths, sources, hot, ring, txt, segs, full)
            if s["mix_over"]:
                # max-min fair: each class shrinks to its fair share of the link (half each here)
                x = frame.get_left()[0]
                moves = []
                for seg, r in zip(segs, rows.values()):
                    w = max(width * r["rate"] / mix["capacity"], 0.01)
                    moves.append(seg.animate.stretch_to_fit_width(w).move_to([x + w / 2, frame.get_y(), 0]))
                    x += w
                self.play(*moves, FadeOut(asked), FadeIn(got), run_time=1.0)
                self.shown.remove(txt)
                self.shown.add(names, frame, got)
            else:
                self.shown.remove(txt)
                self.shown.add(names, frame, asked)
            self.wait(1.0)

    def power_budget(self) -> None:
        """8. The power budget."""
        s = self.data["summary"]
        with self.beat(f"Power: {fmt_count(s['gpus'])} × {fmt_count(s['gpu_power'] / s['gpus'])} W GPUs "
                       f"= {s['gpu_power'] / 1e3:.3g} kW of the node's {s['system_max_power'] / 1e3:.3g} kW "
                       f"maximum ({s['gpu_share'] * 100:.3g}%)"):
            self.clear()
            bar_w = 9.0
            x0 = -6.0  # the total sits to the bar's right
            parts = [("GPUs", s["gpu_power"], palette.ROLE["gpu"]),
                     ("CPUs", s["cpu_power"], palette.ROLE["cpu"]),
                     ("everything else", s["other_power"], MUTED)]
            segs, names = VGroup(), VGroup()
            x = x0
            for name, w, c in parts:
                width = bar_w * w / s["system_max_power"]
                seg = Rectangle(width=width, height=0.42, stroke_width=0, fill_color=c, fill_opacity=1)
                seg.move_to([x + width / 2, Y_INFO + 0.12, 0])
                t = label(f"{name} {w / 1e3:.3g} kW", size=SMALL_SIZE - 2)
                t.next_to(seg, DOWN, buff=0.08)
                if t.width > width:  # a narrow segment names itself above, clear of its neighbours
                    t.next_to(seg, UP, buff=0.08).align_to(seg, LEFT)
                segs.add(seg)
                names.add(t)
                x += width
            self.play(LaggedStart(*[GrowFromEdge(sg, LEFT) for sg in segs], lag_ratio=0.5),
                      run_time=1.5)
            total = label(f"maximum {s['system_max_power'] / 1e3:.3g} kW per node", size=SMALL_SIZE - 2)
            total.next_to(segs, RIGHT, buff=0.25)
            self.play(FadeIn(names), FadeIn(total), run_time=0.5)
            self.wait(2.5)

__all__ = ["AssembleTheNode"]
