"""Which cards US export rules bar from sale into China, computed from the GPU table's dense figures.

The Oct 17, 2023 BIS rule (ECCN 3A090.a; 88 FR 73458) controls an integrated circuit whose Total Processing
Performance is 4,800 or more, where TPP = 2 x dense MacTOPS x bit length = dense TOPS x bit length, the highest over
the formats the chip computes in (sparsity not counted). A100 (312 dense BF16 TFLOPS x 16 = 4,992), RTX 4090
(660.6 dense FP8 x 8 = 5,285) and H100 are over it; the China-market cuts (RTX 4090 D: 4,707; L20; H20) were designed
under it. The lower band (TPP >= 1,600 with a high performance density) needs licences case by case and is not
modelled. Later changes (H20 licensing in 2025) sit in the cards' notes, not here.
"""
from __future__ import annotations

from knowledge.schemas import GPU

TPP_LIMIT = 4800.0  # ECCN 3A090.a, Oct 2023


def tpp(gpu: GPU) -> float:
    """Total Processing Performance: the highest dense TOPS x bit length over the card's formats."""
    terms = [(gpu.fp4_dense_tflops, 4), (gpu.fp8_dense_tflops, 8), (gpu.int8_dense_tops, 8),
             (gpu.bf16_dense_tflops, 16), (gpu.fp16_dense_tflops, 16), (gpu.tf32_dense_tflops, 32),
             (gpu.fp32_tflops, 32)]
    return max((v * bits for v, bits in terms if v), default=0.0)


def barred_from_china(gpu: GPU) -> bool:
    """A US-designed accelerator at or over the 3A090.a line: sold into China only through grey channels (domestic
    and Apple parts are not accelerators under the rule here)."""
    return gpu.vendor in ("NVIDIA", "AMD") and tpp(gpu) >= TPP_LIMIT
