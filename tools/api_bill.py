"""An API's bill for a volume of tokens: input billed at its price (the prompt cache's hits at the cached price, when
both the hit rate and that price are given), output at its own. Pure arithmetic, one place."""
from __future__ import annotations

from pydantic import BaseModel, ConfigDict, Field


class ApiBillRequest(BaseModel):
    model_config = ConfigDict(extra="forbid")
    input_m: float = Field(ge=0, description="million input tokens in the period")
    output_m: float = Field(ge=0, description="million output tokens in the period")
    input_per_million: float = Field(ge=0)
    output_per_million: float = Field(ge=0)
    cached_input_per_million: float | None = Field(None, ge=0, description="price of a cache hit's input tokens")
    cache_hit_rate: float | None = Field(None, ge=0, le=1, description="share of input tokens served from the cache")


class ApiBill(BaseModel):
    input_price_effective: float = Field(description="per million input tokens as billed, cache hits blended in")
    input_cost: float
    output_cost: float
    total: float
    per_million_output: float | None = Field(description="the bill over the output tokens (input folded in)")


def input_price(full: float, cached: float | None = None, hit_rate: float | None = None) -> float:
    """Per million input tokens as billed: the cache's hits at the cached price, the rest at the full one
    ((1 - 0.3) × 2 + 0.3 × 0.5 = 1.55); the full price unless both the hit rate and the cached price are given."""
    if hit_rate is None or cached is None:
        return full
    return (1 - hit_rate) * full + hit_rate * cached


def api_bill(req: ApiBillRequest) -> ApiBill:
    p = input_price(req.input_per_million, req.cached_input_per_million, req.cache_hit_rate)
    i, o = req.input_m * p, req.output_m * req.output_per_million
    return ApiBill(input_price_effective=p, input_cost=i, output_cost=o, total=i + o,
                   per_million_output=(i + o) / req.output_m if req.output_m else None)
