"""Hosted-model API list prices (knowledge/data/api_prices.yaml): the one place that knows what an API charges per
million input and output tokens, and which API a message names."""
from __future__ import annotations

import functools
import re
from pathlib import Path
from typing import Literal

import yaml
from pydantic import BaseModel, ConfigDict, Field

SHIPPED = Path(__file__).resolve().parent / "data" / "api_prices.yaml"


class ApiPrice(BaseModel):
    """One API's standard list prices per million tokens, with its source and date."""

    model_config = ConfigDict(extra="forbid")
    id: str
    provider: str
    name: str
    aliases: list[str]
    input_per_million: float = Field(gt=0)
    output_per_million: float = Field(gt=0)
    currency: Literal["USD", "CNY"]
    source: str
    as_of: str
    confidence: Literal["high", "medium", "low"]
    serves: list[str] = Field(default_factory=list, description="catalog model ids whose own maker's API this is "
                              "(DeepSeek's API serves DeepSeek-V3/R1): the API a self-hosted copy is compared with")


@functools.lru_cache(maxsize=1)
def api_prices() -> tuple[ApiPrice, ...]:
    """The shipped table (empty when the file is absent)."""
    if not SHIPPED.exists():
        return ()
    return tuple(ApiPrice(**row) for row in yaml.safe_load(SHIPPED.read_text(encoding="utf-8")) or [])


def api_named(text: str) -> ApiPrice | None:
    """The API a message names ('we spend $18k/month on the GPT-4o API'): the longest alias written as a word."""
    low = text.lower()
    best = None
    for rec in api_prices():
        for alias in rec.aliases:
            if re.search(r"(?<![a-z0-9.-])" + re.escape(alias.lower()) + r"(?![a-z0-9-]|\.\d)", low) and (
                    best is None or len(alias) > best[0]):
                best = (len(alias), rec)
    return best[1] if best else None


def blended_per_million(rec: ApiPrice, input_per_output: float) -> float:
    """The price of a million tokens of traffic with `input_per_output` input tokens to each output token."""
    return (input_per_output * rec.input_per_million + rec.output_per_million) / (input_per_output + 1)


def api_for_model(model_id: str, currency: str | None = None) -> ApiPrice | None:
    """The maker's own API for a model one could self-host ('DeepSeek-V3: API or self-host?'), in `currency` when the
    table has it there."""
    recs = [r for r in api_prices() if model_id in r.serves]
    return next((r for r in recs if r.currency == currency), recs[0] if recs else None)
