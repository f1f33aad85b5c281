"""Capacity from a measured throughput: how many units (GPUs, instances or servers) a token volume needs, what the
units make a day, what they cost, and the cost per million tokens. The throughput is the user's measurement at
saturation; nothing here estimates speed.

    average load   = tokens per day / 86,400 s
    peak load      = average x peak factor
    units needed   = ceil(max(peak load, average load / utilization ceiling) / throughput per unit)
    cost per 1M    = price per unit-hour / (throughput per unit x 3,600) x 1e6            (at full load)
                   = price per unit-hour x units / (average load x 3,600) x 1e6           (at the stated volume)
"""
from __future__ import annotations

import math

from pydantic import BaseModel, Field

SECONDS_PER_DAY = 86_400
HOURS_PER_MONTH = 730  # 8,760 h / 12


class CapacityRequest(BaseModel):
    throughput_per_unit: float = Field(gt=0, le=1e9, description="measured tokens/s of one unit at saturation")
    units: int | None = Field(None, ge=1, le=1_000_000, description="units the user has (None: size them)")
    tokens_per_day: float | None = Field(None, gt=0, le=1e15, description="tokens the service must make a day")
    peak_factor: float = Field(1.0, ge=1, le=100, description="peak load over the day's average")
    utilization: float | None = Field(None, gt=0, le=1, description="the average share of its saturated rate a unit "
                                      "is held to (0.7 = 70%); None: sized on the peak alone")
    price_per_unit_hour: float | None = Field(None, gt=0, description="rent or cost per unit-hour")
    current_bill_per_month: float | None = Field(None, gt=0, description="what the same volume costs a month today "
                                                 "(an API bill), to compare with the units' month")


class CapacityResult(BaseModel):
    tokens_per_day_per_unit: float = Field(description="one unit at saturation, 24 h")
    average_tokens_per_s: float | None = None
    peak_tokens_per_s: float | None = None
    units_needed: int | None = Field(None, description="the fewest units that carry the peak (and the average at the "
                                     "stated utilization)")
    enough: bool | None = Field(None, description="the units the user has carry the load")
    peak_utilization: float | None = Field(None, description="peak load over the units' capacity (units given or needed)")
    capacity_tokens_per_s: float | None = None
    cost_per_hour: float | None = None
    cost_per_month: float | None = None
    units_costed: int | None = Field(None, description="units the cost is for: those named, or the units needed when more")
    cost_per_million_full_load: float | None = None
    cost_per_million_at_volume: float | None = None
    current_per_million: float | None = Field(None, description="today's bill per million tokens of the volume")
    saving_per_month: float | None = Field(None, description="today's bill less the units' month (negative: today's "
                                           "is cheaper)")


def plan_capacity(req: CapacityRequest) -> CapacityResult:
    r = req.throughput_per_unit
    out = CapacityResult(tokens_per_day_per_unit=r * SECONDS_PER_DAY)
    if req.price_per_unit_hour:
        out.cost_per_million_full_load = req.price_per_unit_hour / (r * 3600) * 1e6
    if req.tokens_per_day:
        avg = req.tokens_per_day / SECONDS_PER_DAY
        peak = avg * req.peak_factor
        need = max(peak, avg / req.utilization if req.utilization else 0)
        out.average_tokens_per_s, out.peak_tokens_per_s = avg, peak
        out.units_needed = max(1, math.ceil(need / r - 1e-9))
    units = req.units or out.units_needed
    if units:
        out.capacity_tokens_per_s = units * r
        if out.peak_tokens_per_s is not None:
            out.peak_utilization = out.peak_tokens_per_s / out.capacity_tokens_per_s
        if req.units and out.units_needed is not None:
            out.enough = req.units >= out.units_needed
        if req.price_per_unit_hour:  # the bill is for the units that carry the volume: more than those named if needed
            out.units_costed = max(units, out.units_needed or 0)
            out.cost_per_hour = out.units_costed * req.price_per_unit_hour
            out.cost_per_month = out.cost_per_hour * HOURS_PER_MONTH
            if out.average_tokens_per_s:
                out.cost_per_million_at_volume = out.cost_per_hour / (out.average_tokens_per_s * 3600) * 1e6
            if req.current_bill_per_month:
                out.saving_per_month = req.current_bill_per_month - out.cost_per_month
    if req.current_bill_per_month and req.tokens_per_day:
        out.current_per_million = req.current_bill_per_month / (req.tokens_per_day * HOURS_PER_MONTH / 24 / 1e6)
    return out
