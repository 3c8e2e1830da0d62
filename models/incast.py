"""Incast at one switch port, and the same burst sprayed over equal-cost paths.

A seeded discrete-time simulation in packet slots. One slot is the time one
packet of `packet_bytes` takes at the port rate C (slot = packet_bytes / C);
every link, sender NIC and switch egress port moves at most one packet per slot.

Traffic (a synchronized block, the partition/aggregate or collective pattern
of Vasudevan et al. 2009): N senders each send a block of S bytes (K packets)
to one receiver at time 0, at line rate, with at most W packets in flight
(sent but not cumulatively acknowledged). An acknowledgement returns to the
sender R slots (the base round-trip time) after the packet leaves the switch.

Single path (the classic incast). All N flows meet one egress port with a
buffer of B packets that drains one packet per slot. Within a slot the
arrivals come first (in a seeded random order: which packet loses the race
for the last free slot is a coin toss), then the head packet leaves. An
arrival that finds the queue at B is dropped.

Loss recovery (simplified go-back-N, the RDMA RC / early-TCP behaviour): the
receiver places packets out of order and acknowledges the first missing one;
a dropped packet stalls its flow once the window fills; RTO slots after the
drop the sender's timer fires, it goes back to the first unacknowledged
packet, its window restarts at one packet and grows by one per acknowledged
packet (slow start) up to W. With RTO_min = 200 ms against a round trip of
microseconds, one timeout costs thousands of times the whole transfer: the
goodput collapse of Vasudevan et al.

The analytic drop threshold. Each sender sends its first W packets in its
first W slots whatever happens, so N*W packets arrive while the port drains.
Before the last of them arrives the port has sent D = min(W, R) - 1 packets
(acknowledgements that return inside the burst let senders refill, so the
queue settles at N*W - (R - 1) when R < W). The peak queue without drops is

    q_peak = N*W - D,       D = min(W, R) - 1,

and the burst is drop-free iff q_peak <= B: fan-in N* = floor((B + D) / W).

Spraying over P equal-cost paths. The same senders cross a source leaf, P
spines and a destination leaf. Each spine's egress port toward the destination
has its own buffer of B packets and drains one packet per slot; the last hop is
provisioned at P*C (the receiver side has P ports' worth of capacity), so
queues can only form in the spines. Three ways to use the paths:
  - "single": every flow on one spine (what a bad ECMP hash does: the worst
    case, identical to the one-port incast above);
  - "ecmp": each flow hashed (seeded) onto one spine for its lifetime;
  - "spray": every packet to the spine with the shortest queue (adaptive
    packet spraying; ties go round-robin), the receiver re-orders.
With spraying the burst is split across P buffers, so the peak per buffer is
about ceil(N*W/P) - D (Dixit et al. 2013 on why symmetric paths keep such
reordering harmless).

Flow completion time (FCT) of the block = the slot in which the last packet
of the last flow reaches the receiver, plus one, times the slot; goodput =
N*S / FCT. One-way propagation is folded into R and left out of FCT.

Pure stdlib/numpy, SI units: bytes, seconds, bytes per second.
"""

from __future__ import annotations

import heapq
import math
import random
from collections import deque

import numpy as np

from models.units import fmt_bytes, fmt_seconds

ROUTINGS = ("single", "ecmp", "spray")

# ---------------------------------------------------------------------------
# the formulas
# ---------------------------------------------------------------------------


def slot_time(packet_bytes: float, port_rate: float) -> float:
    """Seconds one packet occupies the port: packet_bytes / C."""
    if packet_bytes <= 0 or port_rate <= 0:
        raise ValueError("packet_bytes and port_rate must be positive")
    return packet_bytes / port_rate


def packets(nbytes: float, packet_bytes: float) -> int:
    """Whole packets needed for nbytes (the last one may be short: counted whole)."""
    return max(1, math.ceil(nbytes / packet_bytes - 1e-9))


def drained_during_burst(window: int, rtt_slots: int) -> int:
    """D = min(W, R) - 1: packets the port has sent before the burst's last arrival."""
    return min(int(window), int(rtt_slots)) - 1


def peak_queue(senders: int, window: int, rtt_slots: int, paths: int = 1) -> int:
    """Analytic peak queue (packets) of a drop-free synchronized burst.

    One port: N*W - D. Sprayed evenly over P ports: ceil(N*W/P) - D, never below 1
    (a packet is counted in the queue in the slot it arrives).
    """
    n, w, p = int(senders), int(window), int(paths)
    if n < 1 or w < 1 or p < 1:
        raise ValueError("senders, window and paths must be >= 1")
    return max(1, math.ceil(n * w / p) - drained_during_burst(w, rtt_slots))


def drop_free_fan_in(buffer: int, window: int, rtt_slots: int, paths: int = 1) -> int:
    """Largest N whose synchronized burst fits: peak_queue(N) <= B (0 if none)."""
    b, w, p = int(buffer), int(window), int(paths)
    d = drained_during_burst(w, rtt_slots)
    # ceil(N*W/P) <= B + D  <=>  N*W <= P*(B + D)
    return max(0, (p * (b + d)) // w)


def ideal_fct_slots(senders: int, block_packets: int, paths: int = 1) -> int:
    """Slots to drain N*K packets at P packets per slot with no loss (a lower bound)."""
    return math.ceil(senders * block_packets / paths)


# ---------------------------------------------------------------------------
# the simulation
# ---------------------------------------------------------------------------


def simulate(senders: int, block_packets: int, window: int, buffer: int, rtt_slots: int,
             rto_slots: int, paths: int = 1, routing: str = "single", seed: int = 0,
             trace: bool = False, max_events: int = 5_000_000) -> dict:
    """One synchronized block, slot by slot (idle gaps skipped). See the module docstring.

    Returns FCT in slots, drops, timeouts, packets sent, the peak queue of
    every path, and with trace=True the per-slot events the animation draws.
    """
    n, k, w, b = int(senders), int(block_packets), int(window), int(buffer)
    r, rto, p = int(rtt_slots), int(rto_slots), int(paths)
    if min(n, k, w, b, r, rto, p) < 1:
        raise ValueError("all counts must be >= 1")
    if routing not in ROUTINGS:
        raise ValueError(f"routing must be one of {ROUTINGS}")
    if routing == "single":
        p = 1
    rng = random.Random(seed)
    flow_path = [rng.randrange(p) for _ in range(n)] if routing == "ecmp" else [0] * n

    nxt = [0] * n  # next sequence number to send
    acked = [0] * n  # cumulative ack the sender has seen
    cwnd = [w] * n  # window: W, back to 1 after a timeout, +1 per acked packet
    timer = [-1] * n  # slot the retransmission timer fires, -1 if idle
    got = [bytearray(k) for _ in range(n)]
    first_missing = [0] * n
    done = [-1] * n  # slot the last packet of the flow reached the receiver
    queues = [deque() for _ in range(p)]
    peak = [0] * p
    acks: deque = deque()  # (due slot, flow, cumulative ack), due slots non-decreasing
    timers: list = []  # heap of (fire slot, flow)
    ready = set(range(n))
    sent = drops = timeouts = 0
    rr = 0  # round-robin pointer for spraying ties
    events = [] if trace else None
    remaining = n
    t = 0
    steps = 0

    def eligible(f: int) -> bool:
        return nxt[f] < k and nxt[f] - acked[f] < cwnd[f]

    while remaining:
        steps += 1
        if steps > max_events:
            raise RuntimeError("simulation did not finish: raise max_events or check parameters")
        # --- acknowledgements and timeouts due now ------------------------------
        fired = []
        while acks and acks[0][0] <= t:
            _, f, cum = acks.popleft()
            if cum > acked[f]:
                cwnd[f] = min(w, cwnd[f] + cum - acked[f])  # slow start back to W
                acked[f] = cum
                if acked[f] >= k:
                    timer[f] = -1
                if eligible(f):
                    ready.add(f)
        while timers and timers[0][0] <= t:
            at, f = heapq.heappop(timers)
            if timer[f] != at:
                continue  # cancelled
            timer[f] = -1
            timeouts += 1
            fired.append(f)
            nxt[f] = acked[f]  # go back to the first unacknowledged packet
            cwnd[f] = 1
            if eligible(f):
                ready.add(f)

        # --- arrivals: every ready sender puts one packet on the wire ------------
        arrivals = []
        if ready:
            order = sorted(ready)
            rng.shuffle(order)
            for f in order:
                seq = nxt[f]
                nxt[f] += 1
                sent += 1
                if routing == "spray":
                    best, bl = 0, None
                    for j in range(p):
                        i = (rr + j) % p
                        ln = len(queues[i])
                        if bl is None or ln < bl:
                            best, bl = i, ln
                    rr = (rr + 1) % p
                    path = best
                else:
                    path = flow_path[f]
                q = queues[path]
                if len(q) >= b:
                    drops += 1
                    if timer[f] < 0:
                        timer[f] = t + rto
                        heapq.heappush(timers, (timer[f], f))
                    dropped = True
                else:
                    q.append((f, seq))
                    dropped = False
                if trace:
                    arrivals.append((f, seq, path, dropped))
                if not eligible(f):
                    ready.discard(f)
            for i in range(p):
                if len(queues[i]) > peak[i]:
                    peak[i] = len(queues[i])
        qlens = [len(q) for q in queues] if trace else None

        # --- departures: each path's head packet reaches the receiver -------------
        departures = []
        for i, q in enumerate(queues):
            if not q:
                continue
            f, seq = q.popleft()
            if trace:
                departures.append((i, f, seq))
            if not got[f][seq]:
                got[f][seq] = 1
                m = first_missing[f]
                while m < k and got[f][m]:
                    m += 1
                first_missing[f] = m
                if m == k and done[f] < 0:
                    done[f] = t
                    remaining -= 1
            acks.append((t + r, f, first_missing[f]))
        if trace and (arrivals or departures or fired):
            events.append({"slot": t, "arrivals": arrivals, "departures": departures,
                           "queues": qlens, "timeouts": fired})

        # --- next slot, skipping idle stretches (everyone waiting on a timer) -----
        if ready or any(queues):
            t += 1
        else:
            cands = [acks[0][0]] if acks else []
            if timers:
                cands.append(timers[0][0])
            if not cands:
                if remaining:
                    raise RuntimeError("deadlock: flows unfinished with nothing pending")
                break
            t = max(t + 1, min(cands))

    fct = max(done) + 1
    return {"fct_slots": fct, "drops": drops, "timeouts": timeouts, "sent": sent,
            "retransmitted": sent - n * k, "peak_queue": max(peak), "peak_per_path": peak,
            "paths": p, "events": events}


# ---------------------------------------------------------------------------
# the entry function
# ---------------------------------------------------------------------------


def incast_spraying(
    port_rate: float,
    packet_bytes: float = 4096,
    block_bytes: float = 262144,
    window_bytes: float = 65536,
    buffer_bytes: float = 1.0e6,
    buffer_sweep: list | None = None,
    base_rtt: float = 5e-6,
    rto: float = 0.2,
    rto_fine: float = 2e-4,
    paths: int = 8,
    fan_in: list | None = None,
    question_fan_in: int = 1024,
    anim_senders: int = 8,
    anim_block_packets: int = 6,
    anim_buffer_packets: int = 12,
    anim_paths: int = 4,
    seed: int = 8,
) -> dict:
    """Incast FCT and goodput versus fan-in and buffer, then the same traffic sprayed.

    port_rate: C, per direction (B/s); packet_bytes: MTU; block_bytes: S per
    sender; window_bytes: in-flight limit per sender; buffer_bytes: the egress
    buffer of one port (a stated assumption, swept over buffer_sweep); base_rtt;
    rto: RTO_min of stock TCP; rto_fine: a microsecond-granularity timeout;
    paths: P equal-cost spines; fan_in: the N sweep; question_fan_in: the N the
    page's question asks about (answered analytically); anim_*: the small
    case the animation draws (block = window: one burst per sender).
    """
    C = float(port_rate)
    slot = slot_time(packet_bytes, C)
    K = packets(block_bytes, packet_bytes)
    W = min(packets(window_bytes, packet_bytes), K)
    B = int(buffer_bytes // packet_bytes)
    R = max(1, round(base_rtt / slot))
    RTO, RTOF = max(1, round(rto / slot)), max(1, round(rto_fine / slot))
    P = int(paths)
    fan = sorted({int(x) for x in (fan_in or [1, 2, 4, 8, 12, 16, 20, 24, 32, 48, 64, 96, 128])})
    bufs = sorted({float(x) for x in (buffer_sweep or [0.25e6, 0.5e6, 1e6, 2e6, 4e6])} | {float(buffer_bytes)})
    if B < 1:
        raise ValueError("buffer_bytes must hold at least one packet")
    n_star = drop_free_fan_in(B, W, R)

    def run(nn, routing, rto_slots=RTO, buf=B, s=seed):
        return simulate(nn, K, W, buf, R, rto_slots, paths=P, routing=routing, seed=s)

    # --- the fan-in sweep: one port (two timeouts), ECMP and spraying ----------
    cols = {key: [] for key in ("fct", "fct_fine", "fct_ecmp", "fct_spray", "drops", "drops_fine",
                                "drops_spray", "timeouts", "peak", "peak_ecmp", "peak_spray")}
    for nn in fan:
        one = run(nn, "single")
        fine = run(nn, "single", RTOF)
        ecmp = run(nn, "ecmp")
        spray = run(nn, "spray")
        cols["fct"].append(one["fct_slots"] * slot)
        cols["fct_fine"].append(fine["fct_slots"] * slot)
        cols["fct_ecmp"].append(ecmp["fct_slots"] * slot)
        cols["fct_spray"].append(spray["fct_slots"] * slot)
        cols["drops"].append(one["drops"])
        cols["drops_fine"].append(fine["drops"])
        cols["drops_spray"].append(spray["drops"])
        cols["timeouts"].append(one["timeouts"])
        cols["peak"].append(one["peak_queue"])
        cols["peak_ecmp"].append(ecmp["peak_queue"])
        cols["peak_spray"].append(spray["peak_queue"])
    fan_arr = np.array(fan, dtype=float)
    total = fan_arr * K * packet_bytes
    goodput = total / np.array(cols["fct"])
    goodput_fine = total / np.array(cols["fct_fine"])
    goodput_spray = total / np.array(cols["fct_spray"])
    goodput_ecmp = total / np.array(cols["fct_ecmp"])
    analytic_peak = [peak_queue(nn, W, R) for nn in fan]
    analytic_peak_spray = [peak_queue(nn, W, R, P) for nn in fan]

    # --- the buffer sweep: drop-free fan-in, checked by simulation either side ---
    buf_rows = []
    for bb in bufs:
        bp = int(bb // packet_bytes)
        ns = drop_free_fan_in(bp, W, R)
        at = run(ns, "single", buf=bp) if ns >= 1 else None
        past = run(ns + 1, "single", buf=bp)
        buf_rows.append({"buffer_bytes": bb, "buffer_packets": bp, "drop_free_fan_in": ns,
                         "drops_at": at["drops"] if at else 0, "drops_past": past["drops"],
                         "goodput_at": (ns * K * packet_bytes / (at["fct_slots"] * slot)) if at else 0.0,
                         "goodput_past": (ns + 1) * K * packet_bytes / (past["fct_slots"] * slot),
                         "drop_free_fan_in_spray": drop_free_fan_in(bp, W, R, P)})

    # --- the two fan-ins either side of the threshold, for the prose ------------
    n_lo, n_hi = n_star, n_star + 1
    lo, hi = run(n_lo, "single"), run(n_hi, "single")
    hi_fine, hi_spray = run(n_hi, "single", RTOF), run(n_hi, "spray")

    # --- the animation case: a few dozen packets ----------------------------------
    aK = int(anim_block_packets)
    aN, aB, aP = int(anim_senders), int(anim_buffer_packets), int(anim_paths)
    a_one = simulate(aN, aK, aK, aB, R, RTO, routing="single", seed=seed, trace=True)
    a_spray = simulate(aN, aK, aK, aB, R, RTO, paths=aP, routing="spray", seed=seed, trace=True)
    first_timeout = next((e["slot"] for e in a_one["events"] if e["timeouts"]), None)

    def burst_events(sim):
        # the events up to the first timeout: the burst and its drain
        out = []
        for e in sim["events"]:
            if e["timeouts"]:
                break
            out.append({"slot": e["slot"], "arrivals": [list(a) for a in e["arrivals"]],
                        "departures": [list(x) for x in e["departures"]], "queues": e["queues"]})
        return out

    def retransmit_events(sim):
        out, on = [], False
        for e in sim["events"]:
            on = on or bool(e["timeouts"])
            if on:
                out.append({"slot": e["slot"], "arrivals": [list(a) for a in e["arrivals"]],
                            "departures": [list(x) for x in e["departures"]], "queues": e["queues"],
                            "timeouts": e["timeouts"]})
        return out

    animation = {
        "senders": aN, "block_packets": aK, "buffer_packets": aB, "paths": aP,
        "rtt_slots": R, "slot": slot,
        "single_burst": burst_events(a_one),
        "single_retransmit": retransmit_events(a_one),
        "spray_burst": burst_events(a_spray),
        "single_fct": a_one["fct_slots"] * slot, "spray_fct": a_spray["fct_slots"] * slot,
        "single_drops": a_one["drops"], "spray_drops": a_spray["drops"],
        "single_timeouts": a_one["timeouts"],
        "single_peak": a_one["peak_queue"], "spray_peak": a_spray["peak_queue"],
        "spray_peak_per_path": a_spray["peak_per_path"],
        "analytic_peak": peak_queue(aN, aK, R), "analytic_peak_spray": peak_queue(aN, aK, R, aP),
        "first_timeout_slot": first_timeout,
        "rto": RTO * slot,
        "ideal_fct": ideal_fct_slots(aN, aK) * slot,
    }

    # --- a thousand senders, analytically ---------------------------------------------
    nq = int(question_fan_in)
    q_demand = peak_queue(nq, W, R)
    summary = {
        "port_rate": C, "packet_bytes": float(packet_bytes), "slot": slot,
        "block_bytes": float(block_bytes), "block_packets": K, "window_packets": W,
        "window_bytes_eff": W * packet_bytes, "buffer_bytes": float(buffer_bytes),
        "buffer_packets": B, "rtt_slots": R, "base_rtt": R * slot, "rto": RTO * slot,
        "rto_fine": RTOF * slot, "rto_over_rtt": RTO / R, "paths": P,
        "drained": drained_during_burst(W, R),
        "drop_free_fan_in": n_star, "drop_free_fan_in_spray": drop_free_fan_in(B, W, R, P),
        "peak_at_threshold": peak_queue(n_lo, W, R),
        "fan_in_lo": n_lo, "fan_in_hi": n_hi,
        "fct_lo": lo["fct_slots"] * slot, "fct_hi": hi["fct_slots"] * slot,
        "goodput_lo": n_lo * K * packet_bytes / (lo["fct_slots"] * slot),
        "goodput_hi": n_hi * K * packet_bytes / (hi["fct_slots"] * slot),
        "drops_hi": hi["drops"], "timeouts_hi": hi["timeouts"],
        "fct_hi_fine": hi_fine["fct_slots"] * slot,
        "goodput_hi_fine": n_hi * K * packet_bytes / (hi_fine["fct_slots"] * slot),
        "fct_hi_spray": hi_spray["fct_slots"] * slot, "peak_hi_spray": hi_spray["peak_queue"],
        "drops_hi_spray": hi_spray["drops"],
        "collapse_factor": (n_lo * K / lo["fct_slots"]) / (n_hi * K / hi["fct_slots"]),
        "question_fan_in": nq, "question_burst_bytes": nq * W * packet_bytes,
        "question_peak_packets": q_demand, "question_peak_bytes": q_demand * packet_bytes,
        "question_buffer_ratio": q_demand / B,
        "question_ideal_fct": ideal_fct_slots(nq, K) * slot,
        "question_paths_needed": math.ceil(nq * W / (B + drained_during_burst(W, R))),
        "question_peak_spray_packets": peak_queue(nq, W, R, P),
        "max_fan_in": fan[-1], "max_goodput_single": float(goodput[-1]),
        "max_goodput_spray": float(goodput_spray[-1]),
        "max_peak_single": cols["peak"][-1], "max_peak_spray": cols["peak_spray"][-1],
        "max_peak_ecmp": cols["peak_ecmp"][-1],
        "anim_single_peak": animation["single_peak"], "anim_spray_peak": animation["spray_peak"],
        "anim_single_drops": animation["single_drops"],
        "anim_single_fct": animation["single_fct"], "anim_spray_fct": animation["spray_fct"],
    }

    problems = {
        "slot": slot,
        "burst_packets": n_hi * W,
        "peak_hi": peak_queue(n_hi, W, R),
        "rto_in_slots": RTO,
        "fct_hi": summary["fct_hi"],
        "ideal_fct_hi": ideal_fct_slots(n_hi, K) * slot,
        "spray_peak_hi": peak_queue(n_hi, W, R, P),
    }

    rows = []
    for i, nn in enumerate(fan):
        rows.append([nn, analytic_peak[i], cols["peak"][i], cols["drops"][i], cols["fct"][i],
                     float(goodput[i]), cols["fct_fine"][i], cols["peak_spray"][i],
                     cols["fct_spray"][i]])
    table = {
        "caption": (f"Synchronized incast of {fmt_bytes(block_bytes)} per sender at one port "
                    f"(buffer {fmt_bytes(buffer_bytes)}) versus fan-in N, and the same burst sprayed "
                    f"over {P} paths"),
        "columns": [
            {"name": "senders N", "unit": "count"},
            {"name": "peak queue, analytic (packets)", "unit": "count"},
            {"name": "peak queue, simulated (packets)", "unit": "count"},
            {"name": "drops", "unit": "count"},
            {"name": f"FCT, RTO {fmt_seconds(RTO * slot)}", "unit": "s"},
            {"name": "goodput", "unit": "B/s"},
            {"name": f"FCT, RTO {fmt_seconds(RTOF * slot)}", "unit": "s"},
            {"name": "peak queue per spine, sprayed", "unit": "count"},
            {"name": "FCT, sprayed", "unit": "s"},
        ],
        "rows": rows,
    }

    return {
        "param_units": {"packet_bytes": "B", "block_bytes": "B", "window_bytes": "B",
                        "buffer_bytes": "B", "buffer_sweep": "B", "base_rtt": "s", "rto": "s",
                        "rto_fine": "s", "paths": "count", "fan_in": "count",
                        "question_fan_in": "count", "anim_senders": "count",
                        "anim_block_packets": "count", "anim_buffer_packets": "count",
                        "anim_paths": "count", "seed": "count"},
        "summary": summary,
        "series": {
            "fan_in": fan, "fct": cols["fct"], "fct_fine": cols["fct_fine"],
            "fct_ecmp": cols["fct_ecmp"], "fct_spray": cols["fct_spray"],
            "goodput": goodput, "goodput_fine": goodput_fine, "goodput_ecmp": goodput_ecmp,
            "goodput_spray": goodput_spray,
            "drops": cols["drops"], "drops_fine": cols["drops_fine"],
            "drops_spray": cols["drops_spray"], "timeouts": cols["timeouts"],
            "peak": cols["peak"], "peak_ecmp": cols["peak_ecmp"], "peak_spray": cols["peak_spray"],
            "analytic_peak": analytic_peak, "analytic_peak_spray": analytic_peak_spray,
            "buffers": buf_rows,
        },
        "animation": animation,
        "problems": problems,
        "table": table,
    }
