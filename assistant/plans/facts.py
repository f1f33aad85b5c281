"""Answers from the tables and documents: GPU specs and comparisons, recommendations, published training runs,
concept explanations and fact checks."""
from __future__ import annotations

import re

from assistant.request import Clarification
from assistant.answer import Answer, Citation, ToolCall, Verdict
from assistant.compose import T, field_label, job_line, md_table
from assistant.zh import assumption_zh
from assistant.context import allowed_cards, USES, Ctx, assumptions_md, sources_md
from assistant.readers.slots import w

USES["compare"] = {"gpu", "gpus"}
USES["spec"] = {"gpu", "gpus"}
USES["recommend"] = {"model", "method", "tokens", "epochs", "budget", "currency", "deadline_hours", "gpus",
                     "concurrent_users", "context", "seq_len", "purchase", "host_owned", "exclude_vendors", "exclude_gpus",
                     "only_vendors", "power_limit_w"}
USES["published_run"] = {"model", "models", "gpu", "gpus", "num_gpus", "mfu"}
USES["compare"] = USES["compare"] | {"gpu_rental_prices"}  # (priced via the price records)



def compare(ctx: Ctx) -> Answer:
    from knowledge.lookups import CompareGpusInput, compare_gpus

    gpus = ctx.req.gpus
    res = ctx.call("compare_gpus", {"gpus": gpus}, compare_gpus(CompareGpusInput(gpus=gpus, fields=[
        "memory_gb", "memory_bandwidth_gbps", "bf16_dense_tflops", "fp8_dense_tflops", "nvlink_gbps", "tdp_w",
        "source_kind", "as_of"]), ctx.deps.catalog))
    ids = [g.id for g in res.gpus]
    lang = ctx.lang
    rows = [[field_label(lang, r.field)] + ["-" if v is None else (f"{v:g}" if isinstance(v, float) else str(v))
                                            for v in r.values.values()] for r in res.rows]
    cites = ctx.deps.search(" ".join(ids) + (" 生态 软件栈 对比" if ctx.zh else " ecosystem software stack compare"))
    jobs = [job_line(lang, p) for p in res.by_job]
    market = [f"{gid}: {note}" for gid, note in res.market.items()]
    verdict = None
    if len(ids) == 2:  # 'is the H20 worth it vs an H100?': which wins for which work, per unit of rent
        from tools.pricing import on_demand_rate

        cur = ctx.req.currency or ("CNY" if ctx.zh else "USD")
        rates = [on_demand_rate(list(ctx.deps.prices()), gid, cur) for gid in ids]
        if all(r and r.typical for r in rates):
            sym = "¥" if cur == "CNY" else "$"
            verdict = per_dollar_verdict([(gid, gid, r.typical) for gid, r in zip(ids, rates)], ctx.zh, ctx.deps.catalog)
            if verdict:
                verdict += ctx.t(" (typical on-demand rents, price table: ", "（价格表按需典型租金：") + ", ".join(
                    f"{gid} {sym}{r.typical:,.2f}/GPU-h" for gid, r in zip(ids, rates)) + ctx.t("; give yours to change it)",
                                                                                               "；可给出你的价格）")
    buys = _what_the_budget_buys(ctx, res.gpus) if ctx.req.budget else ""
    text = (T(lang, "cmp_head", gpus=", ".join(ids)) + "\n\n"
            + (buys + "\n\n" if buys else "")
            + (verdict + "\n\n" if verdict else "")
            + (T(lang, "cmp_by_job") + "\n" + "\n".join(f"- {j}" for j in jobs) + "\n\n" if jobs else "")
            + md_table([""] + ids, rows) + "\n\n"
            + (T(lang, "cmp_market") + "\n" + "\n".join(f"- {m}" for m in market) + "\n\n" if market else "")
            + T(lang, "cmp_note") + assumptions_md(lang, res.notes) + sources_md(lang, cites))
    figures = {f"{r.field}:{gid}": v for r in res.rows for gid, v in r.values.items() if isinstance(v, (int, float))}
    figures |= {f"best_for_{p.job}": p.winner for p in res.by_job} | {f"best_for_{p.job}_ratio": p.ratio for p in res.by_job}
    return Answer(answer=text, lang=lang, intent="compare", figures=figures, citations=cites, tool_calls=ctx.calls)


def _what_the_budget_buys(ctx: Ctx, gpus: list) -> str:
    """'$400k for GPU infrastructure: H100s, H200s or MI300X?': how much of each card the budget buys (whole 8-GPU
    servers at the table's typical purchase prices, said as estimates), and, with no model named, the question the
    pick turns on: what it will run."""
    from tools.purchase import price_of

    req = ctx.req
    cur = req.currency or ("CNY" if ctx.zh else "USD")
    sym = "¥" if cur == "CNY" else "$"
    ctx.used |= {"budget", "currency"}
    rows = []
    new = [p for p in ctx.deps.prices() if p.kind == "buy_new"]  # (an organisation's infrastructure is bought new)
    for g in gpus:
        got = price_of(new, g, cur) or price_of(list(ctx.deps.prices()), g, cur)
        if got is None:
            rows.append([g.id, "-", "-", "-"])
            continue
        per_card = got[0]
        server = per_card * 8
        n_servers = int(req.budget // server)
        rows.append([g.id, f"{sym}{per_card:,.0f}", f"{sym}{server:,.0f}",
                     ctx.t(f"{n_servers} server(s) = {n_servers * 8} GPUs, {n_servers * 8 * (g.memory_gb or 0):,.0f} GB",
                           f"{n_servers} 台 = {n_servers * 8} 张，共 {n_servers * 8 * (g.memory_gb or 0):,.0f} GB")
                     if n_servers else ctx.t(f"{int(req.budget // per_card)} cards (less than one 8-GPU server)",
                                             f"{int(req.budget // per_card)} 张（不够一台 8 卡服务器）")])
    table = md_table([ctx.t("card", "卡"), ctx.t("per card (typical)", "单卡（典型价）"),
                      ctx.t("8-GPU server", "8 卡服务器"), ctx.t(f"{sym}{req.budget:,.0f} buys", f"{sym}{req.budget:,.0f} 能买")],
                     rows)
    head = ctx.t(f"**What {sym}{req.budget:,.0f} buys** (new, price-table estimates, cards × 8 per server; a server's CPUs, "
                 "networking and support add to it, so get quotes):",
                 f"**{sym}{req.budget:,.0f} 能买多少**（全新，价格表估计，按单卡 × 8 算一台；整机的 CPU、网络和维保另加，请以报价为准）：")
    ask = "" if req.model else ctx.t(
        "\n\n**What will it run?** The pick turns on the workload: the models (7B-70B dense, or a 400B+ MoE), "
        "training or serving, and the load (users, tokens a day). Memory per card decides what one server holds "
        "(8 × 80 GB = 640 GB: a 70B for training with sharding, or a 405B in FP8 only just; 8 × 141 GB = 1.1 TB: "
        "DeepSeek-V3 in FP8), bandwidth sets serving speed, and CUDA vs ROCm the porting work. Tell me the models "
        "and the load for a sized plan.",
        "\n\n**准备跑什么？** 选哪种卡取决于任务：模型（7B-70B 稠密，还是 400B 以上的 MoE）、训练还是推理、负载（并发、每天 token 量）。"
        "每卡显存决定一台装得下什么（8 × 80 GB = 640 GB：能分片训练 70B，405B FP8 只是勉强；8 × 141 GB = 1.1 TB：DeepSeek-V3 "
        "FP8），带宽决定推理速度，CUDA 还是 ROCm 决定移植工作量。告诉我模型和负载，给你算具体方案。")
    return head + "\n\n" + table + ask


def per_dollar_verdict(cards: list[tuple[str, str, float]], zh: bool, catalog=None) -> str | None:
    """Which card wins for which work, per unit of rent: decode at small and medium batches is bound by memory
    bandwidth (GB/s per $/h decides), prefill, large batches and training by dense compute (TFLOPS per $/h), the
    model size and concurrency by memory (GB per $/h). [(gpu id, label, rent per GPU-hour)] -> the verdict line."""
    from knowledge.catalog import default_catalog

    catalog = catalog or default_catalog()
    rows = []
    for gid, label, rent in cards:
        try:
            g = catalog.gpu(gid)[0]
        except (LookupError, ValueError, TypeError):
            return None
        if not (g.memory_bandwidth_gbps and g.bf16_dense_tflops and rent):
            return None
        rows.append((label, g.memory_bandwidth_gbps / rent, g.bf16_dense_tflops / rent, g.memory_gb / rent))
    if len(rows) != 2:
        return None
    (la, bwa, fla, mema), (lb, bwb, flb, memb) = rows

    def win(x: float, y: float) -> tuple[str, float]:
        return (la, x / y) if x >= y else (lb, y / x)

    bw, fl, mem = win(bwa, bwb), win(fla, flb), win(mema, memb)
    if zh:
        return (f"**按租金算的结论**：解码为主的推理（小到中等批量，受带宽限制）选 **{bw[0]}**（每元带宽 {bw[1]:.1f} 倍）；"
                f"预填充多、大批量或训练（受算力限制）选 **{fl[0]}**（每元稠密算力 {fl[1]:.1f} 倍）；"
                f"每元显存 {mem[0]} 多 {mem[1]:.1f} 倍。" + ("同一张卡两头都赢：选它。" if bw[0] == fl[0] else ""))
    return (f"**Verdict at these rents**: for decode-heavy inference (small to medium batches, bound by memory bandwidth) "
            f"**{bw[0]}** ({bw[1]:.1f}× the bandwidth per dollar); for prefill-heavy, large-batch serving or training "
            f"(bound by compute) **{fl[0]}** ({fl[1]:.1f}× the dense compute per dollar); memory per dollar: {mem[0]} "
            f"({mem[1]:.1f}×)." + (" One card wins both: pick it." if bw[0] == fl[0] else ""))


def spec(ctx: Ctx) -> Answer:
    from knowledge.lookups import LookupGpuInput, lookup_gpu

    name = ctx.req.gpu
    g = ctx.call("lookup_gpu", {"name": name}, lookup_gpu(LookupGpuInput(name=name), ctx.deps.catalog)).gpu
    rows = [[k, "-" if v is None else str(v)] for k, v in g.model_dump().items()
            if k in ("memory_gb", "memory_type", "memory_bandwidth_gbps", "bf16_dense_tflops", "fp16_dense_tflops", "fp8_dense_tflops",
                     "int8_dense_tops", "interconnect", "nvlink_gbps", "tdp_w", "market_notes")]
    cite = Citation(source=f"gpus.yaml#{g.id}", title=g.name, snippet=g.source[:200], as_of=g.as_of)
    text = T(ctx.lang, "spec_head", name=g.name) + "\n\n" + md_table(["", ""], rows) + sources_md(
        ctx.lang, [Citation(source=f"gpus.yaml#{g.id}", title=g.source[:120], snippet="", as_of=g.as_of)])
    figures = {k: getattr(g, k) for k in ("memory_gb", "memory_bandwidth_gbps", "bf16_dense_tflops", "fp16_dense_tflops",
                                          "fp8_dense_tflops", "int8_dense_tops", "nvlink_gbps", "tdp_w")}
    return Answer(answer=text, lang=ctx.lang, intent="spec", figures=figures, citations=[cite], tool_calls=ctx.calls)


TIER_MODELS = ("llama-3.1-8b", "qwen2.5-32b", "llama-3.1-70b")  # a small, a mid and a large open model: what a
# purchase looks like at each size when no model is named


def _named_machine_first(ctx: Ctx, answer: Answer) -> Answer:
    """'听说 Mac Studio 512G 就能跑满血 R1，靠谱吗？还有别的方案吗？': the one machine named is judged first (whether it
    holds the model, in which format, how fast), then the ranked options; it is never set aside as unused."""
    req = ctx.req
    if "gpu" not in req.stated or len(set(req.gpus or [req.gpu])) != 1 or not req.model or ctx.one_of_several:
        return answer
    from assistant.planner import plan

    try:
        sub = req.model_copy(update={"intent": "inference_speed", "purchase": None, "budget": None,
                                     "num_gpus": req.num_gpus or 1})
        x = plan(sub, ctx.deps, ctx.question, one_of_several=True)
    except Exception:  # the machine cannot be judged: the ranking stands (logged, never a traceback)
        log.exception("judging the named machine failed")
        return answer
    f = x.figures
    if x.status != "answered" or not f.get("decode_tokens_per_s_per_seq"):
        return answer
    fmt = str(f.get("precision") or (x.request or {}).get("precision") or "")
    gpu = ctx.gpu()
    n = req.num_gpus or 1
    caveat = ""
    if req.full_model and fmt and fmt != ctx.model().native_precision:
        caveat = ctx.t(f" Only as a {fmt} quantized version, **not the full model** you asked for.",
                       f"只能跑 {fmt} 量化版，**不是满血**。")
    if not f.get("fits"):
        line = ctx.t(f"**On the {gpu.name} you named:** it does not hold {ctx.model().name} in any format on {n} unit(s).",
                     f"**你说的 {gpu.name}：** {n} 台放不下 {ctx.model().name}（任何格式都不行）。")
    else:
        line = ctx.t(f"**On the {gpu.name} you named:** it holds {ctx.model().name} in {fmt} ({f.get('per_gpu_gb', 0):,.0f} GB)."
                     f"{caveat} Speed (roofline estimate): {f['decode_tokens_per_s_per_seq']:,.1f} tokens/s for each of "
                     f"{f.get('batch') or 1} at once ({f.get('decode_tokens_per_s_total', 0):,.0f} in all), first token after "
                     f"{f.get('ttft_s', 0):,.1f} s for a 2,048-token prompt.",
                     f"**你说的 {gpu.name}：** 放得下 {ctx.model().name} 的 {fmt}（{f.get('per_gpu_gb', 0):,.0f} GB）。{caveat}"
                     f"速度（roofline 估算）：同时 {f.get('batch') or 1} 路时每路 {f['decode_tokens_per_s_per_seq']:,.1f} token/秒"
                     f"（合计 {f.get('decode_tokens_per_s_total', 0):,.0f}），2,048 token 的输入首 token 要 {f.get('ttft_s', 0):,.1f} 秒。")
    ctx.used.add("gpu")
    body = answer.answer
    first, sep, rest = body.partition("\n\n")
    text = first + "\n\n" + line + (sep + rest if sep else "")
    text = re.sub(r"\n- (?:GPU|gpu) [^\n]*(?:does not use it|用不到它)", "", text)
    return answer.model_copy(update={"answer": text, "tool_calls": answer.tool_calls + x.tool_calls})


def purchase(ctx: Ctx) -> Answer:
    """'What should I buy with ~$5k to run a 70B model?': machines to own, ranked by what the budget buys."""
    from tools.purchase import PurchaseRequest, plan_purchase

    req, lang = ctx.req, ctx.lang
    if not req.model and not req.largest_model and req.method in (None, "inference") and not ctx.one_of_several:
        return _purchase_tiers(ctx)
    if not req.model:
        ctx.assume("Llama-3.1-8B", "Llama-3.1-8B（未指定模型）")
    model, _ = ctx.deps.catalog.model(req.model or "llama-3.1-8b")
    named = []
    for mid in dict.fromkeys(req.models or []):
        try:
            named.append(ctx.deps.catalog.model(mid)[0])
        except (LookupError, ValueError):
            continue  # (a name the catalog lacks is asked about elsewhere; the machine is sized for those it has)
    if len(named) >= 2:  # 'Qwen2.5-7B / Llama-3.1-8B 的全参微调，买什么卡': one machine, sized for the largest of them
        model = max(named, key=lambda m: m.params_total)
        ctx.used.add("models")
        ctx.assume(f"one machine for {' / '.join(m.name for m in named)}: sized for the largest, {model.name} (a machine "
                   "that holds it holds the others)",
                   f"一台机器跑 {' / '.join(m.name for m in named)}：按最大的 {model.name} 计算（放得下它就放得下其他）")
    task = req.method if req.method in ("lora", "qlora", "full") else "inference"
    several = [m for m in ("full", "lora", "qlora") if m in (req.methods or [])]
    if task == "inference" and several:  # 'LoRA 和全参微调': the machine is sized for the most demanding of them
        task = several[0]
        ctx.used.add("methods")
        ctx.assume(f"sized for {task} fine-tuning, the most demanding of those named (a machine that holds it holds the "
                   "others)", f"按所列方法里最吃显存的 {task} 计算（放得下它就放得下其他方法）")
    cur = req.currency or ("CNY" if ctx.zh else "USD")
    if len(req.gpus) >= 2 or req.gpu:
        names = req.gpus if len(req.gpus) >= 2 else [req.gpu]
        candidates = [ctx.gpu(g) for g in names]
    else:
        candidates = allowed_cards(ctx, list(ctx.deps.catalog.gpus))
    if not (req.context or req.seq_len) and req.prompt_len:
        # ('RAG with ~6k-token prompts'): each conversation is the prompt and its answer
        out = req.output_len or 512
        context = req.prompt_len + out
        ctx.used |= {"prompt_len", "output_len"}
        ctx.assume(f"context {context:,} = your {req.prompt_len:,}-token prompts + {out} output",
                   f"上下文 {context:,} = 你的 {req.prompt_len:,} token 输入 + 输出 {out}")
    else:
        context = req.context or req.seq_len or 4096
        if not (req.context or req.seq_len):
            ctx.assume(f"context {context}", f"上下文 {context}")
    users = req.concurrent_users or 1
    if not req.concurrent_users and (req.team_size or req.daily_active_users):
        # '给公司 100 来号人用': the people's busiest moment, not one user (a share of them, said)
        from tools.serve_load import peak_in_flight

        people = req.team_size or req.daily_active_users
        users, share = peak_in_flight(req.team_size, req.daily_active_users)
        ctx.used |= {"team_size", "daily_active_users"}
        ctx.assume(f"{users} requests in flight at the busiest moment = {share:.0%} of {people:,} people (state your peak "
                   "concurrency to replace it)",
                   f"最忙时同时处理 {users} 个请求 = {people:,} 人的 {share:.0%}（给出实际峰值并发可替换）")
    served = bool(re.search(r"idc|机柜|机房|数据中心|内部|团队|公司|企业|客服|线上|" + w(
        r"data[\s-]?cent(?:er|re)|rack|colo\w*|internal\w*|team|company|enterprise|production|customers?|products?|"
        r"saas|startup|business|commercial|service") + r"|产品|业务|商用|上线",
        ctx.question.lower())) or bool(req.team_size)
    if not req.concurrent_users and task == "inference":
        ctx.assume("one user" + (" (a served deployment: served formats, not GGUF home files)" if served else ""),
                   "单用户" + ("（机房/团队部署：按服务化格式，不用 GGUF）" if served else ""))
    ctx.used |= {k for k in ("precision", "tokens_per_s_per_user", "used") if k in req.stated}
    args = {"model": model.id, "task": task, "currency": cur, "budget": req.budget, "context": context, "users": users,
            "host_owned": bool(req.host_owned), "power_limit_w": req.power_limit_w, "rack_units": req.rack_units,
            "format": req.precision if "precision" in req.stated else None, "min_tokens_per_s": req.tokens_per_s_per_user,
            "exclude_vendors": req.exclude_vendors, "only_vendors": req.only_vendors, "exclude_gpus": req.exclude_gpus,
            "gpus": [g.id for g in candidates] if len(candidates) < 10 else "all", "prefer_low_power": bool(req.quiet),
            "served": served}
    host_price = req.host_price_per_server if not req.host_owned else None
    if host_price:  # '主板 CPU 电源内存这些平台大概 1 万': the user's host, not the assumed one
        args["host_price"] = host_price
        ctx.used.add("host_price_per_server")
    if req.gpu_purchase_prices:  # (the prices reach the tool through the price records; named in the call)
        args["your_purchase_prices"] = dict(req.gpu_purchase_prices)
        if req.used_gpus:
            args["your_used_cards"] = list(req.used_gpus)
        ctx.used |= {"gpu_purchase_prices", "used_gpus", "purchase_price"}
    def buy(t: str):
        return ctx.call("plan_purchase", args | {"task": t}, plan_purchase(PurchaseRequest(
            model=model, task=t, gpus=candidates, prices=ctx.deps.prices(), currency=cur, budget=req.budget,
            context=context, users=users, host_owned=bool(req.host_owned), power_limit_w=req.power_limit_w,
            rack_units=req.rack_units, host_price=host_price,
            format=req.precision if "precision" in req.stated else None, min_tokens_per_s=req.tokens_per_s_per_user,
            prefer_low_power=bool(req.quiet), served=served, buyable=buyable)))
    # ('4090、L20、H20 都能买到'): the buyer's own word that the cards named are available to them
    buyable = list(req.gpus) if re.search(r"都能买到|都买得到|能买到|买得到|可以买到|有渠道|(?<![a-z])(?:we can (?:buy|get|source)|"
                                         r"available to us|can source)(?![a-z])", ctx.question.lower()) else []
    if buyable:
        args["buyable"] = buyable
    res = buy(task)
    for lighter in several[1:] if req.budget else []:
        # 'LoRA 和全参微调' where the budget buys no machine for the full fine-tune: the next method asked, said
        if any(o.within_budget for o in res.options):
            break
        ctx.notes.append(ctx.t(f"no machine within the budget holds {task} fine-tuning of {model.name}: sized for "
                               f"{lighter}, the next method you named", f"预算内没有机器放得下 {model.name} 的 {task} 微调："
                               f"改按你提到的下一种方法 {lighter} 计算"))
        task = lighter
        res = buy(task)
    if req.quiet:
        ctx.used.add("quiet")
    if not res.options and len(req.gpus) >= 2 and task in ("full", "lora", "qlora") and not req.budget:
        # '70B 全参微调：H800、A800、H20、L20 选哪个': no single machine holds the job, so the named cards are compared as the
        # multi-server plans the job needs (count, time, cost), not as an empty purchase table
        ctx.notes.append(ctx.t("no single 8-GPU machine of these cards holds the job: compared as multi-server plans",
                               "这几种卡没有一台 8 卡机器放得下这个任务：按多机方案比较"))
        ctx.req = req.model_copy(update={"purchase": None})
        return recommend(ctx)
    sym = "¥" if cur == "CNY" else "$"
    money = lambda x: "-" if x is None else f"{sym}{x:,.0f}"
    cond = lambda o: ctx.t(o.condition or "", {"new": "新", "used": "二手"}.get(o.condition or "", ""))
    top = res.options[0] if res.options else None
    within = [o for o in res.options if o.within_budget is not False]
    lines = []
    if top and top.within_budget is not False:
        speed = ((ctx.t(f", about {top.tokens_per_s:g} tokens/s for one stream", f"，单路约 {top.tokens_per_s:g} token/s")
                  if users == 1 else ctx.t(f", about {top.tokens_per_s:g} tokens/s for each of {users} users at once",
                                           f"，{users} 路同时时每路约 {top.tokens_per_s:g} token/s"))
                 if top.tokens_per_s else "")
        lines.append(ctx.t(
            f"**Buy: {top.num_gpus}× {top.name} ({top.condition}), about {money(top.total)} for the whole machine** — "
            f"{model.name} in {top.format}{speed}.",
            f"**建议购买：{top.num_gpus} 张 {top.name}（{cond(top)}），整机约 {money(top.total)}** —— {model.name} 用 "
            f"{top.format}{speed}。"))
        served = req.team_size or req.daily_active_users or (users if users >= 10 else 0)
        if task == "inference" and served and top.total and (not req.budget or 2 * top.total <= req.budget):
            # ('200 internal users, $60k budget: one GPU?'): a service people rely on has no single point of failure
            lines.append(ctx.t(
                f"For a service {served:,} people rely on, buy two of it ({money(2 * top.total)}"
                + (f", within your {money(req.budget)}" if req.budget else "") + "): one box is a single point of failure "
                "(a driver update or a dead fan takes everyone offline), and the second doubles the users it carries.",
                f"给 {served:,} 人用的服务，建议买两套（{money(2 * top.total)}" + (f"，在 {money(req.budget)} 预算内" if req.budget else "")
                + "）：一台机器就是单点故障（升级驱动、坏一个风扇，所有人都停），第二套还能让承载的人数翻倍。"))
    elif top:
        lines.append(ctx.t(
            f"**Nothing in the price table runs {model.name} within {money(req.budget)}.** The nearest: "
            f"{top.num_gpus}× {top.name} ({top.condition}) in {top.format}, about {money(top.total)} "
            f"({_purchase_why(ctx, top, money)}).",
            f"**价格表里没有能在 {money(req.budget)} 内跑 {model.name} 的方案。** 最接近的：{top.num_gpus} 张 {top.name}"
            f"（{cond(top)}），{top.format}，约 {money(top.total)}（{_purchase_why(ctx, top, money)}）。"))
    else:
        lines.append(ctx.t(f"**No card with a purchase price holds {model.name} in one machine.**",
                           f"**有购买价格的卡里，没有一台机器放得下 {model.name}。**"))
    if top and task == "inference":  # the memory behind the pick: weights per format and the KV cache of the load
        memory = _memory_behind_pick(ctx, model, top.gpu, context, users)
        if memory:
            lines.append(memory)
    elif top and top.num_gpus and top.per_gpu_gb:  # a training pick: the job's total, and serving on the same machine
        from assistant.plans.infer import fits_on

        gpu = ctx.gpu(top.gpu)
        total = top.per_gpu_gb * top.num_gpus
        try:
            serve = fits_on(model, gpu, top.num_gpus, model.native_precision, context)
        except ValueError:
            serve = None
        lines.append(ctx.t(f"Memory: {task} needs about {total:,.0f} GB over the {top.num_gpus} GPUs ({top.per_gpu_gb:g} GB "
                           "each)" + (f"; serving it on the same machine: {serve.weights_total_gb:,.0f} GB of "
                                      f"{model.native_precision.upper()} weights, {'fits' if serve.fits else 'does not fit'} "
                                      f"({serve.per_gpu_gb:,.1f} GB per GPU)" if serve else "") + ".",
                           f"显存：{task} 在 {top.num_gpus} 张卡上合计约 {total:,.0f} GB（每卡 {top.per_gpu_gb:g} GB）"
                           + (f"；同一台机器做推理：{model.native_precision.upper()} 权重 {serve.weights_total_gb:,.0f} GB，"
                              f"{'放得下' if serve.fits else '放不下'}（每卡 {serve.per_gpu_gb:,.1f} GB）" if serve else "") + "。"))
    if top and task != "inference" and (top.num_gpus or 0) >= 2 and top.within_budget is not False:
        card = ctx.gpu(top.gpu)
        if not card.nvlink_gbps and card.vendor == "NVIDIA":  # a fine-tune over several PCIe cards: the link it lacks
            consumer = "consumer" in (card.form_factor or "").lower()
            lines.append(ctx.t(
                f"Link: {top.name} has no NVLink" + (" and GeForce drivers disable peer-to-peer copies" if consumer else "")
                + f", so ZeRO-3/FSDP traffic over {top.num_gpus} cards goes through PCIe"
                + (" and host memory" if consumer else "") + ": expect it slower than the hours shown when the sharded "
                "states are gathered every step; where the model's states fit one card, plain data parallelism (DDP) or "
                "ZeRO-1/2 moves less.",
                f"互联：{top.name} 没有 NVLink" + ("，GeForce 驱动也关闭了卡间 P2P" if consumer else "")
                + f"，{top.num_gpus} 张卡的 ZeRO-3/FSDP 通信走 PCIe" + ("并经过主机内存" if consumer else "")
                + "：每步都要收集切分的状态，实际会比表中小时数慢；单卡放得下模型状态时用纯数据并行（DDP）或 ZeRO-1/2 通信更少。"))
    if top and req.rack_units:
        from tools.purchase import machine_rack_units

        ctx.used.add("rack_units")
        units = machine_rack_units(ctx.gpu(top.gpu), top.num_gpus or 1)
        lines.append(ctx.t(f"Space: the machine takes about {units}U of your {req.rack_units}U (machines taller than the "
                           "space were left out).",
                           f"空间：这台机器约占 {units}U（你有 {req.rack_units}U；更高的机器已排除）。"))
    if top and top.power_w and req.power_limit_w:
        fit = int(req.power_limit_w // top.power_w)
        lines.append(ctx.t(f"Power: one machine draws about {top.power_w:,.0f} W of your {req.power_limit_w:,.0f} W"
                           + (f"; {fit} such machines fit in it." if fit >= 2 and req.power_limit_w >= 5000 else "."),
                           f"功率：一台约 {top.power_w:,.0f} W（你有 {req.power_limit_w:,.0f} W）"
                           + (f"；这个功率下能放 {fit} 台。" if fit >= 2 and req.power_limit_w >= 5000 else "。")))
    elif top and top.power_w and top.within_budget is not False:  # no limit stated: the draw, and when a wall outlet
        # cannot carry it (a 15 A / 120 V US outlet: 1,440 W continuous at 80%; a 10 A / 220 V one: 1,760 W)
        big = top.power_w > OUTLET_W
        if (top.num_gpus or 0) >= 8:  # an 8-GPU server: a rack's feed, whatever the outlet
            lines.append(ctx.t(f"Power: about {top.power_w:,.0f} W at the wall under load: a server-room feed (rack PDU, "
                               "often 3-phase), not office outlets.",
                               f"功率：满载约 {top.power_w:,.0f} W：需要机房供电（机柜 PDU，常为三相），不能接普通插座。"))
        else:
            lines.append(ctx.t(f"Power: about {top.power_w:,.0f} W at the wall under load"
                               + (f": more than one ordinary outlet carries ({OUTLET_W:,} W continuous on 15 A / 120 V); "
                                  + ("it needs a 20 A circuit (1,920 W)." if top.power_w <= 1920 else
                                     "it needs a dedicated 220-240 V circuit.") if big else "."),
                               f"功率：满载约 {top.power_w:,.0f} W" + ("：超过普通家用插座（10 A / 220 V 连续约 1,760 W），需要 "
                                                                     "16 A 专用线路。" if top.power_w > 1760 else "。")))
    tdp = ctx.deps.catalog.gpu(top.gpu)[0].tdp_w if top else None
    if req.quiet and tdp and tdp >= 300 and top.within_budget is not False and top.num_gpus:
        cap = int(tdp * 0.7 // 10 * 10)
        lines.append(ctx.t(f"Quiet and cooler: cap the card at ~{cap} W (`sudo nvidia-smi -pl {cap}`); decode is bound by "
                           "memory bandwidth, so a power cap costs it little (prompt processing slows more).",
                           f"想安静、少发热：把显卡功耗限制在约 {cap} W（`sudo nvidia-smi -pl {cap}`）；解码受显存带宽限制，限功耗对它"
                           "影响不大（处理长提示会慢一些）。"))
    named_vendors = [v for v, pat in (("NVIDIA", r"nvidia|英伟达|n卡"), ("AMD", r"(?<![a-z])amd(?![a-z])|a卡"),
                                      ("Huawei", r"huawei|ascend|华为|昇腾")) if re.search(pat, ctx.question.lower())]
    if len(named_vendors) >= 2 and res.options:  # 'nvidia or amd?': each vendor's best, side by side
        cards = {g.id: g for g in ctx.deps.catalog.gpus}
        best_of = [(v, next((o for o in res.options if cards.get(o.gpu) and cards[o.gpu].vendor == v), None))
                   for v in named_vendors]
        parts = [ctx.t(f"{v}: {o.num_gpus}× {o.name}, {money(o.total)}, {o.tokens_per_s:g} tokens/s per user"
                       if o.tokens_per_s else f"{v}: {o.num_gpus}× {o.name}, {money(o.total)}",
                       f"{v}：{o.num_gpus} 张 {o.name}，{money(o.total)}" + (f"，每路 {o.tokens_per_s:g} token/s" if o.tokens_per_s else ""))
                 if o else ctx.t(f"{v}: nothing in the table holds it", f"{v}：表里没有放得下的")
                 for v, o in best_of]
        lines.append(ctx.t("Each vendor's best: ", "各家最优：") + ("；" if ctx.zh else "; ").join(parts) + ctx.t(".", "。"))
    from tools.purchase import MIN_USABLE_TOKENS_PER_S

    usable = [o for o in within or [] if o.tokens_per_s is None or o.tokens_per_s >= MIN_USABLE_TOKENS_PER_S]
    if len(usable) > 1 and req.budget:  # (a machine too slow for the users is not one that 'runs it')
        cheap = min(usable, key=lambda o: o.total)
        if cheap is not top:
            lines.append(ctx.t(f"Cheapest that runs it: {cheap.num_gpus}× {cheap.name} ({cheap.condition}) in {cheap.format}, "
                               f"{money(cheap.total)}.",
                               f"能跑的最便宜方案：{cheap.num_gpus} 张 {cheap.name}（{cond(cheap)}），{cheap.format}，"
                               f"{money(cheap.total)}。"))
    speed_head = (ctx.t("tokens/s (1 stream)", "单路 token/s") if users == 1 else
                  ctx.t(f"tokens/s per user ({users} at once)", f"每路 token/s（{users} 路同时）")) if task == "inference" else ctx.t("hours / 100M tokens",
                                                                                                "小时 / 1 亿 token")
    rows = [[str(o.rank), o.name, str(o.num_gpus), o.format or "-", f"{o.per_gpu_gb:g}", f"{money(o.price_per_card)} "
             f"({cond(o)})", money(o.total),
             "-" if (o.tokens_per_s if task == "inference" else o.hours) is None else
             f"{(o.tokens_per_s if task == 'inference' else o.hours):g}", _purchase_why(ctx, o, money)]
            for o in res.options[:8]]
    head = ["#", ctx.t("card", "卡"), ctx.t("count", "张数"), ctx.t("format", "格式"), "GB/GPU",
            ctx.t("price per card", "单卡价格"), ctx.t("whole machine", "整机"), speed_head, T(lang, "why")]
    unpriced = [o.name for o in res.rejected if o.total is None and o.price_per_card is None]
    named = len(candidates) <= 4  # ('H20、L20、910B 选哪个？各需要几张？'): each card the user named is sized, priced or not
    if unpriced and (not within or named) and task == "inference" and len(candidates) < 10:  # (a short list the user narrowed)
        # '信创 … 预算 100 万 … 买啥' where the only priced card is over budget: a card that has no price on file may
        # still be the answer; its fit is said, and a quote asked for, instead of 'nothing runs it'
        from assistant.plans.infer import fits_on

        fit_lines = []
        for o in res.rejected:
            if o.total is not None or o.price_per_card is not None:
                continue
            g = ctx.gpu(o.gpu)
            from tools.formats import supported_on

            for fmt in dict.fromkeys([model.native_precision] + [f for f in ("fp8", "int8") if supported_on(f, g)[0]]):
                try:
                    x = fits_on(model, g, 8, fmt, context, users)
                except ValueError:
                    continue
                if x.fits:
                    least = x.min_gpus or 8
                    fit_lines.append(ctx.t(f"{o.name}: {least} cards hold it in {fmt} (memory for {users} × {context:,} "
                                           "tokens), but the price table has no purchase price for it: get a quote for "
                                           "an 8-card server and compare it with your budget",
                                           f"{o.name}：{least} 张就能放下（{fmt}，{users} 路 × {context:,} token），但价格表里没有它的"
                                           "购买价：请拿一台 8 卡整机的报价和预算对比"))
                    break
        if fit_lines:
            fit_lines = fit_lines[:3]
            lines.insert(1, (ctx.t("**Not priced (get a quote to compare)**: ", "**没有报价（拿到报价再比较）**：") if within else
                             ctx.t("**Not priced, may fit the budget**: ", "**没有报价、可能在预算内**：")) +
                         ctx.t("; ", "；").join(fit_lines) + ctx.t(".", "。"))
    notes = list(ctx.notes) + res.assumptions
    if unpriced and len(candidates) < 10:
        notes.append(ctx.t("no purchase price in the table (add your quote to your prices file): " + ", ".join(unpriced),
                           "价格表里没有购买价（可在价格文件中加入报价）：" + "、".join(unpriced)))
    route = _experts_in_ram_route(ctx, model, candidates, cur, money) \
        if task == "inference" and not within and req.budget and model.moe is not None else []
    text = "\n".join(lines) + "\n\n" + md_table(head, rows) + ("\n\n" + "\n".join(route) if route else "") + \
        assumptions_md(lang, notes)
    verdict = (Verdict(fits=True, gpu=top.gpu, num_gpus=top.num_gpus, method=task, per_gpu_gb=top.per_gpu_gb,
                       ) if top else None)
    figures = {"total": top.total if top else None, "currency": cur, "format": top.format if top else None,
               "tokens_per_s": top.tokens_per_s if top else None, "within_budget": top.within_budget if top else None}
    for o in res.options:  # each card's machine: what a choice across several jobs weighs (multi_ask)
        if o.total is not None and f"machine_total:{o.gpu}" not in figures:
            figures |= {f"machine_total:{o.gpu}": o.total, f"machine_gpus:{o.gpu}": o.num_gpus,
                        f"machine_power_w:{o.gpu}": o.power_w}
    return Answer(answer=text, lang=lang, intent="recommend", verdict=verdict, tool_calls=ctx.calls, figures=figures,
                  options=[Verdict(fits=True, gpu=o.gpu, num_gpus=o.num_gpus, method=task, per_gpu_gb=o.per_gpu_gb)
                           for o in res.options])


SERVER_RAM_BANDWIDTH_GBPS = 307.2  # one socket of 8-channel DDR5-4800 (EPYC 9004 / Xeon 4th gen): 8 x 64 bit x 4800 MT/s


def _experts_in_ram_route(ctx: Ctx, model, candidates, cur: str, money) -> list[str]:
    """A large MoE model no GPU machine in the budget holds: the route people take at home (llama.cpp `-ot exps=CPU`,
    KTransformers): attention and the KV cache on one 24-48 GB card, the routed experts in a server's RAM, read at its
    bandwidth for the few experts each token uses. Speed and memory from the offload tool; the card's price from the
    table; the server platform and RAM are not in the price table, so they are named, not priced."""
    from tools.offload import OffloadRequest, plan_offload
    from tools.purchase import price_of

    cards = sorted(((price_of(ctx.deps.prices(), g, cur), g) for g in candidates
                    if g.vendor == "NVIDIA" and 20 <= g.memory_gb <= 48 and g.usable_share is None and
                    g.memory_bandwidth_gbps and "PCIe" in (g.form_factor or "PCIe") and not g.modified),
                   key=lambda pg: (pg[0] is None, pg[0][0] if pg[0] else 0))
    if not cards or cards[0][0] is None:
        return []
    (price, cond, _, _), gpu = cards[0]
    args = {"model": model.id, "gpu": gpu.id, "precision": "q4_k_m", "context": 8192, "mode": "experts",
            "ram_bandwidth_gbps": SERVER_RAM_BANDWIDTH_GBPS}
    try:
        r = ctx.call("plan_offload", args, plan_offload(OffloadRequest(
            model=model, gpu=gpu, precision="q4_k_m", context=8192, mode="experts",
            ram_bandwidth_gbps=SERVER_RAM_BANDWIDTH_GBPS)))
    except ValueError:
        return []
    ram = next((x for x in (256, 384, 512, 768, 1024, 1536) if x * 0.85 >= r.ram_gb), None)
    if ram is None:
        return []
    c = {"new": ctx.t("new", "新"), "used": ctx.t("used", "二手")}.get(cond, cond)
    full = ""
    if ctx.req.full_model:  # '满血': Q4 is a quantization; 8-bit experts are the near-lossless form, at twice the bytes
        try:
            r8 = ctx.call("plan_offload", args | {"precision": "q8_0"}, plan_offload(OffloadRequest(
                model=model, gpu=gpu, precision="q8_0", context=8192, mode="experts",
                ram_bandwidth_gbps=SERVER_RAM_BANDWIDTH_GBPS)))
        except ValueError:
            r8 = None
        ram8 = next((x for x in (512, 768, 1024, 1536, 2048) if r8 and x * 0.85 >= r8.ram_gb), None)
        if r8 and ram8:
            ctx.used.add("full_model")
            full = ctx.t(f" Q4 is quantized, not the full model you asked for: in Q8_0 (near-lossless, like the published "
                         f"FP8) the experts take {r8.ram_gb:,.0f} GB, so **{ram8} GB** of RAM, about "
                         f"{r8.decode_tokens_per_s:.0f} tokens/s.",
                         f" Q4 是量化版，不是你要的满血：Q8_0（接近官方 FP8，几乎无损）的专家要 {r8.ram_gb:,.0f} GB，"
                         f"即 **{ram8} GB** 内存，约 {r8.decode_tokens_per_s:.0f} token/s。")
    return [ctx.t(
        f"**The route within reach: the experts in system RAM.** {model.name} in Q4_K_M keeps attention, shared experts "
        f"and the KV cache on one {gpu.name} ({r.gpu_gb:.0f} GB) and the routed experts in {r.ram_gb:,.0f} GB of RAM: a "
        f"server board with **{ram} GB** of 8-channel DDR5 ({SERVER_RAM_BANDWIDTH_GBPS:g} GB/s) decodes about "
        f"**{r.decode_tokens_per_s:.0f} tokens/s** for one user (llama.cpp `-ot \".ffn_.*_exps.=CPU\"` or "
        f"KTransformers); prompts are processed far slower than on GPUs. The card is about {money(price)} ({c}); the "
        f"board, CPU and RAM are not in the price table (quote them: used server platforms with {ram} GB vary widely). "
        "A hosted API of the same model costs nothing up front, if your data may leave the building." + full,
        f"**预算内能走的路：专家放内存。** {model.name} 用 Q4_K_M，注意力、共享专家和 KV cache 放一张 {gpu.name}"
        f"（{r.gpu_gb:.0f} GB），路由专家放 {r.ram_gb:,.0f} GB 内存：配 **{ram} GB** 8 通道 DDR5"
        f"（{SERVER_RAM_BANDWIDTH_GBPS:g} GB/s）的服务器主板，单用户解码约 **{r.decode_tokens_per_s:.0f} token/s**"
        f"（llama.cpp `-ot \".ffn_.*_exps.=CPU\"` 或 KTransformers）；处理长提示远慢于 GPU。显卡约 {money(price)}（{c}）；"
        f"主板、CPU 和内存不在价格表里（请询价：{ram} GB 的二手服务器平台价格差别很大）。如果数据可以出公司，同一模型的 API "
        "没有前期投入。" + full)]


OUTLET_W = 1_440  # a 15 A / 120 V outlet at the 80% continuous-load rule (NEC 210.19/210.20)


def _purchase_why(ctx: Ctx, o, money) -> str:
    """The purchase tool's reason for an option (tools/purchase.WHY_EN), in the answer's language, amounts in its money."""
    a = o.reason_args
    if not ctx.zh:
        amounts = {k: money(a[k]) for k in ("by", "saved", "total") if k in a}
        if o.reason == "vs_pick":
            return f"{'+' if a['diff'] >= 0 else '-'}{money(abs(a['diff']))} vs the pick"
        if o.reason == "over_budget":
            return f"over the budget by {amounts['by']}"
        if o.reason == "near_tie_beaten":
            return (f"{a['speed']:g} tokens/s, only {a['faster']:.0%} faster than the pick" + (", used" if a["used"] else "")
                    + f"; {a['cards']:g} cards, {amounts['total']}")
        if o.reason == "near_tie_pick":
            return (f"best within the budget: " + (f"in the format you asked ({a['format']}), " if a.get("asked") else
                                                     f"in {a['format']} like the fastest, " if a.get("same") else
                                                     f"{a['format']} is as good as 16-bit for inference, ")
                    + f"{a['speed']:g} tokens/s is within 15% of the fastest ({a['fastest']:g})" + (", new" if a["new"] else "")
                    + (", fewer cards" if a["fewer"] else "") + (f", {amounts['saved']} cheaper" if a["saved"] else ""))
        return o.why
    zh = {"over_budget": lambda: f"超出预算 {money(a['by'])}",
          "legacy": lambda: "Ampere 之前的架构（Volta/Turing）：没有 BF16 和 FlashAttention-2，排在新卡之后",
          "pcie_split": lambda: "拆到多张只有 PCIe 互联（没有 NVLink）的卡上：张量并行的开销比这里的估算大，每张卡都是故障点；"
                                "服务化部署排在单卡或 NVLink 方案之后" + ("（GeForce 驱动许可也不允许数据中心部署）" if a.get("geforce") else ""),
          "grey_market": lambda: "美国出口管制（3A090）禁止对华销售：国内只有水货渠道（无保修、价格不稳），价格表里的价格都不可靠；"
                                 "排在国内能正规买到的卡之后（能买到的话请填报价）",
          "slower_than_asked": lambda: f"低于你要的 {a['need']:g} token/s（{a['speed']:g}）",
          "too_slow": lambda: f"太慢（{a['speed']:g} token/s）",
          "best_in_budget": lambda: "预算内最优（格式最保真，其次最快）",
          "best_in_budget_8bit": lambda: "预算内最优（16 位或 8 位，其次最快）",
          "cheapest": lambda: "能跑的最便宜方案",
          "near_tie_pick": lambda: ("预算内最优：" + (f"按你要的格式（{a['format']}），" if a.get("asked") else
                                                    f"与最快的同为 {a['format']}，" if a.get("same") else
                                                    f"推理用 {a['format']} 与 16 位效果相当，") + f"{a['speed']:g} token/s 与最快的"
                                    f"（{a['fastest']:g}）相差不到 15%" + ("，全新" if a["new"] else "")
                                    + ("，卡更少" if a["fewer"] else "") + (f"，便宜 {money(a['saved'])}" if a["saved"] else "")),
          "near_tie_beaten": lambda: (f"{a['speed']:g} token/s，只比首选快 {a['faster']:.0%}" + ("，二手" if a["used"] else "")
                                      + f"；{a['cards']:g} 张，{money(a['total'])}"),
          "only_fits": lambda: f"只放得下 {a['format']}",
          "slower": lambda: f"更慢（{a['speed']:g} 对 {a['best']:g} token/s）",
          "vs_pick": lambda: f"比首选{'贵' if a['diff'] >= 0 else '省'} {money(abs(a['diff']))}"}
    return zh[o.reason]() if o.reason in zh else o.why


TIER_PRODUCT_USERS = 10  # a product's first load, said as an assumption, when the tiers are sized with no users stated


def _purchase_tiers(ctx: Ctx) -> Answer:
    """'We need to buy GPUs to run an LLM for our support team, budget $40k. What should we get?': the machine hinges on
    the model (and the users at once), so the answer asks, and shows what the budget buys at three model sizes meanwhile."""
    from assistant.context import Ctx as _Ctx

    req = ctx.req
    lines, figures = [], {}
    product = bool(re.search(r"产品|业务|商用|上线|客户|" + w(r"products?|saas|startup|business|commercial|customers?|"
                                                         r"production|company|enterprise"), ctx.question.lower()))
    assumed_users = None if req.concurrent_users or not product else TIER_PRODUCT_USERS
    from assistant.readers.slots import FINETUNE_CUE

    tunes = req.method in ("lora", "qlora", "full") or bool(re.search(FINETUNE_CUE, ctx.question.lower()))
    # ('what GPU should I buy for fine-tuning LLMs?'): each size with the fine-tuning method people use at that size
    tier_method = dict(zip(TIER_MODELS, ("lora", "qlora", "qlora"))) if tunes and req.method not in ("lora", "qlora", "full") \
        else {m: req.method for m in TIER_MODELS} if tunes else {}
    for mid in TIER_MODELS:  # (the cheapest machine that runs each size: a budget is a ceiling, not a target)
        update = {"model": mid, "budget": None}
        if tunes:
            update |= {"method": tier_method[mid], "concurrent_users": None}
        if assumed_users:  # a product serves many people from a server: no single-user desk machines, no Macs
            update |= {"concurrent_users": assumed_users,
                       "exclude_vendors": list(dict.fromkeys([*(req.exclude_vendors or []), "Apple"]))}
        sub = _Ctx(req=req.model_copy(update=update), deps=ctx.deps, question=ctx.question, one_of_several=True)
        a = purchase(sub)
        ctx.calls += sub.calls
        pick = next((x for x in a.answer.splitlines() if x.startswith(("**Buy", "**建议购买", "**Nothing", "**预算内"))), None)
        name = ctx.deps.catalog.model(mid)[0].name + (f" {tier_method[mid].upper() if tier_method[mid] != 'full' else ctx.t('full fine-tune', '全参微调')}"
                                                      if tunes else "")
        if pick:
            lines.append(f"- {name}: " + pick)
            figures[f"tier:{mid}"] = (a.figures or {}).get("total") or 0
    limits = [x for x in (ctx.t(f"{req.power_limit_w:,.0f} W", f"{req.power_limit_w:,.0f} W") if req.power_limit_w else "",
                          ctx.t(f"{req.rack_units}U", f"{req.rack_units}U") if req.rack_units else "") if x]
    if limits:  # (each tier's machine was chosen within them)
        lines.append(ctx.t("Each machine above is within your " + " and ".join(limits) + ".",
                           "以上每台机器都在你的 " + "、".join(limits) + " 以内。"))
        ctx.used |= {"power_limit_w", "rack_units"}
    ctx.used |= {"daily_active_users", "team_size", "concurrent_users"}
    users = ctx.t("" if req.concurrent_users else " and how many people will use it at the same time",
                  "" if req.concurrent_users else "，以及同时有多少人在用")
    asked_method = "method" in req.stated and req.method and (req.method != "inference" or re.search(
        r"推理|部署|上线|" + w(r"inference|serv\w*|deploy\w*|run(?:ning)?|host\w*|chat\w*"), ctx.question.lower()))
    job = ctx.t(" Will it only serve the model, or also fine-tune or train it?" if not asked_method else "",
                "只做推理服务，还是也要微调或训练？" if not asked_method else "")
    load_en = (f" ({assumed_users} users at once, an assumption for a product)" if assumed_users else
               "" if req.concurrent_users else " (one user at a time)")
    load_zh = (f"（按同时 {assumed_users} 人，产品场景的假设）" if assumed_users else "" if req.concurrent_users else "（按单用户）")
    head = ctx.t(f"**Which model will you run{users}?**{job} The machine depends on it; the cheapest machine that serves "
                 f"each of three sizes{load_en}:",
                 f"**打算跑哪个模型{users}？**{job}买什么取决于它；按三种规模，能跑推理的最省机器{load_zh}：")
    if tunes:
        head = ctx.t("**Which model size, and which method (LoRA, QLoRA or a full fine-tune)?** The machine depends on "
                     "them; the cheapest machine that fine-tunes each of three sizes with the method usual at that size:",
                     "**微调多大的模型、用什么方法（LoRA、QLoRA 还是全参）？**买什么取决于它；按三种规模、各用该规模常见的方法，"
                     "能做微调的最省机器：")
        lines.append(ctx.t("A full fine-tune needs about 16 bytes per parameter of weights, gradients and Adam states "
                           "(an 8B model: ~128 GB before activations): several 80 GB cards, usually rented for the run "
                           "rather than bought.",
                           "全参微调的权重、梯度和 Adam 状态约每参数 16 字节（8B 模型约 128 GB，还没算激活）：要好几张 80 GB 的卡，"
                           "一般按次租用而不是买。"))
    if req.budget:
        cur = "¥" if req.currency == "CNY" else "$"
        top = _Ctx(req=req.model_copy(update={"model": TIER_MODELS[-1]} | ({"method": tier_method[TIER_MODELS[-1]]}
                                                                            if tunes else {})),
                   deps=ctx.deps, question=ctx.question, one_of_several=True)
        best = purchase(top)
        ctx.calls += top.calls
        got = next((x for x in best.answer.splitlines() if x.startswith(("**Buy", "**建议购买", "**Nothing in the price table",
                                                                         "**价格表里没有能在"))), None)
        # (a budget short of the largest size says so, with the nearest machine: what the money reaches, either way)
        if got:  # what the whole budget buys at the largest size: the scale of machine the money reaches
            lines.append(ctx.t(f"The most your {cur}{req.budget:,.0f} buys (sized for "
                               f"{ctx.deps.catalog.model(TIER_MODELS[-1])[0].name}): " + got,
                               f"{cur}{req.budget:,.0f} 的预算最多能买到（按 {ctx.deps.catalog.model(TIER_MODELS[-1])[0].name}）："
                               + got))
        lines.append(ctx.t(f"Your {cur}{req.budget:,.0f} is a ceiling, not a target: what it leaves over buys headroom (more "
                           "users at once, longer contexts, a second machine for redundancy) or fine-tuning capacity, once "
                           "the model and load are known.",
                           f"{cur}{req.budget:,.0f} 的预算是上限，不是必须花完：剩下的钱可以买余量（更多并发、更长上下文、做冗余的第二台）"
                           "或微调算力，等模型和负载定了再定。"))
        ctx.used.add("budget")
    clar = Clarification(missing=["model"], question=ctx.t("Which model (or size)?", "是哪个模型（或多大参数）？"),
                         suggestions=[ctx.deps.catalog.model(m)[0].name for m in TIER_MODELS])
    return Answer(answer=head + "\n" + "\n".join(lines), lang=ctx.lang, intent="recommend", figures=figures,
                  tool_calls=ctx.calls, clarification=clar)


def _within_power(ctx: Ctx) -> Answer:
    """'A rack with a hard 12 kW limit: fill it with 8x L40S servers or one 8x H100 box, for the most serving
    throughput?': the whole servers of each card the power holds (an 8-GPU server draws its GPUs' TDP x 1.82, as a DGX
    H100's 10.2 kW for 8 x 700 W), each server's full-load throughput (the speed tool at the batch its KV room holds,
    up to vLLM's 256), and the rack's total; the larger total is the pick."""
    from assistant.plans.infer import _size, timed, weight_format_for, precision_ladder
    from tools.purchase import SERVER_POWER_FACTOR

    req = ctx.req
    model = ctx.model()
    ctx.used |= {"power_limit_w", "gpus", "num_gpus", "gpu", "precision", "checkpoint_format"}
    per = 8
    rows, best = [], None
    for gid in dict.fromkeys(req.gpus):
        gpu = ctx.gpu(gid)
        fmt = weight_format_for(ctx, model, gpu) or precision_ladder(ctx, model, gpu)[0]
        kw = per * gpu.tdp_w * SERVER_POWER_FACTOR / 1000
        servers = int(req.power_limit_w / 1000 // kw)
        ctx.req = req.model_copy(update={"num_gpus": per})
        try:
            r = _size(ctx, model, gpu, fmt, 1, "vllm", 2048)
            batch = max(1, min(256, r.max_batch or 1))
            sp = timed(ctx, model, gpu, num_gpus=per, precision=fmt, context=1024, output=1024, batch=batch,
                       engine="vllm") if r.fits else None
        except ValueError:
            sp = None
        finally:
            ctx.req = req
        per_server = sp.decode_tokens_per_s_total if sp else 0.0
        total = per_server * servers
        rows.append([gpu.name, f"{kw:.1f}", str(servers), f"{per_server:,.0f}" if sp else ctx.t("does not fit", "放不下"),
                     f"{total:,.0f}"])
        if servers and (best is None or total > best[1]):
            best = (gpu, total, servers, kw)
    head = ctx.t(f"**Within {req.power_limit_w / 1000:g} kW**: " + (
        f"**{best[2]} × 8× {best[0].name}** ({best[2] * best[3]:.1f} kW) give the most, about {best[1]:,.0f} output "
        "tokens/s at full load." if best else "no 8-GPU server of these cards fits the power."),
        f"**{req.power_limit_w / 1000:g} kW 以内**：" + (
            f"**{best[2]} 台 8 卡 {best[0].name}**（{best[2] * best[3]:.1f} kW）总吞吐最高，满载约 {best[1]:,.0f} 输出 token/秒。"
            if best else "这些卡的 8 卡服务器一台都放不下。"))
    table = md_table([ctx.t("8-GPU server of", "8 卡服务器"), ctx.t("kW each", "每台 kW"), ctx.t("servers in the limit", "能放几台"),
                      ctx.t("tokens/s per server", "每台 token/秒"), ctx.t("tokens/s in all", "合计 token/秒")], rows)
    ctx.notes.append(ctx.t(f"server draw = 8 × TDP × {SERVER_POWER_FACTOR:.2f} (CPUs, switches, fans: DGX H100 10.2 kW for "
                           "8 × 700 W); full-load throughput at 1,024 prompt + 1,024 output tokens, the batch each server's "
                           "KV room holds (up to 256), vLLM",
                           f"整机功耗 = 8 × TDP × {SERVER_POWER_FACTOR:.2f}（CPU、交换芯片、风扇：DGX H100 8 × 700 W 额定 10.2 kW）；"
                           "满载吞吐按输入 1,024 + 输出 1,024 token、每台 KV 放得下的并发（最多 256），vLLM"))
    return Answer(answer=head + "\n\n" + table + assumptions_md(ctx.lang, ctx.notes), lang=ctx.lang, intent="recommend",
                  tool_calls=ctx.calls, figures={"power_pick": best[0].id if best else None,
                                                 "power_pick_servers": best[2] if best else 0})


def _memory_behind_pick(ctx: Ctx, model, gpu_id: str, context: int, users: int) -> str | None:
    """'Memory: 141 GB of weights in BF16, 71 in 8-bit, 40 in 4-bit; KV 320 KiB a token, 20 × 4,096 = 27 GB': the
    engine's own figures for the model, so a buyer sees why a machine holds it."""
    from assistant.plans.infer import fits_on
    from tools.infer_memory import kv_cache_bytes, kv_cache_bytes_per_token

    gpu = ctx.gpu(gpu_id)
    sizes = []
    for fmt in ("bf16", "fp8", "awq"):
        try:
            sizes.append((fmt, fits_on(model, gpu, 1, fmt, context).weights_total_gb))
        except ValueError:
            continue
    if not sizes:
        return None
    per_tok = kv_cache_bytes_per_token(model, "bf16")
    kv = kv_cache_bytes(model, "bf16", context) * users / 1e9
    label = {"bf16": "BF16", "fp8": ctx.t("8-bit", "8 位"), "awq": ctx.t("4-bit", "4 位")}
    return ctx.t("Memory: weights " + ", ".join(f"{gb:,.0f} GB in {label[f]}" for f, gb in sizes)
                 + f"; KV cache {per_tok / 1024:,.0f} KiB a token, {users} × {context:,} tokens = {kv:,.1f} GB.",
                 "显存：权重 " + "，".join(f"{label[f]} {gb:,.0f} GB" for f, gb in sizes)
                 + f"；KV cache 每 token {per_tok / 1024:,.0f} KiB，{users} 路 × {context:,} token = {kv:,.1f} GB。")


def _weights_line(ctx: Ctx, model, cards: list, fmt: str, context: int, stated: bool) -> str:
    """'Mixtral 8x22B: 141B parameters (all experts resident; 39B active) = 282 GB of weights in BF16 (assumed); in FP8:
    4× H100, 2× H100 NVL': what the counts below are sized in, and the count each card needs in FP8 as well."""
    from assistant.plans.infer import fits_on, tp_width
    from tools.params import count_parameters

    try:
        x = fits_on(model, cards[0], 1, fmt, context)
    except ValueError:
        return ""
    moe = model.moe is not None
    counts = count_parameters(model)
    params = ctx.t(f"{counts.total / 1e9:,.0f}B parameters" + (f" (all experts resident; {counts.active / 1e9:,.0f}B active)"
                                                            if moe else ""),
                   f"{counts.total / 1e9:,.0f}B 参数" + (f"（全部专家常驻显存；激活 {counts.active / 1e9:,.0f}B）" if moe else ""))
    alt = []
    if fmt != "fp8" and not stated:
        for g in cards:
            try:
                y = fits_on(model, g, 1, "fp8", context)
            except ValueError:
                continue
            least = 1 if y.fits else y.min_gpus
            if least:
                alt.append(f"{tp_width(least)}× {g.name}")
    how = ctx.t(" (the checkpoint's own format, assumed)", "（按官方权重格式，假设）") if not stated else ""
    return ctx.t(f"**{model.name}**: {params} = **{x.weights_total_gb:,.0f} GB of weights in {fmt}**{how}; the counts below "
                 "are in that format" + (f". In FP8 (half the bytes): {', '.join(alt)}" if alt else "") + ".",
                 f"**{model.name}**：{params} = **{fmt} 权重 {x.weights_total_gb:,.0f} GB**{how}；下面的卡数按这个格式"
                 + (f"。换 FP8（字节减半）：{'、'.join(alt)}" if alt else "") + "。")


def recommend(ctx: Ctx) -> Answer:
    from tools.pricing import CNY_PER_USD
    from tools.recommend import RecommendRequest, recommend as rank

    req, lang = ctx.req, ctx.lang
    if req.power_limit_w and len(set(req.gpus)) >= 2 and req.model and req.method in (None, "inference") and \
            not req.purchase and not req.budget:
        return _within_power(ctx)
    if req.purchase:
        return _named_machine_first(ctx, purchase(ctx))
    if not req.model:
        ctx.assume("Llama-3.1-8B", "Llama-3.1-8B（未指定模型）")
    model, _ = ctx.deps.catalog.model(req.model or "llama-3.1-8b")
    serving = bool(req.concurrent_users) and req.method not in ("qlora", "lora", "full", "pretrain")
    task = "inference" if serving else req.method if req.method in ("qlora", "lora", "full", "pretrain", "inference") \
        else "lora"
    if not req.method and not serving:
        ctx.assume("LoRA", "LoRA")
    budget = req.budget / CNY_PER_USD if (req.budget and req.currency == "CNY") else req.budget
    tokens = req.tokens * (req.epochs or 1) if req.tokens else None
    if len(req.gpus) >= 2:
        candidates = [g for g in ctx.deps.catalog.gpus if g.id in req.gpus]
    else:  # the data-centre and desktop cards (Macs run other engines; they are sized, not ranked)
        candidates = allowed_cards(ctx, [g for g in ctx.deps.catalog.gpus if g.vendor != "Apple"])
        if not ctx.zh and not req.exclude_vendors and not req.only_vendors:  # an English question: cards priced only in China (Ascend, H20, ...) left out, said
            cny_only = {g.id for g in candidates if (ps := [p for p in ctx.deps.prices() if p.gpu == g.id])
                        and all(p.currency == "CNY" for p in ps)}
            if cny_only:
                candidates = [g for g in candidates if g.id not in cny_only]
                ctx.notes.append("cards priced only in China left out (" + ", ".join(sorted(cny_only)) + "); name them "
                                 "to include them")
    args = {"model": model.id, "task": task, "tokens": tokens, "budget_usd": budget, "deadline_hours": req.deadline_hours,
            "gpus": [g.id for g in candidates] if len(req.gpus) >= 2 else "all",
            "exclude_vendors": req.exclude_vendors, "only_vendors": req.only_vendors, "exclude_gpus": req.exclude_gpus}
    if req.gpu_rental_prices:  # (the prices themselves reach the tool through the price records; named in the call)
        args["your_rental_prices"] = dict(req.gpu_rental_prices)
        ctx.used.add("gpu_rental_prices")
    load = {"batch": req.concurrent_users} if (task == "inference" and req.concurrent_users) else {}
    if req.context or req.seq_len:
        load["seq_len"] = req.context if task == "inference" and req.context else (req.seq_len or req.context)
    elif task == "inference" and req.prompt_len:  # ('~6k-token prompts'): the prompt and its answer
        load["seq_len"] = req.prompt_len + (req.output_len or 512)
        ctx.used |= {"prompt_len", "output_len"}
    if task == "inference":  # 'from ONE box', '一台 8 卡机': every option is that machine; the format asked is kept
        box = req.num_gpus if req.num_gpus and req.num_gpus <= 8 and (req.nodes or 1) == 1 else None
        if box:
            load["box_gpus"] = box
            ctx.used |= {"num_gpus", "nodes", "gpus_per_node"}
        if req.precision and "precision" in req.stated:
            load["precision"] = req.precision
            ctx.used |= {"precision", "full_model"}
    if task != "inference" and req.num_gpus and "num_gpus" in req.stated and len(req.gpus) >= 2:
        load["train_gpus"] = req.num_gpus  # ('8x H100 or 8x A100 80GB: which is cheaper?'): each option at that count
        ctx.used |= {"num_gpus", "nodes", "gpus_per_node"}
    args |= load
    from assistant.plans.train import DEADLINE_SLACK

    res = ctx.call("recommend", args, rank(RecommendRequest(
        model=model, task=task, gpus=candidates, prices=ctx.deps.prices(), tokens=tokens, budget=budget,
        deadline_hours=req.deadline_hours, deadline_slack=DEADLINE_SLACK if req.deadline_hours else 0.0, **load)))
    hourly = task == "inference"  # the recommender prices inference per hour, training as the whole job
    digits = 2 if hourly else 0
    timed = not hourly and any(o.wall_hours for o in res.options[:6])  # (a training pick: each option's time beside its cost)
    rows = [[str(o.rank), o.gpu, str(o.num_gpus), f"{o.per_gpu_gb:.1f}"] + ([f"{o.wall_hours:,.1f}" if o.wall_hours else "-"]
                                                                         if timed else []) +
            ["-" if o.cost is None else ctx.money(o.cost, digits), assumption_zh(o.why) if ctx.zh else o.why]
            for o in res.options[:6]]
    top = res.options[0] if res.options else None
    cost_head = (ctx.t("cost per hour", "每小时费用") if hourly else ctx.t("job cost", "任务费用"))
    lines = [T(lang, "rec_head", model=model.name, task=task)]
    if top:
        cost = "" if top.cost is None else ctx.money(top.cost, digits) + (ctx.t("/h", "/小时") if hourly else "")
        lines += ["", T(lang, "rec_pick", gpu=top.gpu, n=top.num_gpus, cost=cost,
                        why=assumption_zh(top.why) if ctx.zh else top.why)]
    spanning = [o for o in res.options[:6] if o.num_gpus > 8]
    if task == "inference" and spanning and any(o.num_gpus <= 8 for o in res.options[:6]):
        # ('两台 H100 八卡 … 还是一台 H200 八卡'): a model split over servers is another kind of deployment
        o = spanning[0]
        lines += ["", ctx.t(f"**{o.num_gpus}× {o.gpu} is {-(-o.num_gpus // 8)} servers**: serving one model across them needs "
                            "RDMA between the servers (InfiniBand or RoCE, 200-400 Gb/s per GPU) and pipeline or expert "
                            "parallelism across them (tensor parallelism over the network is slow), with more to set up and "
                            "more that can fail; one server that holds the model avoids all of it.",
                            f"**{o.num_gpus} 张 {o.gpu} 是 {-(-o.num_gpus // 8)} 台服务器**：一个模型跨机部署要机间 RDMA（InfiniBand 或 "
                            "RoCE，每卡 200-400 Gb/s），跨机用流水线或专家并行（张量并行跨网络很慢），部署更复杂、故障点更多；"
                            "一台就放得下的方案没有这些问题。")]
    others = [m for m in dict.fromkeys(req.models) if m != model.id][:2] if len(req.gpus) >= 2 else []
    for mid in others:  # ('workloads are mostly Llama 3.1 405B FP8 and DeepSeek-V3'): each workload's pick among the cards
        try:
            other = ctx.deps.catalog.model(mid)[0]
            r2 = ctx.call("recommend", args | {"model": other.id}, rank(RecommendRequest(
                model=other, task=task, gpus=candidates, prices=ctx.deps.prices(), tokens=tokens, budget=budget,
                deadline_hours=req.deadline_hours, deadline_slack=DEADLINE_SLACK if req.deadline_hours else 0.0, **load)))
        except (ValueError, LookupError):
            continue
        if r2.options:
            parts = [f"{o.gpu} ×{o.num_gpus}" + ("" if o.cost is None else f" {ctx.money(o.cost, digits)}"
                                                 + (ctx.t("/h", "/小时") if hourly else "")) for o in r2.options[:4]]
            lines += ["", ctx.t(f"**{other.name}**: pick **{r2.options[0].gpu} ×{r2.options[0].num_gpus}**; " + ", ".join(parts)
                                + ".", f"**{other.name}**：选 **{r2.options[0].gpu} ×{r2.options[0].num_gpus}**；"
                                + "，".join(parts) + "。")]
    if others and any(g.vendor == "AMD" for g in candidates):
        lines += ["", ctx.t("AMD cards run ROCm builds of vLLM and SGLang; check that your models and kernels (FP8, MLA, "
                            "MoE) are supported there and benchmark both before buying: spec sheets and hourly prices do "
                            "not settle it.",
                            "AMD 卡跑的是 ROCm 版的 vLLM、SGLang：先确认你的模型和算子（FP8、MLA、MoE）在上面支持良好，买之前两边都实测；"
                            "只看规格和时价定不下来。")]
    for o in res.options:  # a card run in another format than asked ('FP8 on a 910B': W8A8 INT8), said beside the pick
        if o.config.get("format"):
            lines.append(ctx.t(f"- {o.gpu}: weights in {o.config['format']} — the memory of FP8, the 8-bit route there "
                               "(msModelSlim W8A8, MindIE)",
                               f"- {o.gpu}：权重用 {o.config['format'].replace('Ascend has no FP8', '昇腾不支持 FP8')}——显存与 FP8 相同，"
                               "是那里的 8 位方案（msModelSlim W8A8，MindIE 部署）"))
        if o.config.get("kv_cache") == "fp8":  # ('5090, Qwen3-32B AWQ at 32k'): a near miss held with an 8-bit cache
            lines.append(ctx.t(f"- {o.gpu}: fits only with the KV cache in FP8 (vLLM `--kv-cache-dtype fp8`, llama.cpp "
                               f"`-ctk q8_0 -ctv q8_0`), {o.per_gpu_gb:.1f} GB: in 16-bit the weights and the context pass "
                               "its memory; quality loss from an 8-bit cache is small on published evaluations",
                               f"- {o.gpu}：KV cache 用 FP8 才放得下（vLLM `--kv-cache-dtype fp8`，llama.cpp `-ctk q8_0 -ctv q8_0`），"
                               f"每卡 {o.per_gpu_gb:.1f} GB；16 位 KV 时权重加上下文超出显存；8 位 KV 对质量的影响在公开评测里很小"))
    if task == "inference" and len(req.gpus) < 2:  # what the model needs, before the ranking
        from assistant.context import smallest_cards
        from assistant.plans.infer import fits_on

        ctx_len = req.context or 4096
        for fmt in (model.native_precision, "awq"):
            line = smallest_cards(ctx, lambda g, f=fmt: (lambda x: (bool(x.fits), x.per_gpu_gb))(
                fits_on(model, g, 1, f, ctx_len, req.concurrent_users or 1)))
            if line:
                lines.append(line.replace("**Smallest single GPU that holds it**", f"**Smallest single GPU, {fmt}**")
                             .replace("**单卡放得下的最小显存**", f"**单卡最小显存（{fmt}）**"))
    named = [g for g in candidates if g.id in {o.gpu for o in res.options}] if len(req.gpus) >= 2 else []
    if task == "inference" and len(req.gpus) >= 2 and candidates:  # the format the counts are in, and FP8 beside it
        lines.insert(1, _weights_line(ctx, model, candidates, load.get("precision") or model.native_precision,
                                      req.context or 4096, "precision" in req.stated))
        lines.insert(1, "")
    if len(named) >= 2:  # why, card against card: the figure that bounds this job
        from knowledge.lookups import job_picks

        jobs = ("training", "scale_out") if task != "inference" else ("decode", "training", "memory")
        # (training spans GPUs: ZeRO-3 and TP traffic ride the GPU-to-GPU link, where export versions differ)
        for p in (p for p in job_picks(named, req.num_gpus if "num_gpus" in req.stated else None) if p.job in jobs):
            lines.append("- " + job_line(lang, p, T(lang, "job_prefill") if (hourly and p.job == "training") else None))
    out_lines = []
    if (load.get("box_gpus") or len(req.gpus) >= 2) and res.rejected:
        # 'what are the options in one box', or cards named that drop out: the cards that cannot, and why
        out_lines = ["\n", ctx.t("**Ruled out:**", "**不行的：**")] + [
            f"- {o.gpu}: " + (assumption_zh(o.why) if ctx.zh else o.why) for o in res.rejected[:8]]
    text = ("\n".join(lines) + "\n\n"
            + md_table(["#", "GPU", "GPUs", "GB/GPU"] + ([ctx.t("hours", "小时")] if timed else []) + [cost_head, T(lang, "why")],
                       rows) + "\n".join(out_lines)
            + assumptions_md(lang, ctx.notes + res.assumptions))
    verdict = Verdict(fits=True, gpu=top.gpu, num_gpus=top.num_gpus, method=task, per_gpu_gb=top.per_gpu_gb) if top else None
    figures = {"cost_usd": top.cost if top else None, "cost_per_hour": int(hourly)}
    return Answer(answer=text, lang=lang, intent="recommend", verdict=verdict, tool_calls=ctx.calls,
                  options=[Verdict(fits=o.fits, gpu=o.gpu, num_gpus=o.num_gpus, method=task, per_gpu_gb=o.per_gpu_gb)
                           for o in res.options], figures=figures)


_COUNTS = (r"(?<![\w.,])(\d{1,3}(?:,\d{3})+|\d{2,6})(?![\d.,])\s*(?:张|块|台|x|×)?\s*(?:nvidia\s*)?(?:[a-z]*\d+[a-z]*s?\s*)?"
           r"(?:张卡|卡|张|块|gpus?|cards?)(?![a-z时·])|(?<![\w.,])(\d{1,3}(?:,\d{3})+|\d{2,6})\s*(?:x\s*|×\s*)?"
           r"(?:h800|h100|h200|a100|a800|h20|910b)s?(?![a-z\d])(?![^,.;，。；]{0,16}?(?:卡时|gpu[\s-]*(?:hours?|小时)|hours?|小时))")


def gpu_counts_named(question: str) -> list[int]:
    """Every GPU count written in the message, in order ('用 2048 张 H800 … 如果只有 512 张呢'): several cluster sizes."""
    out = []
    for m in re.finditer(_COUNTS, question.lower()):
        v = int((m.group(1) or m.group(2)).replace(",", ""))
        if 1 <= v <= 1_000_000 and v not in out:
            out.append(v)
    return out


def _same_compute(ctx: Ctx, a: str, b: str) -> bool:
    """Two cards with the same dense BF16 peak (A800 and A100, H800 and H100: the export versions differ in their
    links, not their math): a run's GPU-hours carry over between them."""
    if a == b:
        return True
    try:
        ga, gb = ctx.deps.catalog.gpu(a)[0], ctx.deps.catalog.gpu(b)[0]
    except LookupError:
        return False
    pa, pb = ga.bf16_dense_tflops or 0, gb.bf16_dense_tflops or 0
    return bool(pa and pb and abs(pa - pb) <= 0.02 * pb and ga.memory_gb == gb.memory_gb)


def _claimed_gpu_hours(question: str) -> float | None:
    """GPU-hours the user worked out themselves ('… 7/405 = ~530k GPU-hours, right?', '算下来约 53 万卡时对吧'): a result
    written after '=' or '算下来', or None."""
    m = re.search(r"(?:=|≈|~=|≃|算下来|算出来|折算下来|that'?s)\s*(?:~|≈|about |around |roughly |约|大约|大概)?\s*(\d+(?:\.\d+)?)\s*"
                  r"(万|亿|k|m|million|thousand)?\s*(?:[a-z0-9-]+\s*)?(?:gpu[\s-]*hours?|gpu[\s-]*hrs?|卡时|gpu\s*小时)",
                  question.lower())
    if not m:
        return None
    v = float(m.group(1)) * {"万": 1e4, "亿": 1e8, "k": 1e3, "thousand": 1e3, "m": 1e6, "million": 1e6}.get(m.group(2) or "", 1)
    return v if v >= 100 else None


def at_their_efficiency(ctx: Ctx, run, model, gpu_id: str, tokens: float | None, counts: list[int]) -> tuple[list[str], dict]:
    """A published run's GPU-hours scaled to the user's job at the run's own efficiency: by the tokens (and by the
    active parameters when the model differs), on the user's GPU counts. Only on the run's GPU type (another card's
    speed is the estimator's business)."""
    published = run.gpu_hours or ((run.num_gpus or 0) * (run.wall_days or 0) * 24)
    if not published or not run.tokens or not counts or not _same_compute(ctx, gpu_id, run.gpu):
        return [], {}
    from tools.params import count_parameters

    t = tokens or run.tokens
    size = 1.0
    if run.model and model is not None and model.id != run.model:
        theirs = ctx.deps.catalog.model(run.model)[0]
        size = count_parameters(model).active / count_parameters(theirs).active
    gpu_h = published * (t / run.tokens) * size
    scale = ctx.t(f"{published:,.0f} GPU-hours × {t / 1e12:g}T / {run.tokens / 1e12:g}T tokens"
                  + (f" × {size:.3g} (active parameters)" if size != 1 else ""),
                  f"{published:,.0f} 卡时 × {t / 1e12:g}T / {run.tokens / 1e12:g}T token" + (f" × {size:.3g}（激活参数之比）" if size != 1 else ""))
    rows = ctx.t("; ", "；").join(ctx.t(f"{n:,} GPUs: **{gpu_h / n / 24:,.1f} days**", f"{n:,} 张卡：**{gpu_h / n / 24:,.1f} 天**") for n in counts)
    line = ctx.t(f"**At {run.name}'s own efficiency**: {scale} = {gpu_h:,.0f} GPU-hours; {rows} (GPU-hours / GPUs / 24; "
                 "assumes the same efficiency at your scale: a smaller cluster has less communication to hide, but "
                 "matching it takes their training stack" + (f", {run.precision.upper()} matrix multiplies included; on a "
                                                             "BF16 stack expect longer" if run.precision == "fp8" else "")
                 + ").",
                 f"**按 {run.name} 的效率**：{scale} = {gpu_h:,.0f} 卡时；{rows}（卡时 ÷ 卡数 ÷ 24；假设你的规模效率相同："
                 "集群更小通信更好藏，但要达到它需要同样的训练框架" + ("，包括 FP8 矩阵乘；用 BF16 的框架会更久"
                                                                if run.precision == "fp8" else "") + "）。")
    figures = {"scaled_gpu_hours": round(gpu_h)} | {f"scaled_days_{n}": round(gpu_h / n / 24, 2) for n in counts}
    lines = [line]
    claim = _claimed_gpu_hours(ctx.question)
    if claim and not 0.74 <= claim / gpu_h <= 1.35:  # ('so that's ~30.84M x 7/405 = ~530k GPU-hours, right?')
        figures["claimed_gpu_hours"] = claim
        how_en = how_zh = ""
        if size != 1 and 0.8 <= claim / (published * size) <= 1.25:
            how_en = (f": it scales by parameters only; the {published:,.0f} were for {run.tokens / 1e12:g}T tokens, so scale "
                      f"by tokens too (× {t / 1e12:g}T / {run.tokens / 1e12:g}T)")
            how_zh = (f"：只按参数缩放了；{published:,.0f} 卡时对应 {run.tokens / 1e12:g}T token，还要按 token 缩放"
                      f"（× {t / 1e12:g}T / {run.tokens / 1e12:g}T）")
        elif t != run.tokens and 0.8 <= claim / (published * t / run.tokens) <= 1.25 and size != 1:
            how_en = f": it scales by tokens only; scale by the active parameters too (× {size:.3g})"
            how_zh = f"：只按 token 缩放了；还要按激活参数缩放（× {size:.3g}）"
        lines.insert(0, ctx.t(f"**No: not {claim:,.0f} GPU-hours, about {gpu_h:,.0f}**{how_en}.",
                              f"**不对：不是 {claim:,.0f} 卡时，约 {gpu_h:,.0f}**{how_zh}。"))
    implied = None
    try:  # the MFU the published hours imply: 6·N·D over the hours at the card's dense peak
        peak = ctx.deps.catalog.gpu(run.gpu)[0].bf16_dense_tflops
        n_active = count_parameters(ctx.deps.catalog.model(run.model)[0]).active if run.model else None
        if peak and n_active:
            implied = 6 * n_active * run.tokens / (published * 3600 * peak * 1e12)
    except (LookupError, ValueError):
        implied = None
    if implied and implied < 0.3:
        figures["published_implied_mfu"] = round(implied, 3)
        lines.append(ctx.t(
            f"**The published hours imply only ~{implied:.0%} MFU** (6·N·D over {published:,.0f} GPU-hours at the dense "
            "peak): they count the whole cluster's time, failures, restarts and evaluations at thousands of GPUs. A run of "
            "your own at a usual MFU needs fewer hours (the estimate beside this); treat the scaled figure as the "
            "pessimistic bound and plan between the two, with 10-20% for restarts.",
            f"**公开的卡时折算下来 MFU 只有约 {implied:.0%}**（6·N·D ÷ {published:,.0f} 卡时 × 稠密峰值）：它算的是整个集群的时间，"
            "含上万卡规模下的故障、重启和评测。你自己按常见 MFU 训，卡时会更少（见旁边的估算）；把按比例缩放的数字当作保守上限，"
            "在两者之间做计划，再留 10-20% 给重启。"))
    if size != 1 and model is not None and not (implied and implied < 0.3 and abs(size - 1) < 0.05):
        # the same maker's own run at about the user's size, where one is on record: scaling down a bigger run's
        # GPU-hours by parameters leaves out that smaller models reach less of the cards' peak
        from knowledge.runs import load_training_runs

        target = count_parameters(model).active
        near = [x for x in load_training_runs() if x is not run and x.gpu_hours and x.tokens and x.gpu == run.gpu and
                abs((x.active_params or x.params) / target - 1) <= 0.15 and
                x.name.split()[0] == run.name.split()[0]]
        if near:
            x = max(near, key=lambda r: (r.name.split()[:2] == run.name.split()[:2], r.tokens))  # (the same release first)
            own = x.gpu_hours * t / x.tokens
            figures["same_size_published_gpu_hours"] = round(own)
            close = 0.9 <= own / gpu_h <= 1.1
            lines.append(ctx.t(
                f"**Against a published run of your size**: {x.name} took {x.gpu_hours:,.0f} GPU-hours on "
                f"{x.tokens / 1e12:g}T tokens ({x.gpu_hours_scope.split('(')[0].strip()}), {own:,.0f} at your "
                f"{t / 1e12:g}T: **{own / gpu_h:.2f}×** the scaled figure" + (
                    ": the same pessimistic bound, from a run of your size." if close else
                    ". Scaling a bigger run down by parameters under-counts: a smaller model reaches less of the GPUs' "
                    "peak, and the card's total also holds post-training and restarts; take the same-size figure as the "
                    "pessimistic bound."),
                f"**对照同尺寸的公开数据**：{x.name} 用了 {x.gpu_hours:,.0f} 卡时、{x.tokens / 1e12:g}T token，按你的 "
                f"{t / 1e12:g}T 折合 {own:,.0f} 卡时，是上面按参数缩放结果的 **{own / gpu_h:.2f} 倍**" + (
                    "：同样是保守上限，来自同尺寸的训练。" if close else
                    "。按参数把大模型的卡时往下缩会低估：小模型用到的算力峰值比例更低，官方数字还包含后训练和重启；"
                    "保守上限请按同尺寸的公开数字。")))
    return lines, figures


def published_run(ctx: Ctx) -> Answer:
    from knowledge.runs import load_training_runs, run_for
    from tools.train_time import TrainingTimeRequest, estimate_training_time

    req, lang = ctx.req, ctx.lang
    run = run_for(ctx.question.lower(), req.model)
    if run is None:
        names = ", ".join(r.name for r in load_training_runs())
        text = ctx.t(f"I have no published training figures for that run on record, so I won't quote one. Runs on "
                     f"record (knowledge/data/training_runs.yaml, each with its source): {names}. For an estimate of "
                     "any run, ask for its training time with the model, token count and GPUs.",
                     f"这次训练没有收录公开数据，所以不报数字。已收录（knowledge/data/training_runs.yaml，均附来源）：{names}。"
                     "要估算任意一次训练，可以给出模型、token 数和 GPU 来问训练时间。")
        return Answer(answer=text, lang=lang, intent="published_run", tool_calls=ctx.calls)
    model_id = run.model or f"{run.params / 1e9:g}b"
    model = ctx.deps.catalog.model(model_id)[0]
    gpu = ctx.gpu(run.gpu)
    args = {"model": model, "gpu": gpu, "num_gpus": run.num_gpus or 1, "tokens": run.tokens, "method": "full",
            "precision": "fp8" if run.precision == "fp8" else "bf16"}
    est = ctx.call("time_train", {k: (v.id if hasattr(v, "id") else v) for k, v in args.items()},
                   estimate_training_time(TrainingTimeRequest(**args)))
    published = run.gpu_hours or run.num_gpus * run.wall_days * 24
    notes = [] if run.gpu_hours else [ctx.t(
        f"no GPU-hour figure was published: {run.num_gpus:,} GPUs x {run.wall_days:g} days x 24 h = {published:,.0f}",
        f"没有公布卡时：{run.num_gpus:,} 张卡 × {run.wall_days:g} 天 × 24 小时 = {published:,.0f}")]
    implied = est.total_flops / (published * 3600 * est.peak_tflops * 1e12)
    ratio = est.gpu_hours / published
    scope = run.gpu_hours_scope or ""
    word = ctx.t("published", "公开数据") if run.gpu_hours else ctx.t("implied by the published cluster and days",
                                                                       "由公开的卡数和天数推算")
    bf16_peak = gpu.bf16_dense_tflops or gpu.fp16_dense_tflops
    implied_bf16 = est.total_flops / (published * 3600 * bf16_peak * 1e12)
    count = (ctx.t(f" on {run.num_gpus:,} GPUs", f"，{run.num_gpus:,} 张卡") if run.num_gpus else
             ctx.t(" (the GPU count was not published)", "（未公开卡数）"))
    lines = [ctx.t(f"**{run.name}: {published:,.0f} {gpu.name} GPU-hours, {word}**{count} ({scope}; "
                   f"{run.tokens / 1e12:g}T tokens).",
                   f"**{run.name}：{published:,.0f} 卡时（{gpu.name}，{word}）**{count}（{scope}；"
                   f"{run.tokens / 1e12:g}T token）。"),
             ctx.t(f"Our estimate for the same tokens on the same GPU: {est.gpu_hours:,.0f} GPU-hours "
                   f"(MFU {est.mfu:.2f}, band {est.gpu_hours_range[0]:,.0f}–{est.gpu_hours_range[1]:,.0f}), "
                   f"{ratio:.2f}× the published figure.",
                   f"按同样的 token 数和 GPU 估算：{est.gpu_hours:,.0f} 卡时（MFU {est.mfu:.2f}，区间 "
                   f"{est.gpu_hours_range[0]:,.0f}–{est.gpu_hours_range[1]:,.0f}），是公开数字的 {ratio:.2f} 倍。"),
             ctx.t(f"Implied MFU of the published run: **{implied:.0%}** of the dense {est.precision.upper()} peak"
                   + (f" ({implied_bf16:.0%} of the BF16 peak)" if est.precision != "bf16" else "")
                   + " (model FLOPs / (GPU-hours × peak)) — "
                   + ("plausible (30-60% of the BF16 peak is typical of large runs)." if 0.2 <= implied_bf16 <= 0.65
                      else "outside the usual 20-65% of the BF16 peak: check what the figure covers."),
                   f"公开数字隐含的 MFU：**{implied:.0%}**（相对稠密 {est.precision.upper()} 峰值"
                   + (f"；相对 BF16 峰值 {implied_bf16:.0%}" if est.precision != "bf16" else "")
                   + "；模型 FLOPs / (卡时 × 峰值)）——"
                   + ("合理（大规模训练通常为 BF16 峰值的 30-60%）。" if 0.2 <= implied_bf16 <= 0.65
                      else "超出常见的 BF16 峰值 20-65%，要看这个数字包含了什么。"))]
    notes += [run.note] if run.note else []
    req = ctx.req
    counts = gpu_counts_named(ctx.question) if (req.num_gpus or req.tokens) else []
    scaled, scaled_figs = at_their_efficiency(ctx, run, model, req.gpu or run.gpu, req.tokens, counts or
                                              ([req.num_gpus] if req.num_gpus else []))
    lines = scaled + lines
    mine = [g for g in (req.gpus or ([req.gpu] if req.gpu else [])) if g != run.gpu]
    if mine or (req.num_gpus and req.num_gpus != run.num_gpus):
        # 'and how long would it take on our 256 H800s?': the same model and tokens on the user's hardware
        theirs = ctx.gpu(mine[0]) if mine else gpu
        n = req.num_gpus or run.num_gpus or 1024
        if not (req.num_gpus or run.num_gpus):
            ctx.assume("1,024 GPUs (no count given and none published; the GPU-hours do not depend on it)",
                       "1,024 张卡（没给卡数，也没有公开卡数；卡时与卡数无关）")
        margs = {"model": model, "gpu": theirs, "num_gpus": n, "tokens": run.tokens, "method": "full"}
        if req.mfu:
            margs["mfu"] = req.mfu
        yours = ctx.call("time_train", {k: (v.id if hasattr(v, "id") else v) for k, v in margs.items()},
                         estimate_training_time(TrainingTimeRequest(**margs)))
        lines.append(ctx.t(f"**The same run ({run.tokens / 1e12:g}T tokens) on {n:,}× {theirs.name}: about "
                           f"{yours.wall_days:,.1f} days** ({yours.gpu_hours:,.0f} GPU-hours at MFU {yours.mfu:.2f}; band "
                           f"{yours.wall_hours_range[0] / 24:,.1f}–{yours.wall_hours_range[1] / 24:,.1f} days).",
                           f"**同样的训练（{run.tokens / 1e12:g}T token）用 {n:,} 张 {theirs.name}：约 {yours.wall_days:,.1f} 天**"
                           f"（{yours.gpu_hours:,.0f} 卡时，MFU {yours.mfu:.2f}；区间 {yours.wall_hours_range[0] / 24:,.1f}–"
                           f"{yours.wall_hours_range[1] / 24:,.1f} 天）。"))
        if req.price_per_gpu_hour:  # '按 ¥15/卡时 算要多少钱': the same run's GPU-hours at the user's price, both ways
            s = "¥" if req.currency == "CNY" else "$"
            theirs_h = scaled_figs.get("scaled_gpu_hours") or run.gpu_hours
            ctx.used |= {"price_per_gpu_hour", "currency"}
            lines.append(ctx.t(
                f"**At your {s}{req.price_per_gpu_hour:g} per GPU-hour: {s}{yours.gpu_hours * req.price_per_gpu_hour:,.0f}** "
                f"for the estimate's {yours.gpu_hours:,.0f} GPU-hours"
                + (f"; {s}{theirs_h * req.price_per_gpu_hour:,.0f} at {run.name}'s own {theirs_h:,.0f}" if theirs_h else "")
                + " (the GPUs only: no research runs, data, staff or storage).",
                f"**按你的 {s}{req.price_per_gpu_hour:g}/卡时：{s}{yours.gpu_hours * req.price_per_gpu_hour:,.0f}**"
                f"（估算的 {yours.gpu_hours:,.0f} 卡时）"
                + (f"；按 {run.name} 自己的 {theirs_h:,.0f} 卡时是 {s}{theirs_h * req.price_per_gpu_hour:,.0f}" if theirs_h else "")
                + "（只算卡钱：不含前期研究、数据、人员和存储）。"))
    cite = Citation(source=f"training_runs.yaml#{run.id}", title=run.name, snippet=run.source[:200], as_of=run.as_of)
    text = "\n".join(lines) + assumptions_md(lang, notes + est.assumptions) + sources_md(lang, [cite])
    figures = scaled_figs | {"published_gpu_hours": run.gpu_hours or published, "published_tokens": run.tokens, "estimated_gpu_hours": est.gpu_hours,
               "implied_mfu": round(implied, 4), "implied_mfu_bf16": round(implied_bf16, 4), "published_gpu": run.gpu}
    return Answer(answer=text, lang=lang, intent="published_run", figures=figures, citations=[cite], tool_calls=ctx.calls,
                  verdict=Verdict(gpu=run.gpu, num_gpus=run.num_gpus))


def explain(ctx: Ctx) -> Answer:
    from assistant.context import trust_mark

    cites = ctx.deps.search(ctx.question, k=3)
    # the project's notes are quoted; a user-added document is quoted only as what it says, labelled unverified;
    # a passage with instructions to an AI is not quoted at all
    body = "\n\n".join((f"> {c.snippet}\n> — {c.title} ({c.source})" if not c.flagged else f"— {c.title} ({c.source})")
                        + trust_mark(ctx.lang, c) for c in cites if c.source != "(none)")
    return Answer(answer=T(ctx.lang, "explain_head") + "\n\n" + (body or T(ctx.lang, "no_sources")), lang=ctx.lang,
                  intent=ctx.req.intent, citations=cites)


def fact_check(ctx: Ctx) -> Answer:
    from assistant.claims import check_paragraph, sentences
    from assistant.plans.train import training_memory
    from assistant.plans.infer import inference_memory

    req, lang, question = ctx.req, ctx.lang, ctx.question
    low = question.lower()
    from assistant.claims import per_stream_times_users

    linear = per_stream_times_users(question) if req.model else None
    if linear:  # '120 tok/s x 50 users = 6000 tok/s, right?': the speed at that many users, computed
        return _per_stream_times_users(ctx, *linear)
    from assistant.claims import faster_claim

    faster = faster_claim(question, ctx.deps.catalog) if req.model and len(set(req.gpus or [])) >= 2 else None
    if faster and not re.search(r"训练|微调|train|fine[\s-]?tun", low):
        return _faster_serving_claim(ctx, *faster)  # 'H20 推理比 H100 快…高并发、长 prompt，对吗': at that workload
    training_words = re.search(r"lora|微调|训练|fine[\s-]?tun|train", low)
    inference_words = re.search(r"推理|部署|跑|加载|放得下|装得下|serv|inference|run|load|fits?(?![a-z])", low)
    memory_claim = req.model and (req.method or req.methods or training_words or inference_words)
    if len(sentences(question)) > 2 or not memory_claim:
        checks = check_paragraph(question, ctx.deps)
        if checks:
            mark = {"right": "✅", "wrong": "❌", "misleading": "⚠️"}
            rows = [[mark[c.verdict] + " " + T(lang, "v_" + c.verdict), c.claim[:80], c.correct, c.source] for c in checks]
            cites = ctx.deps.search("errata 文章 A100" if ctx.zh else "errata article A100 claims", k=3)
            text = (T(lang, "fc_para", n=len(checks), wrong=sum(c.verdict != "right" for c in checks)) + "\n\n"
                    + md_table([T(lang, "verdict"), T(lang, "claim"), T(lang, "correct"), T(lang, "sources")], rows)
                    + sources_md(lang, cites))
            calls = [ToolCall(name="check_claims", args={"sentences": len(sentences(question))},
                              result={"checks": [c.model_dump() for c in checks]})]
            return Answer(answer=text, lang=lang, intent="fact_check", citations=cites, tool_calls=calls,
                          figures={k: v for c in checks for k, v in c.figures.items()} | {
                              "claims_checked": len(checks), "claims_wrong": sum(c.verdict == "wrong" for c in checks),
                              "claims_misleading": sum(c.verdict == "misleading" for c in checks)})
    claimed_hours = req.period_hours or req.deadline_hours
    if req.model and req.tokens and claimed_hours:
        return _time_claim(ctx, claimed_hours)

    if memory_claim:
        infer = req.method == "inference" or (inference_words and not (req.method or req.methods or training_words))
        if req.num_gpus and re.search(r"(?:(?<![a-z])(?:need|'d need|would need|needs|requires?|required)|需要|得要|要)\s*"
                                      rf"(?:like|about|around|~|约|大概|at least|最少|至少)?\s*{req.num_gpus}(?![\d.])", low):
            # 'so I'd need like 38 H100s??': the count is the claim being checked, not the user's cluster
            ctx.req = req = req.model_copy(update={"num_gpus": None})
            ctx.used.add("num_gpus")
        base = (inference_memory if infer else training_memory)(ctx)
        claim_fits = not any(w in low for w in ("不能", "不够", "放不下", "装不下", "跑不了", "cannot", "can't",
                                                "doesn't fit", "does not fit", "won't fit", "not fit", "not enough"))
        correct = base.verdict.fits == claim_fits
        errata = ctx.deps.search("errata 单张A100 LoRA 70B 文章" if ctx.zh else "errata article LoRA 70B one A100", k=2)
        head = T(lang, "fc_right" if correct else "fc_wrong")
        claimed = re.search(r"(?:只要|只需要?|仅需?要?|就要|才要?|需要|要)\s*(\d+(?:\.\d+)?)\s*(gb|g|tb)(?![a-z])|"
                            r"(?<![a-z])(?:only|just|needs?|requires?)\s+(?:about\s+|~)?(\d+(?:\.\d+)?)\s*(gb|g|tb)(?![a-z])", low)
        need = _memory_needed(base)
        if claimed and need:  # 'BF16 只要 7GB 显存就能跑': the amount claimed against the amount computed
            gb = float(claimed.group(1) or claimed.group(3)) * (1000 if (claimed.group(2) or claimed.group(4)) == "tb" else 1)
            correct = 0.9 * need <= gb <= 3 * need  # (a claim far above the need is as wrong as one below it)
            moe = ctx.model().moe is not None if req.model else False
            head = T(lang, "fc_right" if correct else "fc_wrong") + " " + ctx.t(
                f"Claimed {gb:g} GB; it needs about **{need:,.1f} GB** in total"
                + (" (an MoE keeps every expert in memory: memory follows the total parameters, speed the active ones)"
                   if moe else "") + ".",
                f"说法是 {gb:g} GB；实际约需 **{need:,.1f} GB**" + ("（MoE 所有专家都要放在显存里：显存看总参数，速度才看激活参数）"
                                                               if moe else "") + "。")
        if infer and base.verdict and base.verdict.fits is False and (req.concurrent_users or req.throughput_tokens_per_s):
            # ('单卡 5090 部署 671B，支持 200 并发，每秒 5000 token'): the load claimed rests on a fit that fails
            said = "、".join(x for x in (f"{req.concurrent_users} 并发" if req.concurrent_users else "",
                                        f"{req.throughput_tokens_per_s:,.0f} token/秒" if req.throughput_tokens_per_s else "") if x)
            said_en = " and ".join(x for x in (f"{req.concurrent_users} concurrent users" if req.concurrent_users else "",
                                              f"{req.throughput_tokens_per_s:,.0f} tokens/s" if req.throughput_tokens_per_s
                                              else "") if x)
            head += " " + ctx.t(f"The {said_en} claimed cannot hold either: the model does not load on this hardware, so it "
                                "serves no one.", f"说的{said}也不可能成立：模型在这套硬件上根本装不下，一个请求也跑不了。")
            ctx.used |= {"concurrent_users", "throughput_tokens_per_s", "throughput_scope"}
        from assistant.readers.spec_claims import memory_claims

        wrong_spec = memory_claims(low, ctx.deps.catalog, [req.gpu] if req.gpu else [], ctx.zh)
        if wrong_spec:  # 'the H100 has 192GB HBM': the premise, corrected first
            head += " " + wrong_spec[0][0].upper() + wrong_spec[0][1:] + ctx.t(".", "。")
        speed = _speed_where_it_fits(ctx, base) if infer and re.search(
            r"tok(?:en)?s?\s*/\s*s|tps|throughput|speed|how fast|速度|多快|吞吐", low) else ""
        body = base.answer
        if speed:  # before the assumptions, with the figures it follows
            cut = min([i for i in (body.find("\n\n**Assumptions**"), body.find("\n\n**假设**")) if i >= 0] or [len(body)])
            body = body[:cut] + speed + body[cut:]
        return base.model_copy(update={"intent": "fact_check", "answer": head + "\n\n" + body + sources_md(lang, errata),
                                       "citations": errata + base.citations,
                                       "figures": base.figures | {"claim_correct": int(correct)}})
    return explain(ctx)


LONG_PROMPT = 8192  # tokens a 'long prompt' / RAG prompt is taken as when no length is given (an assumption, said)
HIGH_CONCURRENCY = 64  # requests in flight 'high concurrency' is taken as when no count is given (an assumption, said)


def _faster_serving_claim(ctx: Ctx, fast: str, slow: str) -> Answer:
    """'The H20 serves faster than the H100 because of its bandwidth': both cards timed on the job at the user's
    workload (long prompts and high concurrency when said: prefill is compute-bound, decode bandwidth-bound), the
    requests a second each sustains compared, the claim judged on that."""
    from assistant.plans.infer import inference_speed, requests_per_s

    req, low = ctx.req, ctx.question.lower()
    long_prompt = re.search(r"长\s*(?:prompt|提示|文档|上下文)|(?:prompt|提示|上下文)[^，。,.]{0,8}长|rag|" +
                            w(r"long (?:prompts?|documents?|context)"), low)
    busy = re.search(r"高并发|并发(?:很)?(?:高|大)|" + w(r"high (?:concurrency|traffic|load)|many (?:users|requests)"), low)
    prompt = req.prompt_len or (LONG_PROMPT if long_prompt else 2048)
    out = req.output_len or 256
    users = req.concurrent_users or (HIGH_CONCURRENCY if busy else 16)
    n = req.num_gpus or 8
    if not req.prompt_len:
        ctx.assume(f"prompts of {prompt:,} tokens" + (" (long RAG prompts)" if long_prompt else ""),
                   f"每个请求输入 {prompt:,} token" + ("（RAG 长提示）" if long_prompt else ""))
    if not req.concurrent_users:
        ctx.assume(f"{users} requests in flight" + (" (high concurrency)" if busy else ""),
                   f"同时 {users} 个请求" + ("（高并发）" if busy else ""))
    rows, rate = [], {}
    for gid in (fast, slow):
        sub = req.model_copy(update={"intent": "inference_speed", "gpu": gid, "gpus": [gid], "num_gpus": n,
                                     "concurrent_users": users, "batch": None, "prompt_len": prompt, "output_len": out,
                                     "context": prompt + out})
        a = inference_speed(Ctx(req=sub, deps=ctx.deps, question=ctx.question))
        one = inference_speed(Ctx(req=sub.model_copy(update={"concurrent_users": 1}), deps=ctx.deps, question=ctx.question))
        ctx.calls += a.tool_calls + one.tool_calls
        # one prompt's prefill (the batch's own TTFT counts every prompt of it) and the batch's decode rate
        ttft, total = one.figures.get("ttft_s"), a.figures.get("decode_tokens_per_s_total")
        if not (ttft and total):
            return a
        # each request: its prompt's prefill (compute-bound) plus its share of the batch's decode (bandwidth-bound)
        rps = requests_per_s(ttft, out, total)
        rate[gid] = rps
        name = ctx.gpu(gid).name
        rows.append([f"{n}× {name}", f"{ctx.gpu(gid).bf16_dense_tflops:g}", f"{ctx.gpu(gid).memory_bandwidth_gbps:,.0f}",
                     f"{ttft:.2f}", f"{total:,.0f}", f"{rps:.2f}"])
    holds = rate[fast] >= rate[slow] * 1.0
    ratio = rate[fast] / rate[slow]
    fname, sname = ctx.gpu(fast).name, ctx.gpu(slow).name
    head = ctx.t(
        (f"**The claim holds here**: {n}× {fname} sustain {ratio:.2f}× the requests a second of {n}× {sname} at this "
         "workload." if holds else
         f"**The claim is wrong for this workload**: {n}× {fname} sustain only {ratio:.2f}× the requests a second of "
         f"{n}× {sname}.") + f" With {prompt:,}-token prompts and {users} in flight, each request's prefill is "
        "compute-bound (dense TFLOPS) while decode reads the weights (bandwidth): "
        f"{fname} has {ctx.gpu(fast).memory_bandwidth_gbps:,.0f} GB/s against {ctx.gpu(slow).memory_bandwidth_gbps:,.0f}, "
        f"but {ctx.gpu(fast).bf16_dense_tflops:g} dense BF16 TFLOPS against {ctx.gpu(slow).bf16_dense_tflops:g}.",
        (f"**在这个负载下说法成立**：{n} 张 {fname} 每秒能处理的请求是 {n} 张 {sname} 的 {ratio:.2f} 倍。" if holds else
         f"**在这个负载下说法不对**：{n} 张 {fname} 每秒能处理的请求只有 {n} 张 {sname} 的 {ratio:.2f} 倍。")
        + f"输入 {prompt:,} token、同时 {users} 个请求时，每个请求的预填充受算力限制（稠密 TFLOPS），解码才看带宽：{fname} 带宽 "
        f"{ctx.gpu(fast).memory_bandwidth_gbps:,.0f} GB/s 对 {ctx.gpu(slow).memory_bandwidth_gbps:,.0f}，但稠密 BF16 算力只有 "
        f"{ctx.gpu(fast).bf16_dense_tflops:g} 对 {ctx.gpu(slow).bf16_dense_tflops:g} TFLOPS。")
    table = md_table([ctx.t("set-up", "配置"), "TFLOPS (BF16 dense)", "GB/s", ctx.t("prefill s/request", "每请求预填充 秒"),
                      ctx.t("decode tokens/s (batch)", "整批解码 token/秒"), ctx.t("requests/s", "请求/秒")], rows)
    ctx.used |= {"gpus", "gpu", "num_gpus", "concurrent_users", "prompt_len", "context"}
    text = head + "\n\n" + table + assumptions_md(ctx.lang, ctx.notes)
    return Answer(answer=text, lang=ctx.lang, intent="fact_check", tool_calls=ctx.calls,
                  figures={f"requests_per_s_{g}": round(v, 3) for g, v in rate.items()} | {"claim_correct": int(holds)})


def _per_stream_times_users(ctx: Ctx, one: float, users: int, product: float) -> Answer:
    """A single-stream speed multiplied by a user count, judged: the speed tool at that many streams on the card(s)
    named (each stream slower, the total below the product; the KV cache caps how many run at once)."""
    from assistant.plans.infer import inference_speed

    req = ctx.req
    sub = req.model_copy(update={"intent": "inference_speed", "concurrent_users": users, "throughput_tokens_per_s": None,
                                 "throughput_scope": None, "tokens_per_s_per_user": None})
    speed = inference_speed(Ctx(req=sub, deps=ctx.deps, question=ctx.question))
    ctx.calls += speed.tool_calls
    ctx.used |= {"concurrent_users", "throughput_tokens_per_s", "throughput_scope", "tokens_per_s_per_user", "batch"}
    f = speed.figures
    total, each, ran = f.get("decode_tokens_per_s_total"), f.get("decode_tokens_per_s_per_seq"), f.get("batch") or users
    if not total or not each:
        return speed
    n = (speed.verdict.num_gpus if speed.verdict and speed.verdict.num_gpus else None) or req.num_gpus or 1
    gpu = ctx.gpu().name if req.gpu else ""
    short = ran < users
    more = n > (req.num_gpus or 1)  # ('one H100 … 70B FP8': the weights and the streams' KV cache need more cards)
    wrong = total < 0.8 * product
    head = ctx.t(
        f"**{'No' if wrong else 'Roughly, but not for that reason'}**: {one:,.0f} tokens/s is one stream's decode speed "
        f"(each step reads all the weights for one token). Run {users} streams at once and each step serves all of them, "
        f"but each step takes longer: on {n} × {gpu} about **{total:,.0f} tokens/s in total, ~{each:,.0f} per user**"
        + (f", and only **{ran}** fit in memory at once (the rest wait)" if short else "")
        + f", not {product:,.0f}"
        + (f" (and that takes {n} cards: {req.num_gpus or 1} cannot hold the weights with these streams' KV cache)" if more else "")
        + ". Size per card at the per-user speed you need, not by multiplying.",
        f"**{'不对' if wrong else '数量级差不多，但道理不是这样'}**：{one:,.0f} token/秒 是单路解码速度（每步为一个 token 读一遍全部权重）。"
        f"{users} 路同时跑时每一步服务所有路，但每步更慢：{n} 张 {gpu} 上合计约 **{total:,.0f} token/秒，每个用户约 {each:,.0f}**"
        + (f"，而且显存只够同时跑 **{ran}** 路（其余排队）" if short else "")
        + f"，不是 {product:,.0f}"
        + (f"（而且要 {n} 张卡：{req.num_gpus or 1} 张放不下权重加这些请求的 KV cache）" if more else "")
        + "。按每个用户需要的速度来算每张卡能带多少人，不能直接相乘。")
    if req.engine in ("llamacpp", "ollama") and users >= 8:
        head += ctx.t(" llama.cpp / Ollama share one context among parallel slots and batch weakly; for tens of users a "
                      "batching server (vLLM or SGLang with an AWQ or FP8 checkpoint) gives more per card.",
                      " llama.cpp / Ollama 的并行槽共用一个上下文、批处理弱；几十个并发请用批处理服务（vLLM 或 SGLang，配 AWQ 或 FP8 权重），"
                      "每张卡能带更多。")
    figures = f | {"claimed_total_tokens_per_s": product, "claim_correct": int(not wrong)}
    return speed.model_copy(update={"intent": "fact_check", "answer": head + "\n\n" + speed.answer, "figures": figures})


def _speed_where_it_fits(ctx: Ctx, base: Answer) -> str:
    """'…fits on 2 cards. Confirm and give tokens/s': the speed on the GPUs the checked answer found it needs (the
    claimed count when it fits there), a tensor-parallel width the model's heads divide."""
    from assistant.plans.infer import inference_speed
    from tools.infer_memory import tp_ok

    v = base.verdict
    if v is None or not v.gpu:
        return ""
    model = ctx.model()
    need = v.num_gpus if v.fits else (v.min_gpus or 0)
    k = next((t for t in (1, 2, 4, 8, 16) if t >= need and tp_ok(model, t)), None)
    if not k:
        return ""
    saved = ctx.req
    ctx.req = saved.model_copy(update={"num_gpus": k, "gpu": v.gpu})
    try:
        sp = inference_speed(ctx)
    except ValueError:
        return ""
    finally:
        ctx.req = saved
    f = sp.figures
    if not f.get("decode_tokens_per_s_per_seq"):
        return ""
    return "\n\n" + ctx.t(
        f"**Speed on {k}× {ctx.gpu(v.gpu).name}** (where it fits): one stream ≈ **{f['decode_tokens_per_s_per_seq']:,.0f} "
        f"tokens/s**, first token ≈ {f['ttft_s']:.2f} s at a 2,048-token prompt"
        + (f"; {f['batched_sequences']} streams at once ≈ {f['batched_tokens_per_s_total']:,.0f} tokens/s in total"
           if f.get("batched_tokens_per_s_total") else "") + " (estimate, vLLM).",
        f"**{k} 张 {ctx.gpu(v.gpu).name} 上的速度**（放得下的配置）：单路约 **{f['decode_tokens_per_s_per_seq']:,.0f} token/秒**，"
        f"2,048 token 提示的首 token 约 {f['ttft_s']:.2f} 秒"
        + (f"；{f['batched_sequences']} 路同时合计约 {f['batched_tokens_per_s_total']:,.0f} token/秒"
           if f.get("batched_tokens_per_s_total") else "") + "（估算，vLLM）。")


def _memory_needed(answer: Answer) -> float | None:
    """The memory a sized answer says the job takes in all (per GPU x GPUs of the first sizing call), in GB."""
    call = next((c for c in answer.tool_calls if c.name in ("size_infer", "size_train")), None)
    if call is None or not isinstance(call.result, dict) or not call.result.get("per_gpu_gb"):
        return None
    return call.result["per_gpu_gb"] * (call.result.get("num_gpus") or call.args.get("num_gpus") or 1)


def _claimed_job_memory(ctx: Ctx) -> str:
    """Whether a claimed training job fits the claimed hardware at all ('full fine-tune of a 70B on one 4090 in 4-bit'):
    full training keeps 16-bit weights, gradients and optimizer states; 4-bit weights make it adapter training
    (QLoRA), not full-parameter."""
    from assistant.plans.train import _memory_args
    from tools.train_memory import TrainingMemoryRequest, estimate_training_memory

    req = ctx.req
    if req.method not in ("full", "lora", "qlora") or not req.gpu:
        return ""
    model, gpu, n = ctx.model(), ctx.gpu(), req.num_gpus or 1
    args = _memory_args(ctx, req.method)
    r = ctx.call("size_train", {"model": model.id, "gpu": gpu.id, **args},
                 estimate_training_memory(TrainingMemoryRequest(model=model, gpu=gpu, **args)))
    four_bit = req.method == "full" and req.precision in ("int4", "nf4")
    out = "" if r.fits else ctx.t(
        f"It does not fit either: {req.method} training of {model.name} needs about {r.per_gpu_gb:,.0f} GB per GPU on "
        f"{n}× {gpu.name} ({gpu.memory_gb:g} GB each); " + (f"at least {r.min_gpus} such GPUs." if r.min_gpus else
                                                            "no GPU count holds it at this micro-batch and length "
                                                            "(lower the micro-batch, raise the accumulation)."),
        f"显存也放不下：{model.name} {T(ctx.lang, 'full') if req.method == 'full' else req.method} 训练在 {n} 张 {gpu.name}"
        f"（每张 {gpu.memory_gb:g} GB）上每卡约需 {r.per_gpu_gb:,.0f} GB；" + (f"至少要 {r.min_gpus} 张。" if r.min_gpus else
                                                                      "这个 micro-batch 和长度下加多少卡都放不下（调小 micro-batch、加大梯度累积）。"))
    if four_bit:
        out += ctx.t(" And 4-bit weights cannot be trained in full: with a 4-bit base only adapters train (QLoRA), which "
                     "is not full-parameter fine-tuning.",
                     "另外 4-bit 权重不能做全参训练：4-bit 底座上只能训练适配器（QLoRA），那就不是全参微调。")
        ctx.used.add("precision")
        ctx.ignored[:] = [i for i in ctx.ignored if not i.startswith("precision=")]
    return out.strip()


def _time_claim(ctx: Ctx, claimed_hours: float) -> Answer:
    """'8 H100 pre-train Llama-3.1-8B on 1T tokens in one day': the claim holds if the fastest plausible time fits."""
    from assistant.plans.train import training_time

    base = training_time(ctx)
    fastest = min(c.result["wall_hours_range"][0] for c in base.tool_calls if c.name == "time_train")
    correct = claimed_hours >= fastest
    def dur(h: float) -> str:  # '2 minutes', '383 h (16 days)'
        if h < 1:
            return ctx.t(f"{h * 60:,.0f} minutes", f"{h * 60:,.0f} 分钟")
        return ctx.t(f"{h:,.0f} h" + (f" ({h / 24:,.1f} days)" if h >= 48 else ""),
                     f"{h:,.0f} 小时" + (f"（{h / 24:,.1f} 天）" if h >= 48 else ""))

    off = base.figures["wall_hours"] / claimed_hours if claimed_hours else None
    head = T(ctx.lang, "fc_right" if correct else "fc_wrong") + " " + ctx.t(
        f"Claimed {dur(claimed_hours)}; computed {dur(base.figures['wall_hours'])} (fastest plausible {dur(fastest)})"
        + (f": about {off:,.0f}× longer than claimed." if off and off >= 3 else "."),
        f"说法是 {dur(claimed_hours)}；计算得 {dur(base.figures['wall_hours'])}（最快也要 {dur(fastest)}）"
        + (f"：比说法长约 {off:,.0f} 倍。" if off and off >= 3 else "。"))
    memory = _claimed_job_memory(ctx)
    if memory:
        head += " " + memory
        if "does not fit" in memory or "放不下" in memory:
            correct = False
    return base.model_copy(update={"intent": "fact_check", "answer": head + "\n\n" + base.answer,
                                   "figures": base.figures | {"claim_correct": int(correct), "claimed_hours": claimed_hours}})
