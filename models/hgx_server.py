"""The modern AI server as a graph: what is in an HGX H100 node and where each byte goes.

The node, its paths and its power budget are models/lib/node.py's (`build_node`,
`shortest_paths`, `allocate`, `power_budget`); this scene asks, for each of
five kinds of transfer, what one transfer moves alone and what each moves when
all eight GPUs do the same at once. Alone, a path moves

    B_path = min over its links of capacity      (the bottleneck)

and a transfer striped over edge-disjoint paths moves the sum of theirs.
Under contention the rates are max-min fair (progressive filling); for
symmetric traffic this is each flow's fair share cap / n of its most crowded
link.

Pure numpy/stdlib, SI units: bytes, seconds, bytes per second, watts.
"""

from __future__ import annotations

from models import scenario_facts
from models.constants import ENTITIES, const
from models.constants.products import Server
from models.exhibit import Column, Exhibit, Param, ParamError, Table, check, model
from models.lib.ethernet import ROCE_FRAME_PARAMS, frame_efficiency, roce_frame_efficiency
from models.lib.node import (
    KINDS,
    NODE_PARAMS,
    PCIE_PACKET_PARAMS,
    Graph,
    allocate,
    build_node,
    dram_rate,
    flows_for,
    path_links,
    pcie_packet_efficiency,
    pcie_rate,
    power_budget,
    shortest_paths,
)
from models.pcie_cxl import measured_share_rate, raw_bandwidth

# ---------------------------------------------------------------------------
# paths
# ---------------------------------------------------------------------------


def bottleneck(g: Graph, path: list[str]) -> tuple[float, tuple[str, str]]:
    """The narrowest link on a path: (capacity in the path's direction, (from, to))."""
    caps = [(g.links[i].capacity(u, v), (u, v)) for i, u, v in path_links(g, path)]
    return min(caps, key=lambda c: c[0])


def transfer_bandwidth(g: Graph, src: str, dst: str) -> float:
    """Bandwidth of one transfer alone, striped over all its shortest paths (max-min)."""
    return allocate(g, [(src, dst)])["rates"][0]


# ---------------------------------------------------------------------------
# the five kinds of transfer
# ---------------------------------------------------------------------------

PATH_KINDS = {
    "gpu_to_nic": "GPU → its NIC → compute fabric",
    "gpu_to_gpu": "GPU → GPU over NVLink",
    "host_to_gpu": "host DRAM → GPU",
    "nvme_to_gpu": "local NVMe → GPU",
    "storage_to_gpu": "storage NIC → GPU",
}


def link_name(label: str) -> str:
    """A link's label as the table names it: a bundle says what it joins, and one port is singular."""
    n, _, what = label.partition(" ")
    if what == "NVLinks":
        return f"{n} NVLink{'' if n == '1' else 's'} to one NVSwitch"
    if what == "ports":
        return f"{n} storage port{'' if n == '1' else 's'}"
    return label


def path_report(g: Graph, kind: str) -> dict:
    """Alone versus all-at-once for one kind of transfer."""
    flows = flows_for(g, kind)
    src, dst = flows[0]
    paths = shortest_paths(g, src, dst)
    alone = transfer_bandwidth(g, src, dst)
    neck_bw, neck = min((bottleneck(g, p) for p in paths), key=lambda c: c[0])
    together = allocate(g, flows)
    busiest = max(together["flows_on_link"].items(), key=lambda kv: (kv[1], -kv[0][0]))
    (lid, frm), n_share = busiest
    link = g.links[lid]
    to = link.b if frm == link.a else link.a
    shared = sorted({(g.links[i].a, g.links[i].b) for (i, _), c in together["flows_on_link"].items()
                     if c > 1})
    return {
        "kind": kind,
        "name": PATH_KINDS[kind],
        "source": src,
        "target": dst,
        "paths": paths,
        "flow_paths": [shortest_paths(g, a, b) for a, b in flows],  # every GPU's, for drawing
        "hops": len(paths[0]) - 1,
        "parallel_paths": len(paths),
        "alone": alone,
        "path_bottleneck": neck_bw,  # narrowest link of one path (of the first, for a stripe)
        "bottleneck_link": list(neck),
        "bottleneck_kind": link_name(g.links[path_links(g, [neck[0], neck[1]])[0][0]].label),
        "contended": min(together["rates"]),
        "contended_rates": together["rates"],
        "aggregate": sum(together["rates"]),
        "flows": len(flows),
        "max_flows_per_link": n_share,
        "busiest_link": [frm, to],
        "busiest_link_utilisation": together["load"][(lid, frm)] / together["capacity"][(lid, frm)],
        "shared_links": [list(x) for x in shared],
        "slowdown": alone / min(together["rates"]),
    }


# ---------------------------------------------------------------------------
# mixed traffic on one GPU's x16 link
# ---------------------------------------------------------------------------

# the headline mix: a checkpoint snapshot staged without blocking (the copy into pinned CPU buffers runs on a
# background thread, an opt-in in PyTorch DCP's staging) overlapping the gradient all-reduce's send; DCP's default
# async_save copies between steps instead, and only its write-out (DDR5 -> storage NIC) overlaps training. Both
# leave the GPU: they share the GPU -> switch direction of its x16 link
SNAPSHOT_CLASSES = {
    "nic_send": "all-reduce send: GPU → NIC → fabric",
    "gpu_to_host": "checkpoint snapshot, staged without blocking: GPU → pinned host memory",
}
# the second mix: input reads arriving while the all-reduce receives (the other direction)
READ_CLASSES = {
    "nic_receive": "all-reduce receive: fabric → NIC → GPU",
    "nvme_to_gpu": "input read from the local drive",
    "storage_to_gpu": "input read from remote storage",
}
MIX_CLASSES = {**SNAPSHOT_CLASSES, **READ_CLASSES}


def mix_flows(g: Graph, classes: dict) -> dict[str, list[tuple[str, str]]]:
    """Every GPU's transfer of each class, all GPUs at once (a class with no flow, as a node with no
    drives, is left out)."""
    gpus = g.of_kind("gpu")
    every = {"nic_send": flows_for(g, "gpu_to_nic"),
             "gpu_to_host": [(dst, src) for src, dst in flows_for(g, "host_to_gpu")],  # D2H, NUMA-local
             "nic_receive": [(f"net{gpu.index}", gpu.name) for gpu in gpus],
             "nvme_to_gpu": flows_for(g, "nvme_to_gpu"),
             "storage_to_gpu": flows_for(g, "storage_to_gpu")}
    return {k: every[k] for k in classes if every[k]}


def mixed_report(g: Graph, classes: dict, gpu: int = 0) -> dict:
    """The classes sharing GPU `gpu`'s x16 link in one direction, every GPU doing the same at once.

    The classes all leave the GPU (GPU -> switch) or all enter it (switch -> GPU). Each class's demand
    is its rate when it runs alone (every GPU at once, max-min fair): what it would take of the link.
    Their sum against the link's payload capacity is the link's load as asked; the classes run together
    are then max-min fair, so an over-full link is split by fair shares and the NIC's class, the one
    with the most headroom, gives way."""
    flows = mix_flows(g, classes)
    target = f"gpu{gpu}"
    out = any(src == target for fl in flows.values() for src, _ in fl)
    if any((src == target) != out for fl in flows.values() for src, dst in fl if target in (src, dst)):
        raise ValueError("a mix's classes all leave the GPU or all enter it")
    ends = (target, f"sw{gpu}") if out else (f"sw{gpu}", target)
    link = path_links(g, list(ends))[0]
    capacity = g.links[link[0]].capacity(*ends)

    def mine(f: tuple[str, str]) -> bool:
        return (f[0] if out else f[1]) == target

    demand = {}
    for k, fl in flows.items():
        rates = allocate(g, fl)["rates"]
        demand[k] = sum(r for f, r in zip(fl, rates) if mine(f))
    every = [(k, f) for k, fl in flows.items() for f in fl]
    mixed = allocate(g, [f for _, f in every])
    got = {k: 0.0 for k in flows}
    for (k, f), r in zip(every, mixed["rates"]):
        if mine(f):
            got[k] += r
    load = mixed["load"][(link[0], ends[0])]
    asked = sum(demand.values())
    nic = next(k for k in flows if k.startswith("nic_"))
    rows = [{"key": k, "name": classes[k], "demand": demand[k], "rate": got[k],
             "demand_share": demand[k] / capacity, "rate_share": got[k] / capacity,
             "slowdown": demand[k] / got[k]} for k in flows]
    return {
        "gpu": gpu, "link": list(ends), "direction": "out" if out else "in", "nic": nic,
        "capacity": capacity, "rows": rows,
        "demand": asked, "demand_share": asked / capacity,
        "load": load, "load_share": load / capacity,
        "over": asked > capacity * (1 + 1e-9),
        # the compute port is counted at its line rate, headers and all: the link stays over-full as long
        # as at least this share of the NIC's traffic is data
        "nic_data_share_to_fill": max(capacity - sum(v for k, v in demand.items() if k != nic), 0.0)
        / demand[nic],
        "others_keep_rate": all(got[k] >= demand[k] * (1 - 1e-9) for k in flows if k != nic),
    }


def check_mix_claims(mix: dict, alone_nic: float, what: str) -> None:
    """What the page and the animation say of one mix on one GPU's link."""
    rows = {r["key"]: r for r in mix["rows"]}
    check(mix["load"] <= mix["capacity"] * (1 + 1e-9),
          "the classes together never move more than the x16 link carries")
    nic = rows[mix["nic"]]
    check(nic["demand"] <= alone_nic * (1 + 1e-9), "the all-reduce's traffic alone runs at the NIC's rate")
    if mix["over"]:
        check(mix["load"] >= mix["capacity"] * (1 - 1e-9) and nic["rate"] < nic["demand"],
              f"during {what} the GPU's x16 link is asked for more than it carries: it runs full, and"
              " the all-reduce, the class with the most headroom, gives way")


# ---------------------------------------------------------------------------
# the entry function
# ---------------------------------------------------------------------------


@model(
    **NODE_PARAMS,
    nic_port_rate=Param.positive("B/s", "compute NIC port rate, per direction"),
    storage_port_rate=Param.positive("B/s", "one storage port's rate, per direction (the slower of the card and"
                                            " the storage fabric's switch port)"),
    storage_port_sweep=Param.numbers("B/s", "storage port rates the page compares", minimum=1e6),
    drive_read_sweep=Param.numbers("B/s", "data drive rated reads the page compares (the range's ends)",
                                   minimum=1e6),
    **ROCE_FRAME_PARAMS,
    encoding=Param.number("1", "PCIe 128b/130b line coding", minimum=0.5, maximum=1.0),
    ref_transfer_rate=Param.positive("T/s", "measured host's PCIe rate per lane (scene 02's)"),
    ref_lanes=Param.integer("count", "measured host's PCIe lanes (scene 02's)", maximum=32),
    ref_pinned_bw=Param.positive("B/s", "measured host's pinned host-to-device copy (scene 02's)"),
    compute_nics=Param.integer("count", "compute NICs (one per GPU)", maximum=64),
    dram_capacity=Param.positive("B", "system memory"),
    data_drives=Param.integer("count", "NVMe data drives", minimum=0, maximum=64),
    data_drive_capacity=Param.positive("B", "capacity of one data drive"),
    gpu_tdp=Param.positive("W", "GPU thermal design power"),
    cpu_tdp=Param.positive("W", "CPU thermal design power"),
    system_max_power=Param.positive("W", "node's maximum system power"),
    message=Param.positive("B", "bytes each GPU moves (worked problems)"),
    cluster_gpus=Param.integer("count", "GPUs in the scenario's cluster"),
    nvme_transfer_rate=Param.positive("T/s", "a data drive's PCIe rate per lane (its own generation)"),
    gpu_retimers=Param.integer("count", "PCIe retimers on the GPU baseboard (0, or one on each GPU's x16 link)",
                               minimum=0, maximum=64),
    memory_efficiency=Param.number("1", "share of the DDR5 peak a socket sustains (1 = peak)",
                                   minimum=0.3, maximum=1.0),
    b200_node=Param.of(Server, "the Blackwell 8-GPU node beside it (DGX B200)"),
    gb200_tray=Param.of(Server, "the Grace-Blackwell compute tray (GB200 NVL72)"),
    c2c_bw=Param.positive("B/s", "NVLink-C2C between a Grace CPU and its GPU (GH200), both directions"),
    ib_mtu=Param.positive("B", "payload bytes per InfiniBand packet on the compute port"),
    ib_lrh_bytes=Param.positive("B", "InfiniBand local route header"),
    ib_vcrc_bytes=Param.positive("B", "InfiniBand variant CRC"),
    d2h_measured=Param.positive("B/s", "a measured H100 device-to-host copy, the run's peak (the snapshot's way)"),
    d2h_large_measured=Param.positive("B/s", "the same run's device-to-host copy at its largest size (68 MB)"),
    **PCIE_PACKET_PARAMS,
)
def hgx_server(
    gpus: int = 8,
    cpu_sockets: int = 2,
    cpu_cores: int = 112,
    nvswitches: int = 4,
    nvlinks_per_gpu: int = 18,
    gpu_nvlink_bw: float = 900e9,
    pcie_transfer_rate: float = 32e9,
    pcie_lanes: int = 16,
    nvme_lanes: int = 4,
    drive_read_bw: float = 6.2e9,
    nic_port_rate: float = 50e9,
    storage_port_rate: float = 12.5e9,
    storage_port_sweep: tuple = (12.5e9, 25e9, 50e9),
    compute_nics: int = 8,
    storage_nics: int = 2,
    storage_nic_ports: int = 2,
    memory_channels: int = 8,
    memory_transfer_rate: float = 4400e6,
    dram_capacity: float = 2e12,
    data_drives: int = 8,
    data_drive_capacity: float = 3.84e12,
    gpu_tdp: float = 700.0,
    cpu_tdp: float = 350.0,
    system_max_power: float = 10.2e3,
    message: float = 1e9,
    cluster_gpus: int = 16384,
    nvme_transfer_rate: float = 16e9,
    memory_efficiency: float = 1.0,
    gpu_retimers: int = 8,
    b200_node: Server = ENTITIES["server"]["dgx_b200"],
    gb200_tray: Server = ENTITIES["server"]["gb200_tray"],
    c2c_bw: float = const("gh200_nvlink_c2c_bw"),
    pcie_header_bytes: float = const("pcie_tlp_header_3dw"),
    pcie_framing_seq_bytes: float = const("pcie_tlp_framing_seq"),
    pcie_lcrc_bytes: float = const("pcie_lcrc"),
    pcie_dllp_bytes: float = const("pcie_dllp"),
    pcie_tlps_per_dllp: float = const("pcie_tlps_per_dllp"),
    pcie_max_payload: float = const("pcie_max_payload_server"),
    drive_read_sweep: tuple = (const("u2_gen4_read_bw_low"), const("u2_gen4_read_bw_high")),
    storage_mtu: float = const("roce_max_mtu"),
    eth_preamble_bytes: float = const("ethernet_preamble_sfd"),
    eth_header_bytes: float = const("ethernet_mac_header"),
    eth_fcs_bytes: float = const("ethernet_fcs"),
    eth_gap_bytes: float = const("ethernet_interpacket_gap"),
    ip_header_bytes: float = const("ipv4_header"),
    udp_header_bytes: float = const("udp_header"),
    roce_bth_bytes: float = const("roce_bth"),
    roce_icrc_bytes: float = const("roce_icrc"),
    encoding: float = const("pcie_128b130b"),
    ref_transfer_rate: float = const("pcie5_transfer_rate"),
    ref_lanes: int = 16,
    ref_pinned_bw: float = const("h100_sxm_h2d_pinned_measured"),
    ib_mtu: float = const("ib_max_mtu"),
    ib_lrh_bytes: float = const("ib_lrh"),
    ib_vcrc_bytes: float = const("ib_vcrc"),
    d2h_measured: float = const("h100_sxm_d2h_measured"),
    d2h_large_measured: float = const("h100_sxm_d2h_large_measured"),
) -> Exhibit:
    """The node's bandwidth and power budget, and which paths share a link.

    Counts and capacities come from the DGX H100 datasheet values in the
    catalogue; `message` is the bytes each GPU moves in the timing problems;
    cluster_gpus scales the power budget to the scenario's cluster.
    nvme_transfer_rate is the data drives' own PCIe generation (Gen4 drives in
    Gen5 slots); memory_efficiency the share of DDR5's peak a socket sustains,
    1 being the peak (an upper bound: the assumption the host path's answer turns
    on, swept in the Explore panel). storage_port_rate is each storage port's rate in
    BasePOD's wiring (an SN4600C switch port, below the card's own 400 Gb/s); the
    storage path is also solved at every rate of storage_port_sweep, since whether
    remote storage beats a local drive turns on it. The storage port carries RoCE v2 frames of
    storage_mtu payload bytes, so only roce_frame_efficiency of its line rate is data (the eth_*, ip_*,
    udp_* and roce_* byte counts; models/lib/ethernet.py, shared with gpudirect-storage); drive_read_sweep is
    the drive's rated-read range, over which the
    break-even port rate is a range too. The ref_* parameters are scene 02's
    measured Gen5 host: the host-to-GPU read rate at its efficiency is quoted beside the posted-write
    best case. b200_node and gb200_tray are the Blackwell
    nodes the page compares with this one; c2c_bw is a Grace CPU's NVLink-C2C to its GPU (GH200, both
    directions), quoted beside the x86 host's PCIe 5.0 x16.
    """
    gpus, cpu_sockets = int(gpus), int(cpu_sockets)
    check_layout(gpus, cpu_sockets, compute_nics, storage_nics, data_drives, nvswitches, nvlinks_per_gpu)
    if int(gpu_retimers) not in (0, gpus):
        raise ParamError("gpu_retimers", gpu_retimers, f"0, or one on each GPU's x16 link ({gpus})")
    # the share of each PCIe link that is payload, counted as pcie-cxl counts it (one function)
    eta = pcie_packet_efficiency(pcie_header_bytes, pcie_framing_seq_bytes, pcie_lcrc_bytes, pcie_dllp_bytes,
                                 pcie_tlps_per_dllp, pcie_max_payload)

    # the share of the storage port's line rate that is data: one RoCE v2 frame at the MTU
    # (models/lib/ethernet.py: gpudirect-storage charges the same port the same share, one function)
    eth = roce_frame_efficiency(storage_mtu, eth_preamble_bytes, eth_header_bytes, eth_fcs_bytes, eth_gap_bytes,
                                ip_header_bytes, udp_header_bytes, roce_bth_bytes, roce_icrc_bytes)

    def graph(port_rate: float, drive: float = drive_read_bw) -> Graph:
        # the graph's storage port carries data: its line rate less the frames' overhead
        return build_node(gpus, cpu_sockets, int(nvswitches), int(nvlinks_per_gpu), gpu_nvlink_bw,
                          pcie_transfer_rate, int(pcie_lanes), int(nvme_lanes), nic_port_rate,
                          int(storage_nics), int(storage_nic_ports), int(memory_channels),
                          memory_transfer_rate, int(data_drives), drive, pcie_payload_efficiency=eta,
                          nvme_transfer_rate=nvme_transfer_rate, memory_efficiency=memory_efficiency,
                          storage_port_rate=port_rate * eth)

    g = graph(storage_port_rate)
    kinds = [k for k in PATH_KINDS if k != "nvme_to_gpu" or data_drives > 0]
    reports = {k: path_report(g, k) for k in kinds}
    drives = sorted({float(x) for x in drive_read_sweep} | {float(drive_read_bw)})
    drive_rates = ([path_report(graph(storage_port_rate, d), "nvme_to_gpu")["contended"] for d in drives]
                   if "nvme_to_gpu" in reports else [])
    ports = storage_port_span(graph, g, reports, storage_port_rate, storage_port_sweep, int(storage_nic_ports),
                              message, eth, drive_rates)
    power = power_budget(gpus, gpu_tdp, cpu_sockets, cpu_tdp, system_max_power)
    x_nvme = pcie_rate(nvme_transfer_rate, nvme_lanes) * eta
    memory = memory_budget(g, int(memory_channels), memory_transfer_rate, memory_efficiency, gpus, cpu_sockets)
    # a host-to-GPU copy arrives as read completions: scene 02's measured host gets this share of the raw rate
    ref_raw = raw_bandwidth(ref_transfer_rate, int(ref_lanes), encoding)
    if ref_pinned_bw >= ref_raw:
        raise ParamError("ref_pinned_bw", ref_pinned_bw, f"below the measured host's raw rate ({ref_raw:.4g} B/s)")
    read_rate = measured_share_rate(raw_bandwidth(pcie_transfer_rate, int(pcie_lanes), encoding), ref_raw,
                                    ref_pinned_bw)
    memory.update(host_read_budget(read_rate, reports["host_to_gpu"]["alone"], nic_port_rate, memory, gpus,
                                   cpu_sockets))
    check_path_claims(reports, drive_read_bw, x_nvme, memory, ports)
    mix = mixed_report(g, SNAPSHOT_CLASSES)
    check_mix_claims(mix, reports["gpu_to_nic"]["alone"], "a checkpoint snapshot staged during an all-reduce")
    reads = mixed_report(g, READ_CLASSES)
    check_mix_claims(reads, reports["gpu_to_nic"]["alone"], "input reads")
    summary = node_summary(
        g, reports, power, gpus=gpus, cpu_sockets=cpu_sockets, cpu_cores=cpu_cores, gpu_nvlink_bw=gpu_nvlink_bw,
        pcie_transfer_rate=pcie_transfer_rate, pcie_lanes=pcie_lanes, nvme_lanes=nvme_lanes,
        drive_read_bw=drive_read_bw, nic_port_rate=nic_port_rate, memory_channels=memory_channels,
        memory_transfer_rate=memory_transfer_rate, dram_capacity=dram_capacity, data_drives=data_drives,
        data_drive_capacity=data_drive_capacity, gpu_tdp=gpu_tdp, cpu_tdp=cpu_tdp,
        system_max_power=system_max_power, message=message, cluster_gpus=cluster_gpus, pcie_payload_efficiency=eta,
        pcie_max_payload=pcie_max_payload, nvme_transfer_rate=nvme_transfer_rate)
    summary.update(memory)
    summary.update(ports["summary"])
    summary["storage_mtu"] = storage_mtu
    summary.update(mix_summary(mix, "mix_"))
    summary.update(mix_summary(reads, "readmix_"))
    # the compute port's data share, were InfiniBand's headers charged as the storage port's are (the model
    # counts the port at its line rate): one packet at the largest MTU
    ib = frame_efficiency(ib_mtu, ib_lrh_bytes, roce_bth_bytes, roce_icrc_bytes, ib_vcrc_bytes)
    summary.update({
        "compute_framing_efficiency": ib, "ib_mtu": ib_mtu,
        "ib_header_bytes": ib_lrh_bytes + roce_bth_bytes + roce_icrc_bytes + ib_vcrc_bytes,
        "readmix_over_with_ib_headers": bool(ib > reads["nic_data_share_to_fill"] * (1 + 1e-9)),
        "storage_slowdown_ib": reports["gpu_to_nic"]["contended"] * ib / reports["storage_to_gpu"]["contended"],
        # the snapshot's split holds while the NIC's data rate stays above its fair share
        "mix_split_holds_with_ib_headers": bool(
            next(x for x in mix["rows"] if x["key"] == "nic_send")["demand"] * ib
            > summary["mix_nic_rate"] * (1 + 1e-9)),
    })
    # the snapshot's demand is the posted-write best case; a measured D2H copy is slower, and the split holds
    # as long as it still asks more than the send's fair share
    summary["mix_d2h_measured_over_fair_share"] = bool(d2h_measured > summary["mix_nic_rate"] * (1 + 1e-9))
    # a checkpoint is the large-copy case: there the same run's copy out of the GPU is slower (its summary blames
    # pinned memory on the remote NUMA node). A snapshot capped below its fair share leaves the send the rest of
    # the link, up to the port's own demand; the fair share is the low end, this the high end
    nic_demand = summary["mix_nic_demand"]
    summary["mix_d2h_large_measured"] = d2h_large_measured
    summary["mix_d2h_large_under_fair_share"] = bool(d2h_large_measured < summary["mix_nic_rate"] * (1 - 1e-9))
    summary["mix_nic_rate_high"] = min(nic_demand, max(summary["mix_nic_rate"],
                                                       summary["mix_capacity"] - d2h_large_measured))
    summary["mix_nic_loss_high"] = 1 - summary["mix_nic_rate_high"] / nic_demand
    # the one-switch-per-pair layout is assumed: with two GPUs behind one switch uplink, a host copy into both
    # at once splits the uplink (max-min fair, equal demands), unless memory binds first
    summary["host_to_gpu_two_per_uplink"] = min(summary["pcie_x16_payload_rate"] / 2,
                                                reports["host_to_gpu"]["contended"])
    retimed = retimer_links(g, int(gpu_retimers))
    crossed = retimers_crossed(reports, retimed)
    summary["gpu_retimers"] = len(retimed)
    generations = generation_rows(gpus, cpu_sockets, compute_nics, storage_nics, gpu_nvlink_bw, system_max_power,
                                  nic_port_rate, b200_node, gb200_tray)
    check_generation_claims(generations)
    summary.update(generation_summary(generations))
    summary.update(host_link_summary(c2c_bw, summary["pcie_x16_rate"], summary["pcie_x16_payload_rate"]))
    problems = timing_problems(reports, power, summary["data_storage"], gpus, message, cluster_gpus,
                               system_max_power, summary["host_to_gpu_read_rate"])
    series = {
        "alone": [reports[k]["alone"] for k in kinds],
        "contended": [reports[k]["contended"] for k in kinds],
        "power_watts": [power["gpu_power"], power["cpu_power"], power["other_power"]],
    }
    records = {
        "graph": graph_record(g),
        "paths": {k: {kk: v for kk, v in rep.items() if kk != "contended_rates"} for k, rep in reports.items()},
        "path_kinds": kinds,
        "path_names": [PATH_KINDS[k] for k in kinds],
        "power_parts": ["GPUs", "CPUs", "everything else"],
        "generations": generations,
        "retimers": [list(link) for link in retimed],
        "retimers_crossed": crossed,
        "storage_port_sweep": ports["rows"],
        "mix": mix,
        "readmix": reads,
        scenario_facts.RECORD: scenario_facts.published(
            host_to_gpu_rate=reports["host_to_gpu"]["alone"],
            ddr5_per_socket=scenario_facts.ddr_per_socket(int(memory_channels), memory_transfer_rate)),
    }
    return Exhibit(summary=summary, series=series, table=path_table(reports, kinds, gpus, mix, reads, summary),
                   problems=problems, records=records)


# ---------------------------------------------------------------------------
# the recipe's steps
# ---------------------------------------------------------------------------


def check_layout(gpus: int, cpu_sockets: int, compute_nics: int, storage_nics: int, data_drives: int,
                 nvswitches: int, nvlinks_per_gpu: int) -> None:
    """Refuse, naming the parameter, a node the layout cannot wire."""
    if int(compute_nics) != gpus:
        raise ParamError("compute_nics", compute_nics, f"one compute NIC per GPU ({gpus})")
    for name, value in (("gpus", gpus), ("storage_nics", storage_nics)):
        if value % cpu_sockets:
            raise ParamError(name, value, f"a multiple of cpu_sockets ({cpu_sockets})")
    if data_drives > gpus:
        raise ParamError("data_drives", data_drives, f"at most one behind each GPU's switch ({gpus})")
    if nvlinks_per_gpu < nvswitches:
        raise ParamError("nvlinks_per_gpu", nvlinks_per_gpu, f"at least one per NVSwitch ({nvswitches})")


def memory_budget(g: Graph, channels: int, transfer_rate: float, efficiency: float, gpus: int,
                  cpu_sockets: int) -> dict:
    """What one socket's memory can give against what its GPUs' x16 links can take at once.

    The x16 links bind only while the socket sustains more than `memory_breakeven` of its
    DDR5 peak; below it, memory does, and each GPU gets sustained / GPUs per socket."""
    peak = dram_rate(channels, transfer_rate)
    per_socket = gpus // cpu_sockets
    x16 = g.links[path_links(g, ["cpu0", "sw0"])[0][0]].capacity("cpu0", "sw0")
    demand = per_socket * x16  # every GPU of the socket copying from host memory at once
    return {
        "memory_efficiency": efficiency,
        "dram_sustained_per_socket": peak * efficiency,
        "gpus_per_socket": per_socket,
        "host_demand_per_socket": demand,
        "memory_breakeven": demand / peak,
        "host_to_gpu_memory_bound": bool(peak * efficiency < demand),
    }


def host_read_budget(read_rate: float, write_case: float, nic_port_rate: float, memory: dict, gpus: int,
                     cpu_sockets: int) -> dict:
    """The host-to-GPU rate as a measured host reads it, beside the posted-write best case.

    The x16 link's payload rate counts 256-byte payloads, a posted write's; a copy into the GPU
    arrives as read completions, and scene 02's measured host gets less (its `effective_bw_calibrated`,
    the same function). Its DDR5 break-even is the four GPUs at that rate over the socket's peak."""
    check(read_rate < write_case, "a measured host-to-GPU read runs below the posted-write best case")
    peak = memory["host_demand_per_socket"] / memory["memory_breakeven"]
    per_socket = gpus // cpu_sockets
    return {
        "host_to_gpu_read_rate": read_rate,
        "host_read_demand_per_socket": per_socket * read_rate,
        "memory_breakeven_read": per_socket * read_rate / peak,
        "host_read_to_nic": read_rate / nic_port_rate,
        "host_write_to_nic": write_case / nic_port_rate,
    }


def retimer_links(g: Graph, retimers: int) -> list[tuple[str, str]]:
    """The links that carry a retimer: each GPU's x16 link to its PCIe switch, where the lanes leave
    the GPU baseboard for the host's switch (one per GPU), or none.

    A retimer recovers the signal and re-sends it at the link's full rate: it adds latency, not a
    limit, so no capacity changes; the graph keeps the link and the record names it."""
    if not retimers:
        return []
    pairs = []
    for gpu in g.of_kind("gpu"):
        switch = f"sw{gpu.index}"
        path_links(g, [switch, gpu.name])  # raises if the layout lost the GPU's switch link
        pairs.append((switch, gpu.name))
    return pairs


def retimers_crossed(r: dict, retimed: list[tuple[str, str]]) -> dict:
    """How many retimers each kind of transfer crosses, checked against the page's claim."""
    on = {frozenset(p) for p in retimed}
    crossed = {k: sum(frozenset((a, b)) in on for a, b in zip(v["paths"][0], v["paths"][0][1:]))
               for k, v in r.items()}
    if retimed:
        check(all(n == 1 for k, n in crossed.items() if k != "gpu_to_gpu") and crossed["gpu_to_gpu"] == 0,
              "every PCIe path into a GPU crosses one retimer; NVLink crosses none")
    return crossed


def check_path_claims(r: dict, drive_read_bw: float, x_nvme: float, memory: dict, ports: dict) -> None:
    """The claims the page and captions make about the paths, alone and all at once."""
    check(r["gpu_to_nic"]["max_flows_per_link"] == 1, "GPU to NIC: no link shared, all GPUs at once")
    check(r["gpu_to_gpu"]["contended"] >= r["gpu_to_gpu"]["alone"] * (1 - 1e-9),
          "NVLink through the NVSwitches is non-blocking, as NVIDIA's HGX H100 blog states (the model gives an"
          " NVSwitch no internal limit): the same rate with all GPUs at once")
    h2g = r["host_to_gpu"]
    check(h2g["max_flows_per_link"] > 1 and h2g["busiest_link_utilisation"] < 1
          and h2g["contended"] >= h2g["alone"] * (1 - 1e-9),
          "host to GPU at DDR5's peak: the socket's memory is shared but not full, so the x16 link is the"
          " bottleneck")
    check(memory["host_to_gpu_memory_bound"] == (h2g["contended"] < h2g["alone"] * (1 - 1e-9)),
          "below the break-even share of its peak, the socket's memory, not the x16 link, sets the host rate")
    check(r["storage_to_gpu"]["contended"] < r["storage_to_gpu"]["alone"]
          and all(r[k]["contended"] >= r[k]["alone"] * (1 - 1e-9) for k in r if k != "storage_to_gpu"),
          "of the five kinds run one at a time, the storage path is the only one where contention bites")
    rows = ports["rows"]
    check(all(row["contended"] < r["gpu_to_nic"]["contended"] for row in rows),
          "training traffic uses the compute fabric: at every storage port rate compared, the storage NICs are"
          " slower per GPU")
    if "nvme_to_gpu" in r:
        check(drive_read_bw < x_nvme, "the drive's rated read, not its x4 link, sets the local NVMe rate")
        # which of the two storage pipes is slower turns on the storage port's rate: the page says which at each
        check(max(r["nvme_to_gpu"]["contended"], r["storage_to_gpu"]["contended"])
              < r["gpu_to_nic"]["contended"] < r["host_to_gpu"]["contended"] < r["gpu_to_gpu"]["contended"],
              "with all GPUs at once the pipes rank: the two into storage, local drive and storage NIC, slowest;"
              " then compute NIC < host < NVLink")
        even = ports["summary"]["storage_breakeven_port_rate"]
        check(all(row["faster_than_drive"] == (even is not None and row["port_rate"] > even * (1 + 1e-9))
                  for row in rows),
              "a storage NIC outpaces a local drive, per GPU with all at once, only above the break-even port rate")
        lo, hi = ports["summary"]["storage_breakeven_low"], ports["summary"]["storage_breakeven_high"]
        if lo is not None:
            check(all(row["verdict"] == ("faster" if row["port_rate"] > hi * (1 + 1e-9) else
                                         "slower" if row["port_rate"] < lo * (1 - 1e-9) else "tie")
                      for row in rows),
                  "across the drive's rated-read range, a port is faster only above the break-even range, slower"
                  " only below it, and a tie inside it")


def storage_port_span(graph, g: Graph, r: dict, headline: float, sweep, ports_per_card: int,
                      message: float, eth: float = 1.0, drive_rates=()) -> dict:
    """The storage path at each port rate compared (the headline's among them), and the break-even rate.

    A storage port runs at the slower of the card (400 Gb/s) and the fabric switch's port, and
    BasePOD's switches are not the card's speed, so the rate is swept. While the port binds, each
    GPU's share is ports x rate x eth / n (n GPUs per card, eth the share of the line rate that is
    data); it equals a local drive's rate d at rate* = d n / (ports eth), unless the card's x16 slot
    caps the share below d first. drive_rates are a drive's rates across its rated-read range: each
    row says faster or slower only where it is so at both ends, a tie otherwise."""
    rates = sorted({float(x) for x in sweep} | {float(headline)})
    nvme = r["nvme_to_gpu"]["contended"] if "nvme_to_gpu" in r else None
    fabric = r["gpu_to_nic"]["contended"]
    rows = []
    for rate in rates:
        st = path_report(graph(rate), "storage_to_gpu") if rate != headline else r["storage_to_gpu"]
        rows.append({
            "port_rate": rate, "headline": rate == headline, "alone": st["alone"], "contended": st["contended"],
            "storage_time": message / st["contended"], "fabric_slowdown": fabric / st["contended"],
            "faster_than_drive": nvme is not None and st["contended"] > nvme * (1 + 1e-9),
            "drive_ratio": None if nvme is None else st["contended"] / nvme,
            "drive_ratio_low": min(st["contended"] / d for d in drive_rates) if drive_rates else None,
            "drive_ratio_high": max(st["contended"] / d for d in drive_rates) if drive_rates else None,
        })
        row = rows[-1]
        row["verdict"] = ("faster" if drive_rates and row["drive_ratio_low"] > 1 + 1e-9 else
                          "slower" if drive_rates and row["drive_ratio_high"] < 1 - 1e-9 else "tie")
    share = r["storage_to_gpu"]["max_flows_per_link"]
    slot = g.links[path_links(g, ["cpu0", "snic0"])[0][0]].capacity("cpu0", "snic0")
    def breakeven(d):
        # the line rate whose data share gives each GPU d, if the slot leaves room above a drive
        return d * share / (ports_per_card * eth) if d is not None and slot / share > d * (1 + 1e-9) else None

    even = breakeven(nvme)
    evens = [breakeven(d) for d in drive_rates]
    low, high = rows[0], rows[-1]
    return {"rows": rows, "summary": {
        "storage_port_rate": float(headline),
        "storage_breakeven_port_rate": even,
        "storage_breakeven_low": min(evens) if evens and None not in evens else None,
        "storage_breakeven_high": max(evens) if evens and None not in evens else None,
        "storage_framing_efficiency": eth,
        "drive_read_low": min(drive_rates) if drive_rates else None,
        "drive_read_high": max(drive_rates) if drive_rates else None,
        "storage_faster_than_drive": bool(nvme is not None and r["storage_to_gpu"]["contended"] > nvme * (1 + 1e-9)),
        "storage_sweep_low_rate": low["port_rate"], "storage_sweep_high_rate": high["port_rate"],
        "storage_sweep_low_contended": low["contended"], "storage_sweep_high_contended": high["contended"],
    }}


def node_summary(g: Graph, r: dict, power: dict, *, gpus, cpu_sockets, cpu_cores, gpu_nvlink_bw,
                 pcie_transfer_rate, pcie_lanes, nvme_lanes, drive_read_bw, nic_port_rate, memory_channels,
                 memory_transfer_rate, dram_capacity, data_drives, data_drive_capacity, gpu_tdp, cpu_tdp,
                 system_max_power, message, cluster_gpus, pcie_payload_efficiency, pcie_max_payload,
                 nvme_transfer_rate) -> dict:
    """The numbers the page quotes: the node's parts, its link rates, each path's rates, the power."""
    counts = {kind: len(g.of_kind(kind)) for kind in KINDS}
    return {
        "gpus": gpus, "cpu_sockets": cpu_sockets, "cpu_cores": int(cpu_cores),
        "nvswitches": counts["nvswitch"], "pcie_switches": counts["pcie_switch"],
        "compute_nics": counts["nic"], "storage_nics": counts["storage_nic"],
        "data_drives": counts["nvme"],
        "dram_capacity": dram_capacity,
        "data_storage": data_drives * data_drive_capacity,
        "components": len(g.nodes), "links": len(g.links),
        "pcie_transfer_rate": pcie_transfer_rate,
        "nvme_transfer_rate": nvme_transfer_rate,
        "nvme_lanes": int(nvme_lanes),
        "memory_channels": int(memory_channels), "memory_transfer_rate": memory_transfer_rate,
        "gpu_tdp": gpu_tdp, "cpu_tdp": cpu_tdp,
        "pcie_x16_rate": pcie_rate(pcie_transfer_rate, pcie_lanes),
        "pcie_nvme_rate": pcie_rate(nvme_transfer_rate, nvme_lanes),
        "pcie_payload_efficiency": pcie_payload_efficiency, "pcie_max_payload": pcie_max_payload,
        "pcie_x16_payload_rate": pcie_rate(pcie_transfer_rate, pcie_lanes) * pcie_payload_efficiency,
        "pcie_nvme_payload_rate": pcie_rate(nvme_transfer_rate, nvme_lanes) * pcie_payload_efficiency,
        "drive_read_bw": drive_read_bw,
        "dram_rate_per_socket": dram_rate(memory_channels, memory_transfer_rate),
        "nvlink_per_gpu_per_direction": gpu_nvlink_bw / 2,
        "nic_port_rate": nic_port_rate,
        "node_fabric_bw": gpus * nic_port_rate,  # 8 x 400 Gb/s
        "nvlink_to_nic_ratio": (gpu_nvlink_bw / 2) / nic_port_rate,
        "message": message,
        **{f"{k}_alone": v["alone"] for k, v in r.items()},
        **{f"{k}_contended": v["contended"] for k, v in r.items()},
        "nvme_to_gpu_aggregate": r["nvme_to_gpu"]["aggregate"] if "nvme_to_gpu" in r else 0.0,
        **{f"{k}_sharing": r[k]["max_flows_per_link"] for k in ("gpu_to_nic", "host_to_gpu", "storage_to_gpu")},
        "host_to_gpu_busiest_utilisation": r["host_to_gpu"]["busiest_link_utilisation"],
        "gpu_power": power["gpu_power"], "cpu_power": power["cpu_power"], "other_power": power["other_power"],
        "system_max_power": system_max_power, "gpu_share": power["gpu_share"],
        "power_per_gpu": power["power_per_gpu"],
        "cluster_gpus": int(cluster_gpus),
    }


def timing_problems(r: dict, power: dict, data_storage: float, gpus: int, message: float, cluster_gpus: int,
                    system_max_power: float, host_read_rate: float) -> dict:
    """Worked problems: all GPUs push `message` bytes each, and the cluster's node count and power.

    The host copy is timed twice: at the posted-write best case (the graph's contended rate) and at
    scene 02's calibrated read rate, which the same DDR5 share caps (the contended rate is already
    the smaller of the x16 link and the socket's share, so the read runs at the smaller of the two)."""
    nodes_in_cluster = -(-int(cluster_gpus) // gpus)
    host_read = min(host_read_rate, r["host_to_gpu"]["contended"])
    return {
        "host_read_time": message / host_read,
        "fabric_time": message / r["gpu_to_nic"]["contended"],
        "storage_time": message / r["storage_to_gpu"]["contended"],
        "storage_slowdown": r["gpu_to_nic"]["contended"] / r["storage_to_gpu"]["contended"],
        "host_time": message / r["host_to_gpu"]["contended"],
        "nvlink_time": message / r["gpu_to_gpu"]["contended"],
        "local_data_read_time": (data_storage / r["nvme_to_gpu"]["aggregate"]
                                 if "nvme_to_gpu" in r else 0.0),
        "cluster_nodes": nodes_in_cluster,
        "cluster_max_power": nodes_in_cluster * system_max_power,
        "cluster_gpu_power": nodes_in_cluster * power["gpu_power"],
    }


def generation_rows(gpus: int, cpu_sockets: int, compute_nics: int, storage_nics: int, gpu_nvlink_bw: float,
                    system_max_power: float, nic_port_rate: float, *blackwell: Server) -> list[dict]:
    """The modelled H100 node and the Blackwell nodes side by side, one row each.

    The H100 row is this scene's own parameters, so it moves with them; every row
    takes the compute NIC's port rate (each names a 400 Gb/s ConnectX-7)."""
    h100 = Server("dgx_h100", "DGX H100 (modelled)", "Xeon Platinum 8480C (x86)", "ConnectX-7", int(gpus),
                  int(cpu_sockets), int(compute_nics), int(storage_nics), float(gpu_nvlink_bw),
                  float(system_max_power))
    rows = []
    for n in (h100, *blackwell):
        rows.append({
            "key": n.key, "name": n.name, "host_cpu": n.host_cpu, "storage_nic": n.storage_nic,
            "gpus": n.gpus, "host_cpus": n.host_cpus, "gpus_per_host_cpu": n.gpus_per_host_cpu,
            "compute_nics": n.compute_nics, "storage_nics": n.storage_nics,
            "nvlink_per_direction": n.gpu_nvlink_bw / 2,
            "nvlink_to_nic": (n.gpu_nvlink_bw / 2) / nic_port_rate,
            "max_power": n.max_power,
            "power_per_gpu": None if n.max_power is None else n.max_power / n.gpus,
        })
    return rows


def check_generation_claims(rows: list[dict]) -> None:
    """What the page says of the Blackwell nodes beside the H100 one."""
    h100, b200, tray = rows
    check(all(r["compute_nics"] == r["gpus"] for r in rows),
          "every generation keeps one compute NIC per GPU")
    check(b200["nvlink_per_direction"] == 2 * h100["nvlink_per_direction"] and
          b200["nvlink_to_nic"] == 2 * h100["nvlink_to_nic"],
          "a Blackwell GPU has twice the H100's NVLink behind the same 400G NIC")
    check(b200["power_per_gpu"] > h100["power_per_gpu"],
          "the B200 node spends more power per GPU than the H100 node")
    check(tray["gpus_per_host_cpu"] < h100["gpus_per_host_cpu"],
          "the GB200 tray gives each Grace CPU fewer GPUs than an x86 socket feeds in a DGX")


def generation_summary(rows: list[dict]) -> dict:
    """The Blackwell numbers the page quotes in its prose."""
    h100, b200, tray = rows
    return {
        "b200_node_power": b200["max_power"], "b200_power_per_gpu": b200["power_per_gpu"],
        "b200_nvlink_per_direction": b200["nvlink_per_direction"], "b200_nvlink_to_nic": b200["nvlink_to_nic"],
        "b200_dpus": b200["storage_nics"],
        "gb200_tray_gpus": tray["gpus"], "gb200_tray_cpus": tray["host_cpus"],
        "gb200_gpus_per_cpu": tray["gpus_per_host_cpu"], "h100_gpus_per_socket": h100["gpus_per_host_cpu"],
        "b200_power_ratio": b200["power_per_gpu"] / h100["power_per_gpu"],
    }


def host_link_summary(c2c_bw: float, x16_raw: float, x16_payload: float) -> dict:
    """A GPU's link to its host CPU: NVLink-C2C (Grace) against PCIe 5.0 x16 (x86), per direction.

    NVIDIA quotes C2C as both directions together, so each way gets half; the ratio is taken against
    the x16 link's raw rate (NVIDIA's own comparison) and against its payload, the rate this page's paths use."""
    each = c2c_bw / 2
    check(each > x16_raw, "NVLink-C2C gives a Grace GPU more host bandwidth each way than a PCIe 5.0 x16 link")
    return {"c2c_per_direction": each, "c2c_to_x16_raw": each / x16_raw, "c2c_to_x16_payload": each / x16_payload}


def path_table(r: dict, kinds: list[str], gpus: int, mix: dict, reads: dict, s: dict) -> Table:
    """Each kind of transfer: hops, parallel paths, narrowest link, alone versus all at once; then the
    all-reduce sharing its GPU's x16 link: its send with a checkpoint snapshot staged without blocking (the
    headline mixed row, at the fair share, then its high end when the measured large copy is slower), its
    receive with input reads."""
    rows = []
    for k in kinds:
        v = r[k]
        # the host path's capacities count a posted write's packets: the row says it is the best case
        name = v["name"] + (" (posted-write best case)" if k == "host_to_gpu" else "")
        rows.append([name, v["hops"], v["parallel_paths"], v["bottleneck_kind"],
                     v["alone"], v["contended"], v["max_flows_per_link"], v["aggregate"]])
    for m, name, into in ((mix, "all-reduce send during a checkpoint snapshot staged alongside it (GPU → host memory)",
                           "out of"),
                          (reads, "all-reduce receive during input reads (local drive and storage)",
                           "into")):
        nic = next(x for x in m["rows"] if x["key"] == m["nic"])
        neck = f"PCIe x16 {into} the GPU, full" if m["over"] else "the NIC port"
        rows.append([name, r["gpu_to_nic"]["hops"], 1, neck, nic["demand"], nic["rate"], len(m["rows"]),
                     nic["rate"] * gpus])
        # the snapshot's range as its own row: the send's high end is computed (the link less the measured
        # large copy out of the GPU), so the table and the CSV carry both ends, not the fair share alone
        if m is mix and s["mix_d2h_large_under_fair_share"]:
            rows.append([f"same send, high end: the snapshot's copy at {s['mix_d2h_large_measured'] / 1e9:.1f} GB/s"
                         " (measured for large copies, buffers likely on the far socket)",
                         r["gpu_to_nic"]["hops"], 1, neck, nic["demand"], s["mix_nic_rate_high"], len(m["rows"]),
                         s["mix_nic_rate_high"] * gpus])
    return Table(
        f"Per-path bandwidth in the {gpus}-GPU node, per direction: one transfer alone, "
        f"then all {gpus} GPUs at once (max-min fair shares)",
        [Column("path", "text"), Column("hops", "count"), Column("parallel paths", "count"),
         Column("narrowest link", "text"), Column("alone", "B/s"), Column(f"each, all {gpus} at once", "B/s"),
         Column("transfers on busiest link", "count"), Column("node total", "B/s")],
        rows,
    )


def mix_summary(mix: dict, prefix: str) -> dict:
    """One mix's numbers the page and the captions quote, each key under `prefix`."""
    rows = {x["key"]: x for x in mix["rows"]}
    nic = rows[mix["nic"]]
    out = {
        "classes": len(mix["rows"]), "capacity": mix["capacity"],
        "demand": mix["demand"], "demand_share": mix["demand_share"], "over": mix["over"],
        "load_share": mix["load_share"],
        "nic_demand": nic["demand"], "nic_rate": nic["rate"], "nic_slowdown": nic["slowdown"],
        "nic_loss": 1 - nic["rate"] / nic["demand"],
        "nic_data_share_to_fill": mix["nic_data_share_to_fill"],
        "others_keep_rate": mix["others_keep_rate"],
        **{k: rows[k]["demand"] if k in rows else 0.0 for k in ("gpu_to_host", "nvme_to_gpu", "storage_to_gpu")
           if k in rows or k == "nvme_to_gpu" and "nic_receive" in rows},
        **{f"{k}_rate": rows[k]["rate"] for k in rows if k != mix["nic"]},
    }
    return {prefix + k: v for k, v in out.items()}


def graph_record(g: Graph) -> dict:
    """The node's components and links as plain data, for the scene to draw."""
    return {
        "nodes": [{"name": n.name, "kind": n.kind, "index": n.index, "socket": n.socket}
                  for n in g.nodes.values()],
        "links": [{"a": ln.a, "b": ln.b, "bw_ab": ln.bw_ab, "bw_ba": ln.bw_ba, "kind": ln.kind,
                   "label": ln.label} for ln in g.links],
    }


__all__ = ["bottleneck", "transfer_bandwidth", "path_report", "hgx_server", "PATH_KINDS"]
