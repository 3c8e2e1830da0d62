"""gang-scheduling · Gang scheduling & all-or-nothing allocation.

Two jobs that each need three of a small cluster's four nodes are placed pod
by pod, one whole-node pod at a time: each grabs two nodes and both are stuck. Kueue's waitForPodsReady timeout
breaks the deadlock; gang admission avoids it (one job runs whole, the other
waits holding nothing); EASY backfill fills the idle GPUs with short jobs
that end before the waiting job's reservation. Then the trace results and
the probability that the scenario's gang can start at all, with spare nodes. Every number comes
from self.data (models.gang_scheduling.gang_scheduling).
"""

from __future__ import annotations

from manim import DOWN, LEFT, RIGHT, AnimationGroup, FadeIn, FadeOut, LaggedStart, Rectangle, Square, VGroup, Write

from design import palette
from models.units import fmt_count, fmt_percent, fmt_seconds
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

CELL = 0.55
GRID_Y = 0.3  # centre of the node rows


def _prob(x: float) -> str:
    """A probability as the page's prob() macro and the figure write it: five figures near 1, three
    otherwise, a power of ten when tiny."""
    if x >= 0.999995:  # five figures would round it to 100%: say only that it is past five nines
        return "over 99.999%"
    if x >= 0.999:
        return fmt_percent(x, 5)
    return fmt_percent(x) if x >= 1e-3 else f"{x:.1e}"


class GangScheduling(ExhibitScene):
    scene_id = "gang-scheduling"

    def construct(self) -> None:
        demo = self.data["animation"]["demo"]
        self.gpus, self.need, self.per_node = demo["gpus"], demo["size"], demo["gpus_per_node"]
        self.two_jobs_grab_half()
        self.timeout_evicts_both()
        self.jittered_requeue()
        self.gang_admission()
        self.easy_backfill()
        self.the_trace()
        self.a_large_gang()

    def two_jobs_grab_half(self) -> None:
        """Two jobs placed pod by pod, each pod a whole node, alternating: each holds half, nothing runs."""
        gpus, need, per_node = self.gpus, self.need, self.per_node
        n_nodes, half = gpus // per_node, gpus // 2
        quota = self.data["animation"]["demo"]["quota"]
        with self.beat(f"Two jobs each need {need // per_node} of {n_nodes} nodes; Kueue admits both. "
                       f"One pod = one node: each job gets {half // per_node}."):
            head = title("Why can't a job start on part of its GPUs?")
            self.cells = self._grid(gpus, per_node)
            nodes = VGroup(*[label(f"node {i + 1}", size=SMALL_SIZE, color=MUTED)
                             .next_to(self.cells[i * per_node], LEFT, buff=0.3) for i in range(n_nodes)])
            key = legend([("job A", JOB_A), ("job B", JOB_B), ("short jobs", SMALL_JOB), ("free", MUTED)])
            key.next_to(self.cells, DOWN, buff=0.35)
            quota_lbl = markup(f"Kueue quota <b>{quota}</b> GPUs &gt; <b>{gpus}</b> in the cluster: "
                               f"both admitted · 1 pod = 1 node of {per_node} GPUs", size=SMALL_SIZE, color=MUTED)
            quota_lbl.next_to(head, DOWN, buff=0.25)
            self.play(Write(head), FadeIn(self.cells), FadeIn(nodes), FadeIn(key), FadeIn(quota_lbl), run_time=1.2)
            # kube-scheduler binds the two jobs' pods in queue order, A's and B's alternating: a whole node each
            pods = []
            for node in range(n_nodes):
                col = JOB_A if node % 2 == 0 else JOB_B
                row = self.cells[node * per_node:(node + 1) * per_node]
                pods.append(AnimationGroup(*[c.animate.set_fill(col, opacity=0.45).set_stroke(col, 3) for c in row]))
            self.play(LaggedStart(*pods, lag_ratio=0.7), run_time=2.0)
            status = markup(f"A holds {half // per_node}/{need // per_node} nodes · B holds "
                            f"{half // per_node}/{need // per_node} · <b>{gpus} GPUs held, 0 busy: deadlock</b>",
                            size=BODY_SIZE - 2, color=INK)
            status.next_to(key, DOWN, buff=0.3)
            self.play(FadeIn(status), run_time=0.6)
            self.wait(2.0)
        self.node_labels, self.legend_key, self.status, self.quota_lbl = nodes, key, status, quota_lbl

    def timeout_evicts_both(self) -> None:
        """Kueue's waitForPodsReady timeout evicts both jobs: every GPU freed."""
        demo = self.data["animation"]["demo"]
        with self.beat(f"Kueue's waitForPodsReady: after {fmt_seconds(demo['timeout'])} not all pods "
                       "run, so both jobs are evicted."):
            clock = markup(f"held idle for <b>{fmt_seconds(demo['timeout'])}</b> → evict both",
                           size=BODY_SIZE - 2, color=INK).next_to(self.legend_key, DOWN, buff=0.3)
            self.play(FadeOut(self.status), FadeIn(clock), run_time=0.6)
            self.play(*[c.animate.set_fill(FREE, opacity=1).set_stroke(MUTED, 1.5) for c in self.cells],
                      run_time=1.2)
            self.wait(1.6)
        self.timeout_note = clock

    def jittered_requeue(self) -> None:
        """The jittered requeue: one job comes back first and takes all it needs."""
        m, gpus, need = self.data["summary"], self.gpus, self.need
        with self.beat(f"Requeued after {fmt_seconds(self.data['params']['backoff_base'])} plus jitter: "
                       f"A is back first and runs. B holds the rest, times out again: "
                       f"{m['demo_evictions_b']} evictions for B."):
            note = markup(f"A back first: <b>{need}/{need}</b> runs at {fmt_seconds(m['demo_timeout_first_start'])}"
                          f" · B holds {gpus - need}, evicted <b>{m['demo_evictions_b']}×</b> in all",
                          size=BODY_SIZE - 2, color=INK).next_to(self.legend_key, DOWN, buff=0.3)
            self.play(FadeOut(self.timeout_note), FadeIn(note), run_time=0.6)
            self.play(*[self.cells[i].animate.set_fill(JOB_A, opacity=1).set_stroke(JOB_A, 3)
                        for i in range(need)], run_time=1.2)
            self.play(*[self.cells[i].animate.set_fill(JOB_B, opacity=0.45).set_stroke(JOB_B, 3)
                        for i in range(need, gpus)], run_time=0.8)
            # B's partial node times out and is freed, then B comes back to it: the repeated eviction
            for _ in range(max(0, m["demo_evictions_b"] - 1)):
                self.play(*[self.cells[i].animate.set_fill(FREE, opacity=1).set_stroke(MUTED, 1.5)
                            for i in range(need, gpus)], run_time=0.5)
                self.play(*[self.cells[i].animate.set_fill(JOB_B, opacity=0.45).set_stroke(JOB_B, 3)
                            for i in range(need, gpus)], run_time=0.5)
            self.wait(1.4)
        self.timeout_note = note

    def gang_admission(self) -> None:
        """Gang admission: Kueue's quota no larger than the cluster admits A whole; B is not admitted and
        waits in the queue holding nothing."""
        gpus, need, per_node = self.gpus, self.need, self.per_node
        with self.beat(f"Gang admission: with a quota of {gpus} GPUs Kueue admits only A, all {need} GPUs at "
                       "once; B is not admitted and waits, holding nothing."):
            # the quota label of the first beats (quota above the cluster, both admitted) no longer holds
            gang_quota = markup(f"Kueue quota <b>{gpus}</b> ≤ <b>{gpus}</b> in the cluster: B not admitted "
                                f"· 1 pod = 1 node of {per_node} GPUs", size=SMALL_SIZE, color=MUTED)
            gang_quota.move_to(self.quota_lbl)
            self.play(FadeOut(self.timeout_note), FadeOut(self.quota_lbl), FadeIn(gang_quota),
                      *[self.cells[i].animate.set_fill(FREE, opacity=1).set_stroke(MUTED, 1.5)
                        for i in range(need, gpus)], run_time=0.6)
            self.quota_lbl = gang_quota
            queue = VGroup(Rectangle(width=1.9, height=0.9, stroke_color=JOB_B, stroke_width=3,
                                     fill_color=JOB_B, fill_opacity=0.25),
                           label(f"B: {need} GPUs", size=SMALL_SIZE, color=INK))
            queue[1].move_to(queue[0])
            q_lbl = label("queue", size=SMALL_SIZE, color=MUTED)
            q_grp = VGroup(q_lbl, queue).arrange(DOWN, buff=0.15)
            q_grp.next_to(self.cells, RIGHT, buff=0.6)
            run_lbl = markup(f"A: <b>{need}/{need}</b> running · {gpus - need} GPUs free, idle",
                             size=BODY_SIZE - 2, color=INK).next_to(self.legend_key, DOWN, buff=0.3)
            self.play(FadeIn(q_grp, shift=0.2 * LEFT), FadeIn(run_lbl), run_time=0.9)
            self.wait(1.6)
        self.queue_group, self.running_label = q_grp, run_lbl

    def easy_backfill(self) -> None:
        """EASY backfill: B's reservation, and short jobs filling the free GPUs before it."""
        gpus, need = self.gpus, self.need
        a_ends = self.data["animation"]["demo"]["run"]  # A starts at 0 under gang admission and runs this long
        with self.beat(f"EASY backfill: B is reserved for when A ends ({fmt_seconds(a_ends)}); short jobs that "
                       "finish before then fill the free GPUs."):
            self.play(FadeOut(self.running_label), run_time=0.3)
            res = label(f"B reserved at t = {fmt_seconds(a_ends)}", size=SMALL_SIZE, color=JOB_B)
            res.next_to(self.queue_group, DOWN, buff=0.2, aligned_edge=LEFT)
            fill = [self.cells[i].animate.set_fill(SMALL_JOB, opacity=1).set_stroke(SMALL_JOB, 3)
                    for i in range(need, gpus)]
            bf_lbl = markup(f"{gpus - need} short jobs backfilled: <b>{gpus}/{gpus} busy</b>, B not delayed",
                            size=BODY_SIZE - 2, color=INK).next_to(self.legend_key, DOWN, buff=0.3)
            self.play(FadeIn(res), run_time=0.5)
            self.play(*fill, FadeIn(bf_lbl), run_time=1.2)
            self.wait(1.6)
        self.reservation, self.backfill_label = res, bf_lbl

    def the_trace(self) -> None:
        """The trace's results: each policy's GPUs held idle over the seeds (median and range), then one
        trace's busy share and waits."""
        m = self.data["summary"]
        runs = fmt_count(m["pods_spread_runs"])
        with self.beat(f"{fmt_count(m['jobs'])} Philly-like jobs, {runs} seeds: pod by pod with no timeout holds "
                       f"a median {fmt_percent(m['pods_none_held_idle_median'])} of GPU time idle "
                       f"({fmt_percent(m['pods_none_held_idle_min'])}–{fmt_percent(m['pods_none_held_idle_max'])}), "
                       f"with Kueue's timeout {fmt_percent(m['pods_held_idle_median'])}, gang none."):
            self.play(FadeOut(VGroup(self.cells, self.node_labels, self.legend_key, self.queue_group,
                                     self.reservation, self.backfill_label, self.quota_lbl)), run_time=0.6)
            cases = [("pod by pod, no timeout", "pods_none", palette.role("bad")),
                     ("greedy round-robin", "greedy", palette.role("highlight")),
                     ("pod by pod + timeout", "pods", palette.role("restart")),
                     ("gang (FIFO)", "gang", JOB_B), ("gang + backfill", "backfill", SMALL_JOB)]

            def spread(key: str) -> tuple[float, str]:
                # gang admission holds nothing by construction, so it has no spread over the seeds
                if f"{key}_held_idle_median" not in m:
                    return m[f"{key}_held_idle"], fmt_percent(m[f"{key}_held_idle"])
                lo, mid, hi = (m[f"{key}_held_idle_{q}"] for q in ("min", "median", "max"))
                return mid, f"{fmt_percent(mid)} ({fmt_percent(lo)}–{fmt_percent(hi)})"

            # the point: the GPU time each policy holds idle in waiting jobs, median and range over the seeds
            head = label(f"GPU time held idle by waiting jobs: median of {runs} seeds (range)",
                         size=SMALL_SIZE, color=MUTED).move_to([0, 2.5, 0])
            held = value_bars([(name, *spread(key), colour) for name, key, colour in cases],
                              top=1.0, width=4.2, size=SMALL_SIZE, height=0.26, buff=0.14)
            held.next_to(head, DOWN, buff=0.25)
            # one trace (the page's seed) for what the bars leave out: GPUs busy and the tail wait
            rows = [(f"seed {self.data['params']['seed']}", "busy", "wait p99")]
            rows += [(name, fmt_percent(m[f"{key}_utilisation"]), fmt_seconds(m[f"{key}_wait_p99"]))
                     for name, key, _ in cases]
            colours = [MUTED] + [colour for _, _, colour in cases]
            xs = [-2.4, 0.6, 2.6]
            top_y = held.get_bottom()[1] - 0.45
            table = VGroup()
            for r, row in enumerate(rows):
                for c, text in enumerate(row):
                    t = label(text, size=SMALL_SIZE, color=colours[r] if c == 0 else (MUTED if r == 0 else INK))
                    t.move_to([xs[c], top_y - 0.36 * r, 0])
                    table.add(t)
            foot = label(f"greedy round-robin: {fmt_count(m['greedy_never_started'])} jobs never start after its "
                         "deadlock", size=SMALL_SIZE, color=MUTED).next_to(table, DOWN, buff=0.25)
            self.play(FadeIn(head), *grow_value_bars(held), run_time=1.6)
            self.play(FadeIn(table), FadeIn(foot), run_time=1.0)
            self.wait(1.2)
        self.trace_table, self.trace_foot = VGroup(head, held), VGroup(table, foot)

    def a_large_gang(self) -> None:
        """The scenario's gang: P(start) with spare nodes, the per-node availability taken from the scenario's
        failure record (node-attributable interruptions only) for each repair time swept."""
        m, p, repair = self.data["summary"], self.data["params"], self.data["records"]["repair"]
        spares, n = p["spares"][1], fmt_count(m["scenario_nodes"])
        with self.beat(f"A {n}-node gang needs any {n} healthy nodes. At the Llama 3 record's node failure rate, "
                       f"{spares} spares start it {_prob(repair[0][f'p_{spares}'])} of the time if a node "
                       f"is back in {fmt_seconds(repair[0]['repair'])}, {_prob(repair[-1][f'p_{spares}'])} "
                       f"if it takes {fmt_seconds(repair[-1]['repair'])}."):
            self.play(FadeOut(self.trace_table), FadeOut(self.trace_foot), run_time=0.5)
            eq = markup("P(gang can start) = P(at most s of n + s nodes down)", size=BODY_SIZE, color=INK)
            eq.move_to([0, 2.0, 0])
            sub = markup(f"a from {fmt_count(m['node_interruptions'])} node failures in the record, "
                         f"repair time R swept · s = {spares}", size=SMALL_SIZE, color=MUTED)
            sub.next_to(eq, DOWN, buff=0.2)
            # one bar per repair time: the longer a node is out, the lower a, and the cliff returns
            rows = [(f"R = {fmt_seconds(r['repair'])}: a = {fmt_percent(r['a'], 4)}", r[f"p_{spares}"],
                     _prob(r[f"p_{spares}"]),
                     SMALL_JOB if r[f"p_{spares}"] >= 0.99 else (JOB_B if r[f"p_{spares}"] >= 0.5 else MUTED))
                    for r in repair]
            lines = value_bars(rows, top=1.0, width=5.0, size=BODY_SIZE - 4)
            lines.next_to(sub, DOWN, buff=0.45)
            self.play(FadeIn(eq), FadeIn(sub), run_time=0.7)
            self.play(*grow_value_bars(lines), run_time=1.6)
            self.wait(1.2)

    def _grid(self, gpus: int, per_node: int) -> VGroup:
        """One row of GPU squares per node, empty."""
        cells = VGroup(*[Square(CELL, stroke_color=MUTED, stroke_width=1.5, fill_color=FREE, fill_opacity=1)
                         for _ in range(gpus)])
        rows = VGroup(*[VGroup(*cells[r * per_node:(r + 1) * per_node]).arrange(RIGHT, buff=0.09)
                        for r in range(gpus // per_node)]).arrange(DOWN, buff=0.16)
        rows.move_to([-0.9, GRID_Y, 0])
        return cells


__all__ = ["GangScheduling"]
