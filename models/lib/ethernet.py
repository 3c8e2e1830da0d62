"""The data rate of a RoCE v2 Ethernet port: its line rate less what every frame spends besides data.

One frame at the MTU carries `mtu` payload bytes and costs the wire those bytes plus the
Ethernet preamble/SFD, MAC header, FCS and inter-packet gap (IEEE 802.3), the IPv4 (RFC 791)
and UDP (RFC 768) headers, and RoCE's base transport header and invariant CRC (IBTA RoCE v2
annex). Every scene that puts the DGX H100's storage port in its graph (hgx-server,
gpudirect-storage) computes the port's data rate here, once, from the same constants
(models/constants/network.py), declared as ROCE_FRAME_PARAMS.

Pure stdlib, SI units: bytes, bytes per second.
"""

from __future__ import annotations

from models.exhibit import Param

# A RoCE v2 frame's byte counts, declared once: every scene that frames the storage port declares the same.
ROCE_FRAME_PARAMS = dict(
    storage_mtu=Param.positive("B", "payload bytes per RoCE packet on the storage port"),
    eth_preamble_bytes=Param.positive("B", "Ethernet preamble and SFD"),
    eth_header_bytes=Param.positive("B", "Ethernet MAC header"),
    eth_fcs_bytes=Param.positive("B", "Ethernet FCS"),
    eth_gap_bytes=Param.positive("B", "Ethernet inter-packet gap"),
    ip_header_bytes=Param.positive("B", "IPv4 header"),
    udp_header_bytes=Param.positive("B", "UDP header"),
    roce_bth_bytes=Param.positive("B", "RoCE base transport header"),
    roce_icrc_bytes=Param.positive("B", "RoCE invariant CRC"),
)


def frame_efficiency(mtu: float, *overheads: float) -> float:
    """The share of an Ethernet port's line rate that is data: one full packet's payload over the bytes
    the wire spends on its frame (payload plus every header, trailer, preamble and gap)."""
    if mtu <= 0 or any(o < 0 for o in overheads):
        raise ValueError("need a positive MTU and non-negative overheads")
    return mtu / (mtu + sum(overheads))


def roce_frame_efficiency(storage_mtu: float, eth_preamble_bytes: float, eth_header_bytes: float,
                          eth_fcs_bytes: float, eth_gap_bytes: float, ip_header_bytes: float,
                          udp_header_bytes: float, roce_bth_bytes: float, roce_icrc_bytes: float) -> float:
    """The share of a RoCE v2 port's line rate that is data, from ROCE_FRAME_PARAMS (one function for
    every scene): one frame at the MTU."""
    return frame_efficiency(storage_mtu, eth_preamble_bytes, eth_header_bytes, ip_header_bytes, udp_header_bytes,
                            roce_bth_bytes, roce_icrc_bytes, eth_fcs_bytes, eth_gap_bytes)
