"""What a machine draws at the wall: one place for the power facts the bills, the purchase plans and rent-or-buy use.
"""
from __future__ import annotations

from knowledge.schemas import GPU

# A machine's draw at the wall under load. An 8-GPU server: NVIDIA's DGX H100 is rated 10.2 kW maximum for 8 x 700 W
# GPUs (DGX H100 datasheet), so the CPUs, NICs, NVSwitches and fans add ~0.8x the GPUs' TDP. A desk machine: the cards'
# TDP plus ~300 W for CPU, board, drives and fans, through a ~90%-efficient power supply. A Mac: its own rating.
SERVER_POWER_FACTOR = 10_200 / (8 * 700)
DESK_HOST_W = 300.0
PSU_EFFICIENCY = 0.9
MAC_POWER_W = 480.0  # Mac Studio (M2/M3 Ultra): Apple's maximum continuous power, 480 W


def module_card(gpu: GPU) -> bool:
    """An SXM / OAM module: it goes only into its own 8-GPU baseboard server."""
    form = (gpu.form_factor or "").lower()
    return "sxm" in form or "oam" in form or "module" in form


def machine_power_w(gpu: GPU, n: int) -> float:
    """Watts a machine of `n` of these cards draws at the wall under load (see the constants above)."""
    if gpu.vendor == "Apple":
        return gpu.tdp_w or MAC_POWER_W
    tdp = (gpu.tdp_w or 300.0) * n
    if module_card(gpu):
        return tdp * SERVER_POWER_FACTOR
    return (tdp + DESK_HOST_W) / PSU_EFFICIENCY


def wall_watts_per_gpu(gpu: GPU, n: int) -> float:
    """Each GPU's share of its machine's draw at the wall: a module card shares an 8-GPU server; a PCIe card shares a
    desk machine of up to 8 of them (the share rent-or-buy charges and the power line shows)."""
    from tools.cost import GPUS_PER_SERVER

    box = GPUS_PER_SERVER if module_card(gpu) else max(1, min(n, GPUS_PER_SERVER))
    return machine_power_w(gpu, box) / box
