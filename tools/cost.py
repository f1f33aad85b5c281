"""Rent vs buy for one GPU job: rental cost, owned cost of the same hours, and the break-even.

Prices are passed in as records (knowledge.prices.load_prices); nothing here reads a file.

Symbols (per GPU): r rental price per GPU-hour, P purchase price, R resale fraction after Y years of
depreciation, u utilization (share of the year the owned GPUs do useful work), H hosting per month,
W TDP in kW, e electricity price per kWh, PUE the facility's power usage effectiveness; N GPUs for
h wall-clock hours. A month is 8760 / 12 = 730 hours.

  rent_cost        = N · h · r
Buying is costed for the period the GPUs are held, t (calendar hours; the job's own hours unless a longer period is
given), and sold at its end (basis 'period', the default: a one-off job bought for itself):
  buy_cost         = N · [ P·(1 − resale(t))                  purchase less what the cards fetch when sold
                         + H · max(1, t / 730)                hosting, billed by the month
                         + W · PUE · e · h ]                  power while they work
  resale(t)        = R0 − (R0 − R) · min(1, t / (Y · 8760))   R0 = 0.7 soon after purchase, R after Y years
  buy_wins_after_months: the shortest holding period, at utilization u, for which buying costs less than renting
                   the same working hours (resale credited); None when it never does within 2 · Y years.
Or as the job's share of GPUs kept busy for years (basis 'share'):
  buy_cost         = N · h · [ P·(1 − R) / (Y · 8760 · u)     capital, spread over the hours the GPUs work
                             + H / (730 · u)                  hosting (rack, cooling, network), same share
                             + W · PUE · e ]                  power while the job runs
  break_even_months       = P / (r·730·u − H − W·PUE·e·730·u)      cash payback: months of renting at
                            utilization u whose cost would pay for the purchase (resale not credited)
  break_even_utilization  = [P·(1 − R) / (Y · 8760) + 12·H / 8760] / (r − W·PUE·e)
                            the u at which owning costs the same per working GPU-hour as renting
"""
from __future__ import annotations

import math
import statistics
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, field_validator, model_validator

from knowledge.schemas import GPU, Price

HOURS_PER_YEAR = 8760.0
HOURS_PER_MONTH = HOURS_PER_YEAR / 12  # 730
GPUS_PER_SERVER = 8  # per_8gpu_server prices: HGX/DGX-class systems

# Defaults: each is an assumption, stated in the answer whenever it is used.
DEFAULT_ELECTRICITY_PER_KWH = {"USD": 0.12, "CNY": 0.7}  # US commercial average; China industrial tariff
DEFAULT_PUE = 1.3  # a typical modern air-cooled data center (hyperscalers report ~1.1, older rooms 1.5+)
DEFAULT_UTILIZATION = 0.7
DEFAULT_HOSTING_PER_GPU_MONTH = {"USD": 150.0, "CNY": 1000.0}  # colocation space, cooling, network: 1/8 of a server's
DEFAULT_DEPRECIATION_YEARS = 4.0  # NVIDIA ships a data-center generation about every two years
DEFAULT_RESALE_FRACTION = 0.2
# What a card fetches when sold soon after purchase, as a share of its price: an assumption (used data-centre cards
# have listed at roughly 60-80% of new within their first year; consumer cards vary with supply), stated when used.
DEFAULT_RESALE_SOON = 0.7
DEFAULT_CNY_PER_USD = 7.2
# Where 7.2 comes from, said wherever a price is converted: the PBoC USD/CNY central parity stayed between 7.1 and 7.2
# through 2024 and 2025; 7.2 is that rounded up, set when the price table was last reviewed. An assumption, overridable.
CNY_PER_USD_AS_OF = "2026-03-20"
CNY_PER_USD_SOURCE = "PBoC USD/CNY central parity, 7.1-7.2 through 2024-2025, rounded (an assumption)"
CNY_PER_USD_SOURCE_ZH = "假设值：人民银行美元中间价 2024-2025 年在 7.1-7.2 之间，取整"
# The source article: used 8xA100 servers sell at 30-40% of list in 2026. A claim, not a measurement.
DEFAULT_USED_FRACTION_OF_NEW = 0.35

PRICE_FILE_HINT = ("your prices file (GPU_ADVISOR_PRICES or ~/.config/gpu-advisor/prices.yaml, records shaped like "
                   "knowledge/data/prices.yaml)")


class CostRequest(BaseModel):
    """A GPU job to cost: which GPU, how many, how long, and the prices in force. None means 'use the default'."""

    model_config = ConfigDict(extra="forbid")
    gpu: GPU
    num_gpus: int = Field(1, ge=1, le=1_000_000)
    hours: float = Field(gt=0, allow_inf_nan=False, description="wall-clock hours of the job; GPU-hours = hours x num_gpus")
    mode: Literal["rent", "buy", "both"] = "both"
    currency: Literal["USD", "CNY"] = "USD"
    prices: list[Price] = Field(default_factory=list, description="the price table in force")
    price_per_hour: float | None = Field(None, gt=0, allow_inf_nan=False, description="your rental price per GPU-hour")
    purchase_price_per_gpu: float | None = Field(None, gt=0, allow_inf_nan=False, description="your purchase price per GPU")
    used: bool = Field(False, description="buy used GPUs (default new)")
    used_fraction_of_new: float | None = Field(None, description="used price as a share of new; default 0.35 when no used price exists")
    electricity_price: float | None = Field(None, ge=0, allow_inf_nan=False, description="per kWh, in the currency")
    pue: float | None = Field(None, ge=1, le=3, description="facility power / IT power (default 1.3)")
    utilization: float | None = Field(None, description="share of the year owned GPUs do useful work (default 0.7)")
    hosting_per_gpu_month: float | None = Field(None, ge=0, allow_inf_nan=False)
    depreciation_years: float | None = Field(None, gt=0, le=15)
    resale_fraction: float | None = Field(None, ge=0, lt=1, description="resale value after depreciation, share of purchase")
    cny_per_usd: float | None = Field(None, gt=0, allow_inf_nan=False)
    power_watts_per_gpu: float | None = Field(None, gt=0, le=5000, description="default: the GPU's TDP")
    period_hours: float | None = Field(None, gt=0, allow_inf_nan=False, description="calendar hours the GPUs are held "
                                       "(default: the job's hours); `hours` are the hours they work within it")
    rent_committed: bool = Field(False, description="a reserved term or contract: every hour of the period is paid, "
                                 "worked or not (on demand pays only the working hours)")
    basis: Literal["period", "share"] = Field("period", description="period: buy for the period and sell at its end "
                                              "(one job); share: the job's share of GPUs kept busy for years")

    @field_validator("utilization", "used_fraction_of_new")
    @classmethod
    def _fraction(cls, v: float | None, info) -> float | None:
        if v is not None and not (0 < v <= 1):
            hint = f"; for {v:g}% write {v / 100:g}" if 5 <= v <= 100 else ""  # 70 most likely meant 70%
            raise ValueError(f"must be a fraction in (0, 1]{hint}")
        return v

    @model_validator(mode="after")
    def _consistent(self) -> CostRequest:
        if self.used_fraction_of_new is not None and not self.used:
            raise ValueError("--used-fraction-of-new applies to used purchases: add --used")
        return self


class CostRange(BaseModel):
    """An amount with its band, in the estimate's currency."""

    low: float
    typical: float
    high: float


class PriceUsed(BaseModel):
    """A price record the estimate used, as recorded (its own currency and unit)."""

    id: str
    used_for: Literal["rent", "buy"]
    kind: str
    provider: str | None
    low: float
    high: float
    typical: float | None
    currency: str
    unit: str
    source: str
    as_of: str
    confidence: str


class CostEstimate(BaseModel):
    """Rental and owned cost of one job, the break-even, and every price and default behind them."""

    gpu: str
    num_gpus: int
    hours: float
    gpu_hours: float
    mode: str
    currency: str
    rent_price_per_gpu_hour: CostRange | None
    rent_cost: CostRange | None
    purchase_price_per_gpu: CostRange | None
    buy_cost: CostRange | None = Field(description="owned cost attributed to this job (see the module docstring)")
    basis: str = "period"
    period_hours: float | None = Field(None, description="calendar hours the GPUs are held (basis 'period')")
    buy_wins_after_months: float | None = Field(None, description="holding months, at the utilization, after which "
                                                "buying costs less than renting (resale credited; basis 'period')")
    buy_breakdown: dict[str, float] | None = Field(description="typical buy_cost split into capital, hosting, power")
    owned_cost_per_gpu_hour: float | None = Field(description="typical owned cost per working GPU-hour")
    cheaper: Literal["rent", "buy"] | None = Field(description="at the typical prices, for this job")
    utilization: float | None = Field(description="share of the year owned GPUs work (buy side and break-even)")
    break_even_months: float | None
    break_even_utilization: float | None
    prices_used: list[PriceUsed]
    assumptions: list[str]


class PricePick(BaseModel):
    """A per-GPU price range in the request's currency, the records behind it, and how it was formed."""

    per_gpu: CostRange
    used: list[PriceUsed]
    notes: list[str]


def _convert(amount: float, src: str, dst: str, cny_per_usd: float) -> float:
    if src == dst:
        return amount
    return amount * cny_per_usd if (src, dst) == ("USD", "CNY") else amount / cny_per_usd


def price_range(records: list[Price], used_for: str, currency: str, cny_per_usd: float, rate_text: str) -> PricePick:
    """Range across records: cheapest low, highest high, median of typical values (midpoint where none)."""
    lows, highs, typicals, notes = [], [], [], []
    for p in records:
        scale = _convert(1.0, p.currency, currency, cny_per_usd) / (GPUS_PER_SERVER if p.unit == "per_8gpu_server" else 1)
        lows.append(p.low * scale)
        highs.append(p.high * scale)
        typicals.append((p.typical if p.typical is not None else (p.low + p.high) / 2) * scale)
        if p.unit == "per_8gpu_server":
            notes.append(f"{p.id}: an 8-GPU server price divided by 8 (it includes CPUs, RAM, networking)")
    converted = sorted({p.currency for p in records} - {currency})
    if converted:
        notes.append(f"{', '.join(converted)} prices converted to {currency} at {rate_text}")
    used = [PriceUsed(id=p.id, used_for=used_for, kind=p.kind, provider=p.provider, low=p.low, high=p.high,
                      typical=p.typical, currency=p.currency, unit=p.unit, source=p.source, as_of=p.as_of,
                      confidence=p.confidence) for p in records]
    return PricePick(per_gpu=CostRange(low=min(lows), typical=statistics.median(typicals), high=max(highs)),
                 used=used, notes=notes)


def prefer_currency(records: list[Price], currency: str) -> list[Price]:
    same = [p for p in records if p.currency == currency]
    return same or records


def _kinds_for(gpu_id: str, prices: list[Price]) -> str:
    kinds = sorted({p.kind for p in prices if p.gpu == gpu_id})
    return f"it has: {', '.join(kinds)}" if kinds else "it has no prices at all"


def _rate(req: CostRequest) -> tuple[float, str]:
    """CNY per USD for converting prices, and how to state it."""
    if req.cny_per_usd is not None:
        return req.cny_per_usd, f"{req.cny_per_usd:g} CNY/USD (given)"
    return DEFAULT_CNY_PER_USD, f"{DEFAULT_CNY_PER_USD:g} CNY/USD (default, an assumption; --cny-per-usd)"


def rental_price(req: CostRequest) -> PricePick:
    """Per-GPU-hour rental price range: the override, else on-demand records for the GPU."""
    if req.price_per_hour is not None:
        x = req.price_per_hour
        return PricePick(per_gpu=CostRange(low=x, typical=x, high=x), used=[],
                     notes=[f"rental price {x:g} {req.currency} per GPU-hour (given)"])
    records = [p for p in req.prices if p.gpu == req.gpu.id and p.kind == "rent_on_demand"]
    cny_per_usd, rate_text = _rate(req)
    if not records:
        raise ValueError(f"no on-demand rental price for {req.gpu.id} in the price table ({_kinds_for(req.gpu.id, req.prices)}); "
                         f"give --price-per-hour (per GPU-hour, {req.currency}) or add a rent_on_demand record for "
                         f"{req.gpu.id} to {PRICE_FILE_HINT}")
    pick = price_range(prefer_currency(records, req.currency), "rent", req.currency, cny_per_usd, rate_text)
    pick.notes.insert(0, f"rental: on-demand prices for {req.gpu.id} across {len(pick.used)} record(s): low = cheapest "
                         "low, high = highest high, typical = median of the typical values (midpoint where a record has none)")
    return pick


def purchase_price(req: CostRequest) -> PricePick:
    """Per-GPU purchase price range: the override, else buy_used / buy_new records (used = a share of new)."""
    if req.purchase_price_per_gpu is not None:
        x = req.purchase_price_per_gpu
        return PricePick(per_gpu=CostRange(low=x, typical=x, high=x), used=[],
                     notes=[f"purchase price {x:,.0f} {req.currency} per GPU (given)"])
    mine = [p for p in req.prices if p.gpu == req.gpu.id]
    cny_per_usd, rate_text = _rate(req)
    used = [p for p in mine if p.kind == "buy_used"]
    new = [p for p in mine if p.kind == "buy_new"]
    if req.used and used and req.used_fraction_of_new is None:
        pick = price_range(prefer_currency(used, req.currency), "buy", req.currency, cny_per_usd, rate_text)
        pick.notes.insert(0, f"purchase: used-market prices for {req.gpu.id} ({len(pick.used)} record(s)): "
                             "range across records, typical = median")
        return pick
    if not new:
        what = "used or new" if req.used else "new"
        raise ValueError(f"no {what} purchase price for {req.gpu.id} in the price table ({_kinds_for(req.gpu.id, req.prices)}); "
                         f"give --purchase-price (per GPU, {req.currency}) or add a buy_new record for {req.gpu.id} "
                         f"to {PRICE_FILE_HINT}")
    pick = price_range(prefer_currency(new, req.currency), "buy", req.currency, cny_per_usd, rate_text)
    pick.notes.insert(0, f"purchase: new prices for {req.gpu.id} ({len(pick.used)} record(s)): range across records, "
                         "typical = median")
    if req.used:
        f = req.used_fraction_of_new if req.used_fraction_of_new is not None else DEFAULT_USED_FRACTION_OF_NEW
        r = pick.per_gpu
        pick.per_gpu = CostRange(low=r.low * f, typical=r.typical * f, high=r.high * f)
        pick.notes.append(f"used = {f:g} x the new price" + (
            " (given)" if req.used_fraction_of_new is not None else
            f" (default: no used price for {req.gpu.id} in the table; the source article claims used 8xA100 servers "
            "sell at 30-40% of list in 2026, unverified; --used-fraction-of-new)"))
    return pick


def estimate_cost(req: CostRequest) -> CostEstimate:
    """Rental cost, owned cost and break-even for one job, with the prices and defaults used."""
    cur = req.currency
    notes: list[str] = []

    def default(value, fallback, text: str):
        if value is not None:
            return value
        notes.append(text)
        return fallback

    rent_hours = req.period_hours if (req.rent_committed and req.period_hours) else req.hours
    gpu_hours = rent_hours * req.num_gpus
    used: list[PriceUsed] = []

    rent = rent_cost = None
    if req.mode in ("rent", "both"):
        pick = rental_price(req)
        rent, used = pick.per_gpu, used + pick.used
        notes += pick.notes
        rent_cost = CostRange(low=rent.low * gpu_hours, typical=rent.typical * gpu_hours, high=rent.high * gpu_hours)
        notes.append(f"rent: {req.num_gpus} GPUs x {round(rent_hours, 2):,g} h = {round(gpu_hours, 2):,g} GPU-hours x the price "
                     "per GPU-hour" + ("; a reserved term pays every hour of the period, worked or not" if rent_hours != req.hours
                                       else "") + "; storage, egress and idle time between jobs not included")

    buy = buy_cost = breakdown = owned_h = u = wins = period_used = None
    be_months = be_util = None
    if req.mode in ("buy", "both"):
        pick = purchase_price(req)
        buy, used = pick.per_gpu, used + pick.used
        notes += pick.notes
        if req.power_watts_per_gpu is None and req.gpu.tdp_w is None:
            raise ValueError(f"no TDP for {req.gpu.id} in the GPU table; give the power per GPU (--power-watts-per-gpu)")
        if req.power_watts_per_gpu is not None:
            watts = req.power_watts_per_gpu
            notes.append(f"power: {watts:g} W per GPU while the job runs (given)")
        else:  # the machine's draw at the wall, shared over its GPUs (tools.power: one place for it)
            from tools.power import module_card, wall_watts_per_gpu

            watts = wall_watts_per_gpu(req.gpu, req.num_gpus)
            notes.append(f"power: {watts:,.0f} W per GPU at the wall while the job runs ({req.gpu.id} TDP "
                         f"{req.gpu.tdp_w:g} W plus its share of the machine: " + (
                             "an 8-GPU server's CPUs, NVSwitches, NICs and fans, as DGX H100's 10.2 kW for 5.6 kW of "
                             "GPUs" if module_card(req.gpu) else "the host's CPU and board through its power supply") + ")")
        e = default(req.electricity_price, DEFAULT_ELECTRICITY_PER_KWH[cur],
                    f"electricity {DEFAULT_ELECTRICITY_PER_KWH[cur]:g} {cur}/kWh (default; --electricity-price)")
        pue = default(req.pue, DEFAULT_PUE, f"PUE {DEFAULT_PUE:g} (default, cooling and power delivery; --pue)")
        u = default(req.utilization, DEFAULT_UTILIZATION,
                    f"utilization {DEFAULT_UTILIZATION:g}: owned GPUs do useful work {DEFAULT_UTILIZATION:.0%} of the year "
                    "(default; --utilization); idle power not counted")
        if req.hosting_per_gpu_month is None and desk_card(req.gpu):
            hosting = 0.0
            notes.append(f"no hosting: {req.gpu.id} is a desk card (a PC or a Mac at home or in the office), so only its "
                         "electricity counts (--hosting-per-gpu-month to add rack space)")
        else:
            hosting = default(req.hosting_per_gpu_month, DEFAULT_HOSTING_PER_GPU_MONTH[cur],
                              f"hosting {DEFAULT_HOSTING_PER_GPU_MONTH[cur]:g} {cur} per GPU-month for rack space, cooling "
                              "and network (default, an assumption; --hosting-per-gpu-month); staff time not included")
        years = default(req.depreciation_years, DEFAULT_DEPRECIATION_YEARS,
                        f"depreciation over {DEFAULT_DEPRECIATION_YEARS:g} years (default; --depreciation-years)")
        resale = default(req.resale_fraction, DEFAULT_RESALE_FRACTION,
                         f"resale at {DEFAULT_RESALE_FRACTION:.0%} of the purchase price after {years:g} years "
                         "(default; --resale-fraction)")
        power_h = watts / 1000 * pue * e  # per GPU-hour of work
        fixed_h = lambda p: p * (1 - resale) / (years * HOURS_PER_YEAR * u) + hosting / (HOURS_PER_MONTH * u)
        owned_h = fixed_h(buy.typical) + power_h
        if req.basis == "share":
            buy_cost = CostRange(**{k: req.num_gpus * req.hours * (fixed_h(getattr(buy, k)) + power_h)
                                    for k in ("low", "typical", "high")})
            capital = req.num_gpus * req.hours * buy.typical * (1 - resale) / (years * HOURS_PER_YEAR * u)
            breakdown = {"capital": capital, "hosting": req.num_gpus * req.hours * hosting / (HOURS_PER_MONTH * u),
                         "power": req.num_gpus * req.hours * power_h}
            notes.append("buy: the job's share of (purchase - resale) over the depreciation years and of hosting, "
                         f"by its hours over the {u:.0%} of each year the GPUs work, plus power = TDP x GPUs x hours x PUE "
                         "x price (basis share: the GPUs stay busy with other work after this job)")
        else:
            held = max(req.period_hours or req.hours, req.hours)
            kept = resale_after(held, years, resale)
            months = max(1.0, held / HOURS_PER_MONTH)
            per_gpu = lambda p: p * (1 - kept) + hosting * months + power_h * req.hours
            buy_cost = CostRange(**{k: req.num_gpus * per_gpu(getattr(buy, k)) for k in ("low", "typical", "high")})
            breakdown = {"capital": req.num_gpus * buy.typical * (1 - kept), "hosting": req.num_gpus * hosting * months,
                         "power": req.num_gpus * power_h * req.hours}
            period_used = held
            notes.append(f"buy: purchase less resale when sold after {held:,.0f} h ("
                         + ("no resale: written off" if resale == 0 else
                            f"{kept:.0%} of the price back: {DEFAULT_RESALE_SOON:.0%} soon after purchase, falling to "
                            f"{resale:.0%} after {years:g} years, an assumption")
                         + f"), hosting for {months:,.1f} month(s), power = TDP x GPUs x {round(req.hours, 1):,g} "
                         "working hours x PUE x price")
        if rent is not None:
            rent_u = 1.0 if req.rent_committed else u  # a reserved term is paid for every hour, worked or not
            notes.append("break-even months = purchase / (monthly rent " + ("for every hour of the reserved term"
                                                                             if req.rent_committed else
                                                                             "at this utilization")
                         + " - monthly hosting and power), typical prices, resale not credited")
            margin = rent.typical * HOURS_PER_MONTH * rent_u - hosting - power_h * HOURS_PER_MONTH * u
            be_months = buy.typical / margin if margin > 0 else None
            if be_months is None:
                notes.append("break-even: renting costs less per month than hosting and powering owned GPUs; buying never pays")
            elif be_months > years * 12:
                notes.append(f"break-even after {be_months:.0f} months: beyond the {years:g}-year depreciation life")
            if req.basis == "period":
                wins = buy_wins_after(buy.typical, rent.typical, hosting, power_h, u, years, resale, req.rent_committed)
                notes.append(f"buying beats renting when the GPUs are held longer than "
                             + (f"{wins:.1f} months" if wins else f"{2 * years:g} years (never, at these prices)")
                             + f" working {u:.0%} of the time (" + ("no resale credited" if resale == 0 else "resale credited")
                             + ")")
            spread = rent.typical - power_h
            raw = (buy.typical * (1 - resale) / (years * HOURS_PER_YEAR) + 12 * hosting / HOURS_PER_YEAR) / spread \
                if spread > 0 else math.inf
            be_util = raw if raw <= 1 and not req.rent_committed else None
            if req.rent_committed:  # both sides are paid for every hour: how busy the GPUs are changes neither
                notes.append("break-even utilization: none under a reserved term (rent and ownership are both paid for "
                             "every hour, busy or idle)")
            elif be_util is None:
                notes.append("break-even utilization: owning costs more per GPU-hour than renting even at 100% use")
    if req.mode != "both":
        notes.append("break-even needs both prices: --mode both")
    notes.append("prices are estimates (ranges) with dates; replace them with your quotes: --price-per-hour, "
                 "--purchase-price, or " + PRICE_FILE_HINT)

    rnd = lambda r: None if r is None else CostRange(low=round(r.low, 2), typical=round(r.typical, 2), high=round(r.high, 2))
    cheaper = None
    if rent_cost is not None and buy_cost is not None:
        cheaper = "buy" if buy_cost.typical < rent_cost.typical else "rent"
    return CostEstimate(
        gpu=req.gpu.id, num_gpus=req.num_gpus, hours=req.hours, gpu_hours=gpu_hours, mode=req.mode, currency=cur,
        basis=req.basis, period_hours=period_used, buy_wins_after_months=None if wins is None else round(wins, 1),
        rent_price_per_gpu_hour=None if rent is None else CostRange(
            low=round(rent.low, 4), typical=round(rent.typical, 4), high=round(rent.high, 4)),
        rent_cost=rnd(rent_cost), purchase_price_per_gpu=rnd(buy), buy_cost=rnd(buy_cost),
        buy_breakdown=None if breakdown is None else {k: round(v, 2) for k, v in breakdown.items()},
        owned_cost_per_gpu_hour=None if owned_h is None else round(owned_h, 4), cheaper=cheaper, utilization=u,
        break_even_months=None if be_months is None else round(be_months, 2),
        break_even_utilization=None if be_util is None else round(be_util, 4),
        prices_used=used, assumptions=list(dict.fromkeys(notes)),
    )


def desk_card(gpu: GPU) -> bool:
    """A card that sits in a PC or a Mac (GeForce / RTX workstation cards, Apple silicon), not in a rented rack."""
    return gpu.vendor == "Apple" or gpu.id.startswith("rtx-")


def resale_after(held_hours: float, years: float, resale: float) -> float:
    """Share of the purchase price a card fetches when sold after `held_hours`: DEFAULT_RESALE_SOON at once, falling
    in a straight line to `resale` at the end of the depreciation life, flat after. A resale of 0 is a write-off:
    nothing comes back, whenever the cards leave."""
    if resale == 0:
        return 0.0
    return DEFAULT_RESALE_SOON - (DEFAULT_RESALE_SOON - resale) * min(1.0, held_hours / (years * HOURS_PER_YEAR))


def buy_wins_after(price: float, rent: float, hosting: float, power_h: float, u: float, years: float,
                   resale: float, committed: bool = False) -> float | None:
    """The shortest holding period in months for which owning one GPU (purchase less resale, hosting by the month,
    power while it works) costs less than renting it for the same working hours (730 · u a month; every hour of the
    month under a reserved term, `committed`); None when owning never wins within 2 · years. Month by month, then
    halved to 0.1 month."""
    def gap(m: float) -> float:
        work = HOURS_PER_MONTH * u * m
        kept = 0.0 if resale == 0 else resale_after(m * HOURS_PER_MONTH, years, resale)  # (0: no resale credited at all)
        return price * (1 - kept) + hosting * max(1.0, m) \
            + power_h * work - rent * (HOURS_PER_MONTH * m if committed else work)
    hi = next((m for m in range(1, int(24 * years) + 1) if gap(m) <= 0), None)
    if hi is None:
        return None
    lo = hi - 1.0
    while hi - lo > 0.05:
        mid = (lo + hi) / 2
        lo, hi = (lo, mid) if gap(mid) <= 0 else (mid, hi)
    return hi


def electricity_cost(kw: float, hours: float, price_per_kwh: float, pue: float = 1.0, load: float = 1.0) -> float:
    """The bill for drawing `kw` (IT power at full load) for `hours`, at `load` of full power on average, times the
    facility's PUE: kW x load x PUE x hours x price."""
    if kw < 0 or hours < 0 or price_per_kwh < 0 or pue < 1 or not 0 <= load <= 1:
        raise ValueError("power, hours and price must be positive, PUE at least 1 and the load between 0 and 1")
    return kw * load * pue * hours * price_per_kwh


def estimate_rent_and_buy(req: CostRequest) -> CostEstimate:
    """Both sides where the prices exist; where the table has no purchase price for the card, the rental side
    alone, and where it has no rental price, the owned side alone, with the reason first in its assumptions."""
    try:
        return estimate_cost(req.model_copy(update={"mode": "both"}))
    except ValueError as e:
        for side in ("rent", "buy"):
            try:
                one = estimate_cost(req.model_copy(update={"mode": side}))
            except ValueError:
                continue
            one.assumptions.insert(0, str(e).split(";")[0])
            return one
        raise


__all__ = ["CostRequest", "estimate_rent_and_buy", "CostEstimate", "CostRange", "PriceUsed", "PricePick", "estimate_cost", "rental_price", "purchase_price"]
