"""predictive-draining: pull a node before it crashes the job — series reliability, precursors, draining, spares.

**Series reliability.** A job that needs every one of its parts fails when any
part fails, so failure rates add: n parts of mean time between failures m give
M = m/n. The Llama 3 record (419 unexpected interruptions in 54 days on 16,384
GPUs; the Young/Daly `mean_time_between_interruptions`) gives a rate per GPU,
λ_GPU = I/(T·N); a node of g GPUs fails at g·λ_GPU, an NVL72 rack at 72·λ_GPU
and a job of N GPUs at N·λ_GPU. Meta's research clusters report failures per
1000 node-days (Kokolis et al. 2024); the same formula turns them into a job's
mean time to failure.

**Precursors.** A share f of failures (the coverage) is preceded by a burst of
error signals (correctable ECC and row remaps, Xid, PCIe AER, a transceiver's
falling receive power or rising pre-FEC bit errors). f is calibrated on the
Llama 3 record: the share of its interruptions that are GPU HBM3 memory, plus
an assumed node-side share of its network switch/cable ones (a drain avoids a
node's own transceiver or cable, not a shared switch). The burst starts a lead time
L ~ Exp(mean ℓ) before the crash and emits signals as a Poisson process, one
every b_s on average. Healthy nodes emit background signals, one every b_h on
average (Poisson). The rule: drain a node when k signals fall within a window
W. A drain saves the job only if the k-th burst signal arrives at least D
before the crash (D = the health-check period plus the checkpoint
write δ, `checkpoint_cost`). With G_k ~ Gamma(k, 1/b_s) the time from the burst's start to the
k-th signal, memorylessness of L gives the caught share exactly:

    c(k) = f · P(L ≥ G_k + D) = f · e^{−D/ℓ} · (ℓ/(ℓ + b_s))^k

(the window is assumed to hold the burst's first k signals; the model checks
that it misses them with probability below 1%). A healthy node crosses the
threshold when a background signal arrives with exactly k − 1 others in the
window before it; by the Poisson arrivals-see-time-averages property the rate
of such crossings per node is exactly

    F(k) = (1/b_h) · P(Poisson(W/b_h) = k − 1).

k = 1 drains at any signal; "never drain" is k → ∞ (c = 0, F = 0). Sweeping
k traces the ROC: share of failures caught against healthy nodes drained.

**Goodput.** A crash costs R_c = T_det + R_r: the job hangs until the failure
is detected (T_det; by default PyTorch's NCCL watchdog waits out its collective
timeout, `pytorch_nccl_default_timeout`), then restarts (R_r, Daly's example).
A caught failure becomes a planned drain: write a checkpoint (δ) and restart
on a spare (R_d, assumed), with no lost work. A planned drain skips the
detection and can start a warm spare, so R_d < R_c; how much smaller is an
assumption, so R_d is swept up to R_c (no advantage at all), and T_det is
swept from 0 (a crash noticed at once) to the default timeout. A missed one
stays a crash: the Young/Daly model at the optimum interval with the crash
cost R_c (`models/lib/goodput.py: goodput`), but at the lower crash rate (1 − c)·Λ.
A healthy node drained by mistake also interrupts the job with a planned
drain. So G(k) = G_Daly(δ, 1/((1 − c)Λ), R_c) / (1 + (cΛ + n·F)·(δ + R_d)): drains
occur only while the job runs, so the time they take adds to the wall time (a renewal form).

**Hot spares.** A rigid job needs n nodes at once; the pool has n + s. A node
is down (in repair) with probability p = λR/(1 + λR) (up for 1/λ on average,
then down for R: an alternating renewal process), independently, so the job
can run with probability A = P(Binomial(n + s, p) ≤ s), and the pool's usable
capacity is n·A/(n + s). Drained healthy nodes add their verification time to
the down time. Series MTBFs, availability and usable capacity are shared
with placement-tax's case study: models/lib/reliability.py.

Seeded Monte Carlo checks the caught share, the false-drain rate and the
series formula. Every loop is a fixed-size sweep or bounded by a cap.
Units: seconds (rates as mean intervals), counts.
"""

from __future__ import annotations

import math
from types import SimpleNamespace

import numpy as np
from scipy import stats

from models.exhibit import Column, Exhibit, Param, ParamError, Table, check, curves, model
from models.lib.checkpoint import (
    checkpoint_bytes,
    checkpoint_cost,
    mean_time_between_interruptions,
    optimal_interval,
    restart_for_efficiency,
)
from models.lib.goodput import goodput
from models.lib.reliability import (
    availability_at,
    down_probability,
    gpu_mtbf,
    node_mtbf_from_rate,
    series_mtbf,
    spare_availability,
    usable_capacity,
)
from models.units import DAY, HOUR, fmt_seconds

Z_CHECK = 3.0  # Monte Carlo agrees with the analytic value when |mean − value| ≤ Z_CHECK·SE
WINDOW_MISS_LIMIT = 0.01  # the window must hold a burst's first k signals but this rarely
MAX_THRESHOLD = 12  # the largest k the sweep draws
MAX_SIGNALS_PER_NODE = 200_000  # background simulation: signals per simulated node, at most


# --- series reliability (the shared formulas: models/lib/reliability.py) --------------------


def series_mtbf_of(mtbfs) -> float:
    """MTBF of parts in series with different MTBFs: rates add, 1/Σ(1/mᵢ)."""
    m = np.asarray(mtbfs, dtype=float)
    return float(1.0 / np.sum(1.0 / m))


def failures_per_1000_node_days(node_mtbf: float) -> float:
    """The inverse of `models.lib.reliability.node_mtbf_from_rate`."""
    return 1000.0 * DAY / node_mtbf


# --- precursors and the drain threshold ----------------------------------------------------


def caught_share(k, coverage: float, burst_interval: float, mean_lead: float, drain_time: float):
    """Share of failures drained in time at threshold k: f·e^{−D/ℓ}·(ℓ/(ℓ + b_s))^k."""
    k = np.asarray(k, dtype=float)
    return coverage * math.exp(-drain_time / mean_lead) * (mean_lead / (mean_lead + burst_interval)) ** k


def false_drain_rate(k, background_interval: float, window: float):
    """Healthy-node drains per second per node at threshold k: (1/b_h)·P(Poisson(W/b_h) = k − 1)."""
    k = np.asarray(k, dtype=int)
    return stats.poisson.pmf(k - 1, window / background_interval) / background_interval


def clustered_false_drain_rate(k, background_interval: float, window: float, cluster_size: float):
    """Healthy-node drains per second per node when background errors come in clusters (compound Poisson).

    Clusters arrive as a Poisson process, one every m·b_h (m = mean cluster size, so the mean error rate
    stays 1/b_h); a cluster's size S is geometric on 1, 2, ... with mean m, and its errors land together
    (a burst of minutes inside a day's window). The count crosses k when a cluster finds j < k errors in the
    window and brings at least k − j: F(k) = (1/(m·b_h))·Σ_{j<k} P(N_W = j)·P(S ≥ k − j), with N_W the
    compound Poisson count in the window (Poisson arrivals see time averages). m = 1 gives `false_drain_rate`.
    """
    ks = np.atleast_1d(np.asarray(k, dtype=int))
    p = 1.0 / cluster_size  # geometric success probability: mean size 1/p = m
    clusters = window / (cluster_size * background_interval)  # mean clusters in the window
    top = int(ks.max())
    # P(N_W = j) for j < top: N clusters ~ Poisson, n geometric sizes sum to a shifted negative binomial
    pmf = np.zeros(top)
    pmf[0] = math.exp(-clusters)
    for j in range(1, top):  # bounded: j < MAX_THRESHOLD
        n = np.arange(1, j + 1)
        pmf[j] = float(np.sum(stats.poisson.pmf(n, clusters) * stats.nbinom.pmf(j - n, n, p)))
    tail = (1.0 - p) ** np.arange(top + 1)  # P(S ≥ i) = (1 − p)^(i − 1): index i − 1
    out = np.array([sum(pmf[j] * tail[kk - j - 1] for j in range(kk)) for kk in ks])
    out = out / (cluster_size * background_interval)
    return float(out[0]) if np.ndim(k) == 0 else out


def window_miss(k, burst_interval: float, window: float):
    """Probability that a burst's first k signals do not fit in the window: P(Gamma(k, b_s) > W)."""
    return stats.gamma.sf(window, np.asarray(k, dtype=float), scale=burst_interval)


def drain_goodput(k_caught, drains_per_node: float, nodes: int, node_mtbf: float, delta: float,
                  crash_restart: float, drain_restart: float):
    """Useful share of wall time when a share `k_caught` of failures is drained in time.

    Crashes: the Young/Daly model (via checkpoint-recovery's `goodput`) at the crash rate (1 − c)·Λ.
    Planned drains (caught failures and healthy nodes drained by mistake) each cost δ + R_d of wall time.
    """
    c = np.asarray(k_caught, dtype=float)
    job_rate = nodes / node_mtbf
    crash_mtbf = 1.0 / np.maximum((1.0 - c) * job_rate, 1e-300)
    daly = np.array([float(goodput(delta, float(m), crash_restart)) for m in np.atleast_1d(crash_mtbf)])
    # x: time spent in planned drains per unit of running time. Drains happen only while the job runs,
    # so the share of wall time left to run is the renewal form 1/(1 + x), which never goes below zero
    # (the linear 1 − x does once drains take more than a day a day).
    planned = (c * job_rate + nodes * np.asarray(drains_per_node, dtype=float)) * (delta + drain_restart)
    out = daly / (1.0 + planned)
    return float(out[0]) if np.ndim(k_caught) == 0 else out


def covered_loss_saved(gain: float, coverage: float, g_never: float) -> float:
    """The gain as a share of the time the covered failures cost when never draining, f·(1 − G_never):
    the figure a published predictor's 'lost compute time reduced by x%' compares with."""
    return float(gain) / (coverage * (1.0 - g_never))


def calibrated_coverage(precursor_interruptions, interruptions: int) -> float:
    """Share of the record's interruptions in the categories with a named precursor signal."""
    return float(sum(precursor_interruptions)) / float(interruptions)


def node_side_coverage(hbm: int, network: int, network_node_share: float, interruptions: int) -> float:
    """The coverage a drain can act on: every HBM3 interruption (the GPU's own memory) and the share of the
    network switch/cable interruptions on the node's own side of a link (its transceiver or cable)."""
    return (float(hbm) + network_node_share * float(network)) / float(interruptions)


# --- hot spares (availability and usable capacity: models/lib/reliability.py) ---------------


def spares_needed(n: int, mtbf: float, repair: float, target: float, max_spares: int | None = None) -> int | None:
    """The fewest spares s with availability ≥ target (binary search over 0..max_spares, n by default);
    None when even max_spares do not reach it."""
    hi = n if max_spares is None else int(max_spares)
    p = float(down_probability(mtbf, repair))
    if availability_at(n, hi, p) < target:
        return None
    lo = 0
    while lo < hi:  # at most log2(hi) + 1 steps
        mid = (lo + hi) // 2
        if availability_at(n, mid, p) >= target:
            hi = mid
        else:
            lo = mid + 1
    return lo


# --- Monte Carlo ---------------------------------------------------------------------------


def simulate_caught(k: int, coverage: float, burst_interval: float, mean_lead: float, drain_time: float,
                    trials: int, rng: np.random.Generator) -> tuple[float, float]:
    """Seeded: share of failing nodes whose k-th burst signal comes D before the crash (mean, SE)."""
    has_burst = rng.random(trials) < coverage
    lead = rng.exponential(mean_lead, trials)
    kth = rng.exponential(burst_interval, (trials, int(k))).sum(axis=1)
    caught = has_burst & (kth + drain_time <= lead)
    return float(caught.mean()), float(caught.std(ddof=1) / math.sqrt(trials))


def simulate_false_drains(k: int, background_interval: float, window: float, nodes: int, span: float,
                          rng: np.random.Generator) -> tuple[float, float]:
    """Seeded: threshold crossings per node per second on healthy nodes (mean, SE over nodes).

    Each node's background signals over a warm-up W plus `span`; a crossing is a signal that finds
    exactly k − 1 others in the window before it.
    """
    total = window + span
    counts = rng.poisson(total / background_interval, nodes)
    if counts.max(initial=0) > MAX_SIGNALS_PER_NODE:
        raise ValueError("simulate_false_drains: too many signals per node; shorten the span")
    per_node = np.zeros(nodes)
    for i, n in enumerate(counts):  # bounded: `nodes` iterations
        t = np.sort(rng.random(n) * total)
        before = np.arange(n) - np.searchsorted(t, t - window, side="right")
        per_node[i] = np.count_nonzero((t >= window) & (before == k - 1))
    rate = per_node / span
    return float(rate.mean()), float(rate.std(ddof=1) / math.sqrt(nodes))


def simulate_series(unit_mtbf: float, units: int, trials: int, rng: np.random.Generator) -> tuple[float, float]:
    """Seeded: mean time to the first of `units` exponential failures (mean, SE)."""
    first = rng.exponential(unit_mtbf, (trials, units)).min(axis=1)
    return float(first.mean()), float(first.std(ddof=1) / math.sqrt(trials))


# --- the model's steps ------------------------------------------------------------------------


def series_reliability(observation_window: float, interruptions: int, gpus: int, gpus_per_node: int, rack_gpus: int,
                       rsc1_rate: float, rsc2_rate: float, reported_mttf_16k: float) -> SimpleNamespace:
    """MTBFs of a GPU, a node, a rack and the job from the Llama 3 record and Meta's two clusters' rates."""
    nodes = gpus // gpus_per_node
    m_gpu = gpu_mtbf(observation_window, interruptions, gpus)
    m_node = float(series_mtbf(m_gpu, gpus_per_node))
    m_rack = float(series_mtbf(m_gpu, rack_gpus))
    m_job = float(series_mtbf(m_node, nodes))
    llama_rate = failures_per_1000_node_days(m_node)
    m_node_rsc1, m_node_rsc2 = node_mtbf_from_rate(rsc1_rate), node_mtbf_from_rate(rsc2_rate)
    m_job_rsc1, m_job_rsc2 = float(series_mtbf(m_node_rsc1, nodes)), float(series_mtbf(m_node_rsc2, nodes))
    cluster_gpus = np.unique(np.round(np.logspace(math.log10(gpus_per_node), math.log10(131072), 61)
                                      / gpus_per_node) * gpus_per_node)

    check(abs(m_job - mean_time_between_interruptions(observation_window, interruptions)) < 1e-6 * m_job,
          "the series formula gives back the job's own interruption interval")
    check(rsc2_rate < llama_rate < rsc1_rate, "the Llama 3 run's rate per node-day lies between Meta's two "
                                              "research clusters")
    check(abs(m_job_rsc1 - reported_mttf_16k) < 0.05 * reported_mttf_16k,
          "the series formula reproduces the published MTTF projection for 16,384 GPUs")
    check(m_job < 6 * HOUR, "a 16,384-GPU job is interrupted every few hours")
    check(m_rack > 7 * DAY, "a single rack goes weeks between failures")
    check(m_node > 60 * DAY, "a single node goes months between failures")
    return SimpleNamespace(nodes=nodes, m_gpu=m_gpu, m_node=m_node, m_rack=m_rack, m_job=m_job,
                           llama_rate=llama_rate, m_node_rsc1=m_node_rsc1, m_node_rsc2=m_node_rsc2,
                           m_job_rsc1=m_job_rsc1, m_job_rsc2=m_job_rsc2, cluster_gpus=cluster_gpus,
                           cluster_nodes=cluster_gpus / gpus_per_node)


def threshold_roc(rel: SimpleNamespace, delta: float, health_check_period: float, coverage: float,
                  burst_interval: float, mean_lead: float, background_interval: float,
                  window: float) -> SimpleNamespace:
    """For each threshold k: the share of failures caught in time, and healthy and failing nodes drained a day."""
    drain_time = health_check_period + delta
    ks = np.arange(1, MAX_THRESHOLD + 1)
    caught = caught_share(ks, coverage, burst_interval, mean_lead, drain_time)
    false_rate = false_drain_rate(ks, background_interval, window)  # per node per second
    crashes_per_day = DAY / rel.m_job
    miss = window_miss(ks, burst_interval, window)
    check(float(miss.max()) < WINDOW_MISS_LIMIT, "the window holds the burst's first k signals")
    return SimpleNamespace(delta=delta, drain_time=drain_time, ks=ks, caught=caught, false_rate=false_rate,
                           healthy_per_day=false_rate * rel.nodes * DAY, crashes_per_day=crashes_per_day,
                           caught_per_day=caught * crashes_per_day)


def threshold_goodput(rel: SimpleNamespace, roc: SimpleNamespace, coverage: float, crash_restart: float,
                      drain_restart: float) -> SimpleNamespace:
    """Goodput never draining, at each threshold, at the best one and with a perfect predictor."""
    delta = roc.delta
    g_never = float(goodput(delta, rel.m_job, crash_restart))
    g_k = drain_goodput(roc.caught, roc.false_rate, rel.nodes, rel.m_node, delta, crash_restart, drain_restart)
    best = int(np.argmax(g_k))
    return SimpleNamespace(
        never=g_never, by_k=g_k, best=best, k_best=int(roc.ks[best]), at_best=float(g_k[best]), any=float(g_k[0]),
        tau_never=optimal_interval(delta, rel.m_job),
        tau_best=optimal_interval(delta, rel.m_job / (1 - roc.caught[best])),
        perfect=float(drain_goodput(coverage, 0.0, rel.nodes, rel.m_node, delta, crash_restart, drain_restart)))


def threshold_sensitivity(rel: SimpleNamespace, roc: SimpleNamespace, g: SimpleNamespace, coverage_sweep,
                          background_sweep, burst_interval: float, mean_lead: float, window: float,
                          crash_restart: float, drain_restart: float) -> tuple[list, list, dict]:
    """The best k and its gain over the coverages and background intervals compared; the latter's curves."""
    ks, delta = roc.ks, roc.delta
    sens_cov = []
    for f in coverage_sweep:  # bounded: the catalogue's list
        c_f = caught_share(ks, f, burst_interval, mean_lead, roc.drain_time)
        g_f = drain_goodput(c_f, roc.false_rate, rel.nodes, rel.m_node, delta, crash_restart, drain_restart)
        sens_cov.append({"coverage": float(f), "k_best": int(ks[np.argmax(g_f)]), "goodput": float(g_f.max()),
                         "gain": float(g_f.max() - g.never)})
    sens_bg = []
    bg_curves = {}
    for i, b in enumerate(background_sweep):  # bounded
        fr = false_drain_rate(ks, b, window)
        g_b = drain_goodput(roc.caught, fr, rel.nodes, rel.m_node, delta, crash_restart, drain_restart)
        bg_curves[f"goodput_bg{i}"] = g_b
        bg_curves[f"healthy_bg{i}"] = fr * rel.nodes * DAY
        sens_bg.append({"background_interval": float(b), "k_best": int(ks[np.argmax(g_b)]),
                        "goodput": float(g_b.max()), "gain": float(g_b.max() - g.never),
                        "goodput_any": float(g_b[0])})
    return sens_cov, sens_bg, bg_curves


def restart_sensitivity(rel: SimpleNamespace, roc: SimpleNamespace, g: SimpleNamespace, crash_restart: float,
                        drain_restart_sweep, coverage: float, restart_only: float) -> tuple[list, dict, dict]:
    """The best k and its gain for each drain restart R_d (also as a share of the covered failures' lost time),
    at R_d = R_r (the drain skips the hang but restarts with the crash's machinery) and the curve at R_d = R_c
    (no drain advantage: a pessimistic bound, it charges a planned drain for a hang it never has); the last two
    with their goodput curves over k."""
    rows = []
    # bounded: the catalogue's list, then R_d = R_r, then R_d = R_c
    for r_d in [*drain_restart_sweep, restart_only, crash_restart]:
        g_r = drain_goodput(roc.caught, roc.false_rate, rel.nodes, rel.m_node, roc.delta, crash_restart, float(r_d))
        best = int(np.argmax(g_r))
        rows.append({"drain_restart": float(r_d), "k_best": int(roc.ks[best]), "caught": float(roc.caught[best]),
                     "healthy_per_day": float(roc.healthy_per_day[best]),
                     "goodput": float(g_r.max()), "gain": float(g_r.max() - g.never),
                     "covered_saved": covered_loss_saved(g_r.max() - g.never, coverage, g.never),
                     "goodput_at_k_best": float(g_r[g.best]), "curve": g_r})
    symmetric = rows.pop()
    curve = symmetric.pop("curve")
    same_restart = rows.pop()  # keeps its curve: the first figure draws the headline's drain
    for r in rows:
        r.pop("curve")
    return rows, same_restart, {**symmetric, "curve": curve}


def crash_restart_sensitivity(rel: SimpleNamespace, roc: SimpleNamespace, pairs, drain_restart: float) -> list[dict]:
    """For each (detection T_det, restart R_r) pair, the crash cost R_c = T_det + R_r: never draining's goodput, and
    the best k and its gain at the page's R_d (capped at R_c: a drain never restarts slower than a crash) and
    at R_d = R_c (no drain advantage)."""
    rows = []
    for t_det, r in pairs:  # bounded: the catalogue's lists
        r_c = float(t_det) + float(r)
        never = float(goodput(roc.delta, rel.m_job, r_c))
        row = {"detection": float(t_det), "crash_restart": float(r), "crash_cost": r_c, "goodput_never": never,
               "drain_restart": min(drain_restart, r_c)}
        for tag, r_d in (("", row["drain_restart"]), ("_symmetric", r_c)):
            g_r = drain_goodput(roc.caught, roc.false_rate, rel.nodes, rel.m_node, roc.delta, r_c, r_d)
            row |= {f"k_best{tag}": int(roc.ks[np.argmax(g_r)]), f"gain{tag}": float(g_r.max() - never)}
        rows.append(row)
    return rows


def gain_grid(rel: SimpleNamespace, roc: SimpleNamespace, coverage: float, burst_interval: float,
              detections, crash_restarts, drain_restarts, leads, reported_effective_time: float) -> dict:
    """The best threshold's gain over never draining on the grid T_det × R_r × R_d × ℓ the page sweeps (crash
    cost R_c = T_det + R_r; R_d ≤ R_c, with R_d = R_c added for each R_c), its smallest and largest, and where
    they fall."""
    cells = []
    for t_det in detections:  # bounded: the catalogue's lists
        for r in crash_restarts:
            r_c = float(t_det) + float(r)
            never = float(goodput(roc.delta, rel.m_job, r_c))
            for r_d in sorted({*[float(x) for x in drain_restarts if x <= r_c], r_c}):
                for lead in leads:
                    c_l = caught_share(roc.ks, coverage, burst_interval, float(lead), roc.drain_time)
                    g_l = drain_goodput(c_l, roc.false_rate, rel.nodes, rel.m_node, roc.delta, r_c, r_d)
                    cells.append((float(g_l.max() - never), r_c, r_d, float(lead), float(t_det), float(r),
                                  never >= reported_effective_time))
    lo, hi = min(cells), max(cells)
    # the cells whose never-draining goodput reaches the record's reported effective training time: the record
    # the page calibrates on rules the others out
    fit = [c for c in cells if c[-1]]
    return {"grid_cells": len(cells), "grid_fit_cells": len(fit),
            "grid_fit_gain_min": min(fit)[0] if fit else None, "grid_fit_gain_max": max(fit)[0] if fit else None,
            "grid_gain_min": lo[0], "grid_min_crash_cost": lo[1],
            "grid_min_drain_restart": lo[2], "grid_min_lead": lo[3], "grid_min_detection": lo[4],
            "grid_min_crash_restart": lo[5], "grid_gain_max": hi[0], "grid_max_crash_cost": hi[1],
            "grid_max_drain_restart": hi[2], "grid_max_lead": hi[3], "grid_max_detection": hi[4],
            "grid_max_crash_restart": hi[5]}


def coverage_gain(rel: SimpleNamespace, roc: SimpleNamespace, g: SimpleNamespace, coverage: float,
                  burst_interval: float, mean_lead: float, crash_restart: float, drain_restart: float) -> tuple:
    """The best threshold and its gain over never draining at another coverage (same lead, rates, restarts)."""
    c_f = caught_share(roc.ks, coverage, burst_interval, mean_lead, roc.drain_time)
    g_f = drain_goodput(c_f, roc.false_rate, rel.nodes, rel.m_node, roc.delta, crash_restart, drain_restart)
    return int(roc.ks[np.argmax(g_f)]), float(g_f.max() - g.never)


def network_share_sensitivity(rel: SimpleNamespace, roc: SimpleNamespace, g: SimpleNamespace, hbm: int,
                              network: int, interruptions: int, shares, burst_interval: float, mean_lead: float,
                              crash_restart: float, drain_restart: float, same_restart: float) -> list[dict]:
    """The coverage and the gain for each assumed node-side share of the network interruptions: a drain
    avoids a failing transceiver or cable on the node's own side of a link, not a failed switch the job
    shares. Share 0 is HBM3 alone; share 1 counts every switch and cable interruption (an upper bound).
    Each row at the page's drain restart and at R_d = R_r (a drain that restarts no faster than a crash)."""
    rows = []
    for share in shares:  # bounded: the catalogue's list
        f = node_side_coverage(hbm, network, float(share), interruptions)
        row = {"network_node_share": float(share), "coverage": f}
        for tag, r_d in (("", drain_restart), ("_same", same_restart)):
            k, gain = coverage_gain(rel, roc, g, f, burst_interval, mean_lead, crash_restart, r_d)
            row |= {f"k_best{tag}": k, f"gain{tag}": gain}
        rows.append(row)
    check(all(a["gain"] <= b["gain"] and a["gain_same"] <= b["gain_same"]
              for a, b in zip(rows, rows[1:], strict=False)) or sorted(shares) != list(shares),
          "the more network faults sit on a node's own side, the more a drain gains")
    return rows


def checkpoint_sensitivity(rel: SimpleNamespace, deltas, health_check_period: float, coverage: float,
                           burst_interval: float, mean_lead: float, background_interval: float, window: float,
                           crash_cost: float, drain_restart: float, same_restart: float,
                           reported_effective_time: float) -> list[dict]:
    """Never draining's goodput and the best threshold's gain for each checkpoint write δ: δ enters the
    Daly model (more time writing, a longer interval, more lost work) and the drain time D. Each row at the
    page's drain restart and at the headline's R_d = R_r, and whether never draining still reaches the
    record's reported effective training time (a row below it is not the record's run)."""
    rows = []
    for delta in deltas:  # bounded: the page's δ and the catalogue's list
        roc_d = threshold_roc(rel, float(delta), health_check_period, coverage, burst_interval, mean_lead,
                              background_interval, window)
        g_d = threshold_goodput(rel, roc_d, coverage, crash_cost, drain_restart)
        g_same = threshold_goodput(rel, roc_d, coverage, crash_cost, same_restart)
        rows.append({"delta": float(delta), "drain_time": roc_d.drain_time, "goodput_never": g_d.never,
                     "k_best": g_d.k_best, "gain": g_d.at_best - g_d.never,
                     "k_best_same": g_same.k_best, "gain_same": g_same.at_best - g_same.never,
                     "fits_record": g_d.never >= reported_effective_time})
    return rows


def best_at_restarts(rel: SimpleNamespace, roc: SimpleNamespace, g: SimpleNamespace, caught, crash_restart: float,
                     restarts: dict) -> dict:
    """For caught shares c(k): the best threshold, its caught share and its gain over never draining, at each drain
    restart R_d in `restarts` ({key suffix: R_d}), as k_best<suffix>, caught<suffix>, gain<suffix>."""
    out = {}
    for tag, r_d in restarts.items():  # bounded: the caller's few restarts
        goodputs = drain_goodput(caught, roc.false_rate, rel.nodes, rel.m_node, roc.delta, crash_restart, r_d)
        best = int(np.argmax(goodputs))
        out |= {f"k_best{tag}": int(roc.ks[best]), f"caught{tag}": float(caught[best]),
                f"gain{tag}": float(goodputs[best] - g.never)}
    return out


def lead_sensitivity(rel: SimpleNamespace, roc: SimpleNamespace, g: SimpleNamespace, lead_sweep,
                     coverage: float, burst_interval: float, crash_restart: float, drain_restart: float,
                     same_restart: float) -> list[dict]:
    """The best k and its gain for each mean lead time ℓ, at the page's fast R_d and at R_d = R_r (the headline's
    drain, which restarts no faster than a crash).

    ℓ enters c(k) through e^{−D/ℓ} and ℓ/(ℓ + b_s); both are near 1 only while ℓ ≫ D and ℓ ≫ b_s.
    """
    rows = []
    for lead in lead_sweep:  # bounded: the catalogue's list
        c_l = caught_share(roc.ks, coverage, burst_interval, float(lead), roc.drain_time)
        row = {"mean_lead": float(lead), "lead_factor": math.exp(-roc.drain_time / lead),
               "burst_factor": lead / (lead + burst_interval)}
        row |= best_at_restarts(rel, roc, g, c_l, crash_restart, {"": drain_restart, "_same": same_restart})
        rows.append(row)
    return rows


def joint_sensitivity(rel: SimpleNamespace, roc: SimpleNamespace, g: SimpleNamespace, coverage: float,
                      coverage_sweep, mean_lead: float, lead_sweep, burst_interval: float, crash_restart: float,
                      drain_restart: float, same_restart: float) -> list[dict]:
    """The best k and its gain when the coverage and the lead time go wrong (or right) together.

    The coverage and lead tables move one assumption at a time; both cut the caught share c(k), so when
    both are low the gain falls further than either alone. Rows: both low (the sweeps' smallest), the
    coverage low alone, the lead low alone, the page's values, both high (the sweeps' largest); each at the
    page's fast R_d and at R_d = R_r (the headline's drain).
    """
    f_lo, f_hi, l_lo, l_hi = min(coverage_sweep), max(coverage_sweep), min(lead_sweep), max(lead_sweep)
    cases = (("both low", f_lo, l_lo), ("coverage low", f_lo, mean_lead), ("lead time short", coverage, l_lo),
             ("the page's", coverage, mean_lead), ("both high", f_hi, l_hi))
    rows = []
    for case, f, lead in cases:  # bounded: five cases
        c = caught_share(roc.ks, float(f), burst_interval, float(lead), roc.drain_time)
        row = {"case": case, "coverage": float(f), "mean_lead": float(lead)}
        row |= best_at_restarts(rel, roc, g, c, crash_restart, {"": drain_restart, "_same": same_restart})
        rows.append(row)
    low, f_only, l_only, page, high = rows
    check(abs(page["gain"] - (g.at_best - g.never)) < 1e-12, "the joint table's middle row is the headline")
    check(0.0 <= low["gain"] < min(f_only["gain"], l_only["gain"]),
          "when the coverage and the lead time are both low the gain falls below either alone")
    check(high["gain"] > page["gain"], "when both are high the gain rises above the page's")
    return rows


def check_lead(by_lead: list, g: SimpleNamespace, mean_lead: float) -> None:
    """The page's claims about the lead time, an assumption as strong as the drain restart."""
    gain = g.at_best - g.never
    check(all(a["gain"] <= b["gain"] for a, b in zip(by_lead, by_lead[1:], strict=False)),
          "the shorter the warning, the smaller the gain")
    check(all(r["gain_same"] <= r["gain"] for r in by_lead), "a slower drain restart gains less at every lead time")
    short = by_lead[0]
    check(short["mean_lead"] < mean_lead and short["gain"] < gain,
          "with the shortest warning compared the gain is a fraction of the page's")
    check(short["lead_factor"] < 0.9, "a warning of minutes loses the failures the drain cannot beat")
    check(all(r["gain"] >= 0 for r in by_lead), "the best threshold never loses to never draining: at worst it "
                                                "does not drain")


def check_restart(g: SimpleNamespace, same_restart: dict, symmetric: dict, by_restart: list,
                  published_saving: float) -> None:
    """The page's claims about the restart after a planned drain, the assumption the gain leans on most."""
    gain = g.at_best - g.never
    check(symmetric["gain"] > 0, "even a drain that restarts no faster than a crash gains a little")
    check(symmetric["gain"] < same_restart["gain"] < gain,
          "the gain is the lost work, plus skipping the hang, plus the faster restart: each adds to it")
    check(symmetric["gain"] < 0.5 * gain, "most of the gain is skipping the hang and the slow restart")
    check(symmetric["goodput_at_k_best"] < g.never, "the threshold chosen for the fast restart loses to never "
                                                    "draining if a drain restarts as slowly as a crash")
    check(all(a["gain"] >= b["gain"] for a, b in zip(by_restart, by_restart[1:], strict=False)),
          "the slower the restart after a drain, the smaller the gain")
    check(all(a["k_best"] <= b["k_best"] for a, b in zip(by_restart, by_restart[1:], strict=False)),
          "a slower drain restart calls for a higher threshold")
    check(all(0.0 < r["covered_saved"] < 1.0 for r in [*by_restart, symmetric]),
          "draining wins back part, never all, of the time the covered failures cost")
    check(symmetric["covered_saved"] < published_saving < by_restart[0]["covered_saved"],
          "the published predictor's saving lies inside the range the restart table spans")


def check_thresholds(roc: SimpleNamespace, g: SimpleNamespace, sens_cov: list, by_bg: list, coverage: float,
                     mean_lead: float, burst_interval: float, background_interval: float, window: float) -> None:
    """The page's claims about the thresholds: what waiting for more signals buys and costs."""
    false_rate, best = roc.false_rate, g.best
    check(np.all(false_rate[:-1] >= (background_interval / window) * false_rate[1:] * (1 - 1e-9)),
          "every extra error the rule waits for divides the false-drain rate by at least b_h/W")
    check(mean_lead / (mean_lead + burst_interval) > 0.9, "while the caught share loses only a few percent")
    check(g.any < g.never, "draining at any signal costs more goodput than it saves")
    check(roc.healthy_per_day[0] > roc.crashes_per_day, "draining at any signal pulls more healthy nodes a day than "
                                                        "the job has failures")
    check(g.at_best > g.never, "the best threshold beats never draining")
    check(g.perfect < 0.95, "a perfect predictor stays below 95% goodput (the figure's upper edge)")
    check(g.k_best > 1, "the best threshold waits for more than one signal")
    check(roc.healthy_per_day[best] < roc.caught_per_day[best], "at the best threshold, fewer healthy nodes are "
                                                                "drained than failing ones")
    check(roc.caught[best] < coverage, "no threshold catches more than the coverage")
    check(all(a["k_best"] >= b["k_best"] for a, b in zip(by_bg, by_bg[1:], strict=False)),
          "a noisier fleet needs a higher threshold")
    check(all(r["goodput_any"] < g.never for r in by_bg[:-1]),
          "on every fleet noisier than the quietest compared, draining at any signal loses to never draining")
    check(by_bg[-1]["goodput_any"] < by_bg[-1]["goodput"], "on the quietest, draining at any error still falls "
                                                           "short of that fleet's best threshold")
    check(all(r["gain"] > 0 for r in by_bg), "at every background rate compared, the best threshold beats "
                                             "never draining")
    check(all(s["gain"] >= 0 for s in sens_cov), "across the assumed coverages, the best threshold never loses "
                                                 "to never draining")


def monte_carlo(rel: SimpleNamespace, roc: SimpleNamespace, k_best: int, coverage: float, burst_interval: float,
                mean_lead: float, background_interval: float, window: float, trials: int, mc_nodes: int,
                mc_span: float, rng: np.random.Generator) -> list[dict]:
    """Seeded simulations of the caught share, the false-drain rate and the series formula, each checked."""
    mc = []
    for k in (1, k_best, min(k_best + 2, MAX_THRESHOLD)):  # bounded: three thresholds
        m, se = simulate_caught(k, coverage, burst_interval, mean_lead, roc.drain_time, trials, rng)
        exact = float(caught_share(k, coverage, burst_interval, mean_lead, roc.drain_time))
        mc.append({"k": k, "what": "caught share", "mc": m, "se": se, "analytic": exact})
    for k in (1, 2):  # background crossings: frequent enough to count in a small simulation
        m, se = simulate_false_drains(k, background_interval, window, mc_nodes, mc_span, rng)
        mc.append({"k": k, "what": "healthy drains per node-day", "mc": m * DAY, "se": se * DAY,
                   "analytic": float(false_drain_rate(k, background_interval, window)) * DAY})
    m, se = simulate_series(rel.m_node, 64, 20_000, rng)
    mc.append({"k": 0, "what": "MTBF of 64 nodes (days)", "mc": m / DAY, "se": se / DAY,
               "analytic": float(series_mtbf(rel.m_node, 64)) / DAY})
    for r in mc:
        check(abs(r["mc"] - r["analytic"]) <= Z_CHECK * r["se"] + 1e-12,
              "the Monte Carlo agrees with the analytic value within its confidence interval")
    return mc


def spares_for(nodes: int, mtbf: float, repair: float, target: float, field: str, value) -> int:
    """spares_needed, or a ParamError naming `field` when no pool up to the job's size reaches the target."""
    s = spares_needed(nodes, mtbf, repair, target)
    if s is None:  # e.g. a node down more often than up: then no pool of any size keeps all n nodes up
        raise ParamError(field, value, f"short enough that a pool of at most one spare per node ({nodes}) gives "
                         f"availability {target:g} (a node here fails every {fmt_seconds(mtbf)}: the record's "
                         "interruptions over the job's GPUs)")
    return s


def hot_spares(rel: SimpleNamespace, false_rate_best: float, repair_time: float, repair_sweep, verify_time: float,
               target_availability: float, max_spares: int) -> SimpleNamespace:
    """Availability and usable capacity against spares, the spares each repair time needs, with and without
    the healthy nodes the best threshold drains."""
    nodes, m_node = rel.nodes, rel.m_node
    spares = np.arange(0, max_spares + 1)
    m_node_drain = 1.0 / (1.0 / m_node + false_rate_best)  # node leaves service by failure or drain
    repair_mix = (repair_time / m_node + verify_time * false_rate_best) * m_node_drain
    curves_by_repair = {}
    need = []
    for i, r in enumerate(repair_sweep):  # bounded
        curves_by_repair[f"avail_r{i}"] = spare_availability(nodes, spares, m_node, r)
        curves_by_repair[f"usable_r{i}"] = usable_capacity(nodes, spares, m_node, r)
        need.append({"repair": float(r),
                     "spares": spares_for(nodes, m_node, r, target_availability, "repair_sweep", list(repair_sweep)),
                     "down_nodes": float(nodes * down_probability(m_node, r))})
    s_need = spares_for(nodes, m_node, repair_time, target_availability, "repair_time", repair_time)
    # the drained healthy nodes' burn-in is what this pool adds to the one above
    s_need_drain = spares_for(nodes, m_node_drain, repair_mix, target_availability, "verify_time", verify_time)
    avail_none = float(spare_availability(nodes, 0, m_node, repair_time))
    down_nodes = float(nodes * down_probability(m_node, repair_time))
    check(avail_none < 0.01, "without spares the job almost never has all its nodes")
    check(s_need > down_nodes, "the spares needed exceed the nodes down on average")
    check(all(a["spares"] <= b["spares"] for a, b in zip(need, need[1:], strict=False))
          or sorted(repair_sweep) != list(repair_sweep), "longer repairs need more spares")
    check(s_need_drain >= s_need, "drained healthy nodes never reduce the spares needed")
    check(s_need / (nodes + s_need) < 0.02, "the spare pool is a small share of the job")
    return SimpleNamespace(spares=spares, curves=curves_by_repair, need=need, needed=s_need,
                           needed_drain=s_need_drain, avail_none=avail_none, down_nodes=down_nodes)


def page_summary(rel: SimpleNamespace, roc: SimpleNamespace, g: SimpleNamespace, spare: SimpleNamespace,
                 sens_cov: list, by_bg: list, gpus: int, mean_lead: float, burst_interval: float,
                 background_interval: float, window: float) -> dict:
    """The numbers the page quotes."""
    best = g.best
    return {
        "gpu_mtbf": rel.m_gpu,
        "node_mtbf": rel.m_node,
        "rack_mtbf": rel.m_rack,
        "job_mtbf": rel.m_job,
        "nodes": rel.nodes,
        "llama_rate": rel.llama_rate,
        "rsc1_job_mtbf": rel.m_job_rsc1,
        "rsc2_job_mtbf": rel.m_job_rsc2,
        "crashes_per_day": roc.crashes_per_day,
        "checkpoint_cost": roc.delta,
        "drain_time": roc.drain_time,
        "window_miss_limit": WINDOW_MISS_LIMIT,
        "burst_factor": mean_lead / (mean_lead + burst_interval),
        "lead_factor": math.exp(-roc.drain_time / mean_lead),
        "background_mean": window / background_interval,
        "caught_any": float(roc.caught[0]),
        "healthy_any_per_day": float(roc.healthy_per_day[0]),
        "k_best": g.k_best,
        "caught_best": float(roc.caught[best]),
        "caught_best_per_day": float(roc.caught_per_day[best]),
        "healthy_best_per_day": float(roc.healthy_per_day[best]),
        "goodput_never": g.never,
        "goodput_any": g.any,
        "goodput_best": g.at_best,
        "goodput_perfect": g.perfect,
        "gpu_hours_per_day_gain": (g.at_best - g.never) * gpus * 24.0,
        "tau_never": g.tau_never,
        "tau_best": g.tau_best,
        "spares_needed": spare.needed,
        "spares_needed_drain": spare.needed_drain,
        "down_nodes": spare.down_nodes,
        "availability_no_spares": spare.avail_none,
        "cov_gain_min": min(s["gain"] for s in sens_cov),
        "quiet_goodput_any": by_bg[-1]["goodput_any"],
        "quiet_interval": by_bg[-1]["background_interval"],
        "noisy_interval": by_bg[0]["background_interval"],
        "noisy_k_best": by_bg[0]["k_best"],
        "quiet_k_best": by_bg[-1]["k_best"],
        "cov_gain_max": max(s["gain"] for s in sens_cov),
    }


def restart_summary(g: SimpleNamespace, same_restart: dict, symmetric: dict, by_restart: list, coverage: float,
                    precursor_interruptions: list, interruptions: int) -> dict:
    """The numbers the page quotes about the calibrated coverage and the drain restart."""
    hbm, network = precursor_interruptions
    return {
        "coverage": coverage,
        "hbm_share": hbm / interruptions,
        "network_share": network / interruptions,
        "network_node_part": coverage - hbm / interruptions,  # the node-side network faults' share of the record
        "gain_best": g.at_best - g.never,
        "symmetric_k_best": symmetric["k_best"],
        "symmetric_goodput": symmetric["goodput"],
        "symmetric_gain": symmetric["gain"],
        "symmetric_goodput_at_k_best": symmetric["goodput_at_k_best"],
        "covered_saved_best": covered_loss_saved(g.at_best - g.never, coverage, g.never),
        "covered_saved_symmetric": symmetric["covered_saved"],
        "covered_saved_perfect": covered_loss_saved(g.perfect - g.never, coverage, g.never),
        "restart_gain_share": 1.0 - symmetric["gain"] / (g.at_best - g.never),
        # R_d = R_r: the drain skips the hang, restarts no faster than a crash
        "same_restart_k_best": same_restart["k_best"],
        "same_restart_goodput": same_restart["goodput"],
        "same_restart_gain": same_restart["gain"],
        "same_restart_covered_saved": same_restart["covered_saved"],
        "same_restart_goodput_at_k_best": same_restart["goodput_at_k_best"],
        "same_restart_caught": same_restart["caught"],
        "same_restart_healthy_per_day": same_restart["healthy_per_day"],
        "same_restart_share": same_restart["gain"] / (g.at_best - g.never),
        # the headline gain in three steps: the lost work (R_d = R_c), skipping the hang (R_d = R_r), the
        # faster restart (R_d as on the page)
        "part_lost_work": symmetric["gain"],
        "part_hang": same_restart["gain"] - symmetric["gain"],
        "part_restart": (g.at_best - g.never) - same_restart["gain"],
        "fastest_restart_gain": by_restart[0]["gain"],
        "slow_restart": by_restart[-1]["drain_restart"],
        "slow_restart_gain": by_restart[-1]["gain"],
        "slow_restart_k_best": by_restart[-1]["k_best"],
    }


def figure_series(rel: SimpleNamespace, roc: SimpleNamespace, g: SimpleNamespace, bg_curves: dict,
                  spare: SimpleNamespace) -> dict:
    """MTBF against cluster size, the threshold sweep, and availability against spares."""
    return {
        **curves("cluster_gpus", rel.cluster_gpus,
                 mtbf_llama=series_mtbf(rel.m_node, rel.cluster_nodes),
                 mtbf_rsc1=series_mtbf(rel.m_node_rsc1, rel.cluster_nodes),
                 mtbf_rsc2=series_mtbf(rel.m_node_rsc2, rel.cluster_nodes)),
        **curves("threshold", roc.ks, caught=roc.caught, healthy_per_day=roc.healthy_per_day, goodput=g.by_k,
                 **bg_curves),
        **curves("spares", spare.spares, **spare.curves),
    }


def animation_plan(animation_nodes: int, k_best: int, seed: int, burst_interval: float, drain_time: float,
                   mean_lead: float, window: float, background_interval: float) -> dict:
    """A row of nodes; one node's counter climbs to k (the page's conservative threshold), it is drained, a
    spare comes in (its own seeded draws). First, each node's failures over one node MTBF, in units of it:
    the row's failures together are the job's, so the rates visibly add."""
    n_anim = int(animation_nodes)
    arng = np.random.default_rng(seed + 1)
    arrivals = np.sort(arng.exponential(burst_interval, k_best + 2).cumsum())
    # up to 3 failures per node within one MTBF: P(a 4th within it) = P(Poisson(1) ≥ 4) ≈ 2%, a drawing's cap
    fails = arng.exponential(1.0, (n_anim, 3)).cumsum(axis=1)
    ticks = sorted((float(t), i) for i in range(n_anim) for t in fails[i] if t < 1.0)
    return {
        "failure_ticks": [t for t, _ in ticks],
        "failure_nodes": [i for _, i in ticks],
        "drain_time": float(drain_time),
        "nodes": n_anim,
        "failing": n_anim // 2,
        "falsely_drained": 1,  # a healthy node that reaches k by chance
        "k_best": k_best,
        "signal_times": [float(t) for t in arrivals],
        "drain_at": float(arrivals[k_best - 1]),
        "crash_at": float(arrivals[k_best - 1] + drain_time + arng.exponential(mean_lead)),
        "background_counts": [int(x) for x in arng.poisson(window / background_interval, n_anim)],
    }


def threshold_table(roc: SimpleNamespace, g: SimpleNamespace) -> Table:
    """The thresholds up to two past the best (at least five): caught, drained a day (failing and healthy),
    goodput. Past those, healthy drains fall to millionths a day, which a table row reads poorly."""
    rows = max(5, g.k_best + 2)
    return Table(
        "The drain threshold k: share of failures caught in time, failing and healthy nodes drained a day "
        "across the job, and goodput (the first row's goodput drops below never draining's)",
        [Column("threshold k (signals in the window)", "count"), Column("failures caught in time", "%"),
         Column("failing nodes drained per day", "1"), Column("healthy nodes drained per day", "1"),
         Column("goodput", "%")],
        [[int(k), float(c), float(cd), float(h), float(gk)]
         for k, c, cd, h, gk in zip(roc.ks[:rows], roc.caught, roc.caught_per_day, roc.healthy_per_day, g.by_k,
                                    strict=False)],
    )


# --- the scene's data ------------------------------------------------------------------------


@model(
    observation_window=Param.positive("s", "length of the run's failure record"),
    interruptions=Param.integer("count", "unexpected interruptions in that record", minimum=1),
    gpus=Param.integer("count", "GPUs in the job", minimum=8, maximum=10_000_000),
    gpus_per_node=Param.integer("count", "GPUs per node"),
    rack_gpus=Param.integer("count", "GPUs per NVL72 rack (one NVLink domain)"),
    rsc1_rate=Param.positive("1", "failures per 1000 node-days, Meta research cluster RSC-1"),
    rsc2_rate=Param.positive("1", "failures per 1000 node-days, Meta research cluster RSC-2"),
    reported_mttf_16k=Param.positive("s", "published MTTF projection for a 16,384-GPU job (RSC-1)"),
    model_params=Param.positive("count", "model parameters"),
    weight_bytes=Param.positive("B", "bytes per parameter, 16-bit weights"),
    optimizer_bytes=Param.number("B", "bytes per parameter, optimizer state", minimum=0),
    checkpoint_bandwidth=Param.positive("B/s", "checkpoint write bandwidth, aggregate"),
    checkpoint_sweep=Param.numbers("s", "slower checkpoint writes δ compared (assumed)", above=0.0),
    reported_effective_time=Param.fraction("effective training time the record's run reports, at least"),
    hbm_interruptions=Param.integer("count", "the record's GPU HBM3 memory interruptions", minimum=0),
    network_interruptions=Param.integer("count", "the record's network switch/cable interruptions", minimum=0),
    faulty_gpu_interruptions=Param.integer("count", "the record's faulty-GPU interruptions (no warning read here)",
                                           minimum=0),
    network_node_share=Param.fraction("share of the network switch/cable interruptions on a node's own side of a "
                                      "link, which a drain avoids (assumed)"),
    network_node_share_sweep=Param.numbers("1", "node-side shares of the network interruptions compared (ascending)",
                                           minimum=0.0),
    coverage_sweep=Param.numbers("1", "coverages compared (assumed range)", minimum=0.0),
    mean_lead=Param.positive("s", "mean lead time from burst start to crash (assumed)"),
    lead_sweep=Param.numbers("s", "mean lead times compared (assumed range, ascending)", above=0.0),
    burst_interval=Param.positive("s", "mean time between signals during a burst (assumed)"),
    background_interval=Param.positive("s", "mean time between signals on a healthy node (assumed)"),
    background_sweep=Param.numbers("s", "background intervals compared (assumed range)", above=0.0),
    background_cluster_size=Param.number("count", "mean errors per cluster in the clustered-background row "
                                                  "(assumed)", minimum=1),
    window=Param.positive("s", "counting window W"),
    health_check_period=Param.positive("s", "health-check period (time to notice the k-th signal)"),
    detection_time=Param.number("s", "time a crash goes undetected, the job hung, T_det", minimum=0),
    detection_sweep=Param.numbers("s", "detection times compared (ascending)", minimum=0.0),
    crash_restart=Param.number("s", "restart after a crash is detected, R_r (assumed)", minimum=0),
    crash_restart_sweep=Param.numbers("s", "crash restarts compared (published bounds, ascending)", above=0.0),
    drain_restart=Param.number("s", "restart on a spare after a planned drain R_d (assumed)", minimum=0),
    drain_restart_sweep=Param.numbers("s", "drain restarts compared (assumed range, ascending)", minimum=0.0),
    published_saving=Param.fraction("share of the lost compute time a published memory-error predictor saved"),
    repair_time=Param.positive("s", "repair time of a failed node (assumed)"),
    repair_sweep=Param.numbers("s", "repair times compared", above=0.0),
    verify_time=Param.positive("s", "time a drained healthy node spends in verification (assumed)"),
    target_availability=Param.fraction("availability the spare pool must reach"),
    max_spares=Param.integer("count", "largest spare count the figure draws", minimum=4, maximum=4096),
    seed=Param.integer("1", "random seed", minimum=0, animation=True),
    trials=Param.integer("count", "Monte Carlo failing nodes per threshold", minimum=1000, maximum=2_000_000),
    mc_nodes=Param.integer("count", "Monte Carlo healthy nodes", minimum=10, maximum=10_000),
    mc_span=Param.positive("s", "Monte Carlo time per healthy node"),
    animation_nodes=Param.integer("count", "nodes drawn in the animation", minimum=4, maximum=12, animation=True),
)
def predictive_draining(observation_window: float, interruptions: int, gpus: int, gpus_per_node: int,
                        rack_gpus: int, rsc1_rate: float, rsc2_rate: float, reported_mttf_16k: float,
                        model_params: float, weight_bytes: float, optimizer_bytes: float,
                        checkpoint_bandwidth: float, checkpoint_sweep: list, reported_effective_time: float,
                        hbm_interruptions: int, network_interruptions: int, faulty_gpu_interruptions: int,
                        network_node_share: float, network_node_share_sweep: list,
                        coverage_sweep: list,
                        mean_lead: float, lead_sweep: list,
                        burst_interval: float, background_interval: float, background_sweep: list,
                        background_cluster_size: float,
                        window: float, health_check_period: float, detection_time: float,
                        detection_sweep: list, crash_restart: float, crash_restart_sweep: list,
                        drain_restart: float, drain_restart_sweep: list,
                        published_saving: float, repair_time: float, repair_sweep: list,
                        verify_time: float, target_availability: float,
                        max_spares: int, seed: int = 19, trials: int = 200_000, mc_nodes: int = 400,
                        mc_span: float = 2_000 * DAY, animation_nodes: int = 8) -> Exhibit:
    """predictive-draining's data: series reliability, the drain-threshold ROC and goodput, and hot spares."""
    if gpus % gpus_per_node:
        raise ParamError("gpus_per_node", gpus_per_node, f"a divisor of the GPUs ({gpus})")
    if any(f > 1.0 for f in coverage_sweep):
        raise ParamError("coverage_sweep", coverage_sweep, "shares in [0, 1]")
    precursor_interruptions = [hbm_interruptions, network_interruptions]
    if hbm_interruptions + network_interruptions + faulty_gpu_interruptions > interruptions:
        raise ParamError("hbm_interruptions", hbm_interruptions,
                         f"with the network and faulty-GPU counts, at most {interruptions} in all")
    if any(x > 1.0 for x in network_node_share_sweep) or list(network_node_share_sweep) != sorted(
            network_node_share_sweep):
        raise ParamError("network_node_share_sweep", network_node_share_sweep, "ascending shares in [0, 1]")
    # an unpredicted crash costs the time the job hangs before the failure is noticed plus the restart;
    # a planned drain skips the first and pays only its own restart
    crash_cost = detection_time + crash_restart
    if list(drain_restart_sweep) != sorted(drain_restart_sweep) or max(drain_restart_sweep) > crash_cost:
        raise ParamError("drain_restart_sweep", drain_restart_sweep, f"ascending, at most R_c = {crash_cost} s")
    if list(lead_sweep) != sorted(lead_sweep):
        raise ParamError("lead_sweep", lead_sweep, "ascending")
    if list(crash_restart_sweep) != sorted(crash_restart_sweep):
        raise ParamError("crash_restart_sweep", crash_restart_sweep, "ascending")
    if list(detection_sweep) != sorted(detection_sweep):
        raise ParamError("detection_sweep", detection_sweep, "ascending")
    if reported_effective_time <= 0:  # the consistent crash cost is M·ln(E₀/target): a share above zero
        raise ParamError("reported_effective_time", reported_effective_time, "a share above 0")
    hbm, network = precursor_interruptions
    # a drain acts on the node's own faults: HBM3, and the network faults on its side of a link (assumed share)
    coverage = node_side_coverage(hbm, network, network_node_share, interruptions)
    rng = np.random.default_rng(seed)
    rel = series_reliability(observation_window, interruptions, gpus, gpus_per_node, rack_gpus, rsc1_rate,
                             rsc2_rate, reported_mttf_16k)
    delta = checkpoint_cost(checkpoint_bytes(model_params, weight_bytes, optimizer_bytes), checkpoint_bandwidth)
    roc = threshold_roc(rel, delta, health_check_period, coverage, burst_interval, mean_lead, background_interval,
                        window)
    g = threshold_goodput(rel, roc, coverage, crash_cost, drain_restart)
    sens_cov, sens_bg, bg_curves = threshold_sensitivity(rel, roc, g, coverage_sweep, background_sweep,
                                                         burst_interval, mean_lead, window, crash_cost,
                                                         drain_restart)
    by_bg = sorted(sens_bg, key=lambda r: r["background_interval"])
    for row in sens_cov:  # the coverage table's conservative column: a drain restarts no faster than a crash
        row["k_best_same"], row["gain_same"] = coverage_gain(rel, roc, g, row["coverage"], burst_interval, mean_lead,
                                                             crash_cost, min(crash_restart, crash_cost))
    by_restart, same_restart, symmetric = restart_sensitivity(rel, roc, g, crash_cost, drain_restart_sweep,
                                                              coverage, min(crash_restart, crash_cost))
    check_restart(g, same_restart, symmetric, by_restart, published_saving)
    # the record the page calibrates on reports an effective training time above `reported_effective_time`:
    # never draining at the page's crash cost should reach it, and the largest crash cost that does
    # (goodput at the optimum is E₀·e^{−R_c/M}, so that R_c is M·ln(E₀/target): negative when none does)
    max_rc = restart_for_efficiency(reported_effective_time, delta, rel.m_job)
    check(g.never >= reported_effective_time, "never draining at the page's crash cost is consistent with the "
                                              "record's reported effective training time")
    by_delta = checkpoint_sensitivity(rel, [delta, *checkpoint_sweep], health_check_period, coverage,
                                      burst_interval, mean_lead, background_interval, window, crash_cost,
                                      drain_restart, min(crash_restart, crash_cost), reported_effective_time)
    check(all(r["gain"] > 0 and r["gain_same"] > 0 for r in by_delta),
          "at every checkpoint write compared the best threshold beats never draining")
    check(all(a["goodput_never"] > b["goodput_never"] and a["gain"] <= b["gain"] and a["gain_same"] <= b["gain_same"]
              for a, b in zip(by_delta, by_delta[1:], strict=False)),
          "a longer write lowers never draining's goodput and leaves a drain more to win")
    # F(k) counts up-crossings of the count in the window: it holds while a healthy node's count sits
    # below k, not for a log so noisy that its mean count W/b_h reaches the threshold (the node would sit
    # above it): the signals must be filtered, thresholded events
    noisiest = by_bg[0]
    check(window / noisiest["background_interval"] < noisiest["k_best"] - 1,
          "even on the noisiest fleet compared a healthy node's mean count stays below the threshold")
    by_lead = lead_sensitivity(rel, roc, g, lead_sweep, coverage, burst_interval, crash_cost, drain_restart,
                               min(crash_restart, crash_cost))
    check_lead(by_lead, g, mean_lead)
    joint = joint_sensitivity(rel, roc, g, coverage, coverage_sweep, mean_lead, lead_sweep, burst_interval,
                              crash_cost, drain_restart, min(crash_restart, crash_cost))
    by_crash = crash_restart_sensitivity(rel, roc, [(detection_time, r) for r in crash_restart_sweep], drain_restart)
    check(all(a["gain"] <= b["gain"] for a, b in zip(by_crash, by_crash[1:], strict=False)),
          "the slower a crash restarts, the more a fast drain gains")
    by_detect = crash_restart_sensitivity(rel, roc, [(t, crash_restart) for t in detection_sweep], drain_restart)
    check(all(a["gain"] <= b["gain"] for a, b in zip(by_detect, by_detect[1:], strict=False)),
          "the longer a crash goes unnoticed, the more a drain gains")
    check(by_detect[0]["gain_symmetric"] <= same_restart["gain"] or by_detect[0]["detection"] > detection_time,
          "a crash noticed at once leaves the headline's drain less: part of the headline is the assumed hang")
    check(by_detect[0]["gain_symmetric"] < 0.5 * same_restart["gain"] or by_detect[0]["detection"] > 0.0,
          "most of the headline is the assumed hang: a crash noticed at once leaves less than half")
    check(by_detect[-1]["goodput_never"] < reported_effective_time <= g.never,
          "waiting out the longest detection compared (PyTorch's default) falls short of the record's effective "
          "training time: a worst case, not the page's value")
    grid = gain_grid(rel, roc, coverage, burst_interval, sorted({*detection_sweep, detection_time}),
                     sorted({*crash_restart_sweep, crash_restart}), drain_restart_sweep, lead_sweep,
                     reported_effective_time)
    check(grid["grid_gain_min"] <= min(r["gain"] for r in by_lead) and grid["grid_gain_max"] >= g.at_best - g.never,
          "the grid's range holds the lead-time table's and the headline's gains")
    by_share = network_share_sensitivity(rel, roc, g, hbm, network, interruptions, network_node_share_sweep,
                                         burst_interval, mean_lead, crash_cost, drain_restart,
                                         min(crash_restart, crash_cost))
    check_thresholds(roc, g, sens_cov, by_bg, coverage, mean_lead, burst_interval, background_interval, window)
    mc = monte_carlo(rel, roc, g.k_best, coverage, burst_interval, mean_lead, background_interval, window, trials,
                     mc_nodes, mc_span, rng)
    spare = hot_spares(rel, float(roc.false_rate[g.best]), repair_time, repair_sweep, verify_time,
                       target_availability, max_spares)
    # background errors in clusters (compound Poisson, same mean rate): the best k and its gain at both restarts
    fr_cl = clustered_false_drain_rate(roc.ks, background_interval, window, background_cluster_size)
    clustered = {"clustered_mean_count": window / background_interval, "clustered_k_max": MAX_THRESHOLD}
    for tag, r_d in (("", drain_restart), ("_same", min(crash_restart, crash_cost))):
        g_cl = drain_goodput(roc.caught, fr_cl, rel.nodes, rel.m_node, delta, crash_cost, r_d)
        clustered[f"clustered_k_best{tag}"] = int(roc.ks[np.argmax(g_cl)])
        clustered[f"clustered_gain{tag}"] = float(g_cl.max() - g.never)
        # no threshold swept beats never draining: the page says so rather than quote a loss
        clustered[f"clustered_never{tag}"] = bool(g_cl.max() <= g.never)
    # the row above clusters only a healthy node's errors and counts every one; the symmetric row clusters every
    # node's errors, a failing node's burst too, and the check counts clusters (errors landing together count
    # once, a debounce): both streams become Poisson at 1/m of the error rate, c(k) with b_s·m, F(k) with b_h·m
    m_cl = background_cluster_size
    c_deb = caught_share(roc.ks, coverage, burst_interval * m_cl, mean_lead, roc.drain_time)
    f_deb = false_drain_rate(roc.ks, background_interval * m_cl, window)
    clustered["debounced_window_miss"] = float(window_miss(roc.ks, burst_interval * m_cl, window).max())
    for tag, r_d in (("", drain_restart), ("_same", min(crash_restart, crash_cost))):
        g_deb = drain_goodput(c_deb, f_deb, rel.nodes, rel.m_node, delta, crash_cost, r_d)
        clustered[f"debounced_k_best{tag}"] = int(roc.ks[np.argmax(g_deb)])
        clustered[f"debounced_gain{tag}"] = float(g_deb.max() - g.never)
    check(clustered["debounced_gain_same"] >= 0.0, "a check that counts clusters never loses to never draining: at "
                                                   "worst it does not drain")
    check(clustered["debounced_window_miss"] < WINDOW_MISS_LIMIT,
          "the window still holds a burst's first k clusters")
    check(clustered["debounced_gain_same"] > 0.5 * same_restart["gain"]
          and clustered["debounced_gain"] > 0.5 * (g.at_best - g.never),
          "a check that debounces keeps most of the gain")
    # the ceiling on the coverage: every faulty-GPU interruption warns too (the page has no source that any does)
    f_max = coverage + faulty_gpu_interruptions / interruptions
    ceiling = {"faulty_gpu_share": faulty_gpu_interruptions / interruptions, "ceiling_coverage": f_max}
    for tag, r_d in (("", drain_restart), ("_same", min(crash_restart, crash_cost))):
        ceiling[f"ceiling_k_best{tag}"], ceiling[f"ceiling_gain{tag}"] = coverage_gain(
            rel, roc, g, f_max, burst_interval, mean_lead, crash_cost, r_d)
    return Exhibit(
        summary={**page_summary(rel, roc, g, spare, sens_cov, by_bg, gpus, mean_lead, burst_interval,
                                background_interval, window),
                 **restart_summary(g, same_restart, symmetric, by_restart, coverage, precursor_interruptions,
                                   interruptions),
                 "noisiest_background_mean": window / by_bg[0]["background_interval"],
                 "consistent_crash_cost_max": max_rc,
                 "consistent_detection_max": max_rc - crash_restart,
                 "default_timeout_goodput_never": by_detect[-1]["goodput_never"],
                 "short_lead_gain_ratio": by_lead[0]["gain"] / (g.at_best - g.never)
                 if g.at_best > g.never else 0.0,
                 **grid, "crash_cost": crash_cost,
                 # the coverage's two ends: HBM3 alone, and every network switch/cable interruption counted
                 **{f"{name}_gain{tag}": coverage_gain(rel, roc, g, f, burst_interval, mean_lead, crash_cost, r_d)[1]
                    for name, f in (("hbm_only", hbm / interruptions),
                                    ("all_network", calibrated_coverage(precursor_interruptions, interruptions)))
                    for tag, r_d in (("", drain_restart), ("_same", min(crash_restart, crash_cost)))},
                 "all_network_coverage": calibrated_coverage(precursor_interruptions, interruptions),
                 # the gain's floor and ceiling when the coverage and the lead time go wrong (right) together
                 "joint_low_gain": joint[0]["gain"], "joint_low_gain_same": joint[0]["gain_same"],
                 "joint_high_gain": joint[-1]["gain"], "joint_high_gain_same": joint[-1]["gain_same"],
                 "short_lead": by_lead[0]["mean_lead"], "short_lead_gain_same": by_lead[0]["gain_same"],
                 "fast_crash_gain": by_crash[0]["gain"], "slow_crash_gain": by_crash[-1]["gain"],
                 "fast_detection_gain": by_detect[0]["gain"], "slow_detection_gain": by_detect[-1]["gain"],
                 # the headline's drain (R_d = R_r) when a crash is noticed at once: with no hang, R_c = R_r = R_d,
                 # the detection table's first row, last column; the headline without its assumed hang
                 "instant_detection": by_detect[0]["detection"],
                 "instant_detection_gain_same": by_detect[0]["gain_symmetric"],
                 "instant_detection_k_best_same": by_detect[0]["k_best_symmetric"],
                 # the k = 1 rule's drains next to the background signals it reacts to: every healthy node's
                 # errors a day, n·DAY/b_h, of which it drains at those that follow a quiet window
                 "background_signals_per_day": rel.nodes * DAY / background_interval,
                 **clustered, **ceiling},
        series=figure_series(rel, roc, g, {**bg_curves, "goodput_symmetric": symmetric["curve"],
                                               "goodput_same": same_restart["curve"]}, spare),
        table=threshold_table(roc, g),
        # the animation draws the page's conservative threshold (a drain that restarts as a crash does)
        animation=animation_plan(animation_nodes, same_restart["k_best"], seed, burst_interval, roc.drain_time,
                                 mean_lead, window, background_interval),
        problems={"coverage": sens_cov, "repair": spare.need},
        records={
            "monte_carlo": mc,
            "coverage_sensitivity": sens_cov,
            "network_share_sensitivity": by_share,
            "restart_sensitivity": by_restart,
            "lead_sensitivity": by_lead,
            "joint_sensitivity": joint,
            "crash_restart_sensitivity": by_crash,
            "detection_sensitivity": by_detect,
            "checkpoint_sensitivity": by_delta,
            "background_sensitivity": sens_bg,
            "spares_by_repair": spare.need,
            "coverage_sweep": [float(f) for f in coverage_sweep],
            "background_sweep": [float(b) for b in background_sweep],
            "repair_sweep": [float(r) for r in repair_sweep],
        },
    )


__all__ = [
    "series_mtbf_of", "failures_per_1000_node_days", "caught_share", "false_drain_rate", "window_miss",
    "clustered_false_drain_rate", "drain_goodput", "covered_loss_saved", "spares_needed", "simulate_caught",
    "simulate_false_drains",
    "simulate_series", "predictive_draining",
]
