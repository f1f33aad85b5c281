"""The rental rate of a GPU from the price table, for tools that need one number range (time, recommend).

The range rule (cheapest low, highest high, median typical; currencies converted; server prices
divided by 8) lives in tools/cost.py; this is the short form of it.
"""
from __future__ import annotations

from pydantic import BaseModel, Field

from knowledge.schemas import Price
from tools.cost import DEFAULT_CNY_PER_USD, GPUS_PER_SERVER, PriceUsed, prefer_currency, price_range

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


class KindPrice(BaseModel):
    """One kind of price for a GPU (rent on demand, buy new, ...): the range across records, per GPU and per server."""

    kind: str
    unit: str = Field(description="per_gpu_hour for rentals, per_gpu for purchases")
    low: float
    typical: float
    high: float
    per_server_low: float | None = Field(None, description="purchases: x 8 GPUs (an HGX/DGX-class server)")
    per_server_typical: float | None = None
    per_server_high: float | None = None
    records: int
    notes: list[str]


class GpuPrices(BaseModel):
    """Every price the table holds for one GPU, in one currency, with the records behind them."""

    gpu: str
    currency: str
    kinds: list[KindPrice]
    records: list[PriceUsed]


KINDS = ("rent_on_demand", "rent_reserved", "rent_spot", "buy_new", "buy_used")


def gpu_prices(prices: list[Price], gpu_id: str, currency: str = "USD", kinds: tuple[str, ...] = KINDS,
               cny_per_usd: float = DEFAULT_CNY_PER_USD) -> GpuPrices:
    """Ranges per kind of price for `gpu_id` (cheapest low, highest high, median typical; converted at `cny_per_usd`
    only when the table lacks `currency` for that kind; server prices divided by 8)."""
    out: list[KindPrice] = []
    used: list[PriceUsed] = []
    for kind in kinds:
        rows = prefer_currency([p for p in prices if p.gpu == gpu_id and p.kind == kind], currency)
        if not rows:
            continue
        pick = price_range(rows, "rent" if kind.startswith("rent") else "buy", currency, cny_per_usd,
                           f"{cny_per_usd:g} CNY/USD")
        r = pick.per_gpu
        server = None if kind.startswith("rent") else GPUS_PER_SERVER
        out.append(KindPrice(kind=kind, unit="per_gpu_hour" if server is None else "per_gpu", low=r.low, typical=r.typical,
                             high=r.high, per_server_low=server and r.low * server,
                             per_server_typical=server and r.typical * server, per_server_high=server and r.high * server,
                             records=len(rows), notes=pick.notes))
        used += pick.used
    return GpuPrices(gpu=gpu_id, currency=currency, kinds=out, records=used)
