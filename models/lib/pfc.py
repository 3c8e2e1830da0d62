"""Priority flow control headroom: the bytes a lossless port must hold above XOFF.

Per priority (one of 8, IEEE 802.1Qbb), a receiver lets packets in until its
ingress count for that priority crosses XOFF, then sends a PAUSE upstream.
Bytes keep arriving while the PAUSE travels and the sender reacts, so each
lossless ingress priority needs *headroom* above XOFF. On the wire that is

    H = 2 MTU + P + R (2 L t_prop + t_resp)

with R the link rate (B/s), L the cable length, t_prop the propagation delay
per metre, t_resp the time for the far end to stop after the PAUSE lands, P
the PAUSE frame itself (64 B) and 2 MTU the frames already being serialised
at each end when the decision is taken (a PAUSE cannot preempt a frame).
Cisco's PFC white paper itemises the same terms. H counts bytes on the wire:
a lower bound on what a switch reserves.

Pure numpy, SI units: bytes, seconds, bytes per second.
"""

from __future__ import annotations

import numpy as np

PAUSE_FRAME_BYTES = 64  # an 802.1Qbb PFC frame is a minimum-size MAC control frame


def pfc_headroom(cable_m, rate, mtu: float, prop_delay_per_m: float, response_time: float):
    """H = 2 MTU + PAUSE + R (2 L t_prop + t_resp): bytes on the wire above XOFF, per lossless
    priority per ingress port. A lower bound on what a switch must reserve."""
    rate = np.asarray(rate, dtype=float)
    return (2 * mtu + PAUSE_FRAME_BYTES
            + rate * (2 * np.asarray(cable_m, dtype=float) * prop_delay_per_m + response_time))
