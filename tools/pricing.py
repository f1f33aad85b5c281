"""The rental rate of a GPU from the price table, for tools that need one number range (time, recommend).

The range rule (cheapest low, highest high, median typical; currencies converted; server prices
divided by 8) lives in tools/cost.py; this is the short form of it.
"""
from __future__ import annotations

from pydantic import BaseModel

from knowledge.schemas import Price
from tools.cost import DEFAULT_CNY_PER_USD, prefer_currency, price_range

CNY_PER_USD = DEFAULT_CNY_PER_USD


class RateRange(BaseModel):
    """Per-GPU-hour rental rate: the range across providers and a typical (median) figure."""

    low: float
    typical: float
    high: float
    currency: str
    records: list[Price]
    converted_from: str | None = None


def on_demand_rate(prices: list[Price], gpu_id: str, currency: str = "USD",
                   cny_per_usd: float = DEFAULT_CNY_PER_USD) -> RateRange | None:
    """On-demand rental range for a GPU in `currency` (converted when the table has only the other), or None."""
    rows = prefer_currency([p for p in prices if p.gpu == gpu_id and p.kind == "rent_on_demand"], currency)
    if not rows:
        return None
    pick = price_range(rows, "rent", currency, cny_per_usd, f"{cny_per_usd:g} CNY/USD")
    other = sorted({p.currency for p in rows} - {currency})
    return RateRange(low=pick.per_gpu.low, typical=pick.per_gpu.typical, high=pick.per_gpu.high, currency=currency,
                     records=rows, converted_from=other[0] if other else None)
