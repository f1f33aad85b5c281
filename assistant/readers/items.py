"""Numbered items: a message that lists its asks ('1. … 2. … 3. …', '1）… 2）…', '(1) … (2) …', '①…②…') is read
item by item, the way a person reads it. Each item is its own question with what the message says before the list
(the model, the hardware) and what earlier items stated (a later item builds on the earlier ones: '2) 8 卡大概多久
3) 总共多少钱' bills item 2's cards and tokens), except the lengths and loads an item tries ('2) 128k 行不行' does not
make item 3's single-user speed a 128k one); nothing an item states leaks into the items before it ('3. 50 个人同时
用，每人 4k' is item 3's load, not items 1 and 2's).
"""
from __future__ import annotations

import re

from assistant.readers.slots import INFER_CUE, w
import unicodedata

from assistant.readers.asks import Ask

_CIRCLED = "①②③④⑤⑥⑦⑧⑨"
# at a line's start: '1.', '1、', '1)', '1）', '(1)', '①'; inside a line, only the bracketed and circled forms
# ('2.5 GB' is never an item), after a space or punctuation
_LINE_MARK = re.compile(r"(?m)^[ \t]*(?:[-*•][ \t]*)?(?:(\d{1,2})[ \t]*(?:\.(?!\d)|[、)）])|[(（](\d{1,2})[)）]|([①-⑨])|"
                        r"[(（]?([a-hA-H])[)）]|([a-hA-H])\.(?=[ \t])|(?:[qQ]|问题?)[ \t]*(\d)[ \t]*[:：.)）、])[ \t]*")
_INLINE_MARK = re.compile(r"(?<=[\s,，:：;；。？?])(?:[(（](\d{1,2})[)）]|(\d{1,2})[)）](?=\s*(?:[^\s\d)）]|\d+\s*[^\s\d)）.,，]))|([①-⑨])|"
                          r"[(（]([a-hA-H])[)）]|([a-hA-H])[)）](?=\s*[a-z\u3400-\u9fff])|(?:[qQ]|问题)[ \t]*(\d)[ \t]*[:：)）])\s*")
# fields that describe the message, not the job an item asks about
NOT_JOB = {"intent", "lang", "stated", "follow_up"}
# what one item tries ('2) 128k 上下文行不行', '3) 50 人同时用'): that item's probe, not carried to the items after it
_PROBES = {"context", "prompt_len", "output_len", "batch", "concurrent_users", "requests_per_s", "kv_dtype"}
# a later item that asks whether something holds the job, or only changes the card or format, keeps the first item's load
_SAME_LOAD = (r"扛|撑|顶得住|够不够|够吗|够用|能不能|能否|行不行|放得下|跑得动|呢\s*[?？]?\s*$|" +
              r"(?<![a-z])(?:hold|handle|enough|fit|fits|cope|carry|what about|how about|and with|instead)(?![a-z])")
# words that make an item a what-if of its own ('2) 128k 行不行'): its lengths are that item's probe
_TRY_WORDS = r"行不行|可不可以|如果|假如|要是|(?<![a-z])(?:what if|if we|suppose)(?![a-z])"


def _number(m: re.Match) -> int:
    """An item mark's place in its list: '2)', '(2)', '②', '(b)', 'b.', 'Q2:' are all the second."""
    digits = m.group(1) or m.group(2) or m.group(6)
    if digits:
        return int(digits)
    if m.group(3):
        return _CIRCLED.index(m.group(3)) + 1
    return ord((m.group(4) or m.group(5)).lower()) - ord("a") + 1


def split_items(text: str) -> tuple[str, list[str]]:
    """(what comes before the list, [each item's text]) for a message whose asks are numbered 1, 2, … in order;
    ('', []) when it has fewer than two such items."""
    marks = []
    for pat in (_LINE_MARK, _INLINE_MARK):
        for m in pat.finditer(text):
            num = _number(m)
            marks.append((m.start(), m.end(), num))
    marks = sorted(set(marks))
    chosen: list[tuple[int, int, int]] = []
    for start, end, num in marks:  # the run 1, 2, 3, … in the order written
        if num == len(chosen) + 1 and (not chosen or start >= chosen[-1][1]):
            chosen.append((start, end, num))
    if len(chosen) < 2:
        return "", []
    items = [text[end:(chosen[i + 1][0] if i + 1 < len(chosen) else len(text))].strip(" \t\n,，;；")
             for i, (_, end, _) in enumerate(chosen)]
    if any(len(x) < 2 for x in items):
        return "", []
    return text[:chosen[0][0]].strip(), items


def item_asks(text: str, req, catalog) -> list[Ask]:
    """One ask per numbered item, each read on its own (with the text before the list and the items before it), as
    updates of the whole message's reading `req`; [] when the message has no numbered list or its items all read the
    same."""
    head, items = split_items(unicodedata.normalize("NFKC", text))
    asks = _asks_of_items(head, items, req, catalog)
    return _options_compared(_speed_at_the_plans_load(asks, req), text, req, catalog)


_METHOD_WORD = r"(?<![a-z])(?:full[\s-]*(?:ft|fine[\s-]*tun\w*|param\w*)|q?lora)(?![a-z])|全参|q?lora"


def method_setups(text: str, req, catalog) -> list[Ask]:
    """'options: full FT on 4x A100 80GB, LoRA on 1x A100 80GB, or QLoRA on a single 4090. compare memory + time': each
    method with its own cards, read on its own and timed (with its fit), compared; [] unless two or more pieces each name
    a method and a card."""
    if len(set(req.methods or [])) < 2 or not req.intent.startswith("training"):
        return []
    norm = unicodedata.normalize("NFKC", text)
    m = re.search(r"(?:options?|choices?|方案)[^:：]{0,30}[:：]\s*(.+?)(?:[.?？。](?:\s|$)|$)", norm, re.I | re.S)
    body = m.group(1) if m else norm
    pieces = [p.strip() for p in re.split(r",\s*(?:or\s+)?|;\s*|\s+or\s+|，|；|、|还是|或者", body) if p.strip()]
    pieces = [p for p in pieces if re.search(_METHOD_WORD, p.lower()) and
              re.search(r"\d|single|one|a\s+\w*\d", p.lower())]
    if len(pieces) < 2:
        return []
    from assistant.readers.rules import read

    out = []
    for p in pieces[:3]:
        r = read(p, catalog).request
        if not (r.method and r.gpu):
            return []
        n = r.num_gpus or (1 if re.search(r"single|(?<![a-z])one(?![a-z])|单卡|一张", p.lower()) else None)
        name = catalog.gpu(r.gpu)[0].name.replace("NVIDIA ", "").replace("GeForce ", "")
        out.append(Ask(text=f"{r.method} on {n or 1}× {name}" if req.lang != "zh" else f"{r.method}：{n or 1}× {name}",
                       intent="training_time", update={"method": r.method, "methods": [], "gpu": r.gpu, "gpus": [r.gpu],
                                                       "num_gpus": n or 1}, compare="method"))
    return out


def _speed_at_the_plans_load(asks: list[Ask], req) -> list[Ask]:
    """'(1) how many cards for 20 sessions at 32k? (2) decode tok/s per user at that load?': the capacity plan gives
    each user's rate at that load (prefill interleaved), so the speed item is not timed again as one stream."""
    from assistant.readers.asks import _ONE_STREAM

    served = [a for a in asks if a.intent == "serving" and a.update.get("concurrent_users", req.concurrent_users)]
    if not served:
        return asks  # (a capacity ask with no load, 'how many at once at 4k?', gives no per-user rate at a load)
    back = (r"此时|这时|这个并发|那个并发|这个负载|那个负载|同样的负载|" +
            r"(?<![a-z])(?:at|with|under) (?:that|this|the same|those|these)(?![a-z])")  # (the item's title may be cut short)
    return [a for a in asks if a in served or not (
        (a.intent == "inference_speed" and not re.search(_ONE_STREAM, a.text.lower()) or
         a.intent == "serving" and re.search(back, a.text.lower())) and
        not a.update.get("concurrent_users") and not a.update.get("batch"))]
    # ('b) roughly what aggregate tok/s to expect at that concurrency': the plan's own total at a)'s load)


# 'which gives the best …?', '哪个好', '选哪个': the items are options to rank, not separate questions
_WHICH = (r"哪个|哪种|哪一个|选哪|怎么选|更好|最好|最快|最便宜|更划算|推荐|"
          r"(?<![a-z])(?:which|best|better|fastest|cheapest|pick|choose|compare|recommend\w*)(?![a-z])")


def _options_compared(asks: list[Ask], text: str, req, catalog) -> list[Ask]:
    """Items that set up the same job on different cards or counts ('(a) 2x H100 FP8, (b) 1x H200 FP8, (c) 4x L40S
    AWQ: which gives the best throughput?'), with a choice asked: options compared, each named by its set-up."""
    if len(asks) < 2 or len({a.intent for a in asks}) != 1 or any(a.compare for a in asks) or \
            not re.search(_WHICH, text.lower()):
        return asks
    whole = req.model_dump()
    setups = [((a.update.get("gpu", whole.get("gpu"))), a.update.get("num_gpus", whole.get("num_gpus")),
               a.update.get("precision", whole.get("precision"))) for a in asks]
    if len(set(setups)) < len(setups) or any(g is None for g, _, _ in setups) or len({g for g, _, _ in setups}) < 2 and \
            len({n for _, n, _ in setups}) < 2:
        return asks
    out = []
    for a, (g, n, fmt) in zip(asks, setups):
        try:
            name = catalog.gpu(g)[0].name.replace("NVIDIA ", "")
        except (LookupError, ValueError):
            name = g
        label = (f"{n}× " if n else "") + name + (f" {fmt}" if fmt else "")
        out.append(a.model_copy(update={"text": label, "compare": "gpu"}))
    return out


# 'X 方案 …; 换成 Y 呢?', '… what if we switch to Y at …': a second set-up written after the first
_SWITCH = re.compile(r"[。.;；?？]\s*(?:那|如果|要是|假如)?\s*(?=换成|改成|改用|换用|(?:what if we |if we |and if we )?(?:switch(?:ed)? to|"
                     r"instead (?:use|go with)|move to)\b)", re.I)


def scenario_asks(text: str, req, catalog) -> list[Ask]:
    """Two set-ups of one cost question, each with its own cards, price and throughput ('租 4 张 A100, ¥7/卡/小时, 实测
    1,800 tokens/s … 换成 2 张 H20, ¥9/卡/时, 吞吐 1,500 tokens/s 呢?'): one ask per set-up, each read with the words
    before the first set-up and carrying what the first stated that the second does not change; [] otherwise."""
    from assistant.readers.slots import TPS_RATE

    norm = unicodedata.normalize("NFKC", text)
    m = _SWITCH.search(norm)
    if not m or not (req.per_token_cost or req.intent == "cost"):
        return []
    first, second = norm[:m.end()], norm[m.end():]
    money_word = r"[¥￥$]|元|块|usd|rmb|dollars?"
    if not all(re.search(TPS_RATE, p.lower()) and re.search(money_word, p.lower()) for p in (first, second)):
        return []
    asks = _asks_of_items("", [first, second], req, catalog)
    if len(asks) != 2:
        return []
    zh = req.lang == "zh"
    for i, a in enumerate(asks):
        asks[i] = a.model_copy(update={"intent": "cost", "update": a.update | {"per_token_cost": True, "measured_gpu": None,
                                                                            "measured_num_gpus": None,
                                                                            "measured_model": None},
                                       "text": ("方案 " if zh else "set-up ") + "AB"[i]})
    return asks


# what a later job on another model keeps of an earlier one: the machine it runs on, not the job's own settings
HARDWARE = {"gpu", "gpus", "gpu_text", "unknown_gpu", "num_gpus", "gpus_per_node", "nodes", "interconnect", "ram_gb",
            "standard_server", "device_kind", "host_owned", "server", "provider", "price_per_gpu_hour", "currency"}


def model_clauses(text: str, catalog) -> tuple[str, list[str]]:
    """(the words before the first model, [each model's part]) for a message that names several models, each in a
    clause of its own ('our box is 4x L40S: can it serve Llama 3.1 70B in FP8, and how long would a LoRA of Llama 3.1
    8B on 50M tokens take on it?'); clauses that name no model belong to the model before them."""
    from assistant.readers.asks import _CLAUSE
    from assistant.readers.names import find_names

    norm = unicodedata.normalize("NFKC", text)
    cuts = [0] + [m.end() for m in _CLAUSE.finditer(norm) if 0 < m.end() < len(norm)] + [len(norm)]
    head, parts, seen = "", [], []
    for a, b in zip(cuts, cuts[1:]):
        clause = norm[a:b]
        models = find_names(clause.lower(), catalog)[0].models
        new = [m for m in models if m not in seen]
        if new and len(models) == 1:
            parts.append(clause)
            seen += new
        elif parts:
            parts[-1] += clause
        elif models:
            return "", []  # several models in one clause: one question about them all ('7B and 14B?')
        else:
            head += clause
    return head.strip(), [p.strip(" \t\n,，;；") for p in parts]


_DIFFERENCE = (r"区别|差别|差异|差在哪|差在什么|有啥不同|有什么不同|不同在哪|到底是.{1,16}还是|"
               r"(?<![a-z])(?:difference|diffrence|diference|differ|what(?:'s| is) the deal with)(?![a-z])")


def difference_asks(text: str, req, catalog) -> list[Ask]:
    """'H100 PCIe 和 SXM 有啥区别？我们手上 4 张 PCIe，想 LoRA 微调 32B，能行吗': the question about a difference (or which
    of two a thing is: 'H20 到底是 96G 还是 141G'), read on its own, then the job the rest of the message asks; [] when
    the message is the difference question alone or both read the same."""
    norm = unicodedata.normalize("NFKC", text)
    m = re.match(r"\s*([^?？]{4,160}?[?？])\s*(.+)$", norm, re.S)
    if not m or not re.search(_DIFFERENCE, m.group(1).lower()) or len(m.group(2).strip()) < 12:
        return []
    rest = m.group(2).strip()
    if not re.search(r"[?？吗呢]|" + r"(?<![a-z])(?:how|what|which|can|could|will|should|is it|does)(?![a-z])|能行|行不行|够不够|"
                     r"多少|几张|怎么|能不能|可以吗|靠谱", rest.lower()):
        return []  # (the words after it describe the difference question; they are not a job of their own)
    asks = _asks_of_items("", [m.group(1).strip(), rest], req, catalog, distinct_intents=True,
                          carry={"model", "models", "model_text", "family", "family_flagship", "full_model", "precision"})
    trains = asks[1].intent.startswith("training") or req.method in ("full", "lora", "qlora", "pretrain") if len(asks) == 2 \
        else False
    if len(asks) == 2 and len(set(req.gpus or [])) >= 2 and trains and not req.tokens and re.search(
            r"性能|速度|快多少|慢多少|差多少|差距|(?<![a-z])(?:faster|slower|speed|performance|how much (?:faster|slower))(?![a-z])",
            rest.lower()):
        # 'A800 和 A100 有啥区别？单机 8 卡训 13B 全参，性能差多少？': the same job timed on each card (the ratio needs no
        # token count), at the count the job names
        from assistant.readers.rules import read as read_part

        n = read_part(rest, catalog).request.num_gpus or req.num_gpus
        job = {k: v for k, v in asks[1].update.items() if k not in ("gpu", "gpus", "gpu_text", "num_gpus")}
        return asks[:1] + [Ask(text=(f"{n}× " if n else "") + catalog.gpu(g)[0].name.replace("NVIDIA ", ""),
                               intent="training_time", update=job | {"gpu": g, "gpus": [g], "num_gpus": n,
                                                                     "ratio_only": True}, compare="gpu")
                           for g in list(dict.fromkeys(req.gpus))[:3]]
    if len(asks) == 2 and len(set(req.gpus or [])) >= 2 and not asks[1].update.get("gpu") and asks[1].intent in (
            "training_memory", "training_time", "inference_memory", "inference_speed", "serving"):
        # 'what is the difference between 8x A800 and 8x H800? we want to fine-tune 32B, how many servers?': the
        # difference, then the job on each card compared (not on a card nobody named)
        from assistant.readers.asks import several_cards

        low = unicodedata.normalize("NFKC", text.replace("，", "， ")).lower()
        cards = several_cards(low, req.model_copy(update={"intent": asks[1].intent}), catalog)
        if len(cards) >= 2 and all(a.intent == asks[1].intent for a in cards):
            job = {k: v for k, v in asks[1].update.items() if k not in ("gpu", "gpus", "gpu_text", "num_gpus")}
            return asks[:1] + [a.model_copy(update={"update": job | a.update}) for a in cards]
    each = re.search(r"每种|各种|各自|每个格式|分别|(?<![a-z])(?:each (?:one|format|of them)|every one|for each)(?![a-z])",
                     rest.lower())
    if asks and each and len(asks) == 2:
        from assistant.readers.asks import _label, _values_named

        fmts = [v for _, v in sorted(_values_named(m.group(1).lower(), "precision"))]
        if len(fmts) >= 2 and asks[1].intent in ("inference_memory", "inference_speed", "serving"):
            # 'Q4_K_M、AWQ、GPTQ、FP8、NF4 啥区别？70B 每种占多少显存？': the rest asked for each format named before it
            base = {k: v for k, v in asks[1].update.items() if k not in ("precision", "checkpoint_format", "engine")}
            job = "inference_memory" if re.search(r"显存|内存|占多少|多大|(?<![a-z])(?:memory|vram|how big)(?![a-z])",
                                                  rest.lower()) else asks[1].intent  # (how much each takes: its memory)
            if job == "inference_memory":
                base["engine"] = None  # (each format's own memory, not the share vLLM reserves whatever the format)
            asks = asks[:1] + [Ask(text=_label("precision", f, req.lang == "zh"), intent=job,
                                   update=base | {"precision": f, "checkpoint_format": None, "exact_format": True},
                                   compare="precision") for f in fmts[:5]]
    return asks


def model_clause_asks(text: str, req, catalog) -> list[Ask]:
    """Several models, each with a job of its own ('can it serve the 70B …, and how long would a LoRA of the 8B take
    on it?'): each model's part read on its own, with the words before it and the machine named earlier; [] when the
    parts ask the same kind of question (the same question for each model is several_models')."""
    if len(set(req.models or [])) < 2:
        return []
    head, parts = model_clauses(text, catalog)
    if len(parts) < 2:
        return []
    return _asks_of_items(head, parts, req, catalog, carry=HARDWARE, distinct_intents=True)


def _values_in_item(item: str, r, intent: str) -> list:
    """An item that asks at two values of one load setting ('at batch 1, and total tok/s at batch 32', 'at 8k and
    32k'): one ask per value; [] otherwise."""
    from assistant.readers.asks import several_values

    if intent not in ("inference_speed", "serving", "inference_memory"):
        return []
    vals = several_values(unicodedata.normalize("NFKC", item).lower(), r)
    return vals if len(vals) >= 2 and all(v.compare in ("batch", "context", "concurrent_users") for v in vals) else []


def _asks_of_items(head: str, items: list[str], req, catalog, carry: set | None = None,
                   distinct_intents: bool = False) -> list[Ask]:
    """One ask per item, read with `head` and what earlier items stated (all of it but their probes, or only the
    fields in `carry`)."""
    from assistant.readers.rules import read

    if len(items) < 2:
        return []
    head_stated = set(read(head, catalog).request.stated) if head else set()
    whole = req.model_dump()
    earlier: dict = {}
    load: dict = {}  # the first item's lengths and load, when it states the job ('1) bf16, 32k, 20 并发 …')
    asks = []
    reads = [read(f"{head} {item}" if head else item, catalog).request for item in items]
    named = [r for r in reads if "gpu" in r.stated]
    shared = HARDWARE if carry is None and len(named) == 1 and len({r.gpu for r in named}) == 1 else set()
    # ('(a) 1 user at 128k and (b) 8 users at 32k? does either fit on one H100': the one machine named serves all)
    for item, r in zip(items, reads):
        own = {k: getattr(r, k) for k in r.stated if k not in NOT_JOB}
        new = dict(whole)
        for k in req.stated:  # what only other items state is not this item's
            if k not in NOT_JOB and k not in own and k not in earlier and k not in head_stated and k not in shared:
                new[k] = getattr(r, k)
        new |= {k: v for k, v in earlier.items() if k not in own} | own
        if load and not (set(own) & _PROBES) and re.search(_SAME_LOAD, item.lower()):
            # '2) 单卡 H20 能不能扛住？ 3) 上 FP8 呢？' after '1) 32k 上下文，20 并发': the same load, on the card or format named
            new |= {k: v for k, v in load.items() if k not in own}
        if carry is not None and (r.model or "model" not in carry):  # each part's own model(s), not the message's
            new |= {"model": r.model, "models": r.models, "model_text": r.model_text}
        if carry is not None:
            if "gpu" not in carry:  # (and its own cards: the difference asked about names cards it does not own)
                new |= {k: getattr(r, k) for k in ("gpu", "gpus", "gpu_text", "num_gpus", "interconnect")}
        if "precision" in own and "checkpoint_format" not in own:
            # '3) … (bf16 weights)' after '2) … fp8 weights': the item's own format, not a checkpoint another item named
            new["checkpoint_format"] = None
        update = {k: v for k, v in new.items() if k not in NOT_JOB and v != whole.get(k)}
        intent = r.intent
        if intent == "fact_check" and req.intent != "fact_check":  # a long head before a short item reads as pasted
            alone = read(item, catalog).request.intent  # text; the item's own words say what it asks
            intent = alone if alone not in ("fact_check", "out_of_scope") else req.intent
        if asks and re.match(r"\s*(?:\d+[).、]\s*)?(?:the\s+)?(?:same|ditto|likewise)(?![a-z])|\s*(?:\d+[).、]\s*)?(?:同样|一样|同上|也)",
                             item.lower()):
            intent = asks[-1].intent  # ('2) same w/ fp8 weights?': the question before it, with this change)
        elif asks and asks[-1].intent.startswith("training") and intent == "inference_memory" and re.search(
                r"(?<![a-z])(?:that|it|this|those)(?![a-z])|那|这", item.lower()) and not re.search(
                INFER_CUE, item.lower()):
            intent = asks[-1].intent  # ('(2) so how many A100 80GB is that?' after a full fine-tune's memory: that job)
        if re.search(r"电费|耗电|功耗.{0,6}(?:多少|几)|" + w(r"(?:electricity|power) (?:bill|cost)s?|cost of (?:electricity|power)"),
                     item.lower()) and intent != "cost":
            intent = "cost"  # ('3）一年电费多少（电价按 1 元/度）' beside a serving plan: the power bill of that machine)
        if intent in ("recommend", "compare") and req.gpu and re.search(
                r"(?<![a-z])(?:which|what) (?:quant\w*|format|precision|bits?|gguf|file)|(?:哪种|什么|哪个|用啥)\s*(?:量化|格式|精度)|"
                r"量化(?:用|选)(?:哪|什么)", item.lower()):
            # ('2) if not, which quant should I use' on the 4090 named): the formats that fit the card, the best one
            intent = "inference_memory"
            update = update | {"precision": None, "exact_format": False, "checkpoint_format": None}
        split = _values_in_item(item, r, intent)
        if split:  # '(2) decode tok/s at batch 1, and total tok/s at batch 32?': the item asked at each value
            asks += [Ask(text=f"{_title(item)} — {v.text}", intent=intent, update=update | v.update) for v in split]
        else:
            asks.append(Ask(text=_title(item), intent=intent, update=update))
        earlier |= {k: v for k, v in own.items() if (k in carry if carry is not None else k not in _PROBES)}
        if not asks[:-1] and carry is None and not re.search(_TRY_WORDS, item.lower()):
            load = {k: v for k, v in own.items() if k in _PROBES}  # (the first item sets the job's load)
    fmts = [r.precision for r in reads[:-1] if "precision" in r.stated and r.precision]
    if asks and re.search(r"两种方案|两个方案|两种都|两套|各自|分别|(?<![a-z])(?:both|each (?:option|scheme|setup)|either)(?![a-z])",
                          items[-1].lower()) and len(set(fmts)) >= 2:
        # '1) bf16 要几张 2) 换 AWQ 要几张 3) 32 个并发每路 4k，两种方案 KV 够不够': the last item asked of each scheme
        last = asks.pop()
        for f in dict.fromkeys(fmts):
            upd = {k: v for k, v in last.update.items() if k not in ("precision", "checkpoint_format", "prompt_len")}
            asks.append(Ask(text=f"{last.text} ({f})", intent=last.intent,
                            update=upd | {"precision": f, "checkpoint_format": None}))
    if len({(a.intent, repr(sorted(a.update.items()))) for a in asks}) < 2:
        return []
    if distinct_intents and len({a.intent for a in asks}) < 2:
        return []
    keys = {k for a in asks for k in a.update}
    if len({a.intent for a in asks}) == 1 and len(keys) == 1 and next(iter(keys)) in ("precision", "gpu", "num_gpus",
                                                                                       "batch", "method", "model"):
        key = next(iter(keys))  # the items differ in one setting: compared, with a pick; each names its own value
        asks = [a.model_copy(update={"compare": key, "update": {key: getattr(req, key)} | a.update}) for a in asks]
    return asks


def _title(item: str) -> str:
    """A section's title: the item as asked, shortened to its first line."""
    line = item.strip().splitlines()[0].strip()
    return line if len(line) <= 60 else line[:57] + "…"
