"""Shared pieces of the memory estimators: breakdown terms, weight formats, usable capacity."""
from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

from knowledge.schemas import GPU
from tools.overheads import GPU_RESERVED_BYTES
from tools.params import ParamCounts
from tools.units import GB, dtype_bytes


class Term(BaseModel):
    """One named part of the memory estimate, with its uncertainty band and what it is."""

    model_config = ConfigDict(frozen=True)
    name: str
    bytes: float = Field(ge=0)
    low_bytes: float = Field(ge=0)
    high_bytes: float = Field(ge=0)
    why: str
    place: Literal["gpu", "host"] = "gpu"
    allocated: bool = Field(True, description="False for memory outside PyTorch's counters (CUDA context, NCCL, allocator gap)")


def term(name: str, n_bytes: float, why: str, *, low: float | None = None, high: float | None = None,
         place: str = "gpu", allocated: bool = True) -> Term:
    """A Term whose band defaults to the point value (exact terms such as weights)."""
    return Term(name=name, bytes=n_bytes, low_bytes=n_bytes if low is None else low,
                high_bytes=n_bytes if high is None else high, why=why, place=place, allocated=allocated)


def rounded_gb(terms: list[Term]) -> tuple[dict[str, float], float]:
    """Breakdown in GB rounded to 4 places, and their sum (so the parts add up to the total exactly)."""
    parts = {t.name: round(t.bytes / GB, 4) for t in terms}
    return parts, round(sum(parts.values()), 4)


def usable_bytes(gpu: GPU) -> float:
    """What one GPU can hold: its reported capacity less the driver's reservation."""
    return gpu.memory_bytes - GPU_RESERVED_BYTES


# QLoRA NF4 (Dettmers et al. 2023, arXiv 2305.14314, section 3): 64-value blocks with an fp32
# absmax each (0.5 bits/param); double quantization stores those absmax as 8-bit with an fp32
# constant per 256 blocks: 8/64 + 32/(64*256) = 0.127 bits/param.
NF4_BLOCK = 64
NF4_SECOND_BLOCK = 256
# AWQ/GPTQ int4: an fp16 scale and a packed 4-bit zero point per group of 128 input values.
INT4_GROUP = 128


def quant_constant_bytes_per_param(fmt: str, *, double_quant: bool = True, group_size: int = INT4_GROUP) -> float:
    """Scale/zero-point bytes per quantized weight for a weight format (0 for 16-bit)."""
    if fmt == "nf4":
        return (1 / NF4_BLOCK + 4 / (NF4_BLOCK * NF4_SECOND_BLOCK)) if double_quant else 4 / NF4_BLOCK
    if fmt == "int4":
        return (2 + 0.5) / group_size
    return 0.0


def weight_bytes(counts: ParamCounts, fmt: str, *, quantize_embeddings: bool = False,
                 double_quant: bool = True, group_size: int = INT4_GROUP) -> tuple[float, float, float]:
    """(quantized-matrix bytes, 16-bit remainder bytes, scale bytes) for a weight format.

    8- and 4-bit formats quantize the matrices inside the layers; embeddings, LM head, norms and
    routers stay in 16-bit, as AWQ, GPTQ, bitsandbytes and FP8 checkpoints do, unless
    quantize_embeddings (a pure params x bytes figure).
    """
    bpp = dtype_bytes(fmt)
    if bpp >= 2:
        return counts.total * bpp, 0.0, 0.0
    quantized = counts.linear + (counts.embedding + counts.lm_head if quantize_embeddings else 0)
    rest = counts.total - quantized
    return quantized * bpp, rest * 2.0, quantized * quant_constant_bytes_per_param(
        fmt, double_quant=double_quant, group_size=group_size)
