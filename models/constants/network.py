"""Networks: NICs and switches, NCCL's latency model, lossless Ethernet, fabric sizing, TCP.

Each entry: value in SI base units, unit, source key (sources.py), direction, scope."""

from __future__ import annotations

from models.constants.base import PER_DIRECTION, Constant
from models.units import US, Gbps

CONSTANTS = {
    "ndr_port_rate": Constant(
        400 * Gbps, "B/s", "nvidia-cx7-datasheet", PER_DIRECTION, "per port",
        label="NDR InfiniBand port rate (400 Gb/s)",
    ),
    # --- one RoCE v2 frame on Ethernet, byte by byte (what a port's line rate carries besides data) ---
    "ethernet_preamble_sfd": Constant(
        8, "B", "ieee-802-3",
        label="Ethernet preamble and start-of-frame delimiter (7 + 1 octets)",
    ),
    "ethernet_mac_header": Constant(
        14, "B", "ieee-802-3",
        label="Ethernet MAC header: two addresses and the type (6 + 6 + 2 octets)",
    ),
    "ethernet_fcs": Constant(
        4, "B", "ieee-802-3", label="Ethernet frame check sequence",
    ),
    "ethernet_interpacket_gap": Constant(
        12, "B", "ieee-802-3",
        label="Ethernet minimum inter-packet gap (96 bit times)",
    ),
    "ipv4_header": Constant(
        20, "B", "rfc-791", label="IPv4 header without options",
    ),
    "udp_header": Constant(
        8, "B", "rfc-768", label="UDP header",
    ),
    "roce_bth": Constant(
        12, "B", "ibta-roce-v2", label="InfiniBand base transport header (BTH)",
    ),
    "roce_icrc": Constant(
        4, "B", "ibta-roce-v2", label="RoCE v2 invariant CRC (ICRC)",
    ),
    "roce_max_mtu": Constant(
        4096, "B", "ibta-roce-v2",
        label="largest RoCE path MTU (payload bytes per packet)",
    ),
    # --- one InfiniBand packet: what the compute port's line rate carries besides data (BTH and ICRC are the
    # same transport header and CRC as RoCE's, roce_bth and roce_icrc) ---
    "ib_lrh": Constant(
        8, "B", "ibta-vol1-packet", label="InfiniBand local route header (LRH)",
    ),
    "ib_vcrc": Constant(
        2, "B", "ibta-vol1-packet", label="InfiniBand variant CRC (VCRC)",
    ),
    "ib_max_mtu": Constant(
        4096, "B", "ibta-vol1-packet", label="largest InfiniBand path MTU (payload bytes per packet)",
    ),
    # --- collective latency (NCCL's own cost model) ----------------------
    "nccl_net_ring_simple_latency": Constant(
        14.0 * US, "s", "nccl-tuning", scope="per step",
        label="NCCL per-step network latency, Ring/Simple",
        note=(
            "hwLat[NCCL_HW_NET][NCCL_ALGO_RING][NCCL_PROTO_SIMPLE] in NCCL 2.20.3's tuning "
            "model: the latency NCCL charges per inter-node ring step. Older releases used "
            "9.6 us (e.g. 2.7.5). The Tree/Simple entry was larger (28 us in 2.20.3; NCCL 2.7's "
            "comment: a 256 kB chunk's latency including its transfer); NCCL 2.23 set it to 14 us, "
            "the ring's, and 2.30.7 keeps that (tuning.cc:171, source nccl-channels), so both "
            "algorithms get this alpha"
        ),
    ),
    "nccl_net_ring_ll_latency": Constant(
        2.7 * US, "s", "nccl-tuning", scope="per step",
        label="NCCL per-step network latency, Ring/LL",
        note=(
            "hwLat[NCCL_HW_NET][NCCL_ALGO_RING][NCCL_PROTO_LL] in NCCL 2.20.3's tuning model (same"
            " table as Ring/Simple's 14.0 us; LL128 is 4.0 us). LL sends 8-byte flag+data words, so"
            " NCCL's tuner also cuts the ring's bandwidth to a quarter for it, which this scene does"
            " not: it uses this alpha only to show how the crossover moves with alpha"
        ),
    ),
    "nccl_simple_base_latency": Constant(
        8.4 * US, "s", "nccl-channels", scope="",
        label="NCCL base latency of one collective, Ring/Simple and Tree/Simple",
        note="tunerConstants.baseLatencies in NCCL 2.30.7 (tuning.cc:151): the tuner starts every collective's"
             " time from it before adding the per-step latencies; the same 8.4 us for the ring and the tree",
    ),
    "nccl_pat_base_latency": Constant(
        8.0 * US, "s", "nccl-channels", scope="",
        label="NCCL base latency of one PAT collective (reduce-scatter or all-gather)",
        note="tunerConstants.baseLatencies PAT in NCCL 2.30.7 (tuning.cc:154), the same for all three protocols;"
             " 2.23.4 wrote the same 8 us into PAT's formula as its 'Base time'",
    ),
    "nccl_pat_rank_latency": Constant(
        2.8 * US, "s", "nccl-channels", scope="per rank",
        label="NCCL tuner's latency per rank for PAT",
        note="tuning.cc:433 in NCCL 2.30.7: '+ nRanks * 2.8; // Still a linear part', unchanged since 2.23.4",
    ),
    "nccl_pat_log_latency_divisor": Constant(
        3.5, "1", "nccl-channels",
        label="divisor of the network latency in PAT's log term",
        note="tuning.cc:432 in NCCL 2.30.7: 'log2i(nNodes) * (interLat / 3.5) // Log latency', as in 2.23.4",
    ),
    "nccl_pat_busbw_factor": Constant(
        0.75, "1", "nccl-channels",
        label="factor NCCL's tuner scales PAT's bus bandwidth by",
        note="tuning.cc:337 in NCCL 2.30.7: 'if (a == NCCL_ALGO_PAT) busBw *= .75;' (.85 in 2.23.4,"
             " tuning.cc:193); PAT's reduce-scatter and all-gather skip the bus-to-algorithm conversion"
             " (tuning.cc:377), so this is its algorithm bandwidth",
    ),
    "nccl_net_tree_ll_latency": Constant(
        5.0 * US, "s", "nccl-tuning", scope="per step",
        label="NCCL per-step network latency, Tree/LL",
        note=(
            "hwLat[NCCL_HW_NET][NCCL_ALGO_TREE][NCCL_PROTO_LL] in NCCL 2.20.3's tuning model (the same"
            " 5.0 us in 2.30.7, tuning.cc:171): the tree's LL latency per inter-node step, above the"
            " ring's 2.7 us. From 2.23 on, with one rank per node, NCCL charges the ring this tree"
            " latency too (tuning.cc:386-388 in 2.30.7: 'With ppn=1 latencies are fully exposed')"
        ),
    ),
    "fibre_delay_per_m": Constant(
        5.13e-9, "s", "cisco-pfc-whitepaper",
        label="propagation delay per metre of single-mode fibre",
        note="513 ns per 100 m (light at about 65% of c); twinax copper is 476 ns per 100 m",
    ),
    "mlx5_pfc_fixed_delay": Constant(
        301 / 0.125 * 1e-9, "s", "linux-mlx5-port-buffer",
        label="fixed response allowance in NVIDIA's mlx5 xoff formula",
        note="the driver's 301 bytes per Gb/s of link speed, i.e. 301 B / (0.125 B/ns) = 2.408 us"
             " of line-rate traffic that lands after XOFF regardless of cable length",
    ),
    "spectrum_cell_size": Constant(
        144, "B", "sonic-headroom-hld", scope="per switch chip",
        label="buffer cell size of an NVIDIA Spectrum-2/-3 switch",
        note="a packet occupies whole cells: a 64-byte packet takes a 144-byte cell",
    ),
    "spectrum_mac_phy_delay": Constant(
        0.8 * 1024, "B", "sonic-headroom-hld", scope="per port",
        label="bytes a Spectrum switch's MAC/PHY still sends after XOFF (0.8 KB)",
    ),
    "spectrum_pipeline_latency": Constant(
        18 * 1024, "B", "sonic-headroom-hld", scope="per port",
        label="Spectrum switch pipeline latency, reserved as XON (18 KB)",
    ),
    "sonic_fibre_delay_per_m": Constant(
        1 / 198e6, "s", "sonic-headroom-mellanox",
        label="propagation delay per metre in SONiC's Spectrum headroom script",
        note="the script's speed_of_light = 198,000,000 m/s in the cable (5.05 ns per metre), a little"
             " faster than Cisco's 513 ns per 100 m of single-mode fibre",
    ),
    "sn4700_profile_reserve_400g_40m": Constant(
        133120, "B", "sonic-msn4700-pg-profile", scope="per port",
        label="headroom the SN4700's static lossless profile reserves for a 400 GbE port on 40 m of cable",
        note="pg_profile_lookup.ini, row 400000 Mb/s, 40m: size 133120 = xon 36864 + xoff 94208 (rounded to"
             " KiB); edge-core's copy of the file lists 124928",
    ),
    "pfc_peer_response_400g": Constant(
        905 * 512 / 8, "B", "sonic-headroom-mellanox", scope="per port",
        label="bytes a 400 Gb/s peer may send while reacting to a PAUSE (905 pause quanta)",
        note="IEEE 802.3 Annex 31B.3.7 as tabulated in SONiC's headroom script: 905 quanta of"
             " 512 bit times at 400 Gb/s",
    ),
    "pfc_peer_response_200g": Constant(
        453 * 512 / 8, "B", "sonic-headroom-mellanox", scope="per port",
        label="bytes a 200 Gb/s peer may send while reacting to a PAUSE (453 pause quanta)",
        note="IEEE 802.3 Annex 31B.3.7 as tabulated in SONiC's headroom script: 453 quanta of"
             " 512 bit times at 200 Gb/s",
    ),
    "pfc_peer_response_100g": Constant(
        394 * 512 / 8, "B", "sonic-headroom-mellanox", scope="per port",
        label="bytes a 100 Gb/s peer may send while reacting to a PAUSE (394 pause quanta)",
        note="IEEE 802.3 Annex 31B.3.7 as tabulated in SONiC's headroom script: 394 quanta of"
             " 512 bit times at 100 Gb/s",
    ),
    "quantum2_radix": Constant(
        64, "1", "nvidia-qm9700-manual", scope="",
        label="ports per NVIDIA Quantum-2 QM9700 switch (NDR 400 Gb/s)",
        note="32 OSFP cages × 2 logical 400 Gb/s InfiniBand ports",
    ),
    "superpod_su_nodes": Constant(
        32, "1", "nvidia-superpod-h100-ra", scope="",
        label="DGX H100 nodes per DGX SuperPOD scalable unit (SU)",
        note="one rail-aligned group of 32 nodes (256 GPUs); the first SU gives one node's"
             " ports to UFM, so Table 4 lists 31 nodes for 1 SU and 127 for 4 SUs",
    ),
    "superpod_4su_nodes_listed": Constant(
        127, "1", "nvidia-superpod-h100-ra", scope="",
        label="DGX H100 nodes the SuperPOD RA's Table 4 lists for 4 SUs",
        note="one node short of 4 x 32: the first SU gives one node's ports to UFM",
    ),
    "nccl_ib_timeout": Constant(
        20, "1", "nccl-env", scope="",
        label="NCCL_IB_TIMEOUT default (IB local ACK timeout exponent)",
        note="the QP's local ACK timeout is 4.096 us × 2^NCCL_IB_TIMEOUT, about 4.3 s at 20; NCCL sets"
             " it in ncclIbRtsQp (qpAttr.timeout), with NCCL_IB_RETRY_CNT = 7 retries before the"
             " connection fails. The default is 20 since NCCL 2.23; it was 18 from 2.14 and 14 before"
             " (env.html, NCCL_IB_TIMEOUT, 'Values accepted')",
    ),
    "nccl_ib_timeout_2_14": Constant(
        18, "1", "nccl-env", scope="",
        label="NCCL_IB_TIMEOUT default in NCCL 2.14 to 2.22 (IB local ACK timeout exponent)",
        note="about 1.07 s (4.096 us × 2^18); raised to 20 in NCCL 2.23, and still the default on"
             " clusters running those releases (env.html, NCCL_IB_TIMEOUT, 'Values accepted')",
    ),
    "nccl_ib_retry_cnt": Constant(
        7, "1", "nccl-env", scope="",
        label="NCCL_IB_RETRY_CNT default (transport retries before the QP fails)",
        note="the QP's retry_cnt: after this many consecutive timeouts without an acknowledgement the"
             " connection errors out (IBV_WC_RETRY_EXC_ERR, 'retry exceeded') and the NCCL job aborts",
    ),
    "rxe_retry_cnt_unlimited": Constant(
        7, "1", "linux-rxe-comp", scope="",
        label="retry count the Linux Soft-RoCE driver never decrements (read as unlimited)",
        note="rxe_comp.c, COMPST_ERROR_RETRY: 'if (qp->comp.retry_cnt != 7) qp->comp.retry_cnt--', so a QP"
             " set to this count never completes with IB_WC_RETRY_EXC_ERR in that driver",
    ),
    "spectrum3_shared_buffer": Constant(
        64e6, "B", "nvidia-spectrum3", scope="",
        label="NVIDIA Spectrum-3 switch ASIC shared packet buffer (64 MB)",
        note="seen only second-hand (a public table of 2020 switch ASICs and a summary citing NVIDIA's"
             " product brief); the primary product brief was not read",
    ),
    "spectrum3_ports_400g": Constant(
        32, "1", "nvidia-spectrum3", scope="",
        label="NVIDIA Spectrum-3 ports at 400 GbE (12.8 Tb/s)",
        note="12.8 Tb/s of switching as 32 x 400 GbE (or 64 x 200, 128 x 100); seen second-hand",
    ),
    "ib_ack_timeout_unit": Constant(
        4.096e-6, "s", "nccl-env", scope="",
        label="InfiniBand local ACK timeout unit (timeout = unit × 2^exponent)",
    ),
    "adp_retx_base_timeout_min": Constant(
        4e-6, "s", "nvidia-adp-retx", scope="",
        label="NVIDIA NIC adaptive retransmission: smallest base timeout the firmware accepts (4 µs)",
        note="adp_retx_base_timeout_min = 0xFA0 ns; adaptive retransmission (roce_adp_retrans_en in the"
             " ROCE_ACCL register) retransmits on timers far shorter than NCCL_IB_TIMEOUT's",
    ),
    "tcp_rto_min": Constant(
        0.200, "s", "vasudevan2009", scope="",
        label="TCP minimum retransmission timeout RTO_min (stock default)",
        note="the 200 ms lower bound on TCP's retransmission timer that turns one lost"
             " packet of an incast burst into a stall thousands of round trips long",
    ),
    # --- a published large fabric: Meta's Llama 3 RoCE cluster -------------
    "llama3_pod_gpus": Constant(
        3072, "1", "llama3-network", scope="",
        label="GPUs in one full-bisection pod of Meta's Llama 3 RoCE cluster",
        note="192 racks of 16 GPUs (two servers on one Minipack2 ToR) under cluster switches",
    ),
    "llama3_pods": Constant(
        8, "1", "llama3-network", scope="",
        label="pods joined by aggregation switches in Meta's Llama 3 cluster",
    ),
    "llama3_aggregation_oversubscription": Constant(
        7, "1", "llama3-network", scope="",
        label="oversubscription ratio (x:1) of the aggregation layer in Meta's Llama 3 cluster",
    ),
    # --- a deployed Dragonfly+: SciNet's Niagara (EDR InfiniBand) -----------------
    "niagara_df_wings": Constant(
        4, "1", "niagara-dragonfly", scope="",
        label="wings (Dragonfly+ groups) of SciNet's Niagara cluster as installed",
    ),
    "niagara_df_wing_nodes": Constant(
        375, "1", "niagara-dragonfly", scope="",
        label="nodes in one wing of Niagara's Dragonfly+, 1:1 inside the wing",
        note="one EDR port per node; traffic between wings uses adaptive routing",
    ),
    # the same page, a later revision: the system after its expansion (read in a copy of the revision's text)
    "niagara_df_wings_expanded": Constant(
        5, "1", "niagara-dragonfly-expanded", scope="",
        label="wings (Dragonfly+ groups) of SciNet's Niagara cluster after its expansion",
    ),
    "niagara_df_wing_max_nodes": Constant(
        432, "1", "niagara-dragonfly-expanded", scope="",
        label="most nodes one wing of Niagara's expanded Dragonfly+ holds, 1:1 inside the wing",
    ),
    "niagara_interwing_blocking": Constant(
        2, "1", "niagara-dragonfly-expanded", scope="",
        label="effective blocking (x:1) between nodes of different wings of Niagara's Dragonfly+",
        note="'adaptive routing, which alleviates network congestion and yields an effective blocking of 2:1"
             " between nodes of different wings'; how it was measured or derived is not said",
    ),
    "nccl_ib_qps_per_connection": Constant(
        1, "1", "nccl-env", scope="",
        label="NCCL_IB_QPS_PER_CONNECTION default (queue pairs per connection between two ranks)",
        note="more queue pairs give ECMP more flows to hash on multi-level fabrics ('routing entropy');"
             " src/transport/net_ib: NCCL_PARAM(IbQpsPerConn, \"IB_QPS_PER_CONNECTION\", 1)",
    ),
}
