"""Picking a rental rate from the price table (records passed in; no I/O)."""
from __future__ import annotations

import statistics

from pydantic import BaseModel

from knowledge.schemas import Price


class RateRange(BaseModel):
    """Per-GPU-hour rental rate: the range across providers and a typical (median) figure."""

    low: float
    typical: float
    high: float
    currency: str
    records: list[Price]


def on_demand_rate(prices: list[Price], gpu_id: str, currency: str = "USD") -> RateRange | None:
    """The on-demand rental range for a GPU in a currency, or None when the table has none."""
    rows = [p for p in prices if p.gpu == gpu_id and p.kind == "rent_on_demand" and p.currency == currency]
    if not rows:
        return None
    typical = statistics.median(p.typical or (p.low + p.high) / 2 for p in rows)
    return RateRange(low=min(p.low for p in rows), typical=typical, high=max(p.high for p in rows),
                     currency=currency, records=rows)
