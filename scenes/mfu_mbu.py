"""mfu-mbu · MFU vs MBU accounting: one training step peeled into its parts.

The scenario's step (Llama 3 405B, 16,384 H100s) is one grey bar of wall time.
Beat by beat the bar gives up its parts (pipeline bubble, exposed communication,
memory-bound phases, matmuls below peak); then the assumed hidden share of the
communication swings from all to none and the matmuls' share of peak moves with it; the
interleave depth v steps up from 1 (where the bubble overruns the step) and the bubble shrinks;
what is left is the useful model FLOPs at peak: the MFU bar. Last, decode: the bytes a token reads
against the HBM bandwidth (MBU) beside the tensor cores' share (MFU); and back to the step, so the last
frame (the poster) is the MFU beat's. Every number comes from self.data (models.mfu_mbu.utilization_accounting).
"""

from __future__ import annotations

from manim import (
    DOWN,
    LEFT,
    RIGHT,
    UP,
    FadeIn,
    FadeOut,
    GrowFromEdge,
    Rectangle,
    ReplacementTransform,
    Transform,
    Write,
)

from design import palette
from models.units import fmt_bytes, fmt_count, fmt_percent, fmt_rate, fmt_seconds, fmt_words
from scenes.style import BODY_SIZE, INK, MUTED, SMALL_SIZE, ExhibitScene, label, markup, title

BAR_LEFT, BAR_WIDTH = -6.0, 12.0
BAR_Y, BAR_H = 1.45, 0.62
ROW_TOP, ROW_STEP, ROW_H = 0.45, 0.62, 0.36
# the same colour for each part as the figure (figures/mfu_mbu.py PART_ROLES), so the two read alike
ROLES = {"useful": "ok", "recompute": "highlight", "slow": "tertiary", "memory": "memory", "comm": "network",
         "bubble": "bad"}
ORDER = ("useful", "recompute", "slow", "memory", "comm", "bubble")  # left to right on the bar
PART_LABELS_SHORT = {"comm": "exposed communication", "slow": "matmuls below peak", "bubble": "pipeline bubble"}


class StepPeel(ExhibitScene):
    """The step as one bar, its losses peeled off one per beat, and what is left: the MFU."""

    scene_id = "mfu-mbu"

    def construct(self) -> None:
        self.parts = {q["key"]: q for q in self.data["animation"]["parts"]}
        self.segments = self.bar_segments()
        self.the_step()
        peel = [k for k in ("bubble", "comm", "memory", "slow", "recompute") if k in self.parts and k in
                self.loss_captions()]
        self.rows = {}
        for i, k in enumerate(peel):
            self.peel_off(k, i)
        if "comm" in self.rows and "slow" in self.rows:
            self.hide_more_or_less()
        if "bubble" in self.rows and "slow" in self.rows:
            self.step_the_depth()
        self.what_is_left(len(peel))
        self.decode_reads_bytes()
        self.back_to_the_step()

    def bar_segments(self) -> dict:
        """Segments of the bar, left to right: useful work first, losses to the right."""
        segs, x = {}, BAR_LEFT
        for k in ORDER:
            if k not in self.parts:
                continue
            w = self.parts[k]["share"] * BAR_WIDTH
            r = Rectangle(width=w, height=BAR_H, stroke_width=1, stroke_color=palette.VIDEO["bg"],
                          fill_color=MUTED, fill_opacity=0.55)
            r.move_to([x + w / 2, BAR_Y, 0])
            segs[k], x = r, x + w
        return segs

    def loss_captions(self) -> dict:
        """The caption of each loss's beat."""
        m, p, parts = self.data["summary"], self.data["params"], self.parts
        return {
            "bubble": f"Pipeline bubble: {fmt_count(p['pipeline_parallel'])} stages wait for each other, "
                      f"{fmt_percent(parts['bubble']['share'])} of the step (interleaving assumed).",
            "comm": f"Exposed communication: {fmt_percent(parts['comm']['share'])}, if "
                    f"{fmt_percent(self.data['params']['comm_hidden'])} of the "
                    f"{fmt_seconds(m['comm_total'])} of collectives hides.",
            "memory": f"Memory-bound phases (norms, softmax, optimizer): {fmt_percent(parts['memory']['share'])}, "
                      "an assumption.",
            "slow": f"Matmuls below peak: the remaining {fmt_percent(parts['slow']['share'])}; "
                    f"they run at {fmt_percent(m['matmul_efficiency'])} of peak.",
        }

    def row_notes(self) -> dict:
        """What a loss's row adds on screen beside its share and seconds."""
        m = self.data["summary"]
        return {
            "comm": f"  (of {fmt_seconds(m['comm_total'])} in all)",
            "slow": f"  → matmuls at {fmt_percent(m['matmul_efficiency'])} of peak",
        }

    def the_step(self) -> None:
        p, t_step, segs = self.data["params"], self.data["animation"]["step_time"], self.segments
        with self.beat(f"One training step of Llama 3 405B: {fmt_words(p['tokens_per_batch'])} tokens in "
                       f"{fmt_seconds(t_step)} on {fmt_count(p['gpus'])} GPUs."):
            head = title("How much of the hardware does useful work?")
            sub = markup(f"Llama 3 405B · {fmt_count(p['gpus'])} H100s · one step = <b>{fmt_seconds(t_step)}</b>",
                         size=BODY_SIZE - 2, color=INK).next_to(head, DOWN, buff=0.3)
            bar_label = label("the step's wall time", size=SMALL_SIZE, color=MUTED)
            bar_label.next_to(segs[ORDER[0]], UP, buff=0.15).set_x(BAR_LEFT + 1.5)
            self.play(Write(head), run_time=1.0)
            self.head = head
            self.play(FadeIn(sub, shift=0.2 * DOWN), run_time=0.8)
            self.play(*[GrowFromEdge(r, LEFT) for r in segs.values()], FadeIn(bar_label), run_time=1.2)
            self.wait(2.5)
        self.bar_label = bar_label

    def peel_off(self, k: str, i: int) -> None:
        """One loss moves off the bar into its own row, the i-th from the top."""
        part, seg = self.parts[k], self.segments[k]
        with self.beat(self.loss_captions()[k]):
            colour = palette.role(ROLES[k])
            y = ROW_TOP - i * ROW_STEP
            w = part["share"] * BAR_WIDTH
            row_rect = Rectangle(width=w, height=ROW_H, stroke_width=0, fill_color=colour, fill_opacity=0.9)
            row_rect.move_to([BAR_LEFT + w / 2, y, 0])
            text = label(f"{part['label']}  {fmt_percent(part['share'])} · "
                         f"{fmt_seconds(part['seconds'])}{self.row_notes().get(k, '')}", size=SMALL_SIZE, color=INK)
            text.next_to(row_rect, RIGHT, buff=0.2)
            self.play(seg.animate.set_fill(colour, opacity=0.9), run_time=0.6)
            ghost = seg.copy()
            self.play(ReplacementTransform(ghost, row_rect), seg.animate.set_fill(MUTED, opacity=0.12),
                      FadeIn(text, shift=0.1 * RIGHT), run_time=1.0)
            self.wait(2.4)
        self.rows[k] = (row_rect, text, y)

    def row_at(self, k: str, share: float, note: str, y: float, name: str = "", overrun: bool = False):
        """A loss's row redrawn at another share: its bar and its label, seconds kept (share × the step).
        An overrun (time the step does not have) is an outline in the bad colour, not a filled part."""
        w = max(abs(share), 1e-3) * BAR_WIDTH
        colour = palette.role("bad" if overrun else ROLES[k])
        rect = Rectangle(width=w, height=ROW_H, stroke_width=2.5 if overrun else 0, stroke_color=colour,
                         fill_color=colour, fill_opacity=0.0 if overrun else 0.9)
        rect.move_to([BAR_LEFT + w / 2, y, 0])
        seconds = abs(share) * self.data["animation"]["step_time"]
        text = label(f"{name or PART_LABELS_SHORT[k]}  {fmt_percent(abs(share))} · {fmt_seconds(seconds)}{note}",
                     size=SMALL_SIZE, color=INK)
        return rect, text.next_to(rect, RIGHT, buff=0.2)

    def hide_more_or_less(self) -> None:
        """The exposed communication is an assumption: hide all of it, then none, and watch the matmuls'
        share of peak move (the model's own rows, `assumption_ranges`)."""
        rows = [r for r in self.data["records"]["assumption_ranges"] if r["varied"] == "hidden"]
        cases = [rows[0], rows[-1], next(r for r in rows if r["assumed"])]
        lo, hi = sorted((rows[0]["matmul_efficiency"], rows[-1]["matmul_efficiency"]))
        with self.beat(f"How much communication hides is assumed: the matmuls' share of peak moves from "
                       f"{fmt_percent(lo)} to {fmt_percent(hi)}."):
            for r in cases:
                moves = []
                for k, share, note in (("comm", r["comm"], f"  ({fmt_percent(r['hidden'])} hidden)"),
                                       ("slow", r["slow"], f"  → matmuls at {fmt_percent(r['matmul_efficiency'])}"
                                                           " of peak")):
                    rect, text, y = self.rows[k]
                    new_rect, new_text = self.row_at(k, share, note, y)
                    moves += [Transform(rect, new_rect), Transform(text, new_text)]
                self.play(*moves, run_time=1.0)
                self.wait(1.6)

    def step_the_depth(self) -> None:
        """The interleave depth v is an assumption: step it up from the shallowest drawn. The bubble shrinks
        as v grows; at v = 1 it and the other losses leave less than no time for the matmuls (an overrun).
        The model's own rows (`animation.interleave`), ending on the assumed depth."""
        rows = self.data["animation"]["interleave"]
        assumed = next(r for r in rows if r["assumed"])
        first, last = rows[0], rows[-1]
        over = "" if first["feasible"] else f"; at v = {first['interleave']} it overruns the step"
        with self.beat(f"The depth v is assumed too: the bubble shrinks from {fmt_percent(first['bubble'])} "
                       f"at v = {first['interleave']} to {fmt_percent(last['bubble'])} at v = "
                       f"{last['interleave']}{over}."):
            # the bar above keeps the assumed depth's split: say so, and tag the rows with the depth they show
            bar_tag = label(f"the step's wall time at v = {assumed['interleave']} (assumed)", size=SMALL_SIZE,
                            color=MUTED).move_to(self.bar_label, aligned_edge=LEFT)
            self.play(Transform(self.bar_label, bar_tag), run_time=0.3)
            tag = label(f"rows: v = {first['interleave']}", size=BODY_SIZE, color=INK)
            tag.next_to(self.segments[ORDER[0]], UP, buff=0.15).set_x(BAR_LEFT + BAR_WIDTH - 0.8)
            shown, spill = False, None
            for r in rows + ([assumed] if assumed is not rows[-1] else []):
                b_rect, b_text, b_y = self.rows["bubble"]
                s_rect, s_text, s_y = self.rows["slow"]
                new_b, new_bt = self.row_at("bubble", r["bubble"], "", b_y)
                if r["feasible"]:
                    new_s, new_st = self.row_at("slow", r["slow"], f"  → matmuls at "
                                                f"{fmt_percent(r['matmul_efficiency'])} of peak", s_y)
                else:
                    need = r["matmul_efficiency"]
                    new_s, new_st = self.row_at("slow", r["slow"], f"  → matmuls would need {fmt_percent(need)} "
                                                "of peak" if need is not None else "  → no time left", s_y,
                                                name="overrun", overrun=True)
                new_tag = label(f"rows: v = {r['interleave']}" + (" (assumed)" if r["assumed"] else ""),
                                size=BODY_SIZE, color=INK).move_to(tag, aligned_edge=RIGHT)
                moves = [Transform(b_rect, new_b), Transform(b_text, new_bt), Transform(s_rect, new_s),
                         Transform(s_text, new_st)]
                moves.append(Transform(tag, new_tag) if shown else FadeIn(new_tag))
                if not shown:
                    tag, shown = new_tag, True
                # an overrun also spills past the step's bar (clamped to stay inside the frame)
                if not r["feasible"] and spill is None:
                    w = min(-r["slow"], 0.09) * BAR_WIDTH if r["slow"] < 0 else 0.09 * BAR_WIDTH
                    spill = Rectangle(width=w, height=BAR_H, stroke_width=2.5, stroke_color=palette.role("bad"),
                                      fill_opacity=0.0).move_to([BAR_LEFT + BAR_WIDTH + w / 2, BAR_Y, 0])
                    moves.append(FadeIn(spill))
                elif r["feasible"] and spill is not None:
                    moves.append(FadeOut(spill))
                    spill = None
                self.play(*moves, run_time=0.8)
                self.wait(1.0)
            self.play(FadeOut(tag), run_time=0.3)

    def what_is_left(self, peeled: int) -> None:
        p, a = self.data["params"], self.data["animation"]
        with self.beat(f"What is left is useful work at peak: MFU = {fmt_percent(a['mfu'])} "
                       f"(the report prints {fmt_percent(p['reported_mfu'], 2)})."):
            k = "useful"
            colour = palette.role(ROLES[k])
            y = ROW_TOP - peeled * ROW_STEP - 0.1
            w = self.parts[k]["share"] * BAR_WIDTH
            mfu_rect = Rectangle(width=w, height=ROW_H + 0.12, stroke_width=0, fill_color=colour, fill_opacity=1)
            mfu_rect.move_to([BAR_LEFT + w / 2, y, 0])
            mfu_text = markup(f"<b>MFU {fmt_percent(a['mfu'])}</b>  ·  {fmt_seconds(self.parts[k]['seconds'])} "
                              "of model FLOPs at peak", size=BODY_SIZE - 2, color=INK)
            mfu_text.next_to(mfu_rect, RIGHT, buff=0.25)
            self.play(self.segments[k].animate.set_fill(colour, opacity=1.0),
                      self.bar_label.animate.set_opacity(0.0), run_time=0.6)
            self.play(ReplacementTransform(self.segments[k].copy(), mfu_rect), FadeIn(mfu_text, shift=0.1 * RIGHT),
                      run_time=1.0)
            self.play(FadeOut(self.bar_label), run_time=0.2)
            self.wait(3.5)

    def decode_reads_bytes(self) -> None:
        """Serving the same model: a decode step at batch 1 reads every weight and the KV cache; against the
        serving GPUs' HBM bandwidth that is the MBU, against their tensor cores the MFU (`animation.decode`)."""
        d = self.data["animation"]["decode"]
        with self.beat(f"Decode is the other way round: at batch 1 the memory bus is {fmt_percent(d['decode_mbu_b1'])}"
                       f" busy (MBU), the tensor cores {fmt_percent(d['decode_mfu_b1'])} (MFU)."):
            old = [m for m in self.mobjects if m is not self.head]
            head = markup(f"Decode, batch 1, on {fmt_count(d['serving_gpus'])} H100s: "
                          f"<b>{fmt_bytes(d['decode_bytes_b1'])}</b> read per token in "
                          f"<b>{fmt_seconds(d['decode_step_b1'])}</b> against a "
                          f"{fmt_rate(d['serving_bandwidth'])} peak",
                          size=BODY_SIZE - 4, color=INK).move_to([0, 1.5, 0])
            rows = []
            for i, (name, share, role) in enumerate((("HBM bandwidth used (MBU)", d["decode_mbu_b1"], "memory"),
                                                     ("tensor cores used (MFU)", d["decode_mfu_b1"], "compute"))):
                y = 0.5 - i * 0.9
                w = max(share, 1e-3) * BAR_WIDTH
                frame = Rectangle(width=BAR_WIDTH, height=ROW_H + 0.1, stroke_width=1, stroke_color=MUTED,
                                  fill_opacity=0).move_to([BAR_LEFT + BAR_WIDTH / 2, y, 0])
                bar = Rectangle(width=w, height=ROW_H + 0.1, stroke_width=0, fill_color=palette.role(role),
                                fill_opacity=0.9).move_to([BAR_LEFT + w / 2, y, 0])
                text = label(f"{name}  {fmt_percent(share)}", size=SMALL_SIZE, color=INK)
                text.next_to(frame, UP, buff=0.1).align_to(frame, LEFT)
                rows.append((frame, bar, text))
            fit = label(f"at {fmt_count(d['decode_batch_fit'])} sequences the MFU reaches only "
                        f"{fmt_percent(d['decode_mfu_fit'])}", size=SMALL_SIZE, color=MUTED).move_to([0, -1.6, 0])
            self.play(*[FadeOut(m) for m in old], run_time=0.6)
            self.play(FadeIn(head, shift=0.1 * DOWN), *[FadeIn(f) for f, _, _ in rows],
                      *[FadeIn(t) for _, _, t in rows], run_time=0.6)
            self.play(*[GrowFromEdge(b, LEFT) for _, b, _ in rows], run_time=1.0)
            self.play(FadeIn(fit), run_time=0.5)
            self.wait(2.0)
        self.step_view = old
        self.decode_view = [head, *[m for row in rows for m in row], fit]

    def back_to_the_step(self) -> None:
        """The last frame is the video's poster (the page's first view of the scene): end on the training step
        and its MFU, the frame the MFU beat ended on, not on decode."""
        a = self.data["animation"]
        with self.beat(f"Training is judged by MFU: {fmt_percent(a['mfu'])} of the step."):
            self.play(*[FadeOut(m) for m in self.decode_view], run_time=0.5)
            self.play(*[FadeIn(m) for m in self.step_view], run_time=0.8)
