"""Asks about words, answered from the tables that hold the facts: 'is NF4 the same thing as Q4_K_M and AWQ?' (the
weight formats of tools/formats.py), 'is H100 PCIe basically the same GPU as H100 SXM?' (the GPU table), 'does 满血
mean BF16, or does FP8 count?' (the model's published checkpoint format). Such an ask sits beside a sizing question;
it is answered in a line of its own instead of being read as alternatives to compare or dropped as out of scope."""
from __future__ import annotations

import re

from knowledge.catalog import Catalog

# 'are they the same', '是一回事吗', 'basically the same GPU', 'interchangeable'
# 'what's the difference between Q4_K_M, AWQ and NF4?', '这几个量化到底啥区别'
DIFFERENCE_ASK = (r"啥区别|什么区别|有何区别|区别是什么|区别在哪|有什么不同|差别在哪|差在哪|差在什么地方|损失什么|牺牲什么|少了什么|"
                  r"(?<![a-z])(?:what do (?:i|we|you) lose|what(?:'s| is| do (?:i|we)) (?:lost|give up)|trade-?offs?)(?![a-z])|(?<![a-z])(?:difference between|differences|"
                  r"what'?s the difference|how do (?:they|these|the \w+) differ|what(?:'?s| is) (?:actually |really )?different)"
                  r"(?![a-z])|有什么不一样|哪里不一样|哪里不同")
SAME_ASK = (r"一回事|一样吗|一样不|是不是一样|相同吗|等同|等价|是同一|同一个东西|没区别吗|有区别吗|(?<![a-z])(?:the same (?:thing|as|gpu|"
            r"card|chip|format)|same thing|basically the same|identical|equivalent|interchangeable|any different|"
            r"the same\?)(?![a-z])")
# '满血到底是指 BF16 还是 FP8', '满血是什么意思', 'FP8 也算满血吗', 'what does full-fat mean'
FULL_MEANING_ASK = (r"满血[^，。？?]{0,6}(?:到底|究竟)?(?:是指|指的是|是什么|什么意思|啥意思|指什么|怎么定义|算不算)|"
                    r"(?:也算|算不算|算是)\s*满血|满血[^，。？?]{0,12}(?:还是|也算)|"
                    r"(?<![a-z])what (?:does|is) (?:\"|')?full[\s-]*(?:fat|model|precision)(?:\"|')? mean")


def _formats_named(low: str) -> list[str]:
    from assistant.readers.asks import _values_named

    return [v for _, v in sorted(_values_named(low, "precision"))]


def format_sameness(ids: list[str], zh: bool, difference: bool = False, served_many: bool = False) -> str | None:
    """'NF4 跟 Q4_K_M、AWQ 是一回事吗', '这几个量化啥区别': each format's bits per weight (scales included) and which engines
    run it, and the verdict: one format only when the ids name the same one; for many users in a serving engine, the
    formats that engine serves (from the same table)."""
    from tools.formats import FORMATS

    fmts = [FORMATS[i] for i in dict.fromkeys(ids) if i in FORMATS]
    if len(fmts) < 2:
        return None
    rows = [(f"{f.name}: {f.bits:.2f} 比特/权重（含缩放常数），{f.engines}" if zh else
             f"{f.name}: {f.bits:.2f} bits per weight (scales included), run by {f.engines}") for f in fmts]
    bits = [f.bits for f in fmts]
    close = max(bits) - min(bits) <= 1.0
    served = [f for f in fmts if "vllm" in f.engines.lower() and f.family != "gguf"]
    tail = ""
    if served_many and served:  # 'we serve many users with vLLM: which?': the formats it serves, most faithful first
        served.sort(key=lambda f: -f.bits)
        others = [f.name for f in fmts if f not in served]
        tail = ((f" 用 vLLM 多并发服务：选 {served[0].name}" + (f"（显存不够再用 {served[-1].name}）" if len(served) > 1 else "")
                 + (f"；{'、'.join(others)} 不是 vLLM 的服务格式" if others else "") + "。") if zh else
                (f" For many users in vLLM: {served[0].name}" + (f" (or {served[-1].name} when memory is short)" if len(served) > 1
                                                                 else "") + (f"; {', '.join(others)} are not vLLM serving "
                                                                             "formats" if others else "") + "."))
    if difference:
        return (("**区别**：" + "；".join(rows) + "。" + tail) if zh else ("**The difference**: " + "; ".join(rows) + "." + tail))
    if zh:
        head = ("**不是一回事**：" + ("位数相近（都约 " + f"{min(bits):.1f}-{max(bits):.1f}" + " 比特/权重），但" if close else "")
                + "是不同的格式，各有各的文件、量化方法和推理引擎，不能互换加载：")
        return head + "；".join(rows) + "。" + tail
    head = ("**Not the same thing**: " + (f"about the same size ({min(bits):.1f}-{max(bits):.1f} bits per weight), but "
                                          if close else "") + "different formats, each with its own files, quantization "
            "method and engines (one cannot be loaded as another): ")
    return head + "; ".join(rows) + "." + tail


_SPEC_FIELDS = (("memory_gb", "memory", "显存", "GB"), ("memory_bandwidth_gbps", "memory bandwidth", "显存带宽", "GB/s"),
                ("bf16_dense_tflops", "dense BF16", "稠密 BF16", "TFLOPS"),
                ("nvlink_gbps", "GPU-to-GPU link", "卡间互联", "GB/s"), ("tdp_w", "power", "功耗", "W"))


def card_sameness(ids: list[str], catalog: Catalog, zh: bool, num_gpus: int | None = None) -> str | None:
    """'is H100 PCIe basically the same GPU as H100 SXM?': the spec fields that differ by more than 10%, and the verdict
    (the same card only when none does); with a GPU count, the link is the one that many cards really use (PCIe past
    a bridged pair)."""
    from knowledge.lookups import link_at

    cards = [catalog.gpu(g)[0] for g in dict.fromkeys(ids)][:2]
    if len(cards) < 2:
        return None
    a, b = cards
    diffs = []
    for field, en, cn, unit in _SPEC_FIELDS:
        x, y = getattr(a, field), getattr(b, field)
        if field == "nvlink_gbps" and num_gpus:
            x, y = link_at(a, num_gpus), link_at(b, num_gpus)
            en = f"GPU-to-GPU link at {num_gpus} cards"
            cn = f"{num_gpus} 卡时的卡间互联"
        if x and y and max(x, y) / min(x, y) > 1.10:
            diffs.append((f"{cn} {x:g} 对 {y:g} {unit}（{max(x, y) / min(x, y):.2f} 倍）" if zh else
                          f"{en} {x:g} vs {y:g} {unit} ({max(x, y) / min(x, y):.2f}×)"))
    if not diffs:
        return (f"**基本是同一种卡**：{a.name} 和 {b.name} 的显存、带宽、算力、互联和功耗相差都在 10% 以内。" if zh else
                f"**Effectively the same card**: {a.name} and {b.name} differ by under 10% in memory, bandwidth, compute, "
                "link and power.")
    dec = next((d for d in diffs if "带宽" in d or "bandwidth" in d), None)
    why = ((f"推理解码看显存带宽，训练和预填充看算力，多卡张量并行看卡间互联；同样的显存不等于同样的速度。" if zh else
            "decode speed follows memory bandwidth, training and prefill follow compute, tensor parallelism over "
            "several cards follows the link: the same memory is not the same speed.") if dec else "")
    return ((f"**不是同一种卡**：{a.name} 对 {b.name}：" + "；".join(diffs) + "。" + why) if zh else
            (f"**Not the same card**: {a.name} vs {b.name}: " + "; ".join(diffs) + ". " + why.capitalize()))


def full_model_meaning(model_id: str | None, catalog: Catalog, zh: bool) -> str:
    """'满血到底是指 BF16 还是 FP8 也算？': the complete model as its lab published it, in the published checkpoint's
    format (ModelSpec.native_precision); other formats are quantized copies, a distill is another model."""
    from tools.formats import FORMATS

    if model_id:
        spec = catalog.model(model_id)[0]
        fmt = FORMATS.get(spec.native_precision)
        name = fmt.name.split(" (")[0] if fmt else spec.native_precision.upper()
        gb = spec.params_total * (fmt.bits if fmt else 16) / 8 / 1e9
        own = (f"{spec.name} 官方发布的权重是 **{name}**（约 {gb:,.0f} GB 权重）" if zh else
               f"{spec.name} was published in **{name}** (about {gb:,.0f} GB of weights)")
        low_bits = (fmt.bits if fmt else 16) > 8.5
    else:
        own, low_bits = ("", True)
    if zh:
        return ("**“满血”指的是**：完整的原版模型（全部参数，不是蒸馏版或小尺寸版本），按官方发布的精度运行。" + (own + "；" if own else "")
                + ("按这个精度跑才是严格意义上的满血。官方或可信来源的 FP8 版本通常和 BF16 很接近，很多人也算它满血，但严格说它是量化版；"
                   "INT4/AWQ/GGUF 等 4 位版本和蒸馏版都不算满血。" if low_bits else
                   "官方就是 FP8 发布的，所以 FP8 本身就是满血；再量化到 INT4/AWQ/GGUF 就不算了，蒸馏版也不算。"))
    return ("**'满血' (full-fat) means** the complete original model (all its parameters, not a distill or a smaller "
            "sibling) at the precision it was published in. " + (own + ". " if own else "")
            + ("Strictly, that precision is the full model; an official or trusted FP8 copy is usually close to BF16 and "
               "many count it, but it is a quantized version; 4-bit copies (INT4/AWQ/GGUF) and distills are not." if low_bits
               else "It was published in FP8, so FP8 is the full model; 4-bit copies (INT4/AWQ/GGUF) and distills are "
                    "not."))


# 'is the SXM worth it?', '多花的钱值不值': whether the dearer of two cards pays back its price in speed
WORTH_ASK = (r"值不值|值得吗|值得多花|值得买吗|划算吗|划不划算|(?<![a-z])(?:worth (?:it|the (?:premium|money|extra|upgrade|price|"
             r"difference))|pay (?:the|a|that) premium|justify the (?:price|premium|cost))(?![a-z])")


_TRAIN_WORDS = r"训练|微调|预训练|(?<![a-z])(?:train\w*|fine[\s-]?tun\w*|finetun\w*|sft|lora|qlora|pre[\s-]?train\w*)(?![a-z])"


def _stated_discount(question: str, fast, slow) -> float | None:
    """The price of `fast` over `slow` the message states ('PCIe is ~30% cheaper', 'SXM 贵 40%'), or None."""
    low = (question or "").lower()
    m = re.search(r"([a-z]*\d{0,4}\s*(?:pcie|sxm\d?|nvl)|[a-z]+\d{2,4}\w*)(?:\s+(?:box(?:es)?|servers?|nodes?|quotes?|options?|"
                  r"cards?|versions?|prices?|ones?|systems?)){0,3}\s*(?:is|are|版)?\s*(?:about|~|roughly|around|约|大约)?\s*"
                  r"(\d{1,2})\s*%\s*(cheaper|more expensive|dearer|便宜|贵)", low)
    if not m:
        return None
    word, pct, way = m.group(1).strip(), int(m.group(2)) / 100, m.group(3)
    def names(g) -> str:
        return f"{g.id} {g.name} {g.form_factor}".lower()
    target = fast if word and word.split()[-1] in names(fast) and word.split()[-1] not in names(slow) else \
        slow if word and word.split()[-1] in names(slow) and word.split()[-1] not in names(fast) else None
    if target is None or not 0 < pct < 1:
        return None
    cheap = way in ("cheaper", "便宜")
    ratio = (1 / (1 - pct)) if cheap else (1 + pct)  # the dearer one's price over the other's
    return ratio if (target is slow) == cheap else 1 / ratio


def card_worth(ids: list[str], catalog: Catalog, zh: bool, training: bool, prices=(), question: str = "",
               job_hours: dict | None = None) -> str | None:
    """'H100 PCIe or SXM for serving: is the SXM worth it?': the faster card's edge on what the job is bound by
    (memory bandwidth for decoding, dense compute for training and prefill) against its price ratio (on-demand rent,
    else the new purchase price, from the price table): worth it when it costs less than its speed-up."""
    from tools.pricing import gpu_prices

    cards = [catalog.gpu(g)[0] for g in dict.fromkeys(ids)][:2]
    if len(cards) < 2:
        return None
    field, what_en, what_zh = (("bf16_dense_tflops", "dense compute (training, prefill)", "稠密算力（训练、预填充）")
                               if training else ("memory_bandwidth_gbps", "memory bandwidth (decode speed)",
                                                 "显存带宽（解码速度）"))
    vals = [(c, getattr(c, field)) for c in cards]
    if training and job_hours and all(job_hours.get(c.id) for c in cards):
        # the job's own computed time on each (compute, memory layout and the link between the cards): its speed
        vals = [(c, 1 / job_hours[c.id]) for c in cards]
        what_en, what_zh = "speed on this job (its computed time, the link between the cards included)", \
            "这个任务上的速度（按算出的训练时间，含卡间互联的影响）"
    if not all(v for _, v in vals):
        return None
    (fast, vf), (slow, vs) = sorted(vals, key=lambda cv: -cv[1])
    r = vf / vs
    cur = "CNY" if zh else "USD"
    sym = "¥" if zh else "$"

    def price(gid: str, kind: str):
        try:
            got = gpu_prices(list(prices), gid, cur, kinds=(kind,)).kinds
        except (LookupError, ValueError):
            return None
        return got[0].typical if got else None

    cheaper = _stated_discount(question, fast, slow)
    if cheaper:  # ('PCIe is ~30% cheaper per GPU'): the user's own price ratio decides it
        pr = cheaper
        yes = pr < r
        return (f"**值不值**：{fast.name} 的{what_zh}是 {slow.name} 的 {r:.2f} 倍，按你说的价差贵 {pr:.2f} 倍：" +
                ("**值**，每花一块钱得到的速度更多。" if yes else "**不值**，每块钱的速度更低；除非你要它的显存或互联。")
                if zh else
                f"**Worth it?** {fast.name} has {r:.2f}× {slow.name}'s {what_en} for {pr:.2f}× the price (your quoted "
                "difference): " + ("**yes**, more speed per dollar." if yes else "**no**: less speed per dollar, unless "
                                   "you need its memory or link."))
    for kind, unit_en, unit_zh in (("rent_on_demand", "/GPU-h rent", "/卡时 租价"), ("buy_new", " to buy", " 购价")):
        pf, ps = price(fast.id, kind), price(slow.id, kind)
        if pf and ps:
            pr = pf / ps
            yes = pr < r
            return (f"**值不值**：{fast.name} 的{what_zh}是 {slow.name} 的 {r:.2f} 倍，价格是它的 {pr:.2f} 倍（{sym}{pf:,.2f} 对 "
                    f"{sym}{ps:,.2f}{unit_zh}，价格表估计）：" + ("**值**，每花一块钱得到的速度更多。" if yes else
                                                           "**不值**，按这个价格每块钱的速度更低；除非你要它的显存或互联。")
                    if zh else
                    f"**Worth it?** {fast.name} has {r:.2f}× {slow.name}'s {what_en} for {pr:.2f}× the price "
                    f"({sym}{pf:,.2f} vs {sym}{ps:,.2f}{unit_en}, price-table estimates): " +
                    ("**yes**, more speed per dollar." if yes else "**no** at these prices: less speed per dollar, "
                     "unless you need its memory or link."))
    return (f"**值不值**：{fast.name} 的{what_zh}是 {slow.name} 的 {r:.2f} 倍；价格贵不到 {r:.2f} 倍就值（价格表里没有两张卡"
            "同一种价格；给出你的报价即可算出）。" if zh else
            f"**Worth it?** {fast.name} has {r:.2f}× {slow.name}'s {what_en}: worth it when it costs less than {r:.2f}× "
            "as much (the price table has no like-for-like price for both; give your quotes to settle it).")


# 'how much quality do we lose with AWQ?', 'FP8 掉点多少': what a format keeps of the 16-bit model's accuracy
QUALITY_ASK = (r"质量|精度损失|掉点|掉多少|损失多少|效果(?:差|损失|下降|会差)|变笨|降智|(?<![a-z])(?:quality|accuracy|how much (?:do|would|will) "
               r"(?:we|i|you) lose|lose|degrad\w*|dumber|worse answers)(?![a-z])")


def format_quality(fmts: list[str], zh: bool) -> str | None:
    """Each format's share of the 16-bit model's accuracy on published evaluations (tools.formats.QUALITY), and the
    caveat that the average hides the tasks that lose first."""
    from tools.formats import quality_kept, weight_format

    rows = []
    for f in dict.fromkeys(fmts):
        q = quality_kept(f)
        if q is None:
            continue
        lo, hi, verdict = q
        name = weight_format(f).id.upper()
        kept = f"{lo:g}%" if lo == hi else f"{lo:g}-{hi:g}%"
        if zh:
            from tools.formats import QUALITY_ZH

            rows.append(f"{name} 保留 16 位模型平均分的约 {kept}（{QUALITY_ZH.get(verdict, verdict)}）")
        else:
            rows.append(f"{name} keeps ~{kept} of the 16-bit model's average score ({verdict})")
    if not rows:
        return None
    return (("**质量**：" + "；".join(rows) + "（公开评测的平均，Kurtic 等 2024、llama.cpp 困惑度表）。平均分会掩盖先掉的任务："
             "数学、代码、长上下文检索和小语种；模型越小损失越大。上线前用你们自己的几百条真实问题对比。") if zh else
            ("**Quality**: " + "; ".join(rows) + " (averages over published evaluations: Kurtic et al. 2024, llama.cpp "
             "perplexity tables). The average hides the tasks that lose first: maths, code, long-context retrieval and "
             "less-represented languages, and small models lose more. Compare on a few hundred of your own prompts "
             "before committing."))


# 'can two 4090s act as one 48 GB card?': memory pooled over cards
POOL_ASK = (r"(?:当|当成|当作|作为|合成|合并成?|变成|看成|看作|拼成|凑成)\s*(?:一张|1\s*张|一块|一个)\s*\d{2,3}\s*g|显存(?:能|可以)?(?:叠加|相加|合并|共享)|"
            r"(?<![a-z])(?:as|into|like) (?:one|a single|a) \d{2,3}\s*gb?(?![a-z0-9])|(?:pool|combine|add up|stack)\w* (?:the |their )?"
            r"(?:vram|memory)")


def pooled_memory(gpu, n: int, zh: bool) -> str:
    """Memory over several cards: the weights split by tensor or pipeline parallelism add the cards' memory up, less
    each card's own runtime, and the cards talk over their link (PCIe on consumer cards: fine for splitting layers,
    slower for tensor parallelism); no software makes them one device."""
    link = "NVLink" if (gpu.nvlink_gbps or 0) > 100 else "PCIe"
    total = n * (gpu.memory_gb or 0)
    return (f"**显存能合起来用，但不是一张 {total:g}G 的卡**：推理引擎把模型切到 {n} 张卡上（vLLM 张量并行 `--tensor-parallel-size {n}`，"
            f"或 llama.cpp 按层切分），可用显存约等于 {n} × {gpu.memory_gb:g} GB 减去每张卡各自的运行开销；卡间走 {link}"
            + ("（没有 NVLink：按层切分影响小，张量并行每层都要通信，会慢一些）" if link == "PCIe" else "") + "。下面按这样切分计算。"
            if zh else
            f"**The memory adds up, but they are not one {total:g} GB card**: an engine splits the model over the {n} cards "
            f"(vLLM tensor parallelism `--tensor-parallel-size {n}`, or llama.cpp by layers), so the room is about {n} × "
            f"{gpu.memory_gb:g} GB less each card's own runtime; the cards talk over {link}"
            + (" (no NVLink: splitting by layers barely notices, tensor parallelism talks every layer and runs slower)"
               if link == "PCIe" else "") + ". Sized that way below.")


def term_lines(question: str, req, catalog: Catalog, prices=(), job_hours: dict | None = None) -> list[str]:
    """The lines answering the asks about words in the message (none when it has none)."""
    low = question.lower()
    zh = req.lang == "zh"
    out = []
    if re.search(POOL_ASK, low) and req.gpu and (req.num_gpus or 1) >= 2:
        try:
            out.append(pooled_memory(catalog.gpu(req.gpu)[0], req.num_gpus, zh))
        except LookupError:
            pass
    if re.search(QUALITY_ASK, low):
        fmts = [f for f in _formats_named(low) if f not in ("bf16", "fp16", "fp32")]
        line = format_quality(fmts, zh) if fmts else None
        if line:
            out.append(line)
    if (re.search(WORTH_ASK, low) or re.search(r"\d\s*%\s*(?:cheaper|more expensive|dearer|便宜|贵)", low)) and \
            len(set(req.gpus or [])) >= 2:
        # the work that decides it: inference (decode, bound by bandwidth) when it is named, training (compute) when
        # only training is; '主要跑推理，偶尔微调' is an inference purchase
        infer = re.search(r"推理|部署|上线|(?<![a-z])(?:inference|serv(?:e|ing)|deploy\w*|chat\w*)(?![a-z])", low)
        training = (str(req.intent).startswith("training") or req.method in ("full", "lora", "qlora", "pretrain") or
                    bool(re.search(_TRAIN_WORDS, low))) and not infer
        line = card_worth(list(req.gpus), catalog, zh, training, prices, question, job_hours)
        if line:
            out.append(line)
    cards = [c for c in (req.gpus or ([req.gpu] if req.gpu else [])) if c]
    try:
        ascend = [catalog.gpu(c)[0] for c in cards if catalog.gpu(c)[0].vendor == "Huawei"]
    except LookupError:
        ascend = []
    if ascend and req.model:  # ('一台 910B 的机器能跑 Qwen2.5-72B 吗'): the software the figures assume there
        out.append("**昇腾的软件栈**：推理用 MindIE（或 vLLM-Ascend），训练用 MindSpeed / MindSpeed-LLM（DeepSpeed、Megatron 的昇腾适配），"
                   "都在 CANN 之上；8 位是 W8A8 INT8（msModelSlim 量化），没有 FP8；先确认你的模型和算子在这些版本里有支持，"
                   "下面的显存数字按同样的权重和状态字节数算。" if zh else
                   "**Ascend's software stack**: inference runs on MindIE (or vLLM-Ascend), training on MindSpeed / MindSpeed-LLM "
                   "(Ascend ports of DeepSpeed and Megatron), all on CANN; 8-bit is W8A8 INT8 (msModelSlim), not FP8. Check "
                   "that your model and its operators are supported there; the memory figures below count the same bytes "
                   "of weights and states.")
    if re.search(FULL_MEANING_ASK, low):
        out.append(full_model_meaning(req.model if req.model and not str(req.model)[0].isdigit() else None, catalog, zh))
    support = format_support(question, req, catalog, zh)
    if support:
        out.append(support)
    difference = bool(re.search(DIFFERENCE_ASK, low))
    if re.search(SAME_ASK, low) or difference:
        fmts = _formats_named(low)
        many = bool(re.search(r"vllm|sglang|并发|concurren|many users|多用户", low))
        line = format_sameness(fmts, zh, difference, many) if len(fmts) >= 2 else None
        if line is None and len(set(req.gpus or [])) >= 2:
            line = card_sameness(list(req.gpus), catalog, zh, req.num_gpus if "num_gpus" in req.stated else None)
        if line:
            out.append(line)
    return out


# 'A800 支持 FP8 吗', 'does the L40S support FP8?', 'can a 4090 do bf16': whether a card computes in a format
SUPPORT_ASK = re.compile(r"(?:支持|能跑|能用|可以用|有没有)\s*(fp8|fp4|nvfp4|mxfp4|bf16|int8|int4)\s*(?:吗|么|不|嘛|没有|\?|？)|"
                         r"(fp8|fp4|bf16|int8)\s*(?:支持吗|能用吗|能跑吗)|"
                         r"(?<![a-z])(?:support|supports|do|does|handle|run)\s+(?:native\s+)?(fp8|fp4|nvfp4|bf16|int8)(?![a-z0-9])"
                         r"(?!\s*(?:weights?\s+)?(?:fits?|work|need|version|model|or))"
                         r"(?=[^.?!]{0,30}[?？]|\s*(?:natively|at all|tensor|compute))", re.I)


def format_support(question: str, req, catalog: Catalog, zh: bool) -> str | None:
    """Whether the card named computes in the format asked about (the GPU table's dense figure for it), what runs there
    instead (weight-only loading, INT8 W8A8 on cards with INT8 tensor cores), from tools/formats.supported_on."""
    from tools.formats import NO_FP8_AT_ALL, supported_on

    m = SUPPORT_ASK.search(question)
    if not m or not req.gpu:
        return None
    fmt = next(g for g in m.groups() if g).lower()
    fmt = {"nvfp4": "fp4", "mxfp4": "fp4"}.get(fmt, fmt)
    try:
        gpu = catalog.gpu(req.gpu)[0]
    except (LookupError, ValueError):
        return None
    if fmt in ("int8", "int4"):
        ok = bool(gpu.int8_dense_tops) if fmt == "int8" else True
        why = None
    else:
        ok, why = supported_on(fmt, gpu)
    name = gpu.name
    figure = {"fp8": gpu.fp8_dense_tflops, "fp4": gpu.fp4_dense_tflops, "bf16": gpu.bf16_dense_tflops,
              "int8": gpu.int8_dense_tops}.get(fmt)
    unit = "TOPS" if fmt == "int8" else "TFLOPS"
    if ok:
        return (f"**支持**：{name} 有 {fmt.upper()} 计算" + (f"（稠密 {figure:g} {unit}）" if figure else "") + "。" if zh else
                f"**Yes**: {name} computes in {fmt.upper()}" + (f" ({figure:g} dense {unit})" if figure else "") + ".")
    int8 = gpu.int8_dense_tops
    if fmt == "bf16":
        return (f"**不支持 BF16**：{name} 没有 BF16（算力 8.0 之前的架构），用 FP16 代替：显存相同，训练要配合损失缩放。" if zh else
                f"**No BF16**: {name} predates BF16 (compute capability below 8.0); it runs FP16 instead: the same memory, "
                "with loss scaling to train.")
    if fmt == "fp8" and gpu.vendor in NO_FP8_AT_ALL:
        return (f"**不支持**：{name} 没有 FP8，连仅权重的 FP8 也不跑；8 位方案是 W8A8 INT8"
                + (f"（稠密 {int8:g} TOPS）" if int8 else "") + "，显存与 FP8 相同。" if zh else
                f"**No**: {name} has no FP8 at all, not even weight-only; its 8-bit route is W8A8 INT8"
                + (f" ({int8:g} dense TOPS)" if int8 else "") + ", the same memory as FP8.")
    return (f"**不支持原生 {fmt.upper()}**：{name} 没有 {fmt.upper()} 张量核心。{fmt.upper()} 权重仍可加载（如 vLLM 的仅权重量化，"
            f"W8A16），省一半显存、解码读得更少，但矩阵乘按 16 位算，没有 {fmt.upper()} 的算力提升"
            + (f"；这张卡原生的 8 位是 INT8（W8A8，稠密 {int8:g} TOPS）" if int8 and fmt == "fp8" else "") + "。" if zh else
            f"**No native {fmt.upper()}**: {name} has no {fmt.upper()} tensor cores. {fmt.upper()} weights still load "
            f"(weight-only, e.g. vLLM's W8A16 path): half the memory and less to read per decode step, but the matmuls run "
            f"in 16-bit, so no {fmt.upper()} compute speed-up"
            + (f"; the card's native 8-bit is INT8 (W8A8, {int8:g} dense TOPS)" if int8 and fmt == "fp8" else "") + ".")

