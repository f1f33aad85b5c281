"""Money answers: what a GPU costs (the sourced price table) and what a job or a period of use costs (rent vs buy)."""
from __future__ import annotations

import math
import re
from typing import Any

from assistant.answer import Answer, Citation, Verdict
from assistant.request import Clarification
from tools.cost import DEFAULT_CNY_PER_USD, HOURS_PER_MONTH, _convert
from assistant.compose import md_table
from assistant.context import USES, Ctx, assumptions_md
from assistant.readers.slots import API_VS_SELF, STANDARD_SERVER_GPUS, w

USES["price"] = {"gpu", "gpus", "used", "server", "price_kind", "currency", "num_gpus", "gpus_per_node", "nodes",
                 "rent_per_month"}
USES["cost"] = {"gpu", "gpus", "num_gpus", "gpus_per_node", "nodes", "period_hours", "hours_per_day", "price_per_gpu_hour",
                "purchase_price", "purchase_price_per_server", "used", "utilization", "currency", "price_kind", "server",
                "model", "method", "methods", "tokens", "epochs", "seq_len", "precision", "interconnect", "zero", "recompute",
                "global_batch", "budget", "break_even", "mfu", "throughput_tokens_per_s", "per_token_cost", "engine",
                "concurrent_users", "context", "prompt_len", "output_len", "electricity_per_kwh",
                "reference_per_million", "provider", "throughput_scope", "api_spend_per_month", "tokens_per_day", "volume_is_output", "peak_factor",
                "max_throughput", "rent_per_month", "hosting_per_month", "power_kw", "pue", "depreciation_years", "full_model"}
_KIND = {"rent_on_demand": ("rent, on demand", "按需租用"), "rent_reserved": ("rent, reserved", "包年包月"),
         "rent_spot": ("rent, spot", "竞价实例"), "buy_new": ("buy new", "新卡购买"), "buy_used": ("buy used", "二手购买")}
USES["price"] = USES["price"] | {"gpu_rental_prices"}  # (priced via the price records)
USES["cost"] = USES["cost"] | {"gpu_rental_prices"}  # (priced via the price records)



def _currency(ctx: Ctx) -> str:
    if ctx.req.currency:
        return ctx.req.currency
    cur = "CNY" if ctx.zh else "USD"
    ctx.assume(cur, "人民币" if cur == "CNY" else "美元")
    return cur


def _sym(cur: str) -> str:
    return "¥" if cur == "CNY" else "$"


def price(ctx: Ctx) -> Answer:
    from tools.pricing import KINDS, gpu_prices

    req, lang = ctx.req, ctx.lang
    cur = _currency(ctx)
    gpu = ctx.gpu()
    kinds = KINDS
    if req.price_kind == "rent":
        kinds = tuple(k for k in KINDS if k.startswith("rent"))
    elif req.price_kind == "buy" or req.used or req.server:
        kinds = ("buy_used", "buy_new") if req.used else ("buy_new", "buy_used")
    res = ctx.call("gpu_prices", {"gpu": gpu.id, "currency": cur, "kinds": list(kinds)},
                   gpu_prices(ctx.deps.prices(), gpu.id, cur, kinds))
    s = _sym(cur)
    figures: dict[str, Any] = {"currency": cur}
    rows = []
    for k in res.kinds:
        name = {"rent_on_demand": "rent_on_demand_per_gpu_hour", "rent_reserved": "rent_reserved_per_gpu_hour",
                "rent_spot": "rent_spot_per_gpu_hour", "buy_new": "buy_new_per_gpu", "buy_used": "buy_used_per_gpu"}[k.kind]
        figures |= {name: round(k.typical, 2), name + "_low": round(k.low, 2), name + "_high": round(k.high, 2)}
        if k.kind == "rent_on_demand":
            figures |= {"rent_on_demand_low": round(k.low, 2), "rent_on_demand_high": round(k.high, 2)}
        unit = ctx.t("per GPU-hour", "每卡每小时") if k.unit == "per_gpu_hour" else ctx.t("per GPU", "每卡")
        row = [_KIND[k.kind][1 if ctx.zh else 0], f"{s}{k.low:,.2f} – {s}{k.high:,.2f}", f"{s}{k.typical:,.2f}", unit,
               str(k.records)]
        if k.per_server_typical:
            if not any(r.kind == k.kind and r.unit == "per_8gpu_server" for r in res.records):
                ctx.notes.append(ctx.t(f"{_KIND[k.kind][0]}: no whole-server price in the table; the 8-GPU figure is 8 x the "
                                       "card price, without CPUs, RAM, NICs and chassis (a real server costs more)",
                                       f"{_KIND[k.kind][1]}：价格表里没有整机价；8 卡整机按 8 × 单卡估算，"
                                       "不含 CPU、内存、网卡和机箱（实际整机更贵）"))
            server = k.kind.replace("_per_gpu", "")
            figures |= {f"{server}_per_server": round(k.per_server_typical, 0),
                        f"{server}_per_server_low": round(k.per_server_low, 0),
                        f"{server}_per_server_high": round(k.per_server_high, 0)}
            row[3] += ctx.t(f"; 8-GPU server {s}{k.per_server_low:,.0f} – {s}{k.per_server_high:,.0f}",
                            f"；8 卡整机 {s}{k.per_server_low:,.0f} – {s}{k.per_server_high:,.0f}")
        rows.append(row)
    if not rows:
        text = ctx.t(f"The price table has no {'/'.join(kinds)} price for {gpu.name}. Add your own quote with "
                     "GPU_ADVISOR_PRICES (see `gpu-advisor prices`).",
                     f"价格表里没有 {gpu.name} 的这类价格（{'/'.join(kinds)}）。可以用 GPU_ADVISOR_PRICES 加入你拿到的报价。")
        return Answer(answer=text, lang=lang, intent="price", figures=figures, tool_calls=ctx.calls, status="answered")
    head = ctx.t(f"**{gpu.name} prices** (estimates with sources and dates; ranges across providers, {cur}):",
                 f"**{gpu.name} 价格**（估计值，附来源与日期；不同来源之间的区间，{cur}）：")
    lines = [head, "", md_table([ctx.t("kind", "类型"), ctx.t("range", "区间"), ctx.t("typical", "典型"),
                                 ctx.t("unit", "单位"), ctx.t("sources", "来源数")], rows), ""]
    n = ctx.req.num_gpus or 1
    if n > 1 and "num_gpus" in ctx.req.stated:
        # ('8x H200 per hour … how much HBM is that in total'): the set's hourly rates and its memory
        hourly = [(_KIND[k.kind][1 if ctx.zh else 0], k.typical * n) for k in res.kinds if k.unit == "per_gpu_hour"]
        bought = [(_KIND[k.kind][1 if ctx.zh else 0], k.typical * n) for k in res.kinds if k.unit == "per_gpu"]
        from tools.capacity import HOURS_PER_MONTH as MONTH_H

        monthly = ctx.req.period_hours == MONTH_H or bool(re.search(r"一个月|每个?月|月租|包月|(?<![a-z])(?:a|per|each) "
                                                                    r"month|monthly", ctx.question.lower()))
        # ('租的话一个月大概什么价': the set's month of renting, beside its hour)
        per = ctx.t("; ".join([f"{name} {s}{v:,.2f}/h" + (f" = {s}{v * MONTH_H:,.0f} a month of {MONTH_H} h" if monthly
                                                          else "") for name, v in hourly]
                              + [f"{name} {s}{v:,.0f}" for name, v in bought]),
                    "；".join([f"{name} {s}{v:,.2f}/小时" + (f" = 每月（{MONTH_H} 小时）{s}{v * MONTH_H:,.0f}" if monthly else "")
                              for name, v in hourly] + [f"{name} {s}{v:,.0f}" for name, v in bought]))
        lines += [ctx.t(f"**For {n} GPUs** (typical): {per}; memory {n} × {gpu.memory_gb:g} GB = "
                        f"**{n * gpu.memory_gb:,.0f} GB** in total.",
                        f"**{n} 张合计**（典型）：{per}；显存 {n} × {gpu.memory_gb:g} GB = **{n * gpu.memory_gb:,.0f} GB**。"), ""]
        figures["total_memory_gb"] = n * gpu.memory_gb
    src_rows = [[r.provider or "-", f"{r.low:,.2f}–{r.high:,.2f} {r.currency}", r.unit, r.confidence, r.as_of]
                for r in res.records[:12]]
    lines += [ctx.t("**Records behind these ranges:**", "**区间背后的记录：**"),
              md_table([ctx.t("provider", "来源"), ctx.t("price", "价格"), ctx.t("unit", "单位"),
                        ctx.t("confidence", "可信度"), ctx.t("as of", "日期")], src_rows)]
    notes = ctx.notes + sorted({n for k in res.kinds for n in k.notes}) + [ctx.t(
        "prices move weekly; write your quote in the message (e.g. '$2.5/GPU-hour') to replace them",
        "价格每周都在变；在消息里写上你的报价（如“每卡时 ¥15”）即可替换")]
    if re.search(r"export licens", gpu.market_notes or ""):  # (the GPU table's note: supply, not only price, may move)
        lines.append(ctx.t(f"**{gpu.name}: supply depends on US export licensing, which has changed since 2025** (GPU "
                           "table): confirm availability and the price with a vendor quote before planning on it.",
                           f"**{gpu.name} 的供货受美国出口许可影响，2025 年以来多次变化**（GPU 规格表）：下单前先找渠道确认有货和报价。"))
    cites = [Citation(source=f"prices.yaml#{r.id}", title=(r.provider or r.id), snippet=r.source[:200], as_of=r.as_of)
             for r in res.records[:6]]
    return Answer(answer="\n".join(lines) + assumptions_md(lang, notes), lang=lang, intent="price", figures=figures,
                  citations=cites, tool_calls=ctx.calls, verdict=Verdict(gpu=gpu.id))


def without_period(ctx: Ctx) -> Answer:
    """A cost asked with no period: when buying pays back if buying is in the question or a purchase price is given (it
    needs no period), else what the GPUs cost per hour, day and month to rent. The period is offered, not asked."""
    req = ctx.req
    if req.purchase_price or req.purchase_price_per_server or re.search(
            r"买|购|(?<![a-z])(?:buy|buying|purchase|own|owning)(?![a-z])", ctx.question.lower()):
        ctx.req = req.model_copy(update={"break_even": True})
        if not req.price_per_gpu_hour and typical_rate(ctx, ctx.gpu().id) is None:
            # no rental price on record (a used 3090): the card's prices, and the break-even left to the user's quote
            ctx.notes.append(ctx.t("no rental price on record for this card, so no break-even: give a rental quote "
                                   "(e.g. '$0.25 an hour on vast.ai') to compare buying with renting",
                                   "价格表里没有这张卡的租价，算不了回本：给出租价（如“每小时 ¥1.5”）即可比较买和租"))
            return price(ctx)
        ctx.assume("no job length given: the break-even, which needs none (give a period for a total)",
                   "未给用多久：给出回本时间（它不需要时长；给出时长可算总价）")
        return cost(ctx)
    ctx.assume("no period given: the rates per hour, day and month (give a period for a total)",
               "未给用多久：给出每小时、每天、每月的费用（给出时长可算总价）")
    return rates(ctx)


def rates(ctx: Ctx) -> Answer:
    """A cost asked without a period ('how much to rent 8 H100s?'): what the GPUs cost per hour, day and month to
    rent (the user's price, else the table's typical on-demand) and to buy; a total needs a period, offered as a
    one-click completion (no question back: the rates answer what can be answered)."""
    req = ctx.req
    n = req.num_gpus or 1
    if not req.num_gpus:
        ctx.assume_one_gpu()
    base = price(ctx)
    cur = base.figures.get("currency", "USD")
    s = _sym(cur)
    rate = req.price_per_gpu_hour or base.figures.get("rent_on_demand_per_gpu_hour")
    lines, figures = [], dict(base.figures)
    if rate:
        from tools.rates import RatesRequest, rental_rates

        whose = ctx.t("your price", "你给的价格") if req.price_per_gpu_hour else ctx.t("typical on-demand, price table",
                                                                                      "按需租用典型价，价格表")
        rr = ctx.call("rental_rates", {"num_gpus": n, "price_per_gpu_hour": rate},
                      rental_rates(RatesRequest(num_gpus=n, price_per_gpu_hour=rate)))
        figures |= {"rent_per_hour": round(rr.per_hour, 2), "rent_per_day": rr.per_day, "rent_per_month": rr.per_month,
                    "rate_per_gpu_hour": rate}
        lines.append(ctx.t(f"**Renting {n}× {ctx.gpu().name}: {s}{rr.per_hour:,.2f} per hour, {s}{rr.per_day:,.0f} per day, "
                           f"{s}{rr.per_month:,.0f} per month** ({HOURS_PER_MONTH:g} h; {s}{rate:,.2f} per GPU-hour, {whose}).",
                           f"**租 {n} 张 {ctx.gpu().name}：每小时 {s}{rr.per_hour:,.2f}，每天 {s}{rr.per_day:,.0f}，每月 "
                           f"{s}{rr.per_month:,.0f}**（每月按 {HOURS_PER_MONTH:g} 小时；每卡每小时 {s}{rate:,.2f}，{whose}）。"))
    buy = req.purchase_price or base.figures.get("buy_new_per_gpu")
    if buy:
        figures["buy_total"] = round(n * buy, 0)
        lines.append(ctx.t(f"Buying {n}: about {s}{n * buy:,.0f} for the cards ({s}{buy:,.0f} each"
                           + (", your price)" if req.purchase_price else ", typical new price)") + ", before servers and power.",
                           f"买 {n} 张：卡约 {s}{n * buy:,.0f}（每张 {s}{buy:,.0f}"
                           + ("，你给的价格）" if req.purchase_price else "，新卡典型价）") + "，不含服务器和电费。"))
    lines.append(ctx.t("A total needs how long you will use them: pick a period below, or write one (e.g. '10 days').",
                       "总价取决于用多久：点下面的时长，或直接写（如“跑10天”）。"))
    clar = Clarification(missing=["period_hours"], question=ctx.t("For how long?", "用多长时间？"),
                         suggestions=[ctx.t(x, y) for x, y in (("1 week", "1周"), ("1 month", "1个月"), ("1 year", "1年"))])
    return base.model_copy(update={"answer": "\n".join(lines) + "\n\n" + base.answer, "intent": "cost", "figures": figures,
                                   "clarification": clar})


def typical_rate(ctx: Ctx, gpu_id: str, currency: str | None = None) -> float | None:
    """The price table's typical on-demand rate per GPU-hour (the session's overrides applied), in `currency` (the
    request's, else USD); None without a record."""
    from tools.pricing import on_demand_rate

    mine = provider_rate(ctx, gpu_id, currency)
    if mine is not None:
        return mine
    r = on_demand_rate(ctx.deps.prices(), gpu_id, currency or ctx.req.currency or "USD")
    return r.typical if r else None


def provider_rate(ctx: Ctx, gpu_id: str, currency: str | None = None) -> float | None:
    """The on-demand rate of the cloud the user named ('on AWS', '在阿里云'): the median typical of the records whose
    provider names it, converted to the currency, said; None when none is named or the table has no such record (said)."""
    from tools.cost import DEFAULT_CNY_PER_USD, price_range

    name = ctx.req.provider
    if not name:
        return None
    cur = currency or ctx.req.currency or "USD"
    found = [p for p in ctx.deps.prices() if p.gpu == gpu_id and p.kind == "rent_on_demand"
             and p.provider and name.lower() in p.provider.lower()]
    if not found:
        ctx.notes.append(ctx.t(f"no {name} on-demand price for {gpu_id} in the price table: the typical across providers is used",
                               f"价格表里没有 {name} 上 {gpu_id} 的按需价格：改用各家典型价"))
        return None
    rate = price_range(found, "rent", cur, DEFAULT_CNY_PER_USD, "").per_gpu.typical  # the median typical, as everywhere
    note = ctx.t(f"{name} on-demand for {gpu_id}: {rate:,.2f} {cur} per GPU-hour (price table: "
                 + ", ".join(f"{p.id}, {p.provider}, as of {p.as_of}" for p in found) + ")",
                 f"{name} 上 {gpu_id} 的按需价：每卡时 {rate:,.2f} {cur}（价格表："
                 + "，".join(f"{p.id}，{p.provider}，{p.as_of}" for p in found) + "）")
    ctx.note(note)
    return rate


def _owned_rate(ctx: Ctx, gpu, n: int, cur: str) -> float | None:
    """What an owned GPU costs per hour of work at full use, from the user's purchase price and running costs (the
    rent-and-buy tool's owned cost per working GPU-hour, written off over the stated years, 3 by default)."""
    from tools.cost import GPUS_PER_SERVER, CostRequest, estimate_rent_and_buy

    req = ctx.req
    purchase = req.purchase_price or (req.purchase_price_per_server / (req.gpus_per_node or min(n, GPUS_PER_SERVER) or 1)
                                      if req.purchase_price_per_server else None)
    if purchase is None:
        return None
    owner = _owner_costs(ctx, n)
    years = owner.get("depreciation_years") or req.depreciation_years or 3.0
    args = {"gpu": gpu, "num_gpus": n, "hours": years * 8760, "mode": "buy", "currency": cur, "prices": ctx.deps.prices(),
            "purchase_price_per_gpu": purchase, "used": bool(req.used), "utilization": 1.0,
            "electricity_price": req.electricity_per_kwh, "depreciation_years": years} | owner
    r = estimate_rent_and_buy(CostRequest(**args))
    ctx.call("cost", {k: (v.id if hasattr(v, "id") else v) for k, v in args.items() if k != "prices"}, r)
    ctx.assume(f"owning at full use: {purchase:,.0f} per GPU written off over {years:g} years plus running costs = "
               f"{r.owned_cost_per_gpu_hour:,.2f} per GPU-hour", f"自有满负荷：每卡 {purchase:,.0f} 按 {years:g} 年折旧，加运行成本 = "
               f"每卡时 {r.owned_cost_per_gpu_hour:,.2f}")
    return r.owned_cost_per_gpu_hour


def api_input_price(req) -> float | None:
    """The API's price per million input tokens as billed: with a prompt cache, the hit share at the cached price and
    the rest at the full one ((1 - 0.3) × ¥2 + 0.3 × ¥0.5 = ¥1.55); the full price when no hit rate is given."""
    from tools.api_bill import input_price

    full = req.reference_input_per_million
    return input_price(full, req.reference_cached_input_per_million or None, req.cache_hit_rate) if full else full


def _cache_said(ctx: Ctx) -> None:
    """The prompt cache's inputs, used (the blended price said) or named as not used (one without the other)."""
    req = ctx.req
    h, c, full = req.cache_hit_rate, req.reference_cached_input_per_million, req.reference_input_per_million
    if h is not None and c and full:
        ctx.used |= {"cache_hit_rate", "reference_cached_input_per_million"}
        ctx.assume(f"API input billed at {1 - h:.0%} × {full:g} (cache misses) + {h:.0%} × {c:g} (cache hits) = "
                   f"{api_input_price(req):.4g} per million input tokens",
                   f"API 输入按 {1 - h:.0%} × {full:g}（未命中）+ {h:.0%} × {c:g}（命中）= 每百万输入 {api_input_price(req):.4g} 计")
    elif h is not None:
        ctx.assume(f"the {h:.0%} cache hit rate is not used: no cached-input price was given, so every input token is "
                   "billed at the full input price (give it, e.g. 'cached input $0.075/M')",
                   f"没有给出命中缓存的输入价，{h:.0%} 的命中率未使用：输入全部按未命中价计（可给出，如“命中 0.5 元/百万”）")
    elif c:
        ctx.assume(f"no cache hit rate given: every input token billed at the full {full:g} (the cached {c:g} applies "
                   "only to hits; give the rate, e.g. 'cache hit rate 30%')",
                   f"没有给出缓存命中率：输入全部按未命中价 {full:g} 计（命中价 {c:g} 只对命中部分有效；可给出，如“命中率 30%”）")


def _api_per_output_million(req) -> float | None:
    """An API's price per million output tokens with its input charge added per output token (input price as billed
    x the workload's input:output ratio) when both are given; its output price alone otherwise."""
    if req.reference_per_million and req.reference_input_per_million and req.input_output_ratio:
        return req.reference_per_million + req.input_output_ratio * api_input_price(req)
    return req.reference_per_million


def _selling_at(ctx: Ctx, per_m: float, price: float, s: str) -> list[str]:
    """'We charge ¥16 per 1M output tokens: do we break even?': the cost to make a million at full load against the
    price, and the share of the time the GPUs must be busy for the price to cover it (cost per token at use u is
    per_m / u, paid for whether busy or not)."""
    u = per_m / price if price else None
    if u is None:
        return []
    if u > 1:
        verdict = ctx.t(f"**It does not break even**: even with the GPUs busy every hour, a million output tokens cost "
                        f"{s}{per_m:,.2f} to make against your {s}{price:,.3g}: {s}{per_m - price:,.2f} lost per million. "
                        f"Break-even needs a price of at least {s}{per_m:,.2f} at full use, {s}{per_m / 0.5:,.2f} at 50% use.",
                        f"**回不了本**：即使 GPU 每小时都满载，每百万输出 token 的成本是 {s}{per_m:,.2f}，高于你的定价 "
                        f"{s}{price:,.3g}，每百万亏 {s}{per_m - price:,.2f}。要回本，满载时定价至少 {s}{per_m:,.2f}，"
                        f"一半时间忙时要 {s}{per_m / 0.5:,.2f}。")
    else:
        verdict = ctx.t(f"**It breaks even while the GPUs are busy more than {u:.0%} of the time**: a million output "
                        f"tokens cost {s}{per_m:,.2f} at full load against your {s}{price:,.3g} (at 50% use the cost is "
                        f"{s}{per_m / 0.5:,.2f}).",
                        f"**GPU 忙碌时间超过 {u:.0%} 才能回本**：满载时每百万输出 token 成本 {s}{per_m:,.2f}，你的定价 "
                        f"{s}{price:,.3g}（一半时间忙时成本是 {s}{per_m / 0.5:,.2f}）。")
    ctx.used.add("reference_per_million")
    return [verdict]


def _against_api(ctx: Ctx, per_m: float, ref: float, s: str) -> list[str]:
    """Self-hosting per million output tokens against an API's price: the API's input charge added per output token
    when its input price and the workload's input:output ratio are given (said as not counted otherwise), the verdict
    at full use, and the utilization below which the API is cheaper (self-hosting paid by the hour costs per_m / u)."""
    req = ctx.req
    low = ctx.question.lower()
    selling = re.search(r"定价|对外|卖给|收费|赚钱|" + w(r"charge (?:customers|users|clients)|sell(?:ing)? (?:it )?at|resell|"
                                                   r"price (?:it|our api) at|margin|profit\w*|make money"), low)
    if selling or (re.search(r"回本|亏|" + w(r"break[\s-]*even"), low) and not re.search(r"(?<![a-z])api(?![a-z])|调用|官方", low)):
        # ('we sell it at $X: when do we break even?'; an API's price beside '回本' is the price compared, not ours)
        return _selling_at(ctx, per_m, ref, s)
    api, ref = ref, req.reference_per_million
    how_en, how_zh = f"{s}{ref:,.3g} per million output tokens", f"每百万输出 {s}{ref:,.3g}"
    if req.reference_input_per_million and req.input_output_ratio:
        ctx.used |= {"reference_input_per_million", "input_output_ratio"}
        how_en = (f"{s}{ref:,.3g} + {req.input_output_ratio:g} input tokens per output token × "
                  f"{s}{req.reference_input_per_million:,.3g} = {s}{api:,.3g} per million output tokens")
        how_zh = (f"输出 {s}{ref:,.3g} + 每个输出 token 对应 {req.input_output_ratio:g} 个输入 token × {s}{req.reference_input_per_million:,.3g}"
                  f" = 每百万输出 {s}{api:,.3g}")
    elif req.reference_input_per_million:
        # no input:output ratio given: the API's bill per million output tokens at typical ratios, and the ratio at
        # which it meets self-hosting's (the self-hosted figure is at this estimate's own prompt length, said)
        inp = req.reference_input_per_million
        ctx.used.add("reference_input_per_million")
        at = {r: ref + r * inp for r in (1, 3, 10)}
        even = (per_m - ref) / inp if per_m > ref else 0.0
        table = ", ".join(f"{r}:1 → {s}{v:,.3g}" for r, v in at.items())
        if per_m <= ref:
            u1 = per_m / at[1]
            verdict_en = (f"**self-hosting is cheaper** at any input:output ratio (it is cheaper on output alone) — while "
                          f"the GPUs are busy: its hours are paid idle too, so it stays cheaper above about {u1:.0%} "
                          "utilization at 1:1 (less with longer prompts)")
            verdict_zh = (f"**自建更便宜**，不管输入输出比例多少（只比输出就已经更便宜）——前提是卡一直有活：闲着也要付钱，"
                          f"1:1 时利用率要高于约 {u1:.0%}（提示更长时门槛更低）")
        else:
            half = 2 * per_m  # at 50% average load: the hours are paid, half the tokens come out
            even_half = (half - ref) / inp
            verdict_en = (f"**the API is cheaper unless your requests carry more than {even:,.1f} input tokens per output "
                          f"token** (at {even:,.1f}:1 both cost {s}{per_m:,.3f} per million output tokens) — and that is "
                          f"with the GPUs busy every hour; at a more usual 50% average load self-hosting costs "
                          f"{s}{half:,.3f}, and the API wins below {even_half:,.1f}:1")
            verdict_zh = (f"**除非每个输出 token 对应超过 {even:,.1f} 个输入 token，否则 API 更便宜**（{even:,.1f}:1 时两者都是"
                          f"每百万输出 {s}{per_m:,.3f}）——这还是卡每个小时都满载的情况；按更常见的平均 50% 负载，自建每百万输出"
                          f" {s}{half:,.3f}，要超过 {even_half:,.1f}:1 才比 API 便宜")
        return [ctx.t(f"Against the API, counting its input price ({s}{inp:,.3g} per million input tokens): its cost per "
                      f"million output tokens is {s}{ref:,.3g} + ratio × {s}{inp:,.3g} ({table}); self-hosting is "
                      f"{s}{per_m:,.3f} at full use, so {verdict_en}. Long prompts also slow a self-hosted GPU (more "
                      "prefill per output token), so give your ratio (e.g. '3:1') for one figure.",
                      f"与 API 比，计入它的输入价（每百万输入 {s}{inp:,.3g}）：它每百万输出 token 的成本是 {s}{ref:,.3g} + 比例 × "
                      f"{s}{inp:,.3g}（{table}）；自建满负荷 {s}{per_m:,.3f}，所以{verdict_zh}。提示越长，自建的卡也越慢（每个输出 "
                      "token 的预填充更多），给出你的比例（如“3:1”）可得一个确定的数。")]
    cheaper = per_m < api
    u = per_m / api
    out = [ctx.t(f"Against the API at {how_en}: **{'self-hosting is cheaper' if cheaper else 'the API is cheaper'}** at full use "
                 f"({s}{per_m:,.3f} vs {s}{api:,.3g})"
                 + (f"; self-hosting is paid whether or not the GPUs are busy, so it stays cheaper while they are busy more "
                    f"than **{u:.0%}** of the time (below that, the API)." if cheaper else "."),
                 f"与 API 比（{how_zh}）：满负荷时**{'自建更便宜' if cheaper else 'API 更便宜'}**（{s}{per_m:,.3f} 对 {s}{api:,.3g}）"
                 + (f"；自建的费用不管忙闲都要付，所以 GPU 忙碌时间超过 **{u:.0%}** 才更便宜（低于它用 API）。" if cheaper else "。"))]
    return out


# 'at what volume does self-hosting win?', '每天多少量才划算': the volume where the API's bill meets the machine's
BREAK_EVEN_VOLUME = (r"多少量|多大(?:的)?量|量多大|量到多少|量达到|盈亏平衡|回本点|临界|" + w(
    r"at what volume|what volume|how much volume|how many tokens (?:a|per) (?:day|month)|break[\s-]*even|crossover|"
    r"tipping point|point where|when does self[\s-]*host\w* (?:win|pay|become)"))


def _break_even_volume(ctx: Ctx, s: str, hourly: float, mtok_per_hour: float, unit_en: str, unit_zh: str) -> list[str]:
    """The output tokens a day at which the API's bill equals one rented unit's day (hourly x 24), at the input:output
    ratio given (else 1:1, 3:1 and 10:1), against what the unit can make in a day at full load: past its capacity the
    API is cheaper at any volume (more units cost in proportion)."""
    req = ctx.req
    out_p, in_p = req.reference_per_million, req.reference_input_per_million or 0.0
    day = hourly * 24
    cap = mtok_per_hour * 24  # million output tokens a day at full load
    ratios = [req.input_output_ratio] if req.input_output_ratio else ([1, 3, 10] if in_p else [0])
    ctx.used |= {"reference_per_million", "reference_input_per_million", "input_output_ratio"}
    rows, en, zh = [], [], []
    for r in ratios:
        api_m = out_p + r * in_p  # the API's price per million output tokens at this ratio
        be = day / api_m  # million output tokens a day
        wins = be <= cap
        label = f"{r:g}:1" if in_p else ctx.t("output only", "只算输出")
        rows.append([label, f"{s}{api_m:,.3g}", f"{be:,.0f}M", f"{be / cap:.0%}" if wins else ctx.t("never", "不会")])
        en.append(f"{label}: {be:,.0f}M output tokens a day ({be * 30.4 / 1e3:,.2f}B a month"
                  + (f"; {be * (1 + r) * 30.4 / 1e3:,.1f}B tokens a month with the input" if r else "") + ")"
                  + ("" if wins else " (more than it can make)"))
        zh.append(f"{label}：每天 {be:,.0f}M 输出 token（每月约 {be * 30.4 / 100:,.1f} 亿）" + ("" if wins else "（超过它的产能）"))
    head = ctx.t(f"**Break-even volume**: one {unit_en} costs {s}{day:,.0f} a day whatever it does and makes at most "
                 f"{cap:,.0f}M output tokens a day at full load; self-hosting wins above " + "; ".join(en) + ".",
                 f"**盈亏平衡的量**：一{unit_zh}每天固定花 {s}{day:,.0f}，满载最多每天产出 {cap:,.0f}M 输出 token；超过这个量自建更划算："
                 + "；".join(zh) + "。")
    table = md_table([ctx.t("input:output", "输入:输出"), ctx.t("API per 1M output", "API 每百万输出"),
                      ctx.t("break-even a day", "每天平衡点"), ctx.t("share of capacity", "占产能")], rows)
    tail = ctx.t("Past the capacity the API is cheaper at any volume: more units cost in proportion. Idle hours count "
                 "against self-hosting, so the volume must arrive spread over the day.",
                 "超过产能时无论量多大 API 都更便宜：多加机器成本同比增加。闲置的小时也算自建的钱，所以这个量要全天均匀地来。")
    return [head, table, tail]


SERVING_BATCH = 32  # sequences a right-sized serving set-up holds at once (room for its KV cache, not one stream)


def _right_sized(ctx: Ctx, s: str, rate: float, unit_gpus: int, cap, figures: dict) -> str:
    """The user's machine loafing at the volume ('8x H100 … 7% used'): the fewest of the same GPUs that hold the model
    (FP8 where the card computes it), at their share of the machine's throughput, still carrying the day's volume with
    a 2x peak; their monthly rent against the API's (a set of GPUs that leaves 70% idle is not the self-hosting price)."""
    from tools.formats import supported_on
    from assistant.plans.infer import fits_on

    req = ctx.req
    made = cap.tokens_per_day_per_unit * cap.units_costed
    if not made or not req.tokens_per_day or unit_gpus < 2 or "api_per_day" not in figures:
        return ""
    out = req.tokens_per_day / (1 if req.volume_is_output else 1 + req.input_output_ratio)
    if out / made > 0.3:
        return ""
    try:
        model, gpu = ctx.model(), ctx.gpu()
    except (ValueError, LookupError):
        return ""
    fmt = "fp8" if supported_on("fp8", gpu)[0] else (model.native_precision or "bf16")
    # the fewest that hold the weights and a working batch (32 sequences of 4k: room for the KV a busy set-up runs)
    k = next((n for n in (1, 2, 4, 8) if n < unit_gpus and fits_on(model, gpu, n, fmt, 4096, SERVING_BATCH).fits), 0)
    if not k:
        return ""
    speedup = 2.0 if fmt == "fp8" and model.native_precision in ("bf16", "fp16") else 1.0  # (half the bytes a token)
    carries = made * k / unit_gpus * speedup
    if carries < 2 * out:
        return ""
    month = k * rate * 24 * HOURS_PER_MONTH / 24
    api = figures["api_per_day"] * HOURS_PER_MONTH / 24
    figures |= {"right_sized_gpus": k, "right_sized_per_month": round(month, 2)}
    verdict_en = "still dearer than the API" if month > api * 1.05 else "about the API's bill" if month > api * 0.95 \
        else "cheaper than the API"
    verdict_zh = "仍比 API 贵" if month > api * 1.05 else "和 API 差不多" if month > api * 0.95 else "比 API 便宜"
    return ctx.t(f"**Right-sized, though**: your volume uses {out / made:.0%} of {unit_gpus} GPUs; {k}× {gpu.name} in {fmt} "
                 f"hold the model and still carry it with room for a 2× peak (~{carries / 1e6:,.0f}M output tokens a day): "
                 f"{k} × {s}{rate:,.2f}/h × {HOURS_PER_MONTH:,.0f} h = **{s}{month:,.0f} a month**, {verdict_en} "
                 f"({s}{api:,.0f}), before the staff time to run it.",
                 f"**不过按需配置**：你的量只用到 {unit_gpus} 张卡的 {out / made:.0%}；{k} 张 {gpu.name} 用 {fmt} 就放得下模型，"
                 f"也扛得住这个量并留 2 倍峰值（每天约 {carries / 1e6:,.0f}M 输出 token）：{k} × {s}{rate:,.2f}/小时 × "
                 f"{HOURS_PER_MONTH:,.0f} 小时 = **每月 {s}{month:,.0f}**，{verdict_zh}（{s}{api:,.0f}），还没算运维人力。")


def _api_at_volume(ctx: Ctx, s: str, own_per_day: float, units: int, made_m: float | None = None) -> tuple[str, dict]:
    """'每天 2 亿 token（输入 1.6 亿，输出 4000 万），API 输入 4 元/百万、输出 12 元/百万，自建租整机 55 元/小时，哪个划算？':
    the day's API bill (input x its price + output x its price) against the day's rental of the machines that carry
    the volume, and the verdict by how much."""
    req = ctx.req
    out_m = req.tokens_per_day / 1e6 / (1 if req.volume_is_output else 1 + req.input_output_ratio)
    in_m = out_m * req.input_output_ratio
    from tools.api_bill import ApiBillRequest, api_bill

    args = {"input_m": in_m, "output_m": out_m, "input_per_million": req.reference_input_per_million,
            "output_per_million": req.reference_per_million,
            "cached_input_per_million": req.reference_cached_input_per_million, "cache_hit_rate": req.cache_hit_rate}
    bill = ctx.call("api_bill", args, api_bill(ApiBillRequest(**args)))
    in_price = bill.input_price_effective
    _cache_said(ctx)
    api = bill.total
    ctx.used |= {"reference_input_per_million", "input_output_ratio", "reference_per_million", "tokens_per_day",
                 "volume_is_output"}
    cheaper = api < own_per_day
    gap = abs(api - own_per_day)
    figures = {"api_per_day": round(api, 2), "self_hosted_per_day": round(own_per_day, 2)}
    per_out = api / out_m if out_m else None  # the API's price per million output tokens at this mix
    even = own_per_day / per_out if per_out else None  # million output tokens a day at which the bills meet
    if even and cheaper:
        figures["break_even_output_m_per_day"] = round(even, 1)
        over = made_m is not None and even > made_m
        tail_en = (f" Self-hosting would win above about {even:,.0f}M output tokens a day ({even * (1 + req.input_output_ratio):,.0f}M "
                   "with the input) on the same machines"
                   + (f", more than they make at full load ({made_m:,.0f}M a day): on them the API stays cheaper."
                      if over else ", if they can carry it."))
        tail_zh = (f"同样的机器要每天超过约 {even:,.0f}M 输出 token（含输入约 {even * (1 + req.input_output_ratio):,.0f}M）自建才更划算"
                   + (f"，而它满载每天只能产出约 {made_m:,.0f}M：在这台机器上一直是 API 更便宜。" if over else "，前提是它扛得住。"))
    else:
        tail_en = tail_zh = ""
    if cheaper:  # the reasons a team self-hosts at a loss are the decision, not the arithmetic: said
        tail_en += (" Self-hosting can still be the call for data that may not leave your network, a fine-tuned model, or "
                    "latency and quota control; buying cards instead of renting changes the self-hosted bill only if they "
                    "stay busy for years.")
        tail_zh += ("数据不能出内网、要部署微调过的模型、要自己控制延迟和限流时，即使贵也可能选自建；买卡代替租卡，"
                    "只有长期跑满才会明显降低自建成本。")
    # in the period the user speaks in: 'a month' when the volume or the bill is asked by the month (a month is 730 h)
    monthly = bool(re.search(r"每月|月度|一个月|(?<![a-z])(?:month|monthly|mo)(?![a-z])|/\s*月", ctx.question.lower()))
    k = HOURS_PER_MONTH / 24 if monthly else 1.0
    if monthly:
        figures |= {"api_per_month": round(api * k, 2), "self_hosted_per_month": round(own_per_day * k, 2)}
    price_en = (f"{s}{in_price:.4g} (your {req.cache_hit_rate:.0%} cache hits at {s}{req.reference_cached_input_per_million:g}, "
                f"the rest at {s}{req.reference_input_per_million:g})" if in_price != req.reference_input_per_million
                else f"{s}{req.reference_input_per_million:g}")
    price_zh = (f"{s}{in_price:.4g}（命中 {req.cache_hit_rate:.0%} 按 {s}{req.reference_cached_input_per_million:g}，"
                f"其余按 {s}{req.reference_input_per_million:g}）" if in_price != req.reference_input_per_million
                else f"{s}{req.reference_input_per_million:g}")
    mo_en = (lambda v: f" (**{s}{v * k:,.0f} a month**)") if monthly else (lambda v: "")
    mo_zh = (lambda v: f"（**每月 {s}{v * k:,.0f}**）") if monthly else (lambda v: "")
    return ctx.t(
        f"**At your volume {'the API' if cheaper else 'self-hosting'} is cheaper, by {s}{gap:,.0f} a day**"
        + (f" ({s}{gap * k:,.0f} a month)" if monthly else "") + f" ({gap / max(api, own_per_day):.0%}): the API "
        f"{in_m:,.0f}M input × {price_en} + {out_m:,.0f}M output × {s}{req.reference_per_million:g} = **{s}{api:,.0f} a day**"
        + mo_en(api) + f"; self-hosting {units} × {s}{own_per_day / units / 24:,.2f}/h × 24 h = **{s}{own_per_day:,.0f} a day**"
        + mo_en(own_per_day) + ", paid busy or idle"
        + (" (more volume on the same machines lowers its cost per token; the API's stays the same)." if cheaper else ".")
        + tail_en,
        f"**按你的量，{'API' if cheaper else '自建'}更便宜，每天省 {s}{gap:,.0f}**" + (f"（每月 {s}{gap * k:,.0f}）" if monthly else "")
        + f"（{gap / max(api, own_per_day):.0%}）：API 输入 {in_m:,.0f}M × {price_zh} + 输出 {out_m:,.0f}M × "
        f"{s}{req.reference_per_million:g} = **每天 {s}{api:,.0f}**" + mo_zh(api) + f"；自建 {units} × "
        f"{s}{own_per_day / units / 24:,.2f}/小时 × 24 小时 = **每天 {s}{own_per_day:,.0f}**" + mo_zh(own_per_day)
        + "，忙闲都要付" + ("（同样的机器跑更多量，自建每 token 成本会降，API 不变）。" if cheaper else "。") + tail_zh), figures


def _whole_servers(ctx: Ctx) -> bool:
    """The message is about whole 8-GPU servers ('一台 8 卡 H100 服务器', 'an 8x H100 node'), whose draw is more than their
    GPUs' TDP; a desk rig of cards is not."""
    req = ctx.req
    return bool(req.server or req.nodes or (req.gpus_per_node or 0) >= 8 or
                re.search(r"服务器|整机|(?<![a-z])(?:server|node|dgx|hgx)s?(?![a-z])", ctx.question.lower())) and \
        (req.num_gpus or 0) >= 8


HEADROOM_USE = 0.8  # a fleet planned at ~80% of its measured capacity (an assumption practitioners state: bursts, failures)


def power_bill(ctx: Ctx) -> Answer:
    """'100 台 8 卡服务器，每台 10 kW，PUE 1.3，0.6 元/度，一年电费多少？80% 负载呢？': the electricity bill at full load and
    at the stated average load, for the stated period (a year when none is given)."""
    from tools.cost import DEFAULT_PUE, electricity_cost

    req = ctx.req
    cur = _currency(ctx)
    s = _sym(cur)
    cards = list(dict.fromkeys(req.gpus or []))
    if len(cards) >= 2 and not req.power_kw and not req.gpu_power_w:
        # '一台 8 卡 4090 服务器 vs 一台 8 卡 H20 服务器，各要多少电费': each card's server billed, side by side
        parts, figs, bills = [], {}, []
        for g in cards[:4]:
            sub = Ctx(req=req.model_copy(update={"gpu": g, "gpus": [g]}), deps=ctx.deps, question=ctx.question)
            one = power_bill(sub)
            ctx.calls += sub.calls
            ctx.used |= sub.used
            name = ctx.gpu(g).name
            bills.append((name, one.figures.get("electricity_full_load")))
            figs |= {f"{k}_{g}": v for k, v in one.figures.items() if isinstance(v, (int, float))}
            parts.append(f"### {name}\n\n" + one.answer)
        known = [(nm, b) for nm, b in bills if b]
        if len(known) >= 2:
            lo, hi = min(known, key=lambda x: x[1]), max(known, key=lambda x: x[1])
            parts.insert(0, ctx.t(f"**{lo[0]}: {s}{lo[1]:,.0f}; {hi[0]}: {s}{hi[1]:,.0f}** a period at full load — "
                                  f"{hi[0]} costs {s}{hi[1] - lo[1]:,.0f} more ({hi[1] / lo[1]:.2f}×); real inference "
                                  "draws less than TDP most of the time.",
                                  f"**{lo[0]}：{s}{lo[1]:,.0f}；{hi[0]}：{s}{hi[1]:,.0f}**（满载）—— {hi[0]} 多 "
                                  f"{s}{hi[1] - lo[1]:,.0f}（{hi[1] / lo[1]:.2f} 倍）；实际推理大部分时间功耗低于 TDP。"))
        return Answer(answer="\n\n".join(parts), lang=ctx.lang, intent="cost", figures=figs | {"currency": cur},
                      tool_calls=ctx.calls)
    servers = req.nodes or (-(-(req.num_gpus or 8) // (req.gpus_per_node or 8)))
    n = req.num_gpus or 1
    if not req.power_kw and not req.gpu and not req.gpu_power_w:
        return _power_bill_by_card(ctx, servers)
    if req.gpu_power_w and not req.power_kw:
        # '400 W/GPU + 30% server overhead': the user's own power model, in place of TDP x the DGX-derived factor
        from tools.purchase import SERVER_POWER_FACTOR

        over = req.server_overhead if req.server_overhead is not None else SERVER_POWER_FACTOR - 1
        ctx.used |= {"gpu_power_w", "server_overhead"}
        gpu = ctx.gpu() if req.gpu else None
        if req.node_overhead_kw:  # '700 W per GPU, node overhead 2.5 kW': the GPUs plus each server's own draw
            ctx.used.add("node_overhead_kw")
            gpu_kw, overhead_kw = n * req.gpu_power_w / 1000, servers * req.node_overhead_kw
            kw = gpu_kw + overhead_kw
            what = ctx.t(f"{n} × {req.gpu_power_w:g} W + {servers} × {req.node_overhead_kw:g} kW for the servers (yours)",
                         f"{n} × {req.gpu_power_w:g} W + {servers} 台 × {req.node_overhead_kw:g} kW（服务器其余部分，你给的）")
        else:
            kw = n * req.gpu_power_w * (1 + over) / 1000
            what = ctx.t(f"{n} × {req.gpu_power_w:g} W (yours) × {1 + over:.2f} for the rest of the server"
                         + (" (yours)" if req.server_overhead is not None else " (DGX-derived; give yours)"),
                         f"{n} × {req.gpu_power_w:g} W（你给的）× {1 + over:.2f}（服务器其余部分"
                         + ("，你给的）" if req.server_overhead is not None else "，按 DGX 估；可给出你的）"))
    elif req.power_kw:
        kw = req.power_kw * servers
        what = ctx.t(f"{servers} × {req.power_kw:g} kW", f"{servers} 台 × {req.power_kw:g} kW")
    elif _whole_servers(ctx) and ctx.gpu().form_factor and not ctx.gpu().form_factor.upper().startswith(("SXM", "OAM", "HGX")) \
            and ctx.gpu().vendor != "Apple":
        # '8 张 4090 的整机': a PCIe box, its cards' TDP plus a host through its power supply (tools/purchase), not the
        # DGX factor, whose NVSwitches and CPUs an 8-card PCIe box does not carry
        from tools.purchase import DESK_HOST_W, PSU_EFFICIENCY, machine_power_w

        gpu = ctx.gpu()
        per = min(n, req.gpus_per_node or 8)
        kw = machine_power_w(gpu, per) * servers / 1000
        what = ctx.t(f"{servers} × ({per} × {gpu.tdp_w:g} W ({gpu.name} TDP) + {DESK_HOST_W:g} W of host) / "
                     f"{PSU_EFFICIENCY:g} power-supply efficiency",
                     f"{servers} 台 ×（{per} × {gpu.tdp_w:g} W（{gpu.name} 的 TDP）+ 主机 {DESK_HOST_W:g} W）÷ 电源效率 "
                     f"{PSU_EFFICIENCY:g}")
    elif _whole_servers(ctx):  # 'a whole 8-GPU H100 server at full load': the server's draw, not its GPUs' alone
        from tools.purchase import SERVER_POWER_FACTOR

        gpu = ctx.gpu()
        kw = n * gpu.tdp_w * SERVER_POWER_FACTOR / 1000
        what = ctx.t(f"{n} × {gpu.tdp_w:g} W ({gpu.name} TDP) × {SERVER_POWER_FACTOR:.2f} for the rest of the server (CPUs, "
                     "NVSwitches, NICs, fans: DGX H100 is rated 10.2 kW for 8 × 700 W of GPUs)",
                     f"{n} × {gpu.tdp_w:g} W（{gpu.name} 的 TDP）× {SERVER_POWER_FACTOR:.2f}（服务器其余部分：CPU、NVSwitch、网卡、"
                     "风扇；DGX H100 额定 10.2 kW，其中 GPU 8 × 700 W）")
    else:
        gpu = ctx.gpu()
        kw = n * gpu.tdp_w / 1000
        what = ctx.t(f"{n} × {gpu.tdp_w:g} W ({gpu.name} TDP; the servers' CPUs, memory and fans add more)",
                     f"{n} × {gpu.tdp_w:g} W（{gpu.name} 的 TDP；服务器 CPU、内存、风扇另计）")
    pue = req.pue or (1.0 if req.server_overhead is not None or req.node_overhead_kw else DEFAULT_PUE)
    if not req.pue and (req.server_overhead is not None or req.node_overhead_kw):
        ctx.assume("no PUE on top: your overhead is taken as the whole of it (give a PUE to add cooling)",
                   "不另加 PUE：你给的额外功耗就是全部（如需计入制冷请给出 PUE）")
    elif not req.pue:
        ctx.assume(f"PUE {DEFAULT_PUE:g}", f"PUE {DEFAULT_PUE:g}")
    from assistant.plans.train import run_hours

    run = None if req.period_hours else run_hours(ctx)
    hours = req.period_hours or run or 8760.0
    if run:  # '64 张 A800 预训练 1T tokens 要多久？电费多少？': the bill of the run, over its estimated hours
        ctx.used |= {"tokens", "method", "model"}
        ctx.assume(f"the run's {run:,.0f} h ({run / 24:,.1f} days) from the training-time estimate (its band shifts the bill "
                   "in proportion)", f"按这次训练的 {run:,.0f} 小时（{run / 24:,.1f} 天，来自训练时间估算；时间区间按比例影响电费）")
    elif not req.period_hours and req.hours_per_day and req.hours_per_day < 24:
        hours = 8760.0 * req.hours_per_day / 24  # ('每天只用 8 小时'): a year of those working hours
        ctx.used.add("hours_per_day")
        ctx.assume(f"one year at {req.hours_per_day:g} h a day = {hours:,.0f} h", f"一年、每天 {req.hours_per_day:g} 小时 = {hours:,.0f} 小时")
    elif not req.period_hours:
        ctx.assume("one year (8,760 h)", "一年（8,760 小时）")
    price = req.electricity_per_kwh
    full = ctx.call("electricity_cost", {"kw": kw, "hours": hours, "price_per_kwh": price, "pue": pue},
                    {"cost": round(electricity_cost(kw, hours, price, pue), 2)})["cost"]
    kws = f"{kw:,.0f}" if kw >= 100 else f"{kw:,.1f}"
    lines = [ctx.t(f"**At full load: {s}{full:,.0f}** = {what} = {kws} kW × PUE {pue:g} × {hours:,.0f} h × {s}{price:g}/kWh.",
                   f"**满载：{s}{full:,.0f}** = {what} = {kws} kW × PUE {pue:g} × {hours:,.0f} 小时 × {s}{price:g}/度。")]
    if run:  # ('need: days, GPU-hours, … and electricity'): the run's own figures before its bill
        lines.insert(0, ctx.t(f"**The run: {run:,.0f} h ({run / 24:,.1f} days) on {n} GPUs = {run * n:,.0f} GPU-hours** "
                              "(the training-time estimate).",
                              f"**这次训练：{run:,.0f} 小时（{run / 24:,.1f} 天），{n} 张卡 = {run * n:,.0f} 卡时**（训练时间估算）。"))
    if pue > 1:  # the IT load alone and the energy, beside the bill with cooling: what a colo quote and a meter show
        it = full / pue
        kwh = kw * pue * hours
        lines.append(ctx.t(f"Of that, the IT load alone (no cooling): {s}{it:,.0f}; energy {kwh:,.0f} kWh with cooling "
                           f"({kw * hours:,.0f} kWh at the servers).",
                           f"其中 IT 负载本身（不含制冷）：{s}{it:,.0f}；电量含制冷 {kwh:,.0f} 度（服务器本身 {kw * hours:,.0f} 度）。"))
    figures = {"electricity_full_load": full, "kw": kw, "hours": hours, "currency": cur}
    if n and hours:  # '折合每卡时多少钱': the bill over the GPU-hours, so it can sit beside a rental rate
        per_gpu_hour = full / (n * hours)
        figures["electricity_per_gpu_hour"] = round(per_gpu_hour, 4)
        lines.append(ctx.t(f"Per GPU-hour: {s}{full:,.0f} / ({n} GPUs × {hours:,.0f} h) = **{s}{per_gpu_hour:,.3f}**.",
                           f"折合每卡时：{s}{full:,.0f} ÷（{n} 张 × {hours:,.0f} 小时）= **{s}{per_gpu_hour:,.3f}**。"))
    if req.utilization and req.utilization >= 1:
        ctx.used.add("utilization")  # ('24/7': the full-load bill is the bill)
    elif req.utilization and req.idle_power_share is not None and req.gpu_power_w:
        # '70% utilization, idle GPU draw ~30% of TDP': the GPUs' average draw; the servers' own draw runs all the time
        u, idle = req.utilization, req.idle_power_share
        ctx.used |= {"utilization", "idle_power_share"}
        gpu_kw = n * req.gpu_power_w / 1000
        fixed_kw = kw - (gpu_kw if req.node_overhead_kw else gpu_kw * (1 + (req.server_overhead or 0)))
        avg_gpu = req.gpu_power_w * (u + (1 - u) * idle)
        avg_kw = n * avg_gpu / 1000 + (fixed_kw if req.node_overhead_kw else n * avg_gpu * (req.server_overhead or 0) / 1000)
        part = ctx.call("electricity_cost", {"kw": avg_kw, "hours": hours, "price_per_kwh": price, "pue": pue},
                        {"cost": round(electricity_cost(avg_kw, hours, price, pue), 2)})["cost"]
        figures["electricity_at_load"] = part
        lines.append(ctx.t(f"**At {u:.0%} utilization: {s}{part:,.0f}**: each GPU averages {req.gpu_power_w:g} W × ({u:.0%} + "
                           f"{1 - u:.0%} × {idle:.0%} idle) = {avg_gpu:,.0f} W"
                           + (f", the servers' {fixed_kw:g} kW all the time" if req.node_overhead_kw else "")
                           + f": {avg_kw:,.1f} kW × PUE {pue:g} × {hours:,.0f} h × {s}{price:g}/kWh.",
                           f"**利用率 {u:.0%}：{s}{part:,.0f}**：每卡平均 {req.gpu_power_w:g} W ×（{u:.0%} + {1 - u:.0%} × 空闲 "
                           f"{idle:.0%}）= {avg_gpu:,.0f} W" + (f"，服务器本身 {fixed_kw:g} kW 一直在耗" if req.node_overhead_kw else "")
                           + f"：{avg_kw:,.1f} kW × PUE {pue:g} × {hours:,.0f} 小时 × {s}{price:g}/度。"))
    elif req.utilization:
        part = ctx.call("electricity_cost", {"kw": kw, "hours": hours, "price_per_kwh": price, "pue": pue,
                                             "load": req.utilization},
                        {"cost": round(electricity_cost(kw, hours, price, pue, req.utilization), 2)})["cost"]
        figures["electricity_at_load"] = part
        lines.append(ctx.t(f"**At {req.utilization:.0%} average load: {s}{part:,.0f}** (power scales with load; an idle "
                           "server still draws some, so the real figure sits a little above this).",
                           f"**平均负载 {req.utilization:.0%}：{s}{part:,.0f}**（功耗随负载变化；空闲的服务器也有底功耗，实际会略高）。"))
    if req.purchase_price and req.depreciation_years:  # '… what share is that of yearly cost, $1.1M over 4 years?'
        ctx.used |= {"purchase_price", "depreciation_years"}
        capex_year = req.purchase_price * n / req.depreciation_years
        power_year = figures.get("electricity_at_load", full) * 8760 / hours
        share = power_year / (power_year + capex_year)
        figures |= {"capex_per_year": round(capex_year, 2), "power_share_of_yearly_cost": round(share, 4)}
        lines.append(ctx.t(f"**Share of the yearly cost: {share:.0%}**: power {s}{power_year:,.0f} a year against "
                           f"{s}{req.purchase_price * n:,.0f} of hardware over {req.depreciation_years:g} years = "
                           f"{s}{capex_year:,.0f} a year (hosting, network and staff not included).",
                           f"**占每年成本的 {share:.0%}**：电费每年 {s}{power_year:,.0f}，硬件 {s}{req.purchase_price * n:,.0f} 按 "
                           f"{req.depreciation_years:g} 年折旧每年 {s}{capex_year:,.0f}（不含托管、网络和人工）。"))
    rate = req.price_per_gpu_hour
    if not rate and not req.power_kw and re.search(r"租|rent", ctx.question.lower()):
        # '跟租卡的钱比占多大比例': the same GPUs rented for the same hours at the price table's typical rate
        rate = typical_rate(ctx, ctx.gpu().id, cur)
        if rate:
            ctx.assume(f"renting at {s}{rate:,.2f} per GPU-hour (the price table's typical on-demand rate; give yours)",
                       f"租价按每卡时 {s}{rate:,.2f}（价格表的按需典型价；可给出你的报价）")
    if rate and not req.power_kw and not req.price_per_gpu_hour:  # the power bill as a share of the rent
        rent = rate * n * hours
        bill = figures.get("electricity_at_load", full)
        figures |= {"rent_same_gpus": round(rent, 2), "power_share_of_rent": round(bill / rent, 3)}
        lines.append(ctx.t(f"**Against renting the same {n} GPUs for {hours:,.0f} h: {s}{rent:,.0f}**; the power bill is "
                           f"**{bill / rent:.1%}** of it.",
                           f"**同样 {n} 张卡租 {hours:,.0f} 小时：{s}{rent:,.0f}**；电费占它的 **{bill / rent:.1%}**。"))
    if req.price_per_gpu_hour and not req.power_kw:  # against renting the same GPUs for the same hours
        rent = req.price_per_gpu_hour * n * hours
        bill = figures.get("electricity_at_load", full)
        ctx.used.add("price_per_gpu_hour")
        figures |= {"rent_same_gpus": round(rent, 2), "power_share_of_rent": round(bill / rent, 3)}
        lines.append(ctx.t(
            f"**Renting {n} × {gpu.name if gpu else 'GPUs'} instead: {s}{rent:,.0f}** ({n} × {hours:,.0f} h × {s}{req.price_per_gpu_hour:g}/GPU-h). "
            f"Running your own costs {s}{bill:,.0f} in power, {bill / rent:.0%} of that: **keep running yours** while the "
            "machine works (what you paid for it is spent either way; hosting, repairs and your time are extra). Buying "
            "a new rig instead of renting is another sum: ask 'rent or buy' with the period.",
            f"**改租 {n} 张 {gpu.name if gpu else 'GPU'}：{s}{rent:,.0f}**（{n} × {hours:,.0f} 小时 × {s}{req.price_per_gpu_hour:g}/卡时）。"
            f"自己跑的电费 {s}{bill:,.0f}，是租金的 {bill / rent:.0%}：机器能用就**继续用自己的**（买机器的钱已经花了；托管、维修"
            "和人工另算）。要不要新买一台还是去租，是另一笔账：带上使用时长问“租还是买”。"))
    if req.throughput_tokens_per_s:  # '… and per million tokens if it averages 2,500 tok/s': the bill over the tokens
        bill = figures.get("electricity_at_load", full)
        made = req.throughput_tokens_per_s * hours * 3600 / 1e6
        ctx.used |= {"throughput_tokens_per_s", "throughput_scope"}
        figures["electricity_per_million_tokens"] = round(bill / made, 4)
        lines.append(ctx.t(f"**Per million tokens: {s}{bill / made:,.3f}** of electricity = {s}{bill:,.0f} ÷ "
                           f"({req.throughput_tokens_per_s:,.0f} tokens/s × {hours:,.0f} h × 3,600 = {made:,.0f}M tokens); "
                           "the hardware itself is not in this figure.",
                           f"**每百万 token 电费 {s}{bill / made:,.3f}** = {s}{bill:,.0f} ÷（{req.throughput_tokens_per_s:,.0f} "
                           f"token/秒 × {hours:,.0f} 小时 × 3600 = {made:,.0f}M token）；不含硬件本身的成本。"))
    if req.break_even and gpu is not None and not req.power_kw:
        line = _power_in_rent_or_buy(ctx, gpu, n, kw * 1000 / n, pue, cur)
        if line:
            lines.append(line)
    return Answer(answer="\n\n".join(lines) + assumptions_md(ctx.lang, ctx.notes), lang=ctx.lang, intent="cost",
                  figures=figures, tool_calls=ctx.calls)


def _power_in_rent_or_buy(ctx: Ctx, gpu, n: int, watts: float, pue: float, cur: str) -> str | None:
    """'… the yearly power bill, and does it change the buy-vs-rent math?': the payback of buying against renting the
    same GPUs (tools.cost at the price table's typical rates, the default utilization and write-off), with this power
    (the same watts per GPU at the wall and PUE as the bill) and without any, and power's share of owning's hour."""
    from tools.cost import CostRequest, estimate_rent_and_buy

    req = ctx.req
    s = _sym(cur)
    rate = req.price_per_gpu_hour or provider_rate(ctx, gpu.id, cur)
    # how busy the owned cards are: the stated utilization, else the stated hours a day over 24, else the default 70%
    util = req.utilization or (min(1.0, req.hours_per_day / 24) if req.hours_per_day else None)
    base = {"gpu": gpu, "num_gpus": n, "hours": 730.0, "currency": cur, "prices": ctx.deps.prices(), "price_per_hour": rate,
            "purchase_price_per_gpu": req.purchase_price, "used": bool(req.used), "resale_fraction": 0.0,
            "power_watts_per_gpu": watts, "pue": pue, "electricity_price": req.electricity_per_kwh, "utilization": util}
    try:
        with_power = estimate_rent_and_buy(CostRequest(**base))
        without = estimate_rent_and_buy(CostRequest(**(base | {"electricity_price": 0.0})))
    except (ValueError, LookupError):
        return None
    if not with_power.break_even_months or not without.break_even_months or not with_power.rent_price_per_gpu_hour.typical:
        return None
    ctx.call("cost", {"gpu": gpu.id, "num_gpus": n, "electricity_price": req.electricity_per_kwh, "pue": pue}, with_power)
    power_h = watts / 1000 * pue * req.electricity_per_kwh
    a, b = without.break_even_months, with_power.break_even_months
    share = power_h / with_power.rent_price_per_gpu_hour.typical
    busy = util or with_power.utilization or 0.7
    if util:
        ctx.used |= {"utilization", "hours_per_day"} & set(req.stated)
    return ctx.t(
        f"**Buy vs rent: power moves the payback from {a:,.1f} to {b:,.1f} months** (buying against renting the same GPUs "
        f"at {s}{with_power.rent_price_per_gpu_hour.typical:,.2f}/GPU-h, {busy:.0%} busy, no resale; price-table estimates). Power is "
        f"{s}{power_h:,.2f} per GPU-hour at the wall, {share:.0%} of the rental rate: it matters, but the purchase decides "
        + (f"— {b:,.0f} months is past a 4-year life: **rent**." if b > 48 else
           f"— buy only if the cards stay busy past ~{b:,.0f} months."),
        f"**买还是租：电费把回本期从 {a:,.1f} 个月推到 {b:,.1f} 个月**（按价格表典型价，对比租同样的卡，利用率 {busy:.0%}，不计残值）。"
        f"电费每卡时约 {s}{power_h:,.2f}，是租价（{s}{with_power.rent_price_per_gpu_hour.typical:,.2f}/卡时）的 {share:.0%}：有影响，但决定"
        + (f"胜负的是购价——{b:,.0f} 个月超过 4 年使用期：**租更划算**。" if b > 48 else f"胜负的是购价——卡能忙够 {b:,.0f} 个月以上才值得买。"))


# the 8-GPU servers whose yearly bill is shown when a power bill names no card (what such machines mostly hold)
BILL_CARDS = ("h100", "a100-80gb", "h20", "l40s", "rtx-4090", "ascend-910b")


def _power_bill_by_card(ctx: Ctx, servers: int) -> Answer:
    """'一台 8 卡服务器满载跑，电价 0.8 元/度，PUE 1.3，一年电费多少？' with no card and no kW: the bill turns on the
    card (each card's TDP differs), so it is asked, with the bill of each common server meanwhile:
    GPUs x TDP x the rest of the server (tools.purchase.SERVER_POWER_FACTOR) x PUE x hours x price."""
    from tools.cost import DEFAULT_PUE, electricity_cost
    from tools.purchase import SERVER_POWER_FACTOR

    req = ctx.req
    s = _sym(_currency(ctx))
    n = req.num_gpus or (req.gpus_per_node or STANDARD_SERVER_GPUS) * servers
    pue = req.pue or DEFAULT_PUE
    hours = req.period_hours or 8760.0
    if not req.pue:
        ctx.assume(f"PUE {DEFAULT_PUE:g}", f"PUE {DEFAULT_PUE:g}")
    if not req.period_hours:
        ctx.assume("one year (8,760 h)", "一年（8,760 小时）")
    price = req.electricity_per_kwh
    rows = []
    for gid in BILL_CARDS:
        try:
            g = ctx.deps.catalog.gpu(gid)[0]
        except (LookupError, ValueError):
            continue
        if not g.tdp_w:
            continue
        kw = n * g.tdp_w * SERVER_POWER_FACTOR / 1000
        bill = electricity_cost(kw, hours, price, pue)
        load = electricity_cost(kw, hours, price, pue, req.utilization) if req.utilization and req.utilization < 1 else None
        rows.append([g.name, f"{n} × {g.tdp_w:g} W × {SERVER_POWER_FACTOR:.2f} = {kw:,.1f} kW", f"{s}{bill:,.0f}"]
                    + ([f"{s}{load:,.0f}"] if load is not None else []))
    head = [ctx.t("server", "服务器"), ctx.t("draw at full load", "满载功耗"), ctx.t("bill at full load", "满载电费")] + (
        [ctx.t(f"at {req.utilization:.0%} load", f"负载 {req.utilization:.0%}")] if req.utilization and req.utilization < 1 else [])
    text = ctx.t(
        f"**Which cards are in the server?** The bill turns on them (each card's power differs, and so does the rest of "
        f"the server). The formula is kW × PUE {pue:g} × {hours:,.0f} h × {s}{price:g}/kWh; for a server of {n} "
        "of each common card (GPU TDP × the rest of the server):",
        f"**服务器里是什么卡？** 电费取决于它（每种卡功耗不同，服务器其余部分也不同）。公式是 kW × PUE {pue:g} × "
        f"{hours:,.0f} 小时 × {s}{price:g}/度；{n} 张常见卡的服务器（GPU TDP × 服务器其余部分）：")
    ctx.used |= {"num_gpus", "gpus_per_node", "nodes", "utilization"}
    ctx.clarify = Clarification(missing=["gpu"], question=ctx.t("Which GPU is in the server (or its rated power in kW)?",
                                                                "服务器里是哪种卡（或者整机额定功率多少 kW）？"),
                                suggestions=[ctx.t("8x H100", "8 卡 H100"), ctx.t("8x RTX 4090", "8 卡 4090"),
                                             ctx.t("10 kW", "整机 10 kW")])
    return Answer(answer=text + "\n\n" + md_table(head, rows) + assumptions_md(ctx.lang, ctx.notes), lang=ctx.lang,
                  intent="cost", figures={"hours": hours, "pue": pue}, tool_calls=ctx.calls, clarification=ctx.clarify)


def _measured_on_other_card(ctx: Ctx, gpu, tps: float) -> float:
    """A throughput measured on another card, carried to this one: measured x (the estimate here / the estimate there)
    for the same model, format, count and load (the concurrency written beside the measurement, else 64)."""
    from assistant.plans.infer import timed

    req = ctx.req
    model, old = ctx.model(), ctx.gpu(req.measured_gpu)
    batch = req.measured_concurrency or req.concurrent_users or 64
    n = req.measured_num_gpus or 1
    args = {"num_gpus": n, "context": req.prompt_len or 1024, "output": req.output_len or 256, "batch": batch,
            "precision": req.precision or model.native_precision, "engine": "vllm"}
    there, here = timed(ctx, model, old, **args), timed(ctx, model, gpu, **args)
    ratio = here.decode_tokens_per_s_total / there.decode_tokens_per_s_total
    ctx.used |= {"measured_gpu", "measured_num_gpus", "measured_concurrency"}
    ctx.assume(f"your {tps:,.0f} tokens/s on {old.name} x {ratio:.2f} (the estimates at {batch} in flight: "
               f"{here.decode_tokens_per_s_total:,.0f} on {gpu.name} / {there.decode_tokens_per_s_total:,.0f} on {old.name}) = "
               f"{tps * ratio:,.0f} tokens/s on {gpu.name}",
               f"你在 {old.name} 上测的 {tps:,.0f} token/秒 × {ratio:.2f}（{batch} 路并发时的估算：{gpu.name} "
               f"{here.decode_tokens_per_s_total:,.0f} ÷ {old.name} {there.decode_tokens_per_s_total:,.0f}）= {gpu.name} 上 {tps * ratio:,.0f} token/秒")
    claim = re.search(r"(\d+(?:\.\d+)?)\s*(?:x|×|倍)", ctx.question.lower())
    if claim and 1.2 <= float(claim.group(1)) <= 20 and not 0.8 <= float(claim.group(1)) / ratio <= 1.25:
        # ('a guy on reddit says an H100 is 3x an A100'): the claimed factor against the estimates' own for this job
        k = float(claim.group(1))
        bw = (gpu.memory_bandwidth_gbps or 0) / (old.memory_bandwidth_gbps or 1)
        ctx.notes.insert(0, ctx.t(
            f"the claimed {k:g}× is not what this job sees: the estimates give {ratio:.2f}× here (serving at {batch} in "
            f"flight leans on memory bandwidth, {bw:.2f}× between the two); a {k:g}× figure is a peak-compute or FP8 "
            f"ratio. Benchmark one {gpu.name} on your own load before buying fewer of them",
            f"说的 {k:g} 倍不是这个任务能拿到的：按估算这里是 {ratio:.2f} 倍（{batch} 路并发的服务主要看显存带宽，两张卡差 "
            f"{bw:.2f} 倍）；{k:g} 倍是峰值算力或 FP8 的比值。少买之前先拿一张 {gpu.name} 按你们的负载压测"))
    return tps * ratio


DEFAULT_INPUT_OUTPUT = 3.0  # prompt tokens per generated token assumed for a chat / RAG volume given as one total


def per_token(ctx: Ctx) -> Answer:
    """A cost per million tokens, and a measured throughput's capacity: the GPUs' hourly price (the user's, else the
    table's typical on-demand) over the tokens they make in an hour (the user's stated throughput, per GPU, per
    server or in total as written; else the speed tool at full load, said); with a daily or monthly volume, the
    units it needs at its peak (and at a stated utilization), whether the units named are enough, and the month's
    cost (tools/capacity.py)."""
    from assistant.plans.infer import inference_speed
    from tools.capacity import HOURS_PER_MONTH as MONTH_H, CapacityRequest, plan_capacity

    req = ctx.req
    if not req.tokens_per_day and req.requests_per_s and req.output_len and req.throughput_tokens_per_s:
        # '每天 300 万次请求，每个输出 400 token': the output tokens a day the measured rate must carry
        ctx.req = req = req.model_copy(update={"tokens_per_day": req.requests_per_s * 86400 * req.output_len})
        ctx.used |= {"requests_per_s", "output_len"}
        ctx.assume(f"{req.requests_per_s * 86400:,.0f} requests a day × {req.output_len:,} output tokens = "
                   f"{req.tokens_per_day / 1e6:,.0f}M output tokens a day",
                   f"每天 {req.requests_per_s * 86400:,.0f} 次请求 × 每次输出 {req.output_len:,} token = 每天 {req.tokens_per_day / 1e6:,.0f}M 输出 token")
    if req.tokens_per_day and req.requests_per_s and req.output_len and req.volume_is_output and \
            req.throughput_tokens_per_s is None:
        # '200 daily users, ~30 requests each, 1,500 in / 300 out': the volume those requests make (the reader's)
        per_day = req.tokens_per_day / req.output_len
        ctx.used |= {"requests_per_s", "daily_active_users", "team_size", "output_len", "prompt_len", "peak_factor",
                     "input_output_ratio"}
        ctx.assume(f"{per_day:,.0f} requests a day × {req.output_len:,} output tokens = {req.tokens_per_day / 1e6:,.2f}M "
                   "output tokens a day" + (f" (with {req.prompt_len:,} input tokens each)" if req.prompt_len else ""),
                   f"每天 {per_day:,.0f} 次请求 × 每次输出 {req.output_len:,} token = 每天 {req.tokens_per_day / 1e6:,.2f}M 输出 token"
                   + (f"（每次另有 {req.prompt_len:,} 输入 token）" if req.prompt_len else ""))
    if req.reference_input_per_million and not req.input_output_ratio and req.prompt_len and req.output_len:
        # '平均输入 2000、输出 500' beside an API's input and output prices: the workload's own mix, 4 input tokens per output
        ratio = req.prompt_len / req.output_len
        ctx.req = req = req.model_copy(update={"input_output_ratio": ratio})
        ctx.used |= {"prompt_len", "output_len"}
        ctx.assume(f"input:output {ratio:g}:1 from your requests ({req.prompt_len:,} in / {req.output_len:,} out)",
                   f"输入:输出 = {ratio:g}:1（按你的请求：输入 {req.prompt_len:,} / 输出 {req.output_len:,}）")
    if req.tokens_per_day and req.reference_per_million and req.reference_input_per_million and \
            not req.input_output_ratio and not req.volume_is_output:
        # 'gpt-4o-mini prices ($0.15/M in, $0.60/M out), 40M tokens/day total': the bill needs the split; a chat or RAG
        # workload reads about 3 prompt tokens per generated one (an assumption, said)
        ctx.req = req = req.model_copy(update={"input_output_ratio": DEFAULT_INPUT_OUTPUT})
        ctx.assume(f"input:output {DEFAULT_INPUT_OUTPUT:g}:1 (typical of chat and RAG; give yours, e.g. '80% input')",
                   f"输入:输出 {DEFAULT_INPUT_OUTPUT:g}:1（对话和 RAG 的常见比例；可给出你的，如“输入占 80%”）")
    n = req.num_gpus or 1
    if not req.num_gpus and not (req.throughput_scope == "gpu" and req.tokens_per_day):
        ctx.assume_one_gpu()
    gpu = ctx.gpu(default="h100")
    cur = _currency(ctx)
    if not req.reference_per_million and req.model and re.search(API_VS_SELF, ctx.question.lower()):
        # 'DeepSeek-V3: API or self-host?' with no API price given: the maker's own list price, dated and said
        from knowledge.api_prices import api_for_model

        api = api_for_model(req.model, cur)
        if api is not None:
            conv = (lambda v: v) if api.currency == cur else (lambda v: _convert(v, api.currency, cur, DEFAULT_CNY_PER_USD))
            ratio = req.input_output_ratio or DEFAULT_INPUT_OUTPUT
            ctx.req = req = req.model_copy(update={"reference_per_million": round(conv(api.output_per_million), 4),
                                                   "reference_input_per_million": round(conv(api.input_per_million), 4),
                                                   "input_output_ratio": ratio})
            ctx.used |= {"reference_per_million", "reference_input_per_million"}
            ctx.assume(f"the API at {api.name}'s list price, {api.input_per_million:g} in / {api.output_per_million:g} "
                       f"out {api.currency} per million tokens (as of {api.as_of}, cache misses; give yours to replace it)",
                       f"API 按 {api.name} 的公开价：每百万输入 {api.input_per_million:g}、输出 {api.output_per_million:g} "
                       f"{api.currency}（截至 {api.as_of}，按缓存未命中；可给出你的价格）")
    s = _sym(cur)
    rate = req.price_per_gpu_hour
    if rate is None and req.rent_per_month:  # '整机月租 ¥6.5 万': the month's rent over its hours and GPUs
        gpus = _monthly_gpus(req)
        rate = req.rent_per_month / HOURS_PER_MONTH / gpus
        ctx.used.add("rent_per_month")
        ctx.assume(f"renting at your monthly price: {req.rent_per_month:,.0f} / {HOURS_PER_MONTH:g} h / {gpus} GPUs = "
                   f"{rate:,.2f} per GPU-hour", f"按你给的月租：{req.rent_per_month:,.0f} ÷ {HOURS_PER_MONTH:g} 小时 ÷ {gpus} 张 = "
                   f"每卡时 {rate:,.2f}")
    asked_rate_line = None  # (the table's rate, said as an answer where the question asks for it)
    owned = rate is None and (req.purchase_price or req.purchase_price_per_server)
    if owned:  # 'our own 8x 4090 server, ¥180k, 3.5 kW, written off over 3 years': its own hourly cost, not a rental
        rate = _owned_rate(ctx, gpu, n, cur)
    if rate is None:
        rate = typical_rate(ctx, gpu.id, cur)
        if rate is not None:
            ctx.assume(f"{s}{rate:,.2f} per GPU-hour (typical on-demand, price table)", f"每卡时 {s}{rate:,.2f}（按需典型价，价格表）")
            if re.search(r"per hour|hourly|an hour|/h(?:r|our)?\b|going for|rate|每小时|一小时|时租|租金|多少钱一", ctx.question.lower()):
                # ('what's an H200 going for per hour right now, and at that rate …'): the rate is an ask of its own
                from tools.pricing import gpu_prices

                kinds = gpu_prices(ctx.deps.prices(), gpu.id, cur, kinds=("rent_on_demand",))
                if kinds.kinds:
                    k = kinds.kinds[0]
                    dates = sorted({r.as_of for r in kinds.records if getattr(r, "as_of", None)})
                    asked_rate_line = ctx.t(
                        f"**{gpu.name} on demand: {s}{k.low:,.2f}-{s}{k.high:,.2f} per GPU-hour** (typical {s}{k.typical:,.2f}; "
                        f"{k.records} record(s) in the price table" + (f", as of {dates[-1]}" if dates else "") + "; cloud prices "
                        "move month to month and reserved terms run lower: check your provider).",
                        f"**{gpu.name} 按需租价：每卡时 {s}{k.low:,.2f}-{s}{k.high:,.2f}**（典型 {s}{k.typical:,.2f}；价格表 {k.records} 条记录"
                        + (f"，截至 {dates[-1]}" if dates else "") + "；云价格按月在变，包年包月更低：以你的供应商为准）。")
        else:  # '压测 600 tok/s at 16 concurrent … 200 并发要几张 A10？': the count needs no price; costs are left out, said
            # (and a speed asked of a card the table has no rent for: the speed, with the price it needs asked)
            ctx.notes.append(ctx.t(f"the price table has no price for {gpu.name}: costs are left out (give yours, e.g. "
                                   "'$1/GPU-hour')", f"价格表里没有 {gpu.name} 的价格：不算成本（可给出你的，如“每卡时 ¥6”）"))
    tps = req.throughput_tokens_per_s
    if tps and req.measured_gpu and req.model and req.measured_gpu != gpu.id:
        tps = _measured_on_other_card(ctx, gpu, tps)  # 'benchmarked on an A100 … we're going to H100': carried over
    per_gpu = req.throughput_scope == "gpu"
    if tps is None:
        if not req.model:
            raise ValueError("a cost per token needs the throughput (e.g. '2,500 tokens/s') or the model to estimate it")
        speed = inference_speed(Ctx(req=req.model_copy(update={"intent": "inference_speed", "max_throughput": True}),
                                              deps=ctx.deps, question=ctx.question))
        tps = speed.figures.get("decode_tokens_per_s_total") or speed.figures.get("offload_decode_tokens_per_s")
        if not tps:  # (a set-up the speed answer could not time: said, never a KeyError)
            raise ValueError(ctx.t(f"no throughput estimate for {req.model} on {gpu.name} in this set-up: give your "
                                   "measured tokens/s (e.g. '2,500 tokens/s') to price it",
                                   f"{gpu.name} 上这种配置估不出 {req.model} 的吞吐：请给出实测的 token/秒（如“每秒 2500 token”）再算成本"))
        ctx.calls += speed.tool_calls
        if not req.num_gpus and speed.verdict and speed.verdict.num_gpus and speed.verdict.num_gpus != n:
            # the set the speed was timed on is the unit priced: never one card for a model one card cannot hold
            n = speed.verdict.num_gpus
            ctx.assumed[:] = [a for a in ctx.assumed if a not in ("1 GPU", "单卡")]
            ctx.applied["num_gpus"] = n
            ctx.assume(f"{n} GPUs per serving unit: the fewest that hold the weights with room for the KV cache",
                       f"每个服务单元 {n} 张卡：放得下权重并给 KV cache 留出空间的最少卡数")
        sf = speed.figures
        ctx.assume(f"{tps:,.0f} tokens/s at full load ({sf.get('batch')} sequences at once, {sf.get('precision')} weights, "
                   f"{n} GPU{'s' if n > 1 else ''}; the speed estimate; give yours for a measured figure)",
                   f"满载 {tps:,.0f} token/秒（同时 {sf.get('batch')} 条，{sf.get('precision')} 权重，{n} 张卡；速度估算；"
                   "可给出实测值）")
    unit_gpus = 1 if per_gpu else n  # what the stated rate covers: one GPU (or instance), else the n GPUs together
    unit_en = "GPU" if per_gpu else (f"{n}-GPU set" if n > 1 else "GPU")
    unit_zh = "张卡" if per_gpu else (f"套（{n} 卡）" if n > 1 else "张卡")
    out_day = req.tokens_per_day
    if out_day and req.input_output_ratio and not req.volume_is_output and req.throughput_tokens_per_s is None:
        # '2B tokens a month, 80% input': the estimate is output tokens a second, so it carries the output share
        out_day = req.tokens_per_day / (1 + req.input_output_ratio)
        ctx.assume(f"the capacity carries the output share: {req.tokens_per_day / 1e6:,.1f}M tokens a day / "
                   f"{1 + req.input_output_ratio:g} = {out_day / 1e6:,.1f}M output tokens a day (the prompts are prefilled "
                   "within each request)", f"容量按输出部分算：每天 {req.tokens_per_day / 1e6:,.1f}M token ÷ "
                   f"{1 + req.input_output_ratio:g} = 每天 {out_day / 1e6:,.1f}M 输出 token（输入在每个请求里预填充）")
    cap_args = {"throughput_per_unit": tps, "units": (req.num_gpus if per_gpu else 1) if (req.num_gpus or not per_gpu) else None,
                "tokens_per_day": out_day, "peak_factor": req.peak_factor or 1.0,
                "utilization": req.utilization if req.tokens_per_day else None,
                "price_per_unit_hour": rate * unit_gpus if rate else None,
                "current_bill_per_month": req.api_spend_per_month if req.tokens_per_day else None}
    cap = ctx.call("plan_capacity", cap_args, plan_capacity(CapacityRequest(**cap_args)))
    lines = [asked_rate_line] if asked_rate_line else []
    if req.throughput_tokens_per_s is None and req.model:
        sized = next((c.result for c in reversed(ctx.calls) if c.name == "size_infer" and isinstance(c.result, dict)
                      and c.args.get("precision") == speed.figures.get("precision")), None)
        if sized and sized.get("weights_total_gb"):  # 'which ones fit and which is cheapest per token': the fit the
            fits = bool(sized.get("fits"))            # cost stands on, said before the cost
            lines.append(ctx.t(f"{'Fits' if fits else 'Does not fit'}: {sized['weights_total_gb']:,.0f} GB of "
                               f"{speed.figures.get('precision')} weights over {n} × {gpu.name}"
                               + (f", with room for {speed.figures.get('batch')} sequences' KV cache." if fits else "."),
                               f"{'放得下' if fits else '放不下'}：{speed.figures.get('precision')} 权重 "
                               f"{sized['weights_total_gb']:,.0f} GB，{n} 张 {gpu.name}"
                               + (f"，还放得下 {speed.figures.get('batch')} 条序列的 KV cache。" if fits else "。")))
    if rate:
        from tools.rates import RatesRequest, rental_rates

        ref = _api_per_output_million(req)
        rr = ctx.call("rental_rates", {"num_gpus": unit_gpus, "price_per_gpu_hour": rate, "tokens_per_s": tps,
                                       "reference_per_million": ref},
                      rental_rates(RatesRequest(num_gpus=unit_gpus, price_per_gpu_hour=rate, tokens_per_s=tps,
                                                reference_per_million=ref)))
        hourly, per_m, mtok = rr.per_hour, rr.cost_per_million_tokens, rr.million_tokens_per_hour
        who = (f"1× {gpu.name}" if unit_gpus == 1 else f"{unit_gpus}× {gpu.name}")
        lines.append(ctx.t(f"**{s}{per_m:,.3f} per million tokens** at full load: {who} at {s}{rate:,.2f} per GPU-hour = "
                           f"{s}{hourly:,.2f} an hour, making {tps:,.0f} tokens/s × 3,600 = {mtok:,.2f}M tokens an hour.",
                           f"**满载时每百万 token {s}{per_m:,.3f}**：{who}，每卡时 {s}{rate:,.2f}，每小时 {s}{hourly:,.2f}；"
                           f"每秒 {tps:,.0f} token × 3600 = 每小时 {mtok:,.2f}M token。"))
        if req.utilization and not req.tokens_per_day and req.utilization < 1:
            # '实际平均利用率只有 40% 的话呢': the GPU is paid by the hour, busy or not: the cost per token over the share busy
            u = req.utilization
            ctx.used.add("utilization")
            lines.append(ctx.t(f"**At {u:.0%} average utilization: {s}{per_m / u:,.3f} per million tokens** "
                               f"({s}{per_m:,.3f} / {u:g}): the hours are paid busy or idle.",
                               f"**平均利用率 {u:.0%} 时：每百万 token {s}{per_m / u:,.3f}**（{s}{per_m:,.3f} ÷ {u:g}）："
                               "卡是按小时付钱的，闲着也要付。"))
        elif not req.tokens_per_day and not req.utilization:
            # no load stated: a service is rarely full around the clock; what the usual average loads make of it
            lines.append(ctx.t(f"Full load is the floor: at 50% average load {s}{per_m / 0.5:,.3f}, at 30% {s}{per_m / 0.3:,.3f} "
                               "per million (rented hours are paid busy or idle; give your daily tokens to size it).",
                               f"满载是下限：平均负载 50% 时每百万 {s}{per_m / 0.5:,.3f}，30% 时 {s}{per_m / 0.3:,.3f}"
                               "（租的卡按小时付钱，闲着也要付；给出每天的 token 量可按实际负载算）。"))
        if req.prompt_len and req.output_len and req.throughput_tokens_per_s:
            # 'each request 2000 in, 500 out … 1800 output tok/s': counting the input too, per million tokens processed
            k = (req.prompt_len + req.output_len) / req.output_len
            ctx.used |= {"prompt_len", "output_len"}
            lines.append(ctx.t(f"Counting input too ({req.prompt_len:,} in + {req.output_len:,} out per request, {k:g}× the "
                               f"output): {s}{per_m / k:,.3f} per million tokens processed"
                               + (f" ({s}{per_m / k / req.utilization:,.3f} at {req.utilization:.0%})"
                                  if req.utilization and req.utilization < 1 else "") + ".",
                               f"把输入也算上（每请求输入 {req.prompt_len:,} + 输出 {req.output_len:,}，是输出的 {k:g} 倍）："
                               f"每百万 token（输入+输出）{s}{per_m / k:,.3f}"
                               + (f"（利用率 {req.utilization:.0%} 时 {s}{per_m / k / req.utilization:,.3f}）"
                                  if req.utilization and req.utilization < 1 else "") + "。"))
        elif req.input_output_ratio and req.throughput_tokens_per_s and "input_output_ratio" in req.stated and \
                not req.tokens_per_day:
            # 'the 10k includes input, ~90% input: per million *output* tokens?': the rate is the output share, so the
            # figure above is per output token; per token processed it is (1 + ratio) times less
            k = 1 + req.input_output_ratio
            ctx.used.add("input_output_ratio")
            lines.append(ctx.t(f"That is per million **output** tokens (the {req.throughput_tokens_per_s:,.0f} tokens/s is the "
                               f"output share of your total, {req.input_output_ratio:g} input tokens to each output one); "
                               f"per million tokens processed, input included: {s}{per_m / k:,.3f}.",
                               f"以上是每百万**输出** token（{req.throughput_tokens_per_s:,.0f} token/秒 是总吞吐里输出的部分，每个输出 token "
                               f"对应 {req.input_output_ratio:g} 个输入 token）；连输入一起算，每百万 token {s}{per_m / k:,.3f}。"))
        at_volume = bool(req.tokens_per_day and req.reference_per_million and req.reference_input_per_million
                         and req.input_output_ratio)
        if ref and not at_volume:  # 'the API charges ¥16 per 1M tokens: which is cheaper?'
            lines += _against_api(ctx, per_m, ref, s)
        if ref and re.search(BREAK_EVEN_VOLUME, ctx.question.lower()):
            lines += _break_even_volume(ctx, s, hourly, mtok, unit_en, unit_zh)
        if req.api_spend_per_month and not req.tokens_per_day:
            # 'we pay OpenAI $9k a month: would self-hosting be cheaper?': one set's month against the bill, and the
            # volume it carries; the verdict needs the user's own volume
            ctx.used.add("api_spend_per_month")
            month = hourly * MONTH_H
            cap_m = mtok * MONTH_H
            lines.insert(0, ctx.t(
                f"**It depends on your volume: how many tokens a month does the ${req.api_spend_per_month:,.0f} buy?** One "
                f"{who} set rented all month costs {s}{month:,.0f} and can make up to about {cap_m:,.0f}M tokens at full "
                f"load; if your traffic fits in it, self-hosting costs {s}{month:,.0f} against your "
                f"{s}{req.api_spend_per_month:,.0f}" + (" (cheaper)" if month < req.api_spend_per_month else " (not cheaper)")
                + "; more traffic needs more sets.",
                f"**取决于你的用量：这 {s}{req.api_spend_per_month:,.0f} 每月对应多少 token？** 一套 {who} 整月租用 {s}{month:,.0f}，"
                f"满载最多约 {cap_m:,.0f}M token；如果你的量放得进一套，自建每月 {s}{month:,.0f}，对比你现在的 "
                f"{s}{req.api_spend_per_month:,.0f}" + ("（更便宜）" if month < req.api_spend_per_month else "（并不更便宜）")
                + "；量更大就要更多套。"))
            clar = Clarification(missing=["tokens_per_day"], question=ctx.t("How many tokens a month (input and output)?",
                                                                           "每月多少 token（输入、输出各多少）？"),
                                 suggestions=[ctx.t(x, y) for x, y in (("500M tokens a month", "每月 5 亿 token"),
                                                                     ("2B tokens a month", "每月 20 亿 token"))])
            ctx.clarify = clar  # (answered, with the volume asked: a reply completes it)
    else:
        per_m = hourly = None
    day = cap.tokens_per_day_per_unit
    lines.append(ctx.t(f"Per day at that rate: {tps:,.0f} × 86,400 s = **{day / 1e6:,.1f}M tokens** per {unit_en}"
                       + (f", {day * cap_args['units'] / 1e6:,.1f}M for all {cap_args['units']}" if (cap_args["units"] or 1) > 1 else "")
                       + ".",
                       f"按这个速度每天：{tps:,.0f} × 86400 秒 = 每{unit_zh} **{day / 1e6:,.1f}M token**"
                       + (f"，{cap_args['units']} {unit_zh}合计 {day * cap_args['units'] / 1e6:,.1f}M" if (cap_args["units"] or 1) > 1 else "")
                       + "。"))
    if req.tokens_per_day:
        pf = req.peak_factor or 1.0
        need = cap.units_needed
        util = (ctx.t(f", and the average at most {req.utilization:.0%} of capacity", f"，且平均负载不超过容量的 {req.utilization:.0%}")
                if req.utilization else "")
        vol = out_day or req.tokens_per_day
        word_en = " output" if vol != req.tokens_per_day or req.volume_is_output else ""
        word_zh = "输出 " if vol != req.tokens_per_day or req.volume_is_output else ""
        load = ctx.t(f"Your volume: {vol / 1e6:,.1f}M{word_en} tokens a day = {cap.average_tokens_per_s:,.0f} tokens/s on "
                     f"average" + (f", {cap.peak_tokens_per_s:,.0f} at the {pf:g}× peak" if pf > 1 else ""),
                     f"你的量：每天 {vol / 1e6:,.1f}M {word_zh}token = 平均 {cap.average_tokens_per_s:,.0f} token/秒"
                     + (f"，峰值（{pf:g} 倍）{cap.peak_tokens_per_s:,.0f} token/秒" if pf > 1 else ""))
        if req.load_rate_stated and pf == 1:  # 'peak will be 40k tok/s': the rate stated is the load, no volume a day
            load = ctx.t(f"Your load: {cap.average_tokens_per_s:,.0f}{word_en} tokens/s to carry (the rate you gave)",
                         f"你的负载：要扛住 {cap.average_tokens_per_s:,.0f} {word_zh}token/秒（你给的速率）")
        used = cap.peak_tokens_per_s / (need * tps) if need and tps else None
        gpus_en = f" = {need * unit_gpus} GPUs" if unit_gpus > 1 and need else ""  # (a set's count said in GPUs too)
        gpus_zh = f" = {need * unit_gpus} 张卡" if unit_gpus > 1 and need else ""
        verdict = ctx.t(f"**{need} {unit_en}{'s' if need > 1 else ''}{gpus_en} needed** to carry "
                        f"{'the peak' if pf > 1 else 'it'}{util} at {tps:,.0f} tokens/s each"
                        + (f" ({'the peak' if pf > 1 else 'it'} uses {used:.0%} of them)" if used else ""),
                        f"**需要 {need} {unit_zh}{gpus_zh}**（每{unit_zh} {tps:,.0f} token/秒，扛住{'峰值' if pf > 1 else '这个量'}{util}"
                        + (f"；{'峰值' if pf > 1 else '这个量'}用掉其中 {used:.0%}" if used else "") + "）")
        if used and used > HEADROOM_USE and not req.utilization:
            # a fleet run at 99% of its measured rate has no room for a burst, a slow node or a failed GPU
            room = -(-cap.peak_tokens_per_s // (HEADROOM_USE * tps))
            verdict += ctx.t(f"; with {1 - HEADROOM_USE:.0%} headroom (bursts, a GPU down, longer prompts than measured), "
                             f"**{room:.0f}**" + (f" ({room * unit_gpus:.0f} GPUs)" if unit_gpus > 1 else ""),
                             f"；留 {1 - HEADROOM_USE:.0%} 余量（突发、坏卡、比实测更长的输入）要 **{room:.0f}** {unit_zh}"
                             + (f"（{room * unit_gpus:.0f} 张卡）" if unit_gpus > 1 else ""))
        if req.load_rate_stated:
            ctx.used.add("load_rate_stated")
        peak_said = re.search(r"峰值|高峰|最忙|" + w(r"peak|busiest|at peak"), ctx.question.lower())
        if pf == 1 and not req.utilization and tps and not req.load_rate_stated and not peak_said:
            # a day's volume is not flat: people use a service in working hours; a peak of twice the average (an
            # assumption, said; give yours as 'peak 3x') sizes the fleet for the busy hours
            peak2 = -(-2 * cap.average_tokens_per_s // (HEADROOM_USE * tps))
            if peak2 > need:
                verdict += ctx.t(f"; traffic is rarely flat: at a peak of twice the average (working-hours use; give "
                                 f"yours, e.g. 'peak 3x') and that headroom, **{peak2:.0f}**",
                                 f"；流量很少是平的：按峰值为平均的 2 倍（集中在工作时间；可给出你的，如“峰值 3 倍”）并留同样余量，要 "
                                 f"**{peak2:.0f}** {unit_zh}")
        from assistant.readers.slots import COUNT_ASK

        count_asked = bool(re.search(COUNT_ASK, ctx.question.lower()))
        if count_asked:  # '要买几台？': the count is the answer, first
            lines.insert(0, load + ctx.t(". ", "。") + verdict + ctx.t(".", "。"))
        else:
            lines.append(load + ctx.t(". ", "。") + verdict + ctx.t(".", "。"))
        if cap.enough is not None and not count_asked:  # (a count asked: the unit described is not one owned)
            lines.append(ctx.t(f"**{'Enough' if cap.enough else 'Not enough'}**: your {cap_args['units']} {unit_en}"
                               f"{'s give' if cap_args['units'] > 1 else ' gives'} "
                               f"{cap.capacity_tokens_per_s:,.0f} tokens/s; the peak uses {cap.peak_utilization:.0%} of it.",
                               f"**{'够' if cap.enough else '不够'}**：你的 {cap_args['units']} {unit_zh}合计 {cap.capacity_tokens_per_s:,.0f} "
                               f"token/秒，峰值用掉其中 {cap.peak_utilization:.0%}。"))
        one = cap.peak_tokens_per_s / tps
        if need == 1 and one < 0.5:
            lines.append(ctx.t(f"One is enough (the peak uses {one:.0%} of it); a second is for redundancy, not capacity.",
                               f"1 {unit_zh}就够（峰值只用 {one:.0%}）；再加一{unit_zh[-1] if per_gpu else '套'}是为了冗余，不是容量。"))
        if cap.cost_per_month is not None:
            units_costed = cap.units_costed
            ratio = req.input_output_ratio
            blended = bool(ratio and (word_en or req.volume_is_output))  # (an output volume: the input beside it counted)
            if blended:
                ctx.used.add("input_output_ratio")
            lines.append(ctx.t(f"Cost: {units_costed} × {s}{rate * unit_gpus:,.2f}/h × {MONTH_H} h = **{s}{cap.cost_per_month:,.0f} a "
                               f"month**; {s}{cap.cost_per_million_at_volume:,.3f} per million{word_en} tokens at your volume"
                               + (f", **{s}{cap.cost_per_million_at_volume / (1 + ratio):,.3f} per million tokens** counting the "
                                  f"input too ({ratio:g} input tokens per output token)" if blended else "") + ".",
                               f"成本：{units_costed} × {s}{rate * unit_gpus:,.2f}/小时 × {MONTH_H} 小时 = **每月 {s}{cap.cost_per_month:,.0f}**；"
                               f"按你的量折合每百万{word_zh.strip() and ' ' + word_zh.strip() + ' '}token {s}{cap.cost_per_million_at_volume:,.3f}"
                               + (f"，连输入一起算**每百万 token {s}{cap.cost_per_million_at_volume / (1 + ratio):,.3f}**（每个输出 token "
                                  f"对应 {ratio:g} 个输入 token）" if blended else "") + "。"))
        if cap.saving_per_month is not None and cap.current_per_million is not None:
            # 'we spend $12k/month on the API: would self-hosting be cheaper?': the same volume's month, both ways
            api_m, own_m = req.api_spend_per_month, cap.cost_per_month
            ctx.used.add("api_spend_per_month")
            gap, implied = abs(cap.saving_per_month), cap.current_per_million
            lines.insert(0, ctx.t(
                f"**{'Self-hosting is cheaper' if own_m < api_m else 'The API is cheaper'}, by about {s}{gap:,.0f} a month** "
                f"({gap / max(api_m, own_m):.0%}): your API bill {s}{api_m:,.0f} a month ({s}{implied:,.2f} per million "
                f"tokens at your volume) against {s}{own_m:,.0f} a month of rented GPUs carrying the same volume (staff time, "
                "redundancy and quality differences between the models not counted).",
                f"**{'自建更便宜' if own_m < api_m else 'API 更便宜'}，每月约省 {s}{gap:,.0f}**（{gap / max(api_m, own_m):.0%}）："
                f"你现在 API 每月 {s}{api_m:,.0f}（按你的量折合每百万 token {s}{implied:,.2f}），自建租卡承载同样的量每月 "
                f"{s}{own_m:,.0f}（未计人力、冗余和两个模型的效果差别）。"))
    vol_figures: dict = {}
    if rate and req.tokens_per_day and cap.cost_per_month is not None and at_volume:
        line, vol_figures = _api_at_volume(ctx, s, cap.units_costed * rate * unit_gpus * 24, cap.units_costed,
                                           cap.tokens_per_day_per_unit * cap.units_costed / 1e6)
        small = _right_sized(ctx, s, rate, unit_gpus, cap, vol_figures)
        lines.insert(0, line + (" " + small if small else ""))  # the verdict asked for, first
    if req.throughput_tokens_per_s:
        from assistant.readers.slots import OWN_MEASUREMENT, QUOTED_SOURCE

        quoted = bool(re.search(QUOTED_SOURCE, ctx.question.lower())) and not re.search(OWN_MEASUREMENT, ctx.question.lower())
        ctx.assume(f"{tps:,.0f} tokens/s is {'the quoted figure' if quoted else 'your measurement'}, per "
                   f"{'GPU (or instance)' if per_gpu else unit_en}; capacity is sized on it, not on an estimate",
                   f"{tps:,.0f} token/秒 是{'引用的数字' if quoted else '你的实测值'}（每{unit_zh}）；容量按它算，不用估算值")
    conc = req.measured_concurrency or req.concurrent_users or (req.batch if req.throughput_tokens_per_s else None)
    if req.throughput_tokens_per_s and req.batch and not (req.measured_concurrency or req.concurrent_users):
        ctx.used.add("batch")  # ('measured 2,500 tok/s at batch 64': the measurement's load, each stream's share said)
    measured_units = None
    if req.throughput_tokens_per_s and unit_gpus > 1 and req.tensor_parallel and \
            req.tensor_parallel * (req.pipeline_parallel or 1) == unit_gpus:
        ctx.used.add("tensor_parallel")  # ('两张 H100 做 TP=2 … 3600 tok/s'): the layout is what makes the 2-GPU set
    if req.throughput_tokens_per_s and (conc or 0) > 1:
        # 'measured 2,600 tok/s at 64 concurrent': what each of those streams sees
        each = tps / conc
        ctx.used |= {"concurrent_users", "measured_concurrency"}
        lines.append(ctx.t(f"Each user at the measured load: {tps:,.0f} / {conc} concurrent = **{each:,.1f} tokens/s**.",
                           f"实测负载下每个用户：{tps:,.0f} ÷ {conc} 并发 = **{each:,.1f} token/秒**。"))
        if conc <= 16 and (gpu.memory_gb or 0) >= 40 and each > 30:
            # ('我们实测单卡 8 并发时每路 60 tok/s'): a light load for a data-centre card; its cost per token is an upper bound
            lines.append(ctx.t(
                f"{conc} in flight is a light load for a {gpu.memory_gb:g} GB card: decode reads the weights once per step "
                "for the whole batch, so at 32-128 in flight the total (and the cost per token) usually improves several "
                "times, each user a little slower. Measure at higher concurrency before pricing on this figure.",
                f"{conc} 路并发对 {gpu.memory_gb:g} GB 的卡来说负载很轻：解码每一步读一遍权重、整批共享，并发到 32-128 路时总吞吐（每 token "
                "成本）通常能好好几倍，每路稍慢。按这个数定价前，先在更高并发下再测。"))
        if req.requests_per_s and req.output_len and each and not req.load_rate_stated:
            # the count again by Little's law: requests in flight = arrivals a second x seconds each request lasts
            first_s = req.ttft_s or 0.0
            lasts = first_s + req.output_len / each
            inflight = req.requests_per_s * lasts
            cards = math.ceil(inflight / conc)
            lines.append(ctx.t(
                f"Check by Little's law: {req.requests_per_s:g} requests/s × {lasts:,.1f} s each ({req.output_len:,} tokens "
                f"at {each:,.1f} tokens/s" + (f" + up to {first_s:g} s to the first token" if first_s else "") +
                f") = {inflight:,.0f} in flight; at the {conc} per {unit_en} you measured, " + (
                    f"{cards} GPUs." if unit_gpus == 1 else f"{cards} sets = {cards * unit_gpus} GPUs."),
                f"用 Little 定律核对：每秒 {req.requests_per_s:g} 个请求 × 每个持续 {lasts:,.1f} 秒（{req.output_len:,} token ÷ "
                f"{each:,.1f} token/秒" + (f" + 首 token 最多 {first_s:g} 秒" if first_s else "") +
                f"）= 同时在途 {inflight:,.0f} 个；" + (f"按你实测的每卡 {conc} 并发，{cards} 张卡。" if unit_gpus == 1 else
                                                   f"按你实测的每{unit_zh} {conc} 并发，{cards} 套 = {cards * unit_gpus} 张卡。")))
            if not req.ttft_s:  # the measurement carries its lengths and its latency: the count holds at those only
                lines.append(ctx.t(
                    f"This count holds at what you measured: {req.prompt_len or 'your'}-token prompts, {req.output_len:,}-token "
                    f"replies and {conc} in flight per {unit_en}, so each reply streams at ~{each:,.0f} tokens/s and takes "
                    f"~{lasts:,.0f} s. Longer prompts or a tighter latency target (fewer in flight per {unit_en}) need more "
                    "of them: re-measure at the target's concurrency; prefix caching or FP8 can raise what each carries.",
                    f"这个卡数只在你压测的条件下成立：输入 {req.prompt_len or '同样的'} token、输出 {req.output_len:,} token、每"
                    f"{unit_zh} {conc} 并发，每条回复约 {each:,.0f} token/秒、约 {lasts:,.0f} 秒出完。输入更长或延迟要求更紧（每"
                    f"{unit_zh}并发更少）都要更多卡：按目标并发重新压测；前缀缓存或 FP8 能提高每{unit_zh}的承载。"))
            if req.ttft_s:
                ctx.used.add("ttft_s")
                lines.append(ctx.t(
                    f"Your TTFT target ({req.ttft_s:g} s) holds only at or below the load you measured per GPU ({conc} in "
                    "flight): the count with headroom keeps each GPU under it. A P99 target needs the P99 measured at that "
                    "load (a test's TTFT is usually its mean; bursts queue prefills and push P99 well above it).",
                    f"首 token 目标（{req.ttft_s:g} 秒）只有每卡负载不超过你压测时的 {conc} 并发才守得住：留余量的卡数就是为此。P99 "
                    "目标要在这个负载下测 P99（压测报告的首 token 通常是均值；突发时预填充排队，P99 会明显高于均值）。"))
        users = req.concurrent_users
        if req.measured_concurrency and users and users > req.measured_concurrency:
            # '并发 16 时总吞吐 600 … 线上 200 并发要几张': the units that hold the load at the measured per-user speed
            k = math.ceil(users / req.measured_concurrency)
            more = re.search(r"加几|再加|再买|扩|(?<![a-z])(?:add|more|additional|extra)(?![a-z])", ctx.question.lower())
            sets_en = "" if per_gpu else (f" = {k * unit_gpus} GPUs" + (f": {k - 1} more like yours" if more and k > 1 else ""))
            sets_zh = "" if per_gpu else (f" = {k * unit_gpus} 张卡" + (f"，即在现有基础上再加 {k - 1} 套" if more and k > 1 else ""))
            lines.insert(0, ctx.t(
                f"**{k} × {gpu.name if per_gpu else unit_en}{sets_en}** for {users} concurrent users at the speed you measured: "
                f"{users} / {req.measured_concurrency} per {'GPU' if per_gpu else unit_en} = {users / req.measured_concurrency:,.1f}"
                f" → {k}, each user at ~{each:,.1f} tokens/s ({k * tps:,.0f} tokens/s in total). A card can run more "
                f"than {req.measured_concurrency} at once if its KV cache holds them, each a little slower: measure at "
                "a higher concurrency to need fewer.",
                (f"**{k} 张 {gpu.name}**" if per_gpu else f"**{k} {unit_zh}{sets_zh}**")
                + f"扛 {users} 并发，按你实测的单路速度："
                f"{users} ÷ 每{'卡' if per_gpu else unit_zh} {req.measured_concurrency} 并发 = {users / req.measured_concurrency:,.1f}"
                f" → {k}，每个用户约 {each:,.1f} token/秒（合计 {k * tps:,.0f} token/秒）。KV cache 放得下的话一张卡能同时跑"
                f"多于 {req.measured_concurrency} 路，每路会慢一些：在更高并发下再压测，可能用更少的卡。"))
            measured_units = k
    from assistant.readers.slots import single_stream_rate

    one = single_stream_rate(ctx.question.lower())
    if req.throughput_tokens_per_s and req.tokens_per_day and one and one < tps and cap.units_needed:
        # 'my colleague says divide the load by the batch-1 speed': that counts one stream per GPU
        wrong = math.ceil(cap.peak_tokens_per_s / one)
        lines.append(ctx.t(
            f"Not by the single-stream speed: {cap.peak_tokens_per_s:,.0f} / {one:,.0f} = {wrong:,} GPUs would give each "
            f"GPU one stream at a time; with continuous batching a GPU decodes many streams in each step (your "
            f"{tps:,.0f} tokens/s" + (f" at {conc} in flight" if conc and conc > 1 else "") + "), so the measured "
            f"aggregate is the figure to divide by: {cap.units_needed} GPUs, not {wrong:,}.",
            f"不能按单路速度算：{cap.peak_tokens_per_s:,.0f} ÷ {one:,.0f} = {wrong:,} 张，等于让每张卡一次只跑一路；连续批处理下"
            f"一张卡每步同时解码很多路（你实测 {tps:,.0f} token/秒" + (f"，{conc} 路并发" if conc and conc > 1 else "") +
            f"），应该除以实测的总吞吐：{cap.units_needed} 张，不是 {wrong:,} 张。"))
    if req.load_rate_stated and req.requests_per_s:
        ctx.used.add("requests_per_s")  # (the load's requests a second, worked out from the rate and the output length)
    figures: dict[str, Any] = {"throughput_tokens_per_s": tps, "currency": cur, "tokens_per_day_per_unit": round(day)}
    figures |= vol_figures
    if measured_units:
        figures["units_needed"] = measured_units
        ctx.used.add("concurrent_users")
    if per_m is not None:
        figures |= {"cost_per_million_tokens": round(per_m, 4), "cost_per_hour": round(hourly, 2)}
    if req.reference_per_million:
        figures["reference_per_million"] = req.reference_per_million
    for k in ("units_needed", "peak_tokens_per_s", "average_tokens_per_s", "cost_per_month", "peak_utilization"):
        v = getattr(cap, k)
        if v is not None:
            figures[k] = round(v, 4) if isinstance(v, float) else v
    if cap.enough is not None:
        figures["enough"] = int(cap.enough)
    return Answer(answer="\n\n".join(lines) + assumptions_md(ctx.lang, ctx.notes), lang=ctx.lang, intent="cost",
                  figures=figures, tool_calls=ctx.calls, verdict=Verdict(gpu=gpu.id, num_gpus=n),
                  clarification=ctx.clarify)


def _job_hours(ctx: Ctx) -> float:
    """Wall-clock hours: the stated period, else the training time of the stated job."""
    req = ctx.req
    if req.period_hours:
        return req.period_hours
    if req.deadline_hours and not req.tokens:
        ctx.notes.append(ctx.t(f"rented for the {req.deadline_hours:,.0f} h you have to finish in",
                               f"按你给的期限 {req.deadline_hours:,.0f} 小时租用"))
        return req.deadline_hours
    if not req.tokens and req.depreciation_years:  # '按 3 年折旧 … 每天 16 小时': the horizon the user prices over
        h = 8760.0 * req.depreciation_years * min(24.0, req.hours_per_day or 24) / 24
        ctx.used.add("depreciation_years")
        ctx.notes.append(ctx.t(f"costs over your {req.depreciation_years:g}-year write-off ({h:,.0f} working hours"
                               + (f" at {req.hours_per_day:g} h a day" if req.hours_per_day else "") + ")",
                               f"按你的 {req.depreciation_years:g} 年折旧期计算（{h:,.0f} 个工作小时"
                               + (f"，每天 {req.hours_per_day:g} 小时" if req.hours_per_day else "") + "）"))
        return h
    if not req.tokens and req.hours_per_day:  # '每天大概用 16 个小时': a month of those hours
        h = 730.0 * min(24.0, req.hours_per_day) / 24
        ctx.notes.append(ctx.t(f"costs shown for one month at {req.hours_per_day:g} h a day ({h:,.0f} h); the break-even does "
                               "not depend on it", f"按每天 {req.hours_per_day:g} 小时、一个月（{h:,.0f} 小时）列出费用；回本时间与此无关"))
        return h
    if not req.tokens:  # break-even only: a nominal month of use
        ctx.notes.append(ctx.t("costs shown for one month of use (730 h); the break-even does not depend on it",
                               "按使用一个月（730 小时）列出费用；回本时间与此无关"))
        return 730.0
    from assistant.plans.train import time_args, training_tokens
    from tools.train_time import TrainingTimeRequest, estimate_training_time

    model, gpu = ctx.model(), ctx.gpu()
    args = time_args(ctx, model, gpu, training_tokens(ctx))
    r = ctx.call("time_train", {k: (v.id if hasattr(v, "id") else v) for k, v in args.items()},
                 estimate_training_time(TrainingTimeRequest(**args)))
    ctx.notes.append(ctx.t(f"job length: {r.wall_hours:,.1f} h on {r.num_gpus} GPUs ({r.gpu_hours:,.0f} GPU-hours) from the "
                           "training-time estimate", f"任务时长：按训练时间估算 {r.num_gpus} 张卡 {r.wall_hours:,.1f} 小时"
                           f"（{r.gpu_hours:,.0f} 卡时）"))
    return r.wall_hours


def _monthly_gpus(req) -> int:
    """The GPUs a monthly rental covers: a server's (its stated count, else the standard 8), else those named."""
    from tools.cost import GPUS_PER_SERVER

    return (req.gpus_per_node or req.num_gpus or GPUS_PER_SERVER) if req.rent_per_month_server else (req.num_gpus or 1)


def monthly_lines(ctx: Ctx) -> tuple[list[str], dict]:
    """A monthly rental price: what it is per GPU-hour (over 730 h and the GPUs it covers), and beside an on-demand
    price, which is cheaper at the hours the user works (hours a day x 730/24 days, else all month)."""
    req = ctx.req
    if not req.rent_per_month:
        return [], {}
    s = _sym(req.currency or ("CNY" if ctx.zh else "USD"))
    gpus = _monthly_gpus(req)
    per_gpu_h = req.rent_per_month / HOURS_PER_MONTH / gpus
    figures = {"monthly_per_gpu_hour": round(per_gpu_h, 4)}
    lines = [ctx.t(f"**Monthly plan: {s}{req.rent_per_month:,.0f} / {HOURS_PER_MONTH:g} h / {gpus} GPUs = {s}{per_gpu_h:,.2f} per "
                   "GPU-hour**, if the GPUs work every hour of the month.",
                   f"**包月：{s}{req.rent_per_month:,.0f} ÷ {HOURS_PER_MONTH:g} 小时 ÷ {gpus} 张卡 = 每卡时 {s}{per_gpu_h:,.2f}**（按整月每小时都在用算）。")]
    od = req.price_per_gpu_hour if (req.price_per_gpu_hour and abs(req.price_per_gpu_hour - per_gpu_h) > 1e-6) else None
    if od:
        hours = (req.hours_per_day or 24) * HOURS_PER_MONTH / 24
        on_demand = od * gpus * hours
        figures |= {"on_demand_per_month": round(on_demand, 2), "monthly_cheaper": int(req.rent_per_month < on_demand)}
        cheaper = ctx.t("the monthly plan", "包月") if req.rent_per_month < on_demand else ctx.t("on demand", "按需")
        lines.append(ctx.t(f"On demand at your use: {s}{od:,.2f} × {gpus} GPUs × {hours:,.0f} h a month "
                           f"({req.hours_per_day or 24:g} h a day) = {s}{on_demand:,.0f}, against {s}{req.rent_per_month:,.0f}: "
                           f"**{cheaper} is cheaper**, by {s}{abs(req.rent_per_month - on_demand):,.0f} a month. The two cost the "
                           f"same at {req.rent_per_month / (od * gpus * HOURS_PER_MONTH / 24):,.1f} h a day.",
                           f"按需按你的用量：{s}{od:,.2f} × {gpus} 张 × 每月 {hours:,.0f} 小时（每天 {req.hours_per_day or 24:g} 小时）"
                           f"= {s}{on_demand:,.0f}，包月 {s}{req.rent_per_month:,.0f}：**{cheaper}更划算**，每月差 "
                           f"{s}{abs(req.rent_per_month - on_demand):,.0f}。每天用 {req.rent_per_month / (od * gpus * HOURS_PER_MONTH / 24):,.1f} "
                           "小时时两者持平。"))
    return lines, figures


# 'we have no server room (yet)': the owned machine needs a rack somewhere
NO_ROOM = (r"(?:还)?没(?:有)?(?:自己的)?(?:机房|机柜|idc)|无机房|(?<![a-z])(?:no|don'?t have an?|do not have an?|without an?)\s+"
           r"(?:own\s+)?(?:server[\s-]?room|data[\s-]?cent(?:er|re)|rack|machine room|dc)(?![a-z])")


def _owner_costs(ctx: Ctx, n: int) -> dict:
    """The owner's running costs as the user states them: colocation per month (per server, over its GPUs), a power
    draw, a PUE, a write-off period; each said, so no default replaces a stated figure."""
    from tools.cost import GPUS_PER_SERVER

    req = ctx.req
    out: dict = {}
    per_server = min(n, req.gpus_per_node or GPUS_PER_SERVER) or 1
    servers = max(1, -(-n // per_server))
    if req.hosting_per_month is not None:
        out["hosting_per_gpu_month"] = req.hosting_per_month * servers / n
        ctx.notes.append(ctx.t(f"hosting {req.hosting_per_month:,.0f} a month per server (yours) = {out['hosting_per_gpu_month']:,.0f} "
                               "per GPU-month" + ("; it includes power, so no electricity is added" if req.hosting_includes_power else ""),
                               f"托管每台每月 {req.hosting_per_month:,.0f}（你给的）= 每卡每月 {out['hosting_per_gpu_month']:,.0f}"
                               + ("；已含电费，不再另加电费" if req.hosting_includes_power else "")))
        if req.hosting_includes_power:
            out["electricity_price"] = 0.0
    elif (req.power_kw or req.electricity_per_kwh or req.gpu_power_w) and re.search(
            r"托管|机柜|(?<![a-z])(?:colo\w*|co-?locat\w*|data ?cent(?:er|re)|rack space)(?![a-z])", ctx.question.lower()) \
            and not re.search(r"(?:托管|机柜|colo\w*|co-?locat\w*)(?:[^.。;；\n]|\.(?=\d)){0,40}?(?:/|per\s*|每)\s*(?:kwh|度)|"
                              r"(?:kwh|度)[^.。;；\n]{0,20}?(?:all[\s-]?in|含托管)", ctx.question.lower()):
        # ('Colo charges $0.12/kWh', '€0.25/kWh all-in': the colocation is priced through the power price; no fee on top)
        # ("we'd colo it" with a power price: the colocation fee is a cost the user named, at the default until quoted)
        ctx.notes.append(ctx.t("colocation named but not priced: the default hosting fee per GPU-month is used (give your "
                               "quote, e.g. '$3k/month colo', to replace it)",
                               "提到托管但没给价格：按默认的每卡每月托管费计（写上报价，如“托管每月 ¥8,000”即可替换）"))
    elif (req.power_kw or req.electricity_per_kwh or req.gpu_power_w) and re.search(NO_ROOM, ctx.question.lower()):
        # ('电费 0.8 元/度，我们自己还没有机房'): the machine must go somewhere: a colocation fee, at the default until quoted
        ctx.notes.append(ctx.t("no server room of your own: a colocation fee is needed, the default per GPU-month is used "
                               "(give your quote to replace it)",
                               "你们还没有机房：要付托管（IDC）费，按默认的每卡每月托管费计（写上报价即可替换）"))
    elif req.power_kw or req.electricity_per_kwh or req.gpu_power_w:
        out["hosting_per_gpu_month"] = 0.0  # the user priced the running costs and named no hosting fee: none added
        ctx.notes.append(ctx.t("no hosting fee: you gave the power costs and none for rack space (add one, e.g. '$3k/month "
                               "colocation', to include it)", "不计托管费：你给了电费，没给机柜/托管费（例如写“托管每月 ¥8,000”即可计入）"))
    if req.power_kw:
        out["power_watts_per_gpu"] = req.power_kw * 1000 * servers / n
        ctx.notes.append(ctx.t(f"power {req.power_kw:g} kW per server (yours) = {out['power_watts_per_gpu']:,.0f} W per GPU, "
                               "instead of the cards' TDP", f"功耗每台 {req.power_kw:g} kW（你给的）= 每卡 {out['power_watts_per_gpu']:,.0f} W，"
                               "不用卡的 TDP"))
    elif req.gpu_power_w:  # '单卡连整机功耗按 550W 算', '400 W/GPU + 30% server overhead': the user's own power model
        over = req.server_overhead or 0.0
        out["power_watts_per_gpu"] = req.gpu_power_w * (1 + over)
        if req.pue is None:
            out["pue"] = 1.0  # (their figure is the draw they pay for; no cooling factor put on top unasked)
        ctx.used |= {"gpu_power_w", "server_overhead"}
        ctx.notes.append(ctx.t(f"power {req.gpu_power_w:g} W per GPU" + (f" + {over:.0%} for the server" if over else "")
                               + f" (yours) = {out['power_watts_per_gpu']:,.0f} W, instead of the card's TDP; no PUE added "
                               "on top (give one, e.g. 'PUE 1.3', for a cooled room)",
                               f"功耗每卡 {req.gpu_power_w:g} W" + (f"，整机另加 {over:.0%}" if over else "")
                               + f"（你给的）= {out['power_watts_per_gpu']:,.0f} W，不用卡的 TDP；不再另乘 PUE（机房制冷可写“PUE 1.3”）"))
    if (req.hosting_per_month is not None or req.depreciation_years) and not re.search(
            r"resale|resell|sell (?:it|them)|残值|转卖|卖掉|二手卖", ctx.question.lower()):
        out["resale_fraction"] = 0.0  # the user's own owning costs and no word of resale: none credited, said
        if not req.depreciation_years and req.period_hours:
            out["depreciation_years"] = max(req.period_hours / 8760, 0.1)  # written off over the time it is held
        ctx.notes.append(ctx.t("no resale value credited: you gave the owning costs and none for resale (selling the "
                               "hardware at the end would lower the cost to own)",
                               "不计残值：你给了持有成本，没提转卖（期末卖掉硬件会降低自购成本）"))
    if req.pue:
        out["pue"] = req.pue
    if req.depreciation_years:
        out["depreciation_years"] = req.depreciation_years
    if req.rent_per_month and not req.price_per_gpu_hour:
        gpus = _monthly_gpus(req)
        out["price_per_hour"] = req.rent_per_month / HOURS_PER_MONTH / gpus
        if not req.utilization:  # a monthly plan is paid whether the GPUs work or not: owned ones are compared likewise
            out["utilization"] = 1.0
            ctx.notes.append(ctx.t("utilization 100% on both sides: a monthly rental is paid for every hour, so owned GPUs "
                                   "are compared over the same hours", "两边都按 100% 利用率比：包月每个小时都付钱，自购的卡按同样的小时数比"))
        ctx.notes.append(ctx.t(f"renting at your monthly price: {req.rent_per_month:,.0f} / {HOURS_PER_MONTH:g} h / {gpus} GPUs = "
                               f"{out['price_per_hour']:,.2f} per GPU-hour", f"按你给的包月价：{req.rent_per_month:,.0f} ÷ "
                               f"{HOURS_PER_MONTH:g} 小时 ÷ {gpus} 张 = 每卡时 {out['price_per_hour']:,.2f}"))
    return out


def _per_used_hour(ctx: Ctx, r, s: str) -> list[str]:
    """Owning as a price per GPU-hour of work and the utilization at which it matches the rental price (the rent-and-
    buy tool's own figures), when asked or when the GPUs are held a year or more."""
    if r.owned_cost_per_gpu_hour is None or not r.rent_price_per_gpu_hour:
        return []
    asked = re.search(r"per (?:utili[sz]ed|used|working|effective|busy|productive) gpu[\s-]*h|utili[sz]ation.{0,60}break[\s-]*even|"
                      r"break[\s-]*even.{0,60}utili[sz]ation|每个?(?:有效|实际|干活的?)?卡时(?:的)?成本|利用率.{0,12}(?:回本|持平|打平)",
                      ctx.question.lower())
    if not asked and (r.period_hours or 0) < 8760:
        return []  # (a short job's capital over its few working hours says little; asked for, it is given)
    rent, u = r.rent_price_per_gpu_hour.typical, r.break_even_utilization
    if ctx.req.rent_committed and r.utilization:  # a reserved term: paid every hour, so per working hour it costs more
        per_work = rent / r.utilization
        better = "owning" if r.owned_cost_per_gpu_hour < per_work else "the reserved rental"
        return [ctx.t(f"Per working GPU-hour at {r.utilization:.0%} use: the reserved rental costs {s}{rent:,.2f} / "
                      f"{r.utilization:.0%} = **{s}{per_work:,.2f}** (every hour is paid), owning **{s}"
                      f"{r.owned_cost_per_gpu_hour:,.2f}**: {better} is cheaper per hour of work.",
                      f"按 {r.utilization:.0%} 的利用率折算到每个干活的卡时：包期租用 {s}{rent:,.2f} ÷ {r.utilization:.0%} = "
                      f"**{s}{per_work:,.2f}**（每小时都要付），自有 **{s}{r.owned_cost_per_gpu_hour:,.2f}**："
                      f"{'自有' if better == 'owning' else '包期租用'}更便宜。")]
    held = (r.period_hours or 0) / 730
    months, months_zh = (f"these {held:,.0f} months", f"这 {held:,.0f} 个月里") if held else ("its write-off years", "折旧年限内")
    owned = r.owned_cost_per_gpu_hour
    over_en, over_zh = "the write-off years", "折旧年限内"
    if held >= 12 and not ctx.req.depreciation_years and r.purchase_price_per_gpu and r.utilization:
        # 'rent vs buy over 3 years': the capital is spread over the user's own horizon, not the default write-off life
        from tools.cost import HOURS_PER_YEAR

        bd = r.buy_breakdown or {}
        if bd.get("hosting") is not None and bd.get("power") is not None and r.hours:
            years, uu = held / 12, r.utilization
            resale = ctx.req.resale_fraction or 0.0
            capital = r.purchase_price_per_gpu.typical * (1 - resale)  # per GPU, written off over the horizon
            host_m = bd["hosting"] / (r.num_gpus * max(1.0, (r.period_hours or r.hours) / HOURS_PER_MONTH))
            power_h = bd["power"] / (r.num_gpus * r.hours)
            owned = capital / (years * HOURS_PER_YEAR * uu) + host_m / (HOURS_PER_MONTH * uu) + power_h
            over_en, over_zh = f"your {years:,.3g}-year horizon", f"你说的 {years:,.3g} 年内"
            if not ctx.req.rent_committed:
                spread = rent - power_h
                raw = (capital / (years * HOURS_PER_YEAR) + host_m / HOURS_PER_MONTH) / spread if spread > 0 else None
                u = raw if raw is not None and raw <= 1 else None
    line = ctx.t(f"Owning costs **{s}{owned:,.2f} per working GPU-hour** (capital less resale over "
                 f"{over_en}, hosting and power, over the hours the GPUs work)",
                 f"自有每个干活的卡时成本 **{s}{owned:,.2f}**（{over_zh}的购价减残值、托管和电费，摊到干活的小时）")
    line += (ctx.t(f"; it matches renting at {s}{rent:,.2f} at **{u:.0%} utilization** (below that, rent).",
                   f"；利用率达到 **{u:.0%}** 时与 {s}{rent:,.2f}/卡时的租金持平（低于它就租）。") if u is not None else
             ctx.t(f"; over {months} even fully used it does not beat renting at {s}{rent:,.2f}.",
                   f"；{months_zh}即使满负荷也比不过 {s}{rent:,.2f}/卡时的租金。"))
    return [line]


def _break_even_hours_a_day(ctx: Ctx, r, s: str, base: dict, held: float | None) -> list[str]:
    """'盈亏平衡每天几小时？', 'how many hours a day to break even?' over a stated holding period: the card's purchase
    (and hosting) spread over the days held, against what each working hour saves over renting (the rent less its
    power), from the user's own figures; no resale unless one is given."""
    from tools.cost import DEFAULT_ELECTRICITY_PER_KWH, DEFAULT_PUE

    if not (held and r.purchase_price_per_gpu and r.rent_price_per_gpu_hour) or not re.search(
            r"每天(?:要|得|需要)?(?:跑|用|干活)?\s*几(?:个)?小时|每天多少小时|几小时.{0,6}(?:回本|持平|划算|平衡)|(?<![a-z])(?:hours? (?:a|per) day|"
            r"hours? each day|h/day)(?![a-z])", ctx.question.lower()):
        return []
    cur = base.get("currency") or "USD"
    watts = base.get("power_watts_per_gpu") or base["gpu"].tdp_w or 0
    pue = base.get("pue") or DEFAULT_PUE
    kwh = base.get("electricity_price")
    kwh = DEFAULT_ELECTRICITY_PER_KWH.get(cur, 0.12) if kwh is None else kwh
    power_hour = watts / 1000 * pue * kwh
    rent = r.rent_price_per_gpu_hour.typical
    days = held / 24
    hosting = (base.get("hosting_per_gpu_month") or 0) * held / 730
    resale = (base.get("resale_fraction") or 0) * r.purchase_price_per_gpu.typical
    fixed = r.purchase_price_per_gpu.typical + hosting - resale
    saving = rent - power_hour
    if saving <= 0:
        return [ctx.t(f"No number of hours a day pays for the card: each hour's power ({s}{power_hour:,.2f}) costs as much "
                      f"as renting ({s}{rent:,.2f}).", f"每天跑多少小时都回不了本：每小时电费（{s}{power_hour:,.2f}）就和租金"
                      f"（{s}{rent:,.2f}）一样多。")]
    h = fixed / days / saving
    over = h > 24
    return [ctx.t(f"**Break-even: about {h:,.1f} hours a day** over the {days / 365:,.1f} years: {s}{fixed:,.0f} per card"
                  + (f" (hosting included{', resale taken off' if resale else ''})" if hosting or resale else "")
                  + f" / {days:,.0f} days / ({s}{rent:,.2f} rent − {s}{power_hour:,.2f} power per hour)"
                  + (": more than a day has, so renting wins at any use." if over else
                     "; below that renting is cheaper, above it buying."),
                  f"**盈亏平衡：每天约 {h:,.1f} 小时**（{days / 365:,.1f} 年内）：每卡 {s}{fixed:,.0f}"
                  + ("（含托管" + ("，减去残值" if resale else "") + "）" if hosting or resale else "")
                  + f" ÷ {days:,.0f} 天 ÷（租金 {s}{rent:,.2f} − 每小时电费 {s}{power_hour:,.2f}）"
                  + ("：超过一天的小时数，怎么用都是租划算。" if over else "；每天用得比这少就租，比这多就买。"))]


def monthly(ctx: Ctx) -> Answer:
    """A monthly rental price asked about: per GPU-hour, and against an on-demand price at the user's hours."""
    lines, figures = monthly_lines(ctx)
    figures["currency"] = ctx.req.currency or ("CNY" if ctx.zh else "USD")
    return Answer(answer="\n\n".join(lines) + assumptions_md(ctx.lang, ctx.notes), lang=ctx.lang, intent="cost",
                  figures=figures, tool_calls=ctx.calls)


_FROM_AN_API = re.compile(r"(?<![a-z])api(?![a-z])|(?:openai|anthropic|gpt-4\w*|claude|deepseek)\s*(?:的)?\s*(?:api|接口|账单|bill)|接口调用|调用量")


def cost(ctx: Ctx) -> Answer:
    """Rent against buy (the job's cost, the break-even); a payback asked against an API the user leaves unpriced turns
    on that bill, so it is asked, with the payback against renting meanwhile."""
    answer = _rent_or_buy(ctx)
    req = ctx.req
    if req.break_even and _FROM_AN_API.search(ctx.question.lower()) and answer.status == "answered" and not (
            req.api_spend_per_month or req.reference_per_million or req.reference_input_per_million):
        from assistant.request import Clarification

        q = ctx.t("**What does the API cost you now** (a month, or its price per million tokens and your volume)? The "
                  "payback of a machine bought to replace an API is its price over the API bill it saves; meanwhile, "
                  "against renting the same GPUs:",
                  "**现在 API 每月花多少**（或每百万 token 单价和你的用量）？买机器替代 API 的回本时间 = 机器价格 ÷ 每月省下的 API "
                  "费用；在这之前，先按租同样的卡比较：")
        clar = Clarification(missing=["api_spend_per_month"], question=q.split("**")[1],
                             suggestions=[ctx.t("we spend $20k a month on the API", "API 每月花 10 万"),
                                          ctx.t("$2 per 1M tokens, 3B tokens a month", "每百万 token ¥8，每天 3 亿 token")])
        answer = answer.model_copy(update={"answer": q + "\n\n" + answer.answer, "clarification": clar})
    return answer


def _rent_or_buy(ctx: Ctx) -> Answer:
    from tools.cost import GPUS_PER_SERVER, CostRequest, estimate_rent_and_buy

    req, lang = ctx.req, ctx.lang
    cur = _currency(ctx)
    gpu = ctx.gpu()
    n = req.num_gpus or 1
    if not req.num_gpus and req.tokens and req.model and not req.period_hours:
        from assistant.plans.train import gpus_that_hold

        n = gpus_that_hold(ctx, ctx.model(), gpu)  # a training job's cost on the GPUs that can run it
        req = ctx.req
    elif not req.num_gpus:
        ctx.assume_one_gpu()
    hours = _job_hours(ctx)
    if req.depreciation_years and not req.period_hours and not req.tokens and req.hours_per_day and req.hours_per_day < 24:
        req = ctx.req = req.model_copy(update={"period_hours": hours})  # (the working hours of the write-off period:
        # the cards are held for its calendar years, below)
    util = req.utilization
    if util is not None and not req.period_hours and not req.tokens and not req.hours_per_day and not req.deadline_hours:
        hours = 730.0 * util  # 'we'd only pay for the hours we use, ~70%': a month of rented working hours
    if util is not None and req.period_hours and not req.hours_per_day:
        hours = req.period_hours * util  # 'a year at 60% utilization': rented only for the hours used
        ctx.notes.append(ctx.t(f"{req.period_hours:,.0f} h x {util:.0%} utilization = {hours:,.0f} working hours per GPU; "
                               + ("a reserved term pays every hour of the period, owning too" if req.rent_committed else
                                  "renting on demand pays for those, owning for the whole period"),
                               f"{req.period_hours:,.0f} 小时 × 利用率 {util:.0%} = 每卡 {hours:,.0f} 工作小时；"
                               + ("包期租用按整个周期付费，自购也按整个周期" if req.rent_committed else "按需租用只付这些小时，自购按整个周期分摊")))
    if util is None and req.hours_per_day:
        util = min(1.0, req.hours_per_day / 24)
        ctx.notes.append(ctx.t(f"utilization {util:.0%} of owned GPUs = {req.hours_per_day:g} h a day / 24",
                               f"自有 GPU 利用率 {util:.0%} = 每天 {req.hours_per_day:g} 小时 / 24"))
    purchase = req.purchase_price
    if purchase is None and req.purchase_price_per_server:
        # ('an 8x H100 node $280k': its 8; 'a 4x 4090 rig for $12k': the rig's 4, not a standard server's 8)
        per = req.gpus_per_node or (req.num_gpus if req.num_gpus and req.num_gpus < GPUS_PER_SERVER and not req.nodes
                                    else GPUS_PER_SERVER)
        purchase = req.purchase_price_per_server / per
        ctx.notes.append(ctx.t(f"your server price / {per} GPUs = {purchase:,.0f} {cur} per GPU",
                               f"整机价 / {per} 张卡 = 每卡 {purchase:,.0f} {cur}"))
    held = req.period_hours if (req.period_hours and req.period_hours > hours) else None
    if req.hours_per_day and req.period_hours and req.hours_per_day < 24:
        # '用 2 年，每天跑 14 小时': the cards are owned for the calendar period (2 years), working 14 h of each day
        held = req.period_hours * 24 / req.hours_per_day
    base = {"gpu": gpu, "num_gpus": n, "hours": hours, "period_hours": held, "currency": cur, "prices": ctx.deps.prices(),
            "price_per_hour": req.price_per_gpu_hour or provider_rate(ctx, gpu.id, cur), "purchase_price_per_gpu": purchase, "used": bool(req.used),
            "utilization": util, "electricity_price": req.electricity_per_kwh}
    base |= _owner_costs(ctx, n)
    if req.rent_committed and req.period_hours:  # a reserved term: paid for every hour of the period, worked or not
        base["rent_committed"] = True
        ctx.used.add("rent_committed")
    resale_default = None
    if req.resale_fraction is not None:  # the user's own resale ('zero resale value', '残值 30%')
        base["resale_fraction"] = req.resale_fraction
        ctx.used.add("resale_fraction")
        ctx.notes.append(ctx.t(f"resale {req.resale_fraction:.0%} of the purchase price at the end (yours)",
                               f"期末残值按购价的 {req.resale_fraction:.0%}（你给的）"))
    elif "resale_fraction" not in base:  # not said: owning is costed in cash, and what a resale would change is shown
        resale_default = dict(base)
        base["resale_fraction"] = 0.0
        ctx.notes.append(ctx.t("no resale credited (used-GPU prices move fast; say e.g. 'resale 30%' to credit one); the "
                               "line 'If you resell' shows the default resale curve's effect",
                               "不计残值（二手卡价格波动大；可写“残值 30%”计入）；“如果转卖”一行给出按默认残值曲线的结果"))
    r = estimate_rent_and_buy(CostRequest(**base))
    resold = estimate_rent_and_buy(CostRequest(**resale_default)) if resale_default and r.buy_cost else None
    figures_resold: dict = {}
    ctx.call("cost", {k: (v.id if hasattr(v, "id") else v) for k, v in base.items() if k != "prices"}, r)
    s = _sym(cur)
    lines = []
    timed = next((c for c in reversed(ctx.calls) if c.name == "time_train"), None)
    trained: dict = {}
    if timed is not None and not req.period_hours:  # a training job's cost: its length and compute first, as asked beside it
        from assistant.plans.train import compute_line

        t = timed.result
        lines.append(ctx.t(f"**Training: {t['wall_hours']:,.1f} h ({t['wall_hours'] / 24:,.1f} days)** on {t['num_gpus']} GPUs at MFU "
                           f"{t['mfu']:.0%}, {t['gpu_hours']:,.0f} GPU-hours.",
                           f"**训练：{t['wall_hours']:,.1f} 小时（{t['wall_hours'] / 24:,.1f} 天）**，{t['num_gpus']} 张卡，MFU {t['mfu']:.0%}，"
                           f"共 {t['gpu_hours']:,.0f} 卡时。"))
        lines.append(compute_line(ctx, ctx.model(), timed.args.get("tokens") or req.tokens,
                                   t["total_flops"], t["method"], trained))
    if r.rent_cost:
        rent_h = r.gpu_hours / n
        lines.append(ctx.t(f"**Rent: {s}{r.rent_cost.typical:,.0f}** ({s}{r.rent_cost.low:,.0f}–{s}{r.rent_cost.high:,.0f}) for "
                           f"{n} GPUs × {rent_h:,.0f} h" + (" (a reserved term: every hour paid)" if base.get("rent_committed") else "")
                           + f" = {r.gpu_hours:,.0f} GPU-hours at {s}{r.rent_price_per_gpu_hour.typical:,.2f}"
                           "/GPU-h" + (" (your price)" if req.price_per_gpu_hour else " (your monthly price)" if req.rent_per_month
                                       else " (price table)") + ".",
                           f"**租用：{s}{r.rent_cost.typical:,.0f}**（{s}{r.rent_cost.low:,.0f}–{s}{r.rent_cost.high:,.0f}），"
                           f"{n} 张卡 × {rent_h:,.0f} 小时" + ("（包期：每小时都付）" if base.get("rent_committed") else "")
                           + f" = {r.gpu_hours:,.0f} 卡时，每卡时 {s}{r.rent_price_per_gpu_hour.typical:,.2f}"
                           + ("（你给的价格）" if req.price_per_gpu_hour else "（你给的包月价）" if req.rent_per_month
                              else "（价格表）") + "。"))
    if r.buy_cost:
        no_resale = base.get("resale_fraction") == 0.0
        lines.append(ctx.t(f"**Own: {s}{r.buy_cost.typical:,.0f}** for the same work ("
                           + ("buy, no resale, hosting, power" if no_resale else "buy, sell at the end, hosting, power") + "), "
                           f"buying at {s}{r.purchase_price_per_gpu.typical:,.0f} per GPU.",
                           f"**自购：{s}{r.buy_cost.typical:,.0f}**（" + ("买下、不计残值" if no_resale else "买下、用完按期末残值卖出")
                           + "，加托管、电费），"
                           f"每卡购价 {s}{r.purchase_price_per_gpu.typical:,.0f}。"))
        if resold is not None and resold.buy_cost and resold.buy_cost.typical < r.buy_cost.typical:
            back = r.buy_cost.typical - resold.buy_cost.typical
            flips = resold.cheaper != r.cheaper and resold.cheaper is not None
            lines.append(ctx.t(f"If you resell the cards at the end (the default curve: 70% back soon after purchase, "
                               f"20% after 4 years), owning costs {s}{resold.buy_cost.typical:,.0f} ({s}{back:,.0f} back)"
                               + (f", and **{resold.cheaper}** would be cheaper." if flips else "; the verdict stands."),
                               f"如果期末把卡转卖（默认残值曲线：刚买不久约七成，4 年后两成），自购成本 {s}{resold.buy_cost.typical:,.0f}"
                               f"（收回 {s}{back:,.0f}）" + (f"，那样**{'租' if resold.cheaper == 'rent' else '买'}**更省。"
                                                            if flips else "；结论不变。")))
            figures_resold = {"buy_cost_if_resold": resold.buy_cost.typical}
    if r.buy_breakdown and r.buy_breakdown.get("power") is not None and gpu.tdp_w:
        from tools.cost import DEFAULT_PUE

        from tools.power import wall_watts_per_gpu

        stated_w = base.get("power_watts_per_gpu")
        watts = stated_w or wall_watts_per_gpu(gpu, n)  # (the same share of the machine the cost tool charges)
        pue = base.get("pue") or DEFAULT_PUE
        kw = n * watts / 1000
        lines.append(ctx.t(f"Power: {n} × {watts:,.0f} W = {kw:,.1f} kW" + (" (your figures)" if stated_w else
                                                                            f" at the wall (each GPU's {gpu.tdp_w:g} W TDP "
                                                                            "and its share of the machine)")
                           + f", {kw * pue:,.1f} kW with cooling (PUE {pue:g}); electricity for "
                           f"{hours:,.0f} h: {s}{r.buy_breakdown['power']:,.0f}"
                           + (" (in your hosting fee)" if req.hosting_includes_power else "") + ".",
                           f"功耗：{n} × {watts:,.0f} W = {kw:,.1f} kW" + ("（你给的）" if stated_w else
                                                                        f"（整机插座处：每卡 TDP {gpu.tdp_w:g} W 加它分摊的服务器功耗）")
                           + f"，含制冷约 {kw * pue:,.1f} kW（PUE {pue:g}）；{hours:,.0f} 小时电费 {s}{r.buy_breakdown['power']:,.0f}"
                           + ("（已含在托管费里）" if req.hosting_includes_power else "") + "。"))
    if r.cheaper:
        held_m = (r.period_hours or hours) / HOURS_PER_MONTH
        u = r.utilization or 1
        wins = r.buy_wins_after_months
        credited = base.get("resale_fraction") != 0.0
        rs_en, rs_zh = (("resale at the end credited", "计入期末转售") if credited else ("no resale credited", "不计残值"))
        cash = ""
        if r.break_even_months:
            used_h = r.break_even_months * HOURS_PER_MONTH * u
            cash = ctx.t(f" In cash, a GPU pays for itself after about {used_h:,.0f} hours of use "
                         f"({r.break_even_months:.1f} months at {u:.0%}; resale not counted).",
                         f"按现金算，一张卡用约 {used_h:,.0f} 小时回本（利用率 {u:.0%} 时 {r.break_even_months:.1f} 个月；不计转售）。")
        nominal = not (req.period_hours or req.tokens or req.deadline_hours)  # no job: the break-even is the answer
        if wins is None:
            be = ctx.t(" Buying does not beat renting at these prices, however long the GPUs are kept.",
                       "按这些价格，无论持有多久，买都不比租划算。")
        elif nominal:
            be = ctx.t(f" Buying wins for GPUs held longer than **{wins:.1f} months** working {u:.0%} of the time "
                       f"({rs_en}).",
                       f"持有超过 **{wins:.1f} 个月**、且 {u:.0%} 的时间在干活（{rs_zh}），买更划算。")
            if wins > 24:  # a verdict, not just a number: hardware three or four years out is a bet
                be += ctx.t(f" That is {wins / 12:.1f} years away: **rent**, unless you are sure to keep the GPUs this busy that "
                            "long (new generations and falling rental prices shorten it in practice).",
                            f"那是 {wins / 12:.1f} 年以后：**建议租**，除非确定能这么满负荷用这么久（新一代卡和租价下降在实际中会缩短它）。")
            elif wins < 12:
                be += ctx.t(" Under a year: **buy**, if the GPUs will stay this busy.", "不到一年：只要能保持这个利用率，**建议买**。")
        elif r.cheaper == "rent":
            be = ctx.t(f" Buying would win only for GPUs held longer than **{wins:.1f} months** and working {u:.0%} of "
                       f"the time ({rs_en}); this is {held_m:,.1f} month(s).",
                       f"只有持有超过 **{wins:.1f} 个月**、且 {u:.0%} 的时间在干活（{rs_zh}），买才更划算；这次是 "
                       f"{held_m:,.1f} 个月。")
        else:
            be = ctx.t(f" Buying wins past {wins:.1f} months of holding at {u:.0%} use ({rs_en}); this is "
                       f"{held_m:,.1f} months.", f"持有超过 {wins:.1f} 个月（利用率 {u:.0%}，{rs_zh}）买就更划算；这次是 "
                       f"{held_m:,.1f} 个月。")
        gap = abs(r.rent_cost.typical - r.buy_cost.typical) if (r.rent_cost and r.buy_cost) else None
        verdict = ctx.t(f"Cheaper for this: **{r.cheaper}**" + (f", by {s}{gap:,.0f}" if gap else "") + ".",
                        f"这种用法更省钱的是：**{'租' if r.cheaper == 'rent' else '买'}**" + (f"，省 {s}{gap:,.0f}" if gap else "") + "。")
        lines.append((be + cash).strip() if nominal else verdict + be + cash)
        if r.cheaper == "buy" and (held or ctx.req.period_hours or 0) >= 365 * 24:
            # ('租还是买：按 3 年算怎么回本？'): the arithmetic holds only if the demand and the cards do
            lines.append(ctx.t(
                "Before buying on it: the payback assumes the cards stay busy for the whole horizon. Against it: "
                "staff time to run them, failures (spares, a 1-3% yearly GPU failure rate at scale), newer cards "
                "that cut the cost per token within 1-2 years, and supply or export rules; renting keeps the exit "
                "open. If the demand for the full period is not certain, rent (or take a shorter commitment) first "
                "and buy once the load is proven.",
                "按这个结论买之前：回本的前提是整个周期卡都一直忙。不利因素：运维人力、故障（备件；大规模下每年 1-3% 的卡会坏）、"
                "1-2 年内新一代卡会把每 token 成本打下来、供货和出口管制；租则随时可以退出。如果整个周期的需求并不确定，"
                "先租（或签更短的合约），负载稳定了再买。"))
        per_day = _break_even_hours_a_day(ctx, r, s, base, held or ctx.req.period_hours)
        lines += per_day or _per_used_hour(ctx, r, s)  # (the hours a day over the period held answer the break-even
        # asked; a utilization over the default write-off years beside it would be a second, different break-even)
    figures: dict[str, Any] = {"gpu_hours": r.gpu_hours, "hours": hours, "currency": cur, "cheaper": r.cheaper,
                               "break_even_months": r.break_even_months, "buy_wins_after_months": r.buy_wins_after_months}
    figures |= trained | figures_resold
    if r.rent_cost:
        figures |= {"rent_cost": r.rent_cost.typical, "rent_price_per_gpu_hour": r.rent_price_per_gpu_hour.typical}
    if r.buy_cost:
        figures |= {"buy_cost": r.buy_cost.typical, "purchase_price_per_gpu": r.purchase_price_per_gpu.typical}
    if req.budget and r.rent_cost:
        ok = req.budget >= r.rent_cost.typical
        slow = None
        if timed is not None and timed.result.get("wall_hours_range"):  # the run at the slow end of the MFU band
            lo_h, hi_h = timed.result["wall_hours_range"]
            slow = r.rent_cost.typical * hi_h / timed.result["wall_hours"]
        line = ctx.t(f"Budget {s}{req.budget:,.0f}: {'enough' if ok else 'not enough'} to rent"
                     + (f" at the estimate; at the slow end of the efficiency band {s}{slow:,.0f}, "
                        f"{'still within it' if slow <= req.budget else 'over it'}" if slow else "") + ".",
                     f"预算 {s}{req.budget:,.0f}：按估算租用{'够' if ok else '不够'}"
                     + (f"；按效率区间的慢端要 {s}{slow:,.0f}，{'仍在预算内' if slow <= req.budget else '超预算'}" if slow else "") + "。")
        if req.method == "pretrain":  # what a training run's price leaves out, said beside a budget
            line += ctx.t(" This is the final run's compute only: ablations and failed runs (often several times the "
                          "final run), data, evaluation and staff are not in it (DeepSeek's $5.6M figure excludes them "
                          "too), and the MFU assumed needs a mature large-scale training stack.",
                          "这只是最终一次训练的算力：消融实验和失败重跑（常是最终一次的好几倍）、数据、评测和人力都不在里面"
                          "（DeepSeek 的 557.6 万美元也不含这些），而且假设的 MFU 需要成熟的大规模训练工程。")
        lines.append(line)
    if not (req.period_hours or req.tokens or req.deadline_hours or req.utilization or req.hours_per_day) and \
            r.buy_wins_after_months:
        # 'rent or buy 8x H100?' with no period and no use: the verdict hinges on them; the break-even is given and they
        # are asked for
        ctx.clarify = Clarification(missing=["period_hours", "utilization"], question=ctx.t(
            "How long will you use them, and how busy (hours a day)?", "打算用多久、每天用多少小时？"),
            suggestions=ctx.t("for 6 months, 24/7|for 3 years at 50% utilization|for 1 month, 8 hours a day",
                              "用 6 个月，24 小时满载|用 3 年，利用率 50%|用 1 个月，每天 8 小时").split("|"))
        ladder = []
        for u in (1.0, 0.7, 0.5, 0.3):  # the break-even at other levels of use: the verdict moves with it
            try:
                at = estimate_rent_and_buy(CostRequest(**(base | {"utilization": u})))
            except (ValueError, LookupError):
                continue
            ladder.append(ctx.t(f"{u:.0%} busy: " + (f"{at.buy_wins_after_months:.0f} months" if at.buy_wins_after_months
                                                     else "never (rent)"),
                                f"利用率 {u:.0%}：" + (f"{at.buy_wins_after_months:.0f} 个月" if at.buy_wins_after_months
                                                      else "永远不回本（租）")))
        lines.insert(0, ctx.t(f"**For how long, and how busy?** That decides it: buying wins only past about "
                              f"{r.buy_wins_after_months:.1f} months at {(r.utilization or 1):.0%} use; the figures below "
                              "are for one month.",
                              f"**打算用多久、多满？**结论取决于它：按 {(r.utilization or 1):.0%} 的利用率，持有超过约 "
                              f"{r.buy_wins_after_months:.1f} 个月买才划算；下面按一个月列出费用。")
                      + (ctx.t(" Buying pays back after: " + "; ".join(ladder) + ". Below ~50% use, or for less than "
                               "the payback, rent.", " 回本时间：" + "；".join(ladder) + "。利用率低于五成、或用不到回本期，就租。")
                         if len(ladder) >= 2 else ""))
    from tools.export_rules import barred_from_china

    if ctx.zh and barred_from_china(gpu):  # buying it in mainland China: grey channels only
        lines.append(f"注意：{gpu.name} 受美国出口管制（3A090），国内正规渠道买不到，只能走水货或海外采购（保修、合规都是风险）；"
                     "国内云上能租到的只是禁令前进口的存量（价格和供应都不稳定）；长期在国内部署可考虑 H20、国产卡或海外云。")
    text = "\n".join(lines) + assumptions_md(lang, ctx.notes + r.assumptions)
    return Answer(answer=text, lang=lang, intent="cost", figures=figures, tool_calls=ctx.calls,
                  verdict=Verdict(gpu=gpu.id, num_gpus=n), clarification=ctx.clarify)


_TRAINING_WORDS = re.compile(r"fine[\s-]?tun\w*|train\w*|lora|sft|微调|训练|预训练")


def usage_payback(ctx: Ctx) -> Answer:
    """'Buy an 8x RTX 5090 rig (~$35k) instead of renting H100s at $2.20/GPU-hr; we use ~200 H100-GPU-hours a month:
    payback?': the rent paid now (the hours × the rate) against what the bought cards cost to do the same work (the
    same work takes more hours on a slower card: dense BF16 compute for training, memory bandwidth for inference),
    their power and hosting; the payback in months set against the cards' useful life."""
    from tools.cost import (DEFAULT_DEPRECIATION_YEARS, DEFAULT_ELECTRICITY_PER_KWH, DEFAULT_HOSTING_PER_GPU_MONTH,
                            DEFAULT_PUE, desk_card)
    from tools.pricing import gpu_prices

    req = ctx.req
    cur = _currency(ctx)
    s = _sym(cur)
    used_hours = req.usage_gpu_hours_per_month
    rented_id = req.usage_gpu or (req.gpus[1] if len(req.gpus) > 1 else req.gpu)
    bought_id = next((g for g in req.gpus if g != rented_id), None) or req.gpu or rented_id
    rented, bought = ctx.gpu(rented_id), ctx.gpu(bought_id)
    n = (req.gpu_counts or {}).get(bought_id) or req.num_gpus or 1
    ctx.used |= {"usage_gpu_hours_per_month", "usage_gpu", "gpu", "gpus", "num_gpus", "gpu_counts", "break_even",
                 "period_hours", "price_kind", "server"}
    rate = (req.gpu_rental_prices or {}).get(rented_id) or req.price_per_gpu_hour
    if rate:
        ctx.used.add("price_per_gpu_hour")
    else:
        rate = typical_rate(ctx, rented_id, cur)
        if rate:
            ctx.assume(f"{rented.name} at {s}{rate:,.2f} per GPU-hour (price table, typical on demand)",
                       f"{rented.name} 每卡时 {s}{rate:,.2f}（价格表，按需典型价）")
    total = None
    if req.purchase_price_per_server:
        total = req.purchase_price_per_server
        ctx.used.add("purchase_price_per_server")
    elif req.purchase_price:
        total = req.purchase_price * n
        ctx.used.add("purchase_price")
    else:
        kinds = gpu_prices(ctx.deps.prices(), bought.id, cur, kinds=("buy_new",)).kinds
        if kinds:
            total = kinds[0].typical * n
            ctx.assume(f"{n}× {bought.name} at {s}{kinds[0].typical:,.0f} each (price table, new)",
                       f"{n}× {bought.name}，每张 {s}{kinds[0].typical:,.0f}（价格表，新卡）")
    if not rate or not total:
        missing = "price_per_gpu_hour" if not rate else "purchase_price"
        clar = Clarification(missing=[missing], question=ctx.t(
            f"What do you pay per {rented.name} GPU-hour now?" if not rate else f"What does the {n}× {bought.name} purchase cost?",
            f"现在租 {rented.name} 每卡时多少钱？" if not rate else f"{n} 张 {bought.name} 买下来多少钱？"), suggestions=[])
        return Answer(answer=clar.question, lang=ctx.lang, intent="cost", status="needs_clarification", clarification=clar)
    training = bool(req.method) or bool(_TRAINING_WORDS.search(ctx.question.lower()))
    if training:
        fast, slow = rented.bf16_dense_tflops or rented.fp16_dense_tflops, bought.bf16_dense_tflops or bought.fp16_dense_tflops
        basis_en, basis_zh, unit = "dense BF16 compute (training is compute-bound)", "稠密 BF16 算力（训练受算力限制）", "TFLOPS"
    else:
        fast, slow = rented.memory_bandwidth_gbps, bought.memory_bandwidth_gbps
        basis_en, basis_zh, unit = "memory bandwidth (decode is bandwidth-bound)", "显存带宽（解码受带宽限制）", "GB/s"
    ratio = (fast / slow) if fast and slow else 1.0
    own_hours = used_hours * ratio  # bought-card GPU-hours a month for the same work
    wall = own_hours / n
    e = req.electricity_per_kwh or DEFAULT_ELECTRICITY_PER_KWH[cur]
    pue = req.pue or DEFAULT_PUE
    watts = bought.tdp_w or 0
    power = own_hours * watts / 1000 * pue * e
    hosting = 0.0 if desk_card(bought) else DEFAULT_HOSTING_PER_GPU_MONTH[cur] * n
    rent = used_hours * rate
    saving = rent - power - hosting
    life = DEFAULT_DEPRECIATION_YEARS * 12
    figures = {"rent_per_month": round(rent, 2), "own_gpu_hours_per_month": round(own_hours, 1), "speed_ratio": round(ratio, 3),
               "power_per_month": round(power, 2), "hosting_per_month": round(hosting, 2), "purchase_total": round(total, 2),
               "saving_per_month": round(saving, 2)}
    ctx.call("usage_payback", {"rented_gpu": rented.id, "bought_gpu": bought.id, "bought_count": n,
                               "gpu_hours_per_month": used_hours, "rate_per_gpu_hour": rate, "purchase_total": total,
                               "basis": "compute" if training else "bandwidth"}, dict(figures))
    lines = [ctx.t(
        f"**Now**: {used_hours:,.0f} {rented.name} GPU-hours a month × {s}{rate:,.2f} = **{s}{rent:,.0f} a month** of rent.",
        f"**现在**：每月 {used_hours:,.0f} 个 {rented.name} 卡时 × {s}{rate:,.2f} = **每月租金 {s}{rent:,.0f}**。")]
    lines.append(ctx.t(
        f"**The same work on {n}× {bought.name}**: {bought.name} has {slow:,.0f} {unit} against {fast:,.0f} for the "
        f"{rented.name} by {basis_en}, so {used_hours:,.0f} × {ratio:,.2f} = **{own_hours:,.0f} GPU-hours** a month "
        f"({wall:,.0f} h of the rig's {HOURS_PER_MONTH:,.0f}); power {own_hours:,.0f} × {watts:g} W × PUE {pue:g} × "
        f"{s}{e:g}/kWh = {s}{power:,.0f}" + (f", hosting {s}{hosting:,.0f}" if hosting else ", no hosting (a desk card)") + ".",
        f"**同样的活在 {n}× {bought.name} 上**：按{basis_zh}，{bought.name} {slow:,.0f} {unit}，{rented.name} {fast:,.0f}，"
        f"所以每月要 {used_hours:,.0f} × {ratio:,.2f} = **{own_hours:,.0f} 卡时**（整机每月 {HOURS_PER_MONTH:,.0f} 小时里的 "
        f"{wall:,.0f} 小时）；电费 {own_hours:,.0f} × {watts:g} W × PUE {pue:g} × {s}{e:g}/度 = {s}{power:,.0f}"
        + (f"，托管 {s}{hosting:,.0f}" if hosting else "，不计托管（桌面卡）") + "。"))
    if wall > HOURS_PER_MONTH:
        lines.append(ctx.t(f"**It cannot do it**: {wall:,.0f} h a month is more than a month has; it takes "
                           f"{math.ceil(own_hours / HOURS_PER_MONTH)} such cards.",
                           f"**做不完**：每月要 {wall:,.0f} 小时，超过一个月的时长；需要 {math.ceil(own_hours / HOURS_PER_MONTH)} 张这样的卡。"))
    if saving <= 0:
        months = None
        lines.append(ctx.t(f"**It never pays back**: the {s}{rent:,.0f} of rent a month does not cover the bought cards' "
                           f"{s}{power + hosting:,.0f} of power and hosting; keep renting.",
                           f"**永远回不了本**：每月 {s}{rent:,.0f} 的租金还不够买来的卡每月 {s}{power + hosting:,.0f} 的电费和托管；继续租。"))
    else:
        months = total / saving
        figures["payback_months"] = round(months, 1)
        pays = months <= life
        per_r = (watts / 1000 * pue * e) * ratio  # power per rented GPU-hour of work, on the bought cards
        need = (total / 24 + hosting) / (rate - per_r) if rate > per_r else None
        lines.append(ctx.t(
            f"**Payback: {s}{total:,.0f} / {s}{saving:,.0f} saved a month = {months:,.0f} months ({months / 12:,.1f} years)**"
            + (f", within the cards' ~{life / 12:g}-year useful life." if pays else
               f": longer than the cards' ~{life / 12:g}-year useful life, so **at this usage buying does not pay; keep renting**.")
            + (f" To pay back in 2 years it takes about {need:,.0f} {rented.name} GPU-hours a month ({need / used_hours:,.1f}× "
               "today's)." if need and months > 24 else ""),
            f"**回本：{s}{total:,.0f} ÷ 每月省 {s}{saving:,.0f} = {months:,.0f} 个月（{months / 12:,.1f} 年）**"
            + (f"，在卡约 {life / 12:g} 年的使用寿命内。" if pays else
               f"，超过卡约 {life / 12:g} 年的使用寿命，**按这个用量买不划算，继续租**。")
            + (f"要 2 年回本，每月需要约 {need:,.0f} 个 {rented.name} 卡时（现在的 {need / used_hours:,.1f} 倍）。"
               if need and months > 24 else "")))
    if bought.memory_gb < rented.memory_gb:
        lines.append(ctx.t(f"**Memory**: {bought.name} has {bought.memory_gb:g} GB against {rented.memory_gb:g} GB: a job "
                           f"that needs more per GPU (a 70B fine-tune, long sequences) needs QLoRA, more sharding or offload "
                           "there, which slows it further.",
                           f"**显存**：{bought.name} 只有 {bought.memory_gb:g} GB，{rented.name} 是 {rented.memory_gb:g} GB：每卡需要更多"
                           "显存的任务（70B 微调、长序列）在它上面要用 QLoRA、更多切分或 offload，会更慢。"))
    ctx.note(ctx.t("the speed ratio is the cards' peak ratio; measured jobs differ by the software and the job (consumer "
                   "cards lack NVLink, which slows multi-GPU training further)",
                   "速度比按两张卡的峰值之比；实际任务因软件和任务而异（消费级卡没有 NVLink，多卡训练还会更慢）"))
    return Answer(answer="\n\n".join(lines) + assumptions_md(ctx.lang, ctx.notes), lang=ctx.lang, intent="cost",
                  figures=figures)


DEPLOY_COST_ASK = (r"(?:部署|私有化|上线|自建|搭建?|deploy\w*|self[\s-]?host\w*|run (?:our|an?) (?:own )?(?:llm|model))"
                   r"[^。？?]{0,24}(?:多少钱|花多少|要多少钱|成本|费用|预算|cost|budget|how much)|"
                   r"(?:多少钱|花多少|成本|费用|cost|how much)[^。？?]{0,24}(?:部署|私有化|上线|deploy\w*|self[\s-]?host\w*)")
# (model, card, count) a practitioner would quote for each common size: the fewest of a card in the price table that
# holds the weights (FP8 where the card computes it, else 16-bit) with room for a few users' KV cache
_DEPLOY_TIERS = {"zh": (("qwen2.5-7b", "rtx-4090", 1), ("qwen2.5-32b", "h20", 1), ("qwen2.5-72b", "h20", 2),
                         ("deepseek-v3", "h20", 8)),  # (the cards sold in China)
                  "en": (("llama-3.1-8b", "rtx-4090", 1), ("qwen2.5-32b", "h100", 1), ("llama-3.3-70b", "h100", 2),
                         ("deepseek-v3", "h200", 8))}


def deployment_tiers(ctx: Ctx) -> Answer:
    """'老板让我评估一下部署大模型要花多少钱，先给个数': with no model, load or hardware named the cost spans a
    hundredfold; the usual sizes are priced (rent a month and buy, from the price table, each checked to hold its model)
    and what decides it is asked: the model (or the quality needed), the users or daily tokens, private or API."""
    from tools.pricing import gpu_prices

    cur = _currency(ctx)
    s = _sym(cur)
    rows, bought = [], []
    for mid, gid, n in _DEPLOY_TIERS["zh" if ctx.zh else "en"]:
        try:
            model, gpu = ctx.deps.catalog.model(mid)[0], ctx.deps.catalog.gpu(gid)[0]
        except LookupError:
            continue
        from assistant.plans.infer import fits_on
        from tools.formats import supported_on

        ok, fmt = False, model.native_precision
        for fmt in dict.fromkeys([model.native_precision] + (["fp8"] if supported_on("fp8", gpu)[0] else [])):
            try:
                r = fits_on(model, gpu, n, fmt, 8192)
                ok = bool(r.fits) and (fmt == "fp8" or r.per_gpu_gb <= 0.85 * r.usable_gb)
            except ValueError:
                ok = False
            if ok:  # (the published format where it fits with room for users, else FP8 on a card that computes it)
                break
        if not ok:
            continue
        rate = typical_rate(ctx, gid, cur)
        buy = next((k.typical for k in gpu_prices(ctx.deps.prices(), gid, cur, kinds=("buy_new",)).kinds), None)
        rows.append([model.name, f"{n}× {gpu.name.replace('NVIDIA ', '')} ({fmt.upper()})",
                     f"{s}{rate * n * HOURS_PER_MONTH:,.0f}" if rate else "-", f"{s}{buy * n:,.0f}" if buy else "-"])
        bought.append((model.name, buy * n if buy else None))
    head = [ctx.t("model size", "模型"), ctx.t("hardware that holds it (8k context, a few users)", "放得下的硬件（8k 上下文，少量并发）"),
            ctx.t("rent a month (24×7)", "租一个月（全天）"), ctx.t("buy the cards", "买卡")]
    text = ctx.t("**It turns on which model and how much use**: the same question runs from a few hundred to over a hundred "
                 "thousand a month. The usual sizes, priced from the price table (estimates with dates; machine, power and "
                 "staff not included):",
                 "**取决于用多大的模型、用量多大**：同样的问题，从每月几千到几十万都有可能。常见的几档（价格表估计值，含日期；不含整机其他部件、电费和人力）：") \
        + "\n\n" + md_table(head, rows) + "\n\n" + ctx.t(
            "More users at once need more cards (or replicas) on top; an API instead costs per token and nothing when idle.",
            "同时用的人多了要在此基础上加卡（或副本）；调用 API 则按 token 计费，闲时不花钱。")
    budget = ctx.req.budget
    if budget and any(b for _, b in bought):  # ('预算 100 万够不够'): each size's cards against the budget
        within = [m for m, b in bought if b and b <= budget]
        over = [m for m, b in bought if b and b > budget]
        ctx.used.add("budget")
        text += "\n\n" + ctx.t(
            f"**Against your {s}{budget:,.0f}** (the cards' price above; leave room for the server, network and storage "
            "where the price is the cards alone): "
            + (f"enough for {', '.join(within)}" if within else "none of these sizes")
            + (f"; not for {', '.join(over)}" if over else "") + ". Fine-tuning on the same machine needs more memory "
            "than serving: say if the budget covers it.",
            f"**对照你的 {s}{budget:,.0f}**（按上表买卡的价格；只含卡价的还要留出服务器、网络和存储的钱）："
            + (f"够 {'、'.join(within)}" if within else "这几档都不够")
            + (f"；不够 {'、'.join(over)}" if over else "") + "。如果同一台机器还要做微调，显存要比推理多得多：请说明预算是否包含微调。")
    clar = Clarification(missing=["model", "concurrent_users"], question=ctx.t(
        "Which model (or how good must it be), how many people at once (or tokens a day), and must it run on your own "
        "hardware?", "用哪个模型（或对效果要求多高）？同时多少人用（或每天多少 token）？必须私有化部署吗？"), suggestions=[])
    if re.search(r"api|调用|接口|openai|gpt|按\s*token", ctx.question.lower()):
        # ('we call an API now; how much would self-hosting save?'): the saving is the API bill less the hardware's
        # month, so the bill (or the monthly tokens and the API's prices) is what is asked
        month = next((r for r in rows if r[2] != "-"), None)
        clar = Clarification(missing=["api_spend_per_month", "model"], question=ctx.t(
            "What do you spend on the API a month (or how many input and output tokens a month, on which API model), and "
            "which open model would do the work?",
            "现在 API 每月花多少钱（或每月多少输入、输出 token，用的哪个 API 模型）？打算用哪个开源模型替代？"), suggestions=[])
        text += "\n\n" + ctx.t(
            "**How to tell**: self-hosted hardware is paid every hour, busy or idle; an API only per token. The saving is "
            "your monthly API bill less the hardware's month (above, plus power and staff), so it pays only past a "
            "volume: the hardware's month ÷ the API's price per million tokens"
            + (f" (e.g. {month[2]} a month for {month[0]} ÷ {s}1 per million = {month[2]}M tokens a month)" if month else "")
            + ". Below that volume the API is cheaper.",
            "**怎么判断**：自建的卡不管忙闲按小时付钱，API 只按 token 付钱。省下的钱 = 每月 API 账单 − 硬件的月成本（上表，另加电费和人力），"
            "所以只有用量超过某个点才划算：硬件月成本 ÷ API 每百万 token 的价格"
            + (f"（例如 {month[0]} 每月 {month[2]}，API 按 {s}1/百万 token 算就是每月 {month[2].lstrip(s)} 百万 token）" if month else "")
            + "；低于这个量用 API 更便宜。")
    text = f"**{clar.question}**\n\n" + text  # (the question back, said first: the figures are meanwhile)
    ctx.used |= {"currency"}
    return Answer(answer=text + assumptions_md(ctx.lang, ctx.notes), lang=ctx.lang, intent="cost",
                  status="needs_clarification", clarification=clar)
