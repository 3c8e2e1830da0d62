"""The HGX H100 node as a graph: its components, its links and the paths a transfer takes.

The node (NVIDIA DGX H100, the reference HGX H100 system) is a graph of
components joined by links, each link with a capacity per direction (B/s):

    GPU k --PCIe x16-- PCIe switch k --PCIe x16-- CPU socket s --DDR5-- DRAM s
                         |        |                  |
                NIC k (x16)   NVMe k (x4)      storage NIC s (x16) -- storage fabric
                  |
            compute fabric port k (one NDR 400 Gb/s port)
    GPU k ==NVLink== NVSwitch j  (every GPU on all four switches)

GPU k and NIC k sit behind the same PCIe switch: the 1:1 pairing that lets a
GPU reach its own 400G port without touching a CPU (GPUDirect RDMA).

Path finding is breadth-first over the fixed topology. Only switches, CPUs
and NICs forward traffic; GPUs, DRAM, drives and fabric ports are endpoints.
A transfer uses every shortest path at once (NVLink traffic stripes over the
four NVSwitches); a PCIe transfer has exactly one. Under contention (several
transfers at once) the rates are max-min fair (progressive filling): every
sub-flow grows at the same pace until some link fills; the sub-flows through
it freeze; repeat.

PCIe 5.0 x16 per direction: 32 GT/s x 16 lanes x 128/130 / 8 = 63.0 GB/s after
line coding; build_node charges TLP/DLLP overheads through pcie_payload_efficiency
(counted as models/pcie_cxl.py counts them; 1 charges none). A
data drive reads at the smaller of its x4 link and its rated sequential read.
DDR5 per socket: channels x transfer rate x 8 bytes.

Power budget: the GPUs' and CPUs' TDPs summed against the system's maximum;
the remainder (NVSwitches, NICs, DRAM, drives, fans, conversion losses) is
what is left of the datasheet's maximum, not itemised by any source here.

Pure stdlib, SI units: bytes, seconds, bytes per second, watts.
"""

from __future__ import annotations

from collections import deque
from dataclasses import dataclass, field

from models import scenario_facts
from models.exhibit import Param, ParamError

# ---------------------------------------------------------------------------
# the graph
# ---------------------------------------------------------------------------

TRANSIT = {"cpu", "pcie_switch", "nvswitch", "nic", "storage_nic"}  # kinds that forward
KINDS = ("cpu", "dram", "pcie_switch", "nic", "storage_nic", "gpu", "nvswitch", "nvme",
         "net", "storage")


@dataclass(frozen=True)
class Node:
    name: str
    kind: str  # one of KINDS
    index: int  # k for gpu/nic/switch/nvme, s for cpu/dram, j for nvswitch
    socket: int  # the CPU socket whose PCIe tree holds it (-1: none, e.g. NVSwitch)


@dataclass(frozen=True)
class Link:
    a: str
    b: str
    bw_ab: float  # capacity a -> b, B/s
    bw_ba: float  # capacity b -> a, B/s
    kind: str  # "pcie", "nvlink", "network", "memory"
    label: str = ""

    def capacity(self, src: str, dst: str) -> float:
        if (src, dst) == (self.a, self.b):
            return self.bw_ab
        if (src, dst) == (self.b, self.a):
            return self.bw_ba
        raise KeyError(f"link {self.a}-{self.b} does not join {src} and {dst}")


@dataclass
class Graph:
    nodes: dict[str, Node] = field(default_factory=dict)
    links: list[Link] = field(default_factory=list)
    adj: dict[str, list[tuple[str, int]]] = field(default_factory=dict)  # name -> [(nbr, link id)]

    def add_node(self, name: str, kind: str, index: int, socket: int = -1) -> None:
        if name in self.nodes:
            raise ValueError(f"node {name!r} added twice")
        if kind not in KINDS:
            raise ValueError(f"unknown node kind {kind!r}")
        self.nodes[name] = Node(name, kind, index, socket)
        self.adj[name] = []

    def add_link(self, a: str, b: str, bw: float, kind: str, bw_back: float | None = None,
                 label: str = "") -> None:
        if bw <= 0 or (bw_back is not None and bw_back <= 0):
            raise ValueError(f"link {a}-{b}: capacity must be positive")
        link = Link(a, b, float(bw), float(bw if bw_back is None else bw_back), kind, label)
        self.links.append(link)
        i = len(self.links) - 1
        self.adj[a].append((b, i))
        self.adj[b].append((a, i))

    def of_kind(self, kind: str) -> list[Node]:
        return sorted((n for n in self.nodes.values() if n.kind == kind), key=lambda n: n.index)

    def neighbours(self, name: str, kind: str) -> list[str]:
        return [m for m, _ in self.adj[name] if self.nodes[m].kind == kind]


def pcie_rate(transfer_rate: float, lanes: int) -> float:
    """PCIe payload-line rate per direction: GT/s x lanes x 128/130 / 8 (bytes/s)."""
    if lanes <= 0 or transfer_rate <= 0:
        raise ValueError("need positive lanes and transfer rate")
    return transfer_rate * lanes * 128 / 130 / 8


def dram_rate(channels: int, transfer_rate: float, bytes_per_transfer: int = 8) -> float:
    """Peak DDR bandwidth of one socket: channels x MT/s x 8 bytes (64-bit channel)."""
    return channels * transfer_rate * bytes_per_transfer


def split_links(total: int, parts: int) -> list[int]:
    """Spread `total` NVLinks over `parts` switches as evenly as possible, larger at the ends.

    18 over 4 gives [5, 4, 4, 5]. Only the sum matters to any result here: a
    GPU-to-GPU transfer stripes over every switch.
    """
    if parts <= 0 or total < parts:  # a switch no GPU reaches: settings that contradict each other
        raise ParamError("nvlinks_per_gpu", total, f"at least one per NVSwitch ({parts})")
    base, extra = divmod(total, parts)
    out = [base] * parts
    order = [i for pair in zip(range(parts), reversed(range(parts))) for i in pair]
    seen: list[int] = []
    for i in order:
        if i not in seen:
            seen.append(i)
    for i in seen[:extra]:
        out[i] += 1
    return out


def build_node(
    gpus: int,
    cpu_sockets: int,
    nvswitches: int,
    nvlinks_per_gpu: int,
    gpu_nvlink_bw: float,
    pcie_transfer_rate: float,
    pcie_lanes: int,
    nvme_lanes: int,
    nic_port_rate: float,
    storage_nics: int,
    storage_nic_ports: int,
    memory_channels: int,
    memory_transfer_rate: float,
    data_drives: int,
    drive_read_bw: float = float("inf"),
    pcie_payload_efficiency: float = 1.0,
    nvme_transfer_rate: float | None = None,
    memory_efficiency: float = 1.0,
    storage_port_rate: float | None = None,
) -> Graph:
    """The HGX H100 node as a graph (see the module docstring for the wiring).

    gpu_nvlink_bw is the datasheet's bidirectional per-GPU NVLink figure;
    each direction gets half, spread over the NVSwitches by link count.
    pcie_payload_efficiency is the share of a PCIe link's data rate that is payload
    (`models.scenario_facts.pcie_payload_efficiency`); 1 charges no packet overhead.
    nvme_transfer_rate is a data drive's own per-lane rate (a PCIe 4.0 drive in a 5.0 slot
    trains at 16 GT/s); None gives it the slot's. memory_efficiency is the share of the DDR
    peak a socket sustains; 1 is the peak. storage_port_rate is each storage port's rate (the
    switch it plugs into may be slower than the card); None gives it the compute port's.
    """
    if not 0 < memory_efficiency <= 1:
        raise ValueError(f"memory_efficiency is a share in (0, 1]: {memory_efficiency}")
    if not 0 < pcie_payload_efficiency <= 1:
        raise ValueError(f"pcie_payload_efficiency is a share in (0, 1]: {pcie_payload_efficiency}")
    if gpus % cpu_sockets:
        raise ValueError("GPUs must split evenly over the CPU sockets")
    if storage_nics % cpu_sockets:
        raise ValueError("storage NICs must split evenly over the CPU sockets")
    if data_drives > gpus:
        raise ValueError("this layout puts at most one data drive behind each GPU's switch")
    g = Graph()
    per_socket = gpus // cpu_sockets
    x16 = pcie_rate(pcie_transfer_rate, pcie_lanes) * pcie_payload_efficiency
    nvme_rate = pcie_transfer_rate if nvme_transfer_rate is None else nvme_transfer_rate
    nvme_link = pcie_rate(nvme_rate, nvme_lanes) * pcie_payload_efficiency
    x_nvme = min(nvme_link, drive_read_bw)  # the drive or its link
    ddr = dram_rate(memory_channels, memory_transfer_rate) * memory_efficiency
    nvlink_dir = gpu_nvlink_bw / 2  # per direction per GPU
    per_link = nvlink_dir / nvlinks_per_gpu

    for s in range(cpu_sockets):
        g.add_node(f"cpu{s}", "cpu", s, s)
        g.add_node(f"dram{s}", "dram", s, s)
        g.add_link(f"dram{s}", f"cpu{s}", ddr, "memory", label="DDR5")
    for j in range(nvswitches):
        g.add_node(f"nvs{j}", "nvswitch", j)
    links = split_links(nvlinks_per_gpu, nvswitches)
    for k in range(gpus):
        s = k // per_socket
        g.add_node(f"sw{k}", "pcie_switch", k, s)
        g.add_node(f"gpu{k}", "gpu", k, s)
        g.add_node(f"nic{k}", "nic", k, s)
        g.add_node(f"net{k}", "net", k, s)
        g.add_link(f"cpu{s}", f"sw{k}", x16, "pcie", label=f"PCIe x{pcie_lanes}")
        g.add_link(f"sw{k}", f"gpu{k}", x16, "pcie", label=f"PCIe x{pcie_lanes}")
        g.add_link(f"sw{k}", f"nic{k}", x16, "pcie", label=f"PCIe x{pcie_lanes}")
        g.add_link(f"nic{k}", f"net{k}", nic_port_rate, "network", label="NDR port")
        for j in range(nvswitches):
            g.add_link(f"gpu{k}", f"nvs{j}", links[j] * per_link, "nvlink",
                       label=f"{links[j]} NVLinks")
        if k < data_drives:
            g.add_node(f"nvme{k}", "nvme", k, s)
            g.add_link(f"nvme{k}", f"sw{k}", x_nvme, "pcie",
                       label="drive read" if drive_read_bw < nvme_link else f"PCIe x{nvme_lanes}")
    per_socket_snic = storage_nics // cpu_sockets
    snic_port = nic_port_rate if storage_port_rate is None else storage_port_rate
    for i in range(storage_nics):
        s = i // per_socket_snic
        g.add_node(f"snic{i}", "storage_nic", i, s)
        g.add_node(f"storage{i}", "storage", i, s)
        g.add_link(f"cpu{s}", f"snic{i}", x16, "pcie", label=f"PCIe x{pcie_lanes}")
        g.add_link(f"snic{i}", f"storage{i}", storage_nic_ports * snic_port, "network",
                   label=f"{storage_nic_ports} ports")
    return g


# The node's parameters, declared once: every scene that builds the node (hgx-server,
# gpudirect-storage) declares the same.
NODE_PARAMS = dict(
    gpus=Param.integer("count", "GPUs per node", minimum=2, maximum=64),
    cpu_sockets=Param.integer("count", "CPU sockets", maximum=8),
    cpu_cores=Param.integer("count", "CPU cores per node"),
    nvswitches=Param.integer("count", "NVSwitch chips", maximum=64),
    nvlinks_per_gpu=Param.integer("count", "NVLinks per GPU", maximum=64),
    gpu_nvlink_bw=Param.positive("B/s", "NVLink bandwidth per GPU (both directions)"),
    pcie_transfer_rate=Param.positive("T/s", "PCIe signalling rate per lane"),
    pcie_lanes=Param.integer("count", "PCIe lanes of a GPU, NIC or switch link", maximum=32),
    nvme_lanes=Param.integer("count", "PCIe lanes of a data drive", maximum=16),
    drive_read_bw=Param.positive("B/s", "a data drive's rated sequential read"),
    storage_nics=Param.integer("count", "storage NICs", maximum=16),
    storage_nic_ports=Param.integer("count", "ports per storage NIC", maximum=4),
    memory_channels=Param.integer("count", "DDR5 channels per socket", maximum=24),
    memory_transfer_rate=Param.positive("T/s", "DDR5 transfer rate"),
)

# PCIe packets, as pcie-cxl counts them: the links carry payload, not headers
PCIE_PACKET_PARAMS = dict(
    pcie_header_bytes=Param.positive("B", "TLP header"),
    pcie_framing_seq_bytes=Param.positive("B", "TLP framing and sequence number"),
    pcie_lcrc_bytes=Param.positive("B", "TLP link CRC"),
    pcie_dllp_bytes=Param.number("B", "one DLLP (acknowledgement or flow control)", minimum=0),
    pcie_tlps_per_dllp=Param.positive("count", "TLPs per DLLP"),
    pcie_max_payload=Param.positive("B", "maximum TLP payload", maximum=4096),
)


def pcie_packet_efficiency(pcie_header_bytes: float, pcie_framing_seq_bytes: float, pcie_lcrc_bytes: float,
                           pcie_dllp_bytes: float, pcie_tlps_per_dllp: float, pcie_max_payload: float) -> float:
    """The share of a PCIe link that is payload, from PCIE_PACKET_PARAMS (one function for every scene)."""
    return scenario_facts.pcie_payload_efficiency(
        pcie_max_payload, pcie_header_bytes + pcie_framing_seq_bytes + pcie_lcrc_bytes, pcie_dllp_bytes,
        pcie_tlps_per_dllp)


# ---------------------------------------------------------------------------
# paths
# ---------------------------------------------------------------------------

def shortest_paths(g: Graph, src: str, dst: str) -> list[list[str]]:
    """Every shortest path src -> dst by BFS; only TRANSIT kinds may be passed through."""
    if src not in g.nodes or dst not in g.nodes:
        raise KeyError(f"unknown node {src if src not in g.nodes else dst!r}")
    dist = {src: 0}
    parents: dict[str, list[str]] = {src: []}
    q = deque([src])
    while q:
        u = q.popleft()
        if u == dst:
            continue
        if u != src and g.nodes[u].kind not in TRANSIT:
            continue  # endpoints do not forward
        for v, _ in g.adj[u]:
            if v not in dist:
                dist[v] = dist[u] + 1
                parents[v] = [u]
                q.append(v)
            elif dist[v] == dist[u] + 1:
                parents[v].append(u)
    if dst not in dist:
        raise ValueError(f"no path from {src} to {dst} in this topology")

    out: list[list[str]] = []

    def walk(v: str, tail: list[str]) -> None:
        if v == src:
            out.append([src, *tail])
            return
        for p in sorted(parents[v]):
            walk(p, [v, *tail])

    walk(dst, [])
    return out


def path_links(g: Graph, path: list[str]) -> list[tuple[int, str, str]]:
    """(link id, from, to) for each hop of a path."""
    hops = []
    for u, v in zip(path, path[1:]):
        ids = [i for m, i in g.adj[u] if m == v]
        if not ids:
            raise ValueError(f"{u} and {v} are not adjacent")
        hops.append((ids[0], u, v))
    return hops


def allocate(g: Graph, flows: list[tuple[str, str]]) -> dict:
    """Max-min fair rates for simultaneous transfers (progressive filling).

    Each transfer is split into one sub-flow per shortest path. All unfrozen
    sub-flows grow together; when a directed link fills, the sub-flows on it
    freeze. Returns per-transfer rates, per-directed-link load and flow counts.
    """
    subs: list[tuple[int, list[tuple[int, str, str]]]] = []
    for f, (src, dst) in enumerate(flows):
        for p in shortest_paths(g, src, dst):
            subs.append((f, path_links(g, p)))
    # directed link key: (link id, from)
    cap: dict[tuple[int, str], float] = {}
    users: dict[tuple[int, str], list[int]] = {}
    for s, (_, hops) in enumerate(subs):
        for i, u, v in hops:
            key = (i, u)
            cap[key] = g.links[i].capacity(u, v)
            users.setdefault(key, []).append(s)
    rate = [0.0] * len(subs)
    frozen = [False] * len(subs)
    for _ in range(len(cap) + 1):  # each round fills at least one link: bounded
        if all(frozen):
            break
        # the smallest equal increment that fills some link
        inc = min((cap[k] - sum(rate[s] for s in us)) / sum(1 for s in us if not frozen[s])
                  for k, us in users.items() if any(not frozen[s] for s in us))
        for s in range(len(subs)):
            if not frozen[s]:
                rate[s] += inc
        for k, us in users.items():
            if sum(rate[s] for s in us) >= cap[k] * (1 - 1e-12):
                for s in us:
                    frozen[s] = True
    rates = [0.0] * len(flows)
    for s, (f, _) in enumerate(subs):
        rates[f] += rate[s]
    load = {k: sum(rate[s] for s in us) for k, us in users.items()}
    count = {k: len({subs[s][0] for s in us}) for k, us in users.items()}
    return {"rates": rates, "load": load, "flows_on_link": count, "capacity": cap}


def flows_for(g: Graph, kind: str) -> list[tuple[str, str]]:
    """One transfer per GPU of the given kind (a key of the scene's path kinds), every GPU at once."""
    gpus = g.of_kind("gpu")
    n = len(gpus)
    snics = g.of_kind("storage_nic")
    drives = {d.index for d in g.of_kind("nvme")}
    out = []
    for gn in gpus:
        k, s = gn.index, gn.socket
        if kind == "gpu_to_nic":
            out.append((gn.name, f"net{k}"))
        elif kind == "gpu_to_gpu":
            out.append((gn.name, f"gpu{(k + 1) % n}"))
        elif kind == "host_to_gpu":
            out.append((f"dram{s}", gn.name))  # NUMA-local pinned buffer
        elif kind == "nvme_to_gpu":
            if k in drives:
                out.append((f"nvme{k}", gn.name))
        elif kind == "storage_to_gpu":
            local = [sn for sn in snics if sn.socket == s]
            sn = local[(k % (n // len({x.socket for x in gpus}))) % len(local)]
            out.append((f"storage{sn.index}", gn.name))
        else:
            raise KeyError(f"unknown path kind {kind!r}")
    return out


# ---------------------------------------------------------------------------
# power
# ---------------------------------------------------------------------------

def power_budget(gpus: int, gpu_tdp: float, cpu_sockets: int, cpu_tdp: float,
                 system_max_power: float) -> dict:
    """TDPs of the GPUs and CPUs against the system maximum; the rest is the remainder."""
    gpu_w, cpu_w = gpus * gpu_tdp, cpu_sockets * cpu_tdp
    rest = system_max_power - gpu_w - cpu_w
    if rest < 0:  # a node rated below its own parts: settings that contradict each other, refused by name
        raise ParamError("gpu_tdp", gpu_tdp, f"at most {(system_max_power - cpu_w) / gpus:g} W: {gpus} GPUs and "
                         f"{cpu_w:g} W of CPUs must fit the node's maximum power ({system_max_power:g} W)")
    return {
        "gpu_power": gpu_w, "cpu_power": cpu_w, "other_power": rest,
        "system_max_power": system_max_power,
        "gpu_share": gpu_w / system_max_power, "cpu_share": cpu_w / system_max_power,
        "other_share": rest / system_max_power,
        "power_per_gpu": system_max_power / gpus,
    }
