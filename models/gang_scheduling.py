"""Gang scheduling: why a distributed job cannot start on part of its GPUs.

A seeded discrete-event simulation of a GPU cluster over a job trace drawn
from the Microsoft Philly study (Jeon et al., ATC '19), under three policies:

* greedy, an idealised round-robin: no gang admission. GPUs are handed out one at
  a time, round-robin over all waiting jobs in queue order, so every waiting job
  gets a share before any is complete (no real scheduler interleaves this evenly;
  the realistic pod-by-pod case is `simulate_pods` below). It is the worst case of
  *this* policy, not a bound on partial allocation: the pod-by-pod run without a
  timeout holds more GPUs idle on the page's seed. A job runs only once it holds
  all its GPUs; until then the GPUs it holds sit idle. A set of waiting jobs
  that hold GPUs, none of which can ever get enough (each needs more than is
  free or running), is a deadlock. On the trace greedy runs with no recovery,
  so its first total deadlock (nothing running) stops it for good. Kueue's
  `waitForPodsReady` is modelled too (used in the two-job example): a job not
  fully running `timeout` seconds after it first got GPUs is evicted and
  requeued after min(base·2^(n−1)·(1 + 0.0001·U), max), ordered by its
  eviction time. Note: once the delay reaches the cap, the min() removes the
  jitter, so jobs evicted at the same instant come back at the same instant;
  in this idealised model (no timing noise) an overloaded trace can then
  livelock, which the event budget catches. That is why the trace runs
  greedy without the timeout.
* gang: all-or-nothing admission, strict first come first served: the head of
  the queue starts when all its GPUs are free; nobody passes it.
* gang + EASY backfill (Lifka 1995; Mu'alem & Feitelson 2001): the head gets
  a reservation at the earliest time enough GPUs will be free (the shadow
  time); a later job may start now if it fits and either ends by the shadow
  time or uses only GPUs the head will not need (the extra GPUs). Run times
  are known exactly here (perfect estimates), an assumption stated on the page.

* pods (`simulate_pods`), the realistic case: whole-node pods placed by
  kube-scheduler's queue order (PrioritySort: the pod's queue timestamp, reset
  each time it fails) and per-pod backoff, Kueue admitting every job (quota
  above capacity), with or without waitForPodsReady.

Also: P(a gang of n nodes can start) = P(Binomial(n + s, a) ≥ n) with s spare
nodes (aⁿ with none), and Kueue's requeue backoff sequence.

Every loop is bounded: the event loop stops with BoundExceeded past
MAX_EVENTS_PER_JOB events per job. Units: seconds, GPUs (count).
"""

from __future__ import annotations

import bisect
import heapq
import math

import numpy as np

from models.exhibit import Column, Exhibit, Param, ParamError, Table, check, curves, model
from models.lib.sweeps import including
from models.units import HOUR, MINUTE

POLICIES = ("greedy", "gang", "backfill")
POLICY_LABELS = {"greedy": "greedy partial allocation, idealised round-robin (no timeout)",
                 "gang": "all-or-nothing gang admission (FIFO)",
                 "backfill": "gang admission + EASY backfill"}
REAL_LABELS = {"pods_none": "pod by pod, kube-scheduler order, no timeout",
               "pods": "pod by pod, kube-scheduler order, Kueue waitForPodsReady"}
MAX_EVENTS_PER_JOB = 5000
TIMELINE_BINS = 200  # bins of the figure's busy/idle time series
WAIT_QUANTILES = 201  # points of the figure's wait distribution
ROBUST_SEEDS = 4  # other seeds the claims are checked on
KUEUE_JITTER = 0.0001  # wait.Backoff Jitter in Kueue's requeue backoff (pkg/workload)
Z90 = 1.2815515655446004  # standard normal 90th percentile


class BoundExceeded(RuntimeError):
    """The simulation ran past its event budget."""


# --- Kueue's requeue backoff ----------------------------------------------------

def kueue_backoff(n: int, base: float, cap: float, jitter: float = 0.0, u: float = 0.0) -> float:
    """Seconds before the n-th requeue (n ≥ 1): min(base·2^(n−1)·(1 + jitter·u), cap)."""
    if n < 1:
        raise ValueError("requeue count starts at 1")
    if n > 64:  # 2^63 · base is far past any cap
        return float(cap)
    return float(min(base * 2.0 ** (n - 1) * (1.0 + jitter * u), cap))


def kueue_backoff_sequence(count: int, base: float, cap: float) -> list[float]:
    """The documented sequence without jitter: base, 2·base, 4·base, …, capped."""
    return [kueue_backoff(n, base, cap) for n in range(1, count + 1)]


# --- the gang's start probability --------------------------------------------------

def gang_start_probability(nodes, availability):
    """P(all n nodes available) = aⁿ, nodes independent."""
    return np.power(np.asarray(availability, dtype=float), np.asarray(nodes, dtype=float))


def gang_start_probability_spares(nodes: int, spares: int, availability: float) -> float:
    """P(at least n of n + s nodes available) = P(Binomial(n + s, a) ≥ n): a gang needs any n healthy
    nodes, not n particular ones, so s spare nodes absorb up to s failures."""
    total, q = int(nodes) + int(spares), 1.0 - float(availability)
    if q <= 0:
        return 1.0
    log_a, log_q = math.log(availability), math.log(q)
    terms = [math.lgamma(total + 1) - math.lgamma(k + 1) - math.lgamma(total - k + 1) + k * log_q
             + (total - k) * log_a for k in range(int(spares) + 1)]  # k failed nodes, k ≤ s
    return float(min(1.0, sum(math.exp(v) for v in terms)))


def availability_for(nodes: float, target: float) -> float:
    """The per-node availability a with aⁿ = target."""
    return float(target ** (1.0 / nodes))


# --- the trace ----------------------------------------------------------------------

def lognormal_params(median: float, p90: float) -> tuple[float, float]:
    """μ, σ of a lognormal with this median and 90th percentile."""
    if not p90 > median > 0:
        raise ValueError("need p90 > median > 0")
    return math.log(median), math.log(p90 / median) / Z90


def draw_trace(jobs: int, gpus: int, shares, sizes, medians, p90s, cap: float, load: float,
               rng: np.random.Generator) -> dict:
    """Job sizes, run times and Poisson arrivals for an offered load.

    Bucket b is drawn with probability shares[b]; its size uniformly from
    sizes[b]; its run time from a lognormal with the bucket's median and p90,
    capped at `cap`. Arrivals are Poisson with rate λ = load·G / mean(size·run)
    (the sampled mean), so the trace offers `load` of the cluster's capacity.
    """
    shares = np.asarray(shares, dtype=float) / np.sum(shares)
    bucket = rng.choice(len(shares), size=jobs, p=shares)
    size = np.empty(jobs, dtype=np.int64)
    run = np.empty(jobs)
    for b in range(len(shares)):
        idx = np.flatnonzero(bucket == b)
        size[idx] = rng.choice(np.asarray(sizes[b], dtype=np.int64), size=idx.size)
        mu, sigma = lognormal_params(medians[b], p90s[b])
        run[idx] = np.minimum(rng.lognormal(mu, sigma, size=idx.size), cap)
    rate = load * gpus / float(np.mean(size * run))
    submit = np.cumsum(rng.exponential(1.0 / rate, size=jobs))
    submit -= submit[0]
    return {"bucket": bucket, "size": size, "run": run, "submit": submit, "rate": rate}


# --- the simulation ---------------------------------------------------------------

class _Cluster:
    """The state of one simulation (the queue, who holds and runs what, the event heap, the integrals)
    and what each event and each policy does to it; `simulate` drives it."""

    def __init__(self, size: list[int], run: list[float], submit: list[float], gpus: int, policy: str,
                 timeout: float, backoff_base: float, backoff_max: float, seed: int, horizon: float,
                 record: bool):
        n = len(size)
        self.size, self.run, self.submit, self.gpus, self.policy = size, run, submit, gpus, policy
        self.timeout, self.backoff_base, self.backoff_max, self.horizon = timeout, backoff_base, backoff_max, horizon
        self.rng = np.random.default_rng(seed)
        self.held = [0] * n
        self.start = [math.nan] * n
        self.end = [math.nan] * n
        self.requeues = [0] * n
        self.token = [0] * n  # invalidates a timeout from an earlier attempt
        self.waiting: list[tuple[float, int]] = []  # (queue timestamp, job), sorted: Kueue's queue order
        self.running: set[int] = set()
        self.holders: set[int] = set()  # waiting jobs that hold GPUs (greedy only)
        self.key: dict[int, tuple[float, int]] = {}  # each waiting job's place in the queue
        self.free, self.held_waiting = gpus, 0
        self.events: list[tuple] = [(submit[j], 1, j, "arrive", j, 0) for j in range(n)]
        heapq.heapify(self.events)
        self.seq = n
        self.busy_int = self.held_int = 0.0
        self.t_last = 0.0
        self.deadlocks = self.evictions = 0
        self.in_deadlock = False
        self.first_deadlock = math.nan
        self.timeline = [] if record else None

    def push(self, t, order, kind, j, tok=0):
        heapq.heappush(self.events, (t, order, self.seq, kind, j, tok))
        self.seq += 1

    def launch(self, j, t):
        self.start[j] = t
        self.end[j] = t + self.run[j]
        self.running.add(j)
        self.push(self.end[j], 0, "finish", j)

    def integrate_to(self, t: float) -> None:
        """Busy and held-idle GPU-seconds from the last event to t, inside [0, horizon]."""
        lo, hi = min(self.t_last, self.horizon), min(t, self.horizon)
        if hi > lo:
            idle = self.held_waiting
            self.busy_int += (hi - lo) * (self.gpus - self.free - idle)
            self.held_int += (hi - lo) * idle
        self.t_last = t

    def handle(self, t: float, kind: str, j: int, tok: int) -> bool:
        """Apply one event; False for a stale timeout (from an earlier attempt, or a job that runs)."""
        if kind == "arrive":
            self.key[j] = (self.submit[j], j)
            bisect.insort(self.waiting, self.key[j])
        elif kind == "finish":
            self.running.discard(j)
            self.free += self.held[j]
            self.held[j] = 0
        elif kind == "timeout":
            if tok != self.token[j] or self.held[j] == 0 or j in self.running:
                return False
            self.waiting.remove(self.key[j])
            self.holders.discard(j)
            self.free += self.held[j]
            self.held_waiting -= self.held[j]
            self.held[j] = 0
            self.requeues[j] += 1
            self.evictions += 1
            delay = kueue_backoff(self.requeues[j], self.backoff_base, self.backoff_max, KUEUE_JITTER,
                                  float(self.rng.uniform()))
            self.push(t + delay, 1, "requeue", j)
        elif kind == "requeue":
            self.key[j] = (t, j)
            bisect.insort(self.waiting, self.key[j])  # requeuingStrategy.timestamp: Eviction (the default)
        return True

    def greedy(self, t):
        # one GPU at a time, round-robin over the waiting jobs in queue order (every
        # waiting job is short: a job holding all its GPUs starts at once); with
        # fewer free GPUs than waiting jobs, the first `free` jobs get one each
        free, size, held = self.free, self.size, self.held
        if free == 0 or not self.waiting:
            return
        if len(self.waiting) > free:
            short = [j for _, j in self.waiting[:free]]
            gives = [1] * free
        else:
            short = [j for _, j in self.waiting]
            need = [size[j] - held[j] for j in short]
            level = _water_level(need, free)
            gives = [min(r, level) for r in need]
            rest = free - sum(gives)
            for i, r in enumerate(need):  # the remainder, one each, in queue order
                if rest == 0:
                    break
                if r > gives[i]:
                    gives[i] += 1
                    rest -= 1
        for j, g in zip(short, gives, strict=True):
            if g <= 0:
                continue
            if held[j] == 0:  # admitted: the waitForPodsReady clock starts
                self.holders.add(j)
                self.token[j] += 1
                if math.isfinite(self.timeout):
                    self.push(t + self.timeout, 2, "timeout", j, self.token[j])
            held[j] += g
            self.free -= g
            self.held_waiting += g
        for j in [j for j in short if held[j] == size[j]]:
            self.waiting.remove(self.key[j])
            self.holders.discard(j)
            self.held_waiting -= held[j]
            self.launch(j, t)

    def gang(self, t):
        size, waiting = self.size, self.waiting
        while waiting and size[waiting[0][1]] <= self.free:
            _, j = waiting.pop(0)
            self.free -= size[j]
            self.held[j] = size[j]
            self.launch(j, t)
        if self.policy != "backfill" or len(waiting) < 2:
            return
        head = waiting[0][1]
        # the head's reservation: the shadow time, and the extra GPUs it will not need
        avail, shadow, extra = self.free, math.inf, 0
        for e, j in sorted((self.end[j], j) for j in self.running):
            avail += size[j]
            if avail >= size[head]:
                shadow, extra = e, avail - size[head]
                break
        for q, j in list(waiting[1:]):
            if size[j] > self.free:
                continue
            if t + self.run[j] <= shadow:
                pass
            elif size[j] <= extra:
                extra -= size[j]
            else:
                continue
            waiting.remove((q, j))
            self.free -= size[j]
            self.held[j] = size[j]
            self.launch(j, t)

    def note_deadlock(self, t: float) -> bool:
        """Whether the waiting jobs that hold GPUs are stuck (each needs more than could ever reach it),
        counting each new episode; records the timeline step."""
        reach = self.gpus - self.held_waiting  # free plus running: all that could ever reach a waiting job
        stuck = bool(self.holders) and min(self.size[j] - self.held[j] for j in self.holders) > reach
        if stuck and not self.in_deadlock:
            self.deadlocks += 1
            if math.isnan(self.first_deadlock):
                self.first_deadlock = t
        self.in_deadlock = stuck
        if self.timeline is not None:
            self.timeline.append((t, self.gpus - self.free - self.held_waiting, self.held_waiting))
        return stuck


def simulate(size, run, submit, gpus: int, policy: str, timeout: float = math.inf,
             backoff_base: float = 60.0, backoff_max: float = 3600.0, seed: int = 0,
             horizon: float | None = None, record: bool = False) -> dict:
    """Run one policy over a trace; per-job start times and cluster-wide integrals.

    Returns start (s, NaN if never started), wait (start − submit), busy and
    held-idle GPU-seconds inside [0, horizon], deadlock episodes (a set of
    waiting jobs that hold GPUs and of which none can ever complete: each
    still needs more GPUs than are free or running, i.e. than could ever
    reach it), evictions, the time of the first deadlock (NaN if none) and,
    with record=True, the steps (t, busy GPUs, idle GPUs held) for the figure.
    With no timeout, greedy stops at its first deadlock that nothing running
    can end (the cluster would stay stuck for good).
    """
    if policy not in POLICIES:
        raise ValueError(f"policy {policy!r} is not one of {POLICIES}")
    size = [int(v) for v in np.asarray(size)]
    run = [float(v) for v in np.asarray(run)]
    submit = [float(v) for v in np.asarray(submit)]
    n = len(size)
    if max(size) > gpus:
        raise ValueError("a job asks for more GPUs than the cluster has")
    horizon = submit[-1] if horizon is None else float(horizon)
    c = _Cluster(size, run, submit, gpus, policy, timeout, backoff_base, backoff_max, seed, horizon, record)
    budget = MAX_EVENTS_PER_JOB * n
    steps = 0

    t = 0.0
    while c.events:
        steps += 1
        if steps > budget:
            raise BoundExceeded(f"simulate({policy}): more than {budget:,} events for {n:,} jobs")
        t, _, _, kind, j, tok = heapq.heappop(c.events)
        c.integrate_to(t)
        if not c.handle(t, kind, j, tok):
            continue
        if c.events and c.events[0][0] == t:
            continue  # everything that happens at this instant first: pods of jobs submitted together interleave
        if policy == "greedy":
            c.greedy(t)
        else:
            c.gang(t)
        stuck = c.note_deadlock(t)
        if stuck and not c.running and not math.isfinite(timeout):
            break  # nothing runs, nothing is free: the cluster is stuck for good
    if c.t_last < horizon:
        idle = c.held_waiting
        c.busy_int += (horizon - c.t_last) * (gpus - c.free - idle)
        c.held_int += (horizon - c.t_last) * idle
    start_a = np.asarray(c.start)
    return {"start": start_a, "wait": start_a - np.asarray(submit), "busy": c.busy_int, "held_idle": c.held_int,
            "deadlocks": c.deadlocks, "first_deadlock": c.first_deadlock, "evictions": c.evictions,
            "requeues": np.asarray(c.requeues), "horizon": horizon, "timeline": c.timeline, "events": steps,
            "end_time": t}


# --- the realistic pod-by-pod case: kube-scheduler's queue, whole-node pods, Kueue's timeout -----

def pods_of(size: int, gpus_per_node: int) -> list[int]:
    """The pods a job is made of: one pod of `size` GPUs if it fits a node, else whole-node pods."""
    if size <= gpus_per_node:
        return [int(size)]
    if size % gpus_per_node:
        raise ValueError("a multi-node job must ask for whole nodes")
    return [gpus_per_node] * (size // gpus_per_node)


def pod_backoff(attempts: int, initial: float, cap: float) -> float:
    """kube-scheduler's per-pod backoff after `attempts` failed tries: initial·2^(attempts−1), capped."""
    if attempts < 1:
        return 0.0
    return float(min(initial * 2.0 ** min(attempts - 1, 62), cap))


class _Uniforms:
    """A generator's uniform draws in order, fetched a block at a time: the same numbers in the same
    order as one rng.uniform() call per draw (a PCG64 stream does not depend on how it is split into
    calls), without numpy's per-call cost; the pod-by-pod run draws nearly a million times."""

    BLOCK = 4096

    def __init__(self, rng: np.random.Generator):
        self.rng, self.buf, self.pos = rng, [], 0

    def take(self, n: int) -> list[float]:
        if self.pos + n > len(self.buf):
            self.buf = self.buf[self.pos:] + self.rng.uniform(size=max(n, self.BLOCK)).tolist()
            self.pos = 0
        out = self.buf[self.pos:self.pos + n]
        self.pos += n
        return out


def _pod_backoff_table(initial: float, cap: float) -> list[float]:
    """pod_backoff for 0 … 63 failed attempts; any count past 63 backs off as 63 does (2^62 · initial)."""
    return [pod_backoff(a, initial, cap) for a in range(64)]


class _PodCluster:
    """Pod-by-pod placement with the default queue sort of kube-scheduler (PrioritySort: equal
    priorities, so by the pod's queue timestamp, which is refreshed each time the pod fails and is put
    back) and its per-pod backoff; Kueue admits every job at once (quota above capacity) and, with
    waitForPodsReady, evicts a job not fully running `timeout` after admission, requeuing it after
    its own backoff. The GPUs are one pool (no fragmentation across nodes)."""

    def __init__(self, size, run, submit, gpus, gpus_per_node, timeout, backoff_base, backoff_max,
                 pod_backoff_initial, pod_backoff_max, noise, seed, horizon):
        self.size, self.run, self.submit, self.gpus = size, run, submit, gpus
        self.timeout, self.backoff_base, self.backoff_max = timeout, backoff_base, backoff_max
        self.pb_init, self.pb_max, self.noise, self.horizon = pod_backoff_initial, pod_backoff_max, noise, horizon
        self.draws = _Uniforms(np.random.default_rng(seed))
        self.pod_backoff = _pod_backoff_table(pod_backoff_initial, pod_backoff_max)
        n = len(size)
        self.job_pods = [pods_of(s, gpus_per_node) for s in size]
        self.smallest_pod = min((min(p) for p in self.job_pods), default=0)
        self.held = [0] * n
        self.bound = [0] * n
        self.start = [math.nan] * n
        self.requeues = [0] * n
        self.token = [0] * n
        self.running: set[int] = set()
        self.holders: set[int] = set()  # admitted jobs holding GPUs while some of their pods wait
        # pending pods: (job, pod index) -> [queue timestamp, failed attempts (an int), eligible at]
        self.pending: dict[tuple[int, int], list] = {}
        self.free, self.held_waiting = gpus, 0
        self.events: list[tuple] = [(submit[j], 1, j, "arrive", j, 0) for j in range(n)]
        heapq.heapify(self.events)
        self.seq = n
        self.busy_int = self.held_int = 0.0
        self.timeline = None  # set to a list to record the busy/held step function
        self.t_last = 0.0
        self.deadlocks = self.evictions = 0
        self.in_deadlock = False
        self.first_deadlock = math.nan
        self.retry_at = math.inf

    def push(self, t, order, kind, j, tok=0):
        heapq.heappush(self.events, (t, order, self.seq, kind, j, tok))
        self.seq += 1

    def integrate_to(self, t):
        lo, hi = min(self.t_last, self.horizon), min(t, self.horizon)
        if hi > lo:
            self.busy_int += (hi - lo) * (self.gpus - self.free - self.held_waiting)
            self.held_int += (hi - lo) * self.held_waiting
            if self.timeline is not None:  # the step (busy, held) that holds from lo on
                self.timeline.append((lo, self.gpus - self.free - self.held_waiting, self.held_waiting))
        self.t_last = t

    def admit(self, j, t):
        """Kueue admits the job (its quota fits): its pods are created, and the waitForPodsReady clock starts."""
        for k in range(len(self.job_pods[j])):
            self.pending[(j, k)] = [t + k * 1e-6, 0, t]  # created in order, microseconds apart
        self.token[j] += 1
        if math.isfinite(self.timeout):
            self.push(t + self.timeout, 2, "timeout", j, self.token[j])

    def evict(self, j, t):
        for k in range(len(self.job_pods[j])):
            self.pending.pop((j, k), None)
        self.holders.discard(j)
        self.free += self.held[j]
        self.held_waiting -= self.held[j]
        self.held[j] = self.bound[j] = 0
        self.requeues[j] += 1
        self.evictions += 1
        delay = kueue_backoff(self.requeues[j], self.backoff_base, self.backoff_max, KUEUE_JITTER,
                              self.draws.take(1)[0])
        self.push(t + delay, 1, "requeue", j)

    def handle(self, t, kind, j, tok) -> bool:
        if kind == "arrive" or kind == "requeue":
            self.admit(j, t)
        elif kind == "finish":
            self.running.discard(j)
            self.free += self.held[j]
            self.held[j] = 0
        elif kind == "timeout":
            if tok != self.token[j] or j in self.running or not math.isnan(self.start[j]):
                return False
            self.evict(j, t)
        elif kind == "retry":
            self.retry_at = math.inf
        return True

    def schedule(self, t):
        """One pass over the eligible pending pods in queue order: bind what fits, put the rest back
        with a fresh timestamp (plus the scheduler's timing noise) and a longer backoff."""
        ready = sorted([(v[0], key) for key, v in self.pending.items() if v[2] <= t])
        back = []  # (position in the pass, pod) of the pods that do not fit
        for i, (_, key) in enumerate(ready):
            # nothing left fits: the rest all go back (the trace's smallest pod, not the pass's: cheaper to
            # know, and stopping here or trying each of the rest puts back the same pods)
            if self.free < self.smallest_pod:
                back += [(n, key) for n, (_, key) in enumerate(ready[i:], i)]
                break
            j, k = key
            g = self.job_pods[j][k]
            if g <= self.free:
                del self.pending[key]
                self.free -= g
                self.held[j] += g
                self.held_waiting += g
                self.holders.add(j)
                self.bound[j] += 1
                if self.bound[j] == len(self.job_pods[j]):
                    self.held_waiting -= self.held[j]
                    self.holders.discard(j)
                    self.start[j] = t
                    self.running.add(j)
                    self.push(t + self.run[j], 0, "finish", j)
            else:
                back.append((i, key))
        # put back after the pass, not pod by pod inside it: binding never reads a put-back pod's entry,
        # and the draws go to the same pods in the same order
        self._put_back_at(back, t)
        # pods still backing off retry when their backoff ends, if a GPU is free for them
        if self.free:
            waiting = [v[2] for key, v in self.pending.items()
                       if v[2] > t and self.job_pods[key[0]][key[1]] <= self.free]
            if waiting and min(waiting) < self.retry_at:
                self.retry_at = min(waiting)
                self.push(self.retry_at, 3, "retry", -1)

    def _put_back(self, pods, first_index, t):
        """Pods that did not fit, the first at position `first_index` of the pass (the rest after it)."""
        self._put_back_at([(first_index + n, key) for n, (_, key) in enumerate(pods)], t)

    def _put_back_at(self, back, t):
        """Pods that did not fit, each with its position in the pass (ascending): each gets a fresh queue
        timestamp (its position in microseconds plus uniform noise, one draw per pod in queue order, as
        one draw at a time would give) and one more failed attempt's backoff."""
        noise = self.draws.take(len(back))
        pending, scale, backoff = self.pending, self.noise, self.pod_backoff
        for (i, key), u in zip(back, noise):
            v = pending[key]
            v[0] = t + i * 1e-6 + scale * u
            v[1] = a = v[1] + 1
            # pod_backoff(a, ...) looked up: this loop runs some 9 million times a run
            v[2] = v[0] + (backoff[a] if a < 64 else backoff[63])

    def note_deadlock(self, t):
        reach = self.gpus - self.held_waiting
        stuck = bool(self.holders) and min(self.size[j] - self.held[j] for j in self.holders) > reach
        if stuck and not self.in_deadlock:
            self.deadlocks += 1
            if math.isnan(self.first_deadlock):
                self.first_deadlock = t
        self.in_deadlock = stuck


def simulate_pods(size, run, submit, gpus: int, gpus_per_node: int, timeout: float = math.inf,
                  backoff_base: float = 60.0, backoff_max: float = 3600.0, pod_backoff_initial: float = 1.0,
                  pod_backoff_max: float = 10.0, noise: float = 1.0, seed: int = 0,
                  horizon: float | None = None, record: bool = False, until: float = math.inf) -> dict:
    """The realistic pod-by-pod case over a trace: start times, busy and held-idle GPU-seconds inside
    [0, horizon], deadlock episodes, evictions. Without a timeout it stops at a total deadlock. With
    `until`, it stops at the first event after that time (jobs not started by then stay NaN): enough
    for the integrals when until ≥ horizon, and much cheaper when the queue churns after the window."""
    size = [int(v) for v in np.asarray(size)]
    run = [float(v) for v in np.asarray(run)]
    submit = [float(v) for v in np.asarray(submit)]
    n = len(size)
    horizon = submit[-1] if horizon is None else float(horizon)
    c = _PodCluster(size, run, submit, gpus, gpus_per_node, timeout, backoff_base, backoff_max,
                    pod_backoff_initial, pod_backoff_max, noise, seed, horizon)
    if record:
        c.timeline = []
    budget = MAX_EVENTS_PER_JOB * n
    steps = 0
    t = 0.0
    while c.events:
        steps += 1
        if steps > budget:
            raise BoundExceeded(f"simulate_pods: more than {budget:,} events for {n:,} jobs")
        t, _, _, kind, j, tok = heapq.heappop(c.events)
        c.integrate_to(t)
        if t > until:
            break
        if not c.handle(t, kind, j, tok):
            continue
        if c.events and c.events[0][0] == t:
            continue
        c.schedule(t)
        c.note_deadlock(t)
        if c.in_deadlock and not c.running and not math.isfinite(timeout):
            break
    c.integrate_to(max(t, horizon))
    start_a = np.asarray(c.start)
    return {"start": start_a, "wait": start_a - np.asarray(submit), "busy": c.busy_int, "held_idle": c.held_int,
            "deadlocks": c.deadlocks, "first_deadlock": c.first_deadlock, "evictions": c.evictions,
            "horizon": horizon, "events": steps, "end_time": t, "timeline": c.timeline}


def _bin_average(t, y, edges):
    """The mean of the step function y(t) (y[k] holds from t[k] to t[k+1]) over each bin."""
    t = np.asarray(t, dtype=float)
    y = np.asarray(y, dtype=float)
    tt = np.concatenate(([0.0], t, [max(edges[-1], t[-1] if t.size else 0.0)]))
    yy = np.concatenate(([0.0], y))
    area = np.concatenate(([0.0], np.cumsum(yy * np.diff(tt))))  # integral up to tt[k]

    def integral(x):
        k = np.clip(np.searchsorted(tt, x, side="right") - 1, 0, yy.size - 1)
        return area[k] + yy[k] * (x - tt[k])

    return np.diff(integral(edges)) / np.diff(edges)


def _water_level(need: list[int], free: int) -> int:
    """The largest k with Σ min(need, k) ≤ free: round-robin one at a time fills to k."""
    lo, hi = 0, max(need)
    while lo < hi:  # bisection on integers: at most log2(max need) steps
        mid = (lo + hi + 1) // 2
        if sum(min(r, mid) for r in need) <= free:
            lo = mid
        else:
            hi = mid - 1
    return lo


# --- the scene's data: its steps --------------------------------------------------------

def _quantile(x, q) -> float:
    x = np.asarray(x, dtype=float)
    x = x[np.isfinite(x)]
    return float(np.quantile(x, q)) if x.size else 0.0


def check_trace_params(G: int, sizes: list, size_shares: list, run_median: list, run_p90: list,
                       unavailability: list) -> None:
    """ParamError unless the trace has four buckets that fit the cluster, each p90 above its median,
    and the unavailabilities are probabilities below 1."""
    if len(size_shares) != 4 or len(run_median) != 4 or len(run_p90) != 4:
        raise ParamError("size_shares", size_shares, "four values: 1, 2-4, 5-8, >8 GPUs (and four medians, p90s)")
    if not sum(size_shares) > 0:
        raise ParamError("size_shares", size_shares, "shares that add up to more than zero")
    for b in range(4):
        if not run_p90[b] > run_median[b]:
            raise ParamError("run_p90", run_p90, "each above its bucket's median")
        if max(sizes[b]) > G:
            raise ParamError("size_large", sizes[b], f"at most the cluster's {G} GPUs")
    if any(u >= 1 for u in unavailability):
        raise ParamError("unavailability", unavailability, "probabilities below 1")


def run_policies(size, run, submit, G: int, horizon: float) -> tuple[dict, dict]:
    """Each policy over the trace, recorded for the figure (greedy with no recovery: its first deadlock
    with nothing running stops it for good); and each one's utilisation, idle-held share, waits,
    deadlocks and jobs started."""
    res = {pol: simulate(size, run, submit, G, pol, horizon=horizon, record=True) for pol in POLICIES}
    cap_s = G * horizon
    stats = {}
    for pol, r in res.items():
        stats[pol] = {"utilisation": r["busy"] / cap_s, "held_idle": r["held_idle"] / cap_s,
                      "wait_p50": _quantile(r["wait"], 0.5), "wait_p99": _quantile(r["wait"], 0.99),
                      "deadlocks": r["deadlocks"], "started": int(np.sum(np.isfinite(r["start"])))}
        check(r["busy"] + r["held_idle"] <= cap_s * (1 + 1e-9),
              "GPU-hours used never exceed the cluster's capacity × time")
    return res, stats


def policy_claims(stats: dict, greedy_stop: float, jobs: int, horizon: float) -> None:
    """What the three policies show on the trace, in words."""
    g, f, b = stats["greedy"], stats["gang"], stats["backfill"]
    check(f["deadlocks"] == 0 and b["deadlocks"] == 0 and f["held_idle"] == 0 and b["held_idle"] == 0,
          "gang admission never deadlocks and never holds idle GPUs")
    check(g["deadlocks"] > 0 and g["started"] < jobs and greedy_stop < horizon,
          "greedy partial allocation deadlocks on this trace and, with no timeout, stays stuck")
    check(g["held_idle"] > f["held_idle"], "greedy allocation leaves GPUs idle in the hands of waiting jobs")
    check(b["wait_p50"] < f["wait_p50"] and b["wait_p99"] < f["wait_p99"],
          "backfill cuts both the median and the tail wait of plain gang admission")
    check(b["wait_p99"] <= 0.5 * f["wait_p99"], "backfill halves gang's tail wait")
    check(b["utilisation"] >= f["utilisation"] and b["utilisation"] > g["utilisation"],
          "backfill keeps the most GPUs busy")
    check(f["started"] == jobs and b["started"] == jobs, "under gang admission every job runs")


def backoff_study(backoff_base: float, backoff_max: float) -> tuple[list[float], int]:
    """Kueue's requeue delays (nine of them), checked, and how many requeues reach the cap."""
    seq = kueue_backoff_sequence(9, backoff_base, backoff_max)
    check(seq[0] == backoff_base and seq[1] == 2 * backoff_base and seq[-1] == backoff_max,
          "the requeue delay doubles from the base and stops at the cap")
    return seq, next(i + 1 for i, v in enumerate(seq) if v >= backoff_max)


def start_probability_study(scenario_gpus: int, gpus_per_node: int, availability: list[float]) -> dict:
    """aⁿ against the nodes n for each availability a, at the scenario's size, and the a that gives ½."""
    scen_nodes = scenario_gpus / gpus_per_node
    # the page's gang size is a point of the sweep: the Explore probe opens there
    n_axis = including(np.unique(np.round(np.logspace(0, math.log10(scen_nodes * 2), 161))), scen_nodes)
    out = {"scen_nodes": scen_nodes, "n_axis": n_axis,
           "probs": {f"p_{i}": gang_start_probability(n_axis, a) for i, a in enumerate(availability)},
           "at_scen": [float(gang_start_probability(scen_nodes, a)) for a in availability],
           "a_half": availability_for(scen_nodes, 0.5)}
    check(min(out["at_scen"]) < 0.01 and max(out["at_scen"]) > 0.5,
          "at the scenario's size the start probability swings from near certain to near zero")
    return out


def realistic_study(trace: dict, G: int, gpus_per_node: int, horizon: float, pods_ready_timeout: float,
                    backoff_base: float, backoff_max: float, pod_backoff_initial: float, pod_backoff_max: float,
                    noise: float, seed: int) -> dict:
    """The pod-by-pod case as kube-scheduler runs it (whole-node pods, queue timestamps refreshed on
    each failure, per-pod backoff, timing noise), Kueue admitting every job (quota above capacity):
    without waitForPodsReady, with it, and with it but no timing noise (the noise swept)."""
    args = (trace["size"], trace["run"], trace["submit"], G, gpus_per_node)
    kw = {"backoff_base": backoff_base, "backoff_max": backoff_max, "pod_backoff_initial": pod_backoff_initial,
          "pod_backoff_max": pod_backoff_max, "seed": seed, "horizon": horizon}
    runs = {"pods_none": simulate_pods(*args, noise=noise, record=True, **kw),
            "pods": simulate_pods(*args, timeout=pods_ready_timeout, noise=noise, record=True, **kw),
            "pods_quiet": simulate_pods(*args, timeout=pods_ready_timeout, noise=0.0, **kw)}
    cap_s = G * horizon
    stats = {k: {"utilisation": r["busy"] / cap_s, "held_idle": r["held_idle"] / cap_s,
                 "wait_p50": _quantile(r["wait"], 0.5), "wait_p99": _quantile(r["wait"], 0.99),
                 "deadlocks": int(r["deadlocks"]), "evictions": int(r["evictions"]),
                 "started": int(np.sum(np.isfinite(r["start"]))),
                 "first_deadlock": float(r["first_deadlock"])}
             for k, r in runs.items()}
    for st in stats.values():
        check(st["utilisation"] + st["held_idle"] <= 1 + 1e-9, "GPU-hours used never exceed the capacity")
    return stats, {k: runs[k] for k in ("pods", "pods_none")}  # the two the figure draws


def pods_seed_spread(trace_shape: dict, sizes: list, jobs: int, G: int, gpus_per_node: int, seed: int,
                     pods_kw: dict, others: dict) -> list[dict]:
    """The pod-by-pod run with and without the timeout on the page's seed and on the robustness table's
    other seeds (the same traces), each stopped at the end of its window: the idle-held share is an
    integral over the window, so nothing after it is needed, and a queue that churns after the window
    costs nothing. `others` maps each seed to the policies' row (greedy's idle-held share, gang's and
    backfill's utilisation), put beside it."""
    rows = []
    for s in range(seed, seed + ROBUST_SEEDS + 1):
        tr = draw_trace(jobs, G, trace_shape["size_shares"], sizes, trace_shape["run_median"],
                        trace_shape["run_p90"], trace_shape["run_cap"], trace_shape["load"],
                        np.random.default_rng(s))
        h = float(tr["submit"][-1])
        r = simulate_pods(tr["size"], tr["run"], tr["submit"], G, gpus_per_node, seed=s, horizon=h, until=h,
                          **pods_kw)
        # no timeout: about 1 s a seed at the catalogue's size, cut at the window like the run above
        r0 = simulate_pods(tr["size"], tr["run"], tr["submit"], G, gpus_per_node, seed=s, horizon=h, until=h,
                           **{**pods_kw, "timeout": math.inf})
        o = others[int(s)]
        rows.append({"seed": int(s), "held_idle": r["held_idle"] / (G * h), "utilisation": r["busy"] / (G * h),
                     "evictions": int(r["evictions"]), "none_held_idle": r0["held_idle"] / (G * h),
                     "none_utilisation": r0["busy"] / (G * h), "greedy_held_idle": o["greedy_held_idle"],
                     "gang_utilisation": o["gang_utilisation"], "backfill_utilisation": o["backfill_utilisation"]})
    return rows


def spread_summary(rows: list[dict], page_held_idle: float, page_none_held_idle: float) -> dict:
    """Median and range of the idle-held share over the seeds, with the timeout and without; the page's
    seed must be the first row."""
    held = np.asarray([r["held_idle"] for r in rows])
    none = np.asarray([r["none_held_idle"] for r in rows])
    greedy = np.asarray([r["greedy_held_idle"] for r in rows])
    low = min(rows, key=lambda r: r["utilisation"])
    check(abs(held[0] - page_held_idle) <= 1e-12, "the spread's first run is the page's run, cut at the window")
    check(abs(none[0] - page_none_held_idle) <= 1e-12,
          "the spread's first run without the timeout is the page's run, cut at the window")
    check(all(r["none_held_idle"] > r["held_idle"] for r in rows),
          "on every seed the timeout cuts the GPUs held idle")
    return {"pods_spread_runs": len(rows), "pods_held_idle_median": float(np.median(held)),
            "pods_held_idle_min": float(held.min()), "pods_held_idle_max": float(held.max()),
            "pods_spread_evictions_max": int(max(r["evictions"] for r in rows)),
            "pods_none_held_idle_median": float(np.median(none)), "pods_none_held_idle_min": float(none.min()),
            "pods_none_held_idle_max": float(none.max()),
            # greedy's share over the same seeds, so the animation's bars compare medians, not one seed
            "greedy_held_idle_median": float(np.median(greedy)), "greedy_held_idle_min": float(greedy.min()),
            "greedy_held_idle_max": float(greedy.max()),
            "pods_none_above_greedy": int(sum(r["none_held_idle"] > r["greedy_held_idle"] for r in rows)),
            # the seed where the timeout run keeps the fewest GPUs busy, against backfill on the same trace
            "pods_util_min": float(low["utilisation"]), "pods_util_min_seed": int(low["seed"]),
            "pods_util_min_backfill": float(low["backfill_utilisation"]),
            "pods_below_backfill": int(sum(r["utilisation"] < r["backfill_utilisation"] for r in rows))}


def realistic_claims(real: dict, stats: dict) -> None:
    """What the pod-by-pod runs show, against greedy round-robin and gang admission."""
    none, to, quiet = real["pods_none"], real["pods"], real["pods_quiet"]
    check(none["deadlocks"] > 0 and math.isfinite(none["first_deadlock"]),
          "even in queue-timestamp order, pod-by-pod placement with no timeout deadlocks")
    check(to["started"] == quiet["started"] == stats["gang"]["started"],
          "with waitForPodsReady every job eventually runs")
    check(0 < to["held_idle"] < stats["greedy"]["held_idle"],
          "with the timeout, pod-by-pod placement holds GPUs idle, far less than greedy round-robin")
    check(none["held_idle"] > stats["greedy"]["held_idle"],
          "greedy round-robin is no upper bound: pod by pod without a timeout holds more GPUs idle")
    check(stats["gang"]["held_idle"] == 0, "gang admission holds none")


def realistic_summary(real: dict, spare_rows: list[dict], demo_quota: int) -> dict:
    """The pod-by-pod runs' numbers and the spares' start probabilities, for the page."""
    # a run that never deadlocked has no first deadlock (NaN): leave it out
    out = {f"{case}_{k}": v for case, st in real.items() for k, v in st.items()
           if not (k == "first_deadlock" and math.isnan(v))}
    for r in spare_rows:
        out[f"start_spares_{r['spares']}_a{r['a']:.6g}".replace(".", "_")] = r["p"]
    out["demo_quota"] = int(demo_quota)
    return out


def spares_rule(n: int, a: float) -> int:
    """Spare nodes for a gang of n to start almost surely: the expected number down, n(1−a), plus three
    standard deviations, 3·√(n(1−a)) (the Poisson approximation), rounded up."""
    down = n * (1.0 - a)
    return int(math.ceil(down + 3.0 * math.sqrt(down)))


def demo_jitter_max(backoff_base: float) -> float:
    """The most the jitter can add to the first requeue delay: all that separates two jobs evicted together."""
    return KUEUE_JITTER * backoff_base


def spares_study(scenario_gpus: int, gpus_per_node: int, availability: list[float], spares: list[int]) -> list[dict]:
    """P(the scenario's gang can start) with s spare nodes, for each availability and each s."""
    n = int(round(scenario_gpus / gpus_per_node))
    rows = [{"a": float(a), "spares": int(s), "p": gang_start_probability_spares(n, s, a)}
            for a in availability for s in spares]
    for r in rows:
        if r["spares"] == 0:
            check(abs(r["p"] - float(gang_start_probability(n, r["a"]))) <= 1e-9 * max(r["p"], 1e-300),
                  "with no spares the binomial tail is aⁿ")
    return rows


def record_availability(observation_window: float, interruptions: float, record_interruptions: float,
                        non_node_interruptions: list, nodes: int, repair_times: list,
                        spares: list) -> tuple[list[dict], float, float]:
    """Per-node availability from the failure record, for each assumed repair time R, and the gang's start
    probability with each number of spares. Only the record's node-attributable interruptions count (the
    rows a node swap cures: Table 5 less software bugs, dependencies, switches and cables, and NCCL
    watchdog timeouts, the same rows checkpoint-recovery charges a full restart); their share of Table 5's
    total is applied to the scenario's count. Each node is up for a mean 1/λ, down for R: a = 1/(1 + λR)."""
    share = 1.0 - float(sum(non_node_interruptions)) / float(record_interruptions)
    rate = float(interruptions) * share / (float(observation_window) * nodes)  # per node per second
    rows = []
    for r in sorted(repair_times):
        a = 1.0 / (1.0 + rate * float(r))
        rows.append({"repair": float(r), "a": a, "down": nodes * (1.0 - a), "rule": spares_rule(nodes, a),
                     **{f"p_{int(s_)}": gang_start_probability_spares(nodes, int(s_), a) for s_ in spares}})
    return rows, share, rate


def two_job_demo(demo_gpus: int, pods_ready_timeout: float, backoff_base: float, backoff_max: float,
                 seed: int) -> dict:
    """The two-job example the animation and the hand-checked test use: two jobs of ¾ of the GPUs,
    greedy (stuck), greedy with the waitForPodsReady timeout, and gang."""
    demo_size = demo_gpus * 3 // 4
    two = ([demo_size, demo_size], [HOUR, HOUR], [0.0, 0.0])
    demo = simulate(*two, demo_gpus, "greedy", horizon=HOUR)
    demo_to = simulate(*two, demo_gpus, "greedy", timeout=pods_ready_timeout, backoff_base=backoff_base,
                       backoff_max=backoff_max, seed=seed, horizon=4 * HOUR)
    demo_gang = simulate(*two, demo_gpus, "gang", horizon=2 * HOUR)
    check(demo["deadlocks"] == 1 and bool(np.all(np.isnan(demo["start"]))),
          "two jobs that each grab half are both stuck")
    check(demo_gang["deadlocks"] == 0 and demo_gang["wait"][1] == HOUR,
          "gang admission runs one job whole, then the other")
    check(np.all(np.isfinite(demo_to["start"])) and demo_to["evictions"] >= 2,
          "the waitForPodsReady timeout evicts both, and Kueue's jittered backoff lets one go first")
    # the job back first is called A on the page and in the animation, the other B
    first = int(np.argmin(demo_to["start"]))
    a_job, b_job = first, 1 - first
    check(int(demo_to["requeues"][a_job]) >= 1 and int(demo_to["requeues"][b_job]) >= 2,
          "the timeout evicts both jobs, and the job back second times out again while the first runs")
    return {"size": demo_size, "timeout": demo_to, "gang": demo_gang,
            "first_start": float(demo_to["start"][a_job]), "second_start": float(demo_to["start"][b_job]),
            "evictions_a": int(demo_to["requeues"][a_job]), "evictions_b": int(demo_to["requeues"][b_job])}


def robustness_row(what: str, seed_: int, sizes_: list, jobs: int, G: int, trace_shape: dict) -> dict:
    """One other trace (seed, size buckets) under the three policies: what the claims rest on."""
    tr_ = draw_trace(jobs, G, trace_shape["size_shares"], sizes_, trace_shape["run_median"],
                     trace_shape["run_p90"], trace_shape["run_cap"], trace_shape["load"],
                     np.random.default_rng(seed_))
    rr = {pol: simulate(tr_["size"], tr_["run"], tr_["submit"], G, pol, horizon=float(tr_["submit"][-1]))
          for pol in POLICIES}
    return {"case": what, "seed": int(seed_), "greedy_deadlocks": int(rr["greedy"]["deadlocks"]),
            "greedy_never_started": int(jobs - np.sum(np.isfinite(rr["greedy"]["start"]))),
            "greedy_held_idle": rr["greedy"]["held_idle"] / (G * float(tr_["submit"][-1])),
            "gang_wait_p99": _quantile(rr["gang"]["wait"], 0.99),
            "gang_utilisation": rr["gang"]["busy"] / (G * float(tr_["submit"][-1])),
            "backfill_utilisation": rr["backfill"]["busy"] / (G * float(tr_["submit"][-1])),
            "backfill_wait_p99": _quantile(rr["backfill"]["wait"], 0.99),
            "gang_deadlocks": int(rr["gang"]["deadlocks"] + rr["backfill"]["deadlocks"])}


def robustness(sizes: list, seed: int, jobs: int, G: int, trace_shape: dict) -> tuple[list[dict], list[dict]]:
    """Other seeds, and the same trace without the largest job size; with the claims they support."""
    size_1, size_2_4, size_5_8, size_large = sizes
    robust = [robustness_row("the catalogue's mix", seed + k, sizes, jobs, G, trace_shape)
              for k in range(1, ROBUST_SEEDS + 1)]
    smaller = [size_1, size_2_4, size_5_8, [v for v in size_large if v < max(size_large)] or [max(size_5_8)]]
    no_big = [robustness_row(f"no {max(size_large)}-GPU jobs", seed + k, smaller, jobs, G, trace_shape)
              for k in range(ROBUST_SEEDS + 1)]
    check(all(r["gang_deadlocks"] == 0 for r in robust + no_big), "gang admission never deadlocks on any trace tried")
    check(all(r["backfill_wait_p99"] < r["gang_wait_p99"] for r in robust),
          "on every other seed too, backfill cuts gang's tail wait")
    check(all(r["greedy_deadlocks"] > 0 for r in robust), "greedy deadlocked on every other seed tried")
    check(all(r["greedy_held_idle"] > 0 for r in robust + no_big),
          "even where it does not deadlock, greedy holds GPUs idle")
    return robust, no_big


def scene_summary(G: int, nodes: int, jobs: int, load: float, gpus_per_node: int, trace: dict, horizon: float,
                  res: dict, stats: dict, demo: dict, sp: dict, availability: list[float], robust: list[dict],
                  no_big: list[dict], largest_job: int) -> dict:
    """The page's numbers: the trace, each policy's statistics, greedy's deadlock, the demo's timeout,
    the start probability (`sp`) and the robustness runs."""
    size, run = trace["size"], trace["run"]
    summary = {
        "gpus": G, "nodes": int(nodes), "jobs": int(jobs), "load": float(load),
        "horizon": horizon, "share_multi_node": float(np.mean(size > gpus_per_node)),
        "gpu_share_multi_node": float(np.sum((size * run)[size > gpus_per_node]) / np.sum(size * run)),
        **{f"{p}_{k}": v for p, st in stats.items() for k, v in st.items() if k != "deadlocks"},
        # a trace on which greedy never deadlocks has no first deadlock (NaN in the run): None, not NaN
        "greedy_first_deadlock": (float(res["greedy"]["first_deadlock"])
                                  if math.isfinite(res["greedy"]["first_deadlock"]) else None),
        "greedy_stuck_at": float(res["greedy"]["end_time"]),
        "greedy_never_started": int(jobs - stats["greedy"]["started"]),
        "demo_timeout_first_start": demo["first_start"], "demo_timeout_evictions": int(demo["timeout"]["evictions"]),
        "demo_timeout_second_start": demo["second_start"], "demo_evictions_a": demo["evictions_a"],
        "demo_evictions_b": demo["evictions_b"],
        "scenario_nodes": float(sp["scen_nodes"]), "availability_for_half": sp["a_half"],
    }
    for i, a in enumerate(availability):
        summary[f"availability_{i}"] = float(a)
        summary[f"start_probability_{i}"] = sp["at_scen"][i]
        rule = spares_rule(int(sp["scen_nodes"]), a)
        summary[f"spares_rule_{i}"] = rule
        summary[f"spares_rule_p_{i}"] = gang_start_probability_spares(int(sp["scen_nodes"]), rule, a)
    summary["robust_seeds"] = len(robust)
    summary["robust_greedy_deadlocked"] = sum(r["greedy_deadlocks"] > 0 for r in robust)
    summary["no_big_greedy_deadlocked"] = sum(r["greedy_deadlocks"] > 0 for r in no_big)
    summary["no_big_runs"] = len(no_big)
    summary["largest_job"] = largest_job
    return summary


def scene_series(res: dict, horizon: float, jobs: int, sp: dict, seq: list[float], spares: int,
                 availability_mid: float, repair_rows: list[dict]) -> dict:
    """The figure's data: aⁿ against n; busy and idle-held GPUs averaged over TIMELINE_BINS bins of the
    window (exact averages of the step functions); each policy's wait quantiles; the backoff; and the
    start probability with the spares at each repair time's availability (the record's, which decides
    the answer, beside the round values)."""
    edges = np.linspace(0.0, horizon, TIMELINE_BINS + 1)
    series = {**curves("nodes_axis", sp["n_axis"], **sp["probs"]), "bin_mid": 0.5 * (edges[1:] + edges[:-1])}
    q = np.linspace(0.0, 1.0, WAIT_QUANTILES)
    for pol in (*POLICIES, "pods", "pods_none"):  # the three policies and the pod-by-pod runs
        tl = np.asarray(res[pol]["timeline"], dtype=float)
        series[f"{pol}_busy"] = _bin_average(tl[:, 0], tl[:, 1], edges)
        series[f"{pol}_held"] = _bin_average(tl[:, 0], tl[:, 2], edges)
        w = res[pol]["wait"][np.isfinite(res[pol]["wait"])]
        series[f"{pol}_wait_q"] = np.quantile(w, q)
        series[f"{pol}_wait_share"] = q * w.size / jobs  # share of all jobs started within that wait
    series["p_spares"] = np.asarray([gang_start_probability_spares(int(v), spares, availability_mid)
                                     for v in sp["n_axis"]])
    for j, row in enumerate(repair_rows):
        series[f"p_spares_repair_{j}"] = np.asarray([gang_start_probability_spares(int(v), spares, row["a"])
                                                     for v in sp["n_axis"]])
    series["backoff_n"] = np.arange(1, len(seq) + 1, dtype=float)
    series["backoff_s"] = np.asarray(seq)
    return series


def policies_table(jobs: int, G: int, nodes: int, gpus_per_node: int, load: float, stats: dict,
                   real: dict) -> Table:
    return Table(
        f"{jobs:,} jobs from a Philly-like trace on {G} GPUs ({nodes} nodes × {gpus_per_node}) at offered load "
        f"{load:.0%}: greedy round-robin, gang, gang + backfill and the pod-by-pod runs",
        [Column("policy", "text"), Column("GPU utilisation", "%"), Column("GPUs held idle by waiting jobs", "%"),
         Column("wait p50 (jobs that started)", "s"), Column("wait p99 (jobs that started)", "s"),
         Column("deadlocks", "count"), Column("jobs that started", "count")],
        [[POLICY_LABELS[p], stats[p]["utilisation"], stats[p]["held_idle"], stats[p]["wait_p50"],
          stats[p]["wait_p99"], stats[p]["deadlocks"], stats[p]["started"]] for p in POLICIES]
        + [[REAL_LABELS[k], real[k]["utilisation"], real[k]["held_idle"], real[k]["wait_p50"], real[k]["wait_p99"],
            real[k]["deadlocks"], real[k]["started"]] for k in REAL_LABELS],
    )


def worked_problems(demo_gpus: int, demo: dict, pods_ready_timeout: float, seq: list[float], n_to_cap: int) -> dict:
    """The two jobs by hand, what the timeout costs in GPU time, the backoff's total up to the cap."""
    return {
        "two_jobs": {"gpus": int(demo_gpus), "size": int(demo["size"]), "each_holds": int(demo_gpus // 2),
                     "gang_second_wait": float(demo["gang"]["wait"][1])},
        "timeout_cost": {"gpu_seconds": float(pods_ready_timeout * demo_gpus),
                         "gpu_hours": float(pods_ready_timeout * demo_gpus / HOUR)},
        "backoff_total": {"n": n_to_cap, "seconds": float(sum(seq[:n_to_cap]))},
    }


# --- the entry function ----------------------------------------------------------------

@model(
    nodes=Param.integer("count", "nodes in the simulated cluster", minimum=2, maximum=512),
    gpus_per_node=Param.integer("count", "GPUs per node"),
    jobs=Param.integer("count", "jobs in the simulated trace", minimum=50, maximum=20_000),
    load=Param.number("1", "offered load (share of GPU capacity the trace asks for)", minimum=0.1, maximum=1.5),
    size_shares=Param.numbers("1", "share of jobs with 1, 2-4, 5-8 and more than 8 GPUs (assumed)", minimum=0),
    size_1=Param.numbers("count", "GPU counts drawn for the 1-GPU bucket", minimum=1),
    size_2_4=Param.numbers("count", "GPU counts drawn for the 2-4-GPU bucket", minimum=1),
    size_5_8=Param.numbers("count", "GPU counts drawn for the 5-8-GPU bucket", minimum=1),
    size_large=Param.numbers("count", "GPU counts drawn for the >8-GPU bucket", minimum=1),
    run_median=Param.numbers("s", "median run time per bucket (Philly Fig. 2, read off the figure)", above=0),
    run_p90=Param.numbers("s", "90th-percentile run time per bucket (Philly Fig. 2, read off the figure)", above=0),
    run_cap=Param.positive("s", "longest run time (the figure's axis ends there)"),
    pods_ready_timeout=Param.positive("s", "Kueue waitForPodsReady timeout (default)"),
    backoff_base=Param.positive("s", "Kueue requeue backoffBaseSeconds (default)"),
    backoff_max=Param.positive("s", "Kueue requeue backoffMaxSeconds (default)"),
    scenario_gpus=Param.integer("count", "GPUs in the scenario's training job"),
    unavailability=Param.numbers("1", "per-node unavailability 1 − a compared (assumed)", above=0),
    pod_backoff_initial=Param.positive("s", "kube-scheduler podInitialBackoffSeconds (default)"),
    pod_backoff_max=Param.positive("s", "kube-scheduler podMaxBackoffSeconds (default)"),
    pod_noise=Param.number("s", "timing noise on a failed pod's queue timestamp (assumed)", minimum=0, maximum=60),
    spares=Param.numbers("count", "spare nodes beside the scenario's gang compared", minimum=0),
    observation_window=Param.positive("s", "length of the failure record (the scenario's)"),
    interruptions=Param.number("count", "unexpected interruptions in that record (the scenario's)", minimum=0),
    record_interruptions=Param.positive("count", "Table 5's total: the composition's denominator"),
    non_node_interruptions=Param.numbers("count", "Table 5's rows a node swap does not cure", minimum=0),
    repair_times=Param.numbers("s", "time a failed node is out of the pool, compared (assumed)", above=0),
    demo_gpus=Param.integer("count", "animation: GPUs in the two-job example", minimum=4, maximum=64,
                            animation=True),
    demo_quota=Param.integer("count", "animation: the Kueue GPU quota in the two-job example (above capacity)",
                             minimum=4, maximum=256, animation=True),
    seed=Param.integer("1", "random seed", minimum=0, animation=True),
)
def gang_scheduling(nodes: int, gpus_per_node: int, jobs: int, load: float, size_shares: list,
                    size_1: list, size_2_4: list, size_5_8: list, size_large: list, run_median: list,
                    run_p90: list, run_cap: float, pods_ready_timeout: float, backoff_base: float,
                    backoff_max: float, scenario_gpus: int, unavailability: list, pod_backoff_initial: float,
                    pod_backoff_max: float, pod_noise: float, spares: list, observation_window: float,
                    interruptions: float, record_interruptions: float, non_node_interruptions: list,
                    repair_times: list, demo_gpus: int = 16,
                    demo_quota: int = 24, seed: int = 13) -> Exhibit:
    """gang-scheduling's data: three policies over one Philly-like trace, Kueue's backoff, aⁿ."""
    G = int(nodes * gpus_per_node)
    sizes = [size_1, size_2_4, size_5_8, size_large]
    check_trace_params(G, sizes, size_shares, run_median, run_p90, unavailability)
    availability = [1.0 - u for u in unavailability]
    rng = np.random.default_rng(seed)
    trace = draw_trace(jobs, G, size_shares, sizes, run_median, run_p90, run_cap, load, rng)
    horizon = float(trace["submit"][-1])

    res, stats = run_policies(trace["size"], trace["run"], trace["submit"], G, horizon)
    policy_claims(stats, float(res["greedy"]["end_time"]), jobs, horizon)
    seq, n_to_cap = backoff_study(backoff_base, backoff_max)
    sp = start_probability_study(scenario_gpus, gpus_per_node, availability)
    demo = two_job_demo(demo_gpus, pods_ready_timeout, backoff_base, backoff_max, seed)
    if not demo_quota >= 2 * demo["size"] > demo_gpus:
        raise ParamError("demo_quota", demo_quota,
                         "room for both jobs: Kueue admits both only if the quota exceeds capacity")
    if demo_gpus % gpus_per_node or demo["size"] % gpus_per_node:
        raise ParamError("demo_gpus", demo_gpus, "whole nodes, and ¾ of them whole nodes too (multi-node pods)")
    real, pods_runs = realistic_study(trace, G, gpus_per_node, horizon, pods_ready_timeout, backoff_base, backoff_max,
                           pod_backoff_initial, pod_backoff_max, pod_noise, seed)
    realistic_claims(real, stats)
    spare_rows = spares_study(scenario_gpus, gpus_per_node, availability, [int(v) for v in spares])
    if scenario_gpus < gpus_per_node:
        raise ParamError("scenario_gpus", scenario_gpus, f"at least one node of {gpus_per_node} GPUs (a gang of nodes)")
    if sum(non_node_interruptions) >= record_interruptions:
        raise ParamError("non_node_interruptions", non_node_interruptions,
                         f"fewer than the table's {record_interruptions:g} in all")
    repair_rows, node_share, node_rate = record_availability(
        observation_window, interruptions, record_interruptions, non_node_interruptions,
        int(round(scenario_gpus / gpus_per_node)), repair_times, [int(v) for v in spares])
    trace_shape = {"size_shares": size_shares, "run_median": run_median, "run_p90": run_p90, "run_cap": run_cap,
                   "load": load}
    robust, no_big = robustness(sizes, seed, jobs, G, trace_shape)
    spread = pods_seed_spread(trace_shape, sizes, jobs, G, gpus_per_node, seed,
                              {"timeout": pods_ready_timeout, "backoff_base": backoff_base,
                               "backoff_max": backoff_max, "pod_backoff_initial": pod_backoff_initial,
                               "pod_backoff_max": pod_backoff_max, "noise": pod_noise},
                              {seed: {"greedy_held_idle": stats["greedy"]["held_idle"],
                                      "gang_utilisation": stats["gang"]["utilisation"],
                                      "backfill_utilisation": stats["backfill"]["utilisation"]},
                               **{r["seed"]: r for r in robust}})
    return Exhibit(
        summary={**scene_summary(G, nodes, jobs, load, gpus_per_node, trace, horizon, res, stats, demo, sp,
                                 availability, robust, no_big, int(max(size_large))),
                 **realistic_summary(real, spare_rows, demo_quota),
                 **spread_summary(spread, real["pods"]["held_idle"], real["pods_none"]["held_idle"]),
                 "demo_jitter_max": demo_jitter_max(backoff_base), "node_share": node_share,
                 "node_interruptions": float(interruptions) * node_share,
                 "node_mtbf": 1.0 / node_rate if node_rate > 0 else None},
        series=scene_series({**res, **pods_runs}, horizon, jobs, sp, seq, int(spares[1]), availability[1],
                            repair_rows),
        table=policies_table(jobs, G, nodes, gpus_per_node, load, stats, real),
        animation={"demo": {"gpus": int(demo_gpus), "size": int(demo["size"]), "timeout": float(pods_ready_timeout),
                            "quota": int(demo_quota), "gpus_per_node": int(gpus_per_node), "run": HOUR,
                            "evictions_a": demo["evictions_a"], "evictions_b": demo["evictions_b"]}},
        problems=worked_problems(demo_gpus, demo, pods_ready_timeout, seq, n_to_cap),
        records={"robustness": robust + no_big, "backoff": [{"n": i + 1, "delay": v} for i, v in enumerate(seq)],
                 "availability": [{"a": float(a), "p": p} for a, p in zip(availability, sp["at_scen"], strict=True)],
                 "spares": spare_rows, "pods_seeds": spread, "repair": repair_rows},
    )


__all__ = ["POLICIES", "BoundExceeded", "kueue_backoff", "kueue_backoff_sequence", "gang_start_probability",
           "gang_start_probability_spares", "pods_of", "pod_backoff", "simulate_pods",
           "availability_for", "lognormal_params", "draw_trace", "simulate", "gang_scheduling", "MINUTE"]
