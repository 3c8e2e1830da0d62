"""Lossless transport: InfiniBand credits versus RoCE v2's PFC pauses, with DCQCN.

Two ways to make a link never drop a packet for lack of buffer:

Credit-based flow control (InfiniBand): the receiver advertises how many
packets of buffer it has free; the sender spends one credit per packet and
sends only while it holds credits. A credit comes back when the receiver
frees the buffer, one link delay later. Nothing can overflow, by
construction; full rate needs credits covering the round trip.

Priority flow control (IEEE 802.1Qbb, RoCE v2): the receiver lets packets
in until its ingress count for the port crosses XOFF, then sends a PAUSE
upstream, and a RESUME when it falls below XON. Bytes keep arriving while
the PAUSE travels and the sender reacts, so each lossless ingress needs
*headroom* above XOFF:

    H = 2 MTU + P + R (2 L t_prop + t_resp)

with R the link rate (B/s), L the cable length, t_prop the propagation delay
per metre, t_resp the time for the far end to stop after the PAUSE lands, P
the PAUSE frame itself (64 B) and 2 MTU the frames already being serialised
at each end when the decision is taken (a PAUSE cannot preempt a frame).
Cisco's PFC white paper itemises the same terms; NVIDIA's mlx5 driver
computes xoff = (301 + 2.16 L[m]) * speed[Gb/s] + 2.72 MTU bytes, the same
affine form with margins. If the headroom is short, PFC drops.

Both schemes stop a congested port by stopping the link that feeds it, so a
flow that shares that upstream link but goes elsewhere (the *victim*) is
blocked too: head-of-line blocking, congestion spreading one hop upstream.
End-to-end congestion control removes the cause: switches mark packets with
ECN when the egress queue passes K_min (probability rising to p_max at
K_max), receivers return a CNP, and DCQCN senders cut their rate by alpha/2
and recover additively (Zhu et al., SIGCOMM 2015).

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

PAUSE_FRAME_BYTES = 64  # an 802.1Qbb PFC frame is a minimum-size MAC control frame

# ---------------------------------------------------------------------------
# the formulas
# ---------------------------------------------------------------------------


def cable_bytes(cable_m, rate: float, prop_delay_per_m: float):
    """Bytes a link at `rate` puts on `cable_m` metres of cable (one way)."""
    return np.asarray(cable_m, dtype=float) * prop_delay_per_m * rate


def pfc_headroom(cable_m, rate, mtu: float, prop_delay_per_m: float, response_time: float):
    """H = 2 MTU + PAUSE + R (2 L t_prop + t_resp), bytes above XOFF per lossless ingress."""
    rate = np.asarray(rate, dtype=float)
    return (2 * mtu + PAUSE_FRAME_BYTES
            + rate * (2 * np.asarray(cable_m, dtype=float) * prop_delay_per_m + response_time))


def mlx5_xoff(cable_m: int, speed_gbps: int, mtu: int) -> int:
    """NVIDIA mlx5 driver's lossless-buffer xoff, bytes, in its integer arithmetic.

    drivers/net/ethernet/mellanox/mlx5/core/en/port_buffer.c, calculate_xoff():
    xoff = (301 + 216 * len / 100) * speed[Mb/s] / 1000 + 272 * mtu / 100, speed >= 40 Gb/s.
    """
    speed_mbps = max(int(speed_gbps) * 1000, 40000)
    return (301 + 216 * int(cable_m) // 100) * speed_mbps // 1000 + 272 * int(mtu) // 100


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


def percentiles(samples, qs=(50, 99, 99.9)) -> list[float]:
    a = np.asarray(samples, dtype=float)
    if a.size == 0:
        return [float("nan")] * len(qs)
    return [float(np.percentile(a, q)) for q in qs]


# ---------------------------------------------------------------------------
# the simulation
# ---------------------------------------------------------------------------


class _Link:
    """One link into switch A, seen from its sending end.

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


def simulate(mode: str, *, n_direct: int, slots: int, delay_slots: int, response_slots: int,
             xoff_pkts: int, xon_pkts: int, headroom_pkts: int, credits: int,
             congestor_rate: float, victim_rate: float, dcqcn: bool,
             k_min_pkts: float, k_max_pkts: float, p_max: float, cnp_interval: int,
             dcqcn_g: float, rate_increase: float, increase_interval: int, min_rate: float,
             seed: int, record_every: int = 1) -> dict:
    """Run the two-switch scenario for `slots` packet slots.

    mode: "credit" or "pfc". Senders 0..n_direct-1 are hosts on switch A sending
    to X at line rate; sender n_direct (the congestor) and n_direct+1 (the
    victim) sit behind switch U and share U's one link into A. Rates are in
    packets per slot (1 = line rate). Returns per-slot series and counters.
    """
    if mode not in ("credit", "pfc"):
        raise ValueError(f"mode must be 'credit' or 'pfc', not {mode!r}")
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
    cnp_queue: deque = deque()  # (slot, flow)
    u_fifo: deque = deque()  # U's egress queue toward A: (flow, born, marked)
    voq_x = [deque() for _ in range(n_links)]  # A's per-ingress queues to X
    voq_y: deque = deque()  # A's queue to Y (only the victim goes there)
    rr = 0
    buffer_limit = xoff_pkts + headroom_pkts  # PFC: per-ingress ceiling before a drop

    n_rec = slots // record_every
    q_ingress_up = np.zeros(n_rec)
    q_egress_x = np.zeros(n_rec)
    victim_delivered_t = np.zeros(n_rec)
    congestor_rate_t = np.zeros(n_rec)
    delivered = np.zeros(n_flows, dtype=np.int64)
    delivered_late = np.zeros(n_flows, dtype=np.int64)
    drops = 0
    pauses_sent = 0
    pause_slots_up = 0
    marks = 0
    cnps = 0
    max_post_xoff = 0  # most packets held above XOFF on any ingress (headroom used)
    lat_cong, lat_vic = [], []
    half = slots // 2

    def admit(i: int, pkt) -> None:
        nonlocal drops
        ln = links[i]
        if mode == "pfc" and ln.ingress >= buffer_limit:
            drops += 1
            return
        ln.ingress += 1
        (voq_y if pkt[0] == vic else voq_x[i]).append((i, *pkt))

    for t in range(slots):
        # --- control frames and credits land ------------------------------------
        for ln in links:
            while ln.credit_returns and ln.credit_returns[0] <= t:
                ln.credit_returns.popleft()
                ln.credits += 1
            while ln.pause_events and ln.pause_events[0][0] <= t:
                ln.paused = ln.pause_events.popleft()[1]
        while cnp_queue and cnp_queue[0][0] <= t:
            _, f = cnp_queue.popleft()
            alpha[f] = (1 - dcqcn_g) * alpha[f] + dcqcn_g
            rate[f] = max(rate[f] * (1 - alpha[f] / 2), min_rate)
            last_increase[f] = t
        if dcqcn:
            due = (t - last_increase) >= increase_interval
            if due.any():
                alpha[due] *= (1 - dcqcn_g)
                rate[due] = np.minimum(rate[due] + rate_increase, offered[due])
                last_increase[due] = t

        # --- senders: Bernoulli arrivals at each flow's current rate ----------------
        draws = rng.random(n_flows) < rate
        for i in range(n_direct):  # hosts on A: send if the link lets them
            ln = links[i]
            if draws[i] and (ln.credits > 0 if mode == "credit" else not ln.paused):
                if mode == "credit":
                    ln.credits -= 1
                ln.wire.append((t + ln.delay, (i, t, False)))
        for f in (cong, vic):  # hosts behind U: into U's egress FIFO
            if draws[f]:
                u_fifo.append((f, t, False))
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
        depth_x = sum(len(q) for q in voq_x)
        for k in range(n_links):
            i = (rr + k) % n_links
            if voq_x[i]:
                _, f, born, _ = voq_x[i].popleft()
                links[i].ingress -= 1
                if mode == "credit":
                    links[i].credit_returns.append(t + links[i].delay)
                rr = (i + 1) % n_links
                if dcqcn and rng.random() < float(ecn_mark_probability(
                        depth_x, k_min_pkts, k_max_pkts, p_max)):
                    marks += 1
                    if t - last_cnp[f] >= cnp_interval:
                        last_cnp[f] = t
                        cnps += 1
                        cnp_queue.append((t + 2 * delay_slots, f))
                delivered[f] += 1
                if t >= half:
                    delivered_late[f] += 1
                lat_cong.append(t + 1 - born)
                break
        # --- A's egress to Y: uncongested, one packet per slot ------------------------
        if voq_y:
            i, f, born, _ = voq_y.popleft()
            links[i].ingress -= 1
            if mode == "credit":
                links[i].credit_returns.append(t + links[i].delay)
            delivered[f] += 1
            if t >= half:
                delivered_late[f] += 1
            lat_vic.append(t + 1 - born)
            if t // record_every < n_rec:
                victim_delivered_t[t // record_every] += 1

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

        if t % record_every == 0 and t // record_every < n_rec:
            j = t // record_every
            q_ingress_up[j] = links[up].ingress
            q_egress_x[j] = sum(len(q) for q in voq_x)
            congestor_rate_t[j] = rate[cong]

    late_slots = slots - half
    return {
        "q_ingress_up": q_ingress_up, "q_egress_x": q_egress_x,
        "victim_delivered": victim_delivered_t, "congestor_rate": congestor_rate_t,
        "delivered": delivered, "drops": drops, "pauses_sent": pauses_sent,
        "pause_fraction_up": pause_slots_up / slots, "marks": marks, "cnps": cnps,
        "max_headroom_used": max(max_post_xoff, 0),
        "victim_throughput": delivered_late[vic] / late_slots,  # packets per slot
        "victim_offered": victim_rate,
        "x_throughput": (delivered_late[:vic].sum()) / late_slots,
        "latency_congested": np.asarray(lat_cong), "latency_victim": np.asarray(lat_vic),
        "u_backlog": len(u_fifo),
    }


# ---------------------------------------------------------------------------
# the entry function
# ---------------------------------------------------------------------------


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
    sim_time: float = 400e-6,
    sweep_rates: list | None = None,
    max_cable: float = 1000.0,
    seed: int = 5,
) -> dict:
    """Credit versus PFC (with and without DCQCN) on one congested port, plus PFC headroom.

    link_rate: R of every link, per direction (B/s); mtu: packet size (B);
    cable_length (m) and prop_delay_per_m (s/m): each link's delay;
    response_time: how long a PFC sender takes to stop once the PAUSE lands (s);
    senders: congested flows into the bottleneck (one of them behind switch U);
    victim_rate / congestor_rate: offered rates of U's two flows, fraction of R;
    xoff / xon: PFC thresholds per ingress (B); k_min / k_max / p_max: ECN marking;
    DCQCN's CNP interval, gain g, additive increase (fraction of R) and its period;
    sim_time: simulated time (s); sweep_rates: link rates for the headroom sweep.
    """
    R, mtu = float(link_rate), float(mtu)
    if senders < 2:
        raise ValueError("need at least 2 congested senders for an incast")
    if not (0 < xon < xoff):
        raise ValueError("need 0 < xon < xoff")
    slot = mtu / R  # one packet at line rate
    slots = int(round(sim_time / slot))
    # times rounded up to whole slots: the simulated network is never faster than the formula's
    delay_slots = max(1, math.ceil(cable_length * prop_delay_per_m / slot - 1e-9))
    response_slots = max(1, math.ceil(response_time / slot - 1e-9))
    t_prop_sim = delay_slots * slot / cable_length
    t_resp_sim = response_slots * slot

    headroom = float(pfc_headroom(cable_length, R, mtu, prop_delay_per_m, response_time))
    headroom_sim = float(pfc_headroom(cable_length, R, mtu, t_prop_sim, t_resp_sim))
    headroom_pkts = math.ceil(headroom_sim / mtu)
    short_pkts = max(1, int(headroom_pkts * short_headroom_fraction))
    xoff_pkts, xon_pkts = int(round(xoff / mtu)), int(round(xon / mtu))
    buffer_per_port = (xoff_pkts + headroom_pkts) * mtu
    credits = xoff_pkts + headroom_pkts  # same buffer per ingress as PFC
    credits_needed = credits_for_line_rate(cable_length, R, mtu, t_prop_sim)

    common = dict(n_direct=senders - 1, slots=slots, delay_slots=delay_slots,
                  response_slots=response_slots, xoff_pkts=xoff_pkts, xon_pkts=xon_pkts,
                  credits=credits, congestor_rate=congestor_rate, victim_rate=victim_rate,
                  k_min_pkts=k_min / mtu, k_max_pkts=k_max / mtu, p_max=p_max,
                  cnp_interval=max(1, round(cnp_interval / slot)), dcqcn_g=dcqcn_g,
                  rate_increase=rate_increase,
                  increase_interval=max(1, round(increase_interval / slot)),
                  min_rate=0.01, seed=seed)
    runs = {
        "credit": simulate("credit", headroom_pkts=headroom_pkts, dcqcn=False, **common),
        "pfc": simulate("pfc", headroom_pkts=headroom_pkts, dcqcn=False, **common),
        "pfc_dcqcn": simulate("pfc", headroom_pkts=headroom_pkts, dcqcn=True, **common),
        "pfc_short": simulate("pfc", headroom_pkts=short_pkts, dcqcn=False, **common),
    }
    labels = {"credit": "credits (InfiniBand)", "pfc": "PFC (RoCE v2, no CC)",
              "pfc_dcqcn": "PFC + ECN/DCQCN", "pfc_short": "PFC, headroom too small"}

    # --- headroom sweep: cable length x link rate -----------------------------------
    rates = [float(r) for r in (sweep_rates or [100e9 / 8, 200e9 / 8, R, 800e9 / 8])]
    rates = sorted(set(rates))
    lengths = np.unique(np.concatenate([np.linspace(0, max_cable, 21), [cable_length]]))
    sweep = {f"{r:.0f}": pfc_headroom(lengths, r, mtu, prop_delay_per_m, response_time)
             for r in rates}

    # --- assemble ----------------------------------------------------------------------
    n_rec = len(runs["pfc"]["q_ingress_up"])
    stride = max(1, n_rec // 110)  # a few hundred points per line in the figure
    t_axis = (np.arange(n_rec) * slot)[::stride]
    series = {
        "time": t_axis,
        "cable_length": lengths,
        "sweep_rates": rates,
        "headroom_by_rate": sweep,
        # NVIDIA's driver formula at the scene's link rate, for comparison
        "mlx5_xoff": [float(mlx5_xoff(round(x), round(R * 8 / 1e9), round(mtu))) for x in lengths],
    }
    stats = {}
    for key, r in runs.items():
        series[f"{key}_ingress_bytes"] = (r["q_ingress_up"] * mtu)[::stride]
        series[f"{key}_egress_bytes"] = (r["q_egress_x"] * mtu)[::stride]
        # victim throughput, smoothed over ~5 us windows
        w = max(1, int(round(5e-6 / slot)))
        vt = np.convolve(r["victim_delivered"], np.ones(w) / w, mode="same") * R * 1.0
        series[f"{key}_victim_rate"] = (vt * mtu / mtu)[::stride]
        series[f"{key}_congestor_rate"] = (r["congestor_rate"] * R)[::stride]
        pc = [x * slot for x in percentiles(r["latency_congested"])]
        pv = [x * slot for x in percentiles(r["latency_victim"])]
        stats[key] = {
            "label": labels[key],
            "drops": int(r["drops"]), "pauses": int(r["pauses_sent"]),
            "pause_fraction": float(r["pause_fraction_up"]),
            "victim_throughput": float(r["victim_throughput"] * R),
            "victim_share": float(r["victim_throughput"] / victim_rate),
            "x_throughput": float(r["x_throughput"] * R),
            "p50_congested": pc[0], "p99_congested": pc[1], "p999_congested": pc[2],
            "p50_victim": pv[0], "p99_victim": pv[1], "p999_victim": pv[2],
            "max_headroom_used": float(r["max_headroom_used"] * mtu),
            "max_ingress": float(np.max(r["q_ingress_up"]) * mtu),
            "marks": int(r["marks"]), "cnps": int(r["cnps"]),
        }

    g = 1e9 / 8
    h100m = {f"headroom_{round(r / g)}g": float(pfc_headroom(cable_length, r, mtu,
                                                             prop_delay_per_m, response_time))
             for r in rates}
    summary = {
        "link_rate": R, "mtu": mtu, "cable_length": cable_length,
        "prop_delay_per_m": prop_delay_per_m, "response_time": response_time,
        "senders": senders, "victim_rate": victim_rate * R, "congestor_rate": congestor_rate * R,
        "fair_share": R / senders,
        "slot_time": slot, "sim_time": slots * slot, "slots": slots,
        "delay_slots": delay_slots, "response_slots": response_slots,
        "one_way_delay": cable_length * prop_delay_per_m,
        "cable_bytes": float(cable_bytes(cable_length, R, prop_delay_per_m)),
        "headroom": headroom, "headroom_sim": headroom_pkts * mtu,
        "headroom_short": short_pkts * mtu,
        "headroom_mtu_term": 2 * mtu + PAUSE_FRAME_BYTES,
        "headroom_cable_term": 2 * float(cable_bytes(cable_length, R, prop_delay_per_m)),
        "headroom_response_term": R * response_time,
        "xoff": xoff_pkts * mtu, "xon": xon_pkts * mtu, "k_min": k_min, "k_max": k_max,
        "p_max": p_max, "buffer_per_port": buffer_per_port,
        "credits": credits, "credits_needed": credits_needed,
        "mlx5_xoff": float(mlx5_xoff(round(cable_length), round(R / g), round(mtu))),
        "max_cable": max_cable,
        "headroom_max_cable": float(pfc_headroom(max_cable, R, mtu, prop_delay_per_m,
                                                 response_time)),
        **h100m,
    }
    for key, st in stats.items():
        for k, v in st.items():
            if k != "label":
                summary[f"{key}_{k}"] = v

    # worked problems
    km = 2000.0
    problems = {
        "long_cable": km,
        "long_cable_headroom": float(pfc_headroom(km, R, mtu, prop_delay_per_m, response_time)),
        "long_cable_credits": credits_for_line_rate(km, R, mtu, prop_delay_per_m),
        "ports": 64,
        "switch_headroom_total": 64 * headroom,
        "double_rate": 2 * R,
        "double_rate_headroom": float(pfc_headroom(cable_length, 2 * R, mtu, prop_delay_per_m,
                                                   response_time)),
        "victim_loss_fraction": 1 - stats["pfc"]["victim_share"],
    }

    cols = [("scheme", "text"), ("drops", "count"), ("PAUSE frames sent", "count"),
            ("victim throughput", "B/s"), ("victim share of its demand", "%"),
            ("bottleneck throughput", "B/s"),
            ("p50 latency", "s"), ("p99 latency", "s"), ("p99.9 latency", "s"),
            ("victim p99 latency", "s")]
    rows = [[st["label"], st["drops"], st["pauses"], st["victim_throughput"], st["victim_share"],
             st["x_throughput"], st["p50_congested"], st["p99_congested"],
             st["p999_congested"], st["p99_victim"]] for st in stats.values()]
    table = {
        "caption": (f"{senders} senders into one {R * 8 / 1e9:g} Gb/s port for "
                    f"{slots * slot * 1e6:.0f} µs; the victim shares the upstream link. "
                    "Throughput over the second half; latency of delivered packets, sender to receiver"),
        "columns": [{"name": n, "unit": u} for n, u in cols],
        "rows": rows,
    }
    param_units = {"mtu": "B", "cable_length": "1", "prop_delay_per_m": "s",
                   "response_time": "s", "senders": "count", "victim_rate": "%",
                   "congestor_rate": "%", "xoff": "B", "xon": "B",
                   "short_headroom_fraction": "%", "k_min": "B", "k_max": "B", "p_max": "%",
                   "cnp_interval": "s", "dcqcn_g": "1", "rate_increase": "%",
                   "increase_interval": "s", "sim_time": "s", "max_cable": "1", "seed": "1"}
    return {"summary": summary, "series": series, "problems": problems, "runs": stats,
            "table": table, "param_units": param_units}
