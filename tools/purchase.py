"""What to buy for a model: every card (or Mac) with a purchase price, at the counts one machine holds, in the most
faithful weight format that fits, priced as a whole machine and ranked by what the user asked.

For each candidate card and count n (1, 2, 4, 8 for PCIe cards; 8 for SXM/OAM modules, sold as 8-GPU servers; one
machine for a Mac):
  format     = the first of [16-bit, 8-bit, 4-bit] whose weights + KV cache for `users` x `context` fit n cards
               (inference; GGUF Q8_0 / Q4_K_M for one or a few users, as llama.cpp / Ollama run them at home,
               FP8 or INT8 / AWQ for a served load), or the fine-tuning method's memory (training)
  price      = the cheaper typical of the card's new and used purchase records, in the user's currency
  total      = n x price + a host for n cards (none when the user has one, none for Macs and 8-GPU server prices)
  speed      = one stream's decode tokens/s at that format (roofline; inference), or the hours for the
               fine-tuning tokens (training)
Ranking with a budget: within it first, then the most faithful format (for inference 8-bit counts as 16-bit), then the
fastest, then the cheapest ("the best this money buys"); speeds within 15% are a tie that new, fewer cards and cheaper
win. Without a budget: the cheapest that runs. Cards without a purchase price are named apart.
"""
from __future__ import annotations

from typing import Any, Literal

import re

from pydantic import BaseModel, ConfigDict, Field

from knowledge.schemas import GPU, ModelSpec, Price
from tools.cost import DEFAULT_CNY_PER_USD, GPUS_PER_SERVER, _convert
from tools.driver_licence import geforce_licence
from tools.power import DESK_HOST_W, MAC_POWER_W, PSU_EFFICIENCY, SERVER_POWER_FACTOR, machine_power_w, module_card  # noqa: F401
from tools.export_rules import barred_from_china

# A host for n PCIe cards (CPU, board with enough slots and lanes, 64-256 GB RAM, PSU, case, SSD), USD. An
# assumption from common builds, stated wherever it is used: a desktop for one card, a workstation board for two,
# a 4-slot workstation / 4U server for four, an 8-slot PCIe GPU server for eight.
HOST_USD = {1: 1200.0, 2: 2000.0, 4: 5000.0, 8: 12000.0}
COUNTS = (1, 2, 4, 8)
FINETUNE_TOKENS = 1e8  # 100M tokens (e.g. 50k examples x 2k tokens, one epoch): the hours compared for training


class PurchaseRequest(BaseModel):
    model_config = ConfigDict(extra="forbid")
    model: ModelSpec
    task: Literal["inference", "lora", "qlora", "full"] = "inference"
    gpus: list[GPU] = Field(min_length=1, description="candidates; those without a purchase price are named apart")
    prices: list[Price] = []
    currency: Literal["USD", "CNY"] = "USD"
    budget: float | None = Field(None, gt=0, allow_inf_nan=False, description="for the whole purchase, in currency")
    context: int = Field(4096, ge=1, le=10_000_000, description="tokens per sequence (inference) / sequence length")
    users: int = Field(1, ge=1, le=100_000, description="concurrent sequences (inference)")
    served: bool = Field(False, description="a data-centre or team deployment (an IDC rack, a company's internal use): "
                         "served formats (FP8/INT8/AWQ in vLLM) even for few users, never GGUF home files")
    host_owned: bool = Field(False, description="the user has a machine for the cards: price the cards alone")
    host_price: float | None = Field(None, gt=0, allow_inf_nan=False, description="the user's price for the machine the "
                                     "PCIe cards go in (board, CPU, RAM, power supply, case), in currency; None: HOST_USD")
    prefer_low_power: bool = Field(False, description="quiet / low power wanted: among near ties the lower draw wins")
    buyable: list[str] = Field(default_factory=list, description="card ids the buyer says they can buy ('4090、L20、H20 "
                               "都能买到'): not ranked down for export rules, whatever the currency")
    cny_per_usd: float = Field(DEFAULT_CNY_PER_USD, gt=0)
    power_limit_w: float | None = Field(None, gt=0, le=1e8, allow_inf_nan=False,
                                        description="watts one machine may draw at the wall (an outlet, a rack's share)")
    rack_units: int | None = Field(None, ge=1, le=200, description="rack space available for the machine, in U")
    format: str | None = Field(None, description="the weight format the user asked for ('Q4', 'int8', 'bf16'); None: the "
                                                 "most faithful that fits")
    min_tokens_per_s: float | None = Field(None, gt=0, le=10_000, description="one stream's decode speed the user needs; "
                                           "None: MIN_USABLE_TOKENS_PER_S")


class PurchaseOption(BaseModel):
    gpu: str
    name: str
    num_gpus: int | None
    format: str | None = Field(description="weight format (inference) or method (training)")
    per_gpu_gb: float | None
    condition: Literal["new", "used"] | None
    price_per_card: float | None
    cards_cost: float | None
    host_cost: float | None
    total: float | None
    tokens_per_s: float | None = Field(None, description="one stream's decode tokens/s (inference)")
    hours: float | None = Field(None, description="hours for FINETUNE_TOKENS (training)")
    within_budget: bool | None = None
    power_w: float | None = Field(None, description="the machine's draw at the wall under load, watts (machine_power_w)")
    step: int | None = Field(None, description="0 = the most faithful format tried (16-bit or the checkpoint's own), "
                             "1 = 8-bit, 2 = 4-bit")
    legacy: bool = Field(False, description="an NVIDIA architecture before Ampere (LEGACY_ARCHITECTURES)")
    pcie_split: bool = Field(False, description="a served deployment split over several cards with no NVLink between them "
                             "(tensor parallelism over PCIe): ranked after one card or NVLink-linked cards in the budget")
    grey_market: bool = Field(False, description="priced in CNY from another market's record for a card US export rules "
                              "bar from China (tools/export_rules.py): the converted price does not apply there")
    rank: int | None = None
    reason: str = Field("", description="why it stands where it does, a code of WHY_EN (answers render it in their "
                        "language from the code and reason_args)")
    reason_args: dict[str, Any] = {}
    why: str = Field("", description="the reason in English")


class PurchasePlan(BaseModel):
    options: list[PurchaseOption]
    rejected: list[PurchaseOption]
    currency: str
    assumptions: list[str]


def host_price(gpus: int, currency: str, cny_per_usd: float = DEFAULT_CNY_PER_USD) -> float:
    """The machine `gpus` PCIe cards go in (HOST_USD: the smallest common build that holds them, an 8-slot server
    beyond eight), in `currency`."""
    size = min((k for k in HOST_USD if k >= gpus), default=GPUS_PER_SERVER)
    return _convert(HOST_USD[size], "USD", currency, cny_per_usd)


def price_of(prices: list[Price], gpu: GPU, currency: str, cny_per_usd: float = DEFAULT_CNY_PER_USD,
             condition: Literal["new", "used"] | None = None) -> tuple[float, str, bool, bool] | None:
    """(price per card in `currency`, 'new'/'used', whether it is an 8-GPU server's price / 8, whether the record is in
    `currency` itself: a local market's price, not another market's converted), the cheaper typical of the card's new
    and used records (only `condition`'s records when the user named one and the table has them), a record in
    `currency` first; None when the table has none."""
    kinds = ("buy_new", "buy_used")
    if condition and any(_same_machine(gpu, p.gpu) and p.kind == f"buy_{condition}" for p in prices):
        kinds = (f"buy_{condition}",)
    best = None
    for p in prices:
        if not _same_machine(gpu, p.gpu) or p.kind not in kinds:
            continue
        typical = p.typical if p.typical is not None else (p.low + p.high) / 2
        server = p.unit == "per_8gpu_server"
        value = _convert(typical / (GPUS_PER_SERVER if server else 1), p.currency, currency, cny_per_usd)
        same = p.currency == currency
        key = (not same, value)  # a record in the user's currency first, then the cheaper
        if best is None or key < best[0]:
            best = (key, value, "used" if p.kind == "buy_used" else "new", server, same)
    return None if best is None else best[1:]


def _same_machine(gpu: GPU, price_gpu: str) -> bool:
    """A price record for this card; for a Mac, any configuration of the same chip and memory (a Mac is sold as
    configurations: 'M3 Ultra 256GB' is priced by its base GPU-core variant when that is the record there is)."""
    if price_gpu == gpu.id:
        return True
    strip = lambda i: re.sub(r"-\d+c(?=-)", "", i)
    return gpu.vendor == "Apple" and strip(price_gpu) == strip(gpu.id)


def _counts(gpu: GPU) -> tuple[int, ...]:
    if gpu.vendor == "Apple":
        return (1,)
    return (GPUS_PER_SERVER,) if module_card(gpu) else COUNTS


def _ladder(req: PurchaseRequest, gpu: GPU) -> list[str]:
    from tools.formats import FORMATS, precision_ladder, supported_on

    native = req.model.native_precision
    home_user = (req.users <= 4 and not req.served) or gpu.vendor == "Apple"
    if req.format:  # the format asked for, as the engine for this set-up names it (GGUF at home, AWQ/INT8 served)
        bits = FORMATS[req.format].bits if req.format in FORMATS else 16
        if bits >= 16:
            return ["bf16" if supported_on("bf16", gpu)[0] else "fp16"]
        if bits >= 8:
            return ["q8_0"] if home_user else ["fp8" if supported_on("fp8", gpu)[0] else "int8"]
        return ["q4_k_m"] if home_user else ["awq"]
    if home_user:  # one or a few users at home: llama.cpp / Ollama GGUF files
        sixteen = "bf16" if supported_on("bf16", gpu)[0] else "fp16"
        home = [sixteen, "q8_0", "q4_k_m"]
        if FORMATS[native].bits >= 16:
            return home
        return [native] + [f for f in home if FORMATS[f].bits < FORMATS[native].bits - 1]  # a 4/8-bit checkpoint
    ladder = [f for f, _ in precision_ladder(native, gpu)]
    # a checkpoint published below 16 bits (gpt-oss's MXFP4, DeepSeek's FP8) loses nothing in its own format: the wider
    # formats above it only cost memory and cards, so they are not tried
    return [f for f in ladder if FORMATS[f].bits <= FORMATS[native].bits] or ladder


def _inference(req: PurchaseRequest, gpu: GPU, n: int) -> tuple[str, float, float | None, int] | None:
    """(format, GB per GPU, tokens/s, place on the ladder) of the most faithful format that fits n cards, or None."""
    from tools.engines import prefill_at_once
    from tools.infer_memory import InferenceMemoryRequest, estimate_inference_memory
    from tools.infer_speed import InferenceSpeedRequest, estimate_inference_speed

    ladder = _ladder(req, gpu)
    home = (req.users <= 4 and not req.served) or gpu.vendor == "Apple"
    # the last rung at home: the same smallest format with the KV cache in 8 bits (llama.cpp -ctk q8_0 -ctv q8_0;
    # sized as a 1-byte cache)
    rungs = [(f, None) for f in ladder] + ([(ladder[-1], "fp8")] if home else [])
    for step, (fmt, kv) in enumerate(rungs):
        step = min(step, len(ladder) - 1)  # an 8-bit KV cache costs next to no quality: the same rung as its weights
        m = estimate_inference_memory(InferenceMemoryRequest(model=req.model, gpu=gpu, num_gpus=n, precision=fmt,
                                                             context=req.context, batch=req.users, kv_dtype=kv,
                                                             prompt_len=prefill_at_once("llamacpp" if home else "vllm",
                                                                                        req.context)))
        if not m.fits:
            continue
        if kv:
            fmt = f"{fmt} + KV q8_0"
        speed = None
        if gpu.memory_bandwidth_gbps and (gpu.bf16_dense_tflops or gpu.fp16_dense_tflops):
            s = estimate_inference_speed(InferenceSpeedRequest(model=req.model, gpu=gpu, num_gpus=n, precision=fmt.split(" ")[0],
                                                               context=min(req.context, 2048), batch=req.users,
                                                               engine=("hf" if gpu.vendor == "Apple" else "llamacpp")
                                                               if home else "vllm"))  # (at home: llama.cpp / Ollama)
            speed = s.decode_tokens_per_s_per_seq
        return fmt, m.per_gpu_gb, speed, step
    return None


def _training(req: PurchaseRequest, gpu: GPU, n: int) -> tuple[str, float, float | None] | None:
    from tools.train_memory import TrainingMemoryRequest, estimate_training_memory
    from tools.train_time import TrainingTimeRequest, estimate_training_time

    if gpu.vendor == "Apple":
        return None
    m = estimate_training_memory(TrainingMemoryRequest(model=req.model, gpu=gpu, method=req.task, num_gpus=n,
                                                       seq_len=min(req.context, 4096)))
    if not m.fits:
        return None
    hours = None
    if gpu.bf16_dense_tflops or gpu.fp16_dense_tflops:
        t = estimate_training_time(TrainingTimeRequest(model=req.model, gpu=gpu, num_gpus=n, tokens=FINETUNE_TOKENS,
                                                       method=req.task, seq_len=min(req.context, 4096)))
        hours = t.wall_hours
    return req.task, m.per_gpu_gb, hours, 0


# A machine's height in a rack (U = 44.45 mm). SXM/OAM baseboards: 8 GPUs in 6U (Dell PowerEdge XE9680, 6U, 8x H100/H200
# SXM or MI300X; StorageReview, 2024) to 8U (NVIDIA DGX H100 datasheet: 8U); 4 SXM GPUs in 4U (Dell PowerEdge XE8640,
# Dell generative-AI design guide, 2023). Double-width PCIe cards: 4 in 2U (Dell PowerEdge R760xa; Supermicro
# SYS-221GE-NR manual), 8 in 4U (Supermicro SYS-421GE-TNRT, up to 10). Consumer cards (3-slot RTX 4090/5090) are
# counted as double-width blower versions; a Mac Studio on a rack shelf takes 3U (9.5 cm tall).
SXM_SERVER_U = {4: 4, 8: 6}
PCIE_SERVER_U = ((4, 2), (8, 4))
MAC_SHELF_U = 3


class FleetCostRequest(BaseModel):
    """GPUs bought at a price each, in servers bought apart ('服务器准系统另算 ¥8 万', 'chassis $14k')."""
    model_config = ConfigDict(extra="forbid")
    gpus: int = Field(ge=1, le=100_000)
    price_per_gpu: float = Field(gt=0)
    host_price_per_server: float | None = Field(None, gt=0, description="the server without its GPUs; None: not priced")
    gpus_per_server: int = Field(8, ge=1, le=16)


class FleetCost(BaseModel):
    gpus: int
    servers: int = Field(description="servers the GPUs go in (0 when no host price is given)")
    cards: float
    hosts: float
    total: float


def fleet_cost(req: FleetCostRequest) -> FleetCost:
    """total = gpus x price + ceil(gpus / gpus_per_server) x host price (hosts only when priced)."""
    servers = -(-req.gpus // req.gpus_per_server) if req.host_price_per_server else 0
    cards, hosts = req.gpus * req.price_per_gpu, servers * (req.host_price_per_server or 0.0)
    return FleetCost(gpus=req.gpus, servers=servers, cards=cards, hosts=hosts, total=cards + hosts)


def machine_rack_units(gpu: GPU, n: int) -> int:
    """Rack units one machine of `n` of these cards takes (the lowest common height; see the constants above); more
    cards than one machine holds take several machines' height."""
    if gpu.vendor == "Apple":
        return MAC_SHELF_U * max(1, n)
    if _counts(gpu) == (GPUS_PER_SERVER,):
        boxes, rest = divmod(n, 8)
        return boxes * SXM_SERVER_U[8] + (SXM_SERVER_U[4] if 0 < rest <= 4 else SXM_SERVER_U[8] if rest else 0)
    boxes, rest = divmod(n, 8)
    return boxes * 4 + (next(u for k, u in PCIE_SERVER_U if rest <= k) if rest else 0)


def plan_purchase(req: PurchaseRequest) -> PurchasePlan:
    """Every candidate card sized, priced as a machine and ranked; the rest named apart with why."""
    host_usd = lambda n: 0.0 if req.host_owned else req.host_price if req.host_price is not None else \
        host_price(n, req.currency, req.cny_per_usd)
    options, rejected = [], []
    for gpu in req.gpus:
        if "nvl72" in (gpu.form_factor or "").lower().replace(" ", "") and len(req.gpus) > 1:
            # a rack-scale part (GB200 / GB300 NVL72: 72 GPUs in one liquid-cooled rack) is no 8-GPU machine to buy
            rejected.append(PurchaseOption(gpu=gpu.id, name=gpu.name, num_gpus=None, format=None, per_gpu_gb=None,
                                           condition=None, price_per_card=None, cards_cost=None, host_cost=None,
                                           total=None, why="sold only as a 72-GPU NVL72 rack, not an 8-GPU machine"))
            continue
        if req.currency != "CNY" and len(req.gpus) > 1 and (gpu.market_notes or "").startswith("China-market"):
            # an export-rule cut sold in China only (H20, H800, A800, L20, RTX 4090 D): not what a buyer elsewhere gets
            rejected.append(PurchaseOption(gpu=gpu.id, name=gpu.name, num_gpus=None, format=None, per_gpu_gb=None,
                                           condition=None, price_per_card=None, cards_cost=None, host_cost=None,
                                           total=None, why="a China-market part: not sold outside China"))
            continue
        price = price_of(req.prices, gpu, req.currency, req.cny_per_usd)
        if price is None:
            rejected.append(PurchaseOption(gpu=gpu.id, name=gpu.name, num_gpus=None, format=None, per_gpu_gb=None,
                                           condition=None, price_per_card=None, cards_cost=None, host_cost=None,
                                           total=None, why="no purchase price in the table for this card"))
            continue
        each, condition, server, local = price
        grey = req.currency == "CNY" and barred_from_china(gpu) and gpu.id not in req.buyable
        # (a card China cannot buy through official channels,
        # whatever price is on record (a grey-market quote in yuan included): ranked after the cards it can
        best = None
        for n in _counts(gpu):
            got = _inference(req, gpu, n) if req.task == "inference" else _training(req, gpu, n)
            if got is None:
                continue
            fmt, gb, speed, step = got
            watts = machine_power_w(gpu, n)
            if req.power_limit_w and watts > req.power_limit_w:
                continue  # over the outlet or the rack's power: more cards would only draw more
            if req.rack_units and machine_rack_units(gpu, n) > req.rack_units:
                continue  # taller than the rack space left
            module = _counts(gpu) == (GPUS_PER_SERVER,)
            if server or gpu.vendor == "Apple":
                host = 0.0
            elif module:  # SXM / OAM modules go only into their own 8-GPU baseboard server, whatever PC you have
                host = host_price(GPUS_PER_SERVER, req.currency, req.cny_per_usd)
            else:
                host = host_usd(n)
            total = n * each + host
            o = PurchaseOption(gpu=gpu.id, name=gpu.name, num_gpus=n, format=fmt, per_gpu_gb=round(gb, 1),
                               legacy=legacy(gpu.architecture),
                               condition=condition, price_per_card=round(each), cards_cost=round(n * each),
                               host_cost=round(host), total=round(total),
                               tokens_per_s=None if req.task != "inference" or speed is None else round(speed, 1),
                               hours=None if req.task == "inference" or speed is None else round(speed, 1),
                               step=step, power_w=round(watts), grey_market=grey,
                               pcie_split=bool(req.served and n > 1 and not (gpu.nvlink_gbps and (
                                   n <= 2 or "nvswitch" in (gpu.interconnect or "").lower()))),  # (a bridge links a pair)
                               within_budget=None if req.budget is None else total <= req.budget)
            if best is None or _key(req, o) < _key(req, best):
                best = o
            if step == 0:
                break  # more cards would only cost more for the same format
        if best is None:
            rejected.append(PurchaseOption(gpu=gpu.id, name=gpu.name, num_gpus=None, format=None, per_gpu_gb=None,
                                           condition=condition, price_per_card=round(each), cards_cost=None,
                                           host_cost=None, total=None,
                                           why=f"does not hold the job on up to {max(_counts(gpu))} in one machine"
                                           + (f" within {req.power_limit_w:,.0f} W" if req.power_limit_w else "")))
        else:
            options.append(best)
    options.sort(key=lambda o: _key(req, o))
    options = _prefer_near_ties(req, options)
    for rank, o in enumerate(options, 1):
        o.rank = rank
        if not o.reason:  # (a near tie's pick and the one it beat have theirs already)
            o.reason, o.reason_args = _reason(req, o, options[0])
        o.why = WHY_EN[o.reason].format(currency=req.currency, licence=" (and the GeForce licence bars data-centre use)"
                                        if o.reason_args.get("geforce") else "", **o.reason_args)
    return PurchasePlan(options=options, rejected=rejected, currency=req.currency, assumptions=_assumptions(req))


SPEED_TIE = 0.85  # two set-ups within 15% of each other's speed: a user would not feel the difference


def _near_tie_key(o: PurchaseOption):
    return (o.condition == "used", o.num_gpus or 0, o.total or 0)


def _prefer_near_ties(req: PurchaseRequest, options: list[PurchaseOption]) -> list[PurchaseOption]:
    """Among the budget's best, a practitioner's pick: an 8-bit format counts as faithful as 16-bit for inference
    (FP8 / Q8_0 lose well under 1% on benchmarks), and speeds within 15% as a tie; then new before used (a warranty),
    fewer cards, the cheaper machine. Two used A100s at the whole budget lose to one new 96 GB card at 93% of their
    speed with money left over."""
    if req.task != "inference" or req.budget is None or not options:
        return options
    top = options[0]
    if not top.within_budget or top.tokens_per_s is None:
        return options
    slowest = _slowest(req)
    near = [o for o in options if o.within_budget and not o.legacy and not o.grey_market and _tier(req, o) == _tier(req, top)
            and o.pcie_split == top.pcie_split
            and o.tokens_per_s is not None and o.tokens_per_s >= max(slowest, SPEED_TIE * top.tokens_per_s)]
    key = (lambda o: (o.power_w or 0, *_near_tie_key(o))) if req.prefer_low_power else _near_tie_key
    pick = min(near, key=key, default=top)
    if pick is top or key(pick) >= key(top):
        return options
    pick.reason, pick.reason_args = "near_tie_pick", {
        "format": pick.format, "speed": pick.tokens_per_s, "fastest": top.tokens_per_s, "asked": bool(req.format),
        "same": pick.step == top.step,
        "new": pick.condition == "new" and top.condition == "used",
        "fewer": (pick.num_gpus or 0) < (top.num_gpus or 0), "saved": max(0.0, (top.total or 0) - (pick.total or 0))}
    top.reason, top.reason_args = "near_tie_beaten", {
        "speed": top.tokens_per_s, "faster": top.tokens_per_s / pick.tokens_per_s - 1, "used": top.condition == "used",
        "cards": top.num_gpus or 0, "total": top.total or 0}
    return [pick] + [o for o in options if o is not pick]


# NVIDIA architectures before Ampere (Volta V100, Turing T4/RTX 20): no BF16 and no FlashAttention-2 (its README lists
# Ampere, Ada and Hopper; Turing only in FlashAttention 1): cheap used, but a new purchase ranks them after newer cards
LEGACY_ARCHITECTURES = ("Volta", "Turing", "Pascal")


def legacy(gpu_name_or_arch: str) -> bool:
    return any(a.lower() in gpu_name_or_arch.lower() for a in LEGACY_ARCHITECTURES)


MIN_USABLE_TOKENS_PER_S = 10.0  # one chat user reads ~5-10 tokens/s; slower than this a format is not worth its fidelity


def _slowest(req: PurchaseRequest) -> float:
    return req.min_tokens_per_s or MIN_USABLE_TOKENS_PER_S


def _key(req: PurchaseRequest, o: PurchaseOption):
    speed = o.tokens_per_s if req.task == "inference" else (-(o.hours or 1e9))
    slow = req.task == "inference" and o.tokens_per_s is not None and o.tokens_per_s < _slowest(req)
    if req.budget is None:
        return (o.grey_market, slow, o.legacy, o.total, o.step, -(speed or 0))
    if o.grey_market:  # barred from sale where the buyer is: after every card that can be bought there, in budget or not
        return (2, not o.within_budget, o.total, 0, 0)
    if not o.within_budget:
        return (1, 0, o.total, 0, 0)  # over the budget: the nearest to it first
    return (0, o.grey_market, slow, o.legacy, o.pcie_split, _tier(req, o), -(speed or 0), o.total)


def _tier(req: PurchaseRequest, o: PurchaseOption) -> int | None:
    """How faithful the format is, for ranking: for inference with no format asked, 8-bit counts as 16-bit (FP8 / Q8_0
    lose well under 1% on benchmarks); 4-bit is a step down."""
    if req.task == "inference" and not req.format and o.step is not None:
        return 0 if o.step <= 1 else o.step
    return o.step


# Why an option stands where it does: one code per rule, rendered here in English and by the answer in its language
WHY_EN = {
    "over_budget": "over the budget by {by:,.0f} {currency}",
    "legacy": "pre-Ampere (Volta/Turing): no BF16 or FlashAttention-2, ranked after newer cards",
    "grey_market": "barred from export to China (US rule 3A090): grey market only there (no warranty, prices move), "
                   "so any price on record is unreliable; ranked after the cards sold there (quote it if you can buy it)",
    "pcie_split": "split over several cards with only PCIe between them (no NVLink): tensor parallelism there costs more "
                  "than this estimate shows, and each card is a point of failure; ranked after a single card or NVLink "
                  "for a served deployment{licence}",
    "slower_than_asked": "slower than your {need:g} tokens/s ({speed:g})",
    "too_slow": "too slow to use ({speed:g} tokens/s)",
    "best_in_budget": "best within the budget (most faithful format, then fastest)",
    "best_in_budget_8bit": "best within the budget (16- or 8-bit, then fastest)",
    "cheapest": "cheapest that runs it",
    "near_tie_pick": "best within the budget: {speed:g} tokens/s in {format} is within 15% of the fastest ({fastest:g}); "
                     "new or fewer cards or cheaper wins the tie",
    "near_tie_beaten": "{speed:g} tokens/s, only {faster:.0%} faster than the pick; {cards:g} cards, {total:,.0f} {currency}",
    "only_fits": "only fits in {format}",
    "slower": "slower ({speed:g} vs {best:g} tokens/s)",
    "vs_pick": "{diff:+,.0f} {currency} vs the pick",
}


def geforce_licence_id(req: PurchaseRequest, gpu_id: str) -> bool:
    """Whether the candidate `gpu_id` is a GeForce board (tools.driver_licence)."""
    return any(g.id == gpu_id and geforce_licence(g) for g in req.gpus)


def _reason(req: PurchaseRequest, o: PurchaseOption, best: PurchaseOption) -> tuple[str, dict]:
    if req.budget is not None and not o.within_budget:
        return "over_budget", {"by": o.total - req.budget}
    if o.grey_market and o is not best:
        return "grey_market", {}
    if o is best:
        return (("best_in_budget_8bit" if req.task == "inference" and not req.format else "best_in_budget")
                if req.budget else "cheapest"), {}
    if o.legacy:
        return "legacy", {}
    if o.pcie_split and not best.pcie_split:
        return "pcie_split", {"geforce": geforce_licence_id(req, o.gpu)}
    if req.task == "inference" and o.tokens_per_s is not None and o.tokens_per_s < _slowest(req):
        return (("slower_than_asked", {"need": req.min_tokens_per_s, "speed": o.tokens_per_s}) if req.min_tokens_per_s
                else ("too_slow", {"speed": o.tokens_per_s}))
    if o.step is not None and best.step is not None and o.step > best.step:
        return "only_fits", {"format": o.format}
    if req.task == "inference" and o.tokens_per_s and best.tokens_per_s and o.tokens_per_s < best.tokens_per_s:
        return "slower", {"speed": o.tokens_per_s, "best": best.tokens_per_s}
    return "vs_pick", {"diff": o.total - best.total}


def _assumptions(req: PurchaseRequest) -> list[str]:
    cur = req.currency
    yours = sorted({p.gpu for p in req.prices if p.id.startswith("session-") and p.kind.startswith("buy")})
    out = [(f"price per card: yours for {', '.join(yours)}; for the rest " if yours else "price per card: ")
           + "the cheaper typical of the price table's new and used purchase records (estimates with "
           f"dates; replace them with your quotes); other currencies converted at {req.cny_per_usd:g} CNY/USD"]
    if req.power_limit_w:
        out.append(f"power: each machine within {req.power_limit_w:,.0f} W at the wall (yours); an 8-GPU server draws "
                   f"{SERVER_POWER_FACTOR:.2f}x its GPUs' TDP (DGX H100: 10.2 kW for 8 x 700 W), a desk machine its "
                   f"cards' TDP + {DESK_HOST_W:.0f} W through a {PSU_EFFICIENCY:.0%}-efficient supply, a Mac Studio "
                   f"{MAC_POWER_W:.0f} W")
    if req.host_owned:
        out.append("cards only: you said you have the machine (check its power supply and slots)")
    elif req.host_price is not None:
        out.append(f"a host for the cards (board, CPU, RAM, power supply, case) at your {req.host_price:,.0f} {cur}; Macs "
                   "and 8-GPU server prices include it")
    else:
        host = ", ".join(f"{n} card{'s' if n > 1 else ''} {_convert(v, 'USD', cur, req.cny_per_usd):,.0f} {cur}"
                         for n, v in HOST_USD.items())
        out.append(f"a host for the cards (CPU, board, RAM, power supply, case, SSD), an assumption: {host}; Macs and "
                   "8-GPU server prices include it")
    if req.task == "inference":
        out.append(f"inference for {req.users} user(s) at {req.context:,} tokens: "
                   + (f"in the format you asked for ({req.format}; GGUF Q4_K_M / Q8_0 at home, AWQ / FP8 / INT8 served)"
                      if req.format else "the most faithful format that fits "
                      + ("(16-bit, then GGUF Q8_0, then Q4_K_M, as llama.cpp / Ollama run them)" if req.users <= 4 else
                         "(16-bit, then FP8 or INT8, then AWQ 4-bit, as vLLM serves them)"))
                   + ("; at home, when nothing else fits, the KV cache in 8 bits (llama.cpp -ctk q8_0 -ctv q8_0, about "
                      "half the 16-bit cache)" if req.users <= 4 else "")
                   + ("; speed = one stream's decode tokens/s (roofline)" if req.users == 1 else
                      f"; speed = each user's decode tokens/s with {req.users} decoding at once (roofline)"))
    else:
        out.append(f"{req.task} fine-tuning at sequence length {min(req.context, 4096):,}; hours for "
                   f"{FINETUNE_TOKENS:.0e} tokens")
    faithful = ("the most faithful format (8-bit counts as 16-bit: FP8 / Q8_0 lose well under 1% on benchmarks)"
                if req.task == "inference" and not req.format else "the most faithful format")
    out.append("ranking: " + (f"within the budget, then {faithful}, then the fastest (within 15% is a tie: new, then "
                              "fewer cards, then cheaper wins), then the cheapest" if req.budget else "the cheapest that runs")
               + ((f"; a set-up under your {req.min_tokens_per_s:g} tokens/s for one stream ranks last" if req.min_tokens_per_s
                   else f"; a set-up under {MIN_USABLE_TOKENS_PER_S:g} tokens/s for one stream ranks last (too slow to use, "
                   "an assumption)") if req.task == "inference" else "")
               + "; SXM/OAM modules need their own 8-GPU server, priced with it")
    return out


__all__ = ["PurchaseRequest", "PurchaseOption", "PurchasePlan", "plan_purchase", "price_of", "host_price", "HOST_USD", "FINETUNE_TOKENS"]
