"""Fact-checking a pasted paragraph: split it into sentences, recognise the claims we can compute,
and check each against the tables and calculators. Unrecognised sentences are left alone."""
from __future__ import annotations

import re
from collections.abc import Callable

from pydantic import BaseModel


class ClaimCheck(BaseModel):
    claim: str
    verdict: str  # right | wrong | misleading
    correct: str
    source: str
    figures: dict[str, float] = {}


def sentences(text: str) -> list[str]:
    """Sentences of a Chinese or English paragraph."""
    parts = re.split(r"(?<=[。！？!?；;])\s*|\n+|(?<=[.])\s+(?=[A-Z*])", text)
    return [p.strip(" *•-") for p in parts if len(p.strip()) > 6]


def _lora(s, ctx):
    from tools.train_memory import TrainingMemoryRequest, estimate_training_memory

    if not (re.search(r"lora", s, re.I) and re.search(r"70\s*b", s, re.I) and re.search(r"a100|80\s*gb", s, re.I)):
        return None
    model, a100 = ctx.catalog.model("llama-3.1-70b")[0], ctx.catalog.gpu("a100-80gb")[0]
    q = estimate_training_memory(TrainingMemoryRequest(model=model, gpu=a100, method="qlora"))
    lo = estimate_training_memory(TrainingMemoryRequest(model=model, gpu=a100, method="lora"))
    says_lora = re.search(r"(?<!q)lora", s, re.I) is not None
    return ClaimCheck(claim=s, verdict="misleading" if says_lora else "right",
                      correct=f"QLoRA fits one A100 80GB ({q.per_gpu_gb:.1f} GB); 16-bit LoRA does not "
                              f"({lo.per_gpu_gb:.1f} GB per GPU, bf16 weights alone {lo.breakdown_gb['weights']:.1f} GB; "
                              f"needs {lo.min_gpus} GPUs)", source="gpu-advisor size train; docs/errata-source-article")


def _full_count(s, ctx):
    from tools.train_memory import TrainingMemoryRequest, estimate_training_memory

    m = re.search(r"(?:至少|at least)\D{0,6}?(\d+)\s*(?:张|x|块)?\s*a100", s, re.I)
    if not (m and re.search(r"全量|全参|full", s, re.I)):
        return None
    r = estimate_training_memory(TrainingMemoryRequest(model=ctx.catalog.model("70b")[0],
                                                       gpu=ctx.catalog.gpu("a100-80gb")[0], method="full", num_gpus=8))
    off = estimate_training_memory(TrainingMemoryRequest(model=ctx.catalog.model("70b")[0],
                                                         gpu=ctx.catalog.gpu("a100-80gb")[0], method="full", num_gpus=8,
                                                         offload="optimizer"))
    n = int(m.group(1))
    return ClaimCheck(claim=s, verdict="wrong" if n < r.min_gpus else "right",
                      correct=f"a full fine-tune of a 70B model needs {r.min_gpus} A100 80GB with ZeRO-3 (16 B/param of "
                              f"model states ~1.12 TB); 8 work only with the optimizer offloaded to ~{off.host_ram_gb / 1000:.2f} TB "
                              "of host RAM", source="gpu-advisor size train; docs/errata-source-article")


def _speed(s, ctx):
    from tools.train_time import TrainingTimeRequest, estimate_training_time

    if not (re.search(r"20\s*%?\s*[-–~到至]\s*30\s*%", s) and re.search(r"h100|a100", s, re.I)):
        return None
    m = ctx.catalog.model("llama-3.1-8b")[0]
    h = estimate_training_time(TrainingTimeRequest(model=m, gpu=ctx.catalog.gpu("h100")[0], num_gpus=8, tokens=1e10))
    a = estimate_training_time(TrainingTimeRequest(model=m, gpu=ctx.catalog.gpu("a100-80gb")[0], num_gpus=8, tokens=1e10))
    return ClaimCheck(claim=s, verdict="wrong",
                      correct=f"dense BF16 is 989.4 vs 312 TFLOPS; the same job takes {a.wall_hours / h.wall_hours:.1f}x as "
                              "long on A100 (published speedups 2-3x), not 20-30% longer",
                      figures={"time_ratio": round(a.wall_hours / h.wall_hours, 2)},
                      source="GPU table; gpu-advisor time train; docs/errata-source-article")


def _gpus_named(s, ctx):
    return [rec for _, kind, rec in ctx.catalog.mentions(s) if kind == "gpu"]


def _nvlink(s, ctx):
    m = re.search(r"nvlink\s*(\d)(?:\.0)?", s, re.I)
    gpus = _gpus_named(s, ctx)
    if not m or not gpus:
        return None
    said = int(m.group(1))
    g = gpus[0]
    actual = re.search(r"nvlink\s*(\d)", g.interconnect, re.I)
    real = int(actual.group(1)) if actual else None
    wrong = real is None or said != real or (re.search(r"(\d{3,4})\s*gb/s", s, re.I) and g.nvlink_gbps and
                                               float(re.search(r"(\d{3,4})\s*gb/s", s, re.I).group(1)) != g.nvlink_gbps)
    return ClaimCheck(claim=s, verdict="wrong" if wrong else "right",
                      correct=f"{g.name}: {g.interconnect.split(';')[0]}, {g.nvlink_gbps or 0:g} GB/s per GPU"
                              + (f", {g.gpus_per_nvlink_domain} GPUs per NVLink domain" if g.gpus_per_nvlink_domain else ""),
                      source="gpus.yaml (NVIDIA datasheets)")


def _architecture(s, ctx):
    m = re.search(r"半人马座|centaur\w*|hopper|ampere|blackwell|ada lovelace|ada\b|volta", s, re.I)
    gpus = _gpus_named(s, ctx)
    if not m or not gpus or not re.search(r"架构|architecture|based on|基于|是", s, re.I):
        return None
    g = gpus[0]
    said = m.group(0).lower()
    right = said not in ("半人马座",) and not said.startswith("centaur") and said.split()[0] in g.architecture.lower()
    return ClaimCheck(claim=s, verdict="right" if right else "wrong",
                      correct=f"{g.name} is {g.architecture}", source="gpus.yaml; NVIDIA architecture whitepapers")


def _checkpoint(s, ctx):
    if not re.search(r"50\s*[-–~到至]\s*100\s*(步|steps?)", s, re.I):
        return None
    return ClaimCheck(claim=s, verdict="misleading",
                      correct="the interval follows from checkpoint size, write bandwidth and failure rate "
                              "(Young/Daly: sqrt(2 x write time x MTBF)); e.g. a 70B full fine-tune on 512 GPUs at 5 GB/s "
                              "is ~3 h, thousands of steps (gpu-advisor plan checkpoint)", source="docs/checkpointing")


def _bandwidth(s, ctx):
    if not re.search(r"2\s*tb/s", s, re.I):
        return None
    g, p = ctx.catalog.gpu("a100-80gb")[0], ctx.catalog.gpu("a100-80gb-pcie")[0]
    return ClaimCheck(claim=s, verdict="right", correct=f"about right: {g.memory_bandwidth_gbps:g} GB/s (80GB SXM), "
                      f"{p.memory_bandwidth_gbps:g} GB/s (80GB PCIe)", source="gpus.yaml (NVIDIA datasheet)")


CHECKERS: list[Callable] = [_lora, _full_count, _speed, _nvlink, _architecture, _checkpoint, _bandwidth]


def check_paragraph(text: str, ctx) -> list[ClaimCheck]:
    """Every recognisable claim in `text`, checked."""
    out: list[ClaimCheck] = []
    for s in sentences(text):
        for checker in CHECKERS:
            res = checker(s, ctx)
            if res is not None:
                out.append(res)
    return out
