"""checkpoint-recovery · Checkpoint blast radius & sub-minute MTTR.

A failure stops every rank: the others grey out one by one as their collectives wait on it, and a wait
clock runs to the NCCL timeout. The unoptimized worst case, a hang: wait for the NCCL timeout,
boot a fresh node, restart every process, set up the communicators through one
TCPStore, then every rank stampedes one metadata server and reads its weights
from storage, while a clock counts the MTTR part by part; PyTorch's current default (libuv store) is then
marked on the same row, for a hang and a crash, so the worst case is not read as typical. Then the fast full
restart: metadata spread over shards, one reader per shard, a broadcast tree
to its replicas; still about two minutes. Last, the partial restart: only the
failed node's replacement copies its state from a peer, and the clock stops
just past a minute for a hang (heartbeats miss it: a progress timeout catches it), a crash's mark under the
minute (the copy itself is a fraction of a second). A second caption gives its range over the page's
sweeps moved together, drawn as an error bar across the 1-minute tick, and its condition; its GPU-hour
saving is split on screen, most of it the per-step copy, not the blast radius. It cures only one node's
failures: the record's mean, with the rest at a full restart, is shown under its clock. Every number comes
from self.data (models.checkpoint_recovery.checkpoint_recovery).
"""

from __future__ import annotations

import numpy as np
from manim import (
    DOWN,
    LEFT,
    RIGHT,
    UP,
    AnimationGroup,
    Arrow,
    Circle,
    Create,
    Dot,
    FadeIn,
    FadeOut,
    GrowArrow,
    GrowFromEdge,
    LaggedStart,
    Line,
    Rectangle,
    RoundedRectangle,
    Transform,
    ValueTracker,
    VGroup,
    Write,
    linear,
)

from design import palette
from models.units import fmt_bytes, fmt_count, fmt_percent, fmt_rate, fmt_seconds, sig
from scenes.style import (
    BODY_SIZE,
    INK,
    MUTED,
    SMALL_SIZE,
    ExhibitScene,
    counter,
    label,
    markup,
    title,
)

PART_ROLES = {"detection": "failure", "rescheduling": "restart", "process restart": "muted",
              "communicator init": "cpu", "metadata opens": "storage", "checkpoint load": "gpu"}
PARTS = list(PART_ROLES)
BAR_LEFT, BAR_WIDTH, BAR_H = -5.1, 7.8, 0.42
SLOW_Y, FAST_Y, PARTIAL_Y = 2.05, 1.35, 0.65
STAGE_Y = -0.85  # centre of the stage under the bars
RANK = palette.role("gpu")
BAD, OK = palette.role("bad"), palette.role("ok")


def _server(name: str, colour: str, width: float = 1.5, height: float = 0.75) -> VGroup:
    box = RoundedRectangle(corner_radius=0.08, width=width, height=height, stroke_color=colour,
                           stroke_width=2.5, fill_color=colour, fill_opacity=0.18)
    return VGroup(box, label(name, size=SMALL_SIZE, color=INK).move_to(box))


def _colour(part: str) -> str:
    """A part's colour; the assumed process restart is neutral grey, as in the figure."""
    role = PART_ROLES[part]
    return MUTED if role == "muted" else palette.role(role)


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
        self.slow_bars, self.fast_bars, self.partial_bars = VGroup(), VGroup(), VGroup()
        self.parts = {r["part"]: r for r in self.data["records"]["parts"]}
        self.scale = BAR_WIDTH / self.m["mttr_slow"]
        # the fast rows are drawn zoomed (their parts would be slivers at the default's scale); the zoom is
        # written next to their names and a 1-minute tick sits on each row
        self.zoom = round(self.m["mttr_slow"] / (1.25 * self.m["mttr_fast"]))
        self.slow_t, self.fast_t, self.partial_t = ValueTracker(0.0), ValueTracker(0.0), ValueTracker(0.0)
        for beat in (self.the_question_and_the_record, self.the_default_recovery_waits, self.the_stampede,
                     self.the_fast_full_restart, self.the_partial_restart):
            beat()

    def the_question_and_the_record(self) -> None:
        m, p, a = self.m, self.p, self.a
        with self.beat(f"One failure stops all {fmt_count(p['gpus'])} ranks, and it happens every "
                       f"{fmt_seconds(m['mtbf'])}: {fmt_count(p['interruptions'])} times in "
                       f"{fmt_seconds(p['observation_window'])}."):
            head = title(f"Can {fmt_count(p['gpus'])} ranks come back in under a minute?")
            head.to_edge(UP, buff=0.3)
            ranks = self._rank_grid(a["ranks"]).move_to([0, STAGE_Y + 0.5, 0])
            rec = markup(f"{fmt_count(p['interruptions'])} interruptions in {fmt_seconds(p['observation_window'])}"
                         f"  →  one every <b>{fmt_seconds(m['mtbf'])}</b>", size=BODY_SIZE)
            rec.next_to(ranks, DOWN, buff=0.45)
            # the record drawn, not only told: the window as a strip with one tick per interruption (random times,
            # seeded in the model: the report gives no dates), so "one every 3 h" is seen as a dense rain
            strip_w = 9.0
            strip = Line([-strip_w / 2, 0, 0], [strip_w / 2, 0, 0], color=MUTED, stroke_width=2)
            marks = VGroup(*[Line([-strip_w / 2 + f * strip_w, -0.12, 0], [-strip_w / 2 + f * strip_w, 0.12, 0],
                                  color=BAD, stroke_width=1.2) for f in a["record_ticks"]])
            ends = VGroup(label("start", size=SMALL_SIZE, color=MUTED).next_to(strip, LEFT, buff=0.15),
                          label(fmt_seconds(p["observation_window"]), size=SMALL_SIZE, color=MUTED)
                          .next_to(strip, RIGHT, buff=0.15))
            record = VGroup(strip, marks, ends).next_to(rec, DOWN, buff=0.4)
            self.play(Write(head), run_time=1.0)
            self.play(FadeIn(ranks), FadeIn(rec, shift=0.2 * UP), run_time=1.0)
            self.play(Create(strip), FadeIn(ends), LaggedStart(*[FadeIn(t) for t in marks], lag_ratio=0.004),
                      run_time=1.6)
            bad = ranks[len(ranks) // 2]
            self.play(bad.animate.set_fill(BAD, 1).scale(1.4), run_time=0.5)
            # the stall spreads: each rank greys out as its next collective waits on the failed one (nearest
            # first), while a wait clock runs to the NCCL timeout that ends the wait in the worst case
            others = sorted((d for d in ranks if d is not bad),
                            key=lambda d: float(np.linalg.norm(d.get_center() - bad.get_center())))
            wait_t = ValueTracker(0.0)
            clock = counter("waiting", 0, unit="s", size=SMALL_SIZE, color=BAD)
            clock.next_to(ranks, RIGHT, buff=0.6)
            clock[1].add_updater(_shown(wait_t))
            # left-aligned under the clock: centred, it reached back over the grid's last column
            until = label("until the NCCL timeout", size=SMALL_SIZE, color=MUTED).next_to(clock, DOWN, buff=0.1)
            until.align_to(clock, LEFT)
            self.play(FadeIn(clock), FadeIn(until), run_time=0.3)
            self.play(LaggedStart(*[d.animate.set_fill(MUTED, 0.5).scale(0.8) for d in others], lag_ratio=0.06),
                      wait_t.animate.set_value(m["slow_detection"]), run_time=2.2, rate_func=linear)
            self._settle(clock, m["slow_detection"])
            self.wait(0.8)
        self.head, self.ranks, self.rec = head, ranks, VGroup(rec, clock, until, record)

    def the_default_recovery_waits(self) -> None:
        m, parts, scale, slow_t = self.m, self.parts, self.scale, self.slow_t
        # in seconds, as the clock counts
        with self.beat(f"Worst case, a hang: the NCCL timeout ({sig(m['slow_detection'], 3)} s), a fresh node, new "
                       f"processes, legacy TCPStore ({sig(m['slow_communicator_init'], 3)} s)."):
            self.play(FadeOut(self.rec), FadeOut(self.ranks), run_time=0.5)
            slow_name = label("worst case", size=SMALL_SIZE, color=MUTED)
            slow_name.next_to([BAR_LEFT, SLOW_Y, 0], LEFT, buff=0.12)
            slow_c = counter("MTTR", 0, unit="s", size=SMALL_SIZE, color=BAD)
            slow_c.move_to([BAR_LEFT + BAR_WIDTH + 1.35, SLOW_Y, 0])
            slow_c[1].add_updater(_shown(slow_t))
            self.slow_c = slow_c
            # the key first, so every part is named as its bar grows
            keys = self._key().next_to(self.head, DOWN, buff=0.2)
            self.play(FadeIn(slow_name), FadeIn(slow_c), FadeIn(keys), run_time=0.5)
            self._grow(parts, "slow", ["detection", "rescheduling", "process restart", "communicator init"],
                       SLOW_Y, scale, slow_t, run_time=3.4)
            self.play(FadeIn(self._minute_tick(SLOW_Y, SLOW_Y, scale)), run_time=0.3)
            # the clock is a running sum: the stampede and the load are still to come
            self.so_far = label("so far", size=SMALL_SIZE, color=MUTED).next_to(slow_c, DOWN, buff=0.08)
            self.play(FadeIn(self.so_far), run_time=0.3)
            self.wait(1.2)

    def the_stampede(self) -> None:
        m, p, a, parts, scale, slow_t = self.m, self.p, self.a, self.parts, self.scale, self.slow_t
        with self.beat(f"Then {fmt_count(m['metadata_opens'])} lookups queue at one metadata server "
                       f"({fmt_seconds(m['slow_metadata_opens'])}), and every rank reads from storage "
                       f"({fmt_seconds(m['slow_checkpoint_load'])}). Today's default store: "
                       f"{sig(m['mttr_current'], 3)} s for a hang, {sig(m['mttr_current_crash'], 3)} s for a crash."):
            mds = _server("metadata server", palette.role("storage"), width=2.6).move_to([4.4, STAGE_Y + 0.3, 0])
            crowd = self._rank_grid(a["ranks"], cols=4).move_to([-5.6, STAGE_Y + 0.3, 0])
            gap = 0.27
            queue_x = mds.get_left()[0] - 0.3 - gap * np.arange(a["ranks"])
            self.play(FadeIn(mds), FadeIn(crowd), FadeOut(self.so_far), run_time=0.6)
            moves = [d.animate.move_to([queue_x[i], STAGE_Y + 0.3, 0]).set_fill(palette.role("storage"), 1)
                     for i, d in enumerate(crowd)]
            self.play(LaggedStart(*moves, lag_ratio=0.08), run_time=1.6)
            q_note = label(f"{fmt_count(p['gpus'])} ranks × {fmt_count(p['files_per_rank'])} lookups, "
                           f"one at a time: {fmt_seconds(m['slow_metadata_opens'])}", size=SMALL_SIZE, color=MUTED)
            q_note.next_to(mds, DOWN, buff=0.3).align_to(mds, RIGHT)
            # the case the page weighs beside it: the Python environment on the shared file system
            env_note = label(f"{fmt_seconds(m['metadata_shared_env'])} if the Python environment is on the "
                             f"shared file system ({fmt_count(p['shared_env_lookups'])} lookups each)",
                             size=SMALL_SIZE, color=MUTED)
            env_note.next_to(q_note, DOWN, buff=0.08).align_to(mds, RIGHT)
            q_note = VGroup(q_note, env_note)
            self.play(FadeIn(q_note), run_time=0.4)
            # the head of the queue is served, the rest moves up and waits (and the clock runs)
            k = len(crowd) // 3
            served = [FadeOut(d, shift=0.6 * RIGHT) for d in list(crowd)[:k]]
            self.play(LaggedStart(*served, lag_ratio=0.3), run_time=1.2)
            self.play(*[d.animate.shift(k * gap * RIGHT) for d in list(crowd)[k:]], run_time=0.5)
            store = _server("storage", palette.role("storage"), width=2.6, height=0.55)
            store.move_to([4.4, STAGE_Y - 1.25, 0])
            s_note = label(f"then every rank reads weights and optimizer state: "
                           f"{fmt_bytes(m['storage_volume_every_rank'])} at {fmt_rate(p['read_bandwidth'])}: "
                           f"{fmt_seconds(m['slow_checkpoint_load'])}", size=SMALL_SIZE, color=MUTED)
            s_note.next_to(store, LEFT, buff=0.35)
            self._grow(parts, "slow", ["metadata opens"], SLOW_Y, scale, slow_t, run_time=1.0)
            self.play(FadeIn(store), FadeIn(s_note), run_time=0.5)
            self._grow(parts, "slow", ["checkpoint load"], SLOW_Y, scale, slow_t, run_time=1.4)
            self._settle(self.slow_c, m["mttr_slow"])
            # the legacy worst case is not typical: PyTorch's current default (libuv store) marked on the same row,
            # for a hang and for a crash, so the contrast with the fast rows is not read against the worst case only
            current = self._current_marks(scale)
            self.play(FadeIn(current), run_time=0.5)
            self.wait(1.0)
        # what the next beat clears: the server, its notes, the ranks still queued and the current-default marks
        # (their labels would sit where the fast row grows)
        self.stampede = VGroup(mds, q_note, store, s_note, *list(crowd)[k:], current)

    def the_fast_full_restart(self) -> None:
        m, p, a, parts, fast_t = self.m, self.p, self.a, self.parts, self.fast_t
        scale = self.scale * self.zoom
        with self.beat(f"Fast full restart: a progress timeout catches the hang, a warm spare, "
                       f"{fmt_count(p['metadata_shards'])} metadata shards, one reader per shard: "
                       f"{fmt_seconds(m['mttr_fast'])}."):
            self.play(FadeOut(self.stampede), run_time=0.4)
            fast_name = label(f"fast (×{self.zoom})", size=SMALL_SIZE, color=MUTED)
            fast_name.next_to([BAR_LEFT, FAST_Y, 0], LEFT, buff=0.12)
            fast_c = counter("MTTR", 0, unit="s", size=SMALL_SIZE, color=OK)
            fast_c.move_to([BAR_LEFT + BAR_WIDTH + 1.35, FAST_Y, 0])
            fast_c[1].add_updater(_shown(fast_t))
            shards = VGroup(*[_server(f"MDS {i + 1}", palette.role("storage"), width=1.25, height=0.55)
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
                           f"depth {fmt_count(m['broadcast_depth'])} ({fmt_count(min(a['tree_depth'], 3))} of "
                           f"{fmt_count(a['tree_depth'])} levels drawn)", size=SMALL_SIZE, color=MUTED)
            t_note.next_to(tree_g, DOWN, buff=0.3).set_x(1.2)
            self.play(FadeIn(fast_name), FadeIn(fast_c), FadeIn(shards), FadeIn(more), run_time=0.6)
            # one mark for both zoomed rows: the partial row (next beat) grows across it
            # its label names the zoom, so it is not read as the default row's 1-minute mark
            self.play(FadeIn(self._minute_tick(FAST_Y, PARTIAL_Y, scale, DOWN, f"1 min (×{self.zoom})")),
                      run_time=0.3)
            self._grow(parts, "fast", ["detection", "rescheduling", "process restart"], FAST_Y, scale, fast_t,
                       run_time=1.4)
            # the set-up: the worst case's TCPStore segment drops to MegaScale's optimized figure, the two
            # largest parts of this recovery (processes and set-up) named under the bar
            sec = parts["communicator init"]["fast"]
            x0 = BAR_LEFT + fast_t.get_value() * scale
            target = Rectangle(width=max(sec * scale, 0.02), height=BAR_H, stroke_width=0,
                               fill_color=_colour("communicator init"), fill_opacity=1)
            target.move_to([x0 + max(sec * scale, 0.02) / 2, FAST_Y, 0])
            setup = self.slow_bars[3].copy()
            s_note = label(f"processes {fmt_seconds(m['fast_process_restart'])} (assumed) · set-up "
                           f"{fmt_seconds(m['slow_communicator_init'])} → {fmt_seconds(m['fast_communicator_init'])}",
                           size=SMALL_SIZE, color=INK)
            # right of the zoomed 1-minute tick, which runs down past this row to its label
            s_note.next_to([BAR_LEFT + 60.0 * scale, FAST_Y - BAR_H / 2, 0], DOWN, buff=0.1)
            s_note.align_to([BAR_LEFT + 60.0 * scale + 0.15, 0, 0], LEFT)
            self.play(Transform(setup, target), fast_t.animate.increment_value(sec), FadeIn(s_note),
                      run_time=1.2, rate_func=linear)
            self.fast_bars.add(setup)
            self._grow(parts, "fast", ["metadata opens"], FAST_Y, scale, fast_t, run_time=0.3)
            self.play(FadeIn(store), FadeIn(tree_g), run_time=0.5)
            self.play(Create(feed), reader.animate.set_fill(palette.role("data"), 1), run_time=0.6)
            levels = self._levels(tree)
            self.play(LaggedStart(*[AnimationGroup(*[n.animate.set_fill(OK, 1) for n in lvl]) for lvl in levels[1:]],
                                  lag_ratio=0.6), FadeIn(t_note), run_time=1.6)
            self._grow(parts, "fast", ["checkpoint load"], FAST_Y, scale, fast_t, run_time=0.8)
            self._settle(fast_c, m["mttr_fast"])
            self.wait(1.2)
        self.restart_stage = VGroup(shards, more, store, feed, tree_g, t_note, s_note)

    def the_partial_restart(self) -> None:
        """The blast radius: the healthy nodes keep their state; a warm spare copies the failed node's from a peer."""
        m, a, parts, partial_t = self.m, self.a, self.parts, self.partial_t
        scale = self.scale * self.zoom
        k = a["node_ranks"]
        with self.beat(f"Partial restart: only the {fmt_count(m['reload_ranks_partial'])} ranks of one node reload, "
                       f"from a peer's memory: back in {fmt_seconds(m['mttr_partial'])} after a hang, "
                       f"{fmt_seconds(m['mttr_partial_crash'])} after a crash; the copy itself "
                       f"{fmt_seconds(m['partial_checkpoint_load'])}."):
            self.play(FadeOut(self.restart_stage), run_time=0.4)
            name = label(f"partial (×{self.zoom})", size=SMALL_SIZE, color=MUTED)
            name.next_to([BAR_LEFT, PARTIAL_Y, 0], LEFT, buff=0.12)
            clock = counter("MTTR", 0, unit="s", size=SMALL_SIZE, color=OK)
            clock.move_to([BAR_LEFT + BAR_WIDTH + 1.35, PARTIAL_Y, 0])
            clock[1].add_updater(_shown(partial_t))
            # three nodes of k ranks: a healthy peer, the failed node, and a warm spare beside them
            peer, failed, spare = (self._node(k, RANK) for _ in range(3))
            # a little above the stage's centre: the cost and its split need two lines under the tags
            peer.move_to([-3.6, STAGE_Y - 0.05, 0])
            failed.move_to([-0.2, STAGE_Y - 0.05, 0])
            spare.move_to([3.4, STAGE_Y - 0.05, 0])
            spare[0].set_fill(MUTED, 0.5)  # up, but holding no state yet
            tags = VGroup(*[label(t, size=SMALL_SIZE, color=MUTED).next_to(n, DOWN, buff=0.2)
                            for t, n in (("healthy peer (keeps running)", peer), ("failed node", failed),
                                         ("warm spare", spare))])
            self.play(FadeIn(name), FadeIn(clock),
                      FadeIn(peer), FadeIn(failed), FadeIn(spare), FadeIn(tags), run_time=0.6)
            self.play(failed[0].animate.set_fill(BAD, 1), run_time=0.4)
            self._grow(parts, "partial", ["detection", "rescheduling"], PARTIAL_Y, scale, partial_t, run_time=1.0)
            self.play(FadeOut(failed, shift=0.4 * DOWN), spare.animate.move_to(failed.get_center()),
                      tags[2].animate.next_to(failed, DOWN, buff=0.2), FadeOut(tags[1]), run_time=0.7)
            self._grow(parts, "partial", ["communicator init"], PARTIAL_Y, scale, partial_t, run_time=1.0)
            # the state moves: one packet per rank, peer → spare, each through its own NIC
            packets = VGroup(*[Dot(radius=0.07, color=palette.role("gpu")).move_to(d) for d in peer[0]])
            copy = Arrow(peer.get_right(), spare.get_left(), buff=0.1, color=palette.role("data"), stroke_width=4)
            # right of the spare, clear of the zoomed 1-minute label above the stage
            note = label(f"{fmt_bytes(m['state_per_rank'])} per rank, one NIC each: "
                         f"{fmt_seconds(m['partial_checkpoint_load'])}", size=SMALL_SIZE, color=MUTED)
            note.next_to(spare, RIGHT, buff=0.4)
            self.play(GrowArrow(copy), FadeIn(packets), FadeIn(note), run_time=0.5)
            self.play(*[pk.animate.move_to(d) for pk, d in zip(packets, spare[0], strict=True)], run_time=1.0)
            self.play(FadeOut(packets), spare[0].animate.set_fill(RANK, 1), run_time=0.3)
            self._grow(parts, "partial", ["checkpoint load"], PARTIAL_Y, scale, partial_t, run_time=0.3)
            self._settle(clock, m["mttr_partial"])
            # a crash is seen by heartbeats, not the progress timeout: the same bar would end this much earlier.
            # A short tick on the bar's top edge (the gap to the fast row above holds no text) and the figure
            # beside the row's clock, where nothing else is written
            cx = BAR_LEFT + m["mttr_partial_crash"] * scale
            crash = Line([cx, PARTIAL_Y + BAR_H * 0.5, 0], [cx, PARTIAL_Y + BAR_H * 0.8, 0], color=INK,
                         stroke_width=3)
            crash_note = label(f"crash {sig(m['mttr_partial_crash'], 3)} s", size=SMALL_SIZE, color=INK)
            # under the clock, left-aligned with it: right of it the note ran to the frame's edge
            # (a little below it, so the two figures do not read as one block)
            crash_note.next_to(clock, DOWN, buff=0.16).align_to(clock, LEFT)
            self.play(Create(crash), FadeIn(crash_note), run_time=0.5)
            self.wait(0.8)
        # the second caption: the headline's condition and range, and the record's mean
        # the range in one unit, seconds, so it reads against the 60 s target (fmt_seconds turns its top into min)
        span_text = f"{sig(m['mttr_partial_low'], 3)}–{sig(m['mttr_partial_high'], 3)} s"
        with self.beat(f"A hang: {span_text} with the sweeps moved together. "
                       f"Under a minute while the set-up takes at most "
                       f"{fmt_seconds(m['init_budget_partial'])} for a hang, "
                       f"{fmt_seconds(m['init_budget_partial_crash'])} for a crash, and the spare needs no warm-up. "
                       f"It cures "
                       f"{fmt_percent(m['coverable_share'])} of the record's failures; the rest restart every rank, "
                       f"so the mean is {fmt_seconds(m['mttr_partial_mean'])}."):
            # the record's mix, under the crash's figure: the condition, the share covered and the mean. Built
            # first, so the range below can stop short of it; the copy's note gives it room
            mean = VGroup(markup("set-up for sub-minute:", size=SMALL_SIZE, color=MUTED),
                          markup(f"hang ≤ {sig(m['init_budget_partial'], 3)} s, "
                                 f"crash ≤ {sig(m['init_budget_partial_crash'], 3)} s", size=SMALL_SIZE, color=MUTED),
                          markup(f"covers {fmt_percent(m['coverable_share'])} of failures", size=SMALL_SIZE,
                                 color=INK),
                          markup(f"mean of all: <b>{sig(m['mttr_partial_mean'], 3)} s</b>", size=SMALL_SIZE,
                                 color=INK)).arrange(DOWN, buff=0.06, aligned_edge=LEFT)
            # against the frame's right edge: left-aligned with the clock, its longest line ran past it
            mean.next_to(crash_note, DOWN, buff=0.08).to_edge(RIGHT, buff=0.5)
            # the range as a whisker under the partial row and its 1-minute label, not through the bar; where its
            # high end would run into the column under the clock it stops there with an arrowhead (the note gives
            # the value)
            span_y = PARTIAL_Y - BAR_H * 0.8 - 0.4
            lo, hi = (BAR_LEFT + m[k] * scale for k in ("mttr_partial_low", "mttr_partial_high"))
            end = min(hi, mean.get_left()[0] - 0.45)
            cap = Line([lo, span_y - 0.12, 0], [lo, span_y + 0.12, 0], color=INK, stroke_width=3)
            if end < hi:
                bar = Arrow([lo, span_y, 0], [end, span_y, 0], buff=0, color=INK, stroke_width=3,
                            max_tip_length_to_length_ratio=0.05, tip_length=0.18)
                span = VGroup(bar, cap)
            else:
                span = VGroup(Line([lo, span_y, 0], [end, span_y, 0], color=INK, stroke_width=3), cap,
                              Line([end, span_y - 0.12, 0], [end, span_y + 0.12, 0], color=INK, stroke_width=3))
            span_note = label(f"sweeps: {span_text}",
                              size=SMALL_SIZE, color=INK).next_to(cap, LEFT, buff=0.12)
            self.play(FadeOut(note), Create(span), FadeIn(span_note), run_time=0.8)
            cost = markup(f"per node failure: <b>{fmt_count(m['gpu_hours_per_failure_partial'])}</b> GPU-hours, "
                          f"vs {fmt_count(m['gpu_hours_per_failure_fast'])} (fast full), "
                          f"{fmt_count(m['gpu_hours_per_failure_slow'])} (worst case)", size=SMALL_SIZE, color=INK)
            cost.next_to(tags, DOWN, buff=0.2)
            # not all of the saving is the blast radius: most of it is the per-step copy (half a step lost,
            # not τ*/2), which a full restart could use too
            split = markup(f"{fmt_count(m['gpu_hours_saved_partial'])} saved over fast full: "
                           f"<b>{fmt_count(m['gpu_hours_saved_by_copy'])}</b> by the per-step copy, "
                           f"<b>{fmt_count(m['gpu_hours_saved_by_live_processes'])}</b> by live processes",
                           size=SMALL_SIZE, color=INK)
            split.next_to(cost, DOWN, buff=0.1)
            self.play(FadeIn(cost, shift=0.2 * UP), run_time=0.5)
            self.play(FadeIn(split, shift=0.2 * UP), run_time=0.5)
            self.play(FadeIn(mean, shift=0.2 * UP), run_time=0.5)
            self.wait(3.0)

    # --- helpers ------------------------------------------------------------------
    def _current_marks(self, scale: float) -> VGroup:
        """Ticks across the worst-case row at the current default's MTTR for a crash and for a hang, each
        labelled under the row; (ticks, labels)."""
        m = self.m
        ticks, names = VGroup(), VGroup()
        for key, kind in (("mttr_current_crash", "crash"), ("mttr_current", "hang")):
            x = BAR_LEFT + m[key] * scale
            # below the bar, from its edge down: a tick across the bar would sit inside a part's segment and read
            # as a boundary between parts
            tick = Line([x, SLOW_Y - BAR_H * 0.55, 0], [x, SLOW_Y - BAR_H * 1.2, 0], color=INK, stroke_width=3)
            ticks.add(tick)
            names.add(label(f"{kind} {sig(m[key], 3)} s", size=SMALL_SIZE, color=INK).next_to(tick, DOWN, buff=0.05))
        names.add(label("← today's default store", size=SMALL_SIZE, color=MUTED).next_to(names[-1], RIGHT, buff=0.2))
        return VGroup(ticks, names)

    def _settle(self, clock: VGroup, seconds: float) -> None:
        """A row's clock, once its bar is whole, to three figures in the unit it counted in (1,974 s, 55.1 s), not
        whole seconds: every clock on screen reads in seconds, as the page's part table does."""
        for part in clock[1:]:
            part.clear_updaters()
        final = label(f"{sig(seconds, 3)} s", size=SMALL_SIZE, color=clock[1].get_color())
        final.next_to(clock[0], RIGHT, buff=0.15)
        running = list(clock[1:])
        self.play(FadeOut(VGroup(*running)), FadeIn(final), run_time=0.3)
        clock.remove(*running)
        clock.add(final)

    def _rank_grid(self, n: int, cols: int = 12) -> VGroup:
        dots = VGroup(*[Dot(radius=0.09, color=RANK, fill_opacity=1) for _ in range(n)])
        return dots.arrange_in_grid(cols=cols, buff=0.22)

    def _minute_tick(self, top: float, bottom: float, scale: float, side=UP, text: str = "1 min") -> VGroup:
        """A mark at one minute across bar rows from `top` to `bottom` (their centres), drawn at `scale`
        scene units per second, labelled at its `side` end."""
        x = BAR_LEFT + 60.0 * scale
        tick = Line([x, bottom - BAR_H * 0.8, 0], [x, top + BAR_H * 0.8, 0], color=INK, stroke_width=2)
        return VGroup(tick, label(text, size=SMALL_SIZE, color=MUTED).next_to(tick, side, buff=0.02))

    def _node(self, k: int, colour: str) -> VGroup:
        """One node: k ranks in a box."""
        dots = VGroup(*[Dot(radius=0.09, color=colour, fill_opacity=1) for _ in range(k)])
        dots.arrange_in_grid(rows=2, buff=0.2)
        box = RoundedRectangle(corner_radius=0.08, width=dots.width + 0.35, height=dots.height + 0.3,
                               stroke_color=MUTED, stroke_width=1.5).move_to(dots)
        return VGroup(dots, box)

    def _key(self) -> VGroup:
        rows = [VGroup(Rectangle(width=0.22, height=0.22, stroke_width=0,
                                 fill_color=_colour(k), fill_opacity=1),
                       label(k, size=SMALL_SIZE, color=MUTED)).arrange(RIGHT, buff=0.1) for k in PARTS]
        return VGroup(*rows).arrange_in_grid(rows=2, buff=(0.32, 0.12), col_alignments="lll")

    def _grow(self, parts: dict, way: str, names: list[str], y: float, scale: float,
              tracker: ValueTracker, run_time: float) -> None:
        """Grow the bar of `way` by the parts `names`, one after another, while its clock counts."""
        bars = {"slow": self.slow_bars, "fast": self.fast_bars, "partial": self.partial_bars}[way]
        total = sum(parts[k][way] for k in names) or 1.0
        for k in names:
            sec = parts[k][way]
            if sec <= 0:  # a part this recovery skips
                continue
            x0 = BAR_LEFT + tracker.get_value() * scale
            width = max(sec * scale, 0.02)
            rect = Rectangle(width=width, height=BAR_H, stroke_width=0, fill_color=_colour(k),
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
