"""Keeping the GPUs fed: a prefetching input pipeline with heavy-tailed reads.

The consumer is one data-parallel rank of the Llama 3 405B run: each step it
needs B = tokens per batch / (DP × sequence length) sequences, and its GPUs
compute for T = F·tokens / (GPUs × achieved FLOP/s) seconds, F the model FLOPs
per token, 6N plus attention over the context (`models.training`, the count every
scene uses). Its loader has `workers` processes
that read one sequence each from object storage: a small GET whose latency is
lognormal, plus a decode (decompression) cost. A ring buffer of `depth` slots
lets the loader run ahead of the GPU: sequence j may be read once the GPU has
asked for the batch that makes j at most `depth` sequences ahead of it.
depth = 0 is synchronous loading (reads start when the GPU asks); depth = B
is one batch prefetched.

The read latency: a lognormal with median m (AWS's "tens of milliseconds" for
small requests: an estimate) and shape σ fitted to a measured tail ratio,
p99/p50 of a leaf request in Dean & Barroso's fan-out service (Table 1):
σ = ln(p99/p50)/z₀.₉₉. The same fit predicts their p95, which the tests check.

The simulation is event-driven: samples are assigned in order to the worker
that frees first (a heap of worker free times), a batch is ready when all its
sequences are, and the GPU starts step k at max(its request, batch ready).
Every loop is bounded by the number of samples simulated (MAX_SAMPLES).

Analytic checks, with confidence intervals:
- depth 0, one worker: each step waits for B reads in series, E[wait] = B·E[X];
- depth 0, at least B workers: each step waits for the slowest of B parallel
  reads, E[wait] = ∫(1 − F(x)^B) dx;
- saturated (step ≪ reads): throughput is N/E[X] sequences per second, so
  the step period is B·E[X]/N (the bound every configuration obeys).
Little's law L = λW is measured on the buffer of ready sequences.

Units: seconds, bytes, bytes per second (models/units.py).
"""

from __future__ import annotations

import heapq
import math
from statistics import NormalDist

import numpy as np
from scipy import integrate
from scipy.special import ndtr

from models import scenario_facts
from models.exhibit import Column, Exhibit, Param, ParamError, Table, check, curves, model
from models.lib.checkpoint import checkpoint_bytes, checkpoint_cost
from models.lib.memo import pure
from models.lib.seeded_memo import seeded
from models.training import step_time
from models.units import fmt_percent

Z_CHECK = 3.0  # simulation agrees with a formula when |mean − formula| ≤ 3 SE
MAX_SAMPLES = 2_000_000  # sequences one simulation may read: bounds every loop
MAX_BATCH = 64  # sequences per rank a step the simulations accept: a per-read loop, so this bounds its run time
Z99 = NormalDist().inv_cdf(0.99)
Z95 = NormalDist().inv_cdf(0.95)


class BoundExceeded(RuntimeError):
    """A simulation asked for more samples than its budget."""


# --- the scenario's demand ---------------------------------------------------------


def token_id_bytes(vocabulary: float) -> int:
    """Bytes of the smallest standard unsigned integer that holds every token id."""
    for nbytes in (1, 2, 4, 8):
        if vocabulary <= 2 ** (8 * nbytes):
            return nbytes
    raise ValueError(f"a vocabulary of {vocabulary:g} tokens does not fit in 64 bits")


# --- the read latency ---------------------------------------------------------------


def lognormal_from_percentiles(p50: float, p99: float) -> tuple[float, float]:
    """(μ, σ) of the lognormal with this median and 99th percentile."""
    if not 0 < p50 < p99:
        raise ValueError("need 0 < p50 < p99")
    return math.log(p50), math.log(p99 / p50) / Z99


def lognormal_quantile(q, mu: float, sigma: float):
    z = np.vectorize(NormalDist().inv_cdf)(np.asarray(q, dtype=float))
    return np.exp(mu + sigma * z)


def lognormal_mean(mu: float, sigma: float) -> float:
    return math.exp(mu + sigma**2 / 2)


def expected_max(n: int, mu: float, sigma: float, shift: float = 0.0) -> float:
    """E[max of n iid (shift + lognormal)] = shift + ∫₀^∞ (1 − F(x)^n) dx, on a fine log grid."""
    x = np.exp(np.linspace(mu - 12 * sigma, mu + 14 * sigma, 20001))
    z = (np.log(x) - mu) / (sigma * math.sqrt(2.0))
    cdf = 0.5 * (1.0 + np.vectorize(math.erf)(z))
    tail = 1.0 - cdf**n
    return shift + float(x[0] + np.trapezoid(tail, x))


# --- the simulation --------------------------------------------------------------------


def simulate(workers: int, depth: int, batch: int, step: float, reads: np.ndarray, record: bool = False) -> dict:
    """Run the pipeline over len(reads) // batch steps with the given read times (s).

    Sequence j may start once the GPU has requested batch max(0, ⌊(j − depth)/B⌋)
    and a worker is free; workers take sequences in order (the first free one).
    Returns per-step request and start times, the GPU's wait per step, and the
    arrival (read done) and departure (consumed) time of every sequence.
    """
    n = len(reads)
    if n > MAX_SAMPLES:
        raise BoundExceeded(f"simulate: {n:,} reads asked, the budget is {MAX_SAMPLES:,}")
    steps = n // batch
    # plain Python floats in the loop: the same float64 arithmetic as numpy scalars, several times faster
    times = np.asarray(reads, dtype=float).tolist()
    request = [0.0] * steps
    start = [0.0] * steps
    arrive = [0.0] * (steps * batch)
    begin = [0.0] * (steps * batch)
    free = [0.0] * workers  # heap of the times each worker is next free
    heapq.heapify(free)
    # the hot loop: comparisons in place of max() calls and one heapreplace in place of a pop and a push (the
    # worker that frees first is free[0]); the same values in the same order, bit for bit
    replace = heapq.heapreplace
    j = 0
    for k in range(steps):  # batch k: its reads, then its step
        request[k] = 0.0 if k == 0 else start[k - 1] + step
        ready = 0.0
        for _ in range(batch):  # bounded: batch reads per step
            b = (j - depth) // batch  # the request that lets sequence j start
            allowed = request[b if b > 0 else 0] if b <= k else math.inf
            t0 = free[0]
            if allowed > t0:
                t0 = allowed
            t1 = t0 + times[j]
            replace(free, t1)
            begin[j], arrive[j] = t0, t1
            if t1 > ready:
                ready = t1
            j += 1
        start[k] = ready if ready > request[k] else request[k]
    request, start, arrive, begin = (np.array(v) for v in (request, start, arrive, begin))
    wait = start - request
    depart = np.repeat(start, batch)
    out = {"request": request, "start": start, "wait": wait, "arrive": arrive, "depart": depart,
           "period": np.diff(start), "end": float(start[-1] + step)}
    if record:
        out["begin"] = begin
    return out


def simulate_lockstep(workers: int, depth: int, batch: int, step: float, reads: np.ndarray) -> dict:
    """The job: every row of `reads` is one data-parallel rank's loader (the same pipeline as `simulate`), and
    the ranks step in lockstep: step k starts when the slowest rank has its batch (its gradients are all-reduced
    with every other rank's), so one rank's slow read stalls all of them.

    Vectorised over ranks; bounded by the number of reads (MAX_SAMPLES). Returns the job's request and start
    times and its wait per step."""
    ranks, n = reads.shape
    if ranks * n > MAX_SAMPLES:
        raise BoundExceeded(f"simulate_lockstep: {ranks * n:,} reads asked, the budget is {MAX_SAMPLES:,}")
    steps = n // batch
    cols = np.ascontiguousarray(reads.T)  # one row per sequence index, one column per rank
    free = np.zeros(ranks * workers)  # each rank's workers' next free times, rank-major
    by_rank = free.reshape(ranks, workers)  # a view of it, one row per rank (made once, not per read)
    offsets = np.arange(ranks) * workers
    request, start = np.zeros(steps), np.zeros(steps)
    ready = np.empty(ranks)
    slot, t1 = np.empty(ranks, dtype=np.intp), np.empty(ranks)  # per-read scratch, filled in place
    j = 0
    for k in range(steps):  # bounded: steps × batch reads per rank
        request[k] = 0.0 if k == 0 else start[k - 1] + step
        ready.fill(0.0)
        for _ in range(batch):
            b = max(0, (j - depth) // batch)
            allowed = request[b] if b <= k else math.inf
            np.add(offsets, by_rank.argmin(axis=1), out=slot)
            np.maximum(free[slot], allowed, out=t1)
            t1 += cols[j]
            free[slot] = t1
            np.maximum(ready, t1, out=ready)
            j += 1
        start[k] = max(request[k], float(ready.max()))
    return {"request": request, "start": start, "wait": start - request, "period": np.diff(start),
            "end": float(start[-1] + step)}


def read_times(rng: np.random.Generator, n: int, mu: float, sigma: float, decode: float) -> np.ndarray:
    if n > MAX_SAMPLES:
        raise BoundExceeded(f"read_times: {n:,} reads asked, the budget is {MAX_SAMPLES:,}")
    return decode + rng.lognormal(mu, sigma, size=n)


def _time_average(starts: np.ndarray, ends: np.ndarray, lo: float, hi: float) -> float:
    """Time-average on [lo, hi] of how many intervals [start, end) are open: integrated from the
    +1/−1 events, not from the intervals' lengths."""
    times = np.concatenate([starts, ends])
    delta = np.concatenate([np.ones_like(starts), -np.ones_like(ends)])
    order = np.lexsort((delta, times))  # at a tie, close before opening
    t, c = times[order], np.cumsum(delta[order])
    inside = (t >= lo) & (t < hi)
    before = c[t < lo][-1] if np.any(t < lo) else 0.0
    edges = np.concatenate([[lo], t[inside], [hi]])
    counts = np.concatenate([[before], c[inside]])
    return float(np.sum(counts * np.diff(edges)) / (hi - lo))


def littles_law(sim: dict, mean_read: float) -> dict:
    """Little's law L = λW, measured on the middle half of the run (so it is not an identity).

    Buffer: L is the time-average count of sequences read and not yet consumed,
    λ the arrivals per second in the window, W the mean wait of those arrivals.
    Reads in flight: L is the time-average count of reads in progress, against
    λ times the distribution's mean read time (analytic, not measured).
    """
    lo, hi = float(sim["start"][-1]) * 0.25, float(sim["start"][-1]) * 0.75
    a, d, b = sim["arrive"], sim["depart"], sim["begin"]
    L = _time_average(a, d, lo, hi)
    mine = (a >= lo) & (a < hi)
    lam = float(np.sum(mine)) / (hi - lo)
    W = float(np.mean(d[mine] - a[mine]))
    L_flight = _time_average(b, a, lo, hi)
    return {"L": L, "lambda": lam, "W": W, "rel_error": abs(L - lam * W) / L,
            "L_flight": L_flight, "flight_rel_error": abs(L_flight - lam * mean_read) / L_flight}


def summarise(sim: dict, step: float, warmup: int = 1) -> dict:
    """Idle fraction of the GPU in steady state, mean wait per step, p50/p99 step period.

    The first `warmup` batches are left out (a cold start, paid once per run: the first batch,
    or as many batches as a deep ring takes to fill): the idle fraction counts the waits of
    steps warmup… over the time from step warmup − 1 on.
    """
    total = sim["end"] - sim["start"][warmup - 1]
    waits = sim["wait"][warmup:]
    period = sim["period"][warmup - 1:]
    return {"idle": float(np.sum(waits) / total), "mean_wait": float(np.mean(waits)),
            "wait_se": float(np.std(waits, ddof=1) / math.sqrt(len(waits))),
            "p50": float(np.percentile(period, 50)), "p99": float(np.percentile(period, 99)),
            "mean_period": float(np.mean(period))}


@pure
def simulated_summary(workers: int, depth: int, batch: int, step: float, reads: np.ndarray, warmup: int = 1) -> dict:
    """summarise(simulate(...)), memoised by the reads' bytes: the range test and the Explore panels call the model
    at settings that leave most of its seeded reads and configurations as they were, and each simulation is a
    per-read Python loop."""
    return summarise(simulate(workers, depth, batch, step, reads), step, warmup)


def sweep(workers_list, depths, batch: int, step: float, mu: float, sigma: float, decode: float,
          steps: int, rng: np.random.Generator) -> list[dict]:
    """Idle fraction and step-time percentiles for every (workers, depth); the same reads for all
    (common random numbers, so the curves differ only by the configuration)."""
    reads = read_times(rng, steps * batch, mu, sigma, decode)
    rows = []
    for d in depths:
        for w in workers_list:
            s = simulated_summary(int(w), int(d), batch, step, reads)
            rows.append({"workers": int(w), "depth": int(d), **s})
    return rows


def by_sync_best(sync_rows: list[dict]) -> float:
    return min(r["idle"] for r in sync_rows)


def smallest_busy(rows: list[dict], target: float) -> dict | None:
    """The configuration with the fewest workers, then the shallowest ring, whose idle ≤ target."""
    ok = [r for r in rows if r["idle"] <= target]
    return min(ok, key=lambda r: (r["workers"], r["depth"])) if ok else None


def _field(row: dict | None, key: str):
    """One value of a configuration smallest_busy found; None when no configuration compared keeps
    the GPU busy (the claim that one does has failed, and the page's numbers say so)."""
    return None if row is None else row[key]


# --- the stressed cases: request-rate throttling, retries, shards, images -------------------


def backoff_mean(attempt: int, base: float, cap: float) -> float:
    """Mean full-jitter wait before retry `attempt` (0 = the first retry): U(0, min(cap, base·2^attempt))."""
    return min(cap, base * 2.0**attempt) / 2.0


def retried_read_times(rng: np.random.Generator, n: int, mu: float, sigma: float, decode: float,
                       throttled: float, backoff_base: float, backoff_cap: float) -> np.ndarray:
    """Read times when each GET is answered 503 Slow Down with probability `throttled`.

    A refused GET costs one lognormal latency (the 503 comes back like any reply), then the
    client waits a full-jitter backoff U(0, min(cap, base·2^i)) before attempt i + 1; it retries
    until the GET succeeds (a loader cannot skip a sample). Attempts are independent: the 503s
    are not correlated in time (the page says so).
    """
    return with_retries(rng, read_times(rng, n, mu, sigma, decode), mu, sigma, throttled, backoff_base, backoff_cap)


def with_retries(rng: np.random.Generator, reads: np.ndarray, mu: float, sigma: float, throttled: float,
                 backoff_base: float, backoff_cap: float) -> np.ndarray:
    """These reads, each preceded by its refused attempts (common random numbers: the read that
    finally succeeds is the one drawn without throttling)."""
    draws = retry_draws(rng, len(reads), mu, sigma, throttled)
    return apply_retries(reads, draws, throttled, backoff_base, backoff_cap)


def retry_draws(rng: np.random.Generator, n: int, mu: float, sigma: float, max_throttled: float) -> dict:
    """The random numbers of n reads' refused attempts, drawn once for every share up to max_throttled:
    a uniform u per read (it is refused ⌊ln u / ln p⌋ times, so P(at least i refusals) = p^i, and a larger
    p never refuses a read less), and per refusal a latency and a jitter fraction."""
    if not 0 <= max_throttled < 1:
        raise ValueError("the share of GETs refused must be in [0, 1)")
    if n > MAX_SAMPLES:
        raise BoundExceeded(f"retry_draws: {n:,} reads asked, the budget is {MAX_SAMPLES:,}")
    u = 1.0 - rng.random(n)  # in (0, 1]
    rounds = int(_refusals(u, max_throttled).max(initial=0))
    return {"u": u, "latency": rng.lognormal(mu, sigma, size=(n, rounds)), "jitter": rng.random((n, rounds))}


def _refusals(u: np.ndarray, throttled: float) -> np.ndarray:
    if throttled == 0:
        return np.zeros(len(u), dtype=int)
    return np.floor(np.log(u) / math.log(throttled)).astype(int)


def apply_retries(reads: np.ndarray, draws: dict, throttled: float, backoff_base: float,
                  backoff_cap: float) -> np.ndarray:
    """Each read plus its refused attempts at share `throttled`: a refused GET costs one lognormal latency,
    then a full-jitter wait U(0, min(cap, base·2^i)) before attempt i + 1 (bounded: at most the rounds drawn)."""
    if not 0 <= throttled < 1:
        raise ValueError("the share of GETs refused must be in [0, 1)")
    failures = _refusals(draws["u"], throttled)
    rounds = draws["latency"].shape[1]
    if failures.max(initial=0) > rounds:
        raise ValueError("retry_draws was made for a smaller share of refusals")
    windows = np.minimum(backoff_cap, backoff_base * 2.0 ** np.arange(rounds))
    # only the reads refused at least once (a share p of them) add anything: their rows are summed exactly as a
    # sum over all rows would sum them, and a read never refused keeps its time (it would add 0.0)
    refused = np.flatnonzero(failures)
    extra = draws["latency"][refused] + draws["jitter"][refused] * windows
    mask = np.arange(rounds) < failures[refused, None]
    out = np.array(reads, dtype=float)
    out[refused] += np.sum(extra * mask, axis=1)
    return out


def retried_mean(mean_read: float, decode: float, throttled: float, backoff_base: float, backoff_cap: float,
                 terms: int = 200) -> float:
    """E[read time with retries]: E[refusals] = p/(1−p) extra GETs, and the backoff before retry i
    is paid with probability p^(i+1)."""
    get = mean_read - decode
    extra_gets = throttled / (1.0 - throttled) * get
    waits = sum(throttled ** (i + 1) * backoff_mean(i, backoff_base, backoff_cap) for i in range(terms))
    return mean_read + extra_gets + waits


# --- the tail, analytically: the idle a ring leaves when stalls are rare ------------------------------------------


def lognormal_excess(s: float, mu: float, sigma: float) -> float:
    """E[(L − s)⁺] of a lognormal L: e^{μ+σ²/2}·Φ(d₁) − s·Φ(d₂), d₂ = (μ − ln s)/σ, d₁ = d₂ + σ."""
    mean = math.exp(mu + sigma**2 / 2)
    if s <= 0:
        return mean - s
    d2 = (mu - math.log(s)) / sigma
    return max(0.0, mean * float(ndtr(d2 + sigma)) - s * float(ndtr(d2)))


def refused_tails(mu: float, sigma: float, base: float, cap: float, max_share: float, horizon: float,
                  resolution: float) -> list[tuple]:
    """For n = 1, 2, … refusals, the law of X_n = L₀ + Σ_{i<n}(L_i + U_i·min(cap, base·2^i)) on a grid (the
    latencies L lognormal, U uniform on [0, 1]): its values and, from each cell on, the mass and the first moment
    (so E[(X_n − s)⁺] and P(X_n > s) are two look-ups). Enough n that p^n < 1e-16 at the largest share; the grid
    reaches past `horizon` by every backoff window and two extreme latencies; at most 2^18 cells (bounded)."""
    if max_share <= 0:
        return []
    nmax = max(1, math.ceil(math.log(1e-16) / math.log(max_share)))
    windows = [min(cap, base * 2.0**i) for i in range(nmax)]
    q = math.exp(mu + 7.5 * sigma)  # P(L > q) < 4e-14: a latency is cut off there
    extent = horizon + sum(windows) + 2 * q
    cells = int(min(1 << 18, max(1024, math.ceil(extent / resolution))))
    dx = extent / cells
    size = 1 << (2 * cells - 1).bit_length()
    edges = np.arange(cells + 1) * dx
    cdf = ndtr((np.log(np.maximum(edges, 1e-300)) - mu) / sigma)
    cdf[0] = 0.0
    latency = np.diff(cdf)
    latency[edges[1:] > q] = 0.0
    spec_l = np.fft.rfft(latency, size)
    spec, by_window, out = spec_l, {}, []
    for n in range(1, nmax + 1):  # bounded: nmax convolutions
        w = windows[n - 1]
        if w not in by_window:
            by_window[w] = np.fft.rfft(np.clip((np.minimum(edges[1:], w) - edges[:-1]) / w, 0.0, None), size)
        spec = spec * spec_l * by_window[w]
        mass = np.clip(np.fft.irfft(spec, size)[:cells], 0.0, None)
        x = np.arange(cells) * dx + (2 * n + 1) * dx / 2  # each of the 2n + 1 terms sits mid-cell
        out.append((x, np.cumsum(mass[::-1])[::-1], np.cumsum((mass * x)[::-1])[::-1]))
    return out


def retried_quantile(q: float, fit: dict, throttled: float, base: float, cap: float,
                     resolution: float = 1e-3) -> float:
    """The q-quantile of one read X with its refusals at share p (the law read_tail integrates): X = decode + X_n
    with probability (1 − p)·p^n, X_n as in refused_tails. P(X ≤ t) needs each X_n's law only up to t, so the
    grid stops where the mixture's CDF passes q: a fine grid (1 ms cells) over a few seconds, not refused_tails'
    whole backoff range. The page's p99 of a retried read is this, not a sample percentile (a sample of a few
    thousand reads puts it tens of milliseconds off). Bounded: at most 12 doublings of the grid."""
    mu, sigma = fit["mu"], fit["sigma"]
    if not 0 <= throttled < 1 or not 0 < q < 1:
        raise ValueError("need a share of GETs refused in [0, 1) and a quantile in (0, 1)")
    if throttled == 0:
        return float(lognormal_quantile(q, mu, sigma)) + fit["decode"]
    nmax = max(1, math.ceil(math.log(1e-12) / math.log(throttled)))  # the refusal counts that carry any mass
    extent = 4.0 * math.exp(mu + Z99 * sigma) + 2.0 * base
    for _ in range(12):  # bounded: each pass doubles the grid until its CDF passes q
        cells = math.ceil(extent / resolution)
        size = 1 << (2 * cells - 1).bit_length()
        edges = np.arange(cells + 1) * resolution
        cdf_l = ndtr((np.log(np.maximum(edges, 1e-300)) - mu) / sigma)
        cdf_l[0] = 0.0
        spec_l = np.fft.rfft(np.diff(cdf_l), size)
        spec, total = spec_l, (1 - throttled) * cdf_l[1:]  # n = 0: the lognormal at the cells' right edges
        for n in range(1, nmax + 1):  # bounded: nmax convolutions
            w = min(cap, base * 2.0 ** (n - 1))
            spec = spec * spec_l * np.fft.rfft(np.clip((np.minimum(edges[1:], w) - edges[:-1]) / w, 0.0, None), size)
            mass = np.clip(np.fft.irfft(spec, size)[:cells], 0.0, None)
            # 2n + 1 terms, each spread over its cell: index j's mass lies below (j + 2n + 1)·Δ
            cdf_n = np.interp(edges[1:], (np.arange(cells) + 2 * n + 1) * resolution, np.cumsum(mass), left=0.0)
            total = total + (1 - throttled) * throttled**n * cdf_n
        if total[-1] >= q:
            return float(np.interp(q, total, edges[1:])) + fit["decode"]
        extent *= 2
    raise BoundExceeded(f"retried_quantile: the {q:g} quantile lies past {extent:g} s")


def read_tail(s: float, fit: dict, throttled: float, tails: list) -> tuple[float, float]:
    """(E[(X − s)⁺], P(X > s)) of one read X (decode, a GET, and its refusals at share p, each refusal a
    latency and a full-jitter backoff): the no-refusal term in closed form, the others from `tails`."""
    mu, sigma, t = fit["mu"], fit["sigma"], s - fit["decode"]
    excess = (1 - throttled) * lognormal_excess(t, mu, sigma)
    survival = (1 - throttled) * (1.0 if t <= 0 else float(ndtr((mu - math.log(t)) / sigma)))
    for n, (x, mass, moment) in enumerate(tails if throttled > 0 else [], start=1):
        weight = (1 - throttled) * throttled**n
        i = int(np.searchsorted(x, t, side="right"))
        if i < len(x):
            excess += weight * (moment[i] - t * mass[i])
            survival += weight * mass[i]
    return float(excess), float(survival)


def tail_idle(batches: int, step: float, reads_per_step: float, fit: dict, throttled: float, tails: list) -> dict:
    """The idle a ring of `batches` batches leaves, from the read-time tail, with workers enough to keep up:
    a read is started `batches` steps before its batch is due, so it stalls the step by (X − batches·step)⁺.
    While stalls are rare they do not overlap: the wait per step is W = reads_per_step·E[(X − kT)⁺] (a
    union bound, exact to first order), the idle W/(T + W), and a step stalls with probability
    1 − (1 − P(X > kT))^reads_per_step. reads_per_step = B for one rank, ranks·B for the lockstep job."""
    excess, survival = read_tail(batches * step, fit, throttled, tails)
    wait = reads_per_step * excess
    return {"batches": batches, "idle": wait / (step + wait), "wait": wait, "p_slow": survival,
            "stall_share": -math.expm1(reads_per_step * math.log1p(-min(survival, 1 - 1e-16)))}


def hedged_excess(s: float, fit: dict, delay: float, keep_first: bool) -> float:
    """E[(X − s)⁺] of a read whose GET gets a second, independent GET after `delay` if it has not answered:
    hedged (keep_first: the first stays open, Y = min(L₁, d + L₂), so P(Y > t) = P(L₁ > t)·P(L₂ > t − d) for t > d)
    or timed out and retried (the first cancelled: P(Y > t) = P(L₁ > d)·P(L₂ > t − d)); X = decode + Y. The
    excess is the survival's integral from s on, by quadrature."""
    mu, sigma = fit["mu"], fit["sigma"]

    def surv(t: float) -> float:
        return 1.0 if t <= 0 else float(ndtr((mu - math.log(t)) / sigma))

    t0 = s - fit["decode"]
    # before the delay only the first GET counts: the lognormal's closed-form excess, differenced
    head = lognormal_excess(t0, mu, sigma) - lognormal_excess(delay, mu, sigma) if t0 < delay else 0.0
    v0 = max(t0 - delay, 0.0)  # after it, t = delay + v with v the second GET's time so far
    if not keep_first:  # cancelled: P(L₁ > d)·P(L₂ > v), again closed form
        return head + surv(delay) * lognormal_excess(v0, mu, sigma)
    # hedged: ∫ P(L₁ > d + v)·P(L₂ > v) dv by quadrature in ln v, over the lognormal's reach (±14σ)
    lo, hi = (math.log(v0) if v0 > 0 else mu - 14 * sigma), mu + 14 * sigma
    if lo >= hi:
        return head
    late = integrate.quad(lambda u: surv(delay + math.exp(u)) * surv(math.exp(u)) * math.exp(u), lo, hi, limit=400)[0]
    return head + late


def least_ring(idle, target: float, kmax: int) -> int | None:
    """The least whole ring k in 1…kmax with idle(k) ≤ target, None if even kmax is not; idle must not rise with k
    (a read asked for earlier can only stall less). Doublings bracket the ring, bisection narrows it: the page
    prints the least depth that meets the busy line, not the next power of two (a search over doublings alone
    overstated the job's ring by up to 2x). About 2·log2(kmax) evaluations."""
    seen: dict[int, bool] = {}

    def ok(k: int) -> bool:
        if k not in seen:
            seen[k] = idle(k) <= target
        return seen[k]

    lo, hi = 0, 1  # invariant: lo fails (0 is no ring at all), hi is the candidate
    while not ok(hi):  # bounded: doublings up to kmax
        if hi >= kmax:
            return None
        lo, hi = hi, min(2 * hi, kmax)
    while hi - lo > 1:  # bounded: bisection, log2(kmax) halvings
        mid = (lo + hi) // 2
        lo, hi = (lo, mid) if ok(mid) else (mid, hi)
    return hi


def hedged_ring(step: float, reads_per_step: float, fit: dict, delay: float, keep_first: bool,
                busy_target: float) -> int | None:
    """The least ring of 1…JOB_MAX_BATCHES batches whose idle n·E[(X − kT)⁺]/(T + …) is within the target, for
    hedged or timed-out reads (hedged_excess; every GET answered)."""
    def idle(k: int) -> float:
        wait = reads_per_step * hedged_excess(k * step, fit, delay, keep_first)
        return wait / (step + wait)
    return least_ring(idle, busy_target, JOB_MAX_BATCHES)


def demand_case(name: str, step: float, tokens_per_batch: float, tokens_per_sample: float, bytes_per_sample: float,
                decode_per_sample: float, get_limit: float, shard_bytes: float, run_tokens: float,
                nodes: float) -> dict:
    """What one kind of data costs the store and the hosts: bytes, GETs (one object per sample,
    or one per shard), the request-rate ceiling of one prefix, and the decode cores per node."""
    tokens_s = tokens_per_batch / step
    samples_s = tokens_s / tokens_per_sample
    bytes_per_token = bytes_per_sample / tokens_per_sample
    samples_per_shard = max(1.0, math.floor(shard_bytes / bytes_per_sample))
    gets_sample = samples_s
    gets_shard = samples_s / samples_per_shard
    return {"case": name, "step": step, "tokens_per_s": tokens_s, "samples_per_s": samples_s,
            "bytes_per_token": bytes_per_token, "bytes_per_s": tokens_s * bytes_per_token,
            "run_bytes": run_tokens * bytes_per_token,
            "gets_per_s": gets_sample, "prefixes_needed": math.ceil(gets_sample / get_limit),
            "served_one_prefix": min(1.0, get_limit / gets_sample),
            "samples_per_shard": samples_per_shard, "shard_gets_per_s": gets_shard,
            "decode_per_sample": decode_per_sample, "decode_cores_per_node": samples_s * decode_per_sample / nodes}


SHARD_MAX_AHEAD = 64  # the deepest shard ring the search tries (a bound on it)
SHARD_SHORT_READS = 2_000  # enough for the double-buffering idle, which is tens of percent


def shard_ring_by_tail(consume: float, reads_per_period: float, shard_fit: dict, busy_target: float) -> int | None:
    """The fewest shards ahead whose idle from the read-time tail is within the target: a shard is asked for `ahead`
    shard-periods before it is due, so it stalls the rank by (X − ahead·consume)⁺ (tail_idle, one shard standing for
    one batch). Each shard in the ring streams on its own connection, so a read starts the moment its slot frees,
    which is what the tail model assumes. reads_per_period is 1 for one rank and the ranks for the lockstep job."""
    return least_ring(lambda k: tail_idle(k, consume, reads_per_period, shard_fit, 0.0, [])["idle"], busy_target,
                      SHARD_MAX_AHEAD)


def shard_stream(case: dict, rank_samples_per_step: float, shard_bytes: float, connection_rate: float,
                 first_byte: np.ndarray, fit: dict, ranks: int, busy_target: float) -> dict:
    """One rank fed from shards: each connection streams a whole shard (first byte, then shard/rate), the
    rank consumes a shard's samples over shard/(samples a step) steps, and a ring holds `ahead` shards.

    The ring is sized from the read-time tail (the first-byte fit's lognormal, the transfer on top), for one
    rank and for the job's ranks in lockstep: a seeded sample's deepest excursion is noise at a 1 % target.
    The sample runs the per-sample pipeline (one shard standing for one sample; the rank starts on a shard only
    when all of it has arrived, so it errs deep) to check the rank's ring and to show what one connection
    and one shard ahead, double buffering, leaves idle."""
    step = case["step"]
    consume = case["samples_per_shard"] / rank_samples_per_step * step  # seconds one shard feeds the rank
    transfer = shard_bytes / connection_rate
    reads = first_byte + transfer
    shard_fit = {**fit, "decode": transfer}  # a shard's read: the GET's first byte (the fit), then the transfer
    mean_read = fit["mean_read"] - fit["decode"] + transfer
    ahead = shard_ring_by_tail(consume, 1, shard_fit, busy_target)
    job_ahead = shard_ring_by_tail(consume, ranks, shard_fit, busy_target)
    # the check needs many reads: at the ring the tail names, a stall takes a first byte beyond the 99.9th
    # percentile, about one read in two thousand, so a sample of a few thousand holds one or two and its idle
    # is that luck (a 2,000-read sample gave 4x the tail's idle); the catalogue's shard_check_reads hold hundreds
    sim = None if ahead is None else simulated_summary(ahead, ahead, 1, consume, reads, ahead)
    short = reads[:SHARD_SHORT_READS]
    one_one = simulated_summary(1, 1, 1, consume, short)["idle"]
    return {"case": case["case"], "consume": consume, "shard_steps": consume / step, "transfer": transfer,
            "mean_read": mean_read, "p99_read": float(lognormal_quantile(0.99, fit["mu"], fit["sigma"])) + transfer,
            "rank_bytes_per_s": rank_samples_per_step * case["bytes_per_s"] / case["samples_per_s"] / step,
            "throughput_workers": math.ceil(mean_read / consume),
            # one connection per shard in the ring; the rank's idle from the tail and in the seeded sample
            "workers": ahead, "ahead": ahead, "job_ahead": job_ahead,
            "idle": None if ahead is None else tail_idle(ahead, consume, 1, shard_fit, 0.0, [])["idle"],
            "simulated_idle": None if sim is None else sim["idle"],
            # the idle's standard error: steps' waits are nearly independent here (a stall rarely spans two)
            "simulated_idle_se": None if sim is None else sim["wait_se"] / sim["mean_period"],
            "simulated_reads": len(reads),
            # host memory: the shard being consumed and the `ahead` shards read (or in flight) after it
            "ring_bytes": None if ahead is None else (ahead + 1) * shard_bytes,
            "job_ring_bytes": None if job_ahead is None else (job_ahead + 1) * shard_bytes,
            "one_one_idle": one_one}


# --- the scene's data ---------------------------------------------------------------------


@model(
    model_params=Param.positive("count", "model parameters"),
    tokens_per_batch=Param.positive("count", "tokens per global batch"),
    gpus=Param.integer("count", "GPUs in the job"),
    flops_per_gpu=Param.positive("FLOP/s", "achieved throughput per GPU"),
    flops_per_param_token=Param.positive("FLOP", "training FLOPs per parameter per token"),
    data_parallel=Param.integer("count", "data-parallel ranks"),
    sequence_length=Param.integer("count", "tokens per sequence"),
    layers=Param.integer("count", "transformer layers (attention's FLOPs)"),
    model_dim=Param.integer("count", "query heads × head size (attention's FLOPs)"),
    vocabulary=Param.positive("count", "tokenizer vocabulary"),
    latency_median=Param.positive("s", "median latency of one read (small GET)"),
    small_request=Param.positive("B", "largest request with that median"),
    tail_p50=Param.positive("s", "reference tail: median"),
    tail_p95=Param.positive("s", "reference tail: 95th percentile"),
    tail_p99=Param.positive("s", "reference tail: 99th percentile"),
    decode_throughput=Param.positive("B/s", "decode (decompression) speed per worker"),
    weight_bytes=Param.positive("B", "bytes per parameter, 16-bit weights"),
    optimizer_bytes=Param.number("B", "bytes per parameter, optimizer state", minimum=0),
    checkpoint_bandwidth=Param.positive("B/s", "storage fabric, sustained"),
    peak_bandwidth=Param.positive("B/s", "storage fabric, peak"),
    workers=Param.numbers("count", "loader workers compared", minimum=1),
    depths=Param.numbers("count", "ring depths compared (sequences ahead)", minimum=0),
    busy_target=Param.fraction("largest idle fraction that counts as busy"),
    steps=Param.integer("count", "simulated steps per configuration", minimum=200, maximum=20_000),
    # sample sizes of two seeded checks: only their noise changes with them (the range test runs their minimum)
    frequent_job_steps=Param.integer("count", "steps of each lockstep job run at a shallow ring", minimum=100,
                                     maximum=20_000),
    shard_check_reads=Param.integer("count", "shard reads the seeded shard check simulates", minimum=20_000,
                                    maximum=4_000_000),
    median_sweep=Param.numbers("s", "read medians compared (the estimate's range)", above=0),
    tail_factor=Param.number("1", "worked problem: the p99 grows by", minimum=1.1, maximum=20),
    small_model_params=Param.positive("count", "stressed case: parameters of a smaller model"),
    small_layers=Param.integer("count", "stressed case: the smaller model's layers"),
    small_model_dim=Param.integer("count", "stressed case: the smaller model's width"),
    gpus_per_node=Param.integer("count", "GPUs per node (decode cores are per node)"),
    run_tokens=Param.positive("count", "tokens of the whole run"),
    image_tokens=Param.positive("count", "tokens one image costs the model"),
    image_set_bytes=Param.positive("B", "bytes of a stored image-text set"),
    image_set_pairs=Param.positive("count", "image-text pairs in that set"),
    image_decode_time=Param.positive("s", "decode and resize one image, one core (estimate)"),
    host_cores=Param.positive("count", "CPU cores per node (what image decode is weighed against)"),
    get_rate_limit=Param.positive("Hz", "GET requests per second one S3 prefix serves"),
    shard_bytes=Param.positive("B", "bytes per shard (one GET streams many samples)"),
    connection_rate=Param.positive("B/s", "one GET's streaming rate (AWS: 85-90 MB/s per connection)"),
    throttled=Param.number("1", "share of GETs answered 503 Slow Down (assumed)", minimum=0, maximum=0.5),
    backoff_base=Param.positive("s", "retry backoff: first full-jitter window (AWS SDK standard mode)"),
    backoff_cap=Param.positive("s", "retry backoff: largest window (AWS SDK standard mode)"),
    legacy_attempts=Param.integer("count", "attempts per GET in Boto3's default (legacy) retry mode", minimum=1),
    retry_after=Param.positive("s", "a GET unanswered this long is retried or hedged (AWS's advice)"),
    seed=Param.integer("1", "random seed", minimum=0, animation=True),
    anim_depth=Param.integer("count", "animation: shallow ring depth", minimum=1, animation=True),
)
def prefetch_pipeline(model_params: float, tokens_per_batch: float, gpus: int, flops_per_gpu: float,
                      flops_per_param_token: float, data_parallel: int, sequence_length: int, layers: int,
                      model_dim: int, vocabulary: float, latency_median: float, small_request: float, tail_p50: float,
                      tail_p95: float, tail_p99: float, decode_throughput: float, weight_bytes: float,
                      optimizer_bytes: float, checkpoint_bandwidth: float, peak_bandwidth: float,
                      workers: list, depths: list, busy_target: float, median_sweep: list, steps: int = 2000,
                      frequent_job_steps: int = 900, shard_check_reads: int = 400_000,
                      small_model_params: float = 8e9, small_layers: int = 32, small_model_dim: int = 4096,
                      gpus_per_node: int = 8, run_tokens: float = 15.6e12, image_tokens: float = 256,
                      image_set_bytes: float = 4.4e12, image_set_pairs: float = 7e7, image_decode_time: float = 5e-3,
                      host_cores: float = 112,
                      get_rate_limit: float = 5500, shard_bytes: float = 1e8, connection_rate: float = 85e6,
                      throttled: float = 0.05,
                      backoff_base: float = 1.0, backoff_cap: float = 20.0, retry_after: float = 2.0,
                      legacy_attempts: int = 5,
                      tail_factor: float = 2.0, seed: int = 11,
                      anim_depth: int = 8) -> Exhibit:
    """The scene's data: the demand, the read-latency fit, the prefetch sweep and its checks."""
    rng = np.random.default_rng(seed)
    workers = sorted({int(w) for w in workers})
    depths = sorted({int(d) for d in depths})
    dem = _demand(model_params, tokens_per_batch, gpus, flops_per_gpu, flops_per_param_token, data_parallel,
                  sequence_length, layers, model_dim, vocabulary, small_request, weight_bytes, optimizer_bytes,
                  checkpoint_bandwidth, steps, anim_depth)
    T, B = dem["T"], dem["B"]
    fit = _latency_fit(latency_median, tail_p50, tail_p95, tail_p99, dem["seq_bytes"] / decode_throughput)
    mu, sigma, decode = fit["mu"], fit["sigma"], fit["decode"]

    rows = sweep(workers, depths, B, T, mu, sigma, decode, steps, rng)
    sw = _sweep_claims(rows, workers, depths, B, busy_target)
    best, by, sync = sw["best"], sw["by"], sw["sync"]
    n_check = min(steps, 4000)
    fc = _formula_checks(rng, n_check, B, T, fit, sync)
    # Little's law on the buffer, at the smallest busy configuration (none busy: nothing measured)
    ll_reads = read_times(rng, n_check * B, mu, sigma, decode)
    ll = (littles_law(simulate(best["workers"], best["depth"], B, T, ll_reads, record=True), fit["mean_read"])
          if best is not None else None)
    check(ll is not None and ll["rel_error"] < 0.01 and ll["flight_rel_error"] < 0.05,
          "Little's law holds on the ring buffer")

    # the smaller model on the same GPUs and batch: its step, counted as every scene counts it
    small_step = scenario_facts.training_step(small_model_params, tokens_per_batch, gpus, flops_per_gpu, small_layers,
                                              small_model_dim, sequence_length, flops_per_param_token)["step_time"]
    retry = {"throttled": float(throttled), "base": float(backoff_base), "cap": float(backoff_cap),
             "after": float(retry_after)}
    # the job: its data-parallel ranks step in lockstep (its idle from the read-time tail)
    job = {"ranks": data_parallel, "frequent_steps": frequent_job_steps}
    problems = _worked_problems(rng, workers, depths, B, T, fit, dem, steps, busy_target, tail_factor,
                                small_step, retry, checkpoint_bandwidth, peak_bandwidth, sw, job)
    cases = _demand_cases(dem, T, small_step, tokens_per_batch, sequence_length, image_tokens,
                          image_set_bytes / image_set_pairs, image_decode_time, get_rate_limit, shard_bytes,
                          run_tokens, gpus / gpus_per_node, fit, model_params / small_model_params)
    decode_sweep = _decode_sweep(cases, host_cores)
    shards = _shard_streams(cases, np.random.default_rng(seed + 2), tokens_per_batch / data_parallel, sequence_length,
                            image_tokens, shard_bytes, connection_rate, fit, shard_check_reads, data_parallel,
                            busy_target)
    sensitivity = _median_sensitivity(rng, median_sweep, latency_median, workers, B, T, sigma, decode, steps,
                                      busy_target, by, small_step, data_parallel)
    # the animation's plan: the shallow ring
    shallow = by.get((workers[0], anim_depth)) or simulated_summary(
        workers[0], anim_depth, B, T, read_times(rng, n_check * B, mu, sigma, decode))
    check(shallow["idle"] > busy_target, "a ring shallower than one batch stalls the step")

    summary = _summary(dem, fit, sw, fc, ll, shallow, workers, anim_depth, steps, checkpoint_bandwidth)
    summary.update(_stress_summary(problems, cases, small_step, model_params / small_model_params, T,
                                   dem["seq_bytes"], B))
    # the same count under Boto3's default (legacy) mode: more attempts, so far fewer GETs fail for good
    summary.update({"legacy_attempts": legacy_attempts, "legacy_hard_error_share": throttled**legacy_attempts,
                    "legacy_hard_errors_per_s": throttled**legacy_attempts * summary["small_text_gets_per_s"]})
    check(legacy_attempts <= SDK_ATTEMPTS or summary["legacy_hard_errors_per_s"] < summary["hard_errors_per_s"],
          "Boto3's default mode, with more attempts than standard mode, fails fewer GETs for good")
    animation = {
        "slots": B, "shallow_depth": anim_depth, "step": T, "mean_read": fit["mean_read"],
        "p99_read": fit["p99_read"], "best_workers": _field(best, "workers"), "shallow_idle": shallow["idle"],
        "shallow_p99": shallow["p99"], "sync_idle": by[(workers[0], 0)]["idle"],
        "reads": [float(x) for x in read_times(np.random.default_rng(seed + 1), B, mu, sigma, decode)],
    }
    summary.update(_shard_summary(shards, shard_bytes, connection_rate))
    # the busy line swept: the smaller model's images from shards, beside the per-sample rings
    img = next(r for r in shards if r["case"] == "image-text, smaller model")
    img_fit = {**fit, "decode": img["transfer"]}
    for r in problems["busy_sweep"]:
        r.update({f"shard_{who}_ahead": shard_ring_by_tail(img["consume"], n, img_fit, r["target"])
                  for who, n in (("rank", 1), ("job", data_parallel))})
    bs = problems["busy_sweep"]
    rings = [k for k in bs[0] if k.endswith(("_batches", "_ahead"))]
    check(all(_or_inf(a[k]) >= _or_inf(b[k]) for a, b in zip(bs, bs[1:]) for k in rings),
          "a looser busy line never needs a deeper ring")
    check(all(_or_inf(bs[0][k]) > _or_inf(bs[-1][k]) for k in ("plain_job_batches", "retried_job_batches")),
          "the busy line moves the job's rings: it is swept, not fixed")
    loose, tight = bs[-1], bs[0]
    summary.update({"busy_loose": loose["target"], "busy_tight": tight["target"],
                    **{f"busy_{tag}_{k}": r[k] for tag, r in (("loose", loose), ("tight", tight))
                       for k in r if k.endswith(("_batches", "_ahead"))}})
    small_text_gets = next(c["gets_per_s"] for c in cases if c["case"] == "token ids, smaller model")
    # how the smaller model's job ring grows with the median: from the assumed median to the top of its range
    top, assumed = sensitivity[-1], next(r for r in sensitivity if r["assumed"])
    summary.update({"median_top_ratio": top["median"] / assumed["median"],
                    "median_ring_growth": None if None in (top["small_job_batches"], assumed["small_job_batches"])
                    else top["small_job_batches"] / assumed["small_job_batches"]})
    records = {"shards": [{k: v for k, v in r.items() if k != "rows"} for r in shards],
               "throttle_sweep": [{**r, "ring_bytes": None if r["depth"] is None else r["depth"] * dem["seq_bytes"],
                                   "job_ring_bytes": _times(r["tail_job_batches"], B * dem["seq_bytes"]),
                                   "hard_errors_per_s": r["hard_error_share"] * small_text_gets}
                                  for r in problems["throttle_sweep"]],
               "backoff_sweep": problems["backoff_sweep"], "busy_sweep": problems["busy_sweep"],
               "checks": fc["checks"], "sweep": rows, "median_sensitivity": sensitivity, "cases": cases,
               "decode_sweep": decode_sweep,
               "stress_sweep": problems["stress"]["rows"] + problems["throttle"]["rows"],
               "busy_target_text": fmt_percent(busy_target),
               scenario_facts.RECORD: scenario_facts.published(**dem["facts"])}
    series = {**_series(by, workers, depths, mu, sigma, decode), **_stress_series(problems)}
    return Exhibit(summary=summary, series=series,
                   table=_table(rows, B, T, steps, busy_target), animation=animation,
                   problems=problems, records=records)


# --- the recipe's steps ---------------------------------------------------------------------


def _demand(model_params: float, tokens_per_batch: float, gpus: int, flops_per_gpu: float,
            flops_per_param_token: float, data_parallel: int, sequence_length: int, layers: int, model_dim: int,
            vocabulary: float,
            small_request: float, weight_bytes: float, optimizer_bytes: float, checkpoint_bandwidth: float,
            steps: int, anim_depth: int) -> dict:
    """The step time, the sequences each rank reads per step, the bytes the job reads, the checkpoint."""
    # the step as every scene counts it (models/scenario_facts.py): 6N plus attention over the context
    facts = scenario_facts.training_step(model_params, tokens_per_batch, gpus, flops_per_gpu, layers, model_dim,
                                         sequence_length, flops_per_param_token)
    T = facts["step_time"]
    B = tokens_per_batch / (data_parallel * sequence_length)
    if not float(B).is_integer():
        raise ParamError("tokens_per_batch", tokens_per_batch, "a whole number of sequences per DP rank")
    B = int(B)
    if B > MAX_BATCH:
        raise ParamError("data_parallel", data_parallel,
                         f"enough ranks for at most {MAX_BATCH} sequences per rank a step (the simulated loader "
                         f"reads one at a time; {B:,} asked)")
    if steps * B > MAX_SAMPLES:
        raise ParamError("steps", steps, f"at most {MAX_SAMPLES // B:,} (the simulation's read budget)")
    if anim_depth >= B:
        raise ParamError("anim_depth", anim_depth, f"below one batch ({B} sequences)")
    tok_bytes = token_id_bytes(vocabulary)
    seq_bytes = sequence_length * tok_bytes
    job_tokens_s = tokens_per_batch / T
    job_bytes_s = job_tokens_s * tok_bytes
    ckpt = checkpoint_bytes(model_params, weight_bytes, optimizer_bytes)
    ckpt_time = checkpoint_cost(ckpt, checkpoint_bandwidth)
    check(seq_bytes <= small_request, "each read is a small request in AWS's sense")
    check(job_bytes_s < 1e-4 * checkpoint_bandwidth,
          "the whole job reads training data at less than a ten-thousandth of the checkpoint burst")
    return {"T": T, "B": B, "tok_bytes": tok_bytes, "seq_bytes": seq_bytes, "job_tokens_s": job_tokens_s,
            "gpu_tokens_s": job_tokens_s / gpus, "job_bytes_s": job_bytes_s,
            "rank_bytes_s": job_bytes_s / data_parallel, "ckpt": ckpt, "ckpt_time": ckpt_time,
            "facts": {"step_time": T, "checkpoint_bytes": ckpt}}


def _latency_fit(latency_median: float, tail_p50: float, tail_p95: float, tail_p99: float, decode: float) -> dict:
    """A lognormal read latency: the median as estimated, the spread from the reference's p99/p50."""
    ratio = tail_p99 / tail_p50
    sigma = math.log(ratio) / Z99
    mu = math.log(latency_median)
    predicted_p95_ratio = math.exp(sigma * Z95)
    published_p95_ratio = tail_p95 / tail_p50
    check(abs(predicted_p95_ratio / published_p95_ratio - 1) < 0.05,
          "the lognormal fitted to the median and p99 also gives the reference p95")
    mean_read = lognormal_mean(mu, sigma) + decode
    p99_read = float(lognormal_quantile(0.99, mu, sigma)) + decode
    check(decode < 0.01 * mean_read, "decoding a token-id sequence is a rounding error next to the read latency")
    return {"ratio": ratio, "sigma": sigma, "mu": mu, "predicted_p95_ratio": predicted_p95_ratio,
            "published_p95_ratio": published_p95_ratio, "decode": decode, "mean_read": mean_read,
            "p99_read": p99_read}


def _sweep_claims(rows: list[dict], workers: list, depths: list, B: int, busy_target: float) -> dict:
    """The smallest busy configuration of the sweep, and what the sweep shows about prefetch."""
    best = smallest_busy(rows, busy_target)
    check(best is not None, "some configuration compared keeps the GPU busy")
    by = {(r["workers"], r["depth"]): r for r in rows}
    sync = [by[(w, 0)] for w in workers] if 0 in depths else []
    check(sync and min(r["idle"] for r in sync) > busy_target,
          "without prefetch no number of workers keeps the GPU busy")
    check(best is not None and best["depth"] <= B, "one batch of prefetch is enough")
    check(best is not None and best["idle"] == 0.0,
          "with one batch of prefetch no step of the simulation stalled at all")
    one_batch = by.get((workers[0], B))
    check(one_batch is not None and one_batch["idle"] <= busy_target,
          "with one batch prefetched a single worker keeps up")
    return {"best": best, "by": by, "sync": sync}


def _formula_checks(rng: np.random.Generator, n_check: int, B: int, T: float, fit: dict, sync: list) -> dict:
    """The simulation against three formulas, each within its confidence interval."""
    mu, sigma, decode, mean_read = fit["mu"], fit["sigma"], fit["decode"], fit["mean_read"]
    checks = []
    reads = read_times(rng, n_check * B, mu, sigma, decode)
    s1 = simulated_summary(1, 0, B, T, reads)
    serial = B * mean_read
    checks.append({"case": "no prefetch, 1 worker: B reads in series", "formula": serial,
                   "simulated": s1["mean_wait"], "se": s1["wait_se"]})
    sB = simulated_summary(B, 0, B, T, reads)
    par = expected_max(B, mu, sigma, decode)
    checks.append({"case": f"no prefetch, {B} workers: the slowest of B parallel reads", "formula": par,
                   "simulated": sB["mean_wait"], "se": sB["wait_se"]})
    sat_workers = 4
    sat_step = 1e-3 * B * mean_read / sat_workers
    sat = simulate(sat_workers, 8 * B, B, sat_step, reads)
    periods = sat["period"][len(sat["period"]) // 10:]
    nb = 20  # batch means for the CI of a correlated series
    bm = np.array([c.mean() for c in np.array_split(periods, nb)])
    bound = B * mean_read / sat_workers
    checks.append({"case": f"saturated, {sat_workers} workers: period B·E[X]/N", "formula": bound,
                   "simulated": float(periods.mean()), "se": float(bm.std(ddof=1) / math.sqrt(nb))})
    for c in checks:
        c["z"] = (c["simulated"] - c["formula"]) / c["se"]
    check(all(abs(c["z"]) <= Z_CHECK for c in checks),
          "the simulation agrees with the formulas within its confidence interval")
    sync_bound = par / (T + par)
    check(abs(min(r["idle"] for r in sync) / sync_bound - 1) < 0.1,
          "with at least B workers and no prefetch the idle fraction is E[max]/(T + E[max]); "
          "more workers cannot beat the slowest of one batch's reads")
    return {"checks": checks, "par": par, "sync_bound": sync_bound}


def _worked_problems(rng: np.random.Generator, workers: list, depths: list, B: int, T: float, fit: dict, dem: dict,
                     steps: int, busy_target: float, tail_factor: float, small_step: float, retry: dict,
                     checkpoint_bandwidth: float, peak_bandwidth: float, sw: dict, job: dict) -> dict:
    """A heavier tail, a p99 read hidden by depth, the smaller model's step with and without 503
    retries, and the checkpoint beside the reads."""
    mu, decode, p99_read = fit["mu"], fit["decode"], fit["p99_read"]
    best, sync = sw["best"], sw["sync"]
    job_bytes_s, ckpt_time = dem["job_bytes_s"], dem["ckpt_time"]
    # the p99 grows by tail_factor (same median): does the answer change?
    sigma_t = math.log(fit["ratio"] * tail_factor) / Z99
    rows_t = sweep(workers[:3], depths, B, T, mu, sigma_t, decode, steps // 2, rng)
    best_t = smallest_busy(rows_t, busy_target)
    check(best_t is not None, "the worked problem's configuration exists")
    p99_t = float(lognormal_quantile(0.99, mu, sigma_t)) + decode
    # depth that hides a p99 read: the steps it spans, in whole batches
    steps_spanned = math.ceil(p99_read / T)
    problems = {
        "tail": {"factor": float(tail_factor), "p99_read": p99_t, "sigma": sigma_t,
                 "workers": _field(best_t, "workers"), "depth": _field(best_t, "depth"),
                 "sync_idle_best": min(by_r["idle"] for by_r in rows_t if by_r["depth"] == 0),
                 # the smaller model's stressed case, where the tail does move the answer: its rings from the tail
                 **{f"small_{who}_batches": _ring_by_tail(small_step, n, {**fit, "sigma": sigma_t}, 0.0, [],
                                                         busy_target)
                    for who, n in (("rank", B), ("job", job["ranks"] * B))},
                 **{f"small_{who}_batches_fit": _ring_by_tail(small_step, n, fit, 0.0, [], busy_target)
                    for who, n in (("rank", B), ("job", job["ranks"] * B))}},
        "hide_p99": {"p99_read": p99_read, "steps_spanned": steps_spanned, "depth": steps_spanned * B,
                     "consumed_during": p99_read * B / T},
        "checkpoint": {"bytes": dem["ckpt"], "write_time": ckpt_time, "rate": checkpoint_bandwidth,
                       "ratio": checkpoint_bandwidth / job_bytes_s,
                       "data_per_checkpoint_time": job_bytes_s * ckpt_time,
                       "peak_share": job_bytes_s / peak_bandwidth},
    }
    check(best is not None and best["depth"] == steps_spanned * B,
          "at this step the p99 rule's ring, one batch, is also what the simulation needs")
    check(best is not None and best_t is not None and p99_t < 0.5 * T
          and (best_t["workers"], best_t["depth"]) == (best["workers"], best["depth"]),
          "the smallest busy configuration is unchanged: a doubled tail read is still far shorter than a step")
    tl = problems["tail"]
    check(tl["small_job_batches"] is not None and tl["small_job_batches_fit"] is not None
          and tl["small_job_batches"] > tl["small_job_batches_fit"],
          "at the smaller model's step a doubled tail deepens the job's ring")
    check(problems["tail"]["sync_idle_best"] > by_sync_best(sync),
          "without prefetch the best idle fraction rises")
    problems.update(_stressed_loader(rng, workers, B, small_step, fit, steps, busy_target, retry, best, job))
    return problems


STRESS_BATCHES = (1, 2, 4, 8, 16, 32, 64)  # ring depths of the stressed case, in batches
SDK_ATTEMPTS = 3  # AWS SDKs, retry_mode standard: max_attempts defaults to three (aws-sdk-retry)
STRESS_WORKERS = 4  # the stressed case compares this many workers and more (fewer cannot keep up)
# the busy line (the idle a ring must get under) is a choice that sets every ring: the page shows the headline rings
# at a tenth and ten times the catalogue's
BUSY_SWEEP = (0.0001, 0.001, 0.01)
THROTTLED_SWEEP = (0.0, 0.01, 0.02, 0.05, 0.1, 0.2)  # shares of GETs refused the page compares (p is assumed)


def _stressed_sweep(reads: np.ndarray, workers: list, B: int, step: float, label: str,
                    batches: tuple = STRESS_BATCHES) -> list[dict]:
    rows = []
    for k in batches:
        for w in workers:
            # the ring fills in its first k steps: a cold start, left out like the first batch
            s = simulated_summary(int(w), k * B, B, step, reads, k)
            rows.append({"case": label, "workers": int(w), "depth": k * B, "batches": k, **s})
    return rows


def _workers_at(rows: list[dict], batches: int | None, floor: int) -> int | None:
    """The fewest simulated workers, at least the throughput's `floor`, that do as well at this ring as the most
    workers compared (the same reads: what idle is left is the tail's, which the analytic idle counts)."""
    sel = [r for r in rows if r["batches"] == batches and r["workers"] >= floor]
    if batches is None or not sel:
        return None
    least = min(r["idle"] for r in sel)
    return min(r["workers"] for r in sel if r["idle"] <= least + 1e-4)


def _analytic_ring(rows: list[dict], step: float, B: int, fit: dict, throttled: float, tails: list,
                   mean_p: float, busy_target: float) -> dict:
    """One rank's busy ring at share p from the read-time tail: the least whole ring, up to the simulated range
    (STRESS_BATCHES[-1]), whose idle B·E[(X − kT)⁺]/(T + …) is within the target, and the workers the simulation
    needs to keep up at it (the simulation must have run at that ring: `rows`)."""
    curve = [tail_idle(k, step, B, fit, throttled, tails) for k in STRESS_BATCHES]
    k = least_ring(lambda k: tail_idle(k, step, B, fit, throttled, tails)["idle"], busy_target, STRESS_BATCHES[-1])
    floor = math.ceil(B * mean_p / step)
    w = _workers_at(rows, k, floor)
    ok = k is not None and w is not None
    return {"workers": w if ok else None, "batches": k if ok else None, "depth": k * B if ok else None,
            "idle": tail_idle(k, step, B, fit, throttled, tails)["idle"] if ok else None,
            "ring": k, "throughput_workers": floor, "curve": curve}


def _throttle_sweep(shares: list, reads: np.ndarray, draws: dict, retry: dict, done: dict, workers: list, B: int,
                    step: float, fit: dict, tails: list, busy_target: float, ranks: int) -> list[dict]:
    """The smallest busy ring and workers at each share p of GETs refused: the ring from the read-time tail
    (analytic), the workers from the simulation (the same reads and refusal draws for every p) where the ring
    is on the simulated grid; past it, the rings of one rank and of the job from the tail alone."""
    out = []
    for p in shares:
        r = apply_retries(reads, draws, p, retry["base"], retry["cap"])
        mean_p = retried_mean(fit["mean_read"], fit["decode"], p, retry["base"], retry["cap"])
        rows = done.get(p)
        if rows is None:  # simulated at one batch and at the analytic ring only: that is all the row reads
            k = _analytic_ring([], step, B, fit, p, tails, mean_p, busy_target)["ring"]
            rows = _stressed_sweep(r, workers, B, step, f"{p:g} refused", tuple(sorted({1, k or 1})))
        ring = _analytic_ring(rows, step, B, fit, p, tails, mean_p, busy_target)
        # past the simulated range the tail still finds a ring, up to JOB_MAX_BATCHES, one rank and the job
        tail_rank = _ring_by_tail(step, B, fit, p, tails, busy_target)
        tail_job = _ring_by_tail(step, ranks * B, fit, p, tails, busy_target)
        out.append({"tail_rank_batches": tail_rank, "tail_job_batches": tail_job,
                    "job_lookahead": None if tail_job is None else tail_job * step,
                    # the SDK's default attempts fail a GET for good with probability p^attempts
                    "hard_error_share": p ** SDK_ATTEMPTS, "throttled": p, "mean_read": mean_p,
                    # the exact p99 of the retried read, not the sample's (off by up to 8% at these shares)
                    "p99_read": retried_quantile(0.99, fit, p, retry["base"], retry["cap"]),
                    "longest": float(r.max()), "longest_steps": math.ceil(float(r.max()) / step),
                    "throughput_workers": ring["throughput_workers"],
                    "workers": ring["workers"], "batches": ring["batches"], "depth": ring["depth"],
                    "idle": ring["idle"],
                    "one_batch_idle": min(x["idle"] for x in rows if x["batches"] == 1),
                    "deepest_idle": ring["curve"][-1]["idle"]})
    deep = [math.inf if x["batches"] is None else x["batches"] for x in out]
    check(all(a <= b for a, b in zip(deep, deep[1:])),
          "the busy ring never gets shallower as the share of GETs refused grows")
    check(deep[-1] > deep[0], "the busy ring grows with the share of GETs refused")
    check(all(x["tail_rank_batches"] is not None and x["tail_job_batches"] is not None for x in out),
          "at every share of GETs refused swept, some ring keeps one rank and the job busy")
    check(all(x["batches"] is None or x["batches"] == x["tail_rank_batches"] for x in out),
          "on the simulated grid, the ring from the tail is the same by either search")
    return out


def _stressed_loader(rng: np.random.Generator, workers: list, B: int, small_step: float, fit: dict, steps: int,
                     busy_target: float, retry: dict, best: dict, job: dict) -> dict:
    """The smaller model's step, first with every GET answered, then with a share refused (503) and retried."""
    mu, sigma, decode, mean_read = fit["mu"], fit["sigma"], fit["decode"], fit["mean_read"]
    # a quarter of the main sample, but at least the deepest ring's fill and as many steps again measured
    # (the fill is left out as warm-up: a shorter sample would have nothing left to measure)
    n = max(steps // 4, 2 * STRESS_BATCHES[-1]) * B
    workers = [w for w in workers if w >= STRESS_WORKERS]
    reads = read_times(rng, n, mu, sigma, decode)
    # one set of refusal draws for every share compared: a larger share refuses every read at least as often
    shares = sorted(set(THROTTLED_SWEEP) | {retry["throttled"]})
    draws = retry_draws(rng, n, mu, sigma, shares[-1])
    reads_r = apply_retries(reads, draws, retry["throttled"], retry["base"], retry["cap"])
    # the read-time tail on a grid, once for every share (a share only reweights the refusal counts)
    tails = refused_tails(mu, sigma, retry["base"], retry["cap"], shares[-1], JOB_MAX_BATCHES * small_step,
                          small_step / 8)
    # the simulated grid: doublings, plus the least rings the tail names, so the workers are read at those rings
    rings = {_ring_by_tail(small_step, B, fit, p, tails, busy_target) for p in (0.0, retry["throttled"])}
    grid = tuple(sorted(set(STRESS_BATCHES) | {k for k in rings if k is not None and k <= STRESS_BATCHES[-1]}))
    plain = _stressed_sweep(reads, workers, B, small_step, "every GET answered", grid)
    retried = _stressed_sweep(reads_r, workers, B, small_step, "503s retried", grid)
    by_share = _throttle_sweep(shares, reads, draws, retry, {0.0: plain, retry["throttled"]: retried}, workers, B,
                               small_step, fit, tails, busy_target, job["ranks"])
    mean_r = retried_mean(mean_read, decode, retry["throttled"], retry["base"], retry["cap"])
    best_s = _analytic_ring(plain, small_step, B, fit, 0.0, tails, mean_read, busy_target)
    best_r = _analytic_ring(retried, small_step, B, fit, retry["throttled"], tails, mean_r, busy_target)
    best_s, best_r = (None if b["batches"] is None else b for b in (best_s, best_r))
    se_r = float(np.std(reads_r, ddof=1) / math.sqrt(len(reads_r)))
    check(abs(float(np.mean(reads_r)) - mean_r) <= Z_CHECK * se_r,
          "the simulated retried reads have the mean the retry formula gives")
    # the read-time law's p99s, not the sample's: the page prints them beside analytic means and rings
    p99_r = retried_quantile(0.99, fit, retry["throttled"], retry["base"], retry["cap"])
    p99_plain = fit["p99_read"]
    # the p99 rule is a lower bound: the busy ring must cover reads far rarer than one in a hundred,
    # and in a finite sample it ends up sized by the longest read drawn (then rounded up to the grid)
    rule_s, rule_r = math.ceil(p99_plain / small_step), math.ceil(p99_r / small_step)
    longest_s, longest_r = float(reads.max()), float(reads_r.max())
    check(best_s is not None and best_s["batches"] > rule_s and best_r is not None and best_r["batches"] > rule_r,
          "the p99 rule is a lower bound: the tail beyond p99 needs a deeper ring")
    check(best_s is not None and best_s["batches"] >= math.ceil(longest_s / small_step) / 2
          and best_r is not None and best_r["batches"] >= math.ceil(longest_r / small_step) / 2,
          "the smallest busy ring covers about the longest read of the simulated sample")
    one_batch = {w: next(r for r in retried if r["workers"] == w and r["batches"] == 1) for w in workers}
    plain_one_batch = min(r["idle"] for r in plain if r["batches"] == 1)
    check(best_s is not None and best is not None and best_s["workers"] > best["workers"] and best_s["depth"] > B,
          "the smaller model's step needs more workers and more than one batch of prefetch")
    check(best_r is not None and best_s is not None and best_r["depth"] > best_s["depth"],
          "with 503s retried, one batch of prefetch is not enough: the ring must be deeper")
    check(min(r["idle"] for r in one_batch.values()) > busy_target,
          "with 503s retried, no number of workers makes one batch of prefetch enough")
    check(plain_one_batch > busy_target,
          "one batch of prefetch leaves the smaller model's GPU idle however many workers read")
    check(mean_r < 2 * mean_read and p99_r > 2 * fit["p99_read"],
          "with 503s retried the mean read barely moves; the tail does")
    # the reads the SDK's default three attempts deliver: those refused at most twice
    refused = _refusals(draws["u"], retry["throttled"])
    longest_sdk = float(reads_r[refused < SDK_ATTEMPTS].max(initial=0.0))
    # (a short sample may hold no read refused that often: then there is nothing to claim)
    check(refused.max(initial=0) < SDK_ATTEMPTS
          or (best_r is not None and longest_sdk < 0.5 * longest_r
              and best_r["batches"] * small_step > 2 * longest_sdk),
          "the retried ring is set by reads refused three times or more, which the SDK's defaults return as errors")
    lock = _lockstep_job(job, B, small_step, fit, retry, busy_target,
                         {"plain": best_s, "retried": best_r}, tails)
    return {
        "sample": {"steps": n // B, "reads": n, "batch_grid": list(grid),
                   "worker_grid": workers, "p99_plain": p99_plain, "rule_plain": rule_s, "rule_retried": rule_r,
                   "longest_plain": longest_s, "longest_plain_steps": math.ceil(longest_s / small_step),
                   "longest_retried": longest_r, "longest_retried_steps": math.ceil(longest_r / small_step),
                   "longest_sdk": longest_sdk, "longest_sdk_steps": math.ceil(longest_sdk / small_step),
                   "refused_sdk_errors": int(np.sum(refused >= SDK_ATTEMPTS)),
                   "step_stall_at_p99": 1.0 - 0.99**B},
        "stress": {"step": small_step, "workers": _field(best_s, "workers"), "depth": _field(best_s, "depth"),
                   "batches": _field(best_s, "batches"), "best_one_batch_idle": plain_one_batch,
                   "throughput_workers": math.ceil(B * mean_read / small_step), "rows": plain},
        "throttle_sweep": by_share,
        "lockstep": lock,
        "tail_curves": _tail_curves(small_step, B, job["ranks"], fit, retry["throttled"], tails,
                                    set(grid) | {r["batches"] for r in lock["rows"]}),
        "frequent": _frequent_stalls(rng, grid, workers[-1], B, small_step, fit, retry, job, tails,
                                     {"plain": plain, "retried": retried}),
        "backoff_sweep": _backoff_sweep(B, small_step, fit, retry, job["ranks"], busy_target),
        "busy_sweep": [{"target": t, "assumed": t == busy_target,
                        **{f"{name}_{who}_batches": _ring_by_tail(small_step, n, fit, p, tails, t)
                           for name, p in (("plain", 0.0), ("retried", retry["throttled"]))
                           for who, n in (("rank", B), ("job", job["ranks"] * B))}}
                       for t in sorted(set(BUSY_SWEEP) | {busy_target})],
        "hedge": _hedge_sweep(B, small_step, fit, retry["after"], job["ranks"], busy_target,
                              (_field(best_s, "batches"), lock.get("plain_job_batches"))),
        "throttle": {"throttled": retry["throttled"], "base": retry["base"], "cap": retry["cap"],
                     "mean_read": mean_r, "simulated_mean": float(np.mean(reads_r)), "se": se_r,
                     "p99_read": p99_r, "steps_spanned": math.ceil(p99_r / small_step),
                     "workers": _field(best_r, "workers"), "depth": _field(best_r, "depth"),
                     "batches": _field(best_r, "batches"), "idle": _field(best_r, "idle"),
                     "best_one_batch_idle": min(r["idle"] for r in one_batch.values()),
                     "throughput_workers": math.ceil(B * mean_r / small_step), "rows": retried},
    }


TAIL_EXTRA_BATCHES = (128, 256, 512)  # the figure's tail curves go on past the simulated grid, to the job's rings
TAIL_CURVE_POINTS = 48  # whole rings, spaced evenly on the figure's log axis, at which the tail curves are drawn
# The tail's idle is a union bound over stalls that do not overlap: exact to first order while the GPUs idle
# little, it overstates once stalls overlap (a seeded lockstep run at 16 batches, 503s retried: about half the
# tail's value at three quarters). Where it passes this idle the panel and the figure show the seeded simulation.
TAIL_VALID_IDLE = 0.25


def _tail_curves(step: float, B: int, ranks: int, fit: dict, throttled: float, tails: list, rings: set) -> dict:
    """The read-time tail's idle against whole rings, one rank and the job, with every GET answered and with 503s
    retried; on a log-spaced grid of whole rings plus every ring the page or the simulation names (so the figure's
    marks sit on the curves), with each point's stall share."""
    top = TAIL_EXTRA_BATCHES[-1]
    ks = sorted({int(round(x)) for x in np.geomspace(1, top, TAIL_CURVE_POINTS)} | set(STRESS_BATCHES)
                | set(TAIL_EXTRA_BATCHES) | {int(k) for k in rings if k is not None and k <= top})
    out = {}
    for name, p in (("plain", 0.0), ("retried", throttled)):
        rows = []
        for k in ks:  # bounded: TAIL_CURVE_POINTS and the named rings
            one, job = (tail_idle(k, step, n, fit, p, tails) for n in (B, ranks * B))
            rows.append({"batches": k, "rank": one["idle"], "job": job["idle"], "rank_stall": one["stall_share"],
                         "job_stall": job["stall_share"]})
        out[name] = rows
    return out


def _frequent_stalls(rng: np.random.Generator, grid: tuple, workers: int, B: int, step: float, fit: dict,
                     retry: dict, job: dict, tails: list, sims: dict) -> dict:
    """The idle the Explore panel and the figure show at the simulated rings, one rank and the job: from the
    read-time tail where stalls are rare (its idle is exact to first order there), from the seeded simulation where
    they are not (the tail's union bound counts overlapping stalls twice and overstates the idle). One rank's
    simulation is the sweep's at the most workers; the job's is a lockstep run of every rank (job["frequent_steps"]
    steps after the ring fills, bounded by MAX_SAMPLES), each rank with its own reads, 503s retried as in the sweep."""
    ranks, job_steps = job["ranks"], job["frequent_steps"]
    out = {"batches": list(grid)}
    for name, p in (("plain", 0.0), ("retried", retry["throttled"])):
        sim_rank = {r["batches"]: r["idle"] for r in sims[name] if r["workers"] == workers}
        rank, job, rank_sim, job_sim = [], [], [], []
        for k in grid:  # bounded: the simulated grid
            one, all_ = (tail_idle(k, step, n, fit, p, tails) for n in (B, ranks * B))
            rank_sim.append(one["idle"] > TAIL_VALID_IDLE)
            rank.append(sim_rank[k] if rank_sim[-1] else one["idle"])
            job_sim.append(all_["idle"] > TAIL_VALID_IDLE)
            if job_sim[-1]:
                n = (min(job_steps, MAX_SAMPLES // (ranks * B) - k) + k) * B
                job.append(_lockstep_idle(rng, ranks, n, fit["mu"], fit["sigma"], fit["decode"], p, retry["base"],
                                          retry["cap"], workers, k, B, step))
            else:
                job.append(all_["idle"])
        out.update({f"{name}_rank": rank, f"{name}_job": job, f"{name}_rank_simulated": rank_sim,
                    f"{name}_job_simulated": job_sim})
    shown = [out[f"{name}_{who}"] for name in ("plain", "retried") for who in ("rank", "job")]
    check(all(a >= b for v in shown for a, b in zip(v, v[1:])) and all(
        j >= r for name in ("plain", "retried") for j, r in zip(out[f"{name}_job"], out[f"{name}_rank"], strict=True)),
          "the idle shown falls as the ring deepens, and the job in lockstep never idles less than one rank")
    return out


@seeded
def _lockstep_idle(rng: np.random.Generator, ranks: int, n: int, mu: float, sigma: float, decode: float, p: float,
                   backoff_base: float, backoff_cap: float, workers: int, k: int, B: int, step: float) -> float:
    """The lockstep job's seeded idle at a ring of k batches: every rank's n reads drawn from rng (503s at share p
    retried), then the job simulated. Memoised by rng's state (seeded): the draws are most of the cost, and the
    range test and the Explore panels reach this point with the same state and arguments at most settings."""
    reads = read_times(rng, ranks * n, mu, sigma, decode)
    if p > 0:
        reads = with_retries(rng, reads, mu, sigma, p, backoff_base, backoff_cap)
    sim = simulate_lockstep(workers, k * B, B, step, reads.reshape(ranks, n))
    return summarise(sim, step, warmup=k)["idle"]


JOB_STEPS = 400  # steps of the lockstep simulation the tests run as a check on the analytic job idle
JOB_MAX_BATCHES = 1024  # the deepest ring the job's doubling tries (a bound on the search)


def _lockstep_job(job: dict, B: int, step: float, fit: dict, retry: dict, busy_target: float, per_rank: dict,
                  tails: list) -> dict:
    """The job of `ranks` data-parallel ranks in lockstep at the smaller model's step: first at the ring one rank
    needs (per_rank), then doubling it until no more than the busy share of the job's time is idle. The job waits
    for the slowest of its ranks: ranks·B reads a step, each of which may stall it, so its idle is computed from
    the read-time tail as ranks·B·E[(X − kT)⁺] (tail_idle), not simulated: a run short enough to simulate sees
    a handful of stalls at the depths that matter (the tests check the simulation against it where stalls are
    frequent)."""
    ranks = int(job["ranks"])
    rows, out = [], {"ranks": ranks, "reads_per_step": ranks * B}
    for name, p in (("plain", 0.0), ("retried", retry["throttled"])):
        one = per_rank[name]
        if one is None:
            continue
        # the least ring that keeps the job busy (least_ring); the table shows the rank's ring, its doublings
        # below the job's ring (how fast the job's idle falls), and the job's ring
        job_k = _ring_by_tail(step, ranks * B, fit, p, tails, busy_target)
        ks = [one["batches"] * 2**i for i in range(JOB_MAX_BATCHES.bit_length())  # bounded: doublings
              if one["batches"] * 2**i < (JOB_MAX_BATCHES + 1 if job_k is None else job_k)]
        found = None
        for k in ks + ([] if job_k is None else [job_k]):
            rank, job_t = (tail_idle(k, step, n, fit, p, tails) for n in (B, ranks * B))
            row = {"case": name, "workers": one["workers"], "batches": k, "depth": k * B, "idle": job_t["idle"],
                   "rank_idle": rank["idle"], "stall_share": job_t["stall_share"], "p_slow": job_t["p_slow"],
                   "rank_busy": k == one["batches"], "job_busy": job_t["idle"] <= busy_target}
            rows.append(row)
            found = row if row["job_busy"] else found
        first = rows[-1] if found is None else found
        rank_row = next(r for r in rows if r["case"] == name and r["rank_busy"])
        for tag, r in (("rank", rank_row), ("job", found)):
            for key in ("batches", "depth", "idle", "stall_share"):
                out[f"{name}_{tag}_{key}"] = None if r is None else r[key]
        out[f"{name}_deepest_tried"] = first["batches"]
    check(all(r["idle"] > busy_target for r in rows if r["rank_busy"]),
          "the ring that keeps one rank busy leaves the lockstep job idle")
    return {**out, "rows": rows}


def _hedge_sweep(B: int, step: float, fit: dict, after: float, ranks: int, busy_target: float,
                 plain: tuple) -> list[dict]:
    """The smaller model's rings (every GET answered) when a slow GET gets a second one: after the fitted read's
    p95 and p99, and after AWS's fixed delay; hedged (the first kept) or timed out (the first cancelled). The
    extra GETs are the share still unanswered at the delay."""
    rows = [{"how": "none", "delay": None, "extra_gets": 0.0, "rank_batches": plain[0], "job_batches": plain[1]}]
    delays = (("p95", float(lognormal_quantile(0.95, fit["mu"], fit["sigma"]))),
              ("p99", float(lognormal_quantile(0.99, fit["mu"], fit["sigma"]))), ("aws", after))
    for how, keep in (("hedged", True), ("timed out", False)):
        for tag, d in delays:
            rows.append({"how": how, "at": tag, "delay": d,
                         "extra_gets": float(ndtr((fit["mu"] - math.log(d)) / fit["sigma"])),
                         "rank_batches": hedged_ring(step, B, fit, d, keep, busy_target),
                         "job_batches": hedged_ring(step, ranks * B, fit, d, keep, busy_target)})
    job = [math.inf if r["job_batches"] is None else r["job_batches"] for r in rows]
    check(all(j <= job[0] for j in job[1:]), "a second GET for a slow one never deepens the job's ring")
    check(all(_or_inf(h["job_batches"]) <= _or_inf(t["job_batches"]) for h, t in zip(rows[1:4], rows[4:], strict=True)),
          "keeping the first GET open (hedging) never needs a deeper ring than cancelling it")
    return rows


BACKOFF_SCALES = (0.25, 0.5, 1.0, 2.0)  # the SDK's backoff (first window and cap) scaled by these


def _ring_by_tail(step: float, reads_per_step: float, fit: dict, throttled: float, tails: list,
                  busy_target: float) -> int | None:
    """The least ring of 1…JOB_MAX_BATCHES batches whose idle from the tail is within the target (least_ring)."""
    return least_ring(lambda k: tail_idle(k, step, reads_per_step, fit, throttled, tails)["idle"], busy_target,
                      JOB_MAX_BATCHES)


def _backoff_sweep(B: int, step: float, fit: dict, retry: dict, ranks: int, busy_target: float) -> list[dict]:
    """The backoff is the SDK's default, not a law: one rank's and the job's ring at the assumed share p with the
    first window and the cap scaled together (workers enough to keep up; the ring from the tail alone)."""
    rows = []
    for f in BACKOFF_SCALES:
        base, cap = retry["base"] * f, retry["cap"] * f
        tails = refused_tails(fit["mu"], fit["sigma"], base, cap, retry["throttled"], JOB_MAX_BATCHES * step, step / 4)
        rows.append({"scale": f, "base": base, "cap": cap, "assumed": f == 1.0,
                     "mean_read": retried_mean(fit["mean_read"], fit["decode"], retry["throttled"], base, cap),
                     "rank_batches": _ring_by_tail(step, B, fit, retry["throttled"], tails, busy_target),
                     "job_batches": _ring_by_tail(step, ranks * B, fit, retry["throttled"], tails, busy_target)})
    rank = [math.inf if r["rank_batches"] is None else r["rank_batches"] for r in rows]
    check(all(a <= b for a, b in zip(rank, rank[1:])), "a longer backoff never makes the busy ring shallower")
    return rows


def _demand_cases(dem: dict, T: float, small_step: float, tokens_per_batch: float, sequence_length: int,
                  image_tokens: float, image_bytes: float, image_decode: float, get_limit: float,
                  shard_bytes: float, run_tokens: float, nodes: float, fit: dict, params_ratio: float) -> list[dict]:
    """Text and image-text data, for this model and for the smaller one on the same GPUs."""
    text = (sequence_length, dem["seq_bytes"], fit["decode"])
    image = (image_tokens, image_bytes, image_decode)
    cases = [demand_case(f"{kind}, {who}", step, tokens_per_batch, *what, get_limit, shard_bytes, run_tokens, nodes)
             for who, step in (("this model", T), ("smaller model", small_step))
             for kind, what in (("token ids", text), ("image-text", image))]
    by = {c["case"]: c for c in cases}
    text_big, img_big = by["token ids, this model"], by["image-text, this model"]
    text_small, img_small = by["token ids, smaller model"], by["image-text, smaller model"]
    check(text_big["served_one_prefix"] == 1.0,
          "this model's text job stays under one prefix's request rate, one GET per sequence")
    check(text_small["served_one_prefix"] < 1.0 and img_big["served_one_prefix"] < 1.0,
          "the smaller model's text, and this model's images, ask one prefix for more GETs than it serves")
    check(all(c["shard_gets_per_s"] < get_limit for c in cases),
          "streamed from shards, every case stays under one prefix's request rate")
    check(img_big["bytes_per_token"] > 10 * text_big["bytes_per_token"] and img_big["run_bytes"] >= 1e15,
          "image-text data costs tens of times more bytes per token, petabytes over the run")
    check(image_decode > 0.1 * math.exp(fit["mu"]) and fit["decode"] < 0.01 * fit["mean_read"],
          "decoding a token-id sequence is a rounding error; decoding an image is not")
    check(img_small["decode_cores_per_node"] < 4 and img_small["served_one_prefix"] < 0.1,
          "images load the store's request rate, not the hosts' CPUs")
    check(T / small_step < params_ratio,
          "the smaller model is faster by less than its parameter ratio: attention's FLOPs per token shrink less")
    return cases


# the image decode time is an estimate with no primary source: the page also shows it ten times longer
DECODE_FACTORS = (1.0, 10.0)


def _decode_sweep(cases: list, host_cores: float) -> list[dict]:
    """Decode cores per node for the image cases at the estimated decode time and at multiples of it: the cores
    scale with the time (samples a second × seconds a sample), weighed against the host's cores."""
    images = {"small" if "smaller" in c["case"] else "big": c for c in cases if c["case"].startswith("image-text")}
    rows = []
    for f in DECODE_FACTORS:
        row = {"factor": f, "assumed": f == 1.0, "decode_per_sample": f * images["big"]["decode_per_sample"]}
        for who, c in images.items():
            row[f"cores_{who}"] = f * c["decode_cores_per_node"]
            row[f"host_share_{who}"] = row[f"cores_{who}"] / host_cores
        rows.append(row)
    check(rows[-1]["host_share_small"] < 0.2,
          "even at ten times the estimated image decode time, decoding takes a small share of a node's CPU cores")
    return rows


def _shard_streams(cases: list, rng: np.random.Generator, rank_tokens_per_step: float, sequence_length: int,
                   image_tokens: float, shard_bytes: float, connection_rate: float, fit: dict, check_reads: int,
                   ranks: int, busy_target: float) -> list[dict]:
    """Every case fed from shards: the same first-byte latencies (the read fit) for all, a shard's transfer
    at one connection's rate on top. check_reads: the seeded check's sample (400,000 reads, about 0.4 s a case,
    give a standard error near 10 %)."""
    first_byte = read_times(rng, check_reads, fit["mu"], fit["sigma"], 0.0)
    out = []
    for c in cases:
        per_sample = sequence_length if c["case"].startswith("token") else image_tokens
        out.append(shard_stream(c, rank_tokens_per_step / per_sample, shard_bytes, connection_rate, first_byte,
                                fit, ranks, busy_target))
    by = {r["case"]: r for r in out}
    img = by["image-text, smaller model"]
    check(all(r["ahead"] is not None and r["job_ahead"] is not None for r in out),
          "streamed from shards, every case has a busy ring, for one rank and for the job")
    check(by["token ids, this model"]["job_ahead"] == 1 and by["token ids, smaller model"]["job_ahead"] == 1,
          "text from shards: one connection and one shard ahead keep even the lockstep job busy")
    check(img["transfer"] > img["consume"] and img["ahead"] is not None  # None: no busy ring (claim above)
          and img["ahead"] >= img["throughput_workers"] > 1,
          "the smaller model's images: a rank eats a shard faster than one connection streams it")
    # where the tail predicts a vanishing idle the sample holds no stall (SE 0): a floor of a thousandth of the target
    check(all(r["simulated_idle"] is not None and r["simulated_idle"] <= busy_target
              and abs(r["simulated_idle"] - r["idle"]) <= Z_CHECK * r["simulated_idle_se"] + busy_target / 1000
              for r in out),
          "the seeded sample agrees with the tail within its confidence interval, and the rank is busy")
    return out


def _shard_summary(shards: list, shard_bytes: float, connection_rate: float) -> dict:
    by = {r["case"]: r for r in shards}
    img, txt = by["image-text, smaller model"], by["token ids, smaller model"]
    return {"shard_transfer": shard_bytes / connection_rate,
            "shard_image_consume": img["consume"], "shard_image_steps": img["shard_steps"],
            "shard_image_mean_read": img["mean_read"], "shard_image_p99_read": img["p99_read"],
            "shard_image_throughput_workers": img["throughput_workers"],
            "shard_image_workers": img["workers"], "shard_image_ahead": img["ahead"], "shard_image_idle": img["idle"],
            "shard_image_ring_bytes": img["ring_bytes"], "shard_image_rank_bytes_per_s": img["rank_bytes_per_s"],
            "shard_image_one_one_idle": img["one_one_idle"], "shard_image_simulated_idle": img["simulated_idle"],
            "shard_image_simulated_se": img["simulated_idle_se"], "shard_check_reads": img["simulated_reads"],
            "shard_image_job_ahead": img["job_ahead"], "shard_image_job_ring_bytes": img["job_ring_bytes"],
            "shard_text_consume": txt["consume"], "shard_text_workers": txt["workers"],
            "shard_text_ahead": txt["ahead"]}


def _median_sensitivity(rng: np.random.Generator, median_sweep: list, latency_median: float, workers: list,
                        B: int, T: float, sigma: float, decode: float, steps: int, busy_target: float,
                        by: dict, small_step: float, ranks: int) -> list[dict]:
    """How the answer moves with the estimated median read latency: for this model (simulated), and for the
    smaller model's stressed case, whose rings (one rank, the lockstep job) come from the read-time tail."""
    sensitivity = []
    for med in sorted({float(v) for v in median_sweep} | {float(latency_median)}):
        mu_m = math.log(med)
        mean_m = lognormal_mean(mu_m, sigma) + decode
        emax_m = expected_max(B, mu_m, sigma, decode)
        sim_m = simulated_summary(workers[0], B, B, T, read_times(rng, (steps // 2) * B, mu_m, sigma, decode))
        fit_m = {"mu": mu_m, "sigma": sigma, "decode": decode}
        sensitivity.append({"median": med, "assumed": med == float(latency_median),
                            "p99_read": float(lognormal_quantile(0.99, mu_m, sigma)) + decode,
                            "sync_idle_one_worker": B * mean_m / (T + B * mean_m),
                            "sync_idle_many_workers": emax_m / (T + emax_m),
                            "one_batch_idle": sim_m["idle"],
                            "small_throughput_workers": math.ceil(B * mean_m / small_step),
                            "small_rank_batches": _ring_by_tail(small_step, B, fit_m, 0.0, [], busy_target),
                            "small_job_batches": _ring_by_tail(small_step, ranks * B, fit_m, 0.0, [], busy_target)})
    check(all(r["small_job_batches"] is not None for r in sensitivity),
          "across the range of the median estimate, some ring keeps the smaller model's lockstep job busy")
    jobs = [_or_inf(r["small_job_batches"]) for r in sensitivity]
    check(all(a < b for a, b in zip(jobs, jobs[1:])),
          "the smaller model's ring grows with the median read latency")
    check(all(r["one_batch_idle"] <= busy_target for r in sensitivity if r["median"] <= latency_median),
          "up to the assumed median, one worker and one batch of prefetch keep the GPU busy")
    check(all(r["one_batch_idle"] < 0.1 * r["sync_idle_many_workers"] for r in sensitivity),
          "across the range of the median estimate, one batch of prefetch cuts the idle of loading on demand tenfold")
    check(all(r["sync_idle_many_workers"] > busy_target for r in sensitivity),
          "across the range of the median estimate, loading on demand leaves the GPU idle")
    one = next(r for r in sensitivity if r["assumed"])
    check(abs(one["sync_idle_one_worker"] / by[(workers[0], 0)]["idle"] - 1) < 0.05,
          "the renewal formula B·E[X]/(T + B·E[X]) gives the simulated idle of on-demand loading")
    return sensitivity


def _summary(dem: dict, fit: dict, sw: dict, fc: dict, ll: dict | None, shallow: dict, workers: list, anim_depth: int,
             steps: int, checkpoint_bandwidth: float) -> dict:
    """The numbers the page and the scene quote."""
    best, by = sw["best"], sw["by"]
    B, mean_read = dem["B"], fit["mean_read"]
    sync_best = min(sw["sync"], key=lambda r: r["idle"])
    return {
        "step_time": dem["T"],
        "sequences_per_rank": B,
        "token_bytes": dem["tok_bytes"],
        "sequence_bytes": dem["seq_bytes"],
        "job_tokens_per_s": dem["job_tokens_s"],
        "gpu_tokens_per_s": dem["gpu_tokens_s"],
        "job_bytes_per_s": dem["job_bytes_s"],
        "rank_bytes_per_s": dem["rank_bytes_s"],
        "rank_bytes_per_step": B * dem["seq_bytes"],
        "checkpoint_bytes": dem["ckpt"],
        "checkpoint_time": dem["ckpt_time"],
        "checkpoint_over_data": checkpoint_bandwidth / dem["job_bytes_s"],
        "sigma": fit["sigma"],
        "tail_ratio": fit["ratio"],
        "fit_p95_ratio": fit["predicted_p95_ratio"],
        "published_p95_ratio": fit["published_p95_ratio"],
        "mean_read": mean_read,
        "p99_read": fit["p99_read"],
        "p999_read": float(lognormal_quantile(0.999, fit["mu"], fit["sigma"])) + fit["decode"],
        "decode_time": fit["decode"],
        **{f"best_{k}": _field(best, k) for k in ("workers", "depth", "idle", "p99")},
        "sync_idle_one_worker": by[(workers[0], 0)]["idle"],
        "sync_idle_best": sync_best["idle"],
        "sync_best_workers": sync_best["workers"],
        "sync_p99_best": sync_best["p99"],
        "sync_bound": fc["sync_bound"],
        "slowest_of_batch": fc["par"],
        "shallow_depth": anim_depth,
        "shallow_idle": shallow["idle"],
        "shallow_p99": shallow["p99"],
        **_little_summary(ll, mean_read),
        "z_check": Z_CHECK,
        "max_abs_z": max(abs(c["z"]) for c in fc["checks"]),
        "steps": steps,
    }


def _little_summary(ll: dict | None, mean_read: float) -> dict:
    """Little's law as measured, both sides; None where nothing was measured (no busy configuration)."""
    keys = ("little_L", "little_lambda_W", "little_rel_error", "little_flight_L", "little_flight_lambda_S",
            "little_flight_rel_error")
    if ll is None:
        return dict.fromkeys(keys)
    return dict(zip(keys, (ll["L"], ll["lambda"] * ll["W"], ll["rel_error"], ll["L_flight"], ll["lambda"] * mean_read,
                           ll["flight_rel_error"]), strict=True))


def _or_inf(batches: int | None) -> float:
    """A ring for ordering: None (no ring up to the deepest tried) sorts past every ring."""
    return math.inf if batches is None else batches


def _times(batches: int | None, per_batch: float) -> float | None:
    """Bytes of a ring of `batches` batches; None where no ring was found."""
    return None if batches is None else batches * per_batch


def _stress_summary(problems: dict, cases: list, small_step: float, params_ratio: float, T: float,
                    seq_bytes: float, B: int) -> dict:
    """The stressed cases' numbers the page quotes."""
    by = {c["case"]: c for c in cases}
    tb, ib, ts, is_ = (by[k] for k in ("token ids, this model", "image-text, this model",
                                       "token ids, smaller model", "image-text, smaller model"))
    st, th = problems["stress"], problems["throttle"]
    return {
        "small_step": small_step, "small_speedup": T / small_step, "params_ratio": params_ratio,
        "text_gets_per_s": tb["gets_per_s"], "text_run_bytes": tb["run_bytes"],
        "small_text_gets_per_s": ts["gets_per_s"], "small_text_served": ts["served_one_prefix"],
        "small_text_prefixes": ts["prefixes_needed"], "small_text_shard_gets_per_s": ts["shard_gets_per_s"],
        "sequences_per_shard": ts["samples_per_shard"],
        "image_bytes_per_token": ib["bytes_per_token"], "image_run_bytes": ib["run_bytes"],
        "image_bytes_per_s": ib["bytes_per_s"], "image_gets_per_s": ib["gets_per_s"],
        "image_served": ib["served_one_prefix"], "image_prefixes": ib["prefixes_needed"],
        "small_image_gets_per_s": is_["gets_per_s"], "small_image_prefixes": is_["prefixes_needed"],
        "small_image_decode_cores": is_["decode_cores_per_node"], "image_decode_cores": ib["decode_cores_per_node"],
        "images_per_shard": ib["samples_per_shard"], "small_image_shard_gets_per_s": is_["shard_gets_per_s"],
        "stress_workers": st["workers"], "stress_depth": st["depth"],
        "stress_batches": st["batches"], "stress_one_batch_idle": st["best_one_batch_idle"],
        "retry_mean_read": th["mean_read"], "retry_p99_read": th["p99_read"],
        "retry_steps_spanned": th["steps_spanned"], "retry_workers": th["workers"], "retry_depth": th["depth"],
        "retry_batches": th["batches"], "retry_one_batch_idle": th["best_one_batch_idle"], "retry_idle": th["idle"],
        "retry_ring_bytes": None if th["depth"] is None else th["depth"] * seq_bytes,
        "retry_throughput_workers": th["throughput_workers"],
        "stress_throughput_workers": st["throughput_workers"], "retry_throttled": th["throttled"],
        # the AWS SDKs' standard retry mode makes three attempts by default: p³ of GETs fail for good
        "hard_error_share": th["throttled"] ** SDK_ATTEMPTS,
        "hard_errors_per_s": th["throttled"] ** SDK_ATTEMPTS * ts["gets_per_s"],
        "sdk_attempts": SDK_ATTEMPTS,
        "refused_one_prefix": 1.0 - ts["served_one_prefix"],
        # the refusal share swept: the first share at which no ring of the grid keeps the GPUs busy
        # the first share whose one-rank ring lies past the simulated grid, and the largest share's rings and costs
        "sweep_off_grid_share": next((r["throttled"] for r in problems["throttle_sweep"] if r["batches"] is None),
                                     None),
        "sweep_max_share": problems["throttle_sweep"][-1]["throttled"],
        "sweep_max_rank_batches": problems["throttle_sweep"][-1]["tail_rank_batches"],
        "sweep_max_job_batches": problems["throttle_sweep"][-1]["tail_job_batches"],
        "sweep_max_job_ring_bytes": _times(problems["throttle_sweep"][-1]["tail_job_batches"], B * seq_bytes),
        "sweep_max_job_lookahead": problems["throttle_sweep"][-1]["job_lookahead"],
        "sweep_max_hard_errors_per_s": problems["throttle_sweep"][-1]["hard_error_share"] * ts["gets_per_s"],
        "stress_grid_max": STRESS_BATCHES[-1], "job_max_batches": JOB_MAX_BATCHES, "tail_valid_idle": TAIL_VALID_IDLE,
        **{f"hedge_{r['at']}_{k}": r[k] for r in problems["hedge"] if r["how"] == "hedged"
           for k in ("job_batches", "rank_batches", "extra_gets", "delay")},
        **{f"timeout_{r['at']}_job_batches": r["job_batches"] for r in problems["hedge"] if r["how"] == "timed out"},
        **{f"sample_{k}": v for k, v in problems["sample"].items() if not isinstance(v, list)},
        **{f"job_{k}": v for k, v in problems["lockstep"].items() if k != "rows"},
        **{f"job_{c}_ring_bytes": None if problems["lockstep"].get(f"{c}_job_depth") is None
           else problems["lockstep"][f"{c}_job_depth"] * seq_bytes for c in ("plain", "retried")},
    }


def _stress_series(problems: dict) -> dict:
    """Idle against ring depth (in batches) at the smaller model's step, with and without 503 retries,
    one curve per worker count."""
    series = {}
    for name, rows in problems["tail_curves"].items():  # from the read-time tail: one rank and the job
        series.update(curves("tail_batches", [r["batches"] for r in rows],
                             **{f"{name}_tail_{who}{what}": [r[f"{who}{key}"] for r in rows]
                                for who in ("rank", "job") for what, key in (("", ""), ("_stall", "_stall"))}))
    fr = problems["frequent"]  # at the simulated rings: the idle the panel shows (tail where valid, else simulated)
    series.update(curves("batches", fr["batches"],
                         **{f"{name}_{who}_shown{tag}": [float(v) for v in fr[f"{name}_{who}{key}"]]
                            for name in ("plain", "retried") for who in ("rank", "job")
                            for tag, key in (("", ""), ("_simulated", "_simulated"))}))
    for key, name in (("stress", "plain"), ("throttle", "retried")):
        rows = problems[key]["rows"]
        for w in sorted({r["workers"] for r in rows}):
            sel = sorted((r for r in rows if r["workers"] == w), key=lambda r: r["batches"])
            series.update(curves("batches", [r["batches"] for r in sel],
                                 **{f"{name}_idle_w{w}": [r["idle"] for r in sel]}))
    return series


def _series(by: dict, workers: list, depths: list, mu: float, sigma: float, decode: float) -> dict:
    """Idle and step-time percentiles against workers, one curve per depth; the read-latency quantiles."""
    series = {}
    for d in depths:
        sel = [by[(w, d)] for w in workers]
        series.update(curves("workers", workers, **{f"idle_d{d}": [r["idle"] for r in sel],
                                                    f"p50_d{d}": [r["p50"] for r in sel],
                                                    f"p99_d{d}": [r["p99"] for r in sel]}))
    q = np.linspace(0.005, 0.9995, 200)
    series.update(curves("quantile", q, read_latency=lognormal_quantile(q, mu, sigma) + decode))
    return series


def _table(rows: list[dict], B: int, T: float, steps: int, busy_target: float) -> Table:
    """The sweep: GPU idle and step-time percentiles by workers and ring depth."""
    return Table(
        f"GPU idle fraction and step time for one data-parallel rank ({B} sequences per step, step "
        f"{T:.3g} s), by loader workers and ring depth; seeded simulation of {steps:,} steps each",
        [Column("workers", "count"), Column("ring depth (sequences)", "count"), Column("GPU idle", "%"),
         Column("step time p50", "s"), Column("step time p99", "s"), Column("busy", "text")],
        [[r["workers"], r["depth"], r["idle"], r["p50"], r["p99"],
          "yes" if r["idle"] <= busy_target else "no"] for r in rows],
    )


__all__ = [
    "Z_CHECK", "MAX_SAMPLES", "BoundExceeded", "step_time", "token_id_bytes", "lognormal_from_percentiles",
    "lognormal_quantile", "lognormal_mean", "expected_max", "simulate", "read_times", "littles_law",
    "summarise", "sweep", "smallest_busy", "prefetch_pipeline", "simulate_lockstep",
    "JOB_STEPS", "JOB_MAX_BATCHES", "backoff_mean", "retried_read_times", "lognormal_excess", "refused_tails",
    "retried_quantile", "read_tail", "tail_idle", "least_ring", "TAIL_VALID_IDLE", "BUSY_SWEEP",
    "with_retries", "retry_draws", "apply_retries", "retried_mean", "demand_case", "THROTTLED_SWEEP", "shard_stream",
]
