"""NVLink and NVSwitch scale-up: what one NVLink domain carries, and what leaving it costs.

Every bandwidth here carries a direction and a scope. Vendors quote NVLink
bidirectionally (the sum of both directions) and per GPU; a network port is
quoted per direction. The model keeps both conventions apart: a bidirectional
figure is halved to a per-direction one (`per_direction`) before it meets any
time, and only per-direction rates enter a transfer time.

Rates multiply out from the link (NVIDIA's NVLink page; Hopper in-depth):

    per GPU   B_gpu = L * b_link               (L links per GPU, b_link per link)
    aggregate B_agg = p * B_gpu                (p GPUs in the domain, summed)
    bisection B_bis = (p/2) * B_gpu            (non-blocking switches: half the GPUs
                                                send across the cut at full rate)

A domain is non-blocking (HGX H100: every GPU on all four NVSwitch chips, each
switch non-blocking; NVL72: every GPU's 18 links on 18 switch chips in the
NVLink Switch trays), so any permutation of GPU pairs runs at full per-GPU
rate and the switches never bind; the GPU's own links do.

Times, with b = the per-direction rate each GPU injects at and alpha a latency:

    all-to-all:  T_a2a = alpha + (p-1)/p * n / b
        each GPU holds n bytes, keeps 1/p and sends n/p to each of the p-1
        others, all at once; a non-blocking switch delivers them in parallel.
    all-reduce:  T_ar = 2(p-1)(alpha + n/(p b))    (ring; models.collectives.ring_time)

"Over the NICs" is the same p GPUs with one NDR port each (b = the port's
per-direction rate, alpha = NCCL's network step latency): what the traffic
would cost if the GPUs did not share an NVLink domain.

A group of g GPUs larger than the domain D spills: in an all-to-all each GPU
sends n/g to each of g-1 peers; (D-1) of them share its domain (NVLink), g-D
do not (its NIC). Both run at once, so

    T_a2a(g) = alpha + max( (D-1) n/(g b_nvl), (g-D) n/(g b_nic) ),   g > D

and the NIC share (g-D)/g of the bytes decides what fits: a domain of 72 keeps
a 64-way expert-parallel all-to-all on NVLink where a domain of 8 sends 7/8 of
it through 50 GB/s ports.

Pure numpy/stdlib, SI units: bytes, seconds, bytes per second.
"""

from __future__ import annotations

import math

import numpy as np

from models.collectives import ring_time

BIDIRECTIONAL = "bidirectional"
PER_DIRECTION = "per direction"


# ---------------------------------------------------------------------------
# rates: direction and scope
# ---------------------------------------------------------------------------


def per_direction(bidirectional_rate: float) -> float:
    """A bidirectional figure (both directions summed) as the rate one way."""
    return bidirectional_rate / 2.0


def per_gpu(links: int, link_rate: float) -> float:
    """B_gpu = L * b_link; same direction convention as link_rate."""
    if links < 1:
        raise ValueError(f"links must be >= 1, got {links!r}")
    return links * link_rate


def aggregate(gpus: int, gpu_rate: float) -> float:
    """B_agg = p * B_gpu: every GPU's rate summed over the domain."""
    _check_gpus(gpus)
    return gpus * gpu_rate


def bisection(gpus: int, gpu_rate: float) -> float:
    """(p/2) * B_gpu: the rate across a cut into two halves of a non-blocking domain."""
    _check_gpus(gpus)
    return (gpus // 2) * gpu_rate


def switch_count(gpus: int, links_per_gpu: int, ports_per_switch: int) -> int:
    """Switches needed when every GPU link lands on a switch port: ceil(p L / ports)."""
    return math.ceil(gpus * links_per_gpu / ports_per_switch)


# ---------------------------------------------------------------------------
# times
# ---------------------------------------------------------------------------


def alltoall_bytes_sent(n, p: int):
    """Bytes each GPU sends in an all-to-all of n bytes per GPU: (p-1)/p * n."""
    _check_gpus(p)
    return (p - 1) / p * np.asarray(n, dtype=float)


def alltoall_time(n, p: int, rate: float, alpha: float):
    """T = alpha + (p-1)/p * n / b over a non-blocking switch, b per direction."""
    return alpha + alltoall_bytes_sent(n, p) / rate


def allreduce_time(n, p: int, rate: float, alpha: float):
    """Ring all-reduce, 2(p-1)(alpha + n/(p b)): models.collectives.ring_time."""
    return ring_time(n, p, rate, alpha)


def spill_fraction(group: int, domain: int) -> float:
    """Share of an all-to-all's bytes that leave the NVLink domain: max(g-D, 0)/g."""
    _check_gpus(group)
    return max(group - domain, 0) / group


def alltoall_time_spanning(n, group: int, domain: int, rate_nvlink: float, rate_nic: float,
                           alpha_nvlink: float, alpha_net: float):
    """All-to-all of g GPUs packed into NVLink domains of D (g > D spills to NICs).

    Inside one domain: alpha_nvlink + (g-1)/g * n / b_nvl. Across domains, the
    in-domain and out-of-domain sends overlap: alpha_net + max(in/b_nvl, out/b_nic).
    """
    _check_gpus(group)
    n = np.asarray(n, dtype=float)
    if group <= domain:
        return alltoall_time(n, group, rate_nvlink, alpha_nvlink)
    inside = (domain - 1) / group * n
    outside = (group - domain) / group * n
    return alpha_net + np.maximum(inside / rate_nvlink, outside / rate_nic)


def _check_gpus(p) -> None:
    if int(p) != p or p < 2:
        raise ValueError(f"GPUs must be an integer >= 2, got {p!r}")


# ---------------------------------------------------------------------------
# the entry function
# ---------------------------------------------------------------------------


def nvlink_domains(
    node_gpus: int,
    h100_links: int,
    h100_link_bw: float,
    h100_gpu_bw: float,
    hgx_h100_switch_chips: int,
    b200_links: int,
    b200_link_bw: float,
    b200_gpu_bw: float,
    nvl72_gpus: int,
    nvl72_published_bw: float,
    nvlink_switch_ports: int,
    nvlink_switch_bw: float,
    nic_rate: float,
    nvlink_latency: float,
    net_latency: float,
    message: float = 1e9,
    min_message: float = 1e3,
    max_message: float = 1e10,
    points_per_decade: int = 12,
    max_group: int = 144,
    expert_group: int = 64,
) -> dict:
    """NVLink per link, per GPU, per domain; collectives inside the domain versus over NICs.

    node_gpus: GPUs on one HGX baseboard (the scenario's gpus_per_node);
    *_links, *_link_bw (bidirectional, per link), *_gpu_bw (published,
    bidirectional, per GPU) for H100 and B200; nvl72_gpus and its published
    aggregate; the NVLink Switch's ports and capacity; nic_rate: one NIC port
    per GPU, per direction; latencies per step (NVLink, network); message: n
    bytes per GPU for the headline comparison; max_group: the largest group in
    the domain-size sweep; expert_group: the group in the "what fits" problem.
    """
    p8, p72 = int(node_gpus), int(nvl72_gpus)
    _check_gpus(p8)
    _check_gpus(p72)
    if not (0 < min_message < max_message):
        raise ValueError("need 0 < min_message < max_message")

    # --- rates, from the link up -------------------------------------------------
    def system(name, gpus, links, link_bw, published_gpu_bw, switching):
        gpu_bidir = per_gpu(links, link_bw)
        return {
            "name": name, "gpus": gpus, "links": links, "switching": switching,
            "link_bidir": link_bw, "link_dir": per_direction(link_bw),
            "gpu_bidir": gpu_bidir, "gpu_dir": per_direction(gpu_bidir),
            "published_gpu_bidir": published_gpu_bw,
            "aggregate_bidir": aggregate(gpus, gpu_bidir),
            "aggregate_dir": aggregate(gpus, per_direction(gpu_bidir)),
            "bisection_dir": bisection(gpus, per_direction(gpu_bidir)),
        }

    trays = switch_count(p72, b200_links, nvlink_switch_ports)
    systems = [
        system("HGX H100", p8, h100_links, h100_link_bw, h100_gpu_bw,
               f"{hgx_h100_switch_chips} NVSwitch chips"),
        system("HGX B200", p8, b200_links, b200_link_bw, b200_gpu_bw, "NVSwitch on the baseboard"),
        system("GB200 NVL72", p72, b200_links, b200_link_bw, b200_gpu_bw,
               f"{trays} NVLink Switch trays"),
    ]
    h100, b200, nvl = systems

    nic_dir = float(nic_rate)  # a port rate is already per direction
    # per GPU: NVLink per direction against one NIC port per direction
    nvlink_over_nic = h100["gpu_dir"] / nic_dir

    # --- the headline: all-to-all and all-reduce of n bytes on the baseboard --------
    n = float(message)
    t_a2a_nvl = float(alltoall_time(n, p8, h100["gpu_dir"], nvlink_latency))
    t_a2a_nic = float(alltoall_time(n, p8, nic_dir, net_latency))
    t_ar_nvl = float(allreduce_time(n, p8, h100["gpu_dir"], nvlink_latency))
    t_ar_nic = float(allreduce_time(n, p8, nic_dir, net_latency))
    sent = float(alltoall_bytes_sent(n, p8))

    # --- sweep in message size --------------------------------------------------------
    decades = math.log10(max_message / min_message)
    sizes = np.logspace(math.log10(min_message), math.log10(max_message),
                        int(round(decades * points_per_decade)) + 1)
    series = {
        "message_bytes": sizes,
        "alltoall_nvlink_h100": alltoall_time(sizes, p8, h100["gpu_dir"], nvlink_latency),
        "alltoall_nic": alltoall_time(sizes, p8, nic_dir, net_latency),
        "allreduce_nvlink_h100": allreduce_time(sizes, p8, h100["gpu_dir"], nvlink_latency),
        "allreduce_nic": allreduce_time(sizes, p8, nic_dir, net_latency),
        "alltoall_nvlink_b200": alltoall_time(sizes, p8, b200["gpu_dir"], nvlink_latency),
    }

    # --- sweep in group size: what fits in a domain of 8 versus 72 ----------------------
    # log-spaced group sizes plus each domain's edge (D and D+1), so the step is exact
    edges = {d for d in (p8, p8 + 1, p72, p72 + 1) if d <= int(max_group)}
    groups = np.array(sorted(set(np.unique(np.round(np.geomspace(2, int(max_group), 40))
                                           .astype(int)).tolist()) | edges | {int(max_group)}))

    def group_curve(domain, rate):
        return np.array([float(alltoall_time_spanning(n, int(g), domain, rate, nic_dir,
                                                      nvlink_latency, net_latency))
                         for g in groups])

    series["group_size"] = groups
    series["group_alltoall_hgx_h100"] = group_curve(p8, h100["gpu_dir"])
    series["group_alltoall_hgx_b200"] = group_curve(p8, b200["gpu_dir"])
    series["group_alltoall_nvl72"] = group_curve(p72, nvl["gpu_dir"])
    series["group_spill_hgx"] = np.array([spill_fraction(int(g), p8) for g in groups])
    series["group_spill_nvl72"] = np.array([spill_fraction(int(g), p72) for g in groups])

    eg = int(expert_group)
    t_eg_hgx = float(alltoall_time_spanning(n, eg, p8, b200["gpu_dir"], nic_dir,
                                            nvlink_latency, net_latency))
    t_eg_nvl = float(alltoall_time_spanning(n, eg, p72, nvl["gpu_dir"], nic_dir,
                                            nvlink_latency, net_latency))

    # --- the NVL72 switch fabric multiplies out ------------------------------------------
    switch_total = trays * nvlink_switch_bw

    summary = {
        "node_gpus": p8,
        "nvl72_gpus": p72,
        "h100_links": h100_links,
        "b200_links": b200_links,
        "h100_link_bidir": h100["link_bidir"], "h100_link_dir": h100["link_dir"],
        "b200_link_bidir": b200["link_bidir"], "b200_link_dir": b200["link_dir"],
        "h100_gpu_bidir": h100["gpu_bidir"], "h100_gpu_dir": h100["gpu_dir"],
        "b200_gpu_bidir": b200["gpu_bidir"], "b200_gpu_dir": b200["gpu_dir"],
        "h100_published_gpu_bidir": float(h100_gpu_bw),
        "b200_published_gpu_bidir": float(b200_gpu_bw),
        "hgx_h100_switch_chips": hgx_h100_switch_chips,
        "hgx_h100_aggregate_bidir": h100["aggregate_bidir"],
        "hgx_h100_aggregate_dir": h100["aggregate_dir"],
        "hgx_h100_bisection_dir": h100["bisection_dir"],
        "hgx_h100_bisection_bidir": 2 * h100["bisection_dir"],
        "hgx_b200_aggregate_bidir": b200["aggregate_bidir"],
        "hgx_b200_bisection_dir": b200["bisection_dir"],
        "nvl72_aggregate_bidir": nvl["aggregate_bidir"],
        "nvl72_aggregate_dir": nvl["aggregate_dir"],
        "nvl72_bisection_dir": nvl["bisection_dir"],
        "nvl72_published_bidir": float(nvl72_published_bw),
        "nvl72_published_ratio": nvl["aggregate_bidir"] / nvl72_published_bw,
        "nvl72_switch_trays": trays,
        "nvl72_switch_ports_used": p72 * b200_links,
        "nvlink_switch_ports": nvlink_switch_ports,
        "nvlink_switch_bw": nvlink_switch_bw,
        "nvl72_switch_total_bidir": switch_total,
        "nvl72_over_hgx_aggregate": nvl["aggregate_bidir"] / b200["aggregate_bidir"],
        "nic_rate": nic_dir,
        "nic_node_dir": p8 * nic_dir,  # all eight ports of a node, per direction
        "nvlink_over_nic": nvlink_over_nic,
        "b200_nvlink_over_nic": b200["gpu_dir"] / nic_dir,
        "nvlink_latency": nvlink_latency,
        "net_latency": net_latency,
        "message": n,
        "alltoall_bytes_sent": sent,
        "alltoall_nvlink_time": t_a2a_nvl,
        "alltoall_nic_time": t_a2a_nic,
        "alltoall_slowdown": t_a2a_nic / t_a2a_nvl,
        "allreduce_nvlink_time": t_ar_nvl,
        "allreduce_nic_time": t_ar_nic,
        "allreduce_slowdown": t_ar_nic / t_ar_nvl,
        "alltoall_b200_time": float(alltoall_time(n, p8, b200["gpu_dir"], nvlink_latency)),
        # the animation's counters: bytes per second in flight across the whole node
        "node_nvlink_inflight": p8 * h100["gpu_dir"],
        "node_nic_inflight": p8 * nic_dir,
        "nvl72_inflight": p72 * nvl["gpu_dir"],
        "alltoall_nvl72_time": float(alltoall_time(n, p72, nvl["gpu_dir"], nvlink_latency)),
        "expert_group": eg,
        "expert_spill_hgx": spill_fraction(eg, p8),
        "expert_spill_nvl72": spill_fraction(eg, p72),
        "expert_alltoall_hgx_b200": t_eg_hgx,
        "expert_alltoall_nvl72": t_eg_nvl,
        "expert_speedup": t_eg_hgx / t_eg_nvl,
    }

    problems = {
        "h100_gpu_dir": h100["gpu_dir"],
        "hgx_h100_bisection_dir": h100["bisection_dir"],
        "alltoall_nvlink_time": t_a2a_nvl,
        "alltoall_nic_time": t_a2a_nic,
        "allreduce_nvlink_time": t_ar_nvl,
        "allreduce_nic_time": t_ar_nic,
        "expert_alltoall_hgx_b200": t_eg_hgx,
        "expert_alltoall_nvl72": t_eg_nvl,
        "nvl72_switch_trays": trays,
    }

    rows = [[s["name"], s["gpus"], s["links"], s["switching"], s["link_dir"], s["gpu_bidir"],
             s["gpu_dir"], s["aggregate_bidir"], s["bisection_dir"],
             p8 * nic_dir if s["gpus"] == p8 else s["gpus"] * nic_dir]
            for s in systems]
    table = {
        "caption": ("NVLink rates multiplied out from the link: each column names its direction "
                    "(per direction, or bidirectional = both directions summed) and its scope; "
                    "last column: the same GPUs' NIC ports, one per GPU"),
        "columns": [
            {"name": "system", "unit": "text"},
            {"name": "GPUs in the NVLink domain", "unit": "count"},
            {"name": "NVLink links per GPU", "unit": "count"},
            {"name": "switching", "unit": "text"},
            {"name": "per link, per direction", "unit": "B/s"},
            {"name": "per GPU, bidirectional", "unit": "B/s"},
            {"name": "per GPU, per direction", "unit": "B/s"},
            {"name": "domain aggregate, bidirectional", "unit": "B/s"},
            {"name": "bisection, per direction", "unit": "B/s"},
            {"name": "NIC ports of the same GPUs, per direction", "unit": "B/s"},
        ],
        "rows": rows,
    }

    return {
        "param_units": {
            "node_gpus": "count", "h100_links": "count", "hgx_h100_switch_chips": "count",
            "b200_links": "count", "nvl72_gpus": "count", "nvlink_switch_ports": "count",
            "message": "B", "min_message": "B", "max_message": "B",
            "points_per_decade": "count", "max_group": "count", "expert_group": "count",
        },
        "summary": summary,
        "systems": systems,
        "series": series,
        "problems": problems,
        "table": table,
    }
