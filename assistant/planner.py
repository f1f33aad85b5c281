"""Request -> tool calls -> one Answer. Every number comes from a tool; every stated input reaches a tool
or is named as ignored; a missing essential becomes a question back; the answer opens with the Request restated.

The handlers for each family of intents live in assistant/plans/; what they share (Deps, Ctx, USES, the
assumption and source sections) in assistant/context.py, below both."""
from __future__ import annotations

import logging
import math
import re

from assistant.answer import Answer
from assistant.compose import T, md_table, premise_md
from assistant.context import TIGHT_SHARE, USES, Ctx, Deps
from assistant.plans import facts, infer, money, train
from assistant.request import META_FIELDS, Clarification, Request
from assistant.restate import clarification, ignored_line, restate
from assistant.readers import slots
from assistant.readers.rules import NEGATIVE_GPUS, NEGATIVE_LOAD, ZERO_LENGTH
from assistant.zh import assumption_zh
from knowledge.catalog import UnknownItem
from tools.serve_load import PEAK_SHARE_OF_DAU, TEAM_MAX, peak_in_flight

__all__ = ["Deps", "plan", "missing_inputs"]
log = logging.getLogger(__name__)


ZERO_GPUS = "0 GPUs is not a configuration; give at least 1 (e.g. '8x H100', '单卡')"
MAX_GPUS = 1_000_000  # an input above it is a typo or a joke: said, not computed
SMALL_GROUP = 5  # people who may all ask at once: sized for all of them (an assumption, always said)
RATIO_MODEL = "llama-3.1-8b"  # the job a ratio question is computed on when it names none (said)

# What each intent needs before it can answer without guessing.
NEEDS: dict[str, tuple[str, ...]] = {
    "training_memory": ("model",), "inference_memory": ("model",), "serving": ("model",),
    "inference_speed": ("model",), "training_time": ("model", "tokens"), "cost": ("gpu", "period_hours"),
    "price": ("gpu",), "spec": ("gpu",), "compare": ("gpus",),
}


PER_TOKEN_TIERS = ("llama-3.1-8b", "llama-3.1-70b")  # a small and a large dense model: where cards' cost per token
# turns with the model's size (memory per card, tensor parallelism)


def _per_token_by_model_size(req: Request, deps: Deps, question: str) -> Answer:
    """'MI300X at $2.50/hr or H100 at $2.20/hr: which is cheaper per token?' with no model: the answer turns on the
    model, so it asks, and shows each card's cost per token at a small and a large model meanwhile."""
    from assistant.request import Clarification

    zh = req.lang == "zh"
    lines, calls = [], []
    for mid in PER_TOKEN_TIERS:
        a = plan_message(req.model_copy(update={"model": mid}), deps, question)
        calls += a.tool_calls
        name = deps.catalog.model(mid)[0].name
        lines.append(f"- {name}: " + (a.comparison or _headline(a) or a.answer).strip())
        against = next((p for p in a.answer.split("\n\n") if p.startswith(("Against the API", "与 API 比"))), None)
        if against and req.reference_per_million:  # ('… vs paying gpt-4o-mini ($0.15 in / $0.60 out)?': each size judged)
            lines.append("  " + against.strip())
    head = ("**哪个模型？** 每 token 成本取决于模型大小（单卡放不放得下、要几张卡做张量并行）；按两种规模：" if zh else
            "**Which model?** Cost per token turns on its size (whether one card holds it, how many cards it is split "
            "over); at two sizes:")
    clar = Clarification(missing=["model"], question="是哪个模型（或多大参数）？" if zh else "Which model (or size)?",
                         suggestions=[deps.catalog.model(m)[0].name for m in PER_TOKEN_TIERS])
    busy = req.utilization
    tail = ("\n\n" + ("**按实际利用率**：每百万 token 成本 = 每小时费用 ÷（token/秒 × 3600 ÷ 10⁶）÷ 利用率；上面是满负载（利用率 100%）"
                       "的数字，平均只用一半时要乘 2。API 按用掉的 token 计费，自建不管忙闲都按小时付，所以要拿你的平均利用率来比。"
                       if zh else
                       "**At your real utilization**: $ per 1M tokens = hourly cost ÷ (tokens/s × 3,600 ÷ 10⁶) ÷ utilization; "
                       "the figures above are at full load (100%), so at 50% average use they double. An API bills only the "
                       "tokens used, while a rented node is paid every hour, busy or idle: compare at your average "
                       "utilization.")) if not busy else ""
    body = restate(req, deps.catalog, []) + "\n\n" + head + "\n" + "\n".join(lines) + tail
    slots = req.model_dump(mode="json") | {"awaiting": ["model"]}
    return Answer(answer=body, lang=req.lang, intent="cost", tool_calls=calls, clarification=clar,
                  request=req.model_dump(mode="json"), slots=slots)


# 'our own (industry) model': what such a model is, not yet known (train.own_model_scenarios prices what it usually is)
OWN_MODEL_WORDS = r"自己的\w{0,6}模型|自有\w{0,4}模型|自研|行业大模型|(?<![a-z])(?:own (?:\w+ ){0,2}(?:llm|model|foundation model)|our own)(?![a-z])"


# a training bill asked with no tokens and no length of time ('训练一个 7B 要多少钱')
TRAIN_COST_WORDS = (r"训练|预训练|微调|(?<!百)炼(?:丹|模型|大模型)|(?<![a-z])(?:train\w*|pre[\s-]?train\w*|fine[\s-]?tun\w*|finetun\w*|sft)(?![a-z])")


def _training_cost_by_scale(req: Request, deps: Deps, question: str) -> Answer:
    """'训练一个 7B 模型要花多少钱？': the model is named but the bill turns on the tokens and the method (from scratch or a
    fine-tune: a thousandfold apart), so they are asked; meanwhile that model's fine-tunes and pre-training (at the
    compute-optimal 20 tokens a parameter and at 1T) on the card named (H100 when none), each from the training-time
    estimate and the rental rate. (No model at all: train.own_model_scenarios.)"""
    from assistant.request import Clarification
    from tools.params import count_parameters

    zh = req.lang == "zh"
    gpu = req.gpu or "h100"
    rows, calls = [], []
    total = count_parameters(deps.catalog.model(req.model)[0]).total
    scales = [("lora", 1e8, "LoRA fine-tune on 100M tokens", "LoRA 微调 100M token"),
              ("full", 1e9, "full fine-tune on 1B tokens", "全参微调 1B token"),
              ("pretrain", 20 * total, f"pre-train on {20 * total / 1e9:,.0f}B tokens (20 a parameter)",
               f"从头预训练 {20 * total / 1e9:,.0f}B token（每参数 20 个）"),
              ("pretrain", 1e12, "pre-train on 1T tokens", "从头预训练 1T token")]
    for method, tokens, en, cn in scales:
        sub = req.model_copy(update={"intent": "cost", "method": method, "tokens": tokens, "gpu": gpu, "gpus": [gpu]})
        try:
            a = plan(sub, deps, question)
        except Exception:  # a row the tools cannot make is left out (logged)
            log.exception("training cost row %s failed", method)
            continue
        calls += a.tool_calls
        f = a.figures
        if not f.get("rent_cost") or not f.get("gpu_hours"):
            continue
        sym = "¥" if f.get("currency", "USD") == "CNY" or (zh and "currency" not in req.stated) else "$"
        days = f" | {f['gpu_hours'] / req.num_gpus / 24:,.1f}" if req.num_gpus else ""  # (on the user's own cards)
        rows.append(f"| {cn if zh else en} | {f['gpu_hours']:,.0f}{days} | {sym}{f['rent_cost']:,.0f} |")
    name, mname = deps.catalog.gpu(gpu)[0].name, deps.catalog.model(req.model)[0].name
    head = (f"**{mname}：用多少数据、从头预训练还是微调？** 费用由训练 token 数和方法决定（两者差上千倍）：请告诉我方法（预训练 / 全参 / "
            f"LoRA）和数据量（token 或样本数 × 长度）。在此之前，几种常见做法在 {name} 上租用的费用（训练时间估算的默认 MFU，价格表按需价）："
            if zh else
            f"**{mname}: how much data, and from scratch or a fine-tune?** The bill turns on the tokens and the method "
            "(they differ by a factor of a thousand and more): tell me the method (pre-training / full fine-tune / LoRA) "
            f"and the data (tokens, or samples × length). Meanwhile, what each costs renting {name} (the training-time "
            "estimate's default MFU, the price table's on-demand rate):")
    n = req.num_gpus
    table = ((f"| 任务 | 卡时 | {n} 张卡上的天数 | 租用费用 |\n|---|---|---|---|" if zh else
              f"| job | GPU-hours | days on your {n} GPUs | rent |\n|---|---|---|---|") if n else
             ("| 任务 | 卡时 | 租用费用 |\n|---|---|---|" if zh else "| job | GPU-hours | rent |\n|---|---|---|"))
    clar = Clarification(missing=["tokens"], question=("用多少 token 的数据？预训练还是微调？" if zh else
                                                       "How many tokens of data, and pre-training or a fine-tune?"),
                         suggestions=["1T tokens, pre-training", "100M tokens, LoRA"] if not zh else
                         ["预训练 1T token", "LoRA 微调 1 亿 token"])
    body = restate(req, deps.catalog, []) + "\n\n" + head + "\n\n" + table + "\n" + "\n".join(rows)
    slots = req.model_dump(mode="json") | {"awaiting": ["tokens"]}
    return Answer(answer=body, lang=req.lang, intent="cost", tool_calls=calls, clarification=clar,
                  request=req.model_dump(mode="json"), slots=slots, status="needs_clarification")


def _training_bill_without_job(req: Request, question: str, invalid) -> bool:
    """A training bill asked with neither the tokens nor a length of time: '训练一个大模型要多少钱', 'what does it cost
    to train a 7B?'."""
    low = question.lower()
    return (not invalid and req.intent in ("cost", "price") and not req.tokens and not req.samples and not req.period_hours
            and not req.deadline_hours and not req.break_even and not req.price_per_gpu_hour and not req.purchase_price
            and not req.measured_step_s and not req.throughput_tokens_per_s and not req.tokens_per_day
            and not req.reference_per_million and not req.api_spend_per_month and bool(re.search(TRAIN_COST_WORDS, low))
            and not re.search(r"推理|部署|上线|(?<![a-z])(?:serv(?:e|ing)|inference|deploy\w*)(?![a-z])", low))


# 'we have two 8-card A100 servers: is that enough / what can we do with them?': the cards are stated, the job is not
OWNED_ENOUGH = (r"够不够|够用吗|够吗|够了吗|能干(?:点)?(?:啥|什么)|能做(?:点)?(?:啥|什么)|能跑(?:点)?(?:啥|什么)|能用来(?:干|做)|"
                r"(?<![a-z])(?:is (?:that|it|this) enough|enough for us|what can (?:we|i) (?:do|run|train|build)|"
                r"what (?:can|could) (?:these|they|those|it) (?:do|run|handle)|what (?:are|is) (?:they|these|it) good for)(?![a-z])")


def _capacity_of_owned(req: Request, deps: Deps, question: str) -> Answer:
    """'We just got 16 A100 80GB approved. Is that enough for us?': enough turns on the job, so it is asked (which model,
    training or serving, how many users); meanwhile what the cards hold: the largest model served in bf16 and in
    4-bit, the largest trained in full and with LoRA, and pre-training tokens a day for an 8B model."""
    from assistant.request import Clarification

    zh = req.lang == "zh"
    n, gpu = req.num_gpus, deps.catalog.gpu(req.gpu)[0]
    base = {"model": None, "models": [], "largest_model": True}
    lines, calls = [], []

    def run(update: dict) -> dict:
        try:
            a = plan(req.model_copy(update=base | update), deps, question)
        except Exception:  # a capacity the tools cannot give is left out (logged)
            log.exception("capacity of %s x %s failed", n, req.gpu)
            return {}
        calls.extend(a.tool_calls)
        return a.figures if a.status == "answered" else {}

    served = run({"intent": "inference_memory"})
    full = run({"intent": "training_memory", "method": "full"})
    lora = run({"intent": "training_memory", "method": "lora"})
    pre = run({"intent": "training_time", "largest_model": False, "model": "llama-3.1-8b", "models": ["llama-3.1-8b"],
               "method": "pretrain", "tokens": 1e10})
    if served.get("largest_bf16_params_b"):
        lines.append(f"- 推理（上下文 4k、少量并发）：bf16 最大约 **{served['largest_bf16_params_b']:,.0f}B**，4 位量化约 "
                     f"**{served.get('largest_int4_params_b', 0):,.0f}B**" if zh else
                     f"- serving (4k context, a few users): up to **~{served['largest_bf16_params_b']:,.0f}B** in bf16, "
                     f"**~{served.get('largest_int4_params_b', 0):,.0f}B** in 4-bit")
    if full.get("largest_full_params_b") or lora.get("largest_lora_params_b"):
        lines.append(f"- 微调：全参最大约 **{full.get('largest_full_params_b', 0):,.0f}B**，LoRA 约 "
                     f"**{lora.get('largest_lora_params_b', 0):,.0f}B**（显存上限；时间看数据量）" if zh else
                     f"- fine-tuning: full up to **~{full.get('largest_full_params_b', 0):,.0f}B**, LoRA "
                     f"**~{lora.get('largest_lora_params_b', 0):,.0f}B** (memory limits; the time depends on the data)")
    if pre.get("wall_hours"):
        per_day = 1e10 / pre["wall_hours"] * 24
        mfu = pre.get("mfu") or 0.4
        lines.append(f"- 预训练：8B 模型每天约 **{per_day / 1e9:,.1f}B token**（MFU 约 {mfu:.0%}；1T token 约 "
                     f"{1e12 / per_day:,.0f} 天）" if zh else
                     f"- pre-training: an 8B model at **~{per_day / 1e9:,.1f}B tokens a day** (MFU ~{mfu:.0%}; 1T tokens in "
                     f"~{1e12 / per_day:,.0f} days)")
    head = (f"**够不够要看做什么：跑哪个模型，训练还是推理服务，多少人同时用？** 在此之前，{n} 张 {gpu.name} 能做的（按显存和算力）："
            if zh else f"**Enough depends on the job: which model, training or serving, and how many users?** Meanwhile, "
            f"what {n} × {gpu.name} can do (by memory and compute):")
    clar = Clarification(missing=["model", "intent"], question=("跑哪个模型？训练还是推理？多少并发？" if zh else
                                                                "Which model, training or serving, and how many users?"),
                         suggestions=["Llama 3.1 70B, serve 50 users", "Qwen2.5-32B LoRA"] if not zh else
                         ["Qwen2.5-72B 推理 50 并发", "Qwen2.5-32B LoRA 微调"])
    body = restate(req, deps.catalog, []) + "\n\n" + head + "\n" + "\n".join(lines)
    slots = req.model_dump(mode="json") | {"awaiting": ["model"]}
    return Answer(answer=body, lang=req.lang, intent=req.intent, tool_calls=calls, clarification=clar,
                  request=req.model_dump(mode="json"), slots=slots, status="needs_clarification")


def _owned_cards_without_job(req: Request, question: str, invalid) -> bool:
    """Cards stated with a count, no model and no job, and 'enough?' / 'what can we do?' asked."""
    return (not invalid and bool(req.gpu) and bool(req.num_gpus) and "num_gpus" in req.stated and not req.model
            and not req.family and not req.tokens and not req.concurrent_users and not req.requests_per_s
            and not req.largest_model and req.intent in ("spec", "recommend", "compare", "inference_memory",
                                                         "training_memory")
            and bool(re.search(OWNED_ENOUGH, question.lower()))
            and not re.search(r"知识库|问答|客服|助手|聊天|推理|部署|上线|服务|训练|微调|(?<![a-z])(?:rag|chat\w*|bot|assistant|serv\w*|"
                              r"deploy\w*|inference|train\w*|fine[\s-]?tun\w*|app|users?)(?![a-z])", question.lower()))
    # (a job named, 'enough for our knowledge-base Q&A?', is sized as that job with the model asked)


def missing_inputs(req: Request) -> list[str]:
    """The essentials the request lacks for its intent (no sensible default exists for these)."""
    out = []
    needs = NEEDS.get(req.intent, ())
    if req.intent == "training_time" and len(req.gpus) >= 2:
        needs = ()  # a ratio between GPUs hardly depends on the job: defaults are stated instead
    if req.intent in ("training_memory", "inference_memory") and req.largest_model and not req.model:
        needs = ("gpu",)  # 'how big a model can 8 A100s train?': the model is the answer
    if req.intent == "cost" and req.break_even:
        needs = ("gpu",)  # when buying pays back does not depend on a job length
    if req.ratio_only:
        needs = ()  # a ratio between alternatives: the job's defaults are said instead
    for need in needs:
        if need == "gpus":
            if len(req.gpus) < 2:
                out.append("gpus")
        elif need == "period_hours":
            if not req.period_hours and not req.tokens and not req.deadline_hours:
                out.append("period_hours")
            elif req.tokens and not req.period_hours and not req.model:
                out.append("model")
        elif getattr(req, need) in (None, [], 0):
            out.append(need)
    return out


def plan_message(req: Request, deps: Deps, question: str, invalid: list[str] | tuple = ()) -> Answer:
    """The answer to a whole message: one plan per ask it holds (alternatives compared, several values, several
    intents; assistant/readers/asks.py), combined in the order asked; a message with one ask is plan() itself. An
    ask about words beside it ('is NF4 the same thing as AWQ?', '满血 是指 BF16 还是 FP8?') is answered from the tables
    that hold the facts (assistant/terms.py), right under what was understood."""
    try:
        answer = _plan_message(req, deps, question, invalid)
        if req.price_ratios and not req.gpu_rental_prices and not invalid:
            # the rents the stated ratio set, recorded beside the calls that used them
            from assistant.answer import ToolCall

            rates = _ratio_rates(req, deps)
            if rates:
                answer = answer.model_copy(update={"tool_calls": answer.tool_calls + [ToolCall(
                    name="price_from_ratio", args={"ratios": dict(req.price_ratios), "currency": req.currency or (
                        "CNY" if req.lang == "zh" else "USD")}, result={"rent_per_gpu_hour": rates})]})
    except Exception as e:  # a bug outside any one ask's plan: said in words (logged), never a traceback
        log.exception("planning the message failed on %r", question[:200])
        zh = req.lang == "zh"
        msg = (f"这个问题触发了程序错误（{type(e).__name__}），已记录。换个说法，或用计算命令（`gpu-advisor size|time|cost ...`）试试。"
               if zh else f"this question hit an error in the assistant ({type(e).__name__}); it is logged. Rephrasing, or "
               "the calculator commands (`gpu-advisor size|time|cost ...`), may get the answer.")
        return Answer(answer=msg, lang=req.lang, intent=req.intent, warnings=[f"internal error: {e}"], status="error",
                      request=req.model_dump(mode="json"))
    if invalid or answer.status == "error":
        return answer
    from assistant.terms import FULL_MEANING_ASK, SAME_ASK, term_lines

    try:
        from assistant.claims import paged_attention_claim, published_cost_scope, total_read_as_per_user

        job_hours = {(x.request or {}).get("gpu"): x.figures.get("wall_hours") for x in answer.asks
                     if x.intent == "training_time" and x.figures.get("wall_hours")}  # each card's time on the job
        lines = (term_lines(question, req, deps.catalog, deps.prices(), job_hours) + total_read_as_per_user(req) + published_cost_scope(req, question)
                 + paged_attention_claim(req, question, deps.catalog))
    except Exception:  # a word ask that fails is left to the answer below (logged, never a traceback)
        log.exception("answering the asks about words failed on %r", question[:200])
        lines = []
    lines = [x for x in lines if not (x[:12] in ("**Quality**:", "**质量**：") and x[:12] in answer.answer)]
    stack = [x for x in lines if x.startswith(("**Ascend's software stack**", "**昇腾的软件栈**"))]
    if stack:  # (what runs the figures on Ascend: said after them, the verdict first)
        lines = [x for x in lines if x not in stack]
        answer = answer.model_copy(update={"answer": _before_assumptions(answer.answer, stack[0])})
    if not lines:  # (the comparison's own quality line said it already)
        return answer
    head, sep, rest = answer.answer.partition("\n\n")
    if not re.match(r"(?:Understood|理解为)", head):
        head, sep, rest = "", "", answer.answer
    text = (head + sep if head else "") + "\n\n".join(lines) + "\n\n" + rest
    missed = [m for m in answer.not_answered if not re.search(SAME_ASK + "|" + FULL_MEANING_ASK, m.ask.lower())]
    if len(missed) < len(answer.not_answered):
        text = re.sub(r"\n\n\*\*(?:Not answered|未回答)\*\*\n(?:- [^\n]*(?:\n|$))+", "\n\n", text).rstrip() if not missed else text
    return answer.model_copy(update={"answer": text, "not_answered": missed})


def _ratio_rates(req: Request, deps: Deps) -> dict[str, float]:
    """{card: rent per GPU-hour} for the dearer card(s) of a stated price ratio: the cheaper card's typical on-demand
    rate in the price table × the ratio ({} when the cheaper card has no rate)."""
    from tools.pricing import on_demand_rate

    base = next((g for g, r in req.price_ratios.items() if r == 1.0), None)
    rate = on_demand_rate(deps.prices(), base, req.currency or ("CNY" if req.lang == "zh" else "USD")) if base else None
    return {g: round(rate.typical * r, 4) for g, r in req.price_ratios.items() if r != 1.0} if rate else {}


def _prices_from_ratio(req: Request, deps: Deps) -> Deps:
    """The dearer card's on-demand rent set to the cheaper card's (the price table's typical rate) x the ratio the user
    states, for this answer; the cheaper card keeps the table's rate."""
    from knowledge.prices import session_rental_override

    currency = req.currency or ("CNY" if req.lang == "zh" else "USD")
    rates = _ratio_rates(req, deps)
    return deps.with_prices([session_rental_override(g, v, currency) for g, v in rates.items()]) if rates else deps


def _plan_message(req: Request, deps: Deps, question: str, invalid: list[str] | tuple = ()) -> Answer:
    from assistant.multi_ask import combine, own_card_rate, sub_request
    from assistant.readers.asks import find_asks

    req = own_card_rate(req)

    if req.gpu_rental_prices:  # each card's stated rental price replaces the table's for this answer
        from knowledge.prices import session_rental_override

        deps = deps.with_prices([session_rental_override(g, p, req.currency or "USD")
                                 for g, p in req.gpu_rental_prices.items()])
    if req.price_ratios and not req.gpu_rental_prices:
        deps = _prices_from_ratio(req, deps)  # 'H800 租金差不多是 A800 的两倍': the dearer card's rent from the other's
    if req.gpu_purchase_prices:  # each card's stated purchase price replaces the table's (new and used) for this answer
        from knowledge.prices import session_purchase_override

        deps = deps.with_prices([session_purchase_override(g, p, req.currency or "USD", g in req.used_gpus)
                                 for g, p in req.gpu_purchase_prices.items()])

    if _scales_a_quoted_run(req, invalid):  # one job, the quoted run's rate: not split into asks
        return plan(req.model_copy(update={"intent": "training_time"}), deps, question, invalid)
    if not invalid and req.usage_gpu_hours_per_month and (req.break_even or req.purchase_price or
                                                          req.purchase_price_per_server or req.purchase):
        # 'buy a 5090 rig instead of renting H100s; we use 200 H100-hours a month': one comparison, not an ask per card
        return plan(req.model_copy(update={"intent": "cost"}), deps, question, invalid)
    req = _claimed_count_set_aside(req, question)
    if not invalid and req.load_multiplier and req.model and (req.gpu or req.num_gpus):
        # 'users will double next month: do we need 2 more A100s?': today's load against the grown one
        ctx = Ctx(req=req.model_copy(update={"intent": "serving"}), deps=deps, question=question)
        return _finish(ctx, _run(ctx, infer.load_growth))
    if not invalid and req.model and req.intent != "fact_check":
        from assistant.claims import per_stream_times_users

        if per_stream_times_users(question):  # '单路 120 token/s，50 个并发就是 6000 吧？': the claim is the question
            return plan(req.model_copy(update={"intent": "fact_check"}), deps, question, invalid)
    if not invalid and req.model:
        from assistant.plans import formats as format_plans
        from assistant.readers.asks import formats_named

        named = formats_named(question)
        if format_plans.asked(question, named, req):  # 'Q4_K_M、AWQ、GPTQ、FP8、NF4 光权重各占多少？哪些能用 vLLM？'
            ctx = Ctx(req=req, deps=deps, question=question)  # every format named, one table
            return _finish(ctx, _run(ctx, lambda c: format_plans.format_weights(c, named)))
    if _job_hours_on_one_card(req, invalid):  # '200 h on 8x A100 … or 8x H100? which is cheaper?': one job, its
        return plan(req.model_copy(update={"intent": "training_time"}), deps, question, invalid)  # hours carried over
    if (req.per_token_cost or (req.reference_per_million and req.intent == "cost")) and not req.model and \
            (req.gpu or len(set(req.gpus)) >= 2) and not invalid and \
            not req.throughput_tokens_per_s and not req.largest_model:
        return _per_token_by_model_size(req, deps, question)
    if _owned_cards_without_job(req, question, invalid):
        return _capacity_of_owned(req, deps, question)
    if _training_bill_without_job(req, question, invalid) and req.model:
        return _training_cost_by_scale(req, deps, question)
    if not invalid and req.model and req.intent in ("training_memory", "training_time") and not (
            req.tokens or req.samples or req.method or req.methods) and re.search(OWN_MODEL_WORDS, question.lower()):
        # ('We have a DGX. Can we train our own 13B model on it?'): from scratch or a fine-tune, and how much data, is
        # what decides it: asked, with each on the user's cards meanwhile
        return _training_cost_by_scale(req, deps, question)
    try:
        asks = find_asks(question, req, deps.catalog) if not invalid else []
    except Exception:  # finding the asks failed: the message's own reading answers it (logged, never a traceback)
        log.exception("finding the asks failed on %r", question[:200])
        asks = []
    if len(asks) >= 2 and any(a.intent == "out_of_scope" and re.search(COUNT_WORDS + r"|reserve|buy|order", a.text.lower())
                              for a in asks) and _count_for_an_unstated_load(Ctx(req=req, deps=deps, question=question)):
        asks = []  # ('H100 or H200, and how many should we reserve?'): one question, the count by load on each card
    if len(asks) == 1 and asks[0].intent not in (req.intent, "out_of_scope"):
        req = sub_request(req, asks[0])  # the one ask the message makes, read in place of its first reading
    if len(asks) < 2:
        return plan(req, deps, question, invalid)
    try:
        quoted = _quoted_speed_on_another_card(req, deps, question)
    except Exception:  # a check that fails leaves the answer without it (logged, never a traceback)
        log.exception("quoted speed check failed on %r", question[:200])
        quoted = None
    if quoted:  # 'a guy on reddit gets 30 tok/s on his M2 Ultra; what will my M4 Max get?': his figure checked, not used
        req = req.model_copy(update={"premise_notes": [*req.premise_notes, quoted], "throughput_tokens_per_s": None,
                                     "throughput_scope": None})
    try:
        subs = [sub_request(req, a) for a in asks]
        asks, subs = _for_each_method(asks, subs)
        asks, subs = _same_count_for_cards(asks, subs)
        asks, subs = _equal_counts_at_full_load(asks, subs, deps)
        # a stated speedup between the cards compared is used by the comparison (assistant/plans/scaling.py)
        shared = {"speedup", "period_hours"} if req.speedup and len(
            {a.update.get("gpu") for a in asks if a.compare == "gpu"} - {None}) >= 2 else set()
        answers = []
        for i, r in enumerate(subs):
            own_load = r.intent == "serving" and any(k in (asks[i].update or {}) for k in (
                "tokens_per_day", "requests_per_s", "concurrent_users", "daily_active_users"))
            # ('A) 在线客服 QPS 5；B) 离线每天 2 亿 token：各要几张卡'): a workload of its own is sized on its own
            if answers and not asks[i].compare and "num_gpus" not in req.stated and "num_gpus" not in asks[i].update \
                    and not own_load:
                # '…how many GPUs, what speed, and the monthly bill?': a later ask bills the GPUs an earlier one chose
                chosen = next((x.verdict for x in answers if x.verdict and x.verdict.num_gpus and x.status == "answered"
                               and x.verdict.fits is not False and (not r.gpu or x.verdict.gpu == r.gpu)), None)
                # (a count that does not hold the job is not a choice: the later ask finds the count that does)
                if chosen is not None:
                    r = subs[i] = r.model_copy(update={"num_gpus": chosen.num_gpus, "gpu": r.gpu or chosen.gpu})
            if answers and not r.model and r.intent in ("inference_speed", "serving"):
                # 'the biggest model I can ship, and what speed would users see?': the speed of that biggest model
                usable = next((x.figures.get("biggest_usable_model") for x in answers
                               if x.figures.get("biggest_usable_model")), None)
                biggest = next((x.figures.get("largest_int4_params_b") for x in answers
                                if x.figures.get("largest_int4_params_b")), None)
                if usable:  # a real model the first ask named as the biggest usable one, in the format it was sized in
                    fmt = "q4_k_m" if r.engine in ("llamacpp", "ollama") or r.device_kind == "phone" else "int4"
                    r = subs[i] = r.model_copy(update={"model": usable, "precision": fmt, "largest_model": None})
                elif biggest:
                    r = subs[i] = r.model_copy(update={"model": f"{biggest:g}b", "precision": "int4",
                                                       "largest_model": None})
            unfit = [x for a, x in zip(asks, answers) if a.intent == "training_memory" and x.verdict and
                     x.verdict.method == r.method and x.verdict.fits is False] \
                if r.intent == "training_time" and not asks[i].compare else []
            # (of several set-ups compared above, the one a usual change makes fit is the one timed)
            sized = next((x for x in unfit if x.figures.get("fix_fits")), unfit[0] if unfit else None)
            if sized is not None and sized.figures.get("fix_fits") and len(unfit) > 1:
                held = {k: v for k, v in (sized.request or {}).items() if k in ("zero", "offload") and v is not None}
                r = subs[i] = r.model_copy(update=held)
            fix = sized.figures.get("fix_fits") if sized is not None and not (req.methods and len(req.methods) >= 2) \
                else None
            if fix:  # 'LoRA on one A6000: fits? how long?': it fits only with a usual change (above): timed with it, said
                from assistant.plans.train import FIXES

                change = {k: v for k, v in FIXES[fix].change.items() if k in type(r).model_fields}
                timed = plan(r.model_copy(update=change), deps, question, invalid, shared, one_of_several=True)
                en, zh = FIXES[fix].said
                said = f"按上面能放下的改法（{zh}）计算：" if r.lang == "zh" else f"Timed with the change above that fits ({en}): "
                answers.append(timed.model_copy(update={"answer": said + "\n\n" + timed.answer}))
                continue
            if sized is not None:  # 'which are feasible … time per epoch too': a method that does not fit is not timed
                why = ("它在这张卡上放不下（见上），不计算时间" if r.lang == "zh" else
                       "it does not fit on this hardware (above), so it is not timed")
                answers.append(Answer(answer=why, lang=r.lang, intent="training_time", status="answered",
                                      verdict=sized.verdict, request=r.model_dump(mode="json")))
                continue
            answers.append(plan(r, deps, question, invalid, shared, one_of_several=True))
        cheaper = _within_budget_in_fp8(req, asks, subs, answers, deps, question, invalid, shared)
        if cheaper:  # no card's plan fits the budget in the published format; in FP8 one does: those plans, said
            subs, answers = cheaper
        fixed = _held_fixed(req, asks, answers, deps.catalog)
        if fixed:  # cards compared on one format, formats on one GPU count: the alternative is the only change
            subs = [r.model_copy(update=fixed) for r in subs]
            answers = [plan(r, deps, question, invalid, shared, one_of_several=True) for r in subs]
        elif asks and all(a.compare == "model" for a in asks) and \
                any(x.verdict and x.verdict.fits is False for x in answers) and \
                any(x.verdict and x.verdict.fits for x in answers):
            # models compared on the user's cards where some fit in their published format and some do not: those
            # that do not, in the most faithful format that fits the cards (not left at zero sequences)
            answers = [plan(r, deps, question, invalid, set(shared) | {"models_compared"}, one_of_several=True)
                       if x.verdict and x.verdict.fits is False else x for r, x in zip(subs, answers)]
        combined = combine(req, asks, answers, question, deps.prices())
        switch = _switch_verdict(req, asks, subs, deps, question)
        if switch:  # '3) 要是换成一张 L20 48G 会不会更好?': the set-up now against the one asked about, with a verdict
            head, sep, rest = combined.answer.partition("\n\n")
            combined = combined.model_copy(update={"answer": head + sep + switch + "\n\n" + rest})
        return combined
    except Exception:  # splitting the message failed: the message's own reading answers it (logged)
        log.exception("several asks failed on %r", question[:200])
        return plan(req, deps, question, invalid)


SWITCH_ASK = (r"换成|改用|换用|(?:会不会|是不是|能不能)更好|更好吗|更合适|(?:跟|和|与|同)[^，,。？?]{0,16}(?:比|相比|对比)|"
              r"(?<![a-z])(?:instead|would (?:a|an|one|two|the) .{0,30}(?:be )?better|better (?:off|choice)|switch(?:ing)? to|"
              r"compared? (?:to|with)|versus|vs\.?)(?![a-z])")


def _switch_verdict(req: Request, asks: list, subs: list, deps: Deps, question: str) -> str | None:
    """An ask whether another card would be better than the set-up the message is about ('两张 4090 … 要是换成一张 L20
    48G 会不会更好?'): both set-ups' room (sequences of the context that fit) and one stream's decode speed, each from
    the speed estimate, with a verdict and what else differs (cards to split over, a data-centre card)."""
    from tools.infer_speed import InferenceSpeedRequest, estimate_inference_speed

    if not req.model or not req.gpu or req.intent.startswith("training") or req.method in ("full", "lora", "qlora"):
        return None
    alt = next(((a, r) for a, r in zip(asks, subs) if re.search(SWITCH_ASK, a.text.lower()) and r.gpu and
                (r.gpu != req.gpu or (r.num_gpus or 1) != (req.num_gpus or 1))), None)
    if alt is None:
        return None
    zh = req.lang == "zh"
    mine = [r for r in subs if r.gpu == req.gpu and r is not alt[1]] or [req]
    now = next((r for r in mine if (r.num_gpus or 1) == (alt[1].num_gpus or 1)), None) or \
        max(mine, key=lambda r: r.num_gpus or 1)  # ('单机八卡 H20 … 跟八卡 H100 比'): the same count, else the largest
    length = alt[1].context or 4096  # (both at the length the comparison is asked at)
    rows = []
    for r in (now.model_copy(update={"context": length}), alt[1].model_copy(update={"context": length})):
        try:
            model, gpu = deps.catalog.model(r.model)[0], deps.catalog.gpu(r.gpu)[0]
            from tools.formats import runnable_format

            fmt = runnable_format(r.precision or model.native_precision, gpu) or r.precision or model.native_precision
            sp = estimate_inference_speed(InferenceSpeedRequest(model=model, gpu=gpu, num_gpus=r.num_gpus or 1,
                                                                precision=fmt, batch=1, context=r.context or 4096,
                                                                output=256, engine="vllm"))
        except (ValueError, LookupError):
            return None
        rows.append((r.num_gpus or 1, gpu, sp.decode_tokens_per_s_per_seq, sp.max_batch_that_fits or 0, sp.ttft_s))
    (n1, g1, s1, b1, t1), (n2, g2, s2, b2, t2) = rows
    name1, name2 = f"{n1}× {g1.name}", f"{n2}× {g2.name}"
    faster = name1 if s1 > s2 else name2
    roomier = name1 if b1 > b2 else name2
    simpler = name2 if n2 < n1 else name1 if n1 < n2 else None
    ctx_len = length
    if zh:
        text = (f"**两种配置比一比：** {name1}：单路约 {s1:,.0f} token/秒，{ctx_len:,} token 提示的首 token 约 {t1:.2f} 秒，最多同时 "
                f"{b1} 路；{name2}：单路约 {s2:,.0f} token/秒，首 token 约 {t2:.2f} 秒，最多 {b2} 路。解码速度上 **{faster}** 更快"
                f"（看显存带宽），预填充/首 token 上 **{name1 if t1 < t2 else name2}** 更快（看算力），"
                + (f"容量上 **{roomier}** 放得更多。" if b1 != b2 else "容量相当。"))
        if simpler and "geforce" in (g1.name if simpler == name2 else g2.name).lower():
            text += f"{simpler} 卡更少：不用跨卡做张量并行（消费级卡之间只有 PCIe），部署和维护更简单。"
        if g2.form_factor and "pcie" in (g2.form_factor or "").lower() and not g2.name.lower().startswith("nvidia geforce") \
                and "geforce" in g1.name.lower():
            text += f"{g2.name} 是数据中心卡（ECC 显存、服务器散热、厂商支持），适合 7×24 服务。"
    else:
        text = (f"**The two set-ups side by side:** {name1}: one stream ~{s1:,.0f} tokens/s, first token of a {ctx_len:,}-token "
                f"prompt ~{t1:.2f} s, up to {b1} requests at once; {name2}: ~{s2:,.0f} tokens/s, ~{t2:.2f} s, up to {b2}. "
                f"**{faster}** decodes faster (memory bandwidth); **{name1 if t1 < t2 else name2}** prefills faster (compute); "
                + (f"**{roomier}** holds more at once." if b1 != b2 else "they hold about as many at once."))
        if simpler and "geforce" in (g1.name if simpler == name2 else g2.name).lower():
            text += f" {simpler} has fewer cards: no tensor parallelism across them (consumer cards talk over PCIe only), simpler to run."
        if "geforce" in g1.name.lower() and "geforce" not in g2.name.lower():
            text += f" {g2.name} is a data-centre card (ECC memory, server cooling, vendor support) for a 24/7 service."
    return text


def _quoted_speed_on_another_card(req: Request, deps: Deps, question: str) -> str | None:
    """A one-stream speed someone else reports on a card ('guy on reddit gets 30 tok/s on his M2 Ultra'), in a message
    that asks about other cards: checked against that card's hard ceiling (every byte a token reads, at the full memory
    bandwidth) and the estimate there, and said not to be scaled to the user's card. None when no such quote."""
    from assistant.readers.names import find_names
    from assistant.readers.slots import QUOTED_SOURCE, TPS_RATE, w
    from tools.infer_speed import InferenceSpeedRequest, estimate_inference_speed, single_stream_ceiling

    low = question.lower()
    if not (req.model and req.throughput_tokens_per_s and len(set(req.gpus or [])) >= 2 and re.search(QUOTED_SOURCE + r"|" +
            w(r"reddit|twitter|says?|said|guy|someone|he gets|she gets|they get|claims?") + r"|看到|听说|有人|知乎|说", low)):
        return None
    sentence = next((x for x in re.split(r"(?<=[。？！；])|(?<=[.?!;])\s+", low) if re.search(TPS_RATE, x)), "")
    cards = find_names(sentence, deps.catalog)[0].gpus
    if not cards or any(re.search(r"(?<![a-z])(?:i|we|my|our)(?![a-z])|我们|我", sentence[:m.start()])
                        for m in [re.search(TPS_RATE, sentence)]):
        return None  # (the user's own measurement is another matter: it carries to their job)
    zh = req.lang == "zh"
    many = re.search(r"(?<![\d.])(\d{1,2})\s*(?:x|×|张|块)\s*(?:nvidia\s*|rtx\s*|geforce\s*)?[a-z]{0,3}\s*\d{2,4}", sentence)
    n = int(many.group(1)) if many and 2 <= int(many.group(1)) <= 16 else 1  # ('35 tok/s with 2x 3090': both cards)
    try:
        model, gpu = deps.catalog.model(req.model)[0], deps.catalog.gpu(cards[0])[0]
        fmt = req.precision if req.precision not in (None, "int4") else (
            "q4_k_m" if "q4_k_m" in (req.checkpoint_format or "") or gpu.vendor == "Apple" else req.precision)
        engine = "llamacpp" if gpu.vendor == "Apple" or (str(fmt).startswith("q") and n == 1) else "vllm"
        # (several cards: the most a stream can get is tensor parallelism over all of them (exllama, vLLM); llama.cpp's
        # layer split reads them one after another, one card's speed)
        sr = InferenceSpeedRequest(model=model, gpu=gpu, num_gpus=n, precision=fmt, batch=1, context=2048, output=256,
                                   engine=engine)
        nbytes, ceiling = single_stream_ceiling(sr)
        est = estimate_inference_speed(sr).decode_tokens_per_s_per_seq
    except (ValueError, LookupError, ZeroDivisionError):
        return None
    quoted = req.throughput_tokens_per_s
    if quoted <= 1.35 * est:
        return None  # (plausible on that card: nothing to correct)
    above = quoted > ceiling
    if n > 1:  # the quote names several cards: said with all of them
        return (f"有人说的 {quoted:g} token/秒（{n} 张 {gpu.name} 跑 {model.name} {fmt}）" + (
            f"超过了物理上限：每个 token 要读 {nbytes / 1e9:,.1f} GB 权重，{n} × {gpu.memory_bandwidth_gbps:,.0f} GB/s 张量并行时最多 "
            f"{ceiling:,.1f} token/秒" if above else f"要靠张量并行（exllama、vLLM）才可能，上限 {ceiling:,.1f}；llama.cpp 按层切分时"
            f"两张卡依次读，约 {ceiling / n:,.1f}") + "。这里不拿它来推算你的卡" if zh else
            f"the quoted {quoted:g} tokens/s ({model.name} {fmt} on {n}× {gpu.name}) " + (
                f"is above what those cards can do: each token reads {nbytes / 1e9:,.1f} GB of weights, and {n} × "
                f"{gpu.memory_bandwidth_gbps:,.0f} GB/s in tensor parallel allows at most {ceiling:,.1f} tokens/s" if above else
                f"is possible only with tensor parallelism (exllama, vLLM), ceiling {ceiling:,.1f}; llama.cpp's layer split "
                f"reads the cards one after another, about {ceiling / n:,.1f} at most") + ". It is not scaled to your card here")
    return (f"有人说的 {quoted:g} token/秒（{gpu.name} 跑 {model.name} {fmt}）" + (
        f"超过了这张卡的物理上限：每个 token 要读 {nbytes / 1e9:,.1f} GB 权重，{gpu.memory_bandwidth_gbps:,.0f} GB/s 的带宽最多 "
        f"{ceiling:,.1f} token/秒" if above else f"比估算的 {est:,.1f} token/秒 高得多（上限 {ceiling:,.1f}）")
        + "；可能是更小的模型、预填充速度或投机解码的数字。这里不拿它来推算你的卡" if zh else
        f"the quoted {quoted:g} tokens/s ({model.name} {fmt} on {gpu.name}) " + (
            f"is above what that card can do: each token reads {nbytes / 1e9:,.1f} GB of weights, and "
            f"{gpu.memory_bandwidth_gbps:,.0f} GB/s allows at most {ceiling:,.1f} tokens/s" if above else
            f"is far above the estimate there, {est:,.1f} tokens/s (ceiling {ceiling:,.1f})")
        + "; it is likely a smaller model, a prompt-processing figure or speculative decoding. It is not scaled to "
          "your card here")


def _within_budget_in_fp8(req: Request, asks: list, subs: list, answers: list, deps: Deps, question: str, invalid,
                          shared) -> tuple[list, list] | None:
    """Cards to buy for a serving load under a budget ('预算 30 万 … 4090D ¥1.4 万/张，H20 ¥11 万/张'), no format stated:
    when no plan in the published format fits the budget, each card that computes in FP8 is planned in FP8 (half the
    weight memory, twice the prefill peak); when one of those fits, they replace the 16-bit plans, each saying why."""
    from assistant.multi_ask import plan_capex
    from tools.formats import supported_on

    if not req.budget or req.precision or len(asks) < 2 or not all(a.compare == "gpu" for a in asks) or \
            subs[0].intent != "serving" or not all((a.update or {}).get("purchase_price") or
                                                   (a.update or {}).get("purchase_price_per_server") for a in asks):
        return None
    from tools.purchase import MIN_USABLE_TOKENS_PER_S

    def carries(x) -> bool:  # the plan's users each get a usable speed (a plan too slow per user carries nothing)
        itl = x.figures.get("serve_itl_ms")
        return not itl or 1000 / itl >= MIN_USABLE_TOKENS_PER_S

    costs = [plan_capex(a, x) for a, x in zip(asks, answers)]
    if any(c is None for c in costs) or any(c.total <= req.budget and carries(x) for c, x in zip(costs, answers)):
        return None
    subs8 = [r.model_copy(update={"precision": "fp8"}) if r.gpu and supported_on("fp8", deps.catalog.gpu(r.gpu)[0])[0]
             else r for r in subs]
    if all(r.precision != "fp8" for r in subs8):
        return None
    answers8 = [plan(r, deps, question, invalid, shared, one_of_several=True) if r.precision == "fp8" else x
                for r, x in zip(subs8, answers)]
    costs8 = [plan_capex(a, x) for a, x in zip(asks, answers8)]
    if any(c is None for c in costs8) or not any(c.total <= req.budget and carries(x) for c, x in zip(costs8, answers8)):
        return None
    zh = req.lang == "zh"
    said = ("（按官方格式，没有一个方案能在预算内、以可用的单路速度扛住这个负载：这里改用 FP8 权重，显存减半、预填充算力翻倍，"
            "质量损失通常很小）" if zh else
            f"(in the published format no plan carries this load at a usable speed per user within the {req.budget:,.0f} "
            "budget: planned here with FP8 weights, half the memory and twice the prefill peak, usually at a small quality "
            "cost)")
    answers8 = [x.model_copy(update={"answer": said + "\n\n" + x.answer}) if r.precision == "fp8" else x
                for r, x in zip(subs8, answers8)]
    return subs8, answers8


def _same_count_for_cards(asks: list, subs: list) -> tuple[list, list]:
    """'64 张 H20 … H20 比 H100 强吗，要训多久': cards compared for a training time where only one carries the count: the
    others are timed on the same count, so the cards are all that differs (said in each title)."""
    if not asks or not all(a.compare == "gpu" for a in asks) or subs[0].intent != "training_time":
        return asks, subs
    counts = {a.update.get("num_gpus") for a in asks} - {None}
    if len(counts) != 1 or all(a.update.get("num_gpus") for a in asks):
        return asks, subs
    n = counts.pop()
    out_a, out_s = [], []
    for a, r in zip(asks, subs):
        if not a.update.get("num_gpus"):
            a = a.model_copy(update={"text": f"{n}× {a.text}", "update": a.update | {"num_gpus": n}})
            r = r.model_copy(update={"num_gpus": n})
        out_a.append(a)
        out_s.append(r)
    return out_a, out_s


def _equal_counts_at_full_load(asks: list, subs: list, deps: Deps) -> tuple[list, list]:
    """'compare this card vs H100 for serving Llama 3.1 70B' with no counts: each card's full-load rate on its own
    fewest GPUs compares 2 cards with no room for requests against 4 with plenty; all are timed on the same count, the
    most any of them needs (a tensor-parallel size), so the cards are what differs (said in each title)."""
    from assistant.plans.infer import fits_on

    if len(asks) < 2 or not all(a.compare == "gpu" for a in asks) or subs[0].intent != "inference_speed" or \
            not all(r.max_throughput for r in subs) or any(a.update.get("num_gpus") for a in asks) or \
            any(r.num_gpus for r in subs) or not subs[0].model:
        return asks, subs
    try:
        model = deps.catalog.model(subs[0].model)[0]
        mins = []
        for r in subs:
            gpu = deps.catalog.gpu(r.gpu)[0]
            fmt = r.precision or model.native_precision
            x = fits_on(model, gpu, 1, fmt, 4096)
            mins.append(1 if x.fits else (x.min_gpus or 0))
    except (LookupError, ValueError):
        return asks, subs
    if not all(mins) or len(set(mins)) == 1:
        return asks, subs
    n = next(t for t in (1, 2, 4, 8, 16, 32) if t >= max(mins))
    out_a = [a.model_copy(update={"text": f"{n}× {a.text}", "update": a.update | {"num_gpus": n}}) for a in asks]
    out_s = [r.model_copy(update={"num_gpus": n}) for r in subs]
    return out_a, out_s


_FOR_EACH = re.compile(r"for (?:each|both|all)(?: of them| method| option)?|each of them|both of them|分别|各自|每种|两种都|各要")


def _for_each_method(asks: list, subs: list) -> tuple[list, list]:
    """'(a) full fine-tune fit? (b) LoRA memory? (c) time for each?': an ask 'for each' of the methods the earlier asks
    named is asked once per method, in their order."""
    from assistant.readers.asks import Ask

    out_a, out_s = [], []
    for i, (a, r) in enumerate(zip(asks, subs)):
        earlier = list(dict.fromkeys(x.method for x in subs[:i] if x.method in ("full", "lora", "qlora")))
        if r.intent in ("training_time", "training_memory", "cost") and len(earlier) >= 2 and _FOR_EACH.search(a.text.lower()):
            for m in earlier:
                out_a.append(Ask(text=f"{a.text} ({m})", intent=a.intent, update=a.update | {"method": m, "methods": []}))
                out_s.append(r.model_copy(update={"method": m, "methods": []}))
            continue
        out_a.append(a)
        out_s.append(r)
    return out_a, out_s


def _held_fixed(req: Request, asks, answers, catalog) -> dict:
    """What to hold equal across alternatives the user left open, so that the one named is all that differs: several
    cards timed for one model with no format stated are each answered in the best format they hold, so all are
    re-timed in the most compressed of those (a Mac in Q8_0 against a 4090 in Q4_K_M compares formats, not cards);
    formats compared with no GPU count stated each take the fewest GPUs that hold them, so all are re-timed on the
    largest of those counts (FP8 on one H100 against BF16 on two compares counts, not formats). {} when nothing
    differs or the user stated it."""
    from tools.formats import weight_format

    if not answers or answers[0].intent not in ("inference_speed", "serving") or not any(a.compare for a in asks):
        return {}
    done = [x for x in answers if x.status == "answered"]
    settings = {a.compare for a in asks if a.compare}
    if not req.precision and len({tuple(a.update.get("gpus") or [a.update.get("gpu")]) for a in asks}) >= 2:
        fmts = {x.figures.get("precision") for x in done} - {None}
        if len(fmts) >= 2:
            return {"precision": min(fmts, key=lambda f: weight_format(f).bits)}
    counted = "gpu" in settings and all(a.update.get("num_gpus") for a in asks if a.compare == "gpu")
    if not req.precision and ("model" in settings or counted) and done and len(done) == len(answers) and \
            all(x.verdict and not x.verdict.fits for x in done):
        # models compared, or set-ups of stated sizes ('2x H100 TP2 or 1x H200?'), where none holds the job in the
        # published format: compared in FP8 (or INT8 where a card lacks FP8), where they may
        cards = {x.request.get("gpu") for x in done if x.request} - {None}
        try:
            fp8 = bool(cards) and all(catalog.gpu(g)[0].fp8_dense_tflops for g in cards)
        except LookupError:
            fp8 = False
        return {"precision": "fp8" if fp8 else "int8"}
    if not req.num_gpus and settings & {"precision", "kv_dtype"}:
        counts = {x.verdict.num_gpus for x in done if x.verdict and x.verdict.num_gpus} - {None}
        if len(counts) >= 2:
            return {"num_gpus": max(counts)}
    return {}


def _tp_problem(ctx: Ctx) -> str | None:
    """A tensor-parallel size the model's attention cannot split over (vLLM and SGLang need the attention heads to
    divide by TP, and the KV heads to divide by it or it by them): what is wrong and the sizes that work."""
    try:
        model = ctx.model()
    except Exception:
        return None
    from tools.infer_memory import tp_ok

    tp, heads, kv = ctx.req.tensor_parallel, model.num_attention_heads, model.num_kv_heads
    if tp_ok(model, tp):
        return None
    good = [t for t in (1, 2, 4, 8, 16, 32) if tp_ok(model, t)]
    return (f"TP={tp} does not work for {model.name}: its {heads} attention heads and {kv} KV heads must split evenly "
            f"over the tensor-parallel GPUs (vLLM and SGLang refuse it); TP sizes that work: {', '.join(map(str, good))}, "
            f"or {tp} GPUs as pipeline stages (--pipeline-parallel-size {tp})")


def _has_bandwidth(ctx: Ctx) -> bool:
    try:
        return bool(ctx.gpu().memory_bandwidth_gbps)
    except Exception:
        return True  # an unknown name: the handler says so


def _unsupported_precision(ctx: Ctx) -> None:
    """BF16 asked on a card without it (V100, T4: compute capability 7.x) or FP8 on one without FP8 tensor cores:
    said first, with what the card runs instead (the sizes stay those of a 16-bit or 8-bit format)."""
    try:
        gpu = ctx.gpu()
    except Exception:
        return
    p = ctx.req.precision
    if p == "bf16" and (gpu.supports_bf16 is False or (gpu.supports_bf16 is None and not gpu.bf16_dense_tflops
                                                          and gpu.fp16_dense_tflops)):
        ctx.assume(f"{gpu.name} has no BF16 (before compute capability 8.0): it runs FP16 instead (mixed precision with "
                   "loss scaling to train), same memory, at its FP16 rate",
                   f"{gpu.name} 不支持 BF16（算力架构 8.0 之前）：改用 FP16（训练用混合精度加 loss scaling），显存相同，"
                   "速度按 FP16 算力")
    elif p == "fp8" and gpu.fp8_dense_tflops is None and gpu.vendor not in ("custom",):
        ctx.assume(f"{gpu.name} has no FP8 tensor cores: FP8 weights load at 8 bits but compute in 16-bit "
                   "(weight-only), so no FP8 speed-up",
                   f"{gpu.name} 没有 FP8 张量核心：FP8 权重按 8 位存放但以 16 位计算（仅权重量化），没有 FP8 提速")


MAC_OS_RESERVE_GB = 16  # left to macOS and apps when the GPU's wired-memory limit is raised (an assumption, said)


def _mac_gpu_limit(ctx: Ctx) -> None:
    """A Mac whose default GPU limit (about 75% of unified memory) holds the model in no format, but would with the
    limit raised to all but MAC_OS_RESERVE_GB (`sudo sysctl iogpu.wired_limit_mb=N`, what people running large
    models on Macs do): answered with the raised limit, said with the command."""
    from tools.infer_memory import InferenceMemoryRequest, estimate_inference_memory

    try:
        gpu, model = ctx.gpu(), ctx.model()
    except Exception:
        return  # an unknown name: the handler says so
    if gpu.vendor != "Apple" or gpu.memory_gb < 2 * MAC_OS_RESERVE_GB:
        return
    fmt = ctx.req.precision or "q4_k_m"
    context = ctx.req.context or 4096
    probe = lambda g: estimate_inference_memory(InferenceMemoryRequest(model=model, gpu=g, precision=fmt, context=context))
    at_default = probe(gpu)
    if at_default.fits and at_default.usable_gb and at_default.per_gpu_gb <= TIGHT_SHARE * at_default.usable_gb:
        return
    if at_default.fits:  # it fits, tightly, at the default limit: the raised limit is the headroom, said
        mb = int((gpu.memory_gb - MAC_OS_RESERVE_GB) * 1024)
        ctx.notes.append(ctx.t(f"macOS caps the GPU at {gpu.usable_share:.0%} of unified memory by default; raising it "
                               f"(`sudo sysctl iogpu.wired_limit_mb={mb}`, leaving {MAC_OS_RESERVE_GB} GB to macOS) gives "
                               f"{gpu.memory_gb - MAC_OS_RESERVE_GB:g} GB for longer contexts or more users",
                               f"macOS 默认只让 GPU 用统一内存的 {gpu.usable_share:.0%}；把上限提高（`sudo sysctl "
                               f"iogpu.wired_limit_mb={mb}`，给 macOS 留 {MAC_OS_RESERVE_GB} GB）可用 "
                               f"{gpu.memory_gb - MAC_OS_RESERVE_GB:g} GB，上下文更长或人更多都有余地"))
        return
    share = (gpu.memory_gb - MAC_OS_RESERVE_GB) / gpu.memory_gb
    raised = gpu.model_copy(update={"usable_share": share})
    if not probe(raised).fits:
        return
    ctx.gpu_overrides[gpu.id] = raised
    mb = int((gpu.memory_gb - MAC_OS_RESERVE_GB) * 1024)
    ctx.assume(f"the Mac's GPU memory limit raised from {gpu.usable_share:.0%} to {share:.0%} of {gpu.memory_gb:g} GB "
               f"(`sudo sysctl iogpu.wired_limit_mb={mb}`, leaving {MAC_OS_RESERVE_GB} GB to macOS): at the default "
               "limit it does not fit", f"把 Mac 的 GPU 内存上限从 {gpu.usable_share:.0%} 提到 {share:.0%}"
               f"（`sudo sysctl iogpu.wired_limit_mb={mb}`，给 macOS 留 {MAC_OS_RESERVE_GB} GB）：默认上限下放不下")


def _window(ctx: Ctx) -> int | None:
    """The model's maximum context (its position range), or None for a model without one or none named."""
    try:
        return ctx.deps.catalog.model(ctx.req.model)[0].max_context if ctx.req.model else None
    except Exception:  # an unknown model is said by its handler
        return None


def _extended_window(ctx: Ctx) -> int | None:
    """The longest context the model card documents with rope scaling (YaRN), or None."""
    try:
        return ctx.deps.catalog.model(ctx.req.model)[0].max_context_extended if ctx.req.model else None
    except Exception:
        return None


_POOLED = (r"统一显存|显存叠加|显存合并|合并显存|共享显存|一块大显存|(?<![a-z])(?:unified|pooled|combined|shared)\s+"
           r"(?:vram|gpu memory|memory)")  # GPU memory called one pool


def _pooled_memory_claim(ctx: Ctx) -> None:
    """'4x RTX 4090 linked with NVLink gives 96GB of unified VRAM': a card without NVLink, or GPU memory called one
    pool: said first (cards are joined over PCIe or NVLink, each still holds only its own memory; a model is split
    across them by tensor or pipeline parallelism)."""
    low = ctx.question.lower()
    pooled = re.search(_POOLED, low)
    if not ctx.req.gpu or not (pooled or "nvlink" in low):
        return
    try:
        gpu = ctx.deps.catalog.gpu(ctx.req.gpu)[0]
    except Exception:
        return
    if gpu.vendor == "Apple":
        return
    n = ctx.req.num_gpus or 1
    parts_en, parts_zh = [], []
    if "nvlink" in low and not gpu.nvlink_gbps:
        parts_en.append(f"the {gpu.name} has no NVLink connector ({gpu.interconnect}): the cards talk over PCIe")
        parts_zh.append(f"{gpu.name} 没有 NVLink 接口（{gpu.interconnect}）：卡之间只能走 PCIe")
    if n > 1 and pooled:
        parts_en.append(f"{n} × {gpu.memory_gb:g} GB is not one {n * gpu.memory_gb:g} GB pool: each card holds only its own "
                        f"{gpu.memory_gb:g} GB and a model is split across them (tensor or pipeline parallelism), with "
                        "copies and buffers on every card")
        parts_zh.append(f"{n} × {gpu.memory_gb:g} GB 不是一块 {n * gpu.memory_gb:g} GB 的统一显存：每张卡只有自己的 "
                        f"{gpu.memory_gb:g} GB，模型要切到各卡上（张量并行或流水并行），每张卡还有各自的副本和缓冲")
    if parts_en:
        ctx.assume("Correction: " + "; ".join(parts_en), "更正：" + "；".join(parts_zh))


def _modified_cards(ctx: Ctx) -> None:
    """A modified card ('魔改 4090 48G'): what it is and what it risks, said in the answer that uses it."""
    for gid in dict.fromkeys([g for g in [ctx.req.gpu, *(ctx.req.gpus or [])] if g]):
        try:
            gpu = ctx.deps.catalog.gpu(gid)[0]
        except Exception:
            continue
        if gpu.modified:
            ctx.assume(f"{gpu.name}: {gpu.modified}", f"{gpu.name}：{gpu.modified_zh or gpu.modified}")


def _stated_gpu_link(ctx: Ctx) -> None:
    """'over PCIe' / 'with NVLink' for a speed or serving answer: the link tensor parallelism runs over. PCIe stated for
    a card with a fabric drops the fabric (a PCIe-only box); NVLink stated for a card without one is corrected where
    the premises are checked."""
    for gid in dict.fromkeys([g for g in [ctx.req.gpu, *(ctx.req.gpus or [])] if g]):
        try:
            gpu = ctx.deps.catalog.gpu(gid)[0]
        except Exception:
            continue
        gpu = ctx.gpu_overrides.get(gpu.id, gpu)
        fabric = gpu.scale_up_fabric(2)
        if ctx.req.interconnect == "pcie" and fabric:
            ctx.gpu_overrides[gpu.id] = gpu.model_copy(update={"nvlink_gbps": None})
            ctx.assume(f"{gpu.name}: GPUs talk over PCIe as stated (no {fabric}), so tensor parallelism pays PCIe "
                       "all-reduces", f"{gpu.name}：按你说的走 PCIe（不用 {fabric}），张量并行的 all-reduce 走 PCIe")
        ctx.used.add("interconnect")


def _beyond_the_limit(ctx: Ctx, limit: int) -> None:
    """A context longer than the model takes ('10M tokens on Llama 3.1 8B'): said first, the job sized at the model's
    own maximum, and what the asked length would hold in KV cache alone (so the user sees why no card count helps)."""
    from tools.infer_memory import kv_cache_bytes

    req = ctx.req
    asked = req.context
    if asked <= limit * 1.05:  # '1M' on a 1,010,000-token model: the model's own window, a rounding apart
        ctx.req = req.model_copy(update={"context": limit})
        ctx.as_stated["context"] = asked
        ctx.assume(f"{asked:,} tokens read as the model's whole window, {limit:,}",
                   f"{asked:,} token 按模型的完整窗口 {limit:,} 计算")
        return
    line_en = line_zh = ""
    try:
        spec = ctx.deps.catalog.model(req.model)[0]
        kv_gb = kv_cache_bytes(spec, req.kv_dtype or "bf16", asked) / 1e9
        line_en = (f"; at {asked:,} tokens the KV cache alone would be {kv_gb:,.0f} GB per sequence, but the model's "
                   f"position range ends at {limit:,}, so no number of GPUs makes it work: retrieval (RAG), chunked "
                   "summarisation or a model with a longer window are the ways to use a longer archive")
        line_zh = (f"；{asked:,} token 仅 KV cache 每条序列就要 {kv_gb:,.0f} GB，但模型的位置范围只到 {limit:,}，加多少张卡都不行："
                   "更长的资料要用检索（RAG）、分块摘要，或换一个窗口更长的模型")
    except Exception:  # a model without a KV shape: the limit is still said
        log.exception("KV at the asked length failed for %r", req.model)
    ctx.req = req.model_copy(update={"context": limit})
    ctx.as_stated["context"] = asked  # the request reports what was asked; the assumption says what was computed
    ctx.assume(f"{asked:,} tokens is beyond the model's maximum context of {limit:,}: it cannot be served at that length; "
               f"sized at the model's maximum, {limit:,}" + line_en,
               f"{asked:,} token 超过了模型的最大上下文 {limit:,}：这个长度根本跑不了；按模型的最大上下文 {limit:,} 计算" + line_zh)


SHORT_CHAT_PROMPT, SHORT_CHAT_OUTPUT = 1024, 256  # a chat turn with a little history, and its reply
DAILY_PEAK = 2.0  # a day's busiest hours over its average request rate: commonly 2-3x for business traffic (assumed, said)
LONG_AGENT_CONTEXT = 32_768  # a coding agent's request: open files, repository context and the conversation so far
CODING_AGENT = r"agent|智能体|ide|插件|代码|编程|coding|code (?:assistant|completion|model)|copilot|cursor|codebase|repo"
LONG_DOCUMENT_CONTEXT = 16_384  # a few dozen pages in and a summary out; RAG prompts with several retrieved chunks


# a count someone else states ("the vendor's sizing doc: 'requires 8x H100'", '销售说要 16 张'): a claim, not the cards
_CLAIMED_BY = (r"(?:vendor|sales|doc|sizing|says?|said|claims?|recommends?|requires?|quote[sd]?|proposal|they|"
               r"厂商|销售|供应商|方案|报价|文档|说|建议|推荐|要求)")


def _claimed_count_set_aside(req: Request, question: str) -> Request:
    """'pasting the vendor's doc: "70B requires 8x H100" … how many H100s do we actually need?': the count asked is
    the answer; the quoted count is a claim to judge (said beside the plan), not the user's cards."""
    from assistant.readers.slots import COUNT_ASK

    n = req.num_gpus
    if not n or "num_gpus" not in req.stated or req.intent not in ("serving", "inference_memory"):
        return req
    low = question.lower()
    if not re.search(COUNT_ASK, low) or re.search(rf"(?:(?<![a-z])(?:we|i) (?:have|own|got|bought)|我们有|我有|现有|手上有|已经有)"
                                                  rf"\s*(?:about\s+|~)?{n}(?![\d.])", low):
        return req  # ('we have 8 H100s: how many do we need?': the user's cards, judged by the plan)
    at = re.search(rf"(?<![\d.]){n}\s*(?:x|×|\*|张|块|台)?\s*(?:nvidia\s*)?[a-z]*\d", low)
    if not at:
        return req
    before = re.sub(r"(\d)\.(\d)", r"\1\2", low[:at.start()])  # ('Qwen2.5': a decimal point ends no sentence)
    singles = len(re.findall(r"(?<![a-z])'|'(?![a-z])", before))  # (not the apostrophe of "we're", "what's")
    quoted = singles % 2 == 1 or before.count('"') % 2 == 1 or before.count("“") > before.count("”") or \
        before.count("‘") > before.count("’")
    if not (quoted or re.search(_CLAIMED_BY + r"[^.。?？]{0,40}$", before)):
        return req
    note = (f"关于卡数：消息里的 {n} 张是别人的说法，不是你们的卡；下面按你们的负载算需要几张" if req.lang == "zh" else
            f"The {n} GPUs in the message are someone else's claim, not your cards: the count below is what your load needs")
    return req.model_copy(update={"num_gpus": None, "stated": [k for k in req.stated if k != "num_gpus"],
                                  "premise_notes": [*req.premise_notes, note]})


def _job_hours_on_one_card(req: Request, invalid) -> bool:
    """A training job's length stated on one card and its cost asked against other cards ('LoRA … our estimate is
    200 hours on 8x A100; rent that at $1.3, or 8x H100 at $2.40? which is cheaper?'): the other cards run it in
    fewer or more hours, by the speed ratio, never the same hours (assistant/plans/train.py)."""
    return (not invalid and req.intent in ("cost", "compare") and len(set(req.gpus)) >= 2 and "period_hours" in req.stated
            and (req.period_hours or 0) < 24 * 90  # ('打算用一两年': a horizon of use, not one job's length)
            and bool(req.model) and req.method in ("full", "lora", "qlora", "pretrain") and not req.tokens
            and not req.samples and not req.speedup and not req.deadline_hours)


def _scales_a_quoted_run(req: Request, invalid) -> bool:
    """'Using their number', with no GPUs (or no model) of the job's own: the quoted run's rate sizes the job; a job with
    its model and GPUs is timed at the run's implied MFU by the training-time answer instead."""
    return bool(req.scale_run and req.tokens and not invalid and not (req.model and req.gpu and req.num_gpus))


TRAIN_ONLY_INTENTS = ("training_time", "training_memory")


def plan(req: Request, deps: Deps, question: str, invalid: list[str] | tuple = (), shared=frozenset(),
         one_of_several: bool = False) -> Answer:
    """The answer for an understood question; `shared`: inputs a comparison across the message's asks uses."""
    handlers = {"training_memory": train.training_memory, "training_time": train.training_time,
                "inference_memory": infer.inference_memory, "serving": infer.serving,
                "inference_speed": infer.inference_speed, "price": money.price, "cost": money.cost,
                "published_run": facts.published_run, "recommend": facts.recommend,
                "compare": facts.compare, "spec": facts.spec, "fact_check": facts.fact_check,
                "explain": facts.explain}
    ctx = Ctx(req=req, deps=deps, question=question, shared=frozenset(shared), one_of_several=one_of_several)
    tokens_defaulted = False  # (set where the compute-optimal token budget stands in for an unstated one)
    long_context_assumed = False  # (set where a long-document context stands in for an unstated one)
    if req.price_ratios and not req.gpu_rental_prices:  # (the prices themselves were set in plan_message)
        ctx.used.add("price_ratios")
        base = next((g for g, r in req.price_ratios.items() if r == 1.0), "")
        for g, r in req.price_ratios.items():
            if r != 1.0:
                ctx.assume(f"{g}'s rent = {base}'s (the price table's typical on-demand rate) × {r:g}, as you said",
                           f"{g} 的租金 = {base} 的（价格表按需典型价）× {r:g}（按你说的比例）")
    if _scales_a_quoted_run(req, invalid):
        return _finish(ctx, _run(ctx, train.scaled_published_run))
    if req.largest_model and req.num_gpus and (req.period_hours or req.deadline_hours) and re.search(
            r"chinchilla|compute[\s-]*optimal|算力最优|(?:pre[\s-]?train|from scratch|预训练|从头训)", question.lower()):
        # '256 H100s for 30 days: the biggest model we can train Chinchilla-optimally?': the budget, not the memory
        ctx.req = req.model_copy(update={"intent": "training_time"})
        return _finish(ctx, _run(ctx, train.compute_optimal))
    if req.model and req.num_gpus and (req.period_hours or req.deadline_hours) and not req.tokens and re.search(
            r"(?:多少|几)\s*(?:个)?\s*token|(?:喂|训)(?:多少|几)|(?<![a-z])how many tokens|token budget|how much data", question.lower()) \
            and re.search(r"训|(?<![a-z])(?:train\w*|pre[\s-]?train\w*)", question.lower()):
        # '13B 基座，128 张 H800、3 个月：最多能喂多少 token？': the tokens the compute buys for that model
        ctx.req = req.model_copy(update={"intent": "training_time"})
        return _finish(ctx, _run(ctx, train.tokens_in_window))
    no_model = not (req.model or req.models or req.family or req.unknown_model)
    any_model = no_model and _training_bill_without_job(req, question, ())  # '训练一个大模型大概要花多少钱？'
    if no_model and not req.gpu and req.intent in ("price", "cost") and \
            re.search(r"训练|训|(?<![a-z])(?:train\w*|pre[\s-]?train\w*)", question.lower()) and \
            re.search(OWN_MODEL_WORDS, question.lower()) or any_model:
        req = req.model_copy(update={"intent": "training_time"})  # '训练一个我们自己的大模型要多少钱？': a training job's cost
    if no_model and req.intent in ("training_time", "training_memory") and (req.budget or any_model or re.search(
            OWN_MODEL_WORDS, question.lower())) and not req.tokens:
        # '训练一个我们自己的大模型需要多少张卡、多长时间？预算 500 万': what such a model usually is, each priced
        ctx.req = req.model_copy(update={"intent": "training_time"})
        return _finish(ctx, _run(ctx, train.own_model_scenarios))
    if req.model and not (req.gpu or req.gpus or req.num_gpus) and req.intent in ("cost", "price", "recommend") and not (
            req.tokens or req.period_hours or req.price_per_gpu_hour or req.tokens_per_day or req.api_spend_per_month
            or req.method in ("full", "lora", "qlora", "pretrain")) and re.search(money.DEPLOY_COST_ASK, question.lower()):
        # '本地部署 DeepSeek 大概要花多少钱，什么量级？': the machines that run it, priced to buy (whole boxes)
        update = {"intent": "recommend", "purchase": True}
        if not (req.concurrent_users or req.team_size or req.daily_active_users or req.requests_per_s) and re.search(
                r"公司|老板|部门|团队|企业|内部|(?<![a-z])(?:company|team|boss|internal|business|org\w*)(?![a-z])",
                question.lower()):
            # (a company's deployment is no one-person desk machine: a few people at once, said, and asked)
            update["concurrent_users"] = COMPANY_IN_FLIGHT
            ctx.assume(f"{COMPANY_IN_FLIGHT} requests in flight at the busiest moment: a company deployment serves several "
                       "people at once (an assumption; give your users to replace it)",
                       f"最忙时同时 {COMPANY_IN_FLIGHT} 个请求：公司部署是多人同时用（假设值；给出实际用户数可替换）")
            ctx.clarify = Clarification(missing=["concurrent_users"], question=ctx.t(
                "How many people will use it at once, and which model exactly (the full one or a distilled size)?",
                "同时大概多少人用？具体是哪个模型（满血还是某个蒸馏尺寸）？"), suggestions=[])
        ctx.req = req.model_copy(update=update)
        return _finish(ctx, _run(ctx, facts.recommend))
    if not (req.model or req.gpu or req.models or req.family or req.unknown_model) and req.intent in ("cost", "price", "recommend") \
            and re.search(money.DEPLOY_COST_ASK, question.lower()):
        # '老板让我评估一下部署大模型要花多少钱': nothing known; the usual sizes priced, and what decides it asked
        return _finish(ctx, _run(ctx, money.deployment_tiers))
    if req.usage_gpu_hours_per_month and req.intent in ("cost", "price", "recommend", "compare") and (
            req.break_even or req.purchase_price or req.purchase_price_per_server or req.purchase):
        # 'buy a rig instead of renting; we use ~200 H100-hours a month: payback?': the rent paid now against the cards
        return _finish(ctx, _run(ctx, money.usage_payback))
    if (req.throughput_tokens_per_s or req.tokens_per_s_per_user) and not req.model and not req.gpu and not req.num_gpus and \
            (req.daily_active_users or req.team_size or req.concurrent_users) and \
            re.search(r"demo|vendor|their|sales|厂商|演示|对方|供应商|销售", question.lower()):
        return _quoted_rate_unclear(ctx)
    small = req.team_size or req.daily_active_users
    if small and small <= SMALL_GROUP and not (req.concurrent_users or req.requests_per_s):
        # '3 devs', 'a team of 4': a group this small can all ask at once, and sizing for all of them costs little
        req = ctx.req = req.model_copy(update={"concurrent_users": small})
        ctx.used.add("team_size" if req.team_size else "daily_active_users")
        ctx.assume(f"{small} requests in flight at the busiest moment: a group of {small} can all ask at once (an "
                   "assumption; state your peak concurrency to replace it)",
                   f"最忙时同时处理 {small} 个请求：{small} 个人可能同时在用（假设值；给出实际峰值并发可替换）")
    if req.rate_from_daily and not req.peak_factor and req.requests_per_s and not req.tokens_per_day and \
            not req.throughput_tokens_per_s and req.intent == "serving":
        # ('~1M requests/day … how many L40S?'): a day's average is no peak; busy hours run 2-3x it
        ctx.assume(f"a peak of {DAILY_PEAK:g}× the day's average (traffic is uneven across a day, typically 2-3× in the "
                   "busy hours; give your peak rate or ratio to replace it)",
                   f"峰值按日均的 {DAILY_PEAK:g} 倍（一天里流量不均，忙时通常是平均的 2-3 倍；给出你的峰值或倍数可替换）")
        req = ctx.req = req.model_copy(update={"peak_factor": DAILY_PEAK})
    if req.peak_factor and req.peak_factor > 1 and req.requests_per_s and not req.tokens_per_day and \
            req.intent in ("serving", "inference_memory", "inference_speed"):
        # '日活 1 万，每人每天 10 轮 … 高峰是平均的 5 倍': the plan carries the peak, not the day's average
        peak = round(req.requests_per_s * req.peak_factor, 4)
        ctx.used.add("peak_factor")
        ctx.assume(f"sized for the peak: {req.requests_per_s:g} requests/s on average × {req.peak_factor:g} = {peak:g} "
                   "requests/s", f"按高峰算：平均每秒 {req.requests_per_s:g} 个请求 × {req.peak_factor:g} = 每秒 {peak:g} 个")
        req = ctx.req = req.model_copy(update={"requests_per_s": peak, "peak_factor": None})
        # (the thread carries the peak rate from here: a follow-up does not multiply it again)
    if req.team_size and not (req.concurrent_users or req.requests_per_s) and req.intent in TRAIN_ONLY_INTENTS:
        # ('context: 6-person team … full fine-tune of 32B'): who runs the job, not a load to serve
        ctx.used.add("team_size")
        ctx.assume(f"a team of {req.team_size:,}: who runs the job; it sets no GPU count for training",
                   f"团队 {req.team_size:,} 人：是谁来跑这个任务，不决定训练的卡数")
    elif req.team_size and not (req.concurrent_users or req.requests_per_s):
        peak, share = peak_in_flight(team_size=req.team_size)
        req = ctx.req = req.model_copy(update={"concurrent_users": peak})
        ctx.used.add("team_size")
        big = req.team_size > TEAM_MAX
        ctx.assume(f"{peak} requests in flight at the busiest moment = {share:.0%} of a team of {req.team_size:,} "
                   + ("(an assumption: in a company of hundreds most people are not mid-request at any moment; 5-10% is "
                      "usual for internal chat; state your peak concurrency to replace it)" if big else
                      "(an assumption for people who use it through the working day; state your peak concurrency to replace it)"),
                   f"最忙时同时处理 {peak} 个请求 = 团队 {req.team_size:,} 人的 {share:.0%}"
                   + ("（假设值：几百人的公司里同一时刻在等回答的人不多，内部对话常见 5-10%；给出实际峰值并发可替换）" if big else
                      "（按工作时间内都会用来估计；给出实际峰值并发可替换）"))
    quoted_run = _quoted_other_run(req, question)
    if quoted_run is not None and not req.gpu:
        # ('DeepSeek V3 took 2.788M H800 GPU-hours … our dense 70B on 15T: a few million too?'): the quoted run's card
        req = ctx.req = req.model_copy(update={"gpu": quoted_run.gpu, "gpus": [quoted_run.gpu]})
        ctx.assume(f"the card of the run you quoted ({quoted_run.name}: {ctx.deps.catalog.gpu(quoted_run.gpu)[0].name})",
                   f"按你引用的那次训练用的卡（{quoted_run.name}：{ctx.deps.catalog.gpu(quoted_run.gpu)[0].name}）")
    chinchilla_said = bool(re.search(r"chinchilla|compute[\s-]*optimal|算力最优|计算最优", question.lower()))
    if req.intent in ("training_time", "cost") and req.method == "pretrain" and req.model and not req.tokens and \
            ((not req.period_hours and not req.deadline_hours) or chinchilla_said):
        # ('pretrain a 7B chinchilla-optimal: how many H100s for a month?'): the tokens the user named by the rule
        # 'how long to pretrain a 3B model from scratch on 8 H100s?': the compute-optimal budget (20 tokens per
        # parameter, Hoffmann et al. 2022) is the default a practitioner states; the user's own count replaces it
        try:
            spec = deps.catalog.model(req.model)[0]
            from tools.params import count_parameters

            n_params = float(count_parameters(spec).active)
        except Exception:
            n_params = 0
        if n_params:
            tokens = round(20 * n_params, -8)
            req = ctx.req = req.model_copy(update={"tokens": tokens})
            tokens_defaulted = not chinchilla_said  # (named by the user: their budget, not a default to ask about)
            if chinchilla_said:
                ctx.used.add("tokens")
                ctx.note(ctx.t(f"Chinchilla-optimal minimises the compute for a given loss, not the model you get: open "
                               "7-8B models train on 2-18T tokens (Llama 3 8B: 15T) and are much stronger than a "
                               f"{tokens / 1e9:,.0f}B-token run of the same size; for a usable model, more data or "
                               "continued pre-training of an open base is the usual route",
                               f"Chinchilla 最优是“给定算力下 loss 最低”，不是做出最好用的模型：开源 7-8B 模型都训了 2-18T token"
                               f"（Llama 3 8B 用了 15T），比同尺寸只训 {tokens / 1e9:,.0f}B token 的强得多；想要能用的模型，通常是加数据，"
                               "或在开源底座上继续预训练"))
                ctx.note(ctx.t(f"Chinchilla-optimal, as you said: 20 tokens per parameter (Hoffmann et al. 2022) = "
                               f"{tokens / 1e9:,.0f}B tokens", f"按你说的 Chinchilla 最优：每参数 20 token（Hoffmann 等 2022）= "
                               f"{tokens / 1e9:,.0f}B token"))
            else:
                ctx.assume(f"{tokens / 1e9:,.0f}B tokens: the compute-optimal 20 tokens per parameter (Chinchilla, Hoffmann "
                           "et al. 2022); many runs train far longer (Llama 3 8B: 15T); give yours to replace it; the time "
                           "scales with the tokens",
                           f"{tokens / 1e9:,.0f}B token：按算力最优的每参数 20 token（Chinchilla，Hoffmann 等 2022）；很多模型训得"
                           "更久（Llama 3 8B 用了 15T）；给出你的 token 数可替换，时间与 token 数成正比")
    step_batch_missing = False
    if req.measured_step_s and req.intent in ("training_time", "cost") and not req.period_hours and req.tokens:
        # '一步 2.4 秒，global batch 128 × 2048': the user's own step, with the tokens it holds, times the job (the
        # measured-run path scales it; an implied MFU past 100% is refused there)
        seq = req.seq_len or req.context
        per_step, basis = None, None
        if req.global_batch and seq:
            per_step = req.global_batch * seq
            basis = (f"{req.global_batch:,} sequences × {seq:,} tokens", f"{req.global_batch:,} 条 × {seq:,} token")
        elif req.micro_batch and req.num_gpus and seq:
            per_step = req.micro_batch * req.num_gpus * seq
            basis = (f"micro-batch {req.micro_batch} × {req.num_gpus} GPUs × {seq:,} tokens, no gradient accumulation (an "
                     "assumption; say it if you accumulate)",
                     f"micro-batch {req.micro_batch} × {req.num_gpus} 卡 × {seq:,} token，按不做梯度累积算（假设值）")
        if per_step:
            req = ctx.req = req.model_copy(update={"measured_tokens": float(per_step), "period_hours": req.measured_step_s / 3600,
                                                   "stated": list(req.stated) + ["period_hours"]})
            ctx.used |= {"measured_step_s", "global_batch", "seq_len", "micro_batch", "period_hours", "measured_tokens"}
            if not req.global_batch:  # (the step's size from the micro-batch: an assumption, said first)
                ctx.assume(f"{per_step:,} tokens per measured step ({basis[0]})", f"实测的每步 {per_step:,} token（{basis[1]}）")
            ctx.note(ctx.t(f"your measured step: {req.measured_step_s:g} s for {per_step:,} tokens ({basis[0]})",
                           f"你实测的一步：{req.measured_step_s:g} 秒，每步 {per_step:,} token（{basis[1]}）"))
        else:
            step_batch_missing = True  # asked below: a step's time says nothing without the tokens it holds
            ctx.used.add("measured_step_s")
    if req.long_documents and not (req.context or req.prompt_len or req.seq_len) and \
            req.intent in ("inference_memory", "inference_speed", "serving", "recommend") and \
            re.search(CODING_AGENT, ctx.question.lower()):
        req = ctx.req = req.model_copy(update={"context": LONG_AGENT_CONTEXT})
        ctx.used.add("long_documents")
        ctx.assume(f"context {LONG_AGENT_CONTEXT:,}: a coding agent or IDE plug-in sends files and history with each "
                   "request (an assumption; state your longest prompt to replace it)",
                   f"上下文 {LONG_AGENT_CONTEXT:,}：代码 agent / IDE 插件每次请求都带上文件和历史（假设值；给出最长输入可替换）")
    elif req.long_documents and (req.context or req.prompt_len or req.seq_len):
        ctx.used.add("long_documents")  # (the lengths stated carry the long documents; nothing left to assume)
    elif req.long_documents and not (req.context or req.prompt_len or req.seq_len) and \
            req.intent in ("inference_memory", "inference_speed", "serving", "recommend"):
        long_context_assumed = True  # (the capacity by prompt length is shown below when a concurrency is asked)
        req = ctx.req = req.model_copy(update={"context": LONG_DOCUMENT_CONTEXT})
        ctx.used.add("long_documents")
        ctx.assume(f"context {LONG_DOCUMENT_CONTEXT:,}: documents to summarise or search run long (an assumption; a "
                   "chat turn needs ~4k; state your longest prompt to replace it)",
                   f"上下文 {LONG_DOCUMENT_CONTEXT:,}：文档总结、检索问答的输入较长（假设值；普通聊天约 4k；给出最长输入可替换）")
    if req.short_chats and not (req.context or req.prompt_len or req.seq_len) and \
            req.intent in ("inference_memory", "inference_speed", "serving", "recommend"):
        req = ctx.req = req.model_copy(update={"prompt_len": SHORT_CHAT_PROMPT, "output_len": req.output_len or
                                               SHORT_CHAT_OUTPUT, "context": SHORT_CHAT_PROMPT + SHORT_CHAT_OUTPUT})
        ctx.used.add("short_chats")
        ctx.assume(f"short chats: ~{SHORT_CHAT_PROMPT:,} prompt + {SHORT_CHAT_OUTPUT} output tokens each (an assumption; "
                   "state your prompt length to replace it)",
                   f"短对话：每次约输入 {SHORT_CHAT_PROMPT:,} + 输出 {SHORT_CHAT_OUTPUT} token（假设值；给出实际长度可替换）")
    if req.daily_active_users and not (req.concurrent_users or req.requests_per_s):
        peak, _ = peak_in_flight(daily_active_users=req.daily_active_users)
        req = ctx.req = req.model_copy(update={"concurrent_users": peak})
        ctx.assume(f"{peak} requests in flight at peak = {PEAK_SHARE_OF_DAU:.0%} of {req.daily_active_users:,} daily users (a "
                   "rule of thumb for chat; state your peak concurrency to replace it)",
                   f"高峰同时处理 {peak} 个请求 = 日活 {req.daily_active_users:,} 的 {PEAK_SHARE_OF_DAU:.0%}（聊天类应用的经验值；"
                   "给出实际峰值并发可替换）")
    if req.intent in ("inference_memory", "inference_speed", "serving") and req.gpu and req.model:
        _mac_gpu_limit(ctx)
    if req.gpu and req.precision in ("bf16", "fp8"):
        _unsupported_precision(ctx)
    _modified_cards(ctx)
    _pooled_memory_claim(ctx)
    if req.intent in ("inference_speed", "serving") and req.interconnect in ("pcie", "nvlink"):
        _stated_gpu_link(ctx)
    if req.intent in ("inference_memory", "inference_speed", "serving") and (req.num_gpus or 1) > 1 and req.gpu and \
            str(req.gpu).startswith("rtx-") and not req.interconnect:
        # ('Qwen3-30B-A3B on two 4090s'): consumer cards have no NVLink (and the 4090 no peer-to-peer): split a model
        # over them and every token's all-reduce crosses PCIe through the host
        ctx.note(ctx.t("consumer cards talk over PCIe only (no NVLink; the RTX 4090 has no peer-to-peer either): tensor "
                       "parallelism over them pays an all-reduce through the host per layer, per token; one replica per "
                       "card (a 4-bit model on each) often serves more users where the model fits one card",
                       "消费级卡之间只有 PCIe（没有 NVLink，4090 还不支持 P2P）：张量并行时每层每个 token 的 all-reduce 都要经主机中转；"
                       "模型放得进单卡时（比如 4 位量化），每张卡各跑一份往往能服务更多人"))
    if req.device_kind == "phone" and not req.engine and req.intent in ("inference_memory", "inference_speed"):
        req = ctx.req = req.model_copy(update={"engine": "llamacpp"})
        ctx.used.add("device_kind")
        ctx.assume("llama.cpp-style runtime on the phone (GGUF, one stream; MLC and vendor runtimes are similar in memory)",
                   "手机上按 llama.cpp 类运行时计算（GGUF，单路；MLC 等运行时显存相近）")
    if req.intent == "inference_speed" and req.gpu and req.model and not _has_bandwidth(ctx):
        # a device known only by its memory ('a Raspberry Pi with 8GB', 'my 3060 12GB'): what fits, and why no speed
        req = ctx.req = req.model_copy(update={"intent": "inference_memory"})
        ctx.assume("no speed: this device's memory bandwidth is not in the table (speed is bandwidth over the bytes read "
                   "per token; give it, e.g. '--gpu 8GB:17' for 17 GB/s); its memory is checked instead",
                   "不给速度：表里没有这个设备的内存带宽（速度 = 带宽 ÷ 每个 token 读取的字节数；可给出，如“--gpu 8GB:17”表示 "
                   "17 GB/s）；改为检查显存")
    if req.ratio_only and not req.model:
        req = ctx.req = req.model_copy(update={"model": RATIO_MODEL})
        ctx.assume(f"{RATIO_MODEL} (a ratio hardly depends on the model)", f"{RATIO_MODEL}（比例与模型关系不大）")
    limit = _window(ctx) if (req.context or req.seq_len) else None
    longer = _extended_window(ctx)
    if limit and longer and req.context and req.intent in ("inference_memory", "inference_speed", "serving", "recommend") \
            and limit < req.context <= longer:
        # 'Qwen2.5-72B with 128k context': past the config's 32,768, within the 131,072 its card documents with YaRN
        ctx.assume(f"{req.context:,} tokens is past {ctx.model().name}'s native {limit:,}: served with the YaRN rope "
                   f"scaling its model card documents (up to {longer:,}; in vLLM --rope-scaling / --hf-overrides with "
                   "factor 4; static scaling can cost a little quality on short texts)",
                   f"{req.context:,} token 超过 {ctx.model().name} 的原生 {limit:,}：按模型卡给出的 YaRN 位置扩展运行（最长 "
                   f"{longer:,}；vLLM 里用 rope-scaling 参数，factor 4；静态扩展对短文本质量略有影响）")
        limit = longer
    if limit and req.context and req.intent in ("inference_memory", "inference_speed", "serving") and req.context > limit:
        _beyond_the_limit(ctx, limit)  # '10M tokens of context' on a 128k model: said first, sized at the limit
        req = ctx.req
    if limit and req.seq_len and req.intent in ("training_memory", "training_time", "cost") and req.seq_len > limit:
        asked = req.seq_len  # 'fine-tune with a 10M-token window': trained at most at the model's window
        req = ctx.req = req.model_copy(update={"seq_len": limit})
        ctx.as_stated["seq_len"] = asked
        ctx.assume(f"{asked:,} tokens per sequence is beyond the model's maximum context of {limit:,}: no fine-tune "
                   f"makes it attend that far without a new position scheme (RoPE scaling such as YaRN, trained for "
                   f"it); sized at {limit:,}", f"每条序列 {asked:,} token 超过了模型的最大上下文 {limit:,}：不换位置编码方案"
                   f"（如 YaRN 这类 RoPE 扩展并专门训练）就做不到；按 {limit:,} 计算")
    if req.family_flagship and req.model:
        ctx.assume(f"'{req.model_text}' taken as the family's flagship, {req.model} (name the exact model to change it)",
                   f"“{req.model_text}”按该系列旗舰 {req.model} 计算（写明具体型号可改）")
    if req.standard_server and req.nodes:
        ctx.assume(f"a node = the standard 8-GPU server (HGX/DGX): {req.nodes}×8 = {req.num_gpus} GPUs",
                   f"一台 = 标准 8 卡服务器（HGX/DGX）：{req.nodes}×8 = {req.num_gpus} 张")
    problems = list(invalid)
    if NEGATIVE_LOAD in problems and req.model:  # the rest of the question stands: answer it without the load, said
        problems.remove(NEGATIVE_LOAD)
        req = ctx.req = req.model_copy(update={"concurrent_users": None, "requests_per_s": None, "batch": None,
                                               "intent": "inference_memory" if req.intent == "serving" else req.intent})
        ctx.assume("the load given is negative, so it is left out (a load is at least 1 user or request)",
                   "给出的负载是负数，已忽略（负载至少 1 个用户或请求）")
    if ZERO_LENGTH in problems and req.model:  # 'batch size 0', 'context 0': not a setting; the rest stands, said
        problems.remove(ZERO_LENGTH)
        zeros = {k: None for k in ("batch", "micro_batch", "global_batch", "context", "seq_len", "prompt_len", "output_len",
                                   "epochs") if getattr(req, k, None) == 0}
        req = ctx.req = req.model_copy(update=zeros | {"stated": [k for k in req.stated if k not in zeros]})
        ctx.assume("a length, batch or epoch count of 0 is not a setting, so it is left out and the default used (they are "
                   "at least 1)", "长度、batch 或 epoch 为 0 不是有效设置，已忽略并用默认值（至少为 1）")
    if (NEGATIVE_GPUS in problems or (req.num_gpus is not None and req.num_gpus <= 0)) and req.model and \
            req.intent not in ("cost", "price", "spec"):
        # '-4 张 A100，够不够？': the count is left out, said, and the answer gives the count the job needs
        if NEGATIVE_GPUS in problems:
            problems.remove(NEGATIVE_GPUS)
        req = ctx.req = req.model_copy(update={"num_gpus": None, "nodes": None})
        ctx.assume("the GPU (or replica) count given is zero or negative, so it is left out (a count must be a whole number "
                   "above 0); the answer gives the count the job needs",
                   "给出的卡数（或副本数）是 0 或负数，已忽略（须为正整数）；下面给出这个任务需要的卡数")
    if req.num_gpus is not None and req.num_gpus <= 0:
        problems.append(ZERO_GPUS)
    if req.tensor_parallel and req.model:
        bad = _tp_problem(ctx)
        if bad:
            problems.append(bad)
    if req.num_gpus is not None and req.num_gpus > MAX_GPUS:
        problems.append(f"{req.num_gpus:,} GPUs is more than any cluster built (the largest are a few hundred thousand); "
                        f"give at most {MAX_GPUS:,}")
    if problems:
        shown = [assumption_zh(p) for p in problems] if ctx.zh else problems
        return _finish(ctx, Answer(answer=T(ctx.lang, "bad_input", msg="；".join(shown) if ctx.zh else "; ".join(shown)),
                                   lang=ctx.lang,
                                   intent=req.intent, warnings=problems, status="error"))
    if req.closed_model and not req.model and req.intent in ("inference_memory", "serving", "inference_speed", "cost",
                                                               "recommend", "training_memory", "training_time"):
        # 'GPT-4 私有化部署要几张 H100': it cannot be; the open model of its class is what such a plan sizes (said first)
        req = ctx.req = req.model_copy(update={"model": CLOSED_STAND_IN})
    if req.unknown_gpu == "your GPUs" and one_of_several and req.intent in ("inference_memory", "training_memory"):
        # 'how much VRAM does it need, and how many of our GPUs?': the memory needs no card; the count asks which
        req = ctx.req = req.model_copy(update={"unknown_gpu": None})
    if req.unknown_gpu and not req.gpu and req.intent not in ("explain", "out_of_scope"):
        return _unknown_gpu(ctx)
    if re.search(ATTACHED, question.lower()) and not (req.model or req.largest_model) and not req.tokens_per_day:
        return _attachment_unseen(ctx)
    missing_size = _size_the_family_lacks(ctx)
    if missing_size is not None:
        return missing_size
    if req.family and not req.model and not req.largest_model:
        # 'Mac mini M4 Pro 64G 能跑 Qwen3 吗': each member of the family on the card, which fit and how fast; 'Qwen3 要几张
        # H20': which member decides it, asked, with the job on a few of them meanwhile
        if req.gpu and req.intent in ("inference_memory", "inference_speed", "spec") and not re.search(COUNT_WORDS, question.lower()):
            req = ctx.req = req.model_copy(update={"largest_model": True, "intent": "inference_memory"})
        else:
            return _which_member(ctx)
    handler = handlers.get(req.intent)
    bill_share = bool(re.search(r"(?:power|electricity) bill|电费", question.lower()) and re.search(
        r"share|portion|fraction|percent|比例|占比|占多少|占多大", question.lower()) and not re.search(
        r"租|rent|lease", question.lower()))  # ('the annual power bill, and what share of the yearly cost?')
    if req.intent == "cost" and req.electricity_per_kwh and (bill_share or not (
            req.purchase_price or req.purchase_price_per_server or req.rent_per_month)) and \
            re.search(r"电费|电力成本|(?<![a-z])(?:electricity (?:bill|cost)|power (?:bill|cost)|(?:monthly|yearly|annual) "
                      r"(?:electricity|power)|electricity (?:per|a|each) (?:month|year)|difference in (?:the )?(?:electricity|power)(?: bill| cost)?|"
                      r"(?:electricity|power) (?:difference|usage|use|consumption)|how much (?:electricity|power)|"
                      r"electricity (?:for|of) (?:the|this|that) (?:run|job|training))(?![a-z])", question.lower()):
        # '一年电费多少？': the bill, not a rent-or-buy; beside a rental rate ('vs just renting 4x 4090 at $0.35/hr'), the
        # bill of the machine the user runs against renting the same GPUs
        return _finish(ctx, _run(ctx, money.power_bill))
    if req.intent == "fact_check" and req.model and req.throughput_tokens_per_s and (req.tokens_per_day or req.requests_per_s):
        # 'we measured 2,400 tok/s … need 50k: how many? my coworker says each user sees 2,400, right?': the count is
        # computed (the claim is judged above it, assistant/claims.py)
        req = ctx.req = req.model_copy(update={"intent": "serving"})
    if req.api_spend_per_month and not req.model and not req.tokens_per_day:
        # 'we pay OpenAI $9k a month: would buying 8x L40S be cheaper?': the answer turns on which open model would do
        # the work and how many tokens the bill buys; asked, with the box's own monthly cost meanwhile
        return _api_bill_question(ctx)
    if req.api_spend_per_month and req.api_model and req.model and not req.tokens_per_day and req.intent in (
            "inference_memory", "serving", "cost", "inference_speed", "out_of_scope"):
        req = ctx.req = _volume_from_bill(ctx)  # '$18k/month on GPT-4o': the volume its list prices buy, then costed
    if req.api_spend_per_month and req.model and not req.tokens_per_day and req.intent in (
            "inference_memory", "serving", "cost", "inference_speed", "out_of_scope"):
        # 'we pay OpenAI $9k a month: would self-hosting the 70B be cheaper?': one set's month and what it carries
        ctx.req = ctx.req.model_copy(update={"intent": "cost"})
        return _finish(ctx, _run(ctx, money.per_token))
    if req.rent_per_month and req.intent in ("cost", "price", "spec", "out_of_scope") and not (
            req.tokens or req.purchase_price or req.purchase_price_per_server or req.throughput_tokens_per_s or
            req.per_token_cost or req.tokens_per_day):  # (a rate or a volume beside it: the cost per token uses the rent)
        ctx.req = req.model_copy(update={"intent": "cost"})
        return _finish(ctx, _run(ctx, money.monthly))  # '包月 7.5 万/月，每卡时合多少？按需 18 元/卡时哪个划算？'
    if req.claimed_tokens_per_s and req.model:  # 'someone says one 4090 runs 70B int4 at 30 tok/s — reliable?': the claim judged
        ctx.req = ctx.req.model_copy(update={"intent": "inference_speed"})
        return _finish(ctx, _run(ctx, infer.quoted_speed_claim))
    if (req.per_token_cost and req.intent in ("cost", "price") and (req.throughput_tokens_per_s or req.model)) or \
            (req.throughput_tokens_per_s and req.intent in ("cost", "price", "serving", "inference_speed", "inference_memory")
             and (req.tokens_per_day or req.throughput_scope or req.per_token_cost or (req.requests_per_s and req.output_len)
                  or req.reference_per_million)) or \
            (req.tokens_per_day and req.model and req.intent in ("cost", "price", "serving", "inference_speed")) or \
            (req.reference_per_million and req.model and not req.tokens_per_day
             and re.search(money.BREAK_EVEN_VOLUME, question.lower())):
        # ('API $1.10/M output; 8x H200 at $3.50/GPU-hr: at what volume does self-hosting win?': the break-even volume)
        # ('serve it for 10M output tokens a day: the monthly bill?': the volume sized on the estimated rate)
        # (a measured rate and a load: requests a day times their output length is the volume it must carry)
        handler = money.per_token  # a cost per million tokens needs no period and names its default card
    else:
        missing = missing_inputs(req)
        if missing == ["period_hours"] and req.intent == "cost" and req.gpu:
            handler, missing = money.without_period, []  # rates or the break-even: a question back is not needed
        if missing:
            return _ask(ctx, missing)
    if handler is None:
        return _finish(ctx, Answer(answer=T(ctx.lang, "oos"), lang=ctx.lang, intent="out_of_scope"))
    answer = _run(ctx, handler)
    if step_batch_missing and answer.status == "answered":
        answer = _ask_step_batch(ctx, answer)
    if tokens_defaulted and answer.status == "answered" and not one_of_several:
        answer = _ask_token_budget(ctx, answer)
    if answer.status == "answered" and req.intent == "inference_memory" and req.model and "gpu" not in req.stated and \
            req.num_gpus and "num_gpus" in req.stated and not one_of_several and not req.device_kind:
        # '70B 能单卡跑吗？要量化到几 bit？': one card, none named: the formats against the usual memory sizes, and asked
        answer = infer.memory_tiers(ctx, answer)
    if answer.status == "answered" and (req.intent == "inference_memory" or (req.intent == "serving" and not one_of_several)) \
            and req.model and req.gpu and (req.num_gpus or 1) >= 4 and not req.tensor_parallel and re.search(
                r"tp\s*(?:怎么|如何)\s*(?:切|分|设)|怎么切|张量并行.{0,6}(?:怎么|多少|几)|(?<![a-z])(?:how (?:should|do) (?:i|we) "
                r"(?:split|shard)|which tp|what tp|tp size|tensor[\s-]parallel(?:ism)? (?:size|degree))(?![a-z])", question.lower()):
        # ('8 卡 A800 跑 72B，TP 怎么切？'): the layouts that hold the model, and which to pick for what
        line = _tp_layouts(ctx)
        if line:
            answer = answer.model_copy(update={"answer": after_headline(answer.answer, line)})
    if answer.status == "answered" and req.intent == "serving" and not (req.concurrent_users or req.requests_per_s) and \
            not (req.prompt_len or req.output_len or "context" in req.stated) and not one_of_several and re.search(
                r"qps|rps|每秒.{0,4}请求|(?<![a-z])(?:requests? (?:per|a) second|req/s|max(?:imum)? (?:qps|throughput))(?![a-z])",
                question.lower()):
        # ('what's the max QPS one H100 can do with Qwen3-8B?'): it swings several-fold with the request shape, so the
        # lengths are asked, with the rate at a few shapes meanwhile
        answer = _qps_by_shape(ctx, answer)
    if answer.status == "answered" and req.intent == "serving" and not (req.concurrent_users or req.requests_per_s) and \
            answer.figures.get("max_concurrent_sequences") and re.search(
                r"用户|人|(?<![a-z])(?:users?|people|seats?|customers?)(?![a-z])", question.lower()):
        # ('how many concurrent users can it handle? it's a chat app'): streams generating at once are not people online
        k = int(answer.figures["max_concurrent_sequences"])
        line = ctx.t(f"**Users online, not only streams:** {k} is requests generating at the same moment. In a chat app most "
                     "people online are reading or typing; if each is generating 10-20% of the time, that is roughly "
                     f"**{k * 5:,}-{k * 10:,} people online** (measure your own duty cycle: requests a minute × seconds each).",
                     f"**在线人数不等于同时生成的路数：** {k} 是同一时刻在生成的请求数。聊天应用里大多数在线的人在看或在打字；如果每人只有 "
                     f"10-20% 的时间在等回复，大约能支撑 **{k * 5:,}-{k * 10:,} 个在线用户**（按你们自己的使用节奏算：每分钟请求数 × 每个请求秒数）。")
        answer = answer.model_copy(update={"answer": after_headline(answer.answer, line)})
    if answer.status == "answered" and req.intent in ("serving", "inference_speed") and not req.output_len and \
            slots.REASONING.search(" ".join(x for x in (req.model_text or "", req.model or "", question.lower()) if x)):
        # ('R1 给 20 个人用', 'Qwen3-32B 并发 100'): a reasoning model's answers are its thinking plus the reply
        answer = _reasoning_caveat(ctx, answer)
    if answer.status == "answered" and not one_of_several and _job_unstated(ctx):
        # 'how many A100s do I need for Llama 3.1 70B?': running it and training it differ ~10x; both shown, and asked
        answer = _run_or_train(ctx, answer)
    if answer.status == "answered" and not one_of_several and req.quoted_tokens_per_s and not req.claimed_tokens_per_s \
            and req.model and req.gpu:
        # '我们压测 1000 tok/s，要几张？另外网上有人说 4090 跑 8B 能到 5000 tok/s，是真的吗': the heard figure judged apart
        answer = _heard_figure_judged(ctx, answer)
    if answer.status == "answered" and not one_of_several and req.intent == "training_time" and req.tokens and \
            req.method == "pretrain" and "num_gpus" not in req.stated and not (req.deadline_hours or req.period_hours or
                                                                              req.budget) and \
            re.search(COUNT_WORDS + r"|买什么|买哪|(?<![a-z])what (?:to|should we) buy(?![a-z])", question.lower()):
        # '从头训练一个 7B，1T token，要买什么卡、买多少张？': the count turns on the time allowed, which is asked, with the
        # counts for a few deadlines meanwhile
        answer = _counts_by_deadline(ctx, answer)
    if answer.status == "answered" and not one_of_several and long_context_assumed and \
            answer.figures.get("kv_pool_tokens") and re.search(
                r"多少(?:个|路)?(?:并发|用户|人)|能(?:撑|扛|带)多少|并发|(?<![a-z])(?:how many (?:concurrent|users|chats|"
                r"sessions|requests)|concurren\w*)(?![a-z])", question.lower()):
        # ('我们的 RAG 应用用 Qwen2.5-32B，单卡 A100，能撑多少并发？'): the count turns on the prompt length, which is asked,
        # with what the KV pool holds at a few lengths meanwhile
        answer = _capacity_by_length(ctx, answer)
    if answer.status == "answered" and not one_of_several and quoted_run is not None and answer.figures.get("total_flops"):
        answer = _against_quoted_run(ctx, answer, quoted_run)
    if answer.status == "answered" and req.intent in ("training_memory", "training_time") and req.gpu and \
            req.method in ("full", "pretrain") and (req.num_gpus or 1) >= 4 and _pcie_only(ctx):
        # ('二手 A800 80G PCIe 版 8 卡做 70B 全参'): the states sharded over cards with no NVLink
        answer = answer.model_copy(update={"answer": _before_assumptions(answer.answer, ctx.t(
            f"**Over PCIe only**: {ctx.gpu().name} has no NVSwitch (at most an NVLink bridge between pairs), so the all-gathers and reduce-scatters of a "
            "sharded full fine-tune (ZeRO-3/FSDP, every layer's weights, every step) cross PCIe at ~25-50 GB/s instead of "
            "hundreds of GB/s: expect it to be communication-bound and several times slower than the same cards in SXM. "
            "PCIe cards suit inference and LoRA/QLoRA (a full copy per card, small gradients); for a large full fine-tune "
            "prefer the SXM (NVLink) version.",
            f"**只有 PCIe 互联**：{ctx.gpu().name} 没有 NVSwitch（最多两两之间一个 NVLink 桥），分片的全参训练（ZeRO-3/FSDP，每一步每一层的权重都要 "
            "all-gather、reduce-scatter）只能走 PCIe（约 25-50 GB/s，而不是几百 GB/s）：会被通信卡住，比同样的 SXM 卡慢好几倍。"
            "PCIe 卡适合推理和 LoRA/QLoRA（每卡一份完整副本，梯度很小）；大模型全参训练选 SXM（NVLink）版。"))})
    if answer.status == "answered" and not one_of_several and _training_count_without_data(ctx):
        # '想把 Qwen2.5-72B 微调一下，需要几张 H800？': memory sets the floor; the method, the data and the deadline the
        # count above it, so they are asked, with each method's time on its floor for a usual amount of data meanwhile
        answer = _method_and_data_asked(ctx, answer)
    if answer.status == "answered" and not one_of_several and req.intent == "compare" and not req.model and \
            len(set(req.gpus)) >= 2 and re.search(VALUE_ASK, question.lower()) and re.search(SERVE_WORDS, question.lower()):
        # '公司想自建推理，H20 和 L20 哪个更划算？': the value flips with the model served: which one, asked, with the cards
        # each common size takes meanwhile
        answer = _value_by_model_size(ctx, answer)
    if answer.status == "answered" and not one_of_several and req.intent in ("inference_memory", "serving",
                                                                            "training_memory") and req.gpu:
        # 'a node of A100s: enough for 405B?': 40 GB or 80 GB turns the verdict; the other version's is given, and asked
        answer = _memory_version(ctx, answer)
    if answer.status == "answered" and req.intent in ("inference_memory", "inference_speed", "serving") and req.model and \
            not (req.context or req.prompt_len or req.seq_len or req.output_len) and not one_of_several and \
            req.method in (None, "inference") and re.search(infer.MAX_BATCH_ASK, question.lower()):
        # 'max batch size on an H100 for Llama 3.1 8B?': the batch turns on the sequence length, which is asked
        answer = infer.batch_by_length(ctx, answer)
    if _count_for_an_unstated_load(ctx) and answer.status == "answered" and not one_of_several:
        # '客服机器人上线要买几张 H20？': the count turns on the peak load, which is not given: asked, with the counts at
        # a few loads (the memory answer above is the floor)
        per_node = _server_size(req, question)
        cards = list(dict.fromkeys(req.gpus or [req.gpu]))
        lines = []
        for gid in cards:  # ('H100 or H200, and how many should we reserve?'): each card's counts
            rows = _counts_by_load(ctx, gid if len(cards) > 1 else None, per_node)
            if rows and len(cards) > 1:
                lines.append(f"**{ctx.deps.catalog.gpu(gid)[0].name}**")
            lines += rows
        if lines:
            lines.append(ctx.t("The rule behind them: replicas = peak users at once ÷ the users one replica carries at that "
                               "speed; GPUs = replicas × GPUs per replica, plus one replica spare for failures and deploys. "
                               "Longer prompts hold more KV cache per user, so fewer fit.",
                               "背后的规则：副本数 = 峰值同时用户数 ÷ 一个副本在这个速度下能带的用户数；卡数 = 副本数 × 每副本卡数，"
                               "再留一个副本做故障和发布的冗余。输入越长，每路占的 KV cache 越多，能带的人越少。"))
        if lines:
            clar = Clarification(missing=["concurrent_users"], question=ctx.t(
                "What peak load: how many users at once (or requests a second), and how long are prompts?",
                "峰值有多少并发（或每秒多少请求）？平均输入多长？"), suggestions=[])
            answer = answer.model_copy(update={
                "answer": answer.answer + "\n\n" + ctx.t(
                    "**How many users at once at peak, and how long are prompts and replies?** The count to buy turns on "
                    f"them (the memory above is the floor); at {ctx.req.context or 4096:,}-token conversations, each user at "
                    f"≥ {LOAD_SPEED:g} tokens/s:",
                    f"**峰值同时有多少用户？输入、输出大概多长？** 要买几张取决于它们（上面的显存是下限）；按每路 {ctx.req.context or 4096:,} token、"
                    f"每路不低于 {LOAD_SPEED:g} token/秒：")
                + "\n" + "\n".join(lines) + _quoted_total_line(ctx, answer),
                "status": "needs_clarification", "clarification": clar})
    return _finish(ctx, answer)


def _ask_token_budget(ctx: Ctx, answer: Answer) -> Answer:
    """'how long to pretrain a ~1B model from scratch on 8x 4090s?': the time is proportional to the tokens, which runs
    span 20 to thousands per parameter; the compute-optimal default is answered, the time per 100B tokens given, and
    the budget asked."""
    hours = answer.figures.get("wall_hours")
    tok = ctx.req.tokens
    per_100b = hours * 1e11 / tok if hours and tok else None
    clar = Clarification(missing=["tokens"], question=ctx.t("How many training tokens will you pre-train on?",
                                                             "打算预训练多少 token？"), suggestions=[])
    extra = ctx.t(f"**How many tokens?** The time is proportional to them: the estimate below is the compute-optimal "
                  f"{tok / 1e9:,.0f}B; " + (f"each 100B tokens take ~{per_100b:,.0f} h ({per_100b / 24:,.1f} days) on "
                                             f"these GPUs; " if per_100b else "") +
                  "small models are often trained far longer (TinyLlama 1.1B: 3T tokens, its 2024 paper; Llama 3.2 "
                  "1B: up to 9T, Meta's model card).",
                  f"**训多少 token？** 时间和 token 数成正比：下面按算力最优的 {tok / 1e9:,.0f}B 算；"
                  + (f"这些卡上每 1000 亿 token 约 {per_100b:,.0f} 小时（{per_100b / 24:,.1f} 天）；" if per_100b else "")
                  + "小模型常常训得远多于此（TinyLlama 1.1B 用了 3T token，见其 2024 年论文；Llama 3.2 1B 最多 9T，见 Meta 模型卡）。")
    figs = dict(answer.figures) | ({"hours_per_100b_tokens": round(per_100b, 1)} if per_100b else {})
    return answer.model_copy(update={"answer": extra + "\n\n" + answer.answer, "status": "needs_clarification",
                                     "clarification": clar, "figures": figs})


def _ask_step_batch(ctx: Ctx, answer: Answer) -> Answer:
    """'trainer says 3.2 s/it … how long for 300M tokens?' with no batch: the measured step times the job only once the
    tokens in one step are known; the estimate stands meanwhile, and the conversion is shown for the batches the card
    could plausibly run at that step time (implied MFU 5-80%: the estimate's MFU × its time / the measured time)."""
    req = ctx.req
    seq = req.seq_len or req.context or 2048
    est_h, mfu = answer.figures.get("wall_hours"), answer.figures.get("mfu")
    rows = []
    for gb in (1, 2, 4, 8, 16, 32, 64, 128, 256, 512):
        steps = math.ceil(req.tokens / (gb * seq))
        h = steps * req.measured_step_s / 3600
        implied = mfu * est_h / h if est_h and mfu else None
        if implied is None or 0.05 <= implied <= 0.8:
            rows.append((gb, steps, h, implied))
    rows = rows[:4]
    at = lambda r: ctx.t(f"at {r[0]} sequences: {r[1]:,} steps × {req.measured_step_s:g} s = **{r[2]:,.1f} h**" +  # noqa: E731
                         (f" (MFU {r[3]:.0%})" if r[3] else ""),
                         f"{r[0]} 条时 {r[1]:,} 步 × {req.measured_step_s:g} 秒 = **{r[2]:,.1f} 小时**" +
                         (f"（MFU {r[3]:.0%}）" if r[3] else ""))
    table = (ctx.t("; ", "；").join(at(r) for r in rows) + ctx.t(".", "。")) if rows else ctx.t(
        f"no batch from 1 to 512 sequences makes {req.measured_step_s:g} s a plausible step for this job on these cards "
        "(MFU outside 5-80%): check the figure.",
        f"1 到 512 条之间没有哪个 batch 能让每步 {req.measured_step_s:g} 秒落在合理范围（MFU 5-80%）：请核对这个数字。")
    text = ctx.t(f"**Your {req.measured_step_s:g} s per step times the job once the step's size is known**: how many "
                 f"sequences go into one optimizer step (global batch = micro-batch × GPUs × gradient accumulation), at "
                 f"{seq:,} tokens each? ",
                 f"**你实测的每步 {req.measured_step_s:g} 秒，要知道一步有多少 token 才能换算成总时间**：每个优化步多少条序列"
                 f"（global batch = micro-batch × 卡数 × 梯度累积），每条 {seq:,} token？") + table + ctx.t(
        " The estimate below stands until then.", "在此之前以下面的估算为准。")
    clar = Clarification(missing=["global_batch"], question=ctx.t(
        "How many sequences (and how many tokens each) go into one optimizer step?",
        "每个优化步多少条序列、每条多长？"), suggestions=[])
    body = answer.answer
    head, sep, rest = body.partition("\n\n")
    return answer.model_copy(update={"answer": head + "\n\n" + text + (sep + rest if sep else ""),
                                     "status": "needs_clarification", "clarification": clar})


def _run(ctx: Ctx, handler) -> Answer:
    """A handler's answer; an unknown name, a bad value or a bug as a message in the user's language (never a
    traceback; a bug is logged)."""
    try:
        return handler(ctx)
    except UnknownItem as e:
        return Answer(answer=T(ctx.lang, "unknown", msg=e.message(ctx.lang)), lang=ctx.lang, intent=ctx.req.intent,
                      warnings=[str(e)], status="error")
    except ValueError as e:
        msg = str(e).split("\n")[0] if "validation error" not in str(e) else _pydantic_message(e)
        return Answer(answer=T(ctx.lang, "bad_input", msg=msg), lang=ctx.lang, intent=ctx.req.intent, warnings=[msg],
                      status="error")
    except Exception as e:  # a bug, not the user's input: say so in words (logged), never a traceback
        log.exception("planner failed on %r", ctx.question[:200])
        msg = ctx.t(f"this question hit an error in the assistant ({type(e).__name__}); it is logged. Rephrasing, or the "
                    "calculator commands (`gpu-advisor size|time|cost ...`), may get the answer.",
                    f"这个问题触发了程序错误（{type(e).__name__}），已记录。换个说法，或用计算命令（`gpu-advisor size|time|cost ...`）试试。")
        return Answer(answer=msg, lang=ctx.lang, intent=ctx.req.intent, warnings=[f"internal error: {e}"], status="error")




def _machine_of(ctx: Ctx, answer: Answer):
    """(the card, the count) an answered plan ends on: the fewest that hold it when the asked count does not, else the
    count answered or stated; None when the answer names no card and count."""
    req, v = ctx.req, answer.verdict
    gid = (v.gpu if v and v.gpu else None) or req.gpu
    n = (v.min_gpus if v and v.fits is False and v.min_gpus else None) or (v.num_gpus if v and v.num_gpus else None) \
        or ctx.applied.get("num_gpus") or req.num_gpus
    if not (gid and n) or answer.status != "answered":
        return None
    try:
        return ctx.gpu(gid), int(n)
    except (LookupError, ValueError):
        return None


def _power_check(ctx: Ctx, answer: Answer) -> Answer:
    """A stated power limit (an outlet, a circuit, a rack's kW) checked against the machine the answer ends on,
    whatever the question was: the plan's cards draw what they draw, and a plan over the limit must say so."""
    from tools.purchase import _counts, machine_power_w

    req = ctx.req
    machine = _machine_of(ctx, answer) if req.power_limit_w and "power_limit_w" not in ctx.used else None
    if machine is None or (not machine[0].tdp_w and machine[0].vendor != "Apple"):
        return answer
    gpu, n = machine
    watts, limit = machine_power_w(gpu, n), req.power_limit_w
    ctx.used.add("power_limit_w")
    module = _counts(gpu) == (8,) and gpu.vendor != "Apple"
    fit = max((k for k in range(1, n + 1) if machine_power_w(gpu, k) <= limit), default=0)
    if watts <= limit:
        en, zh = f"within your {limit:,.0f} W.", f"在你的 {limit:,.0f} W 以内。"
    elif module:
        en = (f"**over** your {limit:,.0f} W: {gpu.name} modules go only into 8-GPU servers (scaled from DGX H100's "
              f"10.2 kW for 8 × 700 W); this plan needs more power, or PCIe cards.")
        zh = (f"**超过**你的 {limit:,.0f} W：{gpu.name} 这类模组只装在 8 卡服务器里（按 DGX H100 8 × 700 W 额定 10.2 kW 折算）；"
              "这个方案需要更多供电，或换 PCIe 卡。")
    else:
        en = (f"**over** your {limit:,.0f} W; {fit} such card(s) fit in it" if fit else f"**over** your {limit:,.0f} W") \
            + ", or power-limit the cards (nvidia-smi -pl) and lose some speed."
        zh = (f"**超过**你的 {limit:,.0f} W；这个功率下一台机器最多放 {fit} 张" if fit else f"**超过**你的 {limit:,.0f} W") \
            + "，或者限功率（nvidia-smi -pl），速度会降一些。"
    line = ctx.t(f"**Power**: {n}× {gpu.name} in one machine draw about {watts:,.0f} W at the wall under load "
                 "(the cards' TDP plus the host) — " + en,
                 f"**功率**：{n} 张 {gpu.name} 一台机器满载约 {watts:,.0f} W（卡的 TDP 加主机）——" + zh)
    return answer.model_copy(update={"answer": answer.answer + "\n\n" + line, "figures": answer.figures | {
        "machine_power_w": round(watts), "over_power_limit": int(watts > limit)}})


def _space_check(ctx: Ctx, answer: Answer) -> Answer:
    """Rack space the user states, checked against the machines the answer ends on (tools.purchase's heights)."""
    from tools.purchase import machine_rack_units

    req = ctx.req
    machine = _machine_of(ctx, answer) if req.rack_units and "rack_units" not in ctx.used else None
    if machine is None:
        return answer
    gpu, n = machine
    limit = req.rack_units
    units = machine_rack_units(gpu, n)
    ctx.used.add("rack_units")
    fit = max((k for k in range(1, n + 1) if machine_rack_units(gpu, k) <= limit), default=0)
    ok = units <= limit
    line = ctx.t(f"**Rack space**: {n}× {gpu.name} take about {units}U (the lowest common server height for them) — "
                 + (f"within your {limit}U." if ok else f"**more than** your {limit}U; {fit} of these cards fit in it."
                    if fit else f"**more than** your {limit}U; not even one such server fits."),
                 f"**机柜空间**：{n} 张 {gpu.name} 约占 {units}U（这类服务器常见的最低高度）——"
                 + (f"在你的 {limit}U 以内。" if ok else f"**超过**你的 {limit}U；这个空间最多放 {fit} 张。" if fit
                    else f"**超过**你的 {limit}U；一台这样的服务器都放不下。"))
    return answer.model_copy(update={"answer": answer.answer + "\n\n" + line})


CLOSED_STAND_IN = "deepseek-v3"  # the open-weight model of the closed frontier models' class that plans are sized on


def _closed_model_line(ctx: Ctx) -> str:
    """'GPT-4 私有化部署': its weights are not released, so no GPU count deploys it; the private routes are its maker's
    (a dedicated or regional cloud deployment), and the open models of its class are what self-hosting means."""
    name = ctx.req.closed_model
    if not name or ctx.req.model != CLOSED_STAND_IN:
        return ""
    return ctx.t(f"**{name} cannot be self-hosted**: its weights are not released, so no number of GPUs runs it in your "
                 "own data centre; the private options are its maker's (a dedicated or regional cloud deployment, e.g. "
                 "Azure OpenAI for OpenAI's models). What self-hosting at that level means is an open-weight model of its "
                 "class: DeepSeek-V3/R1 (671B MoE), Qwen3-235B-A22B, Llama 3.1 405B or GLM-4.5. **Sized below for "
                 "DeepSeek-V3** (FP8, as published); ask for another.\n\n",
                 f"**{name} 无法私有化部署**：它的权重没有公开，多少张卡都跑不了；要“私有”只能走厂商的专属/区域云部署（如 OpenAI "
                 "模型的 Azure OpenAI）。自建能做到同档次的是开放权重模型：DeepSeek-V3/R1（671B MoE）、Qwen3-235B-A22B、"
                 "Llama 3.1 405B 或 GLM-4.5。**下面按 DeepSeek-V3 估算**（官方 FP8 权重）；需要别的模型可以再问。\n\n")


def _which_family_member(ctx: Ctx) -> str:
    """'本地部署 deepseek … 买几张 4090': a family named alone is read as its flagship; when the flagship needs a cluster
    of the cards named, the member a team runs on a few of them is sized beside it and the question asked."""
    from knowledge.catalog import FAMILY_MIDDLE
    from assistant.plans.infer import fits_on, serving_count

    req = ctx.req
    if not (req.family_flagship and req.model in FAMILY_MIDDLE and (req.gpus or req.gpu)) or \
            req.intent not in ("inference_memory", "inference_speed", "serving", "recommend"):
        return ""  # (a training question naming the lab, 'a V3-sized MoE', is not asking which model to run)
    try:
        flag = ctx.deps.catalog.model(req.model)[0]
        mid = ctx.deps.catalog.model(FAMILY_MIDDLE[req.model])[0]
        cards = [ctx.deps.catalog.gpu(g)[0] for g in (req.gpus or [req.gpu])][:2]
    except Exception:
        return ""
    users = req.concurrent_users or req.batch or 1
    parts_en, parts_zh, big = [], [], False
    for g in cards:
        try:
            a = fits_on(flag, g, 1, flag.native_precision, 4096)
            b = fits_on(mid, g, 1, "awq", 4096, users, engine="vllm")
        except ValueError:
            continue
        na, nb = serving_count(ctx, flag, g, a.min_gpus, note=False), serving_count(ctx, mid, g, b.min_gpus, note=False)
        big = big or (na or 99) > 8
        parts_en.append(f"on {g.name}: the {flag.name} in {flag.native_precision} needs at least {na or 'more than 1,024'}, "
                        f"the {mid.name} in AWQ {nb or '-'} for {users} user(s) at once")
        parts_zh.append(f"{g.name}：{flag.name}（{flag.native_precision}）至少 {na or '1024 以上'} 张，"
                        f"{mid.name}（AWQ）{users} 路同时用要 {nb or '-'} 张")
    if not parts_en or not big:
        return ""
    both = ""
    from assistant.readers.slots import w

    if re.search(r"有的说|有人说|网上|也有说|有的讲|" + w(r"some say|others say|some people|online|reddit|one says|"
                                                         r"another says"), ctx.question.lower()):
        # 'some say one 4090 runs it, others say several 8-card servers': both can be right, about different models
        both = ctx.t(f" The two claims you heard are about different models: '{mid.name} on one card' is a distilled "
                     f"dense model, '{flag.name} on several 8-GPU servers' is the full model; they are not one model "
                     "quantized differently, and their quality differs.",
                     f"你听到的两种说法说的不是同一个模型：“一张卡能跑”的是蒸馏版这类稠密小模型（如 {mid.name}），“要好几台 8 卡机”"
                     f"的是满血的 {flag.name}；两者不是同一个模型量化程度不同，效果也不一样。")
    return ctx.t(f"**Which {req.model_text or flag.family}?** Named alone it is read as the flagship, {flag.name} (sized "
                 f"below); " + "; ".join(parts_en) + "." + both + " Tell me which one you mean.\n\n",
                 f"**是哪个 {req.model_text or flag.family}？** 只写系列名按旗舰 {flag.name} 计算（见下）；"
                 + "；".join(parts_zh) + "。" + both + "说一下具体是哪个型号。\n\n")


def _unknown_model_line(ctx: Ctx) -> str:
    """'Qwen4-100B': a name the catalog lacks is asked about first (which model, dense or MoE), with the family's
    models on record; the generic dense sizing of its size follows as a stand-in, said."""
    name = ctx.req.unknown_model
    if not name:
        return ""
    as_typed = re.search(re.escape(name), ctx.question or "", re.I)
    name = as_typed.group(0) if as_typed else name
    prefix = re.match(r"[a-z]+", name.lower())
    kin = sorted((m for m in ctx.deps.catalog.models if prefix and not m.generic and
                  m.id.startswith(prefix.group(0))), key=lambda m: (str(m.as_of), m.params_total), reverse=True)
    fams = [m.name for m in kin][:5]  # the newest of the family on record
    known = (ctx.t(f" (the newest {prefix.group(0).capitalize()} models on record: {', '.join(fams)})",
                   f"（已收录的最新 {prefix.group(0).capitalize()} 模型：{'、'.join(fams)}）") if fams else "")
    size = (ctx.req.model or "").upper()
    return ctx.t(f"**'{name}' is not a model on record**{known}. Which model is it? Its config.json, or dense vs MoE "
                 f"(total and active parameters), settles it. Until then the figures below are for a generic {size} "
                 "dense decoder: an MoE, a different attention layout or a quantised checkpoint changes them.\n\n",
                 f"**没有收录“{name}”这个模型**{known}。具体是哪个模型？给出 config.json，或说明是稠密还是 MoE（总参数 / 激活"
                 f"参数）就能算准。在此之前，下面按通用 {size} 稠密解码器估算：MoE、不同的注意力结构或量化版本都会改变结果。\n\n")


def _finish(ctx: Ctx, answer: Answer) -> Answer:
    """Open with the restatement, name the ignored inputs, attach the request."""
    answer = _space_check(ctx, _power_check(ctx, answer))
    req = ctx.req
    uses = USES.get(answer.intent, set())
    if answer.intent not in ("explain", "out_of_scope", "fact_check") and answer.status == "answered":
        already = {i.split("=", 1)[0] for i in ctx.ignored}
        for name in req.stated:
            if name == "model_path" and "model" in uses:
                continue
            if name == "method" and req.method == "inference" and answer.intent in ("inference_memory", "inference_speed",
                                                                                    "serving", "recommend", "compare"):
                continue  # inference is what these answers compute
            if name == "gpu" and "gpus" in uses and req.gpu in req.gpus and len(req.gpus) >= 2:
                continue  # the GPU named first is one of the GPUs compared
            if getattr(req, name, None) in (None, [], {}, False):
                continue  # (a field read and then cleared is no input to name)
            if name not in uses and name not in META_FIELDS and name not in already and name not in ctx.shared \
                    and name not in ctx.used:
                ctx.ignore(name, "the tool that answers this question does not use it",
                           "回答这个问题的工具用不到它")
    req_dict = req.model_dump(mode="json") | ctx.as_stated
    shown = req.model_copy(update=ctx.applied) if ctx.applied else req
    body = re.sub(r"generic (\S+) dense decoder", r"通用 \1 稠密解码器", answer.answer) if ctx.zh else answer.answer
    premise = premise_md([p for p in ctx.req.premise_notes if p[1:] not in body], ctx.zh) \
        if answer.status == "answered" and not ctx.one_of_several else ""
    # (several asks: the message's premises are corrected once, above them: multi_ask.combine)
    sizes = _family_sizes_per_billion(ctx) if ctx.req.family_flagship and answer.status == "answered" and \
        ctx.req.intent.startswith("training") else ""
    if not sizes and ctx.req.family_flagship and answer.status == "answered" and answer.intent == "training_memory" and \
            not ctx.one_of_several:
        sizes = _family_sizes_memory(ctx)
    if not sizes and ctx.req.family_desk and answer.status == "answered" and answer.intent == "training_memory" and \
            not ctx.one_of_several:
        sizes = _family_desk_sizes(ctx)
    which = _which_family_member(ctx)
    if not which and not sizes and ctx.req.family_flagship and answer.status == "answered" and not ctx.req.full_model \
            and not re.search(r"是哪个|Which ", body[:400]):  # ('跑满血': the full model is meant; nothing to ask)
        from knowledge.catalog import FAMILY_MIDDLE

        mid = FAMILY_MIDDLE.get(ctx.req.model or "")
        if mid:  # 'self-host DeepSeek R1 for our team: what hardware?': which member, asked; the flagship sized below
            flag_name, mid_name = ctx.deps.catalog.model(ctx.req.model)[0].name, ctx.deps.catalog.model(mid)[0].name
            which = ctx.t(f"**Which {ctx.req.model_text or flag_name}?** Named alone it is read as the flagship, {flag_name} "
                          f"(sized below); the family's {mid_name} runs on far less hardware. Tell me which one you mean.\n\n",
                          f"**是哪个 {ctx.req.model_text or flag_name}？** 只写名字按旗舰 {flag_name} 计算（见下）；同系列的 {mid_name} "
                          "要的硬件少得多。说一下具体是哪个。\n\n")
    if not which and answer.status == "answered" and not ctx.one_of_several:
        which = _which_server(ctx)
    text = restate(shown, ctx.deps.catalog, ctx.assumed) + "\n\n" + premise + _closed_model_line(ctx) + \
        _unknown_model_line(ctx) + which + (sizes + "\n\n" if sizes else "") + body
    if ctx.ignored:
        text += "\n\n**" + ctx.t("Not used", "未使用的输入") + "**\n" + "\n".join(
            f"- {ignored_line(i, zh=ctx.zh)}" for i in ctx.ignored)
    slots = req_dict | ({"awaiting": answer.clarification.missing} if answer.clarification and answer.status == "answered"
                        else {})  # answered, with a one-click completion: a bare reply ('10 days') completes it
    v = answer.verdict
    if v is not None and answer.status == "answered":
        # the GPUs this answer settled on ('2 are needed', 'at least 6'): what 'on that setup' means next turn
        n = v.num_gpus if v.fits else (v.min_gpus or None)
        if n:
            slots["answered_num_gpus"] = n
    return answer.model_copy(update={"answer": text, "request": req_dict, "slots": slots, "ignored": ctx.ignored,
                                     "tool_calls": answer.tool_calls or ctx.calls})


# the 8-GPU boxes 'a DGX' can mean, each generation's GPU (catalog ids): the answer flips between them
SERVER_GENERATIONS = (("DGX A100 40GB", "a100-40gb"), ("DGX A100 80GB", "a100-80gb"), ("DGX H100", "h100"),
                      ("DGX H200", "h200"), ("DGX B200", "b200"))


def _which_server(ctx: Ctx) -> str:
    """'the vendor quoted us "a DGX": is one enough for full fine-tuning of a 70B?': the generation decides it (320 GB
    to 1.4 TB of GPU memory): which one, asked, with the job's fit on each meanwhile (the body sizes the default)."""
    req = ctx.req
    low = ctx.question.lower()
    a100_any = re.search(r"(?<![a-z])dgx[\s-]*a100(?![\s-]*(?:40|80|320|640))", low)  # 'a DGX A100': 320 GB or 640 GB
    if not req.model or req.intent not in ("training_memory", "inference_memory") or not (a100_any or (
            "gpu" not in req.stated and re.search(r"(?<![a-z])(?:dgx|hgx)(?![a-z]|\s*[abh]\d)", low))):
        return ""
    from assistant.plans.infer import fits_on
    from assistant.plans.train import memory_at

    model, rows = ctx.model(), []
    serve_too = req.intent == "training_memory" and re.search(r"推理|部署|(?<![a-z])(?:inference|serv(?:e|ing)|deploy\w*)(?![a-z])", low)
    gens = [g for g in SERVER_GENERATIONS if g[1].startswith("a100")] if a100_any else SERVER_GENERATIONS
    for label, gid in gens:
        try:
            gpu = ctx.deps.catalog.gpu(gid)[0]
            if req.intent == "training_memory":
                r = memory_at(ctx, model, gpu, 8)
                ok, need = r.fits, r.min_gpus
            else:
                r = fits_on(model, gpu, 8, req.precision or model.native_precision, req.context or 4096, req.batch or 1)
                ok, need = r.fits, r.min_gpus
            served = fits_on(model, gpu, 8, model.native_precision, req.context or 4096, 1) if serve_too else None
        except (ValueError, LookupError):
            continue
        verdict = ctx.t("fits" if ok else f"does not fit (needs {need or 'more'})",
                        "放得下" if ok else f"放不下（至少 {need or '更多'} 张）")
        row = [label, f"8 × {gpu.memory_gb:g} = {8 * gpu.memory_gb:,.0f} GB", f"{r.per_gpu_gb:,.1f}", verdict]
        if served is not None:
            row.append(ctx.t(f"fits ({served.per_gpu_gb:,.1f} GB/GPU)" if served.fits else "does not fit",
                             f"放得下（每卡 {served.per_gpu_gb:,.1f} GB）" if served.fits else "放不下"))
        rows.append(row)
    if len(rows) < (2 if a100_any else 3):
        return ""
    head = [ctx.t("box", "机型"), ctx.t("GPU memory", "显存合计"), ctx.t("GB per GPU", "每卡 GB"), ctx.t("this job", "这个任务")]
    if serve_too:
        head.append(ctx.t(f"inference, {model.native_precision.upper()}", f"推理（{model.native_precision.upper()}）"))
    if a100_any:
        return ctx.t("**Which DGX A100?** It was sold with 40 GB cards (320 GB) and with 80 GB cards (640 GB); this job on "
                     "each:", "**是哪一款 DGX A100？** 有 40 GB 卡（共 320 GB）和 80 GB 卡（共 640 GB）两种；这个任务在两种上：") + \
            "\n\n" + md_table(head, rows) + "\n\n"
    return ctx.t("**Which DGX?** The generation decides it (the default below is a DGX A100 80GB); this job on each:",
                 "**是哪一代 DGX？** 答案取决于它（下面默认按 DGX A100 80GB 计算）；这个任务在各代上：") + "\n\n" + \
        md_table(head, rows) + "\n\n"


API_BILL_MODELS = ("gpt-4o", "gpt-4o-mini")  # a frontier and a small API model: the volume a bill buys spans ~17x
SELF_HOST_SETS = (("llama-3.1-8b", "h100", 1, "bf16"), ("llama-3.3-70b", "h100", 2, "fp8"))  # an 8B and a 70B set


def _api_bill_bounds(ctx: Ctx, bill: float, cur: str, sym: str) -> str:
    """An API bill with no API model and no machine named: the tokens a month it buys at two list prices (input and
    output at API_INPUT_PER_OUTPUT), and what an 8B and a 70B self-hosted set cost a month to rent and make at full
    load, so the user can place their volume; the costs beside the GPUs said."""
    from knowledge.api_prices import api_prices, blended_per_million
    from tools.pricing import on_demand_rate

    recs = {r.id: r for r in api_prices() if r.currency == cur}
    bought = []
    for mid in API_BILL_MODELS:
        rec = recs.get(mid)
        if rec:
            per = blended_per_million(rec, API_INPUT_PER_OUTPUT)
            out = bill / per / (1 + API_INPUT_PER_OUTPUT)  # (M tokens: the output share of what the bill buys)
            bought.append(ctx.t(f"{rec.name}: ~{out:,.0f}M output tokens a month (with {API_INPUT_PER_OUTPUT:g} input tokens "
                                f"each; {sym}{per:.2f} per 1M blended)",
                                f"{rec.name}：每月约 {out:,.0f}M 输出 token（每个输出配 {API_INPUT_PER_OUTPUT:g} 个输入；综合每百万 "
                                f"{sym}{per:.2f}）"))
    sets = []
    for mid, gid, n, fmt in SELF_HOST_SETS:
        rate = on_demand_rate(ctx.deps.prices(), gid, cur)
        if not rate:
            continue
        try:
            a = plan(ctx.req.model_copy(update={"intent": "inference_speed", "model": mid, "models": [mid], "gpu": gid,
                                                "gpus": [gid], "num_gpus": n, "precision": fmt, "max_throughput": True,
                                                "api_spend_per_month": None}), ctx.deps, ctx.question, one_of_several=True)
        except Exception:  # a set the tools cannot size is left out (logged)
            log.exception("self-host set %s failed", mid)
            continue
        ctx.calls.extend(a.tool_calls)
        tps = a.figures.get("decode_tokens_per_s_total") if (a.figures.get("batch") or 1) > 1 else None
        if not tps:
            continue
        month = rate.typical * n * 730
        name, card = ctx.deps.catalog.model(mid)[0].name, ctx.deps.catalog.gpu(gid)[0].name
        sets.append(ctx.t(f"{name} on {n}× {card} ({fmt}): {sym}{month:,.0f} a month rented, up to ~{tps * 3600 * 730 / 1e6:,.0f}M "
                          "output tokens a month at full load",
                          f"{name}，{n} 张 {card}（{fmt}）：租一个月 {sym}{month:,.0f}，满载每月最多约 {tps * 3600 * 730 / 1e6:,.0f}M 输出 token"))
    if not (bought or sets):
        return ""
    return ctx.t("\n\nMeanwhile, to place your volume:\n- what the bill buys: " + "; ".join(bought)
                 + "\n- self-hosted, per set: " + "; ".join(sets)
                 + f"\n\nIf your tokens a month fit in one set and an open model of that size does the work, owning or "
                 "renting it costs a fraction of the bill; a 70B-class model is closer to GPT-4o-mini than to GPT-4o on "
                 "hard tasks. Add what the GPUs leave out: an engineer's time to run it (often the largest line at this "
                 "size), redundancy (two sets for uptime) and idle hours at night (rented sets are paid busy or idle).",
                 "\n\n先帮你定位用量：\n- 这笔账单能买到：" + "；".join(bought) + "\n- 自建每套：" + "；".join(sets)
                 + "\n\n如果你每月的 token 放得进一套、且同等规模的开源模型能胜任，自建只要账单的一小部分；70B 级模型在难题上更接近 GPT-4o-mini 而不是 GPT-4o。"
                 "另外要算上 GPU 之外的：运维人力（这个规模常常是最大的一项）、冗余（为了可用性要两套）、夜间空闲（租的卡忙闲都计费）。")


def _api_bill_question(ctx: Ctx) -> Answer:
    """An API bill to beat, no model named to replace it: which model and volume, asked; meanwhile what the machine
    named costs a month to own (purchase over the default write-off, hosting, power at full load) against the bill."""
    from tools.cost import DEFAULT_DEPRECIATION_YEARS, DEFAULT_ELECTRICITY_PER_KWH, DEFAULT_HOSTING_PER_GPU_MONTH, DEFAULT_PUE
    from tools.purchase import price_of

    req = ctx.req
    bill = req.api_spend_per_month
    cur = req.currency or "USD"
    sym = "¥" if cur == "CNY" else "$"
    DEFAULT_ELECTRICITY, DEFAULT_HOSTING = DEFAULT_ELECTRICITY_PER_KWH[cur], DEFAULT_HOSTING_PER_GPU_MONTH[cur]
    meanwhile = ""
    if req.gpu:
        gpu = ctx.gpu()
        n = req.num_gpus or 8
        found = price_of(ctx.deps.prices(), gpu, cur)
        if found:
            card = found[0]
            buy = card * n
            months = DEFAULT_DEPRECIATION_YEARS * 12
            power = (gpu.tdp_w or 0) * n / 1000 * DEFAULT_PUE * 730 * DEFAULT_ELECTRICITY
            month = buy / months + DEFAULT_HOSTING * n + power
            meanwhile = ctx.t(
                f" Meanwhile, the machine you named: {n}× {gpu.name} at about {sym}{card:,.0f} a card ({found[1]}, price "
                f"table) = {sym}{buy:,.0f}; over {DEFAULT_DEPRECIATION_YEARS:g} years that is {sym}{buy / months:,.0f} a "
                f"month, plus about {sym}{DEFAULT_HOSTING * n:,.0f} hosting and {sym}{power:,.0f} power at full load "
                f"(PUE {DEFAULT_PUE:g}, {sym}{DEFAULT_ELECTRICITY:g}/kWh): **about {sym}{month:,.0f} a month** against your "
                f"{sym}{bill:,.0f}, before staff time. It wins only if an open model it can run does your work at your "
                "volume.",
                f"先看你说的机器：{n} 张 {gpu.name}，每张约 {sym}{card:,.0f}（{'二手' if found[1] == 'used' else '新卡'}，价格表），共 "
                f"{sym}{buy:,.0f}；按 {DEFAULT_DEPRECIATION_YEARS:g} 年折旧每月 {sym}{buy / months:,.0f}，加托管约 "
                f"{sym}{DEFAULT_HOSTING * n:,.0f}、满载电费约 {sym}{power:,.0f}（PUE {DEFAULT_PUE:g}，{sym}{DEFAULT_ELECTRICITY:g}/度）："
                f"**每月约 {sym}{month:,.0f}**，对比你现在的 {sym}{bill:,.0f}，还没算人力。前提是它能跑的开源模型在你的用量下"
                "能替代现在的效果。")
    if not req.gpu:
        meanwhile = _api_bill_bounds(ctx, bill, cur, sym)
    text = ctx.t(f"**Which model do you call, and how many tokens a month?** Whether owning beats {sym}{bill:,.0f} a month "
                 "turns on the volume the bill buys (its list prices give it: name the API model, or give input and "
                 "output tokens a month) and on which open model would do the same work at your quality bar (its size "
                 "sets the GPUs and their throughput).",
                 f"**你调用的是哪个模型，每月多少 token？** 自建能不能比每月 {sym}{bill:,.0f} 便宜，取决于这笔账单买到的用量"
                 "（按 API 标价可以反推：告诉我是哪个 API 模型，或每月输入/输出 token 数），以及哪个开源模型能在你的质量要求下"
                 "做同样的事（它的大小决定卡数和吞吐）。") + meanwhile
    clar = Clarification(missing=["model"], question=ctx.t("Which API model, and which open model would replace it?",
                                                           "用的是哪个 API 模型？打算用哪个开源模型替代？"),
                         suggestions=ctx.t("gpt-4o-mini, replace with Llama 3.1 70B|GPT-4o, 40M tokens a month, Qwen2.5-72B",
                                           "gpt-4o-mini，换成 Qwen2.5-72B|每月 4000 万 token，Llama 3.1 70B").split("|"))
    return _question_back(ctx, text, clar, "model", calls=True)


def _question_back(ctx: Ctx, text: str, clar: Clarification, awaiting: str, calls: bool = False) -> Answer:
    """A question back: what was understood, then `text` (the question and what helps meanwhile); the request kept,
    awaiting its answer for `awaiting`."""
    req_dict = ctx.req.model_dump(mode="json")
    return Answer(answer=restate(ctx.req, ctx.deps.catalog, []) + "\n\n" + text, lang=ctx.lang, intent=ctx.req.intent,
                  status="needs_clarification", clarification=clar, request=req_dict,
                  slots=req_dict | {"awaiting": [awaiting]}, tool_calls=ctx.calls if calls else [])


MOE_TOTALS_B = (50, 100, 200, 400, 700)  # total sizes MoE models come in (30B-A3B … DeepSeek V3's 671B)


def _counts_by_total_size(ctx: Ctx) -> str:
    """An MoE named by its active parameters only: the memory follows the total, so the GPUs the weights and a 4k
    context take at the totals MoEs come in, in FP8 and BF16 (generic decoders of that total: the experts' weights are
    the same bytes), with the rule that gives the count for any total."""
    from assistant.plans.infer import fits_on, tp_width

    try:
        gpu = ctx.deps.catalog.gpu(ctx.req.gpu)[0]
    except LookupError:
        return ""
    rows = []
    for b in MOE_TOTALS_B:
        model = ctx.deps.catalog.model(f"{b}b")[0]
        counts = []
        for fmt in ("fp8", "bf16"):
            try:
                x = fits_on(model, gpu, 1, fmt, ctx.req.context or 4096)
                least = 1 if x.fits else x.min_gpus
                counts.append(tp_width(least) if least else None)
            except ValueError:
                counts.append(None)
        rows.append((b, *counts))
    if not any(c for _, *cs in rows for c in cs):
        return ""
    table = "\n".join(ctx.t(f"- {b}B total: {f8 or '-'} GPU(s) in FP8, {bf or '-'} in BF16",
                            f"- 总参数 {b}B：FP8 {f8 or '-'} 张，BF16 {bf or '-'} 张") for b, f8, bf in rows)
    return ctx.t(f"**The count follows the total parameters**, not the active ones: GPUs ≥ (total × bytes per parameter + "
                 f"KV cache + ~10% workspace) ÷ {gpu.memory_gb:g} GB per {gpu.name}. Meanwhile, at the totals MoE models "
                 "come in (weights and one 4k context, rounded up to the 1, 2, 4, 8 or 16 GPUs serving engines split a model over; "
                 "more users need more KV cache):\n" + table,
                 f"**卡数由总参数决定**，不是激活参数：卡数 ≥（总参数 × 每参数字节 + KV cache + 约 10% 工作区）÷ 每张 {gpu.name} "
                 f"{gpu.memory_gb:g} GB。先按常见的 MoE 总参数算（权重加一条 4k 上下文，按推理引擎能切分的 1、2、4、8、16 张向上取整；并发多了还要加 KV cache）：\n" + table)


def _full_does_not_fit(ctx: Ctx) -> float | None:
    """GB of model states full fine-tuning needs when it does not fit the GPUs named ('fine-tune Llama 3.1 70B … on 8x
    H100': ~1.1 TB over 640 GB); None when it fits or cannot be sized."""
    req = ctx.req
    if not (req.model and req.gpu and req.num_gpus):
        return None
    try:
        from tools.train_memory import TrainingMemoryRequest, estimate_training_memory

        m = estimate_training_memory(TrainingMemoryRequest(model=ctx.model(), gpu=ctx.gpu(), method="full",
                                                           num_gpus=req.num_gpus, zero=3))
    except (ValueError, LookupError):
        return None
    return None if m.fits else m.per_gpu_gb * req.num_gpus


def _ask(ctx: Ctx, missing: list[str]) -> Answer:
    clar = clarification(ctx.req, missing, ctx.deps.catalog)
    fine_tune = re.search(r"fine[\s-]?tun|微调|sft|lora|tickets?|工单|数据集|dataset", ctx.question.lower()) and \
        ctx.req.method != "pretrain"
    if missing == ["tokens"] and ctx.req.intent == "training_time" and fine_tune:
        # a fine-tune's data is millions of tokens, not a pre-training budget: the examples people's datasets come in
        clar = clar.model_copy(update={"question": ctx.t(
            "How much data: how many examples × tokens each (prompt + response), and how many epochs?",
            "数据有多少：多少条 × 每条多少 token（输入 + 输出），训几个 epoch？"),
            "suggestions": [ctx.t(x, y) for x, y in (("20k examples × 500 tokens, 3 epochs", "2 万条 × 500 token，3 个 epoch"),
                                                     ("100k examples × 1,000 tokens, 2 epochs", "10 万条 × 1000 token，2 个 epoch"),
                                                     ("50M tokens, 1 epoch", "5000 万 token，1 个 epoch"))]})
    text = clar.question + "\n\n" + ctx.t("For example: ", "例如：") + " / ".join(clar.suggestions)
    if missing == ["tokens"] and ctx.req.intent == "training_time" and not (ctx.req.method or ctx.req.methods):
        need = _full_does_not_fit(ctx)
        if need:  # ('fine-tune Llama 3.1 70B on 8x H100'): full fine-tuning does not fit the cards named: LoRA, said
            ctx.req = ctx.req.model_copy(update={"method": "lora"})
            text += "\n\n" + ctx.t(
                f"LoRA assumed: full fine-tuning needs ~{need:,.0f} GB of weights, gradients and optimizer states, more "
                f"than {ctx.req.num_gpus}× {ctx.gpu().name} hold; say 'full' for the time on enough GPUs, or 'QLoRA'.",
                f"按 LoRA 算：全参微调要约 {need:,.0f} GB（权重、梯度和优化器状态），{ctx.req.num_gpus} 张 {ctx.gpu().name} 放不下；"
                "要全参请说明（会按放得下的卡数算），或 QLoRA。")
        else:
            # the method changes the time several-fold: asked with the tokens (full fine-tuning assumed until told)
            text += "\n\n" + ctx.t("And which method: full fine-tuning, LoRA or QLoRA (full assumed until you say)?",
                                    "另外是全参微调、LoRA 还是 QLoRA？（没说就按全参算）")
        from assistant.readers.rules import DEADLINE_WORDS

        if not ctx.req.deadline_hours and re.search(DEADLINE_WORDS, ctx.question.lower()):
            # ('… by end of month?'): the deadline in days is the other half of the count
            text += "\n\n" + ctx.t("And how many days of training time does the deadline leave (GPUs = GPU-hours of the job "
                                    "÷ hours available)?", "另外离截止还剩几天可以训练？（卡数 = 任务卡时 ÷ 可用小时数）")
    if "gpu" in missing and ctx.req.intent == "cost" and ctx.req.budget and (ctx.req.break_even or re.search(
            r"租.{0,8}买|买.{0,8}租|" + slots.w(r"rent\w*|lease\w*") + r".{0,30}" + slots.w(r"buy\w*|purchas\w*|own\w*"),
            ctx.question.lower())):
        # '20 万预算，租卡还是买卡划算？': the verdict turns on how long and how busy the cards are, and which cards
        clar = clar.model_copy(update={"question": ctx.t(
            "For how many months, how many hours a day will the cards work, and for what (which model, training or "
            "serving)? That decides the card and the verdict.",
            "打算用几个月、每天跑多少小时（是不是 7×24）、跑什么（哪个模型、训练还是推理）？这决定买什么卡和租买结论。"),
            "missing": ["period_hours", "utilization", "gpu"]})
        text = clar.question + "\n\n" + _budget_rent_or_buy(ctx)
    if "model" in missing and "tokens" in missing and ctx.req.intent == "training_time" and ctx.req.gpu and \
            ctx.req.num_gpus:
        # 'how long will fine-tuning take on 8x A100?': the model, the data and the method all set it; asked, with the
        # rule and the time per 100M tokens at a small and a large model meanwhile
        if not (ctx.req.method or ctx.req.methods):
            clar = clar.model_copy(update={"question": clar.question + ctx.t(" And which method: full, LoRA or QLoRA?",
                                                                             " 另外是全参、LoRA 还是 QLoRA？")})
            text = clar.question + "\n\n" + ctx.t("For example: ", "例如：") + " / ".join(clar.suggestions)
        from assistant.readers.rules import DEADLINE_WORDS

        if not ctx.req.deadline_hours and re.search(DEADLINE_WORDS, ctx.question.lower()):
            # ('in time for the Q3 launch?'): the deadline is named but not its date: how many days are left, asked
            clar = clar.model_copy(update={"question": clar.question + ctx.t(
                " And how many days until the deadline (training has to finish before it, with room for evaluation)?",
                " 离截止日期还有多少天（训练要在那之前完成，还要留出评测时间）？")})
            text = clar.question + "\n\n" + ctx.t("For example: ", "例如：") + " / ".join(clar.suggestions)
        rows = []
        saved = ctx.req
        try:
            for mid in SERVING_TIERS:
                for m in ("full", "lora"):
                    ctx.req = saved.model_copy(update={"model": mid, "method": m, "methods": []})
                    _, hours = _per_billion_tokens(ctx)
                    from tools.train_memory import TrainingMemoryRequest, estimate_training_memory

                    held = estimate_training_memory(TrainingMemoryRequest(
                        model=ctx.deps.catalog.model(mid)[0], gpu=ctx.gpu(), method=m, num_gpus=saved.num_gpus))
                    rows.append((ctx.deps.catalog.model(mid)[0].name, m, hours, held.fits, held.min_gpus))
        finally:
            ctx.req = saved
        cells = [ctx.t(f"{n} {m}: {h / 10:,.2f} h" if ok else f"{n} {m}: does not fit {saved.num_gpus} (needs {need})",
                       f"{n} {m}：{h / 10:,.2f} 小时" if ok else f"{n} {m}：{saved.num_gpus} 张放不下（要 {need} 张）")
                 for n, m, h, ok, need in rows if h]
        if cells:
            text += "\n\n" + ctx.t(
                f"Meanwhile: time ≈ 6·N·D (full; ~4·N·D for LoRA) ÷ ({ctx.req.num_gpus} × {ctx.gpu().bf16_dense_tflops:g} "
                "TFLOPS × MFU); per **100M training tokens** on these GPUs: " + "; ".join(cells) + ".",
                f"先给规律：时间 ≈ 6·N·D（全参；LoRA 约 4·N·D）÷（{ctx.req.num_gpus} × {ctx.gpu().bf16_dense_tflops:g} TFLOPS × MFU）；"
                "这些卡上每 **1 亿训练 token**：" + "；".join(cells) + "。")
    if missing == ["model"] and ctx.req.intent in ("serving", "inference_speed", "inference_memory") and \
            not re.search(r"moe|混合专家|mixture[\s-]*of[\s-]*experts", ctx.question.lower()):
        # 'how many GPUs for our chatbot, ~5k users?': the model sets the count ~10x, so it is asked with the load's
        # shape where that is missing too, and the answer at a small and a large model meanwhile
        more, tiers = _serving_asks_and_tiers(ctx)
        if more:
            clar = clar.model_copy(update={"question": clar.question + " " + more})
            text = clar.question + "\n\n" + ctx.t("For example: ", "例如：") + " / ".join(clar.suggestions)
        if tiers:
            text += "\n\n" + tiers
    if missing == ["model"] and re.search(r"moe|混合专家|mixture[\s-]*of[\s-]*experts", ctx.question.lower()) and \
            re.search(r"激活|active|activated", ctx.question.lower()) and ctx.req.gpu and \
            ctx.req.intent in ("inference_memory", "serving", "inference_speed"):
        totals = _counts_by_total_size(ctx)
        if totals:  # 'our MoE, ~20B active, total undisclosed: how many H20?': the count at the totals MoEs come in
            text += "\n\n" + totals
    meanwhile = _counts_by_tokens(ctx) if missing == ["tokens"] else []
    if meanwhile:  # 'pre-train a 7B within 3 months: how many 910Bs?': the count at the token budgets people use
        text += "\n\n" + ctx.t("Meanwhile, the GPUs it takes at common token budgets:", "在常见的数据量下，需要的卡数：") + \
            "\n" + "\n".join(meanwhile)
    elif missing == ["tokens"]:
        if ctx.req.samples:  # 'how long for 1 epoch on our 50k samples?': the samples' length is what is missing
            clar = clar.model_copy(update={"question": ctx.t("How many tokens is one sample on average?",
                                                             "平均每条样本多少 token？"),
                                           "suggestions": [ctx.t(f"{n} tokens per sample", f"每条 {n} token")
                                                           for n in (500, 1000, 2000)]})
            epochs_asked = "epochs" not in ctx.req.stated
            text = ctx.t(f"How many tokens is one sample on average (prompt + response)" + (", and how many epochs" if
                                                                                          epochs_asked else "")
                         + f"? {ctx.req.samples:,} samples × that × {ctx.req.epochs or 1:g} epoch(s)"
                         + (" (1 assumed below; fine-tunes often run 2-3, the time scales with them)" if epochs_asked else "")
                         + " are the tokens the time needs.",
                         f"平均每条样本多少 token（输入 + 回答）" + ("，跑几个 epoch" if epochs_asked else "")
                         + f"？{ctx.req.samples:,} 条 × 每条长度 × {ctx.req.epochs or 1:g} 个 epoch"
                         + ("（下面按 1 个；微调常跑 2-3 个，时间成倍增加）" if epochs_asked else "") + "就是训练 token 数。")
            fits_one = _fits_one_card_note(ctx)
            if fits_one:
                text += ctx.t(" ", "") + fits_one
        rate, hours = _per_billion_tokens(ctx)
        sizes = _family_sizes_per_billion(ctx) if ctx.req.family_flagship else ""
        if sizes:  # 'fine-tune llama on 8x A100, how long?': the family's size decides it as much as the data
            text = sizes + "\n\n" + text
            clar = clar.model_copy(update={"missing": ["model", "tokens"]})
        if rate:  # 'how long to train our 13B on 16 A100s, and the cost?': the time and bill per 1B tokens, meanwhile
            text += "\n\n" + rate
            if ctx.req.samples:
                each = [(n, ctx.req.samples * n * (ctx.req.epochs or 1) / 1e9 * hours) for n in (500, 1000, 2000)]
                try:  # the typical length timed on its own (its steps and fixed costs), the others scaled from the rate
                    sub = ctx.req.model_copy(update={"tokens": ctx.req.samples * 1000.0, "samples": None,
                                                     "intent": "training_time", "family_flagship": None})
                    mid = plan(sub, ctx.deps, ctx.question)
                    if mid.status == "answered" and isinstance(mid.figures.get("wall_hours"), (int, float)):
                        ctx.calls.extend(mid.tool_calls)
                        each = [(n, mid.figures["wall_hours"] if n == 1000 else h) for n, h in each]
                except Exception:
                    log.exception("timing the samples at 1,000 tokens failed")
                text += "\n" + ctx.t("So " + ", ".join(f"{h:,.1f} h at {n:,} tokens per sample" for n, h in each) + ".",
                                      "即每条 " + "、".join(f"{n:,} token 时 {h:,.1f} 小时" for n, h in each) + "。")
    req_dict = ctx.req.model_dump(mode="json")
    req_dict["awaiting"] = missing
    return Answer(answer=restate(ctx.req, ctx.deps.catalog, []) + "\n\n" + text, lang=ctx.lang, intent=ctx.req.intent,
                  status="needs_clarification", clarification=clar, request=ctx.req.model_dump(mode="json"),
                  slots=req_dict, tool_calls=ctx.calls)


def _fits_one_card_note(ctx: Ctx) -> str:
    """A fine-tune on several cards whose job fits one of them: plain data parallelism, each card a full copy, no
    sharding traffic (what matters on cards without NVLink)."""
    from tools.train_memory import TrainingMemoryRequest, estimate_training_memory

    req = ctx.req
    if (req.num_gpus or 1) < 2 or req.method not in ("lora", "qlora", "full") or not req.model or not req.gpu:
        return ""
    try:
        one = estimate_training_memory(TrainingMemoryRequest(model=ctx.model(), gpu=ctx.gpu(), method=req.method,
                                                             num_gpus=1))
    except (ValueError, LookupError):
        return ""
    if not one.fits:
        return ""
    return ctx.t(f"The {req.method} job fits one {ctx.gpu().name} ({one.per_gpu_gb:.1f} GB), so the {req.num_gpus} cards run "
                 "plain data parallelism (a full copy each, only the small gradients exchanged): no NVLink needed.",
                 f"这个 {req.method} 任务单张 {ctx.gpu().name} 就放得下（{one.per_gpu_gb:.1f} GB），{req.num_gpus} 张卡直接做数据并行"
                 "（每张一份完整副本，只同步很小的梯度）：不需要 NVLink。")


def _family_desk_sizes(ctx: Ctx) -> str:
    """'Qwen 模型微调要多大显存？我们打算买 4090': a family with no size, on one desk card: which size and which method is
    asked, with each method's memory for the family's small, desk and middle sizes on that card meanwhile."""
    from knowledge.catalog import FAMILY_MIDDLE, FAMILY_SMALL

    req = ctx.req
    top = req.family_desk
    ids = list(dict.fromkeys(x for x in (FAMILY_SMALL.get(top), req.model, FAMILY_MIDDLE.get(top)) if x))
    if len(ids) < 2 or not req.gpu:
        return ""
    ctx.used.add("family_desk")
    rows = []
    for mid in ids:
        sub = req.model_copy(update={"model": mid, "methods": ["qlora", "lora", "full"], "method": None,
                                     "family_desk": None, "intent": "training_memory"})
        try:
            a = plan(sub, ctx.deps, ctx.question, one_of_several=True)
        except Exception:
            log.exception("family sizes failed")
            continue
        f = a.figures
        cells = []
        for m in ("qlora", "lora", "full"):
            gb, need = f.get(f"{m}_per_gpu_gb"), f.get(f"{m}_min_gpus")
            if gb is None:
                continue
            label = {"qlora": "QLoRA", "lora": "LoRA", "full": ctx.t("full", "全参")}[m]
            cells.append(f"{label} {gb:,.0f} GB" + (ctx.t(" ✅", " ✅") if need == 1 else
                                                   ctx.t(f" (needs {need})", f"（要 {need} 张）") if need else ""))
        if cells:
            rows.append(f"- {ctx.deps.catalog.model(mid)[0].name}: " + ctx.t(", ", "，").join(cells))
    if len(rows) < 2:
        return ""
    card = ctx.gpu().name
    fam = req.model_text or top
    return ctx.t(f"**Which {fam} size, and LoRA, QLoRA or full fine-tuning?** The memory turns on both; on one {card} "
                 "(✅ = fits one card):", f"**是哪个尺寸的 {fam}，用 LoRA、QLoRA 还是全参？** 显存取决于这两点；一张 {card} 上"
                 "（✅ = 一张卡放得下）：") + "\n" + "\n".join(rows) + "\n\n" + ctx.t(
        f"Sized below as {ctx.model().name} until you say.", f"没说之前，下面按 {ctx.model().name} 计算。")


def _family_sizes_memory(ctx: Ctx) -> str:
    """'微调一个 Qwen 模型要多少显存？': the family's sizes differ hundreds of times, so which one is asked (and the method,
    when none is named), with each size's total memory for QLoRA, LoRA and full fine-tuning (tools.train_memory on one
    GPU of the answer's card: the total before it is split) and the bytes per parameter they come to."""
    from knowledge.catalog import FAMILY_MIDDLE, FAMILY_SMALL
    from tools.train_memory import TrainingMemoryRequest, estimate_training_memory

    req = ctx.req
    members = [x for x in (FAMILY_SMALL.get(req.model or ""), FAMILY_MIDDLE.get(req.model or ""), req.model) if x]
    if len(members) < 2:
        return ""
    from assistant.plans.train import DEFAULT_GPU

    gpu = ctx.gpu(ctx.req.gpu or DEFAULT_GPU)
    rows, per_param = [], {}
    for mid in dict.fromkeys(members):
        model = ctx.deps.catalog.model(mid)[0]
        cells = []
        for method in ("qlora", "lora", "full"):
            try:
                r = estimate_training_memory(TrainingMemoryRequest(model=model, gpu=gpu, method=method, num_gpus=1))
            except (ValueError, LookupError):
                cells.append("-")
                continue
            cells.append(f"{r.per_gpu_gb:,.0f}")
            if mid == members[0]:
                per_param[method] = r.per_gpu_gb * 1e9 / model.params_total
        rows.append([model.name] + cells)
    head = [ctx.t("model", "模型"), "QLoRA GB", "LoRA GB", ctx.t("full GB", "全参 GB")]
    rule = ""
    if len(per_param) == 3:
        rule = ctx.t(f" Per parameter at {rows[0][0]}: QLoRA ≈ {per_param['qlora']:.1f} bytes, LoRA ≈ {per_param['lora']:.1f}, "
                     f"full ≈ {per_param['full']:.0f} (16 bytes of weights, gradients and AdamW states, plus activations).",
                     f" 按 {rows[0][0]} 折算每参数：QLoRA ≈ {per_param['qlora']:.1f} 字节，LoRA ≈ {per_param['lora']:.1f}，"
                     f"全参 ≈ {per_param['full']:.0f}（权重、梯度和 AdamW 状态 16 字节，另加激活）。")
    method_q = "" if (req.method or req.methods) else ctx.t(" And full fine-tuning, LoRA or QLoRA?", "另外是全参、LoRA 还是 QLoRA？")
    return ctx.t(f"**Which {req.model_text or 'model'} size?** The family's members differ hundreds of times in memory "
                 f"(totals before splitting over GPUs, 2,048-token sequences, micro-batch 1):{method_q}",
                 f"**是哪个尺寸的 {req.model_text or '模型'}？** 同系列不同尺寸显存差几百倍（分到多卡之前的总量，序列 2,048，"
                 f"micro-batch 1）：{method_q}") + "\n\n" + md_table(head, rows) + "\n\n" + rule.strip() + \
        ctx.t(" The flagship is sized below until you say.", " 没说之前，下面按旗舰计算。")


def _family_sizes_per_billion(ctx: Ctx) -> str:
    """'fine-tune llama on our tickets, 8x A100: how long?': a family named alone is read as its flagship, but a team's
    fine-tune is as often a mid-size member: which one, asked, with the hours per 1B tokens of each meanwhile."""
    from knowledge.catalog import FAMILY_MIDDLE, FAMILY_SMALL

    req = ctx.req
    mid = FAMILY_MIDDLE.get(req.model or "")
    if not mid or not req.intent.startswith("training"):
        return ""
    rows = []
    saved = ctx.req
    try:
        for mid_id in [x for x in (FAMILY_SMALL.get(req.model or ""), mid, req.model) if x]:
            ctx.req = saved.model_copy(update={"model": mid_id, "family_flagship": None})
            _, hours = _per_billion_tokens(ctx)
            if hours:
                rows.append((ctx.deps.catalog.model(mid_id)[0].name, hours))
    finally:
        ctx.req = saved
    if len(rows) < 2:
        return ""
    t = (req.tokens or 0) * (req.epochs or 1)
    if t:  # the user's own data: each size's hours for it
        listed_en = "; ".join(f"{n}: {h * t / 1e9:,.1f} h for your {t / 1e9:.2g}B tokens" for n, h in rows)
        listed_zh = "；".join(f"{n}：你的 {t / 1e9:.2g}B token 约 {h * t / 1e9:,.1f} 小时" for n, h in rows)
    else:
        listed_en = "; ".join(f"{n}: {h:,.1f} h per 1B training tokens" for n, h in rows)
        listed_zh = "；".join(f"{n}：每 10 亿训练 token {h:,.1f} 小时" for n, h in rows)
    return ctx.t(f"**Which {req.model_text or 'model'} size?** The time scales with it: on your {req.num_gpus or 1} GPUs, "
                 f"{listed_en} (full fine-tuning; the flagship is assumed below until you say).",
                 f"**是哪个尺寸的 {req.model_text or '模型'}？** 时间和它成正比：你的 {req.num_gpus or 1} 张卡上，{listed_zh}"
                 "（全参微调；没说之前下面按旗舰算）。")


def _which_mac(ctx: Ctx, name: str) -> Answer:
    """'Can my MacBook Pro run Qwen2.5-72B Q4_K_M?': the chip and its unified memory decide; asked, with the memory
    the model needs and the smallest Mac configurations that hold it meanwhile."""
    from assistant.plans.infer import fits_on

    req = ctx.req
    model = ctx.model()
    fmt = req.precision if req.precision not in (None, "int4") else \
        model.native_precision if str(model.native_precision).startswith(("mxfp4", "q4", "int4")) else "q4_k_m"
    apple = sorted((g for g in ctx.deps.catalog.gpus if g.vendor == "Apple" and not re.search(r"-\d+c-", g.id)),
                   key=lambda g: (g.memory_gb, g.id))
    holds = []
    for g in apple:
        try:
            x = fits_on(model, g, 1, fmt, req.context or 4096)
        except ValueError:
            continue
        if x.fits:
            holds.append((g, x))
    need = holds[0][1].per_gpu_gb if holds else None
    sizes = sorted({int(g.memory_gb) for g, _ in holds})[:4]
    text = ctx.t(f"**Which chip and how much unified memory does your {name} have?** That decides it: {model.name} in "
                 f"{fmt} needs about {need:,.0f} GB" + (f"; a Mac with {sizes[0]} GB or more of unified memory holds it "
                                                       "(macOS lets the GPU use about 70-75% of the memory by default)"
                                                       if sizes else "; no Mac configuration in the table holds it") + ".",
                 f"**你的 {name} 是什么芯片、多少统一内存？** 这决定能不能跑：{model.name} 用 {fmt} 约需 {need:,.0f} GB"
                 + (f"；统一内存 {sizes[0]} GB 及以上的 Mac 放得下（macOS 默认让 GPU 用约 70-75% 的内存）"
                    if sizes else "；表里没有放得下的 Mac 配置") + "。") if need else ctx.t(
        f"**Which chip and how much unified memory does your {name} have?**", f"**你的 {name} 是什么芯片、多少统一内存？**")
    lines = _macs_that_hold(ctx, model, fmt, holds)
    if lines:
        text += "\n\n" + ctx.t("Meanwhile, the smallest Macs that hold it:", "先看放得下的几款 Mac：") + "\n" + "\n".join(lines)
    users = req.concurrent_users or req.batch or 0
    if users >= 4 and holds:
        text += "\n\n" + ctx.t(
            f"**For {users} people at once a Mac is the wrong tool**: llama.cpp and MLX run a few streams at a time and "
            "prefill long prompts slowly, so with many users requests queue; one Mac suits one person or a handful; for "
            f"{users} people, a GPU server with vLLM/SGLang (the GPU answer above).",
            f"**{users} 个人同时用，Mac 不合适**：llama.cpp 和 MLX 一次只能跑几路，长提示的预填充也慢，人多了就排队；一台 Mac 适合一个人"
            f"或几个人用；{users} 人请用 GPU 服务器跑 vLLM/SGLang（见上面的 GPU 方案）。")
    clar = Clarification(missing=["gpu"], question=ctx.t("Which chip and memory (e.g. M3 Max 64GB)?",
                                                         "什么芯片、多少内存（如 M3 Max 64GB）？"),
                         suggestions=[g.name for g, _ in holds[:3]])
    return _question_back(ctx, text, clar, "gpu", calls=True)


def _macs_that_hold(ctx: Ctx, model, fmt: str, holds: list) -> list[str]:
    """'- Apple M4 Max (128 GB): 66 GB needed, about 45 tokens/s for one stream': the two smallest memory sizes of Mac
    that hold the model, one chip each (the fastest memory of that size), with the one-stream decode speed."""
    from tools.infer_speed import InferenceSpeedRequest, estimate_inference_speed

    out, seen = [], set()
    for g, x in holds:
        size = int(g.memory_gb)
        if size in seen:
            continue
        same = [h for h, _ in holds if int(h.memory_gb) == size]
        best = max(same, key=lambda h: h.memory_bandwidth_gbps or 0)
        seen.add(size)
        try:
            speed = estimate_inference_speed(InferenceSpeedRequest(model=model, gpu=best, precision=fmt, batch=1,
                                                                   context=2048, output=256, engine="llamacpp"))
            tps = speed.decode_tokens_per_s_per_seq
        except (ValueError, ZeroDivisionError):
            tps = None
        out.append(f"- {best.name}: " + ctx.t(f"holds it ({x.per_gpu_gb:,.0f} GB needed)", f"放得下（需要约 {x.per_gpu_gb:,.0f} GB）")
                   + (ctx.t(f", about {tps:,.0f} tokens/s for one stream (llama.cpp, estimate)",
                            f"，单路约 {tps:,.0f} token/秒（llama.cpp，估算）") if tps else ""))
        if len(out) == 2:
            break
    return out


def _size_the_family_lacks(ctx: Ctx) -> Answer | None:
    """'Qwen3-72B 用 4 张 H20 够不够？': a family the catalog knows with a size it never had (Qwen3 has 32B dense and a
    235B MoE, no 72B): said, and asked which model was meant, with the job on the nearest ones meanwhile."""
    req = ctx.req
    m = re.fullmatch(r"([\d.]+)b", req.model or "")
    text = (req.model_text or "").lower()
    fam = re.match(r"([a-z]+[\d.]*)[\s_-]*[\d.]+b", text) if m and text else None
    if not fam and m:  # ('Llama 4 70B': the family and its version written apart from the size read)
        fam = re.search(r"([a-z]+)[\s_-]*(\d+(?:\.\d+)?)[\s_-]+" + re.escape(m.group(1)) + r"\s*b(?![a-z0-9])",
                        ctx.question.lower())
        if fam:
            said = fam.group(0)
            fam = re.match(r"(.+)", fam.group(1) + fam.group(2))
            req = ctx.req = req.model_copy(update={"model_text": said.strip().title().replace(" B", "B")})
    if not fam:
        return None
    family = fam.group(1).rstrip(".-")
    members = [x for x in ctx.deps.catalog.models if x.family and x.family.replace("-", "") == family.replace("-", "")]
    if not members:
        return None
    size = float(m.group(1)) * 1e9
    near = sorted(members, key=lambda x: abs(x.params_total - size))[:2]
    stem = re.match(r"[a-z]+", family).group(0)
    from knowledge.catalog import SPECIALISED_MEMBER

    pool = [x for x in ctx.deps.catalog.models if abs(x.params_total / size - 1) < 0.06 and x not in members
            and "distill" not in x.id and not SPECIALISED_MEMBER.search(x.id)]
    other = sorted((x for x in pool if x.id.startswith(stem)), key=lambda x: [-ord(c) for c in x.id])[:1]
    # (the same maker's other generation, its latest release: 'llama-3.3-70b' before 'llama-3-70b'; never another
    # maker's model of that size, which is no reading of the name)
    sizes = ", ".join(x.name for x in sorted(members, key=lambda x: x.params_total) if "coder" not in x.id)
    options = other + near
    clar = Clarification(missing=["model"], question=ctx.t(f"Which model did you mean?", "你指的是哪个模型？"),
                         suggestions=[x.name for x in options][:3])
    text_out = ctx.t(f"**{req.model_text} does not exist**: the {family} family has {sizes}. Which did you mean"
                     + (f" — {other[0].name} (the {m.group(1)}B of another generation)" if other else "") + "?",
                     f"**没有 {req.model_text} 这个模型**：{family} 系列有 {sizes}。你指的是哪个"
                     + (f"——{other[0].name}（另一代的 {m.group(1)}B）" if other else "") + "？")
    meanwhile = _on_the_suggested_models(ctx, options[:3])
    if meanwhile:
        text_out += "\n\n" + ctx.t("Meanwhile, the same job with those models:", "先按这几个模型算同样的任务：") + "\n" + \
            "\n".join(meanwhile)
    return _question_back(ctx, text_out, clar, "model")


# 'requirements are in the attached sheet', '需求见附件': an attachment the assistant cannot see
ATTACHED = (r"(?<![a-z])(?:attached|attachment|the sheet|spreadsheet|see (?:the )?(?:doc|file|pdf|link)|in the (?:doc|file|pdf))"
            r"(?![a-z])|附件|见附表|见表格|表格里|文档里|见文档|截图里")


def _attachment_unseen(ctx: Ctx) -> Answer:
    """The requirements sit in an attachment the message does not carry: said, and the inputs that decide a GPU plan
    asked for, each with the default that would be assumed."""
    req = ctx.req
    if req.intent == "out_of_scope":  # ('what GPUs should we get?' with the needs elsewhere: a pick, not off-topic)
        req = ctx.req = req.model_copy(update={"intent": "recommend"})
    clar = Clarification(missing=["model", "load"], question=ctx.t(
        "I can't see attachments: paste the figures from the sheet.", "我看不到附件：把表里的关键数字直接贴过来。"),
        suggestions=[])
    text = ctx.t(
        "**I can't see the attachment** (only the message text reaches me). The plan turns on these; paste them (a "
        "default is assumed for any you leave out, and said):\n"
        "- the model (or its size), and training or serving;\n"
        "- serving: peak concurrent users or requests per second, typical prompt and answer length, a latency target "
        "(time to first token, tokens/s per user);\n"
        "- training: tokens (or samples × length), method (full / LoRA / QLoRA), a deadline;\n"
        "- budget, buy or rent, and any hosting limits (power, rack space, vendors you can buy).",
        "**我看不到附件**（只收到消息正文）。方案取决于下面这些，请直接贴出来（没给的会按默认值假设并说明）：\n"
        "- 模型（或参数量），训练还是推理；\n"
        "- 推理：峰值并发或每秒请求数、典型输入和输出长度、延迟要求（首 token、每用户 token/秒）；\n"
        "- 训练：数据量（token，或条数 × 长度）、方法（全参 / LoRA / QLoRA）、工期；\n"
        "- 预算、买还是租、机房限制（供电、机柜空间、能买哪些厂商的卡）。")
    return _question_back(ctx, text, clar, "model")


COUNT_WORDS = r"几张|几块|几台|多少张|多少块|多少台|多少卡|(?<![a-z])(?:how many|number of (?:gpus|cards))(?![a-z])"


def _which_member(ctx: Ctx) -> Answer:
    """A versioned family named without a size for a job whose answer hinges on the size ('Qwen3 要几张 H20', '用 H20
    训练 Qwen3 要多少张卡'): which member is asked, the family's members listed, and the job on a small, a middle and the
    largest general member meanwhile."""
    req = ctx.req
    from knowledge.catalog import SPECIALISED_MEMBER

    members = sorted((x for x in ctx.deps.catalog.models if x.family == req.family and not SPECIALISED_MEMBER.search(x.id)),
                     key=lambda x: x.params_total)
    if req.intent in ("spec", "compare", "recommend"):  # 'Qwen3 要几张 H20', '全参微调买 H20 还是 A800': the job on the cards
        job = "training_memory" if req.method in ("full", "lora", "qlora", "pretrain") else "inference_memory"
        req = ctx.req = req.model_copy(update={"intent": job})
    sizes = ", ".join(f"{x.name}" for x in members)
    usable = [x for x in members if x.params_total >= 3e9] or members  # (a sub-3B member decides no purchase)
    picks = list({x.id: x for x in (usable[0], usable[len(usable) // 2], usable[-1])}.values()) if usable else []
    fam = members[0].name.split()[0] if members else req.family
    clar = Clarification(missing=["model"], question=ctx.t(f"Which {fam} model?", f"是哪个 {fam} 型号？"),
                         suggestions=[x.name for x in picks])
    text = ctx.t(f"**Which {fam} model?** The answer turns on its size: the family has {sizes}.",
                 f"**是哪个 {fam} 型号？** 答案取决于参数量：这个系列有 {sizes}。")
    if req.intent in ("training_memory", "training_time") and not req.method:
        text += ctx.t(" And which training: full fine-tuning, LoRA or QLoRA (or pre-training, with how many tokens)?",
                      "另外是哪种训练：全参微调、LoRA 还是 QLoRA（或预训练，多少 token）？")
    meanwhile = _on_the_suggested_models(ctx, picks, whole=len(set(req.gpus or [])) >= 2)
    if meanwhile:
        text += "\n\n" + ctx.t("Meanwhile, the same job with a few of them:", "先按其中几个型号算同样的任务：") + "\n" + "\n".join(meanwhile)
    from assistant.multi_ask import format_choice_line
    from assistant.readers.asks import formats_named

    users = req.concurrent_users or req.batch or 1
    choice = format_choice_line(formats_named(ctx.question or ""), users, ctx.zh)
    if choice:  # 'Q4_K_M 还是 AWQ?' beside the size question: answered now, it does not hinge on the size
        text += "\n\n" + choice
        ctx.used |= {"precision"}
    return _question_back(ctx, text, clar, "model")


def _on_the_suggested_models(ctx: Ctx, models: list, whole: bool = False) -> list[str]:
    """One line per model: the headline of the planner's own answer for the same job with that model (with `whole`,
    the message's own asks, so several cards named are compared: their comparison line)."""
    out = []
    typed = ctx.req.model_text or ""
    for x in models:
        sub = ctx.req.model_copy(update={"model": x.id, "model_text": x.name, "family": None, "unknown_model": None})
        # (the question as if it named this model: the name typed is no longer an unknown one to flag again)
        q = re.sub(re.escape(typed).replace(r"\-", r"[\s_-]*").replace(r"\ ", r"[\s_-]*"), x.name, ctx.question,
                   flags=re.I) if typed else ctx.question
        a = plan_message(sub, ctx.deps, q) if whole else plan(sub, ctx.deps, q)
        head = (a.comparison if whole and a.comparison else _headline(a)) or ""
        first, _, rest = head.strip().partition("\n")
        if first.rstrip("*").endswith((":", "：")) and rest:
            # ('**Qwen2.5 3B，8 张 H20：**\n- 全参：放得下…': the verdict under the header, on one line)
            head = first.strip("*").rstrip(":：") + ctx.t(": ", "：") + "; ".join(
                x.lstrip("- ").strip() for x in rest.splitlines() if x.startswith("- "))
        if head and not head.strip().rstrip("*").endswith((":", "：")):  # (a header with nothing after it is no answer)
            out.append(f"- {x.name}: {head.strip()}")
    return out


BUDGET_CARDS = ("rtx-4090", "l40s", "a100-80gb", "h100")  # the cards a budget of this kind usually buys, cheapest first


def _budget_rent_or_buy(ctx: Ctx) -> str:
    """Rent or buy with a budget and nothing else: what the budget buys of a few usual cards (the price table's
    purchase price, plus one host server), and when buying pays back against renting the same cards at the table's
    typical rate, at 24 h and 8 h a day; then what owning adds."""
    from assistant.plans.money import typical_rate
    from tools.purchase import host_price, price_of

    req = ctx.req
    cur = req.currency or ("CNY" if ctx.zh else "USD")
    sym = "¥" if cur == "CNY" else "$"
    host = host_price(8, cur)
    rows = []
    for gid in BUDGET_CARDS:
        gpu = ctx.gpu(gid)
        got = price_of(list(ctx.deps.prices()), gpu, cur)
        rate = typical_rate(ctx, gid, cur)
        if not got or not rate:
            continue
        fit = int((req.budget - host) // got[0]) if req.budget > host else 0
        n = max((k for k in (1, 2, 4, 8) if k <= fit), default=0)  # (a server takes 1, 2, 4 or 8 cards)
        if n < 1:
            continue
        capex = n * got[0] + host
        months = lambda h: capex / (n * rate * h * 30.4)  # noqa: E731  (rent of the same cards, h hours a day)
        used = ctx.t(" (used)", "（二手）") if got[1] == "used" else ""
        rows.append([f"{n}× {gpu.name}{used}", f"{sym}{capex:,.0f}", f"{sym}{rate:,.2f}", f"{months(24):,.1f}", f"{months(8):,.1f}"])
    if not rows:
        return ""
    head = [ctx.t("what it buys", "能买到"), ctx.t("cards + server", "卡 + 服务器"), ctx.t("rent per GPU-h", "租金/卡·时"),
            ctx.t("pays back, 24 h/day (months)", "回本月数（每天 24 小时）"), ctx.t("8 h/day", "每天 8 小时")]
    return ctx.t(f"Meanwhile, what {sym}{req.budget:,.0f} buys and when buying pays back against renting the same cards "
                 f"(price-table estimates; one host server at about {sym}{host:,.0f}):",
                 f"先看 {sym}{req.budget:,.0f} 能买到什么、和租同样的卡比多久回本（价格表估计；服务器约 {sym}{host:,.0f} 一台）：") + \
        "\n\n" + md_table(head, rows) + "\n\n" + ctx.t(
        "Buying wins only if the cards stay busy for longer than that; owning also adds power, hosting or a machine "
        "room and cooling, someone to run it, and depreciation (what the cards resell for once a newer generation ships). "
        "For a job of a few months, or use a few hours a day, rent.",
        "只有卡能持续忙过这个时间，买才划算；自己买还要加电费、机房/托管和散热、运维人力、折旧（新一代出来后旧卡还能卖多少）。"
        "只用几个月、或每天只用几个小时，就租。")


def _card_versions(ctx: Ctx) -> list:
    """The other memory versions of the card named without its memory ('A100s' -> the 40 GB one beside the 80 GB
    default); none when the user wrote the memory or the card comes in one size."""
    req = ctx.req
    if re.search(r"\d\s*(?:g|gb|gib|吉)(?![a-z])", (req.gpu_text or "").lower()) or "gpu" not in req.stated:
        return []
    gpu = ctx.gpu()
    if gpu.vendor == "Apple" or re.search(rf"(?<![\d.]){gpu.memory_gb:g}\s*(?:g|gb|gib|吉|的)", ctx.question.lower()):
        return []  # (the memory written elsewhere in the message: 'Mac Studio (M2 Ultra, 192GB)', '80G 的 A100')
    stem = lambda name: re.sub(r"\s*\d+\s*GB", "", name)  # noqa: E731
    return [g for g in ctx.deps.catalog.gpus if stem(g.name) == stem(gpu.name) and g.memory_gb != gpu.memory_gb
            and g.id != gpu.id]


def _memory_version(ctx: Ctx, answer: Answer) -> Answer:
    """The verdict on the card's other memory version, when it differs from the default's (fits on one, not on the
    other): said, and which one they have asked."""
    others = _card_versions(ctx)
    if not others or not answer.verdict or answer.verdict.fits is None:
        return answer
    other = others[0]
    try:
        sub = ctx.req.model_copy(update={"gpu": other.id, "gpus": [other.id], "gpu_text": other.name})
        alt = plan(sub, ctx.deps, ctx.question, one_of_several=True)
    except Exception:  # the other version cannot be sized: the answer stands (logged, never a traceback)
        log.exception("sizing the other memory version failed")
        return answer
    head = _headline(alt).strip()
    names = "|".join(re.escape(x) for x in (ctx.gpu().name, others[0].name))
    lead = lambda h: re.sub(names, "", (re.match(r"\*\*(.+?)\*\*", h) or re.match(r"(.*)", "")).group(1))  # noqa: E731
    if alt.status != "answered" or not alt.verdict or (alt.verdict.fits == answer.verdict.fits and
                                                        lead(head) == lead(next((p.strip() for p in answer.answer.split(
                                                            "\n\n") if p.strip().startswith("**")), ""))):
        return answer  # (the same verdict on both versions: '92 H20s' either way is nothing to ask about)
    gpu = ctx.gpu()
    text = ctx.t(f"**{gpu.name} or {other.name}?** It decides this: the answer below is for the {gpu.memory_gb:g} GB "
                 f"version; on the {other.memory_gb:g} GB one: {head}",
                 f"**是 {gpu.memory_gb:g} GB 还是 {other.memory_gb:g} GB 的？** 结论取决于它：下面按 {gpu.memory_gb:g} GB 算；"
                 f"{other.memory_gb:g} GB 版：{head}")
    family = re.sub(r"^NVIDIA ", "", re.sub(r"\s*\d+\s*GB", "", gpu.name))
    clar = Clarification(missing=["gpu"], question=ctx.t(f"Which {family}: {gpu.memory_gb:g} GB or {other.memory_gb:g} GB?",
                                                          f"是 {gpu.memory_gb:g} GB 还是 {other.memory_gb:g} GB 的？"),
                         suggestions=[gpu.name, other.name])
    body = answer.answer
    first, sep, rest = body.partition("\n\n")
    # (said, with the question as a one-click completion; the answer for the default version stands)
    return answer.model_copy(update={"answer": first + "\n\n" + text + (sep + rest if sep else ""), "clarification": clar})


# models that think before they answer by default: DeepSeek-R1 and its distills, QwQ, Qwen3 (hybrid, thinking on
# unless enable_thinking=False or /no_think; model card), gpt-oss (reasoning effort low/medium/high)


def _reasoning_caveat(ctx: Ctx, answer: Answer) -> Answer:
    """A reasoning model's output lengths: its thinking comes before the reply, often thousands of tokens, so the
    output length the plan assumed may be several times short; what that changes is said."""
    text = ctx.t("**A reasoning model**: it thinks before it answers, and the thinking is output too: replies often run "
                 "1,000-8,000 tokens, not the few hundred assumed above. Each request then lasts several times longer and "
                 "holds more KV cache, so the same GPUs serve fewer users at once: give your real output length (or turn "
                 "thinking off for simple queries, e.g. Qwen3's enable_thinking=False) to size it.",
                 "**这是推理（思考）模型**：回答前先输出思考过程，一次回复常有 1,000-8,000 token，而不是上面假设的几百。每个请求"
                 "持续时间长好几倍、占的 KV cache 也更多，同样的卡能同时服务的人更少：请给出实际输出长度（简单问题可以关掉思考，"
                 "如 Qwen3 的 enable_thinking=False）再算。")
    return answer.model_copy(update={"answer": after_headline(answer.answer, text)})


def after_headline(body: str, text: str) -> str:
    """`text` as the paragraph after the answer's headline (its first bold paragraph, with or without the restatement
    above it)."""
    parts = body.split("\n\n")
    at = next((i + 1 for i, p in enumerate(parts) if p.strip().startswith("**")), 1)
    parts.insert(at, text)
    return "\n\n".join(parts)


def _job_unstated(ctx: Ctx) -> bool:
    """A GPU count asked for a model with no word of what the GPUs do: no run/serve/deploy, no train/fine-tune, no
    load, context, format or method ('how many A100s do I need for Llama 3.1 70B?')."""
    from assistant.readers.slots import FINETUNE_CUE, INFER_CUE

    req, low = ctx.req, ctx.question.lower()
    return bool(req.intent == "inference_memory" and req.model and "num_gpus" not in req.stated
                and re.search(COUNT_WORDS, low) and not re.search(INFER_CUE + "|" + FINETUNE_CUE + "|" + SERVICE_WORDS, low)
                and not any((req.concurrent_users, req.requests_per_s, req.batch, req.context, req.prompt_len,
                             req.precision, req.method, req.methods, req.tokens, req.team_size, req.tokens_per_day,
                             req.throughput_tokens_per_s, req.daily_active_users, req.period_hours, req.deadline_hours,
                             req.price_per_gpu_hour, req.budget, req.purchase, req.batch_items, req.batch_output_tokens)))


def _quoted_other_run(req: Request, question: str):
    """A published run the message quotes beside a training job of the user's own on another model ('DeepSeek V3 took
    2.788M H800 GPU-hours … we want a dense 70B on 15T tokens'), or None."""
    from knowledge.runs import find_run

    from assistant.readers.slots import QUOTE_CUE

    low = question.lower()
    if req.intent not in ("training_time", "cost") or not req.model or not req.tokens or req.scale_run or \
            req.unknown_gpu or not re.search(QUOTE_CUE + r"|号称|据说|(?<![a-z])(?:took|claims?|reportedly)(?![a-z])", low) or \
            not re.search(r"gpu[\s-]?h(?:ou)?rs?|卡时|gpu\s*小时|万美元|万元|\$\s*\d|\d\s*(?:m|million)\b", low):
        return None  # (a run quoted with its figures: a model named for the user's own job is no quote)
    try:
        run = find_run(question)
    except Exception:  # a run table that cannot be read leaves the job as asked (logged)
        log.exception("finding a quoted run failed")
        return None
    return run if run is not None and run.model != req.model and run.gpu_hours else None


def _against_quoted_run(ctx: Ctx, answer: Answer, run) -> Answer:
    """The user's job set against the run they quoted: compute (6 × active parameters × tokens each), the GPU-hours
    it would take at the run's own rate of FLOPs per GPU-hour, and why the quoted cost does not carry over."""
    mine = answer.figures["total_flops"]
    theirs = 6 * (run.active_params or run.params) * run.tokens
    ratio = mine / theirs
    hours = run.gpu_hours * ratio
    moe = bool(run.active_params and run.active_params < run.params)
    scaled = f"At {run.name}'s own efficiency" in answer.answer or f"按 {run.name} 的效率" in answer.answer
    line = ctx.t(
        f"**Against {run.name}**: your job is {mine:.2e} FLOPs, theirs 6 × {(run.active_params or run.params) / 1e9:,.0f}B "
        f"{'active ' if moe else ''}parameters × {run.tokens / 1e12:,.1f}T tokens = {theirs:.2e}: **{ratio:.1f}×** theirs"
        + ("" if scaled else f"; at their own rate ({run.gpu_hours / 1e6:,.2f}M GPU-hours for it) that is **~"
           f"{hours / 1e6:,.1f}M GPU-hours**") + f", so about {ratio:.1f}× their bill at the same efficiency. "
        "Their figure counts the final run only (no experiments or ablations)"
        + (", on an MoE that computes only its active parameters per token, in FP8 with engineering few teams match; "
           "a dense model pays for every parameter on every token." if moe else "."),
        f"**和 {run.name} 比**：你的任务 {mine:.2e} FLOPs，他们的是 6 × {(run.active_params or run.params) / 1e9:,.0f}B"
        f"{'激活' if moe else ''}参数 × {run.tokens / 1e12:,.1f}T token = {theirs:.2e}：是他们的 **{ratio:.1f} 倍**"
        + ("" if scaled else f"，按他们自己的效率（那次用了 {run.gpu_hours / 1e6:,.2f}M 卡时）约 **{hours / 1e6:,.1f}M 卡时**")
        + f"，同样的效率下费用也约是他们的 {ratio:.1f} 倍。他们的数字只算最终那一次"
        "训练（不含实验、消融）" + ("，而且是 MoE：每个 token 只算激活参数，还用了 FP8 和很少团队能复现的工程优化；稠密模型每个 token 所有参数都要算。"
                                    if moe else "。"))
    return answer.model_copy(update={"answer": after_headline(answer.answer, line)})


def _pcie_only(ctx: Ctx) -> bool:
    """A PCIe card: no NVSwitch, at most an NVLink bridge between pairs, so four or more talk over PCIe."""
    return "pcie" in (ctx.gpu().form_factor or "").lower()


COMPANY_IN_FLIGHT = 10  # requests in flight assumed for a company deployment asked with no users (said, asked)
PROMPT_LENGTHS = (2048, 4096, 8192, 16384)  # the lengths a RAG capacity is shown at when the prompt length is unstated


def _capacity_by_length(ctx: Ctx, answer: Answer) -> Answer:
    """A concurrency asked for long-document work with no length given: the requests the answer's own KV pool holds
    at a few prompt lengths (pool tokens over the length each), and the length asked."""
    pool = int(answer.figures["kv_pool_tokens"])
    rows = [[f"{n:,}", f"{pool // n:,}"] for n in PROMPT_LENGTHS]
    text = ctx.t(f"**How long are your prompts (retrieved chunks + question) and answers?** The count turns on it: the KV "
                 f"pool holds {pool:,} tokens, so requests at once by length (memory; the speed each gets falls as more "
                 "share the GPU):", f"**你们每次请求的输入（检索片段 + 问题）和输出大概多长？** 并发取决于它：KV 池共 {pool:,} token，"
                 "按长度能同时容纳的请求数（只看显存；同时的越多，每路越慢）：") + "\n\n" + \
        md_table([ctx.t("tokens per request", "每个请求 token 数"), ctx.t("requests at once", "同时请求数")], rows)
    clar = Clarification(missing=["prompt_len"], question=ctx.t(
        "How long are prompts (chunks + question) and answers, and what speed per user do you need?",
        "输入（检索片段 + 问题）和输出大概多长？每路需要多快？"), suggestions=[ctx.t("4k in, 500 out", "输入 4k，输出 500"),
                                                                   ctx.t("8k in, 1k out", "输入 8k，输出 1k")])
    # (answered at the stated default, the length asked alongside)
    return answer.model_copy(update={"answer": after_headline(answer.answer, text), "clarification": clar})


DEADLINE_MONTHS = (1, 3, 6)  # deadlines a pre-training count is shown at when none is given (months of 730 h)


def _counts_by_deadline(ctx: Ctx, answer: Answer) -> Answer:
    """A pre-training count asked with no time allowed: the GPUs (whole 8-GPU servers, 15% to spare) and the rent for a
    few deadlines, from the training-time plan; the deadline asked."""
    req = ctx.req
    rows = []
    for months in DEADLINE_MONTHS:
        try:
            a = plan(req.model_copy(update={"deadline_hours": 730.0 * months, "num_gpus": None}), ctx.deps, ctx.question,
                     one_of_several=True)
        except Exception:  # a deadline the tools cannot plan is left out (logged)
            log.exception("count for %d months failed", months)
            continue
        n, days = (a.request or {}).get("num_gpus"), a.figures.get("wall_days")
        if not n or not days:
            continue
        ctx.calls.extend(a.tool_calls)
        cost = a.figures.get("cost_usd")
        rows.append([ctx.t(f"{months} month" + ("s" if months > 1 else ""), f"{months} 个月"), str(n), f"{days:,.0f}",
                     ctx.money(cost) if cost else "-"])
    if not rows:
        return answer
    card = ctx.gpu().name if req.gpu else ctx.deps.catalog.gpu(answer.verdict.gpu)[0].name if answer.verdict and \
        answer.verdict.gpu else "H100"
    text = ctx.t(f"**By when must it finish (or what budget)?** The count is set by the time allowed: the compute is fixed "
                 f"by the tokens, and more GPUs finish it sooner. On {card} (whole 8-GPU servers, 15% to spare):",
                 f"**要多久训完（或预算多少）？** 卡数由工期决定：计算量由 token 数定死，卡越多越快。在 {card} 上（按整台 8 卡、留 15% 余量）：") + \
        "\n\n" + md_table([ctx.t("finish within", "工期"), ctx.t("GPUs", "卡数"), ctx.t("days", "天数"),
                            ctx.t("rent (on demand)", "租用（按需）")], rows)
    if re.search(r"买|购|(?<![a-z])(?:buy|purchase)(?![a-z])", ctx.question.lower()):
        # ('要买什么卡、买多少张？' for one run): owning pays only for cards kept busy after it
        text += "\n\n" + ctx.t("Buy or rent: for one run, renting is usually cheaper; buying pays back only if the cards "
                               "stay busy for years after it (more runs, fine-tunes, serving). Price both once the deadline "
                               "is set.", "买还是租：只训这一次的话，租通常更划算；只有训完后卡还会持续用满好几年（后续训练、微调、推理），买才回得了本。"
                               "定下工期后可以把两种都算一下。")
    clar = Clarification(missing=["deadline_hours"], question=ctx.t("By when must the run finish, or what is the budget?",
                                                                    "要多久训完，或者预算多少？"),
                         suggestions=[ctx.t("within 3 months", "3 个月内"), ctx.t("budget $200k", "预算 150 万")])
    return answer.model_copy(update={"answer": after_headline(answer.answer, text), "status": "needs_clarification",
                                     "clarification": clar})


def _heard_figure_judged(ctx: Ctx, answer: Answer) -> Answer:
    """A speed someone else reported, asked about beside the user's own job: judged on the same model and card (one
    stream's ceiling, and as a total over many streams), in a section after the job's answer; the job used only the
    user's own figures."""
    req = ctx.req
    sub = req.model_copy(update={"intent": "inference_speed", "claimed_tokens_per_s": req.quoted_tokens_per_s,
                                 "quoted_tokens_per_s": None, "requests_per_s": None, "concurrent_users": None,
                                 "throughput_tokens_per_s": None, "throughput_scope": None, "measured_concurrency": None,
                                 "tokens_per_s_per_user": None, "num_gpus": None, "prompt_len": None, "output_len": None})
    try:
        judged = plan(sub, ctx.deps, ctx.question, one_of_several=True)
    except Exception:  # the judgement the tools cannot make is left out (logged)
        log.exception("judging the heard figure failed")
        return answer
    body = judged.answer.split("\n\n**Assumptions**")[0].split("\n\n**假设**")[0]
    body = body.split("\n\n", 1)[1] if body.startswith(("Understood", "理解为")) and "\n\n" in body else body
    head = ctx.t(f"**The {req.quoted_tokens_per_s:,.0f} tokens/s you heard** (judged apart; the sizing above uses only "
                 "your own figures):", f"**你听说的 {req.quoted_tokens_per_s:,.0f} token/秒**（单独判断；上面的卡数只用你自己的数据）：")
    ctx.calls.extend(judged.tool_calls)
    return answer.model_copy(update={"answer": _before_assumptions(answer.answer, head + "\n\n" + body),
                                     "tool_calls": answer.tool_calls + judged.tool_calls})


def _before_assumptions(text: str, section: str) -> str:
    """A section put before the answer's assumptions (at the end when it has none)."""
    for mark in ("\n\n**Assumptions**", "\n\n**假设**", "\n\n**Not used**", "\n\n**未使用的输入**"):
        i = text.find(mark)
        if i >= 0:
            return text[:i] + "\n\n" + section + text[i:]
    return text + "\n\n" + section


def _training_count_without_data(ctx: Ctx) -> bool:
    """A GPU count asked for fine-tuning a model with the method, the data and the time all unstated."""
    req, low = ctx.req, ctx.question.lower()
    return bool(req.intent == "training_memory" and req.model and "num_gpus" not in req.stated and not req.methods
                and (not req.method or "method" not in req.stated) and not (req.tokens or req.samples or req.deadline_hours
                                                                            or req.period_hours or req.budget)
                and re.search(COUNT_WORDS, low))


TYPICAL_TUNE_TOKENS = 1e8  # a usual fine-tuning set: ~50k examples of ~2k tokens (an order of magnitude, stated)


def _method_and_data_asked(ctx: Ctx, answer: Answer) -> Answer:
    """The fewest GPUs per method stand (memory); the method, the data and the deadline are asked, and each method's
    time on its fewest GPUs for 100M tokens is given meanwhile (more GPUs divide it, nearly linearly)."""
    req, f = ctx.req, answer.figures
    lines = []
    for method in ("qlora", "lora", "full"):
        n = f.get(f"{method}_min_gpus")
        if not n:
            continue
        try:
            t = plan(req.model_copy(update={"intent": "training_time", "method": method, "num_gpus": n,
                                            "tokens": TYPICAL_TUNE_TOKENS}), ctx.deps, ctx.question, one_of_several=True)
        except Exception:  # a row the tools cannot make is left out (logged)
            log.exception("method time %s failed", method)
            continue
        ctx.calls.extend(t.tool_calls)
        hours = t.figures.get("wall_hours")
        if hours:
            label = {"qlora": "QLoRA", "lora": "LoRA", "full": ctx.t("full fine-tune", "全参微调")}[method]
            lines.append(ctx.t(f"- {label} on {n} GPU(s): ~{hours:,.1f} h per 100M tokens",
                               f"- {label}，{n} 张：每 1 亿 token 约 {hours:,.1f} 小时"))
    if not lines:
        return answer
    text = ctx.t("**Which method (QLoRA, LoRA or full), how much data, and by when?** Memory sets the fewest GPUs per "
                 "method (below); above that the count is chosen for the deadline: the time scales with the tokens "
                 "(6 × parameters × tokens FLOPs for full, about 2/3 of it for LoRA) and shrinks nearly in proportion to "
                 "the GPUs. For 100M tokens (~50k examples of 2k tokens) on the fewest GPUs:",
                 "**用哪种方法（QLoRA、LoRA 还是全参）、多少数据、什么时候要完成？** 显存决定每种方法的最少卡数（见下）；在此之上卡数按工期选："
                 "时间与 token 数成正比（全参 6 × 参数量 × token 数 FLOPs，LoRA 约其 2/3），卡数加倍时间约减半。以 1 亿 token（约 5 万条 × "
                 "2k）在最少卡数上为例：") + "\n" + "\n".join(lines)
    clar = Clarification(missing=["method", "tokens"], question=ctx.t(
        "Which method (QLoRA, LoRA or full), how many tokens of data (or examples × length), and by when?",
        "用哪种方法（QLoRA、LoRA 还是全参）、多少数据（token 数或条数 × 长度）、什么时候要完成？"),
        suggestions=[ctx.t("LoRA, 20k examples of 2k tokens, within a week", "LoRA，2 万条 × 2k token，一周内"),
                     ctx.t("full fine-tune, 500M tokens", "全参，5 亿 token")])
    return answer.model_copy(update={"answer": after_headline(answer.answer, text), "status": "needs_clarification",
                                     "clarification": clar})


VALUE_ASK = r"划算|性价比|值不值|更值|省钱|" + slots.w(r"cost[\s-]?effective|better value|more value|bang for|worth it|cheaper|best value")
SERVE_WORDS = r"推理|部署|自建|上线|服务|" + slots.w(r"inference|serv\w*|deploy\w*|self[\s-]?host\w*|host\w*")
VALUE_SIZES = ("qwen2.5-7b", "qwen2.5-32b", "llama-3.3-70b", "qwen3-235b-a22b")  # small, mid, large dense, large MoE


def _value_by_model_size(ctx: Ctx, answer: Answer) -> Answer:
    """Two cards compared on value for serving with no model named: the cards each common model size takes (8-bit
    weights, 4k context, a few users) on each, and which model, asked; the spec comparison below stays."""
    from assistant.plans.infer import fits_on
    from tools.formats import supported_on

    cards = [ctx.deps.catalog.gpu(g)[0] for g in dict.fromkeys(ctx.req.gpus)][:3]
    rows = []
    for mid in VALUE_SIZES:
        try:
            model = ctx.deps.catalog.model(mid)[0]
        except LookupError:
            continue
        cells = []
        for g in cards:
            fmt = "fp8" if supported_on("fp8", g)[0] else "int8"
            try:
                r = fits_on(model, g, 1, fmt, 4096, 8)
                need = 1 if r.fits else r.min_gpus
            except ValueError:
                need = None
            cells.append(str(need) if need else "-")
        rows.append([model.name] + cells)
    if not rows:
        return answer
    head = [ctx.t("model (8-bit, 4k context, 8 users)", "模型（8 位，4k 上下文，8 路）")] + [g.name.replace("NVIDIA ", "") for g in cards]
    text = ctx.t("**Which model will you serve, and for how many users?** Value flips with it: a model that fits the "
                 "smaller card needs no more, while a large one needs the bigger card's memory and bandwidth. Cards each "
                 "size takes:", "**打算跑哪个模型、多少人用？** 划不划算取决于它：小卡放得下的模型用不着大卡；大模型才需要大卡的显存和带宽。"
                 "各尺寸需要的卡数：") + "\n\n" + md_table(head, rows) + "\n\n"
    clar = Clarification(missing=["model"], question=ctx.t("Which model (size) and how many concurrent users?",
                                                           "跑哪个模型（多大）、多少并发？"),
                         suggestions=["Qwen2.5-32B", "Llama 3.3 70B", "Qwen3-235B-A22B"])
    body = answer.answer
    cut = body.find("\n\n")
    return answer.model_copy(update={"answer": body[:cut + 2] + text + body[cut + 2:] if cut > 0 else text + body,
                                     "clarification": clar})


def _run_or_train(ctx: Ctx, answer: Answer) -> Answer:
    """Running a model and training it need very different counts: the inference sizing stands, the fewest GPUs for
    QLoRA, LoRA and full fine-tuning are added (tools.train_memory at its defaults), and the job is asked."""
    from tools.train_memory import TrainingMemoryRequest, estimate_training_memory

    model = ctx.model()
    if ctx.req.gpu:
        gpu = ctx.gpu()
    elif answer.verdict and answer.verdict.gpu:  # ('how many GPUs for llama 70B?'): the card the sizing assumed
        gpu = ctx.deps.catalog.gpu(answer.verdict.gpu)[0]
    else:
        return answer
    rows = []
    for method in ("qlora", "lora", "full"):
        try:
            one = estimate_training_memory(TrainingMemoryRequest(model=model, gpu=gpu, method=method, num_gpus=1))
            n = 1 if one.fits else one.min_gpus
            at = estimate_training_memory(TrainingMemoryRequest(model=model, gpu=gpu, method=method, num_gpus=n)) \
                if n and n > 1 else one
            gb = at.per_gpu_gb
        except (ValueError, LookupError):
            continue
        tight = bool(at.usable_gb and gb > TIGHT_SHARE * at.usable_gb)  # (over 90% of usable: one more card in practice)
        rows.append([{"qlora": "QLoRA", "lora": "LoRA", "full": ctx.t("full fine-tune", "全参微调")}[method],
                     str(n or "-"), f"{gb:,.1f}" + (ctx.t(f" (over 90% of {at.usable_gb:.0f} usable: tight, one more "
                                                           "GPU in practice)", f"（超过可用 {at.usable_gb:.0f} GB 的 90%：很紧，"
                                                           "实际多留一张）") if tight else "")])
    if not rows:
        return answer
    other = ""
    stem = lambda name: re.sub(r"\s*\d+\s*GB", "", name)  # noqa: E731  ('NVIDIA A100 80GB SXM4' -> 'NVIDIA A100 SXM4')
    sizes = sorted({g.memory_gb for g in ctx.deps.catalog.gpus if stem(g.name) == stem(gpu.name)}) \
        if not re.search(r"\d\s*g", ctx.req.gpu_text or "") else []
    if len(sizes) >= 2:  # ('A100s': 40 GB or 80 GB halves or doubles every count)
        other = ctx.t(f" {stem(gpu.name).replace('NVIDIA ', '')} comes in "
                      f"{' and '.join(f'{x:g} GB' for x in sizes)}: on the smaller one every count roughly doubles.",
                      f" 这张卡有 {'、'.join(f'{x:g} GB' for x in sizes)} 几种：小显存版每项卡数大约翻倍。")
    text = ctx.t(
        f"**To run it or to train it?** The count above is for running it (inference, one 4k conversation). Fine-tuning "
        f"it on {gpu.name} takes (the fewest GPUs that hold each method, at 2,048-token sequences):",
        f"**是推理还是训练？** 上面的卡数是推理（一条 4k 对话）。在 {gpu.name} 上微调它需要（各方法放得下的最少卡数，序列 2,048）：") + \
        "\n\n" + md_table([ctx.t("method", "方法"), ctx.t("GPUs", "卡数"), "GB/GPU"], rows) + "\n\n" + ctx.t(
        "Serving many users needs more than the inference floor (KV cache per conversation)." + other,
        "给很多人同时用时，卡数还要按并发加（每路对话都占 KV cache）。" + other)
    clar = Clarification(missing=["intent"], question=ctx.t(
        "Is it to run it (how many users at once, how long are prompts?) or to fine-tune it (full, LoRA or QLoRA)?",
        "是用来推理（同时多少人用、输入多长？）还是微调（全参、LoRA 还是 QLoRA）？"),
        suggestions=[ctx.t("run it for 20 users", "推理，20 人同时用"), ctx.t("fine-tune it with LoRA", "用 LoRA 微调")])
    body = answer.answer
    first, sep, rest = body.partition("\n\n")
    return answer.model_copy(update={"answer": first + "\n\n" + text + (sep + rest if sep else ""),
                                     "status": "needs_clarification", "clarification": clar})


SERVING_TIERS = ("llama-3.1-8b", "llama-3.1-70b")  # a small and a large dense model: the count turns ~10x between them


def _serving_asks_and_tiers(ctx: Ctx) -> tuple[str, str]:
    """A serving question with no model: the other inputs the count turns on, asked where missing (the peak load, the
    prompt and answer lengths, the card), and the headline at a small and a large model meanwhile."""
    req = ctx.req
    asks = []
    if not (req.requests_per_s or ("concurrent_users" in req.stated and not req.daily_active_users)):
        asks.append(ctx.t("the peak load (requests in flight at the busiest moment, or requests per second)",
                          "峰值负载（最忙时同时在处理的请求数，或每秒请求数）"))
    if not (req.prompt_len or req.context or req.output_len):
        asks.append(ctx.t("typical prompt and answer lengths (tokens)", "典型的输入和输出长度（token）"))
    if not req.gpu:
        asks.append(ctx.t("which GPU you have in mind (H100 assumed below)", "打算用哪种卡（下面按 H100 算）"))
    more = ctx.t("Also: " + "; ".join(asks) + ".", "另外：" + "；".join(asks) + "。") if asks else ""
    if (ctx.req.intent == "inference_speed" and not req.gpu) or (ctx.req.intent == "serving" and not (req.concurrent_users or
                                                                                   req.requests_per_s)):
        return more, ""
    if ctx.req.intent == "inference_speed":
        return more, _speed_by_model_size(ctx)
    lines = []
    for mid in SERVING_TIERS:
        try:
            sub = req.model_copy(update={"model": mid, "gpu": req.gpu or "h100"})
            a = plan(sub, ctx.deps, ctx.question)
        except Exception:  # a tier that cannot be sized is left out (logged), never a traceback
            log.exception("sizing the %s tier failed", mid)
            continue
        head = _headline(a).strip()
        from assistant.readers.asks import CONTEXT_LEFT

        longest = a.figures.get("max_context")
        if longest and re.search(CONTEXT_LEFT, ctx.question.lower()):
            # ('2x L40S: what's the longest context we can serve?'): each model's longest context on the cards, capped
            # by the model's own window
            fmt = str(a.figures.get("precision") or "").upper()
            spec = ctx.deps.catalog.model(mid)[0]
            cap = spec.max_context_extended or spec.max_context
            kv8 = a.figures.get("fp8_kv_max_context") or longest
            head = (ctx.t(f"the longest context for one request: the model's own **{cap:,} tokens** (memory alone would "
                          f"hold {longest:,} in {fmt})", f"单个请求最长上下文：到模型自身上限 **{cap:,} token**（只看显存，{fmt} 能放 "
                          f"{longest:,}）") if longest >= cap else
                    ctx.t(f"the longest context for one request ≈ **{longest:,} tokens** ({fmt}; {min(kv8, cap):,} with an "
                          "FP8 KV cache)", f"单个请求最长上下文约 **{longest:,} token**（{fmt}；FP8 KV cache 约 {min(kv8, cap):,}）"))
        if a.status in ("answered", "needs_clarification") and head:
            ctx.calls.extend(a.tool_calls)
            lines.append(f"- {ctx.deps.catalog.model(mid)[0].name}: {head}")
    if not lines:
        return more, ""
    loaded = bool(req.concurrent_users or req.requests_per_s)
    return more, (ctx.t("Meanwhile, at this load with a small and a large model (the assumptions above; each answer "
                        "changes with the model and lengths you give):", "先按这个负载、一小一大两个模型估（按上面的假设；"
                        "给出模型和长度后会变）：") if loaded else
                  ctx.t("Meanwhile, a small and a large model for one request at a time (more users at once need more "
                        "KV cache, so more memory or GPUs):", "先按一小一大两个模型、一次一个请求估（同时用的人多了要更多 "
                        "KV cache，也就要更多显存或卡）：")) + "\n" + "\n".join(lines)


SPEED_TIERS = ("llama-3.1-8b", "qwen2.5-14b", "qwen2.5-32b", "llama-3.1-70b")  # the sizes people run on one box


def _speed_by_model_size(ctx: Ctx) -> str:
    """'4090 跑大模型一秒能出多少字？': one user's decode speed on the GPUs named at a few model sizes, each in the
    most faithful format that fits (published weights, then 8-bit, then 4-bit); a size that fits in none is said."""
    req = ctx.req
    rows = []
    for mid in SPEED_TIERS:
        name = ctx.deps.catalog.model(mid)[0].name
        got = None
        for fmt in (None, "int8", "int4"):
            try:
                a = plan(req.model_copy(update={
                    "model": mid, "models": [mid], "precision": fmt, "intent": "inference_speed",
                    "num_gpus": req.num_gpus or 1,
                    "stated": list(dict.fromkeys(list(req.stated) + ["num_gpus"] + (["precision"] if fmt else [])))}),
                    ctx.deps, ctx.question)
            except Exception:  # a size the tools cannot time is left out (logged)
                log.exception("speed tier %s failed", mid)
                break
            f = a.figures
            if a.status == "answered" and f.get("fits") == 1 and f.get("decode_tokens_per_s_per_seq"):
                ctx.calls.extend(a.tool_calls)
                got = (f["decode_tokens_per_s_per_seq"], str(f.get("precision") or fmt or "").upper())
                break
        rows.append(f"- {name}: " + (ctx.t(f"~{got[0]:,.0f} tokens/s ({got[1]})", f"约 {got[0]:,.0f} token/秒（{got[1]}）")
                                     if got else ctx.t("does not fit even in 4-bit", "4 位量化也放不下")))
    return ctx.t("Meanwhile, one user's decode speed at a few model sizes, each in the most faithful format that fits "
                 "(a token is ~0.75 English words):",
                 "先按几种模型大小估单个用户的解码速度（各用放得下的最高精度；中文一个 token 约 1-1.5 个字）：") + \
        "\n" + "\n".join(rows)


def _tp_layouts(ctx: Ctx) -> str:
    """Tensor-parallel widths for a model on the user's GPUs: the narrowest that holds the weights with room for the
    KV cache (weights at most 70% of a card) gives the most replicas (throughput, no all-reduce between replicas);
    the full width gives the lowest latency and the longest context per request."""
    from assistant.plans.infer import fits_on

    req = ctx.req
    model, gpu, n = ctx.model(), ctx.gpu(), req.num_gpus
    fmt = req.precision or model.native_precision
    heads = model.num_attention_heads or 0
    ok = []
    for tp in (1, 2, 4, 8):
        if tp > n or n % tp or (heads and heads % tp):
            continue
        try:
            x = fits_on(model, gpu, tp, fmt, req.context or 4096, 1)
        except ValueError:
            continue
        if x.fits and x.weights_total_gb / tp <= 0.7 * x.usable_gb:
            ok.append((tp, x.weights_total_gb / tp, x.usable_gb))
    if not ok:
        return ""
    narrow, wide = ok[0], ok[-1]
    if narrow[0] == wide[0]:
        return ctx.t(f"**Tensor parallelism: TP{narrow[0]}** ({narrow[1]:.0f} GB of {fmt.upper()} weights a card), "
                     f"{n // narrow[0]} replica(s).", f"**张量并行：TP{narrow[0]}**（每卡 {fmt.upper()} 权重 {narrow[1]:.0f} GB），"
                     f"{n // narrow[0]} 个副本。")
    return ctx.t(f"**How to split {n} GPUs**: TP{narrow[0]} × {n // narrow[0]} replicas ({narrow[1]:.0f} GB of weights a card, "
                 f"the rest for the KV cache) for the most throughput — replicas share no all-reduce; TP{wide[0]} × "
                 f"{n // wide[0]} ({wide[1]:.0f} GB a card) for the lowest latency per request and the longest contexts. "
                 f"For a chat service, start with TP{narrow[0]} × {n // narrow[0]}.",
                 f"**{n} 张卡怎么切**：TP{narrow[0]} × {n // narrow[0]} 个副本（每卡权重 {narrow[1]:.0f} GB，其余给 KV cache）吞吐最高——副本之间"
                 f"没有 all-reduce；TP{wide[0]} × {n // wide[0]}（每卡 {wide[1]:.0f} GB）单请求延迟最低、能开的上下文最长。"
                 f"做对话服务，先用 TP{narrow[0]} × {n // narrow[0]}。")


QPS_SHAPES = ((500, 200), (2000, 500), (8000, 500))  # (prompt, output) tokens: short chat, RAG-style, long documents


def _qps_by_shape(ctx: Ctx, answer: Answer) -> Answer:
    """A maximum request rate asked with no request shape: the rate at chat speed (>= 20 tokens/s each) for a short
    chat, a RAG-style and a long-document request, and the lengths (and any latency target) asked."""
    from assistant.request import Clarification

    rows = []
    for prompt, out in QPS_SHAPES:
        sub = ctx.req.model_copy(update={"prompt_len": prompt, "output_len": out, "context": prompt + out,
                                         "stated": list(ctx.req.stated) + ["prompt_len", "output_len"]})
        try:
            a = plan(sub, ctx.deps, ctx.question, one_of_several=True)
        except Exception:  # a shape the tools cannot size is left out (logged)
            log.exception("qps shape %s/%s failed", prompt, out)
            continue
        f = a.figures
        rps = f.get("requests_per_s_at_chat_speed") or f.get("requests_per_s_at_capacity")
        if rps:
            ctx.calls.extend(a.tool_calls)
            rows.append(f"| {prompt:,} / {out:,} | {rps:,.1f} | {f.get('sequences_at_chat_speed') or f.get('max_concurrent_sequences') or '-'} |")
    if not rows:
        return answer
    head = ctx.t("**What are your prompt and output lengths, and is there a latency target?** The rate swings several-fold "
                 "with them; at chat speed (≥ 20 tokens/s each) on these GPUs:",
                 "**每个请求输入、输出多长？有没有延迟要求？** QPS 随它们差好几倍；按聊天速度（每路 ≥ 20 token/秒）在这些卡上：")
    table = ctx.t("| prompt / output tokens | requests/s | in flight |", "| 输入 / 输出 token | 每秒请求 | 同时在途 |") + \
        "\n|---|---|---|\n" + "\n".join(rows)
    clar = Clarification(missing=["prompt_len", "output_len"], question=ctx.t(
        "What are your prompt and output lengths, and is there a latency target?", "每个请求输入、输出多长？有没有延迟要求？"),
        suggestions=["500 in / 200 out", "2000 in / 500 out, TTFT < 1 s"])
    return answer.model_copy(update={"answer": after_headline(answer.answer, head + "\n\n" + table),
                                     "clarification": clar})


def _headline(answer: Answer) -> str:
    """The first bold paragraph after an answer's restatement: its verdict."""
    return next((p for p in answer.answer.split("\n\n")[1:] if p.strip().startswith("**")), "")


def _unknown_gpu(ctx: Ctx) -> Answer:
    """A card the table lacks: ask which one was meant (never size another card silently)."""
    name = ctx.req.unknown_gpu
    try:
        ctx.deps.catalog.gpu(name)
        suggestions: list[str] = []
    except UnknownItem as e:
        suggestions = e.suggestions
    bare = re.sub(r"^(?:nvidia|amd|huawei|intel|geforce|英伟达|华为)\s*", "", name.lower())
    if suggestions and bare != name.lower():  # 'NVIDIA H120': the near names of 'h120', not of the vendor's word
        try:
            ctx.deps.catalog.gpu(bare)
        except UnknownItem as e:
            suggestions = e.suggestions or suggestions
    stem = re.sub(r"[\s\-_]+", "", name.lower())
    chips = [g.id for g in ctx.deps.catalog.gpus if g.vendor == "Apple" and re.sub("-", "", g.id).startswith(stem)]
    if chips:  # 'M3 Max' without its memory: which configuration?
        suggestions = [c for c in chips if not re.search(r"-\d+c-", c)][:6] or chips[:6]
    mac = re.search(r"mac(?:book)?|imac|mac\s*(?:studio|mini|pro)", name.lower())
    if mac and not chips and ctx.req.model:
        return _which_mac(ctx, name)
    typo = re.fullmatch(r"([a-z]+\d+)o", stem)  # 'H2O': a zero typed as the letter O, or H200 with a zero dropped
    if typo:
        both = [g for g in (typo.group(1) + "0", typo.group(1) + "00") if _known_gpu(ctx, g)]
        suggestions = both + [g for g in suggestions if g not in both] if len(both) == 2 else suggestions
    said_gb = re.search(r"(\d{2,4})\s*g(?:b)?\b", name.lower())
    if said_gb and not chips:  # 'H300 (288GB)': the real cards with the memory written first (B300, MI355X)
        gb = float(said_gb.group(1))
        same = [g.id for g in ctx.deps.catalog.gpus if g.memory_gb and abs(g.memory_gb - gb) <= 0.02 * gb
                and g.vendor != "Apple" and not g.id.startswith("custom")]
        if not same:  # ('H100X 120GB'): the name's own line nearest that memory either side (H100 NVL 94, H200 141)
            bare_name = re.sub(r"^(?:nvidia|amd)\s*", "", name.lower())
            stem_m = re.match(r"[a-z]+\d+", bare_name)
            letter = bare_name[:1]
            line = [g for g in ctx.deps.catalog.gpus if g.memory_gb and g.id.startswith(letter) and g.vendor != "Apple"
                    and not g.id.startswith("custom")]
            own = lambda g: bool(stem_m) and g.id.startswith(stem_m.group(0))  # ('h100x': the H100 line first)
            below = max((g for g in line if g.memory_gb < gb), key=lambda g: (own(g), g.memory_gb, -len(g.id)), default=None)
            above = min((g for g in line if g.memory_gb > gb), key=lambda g: (not own(g), g.memory_gb, len(g.id)), default=None)
            same = [g.id for g in (below, above) if g is not None]
        suggestions = same[:3] + [g for g in suggestions if g not in same]
    yours = name == "your GPUs"
    if yours:  # 'how many of our GPUs?': the count turns on which cards they are; the common ones meanwhile
        suggestions = list(YOUR_GPUS_MEANWHILE)
    clar = clarification(ctx.req, ["gpu"], ctx.deps.catalog)
    if suggestions:
        clar.suggestions = suggestions[:4]
    warn = ctx.t("**Which GPUs do you have?** The count depends on the card (its memory first), and none was named",
                 "**你们现有的是什么卡？** 卡数取决于卡（首先是显存），消息里没有说") if yours else \
        (_no_such_memory(ctx, name) or
         ctx.t(f"unknown GPU '{name}': not in the GPU table; it was not replaced by another card",
               f"未知 GPU：GPU 表里没有“{name}”，不会换成别的卡来算"))
    claimed = re.search(r"(\d{2,4})\s*g(?:b)?\b", name.lower())
    if claimed and ctx.req.model and not yours:  # 'A100 160GB … 405B in FP16 on 4 cards': even as claimed, does it hold?
        from tools.formats import FORMATS

        spec = ctx.model()
        fmt = FORMATS.get(ctx.req.precision or spec.native_precision) or FORMATS["bf16"]
        need = spec.params_total * fmt.bits / 8 / 1e9
        n = ctx.req.num_gpus or 1
        have = n * float(claimed.group(1))
        if need > have:
            warn += ctx.t(f". Even if it existed, {n} × {claimed.group(1)} GB = {have:,.0f} GB is less than the "
                          f"{need:,.0f} GB of {fmt.name.split(' (')[0]} weights alone ({spec.params_total / 1e9:,.0f}B × "
                          f"{fmt.bits / 8:g} bytes)",
                          f"。即使真有这种卡，{n} × {claimed.group(1)} GB = {have:,.0f} GB 也小于光是 {fmt.name.split(' (')[0]} "
                          f"权重的 {need:,.0f} GB（{spec.params_total / 1e9:,.0f}B × {fmt.bits / 8:g} 字节）")
            for low_fmt in ("fp8", "int4"):  # the formats that would fit in that memory, with the room left for KV cache
                lf = FORMATS[low_fmt]
                if lf.bits >= fmt.bits:
                    continue
                w_gb = spec.params_total * lf.bits / 8 / 1e9
                if w_gb < 0.85 * have:
                    warn += ctx.t(f"; in {lf.name.split(' (')[0]} the weights are about {w_gb:,.0f} GB, leaving about "
                                  f"{have * 0.9 - w_gb:,.0f} GB for the KV cache at 90% use",
                                  f"；用 {lf.name.split(' (')[0]} 权重约 {w_gb:,.0f} GB，按 90% 显存利用率还剩约 "
                                  f"{have * 0.9 - w_gb:,.0f} GB 给 KV cache")
                    break
    lacks = _size_the_family_lacks(ctx) if ctx.req.model and re.fullmatch(r"[\d.]+b", ctx.req.model) else None
    if lacks is not None:  # ('qwen 3 72b' on a card the table lacks): the model's own problem said first
        first = next((p for p in lacks.answer.split("\n\n") if p.startswith("**")), "")
        warn = (first + "\n\n" if first else "") + warn
    text = (restate(ctx.req, ctx.deps.catalog, []) + "\n\n" + warn + (ctx.t(".", "。") if yours else
                                                                         ctx.t(" (`gpu-advisor gpus` lists all).", "（`gpu-advisor gpus` 列出全部）。"))
            + "\n\n" + clar.question + "\n\n" + ctx.t("Did you mean: ", "是不是：") + " / ".join(clar.suggestions))
    meanwhile = _on_the_suggested_cards(ctx, clar.suggestions[:3]) if ctx.req.model and not chips else []
    if meanwhile:  # the question back, and the job on the cards it may be, so the answer helps before it is resolved
        text += "\n\n" + ctx.t("Meanwhile, the same job on those cards:", "在这几张卡上，同样的任务：") + "\n" + "\n".join(meanwhile)
    req_dict = ctx.req.model_dump(mode="json")
    return Answer(answer=text, lang=ctx.lang, intent=ctx.req.intent, status="needs_clarification", clarification=clar,
                  request=req_dict, slots=req_dict | {"awaiting": ["gpu"]})


YOUR_GPUS_MEANWHILE = ("a100-80gb", "h100-sxm", "l40s", "rtx-4090")  # the cards teams most often already have


def _no_such_memory(ctx: Ctx, name: str) -> str | None:
    """'RTX 5090D 64G': a real card with a memory none of its versions has: its real memory said, and what cards
    with more memory on sale in China are (third-party memory mods), before asking which was meant."""
    m = re.fullmatch(r"(.+?)\s*(\d{2,3})\s*g(?:i?b)?", name.strip().lower())
    base = _known_gpu(ctx, m.group(1)) if m else None
    if not base:
        return None
    rec = ctx.deps.catalog.gpu(base)[0]
    sizes = sorted({g.memory_gb for g in ctx.deps.catalog.stock_versions(base)})
    said = "/".join(f"{x:g}" for x in sizes)
    consumer = "consumer" in (rec.form_factor or "").lower()
    typed = m.group(1).strip().upper()
    return ctx.t(f"**There is no {m.group(2)} GB {typed}**: its versions have {said} GB"
                 + (" (cards with more memory sold in China are third-party memory mods, without NVIDIA's warranty)"
                    if consumer else "") + "; it was not replaced by another card",
                 f"**{typed} 没有 {m.group(2)}G 版本**：它有 {said} GB 的版本"
                 + ("（国内卖的更大显存的卡是第三方魔改，没有 NVIDIA 保修）" if consumer else "") + "，不会换成别的卡来算")


def _counts_by_tokens(ctx: Ctx) -> list[str]:
    """A deadline and a card with no token count (pre-training from scratch): the GPUs the deadline needs at the
    Chinchilla budget (20 tokens per parameter) and at 1T and 2T tokens (what recent small models are trained on),
    each from the planner's own training-time answer."""
    req = ctx.req
    if not (req.deadline_hours and req.model and (req.gpu or req.gpus)):
        return []
    try:
        params = ctx.model().params_total
    except Exception:
        return []
    out = []
    for tokens, label_en, label_zh in ((20 * params, "Chinchilla, 20 tokens per parameter", "Chinchilla 最优，每参数 20 token"),
                                       (1e12, "1T tokens", "1T token"), (2e12, "2T tokens", "2T token")):
        sub = req.model_copy(update={"tokens": tokens, "intent": "training_time", "num_gpus": None})
        try:
            a = plan(sub, ctx.deps, ctx.question)
        except Exception:
            log.exception("sizing at %g tokens failed", tokens)
            continue
        n = (a.verdict.num_gpus if a.verdict else None) or (a.request or {}).get("num_gpus")
        if a.status != "answered" or not n:
            continue
        days = a.figures.get("wall_days")
        out.append(f"- {tokens:.3g} " + ctx.t(f"tokens ({label_en}): **{n} GPUs**", f"token（{label_zh}）：**{n} 张**")
                   + (ctx.t(f", about {days:,.0f} days", f"，约 {days:,.0f} 天") if isinstance(days, (int, float)) else ""))
    return out


API_INPUT_PER_OUTPUT = 3.0  # input tokens per output token assumed of API traffic when none is stated (chat with
# history and system prompts; RAG runs higher): said with the volume it gives


def _volume_from_bill(ctx: Ctx) -> Request:
    """A monthly API bill and the API named, no volume: the tokens the bill buys at the API's list prices, with the
    input share stated or assumed (API_INPUT_PER_OUTPUT), as the output tokens a day the self-hosted set must make."""
    from knowledge.api_prices import api_prices, blended_per_million

    req = ctx.req
    rec = next((r for r in api_prices() if r.id == req.api_model), None)
    if rec is None or (req.currency or "USD") != rec.currency:
        return req
    ratio = req.input_output_ratio or API_INPUT_PER_OUTPUT
    if not req.input_output_ratio:
        ctx.assume(f"{ratio:g} input tokens per output token of your API traffic",
                   f"API 流量按每个输出 token 对应 {ratio:g} 个输入 token")
    blended = blended_per_million(rec, ratio)
    total = req.api_spend_per_month / blended * 1e6
    out_month = total / (ratio + 1)
    ctx.note(ctx.t(f"your ${req.api_spend_per_month:,.0f} a month at {rec.name}'s list prices (${rec.input_per_million:g} per 1M "
                   f"input, ${rec.output_per_million:g} per 1M output; {rec.source}, as of {rec.as_of}) buys about "
                   f"{total / 1e9:,.2f}B tokens a month at {ratio:g}:1 input to output = {out_month / 1e6:,.0f}M output "
                   f"tokens a month ({out_month / (730 / 24) / 1e6:,.1f}M a day); cached-input or batch discounts mean more",
                   f"你每月 ${req.api_spend_per_month:,.0f}，按 {rec.name} 的标价（输入每百万 ${rec.input_per_million:g}、输出每百万 "
                   f"${rec.output_per_million:g}；{rec.source}，截至 {rec.as_of}）约买 {total / 1e9:,.2f}B token/月，输入:输出 "
                   f"{ratio:g}:1，其中输出 {out_month / 1e6:,.0f}M token/月（每天 {out_month / (730 / 24) / 1e6:,.1f}M）；"
                   "若有缓存输入或 batch 折扣，实际量更多"))
    ctx.used.add("api_model")
    return req.model_copy(update={"tokens_per_day": out_month / (730 / 24), "volume_is_output": True,
                                  "input_output_ratio": ratio, "reference_per_million": rec.output_per_million,
                                  "reference_input_per_million": rec.input_per_million})


def _per_billion_tokens(ctx: Ctx) -> tuple[str | None, float | None]:
    """Training on the GPUs named with no token count: (the line saying the wall time and the bill per 1B tokens, the
    hours), from the planner's own training-time answer at 1B tokens (its MFU and method said there), so any dataset
    size scales from it; (None, None) when it cannot be sized."""
    req = ctx.req
    if not (req.model and (req.gpu or req.gpus) and req.num_gpus) or req.deadline_hours:
        return None, None
    sub = req.model_copy(update={"tokens": 1e9, "intent": "training_time", "samples": None, "family_flagship": None})
    try:
        a = plan(sub, ctx.deps, ctx.question)
    except Exception:
        log.exception("sizing at 1B tokens failed")
        return None, None
    hours = a.figures.get("wall_hours")
    ctx.calls.extend(a.tool_calls)  # (the figures said meanwhile come from these calls, kept with the answer)
    if a.status != "answered" or not isinstance(hours, (int, float)):
        return None, None
    price = req.price_per_gpu_hour
    cost = a.figures.get("cost_at_your_price") or (hours * req.num_gpus * price if price else a.figures.get("cost_usd"))
    sym = "¥" if (req.currency or "") == "CNY" else "$"
    mfu = a.figures.get("mfu")
    basis = ctx.t(f" at {mfu:.0%} MFU" if isinstance(mfu, (int, float)) else "", f"（MFU {mfu:.0%}）"
                  if isinstance(mfu, (int, float)) else "")
    bill = (ctx.t(f", **{sym}{cost:,.0f}** ({req.num_gpus} GPUs × {hours:,.1f} h" + (f" × {sym}{price:g}/GPU-h, your price)"
                                                                                 if price else ", on-demand price)"),
                  f"，**{sym}{cost:,.0f}**（{req.num_gpus} 张 × {hours:,.1f} 小时" + (f" × 每卡时 {sym}{price:g}，你的价格）"
                                                                                  if price else "，按需价）"))
            if isinstance(cost, (int, float)) else "")
    step = a.figures.get("seconds_per_step")
    step_tokens = a.figures.get("tokens_per_step")
    per_step = (ctx.t(f" One optimizer step ({step_tokens:,.0f} tokens) takes about **{step:,.1f} s**.",
                      f"每个优化器步（{step_tokens:,.0f} token）约 **{step:,.1f} 秒**。")
                if isinstance(step, (int, float)) and isinstance(step_tokens, (int, float)) else "")
    fixed = ""
    if (req.method or "full") == "full" and ctx.model().params_total >= 3e10:
        # a big full fine-tune: loading the weights and saving checkpoints with their optimizer states take real time
        p = ctx.model().params_total
        fixed = ctx.t(f" Beside the compute: loading {p * 2 / 1e9:,.0f} GB of BF16 weights at start, and each checkpoint "
                      f"with its optimizer states is ~{p * 16 / 1e12:,.1f} TB (16 bytes a parameter) to write: on a short "
                      "run these can take as long as the training; save sparingly and to fast storage.",
                      f"计算之外：开始要加载 {p * 2 / 1e9:,.0f} GB 的 BF16 权重，每个含优化器状态的 checkpoint 约 "
                      f"{p * 16 / 1e12:,.1f} TB（每参数 16 字节）要写盘：训练很短时这些可能和训练本身一样久；少存几次、存到快的存储。")
    mem = ""
    if req.num_gpus == 1 and req.gpu:  # one card: whether the job fits there, which the time takes for granted
        from assistant.plans.train import _memory_verdict

        try:
            mem = " " + (_memory_verdict(ctx, ctx.model(), ctx.gpu(), 1) or "")
        except (ValueError, LookupError):
            mem = ""
    return ctx.t(f"Meanwhile, per **1B training tokens** on {req.num_gpus} GPUs: **{hours:,.1f} h**{basis}{bill}; the time "
                 "and the bill scale with the tokens (dataset tokens × epochs)." + per_step + fixed + mem.rstrip(),
                 f"在此之前先给每 **10 亿（1B）训练 token** 的数字：{req.num_gpus} 张卡 **{hours:,.1f} 小时**{basis}{bill}；"
                 "时间和费用都与 token 数（数据量 × epoch）成正比。" + per_step + fixed + mem.rstrip()), hours


def _quoted_rate_unclear(ctx: Ctx) -> Answer:
    """'vendor demo showed 38 tokens/s on their box. we're ~150 employees. enough?': a rate with no model, no hardware
    and no scope answers nothing until it is known whether it is each user's speed or the box's total; both readings
    are worked for the people named, and the question asked."""
    req = ctx.req
    rate = req.throughput_tokens_per_s or req.tokens_per_s_per_user  # ('他们的机器能跑 38 tokens/s': read as a speed)
    ctx.used.add("tokens_per_s_per_user")
    people = req.concurrent_users or req.team_size or req.daily_active_users
    peak = req.concurrent_users or peak_in_flight(team_size=people)[0]
    low_peak = req.concurrent_users or peak_in_flight(daily_active_users=people)[0]
    ctx.used |= {"throughput_tokens_per_s", "throughput_scope", "daily_active_users", "team_size", "concurrent_users"}
    clar = Clarification(missing=["throughput_scope", "model", "gpu"], question=ctx.t(
        f"Is {rate:g} tokens/s each user's speed or the box's total, and with which model, card and number of users at once?",
        f"{rate:g} token/秒 是每个用户的速度还是整机合计？跑的什么模型、什么卡、演示时几路同时？"), suggestions=[])
    text = ctx.t(
        f"**It depends on what {rate:g} tokens/s measured**, and the demo did not say: ask the vendor for the model (and its "
        f"format), the hardware, and how many requests ran at once.\n"
        f"- {people:,} people put about {low_peak}-{peak} requests in flight at the busy hour (5-25% of them, an assumption).\n"
        f"- If {rate:g} is the **box's total**: at {low_peak}-{peak} at once each user gets about {rate / peak:,.1f}-"
        f"{rate / low_peak:,.1f} tokens/s: **not enough** for chat below ~{LOAD_SPEED:g} tokens/s each.\n"
        f"- If {rate:g} is **each user's speed** with that many at once: the box makes {rate * low_peak:,.0f}-"
        f"{rate * peak:,.0f} tokens/s in total, and {rate:g} each reads comfortably: **enough**, if it holds at your peak.",
        f"**要看 {rate:g} token/秒 测的是什么**，演示里没说：请厂商给出模型（及量化格式）、硬件，以及演示时几路同时。\n"
        f"- {people:,} 人在最忙时约 {low_peak}-{peak} 路同时（按 5%-25%，假设值）。\n"
        f"- 如果 {rate:g} 是**整机合计**：{low_peak}-{peak} 路同时每人约 {rate / peak:,.1f}-{rate / low_peak:,.1f} token/秒："
        f"**不够**（聊天每人低于约 {LOAD_SPEED:g} token/秒就明显卡顿）。\n"
        f"- 如果 {rate:g} 是**每个用户**在这么多路同时下的速度：整机合计 {rate * low_peak:,.0f}-{rate * peak:,.0f} token/秒，"
        f"每人 {rate:g} 够读：**够用**（前提是在你们的峰值并发下也能保持）。")
    return _question_back(ctx, text, clar, "throughput_scope")


SERVICE_WORDS = (r"客服|机器人|上线|线上|生产|对外|用户|客户|部署|私有化|采购|首\s*token|首字|(?<![a-z])(?:chatbot|bot|production|go live|"
                 r"launch\w*|customers?|users|public|service|deploy\w*|serv(?:e|ing)|reserve|our app|api|endpoint)(?![a-z])")
# the floor asked ('最少要几张'), a concurrency asked ('能支持多少并发'), one person's use: no load to ask for
NO_LOAD_TO_ASK = (r"最少|至少|最低|多少并发|多少路|多少\s*qps|每秒多少|自己用|个人|我自己|(?<![a-z])(?:min(?:imum)?|fewest|at least|"
                  r"how many (?:concurrent|users|people|requests|sessions|chats|req|qps|rps)|req(?:uest)?s?\s*/\s*s|qps|rps|"
                  r"requests? (?:per|a) second|myself|just me|for me|personal|at home|hobby)(?![a-z])")
# ('how many req/s per GPU before TTFT blows up?': the capacity is the question, no load to ask for)
NODES_ASKED = r"几台|多少台|(?<![a-z])how many (?:\w+ )?(?:servers?|nodes?|boxes|machines)(?![a-z])"


def _server_size(req: Request, question: str) -> int | None:
    """'要采购几台（八卡）': the 8 is the size of the server whose count is asked, not a count of GPUs."""
    if req.num_gpus in (2, 4, 8, 16) and re.search(NODES_ASKED, question.lower()):
        return req.num_gpus
    return None


def _count_for_an_unstated_load(ctx: Ctx) -> bool:
    """A count to buy for a served product with no load stated ('客服机器人上线要买几张 H20 才够用？')."""
    req, low = ctx.req, ctx.question.lower()
    from assistant.readers.slots import OWN_MEASUREMENT, QUOTE_CUE

    quoted = bool((req.throughput_tokens_per_s or re.search(r"每秒\s*\d[\d,.]*\s*(?:个)?\s*token|\d[\d,.]*\s*(?:tok(?:en)?s?/s|t/s)", low))
                  and re.search(QUOTE_CUE, low) and not re.search(OWN_MEASUREMENT, low))
    # ('有人说 4090 跑 7B 能到 2000 tok/s，买几张？': someone else's rate is no load of the user's)
    return (req.intent in ("inference_memory", "serving", "inference_speed", "recommend") and bool(req.model)
            and bool(req.gpu) and len(set(req.gpus or [req.gpu])) <= 3 and not req.budget
            and ("num_gpus" not in req.stated or quoted or bool(_server_size(req, ctx.question)))
            and bool(re.search(COUNT_WORDS + r"|够用|才够|买几|enough|how many (?:should|do|would) (?:we|i) (?:reserve|buy|"
                               r"rent|order|get|need)", low))
            and not re.search(NO_LOAD_TO_ASK, low)
            and bool(re.search(SERVICE_WORDS, low) or quoted or req.ttft_s or req.itl_ms)
            and not any((req.concurrent_users, req.requests_per_s, req.tokens_per_day, req.batch, req.team_size,
                         req.daily_active_users, req.throughput_tokens_per_s and not quoted)))


def _quoted_total_line(ctx: Ctx, answer: Answer) -> str:
    """'有人说 … 能到 2000 tok/s': a quoted rate far above one stream's is many requests decoding together, not what one
    user sees; said beside the counts by load (from the answer's own one-stream estimate)."""
    q, one = ctx.req.throughput_tokens_per_s, answer.figures.get("decode_tokens_per_s_per_seq")
    if not q:  # ('别人说 … 能到每秒 2000 token'): the figure as written
        m = re.search(r"每秒\s*(\d[\d,.]*)\s*(?:个)?\s*token|(\d[\d,.]*)\s*(?:tok(?:en)?s?/s|t/s)", (ctx.question or "").lower())
        q = float((m.group(1) or m.group(2)).replace(",", "")) if m else None
    if not (q and one and q > 2 * one):
        return ""
    return "\n\n" + ctx.t(f"The {q:,.0f} tokens/s quoted is many requests decoding together (a total), not what one "
                          f"user sees (about {one:,.0f} tokens/s alone): it does not say how many users one card carries.",
                          f"有人说的 {q:,.0f} token/秒是很多请求一起跑的合计吞吐，不是每个用户看到的速度（单路约 {one:,.0f} "
                          "token/秒）：单凭它算不出一张卡能带多少人。")


LOAD_SPEED = 10.0  # tokens/s each user reads comfortably (an assumption, said): the speed the example counts keep


def _counts_by_load(ctx: Ctx, gid: str | None = None, per_node: int | None = None) -> list[str]:
    """The GPUs a serving plan takes at a few peak loads (10, 50, 200 users at once), each user at LOAD_SPEED or more,
    from the planner's own answers; on card `gid` (the request's when None), in servers of `per_node` when the count
    is asked in servers."""
    out = []
    card = {"gpu": gid, "gpus": [gid]} if gid else {}
    for users in (10, 50, 200):
        sub = ctx.req.model_copy(update={"intent": "serving", "concurrent_users": users, "num_gpus": None,
                                         "tokens_per_s_per_user": LOAD_SPEED} | card)  # (a usable reading pace each)
        try:
            a = plan(sub, ctx.deps, ctx.question, one_of_several=True)
        except Exception:
            log.exception("sizing at %d users failed", users)
            continue
        n = a.figures.get("serve_total_gpus")
        itl = a.figures.get("serve_itl_ms")
        if a.status != "answered" or not n:
            continue
        boxes = ctx.t(f" = {math.ceil(n / per_node)} server(s) of {per_node}", f" = {math.ceil(n / per_node)} 台 {per_node} 卡"
                      ) if per_node else ""
        out.append(f"- {users} " + ctx.t(f"users at once: **{n} GPUs**", f"路同时：**{n} 张**") + boxes
                   + (ctx.t(f" (~{1000 / itl:.0f} tokens/s each)", f"（每路约 {1000 / itl:.0f} token/秒）") if itl else ""))
    return out


def _known_gpu(ctx: Ctx, name: str) -> str | None:
    try:
        return ctx.deps.catalog.gpu(name)[0].id
    except UnknownItem:
        return None


def _on_the_suggested_cards(ctx: Ctx, gpus: list[str]) -> list[str]:
    """One line per suggested card: the GPUs the job needs there and the memory per GPU (each from the planner's own
    answer for that card)."""
    out = []
    for gid in gpus:
        try:
            gpu = ctx.deps.catalog.gpu(gid)[0]
        except UnknownItem:
            continue
        if gpu.vendor == "Apple":
            continue
        sub = ctx.req.model_copy(update={"gpu": gid, "gpus": [gid], "unknown_gpu": None, "gpu_text": None})
        try:
            a = plan(sub, ctx.deps, ctx.question, one_of_several=True)  # (the card's own figures, no questions back)
        except Exception:  # a card the job cannot be sized on is left out (logged), never a traceback
            log.exception("sizing on %s failed", gid)
            continue
        v = a.verdict
        if a.status != "answered" or v is None:
            continue
        n = v.num_gpus or v.min_gpus
        f = a.figures
        by_method = [(m, f.get(f"{m}_min_gpus")) for m in ("full", "lora", "qlora") if f.get(f"{m}_min_gpus")]
        if a.intent == "training_memory" and not ctx.req.method and len(by_method) >= 2:
            # no method stated: each method's count on this card, not whichever the card's own answer led with
            names = {"full": ctx.t("full fine-tune", "全参微调"), "lora": "LoRA", "qlora": "QLoRA"}
            whole = [(m, f.get(f"{m}_per_gpu_gb")) for m, _ in by_method if f.get(f"{m}_per_gpu_gb")]
            if not out and not ctx.req.num_gpus and whole:  # (sized on one GPU: the whole job's memory by method)
                out.append(ctx.t("- memory the whole job needs, by method: ", "- 整个任务需要的显存（按方法）：")
                           + ctx.t(", ", "，").join(f"{names[m]} ≈ {gb:,.0f} GB" for m, gb in whole))
            out.append(f"- {gpu.name}: " + ctx.t(", ".join(f"{names[m]} {k} GPU(s)" if k == 1 else f"{names[m]} ≥ {k} GPUs"
                                                           for m, k in by_method),
                                                 "，".join(f"{names[m]} {k} 张" if k == 1 else f"{names[m]} 至少 {k} 张"
                                                          for m, k in by_method)))
            continue
        if v.fits is False and v.min_gpus and v.min_gpus > (v.num_gpus or 1):
            # the fewest that hold it there, not 'one card (or the count the user gave): does not fit'
            asked = ctx.t(f"{v.num_gpus} do not hold it; ", f"{v.num_gpus} 张放不下；") if ctx.req.num_gpus else ""
            out.append(f"- {gpu.name}: " + asked + ctx.t(f"at least {v.min_gpus} GPUs", f"至少 {v.min_gpus} 张")
                       + (ctx.t(f" ({f['serve_total_gpus']} for the load)", f"（按负载 {f['serve_total_gpus']} 张）")
                          if f.get("serve_total_gpus") else ""))
            continue
        fits = ctx.t("fits" if v.fits else "does not fit", "放得下" if v.fits else "放不下")
        out.append(f"- {gpu.name}: " + ctx.t(f"{n} GPU(s)" if n else "", f"{n} 张" if n else "")
                   + (f", {v.per_gpu_gb:,.1f} GB/GPU" if v.per_gpu_gb else "") + (f" ({fits})" if v.fits is not None else "")
                   + (ctx.t(f", about {f['wall_hours']:,.1f} h ({f['wall_days']:,.1f} days)",
                            f"，约 {f['wall_hours']:,.1f} 小时（{f['wall_days']:,.1f} 天）")
                      if isinstance(f.get("wall_hours"), (int, float)) and isinstance(f.get("wall_days"), (int, float))
                      else "")
                   + (ctx.t(f", {f['serve_total_gpus']} GPUs for the load", f"，按负载 {f['serve_total_gpus']} 张")
                      if f.get("serve_total_gpus") else ""))
    return out


def _pydantic_message(e: Exception) -> str:
    """'batch: must be at most 100000 (got 144797)': the field, the rule and a plain value; never an object's repr."""
    if hasattr(e, "errors"):
        parts = []
        for err in e.errors()[:4]:
            loc = ".".join(str(x) for x in err.get("loc", ()))
            msg = re.sub(r"^(?:Value|Assertion) error, ", "", str(err.get("msg", "")))
            msg = re.sub(r"^Input should be ", "must be ", msg)
            value = err.get("input")
            shown = (f" (got {value!r})" if isinstance(value, (int, float)) or (isinstance(value, str) and len(value) <= 40)
                     else "")
            parts.append(f"{loc}: {msg}{shown}" if loc else f"{msg}{shown}")
        return "; ".join(parts)
    lines = [ln.strip() for ln in str(e).splitlines()[1:] if ln.strip() and not ln.strip().startswith("For further")]
    return "; ".join(lines[:4])


