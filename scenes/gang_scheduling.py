"""gang-scheduling · Gang scheduling & all-or-nothing allocation.

Two jobs that each need three quarters of a small cluster are placed pod by
pod: each grabs half and both are stuck. Kueue's waitForPodsReady timeout
breaks the deadlock; gang admission avoids it (one job runs whole, the other
waits holding nothing); EASY backfill fills the idle GPUs with short jobs
that end before the waiting job's reservation. Then the trace results and
the probability that a 2,048-node gang can start at all. Every number comes
from self.data (models.gang_scheduling.gang_scheduling).
"""

from __future__ import annotations

from manim import DOWN, LEFT, RIGHT, FadeIn, FadeOut, Rectangle, Square, VGroup, Write

from design import palette
from models.units import HOUR, fmt_count, fmt_percent, fmt_seconds
from scenes.style import (
    BODY_SIZE,
    INK,
    MUTED,
    SMALL_SIZE,
    ExhibitScene,
    grow_value_bars,
    label,
    legend,
    markup,
    title,
    value_bars,
)

JOB_A = palette.role("primary")
JOB_B = palette.role("secondary")
SMALL_JOB = palette.role("ok")
FREE = palette.VIDEO["panel"]

CELL = 0.62
GRID_Y = 0.75  # centre of the two node rows


def _prob(x: float) -> str:
    return fmt_percent(x) if x >= 1e-3 else f"{x:.0e}"


class GangScheduling(ExhibitScene):
    scene_id = "gang-scheduling"

    def construct(self) -> None:
        demo = self.data["animation"]["demo"]
        self.gpus, self.need = demo["gpus"], demo["size"]
        self.two_jobs_grab_half()
        self.timeout_breaks_it()
        self.gang_admission()
        self.easy_backfill()
        self.the_trace()
        self.a_large_gang()

    def two_jobs_grab_half(self) -> None:
        """Two jobs placed pod by pod on a two-node grid: each holds half, nothing runs."""
        gpus, need = self.gpus, self.need
        per_node = gpus // 2
        half = gpus // 2
        with self.beat(f"Two jobs each need {need} of {gpus} GPUs. Placed pod by pod, each gets "
                       f"{half}: both wait, and nothing runs."):
            head = title("Why can't a job start on part of its GPUs?")
            self.cells = self._grid(gpus, per_node)
            nodes = VGroup(*[label(f"node {i + 1}", size=SMALL_SIZE, color=MUTED)
                             .next_to(self.cells[i * per_node], LEFT, buff=0.3) for i in range(2)])
            key = legend([("job A", JOB_A), ("job B", JOB_B), ("short jobs", SMALL_JOB), ("free", MUTED)])
            key.next_to(self.cells, DOWN, buff=0.4)
            self.play(Write(head), FadeIn(self.cells), FadeIn(nodes), FadeIn(key), run_time=1.2)
            order = [i for pair in zip(range(0, gpus, 2), range(1, gpus, 2), strict=True) for i in pair]
            anims = []
            for k, i in enumerate(order):
                col = JOB_A if k % 2 == 0 else JOB_B
                anims.append(self.cells[i].animate.set_fill(col, opacity=0.45).set_stroke(col, 3))
            self.play(*anims, run_time=1.6)
            status = markup(f"A holds {half}/{need} · B holds {half}/{need} · "
                            f"<b>{gpus} GPUs held, 0 busy: deadlock</b>", size=BODY_SIZE - 2, color=INK)
            status.next_to(key, DOWN, buff=0.35)
            self.play(FadeIn(status), run_time=0.6)
            self.wait(1.6)
        self.node_labels, self.legend_key, self.status = nodes, key, status

    def timeout_breaks_it(self) -> None:
        """Kueue's waitForPodsReady timeout evicts both; the jittered backoff lets A start first."""
        m, demo = self.data["summary"], self.data["animation"]["demo"]
        gpus, need = self.gpus, self.need
        with self.beat(f"Kueue's waitForPodsReady evicts both after {fmt_seconds(demo['timeout'])}; "
                       f"a jittered backoff lets one start first, {fmt_seconds(m['demo_timeout_first_start'])} in."):
            self.play(FadeOut(self.status), *[c.animate.set_fill(FREE, opacity=1).set_stroke(MUTED, 1.5)
                                              for c in self.cells], run_time=0.8)
            note = markup(f"timeout {fmt_seconds(demo['timeout'])} → evict both → requeue after "
                          f"{fmt_seconds(self.data['params']['backoff_base'])} (± jitter)",
                          size=BODY_SIZE - 2, color=INK).next_to(self.legend_key, DOWN, buff=0.35)
            self.play(FadeIn(note), run_time=0.6)
            self.play(*[self.cells[i].animate.set_fill(JOB_A, opacity=1).set_stroke(JOB_A, 3)
                        for i in range(need)],
                      *[self.cells[i].animate.set_fill(JOB_B, opacity=0.45).set_stroke(JOB_B, 3)
                        for i in range(need, gpus)], run_time=1.0)
            self.wait(1.4)
        self.timeout_note = note

    def gang_admission(self) -> None:
        """Gang admission: A runs whole, B waits in the queue holding nothing."""
        gpus, need = self.gpus, self.need
        with self.beat(f"Gang admission: a job starts only when all {need} GPUs are free. "
                       "A runs; B waits in the queue, holding nothing."):
            self.play(FadeOut(self.timeout_note),
                      *[self.cells[i].animate.set_fill(FREE, opacity=1).set_stroke(MUTED, 1.5)
                        for i in range(need, gpus)], run_time=0.6)
            queue = VGroup(Rectangle(width=1.9, height=0.9, stroke_color=JOB_B, stroke_width=3,
                                     fill_color=JOB_B, fill_opacity=0.25),
                           label(f"B: {need} GPUs", size=SMALL_SIZE, color=INK))
            queue[1].move_to(queue[0])
            q_lbl = label("queue", size=SMALL_SIZE, color=MUTED)
            q_grp = VGroup(q_lbl, queue).arrange(DOWN, buff=0.15)
            q_grp.next_to(self.cells, RIGHT, buff=0.6)
            run_lbl = markup(f"A: <b>{need}/{need}</b> running · {gpus - need} GPUs free, idle",
                             size=BODY_SIZE - 2, color=INK).next_to(self.legend_key, DOWN, buff=0.35)
            self.play(FadeIn(q_grp, shift=0.2 * LEFT), FadeIn(run_lbl), run_time=0.9)
            self.wait(1.6)
        self.queue_group, self.running_label = q_grp, run_lbl

    def easy_backfill(self) -> None:
        """EASY backfill: B's reservation, and short jobs filling the free GPUs before it."""
        gpus, need = self.gpus, self.need
        with self.beat(f"EASY backfill: B is reserved for when A ends ({fmt_seconds(HOUR)}); short jobs that "
                       "finish before then fill the free GPUs."):
            self.play(FadeOut(self.running_label), run_time=0.3)
            res = label(f"B reserved at t = {fmt_seconds(HOUR)}", size=SMALL_SIZE, color=JOB_B)
            res.next_to(self.queue_group, DOWN, buff=0.2)
            fill = [self.cells[i].animate.set_fill(SMALL_JOB, opacity=1).set_stroke(SMALL_JOB, 3)
                    for i in range(need, gpus)]
            bf_lbl = markup(f"{gpus - need} short jobs backfilled: <b>{gpus}/{gpus} busy</b>, B not delayed",
                            size=BODY_SIZE - 2, color=INK).next_to(self.legend_key, DOWN, buff=0.35)
            self.play(FadeIn(res), run_time=0.5)
            self.play(*fill, FadeIn(bf_lbl), run_time=1.2)
            self.wait(1.6)
        self.reservation, self.backfill_label = res, bf_lbl

    def the_trace(self) -> None:
        """The trace's results: each policy's busy and idle-held GPUs and waits."""
        m = self.data["summary"]
        days = m["greedy_first_deadlock"] / (24 * HOUR)
        with self.beat(f"Over {fmt_count(m['jobs'])} Philly-like jobs on {fmt_count(m['gpus'])} GPUs: greedy "
                       f"deadlocks on day {days:.0f}; backfill halves gang's tail wait."):
            self.play(FadeOut(VGroup(self.cells, self.node_labels, self.legend_key, self.queue_group,
                                     self.reservation, self.backfill_label)), run_time=0.6)
            rows = [("policy", "busy", "held idle", "wait p50", "wait p99"),
                    ("greedy partial", fmt_percent(m["greedy_utilisation"]), fmt_percent(m["greedy_held_idle"]),
                     fmt_seconds(m["greedy_wait_p50"]), fmt_seconds(m["greedy_wait_p99"])),
                    ("gang (FIFO)", fmt_percent(m["gang_utilisation"]), fmt_percent(m["gang_held_idle"]),
                     fmt_seconds(m["gang_wait_p50"]), fmt_seconds(m["gang_wait_p99"])),
                    ("gang + backfill", fmt_percent(m["backfill_utilisation"]),
                     fmt_percent(m["backfill_held_idle"]), fmt_seconds(m["backfill_wait_p50"]),
                     fmt_seconds(m["backfill_wait_p99"]))]
            colours = [MUTED, palette.role("bad"), JOB_B, SMALL_JOB]
            xs = [-4.2, -1.3, 0.6, 2.7, 4.9]
            table = VGroup()
            for r, row in enumerate(rows):
                y = 1.9 - 0.65 * r
                for c, text in enumerate(row):
                    t = label(text, size=BODY_SIZE - 2 if r else SMALL_SIZE,
                              color=colours[r] if c == 0 else (MUTED if r == 0 else INK))
                    t.move_to([xs[c], y, 0])
                    table.add(t)
            foot = label(f"greedy: {fmt_count(m['greedy_never_started'])} jobs never start after the deadlock",
                         size=SMALL_SIZE, color=MUTED).move_to([0, 1.9 - 0.65 * 4, 0])
            # the tail wait of each policy as a bar on one scale: backfill's half of gang's is the point
            waits = [(name, m[f"{key}_wait_p99"], colour) for name, key, colour in
                     (("greedy partial", "greedy", colours[1]), ("gang (FIFO)", "gang", colours[2]),
                      ("gang + backfill", "backfill", colours[3]))]
            tail = value_bars([(f"{name}, wait p99", w, fmt_seconds(w), colour) for name, w, colour in waits],
                              top=max(w for _, w, _ in waits), width=4.5, size=SMALL_SIZE, height=0.26, buff=0.14)
            tail.move_to([0, -1.75, 0])
            self.play(FadeIn(table), run_time=1.0)
            self.play(FadeIn(foot), *grow_value_bars(tail), run_time=1.4)
            self.wait(1.0)
        self.trace_table, self.trace_foot = table, VGroup(foot, tail)

    def a_large_gang(self) -> None:
        """The scenario's gang: aⁿ at each availability compared."""
        m = self.data["summary"]
        avail = [m[f"availability_{i}"] for i in range(len(self.data["params"]["unavailability"]))]
        i_mid = 1 if len(avail) > 1 else 0
        with self.beat(f"A {fmt_count(m['scenario_nodes'])}-node gang needs every node at once: at "
                       f"{fmt_percent(avail[i_mid], 4)} each, it can start {_prob(m[f'start_probability_{i_mid}'])} "
                       "of the time."):
            self.play(FadeOut(self.trace_table), FadeOut(self.trace_foot), run_time=0.5)
            eq = markup("P(gang can start) = a<sup>n</sup>", size=BODY_SIZE + 4, color=INK).move_to([0, 1.5, 0])
            # P(start) for each node availability, as bars on 0-100 %: the gang's odds fall off a cliff
            lines = value_bars([(f"a = {fmt_percent(av, 4)}", m[f"start_probability_{i}"],
                                 _prob(m[f"start_probability_{i}"]), JOB_A if i == i_mid else MUTED)
                                for i, av in enumerate(avail)], top=1.0, width=6.0, size=BODY_SIZE)
            lines.next_to(eq, DOWN, buff=0.5)
            self.play(FadeIn(eq), run_time=0.7)
            self.play(*grow_value_bars(lines), run_time=1.6)
            self.wait(1.0)

    def _grid(self, gpus: int, per_node: int) -> VGroup:
        """Two node rows of GPU squares, empty."""
        cells = VGroup(*[Square(CELL, stroke_color=MUTED, stroke_width=1.5, fill_color=FREE, fill_opacity=1)
                         for _ in range(gpus)])
        rows = VGroup(*[VGroup(*cells[r * per_node:(r + 1) * per_node]).arrange(RIGHT, buff=0.12)
                        for r in range(gpus // per_node)]).arrange(DOWN, buff=0.25)
        rows.move_to([-0.9, GRID_Y, 0])
        return cells


__all__ = ["GangScheduling"]
