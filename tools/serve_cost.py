"""What a serving plan costs: the price per GPU-hour (yours or the price table's typical on-demand) and $/1M tokens."""
from __future__ import annotations

from tools.pricing import on_demand_rate
from tools.serve_request import ServeRequest


def per_million(per_hour: float | None, share: float, tokens_per_s: float) -> float | None:
    if not per_hour or tokens_per_s <= 0:
        return None
    return round(per_hour * share / (tokens_per_s * 3600) * 1e6, 4)


def price_per_gpu_hour(req: ServeRequest) -> tuple[float | None, str | None]:
    if req.price_per_gpu_hour is not None:
        return req.price_per_gpu_hour, "your price"
    rate = on_demand_rate(req.prices, req.gpu.id)
    if rate is None:
        return None, None
    return rate.typical, (f"price table: typical on-demand of {len(rate.records)} record(s), range "
                          f"{rate.low:g}-{rate.high:g} USD per GPU-hour")
