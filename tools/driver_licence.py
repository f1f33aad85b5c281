"""Which cards' driver licence restricts data-centre use.

NVIDIA's "License For Customer Use of NVIDIA GeForce Software", section 2.1.3 (in force since the driver releases of
late 2017; https://www.nvidia.com/en-us/drivers/geforce-license/, as of 2026-12): "No Datacenter Deployment. The
SOFTWARE is not licensed for datacenter deployment, except that blockchain processing in a datacenter is permitted."
It covers GeForce and Titan branded boards; NVIDIA's data-centre and workstation parts (A/H/L/B series, RTX A6000,
RTX 6000 Ada, RTX PRO) ship under other licences. The licence does not define a data centre: a few machines in an
office server room are commonly read as outside it, a colocation rack as inside.
"""
from __future__ import annotations

import re

from knowledge.schemas import GPU

SOURCE = "NVIDIA GeForce software licence §2.1.3, https://www.nvidia.com/en-us/drivers/geforce-license/"


def geforce_licence(gpu: GPU) -> bool:
    """A GeForce or Titan board, whose driver licence bars data-centre deployment."""
    return gpu.vendor == "NVIDIA" and bool(re.search(r"geforce|titan", gpu.name, re.I))
