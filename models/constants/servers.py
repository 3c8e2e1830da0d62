"""Servers: the DGX H100 and DGX B200 bills of materials, the GB200 compute tray, host CPUs and power.

Each entry: value in SI base units, unit, source key (sources.py), direction, scope."""

from __future__ import annotations

from models.constants.base import PER_DIRECTION, Constant
from models.units import Gbps

CONSTANTS = {
    "xeon_8480_tdp": Constant(
        350, "W", "intel-xeon-8480-ark", scope="",
        label="Xeon Platinum 8480+ TDP (one socket)",
    ),
    "xeon_8480_memory_channels": Constant(
        8, "1", "intel-xeon-8480-ark", scope="",
        label="DDR5 memory channels per Xeon Platinum 8480+ socket",
    ),
    "xeon_8480_pcie_lanes": Constant(
        80, "1", "intel-xeon-8480-ark", scope="",
        label="PCIe 5.0 lanes per Xeon Platinum 8480+ socket (ARK's 'Max # of PCI Express Lanes')",
        note="the socket's whole budget: GPUs' PCIe switches, NICs, drives and any CXL expanders share it",
    ),
    "xeon_8480_ddr5_2dpc_rate": Constant(
        4400e6, "T/s", "intel-xeon-8480-ark", scope="per channel",
        label="DDR5 transfer rate with two DIMMs per channel",
        note="4800 MT/s with one DIMM per channel; each transfer moves 8 bytes per channel. A DGX H100 runs"
        " two per channel by inference: its guide lists only 2 TB of DDR5, which at the 64 GB RDIMMs common at"
        " DDR5-4800 is 32 DIMMs, two on each of its 16 channels",
    ),
    "dgx_h100_max_power": Constant(
        10.2e3, "W", "nvidia-dgx-h100-user-guide", scope="per node",
        label="DGX H100 maximum system power",
    ),
    "dgx_h100_gpus": Constant(
        8, "1", "nvidia-dgx-h100-user-guide", scope="per node",
        label="H100 SXM GPUs in one DGX H100",
    ),
    "dgx_h100_cpu_sockets": Constant(
        2, "1", "nvidia-dgx-h100-user-guide", scope="per node",
        label="Xeon Platinum 8480C sockets in one DGX H100",
    ),
    "dgx_h100_cpu_cores": Constant(
        112, "1", "nvidia-dgx-basepod-ra", scope="per node",
        label="CPU cores in one DGX H100 (2 × 56)",
    ),
    "dgx_h100_dram": Constant(
        2e12, "B", "nvidia-dgx-h100-user-guide", scope="per node",
        label="DDR5 system memory in one DGX H100",
    ),
    "dgx_h100_compute_nics": Constant(
        8, "1", "nvidia-dgx-h100-user-guide", scope="per node",
        label="single-port ConnectX-7 NICs for the compute fabric (one per GPU)",
    ),
    "dgx_h100_storage_nics": Constant(
        2, "1", "nvidia-dgx-h100-user-guide", scope="per node",
        label="dual-port ConnectX-7 cards for storage and in-band management",
    ),
    "hgx_h100_pcie_retimers": Constant(
        8, "1", "nvidia-bcm11-admin-manual", scope="per node",
        label="PCIe retimers on the HGX H100 GPU baseboard of one DGX H100",
        note="one per GPU: the GPU tray's firmware lists eight retimers for its eight GPUs; the model puts one"
             " on each GPU's x16 link, where it leaves the baseboard for the host's PCIe switch",
    ),
    "dgx_h100_motherboard_retimers": Constant(
        2, "1", "nvidia-bcm11-admin-manual", scope="per node",
        label="PCIe retimers on the motherboard tray of one DGX H100",
        note="the manual lists them, not the lanes they serve",
    ),
    "dgx_h100_data_drives": Constant(
        8, "1", "nvidia-dgx-h100-user-guide", scope="per node",
        label="U.2 NVMe data drives in one DGX H100",
    ),
    "dgx_h100_data_drive_capacity": Constant(
        3.84e12, "B", "nvidia-dgx-h100-user-guide", scope="",
        label="capacity of one U.2 NVMe data drive (3.84 TB)",
    ),
    "dgx_h100_os_drives": Constant(
        2, "1", "nvidia-dgx-h100-user-guide", scope="per node",
        label="M.2 NVMe OS drives in one DGX H100",
    ),
    "dgx_h100_os_drive_capacity": Constant(
        1.92e12, "B", "nvidia-dgx-h100-user-guide", scope="",
        label="capacity of one M.2 NVMe OS drive (1.92 TB)",
    ),
    "u2_gen4_read_bw_low": Constant(
        6.2e9, "B/s", "kioxia-cm6-cd6", PER_DIRECTION, "per drive",
        label="rated sequential read of a PCIe 4.0 x4 U.2 data-center NVMe drive, low end (estimate)",
        note="KIOXIA CD6 6.2 GB/s; the DGX H100 guide names 3.84 TB U.2 NVMe drives, not the model,"
             " so the node's drives are taken in the range of Gen4 U.2 drives",
    ),
    "u2_gen4_read_bw_high": Constant(
        6.9e9, "B/s", "kioxia-cm6-cd6", PER_DIRECTION, "per drive",
        label="rated sequential read of a PCIe 4.0 x4 U.2 data-center NVMe drive, high end (estimate)",
        note="KIOXIA CM6 6.9 GB/s",
    ),

    # --- the Blackwell generation, beside the H100 node -------------------------------------
    "dgx_b200_gpus": Constant(
        8, "1", "nvidia-dgx-b200-guide", scope="per node",
        label="B200 GPUs in one DGX B200",
    ),
    "dgx_b200_cpu_sockets": Constant(
        2, "1", "nvidia-dgx-b200-guide", scope="per node",
        label="Xeon Platinum 8570 sockets in one DGX B200",
    ),
    "dgx_b200_cpu_cores": Constant(
        112, "1", "nvidia-dgx-b200-guide", scope="per node",
        label="CPU cores in one DGX B200 (2 × 56)",
    ),
    "dgx_b200_dram": Constant(
        2e12, "B", "nvidia-dgx-b200-guide", scope="per node",
        label="system memory in one DGX B200 (32 DIMMs, upgradable to 4 TB)",
    ),
    "dgx_b200_compute_nics": Constant(
        8, "1", "nvidia-dgx-b200-guide", scope="per node",
        label="single-port ConnectX-7 NICs for the compute fabric in one DGX B200 (400 Gb/s each)",
    ),
    "dgx_b200_dpus": Constant(
        2, "1", "nvidia-dgx-b200-guide", scope="per node",
        label="dual-port BlueField-3 DPUs for storage and in-band management in one DGX B200",
        note="where the DGX H100 has two dual-port ConnectX-7 cards; the BasePOD reference architecture runs"
             " them in NIC mode",
    ),
    "dgx_b200_data_drives": Constant(
        8, "1", "nvidia-dgx-b200-guide", scope="per node",
        label="U.2 NVMe data drives (3.84 TB each) in one DGX B200",
    ),
    "dgx_b200_max_power": Constant(
        14.3e3, "W", "nvidia-dgx-b200-guide", scope="per node",
        label="DGX B200 maximum system power",
    ),
    "gb200_tray_gpus": Constant(
        4, "1", "nvidia-gb200-tuning-guide", scope="per node",
        label="Blackwell GPUs in one GB200 NVL72 compute tray",
    ),
    "gb200_tray_grace_cpus": Constant(
        2, "1", "nvidia-gb200-tuning-guide", scope="per node",
        label="Grace (Arm) CPUs in one GB200 NVL72 compute tray",
        note="36 Grace CPUs in a rack (nvidia-gb200-nvl72) over its 18 compute trays",
    ),
    "gb200_tray_compute_nics": Constant(
        4, "1", "nvidia-dgx-gb200-user-guide", scope="per node",
        label="ConnectX-7 NICs for the compute fabric in one GB200 NVL72 compute tray",
        note="the DGX GB200 compute tray table: '4x NVIDIA ConnectX-7 single port 400G OSFP NIC' for the cluster"
             " network, one per GPU",
    ),
    "gb200_tray_dpus": Constant(
        2, "1", "nvidia-gb200-tuning-guide", scope="per node",
        label="BlueField-3 NICs in one GB200 NVL72 compute tray (front-end and in-band management)",
    ),
    "gb200_nvl72_compute_trays": Constant(
        18, "1", "nvidia-gb200-tuning-guide", scope="per rack",
        label="compute trays in one GB200 NVL72 (72x1) rack",
    ),
    "gb200_nvl72_switch_trays": Constant(
        9, "1", "nvidia-gb200-tuning-guide", scope="per rack",
        label="NVLink Switch trays in one GB200 NVL72 (72x1) rack",
        note="also the DGX GB200 User Guide's rack configuration: 9x 1RU NVLink switch trays",
    ),
    # one fact for hgx-server and gpudirect-storage: the deployment guide's wiring, not the card's port count
    "dgx_h100_storage_ports_per_card": Constant(
        1, "1", "nvidia-dgx-basepod-deploy", scope="",
        label="ports of each dual-port storage ConnectX-7 that carry storage in BasePOD's wiring (port 2, bonded)",
        note="port 1 of each card is only optional, for InfiniBand storage: 2 is the wider case",
    ),
    # one fact for hgx-server and gpudirect-storage: the rate of each storage port in BasePOD's wiring. The card's
    # QSFP112 port runs up to 400 Gb/s (ndr_port_rate), but the bonded storage ports plug into the management and
    # storage fabric's SN4600C switches, and a link runs at the slower end's rate; both scenes sweep 100-400 Gb/s
    "dgx_h100_storage_port_rate": Constant(
        100 * Gbps, "B/s", "nvidia-dgx-basepod-ra-fabrics", PER_DIRECTION, "per port",
        label="rate of a DGX H100 storage port in BasePOD's wiring: an SN4600C switch port (100 GbE)",
        note="BasePOD's Table 1 names SN4600C switches for the management and storage fabric, and its deployment"
             " guide bonds each DGX's two storage ports to them; the SN4600C's port speed, 100 GbE over 64 QSFP28"
             " ports, is read in the vendor's own switch-driver project (mlxsw-5-13-release-notes), not in a"
             " datasheet. The card itself runs up to 400 Gb/s: with a faster switch the port does",
    ),
}
