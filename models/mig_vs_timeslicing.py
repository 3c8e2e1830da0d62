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
memory adds up to no more than the GPU's (what CUDA can allocate, 79.11 GiB,
a little under the 81559 MiB nvidia-smi reports and above the datasheet's "80
GB" read as 10⁹-byte GB), with nothing enforcing it,
and packs again with each tenant's CUDA context counted. The
time-slicing modelled is Kubernetes time-slicing (the GPU Operator's replicas:
CUDA contexts taking turns, no memory cap); vGPU's time-sliced mode (a frame
buffer per VM, documented schedulers) and MPS are described on the page, not
modelled, except that vGPU's fixed-share scheduler is the all-busy case here.

**Latency.** A tenant's request needs W seconds of the whole GPU, on which it
can keep S_eff SMs busy (an assumption, swept: small inference requests often
cannot fill all S₀). On a MIG instance with S SMs it takes W·max(1, S_eff/S),
whatever the other tenants do (compute-bound; a memory-bound request scales with the memory
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
from functools import lru_cache

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


def profile_memory(p: Profile, gpu: GPU, geo: Geometry, total: float | None = None) -> float:
    """Bytes of a profile: its share of the memory slices times the GPU's HBM (the profile's nominal size),
    or times `total` bytes if given."""
    return (gpu.hbm_capacity if total is None else total) * p.memory / geo.memory_slices


def smallest_profile(memory: float, sms: int, gpu: GPU, geo: Geometry, total: float | None = None) -> Profile | None:
    """The profile with the fewest SMs (then the least memory) that covers both needs (profiles sized as in
    profile_memory)."""
    ok = [p for p in geo.base_profiles if p.sms >= sms and profile_memory(p, gpu, geo, total) >= memory]
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


def turn_compute(usable_sms: int, gpu: GPU, geo: Geometry) -> float:
    """FLOP/s a tenant gets during its time-sliced turn when its work occupies S_eff SMs: S_eff (at most the
    GPU's) times the per-SM peak. Its GPU time is then flops / turn_compute."""
    return gpu.peak_bf16 / geo.sms * min(int(usable_sms), geo.sms)


def pack_time_sliced(memory: list[float], flops: list[float], gpu: GPU, capacity: float,
                     compute: float | None = None) -> list[list[int]] | None:
    """Tenants onto shared GPUs, first-fit decreasing by memory: memory must add up to no more than
    `capacity` (bytes) and the tenants' GPU time, flops / `compute` each (`compute`: the FLOP/s a tenant gets
    in its turn, the GPU's peak unless given), to no more than all of it (nothing enforces either). None when
    one tenant alone needs more than all of a GPU's time."""
    compute = gpu.peak_bf16 if compute is None else compute
    if max(flops) > compute:
        return None
    order = sorted(range(len(memory)), key=lambda i: (-memory[i], i))
    bins: list[list[int]] = []
    for i in order:
        for b in bins:
            if (sum(memory[j] for j in b) + memory[i] <= capacity
                    and sum(flops[j] for j in b) + flops[i] <= compute):
                b.append(i)
                break
        else:
            bins.append([i])
    return bins


def gpus_by_usable_sms(mem: list[float], flops: list[float], need_sms: list[int], n_mig: int, gpu: GPU,
                       geo: Geometry, capacity: float) -> list[dict]:
    """GPUs each sharing needs at every whole S_eff from 1 to the GPU's SMs, when a tenant's work occupies
    S_eff SMs at a time. Time-sliced: packed again with each tenant's GPU time at flops / (S_eff × per-SM peak).
    MIG: an instance of S SMs delivers min(S_eff, S) SMs' worth, so the same profiles serve every tenant
    while S_eff covers each tenant's need (the packing does not move: n_mig); below that no instance serves
    the largest tenant (None), nor does a whole GPU's time (the time-sliced packing is None too)."""
    rows = []
    for s_eff in range(1, geo.sms + 1):
        ts = pack_time_sliced(mem, flops, gpu, capacity, turn_compute(s_eff, gpu, geo))
        rows.append({"usable_sms": s_eff, "mig": n_mig if max(need_sms) <= s_eff else None,
                     "timeslice": len(ts) if ts is not None else None,
                     "timeslice_lower": math.ceil(sum(flops) / turn_compute(s_eff, gpu, geo) - 1e-9)})
    return rows


def gpu_count_segments(rows: list[dict]) -> list[dict]:
    """The S_eff ranges over which both GPU counts stay the same: lo, hi, MIG's and time-slicing's count and
    which needs fewer ('timeslice', 'tie', 'mig'; 'neither' where no sharing serves the mix)."""
    segs: list[dict] = []
    for r in rows:
        key = (r["mig"], r["timeslice"])
        if segs and (segs[-1]["mig"], segs[-1]["timeslice"]) == key:
            segs[-1]["hi"] = r["usable_sms"]
            continue
        m, t = key
        fewer = ("neither" if m is None or t is None else "timeslice" if t < m else "mig" if m < t else "tie")
        segs.append({"lo": r["usable_sms"], "hi": r["usable_sms"], "mig": m, "timeslice": t, "fewer": fewer})
    return segs


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
    return float(mixture_quantiles([mix], q)[0])


def mixture_quantiles(mixes: list[dict], q: float) -> np.ndarray:
    """mixture_quantile of each of `mixes` (same tenant count), bisected side by side: one array
    step per bisection step for all of them, the same arithmetic per mixture."""
    lo, width = np.array([m["lo"] for m in mixes]), np.array([m["width"] for m in mixes])
    pmf = np.array([m["pmf"] for m in mixes])
    a, b = lo.min(axis=1), (lo + width).max(axis=1)
    with np.errstate(divide="ignore", invalid="ignore"):
        for _ in range(QUANTILE_STEPS):
            mid = 0.5 * (a + b)
            x = mid[:, None]
            part = np.where(width > 0, np.clip((x - lo) / np.where(width > 0, width, 1.0), 0.0, 1.0),
                            (x >= lo) * 1.0)
            above = np.sum(pmf * part, axis=-1) >= q
            a, b = np.where(above, a, mid), np.where(above, mid, b)
    return b


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


# --- the scene's data: the geometry ----------------------------------------------


def layout_rows(layouts, geo: Geometry) -> list[dict]:
    """One row per maximal layout: its instances, the SMs and slices they own, and one placement of it."""
    rows = []
    for m in layouts:
        names = [n for n, c in m for _ in range(c)]
        sms = sum(geo.profile(n).sms for n in names)
        mem = sum(geo.profile(n).memory for n in names)
        comp = sum(geo.profile(n).compute for n in names)
        rows.append({"layout": " + ".join(f"{c}× {n}" if c > 1 else n for n, c in m),
                     "instances": len(names), "sms": sms, "idle_sms": geo.sms - sms,
                     "compute_slices": comp, "memory_slices": mem,
                     "placement": [list(x) for x in sorted(fit(names, geo), key=lambda t: t[1])]})
    return rows


def dead_end_example(dead_ends, geo: Geometry) -> dict:
    """The smallest dead end: its placement, the smallest profile that no longer fits, and a placement
    of the same instances that leaves it room."""
    ex = min(dead_ends, key=lambda c: (len(c), c))
    ex_names = [n for n, _ in ex]
    ex_extra = next(p.name for p in sorted(geo.base_profiles, key=lambda p: p.sms)
                    if fit([*ex_names, p.name], geo) is not None)
    return {"placement": [list(x) for x in sorted(ex, key=lambda t: t[1])], "extra": ex_extra,
            "better": [list(x) for x in sorted(fit([*ex_names, ex_extra], geo), key=lambda t: t[1])]}


@lru_cache(maxsize=4)
def _enumeration(geo: Geometry) -> tuple[tuple, tuple, tuple]:
    """The maximal configurations, maximal layouts and valid configurations of `geo`: the search takes
    most of a model run and depends on the geometry alone, which an Explore panel's stops share."""
    return tuple(maximal_configurations(geo)), tuple(maximal_layouts(geo)), tuple(valid_configurations(geo))


def geometry_study(geo: Geometry) -> dict:
    """Every valid and maximal set of instances, the maximal layouts, the dead ends; with the claims
    the page makes of them (each profile's instance count, the SMs and slices each split leaves)."""
    maximal, layouts, valid = (list(x) for x in _enumeration(geo))
    out = {"place": {p.name: list(placements(p, geo)) for p in geo.profiles}, "maximal": maximal,
           "valid": valid, "layouts": layouts}
    out["dead_ends"] = [c for c in maximal if as_multiset(c) not in set(layouts)]
    check(out["dead_ends"], "a poor placement order can strand slices that a better order would use")
    out["dead_end_example"] = dead_end_example(out["dead_ends"], geo)
    max_inst = {p.name: max(sum(1 for n, _ in c if n == p.name) for c in maximal) for p in geo.base_profiles}
    check(all(max_inst[p.name] == p.max_instances for p in geo.base_profiles),
          "the search finds each profile's instance count in the guide's table")
    rows = out["rows"] = layout_rows(layouts, geo)
    out["idle"] = [r["idle_sms"] for r in rows]
    full = next(r for r in rows if r["instances"] == 1)
    check(full["idle_sms"] == 0, "only the whole-GPU profile uses every SM")
    check(min(r["idle_sms"] for r in rows if r["instances"] > 1) > 0,
          "every split leaves SMs that no instance owns")
    seven = out["seven"] = next(r for r in rows if r["layout"] == f"{geo.max_instances}× 1g.10gb")
    check(seven["memory_slices"] < geo.memory_slices, "seven 1g.10gb instances leave a memory slice unused")
    three_three = out["three_three"] = next((r for r in rows if r["layout"] == "2× 3g.40gb"), None)
    check(three_three is not None and three_three["compute_slices"] < geo.compute_slices,
          "two 3g.40gb instances leave a compute slice unused")
    return out


# --- the scene's data: packing the tenant mix ---------------------------------------


def tenant_profiles(mem: list[float], need_sms: list[int], gpu: GPU, geo: Geometry, tenant_memory) -> list[Profile]:
    """Each tenant's smallest covering profile; ParamError for a tenant no profile holds."""
    chosen = []
    for i, (m_, s_) in enumerate(zip(mem, need_sms, strict=True)):
        p = smallest_profile(m_, s_, gpu, geo)
        if p is None:
            raise ParamError("tenant_memory", tenant_memory, f"tenant {i + 1} needs more than one whole GPU")
        chosen.append(p)
    return chosen


def seat_tenants(tenant_rows: list[dict], mig_gpus) -> None:
    """Which tenant sits where (its GPU and start slot, written into its row): tenants of one profile
    fill that profile's instances in order."""
    pool: dict[str, list[tuple[int, int]]] = {}
    for g, lay in enumerate(mig_gpus):
        for n, s in lay:
            pool.setdefault(n, []).append((g, s))
    for r in tenant_rows:
        g, s = pool[r["profile"]].pop(0)
        r["gpu"], r["start"] = g + 1, s


def packing_study(gpu: GPU, geo: Geometry, tenant_memory, tenant_flops) -> dict:
    """The tenant mix on whole GPUs, on MIG instances (first-fit decreasing) and time-sliced: GPUs
    used, the SMs and memory each leaves idle, and who sits where; with the packing claims."""
    mem = [float(x) for x in tenant_memory]
    flops = [float(x) for x in tenant_flops]
    need_sms = [sms_needed(f, gpu, geo) for f in flops]
    chosen = tenant_profiles(mem, need_sms, gpu, geo, tenant_memory)
    mig_gpus = pack_first_fit([p.name for p in chosen], geo)
    # time-slicing shares the memory CUDA can allocate (79.11 GiB on an H100 80GB, a user's report), a little
    # under the 81559 MiB nvidia-smi reports; in bytes like the needs
    reported = CONSTANTS["h100_reported_memory"].value
    cuda = CONSTANTS["h100_cuda_visible_memory"].value
    context = CONSTANTS["cuda_sample_process_memory"].value
    check(gpu.hbm_capacity < cuda < reported, "CUDA can allocate a little less than nvidia-smi reports")
    ts_bins = pack_time_sliced(mem, flops, gpu, cuda)
    out = {"mem": mem, "flops": flops, "mig_gpus": mig_gpus, "ts_bins": ts_bins,
           "n_mig": len(mig_gpus), "n_ts": len(ts_bins), "n_whole": len(mem),
           "lower": max(math.ceil(sum(p.compute for p in chosen) / geo.compute_slices),
                        math.ceil(sum(p.memory for p in chosen) / geo.memory_slices)),
           "alloc_sms": sum(p.sms for p in chosen), "total_need_sms": sum(need_sms),
           "demand": sum(flops), "sm_peak": gpu.peak_bf16 / geo.sms, "capacity": gpu.hbm_capacity,
           "reported": reported, "cuda": cuda, "context": context}
    out["shares"] = {
        kind: {"gpus": n, "sm_share": out["total_need_sms"] / (n * geo.sms),
               "memory_share": sum(mem) / (n * gpu.hbm_capacity)}
        for kind, n in (("whole", out["n_whole"]), ("mig", out["n_mig"]), ("timeslice", out["n_ts"]))
    }
    check(out["n_mig"] < out["n_whole"], "MIG hosts the mix on fewer GPUs than one GPU per tenant")
    check(out["n_mig"] == out["lower"], "first-fit packing reaches the lower bound: no packing uses fewer GPUs")
    check(out["n_ts"] <= out["n_mig"], "time-slicing packs tighter still")
    out["nominal_1g"] = profile_memory(geo.profile("1g.10gb"), gpu, geo)
    out["reported_1g"] = CONSTANTS["h100_mig_1g10gb_reported_memory"].value
    check(out["nominal_1g"] <= out["reported_1g"],
          "a 1g.10gb instance holds at least the memory slice's nominal share the model sizes instances by")
    # MIG packs against the nominal 10 GB a slice, time-slicing against what CUDA sees: sized instead at
    # 1/8 of nvidia-smi's total a slice (more than the listing gives any profile), would a tenant get a
    # smaller profile? If none does, the two packings' different memory readings do not move the answer
    check(out["reported_1g"] <= reported / geo.memory_slices,
          "a memory slice's share of nvidia-smi's total is at least the 1g.10gb instance's listed memory")
    generous = [smallest_profile(m_, s_, gpu, geo, reported) for m_, s_ in zip(mem, need_sms, strict=True)]
    out["profiles_changed_generous"] = sum(a.name != b.name for a, b in zip(chosen, generous, strict=True))
    check(out["profiles_changed_generous"] == 0,
          "sized at a slice's share of nvidia-smi's total instead of the nominal 10 GB, no tenant's profile changes")
    out["tenant_rows"] = [{"tenant": i + 1, "memory": mem[i], "flops": flops[i], "sms": need_sms[i],
                           "profile": chosen[i].name, "profile_sms": chosen[i].sms,
                           "profile_memory": profile_memory(chosen[i], gpu, geo)} for i in range(len(mem))]
    out["gpu_rows"] = []
    for g, lay in enumerate(mig_gpus):
        owned = sum(geo.profile(n).sms for n, _ in lay)
        out["gpu_rows"].append({"gpu": g + 1, "placement": [list(x) for x in lay], "owned_sms": owned,
                                "unowned_sms": geo.sms - owned})
    seat_tenants(out["tenant_rows"], mig_gpus)
    out["unowned"] = sum(r["unowned_sms"] for r in out["gpu_rows"])
    out["slack"] = out["alloc_sms"] - out["total_need_sms"]
    out["ts_memory"] = [sum(mem[j] for j in b) for b in ts_bins]
    # what each shared GPU's tenants ask of it: SMs at the per-SM peak, and the memory left per CUDA context
    # for the contexts' own overhead, which the packing does not count
    out["ts_sms"] = [sum(need_sms[j] for j in b) for b in ts_bins]
    out["ts_spare_per_context"] = [(cuda - out["ts_memory"][i]) / len(b) for i, b in enumerate(ts_bins)]
    # the same against nvidia-smi's total, which CUDA cannot all allocate: the threshold both ways
    out["ts_spare_per_context_smi"] = [(reported - out["ts_memory"][i]) / len(b) for i, b in enumerate(ts_bins)]
    # the packing again with each tenant's CUDA context counted, at the footprint of NVIDIA's small sample
    # process (an MPS client: context and its own buffers): does the mix still fit on as many shared GPUs?
    out["n_ts_ctx"] = len(pack_time_sliced([m + context for m in mem], flops, gpu, cuda))
    # and on the datasheet's 80 GB read as 80×10⁹ bytes, the reading this page used before (the tenants'
    # own memory alone): how many GPUs that would take
    out["n_ts_datasheet"] = len(pack_time_sliced([m + context for m in mem], flops, gpu, gpu.hbm_capacity))
    # MIG too: each tenant's context lives in its own instance. The fullest instance (least memory beyond its
    # tenant's, at the nominal size) against the same footprint, and the packing again with it counted
    spare = [profile_memory(p_, gpu, geo) - m_ for p_, m_ in zip(chosen, mem, strict=True)]
    tight = int(np.argmin(spare))
    out["mig_tight_tenant"], out["mig_min_spare"] = tight + 1, spare[tight]
    ctx_profiles = tenant_profiles([m_ + context for m_ in mem], need_sms, gpu, geo, tenant_memory)
    out["n_mig_ctx"] = len(pack_first_fit([p_.name for p_ in ctx_profiles], geo))
    check(out["mig_min_spare"] > context and out["n_mig_ctx"] == out["n_mig"],
          "each MIG instance has room for its tenant's context: the mix still takes as many GPUs")
    # the counts above hold when each tenant fills all the GPU's SMs in its turn (S_eff = S₀); one that fills
    # S_eff needs flops / (S_eff × per-SM peak) of GPU time: both counts at every S_eff
    out["by_usable"] = gpus_by_usable_sms(mem, flops, need_sms, out["n_mig"], gpu, geo, cuda)
    out["segments"] = gpu_count_segments(out["by_usable"])
    full = out["by_usable"][-1]
    check(full["mig"] == out["n_mig"] and full["timeslice"] == out["n_ts"],
          "the GPU counts are those of tenants that fill the whole GPU in their turn")
    return out


# --- the scene's data: latency, time-slicing against a MIG instance -----------------


def break_even_switch(tenants: int, work: float, quantum: float, mig_lat: float) -> float:
    """The switch cost at which saturated time-slicing's worst case reaches the MIG latency: L_max is
    linear in c, so two evaluations give it (infinite for one tenant)."""
    l0 = latency_base(tenants - 1, work, quantum, 0.0) + rotation_before(tenants - 1, quantum, 0.0)
    slope = (latency_base(tenants - 1, work, quantum, 1.0) + rotation_before(tenants - 1, quantum, 1.0)
             - l0) if tenants > 1 else 0.0
    return (mig_lat - l0) / slope if slope > 0 else math.inf


def monte_carlo_agreement(mix: dict, mean: float, lat: np.ndarray, trials: int) -> dict:
    """The simulated latencies against the mixture: the mean's z-score and the Kolmogorov-Smirnov
    distance, each checked against its limit."""
    mc_mean, mc_se = float(lat.mean()), float(lat.std(ddof=1) / math.sqrt(trials))
    z = (mc_mean - mean) / mc_se if mc_se > 0 else 0.0
    check(abs(z) <= Z_CHECK, "a seeded simulation of the rotation agrees with the formula")
    probe = np.quantile(lat, np.linspace(0.01, 0.99, 99))
    ks = float(np.max(np.abs(np.mean(lat[:, None] <= probe, axis=0) - mixture_cdf(mix, probe))))
    ks_limit = KS_99 / math.sqrt(trials)
    check(ks <= ks_limit, "the simulated distribution matches the mixture")
    return {"mean": mc_mean, "se": mc_se, "z": z, "ks": ks, "ks_limit": ks_limit}


def mig_latency(work: float, usable_sms: float, share_sms: int, gpu_sms: int) -> float:
    """A compute-bound request on a MIG instance of S SMs: W·max(1, S_eff/S), with S_eff the SMs the
    request can use (at most the GPU's). W is its time on the whole GPU, where it runs on S_eff SMs."""
    return work * max(1.0, min(float(usable_sms), gpu_sms) / share_sms)


def latency_study(geo: Geometry, tenants: int, work: float, quantum: float, switch: float, busy: float,
                  trials: int, rng: np.random.Generator, usable_sms: int) -> dict:
    """A request's latency on the largest equal MIG share and time-sliced among `tenants`: the
    mixture's mean, quantiles and extremes, the saturated case, the break-even switch cost and the
    seeded simulation that must agree; with the latency claims."""
    share = largest_equal_share(tenants, geo)
    if share is None:
        raise ParamError("tenants", tenants, f"at most {geo.max_instances} (MIG instances on one GPU)")
    mix = latency_mixture(tenants, busy, work, quantum, switch)
    sat = latency_mixture(tenants, 1.0, work, quantum, switch)
    out = {"share": share, "mig_lat": mig_latency(work, usable_sms, share.sms, geo.sms),
           "mig_lat_mem": work * geo.memory_slices / share.memory,
           "mix": mix, "mean": mixture_mean(mix), "p50": mixture_quantile(mix, 0.5),
           "p99": mixture_quantile(mix, 0.99), "worst": mixture_max(mix),
           "best": float(np.min(mix["lo"][mix["pmf"] > 0])), "sat": sat, "sat_mean": mixture_mean(sat)}
    out["n_sl"], out["r_sl"] = _slices(work, quantum)
    out["switch_even"] = break_even_switch(tenants, work, quantum, out["mig_lat"])
    out["lat"] = simulate_rotation(tenants, busy, work, quantum, switch, trials, rng)["latency"]
    out["mc"] = monte_carlo_agreement(mix, out["mean"], out["lat"], trials)
    check(out["worst"] > 2 * out["best"], "under time-slicing a tenant's latency depends on what its neighbours do")
    check(out["best"] == work, "with idle neighbours a time-sliced tenant has the whole GPU")
    check(out["sat_mean"] < out["mig_lat"],
          "with these assumptions time-slicing is faster on average than the MIG slice")
    check(switch < out["switch_even"],
          "time-slicing's worst case stays under the MIG latency while c is below the limit")
    check(out["p99"] > out["p50"], "the tail is longer than the median")
    return out


def assumption_sweeps(tenants: int, work: float, quantum: float, switch: float, busy: float,
                      switch_sweep: list, quantum_sweep: list, busy_sweep: list, mig_lat: float) -> dict:
    """How the comparison moves with the assumed c, q and u: the mixture's mean, tail and worst case
    at each swept value (the assumed one among them), with the claims on the sweeps."""
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
    return {"switch": sweep, "quantum": q_sweep, "busy": u_sweep}


def usable_sms_sweep_rows(geo: Geometry, share: Profile, usable_sweep: list, usable_sms: int, mix: dict,
                          work: float, by_usable: list[dict], segments: list[dict]) -> list[dict]:
    """How the MIG latency moves with the SMs a request can use, S_eff, against the time-sliced
    distribution (which does not depend on S_eff: each turn has the whole GPU). `ts_faster` is the share
    of time-sliced requests that finish sooner than the MIG one. The two whole S_eff either side of the
    crossover S·mean/W join the swept ones (`crossover` marks them), so the table shows where MIG stops
    winning on average; so do the two either side of each change in the GPU counts (`count_change`), each
    row with the GPUs MIG and time-slicing need for the mix at that S_eff (from `by_usable`)."""
    for s_eff in {int(x) for x in usable_sweep} | {int(usable_sms)}:
        if not 1 <= s_eff <= geo.sms:
            raise ParamError("usable_sms_sweep", s_eff, f"SM counts between 1 and {geo.sms}")
    wins = usable_sms_mig_wins(usable_sms_crossover(mixture_mean(mix), work, share.sms), geo.sms)
    near = {x for x in ((wins, wins + 1) if wins else ()) if x <= geo.sms}
    changes = {x for sg in segments[1:] for x in (sg["lo"] - 1, sg["lo"])}
    rows = []
    for s_eff in sorted(set(int(x) for x in usable_sweep) | {int(usable_sms)} | near | changes):
        lat = mig_latency(work, s_eff, share.sms, geo.sms)
        gpus = by_usable[s_eff - 1]
        rows.append({"usable_sms": s_eff, "mig": lat, "ts_faster": share_done_by(mix, lat),
                     "mig_below_mean": lat < mixture_mean(mix), "mig_below_p99": lat < mixture_quantile(mix, 0.99),
                     "assumed": s_eff == int(usable_sms), "crossover": s_eff in near,
                     "count_change": s_eff in changes, "mig_gpus": gpus["mig"], "timeslice_gpus": gpus["timeslice"]})
    check(rows[0]["mig"] <= rows[-1]["mig"], "a request that can use fewer SMs loses less on a small MIG slice")
    return rows


def tenants_sweep_rows(geo: Geometry, tenants_sweep: list, tenants: int, work: float, quantum: float,
                       switch: float, busy: float, usable_sms: int) -> list[dict]:
    """How the comparison moves with the tenant count k, which picks the MIG share (the largest profile
    of which k instances fit) and sets the rotation: at each swept k, the MIG latency at the page's S_eff
    against time-slicing's mean, 99th percentile and worst case, and the switch cost at which the worst
    case reaches the MIG latency."""
    rows = []
    for k in sorted(set(int(x) for x in tenants_sweep) | {int(tenants)}):
        share = largest_equal_share(k, geo) if k >= 2 else None
        if share is None:
            raise ParamError("tenants_sweep", k, f"tenant counts between 2 and {geo.max_instances}")
        mx = latency_mixture(k, busy, work, quantum, switch)
        lat = mig_latency(work, usable_sms, share.sms, geo.sms)
        rows.append({"tenants": k, "profile": share.name, "sms": share.sms, "idle_sms": geo.sms - k * share.sms,
                     "mig": lat, "mean": mixture_mean(mx), "p99": mixture_quantile(mx, 0.99),
                     "worst": mixture_max(mx), "switch_even": break_even_switch(k, work, quantum, lat),
                     "assumed": k == int(tenants)})
    return rows


def limit_claims(tenants: int, busy: float, work: float, quantum: float, switch: float) -> float:
    """The two limits, checked: one tenant alone has the whole GPU; tiny slices and free switches share
    it k ways. Returns the second's mean over k·W."""
    lim_one = latency_mixture(1, busy, work, quantum, switch)
    check(abs(mixture_mean(lim_one) - work) < 1e-12 * work, "one tenant alone: time-slicing is the whole GPU")
    ps = latency_mixture(tenants, 1.0, work, work / 4096, 0.0)
    check(abs(mixture_mean(ps) / (tenants * work) - 1) < 2e-3,
          "tiny slices and free switches: each of k tenants gets 1/k of the GPU")
    return mixture_mean(ps) / (tenants * work)


# --- the scene's data: series, summary, records, animation, table -------------------


def latency_series(lat: dict, tenants: int, work: float, quantum: float, busy: float, switch: float,
                   switch_sweep: list, trials: int) -> dict:
    """The CDF of the latency (analytic, saturated, simulated) and the latency against a dense c."""
    xs = np.linspace(0.0, max(lat["worst"], lat["mig_lat"], lat["mig_lat_mem"]) * 1.05, 301)
    cdf = mixture_cdf(lat["mix"], xs)
    cdf_sat = mixture_cdf(lat["sat"], xs)
    emp = np.searchsorted(np.sort(lat["lat"]), xs, side="right") / trials
    switch_even = lat["switch_even"]
    c_dense = np.linspace(0.0, max(max(float(x) for x in switch_sweep), 2 * switch_even
                                   if math.isfinite(switch_even) else switch), 121)
    mixes = [latency_mixture(tenants, busy, work, quantum, float(c)) for c in c_dense]
    d_mean, d_worst = [mixture_mean(mx) for mx in mixes], [mixture_max(mx) for mx in mixes]
    d_p99 = [float(x) for x in mixture_quantiles(mixes, 0.99)]
    return {
        **curves("latency", xs, cdf=cdf, cdf_saturated=cdf_sat, cdf_mc=emp),
        **curves("switch_dense", c_dense, sweep_mean=d_mean, sweep_p99=d_p99, sweep_worst=d_worst),
    }


def share_done_by(mix: dict, t: float) -> float:
    """The share of time-sliced requests finished by time t, with the pmf's float noise (a sum of
    1 − 3×10⁻¹⁶ where every request is done, which would print as '100.0%' beside '100%') rounded away."""
    return round(float(mixture_cdf(mix, np.array([t]))[0]), 12)


def usable_sms_crossover(ts_mean: float, work: float, share_sms: int) -> float:
    """The S_eff at which the MIG latency equals time-slicing's mean. Above the instance's S SMs the MIG
    latency is W·S_eff/S, so it equals the mean at S_eff = S·mean/W; below that S_eff MIG is faster on
    average. A mean of W or less (neighbours never busy) is never beaten: 0."""
    return share_sms * ts_mean / work if ts_mean > work else 0.0


def usable_sms_mig_wins(crossover: float, gpu_sms: int) -> int | None:
    """The largest whole S_eff (at most the GPU's SMs) at which MIG is strictly faster than the time-sliced
    mean, from the crossover S·mean/W; None when there is none. A crossover within rounding of a whole
    number is that number (a tie is not a win)."""
    wins = min(gpu_sms, math.ceil(crossover * (1 - 1e-9)) - 1)
    return wins if wins >= 1 else None


def usable_sms_summary(share: Profile, mix: dict, work: float, gpu_sms: int) -> dict:
    """Where MIG stops beating time-slicing on average as S_eff grows: the crossover S·mean/W from the
    model's own formula (not a point of the sweep grid), the largest whole S_eff below it, the MIG latency
    there and the share of time-sliced requests still faster (None values when no S_eff wins)."""
    cross = usable_sms_crossover(mixture_mean(mix), work, share.sms)
    wins = usable_sms_mig_wins(cross, gpu_sms)
    lat = mig_latency(work, wins, share.sms, gpu_sms) if wins else None
    check(wins is None or lat < mixture_mean(mix) * (1 + 1e-9)
          and (wins == gpu_sms or mixture_mean(mix) <= mig_latency(work, wins + 1, share.sms, gpu_sms) * (1 + 1e-9)),
          "MIG is faster on average up to the crossover S_eff, not beyond it")
    return {"usable_sms_crossover": cross, "usable_sms_mig_wins": wins, "mig_latency_at_usable_win": lat,
            "ts_faster_at_usable_win": share_done_by(mix, lat) if wins else None}


def gpu_count_summary(segments: list[dict], by_usable: list[dict], usable: dict) -> dict:
    """Where the GPU counts hold as S_eff falls: the smallest S_eff at which both sharings serve the mix, the
    S_eff from which time-slicing needs fewer GPUs than MIG all the way up (None if it does not at the top), and
    whether, at every S_eff where MIG is faster on average and both serve the mix, MIG needs no more GPUs."""
    served = [r["usable_sms"] for r in by_usable if r["mig"] is not None and r["timeslice"] is not None]
    top = segments[-1]
    wins = usable["usable_sms_mig_wins"] or 0
    where_faster = [r for r in by_usable if r["usable_sms"] <= wins and r["usable_sms"] in set(served)]
    return {"gpu_count_served_from": min(served) if served else None,
            "timeslice_fewer_from": top["lo"] if top["fewer"] == "timeslice" else None,
            "mig_packs_as_tight_where_faster": bool(where_faster)
            and all(r["mig"] <= r["timeslice"] for r in where_faster)}


def tenants_sweep_summary(rows: list[dict]) -> dict:
    """Whether time-slicing's worst case stays under the MIG latency at every swept k, and the k where the
    margin is thinnest (the smallest break-even switch cost)."""
    thin = min(rows, key=lambda r: (r["switch_even"], r["tenants"]))
    return {"tenants_worst_below_mig_all": all(r["worst"] < r["mig"] for r in rows),
            "tenants_worst_above_mig": sum(r["worst"] >= r["mig"] for r in rows),
            "tenants_sweep_min": min(r["tenants"] for r in rows), "tenants_sweep_max": max(r["tenants"] for r in rows),
            "tenants_thinnest": thin["tenants"], "tenants_thinnest_switch_even": thin["switch_even"]}


def scene_summary(geo: Geometry, g: dict, pk: dict, lat: dict, ps_ratio: float) -> dict:
    """The page's numbers: the geometry `g`, the packing `pk`, the latency `lat`."""
    seven, three_three, mc, shares = g["seven"], g["three_three"], lat["mc"], pk["shares"]
    return {
        "compute_slices": geo.compute_slices, "memory_slices": geo.memory_slices, "gpu_sms": geo.sms,
        "valid_configurations": len(g["valid"]), "maximal_placements": len(g["maximal"]),
        "maximal_layouts": len(g["layouts"]), "dead_end_placements": len(g["dead_ends"]),
        "most_idle_sms": max(g["idle"]), "seven_way_sms": seven["sms"], "seven_way_idle_sms": seven["idle_sms"],
        "three_three_idle_sms": three_three["idle_sms"],
        "seven_way_idle_memory_slices": geo.memory_slices - seven["memory_slices"],
        "three_three_idle_compute_slices": geo.compute_slices - three_three["compute_slices"],
        "tenant_count": len(pk["mem"]), "tenant_sms": pk["total_need_sms"], "tenant_memory": sum(pk["mem"]),
        "tenant_flops": pk["demand"], "sm_peak": pk["sm_peak"],
        "mig_gpus": pk["n_mig"], "whole_gpus": pk["n_whole"], "timeslice_gpus": pk["n_ts"],
        "mig_lower_bound": pk["lower"],
        "mig_sm_share": shares["mig"]["sm_share"], "whole_sm_share": shares["whole"]["sm_share"],
        "timeslice_sm_share": shares["timeslice"]["sm_share"],
        "mig_memory_share": shares["mig"]["memory_share"], "whole_memory_share": shares["whole"]["memory_share"],
        "mig_allocated_sms": pk["alloc_sms"], "mig_unowned_sms": pk["unowned"], "mig_slack_sms": pk["slack"],
        "mig_idle_sms": pk["unowned"] + pk["slack"], "timeslice_max_memory": max(pk["ts_memory"]),
        "timeslice_max_sms": max(pk["ts_sms"]), "timeslice_max_sm_load": max(pk["ts_sms"]) / geo.sms,
        # the contexts on the GPU that leaves each the least spare memory
        "timeslice_tight_contexts": len(pk["ts_bins"][int(np.argmin(pk["ts_spare_per_context"]))]),
        "timeslice_min_spare_per_context": min(pk["ts_spare_per_context"]),
        "timeslice_min_spare_per_context_smi": min(pk["ts_spare_per_context_smi"]),
        "hbm_capacity": pk["capacity"], "reported_memory": pk["reported"], "cuda_memory": pk["cuda"],
        "context_memory": pk["context"],
        "mig_1g_nominal_memory": pk["nominal_1g"], "mig_1g_reported_memory": pk["reported_1g"],
        "mig_slice_memory_generous": pk["reported"] / geo.memory_slices,
        "mig_profiles_changed_generous": pk["profiles_changed_generous"],
        "mig_tight_tenant": pk["mig_tight_tenant"], "mig_min_spare": pk["mig_min_spare"],
        "mig_gpus_with_contexts": pk["n_mig_ctx"],
        "timeslice_gpus_with_contexts": pk["n_ts_ctx"], "timeslice_gpus_datasheet_contexts": pk["n_ts_datasheet"],
        "share_profile": lat["share"].name, "share_sms": lat["share"].sms,
        "share_memory_slices": lat["share"].memory,
        "mig_latency": lat["mig_lat"], "mig_latency_memory_bound": lat["mig_lat_mem"],
        "slices_per_request": lat["n_sl"], "last_slice": lat["r_sl"],
        "ts_best": lat["best"], "ts_worst": lat["worst"], "ts_mean": lat["mean"], "ts_p50": lat["p50"],
        "ts_p99": lat["p99"], "ts_saturated_mean": lat["sat_mean"], "ts_saturated_worst": mixture_max(lat["sat"]),
        "ts_alone_share": float(lat["mix"]["pmf"][0]),
        "switch_break_even": lat["switch_even"],
        "mc_mean": mc["mean"], "mc_se": mc["se"], "mc_z": float(mc["z"]), "mc_ks": mc["ks"],
        "mc_ks_limit": mc["ks_limit"], "mc_z_check": Z_CHECK,
        "ps_limit_ratio": ps_ratio,
    }


def scene_records(gpu: GPU, geo: Geometry, g: dict, pk: dict, mix: dict, sweeps: dict) -> dict:
    """The page's lists: profiles, layouts, tenants, GPUs under each sharing, the sweeps, the mixture."""
    return {
        "profiles": [{"name": p.name, "compute": p.compute, "memory": p.memory, "sms": p.sms,
                      "max_instances": p.max_instances, "memory_bytes": profile_memory(p, gpu, geo),
                      "starts": g["place"][p.name]} for p in geo.profiles],
        "layouts": g["rows"],
        "tenants": pk["tenant_rows"],
        "mig_gpus": pk["gpu_rows"],
        "timeslice_gpus": [{"gpu": i + 1, "tenants": [j + 1 for j in b], "memory": pk["ts_memory"][i],
                            "sms": pk["ts_sms"][i], "spare_per_context": pk["ts_spare_per_context"][i]}
                           for i, b in enumerate(pk["ts_bins"])],
        "switch_sweep": sweeps["switch"],
        "quantum_sweep": sweeps["quantum"],
        "busy_sweep": sweeps["busy"],
        "usable_sms_sweep": sweeps["usable"],
        "gpu_count_segments": pk["segments"],
        "tenants_sweep": sweeps["tenants"],
        "dead_end_example": g["dead_end_example"],
        "mixture": {"pmf": mix["pmf"].tolist(), "lo": mix["lo"].tolist(), "width": mix["width"].tolist()},
    }


def animation_plan(geo: Geometry, share: Profile, tenants: int, quantum: float, switch: float,
                   gpu_rows: list[dict]) -> dict:
    """One GPU cut into the equal shares, two rounds of k tenants' turns on one GPU, and the mix's
    first GPU."""
    turns = []
    t = 0.0
    for _ in range(2):
        for j in range(tenants):
            turns.append({"tenant": j, "start": t, "switch": switch, "run": quantum})
            t += switch + quantum
    return {"share_layout": [list(x) for x in fit([share.name] * tenants, geo)], "turns": turns,
            "mix_gpu": gpu_rows[0]["placement"]}


def layouts_table(gpu: GPU, rows_cfg: list[dict]) -> Table:
    return Table(
        f"Maximal MIG layouts of the {gpu.name} (80 GB): instances, SMs owned and SMs no instance owns",
        [Column("layout", "text"), Column("instances", "count"), Column("SMs owned", "count"),
         Column("SMs idle", "count"), Column("compute slices used", "count"), Column("memory slices used", "count")],
        [[r["layout"], r["instances"], r["sms"], r["idle_sms"], r["compute_slices"], r["memory_slices"]]
         for r in rows_cfg],
    )


def worked_problems(gpu: GPU, tenant_rows: list[dict], lat: dict, switch: float) -> dict:
    """The memory-bound slowdown, the largest tenant's idle share of its profile, the break-even ratio."""
    big = max(tenant_rows, key=lambda r: (r["sms"], r["memory"]))
    return {
        "memory_bound_ratio": lat["mig_lat_mem"] / lat["mig_lat"],
        "largest_tenant": {**big, "idle_sms": big["profile_sms"] - big["sms"],
                           "idle_memory": big["profile_memory"] - big["memory"],
                           "flops_share": big["flops"] / gpu.peak_bf16},
        "break_even_ratio": lat["switch_even"] / switch if switch > 0 else None,
    }


# --- the entry function ---------------------------------------------------------------


@model(
    gpu=Param.of(GPU, "GPU shared"),
    tenant_memory=Param.numbers("B", "tenants' memory needs", above=0),
    tenant_flops=Param.numbers("FLOP/s", "tenants' sustained compute needs", above=0),
    # from 2: one tenant shares nothing (no slice to wait for, no break-even switch cost)
    tenants=Param.integer("count", "tenants sharing one GPU (time-slicing replicas)", minimum=2, maximum=16),
    work=Param.positive("s", "request's GPU time on the whole GPU, W"),
    quantum=Param.positive("s", "time slice q (assumed)"),
    switch=Param.number("s", "context-switch cost c (assumed)", minimum=0),
    busy=Param.fraction("chance a neighbour has work during the request, u (assumed)"),
    switch_sweep=Param.numbers("s", "context-switch costs compared", minimum=0),
    quantum_sweep=Param.numbers("s", "time slices compared", above=0),
    busy_sweep=Param.numbers("1", "chances a neighbour has work, compared", minimum=0),
    usable_sms=Param.integer("count", "SMs a request can use, S_eff (assumed)", minimum=1, maximum=1024),
    usable_sms_sweep=Param.numbers("count", "SMs a request can use, compared", minimum=1),
    tenants_sweep=Param.numbers("count", "tenant counts k compared", minimum=2),
    seed=Param.integer("1", "random seed", minimum=0, animation=True),
    trials=Param.integer("count", "Monte Carlo requests", minimum=1000, maximum=1_000_000),
)
def mig_vs_timeslicing(gpu: GPU, tenant_memory: list, tenant_flops: list, tenants: int, work: float,
                       quantum: float, switch: float, busy: float, switch_sweep: list, quantum_sweep: list,
                       busy_sweep: list, seed: int, trials: int = 40_000, usable_sms: int = 132,
                       usable_sms_sweep: tuple = (16, 32, 66, 132), tenants_sweep: tuple = (2, 3, 4, 7)) -> Exhibit:
    """mig-vs-timeslicing's data: the MIG geometry, a tenant mix packed three ways, and a tenant's latency.

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

    geometry = geometry_study(geo)
    packing = packing_study(gpu, geo, tenant_memory, tenant_flops)
    latency = latency_study(geo, tenants, work, quantum, switch, busy, trials, rng, usable_sms)
    sweeps = assumption_sweeps(tenants, work, quantum, switch, busy, switch_sweep, quantum_sweep, busy_sweep,
                               latency["mig_lat"])
    sweeps["usable"] = usable_sms_sweep_rows(geo, latency["share"], usable_sms_sweep, usable_sms, latency["mix"],
                                             work, packing["by_usable"], packing["segments"])
    sweeps["tenants"] = tenants_sweep_rows(geo, tenants_sweep, tenants, work, quantum, switch, busy, usable_sms)
    ps_ratio = limit_claims(tenants, busy, work, quantum, switch)
    usable = usable_sms_summary(latency["share"], latency["mix"], work, geo.sms)
    return Exhibit(
        summary={**scene_summary(geo, geometry, packing, latency, ps_ratio), "usable_sms": int(usable_sms),
                 **usable, **gpu_count_summary(packing["segments"], packing["by_usable"], usable),
                 **tenants_sweep_summary(sweeps["tenants"])},
        series=latency_series(latency, tenants, work, quantum, busy, switch, switch_sweep, trials),
        table=layouts_table(gpu, geometry["rows"]),
        animation=animation_plan(geo, latency["share"], tenants, quantum, switch, packing["gpu_rows"]),
        problems=worked_problems(gpu, packing["tenant_rows"], latency, switch),
        records=scene_records(gpu, geo, geometry, packing, latency["mix"], sweeps),
    )


__all__ = [
    "Profile", "Geometry", "SearchBound", "h100_geometry", "placements", "is_valid", "valid_configurations",
    "maximal_configurations", "maximal_layouts", "as_multiset", "fit", "largest_equal_share", "sms_needed",
    "profile_memory", "smallest_profile", "pack_first_fit", "pack_time_sliced", "turn_compute",
    "gpus_by_usable_sms", "gpu_count_segments", "rotation_before", "latency_base",
    "timeslice_latency", "latency_mixture", "mixture_mean", "mixture_max", "mixture_cdf", "mixture_quantile",
    "simulate_rotation", "mig_vs_timeslicing",
]
