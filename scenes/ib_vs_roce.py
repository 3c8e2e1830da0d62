"""Scene 05 · InfiniBand vs RoCE v2: lossless transport.

Hosts converge on one egress port of switch A; a victim flow shares switch U's
link into A but goes to an idle port. First InfiniBand's credits flow back
against the data and run out; then RoCE v2's PFC: the ingress queue crosses
XOFF, a PAUSE frame travels one hop upstream, the in-flight bytes land in the
headroom, and the paused link stalls the victim too. Too little headroom
drops; ECN/DCQCN slows the senders so the pauses (nearly) stop. Every number
comes from self.data (models.lossless.lossless_transport).
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
    pause_frame,
)
from scenes.server_parts import (
    nic,
    switch,
)
from scenes.style import (
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

A_POS = np.array([0.9, 0.5, 0])
U_POS = np.array([-3.4, 0.5, 0])
PANEL = np.array([0.0, -1.05, 0])  # top-left corner of the numbers panel



class CreditsVersusPause(ExhibitScene):
    scene_id = "ib-vs-roce"

    def panel_text(self, lines: list[str], color=INK, row: int = 0) -> VGroup:
        """Lines of the numbers panel, starting at panel row `row` (0.45 units per row)."""
        g = VGroup(*[markup(t, size=SMALL_SIZE, color=color) for t in lines])
        g.arrange(DOWN, aligned_edge=LEFT, buff=0.2)
        if g.width > 6.8:
            g.scale_to_fit_width(6.8)
        return g.move_to(PANEL + DOWN * 0.45 * row, aligned_edge=UP + LEFT)

    def construct(self) -> None:
        s = self.data["summary"]
        mtu, n = s["mtu"], int(s["senders"])
        rate = s["link_rate"]

        # === 1. The fabric: N senders converge on one port; a victim shares U's link ===
        with self.beat(f"{fmt_count(n)} senders converge on one {fmt_rate(rate)} port of switch A; "
                       f"a victim flow shares switch U's link into A but goes to an idle port"):
            heading = title("InfiniBand vs RoCE v2: lossless transport", size=30)
            sw_a = switch("switch A", ports=6, width=2.0).move_to(A_POS)
            sw_u = switch("switch U", ports=4, width=1.5).move_to(U_POS)
            hosts = VGroup(*[nic(f"host {i + 1}", width=1.0) for i in range(n - 1)])
            hosts.arrange(RIGHT, buff=0.35).move_to(A_POS + np.array([0, 2.0, 0]))
            cong = nic("sender", width=1.0).move_to(U_POS + np.array([-2.4, 0.75, 0]))
            vic = nic("victim", width=1.0).move_to(U_POS + np.array([-2.4, -0.75, 0]))
            vic[0].set_stroke(VICTIM)
            rx_x = nic("X", width=0.7).move_to(A_POS + np.array([3.3, 0.7, 0]))
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
            hot = label("bottleneck", size=15, color=PAUSE).next_to(wires[-2], UP, buff=0.05)
            hot.shift(RIGHT * 0.15)
            idle = label("idle port", size=15, color=VICTIM).next_to(wires[-1], DOWN, buff=0.05)
            self.play(FadeIn(heading), FadeIn(wires), FadeIn(sw_a), FadeIn(sw_u), FadeIn(hosts),
                      FadeIn(cong), FadeIn(vic), FadeIn(rx_x), FadeIn(rx_y), FadeIn(hot),
                      FadeIn(idle), run_time=1.2)

            # the ingress buffer at A for the port from U (same size under both schemes)
            cap = s["buffer_per_port"]
            buf = PortBuffer(cap, width=0.45, height=1.9).move_to([-1.05, -1.75, 0])
            buf_name = label("A's buffer for\nthe port from U", size=15, color=MUTED)
            buf_name.next_to(buf, LEFT, buff=0.2)
            self.play(FadeIn(buf), FadeIn(buf_name), run_time=0.6)

            a_in, u_out = up_link.get_end() + LEFT * 0.1, up_link.get_start() + RIGHT * 0.1
            colours = [DATA, VICTIM]

            def data_stream(k: int) -> Stream:
                count = [0]

                def make():
                    c = colours[count[0] % 2]
                    count[0] += 1
                    return packet(c, size=0.17)
                return Stream(u_out, a_in, k, make, gap=0.3)

            # === 2. Credits: one per packet, returned as A frees buffer ===
            credits = int(s["credits"])
        with self.beat(f"InfiniBand: U spends one credit per packet and A hands credits back as it "
                       f"frees buffer: {fmt_count(credits)} credits of {fmt_bytes(mtu)}, "
                       f"so nothing can overflow"):
            scheme = label("credit-based flow control", size=22, color=CREDIT)
            scheme.move_to([-3.4, 2.6, 0])
            pkts = data_stream(12)
            creds = Stream(a_in + DOWN * 0.28, u_out + DOWN * 0.28, 8, lambda: credit(), gap=0.45)
            credit_count = self.panel_text([f"credits at U: <b>{fmt_count(credits)}</b> "
                                            f"(line rate needs {fmt_count(s['credits_needed'])})"])
            self.add(pkts, creds)
            self.play(FadeIn(scheme), FadeIn(credit_count), run_time=0.5)
            pkts.run(self, 2.2, run_time=2.2)
            self.play(pkts.tau.animate.increment_value(1.6), creds.tau.animate.increment_value(1.6),
                      buf.level.animate.set_value(s["credit_max_ingress"] * 0.6),
                      run_time=1.6, rate_func=linear)

        # === 3. Credits run out: the link stops, and the victim stops with it ===
        with self.beat(f"X drains only {fmt_rate(s['fair_share'])} per sender, so the credits run out: "
                       f"U's link stalls and the victim gets {fmt_percent(s['credit_victim_share'])} "
                       f"of its demand"):
            pkts.stalled_at = 0.85
            self.play(pkts.tau.animate.increment_value(1.5),
                      buf.level.animate.set_value(s["credit_max_ingress"]),
                      creds.tau.animate.increment_value(0.4), run_time=1.5, rate_func=linear)
            zero = markup("credits at U: <b>0</b>: stalled", size=SMALL_SIZE, color=PAUSE)
            zero.move_to(credit_count, aligned_edge=LEFT)
            vic_note = self.panel_text([f"victim: <b>{fmt_rate(s['credit_victim_throughput'])}</b> "
                                        f"of {fmt_rate(s['victim_rate'])} wanted"], color=VICTIM, row=1)
            self.play(FadeOut(credit_count), FadeIn(zero), FadeIn(vic_note),
                      vic[0].animate.set_fill(PAUSE, opacity=0.25), run_time=0.8)
            self.wait(1.6)
            self.play(FadeOut(VGroup(pkts, creds, zero, vic_note, scheme)),
                      buf.level.animate.set_value(0), vic[0].animate.set_fill(opacity=0),
                      run_time=0.7)
            self.remove(pkts, creds)

        # === 4. PFC: XOFF, a PAUSE one hop upstream, in-flight bytes land in headroom ===
        with self.beat(f"RoCE v2 with PFC: past XOFF ({fmt_bytes(s['xoff'])}) A sends PAUSE upstream; "
                       f"the bytes already in flight over {s['cable_length']:g} m land in "
                       f"{fmt_bytes(s['headroom'])} of headroom"):
            scheme = label("priority flow control (PFC)", size=22, color=PAUSE)
            scheme.move_to([-3.4, 2.6, 0])
            xoff_m = buf.mark(s["xoff"], "XOFF", color=PAUSE)
            xon_m = buf.mark(s["xon"], "XON", color=MUTED)
            xon_m[1].shift(DOWN * 0.12)
            head = buf.mark(cap, "top: XOFF + headroom", color=MARK)
            self.play(FadeIn(scheme), FadeIn(xoff_m), FadeIn(xon_m), FadeIn(head), run_time=0.6)
            eq = self.panel_text([
                "headroom = 2·MTU + PAUSE + R·(2·L·t<sub>prop</sub> + t<sub>resp</sub>)",
                f"= {fmt_bytes(s['headroom_mtu_term'])} + {fmt_bytes(s['headroom_cable_term'])}"
                f" + {fmt_bytes(s['headroom_response_term'])} = <b>{fmt_bytes(s['headroom'])}</b>",
            ])
            pkts = data_stream(14)
            self.add(pkts)
            self.play(FadeIn(eq), run_time=0.5)
            self.play(pkts.tau.animate.increment_value(2.4),
                      buf.level.animate.set_value(s["xoff"]), run_time=2.0, rate_func=linear)
            pf = pause_frame().move_to(a_in + UP * 0.35)
            self.add(pf)
            self.play(pf.animate.move_to(u_out + UP * 0.35),
                      pkts.tau.animate.increment_value(1.3),
                      buf.level.animate.set_value(s["xoff"] + s["pfc_max_headroom_used"]),
                      run_time=1.4, rate_func=linear)

        # === 5. The PAUSE stops the whole link: head-of-line blocking ===
        with self.beat(f"The PAUSE stops everything on U's link, the victim too: it gets "
                       f"{fmt_percent(s['pfc_victim_share'])} of its demand, and A sent "
                       f"{fmt_count(s['pfc_pauses'])} PAUSE frames in {fmt_seconds(s['sim_time'])}"):
            pkts.stalled_at = 0.0
            vic_note = self.panel_text([f"victim: <b>{fmt_rate(s['pfc_victim_throughput'])}</b>"
                                        f" of {fmt_rate(s['victim_rate'])}; p99 latency "
                                        f"{fmt_seconds(s['pfc_p99_victim'])}"], color=VICTIM, row=2)
            pf2 = pause_frame().scale(0.8).move_to(sw_u[0].get_left() + LEFT * 0.9 + UP * 0.05)
            self.play(FadeIn(vic_note), vic[0].animate.set_fill(PAUSE, opacity=0.25),
                      cong[0].animate.set_fill(PAUSE, opacity=0.25), FadeIn(pf2),
                      run_time=0.9)
            spread = label("U's queue fills: congestion spreads upstream", size=16, color=PAUSE)
            spread.next_to(vic, DOWN, buff=0.3).align_to(vic, LEFT)
            self.play(FadeIn(spread), run_time=0.5)
            self.wait(2.0)
            self.play(FadeOut(VGroup(pkts, pf, pf2, spread, vic_note)),
                      vic[0].animate.set_fill(opacity=0), cong[0].animate.set_fill(opacity=0),
                      buf.level.animate.set_value(s["xon"]), run_time=0.7)
            self.remove(pkts)

            # === 6. Headroom below the formula: PFC drops after all ===
            short = s["headroom_short"]
        with self.beat(f"Give the port only {fmt_bytes(short)} of headroom and the same burst "
                       f"overflows it: {fmt_count(s['pfc_short_drops'])} packets dropped "
                       f"on a 'lossless' link"):
            short_m = buf.mark(s["xoff"] + short, "short headroom", color=MARK)
            short_m[0].set_stroke(width=3)
            buf_short = PortBuffer(s["xoff"] + short, width=0.45,
                                   height=1.9 * (s["xoff"] + short) / cap).move_to(buf.frame,
                                                                                   aligned_edge=DOWN)
            buf_short.level.set_value(s["xon"])
            self.play(FadeIn(short_m), run_time=0.4)
            self.remove(buf.fill)
            self.add(buf_short.fill)
            self.play(buf_short.level.animate.set_value(s["xoff"] + short), run_time=1.0)
            drops = VGroup(*[packet(PAUSE, size=0.15).move_to(buf.frame.get_top() + RIGHT * (0.12 * i - 0.3))
                             for i in range(6)])
            self.add(drops)
            self.play(*[d.animate.shift(DOWN * 1.0 + RIGHT * 0.25 * (i - 2)).set_opacity(0)
                        for i, d in enumerate(drops)], run_time=1.0)
            drop_note = self.panel_text([f"<b>{fmt_count(s['pfc_short_drops'])}</b> drops "
                                        f"with headroom {fmt_bytes(short)} &lt; "
                                        f"{fmt_bytes(s['headroom'])}"], color=PAUSE, row=2)
            self.play(FadeIn(drop_note), run_time=0.5)
            self.wait(1.4)
            self.play(FadeOut(VGroup(drops, drop_note, short_m, buf_short.fill, eq)), run_time=0.6)
            self.add(buf.fill)

        # === 7. ECN/DCQCN: slow the senders, so PFC rarely has to fire ===
        with self.beat(f"With ECN marks from {fmt_bytes(s['k_min'])} and DCQCN rate cuts, PAUSE frames "
                       f"fall from {fmt_count(s['pfc_pauses'])} to {fmt_count(s['pfc_dcqcn_pauses'])} "
                       f"and the victim gets {fmt_percent(s['pfc_dcqcn_victim_share'])} of its demand"):
            kmin = label(f"ECN K_min {fmt_bytes(s['k_min'])} at the egress to X", size=15, color=MARK)
            kmin.next_to(rx_x, UP, buff=0.15).shift(LEFT * 0.4)
            cnp = label("CNPs slow the senders", size=15, color=MARK).next_to(hosts, LEFT, buff=0.3)
            cnp.align_to(hosts, DOWN)
            scheme_cc = label("PFC + ECN/DCQCN", size=22, color=palette.role("primary"))
            scheme_cc.move_to(scheme, aligned_edge=LEFT)
            pkts = data_stream(14)
            self.add(pkts)
            self.play(FadeIn(kmin), FadeIn(cnp), FadeOut(scheme), FadeIn(scheme_cc), buf.level.animate.set_value(s["pfc_dcqcn_max_ingress"]),
                      pkts.tau.animate.increment_value(1.2), run_time=1.0, rate_func=linear)
            final = self.panel_text([
                f"PFC alone: {fmt_count(s['pfc_pauses'])} PAUSEs, victim "
                f"{fmt_percent(s['pfc_victim_share'])}, p99 {fmt_seconds(s['pfc_p99_congested'])}",
                f"PFC + DCQCN: {fmt_count(s['pfc_dcqcn_pauses'])} PAUSEs, victim "
                f"<b>{fmt_percent(s['pfc_dcqcn_victim_share'])}</b>, "
                f"p99 <b>{fmt_seconds(s['pfc_dcqcn_p99_congested'])}</b>",
            ])
            self.play(FadeIn(final), pkts.tau.animate.increment_value(3.0), run_time=3.0,
                      rate_func=linear)
            self.wait(2.0)


__all__ = ["CreditsVersusPause"]
