"""Scene 08 · Network incast, microbursts & packet spraying.

Eight GPUs fire a block at one receiver in the same instant. The packets
converge on one switch egress port, its buffer fills and overflows (the
dropped packets turn vermillion and fall), the link then idles for a whole
retransmission timeout before the losses are resent. Then the same burst is
sprayed over several spine paths, each with its own buffer, and nothing is
dropped. Every slot drawn is a slot of the model's seeded simulation
(models.incast.simulate, traced): which packet goes where, which is dropped,
how full each buffer is.
"""

from __future__ import annotations

import numpy as np
from manim import (
    DOWN,
    LEFT,
    RIGHT,
    UP,
    Arc,
    FadeIn,
    FadeOut,
    Line,
    UpdateFromAlphaFunc,
    VGroup,
    linear,
)

from design import palette
from models.units import fmt_bytes, fmt_count, fmt_seconds, sig
from scenes.fabric import (
    PortBuffer,
    fly,
    packet,
)
from scenes.server_parts import (
    gpu,
)
from scenes.style import (
    INK,
    MUTED,
    SMALL_SIZE,
    ExhibitScene,
    counter,
    label,
    legend,
    markup,
    title,
)

PKT = palette.role("data")
DROP = palette.role("bad")
SPRAY = palette.role("ok")
SWITCH = palette.ROLE["switch"]
SENDER_X = -5.9
RECV_X = 2.55
PANEL_X = 3.85
BUF_H = 2.6
PKT_SIZE = 0.15




class IncastAndSpraying(ExhibitScene):
    scene_id = "incast-spraying"

    # --- helpers ------------------------------------------------------------------
    def buffer_column(self, capacity: int, x: float, width: float = 0.55) -> PortBuffer:
        buf = PortBuffer(capacity, width=width, height=BUF_H, color=PKT, over_color=DROP)
        buf.move_to([x, -0.1, 0])
        return buf

    def play_slots(self, events: list[dict], buffers: list[PortBuffer], capacity: int,
                   run_time: float, drop_counter=None, done_counter=None) -> None:
        """One self.play per simulated slot: arrivals fly in, drops fall, heads leave."""
        unit = BUF_H / capacity
        drops = delivered = 0
        level = [0] * len(buffers)
        for ev in events:
            movers, anims = [], []
            added = [0] * len(buffers)
            for f, _seq, path, dropped in ev["arrivals"]:
                buf = buffers[path]
                src = self.senders[f].get_right()
                top = buf.frame.get_top()
                m = packet(PKT, size=PKT_SIZE).move_to(src)
                movers.append(m)
                if dropped:
                    drops += 1
                    land = top + UP * 0.12 + LEFT * 0.3
                    fall = np.array([top[0] - 0.75 - 0.1 * (f % 4), -3.6, 0.0])
                    anims.append(fly(m, [src, land, fall], turn_at=0.45))
                else:
                    y = buf.frame.get_bottom()[1] + unit * (level[path] + added[path] + 0.5)
                    added[path] += 1
                    anims.append(fly(m, [src, top + UP * 0.12, [top[0], y, 0]]))
            for path, f, _seq in ev["departures"]:
                buf = buffers[path]
                start = buf.frame.get_bottom() + UP * unit * 0.5
                m = packet(PKT, size=PKT_SIZE).move_to(start)
                movers.append(m)
                anims.append(fly(m, [start, [start[0], -1.95, 0], self.receiver.get_left()]))
                delivered += 1
            new_level = list(ev["queues"])
            for path, *_ in ev["departures"]:
                new_level[path] -= 1
            for i, buf in enumerate(buffers):
                if ev["queues"][i] != level[i] or new_level[i] != level[i]:
                    anims.append(buf.level.animate.set_value(ev["queues"][i]))
            self.add(*movers)
            self.play(*anims, run_time=run_time)
            self.remove(*movers)
            for i, buf in enumerate(buffers):
                buf.level.set_value(new_level[i])
            level = new_level
            if drop_counter is not None and drops != drop_counter[1].get_value():
                drop_counter[1].set_value(drops)
            if done_counter is not None and delivered:
                done_counter[1].set_value(done_counter[1].get_value() + delivered)
                delivered = 0

    def panel(self, *rows, y: float = 2.2) -> VGroup:
        g = VGroup(*rows).arrange(DOWN, aligned_edge=LEFT, buff=0.28)
        g.move_to([PANEL_X, y, 0], aligned_edge=UP + LEFT)
        return g

    # --- the script ------------------------------------------------------------------
    def construct(self) -> None:
        s, an = self.data["summary"], self.data["animation"]
        n, k, cap, paths = an["senders"], an["block_packets"], an["buffer_packets"], an["paths"]

        # === 1. N GPUs, one switch port, one receiver ===
        with self.beat(f"{n} GPUs each fire {fmt_count(k)} packets at one receiver in the same "
                       f"instant; the switch port between them buffers {fmt_count(cap)} packets"):
            heading = title("Incast: many senders, one port")
            self.play(FadeIn(heading), run_time=0.5)
            ys = np.linspace(2.25, -2.45, n)
            self.senders = VGroup(*[gpu(f"GPU {i}", width=0.85, height=0.4).move_to([SENDER_X, y, 0])
                                    for i, y in enumerate(ys)])
            buf = self.buffer_column(cap, -1.0, width=0.7)
            port_name = label("switch egress port", size=SMALL_SIZE, color=SWITCH)
            port_name.next_to(buf.frame, RIGHT, buff=0.2).align_to(buf.frame, UP)
            cap_note = label(f"buffer: {fmt_count(cap)} packets", size=SMALL_SIZE - 2, color=MUTED)
            cap_note.next_to(port_name, DOWN, buff=0.1, aligned_edge=LEFT)
            self.receiver = gpu("receiver", width=1.2, height=0.6).move_to([RECV_X, -1.95, 0])
            wires = VGroup(*[Line(g.get_right(), buf.frame.get_top() + UP * 0.12,
                                  stroke_color=MUTED, stroke_width=1, stroke_opacity=0.5)
                             for g in self.senders])
            out_wire = Line([buf.frame.get_x(), -1.95, 0], self.receiver.get_left(),
                            stroke_color=MUTED, stroke_width=2)
            one_port = label("1 packet per slot", size=SMALL_SIZE - 2, color=MUTED)
            one_port.next_to(out_wire, UP, buff=0.08)
            self.play(FadeIn(self.senders), FadeIn(wires), FadeIn(buf), FadeIn(port_name),
                      FadeIn(cap_note), FadeIn(self.receiver), FadeIn(out_wire), FadeIn(one_port),
                      run_time=1.0)
            drops = counter("dropped", 0, color=DROP)
            delivered = counter("delivered", 0)
            of_total = label(f"of {fmt_count(n * k)}", size=SMALL_SIZE, color=MUTED)
            demand = markup(f"burst N·W = <b>{fmt_count(n * k)}</b> packets\n"
                            f"buffer B = <b>{fmt_count(cap)}</b>", size=SMALL_SIZE)
            key = legend([("queued", PKT), ("dropped", DROP)], size=15)
            info = self.panel(demand, delivered, drops, key)
            of_total.add_updater(lambda m: m.next_to(delivered[1], RIGHT, buff=0.12))
            self.play(FadeIn(info), FadeIn(of_total), run_time=0.6)
            self.wait(0.6)

        # === 2. The microburst: the buffer fills and overflows ===
        with self.beat(f"The burst needs {fmt_count(an['analytic_peak'])} packets of queue, the port "
                       f"holds {fmt_count(cap)}: {fmt_count(an['single_drops'])} packets are dropped"):
            self.play_slots(an["single_burst"], [buf], cap, run_time=0.42,
                            drop_counter=drops, done_counter=delivered)
            self.wait(0.5)

            # === 3. The timeout: the link idles for RTO ===
            rto = an["rto"]
        with self.beat(f"Flows that lost a packet wait one retransmission timeout, "
                       f"{fmt_seconds(rto)}: {sig(s['rto_over_rtt'], 2)} round trips of an idle link"):
            clock_c = VGroup(Arc(radius=0.42, start_angle=np.pi / 2, angle=-2 * np.pi,
                                 stroke_color=MUTED, stroke_width=3))
            sweep = Arc(radius=0.42, start_angle=np.pi / 2, angle=-0.001, stroke_color=DROP,
                        stroke_width=6)
            clock = VGroup(clock_c, sweep).move_to([RECV_X, 1.3, 0])
            clock_name = label("timeout clock", size=SMALL_SIZE - 2, color=MUTED).next_to(clock, UP, 0.12)
            waited = counter("idle", 0, decimals=0, unit="ms", color=DROP, size=20)
            waited.next_to(clock, DOWN, buff=0.2)
            self.play(FadeIn(clock), FadeIn(clock_name), FadeIn(waited), run_time=0.4)
            rto_ms = rto * 1e3

            def tick(m, a):
                m.become(Arc(radius=0.42, start_angle=np.pi / 2, angle=-2 * np.pi * max(a, 0.001),
                             stroke_color=DROP, stroke_width=6).move_arc_center_to(clock_c.get_center()))

            self.play(UpdateFromAlphaFunc(sweep, tick), waited[1].animate.set_value(rto_ms),
                      run_time=2.4, rate_func=linear)
            self.wait(0.3)

        # === 4. Retransmission: the block finally completes ===
        with self.beat(f"After the timeout the losses are resent; the block completes in "
                       f"{fmt_seconds(an['single_fct'])} instead of {fmt_seconds(an['ideal_fct'])}"):
            self.play_slots(an["single_retransmit"], [buf], cap, run_time=0.13,
                            drop_counter=drops, done_counter=delivered)
            fct_one = markup(f"FCT one port: <b>{fmt_seconds(an['single_fct'])}</b>",
                             size=SMALL_SIZE + 2, color=DROP)
            fct_one.next_to(info, DOWN, buff=0.35, aligned_edge=LEFT)
            self.play(FadeIn(fct_one), run_time=0.5)
            self.wait(1.2)

        # === 5. The same burst sprayed over P spine paths ===
        with self.beat(f"The same burst sprayed packet by packet over {fmt_count(paths)} paths: "
                       f"each spine buffer peaks at {fmt_count(an['spray_peak'])} of {fmt_count(cap)}, "
                       f"nothing is dropped"):
            of_total.clear_updaters()
            self.play(FadeOut(VGroup(buf, port_name, cap_note, wires, clock, clock_name, waited,
                                     one_port, info, of_total)), run_time=0.5)
            xs = np.linspace(-3.0, 1.3, paths)
            sbufs = [self.buffer_column(cap, x, width=0.5) for x in xs]
            names = VGroup(*[label(f"spine {i}", size=SMALL_SIZE - 3, color=SWITCH)
                             .next_to(b.frame, DOWN, buff=0.12) for i, b in enumerate(sbufs)])
            swires = VGroup(*[Line(g.get_right(), b.frame.get_top() + UP * 0.12, stroke_color=MUTED,
                                   stroke_width=1, stroke_opacity=0.18)
                              for g in self.senders for b in sbufs])
            out2 = Line([xs[0], -1.95, 0], self.receiver.get_left(), stroke_color=MUTED, stroke_width=2)
            heading2 = title(f"Packet spraying over {fmt_count(paths)} paths")
            drops2 = counter("dropped", 0, color=DROP)
            delivered2 = counter("delivered", 0)
            sp_note = markup(f"each path: buffer {fmt_count(cap)},\n1 packet per slot",
                             size=SMALL_SIZE)
            info2 = self.panel(sp_note, delivered2, drops2)
            self.play(FadeOut(heading), FadeIn(heading2), FadeOut(out_wire), FadeIn(out2),
                      *[FadeIn(b) for b in sbufs], FadeIn(names), FadeIn(swires), FadeIn(info2),
                      run_time=0.8)
            self.play_slots(an["spray_burst"], sbufs, cap, run_time=0.42,
                            drop_counter=drops2, done_counter=delivered2)
            self.wait(0.4)

        # === 6. The numbers: FCT, and the fan-in a real buffer tolerates ===
        with self.beat(f"FCT {fmt_seconds(an['spray_fct'])} sprayed against "
                       f"{fmt_seconds(an['single_fct'])} on one port. A {fmt_bytes(s['buffer_bytes'])} "
                       f"port drops from N = {fmt_count(s['drop_free_fan_in'] + 1)} senders; "
                       f"{fmt_count(s['question_fan_in'])} need {sig(s['question_buffer_ratio'], 2)}× "
                       f"that buffer"):
            fct_two = markup(f"FCT sprayed: <b>{fmt_seconds(an['spray_fct'])}</b>",
                             size=SMALL_SIZE + 2, color=SPRAY)
            fct_one.generate_target()
            VGroup(fct_two, fct_one.target).arrange(DOWN, aligned_edge=LEFT, buff=0.2) \
                .next_to(info2, DOWN, buff=0.35, aligned_edge=LEFT)
            fct_two.move_to(fct_two.get_center())
            self.play(FadeIn(fct_two), fct_one.animate.move_to(fct_one.target.get_center()),
                      run_time=0.6)
            scale = VGroup(
                markup(f"at scale ({fmt_bytes(s['block_bytes'])} per sender, "
                       f"{fmt_bytes(s['buffer_bytes'])} port):", size=SMALL_SIZE - 1, color=MUTED),
                markup(f"drop-free up to N* = <b>{fmt_count(s['drop_free_fan_in'])}</b> senders",
                       size=SMALL_SIZE - 1, color=INK),
                markup(f"sprayed over {fmt_count(s['paths'])}: N* = "
                       f"<b>{fmt_count(s['drop_free_fan_in_spray'])}</b>", size=SMALL_SIZE - 1,
                       color=SPRAY),
                markup(f"{fmt_count(s['question_fan_in'])} senders: "
                       f"<b>{fmt_bytes(s['question_peak_bytes'])}</b> of queue", size=SMALL_SIZE - 1,
                       color=DROP),
            ).arrange(DOWN, aligned_edge=LEFT, buff=0.12)
            scale.move_to([-3.8, -3.25, 0], aligned_edge=LEFT)
            self.play(FadeIn(scale), run_time=0.8)
            self.wait(3.5)


__all__ = ["IncastAndSpraying"]
