"""Scene ib-vs-roce · InfiniBand vs RoCE v2: lossless transport.

Hosts converge on one egress port of switch A; a victim flow shares switch U's
link into A but goes to an idle port. First InfiniBand's credits (per virtual
lane) flow back against the data and run out; then RoCE v2's PFC: the ingress
queue crosses XOFF, a PAUSE for that priority travels one hop upstream, the
in-flight bytes land in the headroom, and the paused priority stalls the victim
too. Too little headroom drops. Last, each fabric's own congestion control
(InfiniBand FECN/BECN, RoCE ECN/DCQCN) slows the senders, so the victim gets its
demand back under both. A closing beat draws what headroom does not prevent: three
switches in a cycle of paused links, and the PFC watchdog breaking it (a picture, no
numbers: the model does not simulate it). Every number comes from self.data
(models.ib_vs_roce.lossless_transport).
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
    RoundedRectangle,
    VGroup,
    linear,
)

from design import palette
from models.units import fmt_bytes, fmt_count, fmt_percent, fmt_rate, fmt_seconds
from scenes.fabric import (
    PortBuffer,
    Stream,
    credit,
    link,
    packet,
)
from scenes.server_parts import (
    nic,
    switch,
)
from scenes.style import (
    BG,
    INK,
    MUTED,
    SMALL_SIZE,
    ExhibitScene,
    label,
    markup,
    title,
)

DATA = palette.role("data")
VICTIM = palette.role("victim")
CREDIT = palette.role("credit")
PAUSE = palette.role("pause")
MARK = palette.role("highlight")
CC = palette.role("primary")
LABEL = SMALL_SIZE - 2  # 16: the projector floor

A_POS = np.array([0.9, 0.5, 0])
U_POS = np.array([-3.4, 0.5, 0])
BUF_POS = np.array([-1.9, -1.72, 0])
PANEL = np.array([0.0, -1.05, 0])  # top-left corner of the numbers panel


def tag(text: str, color: str) -> VGroup:
    """A control frame in flight (PAUSE, BECN/CNP): a filled tag with its name at the text floor."""
    words = label(text, size=LABEL, color=BG)
    body = RoundedRectangle(corner_radius=0.05, width=words.width + 0.25, height=0.34, stroke_width=0,
                            fill_color=color, fill_opacity=1)
    return VGroup(body, words.move_to(body))


class CreditsVersusPause(ExhibitScene):
    scene_id = "ib-vs-roce"

    def scheme(self, text: str, color: str) -> VGroup:
        """The scheme on show, two lines at the top left, clear of the hosts."""
        return label(text, size=22, color=color).move_to([-6.6, 2.6, 0], aligned_edge=LEFT)

    def panel_text(self, lines: list[str], color=INK, row: int = 0) -> VGroup:
        """Lines of the numbers panel, starting at panel row `row` (0.45 units per row)."""
        g = VGroup(*[markup(t, size=SMALL_SIZE, color=color) for t in lines])
        g.arrange(DOWN, aligned_edge=LEFT, buff=0.2)
        if g.width > 6.6:
            g.scale_to_fit_width(6.6)
        return g.move_to(PANEL + DOWN * 0.45 * row, aligned_edge=UP + LEFT)

    def data_stream(self, k: int) -> Stream:
        """k packets from U to A, alternating the congested flow's colour and the victim's."""
        colours = [DATA, VICTIM]
        count = [0]

        def make():
            c = colours[count[0] % 2]
            count[0] += 1
            return packet(c, size=0.17)
        return Stream(self.u_out, self.a_in, k, make, gap=0.3)

    def mark(self, level: float, name: str, color: str, side=LEFT) -> VGroup:
        """A threshold on A's buffer, named on the left unless `side` says otherwise."""
        m = self.buf.mark(level, name, color=color, size=LABEL)
        if side is LEFT:
            m[1].next_to(m[0], LEFT, buff=0.08)
        return m

    # --- the script: one method per beat --------------------------------------------
    def construct(self) -> None:
        self.fabric()
        self.credits()
        self.credits_run_out()
        self.pfc_pause()
        self.head_of_line_blocking()
        self.short_headroom()
        self.congestion_control()
        self.deadlock()

    def fabric(self) -> None:
        """N senders converge on one port; a victim shares U's link; A's buffer for that port."""
        s = self.data["summary"]
        n, rate = int(s["senders"]), s["link_rate"]
        with self.beat(f"{fmt_count(n)} senders converge on one {fmt_rate(rate)} port of switch A; "
                       f"a victim shares U's link into A, bound for an idle port"):
            heading = title("InfiniBand vs RoCE v2: lossless transport", size=30)
            sw_a = switch("switch A", ports=6, width=2.0).move_to(A_POS)
            self.sw_u = sw_u = switch("switch U", ports=4, width=1.5).move_to(U_POS)
            hosts = VGroup(*[nic(f"host {i + 1}", width=1.0) for i in range(n - 1)])
            hosts.arrange(RIGHT, buff=0.35).move_to(A_POS + np.array([0, 2.0, 0]))
            self.cong = cong = nic("sender", width=1.0).move_to(U_POS + np.array([-2.4, 0.75, 0]))
            self.vic = vic = nic("victim", width=1.0).move_to(U_POS + np.array([-2.4, -0.75, 0]))
            vic[0].set_stroke(VICTIM)
            self.rx_x = rx_x = nic("X", width=0.7).move_to(A_POS + np.array([3.3, 0.7, 0]))
            rx_y = nic("Y", width=0.7).move_to(A_POS + np.array([3.3, -0.7, 0]))
            rx_y[0].set_stroke(VICTIM)
            up_link = link(sw_u[0].get_right(), sw_a[0].get_left(), width=5)
            wires = VGroup(
                up_link,
                *[link(h.get_bottom(), sw_a[0].get_top()) for h in hosts],
                link(cong.get_right(), sw_u[0].get_left()), link(vic.get_right(), sw_u[0].get_left()),
                link(sw_a[0].get_right(), rx_x.get_left(), color=PAUSE, width=5),
                link(sw_a[0].get_right(), rx_y.get_left()),
            )
            wires.set_z_index(-1)
            self.hot = hot = label("bottleneck", size=LABEL, color=PAUSE).next_to(rx_x, UP, buff=0.12)
            idle = label("idle port", size=LABEL, color=VICTIM).next_to(rx_y, DOWN, buff=0.12)
            self.play(FadeIn(heading), FadeIn(wires), FadeIn(sw_a), FadeIn(sw_u), FadeIn(hosts),
                      FadeIn(cong), FadeIn(vic), FadeIn(rx_x), FadeIn(rx_y), FadeIn(hot),
                      FadeIn(idle), run_time=1.2)

            # the ingress buffer at A for the port from U (same size under both schemes)
            self.buf = buf = PortBuffer(s["buffer_per_port"], width=0.45, height=1.9).move_to(BUF_POS)
            buf_name = label("A's buffer for the port from U", size=LABEL, color=MUTED)
            buf_name.next_to(buf, UP, buff=0.15)
            self.play(FadeIn(buf), FadeIn(buf_name), run_time=0.6)
            self.a_in, self.u_out = up_link.get_end() + LEFT * 0.1, up_link.get_start() + RIGHT * 0.1

    def credits(self) -> None:
        """Credits: one per packet, per virtual lane, returned as A frees buffer."""
        s = self.data["summary"]
        credits = int(s["credits"])
        with self.beat(f"InfiniBand: per virtual lane, U spends a credit per packet and A returns it "
                       f"as buffer frees: {fmt_count(credits)} credits of {fmt_bytes(s['mtu'])}, no overflow"):
            self.scheme_label = self.scheme("InfiniBand: credits\nper virtual lane", CREDIT)
            self.pkts = pkts = self.data_stream(12)
            self.creds = creds = Stream(self.a_in + DOWN * 0.28, self.u_out + DOWN * 0.28, 8, lambda: credit(),
                                        gap=0.45)
            self.credit_count = self.panel_text([f"credits at U: <b>{fmt_count(credits)}</b> "
                                                 f"(line rate needs {fmt_count(s['credits_needed'])})"])
            self.add(pkts, creds)
            self.play(FadeIn(self.scheme_label), FadeIn(self.credit_count), run_time=0.5)
            pkts.run(self, 2.2, run_time=2.2)
            self.play(pkts.tau.animate.increment_value(1.6), creds.tau.animate.increment_value(1.6),
                      self.buf.level.animate.set_value(s["credit_max_ingress"] * 0.6),
                      run_time=1.6, rate_func=linear)

    def credits_run_out(self) -> None:
        """Credits run out: the lane stops, and the victim stops with it."""
        s = self.data["summary"]
        with self.beat(f"Without congestion control X drains {fmt_rate(s['fair_share'])} per sender; "
                       f"credits run out, U's lane stalls, the victim gets "
                       f"{fmt_percent(s['credit_victim_share'])}"):
            self.pkts.stalled_at = 0.85
            self.play(self.pkts.tau.animate.increment_value(1.5),
                      self.buf.level.animate.set_value(s["credit_max_ingress"]),
                      self.creds.tau.animate.increment_value(0.4), run_time=1.5, rate_func=linear)
            self.zero = markup("credits at U: <b>0</b>: stalled", size=SMALL_SIZE, color=PAUSE)
            self.zero.move_to(self.credit_count, aligned_edge=LEFT)
            self.vic_note = self.panel_text([f"victim: <b>{fmt_rate(s['credit_victim_throughput'])}</b> "
                                             f"of {fmt_rate(s['victim_rate'])} wanted"], color=VICTIM, row=1)
            self.play(FadeOut(self.credit_count), FadeIn(self.zero), FadeIn(self.vic_note),
                      self.vic[0].animate.set_fill(PAUSE, opacity=0.25), run_time=0.8)
            self.wait(1.6)

    def pfc_pause(self) -> None:
        """PFC: XOFF, a PAUSE for one priority, in-flight bytes land in the headroom."""
        s, buf = self.data["summary"], self.buf
        with self.beat(f"RoCE v2 with PFC: past XOFF ({fmt_bytes(s['xoff'])}) A pauses that priority "
                       f"upstream; {s['cable_length']:g} m of cable needs {fmt_bytes(s['headroom'])} "
                       f"of headroom, a switch reserves {fmt_bytes(s['switch_reserve'])}"):
            self.play(FadeOut(VGroup(self.pkts, self.creds, self.zero, self.vic_note, self.scheme_label)),
                      buf.level.animate.set_value(0), self.vic[0].animate.set_fill(opacity=0), run_time=0.6)
            self.remove(self.pkts, self.creds)
            self.scheme_label = self.scheme("RoCE v2: PFC pauses\none priority (of 8)", PAUSE)
            xoff_m = self.mark(s["xoff"], "XOFF", PAUSE)
            xon_m = self.mark(s["xon"], "XON", MUTED, side=RIGHT)
            head = self.mark(s["buffer_per_port"], "XOFF + headroom", MARK)
            self.play(FadeIn(self.scheme_label), FadeIn(xoff_m), FadeIn(xon_m), FadeIn(head), run_time=0.6)
            self.eq = self.panel_text([
                "headroom = 2·MTU + PAUSE + R·(2·L·t<sub>prop</sub> + t<sub>resp</sub>)",
                f"= {fmt_bytes(s['headroom_mtu_term'])} + {fmt_bytes(s['headroom_cable_term'])}"
                f" + {fmt_bytes(s['headroom_response_term'])} = <b>{fmt_bytes(s['headroom'])}</b> on the wire",
            ])
            self.cells = self.panel_text([f"a switch reserves <b>{fmt_bytes(s['switch_reserve'])}</b> "
                                          f"({fmt_bytes(s['cell_size'])} cells, 64 B packets)"], color=MARK, row=2)
            self.pkts = pkts = self.data_stream(14)
            self.add(pkts)
            self.play(FadeIn(self.eq), run_time=0.5)
            self.play(pkts.tau.animate.increment_value(2.4),
                      buf.level.animate.set_value(s["xoff"]), run_time=2.0, rate_func=linear)
            self.pf = tag("PAUSE", PAUSE).move_to(self.a_in + UP * 0.35)
            self.add(self.pf)
            self.play(self.pf.animate.move_to(self.u_out + UP * 0.35),
                      pkts.tau.animate.increment_value(1.3),
                      buf.level.animate.set_value(s["xoff"] + s["pfc_max_headroom_used"]),
                      FadeIn(self.cells), run_time=1.4, rate_func=linear)

    def head_of_line_blocking(self) -> None:
        """The PAUSE stops that priority on U's link: head-of-line blocking, spreading upstream."""
        s = self.data["summary"]
        with self.beat(f"PAUSE stops that priority on U's link, victim too: it gets "
                       f"{fmt_percent(s['pfc_victim_share'])}; A sent {fmt_count(s['pfc_pauses'])} PAUSE "
                       f"frames in {fmt_seconds(s['sim_time'])}"):
            self.pkts.stalled_at = 0.0
            self.vic_note = self.panel_text([f"victim: <b>{fmt_rate(s['pfc_victim_throughput'])}</b>"
                                             f" of {fmt_rate(s['victim_rate'])} wanted"], color=VICTIM, row=2)
            self.pf2 = tag("PAUSE", PAUSE).move_to(self.sw_u[0].get_left() + LEFT * 0.95 + UP * 0.05)
            self.spread = label("U's queue fills: congestion spreads upstream", size=LABEL, color=PAUSE)
            self.spread.next_to(self.cong, UP, buff=0.3).align_to(self.cong, LEFT)
            self.play(FadeOut(self.cells), FadeIn(self.vic_note), self.vic[0].animate.set_fill(PAUSE, opacity=0.25),
                      self.cong[0].animate.set_fill(PAUSE, opacity=0.25), FadeIn(self.pf2), run_time=0.9)
            self.play(FadeIn(self.spread), run_time=0.5)
            self.wait(2.0)

    def short_headroom(self) -> None:
        """Headroom below the formula: PFC drops after all."""
        s, buf = self.data["summary"], self.buf
        cap, short = s["buffer_per_port"], s["headroom_short"]
        with self.beat(f"With only {fmt_bytes(short)} of headroom the burst overflows: "
                       f"{fmt_count(s['pfc_short_drops'])} packets dropped on a 'lossless' link"):
            self.play(FadeOut(VGroup(self.pkts, self.pf, self.pf2, self.spread, self.vic_note)),
                      self.vic[0].animate.set_fill(opacity=0), self.cong[0].animate.set_fill(opacity=0),
                      buf.level.animate.set_value(s["xon"]), run_time=0.6)
            self.remove(self.pkts)
            self.short_m = self.mark(s["xoff"] + short, "too little", MARK)
            self.short_m[0].set_stroke(width=3)
            self.buf_short = PortBuffer(s["xoff"] + short, width=0.45,
                                        height=1.9 * (s["xoff"] + short) / cap).move_to(buf.frame, aligned_edge=DOWN)
            self.buf_short.level.set_value(s["xon"])
            self.play(FadeIn(self.short_m), run_time=0.4)
            self.remove(buf.fill)
            self.add(self.buf_short.fill)
            self.play(self.buf_short.level.animate.set_value(s["xoff"] + short), run_time=1.0)
            drops = VGroup(*[packet(PAUSE, size=0.15).move_to(buf.frame.get_top() + RIGHT * (0.12 * i - 0.3))
                             for i in range(6)])
            self.add(drops)
            self.play(*[d.animate.shift(DOWN * 0.9 + RIGHT * 0.25 * (i - 2)).set_opacity(0)
                        for i, d in enumerate(drops)], run_time=1.0)
            self.remove(drops)
            self.drop_note = self.panel_text([f"<b>{fmt_count(s['pfc_short_drops'])}</b> drops "
                                              f"with headroom {fmt_bytes(short)} &lt; "
                                              f"{fmt_bytes(s['headroom'])}"], color=PAUSE, row=2)
            self.play(FadeIn(self.drop_note), run_time=0.5)
            self.wait(1.4)

    def congestion_control(self) -> None:
        """Congestion control on both fabrics: slow the senders, not the link."""
        s = self.data["summary"]
        with self.beat(f"With congestion control the senders slow instead: the victim gets "
                       f"{fmt_percent(s['credit_cc_victim_share'])} with FECN/BECN, "
                       f"{fmt_percent(s['pfc_dcqcn_victim_share'])} with DCQCN; PAUSEs fall from "
                       f"{fmt_count(s['pfc_pauses'])} to {fmt_count(s['pfc_dcqcn_pauses'])}"):
            self.play(FadeOut(VGroup(self.drop_note, self.short_m, self.buf_short.fill, self.eq,
                                     self.scheme_label)), run_time=0.5)
            self.add(self.buf.fill)
            scheme_cc = self.scheme("congestion control\non, both fabrics", CC)
            thr = label(f"marks past {fmt_bytes(s['k_min'])}", size=LABEL, color=MARK)
            thr.next_to(self.hot, UP, buff=0.1)
            notice = tag("BECN / CNP", MARK).move_to(self.rx_x.get_center() + LEFT * 0.9 + UP * 0.25)
            pkts = self.data_stream(14)
            self.add(pkts)
            self.play(FadeIn(scheme_cc), FadeIn(thr), FadeIn(notice),
                      self.buf.level.animate.set_value(s["pfc_dcqcn_max_ingress"]),
                      pkts.tau.animate.increment_value(1.2), run_time=1.0, rate_func=linear)
            self.play(notice.animate.move_to(A_POS + UP * 1.05),
                      pkts.tau.animate.increment_value(1.0), run_time=1.0, rate_func=linear)
            final = self.panel_text([
                f"InfiniBand + FECN/BECN: victim <b>{fmt_percent(s['credit_cc_victim_share'])}</b>, "
                f"p99 {fmt_seconds(s['credit_cc_p99_congested'])}",
                f"RoCE v2 + ECN/DCQCN: victim <b>{fmt_percent(s['pfc_dcqcn_victim_share'])}</b>, "
                f"p99 {fmt_seconds(s['pfc_dcqcn_p99_congested'])}, "
                f"<b>{fmt_count(s['pfc_dcqcn_pauses'])}</b> PAUSEs",
                f"CC off: victim {fmt_percent(s['credit_victim_share'])} (IB), "
                f"{fmt_percent(s['pfc_victim_share'])} (RoCE), {fmt_count(s['pfc_pauses'])} PAUSEs",
            ])
            self.play(FadeIn(final), pkts.tau.animate.increment_value(2.6), run_time=2.6,
                      rate_func=linear)
            self.wait(2.0)

    def deadlock(self) -> None:
        """Headroom does not prevent deadlock: three switches whose routes close a loop, each buffer toward
        the next full, each pausing the one before; the PFC watchdog breaks the cycle by dropping. No
        number: the page describes it (hu2016-deadlocks, sonic-pfcwd-hw-recovery) and does not simulate it."""
        with self.beat("A routing loop can deadlock PFC: each full switch pauses the one before; "
                       "a PFC watchdog breaks it by dropping"):
            self.play(*[FadeOut(m) for m in list(self.mobjects)], run_time=0.6)
            heading = title("Deadlock: a cycle of paused links", size=30)
            centre, r = np.array([0.0, -0.2, 0]), 2.2
            spots = [centre + r * np.array([np.cos(a), np.sin(a), 0]) for a in (np.pi / 2, -np.pi / 6, 7 * np.pi / 6)]
            sws = [switch(f"switch {n}", ports=4, width=1.5).move_to(p) for n, p in zip("ABC", spots)]
            edges = []  # A -> B -> C -> A: each link's two ends, clear of the switch bodies
            for i in range(3):
                a, b = spots[i], spots[(i + 1) % 3]
                d = (b - a) / np.linalg.norm(b - a)
                edges.append((a + d * 0.95, b - d * 0.95))
            wires = VGroup(*[link(a, b, arrow=True, width=4) for a, b in edges])
            # each switch's buffer toward the next, on its outer side, clear of the links
            bufs = VGroup(*[PortBuffer(1.0, width=0.22, height=0.7).next_to(sw, side, buff=0.15)
                            for sw, side in zip(sws, (LEFT, RIGHT, LEFT))])
            loop = label("routes close a loop: A → B → C → A", size=LABEL, color=MUTED)
            loop.move_to([0, -2.3, 0])  # under the triangle, above the caption band
            self.play(FadeIn(heading), *[FadeIn(x) for x in sws], FadeIn(wires), FadeIn(bufs), FadeIn(loop),
                      run_time=0.8)
            # every buffer toward the next switch fills; each switch pauses the link feeding it
            # each PAUSE beside its link's middle, on the outside of the loop, leaving the arrowheads in view
            pauses = VGroup(*[tag("PAUSE", PAUSE).move_to((a + b) / 2 + 0.45 * ((a + b) / 2 - centre)
                                                          / np.linalg.norm((a + b) / 2 - centre))
                              for a, b in edges])
            self.play(*[b.level.animate.set_value(1.0) for b in bufs], run_time=0.9)
            self.play(FadeIn(pauses), wires.animate.set_color(PAUSE), run_time=0.6)
            stuck = label("each waits for the next: nothing drains", size=LABEL, color=PAUSE)
            stuck.move_to(loop)
            self.play(FadeOut(loop), FadeIn(stuck), run_time=0.5)
            self.wait(0.8)
            # the watchdog on A's queue: paused past its detection time, it ignores PFC and drops
            dog = label("PFC watchdog: stuck past the detection time, A drops", size=LABEL, color=MARK)
            dog.move_to(stuck)
            drops = VGroup(*[packet(PAUSE, size=0.13).move_to(bufs[0].get_top() + RIGHT * 0.15 * (i - 1))
                             for i in range(3)])
            self.add(drops)
            self.play(FadeOut(stuck), FadeIn(dog), bufs[0].level.animate.set_value(0.3),
                      *[d.animate.shift(DOWN * 0.8 + RIGHT * 0.2 * (i - 1)).set_opacity(0)
                        for i, d in enumerate(drops)], run_time=0.9)
            self.remove(drops)
            # the release runs back round the loop: A, drained, lifts its PAUSE on C's link; C then drains
            # into A and lifts its PAUSE on B's link; B drains into C and lifts its PAUSE on A's link
            for i in (2, 1, 0):
                self.play(FadeOut(pauses[i]), wires[i].animate.set_color(MUTED),
                          *([bufs[i].level.animate.set_value(0.5)] if i else []), run_time=0.35)


__all__ = ["CreditsVersusPause"]
