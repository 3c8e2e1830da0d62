"""silent-data-corruption: silent data corruption, from fleet odds to one flipped bit in a training run.

Three parts, each over its own parameters.

1. **The odds that a run meets an SDC.** Two kinds of published evidence, in
   different units, and the model keeps them apart:

   - a *rate*: the Llama 3 report's Table 5 lists the SDCs that interrupted the
     405B run (a count over a 54-day snapshot on 16,384 GPUs). Per GPU-second,
     λ = count / (GPUs × window). Events from n independent GPUs superpose to a
     Poisson process of rate λ·n, so a run of n GPUs for t seconds meets at
     least one with probability P = 1 − exp(−λ·n·t). These are SDCs that were
     *detected*: the true rate can only be higher.
   - a *prevalence*: the CPU fleet studies (Meta, Dixit et al. 2021; Google,
     Hochschild et al. 2021) report what share of machines carry a defective
     ("mercurial") core, not a rate per hour. A job placed on m machines
     drawn from such a fleet includes at least one with probability
     1 − (1 − p)^m; it does not grow with the run's length, since the defect
     is there from the start. These are CPU measurements; no comparable GPU
     figure is published, and the page says so.

   A seeded Monte Carlo checks both: per-GPU exponential first-event times
   (their minimum is the job's first SDC) and per-machine Bernoulli draws.

2. **Periodic checks.** A check every c seconds of training costs k seconds
   (here: replaying steps and comparing, k = steps × the scenario's step time,
   `models.scenario_facts.training_step`: 6N plus attention over the context). An SDC that strikes uniformly inside an
   interval is found on average c/2 + k later (the detection latency). A
   failed check says only that the corruption came after the last check that
   passed, so recovery rolls back to the last checkpoint taken before that
   check: the interval's c seconds of training are thrown away, plus on
   average τ*/2 before it (τ*, the Young/Daly optimal checkpoint interval for the
   whole job), and the job restarts (R). Per second of training the loss is

       f(c) = k/c + (c + τ*/2 + R) / M_sdc

   with M_sdc the mean time between SDCs. f is minimal at c* = √(k·M_sdc):
   Young's trade-off (`young_interval`, √(2δM)) with the check cost
   k for δ, and without Young's factor 2 because a detected SDC throws away a
   whole check interval where a crash throws away half a checkpoint interval
   on average. Checkpoints newer than the last passed check cannot be trusted.

3. **One flipped bit in a real training run.** A two-layer ReLU network
   (softmax cross-entropy, float32, mini-batch SGD, seeded) learns a synthetic
   classification task. Before step s one bit of one weight of the output
   layer's matrix is flipped (XOR through `view(np.uint32)`), and the run goes
   on. The loss and gradient-norm traces are recorded for the clean run, an
   exponent flip and a low mantissa flip, and a detector watches the gradient
   norm: it fires when the norm is non-finite or its z-score against the
   previous `window` steps passes `z_threshold`. Every bit of that weight is
   then swept from the same state to see which flips matter.

   bf16, what training uses, has float32's sign and 8-bit exponent and keeps
   the top 7 of its 23 mantissa bits: an exponent flip scales a value by the
   same power of two in both formats, while bf16's lowest mantissa bit is
   float32's bit 16 (a relative change of 2⁻⁷, not 2⁻²³).

Every loop is a fixed-size sweep or a fixed number of training steps.
Units: seconds, bytes, bytes per second, FLOP/s.
"""

from __future__ import annotations

import math
from types import SimpleNamespace

import numpy as np
from scipy.stats import chi2

from models import scenario_facts
from models.exhibit import Column, Exhibit, Param, ParamError, Table, check, curves, model
from models.lib.checkpoint import (
    checkpoint_bytes,
    checkpoint_cost,
    mean_time_between_interruptions,
    optimal_interval,
    young_interval,
)
from models.lib.goodput import goodput
from models.lib.sweeps import including
from models.units import DAY, HOUR

Z_CHECK = 3.0  # Monte Carlo agrees with the formula when |p̂ − P| ≤ Z_CHECK·SE
FLOAT32_BITS = 32
EXPONENT_BITS = range(23, 31)  # float32: bits 23-30 exponent, bit 31 sign, 0-22 mantissa
BF16_LOWEST_MANTISSA_BIT = 16  # bf16 keeps float32's bits 16-31
CI_LEVEL = 0.95  # the rate's interval: exact Poisson (Garwood) on the Llama 3 count
MC_CHUNK = 100  # Monte Carlo trials drawn at once (bounds memory: chunk × GPUs floats)


# --- 1. the odds --------------------------------------------------------------------


def rate_per_device(events: float, devices: float, window: float) -> float:
    """λ (per device-second): events observed on `devices` devices over `window` seconds."""
    if not (events >= 0 and devices > 0 and window > 0):
        raise ValueError("events must be ≥ 0, devices and window positive")
    return events / (devices * window)


def poisson_count_interval(events: int, level: float = 0.95) -> tuple[float, float]:
    """Exact (Garwood) interval for a Poisson mean from `events` observed counts.

    The low end is the mean at which seeing ≥ `events` has probability (1 − level)/2, the high end the
    mean at which seeing ≤ `events` has that probability: χ² quantiles with 2k and 2k + 2 degrees of freedom.
    """
    if events < 0 or not 0 < level < 1:
        raise ValueError("events must be ≥ 0 and level in (0, 1)")
    tail = (1.0 - level) / 2.0
    low = 0.0 if events == 0 else float(chi2.ppf(tail, 2 * events)) / 2.0
    return low, float(chi2.ppf(1.0 - tail, 2 * events + 2)) / 2.0


def p_at_least_one(rate, devices, duration):
    """P(≥ 1 event) = 1 − exp(−λ·n·t) for n independent devices over t seconds."""
    return -np.expm1(-np.asarray(rate, dtype=float) * np.asarray(devices, dtype=float)
                     * np.asarray(duration, dtype=float))


def p_any_defective(share, machines):
    """P(at least one of m machines is defective) = 1 − (1 − p)^m, p the fleet's defective share."""
    share = np.asarray(share, dtype=float)
    return -np.expm1(np.asarray(machines, dtype=float) * np.log1p(-share))


def simulate_first_event(rate: float, devices: int, trials: int, rng: np.random.Generator) -> np.ndarray:
    """Each trial: every device draws its own Exp(1/λ) first-event time; the job's first SDC is the minimum."""
    out = np.empty(trials)
    for start in range(0, trials, MC_CHUNK):
        m = min(MC_CHUNK, trials - start)
        out[start:start + m] = rng.exponential(1.0 / rate, size=(m, devices)).min(axis=1)
    return out


def simulate_any_defective(share: float, machines: int, trials: int, rng: np.random.Generator) -> np.ndarray:
    """Each trial: every machine is defective with probability p; True when any is."""
    out = np.empty(trials, dtype=bool)
    for start in range(0, trials, MC_CHUNK):
        m = min(MC_CHUNK, trials - start)
        out[start:start + m] = (rng.random((m, machines)) < share).any(axis=1)
    return out


# --- 2. periodic checks ---------------------------------------------------------------


def detection_latency(interval, check_time, catch=1.0):
    """Expected time (s) from an SDC to its detection: c/2 + k (uniform strike within an interval) when every
    check catches it. A check that catches it with probability p passes wrongly 1/p − 1 times on average
    (geometric), each a whole interval: c·(1/p − 1/2) + k."""
    return np.asarray(interval, dtype=float) * (1.0 / np.asarray(catch, dtype=float) - 0.5) + check_time


def catch_probability(firing_share, check_steps):
    """The chance that one check sees a persistent defect that fires in a share q of the steps, independently:
    it replays s steps and needs the defect to fire in at least one, 1 − (1 − q)^s."""
    with np.errstate(divide="ignore"):  # q = 1: log(0) = −inf, and the check always sees it
        return -np.expm1(np.asarray(check_steps, dtype=float) * np.log1p(-np.asarray(firing_share, dtype=float)))


def check_overhead(interval, check_time, mtb_sdc: float, ckpt_interval: float, restart: float,
                   catch: float = 1.0) -> dict:
    """Share of training time lost to SDCs, by part, when checking every c seconds.

    checks k/c; discarded c/(pM): the interval the fault struck in and, when a check catches it only with
    probability p, the 1/p − 1 intervals whose checks passed wrongly (the rollback must reach past them);
    rollback past those (τ*/2)/M; restart R/M. Their sum is f(c).
    """
    c = np.asarray(interval, dtype=float)
    parts = {
        "checks": check_time / c,
        "discarded": c / (catch * mtb_sdc),
        "rollback": np.full_like(c, ckpt_interval / 2.0 / mtb_sdc),
        "restart": np.full_like(c, restart / mtb_sdc),
    }
    parts["total"] = parts["checks"] + parts["discarded"] + parts["rollback"] + parts["restart"]
    return parts


def optimal_check_interval(check_time, mtb_sdc, catch=1.0):
    """c* = √(k·p·M_sdc), the minimum of f(c): Young's √(2δM) (`young_interval`) with δ → k/2 and M → pM."""
    return young_interval(np.asarray(check_time, dtype=float) / 2.0, np.asarray(catch, dtype=float) * mtb_sdc)


# --- 3. the numpy training run ----------------------------------------------------------


def flip_bit(x: np.ndarray, index: tuple, bit: int) -> None:
    """Flip bit `bit` (0 = lowest mantissa bit, 30 = exponent MSB, 31 = sign) of float32 x[index], in place."""
    if x.dtype != np.float32 or not 0 <= bit < FLOAT32_BITS:
        raise ValueError("flip_bit takes a float32 array and a bit in 0..31")
    u = x.view(np.uint32)
    u[index] ^= np.uint32(1 << bit)


def _dataset(seed: int, samples: int, features: int, classes: int):
    rng = np.random.default_rng(seed)
    x = rng.standard_normal((samples, features)).astype(np.float32)
    teacher = rng.standard_normal((features, classes)).astype(np.float32)
    noise = 0.5 * rng.standard_normal((samples, classes)).astype(np.float32)
    return x, np.argmax(x @ teacher + noise, axis=1)


def _init(seed: int, features: int, hidden: int, classes: int):
    rng = np.random.default_rng(seed + 1)
    w1 = (rng.standard_normal((features, hidden)) / math.sqrt(features)).astype(np.float32)
    w2 = (rng.standard_normal((hidden, classes)) / math.sqrt(hidden)).astype(np.float32)
    return w1, w2, rng


def _loss_and_grads(xb, yb, w1, w2):
    """Forward and backward pass of one mini-batch: (mean loss, dW1, dW2), in float32."""
    b = xb.shape[0]
    rows = np.arange(b)
    z = xb @ w1
    a = np.maximum(z, np.float32(0))
    logits = a @ w2
    m = logits.max(axis=1, keepdims=True)
    e = np.exp(logits - m)
    tot = e.sum(axis=1, keepdims=True)
    loss = -float((logits - m - np.log(tot))[rows, yb].mean())
    p = e / tot
    p[rows, yb] -= 1
    p /= np.float32(b)
    g2 = a.T @ p
    ga = p @ w2.T
    ga[z <= 0] = 0
    g1 = xb.T @ ga
    return loss, g1, g2


def _steps(x, y, w1, w2, order, lr, start, stop, flip=None):
    """SGD steps start..stop-1 on (w1, w2) in place; the flip (index, bit) lands before step `start`.

    Returns per-step loss and gradient norm (float64 copies).
    """
    lr = np.float32(lr)
    if flip is not None:
        flip_bit(w2, flip[0], flip[1])
    n = stop - start
    loss, gnorm = np.empty(n), np.empty(n)
    with np.errstate(all="ignore"):  # a flipped exponent overflows on purpose
        for i, s in enumerate(range(start, stop)):
            loss[i], g1, g2 = _loss_and_grads(x[order[s]], y[order[s]], w1, w2)
            gnorm[i] = math.sqrt(float(np.sum(g1.astype(np.float64) ** 2) + np.sum(g2.astype(np.float64) ** 2)))
            w1 -= lr * g1
            w2 -= lr * g2
    return loss, gnorm


def detector(gnorm: np.ndarray, window: int, z_threshold: float) -> np.ndarray:
    """Alarm per step: the gradient norm is non-finite, or its z-score against the previous
    `window` steps exceeds `z_threshold`. The first `window` steps only fill the window."""
    g = np.asarray(gnorm, dtype=float)
    alarm = ~np.isfinite(g)
    for s in range(window, g.size):
        past = g[s - window:s]
        if not np.all(np.isfinite(past)):
            alarm[s] = True
            continue
        sd = past.std()
        if sd > 0 and (g[s] - past.mean()) / sd > z_threshold:
            alarm[s] = True
    return alarm


def first_alarm(alarm: np.ndarray, after: int) -> int | None:
    """The first step ≥ `after` at which the detector fires, or None."""
    hits = np.flatnonzero(alarm[after:])
    return int(after + hits[0]) if hits.size else None


def train_with_flip(seed: int, steps: int, flip_step: int, flip_index: tuple, bits: list, samples: int,
                    features: int, hidden: int, classes: int, batch: int, lr: float) -> dict:
    """The clean run and one run per flipped bit, sharing steps 0..flip_step-1 (same seed, same batches).

    Returns {"clean": (loss, gnorm), bit: (loss, gnorm), ...} and the weight before the flip.
    """
    x, y = _dataset(seed, samples, features, classes)
    w1, w2, rng = _init(seed, features, hidden, classes)
    order = rng.integers(0, samples, size=(steps, batch))
    head_loss, head_g = _steps(x, y, w1, w2, order, lr, 0, flip_step)
    out = {"weight": float(w2[flip_index]), "state": (x, y, w1.copy(), w2.copy(), order[flip_step])}
    runs = {"clean": None, **{b: b for b in bits}}
    for key, bit in runs.items():
        v1, v2 = w1.copy(), w2.copy()
        tl, tg = _steps(x, y, v1, v2, order, lr, flip_step, steps,
                        None if bit is None else (flip_index, bit))
        out[key] = (np.concatenate([head_loss, tl]), np.concatenate([head_g, tg]))
    return out


def matmul_trace(state, flip_index: tuple, bit: int) -> dict:
    """One example of the batch at the flip step, through the output matrix multiply, before and after.

    Picks the first example whose hidden unit i is active (ReLU > 0), so the flipped weight W[i, j]
    reaches its logit j. Values as float32 would compute them; non-finite ones come back as text.
    """
    x, y, w1, w2, rows = state
    i, j = flip_index
    a = np.maximum(x[rows] @ w1, np.float32(0))
    active = np.flatnonzero(a[:, i] > 0)
    if not active.size:
        raise ValueError("no example of the batch activates the flipped weight's unit")
    e = int(active[0])
    w_bad = w2.copy()
    flip_bit(w_bad, flip_index, bit)
    with np.errstate(all="ignore"):
        before = a[e] @ w2
        after = a[e] @ w_bad
        term = a[e, i] * w_bad[i, j]
        logits = a @ w_bad
        mx = logits.max(axis=1, keepdims=True)
        per_example = -(logits - mx - np.log(np.exp(logits - mx).sum(axis=1, keepdims=True)))[
            np.arange(len(rows)), y[rows]]
        batch_loss = per_example.mean(dtype=np.float32)  # numpy sums in float32, then divides
        batch_sum = per_example.sum(dtype=np.float32)

    def shown(v):
        v = float(v)
        return v if math.isfinite(v) else ("inf" if v > 0 else "-inf" if v < 0 else "nan")

    return {"example": e, "label": int(y[rows][e]), "unit": int(i), "column": int(j),
            "activation": float(a[e, i]), "term_after": shown(term),
            "logits_before": [shown(v) for v in before], "logits_after": [shown(v) for v in after],
            "loss_example_after": shown(per_example[e]), "batch_loss_after": shown(batch_loss),
            "batch_loss_sum": shown(batch_sum), "batch_loss_sum_float64": float(np.sum(per_example, dtype=np.float64)),
            "largest_example_loss": shown(np.max(per_example)),
            "float32_max": float(np.finfo(np.float32).max),
            "activations": [float(v) for v in a[e]], "column_weights": [float(v) for v in w2[:, j]]}


def gradient_blowup(state, flip_index: tuple, bit: int, lr: float) -> dict:
    """Why the gradient norm explodes: the backward pass of the flip step, and the update it writes.

    dL/da = (p − y)·W2ᵀ carries the flipped weight backwards into dW1; SGD then writes lr·dW1 into W1,
    and the next forward pass meets that W1. Returns the clean and the corrupted step's numbers.
    """
    x, y, w1, w2, rows = state
    xb, yb = x[rows], y[rows]
    w_bad = w2.copy()
    flip_bit(w_bad, flip_index, bit)
    with np.errstate(all="ignore"):
        _, g1_clean, g2_clean = _loss_and_grads(xb, yb, w1, w2)
        _, g1, g2 = _loss_and_grads(xb, yb, w1, w_bad)
        w1_next = w1 - np.float32(lr) * g1
        w2_next = w_bad - np.float32(lr) * g2
        next_loss, _, _ = _loss_and_grads(xb, yb, w1_next, w2_next)

    def norm(a, b):
        return math.sqrt(float(np.sum(a.astype(np.float64) ** 2) + np.sum(b.astype(np.float64) ** 2)))

    return {"grad_norm": norm(g1, g2), "grad_norm_clean": norm(g1_clean, g2_clean),
            "max_dw1": float(np.max(np.abs(g1.astype(np.float64)))),
            "max_update_w1": float(np.max(np.abs(w1_next.astype(np.float64) - w1))),
            "next_loss_finite": bool(math.isfinite(next_loss))}


def _data_parallel_step(xb, yb, replicas, lr, corrupt_grad=None, corrupt_update=None):
    """One data-parallel SGD step: each replica takes its share of the batch, the gradients are
    averaged (the all-reduce) and every replica applies the same mean. `corrupt_grad(k, g2)` lets
    replica k's hardware corrupt its own dW2 before the all-reduce; `corrupt_update(k, w2)` lets it
    corrupt the new W2 it writes after the all-reduce. Returns the new replicas."""
    shares = np.array_split(np.arange(xb.shape[0]), len(replicas))
    grads = []
    with np.errstate(all="ignore"):
        for k, ((w1, w2), rows) in enumerate(zip(replicas, shares, strict=True)):
            _, g1, g2 = _loss_and_grads(xb[rows], yb[rows], w1, w2)
            if corrupt_grad is not None:
                corrupt_grad(k, g2)
            grads.append((g1, g2))
        g1 = sum(g[0] for g in grads) / np.float32(len(grads))
        g2 = sum(g[1] for g in grads) / np.float32(len(grads))
        lr = np.float32(lr)
        out = [(w1 - lr * g1, w2 - lr * g2) for w1, w2 in replicas]
    if corrupt_update is not None:
        for k, (_, w2) in enumerate(out):
            corrupt_update(k, w2)
    return out


def _same_bits(a, b) -> bool:
    return all(np.array_equal(p.view(np.uint32), q.view(np.uint32)) for p, q in zip(a, b, strict=True))


def what_checks_see(state, flip_index: tuple, bit: int, lr: float, replicas: int = 2) -> dict:
    """Which check sees which fault, on the small network's data-parallel step after the flip.

    Four faults, each flipping the same bit: (1) a transient flip in one replica's stored weight;
    (2) a transient flip in one replica's gradient before the all-reduce; (3) a persistent defect that
    corrupts that replica's gradient every time it computes; (4) a persistent defect that corrupts the
    weight that replica writes in its update, after the all-reduce, every step. Two checks: a *replay*
    recomputes the step on other, healthy hardware from the suspect replica's state and compares bit for
    bit; a *cross-replica checksum* compares the replicas' weights, which data parallelism keeps identical.
    """
    x, y, w1, w2, rows = state
    xb, yb = x[rows], y[rows]
    clean = [(w1.copy(), w2.copy()) for _ in range(replicas)]

    def flip_on(target_replica):
        def corrupt(k, arr):
            if k == target_replica:
                flip_bit(arr, flip_index, bit)
        return corrupt

    # (1) transient flip in replica 0's stored weight: the corrupted state is now the input
    state_flip = [(a.copy(), b.copy()) for a, b in clean]
    flip_bit(state_flip[0][1], flip_index, bit)
    after_1 = _data_parallel_step(xb, yb, state_flip, lr)
    replay_1 = _data_parallel_step(xb, yb, [(a.copy(), b.copy()) for a, b in state_flip], lr)
    # (2) transient flip in replica 0's gradient, this step only: the all-reduce spreads it
    after_2 = _data_parallel_step(xb, yb, clean, lr, flip_on(0))
    replay_2_later = _data_parallel_step(xb, yb, after_2, lr)  # a later step replayed: healthy hardware
    later_2 = _data_parallel_step(xb, yb, after_2, lr)
    # (3) persistent defect in replica 0: every step it computes is corrupted
    after_3 = _data_parallel_step(xb, yb, clean, lr, flip_on(0))
    next_3 = _data_parallel_step(xb, yb, after_3, lr, flip_on(0))
    replay_3 = _data_parallel_step(xb, yb, after_3, lr)
    # (4) persistent defect in replica 0's update: it writes a wrong W2 after the all-reduce, every step
    after_4 = _data_parallel_step(xb, yb, clean, lr, corrupt_update=flip_on(0))
    next_4 = _data_parallel_step(xb, yb, after_4, lr, corrupt_update=flip_on(0))
    replay_4 = _data_parallel_step(xb, yb, after_4, lr)
    return {
        "weight_flip": {"replay_sees": not _same_bits(after_1[0], replay_1[0]),
                        "checksum_sees": not _same_bits(after_1[0], after_1[1])},
        "gradient_flip": {"replay_sees": not _same_bits(later_2[0], replay_2_later[0]),
                          "checksum_sees": not _same_bits(after_2[0], after_2[1])},
        "persistent_defect": {"replay_sees": not _same_bits(next_3[0], replay_3[0]),
                              "checksum_sees": not _same_bits(next_3[0], next_3[1])},
        "persistent_update_defect": {"replay_sees": not _same_bits(next_4[0], replay_4[0]),
                                     "checksum_sees": not _same_bits(next_4[0], next_4[1])},
        "replicas": replicas,
    }


def flipped_value(value: float, bit: int) -> float:
    """The float32 value after flipping one bit (may be inf or nan for the exponent field)."""
    a = np.array([value], dtype=np.float32)
    flip_bit(a, (0,), bit)
    return float(a[0])


def _sci_text(x: float) -> str:
    exp = math.floor(math.log10(abs(x)))
    sup = str(exp).translate(str.maketrans("-0123456789", "⁻⁰¹²³⁴⁵⁶⁷⁸⁹"))
    return f"{x / 10**exp:.2f} × 10{sup}"


# --- the model's steps ----------------------------------------------------------------------


def the_odds(observation_window: float, sdc_interruptions: int, n: int, machines: int, T: float,
             meta_defective_share: float, google_defective_share: float, defective_share_low: float,
             defective_share_high: float) -> SimpleNamespace:
    """The Llama 3 SDC rate per GPU-second and the odds of meeting an SDC, by GPU and by defective CPU."""
    lam = rate_per_device(sdc_interruptions, n, observation_window)
    if not defective_share_low <= min(meta_defective_share, google_defective_share) <= max(
            meta_defective_share, google_defective_share) <= defective_share_high:
        raise ParamError("defective_share_low", defective_share_low, "a range that holds both central estimates")
    # six events are a small sample: the rate's exact 95% interval carries into every odds and c* below
    count_low, count_high = poisson_count_interval(sdc_interruptions, CI_LEVEL)
    odds = SimpleNamespace(
        lam=lam, lam_low=rate_per_device(count_low, n, observation_window),
        lam_high=rate_per_device(count_high, n, observation_window),
        count_low=count_low, count_high=count_high,
        mtb_sdc=mean_time_between_interruptions(observation_window, sdc_interruptions),
        p_run=float(p_at_least_one(lam, n, T)), p_day=float(p_at_least_one(lam, n, DAY)),
        p_meta=float(p_any_defective(meta_defective_share, machines)),
        p_google=float(p_any_defective(google_defective_share, machines)),
        expected_in_run=lam * n * T,
        p_low=float(p_any_defective(defective_share_low, machines)),
        p_high=float(p_any_defective(defective_share_high, machines)))
    check(odds.p_low > 0.25, "even at the low end of the range, a defective CPU in the job is not a rare event")
    check(odds.lam_low < lam < odds.lam_high and odds.lam_high / odds.lam_low > 5,
          "six events carry a wide uncertainty: the 95% interval spans more than a factor of five")
    return odds


def fleet_odds(odds: SimpleNamespace, fleet: list[int], T: float) -> list[dict]:
    """For each job size: the odds of ≥ 1 SDC in a day and in the run, at the rate and its 95% interval.

    The run's own size and length only restate its count (λnT is the count it observed, by construction);
    the other sizes are what the rate predicts for jobs the run did not measure.
    """
    rows = []
    for g in fleet:
        row = {"gpus": g, "mtb_job": 1.0 / (odds.lam * g), "measured": False}
        for name, t in (("day", DAY), ("run", T)):
            row[f"p_{name}"] = float(p_at_least_one(odds.lam, g, t))
            row[f"p_{name}_low"] = float(p_at_least_one(odds.lam_low, g, t))
            row[f"p_{name}_high"] = float(p_at_least_one(odds.lam_high, g, t))
        rows.append(row)
    return rows


def _mc_row(name: str, gpus: float, t, p: float, phat: float, trials: int) -> tuple[list, float]:
    """One row of the Monte Carlo table and its z-score."""
    se = math.sqrt(p * (1 - p) / trials)
    z = (phat - p) / se if se > 0 else 0.0
    return [name, gpus, t, p, phat, 1.96 * se, z], z


def odds_monte_carlo(lam: float, n: int, machines: int, T: float, fleet: list[int], meta_defective_share: float,
                     google_defective_share: float, trials: int, rng: np.random.Generator) -> tuple[list, list]:
    """Per-GPU first-event times at two job sizes, read at a few run lengths, and per-machine draws of the
    two CPU fleet shares: the table's rows and their z-scores."""
    mc_t = np.array([DAY, 7 * DAY, T]) if T > 7 * DAY else np.array([HOUR, DAY, T])
    mc_rows, zs = [], []
    for g in sorted({min(fleet), n}):
        first = simulate_first_event(lam, g, trials, rng)
        for t in mc_t:
            p = float(p_at_least_one(lam, g, t))
            row, z = _mc_row("Llama 3 rate, per GPU-second", float(g), float(t), p, float(np.mean(first <= t)),
                             trials)
            zs.append(z)
            mc_rows.append(row)
    # one row per distinct share: where both studies read as the same share, a second row would test one input twice
    by_share: dict[float, list[str]] = {}
    for who, share in (("Meta", meta_defective_share), ("Google", google_defective_share)):
        by_share.setdefault(float(share), []).append(who)
    for share, who in by_share.items():
        name = f"{' and '.join(who)} CPU fleet share, per machine"
        p = float(p_any_defective(share, machines))
        phat = float(np.mean(simulate_any_defective(share, machines, trials, rng)))
        row, z = _mc_row(name, float(machines), None, p, phat, trials)  # draws over machines, not GPUs
        zs.append(z)
        mc_rows.append(row)
    return mc_rows, zs


def periodic_checks(observation_window: float, interruptions: int, mtb_sdc: float, n: int, T: float,
                    model_params: float, weight_bytes: float, optimizer_bytes: float, checkpoint_bandwidth: float,
                    restart_cost: float, t_step: float, check_steps: float) -> SimpleNamespace:
    """The check interval c* = √(kM) against checkpoints at τ*, the loss's parts around it, the waste."""
    mtbf = mean_time_between_interruptions(observation_window, interruptions)
    delta = checkpoint_cost(checkpoint_bytes(model_params, weight_bytes, optimizer_bytes), checkpoint_bandwidth)
    tau = float(optimal_interval(delta, mtbf))
    k = check_steps * t_step
    c_opt = float(optimal_check_interval(k, mtb_sdc))
    c_grid = including(c_opt * np.logspace(-1.5, 1.5, 121), c_opt)  # holds c* exactly: the panel opens there
    parts = check_overhead(c_grid, k, mtb_sdc, tau, float(restart_cost))
    i_min = int(np.argmin(parts["total"]))
    check(abs(c_grid[i_min] / c_opt - 1) < 0.05, "c* = √(kM) is the minimum of the loss")
    at = {key: float(v[0]) for key, v in check_overhead(np.array([c_opt]), k, mtb_sdc, tau,
                                                          float(restart_cost)).items()}
    per_event = c_opt + tau / 2 + float(restart_cost)
    checks = SimpleNamespace(
        mtbf=mtbf, delta=delta, tau=tau, t_step=t_step, k=k, c_opt=c_opt, c_grid=c_grid, parts=parts, at=at,
        latency=float(detection_latency(c_opt, k)), per_event=per_event,
        base_goodput=float(goodput(delta, mtbf, float(restart_cost))))
    check(at["checks"] + at["discarded"] < 0.01, "checking adds under 1% of the training time")
    check(abs(at["checks"] - at["discarded"]) <= 1e-9 * at["checks"],
          "at c* the checks cost as much as the work they throw away")
    check(c_opt > tau, "checks run less often than checkpoints")
    return checks


def state_check(model_params: float, weight_bytes: float, optimizer_bytes: float, n: int, hbm_bandwidth: float,
                mtb_sdc: float, t_step: float, replicas: int) -> dict:
    """A state check's cost under hybrid sharding (HSDP): the job keeps `replicas` copies of the state, each
    sharded over n/replicas GPUs, so each GPU holds replicas/n of it and reads that once at HBM speed to hash
    it (the hashes' all-reduce is a few bytes). A lower bound. Under plain FSDP (one copy) each weight is
    stored once and there is nothing to compare it with; the extra memory and traffic HSDP costs are not priced."""
    if replicas < 2 or n % replicas:
        raise ParamError("state_replicas", replicas, f"at least 2 and a divisor of the GPUs ({n})")
    per_gpu = checkpoint_bytes(model_params, weight_bytes, optimizer_bytes) * replicas / n
    k = per_gpu / hbm_bandwidth
    c = float(optimal_check_interval(k, mtb_sdc))
    check(k < 0.001 * t_step, "reading a GPU's share of the state once takes well under a thousandth of a step")
    check(c < 3 * t_step, "a state check is cheap enough to run every step or two")
    return {"state_bytes_per_gpu": per_gpu, "state_check_time": k, "state_check_interval": c,
            "state_check_share": k / c, "state_check_interval_steps": c / t_step,
            "state_replica_gpus": n // replicas}


def added_gpu_hours(k: float, mtb_job: float, n: int, T: float) -> float:
    """GPU-hours SDC checking adds on top of the restarts and rework every interruption already costs: the
    checks and the discarded interval at c* = √(kM), each √(k/M) of the time, over n GPUs for T seconds."""
    c = float(optimal_check_interval(k, mtb_job))
    parts = check_overhead(np.array([c]), k, mtb_job, 0.0, 0.0)
    return float(n * T * (parts["checks"][0] + parts["discarded"][0]) / HOUR)


def check_cost_sweep(checks: SimpleNamespace, mtb_sdc: float, check_steps: float, check_steps_sweep,
                     restart_cost: float) -> list[dict]:
    """c*, its latency and its cost for each check cost compared (in steps)."""
    sweep_rows = []
    for ks in sorted(set(float(v) for v in check_steps_sweep) | {float(check_steps)}):
        kk = ks * checks.t_step
        cc = float(optimal_check_interval(kk, mtb_sdc))
        pp = {key: float(v[0]) for key, v in check_overhead(np.array([cc]), kk, mtb_sdc, checks.tau,
                                                              float(restart_cost)).items()}
        sweep_rows.append({"steps": ks, "check_time": kk, "interval": cc, "latency": float(detection_latency(cc, kk)),
                           "checks": pp["checks"], "added": pp["checks"] + pp["discarded"], "total": pp["total"],
                           "assumed": ks == float(check_steps)})
    check(all(a["interval"] < b["interval"] for a, b in zip(sweep_rows, sweep_rows[1:], strict=False)),
          "a costlier check is run less often")
    return sweep_rows


def replay_share_rows(checks: SimpleNamespace, mtb_sdc: float, shares, restart_cost: float) -> list[dict]:
    """c* and the losses for a replay that sees only a share φ of the SDCs the Llama 3 count records.

    The headline assumes φ = 1 (every SDC that interrupted the job is one a replay would have seen). A replay
    sees persistent defects only, so the faults it can catch arrive at φ/M_sdc: its c* = √(k·M_sdc/φ) grows as
    1/√φ, and the losses it prices shrink as √φ (checks and discarded work) and φ (rollback, restart)."""
    rows = []
    for phi in sorted({float(v) for v in shares} | {1.0}, reverse=True):
        m = mtb_sdc / phi
        cc = float(optimal_check_interval(checks.k, m))
        pp = {key: float(v[0]) for key, v in check_overhead(np.array([cc]), checks.k, m, checks.tau,
                                                              float(restart_cost)).items()}
        rows.append({"share": phi, "mtb": m, "interval": cc, "latency": float(detection_latency(cc, checks.k)),
                     "checks": pp["checks"], "added": pp["checks"] + pp["discarded"], "total": pp["total"],
                     "assumed": phi == 1.0})
    check(all(abs(r["interval"] * math.sqrt(r["share"]) / checks.c_opt - 1) < 1e-9 for r in rows),
          "a replay that sees a share φ of the SDCs checks every c*/√φ")
    return rows


def firing_share_rows(checks: SimpleNamespace, mtb_sdc: float, check_steps: float, shares,
                      restart_cost: float) -> list[dict]:
    """The replay against a persistent defect that fires in only a share q of the steps.

    The headline takes q = 1: the defect shows in every step, so the replayed step always shows it and a passed
    check clears everything before it. At q < 1 a check sees it with probability p = 1 − (1 − q)^s; it takes
    1/p checks on average, and the checks that passed meanwhile were wrong, so the rollback reaches back past
    them. Each row: the losses at the headline's c* (checking as if q = 1), and at the c* = √(k·p·M) for that q."""
    rows = []
    for q in sorted({float(v) for v in shares} | {1.0}, reverse=True):
        p = float(catch_probability(q, check_steps))
        at_head = {key: float(v[0]) for key, v in check_overhead(np.array([checks.c_opt]), checks.k, mtb_sdc,
                                                                 checks.tau, float(restart_cost), p).items()}
        cc = float(optimal_check_interval(checks.k, mtb_sdc, p))
        pp = {key: float(v[0]) for key, v in check_overhead(np.array([cc]), checks.k, mtb_sdc, checks.tau,
                                                              float(restart_cost), p).items()}
        rows.append({"firing_share": q, "catch": p, "checks_to_catch": 1.0 / p,
                     "latency_at_headline": float(detection_latency(checks.c_opt, checks.k, p)),
                     "total_at_headline": at_head["total"], "interval": cc,
                     "latency": float(detection_latency(cc, checks.k, p)), "checks": pp["checks"],
                     "added": pp["checks"] + pp["discarded"], "total": pp["total"], "assumed": q == 1.0})
    head = rows[0]
    check(abs(head["interval"] / checks.c_opt - 1) < 1e-12,
          "the headline's c* takes the defect to fire in every step")
    check(all(a["latency"] < b["latency"] and a["checks"] < b["checks"] and a["interval"] > b["interval"]
              for a, b in zip(rows, rows[1:], strict=False)),
          "a defect that fires in fewer steps is caught later and needs more frequent, costlier checking")
    return rows


FEATURES, CLASSES, SAMPLES = 16, 4, 512  # the small classifier the bit is flipped in


def one_flipped_bit(seed: int, steps: int, flip_step: int, hidden: int, batch: int, learning_rate: float,
                    exponent_bit: int, mantissa_bit: int, window: int, z_threshold: float) -> SimpleNamespace:
    """Train clean, with one exponent bit and with one mantissa bit of a typical output weight flipped."""
    w_probe = _init(seed, FEATURES, hidden, CLASSES)[1]
    # flip a weight of the output matrix whose exponent MSB is 0 (|w| < 2) and of typical size
    mags = np.abs(w_probe)
    flat = int(np.argmin(np.abs(mags - np.median(mags))))
    idx = np.unravel_index(flat, w_probe.shape)
    idx = (int(idx[0]), int(idx[1]))
    runs = train_with_flip(seed, steps, flip_step, idx, [int(exponent_bit), int(mantissa_bit)], SAMPLES, FEATURES,
                           hidden, CLASSES, batch, learning_rate)
    clean_loss, clean_g = runs["clean"]
    exp_loss, exp_g = runs[exponent_bit]
    man_loss, man_g = runs[mantissa_bit]
    w_before = runs["weight"]
    finite_exp = np.isfinite(exp_loss)
    flip = SimpleNamespace(
        idx=idx, runs=runs, clean_loss=clean_loss, clean_g=clean_g, exp_loss=exp_loss, exp_g=exp_g,
        man_loss=man_loss, man_g=man_g, w_before=w_before, w_exp=flipped_value(w_before, exponent_bit),
        w_man=flipped_value(w_before, mantissa_bit), alarm_clean=detector(clean_g, window, z_threshold),
        finite_exp=finite_exp,
        nonfinite_from=int(np.flatnonzero(~finite_exp)[0]) if not finite_exp.all() else None,
        man_diff=float(np.max(np.abs(man_loss - clean_loss))),
        detect_delay=0)  # the flipped weight enters the forward pass of the very step it precedes
    flip.fire_exp = first_alarm(detector(exp_g, window, z_threshold), flip_step)
    flip.fire_man = first_alarm(detector(man_g, window, z_threshold), flip_step)
    check_the_flips(flip, flip_step)
    flip.trace = matmul_trace(runs["state"], idx, int(exponent_bit))
    check(isinstance(flip.trace["logits_after"][idx[1]], float) and flip.trace["logits_after"][idx[1]] > 1e30
          and flip.trace["batch_loss_after"] == "inf",
          "one logit becomes astronomically large, and the batch's loss overflows float32 to inf")
    check(isinstance(flip.trace["largest_example_loss"], float)
          and flip.trace["largest_example_loss"] < flip.trace["float32_max"] < flip.trace["batch_loss_sum_float64"]
          and flip.trace["batch_loss_sum"] == "inf",
          "no one example's loss passes float32's largest value; their float32 sum over the batch does")
    flip.blowup = gradient_blowup(runs["state"], idx, int(exponent_bit), learning_rate)
    b = flip.blowup
    check(math.isfinite(b["grad_norm"]) and b["grad_norm"] > 1e20 * b["grad_norm_clean"]
          and math.isclose(b["grad_norm"], float(flip.exp_g[flip_step]), rel_tol=1e-6)
          and math.isfinite(float(flip.exp_g[flip_step])),
          "the backward pass carries the flipped weight into dW1: the gradient norm is finite but "
          "astronomically larger than the clean run's, and the detector fires on its z-score")
    check(b["max_update_w1"] > 1e30 and not b["next_loss_finite"],
          "the SGD update writes that gradient into W1, and the next forward pass gives NaN")
    return flip


def check_the_flips(flip: SimpleNamespace, flip_step: int) -> None:
    """What the page says of the two flips and the detector."""
    check(not flip.alarm_clean.any(), "the detector stays silent on the clean run")
    check(flip.fire_exp is not None and flip.fire_exp - flip_step <= flip.detect_delay,
          "the detector fires on the exponent flip at the step it lands")
    check(not np.isfinite(flip.exp_loss[flip_step]) and not np.any(np.isfinite(flip.exp_loss[flip_step:])),
          "the loss overflows at the step the bit flips, and the run never recovers")
    check(flip.fire_man is None, "the detector never fires on the mantissa flip")
    check(flip.man_diff < 1e-4 * float(flip.clean_loss.min()),
          "the mantissa flip leaves the loss curve unchanged to the eye")
    check(abs(flip.w_exp) > 1e30 and abs(flip.w_man / flip.w_before - 1) < 1e-6,
          "an exponent flip multiplies the weight by a huge power of two; a low mantissa flip barely moves it")


def every_bit(flip: SimpleNamespace, seed: int, steps: int, flip_step: int, sweep_tail: int, hidden: int,
              batch: int, learning_rate: float, window: int, z_threshold: float) -> SimpleNamespace:
    """Every bit of that weight flipped, from the same state, for `sweep_tail` steps: which the detector sees."""
    w_before = flip.w_before
    tail = min(steps, flip_step + sweep_tail)
    sweep = train_with_flip(seed, tail, flip_step, flip.idx, list(range(FLOAT32_BITS)), SAMPLES, FEATURES, hidden,
                            CLASSES, batch, learning_rate)
    base_loss = sweep["clean"][0][flip_step:]
    bit_rows = []
    for b in range(FLOAT32_BITS):
        loss_b, g_b = sweep[b]
        tail_b = loss_b[flip_step:]
        fired = first_alarm(detector(g_b, window, z_threshold), flip_step) is not None
        broke = not np.all(np.isfinite(tail_b))
        eff = math.inf if broke else float(np.max(np.abs(tail_b - base_loss)))
        field = "sign" if b == 31 else "exponent" if b in EXPONENT_BITS else "mantissa"
        v = flipped_value(w_before, b)
        bit_rows.append({"bit": b, "field": field, "value": v if math.isfinite(v) else None,
                         "max_loss_change": None if broke else eff, "nonfinite": broke, "detected": fired,
                         "in_bf16": b >= BF16_LOWEST_MANTISSA_BIT})
    check(all(r["field"] == "exponent" for r in bit_rows if r["detected"]),
          "only exponent flips set off the detector")
    check(all(not r["detected"] for r in bit_rows if r["field"] == "mantissa"),
          "no mantissa flip is detected")
    check(all(not r["detected"] for r in bit_rows
               if r["field"] == "exponent" and (r["value"] is not None and abs(r["value"]) <= 4 * abs(w_before))),
          "flips that shrink the weight or grow it a few times over go unnoticed")
    check(not bit_rows[BF16_LOWEST_MANTISSA_BIT]["detected"],
          "bf16's lowest mantissa bit is still below what the detector sees")
    silent = [r for r in bit_rows if not r["detected"]]
    return SimpleNamespace(rows=bit_rows, tail=tail, n_detected=int(sum(r["detected"] for r in bit_rows)),
                           detected_bits=[r["bit"] for r in bit_rows if r["detected"]],
                           silent_max=max(r["max_loss_change"] for r in silent),
                           silent_max_bit=max(silent, key=lambda r: r["max_loss_change"])["bit"],
                           base_at_flip=float(base_loss[0]))


def detection_by_weight_and_threshold(flip: SimpleNamespace, bits: SimpleNamespace, seed: int, flip_step: int,
                                      sweep_tail: int, hidden: int, batch: int, learning_rate: float, window: int,
                                      z_threshold: float, z_sweep) -> dict:
    """How many of the 32 bits set off the detector, for the smallest, the page's and the largest weight of the
    output matrix (by |w| at the flip) and for each threshold z compared; and whether the clean run's
    own noise already sets it off over the same steps (a threshold that low detects nothing)."""
    w2 = flip.runs["state"][3]
    mags = np.abs(w2)
    picks = (("the smallest", np.unravel_index(int(np.argmin(mags)), w2.shape)), ("the page's", flip.idx),
             ("the largest", np.unravel_index(int(np.argmax(mags)), w2.shape)))
    zs = sorted({float(v) for v in z_sweep} | {float(z_threshold)})
    tail = flip_step + sweep_tail
    rows, clean_alarm = [], None
    for name, idx in picks:
        idx = (int(idx[0]), int(idx[1]))
        sweep = train_with_flip(seed, tail, flip_step, idx, list(range(FLOAT32_BITS)), SAMPLES, FEATURES, hidden,
                                CLASSES, batch, learning_rate)
        # the alarm at step s reads steps s − window..s only: the tail and the window before it suffice
        def fires(key, z, sweep=sweep):
            return bool(detector(sweep[key][1][flip_step - window:], window, z)[window:].any())
        if clean_alarm is None:  # the clean run is the same for every weight (same seed, same batches)
            clean_alarm = [fires("clean", z) for z in zs]
        by_z = []
        for z, noisy in zip(zs, clean_alarm, strict=True):
            hit = [b for b in range(FLOAT32_BITS) if fires(b, z)]
            # noisy: the clean run fires at this z too, so the count says nothing (the page prints a dash)
            by_z.append({"z": z, "detected": len(hit), "bits_text": ", ".join(str(b) for b in hit), "noisy": noisy})
        rows.append({"weight": name, "value": float(sweep["weight"]), "by_z": by_z, "page": idx == flip.idx})
    page_row = next(r for r in rows if r["page"])
    check(page_row["by_z"][zs.index(float(z_threshold))]["detected"] == bits.n_detected,
          "the sweep reproduces the page's count of detected bits")
    check(not clean_alarm[zs.index(float(z_threshold))], "the page's threshold stays silent on the clean run")
    # a threshold the clean run's noise already passes says nothing: count only the quiet ones
    quiet = [i for i, fired in enumerate(clean_alarm) if not fired] or [zs.index(float(z_threshold))]
    counts = [r["by_z"][i]["detected"] for r in rows for i in quiet]
    check(max(counts) <= 2 and min(counts) >= 1,
          "at every threshold the clean run passes, one or two of the 32 bits set off the detector, for each "
          "weight compared")
    check(any(clean_alarm), "at the lowest threshold compared, the clean run's own noise sets the detector off")
    top = max(EXPONENT_BITS)
    check(all(str(top) in r["by_z"][i]["bits_text"].split(", ") for r in rows for i in quiet),
          "the exponent's top bit sets off the detector for every weight at every threshold the clean run passes")
    check(all(set(r["by_z"][i]["bits_text"].split(", ")) <= {str(top), str(FLOAT32_BITS - 1)}
              for r in rows for i in quiet)
          and any(str(FLOAT32_BITS - 1) in r["by_z"][i]["bits_text"].split(", ") for i in quiet[:1]
                  for r in rows[-1:]),
          "besides it only the sign bit is ever detected, and for the largest weight at a low threshold it is")
    return {"z": zs, "clean_alarm": clean_alarm, "rows": rows,
            "quiet_min_detected": min(counts), "quiet_max_detected": max(counts),
            "quiet_z_min": zs[quiet[0]], "quiet_z_max": zs[quiet[-1]],
            "noisy_z_max": max([z for z, fired in zip(zs, clean_alarm, strict=True) if fired], default=None)}


def which_check_sees_what(flip: SimpleNamespace, bits: SimpleNamespace, learning_rate: float) -> dict:
    """The three faults against the two checks, flipping the worst bit the detector misses; the
    page's words about them, checked."""
    seen = what_checks_see(flip.runs["state"], flip.idx, bits.silent_max_bit, learning_rate)
    seen["bit"] = bits.silent_max_bit
    w, g, d = seen["weight_flip"], seen["gradient_flip"], seen["persistent_defect"]
    check(not w["replay_sees"] and w["checksum_sees"],
          "a replay reproduces a transient flip already in the weights and sees nothing; "
          "comparing the replicas' weights sees it")
    check(not g["checksum_sees"] and not g["replay_sees"],
          "a flip in a gradient before the all-reduce reaches every replica alike: neither the checksum "
          "nor a later replay sees it")
    check(d["replay_sees"] and not d["checksum_sees"],
          "a persistent defect corrupts the replayed step again, so the replay on healthy hardware disagrees")
    u = seen["persistent_update_defect"]
    check(u["replay_sees"] and u["checksum_sees"],
          "a persistent defect in one replica's update, after the all-reduce, is seen by both checks: the "
          "replay disagrees and the replicas' weights differ")
    return seen


def check_interval_range(odds: SimpleNamespace, k: float, n: int) -> tuple[float, float]:
    """c* at the high and the low end of the rate's 95% interval (a higher rate: a shorter c*)."""
    return (float(optimal_check_interval(k, 1.0 / (odds.lam_high * n))),
            float(optimal_check_interval(k, 1.0 / (odds.lam_low * n))))


def uncertainty_summary(odds: SimpleNamespace, c_range: tuple, fleet_rows: list, n: int, k: float) -> dict:
    """The rate's 95% interval, c* across it, and the odds for the job sizes the run did not measure."""
    small, large = fleet_rows[0], fleet_rows[-1]
    check(small["gpus"] < n < large["gpus"], "the compared job sizes bracket the measured one")
    out = {
        "ci_level": CI_LEVEL, "count_low": odds.count_low, "count_high": odds.count_high,
        "rate_low_per_million_gpu_hours": odds.lam_low * HOUR * 1e6,
        "rate_high_per_million_gpu_hours": odds.lam_high * HOUR * 1e6,
        "check_interval_low": c_range[0], "check_interval_high": c_range[1],
        # the count holds only SDCs that stopped the job: a higher true rate checks more often and costs more
        "check_share_high": k / c_range[0],
        # what checking adds there: at c* the discarded interval c*/M equals the checks k/c*, so twice them
        "added_share_high": 2.0 * k / c_range[0],
    }
    for name, row in (("small", small), ("large", large)):
        out.update({f"{name}_gpus": row["gpus"], f"{name}_mtb": row["mtb_job"],
                    **{f"{name}_{key}": row[key] for key in row if key.startswith("p_")}})
    check(out["large_p_day"] > 0.5, "a job of the largest size compared more likely than not meets one in a day")
    return out


def page_summary(odds: SimpleNamespace, zs: list, checks: SimpleNamespace, flip: SimpleNamespace,
                 bits: SimpleNamespace, machines: int, flip_step: int) -> dict:
    """The numbers the page quotes."""
    at, trace, idx = checks.at, flip.trace, flip.idx
    w_before, w_exp, w_man, man_diff = flip.w_before, flip.w_exp, flip.w_man, flip.man_diff
    logit = trace["logits_after"][idx[1]]
    return {
        "rate_per_gpu_hour": odds.lam * HOUR,
        "mtb_sdc": odds.mtb_sdc,
        "p_run": odds.p_run,
        "p_day": odds.p_day,
        "expected_in_run": odds.expected_in_run,
        "machines": machines,
        "p_meta": odds.p_meta,
        "p_google": odds.p_google,
        "p_share_low": odds.p_low,
        "p_share_high": odds.p_high,
        "mc_max_abs_z": float(np.max(np.abs(zs))),
        "mc_z_check": Z_CHECK,
        "mtbf": checks.mtbf,
        "checkpoint_cost": checks.delta,
        "checkpoint_interval": checks.tau,
        "step_time": checks.t_step,
        "check_time": checks.k,
        "check_interval": checks.c_opt,
        "detection_latency": checks.latency,
        "check_share": at["checks"],
        "discarded_share": at["discarded"],
        # the page's one cost of checking: the checks and the interval a detection throws away
        "added_share": at["checks"] + at["discarded"],
        "rollback_share": at["rollback"],
        "restart_share": at["restart"],
        "sdc_share_total": at["total"],
        "per_event_waste": checks.per_event,
        "baseline_goodput": checks.base_goodput,
        "weight_before": w_before,
        "logit_after_text": _sci_text(logit) if isinstance(logit, float) else logit,
        "float32_max_text": _sci_text(trace["float32_max"]),
        "largest_example_loss_text": _sci_text(trace["largest_example_loss"]),
        "batch_loss_sum_text": _sci_text(trace["batch_loss_sum_float64"]),
        "weight_exponent": w_exp,
        "weight_exponent_text": _sci_text(w_exp),
        "weight_mantissa": w_man,
        "weight_mantissa_change": abs(w_man / w_before - 1),
        "nonfinite_from": flip.nonfinite_from,
        "exponent_detected_at": flip.fire_exp,
        "detect_delay": flip.detect_delay,
        "mantissa_max_loss_change": man_diff,
        # relative to the loss at the flip, the unit the every-bit panel uses
        "loss_at_flip": bits.base_at_flip,
        "mantissa_max_loss_relative_text": _sci_text(man_diff / bits.base_at_flip) if man_diff > 0 else "0",
        "weight_mantissa_change_ppb": abs(w_man / w_before - 1) * 1e9,
        "final_loss_clean": float(flip.clean_loss[-1]),
        "bits_detected": bits.n_detected,
        "detected_bits_text": ", ".join(str(b) for b in bits.detected_bits),
        "sweep_tail": bits.tail - flip_step,
        "silent_max_relative": bits.silent_max / bits.base_at_flip,
        "silent_max_bit": bits.silent_max_bit,
        "rate_per_million_gpu_hours": odds.lam * HOUR * 1e6,
        "flip_factor_log2": int(round(math.log2(abs(w_exp / w_before)))),
        "features": FEATURES,
        "classes": CLASSES,
        "exponent_bits": len(EXPONENT_BITS),
        "word_bits": FLOAT32_BITS,
        "float32_mantissa_bits": min(EXPONENT_BITS),
        "bf16_lowest_bit": BF16_LOWEST_MANTISSA_BIT,
        "bf16_mantissa_bits": min(EXPONENT_BITS) - BF16_LOWEST_MANTISSA_BIT,
    }


def figure_series(flip: SimpleNamespace, steps: int, t_grid, odds_curves: dict, checks: SimpleNamespace) -> dict:
    """The three runs' loss and gradient norm by step, the odds by run length, the loss's parts by interval."""
    exp_finite = np.where(flip.finite_exp, flip.exp_loss, 0.0)
    return {
        **curves("step", np.arange(steps, dtype=float), loss_clean=flip.clean_loss, loss_mantissa=flip.man_loss,
                 gnorm_clean=flip.clean_g, gnorm_mantissa=flip.man_g, loss_exponent_finite=exp_finite,
                 exponent_is_finite=flip.finite_exp.astype(float),
                 gnorm_exponent_finite=np.where(np.isfinite(flip.exp_g), flip.exp_g, 0.0)),
        **curves("run_length", t_grid, **odds_curves),
        **curves("check_interval", checks.c_grid, **{f"share_{key}": v for key, v in checks.parts.items()}),
    }


def animation_plan(flip: SimpleNamespace, seed: int, hidden: int, flip_step: int, exponent_bit: int,
                   mantissa_bit: int) -> dict:
    """The matmul the flipped weight enters, and the weight's 32 bits."""
    idx = flip.idx
    return {
        "matmul": flip.trace,
        "weight_index": list(idx),
        "flip_step": int(flip_step),
        "exponent_bit": int(exponent_bit),
        "mantissa_bit": int(mantissa_bit),
        "weight_bits": format(int(np.array([flip.w_before], dtype=np.float32).view(np.uint32)[0]), "032b"),
        "w2_row": [float(v) for v in _init(seed, FEATURES, hidden, CLASSES)[1][idx[0]]],
    }


def odds_table(mc_rows: list, trials: int) -> Table:
    """P(at least one SDC), formula against Monte Carlo."""
    return Table(
        "P(at least one SDC) from the formula against a seeded Monte Carlo of "
        f"{trials:,} trials per point: per-GPU first-event times (Llama 3 rate) and per-machine draws "
        "(CPU fleet shares; these do not depend on the run length)",
        [Column("evidence", "text"), Column("GPUs (rate) or machines (CPU share)", "count"),
         Column("run length", "s"),
         Column("P, formula", "%"), Column("P, Monte Carlo", "%"), Column("95% CI half-width", "%"),
         Column("(MC − formula) / SE", "1")],
        mc_rows,
    )


# --- the scene's data ---------------------------------------------------------------------


@model(
    observation_window=Param.positive("s", "length of the run's failure record"),
    interruptions=Param.integer("count", "unexpected interruptions in that record", minimum=1),
    sdc_interruptions=Param.integer("count", "of which silent data corruption", minimum=1),
    gpus=Param.integer("count", "GPUs in the job"),
    gpus_per_node=Param.integer("count", "GPUs per machine"),
    meta_defective_share=Param.fraction("machines with an SDC-defective CPU, Meta fleet (estimate)"),
    google_defective_share=Param.fraction("machines with a mercurial core, Google fleet (estimate)"),
    defective_share_low=Param.fraction("low end of both studies' range"),
    defective_share_high=Param.fraction("high end of both studies' range"),
    model_params=Param.positive("count", "model parameters"),
    weight_bytes=Param.positive("B", "bytes per parameter, 16-bit weights"),
    optimizer_bytes=Param.number("B", "bytes per parameter, optimizer state", minimum=0),
    checkpoint_bandwidth=Param.positive("B/s", "checkpoint write bandwidth, aggregate"),
    hbm_bandwidth=Param.positive("B/s", "HBM bandwidth per GPU (a state check reads the GPU's state once)"),
    state_replicas=Param.integer("count", "copies of the state a state check compares (HSDP replicas)", minimum=2,
                                 maximum=64),
    restart_cost=Param.number("s", "restart time R (assumed)", minimum=0),
    tokens_per_step=Param.positive("count", "tokens per step"),
    flops_per_gpu=Param.positive("FLOP/s", "achieved FLOP/s per GPU"),
    flops_per_param_token=Param.positive("FLOP", "training FLOPs per parameter per token"),
    layers=Param.integer("count", "transformer layers (attention's FLOPs)"),
    model_dim=Param.integer("count", "query heads × head size (attention's FLOPs)"),
    sequence_length=Param.integer("count", "tokens of context per sequence (attention's FLOPs)"),
    check_steps=Param.positive("count", "steps replayed per check"),
    check_steps_sweep=Param.numbers("count", "check costs compared (steps replayed)", above=0),
    replay_share_sweep=Param.numbers("1", "shares φ of the SDCs a replay can see, compared", above=0, maximum=1),
    firing_share_sweep=Param.numbers("1", "shares q of the steps a persistent defect fires in, compared", above=0,
                                     maximum=1),
    run_days=Param.positive("s", "run length for the odds"),
    fleet_sweep=Param.numbers("count", "job sizes compared (GPUs)", above=0),
    trials=Param.integer("count", "Monte Carlo trials per point", minimum=200, maximum=20_000),
    seed=Param.integer("1", "random seed", minimum=0),
    steps=Param.integer("count", "training steps of the small network", minimum=60, maximum=2000),
    flip_step=Param.integer("count", "step before which the bit flips", minimum=30),
    hidden=Param.integer("count", "hidden units", minimum=4, maximum=256),
    batch=Param.integer("count", "examples per mini-batch", minimum=8, maximum=512),
    learning_rate=Param.positive("1", "SGD learning rate", maximum=2.0),
    exponent_bit=Param.integer("1", "exponent bit flipped", minimum=23, maximum=30),
    mantissa_bit=Param.integer("1", "mantissa bit flipped", minimum=0, maximum=22),
    window=Param.integer("count", "detector window (steps)", minimum=5, maximum=200),
    z_threshold=Param.positive("1", "detector threshold (z-score)"),
    z_threshold_sweep=Param.numbers("1", "detector thresholds compared (z-score)", above=0),
    sweep_tail=Param.integer("count", "steps run after each flip in the all-bits sweep", minimum=10,
                             maximum=500),
)
def silent_corruption(observation_window: float, interruptions: int, sdc_interruptions: int, gpus: int,
                      gpus_per_node: int, meta_defective_share: float, google_defective_share: float,
                      defective_share_low: float, defective_share_high: float,
                      model_params: float, weight_bytes: float, optimizer_bytes: float,
                      checkpoint_bandwidth: float, hbm_bandwidth: float, state_replicas: int, restart_cost: float,
                      tokens_per_step: float,
                      flops_per_gpu: float, flops_per_param_token: float, layers: int, model_dim: int,
                      sequence_length: int, check_steps: float,
                      check_steps_sweep: list, replay_share_sweep: list, firing_share_sweep: list, run_days: float,
                      fleet_sweep: list,
                      trials: int, seed: int,
                      steps: int = 300, flip_step: int = 150, hidden: int = 32, batch: int = 64,
                      learning_rate: float = 0.1, exponent_bit: int = 30, mantissa_bit: int = 0,
                      window: int = 20, z_threshold: float = 6.0, sweep_tail: int = 60,
                      z_threshold_sweep: tuple = (3.0, 4.0, 6.0, 10.0, 20.0)) -> Exhibit:
    """silent-data-corruption's data: the odds of an SDC, the periodic-check trade-off and a bit flipped in training."""
    if sdc_interruptions > interruptions:
        raise ParamError("sdc_interruptions", sdc_interruptions, f"at most interruptions ({interruptions})")
    if not window < flip_step < steps - 2:
        raise ParamError("flip_step", flip_step, f"between window ({window}) and steps − 2 ({steps - 2})")
    if gpus % gpus_per_node:
        raise ParamError("gpus", gpus, f"a multiple of gpus_per_node ({gpus_per_node})")
    rng = np.random.default_rng(seed)
    n = int(gpus)
    machines = n // int(gpus_per_node)
    T = float(run_days)

    odds = the_odds(observation_window, sdc_interruptions, n, machines, T, meta_defective_share,
                    google_defective_share, defective_share_low, defective_share_high)
    t_grid = np.logspace(math.log10(HOUR), math.log10(max(2 * T, 2 * DAY)), 121)
    fleet = sorted(set(int(v) for v in fleet_sweep) | {n})
    odds_curves = {f"p_{g}": p_at_least_one(odds.lam, g, t_grid) for g in fleet}
    # the run's own size across the rate's 95% interval: the band the figure shades
    odds_curves.update(p_run_size_low=p_at_least_one(odds.lam_low, n, t_grid),
                       p_run_size_high=p_at_least_one(odds.lam_high, n, t_grid))
    mc_rows, zs = odds_monte_carlo(odds.lam, n, machines, T, fleet, meta_defective_share, google_defective_share,
                                   trials, rng)
    check(np.max(np.abs(zs)) <= Z_CHECK, "a seeded Monte Carlo agrees with the formula at every point tested")
    check(odds.p_run > 0.9, "a run of this size and length almost certainly meets an SDC")
    check(odds.p_day < 0.5, "on any one day the odds are below even")

    # the step as every scene counts it (models/scenario_facts.py): 6N plus attention over the context
    step = scenario_facts.training_step(model_params, tokens_per_step, n, flops_per_gpu, layers, model_dim,
                                        sequence_length, flops_per_param_token)
    checks = periodic_checks(observation_window, interruptions, odds.mtb_sdc, n, T, model_params, weight_bytes,
                             optimizer_bytes, checkpoint_bandwidth, restart_cost, step["step_time"], check_steps)
    sweep_rows = check_cost_sweep(checks, odds.mtb_sdc, check_steps, check_steps_sweep, restart_cost)
    share_rows = replay_share_rows(checks, odds.mtb_sdc, replay_share_sweep, restart_cost)
    firing_rows = firing_share_rows(checks, odds.mtb_sdc, check_steps, firing_share_sweep, restart_cost)
    state = state_check(model_params, weight_bytes, optimizer_bytes, n, hbm_bandwidth, odds.mtb_sdc,
                        step["step_time"], int(state_replicas))
    check(state["state_check_interval"] < checks.tau,
          "a state check's c* is shorter than τ*: these checks run more often than checkpoints")
    flip = one_flipped_bit(seed, steps, flip_step, hidden, batch, learning_rate, exponent_bit, mantissa_bit,
                           window, z_threshold)
    bits = every_bit(flip, seed, steps, flip_step, sweep_tail, hidden, batch, learning_rate, window, z_threshold)
    seen = which_check_sees_what(flip, bits, learning_rate)
    by_weight = detection_by_weight_and_threshold(flip, bits, seed, flip_step, sweep_tail, hidden, batch,
                                                  learning_rate, window, z_threshold, z_threshold_sweep)
    c_range = check_interval_range(odds, checks.k, n)
    fleet_rows = fleet_odds(odds, fleet, T)
    summary = page_summary(odds, zs, checks, flip, bits, machines, flip_step)
    summary.update(uncertainty_summary(odds, c_range, fleet_rows, n, checks.k))
    summary.update(state)
    # what checking adds over the run, at the rate and across its 95% interval (c* re-optimised at each)
    summary.update({f"added_gpu_hours{tag}": added_gpu_hours(checks.k, 1.0 / (lam * n), n, T)
                    for tag, lam in (("", odds.lam), ("_low", odds.lam_low), ("_high", odds.lam_high))})
    check(abs(summary["added_gpu_hours"] / (n * T / HOUR) - checks.at["checks"] - checks.at["discarded"]) < 1e-9,
          "the GPU-hours added are the checks and the discarded interval at c*")
    # the rate is uncertain by a factor of about six: the page quotes two significant figures
    summary.update({f"{key}_rounded": float(f"{summary[key]:.2g}")
                    for key in ("added_gpu_hours", "added_gpu_hours_low", "added_gpu_hours_high")})
    summary.update({f"blowup_{key}": v for key, v in flip.blowup.items() if key != "next_loss_finite"})
    summary.update({f"blowup_{key}_text": _sci_text(flip.blowup[key])
                    for key in ("grad_norm", "max_dw1", "max_update_w1")})
    return Exhibit(summary=summary,
                   series=figure_series(flip, steps, t_grid, odds_curves, checks),
                   table=odds_table(mc_rows, trials),
                   animation=animation_plan(flip, seed, hidden, flip_step, exponent_bit, mantissa_bit),
                   records={"check_sweep": sweep_rows, "replay_share_sweep": share_rows,
                            "firing_share_sweep": firing_rows, "bits": bits.rows,
                            "fleet": fleet, "fleet_odds": fleet_rows,
                            "checks_seen": seen, "detection_by_weight": by_weight,
                            scenario_facts.RECORD: scenario_facts.published(
                                step_time=step["step_time"], checkpoint_bytes=checkpoint_bytes(
                                    model_params, weight_bytes, optimizer_bytes))})


__all__ = [
    "Z_CHECK", "rate_per_device", "p_at_least_one", "p_any_defective", "simulate_first_event",
    "simulate_any_defective", "detection_latency", "check_overhead", "optimal_check_interval", "flip_bit",
    "detector", "first_alarm", "train_with_flip", "flipped_value", "silent_corruption",
]
