"""Lookups as tools: pydantic in, pydantic out; the catalog and index are passed in, never global.

These are what the assistant's planner and LLM agent call (and the MCP server will expose).
"""
from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any, Literal

from pydantic import BaseModel, Field

from knowledge.catalog import Catalog
from knowledge.schemas import GPU, ModelSpec

if TYPE_CHECKING:  # the index pulls in chromadb; only its type is needed here
    from knowledge.index import KnowledgeIndex, SearchResult

COMPARE_FIELDS = ["memory_gb", "memory_type", "memory_bandwidth_gbps", "fp32_tflops", "tf32_dense_tflops",
                  "bf16_dense_tflops", "fp16_dense_tflops", "fp8_dense_tflops", "int8_dense_tops", "fp4_dense_tflops",
                  "interconnect", "nvlink_gbps", "gpus_per_nvlink_domain", "tdp_w", "release_year", "source_kind", "as_of"]


class LookupGpuInput(BaseModel):
    name: str = Field(description="GPU id or alias, e.g. 'h100', 'A100 80GB', '910B'")


class GpuLookup(BaseModel):
    gpu: GPU
    note: str | None = Field(None, description="how an ambiguous name was read")


class LookupModelInput(BaseModel):
    name: str = Field(description="model id, Hugging Face repo name, or bare size such as '70b'")


class ModelLookup(BaseModel):
    model: ModelSpec
    params_computed: int
    note: str | None = None


class CompareGpusInput(BaseModel):
    gpus: list[str] = Field(min_length=1, max_length=12, description="one or more GPU ids or aliases")
    fields: list[str] | None = Field(None, description=f"fields to compare (default: {', '.join(COMPARE_FIELDS[:8])}, ...)")


class ComparisonRow(BaseModel):
    field: str
    values: dict[str, Any]


class JobPick(BaseModel):
    """Which of the compared GPUs is ahead for one kind of work, by the one figure that bounds that work."""

    job: Literal["training", "decode", "memory", "scale_out", "fp8"] = Field(
        description="training: training and prefill are compute-bound (dense BF16 TFLOPS); decode: token generation is "
                    "bandwidth-bound (GB/s); memory: the largest model per card (GB); scale_out: GPU-to-GPU link (GB/s); "
                    "fp8: dense FP8 TFLOPS where a card has FP8 tensor cores")
    field: str
    winner: str = Field(description="highest figure (on a tie, the first named)")
    runner_up: str
    ratio: float = Field(description="winner's figure / runner-up's figure")
    values: dict[str, float]


class GpuComparison(BaseModel):
    gpus: list[GPU]
    rows: list[ComparisonRow]
    notes: list[str] = []
    by_job: list[JobPick] = Field(default_factory=list, description="the card ahead for each kind of work")
    market: dict[str, str] = Field(default_factory=dict, description="each GPU's market note (export rules, availability "
                                                                     "in China), first sentence, from the GPU table")


JOB_FIELDS = {"training": "bf16_dense_tflops", "decode": "memory_bandwidth_gbps", "memory": "memory_gb",
              "scale_out": "nvlink_gbps", "fp8": "fp8_dense_tflops"}


def link_at(g: GPU, num_gpus: int | None) -> float | None:
    """The GPU-to-GPU figure that bounds scaling over `num_gpus`: NVLink within its domain; beyond a bridged pair (PCIe
    cards) the traffic rides PCIe (tools.train_time.slow_link, per direction); None: no count, the card's own link."""
    if not num_gpus:
        return g.nvlink_gbps
    from tools.train_time import slow_link

    slow = slow_link(g, num_gpus, gpus_per_node=max(8, num_gpus) if num_gpus <= 8 else None)
    return slow[0] if slow else g.nvlink_gbps


def job_picks(gpus: list[GPU], num_gpus: int | None = None) -> list[JobPick]:
    """For each kind of work, the GPU with the highest bounding figure (cards without the figure are left out; a job
    needs two cards with it); with a GPU count, scaling is judged on the link those GPUs really use."""
    picks = []
    for job, field in JOB_FIELDS.items():
        if job == "scale_out":
            values = {g.id: float(v) for g in gpus for v in [link_at(g, num_gpus)] if v}
        else:
            values = {g.id: float(getattr(g, field)) for g in gpus if getattr(g, field)}
        if len(values) < 2:
            continue
        ranked = sorted(values, key=values.get, reverse=True)
        picks.append(JobPick(job=job, field=field, winner=ranked[0], runner_up=ranked[1],
                             ratio=round(values[ranked[0]] / values[ranked[1]], 2), values=values))
    return picks


def _first_sentence(text: str | None) -> str:
    text = " ".join((text or "").split())
    cut = re.search(r"(?<=[.;])\s", text)
    return text[:cut.start()] if cut else text


class SearchKnowledgeInput(BaseModel):
    query: str = Field(description="words to look up, Chinese or English")
    k: int = Field(5, ge=1, le=50)


def lookup_gpu(inp: LookupGpuInput, catalog: Catalog) -> GpuLookup:
    """The GPU record (dense figures, source, as-of) for a name; raises UnknownItem with suggestions."""
    gpu, note = catalog.gpu(inp.name)
    return GpuLookup(gpu=gpu, note=note)


def lookup_model(inp: LookupModelInput, catalog: Catalog) -> ModelLookup:
    """The model record for a name, with the parameter count computed from its architecture."""
    from tools.params import count_parameters

    model, note = catalog.model(inp.name)
    return ModelLookup(model=model, params_computed=count_parameters(model).total, note=note)


def compare_gpus(inp: CompareGpusInput, catalog: Catalog) -> GpuComparison:
    """Side-by-side rows of the chosen fields for two or more GPUs (null where a chip lacks a figure)."""
    resolved = [catalog.gpu(name) for name in inp.gpus]
    fields = inp.fields or COMPARE_FIELDS
    unknown = [f for f in fields if f not in GPU.model_fields]
    if unknown:
        raise ValueError(f"unknown field(s) {', '.join(unknown)}; fields: {', '.join(COMPARE_FIELDS)}")
    gpus = [g for g, _ in resolved]
    rows = [ComparisonRow(field=f, values={g.id: getattr(g, f) for g in gpus}) for f in fields]
    return GpuComparison(gpus=gpus, rows=rows, notes=[n for _, n in resolved if n], by_job=job_picks(gpus),
                         market={g.id: _first_sentence(g.market_notes) for g in gpus if g.market_notes})


def search_knowledge(inp: SearchKnowledgeInput, index: KnowledgeIndex) -> SearchResult:
    """The best passages for a query, each with source, title, section, as-of and score."""
    return index.search(inp.query, k=inp.k)
