"""Tests for models/lib/fat_tree.py: the network links a message crosses in a rail-optimized fat-tree."""

from __future__ import annotations

from models.lib.fat_tree import gpu_coords, network_links

# 2 GPUs per node, 2 nodes per SU, radix 8 -> a pod is 4 leaves = 2 SUs; 16 GPUs = 2 pods.
SMALL = dict(gpus_per_node=2, su_nodes=2, sus_per_pod=2)


def test_small_topology_hops_by_hand():
    L = lambda a, b, pxn=False: network_links(a, b, pxn=pxn, **SMALL)  # noqa: E731
    assert L(0, 1) == 0  # same node: NVLink
    assert L(0, 2) == 2  # GPU 0 of node 0 -> GPU 0 of node 1: same rail, same SU
    assert L(0, 3) == 4  # cross rail, same SU: leaf -> spine -> leaf
    assert L(0, 3, pxn=True) == 2  # PXN: NVLink to GPU 1 first, then rail 1
    assert L(0, 4) == 4  # same rail, next SU, same pod
    assert L(0, 8) == 6  # another pod: through the core
    assert L(1, 15) == 6


def test_gpu_coords_of_a_small_topology():
    # GPU 13: node 6, rail 1, SU 3, pod 1
    assert tuple(int(x) for x in gpu_coords(13, **SMALL)) == (6, 1, 3, 1)
