"""Lossless transport: InfiniBand credits versus RoCE v2's PFC pauses, each with and
without its congestion control.

Two ways to make a link never drop a packet for lack of buffer:

Credit-based flow control (InfiniBand): per virtual lane, the receiver
advertises how many packets of buffer it has free; the sender spends one credit
per packet and sends on that lane only while it holds credits. A credit comes
back when the receiver frees the buffer, one link delay later. Nothing can
overflow, by construction; full rate needs credits covering the round trip.

Priority flow control (IEEE 802.1Qbb, RoCE v2): per priority (one of 8), the
receiver lets packets in until its ingress count for that priority crosses XOFF,
then sends a PAUSE for that priority upstream, and a RESUME when it falls below
XON. Bytes keep arriving while the PAUSE travels and the sender reacts, so each
lossless ingress priority needs *headroom* above XOFF. On the wire that is

    H = 2 MTU + P + R (2 L t_prop + t_resp)      (models.lib.pfc.pfc_headroom)

with R the link rate (B/s), L the cable length, t_prop the propagation delay
per metre, t_resp the time for the far end to stop after the PAUSE lands, P
the PAUSE frame itself (64 B) and 2 MTU the frames already being serialised
at each end when the decision is taken (a PAUSE cannot preempt a frame).
Cisco's PFC white paper itemises the same terms; NVIDIA's mlx5 NIC driver
computes xoff = (301 + 2.16 L[m]) * speed[Gb/s] + 2.72 MTU bytes, the same
affine form with margins. H counts bytes on the wire: a lower bound. A switch
stores packets in fixed-size cells, so a 64-byte packet occupies a whole cell;
SONiC's headroom calculator for NVIDIA Spectrum switches
(`switch_headroom`) scales the in-flight bytes by that worst-case cell
occupancy and adds the ASIC's pipeline terms.

Both schemes stop a congested port by stopping the link (lane or priority) that
feeds it, so a flow that shares that upstream link but goes elsewhere (the
*victim*) is blocked too: head-of-line blocking, congestion spreading one hop
upstream. Each fabric has end-to-end congestion control that removes the cause,
and the comparison runs both with theirs on and both with it off:

- InfiniBand (IBTA Vol. 1, Annex A10): a switch port whose queue passes a
  threshold sets FECN on packets it forwards; the receiver returns a BECN; the
  sender raises its congestion control table index (CCTI) by CCTI_Increase,
  which selects a longer inter-packet delay, and a CCTI_Timer lowers the index
  by one each time it expires.
- RoCE v2 (DCQCN, Zhu et al., SIGCOMM 2015): switches mark ECN when the egress
  queue passes K_min (probability rising to p_max at K_max), receivers return a
  CNP, and senders cut their rate by alpha/2 and recover additively.

The simulation is time-stepped in packet slots (one MTU at line rate):
N-1 hosts attach to switch A directly; an upstream switch U carries one more
congested flow and the victim flow over one link into A. All congested flows
go to receiver X through A's bottleneck egress port; the victim goes to an idle
port Y. Arrivals are Bernoulli per slot at each sender's rate (seeded numpy
generator), so runs are reproducible.

Pure numpy/stdlib, SI units: bytes, seconds, bytes per second.
"""

from __future__ import annotations

import math
from collections import deque

import numpy as np

from models.constants import const
from models.exhibit import Column, Exhibit, Param, ParamError, Table, check, curves, model
from models.lib.memo import pure
from models.lib.pfc import PAUSE_FRAME_BYTES, pfc_headroom

MIN_PACKET = 64  # the smallest Ethernet frame: the worst case for cell occupancy
MAX_SLOTS = 100_000  # bound on the time-stepped runs, whatever the parameters
G = 1e9 / 8  # one Gb/s in B/s
# The peer's PAUSE reaction allowance per port speed: IEEE 802.3 Annex 31B.3.7's pause quanta (512 bit
# times, 64 bytes on the wire, each) as SONiC's headroom script tabulates them (it uses 905 at 800 Gb/s too).
PEER_RESPONSE = ((100 * G, "pfc_peer_response_100g"), (200 * G, "pfc_peer_response_200g"),
                 (400 * G, "pfc_peer_response_400g"))
# Cable lengths at which the congestion-controlled runs are repeated: a rack to a campus.
CC_SWEEP_LENGTHS = (10.0, 100.0, 300.0, 500.0, 700.0, 1000.0, 2000.0)
# The slowest port a Spectrum-3 runs on eight lanes (8 x 50 Gb/s PAM4): SONiC's SN4700 table (sonic-msn4700-pg-profile)
# reserves twice the pipeline XON at 400 Gb/s and at no lower speed.
EIGHT_LANE_FROM = 400 * G
# The cable of the SN4700 static profile row the page sets beside the dynamic calculator (sonic-msn4700-pg-profile:
# 400000 Mb/s, 40m), and the speed of light in the cable SONiC's own arithmetic uses for it.
PROFILE_CABLE = 40.0
# A second lossless priority (say, storage beside training traffic) doubles every port's headroom: an example
LOSSLESS_PRIORITIES = 2
BUSY = 0.8  # "mostly busy": the bottleneck carries at least this share of its line rate

# ---------------------------------------------------------------------------
# the formulas
# ---------------------------------------------------------------------------


def cable_bytes(cable_m, rate: float, prop_delay_per_m: float):
    """Bytes a link at `rate` puts on `cable_m` metres of cable (one way)."""
    return np.asarray(cable_m, dtype=float) * prop_delay_per_m * rate


def mlx5_xoff(cable_m: int, speed_gbps: int, mtu: int) -> int:
    """NVIDIA mlx5 driver's lossless-buffer xoff, bytes, in its integer arithmetic.

    drivers/net/ethernet/mellanox/mlx5/core/en/port_buffer.c, calculate_xoff():
    xoff = (301 + 216 * len / 100) * speed[Mb/s] / 1000 + 272 * mtu / 100, speed >= 40 Gb/s.
    """
    speed_mbps = max(int(speed_gbps) * 1000, 40000)
    return (301 + 216 * int(cable_m) // 100) * speed_mbps // 1000 + 272 * int(mtu) // 100


def cell_occupancy(cell_size: float, small_packet_share: float) -> float:
    """Buffer bytes a switch spends per wire byte when a share of the packets are 64 B.

    SONiC cfgmgr/buffer_headroom_mellanox.lua: a 64-byte packet takes a whole cell, so
    the worst case factor is cell/64 (for cells above 128 B); mixed with full packets
    in proportion to the small-packet share.
    """
    if cell_size > 2 * MIN_PACKET:
        worst = cell_size / MIN_PACKET
    else:
        worst = 2 * cell_size / (1 + cell_size)
    return (1 - small_packet_share) + small_packet_share * worst


def peer_response_bytes(rate: float) -> float:
    """Bytes the peer may still send after a PAUSE lands, at port speed `rate` (B/s): the pause quanta
    IEEE 802.3 Annex 31B.3.7 allows at that speed, 64 bytes each. A speed between two tabulated ones
    takes the faster one's allowance; above 400 Gb/s, the 400 Gb/s one (as SONiC does at 800 Gb/s)."""
    for speed, key in PEER_RESPONSE:
        if rate <= speed * (1 + 1e-9):
            return float(const(key))
    return float(const(PEER_RESPONSE[-1][1]))


def eight_lane(rate: float) -> bool:
    """Whether a Spectrum-3 port at `rate` (B/s) runs on eight SerDes lanes: 400 GbE does (8 x 50 Gb/s),
    as SONiC's SN4700 profile table shows by doubling XON at 400 Gb/s only; 100 and 200 GbE use fewer."""
    return EIGHT_LANE_FROM * (1 - 1e-9) <= float(rate) < 2 * EIGHT_LANE_FROM


def switch_headroom(cable_m, rate, mtu: float, cell_size: float, small_packet_share: float,
                    fibre_speed: float, mac_phy_delay: float, pipeline_latency: float,
                    peer_response: float | None = None, lanes_8: bool | None = None):
    """The headroom a Spectrum switch reserves per lossless priority group, bytes (SONiC's formula).

    xoff = MTU + (MTU + cable round trip + MAC/PHY delay + peer response) x cell occupancy,
    xon = pipeline latency, each rounded up to 1 KiB; reserved size = xoff + xon.
    `fibre_speed` in m/s; the delays in bytes. The cable term scales with the port speed; the
    peer response is the speed's pause quanta (`peer_response_bytes`) unless given; the MAC/PHY
    delay and the pipeline latency are the ASIC's fixed bytes, as in SONiC's ASIC table.
    SONiC's speed arithmetic (Mb/s x 1e9 / 1024) carries a 1000/1024 factor on the cable term,
    kept here so the values match the switch's.
    An 8-lane port (`lanes_8`; by default `eight_lane(rate)`) splits its headroom over two buffers, so
    the script doubles the pipeline term less 1 KiB and adds one port MTU to the size.
    """
    if peer_response is None:
        peer_response = peer_response_bytes(float(rate))
    if lanes_8 is None:
        lanes_8 = eight_lane(float(rate))
    L = np.asarray(cable_m, dtype=float)
    on_cable = 2 * L * np.asarray(rate, dtype=float) / fibre_speed * (1000 / 1024)
    prop = mtu + on_cable + mac_phy_delay + peer_response
    xoff = np.ceil((mtu + prop * cell_occupancy(cell_size, small_packet_share)) / 1024) * 1024
    pipeline, overhead = (2 * pipeline_latency - 1024, mtu) if lanes_8 else (pipeline_latency, 0.0)
    xon = math.ceil(pipeline / 1024) * 1024
    return np.ceil((xoff + xon + overhead) / 1024) * 1024


def credits_for_line_rate(cable_m, rate: float, mtu: float, prop_delay_per_m: float) -> int:
    """Credits (packets of receive buffer) a credit link needs to run at line rate:
    the round trip of data out and credit back, plus the packet in service."""
    rtt_bytes = 2 * float(cable_bytes(cable_m, rate, prop_delay_per_m))
    return int(math.ceil(rtt_bytes / mtu)) + 1


def ecn_mark_probability(queue_bytes, k_min: float, k_max: float, p_max: float):
    """DCQCN/RED marking: 0 below K_min, linear to p_max at K_max, 1 above K_max."""
    q = np.asarray(queue_bytes, dtype=float)
    ramp = p_max * (q - k_min) / (k_max - k_min)
    return np.where(q <= k_min, 0.0, np.where(q > k_max, 1.0, ramp))


def ib_rate_limit(ccti, cct_step: float):
    """Fraction of line rate a sender may use at CCT index `ccti`: each packet is followed by
    an inter-packet delay of ccti x cct_step packet times (a linear congestion control table)."""
    return 1.0 / (1.0 + np.asarray(ccti, dtype=float) * cct_step)


def _moving_mean(x, w: int) -> np.ndarray:
    """Mean over a centred window of w samples, the window clipped (not zero-padded) at the ends."""
    k = np.ones(w)
    return np.convolve(x, k, mode="same") / np.convolve(np.ones(len(x)), k, mode="same")


def percentiles(samples, qs=(50, 99, 99.9)) -> list[float]:
    a = np.asarray(samples, dtype=float)
    if a.size == 0:
        return [0.0] * len(qs)
    return [float(np.percentile(a, q)) for q in qs]


# ---------------------------------------------------------------------------
# the simulation
# ---------------------------------------------------------------------------


class _Link:
    """One link into switch A, seen from its sending end (one virtual lane / one priority).

    Packets on the wire arrive `delay` slots after they leave. In credit mode the
    sender holds `credits`; a freed buffer returns a credit `delay` slots later.
    In PFC mode `paused` flips `delay + response` slots after the receiver
    decides (the PAUSE's flight plus the sender's reaction).
    """

    def __init__(self, delay: int):
        self.delay = delay
        self.wire: deque = deque()  # (arrival_slot, packet)
        self.credits = 0
        self.credit_returns: deque = deque()  # slots at which a credit lands
        self.paused = False
        self.pause_events: deque = deque()  # (slot, paused_state)
        self.rx_paused = False  # the receiver's view: has it asked for a pause?
        self.ingress = 0  # packets from this link held in A


@pure  # the cable sweep and the range test re-run the same scenario: a seeded run is a function of its arguments
def simulate(mode: str, *, n_direct: int, slots: int, delay_slots: int, response_slots: int,
             xoff_pkts: int, xon_pkts: int, headroom_pkts: int, credits: int,
             congestor_rate: float, victim_rate: float, cc: str,
             k_min_pkts: float, k_max_pkts: float, p_max: float, cnp_interval: int,
             dcqcn_g: float, rate_increase: float, increase_interval: int, min_rate: float,
             ib_threshold_pkts: float, ib_marking_rate: int, ccti_increase: int, ccti_limit: int,
             ccti_timer: int, cct_step: float, seed: int) -> dict:
    """Run the two-switch scenario for `slots` packet slots.

    mode: "credit" or "pfc"; cc: congestion control, "none", "dcqcn" or "ibcc".
    Senders 0..n_direct-1 are hosts on switch A sending to X at line rate; sender
    n_direct (the congestor) and n_direct+1 (the victim) sit behind switch U and share
    U's one link into A. Rates are in packets per slot (1 = line rate). Returns
    per-slot series and counters.

    One function on purpose: every phase of a slot (control frames land, senders draw, A
    admits, A's egresses serve, A watches XOFF/XON) reads and writes the same links, queues,
    rates and counters, and the seeded draws must come in this order; the phases are marked
    by `# ---` comments in the loop.
    """
    if mode not in ("credit", "pfc"):
        raise ValueError(f"mode must be 'credit' or 'pfc', not {mode!r}")
    if cc not in ("none", "dcqcn", "ibcc"):
        raise ValueError(f"cc must be 'none', 'dcqcn' or 'ibcc', not {cc!r}")
    if not 0 < slots <= MAX_SLOTS:
        raise ValueError(f"slots must be in 1..{MAX_SLOTS}, not {slots}")
    rng = np.random.default_rng(seed)
    n_links = n_direct + 1  # the last link is U -> A
    up = n_direct
    cong, vic = n_direct, n_direct + 1
    n_flows = n_direct + 2
    links = [_Link(delay_slots) for _ in range(n_links)]
    for ln in links:
        ln.credits = credits
    offered = np.array([1.0] * n_direct + [congestor_rate, victim_rate])
    rate = offered.copy()
    alpha = np.ones(n_flows)
    last_cnp = np.full(n_flows, -10**9)
    last_increase = np.zeros(n_flows, dtype=np.int64)
    ccti = np.zeros(n_flows)
    since_mark = 0  # packets A forwarded to X since its last FECN mark
    notices: deque = deque()  # (slot, flow): CNPs (DCQCN) or BECNs (InfiniBand) on their way back
    u_fifo: deque = deque()  # U's egress queue toward A: (flow, born)
    voq_x = [deque() for _ in range(n_links)]  # A's per-ingress queues to X
    voq_y: deque = deque()  # A's queue to Y (only the victim goes there)
    x_queued = 0  # packets in voq_x, kept as they come and go: summing the queues every slot cost a fifth of a run
    rr = 0
    buffer_limit = xoff_pkts + headroom_pkts  # PFC: per-ingress ceiling before a drop

    q_ingress_up = np.zeros(slots)
    q_egress_x = np.zeros(slots)
    victim_delivered_t = np.zeros(slots)
    congestor_rate_t = np.zeros(slots)
    delivered_late = [0] * n_flows  # a list: a numpy scalar += per packet cost more than the rest of the slot
    drops = pauses_sent = pause_slots_up = marks = notices_sent = 0
    max_post_xoff = 0  # most packets held above XOFF on any ingress (headroom used)
    lat_cong, lat_vic = [], []
    half = slots // 2

    def admit(i: int, pkt) -> None:
        nonlocal drops, x_queued
        ln = links[i]
        if mode == "pfc" and ln.ingress >= buffer_limit:
            drops += 1
            return
        ln.ingress += 1
        if pkt[0] == vic:
            voq_y.append((i, *pkt))
        else:
            voq_x[i].append((i, *pkt))
            x_queued += 1

    # the per-slot numpy calls on a handful of flows cost more than the maths: each is made only when its inputs move
    mark_at: dict[int, float] = {}  # DCQCN's marking probability per egress depth met (ecn_mark_probability's)
    next_increase = increase_interval  # DCQCN: no flow is due a rate increase before min(last_increase) + interval
    ccti_moved = True  # InfiniBand CC: the rate limit is re-read from the CCT only after an index moves

    for t in range(slots):
        # --- control frames, credits and congestion notices land ------------------
        for ln in links:
            while ln.credit_returns and ln.credit_returns[0] <= t:
                ln.credit_returns.popleft()
                ln.credits += 1
            while ln.pause_events and ln.pause_events[0][0] <= t:
                ln.paused = ln.pause_events.popleft()[1]
        while notices and notices[0][0] <= t:
            _, f = notices.popleft()
            if cc == "dcqcn":  # a CNP: cut the rate by alpha/2
                alpha[f] = (1 - dcqcn_g) * alpha[f] + dcqcn_g
                rate[f] = max(rate[f] * (1 - alpha[f] / 2), min_rate)
                last_increase[f] = t  # only raises the minimum: next_increase may fall early, never late
            else:  # a BECN: a longer inter-packet delay
                ccti[f] = min(ccti[f] + ccti_increase, ccti_limit)
                ccti_moved = True
        if cc == "dcqcn":
            if t >= next_increase:
                due = (t - last_increase) >= increase_interval
                if due.any():
                    alpha[due] *= (1 - dcqcn_g)
                    rate[due] = np.minimum(rate[due] + rate_increase, offered[due])
                    last_increase[due] = t
                next_increase = int(last_increase.min()) + increase_interval
        elif cc == "ibcc":
            if t > 0 and t % ccti_timer == 0:  # CCTI_Timer expires: one step back towards 0
                ccti = np.maximum(ccti - 1, 0)
                ccti_moved = True
            if ccti_moved:
                rate = np.minimum(offered, ib_rate_limit(ccti, cct_step))
                ccti_moved = False

        # --- senders: Bernoulli arrivals at each flow's current rate ----------------
        draws = (rng.random(n_flows) < rate).tolist()
        for i in range(n_direct):  # hosts on A: send if the link lets them
            ln = links[i]
            if draws[i] and (ln.credits > 0 if mode == "credit" else not ln.paused):
                if mode == "credit":
                    ln.credits -= 1
                ln.wire.append((t + ln.delay, (i, t)))
        for f in (cong, vic):  # hosts behind U: into U's egress FIFO
            if draws[f]:
                u_fifo.append((f, t))
        ln = links[up]
        if u_fifo and (ln.credits > 0 if mode == "credit" else not ln.paused):
            if mode == "credit":
                ln.credits -= 1
            ln.wire.append((t + ln.delay, u_fifo.popleft()))
        if mode == "pfc" and ln.paused:
            pause_slots_up += 1

        # --- arrivals at A ------------------------------------------------------------
        for i, ln in enumerate(links):
            while ln.wire and ln.wire[0][0] <= t:
                admit(i, ln.wire.popleft()[1])

        # --- A's egress to X: one packet per slot, round-robin over ingress ports ---
        depth_x = x_queued
        for k in range(n_links):
            i = (rr + k) % n_links
            if voq_x[i]:
                _, f, born = voq_x[i].popleft()
                x_queued -= 1
                links[i].ingress -= 1
                if mode == "credit":
                    links[i].credit_returns.append(t + links[i].delay)
                rr = (i + 1) % n_links
                marked = False
                if cc == "dcqcn":
                    if depth_x not in mark_at:
                        mark_at[depth_x] = float(ecn_mark_probability(depth_x, k_min_pkts, k_max_pkts, p_max))
                    marked = rng.random() < mark_at[depth_x]
                    if marked and t - last_cnp[f] >= cnp_interval:  # at most one CNP per interval
                        last_cnp[f] = t
                        notices_sent += 1
                        notices.append((t + 2 * delay_slots, f))
                elif cc == "ibcc" and depth_x >= ib_threshold_pkts:
                    since_mark += 1
                    if since_mark > ib_marking_rate:  # FECN on one packet in every marking_rate + 1
                        since_mark, marked = 0, True
                        notices_sent += 1  # X answers each FECN with a BECN
                        notices.append((t + 2 * delay_slots, f))
                marks += marked
                if t >= half:  # measured over the second half, like the throughput
                    delivered_late[f] += 1
                    lat_cong.append(t + 1 - born)
                break
        # --- A's egress to Y: uncongested, one packet per slot ------------------------
        if voq_y:
            i, f, born = voq_y.popleft()
            links[i].ingress -= 1
            if mode == "credit":
                links[i].credit_returns.append(t + links[i].delay)
            if t >= half:
                delivered_late[f] += 1
                lat_vic.append(t + 1 - born)
            victim_delivered_t[t] += 1

        # --- PFC: A watches each ingress count against XOFF / XON ----------------
        if mode == "pfc":
            for ln in links:
                max_post_xoff = max(max_post_xoff, ln.ingress - xoff_pkts)
                if not ln.rx_paused and ln.ingress >= xoff_pkts:
                    ln.rx_paused = True
                    pauses_sent += 1
                    ln.pause_events.append((t + ln.delay + response_slots, True))
                elif ln.rx_paused and ln.ingress <= xon_pkts:
                    ln.rx_paused = False
                    ln.pause_events.append((t + ln.delay + response_slots, False))

        q_ingress_up[t] = links[up].ingress
        q_egress_x[t] = x_queued
        congestor_rate_t[t] = rate[cong]

    late_slots = slots - half
    delivered_late = np.array(delivered_late, dtype=np.int64)
    return {
        "q_ingress_up": q_ingress_up, "q_egress_x": q_egress_x,
        "victim_delivered": victim_delivered_t, "congestor_rate": congestor_rate_t,
        "drops": drops, "pauses_sent": pauses_sent,
        "pause_fraction_up": pause_slots_up / slots, "marks": marks, "notices": notices_sent,
        "max_headroom_used": max(max_post_xoff, 0),
        "victim_throughput": delivered_late[vic] / late_slots,  # packets per slot
        "x_throughput": delivered_late[:vic].sum() / late_slots,
        "latency_congested": np.asarray(lat_cong), "latency_victim": np.asarray(lat_vic),
    }


# ---------------------------------------------------------------------------
# the entry function
# ---------------------------------------------------------------------------

RUNS = {  # key: (flow control, congestion control, the reader's name)
    "credit": ("credit", "none", "InfiniBand credits, CC off"),
    "credit_cc": ("credit", "ibcc", "InfiniBand credits + FECN/BECN"),
    "pfc": ("pfc", "none", "RoCE v2 PFC, CC off"),
    "pfc_dcqcn": ("pfc", "dcqcn", "RoCE v2 PFC + ECN/DCQCN"),
    "pfc_short": ("pfc", "none", "PFC, headroom too small"),
}
# simulate()'s arguments that only one flow control or one congestion control reads. A run gets a neutral 0 for
# the others, so the memo keys it by what it reads: a range-test point or an Explore re-run that moves only, say,
# DCQCN's gain re-uses every run without DCQCN instead of re-running it with an argument it never looks at.
READ_ONLY_BY = {
    "credit": ("credits",),
    "pfc": ("xoff_pkts", "xon_pkts", "headroom_pkts", "response_slots"),
    "dcqcn": ("k_min_pkts", "k_max_pkts", "p_max", "cnp_interval", "dcqcn_g", "rate_increase", "increase_interval",
              "min_rate"),
    "ibcc": ("ib_threshold_pkts", "ib_marking_rate", "ccti_increase", "ccti_limit", "ccti_timer", "cct_step"),
}


def run_arguments(mode: str, cc: str, args: dict) -> dict:
    """`args` with each one the (mode, cc) run does not read (READ_ONLY_BY) set to 0."""
    unread = {a for kind, names in READ_ONLY_BY.items() if kind not in (mode, cc) for a in names}
    return {k: 0 if k in unread else v for k, v in args.items()}


@model(
    link_rate=Param.positive("B/s", "link rate, per direction"),
    mtu=Param.positive("B", "packet size (every packet a full MTU)", maximum=65536),
    cable_length=Param.number("1", "cable length (m)", minimum=0, maximum=10_000),
    prop_delay_per_m=Param.positive("s", "propagation delay per metre of fibre", maximum=1e-7),
    response_time=Param.number("s", "time for the sender to stop once a PAUSE lands", minimum=0,
                               maximum=1e-3),
    senders=Param.integer("count", "congested senders into the bottleneck port", minimum=2, maximum=16),
    victim_rate=Param.fraction("victim flow's demand, share of the link rate"),
    congestor_rate=Param.fraction("demand of the congested flow behind switch U, share of the link rate"),
    xoff=Param.positive("B", "PFC XOFF threshold per ingress priority"),
    xon=Param.positive("B", "PFC XON threshold per ingress priority"),
    short_headroom_fraction=Param.fraction("share of the headroom given in the too-small case"),
    k_min=Param.positive("B", "ECN marking starts (K_min), egress queue"),
    k_max=Param.positive("B", "ECN marking probability reaches p_max (K_max)"),
    p_max=Param.fraction("ECN marking probability at K_max (p_max)"),
    cnp_interval=Param.positive("s", "DCQCN: at most one CNP per flow per interval", maximum=1e-3),
    dcqcn_g=Param.fraction("DCQCN gain g for α"),
    rate_increase=Param.fraction("DCQCN additive increase, share of the link rate"),
    increase_interval=Param.positive("s", "DCQCN rate-increase period", maximum=1e-3),
    ib_threshold=Param.positive("B", "InfiniBand CC: egress queue past which the switch sets FECN"),
    ib_marking_rate=Param.integer("count", "InfiniBand CC: packets left unmarked between FECN marks "
                                  "(Marking_Rate)", minimum=0, maximum=1000),
    ccti_increase=Param.integer("count", "InfiniBand CC: CCTI_Increase per BECN", minimum=1, maximum=127),
    ccti_limit=Param.integer("count", "InfiniBand CC: highest CCT index (CCTI_Limit)", minimum=1,
                             maximum=16383),
    ccti_timer=Param.positive("s", "InfiniBand CC: CCTI_Timer (index lowered by one on expiry)",
                              maximum=1e-3),
    cct_step=Param.positive("1", "InfiniBand CC: inter-packet delay added per CCT index, packet times",
                            maximum=10),
    cell_size=Param.positive("B", "switch buffer cell size", maximum=4096),
    small_packet_share=Param.fraction("share of 64-byte packets the switch's reservation allows for"),
    mac_phy_delay=Param.number("B", "switch MAC/PHY bytes still sent after XOFF", minimum=0),
    pipeline_latency=Param.number("B", "switch pipeline latency, reserved as XON", minimum=0),
    sim_time=Param.positive("s", "simulated time", maximum=4e-3),
    max_cable=Param.positive("1", "longest cable in the headroom sweep (m)", maximum=100_000),
    sweep_rates=Param.numbers("B/s", "link rates in the headroom sweep", above=0),
    seed=Param.integer("1", "random seed", minimum=0, animation=True),
    other_seeds=Param.integer("count", "seeds after `seed` each cable length of the distance sweep is also "
                              "run with (its mean and range)", minimum=0, maximum=31),
)
def lossless_transport(
    link_rate: float,
    mtu: float = 4096.0,
    cable_length: float = 100.0,
    prop_delay_per_m: float = 5.13e-9,
    response_time: float = 2.408e-6,
    senders: int = 4,
    victim_rate: float = 0.5,
    congestor_rate: float = 0.5,
    xoff: float = 131072.0,
    xon: float = 122880.0,
    short_headroom_fraction: float = 0.5,
    k_min: float = 20480.0,
    k_max: float = 81920.0,
    p_max: float = 0.2,
    cnp_interval: float = 4e-6,
    dcqcn_g: float = 1 / 16,
    rate_increase: float = 0.02,
    increase_interval: float = 5e-6,
    ib_threshold: float = 20480.0,
    ib_marking_rate: int = 0,
    ccti_increase: int = 1,
    ccti_limit: int = 127,
    ccti_timer: float = 1.024e-6,
    cct_step: float = 0.05,
    cell_size: float = 144.0,
    small_packet_share: float = 1.0,
    mac_phy_delay: float = 819.2,
    pipeline_latency: float = 18432.0,
    sim_time: float = 400e-6,
    max_cable: float = 1000.0,
    sweep_rates: list | None = None,
    seed: int = 5,
    other_seeds: int = 7,
) -> Exhibit:
    """Credits and PFC, each with and without its congestion control, on one congested port;
    PFC headroom on the wire and as a switch reserves it."""
    R, mtu = float(link_rate), float(mtu)
    if not xon < xoff:
        raise ParamError("xon", xon, f"less than xoff ({xoff:g} B): PFC resumes below where it pauses")
    if not k_min < k_max:
        raise ParamError("k_max", k_max, f"more than k_min ({k_min:g} B): ECN marks on a ramp between the two")
    grid = slot_grid(R, mtu, cable_length, prop_delay_per_m, response_time, sim_time)
    reserve = dict(cell_size=cell_size, small_packet_share=small_packet_share,
                   fibre_speed=1 / prop_delay_per_m, mac_phy_delay=mac_phy_delay,
                   pipeline_latency=pipeline_latency)
    slot = mtu / R
    fixed = dict(n_direct=senders - 1, congestor_rate=congestor_rate, victim_rate=victim_rate,
                 k_min_pkts=k_min / mtu, k_max_pkts=k_max / mtu, p_max=p_max,
                 cnp_interval=max(1, round(cnp_interval / slot)), dcqcn_g=dcqcn_g,
                 rate_increase=rate_increase,
                 increase_interval=max(1, round(increase_interval / slot)), min_rate=0.01,
                 ib_threshold_pkts=ib_threshold / mtu, ib_marking_rate=ib_marking_rate,
                 ccti_increase=ccti_increase, ccti_limit=ccti_limit,
                 ccti_timer=max(1, round(ccti_timer / slot)), cct_step=cct_step)

    def run_at(length: float, keys, run_seed: int = seed) -> tuple[dict, dict, dict]:
        """The runs named by `keys` on `length` metres of cable, with that cable's headroom and credits."""
        grid = slot_grid(R, mtu, length, prop_delay_per_m, response_time, sim_time)
        buf = port_buffers(grid, R, mtu, length, prop_delay_per_m, response_time, xoff, xon,
                           short_headroom_fraction, reserve)
        common = dict(fixed, seed=run_seed, slots=grid["slots"], delay_slots=grid["delay_slots"],
                      response_slots=grid["response_slots"], xoff_pkts=buf["xoff_pkts"],
                      xon_pkts=buf["xon_pkts"], credits=buf["credits"])
        runs = {key: simulate(RUNS[key][0], cc=RUNS[key][1], **run_arguments(RUNS[key][0], RUNS[key][1], dict(
                    common, headroom_pkts=buf["short_pkts"] if key == "pfc_short" else buf["headroom_pkts"])))
                for key in keys}
        return grid, buf, runs

    grid, buf, runs = run_at(cable_length, RUNS)
    stats = run_statistics(runs, slot, R, mtu, victim_rate)
    check_claims(stats, buf, R, mtu)
    lengths = sorted(set(CC_SWEEP_LENGTHS) | {float(cable_length)})
    seeds = [seed + k for k in range(other_seeds + 1)]  # the page's seed first

    at_length = [[run_statistics(run_at(x, ("credit_cc", "pfc_dcqcn"), s)[2], slot, R, mtu, victim_rate)
                  for s in seeds] for x in lengths]
    by_distance = cc_by_distance(lengths, at_length, R, lengths.index(float(cable_length)))

    series = headroom_sweep(R, mtu, cable_length, prop_delay_per_m, response_time, max_cable, sweep_rates,
                            reserve)
    series.update(time_series(runs, grid, R, mtu))
    series.update(by_distance["series"])
    summary = summarise(stats, grid, buf, R, mtu, senders, victim_rate, cable_length, prop_delay_per_m,
                        response_time, k_min, k_max, p_max, cell_size, small_packet_share, ib_threshold,
                        ccti_timer, cct_step)
    summary.update(by_distance["summary"])
    summary.update(reservation_by_speed(R, mtu, cable_length, prop_delay_per_m, response_time, reserve))
    problems = long_cable_problems(stats, buf, R, mtu, cable_length, prop_delay_per_m, response_time, reserve)
    return Exhibit(summary=summary, series=series, table=runs_table(stats, senders, R, grid),
                   problems=problems, records={"runs": {k: RUNS[k][2] for k in RUNS},
                                                "growing_latencies": growing_latencies(stats)})


# ---------------------------------------------------------------------------
# the recipe's steps
# ---------------------------------------------------------------------------


def slot_grid(R: float, mtu: float, cable_length: float, prop_delay_per_m: float, response_time: float,
              sim_time: float) -> dict:
    """The simulation's clock: packet slots, and the cable and response times in whole slots.

    Times are rounded up to whole slots, so the simulated network is never faster than the
    formula's; t_prop_sim and t_resp_sim are the delays the simulation actually runs.
    """
    slot = mtu / R  # one packet at line rate
    slots = int(round(sim_time / slot))
    if not 100 <= slots <= MAX_SLOTS:
        raise ValueError(f"sim_time / (mtu / link_rate) = {slots} packet slots; this model runs "
                         f"100..{MAX_SLOTS}: shorten sim_time or raise the MTU")
    delay_slots = max(1, math.ceil(cable_length * prop_delay_per_m / slot - 1e-9))
    response_slots = max(1, math.ceil(response_time / slot - 1e-9))
    return {"slot": slot, "slots": slots, "delay_slots": delay_slots, "response_slots": response_slots,
            "t_prop_sim": delay_slots * slot / max(cable_length, 1e-9), "t_resp_sim": response_slots * slot}


def port_buffers(grid: dict, R: float, mtu: float, cable_length: float, prop_delay_per_m: float,
                 response_time: float, xoff: float, xon: float, short_headroom_fraction: float,
                 reserve: dict) -> dict:
    """Each ingress's buffer: PFC's thresholds and headroom (the formula's, the simulation's, the
    too-small one), the credits that buy the same buffer, and what a switch reserves."""
    headroom = float(pfc_headroom(cable_length, R, mtu, prop_delay_per_m, response_time))
    headroom_sim = float(pfc_headroom(cable_length, R, mtu, grid["t_prop_sim"], grid["t_resp_sim"]))
    headroom_pkts = math.ceil(headroom_sim / mtu)
    xoff_pkts, xon_pkts = max(1, int(round(xoff / mtu))), int(round(xon / mtu))
    return {
        "headroom": headroom, "headroom_sim": headroom_sim, "headroom_pkts": headroom_pkts,
        "short_pkts": max(1, int(headroom_pkts * short_headroom_fraction)),
        "xoff_pkts": xoff_pkts, "xon_pkts": xon_pkts,
        "buffer_per_port": (xoff_pkts + headroom_pkts) * mtu,
        "credits": xoff_pkts + headroom_pkts,  # the same buffer per ingress as PFC
        # the page quotes the formula's count (as for any other cable); the run is checked against its own
        # cable delay, rounded up to whole slots, which can need one credit more
        "credits_needed": credits_for_line_rate(cable_length, R, mtu, prop_delay_per_m),
        "credits_needed_sim": credits_for_line_rate(cable_length, R, mtu, grid["t_prop_sim"]),
        "switch_reserve": float(switch_headroom(cable_length, R, mtu, **reserve)),
    }


def run_statistics(runs: dict, slot: float, R: float, mtu: float, victim_rate: float) -> dict:
    """Per run: drops, pauses, notices, throughputs and latency percentiles, in SI units."""
    stats = {}
    for key, r in runs.items():
        pc = [x * slot for x in percentiles(r["latency_congested"])]
        pv = [x * slot for x in percentiles(r["latency_victim"])]
        stats[key] = {
            "drops": int(r["drops"]), "pauses": int(r["pauses_sent"]),
            "victim_throughput": float(r["victim_throughput"] * R),
            "victim_share": float(r["victim_throughput"] / victim_rate) if victim_rate else 1.0,
            "x_throughput": float(r["x_throughput"] * R),
            "p50_congested": pc[0], "p99_congested": pc[1], "p999_congested": pc[2],
            "p99_victim": pv[1],
            "max_headroom_used": float(r["max_headroom_used"] * mtu),
            "max_ingress": float(np.max(r["q_ingress_up"]) * mtu),
            "notices": int(r["notices"]),
        }
    return stats


def check_claims(st: dict, buf: dict, R: float, mtu: float) -> None:
    """The claims the page, captions and figures make, each checked on the runs."""
    for key in ("credit", "credit_cc"):
        check(st[key]["drops"] == 0, "credits: nothing can overflow")
    for key in ("pfc", "pfc_dcqcn"):
        check(st[key]["drops"] == 0, "with the formula's headroom PFC drops nothing")
        check(st[key]["max_headroom_used"] <= buf["headroom_sim"], "the in-flight bytes land in the headroom")
    check(st["pfc"]["pauses"] > 0, "past XOFF, A sends PAUSE upstream")
    check(buf["short_pkts"] * mtu < buf["headroom"] and st["pfc_short"]["drops"] > 0,
          "give the port less headroom and the same burst overflows it")
    check(buf["credits"] >= buf["credits_needed_sim"], "enough credits for line rate")
    for key in ("credit", "pfc"):
        check(st[key]["victim_share"] < 0.75,
              "with congestion control off, both schemes stall the victim bound for an idle port")
        check(st[key]["x_throughput"] > 0.95 * R, "the bottleneck runs at line rate")
    check(abs(st["credit"]["victim_share"] - st["pfc"]["victim_share"]) < 0.15,
          "credits behave much the same way as PFC for the victim")
    for off, on in (("credit", "credit_cc"), ("pfc", "pfc_dcqcn")):
        check(st[on]["victim_share"] > max(0.9, st[off]["victim_share"]),
              "with its congestion control on, each fabric gives the victim most of its demand")
        check(st[on]["p99_congested"] < st[off]["p99_congested"],
              "congestion control cuts the congested flows' p99 latency")
        check(st[on]["notices"] > 0, "the receiver returns congestion notices")
    check(st["pfc_dcqcn"]["pauses"] < st["pfc"]["pauses"], "PAUSE frames fall with DCQCN")
    check(buf["switch_reserve"] > buf["headroom"],
          "the wire-byte headroom is a lower bound on a switch's reservation")


def cc_by_distance(lengths: list[float], at_length: list[list[dict]], R: float, here: int) -> dict:
    """The congestion-controlled runs repeated over cable lengths: how busy the bottleneck stays and
    what the victim gets, and the longest cable up to which both fabrics keep the bottleneck mostly busy.

    The notices take a cable round trip to reach the senders, so the control loop lags more on a longer
    cable. Each length is run with several seeds (`at_length[i]`, one statistics dict per seed), each
    measured over its second half: the claims read the mean over the seeds, the figure draws their range
    as a band, so one lucky or unlucky draw cannot move the boundary. `here` indexes the page's cable: its
    mean and range are what the page and the Explore readouts quote, not the page's own seed, which can be
    the luckiest of them."""
    keys = ("credit_cc", "pfc_dcqcn")
    per_seed = {k: np.array([[st[k]["x_throughput"] / R for st in runs] for runs in at_length]) for k in keys}
    share_seed = {k: np.array([[st[k]["victim_share"] for st in runs] for runs in at_length]) for k in keys}
    busy = {k: per_seed[k].mean(axis=1) for k in keys}
    share = {k: share_seed[k].mean(axis=1) for k in keys}
    both = np.minimum(busy["credit_cc"], busy["pfc_dcqcn"]) >= BUSY
    n_ok = len(both) if both.all() else int(np.argmin(both))  # lengths from the shortest, all busy
    busy_up_to = lengths[n_ok - 1] if n_ok else 0.0
    far = len(lengths) - 1
    check(n_ok < len(lengths), f"on the longer swept cables the bottleneck falls below {BUSY:.0%} busy")
    check(n_ok == len(lengths) or busy["pfc_dcqcn"][n_ok] < BUSY,
          f"DCQCN is the first to leave the bottleneck less than {BUSY:.0%} busy")
    check(min(share["credit_cc"].min(), share["pfc_dcqcn"].min()) > 0.9,
          "at every swept cable length, congestion control gives the victim nearly all its demand")
    bands = {f"{k}_busy_{end}": f(per_seed[k], axis=1) for k in keys for end, f in (("lo", np.min), ("hi", np.max))}
    bands.update({f"{k}_victim_share_{end}": f(share_seed[k], axis=1)
                  for k in keys for end, f in (("lo", np.min), ("hi", np.max))})
    return {
        "series": curves("cc_cable_length", lengths, credit_cc_busy=busy["credit_cc"],
                         pfc_dcqcn_busy=busy["pfc_dcqcn"], credit_cc_victim_share=share["credit_cc"],
                         pfc_dcqcn_victim_share=share["pfc_dcqcn"], **bands),
        "summary": {
            "cc_seeds": per_seed["credit_cc"].shape[1],
            "busy_floor": BUSY, "cc_busy_up_to": float(busy_up_to), "cc_near_length": float(lengths[0]),
            "cc_next_length": float(lengths[n_ok]) if n_ok < len(lengths) else float(lengths[-1]),
            "cc_far_length": float(lengths[far]),
            "credit_cc_far_busy": float(busy["credit_cc"][far]),
            "pfc_dcqcn_far_busy": float(busy["pfc_dcqcn"][far]),
            "credit_cc_far_victim_share": float(share["credit_cc"][far]),
            "pfc_dcqcn_far_victim_share": float(share["pfc_dcqcn"][far]),
            # on the page's cable: the share of the second half the bottleneck sat idle, and the victim's
            # share, as the seeds' mean, with the idle share's range over the seeds
            **{f"{k}_{name}": v for k in keys for name, v in (
                ("idle", float(1 - busy[k][here])),
                ("idle_lo", float(1 - per_seed[k][here].max())), ("idle_hi", float(1 - per_seed[k][here].min())),
                ("victim_share_mean", float(share[k][here])))},
        },
    }


def reservation_by_speed(R: float, mtu: float, cable_length: float, prop_delay_per_m: float,
                         response_time: float, reserve: dict) -> dict:
    """Headroom at 100, 200 and 400 Gb/s on the page's cable: the peer's allowance, the wire bytes, the
    switch's reservation and the NIC driver's xoff, each term at that speed."""
    out = {}
    for speed, _ in PEER_RESPONSE:
        g = f"{speed / G:g}g"
        out[f"peer_response_{g}"] = peer_response_bytes(speed)
        out[f"headroom_{g}"] = float(pfc_headroom(cable_length, speed, mtu, prop_delay_per_m, response_time))
        out[f"switch_reserve_{g}"] = float(switch_headroom(cable_length, speed, mtu, **reserve))
        out[f"mlx5_xoff_{g}"] = float(mlx5_xoff(round(cable_length), round(speed / G), round(mtu)))
    out["switch_reserve_no_small"] = float(switch_headroom(cable_length, R, mtu,
                                                           **dict(reserve, small_packet_share=0.0)))
    # the same port in the script's four-lane form, and with the script's own speed of light in the cable
    out["switch_reserve_4_lane"] = float(switch_headroom(cable_length, R, mtu, lanes_8=False, **reserve))
    out["switch_reserve_sonic_fibre"] = float(switch_headroom(
        cable_length, R, mtu, **dict(reserve, fibre_speed=1 / const("sonic_fibre_delay_per_m"))))
    # SONiC's static SN4700 profile against its dynamic calculator on the profile's cable: the calculator's
    # default allows for all-64-byte packets; at the page's MTU the profile sits near the no-small-packet value
    # (a test checks it there)
    sonic = dict(reserve, fibre_speed=1 / const("sonic_fibre_delay_per_m"))
    out["profile_cable"] = PROFILE_CABLE
    out["profile_reserve"] = const("sn4700_profile_reserve_400g_40m")
    out["profile_cable_reserve"] = float(switch_headroom(PROFILE_CABLE, 400 * G, mtu, **sonic))
    out["profile_cable_reserve_no_small"] = float(switch_headroom(PROFILE_CABLE, 400 * G, mtu,
                                                                  **dict(sonic, small_packet_share=0.0)))
    return out


def headroom_sweep(R: float, mtu: float, cable_length: float, prop_delay_per_m: float, response_time: float,
                   max_cable: float, sweep_rates: list | None, reserve: dict) -> dict:
    """The headroom figure's series: cable length x link rate, with the driver's and a switch's."""
    rates = sorted({float(r) for r in (sweep_rates or [100 * G, 200 * G, R, 800 * G])} | {R})
    lengths = np.unique(np.concatenate([np.linspace(0, max_cable, 21), [cable_length]]))
    sweep = {f"headroom_{r / G:g}g": pfc_headroom(lengths, r, mtu, prop_delay_per_m, response_time)
             for r in rates}
    return curves(
        "cable_length", lengths, **sweep,
        mlx5_xoff=[float(mlx5_xoff(round(x), round(R / G), round(mtu))) for x in lengths],
        switch_reserve=switch_headroom(lengths, R, mtu, **reserve),
    )


def time_series(runs: dict, grid: dict, R: float, mtu: float) -> dict:
    """The runs over time (all but the short-headroom one): upstream ingress and victim rate."""
    slot, slots = grid["slot"], grid["slots"]
    stride = max(1, slots // 110)  # about a hundred points per line in the figure
    t_axis = (np.arange(slots) * slot)[::stride]
    w = max(1, int(round(20e-6 / slot)))  # victim throughput smoothed over ~20 us windows
    return curves("time", t_axis, **{
        f"{key}_{what}": arr for key, r in runs.items() if key != "pfc_short"
        for what, arr in (
            ("ingress_bytes", (r["q_ingress_up"] * mtu)[::stride]),
            ("victim_rate", (_moving_mean(r["victim_delivered"], w) * R)[::stride]),
        )})


def summarise(stats: dict, grid: dict, buf: dict, R: float, mtu: float, senders: int, victim_rate: float,
              cable_length: float, prop_delay_per_m: float, response_time: float, k_min: float, k_max: float,
              p_max: float, cell_size: float, small_packet_share: float, ib_threshold: float,
              ccti_timer: float, cct_step: float) -> dict:
    """The numbers the page, the captions and the scene quote."""
    slot = grid["slot"]
    return {
        "link_rate": R, "mtu": mtu, "cable_length": cable_length, "senders": senders,
        "victim_rate": victim_rate * R, "fair_share": R / senders,
        "slot_time": slot, "sim_time": grid["slots"] * slot, "slots": grid["slots"],
        "delay_slots": grid["delay_slots"], "response_slots": grid["response_slots"],
        "one_way_delay": cable_length * prop_delay_per_m,
        "headroom": buf["headroom"], "headroom_short": buf["short_pkts"] * mtu,
        "headroom_sim_bytes": buf["headroom_pkts"] * mtu, "headroom_pkts": buf["headroom_pkts"],
        "short_pkts": buf["short_pkts"],
        "headroom_mtu_term": 2 * mtu + PAUSE_FRAME_BYTES,
        "headroom_cable_term": 2 * float(cable_bytes(cable_length, R, prop_delay_per_m)),
        "headroom_response_term": R * response_time,
        "xoff": buf["xoff_pkts"] * mtu, "xon": buf["xon_pkts"] * mtu, "k_min": k_min, "k_max": k_max,
        "p_max": p_max, "buffer_per_port": buf["buffer_per_port"],
        "credits": buf["credits"], "credits_needed": buf["credits_needed"],
        "mlx5_xoff": float(mlx5_xoff(round(cable_length), round(R / G), round(mtu))),
        "switch_reserve": buf["switch_reserve"], "switch_reserve_ratio": buf["switch_reserve"] / buf["headroom"],
        "cell_size": cell_size, "cell_occupancy": cell_occupancy(cell_size, small_packet_share),
        "ib_threshold": ib_threshold, "ccti_timer": ccti_timer, "cct_step": cct_step,
        **quoted_run_numbers(stats),
    }


QUOTED = {  # the per-run numbers the page, the captions and the scene quote
    "credit": ("victim_share", "victim_throughput", "max_ingress"),
    "credit_cc": ("victim_share", "victim_throughput", "p99_congested", "notices", "x_throughput"),
    "pfc": ("victim_share", "victim_throughput", "pauses", "p99_congested", "max_headroom_used"),
    "pfc_dcqcn": ("victim_share", "victim_throughput", "pauses", "p99_congested", "max_ingress",
                  "notices", "x_throughput"),
    "pfc_short": ("drops",),
}


def quoted_run_numbers(stats: dict) -> dict:
    """The summary's per-run entries, named <run>_<statistic>."""
    return {f"{key}_{k}": stats[key][k] for key, names in QUOTED.items() for k in names}


def long_cable_problems(st: dict, buf: dict, R: float, mtu: float, cable_length: float,
                        prop_delay_per_m: float, response_time: float, reserve: dict) -> dict:
    """The answers to the page's problems: a 2 km cable, a full Spectrum-3 switch, a doubled rate."""
    km = CC_SWEEP_LENGTHS[-1]  # the longest cable the congestion-controlled runs are repeated on
    return {
        "long_cable": km,
        "long_cable_headroom": float(pfc_headroom(km, R, mtu, prop_delay_per_m, response_time)),
        "long_cable_switch": float(switch_headroom(km, R, mtu, **reserve)),
        "long_cable_credits": credits_for_line_rate(km, R, mtu, prop_delay_per_m),
        # the switch whose cells and 8-lane ports the reservation assumes: a Spectrum-3, 32 x 400 GbE
        "ports": int(const("spectrum3_ports_400g")),
        "switch_headroom_total": const("spectrum3_ports_400g") * buf["switch_reserve"],
        "wire_headroom_total": const("spectrum3_ports_400g") * buf["headroom"],
        # the scale: the share of the switch's whole shared buffer, for one lossless priority and for two
        "switch_headroom_buffer_share": const("spectrum3_ports_400g") * buf["switch_reserve"]
        / const("spectrum3_shared_buffer"),
        "lossless_priorities": LOSSLESS_PRIORITIES,
        "switch_headroom_buffer_share_2": LOSSLESS_PRIORITIES * const("spectrum3_ports_400g")
        * buf["switch_reserve"] / const("spectrum3_shared_buffer"),
        "double_rate": 2 * R,
        "double_rate_headroom": float(pfc_headroom(cable_length, 2 * R, mtu, prop_delay_per_m,
                                                   response_time)),
        "victim_loss_fraction": 1 - st["pfc"]["victim_share"],
    }


def runs_table(stats: dict, senders: int, R: float, grid: dict) -> Table:
    """The numbers table: one row per run."""
    slots, slot = grid["slots"], grid["slot"]
    cols = [Column("scheme", "text"), Column("drops", "count"), Column("PAUSE frames sent", "count"),
            Column("congestion notices (BECN or CNP)", "count"),
            Column("victim throughput", "B/s"), Column("victim share of its demand", "%"),
            Column("bottleneck throughput", "B/s"),
            Column("p50 latency", "s"), Column("p99 latency", "s"), Column("p99.9 latency", "s"),
            Column("victim p99 latency", "s")]
    # with congestion control off U's queue grows all run, so its latencies have no steady value: those
    # cells print a dash (growing_latencies keeps them, for the test that they double with the run)
    rows = [[RUNS[k][2], s["drops"], s["pauses"], s["notices"], s["victim_throughput"],
             s["victim_share"], s["x_throughput"],
             *([None] * 4 if RUNS[k][1] == "none" else
               [s["p50_congested"], s["p99_congested"], s["p999_congested"], s["p99_victim"]])]
            for k, s in stats.items()]
    return Table(f"{senders} senders into one {R / G:g} Gb/s port for {slots * slot * 1e6:.0f} µs; "
                 "the victim shares the upstream link. Throughput and latency (sender to receiver) over the "
                 "second half. A dash: the latency grows with the run, as U's queue does with congestion "
                 "control off, so it has no value to give", cols, rows)


def growing_latencies(stats: dict) -> dict:
    """The congestion-control-off runs' latencies, which grow with the run's length: kept out of the table,
    read by the test that they do grow."""
    return {key: {k: stats[key][k] for k in ("p50_congested", "p99_congested", "p999_congested", "p99_victim")}
            for key in stats if RUNS[key][1] == "none"}
