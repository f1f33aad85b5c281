"""The weights alone of one model in several checkpoint formats: bytes per format (the format's own scales
included, the tensors it keeps in 16-bit counted at 2 bytes), and whether vLLM serves it. Pure: the model's
counted parameters and the format table (tools/formats.py) in, one row per format out."""
from __future__ import annotations

from pydantic import BaseModel, ConfigDict, Field

from knowledge.schemas import ModelSpec
from tools.formats import VLLM_SOURCE, weight_format
from tools.memory import weight_bytes
from tools.params import count_parameters


class FormatWeightsRequest(BaseModel):
    model_config = ConfigDict(extra="forbid")
    model: ModelSpec
    formats: list[str] = Field(min_length=1, max_length=24, description="format ids or spellings ('Q4_K_M', 'awq')")


class FormatWeight(BaseModel):
    format: str
    name: str
    bits_per_weight: float = Field(description="stored bits per weight held in the format, its scales included")
    held_params: int = Field(description="parameters stored in the format")
    kept_16bit_params: int = Field(description="parameters the format keeps in 16-bit (embeddings, head, norms ...)")
    weights_gb: float = Field(description="the weights alone, GB (10^9 bytes)")
    weights_gib: float
    vllm: str
    engines: str
    source: str


class FormatWeights(BaseModel):
    model: str
    params_total: int
    rows: list[FormatWeight]
    vllm_source: str = VLLM_SOURCE


def weights_by_format(req: FormatWeightsRequest) -> FormatWeights:
    counts = count_parameters(req.model)
    rows = []
    for name in dict.fromkeys(req.formats):
        f = weight_format(name)
        q, rest, consts = weight_bytes(counts, f.id, double_quant=False)
        total = q + rest + consts
        held = counts.total if f.bits >= 16 else round(counts.total - rest / 2)
        rows.append(FormatWeight(format=f.id, name=f.name, bits_per_weight=round(f.bits, 3), held_params=held,
                                 kept_16bit_params=counts.total - held, weights_gb=round(total / 1e9, 2),
                                 weights_gib=round(total / 2**30, 2), vllm=f.vllm, engines=f.engines, source=f.source))
    return FormatWeights(model=req.model.id, params_total=counts.total, rows=rows)
