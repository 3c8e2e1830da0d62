"""Incast at a receiver's port on a GPU fabric, and where packet spraying helps: fabric uplinks.

Two questions, two models.

1. Incast (many senders, one receiver). N GPUs each send a block of S bytes
   to one receiver at the same instant. Every packet of every flow ends on the
   same receiver port of rate C, so whatever the paths, the port delivers at
   most C: goodput to one receiver never exceeds its port rate, and the block
   takes at least N*S/C. What the fabric chooses is what happens to the excess.
   A seeded discrete-time simulation in packet slots (one slot = one packet at
   C) follows the N flows into the switch egress port that feeds the receiver:

   - lossless (InfiniBand, RoCE with PFC): per-ingress priority flow control, as in
     scene ib-vs-roce (models/ib_vs_roce.py). When an ingress holds XOFF packets the
     switch sends PAUSE; it lands after the PAUSE's flight and the sender's
     reaction (d slots), and RESUME follows at XON. The headroom above XOFF is
     models.lib.pfc.pfc_headroom(); InfiniBand credits bound the buffer the same
     way. Nothing is dropped: incast turns into back-pressure, each sender's
     link paused for most of the burst.
   - lossy RDMA (RoCE without PFC): a drop-tail buffer of B packets, one port's
     equal share of a real switch ASIC's shared buffer (Spectrum-3: 64 MB, 32
     ports of 400 GbE). A reliable
     connection's responder discards an out-of-sequence packet and NAKs the
     first missing one once; the requester goes back N to it within about one
     round trip. Only a tail loss (nothing behind it to reveal the gap) waits
     for the transport timeout, 4.096 us * 2^NCCL_IB_TIMEOUT. The longest run
     of timeouts one queue pair takes without progress is set against
     NCCL_IB_RETRY_CNT: past it the QP fails ("retry exceeded"), the job aborts.
   - historical contrast, TCP incast (Vasudevan et al. 2009): the same drops
     recovered only by a retransmission timeout bounded below by RTO_min =
     200 ms: every loss, not only the full-window and tail losses that Vasudevan
     et al. name as incast's cause, so it is TCP's incast worst case (no fast
     retransmit). Labelled as history on the page: GPU fabrics do not run this.
     One extra run, lossy RDMA's recovery with TCP's timer at the largest
     fan-in, separates the recovery's effect from the timer's.

   Each sender keeps one bandwidth-delay product in flight (W = ceil(C*RTT/MTU)
   packets, with the RTT rounded to whole slots first), so one sender alone already fills the port. Buffer bloat is the
   queue itself: the last packet waits queue / C (lossy: at most B / C;
   lossless: the whole held-back burst).

2. Spraying (many flows, many uplinks). N flows leave a leaf over P equal-cost
   uplinks. ECMP hashes each flow onto one uplink for its life: N balls into P
   bins. A synchronized step ends when the busiest uplink has carried its
   flows, so it takes E[max load] * S / C instead of (N/P) * S / C. The exact
   expectation of the maximum bin load comes from the multinomial
   distribution; a seeded Monte Carlo agrees with it. Per-packet spraying
   deals the packets round-robin over the P uplinks: every uplink carries N*K/P
   packets (within one), whatever the hash. With one uplink part-busy (a share u
   of its rate taken by other traffic), oblivious round-robin still gives it 1/P
   and waits for it; adaptive spraying (each packet to the shortest queue) fills
   the spare capacity evenly, N / (P - u). Spraying reorders: a seeded path skew
   gives the share of packets an in-order RC receiver would discard (go-back-N),
   and one sprayed block is run through two receivers over the same paths: a
   plain RC responder (discard, NAK once, go back N, the transport timer for a gap
   nothing reveals) and a NIC that places packets out of order (SRD, ConnectX
   out-of-order placement), which resends nothing.

Pure stdlib/numpy, SI units: bytes, seconds, bytes per second.
"""

from __future__ import annotations

import heapq
import math
from collections import deque

import numpy as np

from models.constants import const
from models.exhibit import Column, Exhibit, Param, Table, check, curves, model
from models.lib.memo import pure
from models.lib.pfc import pfc_headroom
from models.units import fmt_bytes, fmt_seconds

MODES = ("lossless", "lossy", "timeout")  # PFC; RDMA go-back-N with NAK; timeout-only (historical TCP)
IB_ACK_TIMEOUT_UNIT = 4.096e-6  # s: the IB local ACK timeout is 4.096 us * 2^timeout

# ---------------------------------------------------------------------------
# the formulas
# ---------------------------------------------------------------------------


def packets(nbytes: float, packet_bytes: float) -> int:
    """Whole packets needed for nbytes (a short last packet counts whole)."""
    return max(1, math.ceil(nbytes / packet_bytes - 1e-9))


def bdp_window(port_rate: float, rtt: float, packet_bytes: float) -> int:
    """Packets one sender must keep in flight to fill its port: ceil(C * RTT / MTU)."""
    return packets(port_rate * rtt, packet_bytes)


def ib_transport_timeout(exponent: int, unit: float = IB_ACK_TIMEOUT_UNIT) -> float:
    """InfiniBand local ACK timeout: unit * 2^exponent, unit = 4.096 us (NCCL_IB_TIMEOUT is the exponent)."""
    return unit * 2.0 ** int(exponent)


def drop_free_fan_in(buffer: int, window: int, rtt_slots: int) -> int:
    """Largest N whose synchronized first windows fit a drop-tail buffer of B packets.

    Each sender puts W packets on the wire in its first W slots; before the last
    arrives the port has sent D = min(W, R) - 1. Peak queue N*W - D <= B.
    """
    d = min(int(window), int(rtt_slots)) - 1
    return max(0, (int(buffer) + d) // int(window))


def max_load_cdf(flows: int, bins: int) -> np.ndarray:
    """P(max bin load <= m) for m = 0..flows, N balls thrown uniformly into P bins.

    Exact identity (Poissonization): the bin loads are P independent Poisson(N/P) counts conditioned on
    their sum being N, so P(max <= m) = Q^P * P(T_1 + ... + T_P = N) / Pois(N; N), where Q = P(Pois <= m)
    and T is the Poisson count conditioned on T <= m. Every factor is a probability: nothing overflows
    at thousands of balls (N!/P^N does, past about 170). The P-fold sum is one FFT power, sized to the
    sum's whole support so nothing wraps. Below ceil(N/P) the CDF is 0 (pigeonhole); once the tail is
    under 1e-15 the rest is 1.
    """
    n, p = int(flows), int(bins)
    out = np.zeros(n + 1)
    out[n] = 1.0
    if p == 1:
        return out
    lam = n / p
    log_pois_n = n * math.log(n) - n - math.lgamma(n + 1)  # Pois(N; N), the sum's own pmf at N
    j = np.arange(n + 1)
    log_pois = j * math.log(lam) - lam - np.array([math.lgamma(x + 1) for x in range(n + 1)])
    for m in range(math.ceil(n / p), n):
        log_q = log_pois[: m + 1]
        log_qsum = np.logaddexp.reduce(log_q)
        trunc = np.exp(log_q - log_qsum)  # the truncated Poisson's pmf, a proper distribution
        size = 1 << int(p * m).bit_length()  # > p*m: the sum's whole support, no wrap-around
        sum_pmf = np.fft.irfft(np.fft.rfft(trunc, size) ** p, size)[n]
        cdf = math.exp(p * log_qsum - log_pois_n) * max(sum_pmf, 0.0)
        out[m] = min(1.0, cdf)
        if out[m] > 1.0 - 1e-15:
            out[m:] = 1.0
            break
    return np.maximum.accumulate(out)  # FFT noise (~1e-15) may not make a CDF step down


@pure  # every range-test point and Explore run asks again for the same few (flows, uplinks) pairs
def expected_max_load(flows: int, bins: int) -> float:
    """E[max bin load] of N flows hashed uniformly onto P uplinks: sum over m of P(max > m)."""
    return float(np.sum(1.0 - max_load_cdf(flows, bins)[:-1]))


def hash_counts(flows: int, bins: int, trials: int, rng: np.random.Generator) -> np.ndarray:
    """Flows per uplink in each of `trials` seeded hashings of N flows onto P uplinks (trials x P)."""
    h = rng.integers(0, bins, size=(int(trials), int(flows)))
    counts = np.zeros((int(trials), int(bins)), dtype=np.int64)
    np.add.at(counts, (np.arange(int(trials))[:, None], h), 1)
    return counts


def max_load_monte_carlo(flows: int, bins: int, trials: int, rng: np.random.Generator) -> np.ndarray:
    """Max bin load in each of `trials` seeded hashings of N flows onto P uplinks."""
    return hash_counts(flows, bins, trials, rng).max(axis=1)


def ecmp_busy_step(counts: np.ndarray, busy_load: float) -> np.ndarray:
    """ECMP's step time per hashing when uplink 0 already carries `busy_load` of its rate in other traffic.

    The flows hashed onto the busy uplink drain at (1 - u) of the rate, the others at the full rate; the
    step waits for the slowest uplink. A uniform hash makes every uplink equally likely to be the busy
    one, so fixing it as uplink 0 loses nothing. In flows' worth of time at the full rate.
    """
    others = counts[:, 1:].max(axis=1) if counts.shape[1] > 1 else np.zeros(counts.shape[0])
    return np.maximum(counts[:, 0] / (1.0 - float(busy_load)), others)


def fair_share_buffer(switch_buffer: float, ports: int) -> float:
    """One port's equal share of a switch ASIC's shared packet buffer (bytes).

    A shared buffer lets one congested port borrow beyond this (dynamic thresholds), so the share
    is a floor for a single hot port, not a ceiling; the page says so.
    """
    return float(switch_buffer) / int(ports)


def oblivious_spray_load(flows: int, bins: int, block_packets: int, busy_load: float) -> float:
    """Round-robin spraying when one uplink already carries `busy_load` of its rate in other traffic.

    Oblivious spraying still deals 1/P of the packets to the busy uplink, which drains them at
    (1 - u) of the rate: the step waits for it. In flows' worth of time at the full rate.
    """
    return sprayed_max_load(flows, bins, block_packets) / (1.0 - float(busy_load))


def adaptive_spray_load(flows: int, bins: int, busy_load: float) -> float:
    """Congestion-aware (adaptive) spraying: each packet goes to the uplink with the shortest queue.

    It fills the P uplinks' spare capacity, P - u full rates, evenly, so every uplink finishes together:
    N / (P - u) flows' worth of time (fluid limit, within a packet).
    """
    return float(flows) / (int(bins) - float(busy_load))


def out_of_sequence_fraction(block_packets: int, paths: int, skew_slots: float, trials: int,
                             rng: np.random.Generator) -> float:
    """Share of a sprayed block's packets that reach the receiver ahead of a gap (an earlier one missing).

    Packets leave one per slot, round-robin over `paths`; each path adds a seeded extra delay drawn
    uniformly in [0, skew_slots] (a different queue on each path). A packet arrives out of sequence
    when some lower-numbered packet of its flow has not arrived yet. An RDMA reliable connection (RC)
    that cannot place it discards it and NAKs the gap: go-back-N. A NIC that places packets out of
    order (SRD, adaptive-routing RC) keeps it. First pass only: the resends it triggers are not counted.
    """
    k, p = int(block_packets), int(paths)
    seq = np.arange(k)
    path_delay = rng.uniform(0.0, float(skew_slots), size=(int(trials), p))
    arrival = seq[None, :] + path_delay[:, seq % p]
    latest_before = np.maximum.accumulate(arrival, axis=1)[:, :-1]  # the latest arrival among 0..i-1
    ahead_of_a_gap = arrival[:, 1:] < latest_before
    return float(ahead_of_a_gap.sum(axis=1).mean() / k)


def sprayed_flow(block_packets: int, path_delays, rtt_slots: int, window: int, timeout_slots: int,
                 placement: bool, max_steps: int = 200_000) -> dict:
    """One flow sprayed round-robin over len(path_delays) paths, each adding its own fixed delay (slots).

    The sender sends one packet per slot while fewer than `window` are unacknowledged; the k-th packet
    it sends (first copy or resend) takes path k mod P. Feedback reaches it `rtt_slots` after the packet
    that triggered it reached the receiver. Two receivers:

    - placement=False, a plain RC responder: it takes only the packet it expects, discards any later one
      and NAKs the first missing one once (until that one arrives); the sender goes back to it (go-back-N).
      A discarded packet with nothing behind it to reveal the gap waits for the transport timer.
    - placement=True, a NIC that places each packet at its own address whatever the order (SRD, or RC
      with out-of-order placement): it keeps every packet; the flow ends when the last one lands.

    No packet is lost: every resend here is caused by reordering alone.
    """
    k, r, w, to = int(block_packets), int(rtt_slots), int(window), int(timeout_slots)
    delays = [float(d) for d in path_delays]
    p = len(delays)
    if min(k, r, w, to, p) < 1:
        raise ValueError("block_packets, rtt_slots, window, timeout_slots and the paths must be >= 1")
    nxt = acked = sent = expected = discarded = timeouts = 0
    nak_for, timer, done, t, steps = -1, -1, -1, 0, 0
    got = bytearray(k)
    wire: list = []  # (arrival slot, send order, sequence number)
    feedback: deque = deque()  # (slot, cumulative, is_nak), in slot order: every one is sent r after an arrival
    while done < 0:
        steps += 1
        if steps > max_steps:
            raise RuntimeError("sprayed flow did not finish within max_steps")
        while feedback and feedback[0][0] <= t:
            _, cum, is_nak = feedback.popleft()
            if cum > acked:
                acked = cum
                timer = t + to if acked < k else -1
            if is_nak and nxt > cum:
                nxt = cum
        if 0 <= timer <= t:
            timeouts += 1
            nxt, timer = acked, t + to
        if nxt < k and nxt - acked < w:
            heapq.heappush(wire, (t + delays[sent % p], sent, nxt))
            nxt += 1
            sent += 1
            if timer < 0:
                timer = t + to
        while wire and wire[0][0] <= t:
            _, _, seq = heapq.heappop(wire)
            if placement:
                got[seq] = 1
                while expected < k and got[expected]:
                    expected += 1
            elif seq > expected:
                discarded += 1
                if nak_for != expected:
                    nak_for = expected
                    feedback.append((t + r, expected, True))
                continue
            elif seq == expected:
                expected += 1
            feedback.append((t + r, expected, False))
            if expected == k and done < 0:
                done = t
        if done >= 0:
            break
        if nxt < k and nxt - acked < w:
            t += 1
        else:
            cands = [c for c in (wire[0][0] if wire else None, feedback[0][0] if feedback else None,
                                 timer if timer >= 0 else None) if c is not None]
            t = max(t + 1, math.ceil(min(cands)))
    return {"fct_slots": done + 1, "sent": sent, "resent": sent - k, "discarded": discarded, "timeouts": timeouts}


def seeded_orders(rng: np.random.Generator, n: int):
    """One seeded permutation of the n flows per slot, the slot's send order: rng.permutation(n) each time.

    Drawn a block of rows at a time, growing: Generator.permuted shuffles each row with the very draws a
    permutation(n) call makes, in turn (tests/test_incast_spraying.py checks it), so the orders are bit for bit
    the same, and at a few hundred flows a block costs a third less a row. The rows left over when the
    simulation ends are never read, and the generator serves nothing else.
    """
    rows = 16
    while True:
        yield from rng.permuted(np.tile(np.arange(n), (rows, 1)), axis=1)
        rows = min(2 * rows, 1024)


def in_seeded_order(order: np.ndarray, ready: set) -> list:
    """The flows in `ready`, in the slot's seeded `order` (a permutation of every flow)."""
    if len(ready) < 2:
        return list(ready)
    member = np.zeros(len(order), dtype=bool)
    member[np.fromiter(ready, dtype=np.intp, count=len(ready))] = True
    return order[member[order]].tolist()


def sprayed_max_load(flows: int, bins: int, block_packets: int) -> float:
    """Per-packet round-robin spraying: the busiest uplink's load, in flows' worth of packets."""
    return math.ceil(flows * block_packets / bins) / block_packets


# ---------------------------------------------------------------------------
# the incast simulation
# ---------------------------------------------------------------------------


@pure  # the sub-sweeps and the range test re-run the same incast: a seeded run is a function of its arguments
def simulate(senders: int, block_packets: int, window: int, rtt_slots: int, mode: str, *,
             buffer: int = 10**9, xoff: int = 10**9, xon: int = 0, pause_slots: int = 1,
             headroom: int = 10**9, timeout_slots: int = 10**6, seed: int = 0,
             trace: bool = False, max_steps: int = 2_000_000) -> dict:
    """One synchronized incast into the receiver's egress port, slot by slot (idle gaps skipped).

    mode "lossless": per-ingress PFC (XOFF/XON, PAUSE effective `pause_slots`
    later), a packet beyond xoff + headroom on its ingress is dropped (never, if
    the headroom covers the pause delay). "lossy": drop-tail buffer of `buffer`
    packets, in-order receiver with one NAK per gap, go-back-N, transport timer.
    "timeout": the same drops recovered only by the timer.

    One function on purpose: each slot's phases (pauses and acknowledgements land, timers
    fire, senders send, the port serves one packet, PFC watches the ingresses) read and write
    the same per-flow state, and the seeded send order must be drawn once per slot.
    """
    n, k, w, r = int(senders), int(block_packets), int(window), int(rtt_slots)
    if min(n, k, w, r) < 1:
        raise ValueError("senders, block_packets, window and rtt_slots must be >= 1")
    if mode not in MODES:
        raise ValueError(f"mode must be one of {MODES}")
    orders = seeded_orders(np.random.default_rng(seed), n)
    nak = mode == "lossy"
    nxt, acked, expected = [0] * n, [0] * n, [0] * n
    nak_for = [-1] * n  # the sequence number a NAK was last sent for
    timer = [-1] * n
    streak = [0] * n  # consecutive timeouts without progress (the QP's retry counter, timeouts only)
    max_streak = 0
    # an upper bound for a NIC that charges every NAK-sequence error to the retry counter as well as every timeout,
    # reset only by a positive ACK that acknowledges new packets (a NAK's implicit ACK does not). No NIC was verified
    # to count this way: Linux Soft-RoCE (rxe_comp.c) sends a NAK down the retry path but charges no NAK during a
    # retry already started, and never decrements a retry count of 7
    nak_streak = [0] * n
    max_nak_streak = 0
    paused, rx_paused = [False] * n, [False] * n
    ingress = [0] * n
    done = [-1] * n
    queue: deque = deque()
    acks: deque = deque()  # (slot, flow, cumulative, is_nak)
    timers: list = []
    pause_events: deque = deque()  # (slot, flow, state)
    sent = drops = timeouts = naks = discarded = pauses = 0
    peak_queue = peak_ingress = paused_sender_slots = 0
    paused_count = 0  # sum(paused), kept as pauses land: summing every slot was a third of the run
    # PFC watches only the ingresses whose state moved: a flow whose count and pause flag are what they
    # were when it last passed the test passes it the same way (every flow at the first slot)
    watch = set(range(n))
    lossless = mode == "lossless"
    remaining, t, steps = n, 0, 0
    events = [] if trace else None

    def eligible(f: int) -> bool:
        return nxt[f] < k and nxt[f] - acked[f] < w and not paused[f]

    # the flows that may send, kept as nxt, acked and paused move (each change below re-reads its flow): the send
    # order used to test every flow every slot, most of a run's time, when most slots have none or one to send
    ready = set(range(n))

    def reread(f: int) -> None:
        if eligible(f):
            ready.add(f)
        else:
            ready.discard(f)

    while remaining:
        steps += 1
        if steps > max_steps:
            raise RuntimeError("incast simulation did not finish within max_steps")
        changed = []
        while pause_events and pause_events[0][0] <= t:
            _, f, state = pause_events.popleft()
            paused_count += state - paused[f]
            paused[f] = state
            reread(f)
            changed.append((f, state))
        while acks and acks[0][0] <= t:
            _, f, cum, is_nak = acks.popleft()
            if is_nak:
                nak_streak[f] += 1
                max_nak_streak = max(max_nak_streak, nak_streak[f])
            elif cum > acked[f]:
                nak_streak[f] = 0
            if cum > acked[f]:
                acked[f] = cum
                streak[f] = 0
                timer[f] = t + timeout_slots if acked[f] < min(nxt[f], k) else -1
                if timer[f] >= 0:
                    heapq.heappush(timers, (timer[f], f))
            if is_nak and nxt[f] > cum:
                nxt[f] = cum  # go back N to the first missing packet
            reread(f)
        fired = []
        while timers and timers[0][0] <= t:
            at, f = heapq.heappop(timers)
            if timer[f] != at:
                continue
            timeouts += 1
            streak[f] += 1
            max_streak = max(max_streak, streak[f])
            nak_streak[f] += 1
            max_nak_streak = max(max_nak_streak, nak_streak[f])
            fired.append(f)
            nxt[f] = acked[f]
            reread(f)
            timer[f] = -1

        arrivals = []
        order = in_seeded_order(next(orders), ready)  # drawn every slot, as the seeded stream runs
        # a drop-tail queue only grows in this phase, so its first `room` senders get in and every later one is
        # dropped: a timer storm sends hundreds of times the room each slot, and a dropped send is bookkeeping only
        dropping = not (lossless or trace)
        admitted = order[:max(0, buffer - len(queue))] if dropping else order
        for f in admitted:
            seq = nxt[f]
            nxt[f] += 1
            reread(f)
            sent += 1
            if timer[f] < 0:
                timer[f] = t + timeout_slots
                heapq.heappush(timers, (timer[f], f))
            if lossless:
                dropped = ingress[f] >= xoff + headroom
            else:
                dropped = len(queue) >= buffer
            if dropped:
                drops += 1
            else:
                queue.append((f, seq))
                ingress[f] += 1
                watch.add(f)
                if ingress[f] > peak_ingress:  # ingress only grows here: the peak of max(ingress)
                    peak_ingress = ingress[f]
            if trace:
                arrivals.append([f, seq, int(dropped)])
        for f in order[len(admitted):]:  # the senders a full queue drops (lossy and timeout modes, no trace)
            nxt[f] += 1
            if nxt[f] >= k or nxt[f] - acked[f] >= w:  # reread(f) inlined: f was ready, so not paused
                ready.discard(f)
            if timer[f] < 0:
                timer[f] = t + timeout_slots
                heapq.heappush(timers, (timer[f], f))
        sent += len(order) - len(admitted)
        drops += len(order) - len(admitted)
        peak_queue = max(peak_queue, len(queue))
        paused_sender_slots += paused_count
        qlen = len(queue)

        departures = []
        if queue:
            f, seq = queue.popleft()
            ingress[f] -= 1
            watch.add(f)
            if trace:
                departures.append([f, seq])
            if seq == expected[f]:
                expected[f] += 1
                if expected[f] == k and done[f] < 0:
                    done[f] = t
                    remaining -= 1
                acks.append((t + r, f, expected[f], False))
            elif seq > expected[f]:
                discarded += 1  # out of sequence: the responder discards it
                if nak and nak_for[f] != expected[f]:
                    nak_for[f] = expected[f]
                    naks += 1
                    acks.append((t + r, f, expected[f], True))
            else:
                acks.append((t + r, f, expected[f], False))  # duplicate: re-acknowledge

        if lossless:
            flipped = set()
            for f in sorted(watch):  # in flow order, as the events were always queued
                if not rx_paused[f] and ingress[f] >= xoff:
                    rx_paused[f] = True
                    pauses += 1
                    pause_events.append((t + pause_slots, f, True))
                    flipped.add(f)
                elif rx_paused[f] and ingress[f] <= xon:
                    rx_paused[f] = False
                    pause_events.append((t + pause_slots, f, False))
                    flipped.add(f)
            watch = flipped
        if trace and (arrivals or departures or changed or fired):
            events.append({"slot": t, "arrivals": arrivals, "departures": departures, "queue": qlen,
                           "paused": [int(p) for p in paused], "timeouts": fired})

        # nothing after the send phase changes nxt, acked or paused: `ready` holds who can send next slot
        if queue or ready:
            t += 1
        else:
            cands = [acks[0][0]] if acks else []
            if timers:
                cands.append(timers[0][0])
            if pause_events:
                cands.append(pause_events[0][0])
            if not cands:
                raise RuntimeError("deadlock: flows unfinished with nothing pending")
            t = max(t + 1, min(cands))

    fct = max(done) + 1
    return {"fct_slots": fct, "drops": drops, "timeouts": timeouts, "naks": naks, "sent": sent,
            "retransmitted": sent - n * k, "discarded": discarded, "pauses": pauses,
            "peak_queue": peak_queue, "peak_ingress": peak_ingress, "max_retry_streak": max_streak,
            "max_nak_retry_streak": max_nak_streak,
            "paused_fraction": paused_sender_slots / (n * fct), "events": events}


# ---------------------------------------------------------------------------
# the entry function
# ---------------------------------------------------------------------------


@model(
    port_rate=Param.positive("B/s", "receiver port rate C, per direction"),
    packet_bytes=Param.positive("B", "packet size (MTU)"),
    block_bytes=Param.positive("B", "block each sender sends, S"),
    base_rtt=Param.positive("s", "base round-trip time"),
    switch_buffer_bytes=Param.positive("B", "switch ASIC's shared packet buffer"),
    switch_ports=Param.integer("count", "switch ASIC's ports at the port rate", minimum=1),
    hot_port_shares=Param.numbers("1", "shares of the switch buffer one hot port may take, swept (lossy)",
                                  minimum=0.001, maximum=1.0),
    xoff_bytes=Param.positive("B", "PFC XOFF threshold per ingress"),
    cable_length=Param.positive("1", "cable length, metres"),
    prop_delay_per_m=Param.positive("s", "propagation delay per metre"),
    response_time=Param.positive("s", "PAUSE response time"),
    ib_timeout=Param.integer("count", "NCCL_IB_TIMEOUT exponent, 4.096 µs × 2^n (0 means no timer in ibv_modify_qp)",
                             minimum=1, maximum=31),
    ib_timeout_unit=Param.positive("s", "InfiniBand local ACK timeout unit"),
    older_ib_timeout=Param.integer("count", "NCCL_IB_TIMEOUT of older releases (2.14 to 2.22), compared",
                                   minimum=1, maximum=31),
    timer_exponents=Param.numbers("count", "transport timer exponents swept at the largest fan-in, 4.096 µs × 2^n",
                                  minimum=1, maximum=31),
    tcp_rto=Param.positive("s", "TCP minimum retransmission timeout (historical)"),
    retry_cnt=Param.integer("count", "NCCL_IB_RETRY_CNT: timeouts in a row before the QP fails", minimum=0,
                            maximum=7),
    fan_in=Param.numbers("count", "senders N swept", minimum=1),
    question_fan_in=Param.integer("count", "senders in the worked question"),
    edge_fan_in=Param.integer("count", "senders in the lossy run that tests NCCL's retry limit"),
    retry_block_bytes=Param.numbers("B", "other block sizes whose retry streak is measured at the largest fan-in",
                                    minimum=4096, maximum=16 * 2**20),
    retry_seeds=Param.integer("count", "send orders (seeds) per block size for the retry streak", minimum=1,
                              maximum=16),
    uplinks=Param.integer("count", "equal-cost uplinks P", minimum=2, maximum=64),
    flows=Param.numbers("count", "flows N hashed onto the uplinks", minimum=1),
    trials=Param.integer("count", "Monte Carlo hashings per point", minimum=100, maximum=200000),
    busy_uplink_load=Param.number("1", "share of one uplink's rate already taken by other traffic",
                                  minimum=0.0, maximum=0.95),
    path_skew=Param.positive("s", "largest extra queueing delay of one path over another, sprayed"),
    path_skews=Param.numbers("s", "path skews swept: go-back-N spraying against ECMP", minimum=1e-9),
    qps_per_connection=Param.integer("count", "queue pairs per connection compared with NCCL's default",
                                     minimum=1, maximum=128),
    default_qps_per_connection=Param.integer("count", "NCCL_IB_QPS_PER_CONNECTION default", minimum=1),
    spray_trials=Param.integer("count", "seeded path-delay draws per path skew, go-back-N versus placement",
                               minimum=10, maximum=1000),
    anim_senders=Param.integer("count", "senders drawn", animation=True, minimum=2, maximum=8),
    anim_block_packets=Param.integer("count", "packets per sender drawn", animation=True, maximum=12),
    anim_xoff_packets=Param.integer("count", "XOFF drawn, packets", animation=True, maximum=6),
    anim_buffer_packets=Param.integer("count", "lossy buffer drawn, packets", animation=True, minimum=2, maximum=12),
    anim_uplinks=Param.integer("count", "uplinks drawn", animation=True, minimum=2, maximum=6),
    anim_flows=Param.integer("count", "flows drawn", animation=True, minimum=2, maximum=12),
    seed=Param.integer("count", "random seed", minimum=0, animation=True),
)
def incast_spraying(port_rate, packet_bytes, block_bytes, base_rtt, switch_buffer_bytes, switch_ports,
                    hot_port_shares, xoff_bytes,
                    cable_length, prop_delay_per_m, response_time, ib_timeout, ib_timeout_unit, older_ib_timeout,
                    timer_exponents, tcp_rto, retry_cnt, fan_in, question_fan_in, edge_fan_in, retry_block_bytes,
                    retry_seeds, uplinks, flows, trials,
                    busy_uplink_load, path_skew, path_skews, qps_per_connection, default_qps_per_connection,
                    spray_trials, anim_senders,
                    anim_block_packets, anim_xoff_packets, anim_buffer_packets, anim_uplinks, anim_flows,
                    seed) -> Exhibit:
    """Incast goodput to one receiver (lossless, lossy RDMA, historical TCP) and ECMP versus spraying."""
    buffer_bytes = fair_share_buffer(switch_buffer_bytes, switch_ports)
    g = slot_grid(port_rate, packet_bytes, block_bytes, base_rtt, buffer_bytes, xoff_bytes, cable_length,
                  prop_delay_per_m, response_time, ib_timeout, ib_timeout_unit, tcp_rto)
    fan = sorted({int(x) for x in fan_in})
    sweep = incast_sweep(g, fan, seed)
    check_incast_sweep(g, fan, sweep)
    hi = {mode: run_incast(g, g["n_star"] + 1, mode, seed) for mode in MODES}
    check_either_side_of_the_threshold(g, hi, sweep)
    rng = np.random.default_rng(seed)
    spray = spraying(g, int(uplinks), sorted({int(x) for x in flows}), trials, float(busy_uplink_load), rng)
    animation = animation_plan(g, anim_senders, anim_block_packets, anim_xoff_packets, anim_uplinks,
                               anim_flows, seed, rng)  # after spraying: the hash continues its stream
    animation.update(lossy_animation(g, anim_senders, anim_block_packets, anim_buffer_packets, seed))
    animation.update(reorder_animation(g, anim_uplinks, float(path_skew)))
    adaptive = adaptive_versus_oblivious(g, spray, float(busy_uplink_load))
    reorder = reordering(g, int(uplinks), float(path_skew), rng)
    # one set of seeded draws per skew, the page's skew among them: the figure's star and the skew table read the
    # same draws, so the go-back-N step at a skew is estimated once
    skew_set = sorted({float(x) for x in path_skews} | {float(path_skew)})
    draws = {sk: sprayed_draws(g, int(uplinks), sk, spray_trials, rng) for sk in skew_set}
    reorder.update(receivers_under_spraying(g, float(path_skew), draws[float(path_skew)],
                                            int(spray["flows"][spray["i_eq"]])))
    summary = summarise(g, fan, sweep, hi, spray, block_bytes, buffer_bytes, cable_length,
                        question_fan_in, trials)
    # lossy only, past the sweep: the same send orders (seeds) as the block-size rows, since one order is one draw
    edges = [run_incast(g, int(edge_fan_in), "lossy", s) for s in range(int(retry_seeds))]
    summary.update(transport_edges(g, fan, sweep, int(retry_cnt), int(edge_fan_in), edges))
    summary.update(recovery_and_timer(g, fan, sweep, seed))
    by_block = retry_streaks_by_block(g, fan[-1], [block_bytes, *retry_block_bytes], retry_seeds, int(retry_cnt))
    check(any(r["abort_share"] > 0 for r in by_block if r["block_bytes"] > block_bytes),
          "with larger blocks, some send orders at the largest fan-in pass NCCL's retry limit")
    summary.update({"retry_block_abort_from": min((r["block_bytes"] for r in by_block if r["abort_share"] > 0),
                                                  default=None),
                    "retry_block_streak_max": max(r["streak_max"] for r in by_block), "retry_seeds": int(retry_seeds)})
    summary.update(buffer_bloat(g, fan, sweep, float(switch_buffer_bytes), int(switch_ports)))
    # the page compares the scenario's timer and the older NCCL's with the swept ones: both are always swept
    swept_exponents = {int(x) for x in timer_exponents} | {int(ib_timeout), int(older_ib_timeout)}
    timers = timer_sweep(g, fan, sweep, swept_exponents, ib_timeout_unit, int(retry_cnt), seed)
    summary.update(older_timeout(g, timers, sweep, int(older_ib_timeout)))
    summary.update(timer_sweep_summary(g, timers, int(ib_timeout)))
    per_port = per_port_buffer_sweep(g, fan, sweep, float(switch_buffer_bytes), int(switch_ports),
                                     hot_port_shares, seed)
    summary.update(per_port_buffer_summary(per_port, int(switch_ports)))
    summary.update(adaptive["summary"])
    summary.update(reorder)
    skews = skew_sweep(g, draws, int(spray["flows"][spray["i_eq"]]), float(spray["e_max"][spray["i_eq"]]))
    summary.update(skew_sweep_summary(skews))
    qps = qp_spreading(spray, int(qps_per_connection), int(default_qps_per_connection))
    summary.update(qps["summary"])
    summary.update(pfc_like_with_like(g, summary, int(switch_ports) - 1))
    check_summary_claims(g, hi, summary)
    n_hi, C, W, R = g["n_star"] + 1, g["C"], g["W"], g["R"]
    problems = {
        "burst_packets": n_hi * W, "peak_lossy": n_hi * W - (min(W, R) - 1),
        "share_per_sender": C / n_hi, "question_fct": summary["question_fct"],
    }
    series = curves("fan_in", fan, goodput_lossless=sweep["goodput"]["lossless"],
                    goodput_lossy=sweep["goodput"]["lossy"], goodput_timeout=sweep["goodput"]["timeout"],
                    fct_ideal=sweep["ideal"],
                    retry_streak=[s["max_retry_streak"] for s in sweep["sims"]["lossy"]])
    series.update(curves("flows", spray["flows"], emax=spray["e_max"], mc_mean=spray["mc_mean"],
                         mc_se=spray["mc_se"], spray=spray["spray"], mean_load=spray["mean_load"],
                         ecmp_busy=spray["ecmp_busy"], ecmp_busy_se=spray["ecmp_busy_se"],
                         spray_oblivious_busy=adaptive["oblivious"], spray_adaptive_busy=adaptive["adaptive"],
                         emax_qps=qps["loads"]))
    return Exhibit(summary=summary, series=series,
                   table=incast_table(g, fan, sweep, block_bytes, buffer_bytes, int(retry_cnt)),
                   animation=animation, problems=problems,
                   records={"per_port_buffer": per_port, "timer_sweep": timers, "skew_sweep": skews,
                            "retry_by_block": by_block})


# ---------------------------------------------------------------------------
# the recipe's steps
# ---------------------------------------------------------------------------


def slot_grid(port_rate, packet_bytes, block_bytes, base_rtt, buffer_bytes, xoff_bytes, cable_length,
              prop_delay_per_m, response_time, ib_timeout, ib_timeout_unit, tcp_rto) -> dict:
    """The simulation's units: the packet slot, and every size and time in packets and slots.

    C: port rate; K: packets per block; R: round trip in slots; W: the window that fills the
    port; B: the lossy buffer; xoff/xon/headroom/pause_slots: PFC; TO_IB/TO_TCP: the transport
    timers; n_star: the largest fan-in the lossy buffer takes without a drop.
    """
    C, mtu = float(port_rate), float(packet_bytes)
    slot = mtu / C
    R = max(1, round(base_rtt / slot))
    W = bdp_window(C, R * slot, mtu)
    B = int(buffer_bytes // mtu)
    if B < 1:
        raise ValueError("buffer_bytes must hold at least one packet")
    xoff = packets(xoff_bytes, mtu)
    reaction = 2 * cable_length * prop_delay_per_m + response_time
    headroom_bytes = float(pfc_headroom(cable_length, C, mtu, prop_delay_per_m, response_time))
    ib_to = ib_transport_timeout(ib_timeout, ib_timeout_unit)
    return {
        "C": C, "mtu": mtu, "slot": slot, "K": packets(block_bytes, mtu), "R": R, "W": W, "B": B,
        "xoff": xoff, "xon": max(0, xoff - 2), "pause_slots": max(1, math.ceil(reaction / slot)),
        "headroom_bytes": headroom_bytes, "headroom": packets(headroom_bytes, mtu),
        "ib_to": ib_to, "TO_IB": max(1, round(ib_to / slot)), "TO_TCP": max(1, round(tcp_rto / slot)),
        "n_star": drop_free_fan_in(B, W, R),
        "W_unrounded": bdp_window(C, base_rtt, mtu),  # the page says why W is one less: R is whole slots
    }


def run_incast(g: dict, nn: int, mode: str, seed: int) -> dict:
    """One incast of nn senders with the scenario's PFC (lossless) or buffer and timer (otherwise)."""
    extra = dict(xoff=g["xoff"], xon=g["xon"], pause_slots=g["pause_slots"], headroom=g["headroom"]) \
        if mode == "lossless" else dict(buffer=g["B"], timeout_slots=g["TO_IB"] if mode == "lossy" else g["TO_TCP"])
    return simulate(nn, g["K"], g["W"], g["R"], mode, seed=seed, **extra)


def incast_sweep(g: dict, fan: list[int], seed: int) -> dict:
    """Goodput to one receiver versus fan-in, for each of the three recoveries."""
    sims = {mode: [run_incast(g, nn, mode, seed) for nn in fan] for mode in MODES}
    total = np.array(fan, dtype=float) * g["K"] * g["mtu"]
    fct = {mode: np.array([s["fct_slots"] * g["slot"] for s in sims[mode]]) for mode in MODES}
    return {"sims": sims, "fct": fct, "goodput": {mode: total / fct[mode] for mode in MODES},
            "ideal": total / g["C"]}


def check_incast_sweep(g: dict, fan: list[int], sweep: dict) -> None:
    """The page's claims about the sweep: the port-rate ceiling, PFC's, the lossy threshold."""
    C, sims, goodput = g["C"], sweep["sims"], sweep["goodput"]
    for mode in MODES:
        check(np.all(goodput[mode] <= C * (1 + 1e-12)),
              "goodput to one receiver never exceeds its port rate, whatever the paths")
    check(all(s["drops"] == 0 for s in sims["lossless"]), "the lossless fabric drops nothing")
    check(all(s["peak_ingress"] <= g["xoff"] + g["headroom"] for s in sims["lossless"]),
          "PFC headroom covers what lands after XOFF")
    check(np.all(goodput["lossless"] >= 0.9 * C),
          "with one bandwidth-delay product in flight the lossless port runs at line rate")
    lossy_drops = np.array([s["drops"] for s in sims["lossy"]])
    fan_arr, n_star = np.array(fan), g["n_star"]
    check(np.any(fan_arr > n_star) and np.all(lossy_drops[fan_arr <= n_star] == 0)
          and np.all(lossy_drops[fan_arr > n_star] > 0),
          "the lossy port drops from N* + 1 senders")


def check_either_side_of_the_threshold(g: dict, hi: dict, sweep: dict) -> None:
    """The claims about one sender past the drop threshold, and about the largest fan-in."""
    n_hi, K, R, slot = g["n_star"] + 1, g["K"], g["R"], g["slot"]
    check(hi["lossy"]["naks"] > 0 and hi["lossy"]["timeouts"] == 0
          and hi["lossy"]["fct_slots"] <= n_hi * K + 10 * R,
          "one sender past the threshold, NAKs recover the losses within a few round trips")
    check(hi["lossless"]["fct_slots"] == n_hi * K, "the lossless block takes exactly N·S/C")
    check(hi["timeout"]["fct_slots"] * slot >= g["TO_TCP"] * slot, "recovery by timeout alone waits RTO_min")
    big = sweep["sims"]["lossy"][-1]
    check(big["timeouts"] > 0 and sweep["goodput"]["lossy"][-1] < g["C"] / 1000,
          "at large fan-in tail losses wait for the transport timeout and goodput collapses")


def spraying(g: dict, P: int, nflows: list[int], trials: int, busy: float, rng: np.random.Generator) -> dict:
    """N flows on P uplinks: ECMP's expected busiest uplink (exact and Monte Carlo) and spraying's.

    The same seeded hashings also give ECMP's step with one uplink part-busy (`busy` of its rate taken),
    the fair comparison for oblivious and adaptive spraying under that load.
    """
    K = g["K"]
    e_max, mc_mean, mc_se, spray, busy_mean, busy_se = [], [], [], [], [], []
    for nf in nflows:
        e = expected_max_load(nf, P)
        counts = hash_counts(nf, P, trials, rng)
        mc, mc_busy = counts.max(axis=1), ecmp_busy_step(counts, busy)
        e_max.append(e)
        mc_mean.append(float(mc.mean()))
        mc_se.append(float(mc.std(ddof=1) / math.sqrt(trials)) if trials > 1 else 0.0)
        busy_mean.append(float(mc_busy.mean()))
        busy_se.append(float(mc_busy.std(ddof=1) / math.sqrt(trials)) if trials > 1 else 0.0)
        spray.append(sprayed_max_load(nf, P, K))
    e_max, mc_mean, mc_se, spray = map(np.array, (e_max, mc_mean, mc_se, spray))
    busy_mean, busy_se = np.array(busy_mean), np.array(busy_se)
    mean_load = np.array(nflows, dtype=float) / P
    check(np.all(np.abs(mc_mean - e_max) <= 4 * mc_se + 1e-9),
          "the seeded simulation agrees with the exact expectation")
    check(np.all(e_max > spray), "ECMP's busiest uplink always carries more than spraying's")
    check(np.all(spray <= mean_load + 1.0 / K + 1e-12), "spraying evens the uplinks to within one packet")
    i_eq = nflows.index(P) if P in nflows else int(np.argmin(np.abs(np.array(nflows) - P)))
    check(np.all(busy_mean >= e_max - 4 * mc_se - 1e-9),
          "a busy uplink never makes ECMP's step shorter")
    return {"uplinks": P, "flows": nflows, "e_max": e_max, "mc_mean": mc_mean, "mc_se": mc_se,
            "ecmp_busy": busy_mean, "ecmp_busy_se": busy_se, "spray": spray, "mean_load": mean_load, "i_eq": i_eq,
            "step_ecmp": e_max[i_eq] * K * g["slot"], "step_spray": spray[i_eq] * K * g["slot"]}


def lossy_animation(g: dict, anim_senders, anim_block_packets, anim_buffer_packets, seed: int) -> dict:
    """The same small incast without PFC: a drop-tail buffer, NAKs, go-back-N, and the transport timeout.

    The round trip and the timeout are the scenario's (in slots), so the tail loss really waits
    2^NCCL_IB_TIMEOUT x 4.096 us; the trace skips idle slots, so the scene can show the jump.
    """
    aN, aK, aB = int(anim_senders), int(anim_block_packets), int(anim_buffer_packets)
    sim = simulate(aN, aK, aK, g["R"], "lossy", buffer=aB, timeout_slots=g["TO_IB"], seed=seed, trace=True)
    check(sim["drops"] > 0 and sim["naks"] > 0, "the buffer overflows and the receiver NAKs the gap")
    check(sim["timeouts"] > 0, "a tail loss waits for the transport timeout")
    first_timeout = next((i for i, e in enumerate(sim["events"]) if e["timeouts"]), len(sim["events"]))
    return {"lossy_buffer": aB, "lossy_events": sim["events"], "lossy_first_timeout": first_timeout,
            "lossy_drops": sim["drops"], "lossy_naks": sim["naks"], "lossy_timeouts": sim["timeouts"],
            "lossy_fct_slots": sim["fct_slots"], "lossy_fct": sim["fct_slots"] * g["slot"],
            "lossy_resent": sim["retransmitted"], "ib_timeout": g["ib_to"], "rtt_slots": g["R"]}


def adaptive_versus_oblivious(g: dict, sp: dict, busy: float) -> dict:
    """Spraying when one uplink is already part-busy: oblivious round-robin versus congestion-aware."""
    K, P = g["K"], sp["uplinks"]
    oblivious = np.array([oblivious_spray_load(nf, P, K, busy) for nf in sp["flows"]])
    adaptive = np.array([adaptive_spray_load(nf, P, busy) for nf in sp["flows"]])
    check(np.all(adaptive <= oblivious + 1e-12),
          "congestion-aware spraying never does worse than oblivious round-robin")
    check(np.all(adaptive >= sp["mean_load"] - 1e-12), "no spraying beats the uplinks' spare capacity")
    # the fair baseline: ECMP with the same busy uplink. Its busiest uplink is at least the busy one's
    # flows / (1 - u), whose mean is the oblivious load, so ECMP never beats oblivious spraying on average
    # (the ceil of a whole packet aside, within the Monte Carlo's error)
    slack = 4 * sp["ecmp_busy_se"] + 1.0 / (K * (1.0 - busy)) + 1e-9
    check(np.all(sp["ecmp_busy"] >= oblivious - slack),
          "with the same busy uplink, ECMP is never better than oblivious spraying on average")
    i = sp["i_eq"]
    return {"oblivious": oblivious, "adaptive": adaptive, "summary": {
        "ecmp_busy_eq": float(sp["ecmp_busy"][i]),
        "ecmp_busy_over_oblivious_eq": float(sp["ecmp_busy"][i] / oblivious[i]),
        "busy_uplink_load": busy, "oblivious_busy_eq": float(oblivious[i]), "adaptive_busy_eq": float(adaptive[i]),
        "adaptive_gain_eq": float(oblivious[i] / adaptive[i]),
        "step_oblivious_busy": float(oblivious[i]) * K * g["slot"],
        "step_adaptive_busy": float(adaptive[i]) * K * g["slot"]}}


def reordering(g: dict, P: int, skew: float, rng: np.random.Generator) -> dict:
    """How much of a sprayed block a go-back-N RC receiver would discard, for the page's path skew."""
    skew_slots = skew / g["slot"]
    frac = out_of_sequence_fraction(g["K"], P, skew_slots, 2000, rng)
    check(frac > 0.25, "per-packet spraying over paths with different queues reorders a large share of packets")
    check(out_of_sequence_fraction(g["K"], 1, skew_slots, 10, rng) == 0.0, "one path never reorders")
    return {"path_skew": skew, "path_skew_slots": skew_slots, "out_of_sequence": frac,
            "out_of_sequence_packets": frac * g["K"]}


def sprayed_draws(g: dict, P: int, skew: float, trials: int, rng: np.random.Generator) -> tuple[list, list]:
    """Each trial draws one fixed extra delay per path, uniform in [0, skew], and runs the same block through
    both receivers (go-back-N, then out-of-order placement) over the same paths, with the scenario's window,
    round trip and transport timer."""
    K, skew_slots = g["K"], skew / g["slot"]
    gbn, placed = [], []
    for _ in range(int(trials)):
        delays = rng.uniform(0.0, skew_slots, size=int(P))
        gbn.append(sprayed_flow(K, delays, g["R"], g["W"], g["TO_IB"], placement=False))
        placed.append(sprayed_flow(K, delays, g["R"], g["W"], g["TO_IB"], placement=True))
    return gbn, placed


def receivers_under_spraying(g: dict, skew: float, draws: tuple[list, list], flows: int) -> dict:
    """One sprayed block, in-order RC (go-back-N) versus a NIC that places packets out of order; and the step
    of `flows` such flows, which ends with the slowest (E[max] of the draws). `draws` are sprayed_draws' at `skew`,
    the skew sweep's own."""
    K, skew_slots = g["K"], skew / g["slot"]
    gbn, placed = draws
    f_gbn = np.array([x["fct_slots"] for x in gbn], dtype=float)
    f_placed = np.array([x["fct_slots"] for x in placed], dtype=float)
    resent = np.array([x["resent"] for x in gbn], dtype=float)
    waited = np.array([x["timeouts"] > 0 for x in gbn])
    check(all(x["resent"] == 0 for x in placed), "a NIC that places packets out of order resends nothing")
    # placed: packet i leaves by slot i (or, past the window, a round trip after packet i - W landed) and
    # lands at most one skew later, so the block ends within two skews (and any window stall) of K slots
    bound = K + max(0, g["R"] - g["W"]) + 2 * math.ceil(skew_slots) + 2
    check(np.all(f_placed <= bound), "placed out of order, the block ends within two path skews of its send time")
    check(np.all(f_gbn >= f_placed), "go-back-N never finishes a sprayed block sooner than out-of-order placement")
    check(np.median(f_gbn) > 2 * np.median(f_placed), "sprayed over skewed paths, go-back-N takes over twice as long")
    med_gbn, med_placed = float(np.median(f_gbn)), float(np.median(f_placed))
    return {"spray_trials": len(gbn), "gbn_timeout_draws": int(waited.sum()),
            "placed_fct_median": med_placed * g["slot"],
            "gbn_fct_median": med_gbn * g["slot"], "gbn_over_placed": med_gbn / med_placed,
            "gbn_resent_mean": float(resent.mean()), "gbn_resent_blocks": float(resent.mean() / K),
            "gbn_timeout_share": float(waited.mean()), "gbn_fct_mean": float(f_gbn.mean()) * g["slot"],
            "gbn_fct_p90": float(np.percentile(f_gbn, 90)) * g["slot"], "block_time": K * g["slot"],
            "gbn_step_blocks": expected_max_of(f_gbn, flows) / K,
            "placed_step_blocks": expected_max_of(f_placed, flows) / K}


def expected_max_of(samples: np.ndarray, n: int) -> float:
    """E[max of n independent draws] from a sample's empirical law: the i-th smallest of m weighs
    (i/m)^n - ((i-1)/m)^n, the chance it is the largest of n draws with replacement."""
    x, m = np.sort(np.asarray(samples, dtype=float)), len(samples)
    i = np.arange(1, m + 1)
    return float(np.sum(x * ((i / m) ** int(n) - ((i - 1) / m) ** int(n))))


def skew_sweep(g: dict, draws: dict, flows: int, e_max_eq: float) -> list[dict]:
    """The sprayed block over a range of path skews, against ECMP's step for the same number of flows.

    The path skew drives the go-back-N penalty: under one slot nothing overtakes. ECMP keeps each flow on one
    path (no reordering) and its synchronized step of N flows takes E[max] blocks, its busiest uplink. A sprayed
    step ends with its slowest flow too: E[max of N sprayed flows], each flow's delays drawn independently (one
    flow per draw, resends loading no other flow: optimistic for go-back-N). The median flow is shown beside it.
    In block times. `draws` maps each skew to sprayed_draws' (go-back-N, placed) at it.
    """
    K, rows = g["K"], []
    for skew in sorted(draws):
        gbn, placed = draws[skew]
        f_gbn = np.array([x["fct_slots"] for x in gbn], dtype=float)
        f_placed = np.array([x["fct_slots"] for x in placed], dtype=float)
        gbn_step = expected_max_of(f_gbn, flows) / K
        waited = sum(x["timeouts"] > 0 for x in gbn)
        share = waited / len(gbn)
        # the step waits for the timer when any one of its flows does: 1 - (1 - share)^N of steps (exact for the
        # empirical law expected_max_of draws from), and then the timer dwarfs everything else in the step
        chance = 1.0 - (1.0 - share) ** int(flows)
        rows.append({"skew": skew, "skew_slots": skew / g["slot"], "placed_blocks": float(np.median(f_placed)) / K,
                     "placed_step_blocks": expected_max_of(f_placed, flows) / K,
                     "gbn_blocks": float(np.median(f_gbn)) / K, "gbn_mean_blocks": float(f_gbn.mean()) / K,
                     "gbn_step_blocks": gbn_step, "gbn_timeout_share": share, "gbn_step_timer_chance": chance,
                     "draws": len(gbn), "gbn_timeout_draws": int(waited),
                     "gbn_step_timer_blocks": chance * g["TO_IB"] / K,
                     "ecmp_blocks": float(e_max_eq), "gbn_worse_than_ecmp": bool(gbn_step > e_max_eq),
                     "gbn_median_worse_than_ecmp": bool(np.median(f_gbn) / K > e_max_eq)})
    step_worse = [r["gbn_worse_than_ecmp"] for r in rows]
    check(not step_worse[0] and all(step_worse[step_worse.index(True):]) if any(step_worse) else False,
          "judged on its step (the slowest of the flows), go-back-N spraying beats ECMP below about one packet time "
          "of skew, where nothing overtakes, and loses to it at every swept skew from there on")
    worse = [r["gbn_median_worse_than_ecmp"] for r in rows]
    check(not worse[0] and all(worse[worse.index(True):]) if any(worse) else False,
          "go-back-N's median flow beats ECMP's step at the smallest skew, and from some skew on loses to it")
    check(all(r["placed_step_blocks"] < e_max_eq for r in rows),
          "placed out of order, spraying beats ECMP at every skew")
    check(all(abs(r["gbn_step_blocks"] / r["gbn_step_timer_blocks"] - 1) < 0.01
              for r in rows if r["gbn_timeout_share"] > 0),
          "where some draws wait for the timer, the step's mean is, within 1%, the chance that one of its flows "
          "waits times the timer")
    return rows


def skew_sweep_summary(rows: list[dict]) -> dict:
    """Where go-back-N spraying starts to lose to ECMP, judged on the step (its slowest flow) and on the median
    flow: the first swept skew that loses, and the last below it that wins (None on a side the sweep does not
    reach: every swept skew loses, or none does)."""
    timer = max(rows, key=lambda r: r["gbn_timeout_share"])  # the row the page explains the step with
    out = {"skew_min": rows[0]["skew"], "skew_max": rows[-1]["skew"],
           "skew_timer_skew": timer["skew"], "skew_timer_share": timer["gbn_timeout_share"],
           "skew_timer_draws": timer["gbn_timeout_draws"],
           "skew_timer_chance": timer["gbn_step_timer_chance"], "skew_timer_step_blocks": timer["gbn_step_blocks"],
           "gbn_blocks_min_skew": rows[0]["gbn_blocks"], "gbn_blocks_max_skew": rows[-1]["gbn_blocks"],
           "gbn_step_blocks_min_skew": rows[0]["gbn_step_blocks"],
           "placed_step_blocks_max_skew": rows[-1]["placed_step_blocks"]}
    for prefix, key in (("skew_ecmp", "gbn_worse_than_ecmp"), ("skew_median_ecmp", "gbn_median_worse_than_ecmp")):
        i = next((j for j, r in enumerate(rows) if r[key]), len(rows))
        wins_from = rows[i] if i < len(rows) else None
        out.update({f"{prefix}_wins_from": wins_from and wins_from["skew"],
                    f"{prefix}_wins_from_slots": wins_from and wins_from["skew_slots"],
                    f"{prefix}_loses_below": rows[i - 1]["skew"] if i > 0 else None})
    return out


def qp_spread_load(flows: int, bins: int, qps: int) -> float:
    """ECMP with each connection split over `qps` queue pairs (NCCL_IB_QPS_PER_CONNECTION).

    N*Q sub-flows of S/Q are hashed independently: the busiest uplink's expected load, in flows' worth.
    """
    return expected_max_load(int(flows) * int(qps), bins) / int(qps)


def qp_spreading(sp: dict, qps: int, default_qps: int) -> dict:
    """More queue pairs per connection: more, smaller hashed flows, between ECMP and per-packet spraying."""
    P, i = sp["uplinks"], sp["i_eq"]
    loads = np.array([qp_spread_load(nf, P, qps) for nf in sp["flows"]])
    check(np.all(loads <= sp["e_max"] + 1e-12) and np.all(loads >= sp["spray"] - 1e-12),
          "splitting each connection over more queue pairs lands between ECMP and spraying")
    return {"loads": loads, "summary": {"qps_per_connection": int(qps), "qps_default": int(default_qps),
                                        "emax_qps_eq": float(loads[i])}}


def pfc_like_with_like(g: dict, summary: dict, ingress_links: int) -> dict:
    """PFC at the buffer the lossy port gets: each ingress needs its headroom on top of XOFF.

    A lossless port guarantees no drop only while every paused ingress can still land a pause delay's
    worth: headroom per ingress. The equal share covers floor(B / headroom) ingresses' headroom alone.
    """
    hb, B = g["headroom_bytes"], g["B"] * g["mtu"]
    fits = int(B // hb)
    check(fits < ingress_links, "the equal share cannot hold PFC headroom for every ingress link of the switch")
    # what one egress port can hold under PFC: each ingress link stops at XOFF plus what lands in its pause delay
    port_cap = ingress_links * (g["xoff"] + g["headroom"]) * g["mtu"]
    backlog = summary["lossless_peak_queue_bytes"]
    return {"pfc_ingresses_in_share": fits, "pfc_headroom_all_links": hb * ingress_links,
            "lossless_over_lossy_buffer": backlog / B,
            "lossless_port_cap_bytes": port_cap, "lossless_port_cap_delay": port_cap / g["C"],
            "lossless_port_holds": min(backlog, port_cap),
            "lossless_upstream_bytes": max(0.0, backlog - port_cap),
            "lossless_upstream_share": max(0.0, backlog - port_cap) / backlog if backlog else 0.0}


def transport_edges(g: dict, fan: list[int], sweep: dict, retry_cnt: int, edge_n: int, edges: list[dict]) -> dict:
    """Where lossy RDMA stands against its own retry limit and against 2009's TCP.

    The IB timer is 2^NCCL_IB_TIMEOUT x 4.096 us; TCP's floor is 200 ms. Where tail losses dominate,
    the longer timer loses. The retry streak is the most timeouts one QP took in a row without
    progress: past NCCL_IB_RETRY_CNT the QP fails ("retry exceeded") and the job aborts. `edges` are the lossy runs
    at edge_n senders, one per send order. The nak_ counts also charge every NAK-sequence error, reset only by a
    positive ACK: an upper bound for a NIC that counts that way (none verified; in Linux Soft-RoCE a NAK enters the
    retry path, rxe_comp.c, but that driver charges fewer NAKs and treats a retry count of 7 as unlimited).
    """
    lossy, tcp = sweep["goodput"]["lossy"], sweep["goodput"]["timeout"]
    worse = [n for n, a, b in zip(fan, lossy, tcp) if a < b]
    streaks = [s["max_retry_streak"] for s in sweep["sims"]["lossy"]]
    check(bool(worse) and all(n > g["n_star"] for n in worse),
          "at large fan-in lossy RDMA does worse than the historical TCP case")
    check(max(streaks) <= retry_cnt, "every swept incast finishes within NCCL's retry count")
    edge_streaks = [e["max_retry_streak"] for e in edges]
    edge_nak = [e["max_nak_retry_streak"] for e in edges]
    nak_streaks = [s["max_nak_retry_streak"] for s in sweep["sims"]["lossy"]]
    check(edge_n > fan[-1] and min(edge_streaks) >= retry_cnt,
          "past the sweep a queue pair uses every retry NCCL_IB_RETRY_CNT allows")
    check(max(nak_streaks) <= retry_cnt,
          "charging every NAK too, every swept incast finishes within NCCL's retry count")
    check(min(edge_nak) > retry_cnt,
          "charging every NAK too, every send order past the sweep would pass NCCL's retry count")
    return {"edge_fan_in": edge_n, "edge_orders": len(edges), "edge_streak_min": min(edge_streaks),
            "edge_streak_max": max(edge_streaks), "edge_fails": sum(x > retry_cnt for x in edge_streaks),
            "edge_nak_streak_min": min(edge_nak), "edge_nak_streak_max": max(edge_nak),
            "edge_nak_fails": sum(x > retry_cnt for x in edge_nak), "retry_nak_streak_max": max(nak_streaks),
            "timeout_ratio": g["ib_to"] / (g["TO_TCP"] * g["slot"]),
            "rdma_worse_from": worse[0] if worse else 0,  # 0: never within the sweep
            "retry_cnt": retry_cnt, "retry_streak_max": max(streaks),
            # Soft-RoCE never spends a retry at this count: there the page's QP cannot fail on retries at all
            "rxe_retry_unlimited": retry_cnt == const("rxe_retry_cnt_unlimited"),
            "retry_streak_fan_in": fan[int(np.argmax(streaks))],
            "retry_margin": retry_cnt - max(streaks)}


def recovery_and_timer(g: dict, fan: list[int], sweep: dict, seed: int) -> dict:
    """Lossy RDMA against the historical TCP case changes two things at once: the recovery (NAK and go-back-N
    against timeout only) and the timer (4.096 us x 2^NCCL_IB_TIMEOUT against RTO_min). One extra run at the
    largest fan-in, lossy RDMA's recovery with TCP's timer, separates them: recovery alone compares it with the
    timeout-only run (same timer), the timer alone with the lossy run (same recovery)."""
    nn = fan[-1]
    sim = run_incast(dict(g, TO_IB=g["TO_TCP"]), nn, "lossy", seed)
    fct = sim["fct_slots"] * g["slot"]
    fct_rdma, fct_tcp = sweep["fct"]["lossy"][-1], sweep["fct"]["timeout"][-1]
    check(fct <= fct_tcp, "with TCP's timer, lossy RDMA's NAK recovery is no slower than recovery by timeout alone")
    check(fct_rdma / fct > fct_tcp / fct,
          "the longer timer, not the recovery, makes lossy RDMA slower than the historical TCP case")
    return {"tcp_timer_fct_lossy_max": fct, "tcp_timer_goodput_lossy_max": nn * g["K"] * g["mtu"] / fct,
            "tcp_timer_timeouts_lossy_max": sim["timeouts"], "tcp_timer_streak_max": sim["max_retry_streak"],
            "fct_lossy_max": fct_rdma, "fct_timeout_max": fct_tcp,
            "max_goodput_timeout": float(sweep["goodput"]["timeout"][-1]),
            "max_timeouts_timeout": sweep["sims"]["timeout"][-1]["timeouts"],
            "recovery_gain_max": fct_tcp / fct, "timer_cost_max": fct_rdma / fct}


def retry_streaks_by_block(g: dict, nn: int, block_sizes, seeds: int, retry_cnt: int) -> list[dict]:
    """The longest run of timeouts at nn senders, for other block sizes and `seeds` send orders each: the block
    size sets how many rounds of drops a queue pair goes through, and one seed is one draw of the order."""
    rows = []
    for b in sorted({float(x) for x in block_sizes}):
        k = packets(b, g["mtu"])
        sims = [run_incast(dict(g, K=k), nn, "lossy", s) for s in range(int(seeds))]
        streaks = [x["max_retry_streak"] for x in sims]
        nak_streaks = [x["max_nak_retry_streak"] for x in sims]  # every NAK charged too: an upper bound
        rows.append({"block_bytes": b, "block_packets": k, "streak_min": min(streaks), "streak_max": max(streaks),
                     "abort_share": sum(x > retry_cnt for x in streaks) / len(streaks),
                     "nak_streak_min": min(nak_streaks), "nak_streak_max": max(nak_streaks),
                     "nak_abort_share": sum(x > retry_cnt for x in nak_streaks) / len(nak_streaks),
                     "page": k == g["K"]})
    return rows


def buffer_bloat(g: dict, fan: list[int], sweep: dict, switch_buffer: float, ports: int) -> dict:
    """Queueing delay as the buffer fills: the last packet in the queue waits queue / C."""
    big = sweep["sims"]["lossless"][-1]
    lossless_q = big["peak_queue"] * g["mtu"]
    check(lossless_q <= switch_buffer, "the lossless incast's queue fits the switch's shared buffer")
    check(lossless_q / g["C"] > 10 * g["R"] * g["slot"],
          "lossless incast turns into queueing delay many round trips long")
    return {"switch_buffer": switch_buffer, "switch_ports": ports,
            "lossy_queue_delay": g["B"] * g["slot"], "lossy_queue_rtts": g["B"] / g["R"],
            "lossless_peak_queue_bytes": lossless_q, "lossless_queue_delay": lossless_q / g["C"],
            "lossless_queue_rtts": big["peak_queue"] / g["R"], "lossless_queue_share": lossless_q / switch_buffer}


def timer_sweep(g: dict, fan: list[int], sweep: dict, exponents, unit: float, retry_cnt: int,
                seed: int) -> list[dict]:
    """The lossy incast at the largest fan-in for a range of transport timers, 4.096 us x 2^e.

    The timer drives the lossy answer: the senders that time out together resend together, so the block is a
    string of timeout rounds, one timer length each (`rounds`: block time over the timer; a round need not time out
    the same queue pair, so it can exceed the longest run one queue pair takes). The scenario's own exponent is the
    sweep's run; the others re-run the one incast. A streak past NCCL_IB_RETRY_CNT means the QP fails.
    """
    nn, rows = fan[-1], []
    for e in sorted({int(x) for x in exponents}):
        to = ib_transport_timeout(e, unit)
        TO = max(1, round(to / g["slot"]))
        sim = sweep["sims"]["lossy"][-1] if TO == g["TO_IB"] else run_incast(dict(g, TO_IB=TO), nn, "lossy", seed)
        fct = sim["fct_slots"] * g["slot"]
        rows.append({"exponent": e, "timeout": to, "senders": nn, "fct": fct, "goodput": nn * g["K"] * g["mtu"] / fct,
                     "rounds": fct / to,
                     "timeouts": sim["timeouts"], "streak": sim["max_retry_streak"],
                     "fails": bool(sim["max_retry_streak"] > retry_cnt),
                     # the upper bound with every NAK charged too, from the same run (no NIC verified to count so)
                     "nak_streak": sim["max_nak_retry_streak"],
                     "nak_fails": bool(sim["max_nak_retry_streak"] > retry_cnt)})
    fcts = [r["fct"] for r in rows if not r["fails"]]
    check(all(a <= b for a, b in zip(fcts, fcts[1:])),
          "among timers that finish within the retries, a shorter one never slows the lossy incast")
    return rows


def timer_sweep_summary(g: dict, rows: list[dict], default_exp: int) -> dict:
    """The page's numbers: the shortest timer swept, and the shortest that still finishes within the retries.

    burst_drain_time is how long the port needs to send every sender's block once (N K slots): a timer
    shorter than that fires while the port is still sending other flows' blocks, so the senders that time
    out together resend together into a busy port. short_over_best_ok_fct compares the shortest timer's
    block time with the best finishing one's.
    """
    short = rows[0]
    ok = [r for r in rows if not r["fails"]]
    best = ok[0] if ok else rows[-1]
    worst = next(r for r in rows if r["exponent"] == default_exp)
    return {"burst_drain_time": short["senders"] * g["K"] * g["slot"], "best_ok_fct": best["fct"],
            "best_ok_exp": best["exponent"], "short_over_best_ok_fct": short["fct"] / best["fct"],
            "short_timeouts": short["timeouts"], "best_ok_timeouts": best["timeouts"],
            "short_timer_beyond_queue": bool(short["timeout"] > (g["B"] + g["R"]) * g["slot"]),
            "short_ib_timeout_exp": short["exponent"], "short_ib_timeout": short["timeout"],
            "short_goodput": short["goodput"], "short_fct": short["fct"], "short_streak": short["streak"],
            "short_fails": short["fails"],
            "best_ok_timeout": best["timeout"], "best_ok_goodput": best["goodput"], "best_ok_streak": best["streak"],
            "best_ok_nak_streak": best["nak_streak"], "best_ok_nak_fails": best["nak_fails"],
            "worst_over_best_ok": best["goodput"] / worst["goodput"], "worst_rounds": worst["rounds"],
            "worst_streak": worst["streak"]}


def older_timeout(g: dict, rows: list[dict], sweep: dict, exponent: int) -> dict:
    """The lossy incast at the largest fan-in with an older NCCL's shorter timer (the exponent was 18 before 2.23):
    the timer sweep's row."""
    row = next(r for r in rows if r["exponent"] == int(exponent))  # the entry function sweeps it
    check(exponent >= 20 or row["fct"] < sweep["fct"]["lossy"][-1],
          "with an older NCCL's shorter timer the same lossy incast ends sooner")
    return {"older_ib_timeout_exp": int(exponent), "older_ib_timeout": row["timeout"],
            "older_fct_lossy_max": row["fct"], "older_streak_max": row["streak"]}


def per_port_buffer_sweep(g: dict, fan: list[int], sweep: dict, switch_buffer: float, ports: int,
                          shares, seed: int) -> list[dict]:
    """The lossy incast at the largest fan-in, for per-port buffers from the equal share up.

    A shared buffer's dynamic threshold lets one hot port take more than switch_buffer / ports: with a
    threshold of alpha times the free buffer, a lone hot port settles at alpha / (1 + alpha) of it, half
    at alpha = 1. The equal share (first row) is the sweep's own run; the others re-run the one incast.
    """
    nn = fan[-1]
    rows = []
    for share in [1.0 / ports] + sorted(float(x) for x in shares if float(x) > 1.0 / ports):
        B = int(share * switch_buffer // g["mtu"])
        gb = dict(g, B=B, n_star=drop_free_fan_in(B, g["W"], g["R"]))
        sim = sweep["sims"]["lossy"][-1] if share == 1.0 / ports else run_incast(gb, nn, "lossy", seed)
        fct = sim["fct_slots"] * g["slot"]
        rows.append({"share": share, "buffer_bytes": B * g["mtu"], "drop_free_fan_in": gb["n_star"],
                     "senders": nn, "drops": sim["drops"], "fct": fct, "goodput": nn * g["K"] * g["mtu"] / fct,
                     "timeouts": sim["timeouts"], "streak": sim["max_retry_streak"]})
    n_star, fcts = [r["drop_free_fan_in"] for r in rows], [r["fct"] for r in rows]
    check(all(a <= b for a, b in zip(n_star, n_star[1:])) and all(a >= b for a, b in zip(fcts, fcts[1:])),
          "a deeper per-port buffer raises the drop threshold and never slows the lossy incast")
    return rows


def per_port_buffer_summary(rows: list[dict], ports: int) -> dict:
    """The page's numbers for the per-port buffer sweep: the deepest share, and how the burst arrives."""
    deep = rows[-1]
    return {"hot_share": deep["share"], "hot_buffer_bytes": deep["buffer_bytes"],
            "hot_drop_free_fan_in": deep["drop_free_fan_in"], "hot_fct": deep["fct"],
            "hot_goodput": deep["goodput"], "hot_drops": deep["drops"], "hot_streak": deep["streak"],
            "ingress_links": ports - 1}


def animation_plan(g: dict, anim_senders, anim_block_packets, anim_xoff_packets, anim_uplinks, anim_flows,
                   seed: int, rng: np.random.Generator) -> dict:
    """What the scene draws: a small traced lossless incast, and a seeded hash of flows onto uplinks."""
    aN, aK, aX, aP = int(anim_senders), int(anim_block_packets), int(anim_xoff_packets), int(anim_uplinks)
    a_sim = simulate(aN, aK, aK, g["R"], "lossless", xoff=aX, xon=max(0, aX - 1), pause_slots=1, headroom=2,
                     seed=seed, trace=True)
    check(a_sim["drops"] == 0, "nothing is dropped")
    check(a_sim["pauses"] > 0, "the switch pauses the senders")
    aF = int(anim_flows)
    a_hash = rng.integers(0, aP, size=aF).tolist()  # the Monte Carlo stream, continued
    a_loads = np.bincount(a_hash, minlength=aP).tolist()
    a_spray = math.ceil(aF / aP)
    check(max(a_loads) > a_spray, "the hash leaves one uplink carrying more flows than spraying would")
    return {
        "senders": aN, "block_packets": aK, "xoff_packets": aX, "slot": g["slot"],
        "events": a_sim["events"], "fct_slots": a_sim["fct_slots"], "pauses": a_sim["pauses"],
        "ideal_slots": aN * aK, "peak_queue": a_sim["peak_queue"],
        "uplinks": aP, "flows": aF, "spray_load": a_spray, "hash": a_hash, "loads": a_loads, "max_load": max(a_loads),
    }


def reorder_animation(g: dict, anim_uplinks: int, skew: float) -> dict:
    """What the reordering beat draws: one flow of two packets per uplink, sprayed round-robin over uplinks whose
    queues add evenly spaced delays from 0 to the page's path skew, and what an in-order RC receiver keeps.

    Packet i leaves at slot i on uplink i mod P and lands at i + delay; the receiver keeps a packet only if it is
    the next one expected, and discards the rest (the first pass of go-back-N; the resends are not drawn).
    """
    P, skew_slots = int(anim_uplinks), skew / g["slot"]
    delays = [skew_slots * j / (P - 1) for j in range(P)]
    n = 2 * P
    arrive = [i + delays[i % P] for i in range(n)]
    order = sorted(range(n), key=lambda i: (arrive[i], i))
    expected, kept = 0, []
    for i in order:
        kept.append(i == expected)
        expected += i == expected
    check(not all(kept), "sprayed over the page's skew, an in-order receiver discards some of the flow's packets")
    return {"reorder_delays": delays, "reorder_packets": n, "reorder_arrive": arrive, "reorder_order": order,
            "reorder_kept": kept, "reorder_discarded": n - sum(kept), "reorder_resume_at": expected}


def summarise(g: dict, fan: list[int], sweep: dict, hi: dict, sp: dict, block_bytes, buffer_bytes,
              cable_length, question_fan_in, trials) -> dict:
    """The numbers the page, the captions and the scene quote."""
    C, mtu, slot, K, R, W = g["C"], g["mtu"], g["slot"], g["K"], g["R"], g["W"]
    n_hi, TO_TCP, i_eq = g["n_star"] + 1, g["TO_TCP"], sp["i_eq"]
    nq = int(question_fan_in)
    return {
        "port_rate": C, "packet_bytes": mtu, "slot": slot, "block_bytes": float(block_bytes),
        "block_packets": K, "window_packets": W, "window_packets_unrounded": g["W_unrounded"],
        "window_bytes": W * mtu, "bdp_bytes": C * R * slot,
        "rtt_slots": R, "base_rtt": R * slot, "buffer_bytes": float(buffer_bytes), "buffer_packets": g["B"],
        "xoff_packets": g["xoff"], "headroom_bytes": g["headroom_bytes"], "headroom_packets": g["headroom"],
        "pause_slots": g["pause_slots"], "cable_length": float(cable_length),
        "ib_timeout": g["ib_to"], "tcp_rto": TO_TCP * slot, "tcp_rto_rtts": TO_TCP / R,
        "drop_free_fan_in": g["n_star"], "fan_in_hi": n_hi, "fct_ideal_hi": n_hi * K * slot,
        "fct_lossless_hi": hi["lossless"]["fct_slots"] * slot,
        "paused_fraction_max": sweep["sims"]["lossless"][-1]["paused_fraction"],
        "fct_lossy_hi": hi["lossy"]["fct_slots"] * slot,
        "drops_hi": hi["lossy"]["drops"], "naks_hi": hi["lossy"]["naks"],
        "retransmitted_hi": hi["lossy"]["retransmitted"],
        "fct_timeout_hi": hi["timeout"]["fct_slots"] * slot,
        "max_fan_in": fan[-1], "max_goodput_lossless": float(sweep["goodput"]["lossless"][-1]),
        "max_goodput_lossy": float(sweep["goodput"]["lossy"][-1]),
        "max_timeouts_lossy": sweep["sims"]["lossy"][-1]["timeouts"],
        "question_fan_in": nq, "question_fct": nq * K * slot, "question_burst_bytes": nq * W * mtu,
        "question_share": C / nq,
        "uplinks": sp["uplinks"], "flows_eq": sp["flows"][i_eq], "emax_eq": float(sp["e_max"][i_eq]),
        "spray_eq": float(sp["spray"][i_eq]), "step_ecmp": sp["step_ecmp"], "step_spray": sp["step_spray"],
        "ecmp_efficiency_eq": float(sp["mean_load"][i_eq] / sp["e_max"][i_eq]),
        "spray_speedup_eq": sp["step_ecmp"] / sp["step_spray"],
        "trials": int(trials),
    }


def check_summary_claims(g: dict, hi: dict, summary: dict) -> None:
    """The claims checked on the summary's numbers."""
    n_hi, K, mtu, slot = g["n_star"] + 1, g["K"], g["mtu"], g["slot"]

    def gp(sim, nn):
        return nn * K * mtu / (sim["fct_slots"] * slot)

    check(gp(hi["lossless"], n_hi) > gp(hi["lossy"], n_hi),
          "past the threshold the lossless port beats the lossy one")
    check(summary["paused_fraction_max"] > 0.25, "PFC holds every sender's link paused for a large part of the block")
    check(summary["ecmp_efficiency_eq"] < 0.75, "ECMP wastes a large share of the uplinks")


def incast_table(g: dict, fan: list[int], sweep: dict, block_bytes, buffer_bytes, retry_cnt: int) -> Table:
    """The numbers table: one row per fan-in, drops, FCT and goodput for each recovery."""
    sims, fct, goodput = sweep["sims"], sweep["fct"], sweep["goodput"]
    rows = [[fan[i], int(sims["lossy"][i]["drops"]), float(fct["lossless"][i]), float(goodput["lossless"][i]),
             float(fct["lossy"][i]), float(goodput["lossy"][i]), int(sims["lossy"][i]["max_retry_streak"]),
             float(fct["timeout"][i]), float(goodput["timeout"][i])] for i in range(len(fan))]
    return Table(
        f"Incast of {fmt_bytes(block_bytes)} per sender into one {fmt_bytes(g['C'])}/s receiver port: "
        f"lossless (PFC), lossy RDMA (NAK, go-back-N, {fmt_seconds(g['ib_to'])} timeout) and the historical "
        f"TCP case ({fmt_seconds(g['TO_TCP'] * g['slot'])} timeout), "
        f"buffer {fmt_bytes(buffer_bytes)} per port when lossy",
        [Column("senders N", "count"), Column("drops, lossy", "count"),
         Column("FCT, lossless", "s"), Column("goodput, lossless", "B/s"),
         Column("FCT, lossy RDMA", "s"), Column("goodput, lossy RDMA", "B/s"),
         Column(f"timeouts in a row, lossy RDMA (QP fails past {retry_cnt})", "count"),
         Column("FCT, timeout only (historical TCP)", "s"), Column("goodput, timeout only", "B/s")],
        rows)
