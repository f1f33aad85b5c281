"""Question -> intent and slots, for Chinese, English and mixed text. Rules, no model."""
from __future__ import annotations

import re
from typing import Any

from knowledge.catalog import Catalog
from knowledge.documents import detect_lang
from knowledge.generic import parse_param_count

MAX_QUESTION_CHARS = 4000
_CN_NUM = {"一": 1, "两": 2, "二": 2, "三": 3, "四": 4, "五": 5, "六": 6, "七": 7, "八": 8, "九": 9, "十": 10,
           "十六": 16, "三十二": 32, "六十四": 64, "单": 1}

_METHOD = [("qlora", r"qlora|4\s*bit\s*lora|4位lora"), ("lora", r"(?<!q)lora"),
           ("pretrain", r"pre-?train|预训练|从头训练|from scratch"),
           ("full", r"全量|全参|全餐|full[\s-]*(fine[\s-]*tun\w*|ft|finetun\w*|parameter)|full\b"),
           ("inference", r"推理|部署|serv(e|ing)|infer\w*|上线|跑.*(模型|服务)|host\b|decode|生成")]
_PRECISION = [("int4", r"int4|awq|gptq|4\s*-?bit|4位"), ("nf4", r"nf4|bnb"), ("fp8", r"fp8"), ("int8", r"int8|8\s*-?bit"),
              ("fp16", r"fp16"), ("bf16", r"bf16")]


def _cn_number(text: str) -> float | None:
    """七百 -> 700, 一千 -> 1000, 七十 -> 70, 五 -> 5 (what precedes 亿 in '七百亿参数')."""
    digits = {"零": 0, "一": 1, "二": 2, "两": 2, "三": 3, "四": 4, "五": 5, "六": 6, "七": 7, "八": 8, "九": 9}
    total, current = 0, 0
    for ch in text:
        if ch in digits:
            current = digits[ch]
        elif ch in "十百千":
            total += (current or 1) * {"十": 10, "百": 100, "千": 1000}[ch]
            current = 0
        else:
            return None
    return float(total + current) or None
_FINETUNE = r"微调|fine[\s-]*tun|finetun|\bsft\b|\bft\b|训练|train"


def _count_before(text: str, start: int) -> int | None:
    """A GPU count written just before a GPU name: '8卡', '8x', '8 x', '两张', '8 张', '8块'."""
    before = text[max(0, start - 12):start]
    m = re.search(r"(\d+)\s*(?:x|×|\*|张|块|卡|个|台)?\s*$", before, flags=re.IGNORECASE)
    if m:
        return int(m.group(1))
    m = re.search(r"(十六|三十二|六十四|[一两二三四五六七八九十单])\s*(?:张|块|卡|个)?\s*$", before)
    if m:
        return _CN_NUM[m.group(1)]
    m = re.search(r"\b(one|two|three|four|six|eight|sixteen|thirty-two|sixty-four)\s*(?:x\s*)?$", before.lower())
    return _EN_NUM[m.group(1)] if m else None


_EN_NUM = {"one": 1, "two": 2, "three": 3, "four": 4, "six": 6, "eight": 8, "sixteen": 16, "thirty-two": 32,
           "sixty-four": 64}


def truncate_question(text: str, limit: int = MAX_QUESTION_CHARS) -> tuple[str, list[str]]:
    """(the first `limit` characters, [a notice saying so]) for an over-long message; (text, []) otherwise."""
    if len(text) <= limit:
        return text, []
    return text[:limit], [f"the message was {len(text):,} characters; only the first {limit:,} were read"]


def parse(text: str, catalog: Catalog, previous: dict[str, Any] | None = None) -> tuple[str, dict[str, Any], list[str]]:
    """(intent, slots, warnings). Slots not in the question are inherited from `previous` (follow-ups)."""
    text, warnings = truncate_question(text)
    low = text.lower()
    slots: dict[str, Any] = {"lang": detect_lang(text)}
    original_low = low
    latin = re.sub(r"[\u3400-\u9fff，。？！、：；（）]+", " ", low)
    for _, kind, rec in catalog.mentions(text):
        key = "gpu" if kind == "gpu" else "model"
        if key == "gpu":
            slots.setdefault("gpus", []).append(rec.id)
        slots.setdefault(key, rec.id)
    for token in set(re.findall(r"\b[a-z]{1,2}\d{2,4}[a-z]?\b", latin)):  # GPU-like names the table lacks
        if re.fullmatch(r"\d+[bmkt]", token) or token in ("fp16", "bf16", "fp32", "int8", "int4", "fp8", "nf4", "gb"):
            continue
        try:
            catalog.gpu(token)
        except LookupError as e:
            if not any(token in a.lower() for m in catalog.models for a in (m.id, *m.aliases)):
                warnings.append(str(e))
    m = re.search(r"([零一二两三四五六七八九十百千]+)\s*亿\s*(?:参数|params)?", text)
    if "model" not in slots and m and _cn_number(m.group(1)):
        slots["model"] = f"{_cn_number(m.group(1)) * 1e8 / 1e9:g}b"
    if "model" not in slots:
        for gpu_id in slots.get("gpus", []):  # '910B' is a GPU, not 910 billion parameters
            for name in _gpu_names(catalog, gpu_id):
                low = low.replace(name, " ")
        latin = re.sub(r"[\u3400-\u9fff，。？！、：；（）]+", " ", low)
        m = re.search(r"(\d+(?:\.\d+)?)\s*(b|亿|千亿)(?![a-z])", low) or re.search(r"(\d+(?:\.\d+)?)\s*(b)\b", latin)
        if m:
            try:
                n = parse_param_count(m.group(1) + m.group(2))
                slots["model"] = f"{n / 1e9:g}b"
            except ValueError as e:
                warnings.append(str(e))
    low = original_low
    if "gpu" in slots:
        idx = low.find(next((a for a in _gpu_names(catalog, slots["gpu"]) if a in low), slots["gpu"]))
        n = _count_before(text, idx) if idx >= 0 else None
        if n is None and re.search(r"单卡|一张|one\s+(gpu|card)|single|1\s*x", low):
            n = 1
        if n is not None:
            slots["num_gpus"] = n
    m = re.search(r"(\d+)\s*(?:张|块|卡|x)\s*(?:gpu|显卡|卡)?", low)
    if "num_gpus" not in slots and m and "gpu" not in slots:
        slots["num_gpus"] = int(m.group(1))
    named = [method for method, pattern in _METHOD if re.search(pattern, low) and method != "inference"]
    if len({"qlora", "lora", "full"} & set(named)) >= 2:
        slots["method"] = None  # several methods named: weigh them all
        slots["finetune"] = True
    else:
        for method, pattern in _METHOD:
            if re.search(pattern, low):
                slots["method"] = method
                break
    for precision, pattern in _PRECISION:
        if re.search(pattern, low):
            slots["precision"] = precision
            break
    m = re.search(r"batch\s*(?:size\s*)?(?:of\s*)?(\d+)|(\d+)\s*(?:sequences|concurrent|路并发|个并发|条并发)|并发\s*(\d+)", low)
    if m:
        slots["batch"] = int(next(g for g in m.groups() if g))
    if "method" not in slots and re.search(_FINETUNE, low):
        slots["method"] = None  # fine-tuning, method not named
        slots["finetune"] = True
    m = re.search(r"(\d+(?:\.\d+)?)([kK])(?![a-zA-Z])\s*(?:上下文|context|ctx|tokens?|长度|序列)?", text)
    if m and re.search(r"上下文|context|ctx|长度|序列|seq|tokens?", low):
        slots["context"] = int(float(m.group(1)) * 1024)
    if re.search(r"-\s*\d+(?:\.\d+)?\s*(?:t|b|m|万亿|亿)?\s*(?:个)?\s*tokens?", low):
        slots["invalid"] = "a negative token count; give a positive number such as 2T, 500B or 1000亿"
    m = re.search(r"(\d+(?:\.\d+)?)\s*(trillion|billion|million|t|b|m|万亿|亿)\s*(?:个)?\s*tokens?", low)
    if m:
        from tools.units import parse_count

        unit = {"trillion": "t", "billion": "b", "million": "m"}.get(m.group(2), m.group(2))
        slots["tokens"] = parse_count(m.group(1) + unit)
    m = re.search(r"预算\s*(\d+(?:\.\d+)?)\s*(万|亿|k|m)?\s*(美元|元|人民币|usd|\$)?", low) or \
        re.search(r"\$\s*(\d+(?:\.\d+)?)\s*(k|m)?|budget (?:of )?\$?\s*(\d+(?:\.\d+)?)\s*(k|m)?", low)
    if m:
        groups = [g for g in m.groups() if g is not None]
        value = float(groups[0]) * {"万": 1e4, "亿": 1e8, "k": 1e3, "m": 1e6}.get(groups[1] if len(groups) > 1 else "", 1)
        yuan = "元" in m.group(0) or "人民币" in m.group(0) or ("预算" in m.group(0) and "$" not in m.group(0)
                                                              and "美元" not in m.group(0) and "usd" not in m.group(0))
        slots["budget"] = value
        slots["budget_currency"] = "CNY" if yuan else "USD"
    m = re.search(r"(\d+|[一两二三四五六七八九十])\s*(天|周|星期|个月|小时|days?|weeks?|months?|hours?)\s*(内|以内|之内)?", low)
    if m and re.search(r"内|以内|之内|within|deadline|in \d|before", low):
        n = int(m.group(1)) if m.group(1).isdigit() else _CN_NUM[m.group(1)]
        unit = m.group(2)
        hours = n * (24 if unit in ("天", "day", "days") else 168 if unit in ("周", "星期", "week", "weeks")
                     else 730 if unit in ("个月", "month", "months") else 1)
        slots["deadline_hours"] = hours
    if re.search(r"ignore (all |any )?(the )?(previous|prior|above)|忽略(之前|以上|前面|所有)|system prompt|系统提示", low):
        warnings.append("the message contains instructions aimed at the assistant; they were treated as text")
    intent = _intent(low, slots)
    merged = {**(previous or {}), **{k: v for k, v in slots.items() if v is not None or k == "method"}}
    if previous and "method" not in slots and previous.get("method"):
        merged["method"] = previous["method"]
    follow_up = re.search(r"^\s*(那|换成|改成|如果)|呢[？?]?\s*$|what about|how about|^\s*and\b|instead", low)
    if previous and follow_up and "model" not in slots and len(text) < 80:
        intent = previous.get("intent", intent)  # "那H100呢？", "what about with QLoRA?": same question, one slot changed
    merged["intent"] = intent
    return intent, merged, warnings


def _gpu_names(catalog: Catalog, gpu_id: str) -> list[str]:
    g = catalog.gpu(gpu_id)[0]
    return sorted({a.lower() for a in (g.id, *g.aliases)}, key=len, reverse=True)


def _intent(low: str, slots: dict[str, Any]) -> str:
    if len(re.findall(r"[。！？!?]|\.\s", low)) >= 3 and len(low) > 150:  # a pasted paragraph
        return "fact_check"
    if re.search(r"文章|article|说法|claim|对吗|是真的吗|is it true|fact.?check", low):
        return "fact_check"
    if re.search(r"多少钱|价格|成本|租|买|price|cost|rent|buy|\$|预算|budget", low):
        return "cost" if "gpu" in slots else "recommend"
    if re.search(r"推荐|选什么|选哪|哪个好|最便宜|which gpu|what gpu|recomm?end|should i (buy|use)|cheapest|hardware for", low) \
            and (slots.get("model") or slots.get("gpus") or re.search(_DOMAIN, low)):
        return "compare" if len(slots.get("gpus", [])) >= 2 else "recommend"
    if re.search(r"多久|多长时间|几天|多少天|小时|how long|wall.?clock|time to train|gpu.?hours|降级|慢多少|更久|"
                 r"slower|faster|speedup|longer|how many days", low):
        return "training_time"
    if re.search(r"吞吐|延迟|tokens?/s|throughput|latency|ttft|速度|每秒|first token|首 ?token|per second", low) \
            and "model" in slots:  # "bf16 throughput of an A100" (no model) is a spec question
        return "inference_speed"
    if "model" in slots and slots.get("finetune") and slots.get("method") is None and len(slots.get("gpus", [])) < 2:
        return "training_memory"  # "qlora vs lora vs full for 8B": the methods are being compared
    if len(slots.get("gpus", [])) >= 2 or re.search(r"\bvs\.?\b|对比|比较|区别.*(卡|gpu)|compare", low):
        return "compare" if len(slots.get("gpus", [])) >= 2 else "explain"
    if slots.get("method") == "inference" or re.search(r"kv ?cache|上下文|context", low):
        return "inference_memory" if ("model" in slots) else "explain"
    if ("model" in slots) and (slots.get("method") or slots.get("finetune") or re.search(
            r"显存|够不够|够用|放得下|装得下|几张|多少张|how many|enough|fit|memory|vram", low)):
        return "training_memory"
    if "gpu" in slots and re.search(r"显存|带宽|规格|参数|spec|bandwidth|tflops|算力|memory|功耗|tdp|throughput|bf16|fp8|fp16",
                                    low):
        return "spec"
    if re.search(_DOMAIN, low):
        return "explain"
    return "out_of_scope"


# Words that mark a question as being about LLM hardware at all (anything else is out of scope).
_DOMAIN = (r"zero|fsdp|deepspeed|megatron|lora|kv ?cache|bf16|fp16|fp8|fp4|int8|int4|nf4|nvlink|nvswitch|pcie|"
           r"infiniband|roce|tensor parallel|pipeline parallel|data parallel|checkpoint|flash ?attention|attention|moe|"
           r"gpu|tflops|hbm|vram|offload|quantiz|mixed precision|recomput|activation|optimizer|adam|cuda|rocm|cann|"
           r"显存|显卡|并行|精度|量化|混合精度|卸载|检查点|重计算|激活|优化器|注意力|算力|带宽|互联|推理|训练|微调|模型")
