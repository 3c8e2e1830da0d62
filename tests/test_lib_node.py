"""Tests for models/lib/node.py: the HGX H100 node's graph, its paths and its power budget."""

from __future__ import annotations

import pytest

from models.constants import const
from models.lib import node

GRAPH_ARGS = ("gpus", "cpu_sockets", "nvswitches", "nvlinks_per_gpu", "gpu_nvlink_bw",
              "pcie_transfer_rate", "pcie_lanes", "nvme_lanes", "nic_port_rate", "storage_nics",
              "storage_nic_ports", "memory_channels", "memory_transfer_rate", "data_drives", "drive_read_bw")


@pytest.fixture(scope="module")
def g(scene_params):
    """The node as the hgx-server scene's catalogue entry declares it."""
    params = scene_params("hgx-server")
    return node.build_node(*(params[k] for k in GRAPH_ARGS))


def test_pcie_and_dram_rates():
    # 32 GT/s x 16 lanes x 128/130 / 8 bits = 63.015 GB/s per direction
    assert node.pcie_rate(32e9, 16) == pytest.approx(63.015e9, rel=1e-4)
    assert node.pcie_rate(32e9, 4) == pytest.approx(node.pcie_rate(32e9, 16) / 4)
    # 8 channels x 4400 MT/s x 8 bytes = 281.6 GB/s per socket
    assert node.dram_rate(8, 4400e6) == pytest.approx(281.6e9)
    with pytest.raises(ValueError):
        node.pcie_rate(32e9, 0)


def test_pcie_links_carry_their_payload_share(scene_params):
    # packet overhead scales every PCIe link (x16 and the drives' x4) and nothing else
    params = scene_params("hgx-server")
    args = [params[k] for k in GRAPH_ARGS]
    full, half = node.build_node(*args), node.build_node(*args, pcie_payload_efficiency=0.5)
    for a, b in zip(full.links, half.links, strict=True):
        scale = 0.5 if a.kind == "pcie" and a.label != "drive read" else 1.0  # a drive below its link keeps its rate
        assert (b.bw_ab, b.bw_ba) == pytest.approx((a.bw_ab * scale, a.bw_ba * scale)), (a.a, a.b)
    for bad in (0.0, 1.5):
        with pytest.raises(ValueError, match="pcie_payload_efficiency"):
            node.build_node(*args, pcie_payload_efficiency=bad)


@pytest.mark.parametrize("total,parts", [(18, 4), (12, 6), (18, 3), (7, 4)])
def test_split_links_conserves_and_balances(total, parts):
    s = node.split_links(total, parts)
    assert sum(s) == total and len(s) == parts and max(s) - min(s) <= 1
    assert s == s[::-1] or total % parts % 2  # symmetric when the remainder is even


def test_every_gpu_has_its_own_nic_behind_its_own_switch(g):
    # the 1:1 pairing (DGX H100 user guide, Table 6: one ConnectX-7 per GPU)
    nics_seen = set()
    for gn in g.of_kind("gpu"):
        sw = g.neighbours(gn.name, "pcie_switch")
        assert len(sw) == 1
        nics = g.neighbours(sw[0], "nic")
        assert len(nics) == 1, "exactly one compute NIC per switch"
        assert g.neighbours(sw[0], "gpu") == [gn.name], "exactly one GPU per switch"
        assert g.nodes[nics[0]].socket == gn.socket
        nics_seen.add(nics[0])
        # and the GPU reaches it without a CPU on the way
        (path,) = node.shortest_paths(g, gn.name, nics[0])
        assert not any(g.nodes[n].kind == "cpu" for n in path)
    assert len(nics_seen) == len(g.of_kind("gpu"))


def test_gpus_split_evenly_over_sockets(g):
    sockets = [gn.socket for gn in g.of_kind("gpu")]
    assert sorted(set(sockets)) == [0, 1] and sockets.count(0) == sockets.count(1) == 4


def test_every_gpu_touches_every_nvswitch_with_its_full_nvlink(g):
    per_dir = const("h100_nvlink_bw") / 2
    for gn in g.of_kind("gpu"):
        links = [g.links[i] for _, i in g.adj[gn.name] if g.links[i].kind == "nvlink"]
        assert len(links) == const("hgx_h100_nvswitch_chips")
        assert sum(ln.bw_ab for ln in links) == pytest.approx(per_dir)


def test_endpoints_do_not_forward(g):
    # host DRAM on socket 0 cannot reach a GPU on socket 1 by hopping through GPUs or NVSwitches
    with pytest.raises(ValueError):
        node.shortest_paths(g, "dram0", "gpu4")
    for p in node.shortest_paths(g, "gpu0", "gpu5"):
        assert all(g.nodes[n].kind in node.TRANSIT for n in p[1:-1])
