"""data-prefetch · Petabyte data streaming & worker prefetching.

One data-parallel rank's input pipeline: a worker reads sequences from object
storage into a ring buffer ahead of the GPU. With a ring of one batch the next
batch is ready before the step ends; with a shallower ring the GPU must wait
for the rest of its batch, and a slow read stalls the step. Every number comes
from self.data (models.data_prefetch.prefetch_pipeline); the read times drawn are
the model's sampled reads, scaled for the screen.
"""

from __future__ import annotations

from manim import (
    DOWN,
    LEFT,
    RIGHT,
    UP,
    Arrow,
    Create,
    Dot,
    FadeIn,
    FadeOut,
    GrowFromEdge,
    Rectangle,
    Square,
    Succession,
    ValueTracker,
    VGroup,
    Write,
    linear,
)

from design import palette
from models.units import fmt_bytes, fmt_count, fmt_percent, fmt_rate, fmt_seconds, si
from scenes.server_parts import chip, gpu
from scenes.style import BODY_SIZE, INK, MUTED, SMALL_SIZE, ExhibitScene, label, markup, title

DATA = palette.role("data")
COMPUTE = palette.role("compute")
STALL = palette.role("failure")
SLOW = palette.role("highlight")
STORE = palette.ROLE["storage"]

ROW_Y = 0.3
SLOT, GAP = 0.3, 0.06
RING_X0 = -2.9  # left edge of the ring
GPU_X = 5.1
BAR_W, BAR_H = 2.0, 0.28


def _slot_x(i: int) -> float:
    return RING_X0 + SLOT / 2 + i * (SLOT + GAP)


class PrefetchRing(ExhibitScene):
    scene_id = "data-prefetch"

    def construct(self) -> None:
        self.m, self.p, self.a = self.data["summary"], self.data["params"], self.data["animation"]
        self.B, self.shallow = self.a["slots"], self.a["shallow_depth"]
        self.reads = self.a["reads"]
        for beat in (self.the_demand, self.the_pipeline, self.a_shallow_ring, self.one_slow_read,
                     self.slow_down, self.shards):
            beat()

    def the_demand(self) -> None:
        m, p, B = self.m, self.p, self.B
        with self.beat(f"Llama 3 405B takes a step every {fmt_seconds(m['step_time'])}; the whole job reads "
                       f"only {fmt_rate(m['job_bytes_per_s'])} of tokens, far less than a checkpoint burst."):
            head = title("How do you keep GPUs from starving for data?")
            demand = markup(
                f"{fmt_count(p['gpus'])} GPUs · {fmt_count(m['job_tokens_per_s'])} tokens/s · "
                f"<b>{fmt_rate(m['job_bytes_per_s'])}</b> of data  vs  storage, sustained (checkpoint writes): "
                f"{fmt_rate(p['checkpoint_bandwidth'])}",
                size=SMALL_SIZE, color=INK).next_to(head, DOWN, buff=0.3)
            rank = markup(
                f"each data-parallel rank: <b>{B} sequences</b> ({si(m['rank_bytes_per_step'], 'B')}) "
                f"per step of {fmt_seconds(m['step_time'])}", size=SMALL_SIZE, color=MUTED)
            rank.next_to(demand, DOWN, buff=0.2)
            self.play(Write(head), run_time=1.2)
            self.play(FadeIn(demand, shift=0.2 * DOWN), run_time=0.9)
            self.play(FadeIn(rank), run_time=0.6)
            self.demand_txt, self.rank_txt = demand, rank
            self.rates = self._rate_bars(m["job_bytes_per_s"], p["checkpoint_bandwidth"])
            self.play(*[GrowFromEdge(bar, LEFT) for bar in self.rates["bars"]], FadeIn(self.rates["labels"]),
                      run_time=1.4)

    def _rate_bars(self, data_rate: float, checkpoint_rate: float) -> dict:
        """The job's data rate against a checkpoint burst, as bars on one linear scale (the data bar is
        a hairline: that is the point)."""
        full, left = 9.0, -5.6
        rows = []
        for y, rate, colour, name in ((ROW_Y, checkpoint_rate, MUTED, "storage, sustained (checkpoint writes)"),
                                      (ROW_Y - 0.9, data_rate, DATA, "training data")):
            bar = Rectangle(width=max(full * rate / checkpoint_rate, 0.03), height=0.45, stroke_width=0,
                            fill_color=colour, fill_opacity=1)
            bar.move_to([left + bar.width / 2, y, 0])
            # the data bar is a hairline next to the checkpoint's: its label says by how much
            ratio = "" if rate == checkpoint_rate else f", {fmt_count(checkpoint_rate / rate)} times less (a hairline)"
            text = label(f"{name}: {fmt_rate(rate)}{ratio}", size=SMALL_SIZE, color=INK)
            text.next_to([left, y + 0.225, 0], UP, buff=0.08).align_to([left, 0, 0], LEFT)
            rows.append((bar, text))
        return {"bars": VGroup(*[b for b, _ in rows]), "labels": VGroup(*[t for _, t in rows])}

    def the_pipeline(self) -> None:
        """A ring of one batch fills while the GPU computes."""
        m, B, reads = self.m, self.B, self.reads
        with self.beat(f"One worker fills a ring of {B} slots, one batch, while the GPU computes; "
                       f"the GPU takes it at once: idle {fmt_percent(m['best_idle'])}."):
            store = chip("object store", STORE, width=1.8, height=0.9).move_to([-5.5, ROW_Y, 0])
            worker = chip("worker", DATA, width=1.2, height=0.55).move_to([-3.75, ROW_Y + 1.05, 0])
            slots = VGroup(*[Square(SLOT, stroke_color=MUTED, stroke_width=2).move_to([_slot_x(i), ROW_Y, 0])
                             for i in range(B)])
            ring_lbl = label(f"ring buffer: {B} sequences = one batch", size=SMALL_SIZE, color=MUTED)
            ring_lbl.next_to(slots, DOWN, buff=0.25)
            chip_g = gpu("GPU", width=1.5, height=0.9).move_to([GPU_X, ROW_Y, 0])
            bar_frame = Rectangle(width=BAR_W, height=BAR_H, stroke_color=MUTED, stroke_width=1.5)
            bar_frame.next_to(chip_g, DOWN, buff=0.35)
            step_lbl = label(f"step {fmt_seconds(m['step_time'])}", size=SMALL_SIZE, color=MUTED)
            step_lbl.next_to(bar_frame, DOWN, buff=0.15)
            arrows = VGroup(
                Arrow(store.get_right(), [RING_X0 - 0.1, ROW_Y, 0], buff=0.1, color=MUTED, stroke_width=3),
                Arrow(slots.get_right(), chip_g.get_left(), buff=0.15, color=MUTED, stroke_width=3),
            )
            self.play(FadeOut(self.rates["bars"]), FadeOut(self.rates["labels"]), run_time=0.4)
            self.play(FadeIn(store), FadeIn(worker), Create(slots), FadeIn(ring_lbl), FadeIn(chip_g),
                      Create(bar_frame), FadeIn(step_lbl), FadeIn(arrows), run_time=1.2)
            fills = self._fill(slots, range(B), reads, per_read=0.28)
            bar = self._bar(bar_frame, COMPUTE)
            self.play(bar.animate.stretch_to_fit_width(BAR_W, about_edge=LEFT), run_time=1.0, rate_func=linear)
            # the step ends: the GPU takes the whole batch at once and the worker refills the ring
            self.play(*[d.animate.move_to(chip_g.get_center()).set_opacity(0) for d in fills],
                      bar.animate.stretch_to_fit_width(0.02, about_edge=LEFT), run_time=0.8)
            self.remove(*fills)
            idle_best = label(f"ring of {B}: GPU idle {fmt_percent(m['best_idle'])}", size=BODY_SIZE, color=COMPUTE)
            idle_best.move_to([0, -1.55, 0])
            refill = self._fill(slots, range(B), reads, per_read=0.12,
                                extra=[bar.animate.stretch_to_fit_width(BAR_W * 0.9, about_edge=LEFT)])
            self.play(FadeIn(idle_best), run_time=0.5)
            self.wait(1.0)
        self.store, self.worker, self.slots, self.ring_lbl, self.chip_g = store, worker, slots, ring_lbl, chip_g
        self.arrows = arrows
        self.bar_frame, self.step_lbl, self.bar = bar_frame, step_lbl, bar
        self.idle_best, self.refill = idle_best, refill

    def a_shallow_ring(self) -> None:
        """A shallow ring: the GPU waits for the rest of its batch."""
        B, shallow, slots, reads, step_lbl = self.B, self.shallow, self.slots, self.reads, self.step_lbl
        T = self.m["step_time"]
        # one worker: the reads the ring could not hold run in series while the GPU waits (the model's draws)
        wait = sum(reads[shallow:B])
        mean_wait = (B - shallow) * self.m["mean_read"]  # the same wait on average: reads in series add
        with self.beat(f"A ring of {shallow}: the GPU waits for {B - shallow} more reads in series, "
                       f"{fmt_seconds(wait)} this step (on average {fmt_seconds(mean_wait)}) of a "
                       f"{fmt_seconds(T)} step."):
            self.play(FadeOut(self.idle_best), *[FadeOut(d) for d in self.refill],
                      self.bar.animate.stretch_to_fit_width(0.02, about_edge=LEFT), run_time=0.6)
            self.remove(*self.refill)
            cut = VGroup(*[slots[i] for i in range(shallow, B)])
            new_lbl = label(f"ring of {shallow} prefetched  ·  {B - shallow} read while the GPU waits",
                            size=SMALL_SIZE, color=MUTED)
            new_lbl.move_to(self.ring_lbl)
            self.play(cut.animate.set_stroke(opacity=0.25), FadeOut(self.ring_lbl), FadeIn(new_lbl), run_time=0.6)
            self.ring_lbl_now = new_lbl
            part = self._fill(slots, range(shallow), reads, per_read=0.1)
            self.play(*[d.animate.move_to(self.chip_g.get_center()).set_opacity(0) for d in part], run_time=0.7)
            self.remove(*part)
            wait_bar = self._bar(self.bar_frame, STALL)
            wait_lbl = label(f"this step: GPU waits {fmt_seconds(wait)}", size=SMALL_SIZE, color=STALL)
            wait_lbl.next_to(step_lbl, DOWN, buff=0.2).align_to(step_lbl, RIGHT)
            # the wait bar on the step's scale: the frame is one step of compute
            rest = self._fill(slots, range(shallow, B), reads[shallow:], per_read=0.22,
                              extra=[wait_bar.animate.stretch_to_fit_width(BAR_W * wait / T, about_edge=LEFT)])
            self.play(FadeIn(wait_lbl), run_time=0.4)
            self.wait(1.0)
        self.wait_bar, self.wait_lbl, self.rest = wait_bar, wait_lbl, rest

    def one_slow_read(self) -> None:
        """One slow read stalls the step."""
        m, B, shallow, T = self.m, self.B, self.shallow, self.m["step_time"]
        sync = fmt_percent(m["sync_idle_one_worker"])
        # the same step with its last read a p99 one: still a small slice of a step
        wait = sum(self.reads[shallow:B - 1]) + m["p99_read"]
        with self.beat(f"A p99 read ({fmt_seconds(m['p99_read'])}) adds little. The idle, "
                       f"{fmt_percent(m['shallow_idle'])}, is the {B - shallow} reads in series every step; "
                       f"no prefetch: {sync}."):
            self.play(*[FadeOut(d) for d in self.rest], FadeOut(self.wait_lbl),
                      self.wait_bar.animate.stretch_to_fit_width(0.02, about_edge=LEFT), run_time=0.4)
            self.remove(*self.rest)
            slow = Dot(radius=0.11, color=SLOW).move_to(self.store.get_right())
            slow_lbl = label(f"slow read: {fmt_seconds(m['p99_read'])}", size=SMALL_SIZE, color=SLOW)
            slow_lbl.next_to(self.worker, RIGHT, buff=0.3)
            self.play(FadeIn(slow), FadeIn(slow_lbl), run_time=0.4)
            wait_lbl = label(f"this step: GPU waits {fmt_seconds(wait)}", size=SMALL_SIZE, color=STALL)
            wait_lbl.move_to(self.wait_lbl)
            self.play(slow.animate.move_to(self.slots[shallow].get_center()),
                      self.wait_bar.animate.stretch_to_fit_width(BAR_W * wait / T, about_edge=LEFT),
                      FadeIn(wait_lbl), run_time=2.6, rate_func=linear)
            stall = markup(
                f"ring of {shallow}: idle <b>{fmt_percent(m['shallow_idle'])}</b>, p99 step "
                f"{fmt_seconds(m['shallow_p99'])}     no prefetch: idle <b>{sync}</b>",
                size=SMALL_SIZE, color=INK)
            fix = markup(f"ring of {B} (one batch), {m['best_workers']} worker: idle "
                         f"<b>{fmt_percent(m['best_idle'])}</b>", size=SMALL_SIZE, color=COMPUTE)
            VGroup(stall, fix).arrange(DOWN, buff=0.2).move_to([-1.6, -1.75, 0])  # clear of the wait label
            self.play(FadeIn(stall), run_time=0.6)
            self.play(FadeIn(fix), run_time=0.6)
            self.wait(2.4)
        self.finale = VGroup(stall, fix, slow, slow_lbl, wait_lbl)

    def slow_down(self) -> None:
        """The stressed case: a smaller model's short step, a refused GET retried after a backoff, and
        the ring that drains meanwhile: one batch empties, a deep ring does not."""
        m = self.m
        # the deep ring is sized by the slowest retried read of the simulation, not its p99: show that one
        T, slowest = m["small_step"], m["sample_longest_retried"]
        spanned = m["sample_longest_retried_steps"]
        deep = m["retry_batches"]
        ranks, job_deep = m["job_ranks"], m["job_retried_job_batches"]
        with self.beat(f"Llama 3 8B steps every {fmt_seconds(T)}. S3 refuses some GETs (503); a retried read "
                       f"took {fmt_seconds(slowest)}. {deep} batches keep one rank busy; the {ranks}-rank "
                       f"job needs {job_deep}."):
            self.play(FadeOut(self.finale), FadeOut(self.wait_bar), FadeOut(self.bar_frame), FadeOut(self.step_lbl),
                      FadeOut(self.slots), FadeOut(self.ring_lbl_now), FadeOut(self.bar), FadeOut(self.demand_txt),
                      FadeOut(self.rank_txt), run_time=0.5)
            head = markup(f"Llama 3 8B, same GPUs: a step every <b>{fmt_seconds(T)}</b>  ·  "
                          f"{fmt_percent(m['retry_throttled'])} of GETs refused", size=SMALL_SIZE, color=INK)
            head.move_to(self.demand_txt)
            refused = Dot(radius=0.12, color=STALL).move_to(self.worker.get_center())
            code = label("503 Slow Down", size=SMALL_SIZE, color=STALL).next_to(self.store, UP, buff=0.15)
            # two rings as level bars: one batch, and the deep ring
            rows = []
            for y, batches, colour in ((ROW_Y + 0.3, 1, STALL), (ROW_Y - 1.3, deep, COMPUTE)):
                frame = Rectangle(width=5.0, height=0.4, stroke_color=MUTED, stroke_width=1.5)
                frame.move_to([0.2, y, 0])
                level = Rectangle(width=4.94, height=0.34, stroke_width=0, fill_color=DATA, fill_opacity=0.9)
                level.move_to(frame)
                name = label(f"ring of {fmt_count(batches)} batch" + ("es" if batches > 1 else ""),
                             size=SMALL_SIZE, color=MUTED).next_to(frame, UP, buff=0.08).align_to(frame, LEFT)
                rows.append((frame, level, name, batches, colour))
            self.play(FadeIn(head), *[FadeIn(VGroup(f, lv, n)) for f, lv, n, _, _ in rows], run_time=0.8)
            # the refused GET bounces off the store, waits out its backoff, and retries
            self.play(refused.animate.move_to(self.store.get_right()), run_time=0.5)
            self.play(FadeIn(code), refused.animate.move_to(self.worker.get_center()), run_time=0.5)
            clock = label(f"slowest read, retried: done after {fmt_seconds(slowest)} = {spanned} steps",
                          size=SMALL_SIZE, color=SLOW).next_to(self.worker, RIGHT, buff=0.3)
            # meanwhile the GPU consumes one batch per step: each ring drains by `spanned` batches
            drains = []
            for _frame, level, _, batches, _ in rows:
                left = max(0.0, 1.0 - spanned / batches)
                drains.append(level.animate.stretch_to_fit_width(max(0.02, 4.94 * left), about_edge=LEFT))
            self.play(FadeIn(clock), refused.animate.move_to(self.store.get_right()), *drains,
                      run_time=2.4, rate_func=linear)
            empty = markup(f"empty after one step: GPU idle <b>{fmt_percent(m['retry_one_batch_idle'])}</b>",
                           size=SMALL_SIZE, color=STALL)
            empty.next_to(rows[0][0], DOWN, buff=0.12).align_to(rows[0][0], LEFT)
            # both idles from the read-time tail, at the same ring (the simulation's workers are not paired with them)
            held = markup(f"from the tail: one rank idle <b>{fmt_percent(m['retry_idle'])}</b> · "
                          f"the {ranks}-rank job <b>{fmt_percent(m['job_retried_rank_idle'])}</b>",
                          size=SMALL_SIZE, color=COMPUTE)
            held.next_to(rows[1][0], DOWN, buff=0.12).align_to(rows[1][0], LEFT)
            self.play(rows[0][0].animate.set_stroke(STALL, width=3), FadeIn(empty), FadeIn(held), run_time=0.7)
            self.wait(3.5)
        self.beat5 = VGroup(head, refused, code, clock, empty, held, *[VGroup(f, lv, n) for f, lv, n, _, _ in rows])

    def shards(self) -> None:
        """Shards instead of single sequences: one connection per ring slot streams 100 MB blocks into a ring of
        shards sized from the read's tail, and the smaller model's rank eats one every few hundred milliseconds.
        Shard positions follow a
        schedule computed here from the model's transfer and consumption times (the mean read, no tail)."""
        m, p = self.m, self.p
        W, ahead = m["shard_image_workers"], m["shard_image_ahead"]
        read, eat = m["shard_image_mean_read"], m["shard_image_consume"]
        with self.beat(f"Streamed as {fmt_bytes(p['shard_bytes'])} shards of images, one GET takes "
                       f"{fmt_seconds(m['shard_transfer'])}; the 8B rank eats one in {fmt_seconds(eat)}: "
                       f"{ahead} shards ahead, one connection per shard in the ring."):
            self.play(FadeOut(self.beat5), FadeOut(self.worker), FadeOut(self.arrows), run_time=0.5)
            head = markup(f"{fmt_bytes(p['shard_bytes'])} shards of images · one connection streams "
                          f"{fmt_rate(p['connection_rate'])}: <b>{fmt_seconds(m['shard_transfer'])}</b> a shard",
                          size=SMALL_SIZE, color=INK).move_to(self.demand_txt)
            sw, gap, x_front = 0.62, 0.1, 3.2  # the ring: slot 0 (next to be eaten) nearest the GPU
            slot_x = [x_front - i * (sw + gap) for i in range(ahead)]
            frames = VGroup(*[Rectangle(width=sw, height=0.5, stroke_color=MUTED, stroke_width=1.5)
                              .move_to([x, ROW_Y, 0]) for x in slot_x])
            ring_lbl = label(f"ring: {ahead} shards ahead\n{fmt_bytes(m['shard_image_ring_bytes'])} with the one "
                             "eaten", size=SMALL_SIZE, color=MUTED).next_to(frames, DOWN, buff=0.25)
            ring_lbl.align_to(frames, LEFT)  # clear of the shard being eaten under the GPU
            # every lane leaves from inside the store's box (its middle 80 %), however many there are
            half = 0.4 * self.store.height
            spacing = 2 * half / max(1, W - 1) if W > 1 else 0.0
            lanes_y = [ROW_Y + half - i * spacing for i in range(W)]
            x0, x1 = self.store.get_right()[0], slot_x[-1] - sw / 2 - 0.2
            lanes = VGroup(*[Arrow([x0, y, 0], [x1, ROW_Y + (y - ROW_Y) * 0.25, 0], buff=0, color=MUTED,
                                   stroke_width=2, max_tip_length_to_length_ratio=0.06) for y in lanes_y])
            eat_lbl = label(f"the rank eats one shard in {fmt_seconds(eat)}", size=SMALL_SIZE, color=COMPUTE)
            eat_lbl.next_to(self.chip_g, UP, buff=0.2).align_to(self.chip_g, RIGHT)  # clear of the lanes
            conn_lbl = label(f"{W} connections, one per shard in the ring", size=SMALL_SIZE, color=DATA)
            conn_lbl.next_to(lanes, UP, buff=0.1)
            self.play(FadeIn(head), Create(frames), FadeIn(ring_lbl), Create(lanes), FadeIn(eat_lbl),
                      FadeIn(conn_lbl), run_time=0.9)
            # the schedule: the ring starts full and each connection is partway through a shard
            n = 40
            arrive, start_read = [0.0] * n, [0.0] * n
            for j in range(ahead):
                start_read[j], arrive[j] = -read - 1.0, -1.0
            for c in range(W):
                j = ahead + c
                start_read[j] = -read * (c + 1) / (W + 1)
                arrive[j] = start_read[j] + read
            eat_start = [0.0] * n
            free = sorted(arrive[ahead:ahead + W])
            for j in range(n):
                eat_start[j] = max(eat_start[j - 1] + eat if j else 0.0, arrive[j])
                if j >= ahead + W:  # shard j starts once a connection is free and shard j - ahead is being eaten
                    t0 = max(free.pop(0), eat_start[j - ahead])
                    start_read[j], arrive[j] = t0, t0 + read
                    free = sorted(free + [arrive[j]])
                    eat_start[j] = max(eat_start[j - 1] + eat, arrive[j])
            lane_of = {j: (j - ahead) % W for j in range(ahead, n)}
            t = ValueTracker(0.0)
            blocks = VGroup()
            # the shard being eaten sits just under the GPU, not over its name
            gx = self.chip_g.get_bottom() + 0.35 * DOWN

            def place(j: int):
                def update(mob):
                    now = t.get_value()
                    mob.set_opacity(0)
                    if now < start_read[j] or now >= eat_start[j] + eat:
                        return
                    if now >= eat_start[j]:  # being eaten: shrinks inside the GPU
                        left = 1 - (now - eat_start[j]) / eat
                        mob.stretch_to_fit_width(max(0.02, sw * 0.9 * left)).move_to(gx)
                    elif now >= arrive[j]:  # waiting in the ring
                        q = sum(1 for i in range(j) if arrive[i] <= now < eat_start[i])
                        mob.stretch_to_fit_width(sw * 0.9).move_to([slot_x[min(q, ahead - 1)], ROW_Y, 0])
                    else:  # streaming along its connection: it grows as its bytes arrive
                        f = (now - start_read[j]) / read
                        y = lanes_y[lane_of.get(j, 0)]
                        mob.stretch_to_fit_width(max(0.02, sw * 0.9 * f))
                        mob.move_to([x0 + f * (x1 - x0), ROW_Y + (y - ROW_Y) * (1 - 0.75 * f), 0])
                    mob.set_fill(opacity=0.9)
                return update

            for j in range(n):
                b = Rectangle(width=sw * 0.9, height=0.36, stroke_width=0, fill_color=DATA, fill_opacity=0.9)
                b.add_updater(place(j))
                blocks.add(b)
            self.add(blocks)
            run = 6 * eat
            self.play(t.animate.set_value(run), run_time=max(4.0, run * 1.5), rate_func=linear)
            for b in blocks:
                b.clear_updaters()
            busy = markup(f"GPU idle <b>{fmt_percent(m['shard_image_idle'])}</b> with {ahead} shards ahead "
                          f"(the job of {m['job_ranks']} ranks: <b>{m['shard_image_job_ahead']}</b>); one shard "
                          f"ahead: idle <b>{fmt_percent(m['shard_image_one_one_idle'])}</b>",
                          size=SMALL_SIZE, color=COMPUTE).move_to([0, -1.9, 0])
            self.play(FadeIn(busy), run_time=0.6)
            self.wait(1.5)

    # --- helpers -----------------------------------------------------------------------
    def _bar(self, frame: Rectangle, colour: str) -> Rectangle:
        bar = Rectangle(width=0.02, height=BAR_H - 0.06, stroke_width=0, fill_color=colour, fill_opacity=0.9)
        bar.move_to(frame).align_to(frame, LEFT).shift(0.03 * RIGHT)
        self.add(bar)
        return bar

    def _fill(self, slots: VGroup, indices, reads: list[float], per_read: float, extra=()) -> list[Dot]:
        """Sequences arrive one by one (one worker), each taking time in proportion to its read."""
        mean = sum(reads) / len(reads)
        dots, steps = [], []
        for k, i in enumerate(indices):
            d = Dot(radius=0.09, color=DATA).move_to(slots[i].get_center())
            dur = min(0.6, max(0.05, per_read * reads[k % len(reads)] / mean))
            steps.append(FadeIn(d, scale=0.4, run_time=dur))
            dots.append(d)
        total = sum(a.run_time for a in steps)
        self.play(Succession(*steps), *[e for e in extra], run_time=total)
        return dots
