"""Units: the only place that knows how many bytes a GB is or a dtype takes.

GB means 1e9 bytes everywhere in gpu-advisor (as GPU vendors market memory);
GiB (2**30) is always written GiB (PyTorch's and nvidia-smi's MiB-based figures).
"""
from __future__ import annotations

KB = 1e3
MB = 1e6
GB = 1e9
TB = 1e12
KiB = 2**10
MiB = 2**20
GiB = 2**30

# Bytes per element of each numeric format. 4-bit formats pack two values per byte;
# their per-block scales are counted separately (see memory.quant_constants_bytes_per_param).
BYTES_PER_DTYPE: dict[str, float] = {
    "fp32": 4.0,
    "tf32": 4.0,
    "bf16": 2.0,
    "fp16": 2.0,
    "fp8": 1.0,
    "int8": 1.0,
    "int4": 0.5,
    "nf4": 0.5,
}


def dtype_bytes(dtype: str) -> float:
    """Bytes per element of `dtype` (one of BYTES_PER_DTYPE)."""
    try:
        return BYTES_PER_DTYPE[dtype]
    except KeyError:
        raise ValueError(f"unknown dtype {dtype!r}; known: {', '.join(BYTES_PER_DTYPE)}") from None


def to_gb(n_bytes: float) -> float:
    """Bytes to decimal GB."""
    return n_bytes / GB


def to_gib(n_bytes: float) -> float:
    """Bytes to GiB (2**30)."""
    return n_bytes / GiB


def gib_to_gb(gib: float) -> float:
    """GiB to decimal GB."""
    return gib * GiB / GB


def gb_to_gib(gb: float) -> float:
    """Decimal GB to GiB."""
    return gb * GB / GiB


_COUNT_SUFFIX = {"": 1.0, "k": 1e3, "m": 1e6, "b": 1e9, "g": 1e9, "t": 1e12, "万": 1e4, "亿": 1e8, "万亿": 1e12}
COUNT_HELP = "a positive count such as 2e12, 15T, 500B, 100M, 1.5k or 1万亿 (k = 1e3, M = 1e6, B = 1e9, T = 1e12)"


def parse_count(text: str) -> float:
    """A positive count written as 2e12, 2T, 15T, 500B, 100M, 1.5k, 2,000,000 or 1万亿 (decimal multipliers).

    Raises ValueError naming the accepted forms for anything else (negative, zero, words).
    """
    import re

    s = str(text).strip().replace(",", "").replace("_", "")
    m = re.fullmatch(r"(\d+(?:\.\d*)?(?:[eE][+]?\d+)?)\s*(万亿|[kKmMbBgGtT万亿]?)\s*(?:tokens?)?", s)
    value = float(m.group(1)) * _COUNT_SUFFIX[m.group(2).lower()] if m else None
    if value is None or not 0 < value < float("inf"):
        raise ValueError(f"{text!r} is not a count: use {COUNT_HELP}")
    return value
