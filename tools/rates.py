"""Rates, not totals: what GPUs cost per hour, day and month of rental, and what a token costs at a throughput.

  rent per hour  = N · r                (N GPUs, r per GPU-hour)
  rent per day   = 24 · N · r
  rent per month = 730 · N · r          (8,760 h a year / 12)
  cost per 1M tokens = N · r / (T · 3600) · 1e6     (T tokens per second over the N GPUs)
"""
from __future__ import annotations

from pydantic import BaseModel, ConfigDict, Field

from tools.cost import HOURS_PER_MONTH


class RatesRequest(BaseModel):
    model_config = ConfigDict(extra="forbid")
    num_gpus: int = Field(ge=1, le=100_000)
    price_per_gpu_hour: float = Field(gt=0, le=10_000, description="rental price per GPU-hour, in the answer's currency")
    tokens_per_s: float | None = Field(None, gt=0, le=1e9, description="aggregate throughput of the N GPUs, tokens/s")
    reference_per_million: float | None = Field(None, gt=0, le=1e6, description="a price per million tokens to compare "
                                                "against (an API's), in the same currency")


class Rates(BaseModel):
    per_hour: float
    per_day: float
    per_month: float
    cost_per_million_tokens: float | None = None
    million_tokens_per_hour: float | None = None
    cheaper_than_reference: bool | None = Field(None, description="the GPUs' cost per million tokens is below the reference")
    difference_vs_reference: float | None = Field(None, description="1 - ours / reference (0.31 = 31% cheaper; negative: dearer)")


def rental_rates(req: RatesRequest) -> Rates:
    """The rental cost of N GPUs per hour, day and month, and per million tokens when a throughput is given."""
    hour = req.num_gpus * req.price_per_gpu_hour
    per_m = mtok = None
    if req.tokens_per_s:
        mtok = req.tokens_per_s * 3600 / 1e6
        per_m = hour / mtok
    ref = req.reference_per_million if per_m is not None else None
    return Rates(per_hour=round(hour, 4), per_day=round(24 * hour, 2), per_month=round(HOURS_PER_MONTH * hour, 2),
                 cost_per_million_tokens=None if per_m is None else round(per_m, 4),
                 million_tokens_per_hour=None if mtok is None else round(mtok, 4),
                 cheaper_than_reference=None if ref is None else per_m < ref,
                 difference_vs_reference=None if ref is None else round(1 - per_m / ref, 4))
