"""Scene rail-fat-tree · Rail-optimized fat-tree & Dragonfly+.

One scalable unit is wired rail by rail: GPU r of every node plugs into leaf
r, then the spines join the rails. A same-rail all-reduce step stays at the
leaves (two links); a cross-rail step climbs to the spines (four links). The
closing beats draw the scenario's cluster built from the same switches, as a
three-tier fat-tree of pods and as a Dragonfly+ of fully connected groups. Every number comes from self.data
(models.rail_fat_tree.rail_fat_tree).
"""

from __future__ import annotations

import numpy as np
from manim import (
    DOWN,
    LEFT,
    RIGHT,
    Create,
    FadeIn,
    FadeOut,
    Line,
    Rectangle,
    Square,
    VGroup,
)

from design import palette
from models.units import fmt_count, fmt_percent, fmt_rate
from scenes.fabric import (
    link,
    node_box,
    packet,
)
from scenes.server_parts import (
    switch,
)
from scenes.style import (
    MUTED,
    PANEL,
    SMALL_SIZE,
    ExhibitScene,
    counter,
    label,
    legend,
    markup,
    title,
)

SAME = palette.role("primary")
CROSS = palette.role("secondary")
LINK_GREY = palette.THEMES["dark"]["grid"]
TREE3 = palette.role("secondary")  # the figure draws the 3-tier tree in this role too

DIAGRAM_LEFT, DIAGRAM_RIGHT = -6.7, 2.7
Y_SPINE, Y_LEAF, Y_NODE = 2.3, 0.5, -1.5
PANEL_X = 3.35


def _spread(point, n: int, gap: float = 0.2) -> list:
    """n copies of a point spread sideways, so packets meeting at one switch stay visible."""
    return [np.asarray(point) + np.array([(i - (n - 1) / 2) * gap, 0, 0]) for i in range(n)]


def _row_x(n: int, left: float = DIAGRAM_LEFT, right: float = DIAGRAM_RIGHT) -> list[float]:
    """Centres of n equal slots across [left, right]."""
    w = (right - left) / n
    return [left + w * (i + 0.5) for i in range(n)]



class RailOptimizedPod(ExhibitScene):
    scene_id = "rail-fat-tree"

    # --- helpers ------------------------------------------------------------------
    def hop(self, movers, targets, run_time: float) -> None:
        self.play(*[m.animate.move_to(t) for m, t in zip(movers, targets, strict=True)],
                  run_time=run_time)

    # --- the script: one method per beat --------------------------------------------
    def construct(self) -> None:
        an = self.data["animation"]
        self.g, self.n_draw, self.n_spines = int(an["rails"]), int(an["draw_nodes"]), int(an["spines"])
        self.scalable_unit()
        self.rails()
        self.spines_join()
        self.same_rail_step()
        self.cross_rail_step()
        self.three_tier_scenario()
        self.dragonfly_plus()

    def scalable_unit(self) -> None:
        """One scalable unit: nodes of g GPUs, and the cable and switch counters."""
        s = self.data["summary"]
        g, su, n_draw = self.g, int(s["su_nodes"]), self.n_draw
        with self.beat(f"One scalable unit: {fmt_count(su)} nodes × {g} GPUs = {fmt_count(s['su_gpus'])} GPUs, "
                       f"one {fmt_rate(s['port_rate'])} port each, per direction"):
            self.heading = title("A rail-optimized scalable unit")
            node_w = (DIAGRAM_RIGHT - DIAGRAM_LEFT) / n_draw - 0.25
            self.nodes = VGroup(*[node_box(i, g, node_w).move_to([x, Y_NODE, 0])
                                  for i, x in enumerate(_row_x(n_draw))])
            self.more = label(f"… {fmt_count(su - n_draw)} more nodes in this SU", size=SMALL_SIZE - 2,
                              color=MUTED).next_to(self.nodes, DOWN, buff=0.12)
            self.play(FadeIn(self.heading), FadeIn(self.nodes), FadeIn(self.more), run_time=2.0)

            self.cables = counter("cables", 0)
            self.cables.move_to([PANEL_X, 2.5, 0], aligned_edge=LEFT)
            self.switches = counter("switches", 0)
            self.switches.move_to([PANEL_X, 1.95, 0], aligned_edge=LEFT)
            self.play(FadeIn(self.cables), FadeIn(self.switches), run_time=0.8)
            self.wait(3.5)

    def rails(self) -> None:
        """Rail by rail: GPU r of every node to leaf r."""
        s, g, n_draw, nodes = self.data["summary"], self.g, self.n_draw, self.nodes
        with self.beat(f"Rail by rail: GPU r of every node plugs into leaf r; {g} rail leaves, "
                       f"{fmt_count(s['su_leaf_down'])} ports down and {fmt_count(s['su_leaf_up'])} up each"):
            self.leaves = VGroup()
            self.down_links = [[None] * n_draw for _ in range(g)]
            leaf_x = _row_x(g)
            leaf_w = min(1.0, (DIAGRAM_RIGHT - DIAGRAM_LEFT) / g - 0.12)
            for r in range(g):
                leaf = switch(f"rail {r}", ports=4, width=leaf_w, height=0.5).move_to([leaf_x[r], Y_LEAF, 0])
                self.leaves.add(leaf)
                lines = []
                for i in range(n_draw):
                    gp = nodes[i][1][r]
                    ln = link(gp.get_top(), leaf.get_bottom(), color=SAME, width=2)
                    ln.set_z_index(-1)
                    self.down_links[r][i] = ln
                    lines.append(ln)
                self.play(FadeIn(leaf), *[Create(ln) for ln in lines],
                          *[nodes[i][1][r][0].animate.set_stroke(SAME) for i in range(n_draw)],
                          run_time=0.5)
                self.cables[1].set_value((r + 1) * s["su_leaf_down"])
                self.switches[1].set_value(r + 1)
                self.play(*[ln.animate.set_stroke(LINK_GREY) for ln in lines],
                          *[nodes[i][1][r][0].animate.set_stroke(palette.ROLE["gpu"])
                            for i in range(n_draw)], run_time=0.2)
            self.wait(1.5)

    def spines_join(self) -> None:
        """Spines join the rails: as many leaf-spine cables as GPU cables."""
        s, g, n_spines = self.data["summary"], self.g, self.n_spines
        with self.beat(f"{n_spines} spines join the {g} rails: {fmt_count(s['su_spine_cables'])} "
                       f"leaf–spine cables, as many as GPU cables, so the fabric is non-blocking"):
            spine_x = _row_x(n_spines, DIAGRAM_LEFT + 0.6, DIAGRAM_RIGHT - 0.6)
            self.spines = VGroup(*[switch(f"spine {j}", ports=6, width=1.5, height=0.5)
                                   .move_to([spine_x[j], Y_SPINE, 0]) for j in range(n_spines)])
            self.up_links = [[link(self.leaves[r].get_top(), self.spines[j].get_bottom(), color=LINK_GREY,
                                   width=2).set_z_index(-1) for j in range(n_spines)] for r in range(g)]
            self.play(FadeIn(self.spines), run_time=0.6)
            self.play(*[Create(ln) for row in self.up_links for ln in row], run_time=1.2)
            self.cables[1].set_value(s["su_host_cables"] + s["su_spine_cables"])
            self.switches[1].set_value(s["su_leaves"] + s["su_spines"])
            self.wait(1.2)

    def same_rail_step(self) -> None:
        """A same-rail all-reduce step stays at the leaf."""
        s, an, n_draw, nodes = self.data["summary"], self.data["animation"], self.n_draw, self.nodes
        rail = int(an["same_rail"]["rail"])
        # names the parallelisms that send this way (the page's table): pipeline stages and data-parallel replicas
        with self.beat(f"Pipeline and data-parallel sends go GPU {rail} → GPU {rail} of another node: within this "
                       f"SU, {an['same_rail']['links']} links, {fmt_percent(s['su_same_rail_spine_share'])} "
                       f"over the spine"):
            self.hops = hops = counter("links per message", 0, color=SAME)
            hops.move_to([PANEL_X, 1.0, 0], aligned_edge=LEFT)
            self.share = share = counter("over the spine", 0, unit="%", color=SAME)
            share.move_to([PANEL_X, 0.45, 0], aligned_edge=LEFT)
            self.key = legend([("same rail", SAME), ("cross rail", CROSS)], size=SMALL_SIZE - 2)
            self.key.move_to([PANEL_X, -0.2, 0], aligned_edge=LEFT)
            self.play(FadeIn(hops), FadeIn(share), FadeIn(self.key), run_time=0.5)
            src = [nodes[i][1][rail] for i in range(n_draw)]
            dst = [nodes[(i + 1) % n_draw][1][rail] for i in range(n_draw)]
            pk = [packet(SAME, size=0.16).move_to(a.get_top()).set_z_index(3) for a in src]
            self.add(*pk)
            # the links the ring uses light up and stay lit: GPU r of each node to leaf r, nothing above it
            self.play(*[self.down_links[rail][i].animate.set_stroke(SAME, width=3) for i in range(n_draw)],
                      run_time=0.3)
            self.hop(pk, _spread(self.leaves[rail].get_bottom(), n_draw), 1.2)
            hops[1].set_value(1)
            self.hop(pk, [b.get_top() for b in dst], 1.2)
            hops[1].set_value(an["same_rail"]["links"])
            share[1].set_value(100 * s["su_same_rail_spine_share"])
            self.remove(*pk)
            self.wait(4.0)

    def cross_rail_step(self) -> None:
        """A cross-rail step climbs to the spine; PXN keeps it at the leaf."""
        s, an, n_draw, nodes = self.data["summary"], self.data["animation"], self.n_draw, self.nodes
        rail = int(an["same_rail"]["rail"])
        with self.beat(f"A cross-rail ring sends GPU {rail} to GPU {rail + 1} of the next node: "
                       f"{an['cross_rail']['links']} links, leaf → spine → leaf, "
                       f"{fmt_percent(s['su_cross_rail_spine_share'])} over the spine; with PXN, NVLink first, "
                       f"then {s['links_cross_rail_same_su_pxn']} links on rail {(rail + 1) % self.g}, "
                       f"{fmt_percent(s['su_cross_rail_spine_share_pxn'])}"):
            self.hops_x = hops_x = counter("links per message", 0, color=CROSS)
            hops_x.move_to([PANEL_X, -0.85, 0], aligned_edge=LEFT)
            self.share_x = share_x = counter("over the spine", 0, unit="%", color=CROSS)
            share_x.move_to([PANEL_X, -1.4, 0], aligned_edge=LEFT)
            self.play(FadeIn(hops_x), FadeIn(share_x), run_time=0.4)
            r2 = (rail + 1) % self.g
            src = [nodes[i][1][rail] for i in range(n_draw)]
            dst_x = [nodes[(i + 1) % n_draw][1][r2] for i in range(n_draw)]
            pk = [packet(CROSS, size=0.16).move_to(a.get_top()).set_z_index(3) for a in src]
            self.add(*pk)
            used = [*(self.up_links[r][i % self.n_spines] for r in (rail, r2) for i in range(n_draw)),
                    *(self.down_links[r2][i] for i in range(n_draw))]
            self.play(*[ln.animate.set_stroke(CROSS, width=3) for ln in used],
                      *[self.down_links[rail][i].animate.set_stroke(CROSS, width=3) for i in range(n_draw)],
                      run_time=0.3)
            path = [
                _spread(self.leaves[rail].get_bottom(), n_draw),
                [self.spines[i % self.n_spines].get_bottom() for i in range(n_draw)],
                _spread(self.leaves[r2].get_top(), n_draw),
                [b.get_top() for b in dst_x],
            ]
            for step, targets in enumerate(path, 1):
                self.hop(pk, targets, 0.7)
                hops_x[1].set_value(step)
            share_x[1].set_value(100 * s["su_cross_rail_spine_share"])
            self.remove(*pk)
            self.wait(1.0)
            # PXN: the same sends hop over NVLink to GPU r+1 of their own node, then take rail r+1's leaf
            self.pxn = markup(f"PXN: NVLink to GPU {r2} first,\nthen {s['links_cross_rail_same_su_pxn']} links "
                              f"on rail {r2}", size=SMALL_SIZE - 2, color=MUTED)
            self.pxn.move_to([PANEL_X, -2.1, 0], aligned_edge=LEFT)
            # the orange counters belong to the route PXN avoids: dimmed with it, so the last frame does not
            # pair "4 links, 100%" with the 2-link path drawn in blue
            self.play(FadeIn(self.pxn), hops_x.animate.set_opacity(0.3), share_x.animate.set_opacity(0.3),
                      *[ln.animate.set_stroke(LINK_GREY, width=2) for ln in used[:2 * n_draw]],
                      *[self.down_links[rail][i].animate.set_stroke(LINK_GREY, width=2) for i in range(n_draw)],
                      *[self.down_links[r2][i].animate.set_stroke(SAME, width=3) for i in range(n_draw)],
                      run_time=0.5)
            hand = [nodes[i][1][r2] for i in range(n_draw)]
            pk = [packet(SAME, size=0.16).move_to(a.get_center()).set_z_index(3) for a in src]
            self.add(*pk)
            self.hop(pk, [b.get_center() for b in hand], 0.8)  # NVLink, inside the node
            self.hop(pk, _spread(self.leaves[r2].get_bottom(), n_draw), 0.8)
            self.hop(pk, [b.get_top() for b in dst_x], 0.8)
            self.remove(*pk)
            self.wait(2.0)

    def three_tier_scenario(self) -> None:
        """Scale to the scenario: a three-tier fat-tree of pods."""
        s, an = self.data["summary"], self.data["animation"]
        with self.beat(f"{fmt_count(s['gpus'])} GPUs need {s['tiers']} tiers: {fmt_count(s['pods'])} pods of "
                       f"{fmt_count(s['pod_gpus'])} GPUs under {fmt_count(s['cores'])} core switches, "
                       f"{fmt_count(s['switches'])} switches and {s['fat_tree_optics_per_gpu']:g} optics per GPU"):
            counters = (self.cables, self.switches, self.hops, self.share, self.hops_x, self.share_x)
            for c in counters:
                for part in c:
                    part.clear_updaters()
            su_view = VGroup(self.nodes, self.more, self.leaves, self.spines,
                             *[ln for row in self.down_links for ln in row if ln],
                             *[ln for row in self.up_links for ln in row],
                             *counters, self.key, self.pxn)
            heading2 = title(f"The scenario: {fmt_count(s['gpus'])} GPUs, radix-{int(s['radix'])} switches")
            self.play(FadeOut(su_view), FadeOut(self.heading), FadeIn(heading2), run_time=0.8)
            tree = self.three_tier(s, an)
            self.play(FadeIn(tree[0]), run_time=0.8)
            self.play(Create(tree[1]), run_time=1.2)
            self.play(FadeIn(tree[2]), run_time=0.6)
            self.wait(2.0)

    def dragonfly_plus(self) -> None:
        """The same switches as a Dragonfly+."""
        s, an = self.data["summary"], self.data["animation"]
        with self.beat(f"A Dragonfly+ of the same switches: {fmt_count(s['df_groups'])} groups, each wired to "
                       f"every other; {fmt_count(s['df_switches'])} switches, "
                       f"{s['dragonfly_optics_per_gpu']:g} optics per GPU, "
                       f"{fmt_percent(s['df_bisection_share'])} of the bisection; minimal route: "
                       f"{s['df_max_switch_hops']} switch hops against {s['ft_max_switch_hops']}"):
            fly = self.dragonfly(s, an)
            self.play(FadeIn(fly[0]), run_time=0.8)
            self.play(Create(fly[1]), run_time=1.2)
            self.play(FadeIn(fly[2]), run_time=0.6)
            self.wait(6.5)

    # --- the two large fabrics, drawn from the model's counts ----------------------------
    def three_tier(self, s, an) -> tuple[VGroup, VGroup, VGroup]:
        """Left half: core switches over pods (spine bar over leaf bar); returns (boxes, links, words)."""
        n_pods, n_cores = int(an["draw_pods"]), int(an["draw_cores"])
        x0, x1 = -5.0, -0.5
        y_core, y_spine, y_leaf = 2.25, 1.0, 0.35
        sw = palette.role("switch")
        pod_x = _row_x(n_pods, x0, x1)
        pw = min(0.24, (x1 - x0) / n_pods - 0.06)
        core_x = _row_x(n_cores, x0 + 0.4, x1 - 0.4)
        cores = VGroup(*[Rectangle(width=0.34, height=0.2, stroke_color=sw, stroke_width=2, fill_color=PANEL,
                                   fill_opacity=1).move_to([x, y_core, 0]) for x in core_x])
        pods = VGroup()
        for x in pod_x:
            top = Rectangle(width=pw, height=0.2, stroke_color=sw, stroke_width=2, fill_color=PANEL,
                            fill_opacity=1).move_to([x, y_spine, 0])
            bot = Rectangle(width=pw, height=0.2, stroke_color=sw, stroke_width=2, fill_color=PANEL,
                            fill_opacity=1).move_to([x, y_leaf, 0])
            pods.add(VGroup(top, bot, Line(top.get_bottom(), bot.get_top(), stroke_color=LINK_GREY,
                                           stroke_width=2)))
        size = SMALL_SIZE - 2
        names = VGroup(
            label(f"{fmt_count(s['cores'])} core", size=size, color=MUTED).move_to([x0 - 0.15, y_core, 0],
                                                                                    aligned_edge=RIGHT),
            label(f"{fmt_count(s['spines'])} spine", size=size, color=MUTED).move_to([x0 - 0.15, y_spine, 0],
                                                                                      aligned_edge=RIGHT),
            label(f"{fmt_count(s['leaves'])} leaf", size=size, color=MUTED).move_to([x0 - 0.15, y_leaf, 0],
                                                                                     aligned_edge=RIGHT),
            label(f"{fmt_count(s['pods'])} pods × {fmt_count(s['pod_gpus'])} GPUs", size=size,
                  color=MUTED).move_to([(x0 + x1) / 2, y_leaf - 0.45, 0]),
        )
        links = VGroup(*[Line(pod[0].get_top(), c.get_bottom(), stroke_color=MUTED, stroke_width=1,
                              stroke_opacity=0.45) for pod in pods for c in cores]).set_z_index(-1)
        words = VGroup(
            markup(f"<b>fat-tree, {s['tiers']} tiers</b>", size=SMALL_SIZE, color=TREE3),
            markup(f"{fmt_count(s['switches'])} switches, {fmt_count(s['cables'])} cables", size=SMALL_SIZE),
            markup(f"{s['fat_tree_optics_per_gpu']:g} optics per GPU, "
                   f"≤ {s['ft_max_switch_hops']} switch hops", size=SMALL_SIZE),
            markup("bisection: full (non-blocking)", size=SMALL_SIZE),
        ).arrange(DOWN, aligned_edge=LEFT, buff=0.14).move_to([-6.3, -1.6, 0], aligned_edge=LEFT)
        return VGroup(cores, pods, names), links, words

    def dragonfly(self, s, an) -> tuple[VGroup, VGroup, VGroup]:
        """Right half: groups (leaf-spine pairs) on a circle, one global bundle between every pair."""
        n = int(an["draw_groups"])
        centre, radius = np.array([3.7, 1.05, 0.0]), 1.25
        colour = palette.role("tertiary")
        pos = [centre + radius * np.array([np.cos(np.pi / 2 - 2 * np.pi * i / n),
                                            np.sin(np.pi / 2 - 2 * np.pi * i / n), 0]) for i in range(n)]
        groups = VGroup(*[Square(0.22, stroke_color=colour, stroke_width=2, fill_color=PANEL, fill_opacity=1)
                          .move_to(q) for q in pos])
        links = VGroup(*[Line(pos[i], pos[j], stroke_color=MUTED, stroke_width=1, stroke_opacity=0.45)
                         for i in range(n) for j in range(i + 1, n)]).set_z_index(-1)
        caption = label(f"{fmt_count(s['df_groups'])} groups × {fmt_count(s['df_group_switches'])} switches",
                        size=SMALL_SIZE - 2, color=MUTED).move_to(centre + np.array([0, -radius - 0.45, 0]))
        words = VGroup(
            markup("<b>Dragonfly+</b>", size=SMALL_SIZE, color=colour),
            markup(f"{fmt_count(s['df_switches'])} switches, {fmt_count(s['df_cables'])} cables", size=SMALL_SIZE),
            markup(f"{s['dragonfly_optics_per_gpu']:g} optics per GPU, "
                   f"≤ {s['df_max_switch_hops']} switch hops (minimal route)", size=SMALL_SIZE),
            markup(f"bisection {fmt_percent(s['df_bisection_share'])} of the tree's", size=SMALL_SIZE),
        ).arrange(DOWN, aligned_edge=LEFT, buff=0.14).move_to([0.8, -1.6, 0], aligned_edge=LEFT)
        return VGroup(groups, caption), links, words


__all__ = ["RailOptimizedPod", "node_box"]
