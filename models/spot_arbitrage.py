"""Spot instance arbitrage: when does cheap-but-preemptible capacity win?

A job needs W seconds of useful compute on n nodes that run as one gang: the
preemption of any node stops them all. Each node is reclaimed as a Poisson
process. The Spot Instance Advisor publishes the share f of capacity
reclaimed in a trailing month; read as a per-node probability, it gives the
rate λ = −ln(1 − f)/month, and the job's mean time between preemptions is
M = 1/(n·λ). The provider warns N seconds ahead (AWS 120 s, Google Cloud and
Azure 30 s). Writing the job's state takes δ; coming back takes a rejoin
R = capacity wait + restore.

Two regimes:

* N ≥ δ (the snapshot fits inside the notice): the job computes until δ
  before the reclaim, snapshots, and loses no work. A held period X ~ Exp(M)
  yields max(X − δ, 0) of work; a rejoin follows, which a preemption can
  also interrupt (as in daly-checkpoint's restart). The renewal equation for
  the expected time f(w) to finish w of work is solved exactly by a line for
  w ≥ δ (and meets daly-checkpoint's segment time at w = δ):

      T(W) = e^{(R+δ)/M}·(W + M − δ) − M·e^{R/M}          (W ≥ δ)

  Preemptions strike at rate 1/M through all of it, so E[count] = T/M.

* N < δ (it does not): the job falls back to periodic checkpoints every τ,
  and a preemption loses the work since the last one. That is Young/Daly's
  model exactly (`wall_time`, `optimal_interval`, as daly-checkpoint uses them),
  with M the job's time between preemptions and R the rejoin.

Cost: the spot price is the on-demand price p times (1 − d), d the discount;
the job holds and pays for its n nodes for its whole wall time (the surviving
nodes wait, billed, for a replacement). On-demand runs W with no preemption
(hardware failures hit both alike and are left out). The break-even discount
is where the two meet: d* = 1 − W/T. It does not depend on the price.

Seeded Monte Carlo: the notice regime is simulated here (vectorised over
trials, one loop step per preemption); the fallback regime with
`simulate_wall_times` (as daly-checkpoint). Both must agree with the formulas within Z_CHECK
standard errors. Every loop is bounded: jobs expecting more than
MAX_EXPECTED_FAILURES preemptions are refused, and a path past its budget
stops with BoundExceeded.

Units: seconds, bytes, bytes per second, US dollars (models/units.py).
"""

from __future__ import annotations

import math
from types import SimpleNamespace

import numpy as np

from models.exhibit import Column, Exhibit, Param, ParamError, Table, check, curves, model
from models.lib import checkpoint as ck
from models.units import HOUR

Z_CHECK = ck.Z_CHECK
MAX_EXPECTED_FAILURES = ck.MAX_EXPECTED_FAILURES
MAX_COST_OVER_MTBF = ck.MAX_COST_OVER_MTBF
BoundExceeded = ck.BoundExceeded


# --- the inputs, derived --------------------------------------------------------


def preemption_rate(monthly_fraction, month: float):
    """Per-node preemption rate λ (1/s) from the share reclaimed in a month: −ln(1 − f)/month."""
    f = np.asarray(monthly_fraction, dtype=float)
    if np.any((f <= 0) | (f >= 1)):
        raise ValueError("monthly_fraction must lie strictly between 0 and 1")
    out = -np.log1p(-f) / month
    return float(out) if out.ndim == 0 else out


def job_mtbp(nodes, rate):
    """The gang's mean time between preemptions M = 1/(n·λ) (s): any node stops all."""
    return 1.0 / (np.asarray(nodes, dtype=float) * rate)


# --- expected completion time ------------------------------------------------------


def wall_time_with_notice(work, mtbp, snapshot: float, rejoin: float):
    """Expected completion time when the snapshot fits in the notice (no work lost).

    T = e^{(R+δ)/M}(W + M − δ) − M e^{R/M}, exact for W ≥ δ (see the module docstring).
    """
    w = np.asarray(work, dtype=float)
    m = np.asarray(mtbp, dtype=float)
    out = np.exp((rejoin + snapshot) / m) * (w + m - snapshot) - m * np.exp(rejoin / m)
    return float(out) if out.ndim == 0 else out


def fallback_interval(work: float, mtbp: float, checkpoint: float) -> float:
    """Young/Daly's optimum τ*, rounded so W/τ is a whole number of segments (where T_w is exact)."""
    tau = float(ck.optimal_interval(checkpoint, mtbp))
    n = max(1, round(work / tau))
    return work / n


def wall_time_without_notice(work: float, mtbp: float, checkpoint: float, rejoin: float) -> float:
    """Expected completion time with periodic checkpoints at τ* (Young/Daly's T_w)."""
    tau = fallback_interval(work, mtbp, checkpoint)
    return float(ck.wall_time(tau, checkpoint, mtbp, rejoin, work))


def spot_wall_time(work: float, mtbp: float, notice: float, snapshot: float, rejoin: float) -> dict:
    """Expected completion time on spot: the notice regime if δ ≤ N, else periodic checkpoints."""
    if snapshot <= notice:
        return {"fits": True, "wall": wall_time_with_notice(work, mtbp, snapshot, rejoin), "interval": None}
    tau = fallback_interval(work, mtbp, snapshot)
    return {"fits": False, "wall": wall_time_without_notice(work, mtbp, snapshot, rejoin), "interval": tau}


def best_wall_time(work: float, mtbp: float, notice: float, snapshot: float, copy: float, rejoin: float) -> dict:
    """The better of what a job can do under a notice N: snapshot inside it if δ ≤ N; otherwise the lesser
    of periodic checkpoints and two-stage asynchronous snapshots (whose drain gains from a longer notice)."""
    if snapshot <= notice:
        return {"wall": wall_time_with_notice(work, mtbp, snapshot, rejoin), "strategy": "notice"}
    sync = wall_time_without_notice(work, mtbp, snapshot, rejoin)
    asyn = wall_time_async(work, mtbp, copy, snapshot, notice, rejoin)["wall"]
    return {"wall": min(sync, asyn), "strategy": "async" if asyn < sync else "checkpoints"}


def break_even_discount(work, wall):
    """The discount d* at which spot costs what on-demand does: (1 − d*)·T = W."""
    return 1.0 - np.asarray(work, dtype=float) / np.asarray(wall, dtype=float)


def job_cost(price_per_node_hour: float, nodes: int, seconds, discount: float = 0.0):
    """Dollars for n nodes held `seconds` at a per-node hourly price less a discount."""
    return (1.0 - discount) * price_per_node_hour * nodes * np.asarray(seconds, dtype=float) / HOUR


def max_rejoin_for_discount(work: float, mtbp: float, snapshot: float, discount: float) -> float:
    """The longest rejoin R (s) at which spot at discount d still costs no more than on-demand.

    T = e^{R/M}·[e^{δ/M}(W + M − δ) − M], so (1 − d)·T = W gives
    R = M·ln(W / ((1 − d)·[e^{δ/M}(W + M − δ) − M])).
    """
    base = math.exp(snapshot / mtbp) * (work + mtbp - snapshot) - mtbp
    return mtbp * math.log(work / ((1.0 - discount) * base))


# --- asynchronous snapshots: copy to host memory, then drain to storage ------------------------


def async_lost_share(interval: float, copy: float, drain: float, notice: float) -> float:
    """Share q of preemptions that also lose the interval before the last host copy.

    The copy to host memory (δ₁) blocks training; the drain to storage (δ₂) runs behind it.
    A reclaim that strikes while the drain still needs more than the notice N finds only the
    previous copy durable: it falls in the first (δ₂ − N)⁺ of a segment of τ + δ₁ seconds.
    """
    exposed = max(drain - notice, 0.0)
    return min(1.0, exposed / (interval + copy))


def async_interval(mtbp: float, copy: float, drain: float) -> float:
    """τ for asynchronous snapshots: Young/Daly's optimum for the blocking copy δ₁, but never
    shorter than the drain (a copy waits for the previous one to reach storage)."""
    return max(float(ck.optimal_interval(copy, mtbp)), drain)


def wall_time_async(work: float, mtbp: float, copy: float, drain: float, notice: float, rejoin: float) -> dict:
    """Expected completion time with two-stage snapshots every τ (an approximation).

    Daly's T_w with the blocking copy δ₁ as the checkpoint cost, and the interval a late
    drain loses (q·τ per preemption on average) added to the rejoin, since it is redone
    after the restart just as the restart is, and a preemption can strike it alike.
    Exact in the two limits: δ₂ ≤ N (q = 0, nothing extra lost) and the sandwich
    T(R) ≤ T ≤ T(R + τ) holds always.
    """
    tau = async_interval(mtbp, copy, drain)
    q = async_lost_share(tau, copy, drain, notice)
    wall = float(ck.wall_time(tau, copy, mtbp, rejoin + q * tau, work))
    return {"wall": wall, "interval": tau, "lost_share": q}


# --- elastic recovery: shrink and continue, rejoin when a node arrives ------------------------


def elastic_share(mtbp, reconfigure: float, rejoin: float, replicas: int):
    """The useful share of an elastic gang's time, 1 − c/M − R/(r·M) (`elastic_wall_time`); ≤ 0: it never progresses."""
    m = np.asarray(mtbp, dtype=float)
    return 1.0 - reconfigure / m - rejoin / (replicas * m)


def elastic_wall_time(work, mtbp, reconfigure: float, rejoin: float, replicas: int):
    """Expected completion time when the gang drops the reclaimed node's data-parallel replica and
    carries on, and the replica rejoins after R.

    Every preemption pauses the gang for `reconfigure` seconds (the caller passes 2c: drop, then rejoin),
    and keeps one replica of r out for R. Preemptions arrive at 1/M, so on average (Little's law) R/M replicas are out:
    the useful share of the gang's time is 1 − c/M − R/(r·M), and T = W / that share.
    Two reclaims in one replica cost less than this counts, so it errs on the safe side.
    """
    share = elastic_share(mtbp, reconfigure, rejoin, replicas)
    if np.any(share <= 0):
        raise ValueError("the gang loses all its time to preemptions: no elastic steady state")
    out = np.asarray(work, dtype=float) / share
    return float(out) if out.ndim == 0 else out


def savings(work, wall, discount: float):
    """The share of the on-demand bill spot saves: 1 − (1 − d)·T/W (equal to d only if T = W)."""
    return 1.0 - (1.0 - discount) * np.asarray(wall, dtype=float) / np.asarray(work, dtype=float)


# --- the Monte Carlo -----------------------------------------------------------------


def _budget(expected: float, what: str) -> int:
    if not expected <= MAX_EXPECTED_FAILURES:
        raise BoundExceeded(f"{what}: the job expects {expected:.3g} preemptions; the simulation is bounded "
                            f"at {MAX_EXPECTED_FAILURES:,}")
    return int(1000 + 50 * expected)


def simulate_with_notice(work: float, mtbp: float, snapshot: float, rejoin: float, trials: int,
                         rng: np.random.Generator) -> dict:
    """Walk `trials` copies of the job through preemptions it is warned of in time.

    From each (re)start draw the held time X ~ Exp(M). If X covers the work
    left, the job finishes; otherwise it gains max(X − δ, 0) (it snapshots in
    the last δ before the reclaim), then rejoins: R, repeated while a fresh
    preemption (memoryless) strikes before R elapses. Per trial: wall time and
    preemptions. Bounded (BoundExceeded).
    """
    expected = wall_time_with_notice(work, mtbp, snapshot, rejoin) / mtbp
    budget = _budget(expected, "simulate_with_notice")
    remaining = np.full(trials, float(work))
    wall = np.zeros(trials)
    count = np.zeros(trials, dtype=np.int64)
    active = np.arange(trials)
    steps = 0
    while active.size:
        steps += 1
        if steps > budget:
            raise BoundExceeded(f"simulate_with_notice: a path ran past {budget:,} loop steps")
        x = rng.exponential(mtbp, size=active.size)
        done = x >= remaining[active]
        fin = active[done]
        wall[fin] += remaining[fin]
        remaining[fin] = 0.0
        hit, xs = active[~done], x[~done]
        wall[hit] += xs
        remaining[hit] -= np.maximum(xs - snapshot, 0.0)
        count[hit] += 1
        pending = hit
        while pending.size:  # rejoins, which a preemption may also interrupt
            steps += 1
            if steps > budget:
                raise BoundExceeded(f"simulate_with_notice: a path ran past {budget:,} loop steps")
            y = rng.exponential(mtbp, size=pending.size)
            ok = y >= rejoin
            wall[pending[ok]] += rejoin
            bad = pending[~ok]
            wall[bad] += y[~ok]
            count[bad] += 1
            pending = bad
        active = hit
    return {"wall": wall, "preemptions": count}


def sample_run(work: float, mtbp: float, snapshot: float, capacity_wait: float, restore: float,
               rng: np.random.Generator, max_events: int = 12) -> list[dict]:
    """One run in the notice regime, event by event, for the animation (an illustration).

    Blocks: compute (start, end), then at each reclaim the snapshot inside the
    notice, the wait for capacity and the restore. Stops after `max_events`
    preemptions (the rest of the run is drawn as compute).
    """
    blocks = []
    t, done = 0.0, 0.0
    for _ in range(max_events):
        x = float(rng.exponential(mtbp))
        if x >= work - done:
            break
        gain = max(x - snapshot, 0.0)
        blocks.append({"kind": "compute", "start": t, "end": t + gain, "work_end": done + gain})
        blocks.append({"kind": "snapshot", "start": t + gain, "end": t + x, "work_end": done + gain})
        done += gain
        t += x
        blocks.append({"kind": "wait", "start": t, "end": t + capacity_wait, "work_end": done})
        blocks.append({"kind": "restore", "start": t + capacity_wait, "end": t + capacity_wait + restore,
                       "work_end": done})
        t += capacity_wait + restore
    blocks.append({"kind": "compute", "start": t, "end": t + work - done, "work_end": float(work)})
    return blocks


# The steps below take the model's inputs as one namespace `p` (p.nodes, p.work, ...) and check
# the page's claims about their part in the order the page makes them.


def the_job(p) -> dict:
    """The gang's snapshot δ, rejoin R and time between preemptions M, and the bounds the inputs must keep."""
    large_nodes = p.large_gpus // p.gpus_per_node
    if large_nodes < 1 or large_nodes * p.gpus_per_node != p.large_gpus:
        raise ParamError("large_gpus", p.large_gpus, f"a whole number of {p.gpus_per_node}-GPU nodes")
    state = ck.checkpoint_bytes(p.model_params, p.weight_bytes, p.optimizer_bytes)
    delta = ck.checkpoint_cost(state, p.nodes * p.node_write_bandwidth)
    restore = delta
    R = p.capacity_wait + restore
    # stage 1 of an asynchronous snapshot: each GPU copies its share of the state to host memory
    # over its own PCIe link, one direction (the constant is both directions together)
    copy = state / (p.nodes * p.gpus_per_node * p.host_link_bw / 2)
    if p.work < delta:
        raise ParamError("work", p.work, f"at least the snapshot time δ = {delta:.4g} s")
    # training state in HBM: weights, gradients (16-bit, as many bytes as the weights) and optimizer state
    hbm_need = p.model_params * (2 * p.weight_bytes + p.optimizer_bytes)
    hbm_have = p.nodes * p.gpus_per_node * p.hbm_capacity
    check(hbm_need <= hbm_have, "the job's weights, gradients and optimizer state fit in the gang's HBM")
    lam = preemption_rate(p.monthly_interruption, p.month)
    M = float(job_mtbp(p.nodes, lam))
    worst_m = float(job_mtbp(max(p.max_nodes, large_nodes, *p.mc_nodes),
                             preemption_rate(max(p.interruption_sweep), p.month)))
    if (R + delta) > MAX_COST_OVER_MTBF * worst_m:
        raise ParamError("max_nodes", p.max_nodes, "few enough that the largest gang's time between preemptions "
                         f"exceeds (R + δ)/{MAX_COST_OVER_MTBF:g}")
    for f in p.interruption_sweep:
        if not 0 < f < 1:
            raise ParamError("interruption_sweep", f, "shares strictly between 0 and 1")
    if p.discount >= 1:  # free capacity: no wait or preemption ever makes spot cost more (the wait limit is infinite)
        raise ParamError("discount", p.discount, "below 1 (a 100% discount is free capacity, with no break-even)")
    return {"large_nodes": large_nodes, "state": state, "delta": delta, "restore": restore, "R": R, "copy": copy,
            "hbm_need": hbm_need, "hbm_have": hbm_have, "lam": lam, "M": M}


# --- the three providers, on the scenario's gang ----------------------------------------


def on_three_providers(p, job: dict) -> dict:
    """The gang's wall time, preemptions, break-even and cost under each provider's notice."""
    work, nodes, M, delta = p.work, p.nodes, job["M"], job["delta"]
    od_cost = float(job_cost(p.price, nodes, work))
    providers = []
    for key, name, notice in (("aws", "AWS", p.aws_notice), ("gcp", "Google Cloud", p.gcp_notice),
                              ("azure", "Azure", p.azure_notice)):
        r = spot_wall_time(work, M, notice, delta, job["R"])
        wall = r["wall"]
        providers.append({
            "key": key, "provider": name, "notice": float(notice), "fits": r["fits"],
            "interval": r["interval"], "wall": wall, "extra": wall - work,
            "preemptions": wall / M, "break_even": float(break_even_discount(work, wall)),
            "cost": float(job_cost(p.price, nodes, wall, p.discount)),
            "cost_max_discount": float(job_cost(p.price, nodes, wall, p.discount_max)),
            "savings": 1.0 - float(job_cost(p.price, nodes, wall, p.discount)) / od_cost,
            "savings_high": float(savings(work, wall, p.discount_high)),
        })
    by = {q["key"]: q for q in providers}
    aws, gcp, azure = by["aws"], by["gcp"], by["azure"]
    wait_limit = max_rejoin_for_discount(work, M, delta, p.discount) - job["restore"]

    check(delta <= p.aws_notice, "the snapshot fits inside AWS's two-minute notice: no work is lost")
    check(delta > p.gcp_notice and delta > p.azure_notice,
          "Google Cloud's and Azure's 30-second notices are too short for it")
    check(gcp["wall"] > aws["wall"] and azure["wall"] > aws["wall"],
          "without the snapshot in the notice the job takes longer")
    check(all(q["break_even"] < p.discount for q in providers),
          "spot wins on every provider at the assumed discount")
    check(aws["preemptions"] < 1, "the gang expects less than one preemption in the whole run")
    check(max(q["extra"] for q in providers) < 0.02 * work,
          "both extra wall times are small next to the run")
    check(wait_limit > p.capacity_wait, "the capacity wait could grow a long way before spot stops paying")
    return {"od_cost": od_cost, "providers": providers, "aws": aws, "gcp": gcp,
            "fallback_tau": gcp["interval"], "wait_limit": wait_limit}


# --- the sweep: break-even discount against gang size, for each monthly band -----------------


def smallest_gang(p) -> int:
    """The fewest nodes whose HBM holds the training state (weights, gradients, optimizer state)."""
    need = p.model_params * (2 * p.weight_bytes + p.optimizer_bytes)
    return max(1, math.ceil(need / (p.gpus_per_node * p.hbm_capacity)))


def break_even_sweep(p, job: dict) -> tuple[np.ndarray, dict]:
    """Break-even discount over gang sizes, per monthly band, under a 2-minute and a 30-second notice.

    The gang's write bandwidth grows with it, so δ(n) = state / (n × per-node bandwidth) and
    R(n) = capacity wait + δ(n). The sweep starts at the smallest gang whose HBM holds the state.
    Where δ(n) fits a notice the notice regime applies; where not, periodic checkpoints (or,
    dotted, asynchronous snapshots) under the 30-second notice."""
    work, state = p.work, job["state"]
    n_min = smallest_gang(p)
    n_grid = np.unique(np.round(np.logspace(math.log10(n_min), math.log10(p.max_nodes), 49)).astype(int))
    delta_n = state / (n_grid * p.node_write_bandwidth)
    rejoin_n = p.capacity_wait + delta_n
    copy_n = state / (n_grid * p.gpus_per_node * p.host_link_bw / 2)
    sweep = {"sweep_snapshot": delta_n}
    strategies = set()  # what the 2-minute curve uses where δ(n) does not fit it
    for i, f in enumerate(p.interruption_sweep):
        m_grid = job_mtbp(n_grid, preemption_rate(f, p.month))
        cases = list(zip(m_grid, delta_n, rejoin_n, copy_n))
        # the 2-minute notice: the snapshot inside it where it fits, else the better of checkpoints and
        # asynchronous snapshots under it (a longer notice never leaves the job worse off than a shorter one)
        best = [best_wall_time(work, float(m), p.aws_notice, float(d), float(c), float(r)) for m, d, r, c in cases]
        fit = [b["wall"] for b in best]
        strategies.update(b["strategy"] for b, d in zip(best, delta_n) if d > p.aws_notice)
        short = [spot_wall_time(work, float(m), p.gcp_notice, float(d), float(r))["wall"] for m, d, r, _ in cases]
        asyn = [s if d <= p.gcp_notice else wall_time_async(work, float(m), float(c), float(d), p.gcp_notice,
                                                             float(r))["wall"]
                for s, (m, d, r, c) in zip(short, cases)]
        sweep[f"fit_{i}"] = break_even_discount(work, fit)
        sweep[f"nofit_{i}"] = break_even_discount(work, short)
        sweep[f"async_{i}"] = break_even_discount(work, asyn)
    bands = range(len(p.interruption_sweep))
    fits_aws, fits_short = delta_n <= p.aws_notice, delta_n <= p.gcp_notice
    check(n_grid[0] >= 2 and not np.any(fits_short[:1]), "the sweep starts where the state fits in HBM, "
          "at a gang whose snapshot a 30-second notice cannot hold")
    check(all(np.all(np.diff(sweep[f"fit_{i}"][fits_aws]) > 0) for i in bands),
          "where the snapshot fits the notice, the break-even discount rises with the size of the gang")
    check(all(np.all(sweep[f"nofit_{i}"][fits_aws & ~fits_short] > sweep[f"fit_{i}"][fits_aws & ~fits_short])
              for i in bands), "a 30-second notice raises the break-even where the snapshot fits only the longer one")
    check(all(np.allclose(sweep[f"nofit_{i}"][fits_short], sweep[f"fit_{i}"][fits_short]) for i in bands),
          "once the snapshot fits 30 seconds, the two notices give the same break-even")
    check(all(np.all(sweep[f"async_{i}"][~fits_short] < sweep[f"nofit_{i}"][~fits_short]) for i in bands),
          "with a short notice, asynchronous snapshots lower the break-even wherever the snapshot does not fit it")
    check(all(np.all(sweep[f"fit_{i}"] <= np.minimum(sweep[f"async_{i}"], sweep[f"nofit_{i}"]) + 1e-12)
              for i in bands), "a 2-minute notice never breaks even higher than a 30-second one, on any gang")
    merge = int(n_grid[np.argmax(fits_short)])
    sweep_facts = {"n_min": int(n_min), "merge_nodes": int(math.ceil(state / (p.gcp_notice * p.node_write_bandwidth))),
                   "aws_fit_nodes": int(math.ceil(state / (p.aws_notice * p.node_write_bandwidth))),
                   "merge_grid_nodes": merge, "aws_unfit_strategy": "/".join(sorted(strategies)),
                   "snapshot_at_max": float(state / (p.max_nodes * p.node_write_bandwidth))}
    return n_grid, sweep, sweep_facts


# --- the Monte Carlo at the highest band, across gang sizes, in both regimes -----------------


def monte_carlo(p, job: dict, rng: np.random.Generator) -> dict:
    """Seeded simulations of both regimes at each gang size tested, as z-scores against the formulas;
    a model that forgets the snapshot must fail the same test."""
    work, delta, R, trials = p.work, job["delta"], job["R"], p.trials
    rows, z_fit, z_nofit, z_naive, tested, tested_nofit = [], [], [], [], [], []
    lam_mc = preemption_rate(p.monthly_interruption, p.month)
    _refuse_past_budget(p, job, lam_mc)
    for n in p.mc_nodes:
        m = float(job_mtbp(n, lam_mc))
        analytic = wall_time_with_notice(work, m, delta, R)
        sim = simulate_with_notice(work, m, delta, R, trials, rng)
        mean, se = float(sim["wall"].mean()), float(sim["wall"].std(ddof=1) / math.sqrt(trials))
        z = float(ck.z_scores(mean, analytic, se)[0])
        naive = work * math.exp(R / m)  # a model that forgets the snapshot: rejoins only
        z_fit.append(z)
        z_naive.append(float(ck.z_scores(mean, naive, se)[0]))
        tested.append(se > 0)
        tau = fallback_interval(work, m, delta)
        n_seg = round(work / tau)
        sim2 = ck.simulate_wall_times(n_seg, tau, delta, m, R, trials, rng)
        mean2, se2 = float(sim2["wall"].mean()), float(sim2["wall"].std(ddof=1) / math.sqrt(trials))
        analytic2 = float(ck.wall_time(tau, delta, m, R, work))
        z2 = float(ck.z_scores(mean2, analytic2, se2)[0])
        z_nofit.append(z2)
        tested_nofit.append(se2 > 0)
        rows.append([int(n), m, analytic, mean, 1.96 * se, z, analytic2, mean2, 1.96 * se2, z2])
    read = [z for z, t in zip(z_fit + z_nofit, tested + tested_nofit) if t]
    check(read and max(abs(z) for z in read) <= Z_CHECK,
          "a seeded Monte Carlo agrees with both formulas at every gang size tested")
    check(any(abs(z) > Z_CHECK for z, t in zip(z_naive, tested) if t),
          "the check can fail: a model that forgets the snapshot misses the simulation")
    return {"rows": rows, "z": z_fit + z_nofit, "z_naive": z_naive, "lam": lam_mc}


def _refuse_past_budget(p, job: dict, lam: float) -> None:
    """ParamError when a gang the Monte Carlo tests expects more preemptions, in either regime, than the
    simulations are bounded at (they would stop with BoundExceeded)."""
    delta, R = job["delta"], job["R"]
    for n in p.mc_nodes:
        m = float(job_mtbp(n, lam))
        tau = fallback_interval(p.work, m, delta)
        expected = max(wall_time_with_notice(p.work, m, delta, R) / m,
                       float(ck.expected_failures(tau, delta, m, R, round(p.work / tau) * tau)))
        if not expected <= MAX_EXPECTED_FAILURES:
            raise ParamError("monthly_interruption", p.monthly_interruption,
                             f"low enough that the Monte Carlo's {n}-node gang expects at most "
                             f"{MAX_EXPECTED_FAILURES:,} preemptions (it expects {expected:.3g}; the simulation "
                             "is bounded there)")


# --- worked problems ---------------------------------------------------------------------


def worked_problems(p, job: dict, prov: dict) -> dict:
    """A Llama-scale gang on spot, and the cost at both ends of the on-demand price estimate."""
    large_nodes, work = job["large_nodes"], p.work
    large_state = ck.checkpoint_bytes(p.large_params, p.weight_bytes, p.optimizer_bytes)
    check(p.large_params * (2 * p.weight_bytes + p.optimizer_bytes) <= p.large_gpus * p.hbm_capacity,
          "the Llama-scale state fits in its gang's HBM")
    large_delta = ck.checkpoint_cost(large_state, p.large_write_bandwidth)
    large_R = p.capacity_wait + large_delta
    large_M = float(job_mtbp(large_nodes, job["lam"]))
    large_fit = spot_wall_time(work, large_M, p.gcp_notice, large_delta, large_R)
    large_be = float(break_even_discount(work, large_fit["wall"]))
    large_wait_limit = max_rejoin_for_discount(work, large_M, large_delta, p.discount) - large_delta
    check(large_fit["fits"], "at Llama 3's storage bandwidth the snapshot fits even a 30-second notice")
    check(large_be > 10 * prov["aws"]["break_even"], "the gang's size, not the notice, now sets the break-even")
    check(large_be < p.discount, "spot still wins on paper at the assumed discount")
    check(0.5 < large_wait_limit / large_M < 1.5,
          "the wait at which spot stops paying is close to the gang's own time between preemptions")
    return {
        "llama_scale": {
            "nodes": int(large_nodes), "gpus": int(large_nodes * p.gpus_per_node), "state": large_state,
            "snapshot": large_delta, "mtbp": large_M, "wall": large_fit["wall"],
            "preemptions": large_fit["wall"] / large_M, "break_even": large_be,
            "preemptions_per_day": 86400.0 / large_M, "wait_limit": large_wait_limit,
            "wait_limit_over_mtbp": large_wait_limit / large_M,
        },
        "price_range": {
            "od_low": prov["od_cost"], "od_high": float(job_cost(p.price_high, p.nodes, work)),
            "spot_low": prov["aws"]["cost"],
            "spot_high": float(job_cost(p.price_high, p.nodes, prov["aws"]["wall"], p.discount)),
        },
    }


# --- the card's two recovery mechanisms ----------------------------------------------------------


def asynchronous_snapshots(p, job: dict, prov: dict) -> dict:
    """The scenario's gang under a 30-second notice, with the snapshot split in two stages."""
    work, M, delta, R, copy = p.work, job["M"], job["delta"], job["R"], job["copy"]
    res = wall_time_async(work, M, copy, delta, p.gcp_notice, R)
    gcp = prov["gcp"]
    check(copy < p.gcp_notice < delta, "the copy to host memory fits a 30-second notice; the drain does not")
    check(res["wall"] < gcp["wall"], "asynchronous snapshots shorten the run under a 30-second notice")
    check(res["wall"] > prov["aws"]["wall"], "they do not beat a snapshot that fits the notice whole")
    # the approximation sits between its own bounds: nothing extra lost, and a whole interval lost
    lower = float(ck.wall_time(res["interval"], copy, M, R, work))
    upper = float(ck.wall_time(res["interval"], copy, M, R + res["interval"], work))
    check(lower <= res["wall"] <= upper, "the asynchronous estimate lies between its bounds")
    host_bytes = job["state"] / p.nodes
    return {"host_copy": copy, "drain": delta, "interval": res["interval"], "lost_share": res["lost_share"],
            "wall": res["wall"], "extra": res["wall"] - work,
            "break_even": float(break_even_discount(work, res["wall"])),
            "sync_extra": gcp["extra"], "host_bytes_per_node": host_bytes,
            "exposed": max(delta - p.gcp_notice, 0.0)}


def elastic_recovery(p, job: dict, problems: dict) -> dict:
    """The Llama-scale gang when it shrinks by one data-parallel replica instead of waiting."""
    big = problems["llama_scale"]
    replica_gpus = p.large_tp * p.large_pp
    if p.large_gpus % replica_gpus:
        raise ParamError("large_gpus", p.large_gpus, f"a whole number of {replica_gpus}-GPU replicas")
    replicas = p.large_gpus // replica_gpus
    rejoin = p.capacity_wait + big["snapshot"]  # wait for a node, then fetch its weight and optimizer shard
    # FSDP: the reclaimed node holds a weight and optimizer shard no other replica has, so dropping its
    # replica reshards the state (one pause c) and the rejoin reshards it back (a second pause c)
    pauses = 2.0 * p.reconfigure_time
    share = float(elastic_share(big["mtbp"], pauses, rejoin, replicas))
    if share <= 0:  # the pauses and the replicas out fill the gang's time: it never progresses
        raise ParamError("reconfigure_time", p.reconfigure_time,
                         f"short enough that the Llama-scale gang ({big['nodes']:,} nodes, a preemption every "
                         f"{big['mtbp']:.3g} s) keeps some of its time; pauses and rejoins take {1 - share:.0%} of it")
    wall = elastic_wall_time(p.work, big["mtbp"], pauses, rejoin, replicas)
    be = float(break_even_discount(p.work, wall))
    check(be < big["break_even"] / 3,
          "shrinking and continuing cuts the Llama-scale break-even by a factor of 3 or more")
    c_rows = [_pause_row(p, big["mtbp"], c, rejoin, replicas) for c in p.reconfigure_sweep]
    steady = [r for r in c_rows if r["break_even"] is not None]
    check(all(a["break_even"] < b["break_even"] for a, b in zip(steady, steady[1:])),
          "a longer pause raises the elastic break-even")
    check(pauses / (pauses + rejoin / replicas) > 0.9,
          "the reshard pauses are nearly all of the elastic gang's overhead; the wait for capacity barely counts")
    # the shortest pause in the sweep from which shrinking no longer beats waiting (None: it always does)
    losing = [r["pause"] for r in c_rows if r["break_even"] is None or r["break_even"] >= big["break_even"]]
    check(bool(losing) and all((r["pause"] >= losing[0]) == (r["pause"] in losing) for r in c_rows),
          "from some pause in the sweep on, and only from there, shrinking no longer beats a gang that waits")
    return {"replicas": int(replicas), "replica_gpus": int(replica_gpus),
            "replica_nodes": int(replica_gpus // p.gpus_per_node), "wall": wall, "extra": wall - p.work,
            "break_even": be, "gang_break_even": big["break_even"],
            "out_share": rejoin / (replicas * big["mtbp"]), "pause_share": pauses / big["mtbp"],
            "pauses": pauses, "pause_sweep": c_rows, "loses_from_pause": float(losing[0]) if losing else None,
            "pause_overhead_share": pauses / (pauses + rejoin / replicas),
            "savings": float(savings(p.work, wall, p.discount)),
            "savings_high": float(savings(p.work, wall, p.discount_high)),
            "gang_savings": float(savings(p.work, big["wall"], p.discount)),
            "gang_savings_high": float(savings(p.work, big["wall"], p.discount_high))}


def _pause_row(p, mtbp: float, pause: float, rejoin: float, replicas: int) -> dict:
    """One row of the pause sweep; break-even and saving None where the pauses (2c per preemption) and
    the replicas out fill the gang's time: it never finishes, and only free capacity would break even."""
    if elastic_share(mtbp, 2.0 * pause, rejoin, replicas) <= 0:
        return {"pause": float(pause), "break_even": None, "savings": None}
    wall = elastic_wall_time(p.work, mtbp, 2.0 * pause, rejoin, replicas)
    return {"pause": float(pause), "break_even": float(break_even_discount(p.work, wall)),
            "savings": float(savings(p.work, wall, p.discount))}


def savings_at_discounts(p, prov: dict, problems: dict) -> dict:
    """The saving 1 − (1 − d)·T/W at a dated quoted GPU discount and at lower ones than the assumed range,
    for the page's gang and the Llama-scale one: the card's 60–70% is an input, so show what less gives."""
    quoted = 1.0 - p.quoted_spot_price / p.quoted_on_demand_price
    walls = {"aws": prov["aws"]["wall"], "async": problems["async"]["wall"],
             "gang": problems["llama_scale"]["wall"], "elastic": problems["elastic"]["wall"]}
    ds = sorted({*map(float, p.discount_sweep), quoted, float(p.discount), float(p.discount_high)})
    rows = [{"discount": d, "quoted": d == quoted, **{k: float(savings(p.work, w, d)) for k, w in walls.items()}}
            for d in ds]
    check(quoted < p.discount, "the dated second-hand H100 Spot price is a smaller discount than the assumed 60%")
    check(all(r[k] > 0 for r in rows for k in walls),
          "at every discount compared spot still costs less than on-demand, even for the Llama-scale gang")
    check(all(abs(r["aws"] - r["discount"]) < 0.01 for r in rows),
          "for the page's gang the saving stays within a point of the discount")
    # The sign above holds at the Advisor's top band; GPU gangs are likely preempted more often, so the
    # waiting Llama-scale gang is also priced at the sweep's highest rate, where the prize shrinks fast.
    big = problems["llama_scale"]
    high_rate = float(max(p.interruption_sweep))
    high_M = float(job_mtbp(big["nodes"], preemption_rate(high_rate, p.month)))
    high_wall = spot_wall_time(p.work, high_M, p.gcp_notice, big["snapshot"], p.capacity_wait + big["snapshot"])["wall"]
    high_be = float(break_even_discount(p.work, high_wall))
    for r in rows:
        r["gang_high"] = float(savings(p.work, high_wall, r["discount"]))
    check((high_be > big["break_even"]) == (high_rate > p.monthly_interruption),
          "at the sweep's highest rate, above the assumed one, the waiting gang needs a larger discount")
    return {"quoted": quoted, "rows": rows, "high_rate": high_rate, "high_break_even": high_be,
            "high_mtbp": high_M, "quoted_gang_high": float(savings(p.work, high_wall, quoted)),
            "quoted_aws": float(savings(p.work, walls["aws"], quoted)),
            "quoted_async": float(savings(p.work, walls["async"], quoted)),
            "quoted_gang": float(savings(p.work, walls["gang"], quoted)),
            "quoted_elastic": float(savings(p.work, walls["elastic"], quoted))}


# --- what the page reads -------------------------------------------------------------


ANIM_MAX_EVENTS = 80  # the animated run draws every preemption up to this many (checked below)


def animation_plan(p, job: dict, problems: dict, rng: np.random.Generator) -> dict:
    """One reclaim of the page's gang zoomed: its δ, rejoin, the work a periodic checkpoint loses on
    average under a short notice (half a segment), and what asynchronous snapshots lose instead; then one
    day of the Llama-scale worked problem's gang hopping across preemptions (an illustration, at that
    problem's own M, δ and rejoin)."""
    delta, restore = job["delta"], job["restore"]
    big, asyn = problems["llama_scale"], problems["async"]
    blocks = sample_run(p.anim_work, big["mtbp"], big["snapshot"], p.capacity_wait, big["snapshot"], rng,
                        max_events=ANIM_MAX_EVENTS)
    hops = sum(b["kind"] == "snapshot" for b in blocks)
    check(hops < ANIM_MAX_EVENTS, "the animated run draws every preemption it meets")
    tau = fallback_interval(p.work, job["M"], delta)
    lost_sync = (tau + delta) / 2.0
    # asynchronous snapshots: half a (shorter) segment, plus a whole one for the share q whose drain is late
    lost_async = (asyn["interval"] + asyn["host_copy"]) / 2.0 + asyn["lost_share"] * asyn["interval"]
    check(lost_async < lost_sync / 5, "asynchronous snapshots cut the work a short notice loses several-fold")
    return {
        "blocks": blocks, "nodes": int(big["nodes"]), "gpus": int(big["gpus"]),
        "mtbp": float(big["mtbp"]), "work": float(p.anim_work), "run_snapshot": float(big["snapshot"]),
        "preemptions": hops,
        "aws_notice": float(p.aws_notice), "short_notice": float(p.gcp_notice),
        "zoom_gpus": int(p.nodes * p.gpus_per_node), "snapshot": delta,
        "capacity_wait": float(p.capacity_wait), "restore": restore, "fallback_interval": tau,
        "lost_at_first": lost_sync,
        "async_interval": float(asyn["interval"]), "async_copy": float(asyn["host_copy"]),
        "async_lost_share": float(asyn["lost_share"]), "async_late_loss": float(asyn["lost_share"] * asyn["interval"]),
        "lost_async": float(lost_async), "sync_extra": float(asyn["sync_extra"]), "async_extra": float(asyn["extra"]),
    }


def summary_of(p, job: dict, prov: dict, mc: dict) -> dict:
    nodes, state = p.nodes, job["state"]
    return {
        "gpus": int(nodes * p.gpus_per_node),
        "state_bytes": state,
        "hbm_share": job["hbm_need"] / job["hbm_have"],
        "snapshot": job["delta"],
        "rejoin": job["R"],
        "node_mtbp": 1.0 / job["lam"],
        "job_mtbp": job["M"],
        "on_demand_cost": prov["od_cost"],
        "on_demand_hours": p.work / HOUR,
        **{f"{q['key']}_{k}": q[k] for q in prov["providers"]
           for k in ("wall", "extra", "preemptions", "break_even", "cost", "cost_max_discount", "savings",
                     "savings_high")},
        "fallback_interval": prov["fallback_tau"],
        "notice_saving": prov["gcp"]["wall"] - prov["aws"]["wall"],
        "wait_limit": prov["wait_limit"],
        "bandwidth_for_aws_notice": state / (nodes * p.aws_notice),
        "bandwidth_for_short_notice": state / (nodes * min(p.gcp_notice, p.azure_notice)),
        "mc_points": len(p.mc_nodes),
        "mc_z_check": Z_CHECK,
        "mc_max_abs_z": float(max(abs(z) for z in mc["z"])),
        "mc_max_abs_z_naive": float(max(abs(z) for z in mc["z_naive"])),
        "mc_max_rel_ci": float(max(r[4] / r[2] for r in mc["rows"])),
    }


def series_of(p, job: dict, n_grid: np.ndarray, sweep: dict, mc: dict) -> dict:
    """The sweep, the Monte Carlo's points, and dense formula curves for the Monte Carlo panel."""
    work, rows, delta, R = p.work, mc["rows"], job["delta"], job["R"]
    series = {
        **curves("nodes", n_grid, **sweep),
        **curves("mc_nodes", [r[0] for r in rows], mc_fit_analytic=[r[2] / work for r in rows],
                 mc_fit_mean=[r[3] / work for r in rows], mc_fit_ci=[r[4] / work for r in rows],
                 mc_nofit_analytic=[r[6] / work for r in rows], mc_nofit_mean=[r[7] / work for r in rows],
                 mc_nofit_ci=[r[8] / work for r in rows], mc_mtbp=[r[1] for r in rows]),
    }
    n_dense = np.unique(np.round(np.logspace(0, math.log10(max(p.max_nodes, *p.mc_nodes)), 61)).astype(int))
    m_dense = job_mtbp(n_dense, mc["lam"])
    series.update(curves("dense_nodes", n_dense,
                         dense_fit=wall_time_with_notice(work, m_dense, delta, R) / work,
                         dense_nofit=[wall_time_without_notice(work, float(m), delta, R) / work for m in m_dense]))
    return series


def mc_table(p, rows: list) -> Table:
    return Table(
        f"Expected completion time of {p.work / HOUR:.0f} h of useful compute on spot, at "
        f"{p.monthly_interruption:.0%} of capacity reclaimed a month per node: formulas against a seeded "
        f"Monte Carlo of {p.trials:,} jobs per gang size, with the snapshot inside the notice and with "
        "periodic checkpoints (scene 10)",
        [Column("nodes", "count"), Column("mean time between preemptions", "s"),
         Column("T, notice ≥ δ (formula)", "s"), Column("T, notice ≥ δ (Monte Carlo)", "s"),
         Column("95% CI half-width, notice ≥ δ", "s"), Column("(MC − formula) / SE", "1"),
         Column("T, notice < δ (Daly)", "s"), Column("T, notice < δ (Monte Carlo)", "s"),
         Column("95% CI half-width, notice < δ", "s"), Column("(MC − Daly) / SE", "1")],
        rows,
    )


def records_of(p, providers: list[dict]) -> dict:
    return {
        "providers": providers,
        "bands": [{"share": float(f), "node_mtbp": float(1.0 / preemption_rate(f, p.month)),
                   "job_mtbp": float(job_mtbp(p.nodes, preemption_rate(f, p.month)))} for f in p.interruption_sweep],
    }


# --- the scene's data ------------------------------------------------------------------


@model(
    nodes=Param.integer("count", "nodes in the job (one gang)"),
    gpus_per_node=Param.integer("count", "GPUs per node"),
    model_params=Param.positive("count", "model parameters (the job's choice)"),
    weight_bytes=Param.positive("B", "bytes per parameter, 16-bit weights"),
    optimizer_bytes=Param.number("B", "bytes per parameter, optimizer state", minimum=0),
    hbm_capacity=Param.positive("B", "HBM per GPU"),
    node_write_bandwidth=Param.positive("B/s", "snapshot write bandwidth per node (assumed)"),
    capacity_wait=Param.number("s", "wait for replacement capacity (assumed)", minimum=0),
    work=Param.positive("s", "useful compute W"),
    monthly_interruption=Param.number("1", "share of a node's capacity reclaimed per month",
                                      minimum=1e-4, maximum=0.99),
    interruption_sweep=Param.numbers("1", "monthly reclaim shares compared", above=0),
    month=Param.positive("s", "length of the Spot Advisor's trailing month (assumed)"),
    aws_notice=Param.positive("s", "AWS Spot interruption notice"),
    gcp_notice=Param.positive("s", "Google Cloud Spot preemption notice"),
    azure_notice=Param.positive("s", "Azure Spot eviction notice"),
    price=Param.positive("USD/h", "on-demand price per node"),
    price_high=Param.positive("USD/h", "on-demand price per node, high end of the estimate"),
    discount=Param.fraction("spot discount assumed"),
    discount_max=Param.fraction("spot discount, published ceiling"),
    large_gpus=Param.integer("count", "worked problem: GPUs in a Llama-scale gang"),
    large_params=Param.positive("count", "worked problem: model parameters"),
    large_write_bandwidth=Param.positive("B/s", "worked problem: aggregate checkpoint bandwidth"),
    host_link_bw=Param.positive("B/s", "GPU-to-host link per GPU, both directions together"),
    large_tp=Param.integer("count", "worked problem: tensor-parallel degree"),
    large_pp=Param.integer("count", "worked problem: pipeline-parallel degree"),
    reconfigure_time=Param.number("s", "pause to drop or add a replica (assumed)", minimum=0),
    reconfigure_sweep=Param.numbers("s", "pauses compared", above=0),
    discount_high=Param.fraction("spot discount, the card's upper 70%"),
    quoted_spot_price=Param.positive("USD/h", "a dated H100 Spot price per GPU (second-hand)"),
    quoted_on_demand_price=Param.positive("USD/h", "the same machine's on-demand price per GPU (second-hand)"),
    discount_sweep=Param.numbers("1", "lower discounts compared", above=0, maximum=0.99),
    max_nodes=Param.integer("count", "largest gang in the sweep", minimum=2, maximum=100_000),
    mc_nodes=Param.numbers("count", "gang sizes the Monte Carlo tests", minimum=1),
    trials=Param.integer("count", "Monte Carlo jobs per point", minimum=100, maximum=1_000_000),
    seed=Param.integer("1", "random seed", minimum=0, animation=True),
    anim_work=Param.positive("s", "useful compute of the animated run", animation=True),
)
def spot_arbitrage(nodes: int, gpus_per_node: int, model_params: float, weight_bytes: float,
                   optimizer_bytes: float, hbm_capacity: float, node_write_bandwidth: float, capacity_wait: float,
                   work: float,
                   monthly_interruption: float, interruption_sweep: list, month: float, aws_notice: float,
                   gcp_notice: float, azure_notice: float, price: float, price_high: float, discount: float,
                   discount_max: float, large_gpus: int, large_params: float, large_write_bandwidth: float,
                   host_link_bw: float, large_tp: int, large_pp: int, reconfigure_time: float,
                   reconfigure_sweep: list, discount_high: float, quoted_spot_price: float,
                   quoted_on_demand_price: float, discount_sweep: list,
                   max_nodes: int = 4096, mc_nodes: list | None = None, trials: int = 4000, seed: int = 24,
                   anim_work: float = 86400.0) -> Exhibit:
    """Spot against on-demand for one gang, three providers' notices, a sweep and a Monte Carlo.

    δ = model_params × (weight + optimizer bytes) / (nodes × node_write_bandwidth),
    the restore reads the same bytes at the same rate, and R = capacity_wait + restore.
    """
    mc_nodes = [8, 128, 512, 2048] if mc_nodes is None else mc_nodes
    p = SimpleNamespace(**locals())
    rng = np.random.default_rng(seed)
    job = the_job(p)
    prov = on_three_providers(p, job)
    n_grid, sweep, sweep_facts = break_even_sweep(p, job)
    mc = monte_carlo(p, job, rng)  # draws from rng before the animation's run: keep the order
    problems = worked_problems(p, job, prov)
    problems["async"] = asynchronous_snapshots(p, job, prov)
    problems["elastic"] = elastic_recovery(p, job, problems)
    problems["discounts"] = savings_at_discounts(p, prov, problems)
    problems["sweep"] = sweep_facts
    animation = animation_plan(p, job, problems, rng)
    return Exhibit(summary=summary_of(p, job, prov, mc), series=series_of(p, job, n_grid, sweep, mc),
                   table=mc_table(p, mc["rows"]), animation=animation, problems=problems,
                   records=records_of(p, prov["providers"]))


__all__ = [
    "Z_CHECK", "BoundExceeded", "preemption_rate", "job_mtbp", "wall_time_with_notice", "fallback_interval",
    "wall_time_without_notice", "spot_wall_time", "break_even_discount", "job_cost", "max_rejoin_for_discount",
    "simulate_with_notice", "sample_run", "spot_arbitrage", "async_lost_share", "async_interval",
    "wall_time_async", "elastic_share", "elastic_wall_time", "savings", "best_wall_time",
]
