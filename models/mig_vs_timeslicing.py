"""Sharing one GPU: MIG hardware slices against time-slicing.

**MIG geometry.** An H100 80GB in MIG mode has 7 compute slices and 8 memory
slices (NVIDIA's MIG user guide, H100 profile table). A profile takes g
compute and m memory slices (1g.10gb: 1 and 1; 3g.40gb: 3 and 4; 7g.80gb: 7
and 8). The guide draws each profile's placements on memory slices 0-7. They
follow one rule, which `placements` applies and the tests compare with the
guide's figure: a profile starts on a memory slice s that is a multiple of m,
its memory s … s+m−1 fits in the 8 slices, and its compute slices s … s+g−1
fit in the 7 (compute slice i sits over memory slice i; memory slice 7 has no
compute slice of its own). A set of instances is valid when no two share a
memory or a compute slice and no profile exceeds its instance count. The
enumeration walks every valid set (a depth-first search over the placements,
bounded by their number) and keeps the maximal ones: those no further
instance fits into.

**Packing a tenant mix.** Each tenant needs some memory and some compute
(FLOP/s, turned into SMs at the GPU's per-SM peak). It gets the smallest
profile that covers both; instances are packed first-fit decreasing onto
GPUs, a GPU taking an instance only if the placement search finds room. The
SMs (and memory) a GPU then leaves unused are those no instance owns plus
those an instance owns beyond its tenant's need. Whole-GPU allocation gives
each tenant a GPU; time-slicing puts tenants on shared GPUs as long as their
memory adds up to no more than the GPU's, with nothing enforcing it.

**Latency.** A tenant's request needs W seconds of the whole GPU. On a MIG
instance with S of the GPU's S₀ SMs it takes W·S₀/S, whatever the other
tenants do (compute-bound; a memory-bound request scales with the memory
slices instead: W·8/m). Under time-slicing k tenants take turns in a fixed
rotation, each turn a time slice q, each change of context costing c. Each of
the other k−1 tenants has work during the request with probability u (b of
them, binomial). With b = 0 the request runs alone: W. Otherwise it waits for
the rotation to come round, D = c + U·P (U uniform, P the rotation of the b
busy neighbours: q for one, b(q+c) for more), then runs n = ⌈W/q⌉ slices, one
per rotation of (b+1)(q+c), the last one r = W − (n−1)q long:

    L = c + U·P + (n − 1)(b + 1)(q + c) + r

so the distribution is a mixture of uniforms. Limits: k = 1 gives W (the
whole GPU, no switches); c → 0 and q → 0 give k·W for saturated neighbours
(processor sharing). A seeded Monte Carlo walks the rotation turn by turn, from
a cold start with a random arrival, and must agree with the mixture.

Units: seconds, bytes, FLOP/s (models/units.py).
"""

from __future__ import annotations

import math
from collections import Counter
from dataclasses import dataclass

import numpy as np

from models.constants import CONSTANTS
from models.constants.products import GPU
from models.exhibit import Column, Exhibit, Param, ParamError, Table, check, curves, model
from models.units import GB

Z_CHECK = 3.0  # Monte Carlo mean within 3 standard errors of the analytic mean
KS_99 = 1.63  # Kolmogorov-Smirnov: sup |F_n − F| above 1.63/√n has probability 1% when F is right
MAX_SLICES_PER_REQUEST = 10_000  # ⌈W/q⌉ above this: the walk would run too long
MAX_SEARCH_NODES = 200_000  # the placement searches visit at most this many partial sets
QUANTILE_STEPS = 80  # bisection steps for a quantile of the analytic mixture

PROFILE_KEYS = {  # profile name -> key of its constants in models/constants/scheduling.py
    "1g.10gb": "1g10gb", "1g.10gb+me": "1g10gb_me", "1g.20gb": "1g20gb", "2g.20gb": "2g20gb",
    "3g.40gb": "3g40gb", "4g.40gb": "4g40gb", "7g.80gb": "7g80gb",
}


class SearchBound(RuntimeError):
    """A placement search would visit more partial sets than its budget."""


@dataclass(frozen=True)
class Profile:
    """One MIG profile: compute slices, memory slices, SMs and how many instances a GPU allows."""

    name: str
    compute: int
    memory: int
    sms: int
    max_instances: int

    @property
    def media(self) -> bool:
        return self.name.endswith("+me")


@dataclass(frozen=True)
class Geometry:
    """A GPU's MIG geometry: its slices, SM count, instance limit and profiles."""

    compute_slices: int
    memory_slices: int
    sms: int
    max_instances: int
    profiles: tuple[Profile, ...]

    def profile(self, name: str) -> Profile:
        for p in self.profiles:
            if p.name == name:
                return p
        raise KeyError(f"no MIG profile {name!r}")

    @property
    def base_profiles(self) -> tuple[Profile, ...]:
        """The profiles without the media-extension variant (same geometry as 1g.10gb)."""
        return tuple(p for p in self.profiles if not p.media)


def h100_geometry(constants=CONSTANTS) -> Geometry:
    """The H100 80GB's MIG geometry, from the cited constants."""
    c = constants

    def v(name):
        return int(c[name].value)

    profiles = tuple(Profile(name, v(f"h100_mig_{k}_compute_slices"), v(f"h100_mig_{k}_memory_slices"),
                             v(f"h100_mig_{k}_sms"), v(f"h100_mig_{k}_max_instances"))
                     for name, k in PROFILE_KEYS.items())
    return Geometry(v("h100_mig_compute_slices"), v("h100_mig_memory_slices"), v("h100_sms"),
                    v("h100_mig_max_instances"), profiles)


# --- placements and valid sets ---------------------------------------------------


def placements(p: Profile, geo: Geometry) -> tuple[int, ...]:
    """Start slots (memory slice index) where profile p may sit.

    s a multiple of p.memory, memory s … s+m−1 within the memory slices,
    compute s … s+g−1 within the compute slices.
    """
    return tuple(s for s in range(0, geo.memory_slices, p.memory)
                 if s + p.memory <= geo.memory_slices and s + p.compute <= geo.compute_slices)


def _masks(p: Profile, start: int) -> tuple[int, int]:
    mem = ((1 << p.memory) - 1) << start
    comp = ((1 << p.compute) - 1) << start
    return mem, comp


def is_valid(config: list[tuple[str, int]], geo: Geometry) -> bool:
    """Whether instances (profile name, start) can coexist on one GPU."""
    mem = comp = 0
    counts: Counter = Counter()
    for name, start in config:
        p = geo.profile(name)
        if start not in placements(p, geo):
            return False
        m, c = _masks(p, start)
        if mem & m or comp & c:
            return False
        mem, comp = mem | m, comp | c
        counts[name] += 1
        if counts[name] > p.max_instances:
            return False
    return len(config) <= geo.max_instances


def _all_placements(geo: Geometry, profiles) -> list[tuple[Profile, int, int, int]]:
    out = []
    for p in profiles:
        for s in placements(p, geo):
            out.append((p, s, *_masks(p, s)))
    return sorted(out, key=lambda t: (t[1], -t[0].memory, -t[0].compute, t[0].name))


def valid_configurations(geo: Geometry, include_media: bool = False) -> list[tuple[tuple[str, int], ...]]:
    """Every non-empty valid set of instances, each as sorted (profile, start) pairs.

    Depth-first over the placements in a fixed order, each taken or not;
    bounded by MAX_SEARCH_NODES.
    """
    profiles = geo.profiles if include_media else geo.base_profiles
    cands = _all_placements(geo, profiles)
    found: list[tuple[tuple[str, int], ...]] = []
    visited = 0

    def walk(i: int, mem: int, comp: int, chosen: list, counts: Counter):
        nonlocal visited
        visited += 1
        if visited > MAX_SEARCH_NODES:
            raise SearchBound(f"valid_configurations: more than {MAX_SEARCH_NODES:,} partial sets")
        if chosen:
            found.append(tuple(sorted(chosen)))
        if len(chosen) >= geo.max_instances:
            return
        for j in range(i, len(cands)):
            p, s, m, c = cands[j]
            if mem & m or comp & c or counts[p.name] >= p.max_instances:
                continue
            counts[p.name] += 1
            chosen.append((p.name, s))
            walk(j + 1, mem | m, comp | c, chosen, counts)
            chosen.pop()
            counts[p.name] -= 1

    walk(0, 0, 0, [], Counter())
    return found


def maximal_configurations(geo: Geometry, include_media: bool = False) -> list[tuple[tuple[str, int], ...]]:
    """The valid sets that no further instance fits into, in placement form."""
    profiles = geo.profiles if include_media else geo.base_profiles
    cands = [(p.name, s) for p in profiles for s in placements(p, geo)]
    out = []
    for cfg in valid_configurations(geo, include_media):
        if not any(is_valid([*cfg, extra], geo) for extra in cands):
            out.append(cfg)
    return out


def maximal_layouts(geo: Geometry) -> list[tuple[tuple[str, int], ...]]:
    """The maximal layouts as multisets: valid sets of instances to which no further profile can be added,
    however the instances are placed (placement-maximal sets whose instances could be rearranged to make
    room for one more are left out: they are dead ends of a placement order)."""
    out = set()
    for cfg in maximal_configurations(geo):
        names = [n for n, _ in cfg]
        if not any(fit([*names, p.name], geo) is not None for p in geo.base_profiles):
            out.add(as_multiset(cfg))
    return sorted(out, key=lambda m: (-max(int(n[0]) for n, _ in m), m))


def as_multiset(cfg) -> tuple[tuple[str, int], ...]:
    """A configuration as (profile, count) pairs, largest profile first."""
    counts = Counter(name for name, _ in cfg)
    return tuple(sorted(counts.items(), key=lambda kv: (-int(kv[0].split("g")[0]), kv[0])))


def fit(names: list[str], geo: Geometry) -> list[tuple[str, int]] | None:
    """A placement of the given instances on one GPU, or None if there is none (exact search)."""
    order = sorted(names, key=lambda n: (-geo.profile(n).memory, -geo.profile(n).compute, n))
    if len(order) > geo.max_instances:
        return None
    visited = 0

    def walk(i: int, mem: int, comp: int, chosen: list):
        nonlocal visited
        visited += 1
        if visited > MAX_SEARCH_NODES:
            raise SearchBound(f"fit: more than {MAX_SEARCH_NODES:,} partial placements")
        if i == len(order):
            return list(chosen)
        p = geo.profile(order[i])
        if sum(1 for n in order if n == p.name) > p.max_instances:
            return None
        for s in placements(p, geo):
            m, c = _masks(p, s)
            if mem & m or comp & c:
                continue
            chosen.append((p.name, s))
            got = walk(i + 1, mem | m, comp | c, chosen)
            if got is not None:
                return got
            chosen.pop()
        return None

    return walk(0, 0, 0, [])


def largest_equal_share(k: int, geo: Geometry) -> Profile | None:
    """The profile with the most SMs of which k instances fit on one GPU."""
    best = None
    for p in geo.base_profiles:
        if fit([p.name] * k, geo) is not None and (best is None or p.sms > best.sms):
            best = p
    return best


# --- packing a tenant mix ------------------------------------------------------------


def sms_needed(flops: float, gpu: GPU, geo: Geometry) -> int:
    """SMs a sustained compute demand (FLOP/s) needs at the GPU's per-SM BF16 peak."""
    return max(1, math.ceil(flops / (gpu.peak_bf16 / geo.sms) - 1e-9))


def profile_memory(p: Profile, gpu: GPU, geo: Geometry) -> float:
    """Bytes of a profile: its share of the memory slices times the GPU's HBM (the profile's nominal size)."""
    return gpu.hbm_capacity * p.memory / geo.memory_slices


def smallest_profile(memory: float, sms: int, gpu: GPU, geo: Geometry) -> Profile | None:
    """The profile with the fewest SMs (then the least memory) that covers both needs."""
    ok = [p for p in geo.base_profiles if p.sms >= sms and profile_memory(p, gpu, geo) >= memory]
    return min(ok, key=lambda p: (p.sms, p.memory)) if ok else None


def pack_first_fit(names: list[str], geo: Geometry) -> list[list[tuple[str, int]]]:
    """Instances onto GPUs, first-fit decreasing; each GPU's layout as (profile, start) pairs."""
    order = sorted(range(len(names)), key=lambda i: (-geo.profile(names[i]).compute,
                                                     -geo.profile(names[i]).memory, i))
    gpus: list[list[str]] = []
    for i in order:
        for g in gpus:
            if fit([*g, names[i]], geo) is not None:
                g.append(names[i])
                break
        else:
            gpus.append([names[i]])
    return [sorted(fit(g, geo), key=lambda t: t[1]) for g in gpus]


def pack_time_sliced(memory: list[float], flops: list[float], gpu: GPU) -> list[list[int]]:
    """Tenants onto shared GPUs, first-fit decreasing by memory: memory and compute demand must add up
    to no more than one GPU's (nothing enforces it)."""
    order = sorted(range(len(memory)), key=lambda i: (-memory[i], i))
    bins: list[list[int]] = []
    for i in order:
        for b in bins:
            if (sum(memory[j] for j in b) + memory[i] <= gpu.hbm_capacity
                    and sum(flops[j] for j in b) + flops[i] <= gpu.peak_bf16):
                b.append(i)
                break
        else:
            bins.append([i])
    return bins


# --- latency under time-slicing ----------------------------------------------------


def _slices(work: float, quantum: float) -> tuple[int, float]:
    n = max(1, math.ceil(work / quantum - 1e-12))
    return n, work - (n - 1) * quantum


def rotation_before(b: int, quantum: float, switch: float) -> float:
    """P: one rotation of b busy neighbours before the request arrives (q for one, b(q+c) for more)."""
    if b <= 0:
        return 0.0
    return quantum if b == 1 else b * (quantum + switch)


def latency_base(b: int, work: float, quantum: float, switch: float) -> float:
    """The smallest latency with b busy neighbours: c + (n−1)(b+1)(q+c) + r (W when b = 0)."""
    if b <= 0:
        return work
    n, r = _slices(work, quantum)
    return switch + (n - 1) * (b + 1) * (quantum + switch) + r


def timeslice_latency(b, phase, work: float, quantum: float, switch: float):
    """L for b busy neighbours and rotation phase U in [0, 1): the closed form (vectorised)."""
    b = np.asarray(b, dtype=np.int64)
    phase = np.asarray(phase, dtype=float)
    out = np.empty(np.broadcast(b, phase).shape)
    bb, pp = np.broadcast_arrays(b, phase)
    for v in np.unique(bb):
        sel = bb == v
        out[sel] = latency_base(int(v), work, quantum, switch) + pp[sel] * rotation_before(int(v), quantum, switch)
    return out


def _binom_pmf(n: int, u: float) -> np.ndarray:
    return np.array([math.comb(n, j) * u**j * (1 - u) ** (n - j) for j in range(n + 1)])


def latency_mixture(tenants: int, busy: float, work: float, quantum: float, switch: float) -> dict:
    """The analytic distribution: for each b, its probability and the uniform [lo, lo + P)."""
    pmf = _binom_pmf(tenants - 1, busy)
    lo = np.array([latency_base(j, work, quantum, switch) for j in range(tenants)])
    width = np.array([rotation_before(j, quantum, switch) for j in range(tenants)])
    return {"pmf": pmf, "lo": lo, "width": width}


def mixture_mean(mix: dict) -> float:
    return float(np.sum(mix["pmf"] * (mix["lo"] + mix["width"] / 2)))


def mixture_max(mix: dict) -> float:
    """The largest latency that has a chance of happening."""
    live = mix["pmf"] > 0
    return float(np.max((mix["lo"] + mix["width"])[live]))


def mixture_cdf(mix: dict, x) -> np.ndarray:
    x = np.asarray(x, dtype=float)[..., None]
    lo, w, pmf = mix["lo"], mix["width"], mix["pmf"]
    with np.errstate(divide="ignore", invalid="ignore"):
        part = np.where(w > 0, np.clip((x - lo) / np.where(w > 0, w, 1.0), 0.0, 1.0), (x >= lo) * 1.0)
    return np.sum(pmf * part, axis=-1)


def mixture_quantile(mix: dict, q: float) -> float:
    """The q-quantile by bisection (QUANTILE_STEPS steps) between the smallest and largest latency."""
    lo, hi = float(np.min(mix["lo"])), float(np.max(mix["lo"] + mix["width"]))
    for _ in range(QUANTILE_STEPS):
        mid = 0.5 * (lo + hi)
        if mixture_cdf(mix, mid) >= q:
            hi = mid
        else:
            lo = mid
    return hi


def simulate_rotation(tenants: int, busy: float, work: float, quantum: float, switch: float,
                      trials: int, rng: np.random.Generator) -> dict:
    """Walk a round-robin time-slice scheduler turn by turn, all trials in lockstep.

    Context 0 is the tenant; 1 … k−1 the neighbours, each busy with
    probability `busy` for the whole request. From t = 0 the pointer visits
    the contexts in order: a busy context runs q (its remaining work, for the
    tenant), paying c if it is not the context that ran last; an idle one (or
    the tenant before its request arrives) is skipped at no cost; when nothing
    can run, the GPU idles until the request arrives. The request arrives at a
    uniform time in [P, 4P) (three whole rotations, after the first), or at 0
    when no neighbour is busy. Returns latency, busy neighbours and switches per
    trial. Bounded: the loop runs at most k·(⌈W/q⌉ + 6) steps.
    """
    n, _ = _slices(work, quantum)
    if n > MAX_SLICES_PER_REQUEST:
        raise ParamError("quantum", quantum, f"at least W/{MAX_SLICES_PER_REQUEST:,} (the walk is bounded)")
    k = tenants
    nb_busy = rng.random((trials, k - 1)) < busy
    b = nb_busy.sum(axis=1)
    period = np.array([rotation_before(int(v), quantum, switch) for v in range(k)])[b]
    arrival = np.where(b > 0, period * (1.0 + 3.0 * rng.random(trials)), 0.0)
    runnable = np.concatenate([np.ones((trials, 1), bool), nb_busy], axis=1)  # the tenant, once arrived
    t = np.zeros(trials)
    rem = np.full(trials, float(work))
    last = np.full(trials, -1)  # nothing loaded yet: the first context pays no switch
    ptr = np.ones(trials, dtype=np.int64) % k
    finish = np.full(trials, np.nan)
    switches = np.zeros(trials, dtype=np.int64)
    rows = np.arange(trials)
    steps = k * (n + 6)
    for _ in range(steps):
        live = np.isnan(finish)
        if not live.any():
            break
        is_me = ptr == 0
        arrived = t >= arrival
        nothing = live & ~nb_busy.any(axis=1) & ~arrived
        t = np.where(nothing, arrival, t)  # idle GPU: wait for the request
        arrived = t >= arrival
        run = live & runnable[rows, ptr] & (~is_me | arrived)
        change = run & (last != ptr) & (last >= 0)
        dur = np.where(is_me, np.minimum(quantum, rem), quantum)
        t = t + np.where(run, dur + np.where(change, switch, 0.0), 0.0)
        switches += change
        last = np.where(run, ptr, last)
        rem = np.where(run & is_me, rem - dur, rem)
        done = live & run & is_me & (rem <= 1e-15 * work)
        finish = np.where(done, t, finish)
        ptr = (ptr + 1) % k
    if np.isnan(finish).any():
        raise RuntimeError("simulate_rotation: a request did not finish within the bounded walk")
    return {"latency": finish - arrival, "busy": b, "switches": switches}


# --- the scene's data -------------------------------------------------------------


@model(
    gpu=Param.of(GPU, "GPU shared"),
    tenant_memory=Param.numbers("B", "tenants' memory needs", above=0),
    tenant_flops=Param.numbers("FLOP/s", "tenants' sustained compute needs", above=0),
    tenants=Param.integer("count", "tenants sharing one GPU (time-slicing replicas)", minimum=1, maximum=16),
    work=Param.positive("s", "request's GPU time on the whole GPU, W"),
    quantum=Param.positive("s", "time slice q (assumed)"),
    switch=Param.number("s", "context-switch cost c (assumed)", minimum=0),
    busy=Param.fraction("chance a neighbour has work during the request, u (assumed)"),
    switch_sweep=Param.numbers("s", "context-switch costs compared", minimum=0),
    quantum_sweep=Param.numbers("s", "time slices compared", above=0),
    busy_sweep=Param.numbers("1", "chances a neighbour has work, compared", minimum=0),
    seed=Param.integer("1", "random seed", minimum=0, animation=True),
    trials=Param.integer("count", "Monte Carlo requests", minimum=1000, maximum=1_000_000),
)
def mig_vs_timeslicing(gpu: GPU, tenant_memory: list, tenant_flops: list, tenants: int, work: float,
                       quantum: float, switch: float, busy: float, switch_sweep: list, quantum_sweep: list,
                       busy_sweep: list, seed: int, trials: int = 40_000) -> Exhibit:
    """Scene 16's data: the MIG geometry, a tenant mix packed three ways, and a tenant's latency.

    gpu: the GPU entity (peak and HBM); tenant_memory, tenant_flops: the tenant
    mix (one entry per tenant); tenants, work, quantum, switch, busy: the
    time-slicing scenario (q, c and u are assumptions, swept on the page).
    """
    if len(tenant_memory) != len(tenant_flops):
        raise ParamError("tenant_flops", tenant_flops, f"one value per tenant ({len(tenant_memory)})")
    if _slices(work, quantum)[0] > MAX_SLICES_PER_REQUEST:
        raise ParamError("quantum", quantum, f"at least W/{MAX_SLICES_PER_REQUEST:,}")
    geo = h100_geometry()
    check(abs(gpu.hbm_capacity - 80 * GB) < 1 * GB, "the MIG profile table is the H100 80GB's")
    rng = np.random.default_rng(seed)

    # --- the geometry -------------------------------------------------------------
    place = {p.name: list(placements(p, geo)) for p in geo.profiles}
    maximal = maximal_configurations(geo)
    valid = valid_configurations(geo)
    layouts = maximal_layouts(geo)
    dead_ends = [c for c in maximal if as_multiset(c) not in set(layouts)]
    check(dead_ends, "a poor placement order can strand slices that a better order would use")
    ex = min(dead_ends, key=lambda c: (len(c), c))
    ex_names = [n for n, _ in ex]
    ex_extra = next(p.name for p in sorted(geo.base_profiles, key=lambda p: p.sms)
                    if fit([*ex_names, p.name], geo) is not None)
    dead_end_example = {"placement": [list(x) for x in sorted(ex, key=lambda t: t[1])], "extra": ex_extra,
                        "better": [list(x) for x in sorted(fit([*ex_names, ex_extra], geo), key=lambda t: t[1])]}
    max_inst = {p.name: max(sum(1 for n, _ in c if n == p.name) for c in maximal) for p in geo.base_profiles}
    check(all(max_inst[p.name] == p.max_instances for p in geo.base_profiles),
          "the search finds each profile's instance count in the guide's table")
    rows_cfg = []
    for m in layouts:
        names = [n for n, c in m for _ in range(c)]
        sms = sum(geo.profile(n).sms for n in names)
        mem = sum(geo.profile(n).memory for n in names)
        comp = sum(geo.profile(n).compute for n in names)
        rows_cfg.append({"layout": " + ".join(f"{c}× {n}" if c > 1 else n for n, c in m),
                         "instances": len(names), "sms": sms, "idle_sms": geo.sms - sms,
                         "compute_slices": comp, "memory_slices": mem,
                         "placement": [list(x) for x in sorted(fit(names, geo), key=lambda t: t[1])]})
    idle = [r["idle_sms"] for r in rows_cfg]
    full = next(r for r in rows_cfg if r["instances"] == 1)
    check(full["idle_sms"] == 0, "only the whole-GPU profile uses every SM")
    check(min(r["idle_sms"] for r in rows_cfg if r["instances"] > 1) > 0,
          "every split leaves SMs that no instance owns")
    seven = next(r for r in rows_cfg if r["layout"] == f"{geo.max_instances}× 1g.10gb")
    check(seven["memory_slices"] < geo.memory_slices, "seven 1g.10gb instances leave a memory slice unused")
    three_three = next((r for r in rows_cfg if r["layout"] == "2× 3g.40gb"), None)
    check(three_three is not None and three_three["compute_slices"] < geo.compute_slices,
          "two 3g.40gb instances leave a compute slice unused")

    # --- packing the tenant mix -----------------------------------------------------
    mem = [float(x) for x in tenant_memory]
    flops = [float(x) for x in tenant_flops]
    need_sms = [sms_needed(f, gpu, geo) for f in flops]
    chosen = []
    for i, (m_, s_) in enumerate(zip(mem, need_sms, strict=True)):
        p = smallest_profile(m_, s_, gpu, geo)
        if p is None:
            raise ParamError("tenant_memory", tenant_memory, f"tenant {i + 1} needs more than one whole GPU")
        chosen.append(p)
    mig_gpus = pack_first_fit([p.name for p in chosen], geo)
    n_mig = len(mig_gpus)
    lower = max(math.ceil(sum(p.compute for p in chosen) / geo.compute_slices),
                math.ceil(sum(p.memory for p in chosen) / geo.memory_slices))
    alloc_sms = sum(p.sms for p in chosen)
    total_need_sms = sum(need_sms)
    ts_bins = pack_time_sliced(mem, flops, gpu)
    n_ts = len(ts_bins)
    n_whole = len(mem)
    demand = sum(flops)
    sm_peak = gpu.peak_bf16 / geo.sms
    packing = {
        "whole": {"gpus": n_whole, "sm_share": total_need_sms / (n_whole * geo.sms),
                  "memory_share": sum(mem) / (n_whole * gpu.hbm_capacity)},
        "mig": {"gpus": n_mig, "sm_share": total_need_sms / (n_mig * geo.sms),
                "memory_share": sum(mem) / (n_mig * gpu.hbm_capacity)},
        "timeslice": {"gpus": n_ts, "sm_share": total_need_sms / (n_ts * geo.sms),
                      "memory_share": sum(mem) / (n_ts * gpu.hbm_capacity)},
    }
    check(n_mig < n_whole, "MIG hosts the mix on fewer GPUs than one GPU per tenant")
    check(n_mig == lower, "first-fit packing reaches the lower bound: no packing uses fewer GPUs")
    check(n_ts <= n_mig, "time-slicing packs tighter still")
    tenant_rows = [{"tenant": i + 1, "memory": mem[i], "flops": flops[i], "sms": need_sms[i],
                    "profile": chosen[i].name, "profile_sms": chosen[i].sms,
                    "profile_memory": profile_memory(chosen[i], gpu, geo)} for i in range(len(mem))]
    gpu_rows = []
    for g, lay in enumerate(mig_gpus):
        owned = sum(geo.profile(n).sms for n, _ in lay)
        gpu_rows.append({"gpu": g + 1, "placement": [list(x) for x in lay], "owned_sms": owned,
                         "unowned_sms": geo.sms - owned})
    # which tenant sits where: tenants of one profile fill that profile's instances in order
    pool: dict[str, list[tuple[int, int]]] = {}
    for g, lay in enumerate(mig_gpus):
        for n, s in lay:
            pool.setdefault(n, []).append((g, s))
    for r in tenant_rows:
        g, s = pool[r["profile"]].pop(0)
        r["gpu"], r["start"] = g + 1, s
    unowned = sum(r["unowned_sms"] for r in gpu_rows)
    slack = alloc_sms - total_need_sms
    ts_memory = [sum(mem[j] for j in b) for b in ts_bins]

    # --- latency: time-slicing against a MIG instance -------------------------------
    share = largest_equal_share(tenants, geo)
    if share is None:
        raise ParamError("tenants", tenants, f"at most {geo.max_instances} (MIG instances on one GPU)")
    mig_lat = work * geo.sms / share.sms
    mig_lat_mem = work * geo.memory_slices / share.memory
    mix = latency_mixture(tenants, busy, work, quantum, switch)
    mean = mixture_mean(mix)
    p50, p99 = mixture_quantile(mix, 0.5), mixture_quantile(mix, 0.99)
    worst = mixture_max(mix)
    best = float(np.min(mix["lo"][mix["pmf"] > 0]))
    sat = latency_mixture(tenants, 1.0, work, quantum, switch)
    sat_mean = mixture_mean(sat)
    n_sl, r_sl = _slices(work, quantum)
    # the switch cost at which saturated time-slicing's worst case reaches the MIG latency: L_max linear in c
    l0 = latency_base(tenants - 1, work, quantum, 0.0) + rotation_before(tenants - 1, quantum, 0.0)
    slope = (latency_base(tenants - 1, work, quantum, 1.0) + rotation_before(tenants - 1, quantum, 1.0)
             - l0) if tenants > 1 else 0.0
    switch_even = (mig_lat - l0) / slope if slope > 0 else math.inf
    sim = simulate_rotation(tenants, busy, work, quantum, switch, trials, rng)
    lat = sim["latency"]
    mc_mean, mc_se = float(lat.mean()), float(lat.std(ddof=1) / math.sqrt(trials))
    z = (mc_mean - mean) / mc_se if mc_se > 0 else 0.0
    check(abs(z) <= Z_CHECK, "a seeded simulation of the rotation agrees with the formula")
    probe = np.quantile(lat, np.linspace(0.01, 0.99, 99))
    ks = float(np.max(np.abs(np.mean(lat[:, None] <= probe, axis=0) - mixture_cdf(mix, probe))))
    ks_limit = KS_99 / math.sqrt(trials)
    check(ks <= ks_limit, "the simulated distribution matches the mixture")
    check(worst > 2 * best, "under time-slicing a tenant's latency depends on what its neighbours do")
    check(best == work, "with idle neighbours a time-sliced tenant has the whole GPU")
    check(sat_mean < mig_lat, "with these assumptions time-slicing is faster on average than the MIG slice")
    check(switch < switch_even, "time-slicing's worst case stays under the MIG latency while c is below the limit")
    check(p99 > p50, "the tail is longer than the median")

    # sweeps: how the comparison moves with the assumed c and q
    sweep = []
    for c in sorted(set(float(x) for x in switch_sweep) | {float(switch)}):
        mx = latency_mixture(tenants, busy, work, quantum, c)
        sweep.append({"switch": c, "quantum": float(quantum), "mean": mixture_mean(mx),
                      "p99": mixture_quantile(mx, 0.99), "worst": mixture_max(mx),
                      "assumed": c == float(switch)})
    q_sweep = []
    for q in sorted(set(float(x) for x in quantum_sweep) | {float(quantum)}):
        if _slices(work, q)[0] > MAX_SLICES_PER_REQUEST:
            raise ParamError("quantum_sweep", q, f"at least W/{MAX_SLICES_PER_REQUEST:,}")
        mx = latency_mixture(tenants, busy, work, q, switch)
        q_sweep.append({"quantum": q, "switch": float(switch), "mean": mixture_mean(mx),
                        "p99": mixture_quantile(mx, 0.99), "worst": mixture_max(mx),
                        "assumed": q == float(quantum)})
    check(any(r["worst"] > mig_lat for r in sweep), "a costly enough switch makes the worst case slower than MIG")
    u_sweep = []
    for u in sorted(set(float(x) for x in busy_sweep) | {float(busy)}):
        if u > 1:
            raise ParamError("busy_sweep", u, "chances between 0 and 1")
        mx = latency_mixture(tenants, u, work, quantum, switch)
        u_sweep.append({"busy": u, "mean": mixture_mean(mx), "p50": mixture_quantile(mx, 0.5),
                        "p99": mixture_quantile(mx, 0.99), "worst": mixture_max(mx),
                        "alone": float(mx["pmf"][0]), "assumed": u == float(busy)})
    check(all(r["p99"] < mig_lat for r in u_sweep),
          "time-slicing's 99th percentile stays under the MIG latency whatever the neighbours' load")

    # limits, computed (and tested)
    lim_one = latency_mixture(1, busy, work, quantum, switch)
    check(abs(mixture_mean(lim_one) - work) < 1e-12 * work, "one tenant alone: time-slicing is the whole GPU")
    ps = latency_mixture(tenants, 1.0, work, work / 4096, 0.0)
    check(abs(mixture_mean(ps) / (tenants * work) - 1) < 2e-3,
          "tiny slices and free switches: each of k tenants gets 1/k of the GPU")

    # figure data: the CDF, analytic and simulated; the latency versus c
    xs = np.linspace(0.0, max(worst, mig_lat, mig_lat_mem) * 1.05, 301)
    cdf = mixture_cdf(mix, xs)
    cdf_sat = mixture_cdf(sat, xs)
    emp = np.searchsorted(np.sort(lat), xs, side="right") / trials
    c_dense = np.linspace(0.0, max(max(float(x) for x in switch_sweep), 2 * switch_even
                                   if math.isfinite(switch_even) else switch), 121)
    d_mean, d_p99, d_worst = [], [], []
    for c in c_dense:
        mx = latency_mixture(tenants, busy, work, quantum, float(c))
        d_mean.append(mixture_mean(mx))
        d_p99.append(mixture_quantile(mx, 0.99))
        d_worst.append(mixture_max(mx))

    summary = {
        "compute_slices": geo.compute_slices, "memory_slices": geo.memory_slices, "gpu_sms": geo.sms,
        "valid_configurations": len(valid), "maximal_placements": len(maximal), "maximal_layouts": len(layouts),
        "dead_end_placements": len(dead_ends),
        "most_idle_sms": max(idle), "seven_way_sms": seven["sms"], "seven_way_idle_sms": seven["idle_sms"],
        "three_three_idle_sms": three_three["idle_sms"],
        "seven_way_idle_memory_slices": geo.memory_slices - seven["memory_slices"],
        "three_three_idle_compute_slices": geo.compute_slices - three_three["compute_slices"],
        "tenant_count": len(mem), "tenant_sms": total_need_sms, "tenant_memory": sum(mem),
        "tenant_flops": demand, "sm_peak": sm_peak,
        "mig_gpus": n_mig, "whole_gpus": n_whole, "timeslice_gpus": n_ts, "mig_lower_bound": lower,
        "mig_sm_share": packing["mig"]["sm_share"], "whole_sm_share": packing["whole"]["sm_share"],
        "timeslice_sm_share": packing["timeslice"]["sm_share"],
        "mig_memory_share": packing["mig"]["memory_share"], "whole_memory_share": packing["whole"]["memory_share"],
        "mig_allocated_sms": alloc_sms, "mig_unowned_sms": unowned, "mig_slack_sms": slack,
        "mig_idle_sms": unowned + slack, "timeslice_max_memory": max(ts_memory),
        "share_profile": share.name, "share_sms": share.sms, "share_memory_slices": share.memory,
        "mig_latency": mig_lat, "mig_latency_memory_bound": mig_lat_mem,
        "slices_per_request": n_sl, "last_slice": r_sl,
        "ts_best": best, "ts_worst": worst, "ts_mean": mean, "ts_p50": p50, "ts_p99": p99,
        "ts_saturated_mean": sat_mean, "ts_saturated_worst": mixture_max(sat),
        "ts_alone_share": float(mix["pmf"][0]),
        "switch_break_even": switch_even,
        "mc_mean": mc_mean, "mc_se": mc_se, "mc_z": float(z), "mc_ks": ks, "mc_ks_limit": ks_limit,
        "mc_z_check": Z_CHECK,
        "ps_limit_ratio": mixture_mean(ps) / (tenants * work),
    }
    series = {
        **curves("latency", xs, cdf=cdf, cdf_saturated=cdf_sat, cdf_mc=emp),
        **curves("switch_dense", c_dense, sweep_mean=d_mean, sweep_p99=d_p99, sweep_worst=d_worst),
    }
    records = {
        "profiles": [{"name": p.name, "compute": p.compute, "memory": p.memory, "sms": p.sms,
                      "max_instances": p.max_instances, "memory_bytes": profile_memory(p, gpu, geo),
                      "starts": place[p.name]} for p in geo.profiles],
        "layouts": rows_cfg,
        "tenants": tenant_rows,
        "mig_gpus": gpu_rows,
        "timeslice_gpus": [{"gpu": g + 1, "tenants": [j + 1 for j in b], "memory": ts_memory[g]}
                           for g, b in enumerate(ts_bins)],
        "switch_sweep": sweep,
        "quantum_sweep": q_sweep,
        "busy_sweep": u_sweep,
        "dead_end_example": dead_end_example,
        "mixture": {"pmf": mix["pmf"].tolist(), "lo": mix["lo"].tolist(), "width": mix["width"].tolist()},
    }
    # the animation: one GPU cut into the equal shares, and k tenants' turns on one GPU
    turns = []
    t = 0.0
    for _ in range(2):
        for j in range(tenants):
            turns.append({"tenant": j, "start": t, "switch": switch, "run": quantum})
            t += switch + quantum
    animation = {"share_layout": [list(x) for x in fit([share.name] * tenants, geo)], "turns": turns,
                 "mix_gpu": gpu_rows[0]["placement"]}
    table = Table(
        f"Maximal MIG layouts of the {gpu.name} (80 GB): instances, SMs owned and SMs no instance owns",
        [Column("layout", "text"), Column("instances", "count"), Column("SMs owned", "count"),
         Column("SMs idle", "count"), Column("compute slices used", "count"), Column("memory slices used", "count")],
        [[r["layout"], r["instances"], r["sms"], r["idle_sms"], r["compute_slices"], r["memory_slices"]]
         for r in rows_cfg],
    )
    big = max(tenant_rows, key=lambda r: (r["sms"], r["memory"]))
    problems = {
        "memory_bound_ratio": mig_lat_mem / mig_lat,
        "largest_tenant": {**big, "idle_sms": big["profile_sms"] - big["sms"],
                           "idle_memory": big["profile_memory"] - big["memory"],
                           "flops_share": big["flops"] / gpu.peak_bf16},
        "break_even_ratio": switch_even / switch if switch > 0 else None,
    }
    return Exhibit(summary=summary, series=series, table=table, animation=animation, problems=problems,
                   records=records)


__all__ = [
    "Profile", "Geometry", "SearchBound", "h100_geometry", "placements", "is_valid", "valid_configurations",
    "maximal_configurations", "maximal_layouts", "as_multiset", "fit", "largest_equal_share", "sms_needed",
    "profile_memory", "smallest_profile", "pack_first_fit", "pack_time_sliced", "rotation_before", "latency_base",
    "timeslice_latency", "latency_mixture", "mixture_mean", "mixture_max", "mixture_cdf", "mixture_quantile",
    "simulate_rotation", "mig_vs_timeslicing",
]
