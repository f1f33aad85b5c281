"""A message with several asks, answered in one Answer: a section per ask in the order asked, alternatives compared
(which wins, by how much), and every ask that could not be answered listed with the reason."""
from __future__ import annotations

import logging
import re

from assistant.answer import Answer, AskAnswer, NotAnswered
from assistant.compose import premise_md
from assistant.plans.facts import per_dollar_verdict
from assistant.readers.asks import Ask
from assistant.readers.slots import w
from assistant.request import Request
from assistant.restate import ignored_line

# among settings that all fit, the one that costs least speed (or quality) first
PREFER = {"zero": [0, 1, 2, 3], "offload": ["none", "optimizer", "all"], "recompute": ["none", "selective", "full"],
          "precision": ["bf16", "fp16", "fp8", "int8", "int4", "nf4"], "method": ["full", "lora", "qlora"]}
PREFER_WHY = {"zero": ("a lower ZeRO stage moves less data between GPUs each step (faster)", "ZeRO 阶段越低，每步卡间通信越少（更快）"),
              "offload": ("it does not move optimizer states over PCIe each step (faster)", "不用每步经 PCIe 搬运优化器状态（更快）"),
              "recompute": ("it does not recompute activations in the backward pass (faster)", "反向时不用重算激活（更快）"),
              "precision": ("it keeps more bits of the weights (no or less quantization error); a smaller format frees memory "
                            "for the KV cache and reads fewer bytes per token (faster decoding)",
                            "权重保留更多位数（没有或更少的量化误差）；更小的格式能给 KV cache 腾出显存、每个 token 读的字节更少（解码更快）"),
              "method": ("it trains more of the model (full) or keeps the base in 16 bits (LoRA: no 4-bit quantization "
                         "error, and faster than QLoRA, which dequantizes every layer each step)",
                         "训练的参数更多（全参），或底座保持 16 位（LoRA：没有 4 位量化误差，也比每步都要反量化的 QLoRA 快）")}

log = logging.getLogger(__name__)

VALUE_GROUPS = ("batch", "context", "num_gpus", "model", "lora_rank", "concurrent_users")  # several values of one input, not alternatives to choose between

# what decides between alternatives, by intent: (figure, better, label en, label zh)
_KEY = {
    "training_time": ("wall_hours", "lower", "wall-clock hours", "小时"),
    "inference_speed": ("decode_tokens_per_s_per_seq", "higher", "tokens/s per sequence", "每序列 token/秒"),
    "serving": ("serve_total_gpus", "lower", "GPUs", "张卡"),
    "cost": ("rent_cost", "lower", "rental cost", "租用成本"),
}


_THREADED = ("precision", "kv_dtype", "engine", "method", "offload", "zero", "recompute")


def combine(req: Request, asks: list[Ask], answers: list[Answer], question: str = "", prices=()) -> Answer:
    """One Answer for several asks: the first ask's fields on top, a section per ask, `asks`, `not_answered` and,
    for alternatives, the comparison."""
    zh = req.lang == "zh"
    missed = [NotAnswered(ask=a.text, why=("这里的计算器回答显存、卡数、时间、速度、价格和成本；这一问不在其中" if zh else
                                          "the calculators here answer memory, GPU counts, time, speed, prices and costs; "
                                          "this ask is none of those"))
              for a, x in zip(asks, answers) if a.intent == "out_of_scope"]
    kept = [(a, x) for a, x in zip(asks, answers) if a.intent != "out_of_scope"]
    asks, answers = [a for a, _ in kept], [x for _, x in kept]
    answers = _used_elsewhere_is_used(answers)
    asks, answers = _same_answer_once(asks, answers, zh)
    premise = premise_md(req.premise_notes, zh)  # (corrected once, before the asks)
    if len(asks) == 1:  # one ask answered, the rest listed
        only = answers[0]
        head, _, rest = only.answer.partition("\n\n")
        text = head + "\n\n" + premise + rest + ("\n\n" + ("**未回答**\n" if zh else "**Not answered**\n") + "\n".join(
            f"- {m.ask}: {m.why}" for m in missed) if missed else "")
        return only.model_copy(update={"answer": text, "not_answered": missed, "asks": [AskAnswer(
            ask=asks[0].text, intent=only.intent, status=only.status, verdict=only.verdict, figures=only.figures,
            request=only.request)]})
    first = answers[0]
    entries = []
    for ask, ans in zip(asks, answers):
        entries.append(AskAnswer(ask=ask.text, intent=ans.intent, status=ans.status, verdict=ans.verdict,
                                 figures=ans.figures, request=ans.request))
        if ans.status != "answered":
            why = ans.clarification.question if ans.clarification else "; ".join(ans.warnings[:2]) or ans.status
            missed.append(NotAnswered(ask=ask.text, why=why))
    compared: list = []  # the comparison's own tool calls (scale_job)
    try:
        comparison = compare(asks, answers, zh, question, prices, compared) if any(a.compare for a in asks) else None
    except Exception:  # a comparison the figures cannot make: the sections stand without it (logged, never a traceback)
        log.exception("comparison failed for %r", question[:200])
        comparison = None
    if comparison and {a.compare for a in asks} == {"precision"} and not re.search(r"\*\*(?:Quality|质量)\*\*", comparison):
        # (formats compared: what each keeps of the model's accuracy, beside what it costs in memory and speed)
        from assistant.terms import format_quality

        q = format_quality([str((a.update or {}).get("precision")) for a in asks
                            if (a.update or {}).get("precision") not in (None, "bf16", "fp16")], zh)
        if q:
            comparison += " " + q
    if comparison and {a.compare for a in asks} == {"precision"} and "gpu" not in req.stated and not req.gpus and \
            not re.search(LESS_MEMORY_ASK, question.lower()):
        # ('which takes less VRAM?': the sizes answer it on any card; the card and engine decide only a pick)
        # 'GGUF Q4_K_M, AWQ or FP8: which is best?' with no card named: the pick turns on the card and the engine;
        # with the users stated and no FP8 among them, GGUF against a server format turns on the users alone
        fmts = [str((a.update or {}).get("precision") or "") for a in asks]
        users = req.concurrent_users or req.batch or max(((x.request or {}).get("concurrent_users") or 0) for x in answers)
        choice = format_choice_line(fmts, users, zh) if users and "fp8" not in fmts else None
        if choice:
            comparison = choice + ("下面按默认的卡估算：" if zh else " Meanwhile, on the default card: ") + comparison
        else:
            comparison = (("**用什么卡、什么推理引擎、多少人同时用？** 选哪种格式取决于它们：FP8 只有 Ada/Hopper/Blackwell（L4、L40S、"
                           "RTX 40 系、H100/H200 等）原生支持；GGUF Q4_K_M 是 llama.cpp/Ollama 的格式（CPU、Mac、单人使用）；AWQ 是 "
                           "vLLM/SGLang 的 4 位格式，适合多人并发、较老的 N 卡。下面按默认的卡估算：") if zh else
                          ("**Which GPU, engine and how many users?** The pick turns on them: FP8 runs natively only on "
                           "Ada/Hopper/Blackwell (L4, L40S, RTX 40-series, H100/H200…); GGUF Q4_K_M is llama.cpp/Ollama's "
                           "format (CPU, Mac, one user at a time); AWQ is vLLM/SGLang's 4-bit for many users on older NVIDIA "
                           "cards. Meanwhile, on the default card: ")) + comparison
    if comparison and zh and any(a.compare == "gpu" for a in asks) and re.search(r"买|购|采购|选哪|怎么选|选型|方案|部署", question):
        # a Chinese buyer choosing between cards: one US export rules bar from China is said beside the pick
        from knowledge.catalog import default_catalog
        from tools.export_rules import barred_from_china

        cat = default_catalog()
        barred = [cat.gpu(g)[0].name for g in dict.fromkeys((a.update or {}).get("gpu") for a in asks if a.compare == "gpu")
                  if g and barred_from_china(cat.gpu(g)[0])]
        if barred:
            comparison += ("注意：" + "、".join(barred) + " 受美国出口管制（3A090），国内正规渠道买不到、只能走水货或海外云；"
                           "合规要求严格时只能在其余方案里选。")
    if comparison and asks[0].intent == "serving" and (all((a.update or {}).get("purchase_price") for a in asks) or re.search(
            r"(?:卡价为价格表估计|card prices are price-table estimates)", comparison)):
        # each plan's cards bought at the user's prices, with the servers and against the budget: those are used
        answers = _used_elsewhere_is_used(answers, frozenset({"budget", "host_price_per_server", "purchase_price", "currency",
                                                              "purchase", "gpu_purchase_prices", "used_gpus"}))
    if comparison and any(a.compare == "gpu" for a in asks) and not any("model" in (a.update or {}) for a in asks):
        comparison += _other_models_line(answers[0].request or {}, zh)  # (unless each card carries its own model)
    if comparison and asks[0].intent in ("inference_speed", "inference_memory") and re.search(
            r"(?:within budget|over your budget|在预算内|超出预算)", comparison):
        # ('$2.5k budget … used 4090, new 5090, or 2x used 3090?'): each option's cards priced against the budget
        answers = _used_elsewhere_is_used(answers, frozenset({"budget", "currency", "purchase", "used"}))
    labels = "; ".join(f"{i}) {a.text}" for i, a in enumerate(asks, 1))
    head = (f"理解为：这条消息问了 {len(asks)} 件事，依次回答：{labels}" if zh else
            f"Understood: {len(asks)} asks in this message, answered in order: {labels}")
    parts = [head]
    if premise:  # a premise the message rests on is corrected once, before the asks
        parts.append(premise.strip())
    if comparison:
        parts.append(("**比较**：" if zh else "**Comparison**: ") + comparison)
    for i, (ask, ans) in enumerate(zip(asks, answers), 1):
        parts.append(f"### {i}. {ask.text}\n\n{ans.answer}")
    if missed:
        parts.append(("**未回答**\n" if zh else "**Not answered**\n") + "\n".join(f"- {m.ask}: {m.why}" for m in missed))
    warnings = list(dict.fromkeys(w for a in answers for w in a.warnings))
    calls = [c for a in answers for c in a.tool_calls] + compared
    cites = list({c.source + c.title: c for a in answers for c in a.citations}.values())
    settings = {a.compare for a in asks}
    slots = first.slots
    if len(settings) == 1 and next(iter(settings)) in _THREADED and first.slots is not None:
        # 'BF16 or FP8?' then 'and on 8x H100?': the thread keeps comparing the same alternatives
        setting = next(iter(settings))
        slots = dict(first.slots) | {"compared": {"setting": setting, "values": [a.update.get(setting) for a in asks]}}
    return first.model_copy(update={"answer": "\n\n".join(parts), "asks": entries, "not_answered": missed,
                                    "slots": slots, "comparison": comparison, "warnings": warnings, "tool_calls": calls,
                                    "citations": cites,
                                    "ignored": list(dict.fromkeys(i for a in answers for i in a.ignored))})


def _same_answer_once(asks: list[Ask], answers: list[Answer], zh: bool) -> tuple[list[Ask], list[Answer]]:
    """Two asks the same calculation answers ('speed' and 'how many H100s', both sized on the measured rate) are one
    section, headed by both, not the same text twice."""
    def body(x: Answer) -> str:
        return x.answer.partition("\n\n")[2].strip()

    out_a: list[Ask] = []
    out_x: list[Answer] = []
    for a, x in zip(asks, answers):
        twin = next((i for i, y in enumerate(out_x) if body(y) and body(y) == body(x) and a.compare is None and
                     out_a[i].compare is None), None)
        if twin is None:
            out_a.append(a)
            out_x.append(x)
        else:
            out_a[twin] = out_a[twin].model_copy(update={"text": out_a[twin].text + ("、" if zh else " + ") + a.text})
    return out_a, out_x


_NOT_USED_BLOCK = re.compile(r"\n\n\*\*(?:Not used|未使用的输入)\*\*\n(?:- [^\n]*(?:\n|$))+\s*$")


def _used_elsewhere_is_used(answers: list[Answer], by_comparison: frozenset = frozenset()) -> list[Answer]:
    """An input one ask's tool uses is not 'Not used' in another ask's section ('memory, and the monthly bill at
    $2.49/GPU-h': the price is the bill's, not an input the memory answer dropped); what no section uses stays named."""
    def name(item: str) -> str:
        return item.split("=", 1)[0].split(":", 1)[0].strip()

    used = set(by_comparison)
    for a in answers:
        ignored = {name(i) for i in a.ignored}
        used |= {k for k in ((a.request or {}).get("stated") or []) if k not in ignored}
    out = []
    for a in answers:
        keep = [i for i in a.ignored if name(i) not in used]
        if len(keep) == len(a.ignored):
            out.append(a)
            continue
        zh = a.lang == "zh"
        block = ("\n\n**" + ("未使用的输入" if zh else "Not used") + "**\n"
                 + "\n".join(f"- {ignored_line(i, zh=zh)}" for i in keep)) if keep else ""
        text = _NOT_USED_BLOCK.sub(lambda m: block, a.answer, count=1)
        out.append(a.model_copy(update={"answer": text, "ignored": keep}))
    return out


# several cards for one job: (figure, better, en, zh) by intent, when money decides and when it does not
_CARD_KEY = {
    "serving": (("serve_cost_per_million_output_usd", "lower", "per 1M output tokens", "每百万输出 token"),
                ("serve_total_gpus", "lower", "GPUs", "张卡")),
    "inference_speed": (("cost_per_million_tokens", "lower", "per 1M output tokens at full load", "每百万输出 token（满载）"),
                        ("decode_tokens_per_s_total", "higher", "tokens/s at full load", "满载 token/秒")),
    "training_time": (("cost_at_your_price", "lower", "at your prices", "按你的价格"), ("wall_hours", "lower", "hours", "小时")),
    "cost": (("rent_per_hour", "lower", "per hour", "每小时"), ("rent_per_hour", "lower", "per hour", "每小时")),
}
_MONEY = r"便宜|花费|成本|省钱|划算|性价比|价格|多少钱|费用|花多少|(?<![a-z])(?:cheap\w*|cost\w*|price\w*|dollar|spend|per hour|bill|budget)(?![a-z])"


PREFILL_HEAVY = 4  # prompt tokens per output token above which prefill (compute) sets a request's cost, not decode


def _per_request_cost(done: list[tuple[Ask, Answer]], zh: bool) -> str | None:
    """Cards compared for a prefill-heavy load (long prompts, short answers): each card's requests a second at full load
    = 1 / (prefill per request + output / decode throughput), with prefill per request = the batch's time to first token
    over the batch, and its cost per 1,000 requests at the hourly price; the lower cost wins."""
    rows = []
    for a, x in done:
        r, f = x.request or {}, x.figures
        prompt, out = r.get("prompt_len") or r.get("context"), r.get("output_len")
        need = ("ttft_s", "batch", "decode_tokens_per_s_total", "price_per_gpu_hour")
        if not (prompt and out and prompt >= PREFILL_HEAVY * out) or not all(f.get(k) for k in need):
            return None
        n = r.get("num_gpus") or 1
        per_req = f["ttft_s"] / f["batch"] + out / f["decode_tokens_per_s_total"]
        rps = 1 / per_req
        hourly = f["price_per_gpu_hour"] * n
        rows.append((a, rps, hourly / 3600 / rps * 1000, f["ttft_s"] / f["batch"]))
    if len(rows) < 2:
        return None
    cur = (done[0][1].request or {}).get("currency")
    sym = "¥" if cur == "CNY" else "$"
    listed = ("；" if zh else "; ").join(
        (f"{a.text}：满载约 {rps:,.2f} 个请求/秒（每个预填充 {pf:.2f} 秒），每千次请求 {sym}{c:,.2f}" if zh else
         f"{a.text}: ~{rps:,.2f} requests/s at full load ({pf:.2f} s of prefill each), {sym}{c:,.2f} per 1,000 requests")
        for a, rps, c, pf in rows)
    best = min(rows, key=lambda r: r[2])
    other = min((r for r in rows if r is not best), key=lambda r: r[2])
    share = best[2] / other[2]
    return listed + (f"。输入远长于输出，成本看预填充（算力），不看解码吞吐：**{best[0].text} 每个请求更便宜**，成本是 {other[0].text} 的 "
                     f"{share:.0%}。" if zh else
                     f". Prompts far longer than answers: prefill (compute) sets the cost, not decode throughput: **{best[0].text} "
                     f"is cheaper per request**, {share:.0%} of {other[0].text}'s cost.")


def _job_by_speedup(done: list[tuple[Ask, Answer]], zh: bool, prices=(), calls: list | None = None) -> str | None:
    """Cards compared on the same work when the user states how much faster one is: each card's hourly cost over its
    speed, and with a measured length on the slower card, each card's hours and cost (assistant/plans/scaling.py)."""
    from assistant.plans.scaling import Option, baseline_index, compare_job, stated_speeds
    from tools.pricing import on_demand_rate

    reqs = [x.request or {} for _, x in done]
    first = reqs[0]
    cur = first.get("currency") or "USD"
    options, said = [], []
    for (a, x), r in zip(done, reqs):
        price = r.get("price_per_gpu_hour") or x.figures.get("rent_price_per_gpu_hour")
        if not price and r.get("gpu"):
            rate = on_demand_rate(list(prices), r["gpu"], cur)
            price = rate.typical if rate else None
            if price:
                said.append(f"{a.text} 按价格表按需典型价" if zh else f"{a.text} at the price table's typical on-demand rate")
        options.append(Option(label=a.text, gpu=r.get("gpu") or "", num_gpus=r.get("num_gpus") or 1,
                              price_per_gpu_hour=price))
    gpus = [o.gpu for o in options]
    fast = first.get("speedup_gpu")
    base = baseline_index(gpus, fast)
    speeds = stated_speeds(gpus, first["speedup"], fast, base)
    source = (f"{options[speeds.index(max(speeds))].label} {first['speedup']:g}× as fast, as you stated",
              f"按你说的 {options[speeds.index(max(speeds))].label} 快 {first['speedup']:g} 倍")
    text, _, _ = compare_job(options, speeds, base, first.get("period_hours"), zh, "¥" if cur == "CNY" else "$", source,
                             calls)
    if said:
        text += ("（" + "；".join(said) + "）" if zh else " (" + "; ".join(said) + ")")
    return text


def _training_setups_by_compute(done: list[tuple[Ask, Answer]], zh: bool) -> str | None:
    """'8 张 40G 还是 4 张 80G？' where both hold the job: the run's time goes with the set-up's dense compute (GPUs ×
    dense BF16), its safety with the room left per GPU; both said, the faster one picked unless it is tight."""
    rows = []
    for a, x in done:
        v = x.verdict
        card = _card(v.gpu if v else None)
        n = (x.request or {}).get("num_gpus") or (v.num_gpus if v else None)
        if card is None or not n or not v or not v.per_gpu_gb or not card.bf16_dense_tflops:
            continue
        rows.append((a, n * card.bf16_dense_tflops, v.per_gpu_gb / (card.memory_bytes / 1e9)))
    if len(rows) < 2:
        return None
    fast = max(rows, key=lambda r: r[1])
    slow = min(rows, key=lambda r: r[1])
    if fast[1] <= slow[1] * 1.1:
        return None
    ratio = fast[1] / slow[1]
    tight = fast[2] > 0.88
    if zh:
        return (f"{fast[0].text} 的总算力是 {slow[0].text} 的 {ratio:.1f} 倍（{fast[1]:,.0f} 对 {slow[1]:,.0f} 稠密 BF16 TFLOPS），"
                f"训练大约快 {ratio:.1f} 倍；" + (f"但它每卡用掉 {fast[2]:.0%} 显存，很紧（序列更长、batch 更大就放不下），"
                                              f"{slow[0].text} 每卡用 {slow[2]:.0%}，余量更多。" if tight else
                                              f"**选 {fast[0].text}**（每卡显存用 {fast[2]:.0%}，有余量）。"))
    return (f"{fast[0].text} has {ratio:.1f}× the compute of {slow[0].text} ({fast[1]:,.0f} against {slow[1]:,.0f} dense BF16 "
            f"TFLOPS), so it trains about {ratio:.1f}× faster; " + (
                f"but it uses {fast[2]:.0%} of each GPU's memory, which is tight (longer sequences or bigger batches will "
                f"not fit), where {slow[0].text} uses {slow[2]:.0%}." if tight else
                f"**pick {fast[0].text}** (it uses {fast[2]:.0%} of each GPU's memory, with room to spare)."))


def _compare_cards(done: list[tuple[Ask, Answer]], zh: bool, question: str, prices=(), calls: list | None = None) -> str | None:
    intent = done[0][1].intent
    reqs = [x.request or {} for _, x in done]
    if reqs[0].get("speedup") and len({r.get("gpu") for r in reqs} - {None}) >= 2:
        return _job_by_speedup(done, zh, prices, calls)
    if intent in ("inference_memory", "training_memory"):
        rows = [(a, x.verdict) for a, x in done if x.verdict and x.verdict.per_gpu_gb is not None]
        listed = _memory_listed(rows, zh)
        fit = [a.text for a, v in rows if v.fits]
        text = listed + (("。放得下的：" + "、".join(fit) + "。") if zh and fit else ("。都放不下。" if zh else
                         (f". Fits: {', '.join(fit)}." if fit else ". None fits.")))
        chosen = _choose_by_speed(done, zh, question) if intent == "inference_memory" and len(fit) >= 2 else None
        if intent == "training_memory" and len(fit) >= 2 and not chosen:
            chosen = _training_setups_by_compute(done, zh)
        return text + (" " if chosen and not zh else "") + (chosen or "")
    if intent == "price":
        vals = [(a, x.figures.get("rent_on_demand_per_gpu_hour"), x.figures.get("buy_new_per_gpu"), x.figures.get("currency"))
                for a, x in done]
        sym = "¥" if vals[0][3] == "CNY" else "$"
        listed = "; ".join(f"{a.text}: " + (f"{sym}{r:,.2f}/GPU-h" if r else "-") + (f", {sym}{b:,.0f} new" if b else "")
                           for a, r, b, _ in vals)
        specs = _spec_line([(x.request or {}).get("gpu") for _, x in done], zh)
        if specs:  # what the price difference buys: memory, bandwidth (decode) and dense compute (prefill, training)
            listed = listed + ("。" if zh else ". ") + specs
        rents = [(a, r) for a, r, _, _ in vals if r]
        if len(rents) >= 2:
            lo, hi = min(rents, key=lambda ar: ar[1]), max(rents, key=lambda ar: ar[1])
            listed += (f"。租金差 {sym}{hi[1] - lo[1]:,.2f}/卡时（{hi[0].text} 是 {lo[0].text} 的 {hi[1] / lo[1]:.2f} 倍）。" if zh else
                       f". Rent differs by {sym}{hi[1] - lo[1]:,.2f} per GPU-hour ({hi[0].text} is {hi[1] / lo[1]:.2f}× {lo[0].text}).")
            verdict = per_dollar_verdict([((x.request or {}).get("gpu"), a.text, r) for (a, x), (_, r, _, _) in zip(done, vals)
                                           if r], zh)
            if verdict:
                listed += (" " if not zh else "") + verdict
        return listed
    if intent == "cost" and all("electricity_full_load" in x.figures for _, x in done):
        # '电费差多少': each card's bill for the same job (over its own hours), and the difference
        rows = [(a, x.figures["electricity_full_load"], x.figures.get("hours")) for a, x in done]
        sym = "¥" if done[0][1].figures.get("currency") == "CNY" else "$"
        listed = ("；" if zh else "; ").join(
            f"{a.text}: {sym}{v:,.0f}" + ((f"（{h:,.0f} 小时）" if zh else f" ({h:,.0f} h)") if h else "") for a, v, h in rows)
        lo, hi = min(rows, key=lambda r: r[1]), max(rows, key=lambda r: r[1])
        return listed + (f"。**相差 {sym}{hi[1] - lo[1]:,.0f}**：{lo[0].text} 的电费更低（{hi[0].text} 是它的 "
                         f"{hi[1] / lo[1]:.1f} 倍）。" if zh else
                         f". **Difference: {sym}{hi[1] - lo[1]:,.0f}**: {lo[0].text} uses less electricity ({hi[0].text} "
                         f"draws {hi[1] / lo[1]:.1f}× as much).") if lo[1] > 0 else listed
    if intent == "cost" and all("cost_per_million_tokens" in x.figures for _, x in done):
        return _rank_per_token(done, zh, question)
    first = done[0][1].request or {}
    from assistant.readers.slots import PAST_RUN

    if intent == "training_time" and first.get("period_hours") and "period_hours" in (first.get("stated") or []) and \
            all(x.figures.get("wall_hours") for _, x in done) and (
            first.get("measured_tokens") or re.search(PAST_RUN, question.lower())):
        # 'our last run took 6 h on 4x A100 (200M tokens): 1.5B on 8x H100?': the measured run, scaled
        return _measured_on_cards(done, zh, first)
    deadline = first.get("deadline_hours")
    if intent == "training_time" and deadline and all(x.figures.get("wall_hours") for _, x in done):
        return _smallest_in_time(done, zh, deadline, question)
    if all((a.update or {}).get("purchase_price_per_server") for a, _ in done):
        bought = _servers_to_buy(done, zh)
        if bought:
            return bought
    if intent == "serving" and not any((a.update or {}).get("purchase_price") for a, _ in done) and (
            first.get("purchase") or first.get("budget")) and len({(x.request or {}).get("gpu") for _, x in done}) >= 2:
        bought = _table_priced_purchase(done, zh, prices, calls, org=bool(re.search(ORG_WORDS, question.lower())))
        if bought:  # '预算 100 万 … H20、L20、4090 买哪个？': each plan's cards and servers at the price table's prices
            return bought
    if all((a.update or {}).get("purchase_price") for a, _ in done) and intent == "serving":
        bought = _cards_to_buy(done, zh, calls, org=bool(re.search(ORG_WORDS, question.lower())))
        if bought:  # 'L20 单卡 2.8 万，H20 单卡 11 万：两种方案卡的钱各多少？': each plan's cards at the user's price
            return bought
    if intent == "training_time":
        owned_line = _owned_against_rented(done, zh, question)
        if owned_line:
            return owned_line
    if intent == "inference_speed" and all(x.figures.get("batch_job_cost") for _, x in done):
        # an offline job on each card: its whole cost and hours (one card each; more cards cut the hours, not the cost)
        cur = "¥" if (first.get("currency") == "CNY") else "$"
        rows = sorted(((a, x.figures["batch_job_cost"], x.figures["batch_job_hours"], (x.verdict.num_gpus if x.verdict else 1))
                       for a, x in done), key=lambda r: r[1])
        listed = ("；" if zh else "; ").join(
            (f"{a.text}：{n} 张 {h:,.0f} 小时，共 {cur}{c:,.0f}" if zh else f"{a.text}: {h:,.0f} h on {n}, {cur}{c:,.0f} in all")
            for a, c, h, n in rows)
        best, other = rows[0], rows[1]
        return listed + (f"。**{best[0].text} 更省**：少 {cur}{other[1] - best[1]:,.0f}（{other[1] / best[1]:.2f} 倍）；加卡只缩短时间、"
                         f"不改变总价，赶时间就多租几张同种卡。估算值，先各租一张实测一小时再定。" if zh else
                         f". **{best[0].text} costs less**: {cur}{other[1] - best[1]:,.0f} less ({other[1] / best[1]:.2f}×); more "
                         "cards of a kind cut the hours, not the cost, so rent several to meet a date. Estimates: rent one "
                         "of each for an hour and measure before committing.")
    if intent == "inference_speed":
        heavy = _per_request_cost(done, zh)
        if heavy:  # ('RAG: 6k in, 200 out, mostly prefill: is the H20 worth it?'): prefill decides, per request
            return heavy
    keys = _CARD_KEY.get(intent)
    if keys is None:
        return None
    money_asked = re.search(_MONEY, question.lower()) is not None and not (
        intent == "inference_speed" and re.search(r"how much faster|快多少|快几倍|worth|值不值|值得", question.lower()))
    # ('how much faster, and is it worth the price difference?': won on speed; the purchase prices follow)
    key = keys[0] if money_asked else keys[1]
    if intent == "serving" and len({(x.request or {}).get("gpu") for _, x in done}) >= 2 and \
            all("serve_cost_per_million_output_usd" in x.figures for _, x in done):
        key = keys[0]  # different cards: a count of GPUs compares nothing; the same load's cost per token does
    if intent == "serving" and not any((x.request or {}).get(k) for _, x in done for k in ("concurrent_users", "requests_per_s")) \
            and all(x.figures.get("max_concurrent_sequences") is not None for _, x in done):
        # 'which gives the most concurrent users?' (no load given): what each set-up holds at the context written
        key = ("max_concurrent_sequences", "higher", "sequences at once", "路同时")
    if intent == "inference_speed" and not any((x.request or {}).get("max_throughput") for _, x in done):
        key = ("decode_tokens_per_s_per_seq", "higher", "tokens/s for one stream", "单路 token/秒")
    if intent == "inference_speed" and (re.search(r"首字|首 ?token|(?<![a-z])(?:ttft|time to first token|first token)(?![a-z])",
                                                  question.lower()) or (done[0][1].request or {}).get("ttft_s")):
        key = ("ttft_s", "lower", "s to the first token", "秒首 token")  # a TTFT question is won on TTFT
    if intent == "cost" and re.search(r"按卡时|按每卡|按单卡|以卡时|折算到?每卡|平均每卡|(?<![a-z])(?:per[\s-]*(?:gpu|card)[\s-]*(?:hour|hr)?"
                                      r"[\s-]*basis|normali[sz]ed per (?:gpu|card)|per gpu-hour,? which|each gpu-hour)(?![a-z])",
                                      question.lower()) and all("rate_per_gpu_hour" in x.figures for _, x in done):
        key = ("rate_per_gpu_hour", "lower", "per GPU-hour", "每卡时")  # '按卡时算哪个便宜': per card, not per box
    if intent == "serving" and money_asked and re.search(r"每小时|每个?小时|时租|小时.{0,4}(?:便宜|贵|钱|成本)|(?<![a-z])(?:per hour|an hour|"
                                                         r"hourly|/ ?h(?:ou)?r)(?![a-z])", question.lower()) \
            and all("serve_cost_per_hour_usd" in x.figures for _, x in done):
        key = ("serve_cost_per_hour_usd", "lower", "per hour for the plan", "每小时（整套方案）")
    if intent == "training_time" and money_asked and not all("cost_at_your_price" in x.figures for _, x in done):
        key = ("cost_usd", "lower", "USD at on-demand prices", "美元（按需价）")
    if intent == "cost" and not any("rent_per_hour" in x.figures for _, x in done) and \
            all("rent_cost" in x.figures for _, x in done):  # the same job rented on each card: the job's rent
        key = ("rent_cost", "lower", "to rent for the job", "租完这次任务")
    if intent == "serving" and key[0].startswith("serve_cost") and \
            not all(isinstance(x.figures.get(key[0]), (int, float)) for _, x in done):
        # ('买4张L20还是2张H20？' where one card has no price): the cost cannot decide; each user's speed does, said
        if all(isinstance(x.figures.get("serve_itl_ms"), (int, float)) for _, x in done):
            key = ("serve_itl_ms", "lower", "ms per token for each user (not every option has a price: give your quotes "
                   "to compare cost)", "毫秒/token（每用户；不是每个方案都有价格，给出报价可按成本比）")
        elif all(isinstance(x.figures.get("max_concurrent_sequences"), (int, float)) for _, x in done):
            key = ("max_concurrent_sequences", "higher", "sequences at once (not every option has a price)",
                   "路同时（不是每个方案都有价格）")
    if intent == "inference_speed" and key[0].startswith("cost") and \
            not all(isinstance(x.figures.get(key[0]), (int, float)) for _, x in done) and \
            all(isinstance(x.figures.get("decode_tokens_per_s_per_seq"), (int, float)) for _, x in done):
        # ('a 4x H100 PCIe box way cheaper than HGX: is PCIe ok?' with no PCIe price on record): speed decides, said
        key = ("decode_tokens_per_s_per_seq", "higher", "tokens/s for one stream (not every option has a price: give "
               "your quotes to compare cost)", "单路 token/秒（不是每个方案都有价格，给出报价可按成本比）")
    name, better, en, cn = key
    if not any(isinstance(x.figures.get(name), (int, float)) for _, x in done):
        need = [(a, x.figures.get("units_needed") or x.figures.get("serve_total_gpus")) for a, x in done]
        if all(isinstance(v, (int, float)) for _, v in need):  # one card sized from a measurement, another estimated:
            # the GPUs each needs for the same load is what both answers give
            listed = "; ".join(f"{a.text}: {v:,.0f} " + ("张卡" if zh else "GPUs") for a, v in need)
            return listed + ("。" if zh else ".")
    rows = []
    out_of_it: set[str] = set()  # the notes that rule an option out of the pick, whatever it scores
    for a, x in done:
        v = x.figures.get(name)
        extra = []

        def rule_out(note: str) -> None:
            extra.append(note)
            out_of_it.add(note)

        n = (x.request or {}).get("num_gpus")
        if n and "×" not in a.text and intent != "serving":
            extra.append(f"{n} 张" if zh else f"{n} GPU" + ("s" if n > 1 else ""))
        if x.figures.get("precision"):
            extra.append(str(x.figures["precision"]))
        if x.figures.get("fits") is not None and not x.figures.get("fits"):  # (False, or 0 from a speed answer)
            rule_out("放不下" if zh else "does not fit")
        if x.figures.get("over_power_limit"):  # a plan over the power stated is no option, whatever it scores
            rule_out(f"超过功率上限（约 {x.figures['machine_power_w']:,.0f} W）" if zh else
                     f"over your power limit (~{x.figures['machine_power_w']:,.0f} W)")
        over = _over_budget(x, prices, zh) if intent in ("inference_speed", "inference_memory") else None
        if over and over[1]:  # ('~$4k budget … 2x 3090, 2x 4090, 2x 5090 or a Mac?'): cards the budget cannot buy are no option
            rule_out(over[0])
        elif over:
            extra.append(over[0])
        if x.figures.get("batch") and intent == "inference_speed":
            extra.append(f"batch {x.figures['batch']}")
        if intent == "serving" and x.figures.get("serve_total_gpus"):
            asked_n = (x.request or {}).get("num_gpus")
            need = x.figures["serve_total_gpus"]
            if asked_n and x.figures.get("serve_enough") == 0 and need > asked_n:
                rule_out(f"{asked_n} 张不够，需要 {need} 张" if zh else f"{asked_n} not enough: needs {need}")
            elif asked_n and need < asked_n and "num_gpus" in ((x.request or {}).get("stated") or []):
                # 'options: 4x H100 …': the option is the 4 cards the user would get; 2 carry the load, 4 are paid
                if name in ("serve_cost_per_million_output_usd", "serve_cost_per_hour_usd") and isinstance(v, (int, float)):
                    v = v * asked_n / need
                extra.append(f"{need} 张就够，{asked_n} 张都计费" if zh else f"{need} of the {asked_n} carry it; all {asked_n} paid")
            elif "×" not in a.text or asked_n != need:
                extra.append(f"{need} 张卡" if zh else f"{need} GPUs")
            if x.figures.get("serve_itl_ms"):
                extra.append(f"每用户 {1000 / x.figures['serve_itl_ms']:.0f} token/秒" if zh else
                             f"{1000 / x.figures['serve_itl_ms']:.0f} tok/s per user")
                if 1000 / x.figures["serve_itl_ms"] < READING_SPEED and not (x.request or {}).get("tokens_per_s_per_user") \
                        and any(y.figures.get("serve_itl_ms") and 1000 / y.figures["serve_itl_ms"] >= READING_SPEED
                                and y.figures.get("serve_enough") != 0 for _, y in done):
                    # a chat answer slower than people read is no option when another option is not (no target stated)
                    rule_out(f"慢于阅读速度（{READING_SPEED} token/秒）" if zh else
                             f"slower than people read ({READING_SPEED} tok/s)")
        if intent == "training_time" and name != "wall_hours" and x.figures.get("wall_hours"):
            extra.append(f"{x.figures['wall_hours']:,.1f} 小时" if zh else f"{x.figures['wall_hours']:,.1f} h")
        rows.append((a, v, extra))
    sym = ""
    if name in ("serve_cost_per_million_output_usd", "serve_cost_per_hour_usd", "cost_usd"):
        sym = "$"
    elif name in ("cost_per_million_tokens", "cost_at_your_price", "rent_per_hour", "rate_per_gpu_hour", "rent_cost"):
        cur = (done[0][1].request or {}).get("currency") or done[0][1].figures.get("currency")
        sym = "¥" if cur == "CNY" else "$"
    listed = "; ".join(f"{a.text}" + (f" ({', '.join(e)})" if e else "") + ": "
                       + (f"{sym}{_num(v)} {cn if zh else en}" if isinstance(v, (int, float)) else "-") for a, v, e in rows)
    def ruled_out(e: list) -> bool:  # does not fit, not enough at the count stated, too slow, or over the power limit
        return any(t in out_of_it for t in e)

    vals = [(a, v) for a, v, e in rows if isinstance(v, (int, float)) and not ruled_out(e)]
    if not vals and any(ruled_out(e) for _, _, e in rows) and any(
            t.startswith(("over your power", "超过功率")) for _, _, e in rows for t in e):
        return listed + ("。**没有一个方案在你的功率上限内**：要么加供电，要么换功耗更低的卡或更少的卡（更小的格式）、或者限功率运行。" if zh else
                         ". **None of these fits your power limit**: more power, fewer or lower-power cards (a smaller "
                         "format), or power-limiting the cards.")
    if not vals and intent == "serving" and rows and all(ruled_out(e) for _, _, e in rows):
        short = [(a, v) for a, v, e in rows if isinstance(v, (int, float))]
        if short:  # none carries the load at the counts stated: the one that does at the least cost, with its count
            a, v = min(short, key=lambda av: av[1])
            need = next((x.figures.get("serve_total_gpus") for b, x in done if b is a), None)
            label = f"{int(need)}× {_card_of(a.text)}" if need else a.text
            unpriced = [_card_of(b.text) for b, w_, _ in rows if not isinstance(w_, (int, float))]
            tail = ((f"（{'、'.join(unpriced)} 没有价格，未参与比较）" if zh else
                     f" ({', '.join(unpriced)}: no price, not compared)") if unpriced else "")
            return listed + (f"。按你写的卡数，没有一个方案扛得住这个负载；按各自需要的卡数，最省的是 **{label}**{tail}。" if zh else
                             f". None of these carries the load at the count written; at the counts each needs, the "
                             f"cheapest is **{label}**{tail}.")
    if len(vals) < 2:
        unfit = [a for a, v, e in rows if ruled_out(e)]
        if len(vals) == 1 and unfit:  # one option holds the job, the others do not: that decides it
            bought = _bought(vals[0][0])
            price = f"（{bought}）" if zh and bought else f" ({bought})" if bought else ""
            power = any(t.startswith(("over your power", "超过功率")) for _, _, e in rows for t in e)
            slow = all(any("阅读速度" in t or "reading" in t or "people read" in t for t in e) for _, _, e in rows
                       if ruled_out(e))
            open_ = [a.text for a, v, e in rows if not isinstance(v, (int, float)) and not ruled_out(e)]
            if open_:  # an option with no price is not ruled out: the pick is among the priced ones, said
                price += (f"（{'、'.join(open_)} 没有价格，未参与比较）" if zh else
                          f" ({', '.join(open_)}: no price in the table, not compared)")
            if slow and not power:  # ('换 H200 要几张': it holds it, but each user gets less than people read)
                slow_ones = [a.text for a, _, e in rows if ruled_out(e)]
                return listed + (f"。**{vals[0][0].text} 更合适**{price}：{'、'.join(slow_ones)} 放得下，但每个用户的速度慢于阅读速度。"
                                 if zh else
                                 f". **Pick {vals[0][0].text}**{price}: {', '.join(slow_ones)} hold(s) it, but each user "
                                 "gets less than people read.")
            only_zh = "有价格的方案里只有" if open_ else "只有"
            only_en = "Of the priced options only" if open_ else "Only"
            return listed + ((f"。**{only_zh} {vals[0][0].text} 放得下且在功率上限内：选它**{price}。" if power else
                              f"。**{only_zh} {vals[0][0].text} 放得下：选它**{price}。") if zh else
                             (f". **{only_en} {vals[0][0].text} holds it within your power limit: pick it**{price}." if power
                              else f". **{only_en} {vals[0][0].text} holds it: pick it**{price}."))
        return listed + ("。" if zh else ".")
    if intent == "inference_speed" and all((a.update or {}).get("purchase_price") for a, _ in vals):
        # cards to buy at the user's prices: the cheapest that holds the job and keeps the speed asked wins
        target = (done[0][1].request or {}).get("tokens_per_s_per_user")
        speed = {id(a): x.figures.get("decode_tokens_per_s_per_seq") or 0 for a, x in done}
        queued = {id(a): x.figures.get("queued_beyond") for a, x in done}  # (holds fewer streams than the load asks)
        ok = [(a, v) for a, v in vals if (not target or speed[id(a)] >= target) and not queued[id(a)]]
        short = [a.text for a, v in vals if queued[id(a)]]
        if short and ok:
            listed += (f"；{'、'.join(short)} 放不下这么多路同时跑（多出的要排队）" if zh else
                       f"; {', '.join(short)} cannot hold that many streams at once (the rest queue)")
        if ok:
            best = min(ok, key=lambda av: _option_price(av[0]))
            why = (f"放得下{f'、单路 ≥ {target:g} token/秒' if target else ''}的选项里最便宜" if zh else
                   f"the cheapest that holds it{f' at ≥ {target:g} tokens/s' if target else ''}")
            return listed + (f"。**选 {best[0].text}**（{_bought(best[0])}）：{why}。" if zh else
                             f". **Pick {best[0].text}** ({_bought(best[0])}): {why}.")
    if intent == "inference_speed" and re.search(r"worth|price difference|pay (?:the )?(?:extra|more)|差价|值不值|值得|贵多少",
                                                  question.lower()):
        buys = _purchase_line([(a, (x.request or {}).get("gpu")) for a, x in done], zh, prices)
        if buys:
            listed += ("。" if zh else ". ") + buys
    priced = _priced_throughput(done, vals, zh) if intent == "inference_speed" and "tokens_per_s" in name else None
    if priced:  # each option at the user's own price: the throughput per unit of money decides
        return listed + priced
    pick = min if better == "lower" else max
    win = pick(vals, key=lambda av: av[1])
    other = pick([av for av in vals if av[0] is not win[0]], key=lambda av: av[1])
    ratio = (other[1] / win[1]) if better == "lower" else (win[1] / other[1])
    if abs(ratio - 1) < 0.03:
        broken = _tie_broken_by_speed(done, listed, zh) if intent == "serving" else \
            _tie_broken_by_room(done, listed, zh, {id(a) for a, _ in (win, other)}) if intent == "inference_speed" else None
        if broken:
            return broken
        tail = ""
        ttft = [(a, x.figures.get("ttft_s")) for a, x in done if x.figures.get("ttft_s")]
        if intent == "inference_speed" and name != "ttft_s" and len(ttft) >= 2:
            lo, hi = min(ttft, key=lambda av: av[1]), max(ttft, key=lambda av: av[1])
            if hi[1] > 1.03 * lo[1]:  # same decode (bandwidth), different prefill (compute): said, not hidden in the tie
                tail = (f"首 token（预填充，看算力）{lo[0].text} 快 {hi[1] / lo[1]:.2f} 倍（{lo[1]:.2f} 秒对 {hi[1]:.2f} 秒）。" if zh else
                        f" Time to first token (prefill, compute-bound): {lo[0].text} is {hi[1] / lo[1]:.2f}× faster "
                        f"({lo[1]:.2f} s vs {hi[1]:.2f} s).")
        worth = ""
        if intent == "inference_speed" and re.search(r"worth|pay (?:the )?(?:extra|more)|值不值|值得|多花钱|划算", question.lower()):
            # 'is the dearer card worth it for inference?': the decode (what a user waits on) is the same: no, for this
            worth = ("**为推理多花钱不值**：解码速度（用户等的就是它，看显存带宽）一样；多花的钱只买到更快的预填充。" if zh else
                     " **Not worth paying more for inference**: the decode speed (what a user waits on, set by memory "
                     "bandwidth) is the same; the extra buys only a faster prefill.")
        if intent == "training_time" and name == "wall_hours":
            # 'A800 vs A100, 8 cards, 13B full: how much slower?': the same time, said as the answer
            return (f"{listed}。**几乎一样快**（差别不到 3%）：这个任务的通信藏在计算后面，卡之间的差别（如互联带宽）在这里"
                    "几乎体现不出来。" if zh else
                    f"{listed}. **About the same speed** (within 3%): this job's communication hides behind its compute, "
                    "so the cards' difference (such as the link) barely shows here.")
        if intent == "training_time" and all(x.figures.get("wall_hours") for _, x in done):
            # 'which is the best value?' at a near-equal bill: the same money, so the one that finishes first
            fast = min(done, key=lambda ax: ax[1].figures["wall_hours"])
            return (f"{listed}。花费几乎一样（差别不到 3%），**选 {fast[0].text}**：同样的钱最快跑完"
                    f"（{fast[1].figures['wall_hours']:,.1f} 小时）。" if zh else
                    f"{listed}. About the same bill (within 3%), so **pick {fast[0].text}**: the same money, done first "
                    f"({fast[1].figures['wall_hours']:,.1f} h).")
        return (f"{listed}。两者" + ("解码" if intent == "inference_speed" else "") + "相当（差别不到 3%）。" + tail + worth) \
            if zh else f"{listed}. A tie (within 3%).{tail}{worth}"
    verdict = _claimed_faster(question, win[0], other[0], done, zh)
    one_node = _one_node_near_tie(done, win, other, ratio, intent, zh, listed)
    if one_node:
        return verdict + one_node
    unpriced = [a.text for a, v, _ in rows if not isinstance(v, (int, float))] if "cost" in name or "usd" in name else []
    note = ((f"{'、'.join(unpriced)} 价格表里没有价格，没参与按成本排名（给出你的报价即可比较）。" if zh else
             f" {', '.join(unpriced)}: no price in the table, so not ranked on cost (give your quote to compare).")
            if unpriced else "")
    from knowledge.catalog import default_catalog

    cat = default_catalog()
    vendors = {cat.gpu(g)[0].vendor for g in ((a.update or {}).get("gpu") for a, _ in done) if g}
    win_vendor = cat.gpu((win[0].update or {}).get("gpu"))[0].vendor if (win[0].update or {}).get("gpu") else None
    if len(vendors) >= 2 and win_vendor in ("AMD", "Huawei"):  # the stack, said where the pick leaves CUDA
        note += ((f"注意 {win[0].text} 不是 CUDA：vLLM/SGLang 在 ROCm 上能跑 FP8，但镜像、kernel 和排错要按 ROCm 来；团队只熟 CUDA 时"
                  "要算上这部分成本。") if zh and win_vendor == "AMD" else
                 (f"注意 {win[0].text} 用昇腾 CANN/MindIE 软件栈，不是 CUDA。") if zh else
                 (f" Mind that {win[0].text} is not CUDA: vLLM and SGLang run FP8 on ROCm, but images, kernels and "
                  "debugging follow ROCm; count that in if the team knows only CUDA.") if win_vendor == "AMD" else
                 f" Mind that {win[0].text} runs Ascend's CANN/MindIE stack, not CUDA.")
    return verdict + (f"{listed}。**{win[0].text} 最好**，比第二名 {other[0].text} 好 {ratio:.2f} 倍。" if zh else
                      f"{listed}. **Best: {win[0].text}**, {ratio:.2f}× better than the next, {other[0].text}.") + note


def _memory_versions(asks: list[Ask], answers: list[Answer], zh: bool, question: str) -> str:
    """Two memory versions of one card that both hold the job ('A100 40G 和 80G 差别大吗？二手价差挺多的…8B 全参微调加推理'):
    what the larger buys — room left for the KV cache when serving the model on one card (longer contexts, more users),
    the bandwidth difference, larger models — so the price gap is weighed against a use, not against the job that fits
    on both."""
    from knowledge.catalog import default_catalog
    from assistant.plans.infer import fits_on

    if len(asks) != 2 or {a.compare for a in asks} != {"gpu"} or not all(x.verdict and x.verdict.fits for x in answers):
        return ""
    cat = default_catalog()
    if not all((a.update or {}).get("gpu") for a in asks) or not (answers[0].request or {}).get("model"):
        return ""
    try:
        cards = [cat.gpu((a.update or {}).get("gpu"))[0] for a in asks]
        model = cat.model((answers[0].request or {}).get("model"))[0]
    except (LookupError, ValueError, TypeError, AttributeError):
        return ""
    small, big = sorted(cards, key=lambda g: g.memory_gb or 0)
    if small.id.split("-")[0] != big.id.split("-")[0] or not small.memory_gb or big.memory_gb < 1.5 * small.memory_gb:
        return ""
    room = []
    for g in (small, big):
        r = fits_on(model, g, 1, model.native_precision, 4096, 1)
        room.append(max(0.0, r.usable_gb - (r.per_gpu_gb - r.kv_cache_gb)) if r.fits else 0.0)
    bw = (big.memory_bandwidth_gbps or 0) / (small.memory_bandwidth_gbps or 1)
    return (f" **{big.memory_gb:g}G 多花的钱买到的**：这个任务两种都放得下；推理时单卡给 KV cache 留的空间约 {room[0]:,.0f} 对 {room[1]:,.0f} GB"
            f"（更长的上下文、更多人同时用），带宽 {bw:.2f} 倍（解码更快），以及能放更大的模型（30B 以上）。"
            f"只做 {model.name} 这一级的微调和少量推理，{small.memory_gb:g}G 就够，价差不值；以后要跑更大的模型或长上下文、多并发，再选 {big.memory_gb:g}G。"
            if zh else
            f" **What the {big.memory_gb:g} GB version buys**: this job fits on both; serving the model on one card leaves "
            f"~{room[0]:,.0f} vs ~{room[1]:,.0f} GB for the KV cache (longer contexts, more users at once), {bw:.2f}× the "
            f"bandwidth (faster decoding), and room for larger models (30B and up). For {model.name}-class fine-tuning and "
            f"light inference the {small.memory_gb:g} GB is enough and the price gap is not worth it; pick the "
            f"{big.memory_gb:g} GB for larger models, long contexts or many users.")


def _mac_against_gpus(asks: list[Ask], answers: list[Answer], zh: bool) -> str:
    """A Mac beside NVIDIA cards for one model ('M2 Ultra 192GB or two 4090s for a 70B, team of 5?'): what each is
    for. The Mac's unified memory holds the model in 8 bits (or 16) with long contexts; the cards decode and, above
    all, prefill faster (a long prompt waits many times longer on the Mac) but hold only a 4-bit file with short
    contexts. The 8-bit size is said against the Mac's memory."""
    from knowledge.catalog import default_catalog
    from tools.formats import FORMATS
    from tools.params import count_parameters

    cat = default_catalog()
    rows = []
    for a, x in zip(asks, answers):
        gid = (a.update or {}).get("gpu") or (x.request or {}).get("gpu")
        if not gid:
            return ""
        try:
            g = cat.gpu(gid)[0]
        except (LookupError, ValueError, TypeError, AttributeError):
            return ""
        rows.append((a, x, g))
    macs = [r for r in rows if r[2].vendor == "Apple"]
    cards = [r for r in rows if r[2].vendor != "Apple"]
    if len(macs) != 1 or not cards or asks[0].intent != "inference_speed":
        return ""
    (ma, mx, mg), (ca, cx, cg) = macs[0], cards[0]
    if not (mx.request or {}).get("model"):
        return ""
    try:
        spec = cat.model((mx.request or {}).get("model"))[0]
    except (LookupError, ValueError, TypeError, AttributeError):
        return ""
    eight = count_parameters(spec).total * FORMATS["q8_0"].bits / 8 / 1e9
    room = (mg.memory_gb or 0) * 0.75  # macOS wires about 75% of unified memory for the GPU by default (raisable)
    t_m, t_c = mx.figures.get("ttft_s"), cx.figures.get("ttft_s")
    b_m, b_c = mx.figures.get("batch") or 1, cx.figures.get("batch") or 1
    p_len = (mx.request or {}).get("prompt_len") or 2048
    pre = (f"; the first token waits {t_m:,.1f} s on the Mac ({b_m} prompts of {p_len:,} tokens at once) against "
           f"{t_c:,.1f} s on {ca.text} ({b_c} at once)" if t_m and t_c else "")
    pre_zh = (f"；首 token 在 Mac 上要等 {t_m:,.1f} 秒（{b_m} 个 {p_len:,} token 的提示同时），{ca.text} 上 {t_c:,.1f} 秒（{b_c} 个同时）"
              if t_m and t_c else "")
    fits8 = eight <= room
    return (f" **怎么选**：{ma.text} 的统一内存能放下 8 位的 {spec.name}（约 {eight:,.0f} GB，默认可给 GPU 用约 {room:,.0f} GB）"
            + ("" if fits8 else "（要调高 GPU 可用内存上限）") + f"，质量更好、上下文更长、安静省电；{ca.text} 解码更快、预填充快得多"
            f"{pre_zh}，但只能放 4 位文件、上下文短。少数几个人、提示不长：Mac 可用；多人同时用或长文档：选 N 卡。" if zh else
            f" **Which for what**: {ma.text}'s unified memory holds {spec.name} in 8 bits (~{eight:,.0f} GB, ~{room:,.0f} GB "
            "usable by the GPU by default" + ("" if fits8 else ", raise the wired limit") + "): better quality, long "
            f"contexts, quiet and low power; {ca.text} decode faster and prefill far faster{pre}, but hold only a 4-bit file "
            "with short contexts. A few people with short prompts: the Mac is reasonable; several at once or long "
            "documents: the cards.")


def _one_node_near_tie(done, win, other, ratio: float, intent: str, zh: bool, listed: str) -> str | None:
    """Serving set-ups within 10% of each other where the winner spans several 8-GPU servers and the other fits in
    one: the one server wins (no inter-node InfiniBand/RoCE to buy and tune, tensor parallelism inside NVLink, one
    machine to run), said with the margin it gives up."""
    if intent != "serving" or ratio > 1.10:
        return None
    n = lambda ax: ((ax[1].request or {}).get("num_gpus") or (ax[1].figures.get("serve_total_gpus") or 0))  # noqa: E731
    pair = {id(a): (a, x) for a, x in done}
    w, o = pair.get(id(win[0])), pair.get(id(other[0]))
    if not w or not o or not (n(w) > 8 >= n(o) > 0):
        return None
    return (f"{listed}。两者相差不到 10%（{ratio:.2f} 倍）；**选 {other[0].text}**：一台机器就放得下，张量并行全在 NVLink 内，"
            f"不用买和调跨机的 InfiniBand/RoCE 网络；{win[0].text} 要 {n(w)} 张卡分两台以上，跨机通信还会让实际速度低于估算。" if zh else
            f"{listed}. Within 10% of each other ({ratio:.2f}×); **pick {other[0].text}**: it fits in one server, tensor "
            f"parallelism stays inside NVLink, and there is no inter-node InfiniBand/RoCE to buy and tune; {win[0].text} "
            f"spreads {n(w)} GPUs over two or more servers, and the traffic between them makes it slower in practice than "
            "estimated.")


def _card_of(label: str) -> str:
    """'2× GeForce RTX 4090' -> 'GeForce RTX 4090': an option's card without the count written for it."""
    return re.sub(r"^\s*\d+\s*×\s*", "", label)


def _gap(done) -> float | None:
    """The slower option's time over the faster one's (or the faster throughput over the slower), from the figures
    every answer gives: wall hours for training, tokens/s for speed."""
    for key, higher in (("wall_hours", False), ("decode_tokens_per_s_per_seq", True), ("serve_total_gpus", False)):
        vals = [x.figures.get(key) for _, x in done]
        if all(isinstance(v, (int, float)) and v > 0 for v in vals):
            return max(vals) / min(vals)
    return None


def _claimed_faster(question: str, win: Ask, other: Ask, done, zh: bool) -> str:
    """'老板说 H20 比 H100 还强 … 对吗': a claim that one card beats another, judged by the comparison's winner."""
    from assistant.readers.names import find_names
    from knowledge.catalog import default_catalog

    low = question.lower()
    m = re.search(r"([^，,。.;；]{1,30}?)\s*比\s*([^，,。.;；]{1,30}?)\s*(?:还|更|要)?\s*(?:强|快|好|厉害|猛)", low) or \
        re.search(r"([^,.;]{1,30}?)\s+(?:is|are|runs?|trains?)\s+(?:\w+\s+)?(?:faster|better|stronger|quicker)\s+than\s+"
                  r"([^,.;?]{1,30})", low)
    from assistant.claims import equal_claim_verdict, equal_speed_claim

    same = None if m else equal_speed_claim(question)
    if same:  # 'H20 训练 70B 跟 H100 一样快': an equality, judged by the comparison's gap
        ratio = _gap(done)
        return equal_claim_verdict(same, ratio, done[0][1].intent.startswith("training"), zh) if ratio else ""
    if not m:
        return ""
    cat = default_catalog()
    a, b = (find_names(x, cat)[0].gpus for x in (m.group(1), m.group(2)))
    if not a or not b:
        return ""
    winner = (win.update or {}).get("gpu")
    if winner is None or winner not in (a[0], b[0]):
        return ""
    right = winner == a[0]
    trains = done[0][1].intent.startswith("training")
    why_zh = "训练和预填充看稠密算力，显存大小不决定速度" if trains else "解码看显存带宽，预填充看稠密算力"
    why_en = ("training and prefill follow dense compute; memory size does not set speed" if trains else
              "decode follows memory bandwidth, prefill dense compute")
    return ((("**说法对**：" if right else "**说法不对**：") + f"{a[0]} 比 {b[0]} " +
             ("确实更快。" if right else f"慢，不是更快（{why_zh}）。")) if zh else
            (("**The claim holds**: " if right else "**The claim is wrong**: ") + f"{a[0]} is "
             + ("indeed faster than " if right else "slower than, not faster than, ") + f"{b[0]}"
             + ("." if right else f" ({why_en}).")))


_OWNED = r"(?:i have|we have|i've got|we've got|i own|we own|my|our|own|我有|我们有|手上有?|手里有?|自己的|自有|现有)\s*(?:a |an |one |一张|一块|两张|\d+\s*(?:x|张|块)?)?\s*(?:rtx\s*|nvidia\s*)?$"


def _owned_against_rented(done: list[tuple[Ask, Answer]], zh: bool, question: str) -> str | None:
    """'I have one 4090; use it or rent an A100 at $1.50/hr?': the card the user has costs no rent, so the rented one
    is worth its bill only for the hours it saves."""
    low = question.lower()
    owned, rented = [], []
    for a, x in done:
        req = x.request or {}
        words = re.sub(r"^\d+×\s*|geforce\s*|nvidia\s*|rtx\s*", "", (a.text or "").lower()).split()
        name = next((t for t in words if re.search(r"\d", t)), words[0] if words else "")
        at = low.find(name) if name else -1
        if at >= 0 and re.search(_OWNED, low[max(0, at - 30):at]):
            owned.append((a, x))
        elif req.get("price_per_gpu_hour"):
            rented.append((a, x))
    if len(owned) != 1 or len(rented) != 1:
        return None
    (ao, xo), (ar, xr) = owned[0], rented[0]
    ho, hr = xo.figures.get("wall_hours"), xr.figures.get("wall_hours")
    price = (xr.request or {}).get("price_per_gpu_hour")
    n = (xr.request or {}).get("num_gpus") or 1
    if not (ho and hr and price):
        return None
    sym = "¥" if (xr.request or {}).get("currency") == "CNY" else "$"
    bill = hr * price * n
    if hr >= ho:
        return (f"{ao.text}（你已有）：{ho:,.1f} 小时，不用租金；{ar.text}：{hr:,.1f} 小时、{sym}{bill:,.0f}。**用你自己的卡**：租的不更快。"
                if zh else f"{ao.text} (yours): {ho:,.1f} h, no rent; {ar.text}: {hr:,.1f} h, {sym}{bill:,.0f}. **Use your own "
                "card**: the rental is not faster.")
    return (f"{ao.text}（你已有）：{ho:,.1f} 小时，只花电费；{ar.text}：{hr:,.1f} 小时 × {sym}{price:g}/卡时 = {sym}{bill:,.2f}。"
            f"**租卡花 {sym}{bill:,.2f} 省 {ho - hr:,.1f} 小时**：时间要紧就租，不急就用自己的卡。" if zh else
            f"{ao.text} (yours): {ho:,.1f} h, power only; {ar.text}: {hr:,.1f} h × {sym}{price:g}/GPU-h = {sym}{bill:,.2f}. "
            f"**The rental buys {ho - hr:,.1f} hours for {sym}{bill:,.2f}**: rent if those hours matter, otherwise your own "
            "card does it.")


def _clear_winner(values: list[tuple[Ask, float]], expected: int, margin: float):
    """The (highest, lowest) of each option's value when every one of `expected` options has one and the highest is
    at least `margin` times the lowest; None otherwise (a tie stays a tie)."""
    if len(values) != expected or len(values) < 2:
        return None
    hi, lo = max(values, key=lambda av: av[1]), min(values, key=lambda av: av[1])
    return (hi, lo) if hi[1] >= margin * lo[1] else None


def _tie_broken_by_speed(done: list[tuple[Ask, Answer]], listed: str, zh: bool) -> str | None:
    """Serving set-ups that cost the same per token: the one that gives each user 10% or more tokens/s wins (what the
    same money buys a user); None when their speeds are as close."""
    speeds = [(a, 1000 / x.figures["serve_itl_ms"]) for a, x in done if x.figures.get("serve_itl_ms")]
    ends = _clear_winner(speeds, len(done), 1.1)
    if ends is None:
        return None
    fast, slow = ends
    return (f"{listed}。成本相当（差别不到 3%）；**选 {fast[0].text}**：每个用户 {fast[1]:.0f} token/秒，是 {slow[0].text}"
            f"（{slow[1]:.0f}）的 {fast[1] / slow[1]:.2f} 倍。" if zh else
            f"{listed}. A tie on cost (within 3%); **pick {fast[0].text}**: {fast[1]:.0f} tokens/s per user, "
            f"{fast[1] / slow[1]:.2f}× {slow[0].text}'s {slow[1]:.0f}.")


def _tie_broken_by_room(done: list[tuple[Ask, Answer]], listed: str, zh: bool, tied: set) -> str | None:
    """Cards as fast as each other for one stream: the one with room for a longer conversation (the longest context
    its memory leaves) wins when it holds at least 1.5x as long; None when neither answer says or they are as close."""
    room = [(a, x.figures["max_context"]) for a, x in done if id(a) in tied and x.figures.get("max_context")]
    ends = _clear_winner(room, len(tied), 1.5)
    if ends is None:
        return None
    big, small = ends
    return (f"{listed}。单路速度相当（差别不到 3%）；**选 {big[0].text}**：显存留给上下文的空间更大，单条最长约 {big[1]:,} token，"
            f"{small[0].text} 约 {small[1]:,}。" if zh else
            f"{listed}. As fast for one stream (within 3%); **pick {big[0].text}**: more memory left for context, "
            f"about {big[1]:,} tokens for one conversation against {small[1]:,} on {small[0].text}.")


def _priced_throughput(done: list[tuple[Ask, Answer]], vals: list, zh: bool) -> str | None:
    """Options that each carry the user's price per GPU-hour ('8 卡 L40S ¥7/卡/小时，4 卡 H100 ¥15/卡/小时'): each one's cost per
    hour (price x GPUs) and per million tokens at its full-load throughput, and the pick: the cheapest per token."""
    rows = []
    for a, v in vals:
        price, n = (a.update or {}).get("price_per_gpu_hour"), (a.update or {}).get("num_gpus")
        if not price or not n or not v:
            return None
        per_hour = price * n
        rows.append((a, per_hour, per_hour / (v * 3600) * 1e6, v * 3600 / per_hour))
    cur = (done[0][1].request or {}).get("currency")
    sym = "¥" if cur == "CNY" or (cur is None and zh) else "$"
    best = min(rows, key=lambda r: r[2])
    listed = ("；" if zh else "; ").join(
        (f"{a.text} 每小时 {sym}{h:,.2f}，每百万 token {sym}{m:,.3g}（每{'元' if sym == '¥' else '美元'} {t:,.0f} token）" if zh else
         f"{a.text} {sym}{h:,.2f}/h, {sym}{m:,.3g} per 1M tokens ({t:,.0f} tokens per {sym})") for a, h, m, t in rows)
    other = max(rows, key=lambda r: r[2])
    return (f"。按你的价格：{listed}。**选 {best[0].text}**：每百万 token 便宜 {other[2] / best[2]:.2f} 倍。" if zh else
            f". At your prices: {listed}. **Pick {best[0].text}**: {other[2] / best[2]:.2f}× cheaper per token.")


def _count_speedup(done, vals, zh: bool) -> str:
    """'how long on one H100, and how much faster on 8?': each count's hours, the speed-up against the GPU ratio, and
    why it differs from the ratio when it does (a layout the larger count's memory allows, or communication)."""
    (a1, h1), (a2, h2) = vals
    x = {id(a): r for a, r in done}
    n1, n2 = ((x[id(a)].request or {}).get("num_gpus") or 1 for a in (a1, a2))
    ratio, ideal = h1 / h2 if h2 else 0, n2 / n1 if n1 else 0
    head = (f"{a1.text}：{h1:,.3g} 小时；{a2.text}：{h2:,.3g} 小时，**快 {ratio:.1f} 倍**（卡数是 {ideal:g} 倍）" if zh else
            f"{a1.text}: {h1:,.3g} h; {a2.text}: {h2:,.3g} h, **{ratio:.1f}× faster** ({ideal:g}× the GPUs)")
    if not ideal or not ratio:
        return head
    if ratio > ideal * 1.05:
        why = ("：卡多了，显存够用，不必重算激活值（省掉一次前向），所以超过卡数的倍数" if zh else
               ": with more GPUs the memory allows skipping activation recomputation (one forward pass fewer), so it beats "
               "the GPU ratio")
    elif ratio < ideal * 0.9:
        why = ("：卡之间的通信（梯度、分片权重）吃掉了一部分" if zh else
               ": communication between the GPUs (gradients, sharded weights) takes part of it")
    else:
        why = "：基本按卡数线性加速" if zh else ": close to linear in the GPUs"
    if ratio > ideal * 1.05:
        tail = "。总卡时反而更少，租金也更省。" if zh else ". The GPU-hours, and so the rent, even drop."
    elif ratio >= ideal * 0.9:
        tail = "。总卡时相近，租金差不多，只是更快拿到结果。" if zh else ". The GPU-hours are about the same, so the rent is too: you get it sooner."
    else:
        tail = "。总卡时更多，租金更高。" if zh else ". The GPU-hours, and so the rent, rise."
    return head + why + tail


def _rank_per_token(done: list[tuple[Ask, Answer]], zh: bool, question: str) -> str:
    """Cards with their own price and throughput: ranked per million tokens, and per hour too when the hourly
    price is asked ('按小时算哪个最便宜？按每百万 token 算哪个最便宜？')."""
    cur = done[0][1].figures.get("currency")
    sym = "¥" if cur == "CNY" else "$"
    parts = []
    hourly = re.search(r"按小时|小时.{0,4}(?:哪个|谁).{0,4}(?:便宜|贵)|(?:便宜|贵).{0,4}每小时|(?<![a-z])(?:(?:cheap\w*|cost\w*|less)\s+"
                       r"(?:per hour|by the hour|hourly)|(?:per hour|hourly|by the hour)[^.?!]{0,20}(?:cheap|which))",
                       question.lower())  # asked per hour, not a price written per hour
    from assistant.readers.slots import COUNT_ASK

    if re.search(COUNT_ASK + r"|fewer|more (?:gpus|cards)|少几张|少用|更少", question.lower()) and \
            all(x.figures.get("units_needed") for _, x in done):
        # 'how many H100s? would H200s need fewer?': the count each needs for the volume, first
        need = sorted(((a, x.figures["units_needed"]) for a, x in done), key=lambda av: av[1])
        listed = ("；" if zh else "; ").join(f"{a.text} {n} " + ("张" if zh else "GPU" + ("s" if n > 1 else "")) for a, n in need)
        fewest = need[0]
        tie = sum(1 for _, n in need if n == fewest[1]) > 1
        parts.append((f"扛住你的量需要：{listed}" + ("。" if tie else f"；**{fewest[0].text} 用的卡最少**。")) if zh else
                     (f"For your volume: {listed}" + ("." if tie else f"; **{fewest[0].text} needs the fewest**.")))
    rankings = ([("cost_per_hour", "每小时", "per hour")] if hourly else []) + \
        [("cost_per_million_tokens", "每百万 token", "per million tokens")]
    for key, cn, en in rankings:
        rows = sorted(((a, x.figures[key]) for a, x in done), key=lambda av: av[1])
        listed = ("；" if zh else "; ").join(f"{a.text} {sym}{_num(v)}" for a, v in rows)
        (wa, wv), (na, nv) = rows[0], rows[1]
        gap = (nv - wv) / nv if nv else 0
        parts.append(f"按{cn}：{listed}；**{wa.text} 最便宜**（比 {na.text} 低 {gap:.0%}）。" if zh else
                     f"{en.capitalize()}: {listed}; **cheapest: {wa.text}** ({gap:.0%} below {na.text}).")
    if len(rankings) == 2 and sorted(done, key=lambda ax: ax[1].figures["cost_per_hour"])[0][0] is not \
            sorted(done, key=lambda ax: ax[1].figures["cost_per_million_tokens"])[0][0]:
        parts.append("按小时最便宜的不是按 token 最便宜的：吞吐决定每个 token 的成本。" if zh else
                     "The cheapest per hour is not the cheapest per token: throughput decides the cost of a token.")
    return " ".join(parts) if not zh else "".join(parts)


def compare(asks: list[Ask], answers: list[Answer], zh: bool, question: str = "", prices=(),
            calls: list | None = None) -> str | None:
    """Which alternative wins and by how much, from the answers' own figures; an alternative timed but not fitting is
    named first, whatever wins among the rest."""
    text = _compare(asks, answers, zh, question, prices, calls)
    if text and re.search(r"差别|区别|差多少|不同|差异|" + r"(?<![a-z])(?:difference|differ\w*|vs\.?|versus)(?![a-z])",
                          question.lower()) and all(a.compare == "gpu" for a in asks) and len(asks) == 2 and \
            "What the difference buys" not in text and "差价买到的" not in text and "规格：" not in text and "Specs:" not in text:
        # ('A100 40G 和 80G 差别大吗？… 8 张 40G 跑 70B'): the cards' own differences beside the job on each
        spec = _spec_line([(x.request or {}).get("gpu") for x in answers], zh, priced=False)
        if spec:
            text += (" " if not zh else "") + spec + ("。" if zh else ".")
    room = _room_at_long_context(asks, answers, zh)
    if text and room:
        text += room
    mac = _mac_against_gpus(asks, answers, zh)
    if text and mac:
        text += mac
    versions = _memory_versions(asks, answers, zh, question)
    if text and versions:
        text += versions
    priced = [(a, x) for a, x in zip(asks, answers) if a.compare == "gpu" and x.intent == "training_time"
              and x.figures.get("cost_at_your_price")]
    if text and len(priced) >= 2 and len(priced) == sum(1 for a in asks if a.compare == "gpu") and \
            not re.search(r"at your prices|按你给的价格", text):
        # ('H100 at $2.50/GPU-hr, H200 at $3.50': the job's bill on each at the user's own prices, and the cheaper)
        cheap = min(priced, key=lambda ax: ax[1].figures["cost_at_your_price"])
        sym = "¥" if (cheap[1].request or {}).get("currency") == "CNY" else "$"
        bills = ("; " if not zh else "；").join(f"{a.text} {sym}{x.figures['cost_at_your_price']:,.2f}" for a, x in priced)
        text += (f" 按你给的价格，这次训练的费用：{bills}；**更便宜的是 {cheap[0].text}**。" if zh else
                 f" The job's bill at your prices: {bills}; **cheaper: {cheap[0].text}**.")
    unfit = [a for a, x in zip(asks, answers) if a.compare and x.status == "answered"
             and x.intent in ("inference_speed", "training_time") and x.figures.get("fits") == 0]
    # (an option that runs only with part of the model in CPU RAM does not fit the GPUs: said first, its speed beside)
    offloaded = [(a, x) for a, x in zip(asks, answers) if x.figures.get("fits") == 0 and x.figures.get("offload_ram_gb")
                 and x.figures.get("offload_decode_tokens_per_s")]
    whole = [(a, x) for a, x in zip(asks, answers) if x.figures.get("fits") == 1 and x.figures.get("offload_ram_gb", 1) < 1]
    if text and offloaded and whole and re.search(r"要不要|需不需要|需要.{0,6}吗|有必要|(?<![a-z])(?:do (?:i|we) need|should (?:i|we)|"
                                                  r"is it worth|worth it)(?![a-z])", question.lower()):
        a_w, x_w = whole[0]
        a_o, x_o = offloaded[0]
        ratio = (x_w.figures.get("decode_tokens_per_s_per_seq") or 0) / max(x_o.figures.get("decode_tokens_per_s_per_seq") or 1, 0.01)
        text = (f"**不需要**：{a_w.text}，整个放得进显卡；只有想用更大的文件（{a_o.text}）才要卸载，代价是慢约 {ratio:,.0f} 倍。" if zh else
                f"**Not needed**: {a_w.text} fits the card whole; offloading is only for a larger file ({a_o.text}), at "
                f"~{ratio:,.0f}× slower. ") + text
    if text and offloaded:  # ('offload or 4-bit?'): the offloaded one runs, with part of the model read from CPU RAM
        text += "".join((f" {a.text}：{x.figures['offload_ram_gb']:,.1f} GB 在 CPU 内存，每个 token 都要从内存读，所以慢。" if zh else
                         f" {a.text}: {x.figures['offload_ram_gb']:,.1f} GB sits in CPU RAM and is read for every token, "
                         "hence the slowdown.") for a, x in offloaded)
        from assistant.terms import format_quality

        fmts = [str((a.update or {}).get("precision")) for a in asks if (a.update or {}).get("precision")]
        q = format_quality(fmts, zh) if fmts else None
        if q and q not in text:
            text += " " + q
    if text and unfit and not re.search(r"does not fit|放不下|holds none", text):
        ram = {id(a) for a, x in zip(asks, answers) if x.figures.get("offload_decode_tokens_per_s")}
        text = (("；".join(f"{a.text} 放不下" + ("显卡（只能把一部分放进内存跑）" if id(a) in ram else "") for a in unfit) + "。")
                if zh else ("; ".join(f"{a.text} does not fit" + (" the GPUs (it runs only with part of it in CPU RAM)"
                                                                   if id(a) in ram else "") for a in unfit) + ". ")) + text
    return text


def _room_at_long_context(asks: list[Ask], answers: list[Answer], zh: bool) -> str:
    """Set-ups compared on speed for long requests ('对外 API，长上下文请求比较多'): how many such requests each holds at
    once (its KV cache room), which a long-context service turns on as much as on speed."""
    rows = [(a, x.figures.get("max_batch_that_fits"), (x.request or {}).get("context")) for a, x in zip(asks, answers)
            if a.compare == "gpu" and x.intent == "inference_speed"]
    if len(rows) < 2 or any(not n or not c or c < 16_384 for _, n, c in rows):
        return ""
    c = rows[0][2]
    listed = ("；" if zh else "; ").join(f"{a.text} {n:,}" for a, n, _ in rows)
    return (f" 按 {c:,} token 的长请求，显存能同时放下：{listed} 条。" if zh else
            f" At {c:,}-token requests, each holds at once: {listed} (KV cache room: what long-context traffic turns on).")


# 'LoRA or QLoRA / full or LoRA, which one?': a tie on time between methods is decided by what else they cost
# (the first pair that the compared methods hold decides)
def _lora_when_full_does_not_fit(zh: bool) -> str:
    """LoRA picked because full fine-tuning does not fit the user's cards: what full would have bought in quality, and
    the routes that squeeze it in (an 8-bit optimizer, optimizer offload) at their cost."""
    why_zh, why_en = _METHOD_TIE_BREAK[frozenset({"full", "lora"})]
    return (f" 质量上：LoRA {why_zh}全参在这些卡上只有靠 8 位优化器或把优化器卸载到 CPU 才跑得动（很紧或每步慢好几倍），为了约 1 个点"
            "通常不值得；先用 LoRA（所有线性层、rank 16-64）训，在自己的验证集上评估，不够再考虑全参（Biderman 等 2024）。" if zh else
            f" On quality: LoRA has {why_en} Full fine-tuning on these GPUs runs only with an 8-bit optimizer or the "
            "optimizer offloaded to the CPU (tight, or several times slower per step), rarely worth about a point; train "
            "LoRA on all linear layers (rank 16-64), evaluate on a held-out slice of your own data, and go full only if it "
            "falls short (Biderman et al. 2024).")


_METHOD_TIE_BREAK = {
    frozenset({"lora", "qlora"}): (
        "16 位底座没有量化损失，显存放得下就用它；只有显存不够时才用 QLoRA（4 位底座，省显存，质量略低、每步多一次反量化）。",
        "the 16-bit base has no quantization loss, so use it where it fits; QLoRA (a 4-bit base) is for when memory "
        "forces it, at a small quality cost and a dequantization per step."),
    frozenset({"full", "lora"}): (
        "显存少得多、卡可以少、检查点只有几百 MB，效果在大多数指令/领域微调上接近全参；只有数据量很大、要大幅改变模型能力时才值得全参。",
        "far less memory (fewer GPUs), checkpoints of a few hundred MB, and close to full fine-tuning on most "
        "instruction and domain tuning; full fine-tuning pays off only with a large dataset meant to change what the "
        "model can do."),
}


def _card(gid: str | None):
    """The GPU record of an id an answer's request carries, or None (no id, or one the table lacks)."""
    from knowledge.catalog import default_catalog

    if not gid:
        return None
    try:
        return default_catalog().gpu(gid)[0]
    except (LookupError, ValueError):
        return None


def _formats_a_mac_cannot_load(done: list[tuple[Ask, Answer]], zh: bool):
    """(the note, the options a Mac runs) when formats are compared on Apple silicon and some of them are CUDA
    engines' checkpoints (AWQ, GPTQ, FP8, NF4); None otherwise."""
    from tools.formats import runs_on_apple

    card = _card(next(((x.request or {}).get("gpu") for _, x in done if (x.request or {}).get("gpu")), None))
    if card is None or card.vendor != "Apple":
        return None
    fmt = lambda a: str((a.update or {}).get("precision") or "")
    out = [a.text for a, _ in done if fmt(a) and not runs_on_apple(fmt(a))]
    if not out:
        return None
    keep = [(a, x) for a, x in done if not fmt(a) or runs_on_apple(fmt(a))]
    note = (f"{'、'.join(out)} 是 CUDA 引擎（vLLM、SGLang、transformers）的格式，Mac 上的 llama.cpp / MLX 加载不了；Mac 上用 GGUF "
            "（llama.cpp、Ollama、LM Studio）或 MLX 自己的 4/8 位版本，它们的速度与同位数的 GGUF 相近。" if zh else
            f"{', '.join(out)} {'is a' if len(out) == 1 else 'are'} CUDA engines' format{'s' if len(out) > 1 else ''} (vLLM, "
            "SGLang, transformers): llama.cpp and MLX on a Mac cannot load them; on a Mac run GGUF (llama.cpp, Ollama, LM "
            "Studio) or MLX's own 4/8-bit conversion, about as fast as a GGUF of the same bits.")
    return note, keep


def _each_task(done: list[tuple[Ask, Answer]], zh: bool) -> str | None:
    """'serve it in bf16 vs a full fine-tune: how many H100s for each?': two jobs, not alternatives: each one's GPUs
    and memory per GPU side by side, no pick."""
    rows = []
    for a, x in done:
        v = x.verdict
        card = _card(v.gpu if v else None)
        if card is None:
            continue
        n = v.num_gpus if v.fits else (v.min_gpus or v.num_gpus)
        name = card.name.replace("NVIDIA ", "")
        gb = f"{v.per_gpu_gb:,.1f} GB" if v.per_gpu_gb and v.fits else ""
        if not n:
            continue
        rows.append(f"{a.text}：{'至少 ' if not v.fits else ''}{n} 张 {name}" + (f"（每卡 {gb}）" if gb else "") if zh else
                    f"{a.text}: {'at least ' if not v.fits else ''}{n}× {name}" + (f" ({gb} per GPU)" if gb else ""))
    if len(rows) < 2:
        return None
    return ("两件事各自要：" + "；".join(rows) + "（两个任务，各算各的；细节见下）。") if zh else \
        ("Each job on its own: " + "; ".join(rows) + " (two jobs, not alternatives; details below).")


def _compare(asks: list[Ask], answers: list[Answer], zh: bool, question: str = "", prices=(),
             calls: list | None = None) -> str | None:
    done = [(a, x) for a, x in zip(asks, answers) if x.status == "answered" and a.compare]
    if len(done) < 2:
        return None
    asks = [a for a, _ in done]
    if asks[0].compare == "num_gpus" and all("cpu_moe_layers" in x.figures for _, x in done):
        # 'CPU offload on one 5090, or buy a second?': the experts each set-up keeps in RAM, and its speed
        rows = [(a, x.figures) for a, x in done]
        listed = ("；" if zh else "; ").join(
            (f"{a.text}：{f['cpu_moe_layers']} 层的专家放内存（{f['offload_ram_gb']:,.0f} GB），约 {f['offload_decode_tokens_per_s']:,.0f} token/秒"
             if zh else f"{a.text}: the experts of {f['cpu_moe_layers']} layers in RAM ({f['offload_ram_gb']:,.0f} GB), "
             f"~{f['offload_decode_tokens_per_s']:,.0f} tokens/s") for a, f in rows)
        (a0, f0), (a1, f1) = rows[0], rows[-1]
        gain = f1["offload_decode_tokens_per_s"] / f0["offload_decode_tokens_per_s"] if f0["offload_decode_tokens_per_s"] else 0
        need = f0["cpu_moe_layers"] > 0
        return (f"{listed}。" + (f"**{a0.text} 需要把部分专家卸载到内存**（能跑，单用户约 {f0['offload_decode_tokens_per_s']:,.0f} token/秒）；"
                                 f"**加一张卡快约 {gain:.1f} 倍**，且几乎不再依赖内存带宽。" if need else f"{a0.text} 不需要卸载。")
                if zh else f"{listed}. " + (
                    f"**On {a0.text} the offload is needed** (it runs, ~{f0['offload_decode_tokens_per_s']:,.0f} tokens/s "
                    f"for one user); **the second card makes it ~{gain:.1f}× faster** and all but frees it from the "
                    "RAM's bandwidth." if need else f"{a0.text} needs no offload."))
    if asks[0].compare == "gpu":
        return _compare_cards(done, zh, question, prices, calls)
    if asks[0].compare == "layout":
        return _compare_layouts(done, zh)
    if asks[0].compare == "task":
        return _each_task(done, zh)
    if asks[0].compare == "precision":
        mac = _formats_a_mac_cannot_load(done, zh)
        if mac:  # 'M2 Ultra: Q4_K_M, AWQ or FP8?': AWQ and FP8 are CUDA formats; the pick is among what a Mac loads
            note, done = mac
            rest = _compare([a for a, _ in done], [x for _, x in done], zh, question, prices, calls) if len(done) >= 2 \
                else ((f"**选 {done[0][0].text}**。" if zh else f"**Pick {done[0][0].text}**.") if done else "")
            return note + (" " if not zh else "") + (rest or "")
    intent = done[0][1].intent
    if intent == "inference_memory" and re.search(r"上下文|多长|context|longer|long\b", question.lower()) and \
            all(x.figures.get("max_context") for _, x in done) and ((done[0][1].request or {}).get("batch") or 1) <= 1 \
            and asks[0].compare != "context":  # (contexts compared: whether each fits, below)
        # 'how much more context does FP8 KV give?': the longest context of each, and the gain
        rows = [(a, int(x.figures["max_context"])) for a, x in done]
        listed = "; ".join(f"{a.text}: {c:,} tokens" for a, c in rows)
        (a0, c0), (a1, c1) = rows[0], rows[-1]
        gain = (f"{a1.text} 可以多放 {c1 - c0:,} 个 token（{c1 / c0:.2f} 倍）" if zh else
                f"{a1.text} holds {c1 - c0:,} more tokens ({c1 / c0:.2f}×)") if c1 >= c0 else \
            (f"{a0.text} 可以多放 {c0 - c1:,} 个 token（{c0 / c1:.2f} 倍）" if zh else
             f"{a0.text} holds {c0 - c1:,} more tokens ({c0 / c1:.2f}×)")
        return (("最长上下文（单条）：" if zh else "Longest context, one sequence: ") + listed
                + ("。" if zh else ". ") + gain + ("。" if zh else "."))
    if intent in ("training_memory", "inference_memory"):
        text = _compare_memory(done, zh, question)
        per_token = _per_token_on_same_cards(done, zh, question, prices) if intent == "inference_memory" else None
        speeds = _speeds_listed(done, zh, question) if intent == "inference_memory" and not per_token else None
        for extra in (per_token, speeds):
            if extra:
                text = text + (" " if text and not zh else "") + extra
        return text
    if intent == "cost" and asks[0].compare == "model" and all("cost_per_million_tokens" in x.figures for _, x in done):
        # 'A vs B vs C on our 8xH100 box: which is cheapest per token?': each model's cost per token on the same cards
        return _rank_per_token(done, zh, question)
    if asks[0].compare == "rental":
        return _rental_terms_compared(done, zh)
    if asks[0].compare == "job":
        return _one_machine_for_both(done, zh)
    key = _KEY.get(intent)
    if key is None:
        return None
    asked_n = {(x.request or {}).get("num_gpus") if "num_gpus" in ((x.request or {}).get("stated") or []) else None
               for _, x in done}
    if intent == "serving" and len(asked_n) == 1 and None not in asked_n and \
            all("max_concurrent_sequences" in x.figures for _, x in done):
        # 'FP8 or BF16 on 2x H100 for 16 users?': on the GPUs the user has, the one that holds more of the load wins
        n = asked_n.pop()
        key = ("max_concurrent_sequences", "higher", f"sequences at once on your {n} GPUs", f"路同时在线（你的 {n} 张卡）")
    elif intent == "serving" and len({x.figures.get("serve_total_gpus") for _, x in done}) == 1 and \
            all("serve_cost_per_million_output_usd" in x.figures for _, x in done):
        key = ("serve_tokens_per_s_per_gpu", "higher", "output tokens/s per GPU (same GPU count, same load)",
               "每卡输出 token/秒（卡数、负载相同）")  # a tie on GPUs is decided by what the same GPUs deliver (the cost
        # per output token splits the hour between prefill and decode, which moves with the format: not comparable)
    if intent == "inference_speed" and re.search(r"吞吐|(?<![a-z])(?:throughput|aggregate|total tokens|tokens per gpu)(?![a-z])",
                                                 question.lower()) and \
            all(x.figures.get("batched_tokens_per_s_total") for _, x in done):
        # ('… we care about throughput'): the whole batch's tokens/s at full load, not one stream's
        key = ("batched_tokens_per_s_total", "higher", "tokens/s in total at full load", "token/秒（满载合计）")
    name, better, en, cn = key
    unfit = [a for a, x in done if intent in ("inference_speed", "training_time") and x.figures.get("fits") == 0
             and not x.figures.get("offload_decode_tokens_per_s")]  # (layers in CPU RAM: it runs, slower)
    vals = [(a, x.figures.get(name)) for a, x in done if isinstance(x.figures.get(name), (int, float)) and a not in unfit]
    if unfit:
        note = ("；".join(f"{a.text} 放不下" for a in unfit) + "。") if zh else ("; ".join(f"{a.text} does not fit" for a in unfit) + ". ")
        if len(vals) < 2:
            text = note + ("; ".join(f"{a.text}: {v:,.4g} {cn if zh else en}" for a, v in vals) if vals else "")
            if len(vals) == 1 and asks[0].compare in ("method", "precision", "zero", "offload", "gpu"):
                # 'full or LoRA: which runs? which do you recommend?': the one that fits is the pick, said
                only = vals[0][0].text
                text += (f"。**推荐 {only}**：在你的卡上只有它放得下。" if zh else
                         f". **Pick {only}**: it is the one that fits on your GPUs.")
                methods = {str((a.update or {}).get("method")) for a in asks} if asks[0].compare == "method" else set()
                if {"full", "lora"} <= methods and only == "lora":  # what full would have bought
                    text += _lora_when_full_does_not_fit(zh)
            return text
    if len(vals) < 2:
        return None
    if asks[0].compare in VALUE_GROUPS:  # several values of one input: the figures side by side, no winner
        if intent == "inference_speed" and asks[0].compare == "num_gpus":
            target = (done[0][1].request or {}).get("ttft_s")
            mark = (lambda x: "" if not target else (("（达到首 token 目标）" if zh else " (meets the TTFT target)")
                                                    if x.figures.get("ttft_s", 1e9) <= target else
                                                    ("（达不到首 token 目标）" if zh else " (misses the TTFT target)")))
            return "; ".join(
                f"{a.text}: " + (f"首 token {x.figures.get('ttft_s'):.3g} 秒，每序列 {x.figures.get('decode_tokens_per_s_per_seq'):,.4g} token/秒"
                                 if zh else f"TTFT {x.figures.get('ttft_s'):.3g} s, {x.figures.get('decode_tokens_per_s_per_seq'):,.4g} "
                                 "tokens/s per sequence") + mark(x) for a, x in done)
        if intent == "inference_speed":
            return "; ".join(
                f"{a.text}: " + (f"每序列 {x.figures.get('decode_tokens_per_s_per_seq'):,.4g} token/秒，合计 "
                                 f"{x.figures.get('decode_tokens_per_s_total'):,.4g} token/秒，首 token {x.figures.get('ttft_s'):.3g} 秒"
                                 if zh else
                                 f"{x.figures.get('decode_tokens_per_s_per_seq'):,.4g} tokens/s per sequence, "
                                 f"{x.figures.get('decode_tokens_per_s_total'):,.4g} tokens/s in total, TTFT "
                                 f"{x.figures.get('ttft_s'):.3g} s") for a, x in done)
        if intent == "serving":
            def plan_part(x) -> str:  # (no plan: the weights alone do not fit, said rather than 'None GPUs')
                n = x.figures.get("serve_total_gpus")
                if n:
                    return f"；按延迟目标需要 {n} 张" if zh else f"; the latency plan needs {n} GPUs"
                if x.figures.get("max_concurrent_sequences"):
                    return ""  # (no load asked, no plan: what memory holds is the answer)
                return "；权重本身就放不下" if zh else "; the weights alone do not fit"
            listed = "; ".join(
                f"{a.text}: " + (f"显存最多容纳 {x.figures.get('max_concurrent_sequences')} 路" if zh else
                                 f"memory holds up to {x.figures.get('max_concurrent_sequences')} sequences") + plan_part(x)
                for a, x in done)
            held = [(a, x.figures.get("max_concurrent_sequences") or 0) for a, x in done]
            best = max(held, key=lambda av: av[1])
            if asks[0].compare in ("context", "concurrent_users", "batch"):
                return listed + ("。" if zh else ".")  # several loads or lengths of one job: each figure, nothing to pick
            if best[1] > 0 and sum(1 for _, v in held if v == best[1]) == 1:  # the one that holds the most at once
                fmt = (done[0][1].request or {}).get("precision")
                why = (f"（{fmt}；官方格式都放不下）" if zh else f" ({fmt}: neither fits in its published format)") \
                    if fmt and "precision" not in ((done[0][1].request or {}).get("stated") or []) else ""
                listed += (f"。**选 {best[0].text}**{why}：同样的卡上同时容纳的请求最多。" if zh else
                           f". **Pick {best[0].text}**{why}: it holds the most requests at once on the same GPUs.")
            return listed
        if intent == "training_time" and asks[0].compare == "num_gpus" and len(vals) == 2:
            return _count_speedup(done, vals, zh)
        return "; ".join(f"{a.text}: {v:,.4g} {cn if zh else en}" for a, v in vals)
    priced = _priced_throughput(done, vals, zh) if intent == "inference_speed" and "tokens_per_s" in name else None
    if priced:  # each option at the user's own price: the throughput per unit of money decides
        return listed + priced
    pick = min if better == "lower" else max
    win = pick(vals, key=lambda av: av[1])
    rest = [av for av in vals if av[0] is not win[0]]
    other = pick(rest, key=lambda av: av[1])
    ratio = (other[1] / win[1]) if better == "lower" and win[1] else (win[1] / other[1]) if other[1] else None
    gpus = {id(a): (x.request or {}).get("num_gpus") or 1 for a, x in done}  # no count stated: one GPU, as sized
    listed = "; ".join(f"{a.text}: {v:,.4g} {cn if zh else en}"
                       + (f"（{gpus[id(a)]} 张卡）" if zh else f" on {gpus[id(a)]} GPU" + ("s" if gpus[id(a)] > 1 else ""))
                       if intent == "inference_speed" and gpus[id(a)] else f"{a.text}: {v:,.4g} {cn if zh else en}"
                       for a, v in vals)
    if intent == "inference_speed" and len({gpus[id(a)] for a, _ in vals}) > 1:
        fewest = min(vals, key=lambda av: gpus[id(av[0])] or 1)
        most = max(vals, key=lambda av: gpus[id(av[0])] or 1)
        listed += (f"；{fewest[0].text} 少用 {gpus[id(most[0])] - gpus[id(fewest[0])]} 张卡" if zh else
                   f"; {fewest[0].text} needs {gpus[id(most[0])] - gpus[id(fewest[0])]} fewer GPU(s)")
    if ratio is None and better == "higher" and win[1] > 0 and not other[1]:  # 1 against 0: no tie
        return (f"{listed}。**只有 {win[0].text} 能跑**（{other[0].text} 一条也放不下）。" if zh else
                f"{listed}. **Only {win[0].text} runs it** ({other[0].text} holds none).")
    worst = (max if better == "lower" else min)(vals, key=lambda av: av[1])
    spread = ((worst[1] / win[1]) if better == "lower" and win[1] else (win[1] / worst[1]) if worst[1] else None)
    if ratio is None or (abs(ratio - 1) < 0.03 and (spread is None or abs(spread - 1) < 0.03)):
        # (a tie only when every option is within 3%: 'FP8 39.8, AWQ 52.7, Q4_K_M 51.2' is no tie of three)
        broken = _tie_broken_by_speed(done, listed, zh) if intent == "serving" else None
        methods = [str((a.update or {}).get("method") or "") for a, _ in vals]
        mega = next((a for a, _ in vals if a.text.startswith("Megatron")), None)
        if not broken and asks[0].compare == "zero" and mega is not None and intent == "training_time":
            # 'Megatron TP+PP or FSDP/ZeRO-3?': the same on this model of time; what decides is the stack and scale
            return (f"{listed}。按这里的时间模型两者相当（差别不到 3%）：**能跑 Megatron 就选 {mega.text}**——张量并行留在机内 "
                    "NVLink、流水并行跨机只传激活，跨机流量小，公开的 70B 以上训练在这种布局下 MFU 常见 40-50%；FSDP/ZeRO-3 每步都要跨机 "
                    "all-gather 全部权重，机间网络慢时更吃亏，但它在 HF/PyTorch 上配置简单；团队在 HF 生态里就用 FSDP（HSDP：机内分片、"
                    "机间复制，省跨机流量）。" if zh else
                    f"{listed}. The same on this time model (within 3%): **pick {mega.text} if the team can run Megatron**: "
                    "tensor parallelism stays on the server's NVLink and pipeline stages pass only activations between "
                    "servers, and published 70B+ runs in this layout reach 40-50% MFU; FSDP/ZeRO-3 all-gathers every "
                    "weight across servers each step (it suffers most on a slow network) but is simple on HF/PyTorch; "
                    "on that stack use FSDP as HSDP (shard inside a server, replicate across).")
        for pair, (why_zh, why_en) in _METHOD_TIE_BREAK.items():
            if not broken and asks[0].compare == "method" and pair <= set(methods):
                return (f"{listed}。时间相当（差别不到 3%）：**选 LoRA**——{why_zh}" if zh else
                        f"{listed}. A tie on time (within 3%): **pick LoRA**: {why_en}")
        tie = broken or (f"{listed}。两者相当（差别不到 3%）。" if zh else f"{listed}. A tie (within 3%).")
        if asks[0].compare != "precision" or name != "max_concurrent_sequences":
            return tie
        return _format_for_the_users(done, vals, listed, zh) or tie
    word = {"wall_hours": ("faster", "更快"), "decode_tokens_per_s_per_seq": ("faster", "更快"),
            "serve_total_gpus": ("fewer GPUs", "卡更少"), "rent_cost": ("cheaper", "更便宜"),
            "max_concurrent_sequences": ("more sequences at once", "同时容纳更多"),
            "serve_cost_per_million_output_usd": ("cheaper per token", "每 token 更便宜"),
            "serve_tokens_per_s_per_gpu": ("more output per GPU", "每卡产出更多"),
            "batched_tokens_per_s_total": ("more throughput at full load", "满载吞吐更高")}[name]
    text = (f"{listed}。**{win[0].text} 胜出**：{word[1]}，是 {other[0].text} 的 {ratio:.2f} 倍。" if zh else
            f"{listed}. **{win[0].text} wins**: {word[0]} by {ratio:.2f}× over {other[0].text}.")
    methods_compared = {str((a.update or {}).get("method")) for a in asks} if asks[0].compare == "method" else set()
    if {"full", "lora"} <= methods_compared:
        # 'LoRA or full fine-tune? the goal is our report format and jargon': speed is not what decides it
        why_zh, why_en = _METHOD_TIE_BREAK[frozenset({"full", "lora"})]
        first_req = done[0][1].request or {}
        cpt = (first_req.get("tokens") or 0) * (first_req.get("epochs") or 1) >= 1e9 or re.search(
            r"继续预训练|增量预训练|领域适配|注入知识|" + w(r"continued pre[\s-]?train\w*|continual pre[\s-]?train\w*|domain[\s-]"
                                              r"adapt\w*|cpt|new knowledge"), question.lower())
        fits_full = next((x.verdict.fits for a, x in done if (a.update or {}).get("method") == "full" and x.verdict), None)
        if cpt and fits_full is not False:
            text = re.sub(r"\*\*([^*]+?) wins\*\*: faster", r"\1 is faster", text)
            text = re.sub(r"\*\*([^*]+?) 胜出\*\*：", r"\1 更快：", text)
            # ('domain-adapt Qwen2.5-32B on ~2B tokens … basically continued pretraining'): teaching new knowledge from
            # billions of tokens is what full training does and low-rank adapters do less well
            text += (" 但这是继续预训练/领域适配（数十亿 token 的新知识）：LoRA 学新知识明显不如全参（低秩更新容量有限，学得少也忘得少），"
                     "**这种情况选全参**，时间只多约一半；先在一小段数据上比较两者的领域困惑度再定（Biderman 等 2024，“LoRA Learns Less and Forgets Less”）。" if zh else
                     " But this is continued pre-training / domain adaptation (billions of tokens of new knowledge): LoRA "
                     "learns new knowledge markedly less well than full training (its low-rank update has limited capacity: "
                     "it learns less and forgets less), so **full fine-tuning is the pick here**, at about 1.5× the time; "
                     "compare both on a slice first by held-out domain perplexity (Biderman et al. 2024, 'LoRA Learns Less and "
                     "Forgets Less').")
        else:
            text += (f" 速度之外：LoRA {why_zh}先用 LoRA 在一小份留出数据上评测，效果不够再考虑全参。" if zh else
                     f" Beyond speed: LoRA takes {why_en} Start with LoRA, evaluate on a held-out slice of your own data, and go "
                     "full only if it falls short.")
    users = max(((x.request or {}).get("concurrent_users") or (x.request or {}).get("batch") or 0) for _, x in done)
    gguf = [a for a, _ in done if str((a.update or {}).get("precision") or "").startswith(("q", "iq"))]
    gguf_note = ""
    if asks[0].compare == "precision" and gguf and users >= 4:
        # 'GGUF Q4_K_M vs AWQ vs FP8 for ~20 users': a GGUF file is llama.cpp's, whose server batches little
        gguf_note = (f"注意：{gguf[0].text} 是 llama.cpp 的 GGUF 格式，它的服务端批处理远不如 vLLM/SGLang（上面的路数只按显存算）；"
                 f"{users} 人同时用，选 AWQ/GPTQ 在 vLLM 或 SGLang 上跑。" if zh else
                 f" Note: {gguf[0].text} is llama.cpp's GGUF format, whose server batches far less than vLLM or SGLang (the "
                 f"sequences above count memory only); for {users} users at once, serve AWQ or GPTQ on vLLM/SGLang.")
        text += gguf_note
    if asks[0].compare == "precision" and re.search(r"质量|精度损失|效果|掉点|准确|" + w(
            r"quality|accuracy|tank\w*|degrad\w*|lossless|faithful"), question.lower()):
        # 'care about throughput and not tanking quality': an 8-bit format (FP8 or INT8 lose well under 1% on
        # benchmarks) within 1.5x of the fastest is the pick; 4-bit only when it is much faster
        bits = {"fp8": 8, "int8": 8, "bf16": 16, "fp16": 16}
        faithful = [av for av in vals if bits.get(str((av[0].update or {}).get("precision")), 4) >= 8 and av[1] and (
            (win[1] / av[1]) if better == "higher" else (av[1] / win[1])) <= 1.5]
        if faithful and bits.get(str((win[0].update or {}).get("precision")), 4) < 8:
            keep = max(faithful, key=lambda av: av[1]) if better == "higher" else min(faithful, key=lambda av: av[1])
            gap = (win[1] / keep[1]) if better == "higher" else (keep[1] / win[1])
            text = (f"{listed}。**选 {keep[0].text}**：你在意质量，8 位格式（FP8/INT8）在基准上的损失远小于 1%，而 "
                    f"{win[0].text} 只快 {gap:.2f} 倍（4 位量化在长推理、代码、数学上更容易掉点）。" if zh else
                    f"{listed}. **Pick {keep[0].text}**: you care about quality; 8-bit formats (FP8/INT8) lose well under 1% "
                    f"on benchmarks, and {win[0].text} is only {gap:.2f}× faster (4-bit quantization costs more on long "
                    "reasoning, code and maths).") + gguf_note
    if asks[0].compare == "precision":
        # a format switch is decided on the user's own data as much as on the speed; and a card without FP8 tensor
        # cores runs FP8 weight-only, where INT8 (W8A8) uses the tensor cores it has
        precs = {str((a.update or {}).get("precision") or "") for a in asks}
        text += (" 换格式前，用你自己的几百条真实请求分别跑两种格式对比一下再定（公开评测是多任务平均）。" if zh else
                 " Before switching, run a few hundred of your own real prompts through both and compare (published "
                 "evaluations average over many tasks).")
        gid = (done[0][1].request or {}).get("gpu")
        if "fp8" in precs and gid:
            from tools.formats import supported_on

            card = _card(gid)
            if card is not None and not supported_on("fp8", card)[0] and card.int8_dense_tops:
                text += (f" {card.name} 没有 FP8 张量核心：FP8 在它上面只是权重量化（省显存、解码快，预填充不快）；要用上它的 INT8 "
                         "张量核心，选 W8A8 INT8（SmoothQuant 类）；只为省显存可用 AWQ 4 位。" if zh else
                         f" {card.name} has no FP8 tensor cores: FP8 runs weight-only there (less memory and faster decode, "
                         "no faster prefill); W8A8 INT8 (SmoothQuant-style) uses its INT8 tensor cores, and AWQ 4-bit saves "
                         "the most memory.")
    first_req = done[0][1].request or {}
    if asks[0].compare == "precision" and name == "max_concurrent_sequences":
        text = _format_for_the_users(done, vals, listed, zh) or text
    if intent == "training_time" and asks[0].compare == "method":
        text = _methods_on_their_own_gpus(done, zh, text, question)
    if intent == "training_time" and first_req.get("period_hours") and "period_hours" in first_req.get("stated", []):
        text += " " + _measured_scaled(done, zh, question, first_req["period_hours"])
    return text


_BITS = {"fp8": 8, "int8": 8, "bf16": 16, "fp16": 16}  # formats at 8 bits or more; the rest are 4-bit class


def format_choice_line(formats: list[str], users: int, zh: bool) -> str | None:
    """'Q4_K_M or AWQ?' asked where the sizes cannot be given yet (no model size): the choice does not hinge on the
    size. A GGUF file (Q*_K_*, Q8_0) is llama.cpp/Ollama's; AWQ/GPTQ/FP8 are what vLLM/SGLang batch. Several users →
    the server format; one → GGUF is the simple route. None unless a GGUF and a server format are both named."""
    gguf = [f for f in formats if f.startswith(("q", "iq")) or f == "gguf"]
    server = [f for f in formats if f in ("awq", "gptq", "fp8", "int8", "int4")]
    if not gguf or not server:
        return None
    g, s_ = gguf[0].upper(), server[0].upper()
    if users >= 2:
        return (f"**{g} 还是 {s_}**：不取决于型号大小——{users} 人同时用，选 **{s_}** 在 vLLM/SGLang 上跑（连续批处理，多人并发吞吐高）；"
                f"{g} 是 llama.cpp/Ollama 的 GGUF 格式，适合单人、Mac 或 CPU 卸载，多用户并发时批处理效率远不如前者。两者都是 4 位左右，"
                "质量相近；8 位的 FP8（Hopper/Ada 及更新的卡）损失更小，显存够就优先。" if zh else
                f"**{g} or {s_}**: this does not hinge on the size. For {users} users at once, use **{s_}** on vLLM or SGLang "
                f"(continuous batching, high throughput across users); {g} is llama.cpp/Ollama's GGUF format, good for one "
                "user, a Mac or CPU offload, and its server batches concurrent users far less efficiently. Both are about 4 "
                "bits, with similar quality; 8-bit FP8 (Hopper, Ada and newer) loses less, and is preferable where memory allows.")
    return (f"**{g} 还是 {s_}**：一个人用时 {g} 配 llama.cpp/Ollama 最省事（不用调服务端，显存不够还能放到内存）；多人共用时选 {s_} 在 "
            "vLLM/SGLang 上跑。" if zh else
            f"**{g} or {s_}**: for one user, {g} on llama.cpp/Ollama is the simple route (no server to tune, spills to CPU "
            f"memory if needed); once several people share it, {s_} on vLLM/SGLang.")


def _format_for_the_users(done: list[tuple[Ask, Answer]], vals: list, listed: str, zh: bool) -> str | None:
    """'Q4_K_M vs AWQ vs FP8 on one card for ~10 users': holding more than the users is not the point. Of the formats
    that hold them all at once, a GPU-server format before a GGUF file (llama.cpp/Ollama batch concurrent users far
    less than vLLM/SGLang) when several users share it, then the most faithful, then the one that holds the most.
    None when no users were stated or none of the formats holds them."""
    users = (done[0][1].request or {}).get("concurrent_users") or 0
    if not users or len(vals) < 2:
        return None
    fmt = {id(a): str((a.update or {}).get("precision") or "") for a, _ in vals}
    is_gguf = lambda a: fmt[id(a)].startswith(("q", "iq"))
    hold = [av for av in vals if av[1] >= users]
    if not hold:
        return None
    from tools.formats import supported_on

    card = _card((done[0][1].request or {}).get("gpu"))
    native8 = bool(card and card.fp8_dense_tflops and supported_on("fp8", card)[0])
    # (8 bits either way: on a card with FP8 tensor cores FP8 computes natively, while INT8 W8A16 dequantises each
    # weight to 16-bit first, so FP8 is at least as fast for the same quality)
    keep = max(hold, key=lambda av: (users < 2 or not is_gguf(av[0]), _BITS.get(fmt[id(av[0])], 4),
                                     native8 and fmt[id(av[0])] == "fp8", av[1]))
    short = [f"{a.text} ({v})" if not zh else f"{a.text}（{v} 路）" for a, v in vals if v < users]
    gguf = [a.text for a, _ in vals if is_gguf(a)]
    if zh:
        return (f"{listed}。" + (f"{'、'.join(short)} 装不下你的 {users} 个用户；" if short else
                                  f"每种格式都能同时容纳你的 {users} 个用户，所以比的不是谁装得更多；")
                + f"**选 {keep[0].text}**" + (f"（{card.name} 原生支持 FP8 计算；INT8 权重要先反量化成 16 位）" if native8 and
                                              fmt[id(keep[0])] == "fp8" and any(f == "int8" for f in fmt.values()) else "")
                + "——装得下的格式里" + ("最适合多人并发、且" if users >= 2 and gguf else "")
                + "最接近原模型质量的（8 位的 FP8/INT8 在基准上损失远小于 1%，4 位更容易在代码、数学、长推理上掉点）"
                + (f"；{'、'.join(gguf)} 是 llama.cpp/Ollama 的 GGUF 格式，适合单人、Mac 或 CPU 卸载，多用户并发时批处理效率远不如 "
                   "vLLM/SGLang 上的 AWQ/GPTQ/FP8（上面的路数只按显存算）" if gguf and users >= 2 else "")
                + (f"；只有一个人用时，{keep[0].text} 配 llama.cpp/Ollama 最省事（不用调服务端，显存不够还能放到内存），多人共用时 "
                   "vLLM 上的 AWQ/GPTQ 才划算" if users < 2 and is_gguf(keep[0]) else "") + "。")
    return (f"{listed}. " + (f"{', '.join(short)} cannot hold your {users} users at once; " if short else
                             f"Every format holds your {users} users at once, so holding more is not the point; ")
            + f"**pick {keep[0].text}**" + (f" ({card.name} computes FP8 natively; INT8 weights are dequantised to "
                                            "16-bit first)" if native8 and fmt[id(keep[0])] == "fp8" and
                                            any(f == "int8" for f in fmt.values()) else "")
            + ": of the formats that hold them, the "
            + ("one a batching server runs and the " if users >= 2 and gguf else "")
            + "most faithful (8-bit FP8/INT8 lose well under 1% on benchmarks; 4-bit costs more on code, maths and long "
              "reasoning)"
            + (f". {', '.join(gguf)} is llama.cpp/Ollama's format (GGUF), good for one user, a Mac or CPU offload; its "
               "server batches far less than vLLM or SGLang running AWQ/GPTQ/FP8 (the sequences above count memory only)" if gguf and users >= 2 else "")
            + (f". For one user, {keep[0].text} on llama.cpp/Ollama is the simple route (no server to tune, spills to "
               "CPU memory if needed); AWQ/GPTQ on vLLM pays off once several people share the card"
               if users < 2 and is_gguf(keep[0]) else "") + ".")


def _claimed_factor(question: str) -> float | None:
    """A speed-up someone claimed in the message ('LoRA 快 10 倍', 'LoRA is 10x faster'), or None."""
    m = re.search(r"(\d+(?:\.\d+)?)\s*(?:倍|x|×)(?:\s*(?:faster|quicker|speed))?", question.lower())
    return float(m.group(1)) if m and re.search(r"快|faster|quicker|speed", question.lower()) else None


def _methods_on_their_own_gpus(done: list[tuple[Ask, Answer]], zh: bool, text: str, question: str = "") -> str:
    """'Full FT on 4x A100, LoRA on 1x A100 or QLoRA on one 4090: which?': options on different GPU counts are not
    decided by wall-clock alone. The GPU-hours and bill of each are said; when LoRA costs no more than full
    fine-tuning (the faster one only spreads the same work over more GPUs), LoRA is the pick, with the reason."""
    rows = [(a, (x.request or {}).get("method"), (x.request or {}).get("num_gpus") or 1, x.figures.get("gpu_hours"),
             x.figures.get("cost_usd")) for a, x in done]
    if len({n for _, _, n, _, _ in rows}) < 2 or any(g is None for _, _, _, g, _ in rows):
        return text
    listed = ("；" if zh else "; ").join(
        (f"{a.text}：{g:,.0f} 卡时" + (f"，约 ${c:,.0f}" if c else "")) if zh else
        (f"{a.text}: {g:,.0f} GPU-hours" + (f", about ${c:,.0f}" if c else "")) for a, _, _, g, c in rows)
    text += (f" 按卡时和费用：{listed}。" if zh else f" In GPU-hours and money: {listed}.")
    full = next((r for r in rows if r[1] == "full"), None)
    lora = next((r for r in rows if r[1] == "lora"), None)
    if full and lora and lora[3]:
        ratio = full[3] / lora[3]
        said = _claimed_factor(question)
        if said and said > 1.5 * ratio:  # ('有人说 LoRA 快 10 倍'): per GPU-hour it is the 6N against 4N of each token
            text += (f" 你听到的“快 {said:g} 倍”不成立：同样的卡和数据，LoRA 每 token 省掉的只是权重梯度（约 6N 对 4N），按卡时只快 "
                     f"{ratio:.1f} 倍；大的差别来自显存（LoRA 用的卡少）或比较时的数据量、epoch 不同。" if zh else
                     f" The {said:g}× you heard does not hold: on the same GPUs and data LoRA saves only the weight gradients "
                     f"(about 6N against 4N per token), {ratio:.1f}× in GPU-hours; bigger gaps come from memory (fewer GPUs "
                     "for LoRA) or from comparing different data sizes or epochs.")
    if full and lora and lora[3] <= 1.1 * full[3] and full[2] > lora[2]:
        why_zh, why_en = _METHOD_TIE_BREAK[frozenset({"full", "lora"})]
        text = re.sub(r"\*\*([^*]+?) wins\*\*:", r"\1 is the fastest:", text)  # (the pick is said once, below)
        text = re.sub(r"\*\*([^*]+?) 胜出\*\*：", r"\1 最快：", text)
        text += (f"全参只是把差不多的计算量摊到更多卡上（{full[2]} 张对 {lora[2]} 张），**选 {lora[0].text}**：{why_zh}" if zh else
                 f" Full fine-tuning only spreads about the same work over more GPUs ({full[2]} against {lora[2]}): "
                 f"**pick {lora[0].text}**: {why_en}")
    return text


def _measured_on_cards(done: list[tuple[Ask, Answer]], zh: bool, req: dict) -> str:
    """The user's measured run (its hours, on the card and count named with it, over its own tokens) carried to each
    option: hours x (the job's tokens / the run's tokens) x (the option's estimated hours / the run card's), both
    estimates for the job's tokens."""
    hours, tokens, old = req["period_hours"], req.get("tokens"), req.get("measured_tokens")
    if tokens and req.get("epochs"):
        tokens = tokens * req["epochs"]  # ('数据 5 亿 token，训 3 个 epoch': the job's tokens are the data × the epochs)
    base = next((i for i, (a, _) in enumerate(done) if (a.update or {}).get("gpu") == req.get("gpu")), 0)
    scale = (tokens / old) if (tokens and old) else 1.0
    walls = [x.figures["wall_hours"] for _, x in done]
    rows = []
    for (a, _), wall in zip(done, walls):
        h = hours * scale * wall / walls[base]
        rows.append(f"{a.text} 约 **{h:,.1f} 小时**（{h / 24:,.1f} 天）" if zh else f"{a.text} ≈ **{h:,.1f} h** ({h / 24:,.1f} days)")
    b = done[base][0].text
    tok = ((f"，token 从 {old / 1e9:,.3g}B 到 {tokens / 1e9:,.3g}B（× {scale:.2f}）" if zh else
            f", tokens from {old / 1e9:,.3g}B to {tokens / 1e9:,.3g}B (× {scale:.2f})") if old and tokens else "")
    said = (f"{hours * 3600:,.1f} 秒" if hours < 0.1 else f"{hours:,.1f} 小时") if zh else \
        (f"{hours * 3600:,.1f} s" if hours < 0.1 else f"{hours:,.1f} h")  # (a measured step is seconds, not '0.0 h')
    what = ("一步" if zh else "step") if req.get("measured_step_s") else ""
    if zh:
        return (f"**按你实测的{what} {said}（{b}）折算**{tok}：" + "；".join(rows) +
                "（卡与卡数之间按上面估算的速度比；实测加速比通常在其 ±20% 以内）。")
    return (f"**按你实测的 {hours:,.1f} 小时（{b}）折算**{tok}：" + "；".join(rows) +
            "（卡与卡数之间按上面估算的速度比；实测加速比通常在其 ±20% 以内）。" if zh else
            f"**Scaled from your measured {what + ' of ' if what else ''}{said} ({b})**{tok}: " + "; ".join(rows) +
            " (between cards and counts by the speed ratio estimated above; measured speedups usually land within ±20% of it).")


def _measured_scaled(done: list[tuple[Ask, Answer]], zh: bool, question: str, hours: float) -> str:
    """'We train in BF16 for 20 days; in FP8?': the user's measured length, on the alternative named nearest before
    it, scaled by the estimated speed ratio of the same job."""
    low = question.lower()
    at = re.search(r"\d+(?:\.\d+)?\s*(?:天|小时|周|个?月|days?|hours?|h\b|weeks?)", low)
    pos = at.start() if at else len(low)
    near = [(low.rfind(a.text.lower(), 0, pos), i) for i, (a, _) in enumerate(done)]
    base = max(near)[1] if max(near)[0] >= 0 else 0
    walls = [x.figures["wall_hours"] for _, x in done]
    rows = []
    for i, ((a, _), wall) in enumerate(zip(done, walls)):
        h = hours * wall / walls[base]
        rows.append(f"{a.text} 约 {h:,.1f} 小时（{h / 24:,.1f} 天）" if zh else f"{a.text} ≈ {h:,.1f} h ({h / 24:,.1f} days)")
    b = done[base][0].text
    return (f"**按你实测的 {hours:,.0f} 小时（{hours / 24:,.1f} 天，{b}）折算**：" + "；".join(rows) +
            "（按上面估算的同一任务速度比；实测加速比通常在其 ±20% 以内）。" if zh else
            f"**Scaled from your measured {hours:,.0f} h ({hours / 24:,.1f} days, {b})**: " + "; ".join(rows) +
            " (by the speed ratio estimated above for the same job; measured speedups usually land within ±20% of it).")


# 'which takes less VRAM?', '哪个显存占用小': the alternatives ranked by memory alone
LESS_MEMORY_ASK = (r"哪个[^，。？?]{0,6}(?:显存|内存)?[^，。？?]{0,4}(?:占用|占|用)?[^，。？?]{0,2}(?:更)?(?:小|少|省)|更省显存|显存(?:占用)?(?:更)?(?:小|少)|"
                   r"(?<![a-z])(?:which (?:one )?(?:uses|takes|needs) less|less (?:vram|memory)|smaller footprint|"
                   r"which is smaller|least (?:vram|memory))(?![a-z])")


# Tokens a second below which a streamed chat answer comes slower than people read it (~250 words a minute of English
# at ~1.3 tokens a word is ~5.5 tokens/s; skimming runs about twice that): the floor a chat option is held to when the
# user states no speed.
READING_SPEED = 10


def _memory_listed(rows: list, zh: bool) -> str:
    """Each option's memory per GPU and whether it fits, with the GPU count where the options' counts differ ('A100
    40GB or the 80GB one?': one needs 2 cards, the other 1) and the count needed where it does not fit."""
    counted = len({v.num_gpus for _, v in rows}) > 1
    return "; ".join(f"{a.text}: " + ((f"{v.num_gpus} 张，" if zh else f"{v.num_gpus} GPU(s), ") if counted and v.num_gpus
                                      else "")
                     + f"{v.per_gpu_gb:.1f} GB/GPU, " + (("放得下" if v.fits else "放不下") if zh else
                                                       ("fits" if v.fits else "does not fit"))
                     + ("" if v.fits or not v.min_gpus else
                        (("（内存不够）" if zh else " (host RAM)") if v.num_gpus and v.min_gpus <= v.num_gpus else
                         (f"（至少 {v.min_gpus} 张）" if zh else f" (needs {v.min_gpus})")))
                     for a, v in rows)


def _fits_with_a_fix(done: list[tuple[Ask, Answer]], zh: bool) -> str:
    """'…with ZeRO-3 and QLoRA, 20.8 GB per GPU: fits': of set-ups that do not fit as configured, the ones a usual
    change (micro-batch 1, chunked loss, QLoRA, …) makes fit on the same GPUs, with that change and the memory."""
    from assistant.plans.train import FIXES

    out = []
    for a, x in done:
        fix = x.figures.get("fix_fits")
        gb = x.figures.get(f"fix_{fix}_per_gpu_gb") if fix else None
        if fix in FIXES and gb:
            en, cn = FIXES[fix].said
            out.append(f"{a.text} + {cn}：每卡 {gb:.1f} GB，放得下" if zh else f"{a.text} + {en}: {gb:.1f} GB per GPU, fits")
    return ("；".join(out) + "。") if zh and out else ("; ".join(out) + ".") if out else ""


def _one_machine_for_both(done: list[tuple[Ask, Answer]], zh: bool) -> str | None:
    """A training job and a serving job on one purchase: for each card both jobs can use, the machine of the larger
    count (the jobs time-share it, or split its cards when both fit at once), and the cheapest such machine."""
    if len(done) != 2:
        return None
    (_, tx), (_, sx) = done
    keys = {k.split(":", 1)[1] for k in tx.figures if k.startswith("machine_total:")} & \
        {k.split(":", 1)[1] for k in sx.figures if k.startswith("machine_total:")}
    rows = []
    for g in keys:
        nt, ns = tx.figures[f"machine_gpus:{g}"], sx.figures[f"machine_gpus:{g}"]
        big = tx if nt >= ns else sx
        rows.append((big.figures[f"machine_total:{g}"], g, int(nt), int(ns)))
    from knowledge.catalog import default_catalog
    from tools.purchase import legacy

    cat = default_catalog()
    current = [r for r in rows if not legacy(cat.gpu(r[1])[0].architecture)]  # (pre-Ampere: the rankings' last resort)
    rows = current or rows
    if not rows:
        return ("没有一种卡同时出现在两个任务的方案里：分别买（见下）。" if zh else
                "No card appears in both jobs' options: buy for each (below).")
    total, g, nt, ns = min(rows)
    name = cat.gpu(g)[0].name
    cur = tx.figures.get("currency") or "USD"
    sym = "¥" if cur == "CNY" else "$"
    at_once = nt + ns <= 8 and nt + ns > max(nt, ns)
    how = (f"训练要 {nt} 张、部署要 {ns} 张：分时共用（部署常驻，训练在空闲时段跑）"
           + (f"；两件事同时跑要 {nt + ns} 张" if at_once else "") if zh else
           f"training needs {nt}, serving {ns}: they time-share it (serving always on, training in the quiet hours)"
           + (f"; both at once take {nt + ns}" if at_once else ""))
    return (f"**一台机器两件事都做：{max(nt, ns)} 张 {name}，整机约 {sym}{total:,.0f}**（两个任务都能用的卡里最省）：{how}；"
            "每个任务单独的最优方案见下。" if zh else
            f"**One machine for both: {max(nt, ns)}× {name}, about {sym}{total:,.0f}** (the cheapest card both jobs can use): "
            f"{how}; each job's own best is below.")


def _rental_terms_compared(done: list[tuple[Ask, Answer]], zh: bool) -> str | None:
    """'On demand $3.50 or a 1-yr commit at $2.30, or buy?': each way of renting's bill over the period (on demand the
    hours used, a commitment every hour), buying's bill beside them, and the cheapest of all, by how much."""
    rows = [(a.text, x.figures.get("rent_cost"), x.figures.get("currency") or "USD",
             bool((a.update or {}).get("rent_committed"))) for a, x in done if isinstance(x.figures.get("rent_cost"), (int, float))]
    own = next((x.figures.get("buy_cost") for _, x in done if isinstance(x.figures.get("buy_cost"), (int, float))), None)
    if len(rows) < 2:
        return None
    sym = "¥" if rows[0][2] == "CNY" else "$"
    options = rows + ([("买" if zh else "buy", own, rows[0][2], False)] if own else [])
    best = min(options, key=lambda r: r[1])
    second = min((r for r in options if r is not best), key=lambda r: r[1])
    listed = ("；" if zh else "; ").join(f"{t}: {sym}{v:,.0f}" for t, v, _, _ in options)
    note = ""
    committed = [r for r in rows if r[3]]
    if committed and committed[0][1] > min(r[1] for r in rows if not r[3]):
        note = ("包年/预留每小时都要付，在你的利用率下比按需还贵" if zh else
                "a commitment pays every hour, so at your utilization it costs more than on demand")
    return ((f"{listed}。**{best[0]} 最省**，比次优的 {second[0]} 少 {sym}{second[1] - best[1]:,.0f}"
             + (f"（{note}）" if note else "") + "。") if zh else
            (f"{listed}. **Cheapest: {best[0]}**, by {sym}{second[1] - best[1]:,.0f} over {second[0]}"
             + (f" ({note})" if note else "") + "."))


def _other_models_line(req: dict, zh: bool) -> str:
    """Cards compared for two models named together ('Qwen3-32B, Qwen3-30B-A3B … 4090, 5090 or 2x 3090?'): the options
    are sized on the first; what the other changes (its weights against the first's, and, for an MoE, the weight bytes
    each token reads), so it is not dropped without a word."""
    from knowledge.catalog import default_catalog
    from tools.params import count_parameters

    ids = list(dict.fromkeys(req.get("models") or []))
    if len(ids) < 2 or not req.get("model"):
        return ""
    cat = default_catalog()
    try:
        first, other = cat.model(req["model"])[0], cat.model(next(i for i in ids if i != req["model"]))[0]
    except (LookupError, ValueError, StopIteration):
        return ""
    p1, p2 = count_parameters(first), count_parameters(other)
    size = p2.total / p1.total
    speed = (p1.active or p1.total) / (p2.active or p2.total)
    line = (f" 以上按 {first.name} 计算；{other.name} 的权重约是它的 {size:.1f} 倍（显存按比例变）" if zh else
            f" Sized on {first.name}; {other.name} has {size:.1f}× its weights (memory scales with them)")
    if speed > 1.5:
        line += ("，" if zh else " and ") + _moe_reads_fewer(p2.active or p2.total, speed, zh)
    return line + ("。" if zh else ".")


def _moe_reads_fewer(active: float, ratio: float, zh: bool, against: str = "") -> str:
    """An MoE's decode advantage in one clause: the parameters it activates a token (`against`: the dense model's, in
    brackets) and the ~ratio fewer weight bytes each decoded token reads, so it runs several times faster on a card."""
    return (f"每个 token 只激活约 {active / 1e9:.1f}B 参数{against}，解码每 token 读的权重约少 {ratio:.0f} 倍：同一张卡上快好几倍"
            if zh else f"activates about {active / 1e9:.1f}B parameters a token{against}, so decoding reads ~{ratio:.0f}× "
            "fewer weight bytes a token: several times faster on the same card")


def _models_note(done: list[tuple[Ask, Answer]], zh: bool) -> str:
    """Models compared on one card: the format each was sized in when it is not the published one, and an MoE's
    decode advantage (weight bytes read per token go with the active parameters, not the total)."""
    from knowledge.catalog import default_catalog
    from tools.params import count_parameters

    cat = default_catalog()
    said, specs = [], []
    for a, x in done:
        req = x.request or {}
        try:
            spec = cat.model(req.get("model"))[0]
        except (LookupError, ValueError, TypeError):
            return ""
        specs.append((a, spec))
        best, asked = x.figures.get("best_precision"), x.figures.get("precision")
        if isinstance(best, str) and best != asked and x.figures.get(f"{best}_per_gpu_gb") and not req.get("num_gpus"):
            said.append((a.text, asked, x.figures.get("min_gpus"), best, x.figures[f"{best}_per_gpu_gb"]))
    out = ""
    if said:  # ('放在 A100 40G 上哪个能跑'): on one card, each in the format that fits there
        out += (" 单卡上：" + "；".join(f"{t} 的 {a} 要 {m} 张，{b} 单卡放得下（{g:.1f} GB）" for t, a, m, b, g in said) + "。"
                if zh else " On one card: " + "; ".join(f"{t} needs {m} in {a}, fits one in {b} ({g:.1f} GB)"
                                                        for t, a, m, b, g in said) + ".")
    moe = [(a, sp) for a, sp in specs if sp.moe is not None]
    dense = [(a, sp) for a, sp in specs if sp.moe is None]
    if moe and dense:
        am, sm = moe[0]
        ad, sd = dense[0]
        act, full = count_parameters(sm).active, count_parameters(sd).active
        if act and full > 2 * act:
            against = f"（{sd.name} 是 {full / 1e9:.0f}B）" if zh else f" ({sd.name}: {full / 1e9:.0f}B)"
            out += (f" {am.text} {_moe_reads_fewer(act, full / act, zh, against)}"
                    + ("；两者能力不同，按任务选。" if zh else "; they differ in ability, so the task decides."))
    return out


def _models_pick(done: list[tuple[Ask, Answer]], zh: bool, question: str) -> str:
    """Two models that both fit the user's GPUs ('gpt-oss-120b or Qwen3-235B-A22B on 4x H100? which, and the
    tradeoff? do we need CPU offload?'): the weight bytes each decoded token reads (active parameters × the format's
    bytes), so which is faster per token and by about how much; the larger one's capacity as the reason to pay that;
    'offload?' answered from the fit; the pick left to the user's own evaluation on the task."""
    from knowledge.catalog import default_catalog
    from tools.formats import FORMATS
    from tools.params import count_parameters

    cat = default_catalog()
    rows = []
    for a, x in done:
        v, req = x.verdict, x.request or {}
        fmt = x.figures.get("precision") or req.get("precision")
        if not req.get("model"):
            return ""
        try:
            spec = cat.model(req.get("model"))[0]
        except (LookupError, ValueError, TypeError, AttributeError):
            return ""
        if v is None or not v.fits or fmt not in FORMATS:
            return ""
        p = count_parameters(spec)
        rows.append((a, spec, fmt, (p.active or p.total) * FORMATS[fmt].bits / 8, p.total, v.per_gpu_gb))
    if len(rows) != 2:
        return ""
    fast, slow = sorted(rows, key=lambda r: r[3])
    ratio = slow[3] / fast[3]
    text = (f" 两个都放得下。每生成一个 token 读的权重：{fast[0].text} 约 {fast[3] / 1e9:,.1f} GB（{fast[2].upper()}），"
            f"{slow[0].text} 约 {slow[3] / 1e9:,.1f} GB（{slow[2].upper()}）：**{fast[0].text} 每路解码约快 {ratio:,.1f} 倍**，"
            f"每卡显存也更省（{fast[5]:.1f} 对 {slow[5]:.1f} GB），给长上下文和并发留的 KV 空间更多；{slow[0].text} 总参数更大"
            f"（{slow[4] / 1e9:,.0f}B 对 {fast[4] / 1e9:,.0f}B），能力上限可能更高。选哪个取决于你们任务上的效果：用几十个真实任务各跑一遍再定。"
            if zh else
            f" Both fit. Weights read per generated token: {fast[0].text} ~{fast[3] / 1e9:,.1f} GB ({fast[2].upper()}), "
            f"{slow[0].text} ~{slow[3] / 1e9:,.1f} GB ({slow[2].upper()}): **{fast[0].text} decodes about {ratio:,.1f}× "
            f"faster per stream** and uses less memory per GPU ({fast[5]:.1f} vs {slow[5]:.1f} GB), leaving more KV cache "
            f"for long contexts and concurrency; {slow[0].text} is the larger model ({slow[4] / 1e9:,.0f}B vs "
            f"{fast[4] / 1e9:,.0f}B total), which may buy quality. The task decides: run a few dozen of your real tasks "
            "through both before choosing.")
    if re.search(r"offload|卸载|放到?内存", question.lower()):
        text += (" **不需要 CPU offload**：两个模型按上面的格式都完全放在显卡上（卸载到内存会让每个 token 都经 PCIe，慢一个数量级）。"
                 if zh else " **No CPU offload needed**: both fit on the GPUs in the formats above (offloading would send "
                 "weights over PCIe for every token, an order of magnitude slower).")
    return text


def _compare_memory(done: list[tuple[Ask, Answer]], zh: bool, question: str = "") -> str:
    """Fits first, then the least memory per GPU; 'do we need X' is answered as needed / not needed; several values
    of one input are listed side by side; 'which takes less VRAM?' is answered by memory alone."""
    rows = []
    for a, x in done:
        v = x.verdict
        if v is None or v.per_gpu_gb is None:
            continue
        rows.append((a, v))
    if len(rows) < 2:
        return ""
    listed = _memory_listed(rows, zh)
    fitting = [(a, v) for a, v in rows if v.fits]
    if re.search(LESS_MEMORY_ASK, question.lower()) and done[0][0].compare not in VALUE_GROUPS:
        small = min(rows, key=lambda av: av[1].per_gpu_gb)
        big = max(rows, key=lambda av: av[1].per_gpu_gb)
        return (f"{listed}。**{small[0].text} 显存占用最小**：每卡 {small[1].per_gpu_gb:.1f} GB，比 {big[0].text} 少 "
                f"{big[1].per_gpu_gb - small[1].per_gpu_gb:.1f} GB。" if zh else
                f"{listed}. **{small[0].text} takes the least memory**: {small[1].per_gpu_gb:.1f} GB per GPU, "
                f"{big[1].per_gpu_gb - small[1].per_gpu_gb:.1f} GB less than {big[0].text}.")
    if done[0][0].compare == "model":
        return listed + ("。" if zh else ".") + _models_note(done, zh) + _models_pick(done, zh, question)
    if done[0][0].compare in VALUE_GROUPS:
        return listed + ("。" if zh else ".")
    first_a, first_v = rows[0]
    off_first = first_a.update and (list(first_a.update.values())[0] in ("none",) or first_a.update.get("zero") == 0)
    fixed = _fits_with_a_fix(done, zh) if not fitting else ""
    if off_first:  # 'do we need X?': the first row is without it
        if first_v.fits:
            verdict = (f"**不需要**：不用它也放得下（每卡 {first_v.per_gpu_gb:.1f} GB）。" if zh else
                       f"**Not needed**: it fits without it ({first_v.per_gpu_gb:.1f} GB per GPU).")
        elif fitting:
            verdict = (f"**需要**：不用它放不下，用了 {fitting[0][1].per_gpu_gb:.1f} GB/卡，放得下。" if zh else
                       f"**Needed**: without it the job does not fit; with it, {fitting[0][1].per_gpu_gb:.1f} GB per GPU fits.")
        elif fixed:
            verdict = (f"**需要**：不用它放不下，用了也要再加常规改法：{fixed}" if zh else
                       f"**Needed**: without it the job does not fit, and with it only after a usual change: {fixed}")
        else:
            verdict = ("两种都放不下。" if zh else "Neither fits.")
        return f"{listed}. {verdict}" if not zh else f"{listed}。{verdict}"
    if not fitting:
        best = min(rows, key=lambda av: av[1].per_gpu_gb)
        return (f"{listed}。都放不下；{best[0].text} 最省显存。" if zh else
                f"{listed}. None fits; {best[0].text} needs the least memory.") + ((" " if not zh else "") + fixed if fixed else "")
    best = min(fitting, key=lambda av: av[1].per_gpu_gb)
    worst = max(rows, key=lambda av: av[1].per_gpu_gb)
    ratio = worst[1].per_gpu_gb / best[1].per_gpu_gb if best[1].per_gpu_gb else 1
    prefer = PREFER.get(done[0][0].compare)
    if prefer and len(fitting) >= 2:
        compare = done[0][0].compare

        def rank(av):
            u = av[0].update
            if compare == "zero" and "offload" in u:  # strategies: no CPU offload first (each step's PCIe and CPU
                return (u.get("offload") not in (None, "none"), u.get("zero", 9))  # optimizer), then the lower stage
            if compare == "method" and any(x.update.get("offload") not in (None, "none") for x, _ in fitting):
                # ('16-bit LoRA with offload, or just QLoRA?'): what runs on the GPUs alone first; offloaded weights
                # stream over PCIe every pass, several times slower than QLoRA's dequantization
                m = u.get("method")
                return (u.get("offload") not in (None, "none"), prefer.index(m) if m in prefer else 99)
            v = u.get(compare, list(u.values())[0])
            if compare == "precision":  # the most faithful: the most bits per weight (the format table's)
                from tools.formats import FORMATS

                return -FORMATS[v].bits if v in FORMATS else 99
            return prefer.index(v) if v in prefer else 99
        cheapest = min(fitting, key=rank)
        why = ("it runs on the GPUs alone: the other fits only with the 16-bit weights in CPU RAM, streamed over PCIe on "
               "every pass (several times slower per step); QLoRA's 4-bit base scores within about a point of 16-bit LoRA "
               "(Dettmers et al. 2023)",
               "它只用显卡就放得下：另一种要把 16 位权重放到内存、每次前向反向都经 PCIe 搬运（每步慢好几倍）；QLoRA 的 4 位底座与 16 位 LoRA "
               "效果只差约 1 个点以内（Dettmers 等 2023）") if compare == "method" and any(
            a.update.get("offload") == "all" for a, _ in fitting) and cheapest[0].update.get("offload") in (None, "none") \
            else PREFER_WHY["offload" if compare in ("zero", "method") and any(
            a.update.get("offload") not in (None, "none") for a, _ in fitting) and cheapest[0].update.get("offload") in
            (None, "none") else compare]
        own = (" 换格式前，用你自己的几百条真实请求分别跑两种格式对比一下再定（公开评测是多任务平均）。" if zh else
               " Before switching, run a few hundred of your own real prompts through both and compare (published "
               "evaluations average over many tasks).") if compare == "precision" else ""
        return (f"{listed}。**{cheapest[0].text} 就够了**：放得下（每卡 {cheapest[1].per_gpu_gb:.1f} GB），而且{why[1]}。"
                if zh else f"{listed}. **{cheapest[0].text} is enough**: it fits ({cheapest[1].per_gpu_gb:.1f} GB per GPU) "
                f"and {why[0]}.") + own
    if len(fitting) == len(rows) and ratio < 1.03:
        return (f"{listed}。都放得下，显存相当（差别不到 3%）。" if zh else f"{listed}. All fit, with about the same memory (within 3%).")
    if len(fitting) == len(rows):
        return (f"{listed}。都放得下；{best[0].text} 每卡显存最少（{worst[0].text} 是它的 {ratio:.2f} 倍）。" if zh else
                f"{listed}. All fit; {best[0].text} uses the least memory per GPU ({worst[0].text} uses {ratio:.2f}×).")
    tradeoff = _precision_tradeoff(done, rows, zh) if done[0][0].compare == "precision" and len(fitting) < len(rows) else None
    if tradeoff:  # 'FP8 or stay BF16?' on 'H100s': each format at its own count, speed and quality, not 'only FP8 fits'
        return f"{listed}{'。' if zh else '. '}{tradeoff}"
    if len(fitting) == 1:  # the only one that fits is the pick
        methods = {str(a.update.get("method")) for a, _ in rows} if done[0][0].compare == "method" else set()
        extra = _lora_when_full_does_not_fit(zh) if {"full", "lora"} <= methods and \
            fitting[0][0].update.get("method") == "lora" else ""  # ('want the best quality'): what full would buy
        return (f"{listed}。只有 {fitting[0][0].text} 放得下：**选 {fitting[0][0].text}**。" if zh else
                f"{listed}. Only {fitting[0][0].text} fits: **pick {fitting[0][0].text}**.") + extra
    return (f"{listed}。只有 {'、'.join(a.text for a, _ in fitting)} 放得下。" if zh else
            f"{listed}. Only {', '.join(a.text for a, _ in fitting)} fits.")


def _precision_tradeoff(done: list[tuple[Ask, Answer]], rows: list, zh: bool) -> str | None:
    """'FP8 or stay BF16?' with no GPU count stated: a format that needs more GPUs is no reason to drop it. Each
    format's count, the decode speed the smaller one buys (fewer weight bytes read per token) and its quality risk
    (knowledge/docs/quantization), and a pick that turns on the user's own evaluation."""
    from tools.formats import FORMATS

    req = done[0][1].request or {}
    if "num_gpus" in (req.get("stated") or []):
        return None
    ranked = []
    for a, v in rows:
        fmt = (a.update or {}).get("precision")
        if fmt not in FORMATS:
            return None
        ranked.append((a, v, FORMATS[fmt].bits, v.num_gpus if v.fits else v.min_gpus))
    ranked.sort(key=lambda r: -r[2])
    hi, lo = ranked[0], ranked[-1]
    if not hi[3] or not lo[3] or hi[2] <= lo[2]:
        return None
    gpu = _card(hi[1].gpu)
    card = getattr(gpu, "name", None) or hi[1].gpu or ""
    speed = hi[2] / lo[2]
    eight = lo[2] >= 8
    from tools.formats import supported_on

    native = gpu is not None and (lo[0].update or {}).get("precision") == "fp8" and supported_on("fp8", gpu)[0]
    # (FP8 tensor cores: the matrix multiplies run at twice the BF16 rate too, so the gain holds when compute binds)
    high_en = ("and the card's FP8 tensor cores run the matrix multiplies at 2× the BF16 rate, so prefill and busy "
               "batches gain too" if native else "less at high concurrency where compute dominates")
    high_zh = ("而且这张卡有 FP8 张量核心，矩阵乘按 BF16 的 2 倍算力跑，预填充和高并发也一样受益" if native else
               "高并发算力成为瓶颈时差距变小")
    if zh:
        quality = ("8 位（FP8/INT8，按通道或按 token 缩放）在标准评测上通常和 BF16 很接近" if eight else
                   "4 位损失更多一些，先出现在长上下文检索、数学、代码和小语种上，平均分会掩盖")
        return (f"**卡数没给，所以不是“谁放得下”的问题**：{hi[0].text} 要 {hi[3]} 张 {card}，{lo[0].text} {lo[3]} 张就放得下"
                f"（放在 {hi[3]} 张上能给 KV cache 留出多得多的空间：更多并发或更长文档）。同样的卡上，{lo[0].text} 每解码一个 token "
                f"读的权重字节是 {hi[0].text} 的 1/{speed:.0f}：低并发时最多快约 {speed:.0f} 倍，{high_zh}。质量：{quality}"
                f"（`docs/quantization.zh.md`）。**建议**：质量优先的话，先用你自己几百条真实请求（法律、长文档这类要看引用和细节）评测"
                f" {lo[0].text}；结果不掉就用它（卡更少、更快），掉了就留在 {hi[0].text}、{hi[3]} 张 {card}。")
    quality = ("8-bit (FP8/INT8 with per-channel or per-token scales) is usually close to BF16 on standard benchmarks" if eight
               else "4-bit loses a little more, first in long-context retrieval, maths, code and less-represented "
                    "languages, which averaged benchmarks hide")
    return (f"**No GPU count was given, so this is not a question of what fits**: {hi[0].text} needs {hi[3]}× {card}, "
            f"{lo[0].text} fits on {lo[3]}× (and on {hi[3]}× it leaves far more room for KV cache: more users or "
            f"longer documents). On the same GPUs, {lo[0].text} reads 1/{speed:.0f} of {hi[0].text}'s weight bytes per "
            f"decoded token: up to ~{speed:.0f}× faster at low concurrency, {high_en}. Quality: {quality} "
            f"(`docs/quantization.en.md`). **Recommendation**: if quality comes first, "
            f"evaluate {lo[0].text} on a few hundred of your own real prompts (scored on the details your users care "
            f"about); keep it if it holds (fewer GPUs, faster), else stay on {hi[0].text} on {hi[3]}× {card}.")


def sub_request(req: Request, ask: Ask) -> Request:
    """The message's Request with this ask's intent and fields."""
    update = {"intent": ask.intent, **ask.update}
    if req.full_model and update.get("model") and update["model"] != req.model and "precision" not in update and \
            req.precision and req.model:
        # '满血版R1和蒸馏版32B': 'full' is each model's own published format (R1's FP8 is not the distill's)
        from knowledge.catalog import default_catalog

        try:
            cat = default_catalog()
            if cat.model(req.model)[0].native_precision == req.precision:
                update["precision"] = cat.model(update["model"])[0].native_precision
        except (LookupError, ValueError):
            pass
    if req.measured_step_s or (req.period_hours and req.measured_tokens):
        # 'we measured 11.5 s/step on 8x A100 … and if we move to 8x H100?': the measurement stays the setup it was
        # taken on; the ask that changes the card, the count or the model scales it from there
        for key, field in (("gpu", "measured_gpu"), ("num_gpus", "measured_num_gpus"), ("model", "measured_model")):
            if key in update and update[key] != getattr(req, key) and getattr(req, field) is None:
                update[field] = getattr(req, key)
    return own_card_rate(Request.model_validate(req.model_dump() | update))


def own_card_rate(req: Request) -> Request:
    """'4090 租 2 元/卡时，L40S 6 元/卡时': each card was written with its own rental rate, and the first was read as the
    job's rate; a job on one of those cards runs at that card's rate."""
    rates = req.gpu_rental_prices or {}
    if req.gpu in rates and req.price_per_gpu_hour in rates.values() and req.price_per_gpu_hour != rates[req.gpu]:
        return req.model_copy(update={"price_per_gpu_hour": rates[req.gpu]})
    return req


def _compare_layouts(done: list[tuple[Ask, Answer]], zh: bool) -> str | None:
    """The GPUs split into one large tensor-parallel instance or several smaller replicas: each replica's throughput at
    full load (the sequences its KV room holds, up to the engine's limit) times the replicas; the larger total wins,
    and a per-user speed target is checked at that load."""
    rows = []
    for a, x in done:
        f = x.figures
        per = f.get("batched_tokens_per_s_total") or f.get("decode_tokens_per_s_total")
        seqs = f.get("batched_sequences") or f.get("batch") or 1
        if not per or not f.get("fits", 1):
            rows.append((a, 0.0, 0, 0.0))
            continue
        n = a.replicas or 1
        rows.append((a, per * n, int(seqs) * n, per / seqs))
    if len(rows) < 2:
        return None
    target = (done[0][1].request or {}).get("tokens_per_s_per_user")
    listed = []
    for a, total, seqs, each in rows:
        if not total:
            listed.append(f"{a.text}: " + ("放不下" if zh else "does not fit"))
            continue
        miss = target and each < target
        listed.append(f"{a.text}: " + (f"合计 {total:,.0f} token/秒（{seqs} 路同时，每路 {each:,.1f} token/秒"
                                       + ("，低于目标" if miss else "") + "）" if zh else
                                       f"{total:,.0f} tokens/s in total ({seqs} sequences at once, {each:,.1f} tokens/s each"
                                       + (", below your target" if miss else "") + ")"))
    ok = [r for r in rows if r[1] > 0]
    if not ok:
        return "; ".join(listed)
    stated = (done[0][1].request or {}).get("stated") or []
    if "concurrent_users" in stated or "batch" in stated:
        # a load stated ('并发 64'): every layout carries the same users, so each user's speed decides, among the
        # layouts whose KV room holds their share of the users
        def want(a):
            req_a = next((x.request for b, x in done if b is a), None) or {}
            return (req_a.get("concurrent_users") or req_a.get("batch") or 1) * (a.replicas or 1)
        short = [r for r in ok if r[2] < want(r[0])]
        for r in short:
            i = next(k for k, x in enumerate(rows) if x is r)
            listed[i] += (f"，只放得下 {r[2]} 路，不到你的 {want(r[0])} 路" if zh else
                          f", its KV room holds only {r[2]} of the {want(r[0])}")
        ok = [r for r in ok if r not in short] or ok
        fastest = max(ok, key=lambda r: r[3])
        rest = [r for r in ok if r is not fastest]
        gain = fastest[3] / max(r[3] for r in rest) if rest else None
        if gain is not None and gain < 1.10:
            pick = (f"**两者差不多**（每路相差 {gain:.2f} 倍，在估算误差之内）；选副本少的更省运维" if zh else
                    f"**About equal** ({gain:.2f}× per user, inside the estimate's error); fewer replicas are simpler to run")
        else:
            pick = (f"**选 {fastest[0].text}**：同样的负载下每路 {fastest[3]:,.1f} token/秒" +
                    (f"，是另一种的 {gain:.2f} 倍" if gain else "") if zh else
                    f"**Pick {fastest[0].text}**: at your load each user gets {fastest[3]:,.1f} tokens/s" +
                    (f", {gain:.2f}× the next" if gain else ""))
        return ("；".join(listed) + "。" + pick + "。") if zh else ("; ".join(listed) + ". " + pick + ".")
    best = max(ok, key=lambda r: r[1])
    others = [r for r in ok if r is not best]
    ratio = best[1] / max(r[1] for r in others) if others else None
    if (best[0].replicas or 1) < max(r[0].replicas or 1 for r in ok):
        why = ("副本越小，每张卡上权重占得越多、留给 KV cache 的越少，同时能跑的序列就越少；总吞吐看的是整机同时能解码多少序列"
               if zh else "the smaller the replica, the more of each GPU its weights take and the less is left for the KV "
               "cache, so fewer sequences run at once; total throughput is how many sequences the node decodes together")
    else:
        why = ("权重放得下时，多个小副本之间不用做 all-reduce，每个副本各自跑满一批，吞吐相加；代价是每路更慢"
               if zh else "where the weights fit with room for the KV cache, replicas need no all-reduce between GPUs and "
               "each runs its own full batch, so their throughputs add up; each user's stream is slower")
    if ratio is not None and ratio < 1.10:  # inside the estimate's error: a tie, decided by each user's speed
        fastest = max((r for r in ok if r[1] * 1.10 >= best[1]), key=lambda r: r[3])  # (among the tied, not all)
        pair = "两者" if len(ok) == 2 else f"{best[0].text} 和第二名"
        pair_en = "About equal" if len(ok) == 2 else f"{best[0].text} and the next about equal"
        pick = (f"**{pair}差不多**（相差 {ratio:.2f} 倍，在估算误差之内）；每路更快的是 {fastest[0].text}（{fastest[3]:,.1f} token/秒）"
                if zh else f"**{pair_en}** ({ratio:.2f}×, inside the estimate's error); {fastest[0].text} gives each "
                f"stream more ({fastest[3]:,.1f} tokens/s)")
        return ("；".join(listed) + "。" + pick + "。") if zh else ("; ".join(listed) + ". " + pick + ".")
    else:
        pick = (f"**选 {best[0].text}**" + (f"，总吞吐是另一种的 {ratio:.2f} 倍" if ratio else "") if zh else
                f"**Pick {best[0].text}**" + (f": {ratio:.2f}× the total throughput of the next" if ratio else ""))
    readable = [r for r in ok if r[3] >= READING_SPEED]
    if best[3] < READING_SPEED and readable:
        # the most total throughput, at a speed below reading: right for batch work, not for chat; both said
        chat = max(readable, key=lambda r: r[1])
        pick = (f"**看用途**：跑批/离线要总吞吐，选 {best[0].text}（合计 {best[1]:,.0f} token/秒，但每路只有 {best[3]:,.1f}，慢于阅读速度）；"
                f"聊天要每路够快，选 {chat[0].text}（每路 {chat[3]:,.1f} token/秒，合计 {chat[1]:,.0f}）" if zh else
                f"**It depends on the use**: for batch work, {best[0].text} ({best[1]:,.0f} tokens/s in total, but "
                f"{best[3]:,.1f} per stream, slower than people read); for chat, {chat[0].text} ({chat[3]:,.1f} tokens/s "
                f"per stream, {chat[1]:,.0f} in total)")
    return ("；".join(listed) + "。" + pick + "（" + why + "）。") if zh else \
        ("; ".join(listed) + ". " + pick + " (" + why + ").")


def _smallest_in_time(done: list[tuple[Ask, Answer]], zh: bool, deadline: float, question: str = "") -> str:
    """Options for a job with a deadline: each one's hours and cost (the user's prices where given), and whether it
    makes the deadline with room to spare (train.DEADLINE_SLACK of the time left for restarts, evaluation and a slower
    MFU than assumed), only just (inside the deadline, not the margin, or the estimate's band reaching past it), or
    not; the pick is among those with room: the cheapest when the user asks for cost, else the fewest GPUs, then the
    cheapest."""
    from assistant.plans.train import DEADLINE_SLACK

    rows, ok, tight = [], [], []
    for a, x in done:
        h = x.figures["wall_hours"]
        high = x.figures.get("wall_hours_high") or h
        cost = x.figures.get("cost_at_your_price") or x.figures.get("cost_usd")
        sym = "¥" if (x.request or {}).get("currency") == "CNY" and x.figures.get("cost_at_your_price") else "$"
        n = (x.request or {}).get("num_gpus") or 1
        safe = h * (1 + DEADLINE_SLACK) <= deadline and high <= deadline * (1 + DEADLINE_SLACK)
        made = h <= deadline
        verdict = ("（赶得上，有余量）" if safe else "（勉强赶得上：没有余量）" if made else "（赶不上）") if zh else \
            (" (makes it, with room)" if safe else f" (only just: the band reaches {high:,.0f} h)" if made
             else " (misses it)")
        rows.append(f"{a.text}: {h:,.1f} " + ("小时" if zh else "h") + (f"，约 {sym}{_num(cost)}" if zh and cost else
                                                                     f", ~{sym}{_num(cost)}" if cost else "") + verdict)
        (ok if safe else tight if made else []).append((n, cost or 0, a))
    listed = ("；" if zh else "; ").join(rows)
    margin = (f"（余量按期限的 {DEADLINE_SLACK:.0%} 留给重启、评测和低于假设的 MFU）" if zh else
              f" (room: {DEADLINE_SLACK:.0%} of the deadline kept for restarts, evaluation and a lower MFU than assumed)")
    if not ok and not tight:
        return listed + ("。没有一个能在期限内完成。" if zh else ". None makes the deadline.")
    if not ok:
        n, cost, a = min(tight, key=lambda r: (r[0], r[1]))
        return listed + (f"。**没有一个留有余量；最接近的是 {a.text}**：加卡或放宽期限更稳妥{margin}。" if zh else
                         f". **None makes it with room to spare; the closest is {a.text}**: add GPUs or move the "
                         f"deadline to be safe{margin}.")
    cheapest = re.search(r"cheap|least cost|lowest cost|cost-effective|便宜|省钱|划算|成本最低|性价比", question.lower())
    n, cost, a = min(ok, key=lambda r: (r[1] or float("inf"), r[0]) if cheapest else (r[0], r[1]))
    if cheapest:
        return listed + (f"。**能稳妥按期完成的最便宜配置：{a.text}**{margin}。" if zh else
                         f". **The cheapest that makes the deadline with room: {a.text}**{margin}.")
    return listed + (f"。**能稳妥按期完成的最小配置：{a.text}**{margin}。" if zh else
                     f". **The smallest that makes the deadline with room: {a.text}**{margin}.")


def _servers_to_buy(done: list[tuple[Ask, Answer]], zh: bool) -> str | None:
    """Whole servers to buy at the user's price for each: the servers the job needs (its GPUs over the server's), their
    cost against the budget, whether the job fits the period; the cheapest that fits both is the pick."""
    import math

    rows = []
    for a, x in done:
        req = x.request or {}
        n = (x.verdict.num_gpus if x.verdict and x.verdict.num_gpus else None) or req.get("num_gpus")
        if not n:
            return None
        per = req.get("gpus_per_node") or req.get("num_gpus") or 8  # ('4x H100 PCIe server $150k': a 4-GPU server)
        n = max(n, x.figures.get("serve_total_gpus") or 0)  # the GPUs the load needs, in whole servers of that size
        servers = math.ceil(n / per)
        cost = servers * a.update["purchase_price_per_server"]
        hours = x.figures.get("wall_hours")
        itl = x.figures.get("serve_itl_ms")
        speed = 1000 / itl if itl and x.figures.get("serve_total_gpus") == servers * per else None
        # (each user's tokens/s where the plan runs on the whole servers bought; a plan on fewer GPUs says nothing of them)
        rows.append((a, servers, cost, hours, req.get("budget"), req.get("period_hours"), req.get("currency"), speed))
    sym = "¥" if rows[0][6] == "CNY" else "$"
    from tools.purchase import MIN_USABLE_TOKENS_PER_S

    parts, ok = [], []
    for a, servers, cost, hours, budget, period, _, speed in rows:
        fits_budget = budget is None or cost <= budget
        in_time = hours is None or period is None or hours <= period
        usable = speed is None or speed >= MIN_USABLE_TOKENS_PER_S
        note = [] if fits_budget else [("超预算" if zh else "over the budget")]
        if not in_time:
            note.append("一个周期内跑不完" if zh else "does not finish within the period")
        if not usable:
            note.append("每路太慢" if zh else "too slow per user")
        parts.append((f"{a.text}：{servers} 台 = {sym}{_num(cost)}" if zh else f"{a.text}: {servers} server(s) = {sym}{_num(cost)}")
                     + (f"（{hours:,.0f} 小时）" if zh and hours else f" ({hours:,.0f} h)" if hours else "")
                     + ((f"（每路约 {speed:,.0f} token/秒）" if zh else f" (~{speed:,.0f} tokens/s per user)") if speed else "")
                     + (("，" + "、".join(note)) if zh and note else ("; " + ", ".join(note)) if note else ""))
        if fits_budget and in_time and usable:
            ok.append((a, servers, cost, hours))
    listed = ("；" if zh else "; ").join(parts)
    if not ok:
        return listed + ("。没有一个在预算内放得下并按时跑完。" if zh else ". None holds the job within the budget and the period.")
    best = min(ok, key=lambda r: (r[2], r[3] or 0))
    return listed + (f"。**买 {best[1]} 台 {best[0].text}**（{sym}{_num(best[2])}）：预算内、放得下、按时跑完里最便宜。" if zh else
                     f". **Buy {best[1]} × {best[0].text}** ({sym}{_num(best[2])}): the cheapest that holds the job within "
                     "the budget and the period.")


def plan_capex(a: Ask, x: Answer, calls: list | None = None):
    """The purchase cost (tools.purchase.fleet_cost) of one card's serving plan at the user's price per card, with one
    host server per 8 GPUs when a host price is stated; None when the plan gives no count or the card no price."""
    from assistant.answer import ToolCall
    from tools.purchase import FleetCostRequest, fleet_cost

    n = x.figures.get("serve_total_gpus") or (x.verdict.num_gpus if x.verdict and x.verdict.fits else None) or \
        (x.verdict.min_gpus if x.verdict else None) or (x.request or {}).get("num_gpus")
    stated = (a.update or {}).get("num_gpus") if "×" in a.text else None
    if stated and n and stated > n:  # ('2x RTX PRO 6000' as the option: two are bought, though one carries the load)
        n = stated
    req = x.request or {}
    price, server = (a.update or {}).get("purchase_price"), (a.update or {}).get("purchase_price_per_server")
    if not n or not (price or server):
        return None
    per = req.get("gpus_per_node") or (req.get("num_gpus") if server else None) or 8
    if server:  # a whole server's quote: its GPUs' share of it, and no host on top
        args = {"gpus": int(-(-int(n) // per) * per), "price_per_gpu": server / per, "host_price_per_server": None,
                "gpus_per_server": per}
    else:
        args = {"gpus": int(n), "price_per_gpu": price, "host_price_per_server": req.get("host_price_per_server"),
                "gpus_per_server": req.get("gpus_per_node") or 8}
    cost = fleet_cost(FleetCostRequest(**args))
    if calls is not None:
        calls.append(ToolCall(name="fleet_cost", args=args, result=cost.model_dump()))
    return cost


def _cards_to_buy(done: list[tuple[Ask, Answer]], zh: bool, calls: list | None = None, org: bool = False) -> str | None:
    """Each plan's GPUs at the user's price per card ('L20 单卡 2.8 万，H20 单卡 11 万'): the count the job needs on that card
    (the plan's own) times the price, plus the servers they go in when a host price is stated ('准系统另算 ¥8 万': one per
    8 GPUs), against the budget; the cheapest within it is the pick, and when none is, that is said first. Where the
    user's option buys at least twice what carries the load (a spare replica), or a GeForce card would serve a company,
    the pick within the budget prefers the spare and the data-centre card (said), before the price."""
    rows, need = [], {}
    for a, x in done:
        cost = plan_capex(a, x, calls)
        if cost is None:
            return None
        req = x.request or {}
        itl = x.figures.get("serve_itl_ms")
        rows.append((a, cost.gpus, a.update["purchase_price"], cost.total,
                     (1000 / itl if itl else None) or x.figures.get("decode_tokens_per_s_per_seq"),
                     req.get("currency"), cost.servers, req.get("host_price_per_server"), req.get("budget"),
                     x.figures.get("precision") or req.get("precision")))
        need[id(a)] = x.figures.get("serve_total_gpus")
    sym = "¥" if rows[0][5] == "CNY" or zh else "$"
    budget = rows[0][8]

    def one(r) -> str:
        a, n, p, c, v, _, servers, host, _, fmt = r
        hosts = (f" + {servers} 台 × {sym}{_num(host)}" if zh else f" + {servers} server(s) × {sym}{_num(host)}") if servers else ""
        over = budget is not None and c > budget
        return ((f"{a.text}：{n} 张 × {sym}{_num(p)}{hosts} = **{sym}{_num(c)}**" if zh else
                 f"{a.text}: {n} × {sym}{_num(p)}{hosts} = **{sym}{_num(c)}**")
                + ((f"（每路约 {v:,.1f} token/秒）" if zh else f" (~{v:,.1f} tokens/s per user)") if v else "")
                + (("，超预算" if zh else ", over the budget") if over else ""))

    listed = ("；" if zh else "; ").join(one(r) for r in rows)
    if budget is not None:
        within = [r for r in rows if r[3] <= budget]
        if not within:
            near = min(rows, key=lambda r: r[3])
            return (f"**按这个负载，没有一个方案在 {sym}{_num(budget)} 预算内**：{listed}。最省的是 {near[0].text}（{sym}{_num(near[3])}，"
                    f"超出 {sym}{_num(near[3] - budget)}）；要进预算，得降负载（并发、上下文或每路速度）或换更省的格式（FP8/INT4）。"
                    if zh else
                    f"**At this load, no option fits the {sym}{_num(budget)} budget**: {listed}. The cheapest is "
                    f"{near[0].text} ({sym}{_num(near[3])}, {sym}{_num(near[3] - budget)} over); to get within it, lower the "
                    "load (users, context or speed per user) or use a smaller format (FP8 / INT4).")
        from tools.driver_licence import geforce_licence

        spare = {id(r[0]): bool(need.get(id(r[0])) and r[1] >= 2 * need[id(r[0])]) for r in within}
        desk = {id(r[0]): bool(org and geforce_licence(_card((r[0].update or {}).get("gpu")))) for r in within}
        best = min(within, key=lambda r: (desk[id(r[0])], not spare[id(r[0])], r[3]))
        cheapest = min(within, key=lambda r: r[3])
        if best is not cheapest:  # the budget covers a safer option: a spare replica, a card licensed for the job
            why_zh = "、".join(([f"每 {need[id(best[0])]} 张就扛得住负载，{best[1]} 张留一份冗余（坏一张不停服）"] if spare[id(best[0])] else [])
                              + (["不是 GeForce（数据中心许可、保修和整机支持）"] if desk[id(cheapest[0])] and not desk[id(best[0])] else []))
            why_en = "; ".join(([f"{need[id(best[0])]} GPU(s) carry the load, so {best[1]} keep a spare replica (one can fail "
                                 "without an outage)"] if spare[id(best[0])] else [])
                               + (["not a GeForce card (licensed for the data centre, warranty and vendor support)"]
                                  if desk[id(cheapest[0])] and not desk[id(best[0])] else []))
            return listed + (f"。**选 {best[0].text}：{best[1]} 张，{sym}{_num(best[3])}**，在预算 {sym}{_num(budget)} 内："
                             f"{why_zh}；最便宜的 {cheapest[0].text}（{sym}{_num(cheapest[3])}）也在预算内，但没有这一点。" if zh else
                             f". **Pick {best[0].text}: {best[1]} GPUs, {sym}{_num(best[3])}**, within the {sym}{_num(budget)} "
                             f"budget: {why_en}. The cheapest, {cheapest[0].text} ({sym}{_num(cheapest[3])}), is within it "
                             "too, without that.")
        return listed + (f"。**选 {best[0].text}：{best[1]} 张，{sym}{_num(best[3])}**，预算 {sym}{_num(budget)} 内满足负载的最便宜方案"
                         f"（余 {sym}{_num(budget - best[3])}）。" if zh else
                         f". **Pick {best[0].text}: {best[1]} GPUs, {sym}{_num(best[3])}**, the cheapest that carries the "
                         f"load within the {sym}{_num(budget)} budget ({sym}{_num(budget - best[3])} to spare).")
    best = min(rows, key=lambda r: r[3])
    other = max(rows, key=lambda r: r[3])
    gap = other[3] - best[3]
    if gap <= 0:
        return listed
    extra = "卡和服务器的钱" if zh and rows[0][6] else "卡的钱；机器、电费另算" if zh else \
        "cards and servers" if rows[0][6] else "cards only; the host and power are extra"
    return listed + (f"。**{best[0].text} 方案省 {sym}{_num(gap)}**（{extra}）。" if zh else
                     f". **{best[0].text} costs {sym}{_num(gap)} less** ({extra}).")


# words that put a deployment in an organisation (its service, its staff): where a GeForce card's licence and support count
ORG_WORDS = (r"公司|企业|员工|同事|内部|部门|客户|线上|生产|" +
             r"(?<![a-z])(?:company|companies|employees?|staff|colleagues|internal|enterprise|org|organi[sz]ation|"
             r"customers?|production|our (?:team|users))(?![a-z])")


def _table_priced_purchase(done: list[tuple[Ask, Answer]], zh: bool, prices, calls: list | None = None,
                           org: bool = False) -> str | None:
    """A purchase among cards with no prices stated: each plan's cards at the price table's purchase price (new or
    used, tools.purchase.price_of) plus one host server per 8 GPUs (tools.purchase.host_price, a whole server's chassis,
    CPUs, RAM and network), against the budget when one is stated; said as estimates to confirm with a quote."""
    from tools.purchase import host_price, price_of

    first = done[0][1].request or {}
    cur = "CNY" if first.get("currency") == "CNY" or zh else "USD"
    host = host_price(8, cur)
    priced, missing = [], []
    for a, x in done:
        gpu = _card((x.request or {}).get("gpu"))
        if gpu is None:
            return None
        got = price_of(list(prices), gpu, cur)
        if got is None:
            missing.append(a.text)
            continue
        req = dict(x.request or {})
        req.setdefault("host_price_per_server", host)
        if req.get("host_price_per_server") is None:
            req["host_price_per_server"] = host
        upd = dict(a.update or {}) | {"purchase_price": round(got[0])}
        priced.append((a.model_copy(update={"update": upd}), x.model_copy(update={"request": req})))
    if len(priced) < 2:
        return None
    text = _cards_to_buy(priced, zh, calls, org)
    if not text:
        return None
    sym = "¥" if cur == "CNY" else "$"
    from tools.driver_licence import geforce_licence

    desk = [a.text for a, x in priced if geforce_licence(_card((x.request or {}).get("gpu")))]
    if desk:  # (a pile of 4090s in servers: what the licence and the boards mean for a data-centre deployment)
        text += (f" 注意 {'、'.join(desk)}：GeForce 驱动许可（§2.1.3）不允许数据中心部署（办公室机房通常不算，托管机房算）；"
                 "三槽风扇卡一台服务器放不下 8 张（要涡轮或水冷版），没有 NVLink，24-32 GB 也限制每卡并发；机器多了运维也多。" if zh else
                 f" Note on {', '.join(desk)}: the GeForce driver licence (§2.1.3) bars data-centre deployment (an office "
                 "server room is commonly read as outside it, a colo rack as inside); 3-slot coolers do not fit 8 to a "
                 "server (blower or water-cooled boards do), there is no NVLink, 24-32 GB caps each card's batch, and more "
                 "machines mean more to run.")
    note = (f"（卡价为价格表估计，每 8 卡另加一台服务器约 {sym}{_num(host)}（机箱、CPU、内存、网卡）；价格波动大，下单前请询价"
            + (f"；{'、'.join(missing)} 价格表里没有购买价，未列入" if missing else "") + "）" if zh else
            f" (card prices are price-table estimates, plus one host server per 8 GPUs at about {sym}{_num(host)}: chassis, "
            "CPUs, RAM, network; prices move, so get a quote before ordering"
            + (f"; {', '.join(missing)} has no purchase price on record and is left out" if missing else "") + ")")
    return text + note


def _bought(a: Ask) -> str:
    """The purchase price written beside a card, with its currency ('¥22,000'), or ''."""
    u = a.update or {}
    if not u.get("purchase_price"):
        return ""
    sym = "¥" if u.get("currency") == "CNY" else "$"
    n = u.get("num_gpus") or 1
    if n > 1:  # ('2 张 4090（2.1 万一张）': the option costs both cards)
        return f"{sym}{_num(u['purchase_price'] * n)} = {n} × {sym}{_num(u['purchase_price'])}"
    return sym + _num(u["purchase_price"])


def _option_price(a: Ask) -> float:
    """What an option costs to buy: its price per card × its cards."""
    u = a.update or {}
    return (u.get("purchase_price") or 0) * (u.get("num_gpus") or 1)


def _num(v: float) -> str:
    """57,780 / 51.46 / 0.3342: thousands separated, small figures to 4 significant digits (never 5.778e+04)."""
    return f"{v:,.0f}" if abs(v) >= 1000 else f"{v:,.4g}"


# 'which should we pick', '怎么选': a choice asked, which memory alone does not make when every option fits
_CHOICE = (r"怎么选|选哪|选什么|哪个好|哪个更|哪种|推荐|建议|更合适|更划算|哪个靠谱|哪个合适|哪个行|哪个稳|" +
           w(r"which|pick|choose|better|best|recommend\w*|go with|should (?:we|i)"))
_CHAT = r"对话|聊天|在线|交互|客服|助手|实时|" + w(r"chat\w*|interactive|assistant|online|real[\s-]*time|latency")
_BULK = r"批量|离线|跑批|" + w(r"batch(?:ed)? (?:jobs?|inference|processing)|offline|bulk|throughput")


_SPEED_ASK = r"多快|速度|几个? ?token|" + w(r"how fast|speed|tok(?:en)?s?/s|tokens? per second|t/s")


def _speeds_listed(done: list[tuple[Ask, Answer]], zh: bool, question: str) -> str | None:
    """'can it run 70B Q4_K_M, and how fast? what about Q8?': each option's one-stream speed beside its memory."""
    if not re.search(_SPEED_ASK, question.lower()):
        return None
    rows = [(a, x.figures["decode_tokens_per_s_per_seq"]) for a, x in done if x.figures.get("decode_tokens_per_s_per_seq")]
    if len(rows) < 2:
        return None
    listed = ("；" if zh else "; ").join(f"{a.text} {v:,.1f}" + (" token/秒" if zh else " tokens/s") for a, v in rows)
    return (f"单路速度（估算）：{listed}。" if zh else f"Speed, one stream (estimate): {listed}.")


def _per_token_on_same_cards(done: list[tuple[Ask, Answer]], zh: bool, question: str, prices=()) -> str | None:
    """'gpt-oss-120b vs Qwen3-235B vs Llama 70B on our 8xH100 box: which is cheapest per token?': options on the same
    cards cost the same per hour, so the one with the highest total throughput (each one's estimate with many
    requests at once) is the cheapest per token; with a rate (the user's, else the price table's) each one's cost per
    million output tokens."""
    from assistant.readers.slots import per_token_cost
    from tools.pricing import on_demand_rate

    if not (per_token_cost(question.lower()) or re.search(r"最便宜|最划算|最省|" + w(r"cheapest|cheaper|least expensive"),
                                                        question.lower())):
        return None
    rows = [(a, x) for a, x in done if x.verdict and x.verdict.fits and x.figures.get("batched_tokens_per_s_total")]
    reqs = [x.request or {} for _, x in rows]
    if len(rows) < 2 or len({(r.get("gpu"), r.get("num_gpus")) for r in reqs}) != 1:
        return None
    gpu, n = reqs[0].get("gpu"), reqs[0].get("num_gpus") or 1
    cur = reqs[0].get("currency") or "USD"
    sym = "¥" if cur == "CNY" else "$"
    rate = reqs[0].get("price_per_gpu_hour")
    if not rate:
        found = on_demand_rate(list(prices), gpu, cur) if gpu else None
        rate = found.typical if found else None
    ranked = sorted(rows, key=lambda ax: -ax[1].figures["batched_tokens_per_s_total"])

    def per_m(x) -> str:
        if not rate:
            return ""
        v = rate * n / (x.figures["batched_tokens_per_s_total"] * 3600) * 1e6
        return f"，{sym}{_num(v)}/百万输出 token" if zh else f", {sym}{_num(v)} per 1M output tokens"
    listed = ("；" if zh else "; ").join(
        (f"{a.text} {x.figures['batched_tokens_per_s_total']:,.0f} token/秒（{x.figures.get('batched_sequences', '多')} 路）"
         if zh else f"{a.text} {x.figures['batched_tokens_per_s_total']:,.0f} tokens/s ({x.figures.get('batched_sequences', 'many')} "
         "streams)") + per_m(x) for a, x in ranked)
    best, nxt = ranked[0], ranked[1]
    gain = best[1].figures["batched_tokens_per_s_total"] / nxt[1].figures["batched_tokens_per_s_total"]
    at = (f"（按 {sym}{rate:,.2f}/卡时 × {n} 张）" if zh else f" (at {sym}{rate:,.2f} per GPU-hour × {n})") if rate else ""
    return (f"同样的卡每小时花费相同，所以吞吐最高的每个 token 最便宜。满载估算吞吐{at}：{listed}。"
            f"**每 token 最便宜：{best[0].text}**（吞吐是 {nxt[0].text} 的 {gain:.2f} 倍）。" if zh else
            f"On the same cards every option costs the same per hour, so the highest throughput is the cheapest per token. "
            f"Estimated throughput with many requests at once{at}: {listed}. **Cheapest per token: {best[0].text}** "
            f"({gain:.2f}× the throughput of {nxt[0].text}).")


def _choose_by_speed(done: list[tuple[Ask, Answer]], zh: bool, question: str) -> str | None:
    """Options that all hold the model, a choice asked: each one's estimated speed (one stream's decode, first-token
    time, the whole batch's rate) and the pick for the job written (chat: the faster stream; batch work: the higher
    total), with what each card's figures explain and, across vendors, the software stack."""
    from assistant.compose import T

    low = question.lower()
    if not re.search(_CHOICE, low):
        return None
    rows = [(a, x.figures) for a, x in done if x.verdict and x.verdict.fits and x.figures.get("decode_tokens_per_s_per_seq")]
    if len(rows) < 2:
        return None
    bulk = bool(re.search(_BULK, low)) and not re.search(_CHAT, low)
    listed = ("；" if zh else "; ").join(
        f"{a.text}: " + (f"单路 {f['decode_tokens_per_s_per_seq']:,.0f} token/秒，首 token {f.get('ttft_s', 0):.2f} 秒"
                         + (f"，{f.get('batched_sequences', '多')} 路同时合计 {f['batched_tokens_per_s_total']:,.0f} token/秒"
                            if f.get("batched_tokens_per_s_total") else "")
                         if zh else
                         f"{f['decode_tokens_per_s_per_seq']:,.0f} tokens/s per stream, first token {f.get('ttft_s', 0):.2f} s"
                         + (f", {f['batched_tokens_per_s_total']:,.0f} tokens/s in total at {f.get('batched_sequences', 'many')} "
                            "streams"
                            if f.get("batched_tokens_per_s_total") else ""))
        for a, f in rows)
    key = "batched_tokens_per_s_total" if bulk and all(f.get("batched_tokens_per_s_total") for _, f in rows) else \
        "decode_tokens_per_s_per_seq"
    best = max(rows, key=lambda af: af[1][key])
    rest = [r for r in rows if r is not best]
    ratio = best[1][key] / max(r[1][key] for r in rest)
    job = (("批量吞吐" if zh else "batch throughput") if key != "decode_tokens_per_s_per_seq" else
           ("在线对话" if zh else "chat") if re.search(_CHAT, low) else ("单路速度" if zh else "speed per user"))
    what = (("合计吞吐" if zh else "total throughput") if key != "decode_tokens_per_s_per_seq" else
            ("单路解码" if zh else "per-stream decode"))
    text = (f"估算速度（vLLM，同一格式）：{listed}。**{job}选 {best[0].text}**：{what}快 {ratio:.2f} 倍" if zh else
            f"Estimated speed (vLLM, same format): {listed}. **For {job}, pick {best[0].text}**: {ratio:.2f}× the {what}")
    quick = min(rows, key=lambda af: af[1].get("ttft_s") or 1e9)
    if quick is not best and quick[1].get("ttft_s"):
        text += (f"；{quick[0].text} 首 token 更快（预填充看算力），长提示为主时考虑它" if zh else
                 f"; {quick[0].text} gives the first token sooner (prefill is compute-bound), worth it for long prompts")
    text += "。" if zh else "."
    gpus = [(x.request or {}).get("gpu") for _, x in done]
    spec = _spec_line(gpus[:2], zh, priced=False) if len(set(gpus) - {None}) == 2 else None
    if spec:
        text += (" " if not zh else "") + spec + ("。" if zh else ".")
    multi = [a.text for a, x in done if ((x.request or {}).get("num_gpus") or 1) > 8]
    if multi:  # options over several servers: tensor parallelism across them needs a fast network
        text += (f"{'、'.join(multi)} 要跨多台机器：机器之间需要 InfiniBand 或 RoCE 高速网络（跨机做流水或专家并行），"
                 "否则速度会明显下降。" if zh else
                 f" {', '.join(multi)} span several servers: serving across them needs InfiniBand or RoCE between the "
                 "servers (pipeline stages or expert parallelism over the network), or it slows down sharply.")
    vendors = set()
    try:
        from knowledge.catalog import default_catalog

        vendors = {default_catalog().gpu(g)[0].vendor for g in gpus if g}
    except (LookupError, ValueError):
        pass
    if len(vendors) > 1:
        text += (" " if not zh else "") + T("zh" if zh else "en", "cmp_note")
    return text


def _spec_line(gpu_ids: list, zh: bool, priced: bool = True) -> str | None:
    """'What the money buys: H200 141 GB vs H100 80 GB (1.76×), 4,800 vs 3,350 GB/s (1.43×), 989 vs 989 dense BF16
    TFLOPS (1.00×)' for two cards."""
    from knowledge.catalog import default_catalog

    ids = [g for g in gpu_ids if g]
    if len(ids) != 2:
        return None
    try:
        a, b = (default_catalog().gpu(g)[0] for g in ids)
    except (LookupError, ValueError):
        return None
    parts = []
    for label_en, label_zh, attr, unit in (("memory", "显存", "memory_gb", "GB"), ("bandwidth", "带宽", "memory_bandwidth_gbps", "GB/s"),
                                           ("dense BF16", "稠密 BF16", "bf16_dense_tflops", "TFLOPS")):
        x, y = getattr(a, attr), getattr(b, attr)
        if x and y:
            parts.append(f"{label_zh if zh else label_en} {x:,.0f} vs {y:,.0f} {unit} ({x / y:.2f}×)")
    if not parts:
        return None
    lead = ("差价买到的：" if zh else "What the difference buys: ") if priced else ("规格：" if zh else "Specs: ")
    return lead + f"{a.name} vs {b.name}: " + "; ".join(parts) + \
        ("（显存决定放得下多大的模型和多少并发，带宽决定解码速度，算力决定预填充和训练速度）" if zh else
         " (memory sets the model size and concurrency, bandwidth the decode speed, compute prefill and training)")


def _over_budget(x: Answer, prices, zh: bool) -> tuple[str, bool] | None:
    """('over your budget (~$5,950 for the machine)', True) when the request states a budget and the option's cards (at
    the price table's cheaper typical new/used price, or the condition written) cost more; when the cards fit it and
    only the PC around them (a host) does not, both prices, not ruled out; a Mac at its own price."""
    from tools.purchase import host_price, price_of

    r = x.request or {}
    budget, gid, n = r.get("budget"), r.get("gpu"), r.get("num_gpus") or 1
    if not budget or not gid or r.get("host_owned"):
        return None
    cur = r.get("currency") or ("CNY" if zh else "USD")
    gpu = _card(gid)
    if gpu is None:
        return None
    # ('used 4090, new 5090, or 2x used 3090': each card at the condition written before it)
    got = price_of(list(prices), gpu, cur, condition=("used" if r.get("used") else "new")
                   if "used" in (r.get("stated") or []) else None)
    if got is None:
        return None
    per, condition, server, _ = got
    host = 0.0 if gpu.vendor == "Apple" or server else host_price(n, cur)
    cards = per * (1 if gpu.vendor == "Apple" else n)
    cost = cards + host
    if cost <= budget * 1.05:
        return None
    sym = "¥" if cur == "CNY" else "$"
    kind = ("二手" if zh else "used") if condition == "used" else ("新" if zh else "new")
    if host and cards <= budget * 1.05:  # the cards fit the budget, the PC around them does not: both said, not ruled out
        return (f"卡约 {sym}{cards:,.0f}（{kind}），在预算内；连主机约 {sym}{cost:,.0f}" if zh else
                f"cards ~{sym}{cards:,.0f} ({kind}), within budget; ~{sym}{cost:,.0f} with a PC to hold them"), False
    return (f"超出预算（整机约 {sym}{cost:,.0f}，{kind}卡价格表估计）" if zh else
            f"over your budget (~{sym}{cost:,.0f} for the machine, {kind} cards, price-table estimate)"), True


def _purchase_line(cards: list, zh: bool, prices) -> str | None:
    """'To buy: RTX 4090 $2,177 new, RTX 5090 $1,999 new (price table)': each card's purchase price, chosen as the
    purchase planner chooses it (tools/purchase.price_of)."""
    from tools.purchase import price_of

    cur = "CNY" if zh else "USD"
    parts = []
    for ask, gid in cards:
        gpu = _card(gid)
        if gpu is None:
            continue
        got = price_of(list(prices), gpu, cur)
        if got is None:
            continue
        value, condition, _, _ = got
        kind = ("二手" if zh else "used") if condition == "used" else ("新" if zh else "new")
        parts.append(f"{ask.text} {'¥' if zh else '$'}{value:,.0f} ({kind})")
    if len(parts) < 2:
        return None
    return ("购买价（价格表估计）：" if zh else "To buy (price-table estimates): ") + ("；" if zh else "; ").join(parts)