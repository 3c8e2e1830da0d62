"""Scene incast-spraying · Network incast, microbursts & packet spraying.

First, incast as a GPU fabric sees it: a few GPUs fire a block at one receiver
in the same instant. Every packet must cross the receiver's one port, which
sends one packet per slot; the switch's buffer fills, and when a sender's share
reaches XOFF the switch pauses that sender (PFC, scene ib-vs-roce). Nothing is dropped,
and the block arrives at exactly the port rate: no fabric can deliver more to
one receiver. Every slot drawn is a slot of the model's seeded simulation
(models.incast_spraying.simulate, traced).

Then the same burst without PFC: a drop-tail buffer of a few packets
overflows, the dropped packets fall away, the receiver NAKs the gap and the
sender goes back N (resends drawn in their own colour); a tail loss has no gap
to reveal it, so its sender waits out the transport timer (the model's trace
skips those idle slots, and the scene shows the wait and the jump).

Then where spraying does help: flows leaving a leaf over several equal-cost
uplinks. ECMP hashes each flow onto one uplink (the model's seeded hash), so
some uplinks carry several flows and the step waits for the busiest; sprayed
packet by packet, every uplink carries the same share.
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
    Line,
    Rectangle,
    ReplacementTransform,
    UpdateFromAlphaFunc,
    VGroup,
    linear,
)

from design import palette
from models.units import fmt_count, fmt_percent, fmt_rate, fmt_seconds, sig
from scenes.fabric import PortBuffer, fly, packet
from scenes.server_parts import gpu, switch
from scenes.style import (
    INK,
    MUTED,
    SMALL_SIZE,
    ExhibitScene,
    counter,
    grow_value_bars,
    label,
    legend,
    markup,
    title,
    value_bars,
)

PKT = palette.role("data")
PAUSE = palette.ROLE["pause"]
OK = palette.role("ok")
BAD = palette.role("bad")
SWITCH = palette.ROLE["switch"]
RESENT = palette.role("tertiary")
FLOW_COLOURS = [palette.role(r) for r in ("primary", "secondary", "tertiary", "quaternary")]
SENDER_X = -5.7
RECV_X = 2.3
RECV_Y = -1.9
PANEL_X = 3.3
BUF_H = 2.6
PKT_SIZE = 0.15
UPLINK_UNIT = 0.55  # height of one flow in an uplink's column
UPLINK_WIDTH = 0.8
UPLINK_FLOOR = -1.9


class IncastAndSpraying(ExhibitScene):
    scene_id = "incast-spraying"

    def play_slots(self, events: list[dict], buf: PortBuffer, capacity: int, run_time: float,
                   done_counter, slot_counter, tags, drop_counter=None, sent_so_far=None) -> None:
        """One self.play per simulated slot: arrivals fly in, the head packet leaves, pauses toggle.

        Lossy runs pass drop_counter and sent_so_far (each flow's highest sequence sent): a dropped
        packet turns red and falls away beside the buffer, a resent one (a sequence number sent
        before, after a NAK or a timeout) is drawn in its own colour.
        """
        unit = BUF_H / capacity
        level = 0
        for ev in events:
            movers, anims = [], []
            kept = 0
            for f, seq, dropped in ev["arrivals"]:
                resent = sent_so_far is not None and seq <= sent_so_far[f]
                if sent_so_far is not None:
                    sent_so_far[f] = max(sent_so_far[f], seq)
                src = self.senders[f].get_right()
                top = buf.frame.get_top()
                m = packet(RESENT if resent else PKT, size=PKT_SIZE).move_to(src)
                movers.append(m)
                if dropped:
                    m.set_fill(BAD)
                    lost = top + RIGHT * 0.55 + DOWN * 0.9
                    anims.append(fly(m, [src, top + UP * 0.12, lost]))
                    continue
                y = buf.frame.get_bottom()[1] + unit * (level + kept + 0.5)
                kept += 1
                anims.append(fly(m, [src, top + UP * 0.12, [top[0], y, 0]]))
            for _f, _seq in ev["departures"]:
                start = buf.frame.get_bottom() + UP * unit * 0.5
                m = packet(PKT, size=PKT_SIZE).move_to(start)
                movers.append(m)
                anims.append(fly(m, [start, [start[0], RECV_Y, 0], self.receiver.get_left()]))
            anims.append(buf.level.animate.set_value(ev["queue"]))
            for f, p in enumerate(ev["paused"]):
                want = 1.0 if p else 0.0
                if tags[f].get_fill_opacity() != want:
                    anims.append(tags[f].animate.set_opacity(want))
            if ev.get("timeouts"):
                self.wait_out_the_timer(ev["timeouts"])
            self.add(*movers)
            self.play(*anims, run_time=run_time)
            self.remove(*movers)
            level = ev["queue"] - len(ev["departures"])
            buf.level.set_value(level)
            done_counter[1].set_value(done_counter[1].get_value() + self.in_sequence(ev["departures"], sent_so_far))
            slot_counter[1].set_value(ev["slot"] + 1)
            if drop_counter is not None:
                drop_counter[1].set_value(drop_counter[1].get_value() + sum(a[2] for a in ev["arrivals"]))

    def in_sequence(self, departures: list, lossy) -> int:
        """Departures the receiver keeps: all of them when lossless; in a lossy run only the next
        expected packet of its flow (the responder discards the rest, as the model does)."""
        if lossy is None:
            return len(departures)
        kept = 0
        for f, seq in departures:
            if seq == self.expected[f]:
                self.expected[f] += 1
                kept += 1
        return kept

    def wait_out_the_timer(self, flows: list[int]) -> None:
        """A tail loss: the senders whose timer fires are marked, and a bar fills for the idle timeout."""
        an = self.data["animation"]
        marks = [self.timeout_tags[f] for f in flows if self.timeout_tags[f].get_fill_opacity() == 0]
        if marks:
            self.play(*[m.animate.set_opacity(1.0) for m in marks], run_time=0.3)
        if not self.timer_shown:
            self.timer_shown = True
            frame = Rectangle(width=3.0, height=0.22, stroke_color=MUTED, stroke_width=1.5)
            frame.move_to([PANEL_X, -0.75, 0], aligned_edge=LEFT)
            fill = Rectangle(width=3.0, height=0.22, stroke_width=0, fill_color=BAD, fill_opacity=0.8)
            fill.move_to(frame, aligned_edge=LEFT).stretch_to_fit_width(0.01, about_edge=LEFT)
            note = label(f"idle: timer {fmt_seconds(an['ib_timeout'])}, {fmt_count(an['rtt_slots'])}-slot RTT",
                         size=SMALL_SIZE, color=BAD).next_to(frame, UP, buff=0.1, aligned_edge=LEFT)
            self.play(FadeIn(frame), FadeIn(note), run_time=0.3)
            self.play(fill.animate.stretch_to_fit_width(3.0, about_edge=LEFT), run_time=1.3)
            self.lossy_extras.add(frame, fill, note)

    # --- the script: one method per beat --------------------------------------------
    def construct(self) -> None:
        an = self.data["animation"]
        self.cap = max(an["peak_queue"], 1)
        events = an["events"]
        most = max(sum(e["paused"]) for e in events)
        cut = next(i for i, e in enumerate(events) if sum(e["paused"]) == most) + 1  # the most senders paused
        # the first slot plays inside the opening beat, so its last frame shows packets leaving, not a still port
        self.senders_and_port(events[:1])
        self.burst(events[1:cut])
        self.port_rate(events[cut:])
        lossy, first_timeout = an["lossy_events"], an["lossy_first_timeout"]
        self.lossy_drops(lossy[:first_timeout])
        self.tail_loss(lossy[first_timeout:])
        self.hashed_flows()
        self.sprayed()
        self.reordered()
        self.at_scale()

    def senders_and_port(self, first: list[dict]) -> None:
        """N GPUs, one receiver, one port; the counters' panel; then `first`, the burst's first slot, leaves."""
        an = self.data["animation"]
        n, k, cap = an["senders"], an["block_packets"], self.cap
        with self.beat(f"{n} GPUs each send {fmt_count(k)} packets to one receiver at once, all through "
                       f"its one port"):
            self.heading = title("Incast: many senders, one receiver port")
            self.play(FadeIn(self.heading), run_time=0.5)
            ys = np.linspace(2.2, -2.0, n)
            self.senders = VGroup(*[gpu(f"GPU {i}", width=0.95, height=0.45).move_to([SENDER_X, y, 0])
                                    for i, y in enumerate(ys)])
            self.tags = VGroup(*[label("PAUSED", size=SMALL_SIZE - 2, color=PAUSE)
                                 .next_to(g, RIGHT, buff=0.15).set_opacity(0) for g in self.senders])
            self.buf = buf = PortBuffer(cap, width=0.7, height=BUF_H, color=PKT, over_color=PKT)
            buf.move_to([-1.2, 0.1, 0])
            self.port_name = label("switch port to the receiver", size=SMALL_SIZE, color=SWITCH)
            self.port_name.next_to(buf.frame, RIGHT, buff=0.2).align_to(buf.frame, UP)
            self.receiver = gpu("receiver", width=1.3, height=0.6).move_to([RECV_X, RECV_Y, 0])
            self.wires = VGroup(*[Line(g.get_right() + RIGHT * 1.05, buf.frame.get_top() + UP * 0.12,
                                       stroke_color=MUTED, stroke_width=1, stroke_opacity=0.5)
                                  for g in self.senders])
            self.out_wire = Line([buf.frame.get_x(), RECV_Y, 0], self.receiver.get_left(),
                                 stroke_color=MUTED, stroke_width=2)
            self.rate_note = label("1 packet per slot", size=SMALL_SIZE, color=MUTED)
            self.rate_note.next_to(self.out_wire, UP, buff=0.1).shift(RIGHT * 0.35)
            self.play(FadeIn(self.senders), FadeIn(self.wires), FadeIn(buf), FadeIn(self.port_name),
                      FadeIn(self.receiver), FadeIn(self.out_wire), FadeIn(self.rate_note), FadeIn(self.tags),
                      run_time=1.0)
            self.delivered = counter("delivered", 0, size=SMALL_SIZE + 2)
            self.slots = counter("slots", 0, size=SMALL_SIZE + 2)
            self.dropped = counter("dropped", 0, size=SMALL_SIZE + 2, color=OK)
            key = legend([("packet", PKT), ("sender paused", PAUSE)], size=SMALL_SIZE - 2)
            self.info = VGroup(self.delivered, self.slots, self.dropped, key).arrange(DOWN, aligned_edge=LEFT,
                                                                                       buff=0.25)
            self.info.move_to([PANEL_X, 1.6, 0], aligned_edge=UP + LEFT)
            self.play(FadeIn(self.info), run_time=0.6)
            self.play_slots(first, self.buf, self.cap, run_time=0.5, done_counter=self.delivered,
                            slot_counter=self.slots, tags=self.tags)
            self.wait(0.5)

    def burst(self, events: list[dict]) -> None:
        """The burst, up to the slot with the most senders paused: the queue builds, PFC pauses."""
        xoff = self.data["animation"]["xoff_packets"]
        with self.beat(f"The port drains a packet per slot; the queue builds. A sender with "
                       f"{fmt_count(xoff)} queued is paused (PFC)"):
            self.play_slots(events, self.buf, self.cap, run_time=0.3, done_counter=self.delivered,
                            slot_counter=self.slots, tags=self.tags)
            self.wait(0.6)

    def port_rate(self, events: list[dict]) -> None:
        """The rest of the burst, and the result: exactly the port rate."""
        s, an = self.data["summary"], self.data["animation"]
        n, k = an["senders"], an["block_packets"]
        with self.beat(f"Senders resume: {fmt_count(n * k)} packets in {fmt_count(an['fct_slots'])} slots, "
                       f"none dropped. The receiver gets its port rate, {fmt_rate(s['port_rate'])}"):
            self.play_slots(events, self.buf, self.cap, run_time=0.22, done_counter=self.delivered,
                            slot_counter=self.slots, tags=self.tags)
            self.res = markup(f"{fmt_count(n * k)} packets\n{fmt_count(an['fct_slots'])} slots\n"
                              f"= <b>{fmt_rate(s['port_rate'])}</b>, the port rate", size=SMALL_SIZE + 2,
                              color=OK)
            self.res.next_to(self.info, DOWN, buff=0.4, aligned_edge=LEFT)
            self.play(FadeIn(self.res), run_time=0.6)
            self.wait(0.8)

    def lossy_drops(self, events: list[dict]) -> None:
        """The same burst without PFC: a small drop-tail buffer overflows; NAK and go-back-N."""
        an = self.data["animation"]
        B = an["lossy_buffer"]
        with self.beat(f"Without PFC, a {fmt_count(B)}-packet buffer overflows: drops, a NAK for the gap, "
                       f"and the sender goes back N"):
            heading = title("Without PFC: drop, NAK, go back N")
            lossy_buf = PortBuffer(B, width=0.7, height=BUF_H, color=PKT, over_color=BAD).move_to(self.buf)
            self.timeout_tags = VGroup(*[label("TIMEOUT", size=SMALL_SIZE - 2, color=BAD)
                                         .next_to(g, RIGHT, buff=0.15).set_opacity(0) for g in self.senders])
            key = legend([("dropped", BAD), ("resent", RESENT)], size=SMALL_SIZE - 2)
            key.move_to(self.info[3], aligned_edge=LEFT)
            self.lossy_extras = VGroup(key)
            self.timer_shown = False
            self.play(FadeOut(self.res), FadeOut(self.buf), FadeIn(lossy_buf), FadeIn(self.timeout_tags),
                      ReplacementTransform(self.heading, heading), FadeIn(key),
                      self.dropped[1].animate.set_color(BAD), FadeOut(self.info[3]), run_time=0.6)
            self.heading, self.buf = heading, lossy_buf
            for c in (self.delivered, self.slots):
                c[1].set_value(0)
            self.sent_so_far = [-1] * an["senders"]
            self.expected = [0] * an["senders"]
            self.play_slots(events, self.buf, B, run_time=0.25, done_counter=self.delivered,
                            slot_counter=self.slots, tags=self.tags, drop_counter=self.dropped,
                            sent_so_far=self.sent_so_far)
            self.wait(0.6)

    def tail_loss(self, events: list[dict]) -> None:
        """A lost last packet: nothing behind it to reveal the gap, so its sender waits out the timer."""
        an = self.data["animation"]
        n, k = an["senders"], an["block_packets"]
        with self.beat(f"A lost last packet leaves no gap to NAK: its sender waits out the "
                       f"{fmt_seconds(an['ib_timeout'])} timer. The block takes {fmt_seconds(an['lossy_fct'])}"):
            self.play_slots(events, self.buf, an["lossy_buffer"], run_time=0.25, done_counter=self.delivered,
                            slot_counter=self.slots, tags=self.tags, drop_counter=self.dropped,
                            sent_so_far=self.sent_so_far)
            self.res = markup(f"{fmt_count(n * k)} packets in <b>{fmt_seconds(an['lossy_fct'])}</b>\n"
                              f"lossless: {fmt_seconds(an['fct_slots'] * an['slot'])}", size=SMALL_SIZE + 2,
                              color=BAD)
            self.res.move_to([PANEL_X, -1.45, 0], aligned_edge=UP + LEFT)
            self.play(FadeIn(self.res), run_time=0.5)
            self.wait(0.6)

    def hashed_flows(self) -> None:
        """Where spraying helps: flows hashed onto uplinks, the busiest sets the step."""
        an = self.data["animation"]
        P, F, hsh, loads = an["uplinks"], an["flows"], an["hash"], an["loads"]
        with self.beat(f"{fmt_count(F)} flows leave a leaf on {fmt_count(P)} uplinks. ECMP pins each flow "
                       f"to one: the busiest carries {fmt_count(an['max_load'])}"):
            self.play(FadeOut(VGroup(self.senders, self.tags, self.timeout_tags, self.buf, self.port_name,
                                     self.receiver, self.wires, self.out_wire, self.rate_note, self.info, self.res,
                                     self.heading, self.lossy_extras)),
                      run_time=0.6)
            self.heading = heading2 = title(f"{fmt_count(F)} flows, {fmt_count(P)} uplinks")
            leaf = switch("leaf", ports=F, width=3.2, height=0.55).move_to([-4.2, -1.9, 0])
            unit, col_w, floor = UPLINK_UNIT, UPLINK_WIDTH, UPLINK_FLOOR
            self.xs = xs = np.linspace(-1.6, 3.4, P)
            self.cols = cols = VGroup(*[Rectangle(width=col_w, height=unit * max(loads) + 0.3, stroke_color=MUTED,
                                                  stroke_width=2).move_to([x, floor, 0], aligned_edge=DOWN)
                                        for x in xs])
            names = VGroup(*[label(f"uplink {j}", size=SMALL_SIZE - 2, color=SWITCH)
                             .next_to(c, DOWN, buff=0.12) for j, c in enumerate(cols)])
            self.blocks = blocks = VGroup(*[Rectangle(width=col_w - 0.12, height=unit - 0.06, stroke_width=0,
                                                      fill_color=FLOW_COLOURS[i % 4], fill_opacity=0.95)
                                            for i in range(F)])
            src = leaf.get_top() + UP * 0.5
            for i, b in enumerate(blocks):
                b.move_to(src + RIGHT * (i - F / 2) * 0.3)
            self.play(FadeIn(heading2), FadeIn(leaf), FadeIn(cols), FadeIn(names), FadeIn(blocks), run_time=0.8)
            self.small = VGroup(leaf, cols, names)
            height = [0] * P
            moves = []
            for i, j in enumerate(hsh):
                target = [xs[j], floor + unit * (height[j] + 0.5), 0]
                height[j] += 1
                moves.append(blocks[i].animate.move_to(target))
            self.play(*moves, run_time=1.4)
            top_e = floor + unit * max(loads)
            line_e = DashedLine([xs[0] - 0.6, top_e, 0], [xs[-1] + 0.6, top_e, 0], color=BAD, stroke_width=2)
            self.note_e = label(f"ECMP: the step waits for {fmt_count(an['max_load'])} flows on one uplink",
                                size=SMALL_SIZE, color=BAD).next_to(cols, UP, buff=0.5)
            self.play(FadeIn(line_e), FadeIn(self.note_e), run_time=0.6)
            self.small.add(line_e, self.note_e)
            self.wait(1.0)

    def sprayed(self) -> None:
        """Sprayed packet by packet: every uplink carries the same share."""
        an = self.data["animation"]
        P, F, xs = an["uplinks"], an["flows"], self.xs
        unit, col_w, floor = UPLINK_UNIT, UPLINK_WIDTH, UPLINK_FLOOR
        with self.beat(f"Sprayed per packet, each uplink carries {fmt_count(an['spray_load'])} flows' worth: "
                       f"{sig(an['max_load'] / an['spray_load'], 2)}× sooner, if the NIC takes packets out of "
                       f"order"):
            slivers = []
            anims = []
            for i, b in enumerate(self.blocks):
                parts = VGroup(*[Rectangle(width=col_w - 0.12, height=unit / P - 0.02, stroke_width=0,
                                           fill_color=FLOW_COLOURS[i % 4], fill_opacity=0.95)
                                 .move_to([xs[j], floor + unit / P * (i + 0.5), 0]) for j in range(P)])
                slivers.append(parts)
                anims.append(ReplacementTransform(b, parts))
            self.play(*anims, run_time=1.4)
            top_s = floor + unit * F / P
            line_s = DashedLine([xs[0] - 0.6, top_s, 0], [xs[-1] + 0.6, top_s, 0], color=OK, stroke_width=2)
            note_s = label(f"sprayed: {fmt_count(an['spray_load'])} flows' worth on every uplink",
                           size=SMALL_SIZE, color=OK).next_to(self.note_e, UP, buff=0.15)
            self.play(FadeIn(line_s), FadeIn(note_s), run_time=0.6)
            self.small.add(line_s, note_s, *slivers)
            self.wait(1.0)

    def reordered(self) -> None:
        """Spraying reorders: one flow over uplinks with different queues; an in-order receiver discards."""
        an, s = self.data["animation"], self.data["summary"]
        P, n, slot = an["uplinks"], an["reorder_packets"], an["slot"]
        delays, arrive, order, kept = (an[k] for k in ("reorder_delays", "reorder_arrive", "reorder_order",
                                                       "reorder_kept"))
        with self.beat(f"Spraying reorders: one uplink {fmt_seconds(s['path_skew'])} deeper, packets overtake. "
                       f"An in-order receiver drops {fmt_count(an['reorder_discarded'])} of {fmt_count(n)}, goes "
                       f"back N: on {fmt_count(s['uplinks'])} uplinks, {sig(s['gbn_over_placed'], 2)}× as long"):
            heading = title("Spraying reorders packets")
            self.play(FadeOut(self.small), ReplacementTransform(self.heading, heading), run_time=0.6)
            self.heading = heading
            x0, x1, row_y = -4.3, 1.2, -0.7
            ys = np.linspace(2.3, 0.3, P)
            sender = gpu("sender", width=1.1, height=0.5).move_to([-5.9, ys.mean(), 0])
            receiver = gpu("receiver", width=1.3, height=0.5).move_to([2.8, ys.mean(), 0])
            lanes = VGroup(*[Line([x0, y, 0], [x1, y, 0], stroke_color=MUTED, stroke_width=2) for y in ys])
            names = VGroup(*[label(f"uplink {j}" + (f", queue +{fmt_seconds(d * slot)}" if d > 0 else ""),
                                   size=SMALL_SIZE - 2, color=SWITCH)
                             .next_to(lanes[j], UP, buff=0.06).align_to(lanes[j], LEFT)
                             for j, d in enumerate(delays)])
            self.play(FadeIn(sender), FadeIn(receiver), FadeIn(lanes), FadeIn(names), run_time=0.6)
            step = 0.48
            row = [np.array([1.0 + step * k, row_y, 0]) for k in range(n)]
            rank = {i: k for k, i in enumerate(order)}
            pkts = [VGroup(packet(PKT, size=0.38), label(str(i), size=SMALL_SIZE - 2, color=INK)) for i in range(n)]
            travel = 3.0  # slots of flight every packet takes on top of its uplink's queue
            span = max(arrive) + travel + 1.0

            def mover(i: int):
                start, end = np.array([x0, ys[i % P], 0]), np.array([x1, ys[i % P], 0])
                leave, land = float(i), arrive[i] + travel

                def update(m, a):
                    tau = a * span
                    if tau < leave:
                        m.move_to(start).set_opacity(0)
                        return
                    m.set_opacity(1)
                    if tau < land:
                        m.move_to(start + (end - start) * (tau - leave) / (land - leave))
                    else:
                        m.move_to(end + (row[rank[i]] - end) * min(1.0, (tau - land) / 0.8))
                return update

            for m in pkts:
                m.set_opacity(0)
            self.add(*pkts)
            self.play(*[UpdateFromAlphaFunc(m, mover(i), rate_func=linear) for i, m in enumerate(pkts)], run_time=3.2)
            arrived = label("arrival order at the receiver", size=SMALL_SIZE - 2, color=MUTED)
            arrived.next_to(VGroup(*[pkts[i] for i in order]), DOWN, buff=0.12).align_to(pkts[order[0]], LEFT)
            marks = [pkts[i][0].animate.set_fill(OK if kept[k] else BAD) for k, i in enumerate(order)]
            self.play(FadeIn(arrived), *marks, run_time=0.8)
            notes = VGroup(
                label(f"kept in order: {fmt_count(sum(kept))}", size=SMALL_SIZE, color=OK),
                label(f"discarded: {fmt_count(an['reorder_discarded'])}", size=SMALL_SIZE, color=BAD),
                label(f"go back to packet {fmt_count(an['reorder_resume_at'])}", size=SMALL_SIZE, color=INK),
                # the page's result: a full block on the model's uplinks (median of seeded draws), not this drawing
                markup(f"{fmt_count(s['block_packets'])} packets on {fmt_count(s['uplinks'])} uplinks:",
                       size=SMALL_SIZE, color=INK),
                markup(f"block <b>{sig(s['gbn_over_placed'], 2)}×</b> as long", size=SMALL_SIZE + 2, color=BAD),
            ).arrange(DOWN, aligned_edge=LEFT, buff=0.18).move_to([-5.9, -0.5, 0], aligned_edge=UP + LEFT)
            self.play(FadeIn(notes), run_time=0.6)
            self.wait(1.0)
            self.small = VGroup(sender, receiver, lanes, names, arrived, notes, *pkts)

    def at_scale(self) -> None:
        """At scale: the exact expectations, oblivious versus adaptive spraying, and the port-rate ceiling."""
        s = self.data["summary"]
        busy = fmt_percent(s["busy_uplink_load"], 2)
        with self.beat(f"{fmt_count(s['flows_eq'])} flows on {fmt_count(s['uplinks'])} uplinks, one {busy} busy: "
                       f"round-robin waits for it, adaptive spraying does not"):
            heading = title(f"At scale: {fmt_count(s['flows_eq'])} flows, {fmt_count(s['uplinks'])} uplinks")
            self.play(FadeOut(self.small), ReplacementTransform(self.heading, heading), run_time=0.6)
            rows = value_bars(
                [("ECMP, all uplinks free (mean)", s["emax_eq"], f"{sig(s['emax_eq'], 3)}", BAD),
                 ("sprayed, all uplinks free", s["spray_eq"], f"{sig(s['spray_eq'], 3)}", OK),
                 (f"ECMP, one uplink {busy} busy (mean)", s["ecmp_busy_eq"], f"{sig(s['ecmp_busy_eq'], 3)}", BAD),
                 (f"round-robin, one uplink {busy} busy", s["oblivious_busy_eq"],
                  f"{sig(s['oblivious_busy_eq'], 3)}", RESENT),
                 (f"adaptive, one uplink {busy} busy", s["adaptive_busy_eq"], f"{sig(s['adaptive_busy_eq'], 3)}",
                  OK)],
                top=max(s["emax_eq"], s["ecmp_busy_eq"], s["oblivious_busy_eq"]), width=4.2, size=SMALL_SIZE + 2)
            unit = label("step time, in flows' worth at the full rate", size=SMALL_SIZE, color=MUTED)
            ceiling = markup(f"one receiver still gets at most <b>{fmt_rate(s['port_rate'])}</b>",
                             size=SMALL_SIZE + 2, color=INK)
            VGroup(unit, rows, ceiling).arrange(DOWN, aligned_edge=LEFT, buff=0.35).move_to([0, -0.2, 0])
            self.play(FadeIn(unit), *grow_value_bars(rows), run_time=1.4)
            self.play(FadeIn(ceiling), run_time=0.5)
            self.wait(0.5)


__all__ = ["IncastAndSpraying"]
