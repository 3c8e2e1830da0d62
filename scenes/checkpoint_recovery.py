"""checkpoint-recovery · Checkpoint blast radius & sub-minute MTTR.

A failure stops every rank. The default recovery: wait for the NCCL timeout,
boot a fresh node, then every rank stampedes one metadata server and reads its
weights from storage, while a clock counts the MTTR part by part. Then the
sharded restart: metadata spread over shards, one reader per shard, a
broadcast tree to its replicas, and the clock stops under a minute. Every
number comes from self.data (models.checkpoint_recovery.checkpoint_recovery).
"""

from __future__ import annotations

import numpy as np
from manim import (
    DOWN,
    LEFT,
    RIGHT,
    UP,
    AnimationGroup,
    Circle,
    Create,
    Dot,
    FadeIn,
    FadeOut,
    GrowFromEdge,
    LaggedStart,
    Line,
    Rectangle,
    RoundedRectangle,
    ValueTracker,
    VGroup,
    Write,
    linear,
)

from design import palette
from models.units import fmt_bytes, fmt_count, fmt_percent, fmt_rate, fmt_seconds
from scenes.style import (
    BODY_SIZE,
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

PART_ROLES = {"detection": "failure", "rescheduling": "restart", "communicator init": "cpu",
              "metadata opens": "storage", "checkpoint load": "data"}
PARTS = list(PART_ROLES)
BAR_LEFT, BAR_WIDTH, BAR_H = -5.5, 8.2, 0.42
SLOW_Y, FAST_Y = 2.05, 1.35
STAGE_Y = -0.85  # centre of the stage under the bars
RANK = palette.role("gpu")
BAD, OK = palette.role("bad"), palette.role("ok")


def _server(name: str, colour: str, width: float = 1.5, height: float = 0.75) -> VGroup:
    box = RoundedRectangle(corner_radius=0.08, width=width, height=height, stroke_color=colour,
                           stroke_width=2.5, fill_color=colour, fill_opacity=0.18)
    return VGroup(box, label(name, size=SMALL_SIZE, color=INK).move_to(box))


def _shown(tracker: ValueTracker):
    """Update a whole-second DecimalNumber only when its value changes (cheap)."""

    def update(d):
        v = round(tracker.get_value())
        if v != round(d.get_value()):
            d.set_value(v)

    return update


class CheckpointRecovery(ExhibitScene):
    scene_id = "checkpoint-recovery"

    def construct(self) -> None:
        self.m, self.p, self.a = self.data["summary"], self.data["params"], self.data["animation"]
        self.parts = {r["part"]: r for r in self.data["records"]["parts"]}
        self.scale = BAR_WIDTH / self.m["mttr_slow"]
        self.slow_t, self.fast_t = ValueTracker(0.0), ValueTracker(0.0)
        for beat in (self.the_question_and_the_record, self.the_default_recovery_waits, self.the_stampede,
                     self.the_sharded_restart, self.what_it_buys):
            beat()

    def the_question_and_the_record(self) -> None:
        m, p, a = self.m, self.p, self.a
        with self.beat(f"One failure stops all {fmt_count(p['gpus'])} ranks, and it happens every "
                       f"{fmt_seconds(m['mtbf'])}: {fmt_count(p['interruptions'])} times in "
                       f"{fmt_seconds(p['observation_window'])}."):
            head = title(f"How do {fmt_count(p['gpus'])} ranks come back in under a minute?")
            head.to_edge(UP, buff=0.3)
            ranks = self._rank_grid(a["ranks"]).move_to([0, STAGE_Y + 0.5, 0])
            rec = markup(f"{fmt_count(p['interruptions'])} interruptions in {fmt_seconds(p['observation_window'])}"
                         f"  →  one every <b>{fmt_seconds(m['mtbf'])}</b>", size=BODY_SIZE)
            rec.next_to(ranks, DOWN, buff=0.45)
            self.play(Write(head), run_time=1.0)
            self.play(FadeIn(ranks), FadeIn(rec, shift=0.2 * UP), run_time=1.0)
            bad = ranks[len(ranks) // 2]
            self.play(bad.animate.set_fill(BAD, 1).scale(1.4), run_time=0.5)
            self.play(*[d.animate.set_fill(MUTED, 0.5) for d in ranks if d is not bad], run_time=0.8)
            self.wait(1.2)
        self.head, self.ranks, self.rec = head, ranks, rec

    def the_default_recovery_waits(self) -> None:
        m, parts, scale, slow_t = self.m, self.parts, self.scale, self.slow_t
        with self.beat(f"Default recovery: the NCCL timeout ({fmt_seconds(m['slow_detection'])}) and a fresh "
                       f"node ({fmt_seconds(m['slow_rescheduling'])}) before anything loads."):
            self.play(FadeOut(self.rec), FadeOut(self.ranks), run_time=0.5)
            slow_name = label("default", size=SMALL_SIZE, color=MUTED)
            slow_name.next_to([BAR_LEFT, SLOW_Y, 0], LEFT, buff=0.12)
            slow_c = counter("MTTR", 0, unit="s", size=SMALL_SIZE, color=BAD)
            slow_c.move_to([BAR_LEFT + BAR_WIDTH + 1.35, SLOW_Y, 0])
            slow_c[1].add_updater(_shown(slow_t))
            self.play(FadeIn(slow_name), FadeIn(slow_c), run_time=0.4)
            self.slow_bars = VGroup()
            self._grow(parts, "slow", ["detection", "rescheduling", "communicator init"], SLOW_Y, scale,
                       slow_t, run_time=3.0)
            keys = self._key().next_to(self.head, DOWN, buff=0.2)
            self.play(FadeIn(keys), run_time=0.5)
            self.wait(0.8)

    def the_stampede(self) -> None:
        m, p, a, parts, scale, slow_t = self.m, self.p, self.a, self.parts, self.scale, self.slow_t
        with self.beat(f"Then {fmt_count(m['metadata_opens'])} opens queue at one metadata server "
                       f"({fmt_seconds(m['slow_metadata_opens'])}), and every rank reads from storage "
                       f"({fmt_seconds(m['slow_checkpoint_load'])})."):
            mds = _server("metadata server", palette.role("storage"), width=2.6).move_to([4.4, STAGE_Y + 0.3, 0])
            crowd = self._rank_grid(a["ranks"], cols=4).move_to([-5.6, STAGE_Y + 0.3, 0])
            gap = 0.27
            queue_x = mds.get_left()[0] - 0.3 - gap * np.arange(a["ranks"])
            self.play(FadeIn(mds), FadeIn(crowd), run_time=0.6)
            moves = [d.animate.move_to([queue_x[i], STAGE_Y + 0.3, 0]).set_fill(palette.role("storage"), 1)
                     for i, d in enumerate(crowd)]
            self.play(LaggedStart(*moves, lag_ratio=0.08), run_time=1.6)
            q_note = label(f"{fmt_count(p['gpus'])} ranks × {fmt_count(p['files_per_rank'])} files, "
                           "served one at a time", size=SMALL_SIZE, color=MUTED)
            q_note.next_to(mds, DOWN, buff=0.3).align_to(mds, RIGHT)
            self.play(FadeIn(q_note), run_time=0.4)
            # the head of the queue is served, the rest moves up and waits (and the clock runs)
            k = len(crowd) // 3
            served = [FadeOut(d, shift=0.6 * RIGHT) for d in list(crowd)[:k]]
            self.play(LaggedStart(*served, lag_ratio=0.3), run_time=1.2)
            self.play(*[d.animate.shift(k * gap * RIGHT) for d in list(crowd)[k:]], run_time=0.5)
            store = _server("storage", palette.role("storage"), width=2.6, height=0.55)
            store.move_to([4.4, STAGE_Y - 1.25, 0])
            s_note = label(f"then every rank reads its weights: {fmt_bytes(m['storage_volume_every_rank'])} "
                           f"at {fmt_rate(p['read_bandwidth'])}", size=SMALL_SIZE, color=MUTED)
            s_note.next_to(store, LEFT, buff=0.35)
            self._grow(parts, "slow", ["metadata opens"], SLOW_Y, scale, slow_t, run_time=1.0)
            self.play(FadeIn(store), FadeIn(s_note), run_time=0.5)
            self._grow(parts, "slow", ["checkpoint load"], SLOW_Y, scale, slow_t, run_time=1.4)
            self.wait(1.0)
        # what the next beat clears: the server, its notes and the ranks still queued
        self.stampede = VGroup(mds, q_note, store, s_note, *list(crowd)[k:])

    def the_sharded_restart(self) -> None:
        m, p, a, parts, scale, fast_t = self.m, self.p, self.a, self.parts, self.scale, self.fast_t
        with self.beat(f"Sharded restart: {fmt_count(p['metadata_shards'])} metadata shards, one reader per "
                       f"shard, a tree broadcast to {fmt_count(p['data_parallel'])} replicas: "
                       f"{fmt_seconds(m['mttr_fast'])}."):
            self.play(FadeOut(self.stampede), run_time=0.4)
            fast_name = label("sharded", size=SMALL_SIZE, color=MUTED)
            fast_name.next_to([BAR_LEFT, FAST_Y, 0], LEFT, buff=0.12)
            fast_c = counter("MTTR", 0, unit="s", size=SMALL_SIZE, color=OK)
            fast_c.move_to([BAR_LEFT + BAR_WIDTH + 1.35, FAST_Y, 0])
            fast_c[1].add_updater(_shown(fast_t))
            shards = VGroup(*[_server(f"shard {i + 1}", palette.role("storage"), width=1.25, height=0.55)
                              for i in range(a["shards"])]).arrange(DOWN, buff=0.16)
            shards.move_to([-4.3, STAGE_Y - 0.05, 0])
            more = label(f"of {fmt_count(p['metadata_shards'])}", size=SMALL_SIZE, color=MUTED)
            more.next_to(shards, RIGHT, buff=0.2)
            tree, edges, reader = self._tree(a["tree_depth"])
            tree_g = VGroup(edges, tree).move_to([2.3, STAGE_Y - 0.05, 0])
            store = _server("storage", palette.role("storage"), width=1.4, height=0.5)
            store.next_to(tree_g, LEFT, buff=0.7).align_to(tree_g, UP)
            feed = Line(store.get_right(), reader.get_left(), color=palette.role("data"), stroke_width=4)
            t_note = label(f"{fmt_bytes(m['weights_per_rank'])} of weights, read once, "
                           f"depth {fmt_count(m['broadcast_depth'])}", size=SMALL_SIZE, color=MUTED)
            t_note.next_to(tree_g, DOWN, buff=0.3).set_x(1.2)
            self.play(FadeIn(fast_name), FadeIn(fast_c), FadeIn(shards), FadeIn(more), run_time=0.6)
            self.fast_bars = VGroup()
            self._grow(parts, "fast", ["detection", "rescheduling", "communicator init", "metadata opens"],
                       FAST_Y, scale, fast_t, run_time=1.6)
            self.play(FadeIn(store), FadeIn(tree_g), run_time=0.5)
            self.play(Create(feed), reader.animate.set_fill(palette.role("data"), 1), run_time=0.6)
            levels = self._levels(tree)
            self.play(LaggedStart(*[AnimationGroup(*[n.animate.set_fill(OK, 1) for n in lvl]) for lvl in levels[1:]],
                                  lag_ratio=0.6), FadeIn(t_note), run_time=1.6)
            self._grow(parts, "fast", ["checkpoint load"], FAST_Y, scale, fast_t, run_time=0.8)
            self.wait(1.2)
        self.restart_stage = VGroup(shards, more, store, feed, tree_g, t_note)

    def what_it_buys(self) -> None:
        m = self.m
        with self.beat(f"Goodput {fmt_percent(m['goodput_slow'])} → {fmt_percent(m['goodput_fast'])}, "
                       f"near the {fmt_percent(m['goodput_zero'])} that checkpoint writes and lost work allow."):
            self.play(FadeOut(self.restart_stage), run_time=0.5)
            bars = value_bars([
                (f"default, MTTR {fmt_seconds(m['mttr_slow'])}", m["goodput_slow"], fmt_percent(m["goodput_slow"]),
                 BAD),
                (f"sharded, MTTR {fmt_seconds(m['mttr_fast'])}", m["goodput_fast"], fmt_percent(m["goodput_fast"]),
                 OK),
                ("restarts free", m["goodput_zero"], fmt_percent(m["goodput_zero"]), MUTED),
            ], top=1.0, width=5.0)
            per_failure = markup(f"per failure: {fmt_count(m['gpu_hours_per_failure_slow'])} → "
                                 f"{fmt_count(m['gpu_hours_per_failure_fast'])} GPU-hours "
                                 f"(lost work {fmt_seconds(m['lost_per_failure'])} included)",
                                 size=SMALL_SIZE, color=MUTED)
            head = label("goodput: the share of GPU time that trains", size=SMALL_SIZE, color=MUTED)
            VGroup(head, bars, per_failure).arrange(DOWN, buff=0.3, aligned_edge=LEFT).move_to([-0.4, STAGE_Y, 0])
            self.play(FadeIn(head), *grow_value_bars(bars), run_time=1.8)
            self.play(FadeIn(per_failure, shift=0.2 * UP), run_time=0.6)
            self.wait(2.4)

    # --- helpers ------------------------------------------------------------------
    def _rank_grid(self, n: int, cols: int = 12) -> VGroup:
        dots = VGroup(*[Dot(radius=0.09, color=RANK, fill_opacity=1) for _ in range(n)])
        return dots.arrange_in_grid(cols=cols, buff=0.22)

    def _key(self) -> VGroup:
        rows = [VGroup(Rectangle(width=0.22, height=0.22, stroke_width=0,
                                 fill_color=palette.role(PART_ROLES[k]), fill_opacity=1),
                       label(k, size=SMALL_SIZE, color=MUTED)).arrange(RIGHT, buff=0.1) for k in PARTS]
        return VGroup(*rows).arrange(RIGHT, buff=0.32)

    def _grow(self, parts: dict, way: str, names: list[str], y: float, scale: float,
              tracker: ValueTracker, run_time: float) -> None:
        """Grow the bar of `way` by the parts `names`, one after another, while its clock counts."""
        bars = self.slow_bars if way == "slow" else self.fast_bars
        total = sum(parts[k][way] for k in names)
        for k in names:
            sec = parts[k][way]
            x0 = BAR_LEFT + tracker.get_value() * scale
            width = max(sec * scale, 0.02)
            rect = Rectangle(width=width, height=BAR_H, stroke_width=0, fill_color=palette.role(PART_ROLES[k]),
                             fill_opacity=1).move_to([x0 + width / 2, y, 0])
            bars.add(rect)
            rt = max(0.25, run_time * sec / total)
            self.play(GrowFromEdge(rect, LEFT), tracker.animate.increment_value(sec), run_time=rt,
                      rate_func=linear)

    def _tree(self, depth: int):
        """A binary tree of three levels drawn (depth stands for ceil(log₂ D)): nodes, edges, root."""
        shown = min(depth, 3)
        nodes, edges, pos = VGroup(), VGroup(), {}
        for lvl in range(shown + 1):
            count = 2**lvl
            spread = 3.6 / max(1, 2**shown - 1) * (2**shown / count) / 2
            xs = np.linspace(-(count - 1) / 2, (count - 1) / 2, count) * spread
            for i, x in enumerate(xs):
                c = Circle(radius=0.12, stroke_color=RANK, stroke_width=2, fill_color=MUTED, fill_opacity=0.4)
                c.move_to([x, -lvl * 0.55, 0])
                c.level = lvl
                nodes.add(c)
                pos[(lvl, i)] = c
                if lvl:
                    parent = pos[(lvl - 1, i // 2)]
                    edges.add(Line(parent.get_center(), c.get_center(), color=MUTED, stroke_width=1.5))
        return nodes, edges, pos[(0, 0)]

    @staticmethod
    def _levels(nodes: VGroup) -> list[list]:
        out: dict[int, list] = {}
        for n in nodes:
            out.setdefault(n.level, []).append(n)
        return [out[k] for k in sorted(out)]
