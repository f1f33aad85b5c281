"""Shared pieces of the memory estimators: breakdown terms, weight formats, usable capacity."""
from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

from knowledge.schemas import GPU
from tools.overheads import GPU_RESERVED_BYTES
from tools.params import ParamCounts
from tools.formats import weight_format
from tools.units import GB


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
    """What one GPU can hold: its reported capacity less the driver's reservation (Apple silicon: the share of
    unified memory macOS lets the GPU wire)."""
    if gpu.usable_share is not None:
        return gpu.memory_bytes * gpu.usable_share
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
    f = weight_format(fmt)
    if f.id == "nf4":
        return (1 / NF4_BLOCK + 4 / (NF4_BLOCK * NF4_SECOND_BLOCK)) if double_quant else 4 / NF4_BLOCK
    if f.id in ("int4", "awq", "gptq"):
        return (2 + 0.5) / group_size
    return f.scale_bits / 8


def quantized_params(counts: ParamCounts, fmt: str, *, quantize_embeddings: bool = False) -> int:
    """How many parameters a format holds in its own bits; the rest stay 16-bit (see tools.formats scopes)."""
    f = weight_format(fmt)
    if f.bits >= 16 or f.scope == "all":
        return counts.total
    if f.scope == "experts" and counts.experts:
        return counts.experts
    return counts.linear + (counts.embedding + counts.lm_head if quantize_embeddings else 0)


def weight_bytes(counts: ParamCounts, fmt: str, *, quantize_embeddings: bool = False,
                 double_quant: bool = True, group_size: int = INT4_GROUP) -> tuple[float, float, float]:
    """(quantized-weight bytes, 16-bit remainder bytes, scale bytes) for a weight format.

    8- and 4-bit formats quantize the matrices inside the layers; embeddings, LM head, norms and
    routers stay in 16-bit, as AWQ, GPTQ, bitsandbytes and FP8 checkpoints do, unless
    quantize_embeddings (a pure params x bytes figure). GGUF files hold every tensor at the file's
    average bits per weight; MXFP4 (gpt-oss) holds only the MoE experts.
    """
    f = weight_format(fmt)
    if f.bits >= 16:
        return counts.total * f.bytes, 0.0, 0.0
    quantized = quantized_params(counts, f.id, quantize_embeddings=quantize_embeddings)
    consts = quant_constant_bytes_per_param(f.id, double_quant=double_quant, group_size=group_size)
    rest = counts.total - quantized
    if f.family == "gguf":  # published whole-file averages: scales are inside the figure
        return quantized * f.bytes, rest * 2.0, 0.0
    return quantized * (f.bits - f.scale_bits) / 8, rest * 2.0, quantized * consts
