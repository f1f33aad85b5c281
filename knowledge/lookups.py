"""Lookups as tools: pydantic in, pydantic out; the catalog and index are passed in, never global.

These are what the assistant's planner and LLM agent call (and the MCP server will expose).
"""
from __future__ import annotations

from typing import TYPE_CHECKING, Any

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


class GpuComparison(BaseModel):
    gpus: list[GPU]
    rows: list[ComparisonRow]
    notes: list[str] = []


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
    return GpuComparison(gpus=gpus, rows=rows, notes=[n for _, n in resolved if n])


def search_knowledge(inp: SearchKnowledgeInput, index: KnowledgeIndex) -> SearchResult:
    """The best passages for a query, each with source, title, section, as-of and score."""
    return index.search(inp.query, k=inp.k)
