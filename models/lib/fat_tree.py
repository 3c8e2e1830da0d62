"""Paths through a rail-optimized fat-tree: how many network links a message crosses.

Rail-optimized layout (DGX SuperPOD RA). A node has g GPUs, each with its own
NIC; GPU r of every node in a scalable unit (SU) plugs into leaf r of that SU
(its "rail"). Network links traversed host to host:

    same node                  0  (NVLink inside the node)
    same SU, same rail         2  (GPU -> leaf -> GPU: one switch)
    same pod, otherwise        4  (leaf -> spine -> leaf)
    different pods (3 tiers)   6  (leaf -> spine -> core -> spine -> leaf)

A pod is the SUs one spine group serves. With PXN (NCCL's PCIe x NVLink), a GPU
first hands cross-rail data over NVLink to the peer GPU on the destination's
rail, so cross-rail traffic inside an SU also stays at the leaf.

Pure numpy.
"""

from __future__ import annotations

import numpy as np


def gpu_coords(gpu, gpus_per_node: int, su_nodes: int, sus_per_pod: int):
    """(node, rail, su, pod) of global GPU indices (numpy arrays or ints)."""
    gpu = np.asarray(gpu)
    node = gpu // gpus_per_node
    rail = gpu % gpus_per_node
    su = node // su_nodes
    pod = su // sus_per_pod
    return node, rail, su, pod


def network_links(src, dst, gpus_per_node: int, su_nodes: int, sus_per_pod: int,
                  pxn: bool = False):
    """Network links a message crosses from GPU src to GPU dst (see module docstring).

    pxn=True: cross-rail data moves over NVLink to the destination's rail first,
    so it travels the network as same-rail traffic.
    """
    n0, r0, s0, p0 = gpu_coords(src, gpus_per_node, su_nodes, sus_per_pod)
    n1, r1, s1, p1 = gpu_coords(dst, gpus_per_node, su_nodes, sus_per_pod)
    same_rail = (r0 == r1) | bool(pxn)
    links = np.where(n0 == n1, 0,
                     np.where((s0 == s1) & same_rail, 2,
                              np.where(p0 == p1, 4, 6)))
    return links if links.ndim else int(links)
