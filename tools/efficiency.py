"""Achieved-efficiency defaults: the share of dense peak that real jobs reach, per GPU family.

MFU (model FLOPs utilization, PaLM's definition: 6·N·D plus attention, over time x peak) as
published for large runs; a band, because it varies with model size, scale and software.
Sources: Llama 2 model card (A100: 184,320 GPU-hours for 7B on 2T tokens at 4k context implies
MFU 0.45 with the attention term, 0.39 without; 13B 0.43; 70B 0.46); Megatron-LM README (A100,
22B-1T: MFU 41.5-56.3%); Llama 3 paper (H100 BF16, 405B: 38-43%). FP8, AMD and Ascend figures
are estimates from fewer public runs and carry wider bands.
"""
from __future__ import annotations

from typing import NamedTuple

from knowledge.schemas import GPU


class MfuBand(NamedTuple):
    point: float
    low: float
    high: float
    basis: str


_FAMILY_MFU: dict[str, MfuBand] = {
    "ampere": MfuBand(0.45, 0.35, 0.55, "A100 runs: Llama 2 (0.43-0.46), Megatron-LM (0.42-0.56)"),
    "hopper": MfuBand(0.40, 0.30, 0.50, "H100 BF16: Llama 3 405B 0.38-0.43"),
    "blackwell": MfuBand(0.40, 0.25, 0.50, "few public runs yet; Hopper-like assumed"),
    "ada": MfuBand(0.35, 0.25, 0.45, "PCIe workstation/consumer cards, smaller runs"),
    "cdna": MfuBand(0.30, 0.20, 0.40, "MI300X public training reports ~0.3"),
    "ascend": MfuBand(0.30, 0.20, 0.40, "Ascend 910B with MindSpeed: secondary reports"),
}
# The highest MFU the bands' published runs reach (Megatron-LM on A100: 0.56 at 1T parameters): a deadline that needs
# more is not a plan on that GPU count.
BEST_PUBLISHED_MFU = max(b.high for b in _FAMILY_MFU.values())
FP8_MFU_FACTOR = 0.75  # FP8 runs reach a smaller share of their (doubled) peak: ~1.5x BF16 speed, not 2x
DECODE_BANDWIDTH_EFFICIENCY = 0.8   # share of HBM bandwidth a decode step reaches (vLLM-class kernels)
PREFILL_COMPUTE_EFFICIENCY = 0.58   # share of dense peak during prefill (fitted, see below; was 0.5 by hand)
DECODE_COMPUTE_EFFICIENCY = 0.399   # share of dense peak once decode is compute-bound (fitted; was 0.6 by hand: large
                                    # decode batches also pay attention over the KV and sampling, which the FLOPs omit)
LINK_EFFICIENCY = 0.8               # share of nominal NVLink / PCIe / network bandwidth collectives reach
# Per-layer launch overhead of a decode step in Hugging Face generate() (eager PyTorch, no CUDA graphs):
# the Qwen2.5 speed benchmark's batch-1 A100 rows imply 0.3-0.55 ms per layer on top of the memory time.
HF_DECODE_OVERHEAD_PER_LAYER_S = 0.4e-3
VLLM_DECODE_OVERHEAD_PER_LAYER_S = 0.02e-3

# Serving-engine costs the roofline misses. Fitted on the FIT half of the serving calibration only
# (evals/serving_fit.py over evals/calibration/serving_measurements.jsonl rows with half "fit"); `make bench`
# reports the untouched check half. Each is a multiplier on the roofline or a fixed time, named for what it stands for.
# Refit of 2026-12-05 (third batch as the check half): 157 fit-half cases from 61 source groups (303 rows, 86 groups
# in all), Cauchy loss at the ±35% scale; the two MoE factors held out of it (below); earlier fit: 108 cases, 38 groups.
STEP_OVERHEAD_S = 1.67e-3           # per decode step of a vLLM-class engine: scheduler, sampling, detokenisation
REQUEST_OVERHEAD_S = 0.0233         # per request of a serving engine, before its first token: the HTTP/OpenAI front end,
                                    # chat template and tokenisation, admission by the scheduler, first detokenisation
MOE_EXPERT_READ_FACTOR = 0.52      # expert weights stream at this share of the dense rate (grouped GEMM, few tokens each).
                                    # Fitted on the first fit half (108 cases, 38 groups) and held since: refit with the
                                    # third batch it fell to 0.11, pulled by one sweep of DeepSeek single-stream latencies
                                    # (16-23 ms steps on 8-16 H100) that a bandwidth share cannot stand for (it made every
                                    # batched MoE replica ~3x too slow); that latency is a cost the model still lacks.
MOE_PREFILL_FACTOR = 0.3            # MoE prefill reaches this share of a dense model's prefill efficiency (routing, token
                                    # permutation, grouped GEMMs). Not fitted: from DeepSeek's published serving figures
                                    # ("DeepSeek-V3/R1 Inference System Overview", 2025-03-01: 73.7k input tokens/s per
                                    # H800 node in prefill including 56.3% cache hits, so ~32k computed tokens/s =
                                    # 2 x 37B x 32k = 2.4 PFLOP/s, 0.15 of the node's FP8 peak against 0.48 for dense
                                    # FP8 prefill here: 0.3). The fit, left free, drove it to 0.04 to absorb queueing in
                                    # saturated MoE benchmarks, which made every MoE prefill ~10x too slow.
FP8_COMPUTE_FACTOR = 0.822          # FP8 GEMMs reach this share of their (doubled) peak
VENDOR_SERVING_FACTOR = {"cdna": 0.484}  # ROCm kernels vs CUDA at the same datasheet figures (bandwidth and compute)


def request_overhead_s(engine_id: str) -> float:
    """Seconds a serving engine adds to each request's first token besides the prefill (0 for in-process generate())."""
    return 0.0 if engine_id == "hf" else REQUEST_OVERHEAD_S


def serving_factor(gpu: GPU) -> float:
    """The vendor factor on a card's bandwidth and compute in serving engines (1 for CUDA cards)."""
    return VENDOR_SERVING_FACTOR.get(family(gpu), 1.0)


def family(gpu: GPU) -> str:
    """The efficiency family of a GPU from its architecture and vendor."""
    arch = f"{gpu.architecture} {gpu.vendor}".lower()
    for key, names in (("blackwell", ("blackwell",)), ("hopper", ("hopper",)), ("ada", ("ada",)),
                       ("ampere", ("ampere",)), ("cdna", ("cdna", "amd")), ("ascend", ("da vinci", "ascend", "huawei"))):
        if any(n in arch for n in names):
            # workstation Ampere (RTX A6000, GA102) behaves like the Ada cards, not like the A100
            if key == "ampere" and "ga10" in arch and "ga100" not in arch:
                return "ada"
            return key
    return "ada"


def default_mfu(gpu: GPU, precision: str) -> MfuBand:
    """The MFU band for a GPU family and precision."""
    band = _FAMILY_MFU[family(gpu)]
    if precision == "fp8":
        f = FP8_MFU_FACTOR
        return MfuBand(band.point * f, band.low * f, band.high * f, band.basis + f"; x{f} for FP8")
    return band
