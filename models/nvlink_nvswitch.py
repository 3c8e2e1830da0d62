"""NVLink and NVSwitch scale-up: what one NVLink domain carries, and what leaving it costs.

Every bandwidth here carries a direction and a scope. Vendors quote NVLink
bidirectionally (the sum of both directions) and per GPU; a network port is
quoted per direction. The model keeps both conventions apart: a bidirectional
figure is halved to a per-direction one (`per_direction`) before it meets any
time, and only per-direction rates enter a transfer time.

Rates multiply out from the link (NVIDIA's NVLink page; Hopper in-depth):

    per GPU   B_gpu = L * b_link               (L links per GPU, b_link per link;
                                                one GPU's total, shared by all its peers)
    aggregate B_agg = p * B_gpu                (p GPUs in the domain, summed)
    bisection B_bis = (p/2) * B_gpu            (non-blocking switches: half the GPUs
                                                send across the cut at full rate)

A domain is non-blocking (HGX H100: every GPU on all four NVSwitch chips, each
switch non-blocking; HGX B200: two NVLink switch chips on the baseboard; NVL72:
every GPU's 18 links on the NVLink Switch trays), so any permutation of GPU pairs runs at full per-GPU
rate and the switches never bind; the GPU's own links do.

Times, with b = the per-direction rate each GPU injects at and alpha a latency:

    all-to-all:  T_a2a = alpha + (p-1)/p * n / b
        each GPU holds n bytes, keeps 1/p and sends n/p to each of the p-1
        others, all at once; a non-blocking switch delivers them in parallel.
    all-reduce:  T_ar = 2(p-1)(alpha + n/(p b))    (ring; ring_time, models/lib/collectives.py)

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

from models.exhibit import Column, Exhibit, Param, ParamError, Table, check, curves, model
from models.lib.collectives import ring_time
from models.lib.node import split_links
from models.lib.nvlink import aggregate, check_gpus, per_direction
from models.lib.sweeps import including

BIDIRECTIONAL = "bidirectional"
PER_DIRECTION = "per direction"


# ---------------------------------------------------------------------------
# rates: direction and scope
# ---------------------------------------------------------------------------


def per_gpu(links: int, link_rate: float) -> float:
    """B_gpu = L * b_link; same direction convention as link_rate."""
    if links < 1:
        raise ValueError(f"links must be >= 1, got {links!r}")
    return links * link_rate


def bisection(gpus: int, gpu_rate: float) -> float:
    """(p/2) * B_gpu: the rate across a cut into two halves of a non-blocking domain."""
    check_gpus(gpus)
    return (gpus // 2) * gpu_rate


def switch_count(gpus: int, links_per_gpu: int, ports_per_switch: int) -> int:
    """Switches needed when every GPU link lands on a switch port: ceil(p L / ports)."""
    return math.ceil(gpus * links_per_gpu / ports_per_switch)


# ---------------------------------------------------------------------------
# times
# ---------------------------------------------------------------------------


def alltoall_bytes_sent(n, p: int):
    """Bytes each GPU sends in an all-to-all of n bytes per GPU: (p-1)/p * n."""
    check_gpus(p)
    return (p - 1) / p * np.asarray(n, dtype=float)


def alltoall_time(n, p: int, rate: float, alpha: float):
    """T = alpha + (p-1)/p * n / b over a non-blocking switch, b per direction."""
    return alpha + alltoall_bytes_sent(n, p) / rate


def allreduce_time(n, p: int, rate: float, alpha: float):
    """Ring all-reduce, 2(p-1)(alpha + n/(p b)): ring_time from models/lib/collectives.py."""
    return ring_time(n, p, rate, alpha)


def alltoall_cut_rate(p: int, rate: float) -> float:
    """Rate one half sends across the middle in a full-rate all-to-all, per direction.

    p//2 GPUs each send to p - p//2 of their p-1 peers on the other side:
    (p//2) * b * (p - p//2)/(p-1), below the bisection (p//2) * b.
    """
    check_gpus(p)
    return (p // 2) * rate * (p - p // 2) / (p - 1)


def spill_fraction(group: int, domain: int) -> float:
    """Share of an all-to-all's bytes that leave the NVLink domain: max(g-D, 0)/g."""
    check_gpus(group)
    return max(group - domain, 0) / group


def alltoall_time_spanning(n, group: int, domain: int, rate_nvlink: float, rate_nic: float,
                           alpha_nvlink: float, alpha_net: float):
    """All-to-all of g GPUs packed into NVLink domains of D (g > D spills to NICs).

    Inside one domain: alpha_nvlink + (g-1)/g * n / b_nvl. Across domains, the
    in-domain and out-of-domain sends overlap: alpha_net + max(in/b_nvl, out/b_nic).
    """
    check_gpus(group)
    n = np.asarray(n, dtype=float)
    if group <= domain:
        return alltoall_time(n, group, rate_nvlink, alpha_nvlink)
    inside = (domain - 1) / group * n
    outside = (group - domain) / group * n
    return alpha_net + np.maximum(inside / rate_nvlink, outside / rate_nic)


# ---------------------------------------------------------------------------
# the entry function
# ---------------------------------------------------------------------------


@model(
    node_gpus=Param.integer("count", "GPUs on one HGX baseboard", minimum=2, maximum=64),
    h100_links=Param.integer("count", "NVLink links per H100", maximum=64),
    h100_link_bw=Param.positive("B/s", "fourth-generation NVLink, one link, bidirectional"),
    h100_gpu_bw=Param.positive("B/s", "H100 NVLink bandwidth per GPU, bidirectional (published)"),
    hgx_h100_switch_chips=Param.integer("count", "NVSwitch chips on the HGX H100 baseboard", maximum=16),
    hbm_bw=Param.positive("B/s", "H100 HBM3 bandwidth, reads and writes together (published)"),
    hgx_b200_switch_chips=Param.integer("count", "NVLink switch chips on the HGX B200 baseboard",
                                        maximum=16),
    b200_links=Param.integer("count", "NVLink links per B200", maximum=64),
    b200_link_bw=Param.positive("B/s", "fifth-generation NVLink, one link, bidirectional"),
    b200_gpu_bw=Param.positive("B/s", "B200 NVLink bandwidth per GPU, bidirectional (published)"),
    nvl72_gpus=Param.integer("count", "GPUs in one GB200 NVL72 rack", minimum=2, maximum=1024),
    nvl72_published_bw=Param.positive("B/s", "GB200 NVL72 NVLink bandwidth, aggregate (published)"),
    hgx_b200_published_bw=Param.positive("B/s", "HGX B200 NVLink switches, aggregate (published, DGX B200)"),
    nvlink_measured=Param.positive("B/s", "H100 NVLink, one pair, measured per direction"),
    nvlink_switch_ports=Param.integer("count", "NVLink ports on one NVLink Switch"),
    nvlink_switch_bw=Param.positive("B/s", "NVLink Switch switching capacity, bidirectional"),
    nic_rate=Param.positive("B/s", "one NIC port per GPU, per direction"),
    nvlink_latency=Param.positive("s", "NCCL per-step NVLink latency"),
    net_latency=Param.positive("s", "NCCL per-step network latency"),
    message=Param.positive("B", "bytes per GPU in the headline collectives, n"),
    min_message=Param.positive("B", "smallest message in the sweep"),
    max_message=Param.positive("B", "largest message in the sweep"),
    points_per_decade=Param.integer("count", "sweep points per decade of message size", maximum=100),
    max_group=Param.integer("count", "largest all-to-all group in the sweep", minimum=2, maximum=4096),
    expert_group=Param.integer("count", "GPUs in the expert-parallel all-to-all", minimum=2, maximum=4096),
)
def nvlink_domains(node_gpus, h100_links, h100_link_bw, h100_gpu_bw, hgx_h100_switch_chips, hbm_bw,
                   hgx_b200_switch_chips, b200_links, b200_link_bw, b200_gpu_bw, nvl72_gpus,
                   nvl72_published_bw, hgx_b200_published_bw, nvlink_measured, nvlink_switch_ports,
                   nvlink_switch_bw, nic_rate, nvlink_latency,
                   net_latency, message=1e9, min_message=1e3, max_message=1e10, points_per_decade=12,
                   max_group=144, expert_group=64) -> Exhibit:
    """NVLink per link, per GPU, per domain; collectives inside the domain versus over NICs.

    *_link_bw are bidirectional per link, *_gpu_bw the published bidirectional
    per-GPU figures the links must multiply out to; nic_rate is one port per
    GPU, per direction; latencies are per step. message is n bytes per GPU for
    the headline comparison; max_group ends the domain-size sweep (at most a
    few hundred points, so no input makes it long); expert_group is the
    "what fits" problem's group.
    """
    p8, p72 = int(node_gpus), int(nvl72_gpus)
    if not min_message < max_message:
        raise ValueError("need min_message < max_message")
    trays = switch_count(p72, b200_links, nvlink_switch_ports)
    systems = [
        domain_rates("HGX H100", p8, h100_links, h100_link_bw, f"{hgx_h100_switch_chips} NVSwitch chips"),
        domain_rates("HGX B200", p8, b200_links, b200_link_bw, f"{hgx_b200_switch_chips} NVLink switch chips"),
        domain_rates("GB200 NVL72", p72, b200_links, b200_link_bw, f"{trays} NVLink Switch trays"),
    ]
    h100, b200, nvl = systems
    fabric = switch_fabric(h100_links, hgx_h100_switch_chips, h100["link_dir"])
    switch_total = trays * nvlink_switch_bw
    check_published_rates(h100, b200, nvl, h100_gpu_bw, b200_gpu_bw, nvl72_published_bw, switch_total,
                          float(hgx_b200_published_bw))
    nic_dir = float(nic_rate)  # a port rate is already per direction
    n = float(message)
    boundary = chip_boundary(float(hbm_bw), h100["gpu_dir"], h100["gpu_bidir"], nic_dir)
    measured = measured_rates(float(nvlink_measured), h100["gpu_dir"], nic_dir)
    head = headline_collectives(n, p8, h100["gpu_dir"], nic_dir, nvlink_latency, net_latency)
    by_size = size_sweep(min_message, max_message, points_per_decade, p8, h100["gpu_dir"], nic_dir,
                         nvlink_latency, net_latency, n)
    by_group = group_sweep(n, int(max_group), p8, p72, h100["gpu_dir"], b200["gpu_dir"], nvl["gpu_dir"], nic_dir,
                           nvlink_latency, net_latency)
    expert = expert_alltoall(n, int(expert_group), p8, p72, b200["gpu_dir"], nvl["gpu_dir"], nic_dir,
                             nvlink_latency, net_latency)
    summary = {
        "node_gpus": p8,
        "nvl72_gpus": p72,
        "h100_links": h100_links,
        "b200_links": b200_links,
        "h100_link_dir": h100["link_dir"],
        "b200_link_dir": b200["link_dir"],
        "h100_gpu_bidir": h100["gpu_bidir"], "h100_gpu_dir": h100["gpu_dir"],
        "b200_gpu_bidir": b200["gpu_bidir"], "b200_gpu_dir": b200["gpu_dir"],
        "hgx_h100_switch_chips": hgx_h100_switch_chips,
        "h100_switch_split": "/".join(str(k) for k in fabric["links_per_switch"]),
        "h100_pair_dir": fabric["pair_dir"],
        "h100_switch_max_dir": fabric["switch_max_dir"],
        "h100_switch_min_dir": fabric["switch_min_dir"],
        **mesh_alternative(int(h100_links), p8, h100["link_dir"], n, float(nvlink_latency), fabric["pair_dir"]),
        **boundary,
        **measured,
        "hgx_b200_switch_chips": hgx_b200_switch_chips,
        "hgx_h100_aggregate_bidir": h100["aggregate_bidir"],
        "hgx_h100_bisection_dir": h100["bisection_dir"],
        "hgx_h100_bisection_bidir": 2 * h100["bisection_dir"],
        "hgx_b200_aggregate_bidir": b200["aggregate_bidir"],
        "hgx_b200_published_bidir": float(hgx_b200_published_bw),
        "hgx_b200_bisection_dir": b200["bisection_dir"],
        "hgx_b200_bisection_bidir": 2 * b200["bisection_dir"],
        "hgx_h100_sent_dir": p8 * h100["gpu_dir"],
        "hgx_h100_alltoall_cut_dir": alltoall_cut_rate(p8, h100["gpu_dir"]),
        "nvl72_aggregate_bidir": nvl["aggregate_bidir"],
        "nvl72_published_bidir": float(nvl72_published_bw),
        "nvl72_switch_trays": trays,
        "nvl72_switch_ports_used": p72 * b200_links,
        "nvlink_switch_ports": nvlink_switch_ports,
        "nvl72_switch_total_bidir": switch_total,
        "nic_rate": nic_dir,
        "nvlink_over_nic": head["nvlink_over_nic"],
        "message": n,
        "alltoall_bytes_sent": float(alltoall_bytes_sent(n, p8)),
        "alltoall_nvlink_time": head["alltoall_nvlink_time"],
        "alltoall_nic_time": head["alltoall_nic_time"],
        "alltoall_slowdown": head["alltoall_nic_time"] / head["alltoall_nvlink_time"],
        "allreduce_nvlink_time": head["allreduce_nvlink_time"],
        "allreduce_nic_time": head["allreduce_nic_time"],
        **expert,
    }
    problems = {
        "h100_gpu_dir": h100["gpu_dir"],
        "hgx_h100_bisection_dir": h100["bisection_dir"],
        **{k: head[k] for k in ("alltoall_nvlink_time", "alltoall_nic_time", "allreduce_nvlink_time",
                                "allreduce_nic_time")},
        "expert_alltoall_hgx_b200": expert["expert_alltoall_hgx_b200"],
        "expert_alltoall_nvl72": expert["expert_alltoall_nvl72"],
        "nvl72_switch_trays": trays,
    }
    # the animation's counters: bytes per second in flight across the whole board
    animation = {"node_nvlink_inflight": p8 * h100["gpu_dir"], "node_nic_inflight": p8 * nic_dir}
    animation["links_per_switch"] = fabric["links_per_switch"]
    return Exhibit(summary=summary, series={**by_size, **by_group}, table=rates_table(systems, nic_dir),
                   animation=animation, problems=problems,
                   records={"h100_links_per_switch": fabric["links_per_switch"]})


# ---------------------------------------------------------------------------
# the recipe's steps
# ---------------------------------------------------------------------------


def domain_rates(name: str, gpus: int, links: int, link_bw: float, switching: str) -> dict:
    """One NVLink domain's rates, multiplied out from the link: per link, per GPU, aggregate, bisection."""
    gpu_bidir = per_gpu(links, link_bw)
    return {
        "name": name, "gpus": gpus, "links": links, "switching": switching,
        "link_dir": per_direction(link_bw),
        "gpu_bidir": gpu_bidir, "gpu_dir": per_direction(gpu_bidir),
        "aggregate_bidir": aggregate(gpus, gpu_bidir),
        "bisection_dir": bisection(gpus, per_direction(gpu_bidir)),
    }


def switch_fabric(links: int, switches: int, link_dir: float) -> dict:
    """How one H100's links land on the baseboard's NVSwitch chips, and what any pair gets.

    The split is the node model's (`models.lib.node.split_links`, scene 04): 18 links over 4
    chips are 5/4/4/5. No GPU-to-GPU wire exists: a transfer to any peer stripes over every
    chip, so a single pair can use the GPU's whole rate, L * b_link per direction.
    """
    if links < switches:  # a chip no GPU reaches: the wiring contradicts itself
        raise ParamError("h100_links", links, f"at least one per NVSwitch chip ({switches})")
    split = split_links(int(links), int(switches))
    pair = sum(split) * link_dir
    return {"links_per_switch": split, "pair_dir": pair,
            "switch_max_dir": max(split) * link_dir, "switch_min_dir": min(split) * link_dir}


def mesh_alternative(links: int, gpus: int, link_dir: float, n: float, alpha: float, pair_dir: float) -> dict:
    """A point-to-point mesh of the same L links over p-1 peers: floor or ceil of L/(p-1) links per pair.

    Its all-to-all of n bytes per GPU: every pair carries n/p each way on its own links at once, so the
    slowest pair (floor(L/(p-1)) links) sets the time, alpha + (n/p) / (floor · link rate), against the
    switch's alpha + (p-1)/p · n / b. A single pair alone gets the switch's whole GPU rate b instead.
    """
    check_gpus(gpus)
    peers = gpus - 1
    lo, hi = links // peers, -(-links // peers)
    out = {"mesh_pair_links_min": lo, "mesh_pair_links_max": hi,
           "mesh_pair_dir_min": lo * link_dir, "mesh_pair_dir_max": hi * link_dir,
           "mesh_alltoall_time": None, "mesh_alltoall_slowdown": None, "mesh_pair_gain_max": None,
           # one pair talking alone: the switch's whole GPU rate against a mesh pair's links
           "mesh_pair_gain_min": pair_dir / (hi * link_dir)}
    if lo == 0:  # fewer links than peers: some pairs have no direct link and would relay, not modelled
        return out
    t_mesh = alpha + n / gpus / (lo * link_dir)
    out.update({"mesh_alltoall_time": t_mesh,
                "mesh_alltoall_slowdown": t_mesh / float(alltoall_time(n, gpus, pair_dir, alpha)),
                "mesh_pair_gain_max": pair_dir / (lo * link_dir)})
    check(out["mesh_alltoall_slowdown"] < out["mesh_pair_gain_min"] / 2,
          "for an even all-to-all the mesh's slowest pairs hold it back by far less than for one pair")
    return out


def chip_boundary(hbm_bw: float, nvlink_dir: float, nvlink_bidir: float, nic_dir: float) -> dict:
    """Where the chip ends: local HBM against a peer's memory over NVLink against the NIC.

    HBM's published figure is reads and writes together (one shared bus), so it is compared
    with NVLink per direction (what a GPU can read from its peers) and with NVLink both ways
    summed (reads and writes at once): the honest range of the ratio.
    """
    out = {"hbm_bw": hbm_bw,
           "hbm_over_nvlink_dir": hbm_bw / nvlink_dir,
           "hbm_over_nvlink_bidir": hbm_bw / nvlink_bidir,
           "hbm_over_nic": hbm_bw / nic_dir}
    check(out["hbm_over_nvlink_bidir"] > 1, "local HBM is still faster than NVLink both ways summed")
    check(out["hbm_over_nvlink_dir"] < out["hbm_over_nic"] / 5,
          "NVLink sits much closer to HBM than the NIC does")
    return out


def check_published_rates(h100: dict, b200: dict, nvl: dict, h100_gpu_bw: float, b200_gpu_bw: float,
                          nvl72_published_bw: float, switch_total: float, hgx_b200_published_bw: float) -> None:
    """The links multiply out to NVIDIA's published figures, and the switches never bind.

    NVIDIA publishes per-GPU rates, the HGX B200 board's aggregate (DGX B200 guide) and the
    NVL72's; no NVIDIA table we read states a bisection, so the page derives it.
    """
    check(math.isclose(h100["gpu_bidir"], h100_gpu_bw, rel_tol=1e-9)
          and math.isclose(b200["gpu_bidir"], b200_gpu_bw, rel_tol=1e-9),
          "the links multiply out to NVIDIA's published per-GPU NVLink bandwidth")
    board = hgx_b200_published_bw / b200_gpu_bw  # the DGX B200's GPUs behind its published aggregate
    check(math.isclose(board, round(board), rel_tol=1e-9)
          and (b200["gpus"] != round(board)
               or math.isclose(b200["aggregate_bidir"], hgx_b200_published_bw, rel_tol=1e-9)),
          "the HGX B200 aggregate is the DGX B200 guide's figure: whole GPUs at the per-GPU rate")
    check(abs(nvl["aggregate_bidir"] / nvl72_published_bw - 1) < 0.01,
          "the NVL72 aggregate is NVIDIA's published figure, rounded")
    check(switch_total >= nvl["aggregate_bidir"] * (1 - 1e-9),
          "the switches never bind; the GPU's own links do")


def measured_rates(nvlink_measured: float, nvlink_dir: float, nic_dir: float) -> dict:
    """Peak against a measured NVLink rate, and what the NVLink/NIC ratio becomes.

    The times use peak rates on both sides, so the ratio assumes both reach the same fraction
    of peak. With NVLink at its measured rate and the NIC still at line rate (the least
    favourable case for NVLink), the ratio falls to nvlink_measured / nic_dir.
    """
    if nvlink_measured > nvlink_dir:
        raise ParamError("nvlink_measured", nvlink_measured, f"at most the peak per direction ({nvlink_dir:g} B/s)")
    return {"nvlink_measured": nvlink_measured,
            "nvlink_measured_fraction": nvlink_measured / nvlink_dir,
            "nvlink_over_nic_measured": nvlink_measured / nic_dir}


def headline_collectives(n: float, p8: int, nvlink_dir: float, nic_dir: float, nvlink_latency: float,
                         net_latency: float) -> dict:
    """All-to-all and all-reduce of n bytes per GPU on the baseboard, over NVLink and over the NICs."""
    nvlink_over_nic = nvlink_dir / nic_dir  # per GPU, per direction against per direction
    t_a2a_nvl = float(alltoall_time(n, p8, nvlink_dir, nvlink_latency))
    t_a2a_nic = float(alltoall_time(n, p8, nic_dir, net_latency))
    t_ar_nvl = float(allreduce_time(n, p8, nvlink_dir, nvlink_latency))
    t_ar_nic = float(allreduce_time(n, p8, nic_dir, net_latency))
    check(t_a2a_nic > t_a2a_nvl and t_ar_nic > t_ar_nvl, "slower over the NICs")
    check(all(abs(r / nvlink_over_nic - 1) < 0.1 for r in (t_a2a_nic / t_a2a_nvl, t_ar_nic / t_ar_nvl)),
          "at this size both ratios are close to the bandwidth ratio: the latency terms are small")
    return {"nvlink_over_nic": nvlink_over_nic,
            "alltoall_nvlink_time": t_a2a_nvl, "alltoall_nic_time": t_a2a_nic,
            "allreduce_nvlink_time": t_ar_nvl, "allreduce_nic_time": t_ar_nic}


def size_sweep(min_message: float, max_message: float, points_per_decade: int, p8: int, nvlink_dir: float,
               nic_dir: float, nvlink_latency: float, net_latency: float, message: float) -> dict:
    """The baseboard's collectives against message size (points bounded by the declared ranges)."""
    decades = math.log10(max_message / min_message)
    sizes = np.logspace(math.log10(min_message), math.log10(max_message),
                        min(int(round(decades * points_per_decade)) + 1, 2000))
    if min_message <= message <= max_message:  # the page's n on the sweep, exactly (the Explore probe opens there)
        sizes = including(sizes, message)
    by_size = curves(
        "message_bytes", sizes,
        alltoall_nvlink_h100=alltoall_time(sizes, p8, nvlink_dir, nvlink_latency),
        alltoall_nic=alltoall_time(sizes, p8, nic_dir, net_latency),
        allreduce_nvlink_h100=allreduce_time(sizes, p8, nvlink_dir, nvlink_latency),
        allreduce_nic=allreduce_time(sizes, p8, nic_dir, net_latency),
    )
    check(np.all(by_size["alltoall_nvlink_h100"] < by_size["alltoall_nic"])
          and np.all(by_size["allreduce_nvlink_h100"] < by_size["allreduce_nic"]),
          "NVLink is faster than the NICs at every message size")
    return by_size


def group_sweep(n: float, mg: int, p8: int, p72: int, h100_dir: float, b200_dir: float, nvl_dir: float,
                nic_dir: float, nvlink_latency: float, net_latency: float) -> dict:
    """An all-to-all against group size: what fits in a domain of 8 versus 72."""
    # log-spaced group sizes plus each domain's edge (D and D+1), so the step is exact
    edges = {d for d in (p8, p8 + 1, p72, p72 + 1) if d <= mg}
    groups = np.array(sorted(set(np.unique(np.round(np.geomspace(2, mg, 40)).astype(int)).tolist())
                             | edges | {mg}))

    def group_curve(domain, rate):
        return np.array([float(alltoall_time_spanning(n, int(g), domain, rate, nic_dir,
                                                      nvlink_latency, net_latency)) for g in groups])

    by_group = curves(
        "group_size", groups,
        group_alltoall_hgx_h100=group_curve(p8, h100_dir),
        group_alltoall_hgx_b200=group_curve(p8, b200_dir),
        group_alltoall_nvl72=group_curve(p72, nvl_dir),
        group_spill_hgx=[spill_fraction(int(g), p8) for g in groups],
        group_spill_nvl72=[spill_fraction(int(g), p72) for g in groups],
    )
    # "past the domain, the NIC sets the pace": at the largest group the NIC share binds
    for domain, rate in ((p8, b200_dir), (p72, nvl_dir)):
        if mg > domain:
            check((mg - domain) / nic_dir > (domain - 1) / rate,
                  "past the domain, the NIC sets the pace")
    return by_group


def expert_alltoall(n: float, eg: int, p8: int, p72: int, b200_dir: float, nvl_dir: float, nic_dir: float,
                    nvlink_latency: float, net_latency: float) -> dict:
    """The expert-parallel all-to-all: spilling out of an HGX B200 versus fitting in an NVL72."""
    t_eg_hgx = float(alltoall_time_spanning(n, eg, p8, b200_dir, nic_dir, nvlink_latency, net_latency))
    t_eg_nvl = float(alltoall_time_spanning(n, eg, p72, nvl_dir, nic_dir, nvlink_latency, net_latency))
    check(eg <= p72 and spill_fraction(eg, p72) == 0, "inside NVL72 none of the bytes cross NICs")
    check(spill_fraction(eg, p8) > 0 and t_eg_nvl < t_eg_hgx,
          "faster: the group fits in the domain")
    return {
        "expert_group": eg,
        "expert_spill_hgx": spill_fraction(eg, p8),
        "expert_alltoall_hgx_b200": t_eg_hgx,
        "expert_alltoall_nvl72": t_eg_nvl,
        "expert_speedup": t_eg_hgx / t_eg_nvl,
    }


def rates_table(systems: list[dict], nic_dir: float) -> Table:
    """Each domain's rates, every column naming its direction and scope, beside its NIC ports."""
    return Table(
        "NVLink rates multiplied out from the link: each column names its direction "
        "(per direction, or bidirectional = both directions summed) and its scope; "
        "a GPU's rate is its total, shared by all its peers; last column: the same GPUs' "
        "NIC ports, one per GPU",
        [Column("system", "text"), Column("GPUs in the NVLink domain", "count"),
         Column("NVLink links per GPU", "count"), Column("switching", "text"),
         Column("per link, per direction", "B/s"), Column("per GPU, bidirectional", "B/s"),
         Column("per GPU, per direction", "B/s"),
         # 4 figures: the NVL72's 72 x 1.8 TB/s is 129.6 TB/s, which NVIDIA rounds to 130
         Column("domain aggregate, bidirectional", "B/s", digits=4),
         Column("bisection, per direction", "B/s"),
         Column("NIC ports of the same GPUs, per direction", "B/s")],
        [[s["name"], s["gpus"], s["links"], s["switching"], s["link_dir"], s["gpu_bidir"], s["gpu_dir"],
          s["aggregate_bidir"], s["bisection_dir"], s["gpus"] * nic_dir] for s in systems],
    )
